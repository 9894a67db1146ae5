//! The counting operations on the host: plain Rust over the elements where
//! they are stored, each task counting into an array of its own and the
//! arrays summed (counts are integers: the order changes nothing), with the
//! kernels' bins (the same arithmetic in the element's type, `f16`
//! rounding after each operation as the host's grid kernels do).

use std::ops::{Div, Mul, Sub};

use rayon::prelude::*;
use silt::{f16, Element, Result, Tensor, TensorT};

/// The elements a task counts at least.
const TASK: usize = 1 << 16;

/// The most bins each task keeps an array of (past them, one pass counts
/// straight into the result).
const TASK_BINS: usize = 1 << 16;

/// `count[bin(v)] += 1` for every element `v` of `xs` that `bin` places.
fn count<T: Copy + Send + Sync>(
    xs: &[T],
    bins: usize,
    bin: impl Fn(T) -> Option<usize> + Sync,
) -> Vec<i64> {
    let add = |mut acc: Vec<i64>, part: &[T]| {
        for &v in part {
            if let Some(b) = bin(v) {
                acc[b] += 1;
            }
        }
        acc
    };
    if bins > TASK_BINS || xs.len() <= TASK {
        return add(vec![0; bins], xs);
    }
    xs.par_chunks(TASK).fold(|| vec![0; bins], add).reduce(
        || vec![0; bins],
        |mut a, b| {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
            a
        },
    )
}

/// `input` (1-d, of an integer type; no element negative) counted into
/// `out` (`i64`, of `bins` elements): `bincount` without weights.
pub(crate) fn bincount(input: &Tensor, out: &mut Tensor) -> Result<()> {
    silt::select!(input.dtype(), T => bincount_typed::<T>(input, out), [u8, i8, i16, i32, i64])
}

/// An integer element as the kernels' `x as u64`.
trait AsPlace: Element + Send + Sync {
    fn place(self) -> u64;
}

macro_rules! as_place {
    ($($t:ty),*) => {$(
        impl AsPlace for $t {
            #[allow(clippy::cast_sign_loss, clippy::cast_lossless)]
            fn place(self) -> u64 {
                self as u64
            }
        }
    )*};
}
as_place!(u8, i8, i16, i32, i64);

fn bincount_typed<T: AsPlace>(input: &Tensor, out: &mut Tensor) -> Result<()> {
    let x: TensorT<T> = contiguous(input)?.typed()?;
    let bins = out.len();
    let counts = x.with_host_slice(|xs| {
        count(xs, bins, |v| {
            usize::try_from(v.place()).ok().filter(|&b| b < bins)
        })
    })?;
    out.copy_from(&Tensor::from_slice(out.device(), &counts, [bins])?)
}

/// A float element type of `histc`, with the kernels' conversions.
trait Binned: Element + Send + Sync + PartialOrd {
    /// The kernels' `bins as T`.
    fn of_count(n: u64) -> Self;
    /// A range's end rounded to `T`, as the launching function rounds it.
    fn of_f64(v: f64) -> Self;
    /// The kernels' `histc_bin(v, lo, hi, scale, bins)`.
    fn bin(v: Self, lo: Self, hi: Self, scale: Self, bins: u64) -> u64;
}

/// `device::histc_bin` in `T`'s arithmetic (`half`: 0.5, `zero`: 0;
/// `truncate`: the conversion of a position in `(0, bins)`).
#[allow(clippy::too_many_arguments)]
fn bin_in<T>(
    v: T,
    lo: T,
    hi: T,
    scale: T,
    bins: u64,
    half: T,
    zero: T,
    truncate: impl Fn(T) -> u64,
) -> u64
where
    T: Copy + PartialOrd + Sub<Output = T> + Mul<Output = T> + Div<Output = T>,
{
    let span = hi - lo;
    let whole = span * scale;
    #[allow(clippy::eq_op)]
    let pos = if whole - whole == zero {
        (v - lo) * scale / span
    } else if span - span == zero {
        (v - lo) / span * scale
    } else {
        (v * half - lo * half) / (hi * half - lo * half) * scale
    };
    if pos >= scale {
        bins - 1
    } else if pos > zero {
        truncate(pos)
    } else {
        0
    }
}

impl Binned for f32 {
    #[allow(clippy::cast_precision_loss)]
    fn of_count(n: u64) -> Self {
        n as f32
    }
    #[allow(clippy::cast_possible_truncation)]
    fn of_f64(v: f64) -> Self {
        v as f32
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    fn bin(v: Self, lo: Self, hi: Self, scale: Self, bins: u64) -> u64 {
        bin_in(v, lo, hi, scale, bins, 0.5, 0.0, |p| p as u64)
    }
}

impl Binned for f64 {
    #[allow(clippy::cast_precision_loss)]
    fn of_count(n: u64) -> Self {
        n as f64
    }
    fn of_f64(v: f64) -> Self {
        v
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    fn bin(v: Self, lo: Self, hi: Self, scale: Self, bins: u64) -> u64 {
        bin_in(v, lo, hi, scale, bins, 0.5, 0.0, |p| p as u64)
    }
}

impl Binned for f16 {
    #[allow(clippy::cast_precision_loss)]
    fn of_count(n: u64) -> Self {
        f16::from_f64(n as f64)
    }
    fn of_f64(v: f64) -> Self {
        f16::from_f64(v)
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    fn bin(v: Self, lo: Self, hi: Self, scale: Self, bins: u64) -> u64 {
        // each operation rounded to f16, as the host's grid kernels do
        bin_in(v, lo, hi, scale, bins, f16::from_f32(0.5), f16::ZERO, |p| {
            p.to_f32() as u64
        })
    }
}

/// The histogram of `input` (float) over `[lo, hi]` into `out` (`i64`, of
/// `bins` elements), as `device::histc_count`: `histc`'s counts.
pub(crate) fn histc(input: &Tensor, lo: f64, hi: f64, out: &mut Tensor) -> Result<()> {
    silt::select!(input.dtype(), T => histc_typed::<T>(input, lo, hi, out), [f16, f32, f64])
}

fn histc_typed<T: Binned>(input: &Tensor, lo: f64, hi: f64, out: &mut Tensor) -> Result<()> {
    let x: TensorT<T> = contiguous(input)?.typed()?;
    let bins = out.len();
    let (lo, hi) = (T::of_f64(lo), T::of_f64(hi));
    let scale = T::of_count(bins as u64);
    let counts = x.with_host_slice(|xs| {
        count(xs, bins, |v| {
            // NaN and the elements outside count nowhere; the top edge in
            // the last bin
            (v >= lo && v <= hi).then(|| {
                let at = T::bin(v, lo, hi, scale, bins as u64);
                usize::try_from(at).map_or(bins - 1, |b| b.min(bins - 1))
            })
        })
    })?;
    out.copy_from(&Tensor::from_slice(out.device(), &counts, [bins])?)
}

/// `t` itself where it is contiguous, else a contiguous copy.
fn contiguous(t: &Tensor) -> Result<Tensor> {
    if t.is_contiguous() {
        Ok(t.clone())
    } else {
        t.contiguous()
    }
}

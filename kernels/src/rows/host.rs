//! The row-wise operations on the host: the row-per-work-item kernels'
//! steps (`device.rs`, the `_row_items` kernels) as plain Rust over each row,
//! rows in parallel. The same sums in the same order, the same `exp`, `ln`
//! and `sqrt` (Rust's, which the host's grid kernels call too), so the same
//! bits as the host's grid kernels, at the speed of a loop.

use rayon::prelude::*;
use silt::{f16, Element, Result, TensorT};

/// The lanes of a row: the work-items of the work-group form.
const LANES: usize = 128;

/// The type a row's sums are taken in.
pub trait Acc:
    Copy
    + Send
    + Sync
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    #[doc(hidden)]
    const ZERO: Self;
    #[doc(hidden)]
    const ONE: Self;
    #[doc(hidden)]
    const NEG_INFINITY: Self;
    #[doc(hidden)]
    fn exp(self) -> Self;
    #[doc(hidden)]
    fn ln(self) -> Self;
    #[doc(hidden)]
    fn sqrt(self) -> Self;
    /// A row's length, as the kernels' `n as T`.
    #[doc(hidden)]
    fn of_len(n: usize) -> Self;
    /// The kernels' `eps as T`.
    #[doc(hidden)]
    fn of_f64(v: f64) -> Self;
}

macro_rules! acc {
    ($($t:ty),*) => {$(
        impl Acc for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[allow(clippy::cast_precision_loss)]
            fn of_len(n: usize) -> Self {
                n as u64 as $t
            }
            #[allow(clippy::cast_possible_truncation)]
            fn of_f64(v: f64) -> Self {
                v as $t
            }
        }
    )*};
}
acc!(f32, f64);

/// A float type of the row-wise operations on the host: its sums' type and
/// the conversions to and from it.
pub trait HostRows: Element + Send + Sync {
    #[doc(hidden)]
    type Acc: Acc;
    /// Whether `narrow` is exact (the sums' type is the element's), so that
    /// `softmax` may keep each `exp` in its output until it divides it.
    #[doc(hidden)]
    const EXACT: bool;
    #[doc(hidden)]
    fn widen(self) -> Self::Acc;
    #[doc(hidden)]
    fn narrow(a: Self::Acc) -> Self;
}

impl HostRows for f32 {
    type Acc = f32;
    const EXACT: bool = true;
    fn widen(self) -> f32 {
        self
    }
    fn narrow(a: f32) -> Self {
        a
    }
}

impl HostRows for f64 {
    type Acc = f64;
    const EXACT: bool = true;
    fn widen(self) -> f64 {
        self
    }
    fn narrow(a: f64) -> Self {
        a
    }
}

impl HostRows for f16 {
    type Acc = f32;
    const EXACT: bool = false;
    fn widen(self) -> f32 {
        silt::__private::f16_widen(self)
    }
    fn narrow(a: f32) -> Self {
        silt::__private::f16_narrow(a)
    }
}

/// The kernels' maximum of a lane and an element: NaN wins.
#[allow(clippy::eq_op)]
fn top<A: Acc>(p: A, e: A) -> A {
    if p == p && (e != e || e > p) {
        e
    } else {
        p
    }
}

/// Each lane's fold of its elements of `row` (element `i` to lane `i % 128`,
/// in order, from `start`), then [`tree`]: the row's value.
fn lanes<T: HostRows>(
    row: &[T],
    start: T::Acc,
    f: impl Fn(T::Acc, T::Acc) -> T::Acc,
    each: impl Fn(T::Acc) -> T::Acc,
) -> T::Acc {
    let mut part = [start; LANES];
    for chunk in row.chunks(LANES) {
        for (p, &v) in part.iter_mut().zip(chunk) {
            *p = f(*p, each(v.widen()));
        }
    }
    tree(part, f)
}

/// The kernels' tree over the lanes: `part[l] = f(part[l], part[l + h])` for
/// `h` = 64, 32, .., 1, then `part[0]`.
fn tree<A: Acc>(mut part: [A; LANES], f: impl Fn(A, A) -> A) -> A {
    let mut h = LANES / 2;
    while h > 0 {
        for l in 0..h {
            part[l] = f(part[l], part[l + h]);
        }
        h /= 2;
    }
    part[0]
}

/// The rows of `x` (`[A, B, n]`) through `f` into `y` (a view of the same
/// shape), rows in parallel: directly where `y` is contiguous, else through
/// a contiguous result copied into it.
fn each_row<T: HostRows>(
    x: &TensorT<T>,
    y: &mut TensorT<T>,
    f: impl Fn(&[T], &mut [T]) + Sync,
) -> Result<()> {
    let n = x.shape()[2];
    let xc = x.contiguous()?;
    let run = |ys: &mut [T], xs: &[T]| {
        ys.par_chunks_mut(n)
            .zip(xs.par_chunks(n))
            .for_each(|(yr, xr)| f(xr, yr));
    };
    if y.is_contiguous() {
        xc.with_host_slice(|xs| y.with_host_slice_mut(|ys| run(ys, xs)))??;
    } else {
        let mut r = TensorT::<T>::zeros(x.device(), x.shape())?;
        xc.with_host_slice(|xs| r.with_host_slice_mut(|ys| run(ys, xs)))??;
        y.copy_from(&r)?;
    }
    Ok(())
}

/// `softmax` (`log` false) or `log_softmax` of the rows of `x` into `y`.
/// Where `y` holds the sums' type exactly, `softmax` keeps each `exp` in `y`
/// until it divides it (as the kernels do), rather than taking it twice.
pub(crate) fn softmax<T: HostRows>(x: &TensorT<T>, y: &mut TensorT<T>, log: bool) -> Result<()> {
    let keep = T::EXACT && !log;
    each_row(x, y, |xr, yr| {
        let m = lanes::<T>(xr, T::Acc::NEG_INFINITY, top, |e| e);
        let total = if keep {
            let mut part = [T::Acc::ZERO; LANES];
            for (xc, yc) in xr.chunks(LANES).zip(yr.chunks_mut(LANES)) {
                for ((p, &v), o) in part.iter_mut().zip(xc).zip(yc) {
                    let ex = (v.widen() - m).exp();
                    *o = T::narrow(ex);
                    *p = *p + ex;
                }
            }
            tree(part, |p, e| p + e)
        } else {
            lanes::<T>(xr, T::Acc::ZERO, |p, e| p + e, |e| (e - m).exp())
        };
        let lt = total.ln();
        for (o, &v) in yr.iter_mut().zip(xr) {
            let e = v.widen();
            *o = T::narrow(if log {
                (e - m) - lt
            } else if keep {
                o.widen() / total
            } else {
                (e - m).exp() / total
            });
        }
    })
}

/// `layer_norm` (`rms` false) or `rms_norm` of the rows of `x` into `y`,
/// with `w` and `b` of the row's length.
pub(crate) fn norm<T: HostRows>(
    x: &TensorT<T>,
    w: &TensorT<T>,
    b: &TensorT<T>,
    y: &mut TensorT<T>,
    rms: bool,
    eps: f64,
) -> Result<()> {
    let (w, b) = (w.to_vec()?, b.to_vec()?);
    let eps = T::Acc::of_f64(eps);
    each_row(x, y, |xr, yr| {
        let n = T::Acc::of_len(xr.len());
        // rms_norm: a tree of zeros, as the kernels' (`0 / n` is 0)
        let mean = if rms {
            T::Acc::ZERO / n
        } else {
            lanes::<T>(xr, T::Acc::ZERO, |p, e| p + e, |e| e) / n
        };
        let sq = lanes::<T>(xr, T::Acc::ZERO, |p, e| p + e, |e| (e - mean) * (e - mean));
        let scale = T::Acc::ONE / (sq / n + eps).sqrt();
        for (i, (o, &v)) in yr.iter_mut().zip(xr).enumerate() {
            let d = (v.widen() - mean) * scale * w[i].widen();
            *o = T::narrow(if rms { d } else { d + b[i].widen() });
        }
    })
}

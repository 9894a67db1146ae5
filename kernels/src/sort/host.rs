//! `sort` on the host: each row's elements turned into keys that order as
//! the device kernels do (an unsigned integer per element, NaN mapped above
//! every number, `-0.0` onto `0.0`), each paired with its index along the
//! row and sorted by Rust's sort, rows in parallel (rayon), a long row by
//! several threads. Keys of up to 32 bits are packed with the index into
//! one `u64`. The pairs are distinct, so the order is the devices' one
//! permutation (equal keys by index: stable); the values are then read from
//! the row at the sorted indices, bit for bit.

use rayon::prelude::*;
use silt::{f16, Element, Result, TensorT};

/// The length at which one row is sorted by several threads.
const PARALLEL_ROW: usize = 1 << 16;

/// The element types' host `sort`: their keys.
pub trait HostSort: Element + Send + Sync {
    /// Whether [`key`](Self::key) fits in 32 bits.
    #[doc(hidden)]
    const NARROW: bool;

    /// An unsigned key in the order of the sort, ascending: NaN above
    /// every number (all NaNs one key), `-0.0` the key of `0.0`.
    #[doc(hidden)]
    fn key(self) -> u64;

    /// Sorts the rows of `x` (`[outer, inner, n]`) into `values` and
    /// `indices` (contiguous, of `x`'s rows along their dimension).
    #[doc(hidden)]
    fn host_sort(
        x: &TensorT<Self>,
        desc: bool,
        values: &mut TensorT<Self>,
        indices: &mut TensorT<i64>,
    ) -> Result<()> {
        run(x, desc, values, indices)
    }
}

macro_rules! unsigned_keys {
    ($($t:ty: $narrow:literal),*) => {$(
        impl HostSort for $t {
            const NARROW: bool = $narrow;
            fn key(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}
unsigned_keys!(bool: true, u8: true, u16: true, u32: true, u64: false);

macro_rules! signed_keys {
    ($($t:ty => $u:ty: $narrow:literal),*) => {$(
        impl HostSort for $t {
            const NARROW: bool = $narrow;
            fn key(self) -> u64 {
                // the sign bit flipped: MIN to 0, MAX to the top
                u64::from(<$u>::from_ne_bytes(self.to_ne_bytes()) ^ (1 << (<$u>::BITS - 1)))
            }
        }
    )*};
}
signed_keys!(i8 => u8: true, i16 => u16: true, i32 => u32: true, i64 => u64: false);

/// The key of a float's bits `b` of `bits` bits: negative numbers
/// complemented (the larger the magnitude, the smaller), the others with
/// the sign bit set.
fn float_key(b: u64, bits: u32) -> u64 {
    let sign = 1u64 << (bits - 1);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if b & sign != 0 {
        !b & mask
    } else {
        b | sign
    }
}

impl HostSort for f16 {
    const NARROW: bool = true;
    fn key(self) -> u64 {
        match self {
            v if v.is_nan() => u64::from(u16::MAX),
            v if v == f16::ZERO => float_key(0, 16),
            v => float_key(u64::from(v.to_bits()), 16),
        }
    }
}

impl HostSort for f32 {
    const NARROW: bool = true;
    fn key(self) -> u64 {
        match self {
            v if v.is_nan() => u64::from(u32::MAX),
            0.0 => float_key(0, 32),
            v => float_key(u64::from(v.to_bits()), 32),
        }
    }
}

impl HostSort for f64 {
    const NARROW: bool = false;
    fn key(self) -> u64 {
        match self {
            v if v.is_nan() => u64::MAX,
            0.0 => float_key(0, 64),
            v => float_key(v.to_bits(), 64),
        }
    }
}

/// Sorts `v`, by several threads when `parallel`.
fn sort<K: Ord + Send>(v: &mut [K], parallel: bool) {
    if parallel {
        v.par_sort_unstable();
    } else {
        v.sort_unstable();
    }
}

/// The indices along one row that sort it: keys complemented for `desc`
/// (an equal key still goes by index, ascending).
fn order_of<T: HostSort>(row: &[T], desc: bool, parallel: bool) -> Vec<usize> {
    let flip = |k: u64, bits: u32| {
        if desc {
            !k & (u64::MAX >> (64 - bits))
        } else {
            k
        }
    };
    if T::NARROW && u32::try_from(row.len()).is_ok() {
        let mut packed: Vec<u64> = (0u64..)
            .zip(row)
            .map(|(p, &v)| flip(v.key(), 32) << 32 | p)
            .collect();
        sort(&mut packed, parallel);
        packed
            .into_iter()
            .map(|k| usize::try_from(k & 0xffff_ffff).unwrap_or(usize::MAX))
            .collect()
    } else {
        let mut pairs: Vec<(u64, usize)> = row
            .iter()
            .enumerate()
            .map(|(p, &v)| (flip(v.key(), 64), p))
            .collect();
        sort(&mut pairs, parallel);
        pairs.into_iter().map(|(_, p)| p).collect()
    }
}

fn run<T: HostSort>(
    x: &TensorT<T>,
    desc: bool,
    values: &mut TensorT<T>,
    indices: &mut TensorT<i64>,
) -> Result<()> {
    let elems = x.to_vec()?;
    let (inner, n) = (x.shape()[1], x.shape()[2]);
    let long = n >= PARALLEL_ROW;
    // each row's order, then its values and indices, row by row
    let mut sorted_values = vec![elems[0]; elems.len()];
    let mut sorted_indices = vec![0i64; elems.len()];
    sorted_values
        .par_chunks_mut(n)
        .zip(sorted_indices.par_chunks_mut(n))
        .zip(elems.par_chunks(n))
        .for_each(|((vs, is), row)| {
            for ((v, i), p) in vs.iter_mut().zip(is).zip(order_of(row, desc, long)) {
                *v = row[p];
                *i = i64::try_from(p).unwrap_or(i64::MAX);
            }
        });
    values.with_host_slice_mut(|out| scatter(out, &sorted_values, inner, n))?;
    indices.with_host_slice_mut(|out| scatter(out, &sorted_indices, inner, n))?;
    Ok(())
}

/// Writes rows (`[outer, inner, n]`, row-major) to a contiguous result whose
/// rows run along a dimension of stride `inner`: row `(o, i)`'s place `q` at
/// `o * n * inner + q * inner + i`.
fn scatter<U: Copy + Send + Sync>(out: &mut [U], rows: &[U], inner: usize, n: usize) {
    if inner == 1 {
        out.copy_from_slice(rows);
        return;
    }
    out.par_chunks_mut(n * inner)
        .zip(rows.par_chunks(n * inner))
        .for_each(|(o, block)| {
            for (i, row) in block.chunks(n).enumerate() {
                for (q, &v) in row.iter().enumerate() {
                    o[q * inner + i] = v;
                }
            }
        });
}

//! `sort` on the host: each row's elements turned into keys that order as
//! the device kernels do (an unsigned integer per element, NaN mapped above
//! every number, `-0.0` onto `0.0`), each paired with its index along the
//! row and sorted by Rust's sort, rows in parallel (rayon), a long row by
//! several threads. Keys of up to 32 bits are packed with the index into
//! one `u64`. The pairs are distinct, so the order is the devices' one
//! permutation (equal keys by index: stable); the values are then read from
//! the row at the sorted indices, bit for bit. Rows along the last
//! dimension are sorted straight into the results (from the input's own
//! elements where it is contiguous); others through a copy each way.

use rayon::prelude::*;
use silt::{f16, Element, Result, TensorT};

/// The length at which one row is sorted by several threads.
const PARALLEL_ROW: usize = 1 << 16;
/// The elements' worth of short rows a task of the parallel loop sorts.
const TASK_ELEMS: usize = 1 << 12;

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

/// The places along one row that sort it, into `places` (cleared first;
/// `packed` and `pairs` are scratch kept between rows): keys complemented
/// for `desc` (an equal key still goes by place, ascending).
fn order_into<T: HostSort>(
    row: &[T],
    desc: bool,
    parallel: bool,
    packed: &mut Vec<u64>,
    pairs: &mut Vec<(u64, usize)>,
    places: &mut Vec<usize>,
) {
    let flip = |k: u64, bits: u32| {
        if desc {
            !k & (u64::MAX >> (64 - bits))
        } else {
            k
        }
    };
    places.clear();
    if T::NARROW && u32::try_from(row.len()).is_ok() {
        packed.clear();
        packed.extend((0u64..).zip(row).map(|(p, &v)| flip(v.key(), 32) << 32 | p));
        sort(packed, parallel);
        places.extend(
            packed
                .iter()
                .map(|k| usize::try_from(k & 0xffff_ffff).unwrap_or(usize::MAX)),
        );
    } else {
        pairs.clear();
        pairs.extend(row.iter().enumerate().map(|(p, &v)| (flip(v.key(), 64), p)));
        sort(pairs, parallel);
        places.extend(pairs.iter().map(|&(_, p)| p));
    }
}

/// The rows of `n` of `elems` (row-major) sorted into the rows of `vs` and
/// `is`: rows in parallel, a few thousand elements' worth of rows a task
/// (its scratch kept from row to row), a long row by several threads.
fn sort_rows<T: HostSort>(elems: &[T], n: usize, desc: bool, vs: &mut [T], is: &mut [i64]) {
    let long = n >= PARALLEL_ROW;
    let task = n * (TASK_ELEMS / n).max(1);
    vs.par_chunks_mut(task)
        .zip(is.par_chunks_mut(task))
        .zip(elems.par_chunks(task))
        .for_each(|((vs, is), rows)| {
            let (mut packed, mut pairs, mut places) = (Vec::new(), Vec::new(), Vec::new());
            for ((vs, is), row) in vs.chunks_mut(n).zip(is.chunks_mut(n)).zip(rows.chunks(n)) {
                order_into(row, desc, long, &mut packed, &mut pairs, &mut places);
                for ((v, i), &p) in vs.iter_mut().zip(is).zip(&places) {
                    *v = row[p];
                    *i = i64::try_from(p).unwrap_or(i64::MAX);
                }
            }
        });
}

fn run<T: HostSort>(
    x: &TensorT<T>,
    desc: bool,
    values: &mut TensorT<T>,
    indices: &mut TensorT<i64>,
) -> Result<()> {
    let (inner, n) = (x.shape()[1], x.shape()[2]);
    if inner == 1 {
        // the results' rows are the rows: sorted into them in place, from
        // `x`'s own elements where it is contiguous
        let into =
            |elems: &[T], values: &mut TensorT<T>, indices: &mut TensorT<i64>| -> Result<()> {
                values.with_host_slice_mut(|vs| {
                    indices.with_host_slice_mut(|is| sort_rows(elems, n, desc, vs, is))
                })?
            };
        return if x.is_contiguous() {
            x.with_host_slice(|elems| into(elems, values, indices))?
        } else {
            into(&x.to_vec()?, values, indices)
        };
    }
    let elems = x.to_vec()?;
    // each row's order, then its values and indices, row by row
    let mut sorted_values = vec![elems[0]; elems.len()];
    let mut sorted_indices = vec![0i64; elems.len()];
    sort_rows(&elems, n, desc, &mut sorted_values, &mut sorted_indices);
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

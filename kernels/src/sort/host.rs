//! `sort` on the host: each row copied out as (element, index) pairs and
//! sorted by Rust's sort with the device kernels' order (keys, NaN after
//! every number, equal keys by index), rows in parallel (rayon), a long row
//! sorted by several threads. The order is total on the pairs, so the
//! result is the devices' permutation.

use std::cmp::Ordering;

use rayon::prelude::*;
use silt::{f16, Element, Result, TensorT};

/// The rows at which one row is long enough to be sorted by several
/// threads.
const PARALLEL_ROW: usize = 1 << 16;

/// The element types' host `sort`: their order.
pub trait HostSort: Element + Send + Sync {
    /// The order of keys, ascending: NaN after every number, NaNs equal,
    /// `-0.0` equal to `0.0`.
    #[doc(hidden)]
    fn key_cmp(a: &Self, b: &Self) -> Ordering;

    /// Sorts the rows of `x` (`[outer, inner, n]`) into `values` and
    /// `indices` (contiguous, of shape `full`, the rows along `d`).
    #[doc(hidden)]
    fn host_sort(
        x: &TensorT<Self>,
        desc: bool,
        values: &mut TensorT<Self>,
        indices: &mut TensorT<i64>,
        full: &[usize],
        d: usize,
    ) -> Result<()> {
        run(x, desc, values, indices, full, d)
    }
}

macro_rules! ord_keys {
    ($($t:ty),*) => {$(
        impl HostSort for $t {
            fn key_cmp(a: &Self, b: &Self) -> Ordering {
                a.cmp(b)
            }
        }
    )*};
}
ord_keys!(bool, u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! float_keys {
    ($($t:ty),*) => {$(
        impl HostSort for $t {
            fn key_cmp(a: &Self, b: &Self) -> Ordering {
                match (a.is_nan(), b.is_nan()) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Greater,
                    (false, true) => Ordering::Less,
                    (false, false) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
                }
            }
        }
    )*};
}
float_keys!(f16, f32, f64);

/// Sorts one row's pairs: by key (reversed for `desc`), then by index.
fn sort_row<T: HostSort>(row: &mut [(T, i64)], desc: bool, parallel: bool) {
    let cmp = |a: &(T, i64), b: &(T, i64)| {
        let by_key = T::key_cmp(&a.0, &b.0);
        if desc { by_key.reverse() } else { by_key }.then(a.1.cmp(&b.1))
    };
    if parallel {
        row.par_sort_unstable_by(cmp);
    } else {
        row.sort_unstable_by(cmp);
    }
}

fn run<T: HostSort>(
    x: &TensorT<T>,
    desc: bool,
    values: &mut TensorT<T>,
    indices: &mut TensorT<i64>,
    full: &[usize],
    d: usize,
) -> Result<()> {
    let elems = x.to_vec()?;
    let (inner, n) = (x.shape()[1], x.shape()[2]);
    // each element's index along its row
    let index = (0..n).map(|p| i64::try_from(p).unwrap_or(i64::MAX)).cycle();
    let mut pairs: Vec<(T, i64)> = elems.into_iter().zip(index).collect();
    let long = n >= PARALLEL_ROW;
    pairs
        .par_chunks_mut(n)
        .for_each(|row| sort_row(row, desc, long));
    debug_assert_eq!(full[d], n);
    // row (o, i) at o * n * inner + p * inner + i
    values.with_host_slice_mut(|out| scatter(out, &pairs, inner, n, |p| p.0))?;
    indices.with_host_slice_mut(|out| scatter(out, &pairs, inner, n, |p| p.1))?;
    Ok(())
}

/// Writes `f` of each sorted pair to its place in a contiguous result.
fn scatter<T: HostSort, U: Send>(
    out: &mut [U],
    pairs: &[(T, i64)],
    inner: usize,
    n: usize,
    f: impl Fn(&(T, i64)) -> U + Sync,
) {
    if inner == 1 {
        out.par_chunks_mut(n.max(1))
            .zip(pairs.par_chunks(n.max(1)))
            .for_each(|(o, p)| {
                for (o, p) in o.iter_mut().zip(p) {
                    *o = f(p);
                }
            });
        return;
    }
    // each block of `n * inner` outputs is `inner` rows, interleaved
    out.par_chunks_mut(n * inner)
        .zip(pairs.par_chunks(n * inner))
        .for_each(|(o, p)| {
            for (i, row) in p.chunks(n).enumerate() {
                for (q, pair) in row.iter().enumerate() {
                    o[q * inner + i] = f(pair);
                }
            }
        });
}

//! The indexing operations on the host: plain Rust over the elements where
//! they are stored, in parallel on rayon, with the results of the device
//! kernels (the same elements picked; `scatter_add` adds in the same order,
//! each output element in order of position along `dim`). The launching
//! functions check every index first, so these take positions in range.

use rayon::prelude::*;
use silt::{f16, DType, Element, Result, Tensor, TensorT};

/// The elements of the output a rayon task takes at least.
const TASK: usize = 1 << 14;

/// `t` itself where it is contiguous, else a contiguous copy.
fn contiguous(t: &Tensor) -> Result<Tensor> {
    if t.is_contiguous() {
        Ok(t.clone())
    } else {
        t.contiguous()
    }
}

/// The indices of `idx` (`i64`) in row-major order as places below `n` (a
/// negative one counting from the end where `from_end`), checked and
/// converted in parallel where they are stored; `Err` holds the row-major
/// position of the first index out of range.
pub(crate) fn places(
    idx: &Tensor,
    n: usize,
    from_end: bool,
) -> Result<std::result::Result<Vec<usize>, usize>> {
    let idx: TensorT<i64> = contiguous(idx)?.typed()?;
    let bound = i64::try_from(n).unwrap_or(i64::MAX);
    let place = |v: i64| -> Option<usize> {
        let w = if from_end && v < 0 {
            v.checked_add(bound)?
        } else {
            v
        };
        usize::try_from(w).ok().filter(|&w| w < n)
    };
    idx.with_host_slice(|vs| {
        // plain loops over chunks (rayon's per-element adaptors ran at
        // about 10 ns an index here)
        let mut at = vec![0usize; vs.len()];
        let bad = at
            .par_chunks_mut(TASK)
            .zip(vs.par_chunks(TASK))
            .enumerate()
            .filter_map(|(c, (chunk, vs))| {
                let mut first = None;
                for (e, (slot, &v)) in chunk.iter_mut().zip(vs).enumerate() {
                    match place(v) {
                        Some(p) => *slot = p,
                        None => {
                            first.get_or_insert(c * TASK + e);
                        }
                    }
                }
                first
            })
            .min();
        bad.map_or(Ok(at), Err)
    })
}

/// `t`'s bytes as `u8` where it holds `bool` (whose bytes a view of
/// another dtype may have made other than 0 and 1), else `t` itself.
fn bytes_of_bool(t: &Tensor) -> Result<Tensor> {
    if t.dtype() == DType::Bool {
        t.view_dtype(DType::U8)
    } else {
        Ok(t.clone())
    }
}

/// The bytes of `out` (`u8`, the bytes of a `bool` result) made 0 or 1, as
/// a device writes `bool`s.
fn bools_made_0_or_1(out: &Tensor) -> Result<()> {
    let mut bytes: TensorT<u8> = out.clone().typed()?;
    bytes.with_host_slice_mut(|bs| {
        bs.par_chunks_mut(TASK)
            .for_each(|c| c.iter_mut().for_each(|b| *b = u8::from(*b != 0)));
    })
}

/// `x` and `out` with a `bool` pair as bytes, through `run`, the bytes of a
/// `bool` result then made 0 or 1.
fn moving(
    x: &Tensor,
    out: &mut Tensor,
    run: impl FnOnce(&Tensor, &mut Tensor) -> Result<()>,
) -> Result<()> {
    let x = bytes_of_bool(&contiguous(x)?)?;
    let mut bytes = bytes_of_bool(out)?;
    run(&x, &mut bytes)?;
    if out.dtype() == DType::Bool {
        bools_made_0_or_1(&bytes)?;
    }
    Ok(())
}

/// The output rows of `inner` elements a task takes.
fn rows_a_task(inner: usize) -> usize {
    (TASK / inner.max(1)).max(1)
}

/// Row `(o, j)` of `out` (`[outer, m, inner]`, contiguous) is row
/// `(o, rows[j])` of `x` (`[outer, size, inner]`): `index_select`.
pub(crate) fn select_rows(x: &Tensor, rows: &[usize], out: &mut Tensor) -> Result<()> {
    if out.is_empty() || rows.is_empty() {
        return Ok(());
    }
    moving(x, out, |x, out| {
        silt::select!(x.dtype(), T => select_typed::<T>(x, rows, out),
            [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])
    })
}

fn select_typed<T: Element + Send + Sync>(
    x: &Tensor,
    rows: &[usize],
    out: &mut Tensor,
) -> Result<()> {
    let (size, inner) = (x.shape()[1], x.shape()[2]);
    let xt: TensorT<T> = x.clone().typed()?;
    let mut ot: TensorT<T> = out.clone().typed()?;
    xt.with_host_slice(|xs| {
        ot.with_host_slice_mut(|os| {
            each_row(os, inner, rows.len(), |o, j, _, row| {
                let from = (o * size + rows[j]) * inner;
                row.copy_from_slice(&xs[from..from + inner]);
            });
        })
    })?
}

/// `f(o, j, r, row)` for each row `r = o * m + j` (of `inner` elements) of
/// `os`, tasks of rows in parallel.
fn each_row<T: Send>(
    os: &mut [T],
    inner: usize,
    m: usize,
    f: impl Fn(usize, usize, usize, &mut [T]) + Sync,
) {
    let per = rows_a_task(inner);
    os.par_chunks_mut(per * inner)
        .enumerate()
        .for_each(|(c, chunk)| {
            let first = c * per;
            let (mut o, mut j) = (first / m, first % m);
            for (r, row) in chunk.chunks_mut(inner).enumerate() {
                f(o, j, first + r, row);
                j += 1;
                if j == m {
                    (o, j) = (o + 1, 0);
                }
            }
        });
}

/// Element `(o, j, i)` of `out` (`[outer, m, inner]`, contiguous) is
/// element `(o, at[g], i)` of `x` (`[outer, n, inner]`), `g` its row-major
/// position: `gather`.
pub(crate) fn gather(x: &Tensor, at: &[usize], m: usize, out: &mut Tensor) -> Result<()> {
    if out.is_empty() || m == 0 {
        return Ok(());
    }
    moving(x, out, |x, out| {
        silt::select!(x.dtype(), T => gather_typed::<T>(x, at, m, out),
            [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])
    })
}

fn gather_typed<T: Element + Send + Sync>(
    x: &Tensor,
    at: &[usize],
    m: usize,
    out: &mut Tensor,
) -> Result<()> {
    let (n, inner) = (x.shape()[1], x.shape()[2]);
    let xt: TensorT<T> = x.clone().typed()?;
    let mut ot: TensorT<T> = out.clone().typed()?;
    xt.with_host_slice(|xs| {
        ot.with_host_slice_mut(|os| {
            each_row(os, inner, m, |o, _, r, row| {
                let (g, base) = (r * inner, o * n);
                for (i, slot) in row.iter_mut().enumerate() {
                    *slot = xs[(base + at[g + i]) * inner + i];
                }
            });
        })
    })?
}

/// Element `g` of `out` (contiguous) is element `at[g]` of `x`: `take`.
pub(crate) fn take(x: &Tensor, at: &[usize], out: &mut Tensor) -> Result<()> {
    if out.is_empty() {
        return Ok(());
    }
    moving(x, out, |x, out| {
        silt::select!(x.dtype(), T => take_typed::<T>(x, at, out),
            [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])
    })
}

fn take_typed<T: Element + Send + Sync>(x: &Tensor, at: &[usize], out: &mut Tensor) -> Result<()> {
    let xt: TensorT<T> = x.clone().typed()?;
    let mut ot: TensorT<T> = out.clone().typed()?;
    xt.with_host_slice(|xs| {
        ot.with_host_slice_mut(|os| {
            os.par_chunks_mut(TASK)
                .zip(at.par_chunks(TASK))
                .for_each(|(chunk, places)| {
                    for (slot, &p) in chunk.iter_mut().zip(places) {
                        *slot = xs[p];
                    }
                });
        })
    })?
}

/// An element type the scatters combine: integers wrapping, floats rounding
/// after each step (`f16` as the host's grid kernels do: in `f32`, rounded
/// once).
trait Combine: Element + Send + Sync + PartialOrd {
    fn add(self, other: Self) -> Self;
    fn mul(self, other: Self) -> Self;
    fn zero() -> Self;
    fn one() -> Self;
}

macro_rules! wrapping {
    ($($t:ty),*) => {$(
        impl Combine for $t {
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
        }
    )*};
}
wrapping!(u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! float {
    ($($t:ty),*) => {$(
        impl Combine for $t {
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn mul(self, other: Self) -> Self {
                self * other
            }
            fn zero() -> Self {
                <$t>::from(0u8)
            }
            fn one() -> Self {
                <$t>::from(1u8)
            }
        }
    )*};
}
float!(f16, f32, f64);

/// PyTorch's maximum step of `scatter_reduce`: a NaN `b` wins, else
/// `std::max`'s `a < b ? b : a` (a NaN `a` stays).
#[allow(clippy::eq_op)]
fn larger<T: Combine>(a: T, b: T) -> T {
    if b != b || a < b {
        b
    } else {
        a
    }
}

/// PyTorch's minimum step of `scatter_reduce` (as [`larger`]).
#[allow(clippy::eq_op)]
fn smaller<T: Combine>(a: T, b: T) -> T {
    if b != b || b < a {
        b
    } else {
        a
    }
}

/// `out[o, at[(o, k, i)], i] += src[o, k, i]` for `k` in order: `scatter_add`
/// (see [`scatter`]).
pub(crate) fn scatter_add(out: &mut Tensor, at: &[usize], src: &Tensor) -> Result<()> {
    scatter(out, at, src, 0, false)
}

/// `out[o, at[(o, k, i)], i]` combined with `src[o, k, i]` for `k` in order,
/// `out` (`[outer, n, inner]`) in place, `src` and the positions `at` of
/// `[outer, m, inner]`, by `op` as the `scatter_reduce_lines` kernel's (0
/// sum, 1 product, 2 maximum, 3 minimum); with `fresh`, each place reached
/// first holds the identity (sum, product) or its first element. Each
/// output element combines its elements in order of `k`, as a work-item
/// walking its line does. The outer blocks run in parallel, and the
/// columns of a block where there are fewer blocks than threads.
pub(crate) fn scatter(
    out: &mut Tensor,
    at: &[usize],
    src: &Tensor,
    op: u32,
    fresh: bool,
) -> Result<()> {
    if out.is_empty() || src.is_empty() {
        return Ok(());
    }
    let src = contiguous(src)?;
    let mut dst = contiguous(out)?;
    silt::select!(out.dtype(), T => scatter_op::<T>(&mut dst, at, &src, op, fresh),
        [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])?;
    if !dst.shares_storage(out) {
        out.copy_from(&dst)?;
    }
    Ok(())
}

/// [`scatter`] of one type, a form for each `op`.
fn scatter_op<T: Combine>(
    out: &mut Tensor,
    at: &[usize],
    src: &Tensor,
    op: u32,
    fresh: bool,
) -> Result<()> {
    let first = |s: T| s;
    match op {
        0 => scatter_typed(out, at, src, T::add, fresh.then_some(|_: T| T::zero())),
        1 => scatter_typed(out, at, src, T::mul, fresh.then_some(|_: T| T::one())),
        2 => scatter_typed(out, at, src, larger, fresh.then_some(first)),
        _ => scatter_typed(out, at, src, smaller, fresh.then_some(first)),
    }
}

/// The fewest columns a thread takes when a block's columns are shared out.
const COLUMNS: usize = 64;

fn scatter_typed<T: Combine>(
    out: &mut Tensor,
    at: &[usize],
    src: &Tensor,
    f: impl Fn(T, T) -> T + Sync,
    init: Option<impl Fn(T) -> T + Sync>,
) -> Result<()> {
    let (outer, n, inner) = (out.shape()[0], out.shape()[1], out.shape()[2]);
    let m = src.shape()[1];
    let threads = rayon::current_num_threads();
    let parts = if outer < threads {
        (inner / COLUMNS).clamp(1, 2 * threads)
    } else {
        1
    };
    let st: TensorT<T> = src.clone().typed()?;
    let mut ot: TensorT<T> = out.clone().typed()?;
    st.with_host_slice(|ss| {
        ot.with_host_slice_mut(|os| {
            os.par_chunks_mut(n * inner)
                .zip(ss.par_chunks(m * inner))
                .zip(at.par_chunks(m * inner))
                .for_each(|((block, from), places)| {
                    if let Some(init) = &init {
                        // from the last row to the first: each place
                        // reached ends with its first element's start
                        let rows = from.chunks(inner).zip(places.chunks(inner));
                        for (srow, prow) in rows.rev() {
                            for (i, (&s, &p)) in srow.iter().zip(prow).enumerate() {
                                block[p * inner + i] = init(s);
                            }
                        }
                    }
                    if parts > 1 {
                        by_columns(block, from, places, inner, parts, &f);
                    } else if inner == 1 {
                        for (&s, &p) in from.iter().zip(places) {
                            block[p] = f(block[p], s);
                        }
                    } else {
                        by_rows(block, from, places, inner, &f);
                    }
                });
        })
    })?
}

/// Row `k` of `from` (`[m, inner]`) combined by `f` into `block` (`[n,
/// inner]`) at the rows `places` names, `k` by `k`.
fn by_rows<T: Combine>(
    block: &mut [T],
    from: &[T],
    places: &[usize],
    inner: usize,
    f: &impl Fn(T, T) -> T,
) {
    for (srow, prow) in from.chunks(inner).zip(places.chunks(inner)) {
        for (i, (&s, &p)) in srow.iter().zip(prow).enumerate() {
            let slot = &mut block[p * inner + i];
            *slot = f(*slot, s);
        }
    }
}

/// [`by_rows`] with the block's columns in `parts` ranges, each on a thread
/// of its own (the rows' pieces of a range are disjoint slices).
fn by_columns<T: Combine>(
    block: &mut [T],
    from: &[T],
    places: &[usize],
    inner: usize,
    parts: usize,
    f: &(impl Fn(T, T) -> T + Sync),
) {
    let width = inner.div_ceil(parts);
    let mut ranges: Vec<Vec<&mut [T]>> = (0..inner.div_ceil(width)).map(|_| Vec::new()).collect();
    for row in block.chunks_mut(inner) {
        for (r, piece) in row.chunks_mut(width).enumerate() {
            ranges[r].push(piece);
        }
    }
    ranges
        .into_par_iter()
        .enumerate()
        .for_each(|(r, mut rows)| {
            let lo = r * width;
            for (srow, prow) in from.chunks(inner).zip(places.chunks(inner)) {
                let hi = (lo + width).min(inner);
                for (i, (&s, &p)) in srow[lo..hi].iter().zip(&prow[lo..hi]).enumerate() {
                    let slot = &mut rows[p][i];
                    *slot = f(*slot, s);
                }
            }
        });
}

//! `sort` on CPU devices: a least-significant-digit radix sort of each row
//! (the kernels and their order in [`device`]), taken for rows longer than
//! a block of the merge sort and shorter than 2^32, and an insertion sort a
//! work-item a row for shorter rows ([`sort_short`]).

pub(crate) mod device;

use silt::{Element, Error, Grid, Result, TensorT};

use device::{
    radix_count, radix_offsets, radix_pass, radix_scatter, sort_short, sort_short_256, DIGITS,
    GROUP, SHORT, SHORT_GROUP,
};

/// The most places a work-item's chunk of a row holds: a long row is cut
/// into at least `n / MAX_CHUNK` chunks.
const MAX_CHUNK: usize = 1 << 16;
/// The fewest places a chunk holds: the counts (`DIGITS` a chunk) stay at
/// most one per element.
const MIN_CHUNK: usize = DIGITS;
/// The work-items a sort wants at least, so that few long rows still make
/// work for every core.
const MIN_ITEMS: usize = 64;

/// An element type the radix sort takes: one with every kernel of
/// [`device`].
pub(crate) trait Radix:
    Element
    + radix_count::Instance
    + radix_scatter::Instance
    + radix_pass::Instance
    + sort_short::Instance
    + sort_short_256::Instance
{
}

impl<T> Radix for T where
    T: Element
        + radix_count::Instance
        + radix_scatter::Instance
        + radix_pass::Instance
        + sort_short::Instance
        + sort_short_256::Instance
{
}

/// The key with the low `bytes` bytes set: what a descending sort of
/// elements of `bytes` bytes xors its keys with.
fn ones(bytes: usize) -> u64 {
    u64::MAX >> (64 - 8 * bytes.clamp(1, 8))
}

/// How a row of `n` places is cut among work-items, for `rows` rows: the
/// number of chunks and the places of each (the last may hold fewer, or
/// none). At least `n / MAX_CHUNK` chunks, more while the rows make fewer
/// than [`MIN_ITEMS`] work-items, but never chunks below [`MIN_CHUNK`]
/// places (one chunk for a row that short).
fn cut(rows: usize, n: usize) -> (usize, usize) {
    let wanted = n.div_ceil(MAX_CHUNK).max(MIN_ITEMS.div_ceil(rows.max(1)));
    let parts = wanted.min(n / MIN_CHUNK).max(1);
    (parts, n.div_ceil(parts))
}

/// Whether [`sort_cpu`] takes rows of `n` places: indices that fit in
/// `u32`.
pub(crate) fn takes(n: usize) -> bool {
    u32::try_from(n).is_ok()
}

/// Sorts the rows of `x` (`[outer, inner, n]`, `n` below 2^32: [`takes`])
/// into `values` and `indices` (views of the same shape) as a CPU device
/// does: a work-item a row up to [`SHORT_MAX`] ([`sort_short`]), else the
/// radix sort ([`sort_rows`]).
pub(crate) fn sort_cpu<T: Radix>(
    x: &TensorT<T>,
    values: TensorT<T>,
    indices: TensorT<i64>,
    desc: bool,
) -> Result<()> {
    if x.shape()[2] <= SHORT_MAX {
        sort_short(x, values, indices, desc)
    } else {
        sort_rows(x, values, indices, desc)
    }
}

/// Sorts the rows of `x` (`[outer, inner, n]`) into `values` and `indices`
/// (views of the same shape): one pass a byte of `T` (count, offsets,
/// scatter; `radix_pass` for rows of one chunk), the first from `x`, the
/// last into the results.
fn sort_rows<T: Radix>(
    x: &TensorT<T>,
    mut values: TensorT<T>,
    mut indices: TensorT<i64>,
    desc: bool,
) -> Result<()> {
    use silt::__private::output_for_overwrite as scratch;
    let [outer, inner, n] = [x.shape()[0], x.shape()[1], x.shape()[2]];
    let rows = outer * inner;
    let dev = x.device();
    let to_u64 = |v: usize| {
        u64::try_from(v).map_err(|_| Error::Internal {
            what: "sort: a size past u64",
        })
    };
    let (parts, chunk) = cut(rows, n);
    let bytes = std::mem::size_of::<T>();
    let flip = if desc { ones(bytes) } else { 0 };
    // every buffer is written whole before it is read (the counts by each
    // pass; `idx` is not read by the first pass): no fill first. A sort of
    // one pass (bytes) needs no scratch: it goes from `x` to the results
    let between = if bytes > 1 {
        [outer, inner, n]
    } else {
        [0, 0, 0]
    };
    let (mut vals, mut to_vals) = (scratch::<T>(dev, &between)?, scratch::<T>(dev, &between)?);
    let pairs = if bytes > 1 { [rows, n] } else { [0, 0] };
    let (mut idx, mut to_idx) = (scratch::<u32>(dev, &pairs)?, scratch::<u32>(dev, &pairs)?);
    let mut counts = scratch::<u32>(dev, &[rows, parts, DIGITS])?;
    // one work-item a chunk, a row
    let chunks = || Grid::over([(rows * parts).div_ceil(GROUP) * GROUP]);
    let each_row = || Grid::over([rows.div_ceil(GROUP) * GROUP]);
    let chunk = to_u64(chunk)?;
    for byte in 0..bytes {
        let shift = u32::try_from(8 * byte).map_err(|_| Error::Internal {
            what: "sort: a digit past u32",
        })?;
        // the first pass reads the input, and takes places for indices; the
        // last writes the results
        let (src, first) = if byte == 0 { (x, 1) } else { (&vals, 0) };
        let last = u32::from(byte + 1 == bytes);
        let dst = if last == 1 { &mut values } else { &mut to_vals };
        if parts == 1 {
            // SAFETY: a work-item below `rows` reads `src` at its row
            // (`o * inner + r`) and places `p < n` (and `idx` there unless
            // `first`), its counts at digits below 256, and writes places
            // `q < n` of its row (of `to_idx` unless `last`, of `indices`
            // if it is): its offsets start each digit after the row's
            // smaller digits and take as many places for each as it
            // counted, `n` in all
            unsafe {
                radix_pass::launch(
                    each_row(),
                    src,
                    &idx,
                    &mut counts,
                    dst,
                    &mut to_idx,
                    &mut indices,
                    flip,
                    shift,
                    first,
                    last,
                )?;
            }
        } else {
            // SAFETY: a work-item `(row, w)` below `rows * parts` reads
            // `src` at `row` and places `p < n`, and writes its counts at
            // `w < parts` and digits below 256
            unsafe { radix_count::launch(chunks(), src, &mut counts, flip, shift, chunk)? };
            // SAFETY: a work-item below `rows` reads and writes its row's
            // counts at `w < parts` and digits below 256
            unsafe { radix_offsets::launch(each_row(), &mut counts)? };
            // SAFETY: as `radix_count`'s (and `idx` read where `src` is,
            // unless `first`), and each place `q` written (of `to_idx`
            // unless `last`, of `indices` if it is) is below `n`: the
            // offsets of a row start each digit's chunk after the row's
            // smaller digits and the same digit's earlier chunks, and this
            // pass takes as many places for each as `radix_count` counted
            // from the same elements, `n` for the row in all
            unsafe {
                radix_scatter::launch(
                    chunks(),
                    src,
                    &idx,
                    &mut counts,
                    dst,
                    &mut to_idx,
                    &mut indices,
                    flip,
                    shift,
                    chunk,
                    first,
                    last,
                )?;
            }
        }
        std::mem::swap(&mut vals, &mut to_vals);
        std::mem::swap(&mut idx, &mut to_idx);
    }
    Ok(())
}

/// The longest row [`sort_short`] takes (the arrays of `sort_short_256`):
/// a block of the merge sort, past which CPU devices take the radix sort.
const SHORT_MAX: usize = 256;
const _: () = assert!(SHORT_MAX == super::device::TILE);

/// Sorts the rows of `x` (`[outer, inner, n]`, `n` at most
/// [`SHORT_MAX`]) into `values` and `indices` (views of the same shape), a
/// work-item a row: `sort_short` up to [`SHORT`], else `sort_short_256`.
fn sort_short<T: Radix>(
    x: &TensorT<T>,
    mut values: TensorT<T>,
    mut indices: TensorT<i64>,
    desc: bool,
) -> Result<()> {
    let (rows, n) = (x.shape()[0] * x.shape()[1], x.shape()[2]);
    let flip = if desc {
        ones(std::mem::size_of::<T>())
    } else {
        0
    };
    let grid = Grid::over([rows.div_ceil(SHORT_GROUP) * SHORT_GROUP]);
    if n <= SHORT {
        // SAFETY: a work-item below `rows` reads `x` at its row and places
        // `p < n`, writes the results there, and indexes its arrays of
        // `SHORT` at places below `n <= SHORT` (`j - 1` only while `j > 0`)
        unsafe { sort_short::launch(grid, x, &mut values, &mut indices, flip) }
    } else if n <= SHORT_MAX {
        // SAFETY: as `sort_short`'s, with arrays of `SHORT_MAX`
        unsafe { sort_short_256::launch(grid, x, &mut values, &mut indices, flip) }
    } else {
        Err(Error::Internal {
            what: "sort: a short row past 256",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_cut_into_chunks_of_every_place() {
        // one long row: chunks of at most MAX_CHUNK; many rows: one chunk
        // each; few short rows: chunks of MIN_CHUNK and more
        assert_eq!(cut(1, 1 << 24), (256, 1 << 16));
        assert_eq!(cut(16384, 1024), (1, 1024));
        assert_eq!(cut(1, 1324), (5, 265));
        assert_eq!(cut(2, 300), (1, 300));
        assert_eq!(cut(1, 257), (1, 257));
        for (rows, n) in [(1, 1 << 20), (3, 5000), (100, 700), (1, (1 << 16) + 1)] {
            let (parts, chunk) = cut(rows, n);
            assert!(parts * chunk >= n && (parts - 1) * chunk < n, "{rows} {n}");
            assert!(chunk <= MAX_CHUNK && (parts == 1 || chunk >= MIN_CHUNK));
        }
        assert_eq!(ones(1), 0xff);
        assert_eq!(ones(2), 0xffff);
        assert_eq!(ones(4), 0xffff_ffff);
        assert_eq!(ones(8), u64::MAX);
    }
}

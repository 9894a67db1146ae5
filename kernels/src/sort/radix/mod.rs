//! `sort` on CPU devices: a least-significant-digit radix sort of each row
//! (the kernels and their order in [`device`]), taken for rows longer than
//! a block of the merge sort and shorter than 2^32.

pub(crate) mod device;

use silt::{Element, Error, Grid, Result, TensorT};

use device::{
    radix_count, radix_gather, radix_offsets, radix_pass, radix_scatter, DIGITS, GROUP, MAP_GROUP,
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

/// A key type of the radix sort: `u32` or `u64`.
pub(crate) trait Key:
    Element + radix_count::Instance + radix_scatter::Instance + radix_pass::Instance
{
    /// The key 0.
    const ZERO: Self;
    /// The key with the low `bytes` bytes set: what a descending sort xors
    /// its keys with.
    fn ones(bytes: usize) -> Self;
}

impl Key for u32 {
    const ZERO: Self = 0;
    fn ones(bytes: usize) -> Self {
        u32::MAX >> (32 - 8 * bytes.clamp(1, 4))
    }
}

impl Key for u64 {
    const ZERO: Self = 0;
    fn ones(bytes: usize) -> Self {
        u64::MAX >> (64 - 8 * bytes.clamp(1, 8))
    }
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

/// Whether [`sort_rows`] takes rows of `n` places: longer than a block of
/// the merge sort (`tile`), with indices that fit in `u32`.
pub(crate) fn takes(n: usize, tile: usize) -> bool {
    n > tile && u32::try_from(n).is_ok()
}

/// Sorts the rows of `x` (`[outer, inner, n]`) into `values` and `indices`
/// (views of the same shape): keys by `keys_of` (a launch of
/// `radix_keys32` or `radix_keys64` over one work-item a place, given the
/// value to xor keys with), one pass a byte of `T` (count, offsets,
/// scatter; `radix_pass` for rows of one chunk), then the gather. `n` below 2^32 ([`takes`]).
pub(crate) fn sort_rows<T, K>(
    x: &TensorT<T>,
    mut values: TensorT<T>,
    mut indices: TensorT<i64>,
    desc: bool,
    keys_of: impl FnOnce(Grid, &TensorT<T>, &mut TensorT<K>, &mut TensorT<u32>, K) -> Result<()>,
) -> Result<()>
where
    T: Element + radix_gather::Instance,
    K: Key,
{
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
    let flip = if desc { K::ones(bytes) } else { K::ZERO };
    // every buffer is written whole before it is read (the counts by each
    // pass): no fill first
    use silt::__private::output_for_overwrite as scratch;
    let (mut keys, mut to_keys) = (
        scratch::<K>(dev, &[rows, n])?,
        scratch::<K>(dev, &[rows, n])?,
    );
    let (mut idx, mut to_idx) = (
        scratch::<u32>(dev, &[rows, n])?,
        scratch::<u32>(dev, &[rows, n])?,
    );
    let mut counts = scratch::<u32>(dev, &[rows, parts, DIGITS])?;
    // one work-item a place, a chunk, a row
    let places = || Grid::over([(rows * n).div_ceil(MAP_GROUP) * MAP_GROUP]);
    let chunks = || Grid::over([(rows * parts).div_ceil(GROUP) * GROUP]);
    let each_row = || Grid::over([rows.div_ceil(GROUP) * GROUP]);
    keys_of(places(), x, &mut keys, &mut idx, flip)?;
    let chunk = to_u64(chunk)?;
    for byte in 0..bytes {
        let shift = u32::try_from(8 * byte).map_err(|_| Error::Internal {
            what: "sort: a digit past u32",
        })?;
        if parts == 1 {
            // SAFETY: a work-item below `rows` reads `keys` and `idx` at its
            // row and places `p < n`, its counts at digits below 256, and
            // writes places `q < n`: its offsets start each digit after the
            // row's smaller digits and take as many places for each as it
            // counted, `n` in all
            unsafe {
                radix_pass::launch(
                    each_row(),
                    &keys,
                    &idx,
                    &mut counts,
                    &mut to_keys,
                    &mut to_idx,
                    shift,
                )?;
            }
        } else {
            // SAFETY: a work-item `(row, w)` below `rows * parts` reads
            // `keys` at `row` and places `p < n`, and writes its counts at
            // `w < parts` and digits below 256
            unsafe { radix_count::launch(chunks(), &keys, &mut counts, shift, chunk)? };
            // SAFETY: a work-item below `rows` reads and writes its row's
            // counts at `w < parts` and digits below 256
            unsafe { radix_offsets::launch(each_row(), &mut counts)? };
            // SAFETY: as `radix_count`'s, and each place `q` written is
            // below `n`: the offsets of a row start each digit's chunk after
            // the row's smaller digits and the same digit's earlier chunks,
            // and this pass takes as many places for each as `radix_count`
            // counted from the same keys, `n` for the row in all
            unsafe {
                radix_scatter::launch(
                    chunks(),
                    &keys,
                    &idx,
                    &mut counts,
                    &mut to_keys,
                    &mut to_idx,
                    shift,
                    chunk,
                )?;
            }
        }
        std::mem::swap(&mut keys, &mut to_keys);
        std::mem::swap(&mut idx, &mut to_idx);
    }
    // SAFETY: a work-item below `rows * n` reads `idx` and writes the
    // results at its row and place, and reads `x` at the place it holds, a
    // permutation of `0..n`
    unsafe { radix_gather::launch(places(), x, &idx, &mut values, &mut indices) }
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
        assert_eq!(u32::ones(1), 0xff);
        assert_eq!(u32::ones(2), 0xffff);
        assert_eq!(u32::ones(4), u32::MAX);
        assert_eq!(u64::ones(8), u64::MAX);
    }
}

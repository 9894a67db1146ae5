//! The grid kernels of `sort`: a sort of blocks of each row in work-group
//! memory, then merges of neighbouring sorted runs, one launch per doubling
//! of the runs' width.
//!
//! Every element carries its index along its row; two elements go in the
//! order of their keys (`key_before`: NaN after every number, `-0.0` equal
//! to `0.0`), equal keys in the order of their indices, so the sort is
//! stable and its result is one permutation, the same on every device and
//! the host.
//!
//! - `sort_block`: a work-group of 512 work-items sorts 1,024 slots of work-
//!   group memory with a bitonic network. A row longer than 1,024 is cut
//!   into segments of 1,024; a shorter one takes a segment of the power of
//!   two at or above its length, and a work-group sorts 1,024 / `seg`
//!   segments (rows) at once. Slots past a row's end are padding, ordered
//!   after every element.
//! - `sort_merge`: each work-item takes one element of a run of `width`
//!   sorted elements, finds by binary search how many elements of the
//!   neighbouring run go before it, and writes it at its place in the merged
//!   run of `2 * width`. An element of the left run goes after the right
//!   run's elements whose keys go strictly before its key; one of the right
//!   run after the left run's elements whose keys do not go after its key
//!   (the left run's indices are all smaller): stability without comparing
//!   indices.
//!
//! Rows are `[outer, inner]` of the 3-d views `[outer, inner, n]`.

use silt::{grid, helper};

/// The work-items of a `sort_block` work-group.
pub(crate) const GROUP: usize = 512;
/// The slots a `sort_block` work-group sorts: the width of the runs it
/// leaves for a row longer than this.
pub(crate) const TILE: usize = 1024;
/// The work-items of a `sort_merge` work-group.
pub(crate) const MERGE_GROUP: usize = 256;

/// Whether key `a` goes strictly before key `b`: in ascending order (`desc`
/// 0) `a < b`, with NaN after every number; in descending order (`desc` 1)
/// `a > b`, with NaN before every number. NaNs are equal among themselves,
/// and so are `-0.0` and `0.0`.
#[helper(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64])]
fn key_before<T>(a: T, b: T, desc: u32) -> bool {
    if T::IS_FLOAT {
        if desc != 0 {
            a > b || (a.is_nan() && !b.is_nan())
        } else {
            a < b || (b.is_nan() && !a.is_nan())
        }
    } else if desc != 0 {
        a > b
    } else {
        a < b
    }
}

/// [`key_before`] of two elements of any type (`f16` compared in `f32`).
#[helper(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])]
fn elem_before<T>(a: T, b: T, desc: u32) -> bool {
    if T::IS_FLOAT && T::BITS == 16 {
        key_before(a as f32, b as f32, desc)
    } else {
        key_before(a, b, desc)
    }
}

/// Whether slot `(a, ia)` goes strictly before slot `(b, ib)`: padding
/// (an index at or past `n`) after everything, else by key, equal keys by
/// index.
#[helper(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])]
fn slot_before<T>(a: T, ia: i64, b: T, ib: i64, n: i64, desc: u32) -> bool {
    if ia >= n || ib >= n {
        ia < ib
    } else if elem_before(a, b, desc) {
        true
    } else if elem_before(b, a, desc) {
        false
    } else {
        ia < ib
    }
}

/// Sorts segments of `seg` elements (a power of two up to 1,024) of every
/// row of `x` into `keys` and their indices along the row into `idx`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [512])]
pub fn sort_block<T>(
    x: View<T, 3>,
    keys: ViewMut<T, 3>,
    idx: ViewMut<i64, 3>,
    #[scalar] seg: u64,
    #[scalar] desc: u32,
) {
    let l = local_id(0);
    let (inner, n) = (x.len(1), x.len(2));
    let rows = x.len(0) * inner;
    let segs = (n + seg - 1) / seg;
    let per_group = 1024 / seg;
    let mut kv = local![T; 1024];
    let mut iv = local![i64; 1024];
    for h in 0..2 {
        let s = h * 512 + l;
        let id = group_id(0) * per_group + s / seg;
        let (row, p) = (id / segs, (id % segs) * seg + s % seg);
        if row < rows && p < n {
            kv[[s]] = x[[row / inner, row % inner, p]];
            iv[[s]] = p as i64;
        } else {
            kv[[s]] = x[[0, 0, 0]];
            iv[[s]] = (n + s) as i64;
        }
    }
    barrier();
    let ni = n as i64;
    let mut k: u64 = 2;
    while k <= seg {
        let mut j = k / 2;
        while j > 0 {
            let i = 2 * j * (l / j) + l % j;
            let m = i + j;
            // ascending blocks and descending ones, to be merged at the next
            // `k`; the last round sorts every segment ascending
            let up = (i & k) == 0 || k == seg;
            let (a, ia, b, ib) = (kv[[i]], iv[[i]], kv[[m]], iv[[m]]);
            let swap = if up {
                slot_before(b, ib, a, ia, ni, desc)
            } else {
                slot_before(a, ia, b, ib, ni, desc)
            };
            if swap {
                kv[[i]] = b;
                kv[[m]] = a;
                iv[[i]] = ib;
                iv[[m]] = ia;
            }
            barrier();
            j = j / 2;
        }
        k = k * 2;
    }
    for h in 0..2 {
        let s = h * 512 + l;
        let id = group_id(0) * per_group + s / seg;
        let (row, p) = (id / segs, (id % segs) * seg + s % seg);
        if row < rows && p < n {
            keys[[row / inner, row % inner, p]] = kv[[s]];
            idx[[row / inner, row % inner, p]] = iv[[s]];
        }
    }
}

/// Merges the neighbouring sorted runs of `width` elements of every row of
/// `keys` (indices `idx`) into runs of `2 * width` in `to_keys` and
/// `to_idx`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256])]
pub fn sort_merge<T>(
    keys: View<T, 3>,
    idx: View<i64, 3>,
    to_keys: ViewMut<T, 3>,
    to_idx: ViewMut<i64, 3>,
    #[scalar] width: u64,
    #[scalar] desc: u32,
) {
    let g = global_id(0);
    let (inner, n) = (keys.len(1), keys.len(2));
    if n > 0 && g < keys.len(0) * inner * n {
        let (row, p) = (g / n, g % n);
        let (o, r) = (row / inner, row % inner);
        let key = keys[[o, r, p]];
        let base = p / (2 * width) * (2 * width);
        let left = p < base + width;
        let end = if base + 2 * width < n { base + 2 * width } else { n };
        let start = if left { base + width } else { base };
        let (mut lo, mut hi) = (start, if left { end } else { base + width });
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let y = keys[[o, r, mid]];
            let goes = if left {
                elem_before(y, key, desc)
            } else {
                !elem_before(key, y, desc)
            };
            if goes {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let at = (if left { p } else { p - width }) + (lo - start);
        to_keys[[o, r, at]] = key;
        to_idx[[o, r, at]] = idx[[o, r, p]];
    }
}

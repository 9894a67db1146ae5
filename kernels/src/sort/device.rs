//! The grid kernels of `sort` on GPUs (and on every device for rows of at
//! most 256): a sort of blocks of each row in work-group memory, then
//! merges of neighbouring sorted runs, one launch per doubling of the runs'
//! width. CPU devices sort longer rows by the radix sort (`radix`).
//!
//! Every element carries its index along its row; two elements go in the
//! order of their keys (`key_before`: NaN after every number, `-0.0` equal
//! to `0.0`), equal keys in the order of their indices, so the sort is
//! stable and its result is one permutation, the same on every device and
//! the host.
//!
//! - `sort_block`: a work-group of 128 work-items sorts 256 slots of work-
//!   group memory with a bitonic network. A row longer than 256 is cut
//!   into segments of 256; a shorter one takes a segment of the power of
//!   two at or above its length, and a work-group sorts 256 / `seg`
//!   segments (rows) at once. Slots past a row's end are padding, ordered
//!   after every element.
//! - `sort_merge`: merges neighbouring sorted runs of `width` elements into
//!   runs of `2 * width`. Each work-item writes 8 neighbouring places of a
//!   merged run: it finds by binary search how many of the places before
//!   its first come from the left run (the merge path), then merges 8 steps
//!   in order. On a tie the left run's element goes first (its indices are
//!   all smaller): stability without comparing indices.
//!
//! Rows are `[outer, inner]` of the 3-d views `[outer, inner, n]`.

use silt::{grid, helper};

/// The work-items of a `sort_block` work-group.
pub(crate) const GROUP: usize = 128;
/// The slots a `sort_block` work-group sorts: the width of the runs it
/// leaves for a row longer than this.
pub(crate) const TILE: usize = 256;
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

/// Sorts segments of `seg` elements (a power of two up to 256) of every
/// row of `x` into `keys` and their indices along the row into `idx`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [128], unchecked)]
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
    let per_group = 256 / seg;
    let mut kv = local![T; 256];
    let mut iv = local![i64; 256];
    for h in 0..2 {
        let s = h * 128 + l;
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
            // `j` a power of two: the pair's first slot, `l` with a 0 bit
            // inserted at `j`
            let low = l & (j - 1);
            let i = (l - low) * 2 + low;
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
        let s = h * 128 + l;
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
/// `to_idx`: each work-item writes 8 neighbouring places of a merged run.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256], unchecked)]
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
    let chunks = (n + 7) / 8;
    if n > 0 && g < keys.len(0) * inner * chunks {
        let row = g / chunks;
        let (o, r) = (row / inner, row % inner);
        let q0 = (g % chunks) * 8;
        // the two runs: `a` from `base`, `b` from `mid`, to `end`
        let base = q0 / (2 * width) * (2 * width);
        let mid = if base + width < n { base + width } else { n };
        let end = if base + 2 * width < n {
            base + 2 * width
        } else {
            n
        };
        let (la, lb, d) = (mid - base, end - mid, q0 - base);
        // how many of the first `d` places of the merged run `a` takes: the
        // first `i` whose element goes after `b`'s `d - i - 1`-th (`a`
        // first on ties)
        let mut lo = if d > lb { d - lb } else { 0 };
        let mut hi = if d < la { d } else { la };
        while lo < hi {
            let m = lo + (hi - lo) / 2;
            if elem_before(keys[[o, r, mid + d - m - 1]], keys[[o, r, base + m]], desc) {
                hi = m;
            } else {
                lo = m + 1;
            }
        }
        let mut i = lo;
        let mut j = d - lo;
        // the heads of the two runs, read once each
        let mut ka = if i < la {
            keys[[o, r, base + i]]
        } else {
            keys[[o, r, base]]
        };
        let mut kb = if j < lb {
            keys[[o, r, mid + j]]
        } else {
            keys[[o, r, base]]
        };
        for t in 0..8 {
            let q = q0 + t;
            if q < end {
                if i < la && (j >= lb || !elem_before(kb, ka, desc)) {
                    to_keys[[o, r, q]] = ka;
                    to_idx[[o, r, q]] = idx[[o, r, base + i]];
                    i = i + 1;
                    if i < la {
                        ka = keys[[o, r, base + i]];
                    }
                } else {
                    to_keys[[o, r, q]] = kb;
                    to_idx[[o, r, q]] = idx[[o, r, mid + j]];
                    j = j + 1;
                    if j < lb {
                        kb = keys[[o, r, mid + j]];
                    }
                }
            }
        }
    }
}

/// Keeps the first `k` elements of each sorted run of `width` (`k <=
/// width`) of every row of `keys` (indices `idx`): `to_keys` and `to_idx`
/// hold the kept runs one after another, the last one's `min(k, its
/// length)` elements included (for `topk`: the first `k` of a run are the
/// run's part of its row's first `k`).
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256], unchecked)]
pub fn sort_keep<T>(
    keys: View<T, 3>,
    idx: View<i64, 3>,
    to_keys: ViewMut<T, 3>,
    to_idx: ViewMut<i64, 3>,
    #[scalar] width: u64,
    #[scalar] k: u64,
) {
    let g = global_id(0);
    let (inner, n) = (to_keys.len(1), to_keys.len(2));
    if n > 0 && k > 0 && g < to_keys.len(0) * inner * n {
        let row = g / n;
        let q = g % n;
        let (o, r) = (row / inner, row % inner);
        let from = q / k * width + q % k;
        to_keys[[o, r, q]] = keys[[o, r, from]];
        to_idx[[o, r, q]] = idx[[o, r, from]];
    }
}

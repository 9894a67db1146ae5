//! The grid kernels of the indexing operations. Each work-item writes one
//! element of a fresh output (or, for `scatter_add` with atomics, adds one
//! element of `src`); an index out of range writes nothing and records the
//! smallest position of such an index in `bad[0]` (`atomic_min`), which the
//! launching function turns into an error.
//!
//! The kernels are `unchecked`: every access is in range by construction
//! (each launching function says why), and an index read from `index` is
//! tested before it is used; the tests run them on Oclgrind too.
//!
//! Tensors come folded into three dimensions `[outer, size along dim,
//! inner]`, so one kernel serves every rank and dimension. `index_select`
//! and `gather` take a three-dimensional grid laid out by `form` (see
//! `super::lines_grid`), so that a work-item finds its place with at most
//! one division, none when `dim` is the last dimension or the lines are at
//! least a work-group long (64-bit divisions were most of these kernels'
//! time on a CPU); the others find it with two.

use silt::{grid, helper};

/// The place `(o, j, i)` of work-item `(g0, g1, g2)` in a grid laid out by
/// `form` (`super::lines_grid`) over lines of `inner` elements: `0`, lines
/// of one element (`[m, outer]`); `1`, lines of a work-group or more
/// (`[inner, m, outer]`); `2`, shorter lines (`[m * inner, outer]`, one
/// division).
#[helper]
fn line_place(form: u32, g0: u64, g1: u64, g2: u64, inner: u64) -> (u64, u64, u64) {
    if form == 1 {
        (g2, g1, g0)
    } else if form == 2 {
        let j = g0 / inner;
        (g1, j, g0 - j * inner)
    } else {
        (g1, g0, 0)
    }
}

/// `out[o, j, i] = x[o, index[j], i]`, work-item `(g0, g1)` at place
/// `(o, j, i)` as its grid's `form` (2; 1 is [`index_select_lines`]'s, 0
/// [`index_select_elements`]') lays them out (`super::lines_grid`).
///
/// An index out of range reads row 0 instead (`x` has one: the launching
/// function errs before a launch on an empty dimension) and records
/// nothing: [`index_check`] finds it, before the output is handed out.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn index_select_rows<T>(
    x: View<T, 3>,
    index: View<i64, 1>,
    out: ViewMut<T, 3>,
    #[scalar] form: u32,
) {
    let (m, inner) = (out.len(1), out.len(2));
    let (o, j, i) = line_place(form, global_id(0), global_id(1), global_id(2), inner);
    if o < out.len(0) && j < m && i < inner {
        let w = in_range_or_0(index[[j]], x.len(1));
        out[[o, j, i]] = x[[o, w, i]];
    }
}

/// [`index_select_rows`] for lines of a work-group or more (`form` 1: the
/// grid `[inner, m, outer]`), a kernel of its own: work-item `(g0, g1,
/// g2)` is place `(g2, g1, g0)`, and `g0` is tested only where the
/// work-group reaches past the line, so that PoCL sees neighbouring
/// work-items on neighbouring elements and runs a group's loop with no
/// masked loads and stores. A branch on `form` in one kernel, the same
/// test through a `let`, or an `atomic_min` of a bad index (even one never
/// taken) each cost more than the copy itself (docs/performance.md, "Where
/// `index_select` of rows lost its time").
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn index_select_lines<T>(x: View<T, 3>, index: View<i64, 1>, out: ViewMut<T, 3>) {
    let (m, inner) = (out.len(1), out.len(2));
    let (g0, g1, g2) = (global_id(0), global_id(1), global_id(2));
    if g2 >= out.len(0) || g1 >= m || ((group_id(0) + 1) * 256 > inner && g0 >= inner) {
        return;
    }
    let w = in_range_or_0(index[[g1]], x.len(1));
    out[[g2, g1, g0]] = x[[g2, w, g0]];
}

/// [`index_select_rows`] for lines of one element (`form` 0: the grid
/// `[m, outer]`), a kernel of its own as [`index_select_lines`] is:
/// work-item `(g0, g1)` is place `(g1, g0, 0)`, and `g0` is tested only
/// where the work-group reaches past the indices.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn index_select_elements<T>(x: View<T, 3>, index: View<i64, 1>, out: ViewMut<T, 3>) {
    let m = out.len(1);
    let (g0, g1) = (global_id(0), global_id(1));
    if g1 >= out.len(0) || ((group_id(0) + 1) * 256 > m && g0 >= m) {
        return;
    }
    let w = in_range_or_0(index[[g0]], x.len(1));
    out[[g1, g0, 0]] = x[[g1, w, 0]];
}

/// `v` where it lies in `0..n`, else 0.
#[helper]
fn in_range_or_0(v: i64, n: u64) -> u64 {
    if v >= 0 && (v as u64) < n {
        v as u64
    } else {
        0
    }
}

/// Records in `bad[0]` the smallest position of an index out of `lo..hi`
/// (`atomic_min`), one work-item per index: the copying kernels read a
/// valid place in its stead and never touch `bad` (an `atomic_min` in a
/// copying kernel, even one never taken, cost more than the copy on
/// PoCL).
#[grid(types = [i64], group = [256], unchecked)]
pub fn index_check<T>(
    index: View<T, 1>,
    #[scalar] lo: i64,
    #[scalar] hi: i64,
    bad: ViewMut<i64, 1>,
) {
    let g = global_id(0);
    if g < index.len(0) {
        let v = index[[g]];
        if v < lo || v >= hi {
            bad.atomic_min([0], g as i64);
        }
    }
}

/// `out[o, j, i] = x[o, index[o, j, i], i]`, work-item `(g0, g1)` at place
/// `(o, j, i)` as its grid's `form` (2; 1 is [`gather_lines`]'s, 0
/// [`gather_elements`]') lays them out (`super::lines_grid`). An index out
/// of range reads row 0 instead and records nothing: [`index_check`] finds
/// it (as in [`index_select_rows`]).
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn gather_along<T>(
    x: View<T, 3>,
    index: View<i64, 3>,
    out: ViewMut<T, 3>,
    #[scalar] form: u32,
) {
    let (m, inner) = (out.len(1), out.len(2));
    let (o, j, i) = line_place(form, global_id(0), global_id(1), global_id(2), inner);
    if o < out.len(0) && j < m && i < inner {
        let w = in_range_or_0(index[[o, j, i]], x.len(1));
        out[[o, j, i]] = x[[o, w, i]];
    }
}

/// [`gather_along`] for lines of a work-group or more (`form` 1), as
/// [`index_select_lines`]: place `(g2, g1, g0)`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn gather_lines<T>(x: View<T, 3>, index: View<i64, 3>, out: ViewMut<T, 3>) {
    let (m, inner) = (out.len(1), out.len(2));
    let (g0, g1, g2) = (global_id(0), global_id(1), global_id(2));
    if g2 >= out.len(0) || g1 >= m || ((group_id(0) + 1) * 256 > inner && g0 >= inner) {
        return;
    }
    let w = in_range_or_0(index[[g2, g1, g0]], x.len(1));
    out[[g2, g1, g0]] = x[[g2, w, g0]];
}

/// [`gather_along`] for lines of one element (`form` 0), as
/// [`index_select_elements`]: place `(g1, g0, 0)`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn gather_elements<T>(x: View<T, 3>, index: View<i64, 3>, out: ViewMut<T, 3>) {
    let m = out.len(1);
    let (g0, g1) = (global_id(0), global_id(1));
    if g1 >= out.len(0) || ((group_id(0) + 1) * 256 > m && g0 >= m) {
        return;
    }
    let w = in_range_or_0(index[[g1, g0, 0]], x.len(1));
    out[[g1, g0, 0]] = x[[g1, w, 0]];
}

/// `out[o, index[o, k, i], i] += src[o, k, i]` by atomic additions, one
/// work-item per element of `index`.
#[grid(types = [i32, u32, i64, u64, f32, f64], group = [256], unchecked)]
pub fn scatter_add_atomic<T>(
    index: View<i64, 3>,
    src: View<T, 3>,
    out: ViewMut<T, 3>,
    bad: ViewMut<i64, 1>,
) {
    let g = global_id(0);
    let (m, inner) = (index.len(1), index.len(2));
    if g < index.len(0) * m * inner {
        let row = if inner == 1 { g } else { g / inner };
        let i = g - row * inner;
        let o = row / m;
        let k = row - o * m;
        let v = index[[o, k, i]];
        if v >= 0 && (v as u64) < out.len(1) {
            out.atomic_add([o, v as u64, i], src[[o, k, i]]);
        } else {
            bad.atomic_min([0], g as i64);
        }
    }
}

/// `out[o, j, i] += src[o, k, i]` for every `k` (in order) with
/// `index[o, k, i] == j`: one work-item per element of `out`, which reads
/// its whole line of `index`. The work-items of `j == 0` check the line.
#[grid(types = [u8, i8, u16, i16, f16], group = [256], unchecked)]
pub fn scatter_add_ordered<T>(
    index: View<i64, 3>,
    src: View<T, 3>,
    out: ViewMut<T, 3>,
    bad: ViewMut<i64, 1>,
) {
    let g = global_id(0);
    let (n, inner) = (out.len(1), out.len(2));
    let m = index.len(1);
    if g < out.len(0) * n * inner {
        let row = if inner == 1 { g } else { g / inner };
        let i = g - row * inner;
        let o = row / n;
        let j = row - o * n;
        let mut acc = out[[o, j, i]];
        let mut k: u64 = 0;
        while k < m {
            let v = index[[o, k, i]];
            if v == j as i64 {
                acc = acc + src[[o, k, i]];
            }
            if j == 0 && (v < 0 || v as u64 >= n) {
                bad.atomic_min([0], ((o * m + k) * inner + i) as i64);
            }
            k = k + 1;
        }
        out[[o, j, i]] = acc;
    }
}

/// `out[o, index[o, k, i], i] += src[o, k, i]` for `k` in order: one
/// work-item per line `(o, i)` walks it, so each element of `out` adds its
/// elements in order of their position along `dim` (PyTorch's order on the
/// CPU, the host's bits) and no two work-items touch one element. An index
/// out of range adds nothing and is recorded (the smallest position).
#[grid(types = [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [64], unchecked)]
pub fn scatter_add_lines<T>(
    index: View<i64, 3>,
    src: View<T, 3>,
    out: ViewMut<T, 3>,
    bad: ViewMut<i64, 1>,
) {
    let g = global_id(0);
    let (m, inner) = (index.len(1), index.len(2));
    let n = out.len(1);
    if g < index.len(0) * inner {
        let o = if inner == 1 { g } else { g / inner };
        let i = g - o * inner;
        let mut k: u64 = 0;
        while k < m {
            let v = index[[o, k, i]];
            if v >= 0 && (v as u64) < n {
                let j = v as u64;
                out[[o, j, i]] = out[[o, j, i]] + src[[o, k, i]];
            } else {
                bad.atomic_min([0], ((o * m + k) * inner + i) as i64);
            }
            k = k + 1;
        }
    }
}

/// `scatter_reduce` along lines, a work-item a line `(o, i)` of `index`
/// (`[outer, m, inner]`), as [`scatter_add_lines`]: each element of `out`
/// combines its elements of `src` in order of their position along `dim`.
/// `op`: 0 sum, 1 product, 2 maximum, 3 minimum (PyTorch's: a NaN of `src`
/// wins, else `std::max`'s `a < b ? b : a`, so the earlier of two equal
/// elements stays). With `fresh` 1 (`include_self` false) every place the
/// line reaches first holds the identity (sum, product) or its first
/// element (maximum, minimum: taken again, which changes nothing), by a
/// walk from the end. An index out of range combines nothing and is
/// recorded (the smallest position).
#[grid(types = [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [64], unchecked)]
pub fn scatter_reduce_lines<T>(
    index: View<i64, 3>,
    src: View<T, 3>,
    out: ViewMut<T, 3>,
    bad: ViewMut<i64, 1>,
    #[scalar] op: u32,
    #[scalar] fresh: u32,
) {
    let g = global_id(0);
    let (m, inner) = (index.len(1), index.len(2));
    let n = out.len(1);
    if g < index.len(0) * inner {
        let o = if inner == 1 { g } else { g / inner };
        let i = g - o * inner;
        if fresh == 1 {
            let mut k: u64 = m;
            while k > 0 {
                k = k - 1;
                let v = index[[o, k, i]];
                if v >= 0 && (v as u64) < n {
                    let j = v as u64;
                    out[[o, j, i]] = if op == 0 {
                        0u8 as T
                    } else if op == 1 {
                        1u8 as T
                    } else {
                        src[[o, k, i]]
                    };
                }
            }
        }
        let mut k: u64 = 0;
        while k < m {
            let v = index[[o, k, i]];
            if v >= 0 && (v as u64) < n {
                let j = v as u64;
                let (a, b) = (out[[o, j, i]], src[[o, k, i]]);
                out[[o, j, i]] = if op == 0 {
                    a + b
                } else if op == 1 {
                    a * b
                } else if b != b {
                    b
                } else if op == 2 {
                    if a < b {
                        b
                    } else {
                        a
                    }
                } else if b < a {
                    b
                } else {
                    a
                };
            } else {
                bad.atomic_min([0], ((o * m + k) * inner + i) as i64);
            }
            k = k + 1;
        }
    }
}

/// `out[g] = x[index[g]]`, a negative index counting from the end of `x`.
/// An index out of range reads element 0 instead (`x` has one: the
/// launching function errs before a launch on an empty `x`) and records
/// nothing: [`index_check`] finds it. `g` is tested only where the
/// work-group reaches past the output (as the map entries' early return).
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256], unchecked)]
pub fn take_flat<T>(x: View<T, 1>, index: View<i64, 1>, out: ViewMut<T, 1>) {
    let g = global_id(0);
    if (group_id(0) + 1) * 256 > out.len(0) && g >= out.len(0) {
        return;
    }
    let n = x.len(0);
    let v = index[[g]];
    let w = if v < 0 { v + n as i64 } else { v };
    out[[g]] = x[[in_range_or_0(w, n)]];
}

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
/// `(o, j, i)` as its grid's `form` lays them out (`super::lines_grid`).
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn index_select_rows<T>(
    x: View<T, 3>,
    index: View<i64, 1>,
    out: ViewMut<T, 3>,
    bad: ViewMut<i64, 1>,
    #[scalar] form: u32,
) {
    let (m, inner) = (out.len(1), out.len(2));
    let (o, j, i) = line_place(form, global_id(0), global_id(1), global_id(2), inner);
    if o < out.len(0) && j < m && i < inner {
        let v = index[[j]];
        if v >= 0 && (v as u64) < x.len(1) {
            out[[o, j, i]] = x[[o, v as u64, i]];
        } else {
            bad.atomic_min([0], j as i64);
        }
    }
}

/// `out[o, j, i] = x[o, index[o, j, i], i]`, work-item `(g0, g1)` at place
/// `(o, j, i)` as its grid's `form` lays them out (`super::lines_grid`).
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256, 1, 1], unchecked)]
pub fn gather_along<T>(
    x: View<T, 3>,
    index: View<i64, 3>,
    out: ViewMut<T, 3>,
    bad: ViewMut<i64, 1>,
    #[scalar] form: u32,
) {
    let (m, inner) = (out.len(1), out.len(2));
    let (o, j, i) = line_place(form, global_id(0), global_id(1), global_id(2), inner);
    if o < out.len(0) && j < m && i < inner {
        let v = index[[o, j, i]];
        if v >= 0 && (v as u64) < x.len(1) {
            out[[o, j, i]] = x[[o, v as u64, i]];
        } else {
            bad.atomic_min([0], ((o * m + j) * inner + i) as i64);
        }
    }
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

/// `out[g] = x[index[g]]`, a negative index counting from the end of `x`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256], unchecked)]
pub fn take_flat<T>(x: View<T, 1>, index: View<i64, 1>, out: ViewMut<T, 1>, bad: ViewMut<i64, 1>) {
    let g = global_id(0);
    if g < out.len(0) {
        let n = x.len(0) as i64;
        let v = index[[g]];
        let w = if v < 0 { v + n } else { v };
        if w >= 0 && w < n {
            out[[g]] = x[[w as u64]];
        } else {
            bad.atomic_min([0], g as i64);
        }
    }
}

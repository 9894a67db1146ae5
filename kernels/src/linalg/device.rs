//! The grid kernels of the LU factorisation and its solves. A batch of
//! matrices is a 3-d view `[batch, m, n]`; each matrix is factored in
//! place in the output (a copy of the input). For CPU devices a work-item
//! takes a matrix (`lu_factor_items`); for GPUs a work-group of
//! [`GROUP`] work-items does (`lu_factor_groups`: the pivot's search split
//! across them and joined by a tree in work-group memory, the rows below
//! the pivot shared out). Both compute every element by the same
//! operations in the same order (`l = a / pivot`, then `a - l * u`), so
//! they give the same bits as each other and as the host (`host.rs`).
//! `eigh` and `svd` have work-group forms for GPUs too (`eigh_groups`,
//! `svd_groups`: each round's independent rotations shared out); the other
//! factorisations take a matrix (or a column) a work-item on every device.

use silt::{grid, helper};

/// The work-items of a matrix in `lu_factor_groups`.
pub(crate) const GROUP: usize = 64;

/// The work-group of the work-item kernels.
pub(crate) const ITEMS: usize = 8;

/// LU with partial pivoting of every matrix of `lu` (`[batch, m, n]`, in
/// place), a work-item a matrix: for each column `k < pivots.len(1)` the
/// pivot is the first largest `|value|` at or below the diagonal (NaN the
/// largest), recorded 1-based in `pivots` (`[batch, min(m, n)]`); rows `k`
/// and the pivot's are swapped; the column below is divided by the pivot
/// (by 1 where it is 0, which leaves it as it is) and the rows below lose
/// that multiple of row `k`.
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn lu_factor_items<T>(lu: ViewMut<T, 3>, pivots: ViewMut<i32, 2>) {
    let b = global_id(0);
    let (m, n, kn) = (lu.len(1), lu.len(2), pivots.len(1));
    if b < lu.len(0) {
        for k in 0..kn {
            let mut p = k;
            let mut best = lu[[b, k, k]].abs();
            for i in k + 1..m {
                let v = lu[[b, i, k]].abs();
                if best == best && (v != v || v > best) {
                    best = v;
                    p = i;
                }
            }
            pivots[[b, k]] = (p + 1) as i32;
            if p != k {
                for j in 0..n {
                    let t = lu[[b, k, j]];
                    lu[[b, k, j]] = lu[[b, p, j]];
                    lu[[b, p, j]] = t;
                }
            }
            let d = lu[[b, k, k]];
            let s = if d == 0.0 { 1.0 } else { d };
            for i in k + 1..m {
                let l = lu[[b, i, k]] / s;
                lu[[b, i, k]] = l;
                for j in k + 1..n {
                    lu[[b, i, j]] = lu[[b, i, j]] - l * lu[[b, k, j]];
                }
            }
        }
    }
}

/// `lu_factor_items`' factorisation with a work-group of 64 work-items a
/// matrix (`group_id(0)`): work-item `l` searches the rows `k + l`, `k + l
/// + 64`, ... for its first largest `|value|`, a tree in work-group memory
/// joins them (the larger, NaN the largest, the lower row on ties), the
/// swap is shared out by columns and the rows below by rows.
#[grid(types = [f32, f64], group = [64], unchecked)]
pub fn lu_factor_groups<T>(lu: ViewMut<T, 3>, pivots: ViewMut<i32, 2>) {
    let (b, l) = (group_id(0), local_id(0));
    let (m, n, kn) = (lu.len(1), lu.len(2), pivots.len(1));
    let live = b < lu.len(0);
    let mut best = local![T; 64];
    let mut at = local![u64; 64];
    let mut k: u64 = 0;
    while k < kn {
        let mut bv: T = 0.0;
        let mut bi = m;
        let mut i = k + l;
        while live && i < m {
            let v = lu[[b, i, k]].abs();
            if bi == m || (bv == bv && (v != v || v > bv)) {
                bv = v;
                bi = i;
            }
            i += 64;
        }
        best[[l]] = bv;
        at[[l]] = bi;
        barrier();
        let mut h: u64 = 32;
        while h > 0 {
            if l < h {
                let (p, q) = (best[[l]], best[[l + h]]);
                let (pi, qi) = (at[[l]], at[[l + h]]);
                let tie = (p == q || (p != p && q != q)) && qi < pi;
                let larger = p == p && (q != q || q > p);
                if qi < m && (pi == m || larger || tie) {
                    best[[l]] = q;
                    at[[l]] = qi;
                }
            }
            barrier();
            h = h / 2;
        }
        let p = at[[0]];
        barrier();
        if live && l == 0 {
            pivots[[b, k]] = (p + 1) as i32;
        }
        let mut j = l;
        while live && p != k && j < n {
            let t = lu[[b, k, j]];
            lu[[b, k, j]] = lu[[b, p, j]];
            lu[[b, p, j]] = t;
            j += 64;
        }
        barrier();
        i = k + 1 + l;
        while live && i < m {
            let d = lu[[b, k, k]];
            let s = if d == 0.0 { 1.0 } else { d };
            let r = lu[[b, i, k]] / s;
            lu[[b, i, k]] = r;
            for c in k + 1..n {
                lu[[b, i, c]] = lu[[b, i, c]] - r * lu[[b, k, c]];
            }
            i += 64;
        }
        barrier();
        k += 1;
    }
}

/// Solves `A X = B` (`A^T X = B` with `adjoint` nonzero) in place in `x`
/// (`[batch, n, cols]`, holding `B`), `A = P L U` of `lu_factor`'s `lu`
/// (`[batch, n, n]`) and 1-based `pivots` (`[batch, n]`), a work-item a
/// column of a matrix of `x`: the rows swapped as the pivots say, then
/// forward substitution with `L` (unit diagonal) and back substitution
/// with `U` (`A^T`: forward with `U^T`, back with `L^T`, then the swaps
/// undone in reverse order). Each row's sum runs over the columns in
/// increasing order (`s - a * x`), the division by `U`'s diagonal last.
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn lu_solve_items<T>(
    lu: View<T, 3>,
    pivots: View<i32, 2>,
    x: ViewMut<T, 3>,
    #[scalar] adjoint: u32,
) {
    let g = global_id(0);
    let (n, cols) = (x.len(1), x.len(2));
    if g < x.len(0) * cols {
        let (b, c) = (g / cols, g % cols);
        if adjoint == 0 {
            for k in 0..n {
                let p = (pivots[[b, k]] - 1) as u64;
                if p != k {
                    let t = x[[b, k, c]];
                    x[[b, k, c]] = x[[b, p, c]];
                    x[[b, p, c]] = t;
                }
            }
            for i in 0..n {
                let mut s = x[[b, i, c]];
                for j in 0..i {
                    s = s - lu[[b, i, j]] * x[[b, j, c]];
                }
                x[[b, i, c]] = s;
            }
            let mut i = n;
            while i > 0 {
                i -= 1;
                let mut s = x[[b, i, c]];
                for j in i + 1..n {
                    s = s - lu[[b, i, j]] * x[[b, j, c]];
                }
                x[[b, i, c]] = s / lu[[b, i, i]];
            }
        } else {
            for i in 0..n {
                let mut s = x[[b, i, c]];
                for j in 0..i {
                    s = s - lu[[b, j, i]] * x[[b, j, c]];
                }
                x[[b, i, c]] = s / lu[[b, i, i]];
            }
            let mut i = n;
            while i > 0 {
                i -= 1;
                let mut s = x[[b, i, c]];
                for j in i + 1..n {
                    s = s - lu[[b, j, i]] * x[[b, j, c]];
                }
                x[[b, i, c]] = s;
            }
            let mut k = n;
            while k > 0 {
                k -= 1;
                let p = (pivots[[b, k]] - 1) as u64;
                if p != k {
                    let t = x[[b, k, c]];
                    x[[b, k, c]] = x[[b, p, c]];
                    x[[b, p, c]] = t;
                }
            }
        }
    }
}

/// The pair `i` of round `r` of the round-robin tournament on `big` (even)
/// places, as `(p, q)` with `p < q`: place `big - 1` meets `r`, and `(r +
/// i) % (big - 1)` meets `(r + big - 1 - i) % (big - 1)`; in `big - 1`
/// rounds every two places meet once. (`T`: the kernels' element type,
/// unused.)
#[helper(types = [f32, f64])]
fn pair<T>(r: u64, i: u64, big: u64) -> (u64, u64) {
    let h = big - 1;
    let x = if i == 0 { h } else { (r + i) % h };
    let y = if i == 0 { r } else { (r + h - i) % h };
    if x < y {
        (x, y)
    } else {
        (y, x)
    }
}

/// The rotation `(c, s)` of Jacobi's method that zeroes `a_pq` of the
/// symmetric 2 x 2 block `[[a_pp, a_pq], [a_pq, a_qq]]` (Rutishauser's:
/// `t = sign(θ) / (|θ| + sqrt(θ² + 1))`, `θ = (a_qq - a_pp) / (2 a_pq)`,
/// `t = 1 / (2θ)` where `θ²` would overflow); `(1, 0)` where `a_pq` is 0.
#[helper(types = [f32, f64])]
fn rotation<T>(app: T, aqq: T, apq: T) -> (T, T) {
    if apq == 0.0 {
        (1.0, 0.0)
    } else {
        let th = (aqq - app) / (apq + apq);
        let at = th.abs();
        let big = if T::BITS == 64 { 1e150 } else { 1e18 };
        let mut t = if at > big {
            0.5 / at
        } else {
            1.0 / (at + (th * th + 1.0).sqrt())
        };
        if th < 0.0 {
            t = -t;
        }
        let c = 1.0 / (t * t + 1.0).sqrt();
        (c, t * c)
    }
}

/// Jacobi's eigenvalue method on the symmetric matrices `a` (`[batch, n,
/// n]`, its lower triangle read, written in place), a work-item a matrix:
/// sweeps of `N - 1` rounds of the round-robin tournament (`N` = `n`
/// padded to even; the pairs with the padding's place skipped), each round
/// computing the rotations of its pairs (into `rot`, `[batch, N / 2, 2]`),
/// then rotating every pair's rows, then every pair's columns and those of
/// the eigenvectors `v` (the identity to begin with), then setting the
/// rotated `a_pq` and `a_qp` to 0. Before a sweep, the largest `|a_ij|`
/// off the diagonal against `tol` times the largest `|a_ii|` ends the
/// sweeps (also a NaN, and `sweeps` at most). Then the eigenvalues (the
/// diagonal) into `w` (`[batch, n]`) ascending (NaN last; a selection
/// sort, the first of equal values), the columns of `v` with them.
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn eigh_items<T>(
    a: ViewMut<T, 3>,
    v: ViewMut<T, 3>,
    w: ViewMut<T, 2>,
    rot: ViewMut<T, 3>,
    #[scalar] tol: T,
    #[scalar] sweeps: u32,
) {
    let b = global_id(0);
    let n = a.len(1);
    let big = n + n % 2;
    let half = big / 2;
    if b < a.len(0) {
        for i in 0..n {
            for j in 0..n {
                if j > i {
                    a[[b, i, j]] = a[[b, j, i]];
                }
                v[[b, i, j]] = if i == j { 1.0 } else { 0.0 };
            }
        }
        let mut sweep: u32 = 0;
        let mut done = false;
        while !done && sweep < sweeps {
            let mut off: T = 0.0;
            let mut diag: T = 0.0;
            for i in 0..n {
                for j in 0..n {
                    let e = a[[b, i, j]].abs();
                    if i == j {
                        if e > diag || e != e {
                            diag = e;
                        }
                    } else if e > off || e != e {
                        off = e;
                    }
                }
            }
            if off != off || diag != diag || off <= tol * diag {
                done = true;
            } else {
                for r in 0..big - 1 {
                    for i in 0..half {
                        let (p, q) = pair(r, i, big);
                        if q < n {
                            let (c, s) = rotation(a[[b, p, p]], a[[b, q, q]], a[[b, p, q]]);
                            rot[[b, i, 0]] = c;
                            rot[[b, i, 1]] = s;
                        }
                    }
                    for i in 0..half {
                        let (p, q) = pair(r, i, big);
                        if q < n {
                            let (c, s) = (rot[[b, i, 0]], rot[[b, i, 1]]);
                            for j in 0..n {
                                let (x, y) = (a[[b, p, j]], a[[b, q, j]]);
                                a[[b, p, j]] = c * x - s * y;
                                a[[b, q, j]] = s * x + c * y;
                            }
                        }
                    }
                    for i in 0..half {
                        let (p, q) = pair(r, i, big);
                        if q < n {
                            let (c, s) = (rot[[b, i, 0]], rot[[b, i, 1]]);
                            for j in 0..n {
                                let (x, y) = (a[[b, j, p]], a[[b, j, q]]);
                                a[[b, j, p]] = c * x - s * y;
                                a[[b, j, q]] = s * x + c * y;
                                let (x2, y2) = (v[[b, j, p]], v[[b, j, q]]);
                                v[[b, j, p]] = c * x2 - s * y2;
                                v[[b, j, q]] = s * x2 + c * y2;
                            }
                            if s != 0.0 {
                                a[[b, p, q]] = 0.0;
                                a[[b, q, p]] = 0.0;
                            }
                        }
                    }
                }
                sweep += 1;
            }
        }
        for i in 0..n {
            w[[b, i]] = a[[b, i, i]];
        }
        for k in 0..n {
            let mut at = k;
            let mut best = w[[b, k]];
            for i in k + 1..n {
                let e = w[[b, i]];
                if e == e && (best != best || e < best) {
                    best = e;
                    at = i;
                }
            }
            if at != k {
                w[[b, at]] = w[[b, k]];
                w[[b, k]] = best;
                for j in 0..n {
                    let t = v[[b, j, k]];
                    v[[b, j, k]] = v[[b, j, at]];
                    v[[b, j, at]] = t;
                }
            }
        }
    }
}

/// `eigh_items`' method with a work-group of [`GROUP`] work-items a matrix
/// (`group_id(0)`), for GPUs: the maxima that end the sweeps are joined by
/// a tree in work-group memory, and each round's rotations, then its rows,
/// then its columns (and the eigenvectors') are shared out, with a barrier
/// between each step (a round's pairs touch rows and columns of their own:
/// the same operations on every element as `eigh_items`, so the same bits).
/// The sweeps' loop runs `sweeps` times, work only while the matrix is not
/// done (the barriers are reached by every work-item). The final sort is
/// the first work-item's.
#[grid(types = [f32, f64], group = [64], unchecked)]
pub fn eigh_groups<T>(
    a: ViewMut<T, 3>,
    v: ViewMut<T, 3>,
    w: ViewMut<T, 2>,
    rot: ViewMut<T, 3>,
    #[scalar] tol: T,
    #[scalar] sweeps: u32,
) {
    let (b, l) = (group_id(0), local_id(0));
    let n = a.len(1);
    let big = n + n % 2;
    let half = big / 2;
    let live = b < a.len(0);
    let mut offs = local![T; 64];
    let mut diags = local![T; 64];
    let mut e = l;
    while live && e < n * n {
        let (i, j) = (e / n, e % n);
        if j > i {
            a[[b, i, j]] = a[[b, j, i]];
        }
        v[[b, i, j]] = if i == j { 1.0 } else { 0.0 };
        e += 64;
    }
    barrier();
    let mut done = !live;
    let mut sweep: u32 = 0;
    while sweep < sweeps {
        let mut off: T = 0.0;
        let mut diag: T = 0.0;
        e = l;
        while !done && e < n * n {
            let (i, j) = (e / n, e % n);
            let x = a[[b, i, j]].abs();
            if i == j {
                if x > diag || x != x {
                    diag = x;
                }
            } else if x > off || x != x {
                off = x;
            }
            e += 64;
        }
        offs[[l]] = off;
        diags[[l]] = diag;
        barrier();
        let mut h: u64 = 32;
        while h > 0 {
            if l < h {
                let (p, q) = (offs[[l]], offs[[l + h]]);
                if q > p || q != q {
                    offs[[l]] = q;
                }
                let (p2, q2) = (diags[[l]], diags[[l + h]]);
                if q2 > p2 || q2 != q2 {
                    diags[[l]] = q2;
                }
            }
            barrier();
            h = h / 2;
        }
        let (off, diag) = (offs[[0]], diags[[0]]);
        barrier();
        if off != off || diag != diag || off <= tol * diag {
            done = true;
        }
        for r in 0..big - 1 {
            let mut i = l;
            while !done && i < half {
                let (p, q) = pair(r, i, big);
                if q < n {
                    let (c, s) = rotation(a[[b, p, p]], a[[b, q, q]], a[[b, p, q]]);
                    rot[[b, i, 0]] = c;
                    rot[[b, i, 1]] = s;
                }
                i += 64;
            }
            barrier();
            e = l;
            while !done && e < half * n {
                let (i, j) = (e / n, e % n);
                let (p, q) = pair(r, i, big);
                if q < n {
                    let (c, s) = (rot[[b, i, 0]], rot[[b, i, 1]]);
                    let (x, y) = (a[[b, p, j]], a[[b, q, j]]);
                    a[[b, p, j]] = c * x - s * y;
                    a[[b, q, j]] = s * x + c * y;
                }
                e += 64;
            }
            barrier();
            e = l;
            while !done && e < half * n {
                let (i, j) = (e / n, e % n);
                let (p, q) = pair(r, i, big);
                if q < n {
                    let (c, s) = (rot[[b, i, 0]], rot[[b, i, 1]]);
                    let (x, y) = (a[[b, j, p]], a[[b, j, q]]);
                    a[[b, j, p]] = c * x - s * y;
                    a[[b, j, q]] = s * x + c * y;
                    let (x2, y2) = (v[[b, j, p]], v[[b, j, q]]);
                    v[[b, j, p]] = c * x2 - s * y2;
                    v[[b, j, q]] = s * x2 + c * y2;
                }
                e += 64;
            }
            barrier();
            i = l;
            while !done && i < half {
                let (p, q) = pair(r, i, big);
                if q < n && rot[[b, i, 1]] != 0.0 {
                    a[[b, p, q]] = 0.0;
                    a[[b, q, p]] = 0.0;
                }
                i += 64;
            }
            barrier();
        }
        sweep += 1;
    }
    if live && l == 0 {
        for i in 0..n {
            w[[b, i]] = a[[b, i, i]];
        }
        for k in 0..n {
            let mut at = k;
            let mut best = w[[b, k]];
            for i in k + 1..n {
                let x = w[[b, i]];
                if x == x && (best != best || x < best) {
                    best = x;
                    at = i;
                }
            }
            if at != k {
                w[[b, at]] = w[[b, k]];
                w[[b, k]] = best;
                for j in 0..n {
                    let t = v[[b, j, k]];
                    v[[b, j, k]] = v[[b, j, at]];
                    v[[b, j, at]] = t;
                }
            }
        }
    }
}

/// Hestenes' one-sided Jacobi method on the tall matrices `x` (`[batch, m,
/// n]`, `m >= n`, written in place), a work-item a matrix: the matrix is
/// divided by its largest `|value|` (where that is finite and not 0); then
/// sweeps of `N - 1` rounds of the round-robin tournament on its columns
/// (`N` = `n` padded to even), each pair `(p, q)` rotated, with the columns
/// of `v` (the identity to begin with), by `rotation(α, β, γ)` of `α =
/// |x_p|²`, `β = |x_q|²`, `γ = x_p . x_q` (sums over the rows in blocks
/// of 256, each in order, the blocks' sums added in order) where `|γ| > tol sqrt(α β)`; a sweep without a rotation (or `sweeps`)
/// ends them. Then the singular values `s` (`[batch, n]`: the columns'
/// norms times the scale) descending (NaN first), the columns of `x` and
/// `v` with them; `x`'s columns divided by their norms where that is above
/// `tol` times the largest, the others (and those of norm 0) replaced by
/// unit vectors orthogonal to every other column (the first of `e_0, e_1,
/// ...` that keeps more than half its length after two rounds of
/// Gram-Schmidt), so that `x` holds `U`.
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn svd_items<T>(
    x: ViewMut<T, 3>,
    v: ViewMut<T, 3>,
    s: ViewMut<T, 2>,
    #[scalar] tol: T,
    #[scalar] sweeps: u32,
) {
    let b = global_id(0);
    let (m, n) = (x.len(1), x.len(2));
    let big = n + n % 2;
    let half = big / 2;
    if b < x.len(0) {
        let mut scale: T = 0.0;
        for i in 0..m {
            for j in 0..n {
                let e = x[[b, i, j]].abs();
                if e > scale {
                    scale = e;
                }
            }
        }
        if scale == 0.0 || scale - scale != 0.0 {
            scale = 1.0;
        }
        for i in 0..m {
            for j in 0..n {
                x[[b, i, j]] = x[[b, i, j]] / scale;
            }
        }
        for i in 0..n {
            for j in 0..n {
                v[[b, i, j]] = if i == j { 1.0 } else { 0.0 };
            }
        }
        let mut sweep: u32 = 0;
        let mut busy = true;
        while busy && sweep < sweeps {
            busy = false;
            for r in 0..big - 1 {
                for i in 0..half {
                    let (p, q) = pair(r, i, big);
                    if q < n {
                        // blocks of 256 rows summed in order, the blocks' sums
                        // added in order (error growing with m / 256 + 256, not m)
                        let mut al: T = 0.0;
                        let mut be: T = 0.0;
                        let mut ga: T = 0.0;
                        let mut k0: u64 = 0;
                        while k0 < m {
                            let k1 = if m - k0 < 256 { m } else { k0 + 256 };
                            let mut a1: T = 0.0;
                            let mut b1: T = 0.0;
                            let mut g1: T = 0.0;
                            for k in k0..k1 {
                                let (xp, xq) = (x[[b, k, p]], x[[b, k, q]]);
                                a1 = a1 + xp * xp;
                                b1 = b1 + xq * xq;
                                g1 = g1 + xp * xq;
                            }
                            al = al + a1;
                            be = be + b1;
                            ga = ga + g1;
                            k0 = k1;
                        }
                        if ga.abs() > tol * (al * be).sqrt() {
                            busy = true;
                            let (c, sn) = rotation(al, be, ga);
                            for k in 0..m {
                                let (xp, xq) = (x[[b, k, p]], x[[b, k, q]]);
                                x[[b, k, p]] = c * xp - sn * xq;
                                x[[b, k, q]] = sn * xp + c * xq;
                            }
                            for k in 0..n {
                                let (vp, vq) = (v[[b, k, p]], v[[b, k, q]]);
                                v[[b, k, p]] = c * vp - sn * vq;
                                v[[b, k, q]] = sn * vp + c * vq;
                            }
                        }
                    }
                }
            }
            sweep += 1;
        }
        for j in 0..n {
            // in blocks of 256 rows, as the rotations' sums
            let mut sq: T = 0.0;
            let mut k0: u64 = 0;
            while k0 < m {
                let k1 = if m - k0 < 256 { m } else { k0 + 256 };
                let mut q1: T = 0.0;
                for k in k0..k1 {
                    q1 = q1 + x[[b, k, j]] * x[[b, k, j]];
                }
                sq = sq + q1;
                k0 = k1;
            }
            s[[b, j]] = sq.sqrt();
        }
        // descending, NaN first: a selection sort, the columns with the values
        for j in 0..n {
            let mut at = j;
            let mut best = s[[b, j]];
            for i in j + 1..n {
                let e = s[[b, i]];
                if best == best && (e != e || e > best) {
                    best = e;
                    at = i;
                }
            }
            if at != j {
                s[[b, at]] = s[[b, j]];
                s[[b, j]] = best;
                for k in 0..m {
                    let t = x[[b, k, j]];
                    x[[b, k, j]] = x[[b, k, at]];
                    x[[b, k, at]] = t;
                }
                for k in 0..n {
                    let t = v[[b, k, j]];
                    v[[b, k, j]] = v[[b, k, at]];
                    v[[b, k, at]] = t;
                }
            }
        }
        // U: the columns normalised, those of (nearly) zero norm left 0 for now
        let top = s[[b, 0]];
        for j in 0..n {
            let sj = s[[b, j]];
            let keep = sj > tol * top;
            for k in 0..m {
                x[[b, k, j]] = if keep { x[[b, k, j]] / sj } else { 0.0 };
            }
        }
        for j in 0..n {
            if !(s[[b, j]] > tol * top) {
                let mut e: u64 = 0;
                let mut found = false;
                while !found && e < m {
                    for k in 0..m {
                        x[[b, k, j]] = if k == e { 1.0 } else { 0.0 };
                    }
                    for _round in 0..2 {
                        for c in 0..n {
                            if c != j {
                                let mut d: T = 0.0;
                                for k in 0..m {
                                    d = d + x[[b, k, c]] * x[[b, k, j]];
                                }
                                for k in 0..m {
                                    x[[b, k, j]] = x[[b, k, j]] - d * x[[b, k, c]];
                                }
                            }
                        }
                    }
                    let mut sq: T = 0.0;
                    for k in 0..m {
                        sq = sq + x[[b, k, j]] * x[[b, k, j]];
                    }
                    let len = sq.sqrt();
                    if len > 0.5 {
                        found = true;
                        for k in 0..m {
                            x[[b, k, j]] = x[[b, k, j]] / len;
                        }
                    }
                    e += 1;
                }
            }
        }
        for j in 0..n {
            s[[b, j]] = s[[b, j]] * scale;
        }
    }
}

/// `svd_items`' method with a work-group of [`GROUP`] work-items a matrix
/// (`group_id(0)`), for GPUs: the scale's maximum joined by a tree in
/// work-group memory; each round's pairs shared out (a work-item computes
/// a pair's sums over the rows in blocks and rotates its two columns, as
/// `svd_items` does: a round's pairs touch columns of their own, so the
/// same bits), a barrier after each round; whether any pair of a sweep
/// rotated is read from each work-item's flag. The sweeps' loop runs
/// `sweeps` times, work only while the matrix is not done. The norms and
/// the normalised columns are shared out by columns; the sort and the
/// completion of `U` are the first work-item's.
#[grid(types = [f32, f64], group = [64], unchecked)]
pub fn svd_groups<T>(
    x: ViewMut<T, 3>,
    v: ViewMut<T, 3>,
    s: ViewMut<T, 2>,
    #[scalar] tol: T,
    #[scalar] sweeps: u32,
) {
    let (b, l) = (group_id(0), local_id(0));
    let (m, n) = (x.len(1), x.len(2));
    let big = n + n % 2;
    let half = big / 2;
    let live = b < x.len(0);
    let mut tops = local![T; 64];
    let mut flags = local![u32; 64];
    let mut scale: T = 0.0;
    let mut e = l;
    while live && e < m * n {
        let y = x[[b, e / n, e % n]].abs();
        if y > scale {
            scale = y;
        }
        e += 64;
    }
    tops[[l]] = scale;
    barrier();
    let mut h: u64 = 32;
    while h > 0 {
        if l < h && tops[[l + h]] > tops[[l]] {
            tops[[l]] = tops[[l + h]];
        }
        barrier();
        h = h / 2;
    }
    scale = tops[[0]];
    if scale == 0.0 || scale - scale != 0.0 {
        scale = 1.0;
    }
    e = l;
    while live && e < m * n {
        let (i, j) = (e / n, e % n);
        x[[b, i, j]] = x[[b, i, j]] / scale;
        e += 64;
    }
    e = l;
    while live && e < n * n {
        let (i, j) = (e / n, e % n);
        v[[b, i, j]] = if i == j { 1.0 } else { 0.0 };
        e += 64;
    }
    barrier();
    let mut running = live;
    let mut sweep: u32 = 0;
    while sweep < sweeps {
        let mut mine: u32 = 0;
        for r in 0..big - 1 {
            let mut i = l;
            while running && i < half {
                let (p, q) = pair(r, i, big);
                if q < n {
                    // blocks of 256 rows summed in order, the blocks' sums
                    // added in order (error growing with m / 256 + 256, not m)
                    let mut al: T = 0.0;
                    let mut be: T = 0.0;
                    let mut ga: T = 0.0;
                    let mut k0: u64 = 0;
                    while k0 < m {
                        let k1 = if m - k0 < 256 { m } else { k0 + 256 };
                        let mut a1: T = 0.0;
                        let mut b1: T = 0.0;
                        let mut g1: T = 0.0;
                        for k in k0..k1 {
                            let (xp, xq) = (x[[b, k, p]], x[[b, k, q]]);
                            a1 = a1 + xp * xp;
                            b1 = b1 + xq * xq;
                            g1 = g1 + xp * xq;
                        }
                        al = al + a1;
                        be = be + b1;
                        ga = ga + g1;
                        k0 = k1;
                    }
                    if ga.abs() > tol * (al * be).sqrt() {
                        mine = 1;
                        let (c, sn) = rotation(al, be, ga);
                        for k in 0..m {
                            let (xp, xq) = (x[[b, k, p]], x[[b, k, q]]);
                            x[[b, k, p]] = c * xp - sn * xq;
                            x[[b, k, q]] = sn * xp + c * xq;
                        }
                        for k in 0..n {
                            let (vp, vq) = (v[[b, k, p]], v[[b, k, q]]);
                            v[[b, k, p]] = c * vp - sn * vq;
                            v[[b, k, q]] = sn * vp + c * vq;
                        }
                    }
                }
                i += 64;
            }
            barrier();
        }
        flags[[l]] = mine;
        barrier();
        let mut any = false;
        for t in 0..64 {
            if flags[[t]] != 0 {
                any = true;
            }
        }
        barrier();
        running = running && any;
        sweep += 1;
    }
    let mut j = l;
    while live && j < n {
        // in blocks of 256 rows, as the rotations' sums
        let mut sq: T = 0.0;
        let mut k0: u64 = 0;
        while k0 < m {
            let k1 = if m - k0 < 256 { m } else { k0 + 256 };
            let mut q1: T = 0.0;
            for k in k0..k1 {
                q1 = q1 + x[[b, k, j]] * x[[b, k, j]];
            }
            sq = sq + q1;
            k0 = k1;
        }
        s[[b, j]] = sq.sqrt();
        j += 64;
    }
    barrier();
    if live && l == 0 {
        // descending, NaN first: a selection sort, the columns with the values
        for j in 0..n {
            let mut at = j;
            let mut best = s[[b, j]];
            for i in j + 1..n {
                let y = s[[b, i]];
                if best == best && (y != y || y > best) {
                    best = y;
                    at = i;
                }
            }
            if at != j {
                s[[b, at]] = s[[b, j]];
                s[[b, j]] = best;
                for k in 0..m {
                    let t = x[[b, k, j]];
                    x[[b, k, j]] = x[[b, k, at]];
                    x[[b, k, at]] = t;
                }
                for k in 0..n {
                    let t = v[[b, k, j]];
                    v[[b, k, j]] = v[[b, k, at]];
                    v[[b, k, at]] = t;
                }
            }
        }
    }
    barrier();
    j = l;
    while live && j < n {
        // U: the columns normalised, those of (nearly) zero norm left 0 for now
        let (sj, top) = (s[[b, j]], s[[b, 0]]);
        let keep = sj > tol * top;
        for k in 0..m {
            x[[b, k, j]] = if keep { x[[b, k, j]] / sj } else { 0.0 };
        }
        j += 64;
    }
    barrier();
    if live && l == 0 {
        let top = s[[b, 0]];
        for j in 0..n {
            if !(s[[b, j]] > tol * top) {
                let mut e: u64 = 0;
                let mut found = false;
                while !found && e < m {
                    for k in 0..m {
                        x[[b, k, j]] = if k == e { 1.0 } else { 0.0 };
                    }
                    for _round in 0..2 {
                        for c in 0..n {
                            if c != j {
                                let mut d: T = 0.0;
                                for k in 0..m {
                                    d = d + x[[b, k, c]] * x[[b, k, j]];
                                }
                                for k in 0..m {
                                    x[[b, k, j]] = x[[b, k, j]] - d * x[[b, k, c]];
                                }
                            }
                        }
                    }
                    let mut sq: T = 0.0;
                    for k in 0..m {
                        sq = sq + x[[b, k, j]] * x[[b, k, j]];
                    }
                    let len = sq.sqrt();
                    if len > 0.5 {
                        found = true;
                        for k in 0..m {
                            x[[b, k, j]] = x[[b, k, j]] / len;
                        }
                    }
                    e += 1;
                }
            }
        }
        for j in 0..n {
            s[[b, j]] = s[[b, j]] * scale;
        }
    }
}

/// Householder QR of every matrix of `a` (`[batch, m, n]`, in place), a
/// work-item a matrix, as LAPACK's `geqrf`: for each column `k <
/// tau.len(1)`, with `α = a_kk` and `x` the column below it, `|x|` from the
/// column divided by its largest `|value|` (no overflow nor underflow);
/// where `x` is 0, `τ_k = 0` and nothing changes; else `β = -sign(α)
/// hypot(α, |x|)` (`sign(0) = +`), `τ_k = (β - α) / β`, `v = x / (α - β)`
/// stored over `x`, `β` over `α`, and the columns right of `k` multiplied
/// by `H = I - τ v v^T` (`v_0 = 1`): `w = a_kj + v . a_j`, then `a_kj -= τ
/// w`, `a_ij -= τ v_i w`.
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn geqrf_items<T>(a: ViewMut<T, 3>, tau: ViewMut<T, 2>) {
    let b = global_id(0);
    let (m, n, kn) = (a.len(1), a.len(2), tau.len(1));
    if b < a.len(0) {
        for k in 0..kn {
            let alpha = a[[b, k, k]];
            let mut big: T = 0.0;
            for i in k + 1..m {
                let e = a[[b, i, k]].abs();
                if e > big || e != e {
                    big = e;
                }
            }
            if big == 0.0 {
                tau[[b, k]] = 0.0;
            } else {
                let mut sq: T = 0.0;
                for i in k + 1..m {
                    let e = a[[b, i, k]] / big;
                    sq = sq + e * e;
                }
                let xn = sq.sqrt() * big;
                let s = if alpha.abs() > xn { alpha.abs() } else { xn };
                let (p, q) = (alpha / s, xn / s);
                let h = s * (p * p + q * q).sqrt();
                let beta = if alpha >= 0.0 { -h } else { h };
                let t = (beta - alpha) / beta;
                let d = alpha - beta;
                for i in k + 1..m {
                    a[[b, i, k]] = a[[b, i, k]] / d;
                }
                a[[b, k, k]] = beta;
                tau[[b, k]] = t;
                for j in k + 1..n {
                    let mut w = a[[b, k, j]];
                    for i in k + 1..m {
                        w = w + a[[b, i, k]] * a[[b, i, j]];
                    }
                    a[[b, k, j]] = a[[b, k, j]] - t * w;
                    for i in k + 1..m {
                        a[[b, i, j]] = a[[b, i, j]] - t * a[[b, i, k]] * w;
                    }
                }
            }
        }
    }
}

/// The first `q.len(2)` columns of `Q = H_0 H_1 ... H_{k-1}` of the
/// reflectors below the diagonal of `a` (`[batch, m, >= k]`, the `v`'s, 1
/// on the diagonal implied) and `tau` (`[batch, k]`) into `q` (`[batch, m,
/// cols]`, `cols >= k`), a work-item a matrix, as LAPACK's `orgqr`: `q`
/// starts as the identity's columns and the reflectors are applied
/// backward, `H_j` to the columns from `j` (`w = q_jc + v . q_c`, `q_jc -= τ
/// w`, `q_ic -= τ v_i w`).
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn householder_product_items<T>(a: View<T, 3>, tau: View<T, 2>, q: ViewMut<T, 3>) {
    let b = global_id(0);
    let (m, cols, kn) = (q.len(1), q.len(2), tau.len(1));
    if b < q.len(0) {
        for i in 0..m {
            for c in 0..cols {
                q[[b, i, c]] = if i == c { 1.0 } else { 0.0 };
            }
        }
        let mut j = kn;
        while j > 0 {
            j -= 1;
            let t = tau[[b, j]];
            for c in j..cols {
                let mut w = q[[b, j, c]];
                for i in j + 1..m {
                    w = w + a[[b, i, j]] * q[[b, i, c]];
                }
                q[[b, j, c]] = q[[b, j, c]] - t * w;
                for i in j + 1..m {
                    q[[b, i, c]] = q[[b, i, c]] - t * a[[b, i, j]] * w;
                }
            }
        }
    }
}

/// The Cholesky factor `L` (`A = L L^T`) of each symmetric matrix of `a`
/// (`[batch, n, n]`, its lower triangle read) into `l` (`[batch, n, n]`,
/// 0 above the diagonal), a work-item a matrix, column after column:
/// `d = a_jj - Σ l_jk²` and `l_ij = (a_ij - Σ l_ik l_jk) / l_jj` (`k < j` in
/// order), `l_jj = sqrt(d)`; `info` (`[batch]`) is the 1-based order of the
/// first leading minor that is not positive-definite (`d` not above 0, or
/// NaN), 0 where none (the columns from there on are then not meaningful).
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn cholesky_items<T>(a: View<T, 3>, l: ViewMut<T, 3>, info: ViewMut<i32, 1>) {
    let b = global_id(0);
    let n = a.len(1);
    if b < a.len(0) {
        let mut bad: u64 = 0;
        for j in 0..n {
            let mut d = a[[b, j, j]];
            for k in 0..j {
                d = d - l[[b, j, k]] * l[[b, j, k]];
            }
            if bad == 0 && !(d > 0.0) {
                bad = j + 1;
            }
            let ljj = d.sqrt();
            l[[b, j, j]] = ljj;
            for i in j + 1..n {
                let mut e = a[[b, i, j]];
                for k in 0..j {
                    e = e - l[[b, i, k]] * l[[b, j, k]];
                }
                l[[b, i, j]] = e / ljj;
            }
            for i in 0..j {
                l[[b, i, j]] = 0.0;
            }
        }
        info[[b]] = bad as i32;
    }
}

/// Solves `A X = B` in place in `x` (`[batch, n, cols]`, holding `B`) for
/// the triangular `a` (`[batch, n, n]`; its upper triangle where `upper`
/// is nonzero, else its lower; with `unit` nonzero its diagonal is taken as
/// ones and not read), a work-item a column of a matrix of `x`: back or
/// forward substitution, each row's sum over the columns in order (`s - a
/// x`), the division by the diagonal last.
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn solve_triangular_items<T>(
    a: View<T, 3>,
    x: ViewMut<T, 3>,
    #[scalar] upper: u32,
    #[scalar] unit: u32,
) {
    let g = global_id(0);
    let (n, cols) = (x.len(1), x.len(2));
    if g < x.len(0) * cols {
        let (b, c) = (g / cols, g % cols);
        if upper != 0 {
            let mut i = n;
            while i > 0 {
                i -= 1;
                let mut s = x[[b, i, c]];
                for j in i + 1..n {
                    s = s - a[[b, i, j]] * x[[b, j, c]];
                }
                x[[b, i, c]] = if unit != 0 { s } else { s / a[[b, i, i]] };
            }
        } else {
            for i in 0..n {
                let mut s = x[[b, i, c]];
                for j in 0..i {
                    s = s - a[[b, i, j]] * x[[b, j, c]];
                }
                x[[b, i, c]] = if unit != 0 { s } else { s / a[[b, i, i]] };
            }
        }
    }
}

/// The Bunch-Kaufman factorisation `P A P^T = L D L^T` of every symmetric
/// matrix of `a` (`[batch, n, n]`, its lower triangle read and written in
/// place, the upper one zeroed at the end), a work-item a matrix, as
/// LAPACK's unblocked `sytf2` with `uplo = 'L'`: for each column `k`, with
/// `α = alpha` (`(1 + √17) / 8`), `|a_kk|` against the largest `|a_ik|`
/// below it (the first, `imax`) and the largest off-diagonal `|value|` of
/// row and column `imax` picks a 1 x 1 pivot (`k` or `imax`) or a 2 x 2
/// one (`k` with `imax`); the trailing matrix's rows and columns are
/// swapped to bring it to place, then updated (a 1 x 1 pivot: `a_ij -=
/// a_ik (a_jk / a_kk)`, the column divided by `a_kk`; a 2 x 2 one through
/// the inverse of the block). `pivots` (`[batch, n]`) are LAPACK's:
/// 1-based, the row swapped with; negative for both columns of a 2 x 2
/// block. A column that is 0 (or a NaN on the diagonal) is left as it is,
/// its place first recorded (1-based) in `info` (`[batch]`; 0 where none).
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn ldl_factor_items<T>(
    a: ViewMut<T, 3>,
    pivots: ViewMut<i32, 2>,
    info: ViewMut<i32, 1>,
    #[scalar] alpha: T,
) {
    let b = global_id(0);
    let n = a.len(1);
    if b < a.len(0) {
        let mut bad: u64 = 0;
        let mut k: u64 = 0;
        while k < n {
            let mut step: u64 = 1;
            let akk = a[[b, k, k]].abs();
            let mut imax = k;
            let mut colmax: T = 0.0;
            for i in k + 1..n {
                let v = a[[b, i, k]].abs();
                if i == k + 1 || v > colmax {
                    colmax = v;
                    imax = i;
                }
            }
            let mut kp = k;
            if (akk == 0.0 && colmax == 0.0) || akk != akk {
                if bad == 0 {
                    bad = k + 1;
                }
            } else {
                if !(akk >= alpha * colmax) {
                    let mut rowmax: T = 0.0;
                    for j in k..imax {
                        let v = a[[b, imax, j]].abs();
                        if j == k || v > rowmax {
                            rowmax = v;
                        }
                    }
                    for i in imax + 1..n {
                        let v = a[[b, i, imax]].abs();
                        if v > rowmax {
                            rowmax = v;
                        }
                    }
                    if akk >= alpha * colmax * (colmax / rowmax) {
                        kp = k;
                    } else if a[[b, imax, imax]].abs() >= alpha * rowmax {
                        kp = imax;
                    } else {
                        kp = imax;
                        step = 2;
                    }
                }
                let kk = k + step - 1;
                if kp != kk {
                    for i in kp + 1..n {
                        let t = a[[b, i, kk]];
                        a[[b, i, kk]] = a[[b, i, kp]];
                        a[[b, i, kp]] = t;
                    }
                    for j in kk + 1..kp {
                        let t = a[[b, j, kk]];
                        a[[b, j, kk]] = a[[b, kp, j]];
                        a[[b, kp, j]] = t;
                    }
                    let t = a[[b, kk, kk]];
                    a[[b, kk, kk]] = a[[b, kp, kp]];
                    a[[b, kp, kp]] = t;
                    if step == 2 {
                        let t2 = a[[b, k + 1, k]];
                        a[[b, k + 1, k]] = a[[b, kp, k]];
                        a[[b, kp, k]] = t2;
                    }
                }
                if step == 1 {
                    let d11 = 1.0 / a[[b, k, k]];
                    for j in k + 1..n {
                        let xj = a[[b, j, k]];
                        if xj != 0.0 {
                            let t = -d11 * xj;
                            for i in j..n {
                                a[[b, i, j]] = a[[b, i, j]] + a[[b, i, k]] * t;
                            }
                        }
                    }
                    for i in k + 1..n {
                        a[[b, i, k]] = a[[b, i, k]] * d11;
                    }
                } else {
                    let d21 = a[[b, k + 1, k]];
                    let d11 = a[[b, k + 1, k + 1]] / d21;
                    let d22 = a[[b, k, k]] / d21;
                    let t = 1.0 / (d11 * d22 - 1.0);
                    let e21 = t / d21;
                    for j in k + 2..n {
                        let wk = e21 * (d11 * a[[b, j, k]] - a[[b, j, k + 1]]);
                        let wkp1 = e21 * (d22 * a[[b, j, k + 1]] - a[[b, j, k]]);
                        for i in j..n {
                            a[[b, i, j]] =
                                a[[b, i, j]] - a[[b, i, k]] * wk - a[[b, i, k + 1]] * wkp1;
                        }
                        a[[b, j, k]] = wk;
                        a[[b, j, k + 1]] = wkp1;
                    }
                }
            }
            if step == 1 {
                pivots[[b, k]] = (kp + 1) as i32;
            } else {
                pivots[[b, k]] = -((kp + 1) as i32);
                pivots[[b, k + 1]] = -((kp + 1) as i32);
            }
            k += step;
        }
        for i in 0..n {
            for j in i + 1..n {
                a[[b, i, j]] = 0.0;
            }
        }
        info[[b]] = bad as i32;
    }
}

/// Solves `A X = B` in place in `x` (`[batch, n, cols]`, holding `B`) from
/// `ldl_factor_items`' `ld` (`[batch, n, n]`) and `pivots` (`[batch, n]`),
/// a work-item a column, as LAPACK's `sytrs` with `uplo = 'L'`: `L D`
/// first (each pivot's swap, the column's multiples of the row below, the
/// 1 x 1 or 2 x 2 block's inverse), then `L^T` backward (each row's dot
/// product with the rows below, in order, then the swap). A pivot that is
/// negative on the last row is taken as 1 x 1 (malformed pivots never read
/// outside the matrix; their range was checked).
#[grid(types = [f32, f64], group = [8], unchecked)]
pub fn ldl_solve_items<T>(ld: View<T, 3>, pivots: View<i32, 2>, x: ViewMut<T, 3>) {
    let g = global_id(0);
    let (n, cols) = (x.len(1), x.len(2));
    if g < x.len(0) * cols {
        let (b, c) = (g / cols, g % cols);
        let mut k: u64 = 0;
        while k < n {
            let p = pivots[[b, k]];
            if p > 0 || k + 1 >= n {
                let kp = (p.abs() - 1) as u64;
                if kp != k {
                    let t = x[[b, k, c]];
                    x[[b, k, c]] = x[[b, kp, c]];
                    x[[b, kp, c]] = t;
                }
                let xk = x[[b, k, c]];
                for i in k + 1..n {
                    x[[b, i, c]] = x[[b, i, c]] - ld[[b, i, k]] * xk;
                }
                x[[b, k, c]] = xk / ld[[b, k, k]];
                k += 1;
            } else {
                let kp = (-p - 1) as u64;
                if kp != k + 1 {
                    let t = x[[b, k + 1, c]];
                    x[[b, k + 1, c]] = x[[b, kp, c]];
                    x[[b, kp, c]] = t;
                }
                let (x0, x1) = (x[[b, k, c]], x[[b, k + 1, c]]);
                for i in k + 2..n {
                    x[[b, i, c]] = x[[b, i, c]] - ld[[b, i, k]] * x0 - ld[[b, i, k + 1]] * x1;
                }
                let akm1k = ld[[b, k + 1, k]];
                let akm1 = ld[[b, k, k]] / akm1k;
                let ak = ld[[b, k + 1, k + 1]] / akm1k;
                let denom = akm1 * ak - 1.0;
                let (bkm1, bk) = (x0 / akm1k, x1 / akm1k);
                x[[b, k, c]] = (ak * bkm1 - bk) / denom;
                x[[b, k + 1, c]] = (akm1 * bk - bkm1) / denom;
                k += 2;
            }
        }
        let mut k = n;
        while k > 0 {
            let p = pivots[[b, k - 1]];
            if p > 0 || k < 2 {
                let r = k - 1;
                let mut s: T = 0.0;
                for i in r + 1..n {
                    s = s + ld[[b, i, r]] * x[[b, i, c]];
                }
                x[[b, r, c]] = x[[b, r, c]] - s;
                let kp = (p.abs() - 1) as u64;
                if kp != r {
                    let t = x[[b, r, c]];
                    x[[b, r, c]] = x[[b, kp, c]];
                    x[[b, kp, c]] = t;
                }
                k -= 1;
            } else {
                let r = k - 1;
                let mut s: T = 0.0;
                let mut s1: T = 0.0;
                for i in r + 1..n {
                    s = s + ld[[b, i, r]] * x[[b, i, c]];
                    s1 = s1 + ld[[b, i, r - 1]] * x[[b, i, c]];
                }
                x[[b, r, c]] = x[[b, r, c]] - s;
                x[[b, r - 1, c]] = x[[b, r - 1, c]] - s1;
                let kp = (-p - 1) as u64;
                if kp != r {
                    let t = x[[b, r, c]];
                    x[[b, r, c]] = x[[b, kp, c]];
                    x[[b, kp, c]] = t;
                }
                k -= 2;
            }
        }
    }
}

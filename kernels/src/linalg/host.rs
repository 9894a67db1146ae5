//! The LU factorisation and its solves on the host: the work-item kernels'
//! steps (`device.rs`) as plain Rust, matrices (and columns) in parallel,
//! the same operations in the same order, so the same bits.

use rayon::prelude::*;
use silt::{Element, Result, TensorT};

/// `svd`'s sums over a column's rows: blocks of this many summed in order,
/// the blocks' sums added in order (the kernels write 256 in their text).
const SUM_BLOCK: usize = 256;

/// A float type of the factorisations (`f32`, `f64`): the arithmetic
/// their host forms use, the kernels' step for step.
pub trait FactorFloat:
    Element
    + Send
    + Sync
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Neg<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    #[doc(hidden)]
    const ZERO: Self;
    #[doc(hidden)]
    const ONE: Self;
    /// The bound on `|θ|` past which the rotation does not form `θ²` (the
    /// kernels' `rotation`).
    #[doc(hidden)]
    const BIG_THETA: Self;
    #[doc(hidden)]
    fn abs(self) -> Self;
    #[doc(hidden)]
    fn sqrt(self) -> Self;
}

macro_rules! factor_float {
    ($($t:ty = $big:expr),*) => {$(
        impl FactorFloat for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const BIG_THETA: Self = $big;
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
        }
    )*};
}
factor_float!(f32 = 1e18, f64 = 1e150);

/// Factors each `m` x `n` matrix of `lu` (contiguous, `[batch, m, n]`) in
/// place, its `k = min(m, n)` pivots (1-based) into `pivots` (`[batch,
/// k]`), as `lu_factor_items`.
pub(crate) fn lu_factor<T: FactorFloat>(
    lu: &mut TensorT<T>,
    pivots: &mut TensorT<i32>,
) -> Result<()> {
    let (m, n) = (lu.shape()[1], lu.shape()[2]);
    let kn = m.min(n);
    lu.with_host_slice_mut(|a| {
        pivots.with_host_slice_mut(|piv| {
            a.par_chunks_mut(m * n)
                .zip(piv.par_chunks_mut(kn))
                .for_each(|(a, piv)| factor(a, piv, m, n));
        })
    })??;
    Ok(())
}

#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)] // a row below 2^31
fn factor<T: FactorFloat>(a: &mut [T], piv: &mut [i32], m: usize, n: usize) {
    for (k, pk) in piv.iter_mut().enumerate() {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for i in k + 1..m {
            let v = a[i * n + k].abs();
            #[allow(clippy::eq_op)] // NaN tests, as the kernels'
            if best == best && (v != v || v > best) {
                best = v;
                p = i;
            }
        }
        *pk = (p + 1) as i32;
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let d = a[k * n + k];
        let s = if d == T::ZERO { T::ONE } else { d };
        let (top, rest) = a.split_at_mut((k + 1) * n);
        let row_k = &top[k * n..];
        for row in rest.chunks_mut(n).take(m - k - 1) {
            let l = row[k] / s;
            row[k] = l;
            for j in k + 1..n {
                row[j] = row[j] - l * row_k[j];
            }
        }
    }
}

/// Solves in place in `x` (contiguous, `[batch, n, cols]`) from `lu`
/// (contiguous, `[batch, n, n]`) and `pivots` (`[batch, n]`), as
/// `lu_solve_items`.
pub(crate) fn lu_solve<T: FactorFloat>(
    lu: &TensorT<T>,
    pivots: &TensorT<i32>,
    x: &mut TensorT<T>,
    adjoint: bool,
) -> Result<()> {
    let (n, cols) = (x.shape()[1], x.shape()[2]);
    let (lu, piv) = (lu.to_vec()?, pivots.to_vec()?);
    #[allow(clippy::cast_sign_loss)] // the pivots were checked to lie in 1..=n
    let piv: Vec<usize> = piv.iter().map(|&p| (p - 1) as usize).collect();
    x.with_host_slice_mut(|xs| {
        xs.par_chunks_mut(n * cols).enumerate().for_each(|(b, xm)| {
            let a = &lu[b * n * n..(b + 1) * n * n];
            let p = &piv[b * n..(b + 1) * n];
            for c in 0..cols {
                solve_column(a, p, xm, n, cols, c, adjoint);
            }
        });
    })?;
    Ok(())
}

fn solve_column<T: FactorFloat>(
    a: &[T],
    piv: &[usize],
    x: &mut [T],
    n: usize,
    cols: usize,
    c: usize,
    adjoint: bool,
) {
    let at = |i: usize| i * cols + c;
    if adjoint {
        for i in 0..n {
            let mut s = x[at(i)];
            for j in 0..i {
                s = s - a[j * n + i] * x[at(j)];
            }
            x[at(i)] = s / a[i * n + i];
        }
        for i in (0..n).rev() {
            let mut s = x[at(i)];
            for j in i + 1..n {
                s = s - a[j * n + i] * x[at(j)];
            }
            x[at(i)] = s;
        }
        for k in (0..n).rev() {
            x.swap(at(k), at(piv[k]));
        }
    } else {
        for (k, &p) in piv.iter().enumerate() {
            x.swap(at(k), at(p));
        }
        for i in 0..n {
            let mut s = x[at(i)];
            for j in 0..i {
                s = s - a[i * n + j] * x[at(j)];
            }
            x[at(i)] = s;
        }
        for i in (0..n).rev() {
            let mut s = x[at(i)];
            for j in i + 1..n {
                s = s - a[i * n + j] * x[at(j)];
            }
            x[at(i)] = s / a[i * n + i];
        }
    }
}

/// Jacobi's eigenvalue method on each symmetric matrix of `a` (contiguous,
/// `[batch, n, n]`, its lower triangle read, written in place): the
/// eigenvalues into `w` (`[batch, n]`, ascending), the eigenvectors into
/// `v` (`[batch, n, n]`), as `eigh_items`, step for step.
pub(crate) fn eigh<T: FactorFloat>(
    a: &mut TensorT<T>,
    v: &mut TensorT<T>,
    w: &mut TensorT<T>,
    tol: T,
    sweeps: u32,
) -> Result<()> {
    let n = a.shape()[1];
    a.with_host_slice_mut(|a| {
        v.with_host_slice_mut(|v| {
            w.with_host_slice_mut(|w| {
                a.par_chunks_mut(n * n)
                    .zip(v.par_chunks_mut(n * n))
                    .zip(w.par_chunks_mut(n))
                    .for_each(|((a, v), w)| jacobi(a, v, w, n, tol, sweeps));
            })
        })
    })???;
    Ok(())
}

/// The pair `i` of round `r` on `big` places, as the kernels' `pair`.
fn pair(r: usize, i: usize, big: usize) -> (usize, usize) {
    let h = big - 1;
    let (x, y) = if i == 0 {
        (h, r)
    } else {
        ((r + i) % h, (r + h - i) % h)
    };
    (x.min(y), x.max(y))
}

/// The kernels' `rotation`.
fn rotation<T: FactorFloat>(app: T, aqq: T, apq: T) -> (T, T) {
    if apq == T::ZERO {
        return (T::ONE, T::ZERO);
    }
    let th = (aqq - app) / (apq + apq);
    let at = th.abs();
    let half = T::ONE / (T::ONE + T::ONE);
    let mut t = if at > T::BIG_THETA {
        half / at
    } else {
        T::ONE / (at + (th * th + T::ONE).sqrt())
    };
    if th < T::ZERO {
        t = -t;
    }
    let c = T::ONE / (t * t + T::ONE).sqrt();
    (c, t * c)
}

#[allow(clippy::eq_op, clippy::float_cmp)] // NaN tests and exact zeros, as the kernels'
fn jacobi<T: FactorFloat>(a: &mut [T], v: &mut [T], w: &mut [T], n: usize, tol: T, sweeps: u32) {
    for i in 0..n {
        for j in 0..n {
            if j > i {
                a[i * n + j] = a[j * n + i];
            }
            v[i * n + j] = if i == j { T::ONE } else { T::ZERO };
        }
    }
    let big = n + n % 2;
    let half = big / 2;
    let mut rot = vec![(T::ONE, T::ZERO); half];
    for _ in 0..sweeps {
        let (mut off, mut diag) = (T::ZERO, T::ZERO);
        for i in 0..n {
            for j in 0..n {
                let e = a[i * n + j].abs();
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
            break;
        }
        for r in 0..big - 1 {
            for (i, cs) in rot.iter_mut().enumerate() {
                let (p, q) = pair(r, i, big);
                if q < n {
                    *cs = rotation(a[p * n + p], a[q * n + q], a[p * n + q]);
                }
            }
            for (i, &(c, s)) in rot.iter().enumerate() {
                let (p, q) = pair(r, i, big);
                if q < n {
                    for j in 0..n {
                        let (x, y) = (a[p * n + j], a[q * n + j]);
                        a[p * n + j] = c * x - s * y;
                        a[q * n + j] = s * x + c * y;
                    }
                }
            }
            for (i, &(c, s)) in rot.iter().enumerate() {
                let (p, q) = pair(r, i, big);
                if q < n {
                    for j in 0..n {
                        let (x, y) = (a[j * n + p], a[j * n + q]);
                        a[j * n + p] = c * x - s * y;
                        a[j * n + q] = s * x + c * y;
                        let (x2, y2) = (v[j * n + p], v[j * n + q]);
                        v[j * n + p] = c * x2 - s * y2;
                        v[j * n + q] = s * x2 + c * y2;
                    }
                    if s != T::ZERO {
                        a[p * n + q] = T::ZERO;
                        a[q * n + p] = T::ZERO;
                    }
                }
            }
        }
    }
    for i in 0..n {
        w[i] = a[i * n + i];
    }
    // ascending, NaN last
    selection_sort(
        w,
        |e, best| e == e && (best != best || e < best),
        |k, at| {
            for j in 0..n {
                v.swap(j * n + k, j * n + at);
            }
        },
    );
}

/// The kernels' selection sort of `vals`: for each place `k` in turn the
/// first of the rest that comes `before` all others (`before(e, best)`)
/// is swapped into it, `swap(k, at)` moving what goes with the values.
fn selection_sort<T: FactorFloat>(
    vals: &mut [T],
    before: impl Fn(T, T) -> bool,
    mut swap: impl FnMut(usize, usize),
) {
    for k in 0..vals.len() {
        let mut at = k;
        let mut best = vals[k];
        for (i, &e) in vals.iter().enumerate().skip(k + 1) {
            if before(e, best) {
                best = e;
                at = i;
            }
        }
        if at != k {
            vals[at] = vals[k];
            vals[k] = best;
            swap(k, at);
        }
    }
}

/// Hestenes' one-sided Jacobi method on each tall matrix of `x`
/// (contiguous, `[batch, m, n]`, `m >= n`, written in place: `U`), the
/// right singular vectors into `v` (`[batch, n, n]`) and the values into
/// `s` (`[batch, n]`), as `svd_items`, step for step.
pub(crate) fn svd<T: FactorFloat>(
    x: &mut TensorT<T>,
    v: &mut TensorT<T>,
    s: &mut TensorT<T>,
    tol: T,
    sweeps: u32,
) -> Result<()> {
    let (m, n) = (x.shape()[1], x.shape()[2]);
    x.with_host_slice_mut(|x| {
        v.with_host_slice_mut(|v| {
            s.with_host_slice_mut(|s| {
                x.par_chunks_mut(m * n)
                    .zip(v.par_chunks_mut(n * n))
                    .zip(s.par_chunks_mut(n))
                    .for_each(|((x, v), s)| hestenes(x, v, s, m, n, tol, sweeps));
            })
        })
    })???;
    Ok(())
}

#[allow(clippy::eq_op, clippy::float_cmp, clippy::too_many_lines)] // NaN tests and exact zeros, as the kernel's
fn hestenes<T: FactorFloat>(
    x: &mut [T],
    v: &mut [T],
    s: &mut [T],
    m: usize,
    n: usize,
    tol: T,
    sweeps: u32,
) {
    let big = n + n % 2;
    let half = big / 2;
    let mut scale = T::ZERO;
    for &e in x.iter() {
        let e = e.abs();
        if e > scale {
            scale = e;
        }
    }
    if scale == T::ZERO || scale - scale != T::ZERO {
        scale = T::ONE;
    }
    for e in x.iter_mut() {
        *e = *e / scale;
    }
    for i in 0..n {
        for j in 0..n {
            v[i * n + j] = if i == j { T::ONE } else { T::ZERO };
        }
    }
    for _ in 0..sweeps {
        let mut busy = false;
        for r in 0..big - 1 {
            for i in 0..half {
                let (p, q) = pair(r, i, big);
                if q >= n {
                    continue;
                }
                // blocks of `SUM_BLOCK` rows, as the kernels
                let (mut al, mut be, mut ga) = (T::ZERO, T::ZERO, T::ZERO);
                for k0 in (0..m).step_by(SUM_BLOCK) {
                    let (mut a1, mut b1, mut g1) = (T::ZERO, T::ZERO, T::ZERO);
                    for k in k0..m.min(k0 + SUM_BLOCK) {
                        let (xp, xq) = (x[k * n + p], x[k * n + q]);
                        a1 = a1 + xp * xp;
                        b1 = b1 + xq * xq;
                        g1 = g1 + xp * xq;
                    }
                    al = al + a1;
                    be = be + b1;
                    ga = ga + g1;
                }
                if ga.abs() > tol * (al * be).sqrt() {
                    busy = true;
                    let (c, sn) = rotation(al, be, ga);
                    for k in 0..m {
                        let (xp, xq) = (x[k * n + p], x[k * n + q]);
                        x[k * n + p] = c * xp - sn * xq;
                        x[k * n + q] = sn * xp + c * xq;
                    }
                    for k in 0..n {
                        let (vp, vq) = (v[k * n + p], v[k * n + q]);
                        v[k * n + p] = c * vp - sn * vq;
                        v[k * n + q] = sn * vp + c * vq;
                    }
                }
            }
        }
        if !busy {
            break;
        }
    }
    for (j, sj) in s.iter_mut().enumerate() {
        let mut sq = T::ZERO;
        for k0 in (0..m).step_by(SUM_BLOCK) {
            let mut q1 = T::ZERO;
            for k in k0..m.min(k0 + SUM_BLOCK) {
                q1 = q1 + x[k * n + j] * x[k * n + j];
            }
            sq = sq + q1;
        }
        *sj = sq.sqrt();
    }
    // descending, NaN first
    selection_sort(
        s,
        |e, best| best == best && (e != e || e > best),
        |j, at| {
            for k in 0..m {
                x.swap(k * n + j, k * n + at);
            }
            for k in 0..n {
                v.swap(k * n + j, k * n + at);
            }
        },
    );
    let top = s[0];
    for (j, &sj) in s.iter().enumerate() {
        let keep = sj > tol * top;
        for k in 0..m {
            x[k * n + j] = if keep { x[k * n + j] / sj } else { T::ZERO };
        }
    }
    let half_len = T::ONE / (T::ONE + T::ONE);
    for j in 0..n {
        if s[j] > tol * top {
            continue;
        }
        for e in 0..m {
            for k in 0..m {
                x[k * n + j] = if k == e { T::ONE } else { T::ZERO };
            }
            for _ in 0..2 {
                for c in (0..n).filter(|&c| c != j) {
                    let mut d = T::ZERO;
                    for k in 0..m {
                        d = d + x[k * n + c] * x[k * n + j];
                    }
                    for k in 0..m {
                        x[k * n + j] = x[k * n + j] - d * x[k * n + c];
                    }
                }
            }
            let mut sq = T::ZERO;
            for k in 0..m {
                sq = sq + x[k * n + j] * x[k * n + j];
            }
            let len = sq.sqrt();
            if len > half_len {
                for k in 0..m {
                    x[k * n + j] = x[k * n + j] / len;
                }
                break;
            }
        }
    }
    for sj in s.iter_mut() {
        *sj = *sj * scale;
    }
}

/// Householder QR of each matrix of `a` (contiguous, `[batch, m, n]`, in
/// place), `tau` (`[batch, k]`), as `geqrf_items`, step for step.
pub(crate) fn geqrf<T: FactorFloat>(a: &mut TensorT<T>, tau: &mut TensorT<T>) -> Result<()> {
    let (m, n, kn) = (a.shape()[1], a.shape()[2], tau.shape()[1]);
    a.with_host_slice_mut(|a| {
        tau.with_host_slice_mut(|tau| {
            a.par_chunks_mut(m * n)
                .zip(tau.par_chunks_mut(kn))
                .for_each(|(a, tau)| {
                    householder(a, tau, m, n);
                });
        })
    })??;
    Ok(())
}

#[allow(clippy::eq_op, clippy::float_cmp)] // NaN tests and exact zeros, as the kernel's
fn householder<T: FactorFloat>(a: &mut [T], tau: &mut [T], m: usize, n: usize) {
    for (k, tk) in tau.iter_mut().enumerate() {
        let alpha = a[k * n + k];
        let mut big = T::ZERO;
        for i in k + 1..m {
            let e = a[i * n + k].abs();
            if e > big || e != e {
                big = e;
            }
        }
        if big == T::ZERO {
            *tk = T::ZERO;
            continue;
        }
        let mut sq = T::ZERO;
        for i in k + 1..m {
            let e = a[i * n + k] / big;
            sq = sq + e * e;
        }
        let xn = sq.sqrt() * big;
        let s = if alpha.abs() > xn { alpha.abs() } else { xn };
        let (p, q) = (alpha / s, xn / s);
        let h = s * (p * p + q * q).sqrt();
        let beta = if alpha >= T::ZERO { -h } else { h };
        let t = (beta - alpha) / beta;
        let d = alpha - beta;
        for i in k + 1..m {
            a[i * n + k] = a[i * n + k] / d;
        }
        a[k * n + k] = beta;
        *tk = t;
        for j in k + 1..n {
            let mut w = a[k * n + j];
            for i in k + 1..m {
                w = w + a[i * n + k] * a[i * n + j];
            }
            a[k * n + j] = a[k * n + j] - t * w;
            for i in k + 1..m {
                a[i * n + j] = a[i * n + j] - t * a[i * n + k] * w;
            }
        }
    }
}

/// `Q`'s first columns into `q` (contiguous, `[batch, m, cols]`) from the
/// reflectors of `a` (contiguous, `[batch, m, na]`) and `tau` (`[batch,
/// k]`), as `householder_product_items`, step for step.
pub(crate) fn householder_product<T: FactorFloat>(
    a: &TensorT<T>,
    tau: &TensorT<T>,
    q: &mut TensorT<T>,
) -> Result<()> {
    let (m, cols, na, kn) = (q.shape()[1], q.shape()[2], a.shape()[2], tau.shape()[1]);
    let (a, tau) = (a.to_vec()?, tau.to_vec()?);
    q.with_host_slice_mut(|q| {
        q.par_chunks_mut(m * cols).enumerate().for_each(|(b, q)| {
            let (a, tau) = (&a[b * m * na..(b + 1) * m * na], &tau[b * kn..(b + 1) * kn]);
            for i in 0..m {
                for c in 0..cols {
                    q[i * cols + c] = if i == c { T::ONE } else { T::ZERO };
                }
            }
            for j in (0..kn).rev() {
                let t = tau[j];
                for c in j..cols {
                    let mut w = q[j * cols + c];
                    for i in j + 1..m {
                        w = w + a[i * na + j] * q[i * cols + c];
                    }
                    q[j * cols + c] = q[j * cols + c] - t * w;
                    for i in j + 1..m {
                        q[i * cols + c] = q[i * cols + c] - t * a[i * na + j] * w;
                    }
                }
            }
        });
    })?;
    Ok(())
}

/// The Cholesky factors of `a` (contiguous `[batch, n, n]`) into `l` and
/// `info`, as `cholesky_items`, step for step.
pub(crate) fn cholesky<T: FactorFloat>(
    a: &TensorT<T>,
    l: &mut TensorT<T>,
    info: &mut TensorT<i32>,
) -> Result<()> {
    let n = a.shape()[1];
    let a = a.to_vec()?;
    l.with_host_slice_mut(|l| {
        info.with_host_slice_mut(|info| {
            l.par_chunks_mut(n * n)
                .zip(info.par_iter_mut())
                .enumerate()
                .for_each(|(b, (l, info))| {
                    let a = &a[b * n * n..(b + 1) * n * n];
                    let mut bad = 0;
                    for j in 0..n {
                        let mut d = a[j * n + j];
                        for k in 0..j {
                            d = d - l[j * n + k] * l[j * n + k];
                        }
                        #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN is not positive
                        if bad == 0 && !(d > T::ZERO) {
                            bad = j + 1;
                        }
                        let ljj = d.sqrt();
                        l[j * n + j] = ljj;
                        for i in j + 1..n {
                            let mut e = a[i * n + j];
                            for k in 0..j {
                                e = e - l[i * n + k] * l[j * n + k];
                            }
                            l[i * n + j] = e / ljj;
                        }
                        for i in 0..j {
                            l[i * n + j] = T::ZERO;
                        }
                    }
                    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
                    // checked below 2^31
                    {
                        *info = bad as i32;
                    }
                });
        })
    })??;
    Ok(())
}

/// Solves in place in `x` (contiguous `[batch, n, cols]`) with the
/// triangular `a` (contiguous `[batch, n, n]`), as
/// `solve_triangular_items`, step for step.
pub(crate) fn solve_triangular<T: FactorFloat>(
    a: &TensorT<T>,
    x: &mut TensorT<T>,
    upper: bool,
    unit: bool,
) -> Result<()> {
    let (n, cols) = (x.shape()[1], x.shape()[2]);
    let a = a.to_vec()?;
    x.with_host_slice_mut(|xs| {
        xs.par_chunks_mut(n * cols).enumerate().for_each(|(b, x)| {
            let a = &a[b * n * n..(b + 1) * n * n];
            for c in 0..cols {
                let at = |i: usize| i * cols + c;
                let rows: Box<dyn Iterator<Item = usize>> = if upper {
                    Box::new((0..n).rev())
                } else {
                    Box::new(0..n)
                };
                for i in rows {
                    let mut s = x[at(i)];
                    let others = if upper { i + 1..n } else { 0..i };
                    for j in others {
                        s = s - a[i * n + j] * x[at(j)];
                    }
                    x[at(i)] = if unit { s } else { s / a[i * n + i] };
                }
            }
        });
    })?;
    Ok(())
}

/// The Bunch-Kaufman factorisation of each symmetric matrix of `a`
/// (contiguous, `[batch, n, n]`, in place), its pivots into `pivots`
/// (`[batch, n]`) and the first zero (or NaN) pivot's place into `info`
/// (`[batch]`), as `ldl_factor_items`.
pub(crate) fn ldl_factor<T: FactorFloat>(
    a: &mut TensorT<T>,
    pivots: &mut TensorT<i32>,
    info: &mut TensorT<i32>,
    alpha: T,
) -> Result<()> {
    let n = a.shape()[1];
    let mut piv = vec![0i32; pivots.len()];
    let mut bad = vec![0i32; info.len()];
    a.with_host_slice_mut(|a| {
        a.par_chunks_mut(n * n)
            .zip(piv.par_chunks_mut(n.max(1)))
            .zip(bad.par_iter_mut())
            .for_each(|((a, piv), bad)| *bad = bunch_kaufman(a, piv, n, alpha));
    })?;
    pivots.copy_from(&TensorT::from_slice(pivots.device(), &piv, pivots.shape())?)?;
    info.copy_from(&TensorT::from_slice(info.device(), &bad, info.shape())?)
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::many_single_char_names,
    clippy::neg_cmp_op_on_partial_ord
)]
fn bunch_kaufman<T: FactorFloat>(a: &mut [T], piv: &mut [i32], n: usize, alpha: T) -> i32 {
    let at = |i: usize, j: usize| i * n + j;
    let mut bad = 0;
    let mut k = 0;
    while k < n {
        let mut step = 1;
        let akk = a[at(k, k)].abs();
        let (mut imax, mut colmax) = (k, T::ZERO);
        for i in k + 1..n {
            let v = a[at(i, k)].abs();
            if i == k + 1 || v > colmax {
                colmax = v;
                imax = i;
            }
        }
        let mut kp = k;
        #[allow(clippy::eq_op)] // NaN
        let nan = akk != akk;
        if (akk == T::ZERO && colmax == T::ZERO) || nan {
            if bad == 0 {
                bad = k + 1;
            }
        } else {
            if !(akk >= alpha * colmax) {
                let mut rowmax = T::ZERO;
                for j in k..imax {
                    let v = a[at(imax, j)].abs();
                    if j == k || v > rowmax {
                        rowmax = v;
                    }
                }
                for i in imax + 1..n {
                    let v = a[at(i, imax)].abs();
                    if v > rowmax {
                        rowmax = v;
                    }
                }
                if akk >= alpha * colmax * (colmax / rowmax) {
                    kp = k;
                } else if a[at(imax, imax)].abs() >= alpha * rowmax {
                    kp = imax;
                } else {
                    kp = imax;
                    step = 2;
                }
            }
            let kk = k + step - 1;
            if kp != kk {
                for i in kp + 1..n {
                    a.swap(at(i, kk), at(i, kp));
                }
                for j in kk + 1..kp {
                    a.swap(at(j, kk), at(kp, j));
                }
                a.swap(at(kk, kk), at(kp, kp));
                if step == 2 {
                    a.swap(at(k + 1, k), at(kp, k));
                }
            }
            if step == 1 {
                let d11 = T::ONE / a[at(k, k)];
                for j in k + 1..n {
                    let xj = a[at(j, k)];
                    if xj != T::ZERO {
                        let t = -d11 * xj;
                        for i in j..n {
                            a[at(i, j)] = a[at(i, j)] + a[at(i, k)] * t;
                        }
                    }
                }
                for i in k + 1..n {
                    a[at(i, k)] = a[at(i, k)] * d11;
                }
            } else {
                let d21 = a[at(k + 1, k)];
                let d11 = a[at(k + 1, k + 1)] / d21;
                let d22 = a[at(k, k)] / d21;
                let t = T::ONE / (d11 * d22 - T::ONE);
                let e21 = t / d21;
                for j in k + 2..n {
                    let wk = e21 * (d11 * a[at(j, k)] - a[at(j, k + 1)]);
                    let wkp1 = e21 * (d22 * a[at(j, k + 1)] - a[at(j, k)]);
                    for i in j..n {
                        a[at(i, j)] = a[at(i, j)] - a[at(i, k)] * wk - a[at(i, k + 1)] * wkp1;
                    }
                    a[at(j, k)] = wk;
                    a[at(j, k + 1)] = wkp1;
                }
            }
        }
        if step == 1 {
            piv[k] = (kp + 1) as i32;
        } else {
            piv[k] = -((kp + 1) as i32);
            piv[k + 1] = -((kp + 1) as i32);
        }
        k += step;
    }
    for i in 0..n {
        for j in i + 1..n {
            a[at(i, j)] = T::ZERO;
        }
    }
    bad as i32
}

/// Solves in place in `x` (contiguous, `[batch, n, cols]`) from `ld`
/// (contiguous, `[batch, n, n]`) and `pivots` (`[batch, n]`), as
/// `ldl_solve_items`.
pub(crate) fn ldl_solve<T: FactorFloat>(
    ld: &TensorT<T>,
    pivots: &TensorT<i32>,
    x: &mut TensorT<T>,
) -> Result<()> {
    let (n, cols) = (x.shape()[1], x.shape()[2]);
    let (ld, piv) = (ld.to_vec()?, pivots.to_vec()?);
    x.with_host_slice_mut(|xs| {
        xs.par_chunks_mut(n * cols).enumerate().for_each(|(b, xm)| {
            let a = &ld[b * n * n..(b + 1) * n * n];
            let p = &piv[b * n..(b + 1) * n];
            for c in 0..cols {
                ldl_solve_column(a, p, xm, n, cols, c);
            }
        });
    })?;
    Ok(())
}

#[allow(clippy::cast_sign_loss)] // the pivots were checked to lie in 1..=n in size
fn ldl_solve_column<T: FactorFloat>(
    a: &[T],
    piv: &[i32],
    x: &mut [T],
    n: usize,
    cols: usize,
    c: usize,
) {
    let at = |i: usize| i * cols + c;
    let l = |i: usize, j: usize| a[i * n + j];
    let mut k = 0;
    while k < n {
        let p = piv[k];
        if p > 0 || k + 1 >= n {
            let kp = (p.unsigned_abs() - 1) as usize;
            x.swap(at(k), at(kp));
            let xk = x[at(k)];
            for i in k + 1..n {
                x[at(i)] = x[at(i)] - l(i, k) * xk;
            }
            x[at(k)] = xk / l(k, k);
            k += 1;
        } else {
            let kp = (p.unsigned_abs() - 1) as usize;
            x.swap(at(k + 1), at(kp));
            let (x0, x1) = (x[at(k)], x[at(k + 1)]);
            for i in k + 2..n {
                x[at(i)] = x[at(i)] - l(i, k) * x0 - l(i, k + 1) * x1;
            }
            let akm1k = l(k + 1, k);
            let akm1 = l(k, k) / akm1k;
            let ak = l(k + 1, k + 1) / akm1k;
            let denom = akm1 * ak - T::ONE;
            let (bkm1, bk) = (x0 / akm1k, x1 / akm1k);
            x[at(k)] = (ak * bkm1 - bk) / denom;
            x[at(k + 1)] = (akm1 * bk - bkm1) / denom;
            k += 2;
        }
    }
    let mut k = n;
    while k > 0 {
        let p = piv[k - 1];
        let r = k - 1;
        if p > 0 || k < 2 {
            let mut s = T::ZERO;
            for i in r + 1..n {
                s = s + l(i, r) * x[at(i)];
            }
            x[at(r)] = x[at(r)] - s;
            x.swap(at(r), at((p.unsigned_abs() - 1) as usize));
            k -= 1;
        } else {
            let (mut s, mut s1) = (T::ZERO, T::ZERO);
            for i in r + 1..n {
                s = s + l(i, r) * x[at(i)];
                s1 = s1 + l(i, r - 1) * x[at(i)];
            }
            x[at(r)] = x[at(r)] - s;
            x[at(r - 1)] = x[at(r - 1)] - s1;
            x.swap(at(r), at((p.unsigned_abs() - 1) as usize));
            k -= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pair;

    #[test]
    fn the_tournament_meets_every_pair_once_a_sweep() {
        for big in (2..=40).step_by(2) {
            let mut met = vec![0u32; big * big];
            for r in 0..big - 1 {
                let mut seen = vec![false; big];
                for i in 0..big / 2 {
                    let (p, q) = pair(r, i, big);
                    assert!(p < q && q < big, "{big}: round {r} pair {i} is ({p}, {q})");
                    assert!(!seen[p] && !seen[q], "{big}: a place twice in round {r}");
                    seen[p] = true;
                    seen[q] = true;
                    met[p * big + q] += 1;
                }
            }
            for p in 0..big {
                for q in p + 1..big {
                    assert_eq!(met[p * big + q], 1, "{big}: ({p}, {q})");
                }
            }
        }
    }
}

//! The LU factorisation and its solves on the host: the work-item kernels'
//! steps (`device.rs`) as plain Rust, matrices (and columns) in parallel,
//! the same operations in the same order, so the same bits.

use rayon::prelude::*;
use silt::{Element, Result, TensorT};

/// A float of the host's LU: the arithmetic the kernels use.
pub trait HostLu:
    Element
    + Send
    + Sync
    + PartialOrd
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    #[doc(hidden)]
    const ZERO: Self;
    #[doc(hidden)]
    const ONE: Self;
    #[doc(hidden)]
    fn abs(self) -> Self;
}

macro_rules! host_lu {
    ($($t:ty),*) => {$(
        impl HostLu for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
        }
    )*};
}
host_lu!(f32, f64);

/// Factors each `m` x `n` matrix of `lu` (contiguous, `[batch, m, n]`) in
/// place, its `k = min(m, n)` pivots (1-based) into `pivots` (`[batch,
/// k]`), as `lu_factor_items`.
pub(crate) fn lu_factor<T: HostLu>(lu: &mut TensorT<T>, pivots: &mut TensorT<i32>) -> Result<()> {
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
fn factor<T: HostLu>(a: &mut [T], piv: &mut [i32], m: usize, n: usize) {
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
pub(crate) fn lu_solve<T: HostLu>(
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

fn solve_column<T: HostLu>(
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

//! `lu_factor` and `lu_solve`: the factors rebuild the matrices, the
//! pivots are partial pivoting's, the solves solve, every form (a work-group
//! a matrix, a work-item a matrix, the host's plain Rust) gives the same
//! bits, and bad arguments are errors.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::prelude::*;
use silt::{DeviceKind, Error, Tensor};
use silt_kernels as k;

/// Random matrices `[batch, m, n]` (row-major) with entries in [-1, 1).
fn random(len: usize, seed: u64) -> Vec<f64> {
    let mut rng = common::Rng::seeded(seed);
    (0..len)
        .map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0)
        .collect()
}

/// `P L U` of one `m` x `n` factorisation (row-major `lu`, 1-based pivots).
fn rebuild(lu: &[f64], piv: &[i32], m: usize, n: usize) -> Vec<f64> {
    let kn = m.min(n);
    let mut a = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0;
            for t in 0..=i.min(j).min(kn - 1) {
                let l = if t == i { 1.0 } else { lu[i * n + t] };
                s += l * lu[t * n + j];
            }
            a[i * n + j] = s;
        }
    }
    // undo the swaps, the last first
    for t in (0..kn).rev() {
        let p = (piv[t] - 1) as usize;
        for j in 0..n {
            a.swap(t * n + j, p * n + j);
        }
    }
    a
}

fn bits(t: &Tensor) -> Vec<u64> {
    match t.dtype() {
        DType::F32 => t
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| u64::from(v.to_bits()))
            .collect(),
        DType::F64 => t
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect(),
        _ => t
            .to_vec::<i32>()
            .unwrap()
            .iter()
            .map(|&v| v as u64)
            .collect(),
    }
}

fn tensor(dev: &Device, xs: &[f64], dtype: DType, shape: &[usize]) -> Tensor {
    if dtype == DType::F32 {
        let v: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        TensorT::from_slice(dev, &v, shape).unwrap().into()
    } else {
        TensorT::from_slice(dev, xs, shape).unwrap().into()
    }
}

fn to_f64(t: &Tensor) -> Vec<f64> {
    match t.dtype() {
        DType::F32 => t
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|&v| f64::from(v))
            .collect(),
        _ => t.to_vec::<f64>().unwrap(),
    }
}

/// The forms to run on `dev` beside its own (the test hook's `None`): on the
/// host both forms of the grid kernels (a work-group a matrix, a work-item a
/// matrix, through its checked interpreter) besides its plain Rust; on an
/// OpenCL device the form it does not take itself (its own is one of the two,
/// which would run it twice: minutes on Oclgrind).
fn other_forms(dev: &Device) -> Vec<DeviceKind> {
    match dev.info().kind {
        DeviceKind::Host => vec![DeviceKind::Gpu, DeviceKind::Cpu],
        DeviceKind::Cpu => vec![DeviceKind::Gpu],
        _ => vec![DeviceKind::Cpu],
    }
}

/// The results of `f` in the device's own form, which the other forms'
/// (`other_forms`) must equal bit for bit.
fn every_form(what: &str, f: impl Fn() -> Vec<Tensor>) -> Vec<Tensor> {
    let own = f();
    let dev = own[0].device().clone();
    for kind in other_forms(&dev) {
        silt::__testing::reduce_as(Some(kind));
        let other = f();
        silt::__testing::reduce_as(None);
        for (r, (a, b)) in own.iter().zip(&other).enumerate() {
            assert_eq!(bits(a), bits(b), "{what}: result {r}, form {kind:?}");
        }
    }
    own
}

#[test]
fn factors_rebuild_the_matrices_with_partial_pivoting() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let tol = if dtype == DType::F64 { 1e-13 } else { 1e-5 };
            // square, tall, wide, batches, and a matrix longer than a work-group's 64 rows
            for (s, shape) in [
                [1, 1, 1],
                [1, 5, 5],
                [3, 7, 4],
                [2, 4, 9],
                [4, 6, 6],
                [1, 70, 70],
            ]
            .iter()
            .enumerate()
            {
                let [b, m, n] = *shape;
                let xs = random(b * m * n, 7 + s as u64);
                let a = tensor(&dev, &xs, dtype, shape);
                let got = every_form(&format!("{dev} {dtype} {shape:?}"), || {
                    let (lu, piv) = k::lu_factor::dispatch(&a).unwrap();
                    vec![lu, piv]
                });
                let (lu, piv) = (to_f64(&got[0]), got[1].to_vec::<i32>().unwrap());
                let kn = m.min(n);
                assert_eq!(got[0].shape(), shape);
                assert_eq!(got[1].shape(), &[b, kn]);
                let x32: Vec<f64> = to_f64(&a);
                for e in 0..b {
                    let (l, p) = (&lu[e * m * n..(e + 1) * m * n], &piv[e * kn..(e + 1) * kn]);
                    for (t, &pt) in p.iter().enumerate() {
                        assert!(pt as usize > t && pt as usize <= m, "pivot {pt} at {t}");
                    }
                    // partial pivoting: every multiplier is at most 1 in size
                    for i in 0..m {
                        for j in 0..i.min(n) {
                            assert!(
                                l[i * n + j].abs() <= 1.0,
                                "{dev} {dtype} L[{i},{j}] = {}",
                                l[i * n + j]
                            );
                        }
                    }
                    let r = rebuild(l, p, m, n);
                    for (g, w) in r.iter().zip(&x32[e * m * n..]) {
                        assert!(
                            (g - w).abs() <= tol * (m as f64),
                            "{dev} {dtype} {shape:?}: {g} vs {w}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn pivots_are_the_first_largest_and_singular_matrices_factor() {
    for dev in common::devices() {
        // ties: the first of equal |values|; a zero column: its pivot is its
        // own row and the column is left as it is; a NaN is the largest
        let a = TensorT::from_slice(
            &dev,
            &[
                2.0f64, 1.0, 0.0, //
                -2.0, 3.0, 0.0, //
                1.0, 5.0, 0.0, //
            ],
            [3, 3],
        )
        .unwrap();
        let got = every_form("ties", || {
            let (lu, piv) = k::lu_factor::dispatch(a.as_tensor()).unwrap();
            vec![lu, piv]
        });
        assert_eq!(got[1].to_vec::<i32>().unwrap(), [1, 3, 3]);
        let lu = got[0].to_vec::<f64>().unwrap();
        assert_eq!(lu[8], 0.0);
        assert!(lu.iter().all(|v| v.is_finite()), "{lu:?}");
        // the first of two NaNs, past a larger number
        let nan = TensorT::from_slice(
            &dev,
            &[1.0f32, 2.0, 0.0, f32::NAN, 5.0, 0.0, f32::NAN, 0.0, 1.0],
            [3, 3],
        )
        .unwrap();
        let got = every_form("NaN", || {
            vec![k::lu_factor::dispatch(nan.as_tensor()).unwrap().1]
        });
        assert_eq!(got[0].to_vec::<i32>().unwrap()[0], 2);
        // the zero matrix and empty shapes
        let z = TensorT::<f32>::zeros(&dev, [2, 3, 3]).unwrap();
        let (lu, piv) = k::lu_factor::launch(&z).unwrap();
        assert!(lu.to_vec().unwrap().iter().all(|&v| v == 0.0));
        assert_eq!(piv.to_vec().unwrap(), [1, 2, 3, 1, 2, 3]);
        for shape in [[0usize, 3, 3], [2, 0, 3], [2, 3, 0], [1, 0, 0]] {
            let e = TensorT::<f64>::zeros(&dev, shape).unwrap();
            let (lu, piv) = k::lu_factor::launch(&e).unwrap();
            assert_eq!(lu.shape(), shape);
            assert_eq!(piv.shape(), &[shape[0], shape[1].min(shape[2])]);
        }
        // the input is not written
        let before = a.to_vec().unwrap();
        k::lu_factor::launch(&a).unwrap();
        assert_eq!(a.to_vec().unwrap(), before);
    }
}

#[test]
fn solves_solve_with_broadcast_batches_and_the_transpose() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let tol = if dtype == DType::F64 { 1e-11 } else { 2e-3 };
            let n = 6;
            // diagonally heavy matrices: well conditioned
            let mut xs = random(2 * n * n, 3);
            for e in 0..2 {
                for i in 0..n {
                    xs[e * n * n + i * n + i] += 3.0 * if i % 2 == 0 { 1.0 } else { -1.0 };
                }
            }
            let a = tensor(&dev, &xs, dtype, &[2, 1, n, n]);
            let bs = random(3 * n * 2, 4);
            let b = tensor(&dev, &bs, dtype, &[3, n, 2]);
            let (lu, piv) = k::lu_factor::dispatch(&a).unwrap();
            for adjoint in [false, true] {
                let x = every_form(&format!("{dev} {dtype} solve {adjoint}"), || {
                    vec![k::lu_solve::dispatch(&lu, &piv, &b, adjoint).unwrap()]
                })
                .pop()
                .unwrap();
                assert_eq!(x.shape(), &[2, 3, n, 2]);
                let (av, bv, xv) = (to_f64(&a), to_f64(&b), to_f64(&x));
                for e in 0..2 {
                    for r in 0..3 {
                        for c in 0..2 {
                            for i in 0..n {
                                let mut s = 0.0;
                                for j in 0..n {
                                    let aij = if adjoint {
                                        av[e * n * n + j * n + i]
                                    } else {
                                        av[e * n * n + i * n + j]
                                    };
                                    s += aij * xv[((e * 3 + r) * n + j) * 2 + c];
                                }
                                let want = bv[(r * n + i) * 2 + c];
                                assert!(
                                    (s - want).abs() <= tol,
                                    "{dev} {dtype} {adjoint}: {s} vs {want}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn bad_arguments_are_errors() {
    for dev in common::devices() {
        let a = TensorT::from_slice(&dev, &[4.0f64, 1.0, 2.0, 3.0], [2, 2]).unwrap();
        let (lu, piv) = k::lu_factor::launch(&a).unwrap();
        let b = TensorT::from_slice(&dev, &[1.0f64, 2.0], [2, 1]).unwrap();
        let i = TensorT::from_slice(&dev, &[1i32, 2, 3, 4], [2, 2]).unwrap();
        assert!(matches!(
            k::lu_factor::dispatch(i.as_tensor()),
            Err(Error::UnsupportedDType { .. })
        ));
        let v = TensorT::from_slice(&dev, &[1.0f64, 2.0], [2]).unwrap();
        assert!(matches!(
            k::lu_factor::launch(&v),
            Err(Error::InvalidArgument { .. })
        ));
        // pivots out of 1..=n, of another dtype or shape; B of other rows or dtype; a non-square LU
        for bad in [[0i32, 2], [1, 3], [-1, 1]] {
            let p = TensorT::from_slice(&dev, &bad, [2]).unwrap();
            let e = k::lu_solve::launch(&lu, &p, &b, false).unwrap_err();
            assert!(matches!(e, Error::InvalidArgument { .. }), "{e}");
        }
        let p64 = TensorT::from_slice(&dev, &[1i64, 2], [2]).unwrap();
        assert!(matches!(
            k::lu_solve::dispatch(lu.as_tensor(), p64.as_tensor(), b.as_tensor(), false),
            Err(Error::DTypeMismatch { .. })
        ));
        let p3 = TensorT::from_slice(&dev, &[1i32, 2, 2], [3]).unwrap();
        assert!(k::lu_solve::launch(&lu, &p3, &b, false).is_err());
        let b3 = TensorT::from_slice(&dev, &[1.0f64, 2.0, 3.0], [3, 1]).unwrap();
        assert!(matches!(
            k::lu_solve::launch(&lu, &piv, &b3, false),
            Err(Error::InvalidArgument { .. })
        ));
        let b32 = TensorT::from_slice(&dev, &[1.0f32, 2.0], [2, 1]).unwrap();
        assert!(matches!(
            k::lu_solve::dispatch(lu.as_tensor(), piv.as_tensor(), b32.as_tensor(), false),
            Err(Error::DTypeMismatch { .. })
        ));
        let wide = TensorT::from_slice(&dev, &[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]).unwrap();
        let (wl, wp) = k::lu_factor::launch(&wide).unwrap();
        assert!(matches!(
            k::lu_solve::launch(&wl, &wp, &b, false),
            Err(Error::InvalidArgument { .. })
        ));
        let bb = TensorT::from_slice(&dev, &[1.0f64; 6], [3, 2, 1]).unwrap();
        let lu2 = TensorT::from_slice(&dev, &[1.0f64; 8], [2, 2, 2]).unwrap();
        let piv2 = TensorT::from_slice(&dev, &[1i32; 4], [2, 2]).unwrap();
        assert!(matches!(
            k::lu_solve::launch(&lu2, &piv2, &bb, false),
            Err(Error::Broadcast { .. })
        ));
        // a singular matrix solves to infinities or NaN, without error
        let s = TensorT::from_slice(&dev, &[1.0f64, 2.0, 2.0, 4.0], [2, 2]).unwrap();
        let (sl, sp) = k::lu_factor::launch(&s).unwrap();
        let x = k::lu_solve::launch(&sl, &sp, &b, false)
            .unwrap()
            .to_vec()
            .unwrap();
        assert!(x.iter().any(|v| !v.is_finite()), "{x:?}");
    }
}

/// The symmetric matrices of `a`'s lower triangles.
fn symmetric(a: &[f64], n: usize) -> Vec<f64> {
    let mut s = a.to_vec();
    for m in s.chunks_mut(n * n) {
        for i in 0..n {
            for j in i + 1..n {
                m[i * n + j] = m[j * n + i];
            }
        }
    }
    s
}

#[test]
fn eigh_diagonalises_symmetric_matrices() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let eps = if dtype == DType::F64 {
                f64::EPSILON
            } else {
                f64::from(f32::EPSILON)
            };
            for (s, &(b, n)) in [(1, 1), (3, 2), (2, 5), (2, 8), (1, 17)].iter().enumerate() {
                let mut xs = random(b * n * n, 20 + s as u64);
                // the upper triangle is not read: noise there
                for m in xs.chunks_mut(n * n) {
                    for i in 0..n {
                        for j in i + 1..n {
                            m[i * n + j] = 1e3;
                        }
                    }
                }
                let a = tensor(&dev, &xs, dtype, &[b, n, n]);
                let got = every_form(&format!("{dev} {dtype} eigh {b}x{n}"), || {
                    let (w, v) = k::eigh::dispatch(&a).unwrap();
                    vec![w, v]
                });
                assert_eq!(got[0].shape(), &[b, n]);
                assert_eq!(got[1].shape(), &[b, n, n]);
                let (w, v) = (to_f64(&got[0]), to_f64(&got[1]));
                let sym = symmetric(&to_f64(&a), n);
                let tol = 64.0 * n as f64 * eps;
                for e in 0..b {
                    let (we, ve, ae) = (
                        &w[e * n..(e + 1) * n],
                        &v[e * n * n..(e + 1) * n * n],
                        &sym[e * n * n..],
                    );
                    assert!(
                        we.windows(2).all(|p| p[0] <= p[1]),
                        "{dev} {dtype} ascending: {we:?}"
                    );
                    for i in 0..n {
                        for j in 0..n {
                            // V^T V = I and A V = V diag(w)
                            let dot: f64 = (0..n).map(|r| ve[r * n + i] * ve[r * n + j]).sum();
                            let want = if i == j { 1.0 } else { 0.0 };
                            assert!(
                                (dot - want).abs() <= tol,
                                "{dev} {dtype} orthonormal {i} {j}: {dot}"
                            );
                            let av: f64 = (0..n).map(|r| ae[i * n + r] * ve[r * n + j]).sum();
                            assert!(
                                (av - ve[i * n + j] * we[j]).abs() <= tol * 4.0,
                                "{dev} {dtype} A v = w v: {av}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn eigh_of_special_matrices() {
    for dev in common::devices() {
        // diagonal (no rotation; sorted), the identity (a repeated value), zeros, a NaN, empty
        let d = TensorT::from_slice(
            &dev,
            &[3.0f64, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 2.0],
            [3, 3],
        )
        .unwrap();
        let (w, v) = k::eigh::launch(&d).unwrap();
        assert_eq!(w.to_vec().unwrap(), [-1.0, 2.0, 3.0]);
        assert_eq!(
            v.to_vec().unwrap(),
            [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        );
        let i = TensorT::from_slice(&dev, &[1.0f32, 0.0, 0.0, 1.0], [2, 2]).unwrap();
        assert_eq!(k::eigh::launch(&i).unwrap().0.to_vec().unwrap(), [1.0, 1.0]);
        let z = TensorT::<f64>::zeros(&dev, [2, 4, 4]).unwrap();
        let (w, v) = k::eigh::launch(&z).unwrap();
        assert!(w.to_vec().unwrap().iter().all(|&x| x == 0.0));
        assert_eq!(v.to_vec().unwrap()[..4], [1.0, 0.0, 0.0, 0.0]);
        let nan = TensorT::from_slice(&dev, &[1.0f64, f64::NAN, f64::NAN, 1.0], [2, 2]).unwrap();
        let (w, _) = k::eigh::launch(&nan).unwrap(); // ends (no endless sweeps)
        assert_eq!(w.shape(), &[2]);
        for shape in [[0usize, 3, 3], [2, 0, 0]] {
            let e = TensorT::<f32>::zeros(&dev, shape).unwrap();
            let (w, v) = k::eigh::launch(&e).unwrap();
            assert_eq!(
                (w.shape(), v.shape()),
                (&[shape[0], shape[1]][..], &shape[..])
            );
        }
        // the input is not written; bad shapes and dtypes are errors
        let before = d.to_vec().unwrap();
        k::eigh::launch(&d).unwrap();
        assert_eq!(d.to_vec().unwrap(), before);
        let wide = TensorT::<f64>::zeros(&dev, [2, 3]).unwrap();
        assert!(matches!(
            k::eigh::launch(&wide),
            Err(Error::InvalidArgument { .. })
        ));
        let ints = TensorT::<i32>::zeros(&dev, [2, 2]).unwrap();
        assert!(matches!(
            k::eigh::dispatch(ints.as_tensor()),
            Err(Error::UnsupportedDType { .. })
        ));
    }
}

#[test]
fn the_host_and_the_device_give_the_same_bits() {
    let devs = common::devices();
    for dtype in [DType::F64, DType::F32] {
        let (b, n) = (3, 9);
        let xs = random(b * n * n, 99);
        let results: Vec<Vec<Vec<u64>>> = devs
            .iter()
            .map(|dev| {
                let a = tensor(dev, &xs, dtype, &[b, n, n]);
                let rhs = tensor(dev, &xs[..n * 2], dtype, &[n, 2]);
                let (lu, piv) = k::lu_factor::dispatch(&a).unwrap();
                let x = k::lu_solve::dispatch(&lu, &piv, &rhs, false).unwrap();
                let xt = k::lu_solve::dispatch(&lu, &piv, &rhs, true).unwrap();
                let (w, v) = k::eigh::dispatch(&a).unwrap();
                let wide = tensor(dev, &xs[..4 * 7], dtype, &[4, 7]);
                let (u, s, vh) = k::svd::dispatch(&a).unwrap();
                let (u2, s2, vh2) = k::svd::dispatch(&wide).unwrap();
                let (r, tau) = k::geqrf::dispatch(&wide.transpose(0, 1).unwrap()).unwrap();
                let q = k::householder_product::dispatch(&r, &tau).unwrap();
                let (l, info) = k::cholesky_ex::dispatch(&a).unwrap();
                let st = k::solve_triangular::dispatch(&a, &rhs, true, false).unwrap();
                [
                    lu, piv, x, xt, w, v, u, s, vh, u2, s2, vh2, r, tau, q, l, info, st,
                ]
                .iter()
                .map(bits)
                .collect()
            })
            .collect();
        for (d, other) in results.iter().enumerate().skip(1) {
            for (r, (h, o)) in results[0].iter().zip(other).enumerate() {
                assert_eq!(
                    h, o,
                    "{dtype}: result {r} on {} differs from the host's",
                    devs[d]
                );
            }
        }
    }
}

/// Checks `a = U diag(S) Vh`, `U^T U = I`, `Vh Vh^T = I` and `S` descending
/// for one `m` x `n` matrix (row-major), within `tol` of the largest value.
#[allow(clippy::too_many_arguments)]
fn check_svd(
    what: &str,
    a: &[f64],
    u: &[f64],
    s: &[f64],
    vh: &[f64],
    m: usize,
    n: usize,
    tol: f64,
) {
    let k = m.min(n);
    assert!(
        s.windows(2).all(|p| p[0] >= p[1]),
        "{what}: descending {s:?}"
    );
    let top = s[0].max(1.0);
    for i in 0..m {
        for j in 0..n {
            let r: f64 = (0..k).map(|t| u[i * k + t] * s[t] * vh[t * n + j]).sum();
            assert!(
                (r - a[i * n + j]).abs() <= tol * top,
                "{what}: rebuilt [{i},{j}] {r} vs {}",
                a[i * n + j]
            );
        }
    }
    for p in 0..k {
        for q in 0..k {
            let want = if p == q { 1.0 } else { 0.0 };
            let uu: f64 = (0..m).map(|i| u[i * k + p] * u[i * k + q]).sum();
            let vv: f64 = (0..n).map(|j| vh[p * n + j] * vh[q * n + j]).sum();
            assert!((uu - want).abs() <= tol, "{what}: U^T U [{p},{q}] = {uu}");
            assert!((vv - want).abs() <= tol, "{what}: Vh Vh^T [{p},{q}] = {vv}");
        }
    }
}

#[test]
fn svd_decomposes_tall_wide_and_rank_deficient_matrices() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let eps = if dtype == DType::F64 {
                f64::EPSILON
            } else {
                f64::from(f32::EPSILON)
            };
            for (s, &(b, m, n, rank)) in [
                (1, 1, 1, 1),
                (2, 5, 3, 3),
                (2, 3, 5, 3),
                (1, 6, 6, 2),
                (2, 7, 4, 1),
                (1, 9, 9, 9),
            ]
            .iter()
            .enumerate()
            {
                // rank `rank`: a product of [m, rank] and [rank, n]
                let (l, r) = (
                    random(b * m * rank, 30 + s as u64),
                    random(b * rank * n, 40 + s as u64),
                );
                let mut xs = vec![0.0; b * m * n];
                for e in 0..b {
                    for i in 0..m {
                        for j in 0..n {
                            xs[e * m * n + i * n + j] = (0..rank)
                                .map(|t| {
                                    l[e * m * rank + i * rank + t] * r[e * rank * n + t * n + j]
                                })
                                .sum();
                        }
                    }
                }
                let a = tensor(&dev, &xs, dtype, &[b, m, n]);
                let got = every_form(&format!("{dev} {dtype} svd {m}x{n}"), || {
                    let (u, s, vh) = k::svd::dispatch(&a).unwrap();
                    vec![u, s, vh]
                });
                let kk = m.min(n);
                assert_eq!(got[0].shape(), &[b, m, kk]);
                assert_eq!(got[1].shape(), &[b, kk]);
                assert_eq!(got[2].shape(), &[b, kk, n]);
                let (u, sv, vh, av) = (
                    to_f64(&got[0]),
                    to_f64(&got[1]),
                    to_f64(&got[2]),
                    to_f64(&a),
                );
                for e in 0..b {
                    check_svd(
                        &format!("{dev} {dtype} {m}x{n} rank {rank}"),
                        &av[e * m * n..(e + 1) * m * n],
                        &u[e * m * kk..(e + 1) * m * kk],
                        &sv[e * kk..(e + 1) * kk],
                        &vh[e * kk * n..(e + 1) * kk * n],
                        m,
                        n,
                        64.0 * m.max(n) as f64 * eps,
                    );
                    // the values past the rank are (nearly) 0
                    for &z in &sv[e * kk + rank..(e + 1) * kk] {
                        assert!(
                            z <= 64.0 * m.max(n) as f64 * eps * sv[e * kk],
                            "{dev} {dtype}: {z}"
                        );
                    }
                }
            }
        }
    }
}

/// Whether the OpenCL device is Oclgrind (the simulator: big matrices
/// take minutes there).
fn on_oclgrind() -> bool {
    common::opencl().is_some_and(|d| d.info().platform_name == "Oclgrind")
}

#[test]
fn eigh_and_svd_of_more_pairs_than_a_work_group_has_items() {
    // 130 columns: 65 pairs a round, more than the 64 work-items of the
    // GPU form, whose loops over pairs then wrap
    if on_oclgrind() {
        return;
    }
    let n = 130;
    // near the identity, so that few sweeps end them (the test stays quick)
    let near = |len: usize, seed: u64, cols: usize| -> Vec<f64> {
        let mut xs: Vec<f64> = random(len, seed).iter().map(|v| 1e-3 * v).collect();
        for i in 0..cols {
            xs[i * cols + i] += 1.0 + i as f64 / cols as f64;
        }
        xs
    };
    // OpenCL devices only: the host runs the grid kernels of the GPU and
    // CPU forms through its checked interpreter (seconds for these; the
    // small matrices of the other tests cover it)
    for dev in common::devices().into_iter().filter(|d| !d.is_host()) {
        let xs = near(n * n, 77, n);
        let a = tensor(&dev, &xs, DType::F64, &[1, n, n]);
        let got = every_form(&format!("{dev} eigh {n}"), || {
            let (w, v) = k::eigh::dispatch(&a).unwrap();
            vec![w, v]
        });
        let (w, v, sym) = (to_f64(&got[0]), to_f64(&got[1]), symmetric(&xs, n));
        for i in 0..n {
            for j in 0..n {
                // A v_j = w_j v_j
                let av: f64 = (0..n).map(|t| sym[i * n + t] * v[t * n + j]).sum();
                assert!(
                    (av - w[j] * v[i * n + j]).abs() < 1e-10,
                    "{dev} eigh [{i},{j}]"
                );
            }
        }
        let m = n + 1;
        let ys = near(m * n, 78, n);
        let a = tensor(&dev, &ys, DType::F64, &[1, m, n]);
        let got = every_form(&format!("{dev} svd {m}x{n}"), || {
            let (u, s, vh) = k::svd::dispatch(&a).unwrap();
            vec![u, s, vh]
        });
        let (u, sv, vh) = (to_f64(&got[0]), to_f64(&got[1]), to_f64(&got[2]));
        check_svd(&format!("{dev} svd"), &ys, &u, &sv, &vh, m, n, 1e-10);
    }
}

#[test]
fn svd_of_special_matrices() {
    for dev in common::devices() {
        // zeros: S = 0 and U, Vh still orthonormal (U the identity's columns)
        let z = TensorT::<f64>::zeros(&dev, [4, 3]).unwrap();
        let (u, s, vh) = k::svd::launch(&z).unwrap();
        assert_eq!(s.to_vec().unwrap(), [0.0; 3]);
        check_svd(
            "zeros",
            &[0.0; 12],
            &u.to_vec().unwrap(),
            &s.to_vec().unwrap(),
            &vh.to_vec().unwrap(),
            4,
            3,
            1e-15,
        );
        // huge and tiny values: scaled, no overflow
        for scale in [1e300f64, 1e-300] {
            let a =
                TensorT::from_slice(&dev, &[3.0 * scale, 4.0 * scale, 0.0, 0.0], [2, 2]).unwrap();
            let s = k::svd::launch(&a).unwrap().1.to_vec().unwrap();
            assert!(
                (s[0] / (5.0 * scale) - 1.0).abs() < 1e-15 && s[1] == 0.0,
                "{scale}: {s:?}"
            );
        }
        // a NaN: ends, NaN values
        let nan = TensorT::from_slice(&dev, &[1.0f32, f32::NAN, 0.0, 1.0], [2, 2]).unwrap();
        let s = k::svd::launch(&nan).unwrap().1.to_vec().unwrap();
        assert!(s[0].is_nan(), "{s:?}");
        // empty shapes
        for (shape, k_) in [([0usize, 3, 2], 2usize), ([2, 0, 3], 0), ([2, 3, 0], 0)] {
            let e = TensorT::<f32>::zeros(&dev, shape).unwrap();
            let (u, s, vh) = k::svd::launch(&e).unwrap();
            assert_eq!(u.shape(), &[shape[0], shape[1], k_]);
            assert_eq!(s.shape(), &[shape[0], k_]);
            assert_eq!(vh.shape(), &[shape[0], k_, shape[2]]);
        }
        let ints = TensorT::<i32>::zeros(&dev, [2, 2]).unwrap();
        assert!(matches!(
            k::svd::dispatch(ints.as_tensor()),
            Err(Error::UnsupportedDType { .. })
        ));
        let v = TensorT::<f64>::zeros(&dev, [2]).unwrap();
        assert!(matches!(
            k::svd::launch(&v),
            Err(Error::InvalidArgument { .. })
        ));
    }
}

#[test]
fn geqrf_and_householder_product_give_q_and_r() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let eps = if dtype == DType::F64 {
                f64::EPSILON
            } else {
                f64::from(f32::EPSILON)
            };
            for (s, &(b, m, n)) in [(1, 1, 1), (2, 5, 3), (2, 3, 5), (1, 6, 6), (3, 9, 4)]
                .iter()
                .enumerate()
            {
                let mut xs = random(b * m * n, 60 + s as u64);
                if m > 2 && n > 1 {
                    for i in 1..m {
                        xs[i * n] = 0.0; // the first matrix's column 0 is 0 below the diagonal: tau 0
                    }
                }
                let a = tensor(&dev, &xs, dtype, &[b, m, n]);
                let k = m.min(n);
                let (r, tau) = k::geqrf::dispatch(&a).unwrap();
                assert_eq!((r.shape(), tau.shape()), (&[b, m, n][..], &[b, k][..]));
                // Q of every reflector: the tall part's columns, or the square m x m
                let qa = r.narrow(2, 0, k).unwrap();
                let q = k::householder_product::dispatch(&qa, &tau).unwrap();
                assert_eq!(q.shape(), &[b, m, k]);
                let (rv, tv, qv, av) = (to_f64(&r), to_f64(&tau), to_f64(&q), to_f64(&a));
                let tol = 32.0 * m.max(n) as f64 * eps;
                for e in 0..b {
                    let (re, qe, ae) = (&rv[e * m * n..], &qv[e * m * k..], &av[e * m * n..]);
                    // A = Q R (R on and above the diagonal), Q^T Q = I
                    for i in 0..m {
                        for j in 0..n {
                            let got: f64 = (0..=j.min(k - 1))
                                .map(|t| qe[i * k + t] * re[t * n + j])
                                .sum();
                            assert!(
                                (got - ae[i * n + j]).abs() <= tol,
                                "{dev} {dtype} {m}x{n}: QR [{i},{j}]"
                            );
                        }
                    }
                    for p in 0..k {
                        for c in 0..k {
                            let dot: f64 = (0..m).map(|i| qe[i * k + p] * qe[i * k + c]).sum();
                            let want = if p == c { 1.0 } else { 0.0 };
                            assert!(
                                (dot - want).abs() <= tol,
                                "{dev} {dtype}: Q^T Q [{p},{c}] = {dot}"
                            );
                        }
                    }
                }
                if m > 2 && n > 1 {
                    assert_eq!(
                        tv[0], 0.0,
                        "{dev} {dtype}: a column 0 below the diagonal has tau 0"
                    );
                }
            }
        }
        // LAPACK's signs: R's diagonal -sign(alpha) |column|
        let a = TensorT::from_slice(&dev, &[3.0f64, 1.0, 4.0, 1.0], [2, 2]).unwrap();
        let (r, tau) = k::geqrf::launch(&a).unwrap();
        let r = r.to_vec().unwrap();
        assert_eq!(r[0], -5.0);
        assert!((tau.to_vec().unwrap()[0] - 1.6).abs() < 1e-15);
        // errors: shapes and dtypes
        let t2 = TensorT::from_slice(&dev, &[0.5f64, 0.5, 0.5], [3]).unwrap();
        let wide = TensorT::<f64>::zeros(&dev, [2, 3]).unwrap();
        assert!(matches!(
            k::householder_product::launch(&wide, &t2),
            Err(Error::InvalidArgument { .. })
        ));
        let t32 = TensorT::from_slice(&dev, &[0.5f32], [1]).unwrap();
        assert!(matches!(
            k::householder_product::dispatch(a.as_tensor(), t32.as_tensor()),
            Err(Error::DTypeMismatch { .. })
        ));
        assert!(matches!(
            k::householder_product::launch(&a, &t2),
            Err(Error::InvalidArgument { .. })
        ));
        let ints = TensorT::<i32>::zeros(&dev, [2, 2]).unwrap();
        assert!(matches!(
            k::geqrf::dispatch(ints.as_tensor()),
            Err(Error::UnsupportedDType { .. })
        ));
        for shape in [[0usize, 3, 2], [2, 0, 3], [2, 3, 0]] {
            let e = TensorT::<f32>::zeros(&dev, shape).unwrap();
            let (r, tau) = k::geqrf::launch(&e).unwrap();
            assert_eq!(
                (r.shape(), tau.shape()),
                (&shape[..], &[shape[0], shape[1].min(shape[2])][..])
            );
        }
    }
}

#[test]
fn cholesky_factors_and_triangular_solves() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let eps = if dtype == DType::F64 {
                f64::EPSILON
            } else {
                f64::from(f32::EPSILON)
            };
            let (b, n) = (3, 6);
            // A = M M^T + n I: positive-definite; the third made indefinite at order 4
            let ms = random(b * n * n, 77);
            let mut xs = vec![0.0; b * n * n];
            for e in 0..b {
                for i in 0..n {
                    for j in 0..n {
                        let mut s: f64 = (0..n)
                            .map(|t| ms[e * n * n + i * n + t] * ms[e * n * n + j * n + t])
                            .sum();
                        if i == j {
                            s += n as f64;
                        }
                        // the upper triangle is not read
                        xs[e * n * n + i * n + j] = if j > i { 1e3 } else { s };
                    }
                }
            }
            xs[2 * n * n + 3 * n + 3] = -50.0;
            let a = tensor(&dev, &xs, dtype, &[b, n, n]);
            let got = every_form(&format!("{dev} {dtype} cholesky"), || {
                let (l, info) = k::cholesky_ex::dispatch(&a).unwrap();
                vec![l, info]
            });
            assert_eq!(got[1].to_vec::<i32>().unwrap(), [0, 0, 4]);
            let (l, av) = (to_f64(&got[0]), to_f64(&a));
            let tol = 64.0 * n as f64 * eps * 10.0;
            for e in 0..2 {
                for i in 0..n {
                    for j in 0..n {
                        let got: f64 = (0..n)
                            .map(|t| l[e * n * n + i * n + t] * l[e * n * n + j * n + t])
                            .sum();
                        let want = av[e * n * n + i.max(j) * n + i.min(j)];
                        assert!(
                            (got - want).abs() <= tol * want.abs().max(1.0),
                            "{dev} {dtype} L L^T [{i},{j}]"
                        );
                        if j > i {
                            assert_eq!(l[e * n * n + i * n + j], 0.0);
                        }
                    }
                }
            }
            // triangular solves with L (lower) and L^T (upper), unit too, B broadcast
            let lt = got[0].narrow(0, 0, 2).unwrap();
            let rhs = random(n * 2, 78);
            let bt = tensor(&dev, &rhs, dtype, &[n, 2]);
            for (upper, unit) in [(false, false), (false, true), (true, false), (true, true)] {
                let m = if upper {
                    lt.transpose(1, 2).unwrap()
                } else {
                    lt.clone()
                };
                let x = every_form(
                    &format!("{dev} {dtype} solve_triangular {upper} {unit}"),
                    || vec![k::solve_triangular::dispatch(&m, &bt, upper, unit).unwrap()],
                )
                .pop()
                .unwrap();
                assert_eq!(x.shape(), &[2, n, 2]);
                let (mv, xv) = (to_f64(&m.contiguous().unwrap()), to_f64(&x));
                for e in 0..2 {
                    for c in 0..2 {
                        for i in 0..n {
                            let mut s = 0.0;
                            for j in 0..n {
                                let in_tri = if upper { j >= i } else { j <= i };
                                let aij = if !in_tri {
                                    0.0
                                } else if unit && i == j {
                                    1.0
                                } else {
                                    mv[e * n * n + i * n + j]
                                };
                                s += aij * xv[(e * n + j) * 2 + c];
                            }
                            assert!(
                                (s - rhs[i * 2 + c]).abs() <= tol,
                                "{dev} {dtype} {upper} {unit}: {s}"
                            );
                        }
                    }
                }
            }
        }
        let a = TensorT::<f64>::zeros(&dev, [2, 3]).unwrap();
        assert!(matches!(
            k::cholesky_ex::launch(&a),
            Err(Error::InvalidArgument { .. })
        ));
        let sq = TensorT::<f64>::zeros(&dev, [2, 2]).unwrap();
        let b3 = TensorT::<f64>::zeros(&dev, [3, 1]).unwrap();
        assert!(matches!(
            k::solve_triangular::launch(&sq, &b3, true, false),
            Err(Error::InvalidArgument { .. })
        ));
        let b32 = TensorT::<f32>::zeros(&dev, [2, 1]).unwrap();
        assert!(matches!(
            k::solve_triangular::dispatch(sq.as_tensor(), b32.as_tensor(), true, false),
            Err(Error::DTypeMismatch { .. })
        ));
        let (l, info) =
            k::cholesky_ex::launch(&TensorT::<f32>::zeros(&dev, [0, 3, 3]).unwrap()).unwrap();
        assert_eq!(
            (l.shape(), info.shape()),
            (&[0usize, 3, 3][..], &[0usize][..])
        );
    }
}

/// `P A P^T = L D L^T` rebuilt from `ldl_factor`'s `(LD, pivots)` of one
/// `n` x `n` matrix (row-major), LAPACK's storage: the symmetric matrix
/// `L D L^T` with the row and column swaps of the pivots undone.
fn rebuild_ldl(ld: &[f64], piv: &[i32], n: usize) -> Vec<f64> {
    // LAPACK's A = U-free form: A = (P_1 L_1 P_2 L_2 ...) D (...)^T; build
    // it by applying each step's transformation to D from the last step
    // to the first
    let mut steps = Vec::new(); // (k, size)
    let mut k = 0;
    while k < n {
        let s = if piv[k] < 0 { 2 } else { 1 };
        steps.push((k, s));
        k += s;
    }
    let mut a = vec![0.0; n * n];
    for &(k, s) in &steps {
        a[k * n + k] = ld[k * n + k];
        if s == 2 {
            a[(k + 1) * n + k] = ld[(k + 1) * n + k];
            a[k * n + k + 1] = ld[(k + 1) * n + k];
            a[(k + 1) * n + k + 1] = ld[(k + 1) * n + k + 1];
        }
    }
    for &(k, s) in steps.iter().rev() {
        // A <- L_k A L_k^T, L_k the identity with step k's columns of L
        // below its block
        let mut lk = vec![0.0; n * n];
        for i in 0..n {
            lk[i * n + i] = 1.0;
        }
        for c in k..k + s {
            for i in k + s..n {
                lk[i * n + c] = ld[i * n + c];
            }
        }
        let prod = |x: &[f64], y: &[f64]| -> Vec<f64> {
            let mut r = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    r[i * n + j] = (0..n).map(|t| x[i * n + t] * y[t * n + j]).sum();
                }
            }
            r
        };
        let mut lt = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                lt[j * n + i] = lk[i * n + j];
            }
        }
        a = prod(&prod(&lk, &a), &lt);
        // then P_k: swap rows and columns (k + s - 1) and |piv| - 1
        let kp = (piv[k].unsigned_abs() - 1) as usize;
        let kk = k + s - 1;
        if kp != kk {
            for j in 0..n {
                a.swap(kk * n + j, kp * n + j);
            }
            for i in 0..n {
                a.swap(i * n + kk, i * n + kp);
            }
        }
    }
    a
}

#[test]
fn ldl_factors_and_solves_symmetric_indefinite_matrices() {
    for dev in common::devices() {
        for dtype in [DType::F64, DType::F32] {
            let tol = if dtype == DType::F64 { 1e-10 } else { 1e-3 };
            for (s, &(b, n)) in [(1, 1), (2, 2), (3, 4), (2, 7), (1, 12)].iter().enumerate() {
                let mut xs = random(b * n * n, 90 + s as u64);
                // symmetric, small diagonals (2 x 2 pivots), noise above
                for m in xs.chunks_mut(n * n) {
                    for i in 0..n {
                        m[i * n + i] *= 0.05;
                        for j in i + 1..n {
                            m[i * n + j] = 1e3;
                        }
                    }
                }
                let a = tensor(&dev, &xs, dtype, &[b, n, n]);
                let got = every_form(&format!("{dev} {dtype} ldl {b}x{n}"), || {
                    let (ld, piv, info) = k::ldl_factor::dispatch(&a).unwrap();
                    vec![ld, piv, info]
                });
                let (ld, info) = (to_f64(&got[0]), got[2].to_vec::<i32>().unwrap());
                let piv = got[1].to_vec::<i32>().unwrap();
                assert_eq!(info, vec![0; b], "{dev} {dtype} {n}");
                let sym = symmetric(&to_f64(&a), n);
                let mut two = 0;
                for e in 0..b {
                    let (l, p) = (&ld[e * n * n..(e + 1) * n * n], &piv[e * n..(e + 1) * n]);
                    two += p.iter().filter(|&&v| v < 0).count();
                    for i in 0..n {
                        for j in i + 1..n {
                            assert_eq!(l[i * n + j], 0.0, "upper triangle zero");
                        }
                    }
                    let r = rebuild_ldl(l, p, n);
                    for i in 0..n * n {
                        assert!(
                            (r[i] - sym[e * n * n + i]).abs() < tol,
                            "{dev} {dtype} {n}: rebuilt {} vs {}",
                            r[i],
                            sym[e * n * n + i]
                        );
                    }
                }
                if n >= 4 {
                    assert!(two > 0, "{dev} {dtype} {n}: no 2 x 2 pivot tried");
                }
                // solves: A X = B for three columns, the batch of B broadcast
                let cols = 3;
                let bs = random(2 * b * n * cols, 95 + s as u64);
                let bt = tensor(&dev, &bs, dtype, &[2, b, n, cols]);
                let x = every_form(&format!("{dev} {dtype} ldl_solve {n}"), || {
                    vec![k::ldl_solve::dispatch(&got[0], &got[1], &bt).unwrap()]
                });
                let xv = to_f64(&x[0]);
                assert_eq!(x[0].shape(), &[2, b, n, cols]);
                for r in 0..2 * b {
                    let e = r % b;
                    for i in 0..n {
                        for c in 0..cols {
                            let ax: f64 = (0..n)
                                .map(|t| sym[e * n * n + i * n + t] * xv[(r * n + t) * cols + c])
                                .sum();
                            let want = bs[(r * n + i) * cols + c];
                            assert!(
                                (ax - want).abs() < tol * 100.0,
                                "{dev} {dtype} {n}: A X = {ax}, B = {want}"
                            );
                        }
                    }
                }
            }
            // a zero matrix: D singular, info 1, the factor left as it is
            let z = tensor(&dev, &[0.0; 9], dtype, &[3, 3]);
            let (ld, piv, info) = k::ldl_factor::dispatch(&z).unwrap();
            assert_eq!(info.to_vec::<i32>().unwrap(), [1]);
            assert_eq!(piv.to_vec::<i32>().unwrap(), [1, 2, 3]);
            assert!(to_f64(&ld).iter().all(|&v| v == 0.0));
            // pivots out of range are an error, not a read outside the matrix
            let piv = Tensor::from(TensorT::from_slice(&dev, &[1i32, 4, 3], [3]).unwrap());
            let err = k::ldl_solve::dispatch(&z, &piv, &tensor(&dev, &[1.0; 3], dtype, &[3, 1]))
                .unwrap_err();
            assert!(matches!(err, Error::InvalidArgument { .. }), "{err:?}");
            let piv = Tensor::from(TensorT::from_slice(&dev, &[1i32, 0, 3], [3]).unwrap());
            assert!(
                k::ldl_solve::dispatch(&z, &piv, &tensor(&dev, &[1.0; 3], dtype, &[3, 1])).is_err()
            );
        }
    }
}

/// `svd`'s sums over a million rows run in blocks of 256 (each in order,
/// then the blocks' sums in order): a float32 column of a million squares
/// summed in order was 9.7e-5 off, in blocks it is 8.2e-7. Every form (a
/// work-group a matrix, a work-item a matrix) and the host give the same
/// bits, on 600 rows (two whole blocks and a part) too, which Oclgrind
/// checks.
#[test]
fn svd_of_a_million_float32_rows_sums_in_blocks() {
    use silt::__testing::reduce_as;
    let host = Device::host();
    for m in [600, 1_000_000] {
        if m > 600 && on_oclgrind() {
            continue;
        }
        let n = 2;
        let data: Vec<f64> = random(m * n, 41).iter().map(|v| v.abs()).collect();
        let narrow: Vec<f32> = data.iter().map(|&v| v as f32).collect();
        // the f64 singular values of the float32 data itself
        let wide: Vec<f64> = narrow.iter().map(|&v| f64::from(v)).collect();
        let want = k::svd::dispatch(&Tensor::from_slice(&host, &wide, [m, n]).unwrap())
            .unwrap()
            .1
            .to_vec::<f64>()
            .unwrap();
        let mut bits = Vec::new();
        for dev in common::devices() {
            let forms = other_forms(&dev).into_iter().map(Some);
            for kind in std::iter::once(None).chain(forms) {
                reduce_as(kind);
                let a = Tensor::from_slice(&dev, &narrow, [m, n]).unwrap();
                let s = k::svd::dispatch(&a).unwrap().1.to_vec::<f32>().unwrap();
                let err = s
                    .iter()
                    .zip(&want)
                    .map(|(&g, &w)| (f64::from(g) - w).abs() / want[0])
                    .fold(0.0, f64::max);
                assert!(err < 2e-6, "{dev} {kind:?} {m}: {err:e}");
                bits.push(s.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
        reduce_as(None);
        assert!(bits.windows(2).all(|w| w[0] == w[1]), "{m}");
    }
}

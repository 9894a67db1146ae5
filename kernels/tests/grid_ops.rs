//! The operations built on grid kernels (`matmul`), against references
//! written here in plain Rust, on the host and on the OpenCL device, with the
//! same bits on both.
#![allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::prelude::*;
use silt::{f16, DeviceKind, Tensor};
use silt_kernels as k;

/// `n` float values of every sign and many magnitudes, from `seed`.
fn floats(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = common::Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            let m = (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
            m * [1.0, 3.0, 0.01, 100.0][(s & 3) as usize]
        })
        .collect()
}

/// The row-major elements of a tensor of `shape` as a function of the index.
fn strides_of(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1] * shape[d + 1];
    }
    st
}

/// The reference `matmul` of row-major `a` and `b` (PyTorch's shapes), each
/// output `acc = step(a, b, acc)` over `k` in order from `zero`.
fn reference<T: Copy, A: Copy>(
    a: &[T],
    sa: &[usize],
    b: &[T],
    sb: &[usize],
    zero: A,
    step: impl Fn(T, T, A) -> A,
    out: impl Fn(A) -> T,
) -> (Vec<T>, Vec<usize>) {
    let (a2, b2) = (sa.len() == 1, sb.len() == 1);
    let sa: Vec<usize> = if a2 { vec![1, sa[0]] } else { sa.to_vec() };
    let sb: Vec<usize> = if b2 { vec![sb[0], 1] } else { sb.to_vec() };
    let (m, kk, n) = (sa[sa.len() - 2], sa[sa.len() - 1], sb[sb.len() - 1]);
    let rank = sa.len().max(sb.len()) - 2;
    let pad = |s: &[usize]| {
        let mut v = vec![1; rank + 2 - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (pa, pb) = (pad(&sa), pad(&sb));
    let batch: Vec<usize> = (0..rank).map(|d| pa[d].max(pb[d])).collect();
    let (sta, stb) = (strides_of(&pa), strides_of(&pb));
    let total: usize = batch.iter().product();
    let mut res = Vec::new();
    for z in 0..total {
        let (mut oa, mut ob, mut rest) = (0, 0, z);
        for d in (0..rank).rev() {
            let i = rest % batch[d];
            rest /= batch[d];
            oa += if pa[d] == 1 { 0 } else { i * sta[d] };
            ob += if pb[d] == 1 { 0 } else { i * stb[d] };
        }
        for i in 0..m {
            for j in 0..n {
                let mut acc = zero;
                for q in 0..kk {
                    acc = step(a[oa + i * kk + q], b[ob + q * n + j], acc);
                }
                res.push(out(acc));
            }
        }
    }
    let mut shape = batch;
    if !a2 {
        shape.push(m);
    }
    if !b2 {
        shape.push(n);
    }
    (res, shape)
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn matmul_gives_the_reference_bits_for_every_shape_on_every_device() {
    let cases: &[(&[usize], &[usize])] = &[
        (&[5], &[5]),
        (&[7], &[7, 3]),
        (&[4, 7], &[7]),
        (&[1, 1], &[1, 1]),
        (&[3, 5], &[5, 7]),
        // past one work-group's 64 x 64 block, k past one tile of 16 and not
        // a multiple of it
        (&[67, 130], &[130, 65]),
        (&[67, 20], &[20, 3]),
        (&[2, 1, 9, 17], &[3, 17, 70]),
        (&[9, 17], &[4, 17, 6]),
        (&[4, 10, 3], &[3]),
        (&[3], &[2, 3, 5]),
    ];
    for (sa, sb) in cases {
        let na: usize = sa.iter().product();
        let nb: usize = sb.iter().product();
        let (xa, xb) = (floats(na, 1), floats(nb, 2));
        let (want, shape) = reference(
            &xa,
            sa,
            &xb,
            sb,
            0.0f32,
            |x, y, acc| x.mul_add(y, acc),
            |v| v,
        );
        for dev in common::devices() {
            // Oclgrind simulates every instruction: the largest case (36
            // blocks of 16 steps) takes it a minute; the others cover more
            // than one block in each direction
            if want.len() > 4096 && dev.to_string().contains("Oclgrind") {
                continue;
            }
            let a = TensorT::from_slice(&dev, &xa, *sa).unwrap();
            let b = TensorT::from_slice(&dev, &xb, *sb).unwrap();
            let c = k::matmul::launch(&a, &b).unwrap();
            assert_eq!(c.shape(), shape.as_slice(), "{dev} {sa:?} {sb:?}");
            assert_eq!(
                bits(&c.to_vec().unwrap()),
                bits(&want),
                "{dev} {sa:?} {sb:?}"
            );
        }
    }
}

#[test]
fn matmul_reads_transposed_narrowed_and_broadcast_views_in_place() {
    let xs = floats(40 * 36, 3);
    for dev in common::devices() {
        let base = TensorT::from_slice(&dev, &xs, [40, 36]).unwrap();
        // a: [33, 20], a transposed, narrowed view; b: [20, 35] transposed
        let a = base
            .narrow(1, 2, 33)
            .unwrap()
            .narrow(0, 5, 20)
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let b = base
            .narrow(0, 1, 35)
            .unwrap()
            .narrow(1, 0, 20)
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let got = k::matmul::launch(&a, &b).unwrap();
        let want = k::matmul::launch(&a.contiguous().unwrap(), &b.contiguous().unwrap()).unwrap();
        assert_eq!(
            bits(&got.to_vec().unwrap()),
            bits(&want.to_vec().unwrap()),
            "{dev}"
        );
        // a broadcast batch ([1, 33, 20] to [2, ..]) and batch dimensions
        // that do not fold into one stride (a permuted batch); batches of
        // 2 x 2 (each a padded 64 x 64 block: a batch costs seconds on
        // Oclgrind)
        let a3 = a
            .contiguous()
            .unwrap()
            .reshape([1, 33, 20])
            .unwrap()
            .broadcast_to([2, 33, 20])
            .unwrap();
        let b4 = TensorT::from_slice(&dev, &floats(2 * 2 * 20 * 6, 4), [2, 2, 20, 6]).unwrap();
        let b4p = b4.permute(&[1, 0, 2, 3]).unwrap(); // [2, 2, 20, 6], not foldable
        let a4 = a.contiguous().unwrap().reshape([1, 1, 33, 20]).unwrap();
        let got = k::matmul::launch(&a4, &b4p).unwrap();
        assert_eq!(got.shape(), [2, 2, 33, 6]);
        let want = k::matmul::launch(&a4, &b4p.contiguous().unwrap()).unwrap();
        assert_eq!(
            bits(&got.to_vec().unwrap()),
            bits(&want.to_vec().unwrap()),
            "{dev}"
        );
        let got = k::matmul::launch(&a3, &b4p.narrow(1, 1, 1).unwrap()).unwrap();
        let want = k::matmul::launch(
            &a3.contiguous().unwrap(),
            &b4p.narrow(1, 1, 1).unwrap().contiguous().unwrap(),
        )
        .unwrap();
        assert_eq!(
            bits(&got.to_vec().unwrap()),
            bits(&want.to_vec().unwrap()),
            "{dev}"
        );
    }
}

#[test]
fn matmul_of_halves_sums_in_f32_and_rounds_once() {
    let (sa, sb) = ([70usize, 33], [33usize, 66]);
    let xa: Vec<f16> = floats(70 * 33, 5)
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let xb: Vec<f16> = floats(33 * 66, 6)
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let (want, _) = reference(
        &xa,
        &sa,
        &xb,
        &sb,
        0.0f32,
        |x, y, acc| x.to_f32().mul_add(y.to_f32(), acc),
        f16::from_f32,
    );
    for dev in common::devices() {
        let a = TensorT::from_slice(&dev, &xa, sa).unwrap();
        let b = TensorT::from_slice(&dev, &xb, sb).unwrap();
        let c = k::matmul::launch(&a, &b).unwrap();
        let got: Vec<u16> = c.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
        let want: Vec<u16> = want.iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, want, "{dev}");
    }
}

#[test]
fn matmul_of_doubles_and_integers_matches_the_reference() {
    let (sa, sb) = ([6usize, 19], [19usize, 70]);
    let fa: Vec<f64> = floats(6 * 19, 7)
        .iter()
        .map(|&v| f64::from(v) * 1.1)
        .collect();
    let fb: Vec<f64> = floats(19 * 70, 8)
        .iter()
        .map(|&v| f64::from(v) / 3.0)
        .collect();
    let (wf, _) = reference(
        &fa,
        &sa,
        &fb,
        &sb,
        0.0f64,
        |x, y, acc| x.mul_add(y, acc),
        |v| v,
    );
    // integers wrap: i32 products past 2^31, u8 sums past 255
    let ia: Vec<i32> = (0..6 * 19)
        .map(|i| (i * 7919 % 100_003) * 311 - 1_000_000)
        .collect();
    let ib: Vec<i32> = (0..19 * 70)
        .map(|i| (i * 104_729 % 65_537) - 30_000)
        .collect();
    let step_i = |x: i32, y: i32, acc: i32| x.wrapping_mul(y).wrapping_add(acc);
    let (wi, _) = reference(&ia, &sa, &ib, &sb, 0, step_i, |v| v);
    let ua: Vec<u8> = (0..6 * 19).map(|i| (i * 37 % 256) as u8).collect();
    let ub: Vec<u8> = (0..19 * 70).map(|i| (i * 91 % 256) as u8).collect();
    let step_u = |x: u8, y: u8, acc: u8| x.wrapping_mul(y).wrapping_add(acc);
    let (wu, _) = reference(&ua, &sa, &ub, &sb, 0, step_u, |v| v);
    for dev in common::devices() {
        let c = k::matmul::launch(
            &TensorT::from_slice(&dev, &fa, sa).unwrap(),
            &TensorT::from_slice(&dev, &fb, sb).unwrap(),
        )
        .unwrap();
        let got: Vec<u64> = c.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
        assert_eq!(
            got,
            wf.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "{dev}"
        );
        let c = k::matmul::dispatch(
            &Tensor::from_slice(&dev, &ia, sa).unwrap(),
            &Tensor::from_slice(&dev, &ib, sb).unwrap(),
        )
        .unwrap();
        assert_eq!(c.to_vec::<i32>().unwrap(), wi, "{dev}");
        let c = k::matmul::launch(
            &TensorT::from_slice(&dev, &ua, sa).unwrap(),
            &TensorT::from_slice(&dev, &ub, sb).unwrap(),
        )
        .unwrap();
        assert_eq!(c.to_vec().unwrap(), wu, "{dev}");
    }
}

#[test]
fn matmul_edge_cases_and_errors() {
    for dev in common::devices() {
        let t = |v: &[f32], s: &[usize]| TensorT::from_slice(&dev, v, s).unwrap();
        // empty sides give empty results; k = 0 gives zeros
        let c = k::matmul::launch(&t(&[], &[0, 3]), &t(&[0.0; 6], &[3, 2])).unwrap();
        assert_eq!(c.shape(), [0, 2]);
        let c = k::matmul::launch(&t(&[], &[2, 0]), &t(&[], &[0, 3])).unwrap();
        assert_eq!(
            (c.shape(), c.to_vec().unwrap()),
            (&[2usize, 3][..], vec![0.0; 6])
        );
        // NaN and infinities propagate as the sums do
        let c = k::matmul::launch(
            &t(&[f32::NAN, 1.0, f32::INFINITY, 1.0], &[2, 2]),
            &t(&[1.0, 0.0, 0.0, 1.0], &[2, 2]),
        )
        .unwrap()
        .to_vec()
        .unwrap();
        // [[NaN, 1], [inf, 1]] times the identity: NaN * 0 and inf * 0 are
        // NaN, inf * 1 + 1 * 0 is inf
        let nan: Vec<bool> = c.iter().map(|v| v.is_nan()).collect();
        assert_eq!(nan, [true, true, false, true], "{dev}: {c:?}");
        assert_eq!(c[2], f32::INFINITY, "{dev}: {c:?}");
        let inf = k::matmul::launch(&t(&[f32::INFINITY, 1.0], &[1, 2]), &t(&[1.0, 1.0], &[2, 1]))
            .unwrap();
        assert_eq!(inf.to_vec().unwrap(), [f32::INFINITY], "{dev}");
        // errors, before anything runs
        let err = k::matmul::launch(&t(&[1.0], &[]), &t(&[1.0], &[1])).unwrap_err();
        assert!(
            matches!(err, Error::InvalidArgument { op: "matmul", .. }),
            "{err:?}"
        );
        let err = k::matmul::launch(&t(&[0.0; 6], &[2, 3]), &t(&[0.0; 8], &[2, 4])).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidArgument { op: "matmul", reason }
                if reason.contains("3 columns") && reason.contains("2 rows")),
            "{err}"
        );
        let err =
            k::matmul::launch(&t(&[0.0; 12], &[2, 2, 3]), &t(&[0.0; 18], &[3, 3, 2])).unwrap_err();
        assert!(
            matches!(err, Error::ShapeMismatch { op: "matmul", .. }),
            "{err:?}"
        );
        let a = Tensor::from_slice(&dev, &[1.0f32, 2.0], [1, 2]).unwrap();
        let b = Tensor::from_slice(&dev, &[1.0f64, 2.0], [2, 1]).unwrap();
        let err = k::matmul::dispatch(&a, &b).unwrap_err();
        assert!(matches!(err, Error::DTypeMismatch { .. }), "{err:?}");
        let bools = Tensor::from_slice(&dev, &[true, false], [1, 2]).unwrap();
        let err = k::matmul::dispatch(&bools, &bools.reshape([2, 1]).unwrap()).unwrap_err();
        assert!(
            matches!(
                err,
                Error::UnsupportedDType {
                    kernel: "matmul",
                    ..
                }
            ),
            "{err:?}"
        );
        if !dev.is_host() {
            let h = TensorT::from_slice(&Device::host(), &[1.0f32], [1, 1]).unwrap();
            let err = k::matmul::launch(&t(&[1.0], &[1, 1]), &h).unwrap_err();
            assert!(matches!(err, Error::DeviceMismatch { .. }), "{err:?}");
        }
    }
}

/// The row-wise reference in f64 over rows of `n` (the last axis).
fn softmax_ref(x: &[f32], n: usize, log: bool) -> Vec<f64> {
    let mut out = Vec::new();
    for row in x.chunks(n) {
        let m = row
            .iter()
            .fold(f64::NEG_INFINITY, |m, &v| m.max(f64::from(v)));
        let s: f64 = row.iter().map(|&v| (f64::from(v) - m).exp()).sum();
        out.extend(row.iter().map(|&v| {
            let d = f64::from(v) - m;
            if log {
                d - s.ln()
            } else {
                d.exp() / s
            }
        }));
    }
    out
}

fn close(got: &[f32], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (f64::from(g) - w).abs();
        assert!(err <= tol * w.abs().max(1.0), "{what} [{i}]: {g} vs {w}");
    }
}

#[test]
fn softmax_is_one_pass_over_rows_and_shifts_change_no_bit() {
    for dev in common::devices() {
        // short rows, rows past the 4,096 a work-group keeps, odd lengths
        for (rows, n) in [(3, 5), (2, 4100), (5, 129), (1, 1)] {
            // multiples of 1/64 below 2^11: exact after a shift by 1024
            let xs: Vec<f32> = floats(rows * n, 9)
                .iter()
                .map(|v| (v * 640.0).round() / 64.0)
                .collect();
            let x = TensorT::from_slice(&dev, &xs, [rows, n]).unwrap();
            let p = k::softmax::launch(&x, -1).unwrap().to_vec().unwrap();
            close(
                &p,
                &softmax_ref(&xs, n, false),
                2e-6,
                &format!("{dev} softmax {rows}x{n}"),
            );
            let lp = k::log_softmax::launch(&x, 1).unwrap().to_vec().unwrap();
            close(
                &lp,
                &softmax_ref(&xs, n, true),
                2e-6,
                &format!("{dev} log_softmax {rows}x{n}"),
            );
            // each row shifted by 1024 (exact for these values): the same bits
            let shifted: Vec<f32> = xs.iter().map(|v| v + 1024.0).collect();
            assert!(shifted.iter().zip(&xs).all(|(s, v)| s - 1024.0 == *v));
            let xs2 = TensorT::from_slice(&dev, &shifted, [rows, n]).unwrap();
            let p2 = k::softmax::launch(&xs2, -1).unwrap().to_vec().unwrap();
            assert_eq!(bits(&p), bits(&p2), "{dev} {rows}x{n}");
        }
        // along a middle axis: rows of stride 4
        let xs = floats(2 * 3 * 4, 10);
        let x = TensorT::from_slice(&dev, &xs, [2, 3, 4]).unwrap();
        let got = k::softmax::launch(&x, 1).unwrap().to_vec().unwrap();
        let moved = x
            .transpose(1, 2)
            .unwrap()
            .contiguous()
            .unwrap()
            .to_vec()
            .unwrap();
        let want = softmax_ref(&moved, 3, false);
        for a in 0..2 {
            for i in 0..3 {
                for b in 0..4 {
                    let (g, w) = (got[a * 12 + i * 4 + b], want[a * 12 + b * 3 + i]);
                    assert!((f64::from(g) - w).abs() < 1e-6, "{dev} [{a}, {i}, {b}]");
                }
            }
        }
        // NaN takes its row; the other rows are untouched
        let x = TensorT::from_slice(&dev, &[1.0f32, f32::NAN, 2.0, 0.0, 0.0, 0.0], [2, 3]).unwrap();
        let p = k::softmax::launch(&x, 1).unwrap().to_vec().unwrap();
        assert!(p[..3].iter().all(|v| v.is_nan()), "{dev}: {p:?}");
        assert!(
            p[3..].iter().all(|&v| (v - 1.0 / 3.0).abs() < 1e-7),
            "{dev}: {p:?}"
        );
        // f16 in f32, rounded once; a 0-d tensor; an empty one; a bad axis
        let h: Vec<f16> = [0.5f32, -1.0, 2.0]
            .iter()
            .map(|&v| f16::from_f32(v))
            .collect();
        let ph = k::softmax::launch(&TensorT::from_slice(&dev, &h, [3]).unwrap(), 0).unwrap();
        let want = softmax_ref(&[0.5, -1.0, 2.0], 3, false);
        for (g, w) in ph.to_vec().unwrap().iter().zip(&want) {
            assert_eq!(*g, f16::from_f64(*w), "{dev}");
        }
        let s = k::softmax::launch(&TensorT::from_slice(&dev, &[3.0f32], []).unwrap(), 0).unwrap();
        assert_eq!(s.to_vec().unwrap(), [1.0]);
        let e = k::softmax::launch(&TensorT::<f32>::zeros(&dev, [0, 4]).unwrap(), 1).unwrap();
        assert_eq!(e.shape(), [0, 4]);
        assert!(k::softmax::launch(&x, 2).is_err());
    }
}

#[test]
fn layer_norm_and_rms_norm_match_the_reference() {
    let (rows, n) = (6, 300);
    let xs: Vec<f32> = floats(rows * n, 11).iter().map(|v| v * 4.0 + 1.5).collect();
    let ws = floats(n, 12);
    let bs = floats(n, 13);
    let mut ln = Vec::new();
    let mut rms = Vec::new();
    for row in xs.chunks(n) {
        let mean = row.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
        let var = row
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        let ms = row.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / n as f64;
        for (i, &v) in row.iter().enumerate() {
            let (w, b) = (f64::from(ws[i]), f64::from(bs[i]));
            ln.push((f64::from(v) - mean) / (var + 1e-5).sqrt() * w + b);
            rms.push(f64::from(v) / (ms + f64::from(f32::EPSILON)).sqrt() * w);
        }
    }
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [2, 3, n]).unwrap();
        let w = TensorT::from_slice(&dev, &ws, [n]).unwrap();
        let b = TensorT::from_slice(&dev, &bs, [n]).unwrap();
        let y = k::layer_norm::launch(&x, &[n], Some(&w), Some(&b), 1e-5).unwrap();
        assert_eq!(y.shape(), [2, 3, n]);
        close(
            &y.to_vec().unwrap(),
            &ln,
            1e-5,
            &format!("{dev} layer_norm"),
        );
        let y = k::rms_norm::launch(&x, &[n], Some(&w), None).unwrap();
        close(&y.to_vec().unwrap(), &rms, 1e-5, &format!("{dev} rms_norm"));
        // over the two trailing dimensions, without weight or bias: each
        // [3, n] block has mean 0 and variance 1
        let y = k::layer_norm::launch(&x, &[3, n], None, None, 0.0)
            .unwrap()
            .to_vec()
            .unwrap();
        for block in y.chunks(3 * n) {
            let mean = block.iter().map(|&v| f64::from(v)).sum::<f64>() / block.len() as f64;
            let var = block.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / block.len() as f64;
            assert!(
                mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-4,
                "{dev}: {mean} {var}"
            );
        }
        // a transposed input is read as the rows it has
        let xt = TensorT::from_slice(&dev, &xs, [n, rows])
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let got = k::rms_norm::launch(&xt, &[n], None, Some(1e-6)).unwrap();
        let want = k::rms_norm::launch(&xt.contiguous().unwrap(), &[n], None, Some(1e-6)).unwrap();
        assert_eq!(
            bits(&got.to_vec().unwrap()),
            bits(&want.to_vec().unwrap()),
            "{dev}"
        );
        // weight and bias of any view, as their contiguous copies: stepped
        // (a stride of 2), broadcast (a stride of 0), a transposed matrix
        let stepped = |v: &[f32]| {
            let twice: Vec<f32> = v.iter().flat_map(|&e| [e, -9.0]).collect();
            let t = TensorT::from_slice(&dev, &twice, [n, 2]).unwrap();
            t.as_tensor().select(1, 0).unwrap().typed::<f32>().unwrap()
        };
        let (ws2, bs2) = (stepped(&ws), stepped(&bs));
        assert_eq!(ws2.strides(), [2]);
        let same = |a: &TensorT<f32>, b: &TensorT<f32>, what: &str| {
            assert_eq!(
                bits(&a.to_vec().unwrap()),
                bits(&b.to_vec().unwrap()),
                "{dev} {what}"
            );
        };
        let (wc, bc) = (ws2.contiguous().unwrap(), bs2.contiguous().unwrap());
        same(
            &k::layer_norm::launch(&x, &[n], Some(&ws2), Some(&bs2), 1e-5).unwrap(),
            &k::layer_norm::launch(&x, &[n], Some(&wc), Some(&bc), 1e-5).unwrap(),
            "layer_norm of a stepped weight and bias",
        );
        same(
            &k::rms_norm::launch(&x, &[n], Some(&ws2), None).unwrap(),
            &k::rms_norm::launch(&x, &[n], Some(&wc), None).unwrap(),
            "rms_norm of a stepped weight",
        );
        let half = TensorT::full(&dev, 0.5f32, [1])
            .unwrap()
            .broadcast_to([n])
            .unwrap();
        assert_eq!(half.strides(), [0]);
        same(
            &k::layer_norm::launch(&x, &[n], Some(&half), Some(&half), 1e-5).unwrap(),
            &k::layer_norm::launch(
                &x,
                &[n],
                Some(&half.contiguous().unwrap()),
                Some(&half.contiguous().unwrap()),
                1e-5,
            )
            .unwrap(),
            "layer_norm of a broadcast weight and bias",
        );
        let x2 = TensorT::from_slice(&dev, &xs[..rows * 30], [rows, 5, 6]).unwrap();
        let w2 = TensorT::from_slice(&dev, &ws[..30], [6, 5])
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        same(
            &k::layer_norm::launch(&x2, &[5, 6], Some(&w2), Some(&w2), 1e-5).unwrap(),
            &k::layer_norm::launch(
                &x2,
                &[5, 6],
                Some(&w2.contiguous().unwrap()),
                Some(&w2.contiguous().unwrap()),
                1e-5,
            )
            .unwrap(),
            "layer_norm of a transposed weight and bias",
        );
        // errors
        for bad in [
            k::layer_norm::launch(&x, &[4], None, None, 1e-5),
            k::layer_norm::launch(&x, &[n], Some(&b.narrow(0, 0, 5).unwrap()), None, 1e-5),
            k::layer_norm::launch(&x, &[n], None, None, -1.0),
            k::rms_norm::launch(&x, &[], None, None),
        ] {
            assert!(matches!(bad, Err(Error::InvalidArgument { .. })), "{bad:?}");
        }
    }
}

/// `got` within `tol * max(|want|, 1)` of `want`, a NaN where it is NaN and
/// an infinity where it is that infinity.
fn close_or_special(got: &[f32], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let g64 = f64::from(g);
        let ok = if w.is_nan() || w.is_infinite() {
            g64 == w || (g.is_nan() && w.is_nan())
        } else {
            (g64 - w).abs() <= tol * w.abs().max(1.0)
        };
        assert!(ok, "{what} [{i}]: {g} vs {w}");
    }
}

/// The forms of the row-wise operations to run on `dev` (through
/// `reduce_as`): its own, then the others' (as
/// `row_wise_operations_give_the_same_bits_in_every_form`).
fn row_forms(dev: &Device) -> Vec<Option<DeviceKind>> {
    match dev.info().kind {
        DeviceKind::Host => vec![None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)],
        DeviceKind::Cpu => vec![None, Some(DeviceKind::Gpu)],
        _ => vec![None, Some(DeviceKind::Cpu)],
    }
}

/// `softmax` and `log_softmax` on PyTorch's edge cases, in every form,
/// against `softmax_ref` (PyTorch's definition: `x - max` with the max
/// NaN-free, so a NaN, or a `+inf` or a row all `-inf`, whose `x - max` is
/// NaN, makes its row all NaN, as PyTorch's CPU kernels give; a `-inf`
/// among finite values is 0 and `-inf`): empty tensors along each axis,
/// rows of one element, the other rows untouched.
#[test]
fn softmax_and_log_softmax_edge_cases_as_pytorch() {
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    #[rustfmt::skip]
    let xs: [f32; 20] = [
        1.0, nan, 2.0, 0.5,
        0.0, -inf, 1.0, -inf,
        -inf, -inf, -inf, -inf,
        1.0, inf, 2.0, 3.0,
        -3.0, 0.25, -0.0, 0.0,
    ];
    for dev in common::devices() {
        for kind in row_forms(&dev) {
            silt::__testing::reduce_as(kind);
            let what = format!("{dev} as {kind:?}");
            let x = TensorT::from_slice(&dev, &xs, [5, 4]).unwrap();
            for log in [false, true] {
                let want = softmax_ref(&xs, 4, log);
                // the reference's special rows, as PyTorch gives them
                assert!(want[..4].iter().all(|v| v.is_nan()));
                assert_eq!(want[5], if log { f64::NEG_INFINITY } else { 0.0 });
                assert!(want[8..16].iter().all(|v| v.is_nan()));
                let got = if log {
                    k::log_softmax::launch(&x, 1)
                } else {
                    k::softmax::launch(&x, -1)
                }
                .unwrap();
                close_or_special(
                    &got.to_vec().unwrap(),
                    &want,
                    2e-6,
                    &format!("{what} log {log}"),
                );
                // along axis 0: columns of 5, the transpose's rows
                let cols: Vec<f32> = (0..20).map(|i| xs[(i % 5) * 4 + i / 5]).collect();
                let want_t = softmax_ref(&cols, 5, log);
                let want: Vec<f64> = (0..20).map(|i| want_t[(i % 4) * 5 + i / 4]).collect();
                let got = if log {
                    k::log_softmax::launch(&x, 0)
                } else {
                    k::softmax::launch(&x, 0)
                }
                .unwrap();
                close_or_special(
                    &got.to_vec().unwrap(),
                    &want,
                    2e-6,
                    &format!("{what} axis 0 log {log}"),
                );
                // rows of one element: 1 and 0 (a NaN: NaN; -inf and +inf:
                // NaN, as `x - max` is)
                let ones = [3.5f32, -0.0, nan, -inf, inf];
                let t = TensorT::from_slice(&dev, &ones, [5, 1]).unwrap();
                let got = if log {
                    k::log_softmax::launch(&t, 1)
                } else {
                    k::softmax::launch(&t, 1)
                }
                .unwrap();
                let want = softmax_ref(&ones, 1, log);
                assert_eq!(want[..2], if log { [0.0, 0.0] } else { [1.0, 1.0] });
                close_or_special(
                    &got.to_vec().unwrap(),
                    &want,
                    0.0,
                    &format!("{what} n=1 log {log}"),
                );
                // empty: no rows, rows of no element, along each axis
                for (shape, axis) in [([0, 4], 1), ([0, 4], 0), ([4, 0], 1), ([4, 0], 0)] {
                    let e = TensorT::<f32>::zeros(&dev, shape).unwrap();
                    let got = if log {
                        k::log_softmax::launch(&e, axis)
                    } else {
                        k::softmax::launch(&e, axis)
                    }
                    .unwrap();
                    assert_eq!(got.shape(), shape, "{what} {shape:?} along {axis}");
                    assert!(got.to_vec().unwrap().is_empty());
                }
                // f64 and f16 (in f32, rounded once): the same rows
                let want = softmax_ref(&xs, 4, log);
                for (dtype, tol) in [(DType::F64, 1e-12), (DType::F16, 1e-3)] {
                    let x = float_tensor(&dev, &xs, dtype, [5, 4]);
                    let got = if log {
                        k::log_softmax::dispatch(&x, 1)
                    } else {
                        k::softmax::dispatch(&x, 1)
                    }
                    .unwrap();
                    let got: Vec<f64> = match dtype {
                        DType::F16 => got
                            .to_vec::<f16>()
                            .unwrap()
                            .iter()
                            .map(|v| f64::from(v.to_f32()))
                            .collect(),
                        _ => got.to_vec::<f64>().unwrap(),
                    };
                    for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                        let ok = if w.is_nan() || w.is_infinite() {
                            g == w || (g.is_nan() && w.is_nan())
                        } else {
                            (g - w).abs() <= tol * w.abs().max(1.0)
                        };
                        assert!(ok, "{what} {dtype} log {log} [{i}]: {g} vs {w}");
                    }
                }
            }
            silt::__testing::reduce_as(None);
        }
    }
}

/// `layer_norm` and `rms_norm` on PyTorch's edge cases, in every form,
/// against a reference by PyTorch's definition (the variance biased, `eps`
/// inside the square root): rows of one element (`layer_norm` gives the
/// bias exactly: `x - mean` is 0; `rms_norm` gives `x / sqrt(x^2 + eps) *
/// w`), a NaN in a row (that row all NaN, the others as without it), empty
/// inputs.
#[test]
fn layer_norm_and_rms_norm_edge_cases_as_pytorch() {
    /// The references over rows of `n`: layer_norm, then rms_norm.
    fn norms(xs: &[f32], ws: &[f32], bs: &[f32], eps: f64, rms_eps: f64) -> (Vec<f64>, Vec<f64>) {
        let n = ws.len();
        let (mut ln, mut rms) = (Vec::new(), Vec::new());
        for row in xs.chunks(n) {
            let row: Vec<f64> = row.iter().map(|&v| f64::from(v)).collect();
            let mean = row.iter().sum::<f64>() / n as f64;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64;
            let ms = row.iter().map(|v| v.powi(2)).sum::<f64>() / n as f64;
            for (i, v) in row.iter().enumerate() {
                let (w, b) = (f64::from(ws[i]), f64::from(bs[i]));
                ln.push((v - mean) / (var + eps).sqrt() * w + b);
                rms.push(v / (ms + rms_eps).sqrt() * w);
            }
        }
        (ln, rms)
    }
    let nan = f32::NAN;
    for dev in common::devices() {
        for kind in row_forms(&dev) {
            silt::__testing::reduce_as(kind);
            let what = format!("{dev} as {kind:?}");
            // rows of one element
            let xs = [3.5f32, -1e-3, 0.0, -250.0, 7e10];
            let (w1, b1) = ([-1.5f32], [0.375f32]);
            let x = TensorT::from_slice(&dev, &xs, [5, 1]).unwrap();
            let w = TensorT::from_slice(&dev, &w1, [1]).unwrap();
            let b = TensorT::from_slice(&dev, &b1, [1]).unwrap();
            let y = k::layer_norm::launch(&x, &[1], Some(&w), Some(&b), 1e-5).unwrap();
            let got: Vec<u32> = y.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, [b1[0].to_bits(); 5], "{what} layer_norm n=1");
            let y = k::layer_norm::launch(&x, &[1], None, None, 1e-5).unwrap();
            let got: Vec<u32> = y.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, [0; 5], "{what} layer_norm n=1 without bias: +0.0");
            // in every float type, values near the type's largest included
            // (`x - mean` is 0 however the variance is summed); an infinity
            // or a NaN gives NaN (`inf - inf`)
            for (dtype, big) in [(DType::F32, 3e38f32), (DType::F64, 3e38), (DType::F16, 6e4)] {
                let xs = [big, -big, 1.25, f32::INFINITY, nan];
                let x = float_tensor(&dev, &xs, dtype, [5, 1]);
                let one = |v: f32| {
                    float_tensor(&dev, &[v], dtype, [1, 1])
                        .reshape([1])
                        .unwrap()
                };
                let y =
                    k::layer_norm::dispatch(&x, &[1], Some(&one(-1.5)), Some(&one(0.375)), 1e-5)
                        .unwrap();
                let bias = tensor_bits(&one(0.375))[0];
                assert_eq!(
                    tensor_bits(&y),
                    [bias, bias, bias, u64::MAX, u64::MAX],
                    "{what} layer_norm n=1 {dtype}"
                );
            }
            let (_, want) = norms(&xs, &w1, &b1, 1e-5, f64::from(f32::EPSILON));
            let y = k::rms_norm::launch(&x, &[1], Some(&w), None).unwrap();
            close_or_special(
                &y.to_vec().unwrap(),
                &want,
                1e-6,
                &format!("{what} rms_norm n=1"),
            );
            let (_, want) = norms(&xs, &w1, &b1, 1e-5, 0.25);
            let y = k::rms_norm::launch(&x, &[1], Some(&w), Some(0.25)).unwrap();
            close_or_special(
                &y.to_vec().unwrap(),
                &want,
                1e-6,
                &format!("{what} rms_norm n=1 eps 0.25"),
            );
            // a NaN in a row: that row all NaN, the others as the reference
            let n = 7;
            let mut xs = floats(4 * n, 61);
            xs[n + 3] = nan;
            let ws = floats(n, 62);
            let bs = floats(n, 63);
            let x = TensorT::from_slice(&dev, &xs, [4, n]).unwrap();
            let w = TensorT::from_slice(&dev, &ws, [n]).unwrap();
            let b = TensorT::from_slice(&dev, &bs, [n]).unwrap();
            let (ln, rms) = norms(&xs, &ws, &bs, 1e-5, f64::from(f32::EPSILON));
            assert!(ln[n..2 * n]
                .iter()
                .chain(&rms[n..2 * n])
                .all(|v| v.is_nan()));
            assert!(ln[..n].iter().chain(&ln[2 * n..]).all(|v| v.is_finite()));
            let y = k::layer_norm::launch(&x, &[n], Some(&w), Some(&b), 1e-5).unwrap();
            close_or_special(
                &y.to_vec().unwrap(),
                &ln,
                1e-5,
                &format!("{what} layer_norm NaN"),
            );
            let y = k::rms_norm::launch(&x, &[n], Some(&w), None).unwrap();
            close_or_special(
                &y.to_vec().unwrap(),
                &rms,
                1e-5,
                &format!("{what} rms_norm NaN"),
            );
            // a NaN in the weight or the bias: that column NaN in every row
            let mut wn = ws.clone();
            wn[2] = nan;
            let (ln, rms) = norms(&xs[..n], &wn, &bs, 1e-5, f64::from(f32::EPSILON));
            let x0 = x.narrow(0, 0, 1).unwrap();
            let wt = TensorT::from_slice(&dev, &wn, [n]).unwrap();
            let y = k::layer_norm::launch(&x0, &[n], Some(&wt), Some(&b), 1e-5).unwrap();
            close_or_special(
                &y.to_vec().unwrap(),
                &ln,
                1e-5,
                &format!("{what} layer_norm NaN weight"),
            );
            let y = k::rms_norm::launch(&x0, &[n], Some(&wt), None).unwrap();
            close_or_special(
                &y.to_vec().unwrap(),
                &rms,
                1e-5,
                &format!("{what} rms_norm NaN weight"),
            );
            // empty: no rows; rows of no element (normalized_shape [0])
            for (shape, norm) in [([0, 5], 5), ([3, 0], 0)] {
                let e = TensorT::<f32>::zeros(&dev, shape).unwrap();
                let w = TensorT::<f32>::zeros(&dev, [norm]).unwrap();
                let y = k::layer_norm::launch(&e, &[norm], Some(&w), Some(&w), 1e-5).unwrap();
                assert_eq!(y.shape(), shape, "{what} layer_norm {shape:?}");
                assert!(y.to_vec().unwrap().is_empty());
                let y = k::rms_norm::launch(&e, &[norm], Some(&w), None).unwrap();
                assert_eq!(y.shape(), shape, "{what} rms_norm {shape:?}");
                assert!(y.to_vec().unwrap().is_empty());
            }
            silt::__testing::reduce_as(None);
        }
    }
}

/// The bits of a float tensor's elements, of any float dtype, every NaN as
/// `u64::MAX`: the sign of a NaN that arithmetic makes is unspecified
/// (docs/semantics.md), and the scalar and vector forms of one loop may take
/// either operand's.
fn tensor_bits(t: &Tensor) -> Vec<u64> {
    match t.dtype() {
        DType::F16 => t
            .typed::<f16>()
            .unwrap()
            .to_vec()
            .unwrap()
            .iter()
            .map(|v| {
                if v.is_nan() {
                    u64::MAX
                } else {
                    u64::from(v.to_bits())
                }
            })
            .collect(),
        DType::F32 => t
            .typed::<f32>()
            .unwrap()
            .to_vec()
            .unwrap()
            .iter()
            .map(|v| {
                if v.is_nan() {
                    u64::MAX
                } else {
                    u64::from(v.to_bits())
                }
            })
            .collect(),
        _ => t
            .typed::<f64>()
            .unwrap()
            .to_vec()
            .unwrap()
            .iter()
            .map(|v| if v.is_nan() { u64::MAX } else { v.to_bits() })
            .collect(),
    }
}

/// `xs` as a tensor of `dtype` (`f16`, `f32` or `f64`) of `shape`.
fn float_tensor(dev: &Device, xs: &[f32], dtype: DType, shape: [usize; 2]) -> Tensor {
    match dtype {
        DType::F16 => {
            let h: Vec<f16> = xs.iter().map(|&v| f16::from_f32(v)).collect();
            TensorT::from_slice(dev, &h, shape).unwrap().into()
        }
        DType::F32 => TensorT::from_slice(dev, xs, shape).unwrap().into(),
        _ => {
            let d: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
            TensorT::from_slice(dev, &d, shape).unwrap().into()
        }
    }
}

#[test]
fn row_wise_operations_give_the_same_bits_in_every_form() {
    use silt::__testing::reduce_as;
    // rows around the 128 lanes and past the 4,096 a work-group keeps, rows
    // with a NaN, of -inf, of signed zeros and of huge values
    let mut cases: Vec<(usize, usize, Vec<f32>)> = [(3, 1), (2, 5), (2, 127), (3, 129), (1, 4100)]
        .iter()
        .enumerate()
        .map(|(s, &(rows, n))| (rows, n, floats(rows * n, 40 + s as u64)))
        .collect();
    let mut odd = floats(4 * 130, 50);
    odd[3] = f32::NAN;
    odd[130..260].fill(f32::NEG_INFINITY);
    for (i, v) in odd[260..390].iter_mut().enumerate() {
        *v = if i % 3 == 0 { -0.0 } else { 0.0 };
    }
    for v in &mut odd[390..] {
        *v *= 3e37;
    }
    cases.push((4, 130, odd));
    for dev in common::devices() {
        for dtype in [DType::F32, DType::F64, DType::F16] {
            for (rows, n, xs) in &cases {
                // the row past 4,096 in f32 only (Oclgrind runs this test)
                if *n > 4096 && dtype != DType::F32 {
                    continue;
                }
                let x = float_tensor(&dev, xs, dtype, [*rows, *n]);
                // the same values down the columns: rows of stride `rows`
                let xt = x.transpose(0, 1).unwrap().contiguous().unwrap();
                let w = x.narrow(0, 0, 1).unwrap().reshape([*n]).unwrap();
                let b = x.narrow(0, rows - 1, 1).unwrap().reshape([*n]).unwrap();
                let mut results: Vec<Vec<Vec<u64>>> = Vec::new();
                // the device's own way (on the host, plain Rust), then a
                // work-group a row and a work-item a row where that is not
                // the device's own (which would run it twice: a minute on
                // Oclgrind)
                let kinds: Vec<Option<DeviceKind>> = match dev.info().kind {
                    DeviceKind::Host => vec![None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)],
                    DeviceKind::Cpu => vec![None, Some(DeviceKind::Gpu)],
                    _ => vec![None, Some(DeviceKind::Cpu)],
                };
                for &kind in &kinds {
                    reduce_as(kind);
                    let got = [
                        k::softmax::dispatch(&x, -1).unwrap(),
                        k::log_softmax::dispatch(&x, 1).unwrap(),
                        k::softmax::dispatch(&xt, 0).unwrap(),
                        k::layer_norm::dispatch(&x, &[*n], Some(&w), Some(&b), 1e-5).unwrap(),
                        k::rms_norm::dispatch(&x, &[*n], Some(&w), None).unwrap(),
                        k::layer_norm::dispatch(&x, &[*rows, *n], None, None, 0.0).unwrap(),
                    ];
                    reduce_as(None);
                    results.push(got.iter().map(tensor_bits).collect());
                }
                for (form, other) in results.iter().enumerate().skip(1) {
                    for (op, (g, c)) in results[0].iter().zip(other).enumerate() {
                        assert_eq!(
                            g, c,
                            "{dev} {dtype} {rows}x{n}: operation {op}, form {:?}",
                            kinds[form]
                        );
                    }
                }
            }
        }
    }
}

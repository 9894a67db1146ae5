//! The library's reductions and scans against independent references (plain
//! Rust in f64, or exact integers), on every device, with the device's result
//! equal to the host backend's.

#![allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)] // test data

mod harness;

use silt::prelude::*;
use silt::{f16, Axes, DType, DeviceKind};
use silt_kernels as k;

const ROWS: usize = 3;
const LEN: usize = 5000;

/// Deterministic values in [-10, 10) with zeros.
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = harness::common::Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            if s.is_multiple_of(13) {
                0.0
            } else {
                (s % 20_000) as f64 / 1000.0 - 10.0
            }
        })
        .collect()
}

fn rows(v: &[f64]) -> impl Iterator<Item = &[f64]> {
    v.chunks(LEN)
}

/// `|got - want| <= tol * scale` for every pair.
fn close(got: &[f64], want: &[f64], scale: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, ((g, w), s)) in got.iter().zip(want).zip(scale).enumerate() {
        assert!(
            (g - w).abs() <= tol * s.max(f64::MIN_POSITIVE) || (g.is_nan() && w.is_nan()),
            "{what}[{i}]: {g} vs {w} (scale {s})"
        );
    }
}

/// Runs `f` on the host and on the OpenCL device, asserts the same bits, and
/// returns the host's result.
fn same_on_every_device<T: std::fmt::Debug>(f: impl Fn(&Device) -> Vec<T>) -> Vec<T> {
    let devs = harness::common::devices();
    let host = f(&devs[0]);
    for d in &devs[1..] {
        let got = f(d);
        assert_eq!(format!("{got:?}"), format!("{host:?}"), "{d} vs host");
    }
    host
}

#[test]
fn sums_products_and_means_of_floats() {
    let data = values(ROWS * LEN, 1);
    let f32s: Vec<f32> = data.iter().map(|&v| v as f32).collect();
    let x64: Vec<f64> = f32s.iter().map(|&v| f64::from(v)).collect();
    let sum = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &f32s, [ROWS, LEN]).unwrap();
        k::sum::launch(&x, Axes::of([1])).unwrap().to_vec().unwrap()
    });
    let want: Vec<f64> = rows(&x64).map(|r| r.iter().sum()).collect();
    let scale: Vec<f64> = rows(&x64)
        .map(|r| r.iter().map(|v| v.abs()).sum())
        .collect();
    // silt's order: at most (64 + log2(len / 64)) roundings on any path
    let bound = (64.0 + (LEN as f64 / 64.0).log2()) * f64::from(f32::EPSILON);
    close(
        &sum.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(),
        &want,
        &scale,
        bound,
        "sum f32",
    );
    let mean = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &f32s, [ROWS, LEN]).unwrap();
        k::mean::launch(&x, Axes::of([-1]))
            .unwrap()
            .to_vec()
            .unwrap()
    });
    let want_mean: Vec<f64> = want.iter().map(|s| s / LEN as f64).collect();
    let scale_mean: Vec<f64> = scale.iter().map(|s| s / LEN as f64).collect();
    close(
        &mean.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(),
        &want_mean,
        &scale_mean,
        bound + f64::from(f32::EPSILON),
        "mean f32",
    );
    // a product of values near 1
    let near1: Vec<f64> = data.iter().map(|v| 1.0 + v / 1e4).collect();
    let prod = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &near1, [ROWS, LEN]).unwrap();
        k::prod::launch(&x, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap()
    });
    let want_prod: Vec<f64> = rows(&near1).map(|r| r.iter().product()).collect();
    close(
        &prod,
        &want_prod,
        &want_prod.iter().map(|v| v.abs()).collect::<Vec<_>>(),
        1e-12,
        "prod f64",
    );
    // f16 sums accumulate in f32 and round once
    let halves: Vec<f16> = data.iter().map(|&v| f16::from_f64(v / 100.0)).collect();
    let hsum = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &halves, [ROWS * LEN]).unwrap();
        k::sum::launch(&x, Axes::all()).unwrap().to_vec().unwrap()
    });
    let exact: f64 = halves.iter().map(|h| h.to_f64()).sum();
    assert!(
        (hsum[0].to_f64() - exact).abs() <= exact.abs() * 2f64.powi(-10) + 1e-3,
        "{} vs {exact}",
        hsum[0]
    );
}

#[test]
fn integer_sums_widen_as_pytorch() {
    let data: Vec<i8> = values(ROWS * LEN, 2)
        .iter()
        .map(|v| (v * 12.0) as i8)
        .collect();
    let sum = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &data, [ROWS, LEN]).unwrap();
        let s: TensorT<i64> = k::sum::launch(&x, Axes::of([1])).unwrap();
        s.to_vec().unwrap()
    });
    let want: Vec<i64> = data
        .chunks(LEN)
        .map(|r| r.iter().map(|&v| i64::from(v)).sum())
        .collect();
    assert_eq!(sum, want);
    let bools: Vec<bool> = data.iter().map(|&v| v > 0).collect();
    let count = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &bools, [ROWS, LEN]).unwrap();
        k::count_nonzero::launch(&x, Axes::all())
            .unwrap()
            .to_vec()
            .unwrap()
    });
    assert_eq!(count, [bools.iter().filter(|&&b| b).count() as i64]);
    let big: Vec<u64> = (0..100u64).map(|i| u64::MAX / 100 + i).collect();
    let s = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &big, [100]).unwrap();
        k::sum::launch(&x, Axes::all()).unwrap().to_vec().unwrap()
    });
    assert_eq!(s, [big.iter().fold(0u64, |a, &b| a.wrapping_add(b))]);
}

#[test]
fn extremes_and_their_indices_with_nan_and_ties() {
    let mut data: Vec<f32> = values(ROWS * LEN, 3).iter().map(|&v| v as f32).collect();
    // row 0: a tie for the largest value; row 1: two NaNs; row 2: plain
    data[100] = 50.0;
    data[4000] = 50.0;
    data[LEN + 3000] = f32::NAN;
    data[LEN + 4000] = f32::NAN;
    let got = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &data, [ROWS, LEN]).unwrap();
        let amax = k::amax::launch(&x, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap();
        let amin = k::amin::launch(&x, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap();
        let argmax = k::argmax::launch(&x, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap();
        let argmin = k::argmin::launch(&x, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap();
        vec![format!("{amax:?} {amin:?} {argmax:?} {argmin:?}")]
    });
    let (mut amax, mut amin, mut argmax, mut argmin) = (vec![], vec![], vec![], vec![]);
    for r in data.chunks(LEN) {
        let first_nan = r.iter().position(|v| v.is_nan());
        let mx = r.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mn = r.iter().copied().fold(f32::INFINITY, f32::min);
        amax.push(if first_nan.is_some() { f32::NAN } else { mx });
        amin.push(if first_nan.is_some() { f32::NAN } else { mn });
        argmax.push(first_nan.unwrap_or_else(|| r.iter().position(|&v| v == mx).unwrap()) as i64);
        argmin.push(first_nan.unwrap_or_else(|| r.iter().position(|&v| v == mn).unwrap()) as i64);
    }
    assert_eq!(got, [format!("{amax:?} {amin:?} {argmax:?} {argmin:?}")]);
    assert_eq!(argmax[0], 100);
    assert_eq!(argmax[1], 3000);
    // no identity: an empty reduction is an error
    let dev = Device::host();
    let empty = TensorT::<f32>::zeros(&dev, [2, 0]).unwrap();
    assert!(matches!(
        k::amax::launch(&empty, Axes::of([1])),
        Err(Error::EmptyReduction { .. })
    ));
    assert!(matches!(
        k::argmin::launch(&empty, Axes::all()),
        Err(Error::EmptyReduction { .. })
    ));
    assert_eq!(
        k::sum::launch(&empty, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap(),
        [0.0, 0.0]
    );
}

/// A variance over an infinity is NaN (PyTorch's Welford step: `inf * (inf -
/// inf)`), wherever the infinity stands, one element alone included; the
/// others' stay finite.
#[test]
fn variance_over_an_infinity_is_nan() {
    let inf = f64::INFINITY;
    for (row, correction) in [
        (vec![inf, 1.0], 1.0),
        (vec![1.0, 2.0, inf], 1.0),
        (vec![inf, 1.0, 2.0], 1.0),
        (vec![-inf, 1.0, 2.0, 3.0, 4.0], 0.0),
        (vec![inf], 0.0),
        (vec![-inf, -inf], 1.0),
    ] {
        let n = row.len();
        // the row, then a finite row of the same length: [2, n]
        let data: Vec<f64> = row
            .iter()
            .copied()
            .chain((0..n).map(|i| i as f64))
            .collect();
        let got = same_on_every_device(|d| {
            let x64 = TensorT::from_slice(d, &data, [2, n]).unwrap();
            let x32 = TensorT::from_slice(
                d,
                &data.iter().map(|&v| v as f32).collect::<Vec<_>>(),
                [2, n],
            )
            .unwrap();
            let x16 = TensorT::from_slice(
                d,
                &data.iter().map(|&v| f16::from_f64(v)).collect::<Vec<_>>(),
                [2, n],
            )
            .unwrap();
            let mut out = k::var::launch(&x64, correction, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap();
            out.extend(
                k::std::launch(&x64, correction, Axes::of([1]))
                    .unwrap()
                    .to_vec()
                    .unwrap(),
            );
            let v32 = k::var::launch(&x32, correction, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap();
            out.extend(v32.iter().map(|&v| f64::from(v)));
            let v16 = k::var::launch(&x16, correction, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap();
            out.extend(v16.iter().map(|v| v.to_f64()));
            out
        });
        for (k, pair) in got.chunks(2).enumerate() {
            assert!(pair[0].is_nan(), "{row:?}, result {k}: {got:?}");
            assert!(pair[1].is_finite(), "{row:?}, result {k}: {got:?}");
        }
    }
}

#[test]
fn variance_norms_and_logsumexp() {
    let data = values(ROWS * LEN, 4);
    let x64: Vec<f64> = data.iter().map(|v| v + 1000.0).collect(); // a large mean
    let var = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &x64, [ROWS, LEN]).unwrap();
        k::var::launch(&x, 1.0, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap()
    });
    let want: Vec<f64> = rows(&x64)
        .map(|r| {
            let m = r.iter().sum::<f64>() / r.len() as f64;
            r.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (r.len() - 1) as f64
        })
        .collect();
    close(&var, &want, &want, 1e-12, "var f64");
    let std = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &x64, [ROWS, LEN]).unwrap();
        k::std::launch(&x, 0.0, Axes::all())
            .unwrap()
            .to_vec()
            .unwrap()
    });
    let m = x64.iter().sum::<f64>() / x64.len() as f64;
    let want_std = (x64.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / x64.len() as f64).sqrt();
    close(&std, &[want_std], &[want_std], 1e-12, "std f64");
    let x32: Vec<f32> = data.iter().map(|&v| v as f32).collect();
    for p in [1.0, 2.0, f64::INFINITY] {
        let norm = same_on_every_device(|d| {
            let x = TensorT::from_slice(d, &x32, [ROWS, LEN]).unwrap();
            k::norm::launch(&x, p, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap()
        });
        let want: Vec<f64> = x32
            .chunks(LEN)
            .map(|r| {
                let a = r.iter().map(|&v| f64::from(v).abs());
                match p {
                    1.0 => a.sum(),
                    2.0 => a.map(|v| v * v).sum::<f64>().sqrt(),
                    _ => a.fold(0.0, f64::max),
                }
            })
            .collect();
        close(
            &norm.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(),
            &want,
            &want,
            2e-5,
            "norm",
        );
    }
    let dev = Device::host();
    let x = TensorT::from_slice(&dev, &x32, [ROWS, LEN]).unwrap();
    assert!(matches!(
        k::norm::launch(&x, 3.0, Axes::all()),
        Err(Error::InvalidArgument { .. })
    ));
    // the infinity norm has no identity: an error over no elements, on every
    // device, while the 1- and 2-norms of nothing are 0
    for d in harness::common::devices() {
        let empty = TensorT::<f32>::zeros(&d, [2, 0]).unwrap();
        assert!(
            matches!(
                k::norm::launch(&empty, f64::INFINITY, Axes::of([1])),
                Err(Error::EmptyReduction { .. })
            ),
            "{d}"
        );
        for p in [1.0, 2.0] {
            let n = k::norm::launch(&empty, p, Axes::of([1])).unwrap();
            assert_eq!(n.to_vec().unwrap(), [0.0, 0.0], "{d} {p}");
        }
        // an empty set of rows is no error
        let t = empty.transpose(0, 1).unwrap();
        let n = k::norm::launch(&t, f64::INFINITY, Axes::of([1])).unwrap();
        assert_eq!(n.shape(), [0]);
    }
    // logsumexp of large inputs does not overflow
    let big: Vec<f64> = data.iter().map(|v| v * 100.0 + 700.0).collect();
    let lse = k::logsumexp::launch(
        &TensorT::from_slice(&dev, &big, [ROWS, LEN]).unwrap(),
        Axes::of([1]),
    )
    .unwrap()
    .to_vec()
    .unwrap();
    let want: Vec<f64> = rows(&big)
        .map(|r| {
            let m = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            m + r.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
        })
        .collect();
    close(&lse, &want, &want, 1e-13, "logsumexp f64");
    assert!(lse.iter().all(|v| v.is_finite()));
}

#[test]
fn softmax_rows_sum_to_one() {
    let data: Vec<f32> = values(ROWS * LEN, 5)
        .iter()
        .map(|&v| (v * 3.0) as f32)
        .collect();
    for dev in harness::common::devices() {
        let x = TensorT::from_slice(&dev, &data, [ROWS, LEN]).unwrap();
        let p = k::softmax::launch(&x, -1).unwrap().to_vec().unwrap();
        let lp = k::log_softmax::launch(&x, 1).unwrap().to_vec().unwrap();
        for (r, (row, lrow)) in p.chunks(LEN).zip(lp.chunks(LEN)).enumerate() {
            let s: f64 = row.iter().map(|&v| f64::from(v)).sum();
            // each term within a few ulps; their sum within len ulps of 1
            assert!((s - 1.0).abs() < 1e-4, "{dev} row {r}: {s}");
            for (a, b) in row.iter().zip(lrow) {
                assert!(
                    (f64::from(*a) - f64::from(*b).exp()).abs() < 1e-6,
                    "{a} vs exp({b})"
                );
            }
        }
        // softmax over axis 0 of the same data sums to 1 down the columns
        let q = k::softmax::launch(&x, 0).unwrap().to_vec().unwrap();
        for c in 0..LEN {
            let s: f64 = (0..ROWS).map(|r| f64::from(q[r * LEN + c])).sum();
            assert!((s - 1.0).abs() < 1e-5, "{dev} column {c}: {s}");
        }
    }
}

#[test]
fn scans_against_running_folds() {
    let data: Vec<i32> = values(ROWS * LEN, 6)
        .iter()
        .map(|v| (v * 100.0) as i32)
        .collect();
    let got = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &data, [ROWS, LEN]).unwrap();
        let (mv, mi) = k::cummax::launch(&x, 1).unwrap();
        let (nv, ni) = k::cummin::launch(&x, 1).unwrap();
        vec![format!(
            "{:?} {:?} {:?} {:?} {:?}",
            k::cumsum::launch(&x, 1).unwrap().to_vec().unwrap(),
            mv.to_vec().unwrap(),
            mi.to_vec().unwrap(),
            nv.to_vec().unwrap(),
            ni.to_vec().unwrap()
        )]
    });
    let (mut cs, mut mv, mut mi, mut nv, mut ni) = (vec![], vec![], vec![], vec![], vec![]);
    for r in data.chunks(LEN) {
        let (mut s, mut hi, mut lo) = (0i64, (i32::MIN, -1i64), (i32::MAX, -1i64));
        for (k, &v) in r.iter().enumerate() {
            s += i64::from(v);
            if v >= hi.0 {
                hi = (v, k as i64);
            }
            if v <= lo.0 {
                lo = (v, k as i64);
            }
            cs.push(s);
            mv.push(hi.0);
            mi.push(hi.1);
            nv.push(lo.0);
            ni.push(lo.1);
        }
    }
    assert_eq!(got, [format!("{cs:?} {mv:?} {mi:?} {nv:?} {ni:?}")]);
    // cumprod of floats near 1
    let near1: Vec<f64> = values(LEN, 7).iter().map(|v| 1.0 + v / 1e5).collect();
    let p = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &near1, [LEN]).unwrap();
        k::cumprod::launch(&x, 0).unwrap().to_vec().unwrap()
    });
    let mut acc = 1.0;
    for (k, (&v, &g)) in near1.iter().zip(&p).enumerate() {
        acc *= v;
        assert!((g - acc).abs() <= acc * 1e-12, "cumprod[{k}]: {g} vs {acc}");
    }
}

#[test]
fn logic_reductions() {
    let data = [0.0f32, 1.0, f32::NAN, -2.0, 0.0, 0.0];
    let got = same_on_every_device(|d| {
        let x = TensorT::from_slice(d, &data, [2, 3]).unwrap();
        let all = k::all::launch(&x, Axes::of([1])).unwrap().to_vec().unwrap();
        let any = k::any::launch(&x, Axes::of([1])).unwrap().to_vec().unwrap();
        vec![all, any]
    });
    // NaN is nonzero, as in PyTorch
    assert_eq!(got, [vec![false, false], vec![true, true]]);
}

/// `ln(sum(exp(x[..=i])))` in f64, one step at a time, as a reference.
fn running_logsumexp(row: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(row.len());
    let mut acc = f64::NEG_INFINITY;
    for &v in row {
        acc = if acc.is_nan() || v.is_nan() {
            f64::NAN
        } else if acc == v {
            acc + std::f64::consts::LN_2
        } else {
            acc.max(v) + (-(acc - v).abs()).exp().ln_1p()
        };
        out.push(acc);
    }
    out
}

#[test]
fn logcumsumexp_against_a_running_reference() {
    // long rows of ordinary values, within a few ULPs per step of the f64 reference
    let data: Vec<f64> = values(ROWS * LEN, 8);
    for dev in harness::common::devices() {
        let x = TensorT::from_slice(&dev, &data, [ROWS, LEN]).unwrap();
        let got = k::logcumsumexp::launch(&x, 1).unwrap().to_vec().unwrap();
        let want: Vec<f64> = data.chunks(LEN).flat_map(running_logsumexp).collect();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                "{dev} at {i}: {g} vs {w}"
            );
        }
        // f32 along axis 0, and f16 through f32
        let x32: Vec<f32> = data[..LEN].iter().map(|&v| v as f32).collect();
        let t = TensorT::from_slice(&dev, &x32, [LEN, 1]).unwrap();
        let got = k::logcumsumexp::launch(&t, 0).unwrap().to_vec().unwrap();
        let want = running_logsumexp(&x32.iter().map(|&v| f64::from(v)).collect::<Vec<_>>());
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (f64::from(*g) - w).abs() <= 1e-4 * w.abs().max(1.0),
                "{dev} f32: {g} vs {w}"
            );
        }
        let h: Vec<f16> = [0.5f32, -1.0, 3.0]
            .iter()
            .map(|&v| f16::from_f32(v))
            .collect();
        let got = k::logcumsumexp::dispatch(&Tensor::from_slice(&dev, &h, [3]).unwrap(), 0)
            .unwrap()
            .to_vec::<f16>()
            .unwrap();
        let want = running_logsumexp(&[0.5, -1.0, 3.0]);
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (f64::from(g.to_f32()) - w).abs() < 2e-3,
                "{dev} f16: {g} vs {w}"
            );
        }
    }
    // the special values: no overflow far from 0, -inf as nothing, NaN onward
    let special = [
        -1000.0,
        0.0,
        f64::NEG_INFINITY,
        1000.0,
        1000.0,
        f64::INFINITY,
        5.0,
        f64::NAN,
        1.0,
    ];
    let want = [
        -1000.0,
        0.0,
        0.0,
        1000.0,
        1000.0 + std::f64::consts::LN_2,
        f64::INFINITY,
        f64::INFINITY,
        f64::NAN,
        f64::NAN,
    ];
    let all_neg = [f64::NEG_INFINITY; 2];
    for dev in harness::common::devices() {
        let x = TensorT::from_slice(&dev, &special, [special.len()]).unwrap();
        let got = k::logcumsumexp::launch(&x, 0).unwrap().to_vec().unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert!(
                g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() < 1e-12,
                "{dev}: {got:?}"
            );
        }
        // the same row in f32 and f16 (each step in f32): the same specials
        let x32: Vec<f32> = special.iter().map(|&v| v as f32).collect();
        let got =
            k::logcumsumexp::launch(&TensorT::from_slice(&dev, &x32, [x32.len()]).unwrap(), 0)
                .unwrap()
                .to_vec()
                .unwrap();
        let x16: Vec<f16> = x32.iter().map(|&v| f16::from_f32(v)).collect();
        let got16 =
            k::logcumsumexp::dispatch(&Tensor::from_slice(&dev, &x16, [x16.len()]).unwrap(), 0)
                .unwrap()
                .to_vec::<f16>()
                .unwrap();
        for ((g, h), w) in got.iter().zip(&got16).zip(&want) {
            let w32 = *w as f32;
            assert!(
                *g == w32 || (g.is_nan() && w.is_nan()),
                "{dev} f32: {got:?}"
            );
            let w16 = f16::from_f32(w32).to_f32();
            assert!(
                h.to_f32() == w16 || (h.is_nan() && w.is_nan()),
                "{dev} f16: {got16:?}"
            );
        }
        let x = TensorT::from_slice(&dev, &all_neg, [2]).unwrap();
        assert_eq!(
            k::logcumsumexp::launch(&x, 0).unwrap().to_vec().unwrap(),
            all_neg,
            "{dev}"
        );
        let e = TensorT::<f32>::zeros(&dev, [0, 3]).unwrap();
        assert_eq!(k::logcumsumexp::launch(&e, 0).unwrap().shape(), [0, 3]);
        let ints = Tensor::from_slice(&dev, &[1i32, 2], [2]).unwrap();
        assert!(matches!(
            k::logcumsumexp::dispatch(&ints, 0),
            Err(Error::UnsupportedDType { .. })
        ));
    }
}

/// Applies `f` to each line of row-major `x` of `shape` along `d` and puts
/// its results back in their places (a 0-d tensor is one line of one).
fn along<T: Copy, U: Copy + Default>(
    x: &[T],
    shape: &[usize],
    d: usize,
    f: impl Fn(&[T]) -> Vec<U>,
) -> Vec<U> {
    if shape.is_empty() {
        return f(x);
    }
    let n = shape[d];
    let inner: usize = shape[d + 1..].iter().product();
    let outer: usize = shape[..d].iter().product();
    let mut out = vec![U::default(); x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |p: usize| o * n * inner + p * inner + i;
            let line: Vec<T> = (0..n).map(|p| x[at(p)]).collect();
            for (p, v) in f(&line).into_iter().enumerate() {
                out[at(p)] = v;
            }
        }
    }
    out
}

/// PyTorch's `cummax` (`ge`: `>=`) or `cummin` (`<=`) of one line, its CPU
/// loop (`cummax_cummin_helper`): an element replaces the running one when
/// it is NaN or, the running one not NaN, when `ge(x, running)` (so a tie
/// takes the later index, and a NaN stays, with the index of the latest).
fn torch_cumext<T: Copy + PartialOrd>(line: &[T], ge: fn(&T, &T) -> bool) -> Vec<(T, i64)> {
    #[allow(clippy::eq_op)]
    let nan = |v: &T| v != v;
    let mut out = Vec::with_capacity(line.len());
    let Some(&first) = line.first() else {
        return out;
    };
    let (mut m, mut idx) = (first, 0i64);
    for (i, x) in line.iter().enumerate() {
        if nan(x) || (!nan(&m) && ge(x, &m)) {
            m = *x;
            idx = i as i64;
        }
        out.push((m, idx));
    }
    out
}

/// The bits of floats, every NaN alike (the sign and payload of a NaN that
/// arithmetic makes is unspecified).
fn nan_bits(v: &[f32]) -> Vec<u32> {
    v.iter()
        .map(|v| if v.is_nan() { u32::MAX } else { v.to_bits() })
        .collect()
}

/// The scans on their edge cases against PyTorch's definitions, on every
/// device and, on the OpenCL device, in a CPU's and a GPU's way: empty
/// tensors along each axis, one element, a 0-d tensor, NaNs in the middle
/// (they propagate; `cummax`/`cummin` give the latest NaN's index), ties
/// (the later index, `-0.0` and `0.0` included, with the tying element's
/// bits), infinities at the start (not lost to an identity), a line across
/// segments and chunks, and a bad axis as an error. Small sizes: CI runs it
/// on Oclgrind.
#[test]
fn scan_edge_cases_as_pytorch() {
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    // rows: NaNs in the middle; ties; infinities first; signed zeros
    #[rustfmt::skip]
    let grid: [f32; 24] = [
        1.0, 3.0, nan, 5.0, 3.0, nan,
        2.0, 1.0, 2.0, 3.0, 3.0, 0.0,
        -inf, -inf, -2.0, inf, inf, -1.0,
        0.0, -0.0, 0.0, -0.0, 4.0, 4.0,
    ];
    // a line across segments of 16 and a chunk of 1,024: ties of the
    // maximum and minimum in different segments and chunks, a NaN after
    let mut long: Vec<f32> = (0..1100).map(|i| ((i * 37) % 23) as f32 - 11.0).collect();
    long[5] = 50.0;
    long[20] = 50.0;
    long[1030] = 50.0;
    long[7] = -50.0;
    long[1029] = -50.0;
    long[1060] = nan;
    let cases: Vec<(Vec<f32>, Vec<usize>)> = vec![
        (vec![], vec![0]),
        (vec![], vec![3, 0]),
        (vec![], vec![0, 3]),
        (vec![-7.5], vec![1]),
        (vec![nan], vec![1]),
        (vec![-inf], vec![1, 1]),
        (vec![2.5], vec![]),
        (grid.to_vec(), vec![4, 6]),
        (long.clone(), vec![1100]),
    ];
    let ge: fn(&f32, &f32) -> bool = |a, b| a >= b;
    let le: fn(&f32, &f32) -> bool = |a, b| a <= b;
    for dev in harness::common::devices() {
        let kinds = if dev.is_host() {
            vec![None]
        } else {
            vec![Some(DeviceKind::Cpu), Some(DeviceKind::Gpu)]
        };
        for kind in kinds {
            silt::__testing::reduce_as(kind);
            for (x, shape) in &cases {
                let t = TensorT::from_slice(&dev, x, shape.as_slice()).unwrap();
                for d in 0..shape.len().max(1) {
                    // a negative axis for the last
                    let axis = if d + 1 == shape.len() { -1 } else { d as isize };
                    let what = format!("{shape:?} along {axis} on {dev} as {kind:?}");
                    let sum = k::cumsum::launch(&t, axis).unwrap();
                    let prod = k::cumprod::launch(&t, axis).unwrap();
                    let lse = k::logcumsumexp::launch(&t, axis).unwrap();
                    let (mv, mi) = k::cummax::launch(&t, axis).unwrap();
                    let (nv, ni) = k::cummin::launch(&t, axis).unwrap();
                    for r in [&sum, &prod, &lse, &mv, &nv] {
                        assert_eq!(r.shape(), shape.as_slice(), "{what}");
                    }
                    assert_eq!(mi.shape(), shape.as_slice(), "{what}");
                    assert_eq!(ni.shape(), shape.as_slice(), "{what}");
                    // the sums and products of these values are exact in f32
                    // in any order: a running f64 fold rounded is the result
                    let run = |line: &[f32], f: fn(f64, f64) -> f64, e: f64| {
                        let mut acc = e;
                        line.iter()
                            .map(|&v| {
                                acc = f(acc, f64::from(v));
                                acc as f32
                            })
                            .collect::<Vec<f32>>()
                    };
                    let want = along(x, shape, d, |l| run(l, |a, b| a + b, 0.0));
                    assert_eq!(
                        nan_bits(&sum.to_vec().unwrap()),
                        nan_bits(&want),
                        "cumsum {what}"
                    );
                    let want = along(x, shape, d, |l| run(l, |a, b| a * b, 1.0));
                    assert_eq!(
                        nan_bits(&prod.to_vec().unwrap()),
                        nan_bits(&want),
                        "cumprod {what}"
                    );
                    let want = along(x, shape, d, |l| {
                        running_logsumexp(&l.iter().map(|&v| f64::from(v)).collect::<Vec<_>>())
                    });
                    for (g, w) in lse.to_vec().unwrap().iter().zip(&want) {
                        assert!(
                            (g.is_nan() && w.is_nan())
                                || f64::from(*g) == *w
                                || (f64::from(*g) - w).abs() <= 1e-6 * w.abs().max(1.0),
                            "logcumsumexp {what}: {g} vs {w}"
                        );
                    }
                    // cummax and cummin select an element: its very bits
                    for (name, (v, i), f) in
                        [("cummax", (&mv, &mi), ge), ("cummin", (&nv, &ni), le)]
                    {
                        let want = along(x, shape, d, |l| torch_cumext(l, f));
                        let wv: Vec<f32> = want.iter().map(|p| p.0).collect();
                        let wi: Vec<i64> = want.iter().map(|p| p.1).collect();
                        let gv: Vec<u32> =
                            v.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
                        let wv: Vec<u32> = wv.iter().map(|v| v.to_bits()).collect();
                        assert_eq!(gv, wv, "{name} values {what}");
                        assert_eq!(i.to_vec().unwrap(), wi, "{name} indices {what}");
                    }
                }
            }
            // f64 and f16 (which sums in f32, rounding each result once):
            // the grid's results, exact in both, along each axis; 0-d and
            // empty
            let as_f64 = |t: &Tensor| -> Vec<u64> {
                let v: Vec<f64> = match t.dtype() {
                    DType::F16 => t
                        .to_vec::<f16>()
                        .unwrap()
                        .iter()
                        .map(|v| f64::from(v.to_f32()))
                        .collect(),
                    _ => t.to_vec::<f64>().unwrap(),
                };
                v.iter()
                    .map(|v| if v.is_nan() { u64::MAX } else { v.to_bits() })
                    .collect()
            };
            let of_f32 = |v: &[f32]| -> Vec<u64> {
                v.iter()
                    .map(|&v| {
                        if v.is_nan() {
                            u64::MAX
                        } else {
                            f64::from(v).to_bits()
                        }
                    })
                    .collect()
            };
            for dtype in [DType::F64, DType::F16] {
                for (x, shape) in [
                    (&grid[..], &[4usize, 6][..]),
                    (&grid[..1], &[]),
                    (&[], &[3, 0]),
                ] {
                    let t = match dtype {
                        DType::F16 => {
                            let h: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
                            Tensor::from_slice(&dev, &h, shape).unwrap()
                        }
                        _ => {
                            let d: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
                            Tensor::from_slice(&dev, &d, shape).unwrap()
                        }
                    };
                    for d in 0..shape.len().max(1) {
                        let what = format!("{dtype} {shape:?} along {d} on {dev} as {kind:?}");
                        let axis = d as isize;
                        let run = |line: &[f32], f: fn(f64, f64) -> f64, e: f64| {
                            let mut acc = e;
                            line.iter()
                                .map(|&v| {
                                    acc = f(acc, f64::from(v));
                                    acc as f32
                                })
                                .collect::<Vec<f32>>()
                        };
                        let got = k::cumsum::dispatch(&t, axis).unwrap();
                        assert_eq!(got.dtype(), dtype, "{what}");
                        let want = along(x, shape, d, |l| run(l, |a, b| a + b, 0.0));
                        assert_eq!(as_f64(&got), of_f32(&want), "cumsum {what}");
                        let got = k::cumprod::dispatch(&t, axis).unwrap();
                        let want = along(x, shape, d, |l| run(l, |a, b| a * b, 1.0));
                        assert_eq!(as_f64(&got), of_f32(&want), "cumprod {what}");
                        for (name, f) in [("cummax", ge), ("cummin", le)] {
                            let (v, i) = if name == "cummax" {
                                k::cummax::dispatch(&t, axis)
                            } else {
                                k::cummin::dispatch(&t, axis)
                            }
                            .unwrap();
                            let want = along(x, shape, d, |l| torch_cumext(l, f));
                            let wv: Vec<f32> = want.iter().map(|p| p.0).collect();
                            let wi: Vec<i64> = want.iter().map(|p| p.1).collect();
                            assert_eq!(as_f64(&v), of_f32(&wv), "{name} values {what}");
                            assert_eq!(i.to_vec::<i64>().unwrap(), wi, "{name} indices {what}");
                        }
                    }
                }
            }
            // integers: extremes tied at the start, cumsum widening to i64
            let xi = [i32::MIN, i32::MIN, 7, 7, i32::MAX, -3, i32::MAX];
            let t = TensorT::from_slice(&dev, &xi, [7]).unwrap();
            let ext = [
                (
                    k::cummax::launch(&t, 0).unwrap(),
                    torch_cumext(&xi, |a, b| a >= b),
                ),
                (
                    k::cummin::launch(&t, 0).unwrap(),
                    torch_cumext(&xi, |a, b| a <= b),
                ),
            ];
            for ((v, i), want) in ext {
                let (wv, wi): (Vec<i32>, Vec<i64>) = want.into_iter().unzip();
                assert_eq!(v.to_vec().unwrap(), wv, "{dev}");
                assert_eq!(i.to_vec().unwrap(), wi, "{dev}");
            }
            let mut acc = 0i64;
            let wsum: Vec<i64> = xi
                .iter()
                .map(|&v| {
                    acc += i64::from(v);
                    acc
                })
                .collect();
            assert_eq!(
                k::cumsum::launch(&t, 0).unwrap().to_vec().unwrap(),
                wsum,
                "{dev}"
            );
            // f16: -inf and +inf first, a NaN after
            let xh: Vec<f16> = [-inf, -inf, 1.0, nan, 2.0]
                .iter()
                .map(|&v| f16::from_f32(v))
                .collect();
            let th = Tensor::from_slice(&dev, &xh, [5]).unwrap();
            let neg: Vec<f16> = xh.iter().map(|&v| -v).collect();
            let tn = Tensor::from_slice(&dev, &neg, [5]).unwrap();
            let hb = |v: Vec<f16>| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            let ext = [
                (
                    k::cummax::dispatch(&th, 0).unwrap(),
                    torch_cumext(&xh, |a, b| a >= b),
                ),
                (
                    k::cummin::dispatch(&tn, 0).unwrap(),
                    torch_cumext(&neg, |a, b| a <= b),
                ),
            ];
            for ((v, i), want) in ext {
                let (wv, wi): (Vec<f16>, Vec<i64>) = want.into_iter().unzip();
                assert_eq!(hb(v.to_vec().unwrap()), hb(wv), "{dev}");
                assert_eq!(i.to_vec::<i64>().unwrap(), wi, "{dev}");
            }
            silt::__testing::reduce_as(None);
        }
        // a bad axis: an error, for a 0-d tensor too (its axes are 0 and -1)
        let t = TensorT::from_slice(&dev, &grid, [4, 6]).unwrap();
        let s = TensorT::from_slice(&dev, &[1.0f32], []).unwrap();
        for (x, axis) in [(&t, 2), (&t, -3), (&s, 1), (&s, -2)] {
            let ndim = x.ndim();
            let bad = |r: Result<()>, name: &str| {
                assert!(
                    matches!(r, Err(Error::AxisOutOfRange { axis: a, .. }) if a == axis),
                    "{name} of {ndim}-d along {axis} on {dev}: {r:?}"
                );
            };
            bad(k::cumsum::launch(x, axis).map(drop), "cumsum");
            bad(k::cumprod::launch(x, axis).map(drop), "cumprod");
            bad(k::logcumsumexp::launch(x, axis).map(drop), "logcumsumexp");
            bad(k::cummax::launch(x, axis).map(drop), "cummax");
            bad(k::cummin::launch(x, axis).map(drop), "cummin");
        }
    }
}

/// The library's reductions and scans (families of generated ones) have
/// `eval`, one row on the host: what a launch along the row gives, bit for
/// bit, on every device, in the family member's types (an `i8` sum in `i64`,
/// an `f16` mean rounded once from `f32`).
#[test]
fn family_eval_is_what_a_launch_gives_for_a_row() {
    let xs: Vec<f32> = (0..300)
        .map(|i| ((i * 7919) % 613) as f32 / 7.0 - 40.0)
        .collect();
    let is: Vec<i8> = (0..300).map(|i| ((i * 37) % 251) as i8).collect();
    let hs: Vec<f16> = xs.iter().map(|&v| f16::from_f32(v / 8.0)).collect();
    let bits = |v: &[f32]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    // the host references alone: widened, exact where the values allow
    assert_eq!(
        k::sum::eval(&is),
        is.iter().map(|&v| i64::from(v)).sum::<i64>()
    );
    assert_eq!(k::cumsum::eval(&is).last(), Some(&k::sum::eval(&is)));
    assert_eq!(k::sum::eval::<f32>(&[]), 0.0);
    assert!(k::mean::eval::<f32>(&[]).is_nan());
    for dev in harness::common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [1, 300]).unwrap();
        let i = TensorT::from_slice(&dev, &is, [1, 300]).unwrap();
        let h = TensorT::from_slice(&dev, &hs, [1, 300]).unwrap();
        let one = |t: TensorT<f32>| bits(&t.to_vec().unwrap());
        assert_eq!(
            one(k::sum::launch(&x, Axes::of([1])).unwrap()),
            bits(&[k::sum::eval(&xs)]),
            "{dev}"
        );
        assert_eq!(
            one(k::prod::launch(&x, Axes::of([1])).unwrap()),
            bits(&[k::prod::eval(&xs)]),
            "{dev}"
        );
        assert_eq!(
            one(k::cumsum::launch(&x, 1).unwrap()),
            bits(&k::cumsum::eval(&xs)),
            "{dev}"
        );
        assert_eq!(
            one(k::logcumsumexp::launch(&x, 1).unwrap()),
            bits(&k::logcumsumexp::eval(&xs)),
            "{dev}"
        );
        assert_eq!(
            k::sum::launch(&i, Axes::of([1])).unwrap().to_vec().unwrap(),
            [k::sum::eval(&is)],
            "{dev}"
        );
        assert_eq!(
            k::cumprod::launch(&i, 1).unwrap().to_vec().unwrap(),
            k::cumprod::eval(&is),
            "{dev}"
        );
        let mean = k::mean::launch(&h, Axes::of([1]))
            .unwrap()
            .to_vec()
            .unwrap();
        assert_eq!(mean[0].to_bits(), k::mean::eval(&hs).to_bits(), "{dev}");
    }
}

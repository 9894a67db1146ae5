//! The orthogonal polynomials of `torch.special` (Chebyshev's `T U V W` and
//! their shifted forms, Hermite's `H` and `He`, Laguerre's `L`, Legendre's
//! `P`): against values computed to 80 digits in every branch (the
//! recurrence, the trigonometric and hyperbolic forms, rescaled recurrences
//! past the range), PyTorch's degrees (truncated, negative, zero), the
//! limits and NaNs, the device against the host, and identities between
//! the kinds over sweeps.

#![allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)] // test data
// the true values as computed, to 21 digits
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

mod harness;

use harness::common;
use silt::f16;
use silt::prelude::*;
use silt_kernels as k;

const OPS: [&str; 12] = [
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
];

/// `op` of two untyped tensors.
fn dispatch(op: &str, x: &Tensor, n: &Tensor) -> silt::Result<Tensor> {
    match op {
        "chebyshev_polynomial_t" => k::chebyshev_polynomial_t::dispatch(x, n),
        "chebyshev_polynomial_u" => k::chebyshev_polynomial_u::dispatch(x, n),
        "chebyshev_polynomial_v" => k::chebyshev_polynomial_v::dispatch(x, n),
        "chebyshev_polynomial_w" => k::chebyshev_polynomial_w::dispatch(x, n),
        "shifted_chebyshev_polynomial_t" => k::shifted_chebyshev_polynomial_t::dispatch(x, n),
        "shifted_chebyshev_polynomial_u" => k::shifted_chebyshev_polynomial_u::dispatch(x, n),
        "shifted_chebyshev_polynomial_v" => k::shifted_chebyshev_polynomial_v::dispatch(x, n),
        "shifted_chebyshev_polynomial_w" => k::shifted_chebyshev_polynomial_w::dispatch(x, n),
        "hermite_polynomial_h" => k::hermite_polynomial_h::dispatch(x, n),
        "hermite_polynomial_he" => k::hermite_polynomial_he::dispatch(x, n),
        "laguerre_polynomial_l" => k::laguerre_polynomial_l::dispatch(x, n),
        "legendre_polynomial_p" => k::legendre_polynomial_p::dispatch(x, n),
        other => panic!("no polynomial {other}"),
    }
}

fn devices() -> Vec<Device> {
    let mut d = vec![Device::host()];
    d.extend(common::opencl());
    d
}

/// `op` on `dev` over the pairs `(x, n)`, in `f64`, `f32` and `f16`.
fn run(op: &str, dev: &Device, x: &[f64], n: &[f64]) -> (Vec<f64>, Vec<f32>, Vec<f16>) {
    let len = [x.len()];
    let t = |v: &[f64]| -> Tensor { TensorT::from_slice(dev, v, len).unwrap().into() };
    let t32 = |v: &[f64]| -> Tensor {
        let v: Vec<f32> = v.iter().map(|&a| a as f32).collect();
        TensorT::from_slice(dev, &v, len).unwrap().into()
    };
    let t16 = |v: &[f64]| -> Tensor {
        let v: Vec<f16> = v.iter().map(|&a| f16::from_f64(a)).collect();
        TensorT::from_slice(dev, &v, len).unwrap().into()
    };
    let a = dispatch(op, &t(x), &t(n)).unwrap().typed::<f64>().unwrap();
    let b = dispatch(op, &t32(x), &t32(n))
        .unwrap()
        .typed::<f32>()
        .unwrap();
    let c = dispatch(op, &t16(x), &t16(n))
        .unwrap()
        .typed::<f16>()
        .unwrap();
    (
        a.to_vec().unwrap(),
        b.to_vec().unwrap(),
        c.to_vec().unwrap(),
    )
}

/// `got` is `want` within `tol` of `max(|want|, 1)`, or the same infinity.
fn near(got: f64, want: f64, tol: f64) -> bool {
    if want.is_infinite() {
        got == want
    } else {
        (got - want).abs() <= tol * want.abs().max(1.0)
    }
}

/// Each polynomial against its table: `f64` within `1e-14 n` of `max(|P|,
/// 1)` (about `45 n` ULPs: the recurrences' rounding errors grow with the
/// degree `n`, at least 20 here), `f32` within `6e-7 n` where `x` and `n`
/// are `f32` numbers; a value beyond a type's range is
/// the infinity of its sign in that type, so the rescaled recurrences
/// carry the sign through the overflow.
#[test]
fn polynomials_meet_their_true_values() {
    for dev in devices() {
        for op in OPS {
            let rows: Vec<_> = TABLE.iter().filter(|r| r.0 == op).collect();
            assert!(rows.len() >= 5, "{op}");
            let x: Vec<f64> = rows.iter().map(|r| r.1).collect();
            let n: Vec<f64> = rows.iter().map(|r| r.2).collect();
            let (d, s, _) = run(op, &dev, &x, &n);
            for (i, r) in rows.iter().enumerate() {
                let (_, x, n, want) = **r;
                // the recurrences' rounding errors grow with the degree
                let degree = n.max(20.0);
                assert!(
                    near(d[i], want, 1e-14 * degree),
                    "{op}({x}, {n}) f64 on {dev:?}: {} against {want:e}",
                    d[i]
                );
                if f64::from(x as f32) == x {
                    let tol = 6e-7 * degree;
                    let w32 = f64::from(want as f32);
                    assert!(
                        near(f64::from(s[i]), w32, tol),
                        "{op}({x}, {n}) f32 on {dev:?}: {} against {w32:e}",
                        s[i]
                    );
                }
            }
        }
    }
}

/// PyTorch's degrees: truncated (`2.7` is 2), negative gives 0, 0 gives 1
/// whatever `x` (NaN too); a NaN or infinite degree or a NaN `x` gives NaN,
/// `x = ±∞` the leading term's infinity (PyTorch's gives NaN from degree 3),
/// and a degree above `2^24` of the recurrences NaN (not `2^24` steps).
#[test]
fn polynomials_take_pytorchs_degrees_and_give_their_limits() {
    let (inf, nan) = (f64::INFINITY, f64::NAN);
    for dev in devices() {
        for op in OPS {
            let x = [
                0.375, 0.375, 0.375, 0.375, nan, nan, 0.375, 0.375, 0.375, nan,
            ];
            let n = [2.7, 2.0, -1.0, -0.5, 0.0, 3.0, nan, inf, -inf, -2.0];
            let (d, s, h) = run(op, &dev, &x, &n);
            for v in [
                d,
                s.iter().map(|&v| f64::from(v)).collect(),
                h.iter().map(|v| v.to_f64()).collect(),
            ] {
                assert_eq!(
                    v[0].to_bits(),
                    v[1].to_bits(),
                    "{op}: degree 2.7 on {dev:?}"
                );
                assert_eq!(v[2], 0.0, "{op}: a negative degree");
                assert_eq!(v[3], 1.0, "{op}: degree -0.5 is 0");
                assert_eq!(v[4], 1.0, "{op}: degree 0 at NaN");
                assert!(
                    v[5].is_nan() && v[6].is_nan() && v[7].is_nan(),
                    "{op}: {v:?}"
                );
                assert_eq!((v[8], v[9]), (0.0, 0.0), "{op}: -inf");
            }
            // the leading term's sign: positive but for `L`'s `(-1)^k / k!`
            let lead = |k: f64| {
                if op == "laguerre_polynomial_l" && k % 2.0 == 1.0 {
                    -1.0
                } else {
                    1.0
                }
            };
            let x = [inf, -inf, inf, -inf];
            let n = [3.0, 3.0, 4.0, 4.0];
            let (d, _, _) = run(op, &dev, &x, &n);
            let want = [
                lead(3.0) * inf,
                -lead(3.0) * inf,
                lead(4.0) * inf,
                lead(4.0) * inf,
            ];
            // the shifted ones' `2x - 1` of `-inf` is `-inf` too
            assert_eq!(d, want, "{op} at the infinities on {dev:?}");
        }
        for op in [
            "hermite_polynomial_h",
            "hermite_polynomial_he",
            "laguerre_polynomial_l",
            "legendre_polynomial_p",
        ] {
            let (d, s, _) = run(op, &dev, &[0.375], &[16_777_217.0 * 2.0]);
            assert!(d[0].is_nan() && s[0].is_nan(), "{op}: a degree above 2^24");
        }
    }
}

/// The device and the host give the same bits where both take the
/// recurrences (`+ - * /` alone, in PyTorch's order); where Chebyshev's
/// polynomials take `acos` and `cos` (`acosh`, `cosh`), within the error of
/// those (4 ULPs of the angle, times the degree). `f16` is `f32` rounded
/// once.
#[test]
fn polynomials_agree_on_the_device_and_the_host() {
    let Some(cl) = common::opencl() else { return };
    let mut x = Vec::new();
    let mut n = Vec::new();
    for i in 0..=64 {
        for deg in [
            0.0, 1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 8.0, 9.0, 12.0, 33.0, 100.0, 257.0,
        ] {
            x.push(-2.0 + 4.0 * f64::from(i) / 64.0 + 0.003);
            n.push(deg);
        }
    }
    for op in OPS {
        let (d, d32, d16) = run(op, &cl, &x, &n);
        let (h, h32, h16) = run(op, &Device::host(), &x, &n);
        let chebyshev = op.contains("chebyshev");
        for i in 0..x.len() {
            let y = if op.starts_with("shifted") {
                2.0 * x[i] - 1.0
            } else {
                x[i]
            };
            let trig = chebyshev && y.abs() < 1.0 && n[i] > 6.0;
            if trig {
                let tol = |eps: f64| {
                    16.0 * eps * (n[i] + 2.0) * h[i].abs().max(1.0) / (1.0 - y * y).sqrt()
                };
                assert!(
                    (d[i] - h[i]).abs() <= tol(f64::EPSILON),
                    "{op}({}, {}) f64: {} {}",
                    x[i],
                    n[i],
                    d[i],
                    h[i]
                );
                let e32 = f64::from((d32[i] - h32[i]).abs());
                assert!(
                    e32 <= tol(f64::from(f32::EPSILON)),
                    "{op}({}, {}) f32",
                    x[i],
                    n[i]
                );
            } else {
                assert_eq!(
                    d[i].to_bits(),
                    h[i].to_bits(),
                    "{op}({}, {}) f64",
                    x[i],
                    n[i]
                );
                assert_eq!(
                    d32[i].to_bits(),
                    h32[i].to_bits(),
                    "{op}({}, {}) f32",
                    x[i],
                    n[i]
                );
                assert_eq!(
                    d16[i].to_bits(),
                    h16[i].to_bits(),
                    "{op}({}, {}) f16",
                    x[i],
                    n[i]
                );
            }
        }
    }
}

/// `U_n - U_(n-2) = 2 T_n`, `V_n = U_n - U_(n-1)`, `W_n = U_n + U_(n-1)`
/// across the recurrences' and the trigonometric forms' degrees; `H_n(x) =
/// 2^(n/2) He_n(√2 x)` at `x = 1/√2`-spaced points; `|P_n| <= 1` and
/// `|L_n(x)| <= e^(x/2)` (`x >= 0`) up to degree 3,000; the shifted
/// polynomials at `x` are the plain ones at `2x - 1`, bit for bit.
#[test]
fn polynomials_meet_their_identities() {
    for dev in devices() {
        let xs: Vec<f64> = (0..41)
            .map(|i| -1.0 + f64::from(i) / 20.0 + 0.0123)
            .filter(|x| x.abs() < 1.0)
            .collect();
        for deg in 2..40 {
            let nd = f64::from(deg);
            let m = xs.len();
            let (t, _, _) = run("chebyshev_polynomial_t", &dev, &xs, &vec![nd; m]);
            let (u, _, _) = run("chebyshev_polynomial_u", &dev, &xs, &vec![nd; m]);
            let (u1, _, _) = run("chebyshev_polynomial_u", &dev, &xs, &vec![nd - 1.0; m]);
            let (u2, _, _) = run("chebyshev_polynomial_u", &dev, &xs, &vec![nd - 2.0; m]);
            let (v, _, _) = run("chebyshev_polynomial_v", &dev, &xs, &vec![nd; m]);
            let (w, _, _) = run("chebyshev_polynomial_w", &dev, &xs, &vec![nd; m]);
            for i in 0..m {
                let scale = 1e-13 * (nd + 1.0) / (1.0 - xs[i] * xs[i]).sqrt();
                assert!(
                    (u[i] - u2[i] - 2.0 * t[i]).abs() <= scale,
                    "T/U {deg} at {} on {dev:?}",
                    xs[i]
                );
                assert!(
                    (v[i] - (u[i] - u1[i])).abs() <= scale,
                    "V {deg} at {}",
                    xs[i]
                );
                assert!(
                    (w[i] - (u[i] + u1[i])).abs() <= scale,
                    "W {deg} at {}",
                    xs[i]
                );
            }
        }
        let xh: Vec<f64> = (0..30).map(|i| f64::from(i) * 0.25 - 3.0).collect();
        let xs2: Vec<f64> = xh.iter().map(|x| x * std::f64::consts::SQRT_2).collect();
        for deg in [1.0, 2.0, 5.0, 12.0, 30.0] {
            let (h, _, _) = run("hermite_polynomial_h", &dev, &xh, &vec![deg; xh.len()]);
            let (he, _, _) = run("hermite_polynomial_he", &dev, &xs2, &vec![deg; xh.len()]);
            for i in 0..xh.len() {
                let want = 2f64.powf(deg / 2.0) * he[i];
                assert!(
                    (h[i] - want).abs() <= 1e-12 * want.abs().max(2f64.powf(deg)),
                    "H/He {deg} at {}",
                    xh[i]
                );
            }
        }
        let xp: Vec<f64> = (0..200)
            .map(|i| -1.0 + f64::from(i) / 100.0 + 0.001)
            .collect();
        let xl: Vec<f64> = (0..200).map(|i| f64::from(i) * 0.2).collect();
        for deg in [50.0, 400.0, 3000.0] {
            let (p, p32, _) = run("legendre_polynomial_p", &dev, &xp, &vec![deg; xp.len()]);
            assert!(
                p.iter().all(|v| v.abs() <= 1.0 + 1e-12),
                "P {deg} on {dev:?}"
            );
            assert!(
                p32.iter().all(|v| v.abs() <= 1.001),
                "P {deg} f32 on {dev:?}"
            );
            let (l, _, _) = run("laguerre_polynomial_l", &dev, &xl, &vec![deg; xl.len()]);
            for (i, v) in l.iter().enumerate() {
                assert!(
                    v.abs() <= (xl[i] / 2.0).exp() * (1.0 + 1e-9),
                    "L {deg} at {} on {dev:?}: {v}",
                    xl[i]
                );
            }
        }
        let xs: Vec<f64> = (0..50).map(|i| f64::from(i) / 49.0 * 1.5 - 0.25).collect();
        let ys: Vec<f64> = xs.iter().map(|x| x + x - 1.0).collect();
        for kind in ["t", "u", "v", "w"] {
            let n = vec![13.0; xs.len()];
            let (a, _, _) = run(
                &format!("shifted_chebyshev_polynomial_{kind}"),
                &dev,
                &xs,
                &n,
            );
            let (b, _, _) = run(&format!("chebyshev_polynomial_{kind}"), &dev, &ys, &n);
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()),
                "{kind}"
            );
        }
    }
}

/// `(op, x, n, P_n(x))` with `P_n(x)` to 21 digits (the recurrences in
/// mpmath, 80 digits of working precision).
const TABLE: &[(&str, f64, f64, f64)] = &[
    // chebyshev_polynomial_t
    ("chebyshev_polynomial_t", 0.375, 3.0, -0.9140625),
    ("chebyshev_polynomial_t", 0.375, 6.0, 0.6710205078125),
    ("chebyshev_polynomial_t", 0.375, 7.0, -0.435699462890625),
    (
        "chebyshev_polynomial_t",
        0.375,
        50.0,
        -0.932225042307762464192,
    ),
    (
        "chebyshev_polynomial_t",
        -0.6875,
        101.0,
        -0.918351032485800923783,
    ),
    ("chebyshev_polynomial_t", 1.5, 10.0, 7563.5),
    ("chebyshev_polynomial_t", -1.5, 11.0, -19801.5),
    (
        "chebyshev_polynomial_t",
        1.00000001,
        70000.0,
        9960.15308300588707518,
    ),
    (
        "chebyshev_polynomial_t",
        -1.00000001,
        70001.0,
        -9961.56176095688900426,
    ),
    (
        "chebyshev_polynomial_t",
        1.0001,
        40000.0,
        2.34953173350098156552e+245,
    ),
    ("chebyshev_polynomial_t", -1.0, 7.0, -1.0),
    ("chebyshev_polynomial_t", 1.0, 100000.0, 1.0),
    ("chebyshev_polynomial_t", 0.0, 2.7, -1.0),
    // chebyshev_polynomial_u
    ("chebyshev_polynomial_u", 0.375, 3.0, -1.078125),
    ("chebyshev_polynomial_u", 0.375, 9.0, -0.696887969970703125),
    (
        "chebyshev_polynomial_u",
        0.375,
        50.0,
        -0.78583774563780396473,
    ),
    (
        "chebyshev_polynomial_u",
        -0.6875,
        101.0,
        -1.29303506843158456038,
    ),
    (
        "chebyshev_polynomial_u",
        0.999,
        300.0,
        17.4626821744838968385,
    ),
    ("chebyshev_polynomial_u", 1.5, 10.0, 17711.0),
    ("chebyshev_polynomial_u", -1.5, 11.0, -46368.0),
    (
        "chebyshev_polynomial_u",
        1.00000001,
        70000.0,
        7.04388784068425126337e+7,
    ),
    ("chebyshev_polynomial_u", -1.0, 7.0, -8.0),
    ("chebyshev_polynomial_u", -1.0, 100000.0, 1.00001e+5),
    // chebyshev_polynomial_v
    ("chebyshev_polynomial_v", 0.375, 3.0, -0.640625),
    ("chebyshev_polynomial_v", 0.375, 9.0, 0.327754974365234375),
    (
        "chebyshev_polynomial_v",
        0.375,
        50.0,
        -1.17620387009102662996,
    ),
    (
        "chebyshev_polynomial_v",
        -0.6875,
        101.0,
        -1.83803002980726984998,
    ),
    ("chebyshev_polynomial_v", 1.5, 10.0, 10946.0),
    ("chebyshev_polynomial_v", -1.5, 11.0, -64079.0),
    (
        "chebyshev_polynomial_v",
        1.00000001,
        70000.0,
        9960.85737217710148152,
    ),
    (
        "chebyshev_polynomial_v",
        -1.00000001,
        70001.0,
        -1.40887719079834761944e+8,
    ),
    ("chebyshev_polynomial_v", -1.0, 7.0, -15.0),
    ("chebyshev_polynomial_v", 1.0, 7.0, 1.0),
    // chebyshev_polynomial_w
    ("chebyshev_polynomial_w", 0.375, 3.0, -1.515625),
    ("chebyshev_polynomial_w", 0.375, 9.0, -1.721530914306640625),
    (
        "chebyshev_polynomial_w",
        0.375,
        50.0,
        -0.395471621184581299499,
    ),
    (
        "chebyshev_polynomial_w",
        -0.6875,
        101.0,
        -0.748040107055899270783,
    ),
    ("chebyshev_polynomial_w", 1.5, 10.0, 24476.0),
    ("chebyshev_polynomial_w", -1.5, 11.0, -28657.0),
    (
        "chebyshev_polynomial_w",
        1.00000001,
        70000.0,
        1.40867795956312848166e+8,
    ),
    (
        "chebyshev_polynomial_w",
        -1.00000001,
        70001.0,
        -9962.266149736676527,
    ),
    ("chebyshev_polynomial_w", -1.0, 7.0, -1.0),
    ("chebyshev_polynomial_w", 1.0, 7.0, 15.0),
    // shifted_chebyshev_polynomial_t
    ("shifted_chebyshev_polynomial_t", 0.25, 5.0, -0.5),
    ("shifted_chebyshev_polynomial_t", 0.25, 40.0, -0.5),
    ("shifted_chebyshev_polynomial_t", 1.25, 10.0, 7563.5),
    ("shifted_chebyshev_polynomial_t", -0.25, 11.0, -19801.5),
    ("shifted_chebyshev_polynomial_t", 0.0, 9.0, -1.0),
    ("shifted_chebyshev_polynomial_t", 1.0, 9.0, 1.0),
    // shifted_chebyshev_polynomial_u
    ("shifted_chebyshev_polynomial_u", 0.25, 5.0, 0.0),
    ("shifted_chebyshev_polynomial_u", 0.25, 40.0, -1.0),
    ("shifted_chebyshev_polynomial_u", 1.25, 10.0, 17711.0),
    ("shifted_chebyshev_polynomial_u", -0.25, 11.0, -46368.0),
    ("shifted_chebyshev_polynomial_u", 0.0, 9.0, -10.0),
    // shifted_chebyshev_polynomial_v
    ("shifted_chebyshev_polynomial_v", 0.25, 5.0, 1.0),
    ("shifted_chebyshev_polynomial_v", 0.25, 40.0, -2.0),
    ("shifted_chebyshev_polynomial_v", 1.25, 10.0, 10946.0),
    ("shifted_chebyshev_polynomial_v", -0.25, 11.0, -64079.0),
    ("shifted_chebyshev_polynomial_v", 0.0, 9.0, -19.0),
    // shifted_chebyshev_polynomial_w
    ("shifted_chebyshev_polynomial_w", 0.25, 5.0, -1.0),
    ("shifted_chebyshev_polynomial_w", 0.25, 40.0, 0.0),
    ("shifted_chebyshev_polynomial_w", 1.25, 10.0, 24476.0),
    ("shifted_chebyshev_polynomial_w", -0.25, 11.0, -28657.0),
    ("shifted_chebyshev_polynomial_w", 1.0, 9.0, 19.0),
    // hermite_polynomial_h
    ("hermite_polynomial_h", 0.375, 3.0, -4.078125),
    (
        "hermite_polynomial_h",
        0.375,
        20.0,
        -5.3092371940718839671e+11,
    ),
    (
        "hermite_polynomial_h",
        -2.5,
        31.0,
        2.27478901499909193156e+22,
    ),
    (
        "hermite_polynomial_h",
        0.5,
        150.0,
        1.90751058203755323355e+153,
    ),
    (
        "hermite_polynomial_h",
        0.5,
        151.0,
        -2.99445643032983030978e+154,
    ),
    ("hermite_polynomial_h", 0.5, 400.0, f64::NEG_INFINITY),
    ("hermite_polynomial_h", 0.5, 401.0, f64::INFINITY),
    ("hermite_polynomial_h", -3.0, 1000.0, f64::NEG_INFINITY),
    ("hermite_polynomial_h", 0.0, 1001.0, 0.0),
    (
        "hermite_polynomial_h",
        1e+100,
        3.0,
        8.00000000000000038167e+300,
    ),
    // hermite_polynomial_he
    ("hermite_polynomial_he", 0.375, 3.0, -1.072265625),
    (
        "hermite_polynomial_he",
        0.375,
        20.0,
        -8.58342174263265910309e+7,
    ),
    (
        "hermite_polynomial_he",
        -2.5,
        31.0,
        1.61144492307893344309e+17,
    ),
    (
        "hermite_polynomial_he",
        0.5,
        150.0,
        -6.41708581851361689221e+130,
    ),
    ("hermite_polynomial_he", 0.5, 1000.0, f64::NEG_INFINITY),
    ("hermite_polynomial_he", -3.0, 1001.0, f64::NEG_INFINITY),
    ("hermite_polynomial_he", 10.0, 400.0, f64::NEG_INFINITY),
    // laguerre_polynomial_l
    ("laguerre_polynomial_l", 0.375, 3.0, 0.0771484375),
    (
        "laguerre_polynomial_l",
        0.375,
        20.0,
        0.0087056554541081932584,
    ),
    ("laguerre_polynomial_l", 2.5, 31.0, -0.247274696082936109676),
    (
        "laguerre_polynomial_l",
        -2.5,
        31.0,
        1.47231755817536529583e+6,
    ),
    (
        "laguerre_polynomial_l",
        10.0,
        1000.0,
        -2.55963656017107654244,
    ),
    (
        "laguerre_polynomial_l",
        -10.0,
        1000.0,
        1.56909111321962955534e+83,
    ),
    (
        "laguerre_polynomial_l",
        -100.0,
        300.0,
        1.7358456461569657622e+129,
    ),
    ("laguerre_polynomial_l", 1e+200, 2.0, f64::INFINITY),
    ("laguerre_polynomial_l", -1e+200, 3.0, f64::INFINITY),
    // legendre_polynomial_p
    ("legendre_polynomial_p", 0.375, 3.0, -0.4306640625),
    (
        "legendre_polynomial_p",
        0.375,
        20.0,
        -0.00523573538994745333437,
    ),
    (
        "legendre_polynomial_p",
        -0.6875,
        101.0,
        -0.0929016831213199377302,
    ),
    (
        "legendre_polynomial_p",
        0.875,
        10000.0,
        0.00204640656150777415966,
    ),
    (
        "legendre_polynomial_p",
        1.5,
        100.0,
        3.82685590436843706961e+40,
    ),
    (
        "legendre_polynomial_p",
        -1.5,
        101.0,
        -9.96919789219222289929e+40,
    ),
    ("legendre_polynomial_p", 1.5, 5000.0, f64::INFINITY),
    ("legendre_polynomial_p", -1.5, 5001.0, f64::NEG_INFINITY),
    ("legendre_polynomial_p", -1.0, 7.0, -1.0),
];

//! The Bessel functions `bessel_j0`, `bessel_j1`, `bessel_y0`,
//! `bessel_y1`, `modified_bessel_k0`, `modified_bessel_k1` and their scaled
//! forms, and Airy's `airy_ai`: the device against the host, both against
//! values computed to 50 digits (near zeros, relative to the functions'
//! envelope), PyTorch's values at `0`, below it and NaN, the limits at the
//! infinities, symmetries and Wronskians over sweeps.

#![allow(clippy::cast_possible_truncation)] // test data
// the true values as computed, to 21 digits
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

mod harness;

use harness::{common, unary, Class};
use silt::f16;
use silt::prelude::*;
use silt_kernels as k;
use std::f64::consts::{FRAC_2_PI, PI};

const OPS: [&str; 9] = [
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "airy_ai",
];

/// `op` of an untyped tensor.
fn dispatch(op: &str, t: &Tensor) -> silt::Result<Tensor> {
    match op {
        "bessel_j0" => k::bessel_j0::dispatch(t),
        "bessel_j1" => k::bessel_j1::dispatch(t),
        "bessel_y0" => k::bessel_y0::dispatch(t),
        "bessel_y1" => k::bessel_y1::dispatch(t),
        "modified_bessel_k0" => k::modified_bessel_k0::dispatch(t),
        "modified_bessel_k1" => k::modified_bessel_k1::dispatch(t),
        "scaled_modified_bessel_k0" => k::scaled_modified_bessel_k0::dispatch(t),
        "scaled_modified_bessel_k1" => k::scaled_modified_bessel_k1::dispatch(t),
        "airy_ai" => k::airy_ai::dispatch(t),
        other => panic!("no Bessel function {other}"),
    }
}

/// A bound on `√(J_ν² + Y_ν²)` for `ν` 0 and 1 (`√(2/(π|x|))` for large
/// `|x|`), about which `J` and `Y` oscillate.
fn envelope(x: f64) -> f64 {
    (FRAC_2_PI / x.abs()).sqrt().min(1.0)
}

/// The same for `Ai`: `|x|^(-1/4) / √π` below -1, about `Ai`'s size up to 1;
/// above, `Ai` decays and is compared relatively.
fn airy_envelope(x: f64) -> f64 {
    if x < -1.0 {
        x.abs().powf(-0.25) / PI.sqrt()
    } else if x <= 1.0 {
        0.6
    } else {
        0.0
    }
}

fn class(op: &str) -> Class {
    match op {
        // `cos`, `sin` and `ln` of the device against the host's, relative to
        // the envelope near zeros
        "bessel_j0" | "bessel_j1" | "bessel_y0" | "bessel_y1" => Class::Envelope(16, envelope),
        "airy_ai" => Class::Envelope(16, airy_envelope),
        // `exp`, `ln`, `sinh` and `cosh` in sums of terms of one sign
        _ => Class::Composite(24),
    }
}

#[test]
fn bessel_functions_device_and_host_agree() {
    for op in OPS {
        let launch = move |x: &TensorT<f32>| dispatch(op, &x.clone().into())?.typed::<f32>();
        unary::<f32, _>(op, class(op), launch);
        unary::<f64, _>(op, class(op), move |x| {
            dispatch(op, &x.clone().into())?.typed::<f64>()
        });
        // `f16` rounds the `f32` result once
        unary::<f16, _>(op, Class::Ulps(1), move |x| {
            dispatch(op, &x.clone().into())?.typed::<f16>()
        });
    }
}

fn devices() -> Vec<Device> {
    let mut d = vec![Device::host()];
    d.extend(common::opencl());
    d
}

/// Runs `op` on `dev` over `x`, in `f64` and `f32`.
fn run(op: &str, dev: &Device, x: &[f64]) -> (Vec<f64>, Vec<f32>) {
    let t64: Tensor = TensorT::from_slice(dev, x, [x.len()]).unwrap().into();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let t32: Tensor = TensorT::from_slice(dev, &x32, [x.len()]).unwrap().into();
    let a = dispatch(op, &t64).unwrap().typed::<f64>().unwrap();
    let b = dispatch(op, &t32).unwrap().typed::<f32>().unwrap();
    (a.to_vec().unwrap(), b.to_vec().unwrap())
}

/// Each function against its table: `f64` within `2e-15`, `f32` within
/// `6e-7` (4 and 5 ULPs) of the larger of the truth and the envelope, where
/// the argument is an `f32` number. `f64`'s `J` keeps its digits relative
/// to itself near its zeros where the power series computes it (up to 20;
/// the table has `f32` and `f64` roundings of zeros there); `f32`'s double
/// words of 48 bits keep them relative to the envelope.
#[test]
fn bessel_functions_meet_their_true_values() {
    for dev in devices() {
        for (op, table) in [
            ("bessel_j0", J0),
            ("bessel_j1", J1),
            ("bessel_y0", Y0),
            ("bessel_y1", Y1),
            ("modified_bessel_k0", K0),
            ("modified_bessel_k1", K1),
            ("scaled_modified_bessel_k0", K0E),
            ("scaled_modified_bessel_k1", K1E),
            ("airy_ai", AI),
        ] {
            let x: Vec<f64> = table.iter().map(|p| p.0).collect();
            let (d, s) = run(op, &dev, &x);
            for (i, &(x, want)) in table.iter().enumerate() {
                let env = |series_up_to: f64| match op {
                    "bessel_j0" | "bessel_j1" if x.abs() <= series_up_to => 0.0,
                    "bessel_j0" | "bessel_j1" | "bessel_y0" | "bessel_y1" => envelope(x),
                    "airy_ai" => airy_envelope(x),
                    _ => 0.0,
                };
                let err = (d[i] - want).abs();
                assert!(
                    err <= 2e-15 * want.abs().max(env(20.0)),
                    "{op}({x:e}) f64 on {dev:?}: {} against {want:e}",
                    d[i]
                );
                let (xf, wf) = (x as f32, want as f32);
                // beyond `-8e4` `f32`'s `ζ` has lost the phase's digits
                let phase = op != "airy_ai" || x > -8e4;
                if f64::from(xf) == x && wf.is_normal() && phase {
                    let err = (f64::from(s[i]) - want).abs();
                    assert!(
                        err <= 6e-7 * want.abs().max(env(0.0)),
                        "{op}({x:e}) f32 on {dev:?}: {} against {wf:e}",
                        s[i]
                    );
                }
            }
        }
    }
}

/// PyTorch's values at `0`, below it and at NaN; where PyTorch's give NaN at
/// the infinities, the limit (0); underflow and overflow where the true
/// value is beyond the type's range.
#[test]
fn bessel_functions_give_their_limits() {
    let inf = f64::INFINITY;
    let nan = f64::NAN;
    let cases: &[(&str, f64, f64)] = &[
        ("bessel_j0", 0.0, 1.0),
        ("bessel_j0", -0.0, 1.0),
        ("bessel_j0", inf, 0.0),
        ("bessel_j0", -inf, 0.0),
        ("bessel_j1", 0.0, 0.0),
        ("bessel_j1", -0.0, -0.0),
        ("bessel_j1", inf, 0.0),
        ("bessel_j1", -inf, -0.0),
        ("bessel_y0", 0.0, -inf),
        ("bessel_y0", -0.0, -inf),
        ("bessel_y0", -1.0, nan),
        ("bessel_y0", -inf, nan),
        ("bessel_y0", inf, 0.0),
        ("bessel_y1", 0.0, -inf),
        ("bessel_y1", -0.0, -inf),
        ("bessel_y1", -1.0, nan),
        ("bessel_y1", inf, 0.0),
        ("modified_bessel_k0", 0.0, inf),
        ("modified_bessel_k0", -0.0, inf),
        ("modified_bessel_k0", -1.0, nan),
        ("modified_bessel_k0", -inf, nan),
        ("modified_bessel_k0", inf, 0.0),
        ("modified_bessel_k0", 800.0, 0.0),
        ("modified_bessel_k1", 0.0, inf),
        ("modified_bessel_k1", -0.0, inf),
        ("modified_bessel_k1", -1.0, nan),
        ("modified_bessel_k1", inf, 0.0),
        ("scaled_modified_bessel_k0", 0.0, inf),
        ("scaled_modified_bessel_k0", -1.0, nan),
        ("scaled_modified_bessel_k0", inf, 0.0),
        ("scaled_modified_bessel_k1", 0.0, inf),
        ("scaled_modified_bessel_k1", -1.0, nan),
        ("scaled_modified_bessel_k1", inf, 0.0),
        ("airy_ai", inf, 0.0),
        ("airy_ai", -inf, 0.0),
        ("airy_ai", 200.0, 0.0),
        ("airy_ai", -1e300, 0.0),
    ];
    for dev in devices() {
        for &(op, x, want) in cases {
            let (d, s) = run(op, &dev, &[x, nan]);
            assert!(d[1].is_nan() && s[1].is_nan(), "{op}(NaN) on {dev:?}");
            let same = |v: f64| {
                if want.is_nan() {
                    v.is_nan()
                } else {
                    v == want && v.is_sign_negative() == want.is_sign_negative()
                }
            };
            // `-1e300` is `-inf` in `f32`, whose limit is the same
            assert!(same(d[0]), "{op}({x}) f64 on {dev:?}: {}", d[0]);
            assert!(same(f64::from(s[0])), "{op}({x}) f32 on {dev:?}: {}", s[0]);
        }
        // the largest `K` is `1/x` near 0, beyond `f32`'s range below 3e-39
        let (d, s) = run("modified_bessel_k1", &dev, &[1e-40]);
        assert!(
            (d[0] - 1e40).abs() <= 1e25 && s[0] == f32::INFINITY,
            "K1(1e-40): {d:?} {s:?}"
        );
        let (d, s) = run("bessel_y1", &dev, &[1e-40]);
        assert!((d[0] + FRAC_2_PI * 1e40).abs() <= 1e25 && s[0] == f32::NEG_INFINITY);
        // the smallest subnormals, whose halves round (to 0): `K₀ = -ln(x/2)
        // - γ` and `Y₀ = (2/π) (ln(x/2) + γ)` there, about 744.56 and
        // -474.00 (`f64`), 103.39 (`f32`)
        let tiny = f64::from_bits(1);
        let (d, _) = run("modified_bessel_k0", &dev, &[tiny]);
        assert!(
            (d[0] - 744.556_003_437_039_7).abs() <= 1e-12,
            "K0 of the smallest f64: {d:?}"
        );
        let (d, _) = run("bessel_y0", &dev, &[tiny]);
        assert!(
            (d[0] + 473.999_073_423_004_3).abs() <= 1e-12,
            "Y0 of the smallest f64: {d:?}"
        );
        let (_, s) = run("modified_bessel_k0", &dev, &[f64::from(f32::from_bits(1))]);
        assert!(
            (f64::from(s[0]) - 103.394_86).abs() <= 1e-4,
            "K0 of the smallest f32 on {dev:?}: {s:?}"
        );
        // `e^x K₀(x)` keeps its digits where `K₀` has underflowed
        let (d, _) = run("scaled_modified_bessel_k0", &dev, &[800.0]);
        assert!((d[0] - 0.044_304_427_486_646_01).abs() <= 1e-16, "{d:?}");
    }
}

/// `J₀` is even and `J₁` odd, bit for bit; `Ai` stays within its envelope
/// for every negative argument (where the phase of `ζ = 2|x|^(3/2)/3` has
/// lost its digits too: beyond about `8e4` for `f32`) and is positive and
/// falling above 0.
#[test]
fn bessel_functions_keep_their_symmetries_and_bounds() {
    let xs: Vec<f64> = (0..2000)
        .map(|i| 10f64.powf(-3.0 + 0.0045 * f64::from(i)))
        .collect();
    let neg: Vec<f64> = xs.iter().map(|x| -x).collect();
    for dev in devices() {
        let (a, a32) = run("bessel_j0", &dev, &xs);
        let (b, b32) = run("bessel_j0", &dev, &neg);
        assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()));
        assert!(a32
            .iter()
            .zip(&b32)
            .all(|(p, q)| p.to_bits() == q.to_bits()));
        let (a, a32) = run("bessel_j1", &dev, &xs);
        let (b, b32) = run("bessel_j1", &dev, &neg);
        assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == (-q).to_bits()));
        assert!(a32
            .iter()
            .zip(&b32)
            .all(|(p, q)| p.to_bits() == (-q).to_bits()));
        let far: Vec<f64> = (0..400)
            .map(|i| -(10f64.powf(0.1 * f64::from(i))))
            .collect();
        let (d, s) = run("airy_ai", &dev, &far);
        for (i, &x) in far.iter().enumerate() {
            let bound = 1.01 * x.abs().powf(-0.25) / PI.sqrt() + 1e-300;
            assert!(
                d[i].abs() <= bound.max(0.54),
                "Ai({x:e}) f64 on {dev:?}: {}",
                d[i]
            );
            assert!(f64::from(s[i]).abs() <= bound.max(0.54) * (1.0 + 1e-6));
        }
        let pos: Vec<f64> = (0..1000).map(|i| 0.105 * f64::from(i)).collect();
        let (d, s) = run("airy_ai", &dev, &pos);
        for i in 1..pos.len() {
            assert!(
                d[i] > 0.0 && d[i] < d[i - 1],
                "Ai({}) f64 on {dev:?}",
                pos[i]
            );
            assert!(
                s[i] >= 0.0 && s[i] <= s[i - 1],
                "Ai({}) f32 on {dev:?}",
                pos[i]
            );
        }
    }
}

/// The Wronskians `J₁Y₀ - J₀Y₁ = 2/(πx)` and `I₀K₁ + I₁K₀ = 1/x` (scaled by
/// `e^-x` and `eˣ`, with silt-kernels' `i0e` and `i1e`) over 2,000 arguments
/// from `1e-3` to `1e6`, within `1e-14` (`f64`) and `2e-6` (`f32`)
/// relatively: the products add without cancelling.
#[test]
fn bessel_functions_meet_their_wronskians() {
    let xs: Vec<f64> = (0..2000)
        .map(|i| 10f64.powf(-3.0 + 0.0045 * f64::from(i)))
        .collect();
    for dev in devices() {
        let (j0, j0f) = run("bessel_j0", &dev, &xs);
        let (j1, j1f) = run("bessel_j1", &dev, &xs);
        let (y0, y0f) = run("bessel_y0", &dev, &xs);
        let (y1, y1f) = run("bessel_y1", &dev, &xs);
        let (k0, k0f) = run("scaled_modified_bessel_k0", &dev, &xs);
        let (k1, k1f) = run("scaled_modified_bessel_k1", &dev, &xs);
        let t: Tensor = TensorT::from_slice(&dev, &xs, [xs.len()]).unwrap().into();
        let i0 = k::i0e::dispatch(&t)
            .unwrap()
            .typed::<f64>()
            .unwrap()
            .to_vec()
            .unwrap();
        let i1 = k::i1e::dispatch(&t)
            .unwrap()
            .typed::<f64>()
            .unwrap()
            .to_vec()
            .unwrap();
        let x32: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
        let t: Tensor = TensorT::from_slice(&dev, &x32, [xs.len()]).unwrap().into();
        let i0f = k::i0e::dispatch(&t)
            .unwrap()
            .typed::<f32>()
            .unwrap()
            .to_vec()
            .unwrap();
        let i1f = k::i1e::dispatch(&t)
            .unwrap()
            .typed::<f32>()
            .unwrap()
            .to_vec()
            .unwrap();
        for (i, &x) in xs.iter().enumerate() {
            let w = j1[i] * y0[i] - j0[i] * y1[i];
            assert!(
                (w * x * PI / 2.0 - 1.0).abs() <= 1e-14,
                "J/Y at {x:e} on {dev:?}: {w:e}"
            );
            let w = i0[i] * k1[i] + i1[i] * k0[i];
            assert!(
                (w * x - 1.0).abs() <= 1e-14,
                "I/K at {x:e} on {dev:?}: {w:e}"
            );
            let xf = f64::from(x32[i]);
            let f = |v: f32| f64::from(v);
            let w = f(j1f[i]) * f(y0f[i]) - f(j0f[i]) * f(y1f[i]);
            assert!(
                (w * xf * PI / 2.0 - 1.0).abs() <= 2e-6,
                "J/Y f32 at {x:e} on {dev:?}"
            );
            let w = f(i0f[i]) * f(k1f[i]) + f(i1f[i]) * f(k0f[i]);
            assert!((w * xf - 1.0).abs() <= 2e-6, "I/K f32 at {x:e} on {dev:?}");
        }
    }
}

/// `(x, f(x))` with `f(x)` to 21 digits (mpmath, 50 digits of working
/// precision).
const J0: &[(f64, f64)] = &[
    (1e-05, 0.999999999975),
    (0.5, 0.938469807240812904228),
    (1.0, 0.76519768655796655145),
    (2.5, -0.0483837764681979963273),
    (2.404825448989868, 5.64343995915531238592e-8),
    (2.404825557695773, -6.10876525973673039708e-17),
    (5.0, -0.177596771314338304347),
    (5.002046252155557, -0.176926227629292599872),
    (8.653727531433105, 1.03553057441100845081e-7),
    (9.75, -0.227333299511848283272),
    (10.25, -0.24897577978284945837),
    (14.930917739868164, -6.4815051614267151556e-9),
    (19.75, 0.178449445751383861219),
    (20.25, 0.145421393873677619942),
    (30.0, -0.086367983581040211336),
    (100.5, 0.0544365738144135909896),
    (1000.0, 0.0247866861524201745613),
    (1000000.0, 3.31043013739873740988e-4),
    (-3.5, -0.380127739987263377379),
];
const J1: &[(f64, f64)] = &[
    (1e-300, 5.0000000000000001253e-301),
    (1e-05, 4.99999999993750040902e-6),
    (0.5, 0.242268457674873886384),
    (1.0, 0.44005058574493351596),
    (2.5, 0.497094102464274038011),
    (3.8317060470581055, -3.09522981473422947724e-8),
    (3.8317059702075125, -6.14980735699490609139e-17),
    (5.0, -0.327579137591465222038),
    (7.015625, 1.15034607023016982848e-5),
    (9.75, 0.104838501258497510183),
    (10.25, -0.0190204556968685669881),
    (19.75, 0.0239998163884230134757),
    (20.25, 0.105014968649533603094),
    (30.0, -0.11875106261662293652),
    (1000.0, 0.00472831190708952391758),
    (1000000.0, -7.25968356813763041853e-4),
    (-3.5, -0.137377527362327185716),
];
const Y0: &[(f64, f64)] = &[
    (1e-300, -439.835163622765331733),
    (1e-10, -14.7325162726972420195),
    (0.01, -3.00545563708364594452),
    (0.5, -0.444518733506706557148),
    (0.893576979637146, 1.17472840619884439079e-8),
    (1.0, 0.0882569642156769579829),
    (3.9576783180236816, 4.07740212277301854811e-8),
    (7.0, -0.0259497439672092648843),
    (9.75, 0.116316370414899979083),
    (10.25, -0.00689527383874937183038),
    (19.75, 0.0194787632280149277932),
    (20.25, 0.101395696673202038848),
    (40.0, 0.125936417058260929253),
    (10000.0, 0.00364780555898660588669),
    (100000000.0, 7.30639116552170709772e-5),
];
const Y1: &[(f64, f64)] = &[
    (1e-300, -6.36619772367581327122e+299),
    (1e-10, -6.36619772367581319957e+9),
    (0.01, -63.6785962820606550493),
    (0.5, -1.47147239267024306919),
    (1.0, -0.781212821300288716547),
    (2.197141408920288, 4.31676052829094950225e-8),
    (5.5, -0.0237582389563896183261),
    (9.75, 0.233577314873531741904),
    (10.25, 0.24893222500650521291),
    (19.75, -0.178013586146139975753),
    (20.25, -0.142963473180407594981),
    (40.0, -0.00579350582154963294119),
    (10000.0, 0.00709634275253649513502),
    (100000000.0, -3.20602949750925201618e-5),
];
const K0: &[(f64, f64)] = &[
    (1e-300, 690.891459413872117629),
    (1e-10, 23.1417824455988692526),
    (0.1, 2.42706902470201655782),
    (0.5, 0.924419071227665861782),
    (0.9921875, 0.425758233854587970345),
    (1.0, 0.421024438240708333336),
    (1.0078125, 0.416353079438788330642),
    (2.0, 0.113893872749533435653),
    (5.0, 0.00369109833404259427474),
    (10.0, 1.77800623161676518113e-5),
    (50.0, 3.41016774978949551392e-23),
    (100.0, 4.65662822917590201894e-45),
    (500.0, 3.99232160911779287736e-219),
    (700.0, 4.66977643168537688099e-306),
];
const K1: &[(f64, f64)] = &[
    (1e-300, 9.99999999999999974941e+299),
    (1e-10, 9.9999999999999996345e+9),
    (0.1, 9.85384478087060557438),
    (0.5, 1.6564411200033008937),
    (0.9921875, 0.609967359213014596186),
    (1.0, 0.601907230197234574738),
    (1.0078125, 0.593983018789075567038),
    (2.0, 0.139865881816522427285),
    (5.0, 0.00404461344545216420837),
    (10.0, 1.86487734538255845968e-5),
    (50.0, 3.44410222671755561259e-23),
    (100.0, 4.67985373563690928656e-45),
    (500.0, 3.99631193854600334951e-219),
    (700.0, 4.67311079670796610908e-306),
];
const K0E: &[(f64, f64)] = &[
    (1e-10, 23.1417824479130474973),
    (0.5, 1.52410938577390953002),
    (1.0, 1.1444630798068950147),
    (1.0078125, 1.1406415530501919741),
    (2.0, 0.841568215070771417919),
    (10.0, 0.391631934436598665734),
    (100.0, 0.125175621659126578892),
    (10000.0, 0.0125329847176992852884),
    (100000000.0, 1.25331413574885758838e-4),
    (1e+300, 1.25331413731550021831e-150),
];
const K1E: &[(f64, f64)] = &[
    (1e-10, 1.00000000009999996345e+10),
    (0.5, 2.73100970821178570536),
    (1.0, 1.63615348626325824651),
    (1.0078125, 1.62727681502982817465),
    (2.0, 1.03347684706868857318),
    (10.0, 0.41076657059578875113),
    (100.0, 0.125799950479578529325),
    (10000.0, 0.0125336113512705057339),
    (100000000.0, 1.25331414201542825145e-4),
    (1e+300, 1.25331413731550021831e-150),
];
const AI: &[(f64, f64)] = &[
    (-1000000.0, -0.00219126114134305741627),
    (-10000.0, 0.027057383604642579209),
    (-100.0, 0.176753393239552878091),
    (-30.0, -0.0879681884568421628326),
    (-9.5, 0.319103247719128201376),
    (-9.0, -0.0221337215473414036742),
    (-8.5, -0.330290237630208879022),
    (-6.5, -0.238020301997115803594),
    (-6.0, -0.329145173629823105231),
    (-5.5, 0.017781541276574975603),
    (-2.3381073474884033, 4.41562017606665079051e-8),
    (-1.0, 0.5355608832923521188),
    (0.0, 0.35502805388781723926),
    (0.5, 0.231693606480833489769),
    (1.0, 0.135292416312881415524),
    (1.0078125, 0.134053203800494556362),
    (1.5, 0.0717494970081054096736),
    (5.0, 1.0834442813607441735e-4),
    (10.0, 1.10475325528986859336e-10),
    (50.0, 4.58494172407482847835e-104),
    (100.0, 2.63448215208818448955e-291),
];

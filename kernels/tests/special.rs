//! The special functions (`lgamma`, `digamma`, `erfinv`, `erfcx`,
//! `log_ndtr`, `ndtri`, the Bessel functions `i0`, `i0e`, `i1`, `i1e`, and
//! `zeta`): the device against the host on edge values and
//! proptest-generated inputs, both against values computed to 50 digits or
//! more, their poles and limits as PyTorch's, and identities over a sweep.

#![allow(clippy::cast_possible_truncation)] // test data
// the true values as computed, to 20 digits
#![allow(clippy::excessive_precision)]

mod harness;

use harness::{common, unary, Class};
use silt::f16;
use silt::prelude::*;
use silt_kernels as k;

#[test]
fn lgamma_device_and_host_agree() {
    unary::<f16, _>("lgamma", Class::Ulps(1), k::lgamma::launch);
    // the bound of `lgamma`, or of its terms near its negative roots
    for_floats("lgamma", Class::Gamma(harness::ulp_bound("lgamma")), |x| {
        k::lgamma::launch(x)
    });
}

#[test]
fn digamma_device_and_host_agree() {
    // `f16` rounds the `f32` result once
    unary::<f16, _>("digamma", Class::Cancelling(1), k::digamma::launch);
    // `ln` and `tan` (4 and 5 ULPs) and the roundings of the sum
    for_floats("digamma", Class::Cancelling(16), k::digamma::launch);
}

#[test]
fn erfinv_device_and_host_agree() {
    unary::<f16, _>("erfinv", Class::Ulps(1), k::erfinv::launch);
    // the last Newton step carries `erf`'s 16 ULPs, and `ln`'s in the tail
    for_floats("erfinv", Class::Composite(40), k::erfinv::launch);
}

#[test]
fn ndtri_device_and_host_agree() {
    unary::<f16, _>("ndtri", Class::Ulps(1), k::ndtri::launch);
    // `erfinv`'s steps, then one rounding of the product by √2
    for_floats("ndtri", Class::Composite(40), k::ndtri::launch);
}

#[test]
fn erfcx_and_log_ndtr_device_and_host_agree() {
    unary::<f16, _>("erfcx", Class::Ulps(1), k::erfcx::launch);
    unary::<f16, _>("log_ndtr", Class::Ulps(1), k::log_ndtr::launch);
    // `exp` (3 ULPs) times `erfc` (16), or `ln` of either
    for_floats("erfcx", Class::Composite(24), k::erfcx::launch);
    for_floats("log_ndtr", Class::Composite(24), k::log_ndtr::launch);
}

#[test]
fn bessel_functions_device_and_host_agree() {
    // the sums are IEEE arithmetic, alike everywhere; `exp` and `sqrt` differ
    for (op, launch) in [
        ("i0", k::i0::launch::<f32> as Launch32),
        ("i0e", k::i0e::launch::<f32>),
        ("i1", k::i1::launch::<f32>),
        ("i1e", k::i1e::launch::<f32>),
    ] {
        for_floats(op, Class::Ulps(8), launch);
    }
    unary::<f16, _>("i0", Class::Ulps(1), k::i0::launch);
    unary::<f16, _>("i0e", Class::Ulps(1), k::i0e::launch);
    unary::<f16, _>("i1", Class::Ulps(1), k::i1::launch);
    unary::<f16, _>("i1e", Class::Ulps(1), k::i1e::launch);
}

type Launch32 = fn(&TensorT<f32>) -> silt::Result<TensorT<f32>>;

fn for_floats(
    op: &str,
    class: Class,
    launch: impl Fn(&TensorT<f32>) -> silt::Result<TensorT<f32>> + Copy,
) {
    unary::<f32, _>(op, class, launch);
    // the same operation in `f64`, through the dispatch of the untyped tensor
    unary::<f64, _>(op, class, |x| {
        let t: Tensor = x.clone().into();
        let out = dispatch(op, &t)?;
        out.typed::<f64>()
    });
}

/// `op` of an untyped tensor.
fn dispatch(op: &str, t: &Tensor) -> silt::Result<Tensor> {
    match op {
        "lgamma" => k::lgamma::dispatch(t),
        "digamma" => k::digamma::dispatch(t),
        "erfinv" => k::erfinv::dispatch(t),
        "erfcx" => k::erfcx::dispatch(t),
        "log_ndtr" => k::log_ndtr::dispatch(t),
        "ndtri" => k::ndtri::dispatch(t),
        "i0" => k::i0::dispatch(t),
        "i0e" => k::i0e::dispatch(t),
        "i1" => k::i1::dispatch(t),
        "i1e" => k::i1e::dispatch(t),
        other => panic!("no special function {other}"),
    }
}

/// `(x, f(x))` with `f(x)` to 20 digits (mpmath, 50 digits of working
/// precision).
const DIGAMMA: &[(f64, f64)] = &[
    (1.0, -0.577_215_664_901_532_860_61),
    (2.0, 0.422_784_335_098_467_139_39),
    (0.5, -1.963_510_026_021_423_479_4),
    (1.5, 0.036_489_973_978_576_520_559),
    (3.0, 0.922_784_335_098_467_139_39),
    (10.0, 2.251_752_589_066_721_107_6),
    (0.1, -10.423_754_940_411_076_232),
    (1e-5, -100_000.577_199_215_672_89),
    (25.5, 3.218_942_472_883_919_766_5),
    (100.0, 4.600_161_852_738_087_400_2),
    (1e5, 11.512_920_464_961_895_087),
    (-0.5, 0.036_489_973_978_576_520_559),
    (-1.5, 0.703_156_640_645_243_187_23),
    (-2.25, 4.158_583_564_657_972_274_8),
    (-7.75, -1.030_768_832_830_931_512_2),
    (-100.5, 4.615_124_601_338_064_117_3),
    (-0.001, 999.421_138_197_891_333_76),
    (30.0, 3.384_438_132_685_524_876_6),
    (171.5, 5.141_664_981_433_999_628_9),
    (1e-30, -9.999_999_999_999_999_166_6e29),
    (-12.718_75, 0.003_636_033_770_780_270_135),
    (-0.281_25, 2.387_566_978_199_025_705_9),
    (-5.546_875, 1.334_664_516_200_676_848_7),
];

const LGAMMA: &[(f64, f64)] = &[
    (0.5, 0.572_364_942_924_700_087_07),
    (1.5, -0.120_782_237_635_245_222_35),
    (3.0, std::f64::consts::LN_2),
    (10.0, 12.801_827_480_081_469_611),
    (0.1, 2.252_712_651_734_205_902),
    (1e-5, 11.512_919_692_895_825_626),
    (25.5, 56.389_167_643_719_946_744),
    (100.0, 359.134_205_369_575_398_78),
    (1e5, 1_051_287.708_973_656_894_9),
    (-0.5, 1.265_512_123_484_645_396_5),
    (-1.5, 0.860_047_015_376_481_014_51),
    (-2.25, 0.555_501_545_020_647_470_59),
    (-7.75, -8.581_847_763_551_866_669_4),
    (-100.5, -364.900_968_309_427_351_82),
    (171.5, 709.143_163_030_928_242_27),
    (1e30, 6.807_755_278_982_137_189_4e31),
    (-0.001, 6.908_333_317_515_028_411),
    (-12.718_75, -20.420_849_428_743_847_02),
    (-3.144_531_25, -0.007_372_370_096_824_169_454_5),
    (-2.457_031_25, -9.869_068_999_034_098_628_3e-6),
];

const ERFINV: &[(f64, f64)] = &[
    (0.5, 0.476_936_276_204_469_873_38),
    (-0.5, -0.476_936_276_204_469_873_38),
    (0.9, 1.163_087_153_676_674_162_8),
    (0.1, 0.088_855_990_494_257_691_974),
    (1e-10, 8.862_269_254_527_580_459_4e-11),
    (0.25, 0.225_312_055_012_178_104_73),
    (0.75, 0.813_419_847_597_618_541_69),
    (0.99, 1.821_386_367_718_449_455_9),
    (0.999, 2.326_753_765_513_524_493_9),
    (0.999_999, 3.458_910_737_275_498_777_5),
    (-0.999_999_999, -4.320_005_388_105_362_045_9),
    (0.999_999_999_999_9, 5.261_483_331_372_676_259_1),
    (1e-300, 8.862_269_254_527_580_358_6e-301),
    (0.3, 0.272_462_714_726_754_345_02),
];

/// The modified Bessel functions and the normal distribution's functions,
/// to 20 digits (mpmath, 800 digits of working precision).
const I0: &[(f64, f64)] = &[
    (0.5, 1.0634833707413235193),
    (1.0, 1.2660658777520083356),
    (2.5, 3.2898391440501230357),
    (5.0, 27.239871823604446895),
    (9.5, 1753.4809905273226698),
    (10.5, 4527.4417146388880052),
    (15.0, 339649.37329791387952),
    (19.5, 2.6760525339838766027e7),
    (20.5, 7.0922869834317006649e7),
    (30.0, 7.8167229782397748972e11),
    (100.0, 1.0737517071310738235e42),
    (700.0, 1.5295933476718737363e302),
    (-3.0, 4.8807925858650240856),
    (1e-10, 1.0),
];
const I0E: &[(f64, f64)] = &[
    (0.5, 0.64503527044915006811),
    (2.5, 0.27004644161220273956),
    (9.5, 0.13125126081426788873),
    (10.5, 0.12466966945908616503),
    (19.5, 0.090939432095156483305),
    (20.5, 0.088664429015745248147),
    (100.0, 0.039944379299096682648),
    (100000.0, 0.0012615678379767767669),
    (1e20, 3.9894228040143267794e-11),
    (-7.25, 0.15095349002867583539),
];
const I1: &[(f64, f64)] = &[
    (0.5, 0.25789430539089631636),
    (1.0, 0.56515910399248502721),
    (2.5, 2.5167162452886984415),
    (5.0, 24.335642142450527199),
    (9.5, 1658.4530777821342002),
    (10.5, 4306.1348750962746843),
    (15.0, 328124.92197020639673),
    (19.5, 2.6065069264457165694e7),
    (20.5, 6.9170831679184372867e7),
    (30.0, 7.6853203893895699949e11),
    (100.0, 1.0683693903381624812e42),
    (700.0, 1.5285003902339006881e302),
    (-3.0, -3.9533702174026093965),
    (1e-10, 5.0000000000000001822e-11),
    (1e-300, 5.0000000000000001253e-301),
];
const I1E: &[(f64, f64)] = &[
    (0.5, 0.15642080318487169714),
    (2.5, 0.20658464953126655421),
    (9.5, 0.12413824765488178649),
    (10.5, 0.11857566488126837185),
    (19.5, 0.088576086094314852457),
    (20.5, 0.086474113494087245571),
    (100.0, 0.039744153025130252674),
    (100000.0, 0.0012615615301218171273),
    (1e20, 3.9894228040143267794e-11),
    (-7.25, -0.14011851895630762384),
];
const ERFCX: &[(f64, f64)] = &[
    (-5.0, 1.4400979867466104041e11),
    (-1.0, 5.0089800807622834663),
    (-0.5, 1.9523604891825570933),
    (0.5, 0.61569034419292587487),
    (1.0, 0.42758357615580700441),
    (1.5, 0.32158541645431750235),
    (2.0, 0.25539567631050574387),
    (2.5, 0.21080636406114358065),
    (5.0, 0.11070463773306862637),
    (10.0, 0.056140992743822585858),
    (26.0, 0.021683584850562906616),
    (30.0, 0.018795888861416751497),
    (100000.0, 5.6418958351954680777e-6),
    (1e100, 5.6418958354775627798e-101),
    (-26.0, 7.6577249314905683515e293),
    (-9.0, 3.0121946291700610967e35),
];
const LOG_NDTR: &[(f64, f64)] = &[
    (-40.0, -804.60844201375378817),
    (-20.0, -203.91715537109726394),
    (-5.0, -15.064998393988725736),
    (-1.5, -2.705944400823889807),
    (-1.0, -1.8410216450092635058),
    (-0.5, -1.1759117615936186089),
    (0.5, -0.36894641528865639307),
    (1.0, -0.17275377902344988953),
    (3.0, -0.0013508099647481937988),
    (5.0, -2.8665161296376359338e-7),
    (10.0, -7.619853024160526066e-24),
    (20.0, -2.7536241186062336951e-89),
    (37.0, -5.7255712225245768227e-300),
];
const NDTRI: &[(f64, f64)] = &[
    (1e-300, -37.047096299361199237),
    (1e-100, -21.273453560965324294),
    (1e-20, -9.2623400897984075796),
    (1e-05, -4.2648907939228246102),
    (0.01, -2.3263478740408410931),
    (0.1, -1.2815515655446004353),
    (0.25, -0.6744897501960817432),
    (0.3, -0.52440051270804081597),
    (0.6, 0.25334710313579974132),
    (0.75, 0.6744897501960817432),
    (0.9, 1.2815515655446005935),
    (0.99, 2.3263478740408407676),
    (0.999999, 4.7534243088170877657),
    (0.9999999999990905, 7.0477002566644087254),
];

/// Runs `op` on `dev` over `x`, in `f64` and `f32`.
fn run(op: &str, dev: &Device, x: &[f64]) -> (Vec<f64>, Vec<f32>) {
    let t64: Tensor = TensorT::from_slice(dev, x, [x.len()]).unwrap().into();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let t32: Tensor = TensorT::from_slice(dev, &x32, [x.len()]).unwrap().into();
    let a = dispatch(op, &t64).unwrap().typed::<f64>().unwrap();
    let b = dispatch(op, &t32).unwrap().typed::<f32>().unwrap();
    (a.to_vec().unwrap(), b.to_vec().unwrap())
}

fn devices() -> Vec<Device> {
    let mut d = vec![Device::host()];
    d.extend(common::opencl());
    d
}

/// Each function against its table: `f64` within `1e-14` relatively (the
/// sums of `digamma` near its zeros cancel to `1e-13`; the others within a
/// few ULPs), `f32` within 2 ULPs of the truth rounded to `f32` (4 for the
/// Bessel functions' series and `ndtri`'s single Newton step); near the
/// zeros, of the terms' size.
#[test]
fn special_functions_meet_their_true_values() {
    for dev in devices() {
        for (op, table, tol) in [
            ("lgamma", LGAMMA, 1e-14),
            ("digamma", DIGAMMA, 1e-13),
            ("erfinv", ERFINV, 1e-14),
            ("i0", I0, 2e-15),
            ("i0e", I0E, 2e-15),
            ("i1", I1, 2e-15),
            ("i1e", I1E, 2e-15),
            ("erfcx", ERFCX, 5e-16),
            ("log_ndtr", LOG_NDTR, 5e-16),
            ("ndtri", NDTRI, 5e-16),
        ] {
            let x: Vec<f64> = table.iter().map(|p| p.0).collect();
            let (d, s) = run(op, &dev, &x);
            for (i, &(x, want)) in table.iter().enumerate() {
                // the sums of `digamma` and `lgamma` cancel near their zeros:
                // an error of the size of their terms, `2 + ln(1 + |x|)` and
                // `|x| ln(2 + |x|)` (the reflection's)
                let terms = match op {
                    "digamma" => 2.0 + x.abs().ln_1p(),
                    "lgamma" if x < 0.0 => x.abs() * (2.0 + x.abs()).ln(),
                    _ => 0.0,
                };
                let err = (d[i] - want).abs();
                assert!(
                    err <= tol * want.abs().max(terms),
                    "{op}({x:e}) f64 on {dev:?}: {} against {want:e}",
                    d[i]
                );
                // `f32` where the argument and the truth are `f32` numbers,
                // within 2 ULPs of the larger (8 for `digamma`: its
                // recurrence's ten roundings, as PyTorch's)
                let (xf, wf) = (x as f32, want as f32);
                let ulps = match op {
                    "digamma" => 8.0,
                    "i0" | "i0e" | "i1" | "i1e" | "ndtri" => 4.0,
                    _ => 2.0,
                };
                if f64::from(xf) == x && wf.is_normal() {
                    let err = f64::from((s[i] - wf).abs());
                    assert!(
                        err <= ulps * 1.2e-7 * f64::from(wf.abs()).max(terms),
                        "{op}({x:e}) f32 on {dev:?}: {} against {wf:e}",
                        s[i]
                    );
                }
            }
        }
    }
}

#[test]
fn modified_bessel_functions_at_the_largest_numbers() {
    // 2πx overflows there: e^-x I(x) is 1 / √(2πx) and I(x) is +∞ (they
    // gave 0 and NaN)
    for dev in devices() {
        for op in ["i0", "i0e", "i1", "i1e"] {
            let x64 = [f64::MAX, -f64::MAX, 1e308];
            let (d, _) = run(op, &dev, &x64);
            let (_, s) = run(op, &dev, &[f64::from(f32::MAX), -f64::from(f32::MAX), 1e38]);
            let odd = op.starts_with("i1");
            for (i, &x) in x64.iter().enumerate() {
                let sign: f64 = if odd && x < 0.0 { -1.0 } else { 1.0 };
                if op.ends_with('e') {
                    let want = sign / (2.0 * std::f64::consts::PI).sqrt() / x.abs().sqrt();
                    assert!(
                        (d[i] - want).abs() <= 1e-14 * want.abs(),
                        "{op}({x:e}) on {dev:?}: {}",
                        d[i]
                    );
                } else {
                    assert_eq!(d[i], sign * f64::INFINITY, "{op}({x:e}) on {dev:?}");
                }
            }
            for (i, &x) in [f32::MAX, -f32::MAX, 1e38f32].iter().enumerate() {
                let sign: f32 = if odd && x < 0.0 { -1.0 } else { 1.0 };
                if op.ends_with('e') {
                    let want = f64::from(sign)
                        / (2.0 * std::f64::consts::PI).sqrt()
                        / f64::from(x.abs()).sqrt();
                    let got = f64::from(s[i]);
                    assert!(
                        (got - want).abs() <= 1e-6 * want.abs(),
                        "{op}({x:e}) f32 on {dev:?}: {got}"
                    );
                } else {
                    assert_eq!(s[i], sign * f32::INFINITY, "{op}({x:e}) f32 on {dev:?}");
                }
            }
        }
    }
}

/// Poles, limits and signed zeros, as PyTorch gives them.
#[test]
fn special_functions_give_pytorchs_values_at_poles_and_limits() {
    let inf = f64::INFINITY;
    let nan = f64::NAN;
    let cases: &[(&str, f64, f64)] = &[
        ("lgamma", 0.0, inf),
        ("lgamma", -0.0, inf),
        ("lgamma", -3.0, inf),
        ("lgamma", 1.0, 0.0),
        ("lgamma", 2.0, 0.0),
        ("lgamma", inf, inf),
        ("lgamma", -inf, inf),
        ("lgamma", nan, nan),
        ("digamma", 0.0, -inf),
        ("digamma", -0.0, inf),
        ("digamma", -1.0, nan),
        ("digamma", -1e20, nan),
        ("digamma", inf, inf),
        ("digamma", -inf, nan),
        ("digamma", nan, nan),
        ("erfinv", 1.0, inf),
        ("erfinv", -1.0, -inf),
        ("erfinv", 0.0, 0.0),
        ("erfinv", -0.0, -0.0),
        ("erfinv", 1.5, nan),
        ("erfinv", -inf, nan),
        ("erfinv", nan, nan),
        ("i0", 0.0, 1.0),
        ("i0", -0.0, 1.0),
        ("i0", inf, inf),
        ("i0", -inf, inf),
        ("i0", nan, nan),
        ("i0e", 0.0, 1.0),
        ("i0e", inf, 0.0),
        ("i0e", -inf, 0.0),
        ("i0e", nan, nan),
        ("i1", 0.0, 0.0),
        ("i1", -0.0, 0.0),
        ("i1", inf, inf),
        ("i1", -inf, -inf),
        ("i1", nan, nan),
        ("i1e", -0.0, 0.0),
        ("i1e", inf, 0.0),
        ("i1e", -inf, -0.0),
        ("i1e", nan, nan),
        ("erfcx", 0.0, 1.0),
        ("erfcx", inf, 0.0),
        ("erfcx", -inf, inf),
        ("erfcx", -30.0, inf),
        ("erfcx", nan, nan),
        ("log_ndtr", inf, -0.0),
        ("log_ndtr", -inf, -inf),
        ("log_ndtr", nan, nan),
        ("ndtri", 0.0, -inf),
        ("ndtri", -0.0, -inf),
        ("ndtri", 1.0, inf),
        ("ndtri", 0.5, 0.0),
        ("ndtri", -0.25, nan),
        ("ndtri", 1.5, nan),
        ("ndtri", inf, nan),
        ("ndtri", nan, nan),
    ];
    for dev in devices() {
        for &(op, x, want) in cases {
            let (d, s) = run(op, &dev, &[x]);
            let same =
                |got: f64| (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits();
            assert!(same(d[0]), "{op}({x}) f64 on {dev:?}: {} not {want}", d[0]);
            assert!(
                same(f64::from(s[0])),
                "{op}({x}) f32 on {dev:?}: {} not {want}",
                s[0]
            );
        }
    }
}

/// `erf(erfinv(y)) = y` and `ψ(x + 1) - ψ(x) = 1/x` over a sweep, on every
/// device, in `f64`.
#[test]
fn special_functions_meet_their_identities() {
    let ys: Vec<f64> = (-999..1000).map(|i| f64::from(i) / 1000.0).collect();
    let xs: Vec<f64> = (1..2000)
        .map(|i| f64::from(i) * 0.0173 - 15.0)
        .filter(|x| x.fract() != 0.0)
        .collect();
    let xs1: Vec<f64> = xs.iter().map(|x| x + 1.0).collect();
    for dev in devices() {
        let (e, _) = run("erfinv", &dev, &ys);
        // `erf` of the host (the `libm` crate's)
        let host = Device::host();
        let back = k::erf::launch(&TensorT::from_slice(&host, &e, [e.len()]).unwrap());
        for ((y, x), b) in ys.iter().zip(&e).zip(back.unwrap().to_vec().unwrap()) {
            assert!(
                (b - y).abs() <= 4e-16,
                "erf(erfinv({y}) = {x}) = {b} on {dev:?}"
            );
        }
        let (p, _) = run("digamma", &dev, &xs);
        let (p1, _) = run("digamma", &dev, &xs1);
        for i in 0..xs.len() {
            let (x, got) = (xs[i], p1[i] - p[i]);
            let scale = p[i].abs().max(p1[i].abs()).max(1.0);
            assert!(
                (got - 1.0 / x).abs() <= 1e-13 * scale,
                "ψ({}) - ψ({x}) = {got}, not 1/x on {dev:?}",
                x + 1.0
            );
        }
    }
}

/// `ndtri(e^log_ndtr(x)) = x` from `x = -30` to 0, on every device, in
/// `f64`: `Φ(x)`'s rounding moves `x` by about `Φ(x) / φ(x)` times it, so
/// within `1e-14 (1 + 1 / |x|)`.
#[test]
fn ndtri_inverts_log_ndtr() {
    let xs: Vec<f64> = (0..3000).map(|i| -f64::from(i) * 0.01).collect();
    for dev in devices() {
        let (l, _) = run("log_ndtr", &dev, &xs);
        let p: Vec<f64> = l.iter().map(|v| v.exp()).collect();
        let (back, _) = run("ndtri", &dev, &p);
        for ((x, p), b) in xs.iter().zip(&p).zip(&back) {
            assert!(
                (b - x).abs() <= 1e-14 * (1.0 + 1.0 / x.abs()),
                "ndtri({p:e}) = {b}, not {x} on {dev:?}"
            );
        }
    }
}

/// The size of `ζ(x, q)`'s largest term, `|q + k|^-x` for the `q + k`
/// nearest 0: where `q < 0` the terms cancel, and the error is of their size.
fn zeta_terms(x: f64, q: f64) -> f64 {
    if q < 0.0 {
        (q - q.round()).abs().powf(-x)
    } else {
        0.0
    }
}

#[test]
fn zeta_device_and_host_agree() {
    let Some(cl) = common::opencl() else { return };
    // the edge pairs, and arguments where ζ is finite: integer and
    // fractional `x` from 1 up, `q` of either sign and many sizes
    let edges = harness::inputs::<f64>();
    let mut pairs: Vec<(f64, f64)> = edges
        .iter()
        .flat_map(|&x| edges.iter().map(move |&q| (x, q)))
        .collect();
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..3000 {
        let x = if next() < 0.5 {
            (2.0 + 10.0 * next()).floor()
        } else {
            1.0 + 30.0 * next() * next()
        };
        let q = if next() < 0.4 {
            100.0 * next() - 60.0
        } else {
            (30.0 * next() - 12.0).exp()
        };
        pairs.push((x, q));
    }
    for (bits, n) in [(64, 40.0), (32, 40.0), (16, 1.0)] {
        let run = |dev: &Device| -> Vec<f64> {
            let x: Vec<f64> = pairs.iter().map(|p| p.0).collect();
            let q: Vec<f64> = pairs.iter().map(|p| p.1).collect();
            match bits {
                64 => {
                    let c = |v: &[f64]| TensorT::from_slice(dev, v, [v.len()]).unwrap();
                    k::zeta::launch(&c(&x), &c(&q)).unwrap().to_vec().unwrap()
                }
                32 => {
                    let c = |v: &[f64]| {
                        let v: Vec<f32> = v.iter().map(|&a| a as f32).collect();
                        TensorT::from_slice(dev, &v, [v.len()]).unwrap()
                    };
                    let o = k::zeta::launch(&c(&x), &c(&q)).unwrap().to_vec().unwrap();
                    o.into_iter().map(f64::from).collect()
                }
                _ => {
                    let c = |v: &[f64]| {
                        let v: Vec<f16> = v.iter().map(|&a| f16::from_f64(a)).collect();
                        TensorT::from_slice(dev, &v, [v.len()]).unwrap()
                    };
                    let o = k::zeta::launch(&c(&x), &c(&q)).unwrap().to_vec().unwrap();
                    o.into_iter().map(f16::to_f64).collect()
                }
            }
        };
        let (d, h) = (run(&cl), run(&Device::host()));
        let eps = match bits {
            64 => f64::EPSILON,
            32 => f64::from(f32::EPSILON),
            _ => 2f64.powi(-10),
        };
        for (i, &(x, q)) in pairs.iter().enumerate() {
            let (a, b) = (d[i], h[i]);
            let same = a == b || (a.is_nan() && b.is_nan());
            // `n` ULPs of the result (powf's 16 each, summed), or of the largest term
            let size = b.abs().max(zeta_terms(x, q));
            assert!(
                same || (a - b).abs() <= n * eps * size,
                "zeta<f{bits}>({x}, {q}): device {a:e}, host {b:e}"
            );
        }
    }
}

/// `(x, q, ζ(x, q))` to 20 digits (mpmath).
const ZETA: &[(f64, f64, f64)] = &[
    (2.0, 1.0, 1.644_934_066_848_226_436_5),
    (3.0, 1.0, 1.202_056_903_159_594_285_4),
    (2.0, 0.5, 4.934_802_200_544_679_309_4),
    (4.0, 2.5, 0.037_317_641_469_542_008_543),
    (1.5, 10.0, 0.648_661_631_941_570_422_15),
    (10.0, 0.1, 10_000_000_000.386_150_311),
    (2.0, -1.5, 9.379_246_644_989_123_753_9),
    (3.0, -1.5, 0.118_102_025_820_863_701_5),
    (50.0, 1.5, 1.568_328_545_496_635_129e-9),
    (1.01, 1.0, 100.577_943_338_496_783_67),
    (2.0, 1e6, 1.000_000_500_000_166_666_7e-6),
    // q so large that q^-x is subnormal while the sum is not: the tail's
    // w^(1-x) / (x - 1) taken directly (as w^-x w it lost 1e-5 and more)
    (2.0, 1e160, 1e-160),
    (2.0, 1e200, 1e-200),
    (3.0, 1e104, 5e-209),
    (7.0, 3.25, 0.000_314_512_180_893_397_112_41),
    (1.5, 0.001, 31_625.386_966_911_913_293),
];

/// `ζ(x, q)` against its table (within `1e-14` relatively in `f64`, `1e-6`
/// in `f32` where both arguments are `f32` numbers), and its poles and
/// limits.
#[test]
fn zeta_meets_its_true_values_and_limits() {
    let inf = f64::INFINITY;
    let nan = f64::NAN;
    let edges: &[(f64, f64, f64)] = &[
        (1.0, 1.0, inf),
        (0.5, 1.0, nan),
        (2.0, 0.0, inf),
        (2.0, -2.0, inf),
        (2.5, -1.5, nan),
        (2.0, inf, 0.0),
        (2.0, -inf, nan),
        (inf, 2.0, 0.0),
        (inf, 1.0, 1.0),
        (inf, 0.5, inf),
        (nan, 1.0, nan),
        (2.0, nan, nan),
    ];
    for dev in devices() {
        for (table, tol) in [(ZETA, 1e-14), (edges, 0.0)] {
            let x: Vec<f64> = table.iter().map(|c| c.0).collect();
            let q: Vec<f64> = table.iter().map(|c| c.1).collect();
            let col = |v: &[f64]| TensorT::from_slice(&dev, v, [v.len()]).unwrap();
            let d = k::zeta::launch(&col(&x), &col(&q))
                .unwrap()
                .to_vec()
                .unwrap();
            let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let q32: Vec<f32> = q.iter().map(|&v| v as f32).collect();
            let col32 = |v: &[f32]| TensorT::from_slice(&dev, v, [v.len()]).unwrap();
            let s = k::zeta::launch(&col32(&x32), &col32(&q32))
                .unwrap()
                .to_vec()
                .unwrap();
            for (i, &(x, q, want)) in table.iter().enumerate() {
                let ok = |got: f64, tol: f64| {
                    (got.is_nan() && want.is_nan())
                        || got == want
                        || ((got - want) / want).abs() <= tol
                };
                assert!(
                    ok(d[i], tol),
                    "zeta({x}, {q}) f64 on {dev:?}: {} not {want:e}",
                    d[i]
                );
                let exact = f64::from(x as f32) == x && f64::from(q as f32) == q;
                if exact && (want as f32).is_normal() || tol == 0.0 {
                    // of the largest term's size where the terms cancel
                    let size = want.abs().max(zeta_terms(x, q)) / want.abs();
                    assert!(
                        ok(f64::from(s[i]), if tol == 0.0 { 0.0 } else { 1e-6 * size }),
                        "zeta({x}, {q}) f32 on {dev:?}: {} not {want:e}",
                        s[i]
                    );
                }
            }
        }
    }
    // sums that underflow to 0 (every term): 0, not 0 / 0's NaN
    for dev in devices() {
        let x = TensorT::from_slice(&dev, &[100.0f32, 1e4], [2]).unwrap();
        let q = TensorT::from_slice(&dev, &[3.5f32, 2.0], [2]).unwrap();
        assert_eq!(
            k::zeta::launch(&x, &q).unwrap().to_vec().unwrap(),
            [0.0, 0.0],
            "{dev:?}"
        );
        let x = TensorT::from_slice(&dev, &[1e4f64], [1]).unwrap();
        let q = TensorT::from_slice(&dev, &[2.0f64], [1]).unwrap();
        assert_eq!(
            k::zeta::launch(&x, &q).unwrap().to_vec().unwrap(),
            [0.0],
            "{dev:?}"
        );
    }
}

/// `(a, x, P(a, x), Q(a, x))` to 20 digits (mpmath, 60 digits of working
/// precision), a pair in each of the regions the functions take apart:
/// Temme's expansion, the series, the small-`a` form of `Q`, the fraction.
const INCGAMMA: &[(f64, f64, f64, f64)] = &[
    (1e-300, 1.09, 1.0, 1.8904611797891216449e-301),
    // x far below a >= 10 (1 + μ near 0 lost digits; 1e-30 gave 0)
    (10.0, 0.001, 2.7532278594284628353e-37, 1.0),
    (10.0, 1e-30, 2.7557319223985913618e-307, 1.0),
    (10.0, 0.0009765625, 2.1719600981878520805e-37, 1.0),
    (25.0, 0.5, 1.1881853393548446169e-33, 1.0),
    (
        12.0,
        0.25,
        9.8807707496123832672e-17,
        0.99999999999999990119,
    ),
    (30.0, 0.125, 2.6984104515210987674e-60, 1.0),
    (0.01, 0.5, 0.99437324380603281585, 0.005626756193967184147),
    (0.1, 1.05, 0.97771777513155771769, 0.022282224868442282311),
    (0.3, 1.5, 0.95789053670411060771, 0.042109463295889392295),
    (0.5, 2.0, 0.9544997361036415856, 0.045500263896358414401),
    (1.0, 1e-05, 9.999950000166667068e-6, 0.99999000004999983333),
    (1.5, 0.5, 0.19874804309879919757, 0.80125195690120080243),
    (2.5, 3.5, 0.77935969206328920921, 0.22064030793671079079),
    (5.0, 1.0, 0.0036598468273437123455, 0.99634015317265628765),
    (5.0, 30.0, 0.99999999637569904794, 3.6243009520614880262e-9),
    (9.5, 9.0, 0.47756172601373708028, 0.52243827398626291972),
    (12.5, 15.5, 0.8109812216768225104, 0.1890187783231774896),
    (19.5, 13.5, 0.073194272964850268991, 0.92680572703514973101),
    (20.5, 14.5, 0.07976405262069458698, 0.92023594737930541302),
    (50.0, 49.0, 0.46210439360094025889, 0.53789560639905974111),
    (
        99.0,
        130.0,
        0.99796097806214027614,
        0.0020390219378597238575,
    ),
    (101.0, 100.0, 0.47343780147000152962, 0.52656219852999847038),
    (
        150.0,
        196.5,
        0.99975804127386413805,
        2.419587261358619489e-4,
    ),
    (
        1000.0,
        1010.0,
        0.62767894473699472753,
        0.37232105526300527247,
    ),
    (
        10000.0,
        9900.0,
        0.15865119219356465696,
        0.84134880780643534304,
    ),
    (
        1000000.0,
        1001000.0,
        0.84134478636834029163,
        0.15865521363165970837,
    ),
    (3.0, 0.03, 4.3999549397490793913e-6, 0.99999560004506025092),
    (
        0.75,
        25.0,
        0.99999999999497997238,
        5.0200276155996039112e-12,
    ),
    (
        250.0,
        400.0,
        0.9999999999999996823,
        3.1770076592385689056e-16,
    ),
    (7.0, 2.0, 0.0045338055262488662908, 0.99546619447375113371),
];

/// `gammainc` or `gammaincc` on `dev` in `f64` and `f32`.
fn incgamma(upper: bool, dev: &Device, a: &[f64], x: &[f64]) -> (Vec<f64>, Vec<f32>) {
    let c = |v: &[f64]| TensorT::from_slice(dev, v, [v.len()]).unwrap();
    let c32 = |v: &[f64]| {
        let v: Vec<f32> = v.iter().map(|&t| t as f32).collect();
        TensorT::from_slice(dev, &v, [v.len()]).unwrap()
    };
    let (d, s) = if upper {
        (
            k::gammaincc::launch(&c(a), &c(x)),
            k::gammaincc::launch(&c32(a), &c32(x)),
        )
    } else {
        (
            k::gammainc::launch(&c(a), &c(x)),
            k::gammainc::launch(&c32(a), &c32(x)),
        )
    };
    (d.unwrap().to_vec().unwrap(), s.unwrap().to_vec().unwrap())
}

/// `P` and `Q` against the table, each within `1e-14 (1 + |ln v|)` of its
/// value `v` in `f64` (the factor `x^a e^-x / Γ(a)` is an exponential whose
/// argument carries that rounding: below `a = 10` it is formed from terms
/// up to about `2a` that cancel), and within `8 (1 + |ln v|)` `f32` ULPs
/// where `a` and `x` are `f32` numbers.
#[test]
fn incomplete_gamma_meets_its_true_values() {
    let a: Vec<f64> = INCGAMMA.iter().map(|c| c.0).collect();
    let x: Vec<f64> = INCGAMMA.iter().map(|c| c.1).collect();
    for dev in devices() {
        for upper in [false, true] {
            let (d, s) = incgamma(upper, &dev, &a, &x);
            for (i, &(a, x, p, q)) in INCGAMMA.iter().enumerate() {
                let want = if upper { q } else { p };
                let scale = 1.0 + want.ln().abs();
                assert!(
                    (d[i] - want).abs() <= 1e-14 * scale * want,
                    "{}({a}, {x}) f64 on {dev:?}: {} not {want:e}",
                    if upper { "gammaincc" } else { "gammainc" },
                    d[i]
                );
                let exact = f64::from(a as f32) == a && f64::from(x as f32) == x;
                if exact && (want as f32).is_normal() {
                    let err = (f64::from(s[i]) - want).abs();
                    assert!(
                        err <= 8.0 * f64::from(f32::EPSILON) * scale * want,
                        "{}({a}, {x}) f32 on {dev:?}: {} not {want:e}",
                        if upper { "gammaincc" } else { "gammainc" },
                        s[i]
                    );
                }
            }
        }
    }
}

/// The limits and NaNs, as PyTorch's: `(a, x, P, Q)`.
#[test]
fn incomplete_gamma_gives_pytorchs_limits() {
    let inf = f64::INFINITY;
    let nan = f64::NAN;
    let cases: &[(f64, f64, f64, f64)] = &[
        (0.0, 0.0, nan, nan),
        (0.0, 1.0, 1.0, 0.0),
        (1.0, 0.0, 0.0, 1.0),
        (-1.0, 1.0, nan, nan),
        (1.0, -1.0, nan, nan),
        (inf, 1.0, 0.0, 1.0),
        (inf, inf, nan, nan),
        (1.0, inf, 1.0, 0.0),
        (0.0, inf, 1.0, 0.0),
        (inf, 0.0, 0.0, 1.0),
        (nan, 1.0, nan, nan),
        (1.0, nan, nan, nan),
        (5.0, 1e-300, 0.0, 1.0),
        (1e10, 5e9, 0.0, 1.0),
        (1e10, 1.5e10, 1.0, 0.0),
        (1e-300, 1e300, 1.0, 0.0),
    ];
    let a: Vec<f64> = cases.iter().map(|c| c.0).collect();
    let x: Vec<f64> = cases.iter().map(|c| c.1).collect();
    for dev in devices() {
        for upper in [false, true] {
            let (d, s) = incgamma(upper, &dev, &a, &x);
            for (i, &(a, x, p, q)) in cases.iter().enumerate() {
                let want = if upper { q } else { p };
                let same = |got: f64| (got.is_nan() && want.is_nan()) || got == want;
                assert!(same(d[i]), "({a}, {x}) f64 on {dev:?}: {} not {want}", d[i]);
                if (a as f32).is_finite() == a.is_finite() {
                    assert!(
                        same(f64::from(s[i])),
                        "({a}, {x}) f32 on {dev:?}: {} not {want}",
                        s[i]
                    );
                }
            }
        }
    }
}

/// `erfc(x)` of the host (the `libm` crate's).
fn erfc_host(x: f64) -> f64 {
    let t = TensorT::from_slice(&Device::host(), &[x], [1]).unwrap();
    k::erfc::launch(&t).unwrap().to_vec().unwrap()[0]
}

/// `P(1, x) = 1 - e^-x`, `Q(1/2, x) = erfc(√x)` and `P + Q = 1` over a
/// sweep, on every device, in `f64`.
#[test]
fn incomplete_gamma_meets_its_identities() {
    let xs: Vec<f64> = (1..400).map(|i| f64::from(i) * 0.05).collect();
    let ones = vec![1.0; xs.len()];
    let halves = vec![0.5; xs.len()];
    for dev in devices() {
        let (p1, _) = incgamma(false, &dev, &ones, &xs);
        let (q5, _) = incgamma(true, &dev, &halves, &xs);
        for (i, &x) in xs.iter().enumerate() {
            let want = -(-x).exp_m1();
            assert!(
                (p1[i] - want).abs() <= 2e-15 * want,
                "P(1, {x}) = {} on {dev:?}",
                p1[i]
            );
            let want = erfc_host(x.sqrt());
            assert!(
                (q5[i] - want).abs() <= 2e-14 * want * (1.0 + x),
                "Q(1/2, {x}) = {} not {want} on {dev:?}",
                q5[i]
            );
        }
        // a spread of pairs over every region
        let mut a = Vec::new();
        let mut x = Vec::new();
        for i in 0..60 {
            for j in 0..40 {
                let av = 10f64.powf(-3.0 + f64::from(i) * 0.12);
                a.push(av);
                x.push(av * 10f64.powf(-1.5 + f64::from(j) * 0.05));
            }
        }
        let (p, _) = incgamma(false, &dev, &a, &x);
        let (q, _) = incgamma(true, &dev, &a, &x);
        for i in 0..a.len() {
            assert!(
                (p[i] + q[i] - 1.0).abs() <= 2e-15,
                "P + Q = {} at ({}, {}) on {dev:?}",
                p[i] + q[i],
                a[i],
                x[i]
            );
        }
    }
}

/// The device against the host over random pairs in every region and the
/// edges, in `f64`, `f32` and `f16`: the sums and fractions are IEEE
/// arithmetic alike everywhere; `exp`, `ln`, `lgamma` and `erfc` differ, by
/// a few ULPs of an exponent `ln v` for a value `v`.
#[test]
fn incomplete_gamma_device_and_host_agree() {
    let Some(cl) = common::opencl() else { return };
    let edges = harness::inputs::<f64>();
    let mut a: Vec<f64> = Vec::new();
    let mut x: Vec<f64> = Vec::new();
    for &p in &edges {
        for &q in &edges {
            a.push(p);
            x.push(q);
        }
    }
    let mut seed: u64 = 0x1_6a33;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..4000 {
        let av = 10f64.powf(-4.0 + 10.0 * next());
        a.push(av);
        x.push(av * 10f64.powf(-2.0 + 3.0 * next()));
    }
    for upper in [false, true] {
        let (d64, d32) = incgamma(upper, &cl, &a, &x);
        let (h64, h32) = incgamma(upper, &Device::host(), &a, &x);
        let close = |d: f64, h: f64, eps: f64| {
            (d.is_nan() && h.is_nan())
                || d == h
                || (d - h).abs() <= 64.0 * eps * (1.0 + h.abs().ln().abs()) * h.abs()
                || (d.abs() < 1e-290 && h.abs() < 1e-290)
        };
        for i in 0..a.len() {
            assert!(
                close(d64[i], h64[i], f64::EPSILON),
                "upper {upper} ({}, {}) f64: device {}, host {}",
                a[i],
                x[i],
                d64[i],
                h64[i]
            );
            assert!(
                close(
                    f64::from(d32[i]),
                    f64::from(h32[i]),
                    f64::from(f32::EPSILON)
                ) || (d32[i].abs() < 1e-36 && h32[i].abs() < 1e-36),
                "upper {upper} ({}, {}) f32: device {}, host {}",
                a[i],
                x[i],
                d32[i],
                h32[i]
            );
        }
    }
    // f16: on each device, that device's f32 result of the same (f16)
    // arguments, rounded once
    let a16: Vec<f16> = a.iter().map(|&t| f16::from_f64(t)).collect();
    let x16: Vec<f16> = x.iter().map(|&t| f16::from_f64(t)).collect();
    let a32: Vec<f64> = a16.iter().map(|t| t.to_f64()).collect();
    let x32: Vec<f64> = x16.iter().map(|t| t.to_f64()).collect();
    for dev in [cl, Device::host()] {
        let c16 = |v: &[f16]| TensorT::from_slice(&dev, v, [v.len()]).unwrap();
        for upper in [false, true] {
            let h = if upper {
                k::gammaincc::launch(&c16(&a16), &c16(&x16))
            } else {
                k::gammainc::launch(&c16(&a16), &c16(&x16))
            };
            let h = h.unwrap().to_vec().unwrap();
            let (_, s) = incgamma(upper, &dev, &a32, &x32);
            for i in 0..h.len() {
                let want = f16::from_f32(s[i]);
                assert!(
                    h[i] == want || (h[i].is_nan() && want.is_nan()),
                    "upper {upper} f16 ({}, {}) on {dev:?}: {h:?} not {want:?}",
                    a16[i],
                    x16[i],
                    h = h[i]
                );
            }
        }
    }
}

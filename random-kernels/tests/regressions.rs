//! Findings of the random kernels, minimised and written by hand: each checked on
//! the OpenCL device and on the host, and against the value it should have.

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::prelude::*;
use silt_random_kernels::Elem;

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// `acosh` and `asinh` on the host were std's: infinity above `MAX / 2` (the
/// device gives about 710 for `f64`), and for `acosh` millions of ULPs off just
/// above 1 (`ln` of `1 + tiny`).
#[kernel(types = [f32, f64])]
pub fn inverse_hyperbolic<T>(x: T) -> (T, T) {
    (x.acosh(), x.asinh())
}

/// `acosh(1 + d)` for small `d`: `sqrt(2d) (1 - d/12 + 3d²/160)`.
fn acosh_near_one(d: f64) -> f64 {
    (2.0 * d).sqrt() * (1.0 - d / 12.0 + 3.0 * d * d / 160.0)
}

#[test]
fn acosh_asinh_are_accurate_over_the_whole_range() {
    // f64: the values and what they should give
    let x: Vec<f64> = vec![
        f64::MAX,
        f64::MAX * 0.75,
        1e300,
        268_435_456.0,
        3.0,
        2.0,
        1.0 + 2f64.powi(-20),
        1.0 + 2f64.powi(-40),
        1.0 + f64::EPSILON,
        1.0,
        0.5,
        f64::INFINITY,
        f64::NAN,
        -f64::MAX,
        0.0,
        1e-300,
    ];
    let ln2 = std::f64::consts::LN_2;
    let want_acosh: Vec<Option<f64>> = vec![
        Some(f64::MAX.ln() + ln2),
        Some((f64::MAX * 0.75).ln() + ln2),
        Some(1e300f64.ln() + ln2),
        None,
        Some(1.762_747_174_039_086),
        Some(1.316_957_896_924_816_6),
        Some(acosh_near_one(2f64.powi(-20))),
        Some(acosh_near_one(2f64.powi(-40))),
        Some(acosh_near_one(f64::EPSILON)),
        Some(0.0),
        None,
        Some(f64::INFINITY),
        None,
        None,
        None,
        None,
    ];
    for dev in common::devices() {
        let (a, s) = inverse_hyperbolic::launch(&col(&dev, &x)).unwrap();
        let (a, s) = (a.to_vec().unwrap(), s.to_vec().unwrap());
        for (i, w) in want_acosh.iter().enumerate() {
            if let Some(w) = w {
                assert!(
                    a[i].distance(*w) <= 5,
                    "acosh({:e}) on {dev}: {:e}, want {w:e}",
                    x[i],
                    a[i]
                );
            }
        }
        assert!(
            a[10].is_nan() && a[12].is_nan() && a[13].is_nan(),
            "acosh below 1 is NaN on {dev}"
        );
        assert!(
            s[0].distance(f64::MAX.ln() + ln2) <= 5 && s[13].distance(-(f64::MAX.ln() + ln2)) <= 5,
            "asinh(±MAX) on {dev}: {:e}, {:e}",
            s[0],
            s[13]
        );
        assert!(
            s[11] == f64::INFINITY && s[12].is_nan() && s[14] == 0.0 && s[15].distance(1e-300) <= 1,
            "asinh of inf, NaN, 0, 1e-300 on {dev}: {:?}",
            &s[11..]
        );
    }
    // f32: device and host agree within the bound, and `acosh(MAX)` is finite
    let x: Vec<f32> = vec![
        f32::MAX,
        f32::MAX * 0.75,
        1e30,
        1.0 + f32::EPSILON,
        1.0 + 2f32.powi(-12),
        1.5,
        -f32::MAX,
    ];
    let Some(cl) = common::opencl() else { return };
    let run = |dev: &Device| {
        let (a, s) = inverse_hyperbolic::launch(&col(dev, &x)).unwrap();
        (a.to_vec().unwrap(), s.to_vec().unwrap())
    };
    let (d, h) = (run(&cl), run(&Device::host()));
    for (i, xi) in x.iter().enumerate() {
        assert!(
            d.0[i].distance(h.0[i]) <= 5,
            "acosh({xi:e}): device {:e}, host {:e}",
            d.0[i],
            h.0[i]
        );
        assert!(
            d.1[i].distance(h.1[i]) <= 5,
            "asinh({xi:e}): device {:e}, host {:e}",
            d.1[i],
            h.1[i]
        );
    }
    assert!(
        h.0[0].is_finite() && (h.0[0] - 89.415_985).abs() < 1e-4,
        "acosh(f32::MAX) = {}",
        h.0[0]
    );
}

/// The sign of a NaN that arithmetic makes is unspecified (it differed between
/// PoCL and the host for `(x - x) * k` with `x` NaN); the sign of a NaN input
/// passed on, negated or copied with `copysign` is not, and agrees.
#[kernel(types = [f32, f64])]
pub fn nan_signs<T>(x: T, y: T) -> (bool, bool, T, T, T) {
    (
        x.is_sign_negative(),
        (-x).is_sign_positive(),
        y.copysign(x),
        x.abs(),
        -x,
    )
}

#[test]
fn input_nan_signs_agree() {
    fn check<T: Elem + nan_signs::Instance>(x: Vec<T>, y: Vec<T>) {
        let Some(cl) = common::opencl() else { return };
        let run = |dev: &Device| {
            let o = nan_signs::launch(&col(dev, &x), &col(dev, &y)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
            )
        };
        let (d, h) = (run(&cl), run(&Device::host()));
        assert_eq!(d.0, h.0, "is_sign_negative of input NaNs");
        assert_eq!(d.1, h.1, "is_sign_positive of negated NaNs");
        for (i, xi) in x.iter().enumerate() {
            assert_eq!(d.2[i].distance(h.2[i]), 0, "copysign from {xi:?}");
            assert_eq!(d.3[i].distance(h.3[i]), 0, "abs of {xi:?}");
            assert_eq!(d.4[i].distance(h.4[i]), 0, "neg of {xi:?}");
        }
        assert_eq!(h.0, [false, true, false, true], "input signs");
    }
    check::<f32>(
        vec![f32::NAN, -f32::NAN, 1.0, -0.0],
        vec![2.0, 2.0, -3.0, 3.0],
    );
    check::<f64>(
        vec![f64::NAN, -f64::NAN, 1.0, -0.0],
        vec![2.0, 2.0, -3.0, 3.0],
    );
}

/// A `map` parameter named `axes` took the name of `launch`'s last parameter
/// (the module did not compile); `return if c { a } else { b };` of a tuple
/// was rejected.
#[reduce(types = [f32, i32])]
pub mod argmax_named_axes {
    pub fn identity<T>() -> (T, i64) {
        (T::MIN, -1)
    }
    pub fn map<T>(axes: T, #[index] exclusive: u64) -> (T, i64) {
        (axes, exclusive as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        return if b.0 > a.0 { b } else { a };
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> i64 {
        acc.1
    }
}

/// As above for a scan: `axis` and `exclusive` were `launch`'s parameters.
#[scan(types = [i32])]
pub mod running_sum_named_axis {
    pub fn identity<T>() -> T {
        0 as T
    }
    pub fn map<T>(axis: T, #[scalar] exclusive: T) -> T {
        axis * exclusive
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[test]
fn reduction_parameters_may_be_named_as_launchs() {
    let x = [3.0f32, 9.0, -1.0, 9.0, 2.0, 0.5];
    let xi = [1i32, 2, 3, 4, 5, 6];
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &x, [2, 3]).unwrap();
        let rows = argmax_named_axes::launch(&t, Axes::of([-1])).unwrap();
        assert_eq!(rows.to_vec().unwrap(), [1, 0], "{dev}");
        let all = argmax_named_axes::launch(&t, Axes::all()).unwrap();
        assert_eq!(all.to_vec().unwrap(), [1], "{dev}");
        let ti = TensorT::from_slice(&dev, &xi, [2, 3]).unwrap();
        let s = running_sum_named_axis::launch(&ti, 2, -1).unwrap();
        assert_eq!(s.to_vec().unwrap(), [2, 6, 12, 8, 18, 30], "{dev}");
        let e = running_sum_named_axis::launch_exclusive(&ti, 2, 0).unwrap();
        assert_eq!(e.to_vec().unwrap(), [0, 0, 0, 2, 4, 6], "{dev}");
    }
    assert_eq!(argmax_named_axes::eval(&x), 1);
    assert_eq!(argmax_named_axes::eval(&[2i32, 7, 7]), 1);
    assert_eq!(running_sum_named_axis::eval(&[1, 2], 3), [3, 9]);
}

/// A local named after an OpenCL built-in that silt calls (`abs_diff`, here a
/// parameter) hid the built-in from `a.abs_diff(b)` in the same function:
/// the program failed to build. Such names are now renamed in the C.
#[kernel(types = [u8, i32])]
pub fn shadowing_builtins<T>(a: T, abs_diff: T, lgamma: f32, popcount: u32) -> (T, f32, u32) {
    (
        a.abs_diff(abs_diff) as T,
        lgamma.lgamma() + lgamma,
        popcount.count_ones() + popcount,
    )
}

#[test]
fn locals_named_as_builtins_do_not_hide_them() {
    for dev in common::devices() {
        let o = shadowing_builtins::launch(
            &col(&dev, &[7u8, 200]),
            &col(&dev, &[9u8, 5]),
            &col(&dev, &[3.0f32, 1.0]),
            &col(&dev, &[7u32, 0]),
        )
        .unwrap();
        assert_eq!(o.0.to_vec().unwrap(), [2u8, 195], "{dev}");
        let l = o.1.to_vec().unwrap();
        assert!(
            (l[0] - (2f32.ln() + 3.0)).abs() < 1e-6 && l[1] == 1.0,
            "{dev}: {l:?}"
        );
        assert_eq!(o.2.to_vec().unwrap(), [10u32, 0], "{dev}");
    }
}

/// `abs_diff` of constants: PoCL folded its built-in wrongly
/// (`i64::MIN.abs_diff(2147483647)` came out 0); silt now computes it in
/// unsigned arithmetic of its own.
#[kernel]
pub fn abs_diff_of_constants(z: u64) -> (u64, u32, u8, u64) {
    (
        i64::MIN.abs_diff(0o17777777777i64) + z,
        i32::MIN.abs_diff(i32::MAX) + z as u32,
        (-128i8).abs_diff(127i8) + z as u8,
        i64::MAX.abs_diff(i64::MIN) + z,
    )
}

#[test]
fn abs_diff_of_constants_is_exact() {
    for dev in common::devices() {
        let o = abs_diff_of_constants::launch(&col(&dev, &[0u64])).unwrap();
        assert_eq!(
            o.0.to_vec().unwrap(),
            [i64::MIN.abs_diff(2_147_483_647)],
            "{dev}"
        );
        assert_eq!(o.1.to_vec().unwrap(), [u32::MAX], "{dev}");
        assert_eq!(o.2.to_vec().unwrap(), [255u8], "{dev}");
        assert_eq!(o.3.to_vec().unwrap(), [u64::MAX], "{dev}");
    }
}

/// `powi` with a negative exponent whose positive power overflows: std's
/// `powi` (`1 / x^n`) gave 0 on the host where the devices' `pown` gives the
/// subnormal result (`(-5.857e156).powi(-2)` is 2.9e-314).
#[kernel(types = [f32, f64])]
pub fn powi_into_the_subnormals<T>(x: T) -> (T, T) {
    (x.powi(-2), x.powi(-3))
}

#[test]
fn powi_of_negative_powers_reaches_the_subnormals() {
    for dev in common::devices() {
        // exact powers of two: 2^-1040 and 2^-1560 (0) in f64, 2^-140 and
        // 2^-210 (0) in f32
        let o = powi_into_the_subnormals::launch(&col(&dev, &[2f64.powi(520), -2f64.powi(520)]))
            .unwrap();
        let tiny = f64::from_bits(1 << 34); // 2^-1040
        assert_eq!(o.0.to_vec().unwrap(), [tiny, tiny], "{dev}");
        assert_eq!(o.1.to_vec().unwrap(), [0.0, -0.0], "{dev}");
        let o = powi_into_the_subnormals::launch(&col(&dev, &[2f32.powi(70)])).unwrap();
        assert_eq!(o.0.to_vec().unwrap(), [f32::from_bits(1 << 9)], "{dev}");
        assert_eq!(o.1.to_vec().unwrap(), [0.0], "{dev}");
        // the value of the finding, within a few ULPs of the subnormal
        let o =
            powi_into_the_subnormals::launch(&col(&dev, &[-5.857_481_669_730_012e156f64])).unwrap();
        let got = o.0.to_vec().unwrap()[0];
        let want = 2.914_594_383e-314;
        assert!((got - want).abs() < 1e-322, "{dev}: {got:e}");
    }
}

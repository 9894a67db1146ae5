//! Device results against the host's `eval` of the same body, on edge values:
//! bit-exact where silt's semantics are exact, within OpenCL's ULP bounds for
//! transcendental functions.

use silt::prelude::*;

use crate::common;
use crate::defs;
use crate::values::{assert_exact, assert_ulps, pairs, Edge, Edges};

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// Runs `f` on the host and on the OpenCL device.
fn both<R>(f: impl Fn(&Device) -> R) -> Option<(R, R)> {
    let cl = common::opencl()?;
    Some((f(&cl), f(&Device::host())))
}

macro_rules! exact {
    ($what:expr, $d:expr, $h:expr, $inputs:expr; $($i:tt),*) => {$(
        assert_exact(&format!("{} output {}", $what, $i), &$d.$i, &$h.$i, $inputs);
    )*};
}

#[test]
fn int_arith_wraps_and_divides_by_zero_to_zero() {
    fn check<T: Edge + defs::int_arith::Instance>() {
        let (a, b) = pairs::<T>();
        let Some((d, h)) = both(|dev| {
            let o = defs::int_arith::launch(&col(dev, &a), &col(dev, &b)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {:?}", a[i], b[i]);
        exact!(format!("int_arith<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4);
        for i in 0..a.len() {
            let e = defs::int_arith::eval(a[i], b[i]);
            assert_eq!(
                (e.0, e.3, e.4),
                (h.0[i], h.3[i], h.4[i]),
                "launch on the host is eval"
            );
        }
    }
    check::<u8>();
    check::<i8>();
    check::<u16>();
    check::<i16>();
    check::<u32>();
    check::<i32>();
    check::<u64>();
    check::<i64>();
}

#[test]
fn int_bits_mask_shift_counts() {
    fn check<T: Edge + defs::int_bits::Instance>() {
        let (a, b) = pairs::<T>();
        let s: Vec<u32> = (0..a.len() as u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % 200)
            .collect();
        let Some((d, h)) = both(|dev| {
            let o = defs::int_bits::launch(&col(dev, &a), &col(dev, &b), &col(dev, &s)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {:?}, {}", a[i], b[i], s[i]);
        exact!(format!("int_bits<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5);
    }
    check::<u8>();
    check::<i8>();
    check::<u16>();
    check::<i16>();
    check::<u32>();
    check::<i32>();
    check::<u64>();
    check::<i64>();
}

#[test]
fn signed_ops_wrap_at_min() {
    fn check<T: Edge + defs::signed_ops::Instance>() {
        let a = T::edges();
        let Some((d, h)) = both(|dev| {
            let o = defs::signed_ops::launch(&col(dev, &a)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}", a[i]);
        exact!(format!("signed_ops<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3);
    }
    check::<i8>();
    check::<i16>();
    check::<i32>();
    check::<i64>();
}

#[test]
fn int_counts_and_min_max() {
    fn check<T: Edge + defs::int_counts::Instance>() {
        let (a, b) = pairs::<T>();
        let Some((d, h)) = both(|dev| {
            let o = defs::int_counts::launch(&col(dev, &a), &col(dev, &b)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {:?}", a[i], b[i]);
        exact!(format!("int_counts<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5);
    }
    check::<u8>();
    check::<i8>();
    check::<u16>();
    check::<i16>();
    check::<u32>();
    check::<i32>();
    check::<u64>();
    check::<i64>();
}

#[test]
fn float_to_int_casts_saturate() {
    fn check<T: Edge + defs::float_to_int::Instance>() {
        let a = T::edges();
        let Some((d, h)) = both(|dev| {
            let o = defs::float_to_int::launch(&col(dev, &a)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
                o.6.to_vec().unwrap(),
                o.7.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}", a[i]);
        exact!(format!("float_to_int<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5, 6, 7);
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn int_casts_truncate_and_round() {
    fn check<T: Edge + defs::int_casts::Instance>() {
        let a = T::edges();
        let Some((d, h)) = both(|dev| {
            let o = defs::int_casts::launch(&col(dev, &a)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
                o.6.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}", a[i]);
        exact!(format!("int_casts<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5, 6);
    }
    check::<u8>();
    check::<i8>();
    check::<u16>();
    check::<i16>();
    check::<u32>();
    check::<i32>();
    check::<u64>();
    check::<i64>();
}

#[test]
fn f64_to_f32_rounds_to_nearest_even() {
    let mut x = f64::edges();
    // halfway cases between neighbouring f32 values, and values past f32's range
    x.extend([
        1.0 + f64::from(f32::EPSILON) / 2.0,
        1.0 + 3.0 * f64::from(f32::EPSILON) / 2.0,
        3.5e38,
        1e-46,
    ]);
    let flags: Vec<bool> = (0..x.len()).map(|i| i % 3 == 0).collect();
    let Some((d, h)) = both(|dev| {
        let o = defs::narrow_f64::launch(&col(dev, &x), &col(dev, &flags)).unwrap();
        (
            o.0.to_vec().unwrap(),
            o.1.to_vec().unwrap(),
            o.2.to_vec().unwrap(),
        )
    }) else {
        return;
    };
    exact!("narrow_f64", d, h, &|i: usize| format!("{:?}", x[i]); 0, 1, 2);
}

#[test]
fn float_arithmetic_is_correctly_rounded() {
    fn check<T: Edge + defs::float_exact::Instance>() {
        let (a, b) = pairs::<T>();
        let Some((d, h)) = both(|dev| {
            let o = defs::float_exact::launch(&col(dev, &a), &col(dev, &b)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {:?}", a[i], b[i]);
        exact!(format!("float_exact<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5);
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn float_min_max_clamp_fma_copysign() {
    fn check<T: Edge + defs::float_minmax::Instance>() {
        let (a, b) = pairs::<T>();
        let Some((d, h)) = both(|dev| {
            let o = defs::float_minmax::launch(&col(dev, &a), &col(dev, &b)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {:?}", a[i], b[i]);
        exact!(format!("float_minmax<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4);
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn float_rounding_functions() {
    fn check<T: Edge + defs::float_round::Instance>() {
        let a = T::edges();
        let Some((d, h)) = both(|dev| {
            let o = defs::float_round::launch(&col(dev, &a)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
                o.6.to_vec().unwrap(),
                o.7.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}", a[i]);
        exact!(format!("float_round<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5, 6, 7);
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn float_comparisons_with_nan() {
    fn check<T: Edge + defs::float_compare::Instance>() {
        let (a, b) = pairs::<T>();
        let Some((d, h)) = both(|dev| {
            let o = defs::float_compare::launch(&col(dev, &a), &col(dev, &b)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
                o.4.to_vec().unwrap(),
                o.5.to_vec().unwrap(),
                o.6.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {:?}", a[i], b[i]);
        exact!(format!("float_compare<{}>", T::DTYPE), d, h, &inputs; 0, 1, 2, 3, 4, 5, 6);
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn float_bits_recip_degrees() {
    let a = f32::edges();
    let Some((d, h)) = both(|dev| {
        let o = defs::float_bits::launch(&col(dev, &a)).unwrap();
        (
            o.0.to_vec().unwrap(),
            o.1.to_vec().unwrap(),
            o.2.to_vec().unwrap(),
        )
    }) else {
        return;
    };
    exact!("float_bits", d, h, &|i: usize| format!("{:?}", a[i]); 0, 1, 2);
}

/// OpenCL 1.2's bounds (full profile; section 7.4), plus one for the host's own error.
fn ulp_bounds() -> (Vec<(&'static str, u64)>, Vec<(&'static str, u64)>) {
    let t1 = vec![
        ("exp", 4),
        ("ln", 4),
        ("sin", 5),
        ("cos", 5),
        ("tanh", 6),
        ("atan2", 7),
        ("powf", 17),
        ("cbrt", 3),
    ];
    let t2 = vec![
        ("exp2", 4),
        ("log2", 4),
        ("log10", 4),
        ("exp_m1", 4),
        ("ln_1p", 3),
        ("asin", 5),
        ("acos", 5),
        ("atan", 6),
        ("sinh", 5),
        ("cosh", 5),
        ("hypot", 5),
        ("powi", 17),
    ];
    (t1, t2)
}

#[test]
fn transcendental_functions_within_spec_ulps() {
    fn check<T: Edge + defs::transcendental::Instance + defs::transcendental2::Instance>(
    ) -> Vec<(String, u64)> {
        let mut x = T::edges();
        // a sweep of ordinary arguments
        for i in -200..200 {
            x.push(
                T::from_scalar(Scalar::F64(f64::from(i) * 0.037))
                    .unwrap_or_else(|| Scalar::F64(f64::from(i) * 0.037).to().unwrap()),
            );
        }
        let (b1, b2) = ulp_bounds();
        let mut report = Vec::new();
        let inputs = |i: usize| format!("{:?}", x[i]);
        let Some((d, h)) = both(|dev| {
            let o = defs::transcendental::launch(&col(dev, &x)).unwrap();
            [o.0, o.1, o.2, o.3, o.4, o.5, o.6, o.7].map(|t| t.to_vec().unwrap())
        }) else {
            return report;
        };
        for (k, (name, bound)) in b1.iter().enumerate() {
            let worst = assert_ulps(
                &format!("{name}<{}>", T::DTYPE),
                &d[k],
                &h[k],
                *bound,
                &inputs,
            );
            report.push((format!("{name}<{}>", T::DTYPE), worst));
        }
        let Some((d, h)) = both(|dev| {
            let o = defs::transcendental2::launch(&col(dev, &x)).unwrap();
            [o.0, o.1, o.2, o.3, o.4, o.5, o.6, o.7, o.8, o.9, o.10, o.11]
                .map(|t| t.to_vec().unwrap())
        }) else {
            return report;
        };
        for (k, (name, bound)) in b2.iter().enumerate() {
            let worst = assert_ulps(
                &format!("{name}<{}>", T::DTYPE),
                &d[k],
                &h[k],
                *bound,
                &inputs,
            );
            report.push((format!("{name}<{}>", T::DTYPE), worst));
        }
        report
    }
    let mut all = check::<f32>();
    all.extend(check::<f64>());
    eprintln!("worst ULP distance device vs host: {all:?}");
}

#[test]
fn control_flow_and_literal_typing() {
    fn check<T: Edge + defs::control::Instance + defs::sign::Instance>() {
        let x = T::edges();
        let n: Vec<i32> = (0..x.len() as i32).map(|i| i % 13 - 7).collect();
        let Some((d, h)) = both(|dev| {
            (
                defs::control::launch(&col(dev, &x), &col(dev, &n))
                    .unwrap()
                    .to_vec()
                    .unwrap(),
                defs::sign::launch(&col(dev, &x)).unwrap().to_vec().unwrap(),
            )
        }) else {
            return;
        };
        let inputs = |i: usize| format!("{:?}, {}", x[i], n[i]);
        exact!(format!("control/sign<{}>", T::DTYPE), d, h, &inputs; 0, 1);
    }
    check::<i32>();
    check::<f32>();
}

#[test]
fn inclusive_range_stops_at_max() {
    let n: Vec<u8> = vec![0, 249, 250, 251, 254, 255];
    let Some((d, h)) = both(|dev| {
        defs::inclusive_range::launch(&col(dev, &n))
            .unwrap()
            .to_vec()
            .unwrap()
    }) else {
        return;
    };
    assert_eq!(d, h);
    assert_eq!(h, [0, 0, 250, 501, 1260, 1515]);
}

#[test]
fn logic_names_consts_compound() {
    let (a, b) = pairs::<bool>();
    let Some((d, h)) = both(|dev| {
        let o = defs::logic::launch(&col(dev, &a), &col(dev, &b)).unwrap();
        (
            o.0.to_vec().unwrap(),
            o.1.to_vec().unwrap(),
            o.2.to_vec().unwrap(),
            o.3.to_vec().unwrap(),
            o.4.to_vec().unwrap(),
        )
    }) else {
        return;
    };
    exact!("logic", d, h, &|i: usize| format!("{}, {}", a[i], b[i]); 0, 1, 2, 3, 4);
    assert_eq!(h.2, [false, true, true, false], "xor");

    let x = f32::edges();
    let k: Vec<i32> = (0..x.len() as i32).collect();
    let Some((d, h)) = both(|dev| {
        (
            defs::names::launch(&col(dev, &x), &col(dev, &x), &col(dev, &k))
                .unwrap()
                .to_vec()
                .unwrap(),
            defs::consts::launch(&col(dev, &x))
                .unwrap()
                .to_vec()
                .unwrap(),
        )
    }) else {
        return;
    };
    exact!("names/consts", d, h, &|i: usize| format!("{:?}", x[i]); 0, 1);

    fn compound<T: Edge + defs::compound::Instance>() {
        let (a, b) = pairs::<T>();
        let Some((d, h)) = both(|dev| {
            let mut y = col(dev, &b);
            defs::compound::launch(&col(dev, &a), &mut y).unwrap();
            y.to_vec().unwrap()
        }) else {
            return;
        };
        assert_exact(&format!("compound<{}>", T::DTYPE), &d, &h, &|i| {
            format!("{:?}, {:?}", a[i], b[i])
        });
    }
    compound::<u8>();
    compound::<i64>();
    fn int_consts<T: Edge + defs::int_consts::Instance>() {
        let a = T::edges();
        let Some((d, h)) = both(|dev| {
            let o = defs::int_consts::launch(&col(dev, &a)).unwrap();
            (
                o.0.to_vec().unwrap(),
                o.1.to_vec().unwrap(),
                o.2.to_vec().unwrap(),
                o.3.to_vec().unwrap(),
            )
        }) else {
            return;
        };
        exact!(format!("int_consts<{}>", T::DTYPE), d, h, &|i: usize| format!("{:?}", a[i]); 0, 1, 2, 3);
    }
    int_consts::<i8>();
    int_consts::<u16>();
    int_consts::<i64>();
}

/// The semantics table of DESIGN.md, value by value, on both backends.
#[test]
fn semantics_table() {
    for dev in common::devices() {
        let v =
            |a: &[i32], b: &[i32]| defs::int_arith::launch(&col(&dev, a), &col(&dev, b)).unwrap();
        let (sum, _, prod, quot, rem) = v(&[i32::MAX, 7, i32::MIN, i32::MIN], &[1, 0, -1, 3]);
        assert_eq!(
            sum.to_vec().unwrap(),
            [i32::MIN, 7, i32::MAX, i32::MIN.wrapping_add(3)],
            "wrapping + on {dev}"
        );
        assert_eq!(
            prod.to_vec().unwrap()[2],
            i32::MIN,
            "MIN * -1 wraps on {dev}"
        );
        assert_eq!(
            quot.to_vec().unwrap()[..3],
            [i32::MAX, 0, i32::MIN],
            "x / 0 is 0, MIN / -1 wraps on {dev}"
        );
        assert_eq!(
            rem.to_vec().unwrap()[..3],
            [0, 0, 0],
            "x % 0 is 0, MIN % -1 is 0 on {dev}"
        );
        let (shl, shr, ..) = defs::int_bits::launch(
            &col(&dev, &[1u8, 128]),
            &col(&dev, &[0u8, 0]),
            &col(&dev, &[9u32, 15]),
        )
        .unwrap();
        assert_eq!(shl.to_vec().unwrap(), [2, 0], "u8 << 9 is << 1 on {dev}");
        assert_eq!(shr.to_vec().unwrap(), [0, 1], "u8 >> 15 is >> 7 on {dev}");
        let casts =
            defs::float_to_int::launch(&col(&dev, &[f32::NAN, 300.7, -1e20, f32::INFINITY]))
                .unwrap();
        assert_eq!(
            casts.1.to_vec().unwrap(),
            [0, 255, 0, 255],
            "saturating f32 as u8 on {dev}"
        );
        assert_eq!(
            casts.4.to_vec().unwrap(),
            [0, 300, i32::MIN, i32::MAX],
            "saturating f32 as i32 on {dev}"
        );
        let r = defs::float_exact::launch(&col(&dev, &[-7.5f64, 7.5]), &col(&dev, &[2.0, -2.0]))
            .unwrap();
        assert_eq!(
            r.4.to_vec().unwrap(),
            [-1.5, 1.5],
            "float % is fmod on {dev}"
        );
        let m =
            defs::float_minmax::launch(&col(&dev, &[f32::NAN, 1.0]), &col(&dev, &[2.0, f32::NAN]))
                .unwrap();
        assert_eq!(
            m.0.to_vec().unwrap(),
            [2.0, 1.0],
            "min ignores NaN on {dev}"
        );
        let ic = defs::int_casts::launch(&col(&dev, &[u64::MAX, (1 << 24) + 1])).unwrap();
        assert_eq!(
            ic.0.to_vec().unwrap(),
            [1.8446744e19f32, 16_777_216.0],
            "u64 as f32 rounds to nearest even on {dev}"
        );
    }
}

/// The transcendental tolerance would hide a wrong function; pin a few values.
#[test]
fn transcendental_values_are_the_right_functions() {
    for dev in common::devices() {
        let o = defs::transcendental::launch(&col(&dev, &[1.0f64])).unwrap();
        let near = |t: TensorT<f64>, want: f64| (t.to_vec().unwrap()[0] - want).abs() < 1e-12;
        assert!(near(o.0, std::f64::consts::E));
        assert!(near(o.1, 0.0));
        assert!(near(o.2, 1f64.sin()));
        assert!(near(o.7, 1.0));
    }
}

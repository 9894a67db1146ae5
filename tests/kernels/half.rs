//! `f16` kernels: values are computed in `f32` and rounded to `f16` after every
//! operation, on every device (PoCL has no `cl_khr_fp16`) and on the host. Each
//! result is checked bit for bit against an independent reference: the exact
//! result in `f64`, rounded once by `half`.

use silt::f16;
use silt::prelude::*;

use crate::common;

/// The `f16` nearest to `x`, ties to even: the reference. (`half`'s `from_f64`
/// may round through `f32`, that is twice, so its neighbours are checked.)
fn h(x: f64) -> f16 {
    if x.is_nan() {
        return f16::NAN;
    }
    if x.abs() >= 65520.0 {
        return if x > 0.0 {
            f16::INFINITY
        } else {
            f16::NEG_INFINITY
        };
    }
    let c = f16::from_f64(x).to_bits();
    let candidates = [c.wrapping_sub(1), c, c.wrapping_add(1)]
        .map(f16::from_bits)
        .into_iter()
        .filter(|v| v.is_finite() && (v.to_f64() == 0.0 || (v.to_f64() > 0.0) == (x > 0.0)));
    let best = candidates
        .min_by(|a, b| {
            let (da, db) = ((a.to_f64() - x).abs(), (b.to_f64() - x).abs());
            da.total_cmp(&db)
                .then((a.to_bits() & 1).cmp(&(b.to_bits() & 1)))
        })
        .unwrap();
    // the sign of a zero result is the sign of x
    if best.to_f64() == 0.0 {
        return if x.is_sign_negative() {
            -f16::ZERO
        } else {
            f16::ZERO
        };
    }
    best
}

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// Equal bits, or both NaN (a NaN's sign and payload are not specified).
fn same(a: f16, b: f16) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn assert_same(got: &[f16], want: &[f16], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            same(*g, *w),
            "{what}, element {i}: {g} ({:#06x}) vs {w} ({:#06x})",
            g.to_bits(),
            w.to_bits()
        );
    }
}

/// Arithmetic with a rounding after each operation, a scalar, a literal and
/// constants, for `f16` next to `f32`.
#[kernel(types = [f16, f32])]
pub fn half_arith<T>(a: T, b: T, #[scalar] k: T) -> (T, T, T, T) {
    let s = a * b + k;
    let q = a / b - 0.1;
    let r = (a % b).abs();
    let c = if a > b { T::MAX } else { T::EPSILON * T::PI };
    (s, q, r, -c)
}

/// Casts into and out of `f16`.
#[kernel]
pub fn half_casts(x: f64, y: f32, i: i32, v: f16) -> (f16, f16, f16, i32, u8, f64) {
    (x as f16, y as f16, i as f16, v as i32, v as u8, v as f64)
}

/// Builtins (computed in `f32`, then rounded), bits, an `&mut` output and the
/// element index.
#[kernel(types = [f16])]
pub fn half_builtins<T>(x: T, acc: &mut T, #[index] i: u64) -> (T, T, u16, bool) {
    *acc += x.sqrt();
    (
        x.mul_add(x, 1.0).floor(),
        (i as T).max(x.exp()),
        x.to_bits(),
        x.is_nan() || x.is_infinite(),
    )
}

/// Values that test rounding: ties, subnormals, overflow, signed zeros, NaN.
fn edge_values() -> Vec<f16> {
    [
        0.0,
        -0.0,
        1.0,
        -1.5,
        0.1,
        3.0,
        7.0,
        1000.0,
        65504.0,
        -65504.0,
        2049.0,
        1.0 + 1.0 / 1024.0,
        6.103_515_6e-5,
        5.960_464_5e-8,
        -1.788_139_3e-7,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        250.0,
        -0.333,
    ]
    .into_iter()
    .map(h)
    .collect()
}

#[test]
fn half_arithmetic_is_rounded_after_each_operation() {
    let a = edge_values();
    let mut b = a.clone();
    b.rotate_left(3);
    let k = h(0.3);
    // exact in f64 (products and quotients of f16 values are rounded once there
    // at 53 bits, far finer than the f16 rounding that follows)
    let f = |x: f16| x.to_f64();
    let want: Vec<[f16; 4]> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| {
            let c = if x > y {
                f16::MAX
            } else {
                h(f(f16::EPSILON) * f(h(std::f64::consts::PI)))
            };
            [
                h(f(h(f(x) * f(y))) + f(k)),
                h(f(h(f(x) / f(y))) - f(h(0.1))),
                h((f(x) % f(y)).abs()),
                -c,
            ]
        })
        .collect();
    for dev in common::devices() {
        let (ta, tb) = (col(&dev, &a), col(&dev, &b));
        let (s, q, r, c) = half_arith::launch(&ta, &tb, k).unwrap();
        for (j, t) in [s, q, r, c].iter().enumerate() {
            let w: Vec<f16> = want.iter().map(|w| w[j]).collect();
            assert_same(&t.to_vec().unwrap(), &w, &format!("output {j} on {dev}"));
        }
        // the eval of the same body agrees
        for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
            let (s, q, r, c) = half_arith::eval(x, y, k);
            assert_same(&[s, q, r, c], &want[i], &format!("eval of element {i}"));
        }
        // and so does the untyped path
        let (ua, ub) = (Tensor::from(ta.clone()), Tensor::from(tb.clone()));
        let out = half_arith::dispatch(&ua, &ub, Scalar::F16(k)).unwrap();
        assert_eq!(out.0.dtype(), DType::F16);
        let w0: Vec<f16> = want.iter().map(|w| w[0]).collect();
        assert_same(
            &out.0.typed::<f16>().unwrap().to_vec().unwrap(),
            &w0,
            "dispatch",
        );
    }
}

#[test]
fn casts_into_and_out_of_half_round_once() {
    // f64 values where rounding to f32 first would round twice: 1 + 2^-11 +
    // 2^-40 is above the tie, so it rounds up to 1 + 2^-10; via f32 it would be
    // the tie 1 + 2^-11 and round to even, 1
    let x = [
        1.0 + 2f64.powi(-11) + 2f64.powi(-40),
        -(1.0 + 2f64.powi(-11)),
        65519.99,
        65520.0,
        2f64.powi(-25) + 2f64.powi(-60),
        1e300,
        f64::NAN,
        0.1,
    ];
    let y = [
        1.0f32 + 2f32.powi(-11),
        3.0e-8,
        -70000.0,
        0.1,
        f32::NAN,
        1.0,
        -0.0,
        65504.0,
    ];
    let i = [65519i32, 65520, -70000, i32::MAX, 2049, 2051, -1, 0];
    let v: Vec<f16> = [
        f64::INFINITY,
        -1.0e4,
        300.0,
        -0.5,
        f64::NAN,
        65504.0,
        255.9,
        -0.0,
    ]
    .into_iter()
    .map(h)
    .collect();
    let want: Vec<(f16, f16, f16, i32, u8, f64)> = (0..8)
        .map(|j| {
            (
                h(x[j]),
                h(f64::from(y[j])),
                h(f64::from(i[j])),
                v[j].to_f32() as i32,
                v[j].to_f32() as u8,
                v[j].to_f64(),
            )
        })
        .collect();
    assert_eq!(want[0].0, h(1.0 + 2f64.powi(-10)));
    assert_eq!(want[0].3, i32::MAX);
    for dev in common::devices() {
        if !dev.supports(DType::F64) {
            continue;
        }
        let out = half_casts::launch(
            &col(&dev, &x),
            &col(&dev, &y),
            &col(&dev, &i),
            &col(&dev, &v),
        )
        .unwrap();
        let (a, b, c) = (
            out.0.to_vec().unwrap(),
            out.1.to_vec().unwrap(),
            out.2.to_vec().unwrap(),
        );
        let (d, e, f) = (
            out.3.to_vec().unwrap(),
            out.4.to_vec().unwrap(),
            out.5.to_vec().unwrap(),
        );
        for j in 0..8 {
            let w = want[j];
            assert_same(
                &[a[j], b[j], c[j]],
                &[w.0, w.1, w.2],
                &format!("casts to f16 of {j} on {dev}"),
            );
            assert_eq!((d[j], e[j]), (w.3, w.4), "casts from f16 of {j} on {dev}");
            assert!(f[j].to_bits() == w.5.to_bits() || (f[j].is_nan() && w.5.is_nan()));
            let got = half_casts::eval(x[j], y[j], i[j], v[j]);
            assert_same(
                &[got.0, got.1, got.2],
                &[w.0, w.1, w.2],
                &format!("eval of {j}"),
            );
            assert_eq!((got.3, got.4), (w.3, w.4), "eval of {j}");
        }
    }
}

#[test]
fn half_builtins_match_the_host() {
    let x = edge_values();
    for dev in common::devices() {
        let mut acc = col(&dev, &vec![h(1.0); x.len()]);
        let tx = col(&dev, &x);
        let (m, e, bits, odd) = half_builtins::launch(&tx, &mut acc).unwrap();
        let (m, e) = (m.to_vec().unwrap(), e.to_vec().unwrap());
        let (bits, odd, acc) = (
            bits.to_vec().unwrap(),
            odd.to_vec().unwrap(),
            acc.to_vec().unwrap(),
        );
        for (j, &v) in x.iter().enumerate() {
            let mut a = h(1.0);
            let w = half_builtins::eval(v, &mut a, j as u64);
            // sqrt and fma-then-floor are exact or correctly rounded: bit-exact
            assert_same(&[acc[j], m[j]], &[a, w.0], &format!("element {j} on {dev}"));
            assert_same(
                &[a],
                &[h(1.0 + h(v.to_f64().sqrt()).to_f64())],
                "sqrt reference",
            );
            // exp in f32 may differ by an f32 ulp, which rounding to f16 hides
            // unless the result is within one f32 ulp of an f16 tie
            let (g, w1) = (e[j].to_f64(), w.1.to_f64());
            assert!(
                same(e[j], w.1) || (g - w1).abs() <= w1.abs() * 2f64.powi(-10),
                "exp of element {j} on {dev}: {g} vs {w1}"
            );
            assert_eq!(bits[j], v.to_bits(), "to_bits of element {j} on {dev}");
            assert_eq!(odd[j], v.is_nan() || v.is_infinite());
        }
    }
}

#[test]
fn half_source_carries_values_as_float_and_buffers_as_bits() {
    let src = half_arith::source(DType::F16).unwrap();
    assert!(src.contains("__global const ushort* a,"), "{src}");
    assert!(
        src.contains("static inline float silt_f16_round(float x)"),
        "{src}"
    );
    assert!(
        !src.contains("half*") && !src.contains("vload_half"),
        "no half type without cl_khr_fp16:\n{src}"
    );
    assert!(!src.contains("cl_khr_fp16"), "{src}");
}

/// Conversions alone, for exhaustive checks.
#[kernel]
pub fn half_convert(x: f32, y: f16, z: f64) -> (f16, f32, u16, f16) {
    (x as f16, y as f32, y.to_bits(), z as f16)
}

#[test]
fn every_half_value_converts_exactly() {
    // y: all 65,536 f16 bit patterns; x: f32 values at, near and between f16
    // values (ties included); z: f64 values just off the ties
    let y: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next_u64();
    let x: Vec<f32> = y
        .iter()
        .map(|v| {
            let b = v.to_f32().to_bits();
            // the tie above v (13 dropped bits: 0x1000), or next to it
            #[allow(clippy::cast_possible_truncation)]
            let r = next() as u32;
            f32::from_bits(b.wrapping_add(match r % 4 {
                0 => 0x1000,
                1 => 0x0fff,
                2 => 0x1001,
                _ => r & 0x1fff,
            }))
        })
        .collect();
    let z: Vec<f64> = y
        .iter()
        .map(|v| {
            let tie = v.to_f64()
                + (f64::from(f16::from_bits(v.to_bits().wrapping_add(1)).to_f32()) - v.to_f64())
                    / 2.0;
            if next() % 2 == 0 {
                tie * (1.0 + 2f64.powi(-40))
            } else {
                tie * (1.0 - 2f64.powi(-40))
            }
        })
        .collect();
    for dev in common::devices() {
        if !dev.supports(DType::F64) {
            continue;
        }
        let (a, b, c, d) =
            half_convert::launch(&col(&dev, &x), &col(&dev, &y), &col(&dev, &z)).unwrap();
        let (a, b, c, d) = (
            a.to_vec().unwrap(),
            b.to_vec().unwrap(),
            c.to_vec().unwrap(),
            d.to_vec().unwrap(),
        );
        let mut checked = 0;
        for j in 0..y.len() {
            assert!(
                same(a[j], f16::from_f32(x[j])),
                "{} as f16 on {dev}: {}",
                x[j],
                a[j]
            );
            let w = y[j].to_f32();
            assert!(
                b[j].to_bits() == w.to_bits() || (b[j].is_nan() && w.is_nan()),
                "{:#06x} as f32 on {dev}: {} vs {w}",
                y[j].to_bits(),
                b[j]
            );
            // NaN payloads included: a value passed through keeps its bits
            assert_eq!(c[j], y[j].to_bits(), "to_bits on {dev}");
            if z[j].is_finite() {
                assert!(
                    same(d[j], h(z[j])),
                    "{:e} as f16 on {dev}: {} vs {}",
                    z[j],
                    d[j],
                    h(z[j])
                );
                checked += 1;
            }
        }
        assert!(checked > 60_000, "{checked}");
    }
}

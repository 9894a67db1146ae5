//! Runs an operation on the host and on the OpenCL device over edge values and
//! proptest-generated inputs, and compares with the operation's exactness class.
#![allow(
    dead_code,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss
)]

#[path = "../../../tests/common/mod.rs"]
pub mod common;
#[path = "../../../tests/kernels/values.rs"]
pub mod values;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use silt::prelude::*;
pub use values::Edge;

/// How closely device and host must agree.
#[derive(Debug, Clone, Copy)]
pub enum Class {
    /// Bit for bit (NaNs alike).
    Exact,
    /// Within this many ULPs (infinities and NaN exactly).
    Ulps(u64),
    /// A composition of bounded functions: within this many ULPs of the result,
    /// or, below the normal range, within this many times `max(1, |x|)` of the
    /// smallest subnormal absolutely (an `e^x` that has underflowed carries its
    /// absolute error into `x · e^x`).
    Composite(u64),
    /// A sum of terms that cancel near the result's zeros (`digamma`): within
    /// this many ULPs of the result, or of the terms' size, about
    /// `2 + ln(1 + |x|) + |result|`, absolutely.
    Cancelling(u64),
    /// `lgamma`'s terms, about `|x| ln |x|` for `|x|` below 256 (on the
    /// negative side they cancel near its roots): within this many ULPs of the
    /// result, or of `2 + |x| ln(2 + |x|) + |result|` absolutely.
    Gamma(u64),
    /// A function that oscillates about 0 within an envelope (the Bessel
    /// functions `J` and `Y`, Airy's `Ai` of negative arguments): within this
    /// many ULPs of the result, or of the envelope at `x` (the function
    /// given, of `x`), absolutely.
    Envelope(u64, fn(f64) -> f64),
}

/// OpenCL 1.2 specification, section 7.4, tables 7.1 (`float`) and 7.2
/// (`double`): the maximum error of each built-in, in ULPs (the bounds are the
/// same for both types for the functions silt uses). One ULP is added for the
/// host's own error (glibc and `libm` are not correctly rounded either).
pub fn ulp_bound(op: &str) -> u64 {
    let spec = match op {
        "exp" | "exp2" | "expm1" | "log" | "log2" | "log10" => 3,
        "log1p" => 2,
        "sin" | "cos" | "asin" | "acos" | "sinh" | "cosh" | "asinh" | "acosh" | "hypot" => 4,
        "tan" | "atan" | "tanh" | "atanh" => 5,
        "atan2" => 6,
        // `lgamma`'s is undefined: silt's bound (docs/kernel.md)
        "erf" | "erfc" | "pow" | "lgamma" => 16,
        other => panic!("no ULP bound for {other}"),
    };
    spec + 1
}

/// Float inputs at the special points of silt-kernels' functions: activation
/// thresholds, overflow of `exp`, the domain edges of `asin` and `log`.
pub fn float_points<T: Edge>() -> Vec<T> {
    let pts = [
        -3.0, 3.0, 6.0, 5.999, 20.0, 20.5, -20.0, 1e-7, -1e-7, 88.7, 89.0, -87.3, -104.0, 709.0,
        710.0, -745.0, 0.999, -0.999, 1.000_1, -1.000_1, 0.25, -0.75, 2.0, -2.0, 10.0, -10.0,
        0.044_715,
    ];
    pts.iter()
        .filter_map(|&p| Scalar::F64(p).to::<T>().ok())
        .collect()
}

/// Edge values, plus the special points for floats.
pub fn inputs<T: Edge>() -> Vec<T> {
    let mut v = T::edges();
    if T::DTYPE.is_float() {
        v.extend(float_points::<T>());
    }
    v
}

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// Compares device and host results of one output column.
pub fn compare<T: Edge, O: Edge>(
    what: &str,
    class: Class,
    x: &[T],
    device: &[O],
    host: &[O],
    inputs: &dyn Fn(usize) -> String,
) {
    assert_eq!(device.len(), host.len(), "{what}");
    for (i, (d, h)) in device.iter().zip(host).enumerate() {
        let ok = match class {
            Class::Exact => d.key() == h.key(),
            Class::Ulps(n) => d.ulps(*h) <= n,
            Class::Composite(n) => {
                d.ulps(*h) <= n || {
                    let (df, hf) = (as_f64(*d), as_f64(*h));
                    let xf = x.get(i).map_or(1.0, |v| as_f64(*v).abs().max(1.0));
                    let tiny = match O::DTYPE {
                        DType::F16 => silt::f16::from_bits(1).to_f64(),
                        DType::F32 => f64::from(f32::from_bits(1)),
                        _ => f64::from_bits(1),
                    };
                    (df - hf).abs() <= n as f64 * tiny * xf
                }
            }
            Class::Gamma(n) => {
                d.ulps(*h) <= n || {
                    let (df, hf) = (as_f64(*d), as_f64(*h));
                    // PoCL's `lgammaf` overflows to inf from about 4e36, where
                    // the true value (the host's) is within 1% of `f32::MAX`
                    let near_max = match O::DTYPE {
                        DType::F16 => 65504.0,
                        DType::F32 => f64::from(f32::MAX),
                        _ => f64::MAX,
                    } / 2.0;
                    if df == f64::INFINITY && hf > near_max {
                        continue;
                    }
                    let xf = x.get(i).map_or(0.0, |v| as_f64(*v).abs());
                    let terms = if xf < 256.0 {
                        xf * (2.0 + xf).ln()
                    } else {
                        0.0
                    };
                    (df - hf).abs() <= n as f64 * eps_of(O::DTYPE) * (2.0 + terms + hf.abs())
                }
            }
            Class::Envelope(n, envelope) => {
                d.ulps(*h) <= n || {
                    let (df, hf) = (as_f64(*d), as_f64(*h));
                    let xf = x.get(i).map_or(0.0, |v| as_f64(*v));
                    (df - hf).abs() <= n as f64 * eps_of(O::DTYPE) * envelope(xf)
                }
            }
            Class::Cancelling(n) => {
                d.ulps(*h) <= n || {
                    let (df, hf) = (as_f64(*d), as_f64(*h));
                    let xf = x.get(i).map_or(0.0, |v| as_f64(*v).abs());
                    (df - hf).abs() <= n as f64 * eps_of(O::DTYPE) * (2.0 + xf.ln_1p() + hf.abs())
                }
            }
        };
        assert!(
            ok,
            "{what} ({class:?}): element {i} ({}): device {d:?}, host {h:?}",
            inputs(i)
        );
    }
}

/// The distance from 1 to the next number of `d`.
fn eps_of(d: DType) -> f64 {
    match d {
        DType::F16 => 2f64.powi(-10),
        DType::F32 => 2f64.powi(-23),
        _ => 2f64.powi(-52),
    }
}

fn as_f64<T: Edge>(v: T) -> f64 {
    match v.into_scalar() {
        Scalar::F32(f) => f64::from(f),
        Scalar::F64(f) => f,
        other => other.to::<f64>().unwrap_or(f64::NAN),
    }
}

/// Element types proptest can generate: its `Arbitrary` types, and `f16` from
/// arbitrary bits.
pub trait Random: Edge {
    /// Any value of the type, NaNs and infinities included.
    fn any() -> BoxedStrategy<Self>;
}

macro_rules! random_by_arbitrary {
    ($($t:ty),*) => {$(
        impl Random for $t {
            fn any() -> BoxedStrategy<Self> {
                any::<$t>().boxed()
            }
        }
    )*};
}

random_by_arbitrary!(bool, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl Random for silt::f16 {
    fn any() -> BoxedStrategy<Self> {
        any::<u16>().prop_map(silt::f16::from_bits).boxed()
    }
}

/// Proptest-generated columns: a few cases of a few hundred arbitrary values.
fn random_cases<T: Random>(cols: usize, f: impl Fn(Vec<Vec<T>>)) {
    let mut runner = TestRunner::new(Config {
        cases: 6,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = proptest::collection::vec(proptest::collection::vec(T::any(), 300), cols);
    runner
        .run(&strategy, |v| {
            f(v);
            Ok(())
        })
        .unwrap();
}

/// One tensor in, one out.
pub fn unary<T: Random, O: Edge>(
    op: &str,
    class: Class,
    launch: impl Fn(&TensorT<T>) -> silt::Result<TensorT<O>>,
) {
    let Some(cl) = common::opencl() else { return };
    let check = |x: Vec<T>| {
        let d = launch(&col(&cl, &x)).unwrap().to_vec().unwrap();
        let h = launch(&col(&Device::host(), &x)).unwrap().to_vec().unwrap();
        compare(&format!("{op}<{}>", T::DTYPE), class, &x, &d, &h, &|i| {
            format!("{:?}", x[i])
        });
        same_without_simd(op, &h, || launch(&col(&Device::host(), &x)));
    };
    check(inputs::<T>());
    random_cases::<T>(1, |mut v| check(v.remove(0)));
}

/// Checks that the host's plain element loop gives the bits `simd` (the
/// host's result through the AVX2 copy, where the CPU has it) holds.
fn same_without_simd<O: Edge>(op: &str, simd: &[O], launch: impl Fn() -> silt::Result<TensorT<O>>) {
    silt::__testing::host_simd(false);
    let plain = launch().unwrap().to_vec().unwrap();
    silt::__testing::host_simd(true);
    assert_eq!(plain.len(), simd.len(), "{op}");
    for (i, (p, s)) in plain.iter().zip(simd).enumerate() {
        assert!(
            p.key() == s.key(),
            "{op}<{}> element {i}: {p:?} without AVX2, {s:?} with it",
            O::DTYPE
        );
    }
}

/// Two tensors in (every pair of edge values), one out.
pub fn binary<T: Random, O: Edge>(
    op: &str,
    class: Class,
    launch: impl Fn(&TensorT<T>, &TensorT<T>) -> silt::Result<TensorT<O>>,
) {
    let Some(cl) = common::opencl() else { return };
    let check = |a: Vec<T>, b: Vec<T>| {
        let d = launch(&col(&cl, &a), &col(&cl, &b))
            .unwrap()
            .to_vec()
            .unwrap();
        let h = launch(&col(&Device::host(), &a), &col(&Device::host(), &b))
            .unwrap()
            .to_vec()
            .unwrap();
        compare(&format!("{op}<{}>", T::DTYPE), class, &a, &d, &h, &|i| {
            format!("{:?}, {:?}", a[i], b[i])
        });
        same_without_simd(op, &h, || {
            launch(&col(&Device::host(), &a), &col(&Device::host(), &b))
        });
    };
    let e = inputs::<T>();
    let (a, b): (Vec<T>, Vec<T>) = e
        .iter()
        .flat_map(|&x| e.iter().map(move |&y| (x, y)))
        .unzip();
    check(a, b);
    random_cases::<T>(2, |mut v| {
        let b = v.pop().unwrap_or_default();
        let a = v.pop().unwrap_or_default();
        check(a, b);
    });
}

/// Any arity: `run(device, columns)` returns one output column; the columns are
/// combinations of edge values (`arity` columns) and random cases.
pub fn nary<T: Random, O: Edge>(
    op: &str,
    class: Class,
    arity: usize,
    run: impl Fn(&Device, &[Vec<T>]) -> Vec<O>,
) {
    let Some(cl) = common::opencl() else { return };
    let check = |cols: Vec<Vec<T>>| {
        let d = run(&cl, &cols);
        let h = run(&Device::host(), &cols);
        compare(
            &format!("{op}<{}>", T::DTYPE),
            class,
            &cols[0],
            &d,
            &h,
            &|i| {
                cols.iter()
                    .map(|c| format!("{:?}", c[i]))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        );
    };
    let e = inputs::<T>();
    let mut cols: Vec<Vec<T>> = vec![Vec::new(); arity];
    let all = e.len().pow(u32::try_from(arity).unwrap_or(1));
    for n in 0..all.min(20_000) {
        // spread over all combinations when there are more than we run
        let mut k = if all > 20_000 { n * 7919 % all } else { n };
        for c in cols.iter_mut() {
            c.push(e[k % e.len()]);
            k /= e.len();
        }
    }
    check(cols);
    random_cases::<T>(arity, check);
}

/// A tensor column on `dev`.
pub fn column<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    col(dev, v)
}

//! Every operation of silt-kernels, for every type it lists: device results against
//! the host's `eval` on edge values and proptest-generated inputs.

mod harness;

use harness::{binary, nary, ulp_bound, unary, Class};
use silt::f16;
use silt::prelude::*;
use silt_kernels as k;

const EXACT: Class = Class::Exact;

macro_rules! unary_test {
    ($name:ident, $class:expr, [$($t:ty),*]) => {
        #[test]
        fn $name() {
            $(unary::<$t, _>(stringify!($name), $class, |x| k::$name::launch(x));)*
        }
    };
}

macro_rules! binary_test {
    ($name:ident, $class:expr, [$($t:ty),*]) => {
        #[test]
        fn $name() {
            $(binary::<$t, _>(stringify!($name), $class, |a, b| k::$name::launch(a, b));)*
        }
    };
}

// ---- unary ----
unary_test!(neg, EXACT, [i8, i16, i32, i64, f16, f32, f64]);
unary_test!(
    abs,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    sign,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    square,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(reciprocal, EXACT, [f16, f32, f64]);
unary_test!(sqrt, EXACT, [f16, f32, f64]);
unary_test!(rsqrt, EXACT, [f16, f32, f64]);
unary_test!(floor, EXACT, [f16, f32, f64]);
unary_test!(ceil, EXACT, [f16, f32, f64]);
unary_test!(round, EXACT, [f16, f32, f64]);
unary_test!(trunc, EXACT, [f16, f32, f64]);
unary_test!(frac, EXACT, [f16, f32, f64]);
unary_test!(exp, Class::Ulps(ulp_bound("exp")), [f16, f32, f64]);
unary_test!(exp2, Class::Ulps(ulp_bound("exp2")), [f16, f32, f64]);
unary_test!(expm1, Class::Ulps(ulp_bound("expm1")), [f16, f32, f64]);
unary_test!(log, Class::Ulps(ulp_bound("log")), [f16, f32, f64]);
unary_test!(log2, Class::Ulps(ulp_bound("log2")), [f16, f32, f64]);
unary_test!(log10, Class::Ulps(ulp_bound("log10")), [f16, f32, f64]);
unary_test!(log1p, Class::Ulps(ulp_bound("log1p")), [f16, f32, f64]);
unary_test!(sin, Class::Ulps(ulp_bound("sin")), [f16, f32, f64]);
unary_test!(cos, Class::Ulps(ulp_bound("cos")), [f16, f32, f64]);
unary_test!(tan, Class::Ulps(ulp_bound("tan")), [f16, f32, f64]);
unary_test!(asin, Class::Ulps(ulp_bound("asin")), [f16, f32, f64]);
unary_test!(acos, Class::Ulps(ulp_bound("acos")), [f16, f32, f64]);
unary_test!(atan, Class::Ulps(ulp_bound("atan")), [f16, f32, f64]);
unary_test!(sinh, Class::Ulps(ulp_bound("sinh")), [f16, f32, f64]);
unary_test!(cosh, Class::Ulps(ulp_bound("cosh")), [f16, f32, f64]);
unary_test!(tanh, Class::Ulps(ulp_bound("tanh")), [f16, f32, f64]);
unary_test!(asinh, Class::Ulps(ulp_bound("asinh")), [f16, f32, f64]);
unary_test!(acosh, Class::Ulps(ulp_bound("acosh")), [f16, f32, f64]);
unary_test!(atanh, Class::Ulps(ulp_bound("atanh")), [f16, f32, f64]);
unary_test!(erf, Class::Ulps(ulp_bound("erf")), [f16, f32, f64]);
unary_test!(erfc, Class::Ulps(ulp_bound("erfc")), [f16, f32, f64]);

// ---- binary ----
binary_test!(
    add,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    sub,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    mul,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    div,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    rem,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    minimum,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    maximum,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(fmin, EXACT, [f16, f32, f64]);
binary_test!(fmax, EXACT, [f16, f32, f64]);
binary_test!(copysign, EXACT, [f16, f32, f64]);
binary_test!(pow, Class::Ulps(ulp_bound("pow")), [f16, f32, f64]);
binary_test!(atan2, Class::Ulps(ulp_bound("atan2")), [f16, f32, f64]);
binary_test!(hypot, Class::Ulps(ulp_bound("hypot")), [f16, f32, f64]);

// ---- comparisons and tests ----
binary_test!(
    eq,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    ne,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    lt,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    le,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    gt,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
binary_test!(
    ge,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(isnan, EXACT, [f16, f32, f64]);
unary_test!(isinf, EXACT, [f16, f32, f64]);
unary_test!(isfinite, EXACT, [f16, f32, f64]);

// ---- logical and bitwise ----
binary_test!(logical_and, EXACT, [bool]);
binary_test!(logical_or, EXACT, [bool]);
binary_test!(logical_xor, EXACT, [bool]);
unary_test!(logical_not, EXACT, [bool]);
binary_test!(bitwise_and, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
binary_test!(bitwise_or, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
binary_test!(bitwise_xor, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
unary_test!(bitwise_not, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
binary_test!(shl, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
binary_test!(shr, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
binary_test!(gcd, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);
binary_test!(lcm, EXACT, [i8, i16, i32, i64, u8, u16, u32, u64]);

// ---- activations ----
unary_test!(relu, EXACT, [f16, f32, f64]);
unary_test!(relu6, EXACT, [f16, f32, f64]);
unary_test!(softsign, EXACT, [f16, f32, f64]);
unary_test!(hardsigmoid, EXACT, [f16, f32, f64]);
unary_test!(hardswish, EXACT, [f16, f32, f64]);
// device against host (docs/semantics.md, "Accuracy of silt-kernels'
// activations"): f16 computes in f32 and rounds once, so one f16 ULP; f32 and
// f64 pass the same rounded arguments to the built-ins, so the built-ins' bounds
// (erfc's 16 for gelu, exp's 3 and log1p's 2 for the others) plus the few
// roundings after them
unary_test!(selu, Class::Composite(8), [f32, f64]);
unary_test!(gelu, Class::Composite(20), [f32, f64]);
unary_test!(gelu_tanh, Class::Composite(8), [f32, f64]);
unary_test!(sigmoid, Class::Composite(8), [f32, f64]);
unary_test!(silu, Class::Composite(8), [f32, f64]);
unary_test!(softplus, Class::Composite(8), [f32, f64]);
unary_test!(mish, Class::Composite(8), [f32, f64]);
unary_test!(logsigmoid, Class::Composite(8), [f32, f64]);
mod half_activations {
    use super::*;
    const ONE: Class = Class::Ulps(1);
    unary_test!(selu, ONE, [f16]);
    unary_test!(gelu, ONE, [f16]);
    unary_test!(gelu_tanh, ONE, [f16]);
    unary_test!(sigmoid, ONE, [f16]);
    unary_test!(silu, ONE, [f16]);
    unary_test!(softplus, ONE, [f16]);
    unary_test!(mish, ONE, [f16]);
    unary_test!(logsigmoid, ONE, [f16]);
}

// ---- casts ----
unary_test!(
    to_f16,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    to_f32,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    to_f64,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    to_i32,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    to_i64,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    to_u8,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);
unary_test!(
    to_bool,
    EXACT,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
);

// ---- with scalars, three operands, in place ----
fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    harness::column(dev, v)
}

/// A scalar argument of the element type under test (rounded for `f16`).
fn lit<T: Element>(x: f64) -> T {
    Scalar::F64(x).to::<T>().unwrap()
}

macro_rules! nary_test {
    ($name:ident, $class:expr, $arity:expr, [$($t:ty),*], |$dev:ident, $c:ident| $body:expr) => {
        #[test]
        fn $name() {
            $(nary::<$t, _>(stringify!($name), $class, $arity, |$dev: &Device, $c: &[Vec<$t>]| $body);)*
        }
    };
}

nary_test!(leaky_relu, EXACT, 1, [f16, f32, f64], |d, c| {
    k::leaky_relu::launch(&col(d, &c[0]), lit(0.01))
        .unwrap()
        .to_vec()
        .unwrap()
});
nary_test!(elu, Class::Composite(8), 1, [f32, f64], |d, c| {
    k::elu::launch(&col(d, &c[0]), lit(1.5))
        .unwrap()
        .to_vec()
        .unwrap()
});
nary_test!(elu_f16, Class::Ulps(1), 1, [f16], |d, c| {
    k::elu::launch(&col(d, &c[0]), lit(1.5))
        .unwrap()
        .to_vec()
        .unwrap()
});
nary_test!(hardtanh, EXACT, 1, [f16, f32, f64], |d, c| {
    k::hardtanh::launch(&col(d, &c[0]), lit(-0.5), lit(2.0))
        .unwrap()
        .to_vec()
        .unwrap()
});
nary_test!(
    clamp,
    EXACT,
    3,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64],
    |d, c| {
        // the bounds are scalars: take them from the first elements of two columns
        k::clamp::launch(&col(d, &c[0]), c[1][1], c[2][2])
            .unwrap()
            .to_vec()
            .unwrap()
    }
);
nary_test!(clamp_crossed_bounds, EXACT, 1, [i32, f32], |d, c| {
    k::clamp::launch(&col(d, &c[0]), 5 as _, 1 as _)
        .unwrap()
        .to_vec()
        .unwrap()
});
nary_test!(lerp, EXACT, 2, [f16, f32, f64], |d, c| {
    let mut out = k::lerp::launch(&col(d, &c[0]), &col(d, &c[1]), lit(0.25))
        .unwrap()
        .to_vec()
        .unwrap();
    out.extend(
        k::lerp::launch(&col(d, &c[0]), &col(d, &c[1]), lit(0.75))
            .unwrap()
            .to_vec()
            .unwrap(),
    );
    out
});
nary_test!(
    addcmul,
    EXACT,
    3,
    [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64],
    |d, c| {
        k::addcmul::launch(&col(d, &c[0]), &col(d, &c[1]), &col(d, &c[2]), c[0][3])
            .unwrap()
            .to_vec()
            .unwrap()
    }
);
nary_test!(
    where_,
    EXACT,
    2,
    [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64],
    |d, c| {
        let cond: Vec<bool> = (0..c[0].len()).map(|i| i % 3 == 1).collect();
        k::where_::launch(&col(d, &cond), &col(d, &c[0]), &col(d, &c[1]))
            .unwrap()
            .to_vec()
            .unwrap()
    }
);
nary_test!(axpy, EXACT, 2, [f16, f32, f64], |d, c| {
    let mut y = col(d, &c[1]);
    k::axpy::launch(c[0][5], &col(d, &c[0]), &mut y).unwrap();
    y.to_vec().unwrap()
});
nary_test!(scale_, EXACT, 1, [f16, f32, f64], |d, c| {
    let mut x = col(d, &c[0]);
    k::scale_::launch(lit(-2.5), &mut x).unwrap();
    x.to_vec().unwrap()
});
nary_test!(add_, EXACT, 2, [f16, f32, f64], |d, c| {
    let mut x = col(d, &c[0]);
    k::add_::launch(&mut x, &col(d, &c[1])).unwrap();
    x.to_vec().unwrap()
});
nary_test!(
    set,
    EXACT,
    1,
    [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64],
    |d, c| {
        let mut x = col(d, &c[0]);
        k::set::launch(c[0][1], &mut x).unwrap();
        x.to_vec().unwrap()
    }
);
nary_test!(
    copy,
    EXACT,
    2,
    [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64],
    |d, c| {
        let mut out = col(d, &c[1]);
        k::copy::launch(&col(d, &c[0]), &mut out).unwrap();
        out.to_vec().unwrap()
    }
);

/// The results that define an operation, pinned (the differential tests above
/// would not notice a host and device that are both wrong).
#[test]
fn reference_values() {
    for dev in harness::common::devices() {
        let f = |v: &[f32]| col(&dev, v);
        let x = f(&[-2.5, -0.5, 0.5, 1.5, 2.5, f32::NAN]);
        assert_eq!(
            k::round::launch(&x).unwrap().to_vec().unwrap()[..5],
            [-2.0, -0.0, 0.0, 2.0, 2.0],
            "half to even"
        );
        assert_eq!(
            k::sign::launch(&x).unwrap().to_vec().unwrap(),
            [-1.0, -1.0, 1.0, 1.0, 1.0, 0.0]
        );
        assert_eq!(
            k::frac::launch(&x).unwrap().to_vec().unwrap()[..2],
            [-0.5, -0.5]
        );
        let relu = k::relu::launch(&x).unwrap().to_vec().unwrap();
        assert!(relu[5].is_nan() && relu[..5] == [0.0, 0.0, 0.5, 1.5, 2.5]);
        let nan = f(&[f32::NAN, 1.0]);
        let one = f(&[2.0, f32::NAN]);
        let m = k::minimum::launch(&nan, &one).unwrap().to_vec().unwrap();
        assert!(m[0].is_nan() && m[1].is_nan(), "minimum propagates NaN");
        assert_eq!(
            k::fmin::launch(&nan, &one).unwrap().to_vec().unwrap(),
            [2.0, 1.0],
            "fmin ignores NaN"
        );
        let big = f(&[100.0, -100.0, 0.0]);
        assert_eq!(
            k::sigmoid::launch(&big).unwrap().to_vec().unwrap(),
            [1.0, 3.72e-44, 0.5]
        );
        assert_eq!(
            k::softplus::launch(&big).unwrap().to_vec().unwrap()[0],
            100.0,
            "threshold 20"
        );
        assert_eq!(
            k::logsigmoid::launch(&big).unwrap().to_vec().unwrap()[1],
            -100.0,
            "no ln(0)"
        );
        let g = k::gelu::launch(&f(&[1.0])).unwrap().to_vec().unwrap()[0];
        assert!((g - 0.841_344_7).abs() < 1e-6, "{g}");
        let ints = col(&dev, &[7i32, i32::MIN, -7]);
        let zeros = col(&dev, &[0i32, -1, 2]);
        assert_eq!(
            k::div::launch(&ints, &zeros).unwrap().to_vec().unwrap(),
            [0, i32::MIN, -3]
        );
        assert_eq!(
            k::rem::launch(&ints, &zeros).unwrap().to_vec().unwrap(),
            [0, 0, -1]
        );
        assert_eq!(
            k::to_bool::launch(&f(&[0.0, -0.0, f32::NAN]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [false, false, true]
        );
        assert_eq!(
            k::to_u8::launch(&f(&[-1.0, 300.0, f32::NAN]))
                .unwrap()
                .to_vec()
                .unwrap(),
            [0, 255, 0]
        );
        let c = k::clamp::launch(&col(&dev, &[0i32, 3, 9]), 5, 1)
            .unwrap()
            .to_vec()
            .unwrap();
        assert_eq!(c, [1, 1, 1], "hi wins when lo > hi, as in PyTorch");
    }
}

/// `hardsigmoid` and `hardswish` are PyTorch's formulas as its kernels
/// compute them, `min(max(x + 3, 0), 6) / 6` and `x *` that: the sign of a
/// zero, NaN at `-inf`, the rounding of `(x + 3) / 6`, `x * 6` overflowing.
#[test]
fn hardsigmoid_and_hardswish_are_pytorchs_formulas() {
    let relu6 = |v: f32| {
        let r = if v < 0.0 { 0.0 } else { v };
        if 6.0 < r {
            6.0
        } else {
            r
        }
    };
    let xs = [
        f32::NEG_INFINITY,
        -1e30,
        -5.0,
        -3.0,
        -2.9,
        -0.0,
        0.0,
        0.1,
        1.7,
        2.999,
        3.0,
        7.5,
        1e38,
        f32::INFINITY,
        f32::NAN,
    ];
    for dev in harness::common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [xs.len()]).unwrap();
        let sig = k::hardsigmoid::launch(&x).unwrap().to_vec().unwrap();
        let swish = k::hardswish::launch(&x).unwrap().to_vec().unwrap();
        for (i, &v) in xs.iter().enumerate() {
            let (want_sig, want_swish) = (relu6(v + 3.0) / 6.0, v * relu6(v + 3.0) / 6.0);
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            assert!(
                same(sig[i], want_sig),
                "{dev} hardsigmoid({v}): {} != {want_sig}",
                sig[i]
            );
            assert!(
                same(swish[i], want_swish),
                "{dev} hardswish({v}): {} != {want_swish}",
                swish[i]
            );
        }
        // the cases that the formula decides
        assert!(swish[0].is_nan(), "{dev}: hardswish(-inf)");
        assert_eq!(
            swish[3].to_bits(),
            (-0.0f32).to_bits(),
            "{dev}: hardswish(-3)"
        );
        assert_eq!(swish[12], f32::INFINITY, "{dev}: hardswish(1e38)");
        assert_eq!(sig[0], 0.0, "{dev}: hardsigmoid(-inf)");
    }
}

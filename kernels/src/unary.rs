//! Elementwise functions of one tensor.

use silt::kernel;

/// `-x` (wrapping for integers: `-MIN == MIN`).
#[kernel(types = [i8, i16, i32, i64, f16, f32, f64])]
pub fn neg<T>(x: T) -> T {
    -x
}

/// `|x|` (wrapping for signed integers: `abs(MIN) == MIN`; the identity for
/// unsigned ones).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn abs<T>(x: T) -> T {
    if T::IS_SIGNED {
        x.abs()
    } else {
        x
    }
}

/// `-1`, `0` or `1` by the sign of `x`, as PyTorch's `sign`: `0` for `±0.0` and
/// for NaN.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn sign<T>(x: T) -> T {
    ((0 < x) as i8 - (x < 0) as i8) as T
}

/// `x * x` (wrapping for integers).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn square<T>(x: T) -> T {
    x * x
}

/// `1 / x`.
#[kernel(types = [f16, f32, f64])]
pub fn reciprocal<T>(x: T) -> T {
    1.0 / x
}

/// The square root (correctly rounded).
#[kernel(types = [f16, f32, f64])]
pub fn sqrt<T>(x: T) -> T {
    x.sqrt()
}

/// `1 / sqrt(x)`, as two correctly rounded operations (`f16` in `f32`,
/// rounded once).
#[kernel(types = [f16, f32, f64])]
pub fn rsqrt<T>(x: T) -> T {
    if T::BITS == 16 {
        (1.0 / (x as f32).sqrt()) as T
    } else {
        1.0 / x.sqrt()
    }
}

/// `e^x`.
#[kernel(types = [f16, f32, f64])]
pub fn exp<T>(x: T) -> T {
    x.exp()
}

/// `2^x`.
#[kernel(types = [f16, f32, f64])]
pub fn exp2<T>(x: T) -> T {
    x.exp2()
}

/// `e^x - 1`, accurate near 0.
#[kernel(types = [f16, f32, f64])]
pub fn expm1<T>(x: T) -> T {
    x.exp_m1()
}

/// The natural logarithm.
#[kernel(types = [f16, f32, f64])]
pub fn log<T>(x: T) -> T {
    x.ln()
}

/// The base-2 logarithm.
#[kernel(types = [f16, f32, f64])]
pub fn log2<T>(x: T) -> T {
    x.log2()
}

/// The base-10 logarithm.
#[kernel(types = [f16, f32, f64])]
pub fn log10<T>(x: T) -> T {
    x.log10()
}

/// `ln(1 + x)`, accurate near 0.
#[kernel(types = [f16, f32, f64])]
pub fn log1p<T>(x: T) -> T {
    x.ln_1p()
}

/// The sine.
#[kernel(types = [f16, f32, f64])]
pub fn sin<T>(x: T) -> T {
    x.sin()
}

/// The cosine.
#[kernel(types = [f16, f32, f64])]
pub fn cos<T>(x: T) -> T {
    x.cos()
}

/// The tangent.
#[kernel(types = [f16, f32, f64])]
pub fn tan<T>(x: T) -> T {
    x.tan()
}

/// The arcsine.
#[kernel(types = [f16, f32, f64])]
pub fn asin<T>(x: T) -> T {
    x.asin()
}

/// The arccosine.
#[kernel(types = [f16, f32, f64])]
pub fn acos<T>(x: T) -> T {
    x.acos()
}

/// The arctangent.
#[kernel(types = [f16, f32, f64])]
pub fn atan<T>(x: T) -> T {
    x.atan()
}

/// The hyperbolic sine.
#[kernel(types = [f16, f32, f64])]
pub fn sinh<T>(x: T) -> T {
    x.sinh()
}

/// The hyperbolic cosine.
#[kernel(types = [f16, f32, f64])]
pub fn cosh<T>(x: T) -> T {
    x.cosh()
}

/// The hyperbolic tangent.
#[kernel(types = [f16, f32, f64])]
pub fn tanh<T>(x: T) -> T {
    x.tanh()
}

/// The inverse hyperbolic sine.
#[kernel(types = [f16, f32, f64])]
pub fn asinh<T>(x: T) -> T {
    x.asinh()
}

/// The inverse hyperbolic cosine (NaN below 1).
#[kernel(types = [f16, f32, f64])]
pub fn acosh<T>(x: T) -> T {
    x.acosh()
}

/// The inverse hyperbolic tangent (±inf at ±1, NaN beyond).
#[kernel(types = [f16, f32, f64])]
pub fn atanh<T>(x: T) -> T {
    x.atanh()
}

/// The error function.
#[kernel(types = [f16, f32, f64])]
pub fn erf<T>(x: T) -> T {
    x.erf()
}

/// The complementary error function, `1 - erf(x)` without its cancellation
/// for large `x`.
#[kernel(types = [f16, f32, f64])]
pub fn erfc<T>(x: T) -> T {
    x.erfc()
}

/// Rounds toward negative infinity.
#[kernel(types = [f16, f32, f64])]
pub fn floor<T>(x: T) -> T {
    x.floor()
}

/// Rounds toward positive infinity.
#[kernel(types = [f16, f32, f64])]
pub fn ceil<T>(x: T) -> T {
    x.ceil()
}

/// Rounds to the nearest integer, halfway cases to even (as PyTorch's `round`;
/// Rust's `f32::round` rounds them away from zero).
#[kernel(types = [f16, f32, f64])]
pub fn round<T>(x: T) -> T {
    x.round_ties_even()
}

/// Rounds toward zero.
#[kernel(types = [f16, f32, f64])]
pub fn trunc<T>(x: T) -> T {
    x.trunc()
}

/// The fractional part, `x - trunc(x)` (with the sign of `x`).
#[kernel(types = [f16, f32, f64])]
pub fn frac<T>(x: T) -> T {
    x.fract()
}

//! Elementwise functions of two tensors.

use silt::{helper, kernel};

/// `a + b` (wrapping for integers).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn add<T>(a: T, b: T) -> T {
    a + b
}

/// `a - b` (wrapping for integers).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn sub<T>(a: T, b: T) -> T {
    a - b
}

/// `a * b` (wrapping for integers).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn mul<T>(a: T, b: T) -> T {
    a * b
}

/// `a / b`: IEEE for floats; for integers truncating toward zero, `0` when
/// `b == 0`, wrapping for `MIN / -1`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn div<T>(a: T, b: T) -> T {
    a / b
}

/// `a % b` with the sign of `a` (C's `fmod` for floats, Rust's `%` for integers,
/// `0` when `b == 0`).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn rem<T>(a: T, b: T) -> T {
    a % b
}

/// The smaller of `a` and `b`; NaN if either is NaN (as PyTorch's `minimum`);
/// `-0.0` below `+0.0`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn minimum<T>(a: T, b: T) -> T {
    if T::IS_FLOAT {
        if a.is_nan() || b.is_nan() {
            a + b
        } else {
            a.min(b)
        }
    } else {
        a.min(b)
    }
}

/// The larger of `a` and `b`; NaN if either is NaN (as PyTorch's `maximum`);
/// `+0.0` above `-0.0`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn maximum<T>(a: T, b: T) -> T {
    if T::IS_FLOAT {
        if a.is_nan() || b.is_nan() {
            a + b
        } else {
            a.max(b)
        }
    } else {
        a.max(b)
    }
}

/// The smaller of `a` and `b`, ignoring a NaN (as Rust's `min` and C's `fmin`).
#[kernel(types = [f16, f32, f64])]
pub fn fmin<T>(a: T, b: T) -> T {
    a.min(b)
}

/// The larger of `a` and `b`, ignoring a NaN (as Rust's `max` and C's `fmax`).
#[kernel(types = [f16, f32, f64])]
pub fn fmax<T>(a: T, b: T) -> T {
    a.max(b)
}

/// `a` to the power `b`.
#[kernel(types = [f16, f32, f64])]
pub fn pow<T>(a: T, b: T) -> T {
    a.powf(b)
}

/// The angle of the point `(b, a)`: `atan(a / b)` in the right quadrant.
#[kernel(types = [f16, f32, f64])]
pub fn atan2<T>(a: T, b: T) -> T {
    a.atan2(b)
}

/// `sqrt(a^2 + b^2)` without overflow in between.
#[kernel(types = [f16, f32, f64])]
pub fn hypot<T>(a: T, b: T) -> T {
    a.hypot(b)
}

/// The magnitude of `a` with the sign of `b`.
#[kernel(types = [f16, f32, f64])]
pub fn copysign<T>(a: T, b: T) -> T {
    a.copysign(b)
}

/// The greatest common divisor of `|a|` and `|b|` (`0` for `0` and `0`),
/// exact wherever it fits `T`: of signed `a` and `b`, computed from their
/// magnitudes as unsigned integers, so only a divisor of `2^(BITS-1)` (of
/// `MIN` and `0` or `MIN`) wraps, to `MIN`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn gcd<T>(a: T, b: T) -> T {
    if T::IS_SIGNED {
        euclid(a.unsigned_abs(), b.unsigned_abs()) as T
    } else {
        euclid(a, b)
    }
}

/// The least common multiple of `|a|` and `|b|` (`0` where either is `0`),
/// `|a| / gcd(a, b) * |b|` in unsigned arithmetic, wrapping where it does not
/// fit `T` (as PyTorch's `lcm` does).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn lcm<T>(a: T, b: T) -> T {
    if T::IS_SIGNED {
        multiple(a.unsigned_abs(), b.unsigned_abs()) as T
    } else {
        multiple(a, b)
    }
}

/// Euclid's algorithm: `gcd(a, b)` of unsigned integers, `0` for `0` and `0`.
#[helper(types = [u8, u16, u32, u64])]
fn euclid<T>(a: T, b: T) -> T {
    let mut x = a;
    let mut y = b;
    while y != 0 {
        let r = x % y;
        x = y;
        y = r;
    }
    x
}

/// `lcm(a, b)` of unsigned integers, wrapping; `0` where either is `0`.
#[helper(types = [u8, u16, u32, u64])]
fn multiple<T>(a: T, b: T) -> T {
    let g = euclid(a, b);
    if g == 0 {
        0
    } else {
        (a / g).wrapping_mul(b)
    }
}

//! Elementwise functions of two tensors.

use silt::kernel;

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

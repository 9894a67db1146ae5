//! Comparisons, tests, logical and bitwise operations.

use silt::kernel;

/// `a == b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn eq<T>(a: T, b: T) -> bool {
    a == b
}

/// `a != b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn ne<T>(a: T, b: T) -> bool {
    a != b
}

/// `a < b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn lt<T>(a: T, b: T) -> bool {
    a < b
}

/// `a <= b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn le<T>(a: T, b: T) -> bool {
    a <= b
}

/// `a > b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn gt<T>(a: T, b: T) -> bool {
    a > b
}

/// `a >= b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn ge<T>(a: T, b: T) -> bool {
    a >= b
}

/// Whether `x` is NaN.
#[kernel(types = [f16, f32, f64])]
pub fn isnan<T>(x: T) -> bool {
    x.is_nan()
}

/// Whether `x` is positive or negative infinity.
#[kernel(types = [f16, f32, f64])]
pub fn isinf<T>(x: T) -> bool {
    x.is_infinite()
}

/// Whether `x` is neither infinite nor NaN.
#[kernel(types = [f16, f32, f64])]
pub fn isfinite<T>(x: T) -> bool {
    x.is_finite()
}

/// `a && b`.
#[kernel]
pub fn logical_and(a: bool, b: bool) -> bool {
    a && b
}

/// `a || b`.
#[kernel]
pub fn logical_or(a: bool, b: bool) -> bool {
    a || b
}

/// `a != b` on booleans.
#[kernel]
pub fn logical_xor(a: bool, b: bool) -> bool {
    a ^ b
}

/// `!a`.
#[kernel]
pub fn logical_not(a: bool) -> bool {
    !a
}

/// `a & b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn bitwise_and<T>(a: T, b: T) -> T {
    a & b
}

/// `a | b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn bitwise_or<T>(a: T, b: T) -> T {
    a | b
}

/// `a ^ b`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn bitwise_xor<T>(a: T, b: T) -> T {
    a ^ b
}

/// `!a` (every bit flipped).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn bitwise_not<T>(a: T) -> T {
    !a
}

/// `a << b`, the count masked by the bit width (`b % BITS`, as Rust's
/// `wrapping_shl`).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn shl<T>(a: T, b: T) -> T {
    a << b
}

/// `a >> b` (arithmetic for signed types), the count masked by the bit width.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn shr<T>(a: T, b: T) -> T {
    a >> b
}

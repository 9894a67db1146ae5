//! Selection and three-operand arithmetic.

use silt::{helper, kernel};

/// `a` where `cond` holds, else `b`.
#[kernel(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn where_<T>(cond: bool, a: T, b: T) -> T {
    if cond {
        a
    } else {
        b
    }
}

/// `x` limited to `lo..=hi` as PyTorch's `clamp`: `min(max(x, lo), hi)`, so `hi`
/// wins when `lo > hi`; NaN stays NaN.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn clamp<T>(x: T, #[scalar] lo: T, #[scalar] hi: T) -> T {
    let at_least_lo = if x < lo { lo } else { x };
    if at_least_lo > hi {
        hi
    } else {
        at_least_lo
    }
}

/// `a + v * b * c` (wrapping for integers; `f16` in `f32`, rounded once).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn addcmul<T>(a: T, b: T, c: T, #[scalar] v: T) -> T {
    if T::IS_FLOAT && T::BITS == 16 {
        ((a as f32) + (v as f32) * (b as f32) * (c as f32)) as T
    } else {
        a + v * b * c
    }
}

/// `a + weight * (b - a)`, computed as PyTorch does for accuracy at both ends
/// (`f16` in `f32`, rounded once).
#[kernel(types = [f16, f32, f64])]
pub fn lerp<T>(a: T, b: T, #[scalar] weight: T) -> T {
    if T::BITS == 16 {
        lerp_of(a as f32, b as f32, weight as f32) as T
    } else {
        lerp_of(a, b, weight)
    }
}

/// [`lerp`](mod@lerp) in `T`.
#[helper(types = [f32, f64])]
fn lerp_of<T>(a: T, b: T, weight: T) -> T {
    if weight.abs() < 0.5 {
        a + weight * (b - a)
    } else {
        b - (b - a) * (1.0 - weight)
    }
}

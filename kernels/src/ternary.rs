//! Selection and three-operand arithmetic.

use silt::kernel;

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

/// `a + v * b * c` (wrapping for integers).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn addcmul<T>(a: T, b: T, c: T, #[scalar] v: T) -> T {
    a + v * b * c
}

/// `a + weight * (b - a)`, computed as PyTorch does for accuracy at both ends.
#[kernel(types = [f16, f32, f64])]
pub fn lerp<T>(a: T, b: T, #[scalar] weight: T) -> T {
    if weight.abs() < 0.5 {
        a + weight * (b - a)
    } else {
        b - (b - a) * (1.0 - weight)
    }
}

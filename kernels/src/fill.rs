//! Filling and copying.

use silt::kernel;

/// Writes `value` into every element of `out`.
#[kernel(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn set<T>(#[scalar] value: T, out: &mut T) {
    *out = value;
}

/// Copies `x` into `out` (any views of the same shape).
#[kernel(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn copy<T>(x: T, out: &mut T) {
    *out = x;
}

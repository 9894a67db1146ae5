//! Casts with Rust's `as` semantics: saturating float to integer (NaN to 0),
//! round to nearest even into floats, truncating between integers.

use silt::kernel;

/// `x as f16` (rounded once, to nearest even; infinity beyond `f16::MAX`).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_f16<T>(x: T) -> f16 {
    x as f16
}

/// `x as f32`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_f32<T>(x: T) -> f32 {
    x as f32
}

/// `x as f64`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_f64<T>(x: T) -> f64 {
    x as f64
}

/// `x as i32`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_i32<T>(x: T) -> i32 {
    x as i32
}

/// `x as i64`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_i64<T>(x: T) -> i64 {
    x as i64
}

/// `x as u8`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_u8<T>(x: T) -> u8 {
    x as u8
}

/// `x != 0` (NaN is `true`, as in PyTorch).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_bool<T>(x: T) -> bool {
    x != 0
}

//! The scans of the library, written with `#[scan]`; `cumsum` and `cumprod`
//! are families by accumulator type (joined in `ops.rs`).

use silt::{helper, scan};

#[doc(hidden)]
#[scan(types = [f32, f64])]
pub mod cumsum_float {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[doc(hidden)]
#[scan(types = [f16])]
pub mod cumsum_half {
    pub fn identity() -> f32 {
        0.0
    }
    pub fn map<T>(x: T) -> f32 {
        x as f32
    }
    pub fn combine(a: f32, b: f32) -> f32 {
        a + b
    }
    pub fn finish<T>(acc: f32, count: u64) -> T {
        acc as T
    }
}

#[doc(hidden)]
#[scan(types = [bool, i8, i16, i32, i64, u8, u16])]
pub mod cumsum_int {
    pub fn identity() -> i64 {
        0
    }
    pub fn map<T>(x: T) -> i64 {
        x as i64
    }
    pub fn combine(a: i64, b: i64) -> i64 {
        a + b
    }
}

#[doc(hidden)]
#[scan(types = [u32, u64])]
pub mod cumsum_uint {
    pub fn identity() -> u64 {
        0
    }
    pub fn map<T>(x: T) -> u64 {
        x as u64
    }
    pub fn combine(a: u64, b: u64) -> u64 {
        a + b
    }
}

#[doc(hidden)]
#[scan(types = [f32, f64])]
pub mod cumprod_float {
    pub fn identity<T>() -> T {
        1.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a * b
    }
}

#[doc(hidden)]
#[scan(types = [f16])]
pub mod cumprod_half {
    pub fn identity() -> f32 {
        1.0
    }
    pub fn map<T>(x: T) -> f32 {
        x as f32
    }
    pub fn combine(a: f32, b: f32) -> f32 {
        a * b
    }
    pub fn finish<T>(acc: f32, count: u64) -> T {
        acc as T
    }
}

#[doc(hidden)]
#[scan(types = [bool, i8, i16, i32, i64, u8, u16])]
pub mod cumprod_int {
    pub fn identity() -> i64 {
        1
    }
    pub fn map<T>(x: T) -> i64 {
        x as i64
    }
    pub fn combine(a: i64, b: i64) -> i64 {
        a * b
    }
}

#[doc(hidden)]
#[scan(types = [u32, u64])]
pub mod cumprod_uint {
    pub fn identity() -> u64 {
        1
    }
    pub fn map<T>(x: T) -> u64 {
        x as u64
    }
    pub fn combine(a: u64, b: u64) -> u64 {
        a * b
    }
}

/// The running maximum along an axis and its index (`i64`), as PyTorch's
/// `cummax`: a tie takes the later index; a NaN propagates, with the index of
/// the latest NaN.
#[scan(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub mod cummax {
    pub fn identity<T>() -> (T, i64) {
        (T::MIN, -1)
    }
    pub fn map<T>(x: T, #[index] i: u64) -> (T, i64) {
        (x, i as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        if T::IS_FLOAT {
            if b.0 != b.0 {
                return b;
            }
            if a.0 != a.0 {
                return a;
            }
        }
        if b.0 >= a.0 {
            b
        } else {
            a
        }
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> (T, i64) {
        acc
    }
}

/// The running minimum along an axis and its index (`i64`), as PyTorch's
/// `cummin`: a tie takes the later index; a NaN propagates, with the index of
/// the latest NaN.
#[scan(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub mod cummin {
    pub fn identity<T>() -> (T, i64) {
        (T::MAX, -1)
    }
    pub fn map<T>(x: T, #[index] i: u64) -> (T, i64) {
        (x, i as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        if T::IS_FLOAT {
            if b.0 != b.0 {
                return b;
            }
            if a.0 != a.0 {
                return a;
            }
        }
        if b.0 <= a.0 {
            b
        } else {
            a
        }
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> (T, i64) {
        acc
    }
}

/// `ln(e^a + e^b)` as `max + ln_1p(e^-|a - b|)` (no overflow): a NaN
/// propagates, equal infinities stay (`-inf - -inf` would be NaN).
#[helper(types = [f32, f64])]
fn log_add_exp<T>(a: T, b: T) -> T {
    if a != a {
        return a;
    }
    if b != b {
        return b;
    }
    let hi = if a > b { a } else { b };
    let lo = if a > b { b } else { a };
    let d = if a == b { 0.0 } else { lo - hi };
    hi + d.exp().ln_1p()
}

#[doc(hidden)]
#[scan(types = [f32, f64])]
pub mod logcumsumexp_float {
    pub fn identity<T>() -> T {
        T::NEG_INFINITY
    }
    pub fn combine<T>(a: T, b: T) -> T {
        log_add_exp(a, b)
    }
}

#[doc(hidden)]
#[scan(types = [f16])]
pub mod logcumsumexp_half {
    pub fn identity() -> f32 {
        f32::NEG_INFINITY
    }
    pub fn map<T>(x: T) -> f32 {
        x as f32
    }
    pub fn combine(a: f32, b: f32) -> f32 {
        log_add_exp(a, b)
    }
    pub fn finish<T>(acc: f32, count: u64) -> T {
        acc as T
    }
}

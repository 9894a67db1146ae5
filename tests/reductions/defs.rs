//! The reductions under test: every form the attribute takes.

use silt::prelude::*;

/// A plain sum: no `map`, no `finish`.
#[reduce(types = [f32, f64, i32, u8])]
pub mod sum {
    pub fn identity<T>() -> T {
        0 as T
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

/// `map` and `finish` of the same type.
#[reduce(types = [f32, f64])]
pub mod sum_sq {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        x * x
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        acc
    }
}

/// An accumulator of another type than the input; a fixed output type.
#[reduce(types = [f16, f32, i8, i64, bool])]
pub mod count_nonzero {
    pub fn identity() -> u64 {
        0
    }
    pub fn map<T>(x: T) -> u64 {
        // the branch not taken for a type is not checked for it
        if T::IS_BOOL {
            x as u64
        } else if x != (0 as T) {
            1
        } else {
            0
        }
    }
    pub fn combine(a: u64, b: u64) -> u64 {
        a + b
    }
}

/// A tuple accumulator with an `#[index]`: the first largest element's index,
/// NaN winning.
#[reduce(types = [f32, f16, i32], empty = error)]
pub mod argmax {
    pub fn identity<T>() -> (T, i64) {
        (T::MIN, -1)
    }
    pub fn map<T>(x: T, #[index] i: u64) -> (T, i64) {
        (x, i as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        if T::IS_FLOAT {
            if a.0 != a.0 {
                return a;
            }
            if b.0 != b.0 {
                return b;
            }
        }
        if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
            b
        } else {
            a
        }
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> i64 {
        acc.1
    }
}

/// Two inputs, a scalar, and a `finish` that divides by the count: a scaled
/// mean of products.
#[reduce(types = [f32, f64])]
pub mod scaled_dot_mean {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T, y: T, #[scalar] s: T) -> T {
        x * y * s
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        if count == 0 {
            T::NAN
        } else {
            acc / (count as T)
        }
    }
}

/// Two outputs from `finish`: the minimum and the maximum.
#[reduce(types = [f32, i16])]
pub mod min_max {
    pub fn identity<T>() -> (T, T) {
        (T::MAX, T::MIN)
    }
    pub fn map<T>(x: T) -> (T, T) {
        (x, x)
    }
    pub fn combine<T>(a: (T, T), b: (T, T)) -> (T, T) {
        (a.0.min(b.0), a.1.max(b.1))
    }
    pub fn finish<T>(acc: (T, T), count: u64) -> (T, T) {
        acc
    }
}

/// A reduction without `types`.
#[reduce]
pub mod all_positive {
    pub fn identity() -> bool {
        true
    }
    pub fn map(x: f32) -> bool {
        x > 0.0
    }
    pub fn combine(a: bool, b: bool) -> bool {
        a && b
    }
}

/// A running sum (no `map`, no `finish`).
#[scan(types = [f32, f64, i32, f16])]
pub mod running_sum {
    pub fn identity<T>() -> T {
        0 as T
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

/// A scan whose `combine` (`3a + b`, wrapping) is neither associative nor
/// commutative: its results pin the order of combination.
#[scan(types = [i64])]
pub mod running_probe {
    pub fn identity<T>() -> T {
        0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a * 3 + b
    }
}

/// The first element of each prefix, where every element is the scalar:
/// `combine` ignores its second operand and `map` its element, which once
/// made PoCL drop the chunks' totals.
#[scan(types = [i16, f32])]
pub mod running_first {
    pub fn identity<T>() -> T {
        8 as T
    }
    pub fn map<T>(x: T, #[scalar] s: T) -> T {
        s
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a
    }
}

/// A running maximum with the index of its first occurrence: two outputs.
#[scan(types = [f32, i64])]
pub mod running_max {
    pub fn identity<T>() -> (T, i64) {
        (T::MIN, -1)
    }
    pub fn map<T>(x: T, #[index] i: u64) -> (T, i64) {
        (x, i as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        if b.0 > a.0 {
            b
        } else {
            a
        }
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> (T, i64) {
        acc
    }
}

/// A running mean of products: two inputs, `finish` with the count.
#[scan(types = [f32])]
pub mod running_dot_mean {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T, y: T) -> T {
        x * y
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        if count == 0 {
            0.0
        } else {
            acc / (count as T)
        }
    }
}

/// Three inputs and loops whose trip counts are the same in every work-item:
/// on PoCL each such loop keeps every value live across it once per
/// work-item of the group, on the worker thread's stack.
#[reduce]
pub mod looped_dot {
    pub fn identity() -> f64 {
        0.0
    }
    pub fn map(x: f32, y: f32, w: i8) -> f64 {
        let mut acc = 0.0f64;
        let mut k = 0u16;
        while k < 5 && y.is_sign_positive() {
            acc += (x * y) as f64;
            k += 1;
        }
        acc * (w as f64)
    }
    pub fn combine(a: f64, b: f64) -> f64 {
        let mut s = a;
        for i in 0..=5i8 {
            if i == 5 {
                s += b;
            }
        }
        s
    }
}

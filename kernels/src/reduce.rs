//! The reductions of the library, written with `#[reduce]`. Operations whose
//! accumulator depends on the element type (a sum of `i8` accumulates in
//! `i64`, of `f16` in `f32`) are families of several reductions, joined into
//! one operation by the `family!` macro in `ops.rs`.

use silt::reduce;

// ---- sum and prod ----

#[doc(hidden)]
#[reduce(types = [f32, f64])]
pub mod sum_float {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[doc(hidden)]
#[reduce(types = [f16])]
pub mod sum_half {
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
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16])]
pub mod sum_int {
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
#[reduce(types = [u32, u64])]
pub mod sum_uint {
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
#[reduce(types = [f32, f64])]
pub mod prod_float {
    pub fn identity<T>() -> T {
        1.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a * b
    }
}

#[doc(hidden)]
#[reduce(types = [f16])]
pub mod prod_half {
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
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16])]
pub mod prod_int {
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
#[reduce(types = [u32, u64])]
pub mod prod_uint {
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

// ---- mean, and var and std through their sum of squared deviations ----

#[doc(hidden)]
#[reduce(types = [f32, f64])]
pub mod mean_float {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        acc / (count as T)
    }
}

#[doc(hidden)]
#[reduce(types = [f16])]
pub mod mean_half {
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
        (acc / (count as f32)) as T
    }
}

/// Welford's count, mean and sum of squared deviations, joined by Chan's
/// formula; the result is the sum of squared deviations. One element's
/// squared deviation is `(x - x)^2`: 0, but NaN for an infinity, as
/// PyTorch's Welford step makes it (`inf * (inf - inf)`), so that a variance
/// over an infinity is NaN in every order (a 0 there made it 0, or infinite
/// after Chan's join with a finite mean).
#[doc(hidden)]
#[reduce(types = [f32, f64])]
pub mod sq_dev {
    pub fn identity<T>() -> (u64, T, T) {
        (0, 0.0, 0.0)
    }
    pub fn map<T>(x: T) -> (u64, T, T) {
        (1, x, (x - x) * (x - x))
    }
    pub fn combine<T>(a: (u64, T, T), b: (u64, T, T)) -> (u64, T, T) {
        if a.0 == 0 {
            return b;
        }
        if b.0 == 0 {
            return a;
        }
        let n = a.0 + b.0;
        let d = b.1 - a.1;
        let mean = a.1 + d * ((b.0 as T) / (n as T));
        let m2 = a.2 + b.2 + d * d * ((a.0 as T) * (b.0 as T) / (n as T));
        (n, mean, m2)
    }
    pub fn finish<T>(acc: (u64, T, T), count: u64) -> T {
        acc.2
    }
}

/// [`sq_dev`] of `f16` values, in `f32`.
#[doc(hidden)]
#[reduce(types = [f16])]
pub mod sq_dev_half {
    pub fn identity() -> (u64, f32, f32) {
        (0, 0.0, 0.0)
    }
    pub fn map<T>(x: T) -> (u64, f32, f32) {
        let v = x as f32;
        (1, v, (v - v) * (v - v))
    }
    pub fn combine(a: (u64, f32, f32), b: (u64, f32, f32)) -> (u64, f32, f32) {
        if a.0 == 0 {
            return b;
        }
        if b.0 == 0 {
            return a;
        }
        let n = a.0 + b.0;
        let d = b.1 - a.1;
        let mean = a.1 + d * ((b.0 as f32) / (n as f32));
        let m2 = a.2 + b.2 + d * d * ((a.0 as f32) * (b.0 as f32) / (n as f32));
        (n, mean, m2)
    }
    pub fn finish(acc: (u64, f32, f32), count: u64) -> f32 {
        acc.2
    }
}

// ---- extremes ----

/// The largest element (`amax`); NaN propagates. An error over no elements.
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64], empty = error)]
pub mod amax {
    pub fn identity<T>() -> T {
        if T::IS_BOOL {
            false as T
        } else {
            T::MIN
        }
    }
    pub fn combine<T>(a: T, b: T) -> T {
        if T::IS_FLOAT {
            if a != a {
                return a;
            }
            if b != b {
                return b;
            }
        }
        if b > a {
            b
        } else {
            a
        }
    }
}

/// The smallest element (`amin`); NaN propagates. An error over no elements.
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64], empty = error)]
pub mod amin {
    pub fn identity<T>() -> T {
        if T::IS_BOOL {
            true as T
        } else {
            T::MAX
        }
    }
    pub fn combine<T>(a: T, b: T) -> T {
        if T::IS_FLOAT {
            if a != a {
                return a;
            }
            if b != b {
                return b;
            }
        }
        if b < a {
            b
        } else {
            a
        }
    }
}

/// The index (`i64`) of the largest element, within the reduced elements in
/// row-major order: the first NaN if there is one, else the first of ties (as
/// NumPy). An error over no elements.
#[reduce(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64], empty = error)]
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
                if b.0 != b.0 && b.1 < a.1 {
                    return b;
                }
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

/// The index (`i64`) of the smallest element: the first NaN if there is one,
/// else the first of ties. An error over no elements.
#[reduce(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64], empty = error)]
pub mod argmin {
    pub fn identity<T>() -> (T, i64) {
        (T::MAX, -1)
    }
    pub fn map<T>(x: T, #[index] i: u64) -> (T, i64) {
        (x, i as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        if T::IS_FLOAT {
            if a.0 != a.0 {
                if b.0 != b.0 && b.1 < a.1 {
                    return b;
                }
                return a;
            }
            if b.0 != b.0 {
                return b;
            }
        }
        if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) {
            b
        } else {
            a
        }
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> i64 {
        acc.1
    }
}

// ---- logic and counts ----

/// Whether every element is nonzero (`true` over no elements).
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub mod all {
    pub fn identity() -> bool {
        true
    }
    pub fn map<T>(x: T) -> bool {
        if T::IS_BOOL {
            x as bool
        } else {
            x != (0 as T)
        }
    }
    pub fn combine(a: bool, b: bool) -> bool {
        a && b
    }
}

/// Whether any element is nonzero (`false` over no elements).
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub mod any {
    pub fn identity() -> bool {
        false
    }
    pub fn map<T>(x: T) -> bool {
        if T::IS_BOOL {
            x as bool
        } else {
            x != (0 as T)
        }
    }
    pub fn combine(a: bool, b: bool) -> bool {
        a || b
    }
}

/// The number of nonzero elements, as `i64`.
#[reduce(types = [bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub mod count_nonzero {
    pub fn identity() -> i64 {
        0
    }
    pub fn map<T>(x: T) -> i64 {
        if T::IS_BOOL {
            x as i64
        } else if x != (0 as T) {
            1
        } else {
            0
        }
    }
    pub fn combine(a: i64, b: i64) -> i64 {
        a + b
    }
}

// ---- norms and logsumexp (in f32 for f16) ----

#[doc(hidden)]
#[reduce(types = [f32, f64])]
pub mod norm1 {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        x.abs()
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[doc(hidden)]
#[reduce(types = [f16])]
pub mod norm1_half {
    pub fn identity() -> f32 {
        0.0
    }
    pub fn map<T>(x: T) -> f32 {
        (x as f32).abs()
    }
    pub fn combine(a: f32, b: f32) -> f32 {
        a + b
    }
    pub fn finish<T>(acc: f32, count: u64) -> T {
        acc as T
    }
}

#[doc(hidden)]
#[reduce(types = [f32, f64])]
pub mod norm2 {
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
        acc.sqrt()
    }
}

#[doc(hidden)]
#[reduce(types = [f16])]
pub mod norm2_half {
    pub fn identity() -> f32 {
        0.0
    }
    pub fn map<T>(x: T) -> f32 {
        (x as f32) * (x as f32)
    }
    pub fn combine(a: f32, b: f32) -> f32 {
        a + b
    }
    pub fn finish<T>(acc: f32, count: u64) -> T {
        acc.sqrt() as T
    }
}

/// The largest `|x|`; NaN propagates. Exact, so `f16` needs no wider type.
#[doc(hidden)]
#[reduce(types = [f16, f32, f64], empty = error)]
pub mod norm_inf {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        x.abs()
    }
    pub fn combine<T>(a: T, b: T) -> T {
        if a != a {
            return a;
        }
        if b != b || b > a {
            b
        } else {
            a
        }
    }
}

/// The running maximum `m` and `sum(exp(x - m))`, rescaled as the maximum
/// grows; the result is `m + ln(sum)`: no overflow for large inputs.
#[doc(hidden)]
#[reduce(types = [f32, f64])]
pub mod lse {
    pub fn identity<T>() -> (T, T) {
        (T::NEG_INFINITY, 0.0)
    }
    pub fn map<T>(x: T) -> (T, T) {
        (x, 1.0)
    }
    pub fn combine<T>(a: (T, T), b: (T, T)) -> (T, T) {
        if a.0 != a.0 {
            return a;
        }
        if b.0 != b.0 {
            return b;
        }
        if a.0 == b.0 {
            return (a.0, a.1 + b.1);
        }
        if a.0 > b.0 {
            (a.0, a.1 + b.1 * (b.0 - a.0).exp())
        } else {
            (b.0, b.1 + a.1 * (a.0 - b.0).exp())
        }
    }
    pub fn finish<T>(acc: (T, T), count: u64) -> T {
        acc.0 + acc.1.ln()
    }
}

/// [`lse`] of `f16` values, in `f32` (and its result in `f32`, for softmax).
#[doc(hidden)]
#[reduce(types = [f16])]
pub mod lse_half {
    pub fn identity() -> (f32, f32) {
        (f32::NEG_INFINITY, 0.0)
    }
    pub fn map<T>(x: T) -> (f32, f32) {
        (x as f32, 1.0)
    }
    pub fn combine(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
        if a.0 != a.0 {
            return a;
        }
        if b.0 != b.0 {
            return b;
        }
        if a.0 == b.0 {
            return (a.0, a.1 + b.1);
        }
        if a.0 > b.0 {
            (a.0, a.1 + b.1 * (b.0 - a.0).exp())
        } else {
            (b.0, b.1 + a.1 * (a.0 - b.0).exp())
        }
    }
    pub fn finish(acc: (f32, f32), count: u64) -> f32 {
        acc.0 + acc.1.ln()
    }
}

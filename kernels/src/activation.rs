//! Piecewise activation functions; the smooth ones are in `smooth.rs`.

use silt::{helper, kernel};

/// `max(x, 0)`; NaN stays NaN.
#[kernel(types = [f16, f32, f64])]
pub fn relu<T>(x: T) -> T {
    if x > 0.0 || x.is_nan() {
        x
    } else {
        0.0
    }
}

/// `min(max(x, 0), 6)`; NaN stays NaN.
#[kernel(types = [f16, f32, f64])]
pub fn relu6<T>(x: T) -> T {
    if x.is_nan() {
        x
    } else if x <= 0.0 {
        0.0
    } else if x >= 6.0 {
        6.0
    } else {
        x
    }
}

/// `x` for `x > 0`, else `slope * x`.
#[kernel(types = [f16, f32, f64])]
pub fn leaky_relu<T>(x: T, #[scalar] slope: T) -> T {
    if x > 0.0 {
        x
    } else {
        x * slope
    }
}

/// `x / (1 + |x|)` (`f16` in `f32`, rounded once).
#[kernel(types = [f16, f32, f64])]
pub fn softsign<T>(x: T) -> T {
    if T::BITS == 16 {
        softsign_of(x as f32) as T
    } else {
        softsign_of(x)
    }
}

/// `x / (1 + |x|)` in `T`.
#[helper(types = [f32, f64])]
fn softsign_of<T>(x: T) -> T {
    x / (1.0 + x.abs())
}

/// `x` limited to `min_val..=max_val`; NaN stays NaN.
#[kernel(types = [f16, f32, f64])]
pub fn hardtanh<T>(x: T, #[scalar] min_val: T, #[scalar] max_val: T) -> T {
    if x < min_val {
        min_val
    } else if x > max_val {
        max_val
    } else {
        x
    }
}

/// `relu6(x + 3) / 6`, as PyTorch computes it: `min(max(x + 3, 0), 6) / 6`
/// (0 from -3 down, 1 from 3 up; `f16` in `f32`, rounded once).
#[kernel(types = [f16, f32, f64])]
pub fn hardsigmoid<T>(x: T) -> T {
    if T::BITS == 16 {
        hardsigmoid_of(x as f32) as T
    } else {
        hardsigmoid_of(x)
    }
}

/// [`hardsigmoid`](mod@hardsigmoid) in `T`.
#[helper(types = [f32, f64])]
fn hardsigmoid_of<T>(x: T) -> T {
    relu6_of(x + 3.0) / 6.0
}

/// `min(max(v, 0), 6)` as C++'s `std::min` and `std::max` take them (NaN
/// stays NaN): PyTorch's `relu6` inside `hardsigmoid` and `hardswish`.
#[helper(types = [f32, f64])]
fn relu6_of<T>(v: T) -> T {
    let r = if v < 0.0 { 0.0 } else { v };
    if 6.0 < r {
        6.0
    } else {
        r
    }
}

/// `x * relu6(x + 3) / 6`, as PyTorch computes it: `x * min(max(x + 3, 0),
/// 6) / 6` (-0 from -3 down for finite `x`, NaN at `-inf`, `x * 6 / 6` from
/// 3 up; `f16` in `f32`, rounded once).
#[kernel(types = [f16, f32, f64])]
pub fn hardswish<T>(x: T) -> T {
    if T::BITS == 16 {
        hardswish_of(x as f32) as T
    } else {
        hardswish_of(x)
    }
}

/// [`hardswish`](mod@hardswish) in `T`.
#[helper(types = [f32, f64])]
fn hardswish_of<T>(x: T) -> T {
    x * relu6_of(x + 3.0) / 6.0
}

//! In-place updates.

use silt::kernel;

/// `y += a * x`.
#[kernel(types = [f16, f32, f64])]
pub fn axpy<T>(#[scalar] a: T, x: T, y: &mut T) {
    *y += a * x;
}

/// `x *= a`.
#[kernel(types = [f16, f32, f64])]
pub fn scale_<T>(#[scalar] a: T, x: &mut T) {
    *x *= a;
}

/// `x += y`.
#[kernel(types = [f16, f32, f64])]
pub fn add_<T>(x: &mut T, y: T) {
    *x += y;
}

//! In-place updates.

use silt::kernel;

/// `y += a * x` (`f16` in `f32`, rounded once).
#[kernel(types = [f16, f32, f64])]
pub fn axpy<T>(#[scalar] a: T, x: T, y: &mut T) {
    if T::BITS == 16 {
        *y = ((*y as f32) + (a as f32) * (x as f32)) as T;
    } else {
        *y += a * x;
    }
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

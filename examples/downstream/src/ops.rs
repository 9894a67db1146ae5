//! This crate's own operations: a helper and two kernels, written against `silt`
//! exactly as `silt-kernels` writes its operations.

use silt::prelude::*;

/// The standard normal CDF, `Φ(x) = (1 + erf(x / √2)) / 2`: a helper, callable from
/// this crate's kernels (and emitted once into each OpenCL program that calls it).
#[helper(types = [f32, f64])]
pub fn normal_cdf<T>(x: T) -> T {
    0.5 * (1.0 + (x * T::FRAC_1_SQRT_2).erf())
}

/// `gelu(x + bias)` in one pass: one read of each input and one write, where
/// `silt_kernels::add` then `silt_kernels::gelu` write and read a temporary tensor.
#[kernel(types = [f32, f64])]
pub fn bias_gelu<T>(x: T, bias: T) -> T {
    let v = x + bias;
    v * normal_cdf(v)
}

/// A smooth clip into `(-limit, limit)`: `limit * tanh(x / limit)`, close to `x`
/// for small `|x|`.
#[kernel(types = [f32, f64])]
pub fn softclip<T>(x: T, #[scalar] limit: T) -> T {
    limit * (x / limit).tanh()
}

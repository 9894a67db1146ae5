//! This crate's own operations: a helper, three kernels and a grid kernel, written against
//! `silt` exactly as `silt-kernels` writes its operations; one of them calls
//! a kernel of `silt-kernels`.

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

/// The same `gelu(x + bias)` through silt-kernels' own `gelu`, called by its
/// crate's path: its body is inlined here, so one launch gives the same bits
/// as `silt_kernels::add` then `silt_kernels::gelu`.
#[kernel(types = [f32, f64])]
pub fn bias_gelu_lib<T>(x: T, bias: T) -> T {
    silt_kernels::gelu(x + bias)
}

/// A smooth clip into `(-limit, limit)`: `limit * tanh(x / limit)`, close to `x`
/// for small `|x|`.
#[kernel(types = [f32, f64])]
pub fn softclip<T>(x: T, #[scalar] limit: T) -> T {
    limit * (x / limit).tanh()
}

/// Rows of `table` picked by `idx` (an embedding lookup): `y[i, j] =
/// table[idx[i], j]`. A checked grid kernel: an index past `table`'s rows
/// (a negative one included) is never read out of range; the access gives
/// 0 and the launch returns `Error::IndexOutOfBounds`, naming `table`.
#[grid(types = [f32, f64], group = [16, 4])]
pub fn lookup<T>(table: View<T, 2>, idx: View<i64, 1>, y: ViewMut<T, 2>) {
    let (i, j) = (global_id(0), global_id(1));
    if i < y.len(0) && j < y.len(1) {
        y[[i, j]] = table[[idx[[i]] as u64, j]];
    }
}

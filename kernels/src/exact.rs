//! Error-free transformations, as `#[helper]`s for kernel and reduction
//! bodies: a sum or a product and its rounding error, both exact. They are the
//! building blocks of compensated sums and dot products.

use silt::prelude::*;

/// `(s, e)` with `s = a + b` rounded and `e` its rounding error, so that
/// `s + e == a + b` exactly (Knuth's TwoSum, six operations, any order of
/// magnitude; finite inputs whose sum does not overflow). A `#[helper]`:
/// `let (s, e) = silt_kernels::two_sum(a, b);` in a `#[kernel]`, `#[reduce]` or
/// `#[scan]` of any crate.
#[helper(types = [f32, f64])]
pub fn two_sum<T>(a: T, b: T) -> (T, T) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `(p, e)` with `p = a * b` rounded and `e` its rounding error, so that
/// `p + e == a * b` exactly (one fused multiply-add; finite inputs whose
/// product neither overflows nor underflows). A `#[helper]`:
/// `let (p, e) = silt_kernels::two_prod(a, b);`.
#[helper(types = [f32, f64])]
pub fn two_prod<T>(a: T, b: T) -> (T, T) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

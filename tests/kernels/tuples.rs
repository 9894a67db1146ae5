//! Calls with several results: helpers and kernels that return tuples,
//! destructured by `let (a, b) = f(x);` (nested, with `_` and `mut`), on the
//! device and the host, bit for bit against the same Rust written by hand.

use silt::prelude::*;

use crate::common;

/// The whole and fractional parts.
#[helper(types = [f32, f64])]
pub fn split<T>(x: T) -> (T, T) {
    let whole = x.floor();
    (whole, x - whole)
}

/// The example: a kernel destructuring a helper's two results.
#[kernel(types = [f32, f64])]
pub fn recombine<T>(x: T) -> T {
    let (whole, part) = split(x);
    whole * 2.0 + part
}

/// A helper with three results that calls a helper with two, one dropped.
#[helper(types = [f32, f64])]
pub fn parts3<T>(x: T, y: T) -> (T, T, T) {
    let (_, fx) = split(x);
    let (wy, fy) = split(y);
    (fx + fy, wy, fx * fy)
}

/// A kernel with two results, callable from other kernels.
#[kernel(types = [f32, f64])]
pub fn sum_diff<T>(a: T, b: T) -> (T, T) {
    (a + b, a - b)
}

/// Nested patterns, `mut`, `_`, a kernel's tuple, and names rebound from
/// themselves (every value is computed before any name is bound).
#[kernel(types = [f32, f64])]
pub fn nested<T>(x: T, y: T) -> (T, T) {
    let ((mut a, b), c, _) = (split(x), y * 0.5, split(y));
    a = a + 1.0;
    let (p, q, r) = parts3(x, y);
    let (s, d) = sum_diff(p, q);
    let (x, y) = (y, x);
    let (y, _) = sum_diff(y, x);
    (a * b + c + r, s * d + y)
}

fn split_rs(x: f64) -> (f64, f64) {
    let w = x.floor();
    (w, x - w)
}

fn nested_rs(x: f64, y: f64) -> (f64, f64) {
    let ((mut a, b), c) = (split_rs(x), y * 0.5);
    a += 1.0;
    let (_, fx) = split_rs(x);
    let (wy, fy) = split_rs(y);
    let (p, q, r) = (fx + fy, wy, fx * fy);
    let (s, d) = (p + q, p - q);
    let (x, y) = (y, x);
    let y = y + x;
    (a * b + c + r, s * d + y)
}

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

const XS: [f64; 9] = [
    0.0,
    -0.0,
    2.75,
    -2.75,
    1e17,
    -1e-300,
    f64::INFINITY,
    f64::NAN,
    7.5,
];
const YS: [f64; 9] = [
    1.5,
    -3.25,
    0.125,
    1e10,
    -0.5,
    3.0,
    2.0,
    -1.0,
    f64::NEG_INFINITY,
];

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn destructured_calls_give_rusts_results_on_every_device() {
    let want: Vec<f64> = XS
        .iter()
        .map(|&x| {
            let (w, p) = split_rs(x);
            w * 2.0 + p
        })
        .collect();
    let (want0, want1): (Vec<f64>, Vec<f64>) =
        XS.iter().zip(&YS).map(|(&x, &y)| nested_rs(x, y)).unzip();
    for dev in common::devices() {
        let x = col(&dev, &XS);
        let y = col(&dev, &YS);
        let got = recombine::launch(&x).unwrap().to_vec().unwrap();
        assert_eq!(bits(&got), bits(&want), "recombine on {dev}: {got:?}");
        let (a, b) = nested::launch(&x, &y).unwrap();
        let (va, vb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        assert_eq!(bits(&va), bits(&want0), "nested.0 on {dev}: {va:?}");
        assert_eq!(bits(&vb), bits(&want1), "nested.1 on {dev}: {vb:?}");

        // f32: against the f32 Rust
        let x32: Vec<f32> = XS.iter().map(|&v| v as f32).collect();
        let got = recombine::launch(&col(&dev, &x32))
            .unwrap()
            .to_vec()
            .unwrap();
        for (g, &v) in got.iter().zip(&x32) {
            let w = v.floor();
            let want = w * 2.0 + (v - w);
            assert_eq!(g.to_bits(), want.to_bits(), "recombine({v}) on {dev}");
        }
    }
    assert_eq!(recombine::eval(2.75f64), 4.75);
    assert_eq!(nested::eval(2.75f64, 1.5), nested_rs(2.75, 1.5));
}

#[test]
fn a_helper_with_several_results_writes_them_through_pointers() {
    let src = recombine::source(DType::F32).unwrap();
    assert!(
        src.contains("float* silt_ret0, float* silt_ret1"),
        "the helper's results are pointers:\n{src}"
    );
    let src = nested::source(DType::F64).unwrap();
    // `_` still gets a place to be written to
    assert!(src.contains("__silt_dropped"), "{src}");
}

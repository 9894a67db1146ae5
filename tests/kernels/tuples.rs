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

/// Tuples from `if` / `else if`, `match` and blocks, bound by `let` and
/// written by destructuring assignment: every value computed before any name
/// is bound or place assigned, a branch that returns, names rebound from
/// themselves, `_` and a call's results among the places.
#[kernel(types = [f32, f64])]
pub fn branches<T>(x: T, y: T) -> (T, T) {
    let (lo, hi) = if x < y { (x, y) } else { (y, x) };
    let (x, y) = if x.is_nan() {
        return (y, lo);
    } else if y > 1.0 {
        let s = x + y;
        (s, x)
    } else {
        split(y)
    };
    let (mut p, mut q) = match lo > 0.0 {
        true => (lo * 2.0, hi),
        false => {
            let h = hi - 1.0;
            (h, lo)
        }
    };
    (p, q) = (q, p);
    let w;
    (w, (_, q)) = (q + p, split(q));
    _ = split(w);
    (p, _) = if w > x { (w, y) } else { sum_diff(x, p) };
    (x * p + w, y - q)
}

/// Destructuring assignment to `&mut` parameters, and a tuple `let` from an
/// `if` that reads them.
#[kernel(types = [i32, f64])]
pub fn rotate<T>(a: &mut T, b: &mut T, c: T) {
    (*a, *b) = (*a + *b, *a);
    let (mut m, n) = if c > *a { (c, *a) } else { (*a, c) };
    (m, *b) = (m - n, *b * 2);
    *a = m;
}

/// `branches` in Rust, for `$t` (compiled by rustc: the reference for the
/// lowering, which the host's `eval` goes through too).
macro_rules! branches_rs {
    ($name:ident, $t:ty) => {
        fn $name(x: $t, y: $t) -> ($t, $t) {
            let split = |v: $t| (v.floor(), v - v.floor());
            let (lo, hi) = if x < y { (x, y) } else { (y, x) };
            let (x, y) = if x.is_nan() {
                return (y, lo);
            } else if y > 1.0 {
                let s = x + y;
                (s, x)
            } else {
                split(y)
            };
            let (mut p, mut q) = match lo > 0.0 {
                true => (lo * 2.0, hi),
                false => {
                    let h = hi - 1.0;
                    (h, lo)
                }
            };
            (p, q) = (q, p);
            let w;
            (w, (_, q)) = (q + p, split(q));
            (p, _) = if w > x { (w, y) } else { (x + p, x - p) };
            (x * p + w, y - q)
        }
    };
}

branches_rs!(branches_f64, f64);
branches_rs!(branches_f32, f32);

/// `rotate` in Rust.
fn rotate_rs(a: &mut i32, b: &mut i32, c: i32) {
    (*a, *b) = (*a + *b, *a);
    let (mut m, n) = if c > *a { (c, *a) } else { (*a, c) };
    (m, *b) = (m - n, *b * 2);
    *a = m;
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

#[test]
fn tuples_from_branches_and_destructuring_assignment_match_rust() {
    let pairs: Vec<(f64, f64)> = XS
        .iter()
        .flat_map(|&x| YS.iter().map(move |&y| (x, y)))
        .collect();
    let (xs, ys): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
    let (want0, want1): (Vec<f64>, Vec<f64>) =
        pairs.iter().map(|&(x, y)| branches_f64(x, y)).unzip();
    let xs32: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
    let ys32: Vec<f32> = ys.iter().map(|&v| v as f32).collect();
    let (want32_0, want32_1): (Vec<f32>, Vec<f32>) = xs32
        .iter()
        .zip(&ys32)
        .map(|(&x, &y)| branches_f32(x, y))
        .unzip();
    // the three arms of the `let (x, y)` and both of the `match` are taken
    assert!(xs.iter().any(|x| x.is_nan()));
    assert!(pairs
        .iter()
        .any(|&(x, y)| !x.is_nan() && y > 1.0 && x.min(y) > 0.0));
    assert!(pairs
        .iter()
        .any(|&(x, y)| !x.is_nan() && y <= 1.0 && x.min(y) <= 0.0));
    for dev in common::devices() {
        let (a, b) = branches::launch(&col(&dev, &xs), &col(&dev, &ys)).unwrap();
        let (va, vb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        assert_eq!(bits(&va), bits(&want0), "branches.0 on {dev}: {va:?}");
        assert_eq!(bits(&vb), bits(&want1), "branches.1 on {dev}: {vb:?}");
        let (a, b) = branches::launch(&col(&dev, &xs32), &col(&dev, &ys32)).unwrap();
        let bits32 = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits32(&a.to_vec().unwrap()),
            bits32(&want32_0),
            "f32 .0 on {dev}"
        );
        assert_eq!(
            bits32(&b.to_vec().unwrap()),
            bits32(&want32_1),
            "f32 .1 on {dev}"
        );

        let (a0, b0, c) = (
            [3i32, -4, 10, 0, 1000],
            [5i32, 7, -2, 0, 1],
            [1i32, 9, 100, 0, -5],
        );
        let (mut wa, mut wb) = (a0, b0);
        for ((a, b), &c) in wa.iter_mut().zip(&mut wb).zip(&c) {
            rotate_rs(a, b, c);
        }
        let (mut ta, mut tb) = (col(&dev, &a0), col(&dev, &b0));
        rotate::launch(&mut ta, &mut tb, &col(&dev, &c)).unwrap();
        assert_eq!(ta.to_vec().unwrap(), wa, "rotate.a on {dev}");
        assert_eq!(tb.to_vec().unwrap(), wb, "rotate.b on {dev}");
        // by hand: a = 3 + 5 = 8, b = 3; c = 1 < 8: (m, n) = (8, 1); a = 7, b = 6
        assert_eq!((wa[0], wb[0]), (7, 6));
    }
    // the host's `eval`, lowered as the device's code is
    for &(x, y) in &pairs {
        let (e, w) = (branches::eval(x, y), branches_f64(x, y));
        assert_eq!(
            (e.0.to_bits(), e.1.to_bits()),
            (w.0.to_bits(), w.1.to_bits()),
            "eval({x}, {y})"
        );
    }
    let (mut a, mut b) = (3.5f64, -1.25);
    rotate::eval(&mut a, &mut b, 0.5);
    assert_eq!((a, b), (1.75, 7.0));
}

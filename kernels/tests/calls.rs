//! Kernels of another crate called from a kernel's body: `silt_kernels::gelu`
//! and `silt_kernels::clamp` inlined into this test crate's kernels, one launch
//! giving the same bits as the launches it replaces, on every device.

use silt::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;

/// `gelu(x + bias)`: silt-kernels' `gelu`, called by its crate's path.
#[kernel(types = [f16, f32, f64])]
pub fn bias_gelu<T>(x: T, bias: T) -> T {
    silt_kernels::gelu(x + bias)
}

/// Two library kernels and a `#[scalar]` passed as a plain value.
#[kernel(types = [f32, f64])]
pub fn clamped_relu<T>(x: T, #[scalar] hi: T) -> T {
    silt_kernels::clamp(silt_kernels::relu(x), 0.0, hi)
}

#[test]
fn another_crates_kernels_inline_with_the_same_bits() {
    let xs: Vec<f32> = (0..1000).map(|i| (i as f32 - 500.0) / 37.0).collect();
    let bs: Vec<f32> = (0..1000)
        .map(|i| ((i * 7) % 13) as f32 / 5.0 - 1.3)
        .collect();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [1000]).unwrap();
        let b = TensorT::from_slice(&dev, &bs, [1000]).unwrap();
        let fused = bias_gelu::launch(&x, &b).unwrap().to_vec().unwrap();
        let unfused = silt_kernels::gelu::launch(&silt_kernels::add::launch(&x, &b).unwrap())
            .unwrap()
            .to_vec()
            .unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fused), bits(&unfused), "on {dev}");

        let c = clamped_relu::launch(&x, 2.5).unwrap().to_vec().unwrap();
        let want: Vec<f32> = xs.iter().map(|&v| v.clamp(0.0, 2.5)).collect();
        assert_eq!(c, want, "on {dev}");
    }
    // the library's body is compiled into this crate's program
    let src = bias_gelu::source(DType::F32).unwrap();
    assert!(src.contains("erf"), "{src}");
}

/// silt-kernels' `pub` helper `swish`, whose body calls the library's private
/// helper `sigmoid_of`, at slope 1; beside it the library kernel `silu`, which
/// brings the same private helper by another path.
#[kernel(types = [f32, f64])]
pub fn swish_one<T>(x: T) -> T {
    silt_kernels::swish(x, 1.0)
}

/// `swish` at a slope given per launch.
#[kernel(types = [f32, f64])]
pub fn swish_beta<T>(x: T, #[scalar] beta: T) -> T {
    silt_kernels::swish(x, beta)
}

/// The pub helper and the kernel that share a private helper, in one body.
#[kernel(types = [f32])]
pub fn swish_minus_silu<T>(x: T) -> T {
    silt_kernels::swish(x, 1.0) - silt_kernels::silu(x)
}

/// Inputs with the edges of `silu`: signed zeros, infinities, values where
/// `e^x` underflows, and a sweep.
fn swish_inputs() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -200.0,
        -800.0,
        1e-300,
    ];
    v.extend((0..400).map(|i| (f64::from(i) - 200.0) / 7.0));
    v
}

#[test]
fn a_pub_helper_that_calls_a_private_helper_inlines_from_another_crate() {
    let xs64 = swish_inputs();
    #[allow(clippy::cast_possible_truncation)]
    let xs32: Vec<f32> = xs64.iter().map(|&v| v as f32).collect();
    let n = xs64.len();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs32, [n]).unwrap();
        let got = swish_one::launch(&x).unwrap().to_vec().unwrap();
        let silu = silt_kernels::silu::launch(&x).unwrap().to_vec().unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&silu), "f32 on {dev}");
        // `eval` (the host's form) against the library's own `eval`
        let evals: Vec<f32> = xs32.iter().map(|&v| swish_one::eval(v)).collect();
        let silu_evals: Vec<f32> = xs32.iter().map(|&v| silt_kernels::silu::eval(v)).collect();
        assert_eq!(bits(&evals), bits(&silu_evals), "f32 eval");
        let zero = swish_minus_silu::launch(&x).unwrap().to_vec().unwrap();
        // (`∞ - ∞` is NaN)
        let ok = zero
            .iter()
            .zip(&xs32)
            .all(|(&z, x)| z == 0.0 || x.is_infinite());
        assert!(ok, "{zero:?} on {dev}");
        // slope 2 against `eval`, within `exp`'s error
        let b2 = swish_beta::launch(&x, 2.0).unwrap().to_vec().unwrap();
        for (&g, &v) in b2.iter().zip(&xs32) {
            let want = swish_beta::eval(v, 2.0);
            let close = g.to_bits() == want.to_bits()
                || (g - want).abs() <= 4.0 * f32::EPSILON * want.abs();
            assert!(close, "swish({v}, 2) = {g} on {dev}, {want} by eval");
        }
        if dev.info().fp64 {
            let x = TensorT::from_slice(&dev, &xs64, [n]).unwrap();
            let got = swish_one::launch(&x).unwrap().to_vec().unwrap();
            let silu = silt_kernels::silu::launch(&x).unwrap().to_vec().unwrap();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&silu), "f64 on {dev}");
        }
    }
}

/// silt-kernels' `two_sum`, destructured in a kernel of another crate.
#[kernel(types = [f32, f64])]
pub fn sum_and_error<T>(a: T, b: T) -> (T, T) {
    let (s, e) = silt_kernels::two_sum(a, b);
    (s, e)
}

/// silt-kernels' `two_prod`, one result dropped and one kept.
#[kernel(types = [f32, f64])]
pub fn product_error<T>(a: T, b: T) -> T {
    let (_, e) = silt_kernels::two_prod(a, b);
    e
}

/// A compensated sum whose `combine` calls silt-kernels' `two_sum`: the
/// accumulator is a sum and the rounding errors gathered so far.
#[reduce(types = [f32, f64])]
pub mod compensated_sum {
    pub fn identity<T>() -> (T, T) {
        (0.0, 0.0)
    }
    pub fn map<T>(x: T) -> (T, T) {
        (x, 0.0)
    }
    pub fn combine<T>(a: (T, T), b: (T, T)) -> (T, T) {
        let (s, e) = silt_kernels::two_sum(a.0, b.0);
        (s, e + (a.1 + b.1))
    }
    pub fn finish<T>(acc: (T, T), count: u64) -> T {
        acc.0 + acc.1
    }
}

/// The same with `two_sum`'s body written inline.
#[reduce(types = [f32, f64])]
pub mod compensated_sum_inline {
    pub fn identity<T>() -> (T, T) {
        (0.0, 0.0)
    }
    pub fn map<T>(x: T) -> (T, T) {
        (x, 0.0)
    }
    pub fn combine<T>(a: (T, T), b: (T, T)) -> (T, T) {
        let s = a.0 + b.0;
        let bb = s - a.0;
        let e = (a.0 - (s - bb)) + (b.0 - bb);
        (s, e + (a.1 + b.1))
    }
    pub fn finish<T>(acc: (T, T), count: u64) -> T {
        acc.0 + acc.1
    }
}

/// A reduction whose `map` calls silt-kernels' `pub` helper `swish` (which
/// calls a private helper of the library).
#[reduce(types = [f32, f64])]
pub mod swish_sum {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        silt_kernels::swish(x, 1.0)
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

/// The same with `swish`'s body (and its helper's) written inline.
#[reduce(types = [f32, f64])]
pub mod swish_sum_inline {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        let bx = 1.0 * x;
        let s = if bx >= 0.0 {
            1.0 / (1.0 + (-bx).exp())
        } else {
            let e = bx.exp();
            e / (1.0 + e)
        };
        if s == 0.0 {
            if x < 0.0 {
                -0.0
            } else {
                0.0
            }
        } else {
            x * s
        }
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[test]
fn another_crates_tuple_helper_and_helpers_in_reductions() {
    let xs: Vec<f32> = (0..5000u16)
        .map(|i| (f32::from(i) * 0.37).sin() * 10f32.powi(i32::from(i % 9) - 4))
        .collect();
    let ys: Vec<f32> = xs.iter().rev().map(|v| v * 3.1).collect();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [50, 100]).unwrap();
        let y = TensorT::from_slice(&dev, &ys, [50, 100]).unwrap();
        // the sum and its error are exact: s + e is a + b to the last bit
        let (s, e) = sum_and_error::launch(&x, &y).unwrap();
        let (s, e) = (s.to_vec().unwrap(), e.to_vec().unwrap());
        for i in 0..xs.len() {
            let exact = f64::from(xs[i]) + f64::from(ys[i]);
            assert_eq!(f64::from(s[i]) + f64::from(e[i]), exact, "{i} on {dev}");
            let (hs, he) = sum_and_error::eval(xs[i], ys[i]);
            assert_eq!(
                (hs.to_bits(), he.to_bits()),
                (s[i].to_bits(), e[i].to_bits())
            );
        }
        // so are the product and its error
        let pe = product_error::launch(&x, &y).unwrap().to_vec().unwrap();
        for i in 0..xs.len() {
            let exact = f64::from(xs[i]) * f64::from(ys[i]);
            let p = f64::from(xs[i] * ys[i]);
            if exact.abs() > 1e-30 {
                assert_eq!(p + f64::from(pe[i]), exact, "{i} on {dev}");
            }
        }
        for axes in [Axes::all(), Axes::of([1]), Axes::of([0])] {
            let a = compensated_sum::launch(&x, axes).unwrap().to_vec().unwrap();
            let b = compensated_sum_inline::launch(&x, axes)
                .unwrap()
                .to_vec()
                .unwrap();
            assert_eq!(bits(&a), bits(&b), "compensated_sum on {dev}");
            let a = swish_sum::launch(&x, axes).unwrap().to_vec().unwrap();
            let b = swish_sum_inline::launch(&x, axes)
                .unwrap()
                .to_vec()
                .unwrap();
            assert_eq!(bits(&a), bits(&b), "swish_sum on {dev}");
        }
    }
}

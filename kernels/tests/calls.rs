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

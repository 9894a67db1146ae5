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

//! A crate downstream of silt: it defines its own kernels (`ops`), with a helper,
//! and runs them together with `silt-kernels` operations on the same tensors. The
//! results are checked against the kernels' `eval` (the bodies as plain Rust), on
//! the default device and on the host backend.
//!
//! Run with `cargo run -p silt-downstream-example`.

use silt::prelude::*;
use silt_downstream_example::ops;
use silt_kernels as k;

/// Rows and columns of the tensors.
const ROWS: usize = 256;
const COLS: usize = 512;
/// The bound `softclip` keeps values under.
const LIMIT: f32 = 2.0;

/// Deterministic values in `[-scale, scale)` (a linear congruential generator).
fn values(n: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
            scale * (2.0 * unit - 1.0)
        })
        .collect()
}

/// What [`pipeline`] computes on a device.
struct Outputs {
    /// `x + softclip(bias_gelu(x * w, bias), LIMIT)`.
    y: Vec<f32>,
    /// `bias_gelu(x * w, bias)`, this crate's fused kernel.
    fused: Vec<f32>,
    /// `gelu(add(x * w, bias))`, from silt-kernels alone.
    unfused: Vec<f32>,
}

/// `x + softclip(bias_gelu(x * w, bias), LIMIT)` on `dev`: silt-kernels' `mul`,
/// this crate's two kernels, then silt-kernels' in-place `add_`; and the fused
/// `bias_gelu` beside silt-kernels' `add` then `gelu`.
fn pipeline(dev: &Device, x: &[f32], w: &[f32], bias: &[f32]) -> Result<Outputs> {
    let x = TensorT::from_slice(dev, x, [ROWS, COLS])?;
    let w = TensorT::from_slice(dev, w, [ROWS, COLS])?;
    let bias = TensorT::from_slice(dev, bias, [COLS])?; // broadcast over the rows

    let h = k::mul::launch(&x, &w)?; // silt-kernels
    let a = ops::bias_gelu::launch(&h, &bias)?; // ours, with our helper
    let mut y = ops::softclip::launch(&a, LIMIT)?; // ours
    k::add_::launch(&mut y, &x)?; // silt-kernels, in place

    let unfused = k::gelu::launch(&k::add::launch(&h, &bias)?)?;
    // silt-kernels' gelu called from our kernel: one launch, the same bits
    let lib = ops::bias_gelu_lib::launch(&h, &bias)?;
    let bits = |t: &TensorT<f32>| -> Result<Vec<u32>> {
        Ok(t.to_vec()?.iter().map(|v| v.to_bits()).collect())
    };
    assert!(
        bits(&lib)? == bits(&unfused)?,
        "bias_gelu_lib differs from add then gelu on {dev}"
    );
    Ok(Outputs {
        y: y.to_vec()?,
        fused: a.to_vec()?,
        unfused: unfused.to_vec()?,
    })
}

/// The same pipeline, one element at a time, through every kernel's `eval`.
fn reference(x: f32, w: f32, bias: f32) -> f32 {
    let h = k::mul::eval(x, w);
    let a = ops::bias_gelu::eval(h, bias);
    let mut y = ops::softclip::eval(a, LIMIT);
    k::add_::eval(&mut y, x);
    y
}

/// The largest `|a - b| / (1 + |b|)` over two slices.
fn max_rel_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b).abs() / (1.0 + b.abs()))
        .fold(0.0, f32::max)
}

fn main() -> Result<()> {
    let x = values(ROWS * COLS, 1, 2.0);
    let w = values(ROWS * COLS, 2, 2.0);
    let bias = values(COLS, 3, 0.5);
    let want: Vec<f32> = (0..ROWS * COLS)
        .map(|i| reference(x[i], w[i], bias[i % COLS]))
        .collect();

    let host = Device::host();
    let dev = Device::default()?;
    println!("{ROWS}x{COLS} f32: x + softclip(bias_gelu(x * w, bias), {LIMIT})");
    for d in [&dev, &host] {
        let Outputs { y, fused, unfused } = pipeline(d, &x, &w, &bias)?;
        let vs_eval = max_rel_diff(&y, &want);
        let vs_unfused = max_rel_diff(&fused, &unfused);
        println!("  on {d}:");
        println!("    y[..4] = {:?}", &y[..4]);
        println!("    largest relative difference from eval: {vs_eval:.1e}");
        println!("    fused bias_gelu against silt-kernels' add + gelu: {vs_unfused:.1e}");
        if d.is_host() {
            // the host backend runs the kernels' eval: the same bits
            assert!(y == want, "the host backend differs from eval");
        } else {
            // erf and tanh on a device are within OpenCL's ULP bounds of the host
            assert!(vs_eval < 1e-5, "{d} differs from eval by {vs_eval}");
        }
        assert!(
            vs_unfused < 1e-5,
            "fused and unfused gelu differ by {vs_unfused}"
        );
        assert!(y.iter().zip(&x).all(|(y, x)| (y - x).abs() < LIMIT));
    }

    let source = ops::bias_gelu::source(DType::F32).unwrap_or_default();
    println!(
        "bias_gelu's OpenCL C for f32: {} lines, with the helper: {}",
        source.lines().count(),
        source.contains("normal_cdf")
    );
    Ok(())
}

//! Reductions and scans: a reduction of your own (`#[reduce]`), the library's
//! `sum`, `argmax`, `softmax` and `cumsum`, the same bits on the host and the
//! device, and the accuracy the fixed order gives a long float sum.
//!
//! `cargo run -p silt-kernels --example reductions`

use silt::prelude::*;
use silt_kernels as k;

/// The dot product of two tensors over the reduced axes.
#[reduce(types = [f32, f64])]
pub mod dot {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T, y: T) -> T {
        x * y
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

fn main() -> silt::Result<()> {
    let mut devices = vec![Device::host()];
    devices.extend(Device::opencl(0));
    let mut results = Vec::new();
    for dev in &devices {
        let x = TensorT::from_slice(dev, &[3.0f32, -1.0, 4.0, 1.0, -5.0, 9.0], [2, 3])?;
        let w = TensorT::from_slice(dev, &[0.5f32, 0.25, 2.0], [3])?;
        let rows = dot::launch(&x, &w, Axes::of([-1]))?; // [2]: w broadcast to each row
        let total = k::sum::launch(&x, Axes::all())?; // shape []
        let best = k::argmax::launch(&x, Axes::of([1]))?; // i64 indices
        let probs = k::softmax::launch(&x, -1)?;
        let running = k::cumsum::launch(&x, 1)?;
        println!("{dev}:");
        println!("  dot over the last axis: {:?}", rows.to_vec()?);
        println!(
            "  sum: {:?}, argmax of each row: {:?}",
            total.to_vec()?,
            best.to_vec()?
        );
        println!("  softmax of row 0: {:?}", &probs.to_vec()?[..3]);
        println!("  cumsum along axis 1: {:?}", running.to_vec()?);
        results.push((
            rows.to_vec()?,
            total.to_vec()?,
            best.to_vec()?,
            running.to_vec()?,
        ));
    }
    if results.windows(2).any(|w| w[0] != w[1]) {
        eprintln!("the device and the host disagree");
        std::process::exit(1);
    }

    // a long sum: silt's order against a plain loop
    let n = 1usize << 24;
    let exact = f64::from(0.1f32) * n as f64;
    let naive = (0..n).fold(0.0f32, |a, _| a + 0.1);
    for dev in &devices {
        let x = TensorT::full(dev, 0.1f32, [n])?;
        let s = k::sum::launch(&x, Axes::all())?.to_vec()?[0];
        println!(
            "sum of 2^24 x 0.1f32 on {dev}: {s} (relative error {:.1e})",
            ((f64::from(s) - exact) / exact).abs()
        );
    }
    println!(
        "the same sum in a plain loop: {naive} (relative error {:.1e}); exact: {exact}",
        ((f64::from(naive) - exact) / exact).abs()
    );
    Ok(())
}

//! Copies of views on the host backend: `contiguous()` of a broadcast, a
//! transpose, a column block and a plain tensor, best of 5 (milliseconds and
//! the copy's bytes written per second).
//!
//! `cargo run --release -p silt-runtime --example host_copies`

use std::time::Instant;

use silt_runtime::{DType, Device, Result, Tensor};

fn best(mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?;
    let mut b = f64::MAX;
    for _ in 0..5 {
        let s = Instant::now();
        f()?;
        b = b.min(s.elapsed().as_secs_f64());
    }
    Ok(b)
}

fn main() -> Result<()> {
    let dev = Device::host();
    let n = 1usize << 22;
    let cases: Vec<(&str, Tensor)> = vec![
        (
            "a 0-d i64 broadcast to 2^22",
            Tensor::zeros(&dev, DType::I64, [1])?
                .reshape([] as [usize; 0])?
                .broadcast_to([n])?,
        ),
        (
            "a row broadcast to 2048 x 2048 f32",
            Tensor::zeros(&dev, DType::F32, [1, 2048])?.broadcast_to([2048, 2048])?,
        ),
        (
            "a transposed 2048 x 2048 i64",
            Tensor::zeros(&dev, DType::I64, [2048, 2048])?.transpose(0, 1)?,
        ),
        (
            "a transposed 2048 x 2048 u8",
            Tensor::zeros(&dev, DType::U8, [2048, 2048])?.transpose(0, 1)?,
        ),
        (
            "columns 0..2048 of 4096 x 4096 f32",
            Tensor::zeros(&dev, DType::F32, [4096, 4096])?.narrow(1, 0, 2048)?,
        ),
        (
            "every other element of 2^23 f32",
            Tensor::zeros(&dev, DType::F32, [2 * n])?.slice(0, 0, n, 2)?,
        ),
        (
            "a row-major 2^22 i64 (deep_copy)",
            Tensor::zeros(&dev, DType::I64, [n])?,
        ),
    ];
    println!("| view | ms | GB/s written |");
    println!("|---|---|---|");
    for (name, t) in &cases {
        let secs = best(|| t.deep_copy().map(drop))?;
        let bytes = (t.len() * t.dtype().size()) as f64;
        println!("| {name} | {:.2} | {:.1} |", secs * 1e3, bytes / secs / 1e9);
    }
    Ok(())
}

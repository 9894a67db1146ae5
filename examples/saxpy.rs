//! `y = a * x + y` on 2^20 to 2^24 `f32`s, on the first OpenCL device and on the
//! host backend: the time per launch and the bandwidth it reaches (reading `x` and
//! `y`, writing `y`: 12 bytes per element), and the two backends' results checked
//! to be the same, bit for bit (silt never contracts `a * x + y` into an FMA).
//!
//! Run with `cargo run --release --example saxpy [MAX_LOG2]` (default 24; sizes
//! 2^20, 2^22, ... up to 2^MAX_LOG2, or just 2^MAX_LOG2 below 20).

use silt::prelude::*;
use std::time::Instant;

/// `y = a * x + y`, in place.
#[kernel]
pub fn saxpy(#[scalar] a: f32, x: f32, y: &mut f32) {
    *y = a * x + *y;
}

/// Elements processed per size and backend (launches = this / size, at least 3).
const WORK: usize = 1 << 27;

/// Runs `launches` saxpys of `n` elements on `dev` after one warm-up launch;
/// returns the seconds per launch and the final `y`.
fn run(dev: &Device, n: usize, launches: usize, a: f32) -> silt::Result<(f64, Vec<f32>)> {
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 1e-3).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let x = TensorT::from_slice(dev, &x, [n])?;
    let mut y = TensorT::from_slice(dev, &y, [n])?;
    saxpy::launch(a, &x, &mut y)?; // warm-up: builds or loads the program
    dev.synchronize()?;
    let started = Instant::now();
    for _ in 0..launches {
        saxpy::launch(a, &x, &mut y)?;
    }
    dev.synchronize()?;
    let secs = started.elapsed().as_secs_f64() / launches as f64;
    Ok((secs, y.to_vec()?))
}

fn main() -> silt::Result<()> {
    let max_log2: u32 = match std::env::args().nth(1) {
        Some(arg) => match arg.parse() {
            Ok(v) if (1..=28).contains(&v) => v,
            _ => {
                eprintln!("usage: saxpy [MAX_LOG2]  (1 to 28, got `{arg}`)");
                std::process::exit(2)
            }
        },
        None => 24,
    };
    let sizes: Vec<u32> = if max_log2 < 20 {
        vec![max_log2]
    } else {
        (20..=max_log2).step_by(2).collect()
    };

    let mut devices = Vec::new();
    if Device::opencl_count() > 0 {
        devices.push(Device::opencl(0)?);
    } else {
        println!("no OpenCL device: timing the host backend alone");
    }
    devices.push(Device::host());
    if cfg!(debug_assertions) {
        println!("(a debug build: the host backend runs unoptimised; use --release to time it)");
    }

    let a = 0.5f32;
    println!(
        "{:>10}  {:<48} {:>8} {:>11} {:>9}",
        "elements", "device", "launches", "ms/launch", "GB/s"
    );
    for log2 in sizes {
        let n = 1usize << log2;
        let launches = (WORK / n).max(3);
        let mut results: Vec<(String, Vec<f32>)> = Vec::new();
        for dev in &devices {
            let (secs, y) = run(dev, n, launches, a)?;
            let gbps = 12.0 * n as f64 / secs / 1e9;
            println!(
                "{:>10}  {:<48} {launches:>8} {:>11.3} {gbps:>9.1}",
                format!("2^{log2}"),
                dev.to_string(),
                secs * 1e3
            );
            results.push((dev.to_string(), y));
        }
        // every backend ran the same launches on the same data
        let (first_name, first) = &results[0];
        for (name, y) in &results[1..] {
            if let Some(i) = (0..n).find(|&i| y[i].to_bits() != first[i].to_bits()) {
                panic!(
                    "2^{log2}: element {i} is {} on {name}, {} on {first_name}",
                    y[i], first[i]
                );
            }
        }
        // and the kernel's body, run as plain Rust, gives the same elements
        for i in [0, 1, n / 3, n - 1] {
            let mut y = (i % 7) as f32;
            for _ in 0..=launches {
                saxpy::eval(a, (i % 1000) as f32 * 1e-3, &mut y);
            }
            assert_eq!(
                y.to_bits(),
                first[i].to_bits(),
                "element {i}: eval gives {y}"
            );
        }
    }
    println!("results identical on every backend and equal to eval");
    Ok(())
}

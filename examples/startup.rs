//! Start-up costs in a fresh process: device creation, then the first launch of a
//! kernel (program build or load, launch, read back), then a second launch.
//!
//! Run it twice to see the on-disk program cache at work:
//! `SILT_CACHE_DIR=/tmp/silt-demo cargo run --release --example startup` (the first
//! run builds from source and saves the binary, the second loads it).

use std::time::Instant;

use silt::prelude::*;

/// `a * x + b`.
#[kernel(types = [f32])]
pub fn startup_affine<T>(x: T, #[scalar] a: T, #[scalar] b: T) -> T {
    a * x + b
}

fn main() -> silt::Result<()> {
    let t0 = Instant::now();
    let dev = Device::opencl(0)?;
    let t_device = t0.elapsed();
    let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3])?;

    let t1 = Instant::now();
    let y = startup_affine::launch(&x, 2.0, 1.0)?;
    let first = y.to_vec()?;
    let t_first = t1.elapsed();

    let t2 = Instant::now();
    let z = startup_affine::launch(&x, 3.0, 0.0)?;
    let second = z.to_vec()?;
    let t_second = t2.elapsed();

    assert_eq!(first, [3.0, 5.0, 7.0]);
    assert_eq!(second, [3.0, 6.0, 9.0]);
    let s = silt::program_cache::stats();
    let how = if s.disk_hits > 0 {
        "loaded from the disk cache"
    } else {
        "built from source"
    };
    println!("device: {dev}");
    println!(
        "device + context + queue: {:8.2} ms",
        t_device.as_secs_f64() * 1e3
    );
    println!(
        "first launch ({how}): {:8.2} ms",
        t_first.as_secs_f64() * 1e3
    );
    println!("second launch: {:8.2} ms", t_second.as_secs_f64() * 1e3);
    println!("program cache: {s:?}");
    Ok(())
}

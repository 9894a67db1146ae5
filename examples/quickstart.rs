//! silt's first tour: the devices present, a tensor moved to the default device and
//! back, a strided view, and what the caching pool holds.
//!
//! Run with `cargo run --example quickstart` (`SILT_DEVICE=host` forces the host).

use silt::prelude::*;

fn main() -> silt::Result<()> {
    println!("devices:");
    for dev in Device::all()? {
        let info = dev.info();
        let max_alloc = if dev.is_host() {
            "-".to_string()
        } else {
            format!("{} MiB", info.max_alloc_bytes >> 20)
        };
        println!(
            "  {dev:<40} {:?}, {} compute units, max alloc {max_alloc}, fp64 {}, fp16 {}",
            info.kind, info.compute_units, info.fp64, info.fp16,
        );
    }

    let dev = Device::default()?;
    println!("default device: {dev}");

    let host = Device::host();
    let data: Vec<f32> = (0..12).map(|i| i as f32 * 0.5).collect();
    let x = TensorT::from_slice(&host, &data, [3, 4])?.to(&dev)?;
    let xt = x.transpose(0, 1)?; // a view on the device: no copy
    println!("x   {:?} = {:?}", x.shape(), x.to_vec()?);
    println!("x^T {:?} = {:?}", xt.shape(), xt.to_vec()?);

    let y = TensorT::<f32>::zeros(&dev, [3, 4])?;
    y.narrow(1, 1, 2)?.copy_from(&x.narrow(1, 1, 2)?)?; // writes through a view
    println!("y   {:?} = {:?}", y.shape(), y.to_vec()?);

    let stats = dev.memory_stats();
    println!(
        "pool: {} B allocated, {} B reserved, peak {} B, {} hits, {} misses",
        stats.allocated_bytes, stats.reserved_bytes, stats.peak_bytes, stats.hits, stats.misses
    );
    drop((x, xt, y));
    dev.empty_cache();
    println!(
        "after empty_cache: {} B reserved",
        dev.memory_stats().reserved_bytes
    );
    Ok(())
}

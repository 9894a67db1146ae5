//! silt's first tour: the devices present, kernels written as Rust functions and
//! run on the default device, the OpenCL C they become, and the memory pool.
//!
//! Run with `cargo run --example quickstart` (`SILT_DEVICE=host` forces the host).

use silt::prelude::*;

/// `y = alpha * x + y`, in place.
#[kernel(types = [f32, f64])]
pub fn axpy<T>(#[scalar] alpha: T, x: T, y: &mut T) {
    *y = alpha * x + *y;
}

/// Elementwise sum, for floats and integers.
#[kernel(types = [f32, f64, i32])]
pub fn add<T>(a: T, b: T) -> T {
    a + b
}

/// Escape-time iterations of the Mandelbrot map at `c = cr + i ci`.
#[kernel(types = [f32])]
pub fn mandel<T>(cr: T, ci: T, #[scalar] max_iter: u32) -> u32 {
    let mut zr = 0.0;
    let mut zi = 0.0;
    let mut i = 0;
    while i < max_iter && zr * zr + zi * zi <= 4.0 {
        let t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        i += 1;
    }
    i
}

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
    println!("default device: {dev}\n");

    // typed launches: T is inferred from the tensors
    let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3])?;
    let mut y = TensorT::<f32>::zeros(&dev, [3])?;
    axpy::launch(2.0, &x, &mut y)?;
    let z = add::launch(&x, &y)?;
    println!("axpy: y = 2 x + 0 = {:?}", y.to_vec()?);
    println!("add:  x + y       = {:?}", z.to_vec()?);

    // untyped tensors: the dtype picks the instantiation at run time
    let t: Tensor = TensorT::from_slice(&dev, &[1, 2, 3], [3])?.into();
    println!(
        "add::dispatch on {}: {:?}",
        t.dtype(),
        add::dispatch(&t, &t)?.to_vec::<i32>()?
    );
    let u8s = Tensor::zeros(&dev, DType::U8, [3])?;
    println!(
        "add::dispatch on u8: {}",
        add::dispatch(&u8s, &u8s).unwrap_err()
    );

    // views are read in place
    let m = TensorT::from_slice(&dev, &(0..6).map(|v| v as f32).collect::<Vec<_>>(), [2, 3])?;
    let mt = m.transpose(0, 1)?;
    println!("add(m^T, m^T) = {:?}", add::launch(&mt, &mt)?.to_vec()?);

    // a small Mandelbrot set in ASCII
    let (w, h) = (60usize, 20usize);
    let cr: Vec<f32> = (0..w * h)
        .map(|i| -2.2 + 3.0 * (i % w) as f32 / w as f32)
        .collect();
    let ci: Vec<f32> = (0..w * h)
        .map(|i| -1.2 + 2.4 * (i / w) as f32 / h as f32)
        .collect();
    let counts = mandel::launch(
        &TensorT::from_slice(&dev, &cr, [h, w])?,
        &TensorT::from_slice(&dev, &ci, [h, w])?,
        50,
    )?;
    for row in counts.to_vec()?.chunks(w) {
        let line: String = row
            .iter()
            .map(|&c| {
                if c >= 50 {
                    '#'
                } else if c > 8 {
                    '+'
                } else {
                    '.'
                }
            })
            .collect();
        println!("  {line}");
    }

    println!(
        "\nthe OpenCL C of axpy for f32:\n{}",
        axpy::source(DType::F32).unwrap_or_default()
    );

    let stats = dev.memory_stats();
    println!(
        "pool: {} B allocated, {} B reserved, peak {} B, {} hits, {} misses; {} programs built",
        stats.allocated_bytes,
        stats.reserved_bytes,
        stats.peak_bytes,
        stats.hits,
        stats.misses,
        dev.programs_built()
    );
    Ok(())
}

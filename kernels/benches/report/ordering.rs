//! The sort table of the bench report: `sort` of f32 rows on the OpenCL
//! device and on the host, side by side with `numpy.sort` in the same run
//! (through `kernels/examples/sort_numpy.py`, with `$PYTHON`, else
//! `target/py-venv/bin/python` when `scripts/test-python` has made it): one
//! long row of 2^N, rows of 1,024 and rows of 16, the median of REPS runs
//! each (values and indices, results read back).
//!
//! ```text
//! cargo run --release -p silt-kernels --example bench_report -- --sort [LOG2_N [REPS]]
//! ```

use std::process::Command;
use std::time::Instant;

use silt::prelude::*;
use silt_kernels as k;

fn uniform(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// The median time of `reps` sorts of `x` along its last dimension, in
/// seconds (the first run, which builds the programs, not counted).
fn time(x: &TensorT<f32>, reps: usize) -> silt::Result<f64> {
    let run = || -> silt::Result<f64> {
        let t = Instant::now();
        let (v, i) = k::sort::launch(x, -1, false)?;
        // wait for the device: read one element of each
        v.narrow(x.ndim() - 1, 0, 1)?.to_vec()?;
        i.narrow(x.ndim() - 1, 0, 1)?.to_vec()?;
        Ok(t.elapsed().as_secs_f64())
    };
    run()?;
    let mut times = (0..reps).map(|_| run()).collect::<silt::Result<Vec<_>>>()?;
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Prints the table: `sort` of 2^`log2` f32 as one row, rows of 1,024 and
/// rows of 16 on the OpenCL device and the host, then `numpy.sort`'s times
/// for the same rows, the median of `reps` runs each.
pub fn print(log2: u32, reps: usize) -> silt::Result<()> {
    let n = 1usize << log2;
    let shapes = [vec![n], vec![n >> 10, 1024], vec![n >> 4, 16]];
    let mut devices = vec![("host", Device::host())];
    if let Ok(d) = Device::opencl(0) {
        devices.insert(0, ("opencl:0", d));
    }
    println!("## sort, 2^{log2} f32 (values and indices, read back), median of {reps}\n");
    println!("| what | shape | time | elements/s |\n|---|---|---|---|");
    for shape in &shapes {
        let x = uniform(n, 1);
        for (name, dev) in &devices {
            let t = TensorT::from_slice(dev, &x, shape)?;
            let s = time(&t, reps)?;
            println!(
                "| silt sort on {name} | {shape:?} | {:.1} ms | {:.1} M/s |",
                s * 1e3,
                n as f64 / s / 1e6
            );
        }
    }
    // topk of the long row: blocks cut to k, then merges cut to k
    let x = uniform(n, 1);
    for (name, dev) in &devices {
        let t = TensorT::from_slice(dev, &x, [n])?;
        let run = || -> silt::Result<f64> {
            let s = Instant::now();
            let (v, i) = k::topk::launch(&t, 16, -1, true, true)?;
            v.to_vec()?;
            i.to_vec()?;
            Ok(s.elapsed().as_secs_f64())
        };
        run()?;
        let mut times = (0..reps).map(|_| run()).collect::<silt::Result<Vec<_>>>()?;
        times.sort_by(f64::total_cmp);
        let s = times[times.len() / 2];
        println!(
            "| silt topk, k = 16, on {name} | [{n}] | {:.1} ms | {:.1} M/s |",
            s * 1e3,
            n as f64 / s / 1e6
        );
    }
    let python = std::env::var("PYTHON").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../target/py-venv/bin/python").to_string()
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sort_numpy.py");
    match Command::new(&python)
        .args([script, &log2.to_string(), &reps.max(3).to_string()])
        .output()
    {
        Ok(out) if out.status.success() => print!("{}", String::from_utf8_lossy(&out.stdout)),
        _ => println!("(numpy.sort not timed: no NumPy at {python}; set PYTHON)"),
    }
    println!();
    Ok(())
}

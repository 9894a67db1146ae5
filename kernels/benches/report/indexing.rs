//! The indexing table of the bench report: `index_select`, `gather`,
//! `take`, `scatter_add`, `scatter_reduce`, `bincount` (with and without weights), `histc` and
//! `searchsorted` of f32 on the OpenCL device and on the host,
//! each beside a copy of as many elements on the same device (a read and a
//! write of each, the bandwidth an indexing operation with cached indices
//! could reach), the median of REPS runs each, results read back.
//!
//! ```text
//! cargo run --release -p silt-kernels --example bench_report -- --indexing [REPS]
//! ```

use std::time::Instant;

use silt::prelude::*;
use silt_kernels as k;

/// `n` pseudo-random numbers below `bound`.
fn positions(n: usize, bound: usize, seed: u64) -> Vec<i64> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 11) % bound as u64) as i64
        })
        .collect()
}

/// The median of `reps` runs of `f` (after one that builds the programs),
/// in seconds; `f` reads one element of its result back.
fn median(reps: usize, mut f: impl FnMut() -> silt::Result<()>) -> silt::Result<f64> {
    f()?;
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        f()?;
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Waits for `t`'s device by reading its first element.
fn first<T: Element>(t: &TensorT<T>) -> silt::Result<()> {
    t.reshape([t.len()])?.narrow(0, 0, 1)?.to_vec()?;
    Ok(())
}

/// An operation of the table, giving its result.
type Op<'a> = &'a dyn Fn() -> silt::Result<TensorT<f32>>;

/// Prints the table for `[4096, 1024]` f32 on the first OpenCL device and
/// on the host.
pub fn print(reps: usize) -> silt::Result<()> {
    table(&Device::opencl(0)?, reps)?;
    table(&Device::host(), reps)
}

/// The table on `dev`.
fn table(dev: &Device, reps: usize) -> silt::Result<()> {
    let (rows, cols) = (4096usize, 1024usize);
    let n = rows * cols;
    let data: Vec<f32> = (0..n).map(|i| (i % 977) as f32).collect();
    let x = TensorT::from_slice(dev, &data, [rows, cols])?;
    let mut y = TensorT::<f32>::zeros(dev, [rows, cols])?;
    let row_idx = TensorT::from_slice(dev, &positions(rows, rows, 1), [rows])?;
    let col_idx = TensorT::from_slice(dev, &positions(cols, cols, 2), [cols])?;
    let g0 = TensorT::from_slice(dev, &positions(n, rows, 3), [rows, cols])?;
    let g1 = TensorT::from_slice(dev, &positions(n, cols, 4), [rows, cols])?;
    let flat = TensorT::from_slice(dev, &positions(n, n, 5), [n])?;
    let line = x.reshape([n])?;
    let bins = TensorT::from_slice(dev, &positions(n, 4096, 6), [n])?;
    println!("## indexing, [{rows}, {cols}] f32 on {dev}, median of {reps}\n");
    println!("| operation | time | of a copy |\n|---|---|---|");
    let copy = median(reps, || {
        y.copy_from(&x)?;
        first(&y)
    })?;
    let (amax, mean) = (
        k::scatter_reduce::Reduce::Amax,
        k::scatter_reduce::Reduce::Mean,
    );
    let cases: [(&str, Op<'_>); 13] = [
        ("`index_select`, dim 0 (rows)", &|| {
            k::index_select::launch(&x, 0, &row_idx)
        }),
        ("`index_select`, dim 1 (columns)", &|| {
            k::index_select::launch(&x, 1, &col_idx)
        }),
        ("`gather`, dim 0", &|| k::gather::launch(&x, 0, &g0)),
        ("`gather`, dim 1", &|| k::gather::launch(&x, 1, &g1)),
        ("`take`, random positions", &|| k::take::launch(&x, &flat)),
        ("`scatter_add`, dim 0 (1,024 lines)", &|| {
            k::scatter_add::launch(&x, 0, &g0, &x)
        }),
        ("`scatter_add`, dim 1 (4,096 lines)", &|| {
            k::scatter_add::launch(&x, 1, &g1, &x)
        }),
        ("`scatter_add`, 1-d (one line)", &|| {
            k::scatter_add::launch(&line, 0, &flat, &line)
        }),
        ("`scatter_reduce`, amax, dim 1 (4,096 lines)", &|| {
            k::scatter_reduce::launch(&x, 1, &g1, &x, amax, false)
        }),
        ("`scatter_reduce`, mean, dim 0 (1,024 lines)", &|| {
            k::scatter_reduce::launch(&x, 0, &g0, &x, mean, true)
        }),
        ("`bincount`, f32 weights (4,096 bins)", &|| {
            k::bincount::dispatch(bins.as_tensor(), Some(line.as_tensor()), 0)?.typed()
        }),
        ("`bincount` (4,096 bins; counts as f32)", &|| {
            k::to_f32::dispatch(&k::bincount::dispatch(bins.as_tensor(), None, 0)?)?.typed()
        }),
        ("`histc` (100 bins)", &|| {
            k::histc::launch(&line, 100, 0.0, 0.0)
        }),
    ];
    println!("| copy (anchor) | {:.2} ms | 1.00x |", copy * 1e3);
    for (name, op) in cases {
        let s = median(reps, || first(&op()?))?;
        println!("| {name} | {:.2} ms | {:.2}x |", s * 1e3, copy / s);
    }
    // every element of `x` placed in a sorted sequence of 4,096 (12
    // steps of bisection each, the sequence in cache); `i64` places
    let seq: Vec<f32> = (0..4096u16).map(|i| f32::from(i) * 0.25).collect();
    let seq = TensorT::from_slice(dev, &seq, [4096])?;
    let s = median(reps, || {
        first(&k::searchsorted::launch(&seq, &line, false, None)?)
    })?;
    println!(
        "| `searchsorted` in 4,096 (i64 places) | {:.2} ms | {:.2}x |",
        s * 1e3,
        copy / s
    );
    println!();
    Ok(())
}

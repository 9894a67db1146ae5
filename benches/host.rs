//! The host backend against plain Rust: `add` and `axpy` over 2^24 `f32` through
//! `launch` on `Device::host()`, and the same loops written by hand with rayon
//! (`cargo bench --bench host`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;
use silt::prelude::*;

/// `a + b`.
#[kernel(types = [f32])]
pub fn host_add<T>(a: T, b: T) -> T {
    a + b
}

/// `y = alpha * x + y`.
#[kernel(types = [f32])]
pub fn host_axpy<T>(#[scalar] alpha: T, x: T, y: &mut T) {
    *y = alpha * x + *y;
}

fn host(c: &mut Criterion) {
    let n = 1 << 24;
    let dev = Device::host();
    let av: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let a = TensorT::from_slice(&dev, &av, [n]).unwrap();
    let bv: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
    let b = TensorT::from_slice(&dev, &bv, [n]).unwrap();
    let mut y = TensorT::<f32>::zeros(&dev, [n]).unwrap();
    let mut group = c.benchmark_group("host 2^24 f32");
    group.throughput(Throughput::Bytes(3 * 4 * n as u64));
    group.sample_size(20);
    group.bench_function("silt add (new output)", |bch| {
        bch.iter(|| host_add::launch(&a, &b).unwrap())
    });
    group.bench_function("plain rayon add (new output)", |bch| {
        bch.iter(|| {
            let mut out = vec![0.0f32; n];
            out.par_chunks_mut(16 * 1024)
                .enumerate()
                .for_each(|(k, o)| {
                    let base = k * 16 * 1024;
                    for (j, v) in o.iter_mut().enumerate() {
                        *v = av[base + j] + bv[base + j];
                    }
                });
            out
        })
    });
    group.bench_function("silt axpy (in place)", |bch| {
        bch.iter(|| host_axpy::launch(2.0, &a, &mut y).unwrap())
    });
    let mut yv = vec![0.0f32; n];
    group.bench_function("plain rayon axpy (in place)", |bch| {
        bch.iter(|| {
            yv.par_chunks_mut(16 * 1024).enumerate().for_each(|(k, o)| {
                let base = k * 16 * 1024;
                for (j, v) in o.iter_mut().enumerate() {
                    *v += 2.0 * av[base + j];
                }
            });
        })
    });
    group.finish();
}

criterion_group!(benches, host);
criterion_main!(benches);

//! Pooled allocate + free against direct driver create + release, on the default
//! OpenCL device: `cargo bench --bench alloc`.
//!
//! Three rows per size: `pooled` (a tensor allocated and dropped: a cache hit in
//! steady state), `driver` (`clCreateBuffer` + `clReleaseMemObject`; PoCL allocates
//! lazily, so this never touches memory) and `driver+touch` (the same with the
//! one-byte write that makes the memory real, as the pool does on a miss so that
//! out-of-memory surfaces at allocation).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use silt::{DType, Device};

fn alloc(c: &mut Criterion) {
    let dev = match Device::opencl(0) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("alloc bench needs an OpenCL device: {e}");
            return;
        }
    };
    let mut group = c.benchmark_group("alloc");
    for (label, bytes) in [("4KiB", 4usize << 10), ("64MiB", 64 << 20)] {
        group.bench_with_input(BenchmarkId::new("pooled", label), &bytes, |b, &n| {
            b.iter(|| drop(silt::__testing::uninit(&dev, DType::U8, &[n]).unwrap()));
        });
        group.bench_with_input(BenchmarkId::new("driver", label), &bytes, |b, &n| {
            b.iter(|| silt::__testing::driver_alloc_release(&dev, n, false).unwrap());
        });
        group.bench_with_input(BenchmarkId::new("driver+touch", label), &bytes, |b, &n| {
            b.iter(|| silt::__testing::driver_alloc_release(&dev, n, true).unwrap());
        });
    }
    group.finish();
    let s = dev.memory_stats();
    println!(
        "pool after the bench: {} hits, {} misses, {} driver allocations",
        s.hits, s.misses, s.driver_allocs
    );
}

criterion_group!(benches, alloc);
criterion_main!(benches);

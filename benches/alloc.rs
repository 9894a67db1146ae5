//! Pooled allocate + free against direct driver create + release, on the default
//! OpenCL device: `cargo bench --bench alloc`.
//!
//! Three rows per size: `pooled` (a tensor allocated and dropped: a cache hit in
//! steady state), `driver` (`clCreateBuffer` + `clReleaseMemObject`; PoCL allocates
//! lazily, so this never touches memory) and `driver+touch` (the same with the
//! one-byte write that makes the memory real, as the pool does on a miss so that
//! out-of-memory surfaces at allocation).
//!
//! Then fills: `zeros` of f32 synchronised, and 1,000 of 100,000 queued back
//! to back, on a CPU device by the runtime's fill kernel (`kernel`) and by
//! the driver's `clEnqueueFillBuffer` (`driver`, as on a GPU, through the
//! `reduce_as` test hook).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use silt::{DType, Device, DeviceKind, TensorT};

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
    let mut group = c.benchmark_group("fill");
    for (form, kind) in [("kernel", None), ("driver", Some(DeviceKind::Gpu))] {
        silt::__testing::reduce_as(kind);
        for n in [1usize << 16, 1 << 20, 1 << 24] {
            group.bench_with_input(BenchmarkId::new(format!("zeros {form}"), n), &n, |b, &n| {
                b.iter(|| {
                    let z = TensorT::<f32>::zeros(&dev, [n]).unwrap();
                    dev.synchronize().unwrap();
                    z
                });
            });
        }
        group.bench_function(format!("1000 zeros of 100000 queued, {form}"), |b| {
            b.iter(|| {
                for _ in 0..1000 {
                    drop(TensorT::<f32>::zeros(&dev, [100_000]).unwrap());
                }
                dev.synchronize().unwrap();
            });
        });
    }
    silt::__testing::reduce_as(None);
    group.finish();
    let s = dev.memory_stats();
    println!(
        "pool after the bench: {} hits, {} misses, {} driver allocations",
        s.hits, s.misses, s.driver_allocs
    );
}

criterion_group!(benches, alloc);
criterion_main!(benches);

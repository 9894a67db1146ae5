//! silt's generated kernels against hand-written OpenCL C run through raw opencl3
//! on the same device, in the same criterion groups
//! (`cargo bench -p silt-kernels --bench versus_raw`):
//!
//! - launch overhead: a 64-element `axpy` launched and waited for, and 1,000
//!   launches enqueued back to back;
//! - bandwidth: `add`, `axpy` and `gelu` over 2^24 `f32`;
//! - reductions: the full sum of 2^24 `f32` against a two-stage sum and a
//!   copy, and the sums of the rows and of the columns of a [4096, 4096]
//!   matrix against a work-item per row or column (driver's local size).
//!
//! The raw side is what a user writes: kernel objects created once, the
//! arguments set, the local size left to the driver (`None`); for `axpy` both
//! the contracted kernel (OpenCL's default, an FMA where the device has one) and
//! the uncontracted one, whose rounding silt keeps.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use silt::prelude::*;

mod raw;
use raw::{axpy_args, Raw};

fn launch_overhead(c: &mut Criterion, dev: &Device, raw: &Raw) {
    let n = 64;
    let ones = vec![1.0f32; n];
    let x = TensorT::from_slice(dev, &ones, [n]).unwrap();
    let mut y = TensorT::<f32>::zeros(dev, [n]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&ones), raw.buffer(&vec![0.0; n]), n as u64);
    silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
    dev.synchronize().unwrap();
    let mut group = c.benchmark_group("launch (64 f32)");
    group.bench_function("silt axpy + synchronize", |b| {
        b.iter(|| {
            silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
            dev.synchronize().unwrap();
        });
    });
    group.bench_function("raw opencl3 axpy + finish", |b| {
        b.iter(|| {
            raw.launch(&raw.axpy, n, axpy_args(&1.0, &rx, &ry, &rn));
            raw.finish();
        });
    });
    group.bench_function("silt 1000 axpy back to back", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                silt_kernels::axpy::launch(1.0, &x, &mut y).unwrap();
            }
            dev.synchronize().unwrap();
        });
    });
    group.bench_function("raw opencl3 1000 axpy back to back", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                raw.launch(&raw.axpy, n, axpy_args(&1.0, &rx, &ry, &rn));
            }
            raw.finish();
        });
    });
    group.finish();
}

fn bandwidth(c: &mut Criterion, dev: &Device, raw: &Raw) {
    let n = 1 << 24;
    let values: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 / 100.0 - 5.0).collect();
    let a = TensorT::from_slice(dev, &values, [n]).unwrap();
    let b = TensorT::from_slice(dev, &values, [n]).unwrap();
    let mut y = TensorT::<f32>::zeros(dev, [n]).unwrap();
    let (ra, rb, rc, rn) = (
        raw.buffer(&values),
        raw.buffer(&values),
        raw.buffer(&vec![0.0; n]),
        n as u64,
    );
    let mut group = c.benchmark_group("bandwidth (2^24 f32)");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(3 * 4 * n as u64));
    group.bench_function("silt add", |bch| {
        bch.iter(|| {
            let out = silt_kernels::add::launch(&a, &b).unwrap();
            dev.synchronize().unwrap();
            out
        });
    });
    group.bench_function("raw opencl3 add", |bch| {
        bch.iter(|| {
            raw.launch(&raw.add, n, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&ra).set_arg(&rb).set_arg(&rc).set_arg(&rn);
                }
            });
            raw.finish();
        });
    });
    group.bench_function("silt axpy", |bch| {
        bch.iter(|| {
            silt_kernels::axpy::launch(1e-3, &a, &mut y).unwrap();
            dev.synchronize().unwrap();
        });
    });
    group.bench_function("raw opencl3 axpy", |bch| {
        bch.iter(|| {
            raw.launch(&raw.axpy, n, axpy_args(&1e-3, &ra, &rc, &rn));
            raw.finish();
        });
    });
    group.bench_function("raw opencl3 axpy (no contraction)", |bch| {
        bch.iter(|| {
            raw.launch(&raw.axpy_exact, n, axpy_args(&1e-3, &ra, &rc, &rn));
            raw.finish();
        });
    });
    group.throughput(Throughput::Bytes(2 * 4 * n as u64));
    group.bench_function("silt gelu", |bch| {
        bch.iter(|| {
            let out = silt_kernels::gelu::launch(&a).unwrap();
            dev.synchronize().unwrap();
            out
        });
    });
    group.bench_function("raw opencl3 gelu", |bch| {
        bch.iter(|| {
            raw.launch(&raw.gelu, n, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&ra).set_arg(&rc).set_arg(&rn);
                }
            });
            raw.finish();
        });
    });
    group.finish();
}

fn reductions(c: &mut Criterion, dev: &Device, raw: &Raw) {
    let n = 1 << 24;
    let values: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 / 100.0 - 5.0).collect();
    let x = TensorT::from_slice(dev, &values, [n]).unwrap();
    let m = TensorT::from_slice(dev, &values, [4096, 4096]).unwrap();
    let (rx, ry, rn) = (raw.buffer(&values), raw.buffer(&vec![0.0; n]), n as u64);
    let (pa, pb) = (
        raw.buffer(&vec![0.0; n / 64 + 1]),
        raw.buffer(&vec![0.0; n / 64 + 1]),
    );
    let mut group = c.benchmark_group("reductions (2^24 f32)");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(4 * n as u64));
    group.bench_function("silt sum", |bch| {
        bch.iter(|| {
            let out = silt_kernels::sum::launch(&x, Axes::all()).unwrap();
            dev.synchronize().unwrap();
            out
        });
    });
    group.bench_function("raw opencl3 two-stage sum (chunks of 1024)", |bch| {
        bch.iter(|| {
            raw.sum(&rx, n, 1024, &pa, &pb);
            raw.finish();
        });
    });
    group.bench_function("raw opencl3 copy (reads as much, writes as much)", |bch| {
        bch.iter(|| {
            raw.launch(&raw.copy, n, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(&rx).set_arg(&ry).set_arg(&rn);
                }
            });
            raw.finish();
        });
    });
    for (axis, kernel, name) in [(1, &raw.sum_rows, "rows"), (0, &raw.sum_cols, "columns")] {
        group.bench_function(format!("silt sum of the {name} of [4096, 4096]"), |bch| {
            bch.iter(|| {
                let out = silt_kernels::sum::launch(&m, Axes::of([axis])).unwrap();
                dev.synchronize().unwrap();
                out
            });
        });
        group.bench_function(
            format!("raw opencl3 sum of the {name}, a work-item each"),
            |bch| {
                let (r, c) = (4096u64, 4096u64);
                bch.iter(|| {
                    raw.launch(kernel, 4096, |e| {
                        // SAFETY: the argument types match the kernel's parameters.
                        unsafe {
                            e.set_arg(&rx).set_arg(&pa).set_arg(&r).set_arg(&c);
                        }
                    });
                    raw.finish();
                });
            },
        );
    }
    group.finish();
}

fn versus_raw(c: &mut Criterion) {
    let (Ok(dev), Some(raw)) = (Device::opencl(0), Raw::new()) else {
        eprintln!("versus_raw needs an OpenCL device");
        return;
    };
    launch_overhead(c, &dev, &raw);
    bandwidth(c, &dev, &raw);
    reductions(c, &dev, &raw);
}

criterion_group!(benches, versus_raw);
criterion_main!(benches);

//! Launch overhead: a tiny kernel launched and waited for, and 1,000 launches
//! enqueued back to back, on the default OpenCL device; the same for the
//! runtime's own copy kernels (`contiguous()` of small transposed views: a
//! strided copy, and a transposing one) (`cargo bench --bench launch`).

use criterion::{criterion_group, criterion_main, Criterion};
use silt::prelude::*;

/// `y = a * x + y` on a handful of elements.
#[kernel(types = [f32])]
pub fn tiny_axpy<T>(#[scalar] a: T, x: T, y: &mut T) {
    *y = a * x + *y;
}

fn launch(c: &mut Criterion) {
    let Ok(dev) = Device::opencl(0) else {
        eprintln!("launch bench needs an OpenCL device");
        return;
    };
    let x = TensorT::full(&dev, 1.0f32, [64]).unwrap();
    let mut y = TensorT::<f32>::zeros(&dev, [64]).unwrap();
    tiny_axpy::launch(1.0, &x, &mut y).unwrap();
    dev.synchronize().unwrap();
    let mut group = c.benchmark_group("launch");
    group.bench_function("tiny launch + synchronize", |b| {
        b.iter(|| {
            tiny_axpy::launch(1.0, &x, &mut y).unwrap();
            dev.synchronize().unwrap();
        });
    });
    group.bench_function("1000 launches back to back, then synchronize", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                tiny_axpy::launch(1.0, &x, &mut y).unwrap();
            }
            dev.synchronize().unwrap();
        });
    });
    // [8, 8] transposed: the strided copy; [32, 32]: the transposing copy
    for n in [8usize, 32] {
        let m = TensorT::full(&dev, 1.0f32, [n, n]).unwrap();
        let t = m.transpose(0, 1).unwrap();
        group.bench_function(
            format!("contiguous() of a [{n}, {n}] transpose + synchronize"),
            |b| {
                b.iter(|| {
                    let c = t.contiguous().unwrap();
                    dev.synchronize().unwrap();
                    c
                });
            },
        );
        group.bench_function(
            format!("1000 contiguous() of a [{n}, {n}] transpose back to back, then synchronize"),
            |b| {
                b.iter(|| {
                    for _ in 0..1000 {
                        drop(t.contiguous().unwrap());
                    }
                    dev.synchronize().unwrap();
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, launch);
criterion_main!(benches);

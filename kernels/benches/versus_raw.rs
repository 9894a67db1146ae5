//! silt's generated kernels against hand-written OpenCL C run through raw opencl3
//! on the same device, in the same criterion groups
//! (`cargo bench -p silt-kernels --bench versus_raw`):
//!
//! - launch overhead: a 64-element `axpy` launched and waited for, and 1,000
//!   launches enqueued back to back;
//! - bandwidth: `add`, `axpy` and `gelu` over 2^24 `f32`.
//!
//! The raw side creates its kernel objects once, sets the arguments and enqueues
//! with a local size of 64 (silt's), so it is the floor a toolkit can reach.

use std::ptr;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, CL_BLOCKING};
use silt::prelude::*;

/// The hand-written kernels: one work item per element, bounds-checked.
const RAW_SOURCE: &str = r"
__kernel void add(__global const float *a, __global const float *b,
                  __global float *c, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
__kernel void axpy(float alpha, __global const float *x, __global float *y,
                   ulong n) {
    size_t i = get_global_id(0);
    if (i < n) y[i] += alpha * x[i];
}
__kernel void gelu(__global const float *x, __global float *y, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + erf(v * M_SQRT1_2_F));
    }
}
";

/// The work-group size both sides use.
const LOCAL: usize = 64;

/// A context, queue and the built raw program on the first OpenCL device.
struct Raw {
    context: Context,
    queue: CommandQueue,
    add: Kernel,
    axpy: Kernel,
    gelu: Kernel,
}

impl Raw {
    fn new() -> Option<Self> {
        let platform = get_platforms().ok()?.into_iter().next()?;
        let id = *platform.get_devices(CL_DEVICE_TYPE_ALL).ok()?.first()?;
        let context = Context::from_device(&ClDevice::new(id)).ok()?;
        let queue = CommandQueue::create_default_with_properties(&context, 0, 0).ok()?;
        let program = Program::create_and_build_from_source(&context, RAW_SOURCE, "")
            .map_err(|log| eprintln!("raw program: {log}"))
            .ok()?;
        Some(Self {
            add: Kernel::create(&program, "add").ok()?,
            axpy: Kernel::create(&program, "axpy").ok()?,
            gelu: Kernel::create(&program, "gelu").ok()?,
            context,
            queue,
        })
    }

    /// A device buffer holding `values`.
    fn buffer(&self, values: &[f32]) -> Buffer<cl_float> {
        // SAFETY: no host pointer is passed; the write is blocking, so `values`
        // outlives it.
        unsafe {
            let mut b = Buffer::<cl_float>::create(
                &self.context,
                CL_MEM_READ_WRITE,
                values.len(),
                ptr::null_mut(),
            )
            .expect("raw buffer");
            self.queue
                .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, values, &[])
                .expect("raw write");
            b
        }
    }

    /// Enqueues `kernel` over `n` elements with `set` setting its arguments.
    fn launch(&self, kernel: &Kernel, n: usize, set: impl FnOnce(&mut ExecuteKernel)) {
        let mut exec = ExecuteKernel::new(kernel);
        set(&mut exec);
        // SAFETY: every argument the kernel declares was set by `set`, with the
        // matching types; the buffers hold at least `n` elements.
        unsafe {
            exec.set_global_work_size(n.div_ceil(LOCAL) * LOCAL)
                .set_local_work_size(LOCAL)
                .enqueue_nd_range(&self.queue)
                .expect("raw launch");
        }
    }

    fn finish(&self) {
        self.queue.finish().expect("raw finish");
    }
}

/// Sets `axpy`'s arguments.
fn axpy_args<'a>(
    alpha: &'a f32,
    x: &'a Buffer<f32>,
    y: &'a Buffer<f32>,
    n: &'a u64,
) -> impl FnOnce(&mut ExecuteKernel) + 'a {
    move |e| {
        // SAFETY: the argument types match the kernel's parameters.
        unsafe {
            e.set_arg(alpha).set_arg(x).set_arg(y).set_arg(n);
        }
    }
}

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

fn versus_raw(c: &mut Criterion) {
    let (Ok(dev), Some(raw)) = (Device::opencl(0), Raw::new()) else {
        eprintln!("versus_raw needs an OpenCL device");
        return;
    };
    launch_overhead(c, &dev, &raw);
    bandwidth(c, &dev, &raw);
}

criterion_group!(benches, versus_raw);
criterion_main!(benches);

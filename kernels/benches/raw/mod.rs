//! Hand-written OpenCL C run through raw opencl3: the baseline silt's generated
//! kernels are measured against (shared by the `versus_raw` benchmark and the
//! `bench_report` example).

use std::ptr;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, CL_BLOCKING};

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
__kernel void axpy_exact(float alpha, __global const float *x,
                         __global float *y, ulong n) {
#pragma OPENCL FP_CONTRACT OFF
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
pub const LOCAL: usize = 64;

/// A context, queue and the built raw program on the first OpenCL device.
pub struct Raw {
    context: Context,
    queue: CommandQueue,
    /// `c = a + b`.
    pub add: Kernel,
    /// `y += alpha * x`, compiled with OpenCL's default `FP_CONTRACT ON`.
    pub axpy: Kernel,
    /// `axpy` without contracting `alpha * x + y` into a fused multiply-add,
    /// the rounding silt keeps (its results match the host's).
    pub axpy_exact: Kernel,
    /// `y = gelu(x)` with `erf`.
    pub gelu: Kernel,
}

impl Raw {
    /// The first device of the first platform, or `None` without one.
    pub fn new() -> Option<Self> {
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
            axpy_exact: Kernel::create(&program, "axpy_exact").ok()?,
            gelu: Kernel::create(&program, "gelu").ok()?,
            context,
            queue,
        })
    }

    /// A device buffer holding `values`.
    pub fn buffer(&self, values: &[f32]) -> Buffer<cl_float> {
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
    pub fn launch(&self, kernel: &Kernel, n: usize, set: impl FnOnce(&mut ExecuteKernel)) {
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

    /// Waits for everything enqueued.
    pub fn finish(&self) {
        self.queue.finish().expect("raw finish");
    }
}

/// Sets `axpy`'s arguments.
pub fn axpy_args<'a>(
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

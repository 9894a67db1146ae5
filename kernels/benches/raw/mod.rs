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

/// The hand-written kernels: one work-item per element. The one-dimensional
/// ones have no bounds check, as a user writes them who launches exactly `n`
/// work-items and leaves the local size to the driver ([`Raw::launch`]): on
/// PoCL a per-item `if (i < n)` makes every load and store of a work-group's
/// vectorized loop a masked one, which halved a copy's speed on an AMD EPYC
/// (AVX2). `axpy_checked` keeps the check, for launches rounded up to whole
/// work-groups of a given size ([`Raw::launch_local`]).
const RAW_SOURCE: &str = r"
__kernel void add(__global const float *a, __global const float *b,
                  __global float *c, ulong n) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
__kernel void axpy(float alpha, __global const float *x, __global float *y,
                   ulong n) {
    size_t i = get_global_id(0);
    y[i] += alpha * x[i];
}
__kernel void axpy_exact(float alpha, __global const float *x,
                         __global float *y, ulong n) {
#pragma OPENCL FP_CONTRACT OFF
    size_t i = get_global_id(0);
    y[i] += alpha * x[i];
}
__kernel void axpy_offsets(float alpha, __global const float *x, ulong ox,
                           __global float *y, ulong oy, ulong n) {
#pragma OPENCL FP_CONTRACT OFF
    size_t i = get_global_id(0);
    y[oy + i] += alpha * x[ox + i];
}
__kernel void axpy_checked(float alpha, __global const float *x,
                           __global float *y, ulong n) {
#pragma OPENCL FP_CONTRACT OFF
    size_t i = get_global_id(0);
    if (i < n) y[i] += alpha * x[i];
}
__kernel void copy(__global const float *x, __global float *y, ulong n) {
    size_t i = get_global_id(0);
    y[i] = x[i];
}
__kernel void sum_chunks(__global const float *x, __global float *out, ulong n,
                         ulong chunk) {
    ulong g = get_global_id(0);
    ulong a = g * chunk, b = min(a + chunk, n);
    if (a >= n) return;
    float s = 0.0f;
    for (ulong i = a; i < b; i++) s += x[i];
    out[g] = s;
}
__kernel void sum_rows(__global const float *x, __global float *out,
                       ulong rows, ulong cols) {
    ulong r = get_global_id(0);
    if (r >= rows) return;
    float s = 0.0f;
    for (ulong c = 0; c < cols; c++) s += x[r * cols + c];
    out[r] = s;
}
__kernel void sum_cols(__global const float *x, __global float *out,
                       ulong rows, ulong cols) {
    ulong c = get_global_id(0);
    if (c >= cols) return;
    float s = 0.0f;
    for (ulong r = 0; r < rows; r++) s += x[r * cols + c];
    out[c] = s;
}
__kernel void local_size(__global uint *out) {
    if (get_global_id(0) == 0) out[0] = (uint)get_local_size(0);
}
__kernel void gelu(__global const float *x, __global float *y, ulong n) {
    size_t i = get_global_id(0);
    float v = x[i];
    y[i] = 0.5f * v * erfc(-v * M_SQRT1_2_F);
}
__kernel void add_col(__global const float *a, __global const float *b,
                      __global float *c, ulong cols) {
    size_t j = get_global_id(0), i = get_global_id(1);
    c[i * cols + j] = a[i * cols + j] + b[i];
}
__kernel void add_row(__global const float *a, __global const float *b,
                      __global float *c, ulong cols) {
    size_t j = get_global_id(0), i = get_global_id(1);
    c[i * cols + j] = a[i * cols + j] + b[j];
}
__kernel void add_transposed(__global const float *a, __global const float *b,
                             __global float *c, ulong rows, ulong cols) {
    size_t j = get_global_id(0), i = get_global_id(1);
    c[i * cols + j] = a[j * rows + i] + b[i * cols + j];
}
__kernel void copy_transposed(__global const float *a, __global float *c,
                              ulong rows, ulong cols) {
    size_t j = get_global_id(0), i = get_global_id(1);
    c[i * cols + j] = a[j * rows + i];
}
__kernel void add_batch_transposed(__global const float *a, __global const float *b,
                                   __global float *c, ulong rows, ulong cols) {
    size_t j = get_global_id(0), i = get_global_id(1), k = get_global_id(2);
    size_t m = k * rows * cols;
    c[m + i * cols + j] = a[m + j * rows + i] + b[m + i * cols + j];
}
__kernel void copy_batch_transposed(__global const float *a, __global float *c,
                                    ulong rows, ulong cols) {
    size_t j = get_global_id(0), i = get_global_id(1), k = get_global_id(2);
    size_t m = k * rows * cols;
    c[m + i * cols + j] = a[m + j * rows + i];
}
__kernel void add_mid(__global const float *a, __global const float *b,
                      __global float *c, ulong n1, ulong n2) {
    size_t j = get_global_id(0), k = get_global_id(1), i = get_global_id(2);
    size_t at = (i * n1 + k) * n2 + j;
    c[at] = a[at] + b[i * n2 + j];
}
__kernel void gelu_erf(__global const float *x, __global float *y, ulong n) {
    size_t i = get_global_id(0);
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + erf(v * M_SQRT1_2_F));
}
";

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
    /// `axpy_exact` with an offset per buffer, as silt's entry points take
    /// them.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub axpy_offsets: Kernel,
    /// `axpy_exact` with a bounds check, for launches of more work-items than
    /// elements.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub axpy_checked: Kernel,
    /// `y = gelu(x)` as silt computes it, `0.5 x erfc(-x / sqrt(2))`: accurate
    /// for negative `x` too.
    pub gelu: Kernel,
    /// `y = gelu(x)` by the textbook formula, `0.5 x (1 + erf(x / sqrt(2)))`:
    /// `1 + erf` cancels for negative `x` (2,371 ULPs off at -4, -0 instead of
    /// -5.9e-9 at -6).
    #[allow(dead_code)] // the report's, not every benchmark's
    pub gelu_erf: Kernel,
    /// Writes the work-group size it runs with (what the driver chose).
    #[allow(dead_code)] // the report's, not every benchmark's
    pub local_size: Kernel,
    /// `y = x`.
    pub copy: Kernel,
    /// `c = a + b` over a row-major matrix, `b` a column (one value a row):
    /// a two-dimensional launch, one work-item per element.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub add_col: Kernel,
    /// `c = a + b`, `b` a row (one value a column).
    #[allow(dead_code)] // the report's, not every benchmark's
    pub add_row: Kernel,
    /// `c = transpose(a) + b`, `a` stored `cols` x `rows`.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub add_transposed: Kernel,
    /// `c = transpose(a)`, `a` stored `cols` x `rows`.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub copy_transposed: Kernel,
    /// `c = transpose(a) + b` for each matrix of a batch of `rows` x `cols`
    /// matrices, `a`'s stored `cols` x `rows`: a three-dimensional launch.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub add_batch_transposed: Kernel,
    /// `c = transpose(a)` for each matrix of such a batch.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub copy_batch_transposed: Kernel,
    /// `c = a + b` over `[n0, n1, n2]`, `b` of shape `[n0, 1, n2]`: a
    /// three-dimensional launch.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub add_mid: Kernel,
    /// Each work-item sums `chunk` consecutive elements: one stage of a
    /// two-stage sum.
    pub sum_chunks: Kernel,
    /// One work-item per row of a row-major matrix sums the row.
    pub sum_rows: Kernel,
    /// One work-item per column sums the column.
    pub sum_cols: Kernel,
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
            gelu_erf: Kernel::create(&program, "gelu_erf").ok()?,
            axpy_offsets: Kernel::create(&program, "axpy_offsets").ok()?,
            axpy_checked: Kernel::create(&program, "axpy_checked").ok()?,
            local_size: Kernel::create(&program, "local_size").ok()?,
            copy: Kernel::create(&program, "copy").ok()?,
            sum_chunks: Kernel::create(&program, "sum_chunks").ok()?,
            sum_rows: Kernel::create(&program, "sum_rows").ok()?,
            sum_cols: Kernel::create(&program, "sum_cols").ok()?,
            add_col: Kernel::create(&program, "add_col").ok()?,
            add_row: Kernel::create(&program, "add_row").ok()?,
            add_transposed: Kernel::create(&program, "add_transposed").ok()?,
            add_mid: Kernel::create(&program, "add_mid").ok()?,
            add_batch_transposed: Kernel::create(&program, "add_batch_transposed").ok()?,
            copy_batch_transposed: Kernel::create(&program, "copy_batch_transposed").ok()?,
            copy_transposed: Kernel::create(&program, "copy_transposed").ok()?,
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

    /// Enqueues `kernel` over `n` work-items with `set` setting its arguments,
    /// leaving the local size to the driver (`None`): what a user writes who
    /// does not tune it, and on PoCL what its own heuristic picks.
    pub fn launch(&self, kernel: &Kernel, n: usize, set: impl FnOnce(&mut ExecuteKernel)) {
        self.launch_local(kernel, n, None, set);
    }

    /// Enqueues `kernel` over `n` work-items in groups of `local` (the global
    /// size rounded up to a multiple: only for a kernel that checks its
    /// bounds, `axpy_checked`), or with the driver's local size for `None`.
    pub fn launch_local(
        &self,
        kernel: &Kernel,
        n: usize,
        local: Option<usize>,
        set: impl FnOnce(&mut ExecuteKernel),
    ) {
        let mut exec = ExecuteKernel::new(kernel);
        set(&mut exec);
        match local {
            Some(l) => exec
                .set_global_work_size(n.div_ceil(l) * l)
                .set_local_work_size(l),
            None => exec.set_global_work_size(n),
        };
        // SAFETY: every argument the kernel declares was set by `set`, with the
        // matching types; the buffers hold what the kernel indexes.
        unsafe {
            exec.enqueue_nd_range(&self.queue).expect("raw launch");
        }
    }

    /// Enqueues `kernel` over a grid of `global` work-items (one to three
    /// dimensions, innermost first) with `set` setting its arguments, leaving
    /// the local size to the driver.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub fn launch_grid(
        &self,
        kernel: &Kernel,
        global: &[usize],
        set: impl FnOnce(&mut ExecuteKernel),
    ) {
        let mut exec = ExecuteKernel::new(kernel);
        set(&mut exec);
        match *global {
            [x] => exec.set_global_work_size(x),
            [x, y] => exec.set_global_work_sizes(&[x, y]),
            [x, y, z, ..] => exec.set_global_work_sizes(&[x, y, z]),
            [] => return,
        };
        // SAFETY: every argument the kernel declares was set by `set`, with the
        // matching types; the buffers hold what the kernel indexes.
        unsafe {
            exec.enqueue_nd_range(&self.queue).expect("raw launch");
        }
    }

    /// The work-group size the driver picks for a launch of `n` work-items
    /// when the local size is left to it.
    #[allow(dead_code)] // the report's, not every benchmark's
    pub fn driver_local_size(&self, n: usize) -> u32 {
        let out = self.buffer(&[0.0]);
        self.launch(&self.local_size, n, |e| {
            // SAFETY: the kernel's one parameter is a buffer of one element.
            unsafe {
                e.set_arg(&out);
            }
        });
        let mut v = [0.0f32];
        // SAFETY: blocking read of one element into `v`.
        unsafe {
            self.queue
                .enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut v, &[])
                .expect("raw read");
        }
        v[0].to_bits()
    }

    /// A two-stage sum as a user writes it: chunks of `chunk` elements summed
    /// by each work-item, then the partial sums the same way, until one is
    /// left (in `a` or `b`, scratch buffers of at least `n / chunk + 1`).
    pub fn sum(&self, x: &Buffer<f32>, n: usize, chunk: usize, a: &Buffer<f32>, b: &Buffer<f32>) {
        let mut m = n;
        let mut src = x;
        let mut dst = a;
        loop {
            let groups = m.div_ceil(chunk);
            let (mm, cc) = (m as u64, chunk as u64);
            self.launch(&self.sum_chunks, groups, |e| {
                // SAFETY: the argument types match the kernel's parameters.
                unsafe {
                    e.set_arg(src).set_arg(dst).set_arg(&mm).set_arg(&cc);
                }
            });
            if groups == 1 {
                break;
            }
            m = groups;
            src = dst;
            dst = if std::ptr::eq(dst, a) { b } else { a };
        }
    }

    /// The first `n` values of `b` (a blocking read).
    #[allow(dead_code)] // the report's, not every benchmark's
    pub fn read(&self, b: &Buffer<f32>, n: usize) -> Vec<f32> {
        let mut v = vec![0.0f32; n];
        // SAFETY: blocking read of `n` elements into `v`, which holds `n`.
        unsafe {
            self.queue
                .enqueue_read_buffer(b, CL_BLOCKING, 0, &mut v, &[])
                .expect("raw read");
        }
        v
    }

    /// Waits for everything enqueued.
    pub fn finish(&self) {
        self.queue.finish().expect("raw finish");
    }
}

/// Sets `axpy`'s arguments (`axpy_exact`'s too).
pub fn axpy_args<'a>(
    alpha: &'a f32,
    x: &'a Buffer<f32>,
    y: &'a Buffer<f32>,
    n: &'a u64,
) -> impl FnOnce(&mut ExecuteKernel) + 'a {
    axpy_args_offsets(alpha, x, y, n, false)
}

/// Sets `axpy_offsets`'s arguments, both offsets 0 (`axpy` with silt's six
/// arguments) with `offsets`, else `axpy`'s.
pub fn axpy_args_offsets<'a>(
    alpha: &'a f32,
    x: &'a Buffer<f32>,
    y: &'a Buffer<f32>,
    n: &'a u64,
    offsets: bool,
) -> impl FnOnce(&mut ExecuteKernel) + 'a {
    move |e| {
        // SAFETY: the argument types match the kernel's parameters.
        unsafe {
            e.set_arg(alpha);
            if offsets {
                e.set_arg(x).set_arg(&0u64).set_arg(y).set_arg(&0u64);
            } else {
                e.set_arg(x).set_arg(y);
            }
            e.set_arg(n);
        }
    }
}

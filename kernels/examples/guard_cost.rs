//! What the special-value guards cost: PoCL's `tanh` against the guarded one
//! silt emits (`fabs(x) >= 9.1f ? copysign(1.0f, x) : tanh(x)`), over 2^22
//! `float`s through raw opencl3, and the host's `pow` and `hypot` against
//! silt's (which give C99 Annex F's numbers for a signalling NaN). Medians of
//! interleaved runs in one process.
//!
//! `cargo run --release -p silt-kernels --example guard_cost`

use std::hint::black_box;
use std::ptr;
use std::time::{Duration, Instant};

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, CL_BLOCKING};
use silt::__private::FloatOps;

const SOURCE: &str = r"
__kernel void plain(__global const float *x, __global float *y, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) y[i] = tanh(x[i]);
}
__kernel void guarded(__global const float *x, __global float *y, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) { float v = x[i]; y[i] = fabs(v) >= 9.1f ? copysign(1.0f, v) : tanh(v); }
}
";

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The time `out[i] = f(xs[i], ys[i])` takes over the whole slices.
fn fill(out: &mut [f32], xs: &[f32], ys: &[f32], f: impl Fn(f32, f32) -> f32) -> Duration {
    let t = Instant::now();
    for ((o, a), b) in out.iter_mut().zip(xs).zip(ys) {
        *o = f(*a, *b);
    }
    black_box(&mut *out);
    t.elapsed()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    const N: usize = 1 << 22;
    let xs: Vec<f32> = (0..N).map(|i| (i as f32 / N as f32 - 0.5) * 40.0).collect();
    let platform = get_platforms()?
        .into_iter()
        .next()
        .ok_or("no OpenCL platform")?;
    let id = *platform
        .get_devices(CL_DEVICE_TYPE_ALL)?
        .first()
        .ok_or("no device")?;
    let device = ClDevice::new(id);
    let context = Context::from_device(&device)?;
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0)?;
    let program = Program::create_and_build_from_source(&context, SOURCE, "")?;
    let kernels = [
        Kernel::create(&program, "plain")?,
        Kernel::create(&program, "guarded")?,
    ];
    // SAFETY: fresh buffers of N floats, no host pointer
    let mut x =
        unsafe { Buffer::<cl_float>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut())? };
    // SAFETY: as above
    let y = unsafe { Buffer::<cl_float>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut())? };
    // SAFETY: a blocking write of N floats into a buffer of N floats
    unsafe { queue.enqueue_write_buffer(&mut x, CL_BLOCKING, 0, &xs, &[])? };
    let n = N as u64;
    let mut times = [Vec::new(), Vec::new()];
    for rep in 0..25 {
        for (k, kernel) in kernels.iter().enumerate() {
            let t = Instant::now();
            // SAFETY: the arguments match the kernel's parameters
            let e = unsafe {
                ExecuteKernel::new(kernel)
                    .set_arg(&x)
                    .set_arg(&y)
                    .set_arg(&n)
                    .set_global_work_size(N)
                    .set_local_work_size(1024)
                    .enqueue_nd_range(&queue)?
            };
            e.wait()?;
            if rep > 0 {
                times[k].push(t.elapsed());
            }
        }
    }
    let [plain, guarded] = times.map(median);
    println!(
        "device tanh, 2^22 floats: built-in {plain:?}, guarded {guarded:?} ({:+.1}%)",
        (guarded.as_secs_f64() / plain.as_secs_f64() - 1.0) * 100.0
    );

    // the host's guards: pow and hypot of the same values, each result written
    // to memory (a running sum would time its own dependency chain instead)
    let ys: Vec<f32> = xs.iter().map(|v| v * 0.25).collect();
    let mut out = vec![0f32; N];
    let mut host = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..25 {
        host[0].push(fill(&mut out, &xs, &ys, |a, b| a.abs().powf(b)));
        host[1].push(fill(&mut out, &xs, &ys, |a, b| FloatOps::pow(a.abs(), b)));
        host[2].push(fill(&mut out, &xs, &ys, f32::hypot));
        host[3].push(fill(&mut out, &xs, &ys, FloatOps::hypot));
    }
    let [p, pg, h, hg] = host.map(median);
    let pct = |a: Duration, b: Duration| (b.as_secs_f64() / a.as_secs_f64() - 1.0) * 100.0;
    println!(
        "host powf, 2^22 floats: std {p:?}, silt {pg:?} ({:+.1}%)",
        pct(p, pg)
    );
    println!(
        "host hypot, 2^22 floats: std {h:?}, silt {hg:?} ({:+.1}%)",
        pct(h, hg)
    );
    Ok(())
}

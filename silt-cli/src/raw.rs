//! The baseline `silt bench` measures against: `add` hand-written in OpenCL C and
//! launched through opencl3 as a user would (kernel object made once, the
//! local size left to the driver), on the OpenCL device of the same name.

use std::ptr;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, CL_BLOCKING};

const SOURCE: &str = r"
__kernel void add(__global const float *a, __global const float *b,
                  __global float *c, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
";

/// A context, a queue and the `add` kernel on one device.
pub struct RawAdd {
    context: Context,
    queue: CommandQueue,
    kernel: Kernel,
}

/// The buffers of one size.
pub struct RawBuffers {
    a: Buffer<cl_float>,
    b: Buffer<cl_float>,
    c: Buffer<cl_float>,
    n: u64,
    len: usize,
}

type Failure = Box<dyn std::error::Error>;

impl RawAdd {
    /// The raw kernel on the OpenCL device called `name`.
    ///
    /// # Errors
    /// When there is no such device or a driver call fails.
    pub fn new(name: &str) -> Result<Self, Failure> {
        let id = get_platforms()?
            .iter()
            .filter_map(|p| p.get_devices(CL_DEVICE_TYPE_ALL).ok())
            .flatten()
            .find(|&id| ClDevice::new(id).name().is_ok_and(|n| n == name))
            .ok_or_else(|| format!("no OpenCL device named {name:?}"))?;
        let context = Context::from_device(&ClDevice::new(id))?;
        let queue = CommandQueue::create_default_with_properties(&context, 0, 0)?;
        let program = Program::create_and_build_from_source(&context, SOURCE, "")
            .map_err(|log| format!("raw program: {log}"))?;
        let kernel = Kernel::create(&program, "add")?;
        Ok(RawAdd {
            context,
            queue,
            kernel,
        })
    }

    /// Buffers of `n` elements, `a` and `b` holding `x`.
    ///
    /// # Errors
    /// Driver errors.
    pub fn buffers(&self, n: usize, x: f32) -> Result<RawBuffers, Failure> {
        let make = |fill: bool| -> Result<Buffer<cl_float>, Failure> {
            // SAFETY: no host pointer is passed.
            let mut b = unsafe {
                Buffer::<cl_float>::create(&self.context, CL_MEM_READ_WRITE, n, ptr::null_mut())?
            };
            if fill {
                let v = vec![x; n];
                // SAFETY: a blocking write: `v` outlives it.
                unsafe {
                    self.queue
                        .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, &v, &[])?;
                }
            }
            Ok(b)
        };
        Ok(RawBuffers {
            a: make(true)?,
            b: make(true)?,
            c: make(false)?,
            n: u64::try_from(n)?,
            len: n,
        })
    }

    /// Enqueues `c = a + b` over `bufs`.
    ///
    /// # Errors
    /// Driver errors.
    pub fn launch(&self, bufs: &RawBuffers) -> Result<(), Failure> {
        let mut exec = ExecuteKernel::new(&self.kernel);
        // SAFETY: the arguments match the kernel's parameters in order and type;
        // the buffers hold `len` elements, the work-items the kernel indexes.
        unsafe {
            exec.set_arg(&bufs.a)
                .set_arg(&bufs.b)
                .set_arg(&bufs.c)
                .set_arg(&bufs.n)
                .set_global_work_size(bufs.len)
                .enqueue_nd_range(&self.queue)?;
        }
        Ok(())
    }

    /// Waits for everything enqueued.
    ///
    /// # Errors
    /// Driver errors.
    pub fn finish(&self) -> Result<(), Failure> {
        Ok(self.queue.finish()?)
    }
}

//! Kernels: setting arguments and enqueuing them.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr;

use opencl3::error_codes as codes;
use opencl3::kernel as k;
use opencl3::types::{cl_kernel, cl_mem};

use super::error::ClError;
use super::memory::Mem;
use super::queue::Queue;
use super::thread_exit;

/// One kernel object. `Send` but not `Sync`: OpenCL kernel objects must not be used
/// from two threads at once (setting arguments races), so a launch has one to
/// itself (made, or taken from a pool as an [`IdleKernel`]). The lifetime ties it
/// to the buffers set as its arguments, which must stay alive until it is
/// enqueued.
#[derive(Debug)]
pub(crate) struct Kernel<'a> {
    kernel: cl_kernel,
    _args: PhantomData<&'a Mem>,
}

// SAFETY: a kernel object may move between threads; only concurrent use is unsafe,
// which the missing `Sync` and the `&mut self` setters rule out.
unsafe impl Send for Kernel<'_> {}

/// A kernel object no launch is using, kept for the next one. Its argument slots
/// may still name buffers of an earlier launch; every launch sets all of them.
#[derive(Debug)]
pub(crate) struct IdleKernel {
    kernel: cl_kernel,
}

// SAFETY: as for `Kernel`: an idle kernel has one owner and is used by none.
unsafe impl Send for IdleKernel {}

impl IdleKernel {
    /// Hands the kernel object to a launch.
    pub(crate) fn take<'a>(self) -> Kernel<'a> {
        let this = ManuallyDrop::new(self);
        Kernel::new(this.kernel)
    }
}

impl Drop for IdleKernel {
    fn drop(&mut self) {
        // SAFETY: owned by this value alone (moved out of a `Kernel`), released
        // exactly once.
        let _ = unsafe { k::release_kernel(self.kernel) };
    }
}

impl<'a> Kernel<'a> {
    /// Takes ownership of a kernel object that `clCreateKernel` returned.
    pub(super) fn new(kernel: cl_kernel) -> Self {
        Kernel {
            kernel,
            _args: PhantomData,
        }
    }

    /// Ends the launch's use of the kernel object (after it was enqueued: the
    /// command keeps the arguments it was given).
    pub(crate) fn park(self) -> IdleKernel {
        let this = ManuallyDrop::new(self);
        IdleKernel {
            kernel: this.kernel,
        }
    }

    /// The largest work-group this kernel can run with on `queue`'s device.
    pub(crate) fn work_group_size(&self, queue: &Queue) -> Result<usize, ClError> {
        let fail = |c| ClError::new("clGetKernelWorkGroupInfo", c);
        match k::get_kernel_work_group_info(self.kernel, queue.device, k::CL_KERNEL_WORK_GROUP_SIZE)
            .map_err(fail)?
        {
            cl3::info_type::InfoType::Size(n) => Ok(n),
            _ => Err(fail(codes::CL_INVALID_VALUE)),
        }
    }

    /// Sets argument `index` to a buffer.
    pub(crate) fn set_mem(&mut self, index: u32, mem: &'a Mem) -> Result<(), ClError> {
        let handle: cl_mem = mem.mem;
        // SAFETY: the driver copies the handle value during the call; the size is
        // that of a `cl_mem`, as OpenCL requires for buffer arguments.
        unsafe {
            k::set_kernel_arg(
                self.kernel,
                index,
                std::mem::size_of::<cl_mem>(),
                (&raw const handle).cast::<c_void>(),
            )
        }
        .map_err(|c| ClError::new("clSetKernelArg", c))
    }

    /// Sets argument `index` to a plain value (a scalar of the kernel's C type).
    pub(crate) fn set_value<T: bytemuck::NoUninit>(
        &mut self,
        index: u32,
        value: T,
    ) -> Result<(), ClError> {
        // SAFETY: the driver copies `size_of::<T>()` bytes from `value` during the
        // call; `T` has no padding (`NoUninit`), so every byte is initialised.
        unsafe {
            k::set_kernel_arg(
                self.kernel,
                index,
                std::mem::size_of::<T>(),
                (&raw const value).cast::<c_void>(),
            )
        }
        .map_err(|c| ClError::new("clSetKernelArg", c))
    }

    /// Sets argument `index` to a count or an offset, as a `ulong`.
    pub(crate) fn set_size(&mut self, index: u32, value: usize) -> Result<(), ClError> {
        self.set_value(index, to_u64(value))
    }

    /// Sets argument `index` to up to 16 sizes or strides, as a `ulong16` (the
    /// rest zero).
    pub(crate) fn set_dims(&mut self, index: u32, values: &[usize]) -> Result<(), ClError> {
        let mut packed = [0u64; 16];
        for (dst, &src) in packed.iter_mut().zip(values) {
            *dst = to_u64(src);
        }
        self.set_value(index, packed)
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: created in `Program::kernel`, released exactly once; enqueued
        // commands keep their own reference.
        let _ = unsafe { k::release_kernel(self.kernel) };
    }
}

/// `usize` to `u64`, which cannot fail on the 32- and 64-bit targets silt builds for.
fn to_u64(v: usize) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

impl Queue {
    /// Enqueues `kernel` over `global` work-items in groups of `local`
    /// (`global` a multiple of `local`). Asynchronous, in queue order.
    pub(crate) fn launch(
        &self,
        kernel: &Kernel<'_>,
        global: usize,
        local: usize,
    ) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueNDRangeKernel", c);
        if global == 0 {
            return Ok(());
        }
        let (g, l) = ([global], [local]);
        let runtime = cl3::load_library()
            .as_ref()
            .map_err(|_| fail(codes::DLOPEN_RUNTIME_LOAD_FAILED))?;
        // The loader's wrapper is a safe call; what makes it sound: the kernel is
        // valid and its arguments were set by `Kernel::set_*`, which keep no
        // pointers; the work sizes point at live arrays of one entry each,
        // matching work_dim 1; a null event asks for none (OpenCL 1.2 section
        // 5.8: no event object is made, saving an allocation and a release per
        // launch). The queue retains the kernel and the buffers its arguments
        // name until the command has run.
        let status = runtime
            .clEnqueueNDRangeKernel(
                self.queue,
                kernel.kernel,
                1,
                ptr::null(),
                g.as_ptr(),
                l.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
            .ok_or_else(|| fail(codes::DLOPEN_FUNCTION_NOT_AVAILABLE))?;
        if status == codes::CL_SUCCESS {
            thread_exit::note_launch();
            Ok(())
        } else {
            Err(fail(status))
        }
    }
}

//! Programs and kernels: build from source, create kernels, set arguments, launch.

use std::ffi::{c_void, CStr, CString};
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr;

use opencl3::error_codes as codes;
use opencl3::kernel as k;
use opencl3::program as p;
use opencl3::types::{cl_kernel, cl_mem, cl_program};

use super::{Mem, Queue};

/// A built OpenCL program; released once on drop.
#[derive(Debug)]
pub(crate) struct Program {
    program: cl_program,
}

// SAFETY: program objects are thread-safe OpenCL objects (OpenCL 1.2 appendix A.2);
// `Program` only creates kernels from it and releases it once.
unsafe impl Send for Program {}
// SAFETY: as above.
unsafe impl Sync for Program {}

/// Why a program did not build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BuildFailure {
    pub code: i32,
    pub log: String,
}

impl Queue {
    /// Builds `source` for this queue's device with `options`.
    pub(crate) fn build(&self, source: &str, options: &str) -> Result<Program, BuildFailure> {
        let fail = |code| BuildFailure {
            code,
            log: String::new(),
        };
        let options = CString::new(options).map_err(|_| fail(codes::CL_INVALID_BUILD_OPTIONS))?;
        let program = Program {
            program: p::create_program_with_source(self.context, &[source]).map_err(fail)?,
        };
        match p::build_program(
            program.program,
            &[self.device],
            &options,
            None,
            ptr::null_mut(),
        ) {
            Ok(()) => Ok(program),
            Err(code) => Err(BuildFailure {
                code,
                log: match p::get_program_build_info(
                    program.program,
                    self.device,
                    p::CL_PROGRAM_BUILD_LOG,
                ) {
                    Ok(cl3::info_type::InfoType::VecUchar(mut bytes)) => {
                        while bytes.last() == Some(&0) {
                            bytes.pop();
                        }
                        String::from_utf8_lossy(&bytes).into_owned()
                    }
                    _ => String::new(),
                },
            }),
        }
    }

    /// Creates a program from a binary this device produced earlier and builds
    /// it (fast: the driver only links what it compiled before).
    pub(crate) fn build_binary(
        &self,
        binary: &[u8],
        options: &str,
    ) -> Result<Program, BuildFailure> {
        let fail = |code| BuildFailure {
            code,
            log: String::new(),
        };
        let options = CString::new(options).map_err(|_| fail(codes::CL_INVALID_BUILD_OPTIONS))?;
        // SAFETY: one device and one binary, as clCreateProgramWithBinary requires;
        // the driver copies the bytes during the call.
        let raw = unsafe { p::create_program_with_binary(self.context, &[self.device], &[binary]) }
            .map_err(fail)?;
        let program = Program { program: raw };
        p::build_program(
            program.program,
            &[self.device],
            &options,
            None,
            ptr::null_mut(),
        )
        .map_err(fail)?;
        Ok(program)
    }

    /// Enqueues `kernel` over `global` work-items in groups of `local`
    /// (`global` a multiple of `local`). Asynchronous, in queue order.
    pub(crate) fn launch(
        &self,
        kernel: &Kernel<'_>,
        global: usize,
        local: usize,
    ) -> Result<(), i32> {
        if global == 0 {
            return Ok(());
        }
        let (g, l) = ([global], [local]);
        let runtime = cl3::load_library()
            .as_ref()
            .map_err(|_| codes::DLOPEN_RUNTIME_LOAD_FAILED)?;
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
            .ok_or(codes::DLOPEN_FUNCTION_NOT_AVAILABLE)?;
        if status == codes::CL_SUCCESS {
            crate::device::note_launch();
            Ok(())
        } else {
            Err(status)
        }
    }
}

impl Program {
    /// The device binary of the program (what `build_binary` takes back).
    pub(crate) fn binary(&self) -> Result<Vec<u8>, i32> {
        match p::get_program_info(self.program, p::CL_PROGRAM_BINARIES)? {
            cl3::info_type::InfoType::VecVecUchar(mut v) if !v.is_empty() => Ok(v.swap_remove(0)),
            _ => Err(codes::CL_INVALID_PROGRAM),
        }
    }

    /// Creates the kernel `name` (a fresh object: kernels are not thread-safe).
    pub(crate) fn kernel<'a>(&self, name: &CStr) -> Result<Kernel<'a>, i32> {
        Ok(Kernel {
            kernel: k::create_kernel(self.program, name)?,
            _args: PhantomData,
        })
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created in `Queue::build`, released exactly once here.
        let _ = unsafe { p::release_program(self.program) };
    }
}

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
        Kernel {
            kernel: this.kernel,
            _args: PhantomData,
        }
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
    /// Ends the launch's use of the kernel object (after it was enqueued: the
    /// command keeps the arguments it was given).
    pub(crate) fn park(self) -> IdleKernel {
        let this = ManuallyDrop::new(self);
        IdleKernel {
            kernel: this.kernel,
        }
    }

    /// The largest work-group this kernel can run with on `queue`'s device.
    pub(crate) fn work_group_size(&self, queue: &Queue) -> Result<usize, i32> {
        match k::get_kernel_work_group_info(
            self.kernel,
            queue.device,
            k::CL_KERNEL_WORK_GROUP_SIZE,
        )? {
            cl3::info_type::InfoType::Size(n) => Ok(n),
            _ => Err(codes::CL_INVALID_VALUE),
        }
    }

    /// Sets argument `index` to a buffer.
    pub(crate) fn set_mem(&mut self, index: u32, mem: &'a Mem) -> Result<(), i32> {
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
    }

    /// Sets argument `index` to a plain value (a scalar of the kernel's C type).
    pub(crate) fn set_value<T: bytemuck::NoUninit>(
        &mut self,
        index: u32,
        value: T,
    ) -> Result<(), i32> {
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
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: created in `Program::kernel`, released exactly once; enqueued
        // commands keep their own reference.
        let _ = unsafe { k::release_kernel(self.kernel) };
    }
}

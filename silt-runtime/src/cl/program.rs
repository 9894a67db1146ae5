//! Programs: built from source or from a binary, and the kernels made from them.

use std::ffi::{CStr, CString};
use std::ptr;

use opencl3::error_codes as codes;
use opencl3::kernel as k;
use opencl3::program as p;
use opencl3::types::cl_program;

use super::error::ClError;
use super::kernel::Kernel;
use super::queue::Queue;

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
    /// The error code of `clBuildProgram` (or of the call before it).
    pub(crate) code: i32,
    /// The compiler's build log (empty when there is none).
    pub(crate) log: String,
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
}

impl Program {
    /// The device binary of the program (what `build_binary` takes back).
    pub(crate) fn binary(&self) -> Result<Vec<u8>, ClError> {
        let fail = |c| ClError::new("clGetProgramInfo", c);
        match p::get_program_info(self.program, p::CL_PROGRAM_BINARIES).map_err(fail)? {
            cl3::info_type::InfoType::VecVecUchar(mut v) if !v.is_empty() => Ok(v.swap_remove(0)),
            _ => Err(fail(codes::CL_INVALID_PROGRAM)),
        }
    }

    /// Creates the kernel `name` (a fresh object: kernels are not thread-safe).
    pub(crate) fn kernel<'a>(&self, name: &CStr) -> Result<Kernel<'a>, ClError> {
        KERNELS_MADE.with(|n| n.set(n.get() + 1));
        k::create_kernel(self.program, name)
            .map(Kernel::new)
            .map_err(|c| ClError::new("clCreateKernel", c))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created in `Queue::build`, released exactly once here.
        let _ = unsafe { p::release_program(self.program) };
    }
}

thread_local! {
    /// The kernel objects this thread has asked the driver for.
    static KERNELS_MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many kernel objects this thread has asked the driver for
/// (`clCreateKernel`, failed calls included).
pub(crate) fn kernels_made() -> usize {
    KERNELS_MADE.with(std::cell::Cell::get)
}

//! What a failed OpenCL call reports ([`ClError`]), and the error codes the
//! runtime looks at or reports itself.

use opencl3::error_codes as c;

/// A failed OpenCL call: which call, and the code it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClError {
    /// The OpenCL function (`clEnqueueReadBuffer`, ...).
    pub(crate) call: &'static str,
    /// The error code it returned (or one of the ICD loader's codes).
    pub(crate) code: i32,
}

impl ClError {
    pub(crate) const fn new(call: &'static str, code: i32) -> Self {
        ClError { call, code }
    }
}

/// OpenCL error codes the runtime reports itself.
pub(crate) mod codes {
    use opencl3::error_codes as c;
    /// `CL_OUT_OF_RESOURCES`.
    pub(crate) const OUT_OF_RESOURCES: i32 = c::CL_OUT_OF_RESOURCES;
    /// `CL_MEM_OBJECT_ALLOCATION_FAILURE`: an allocation the driver refused.
    pub(crate) const ALLOCATION_FAILURE: i32 = c::CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

/// The name of an OpenCL error code (`"CL_OUT_OF_RESOURCES"`).
pub(crate) fn error_name(code: i32) -> &'static str {
    c::error_text(code)
}

/// `CL_MEM_OBJECT_ALLOCATION_FAILURE`, `CL_OUT_OF_RESOURCES` or `CL_OUT_OF_HOST_MEMORY`.
pub(crate) fn is_out_of_memory(code: i32) -> bool {
    matches!(
        code,
        c::CL_MEM_OBJECT_ALLOCATION_FAILURE | c::CL_OUT_OF_RESOURCES | c::CL_OUT_OF_HOST_MEMORY
    )
}

/// Whether `code` says that the OpenCL loader (`libOpenCL.so.1`) or one of its
/// functions could not be loaded, rather than that a platform answered.
pub(crate) fn is_loader_failure(code: i32) -> bool {
    matches!(
        code,
        c::DLOPEN_RUNTIME_LOAD_FAILED | c::DLOPEN_FUNCTION_NOT_AVAILABLE
    )
}

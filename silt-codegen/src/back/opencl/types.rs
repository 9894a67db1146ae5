//! How OpenCL C spells the element types.

use silt_abi::DType;

/// How OpenCL C spells an element type.
pub trait ClType {
    /// The OpenCL C type of a value in code (`bool` is `bool`, `f16` is `float`).
    fn value_type(self) -> &'static str;
    /// The OpenCL C type of an element in a buffer or a kernel argument (`f16`
    /// as its bits: `half` needs `cl_khr_fp16` for anything but pointers).
    fn storage_type(self) -> &'static str;
    /// The OpenCL type that integer arithmetic of this type is done in: unsigned
    /// (so that overflow wraps instead of being undefined) and at least 32 bits (so
    /// that C's promotion to `int` cannot overflow).
    fn cl_wide_unsigned(self) -> &'static str;
}

impl ClType for DType {
    fn value_type(self) -> &'static str {
        silt_abi::opencl::value_type(self)
    }

    fn storage_type(self) -> &'static str {
        silt_abi::opencl::storage_type(self)
    }

    fn cl_wide_unsigned(self) -> &'static str {
        if self.bits() == 64 {
            "ulong"
        } else {
            "uint"
        }
    }
}

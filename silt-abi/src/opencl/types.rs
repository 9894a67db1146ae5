//! The OpenCL C types of arguments, and how a parameter is passed.

use crate::dtype::DType;

/// The OpenCL C type that carries one element in a buffer or as a scalar
/// argument of an entry point: `uchar` for `bool`, and `ushort` for `f16`,
/// whose bits travel unchanged (OpenCL C allows `half` values only with
/// `cl_khr_fp16`).
///
/// ```
/// # use silt_abi::{opencl::storage_type, DType};
/// assert_eq!(storage_type(DType::F16), "ushort");
/// assert_eq!(storage_type(DType::Bool), "uchar");
/// assert_eq!(storage_type(DType::F64), "double");
/// ```
pub const fn storage_type(d: DType) -> &'static str {
    match d {
        DType::F16 => "ushort",
        other => other.cl_name(),
    }
}

/// The OpenCL C type of a shape or strides argument: [`MAX_DIMS`](crate::MAX_DIMS)
/// `ulong`s, in elements, outermost dimension first; unused trailing entries are 0.
pub const DIMS_TYPE: &str = "ulong16";

const _: () = assert!(crate::MAX_DIMS == 16, "DIMS_TYPE holds MAX_DIMS ulongs");

/// The OpenCL C type of the dimension count argument ([`MapArg::Ndim`](super::MapArg::Ndim)).
pub const NDIM_TYPE: &str = "uint";

/// The OpenCL C type of offsets ([`MapArg::Offset`](super::MapArg::Offset)) and of the element count
/// ([`MapArg::Len`](super::MapArg::Len)).
pub const COUNT_TYPE: &str = "ulong";

/// How a kernel parameter reaches an entry point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// A tensor view (an input or an in/out parameter): its buffer, its offset,
    /// and in the strided entry its strides.
    Tensor,
    /// One value for all elements, as [`storage_type`] of its dtype.
    Scalar,
    /// Nothing: the entry point computes it (`#[index]`).
    Index,
}

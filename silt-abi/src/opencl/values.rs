//! How element values cross between buffers and body functions, and what a
//! body function takes: what a generated entry point does around its call of a
//! kernel's body, and what a program composed at run time (a fused chain of
//! kernels) must do the same way.

use crate::dtype::DType;

/// The C function that reads an `f16` from its bits (`ushort`) as a `float`.
pub const F16_LOAD: &str = "silt_f16_load";

/// The C function that turns an `f16` value (a `float`) back into its bits.
pub const F16_BITS: &str = "silt_f16_bits";

/// The C type of a value of `d` inside a body function: `bool` for `bool`,
/// `float` for `f16` (rounded to `f16` after every operation), else the
/// element's own type.
///
/// ```
/// use silt_abi::{opencl::value_type, DType};
/// assert_eq!(value_type(DType::F16), "float");
/// assert_eq!(value_type(DType::Bool), "bool");
/// assert_eq!(value_type(DType::I8), "char");
/// ```
pub const fn value_type(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::F16 => "float",
        other => other.cl_name(),
    }
}

/// The C expression that reads the element `v` (as stored in a buffer or
/// passed as an argument, [`storage_type`](super::storage_type)) as a value.
///
/// ```
/// use silt_abi::{opencl::load, DType};
/// assert_eq!(load(DType::F16, "x[i]"), "silt_f16_load(x[i])");
/// assert_eq!(load(DType::Bool, "b"), "(b != 0)");
/// assert_eq!(load(DType::F32, "x[i]"), "x[i]");
/// ```
pub fn load(d: DType, v: &str) -> String {
    match d {
        DType::Bool => format!("({v} != 0)"),
        DType::F16 => format!("{F16_LOAD}({v})"),
        _ => v.to_owned(),
    }
}

/// The C expression that turns the value `v` into what a buffer stores.
///
/// ```
/// use silt_abi::{opencl::store, DType};
/// assert_eq!(store(DType::F16, "r"), "silt_f16_bits(r)");
/// assert_eq!(store(DType::Bool, "r"), "(uchar)(r)");
/// ```
pub fn store(d: DType, v: &str) -> String {
    match d {
        DType::Bool => format!("(uchar)({v})"),
        DType::F16 => format!("{F16_BITS}({v})"),
        _ => v.to_owned(),
    }
}

/// One parameter of a kernel's body function, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyParam {
    /// An element of an input tensor, passed as a value of [`value_type`].
    Value(DType),
    /// A `#[scalar]`, passed as a value of [`value_type`].
    Scalar(DType),
    /// The element's index, a `ulong`.
    Index,
    /// An element read and written in place, passed as a pointer to a value.
    InOut(DType),
}

//! Element types as the code generator sees them: silt's [`DType`], defined once
//! in `silt-abi` for the code generator and the runtime alike.
//!
//! [`DType`]: silt_abi::DType

/// A scalar element type of a kernel body (`f16` values are carried as `f32`
/// and rounded to `f16` after every operation).
pub use silt_abi::DType as Ty;

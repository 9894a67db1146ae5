//! What silt's code generator and its runtime must agree on, defined once.
//!
//! - [`DType`]: the twelve element types and their facts (name, size, kind);
//! - [`round_f16`], [`f16_bits`]: how a value becomes an `f16` (literals, casts,
//!   results) and its bits;
//! - [`MAX_DIMS`]: the most dimensions a tensor, and so a launch, may have;
//! - [`opencl`]: the OpenCL target: the launch ABI (the arguments of every
//!   generated entry point in order, the types that carry elements, entry
//!   names) and the writer of program text (header, layout, entry-point
//!   declarations).
//!
//! The code generator (`silt-codegen`) emits programs by these definitions and
//! the runtime (`silt-runtime`) launches them by the same ones, so neither keeps
//! a copy of its own. Users see [`DType`] and [`MAX_DIMS`] through `silt`.

mod dtype;
mod half;
pub mod opencl;

pub use dtype::DType;
pub use half::{f16_bits, f16_to_f32, f32_to_f16, round_f16};

/// The most dimensions a tensor may have. Shapes and strides travel to entry
/// points as one OpenCL vector of this many `ulong`s ([`opencl::DIMS_TYPE`]).
pub const MAX_DIMS: usize = 16;

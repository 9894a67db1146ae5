//! Backends: each reads only the typed IR and writes one target.
//!
//! - [`opencl`]: OpenCL C programs, with entry points by the launch ABI;
//! - [`rust`]: the body as plain Rust for one element (the host backend and
//!   `eval`).
//!
//! A backend never reaches into another; what they share (element types,
//! builtins, the IR) lives above them.

pub mod opencl;
pub mod rust;

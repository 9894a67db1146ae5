//! The standard elementwise kernel library of silt.
//!
//! Empty for now: its kernels are written with `#[kernel]` once the attribute exists.

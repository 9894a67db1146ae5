//! The `#[kernel]` attribute macro of silt: a thin shell over `silt-codegen`.
//!
//! Empty for now; the attribute arrives with the kernel issue.

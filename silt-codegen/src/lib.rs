//! The code generator behind `#[kernel]`: parse, check, typed IR, emit.
//!
//! Empty for now; the attribute arrives with the kernel issue.

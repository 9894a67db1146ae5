//! Kernel programs independent of any device: their text as generated code
//! registers it, how a crate's kernels are grouped into programs, and the
//! on-disk cache of built binaries. A device's built programs are in
//! `device::programs`.

pub(crate) mod disk;
pub(crate) mod grouping;
pub(crate) mod kernel_ref;
pub(crate) mod text;

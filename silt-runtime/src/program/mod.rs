//! Kernel programs independent of any device: their text as generated code
//! registers it, how a crate's kernels are grouped into programs, the
//! on-disk cache of built binaries and the thread that saves them. A device's built programs are in
//! `device::programs`.

pub(crate) mod disk;
pub(crate) mod grouping;
pub(crate) mod kernel_ref;
pub(crate) mod saver;
pub(crate) mod text;

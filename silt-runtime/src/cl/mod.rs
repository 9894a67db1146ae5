//! The OpenCL FFI layer: the only module that touches raw OpenCL handles, and the
//! runtime's lowest layer (it uses nothing else of the crate).
//!
//! Every handle is owned by an RAII type whose `Drop` releases it exactly once and
//! never panics. No raw handle leaves the crate. A failed call is a [`ClError`]
//! (the call and its code), or a [`BuildFailure`] with the compiler's log.

mod error;
mod kernel;
mod memory;
mod platform;
mod program;
mod queue;
mod thread_exit;

pub(crate) use error::{codes, error_name, is_loader_failure, is_out_of_memory, ClError};
pub(crate) use kernel::{IdleKernel, Kernel, KernelLimits};
pub(crate) use memory::Mem;
pub use memory::{buffer_counts, BufferCounts};
pub(crate) use platform::{all_devices, device_info, DeviceId, RawInfo};
pub(crate) use program::{kernels_made, BuildFailure, Program};
pub(crate) use queue::Queue;
pub(crate) use thread_exit::{on_thread_exit, thread_exit_finishes};

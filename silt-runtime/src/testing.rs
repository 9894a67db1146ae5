//! Hooks for silt's own tests and benchmarks: they force a failure, a
//! device's missing feature or a particular way of running, so that tests can
//! reach paths a working device never takes, and they give benchmarks a
//! baseline. Not a stable API: they may change or go in any release, and
//! nothing outside silt's repository should call them. The `silt` facade
//! re-exports this module as `silt::__testing`.
//!
//! The hooks that say "this thread" set a thread-local override: launches on
//! other threads (rayon's workers included) do not see it, and a test sets it
//! back (`None`, `false`) when it is done.

use crate::cl;
use crate::device::{hooks, set_source_hook as set_hook, Device, DeviceKind};
use crate::dtype::DType;
use crate::error::Result;
use crate::launch::host::SIMD_OFF;
use crate::tensor::Tensor;

/// How many threads that enqueued kernels have waited for every OpenCL queue
/// as they ended, over the whole process (threads that enqueued nothing do
/// not wait and are not counted).
pub fn thread_exit_finishes() -> usize {
    cl::thread_exit_finishes()
}

/// How many OpenCL kernel objects this thread has made (`clCreateKernel`):
/// launches and the runtime's copies reuse theirs, so a warm loop of them
/// makes none.
pub fn kernel_objects_made() -> usize {
    cl::kernels_made()
}

/// Makes `device` report that it lacks `cl_khr_fp64` (`hide`), or has it
/// again, to test how code handles such devices (an `f64` launch on it fails
/// with [`Error::MissingExtension`](crate::Error::MissingExtension)).
pub fn hide_fp64(device: &Device, hide: bool) {
    hooks::hide_fp64(device, hide);
}

/// Makes `device` report that it lacks 64-bit atomics
/// (`cl_khr_int64_base_atomics` and `cl_khr_int64_extended_atomics`;
/// `hide`), or has them again, to test how code handles such devices (a
/// grid kernel with an atomic on a 64-bit element fails on it with
/// [`Error::MissingExtension`](crate::Error::MissingExtension)).
pub fn hide_int64_atomics(device: &Device, hide: bool) {
    hooks::hide_int64_atomics(device, hide);
}

/// Makes `device` act as Oclgrind's simulator (`on`), or as itself again:
/// program binaries saved on the launching thread, buffers of the exact size
/// asked and untouched when new, fills as host writes. To test those paths
/// without Oclgrind.
pub fn act_as_oclgrind(device: &Device, on: bool) {
    hooks::act_as_oclgrind(device, on);
}

/// Makes the next `n` driver allocations on `device` fail as if the device
/// were out of memory, to test how code handles allocation failures.
pub fn inject_alloc_failures(device: &Device, n: u32) {
    hooks::inject_alloc_failures(device, n);
}

/// Makes the next `n` kernel enqueues that this thread makes on an OpenCL
/// device (any device) fail as the driver would with `CL_OUT_OF_RESOURCES`,
/// to test how code handles that. Other threads' launches are not affected.
pub fn inject_enqueue_failures(n: u32) {
    hooks::inject_enqueue_failures(n);
}

/// Makes this thread's host chunks run their element loops as compiled for
/// the build's target (`false`) instead of the AVX2 copy where the CPU has it
/// (`true`, the default), to check that both give the same bits. Launches
/// above `HOST_SERIAL_MAX` (2^19) elements run chunks on rayon's threads,
/// which this does not reach.
pub fn host_simd(on: bool) {
    SIMD_OFF.with(|o| o.set(!on));
}

/// Makes this thread's reductions, scans and transposing copies on OpenCL
/// devices, and silt-kernels' row-wise operations and sorts on every device,
/// share out their work among work-items as they would on a device of `kind`
/// (`None`: their own device's way), to test every way on one device: the
/// results must not change.
pub fn reduce_as(kind: Option<DeviceKind>) {
    hooks::set_reduce_as(kind);
}

/// Makes this thread's fused chains take every device to accept at most `n`
/// bytes of kernel arguments (`None`: what each device reports), to run the
/// fallback for chains too wide for a device.
pub fn max_parameter_bytes(n: Option<usize>) {
    hooks::set_max_parameter_bytes(n);
}

/// Makes this thread's launches on OpenCL devices use work-groups of `n`
/// work-items (within what each kernel allows; `None`: the device's own
/// choice), to check that no result depends on it and to measure each size.
pub fn local_size(n: Option<usize>) {
    hooks::set_local_size(n);
}

/// Makes this thread fill every device buffer it allocates without
/// initialising it (the output of a launch, which the kernel is to overwrite
/// entirely) with copies of `byte` (`None`: as the allocator gives it, the
/// default). With a byte whose copies are NaN or an unlikely integer
/// (`0xFF`: NaN in every float type, -1 or the maximum in the integers), a
/// kernel that leaves part of its output unwritten shows in its results.
pub fn poison_uninit(byte: Option<u8>) {
    hooks::set_poison(byte);
}

/// Makes this thread, as a reader of host storage, let a writer waiting for
/// the same storage go first for up to `patience` (`None`: the default,
/// 100 ms), when it holds no other host storage's guard.
pub fn reader_patience(patience: Option<std::time::Duration>) {
    crate::storage::set_reader_patience(patience);
}

/// Creates a buffer of `nbytes` straight from `device`'s driver and releases
/// it, bypassing the pool: the baseline the pool is measured against. With
/// `touch`, the buffer is first made real with a one-byte write, as the pool
/// does on a miss. Does nothing on the host.
///
/// # Errors
/// The driver's error.
pub fn driver_alloc_release(device: &Device, nbytes: usize, touch: bool) -> Result<()> {
    hooks::driver_alloc_release(device, nbytes, touch)
}

/// A tensor of `shape` on `device` whose storage is not initialised (on the
/// host it is zeroed): what a launch allocates for an output it overwrites
/// entirely, for benchmarks of the pool and tests of allocation limits.
///
/// # Errors
/// [`Error::TooManyDims`](crate::Error::TooManyDims),
/// [`Error::SizeOverflow`](crate::Error::SizeOverflow), and allocation errors.
pub fn uninit(device: &Device, dtype: DType, shape: &[usize]) -> Result<Tensor> {
    Tensor::uninit(device, dtype, shape)
}

/// Sets (or, with `None`, removes) a function that rewrites the text of every
/// program before it is built, to make a generated program fail to build.
/// It applies to every thread; programs already built are not built again.
pub fn set_source_hook(hook: Option<fn(&str) -> String>) {
    set_hook(hook);
}

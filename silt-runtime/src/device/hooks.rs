//! The device's side of the hooks silt's tests and benchmarks use (the
//! public face is the crate's `testing` module): injected allocation and
//! enqueue failures, a hidden `cl_khr_fp64`, a device acting as Oclgrind, the
//! per-thread overrides of how reductions share out their work, of the
//! argument bytes a device accepts and of the work-group size, a poison for
//! storage not initialised, and the driver's own allocation as a baseline
//! for the pool.

use std::cell::Cell;
use std::sync::atomic::Ordering;

use crate::error::Result;

use super::{Device, DeviceKind};

thread_local! {
    /// Kernel enqueues of this thread still to fail (a test hook).
    static ENQUEUE_FAILURES: Cell<u32> = const { Cell::new(0) };
    /// The kind of device whose way this thread's reductions share out their
    /// work, whatever the device (a test hook).
    static REDUCE_AS: Cell<Option<DeviceKind>> = const { Cell::new(None) };
    /// The argument bytes this thread's fused chains take the device to
    /// accept, whatever it reports (a test hook).
    static PARAMETER_BYTES: Cell<Option<usize>> = const { Cell::new(None) };
    /// The byte this thread's uninitialised device storage is filled with
    /// (a test hook).
    static POISON: Cell<Option<u8>> = const { Cell::new(None) };
}

/// The byte this thread's uninitialised device storage is to be filled with
/// (see [`set_poison`]).
pub(crate) fn poison() -> Option<u8> {
    POISON.with(Cell::get)
}

/// Makes this thread fill every device storage that is not initialised (an
/// output a kernel is to overwrite entirely) with copies of `byte` (`None`:
/// leave it as the allocator gives it).
pub(crate) fn set_poison(byte: Option<u8>) {
    POISON.with(|p| p.set(byte));
}

/// The most argument bytes a kernel may take on `device` (see
/// [`set_max_parameter_bytes`]).
pub(crate) fn max_parameter_bytes(device: &Device) -> usize {
    PARAMETER_BYTES
        .with(Cell::get)
        .unwrap_or(device.info().max_parameter_bytes)
}

/// The kind of device a reduction on `kind` shares out its work as (see
/// [`set_reduce_as`]).
pub(crate) fn reduce_as(kind: DeviceKind) -> DeviceKind {
    REDUCE_AS.with(Cell::get).unwrap_or(kind)
}

/// Whether this thread's next kernel enqueue is to fail (see
/// [`inject_enqueue_failures`]); counts it down.
pub(crate) fn take_injected_enqueue_failure() -> bool {
    ENQUEUE_FAILURES.with(|f| {
        let n = f.get();
        f.set(n.saturating_sub(1));
        n > 0
    })
}

/// Makes `device` report that it lacks `cl_khr_fp64` (or has it again).
pub(crate) fn hide_fp64(device: &Device, hide: bool) {
    device.inner.hide_fp64.store(hide, Ordering::Relaxed);
}

/// Makes `device` report that it lacks 64-bit atomics (or has them again).
pub(crate) fn hide_int64_atomics(device: &Device, hide: bool) {
    device
        .inner
        .hide_int64_atomics
        .store(hide, Ordering::Relaxed);
}

/// Makes `device` act as Oclgrind's simulator (or as itself again; see
/// `Device::is_oclgrind`).
pub(crate) fn act_as_oclgrind(device: &Device, on: bool) {
    device.inner.oclgrind.store(on, Ordering::Relaxed);
}

/// Makes the next `n` driver allocations on `device` fail as if it were out
/// of memory.
pub(crate) fn inject_alloc_failures(device: &Device, n: u32) {
    device.inner.pool.inject_failures(n);
}

/// Makes the next `n` kernel enqueues this thread makes on an OpenCL device
/// fail as the driver would with `CL_OUT_OF_RESOURCES`.
pub(crate) fn inject_enqueue_failures(n: u32) {
    ENQUEUE_FAILURES.with(|f| f.set(n));
}

/// Makes this thread's reductions share out their work as on a device of
/// `kind` (`None`: their device's own way).
pub(crate) fn set_reduce_as(kind: Option<DeviceKind>) {
    REDUCE_AS.with(|k| k.set(kind));
}

/// Makes this thread's fused chains take every device to accept at most `n`
/// bytes of kernel arguments (`None`: what each device reports).
pub(crate) fn set_max_parameter_bytes(n: Option<usize>) {
    PARAMETER_BYTES.with(|b| b.set(n));
}

/// Makes this thread's launches on OpenCL devices use work-groups of `n`
/// work-items (`None`: the device's own choice).
pub(crate) fn set_local_size(n: Option<usize>) {
    super::geometry::LOCAL_OVERRIDE.with(|o| o.set(n));
}

/// Creates a buffer of `nbytes` straight from `device`'s driver and releases
/// it, bypassing the pool; with `touch`, first writes one byte to it. Nothing
/// on the host.
///
/// # Errors
/// The driver's error.
pub(crate) fn driver_alloc_release(device: &Device, nbytes: usize, touch: bool) -> Result<()> {
    let Some(queue) = device.queue() else {
        return Ok(());
    };
    let mem = queue.create_buffer(nbytes.max(1))?;
    if touch {
        queue.write(&mem, 0, &[0])?;
    }
    drop(mem);
    Ok(())
}

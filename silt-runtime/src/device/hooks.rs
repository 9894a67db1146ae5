//! Hidden hooks for silt's tests and benchmarks: injected allocation and
//! enqueue failures, a hidden `cl_khr_fp64`, the thread-exit counter, and the
//! driver's own allocation as a baseline for the pool.

use std::cell::Cell;
use std::sync::atomic::Ordering;

use crate::cl;
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
}

/// The most argument bytes a kernel may take on `device` (see
/// [`Device::__max_parameter_bytes`]).
pub(crate) fn max_parameter_bytes(device: &Device) -> usize {
    PARAMETER_BYTES
        .with(Cell::get)
        .unwrap_or(device.info().max_parameter_bytes)
}

/// The kind of device a reduction on `kind` shares out its work as (see
/// [`Device::__reduce_as`]).
pub(crate) fn reduce_as(kind: DeviceKind) -> DeviceKind {
    REDUCE_AS.with(Cell::get).unwrap_or(kind)
}

/// Whether this thread's next kernel enqueue is to fail (see
/// [`Device::__inject_enqueue_failures`]); counts it down.
pub(crate) fn take_injected_enqueue_failure() -> bool {
    ENQUEUE_FAILURES.with(|f| {
        let n = f.get();
        f.set(n.saturating_sub(1));
        n > 0
    })
}

impl Device {
    /// How many threads that enqueued kernels have waited for every OpenCL
    /// queue as they ended (see `cl::thread_exit`), for tests.
    #[doc(hidden)]
    pub fn __thread_exit_finishes() -> usize {
        cl::thread_exit_finishes()
    }

    /// Makes this device report that it lacks `cl_khr_fp64` (or has it again), to
    /// test how code handles such devices.
    #[doc(hidden)]
    pub fn __hide_fp64(&self, hide: bool) {
        self.inner.hide_fp64.store(hide, Ordering::Relaxed);
    }

    /// Makes the next `n` driver allocations on this device fail as if the device
    /// were out of memory. For testing how code handles allocation failures.
    #[doc(hidden)]
    pub fn __inject_alloc_failures(&self, n: u32) {
        self.inner.pool.inject_failures(n);
    }

    /// Makes the next `n` kernel enqueues that this thread makes on an OpenCL
    /// device fail as the driver would with `CL_OUT_OF_RESOURCES`, to test how
    /// code handles that (other threads' launches are not affected).
    #[doc(hidden)]
    pub fn __inject_enqueue_failures(&self, n: u32) {
        ENQUEUE_FAILURES.with(|f| f.set(n));
    }

    /// Makes this thread's host chunks run their element loops as compiled for
    /// the build's target (`false`) instead of the AVX2 copy where the CPU has
    /// it (`true`, the default), to check that both give the same bits.
    /// Launches above `HOST_SERIAL_MAX` elements run chunks on rayon's
    /// threads, which this does not reach.
    #[doc(hidden)]
    pub fn __host_simd(on: bool) {
        crate::launch::host::SIMD_OFF.with(|o| o.set(!on));
    }

    /// Makes this thread's reductions on OpenCL devices share out their work
    /// among work-items as they would on a device of `kind` (`None`: their
    /// own), to test every way on one device: the results must not change.
    #[doc(hidden)]
    pub fn __reduce_as(kind: Option<DeviceKind>) {
        REDUCE_AS.with(|k| k.set(kind));
    }

    /// Makes this thread's fused chains take every device to accept at most
    /// `n` bytes of kernel arguments (`None`: what each device reports), to
    /// run the fallback for chains too wide for a device.
    #[doc(hidden)]
    pub fn __max_parameter_bytes(n: Option<usize>) {
        PARAMETER_BYTES.with(|b| b.set(n));
    }

    /// Makes this thread's launches on OpenCL devices use work-groups of `n`
    /// work-items (within what each kernel allows; `None`: the device's own
    /// choice), to check that no result depends on it and to measure each
    /// size.
    #[doc(hidden)]
    pub fn __local_size(n: Option<usize>) {
        super::geometry::LOCAL_OVERRIDE.with(|o| o.set(n));
    }

    /// Creates a buffer straight from the driver and releases it, bypassing the
    /// pool: the baseline the pool is measured against. With `touch`, the buffer is
    /// first made real with a one-byte write, as the pool does on a miss.
    ///
    /// # Errors
    /// The driver's error.
    #[doc(hidden)]
    pub fn __driver_alloc_release(&self, nbytes: usize, touch: bool) -> Result<()> {
        let Some(queue) = self.queue() else {
            return Ok(());
        };
        let mem = queue.create_buffer(nbytes.max(1))?;
        if touch {
            queue.write(&mem, 0, &[0])?;
        }
        drop(mem);
        Ok(())
    }
}

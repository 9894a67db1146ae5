//! Buffers: [`Mem`], the transfers between them and the host, and the process's
//! count of them.

use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use opencl3::command_queue as cq;
use opencl3::error_codes as cl_codes;
use opencl3::event as ev;
use opencl3::event::CL_COMPLETE;
use opencl3::memory as mem;
use opencl3::types::{cl_event, cl_mem};

use super::error::ClError;
use super::queue::Queue;

static MEM_CREATED: AtomicU64 = AtomicU64::new(0);
static MEM_RELEASED: AtomicU64 = AtomicU64::new(0);
static MEM_LIVE: AtomicI64 = AtomicI64::new(0);

/// Counts of `cl_mem` objects over the whole process: created, released and alive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferCounts {
    /// Buffers ever created through `clCreateBuffer`.
    pub created: u64,
    /// Buffers ever released through `clReleaseMemObject`.
    pub released: u64,
    /// Buffers alive now (held by tensors or by a pool's cache).
    pub live: i64,
}

/// How many OpenCL buffers the process has created, released and holds, over all
/// devices. Buffers cached by a pool count as live until `empty_cache()`.
///
/// ```
/// # use silt_runtime::diagnostics::buffer_counts;
/// # use silt_runtime::{Device, TensorT};
/// if let Ok(dev) = Device::opencl(0) {
///     let before = buffer_counts();
///     let t = TensorT::<f32>::zeros(&dev, [1 << 20])?; // a new 4 MiB buffer
///     assert_eq!(buffer_counts().live, before.live + 1);
///     drop(t); // back to the pool's cache: still alive
///     assert_eq!(buffer_counts().live, before.live + 1);
///     dev.empty_cache(); // released to the driver
///     let after = buffer_counts();
///     assert_eq!(after.live, before.live);
///     assert_eq!(after.created - after.released, before.created - before.released);
/// }
/// # Ok::<(), silt_runtime::Error>(())
/// ```
pub fn buffer_counts() -> BufferCounts {
    BufferCounts {
        created: MEM_CREATED.load(Ordering::SeqCst),
        released: MEM_RELEASED.load(Ordering::SeqCst),
        live: MEM_LIVE.load(Ordering::SeqCst),
    }
}

/// An OpenCL buffer object with its size; released exactly once on drop.
#[derive(Debug)]
pub(crate) struct Mem {
    pub(super) mem: cl_mem,
    size: usize,
}

// SAFETY: memory objects are thread-safe OpenCL objects (spec appendix A.2); `Mem`
// only hands the handle to OpenCL calls and releases it once.
unsafe impl Send for Mem {}
// SAFETY: as above.
unsafe impl Sync for Mem {}

impl Mem {
    /// The buffer's size in bytes.
    pub(crate) fn size(&self) -> usize {
        self.size
    }
}

/// How many buffers have been released so far (counted before each release):
/// a kernel object's remembered buffer arguments are trusted only while this
/// has not moved, since a driver may hand a released buffer's handle to a new
/// buffer.
pub(super) fn release_epoch() -> u64 {
    MEM_RELEASED.load(Ordering::SeqCst)
}

impl Drop for Mem {
    fn drop(&mut self) {
        // counted first: a buffer created after this release, which may get
        // the same handle, is created after the count moved
        MEM_RELEASED.fetch_add(1, Ordering::SeqCst);
        // SAFETY: `mem` came from clCreateBuffer and this is its only release.
        // Commands still queued on it keep it alive inside the driver (OpenCL
        // retains memory objects used by enqueued commands).
        let _ = unsafe { mem::release_mem_object(self.mem) };
        MEM_LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Queue {
    /// Creates a read-write buffer of `size` bytes (`size > 0`).
    pub(crate) fn create_buffer(&self, size: usize) -> Result<Mem, ClError> {
        // SAFETY: the context is valid for the life of `self`; no host pointer is
        // passed, so the flags cannot make the driver read host memory.
        let mem = unsafe {
            mem::create_buffer(self.context, mem::CL_MEM_READ_WRITE, size, ptr::null_mut())
        }
        .map_err(|c| ClError::new("clCreateBuffer", c))?;
        MEM_CREATED.fetch_add(1, Ordering::SeqCst);
        MEM_LIVE.fetch_add(1, Ordering::SeqCst);
        Ok(Mem { mem, size })
    }

    /// Writes `src` into `dst` at byte `offset`, waiting until the write is done.
    pub(crate) fn write(&self, dst: &Mem, offset: usize, src: &[u8]) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueWriteBuffer", c);
        if src.is_empty() {
            return Ok(());
        }
        check_range(dst, offset, src.len()).map_err(fail)?;
        // SAFETY: the write is blocking, so `src` outlives the transfer; the range
        // was checked against the buffer's size above.
        let event = unsafe {
            cq::enqueue_write_buffer(
                self.queue,
                dst.mem,
                opencl3::types::CL_BLOCKING,
                offset,
                src.len(),
                src.as_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        }
        .map_err(fail)?;
        release_event(event);
        Ok(())
    }

    /// Reads `dst.len()` bytes of `src` from byte `offset`, waiting for the read
    /// (and so for all work queued before it).
    pub(crate) fn read(&self, src: &Mem, offset: usize, dst: &mut [u8]) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueReadBuffer", c);
        if dst.is_empty() {
            return Ok(());
        }
        check_range(src, offset, dst.len()).map_err(fail)?;
        // SAFETY: the read is blocking, so `dst` is written before this returns and
        // outlives the transfer; the range was checked against the buffer's size.
        let event = unsafe {
            cq::enqueue_read_buffer(
                self.queue,
                src.mem,
                opencl3::types::CL_BLOCKING,
                offset,
                dst.len(),
                dst.as_mut_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        }
        .map_err(fail)?;
        release_event(event);
        Ok(())
    }

    /// Enqueues a device-side copy of `size` bytes (asynchronous, in queue order).
    pub(crate) fn copy(
        &self,
        src: &Mem,
        src_offset: usize,
        dst: &Mem,
        dst_offset: usize,
        size: usize,
    ) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueCopyBuffer", c);
        if size == 0 {
            return Ok(());
        }
        check_range(src, src_offset, size).map_err(fail)?;
        check_range(dst, dst_offset, size).map_err(fail)?;
        if ptr::eq(src.mem, dst.mem) {
            let (lo, hi) = (src_offset.min(dst_offset), src_offset.max(dst_offset));
            if lo + size > hi {
                return Err(fail(cl_codes::CL_MEM_COPY_OVERLAP));
            }
        }
        // SAFETY: both buffers are valid and the ranges were checked; the queue
        // retains the buffers until the copy has run, so dropping them early is fine.
        let event = unsafe {
            cq::enqueue_copy_buffer(
                self.queue,
                src.mem,
                dst.mem,
                src_offset,
                dst_offset,
                size,
                0,
                ptr::null(),
            )
        }
        .map_err(fail)?;
        release_event(event);
        Ok(())
    }

    /// Enqueues writing `src` at the start of `dst` without waiting for the
    /// commands before it: the bytes are copied into a box that the write's
    /// completion callback frees (the driver reads them when the write
    /// runs), so `src` need not outlive the call. Where the driver takes no
    /// callback, the write is waited for instead.
    pub(crate) fn write_queued(&self, dst: &Mem, src: &[u8]) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueWriteBuffer", c);
        if src.is_empty() {
            return Ok(());
        }
        check_range(dst, 0, src.len()).map_err(fail)?;
        let held: Box<Box<[u8]>> = Box::new(src.into());
        let raw = Box::into_raw(held);
        // SAFETY: the range was checked above; the bytes live in `raw`,
        // which is freed only by `free_written` (after the write completes)
        // or below once the write has been waited for.
        let enqueued = unsafe {
            cq::enqueue_write_buffer(
                self.queue,
                dst.mem,
                opencl3::types::CL_NON_BLOCKING,
                0,
                src.len(),
                (*raw).as_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        };
        let event = match enqueued {
            Ok(event) => event,
            Err(code) => {
                // SAFETY: nothing was enqueued: `raw` is ours alone
                drop(unsafe { Box::from_raw(raw) });
                return Err(fail(code));
            }
        };
        if ev::set_event_callback(event, CL_COMPLETE, free_written, raw.cast::<c_void>()).is_err() {
            // no callback: wait for the write, then free the bytes here
            let waited = ev::wait_for_events(&[event]);
            release_event(event);
            // SAFETY: the write has completed (or failed): the driver no
            // longer reads `raw`, and no callback was registered
            drop(unsafe { Box::from_raw(raw) });
            return waited.map_err(|c| ClError::new("clWaitForEvents", c));
        }
        release_event(event);
        Ok(())
    }

    /// Enqueues filling `size` bytes from `offset` with a repeated `pattern` of
    /// 1, 2, 4, 8, 16, 32, 64 or 128 bytes (asynchronous). `offset` and `size` are
    /// multiples of the pattern's length.
    pub(crate) fn fill(
        &self,
        dst: &Mem,
        offset: usize,
        size: usize,
        pattern: &[u8],
    ) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueFillBuffer", c);
        if size == 0 {
            return Ok(());
        }
        check_range(dst, offset, size).map_err(fail)?;
        if !pattern.len().is_power_of_two()
            || pattern.len() > 128
            || !offset.is_multiple_of(pattern.len())
            || !size.is_multiple_of(pattern.len())
        {
            return Err(fail(cl_codes::CL_INVALID_VALUE));
        }
        // SAFETY: the pattern is copied by the driver when the command is enqueued
        // (clEnqueueFillBuffer's contract), the range was checked above.
        let event = unsafe {
            cq::enqueue_fill_buffer(
                self.queue,
                dst.mem,
                pattern.as_ptr().cast::<c_void>(),
                pattern.len(),
                offset,
                size,
                0,
                ptr::null(),
            )
        }
        .map_err(fail)?;
        release_event(event);
        Ok(())
    }
}

fn check_range(m: &Mem, offset: usize, size: usize) -> Result<(), i32> {
    match offset.checked_add(size) {
        Some(end) if end <= m.size => Ok(()),
        _ => Err(cl_codes::CL_INVALID_VALUE),
    }
}

/// The completion callback of [`Queue::write_queued`]: frees the bytes the
/// write read (the driver calls it once, when the write completes or fails).
extern "C" fn free_written(_event: cl_event, _status: i32, data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: `data` is the `Box<Box<[u8]>>` that `write_queued` leaked
        // for this write, and the driver calls this callback once
        drop(unsafe { Box::from_raw(data.cast::<Box<[u8]>>()) });
    }
}

fn release_event(event: cl_event) {
    if !event.is_null() {
        // SAFETY: the event was returned by an enqueue call and is released once.
        let _ = unsafe { ev::release_event(event) };
    }
}

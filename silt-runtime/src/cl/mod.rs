//! The OpenCL FFI layer: the only module that touches raw OpenCL handles.
//!
//! Every handle is owned by an RAII type whose `Drop` releases it exactly once and
//! never panics. No raw handle leaves the crate.

use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use opencl3::command_queue as cq;
use opencl3::context::context as ctx;
use opencl3::device as dev;
use opencl3::error_codes as cl_codes;
use opencl3::event as ev;
use opencl3::memory as mem;
use opencl3::platform::platform as plat;
use opencl3::types::{
    cl_command_queue, cl_context, cl_device_id, cl_event, cl_mem, cl_platform_id,
};

use crate::error::{Error, Result};

mod program;

pub(crate) use program::{BuildFailure, IdleKernel, Kernel, Program};

/// OpenCL error codes the runtime reports itself.
pub(crate) mod codes {
    use opencl3::error_codes as c;
    /// `CL_INVALID_VALUE`.
    pub(crate) const INVALID_VALUE: i32 = c::CL_INVALID_VALUE;
    /// `CL_INVALID_MEM_OBJECT`.
    pub(crate) const INVALID_MEM: i32 = c::CL_INVALID_MEM_OBJECT;
    /// `CL_INVALID_DEVICE`.
    pub(crate) const INVALID_DEVICE: i32 = c::CL_INVALID_DEVICE;
    /// `CL_OUT_OF_RESOURCES`.
    pub(crate) const OUT_OF_RESOURCES: i32 = c::CL_OUT_OF_RESOURCES;
}

/// The name of an OpenCL error code (`"CL_OUT_OF_RESOURCES"`).
pub(crate) fn error_name(code: i32) -> &'static str {
    cl_codes::error_text(code)
}

/// `CL_MEM_OBJECT_ALLOCATION_FAILURE`, `CL_OUT_OF_RESOURCES` or `CL_OUT_OF_HOST_MEMORY`.
pub(crate) fn is_out_of_memory(code: i32) -> bool {
    matches!(
        code,
        cl_codes::CL_MEM_OBJECT_ALLOCATION_FAILURE
            | cl_codes::CL_OUT_OF_RESOURCES
            | cl_codes::CL_OUT_OF_HOST_MEMORY
    )
}

/// The error code for an allocation the driver refused.
pub(crate) const ALLOCATION_FAILURE: i32 = cl_codes::CL_MEM_OBJECT_ALLOCATION_FAILURE;

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
/// # use silt_runtime::{buffer_counts, Device, TensorT};
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

/// An OpenCL platform and one of its devices.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeviceId {
    platform: cl_platform_id,
    device: cl_device_id,
}

// SAFETY: platform and device ids are process-wide identifiers that OpenCL allows to
// be used from any thread; they are never freed (root devices have no release).
unsafe impl Send for DeviceId {}
// SAFETY: as above; the ids are immutable values.
unsafe impl Sync for DeviceId {}

/// Every OpenCL device of every platform, platforms in the ICD loader's order, and
/// the number of platforms.
pub(crate) fn all_devices() -> Result<(Vec<DeviceId>, usize)> {
    let platforms = plat::get_platform_ids().map_err(|code| Error::NoDevice {
        requested: "opencl".into(),
        reason: match code {
            cl_codes::DLOPEN_RUNTIME_LOAD_FAILED | cl_codes::DLOPEN_FUNCTION_NOT_AVAILABLE => {
                "the OpenCL loader libOpenCL.so.1 could not be loaded; install an ICD loader \
                 and a driver (on Debian: apt-get install ocl-icd-libopencl1 pocl-opencl-icd)"
                    .to_string()
            }
            _ => format!(
                "no OpenCL platform found ({}); install a driver (on Debian: apt-get install \
                 pocl-opencl-icd) and check OCL_ICD_VENDORS",
                error_name(code)
            ),
        },
    })?;
    let mut out = Vec::new();
    let count = platforms.len();
    for platform in platforms {
        // A platform with no devices answers CL_DEVICE_NOT_FOUND: skip it.
        if let Ok(devices) = dev::get_device_ids(platform, dev::CL_DEVICE_TYPE_ALL) {
            out.extend(
                devices
                    .into_iter()
                    .map(|device| DeviceId { platform, device }),
            );
        }
    }
    Ok((out, count))
}

/// What silt needs to know about an OpenCL device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawInfo {
    pub name: String,
    pub vendor: String,
    pub version: String,
    pub opencl_c_version: String,
    pub driver_version: String,
    pub platform_name: String,
    pub platform_version: String,
    pub extensions: String,
    pub device_type: u64,
    pub max_alloc: u64,
    pub max_work_group: u64,
    pub single_fp_config: u64,
    pub global_mem: u64,
    pub compute_units: u32,
}

fn info_string(id: DeviceId, param: u32) -> Result<String> {
    match dev::get_device_info(id.device, param).map_err(|c| Error::cl("clGetDeviceInfo", c))? {
        cl3::info_type::InfoType::VecUchar(bytes) => Ok(trim_c_string(bytes)),
        _ => Err(Error::cl("clGetDeviceInfo", cl_codes::CL_INVALID_VALUE)),
    }
}

fn info_platform_string(id: DeviceId, param: u32) -> Result<String> {
    match plat::get_platform_info(id.platform, param)
        .map_err(|c| Error::cl("clGetPlatformInfo", c))?
    {
        cl3::info_type::InfoType::VecUchar(bytes) => Ok(trim_c_string(bytes)),
        _ => Err(Error::cl("clGetPlatformInfo", cl_codes::CL_INVALID_VALUE)),
    }
}

fn trim_c_string(mut bytes: Vec<u8>) -> String {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8_lossy(&bytes).trim().to_string()
}

fn info_u64(id: DeviceId, param: u32) -> Result<u64> {
    use cl3::info_type::InfoType;
    match dev::get_device_info(id.device, param).map_err(|c| Error::cl("clGetDeviceInfo", c))? {
        InfoType::Ulong(v) => Ok(v),
        InfoType::Uint(v) => Ok(u64::from(v)),
        InfoType::Size(v) => Ok(u64::try_from(v).unwrap_or(u64::MAX)),
        _ => Err(Error::cl("clGetDeviceInfo", cl_codes::CL_INVALID_VALUE)),
    }
}

/// Queries the facts of a device.
pub(crate) fn device_info(id: DeviceId) -> Result<RawInfo> {
    Ok(RawInfo {
        name: info_string(id, dev::CL_DEVICE_NAME)?,
        vendor: info_string(id, dev::CL_DEVICE_VENDOR)?,
        version: info_string(id, dev::CL_DEVICE_VERSION)?,
        opencl_c_version: info_string(id, dev::CL_DEVICE_OPENCL_C_VERSION)?,
        driver_version: info_string(id, dev::CL_DRIVER_VERSION)?,
        platform_name: info_platform_string(id, plat::CL_PLATFORM_NAME)?,
        platform_version: info_platform_string(id, plat::CL_PLATFORM_VERSION)?,
        extensions: info_string(id, dev::CL_DEVICE_EXTENSIONS)?,
        device_type: info_u64(id, dev::CL_DEVICE_TYPE)?,
        max_alloc: info_u64(id, dev::CL_DEVICE_MAX_MEM_ALLOC_SIZE)?,
        max_work_group: info_u64(id, dev::CL_DEVICE_MAX_WORK_GROUP_SIZE)?,
        single_fp_config: info_u64(id, dev::CL_DEVICE_SINGLE_FP_CONFIG).unwrap_or(0),
        global_mem: info_u64(id, dev::CL_DEVICE_GLOBAL_MEM_SIZE)?,
        compute_units: u32::try_from(info_u64(id, dev::CL_DEVICE_MAX_COMPUTE_UNITS)?)
            .unwrap_or(u32::MAX),
    })
}

/// An OpenCL context on one device together with its in-order command queue.
#[derive(Debug)]
pub(crate) struct Queue {
    context: cl_context,
    queue: cl_command_queue,
    device: cl_device_id,
}

// SAFETY: OpenCL contexts and command queues are thread-safe objects (OpenCL 1.2
// spec, appendix A.2): every API call taking them may be made from any thread. This
// type only ever passes them to such calls.
unsafe impl Send for Queue {}
// SAFETY: as above; `Queue` exposes no interior state beyond the handles.
unsafe impl Sync for Queue {}

impl Queue {
    /// Creates a context for `id` and an in-order queue on it.
    pub(crate) fn new(id: DeviceId) -> Result<Self> {
        let context = ctx::create_context(&[id.device], ptr::null(), None, ptr::null_mut())
            .map_err(|c| Error::cl("clCreateContext", c))?;
        // SAFETY: `context` was just created for `id.device`; properties 0 asks for
        // a plain in-order queue.
        #[allow(deprecated)]
        let queue = unsafe { cq::create_command_queue(context, id.device, 0) };
        match queue {
            Ok(queue) => Ok(Queue {
                context,
                queue,
                device: id.device,
            }),
            Err(code) => {
                // SAFETY: the context was created above and is released once here.
                let _ = unsafe { ctx::release_context(context) };
                Err(Error::cl("clCreateCommandQueue", code))
            }
        }
    }

    /// Creates a read-write buffer of `size` bytes (`size > 0`).
    pub(crate) fn create_buffer(&self, size: usize) -> Result<Mem, i32> {
        // SAFETY: the context is valid for the life of `self`; no host pointer is
        // passed, so the flags cannot make the driver read host memory.
        let mem = unsafe {
            mem::create_buffer(self.context, mem::CL_MEM_READ_WRITE, size, ptr::null_mut())
        }?;
        MEM_CREATED.fetch_add(1, Ordering::SeqCst);
        MEM_LIVE.fetch_add(1, Ordering::SeqCst);
        Ok(Mem { mem, size })
    }

    /// Writes `src` into `dst` at byte `offset`, waiting until the write is done.
    pub(crate) fn write(&self, dst: &Mem, offset: usize, src: &[u8]) -> Result<(), i32> {
        if src.is_empty() {
            return Ok(());
        }
        check_range(dst, offset, src.len())?;
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
        }?;
        release_event(event);
        Ok(())
    }

    /// Reads `dst.len()` bytes of `src` from byte `offset`, waiting for the read
    /// (and so for all work queued before it).
    pub(crate) fn read(&self, src: &Mem, offset: usize, dst: &mut [u8]) -> Result<(), i32> {
        if dst.is_empty() {
            return Ok(());
        }
        check_range(src, offset, dst.len())?;
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
        }?;
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
    ) -> Result<(), i32> {
        if size == 0 {
            return Ok(());
        }
        check_range(src, src_offset, size)?;
        check_range(dst, dst_offset, size)?;
        if ptr::eq(src.mem, dst.mem) {
            let (lo, hi) = (src_offset.min(dst_offset), src_offset.max(dst_offset));
            if lo + size > hi {
                return Err(cl_codes::CL_MEM_COPY_OVERLAP);
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
        }?;
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
    ) -> Result<(), i32> {
        if size == 0 {
            return Ok(());
        }
        check_range(dst, offset, size)?;
        if !pattern.len().is_power_of_two()
            || pattern.len() > 128
            || offset % pattern.len() != 0
            || size % pattern.len() != 0
        {
            return Err(cl_codes::CL_INVALID_VALUE);
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
        }?;
        release_event(event);
        Ok(())
    }

    /// Waits until everything queued has run.
    pub(crate) fn finish(&self) -> Result<(), i32> {
        cq::finish(self.queue)
    }
}

pub(crate) fn check_range(m: &Mem, offset: usize, size: usize) -> Result<(), i32> {
    match offset.checked_add(size) {
        Some(end) if end <= m.size => Ok(()),
        _ => Err(cl_codes::CL_INVALID_VALUE),
    }
}

pub(crate) fn release_event(event: cl_event) {
    if !event.is_null() {
        // SAFETY: the event was returned by an enqueue call and is released once.
        let _ = unsafe { ev::release_event(event) };
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        // Errors are ignored: there is nothing a destructor can do about them.
        let _ = cq::finish(self.queue);
        // SAFETY: both handles were created in `new` and are released exactly once.
        unsafe {
            let _ = cq::release_command_queue(self.queue);
            let _ = ctx::release_context(self.context);
        }
    }
}

/// An OpenCL buffer object with its size; released exactly once on drop.
#[derive(Debug)]
pub(crate) struct Mem {
    mem: cl_mem,
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

impl Drop for Mem {
    fn drop(&mut self) {
        // SAFETY: `mem` came from clCreateBuffer and this is its only release.
        // Commands still queued on it keep it alive inside the driver (OpenCL
        // retains memory objects used by enqueued commands).
        let _ = unsafe { mem::release_mem_object(self.mem) };
        MEM_RELEASED.fetch_add(1, Ordering::SeqCst);
        MEM_LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

//! Kernels: setting arguments and enqueuing them.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr;

use opencl3::error_codes as codes;
use opencl3::kernel as k;
use opencl3::types::{cl_kernel, cl_mem};

use super::error::ClError;
use super::memory::{release_epoch, Mem};
use super::queue::Queue;
use super::thread_exit;

/// What a device allows one kernel's work-groups (see [`Kernel::limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KernelLimits {
    /// The largest work-group, at least 1.
    pub(crate) max: usize,
    /// The preferred multiple of the work-group size, at least 1.
    pub(crate) multiple: usize,
}

/// One kernel object. `Send` but not `Sync`: OpenCL kernel objects must not be used
/// from two threads at once (setting arguments races), so a launch has one to
/// itself (made, or taken from a pool as an [`IdleKernel`]). The lifetime ties it
/// to the buffers set as its arguments, which must stay alive until it is
/// enqueued.
#[derive(Debug)]
pub(crate) struct Kernel<'a> {
    kernel: cl_kernel,
    args: ArgCache,
    _args: PhantomData<&'a Mem>,
}

/// The largest argument value remembered: a `ulong16`.
const MAX_ARG_BYTES: usize = 128;

/// The bytes an argument of a kernel object was last set to, so that setting
/// it to the same value again makes no driver call (a launch repeated on the
/// same tensors sets none). Values are compared byte for byte; a buffer
/// argument is its handle. Forgotten once any buffer has been released since
/// they were set ([`release_epoch`]): a driver may give a new buffer the
/// handle of a released one, and keep what it derived from the old one (its
/// device address) in the kernel object.
#[derive(Clone, Copy)]
struct ArgValue {
    /// 0: not known (never set, or the last set failed).
    len: u8,
    bytes: [u8; MAX_ARG_BYTES],
}

impl ArgValue {
    const UNKNOWN: Self = ArgValue {
        len: 0,
        bytes: [0; MAX_ARG_BYTES],
    };

    fn is(&self, bytes: &[u8]) -> bool {
        usize::from(self.len) == bytes.len() && self.bytes.get(..bytes.len()) == Some(bytes)
    }
}

impl std::fmt::Debug for ArgValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ArgValue({} bytes)", self.len)
    }
}

/// The values a kernel object's arguments were last set to (see [`ArgValue`]).
#[derive(Debug)]
struct ArgCache {
    set: Vec<ArgValue>,
    /// [`release_epoch`] when the values were last known good.
    epoch: u64,
}

impl ArgCache {
    fn new() -> Self {
        ArgCache {
            set: Vec::new(),
            epoch: release_epoch(),
        }
    }

    /// Whether argument `slot` holds `bytes`.
    fn holds(&self, slot: usize, bytes: &[u8]) -> bool {
        self.set.get(slot).is_some_and(|v| v.is(bytes))
    }

    /// Notes that argument `slot` was set to `bytes` (`ok`) or that setting it
    /// failed (its value is then unknown).
    fn record(&mut self, slot: usize, bytes: &[u8], ok: bool) {
        if slot < 64 && bytes.len() <= MAX_ARG_BYTES {
            if self.set.len() <= slot {
                self.set.resize(slot + 1, ArgValue::UNKNOWN);
            }
            let v = &mut self.set[slot];
            if ok {
                v.bytes[..bytes.len()].copy_from_slice(bytes);
                v.len = u8::try_from(bytes.len()).unwrap_or(0);
            } else {
                v.len = 0;
            }
        }
    }

    /// Forgets every value if a buffer has been released since they were
    /// set: its handle may now name a buffer the kernel object has never
    /// seen. Called before a buffer argument is compared.
    fn forget_if_released(&mut self) {
        self.forget_unless_at(release_epoch());
    }

    /// Forgets every value unless the release count is still `now`.
    fn forget_unless_at(&mut self, now: u64) {
        if now != self.epoch {
            self.set.clear();
            self.epoch = now;
        }
    }
}

// SAFETY: a kernel object may move between threads; only concurrent use is unsafe,
// which the missing `Sync` and the `&mut self` setters rule out.
unsafe impl Send for Kernel<'_> {}

/// A kernel object no launch is using, kept for the next one. Its argument slots
/// may still name buffers of an earlier launch; every launch sets all of them
/// (those whose value differs from the one they hold).
#[derive(Debug)]
pub(crate) struct IdleKernel {
    kernel: cl_kernel,
    args: ArgCache,
}

// SAFETY: as for `Kernel`: an idle kernel has one owner and is used by none.
unsafe impl Send for IdleKernel {}

impl IdleKernel {
    /// Hands the kernel object to a launch.
    pub(crate) fn take<'a>(self) -> Kernel<'a> {
        let mut this = ManuallyDrop::new(self);
        Kernel {
            kernel: this.kernel,
            args: std::mem::replace(&mut this.args, ArgCache::new()),
            _args: PhantomData,
        }
    }
}

impl Drop for IdleKernel {
    fn drop(&mut self) {
        // SAFETY: owned by this value alone (moved out of a `Kernel`), released
        // exactly once.
        let _ = unsafe { k::release_kernel(self.kernel) };
    }
}

impl<'a> Kernel<'a> {
    /// Takes ownership of a kernel object that `clCreateKernel` returned.
    pub(super) fn new(kernel: cl_kernel) -> Self {
        Kernel {
            kernel,
            args: ArgCache::new(),
            _args: PhantomData,
        }
    }

    /// Ends the launch's use of the kernel object (after it was enqueued: the
    /// command keeps the arguments it was given).
    pub(crate) fn park(self) -> IdleKernel {
        let mut this = ManuallyDrop::new(self);
        IdleKernel {
            kernel: this.kernel,
            args: std::mem::replace(&mut this.args, ArgCache::new()),
        }
    }

    /// What `queue`'s device allows this kernel's work-groups: the largest
    /// (`CL_KERNEL_WORK_GROUP_SIZE`) and the multiple they run best at
    /// (`CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE`: the warp or wavefront on
    /// a GPU). A query the driver refuses counts as 1.
    pub(crate) fn limits(&self, queue: &Queue) -> KernelLimits {
        let size = |param| match k::get_kernel_work_group_info(self.kernel, queue.device, param) {
            Ok(cl3::info_type::InfoType::Size(n)) => n.max(1),
            _ => 1,
        };
        KernelLimits {
            max: size(k::CL_KERNEL_WORK_GROUP_SIZE),
            multiple: size(k::CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE),
        }
    }

    /// Sets argument `index` to `bytes`, unless it holds them already.
    fn set_bytes(&mut self, index: u32, bytes: &[u8]) -> Result<(), ClError> {
        let slot = usize::try_from(index).unwrap_or(usize::MAX);
        if self.args.holds(slot, bytes) {
            return Ok(());
        }
        // SAFETY: the driver copies `bytes.len()` bytes from `bytes` during the
        // call; every caller passes the value of the argument's C type (a
        // `cl_mem` handle for a buffer, as OpenCL requires, or a plain scalar).
        let result = unsafe {
            k::set_kernel_arg(
                self.kernel,
                index,
                bytes.len(),
                bytes.as_ptr().cast::<c_void>(),
            )
        }
        .map_err(|c| ClError::new("clSetKernelArg", c));
        self.args.record(slot, bytes, result.is_ok());
        result
    }

    /// Sets argument `index` to a buffer.
    pub(crate) fn set_mem(&mut self, index: u32, mem: &'a Mem) -> Result<(), ClError> {
        self.args.forget_if_released();
        let handle: cl_mem = mem.mem;
        self.set_bytes(index, bytemuck::bytes_of(&handle.addr()))
    }

    /// Sets argument `index` to a plain value (a scalar of the kernel's C type).
    pub(crate) fn set_value<T: bytemuck::NoUninit>(
        &mut self,
        index: u32,
        value: T,
    ) -> Result<(), ClError> {
        self.set_bytes(index, bytemuck::bytes_of(&value))
    }

    /// Sets argument `index` to a count or an offset, as a `ulong`.
    pub(crate) fn set_size(&mut self, index: u32, value: usize) -> Result<(), ClError> {
        self.set_value(index, to_u64(value))
    }

    /// Sets argument `index` to up to 16 sizes or strides, as a `ulong16` (the
    /// rest zero). More than 16 is `CL_INVALID_ARG_VALUE`, never a silent cut.
    pub(crate) fn set_dims(&mut self, index: u32, values: &[usize]) -> Result<(), ClError> {
        if values.len() > 16 {
            return Err(ClError::new("clSetKernelArg", codes::CL_INVALID_ARG_VALUE));
        }
        let mut packed = [0u64; 16];
        for (dst, &src) in packed.iter_mut().zip(values) {
            *dst = to_u64(src);
        }
        self.set_value(index, packed)
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: created in `Program::kernel`, released exactly once; enqueued
        // commands keep their own reference.
        let _ = unsafe { k::release_kernel(self.kernel) };
    }
}

/// `usize` to `u64`, which cannot fail on the 32- and 64-bit targets silt builds for.
fn to_u64(v: usize) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

impl Queue {
    /// Enqueues `kernel` over `global` work-items in groups of `local`
    /// (`global` a multiple of `local`). Asynchronous, in queue order.
    pub(crate) fn launch(
        &self,
        kernel: &Kernel<'_>,
        global: usize,
        local: usize,
    ) -> Result<(), ClError> {
        self.launch_nd(kernel, 1, [0; 3], [global, 1, 1], [local, 1, 1])
    }

    /// Enqueues `kernel` over a grid of `dims` (1 to 3) dimensions: `global`
    /// work-items from `offset` in groups of `local` (each `global` a
    /// multiple of its `local`; entries past `dims` are ignored).
    /// Asynchronous, in queue order.
    pub(crate) fn launch_nd(
        &self,
        kernel: &Kernel<'_>,
        dims: u32,
        offset: [usize; 3],
        global: [usize; 3],
        local: [usize; 3],
    ) -> Result<(), ClError> {
        let fail = |c| ClError::new("clEnqueueNDRangeKernel", c);
        let used = usize::try_from(dims).unwrap_or(0).min(3);
        if used == 0 {
            return Err(fail(codes::CL_INVALID_WORK_DIMENSION));
        }
        if global[..used].contains(&0) {
            return Ok(());
        }
        let runtime = cl3::load_library()
            .as_ref()
            .map_err(|_| fail(codes::DLOPEN_RUNTIME_LOAD_FAILED))?;
        // The loader's wrapper is a safe call; what makes it sound: the kernel is
        // valid and its arguments were set by `Kernel::set_*`, which keep no
        // pointers; the offsets and work sizes point at live arrays of three
        // entries, of which the driver reads `dims` (at most 3); a null offset
        // means none; a null event asks for none (OpenCL 1.2 section 5.8: no
        // event object is made, saving an allocation and a release per
        // launch). The queue retains the kernel and the buffers its arguments
        // name until the command has run.
        let status = runtime
            .clEnqueueNDRangeKernel(
                self.queue,
                kernel.kernel,
                dims.min(3),
                if offset == [0; 3] {
                    ptr::null()
                } else {
                    offset.as_ptr()
                },
                global.as_ptr(),
                local.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
            .ok_or_else(|| fail(codes::DLOPEN_FUNCTION_NOT_AVAILABLE))?;
        if status == codes::CL_SUCCESS {
            thread_exit::note_launch();
            Ok(())
        } else {
            Err(fail(status))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ArgCache;

    #[test]
    fn remembered_values_are_forgotten_after_a_buffer_release() {
        let handle = 0x1234_5678_usize.to_ne_bytes();
        let mut c = ArgCache::new();
        let epoch = c.epoch;
        c.record(0, &handle, true);
        c.record(1, &7u32.to_ne_bytes(), true);
        c.forget_unless_at(epoch);
        assert!(c.holds(0, &handle), "no release: the handle is still set");
        assert!(c.holds(1, &7u32.to_ne_bytes()));
        assert!(!c.holds(1, &8u32.to_ne_bytes()));
        // a release anywhere in the process makes every value unknown: a new
        // buffer may have the released one's handle
        c.forget_unless_at(epoch + 1);
        assert!(!c.holds(0, &handle));
        assert!(!c.holds(1, &7u32.to_ne_bytes()));
        // values set after the release are trusted again
        c.record(0, &handle, true);
        c.forget_unless_at(epoch + 1);
        assert!(c.holds(0, &handle));
    }

    #[test]
    fn a_failed_set_leaves_the_value_unknown() {
        let mut c = ArgCache::new();
        c.record(2, &[1, 2, 3, 4], true);
        assert!(c.holds(2, &[1, 2, 3, 4]));
        c.record(2, &[1, 2, 3, 4], false);
        assert!(!c.holds(2, &[1, 2, 3, 4]));
        // slots from 64 and values over 128 bytes are never remembered
        c.record(64, &[1], true);
        assert!(!c.holds(64, &[1]));
        c.record(3, &[0; 129], true);
        assert!(!c.holds(3, &[0; 129]));
    }
}

//! Devices: the host, or one OpenCL device with its context, queue, pool and
//! programs.
//!
//! The device layer sits on the OpenCL layer (`cl`) and on the device-agnostic
//! program layer (`program`); storages, tensors and launches sit on it.

pub(crate) mod copy;
pub(crate) mod geometry;
pub(crate) mod hooks;
mod info;
mod pool;
mod programs;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::cl::{self, DeviceId, Queue};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::program::text::KernelInfo;

pub(crate) use geometry::GATHER_STRIDE;
pub use info::{DeviceInfo, DeviceKind};
pub use pool::MemoryStats;
use pool::Pool;
pub(crate) use pool::{Block, Line, LINE};
pub(crate) use programs::set_source_hook;
use programs::{BuiltProgram, Programs, Target};

/// The environment variable that chooses [`Device::default`].
pub const DEVICE_ENV: &str = "SILT_DEVICE";

enum Backend {
    Host,
    OpenCl { index: usize, queue: Queue },
}

pub(crate) struct DeviceInner {
    backend: Backend,
    info: DeviceInfo,
    pool: Pool,
    /// The runtime's strided copy kernels (see `copy`), built on first use,
    /// with the kernel objects their launches reuse.
    copy_program: OnceLock<Result<BuiltProgram>>,
    /// Built kernel programs.
    programs: Mutex<Programs>,
    hide_fp64: AtomicBool,
    /// Whether the device reports that it lacks 64-bit atomics, for a test.
    hide_int64_atomics: AtomicBool,
    /// Whether the device is Oclgrind, or acts as it for a test (see
    /// `is_oclgrind`).
    oclgrind: AtomicBool,
}

/// A place where tensors live and kernels run: the host, or one OpenCL device.
///
/// Cheap to clone; clones (and every `Device::opencl(i)` for the same `i`) share one
/// OpenCL context, one in-order command queue and one memory pool. Two devices are
/// equal when they are the same device.
#[derive(Clone)]
pub struct Device {
    inner: Arc<DeviceInner>,
}

struct Slot {
    id: DeviceId,
    device: OnceLock<Result<Device>>,
}

struct Registry {
    slots: Vec<Slot>,
    platforms: usize,
}

static REGISTRY: OnceLock<Result<Registry>> = OnceLock::new();

fn registry() -> &'static Result<Registry> {
    REGISTRY.get_or_init(|| {
        let (ids, platforms) = cl::all_devices().map_err(|e| Error::NoDevice {
            requested: "opencl".into(),
            reason: if cl::is_loader_failure(e.code) {
                "the OpenCL loader libOpenCL.so.1 could not be loaded; install an ICD loader \
                 and a driver (on Debian: apt-get install ocl-icd-libopencl1 pocl-opencl-icd)"
                    .to_string()
            } else {
                format!(
                    "no OpenCL platform found ({}); install a driver (on Debian: apt-get install \
                     pocl-opencl-icd) and check OCL_ICD_VENDORS",
                    cl::error_name(e.code)
                )
            },
        })?;
        Ok(Registry {
            slots: ids
                .into_iter()
                .map(|id| Slot {
                    id,
                    device: OnceLock::new(),
                })
                .collect(),
            platforms,
        })
    })
}

impl Device {
    /// The host backend: tensors in host memory, kernels run as plain Rust.
    ///
    /// ```
    /// # use silt_runtime::Device;
    /// let dev = Device::host();
    /// assert!(dev.is_host());
    /// assert_eq!(dev, Device::host()); // one host device, shared
    /// assert_eq!(dev.to_string(), "host");
    /// ```
    pub fn host() -> Device {
        static HOST: OnceLock<Device> = OnceLock::new();
        HOST.get_or_init(|| Device {
            inner: Arc::new(DeviceInner {
                backend: Backend::Host,
                info: DeviceInfo::host(),
                pool: Pool::new(isize::MAX.unsigned_abs()),
                copy_program: OnceLock::new(),
                programs: Mutex::default(),
                hide_fp64: AtomicBool::new(false),
                hide_int64_atomics: AtomicBool::new(false),
                oclgrind: AtomicBool::new(false),
            }),
        })
        .clone()
    }

    /// The OpenCL device with index `index`, counting the devices of all platforms
    /// in the order the ICD loader lists them.
    ///
    /// ```
    /// # use silt_runtime::{Device, Error};
    /// if let Ok(dev) = Device::opencl(0) {
    ///     assert_eq!(dev.opencl_index(), Some(0));
    ///     assert_eq!(dev, Device::opencl(0)?); // the same context, queue and pool
    ///     assert!(dev.to_string().starts_with("opencl:0 ("));
    /// }
    /// // an index past the last device is an error, not a panic
    /// let past = Device::opencl(Device::opencl_count());
    /// assert!(matches!(past, Err(Error::NoDevice { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NoDevice`] when OpenCL is not installed, no platform is present or
    /// there is no device `index`; [`Error::OpenCl`] when its context cannot be made.
    pub fn opencl(index: usize) -> Result<Device> {
        let registry = registry().as_ref().map_err(|e| match e {
            Error::NoDevice { reason, .. } => Error::NoDevice {
                requested: format!("opencl:{index}"),
                reason: reason.clone(),
            },
            other => other.clone(),
        })?;
        let slot = registry.slots.get(index).ok_or_else(|| Error::NoDevice {
            requested: format!("opencl:{index}"),
            reason: match registry.slots.len() {
                0 => format!(
                    "{} OpenCL platform(s) but no device; PoCL lists none when it cannot create \
                     its cache folder: set POCL_CACHE_DIR to a writable folder",
                    registry.platforms
                ),
                n => format!("{n} OpenCL device(s) present"),
            },
        })?;
        slot.device
            .get_or_init(|| {
                let info = DeviceInfo::from_raw(cl::device_info(slot.id)?);
                let queue = Queue::new(slot.id)?;
                Ok(Device {
                    inner: Arc::new(DeviceInner {
                        backend: Backend::OpenCl { index, queue },
                        pool: Pool::new(info.max_alloc_bytes),
                        oclgrind: AtomicBool::new(info.is_oclgrind()),
                        info,
                        copy_program: OnceLock::new(),
                        programs: Mutex::default(),
                        hide_fp64: AtomicBool::new(false),
                        hide_int64_atomics: AtomicBool::new(false),
                    }),
                })
            })
            .clone()
    }

    /// The number of OpenCL devices present (0 when OpenCL is absent).
    pub fn opencl_count() -> usize {
        registry().as_ref().map_or(0, |r| r.slots.len())
    }

    /// Every device: the OpenCL devices in index order, then the host.
    ///
    /// The example also shows [`opencl_count`](Self::opencl_count):
    ///
    /// ```
    /// # use silt_runtime::Device;
    /// let devices = Device::all()?;
    /// assert_eq!(devices.len(), Device::opencl_count() + 1);
    /// assert!(devices.last().unwrap().is_host());
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// An OpenCL device that is listed but whose context cannot be created.
    pub fn all() -> Result<Vec<Device>> {
        let mut out = (0..Device::opencl_count())
            .map(Device::opencl)
            .collect::<Result<Vec<_>>>()?;
        out.push(Device::host());
        Ok(out)
    }

    /// The device named by `spec`: `host`, `opencl` (the first OpenCL device) or
    /// `opencl:N`.
    ///
    /// ```
    /// # use silt_runtime::{Device, Error};
    /// assert!(Device::from_spec(" host ")?.is_host());
    /// assert!(matches!(
    ///     Device::from_spec("gpu"),
    ///     Err(Error::InvalidDeviceSpec { .. })
    /// ));
    /// if let Ok(dev) = Device::from_spec("opencl") {
    ///     assert_eq!(dev, Device::from_spec("opencl:0")?);
    /// }
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidDeviceSpec`] for other text; [`Error::NoDevice`] when the
    /// named device is absent.
    pub fn from_spec(spec: &str) -> Result<Device> {
        let s = spec.trim();
        let index = s
            .strip_prefix("opencl:")
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<usize>().ok());
        match (s, index) {
            ("host", _) => Ok(Device::host()),
            ("opencl", _) => Device::opencl(0),
            (_, Some(i)) => Device::opencl(i),
            _ => Err(Error::InvalidDeviceSpec {
                spec: spec.to_string(),
            }),
        }
    }

    /// The default device: the one `SILT_DEVICE` names (`host`, `opencl`,
    /// `opencl:N`), else the first OpenCL device, else the host (printing once to
    /// stderr why OpenCL is not used).
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, DEVICE_ENV};
    /// std::env::set_var(DEVICE_ENV, "host");
    /// assert!(Device::default()?.is_host());
    /// // an explicit choice of an absent device is an error, not the host
    /// std::env::set_var(DEVICE_ENV, "opencl:999");
    /// assert!(matches!(Device::default(), Err(Error::NoDevice { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// When `SILT_DEVICE` is set, an invalid spec or an absent device is an error:
    /// an explicit choice never falls back silently.
    #[allow(clippy::should_implement_trait)]
    pub fn default() -> Result<Device> {
        if let Some(spec) = std::env::var_os(DEVICE_ENV) {
            let spec = spec.to_string_lossy();
            if !spec.trim().is_empty() {
                let chosen = Device::from_spec(&spec);
                match &chosen {
                    Ok(d) => {
                        tracing::debug!(target: "silt::device", device = %d, spec = %spec, "default device from SILT_DEVICE")
                    }
                    Err(e) => {
                        tracing::warn!(target: "silt::device", spec = %spec, error = %e, "SILT_DEVICE names no device")
                    }
                }
                return chosen;
            }
        }
        match Device::opencl(0) {
            Ok(d) => {
                tracing::debug!(target: "silt::device", device = %d, "default device: the first OpenCL device");
                Ok(d)
            }
            Err(e) => {
                static WARNED: OnceLock<()> = OnceLock::new();
                WARNED.get_or_init(|| {
                    eprintln!("silt: no OpenCL device, using the host backend ({e})");
                });
                tracing::warn!(target: "silt::device", error = %e, "no OpenCL device: the default device is the host");
                Ok(Device::host())
            }
        }
    }

    /// The device's facts.
    ///
    /// ```
    /// # use silt_runtime::{Device, DeviceKind};
    /// let host = Device::host();
    /// let info = host.info();
    /// assert_eq!(info.name, "host");
    /// assert_eq!(info.kind, DeviceKind::Host);
    /// assert!(info.fp64 && info.compute_units >= 1);
    /// if let Ok(dev) = Device::opencl(0) {
    ///     let info = dev.info();
    ///     println!("{} ({}): {} compute units", info.name, info.vendor, info.compute_units);
    ///     assert!(info.max_alloc_bytes > 0 && info.max_work_group_size >= 1);
    ///     assert_eq!(info.fp64, info.extensions.iter().any(|e| e == "cl_khr_fp64"));
    /// }
    /// ```
    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    /// Whether this is the host backend.
    ///
    /// ```
    /// # use silt_runtime::Device;
    /// assert!(Device::host().is_host());
    /// if let Ok(dev) = Device::opencl(0) {
    ///     assert!(!dev.is_host());
    /// }
    /// ```
    pub fn is_host(&self) -> bool {
        matches!(self.inner.backend, Backend::Host)
    }

    /// The OpenCL index of the device, `None` for the host.
    ///
    /// ```
    /// # use silt_runtime::Device;
    /// assert_eq!(Device::host().opencl_index(), None);
    /// if let Ok(dev) = Device::opencl(0) {
    ///     assert_eq!(dev.opencl_index(), Some(0));
    /// }
    /// ```
    pub fn opencl_index(&self) -> Option<usize> {
        match &self.inner.backend {
            Backend::Host => None,
            Backend::OpenCl { index, .. } => Some(*index),
        }
    }

    /// Whether kernels of element type `dtype` can run here (`f64` needs
    /// `cl_khr_fp64` on OpenCL devices).
    ///
    /// ```
    /// # use silt_runtime::{DType, Device};
    /// assert!(DType::ALL.iter().all(|&d| Device::host().supports(d)));
    /// if let Ok(dev) = Device::opencl(0) {
    ///     assert!(dev.supports(DType::F32));
    ///     assert_eq!(dev.supports(DType::F64), dev.info().fp64);
    /// }
    /// ```
    pub fn supports(&self, dtype: DType) -> bool {
        dtype != DType::F64
            || (self.inner.info.fp64 && !self.inner.hide_fp64.load(Ordering::Relaxed))
    }

    /// Whether kernels on this device may use the OpenCL extension `name`
    /// (one of its extensions; the host runs every kernel natively). The
    /// test hook `hide_int64_atomics` hides `cl_khr_int64_base_atomics`
    /// and `cl_khr_int64_extended_atomics`.
    pub(crate) fn has_extension(&self, name: &str) -> bool {
        if self.is_host() {
            return true;
        }
        if name.starts_with("cl_khr_int64_")
            && self.inner.hide_int64_atomics.load(Ordering::Relaxed)
        {
            return false;
        }
        self.inner.info.extensions.iter().any(|e| e == name)
    }

    /// The memory figures of this device's pool.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let dev = Device::host();
    /// let before = dev.memory_stats();
    /// let t = TensorT::<f32>::zeros(&dev, [16, 16])?; // 1024 bytes
    /// let during = dev.memory_stats();
    /// assert_eq!(during.allocated_bytes, before.allocated_bytes + 1024);
    /// assert!(during.peak_bytes >= during.allocated_bytes);
    /// drop(t);
    /// assert_eq!(dev.memory_stats().allocated_bytes, before.allocated_bytes);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    pub fn memory_stats(&self) -> MemoryStats {
        self.inner.pool.stats()
    }

    /// Returns every cached, unused buffer to the driver. Buffers held by live
    /// tensors stay.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// if let Ok(dev) = Device::opencl(0) {
    ///     drop(TensorT::<f32>::zeros(&dev, [1000])?); // its buffer stays cached
    ///     let cached = dev.memory_stats();
    ///     assert!(cached.reserved_bytes > cached.allocated_bytes);
    ///     dev.empty_cache();
    ///     let after = dev.memory_stats();
    ///     assert_eq!(after.reserved_bytes, after.allocated_bytes);
    ///     assert_eq!(after.cache_flushes, cached.cache_flushes + 1);
    /// }
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    pub fn empty_cache(&self) {
        self.inner.pool.empty_cache();
    }

    /// How many kernel programs this device has built or loaded in this process.
    /// The kernels of one crate are built together, as one program per precision
    /// (`f64` kernels apart), on the first launch of any of them.
    ///
    /// ```
    /// # use silt_runtime::Device;
    /// // no kernel has been launched in this program: nothing built yet
    /// assert_eq!(Device::host().programs_built(), 0);
    /// if let Ok(dev) = Device::opencl(0) {
    ///     assert_eq!(dev.programs_built(), 0);
    /// }
    /// ```
    pub fn programs_built(&self) -> usize {
        self.inner.programs.lock().map_or(0, |m| m.built)
    }

    /// Waits until all work queued on this device has run.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let dev = Device::opencl(0).unwrap_or_else(|_| Device::host());
    /// let t = TensorT::full(&dev, 1.5f32, [1024])?; // a fill queued on the device
    /// dev.synchronize()?; // waits for it (reads such as `to_vec` wait by themselves)
    /// assert!(t.to_vec()?.iter().all(|&x| x == 1.5));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::OpenCl`] when the driver reports a failure of queued work.
    pub fn synchronize(&self) -> Result<()> {
        match &self.inner.backend {
            Backend::Host => Ok(()),
            Backend::OpenCl { queue, .. } => Ok(queue.finish()?),
        }
    }

    pub(crate) fn queue(&self) -> Option<&Queue> {
        match &self.inner.backend {
            Backend::Host => None,
            Backend::OpenCl { queue, .. } => Some(queue),
        }
    }

    /// A buffer of at least `nbytes` from this device's pool.
    pub(crate) fn alloc_block(&self, queue: &Queue, nbytes: usize) -> Result<Block> {
        let exact = self.is_oclgrind();
        self.inner
            .pool
            .alloc(queue, nbytes, exact, || self.to_string())
    }

    /// Whether this device is Oclgrind, the OpenCL simulator that checks
    /// kernels (or acts as it: `testing::act_as_oclgrind`). Its runtime is not
    /// thread-safe: a wait runs the queued kernels on the waiting thread, and
    /// two threads waiting at once abort it. Its check of uninitialised values
    /// forgets what it knew of a buffer at each host write (a fill: each copy
    /// of the pattern) and keeps as many bytes as the write had, from byte 0
    /// (see `pool`). So on it a program's binary is saved on the launching
    /// thread (`programs`), the pool hands out buffers of the exact size asked
    /// and does not touch new ones (`pool`), and a fill is one host write
    /// (`storage`).
    pub(crate) fn is_oclgrind(&self) -> bool {
        self.inner.oclgrind.load(Ordering::Relaxed)
    }

    /// Gives a buffer back to this device's pool.
    pub(crate) fn free_block(&self, block: Block) {
        self.inner.pool.free(block);
    }

    /// Counts a new host buffer of `size` bytes for `bytes` bytes.
    pub(crate) fn note_host_alloc(&self, bytes: usize, size: usize) {
        self.inner.pool.note_host_alloc(bytes, size);
    }

    /// A cached host buffer of `lines` lines for `bytes` bytes, holding stale
    /// values (see `Pool::take_host`).
    pub(crate) fn take_host(&self, lines: usize, bytes: usize) -> Option<Vec<Line>> {
        self.inner.pool.take_host(lines, bytes)
    }

    /// Takes back the buffer of freed host storage of `bytes` bytes.
    pub(crate) fn give_host(&self, lines: Vec<Line>, bytes: usize) {
        self.inner.pool.give_host(lines, bytes);
    }

    /// The work-group size of a launch of `items` work-items of a kernel with
    /// `limits` on this device (see `geometry`).
    pub(crate) fn local_size(&self, items: usize, limits: crate::cl::KernelLimits) -> usize {
        geometry::local_size(&self.inner.info, items, limits)
    }

    /// The work-group size for `items` work-items of an entry point whose
    /// work-items hold arrays (see `geometry::arrays_local_size`).
    pub(crate) fn arrays_local_size(&self, items: usize, limits: crate::cl::KernelLimits) -> usize {
        geometry::arrays_local_size(&self.inner.info, items, limits)
    }

    /// The grid of a strided map launch over `dims` of a kernel with `limits`
    /// whose views have `strides` (all innermost first; see
    /// `geometry::strided_grid`); `None` on overflow.
    pub(crate) fn strided_grid<S: AsRef<[usize]>>(
        &self,
        limits: crate::cl::KernelLimits,
        dims: &[usize],
        strides: &[S],
    ) -> Option<geometry::Grid> {
        geometry::strided_grid(&self.inner.info, limits, dims, strides)
    }

    /// The program that holds the kernel `info` on this device, built (or
    /// loaded) on first use (see `programs`).
    ///
    /// # Errors
    /// [`Error::Build`] when it does not build; [`Error::OpenCl`] on the host.
    pub(crate) fn program(&self, info: &'static KernelInfo) -> Result<Arc<BuiltProgram>> {
        let mut programs = self
            .inner
            .programs
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let queue = self
            .queue()
            .ok_or_else(|| Error::internal("a program built for a device without a queue"))?;
        let target = Target {
            queue,
            info: &self.inner.info,
            device: self,
            save_here: self.is_oclgrind(),
        };
        programs.get(info, &target)
    }
}

impl PartialEq for Device {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Eq for Device {}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.backend {
            Backend::Host => f.write_str("host"),
            Backend::OpenCl { index, .. } => write!(f, "opencl:{index} ({})", self.inner.info.name),
        }
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Device")
            .field("device", &format_args!("{self}"))
            .field("platform", &self.inner.info.platform_name)
            .finish()
    }
}

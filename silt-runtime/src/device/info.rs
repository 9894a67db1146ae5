//! The facts about a device: [`DeviceInfo`] and [`DeviceKind`].

use crate::cl::RawInfo;

/// What kind of processor a device is.
///
/// ```
/// # use silt_runtime::{Device, DeviceKind};
/// assert_eq!(Device::host().info().kind, DeviceKind::Host);
/// if let Ok(dev) = Device::opencl(0) {
///     // PoCL is a CPU device, a graphics card a GPU
///     assert_ne!(dev.info().kind, DeviceKind::Host);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DeviceKind {
    /// silt's host backend: kernels run as plain Rust on the CPU.
    Host,
    /// An OpenCL CPU device (such as PoCL).
    Cpu,
    /// An OpenCL GPU.
    Gpu,
    /// An OpenCL accelerator or other device.
    Accelerator,
}

/// The facts about a device that kernels and users need.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeviceInfo {
    /// The device's name (`CL_DEVICE_NAME`, or `"host"`).
    pub name: String,
    /// Its vendor.
    pub vendor: String,
    /// The kind of processor.
    pub kind: DeviceKind,
    /// `CL_DEVICE_VERSION` (`"OpenCL 3.0 PoCL ..."`).
    pub version: String,
    /// `CL_DEVICE_OPENCL_C_VERSION` (`"OpenCL C 1.2 PoCL"`); empty for the host.
    pub opencl_c_version: String,
    /// `CL_DRIVER_VERSION`.
    pub driver_version: String,
    /// The platform's name.
    pub platform_name: String,
    /// The platform's version.
    pub platform_version: String,
    /// Whether `f64` kernels can run (`cl_khr_fp64`; always true on the host).
    pub fp64: bool,
    /// Whether half arithmetic is native (`cl_khr_fp16`); `f16` tensors work either way.
    pub fp16: bool,
    /// The largest single buffer in bytes (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`).
    pub max_alloc_bytes: usize,
    /// Global memory in bytes (`CL_DEVICE_GLOBAL_MEM_SIZE`; 0 when unknown).
    pub global_mem_bytes: u64,
    /// Compute units (`CL_DEVICE_MAX_COMPUTE_UNITS`; logical CPUs on the host).
    pub compute_units: u32,
    /// The largest work-group (`CL_DEVICE_MAX_WORK_GROUP_SIZE`).
    pub max_work_group_size: usize,
    /// The largest work-group in each of the first three dimensions
    /// (`CL_DEVICE_MAX_WORK_ITEM_SIZES`; 1 where the device does not say).
    pub max_work_item_sizes: [usize; 3],
    /// The most bytes of arguments a kernel may take
    /// (`CL_DEVICE_MAX_PARAMETER_SIZE`; unbounded on the host). A fused chain
    /// whose kernel would take more runs as its separate launches
    /// ([`Fusion::run`](crate::Fusion::run)).
    pub max_parameter_bytes: usize,
    /// Whether `f32` division and `sqrt` can be correctly rounded
    /// (`CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT`); silt then asks for it.
    pub correctly_rounded_divide_sqrt: bool,
    /// The device's extensions, one name each.
    pub extensions: Vec<String>,
}

impl DeviceInfo {
    /// The facts of the host backend.
    pub(super) fn host() -> Self {
        DeviceInfo {
            name: "host".into(),
            vendor: "silt".into(),
            kind: DeviceKind::Host,
            version: String::new(),
            opencl_c_version: String::new(),
            driver_version: env!("CARGO_PKG_VERSION").into(),
            platform_name: "silt host".into(),
            platform_version: String::new(),
            fp64: true,
            fp16: true,
            max_alloc_bytes: isize::MAX.unsigned_abs(),
            global_mem_bytes: 0,
            compute_units: std::thread::available_parallelism()
                .map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX)),
            max_work_group_size: 1,
            max_work_item_sizes: [1; 3],
            max_parameter_bytes: usize::MAX,
            correctly_rounded_divide_sqrt: true,
            extensions: Vec::new(),
        }
    }

    /// The facts of an OpenCL device, from what the driver reports.
    pub(super) fn from_raw(raw: RawInfo) -> Self {
        let extensions: Vec<String> = raw
            .extensions
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let has = |e: &str| extensions.iter().any(|x| x == e);
        // CL_DEVICE_TYPE_CPU and CL_DEVICE_TYPE_GPU bits
        const CPU: u64 = 1 << 1;
        const GPU: u64 = 1 << 2;
        let kind = if raw.device_type & GPU != 0 {
            DeviceKind::Gpu
        } else if raw.device_type & CPU != 0 {
            DeviceKind::Cpu
        } else {
            DeviceKind::Accelerator
        };
        DeviceInfo {
            fp64: has("cl_khr_fp64"),
            fp16: has("cl_khr_fp16"),
            name: raw.name,
            vendor: raw.vendor,
            kind,
            version: raw.version,
            opencl_c_version: raw.opencl_c_version,
            driver_version: raw.driver_version,
            platform_name: raw.platform_name,
            platform_version: raw.platform_version,
            max_alloc_bytes: usize::try_from(raw.max_alloc).unwrap_or(usize::MAX),
            global_mem_bytes: raw.global_mem,
            compute_units: raw.compute_units,
            // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
            correctly_rounded_divide_sqrt: raw.single_fp_config & (1 << 7) != 0,
            max_work_group_size: usize::try_from(raw.max_work_group)
                .unwrap_or(usize::MAX)
                .max(1),
            max_work_item_sizes: {
                let mut sizes = [1; 3];
                for (s, &r) in sizes.iter_mut().zip(&raw.max_work_items) {
                    *s = usize::try_from(r).unwrap_or(usize::MAX).max(1);
                }
                sizes
            },
            max_parameter_bytes: usize::try_from(raw.max_parameter).unwrap_or(usize::MAX),
            extensions,
        }
    }

    /// Whether the device is Oclgrind's simulator (see `Device::is_oclgrind`).
    pub(super) fn is_oclgrind(&self) -> bool {
        self.platform_name == "Oclgrind"
    }
}

#[cfg(test)]
mod tests {
    use super::DeviceInfo;

    #[test]
    fn oclgrind_is_known_by_its_platform_name() {
        let mut info = DeviceInfo::host();
        assert!(!info.is_oclgrind());
        info.platform_name = "Portable Computing Language".into();
        assert!(!info.is_oclgrind());
        info.platform_name = "Oclgrind".into();
        assert!(info.is_oclgrind());
    }
}

//! Platforms and devices: which OpenCL devices there are, and their facts.

use opencl3::device as dev;
use opencl3::error_codes as cl_codes;
use opencl3::platform::platform as plat;
use opencl3::types::{cl_device_id, cl_platform_id};

use super::error::ClError;

/// An OpenCL platform and one of its devices.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeviceId {
    pub(super) platform: cl_platform_id,
    pub(super) device: cl_device_id,
}

// SAFETY: platform and device ids are process-wide identifiers that OpenCL allows to
// be used from any thread; they are never freed (root devices have no release).
unsafe impl Send for DeviceId {}
// SAFETY: as above; the ids are immutable values.
unsafe impl Sync for DeviceId {}

/// Every OpenCL device of every platform, platforms in the ICD loader's order, and
/// the number of platforms.
pub(crate) fn all_devices() -> Result<(Vec<DeviceId>, usize), ClError> {
    let platforms =
        plat::get_platform_ids().map_err(|code| ClError::new("clGetPlatformIDs", code))?;
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
    pub(crate) name: String,
    pub(crate) vendor: String,
    pub(crate) version: String,
    pub(crate) opencl_c_version: String,
    pub(crate) driver_version: String,
    pub(crate) platform_name: String,
    pub(crate) platform_version: String,
    pub(crate) extensions: String,
    pub(crate) device_type: u64,
    pub(crate) max_alloc: u64,
    pub(crate) max_work_group: u64,
    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES` (empty when the query fails).
    pub(crate) max_work_items: Vec<u64>,
    pub(crate) single_fp_config: u64,
    pub(crate) global_mem: u64,
    pub(crate) compute_units: u32,
    pub(crate) max_parameter: u64,
}

fn info_string(id: DeviceId, param: u32) -> Result<String, ClError> {
    let fail = |code| ClError::new("clGetDeviceInfo", code);
    match dev::get_device_info(id.device, param).map_err(fail)? {
        cl3::info_type::InfoType::VecUchar(bytes) => Ok(trim_c_string(bytes)),
        _ => Err(fail(cl_codes::CL_INVALID_VALUE)),
    }
}

fn info_platform_string(id: DeviceId, param: u32) -> Result<String, ClError> {
    let fail = |code| ClError::new("clGetPlatformInfo", code);
    match plat::get_platform_info(id.platform, param).map_err(fail)? {
        cl3::info_type::InfoType::VecUchar(bytes) => Ok(trim_c_string(bytes)),
        _ => Err(fail(cl_codes::CL_INVALID_VALUE)),
    }
}

fn trim_c_string(mut bytes: Vec<u8>) -> String {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8_lossy(&bytes).trim().to_string()
}

fn info_u64(id: DeviceId, param: u32) -> Result<u64, ClError> {
    use cl3::info_type::InfoType;
    let fail = |code| ClError::new("clGetDeviceInfo", code);
    match dev::get_device_info(id.device, param).map_err(fail)? {
        InfoType::Ulong(v) => Ok(v),
        InfoType::Uint(v) => Ok(u64::from(v)),
        InfoType::Size(v) => Ok(u64::try_from(v).unwrap_or(u64::MAX)),
        _ => Err(fail(cl_codes::CL_INVALID_VALUE)),
    }
}

/// A list of sizes (`size_t[]`); empty when the query fails.
fn info_sizes(id: DeviceId, param: u32) -> Vec<u64> {
    use cl3::info_type::InfoType;
    match dev::get_device_info(id.device, param) {
        Ok(InfoType::VecSize(v)) => v
            .into_iter()
            .map(|s| u64::try_from(s).unwrap_or(u64::MAX))
            .collect(),
        _ => Vec::new(),
    }
}

/// Queries the facts of a device.
pub(crate) fn device_info(id: DeviceId) -> Result<RawInfo, ClError> {
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
        max_work_items: info_sizes(id, dev::CL_DEVICE_MAX_WORK_ITEM_SIZES),
        single_fp_config: info_u64(id, dev::CL_DEVICE_SINGLE_FP_CONFIG).unwrap_or(0),
        global_mem: info_u64(id, dev::CL_DEVICE_GLOBAL_MEM_SIZE)?,
        compute_units: u32::try_from(info_u64(id, dev::CL_DEVICE_MAX_COMPUTE_UNITS)?)
            .unwrap_or(u32::MAX),
        // the least a full-profile device may report, should the query fail
        max_parameter: info_u64(id, dev::CL_DEVICE_MAX_PARAMETER_SIZE).unwrap_or(1024),
    })
}

//! Helpers shared by the integration tests.
#![allow(dead_code)]

use silt::Device;

/// Whether this run is under CI (`CI=true`), where a missing OpenCL device is a
/// failure, never a skip.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The first OpenCL device. Without one: a failure under CI, else a skip with a
/// message on stderr (`None`).
pub fn opencl() -> Option<Device> {
    match Device::opencl(0) {
        Ok(d) => Some(d),
        Err(e) if under_ci() => panic!(
            "CI=true but no OpenCL device: {e}\n(install pocl-opencl-icd and set POCL_CACHE_DIR \
             to a writable folder; see .ci/run)"
        ),
        Err(e) => {
            eprintln!("SKIPPED: no OpenCL device ({e}); install PoCL to run device tests");
            None
        }
    }
}

/// The host and, when present, the first OpenCL device.
pub fn devices() -> Vec<Device> {
    let mut out = vec![Device::host()];
    out.extend(opencl());
    out
}

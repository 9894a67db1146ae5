//! Scans (`#[scan]`): the plan (one axis scanned, the others kept), the host
//! scan and the OpenCL phases, both in silt's fixed order
//! (`reduce::order::scan_row`).

pub(crate) mod host;
pub(crate) mod opencl;
pub(crate) mod plan;

//! Reductions (`#[reduce]`): the plan (which axes, which rows), the host fold
//! and the OpenCL passes, both in silt's fixed order ([`order`]).

pub(crate) mod host;
pub(crate) mod opencl;
pub(crate) mod order;
pub(crate) mod plan;

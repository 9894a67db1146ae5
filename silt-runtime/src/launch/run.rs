//! The one place a launch chooses its backend. The generated code prepares a
//! plan, hands it here, and runs its own host path (the plain-Rust body) only
//! when told the tensors are on the host: it names no device backend.

use std::vec::IntoIter;

use silt_abi::DType;

use crate::error::Result;
use crate::launch::opencl::{launch_opencl, launch_opencl_into};
use crate::launch::plan::{Arg, Plan};
use crate::launch::reduce::opencl::launch_reduce_opencl;
use crate::launch::reduce::plan::ReducePlan;
use crate::launch::scan::opencl::launch_scan_opencl;
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

/// Runs a prepared map launch on its device's backend, returning its fresh
/// outputs (`out_dtypes`, in order); `None` when the tensors are on the host,
/// whose path the generated code holds.
///
/// # Errors
/// A build or launch failure, or an allocation failure.
#[inline]
pub fn map_on_device(
    info: &'static KernelInfo,
    plan: &Plan<'_>,
    args: &[Arg<'_>],
    out_dtypes: &[DType],
) -> Result<Option<IntoIter<Tensor>>> {
    if plan.is_host() {
        return Ok(None);
    }
    Ok(Some(
        launch_opencl(info, plan, args, out_dtypes)?.into_iter(),
    ))
}

/// [`map_on_device`] writing into given outputs (a kernel's `launch_into`):
/// `args` are the kernel's own arguments, `outs` its output tensors, which
/// `plan` was prepared with as written arguments after `args`. `false` when
/// the tensors are on the host, whose path the generated code holds.
///
/// # Errors
/// A build or launch failure, or an allocation failure.
#[inline]
pub fn map_into_device(
    info: &'static KernelInfo,
    plan: &Plan<'_>,
    args: &[Arg<'_>],
    outs: &[&Tensor],
) -> Result<bool> {
    if plan.is_host() {
        return Ok(false);
    }
    launch_opencl_into(info, plan, args, outs)?;
    Ok(true)
}

/// [`map_on_device`] for a reduction: `accs` are the accumulator's dtypes.
///
/// # Errors
/// As [`map_on_device`].
pub fn reduce_on_device(
    info: &'static KernelInfo,
    plan: &ReducePlan,
    args: &[Arg<'_>],
    out_dtypes: &[DType],
    accs: &[DType],
) -> Result<Option<IntoIter<Tensor>>> {
    if plan.is_host() {
        return Ok(None);
    }
    let outs = launch_reduce_opencl(info, plan, args, out_dtypes, accs)?;
    Ok(Some(outs.into_iter()))
}

/// [`reduce_on_device`] for a scan (`exclusive`: each element's value leaves
/// the element itself out).
///
/// # Errors
/// As [`map_on_device`].
pub fn scan_on_device(
    info: &'static KernelInfo,
    plan: &ReducePlan,
    args: &[Arg<'_>],
    out_dtypes: &[DType],
    accs: &[DType],
    exclusive: bool,
) -> Result<Option<IntoIter<Tensor>>> {
    if plan.is_host() {
        return Ok(None);
    }
    let outs = launch_scan_opencl(info, plan, args, out_dtypes, accs, exclusive)?;
    Ok(Some(outs.into_iter()))
}

//! The OpenCL backend of grid kernels: the instantiation's entry point with
//! its arguments set by `silt_abi::opencl::grid_args`, one enqueue over the
//! plan's work-groups, and for a checked kernel the error record read back.

use silt_abi::opencl::{grid_args, GridArg, Pass, GRID_ERROR_WORDS};

use crate::device::geometry::Grid as NdRange;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::launch::opencl::{mem_of, set_scalar};
use crate::launch::plan::Arg;
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

use super::GridPlan;

/// Runs a grid launch on the plan's OpenCL device; `false` for a host
/// plan, whose path the generated code holds. `checked` (the kernel's
/// accesses are checked) makes the launch wait for the device, to report an
/// access out of range.
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for the first access out of range (the
/// launch has run); build, allocation and launch errors.
pub fn grid_on_device(
    info: &'static KernelInfo,
    plan: &GridPlan<'_>,
    args: &[Arg<'_>],
    checked: bool,
) -> Result<bool> {
    if plan.is_host() {
        return Ok(false);
    }
    if plan.is_empty() {
        return Ok(true);
    }
    let device = plan.device;
    let queue = device
        .queue()
        .ok_or_else(|| Error::internal("an OpenCL launch on a device without a queue"))?;
    let errors = if checked {
        Some(Tensor::zeros(device, DType::U32, [GRID_ERROR_WORDS])?)
    } else {
        None
    };
    let program = device.program(info)?;
    let entry = info.opencl.entry;
    let (mut kernel, limits) = program.kernel(entry, queue)?;
    let pass = args.iter().map(|a| match a {
        Arg::Scalar(_) => Pass::Scalar,
        Arg::In(_) | Arg::InOut(_) => Pass::Tensor,
    });
    let mismatch =
        || Error::internal("grid launch arguments out of step with the entry point's parameters");
    let tensor_at = |param: usize| match args.get(param) {
        Some(Arg::In(t) | Arg::InOut(t)) => Ok(*t),
        _ => Err(mismatch()),
    };
    for (i, a) in (0u32..).zip(grid_args(pass, checked)) {
        match a {
            GridArg::Scalar { param } => match args.get(param) {
                Some(Arg::Scalar(s)) => set_scalar(&mut kernel, i, *s),
                _ => return Err(mismatch()),
            },
            GridArg::Buffer { param } => kernel.set_mem(i, mem_of(tensor_at(param)?)?),
            GridArg::Offset { param } => kernel.set_size(i, tensor_at(param)?.offset()),
            GridArg::Strides { param } => kernel.set_dims(i, tensor_at(param)?.strides()),
            GridArg::Shape { param } => kernel.set_dims(i, tensor_at(param)?.shape()),
            GridArg::Errors => {
                let e = errors.as_ref().ok_or_else(mismatch)?;
                kernel.set_mem(i, mem_of(e)?)
            }
        }?;
    }
    tracing::trace!(target: "silt::launch", kernel = info.name, global = ?plan.global, "grid launch");
    let range = NdRange {
        global: plan.global,
        local: plan.group,
    };
    program.enqueue_grid(queue, &kernel, &range)?;
    program.put_back(entry, limits, kernel);
    let Some(errors) = errors else {
        return Ok(true);
    };
    let words: Vec<u32> = errors.to_vec()?;
    if words.first().copied().unwrap_or(0) == 0 {
        return Ok(true);
    }
    let param = words.get(1).copied().unwrap_or(0) as usize;
    let n = (words.get(2).copied().unwrap_or(0) as usize).min(crate::MAX_DIMS);
    let index = (0..n)
        .map(|d| {
            let lo = u64::from(words.get(4 + 2 * d).copied().unwrap_or(0));
            let hi = u64::from(words.get(5 + 2 * d).copied().unwrap_or(0));
            lo | hi << 32
        })
        .collect();
    let shape = match tensor_at(param).ok() {
        Some(t) => t.shape().to_vec(),
        None => param
            .checked_sub(args.len())
            .and_then(|i| plan.local_shapes.get(i))
            .map(|s| s.to_vec())
            .unwrap_or_default(),
    };
    Err(Error::IndexOutOfBounds {
        kernel: info.name,
        view: plan.names.get(param).copied().unwrap_or(""),
        index,
        shape,
    })
}

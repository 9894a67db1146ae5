//! The OpenCL backend of a scan: up to four launches of the scan entry point,
//! by phase (`silt_abi::opencl::scan_phase`): chunk totals, prefixes, then the
//! scan written.

use silt_abi::opencl::{scan_args, scan_phase, Pass, ScanArg, SCAN_CHUNK};

use crate::cl::codes::{INVALID_DEVICE, INVALID_VALUE, OUT_OF_RESOURCES};
use crate::cl::{ClError, Kernel, Mem};
use crate::device::hooks::take_injected_enqueue_failure;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::launch::opencl::{mem_of, set_scalar};
use crate::launch::plan::{tensor_args, Arg};
use crate::launch::reduce::plan::ReducePlan;
use crate::layout::{Layout, MAX_DIMS};
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

/// Runs a scan on the plan's OpenCL device and returns its new output tensors
/// (one per `outputs` dtype; `accs` are the accumulator's dtypes). Views of any
/// strides are read in place. Asynchronous.
///
/// # Errors
/// Build, allocation and launch errors.
pub fn launch_scan_opencl(
    info: &'static KernelInfo,
    plan: &ReducePlan,
    args: &[Arg<'_>],
    outputs: &[DType],
    accs: &[DType],
    exclusive: bool,
) -> Result<Vec<Tensor>> {
    let device = &plan.device;
    let outs = outputs
        .iter()
        .map(|&d| Tensor::__uninit(device, d, &plan.out_shape))
        .collect::<Result<Vec<_>>>()?;
    if plan.rows == 0 || plan.len == 0 {
        return Ok(outs);
    }
    let Some(queue) = device.queue() else {
        return Err(Error::cl("launch", INVALID_DEVICE));
    };
    let program = device.program(info)?;
    let views: Vec<Layout> = tensor_args(args)
        .map(|(_, t, _)| plan.view_of(t))
        .collect::<Result<_>>()?;
    // the outputs are contiguous in the axes' own order: their strides over
    // the plan's order
    let shape: Vec<usize> = plan.perm.iter().map(|&a| plan.broadcast[a]).collect();
    let contiguous = Layout::contiguous(&plan.broadcast)?;
    let out_strides: Vec<usize> = plan.perm.iter().map(|&a| contiguous.strides[a]).collect();
    if shape.len() > MAX_DIMS {
        return Err(Error::TooManyDims {
            ndim: shape.len(),
            max: MAX_DIMS,
        });
    }
    let chunks = plan.len.div_ceil(SCAN_CHUNK);
    let cells = plan
        .rows
        .checked_mul(chunks)
        .ok_or_else(|| Error::SizeOverflow {
            shape: plan.out_shape.to_vec(),
            elem_size: 1,
        })?;
    let totals: Vec<Tensor> = accs
        .iter()
        .map(|&d| Tensor::__uninit(device, d, &[cells]))
        .collect::<Result<_>>()?;
    let entry = info.entry;
    let mut phases = Vec::new();
    if chunks > 1 {
        phases.push((scan_phase::TOTALS, cells));
        phases.push((scan_phase::PREFIXES, plan.rows));
    }
    let write = if exclusive {
        scan_phase::EXCLUSIVE
    } else {
        scan_phase::INCLUSIVE
    };
    phases.push((write, cells));
    for (phase, items) in phases {
        let (mut kernel, limits) = program.kernel(entry, queue)?;
        set_args(
            &mut kernel,
            args,
            &views,
            &totals,
            &outs,
            &out_strides,
            &shape,
            plan,
            chunks,
            phase,
        )?;
        let local = device.local_size(items, limits);
        let global =
            items
                .div_ceil(local)
                .checked_mul(local)
                .ok_or_else(|| Error::SizeOverflow {
                    shape: plan.out_shape.to_vec(),
                    elem_size: 1,
                })?;
        if take_injected_enqueue_failure() {
            return Err(Error::cl("clEnqueueNDRangeKernel", OUT_OF_RESOURCES));
        }
        program.enqueue(queue, &kernel, global, local)?;
        program.put_back(entry, limits, kernel);
    }
    tracing::trace!(target: "silt::launch", kernel = info.name, rows = plan.rows, len = plan.len, "scan");
    program.save_after_first_launch(device, |d| d.synchronize().is_ok());
    Ok(outs)
}

/// Sets the scan entry point's arguments for one phase.
#[allow(clippy::too_many_arguments)]
fn set_args<'a>(
    kernel: &mut Kernel<'a>,
    args: &'a [Arg<'a>],
    views: &[Layout],
    totals: &'a [Tensor],
    outs: &'a [Tensor],
    out_strides: &[usize],
    shape: &[usize],
    plan: &ReducePlan,
    chunks: usize,
    phase: u32,
) -> Result<()> {
    let mismatch = || ClError::new("clSetKernelArg", INVALID_VALUE);
    let pass = args.iter().map(|a| match a {
        Arg::Scalar(_) => Pass::Scalar,
        Arg::In(_) | Arg::InOut(_) => Pass::Tensor,
    });
    let mut view_no = 0;
    for (i, a) in (0u32..).zip(scan_args(pass, totals.len(), outs.len())) {
        match a {
            ScanArg::Scalar { param } => match args.get(param) {
                Some(Arg::Scalar(s)) => set_scalar(kernel, i, *s),
                _ => return Err(mismatch().into()),
            },
            ScanArg::Buffer { param } => match args.get(param) {
                Some(Arg::In(t) | Arg::InOut(t)) => kernel.set_mem(i, mem_of(t)?),
                _ => return Err(mismatch().into()),
            },
            ScanArg::Offset { .. } => {
                let off = views.get(view_no).map_or(0, |v| v.offset);
                view_no += 1;
                kernel.set_size(i, off)
            }
            ScanArg::Strides { view, .. } => {
                let st = views.get(view).map_or(&[][..], |v| &*v.strides);
                kernel.set_dims(i, st)
            }
            ScanArg::Acc { component } => {
                let t: &Mem = mem_of(totals.get(component).ok_or_else(mismatch)?)?;
                kernel.set_mem(i, t)
            }
            ScanArg::Out { output } => {
                kernel.set_mem(i, mem_of(outs.get(output).ok_or_else(mismatch)?)?)
            }
            ScanArg::OutStrides => kernel.set_dims(i, out_strides),
            ScanArg::Shape => kernel.set_dims(i, shape),
            ScanArg::Ndim => kernel.set_value(i, u32::try_from(shape.len()).unwrap_or(u32::MAX)),
            ScanArg::Rows => kernel.set_size(i, plan.rows),
            ScanArg::Len => kernel.set_size(i, plan.len),
            ScanArg::Chunks => kernel.set_size(i, chunks),
            ScanArg::Phase => kernel.set_value(i, phase),
        }?;
    }
    Ok(())
}

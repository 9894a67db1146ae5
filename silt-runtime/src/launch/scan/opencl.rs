//! The OpenCL backend of a scan: up to five launches of the scan entry point,
//! by phase (`silt_abi::opencl::scan_phase`): chunk (or segment) totals,
//! segment prefixes, chunk prefixes, then the scan written.

use silt_abi::opencl::{
    scan_args, scan_phase, Pass, ScanArg, SCAN_CHUNK, SCAN_ROWS_FASTEST, SCAN_ROW_BLOCK,
    SCAN_ROW_BLOCKS, SCAN_SEGMENT, SCAN_SEGMENTS, SCAN_SEGMENTS_PER_CHUNK,
};

use crate::cl::codes::OUT_OF_RESOURCES;
use crate::cl::{Kernel, Mem};
use crate::device::hooks::{reduce_as, take_injected_enqueue_failure};
use crate::device::DeviceKind;
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
        .map(|&d| Tensor::uninit(device, d, &plan.out_shape))
        .collect::<Result<Vec<_>>>()?;
    if plan.rows == 0 || plan.len == 0 {
        return Ok(outs);
    }
    let Some(queue) = device.queue() else {
        return Err(Error::internal(
            "an OpenCL launch on a device without a queue",
        ));
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
    let (mapping, units) = cell_mapping(
        reduce_as(device.info().kind),
        &shape,
        views.first().map(|v| &*v.strides),
    );
    // with segments, a work-item per segment of a chunk, and a segment slot
    // of the totals per segment of a full chunk after the chunk slots
    let segmented = mapping & SCAN_SEGMENTS != 0;
    let (segs, slots) = if segmented {
        (
            plan.len.min(SCAN_CHUNK).div_ceil(SCAN_SEGMENT),
            cells.checked_mul(SCAN_SEGMENTS_PER_CHUNK + 1),
        )
    } else {
        (1, Some(cells))
    };
    let overflow = || Error::SizeOverflow {
        shape: plan.out_shape.to_vec(),
        elem_size: 1,
    };
    // the work-items of the phases over cells: at most `cells * segs`
    let items = units
        .checked_mul(chunks)
        .and_then(|c| c.checked_mul(segs))
        .ok_or_else(overflow)?;
    let slots = slots.ok_or_else(overflow)?;
    let totals: Vec<Tensor> = accs
        .iter()
        .map(|&d| Tensor::uninit(device, d, &[slots]))
        .collect::<Result<_>>()?;
    // blocks of rows have an entry point of their own; the prefixes are
    // always the one-row entry's
    let cells_entry = if mapping & SCAN_ROW_BLOCKS != 0 {
        info.opencl.strided_entry
    } else {
        info.opencl.entry
    };
    let mut phases = Vec::new();
    if chunks > 1 || segs > 1 && segmented {
        phases.push((scan_phase::TOTALS, items));
    }
    if segs > 1 && segmented {
        phases.push((scan_phase::SEGMENT_PREFIXES, cells));
    }
    if chunks > 1 {
        phases.push((scan_phase::PREFIXES, plan.rows));
    }
    let write = if exclusive {
        scan_phase::EXCLUSIVE
    } else {
        scan_phase::INCLUSIVE
    };
    phases.push((write, items));
    for (phase, items) in phases {
        let entry = if phase == scan_phase::PREFIXES || phase == scan_phase::SEGMENT_PREFIXES {
            info.opencl.entry
        } else {
            cells_entry
        };
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
            mapping,
        )?;
        let local = device.arrays_local_size(items, limits);
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
    tracing::trace!(target: "silt::launch", kernel = info.name, rows = plan.rows, len = plan.len, mapping, "scan");
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
    mapping: u32,
) -> Result<()> {
    let mismatch =
        || Error::internal("launch arguments out of step with the entry point's parameters");
    let pass = args.iter().map(|a| match a {
        Arg::Scalar(_) => Pass::Scalar,
        Arg::In(_) | Arg::InOut(_) => Pass::Tensor,
    });
    let mut view_no = 0;
    for (i, a) in (0u32..).zip(scan_args(pass, totals.len(), outs.len())) {
        match a {
            ScanArg::Scalar { param } => match args.get(param) {
                Some(Arg::Scalar(s)) => set_scalar(kernel, i, *s),
                _ => return Err(mismatch()),
            },
            ScanArg::Buffer { param } => match args.get(param) {
                Some(Arg::In(t) | Arg::InOut(t)) => kernel.set_mem(i, mem_of(t)?),
                _ => return Err(mismatch()),
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
            ScanArg::Mapping => kernel.set_value(i, mapping),
        }?;
    }
    Ok(())
}

/// How the scan's (row, chunk) cells go to work-items (`silt_abi`'s
/// `ScanArg::Mapping`), and how many units of rows that makes, from the shape
/// (kept dimensions, then the scanned one) and the first view's strides over
/// it; it changes the speed, never the result. By default on a CPU a
/// work-item takes a chunk of a row, walking its segments, which a core's
/// loop runs as independent chains; on other devices neighbouring
/// work-items take neighbouring segments of a chunk (`SCAN_SEGMENTS`), so
/// that they read neighbouring elements. When the rows are innermost in
/// memory (a scan down the columns of a matrix: the innermost kept dimension
/// at stride 1, the scanned one further), neighbouring work-items take
/// neighbouring rows, so that they read neighbouring words; and on a CPU a
/// work-item takes a block of [`SCAN_ROW_BLOCK`] rows side by side where the
/// innermost kept dimension holds at least that many.
fn cell_mapping(kind: DeviceKind, shape: &[usize], strides: Option<&[usize]>) -> (u32, usize) {
    let rows: usize = shape.iter().rev().skip(1).product();
    let whole_chunks = match kind {
        DeviceKind::Cpu | DeviceKind::Host => 0,
        DeviceKind::Gpu | DeviceKind::Accelerator => SCAN_SEGMENTS,
    };
    let [.., run, _] = *shape else {
        return (whole_chunks, rows);
    };
    let rows_innermost = run > 1
        && strides.is_some_and(|st| match *st {
            [.., inner, scanned] => inner == 1 && scanned > 1,
            _ => false,
        });
    match kind {
        _ if !rows_innermost => (whole_chunks, rows),
        DeviceKind::Cpu if run >= SCAN_ROW_BLOCK => (
            SCAN_ROWS_FASTEST | SCAN_ROW_BLOCKS,
            rows / run * run.div_ceil(SCAN_ROW_BLOCK),
        ),
        _ => (SCAN_ROWS_FASTEST, rows),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_innermost_in_memory_take_blocks_on_a_cpu_only() {
        let (cpu, gpu) = (DeviceKind::Cpu, DeviceKind::Gpu);
        let both = SCAN_ROWS_FASTEST | SCAN_ROW_BLOCKS;
        let map = |kind, shape: &[usize], st: &[usize]| cell_mapping(kind, shape, Some(st));
        // down the columns of a [4096, 64] matrix: 64 rows, each at stride 64
        assert_eq!(map(cpu, &[64, 4096], &[1, 64]), (both, 4));
        assert_eq!(map(gpu, &[64, 4096], &[1, 64]), (SCAN_ROWS_FASTEST, 64));
        // 40 rows a run: blocks from rows 0, 16 and 24 (the last ends at the
        // run's end)
        assert_eq!(map(cpu, &[3, 40, 100], &[4000, 1, 40]), (both, 9));
        // fewer rows in a run than a block: neighbouring rows only
        assert_eq!(map(cpu, &[8, 4096], &[1, 8]), (SCAN_ROWS_FASTEST, 8));
        // along contiguous rows, one row, or no view
        // (on a GPU, neighbouring segments of a chunk)
        let seg = SCAN_SEGMENTS;
        assert_eq!(map(cpu, &[64, 4096], &[4096, 1]), (0, 64));
        assert_eq!(map(gpu, &[64, 4096], &[4096, 1]), (seg, 64));
        assert_eq!(map(cpu, &[1, 4096], &[1, 1]), (0, 1));
        assert_eq!(map(gpu, &[1, 4096], &[1, 1]), (seg, 1));
        assert_eq!(map(cpu, &[4096], &[1]), (0, 1));
        assert_eq!(map(gpu, &[4096], &[1]), (seg, 1));
        assert_eq!(cell_mapping(cpu, &[64, 4096], None), (0, 64));
        assert_eq!(cell_mapping(gpu, &[64, 4096], None), (seg, 64));
        // a broadcast column (stride 0 along the scan) reads no further
        assert_eq!(map(cpu, &[64, 4096], &[1, 0]), (0, 64));
        assert_eq!(map(gpu, &[64, 4096], &[1, 0]), (seg, 64));
    }
}

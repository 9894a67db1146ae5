//! The OpenCL backend of a reduction: the first pass over tiles of each row,
//! then tree passes over the partial results until one value per row is left
//! (the entry points and their arguments: `silt_abi::opencl::reduce_args`,
//! `tree_args`).

use silt_abi::opencl::{
    reduce_args, tree_args, Pass, ReduceArg, TreeArg, REDUCE_LANES, REDUCE_TILE, ROWS_FASTEST,
    ROW_BLOCK, ROW_BLOCKS, TILE_BLOCK, TILE_BLOCKS, WHOLE_ROWS, WHOLE_TILES,
};

use crate::cl::codes::OUT_OF_RESOURCES;
use crate::cl::Mem;
use crate::device::hooks::{reduce_as, take_injected_enqueue_failure};
use crate::device::{DeviceKind, GATHER_STRIDE};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::launch::opencl::{mem_of, set_scalar};
use crate::launch::plan::{tensor_args, Arg};
use crate::layout::{coalesce, Layout};
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

use super::plan::ReducePlan;

/// Runs a reduction on the plan's OpenCL device and returns its new output
/// tensors (one per `outputs` dtype; `accs` are the accumulator's dtypes).
/// Views of any strides are read in place. Asynchronous.
///
/// # Errors
/// Build, allocation and launch errors.
pub fn launch_reduce_opencl(
    info: &'static KernelInfo,
    plan: &ReducePlan,
    args: &[Arg<'_>],
    outputs: &[DType],
    accs: &[DType],
) -> Result<Vec<Tensor>> {
    let device = &plan.device;
    let outs = outputs
        .iter()
        .map(|&d| Tensor::uninit(device, d, &plan.out_shape))
        .collect::<Result<Vec<_>>>()?;
    if plan.rows == 0 {
        return Ok(outs);
    }
    let (Some(tree_entry), Some(queue)) = (info.opencl.tree_entry, device.queue()) else {
        return Err(Error::internal(
            "an OpenCL launch on a device without a queue",
        ));
    };
    let program = device.program(info)?;
    let views: Vec<Layout> = tensor_args(args)
        .map(|(_, t, _)| plan.view_of(t))
        .collect::<Result<_>>()?;
    let strided = views.iter().any(|v| !v.is_contiguous());
    // kept and reduced dimensions coalesced apart: a row never spans both.
    // No kept (or no reduced) dimension stays none, not `coalesce`'s one of
    // size 1, so that a reduction of all 16 dimensions (or of none of them)
    // passes 16 dimensions, not 17.
    let (dims, strides, kept) = if strided {
        let shape: Vec<usize> = views.first().map_or_else(Vec::new, |v| v.shape.to_vec());
        let k = plan.kept;
        let kept_strides: Vec<&[usize]> = views.iter().map(|v| &v.strides[..k]).collect();
        let red_strides: Vec<&[usize]> = views.iter().map(|v| &v.strides[k..]).collect();
        let (mut dims, mut strides) = if k == 0 {
            (Vec::new(), vec![Vec::new(); views.len()])
        } else {
            coalesce(&shape[..k], &kept_strides)
        };
        let kept = dims.len();
        let (rdims, rstrides) = if k == shape.len() {
            (Vec::new(), vec![Vec::new(); views.len()])
        } else {
            coalesce(&shape[k..], &red_strides)
        };
        dims.extend(rdims);
        for (s, r) in strides.iter_mut().zip(rstrides) {
            s.extend(r);
        }
        (dims, strides, kept)
    } else {
        (Vec::new(), Vec::new(), 0)
    };
    let per_row = plan.len.div_ceil(REDUCE_TILE);
    let lanes = plan
        .rows
        .checked_mul(per_row)
        .and_then(|g| g.checked_mul(REDUCE_LANES))
        .ok_or_else(|| Error::SizeOverflow {
            shape: plan.out_shape.to_vec(),
            elem_size: 1,
        })?;
    let partials = |n: usize| -> Result<Vec<Tensor>> {
        accs.iter()
            .map(|&d| Tensor::uninit(device, d, &[n.max(1)]))
            .collect()
    };
    let mismatch =
        || Error::internal("launch arguments out of step with the entry point's parameters");
    // the first pass: each lane's value
    let mut parts: Vec<Tensor>;
    let mut mapping = 0;
    if lanes > 0 {
        let entry = if strided {
            info.opencl.strided_entry
        } else {
            info.opencl.entry
        };
        // neighbouring work-items on neighbouring rows when the kept dimensions
        // are innermost in memory (a sum down the columns of a matrix); not
        // for one row, whose kept dimension (of size 1, from coalescing no
        // dimensions) has a stride that says nothing
        let rows_fastest = strided
            && kept > 0
            && plan.rows > 1
            && strides.first().is_some_and(|st| {
                st.get(kept - 1) == Some(&1) && st.last().is_some_and(|&r| r > 1)
            });
        // a tile's elements far apart, its neighbours' near (a transpose)
        let tile_blocks = strided
            && !rows_fastest
            && per_row > 1
            && tiles_alike(&dims[kept..], strides.iter().map(|st| &st[kept..]));
        mapping = lane_mapping(
            reduce_as(device.info().kind),
            rows_fastest,
            kept,
            tile_blocks,
            plan.len,
        );
        // whole rows write the outputs, no partial results
        parts = partials(if mapping & WHOLE_ROWS != 0 { 1 } else { lanes })?;
        let units = if mapping & ROW_BLOCKS != 0 {
            plan.rows.div_ceil(ROW_BLOCK)
        } else {
            plan.rows
        };
        let blocks = if mapping & TILE_BLOCKS != 0 {
            per_row.div_ceil(TILE_BLOCK)
        } else {
            per_row
        };
        let items = units
            * blocks
            * if mapping & WHOLE_TILES != 0 {
                1
            } else {
                REDUCE_LANES
            };
        let pass = args.iter().map(|a| match a {
            Arg::Scalar(_) => Pass::Scalar,
            Arg::In(_) | Arg::InOut(_) => Pass::Tensor,
        });
        let (mut kernel, limits) = program.kernel(entry, queue)?;
        let mut view_no = 0;
        for (i, a) in (0u32..).zip(reduce_args(pass, accs.len(), outs.len(), strided)) {
            match a {
                ReduceArg::Scalar { param } => match args.get(param) {
                    Some(Arg::Scalar(s)) => set_scalar(&mut kernel, i, *s),
                    _ => return Err(mismatch()),
                },
                ReduceArg::Buffer { param } => match args.get(param) {
                    Some(Arg::In(t) | Arg::InOut(t)) => kernel.set_mem(i, mem_of(t)?),
                    _ => return Err(mismatch()),
                },
                ReduceArg::Offset { .. } => {
                    let off = views.get(view_no).map_or(0, |v| v.offset);
                    view_no += 1;
                    kernel.set_size(i, off)
                }
                ReduceArg::Strides { view, .. } => {
                    kernel.set_dims(i, strides.get(view).map_or(&[][..], Vec::as_slice))
                }
                ReduceArg::Acc { component } => {
                    kernel.set_mem(i, mem_of(parts.get(component).ok_or_else(mismatch)?)?)
                }
                ReduceArg::Out { output } => {
                    kernel.set_mem(i, mem_of(outs.get(output).ok_or_else(mismatch)?)?)
                }
                ReduceArg::Shape => kernel.set_dims(i, &dims),
                ReduceArg::Ndim => {
                    kernel.set_value(i, u32::try_from(dims.len()).unwrap_or(u32::MAX))
                }
                ReduceArg::Kept => kernel.set_value(i, u32::try_from(kept).unwrap_or(u32::MAX)),
                ReduceArg::Rows => kernel.set_size(i, plan.rows),
                ReduceArg::Len => kernel.set_size(i, plan.len),
                ReduceArg::Tiles => kernel.set_size(i, per_row),
                ReduceArg::Mapping => kernel.set_value(i, mapping),
            }?;
        }
        let local = device.arrays_local_size(items, limits);
        let global =
            items
                .div_ceil(local)
                .checked_mul(local)
                .ok_or_else(|| Error::SizeOverflow {
                    shape: plan.out_shape.to_vec(),
                    elem_size: 1,
                })?;
        tracing::trace!(target: "silt::launch", kernel = info.name, rows = plan.rows, len = plan.len, strided, mapping, "reduce");
        if take_injected_enqueue_failure() {
            return Err(Error::cl("clEnqueueNDRangeKernel", OUT_OF_RESOURCES));
        }
        program.enqueue(queue, &kernel, global, local)?;
        program.put_back(entry, limits, kernel);
        if mapping & WHOLE_ROWS != 0 {
            // the first pass wrote the rows' results
            program.save_after_first_launch(device, |d| d.synchronize().is_ok());
            return Ok(outs);
        }
    } else {
        parts = partials(lanes)?;
    }
    // tree passes: REDUCE_LANES partial results of a row at a time; the lanes
    // holding elements are a prefix of each row's
    let mut leaves = if plan.len == 0 {
        0
    } else {
        (per_row - 1) * REDUCE_LANES + (plan.len - (per_row - 1) * REDUCE_TILE).min(REDUCE_LANES)
    };
    // the first pass's layout: each row's lanes together, or (ROW_BLOCKS)
    // lane-major
    let (mut stride, mut part_stride) = if mapping & ROW_BLOCKS != 0 {
        (1, plan.rows)
    } else {
        (per_row * REDUCE_LANES, 1)
    };
    loop {
        let blocks = leaves.div_ceil(REDUCE_LANES).max(1);
        let last = blocks == 1;
        let next = if last {
            Vec::new()
        } else {
            partials(plan.rows * blocks)?
        };
        let (mut kernel, tree_limits) = program.kernel(tree_entry, queue)?;
        for (i, a) in (0u32..).zip(tree_args(accs.len(), outs.len())) {
            match a {
                TreeArg::Src { component } => kernel.set_mem(i, acc_mem(&parts, &outs, component)?),
                TreeArg::Dst { component } => {
                    let dst = if last { &parts } else { &next };
                    kernel.set_mem(i, acc_mem(dst, &outs, component)?)
                }
                TreeArg::Out { output } => {
                    let o = outs.get(output).ok_or_else(mismatch)?;
                    kernel.set_mem(i, mem_of(o)?)
                }
                TreeArg::Rows => kernel.set_size(i, plan.rows),
                TreeArg::Parts => kernel.set_size(i, leaves),
                TreeArg::Stride => kernel.set_size(i, stride),
                TreeArg::PartStride => kernel.set_size(i, part_stride),
                TreeArg::Blocks => kernel.set_size(i, blocks),
                TreeArg::Final => kernel.set_value(i, u32::from(last)),
                TreeArg::Count => kernel.set_size(i, plan.len),
            }?;
        }
        let groups = plan.rows * blocks * REDUCE_LANES;
        program.enqueue(queue, &kernel, groups, REDUCE_LANES)?;
        program.put_back(tree_entry, tree_limits, kernel);
        if last {
            break;
        }
        // the in-order queue runs the next pass after this one: the partial
        // results go back to the pool now and are reused only by later work
        parts = next;
        leaves = blocks;
        stride = blocks;
        part_stride = 1;
    }
    program.save_after_first_launch(device, |d| d.synchronize().is_ok());
    Ok(outs)
}

/// The buffer of a component of partial results; a final pass writes none,
/// and the outputs stand in for them.
fn acc_mem<'a>(parts: &'a [Tensor], outs: &'a [Tensor], c: usize) -> Result<&'a Mem> {
    match parts.get(c) {
        Some(p) => mem_of(p),
        None => outs.first().map_or(
            Err(Error::internal("a reduction without an accumulator")),
            mem_of,
        ),
    }
}

/// How the first pass gives the lanes to work-items (`silt_abi`'s
/// `ReduceArg::Mapping`), which changes the speed and never the result. On a
/// GPU, a work-item per lane: neighbouring work-items read neighbouring
/// elements (those of neighbouring rows when the rows are innermost in
/// memory). On a CPU, whose cores each read best in order: a whole tile per
/// work-item; or, when the rows are innermost (the sum of a matrix's columns)
/// and one kept dimension steps from row to row, a lane of a block of rows
/// per work-item, neighbouring work-items on neighbouring blocks, reading the
/// block's elements of each place in the row together (a run of neighbouring
/// elements); or, when
/// `tile_blocks` (a tile's elements far apart, neighbouring tiles' near: see
/// [`tiles_alike`]), a lane of a block of tiles per work-item.
///
/// Rows of one tile (`len`, at least 1) are whole rows ([`WHOLE_ROWS`]: a
/// work-item folds and finishes a row) on a CPU, unless the rows are
/// innermost and longer than [`REDUCE_LANES`] (a matrix's columns, which
/// blocks of rows read as runs), and on a GPU up to [`REDUCE_LANES`]
/// elements, where a work-item per lane would leave most of a work-group's
/// lanes empty.
fn lane_mapping(
    kind: DeviceKind,
    rows_fastest: bool,
    kept: usize,
    tile_blocks: bool,
    len: usize,
) -> u32 {
    let one_tile = (1..=REDUCE_TILE).contains(&len);
    let whole_rows = match kind {
        DeviceKind::Cpu => one_tile && (!rows_fastest || len <= REDUCE_LANES),
        _ => one_tile && len <= REDUCE_LANES,
    };
    if whole_rows {
        return WHOLE_TILES | WHOLE_ROWS;
    }
    match (kind, rows_fastest) {
        (DeviceKind::Cpu, false) if tile_blocks => TILE_BLOCKS,
        (DeviceKind::Cpu, false) => WHOLE_TILES,
        (DeviceKind::Cpu, true) if kept == 1 => ROWS_FASTEST | ROW_BLOCKS,
        (_, true) => ROWS_FASTEST,
        (_, false) => 0,
    }
}

/// Whether the tiles of a row, over the reduced dimensions `dims` (coalesced)
/// with each view's `strides` over them, all hold [`REDUCE_TILE`] elements
/// laid out alike, and some view's tile reads far apart what a block of
/// tiles reads near: what [`TILE_BLOCKS`] needs and what it is for.
///
/// The tiles are alike when the innermost dimension's size `n` divides the
/// tile, so that a tile is `p = REDUCE_TILE / n` whole runs of it, and the
/// next dimension's size is a multiple of `p`, so that no tile crosses its
/// end: element `q * n + c` of every tile is then `q` steps along the one
/// dimension and `c` along the other from the tile's first. Near: a view whose
/// innermost stride is at least [`GATHER_STRIDE`] and more than `p` steps of
/// the next dimension (the neighbouring tile's element).
fn tiles_alike<'a>(dims: &[usize], strides: impl Iterator<Item = &'a [usize]>) -> bool {
    let [.., m, n] = *dims else {
        return false;
    };
    if n == 0 || !REDUCE_TILE.is_multiple_of(n) || m % (REDUCE_TILE / n) != 0 {
        return false;
    }
    let p = REDUCE_TILE / n;
    let r = dims.len();
    strides
        .into_iter()
        .any(|st| match (st.get(r - 2), st.get(r - 1)) {
            (Some(&out), Some(&inner)) => inner >= GATHER_STRIDE && out.saturating_mul(p) < inner,
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_one_tile_are_whole_rows_where_that_is_faster() {
        use DeviceKind::{Cpu, Gpu};
        let whole = WHOLE_TILES | WHOLE_ROWS;
        // (kind, rows fastest, len) -> mapping, one kept dimension, no tile blocks
        for (kind, rows_fastest, len, want) in [
            (Cpu, false, 1, whole),
            (Cpu, false, REDUCE_TILE, whole),
            (Cpu, false, REDUCE_TILE + 1, WHOLE_TILES),
            (Cpu, false, 0, WHOLE_TILES),
            // a matrix's columns: short ones whole, longer ones in blocks of rows
            (Cpu, true, REDUCE_LANES, whole),
            (Cpu, true, REDUCE_LANES + 1, ROWS_FASTEST | ROW_BLOCKS),
            (Gpu, false, REDUCE_LANES, whole),
            (Gpu, false, REDUCE_LANES + 1, 0),
            (Gpu, true, REDUCE_LANES + 1, ROWS_FASTEST),
        ] {
            assert_eq!(
                lane_mapping(kind, rows_fastest, 1, false, len),
                want,
                "{kind:?}, rows fastest {rows_fastest}, len {len}"
            );
        }
    }

    #[test]
    fn tiles_are_alike_only_in_whole_runs_that_no_tile_crosses() {
        let t = |dims: &[usize], st: &[usize]| tiles_alike(dims, [st].into_iter());
        // a transposed [4096, 4096]: each tile a row, neighbours in memory
        assert!(t(&[4096, 4096], &[1, 4096]));
        // four runs of 1,024 a tile, in 16 rows: 4 whole tiles
        assert!(t(&[16, 1024], &[1, 16]));
        // the same, read at one below the stride a gather needs
        assert!(!t(&[15 * 4, 1024], &[1, GATHER_STRIDE - 1]));
        // 16-element runs: 256 a tile
        assert!(t(&[512, 16], &[1, 512]));
        // with a batch dimension outside
        assert!(t(&[3, 32, 4096], &[32 * 4096, 1, 32]));
        // a run that does not divide the tile, a tile across a run's end
        assert!(!t(&[4096, 4000], &[1, 4096]));
        assert!(!t(&[10, 1024], &[1, 10]));
        // contiguous, or neighbouring tiles no nearer than a tile's elements
        assert!(!t(&[4096, 4096], &[4096, 1]));
        assert!(!t(&[8, 1024], &[1024 * 16, 16]));
        // one reduced dimension, or none
        assert!(!t(&[8192], &[64]));
        assert!(!t(&[], &[]));
    }
}

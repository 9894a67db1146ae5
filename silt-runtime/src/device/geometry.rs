//! Launch geometry: the work-group size of each launch, chosen per kind of
//! device, within what the kernel allows.
//!
//! No result depends on it: a map entry point is one work-item per element
//! (guarded by the element count), a reduction's first pass one work-item per
//! lane or tile (its tree passes keep their own fixed groups), a scan one
//! work-item per chunk.
//!
//! - **CPU (PoCL):** [`CPU_LOCAL`] work-items, or [`CPU_WIDE`] for a launch
//!   of at least `CPU_WIDE * max(compute units, CPU_WIDE_GROUPS)` items. PoCL
//!   compiles a kernel's work-group function once per local size, so silt
//!   uses these two sizes whatever the number of elements: at most two
//!   compiled variants per entry point, no recompile for a new tensor size.
//!   256 runs below PoCL's own choice on large launches and level with it on
//!   small ones; 4096 matches it (docs/performance.md, "Launch geometry",
//!   has the figures). Wide groups wait until every
//!   compute unit gets one and the last group, mostly past the count, wastes
//!   at most `1 / CPU_WIDE_GROUPS` of the launch. A 1-element launch with a
//!   256-wide group costs no more than with a 16-wide one: the work-items past
//!   the count return at their first test.
//! - **GPU and others:** [`GPU_LOCAL`] work-items, rounded down to a multiple
//!   of the kernel's preferred multiple (the warp or wavefront); a launch of
//!   fewer items takes the fewest whole multiples that cover them, so a tiny
//!   launch runs one warp, not a block of eight. GPU drivers do not compile
//!   per local size, so these few sizes (at most `GPU_LOCAL / multiple`) cost
//!   no compile.
//! - **Strided map launches** are three-dimensional
//!   ([`silt_abi::opencl::strided_indices`]): [`strided_grid`] splits the
//!   size above between the innermost dimension and the next (and the rest),
//!   each part a power of two. On a CPU device the split is one of a dozen
//!   fixed shapes per group size (sides that are powers of 4), the first that
//!   pads the launch by at most an eighth, and a small launch takes the first
//!   shape whatever it pads: each new shape of a tensor would otherwise be a
//!   compile on PoCL. Elsewhere each part pads its dimension by at most an
//!   eighth (GPU drivers do not compile per local size). A wide row suits
//!   every view that reads along the innermost dimension (strides 0 or 1, a
//!   broadcast or a contiguous row); a launch where some view strides at least
//!   [`GATHER_STRIDE`] elements along it (a transposed read) gets a square
//!   tile instead, so that the lines one row of the tile fetches serve the
//!   tile's other rows (on PoCL a transposed `add` runs about four times as
//!   fast in square tiles as in wide rows: docs/performance.md, "Strided
//!   launches").

use std::cell::Cell;

use silt_abi::opencl::STRIDED_MAX_GROUPS_YZ;

use crate::cl::{ClError, Kernel, KernelLimits, Queue};

use super::info::{DeviceInfo, DeviceKind};

/// The work-group size of a launch on a CPU device below the wide threshold.
pub(crate) const CPU_LOCAL: usize = 256;

/// The work-group size of a large launch on a CPU device: PoCL's own choice
/// for large launches (its maximum).
pub(crate) const CPU_WIDE: usize = 4096;

/// The fewest wide groups a CPU launch is split into (more on a device with
/// more compute units): the last group, mostly past the element count, then
/// costs at most this fraction of the launch.
pub(crate) const CPU_WIDE_GROUPS: usize = 8;

/// The stride, in elements, along the innermost dimension from which a view
/// is read as a gather (each work-item of a row on its own cache line for
/// `f32`), so that a strided launch is split into square tiles rather than
/// wide rows.
pub(crate) const GATHER_STRIDE: usize = 16;

/// The work-group size of a full launch on a GPU (before rounding down to the
/// kernel's preferred multiple).
pub(crate) const GPU_LOCAL: usize = 256;

thread_local! {
    /// A work-group size this thread's launches use instead (a test and
    /// benchmark hook).
    pub(super) static LOCAL_OVERRIDE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The work-group size for a launch of `items` work-items of a kernel with
/// `limits` on the device `info` describes: at least 1, at most what the
/// kernel and the device allow.
pub(crate) fn local_size(info: &DeviceInfo, items: usize, limits: KernelLimits) -> usize {
    let max = limits.max.min(info.max_work_group_size).max(1);
    let want = LOCAL_OVERRIDE
        .with(Cell::get)
        .unwrap_or_else(|| match info.kind {
            DeviceKind::Cpu | DeviceKind::Host => {
                let groups = (info.compute_units as usize).max(CPU_WIDE_GROUPS);
                if items >= CPU_WIDE.saturating_mul(groups) {
                    CPU_WIDE
                } else {
                    CPU_LOCAL
                }
            }
            DeviceKind::Gpu | DeviceKind::Accelerator => {
                let m = limits.multiple.max(1);
                let full = (GPU_LOCAL / m).max(1) * m;
                if items < full {
                    items.div_ceil(m).max(1) * m
                } else {
                    full
                }
            }
        });
    want.clamp(1, max)
}

/// The work-group size for a launch of an entry point whose work-items hold
/// arrays of their own (a reduction's first pass, a scan): as [`local_size`],
/// but never [`CPU_WIDE`] on a CPU. PoCL keeps the values a work-item holds
/// across a loop whose trip count is the same in every work-item (silt's own
/// loops over the dimensions, a user's `for i in 0..5`) once per work-item of
/// the group, on the worker thread's stack (8 MiB by default): a reduction of
/// three inputs with such loops in `map` and `combine`, over 40,000 rows of 3,
/// overflowed it in groups of 4096 and crashed (it ran with a 16 MiB stack, and
/// in groups of 256). Those work-items each fold a tile, a block or a chunk, so
/// the wide groups gain them nothing measurable. A test's override
/// (`testing::local_size`) still applies.
pub(crate) fn arrays_local_size(info: &DeviceInfo, items: usize, limits: KernelLimits) -> usize {
    let local = local_size(info, items, limits);
    let overridden = LOCAL_OVERRIDE.with(Cell::get).is_some();
    match info.kind {
        DeviceKind::Cpu | DeviceKind::Host if !overridden => local.min(CPU_LOCAL),
        _ => local,
    }
}

/// The grid of a strided map launch: work-items and work-group sizes in
/// three dimensions (see [`silt_abi::opencl::strided_indices`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Grid {
    /// Work-items in each dimension, each a multiple of its `local`.
    pub(crate) global: [usize; 3],
    /// The work-group's size in each dimension.
    pub(crate) local: [usize; 3],
}

impl Grid {
    /// The enqueues that cover the grid, as (global offset, work-items): one,
    /// unless the second or third dimension has more than
    /// [`STRIDED_MAX_GROUPS_YZ`] work-groups.
    pub(crate) fn parts(&self) -> impl Iterator<Item = ([usize; 3], [usize; 3])> + '_ {
        let [gx, gy, gz] = self.global;
        let step_y = STRIDED_MAX_GROUPS_YZ * self.local[1].max(1);
        let step_z = STRIDED_MAX_GROUPS_YZ * self.local[2].max(1);
        (0..gz).step_by(step_z).flat_map(move |z| {
            (0..gy)
                .step_by(step_y)
                .map(move |y| ([0, y, z], [gx, step_y.min(gy - y), step_z.min(gz - z)]))
        })
    }
}

impl Grid {
    /// Enqueues `kernel` over the grid, in its [`parts`](Grid::parts).
    pub(crate) fn enqueue(&self, queue: &Queue, kernel: &Kernel<'_>) -> Result<(), ClError> {
        for (offset, global) in self.parts() {
            queue.launch_nd(kernel, 3, offset, global, self.local)?;
        }
        Ok(())
    }
}

/// The largest power of two up to `cap` (at least 1) that pads `extent` to a
/// multiple of itself by at most an eighth of `extent` (1 always does).
fn fitting_group(extent: usize, cap: usize) -> usize {
    let mut p = if cap <= 1 {
        1
    } else {
        1usize << (usize::BITS - 1 - cap.leading_zeros())
    };
    while p > 1 {
        let padded = extent.div_ceil(p).saturating_mul(p);
        if padded - extent <= extent / 8 {
            break;
        }
        p /= 2;
    }
    p
}

/// The grid of a strided map launch over `dims` (the coalesced shape,
/// innermost first: at least one dimension, none of size 0) of a kernel with
/// `limits`, whose views have `strides` (each innermost first, in elements):
/// work-groups of about the size [`local_size`] gives the launch's element
/// count, split between the innermost dimension (the first of the
/// work-group's dimensions) and the next, as a wide row or, when some view
/// gathers along the innermost dimension (a stride of at least
/// [`GATHER_STRIDE`]), as a square tile; the third dimension counts the rest,
/// and takes what room two narrow inner dimensions leave in the group (padded
/// as the others: the entry points return past the shape in all three).
/// `None` when the padded grid overflows `usize`.
pub(crate) fn strided_grid<S: AsRef<[usize]>>(
    info: &DeviceInfo,
    limits: KernelLimits,
    dims: &[usize],
    strides: &[S],
) -> Option<Grid> {
    let w = dims.first().copied().unwrap_or(1).max(1);
    let h = dims.get(1).copied().unwrap_or(1).max(1);
    let z = dims
        .get(2..)
        .unwrap_or(&[])
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))?;
    let items = w.checked_mul(h)?.checked_mul(z)?;
    let group = local_size(info, items, limits);
    let [max0, max1, max2] = info.max_work_item_sizes;
    let gathers = strides
        .iter()
        .any(|s| s.as_ref().first().is_some_and(|&x| x >= GATHER_STRIDE));
    if info.kind == DeviceKind::Cpu && LOCAL_OVERRIDE.with(Cell::get).is_none() {
        if let Some(grid) = cpu_grid(group, [w, h, z], gathers, info.max_work_item_sizes) {
            return Some(grid);
        }
    }
    let first = if gathers {
        // the side of a square of `group` items (rounded down to a power of
        // two), at least a warp wide so that a warp's writes stay contiguous
        let side = 1usize << ((usize::BITS - 1 - group.leading_zeros()) / 2);
        side.max(limits.multiple).min(group)
    } else {
        group
    };
    let mut l0 = fitting_group(w, first.min(max0));
    let l1 = fitting_group(h, (group / l0).min(max1));
    if l0 * l1 < group {
        // a short second dimension leaves room: the row takes it back
        l0 = fitting_group(w, (group / l1).min(max0));
    }
    // two narrow inner dimensions (a batch of small matrices) leave room
    // still: the rest of the dimensions fill it, so that such a launch does
    // not run work-groups of a few work-items (a transposed [2^20, 3, 3]
    // took groups of one)
    let l2 = fitting_group(z, (group / (l0 * l1)).min(max2));
    Some(Grid {
        global: [
            w.div_ceil(l0).checked_mul(l0)?,
            h.div_ceil(l1).checked_mul(l1)?,
            z.div_ceil(l2).checked_mul(l2)?,
        ],
        local: [l0, l1, l2],
    })
}

/// A strided launch on a CPU device whose padding (items past the shape)
/// costs nothing measurable: up to this many work-items in all, a grid takes
/// the first of [`cpu_shapes`] whatever it pads (64 groups of
/// [`CPU_LOCAL`]: the work-items past the shape return at their first test).
const CPU_SMALL_GRID: usize = 64 * CPU_LOCAL;

/// The work-group shapes a strided launch on a CPU device takes, for a group
/// of `group` work-items (a power of 4), in order of preference: rows (a
/// square tile first when a view gathers along the row, then wider rows),
/// each narrower row sharing the group with the second dimension, then the
/// shapes that give the third dimension room (a batch of narrow matrices).
/// Every side is a power of 4, so each group size has a dozen shapes at most,
/// whatever the tensors' shapes.
fn cpu_shapes(group: usize, gathers: bool) -> Vec<[usize; 3]> {
    let side = 1usize << (group.trailing_zeros() / 2);
    let mut widths: Vec<usize> =
        std::iter::successors(Some(group), |&w| (w >= 4).then_some(w / 4)).collect();
    if gathers {
        // the square, then wider rows up to the whole group, then narrower
        widths.sort_by_key(|&w| (w < side, if w >= side { w } else { usize::MAX - w }));
    }
    let mut shapes: Vec<[usize; 3]> = widths.into_iter().map(|w| [w, group / w, 1]).collect();
    for [a, b] in [[side, 1], [4, 4], [1, 1]] {
        if a * b <= group {
            shapes.push([a, b, group / (a * b)]);
        }
    }
    shapes.dedup();
    shapes
}

/// The grid of a strided launch of `dims` (innermost, next, the rest) on a
/// CPU device, in groups of `group` work-items: the first of [`cpu_shapes`]
/// (within the device's sizes `max`) that pads the launch by at most an
/// eighth, or any amount up to [`CPU_SMALL_GRID`] work-items in all; else the
/// one that pads it least. `None` when `group` is not a power of 4 or no shape
/// fits the device (the caller then splits the group freely).
///
/// PoCL compiles a kernel's work-group function once per local size, 0.1 to
/// 0.3 s for one of silt's entry points: when each launch split its group to
/// fit its own shape (powers of two that pad each dimension by at most an
/// eighth), every new shape of a small tensor could cost a compile (a fresh
/// test run compiled 1,216 variants of 248 strided entry points). Here each
/// entry point has a few variants at most, and small launches share one.
fn cpu_grid(group: usize, dims: [usize; 3], gathers: bool, max: [usize; 3]) -> Option<Grid> {
    if group < 4 || !group.is_power_of_two() || !group.trailing_zeros().is_multiple_of(2) {
        return None;
    }
    let items = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
    let enough = items.saturating_add(items / 8).max(CPU_SMALL_GRID);
    let mut best: Option<(usize, Grid)> = None;
    for local in cpu_shapes(group, gathers) {
        if (0..3).any(|k| local[k] > max[k]) {
            continue;
        }
        let Some(global) = (0..3)
            .map(|k| dims[k].div_ceil(local[k]).checked_mul(local[k]))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let global = [global[0], global[1], global[2]];
        let Some(padded) = global.iter().try_fold(1usize, |a, &g| a.checked_mul(g)) else {
            continue;
        };
        let grid = Grid { global, local };
        if padded <= enough {
            return Some(grid);
        }
        if best.is_none_or(|(p, _)| padded < p) {
            best = Some((padded, grid));
        }
    }
    best.map(|(_, g)| g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(kind: DeviceKind, max: usize) -> DeviceInfo {
        let mut i = DeviceInfo::host();
        i.kind = kind;
        i.max_work_group_size = max;
        i
    }

    const WIDE: KernelLimits = KernelLimits {
        max: 4096,
        multiple: 32,
    };

    #[test]
    fn a_cpu_uses_two_sizes_within_the_limits() {
        let mut cpu = info(DeviceKind::Cpu, 4096);
        cpu.compute_units = 2;
        for items in [1, 255, 256, 1 << 14, (1 << 15) - 1] {
            assert_eq!(local_size(&cpu, items, WIDE), CPU_LOCAL, "{items}");
        }
        for items in [1 << 15, (1 << 15) + 1, 1 << 20, usize::MAX] {
            assert_eq!(local_size(&cpu, items, WIDE), CPU_WIDE, "{items}");
        }
        // more compute units: wide once each gets a group
        cpu.compute_units = 64;
        assert_eq!(local_size(&cpu, 1 << 17, WIDE), CPU_LOCAL);
        assert_eq!(local_size(&cpu, 1 << 18, WIDE), CPU_WIDE);
        // a kernel (or device) that allows less gets what it allows
        let narrow = KernelLimits {
            max: 100,
            multiple: 1,
        };
        assert_eq!(local_size(&cpu, 1 << 20, narrow), 100);
        assert_eq!(local_size(&cpu, 1, narrow), 100);
        assert_eq!(local_size(&info(DeviceKind::Cpu, 16), 1 << 20, WIDE), 16);
    }

    #[test]
    fn work_items_with_arrays_never_take_a_cpus_wide_groups() {
        let mut cpu = info(DeviceKind::Cpu, 4096);
        cpu.compute_units = 2;
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), CPU_WIDE);
        assert_eq!(arrays_local_size(&cpu, 1 << 20, WIDE), CPU_LOCAL);
        assert_eq!(arrays_local_size(&cpu, 1, WIDE), CPU_LOCAL);
        let narrow = KernelLimits {
            max: 100,
            multiple: 1,
        };
        assert_eq!(arrays_local_size(&cpu, 1 << 20, narrow), 100);
        // a GPU's groups are small already
        let gpu = info(DeviceKind::Gpu, 1024);
        assert_eq!(arrays_local_size(&gpu, 1 << 20, WIDE), 256);
        // a test's override still applies
        LOCAL_OVERRIDE.with(|o| o.set(Some(4096)));
        assert_eq!(arrays_local_size(&cpu, 1 << 20, WIDE), 4096);
        LOCAL_OVERRIDE.with(|o| o.set(None));
    }

    #[test]
    fn a_gpu_uses_whole_warps_and_few_for_tiny_launches() {
        let gpu = info(DeviceKind::Gpu, 1024);
        assert_eq!(local_size(&gpu, 1 << 20, WIDE), 256);
        assert_eq!(local_size(&gpu, 1, WIDE), 32);
        assert_eq!(local_size(&gpu, 33, WIDE), 64);
        assert_eq!(local_size(&gpu, 255, WIDE), 256);
        // a wavefront of 64
        let amd = KernelLimits {
            max: 256,
            multiple: 64,
        };
        assert_eq!(local_size(&gpu, 100, amd), 128);
        assert_eq!(local_size(&gpu, 1 << 20, amd), 256);
        // a multiple above the full size: one multiple, within the limits
        let odd = KernelLimits {
            max: 1024,
            multiple: 384,
        };
        assert_eq!(local_size(&gpu, 1 << 20, odd), 384);
        for items in [1usize, 7, 31, 32, 200, 1 << 30] {
            let l = local_size(&gpu, items, WIDE);
            assert!(l.is_multiple_of(32) && l <= 256, "{items}: {l}");
        }
    }

    #[test]
    fn strided_grids_split_the_group_and_pad_little() {
        // the free split (GPUs; CPUs take `cpu_grid`, below): the host's kind
        // has a CPU's group sizes
        let mut cpu = info(DeviceKind::Host, 4096);
        cpu.compute_units = 2;
        cpu.max_work_item_sizes = [4096; 3];
        let grid = |dims: &[usize]| strided_grid(&cpu, WIDE, dims, ROWS).unwrap();
        // a wide row takes the whole group; the rest go one at a time
        let g = grid(&[4096, 4096]);
        assert_eq!((g.global, g.local), ([4096, 4096, 1], [4096, 1, 1]));
        let g = grid(&[1024, 64, 3, 5]);
        assert_eq!((g.global, g.local), ([1024, 64, 15], [1024, 4, 1]));
        // a narrow row shares the group with the next dimension
        let g = grid(&[48, 1 << 12]);
        assert_eq!((g.global, g.local), ([48, 1 << 12, 1], [16, 256, 1]));
        // no dimension is padded by more than an eighth
        for dims in [
            [3usize, 7],
            [100, 100],
            [4097, 9],
            [1, 1],
            [65, 33],
            [5000, 1],
        ] {
            let g = grid(&dims);
            for k in 0..2 {
                assert_eq!(g.global[k] % g.local[k], 0, "{dims:?}: {g:?}");
                assert!(g.global[k] - dims[k] <= dims[k] / 8, "{dims:?}: {g:?}");
                assert!(g.local[k].is_power_of_two(), "{dims:?}: {g:?}");
            }
            assert!(g.local[0] * g.local[1] <= 4096, "{dims:?}: {g:?}");
        }
        // two narrow inner dimensions: the rest fill the group, padded as
        // the others (not groups of one work-item)
        let g = grid(&[3, 3, 1 << 20]);
        assert_eq!((g.global, g.local), ([3, 3, 1 << 20], [1, 1, 4096]));
        let g = grid(&[3, 3, 1001]);
        assert_eq!((g.global, g.local), ([3, 3, 1024], [1, 1, 256]));
        let g = grid(&[12, 12, 1 << 16]);
        assert_eq!((g.global, g.local), ([12, 12, 1 << 16], [4, 4, 256]));
        for dims in [
            [3usize, 3, 7],
            [5, 7, 1000],
            [2, 2, 3],
            [12, 12, 12],
            [1, 1, 1],
        ] {
            let g = grid(&dims);
            for k in 0..3 {
                assert_eq!(g.global[k] % g.local[k], 0, "{dims:?}: {g:?}");
                assert!(g.global[k] - dims[k] <= dims[k] / 8, "{dims:?}: {g:?}");
                assert!(g.local[k].is_power_of_two(), "{dims:?}: {g:?}");
            }
            assert!(g.local.iter().product::<usize>() <= 4096, "{dims:?}: {g:?}");
        }
        // within the device's sizes per dimension and the kernel's limit
        let mut gpu = info(DeviceKind::Gpu, 1024);
        gpu.max_work_item_sizes = [1024, 1024, 64];
        let g = strided_grid(&gpu, WIDE, &[3, 3, 1 << 20], ROWS).unwrap();
        assert_eq!(g.local, [1, 1, 64]);
        cpu.max_work_item_sizes = [64, 2, 1];
        let g = strided_grid(&cpu, WIDE, &[4096, 4096], ROWS).unwrap();
        assert_eq!(g.local, [64, 2, 1]);
        let narrow = KernelLimits {
            max: 100,
            multiple: 1,
        };
        cpu.max_work_item_sizes = [4096; 3];
        let g = strided_grid(&cpu, narrow, &[4096, 4096], ROWS).unwrap();
        assert_eq!(g.local, [64, 1, 1]);
        // one dimension; an overflowing grid
        let g = strided_grid(&cpu, WIDE, &[1000], ROWS).unwrap();
        assert_eq!((g.global, g.local), ([1024, 1, 1], [256, 1, 1]));
        assert!(strided_grid(&cpu, WIDE, &[usize::MAX, 3], ROWS).is_none());
    }

    /// The strides of a launch whose views all read along the innermost
    /// dimension: one contiguous, one broadcast along it.
    const ROWS: &[[usize; 2]] = &[[1, 4096], [0, 1]];

    #[test]
    fn a_gather_along_the_row_takes_a_square_tile() {
        let mut cpu = info(DeviceKind::Host, 4096);
        cpu.compute_units = 2;
        cpu.max_work_item_sizes = [4096; 3];
        let grid = |dims: &[usize], strides: &[[usize; 2]]| {
            strided_grid(&cpu, WIDE, dims, strides).unwrap()
        };
        // a transposed read beside a contiguous one: 64 x 64, not 4096 x 1
        let transposed: &[[usize; 2]] = &[[4096, 1], [1, 4096]];
        let g = grid(&[4096, 4096], transposed);
        assert_eq!((g.global, g.local), ([4096, 4096, 1], [64, 64, 1]));
        // a stride just below the threshold still reads as a row
        let g = grid(&[4096, 4096], &[[GATHER_STRIDE - 1, 1], [1, 4096]]);
        assert_eq!(g.local, [4096, 1, 1]);
        let g = grid(&[4096, 4096], &[[GATHER_STRIDE, 1], [1, 4096]]);
        assert_eq!(g.local, [64, 64, 1]);
        // a smaller launch: a smaller square, no narrower than the kernel's
        // preferred multiple
        let g = grid(&[64, 64], transposed);
        assert_eq!(g.local, [32, 8, 1]);
        let any = KernelLimits {
            max: 4096,
            multiple: 1,
        };
        let g = strided_grid(&cpu, any, &[64, 64], transposed).unwrap();
        assert_eq!(g.local, [16, 16, 1]);
        // no second dimension to share with: the row takes the whole group
        let g = grid(&[1 << 20], &[[32, 0], [1, 0]]);
        assert_eq!(g.local, [4096, 1, 1]);
        let g = grid(&[1 << 16, 2], transposed);
        assert_eq!(g.local, [2048, 2, 1]);
        // on a GPU, at least a warp wide
        let mut gpu = info(DeviceKind::Gpu, 1024);
        gpu.max_work_item_sizes = [1024, 1024, 64];
        let g = strided_grid(&gpu, WIDE, &[4096, 4096], transposed).unwrap();
        assert_eq!(g.local, [32, 8, 1]);
        let g = strided_grid(&gpu, WIDE, &[4096, 4096], ROWS).unwrap();
        assert_eq!(g.local, [256, 1, 1]);
    }

    #[test]
    fn a_strided_grid_beyond_the_driver_counts_is_enqueued_in_parts() {
        let parts = |global, local| Grid { global, local }.parts().collect::<Vec<_>>();
        assert_eq!(parts([64, 8, 3], [64, 4, 1]), [([0, 0, 0], [64, 8, 3])]);
        let m = STRIDED_MAX_GROUPS_YZ;
        // the third dimension: at most m work-groups of 1 each
        assert_eq!(
            parts([8, 1, m + 2], [8, 1, 1]),
            [([0, 0, 0], [8, 1, m]), ([0, 0, m], [8, 1, 2])]
        );
        // the second: at most m groups of its local size
        assert_eq!(
            parts([4, 2 * (m + 1), 2], [4, 2, 1]),
            [([0, 0, 0], [4, 2 * m, 2]), ([0, 2 * m, 0], [4, 2, 2])]
        );
        // every work-item once
        let g = Grid {
            global: [2, 4 * m + 8, 2 * m + 1],
            local: [2, 4, 1],
        };
        let mut count = 0usize;
        for (offset, global) in g.parts() {
            assert_eq!(offset[0], 0);
            assert!(global[1] / 4 <= m && global[2] <= m);
            assert_eq!(global[1] % 4, 0);
            count += global.iter().product::<usize>();
        }
        assert_eq!(count, g.global.iter().product::<usize>());
    }

    #[test]
    fn a_cpu_takes_few_shapes_and_small_launches_share_one() {
        let mut cpu = info(DeviceKind::Cpu, 4096);
        cpu.compute_units = 2;
        cpu.max_work_item_sizes = [4096; 3];
        let transposed: &[[usize; 2]] = &[[4096, 1], [1, 4096]];
        let grid = |dims: &[usize], strides: &[[usize; 2]]| {
            strided_grid(&cpu, WIDE, dims, strides).unwrap()
        };
        // the large launches of the benchmarks keep the shapes they had
        for (dims, strides, local) in [
            (&[4096, 4096][..], ROWS, [4096, 1, 1]),
            (&[4096, 4096], transposed, [64, 64, 1]),
            (&[1024, 256, 64], ROWS, [1024, 4, 1]),
            (&[48, 1 << 12], ROWS, [16, 256, 1]),
            (&[3, 3, 1 << 20], transposed, [1, 1, 4096]),
            (&[12, 12, 1 << 16], ROWS, [4, 4, 256]),
            (&[1 << 20], &[[32, 0], [1, 0]], [4096, 1, 1]),
        ] {
            let g = grid(dims, strides);
            assert_eq!(g.local, local, "{dims:?}");
            let items: usize = dims.iter().product();
            assert_eq!(g.global.iter().product::<usize>(), items, "{dims:?}");
        }
        // small launches: one shape for rows, one for gathers, whatever
        // their shape pads (at most CPU_SMALL_GRID work-items)
        let mut shapes = std::collections::BTreeSet::new();
        for w in 1..=24 {
            for h in 1..=24 {
                for z in [1, 2] {
                    let g = grid(&[w, h, z], ROWS);
                    assert_eq!(g.local, [CPU_LOCAL, 1, 1], "{:?}", [w, h, z]);
                    assert!(g.global.iter().product::<usize>() <= CPU_SMALL_GRID);
                    let g = grid(&[w, h, z], transposed);
                    assert_eq!(g.local, [16, 16, 1], "{:?}", [w, h, z]);
                }
            }
        }
        // any shape: a few group shapes per group size, every group whole,
        // each dimension covered, and past CPU_SMALL_GRID little padding (or
        // the least any shape gives)
        let sides = [1usize, 2, 3, 5, 7, 16, 17, 100, 255, 1000, 4097, 100_000];
        for &w in &sides {
            for &h in &sides {
                for &z in &[1usize, 3, 64, 1000] {
                    for strides in [ROWS, transposed] {
                        let dims = [w, h, z];
                        let g = grid(&dims, strides);
                        let group: usize = g.local.iter().product();
                        assert!(group == CPU_LOCAL || group == CPU_WIDE, "{dims:?}: {g:?}");
                        assert!(
                            cpu_shapes(group, strides == transposed).contains(&g.local),
                            "{dims:?}: {g:?}"
                        );
                        shapes.insert(g.local);
                        for k in 0..3 {
                            assert_eq!(g.global[k] % g.local[k], 0, "{dims:?}: {g:?}");
                            assert!(g.global[k] >= dims[k], "{dims:?}: {g:?}");
                        }
                        let items = w * h * z;
                        let padded: usize = g.global.iter().product();
                        let least = cpu_shapes(group, strides == transposed)
                            .into_iter()
                            .map(|l| (0..3).map(|k| dims[k].div_ceil(l[k]) * l[k]).product())
                            .min()
                            .unwrap();
                        assert!(
                            padded <= CPU_SMALL_GRID
                                || padded <= items + items / 8
                                || padded == least,
                            "{dims:?}: {g:?}"
                        );
                    }
                }
            }
        }
        assert!(shapes.len() <= 2 * 12, "{shapes:?}");
        for group in [CPU_LOCAL, CPU_WIDE] {
            for gathers in [false, true] {
                let list = cpu_shapes(group, gathers);
                assert!(list.len() <= 12, "{list:?}");
                assert!(list.iter().all(|l| l.iter().product::<usize>() == group));
            }
        }
        // a device that allows less in a dimension: the shapes that fit, or
        // the free split
        cpu.max_work_item_sizes = [4096, 4096, 1];
        let g = strided_grid(&cpu, WIDE, &[3, 3, 1 << 20], transposed).unwrap();
        assert_eq!(g.local[2], 1, "{g:?}");
        cpu.max_work_item_sizes = [64, 2, 1];
        let g = strided_grid(&cpu, WIDE, &[4096, 4096], ROWS).unwrap();
        assert_eq!(g.local, [64, 2, 1]);
    }

    #[test]
    fn the_override_wins_within_the_limits() {
        let cpu = info(DeviceKind::Cpu, 4096);
        LOCAL_OVERRIDE.with(|o| o.set(Some(7)));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), 7);
        LOCAL_OVERRIDE.with(|o| o.set(Some(1 << 20)));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), 4096);
        LOCAL_OVERRIDE.with(|o| o.set(None));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), CPU_WIDE);
        assert_eq!(local_size(&cpu, 1, WIDE), CPU_LOCAL);
    }
}

//! Grid kernels (`#[grid]`): a launch over a grid of work-items in
//! work-groups of the kernel's fixed shape, each work-item reading and
//! writing whole views by index. [`Grid`] says how many work-items;
//! [`prepare_grid`] validates a launch into a [`GridPlan`]; the device runs it
//! (`opencl.rs`) or, for host tensors, the generated code runs its plain-Rust
//! body over the plan's work-items (`host.rs`).

pub(crate) mod atoms;
pub(crate) mod host;
pub(crate) mod opencl;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::program::text::KernelInfo;

use super::plan::Arg;

/// The work-items a grid kernel runs: one per point of a grid of 1 to 3
/// dimensions, rounded up to whole work-groups of the kernel's shape (the
/// work-items past the grid run too, and should test their `global_id`).
///
/// ```
/// use silt_runtime::Grid;
/// let g = Grid::over([1000, 3]);
/// assert_eq!(g.dims(), [1000, 3]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    dims: Vec<usize>,
}

impl Grid {
    /// The most work-groups a grid may have along its second and third
    /// dimensions (65,535: the least any driver is known to take in one
    /// enqueue), on every device, the host included; a launch past it is
    /// an error. Work past it goes along the first dimension, or in several
    /// launches.
    pub const MAX_GROUPS_YZ: usize = silt_abi::opencl::STRIDED_MAX_GROUPS_YZ;

    /// A grid of `dims` work-items (1 to 3 dimensions, as many as the
    /// kernel's `group`; a launch with another count is an error).
    pub fn over(dims: impl AsRef<[usize]>) -> Grid {
        Grid {
            dims: dims.as_ref().to_vec(),
        }
    }

    /// The work-items in each dimension, as given.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }
}

/// A view parameter of a grid kernel as the launch checks it: its name and
/// its dimension count (`View<T, N>`), or `None` for a scalar.
pub type ViewParam = Option<(&'static str, usize)>;

/// A validated grid launch.
#[derive(Debug)]
pub struct GridPlan<'a> {
    pub(crate) device: &'a Device,
    /// Work-items in each dimension, whole groups (1 past `ndim`).
    pub(crate) global: [usize; 3],
    /// The work-group's shape (1 past `ndim`).
    pub(crate) group: [usize; 3],
    /// The view parameters' names, by parameter, then the arrays'.
    pub(crate) names: Vec<&'static str>,
    /// The shapes of the kernel's arrays (after its parameters, in
    /// [`names`](Self::names)).
    pub(crate) local_shapes: Vec<&'static [usize]>,
}

impl GridPlan<'_> {
    /// Whether the launch runs on the host.
    pub fn is_host(&self) -> bool {
        self.device.is_host()
    }

    /// Whether there is no work-item at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.global.contains(&0)
    }
}

/// [`Grid::MAX_GROUPS_YZ`].
const MAX_GROUPS_YZ: usize = Grid::MAX_GROUPS_YZ;

/// Validates a grid launch of `info` over `grid` in groups of `group`, with
/// `args` for the kernel's parameters in order (`views` says which are
/// views, of which name and dimension count; `locals` names the kernel's
/// `local!` and `private!` arrays, with their shapes, for its error
/// reports).
///
/// # Errors
/// A grid of another dimension count than `group`, too many work-groups, a
/// tensor of another dimension count than its view, tensors on different
/// devices, a written view that overlaps itself (a broadcast) or shares
/// storage with another view, an `f64` kernel on a device without
/// `cl_khr_fp64`, or a kernel with atomics on 64-bit elements on a device
/// without `cl_khr_int64_base_atomics` (and, for `atomic_min`/`max`/`and`/
/// `or`/`xor`, `cl_khr_int64_extended_atomics`).
pub fn prepare_grid<'a>(
    info: &'static KernelInfo,
    grid: &Grid,
    group: &[u32],
    views: &[ViewParam],
    locals: &[(&'static str, &'static [usize])],
    args: &[Arg<'a>],
) -> Result<GridPlan<'a>> {
    let bad = |reason: String| Error::InvalidArgument {
        op: info.name,
        reason,
    };
    if grid.dims.len() != group.len() {
        return Err(bad(format!(
            "the grid has {} dimensions ({:?}) and the kernel's work-groups {} ({group:?}): give `Grid::over` {} sizes",
            grid.dims.len(),
            grid.dims,
            group.len(),
            group.len()
        )));
    }
    let mut device: Option<&'a Device> = None;
    let mut names = Vec::with_capacity(args.len());
    for (i, (a, v)) in args.iter().zip(views).enumerate() {
        names.push(v.map_or("", |(n, _)| n));
        let (t, written) = match a {
            Arg::In(t) => (*t, false),
            Arg::InOut(t) => (*t, true),
            Arg::Scalar(_) => continue,
        };
        if let Some((name, rank)) = v {
            if t.ndim() != *rank {
                return Err(bad(format!(
                    "view `{name}` takes a tensor of {rank} dimensions; this one has shape {:?}",
                    t.shape()
                )));
            }
        }
        match device {
            Some(d) if d != t.device() => {
                return Err(Error::DeviceMismatch {
                    left: d.to_string(),
                    right: t.device().to_string(),
                })
            }
            _ => device = Some(t.device()),
        }
        if written {
            if t.has_self_overlap() {
                return Err(bad(format!(
                    "view `{}` is written and holds some elements twice (a broadcast): pass a copy",
                    names[i]
                )));
            }
            for (j, b) in args.iter().enumerate() {
                if let (true, Arg::In(u) | Arg::InOut(u)) = (j != i, b) {
                    if t.shares_storage(u) {
                        return Err(Error::Aliasing {
                            kernel: info.name,
                            output: i,
                            other: j,
                        });
                    }
                }
            }
        }
    }
    names.extend(locals.iter().map(|(n, _)| *n));
    let local_shapes = locals.iter().map(|(_, s)| *s).collect();
    let Some(device) = device else {
        return Err(Error::internal("a grid kernel without a view"));
    };
    if info.fp64() && !device.supports(DType::F64) {
        return Err(Error::MissingExtension {
            kernel: info.describe(),
            extension: "cl_khr_fp64",
            device: device.to_string(),
        });
    }
    // atomics on 64-bit elements: named here, not in the build's log
    let atomics64 = if device.is_host() {
        &[][..]
    } else {
        info.opencl.atomics64()
    };
    if let Some(&missing) = atomics64.iter().find(|e| !device.has_extension(e)) {
        return Err(Error::MissingExtension {
            kernel: info.describe(),
            extension: missing,
            device: device.to_string(),
        });
    }
    let mut global = [1usize; 3];
    let mut local = [1usize; 3];
    for (d, (&n, &g)) in grid.dims.iter().zip(group).enumerate() {
        let g = g as usize;
        let groups = n.div_ceil(g);
        if d > 0 && groups > MAX_GROUPS_YZ {
            return Err(bad(format!(
                "{groups} work-groups along dimension {d}: at most {MAX_GROUPS_YZ} along dimensions 1 and 2"
            )));
        }
        global[d] = groups.checked_mul(g).ok_or_else(|| Error::SizeOverflow {
            shape: grid.dims.clone(),
            elem_size: 1,
        })?;
        local[d] = g;
    }
    // every work-item is numbered by a usize (the host's loops count them)
    if global[0]
        .checked_mul(global[1])
        .and_then(|n| n.checked_mul(global[2]))
        .is_none()
    {
        return Err(Error::SizeOverflow {
            shape: grid.dims.clone(),
            elem_size: 1,
        });
    }
    Ok(GridPlan {
        device,
        global,
        group: local,
        names,
        local_shapes,
    })
}

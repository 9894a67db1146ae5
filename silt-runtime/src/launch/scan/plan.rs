//! A scan's plan: the inputs' broadcast shape, the axis scanned (viewed last),
//! rows of `len` elements.

use crate::error::{Error, Result};
use crate::launch::plan::{prepare, Arg};
use crate::launch::reduce::plan::ReducePlan;
use crate::layout::Dims;
use crate::program::text::KernelInfo;

/// Checks a scan before anything runs: what [`prepare`] checks of a launch's
/// inputs, and the axis. The plan is a [`ReducePlan`] whose one reduced axis is
/// `axis` and whose output has the inputs' broadcast shape.
///
/// # Errors
/// Those of [`prepare`], [`Error::AxisOutOfRange`].
pub fn prepare_scan(info: &KernelInfo, args: &[Arg<'_>], axis: isize) -> Result<ReducePlan> {
    let plan = prepare(info, args)?;
    let out_shape = Dims::new(plan.shape())?;
    // a 0-d tensor is scanned as one element along its one (empty) axis
    let broadcast = if out_shape.is_empty() {
        Dims::new(&[1])?
    } else {
        out_shape
    };
    let ndim = broadcast.len();
    let signed = isize::try_from(ndim).unwrap_or(isize::MAX);
    if axis >= signed || axis < -signed {
        return Err(Error::AxisOutOfRange {
            axis,
            ndim: out_shape.len(),
        });
    }
    let axis = usize::try_from(if axis < 0 { axis + signed } else { axis }).unwrap_or(0);
    let mut perm = Dims::zeros(ndim)?;
    for (at, a) in (0..ndim).filter(|&a| a != axis).enumerate() {
        perm[at] = a;
    }
    perm[ndim - 1] = axis;
    let len = broadcast[axis];
    // no rows where there is no element (the others' product may not fit)
    let rows = if broadcast.contains(&0) {
        0
    } else {
        broadcast
            .iter()
            .enumerate()
            .filter(|&(a, _)| a != axis)
            .try_fold(1usize, |n, (_, &d)| n.checked_mul(d))
            .filter(|rows| rows.checked_mul(len).is_some())
            .ok_or_else(|| Error::SizeOverflow {
                shape: broadcast.to_vec(),
                elem_size: 1,
            })?
    };
    Ok(ReducePlan {
        device: plan.device.clone(),
        broadcast,
        perm,
        kept: ndim - 1,
        out_shape,
        rows,
        len,
    })
}

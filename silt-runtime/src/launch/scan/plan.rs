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
    let rows = broadcast
        .iter()
        .enumerate()
        .filter(|&(a, _)| a != axis)
        .map(|(_, &d)| d)
        .product();
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

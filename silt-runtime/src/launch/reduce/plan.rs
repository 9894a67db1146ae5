//! A reduction's plan: the broadcast shape of its inputs, which axes it
//! reduces, and the rows (output elements) of `len` reduced elements each.

use crate::axes::Axes;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::layout::{numel, Dims, Layout};
use crate::program::text::KernelInfo;
use crate::tensor::Tensor;

use crate::launch::plan::{prepare, Arg};

/// A validated reduction: where it runs, the shape its inputs are viewed in
/// (kept axes, then reduced ones), and the output's shape.
#[derive(Debug)]
pub struct ReducePlan {
    pub(crate) device: Device,
    /// The inputs' broadcast shape.
    pub(crate) broadcast: Dims,
    /// The axes of `broadcast` in the order the reduction sees them: kept
    /// axes, then reduced ones, each in their order.
    pub(crate) perm: Dims,
    /// How many of `perm` are kept.
    pub(crate) kept: usize,
    /// The output's shape (with reduced axes of size 1 under `keepdim`).
    pub(crate) out_shape: Dims,
    pub(crate) rows: usize,
    pub(crate) len: usize,
}

impl ReducePlan {
    /// Whether the tensors are on the host backend.
    pub fn is_host(&self) -> bool {
        self.device.is_host()
    }

    /// The number of output elements.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of elements each output element reduces.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the output has no elements.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The output's shape.
    pub fn out_shape(&self) -> &[usize] {
        &self.out_shape
    }

    /// A tensor argument viewed as the reduction reads it: broadcast, then
    /// its axes permuted to kept-then-reduced; element `k` of row `r` is at
    /// logical index `r * len + k`.
    pub(crate) fn view_of(&self, t: &Tensor) -> Result<Layout> {
        t.layout.broadcast_to(&self.broadcast)?.permute(&self.perm)
    }
}

/// Checks a reduction before anything runs: what [`prepare`] checks of a
/// launch's inputs (one device, shapes that broadcast, the device's
/// capabilities), then the axes, and an empty row for a reduction without an
/// identity.
///
/// # Errors
/// Those of [`prepare`], [`Error::AxisOutOfRange`], [`Error::RepeatedAxis`],
/// [`Error::EmptyReduction`].
pub fn prepare_reduce(info: &KernelInfo, args: &[Arg<'_>], axes: &Axes) -> Result<ReducePlan> {
    let plan = prepare(info, args)?;
    let broadcast = Dims::new(plan.shape())?;
    let reduced = axes.reduced(broadcast.len())?;
    let mut perm = Dims::zeros(broadcast.len())?;
    let mut at = 0;
    for want in [false, true] {
        for (axis, _) in reduced.iter().enumerate().filter(|(_, &r)| r == want) {
            perm[at] = axis;
            at += 1;
        }
    }
    let kept = reduced.iter().filter(|&&r| !r).count();
    let mut out_shape = Dims::zeros(if axes.keeps_dims() {
        broadcast.len()
    } else {
        kept
    })?;
    let mut o = 0;
    for (axis, &r) in reduced.iter().enumerate() {
        if axes.keeps_dims() {
            out_shape[o] = if r { 1 } else { broadcast[axis] };
            o += 1;
        } else if !r {
            out_shape[o] = broadcast[axis];
            o += 1;
        }
    }
    let product = |want: bool| -> Option<usize> {
        let dims: Vec<usize> = reduced
            .iter()
            .zip(broadcast.iter())
            .filter(|(&r, _)| r == want)
            .map(|(_, &d)| d)
            .collect();
        numel(&dims)
    };
    // the output's elements must fit; the reduced ones too, unless no row is
    // kept (then nothing is reduced: an empty result)
    let overflow = |shape: &[usize]| Error::SizeOverflow {
        shape: shape.to_vec(),
        elem_size: 1,
    };
    let rows = product(false).ok_or_else(|| overflow(&out_shape))?;
    let len = match product(true) {
        Some(len) => len,
        None if rows == 0 => usize::MAX,
        None => return Err(overflow(&broadcast)),
    };
    // with no rows too (NumPy's and PyTorch's: a reduction without an
    // identity refuses reduced axes of no elements whatever the rest)
    if len == 0 && info.empty_is_error() {
        return Err(Error::EmptyReduction {
            op: info.name,
            shape: broadcast.to_vec(),
        });
    }
    Ok(ReducePlan {
        device: plan.device.clone(),
        broadcast,
        perm,
        kept,
        out_shape,
        rows,
        len,
    })
}

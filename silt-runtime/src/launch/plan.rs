//! Launch plans: the arguments of a launch ([`Arg`]), and their validation
//! ([`prepare`]) into a [`Plan`] that either backend runs.

use std::borrow::Cow;

use crate::device::Device;
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::layout::{broadcast_shapes, Dims, Layout};
use crate::program::text::KernelInfo;
use crate::tensor::{Tensor, TensorT};

/// One argument of a launch, in the kernel's parameter order.
#[derive(Debug, Clone)]
pub enum Arg<'a> {
    /// An input tensor.
    In(&'a Tensor),
    /// A tensor read and written in place.
    InOut(&'a Tensor),
    /// A value for all elements.
    Scalar(Scalar),
}

/// A validated launch: where it runs, over which shape, and which storages it
/// writes. Small, and free of heap allocations for kernels of up to four
/// `&mut` parameters whose tensors all have one shape: the views the kernel
/// sees are worked out again from the arguments when it is enqueued.
#[derive(Debug)]
pub struct Plan<'a> {
    /// The tensors' device, borrowed from the first (no reference count
    /// taken per launch).
    pub(super) device: &'a Device,
    pub(super) shape: LaunchShape<'a>,
    pub(super) len: usize,
    /// The storages of the `&mut` arguments (a storage twice if two write it).
    written: Written,
}

/// The shape of a launch: borrowed from the first tensor when every tensor
/// has it (the common case: nothing copied), else the broadcast shape.
#[derive(Debug)]
pub(super) enum LaunchShape<'a> {
    /// Every tensor argument has this shape.
    Uniform(&'a Dims),
    /// The shapes differ and broadcast to this one.
    Broadcast(Box<Dims>),
}

impl std::ops::Deref for LaunchShape<'_> {
    type Target = Dims;

    #[inline]
    fn deref(&self) -> &Dims {
        match self {
            LaunchShape::Uniform(d) => d,
            LaunchShape::Broadcast(d) => d,
        }
    }
}

/// `&mut` parameters whose storages a plan keeps inline.
const INLINE_OUTPUTS: usize = 4;

/// The storages a launch writes: inline for the first [`INLINE_OUTPUTS`].
#[derive(Debug, Default)]
struct Written {
    len: usize,
    inline: [usize; INLINE_OUTPUTS],
    more: Vec<usize>,
}

impl Written {
    #[inline]
    fn push(&mut self, id: usize) {
        if self.len < INLINE_OUTPUTS {
            self.inline[self.len] = id;
            self.len += 1;
        } else {
            self.more.push(id);
        }
    }

    /// How many arguments write the storage `id`.
    #[inline]
    fn count(&self, id: usize) -> usize {
        self.inline[..self.len]
            .iter()
            .chain(&self.more)
            .filter(|&&w| w == id)
            .count()
    }
}

impl Plan<'_> {
    /// Whether the tensors are on the host backend.
    #[inline]
    pub fn is_host(&self) -> bool {
        self.device.is_host()
    }

    /// The number of elements (work-items).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is nothing to compute.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The broadcast shape of the tensor arguments: the shape of the outputs.
    #[inline]
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The launch's shape as stored (at most [`MAX_DIMS`](crate::MAX_DIMS)
    /// dimensions).
    #[inline]
    pub(crate) fn dims(&self) -> &Dims {
        &self.shape
    }

    /// Whether every tensor argument has the launch's shape (nothing is
    /// broadcast).
    #[inline]
    pub(crate) fn is_uniform(&self) -> bool {
        matches!(self.shape, LaunchShape::Uniform(_))
    }

    /// Whether the launch writes the storage `t` is a view of.
    #[inline]
    pub fn writes_storage_of(&self, t: &Tensor) -> bool {
        self.written.count(t.storage_id()) > 0
    }

    /// Whether exactly one argument of the launch writes the storage of `t`.
    #[inline]
    pub fn writes_storage_once(&self, t: &Tensor) -> bool {
        self.written.count(t.storage_id()) == 1
    }

    /// `t` broadcast to the launch's shape (a view, no copy).
    ///
    /// # Errors
    /// [`Error::Broadcast`] (which cannot happen for a tensor `prepare` accepted).
    pub fn broadcast<T: Element>(&self, t: &TensorT<T>) -> Result<TensorT<T>> {
        t.broadcast_to(self.shape())
    }

    /// The layout the kernel sees for an argument `prepare` accepted: its own
    /// when it has the launch's shape, else broadcast to it.
    pub(super) fn view_of<'t>(&self, t: &'t Tensor) -> Cow<'t, Layout> {
        if self.is_uniform() || t.shape() == self.shape() {
            Cow::Borrowed(&t.layout)
        } else {
            // `prepare` checked that the shapes broadcast
            Cow::Owned(
                t.layout
                    .broadcast_to(&self.shape)
                    .unwrap_or_else(|_| t.layout.clone()),
            )
        }
    }
}

/// The tensor arguments of a launch: (parameter index, tensor, written).
pub(super) fn tensor_args<'s, 'a>(
    args: &'s [Arg<'a>],
) -> impl Iterator<Item = (usize, &'a Tensor, bool)> + 's {
    args.iter().enumerate().filter_map(|(i, a)| match a {
        Arg::In(t) => Some((i, *t, false)),
        Arg::InOut(t) => Some((i, *t, true)),
        Arg::Scalar(_) => None,
    })
}

/// Checks a launch before anything runs: one device; input shapes that NumPy's
/// rules broadcast together; `&mut` arguments that have the broadcast shape and do
/// not overlap themselves or other arguments; the device's capabilities. Allocates
/// nothing for kernels of up to four `&mut` parameters whose tensors all have
/// one shape (a broadcast keeps its shape on the heap).
///
/// # Errors
/// [`Error::DeviceMismatch`], [`Error::ShapeMismatch`], [`Error::OutputShape`],
/// [`Error::SelfOverlap`], [`Error::Aliasing`], [`Error::MissingExtension`].
#[inline(always)]
pub fn prepare<'a>(info: &KernelInfo, args: &[Arg<'a>]) -> Result<Plan<'a>> {
    if let Some(plan) = prepare_uniform(info, args) {
        return Ok(plan);
    }
    prepare_any(info, args)
}

/// [`prepare`]'s common case in one pass, without a call: every tensor
/// argument of one shape on one device, each `&mut` argument contiguous and
/// the only argument on its storage. `None` for anything else (a broadcast, a
/// shared storage, a strided output, a missing extension), which
/// [`prepare_any`] checks and reports. Always inlined into the generated
/// launch: its plan is then not returned through memory.
#[inline(always)]
fn prepare_uniform<'a>(info: &KernelInfo, args: &[Arg<'a>]) -> Option<Plan<'a>> {
    let mut first: Option<&'a Tensor> = None;
    let mut written = Written::default();
    for a in args {
        let (t, is_out) = match a {
            Arg::In(t) => (*t, false),
            Arg::InOut(t) => (*t, true),
            Arg::Scalar(_) => continue,
        };
        if let Some(f) = first {
            if t.device() != f.device() || !same_dims(t.shape(), f.shape()) {
                return None;
            }
        } else {
            first = Some(t);
        }
        if is_out {
            let shared =
                tensor_args(args).any(|(_, o, _)| !std::ptr::eq(o, t) && o.shares_storage(t));
            if shared || !t.is_contiguous() {
                return None;
            }
            written.push(t.storage_id());
        }
    }
    let first = first?;
    let device = first.device();
    if info.fp64() && !device.supports(DType::F64) {
        return None;
    }
    // the element count: 0 when a dimension is (the product of the others
    // may wrap, a view's never does)
    let (mut len, mut empty) = (1usize, false);
    for &d in first.shape() {
        empty |= d == 0;
        len = len.wrapping_mul(d);
    }
    Some(Plan {
        device,
        shape: LaunchShape::Uniform(&first.layout.shape),
        len: if empty { 0 } else { len },
        written,
    })
}

/// Whether two shapes are equal, compared in place (short: no `memcmp` call).
#[inline]
fn same_dims(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// [`prepare`] for every launch: checks each rule in turn and reports the
/// first that fails.
#[inline(never)]
fn prepare_any<'a>(info: &KernelInfo, args: &[Arg<'a>]) -> Result<Plan<'a>> {
    let Some((_, first, _)) = tensor_args(args).next() else {
        // generated kernels always have a tensor parameter
        return Err(Error::ShapeMismatch {
            op: info.name,
            left: Vec::new(),
            right: Vec::new(),
        });
    };
    // the first tensor's shape until another one differs (no copy)
    let mut broadcast: Option<Dims> = None;
    for (_, t, _) in tensor_args(args).skip(1) {
        if t.device() != first.device() {
            return Err(Error::DeviceMismatch {
                left: first.device().to_string(),
                right: t.device().to_string(),
            });
        }
        let shape = broadcast.as_deref().unwrap_or(first.shape());
        if t.shape() == shape {
            // the common case: nothing to broadcast
            continue;
        }
        broadcast =
            Some(
                broadcast_shapes(shape, t.shape()).ok_or_else(|| Error::ShapeMismatch {
                    op: info.name,
                    left: shape.to_vec(),
                    right: t.shape().to_vec(),
                })?,
            );
    }
    // every tensor has the first one's shape: nothing to broadcast or check
    let same_shapes = broadcast.is_none();
    let shape = match broadcast {
        None => LaunchShape::Uniform(&first.layout.shape),
        Some(b) => LaunchShape::Broadcast(Box::new(b)),
    };
    let mut written = Written::default();
    for (_, t, is_out) in tensor_args(args) {
        if !is_out {
            if !same_shapes && t.shape() != &**shape {
                t.layout.broadcast_to(&shape)?;
            }
            continue;
        }
        // NumPy's in-place rule: an output is not broadcast
        if !same_shapes && t.shape() != &**shape {
            return Err(Error::OutputShape {
                kernel: info.name,
                output: t.shape().to_vec(),
                broadcast: shape.to_vec(),
            });
        }
        // (a contiguous view never overlaps itself)
        if !t.is_contiguous() && t.has_self_overlap() {
            return Err(Error::SelfOverlap {
                shape: t.shape().to_vec(),
                strides: t.strides().to_vec(),
            });
        }
        written.push(t.storage_id());
    }
    for (i, out, is_out) in tensor_args(args) {
        if !is_out {
            continue;
        }
        for (j, other, other_out) in tensor_args(args) {
            if i == j || !out.shares_storage(other) {
                continue;
            }
            let other_view = if other_out {
                Cow::Borrowed(&other.layout)
            } else {
                Cow::Owned(other.layout.broadcast_to(&shape)?)
            };
            let same_elements = other_view.same_elements(&out.layout);
            let (a, b) = (out.layout.span(), other_view.span());
            let disjoint = a.end <= b.start || b.end <= a.start;
            // the very same elements are fine for an input (`x += x`); two outputs
            // on the same elements, or any possible partial overlap, would race
            if !disjoint && (other_out || !same_elements) {
                return Err(Error::Aliasing {
                    kernel: info.name,
                    output: i,
                    other: j,
                });
            }
        }
    }
    let device = first.device();
    if info.fp64() && !device.supports(DType::F64) {
        return Err(Error::MissingExtension {
            kernel: info.describe(),
            extension: "cl_khr_fp64",
            device: device.to_string(),
        });
    }
    let len = if shape.contains(&0) {
        0
    } else {
        shape.iter().product()
    };
    Ok(Plan {
        device,
        shape,
        len,
        written,
    })
}

/// The one dtype of the tensors that stand for a kernel's generic parameter.
///
/// # Errors
/// [`Error::DTypeMismatch`] when they disagree.
pub fn common_dtype(dtypes: &[DType]) -> Result<DType> {
    let first = dtypes.first().copied().unwrap_or(DType::F32);
    match dtypes.iter().find(|&&d| d != first) {
        Some(&got) => Err(Error::DTypeMismatch {
            expected: first,
            got,
        }),
        None => Ok(first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_dtype_checks() {
        assert_eq!(common_dtype(&[DType::F32, DType::F32]).unwrap(), DType::F32);
        assert_eq!(
            common_dtype(&[DType::F32, DType::I32]).unwrap_err(),
            Error::DTypeMismatch {
                expected: DType::F32,
                got: DType::I32
            }
        );
    }
}

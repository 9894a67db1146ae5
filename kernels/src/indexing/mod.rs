//! The indexing operations, as PyTorch's: [`index_select`](crate::index_select),
//! [`gather`](crate::gather), [`scatter_add`](crate::scatter_add),
//! [`scatter_reduce`](crate::scatter_reduce) and [`take`](crate::take), on
//! grid kernels.
//!
//! Index tensors hold `i64` (`index_select` also takes `i32`, as PyTorch's).
//! Every index is checked on the device as it is used: one out of range
//! writes nothing, and the operation returns `Error::IndexOutOfRange` naming
//! the operation, the index, its position and the size it indexes (the
//! result, a fresh tensor, is dropped). On the host, every operation runs
//! in plain Rust (`host.rs`, in parallel) with the same results. The rules of each operation are in
//! `docs/semantics.md`, "Indexing".

pub(crate) mod device;
pub mod gather;
mod host;
pub mod index_select;
pub mod scatter_add;
pub mod scatter_reduce;
pub mod take;

use silt::{DType, Error, Result, Tensor, TensorT};

use crate::views::fold_dims as fold;

/// The element types of `index_select`, `gather` and `take`: every dtype.
pub(crate) const ALL: &[DType] = &DType::ALL;

/// `dim` of a tensor of `ndim` dimensions, a negative one counting from the
/// end; a 0-d tensor has the one dimension `0` (`-1`), as PyTorch's.
pub(crate) fn axis(dim: isize, ndim: usize) -> Result<usize> {
    let n = ndim.max(1);
    let err = || Error::AxisOutOfRange { axis: dim, ndim: n };
    let n_i = isize::try_from(n).map_err(|_| err())?;
    let d = if dim < 0 { dim + n_i } else { dim };
    if (0..n_i).contains(&d) {
        usize::try_from(d).map_err(|_| err())
    } else {
        Err(err())
    }
}

/// `shape` with a 0-d shape as `[1]`.
pub(crate) fn at_least_1d(shape: &[usize]) -> Vec<usize> {
    if shape.is_empty() {
        vec![1]
    } else {
        shape.to_vec()
    }
}

/// `t` (its 0-d shape as `[1]`) as the view `[outer, size of dim, inner]`
/// of the same elements in the same order: in place when the dimensions
/// before and after `dim` each fold into one stride, else of a contiguous
/// copy.
pub(crate) fn lines(t: &Tensor, dim: usize) -> Result<Tensor> {
    let t = if t.ndim() == 0 {
        t.reshape([1])?
    } else {
        t.clone()
    };
    let (sh, st) = (t.shape(), t.strides());
    if let (Some((o, so)), Some((i, si))) = (
        fold(&sh[..dim], &st[..dim]),
        fold(&sh[dim + 1..], &st[dim + 1..]),
    ) {
        return t.as_strided([o, sh[dim], i], [so, st[dim], si], t.offset());
    }
    let c = t.contiguous()?;
    let outer: usize = c.shape()[..dim].iter().product();
    let inner: usize = c.shape()[dim + 1..].iter().product();
    c.reshape([outer, c.shape()[dim], inner])
}

/// An index tensor's elements as `i64`: itself when it holds `i64`, a copy
/// when it holds `i32` and `int32` is allowed, else `Error::DTypeMismatch`.
pub(crate) fn index_of(index: &Tensor, int32: bool) -> Result<Tensor> {
    match index.dtype() {
        DType::I64 => Ok(index.clone()),
        DType::I32 if int32 => crate::to_i64::dispatch(index),
        got => Err(Error::DTypeMismatch {
            expected: DType::I64,
            got,
        }),
    }
}

/// Every tensor on `first`'s device, or `Error::DeviceMismatch`.
pub(crate) fn same_device(first: &Tensor, others: &[&Tensor]) -> Result<()> {
    for t in others {
        if t.device() != first.device() {
            return Err(Error::DeviceMismatch {
                left: first.device().to_string(),
                right: t.device().to_string(),
            });
        }
    }
    Ok(())
}

/// `t`'s elements as a 1-d view: itself when 1-d, else its contiguous
/// elements.
pub(crate) fn flat(t: &Tensor) -> Result<Tensor> {
    if t.ndim() == 1 {
        return Ok(t.clone());
    }
    let c = t.contiguous()?;
    c.reshape([c.len()])
}

/// `Error::UnsupportedDType` for a `dtype` outside `supported`.
pub(crate) fn supported(op: &'static str, supported: &'static [DType], dtype: DType) -> Result<()> {
    if supported.contains(&dtype) {
        Ok(())
    } else {
        Err(Error::UnsupportedDType {
            kernel: op,
            dtype,
            supported,
        })
    }
}

/// Where a kernel records the smallest position of an index out of range:
/// one `i64`, `i64::MAX` while none is.
pub(crate) struct Record(pub(crate) TensorT<i64>);

impl Record {
    /// A fresh record on `dev`.
    pub(crate) fn new(dev: &silt::Device) -> Result<Record> {
        TensorT::full(dev, i64::MAX, [1]).map(Record)
    }

    /// The position recorded, if any (waits for the device).
    pub(crate) fn position(&self) -> Result<Option<usize>> {
        let p = self.0.to_vec()?[0];
        Ok(if p == i64::MAX {
            None
        } else {
            usize::try_from(p).ok()
        })
    }
}

/// The error for the index at flat position `pos` of `index` (row-major),
/// out of range for a dimension of `size`.
pub(crate) fn out_of_range(
    op: &'static str,
    index: &Tensor,
    pos: usize,
    what: &str,
    size: usize,
) -> Error {
    let flat = index.contiguous().and_then(|c| c.reshape([c.len()]));
    let value = flat
        .and_then(|f| f.narrow(0, pos, 1))
        .and_then(|v| v.to_vec::<i64>())
        .ok()
        .and_then(|v| v.first().copied());
    let mut at = Vec::with_capacity(index.ndim());
    let mut rest = pos;
    for &s in index.shape().iter().rev() {
        at.push(rest % s.max(1));
        rest /= s.max(1);
    }
    at.reverse();
    Error::IndexOutOfRange {
        op,
        value: value.map_or_else(|| "?".to_string(), |v| v.to_string()),
        at,
        what: what.to_string(),
        size,
    }
}

/// The work-items of a line of `index_select` or `gather` on a device
/// (their kernels' work-groups: `[256, 1, 1]`).
const LINE_GROUP: usize = 256;

/// The grid of an `index_select` or `gather` of `[outer, m, inner]` on a
/// device, and its `form` (how the kernels find their place `(o, j, i)`):
/// 0, `[m, outer, 1]` for lines of one element (`dim` the last); 1,
/// `[inner, m, outer]` for lines of a work-group or more, no division; 2,
/// `[m * inner, outer, 1]`, one division by `inner`, for short lines (which
/// would leave most of a work-group idle in form 1).
pub(crate) fn lines_grid(outer: usize, m: usize, inner: usize) -> Result<(silt::Grid, u32)> {
    Ok(if inner == 1 {
        (silt::Grid::over([m, outer, 1]), 0)
    } else if inner >= LINE_GROUP {
        (silt::Grid::over([inner, m, outer]), 1)
    } else {
        let along = m.checked_mul(inner).ok_or(Error::Internal {
            what: "indexing: a grid past usize",
        })?;
        (silt::Grid::over([along, outer, 1]), 2)
    })
}

/// The most work-groups a launch may have along its grid's dimensions 1
/// and 2 (GPUs' limit, which silt's grids keep on every device).
const MAX_GROUPS_YZ: usize = silt::Grid::MAX_GROUPS_YZ;

/// The pieces an `index_select` or `gather` of `[outer, m, _]` in `form`
/// ([`lines_grid`]) is launched in, so that no launch has more than
/// [`MAX_GROUPS_YZ`] work-groups (of one work-item) along dimensions 1
/// and 2: ranges of the outer lines and of the indices (cut in form 1 only,
/// where the indices run along dimension 1).
pub(crate) fn lines_pieces(
    outer: usize,
    m: usize,
    form: u32,
) -> impl Iterator<Item = (std::ops::Range<usize>, std::ops::Range<usize>)> {
    let cut = |n: usize, step: usize| {
        (0..n)
            .step_by(step)
            .map(move |start| start..(start + step).min(n))
    };
    let m_step = if form == 1 { MAX_GROUPS_YZ } else { m.max(1) };
    cut(outer, MAX_GROUPS_YZ).flat_map(move |o| cut(m, m_step).map(move |j| (o.clone(), j)))
}

/// The launch information of a copying operation's kernels (`parts`, each
/// kernel's every instantiation) and of [`device::index_check`], kept in
/// `cell`.
pub(crate) fn infos_with_check(
    cell: &'static std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>>,
    parts: &[fn() -> &'static [&'static silt::__private::KernelInfo]],
) -> &'static [&'static silt::__private::KernelInfo] {
    cell.get_or_init(|| {
        let mut v: Vec<_> = parts.iter().flat_map(|p| p().iter().copied()).collect();
        v.extend(device::index_check::__infos());
        v
    })
}

/// The OpenCL C of a copying operation's kernels (`parts`) for `dtype`,
/// then [`device::index_check`]'s (of `i64` indices), joined and kept in
/// `cell` for each of `types`.
pub(crate) fn sources_with_check(
    cell: &'static std::sync::OnceLock<Vec<(DType, String)>>,
    types: &[DType],
    parts: &[fn(DType) -> Option<&'static str>],
    dtype: DType,
) -> Option<&'static str> {
    let all = cell.get_or_init(|| {
        types
            .iter()
            .filter_map(|&d| {
                let mut texts: Vec<&str> = parts.iter().map(|p| p(d)).collect::<Option<_>>()?;
                texts.push(device::index_check::source(DType::I64)?);
                Some((d, texts.join("\n")))
            })
            .collect()
    });
    all.iter()
        .find(|(d, _)| *d == dtype)
        .map(|(_, s)| s.as_str())
}

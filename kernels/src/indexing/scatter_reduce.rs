//! `scatter_reduce`: `input` with the elements of `src` combined into it at
//! the positions along `dim` in `index`, as PyTorch's
//! `torch.scatter_reduce(input, dim, index, src, reduce, include_self=True)`
//! (out of place: a new tensor): for `dim = 0`, `out[index[i][j][k]][j][k]`
//! combines `src[i][j][k]` by `reduce`.
//!
//! - The shapes and indices follow [`scatter_add`](crate::scatter_add):
//!   `input`, `index` (`i64`) and `src` have as many dimensions, `index` no
//!   larger than `src`, nor than `input` apart from `dim`; each index in
//!   `0..input.shape()[dim]`, else `Error::IndexOutOfRange` (nothing
//!   written).
//! - [`Reduce`]: `Sum`, `Prod`, `Mean`, `Amax`, `Amin`. With
//!   `include_self`, a place's own element is the first of the combination;
//!   without it, a place some index reaches holds the combination of its
//!   `src` elements alone, and the others keep `input`'s element.
//! - The order: each output element combines its elements in order of
//!   their position along `dim` (PyTorch's order on the CPU), rounding after
//!   each step, on every device and the host: the same bits everywhere.
//!   A work-item walks each line along `dim` (the host runs the same steps
//!   in plain Rust, in parallel). A GPU with fewer lines than
//!   [`GPU_LINES`](crate::scatter_add::GPU_LINES), which that would leave
//!   mostly idle, takes `Sum` and `Mean` through `scatter_add`'s GPU forms
//!   (atomic additions of the 32- and 64-bit types, in an order that is
//!   not specified: a float sum may differ in its last bits from run to
//!   run, as PyTorch's on CUDA) and keeps the walk for the others.
//! - `Amax` and `Amin` are PyTorch's: a NaN of `src` wins, else the larger
//!   (smaller) element, the earlier one of two that compare equal (`-0.0`
//!   and `0.0`). `Prod` of integers wraps, as `Sum` does.
//! - `Mean` is the sum divided by the count of elements combined (`input`'s
//!   own counted with `include_self`), as PyTorch computes it: the count in
//!   the element type (wrapping in a narrow integer type, as PyTorch's
//!   does), a count of 0 taken as 1 (a place with none keeps its element),
//!   floats divided, integers divided rounding down.
//!
//! Types: the numbers (not `bool`).
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//! use k::scatter_reduce::Reduce;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[10.0f32, 20.0, 30.0], [3])?;
//! let i = TensorT::from_slice(&dev, &[0i64, 2, 0, 0], [4])?;
//! let s = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 40.0], [4])?;
//! let max = k::scatter_reduce::launch(&x, 0, &i, &s, Reduce::Amax, true)?;
//! assert_eq!(max.to_vec()?, [40.0, 20.0, 30.0]);
//! let mean = k::scatter_reduce::launch(&x, 0, &i, &s, Reduce::Mean, false)?;
//! assert_eq!(mean.to_vec()?, [44.0 / 3.0, 20.0, 2.0]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, DeviceKind, Element, Error, Grid, Result, Scalar, Tensor, TensorT};

use super::scatter_add::{prepare, Lines};
use super::{at_least_1d, axis, device, host, supported, Record};

/// The operation's name.
pub const NAME: &str = "scatter_reduce";

/// The element types it takes: the numbers (not `bool`).
pub const TYPES: &[DType] = super::scatter_add::TYPES;

/// How `scatter_reduce` combines the elements that land on one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reduce {
    /// Their sum.
    Sum,
    /// Their product.
    Prod,
    /// Their sum divided by their count.
    Mean,
    /// The largest (NaN wins).
    Amax,
    /// The smallest (NaN wins).
    Amin,
}

impl Reduce {
    /// The reduction PyTorch names `name` (`"sum"`, `"prod"`, `"mean"`,
    /// `"amax"`, `"amin"`).
    ///
    /// # Errors
    /// `Error::InvalidArgument` for another name.
    pub fn from_name(name: &str) -> Result<Reduce> {
        Ok(match name {
            "sum" => Reduce::Sum,
            "prod" => Reduce::Prod,
            "mean" => Reduce::Mean,
            "amax" => Reduce::Amax,
            "amin" => Reduce::Amin,
            other => {
                return Err(Error::InvalidArgument {
                    op: NAME,
                    reason: format!(
                        "`reduce` is one of sum, prod, mean, amax, amin, not {other:?}"
                    ),
                })
            }
        })
    }

    /// The kernel's `op`.
    fn op(self) -> u32 {
        match self {
            Reduce::Sum | Reduce::Mean => 0,
            Reduce::Prod => 1,
            Reduce::Amax => 2,
            Reduce::Amin => 3,
        }
    }
}

/// `scatter_reduce(input, dim, index, src, reduce, include_self)` on typed
/// tensors (see the [module](self)).
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Element>(
    input: &TensorT<T>,
    dim: isize,
    index: &TensorT<i64>,
    src: &TensorT<T>,
    reduce: Reduce,
    include_self: bool,
) -> Result<TensorT<T>> {
    dispatch(
        input.as_tensor(),
        dim,
        index.as_tensor(),
        src.as_tensor(),
        reduce,
        include_self,
    )?
    .typed()
}

/// `scatter_reduce(input, dim, index, src, reduce, include_self)` on
/// untyped tensors (see the [module](self)).
///
/// # Errors
/// `Error::AxisOutOfRange` for `dim`, `Error::InvalidArgument` for shapes
/// outside the rules, `Error::IndexOutOfRange` for an index out of range,
/// `Error::DTypeMismatch` for an `index` of another dtype than `i64` or a
/// `src` of another dtype than `input`, `Error::UnsupportedDType`,
/// `Error::DeviceMismatch`, and what the launches report.
pub fn dispatch(
    input: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    reduce: Reduce,
    include_self: bool,
) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    if matches!(reduce, Reduce::Sum | Reduce::Mean) && few_lines_on_a_gpu(input, dim, index)? {
        return sum_on_a_gpu(input, dim, index, src, reduce, include_self);
    }
    let mut l = match prepare(NAME, input, dim, index, src)? {
        Ok(l) => l,
        Err(out) => return Ok(out),
    };
    let fresh = !include_self;
    if input.device().is_host() {
        // every index checked first (the first bad one named), then plain
        // Rust in the lines' order
        let at = match host::places(&l.idx3, l.n, false)? {
            Ok(at) => at,
            Err(pos) => return Err(l.out_of_range(pos)),
        };
        host::scatter(&mut l.o3, &at, &l.s3, reduce.op(), fresh)?;
    } else {
        launch_lines(&mut l, reduce, fresh)?;
    }
    let sums = l.finish()?;
    if reduce != Reduce::Mean {
        return Ok(sums);
    }
    mean(&sums, dim, index, src, include_self)
}

/// The kernel a line a work-item, into `l.o3`.
fn launch_lines(l: &mut Lines, reduce: Reduce, fresh: bool) -> Result<()> {
    let bad = Record::new(l.o3.device())?;
    let mut rec = Tensor::from(bad.0.clone());
    let lines = l.idx3.shape()[0] * l.idx3.shape()[2];
    let (idx3, s3) = (&l.idx3, &l.s3);
    // SAFETY: `idx3`, `s3` and `o3` share their outer and inner sizes and
    // `s3` is `idx3`'s shape, so each work-item's line `(o, i)` of `outer *
    // inner` is in range where it reads and writes; `o3` is written along
    // `dim` only at an index the kernel tested against its length; `rec`
    // has its one element
    unsafe {
        device::scatter_reduce_lines::dispatch(
            Grid::over([lines]),
            idx3,
            s3,
            &mut l.o3,
            &mut rec,
            reduce.op(),
            u32::from(fresh),
        )?;
    }
    match bad.position()? {
        Some(pos) => Err(l.out_of_range(pos)),
        None => Ok(()),
    }
}

/// Whether `input` is on a GPU (or an accelerator) and `index` has fewer
/// lines along `dim` than [`scatter_add::GPU_LINES`](crate::scatter_add::GPU_LINES):
/// a work-item a line would leave most of the device idle.
fn few_lines_on_a_gpu(input: &Tensor, dim: isize, index: &Tensor) -> Result<bool> {
    if !matches!(
        silt::__private::mapping_kind(input.device()),
        DeviceKind::Gpu | DeviceKind::Accelerator
    ) {
        return Ok(false);
    }
    let d = axis(dim, input.ndim())?;
    let is = at_least_1d(index.shape());
    let lines = is
        .iter()
        .enumerate()
        .filter(|&(a, _)| a != d)
        .map(|(_, &s)| s)
        .product::<usize>();
    Ok(lines < crate::scatter_add::GPU_LINES)
}

/// `Sum` and `Mean` on a GPU with few lines, by `scatter_add`'s GPU forms
/// (atomic additions for 32- and 64-bit types, in an order that is not
/// specified; a work-item an output element, in order, for the others);
/// without `include_self`, from `input` with every place reached set to 0
/// (the places where `scatter_add` counts a contribution).
fn sum_on_a_gpu(
    input: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    reduce: Reduce,
    include_self: bool,
) -> Result<Tensor> {
    let base = if include_self {
        input.clone()
    } else {
        // the places reached, counted in `i64` (a count in a narrow type
        // would wrap to 0 at 256 hits of a `u8`)
        let hits = |shape: &[usize], one: bool| -> Result<Tensor> {
            let mut t = Tensor::zeros(input.device(), DType::I64, shape)?;
            if one {
                crate::set::dispatch(Scalar::I64(1), &mut t)?;
            }
            Ok(t)
        };
        let none = hits(input.shape(), false)?;
        let reached = crate::scatter_add::dispatch(&none, dim, index, &hits(src.shape(), true)?)
            .map_err(|e| renamed(e, NAME))?;
        let zero = filled(input, input.shape(), false)?;
        crate::where_::dispatch(&crate::gt::dispatch(&reached, &none)?, &zero, input)?
    };
    let sums =
        crate::scatter_add::dispatch(&base, dim, index, src).map_err(|e| renamed(e, NAME))?;
    if reduce == Reduce::Mean {
        mean(&sums, dim, index, src, include_self)
    } else {
        Ok(sums)
    }
}

/// `e`, an error of an operation this one calls, in this one's name.
fn renamed(e: Error, op: &'static str) -> Error {
    match e {
        Error::IndexOutOfRange {
            value,
            at,
            what,
            size,
            ..
        } => Error::IndexOutOfRange {
            op,
            value,
            at,
            what,
            size,
        },
        Error::InvalidArgument { reason, .. } => Error::InvalidArgument { op, reason },
        other => other,
    }
}

/// A tensor of `like`'s device and dtype and of `shape`, of zeros or ones.
fn filled(like: &Tensor, shape: &[usize], one: bool) -> Result<Tensor> {
    let mut t = Tensor::zeros(like.device(), like.dtype(), shape)?;
    if one {
        crate::set::dispatch(Scalar::U8(1), &mut t)?;
    }
    Ok(t)
}

/// `sums` divided by the count of elements each place combined, as
/// PyTorch's `scatter_reduce` makes its mean: the count in the element
/// type (`include_self` counting the place's own element; wrapping as the
/// type does), a count of 0 taken as 1; floats divided, integers rounding
/// down.
fn mean(
    sums: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    include_self: bool,
) -> Result<Tensor> {
    let dtype = sums.dtype();
    let ones = filled(sums, sums.shape(), true)?;
    let count = crate::scatter_add::dispatch(
        &filled(sums, sums.shape(), include_self)?,
        dim,
        index,
        &filled(sums, src.shape(), true)?,
    )?;
    // PyTorch's `masked_fill_(count == 0, 1)`: a count that wrapped in a
    // narrow signed type stays what it wrapped to
    let zero = filled(sums, sums.shape(), false)?;
    let count = crate::where_::dispatch(&crate::eq::dispatch(&count, &zero)?, &ones, &count)?;
    let q = crate::div::dispatch(sums, &count)?;
    if !dtype.is_signed_int() {
        return Ok(q);
    }
    // rounding down: one below the truncated quotient where the remainder
    // (of the sum's sign) is not 0 and the signs of the remainder and the
    // count differ
    let r = crate::rem::dispatch(sums, &count)?;
    let inexact = crate::ne::dispatch(&r, &zero)?;
    let signs = crate::logical_xor::dispatch(
        &crate::lt::dispatch(&r, &zero)?,
        &crate::lt::dispatch(&count, &zero)?,
    )?;
    let below = crate::logical_and::dispatch(&inexact, &signs)?;
    crate::where_::dispatch(&below, &crate::sub::dispatch(&q, &ones)?, &q)
}

/// The OpenCL C of the grid kernel for `dtype`.
pub fn source(dtype: DType) -> Option<&'static str> {
    device::scatter_reduce_lines::source(dtype)
}

/// The launch information of every instantiation.
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    device::scatter_reduce_lines::__infos()
}

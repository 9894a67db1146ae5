//! `topk`: the `k` largest (or smallest) elements along one dimension and
//! their indices, as PyTorch's `torch.topk`.
//!
//! `launch(x, k, dim, largest, sorted)` gives `(values, indices)` of `x`'s
//! shape with `k` along `dim`: the first `k` of [`sort`](crate::sort)
//! descending (`largest`) or ascending. So NaN counts as the largest value
//! (first among the largest, left out of the smallest while numbers remain),
//! and equal elements come in the order of their indices: PyTorch leaves
//! the order of ties unspecified, silt promises this one. `sorted = false`
//! allows any order in PyTorch; silt gives the sorted one either way.
//!
//! On a GPU (any OpenCL device but a CPU), a row longer than a block of 256
//! with `k` at most 256 is not sorted whole: its blocks are sorted, each cut to its first `k`, then
//! neighbouring runs merged and cut to `k` again until one is left (about
//! `n * k / 128` elements merged after the blocks, against `n` per doubling
//! for the whole sort). Otherwise, on a CPU device (whose radix sort of such
//! a row is faster than those merges) and on the host, the whole row is
//! sorted.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1.0f32, 5.0, 3.0, 5.0, f32::NAN], [5])?;
//! let (values, indices) = k::topk::launch(&x, 3, -1, true, true)?;
//! assert!(values.to_vec()?[0].is_nan());
//! assert_eq!(indices.to_vec()?, [4, 1, 3]);
//! let (values, _) = k::topk::launch(&x, 2, 0, false, true)?;
//! assert_eq!(values.to_vec()?, [1.0, 3.0]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, Error, Result, Tensor, TensorT};

use crate::sort::{each_type, Sort};

/// The operation's name.
pub const NAME: &str = "topk";

/// The element types it takes: every one (those of [`sort`](crate::sort)).
pub const TYPES: &[DType] = crate::sort::TYPES;

/// The `k` largest (`largest`) or smallest elements of `x` along `dim` and
/// their indices (`i64`), in order (see the [module](self)); `sorted` is
/// accepted for PyTorch's signature (the result is sorted either way).
///
/// # Errors
/// `Error::InvalidArgument` when `k` is more than the length of `dim`,
/// `Error::AxisOutOfRange` for a `dim` outside `-ndim..ndim`, and what the
/// launches report.
pub fn launch<T: Sort>(
    x: &TensorT<T>,
    k: usize,
    dim: isize,
    largest: bool,
    sorted: bool,
) -> Result<(TensorT<T>, TensorT<i64>)> {
    let _ = sorted;
    let d = crate::sort::axis(dim, x.ndim())?;
    let len = if x.ndim() == 0 { 1 } else { x.shape()[d] };
    if k > len {
        return Err(Error::InvalidArgument {
            op: NAME,
            reason: format!(
                "k = {k} is more than the {len} elements along dimension {d} (shape {:?})",
                x.shape()
            ),
        });
    }
    crate::sort::top(x, dim, k, largest)
}

/// [`launch`] on an untyped tensor.
///
/// # Errors
/// As [`launch`].
pub fn dispatch(
    x: &Tensor,
    k: usize,
    dim: isize,
    largest: bool,
    sorted: bool,
) -> Result<(Tensor, Tensor)> {
    fn go<T: Sort>(
        x: &Tensor,
        k: usize,
        dim: isize,
        largest: bool,
        sorted: bool,
    ) -> Result<(Tensor, Tensor)> {
        let (v, i) = launch::<T>(&x.typed()?, k, dim, largest, sorted)?;
        Ok((v.into(), i.into()))
    }
    each_type!(x.dtype(), NAME, go(x, k, dim, largest, sorted))
}

/// The OpenCL C of the grid kernels for `dtype` (those of `sort`).
pub fn source(dtype: DType) -> Option<&'static str> {
    crate::sort::source(dtype)
}

/// The launch information of every instantiation (those of `sort`).
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    crate::sort::__infos()
}

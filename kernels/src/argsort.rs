//! `argsort`: the indices that sort a tensor along one dimension, as
//! PyTorch's `torch.argsort`: the `indices` of [`sort`](crate::sort), with
//! its order (stable, NaN last ascending and first descending).
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[2i32, 1, 2, 0], [4])?;
//! assert_eq!(k::argsort::launch(&x, 0, false)?.to_vec()?, [3, 1, 0, 2]);
//! assert_eq!(k::argsort::launch(&x, -1, true)?.to_vec()?, [0, 2, 1, 3]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, Result, Tensor, TensorT};

use crate::sort::{each_type, Sort};

/// The operation's name.
pub const NAME: &str = "argsort";

/// The element types it takes: every one (those of [`sort`](crate::sort)).
pub const TYPES: &[DType] = crate::sort::TYPES;

/// The indices (`i64`) along `dim` that sort `x` ascending or `descending`:
/// the second result of [`sort::launch`](crate::sort::launch).
///
/// # Errors
/// As [`sort::launch`](crate::sort::launch).
pub fn launch<T: Sort>(x: &TensorT<T>, dim: isize, descending: bool) -> Result<TensorT<i64>> {
    Ok(crate::sort::sorted(x, dim, descending)?.1)
}

/// [`launch`] on an untyped tensor.
///
/// # Errors
/// As [`launch`].
pub fn dispatch(x: &Tensor, dim: isize, descending: bool) -> Result<Tensor> {
    fn go<T: Sort>(x: &Tensor, dim: isize, descending: bool) -> Result<Tensor> {
        Ok(launch::<T>(&x.typed()?, dim, descending)?.into())
    }
    each_type!(x.dtype(), NAME, go(x, dim, descending))
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

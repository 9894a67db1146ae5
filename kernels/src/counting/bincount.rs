//! `bincount`: how many times each non-negative integer occurs in a 1-d
//! tensor (or the sum of its weights), as PyTorch's `torch.bincount(input,
//! weights=None, minlength=0)`.
//!
//! - `input` is 1-d, of `u8`, `i8`, `i16`, `i32` or `i64` (PyTorch's
//!   integer types), its elements non-negative: a negative one is
//!   `Error::InvalidArgument`.
//! - The result has `max(max(input) + 1, minlength)` bins; an empty `input`
//!   gives `minlength` zeros of `i64`, with weights too (PyTorch's rule).
//! - Without weights the counts are `i64`. With `weights` (1-d, as long as
//!   `input`) each bin is the sum of its elements' weights: `f32` for `f32`
//!   weights, `f64` for weights of any other dtype (converted first; `bool`
//!   as 1 and 0), as PyTorch's. On the host and CPU devices each bin adds
//!   its weights in order of position, as PyTorch's loop on the CPU (the
//!   same bits, run after run: [`scatter_add`](crate::scatter_add)'s walk
//!   of its one line); a GPU adds them by atomic additions, in an order
//!   that is not specified (a bin of several weights may differ in its last
//!   bits from run to run). Counts are exact in any order.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1i64, 3, 3, 0, 3], [5])?;
//! let c = k::bincount::launch(&x, None, 0)?;
//! assert_eq!(c.to_vec::<i64>()?, [1, 1, 0, 3]);
//! let w = Tensor::from_slice(&dev, &[0.5f32, 1.0, 1.0, 2.0, 1.0], [5])?;
//! let s = k::bincount::launch(&x, Some(&w), 6)?;
//! assert_eq!(s.to_vec::<f32>()?, [2.0, 0.5, 0.0, 3.0, 0.0, 0.0]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{Axes, DType, DeviceKind, Element, Error, Grid, Result, Tensor, TensorT};

use super::{device, items};
use crate::indexing::{same_device, supported};

/// The operation's name.
pub const NAME: &str = "bincount";

/// The element types of `input` it takes: PyTorch's integer types.
pub const TYPES: &[DType] = &[DType::U8, DType::I8, DType::I16, DType::I32, DType::I64];

/// An integer type `bincount` counts.
pub trait Integer: Element {}
impl Integer for u8 {}
impl Integer for i8 {}
impl Integer for i16 {}
impl Integer for i32 {}
impl Integer for i64 {}

/// `bincount(input, weights, minlength)` with a typed `input` (see the
/// [module](self)); the result's dtype depends on `weights`' dtype, so it
/// is untyped.
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Integer>(
    input: &TensorT<T>,
    weights: Option<&Tensor>,
    minlength: usize,
) -> Result<Tensor> {
    dispatch(input.as_tensor(), weights, minlength)
}

/// `bincount(input, weights, minlength)` on untyped tensors (see the
/// [module](self)).
///
/// # Errors
/// `Error::InvalidArgument` for an `input` that is not 1-d or holds a
/// negative number, or `weights` of another shape; `Error::UnsupportedDType`
/// for an `input` outside [`TYPES`], `Error::DeviceMismatch`, and what the
/// launches report.
pub fn dispatch(input: &Tensor, weights: Option<&Tensor>, minlength: usize) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    if input.ndim() != 1 {
        return Err(Error::InvalidArgument {
            op: NAME,
            reason: format!("`input` (shape {:?}) must be 1-d", input.shape()),
        });
    }
    let weights = match weights {
        None => None,
        Some(w) => {
            same_device(input, &[w])?;
            if w.shape() != input.shape() {
                return Err(Error::InvalidArgument {
                    op: NAME,
                    reason: format!(
                        "`weights` (shape {:?}) must be 1-d and as long as `input` (shape {:?})",
                        w.shape(),
                        input.shape()
                    ),
                });
            }
            Some(match w.dtype() {
                DType::F32 | DType::F64 => w.clone(),
                // no cast kernel reads `bool`: 1 where true, else 0
                DType::Bool => {
                    let dev = w.device();
                    let one = TensorT::from_slice(dev, &[1.0f64], [])?;
                    let zero = TensorT::from_slice(dev, &[0.0f64], [])?;
                    crate::where_::dispatch(w, one.as_tensor(), zero.as_tensor())?
                }
                _ => crate::to_f64::dispatch(w)?,
            })
        }
    };
    let n = input.len();
    // PyTorch's: an empty `input` gives `i64` zeros, weights or not
    let dtype = match &weights {
        Some(w) if n > 0 => w.dtype(),
        _ => DType::I64,
    };
    let bins = if n == 0 {
        minlength
    } else {
        let one =
            |t: Tensor| -> Result<i64> { Ok(crate::to_i64::dispatch(&t)?.to_vec::<i64>()?[0]) };
        let lo = one(crate::amin::dispatch(input, Axes::all())?)?;
        if lo < 0 {
            return Err(Error::InvalidArgument {
                op: NAME,
                reason: format!("`input` holds {lo}: it counts non-negative integers only"),
            });
        }
        let hi = one(crate::amax::dispatch(input, Axes::all())?)?;
        let top = usize::try_from(hi).map_err(|_| Error::InvalidArgument {
            op: NAME,
            reason: format!("`input` holds {hi}: too many bins"),
        })?;
        top.saturating_add(1).max(minlength)
    };
    let mut out = Tensor::zeros(input.device(), dtype, [bins])?;
    if n == 0 {
        return Ok(out);
    }
    if let Some(w) = &weights
        && !matches!(
            silt::__private::mapping_kind(input.device()),
            DeviceKind::Gpu | DeviceKind::Accelerator
        )
    {
        // every element is in `0..bins`: one line walked in order
        let at = if input.dtype() == DType::I64 {
            input.clone()
        } else {
            crate::to_i64::dispatch(input)?
        };
        return crate::scatter_add::dispatch(&out, 0, &at, w);
    }
    if weights.is_none() && input.device().is_host() {
        super::host::bincount(input, &mut out)?;
        return Ok(out);
    }
    // SAFETY: the kernels read `input` (and `weights`, as long) below its
    // length, count in their work-group array below its 1,024 elements and
    // add to `out` only at positions they tested against its length
    unsafe {
        match &weights {
            None => device::bincount_count::dispatch(Grid::over([items(n)]), input, &mut out)?,
            Some(w) if w.dtype() == DType::F32 => {
                device::bincount_f32::dispatch(Grid::over([n]), input, w, &mut out)?;
            }
            Some(w) => device::bincount_f64::dispatch(Grid::over([n]), input, w, &mut out)?,
        }
    }
    Ok(out)
}

/// The OpenCL C of the counting kernel for `input`'s `dtype` (the weighted
/// ones are in [`__infos`]).
pub fn source(dtype: DType) -> Option<&'static str> {
    device::bincount_count::source(dtype)
}

/// The launch information of every instantiation.
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
        std::sync::OnceLock::new();
    INFOS.get_or_init(|| {
        let mut v = device::bincount_count::__infos().to_vec();
        v.extend(device::bincount_f32::__infos());
        v.extend(device::bincount_f64::__infos());
        v
    })
}

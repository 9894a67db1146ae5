//! `histc`: the histogram of a float tensor in equal bins, as PyTorch's
//! `torch.histc(input, bins=100, min=0, max=0)`.
//!
//! - `input` has any shape (its elements counted together), of `f16`, `f32`
//!   or `f64`; the result is `bins` counts of `input`'s dtype.
//! - The range is `[min, max]`; when `min == max` (the default, 0 and 0)
//!   and `input` is not empty, the range is `input`'s smallest and largest
//!   element; a range that is still one point `p` becomes `[p - 1, p + 1]`.
//!   A range that is not finite (`input` holding NaN or an infinity, with
//!   the default range) or with `min > max` is `Error::InvalidArgument`, as
//!   is `bins == 0`.
//! - An element `v` in the range counts in bin `(v - min) * bins / (max -
//!   min)`, computed in the element type (`min` and `max` first rounded to
//!   it; `f16` rounding after each step, as PyTorch's on the CPU) and
//!   truncated; `max` itself counts in the last bin. Where `(max - min) *
//!   bins` overflows the element type (PyTorch's bins are then wrong), the
//!   bin is `(v - min) / (max - min) * bins`, with every term halved where
//!   `max - min` itself overflows, so that nothing overflows. Elements
//!   outside the range, and NaN, count nowhere. `f16` past 65504 bins
//!   (their number is no finite `f16`) computes the bins in `f32`.
//! - Counts are exact integers, converted to the element type once (an
//!   `f16` count past 2048 rounds).
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 1.0, 4.0, 2.5], [5])?;
//! // 4 bins over [1, 4], the data's range, each 0.75 wide
//! assert_eq!(k::histc::launch(&x, 4, 0.0, 0.0)?.to_vec()?, [2.0, 1.0, 1.0, 1.0]);
//! // over [0, 2]: 2.0 in the last bin, 2.5 and 4.0 nowhere
//! assert_eq!(k::histc::launch(&x, 2, 0.0, 2.0)?.to_vec()?, [0.0, 3.0]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{f16, DType, Element, Error, Grid, Result, Scalar, Tensor, TensorT};

use super::{device, extremes, items};
use crate::indexing::{flat, supported};

/// The operation's name.
pub const NAME: &str = "histc";

/// The element types it takes.
pub const TYPES: &[DType] = &[DType::F16, DType::F32, DType::F64];

/// A float type `histc` counts.
pub trait Float: Element {}
impl Float for f16 {}
impl Float for f32 {}
impl Float for f64 {}

/// `histc(input, bins, min, max)` on a typed tensor (see the
/// [module](self)).
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Float>(input: &TensorT<T>, bins: usize, min: f64, max: f64) -> Result<TensorT<T>> {
    dispatch(input.as_tensor(), bins, min, max)?.typed()
}

/// `histc(input, bins, min, max)` on an untyped tensor (see the
/// [module](self)).
///
/// # Errors
/// `Error::InvalidArgument` for `bins == 0`, a range that is not finite,
/// `min > max`, or a range that is one point once rounded to the element
/// type; `Error::UnsupportedDType` outside [`TYPES`], and what the launches
/// report.
pub fn dispatch(input: &Tensor, bins: usize, min: f64, max: f64) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    let invalid = |reason: String| Error::InvalidArgument { op: NAME, reason };
    if bins == 0 {
        return Err(invalid("`bins` must be at least 1".into()));
    }
    let (mut lo, mut hi) = (min, max);
    if lo == hi && !input.is_empty() {
        (lo, hi) = extremes(input)?;
    }
    if lo == hi {
        lo -= 1.0;
        hi += 1.0;
    }
    if !lo.is_finite() || !hi.is_finite() {
        return Err(invalid(format!("the range [{lo}, {hi}] is not finite")));
    }
    if lo > hi {
        return Err(invalid(format!("`min` ({lo}) is larger than `max` ({hi})")));
    }
    let dtype = input.dtype();
    // the range's ends rounded to the element type (PyTorch's bin edges
    // are of the element type)
    #[allow(clippy::cast_possible_truncation)]
    let (lo_s, hi_s) = match dtype {
        DType::F16 => (
            Scalar::F16(f16::from_f64(lo)),
            Scalar::F16(f16::from_f64(hi)),
        ),
        DType::F32 => (Scalar::F32(lo as f32), Scalar::F32(hi as f32)),
        _ => (Scalar::F64(lo), Scalar::F64(hi)),
    };
    let rounded = |s: &Scalar| match *s {
        Scalar::F16(v) => v.to_f64(),
        Scalar::F32(v) => f64::from(v),
        Scalar::F64(v) => v,
        _ => f64::NAN,
    };
    if rounded(&lo_s) >= rounded(&hi_s)
        || !rounded(&hi_s).is_finite()
        || !rounded(&lo_s).is_finite()
    {
        return Err(invalid(format!(
            "the range [{lo}, {hi}] is not a range of finite {dtype} values"
        )));
    }
    // `bins` past f16's largest (65504) is infinite as an f16: such bins
    // are told in f32, over the same elements and the same f16 range
    let (input, lo_s, hi_s, lo, hi) = if dtype == DType::F16 && bins > 65504 {
        #[allow(clippy::cast_possible_truncation)] // f16 values, exact in f32
        let (l, h) = (rounded(&lo_s) as f32, rounded(&hi_s) as f32);
        let wide = crate::to_f32::dispatch(input)?;
        (
            wide,
            Scalar::F32(l),
            Scalar::F32(h),
            f64::from(l),
            f64::from(h),
        )
    } else {
        (input.clone(), lo_s, hi_s, lo, hi)
    };
    let input = &input;
    let mut counts = Tensor::zeros(input.device(), DType::I64, [bins])?;
    if !input.is_empty() && input.device().is_host() {
        super::host::histc(&flat(input)?, lo, hi, &mut counts)?;
    } else if !input.is_empty() {
        let x = flat(input)?;
        // SAFETY: the kernel reads `x` below its length, counts in its
        // work-group array below its 1,024 elements and adds to `counts`
        // only at a bin it clamped below their number
        unsafe {
            device::histc_count::dispatch(
                Grid::over([items(x.len())]),
                &x,
                lo_s,
                hi_s,
                &mut counts,
            )?
        };
    }
    match dtype {
        DType::F16 => crate::to_f16::dispatch(&counts),
        DType::F32 => crate::to_f32::dispatch(&counts),
        _ => crate::to_f64::dispatch(&counts),
    }
}

/// The OpenCL C of the grid kernel for `dtype`.
pub fn source(dtype: DType) -> Option<&'static str> {
    device::histc_count::source(dtype)
}

/// The launch information of every instantiation.
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    device::histc_count::__infos()
}

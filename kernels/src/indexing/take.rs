//! `take`: the elements of `input`, read as a 1-d tensor (row-major), at
//! the positions in `index`, as PyTorch's `torch.take(input, index)`.
//!
//! - `index` holds `i64` and has any shape, which the result takes.
//! - A negative index counts from the end (`-1` is the last element), as in
//!   PyTorch: each index must lie in `-n..n` for `n` elements. One out of
//!   range is `Error::IndexOutOfRange`.
//! - A non-contiguous `input` is read through a contiguous copy.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1u8, 2, 3, 4, 5, 6], [2, 3])?;
//! let i = TensorT::from_slice(&dev, &[5i64, -6, 1, -1], [2, 2])?;
//! let y = k::take::launch(&x, &i)?;
//! assert_eq!((y.shape(), y.to_vec()?), (&[2usize, 2][..], vec![6, 1, 2, 6]));
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, Element, Grid, Result, Tensor, TensorT};

use super::{device, flat, host, out_of_range, same_device, supported, Record};

/// The operation's name.
pub const NAME: &str = "take";

/// The element types it takes: every dtype.
pub const TYPES: &[DType] = super::ALL;

/// `take(input, index)` on typed tensors (see the [module](self)).
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Element>(input: &TensorT<T>, index: &TensorT<i64>) -> Result<TensorT<T>> {
    dispatch(input.as_tensor(), index.as_tensor())?.typed()
}

/// `take(input, index)` on untyped tensors (see the [module](self)).
///
/// # Errors
/// `Error::IndexOutOfRange` for an index out of range,
/// `Error::DTypeMismatch` for an `index` of another dtype than `i64`,
/// `Error::UnsupportedDType`, `Error::DeviceMismatch`, and what the launch
/// reports.
pub fn dispatch(input: &Tensor, index: &Tensor) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    same_device(input, &[index])?;
    let idx = super::index_of(index, false)?;
    // every element is written below (or the launch fails): no fill first
    let out = silt::__private::untyped_output_for_overwrite(
        input.device(),
        input.dtype(),
        index.shape(),
    )?;
    if out.is_empty() {
        return Ok(out);
    }
    if input.is_empty() {
        // every index is out of range (and the device's copy reads element
        // 0 in place of a bad index's)
        return Err(out_of_range(NAME, &idx, 0, "an input", 0));
    }
    let x = flat(input)?;
    let x = if x.is_contiguous() {
        x
    } else {
        x.contiguous()?
    };
    let i = flat(&idx)?;
    if input.device().is_host() {
        let n = x.len();
        return match host::places(&i, n, true)? {
            Ok(from) => {
                let mut out = out;
                host::take(&x, &from, &mut out)?;
                Ok(out)
            }
            Err(pos) => Err(out_of_range(NAME, &idx, pos, "an input", n)),
        };
    }
    let mut o = flat(&out)?;
    let bad = Record::new(input.device())?;
    let mut rec = Tensor::from(bad.0.clone());
    let n = i64::try_from(x.len()).unwrap_or(i64::MAX);
    // SAFETY: `i` is read only below its length, `rec` has its one element
    unsafe { device::index_check::dispatch(Grid::over([i.len()]), &i, -n, n, &mut rec)? };
    // SAFETY: `o` and `i` have one element per work-item below the
    // output's length (tested where the work-group reaches past it); `x` is
    // read at a position the kernel tested against its length, or at 0
    // (`x` is not empty above)
    unsafe { device::take_flat::dispatch(Grid::over([out.len()]), &x, &i, &mut o)? };
    if let Some(pos) = bad.position()? {
        return Err(out_of_range(NAME, &idx, pos, "an input", input.len()));
    }
    Ok(out)
}

/// The OpenCL C of the grid kernels for `dtype`: the copy's, then the
/// index check's (which takes the indices, `i64`).
pub fn source(dtype: DType) -> Option<&'static str> {
    static SOURCES: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
    super::sources_with_check(&SOURCES, TYPES, &[device::take_flat::source], dtype)
}

/// The launch information of every instantiation (the copy's and the
/// index check's).
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
        std::sync::OnceLock::new();
    super::infos_with_check(&INFOS, &[device::take_flat::__infos])
}

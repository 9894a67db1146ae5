//! `index_select`: the slices of `input` along `dim` at the positions in
//! `index`, as PyTorch's `torch.index_select(input, dim, index)`.
//!
//! - `index` is 0-d or 1-d, of `i64` or `i32`; the result has `input`'s
//!   shape with `dim`'s size replaced by the number of indices (a 0-d
//!   `input` takes exactly one index and gives a 0-d result).
//! - Each index must lie in `0..input.shape()[dim]`: a negative index is out
//!   of range, as in PyTorch. One out of range is `Error::IndexOutOfRange`
//!   (the operation, the index, its position and the size).
//! - `input` is read in place when its dimensions before and after `dim`
//!   each fold into one stride (any contiguous tensor, a narrowed or
//!   transposed one in most cases), else through a contiguous copy.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3])?;
//! let i = TensorT::from_slice(&dev, &[2i64, 0, 2], [3])?;
//! let y = k::index_select::launch(&x, 1, &i)?;
//! assert_eq!(y.shape(), [2, 3]);
//! assert_eq!(y.to_vec()?, [3.0, 1.0, 3.0, 6.0, 4.0, 6.0]);
//! assert!(k::index_select::launch(&x, 0, &TensorT::from_slice(&dev, &[2i64], [1])?).is_err());
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, Element, Error, Result, Tensor, TensorT};

use super::{
    axis, device, host, lines, lines_grid, lines_pieces, out_of_range, same_device, supported,
    Record,
};

/// The operation's name.
pub const NAME: &str = "index_select";

/// The element types it takes: every dtype.
pub const TYPES: &[DType] = super::ALL;

/// `index_select(input, dim, index)` on typed tensors (see the
/// [module](self)); `index` holds `i64`.
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Element>(
    input: &TensorT<T>,
    dim: isize,
    index: &TensorT<i64>,
) -> Result<TensorT<T>> {
    dispatch(input.as_tensor(), dim, index.as_tensor())?.typed()
}

/// `index_select(input, dim, index)` on untyped tensors (see the
/// [module](self)).
///
/// # Errors
/// `Error::AxisOutOfRange` for `dim`, `Error::InvalidArgument` for an
/// `index` of more than one dimension or several indices into a 0-d
/// `input`, `Error::IndexOutOfRange` for an index out of range, `Error::DTypeMismatch` for an `index` of
/// neither `i64` nor `i32`, `Error::DeviceMismatch`, and what the launch
/// reports.
pub fn dispatch(input: &Tensor, dim: isize, index: &Tensor) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    same_device(input, &[index])?;
    let d = axis(dim, input.ndim())?;
    if index.ndim() > 1 {
        return Err(Error::InvalidArgument {
            op: NAME,
            reason: format!(
                "`index` has {} dimensions (shape {:?}): it takes a 1-d or 0-d tensor",
                index.ndim(),
                index.shape()
            ),
        });
    }
    let m = index.len();
    if input.ndim() == 0 && m != 1 {
        return Err(Error::InvalidArgument {
            op: NAME,
            reason: format!("a 0-d input takes exactly one index, not {m}"),
        });
    }
    let idx = super::index_of(index, true)?;
    let idx = super::flat(&idx)?;
    let mut shape = input.shape().to_vec();
    if !shape.is_empty() {
        shape[d] = m;
    }
    // every element is written below (or the launch fails): no fill first
    let out = silt::__private::untyped_output_for_overwrite(input.device(), input.dtype(), &shape)?;
    let size = if input.ndim() == 0 {
        1
    } else {
        input.shape()[d]
    };
    // the error for the index at row-major position `pos`
    let bad_at = |pos: usize| out_of_range(NAME, &idx, pos, &format!("dimension {d}"), size);
    if out.is_empty() {
        // nothing read: the indices are still checked (on the host; one
        // dimension of indices)
        if let Some(pos) = idx
            .to_vec::<i64>()?
            .iter()
            .position(|&v| v < 0 || v as u64 >= size as u64)
        {
            return Err(bad_at(pos));
        }
        return Ok(out);
    }
    if size == 0 {
        // every index is out of range (and the device's copy reads row 0
        // in place of a bad index's)
        return Err(bad_at(0));
    }
    let x = lines(input, d)?;
    if input.device().is_host() {
        let v = host::places(&idx, size, false)?.map_err(bad_at)?;
        let mut out3 = lines(&out, d)?;
        host::select_rows(&x, &v, &mut out3)?;
        return Ok(out);
    }
    let out3 = lines(&out, d)?;
    let bad = Record::new(input.device())?;
    let mut rec = Tensor::from(bad.0.clone());
    let (outer, inner) = (out3.shape()[0], out3.shape()[2]);
    let hi = i64::try_from(size).unwrap_or(i64::MAX);
    // SAFETY: `idx` is read only below its length, `rec` has its one
    // element
    unsafe { device::index_check::dispatch(silt::Grid::over([m]), &idx, 0, hi, &mut rec)? };
    let (_, form) = lines_grid(outer, m, inner)?;
    for (o, j) in lines_pieces(outer, m, form) {
        let x = x.narrow(0, o.start, o.len())?;
        let idx = idx.narrow(0, j.start, j.len())?;
        let mut out3 = out3
            .narrow(0, o.start, o.len())?
            .narrow(1, j.start, j.len())?;
        let (grid, form) = lines_grid(o.len(), j.len(), inner)?;
        // SAFETY: `x` and `out3` share their outer and inner sizes and `out3`
        // has one row per index, so each work-item's place is in range in
        // `out3` and `idx`: `(o, j, i)` as `form` lays out the grid, tested
        // against `out3`'s shape (the kernels of `form` 1 and 0 test the place
        // along the grid's first dimension, the line's element or the index,
        // only where the work-group reaches past its end); `x` is read along
        // `dim` at an index the kernel tested against its length, or at 0
        // (`size` > 0 above)
        unsafe {
            match form {
                0 => device::index_select_elements::dispatch(grid, &x, &idx, &mut out3)?,
                1 => device::index_select_lines::dispatch(grid, &x, &idx, &mut out3)?,
                _ => device::index_select_rows::dispatch(grid, &x, &idx, &mut out3, form)?,
            }
        }
    }
    if let Some(pos) = bad.position()? {
        return Err(bad_at(pos));
    }
    Ok(out)
}

/// The OpenCL C of the grid kernels for `dtype`: the copies' (short lines,
/// long lines, lines of one element), then the index check's (which takes
/// the indices, `i64`).
pub fn source(dtype: DType) -> Option<&'static str> {
    static SOURCES: std::sync::OnceLock<Vec<(DType, String)>> = std::sync::OnceLock::new();
    super::sources_with_check(
        &SOURCES,
        TYPES,
        &[
            device::index_select_rows::source,
            device::index_select_lines::source,
            device::index_select_elements::source,
        ],
        dtype,
    )
}

/// The launch information of every instantiation (the copies' and the
/// index check's).
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    static INFOS: std::sync::OnceLock<Vec<&'static silt::__private::KernelInfo>> =
        std::sync::OnceLock::new();
    super::infos_with_check(
        &INFOS,
        &[
            device::index_select_rows::__infos,
            device::index_select_lines::__infos,
            device::index_select_elements::__infos,
        ],
    )
}

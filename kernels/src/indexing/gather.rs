//! `gather`: the elements of `input` along `dim` at the positions in
//! `index`, as PyTorch's `torch.gather(input, dim, index)`:
//! `out[i][j][k] = input[index[i][j][k]][j][k]` for `dim = 0`, and so on.
//!
//! - `index` holds `i64` and has as many dimensions as `input`, each no
//!   larger than `input`'s apart from `dim`; the result has `index`'s shape.
//! - Each index must lie in `0..input.shape()[dim]`: a negative index is out
//!   of range, as in PyTorch. One out of range is `Error::IndexOutOfRange`.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let x = TensorT::from_slice(&dev, &[1i32, 2, 3, 4], [2, 2])?;
//! let i = TensorT::from_slice(&dev, &[0i64, 0, 1, 0], [2, 2])?;
//! assert_eq!(k::gather::launch(&x, 1, &i)?.to_vec()?, [1, 1, 4, 3]);
//! # Ok::<(), silt::Error>(())
//! ```

use silt::{DType, Element, Error, Grid, Result, Tensor, TensorT};

use super::{
    at_least_1d, axis, device, flat, host, lines, lines_grid, lines_pieces, out_of_range,
    same_device, supported, Record,
};

/// The operation's name.
pub const NAME: &str = "gather";

/// The element types it takes: every dtype.
pub const TYPES: &[DType] = super::ALL;

/// `gather(input, dim, index)` on typed tensors (see the [module](self)).
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

/// `gather(input, dim, index)` on untyped tensors (see the [module](self)).
///
/// # Errors
/// `Error::AxisOutOfRange` for `dim`, `Error::InvalidArgument` for an
/// `index` of another dimension count or larger than `input` in a
/// dimension other than `dim`, `Error::IndexOutOfRange` for an index out
/// of range,
/// `Error::DTypeMismatch` for an `index` of another dtype than `i64`,
/// `Error::UnsupportedDType`, `Error::DeviceMismatch`, and what the launch
/// reports.
pub fn dispatch(input: &Tensor, dim: isize, index: &Tensor) -> Result<Tensor> {
    supported(NAME, TYPES, input.dtype())?;
    same_device(input, &[index])?;
    let d = axis(dim, input.ndim())?;
    let idx = super::index_of(index, false)?;
    // every element is written below (or the launch fails): no fill first
    let out = silt::__private::untyped_output_for_overwrite(
        input.device(),
        input.dtype(),
        index.shape(),
    )?;
    let (xs, is) = (at_least_1d(input.shape()), at_least_1d(index.shape()));
    check_shapes(NAME, &xs, &is, d, "input")?;
    if index.is_empty() {
        return Ok(out);
    }
    // `input` narrowed to `index`'s sizes apart from `dim`: the same
    // `[outer, *, inner]` positions in both
    let mut x = if input.ndim() == 0 {
        input.reshape([1])?
    } else {
        input.clone()
    };
    for (a, (&sx, &si)) in xs.iter().zip(&is).enumerate() {
        if a != d && si < sx {
            x = x.narrow(a, 0, si)?;
        }
    }
    if xs[d] == 0 {
        // every index is out of range (and the device's copy reads row 0
        // in place of a bad index's)
        return Err(out_of_range(NAME, &idx, 0, &format!("dimension {d}"), 0));
    }
    let x = lines(&x, d)?;
    let idx3 = lines(&idx, d)?;
    if input.device().is_host() {
        let n = xs[d];
        let v = match host::places(&idx3, n, false)? {
            Ok(v) => v,
            Err(pos) => return Err(out_of_range(NAME, &idx, pos, &format!("dimension {d}"), n)),
        };
        let mut out3 = lines(&out, d)?;
        host::gather(&x, &v, idx3.shape()[1], &mut out3)?;
        return Ok(out);
    }
    let out3 = lines(&out, d)?;
    let bad = Record::new(input.device())?;
    let mut rec = Tensor::from(bad.0.clone());
    let (outer, m, inner) = (out3.shape()[0], out3.shape()[1], out3.shape()[2]);
    // the indices in their row-major order, so that a work-item's id is the
    // position the error names
    let flat_idx = flat(&idx)?;
    let hi = i64::try_from(xs[d]).unwrap_or(i64::MAX);
    // SAFETY: `flat_idx` is read only below its length, `rec` has its one
    // element
    unsafe {
        device::index_check::dispatch(Grid::over([flat_idx.len()]), &flat_idx, 0, hi, &mut rec)?;
    }
    let (_, form) = lines_grid(outer, m, inner)?;
    for (o, j) in lines_pieces(outer, m, form) {
        let x = x.narrow(0, o.start, o.len())?;
        let idx3 = idx3
            .narrow(0, o.start, o.len())?
            .narrow(1, j.start, j.len())?;
        let mut out3 = out3
            .narrow(0, o.start, o.len())?
            .narrow(1, j.start, j.len())?;
        let (grid, form) = lines_grid(o.len(), j.len(), inner)?;
        // SAFETY: `out3`, `idx3` and `x` share their outer and inner sizes
        // (`x` narrowed to `index`'s), so each work-item's place is in range in
        // all three: `(o, j, i)` as `form` lays out the grid, tested against
        // `out3`'s shape (the kernels of `form` 1 and 0 test the place along
        // the grid's first dimension only where the work-group reaches past
        // its end); `x` is read along `dim` at an index the kernel tested
        // against its length, or at 0 (`xs[d]` > 0 above)
        unsafe {
            match form {
                0 => device::gather_elements::dispatch(grid, &x, &idx3, &mut out3)?,
                1 => device::gather_lines::dispatch(grid, &x, &idx3, &mut out3)?,
                _ => device::gather_along::dispatch(grid, &x, &idx3, &mut out3, form)?,
            }
        }
    }
    if let Some(pos) = bad.position()? {
        return Err(out_of_range(
            NAME,
            &idx,
            pos,
            &format!("dimension {d}"),
            xs[d],
        ));
    }
    Ok(out)
}

/// PyTorch's rule for `index` beside `of` (`input` or `src`): as many
/// dimensions, and no larger apart from `dim` (any size along `dim` when
/// `of` is `input`).
pub(crate) fn check_shapes(
    op: &'static str,
    of: &[usize],
    index: &[usize],
    dim: usize,
    name: &str,
) -> Result<()> {
    if of.len() != index.len() {
        return Err(Error::InvalidArgument {
            op,
            reason: format!(
                "`index` (shape {index:?}) must have as many dimensions as `{name}` (shape {of:?})"
            ),
        });
    }
    let all = name == "src";
    if let Some(a) = (0..of.len()).find(|&a| (all || a != dim) && index[a] > of[a]) {
        return Err(Error::InvalidArgument {
            op,
            reason: format!(
                "`index` (shape {index:?}) is larger than `{name}` (shape {of:?}) in dimension {a}{}",
                if all { "" } else { ", which only `dim` may be" }
            ),
        });
    }
    Ok(())
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
            device::gather_along::source,
            device::gather_lines::source,
            device::gather_elements::source,
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
            device::gather_along::__infos,
            device::gather_lines::__infos,
            device::gather_elements::__infos,
        ],
    )
}

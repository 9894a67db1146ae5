//! `searchsorted`: where each value would go in a sorted sequence to keep
//! it sorted, as PyTorch's `torch.searchsorted(sorted_sequence, input,
//! right=False, sorter=None)` (and so `torch.bucketize(input, boundaries,
//! right=False)`, which is `searchsorted(boundaries, input, right)`).
//!
//! - `sorted_sequence` is 1-d (one sequence for every value; `values` of
//!   any shape, 0-d too), or has as many dimensions as `values` with the
//!   same sizes but the last: each row of `values` is searched in the same
//!   row of `sorted_sequence`. The result has `values`' shape, of `i64`.
//! - With `right` false, the result is the first place `i` with
//!   `sorted_sequence[i] >= v` (the length of the row where there is none);
//!   with `right` true, the first with `sorted_sequence[i] > v`. So a value
//!   equal to elements goes before them (`right` false) or after them.
//! - Each place is found by bisection, `mid = lo + (hi - lo) / 2`, moving
//!   right while `!(s[mid] >= v)` (`!(s[mid] > v)` for `right`), as
//!   PyTorch's kernels do: a NaN value goes after every element, as NaN
//!   sorts last; a sequence holding NaN (at its end, where a sort puts it)
//!   gives PyTorch's places too. `-0.0` and `0.0` are equal.
//! - `sorter`, when given, holds `i64` indices of `sorted_sequence`'s shape
//!   that sort each row (as [`argsort`](crate::argsort) gives them): the
//!   sequence is read through them. An index outside `0..n` is
//!   `Error::IndexOutOfRange`.
//! - The sequences need not be sorted; where they are not, the places are
//!   those of the bisection above (as in PyTorch), not an error.
//!
//! Types: every one but `bool`, the sequence and the values of the same
//! dtype. A work-item (on the host, a task of values) searches each value.
//!
//! ```
//! use silt::prelude::*;
//! use silt_kernels as k;
//!
//! let dev = Device::default()?;
//! let s = TensorT::from_slice(&dev, &[1.0f32, 3.0, 5.0, 7.0, 9.0], [5])?;
//! let v = TensorT::from_slice(&dev, &[3.0f32, 6.0, 9.0, f32::NAN], [2, 2])?;
//! assert_eq!(k::searchsorted::launch(&s, &v, false, None)?.to_vec()?, [1, 3, 4, 5]);
//! assert_eq!(k::searchsorted::launch(&s, &v, true, None)?.to_vec()?, [2, 3, 5, 5]);
//! # Ok::<(), silt::Error>(())
//! ```

use rayon::prelude::*;
use silt::{f16, grid, DType, Element, Error, Grid, Result, Tensor, TensorT};

/// The operation's name.
pub const NAME: &str = "searchsorted";

/// The element types it takes: every one but `bool` (those of
/// [`scatter_add`](crate::scatter_add)).
pub const TYPES: &[DType] = crate::scatter_add::TYPES;

/// The values a host task searches (at least).
const TASK: usize = 1 << 14;

/// `searchsorted(sorted_sequence, values, right, sorter)` on typed tensors
/// (see the [module](self)).
///
/// # Errors
/// As [`dispatch`].
pub fn launch<T: Element>(
    sorted_sequence: &TensorT<T>,
    values: &TensorT<T>,
    right: bool,
    sorter: Option<&TensorT<i64>>,
) -> Result<TensorT<i64>> {
    dispatch(
        sorted_sequence.as_tensor(),
        values.as_tensor(),
        right,
        sorter.map(TensorT::as_tensor),
    )?
    .typed()
}

/// `searchsorted(sorted_sequence, values, right, sorter)` on untyped tensors
/// (see the [module](self)).
///
/// # Errors
/// `Error::InvalidArgument` for a 0-d `sorted_sequence`, or one of several
/// dimensions whose sizes but the last differ from `values'`, or a `sorter`
/// of another shape; `Error::DTypeMismatch` for `values` of another dtype
/// than the sequence, or a `sorter` not of `i64`; `Error::IndexOutOfRange`
/// for a `sorter` index outside the row; `Error::UnsupportedDType` (`bool`),
/// `Error::DeviceMismatch`, and what the launch reports.
pub fn dispatch(
    sorted_sequence: &Tensor,
    values: &Tensor,
    right: bool,
    sorter: Option<&Tensor>,
) -> Result<Tensor> {
    let dtype = sorted_sequence.dtype();
    crate::indexing::supported(NAME, TYPES, dtype)?;
    let mut others = vec![values];
    others.extend(sorter);
    crate::indexing::same_device(sorted_sequence, &others)?;
    if values.dtype() != dtype {
        return Err(Error::DTypeMismatch {
            expected: dtype,
            got: values.dtype(),
        });
    }
    let invalid = |reason: String| Error::InvalidArgument { op: NAME, reason };
    let (ss, vs) = (sorted_sequence.shape(), values.shape());
    let nd = ss.len();
    if nd == 0 {
        return Err(invalid(
            "`sorted_sequence` must have at least one dimension".into(),
        ));
    }
    if nd > 1 && (vs.len() != nd || ss[..nd - 1] != vs[..nd - 1]) {
        return Err(invalid(format!(
            "a `sorted_sequence` of shape {ss:?} takes `values` of the same sizes but the \
             last, not of shape {vs:?} (or a 1-d sequence)"
        )));
    }
    let seq = match sorter {
        None => sorted_sequence.clone(),
        Some(s) => {
            if s.shape() != ss {
                return Err(invalid(format!(
                    "`sorter` must have the shape of `sorted_sequence`, {ss:?}, not {:?}",
                    s.shape()
                )));
            }
            crate::gather::dispatch(sorted_sequence, -1, s).map_err(|e| match e {
                Error::IndexOutOfRange {
                    value, at, size, ..
                } => Error::IndexOutOfRange {
                    op: NAME,
                    value: format!("{value} of `sorter`"),
                    at,
                    what: "the last dimension of `sorted_sequence`".into(),
                    size,
                },
                other => other,
            })?
        }
    };
    let n = ss[nd - 1];
    // the rows: [rows, n] of the sequence beside [rows, m] of the values
    // (one row of every value for a 1-d sequence)
    let out = silt::__private::untyped_output_for_overwrite(values.device(), DType::I64, vs)?;
    if out.is_empty() {
        return Ok(out);
    }
    // values, so rows of the sequence (its batch is theirs), whose product fits
    let (rows, m) = if nd == 1 {
        (1, values.len())
    } else {
        (ss[..nd - 1].iter().product(), vs[nd - 1])
    };
    let as_rows = |t: &Tensor, cols: usize| -> Result<Tensor> {
        if t.shape() == [rows, cols] {
            return Ok(t.clone());
        }
        let c = if t.is_contiguous() {
            t.clone()
        } else {
            t.contiguous()?
        };
        c.reshape([rows, cols])
    };
    let (s2, v2) = (as_rows(&seq, n)?, as_rows(values, m)?);
    let mut o2 = out.reshape([rows, m])?;
    if values.device().is_host() {
        silt::select!(
            "searchsorted",
            dtype,
            T => host::<T>(&s2, &v2, right, &o2),
            [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64]
        )?;
    } else {
        // SAFETY: each work-item below `rows * m` reads its value at
        // `(g / m, g % m)` of `v2` (`[rows, m]`, `m` > 0 as the output is
        // not empty) and writes the same place of `o2`; the bisection reads
        // `s2`'s row `g / m` at `lo + len / 2` with `lo + len <= n`
        unsafe {
            device::searchsorted_rows::dispatch(
                Grid::over([rows * m]),
                &s2,
                &v2,
                u32::from(right),
                &mut o2,
            )?;
        }
    }
    Ok(out)
}

/// The bisection of the [module](self): where `!(seq[mid] >= v)` (`RIGHT`:
/// `!(seq[mid] > v)`) it moves right, else left. Written as a start and a
/// length (`mid = lo + len / 2`, the same places as `lo + (hi - lo) / 2`)
/// whose updates are selects, not branches.
// the negated comparisons are the point: a NaN element compares false, so
// the bisection moves right past it, as PyTorch's does
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn place<T: PartialOrd + Copy, const RIGHT: bool>(seq: &[T], v: T) -> usize {
    let (mut lo, mut len) = (0, seq.len());
    while len > 0 {
        let half = len / 2;
        let e = seq[lo + half];
        let after = if RIGHT { !(e > v) } else { !(e >= v) };
        lo = if after { lo + half + 1 } else { lo };
        len = if after { len - half - 1 } else { half };
    }
    lo
}

/// The host's search: tasks of values in parallel, each row's sequence a
/// slice (`s` and `v` 2-d; `out`, fresh and contiguous, written in place).
fn host<T: Element + PartialOrd + Send + Sync>(
    s: &Tensor,
    v: &Tensor,
    right: bool,
    out: &Tensor,
) -> Result<()> {
    let s: TensorT<T> = s.contiguous()?.typed()?;
    let v: TensorT<T> = v.contiguous()?.typed()?;
    let (n, m) = (s.shape()[1], v.shape()[1]);
    let one_row = s.shape()[0] == 1;
    let mut out: TensorT<i64> = out.typed()?;
    s.with_host_slice(|seq| {
        v.with_host_slice(|vals| {
            out.with_host_slice_mut(|places| {
                places
                    .par_chunks_mut(TASK)
                    .zip(vals.par_chunks(TASK))
                    .enumerate()
                    .for_each(|(t, (o, vs))| {
                        for (k, (o, &x)) in o.iter_mut().zip(vs).enumerate() {
                            let r = if one_row { 0 } else { (t * TASK + k) / m };
                            let row = &seq[r * n..(r + 1) * n];
                            let p = if right {
                                place::<T, true>(row, x)
                            } else {
                                place::<T, false>(row, x)
                            };
                            *o = i64::try_from(p).unwrap_or(i64::MAX);
                        }
                    });
            })
        })
    })???;
    Ok(())
}

/// The OpenCL C of the grid kernel for `dtype`.
pub fn source(dtype: DType) -> Option<&'static str> {
    device::searchsorted_rows::source(dtype)
}

/// The launch information of every instantiation.
#[doc(hidden)]
pub fn __infos() -> &'static [&'static silt::__private::KernelInfo] {
    device::searchsorted_rows::__infos()
}

mod device {
    use super::grid;

    /// For each work-item `g` below `v`'s size, the bisection's place of
    /// `v[g / m, g % m]` in row `g / m` of `s` (`right` 1: past equal
    /// elements), written to the same place of `out`.
    #[grid(
        types = [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64],
        group = [256],
        unchecked
    )]
    pub fn searchsorted_rows<T>(
        s: View<T, 2>,
        v: View<T, 2>,
        #[scalar] right: u32,
        out: ViewMut<i64, 2>,
    ) {
        let g = global_id(0);
        let m = v.len(1);
        if g < v.len(0) * m {
            let (r, j) = (g / m, g % m);
            let x = v[[r, j]];
            // the bisection as a start and a length (the places of `lo +
            // (hi - lo) / 2`), its updates selects
            let mut lo: u64 = 0;
            let mut len: u64 = s.len(1);
            while len > 0 {
                let half = len >> 1;
                let e = s[[r, lo + half]];
                let after = if right == 1 { !(e > x) } else { !(e >= x) };
                lo = if after { lo + half + 1 } else { lo };
                len = if after { len - half - 1 } else { half };
            }
            out[[r, j]] = lo as i64;
        }
    }
}

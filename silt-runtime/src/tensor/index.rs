//! Views for indexing: every `step`-th element of an axis (`slice`), one
//! position of an axis, which removes it (`select`), Python's `t[a:b:s, i]`;
//! and any layout over the storage (`as_strided`).

use crate::error::{Error, Result};
use crate::layout::{Dims, Layout};

use super::Tensor;

impl Tensor {
    /// A view of `len` elements of `axis`, from `start`, every `step`-th
    /// (`step` ≥ 1), sharing storage: Python's `start:start+len*step:step`.
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[0i32, 1, 2, 3, 4, 5, 6], [7])?;
    /// let odd = t.slice(0, 1, 3, 2)?; // elements 1, 3, 5
    /// assert_eq!((odd.to_vec::<i32>()?, odd.strides()), (vec![1, 3, 5], &[2usize][..]));
    /// assert!(matches!(t.slice(0, 1, 4, 2), Err(Error::OutOfRange { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidAxis`], [`Error::OutOfRange`] when an element would lie
    /// past the end of the axis, [`Error::InvalidArgument`] for a `step` of 0.
    pub fn slice(&self, axis: usize, start: usize, len: usize, step: usize) -> Result<Tensor> {
        let size = self.axis_size(axis)?;
        if step == 0 {
            return Err(Error::InvalidArgument {
                op: "slice",
                reason: "a step of 0; steps are 1 or more".into(),
            });
        }
        // the last element taken, start + (len - 1) * step, must lie in the axis
        let last = len
            .checked_sub(1)
            .map(|n| n.checked_mul(step).and_then(|d| d.checked_add(start)));
        let fits = match last {
            None => start <= size,
            Some(l) => l.is_some_and(|l| l < size),
        };
        if !fits {
            return Err(Error::OutOfRange {
                axis,
                start,
                len: len.saturating_mul(step),
                size,
            });
        }
        let mut layout = self.layout.clone();
        // an element of a view that has elements, so inside the storage (an
        // empty view's strides may be anything: its offset stays)
        if len > 0 && self.layout.len() > 0 {
            layout.offset += start * layout.strides[axis];
            if len > 1 {
                layout.strides[axis] *= step;
            }
        }
        layout.shape[axis] = len;
        Ok(self.with_layout(layout))
    }

    /// A view of position `index` of `axis`, without that axis (one dimension
    /// fewer), sharing storage: Python's `t[index]` on the first axis.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[0u8, 1, 2, 3, 4, 5], [2, 3])?;
    /// let col = t.select(1, 2)?;
    /// assert_eq!((col.shape(), col.to_vec::<u8>()?), (&[2usize][..], vec![2, 5]));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidAxis`], [`Error::OutOfRange`] for an index past the end.
    pub fn select(&self, axis: usize, index: usize) -> Result<Tensor> {
        let size = self.axis_size(axis)?;
        if index >= size {
            return Err(Error::OutOfRange {
                axis,
                start: index,
                len: 1,
                size,
            });
        }
        let keep = |d: &Dims| -> Vec<usize> {
            d.iter()
                .enumerate()
                .filter(|&(i, _)| i != axis)
                .map(|(_, &v)| v)
                .collect()
        };
        let layout = Layout {
            shape: Dims::new(&keep(&self.layout.shape))?,
            strides: Dims::new(&keep(&self.layout.strides))?,
            // an element of the view, so inside the storage; an empty view
            // (another dimension of 0) may have any strides: its offset stays
            offset: if self.layout.len() > 0 {
                self.layout.offset + index * self.layout.strides[axis]
            } else {
                self.layout.offset
            },
        };
        Ok(self.with_layout(layout))
    }

    /// A view of this tensor's storage with any shape, strides and offset (in
    /// elements from the storage's start), as PyTorch's `as_strided`: checked
    /// to lie inside the storage (an empty view anywhere: its offset is kept
    /// at most the storage's length).
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[0u8, 1, 2, 3, 4, 5], [6])?;
    /// let pairs = t.narrow(0, 4, 2)?.as_strided([2, 2], [2, 1], 1)?; // [[1, 2], [3, 4]]
    /// assert_eq!(pairs.to_vec::<u8>()?, [1, 2, 3, 4]);
    /// assert!(matches!(t.as_strided([2], [5], 2), Err(Error::OutOfRange { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when an element would lie outside the storage,
    /// [`Error::ShapeMismatch`] when `shape` and `strides` differ in length,
    /// [`Error::InvalidArgument`] when the element count overflows `usize`,
    /// [`Error::TooManyDims`].
    pub fn as_strided(
        &self,
        shape: impl AsRef<[usize]>,
        strides: impl AsRef<[usize]>,
        offset: usize,
    ) -> Result<Tensor> {
        let elems = self.storage.nbytes / self.dtype().size();
        // an empty view reads nothing: any offset will do (kept inside)
        let offset = if shape.as_ref().contains(&0) {
            offset.min(elems)
        } else {
            offset
        };
        let (layout, end) = strided(
            "as_strided (shape and strides)",
            shape.as_ref(),
            strides.as_ref(),
            offset,
        )?;
        if end.is_none_or(|e| e > elems) {
            return Err(Error::OutOfRange {
                axis: 0,
                start: offset,
                len: end.map_or(usize::MAX, |e| e - offset),
                size: elems,
            });
        }
        Ok(self.with_layout(layout))
    }

    fn axis_size(&self, axis: usize) -> Result<usize> {
        self.shape().get(axis).copied().ok_or(Error::InvalidAxis {
            axis,
            ndim: self.ndim(),
        })
    }
}

/// The layout of `shape`, `strides` and `offset` (in elements), and one past
/// the last element it reaches (`offset` for an empty view; `None` on
/// overflow), for the caller to check against what it views.
///
/// # Errors
/// [`Error::ShapeMismatch`] (labelled `op`) when `shape` and `strides` differ
/// in length, [`Error::InvalidArgument`] when the element count overflows
/// `usize`, [`Error::TooManyDims`].
pub(super) fn strided(
    op: &'static str,
    shape: &[usize],
    strides: &[usize],
    offset: usize,
) -> Result<(Layout, Option<usize>)> {
    if shape.len() != strides.len() {
        return Err(Error::ShapeMismatch {
            op,
            left: shape.to_vec(),
            right: strides.to_vec(),
        });
    }
    if shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .is_none()
    {
        // a stride of 0 keeps such a view inside its storage; its count overflows
        return Err(Error::InvalidArgument {
            op,
            reason: format!("shape {shape:?} has more elements than fit in usize"),
        });
    }
    let mut end = Some(offset);
    if !shape.contains(&0) {
        for (&d, &s) in shape.iter().zip(strides) {
            end = end.and_then(|e| (d - 1).checked_mul(s)?.checked_add(e));
        }
        end = end.and_then(|e| e.checked_add(1));
    }
    let layout = Layout {
        shape: Dims::new(shape)?,
        strides: Dims::new(strides)?,
        offset,
    };
    Ok((layout, end))
}

//! Views that share the storage, without copying: `narrow`, `permute`,
//! `transpose`, `reshape`, `broadcast_to` and `view_dtype`.

use crate::dtype::{DType, Element};
use crate::error::{Error, Result};

use super::{Tensor, TensorT};

impl Tensor {
    /// A view of `len` elements of `axis` from `start`, sharing storage.
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[0i32, 1, 2, 3, 4, 5], [2, 3])?;
    /// let cols = t.narrow(1, 1, 2)?; // columns 1 and 2
    /// assert_eq!(cols.shape(), [2, 2]);
    /// assert_eq!(cols.to_vec::<i32>()?, [1, 2, 4, 5]);
    /// assert!(matches!(t.narrow(1, 2, 2), Err(Error::OutOfRange { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidAxis`], [`Error::OutOfRange`].
    pub fn narrow(&self, axis: usize, start: usize, len: usize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.narrow(axis, start, len)?))
    }

    /// A view with the dimensions reordered: dimension `i` of the result is
    /// dimension `perm[i]` of `self`.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Error, Tensor};
    /// let t = Tensor::zeros(&Device::host(), DType::U8, [2, 3, 4])?;
    /// let p = t.permute(&[2, 0, 1])?;
    /// assert_eq!(p.shape(), [4, 2, 3]);
    /// assert_eq!(p.strides(), [1, 12, 4]);
    /// assert!(matches!(t.permute(&[0, 0, 1]), Err(Error::InvalidPermutation { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidPermutation`] unless `perm` is a permutation of `0..ndim`.
    pub fn permute(&self, perm: &[usize]) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.permute(perm)?))
    }

    /// A view with dimensions `a` and `b` swapped.
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1u32, 2, 3, 4, 5, 6], [3, 2])?;
    /// let tt = t.transpose(0, 1)?;
    /// assert_eq!(tt.shape(), [2, 3]);
    /// assert_eq!(tt.to_vec::<u32>()?, [1, 3, 5, 2, 4, 6]);
    /// assert!(matches!(t.transpose(0, 2), Err(Error::InvalidAxis { axis: 2, ndim: 2 })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidAxis`].
    pub fn transpose(&self, a: usize, b: usize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.transpose(a, b)?))
    }

    /// A view with another shape of the same element count. Only contiguous
    /// tensors can be reshaped without a copy.
    ///
    /// The example also shows [`contiguous`](Self::contiguous):
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1i8, 2, 3, 4, 5, 6], [2, 3])?;
    /// assert_eq!(t.reshape([3, 2])?.shape(), [3, 2]);
    /// assert!(matches!(t.reshape([4]), Err(Error::ShapeMismatch { .. })));
    /// let tt = t.transpose(0, 1)?;
    /// assert!(matches!(tt.reshape([6]), Err(Error::NotContiguous { .. })));
    /// let flat = tt.contiguous()?.reshape([6])?;
    /// assert_eq!(flat.to_vec::<i8>()?, [1, 4, 2, 5, 3, 6]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for another element count, [`Error::NotContiguous`]
    /// for a strided view (call [`contiguous`](Self::contiguous) first).
    pub fn reshape(&self, shape: impl AsRef<[usize]>) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.reshape(shape.as_ref())?))
    }

    /// A read-only view broadcast to `shape` by NumPy's rules (repeated dimensions
    /// get stride 0; nothing is copied).
    ///
    /// ```
    /// # use silt_runtime::{Device, Error, Tensor};
    /// let col = Tensor::from_slice(&Device::host(), &[1.0f64, 2.0], [2, 1])?;
    /// let b = col.broadcast_to([2, 3])?;
    /// assert_eq!(b.strides()[1], 0);
    /// assert_eq!(b.to_vec::<f64>()?, [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    /// assert!(matches!(col.broadcast_to([3, 3]), Err(Error::Broadcast { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Broadcast`] when the shapes are incompatible.
    pub fn broadcast_to(&self, shape: impl AsRef<[usize]>) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.broadcast_to(shape.as_ref())?))
    }

    /// A view of the same bytes as elements of `dtype` (PyTorch's
    /// `view(dtype)`, NumPy's `view`): nothing is copied or converted.
    ///
    /// For a dtype of the same size the shape and strides stay. For another
    /// size the last dimension is the one that changes: it must have stride 1
    /// (or size 1), and `k` elements of 1 byte become one of `k` bytes or the
    /// other way round, so its length is multiplied or divided by the ratio of
    /// the sizes, and the other strides and the offset (in bytes) must be
    /// multiples of the new size.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1.0f32, -2.0], [2])?;
    /// let bits = t.view_dtype(DType::U32)?;
    /// assert_eq!(bits.to_vec::<u32>()?, [0x3f80_0000, 0xc000_0000]);
    /// let bytes = t.view_dtype(DType::U8)?;
    /// assert_eq!(bytes.shape(), [8]);
    /// assert!(matches!(bytes.narrow(0, 1, 4)?.view_dtype(DType::F32), Err(Error::InvalidArgument { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the sizes differ and the layout does
    /// not allow it (a 0-d tensor, a last dimension with another stride or a
    /// length the ratio does not divide, a stride or offset that is not a
    /// multiple, host memory not aligned to `dtype`), and when `dtype` is
    /// `bool` and the tensor's is not (its bytes need not be 0 or 1).
    pub fn view_dtype(&self, dtype: DType) -> Result<Tensor> {
        let bad = |reason: String| Error::InvalidArgument {
            op: "view_dtype",
            reason,
        };
        let from = self.dtype;
        if dtype == from {
            return Ok(self.clone());
        }
        if dtype == DType::Bool {
            return Err(bad(format!(
                "a {from} tensor's bytes need not be 0 or 1, so it has no bool view \
                 (compare with 0 instead)"
            )));
        }
        let (old, new) = (from.size(), dtype.size());
        let mut layout = self.layout.clone();
        // an empty view reads nothing: its strides and offset need not fit
        let empty = layout.shape.contains(&0);
        if old != new {
            let n = layout.shape.len();
            if n == 0 {
                return Err(bad(format!(
                    "a 0-d {from} tensor has no last dimension to view as {dtype}"
                )));
            }
            if !empty && layout.shape[n - 1] != 1 && layout.strides[n - 1] != 1 {
                return Err(bad(format!(
                    "the last dimension has stride {}; viewing {from} as {dtype} needs stride 1",
                    layout.strides[n - 1]
                )));
            }
            let shape: Vec<usize> = layout.shape.to_vec();
            let too_large = move || {
                bad(format!(
                    "the shape {shape:?} of {from} holds more than usize::MAX {dtype}s"
                ))
            };
            // in bytes, then in elements of the new size; where no element is
            // reached through it (a dimension of size 1, an empty view) a
            // stride or offset is rounded down, or 0 past usize
            let whole = |what: &str, count: usize, exact: bool| match count.checked_mul(old) {
                Some(bytes) if bytes.is_multiple_of(new) || !exact => Ok(bytes / new),
                Some(bytes) => Err(bad(format!(
                    "{what} is {bytes} bytes, not a multiple of {dtype}'s {new}"
                ))),
                None if !exact => Ok(0),
                None => Err(too_large()),
            };
            let last = whole("the last dimension", layout.shape[n - 1], true)?;
            layout.shape[n - 1] = last;
            layout.strides[n - 1] = 1;
            for d in 0..n - 1 {
                let reached = !empty && layout.shape[d] != 1;
                layout.strides[d] = whole(
                    &format!("the stride of dimension {d}"),
                    layout.strides[d],
                    reached,
                )?;
            }
            layout.offset = whole("the offset", layout.offset, !empty)?;
            // the new element count must fit usize, as every layout's does
            layout
                .shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .ok_or_else(too_large)?;
        }
        // memory from outside silt is aligned to its own element type only
        if !empty && !self.storage.align.is_multiple_of(new) {
            return Err(bad(format!(
                "the host memory is aligned to {} bytes, not to {dtype}'s {new}",
                self.storage.align
            )));
        }
        Ok(Tensor {
            storage: std::sync::Arc::clone(&self.storage),
            layout,
            dtype,
        })
    }
}

impl<T: Element> TensorT<T> {
    /// See [`Tensor::narrow`].
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let dev = Device::opencl(0).unwrap_or_else(|_| Device::host());
    /// let t = TensorT::<f32>::zeros(&dev, [3, 4])?;
    /// let mut mid = t.narrow(0, 1, 1)?; // row 1, sharing `t`'s storage
    /// mid.copy_from(&TensorT::full(&dev, 1.0, [4])?)?;
    /// assert_eq!(t.narrow(1, 0, 1)?.to_vec()?, [0.0, 1.0, 0.0]); // column 0
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidAxis`], [`Error::OutOfRange`].
    pub fn narrow(&self, axis: usize, start: usize, len: usize) -> Result<Self> {
        self.inner.narrow(axis, start, len).map(Self::wrap)
    }

    /// See [`Tensor::permute`].
    ///
    /// # Errors
    /// [`Error::InvalidPermutation`].
    pub fn permute(&self, perm: &[usize]) -> Result<Self> {
        self.inner.permute(perm).map(Self::wrap)
    }

    /// See [`Tensor::transpose`].
    ///
    /// # Errors
    /// [`Error::InvalidAxis`].
    pub fn transpose(&self, a: usize, b: usize) -> Result<Self> {
        self.inner.transpose(a, b).map(Self::wrap)
    }

    /// See [`Tensor::reshape`].
    ///
    /// The example also shows [`contiguous`](Self::contiguous) and
    /// [`transpose`](Self::transpose):
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1u16, 2, 3, 4, 5, 6], [2, 3])?;
    /// let m = t.reshape([3, 2])?; // the same storage, read as 3 x 2
    /// assert_eq!(m.to_vec()?, [1, 2, 3, 4, 5, 6]);
    /// let tt = m.transpose(0, 1)?; // [[1, 3, 5], [2, 4, 6]]
    /// assert!(tt.reshape([6]).is_err()); // a strided view: copy first
    /// assert_eq!(tt.contiguous()?.reshape([6])?.to_vec()?, [1, 3, 5, 2, 4, 6]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`], [`Error::NotContiguous`].
    pub fn reshape(&self, shape: impl AsRef<[usize]>) -> Result<Self> {
        self.inner.reshape(shape).map(Self::wrap)
    }

    /// See [`Tensor::broadcast_to`].
    ///
    /// # Errors
    /// [`Error::Broadcast`].
    pub fn broadcast_to(&self, shape: impl AsRef<[usize]>) -> Result<Self> {
        self.inner.broadcast_to(shape).map(Self::wrap)
    }

    /// [`Tensor::view_dtype`] as a typed tensor: the same bytes as elements
    /// of `U`.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1.0f32, -0.0], [2])?;
    /// assert_eq!(t.view_dtype::<u32>()?.to_vec()?, [0x3f80_0000, 0x8000_0000]);
    /// assert_eq!(t.view_dtype::<u8>()?.shape(), [8]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Tensor::view_dtype`].
    pub fn view_dtype<U: Element>(&self) -> Result<TensorT<U>> {
        self.inner.view_dtype(U::DTYPE)?.into_typed()
    }
}

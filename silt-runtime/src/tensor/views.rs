//! Views that share the storage, without copying: `narrow`, `permute`,
//! `transpose`, `reshape` and `broadcast_to`.

use crate::dtype::Element;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;

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
}

//! Tensors: [`Tensor`] (dtype-tagged) and [`TensorT`] (typed), both views over a
//! shared, reference-counted storage.
//!
//! This file holds the two types and what they are (shape, strides, device,
//! dtype); the operations are grouped by what they do: `create` (new tensors),
//! `views` (views without copying), `copy` (reads, writes and copies of
//! elements), `host` (host storage in place) and `ndarray` (conversions, with
//! the `ndarray` feature).

mod copy;
mod create;
mod foreign;
mod host;
mod index;
#[cfg(feature = "ndarray")]
mod ndarray;
mod views;

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::storage::Storage;

/// A tensor whose element type is a runtime tag: what dtype-dispatching code passes
/// around. Convert to and from [`TensorT`] with `From` and [`Tensor::typed`].
///
/// Cheap to clone: clones and views share one storage.
#[derive(Clone)]
pub struct Tensor {
    pub(crate) storage: Arc<Storage>,
    pub(crate) layout: Layout,
    dtype: DType,
}

/// A tensor of element type `T`: shape, strides and offset over a shared storage.
///
/// Cheap to clone: clones and views (`narrow`, `permute`, ...) share one storage, so
/// a write through one is seen by all, as in PyTorch. [`deep_copy`](Self::deep_copy)
/// makes an independent tensor.
pub struct TensorT<T: Element> {
    inner: Tensor,
    _t: PhantomData<fn() -> T>,
}

impl Tensor {
    pub(crate) fn new(storage: Storage, shape: &[usize], dtype: DType) -> Result<Tensor> {
        Ok(Tensor {
            storage: Arc::new(storage),
            layout: Layout::contiguous(shape)?,
            dtype,
        })
    }

    pub(crate) fn with_layout(&self, layout: Layout) -> Tensor {
        Tensor {
            storage: Arc::clone(&self.storage),
            layout,
            dtype: self.dtype,
        }
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The size of each dimension.
    ///
    /// The example also shows [`dtype`](Self::dtype), [`ndim`](Self::ndim),
    /// [`len`](Self::len), [`is_empty`](Self::is_empty) and [`device`](Self::device):
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Tensor};
    /// let dev = Device::host();
    /// let t = Tensor::zeros(&dev, DType::F32, [2, 3, 4])?;
    /// assert_eq!(t.dtype(), DType::F32);
    /// assert_eq!(t.shape(), [2, 3, 4]);
    /// assert_eq!((t.ndim(), t.len(), t.is_empty()), (3, 24, false));
    /// assert_eq!(t.device(), &dev);
    /// assert!(Tensor::zeros(&dev, DType::F32, [2, 0])?.is_empty());
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    #[inline]
    pub fn shape(&self) -> &[usize] {
        &self.layout.shape
    }

    /// The step, in elements, between neighbours along each dimension (0 for a
    /// broadcast dimension).
    ///
    /// The example also shows [`offset`](Self::offset) and
    /// [`is_contiguous`](Self::is_contiguous):
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Tensor};
    /// let t = Tensor::zeros(&Device::host(), DType::I32, [3, 4])?;
    /// assert_eq!(t.strides(), [4, 1]);
    /// let v = t.narrow(0, 1, 2)?.narrow(1, 1, 2)?; // rows 1..3, columns 1..3
    /// assert_eq!(v.strides(), [4, 1]);
    /// assert_eq!(v.offset(), 5); // starts at row 1, column 1
    /// assert!(t.is_contiguous() && !v.is_contiguous());
    /// let b = t.narrow(0, 0, 1)?.broadcast_to([5, 4])?;
    /// assert_eq!(b.strides(), [0, 1]); // the one row, repeated
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    #[inline]
    pub fn strides(&self) -> &[usize] {
        &self.layout.strides
    }

    /// Where the view starts in its storage, in elements.
    #[inline]
    pub fn offset(&self) -> usize {
        self.layout.offset
    }

    /// The number of dimensions.
    #[inline]
    pub fn ndim(&self) -> usize {
        self.layout.shape.len()
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.layout.len()
    }

    /// Whether the tensor has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The device the tensor lives on.
    #[inline]
    pub fn device(&self) -> &Device {
        &self.storage.device
    }

    /// Whether the elements are stored row-major with no gaps.
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// An identity of the storage (its address), for aliasing checks.
    #[inline]
    pub(crate) fn storage_id(&self) -> usize {
        Arc::as_ptr(&self.storage) as usize
    }

    /// Whether two tensors are views of one storage.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Tensor};
    /// let t = Tensor::zeros(&Device::host(), DType::U8, [4])?;
    /// assert!(t.narrow(0, 1, 2)?.shares_storage(&t));
    /// assert!(!t.deep_copy()?.shares_storage(&t));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    #[inline]
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// Whether writing through this view would write some element twice (a
    /// broadcast view, for example).
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Tensor};
    /// let row = Tensor::zeros(&Device::host(), DType::F32, [3])?;
    /// assert!(!row.has_self_overlap());
    /// assert!(row.broadcast_to([2, 3])?.has_self_overlap()); // each element twice
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    pub fn has_self_overlap(&self) -> bool {
        self.layout.has_self_overlap()
    }

    /// This tensor as a `TensorT<T>`, sharing storage.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Error, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1.5f32, 2.5], [2])?;
    /// let f = t.typed::<f32>()?; // shares storage with `t`
    /// assert_eq!(f.to_vec()?, [1.5, 2.5]);
    /// assert!(matches!(
    ///     t.typed::<i32>(),
    ///     Err(Error::DTypeMismatch { expected: DType::I32, got: DType::F32 })
    /// ));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype.
    pub fn typed<T: Element>(&self) -> Result<TensorT<T>> {
        self.clone().into_typed()
    }

    /// Like [`typed`](Self::typed), consuming `self`.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor, TensorT};
    /// let typed = TensorT::from_slice(&Device::host(), &[1u8, 2], [2])?;
    /// let untyped: Tensor = typed.into(); // `From<TensorT<T>>`
    /// let back: TensorT<u8> = untyped.into_typed()?; // or `TensorT::try_from(untyped)`
    /// assert_eq!(back.to_vec()?, [1, 2]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype.
    pub fn into_typed<T: Element>(self) -> Result<TensorT<T>> {
        if self.dtype == T::DTYPE {
            Ok(TensorT {
                inner: self,
                _t: PhantomData,
            })
        } else {
            Err(Error::DTypeMismatch {
                expected: T::DTYPE,
                got: self.dtype,
            })
        }
    }
}

impl<T: Element> TensorT<T> {
    fn wrap(inner: Tensor) -> Self {
        TensorT {
            inner,
            _t: PhantomData,
        }
    }

    /// The untyped view of this tensor.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1u8, 2], [2])?;
    /// let u = t.as_tensor();
    /// assert_eq!(u.dtype(), DType::U8);
    /// assert_eq!(u.to_vec::<u8>()?, [1, 2]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    #[inline]
    pub fn as_tensor(&self) -> &Tensor {
        &self.inner
    }

    /// The element type (`T::DTYPE`).
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }

    /// The size of each dimension.
    ///
    /// The example also shows [`dtype`](Self::dtype), [`strides`](Self::strides),
    /// [`offset`](Self::offset), [`ndim`](Self::ndim), [`len`](Self::len),
    /// [`is_empty`](Self::is_empty), [`device`](Self::device) and
    /// [`is_contiguous`](Self::is_contiguous):
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, TensorT};
    /// let dev = Device::host();
    /// let t = TensorT::<f32>::zeros(&dev, [4, 5])?;
    /// let v = t.narrow(1, 1, 3)?; // columns 1..4
    /// assert_eq!(v.dtype(), DType::F32);
    /// assert_eq!(v.shape(), [4, 3]);
    /// assert_eq!(v.strides(), [5, 1]);
    /// assert_eq!(v.offset(), 1);
    /// assert_eq!((v.ndim(), v.len(), v.is_empty()), (2, 12, false));
    /// assert_eq!(v.device(), &dev);
    /// assert!(t.is_contiguous() && !v.is_contiguous());
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    #[inline]
    pub fn shape(&self) -> &[usize] {
        self.inner.shape()
    }

    /// The step, in elements, between neighbours along each dimension.
    #[inline]
    pub fn strides(&self) -> &[usize] {
        self.inner.strides()
    }

    /// Where the view starts in its storage, in elements.
    #[inline]
    pub fn offset(&self) -> usize {
        self.inner.offset()
    }

    /// The number of dimensions.
    #[inline]
    pub fn ndim(&self) -> usize {
        self.inner.ndim()
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the tensor has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The device the tensor lives on.
    #[inline]
    pub fn device(&self) -> &Device {
        self.inner.device()
    }

    /// Whether the elements are stored row-major with no gaps.
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        self.inner.is_contiguous()
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("dtype", &self.dtype)
            .field("shape", &self.layout.shape)
            .field("strides", &self.layout.strides)
            .field("offset", &self.layout.offset)
            .field("device", &format_args!("{}", self.device()))
            .finish()
    }
}

impl<T: Element> From<TensorT<T>> for Tensor {
    fn from(t: TensorT<T>) -> Tensor {
        t.inner
    }
}

impl<T: Element> TryFrom<Tensor> for TensorT<T> {
    type Error = Error;

    fn try_from(t: Tensor) -> Result<Self> {
        t.into_typed()
    }
}

impl<T: Element> Clone for TensorT<T> {
    fn clone(&self) -> Self {
        TensorT {
            inner: self.inner.clone(),
            _t: PhantomData,
        }
    }
}

impl<T: Element> fmt::Debug for TensorT<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorT")
            .field("dtype", &T::DTYPE)
            .field("shape", &self.inner.layout.shape)
            .field("strides", &self.inner.layout.strides)
            .field("offset", &self.inner.layout.offset)
            .field("device", &format_args!("{}", self.device()))
            .finish()
    }
}

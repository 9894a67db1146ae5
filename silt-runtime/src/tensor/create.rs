//! New tensors: zero-filled, filled with a value, from a slice, uninitialised.

use std::sync::Arc;

use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::layout::{byte_len, check_dims, numel, Dims, Layout};
use crate::storage::Storage;

use super::{Tensor, TensorT};

impl Tensor {
    /// A zero-filled tensor (`false`, `0`, `0.0`).
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Tensor};
    /// let t = Tensor::zeros(&Device::host(), DType::Bool, [2, 2])?;
    /// assert_eq!(t.dtype(), DType::Bool);
    /// assert_eq!(t.to_vec::<bool>()?, [false; 4]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::SizeOverflow`], [`Error::AllocationTooLarge`], [`Error::OutOfMemory`].
    pub fn zeros(device: &Device, dtype: DType, shape: impl AsRef<[usize]>) -> Result<Tensor> {
        let shape = shape.as_ref();
        check_dims(shape.len())?;
        let nbytes = byte_len(shape, dtype.size())?;
        let zero = [0u8; 8];
        Tensor::new(
            Storage::filled(device, nbytes, &zero[..dtype.size()])?,
            shape,
            dtype,
        )
    }

    /// A tensor holding a copy of `data` in the given shape.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Error, Tensor};
    /// let dev = Device::host();
    /// let t = Tensor::from_slice(&dev, &[1u16, 2, 3], [3])?;
    /// assert_eq!(t.dtype(), DType::U16); // from the element type
    /// assert_eq!(t.to_vec::<u16>()?, [1, 2, 3]);
    /// let short = Tensor::from_slice(&dev, &[1u16, 2, 3], [2, 2]);
    /// assert!(matches!(short, Err(Error::DataLength { expected: 4, len: 3, .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DataLength`] when `data` does not fill `shape`; allocation errors.
    pub fn from_slice<T: Element>(
        device: &Device,
        data: &[T],
        shape: impl AsRef<[usize]>,
    ) -> Result<Tensor> {
        TensorT::from_slice(device, data, shape).map(Tensor::from)
    }

    /// A tensor of `shape` whose storage is not initialised (on the host it is
    /// zeroed). For outputs that a kernel overwrites entirely.
    pub(crate) fn uninit(device: &Device, dtype: DType, shape: &[usize]) -> Result<Tensor> {
        check_dims(shape.len())?;
        let nbytes = byte_len(shape, dtype.size())?;
        Tensor::new(Storage::uninit(device, nbytes)?, shape, dtype)
    }

    /// As [`uninit`](Self::uninit), but on the host too the storage may hold
    /// a freed buffer's stale bytes (no zeroing): for scratch and outputs
    /// that the caller writes whole on every path before reading them.
    pub(crate) fn for_overwrite(device: &Device, dtype: DType, shape: &[usize]) -> Result<Tensor> {
        check_dims(shape.len())?;
        let nbytes = byte_len(shape, dtype.size())?;
        Tensor::new(Storage::for_overwrite(device, nbytes)?, shape, dtype)
    }
}

impl<T: Element> TensorT<T> {
    /// A contiguous tensor of `shape` over `storage` (of the shape's size,
    /// checked by the caller), built in place: nothing to fail. Always
    /// inlined, so that the tensor is built where the caller returns it (a
    /// 280-byte move otherwise).
    #[inline(always)]
    pub(crate) fn over_storage(storage: Storage, shape: &Dims) -> Self {
        Self::wrap(Tensor {
            storage: Arc::new(storage),
            layout: Layout::contiguous_dims(shape),
            dtype: T::DTYPE,
        })
    }

    /// A tensor holding a copy of `data` in the given shape.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1, 2, 3, 4, 5, 6], [2, 3])?;
    /// assert_eq!(t.shape(), [2, 3]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DataLength`] when `data` does not fill `shape`; allocation errors.
    pub fn from_slice(device: &Device, data: &[T], shape: impl AsRef<[usize]>) -> Result<Self> {
        let shape = shape.as_ref();
        check_dims(shape.len())?;
        byte_len(shape, T::SIZE)?;
        // fits: `byte_len` counted it (0 where any size is 0)
        let expected = numel(shape).unwrap_or(0);
        if data.len() != expected {
            return Err(Error::DataLength {
                shape: shape.to_vec(),
                expected,
                len: data.len(),
            });
        }
        let storage = Storage::from_bytes(device, bytemuck::cast_slice(data))?;
        Tensor::new(storage, shape, T::DTYPE).map(Self::wrap)
    }

    /// A zero-filled tensor.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::<i16>::zeros(&Device::host(), [3])?;
    /// assert_eq!(t.to_vec()?, [0, 0, 0]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::SizeOverflow`], [`Error::AllocationTooLarge`], [`Error::OutOfMemory`].
    pub fn zeros(device: &Device, shape: impl AsRef<[usize]>) -> Result<Self> {
        Tensor::zeros(device, T::DTYPE, shape).map(Self::wrap)
    }

    /// A tensor with every element `value` (filled on the device, no upload).
    ///
    /// ```
    /// # use silt_runtime::{f16, Device, TensorT};
    /// let dev = Device::opencl(0).unwrap_or_else(|_| Device::host());
    /// let t = TensorT::full(&dev, 2.5f32, [2, 2])?;
    /// assert_eq!(t.to_vec()?, [2.5; 4]);
    /// let h = TensorT::full(&dev, f16::from_f32(0.5), [3])?;
    /// assert_eq!(h.to_vec()?, [f16::from_f32(0.5); 3]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::SizeOverflow`], [`Error::AllocationTooLarge`], [`Error::OutOfMemory`].
    pub fn full(device: &Device, value: T, shape: impl AsRef<[usize]>) -> Result<Self> {
        let shape = shape.as_ref();
        check_dims(shape.len())?;
        let nbytes = byte_len(shape, T::SIZE)?;
        let pattern = [value];
        let storage = Storage::filled(device, nbytes, bytemuck::cast_slice(&pattern))?;
        Tensor::new(storage, shape, T::DTYPE).map(Self::wrap)
    }
}

//! Host tensors in place: the storage's bytes or elements handed to a closure,
//! with no copy.

use std::ops::Range;

use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::storage::{read_lock, write_lock, HostLock};

use super::{Tensor, TensorT};

impl Tensor {
    /// Calls `f` with the bytes of this host tensor where they are stored (no
    /// copy; a contiguous view at any offset): untyped access for any dtype, to
    /// be cast with `bytemuck` to the element type the caller knows.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1.5f32, -2.0], [2])?;
    /// let first = t.with_host_bytes(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]))?;
    /// assert_eq!(first, 1.5);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NotOnHost`] for a tensor of an OpenCL device,
    /// [`Error::NotContiguous`] for a view with gaps or repeated elements.
    pub fn with_host_bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let (lock, range) = self.host_bytes("with_host_bytes")?;
        let bytes = read_lock(lock)?;
        let view = bytes
            .as_bytes()
            .get(range)
            .ok_or_else(|| Error::internal("a host view past the end of its storage"))?;
        Ok(f(view))
    }

    /// Calls `f` with mutable access to the bytes of this host tensor where they
    /// are stored (see [`with_host_bytes`](Self::with_host_bytes)). A `bool`
    /// byte other than 0 or 1 reads back as `true`.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let mut t = Tensor::zeros(&Device::host(), silt_runtime::DType::U16, [2])?;
    /// t.with_host_bytes_mut(|b| b[2..].copy_from_slice(&7u16.to_ne_bytes()))?;
    /// assert_eq!(t.to_vec::<u16>()?, [0, 7]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`with_host_bytes`](Self::with_host_bytes).
    pub fn with_host_bytes_mut<R>(&mut self, f: impl FnOnce(&mut [u8]) -> R) -> Result<R> {
        let (lock, range) = self.host_bytes("with_host_bytes_mut")?;
        let mut bytes = write_lock(lock)?;
        let view = bytes
            .as_bytes_mut()
            .get_mut(range)
            .ok_or_else(|| Error::internal("a host view past the end of its storage"))?;
        Ok(f(view))
    }

    /// The lock over this contiguous host tensor's storage, and the bytes of it
    /// the view covers.
    fn host_bytes(&self, op: &'static str) -> Result<(&HostLock, Range<usize>)> {
        let lock = self.storage.host().ok_or_else(|| Error::NotOnHost {
            op,
            device: self.device().to_string(),
        })?;
        if !self.is_contiguous() {
            return Err(Error::NotContiguous {
                op,
                shape: self.shape().to_vec(),
                strides: self.strides().to_vec(),
            });
        }
        let size = self.dtype.size();
        let start = self.offset() * size;
        Ok((lock, start..start + self.len() * size))
    }
}

impl<T: Element> TensorT<T> {
    /// Calls `f` with the elements of this host tensor where they are stored: no
    /// copy in either direction (a contiguous view at any offset).
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1.0f32, 2.0, 3.0, 4.0], [4])?;
    /// let tail = t.narrow(0, 2, 2)?;
    /// assert_eq!(tail.with_host_slice(|s| s.iter().sum::<f32>())?, 7.0);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NotOnHost`] for a tensor on an OpenCL device (read it with
    /// [`to_vec`](Self::to_vec)), [`Error::NotContiguous`] for a view with gaps or
    /// repeated elements, [`Error::InvalidArgument`] for `bool`s stored as bytes
    /// other than 0 and 1 (written through a view of another dtype).
    pub fn with_host_slice<R>(&self, f: impl FnOnce(&[T]) -> R) -> Result<R> {
        let (lock, range) = self.inner.host_bytes("with_host_slice")?;
        let bytes = read_lock(lock)?;
        let raw = bytes
            .as_bytes()
            .get(range)
            .ok_or_else(|| Error::internal("a host view past the end of its storage"))?;
        // bool bytes other than 0 and 1 (written through a view of another
        // dtype) are no `bool`s; `to_vec` reads them as `!= 0`
        let elems = T::from_bytes(raw).ok_or_else(|| Error::InvalidArgument {
            op: "with_host_slice",
            reason: format!(
                "the bytes are not {} values in place (a bool other than 0 or 1?); read them with to_vec",
                T::DTYPE
            ),
        })?;
        Ok(f(elems))
    }

    /// Calls `f` with mutable access to the elements of this host tensor where
    /// they are stored (see [`with_host_slice`](Self::with_host_slice)): a way to
    /// fill a tensor without an intermediate buffer. Other views of the storage
    /// see the writes.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let mut t = TensorT::<u32>::zeros(&Device::host(), [3])?;
    /// t.with_host_slice_mut(|s| s.copy_from_slice(&[7, 8, 9]))?;
    /// assert_eq!(t.to_vec()?, [7, 8, 9]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`with_host_slice`](Self::with_host_slice).
    pub fn with_host_slice_mut<R>(&mut self, f: impl FnOnce(&mut [T]) -> R) -> Result<R> {
        let (lock, range) = self.inner.host_bytes("with_host_slice_mut")?;
        let mut bytes = write_lock(lock)?;
        let elems = bytes
            .as_bytes_mut()
            .get_mut(range)
            .and_then(T::from_bytes_mut)
            .ok_or_else(|| Error::internal("a host view past the end of its storage"))?;
        Ok(f(elems))
    }
}

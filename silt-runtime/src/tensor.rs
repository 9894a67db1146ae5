//! Tensors: [`Tensor`] (dtype-tagged) and [`TensorT`] (typed), both views over a
//! shared, reference-counted storage.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::cl::codes::INVALID_MEM;
use crate::copy;
use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::layout::check_dims;
use crate::layout::{byte_len, Layout};
use crate::storage::{host_oom, read_lock, write_lock, Data, Storage};

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

fn try_bytes(len: usize) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| host_oom(len))?;
    v.resize(len, 0);
    Ok(v)
}

/// Copies the elements of `layout` out of `src` in logical order.
fn gather(src: &[u8], layout: &Layout, es: usize, out: &mut [u8]) {
    for (dst, off) in out.chunks_exact_mut(es).zip(layout.offsets()) {
        dst.copy_from_slice(&src[off * es..off * es + es]);
    }
}

impl Tensor {
    fn new(storage: Storage, shape: &[usize], dtype: DType) -> Result<Tensor> {
        Ok(Tensor {
            storage: Arc::new(storage),
            layout: Layout::contiguous(shape)?,
            dtype,
        })
    }

    fn with_layout(&self, layout: Layout) -> Tensor {
        Tensor {
            storage: Arc::clone(&self.storage),
            layout,
            dtype: self.dtype,
        }
    }

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
    #[doc(hidden)]
    pub fn __uninit(device: &Device, dtype: DType, shape: &[usize]) -> Result<Tensor> {
        check_dims(shape.len())?;
        let nbytes = byte_len(shape, dtype.size())?;
        Tensor::new(Storage::uninit(device, nbytes)?, shape, dtype)
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
    pub fn strides(&self) -> &[usize] {
        &self.layout.strides
    }

    /// Where the view starts in its storage, in elements.
    pub fn offset(&self) -> usize {
        self.layout.offset
    }

    /// The number of dimensions.
    pub fn ndim(&self) -> usize {
        self.layout.shape.len()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.layout.len()
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The device the tensor lives on.
    pub fn device(&self) -> &Device {
        &self.storage.device
    }

    /// Whether the elements are stored row-major with no gaps.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// An identity of the storage (its address), for aliasing checks.
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

    /// The elements in logical (row-major) order.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1i64, 2, 3, 4], [2, 2])?;
    /// assert_eq!(t.transpose(0, 1)?.to_vec::<i64>()?, [1, 3, 2, 4]);
    /// assert!(t.to_vec::<u64>().is_err()); // not its dtype
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the dtype; transfer errors.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.typed::<T>()?.to_vec()
    }

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
        let bytes = read_lock(lock);
        let view = bytes
            .as_bytes()
            .get(range)
            .ok_or_else(|| Error::cl("with_host_bytes", INVALID_MEM))?;
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
        let mut bytes = write_lock(lock);
        let view = bytes
            .as_bytes_mut()
            .get_mut(range)
            .ok_or_else(|| Error::cl("with_host_bytes_mut", INVALID_MEM))?;
        Ok(f(view))
    }

    /// The lock over this contiguous host tensor's storage, and the bytes of it
    /// the view covers.
    fn host_bytes(
        &self,
        op: &'static str,
    ) -> Result<(
        &std::sync::RwLock<crate::storage::HostBytes>,
        std::ops::Range<usize>,
    )> {
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

    /// The elements' bytes in logical order, as stored (a `bool` is one byte).
    /// Waits for queued work that writes them.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let dev = Device::host();
    /// let b = Tensor::from_slice(&dev, &[true, false, true], [3])?;
    /// assert_eq!(b.to_bytes()?, [1, 0, 1]);
    /// let w = Tensor::from_slice(&dev, &[0x0102u16, 0x0304], [2])?;
    /// assert_eq!(w.narrow(0, 1, 1)?.to_bytes()?, 0x0304u16.to_ne_bytes());
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// Transfer errors; [`Error::SizeOverflow`] for a broadcast view too large to
    /// materialise.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let es = self.dtype.size();
        let mut out = try_bytes(byte_len(&self.layout.shape, es)?)?;
        if self.is_empty() {
            return Ok(out);
        }
        if let Some(lock) = self.storage.host() {
            let src = read_lock(lock);
            gather(src.as_bytes(), &self.layout, es, &mut out);
        } else if self.is_contiguous() {
            self.storage.read_range(self.layout.offset * es, &mut out)?;
        } else {
            // gathered on the device, then read in one transfer
            let packed = self.deep_copy()?;
            packed.storage.read_range(0, &mut out)?;
        }
        Ok(out)
    }

    /// Copies `src` into the elements of this view, in logical order. `src` may
    /// live on any device and is broadcast to this view's shape (NumPy's rules).
    /// Other views of the same storage see the new values.
    ///
    /// ```
    /// # use silt_runtime::{DType, Device, Error, Tensor};
    /// let dev = Device::host();
    /// let mut m = Tensor::zeros(&dev, DType::F32, [2, 2])?;
    /// m.copy_from(&Tensor::from_slice(&dev, &[1.0f32, 2.0], [2])?)?; // to each row
    /// assert_eq!(m.to_vec::<f32>()?, [1.0, 2.0, 1.0, 2.0]);
    /// let mut rows = m.narrow(0, 0, 1)?.broadcast_to([2, 2])?; // row 0, twice
    /// assert!(matches!(rows.copy_from(&m), Err(Error::SelfOverlap { .. })));
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`], [`Error::Broadcast`], [`Error::SelfOverlap`] when
    /// this view covers an element twice (a broadcast view); transfer errors.
    pub fn copy_from(&mut self, src: &Tensor) -> Result<()> {
        if src.dtype != self.dtype {
            return Err(Error::DTypeMismatch {
                expected: self.dtype,
                got: src.dtype,
            });
        }
        let src = src.broadcast_to(self.shape())?;
        if self.has_self_overlap() {
            return Err(Error::SelfOverlap {
                shape: self.layout.shape.to_vec(),
                strides: self.layout.strides.to_vec(),
            });
        }
        if self.is_empty() {
            return Ok(());
        }
        let es = self.dtype.size();
        match (&self.storage.data, self.device().queue()) {
            (Data::Host(lock), _) => {
                // `to_bytes` reads all of `src` before anything is written, so a
                // source overlapping this view is copied correctly.
                let bytes = src.to_bytes()?;
                let mut dst = write_lock(lock);
                let dst = dst.as_bytes_mut();
                for (src, off) in bytes.chunks_exact(es).zip(self.layout.offsets()) {
                    dst[off * es..off * es + es].copy_from_slice(src);
                }
                Ok(())
            }
            (Data::OpenCl(Some(to)), Some(queue)) => {
                let src = if src.device() != self.device() {
                    src.to(self.device())?
                } else if src.shares_storage(self) {
                    if src.layout == self.layout {
                        return Ok(()); // the very same elements
                    }
                    src.deep_copy()? // may overlap: copy through a temporary
                } else {
                    src
                };
                let Some(from) = src.storage.block() else {
                    return Err(Error::cl("copy_from", INVALID_MEM));
                };
                copy::strided_copy(
                    self.device(),
                    queue,
                    (&from.mem, &src.layout),
                    (&to.mem, &self.layout),
                    es,
                )
            }
            (Data::OpenCl(_), _) => Err(Error::cl("copy_from", INVALID_MEM)),
        }
    }

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

    /// `self` if already contiguous, else a contiguous copy on the same device.
    ///
    /// # Errors
    /// Allocation and transfer errors.
    pub fn contiguous(&self) -> Result<Tensor> {
        if self.is_contiguous() {
            Ok(self.clone())
        } else {
            self.deep_copy()
        }
    }

    /// An independent contiguous copy on the same device. Device bytes are copied
    /// on the device (`clEnqueueCopyBuffer`) when the view is contiguous.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let dev = Device::host();
    /// let mut t = Tensor::from_slice(&dev, &[1i32, 2], [2])?;
    /// let copy = t.deep_copy()?;
    /// t.copy_from(&Tensor::from_slice(&dev, &[9i32], [1])?)?;
    /// assert_eq!(t.to_vec::<i32>()?, [9, 9]);
    /// assert_eq!(copy.to_vec::<i32>()?, [1, 2]); // unchanged: its own storage
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// Allocation and transfer errors.
    pub fn deep_copy(&self) -> Result<Tensor> {
        let es = self.dtype.size();
        let nbytes = byte_len(&self.layout.shape, es)?;
        let device = self.device();
        match (&self.storage.data, device.queue()) {
            (Data::OpenCl(Some(src)), Some(queue)) => {
                let out = Tensor::new(
                    Storage::uninit(device, nbytes)?,
                    &self.layout.shape,
                    self.dtype,
                )?;
                if let Some(dst) = out.storage.block() {
                    copy::strided_copy(
                        device,
                        queue,
                        (&src.mem, &self.layout),
                        (&dst.mem, &out.layout),
                        es,
                    )?;
                }
                Ok(out)
            }
            _ => {
                let bytes = self.to_bytes()?;
                Tensor::new(
                    Storage::from_bytes(device, &bytes)?,
                    &self.layout.shape,
                    self.dtype,
                )
            }
        }
    }

    /// The tensor on `device`: `self` (shared) when it is already there, else a
    /// contiguous copy.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let host = Device::host();
    /// let t = Tensor::from_slice(&host, &[1.0f32, 2.0, 3.0], [3])?;
    /// assert!(t.to(&host)?.shares_storage(&t)); // already there: no copy
    /// if let Ok(dev) = Device::opencl(0) {
    ///     let d = t.to(&dev)?;
    ///     assert_eq!(d.device(), &dev);
    ///     assert_eq!(d.to(&host)?.to_vec::<f32>()?, [1.0, 2.0, 3.0]);
    /// }
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// Allocation and transfer errors.
    pub fn to(&self, device: &Device) -> Result<Tensor> {
        if self.device() == device {
            return Ok(self.clone());
        }
        let bytes = self.to_bytes()?;
        Tensor::new(
            Storage::from_bytes(device, &bytes)?,
            &self.layout.shape,
            self.dtype,
        )
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

impl<T: Element> TensorT<T> {
    fn wrap(inner: Tensor) -> Self {
        TensorT {
            inner,
            _t: PhantomData,
        }
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
        let expected = shape.iter().product();
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
    pub fn shape(&self) -> &[usize] {
        self.inner.shape()
    }

    /// The step, in elements, between neighbours along each dimension.
    pub fn strides(&self) -> &[usize] {
        self.inner.strides()
    }

    /// Where the view starts in its storage, in elements.
    pub fn offset(&self) -> usize {
        self.inner.offset()
    }

    /// The number of dimensions.
    pub fn ndim(&self) -> usize {
        self.inner.ndim()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The device the tensor lives on.
    pub fn device(&self) -> &Device {
        self.inner.device()
    }

    /// Whether the elements are stored row-major with no gaps.
    pub fn is_contiguous(&self) -> bool {
        self.inner.is_contiguous()
    }

    /// The elements in logical (row-major) order, also for strided views. Waits
    /// for the queued work that writes them.
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let t = TensorT::from_slice(&Device::host(), &[1, 2, 3, 4, 5, 6], [2, 3])?;
    /// assert_eq!(t.narrow(1, 2, 1)?.to_vec()?, [3, 6]); // a strided view
    /// if let Ok(dev) = Device::opencl(0) {
    ///     let d = t.to(&dev)?.transpose(0, 1)?;
    ///     assert_eq!(d.to_vec()?, [1, 4, 2, 5, 3, 6]); // gathered on the device
    /// }
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// Transfer errors; [`Error::SizeOverflow`] for a broadcast too large to hold.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        if self.is_empty() {
            return Ok(Vec::new());
        }
        if let (Some(lock), true) = (self.inner.storage.host(), self.is_contiguous()) {
            let bytes = read_lock(lock);
            let es = T::SIZE;
            let start = self.offset() * es;
            return Ok(T::vec_from_bytes(
                &bytes.as_bytes()[start..start + self.len() * es],
            ));
        }
        Ok(T::vec_from_bytes(&self.inner.to_bytes()?))
    }

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
    /// repeated elements.
    pub fn with_host_slice<R>(&self, f: impl FnOnce(&[T]) -> R) -> Result<R> {
        let (lock, range) = self.inner.host_bytes("with_host_slice")?;
        let bytes = read_lock(lock);
        let elems = bytes
            .as_bytes()
            .get(range)
            .and_then(T::from_bytes)
            .ok_or_else(|| Error::cl("with_host_slice", INVALID_MEM))?;
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
        let mut bytes = write_lock(lock);
        let elems = bytes
            .as_bytes_mut()
            .get_mut(range)
            .and_then(T::from_bytes_mut)
            .ok_or_else(|| Error::cl("with_host_slice_mut", INVALID_MEM))?;
        Ok(f(elems))
    }

    /// Copies `src` into this view (see [`Tensor::copy_from`]).
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let dev = Device::host();
    /// let mut y = TensorT::<i32>::zeros(&dev, [2, 3])?;
    /// let mut col = y.narrow(1, 1, 1)?; // a strided view sharing y's storage
    /// col.copy_from(&TensorT::from_slice(&dev, &[7], [1])?)?; // broadcast
    /// assert_eq!(y.to_vec()?, [0, 7, 0, 0, 7, 0]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Broadcast`], [`Error::SelfOverlap`], transfer errors.
    pub fn copy_from(&mut self, src: &TensorT<T>) -> Result<()> {
        self.inner.copy_from(&src.inner)
    }

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

    /// See [`Tensor::contiguous`].
    ///
    /// # Errors
    /// Allocation and transfer errors.
    pub fn contiguous(&self) -> Result<Self> {
        self.inner.contiguous().map(Self::wrap)
    }

    /// See [`Tensor::deep_copy`].
    ///
    /// # Errors
    /// Allocation and transfer errors.
    pub fn deep_copy(&self) -> Result<Self> {
        self.inner.deep_copy().map(Self::wrap)
    }

    /// See [`Tensor::to`].
    ///
    /// The example also shows [`deep_copy`](Self::deep_copy):
    ///
    /// ```
    /// # use silt_runtime::{Device, TensorT};
    /// let host = TensorT::from_slice(&Device::host(), &[1i32, 2, 3], [3])?;
    /// let dev = Device::opencl(0).unwrap_or_else(|_| Device::host());
    /// let on_dev = host.to(&dev)?; // a copy, unless `dev` is the host
    /// assert_eq!(on_dev.device(), &dev);
    /// let copy = on_dev.deep_copy()?; // on the same device, independent
    /// assert!(!copy.as_tensor().shares_storage(on_dev.as_tensor()));
    /// assert_eq!(copy.to(&Device::host())?.to_vec()?, [1, 2, 3]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// Allocation and transfer errors.
    pub fn to(&self, device: &Device) -> Result<Self> {
        self.inner.to(device).map(Self::wrap)
    }
}

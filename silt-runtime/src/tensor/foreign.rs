//! Host tensors over memory owned outside silt, and the address of a host
//! tensor's elements for code outside silt: the two halves of sharing host
//! memory with another library (NumPy) without a copy.

use std::sync::Arc;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::foreign::ForeignMemory;
use crate::storage::{write_lock, Storage};

use super::index::strided;
use super::Tensor;

impl Tensor {
    /// A host tensor that uses `memory` in place: elements of `dtype` at
    /// `offset + Σ index[i] * strides[i]` (in elements) from its start. The
    /// tensor and its views keep `memory` alive; writes through either side are
    /// seen by the other.
    ///
    /// ```
    /// # use silt_runtime::{DType, ForeignMemory, Tensor};
    /// struct Words(Box<[u32]>, *mut u8);
    /// // SAFETY: the box is never moved or reallocated while `Words` lives, and
    /// // nothing else touches it.
    /// unsafe impl ForeignMemory for Words {
    ///     fn as_ptr(&self) -> *mut u8 { self.1 }
    ///     fn len(&self) -> usize { self.0.len() * 4 }
    /// }
    /// unsafe impl Send for Words {}
    /// unsafe impl Sync for Words {}
    ///
    /// let mut b: Box<[u32]> = vec![1, 2, 3, 4, 5, 6].into();
    /// let p = b.as_mut_ptr().cast::<u8>();
    /// // the columns of a 2x3 row-major array: shape [3, 2], strides [1, 3]
    /// let t = Tensor::from_foreign(Box::new(Words(b, p)), DType::U32, [3, 2], [1, 3], 0)?;
    /// assert_eq!(t.to_vec::<u32>()?, [1, 4, 2, 5, 3, 6]);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the memory is not aligned to `dtype`'s
    /// size, the view reaches past its end or its element count overflows
    /// `usize`, [`Error::TooManyDims`], and
    /// [`Error::ShapeMismatch`] when `shape` and `strides` differ in length.
    pub fn from_foreign(
        memory: Box<dyn ForeignMemory>,
        dtype: DType,
        shape: impl AsRef<[usize]>,
        strides: impl AsRef<[usize]>,
        offset: usize,
    ) -> Result<Tensor> {
        let (shape, strides) = (shape.as_ref(), strides.as_ref());
        let (layout, end) = strided("from_foreign (shape and strides)", shape, strides, offset)?;
        let size = dtype.size();
        let bad = |reason: String| Error::InvalidArgument {
            op: "from_foreign",
            reason,
        };
        if !memory.is_empty() && memory.as_ptr().align_offset(size) != 0 {
            return Err(bad(format!(
                "memory at {:p} is not aligned to {size} bytes for {dtype}",
                memory.as_ptr()
            )));
        }
        // every element lies inside the memory
        if end
            .and_then(|e| e.checked_mul(size))
            .is_none_or(|b| b > memory.len())
        {
            return Err(bad(format!(
                "a view of shape {shape:?}, strides {strides:?} and offset {offset} \
                 reaches past the {} bytes of the memory",
                memory.len()
            )));
        }
        Ok(Tensor {
            storage: Arc::new(Storage::foreign(memory)),
            layout,
            dtype,
        })
    }

    /// The address of this host tensor's first element (its offset into the
    /// storage), for code outside silt that reads or writes the elements in
    /// place through the tensor's shape and strides (NumPy's array interface).
    /// Using the pointer is that code's responsibility: it stays valid while
    /// the tensor (or a view of its storage) lives, and silt's kernels may
    /// write the elements meanwhile.
    ///
    /// ```
    /// # use silt_runtime::{Device, Tensor};
    /// let t = Tensor::from_slice(&Device::host(), &[1u8, 2, 3], [3])?;
    /// let base = t.host_ptr()? as usize;
    /// assert_eq!(t.narrow(0, 2, 1)?.host_ptr()? as usize, base + 2);
    /// # Ok::<(), silt_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NotOnHost`] for a tensor of an OpenCL device.
    pub fn host_ptr(&self) -> Result<*mut u8> {
        let lock = self.storage.host().ok_or_else(|| Error::NotOnHost {
            op: "host_ptr",
            device: self.device().to_string(),
        })?;
        let mut bytes = write_lock(lock)?;
        let base = bytes.as_bytes_mut().as_mut_ptr();
        // the offset lies inside the storage (or at its end, for an empty view)
        Ok(base.wrapping_add(self.offset() * self.dtype.size()))
    }
}

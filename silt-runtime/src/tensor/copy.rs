//! Reading, writing and copying elements: `to_vec`, `to_bytes`, `copy_from`,
//! `contiguous`, `deep_copy` and `to` (another device). Views on one OpenCL
//! device are copied on the device.

use crate::device::copy::strided_copy;
use crate::device::Device;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::{byte_len, coalesce, Dims, Layout};
use crate::storage::{host_oom, read_lock, write_lock, Data, Storage};

use super::{Tensor, TensorT};

fn try_bytes(len: usize) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| host_oom(len))?;
    v.resize(len, 0);
    Ok(v)
}

/// `layout` as runs: its dimensions merged where contiguous together (with
/// `coalesce`), the last `inner` of them kept whole (their sizes and strides
/// returned), the others as a layout of each run's first element. `None` for
/// an empty view (its strides may be anything: none is multiplied) or one of
/// fewer merged dimensions than `inner`.
fn runs(layout: &Layout, inner: usize) -> Option<(Layout, Vec<usize>, Vec<usize>)> {
    if layout.len() == 0 {
        return None;
    }
    let (dims, strides) = coalesce(&layout.shape, &[&layout.strides]);
    let strides = &strides[0];
    let n = dims.len().checked_sub(inner)?;
    let outer = Layout {
        shape: Dims::new(&dims[..n]).ok()?,
        strides: Dims::new(&strides[..n]).ok()?,
        offset: layout.offset,
    };
    Some((outer, dims[n..].to_vec(), strides[n..].to_vec()))
}

/// Copies the elements of `layout` out of `src` in logical order, a run of
/// the innermost dimension at a time (`runs`): one copy where the run is
/// contiguous, the element repeated where its stride is 0 (a broadcast),
/// else a loop of fixed-size copies; a transpose in tiles. Element by
/// element, a 4M-element copy took 30-80 ms.
fn gather(src: &[u8], layout: &Layout, es: usize, out: &mut [u8]) {
    let Some((outer, dims, strides)) = runs(layout, 1) else {
        // nothing (an empty view) or, never, a layout `runs` cannot cut
        for (dst, off) in out.chunks_exact_mut(es).zip(layout.offsets()) {
            dst.copy_from_slice(&src[off * es..off * es + es]);
        }
        return;
    };
    let (len, step) = (dims[0], strides[0]);
    // a transpose (the source contiguous down the output's columns): tiles
    // of the last two dimensions, so that reads and writes both stay in cache
    if step > 1 && matches!(es, 1 | 2 | 4 | 8) {
        if let Some((outer, dims, _)) = runs(layout, 2).filter(|(_, _, s)| s[0] == 1) {
            let rows = dims[0];
            for (block, base) in out.chunks_exact_mut(rows * len * es).zip(outer.offsets()) {
                let at = base * es;
                match es {
                    1 => tiles::<1>(src, at, step, rows, len, block),
                    2 => tiles::<2>(src, at, step, rows, len, block),
                    4 => tiles::<4>(src, at, step, rows, len, block),
                    _ => tiles::<8>(src, at, step, rows, len, block),
                }
            }
            return;
        }
    }
    for (run, base) in out.chunks_exact_mut(len * es).zip(outer.offsets()) {
        let at = base * es;
        match es {
            _ if step == 1 => run.copy_from_slice(&src[at..at + run.len()]),
            1 => strided_run::<1>(src, at, step, run),
            2 => strided_run::<2>(src, at, step, run),
            4 => strided_run::<4>(src, at, step, run),
            8 => strided_run::<8>(src, at, step, run),
            _ => {
                for (i, dst) in run.chunks_exact_mut(es).enumerate() {
                    let o = at + i * step * es;
                    dst.copy_from_slice(&src[o..o + es]);
                }
            }
        }
    }
}

/// `rows x cols` elements of `E` bytes into `block` (row-major) from `src` at
/// byte `at`, where element `(r, c)` is `r + c * step` elements on: in tiles
/// of 32 x 32, each tile's rows written in order (its source columns stay in
/// cache). Element by element a 2048 x 2048 transpose took 28 ms; 6 ms so
/// (2 ms for bytes; `host_copies` example, 2 shared cores).
fn tiles<const E: usize>(
    src: &[u8],
    at: usize,
    step: usize,
    rows: usize,
    cols: usize,
    block: &mut [u8],
) {
    const T: usize = 32;
    for c0 in (0..cols).step_by(T) {
        let c1 = (c0 + T).min(cols);
        for r0 in (0..rows).step_by(T) {
            let r1 = (r0 + T).min(rows);
            for r in r0..r1 {
                let row = &mut block[(r * cols + c0) * E..(r * cols + c1) * E];
                for (k, dst) in row.chunks_exact_mut(E).enumerate() {
                    let i = at + (r + (c0 + k) * step) * E;
                    dst.copy_from_slice(&src[i..i + E]);
                }
            }
        }
    }
}

/// Writes `src` (elements in logical order) into the elements of `layout` in
/// `dst`, a run of the innermost dimension at a time as [`gather`] reads
/// them (`layout` covers no element twice).
fn scatter(src: &[u8], layout: &Layout, es: usize, dst: &mut [u8]) {
    let Some((outer, dims, strides)) = runs(layout, 1) else {
        for (from, off) in src.chunks_exact(es).zip(layout.offsets()) {
            dst[off * es..off * es + es].copy_from_slice(from);
        }
        return;
    };
    let (len, step) = (dims[0], strides[0]);
    for (run, base) in src.chunks_exact(len * es).zip(outer.offsets()) {
        let at = base * es;
        if step == 1 {
            dst[at..at + run.len()].copy_from_slice(run);
            continue;
        }
        for (i, from) in run.chunks_exact(es).enumerate() {
            let o = at + i * step * es;
            dst[o..o + es].copy_from_slice(from);
        }
    }
}

/// One run of elements of `E` bytes from `src` at byte `at`, `step` elements
/// apart (0: one element repeated), into `run`.
#[inline]
fn strided_run<const E: usize>(src: &[u8], at: usize, step: usize, run: &mut [u8]) {
    if step == 0 {
        let mut e = [0u8; E];
        e.copy_from_slice(&src[at..at + E]);
        for dst in run.chunks_exact_mut(E) {
            dst.copy_from_slice(&e);
        }
        return;
    }
    for (i, dst) in run.chunks_exact_mut(E).enumerate() {
        let o = at + i * step * E;
        dst.copy_from_slice(&src[o..o + E]);
    }
}

impl Tensor {
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
        let mut out = try_bytes(byte_len(&self.layout.shape, self.dtype.size())?)?;
        self.read_into(&mut out)?;
        Ok(out)
    }

    /// Writes the elements' bytes in logical order into `out`, which holds
    /// exactly that many (`byte_len` of the shape).
    fn read_into(&self, out: &mut [u8]) -> Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        let es = self.dtype.size();
        if let Some(lock) = self.storage.host() {
            let src = read_lock(lock)?;
            gather(src.as_bytes(), &self.layout, es, out);
        } else if self.is_contiguous() {
            self.storage.read_range(self.layout.offset * es, out)?;
        } else {
            // gathered on the device, then read in one transfer
            let packed = self.deep_copy()?;
            packed.storage.read_range(0, out)?;
        }
        Ok(())
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
                let mut dst = write_lock(lock)?;
                scatter(&bytes, &self.layout, es, dst.as_bytes_mut());
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
                    return Err(Error::internal(
                        "OpenCL storage without its buffer or queue",
                    ));
                };
                strided_copy(
                    self.device(),
                    queue,
                    (&from.mem, &src.layout),
                    (&to.mem, &self.layout),
                    es,
                )
            }
            (Data::OpenCl(_), _) => Err(Error::internal(
                "OpenCL storage without its buffer or queue",
            )),
        }
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
    /// on the device: a contiguous view by the driver (`clEnqueueCopyBuffer`),
    /// or on a CPU device from 64 KiB by the runtime's copy kernel (faster
    /// there); any other view by the runtime's strided copy kernels.
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
                    strided_copy(
                        device,
                        queue,
                        (&src.mem, &self.layout),
                        (&dst.mem, &out.layout),
                        es,
                    )?;
                }
                Ok(out)
            }
            (Data::Host(src), None) => {
                // gathered straight into the new storage (no intermediate copy)
                let out = Tensor::new(
                    Storage::for_overwrite(device, nbytes)?,
                    &self.layout.shape,
                    self.dtype,
                )?;
                if let Some(dst) = out.storage.host() {
                    let (src, mut dst) = (read_lock(src)?, write_lock(dst)?);
                    gather(
                        src.as_bytes(),
                        &self.layout,
                        es,
                        &mut dst.as_bytes_mut()[..nbytes],
                    );
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
        // a contiguous view between the host and a device goes straight
        // from the source's storage into the new one (no copy between)
        let es = self.dtype.size();
        if self.is_contiguous() && !self.is_empty() {
            let start = self.layout.offset * es;
            let nbytes = self.len() * es;
            if let Some(lock) = self.storage.host() {
                let src = read_lock(lock)?;
                let bytes = src
                    .as_bytes()
                    .get(start..start + nbytes)
                    .ok_or_else(|| Error::internal("a host view past the end of its storage"))?;
                let storage = Storage::from_bytes(device, bytes)?;
                return Tensor::new(storage, &self.layout.shape, self.dtype);
            }
            if device.is_host() {
                let storage = Storage::for_overwrite(device, nbytes)?;
                if let Some(lock) = storage.host() {
                    // fresh: no one else holds it
                    let mut dst = write_lock(lock)?;
                    let dst = dst
                        .as_bytes_mut()
                        .get_mut(..nbytes)
                        .ok_or_else(|| Error::internal("a host storage shorter than asked"))?;
                    self.storage.read_range(start, dst)?;
                }
                return Tensor::new(storage, &self.layout.shape, self.dtype);
            }
        }
        let bytes = self.to_bytes()?;
        Tensor::new(
            Storage::from_bytes(device, &bytes)?,
            &self.layout.shape,
            self.dtype,
        )
    }
}

impl<T: Element> TensorT<T> {
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
        // the shape's byte length is checked first: a broadcast view may name
        // more elements than memory holds
        byte_len(&self.inner.layout.shape, T::SIZE)?;
        // the elements' bytes go straight into the vector (one copy, also from
        // a device)
        T::vec_filled(self.len(), |out| self.inner.read_into(out))
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

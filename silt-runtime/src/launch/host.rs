//! The host backend's element access for generated `launch` code: inputs read in
//! place where they can be, fresh outputs written in place, work split over
//! threads by rayon.

use std::marker::PhantomData;
use std::ops::Deref;

use crate::dtype::Element;
use crate::error::Result;
use crate::layout::byte_len;
use crate::storage::{read_lock, try_write_lock, ReadGuard, Storage, WriteGuard};
use crate::tensor::{Tensor, TensorT};

use super::plan::Plan;

/// An input's elements in logical order: borrowed from the tensor's storage when
/// it is contiguous, of the launch's shape and not written by the launch, else a
/// copy.
pub struct HostRead<'a, T: Element>(Source<'a, T>);

enum Source<'a, T: Element> {
    /// A read guard on the storage and the byte range of the elements.
    Borrowed(ReadGuard<'a>, std::ops::Range<usize>, PhantomData<T>),
    /// A copy (broadcast, strided, or read and written by the launch).
    Owned(Vec<T>),
}

impl<T: Element> Deref for HostRead<'_, T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.0 {
            // checked in `host_read`: the bytes are aligned and valid
            Source::Borrowed(g, r, _) => T::from_bytes(&g.as_bytes()[r.clone()]).unwrap_or(&[]),
            Source::Owned(v) => v,
        }
    }
}

/// The elements of input `t` as the launch reads them (see [`HostRead`]).
///
/// # Errors
/// Allocation errors when a copy is needed.
// Always inlined into the generated launch (with `in_place`): returned
// through memory, the guard and the range were loaded right after being
// stored in parts, a stall measured at about a tenth of a 16-element launch.
#[inline(always)]
pub fn host_read<'a, T: Element>(plan: &Plan, t: &'a TensorT<T>) -> Result<HostRead<'a, T>> {
    if let Some((guard, range)) = in_place(plan, t.as_tensor(), T::SIZE) {
        let valid = guard
            .as_bytes()
            .get(range.clone())
            .and_then(T::from_bytes)
            .is_some();
        if valid {
            return Ok(HostRead(Source::Borrowed(guard, range, PhantomData)));
        }
    }
    host_read_copy(plan, t)
}

/// The elements of input `t` copied in logical order (see [`host_read`]).
#[inline(never)]
fn host_read_copy<'a, T: Element>(plan: &Plan, t: &'a TensorT<T>) -> Result<HostRead<'a, T>> {
    Ok(HostRead(Source::Owned(plan.broadcast(t)?.to_vec()?)))
}

/// A read guard on the host storage of input `t` and the byte range of its
/// elements (of `size` bytes each), when the launch can read them in place:
/// `t` contiguous, of the launch's shape, and not written by the launch.
/// Not generic; inlined, so that its guard and range are not returned
/// through memory (a load of a value just stored in parts stalls).
#[inline(always)]
fn in_place<'a>(
    plan: &Plan,
    t: &'a Tensor,
    size: usize,
) -> Option<(ReadGuard<'a>, std::ops::Range<usize>)> {
    let same_shape = plan.is_uniform() || t.shape() == plan.shape();
    if !same_shape || !t.is_contiguous() || plan.writes_storage_of(t) {
        return None;
    }
    let lock = t.storage.host()?;
    // the shape is the launch's, so the element count is too
    let start = t.offset() * size;
    // none where this thread writes the storage: the copy path says why
    Some((read_lock(lock).ok()?, start..start + plan.len() * size))
}

/// The elements of `t` seen through `layout` (a view of its storage), in
/// logical order: borrowed when the view is contiguous, else a copy.
///
/// # Errors
/// Allocation errors when a copy is needed.
pub(crate) fn read_layout<'a, T: Element>(
    t: &'a TensorT<T>,
    layout: crate::layout::Layout,
) -> Result<HostRead<'a, T>> {
    let tensor = t.as_tensor();
    if let (true, Some(lock)) = (layout.is_contiguous(), tensor.storage.host()) {
        let guard = read_lock(lock)?;
        let start = layout.offset * T::SIZE;
        let range = start..start + layout.len() * T::SIZE;
        let valid = guard
            .as_bytes()
            .get(range.clone())
            .and_then(T::from_bytes)
            .is_some();
        if valid {
            return Ok(HostRead(Source::Borrowed(guard, range, PhantomData)));
        }
    }
    let view: TensorT<T> = tensor.with_layout(layout).into_typed()?;
    Ok(HostRead(Source::Owned(view.to_vec()?)))
}

/// A fresh host output of the launch's shape, written whole by the launch
/// before anything reads it, then made a tensor by [`HostOut::into_tensor`]:
/// its storage is owned here, so the launch writes it without a lock. Its
/// buffer may hold a freed tensor's stale values (from the host cache) until
/// written; dropped unmade (a launch that failed), the storage gives the
/// buffer back to the cache as any storage does.
pub struct HostOut<T: Element> {
    storage: Storage,
    _t: PhantomData<T>,
}

impl<T: Element> HostOut<T> {
    /// The elements, for the launch to write.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.storage
            .host_mut()
            .and_then(|b| T::from_bytes_mut(b.as_bytes_mut()))
            .unwrap_or(&mut [])
    }

    /// The written output as a host tensor of the launch's shape.
    ///
    /// # Errors
    /// None: a `Result` for the generated code to return as it is.
    #[inline]
    pub fn into_tensor(self, plan: &Plan) -> Result<TensorT<T>> {
        Ok(TensorT::over_storage(self.storage, plan.dims()))
    }
}

/// A fresh host output for a launch on the host (see [`HostOut`]).
///
/// # Errors
/// Allocation errors.
#[inline]
pub fn host_out<T: Element>(plan: &Plan) -> Result<HostOut<T>> {
    // the plan's element count is checked; only the byte count can overflow
    let nbytes = match plan.len().checked_mul(T::SIZE) {
        Some(b) if b <= isize::MAX.unsigned_abs() => b,
        _ => byte_len(plan.shape(), T::SIZE)?,
    };
    Ok(HostOut {
        storage: Storage::for_overwrite(plan.device, nbytes)?,
        _t: PhantomData,
    })
}

/// An `&mut` argument's elements: written in place when the tensor is
/// contiguous and the only argument of the launch that writes its storage, else
/// a copy that [`HostInOut::finish`] hands back to be stored.
pub struct HostInOut<'a, T: Element>(InOut<'a, T>);

enum InOut<'a, T: Element> {
    /// A write guard on the storage and the byte range of the elements.
    Direct(WriteGuard<'a>, std::ops::Range<usize>, PhantomData<T>),
    /// A copy, to be written back.
    Copied(Vec<T>),
}

impl<T: Element> HostInOut<'_, T> {
    /// The elements, for reading and writing.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.0 {
            // checked in `host_inout`: the bytes are aligned and valid
            InOut::Direct(g, r, _) => {
                T::from_bytes_mut(&mut g.as_bytes_mut()[r.clone()]).unwrap_or(&mut [])
            }
            InOut::Copied(v) => v,
        }
    }

    /// Releases the storage; a copy comes back to be stored with
    /// [`store_host`].
    pub fn finish(self) -> Option<Vec<T>> {
        match self.0 {
            InOut::Direct(..) => None,
            InOut::Copied(v) => Some(v),
        }
    }
}

/// The elements of `&mut` argument `t` as the launch writes them (see
/// [`HostInOut`]). Call after every [`host_read`] of the launch: the write lock
/// taken here would otherwise block a copy of the same storage. The lock is
/// only tried: while another thread reads or writes the storage, the
/// elements go through a copy stored back once the launch's read guards are
/// gone (waiting here, with those guards held, could deadlock two threads
/// that copy `a` into `b` and `b` into `a`).
///
/// # Errors
/// Allocation errors when a copy is needed.
#[inline]
pub fn host_inout<'a, T: Element>(plan: &Plan, t: &'a TensorT<T>) -> Result<HostInOut<'a, T>> {
    let tensor = t.as_tensor();
    let direct = t.is_contiguous() && plan.writes_storage_once(tensor);
    if let (true, Some(lock)) = (direct, tensor.storage.host()) {
        let Some(mut guard) = try_write_lock(lock) else {
            return Ok(HostInOut(InOut::Copied(t.to_vec()?)));
        };
        let range = byte_range(t);
        let valid = guard
            .as_bytes_mut()
            .get_mut(range.clone())
            .and_then(T::from_bytes_mut)
            .is_some();
        if valid {
            return Ok(HostInOut(InOut::Direct(guard, range, PhantomData)));
        }
    }
    Ok(HostInOut(InOut::Copied(t.to_vec()?)))
}

/// An output tensor given to a kernel's `launch_into`, as the launch writes
/// it: in place when it is contiguous and no other argument of the launch
/// writes its storage, else a buffer of the launch's length that
/// [`HostInOut::finish`] hands back to be stored (its old values are not
/// read: the launch writes every element). Call after every [`host_read`] of
/// the launch, as [`host_inout`]; as there, the lock is only tried (a
/// buffer while another thread holds it).
///
/// # Errors
/// Allocation errors when a buffer is needed.
#[inline(always)]
pub fn host_into<'a, T: Element>(plan: &Plan, t: &'a TensorT<T>) -> Result<HostInOut<'a, T>> {
    let tensor = t.as_tensor();
    if t.is_contiguous() && plan.writes_storage_once(tensor) {
        if let Some(mut guard) = tensor.storage.host().and_then(try_write_lock) {
            // `prepare` checked that a written argument has the launch's
            // shape, so its element count is the plan's
            let start = t.offset() * T::SIZE;
            let range = start..start + plan.len() * T::SIZE;
            let valid = guard
                .as_bytes_mut()
                .get_mut(range.clone())
                .and_then(T::from_bytes_mut)
                .is_some();
            if valid {
                return Ok(HostInOut(InOut::Direct(guard, range, PhantomData)));
            }
        }
    }
    host_into_buffer(plan.len())
}

/// A buffer of `len` elements for an output that is not written in place (see
/// [`host_into`]).
#[inline(never)]
fn host_into_buffer<'a, T: Element>(len: usize) -> Result<HostInOut<'a, T>> {
    let mut copy = Vec::new();
    copy.try_reserve_exact(len)
        .map_err(|_| crate::storage::host_oom(len.saturating_mul(T::SIZE)))?;
    copy.resize(len, T::default());
    Ok(HostInOut(InOut::Copied(copy)))
}

/// The bytes of a contiguous tensor's elements in its storage.
fn byte_range<T: Element>(t: &TensorT<T>) -> std::ops::Range<usize> {
    let start = t.offset() * T::SIZE;
    start..start + t.len() * T::SIZE
}

/// Elements per task of the host backend's parallel loop.
pub const HOST_CHUNK: usize = 16 * 1024;

/// Launches of up to this many elements run on the calling thread: handing
/// work to rayon's threads costs more than it saves below it. Measured with
/// `bench_report --host` (`add` on `f32`, a plain loop against rayon, each
/// making its output) on 2 shared cores: the loop ran at 3.4-4x rayon's speed
/// at 2^16 elements, 1.8-2.1x at 2^18, and level with it at 2^20 (48 against
/// 45-47 GB/s); rayon pulls ahead from 2^22.
pub const HOST_SERIAL_MAX: usize = 1 << 19;

/// Runs `f`, compiled for AVX2 where the CPU has it (detected at run time, once
/// per call): the element loop of a host chunk goes through here, so what the
/// compiler vectorizes runs 8 `f32` lanes wide instead of SSE2's 4. AVX2 changes
/// no result: Rust never contracts `a * b + c`, and every lane computes what the
/// scalar code does. Measured on `f16` `add` (a loop of branch-free conversions):
/// 2.2x.
#[inline]
pub fn host_simd<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && !SIMD_OFF.with(std::cell::Cell::get) {
            // SAFETY: the CPU has AVX2, checked just above
            return unsafe { with_avx2(f) };
        }
    }
    f()
}

thread_local! {
    /// Set by `testing::host_simd(false)`: this thread's chunks skip the AVX2
    /// copy (for tests).
    pub(crate) static SIMD_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `f()`, with AVX2 enabled for what inlines into it.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Writes `values` (logical order) into a host tensor or view.
///
/// # Errors
/// Allocation errors.
pub fn store_host<T: Element>(dst: &mut TensorT<T>, values: &[T]) -> Result<()> {
    let src = TensorT::from_slice(dst.device(), values, dst.shape())?;
    dst.copy_from(&src)
}

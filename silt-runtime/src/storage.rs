//! Storage: the bytes a tensor and its views share, on the host or on a device.

use std::cell::{Cell, RefCell};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use bytemuck::Zeroable;

use crate::device::{hooks, Block, Device, Line, LINE};
pub(crate) use crate::error::host_oom;
use crate::error::{Error, Result};
use crate::foreign::{Foreign, ForeignMemory};

/// The most bytes [`Storage::from_bytes`] writes to a device without waiting
/// for the commands queued before (a copy of them kept until the write
/// completes).
const SMALL_WRITE: usize = 64 * 1024;

/// Host bytes: silt's own, in whole [`Line`]s, or memory owned outside silt
/// (aligned to its element type by `Tensor::from_foreign`).
pub(crate) enum HostBytes {
    Owned { lines: Vec<Line>, len: usize },
    Foreign(Foreign),
}

impl HostBytes {
    /// `len` zero bytes; an error instead of an abort when memory is short.
    pub(crate) fn zeroed(len: usize) -> Result<Self> {
        // zeroed by the allocator (`memset`: the alignment of `Line` is past
        // `calloc`'s), where `vec![0; n]` would abort on a failed allocation
        let lines = bytemuck::allocation::try_zeroed_vec::<Line>(len.div_ceil(LINE))
            .map_err(|()| host_oom(len))?;
        Ok(HostBytes::Owned { lines, len })
    }

    /// Bytes over `lines` (at least `len` bytes of them), as they are.
    pub(crate) fn from_lines(lines: Vec<Line>, len: usize) -> Self {
        debug_assert!(lines.len() * LINE >= len);
        HostBytes::Owned { lines, len }
    }

    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        match self {
            HostBytes::Owned { lines, len } => &bytemuck::cast_slice(lines)[..*len],
            HostBytes::Foreign(f) => f.as_bytes(),
        }
    }

    #[inline]
    pub(crate) fn as_bytes_mut(&mut self) -> &mut [u8] {
        match self {
            HostBytes::Owned { lines, len } => &mut bytemuck::cast_slice_mut(lines)[..*len],
            HostBytes::Foreign(f) => f.as_bytes_mut(),
        }
    }
}

pub(crate) enum Data {
    Host(HostLock),
    OpenCl(Option<Block>),
}

/// The bytes behind one or more tensor views. Dropping the last view returns the
/// buffer to its device's pool.
pub(crate) struct Storage {
    pub(crate) device: Device,
    pub(crate) nbytes: usize,
    /// The alignment of the first byte (a power of two, at most a [`Line`]):
    /// a line for silt's own memory and device buffers, what its address gives
    /// for memory from outside silt (known without taking the lock).
    pub(crate) align: usize,
    pub(crate) data: Data,
}

impl Storage {
    /// Uninitialised storage of `nbytes` (zeroed on the host, whatever the pool
    /// hands out on a device).
    pub(crate) fn uninit(device: &Device, nbytes: usize) -> Result<Storage> {
        Storage::new(device, nbytes, false)
    }

    /// Storage of `nbytes` that the caller writes whole before any of it is
    /// read: on the host it may hold a freed buffer's stale bytes (no zeroing).
    pub(crate) fn for_overwrite(device: &Device, nbytes: usize) -> Result<Storage> {
        Storage::new(device, nbytes, true)
    }

    fn new(device: &Device, nbytes: usize, stale_ok: bool) -> Result<Storage> {
        let data = match device.queue() {
            None => {
                let lines = nbytes.div_ceil(LINE);
                // a cached buffer, zeroed here where asked: writing pages
                // already mapped beats a fresh allocation, which the
                // allocator zeroes too (64-byte alignment takes `memset`, not
                // `calloc`'s fresh pages): 64 MiB in about 5 ms, not 50
                let bytes = match device.take_host(lines, nbytes) {
                    Some(mut l) => {
                        if !stale_ok {
                            l.fill(Line::zeroed());
                        }
                        HostBytes::from_lines(l, nbytes)
                    }
                    None => {
                        let b = HostBytes::zeroed(nbytes)?;
                        device.note_host_alloc(nbytes, lines * LINE);
                        b
                    }
                };
                Data::Host(HostLock::new(bytes))
            }
            Some(queue) => {
                let block = device.alloc_block(queue, nbytes)?;
                if let Some(byte) = hooks::poison() {
                    if device.is_oclgrind() {
                        queue.write(&block.mem, 0, &vec![byte; nbytes])?;
                    } else {
                        crate::device::copy::fill(device, queue, &block.mem, nbytes, &[byte])?;
                    }
                }
                Data::OpenCl(Some(block))
            }
        };
        Ok(Storage {
            device: device.clone(),
            nbytes,
            align: LINE,
            data,
        })
    }

    /// Storage of `nbytes` filled with copies of `pattern` (`nbytes` is a multiple
    /// of its length, a power of two up to 128).
    pub(crate) fn filled(device: &Device, nbytes: usize, pattern: &[u8]) -> Result<Storage> {
        // zeros come zeroed from the allocator; any other pattern is written
        // over every byte, so a reused host buffer does as well
        let zero = pattern.iter().all(|&b| b == 0);
        let s = if zero {
            Storage::uninit(device, nbytes)?
        } else {
            Storage::for_overwrite(device, nbytes)?
        };
        match (&s.data, device.queue()) {
            // Oclgrind runs a fill as one host write per copy of the pattern,
            // after which its check of uninitialised values takes the buffer
            // for uninitialised (see `Device::is_oclgrind`)
            (Data::OpenCl(Some(block)), Some(queue)) if device.is_oclgrind() => {
                queue.write(&block.mem, 0, &pattern.repeat(nbytes / pattern.len()))?
            }
            (Data::OpenCl(Some(block)), Some(queue)) => {
                crate::device::copy::fill(device, queue, &block.mem, nbytes, pattern)?;
            }
            (Data::Host(lock), _) => {
                if !zero {
                    for chunk in write_lock(lock)?
                        .as_bytes_mut()
                        .chunks_exact_mut(pattern.len())
                    {
                        chunk.copy_from_slice(pattern);
                    }
                }
            }
            (Data::OpenCl(_), _) => {
                return Err(Error::internal(
                    "OpenCL storage without its buffer or queue",
                ))
            }
        }
        Ok(s)
    }

    /// Storage holding a copy of `bytes`.
    ///
    /// Up to [`SMALL_WRITE`] bytes (a number as a 0-d operand, a short
    /// table) are written to a device without waiting: from a copy that the
    /// write's completion frees. A blocking write would wait for every
    /// command queued before it.
    pub(crate) fn from_bytes(device: &Device, bytes: &[u8]) -> Result<Storage> {
        let s = Storage::for_overwrite(device, bytes.len())?;
        match (&s.data, device.queue()) {
            (Data::OpenCl(Some(block)), Some(queue)) if bytes.len() <= SMALL_WRITE => {
                queue.write_queued(&block.mem, bytes)?;
            }
            (Data::OpenCl(Some(block)), Some(queue)) => queue.write(&block.mem, 0, bytes)?,
            (Data::Host(lock), _) => write_lock(lock)?.as_bytes_mut().copy_from_slice(bytes),
            (Data::OpenCl(_), _) => {
                return Err(Error::internal(
                    "OpenCL storage without its buffer or queue",
                ))
            }
        }
        Ok(s)
    }

    /// Host storage over memory owned outside silt, used in place (not counted
    /// in the host's memory statistics).
    pub(crate) fn foreign(memory: Box<dyn ForeignMemory>) -> Storage {
        let nbytes = memory.len();
        let at = memory.as_ptr() as usize;
        // no bytes: any type may view them (they are never read)
        let align = if nbytes == 0 || at == 0 {
            LINE
        } else {
            (1usize << at.trailing_zeros()).min(LINE)
        };
        Storage {
            device: Device::host(),
            nbytes,
            align,
            data: Data::Host(HostLock::new(HostBytes::Foreign(Foreign::new(memory)))),
        }
    }

    pub(crate) fn block(&self) -> Option<&Block> {
        match &self.data {
            Data::OpenCl(b) => b.as_ref(),
            Data::Host(_) => None,
        }
    }

    /// The host bytes of storage owned by the caller (no other view can see
    /// it): no lock taken; `None` for device storage.
    pub(crate) fn host_mut(&mut self) -> Option<&mut HostBytes> {
        match &mut self.data {
            Data::Host(lock) => Some(lock.bytes.get_mut().unwrap_or_else(|e| e.into_inner())),
            Data::OpenCl(_) => None,
        }
    }

    /// The lock over host bytes; `None` for device storage.
    #[inline]
    pub(crate) fn host(&self) -> Option<&HostLock> {
        match &self.data {
            Data::Host(lock) => Some(lock),
            Data::OpenCl(_) => None,
        }
    }

    /// Copies `len` bytes from byte `offset` into `dst`, from the host or the device.
    pub(crate) fn read_range(&self, offset: usize, dst: &mut [u8]) -> Result<()> {
        match &self.data {
            Data::Host(lock) => {
                let src = read_lock(lock)?;
                let src = offset
                    .checked_add(dst.len())
                    .and_then(|end| src.as_bytes().get(offset..end))
                    .ok_or_else(|| Error::internal("a host read past the end of its storage"))?;
                dst.copy_from_slice(src);
                Ok(())
            }
            Data::OpenCl(block) => {
                let (Some(block), Some(queue)) = (block, self.device.queue()) else {
                    return Err(Error::internal(
                        "OpenCL storage without its buffer or queue",
                    ));
                };
                Ok(queue.read(&block.mem, offset, dst)?)
            }
        }
    }
}

/// The lock over a host storage's bytes: readers share it, a writer has it
/// alone. A writer never queues on the `RwLock` itself (see [`write_lock`]);
/// instead it counts itself in `writers`, and a reader that holds no other
/// guard lets it go first for a while (see [`read_lock`]).
pub(crate) struct HostLock {
    bytes: RwLock<HostBytes>,
    /// Writers waiting in [`write_lock`] for the readers to go.
    writers: AtomicUsize,
    /// Set by a reader that let the writers go first for [`READER_PATIENCE`]
    /// and then went ahead: the readers no longer wait until a writer gets in.
    passed: AtomicBool,
}

/// How long a reader lets a waiting writer go first. A bound, so that a
/// reader whose progress a writer's wait depends on (a thread that reads for
/// another that holds a guard meanwhile, as a `with_host_slice` closure
/// handing work to other threads may) delays it once, never for good.
const READER_PATIENCE: Duration = Duration::from_millis(100);

thread_local! {
    /// The host storage guards this thread holds: each lock's address, with
    /// its lowest bit set for a write guard. A thread that holds one never
    /// waits for a writer as a reader (the guard it holds may be what the
    /// writer waits for: `a + a` reads `a` twice), and a lock it holds is
    /// an error to take again where that could never succeed.
    static HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    /// This thread's patience as a reader, instead of [`READER_PATIENCE`]
    /// (a test hook).
    static PATIENCE: Cell<Option<Duration>> = const { Cell::new(None) };
}

/// Makes this thread let waiting writers go first for `patience` as a reader
/// (`None`: the default, 100 ms).
pub(crate) fn set_reader_patience(patience: Option<Duration>) {
    PATIENCE.with(|p| p.set(patience));
}

impl HostLock {
    fn new(bytes: HostBytes) -> Self {
        HostLock {
            bytes: RwLock::new(bytes),
            writers: AtomicUsize::new(0),
            passed: AtomicBool::new(false),
        }
    }

    /// Waits while a writer waits for the lock, for a thread that holds no
    /// guard, up to its patience.
    #[cold]
    #[inline(never)]
    fn let_writers_go(&self) {
        // (a thread past its thread-locals' end is taken to hold one)
        let holds_one = HELD.try_with(|h| !h.borrow().is_empty()).unwrap_or(true);
        if holds_one || self.passed.load(Ordering::Relaxed) {
            return;
        }
        let patience = PATIENCE
            .try_with(Cell::get)
            .ok()
            .flatten()
            .unwrap_or(READER_PATIENCE);
        let start = Instant::now();
        let mut tries = 0u32;
        while self.writers.load(Ordering::Acquire) > 0 {
            if start.elapsed() >= patience {
                self.passed.store(true, Ordering::Relaxed);
                return;
            }
            pause(tries);
            tries = tries.saturating_add(1);
        }
    }
}

/// A wait between two tries of a lock: a yield at first, then sleeps of 50 us.
fn pause(tries: u32) {
    if tries < 64 {
        std::thread::yield_now();
    } else {
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// A read guard on host bytes, listed among the thread's guards while held
/// (with its entry in `HELD`).
pub(crate) struct ReadGuard<'a>(RwLockReadGuard<'a, HostBytes>, usize);

impl Deref for ReadGuard<'_> {
    type Target = HostBytes;

    #[inline]
    fn deref(&self) -> &HostBytes {
        &self.0
    }
}

impl Drop for ReadGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        forget_held(self.1);
    }
}

/// A write guard on host bytes, listed among the thread's guards while held
/// (with its entry in `HELD`).
pub(crate) struct WriteGuard<'a>(RwLockWriteGuard<'a, HostBytes>, usize);

impl Deref for WriteGuard<'_> {
    type Target = HostBytes;

    #[inline]
    fn deref(&self) -> &HostBytes {
        &self.0
    }
}

impl DerefMut for WriteGuard<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut HostBytes {
        &mut self.0
    }
}

impl Drop for WriteGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        forget_held(self.1);
    }
}

/// This lock's entry in `HELD` for a read (`write`: a write) guard.
fn entry(lock: &HostLock, write: bool) -> usize {
    (std::ptr::from_ref(lock) as usize) | usize::from(write)
}

/// Lists a guard this thread took.
#[inline]
fn note_held(entry: usize) {
    // (nothing to list for a thread past its thread-locals' end)
    let _ = HELD.try_with(|h| h.borrow_mut().push(entry));
}

/// Takes a guard this thread let go off its list.
#[inline]
fn forget_held(entry: usize) {
    let _ = HELD.try_with(|h| {
        let mut h = h.borrow_mut();
        if let Some(i) = h.iter().rposition(|&e| e == entry) {
            h.swap_remove(i);
        }
    });
}

/// Whether this thread holds a guard of `lock`: a write guard only, or any.
fn holds(lock: &HostLock, write_only: bool) -> bool {
    let (read, write) = (entry(lock, false), entry(lock, true));
    HELD.try_with(|h| {
        h.borrow()
            .iter()
            .any(|&e| e == write || (!write_only && e == read))
    })
    .unwrap_or(false)
}

/// The error for a lock this thread holds and asks for again where that
/// could never succeed (a read of storage it writes, a write of storage it
/// reads or writes): inside a `with_host_slice` closure, say, an operation
/// on a view of the same storage.
fn reentered(write: bool) -> Error {
    Error::InvalidArgument {
        op: "host storage",
        reason: format!(
            "this thread already holds the storage ({}); an access to it from inside a \
             with_host_slice/with_host_bytes closure over the same storage would wait for good",
            if write {
                "to write it, so it cannot read it"
            } else {
                "to read it, so it cannot write it"
            }
        ),
    }
}

/// Reads host bytes, recovering from a poisoned lock: bytes have no invariant that
/// a panic elsewhere could break. While a writer waits for the lock, a thread
/// that holds no other guard first lets it go (up to 100 ms), so that
/// readers coming one after another do not keep it out.
///
/// # Errors
/// [`Error::InvalidArgument`] when this thread holds the storage to write it.
#[inline]
pub(crate) fn read_lock(lock: &HostLock) -> Result<ReadGuard<'_>> {
    if lock.writers.load(Ordering::Relaxed) > 0 {
        lock.let_writers_go();
    }
    let guard = match lock.bytes.try_read() {
        Ok(guard) => guard,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        // held for writing: by this thread (for good) or by another (a
        // moment, as long as its write)
        Err(std::sync::TryLockError::WouldBlock) => {
            if holds(lock, true) {
                return Err(reentered(true));
            }
            lock.bytes.read().unwrap_or_else(|e| e.into_inner())
        }
    };
    let e = entry(lock, false);
    note_held(e);
    Ok(ReadGuard(guard, e))
}

/// Writes host bytes (see [`read_lock`]), for a caller that holds no other
/// storage's guard. It never queues on the lock: it retries until the
/// readers are gone. A queued writer would make std's `RwLock` hold back
/// new readers, so a thread that reads one storage twice in a launch (`a +
/// a`) would wait behind it while the writer waits for that thread's first
/// read: a deadlock between threads. While it waits it is counted in the
/// lock's `writers`, which new readers holding no guard let go first.
///
/// # Errors
/// [`Error::InvalidArgument`] when this thread holds the storage already.
pub(crate) fn write_lock(lock: &HostLock) -> Result<WriteGuard<'_>> {
    if let Some(guard) = try_write_lock(lock) {
        return Ok(guard);
    }
    if holds(lock, false) {
        return Err(reentered(holds(lock, true)));
    }
    lock.writers.fetch_add(1, Ordering::AcqRel);
    let mut tries = 0u32;
    let guard = loop {
        if let Some(guard) = try_write_lock(lock) {
            break guard;
        }
        pause(tries);
        tries = tries.saturating_add(1);
    };
    lock.writers.fetch_sub(1, Ordering::AcqRel);
    lock.passed.store(false, Ordering::Relaxed);
    Ok(guard)
}

/// Writes host bytes if no one reads or writes them now, without waiting:
/// for a launch that holds its inputs' read guards, which must not wait for
/// a write lock (two threads copying `a` into `b` and `b` into `a` would
/// each hold what the other waits for). `None` when the lock is held.
pub(crate) fn try_write_lock(lock: &HostLock) -> Option<WriteGuard<'_>> {
    let guard = match lock.bytes.try_write() {
        Ok(guard) => guard,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return None,
    };
    let e = entry(lock, true);
    note_held(e);
    Some(WriteGuard(guard, e))
}

impl Drop for Storage {
    fn drop(&mut self) {
        match &mut self.data {
            Data::Host(lock) => {
                let bytes = std::mem::replace(
                    lock.bytes.get_mut().unwrap_or_else(|e| e.into_inner()),
                    HostBytes::from_lines(Vec::new(), 0),
                );
                // silt's own buffers go to the host cache; foreign memory goes
                // back to its owner as `bytes` drops
                if let HostBytes::Owned { lines, .. } = bytes {
                    self.device.give_host(lines, self.nbytes);
                }
            }
            Data::OpenCl(block) => {
                if let Some(block) = block.take() {
                    self.device.free_block(block);
                }
            }
        }
    }
}

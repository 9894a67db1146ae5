//! The caching buffer pool that sits in front of the driver's allocator.
//!
//! # Size classes
//! A request of `n` bytes (0 rounds up to 1) is served by a buffer of the size class
//! of `n`:
//! - `n <= 512`: 512 bytes;
//! - otherwise the smallest multiple of `2^(k-2)` that is `>= n`, where
//!   `2^k < n <= 2^(k+1)`: four classes per power of two (640, 768, 896, 1024, 1280,
//!   ...), so a buffer is at most 25% larger than asked (less than 20% past 1 KiB on
//!   average);
//! - a class above the device's maximum single allocation is clamped to `n` itself.
//!
//! # Bins and reuse
//! Each class has one bin: a stack of free buffers of exactly that size. A free of a
//! buffer pushes it on its bin, an allocation pops from the bin of its class; only a
//! miss calls the driver. A freed buffer can be handed out again at once, even when
//! commands that use it are still queued: every command of a device goes through its
//! one in-order queue, so the commands of the next owner run after those of the last
//! (reuse in queue order). Host reads and writes are blocking and so also ordered.
//!
//! # Out of memory
//! A new buffer is made real at once with a one-byte blocking write (which also
//! waits for the work queued before it: a miss is a synchronisation point) (PoCL and other
//! drivers allocate lazily, which would report out-of-memory at some later launch).
//! When the driver refuses, the pool releases every cached buffer and retries once;
//! a second refusal is [`Error::OutOfMemory`] with what the pool holds.
//!
//! # Oclgrind
//! On Oclgrind's simulator (`exact`) a request gets a buffer of exactly its
//! size, and a new buffer is not touched. Its check of uninitialised values
//! forgets what it knew of a buffer at each host write and keeps as many bytes
//! as the write had, from byte 0: after the one-byte write, or after a
//! tensor's bytes written into a larger buffer, every value past those bytes
//! reads back as uninitialised, even once a kernel has stored it. Oclgrind
//! allocates (and zeroes) at `clCreateBuffer`, so there is nothing lazy to
//! make real; and its bounds checks then see the end of each tensor.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use crate::cl::{self, codes, ClError, Mem, Queue};
use crate::error::{Error, Result};

/// The unit silt's own host buffers are allocated in: 64 bytes aligned to 64,
/// a cache line. Any element type can view the bytes in place, and a SIMD
/// loop over a whole tensor reads no vector across two lines (with the
/// allocator's 16-byte alignment, half the 32-byte loads of an AVX2 loop can
/// straddle two: a host `add` of 4,096 `f32`s into an existing tensor took
/// 420 ns on such buffers, 340 ns on aligned ones).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Line([u64; 8]);

// SAFETY: an array of `u64` (any bits valid, all zero a value) whose size (64)
// is a multiple of its alignment (64): no padding.
unsafe impl bytemuck::Zeroable for Line {}
// SAFETY: as above; `Copy`, `repr(C)`, no padding, no pointers.
unsafe impl bytemuck::Pod for Line {}

/// The bytes in a [`Line`].
pub(crate) const LINE: usize = std::mem::size_of::<Line>();

/// Memory figures of one device, as returned by [`Device::memory_stats`].
///
/// [`Device::memory_stats`]: crate::Device::memory_stats
///
/// On the host, buffers are counted in whole 64-byte cache lines; a freed one is kept
/// for reuse by an output of the same length while the host's cache holds under
/// 256 MiB; `driver_allocs` and `driver_frees` stay 0.
///
/// On an OpenCL device a freed buffer stays cached and serves the next request of
/// its size class:
///
/// ```
/// # use silt_runtime::{Device, TensorT};
/// if let Ok(dev) = Device::opencl(0) {
///     let start = dev.memory_stats();
///     drop(TensorT::<u8>::zeros(&dev, [1000])?); // a 1024-byte size class
///     let t = TensorT::<u8>::zeros(&dev, [1000])?; // the same buffer again
///     let s = dev.memory_stats();
///     assert_eq!(s.hits, start.hits + 1);
///     assert_eq!(s.requested_bytes - start.requested_bytes, 1000);
///     assert_eq!(s.allocated_bytes - start.allocated_bytes, 1024);
///     assert!(s.reserved_bytes >= s.allocated_bytes);
///     drop(t);
/// }
/// # Ok::<(), silt_runtime::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryStats {
    /// Bytes held by live tensors (size-class rounded).
    pub allocated_bytes: usize,
    /// Bytes live tensors asked for (before rounding).
    pub requested_bytes: usize,
    /// Bytes held from the driver: `allocated_bytes` plus the cache.
    pub reserved_bytes: usize,
    /// The highest `allocated_bytes` seen.
    pub peak_bytes: usize,
    /// The highest `reserved_bytes` seen.
    pub peak_reserved_bytes: usize,
    /// Allocations served from the cache.
    pub hits: u64,
    /// Allocations that had to call the driver.
    pub misses: u64,
    /// Buffers created by the driver.
    pub driver_allocs: u64,
    /// Buffers released to the driver.
    pub driver_frees: u64,
    /// Buffers held now, live and cached.
    pub live_buffers: usize,
    /// Times the cache was emptied, by `empty_cache()` or to retry a refused allocation.
    pub cache_flushes: u64,
}

impl MemoryStats {
    fn note_peaks(&mut self) {
        self.peak_bytes = self.peak_bytes.max(self.allocated_bytes);
        self.peak_reserved_bytes = self.peak_reserved_bytes.max(self.reserved_bytes);
    }
}

/// The size class that serves a request of `n` bytes (see the module docs).
pub(crate) fn size_class(n: usize, max_alloc: usize) -> usize {
    let n = n.max(1);
    let class = if n <= 512 {
        512
    } else {
        let k = usize::BITS - 1 - (n - 1).leading_zeros();
        let step = 1usize << (k - 2);
        n.div_ceil(step).checked_mul(step).unwrap_or(n)
    };
    if class > max_alloc {
        n
    } else {
        class
    }
}

/// A buffer handed out by the pool. Give it back with [`Pool::free`].
#[derive(Debug)]
pub(crate) struct Block {
    pub(crate) mem: Mem,
    requested: usize,
}

#[derive(Default)]
struct State {
    bins: BTreeMap<usize, Vec<Mem>>,
    /// The host's cached buffers, by length in lines.
    host_bins: BTreeMap<usize, Vec<Vec<Line>>>,
    /// The bytes in `host_bins`.
    host_cached: usize,
    stats: MemoryStats,
}

/// The most bytes of freed host buffers kept for reuse: enough for the outputs of
/// a chain of launches over a few large tensors, little beside the memory they
/// use while live.
pub(crate) const HOST_CACHE_MAX: usize = 256 << 20;

/// The caching pool of one OpenCL device, or the bookkeeping of the host.
pub(crate) struct Pool {
    state: Mutex<State>,
    max_alloc: usize,
    inject_failures: AtomicU32,
}

impl Pool {
    pub(crate) fn new(max_alloc: usize) -> Self {
        Pool {
            state: Mutex::new(State::default()),
            max_alloc,
            inject_failures: AtomicU32::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the maps inconsistent (every
        // update is a few infallible assignments), so a poisoned lock is recovered.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn stats(&self) -> MemoryStats {
        self.lock().stats
    }

    /// Bookkeeping for a new host buffer of `size` bytes for `bytes` (a miss).
    pub(crate) fn note_host_alloc(&self, bytes: usize, size: usize) {
        let mut st = self.lock();
        st.stats.allocated_bytes += size;
        st.stats.requested_bytes += bytes;
        st.stats.reserved_bytes += size;
        st.stats.misses += 1;
        st.stats.live_buffers += 1;
        st.stats.note_peaks();
    }

    /// A cached host buffer of `lines` 64-byte lines for `bytes` bytes (a
    /// hit), holding what its last tensor left there: only for storage that
    /// is written whole before it is read.
    pub(crate) fn take_host(&self, lines: usize, bytes: usize) -> Option<Vec<Line>> {
        let mut st = self.lock();
        let buf = st.host_bins.get_mut(&lines).and_then(Vec::pop)?;
        st.host_cached -= lines * LINE;
        st.stats.hits += 1;
        st.stats.allocated_bytes += lines * LINE;
        st.stats.requested_bytes += bytes;
        st.stats.note_peaks();
        Some(buf)
    }

    /// Takes back the buffer of freed host storage of `bytes` bytes: into the
    /// cache while it holds under [`HOST_CACHE_MAX`], else to the allocator.
    pub(crate) fn give_host(&self, lines: Vec<Line>, bytes: usize) {
        let size = lines.len() * LINE;
        let mut st = self.lock();
        st.stats.allocated_bytes -= size;
        st.stats.requested_bytes -= bytes;
        if size > 0 && st.host_cached + size <= HOST_CACHE_MAX {
            st.host_cached += size;
            st.host_bins.entry(lines.len()).or_default().push(lines);
            return;
        }
        st.stats.reserved_bytes -= size;
        st.stats.live_buffers -= 1;
        drop(st);
        drop(lines);
    }

    /// Makes the next `n` driver allocations fail as if out of memory (for tests).
    pub(crate) fn inject_failures(&self, n: u32) {
        self.inject_failures.store(n, Ordering::SeqCst);
    }

    /// A buffer of at least `nbytes` bytes (`exact`: of `nbytes` bytes), from
    /// the cache or the driver.
    pub(crate) fn alloc(
        &self,
        queue: &Queue,
        nbytes: usize,
        exact: bool,
        device: impl Fn() -> String,
    ) -> Result<Block> {
        let requested = nbytes.max(1);
        if requested > self.max_alloc {
            return Err(Error::AllocationTooLarge {
                requested,
                max: self.max_alloc,
                device: device(),
            });
        }
        let class = if exact {
            requested
        } else {
            size_class(requested, self.max_alloc)
        };
        {
            let mut st = self.lock();
            if let Some(mem) = st.bins.get_mut(&class).and_then(Vec::pop) {
                st.stats.hits += 1;
                st.stats.allocated_bytes += class;
                st.stats.requested_bytes += requested;
                st.stats.note_peaks();
                return Ok(Block { mem, requested });
            }
            st.stats.misses += 1;
        }
        tracing::debug!(target: "silt::pool", bytes = class, requested, "pool miss: a new driver buffer");
        let mem = match self.create(queue, class, !exact) {
            Ok(mem) => mem,
            Err(e) if cl::is_out_of_memory(e.code) => {
                let freed_bytes = self.empty_cache();
                tracing::warn!(
                    target: "silt::pool",
                    bytes = class,
                    freed_bytes,
                    "allocation refused: cache emptied, retrying once"
                );
                // Released buffers still used by queued commands are only freed by
                // the driver once those commands have run.
                let _ = queue.finish();
                self.create(queue, class, !exact)
                    .map_err(|e| Error::OutOfMemory {
                        device: device(),
                        requested,
                        class,
                        allocated_bytes: self.lock().stats.allocated_bytes,
                        freed_bytes,
                        code_name: cl::error_name(e.code),
                    })?
            }
            // labelled by the allocation, also when the write that makes it real failed
            Err(e) => return Err(Error::cl("clCreateBuffer", e.code)),
        };
        let mut st = self.lock();
        st.stats.driver_allocs += 1;
        st.stats.live_buffers += 1;
        st.stats.allocated_bytes += class;
        st.stats.requested_bytes += requested;
        st.stats.reserved_bytes += class;
        st.stats.note_peaks();
        Ok(Block { mem, requested })
    }

    /// Creates a buffer and, with `touch`, makes its memory real (see the
    /// module docs).
    fn create(&self, queue: &Queue, size: usize, touch: bool) -> Result<Mem, ClError> {
        let injected = self
            .inject_failures
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if injected {
            return Err(ClError::new("clCreateBuffer", codes::ALLOCATION_FAILURE));
        }
        let mem = queue.create_buffer(size)?;
        if touch {
            queue.write(&mem, 0, &[0u8])?;
        }
        Ok(mem)
    }

    /// Takes a block back into the cache; no driver call.
    pub(crate) fn free(&self, block: Block) {
        let class = block.mem.size();
        let mut st = self.lock();
        st.stats.allocated_bytes -= class;
        st.stats.requested_bytes -= block.requested;
        st.bins.entry(class).or_default().push(block.mem);
    }

    /// Releases every cached buffer to the driver (the allocator, on the host);
    /// returns the bytes released.
    pub(crate) fn empty_cache(&self) -> usize {
        let (bins, host, bytes) = {
            let mut st = self.lock();
            let bins = std::mem::take(&mut st.bins);
            let host = std::mem::take(&mut st.host_bins);
            let (count, bytes) = bins
                .values()
                .flatten()
                .fold((0usize, 0usize), |(c, b), m| (c + 1, b + m.size()));
            let host_count: usize = host.values().map(Vec::len).sum();
            let host_bytes = std::mem::take(&mut st.host_cached);
            st.stats.reserved_bytes -= bytes + host_bytes;
            st.stats.live_buffers -= count + host_count;
            st.stats.driver_frees += u64::try_from(count).unwrap_or(u64::MAX);
            st.stats.cache_flushes += 1;
            (bins, host, bytes + host_bytes)
        };
        // Released outside the lock: other threads keep allocating meanwhile.
        drop(bins);
        drop(host);
        tracing::debug!(target: "silt::pool", bytes, "cache emptied");
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::size_class;

    #[test]
    fn classes_round_up_by_at_most_a_quarter() {
        let max = 1 << 30;
        assert_eq!(size_class(0, max), 512);
        assert_eq!(size_class(1, max), 512);
        assert_eq!(size_class(512, max), 512);
        assert_eq!(size_class(513, max), 640);
        assert_eq!(size_class(1024, max), 1024);
        assert_eq!(size_class(1025, max), 1280);
        assert_eq!(size_class(4096, max), 4096);
        assert_eq!(size_class(64 << 20, max), 64 << 20);
        for n in (1..200_000).step_by(7) {
            let c = size_class(n, max);
            assert!(c >= n && (n <= 512 || c - n < n / 4 + 1), "{n} -> {c}");
            assert_eq!(size_class(c, max), c, "a class is its own class");
        }
    }

    #[test]
    fn classes_never_pass_the_device_limit() {
        let max = 1000;
        assert_eq!(size_class(900, max), 900);
        assert_eq!(size_class(1000, max), 1000);
        assert_eq!(size_class(usize::MAX, usize::MAX), usize::MAX);
    }
}

//! Host memory owned outside silt (a NumPy array's buffer, say), which host
//! tensors use in place: the [`ForeignMemory`] trait its owner implements, and
//! the one view of it as bytes. The only `unsafe` of the runtime outside `cl/`.

/// Memory owned outside silt that a host tensor can use where it is, without a
/// copy: the owner stays alive (and the memory with it) as long as a tensor or
/// view of it does. See `Tensor::from_foreign`.
///
/// # Safety
/// An implementor promises that, for as long as the value lives:
/// - [`as_ptr`](Self::as_ptr) always returns the same pointer, valid for reads
///   and writes of [`len`](Self::len) bytes (any pointer when `len` is 0);
/// - nothing else writes those bytes while silt reads or writes them, and
///   nothing else reads them while silt writes them (silt orders its own
///   accesses with a lock; the owner keeps its side out of the way, as a NumPy
///   array shared with C code must).
pub unsafe trait ForeignMemory: Send + Sync + 'static {
    /// The first byte.
    fn as_ptr(&self) -> *mut u8;
    /// The number of bytes, from [`as_ptr`](Self::as_ptr) on.
    fn len(&self) -> usize;
    /// Whether [`len`](Self::len) is 0.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A [`ForeignMemory`] seen as bytes.
pub(crate) struct Foreign(Box<dyn ForeignMemory>);

impl Foreign {
    pub(crate) fn new(memory: Box<dyn ForeignMemory>) -> Foreign {
        Foreign(memory)
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        let (ptr, len) = (self.0.as_ptr(), self.0.len());
        if len == 0 || ptr.is_null() {
            return &[];
        }
        // SAFETY: the implementor of `ForeignMemory` guarantees `ptr` is valid for
        // reads of `len` bytes while it lives (it lives as long as `self`), and
        // that nothing writes them while silt reads; `&self` keeps silt's own
        // writers (which need `&mut self`) out for the borrow.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }

    pub(crate) fn as_bytes_mut(&mut self) -> &mut [u8] {
        let (ptr, len) = (self.0.as_ptr(), self.0.len());
        if len == 0 || ptr.is_null() {
            return &mut [];
        }
        // SAFETY: as in `as_bytes`, for writes too; `&mut self` makes this the
        // only access through silt for the borrow.
        unsafe { std::slice::from_raw_parts_mut(ptr, len) }
    }
}

//! Host tensors over memory owned outside silt (`Tensor::from_foreign`, what
//! silt-python does with NumPy arrays), `host_ptr`, and the indexing views
//! `slice`, `select` and `as_strided`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use silt::prelude::*;
use silt::ForeignMemory;

#[kernel(types = [f32, u8])]
fn double<T>(x: &mut T) {
    *x = *x + *x;
}

/// Boxed words whose drop is observed.
struct Words {
    words: Box<[u64]>,
    ptr: usize,
    dropped: Arc<AtomicBool>,
}

impl Words {
    fn new(n: usize, dropped: &Arc<AtomicBool>) -> Words {
        let mut words: Box<[u64]> = vec![0; n].into();
        let ptr = words.as_mut_ptr() as usize;
        Words {
            words,
            ptr,
            dropped: Arc::clone(dropped),
        }
    }
}

// SAFETY: the box is never moved out, resized or touched by anything but silt
// while `Words` lives; `ptr` is its address.
unsafe impl ForeignMemory for Words {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr as *mut u8
    }
    fn len(&self) -> usize {
        self.words.len() * 8
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
    }
}

#[test]
fn a_kernel_writes_foreign_memory_in_place_and_views_keep_it_alive() -> silt::Result<()> {
    let dropped = Arc::new(AtomicBool::new(false));
    let mem = Words::new(4, &dropped); // 8 f32
    let ptr = mem.ptr;
    let t = Tensor::from_foreign(Box::new(mem), DType::F32, [2, 4], [4, 1], 0)?;
    assert_eq!(t.host_ptr()? as usize, ptr);
    let mut col = t.select(1, 1)?; // elements 1 and 5, strided
    let mut filled = t.clone();
    fill(&mut filled, 1.5)?;
    double::dispatch(&mut col)?;
    assert_eq!(t.to_vec::<f32>()?, [1.5, 3.0, 1.5, 1.5, 1.5, 3.0, 1.5, 1.5]);
    drop((t, filled));
    assert!(
        !dropped.load(Ordering::SeqCst),
        "a view still holds the memory"
    );
    drop(col);
    assert!(
        dropped.load(Ordering::SeqCst),
        "the owner is dropped with the last view"
    );
    Ok(())
}

/// Sets every element through the bytes (no kernel library in this crate's tests).
fn fill(t: &mut Tensor, v: f32) -> silt::Result<()> {
    t.with_host_bytes_mut(|b| {
        for c in b.chunks_exact_mut(4) {
            c.copy_from_slice(&v.to_ne_bytes());
        }
    })
}

#[test]
fn from_foreign_checks_alignment_and_bounds() {
    let dropped = Arc::new(AtomicBool::new(false));
    let mem = Words::new(2, &dropped);
    let past = Tensor::from_foreign(Box::new(mem), DType::U32, [2, 2], [2, 1], 1);
    assert!(
        matches!(past, Err(Error::InvalidArgument { .. })),
        "{past:?}"
    );
    struct Odd(Box<[u8]>, usize);
    // SAFETY: as `Words`, one byte in.
    unsafe impl ForeignMemory for Odd {
        fn as_ptr(&self) -> *mut u8 {
            self.1 as *mut u8
        }
        fn len(&self) -> usize {
            self.0.len() - 1
        }
    }
    let mut b: Box<[u8]> = vec![0; 16].into();
    let odd = b.as_mut_ptr() as usize + 1;
    let misaligned = Tensor::from_foreign(Box::new(Odd(b, odd)), DType::U16, [2], [1], 0);
    assert!(matches!(misaligned, Err(Error::InvalidArgument { .. })));
    let mem = Words::new(1, &dropped);
    let mismatched = Tensor::from_foreign(Box::new(mem), DType::U8, [2, 2], [1], 0);
    assert!(matches!(mismatched, Err(Error::ShapeMismatch { .. })));
}

#[test]
fn host_memory_stats_leave_foreign_memory_out() -> silt::Result<()> {
    let host = Device::host();
    let before = host.memory_stats().allocated_bytes;
    let dropped = Arc::new(AtomicBool::new(false));
    let t = Tensor::from_foreign(Box::new(Words::new(64, &dropped)), DType::U8, [512], [1], 0)?;
    assert!(host.memory_stats().allocated_bytes <= before + 64); // other tests may allocate
    drop(t);
    Ok(())
}

#[test]
fn slice_select_and_as_strided() -> silt::Result<()> {
    let t = Tensor::from_slice(&Device::host(), &(0u8..24).collect::<Vec<_>>(), [4, 6])?;
    let s = t.slice(1, 1, 3, 2)?; // columns 1, 3, 5
    assert_eq!(
        (s.shape(), s.strides()),
        (&[4usize, 3][..], &[6usize, 2][..])
    );
    assert_eq!(s.select(0, 3)?.to_vec::<u8>()?, [19, 21, 23]);
    assert_eq!(t.slice(0, 4, 0, 3)?.shape(), [0, 6]); // empty at the end
    assert!(matches!(
        t.slice(1, 0, 2, 0),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(t.slice(1, 5, 2, 1), Err(Error::OutOfRange { .. })));
    assert!(matches!(t.select(2, 0), Err(Error::InvalidAxis { .. })));
    assert!(matches!(t.select(0, 4), Err(Error::OutOfRange { .. })));
    let mut col = t.select(1, 0)?; // a strided view, written in place
    double::dispatch(&mut col)?;
    assert_eq!(t.as_strided([4], [6], 0)?.to_vec::<u8>()?, [0, 12, 24, 36]);
    assert_eq!(s.as_strided([2], [1], 22)?.to_vec::<u8>()?, [22, 23]);
    assert!(matches!(
        t.as_strided([2], [1], 23),
        Err(Error::OutOfRange { .. })
    ));
    // an empty view past the end reads nothing
    assert_eq!(t.as_strided([0, 3], [1, 1], 30)?.shape(), [0, 3]);
    // stride 0 keeps it inside the storage, but its element count overflows
    assert!(matches!(
        t.as_strided([4, (1 << 62) + 3], [0, 0], 0),
        Err(Error::InvalidArgument { .. })
    ));
    if let Ok(dev) = Device::opencl(0) {
        let d = t.to(&dev)?;
        assert_eq!(
            d.slice(1, 1, 3, 2)?.select(0, 3)?.to_vec::<u8>()?,
            [19, 21, 23]
        );
    }
    Ok(())
}

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
fn empty_foreign_memory_reads_as_no_elements() -> silt::Result<()> {
    // NumPy's empty arrays: no bytes, so `as_bytes` gives a slice at a dangling
    // address, aligned to 1 only; typed reads of it once failed as misaligned
    let dropped = Arc::new(AtomicBool::new(false));
    for dtype in [DType::F32, DType::F64, DType::I64, DType::U16, DType::Bool] {
        let t = Tensor::from_foreign(Box::new(Words::new(0, &dropped)), dtype, [0], [1], 0)?;
        assert_eq!(t.with_host_bytes(|b| b.len())?, 0);
        let n = match dtype {
            DType::F32 => {
                let mut t = t.typed::<f32>()?;
                t.with_host_slice_mut(|s| s.len())? + t.with_host_slice(|s| s.len())?
            }
            DType::F64 => t.typed::<f64>()?.with_host_slice(|s| s.len())?,
            DType::I64 => t.typed::<i64>()?.with_host_slice(|s| s.len())?,
            DType::U16 => t.typed::<u16>()?.with_host_slice(|s| s.len())?,
            _ => t.typed::<bool>()?.with_host_slice(|s| s.len())?,
        };
        assert_eq!(n, 0, "{dtype}");
    }
    Ok(())
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

/// `common::devices` without the module (this file's tests are host-first).
fn devices() -> Vec<Device> {
    let mut out = vec![Device::host()];
    match Device::opencl(0) {
        Ok(d) => out.push(d),
        Err(e) => assert!(
            std::env::var_os("CI").is_none(),
            "no OpenCL device under CI: {e}"
        ),
    }
    out
}

#[test]
fn view_dtype_reads_and_writes_the_same_bytes() -> silt::Result<()> {
    let vals = [1.0f32, -2.0, 0.5, 3.0, -0.0, 7.25, 1e-3, 9.0];
    for dev in devices() {
        let t = Tensor::from_slice(&dev, &vals, [2, 4])?;
        let bits = t.view_dtype(DType::U32)?;
        assert_eq!(
            (bits.shape(), bits.strides()),
            ([2, 4].as_slice(), [4, 1].as_slice())
        );
        let want: Vec<u32> = vals.iter().map(|v| v.to_bits()).collect();
        assert_eq!(bits.to_vec::<u32>()?, want, "on {dev}");
        // smaller elements: the last dimension grows, the other strides too
        let cols = t.narrow(1, 1, 2)?;
        let bytes = cols.view_dtype(DType::U8)?;
        assert_eq!(
            (bytes.shape(), bytes.strides(), bytes.offset()),
            ([2, 8].as_slice(), [16, 1].as_slice(), 4)
        );
        let raw: Vec<u8> = [vals[1], vals[2], vals[5], vals[6]]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        assert_eq!(bytes.to_vec::<u8>()?, raw, "on {dev}");
        // larger elements: pairs of f32 as one f64
        let wide = t.view_dtype(DType::F64)?;
        assert_eq!(
            (wide.shape(), wide.strides()),
            ([2, 2].as_slice(), [2, 1].as_slice())
        );
        let pairs: Vec<f64> = vals
            .chunks(2)
            .map(|p| {
                let mut b = [0u8; 8];
                b[..4].copy_from_slice(&p[0].to_ne_bytes());
                b[4..].copy_from_slice(&p[1].to_ne_bytes());
                f64::from_ne_bytes(b)
            })
            .collect();
        assert_eq!(
            wide.to_vec::<f64>()?
                .iter()
                .map(|v| v.to_bits())
                .collect::<Vec<_>>(),
            pairs.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "on {dev}"
        );
        // a kernel writes through the byte view: the f32 tensor sees it
        let mut b = t.view_dtype(DType::U8)?;
        double::dispatch(&mut b)?;
        let doubled: Vec<f32> = vals
            .iter()
            .map(|v| f32::from_ne_bytes(v.to_ne_bytes().map(|x| x.wrapping_add(x))))
            .collect();
        assert_eq!(
            t.to_vec::<f32>()?
                .iter()
                .map(|v| v.to_bits())
                .collect::<Vec<_>>(),
            doubled.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "on {dev}"
        );
    }
    Ok(())
}

#[test]
fn view_dtype_refuses_what_the_bytes_do_not_allow() -> silt::Result<()> {
    for dev in devices() {
        let t = Tensor::from_slice(&dev, &[0u16; 12], [3, 4])?;
        let refused = |r: silt::Result<Tensor>| matches!(r, Err(Error::InvalidArgument { .. }));
        // an offset of one u16 is not a whole u32
        assert!(
            refused(t.narrow(1, 1, 2)?.view_dtype(DType::U32)),
            "on {dev}"
        );
        // a last dimension of 3 u16 is not whole u32s
        assert!(
            refused(t.narrow(1, 0, 3)?.view_dtype(DType::U32)),
            "on {dev}"
        );
        // a transpose's last stride is not 1
        assert!(
            refused(t.transpose(0, 1)?.view_dtype(DType::U8)),
            "on {dev}"
        );
        assert!(
            refused(t.select(0, 0)?.select(0, 0)?.view_dtype(DType::U8)),
            "0-d on {dev}"
        );
        assert!(refused(t.view_dtype(DType::Bool)), "bool on {dev}");
        // a row of one element may have any stride; the same size keeps any layout
        let col = t.narrow(1, 1, 1)?.view_dtype(DType::U8)?;
        assert_eq!(
            (col.shape(), col.strides(), col.offset()),
            ([3, 2].as_slice(), [8, 1].as_slice(), 2)
        );
        assert_eq!(t.transpose(0, 1)?.view_dtype(DType::I16)?.strides(), [1, 4]);
        // an empty view reaches nothing: any strides will do
        let none = Tensor::zeros(&dev, DType::F32, [2, 0])?.as_strided([2, 0], [0, 0], 0)?;
        assert_eq!(none.view_dtype(DType::F64)?.shape(), [2, 0]);
        assert_eq!(none.view_dtype(DType::U8)?.shape(), [2, 0]);
        let flags = Tensor::from_slice(&dev, &[true, false], [2])?;
        assert_eq!(flags.view_dtype(DType::U8)?.to_vec::<u8>()?, [1, 0]);
        // a byte of 2 written through the u8 view still reads as true
        let mut bytes = flags.view_dtype(DType::U8)?.into_typed::<u8>()?;
        bytes
            .narrow(0, 1, 1)?
            .copy_from(&TensorT::full(&dev, 2u8, [1])?)?;
        assert_eq!(flags.to_vec::<bool>()?, [true, true], "on {dev}");
        if dev.is_host() {
            let typed = flags.clone().into_typed::<bool>()?;
            assert!(matches!(
                typed.with_host_slice(|s| s.len()),
                Err(Error::InvalidArgument { .. })
            ));
            bytes.with_host_slice_mut(|s| s[1] = 1)?;
            assert_eq!(typed.with_host_slice(|s| s.to_vec())?, [true, true]);
        }
    }
    // host memory from outside silt aligned to 4 bytes only has no f64 view
    struct Shifted(Box<[u64]>, usize);
    // SAFETY: as `Words`, four bytes in.
    unsafe impl ForeignMemory for Shifted {
        fn as_ptr(&self) -> *mut u8 {
            self.1 as *mut u8
        }
        fn len(&self) -> usize {
            self.0.len() * 8 - 4
        }
    }
    let mut w: Box<[u64]> = vec![0; 3].into();
    let at = w.as_mut_ptr() as usize + 4;
    let t = Tensor::from_foreign(Box::new(Shifted(w, at)), DType::F32, [4], [1], 0)?;
    assert!(matches!(
        t.view_dtype(DType::F64),
        Err(Error::InvalidArgument { .. })
    ));
    assert_eq!(t.view_dtype(DType::U16)?.shape(), [8]);
    Ok(())
}

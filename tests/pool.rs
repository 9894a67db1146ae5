//! The caching pool: reuse without driver calls, statistics, `empty_cache`,
//! release exactly once, out-of-memory handling and concurrent use.
//!
//! Tests here read process-wide counters, so they take a lock and run one at a time.

#![allow(clippy::cast_possible_truncation)] // small test sizes

mod common;

use std::sync::Mutex;

use silt::diagnostics::buffer_counts;
use silt::prelude::*;
use silt::MemoryStats;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn fresh(dev: &Device) -> MemoryStats {
    dev.synchronize().unwrap();
    dev.empty_cache();
    dev.memory_stats()
}

#[test]
fn steady_state_makes_no_driver_call() {
    let _g = serial();
    let Some(dev) = common::opencl() else { return };
    let before = fresh(&dev);
    for i in 0..1000u32 {
        let t = TensorT::<u32>::zeros(&dev, [1024]).unwrap();
        if i % 100 == 0 {
            assert_eq!(t.to_vec().unwrap()[1023], 0);
        }
    }
    let after = dev.memory_stats();
    assert!(
        after.driver_allocs - before.driver_allocs <= 1,
        "{before:?} -> {after:?}"
    );
    assert_eq!(after.misses - before.misses, 1);
    assert_eq!(after.hits - before.hits, 999);
    assert_eq!(after.driver_frees, before.driver_frees);
    assert_eq!(after.allocated_bytes, before.allocated_bytes);
    assert_eq!(after.reserved_bytes - before.reserved_bytes, 4096);
}

#[test]
fn stats_track_allocated_reserved_and_peak() {
    let _g = serial();
    let Some(dev) = common::opencl() else { return };
    let base = fresh(&dev);
    let a = TensorT::<f32>::zeros(&dev, [1000]).unwrap(); // 4000 B -> class 4096
    let b = TensorT::<u8>::zeros(&dev, [3]).unwrap(); // 3 B -> class 512
    let s = dev.memory_stats();
    assert_eq!(s.allocated_bytes - base.allocated_bytes, 4096 + 512);
    assert_eq!(s.requested_bytes - base.requested_bytes, 4000 + 3);
    assert_eq!(s.reserved_bytes - base.reserved_bytes, 4096 + 512);
    assert!(s.peak_bytes >= s.allocated_bytes);
    drop(a);
    let s2 = dev.memory_stats();
    assert_eq!(s2.allocated_bytes - base.allocated_bytes, 512);
    assert_eq!(
        s2.reserved_bytes, s.reserved_bytes,
        "a freed buffer stays cached"
    );
    assert_eq!(s2.peak_bytes, s.peak_bytes);
    // a request of a nearby size reuses the cached 4096-byte class
    let c = TensorT::<u8>::zeros(&dev, [3900]).unwrap();
    assert_eq!(dev.memory_stats().hits - s2.hits, 1);
    drop((b, c));
    dev.empty_cache();
    let end = dev.memory_stats();
    assert_eq!(end.reserved_bytes, base.reserved_bytes);
    assert!(end.cache_flushes > s.cache_flushes);
}

#[test]
fn buffers_are_released_exactly_once() {
    let _g = serial();
    let Some(dev) = common::opencl() else { return };
    fresh(&dev);
    let start = buffer_counts();
    let tensors: Vec<TensorT<i64>> = (1..=50)
        .map(|n| TensorT::zeros(&dev, [n * 300]).unwrap())
        .collect();
    let views: Vec<TensorT<i64>> = tensors
        .iter()
        .map(|t| t.narrow(0, 1, 10).unwrap())
        .collect();
    let mid = buffer_counts();
    let created = mid.created - start.created;
    assert!(created > 0);
    assert_eq!(mid.live - start.live, created as i64);
    drop(tensors);
    // views keep their storage alive, so nothing is released yet
    assert_eq!(buffer_counts().released, start.released);
    assert_eq!(views[49].to_vec().unwrap(), [0; 10]);
    drop(views);
    assert_eq!(
        buffer_counts().released,
        start.released,
        "dropped buffers go to the cache"
    );
    dev.empty_cache();
    let end = buffer_counts();
    assert_eq!(
        end.released - start.released,
        created,
        "each buffer released once"
    );
    assert_eq!(end.live, start.live);
    let stats = dev.memory_stats();
    assert_eq!(
        (
            stats.reserved_bytes,
            stats.allocated_bytes,
            stats.live_buffers
        ),
        (0, 0, 0)
    );
}

#[test]
fn huge_allocations_are_errors_not_aborts() {
    let _g = serial();
    for dev in common::devices() {
        // byte count overflows usize
        let err = TensorT::<f64>::zeros(&dev, [usize::MAX / 4, 2]).unwrap_err();
        assert!(
            matches!(err, Error::SizeOverflow { elem_size: 8, .. }),
            "{err}"
        );
        let err = TensorT::<u8>::zeros(&dev, [usize::MAX, 2]).unwrap_err();
        assert!(matches!(err, Error::SizeOverflow { .. }), "{err}");
    }
    let Some(dev) = common::opencl() else { return };
    let max = dev.info().max_alloc_bytes;
    let err = TensorT::<u8>::zeros(&dev, [max + 1]).unwrap_err();
    assert_eq!(
        err,
        Error::AllocationTooLarge {
            requested: max + 1,
            max,
            device: dev.to_string()
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains(&(max + 1).to_string()) && msg.contains(&max.to_string()),
        "{msg}"
    );
    // the device still works afterwards
    assert_eq!(
        TensorT::full(&dev, 7u8, [3]).unwrap().to_vec().unwrap(),
        [7; 3]
    );
}

#[test]
fn refused_allocation_frees_the_cache_and_retries_once() {
    let _g = serial();
    let Some(dev) = common::opencl() else { return };
    fresh(&dev);
    drop(TensorT::<u8>::zeros(&dev, [100_000]).unwrap()); // one cached buffer
    let cached = dev.memory_stats();
    assert!(cached.reserved_bytes > 0 && cached.allocated_bytes == 0);
    // the driver refuses once: the cache is emptied and the retry succeeds
    silt::__testing::inject_alloc_failures(&dev, 1);
    let t = TensorT::full(&dev, 1u16, [7]).unwrap();
    let after = dev.memory_stats();
    assert_eq!(after.cache_flushes, cached.cache_flushes + 1);
    assert_eq!(after.reserved_bytes, 512, "the cached buffer was released");
    assert_eq!(t.to_vec().unwrap(), [1; 7]);
    // refused twice: an error that says what was asked and what the pool held
    drop(TensorT::<u8>::zeros(&dev, [30_000]).unwrap()); // cached: class 32768
    silt::__testing::inject_alloc_failures(&dev, 2);
    let err = TensorT::<f32>::zeros(&dev, [1000]).unwrap_err();
    match &err {
        Error::OutOfMemory {
            requested,
            class,
            allocated_bytes,
            freed_bytes,
            code_name,
            ..
        } => {
            assert_eq!((*requested, *class), (4000, 4096));
            assert_eq!((*allocated_bytes, *freed_bytes), (512, 32_768));
            assert_eq!(*code_name, "CL_MEM_OBJECT_ALLOCATION_FAILURE");
        }
        other => panic!("expected OutOfMemory, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("4000 bytes") && msg.contains("32768 cached bytes"),
        "{msg}"
    );
    assert_eq!(
        dev.memory_stats().reserved_bytes,
        512,
        "the cache was emptied"
    );
    // and the device keeps working
    assert_eq!(
        TensorT::full(&dev, 2.0f32, [1000])
            .unwrap()
            .to_vec()
            .unwrap()[999],
        2.0
    );
}

#[test]
fn four_threads_allocate_and_copy_concurrently() {
    let _g = serial();
    for dev in common::devices() {
        fresh(&dev);
        let before = buffer_counts();
        std::thread::scope(|s| {
            for thread in 0..4u32 {
                let dev = dev.clone();
                s.spawn(move || {
                    for i in 0..200u32 {
                        let n = 1 + ((i * 37 + thread * 11) % 3000) as usize;
                        let data: Vec<u32> =
                            (0..n as u32).map(|k| k ^ (thread << 24) ^ i).collect();
                        let t = TensorT::from_slice(&dev, &data, [n]).unwrap();
                        let copy = t.deep_copy().unwrap();
                        let back = copy.to(&Device::host()).unwrap();
                        assert_eq!(
                            back.to_vec().unwrap(),
                            data,
                            "thread {thread} iteration {i}"
                        );
                    }
                });
            }
        });
        dev.synchronize().unwrap();
        dev.empty_cache();
        if !dev.is_host() {
            assert_eq!(dev.memory_stats().live_buffers, 0);
            assert_eq!(buffer_counts().live, before.live);
        }
        assert_eq!(dev.memory_stats().allocated_bytes, 0, "on {dev}");
    }
}

#[test]
fn opening_a_device_twice_shares_one_pool() {
    let _g = serial();
    let Some(dev) = common::opencl() else { return };
    let before = fresh(&dev);
    // a buffer freed through one handle is a cache hit through another
    drop(TensorT::<u8>::zeros(&Device::opencl(0).unwrap(), [10]).unwrap());
    let t = TensorT::<u8>::zeros(&Device::from_spec("opencl:0").unwrap(), [10]).unwrap();
    let after = dev.memory_stats();
    assert_eq!(
        (after.misses - before.misses, after.hits - before.hits),
        (1, 1)
    );
    drop(t);
}

#[test]
fn host_allocations_are_zeroed_and_a_huge_one_is_an_error() {
    let _g = serial();
    let host = Device::host();
    let t = TensorT::<u64>::zeros(&host, [3, 1000]).unwrap();
    assert!(t.to_vec().unwrap().iter().all(|&v| v == 0));
    assert!(TensorT::<f32>::zeros(&host, [0])
        .unwrap()
        .to_vec()
        .unwrap()
        .is_empty());
    // 64 TiB: refused by the allocator, reported instead of aborting
    let err = TensorT::<u8>::zeros(&host, [1usize << 46]).unwrap_err();
    assert!(
        matches!(err, Error::OutOfMemory { requested, .. } if requested == 1 << 46),
        "{err:?}"
    );
}

/// Doubles its input: a launch whose output is written whole.
#[kernel(types = [f32, u8])]
pub fn twice<T>(x: T) -> T {
    x + x
}

#[test]
fn host_outputs_reuse_freed_buffers_and_zeros_stay_zero() {
    let _g = serial();
    let host = Device::host();
    let before = fresh(&host);
    assert_eq!(before.reserved_bytes, before.allocated_bytes, "{before:?}");
    let x = TensorT::from_slice(&host, &[1.5f32, -2.0, 3.25], [3]).unwrap();
    // a freed buffer of the output's length holding other values
    drop(TensorT::full(&host, 7.0f32, [3]).unwrap());
    let cached = host.memory_stats();
    // 12 bytes in one 64-byte line (host buffers are whole cache lines)
    assert_eq!(
        cached.reserved_bytes - cached.allocated_bytes,
        64,
        "{cached:?}"
    );
    let y = twice::launch(&x).unwrap();
    let reused = host.memory_stats();
    assert_eq!(reused.hits - cached.hits, 1, "{reused:?}");
    assert_eq!(reused.misses, cached.misses, "{reused:?}");
    assert_eq!(y.to_vec().unwrap(), [3.0, -4.0, 6.5]);
    drop(y);
    // `zeros` takes the cached buffer (it held `y`) and zeroes it
    let z = TensorT::<f32>::zeros(&host, [3]).unwrap();
    assert_eq!(z.to_vec().unwrap(), [0.0; 3]);
    assert_eq!(host.memory_stats().hits, reused.hits + 1);
    drop(z);
    // so does a large one, every line of it
    drop(TensorT::full(&host, f32::NAN, [100_003]).unwrap());
    let hits = host.memory_stats().hits;
    let z = TensorT::<f32>::zeros(&host, [100_003]).unwrap();
    assert_eq!(host.memory_stats().hits, hits + 1);
    assert!(z.to_vec().unwrap().iter().all(|v| v.to_bits() == 0));
    drop(z);
    // bytes past the length (the last line's padding) never show
    let b = TensorT::from_slice(&host, &[200u8, 1, 2], [3]).unwrap();
    drop(TensorT::full(&host, 255u8, [7]).unwrap());
    let t = twice::launch(&b).unwrap();
    assert_eq!(t.to_vec().unwrap(), [144, 2, 4]);
    assert_eq!(t.narrow(0, 1, 2).unwrap().to_vec().unwrap(), [2, 4]);
    drop((x, b, t));
    host.empty_cache();
    let empty = host.memory_stats();
    assert_eq!(empty.reserved_bytes, before.reserved_bytes, "{empty:?}");
    assert_eq!(empty.live_buffers, before.live_buffers, "{empty:?}");
}

#[test]
fn the_host_cache_holds_at_most_256_mib() {
    let _g = serial();
    let host = Device::host();
    let before = fresh(&host);
    // 40 buffers of 8 MiB freed: 32 of them stay
    let ts: Vec<_> = (0..40)
        .map(|_| TensorT::<u8>::full(&host, 1, [8 << 20]).unwrap())
        .collect();
    drop(ts);
    let s = host.memory_stats();
    assert_eq!(s.allocated_bytes, before.allocated_bytes, "{s:?}");
    assert_eq!(s.reserved_bytes - before.reserved_bytes, 256 << 20, "{s:?}");
    host.empty_cache();
    assert_eq!(host.memory_stats().reserved_bytes, before.reserved_bytes);
}

#[test]
fn a_host_output_dropped_unmade_goes_back_to_the_cache() {
    use silt::__private::{host_out, prepare, Arg};
    let _g = serial();
    let host = Device::host();
    let x = TensorT::from_slice(&host, &[1.0f32, 2.0, 3.0, 4.0, 5.0], [5]).unwrap();
    let info = <f32 as twice::Instance>::__info();
    let args = [Arg::In(x.as_tensor())];
    let plan = prepare(info, &args).unwrap();
    let before = fresh(&host);
    // 20 bytes in a 64-byte line: what a launch that fails after making its output
    // (a failed copy of an input) drops
    let mut out = host_out::<f32>(&plan).unwrap();
    out.as_mut_slice().copy_from_slice(&[9.0; 5]);
    let during = host.memory_stats();
    assert_eq!(
        during.allocated_bytes - before.allocated_bytes,
        64,
        "{during:?}"
    );
    assert_eq!(during.live_buffers - before.live_buffers, 1, "{during:?}");
    drop(out);
    let after = host.memory_stats();
    assert_eq!(after.allocated_bytes, before.allocated_bytes, "{after:?}");
    assert_eq!(after.requested_bytes, before.requested_bytes, "{after:?}");
    assert_eq!(
        after.reserved_bytes - before.reserved_bytes,
        64,
        "{after:?}"
    );
    // the next output of the size is that buffer, and becomes a tensor
    let out = host_out::<f32>(&plan).unwrap();
    assert_eq!(host.memory_stats().hits - after.hits, 1);
    let t = out.into_tensor(&plan).unwrap();
    assert_eq!(t.shape(), [5]);
    assert_eq!(t.to_vec().unwrap(), [9.0; 5]);
    drop(t);
    assert_eq!(host.memory_stats().allocated_bytes, before.allocated_bytes);
    host.empty_cache();
    let empty = host.memory_stats();
    assert_eq!(empty.reserved_bytes, before.reserved_bytes, "{empty:?}");
    assert_eq!(empty.live_buffers, before.live_buffers, "{empty:?}");
}

/// Makes a device act as Oclgrind while alive (see `act_as_oclgrind`).
struct ActingAsOclgrind(Device);

impl ActingAsOclgrind {
    fn new(dev: &Device) -> Self {
        silt::__testing::act_as_oclgrind(dev, true);
        ActingAsOclgrind(dev.clone())
    }
}

impl Drop for ActingAsOclgrind {
    fn drop(&mut self) {
        silt::__testing::act_as_oclgrind(&self.0, false);
        self.0.empty_cache();
    }
}

/// On Oclgrind a buffer has the size of its tensor (its check of uninitialised
/// values takes a host write for the whole buffer's contents, and its bounds
/// checks then see the tensor's end), and fills are host writes.
#[test]
fn on_oclgrind_buffers_have_the_exact_size_and_fills_are_written() {
    let _g = serial();
    let Some(dev) = common::opencl() else { return };
    let before = fresh(&dev);
    let _acting = ActingAsOclgrind::new(&dev);
    let a = TensorT::<f32>::zeros(&dev, [1000]).unwrap(); // 4000 B, not 4096
    let b = TensorT::full(&dev, -3i64, [3]).unwrap(); // 24 B, not 512
    let c = TensorT::full(&dev, 7u8, [1001]).unwrap();
    let s = dev.memory_stats();
    assert_eq!(s.allocated_bytes - before.allocated_bytes, 4000 + 24 + 1001);
    assert_eq!(s.reserved_bytes - before.reserved_bytes, 4000 + 24 + 1001);
    assert!(a.to_vec().unwrap().iter().all(|&v| v == 0.0));
    assert_eq!(b.to_vec().unwrap(), [-3; 3]);
    assert!(c.to_vec().unwrap().iter().all(|&v| v == 7));
    let y = twice::launch(&c).unwrap();
    assert!(y.to_vec().unwrap().iter().all(|&v| v == 14));
    assert_eq!(
        dev.memory_stats().allocated_bytes - s.allocated_bytes,
        1001,
        "the output's exact size"
    );
    // a freed buffer serves a request of its exact size only
    drop(a);
    let s = dev.memory_stats();
    let d = TensorT::<f32>::zeros(&dev, [999]).unwrap();
    let e = TensorT::<f32>::zeros(&dev, [1000]).unwrap();
    let after = dev.memory_stats();
    assert_eq!(
        (after.misses - s.misses, after.hits - s.hits),
        (1, 1),
        "{after:?}"
    );
    drop((b, c, d, e, y));
}

#[test]
fn host_buffers_start_on_a_cache_line() {
    // fresh, cached and launch-made host buffers all start on a 64-byte line,
    // so that a SIMD loop reads no vector across two lines
    let _g = serial();
    let host = Device::host();
    let line = |t: &Tensor| t.host_ptr().unwrap() as usize % 64;
    for n in [1usize, 3, 17, 1000, 4099] {
        let x = TensorT::from_slice(&host, &vec![1.5f32; n], [n]).unwrap();
        assert_eq!(line(x.as_tensor()), 0, "from_slice of {n}");
        let z = TensorT::<u8>::zeros(&host, [n]).unwrap();
        assert_eq!(line(z.as_tensor()), 0, "zeros of {n}");
        // a launch's output, then one that takes the freed buffer back
        let y = twice::launch(&x).unwrap();
        assert_eq!(line(y.as_tensor()), 0, "output of {n}");
        drop(y);
        let hits = host.memory_stats().hits;
        let y = twice::launch(&x).unwrap();
        assert_eq!(host.memory_stats().hits - hits, 1, "{n}");
        assert_eq!(line(y.as_tensor()), 0, "cached output of {n}");
        assert_eq!(y.to_vec().unwrap(), vec![3.0f32; n]);
    }
}

#[test]
fn poisoned_outputs_hold_the_poison_until_a_kernel_writes_them() {
    let _g = serial();
    let Some(dev) = common::opencl() else {
        return;
    };
    // what a launch's output holds before its kernel runs
    for byte in [0xAB, 0xFF] {
        silt::__testing::poison_uninit(Some(byte));
        let t = silt::__testing::uninit(&dev, silt::DType::U8, &[1000]).unwrap();
        let v = t.typed::<u8>().unwrap().to_vec().unwrap();
        assert!(v.iter().all(|&b| b == byte), "{:?}", &v[..8]);
    }
    // a launch overwrites it whole; `zeros` is still zero
    let x = TensorT::from_slice(&dev, &[1.5f32, -2.0, 3.25], [3]).unwrap();
    assert_eq!(
        twice::launch(&x).unwrap().to_vec().unwrap(),
        [3.0, -4.0, 6.5]
    );
    let z = TensorT::<u32>::zeros(&dev, [257]).unwrap();
    assert!(z.to_vec().unwrap().iter().all(|&v| v == 0));
    silt::__testing::poison_uninit(Some(0xFF));
}

#[test]
fn zeros_and_full_fill_every_byte_over_a_poisoned_buffer() {
    use silt::DeviceKind;
    let _g = serial();
    let Some(dev) = common::opencl() else {
        return;
    };
    // outputs start as 0xAB bytes, so that a byte the fill misses shows;
    // lengths of whole 8-byte words, of fewer, and with a tail, small and
    // large; as a CPU device and as a GPU
    silt::__testing::poison_uninit(Some(0xAB));
    for kind in [DeviceKind::Cpu, DeviceKind::Gpu] {
        silt::__testing::reduce_as(Some(kind));
        for n in [1usize, 3, 7, 8, 13, 4099, 20_000, 65_541] {
            let u8s = TensorT::<u8>::full(&dev, 0x5c, [n]).unwrap();
            assert!(
                u8s.to_vec().unwrap().iter().all(|&v| v == 0x5c),
                "{kind:?} u8 {n}"
            );
            let u16s = TensorT::<u16>::full(&dev, 0xbeef, [n]).unwrap();
            assert!(
                u16s.to_vec().unwrap().iter().all(|&v| v == 0xbeef),
                "{kind:?} u16 {n}"
            );
            let f32s = TensorT::<f32>::full(&dev, -1.25, [n]).unwrap();
            assert!(
                f32s.to_vec().unwrap().iter().all(|&v| v == -1.25),
                "{kind:?} f32 {n}"
            );
            let f64s = TensorT::<f64>::full(&dev, 3.5e100, [n]).unwrap();
            assert!(
                f64s.to_vec().unwrap().iter().all(|&v| v == 3.5e100),
                "{kind:?} f64 {n}"
            );
            let zeros = TensorT::<u32>::zeros(&dev, [n]).unwrap();
            assert!(
                zeros.to_vec().unwrap().iter().all(|&v| v == 0),
                "{kind:?} zeros {n}"
            );
        }
    }
    silt::__testing::reduce_as(None);
    silt::__testing::poison_uninit(Some(0xFF));
}

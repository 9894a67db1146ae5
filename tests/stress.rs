//! Stress: many threads launching and allocating on one device, a million pool
//! cycles, and tensors dropped while the kernels that use them are queued. At
//! the end nothing is leaked: no live buffers, and no reserved bytes once the
//! cache is emptied.

mod common;

use std::sync::Mutex;

use silt::prelude::*;

/// The tests of this file read the device's pool figures: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

#[kernel(types = [i32, f32, f64])]
fn mix<T>(a: T, b: T) -> T {
    a * b + a
}

#[kernel(types = [f32])]
fn slow_sum<T>(x: T, #[scalar] rounds: i32) -> T {
    let mut acc = x;
    for _round in 0..rounds {
        acc = acc * 0.5 + x * 0.5;
    }
    acc
}

/// Inputs `0, 1, 2, ...` (as `T`) and `a * b + a` on the host.
fn check<T>(dev: &Device, n: usize, to: impl Fn(usize) -> T) -> silt::Result<()>
where
    T: Element + mix::Instance + PartialEq + std::fmt::Debug,
{
    let a: Vec<T> = (0..n).map(&to).collect();
    let b: Vec<T> = (0..n).map(|i| to(i % 7)).collect();
    let out = mix::launch(
        &TensorT::from_slice(dev, &a, [n])?,
        &TensorT::from_slice(dev, &b, [n])?,
    )?;
    let want: Vec<T> = a.iter().zip(&b).map(|(&x, &y)| mix::eval(x, y)).collect();
    assert_eq!(out.to_vec()?, want);
    Ok(())
}

#[test]
fn eight_threads_launch_and_allocate_without_leaks() {
    let Some(dev) = common::opencl() else { return };
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    dev.synchronize().unwrap();
    dev.empty_cache();
    let before = dev.memory_stats();
    let sizes = [1usize, 17, 1000, 4096, 7777, 65_537];
    std::thread::scope(|s| {
        for t in 0..8usize {
            let dev = dev.clone();
            s.spawn(move || {
                let fp64 = dev.supports(DType::F64);
                for i in 0..10_000usize {
                    let n = sizes[(i + t) % sizes.len()];
                    if i % 250 == 0 {
                        // every 250th launch: fresh data, checked against the host
                        check::<i32>(&dev, n, |v| i32::try_from(v).unwrap()).unwrap();
                        check::<f32>(&dev, n, |v| v as f32).unwrap();
                        if fp64 {
                            check::<f64>(&dev, n, |v| v as f64).unwrap();
                        }
                        continue;
                    }
                    match i % 3 {
                        0 => {
                            let a = TensorT::<i32>::zeros(&dev, [n]).unwrap();
                            drop(mix::launch(&a, &a).unwrap());
                        }
                        1 => {
                            let a = TensorT::full(&dev, 1.5f32, [n]).unwrap();
                            drop(mix::launch(&a, &a).unwrap());
                        }
                        _ if fp64 => {
                            let a = TensorT::full(&dev, 2.0f64, [n]).unwrap();
                            drop(mix::launch(&a, &a).unwrap());
                        }
                        _ => drop(TensorT::<f64>::zeros(&Device::host(), [n]).unwrap()),
                    }
                }
            });
        }
    });
    dev.synchronize().unwrap();
    let after = dev.memory_stats();
    assert_eq!(after.allocated_bytes, before.allocated_bytes, "{after:?}");
    // each thread holds at most a few tensors of at most 65,537 f64 at a time
    assert!(
        after.peak_reserved_bytes < 64 << 20,
        "peak {} bytes",
        after.peak_reserved_bytes
    );
    dev.empty_cache();
    let empty = dev.memory_stats();
    assert_eq!(empty.reserved_bytes, 0, "{empty:?}");
    assert_eq!(empty.live_buffers, 0, "{empty:?}");
    assert_eq!(empty.driver_allocs, empty.driver_frees, "{empty:?}");
}

#[test]
fn a_million_pool_cycles_reuse_a_handful_of_buffers() {
    let Some(dev) = common::opencl() else { return };
    // allocations alone: no poison fill queued for each
    silt::__testing::poison_uninit(None);
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    dev.synchronize().unwrap();
    dev.empty_cache();
    let before = dev.memory_stats();
    let sizes = [1usize, 3, 64, 1000, 4096, 100_000];
    for i in 0..1_000_000usize {
        let n = sizes[i % sizes.len()];
        drop(silt::__testing::uninit(&dev, DType::F32, &[n]).unwrap());
    }
    let after = dev.memory_stats();
    let made = after.driver_allocs - before.driver_allocs;
    assert!(made <= sizes.len() as u64, "{made} driver allocations");
    assert_eq!(after.hits - before.hits, 1_000_000 - made, "{after:?}");
    dev.empty_cache();
    let empty = dev.memory_stats();
    assert_eq!(empty.reserved_bytes, 0, "{empty:?}");
    assert_eq!(empty.live_buffers, 0, "{empty:?}");
}

#[test]
fn tensors_dropped_while_their_kernels_are_queued_stay_alive_until_done() {
    let Some(dev) = common::opencl() else { return };
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    dev.synchronize().unwrap();
    dev.empty_cache();
    let n = 1 << 20;
    let mut outs = Vec::new();
    for round in 0..4u8 {
        let frees = dev.memory_stats().driver_frees;
        let x = TensorT::full(&dev, f32::from(round) + 1.0, [n]).unwrap();
        // a slow kernel, queued; its input dropped at once
        outs.push((round, slow_sum::launch(&x, 200).unwrap()));
        drop(x);
        // the dropped input's buffer goes back to the pool, not to the driver
        assert_eq!(dev.memory_stats().driver_frees, frees);
        // and the next allocation of that size may reuse it: what is written
        // there must not reach the queued kernel
        let reuse = TensorT::full(&dev, -100.0f32, [n]).unwrap();
        drop(reuse);
    }
    for (round, out) in outs {
        let v = out.to_vec().unwrap();
        let want = f32::from(round) + 1.0;
        assert!(v.iter().all(|&y| y == want), "round {round}: {}", v[0]);
    }
    dev.empty_cache();
    let empty = dev.memory_stats();
    assert_eq!(empty.live_buffers, 0, "{empty:?}");
    assert_eq!(empty.driver_allocs, empty.driver_frees, "{empty:?}");
}

#[kernel(types = [f32])]
fn copy_into<T>(x: T, y: &mut T) {
    *y = x;
}

#[kernel(types = [f32])]
fn fill_with<T>(#[scalar] v: T, y: &mut T) {
    *y = v;
}

/// Runs each job on a thread of its own; whether all finished within
/// `secs` (a deadlock leaves its threads behind, and the test fails).
fn all_finish(secs: u64, jobs: Vec<Box<dyn FnOnce() + Send>>) -> bool {
    let (tx, rx) = std::sync::mpsc::channel();
    let n = jobs.len();
    for job in jobs {
        let tx = tx.clone();
        std::thread::spawn(move || {
            job();
            let _ = tx.send(());
        });
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    (0..n).all(|_| {
        rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
            .is_ok()
    })
}

/// Two threads copying host tensors into each other, and a thread reading
/// one storage twice in a launch (`a * a + a`) while another writes it: a
/// launch holding its inputs' read guards only tries its output's write
/// lock (else a copy stored back), and a writer never queues on the lock
/// (std's `RwLock` would hold back the second read behind it). Both
/// deadlocked.
#[test]
fn host_launches_on_threads_that_share_storages_do_not_deadlock() {
    let host = Device::host();
    let a = TensorT::from_slice(&host, &[1.0f32; 16], [16]).unwrap();
    let b = TensorT::from_slice(&host, &[1.0f32; 16], [16]).unwrap();
    let rounds = 20_000;
    let (a1, mut b1) = (a.clone(), b.clone());
    let (b2, mut a2) = (b.clone(), a.clone());
    let jobs: Vec<Box<dyn FnOnce() + Send>> = vec![
        Box::new(move || {
            for _ in 0..rounds {
                copy_into::launch(&a1, &mut b1).unwrap();
            }
        }),
        Box::new(move || {
            for _ in 0..rounds {
                copy_into::launch(&b2, &mut a2).unwrap();
            }
        }),
    ];
    assert!(
        all_finish(120, jobs),
        "copies in opposite directions deadlocked"
    );
    let (a3, mut a4) = (a.clone(), a.clone());
    let jobs: Vec<Box<dyn FnOnce() + Send>> = vec![
        Box::new(move || {
            for _ in 0..rounds {
                let y = mix::launch(&a3, &a3).unwrap();
                assert_eq!(y.to_vec().unwrap(), [2.0; 16]);
            }
        }),
        Box::new(move || {
            for _ in 0..rounds {
                fill_with::launch(1.0, &mut a4).unwrap();
            }
        }),
    ];
    assert!(
        all_finish(120, jobs),
        "a storage read twice beside a writer deadlocked"
    );
    assert_eq!(a.to_vec().unwrap(), [1.0; 16]);
    assert_eq!(b.to_vec().unwrap(), [1.0; 16]);
}

/// A writer waiting for a host storage goes before the readers that come
/// after it: a reader holding no other guard lets it go first. Without that
/// (std's `RwLock` holds readers back only behind a writer queued on it,
/// and silt's writers never queue), readers coming one after another kept a
/// writer out for seconds.
#[test]
fn a_waiting_writer_goes_before_the_readers_after_it() {
    use std::sync::mpsc::channel;
    use std::time::Duration;
    let host = Device::host();
    let a = TensorT::from_slice(&host, &[1.0f32; 16], [16]).unwrap();
    // a reader that holds the storage until told (a long launch)
    let (held_tx, held_rx) = channel();
    let (go_tx, go_rx) = channel::<()>();
    let first = a.clone();
    let holder = std::thread::spawn(move || {
        first
            .with_host_slice(|_| {
                held_tx.send(()).unwrap();
                go_rx.recv().unwrap();
            })
            .unwrap();
    });
    held_rx.recv().unwrap();
    // a writer, waiting for it
    let mut w = a.clone();
    let writer = std::thread::spawn(move || w.with_host_slice_mut(|s| s.fill(2.0)).unwrap());
    std::thread::sleep(Duration::from_millis(300));
    // a reader after the writer: it sees what the writer wrote
    let r = a.clone();
    let reader = std::thread::spawn(move || {
        silt::__testing::reader_patience(Some(Duration::from_secs(60)));
        r.to_vec().unwrap()
    });
    std::thread::sleep(Duration::from_millis(300));
    go_tx.send(()).unwrap();
    holder.join().unwrap();
    writer.join().unwrap();
    assert_eq!(reader.join().unwrap(), [2.0; 16]);
}

/// A reader lets a waiting writer go first only for a while: a thread that
/// holds a storage's guard while another thread reads it for it (a
/// `with_host_slice` closure handing work to a thread) would otherwise wait
/// for that reader, which waits for the writer, which waits for the guard.
#[test]
fn a_reader_that_a_guard_waits_for_goes_ahead_of_a_writer_in_time() {
    use std::time::Duration;
    let host = Device::host();
    let a = TensorT::from_slice(&host, &[1.0f32; 16], [16]).unwrap();
    let (first, mut w) = (a.clone(), a.clone());
    let jobs: Vec<Box<dyn FnOnce() + Send>> = vec![
        Box::new(move || {
            let inner = first.clone();
            let read = first
                .with_host_slice(|_| {
                    // the writer below is waiting by now
                    std::thread::sleep(Duration::from_millis(300));
                    std::thread::spawn(move || inner.to_vec().unwrap())
                        .join()
                        .unwrap()
                })
                .unwrap();
            assert_eq!(read, [1.0; 16]);
        }),
        Box::new(move || {
            std::thread::sleep(Duration::from_millis(100));
            w.with_host_slice_mut(|s| s.fill(2.0)).unwrap();
        }),
    ];
    assert!(
        all_finish(120, jobs),
        "a reader waited for a writer for good"
    );
    assert_eq!(a.to_vec().unwrap(), [2.0; 16]);
}

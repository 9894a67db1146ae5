//! A process that exits with work still queued exits cleanly: the runtime
//! finishes every queue at exit, before the driver tears itself down. (PoCL
//! compiles a kernel's work-group function when the kernel first runs; a compile
//! still going at exit used to abort the process with "Failed to create kernel
//! compiler pass", or crash it.) Checked in child processes with empty caches,
//! so that every first run compiles.

mod common;

use silt::prelude::*;

#[kernel(types = [f16, f32, f64, i32])]
pub fn busy<T>(x: T, y: T) -> T {
    let mut acc = x;
    for _ in 0..50 {
        acc = acc * y + x;
    }
    acc
}

#[kernel(types = [f16, f32, f64, i32])]
pub fn also_busy<T>(x: T) -> (T, T) {
    (x + x, x * x)
}

/// The child: launches every instantiation on a few sizes and returns without
/// reading or waiting for anything.
#[test]
fn child_exits_with_work_queued() {
    if std::env::var_os("SILT_EXIT_CHILD").is_none() {
        return;
    }
    let dev = Device::opencl(0).unwrap();
    fn run<T: Element + busy::Instance + also_busy::Instance>(dev: &Device, v: T) {
        for n in [1000, 1 << 16] {
            let x = TensorT::full(dev, v, [n]).unwrap();
            let _ = busy::launch(&x, &x).unwrap();
            let _ = also_busy::launch(&x).unwrap();
            // the strided entry points too
            let t = x.reshape([n / 8, 8]).unwrap().transpose(0, 1).unwrap();
            let _ = busy::launch(&t, &t).unwrap();
        }
    }
    run(&dev, silt::f16::from_f32(0.5));
    run(&dev, 0.5f32);
    if dev.supports(DType::F64) {
        run(&dev, 0.5f64);
    }
    run(&dev, 3i32);
    println!("QUEUED");
}

#[test]
fn a_thread_that_launched_waits_for_the_queues_as_it_ends() {
    let Some(dev) = common::opencl() else { return };
    let before = silt::__testing::thread_exit_finishes();
    let d = dev.clone();
    std::thread::spawn(move || {
        let _ = TensorT::<f32>::zeros(&d, [10]).unwrap();
    })
    .join()
    .unwrap();
    // a fill, no kernel: nothing to wait for
    assert_eq!(silt::__testing::thread_exit_finishes(), before);
    let x = TensorT::full(&dev, 0.5f32, [1 << 16]).unwrap();
    let out = std::thread::spawn(move || busy::launch(&x, &x).unwrap())
        .join()
        .unwrap();
    assert_eq!(silt::__testing::thread_exit_finishes(), before + 1);
    assert_eq!(out.to_vec().unwrap()[0], busy::eval(0.5, 0.5));
}

/// Each round has a small chance to catch a process that does not wait (about
/// one in eight crashed before the fix); the test above checks the mechanism.
#[test]
fn exiting_with_work_queued_is_clean() {
    if common::opencl().is_none() {
        return;
    }
    for round in 0..3 {
        // no saved binaries: saving compiles every kernel at once, which
        // leaves nothing to compile when the work runs
        let (ok, stdout, stderr) =
            common::child_with_empty_caches("child_exits_with_work_queued", "SILT_EXIT_CHILD");
        assert!(
            stdout.contains("QUEUED"),
            "round {round}: {stdout}\n{stderr}"
        );
        assert!(ok, "round {round}: the child failed\n{stdout}\n{stderr}");
    }
}

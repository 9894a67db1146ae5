//! The launch path allocates nothing of its own: an in-place launch makes no heap
//! allocation on the launching thread, a launch with a fresh output only the
//! output. Counted with a global allocator that counts this thread's allocations
//! (the OpenCL driver allocates with its own `malloc`, outside this count).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use silt::prelude::*;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to the system allocator unchanged; the counter is
// a const-initialised thread-local, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

#[kernel(types = [f32])]
fn scale_add<T>(#[scalar] a: T, x: T, y: &mut T) {
    *y = a * x + *y;
}

#[kernel(types = [f32])]
fn sum<T>(x: T, y: T) -> T {
    x + y
}

#[test]
fn launches_allocate_nothing_beyond_their_outputs() {
    let Some(dev) = common::opencl() else { return };
    let x = TensorT::full(&dev, 1.0f32, [256]).unwrap();
    let mut y = TensorT::<f32>::zeros(&dev, [256]).unwrap();
    // the first launches build the program and make kernel objects
    scale_add::launch(1.0, &x, &mut y).unwrap();
    drop(sum::launch(&x, &y).unwrap());
    dev.synchronize().unwrap();

    let in_place = allocations_in(|| {
        for _ in 0..100 {
            scale_add::launch(1.0, &x, &mut y).unwrap();
        }
    });
    assert_eq!(
        in_place, 0,
        "100 in-place launches allocated {in_place} times"
    );

    let fresh = allocations_in(|| {
        for _ in 0..100 {
            drop(sum::launch(&x, &y).unwrap());
        }
    });
    // the output tensor's storage, and the list the outputs come back in
    assert!(
        fresh <= 200,
        "100 launches with one output allocated {fresh} times"
    );
    assert_eq!(y.to_vec().unwrap(), vec![101.0f32; 256]);
}

/// `y += a`: launched by one test alone, so that no other test's thread
/// holds its kernel object when this one's wants it.
#[kernel(types = [f32])]
fn add_scalar<T>(#[scalar] a: T, y: &mut T) {
    *y = *y + a;
}

#[test]
fn warm_launches_and_copies_make_no_kernel_objects() {
    let Some(dev) = common::opencl() else { return };
    let mut y = TensorT::<f32>::zeros(&dev, [256]).unwrap();
    // [8, 8] transposed: a strided copy; [64, 64]: a transposing one
    let values = |n: usize| (0..n * n).map(|i| i as f32).collect::<Vec<_>>();
    let small = TensorT::from_slice(&dev, &values(8), [8, 8]).unwrap();
    let large = TensorT::from_slice(&dev, &values(64), [64, 64]).unwrap();
    let (st, lt) = (
        small.transpose(0, 1).unwrap(),
        large.transpose(0, 1).unwrap(),
    );
    let round = |y: &mut TensorT<f32>| {
        add_scalar::launch(1.0, y).unwrap();
        (st.contiguous().unwrap(), lt.contiguous().unwrap())
    };
    // the first round builds the programs and makes kernel objects
    let before = silt::__testing::kernel_objects_made();
    drop(round(&mut y));
    assert!(silt::__testing::kernel_objects_made() > before);
    let before = silt::__testing::kernel_objects_made();
    let mut last = None;
    for _ in 0..50 {
        last = Some(round(&mut y));
    }
    let made = silt::__testing::kernel_objects_made() - before;
    assert_eq!(made, 0, "50 warm rounds made {made} kernel objects");
    let (s, l) = last.unwrap();
    for (t, n) in [(s, 8), (l, 64)] {
        let v = values(n);
        let want: Vec<f32> = (0..n * n).map(|k| v[(k % n) * n + k / n]).collect();
        assert_eq!(t.to_vec().unwrap(), want, "[{n}, {n}] transposed");
    }
    assert_eq!(y.to_vec().unwrap(), vec![51.0f32; 256]);
}

#[test]
fn host_launches_allocate_nothing_beyond_their_outputs() {
    let dev = Device::host();
    let x = TensorT::full(&dev, 1.0f32, [256]).unwrap();
    let mut y = TensorT::<f32>::zeros(&dev, [256]).unwrap();
    // a first launch leaves a freed output's buffer in the host cache
    drop(sum::launch(&x, &y).unwrap());

    let in_place = allocations_in(|| {
        for _ in 0..100 {
            scale_add::launch(1.0, &x, &mut y).unwrap();
        }
    });
    assert_eq!(
        in_place, 0,
        "100 in-place host launches allocated {in_place} times"
    );

    // the output's storage only: its buffer comes back from the host cache
    let fresh = allocations_in(|| {
        for _ in 0..100 {
            drop(sum::launch(&x, &y).unwrap());
        }
    });
    assert_eq!(
        fresh, 100,
        "100 host launches with one output allocated {fresh} times"
    );

    assert_eq!(y.to_vec().unwrap(), vec![100.0f32; 256]);
    // a broadcast launch (its shape kept on the heap, its inputs copied)
    let column = TensorT::from_slice(&dev, &[1.0f32, 2.0], [2, 1]).unwrap();
    let row = TensorT::from_slice(&dev, &[10.0f32, 20.0, 30.0], [1, 3]).unwrap();
    let z = sum::launch(&column, &row).unwrap();
    assert_eq!(z.shape(), [2, 3]);
    assert_eq!(z.to_vec().unwrap(), [11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
}

//! Grid kernels (`#[grid]`): views read and written by index, the work-item
//! built-ins, checked accesses, and the launch's validation, on the host and
//! on the OpenCL device with the same bits.

mod common;

use silt::f16;
use silt::prelude::*;

/// `y = x^T`, in 4 x 4 work-groups.
#[grid(types = [f32, i32, f16], group = [4, 4])]
fn transpose<T>(x: View<T, 2>, y: ViewMut<T, 2>) {
    let (i, j) = (global_id(0), global_id(1));
    if i < y.len(0) && j < y.len(1) {
        y[[i, j]] = x[[j, i]];
    }
}

/// `y[i] += a * x[i - 1] + x[i] + x[i + 1]`, the missing neighbours 0.
#[grid(types = [f32, f64], group = [8])]
fn stencil<T>(#[scalar] a: T, x: View<T, 1>, y: ViewMut<T, 1>) {
    let i = global_id(0);
    let n = x.len(0);
    if i < n {
        let left = if i > 0 { x[[i - 1]] } else { 0.0 };
        let right = if i + 1 < n { x[[i + 1]] } else { 0.0 };
        y[[i]] += a * left + x[[i]] + right;
    }
}

/// Where each work-item is: one row of `out` per work-item of a 2-D grid.
#[grid(group = [2, 3])]
fn places(out: ViewMut<u64, 2>) {
    let (i, j) = (global_id(0), global_id(1));
    let row = i * global_size(1) + j;
    out[[row, 0]] = i;
    out[[row, 1]] = j;
    out[[row, 2]] = local_id(0) * 10 + local_id(1);
    out[[row, 3]] = group_id(0) * 10 + group_id(1);
    out[[row, 4]] = num_groups(0) * 10 + num_groups(1);
}

/// Reads one past the end of `x` in the last work-item of the grid.
#[grid(group = [4])]
fn shift(x: View<f32, 1>, y: ViewMut<f32, 1>) {
    let i = global_id(0);
    if i < y.len(0) {
        y[[i]] = x[[i + 1]];
    }
}

/// Writes past the end of `y` (rows past the first `y.len(0)`).
#[grid(group = [4])]
fn overrun(y: ViewMut<i32, 1>) {
    let i = global_id(0);
    y[[i]] = i as i32 + 1;
}

#[helper(types = [f32])]
fn twice<T>(x: T) -> T {
    x + x
}

/// A grid kernel that calls a helper, unchecked.
#[grid(types = [f32], group = [16], unchecked)]
fn doubled<T>(x: View<T, 1>, y: ViewMut<T, 1>) {
    let i = global_id(0);
    if i < x.len(0) {
        y[[i]] = twice(x[[i]]);
    }
}

/// `c = a b`, through 4 x 4 tiles of work-group memory.
#[grid(types = [f32, f64], group = [4, 4])]
fn tiled_matmul<T>(a: View<T, 2>, b: View<T, 2>, c: ViewMut<T, 2>) {
    let (i, j) = (global_id(0), global_id(1));
    let (li, lj) = (local_id(0), local_id(1));
    let mut ta = local![T; 4, 4];
    let mut tb = local![T; 4, 4];
    let mut acc: T = 0.0;
    let mut t: u64 = 0;
    while t < a.len(1) {
        ta[[li, lj]] = if i < a.len(0) && t + lj < a.len(1) {
            a[[i, t + lj]]
        } else {
            0.0
        };
        tb[[li, lj]] = if t + li < b.len(0) && j < b.len(1) {
            b[[t + li, j]]
        } else {
            0.0
        };
        barrier();
        for q in 0..4 {
            acc = acc + ta[[li, q]] * tb[[q, lj]];
        }
        barrier();
        t = t + 4;
    }
    if i < c.len(0) && j < c.len(1) {
        c[[i, j]] = acc;
    }
}

/// Each work-group's sum of `x` (in groups of 8), halving in work-group
/// memory between barriers; the work-items past `x` add 0.
#[grid(group = [8])]
fn group_sums(x: View<i64, 1>, sums: ViewMut<i64, 1>) {
    let (i, l) = (global_id(0), local_id(0));
    let mut part = local![i64; 8];
    part[[l]] = if i < x.len(0) { x[[i]] } else { 0 };
    barrier();
    let mut half: u64 = 4;
    while half > 0 {
        if l < half {
            part[[l]] = part[[l]] + part[[l + half]];
        }
        barrier();
        half = half / 2;
    }
    if l == 0 {
        sums[[group_id(0)]] = part[[0]];
    }
}

/// A histogram of `x` in `bins` (values out of range are dropped), counted
/// first in each work-group's memory, then added to the total.
#[grid(group = [16])]
fn histogram(x: View<i32, 1>, bins: ViewMut<u32, 1>) {
    let (i, l) = (global_id(0), local_id(0));
    let mut counts = local![u32; 8];
    if l < 8 {
        counts[[l]] = 0;
    }
    barrier();
    if i < x.len(0) {
        let v = x[[i]];
        if v >= 0 && v < 8 {
            counts.atomic_add([v as u64], 1);
        }
    }
    barrier();
    if l < 8 {
        bins.atomic_add([l], counts[[l]]);
    }
}

/// Every atomic on 64-bit integers, and a float sum.
#[grid(group = [32])]
fn atomics(x: View<i64, 1>, out: ViewMut<i64, 1>, first: ViewMut<u32, 1>, total: ViewMut<f32, 1>) {
    let i = global_id(0);
    if i < x.len(0) {
        let v = x[[i]];
        out.atomic_min([0], v);
        out.atomic_max([1], v);
        out.atomic_add([2], v);
        out.atomic_sub([3], v);
        out.atomic_or([4], v & 0xff);
        out.atomic_xor([5], v);
        out.atomic_and([6], v | 1);
        if v == 7 {
            out.atomic_exchange([7], i as i64);
        }
        // the first work-item to come writes its number (any may)
        first.atomic_compare_exchange([0], 0, i as u32 + 1);
        total.atomic_add([0], v as f32);
    }
}

/// Each work-item reverses a run of 4 elements of `x` through an array of
/// its own, then adds the run's running sums (kept in a second one).
#[grid(types = [f32, f16, i32], group = [4])]
fn reverse_runs<T>(x: View<T, 1>, y: ViewMut<T, 1>) {
    let i = global_id(0);
    let mut run = private![T; 4];
    let mut sums = private![T; 2, 2];
    if (i + 1) * 4 <= x.len(0) {
        for q in 0..4 {
            run[[q]] = x[[i * 4 + q]];
        }
        // an array starts zeroed: each sum adds to 0
        for q in 0..4 {
            sums[[q / 2, q % 2]] = sums[[q / 2, q % 2]] + run[[3 - q]];
        }
        for q in 0..4 {
            y[[i * 4 + q]] = run[[3 - q]] + sums[[q / 2, q % 2]];
        }
    }
}

/// Swaps neighbouring pairs of `x` into `y` by destructuring assignment to
/// view places, and writes each pair's smaller minus larger to `gaps`
/// through a private array filled from a tuple of an `if`.
#[grid(types = [i32, f32], group = [4])]
fn swap_pairs<T>(x: View<T, 1>, y: ViewMut<T, 1>, gaps: ViewMut<T, 1>) {
    let i = global_id(0);
    let mut p = private![T; 2];
    if 2 * i + 1 < x.len(0) {
        (y[[2 * i]], y[[2 * i + 1]]) = (x[[2 * i + 1]], x[[2 * i]]);
        let (a, b) = (x[[2 * i]], x[[2 * i + 1]]);
        (p[[0]], p[[1]]) = if a < b { (a, b) } else { (b, a) };
        gaps[[i]] = p[[0]] - p[[1]];
    }
}

/// The same in an unchecked kernel (`f16` views read and written in place).
#[grid(types = [f16], group = [4], unchecked)]
fn reverse_runs_unchecked<T>(x: View<T, 1>, y: ViewMut<T, 1>) {
    let i = global_id(0);
    let mut run = private![T; 4];
    if (i + 1) * 4 <= x.len(0) {
        for q in 0..4 {
            run[[q]] = x[[i * 4 + q]];
        }
        for q in 0..4 {
            y[[i * 4 + q]] = run[[3 - q]] + run[[3 - q]];
        }
    }
}

/// Grid kernels made by `macro_rules!`: each work-item reads a run of `$n`
/// elements into an array of `$n` (a size that reaches the kernel in an
/// invisible group) and writes the run's running sums from its end.
macro_rules! run_sums {
    ($name:ident, $n:literal) => {
        #[grid(types = [i32], group = [2])]
        fn $name<T>(x: View<T, 1>, y: ViewMut<T, 1>) {
            let i = global_id(0);
            let mut run = private![T; $n];
            if (i + 1) * $n <= x.len(0) {
                for q in 0..$n {
                    run[[q]] = x[[i * $n + q]];
                }
                let mut s: T = 0;
                for q in 0..$n {
                    s += run[[$n - 1 - q]];
                    y[[i * $n + q]] = s;
                }
            }
        }
    };
}

run_sums!(run_sums_3, 3);
run_sums!(run_sums_5, 5);

/// Reads one past the end of a work-item's array.
#[grid(group = [2])]
fn private_overrun(y: ViewMut<i32, 1>) {
    let i = global_id(0);
    let mut a = private![i32; 3];
    a[[i + 1]] = 5;
    y[[i]] = a[[i]] + a[[i + 1]];
}

/// Every instantiation of the grid kernels of this file.
fn every_instantiation() -> Vec<&'static silt::__private::KernelInfo> {
    [
        transpose::__infos(),
        stencil::__infos(),
        places::__infos(),
        shift::__infos(),
        overrun::__infos(),
        doubled::__infos(),
        tiled_matmul::__infos(),
        group_sums::__infos(),
        reverse_runs::__infos(),
        reverse_runs_unchecked::__infos(),
        swap_pairs::__infos(),
        private_overrun::__infos(),
        run_sums_3::__infos(),
        run_sums_5::__infos(),
        histogram::__infos(),
        atomics::__infos(),
    ]
    .into_iter()
    .flatten()
    .copied()
    .collect()
}

fn values(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i as f32) * 0.75 - 3.5).collect()
}

#[test]
fn transposes_any_view_on_every_device_with_the_same_bits() {
    let mut results = Vec::new();
    for dev in common::devices() {
        // a transposed, offset view of a [6, 5] tensor: x is [4, 5]
        let base = TensorT::from_slice(&dev, &values(30), [6, 5]).unwrap();
        let x = base.narrow(0, 1, 4).unwrap();
        let mut y = TensorT::<f32>::zeros(&dev, [5, 4]).unwrap();
        transpose::launch(Grid::over([5, 4]), &x, &mut y).unwrap();
        let got = y.to_vec().unwrap();
        let xs = x.to_vec().unwrap();
        for i in 0..5 {
            for j in 0..4 {
                assert_eq!(got[i * 4 + j], xs[j * 5 + i], "{dev} [{i}, {j}]");
            }
        }
        // the transposed view read in place, written into a transposed view
        let xt = TensorT::from_slice(&dev, &values(12), [3, 4]).unwrap();
        let xt = xt.transpose(0, 1).unwrap(); // [4, 3], strides [1, 4]
        let out = TensorT::<f32>::zeros(&dev, [4, 3]).unwrap();
        let mut yt = out.transpose(0, 1).unwrap(); // [3, 4] over `out`
        transpose::launch(Grid::over([3, 4]), &xt, &mut yt).unwrap();
        assert_eq!(out.to_vec().unwrap(), xt.to_vec().unwrap(), "{dev}");
        results.push(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    }
    assert!(results.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_tiled_matmul_meets_at_barriers_with_the_same_bits_everywhere() {
    let (m, k, n) = (7, 9, 5); // none a multiple of the tile
    let a: Vec<f64> = (0..m * k).map(|v| (v as f64 * 0.37).sin()).collect();
    let b: Vec<f64> = (0..k * n).map(|v| (v as f64 * 0.11).cos()).collect();
    // the kernel's order: tiles of 4 along k, each summed in order
    let mut want = vec![0.0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0;
            for t in (0..k).step_by(4) {
                for q in 0..4 {
                    let (x, y) = if t + q < k {
                        (a[i * k + t + q], b[(t + q) * n + j])
                    } else {
                        (0.0, 0.0)
                    };
                    acc += x * y;
                }
            }
            want[i * n + j] = acc;
        }
    }
    for dev in common::devices() {
        if !dev.supports(DType::F64) {
            continue;
        }
        let ta = TensorT::from_slice(&dev, &a, [m, k]).unwrap();
        let tb = TensorT::from_slice(&dev, &b, [k, n]).unwrap();
        let mut tc = TensorT::<f64>::zeros(&dev, [m, n]).unwrap();
        tiled_matmul::launch(Grid::over([m, n]), &ta, &tb, &mut tc).unwrap();
        let got = tc.to_vec().unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.to_bits(), w.to_bits(), "{dev}");
        }
    }
    let src = tiled_matmul::source(DType::F32).unwrap();
    assert!(src.contains("__local float silt_local0[16];"), "{src}");
    assert!(
        src.contains("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"),
        "{src}"
    );
}

#[test]
fn work_groups_sum_in_their_memory() {
    let xs: Vec<i64> = (0..29).map(|v| v * v - 40).collect();
    let want: Vec<i64> = xs.chunks(8).map(|c| c.iter().sum()).collect();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [29]).unwrap();
        let mut sums = TensorT::<i64>::zeros(&dev, [4]).unwrap();
        group_sums::launch(Grid::over([29]), &x, &mut sums).unwrap();
        assert_eq!(sums.to_vec().unwrap(), want, "{dev}");
    }
}

#[test]
fn histograms_count_with_atomics_in_work_group_and_global_memory() {
    let xs: Vec<i32> = (0..1000).map(|v| (v * 7919) % 11 - 1).collect();
    let mut want = [0u32; 8];
    for &v in &xs {
        if (0..8).contains(&v) {
            want[v as usize] += 1;
        }
    }
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [xs.len()]).unwrap();
        let mut bins = TensorT::<u32>::zeros(&dev, [8]).unwrap();
        histogram::launch(Grid::over([xs.len()]), &x, &mut bins).unwrap();
        assert_eq!(bins.to_vec().unwrap(), want, "{dev}");
    }
}

#[test]
fn every_atomic_gives_what_its_order_cannot_change() {
    let xs: Vec<i64> = (0..100).map(|v| (v * 37) % 101 - 50).collect();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [100]).unwrap();
        let init = [i64::MAX, i64::MIN, 0, 0, 0, 0, -1, -1];
        let mut out = TensorT::from_slice(&dev, &init, [8]).unwrap();
        let mut first = TensorT::<u32>::zeros(&dev, [1]).unwrap();
        let mut total = TensorT::<f32>::zeros(&dev, [1]).unwrap();
        atomics::launch(Grid::over([100]), &x, &mut out, &mut first, &mut total).unwrap();
        let got = out.to_vec().unwrap();
        let sum: i64 = xs.iter().sum();
        let seven = xs.iter().position(|&v| v == 7).unwrap() as i64;
        let want = [
            *xs.iter().min().unwrap(),
            *xs.iter().max().unwrap(),
            sum,
            -sum,
            xs.iter().fold(0, |a, v| a | (v & 0xff)),
            xs.iter().fold(0, |a, v| a ^ v),
            xs.iter().fold(-1, |a, v| a & (v | 1)),
            seven,
        ];
        assert_eq!(got, want, "{dev}");
        let f = first.to_vec().unwrap()[0];
        assert!((1..=100).contains(&f), "{dev}: {f}");
        // integers below 2^24 add exactly in any order
        assert_eq!(total.to_vec().unwrap(), [sum as f32], "{dev}");
    }
}

/// On a device without 64-bit atomics, a kernel with an atomic on 64-bit
/// elements is an `Error::MissingExtension` that names the extension, before
/// anything runs (not the build's log); kernels with 32-bit atomics alone
/// still run. Hiding the extensions changes the device for every thread, so
/// the check runs in a child process of its own.
#[test]
fn atomics_on_64_bit_elements_need_the_devices_extensions() {
    if common::opencl().is_none() {
        return;
    }
    common::run_child("int64_atomics_child", "SILT_INT64_ATOMICS_CHILD");
}

/// The child side of the test above; does nothing unless
/// `SILT_INT64_ATOMICS_CHILD` is set.
#[test]
fn int64_atomics_child() {
    if std::env::var_os("SILT_INT64_ATOMICS_CHILD").is_none() {
        return;
    }
    let cl = common::opencl().unwrap();
    let xs: Vec<i64> = (0..40).map(|v| v * 3 - 50).collect();
    let x = TensorT::from_slice(&cl, &xs, [40]).unwrap();
    let init = [i64::MAX, i64::MIN, 0, 0, 0, 0, -1, -1];
    let mut out = TensorT::from_slice(&cl, &init, [8]).unwrap();
    let mut first = TensorT::<u32>::zeros(&cl, [1]).unwrap();
    let mut total = TensorT::<f32>::zeros(&cl, [1]).unwrap();
    silt::__testing::hide_int64_atomics(&cl, true);
    let err = atomics::launch(Grid::over([40]), &x, &mut out, &mut first, &mut total).unwrap_err();
    assert!(
        matches!(
            &err,
            Error::MissingExtension {
                extension: "cl_khr_int64_base_atomics",
                device,
                ..
            } if *device == cl.to_string()
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("`atomics`"), "{err}");
    // nothing ran
    assert_eq!(out.to_vec().unwrap(), init);
    // 32-bit atomics need no extension
    let ys: Vec<i32> = (0..50).map(|v| v % 9).collect();
    let y = TensorT::from_slice(&cl, &ys, [50]).unwrap();
    let mut bins = TensorT::<u32>::zeros(&cl, [8]).unwrap();
    histogram::launch(Grid::over([50]), &y, &mut bins).unwrap();
    assert_eq!(bins.to_vec().unwrap().iter().sum::<u32>(), 45);
    // with the extensions back, the kernel runs
    silt::__testing::hide_int64_atomics(&cl, false);
    atomics::launch(Grid::over([40]), &x, &mut out, &mut first, &mut total).unwrap();
    assert_eq!(out.to_vec().unwrap()[2], xs.iter().sum::<i64>());
}

#[test]
fn dispatch_picks_the_instantiation_from_untyped_tensors() {
    for dev in common::devices() {
        let x: Tensor = TensorT::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], [2, 3])
            .unwrap()
            .into();
        let mut y = Tensor::zeros(&dev, DType::I32, [3, 2]).unwrap();
        transpose::dispatch(Grid::over([3, 2]), &x, &mut y).unwrap();
        assert_eq!(y.to_vec::<i32>().unwrap(), [1, 4, 2, 5, 3, 6], "{dev}");
        // a dtype outside `types`
        let u: Tensor = TensorT::from_slice(&dev, &[1u8, 2], [1, 2]).unwrap().into();
        let mut v = Tensor::zeros(&dev, DType::U8, [2, 1]).unwrap();
        let err = transpose::dispatch(Grid::over([2, 1]), &u, &mut v).unwrap_err();
        assert!(matches!(err, Error::UnsupportedDType { .. }), "{err:?}");
        // an unchecked kernel's dispatch is as unsafe as its launch
        let x: Tensor = TensorT::from_slice(&dev, &values(16), [16]).unwrap().into();
        let mut y = Tensor::zeros(&dev, DType::F32, [16]).unwrap();
        // SAFETY: the kernel indexes below `x.len(0)` only
        unsafe { doubled::dispatch(Grid::over([16]), &x, &mut y) }.unwrap();
        assert_eq!(y.to_vec::<f32>().unwrap()[3], values(16)[3] * 2.0, "{dev}");
    }
}

#[test]
fn the_host_runs_large_grids_on_every_thread_with_whole_atomics() {
    // past the serial threshold: work-groups run in parallel on the host
    let host = Device::host();
    let xs: Vec<i32> = (0..200_000).map(|v| (v * 7919) % 13 - 2).collect();
    let mut want = [0u32; 8];
    for &v in &xs {
        if (0..8).contains(&v) {
            want[v as usize] += 1;
        }
    }
    let x = TensorT::from_slice(&host, &xs, [xs.len()]).unwrap();
    let mut bins = TensorT::<u32>::zeros(&host, [8]).unwrap();
    histogram::launch(Grid::over([xs.len()]), &x, &mut bins).unwrap();
    assert_eq!(bins.to_vec().unwrap(), want);
    // barriers and work-group arrays, in parallel groups
    let ys: Vec<i64> = (0..40_001).map(|v| v % 1000 - 500).collect();
    let sums_want: Vec<i64> = ys.chunks(8).map(|c| c.iter().sum()).collect();
    let y = TensorT::from_slice(&host, &ys, [ys.len()]).unwrap();
    let mut sums = TensorT::<i64>::zeros(&host, [sums_want.len()]).unwrap();
    group_sums::launch(Grid::over([ys.len()]), &y, &mut sums).unwrap();
    assert_eq!(sums.to_vec().unwrap(), sums_want);
    // an access out of range in one of many parallel groups is still reported
    let big: Vec<f32> = values(30_000);
    let x = TensorT::from_slice(&host, &big, [30_000]).unwrap();
    let mut out = TensorT::<f32>::zeros(&host, [30_000]).unwrap();
    let err = shift::launch(Grid::over([30_000]), &x, &mut out).unwrap_err();
    assert!(
        matches!(&err, Error::IndexOutOfBounds { index, .. } if index == &[30_000]),
        "{err:?}"
    );
}

#[test]
fn integer_and_f16_instantiations_transpose() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], [2, 3]).unwrap();
        let mut y = TensorT::<i32>::zeros(&dev, [3, 2]).unwrap();
        transpose::launch(Grid::over([3, 2]), &x, &mut y).unwrap();
        assert_eq!(y.to_vec().unwrap(), [1, 4, 2, 5, 3, 6], "{dev}");
        let h: Vec<f16> = [0.5f32, -1.25, 65504.0, 3.0e-5].map(f16::from_f32).to_vec();
        let x = TensorT::from_slice(&dev, &h, [1, 4]).unwrap();
        let mut y = TensorT::<f16>::zeros(&dev, [4, 1]).unwrap();
        transpose::launch(Grid::over([4, 1]), &x, &mut y).unwrap();
        let bits: Vec<u16> = y.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
        assert_eq!(
            bits,
            h.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "{dev}"
        );
    }
}

#[test]
fn destructuring_assignment_writes_view_and_array_places() {
    let xs = [5i32, -3, 2, 9, 0, 0, -7, -8, 4, 1, 6];
    let mut want_y = xs;
    let mut want_gaps = [0i32; 5];
    for i in 0..5 {
        want_y.swap(2 * i, 2 * i + 1);
        want_gaps[i] = -(xs[2 * i] - xs[2 * i + 1]).abs();
    }
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [11]).unwrap();
        // the odd last element is left as it was
        let mut y = TensorT::from_slice(&dev, &xs, [11]).unwrap();
        let mut gaps = TensorT::<i32>::zeros(&dev, [5]).unwrap();
        swap_pairs::launch(Grid::over([5]), &x, &mut y, &mut gaps).unwrap();
        assert_eq!(y.to_vec().unwrap(), want_y, "{dev}");
        assert_eq!(gaps.to_vec().unwrap(), want_gaps, "{dev}");
    }
}

#[test]
fn a_stencil_reads_its_neighbours_and_adds_in_place() {
    let n = 37; // not a multiple of the group
    let xs: Vec<f64> = (0..n).map(|i| f64::from(i).sin()).collect();
    let ys: Vec<f64> = (0..n).map(|i| f64::from(i) * 0.5).collect();
    let want: Vec<f64> = (0..n as usize)
        .map(|i| {
            let left = if i > 0 { xs[i - 1] } else { 0.0 };
            let right = if i + 1 < n as usize { xs[i + 1] } else { 0.0 };
            ys[i] + (0.25 * left + xs[i] + right)
        })
        .collect();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [n as usize]).unwrap();
        let mut y = TensorT::from_slice(&dev, &ys, [n as usize]).unwrap();
        stencil::launch(Grid::over([n as usize]), 0.25, &x, &mut y).unwrap();
        let got = y.to_vec().unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.to_bits(), w.to_bits(), "{dev}");
        }
        // a narrowed view, read and written in place: the stencil sees only
        // its window of a longer tensor, and nothing outside it changes
        let long: Vec<f64> = (0..n + 10).map(|i| f64::from(i).cos()).collect();
        let base = TensorT::from_slice(&dev, &long, [n as usize + 10]).unwrap();
        let window = base.narrow(0, 4, n as usize).unwrap();
        let out =
            TensorT::from_slice(&dev, &vec![7.0f64; n as usize + 10], [n as usize + 10]).unwrap();
        let mut inside = out.narrow(0, 5, n as usize).unwrap();
        stencil::launch(Grid::over([n as usize]), 0.25, &window, &mut inside).unwrap();
        let got = out.to_vec().unwrap();
        let w = &long[4..4 + n as usize];
        for (k, g) in got.iter().enumerate() {
            let want = if (5..5 + n as usize).contains(&k) {
                let i = k - 5;
                let left = if i > 0 { w[i - 1] } else { 0.0 };
                let right = if i + 1 < n as usize { w[i + 1] } else { 0.0 };
                7.0 + (0.25 * left + w[i] + right)
            } else {
                7.0
            };
            assert_eq!(g.to_bits(), want.to_bits(), "{dev} [{k}]");
        }
        // a broadcast view is read, never written: x of shape [1] seen as [n]
        let one = TensorT::from_slice(&dev, &[2.0f64], [1]).unwrap();
        let wide = one.broadcast_to([n as usize]).unwrap();
        let mut y = TensorT::<f64>::zeros(&dev, [n as usize]).unwrap();
        stencil::launch(Grid::over([n as usize]), 1.0, &wide, &mut y).unwrap();
        let got = y.to_vec().unwrap();
        assert_eq!(
            (got[0], got[1], got[n as usize - 1]),
            (4.0, 6.0, 4.0),
            "{dev}"
        );
    }
}

#[test]
fn work_items_know_their_place() {
    for dev in common::devices() {
        // a 3 x 5 grid in 2 x 3 groups: 4 x 6 work-items, 2 x 2 groups
        let mut out = TensorT::<u64>::zeros(&dev, [24, 5]).unwrap();
        places::launch(Grid::over([3, 5]), &mut out).unwrap();
        let got = out.to_vec().unwrap();
        for i in 0..4u64 {
            for j in 0..6u64 {
                let row = usize::try_from(i * 6 + j).unwrap();
                let want = [i, j, (i % 2) * 10 + j % 3, (i / 2) * 10 + j / 3, 22];
                assert_eq!(got[row * 5..row * 5 + 5], want, "{dev} ({i}, {j})");
            }
        }
    }
}

#[test]
fn an_access_out_of_range_touches_nothing_and_is_reported() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], [4]).unwrap();
        let mut y = TensorT::from_slice(&dev, &[9.0f32; 4], [4]).unwrap();
        let err = shift::launch(Grid::over([4]), &x, &mut y).unwrap_err();
        match &err {
            Error::IndexOutOfBounds {
                kernel,
                view,
                index,
                shape,
            } => {
                assert_eq!((*kernel, *view), ("shift", "x"), "{dev}");
                assert_eq!(
                    (index.as_slice(), shape.as_slice()),
                    (&[4u64][..], &[4usize][..])
                );
            }
            other => panic!("{dev}: {other:?}"),
        }
        assert!(
            err.to_string().contains("out of range for view `x`"),
            "{err}"
        );
        // every work-item ran; the read out of range gave 0
        assert_eq!(y.to_vec().unwrap(), [2.0, 3.0, 4.0, 0.0], "{dev}");

        // 8 work-items write a view of 5: the 3 past it write nothing
        let mut y = TensorT::<i32>::zeros(&dev, [5]).unwrap();
        let err = overrun::launch(Grid::over([8]), &mut y).unwrap_err();
        assert!(
            matches!(&err, Error::IndexOutOfBounds { view: "y", index, .. } if index[0] >= 5),
            "{dev}: {err:?}"
        );
        assert_eq!(y.to_vec().unwrap(), [1, 2, 3, 4, 5], "{dev}");
        // in range, the same kernel is fine
        let mut y = TensorT::<i32>::zeros(&dev, [8]).unwrap();
        overrun::launch(Grid::over([8]), &mut y).unwrap();
        assert_eq!(y.to_vec().unwrap(), [1, 2, 3, 4, 5, 6, 7, 8], "{dev}");
    }
}

#[test]
fn private_arrays_are_each_work_items_own_and_start_zeroed() {
    let xs: Vec<f32> = (0..12).map(|i| i as f32 * 0.5 - 2.0).collect();
    let mut want = vec![0.0f32; 12];
    for run in 0..3 {
        for q in 0..4 {
            let v = xs[run * 4 + 3 - q];
            want[run * 4 + q] = v + v;
        }
    }
    let mut results = Vec::new();
    for dev in common::devices() {
        // 4 work-items: the last has no run, and writes nothing
        let x = TensorT::from_slice(&dev, &xs, [12]).unwrap();
        let mut y = TensorT::<f32>::full(&dev, 9.0, [12]).unwrap();
        reverse_runs::launch(Grid::over([4]), &x, &mut y).unwrap();
        assert_eq!(y.to_vec().unwrap(), want, "{dev}");
        let xi = TensorT::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6, 7, 8], [8]).unwrap();
        let mut yi = TensorT::<i32>::zeros(&dev, [8]).unwrap();
        reverse_runs::launch(Grid::over([2]), &xi, &mut yi).unwrap();
        assert_eq!(yi.to_vec().unwrap(), [8, 6, 4, 2, 16, 14, 12, 10], "{dev}");
        // f16, checked and unchecked: the same bits
        let halves: Vec<f16> = xs.iter().map(|&v| f16::from_f32(v * 1.1)).collect();
        let xh = TensorT::from_slice(&dev, &halves, [12]).unwrap();
        let mut yh = TensorT::<f16>::zeros(&dev, [12]).unwrap();
        reverse_runs::launch(Grid::over([3]), &xh, &mut yh).unwrap();
        let mut yu = TensorT::<f16>::zeros(&dev, [12]).unwrap();
        // SAFETY: every work-item reads and writes its own run, inside both
        unsafe { reverse_runs_unchecked::launch(Grid::over([3]), &xh, &mut yu) }.unwrap();
        assert_eq!(yh.to_vec().unwrap(), yu.to_vec().unwrap(), "{dev}");
        let wanted: Vec<f16> = (0..12)
            .map(|i| {
                let v = halves[i / 4 * 4 + 3 - i % 4];
                f16::from_f32(v.to_f32() + v.to_f32())
            })
            .collect();
        assert_eq!(yh.to_vec().unwrap(), wanted, "{dev}");
        results.push(y.to_vec().unwrap());
    }
    assert!(results.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn an_access_past_a_private_array_is_reported() {
    for dev in common::devices() {
        let mut y = TensorT::<i32>::zeros(&dev, [2]).unwrap();
        // work-item 1 writes and reads `a[[2]]`, inside; a grid of 2 reads
        // `a[[2]]` in item 1 and writes `a[[2]]`: fine. Item 2 of a grid of
        // 4 (two groups) writes `a[[3]]`, past the end.
        private_overrun::launch(Grid::over([2]), &mut y).unwrap();
        assert_eq!(y.to_vec().unwrap(), [5, 5], "{dev}");
        let mut y = TensorT::<i32>::zeros(&dev, [4]).unwrap();
        let err = private_overrun::launch(Grid::over([4]), &mut y).unwrap_err();
        assert!(
            matches!(&err, Error::IndexOutOfBounds { kernel: "private_overrun", view: "a", index, shape }
                if index[0] >= 3 && shape == &[3]),
            "{dev}: {err:?}"
        );
    }
}

#[test]
fn unchecked_kernels_call_helpers() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &values(40), [40]).unwrap();
        let mut y = TensorT::<f32>::zeros(&dev, [40]).unwrap();
        // SAFETY: every index the kernel takes is below `x.len(0)` = 40
        unsafe { doubled::launch(Grid::over([40]), &x, &mut y) }.unwrap();
        let want: Vec<f32> = values(40).iter().map(|v| v + v).collect();
        assert_eq!(y.to_vec().unwrap(), want, "{dev}");
    }
    let src = doubled::source(DType::F32).unwrap();
    assert!(!src.contains("silt_err"), "{src}");
    assert!(src.contains("reqd_work_group_size(16, 1, 1)"), "{src}");
    let checked = transpose::source(DType::F32).unwrap();
    assert!(checked.contains("silt_get_f32_2") && checked.contains("silt_set_f32_2"));
}

#[test]
fn launches_that_cannot_run_are_errors_before_anything_runs() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &values(6), [2, 3]).unwrap();
        let mut y = TensorT::<f32>::zeros(&dev, [3, 2]).unwrap();
        // the grid has one dimension, the work-groups two
        let err = transpose::launch(Grid::over([6]), &x, &mut y).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { .. }), "{err:?}");
        assert!(
            err.to_string().contains("give `Grid::over` 2 sizes"),
            "{err}"
        );
        // a view of three dimensions given a tensor of two
        let flat = TensorT::from_slice(&dev, &values(6), [6]).unwrap();
        let err = transpose::launch(Grid::over([3, 2]), &flat, &mut y).unwrap_err();
        assert!(
            err.to_string()
                .contains("view `x` takes a tensor of 2 dimensions"),
            "{err}"
        );
        // a written broadcast
        let row = TensorT::<f32>::zeros(&dev, [1, 2]).unwrap();
        let mut wide = row.broadcast_to([3, 2]).unwrap();
        let err = transpose::launch(Grid::over([3, 2]), &x, &mut wide).unwrap_err();
        assert!(
            err.to_string().contains("holds some elements twice"),
            "{err}"
        );
        // a written view that shares storage with a read one
        let both = TensorT::from_slice(&dev, &values(12), [2, 6]).unwrap();
        let left = both.narrow(1, 0, 3).unwrap();
        let mut right = both.narrow(1, 3, 3).unwrap().transpose(0, 1).unwrap();
        let err = transpose::launch(Grid::over([3, 2]), &left, &mut right).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Aliasing {
                    kernel: "transpose",
                    ..
                }
            ),
            "{err:?}"
        );
        // nothing was written by any of them
        assert_eq!(y.to_vec().unwrap(), [0.0; 6]);
        // an empty grid runs nothing
        transpose::launch(Grid::over([0, 2]), &x, &mut y).unwrap();
        // more work-items than a usize counts
        let err = transpose::launch(Grid::over([usize::MAX / 2, 8]), &x, &mut y).unwrap_err();
        assert!(matches!(err, Error::SizeOverflow { .. }), "{err:?}");
    }
    let (Some(cl), host) = (common::opencl(), Device::host()) else {
        return;
    };
    let x = TensorT::from_slice(&cl, &values(6), [2, 3]).unwrap();
    let mut y = TensorT::<f32>::zeros(&host, [3, 2]).unwrap();
    let err = transpose::launch(Grid::over([3, 2]), &x, &mut y).unwrap_err();
    assert!(matches!(err, Error::DeviceMismatch { .. }), "{err:?}");
}

#[test]
fn the_device_builds_every_grid_program() {
    let Some(cl) = common::opencl() else { return };
    let infos = every_instantiation();
    for info in infos {
        if info.source().contains("cl_khr_fp64") && !cl.supports(DType::F64) {
            continue;
        }
        silt::__private::build(info, &cl).unwrap_or_else(|e| panic!("{}: {e}", info.name()));
    }
    assert_eq!(transpose::TYPES, [DType::F32, DType::I32, DType::F16]);
    assert_eq!(places::NAME, "places");
}

/// `clang-15 -x cl -cl-std=CL1.2 -fsyntax-only -Werror`: every grid program,
/// with no warning at all (a `const` dropped, an unused value).
#[test]
fn clang_accepts_every_grid_program_without_a_warning() {
    use std::process::Command;
    let clang = ["clang-15", "clang"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let Some(clang) = clang else {
        assert!(!common::under_ci(), "CI=true but clang-15 is not installed");
        eprintln!("SKIPPED: clang-15 not installed");
        return;
    };
    let dir = std::env::temp_dir().join(format!("silt-grid-clang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let infos = every_instantiation();
    let mut checked = 0;
    for (i, info) in infos.into_iter().enumerate() {
        let path = dir.join(format!("{}_{i}.cl", info.name()));
        std::fs::write(&path, info.source()).unwrap();
        let out = Command::new(clang)
            .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Werror"])
            .args(["-Xclang", "-finclude-default-header"])
            .args(["-Xclang", "-cl-ext=-cl_khr_fp16,+cl_khr_fp64"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "clang: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            info.source()
        );
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(checked, 23);
}

#[test]
fn kernels_made_by_macro_rules_take_array_sizes_from_their_fragments() {
    let x: Vec<i32> = (1..=30).collect();
    for dev in common::devices() {
        let xt = TensorT::from_slice(&dev, &x, [30]).unwrap();
        for n in [3usize, 5] {
            let mut y = TensorT::<i32>::zeros(&dev, [30]).unwrap();
            let grid = Grid::over([30 / n]);
            if n == 3 {
                run_sums_3::launch(grid, &xt, &mut y).unwrap();
            } else {
                run_sums_5::launch(grid, &xt, &mut y).unwrap();
            }
            let want: Vec<i32> = x
                .chunks(n)
                .flat_map(|run| {
                    run.iter()
                        .rev()
                        .scan(0, |s, &v| {
                            *s += v;
                            Some(*s)
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(y.to_vec().unwrap(), want, "{dev} runs of {n}");
        }
    }
}

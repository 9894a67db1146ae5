//! No result depends on the work-group size: maps, reductions, scans and
//! strided copies launched with groups of 1, 3, 64, 1024 and 4096 work-items
//! (within the device's limit) and with the device's own choice give the same
//! bits.

use silt::prelude::*;

use super::common::opencl;
use super::defs::*;

/// `a * b + c` with a result and an in-place output.
#[kernel(types = [f32])]
fn fma_like<T>(a: T, b: T, c: &mut T) -> T {
    *c = a * b + *c;
    a - b
}

/// Everything the test launches, as bits: a map over contiguous and strided
/// views, reductions over all elements, rows and columns, scans, and a
/// strided copy.
fn everything(dev: &Device) -> Vec<Vec<u32>> {
    let n = 5000 * 3 + 17;
    let data: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1013) as f32 / 97.0 - 5.0)
        .collect();
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    let x = TensorT::from_slice(dev, &data, [n]).unwrap();
    let m = TensorT::from_slice(dev, &data[..15_000], [3, 5000]).unwrap();
    let mut out = Vec::new();
    let mut c = TensorT::from_slice(dev, &data, [n]).unwrap();
    let r = fma_like::launch(&x, &x, &mut c).unwrap();
    out.push(bits(r.to_vec().unwrap()));
    out.push(bits(c.to_vec().unwrap()));
    let t = m.transpose(0, 1).unwrap();
    let mut ct = TensorT::<f32>::zeros(dev, [5000, 3]).unwrap();
    let rt = fma_like::launch(&t, &t, &mut ct).unwrap();
    out.push(bits(rt.to_vec().unwrap()));
    out.push(bits(ct.to_vec().unwrap()));
    // a batch of small transposed matrices: the work-group's third
    // dimension takes the room, padded
    let batch = TensorT::from_slice(dev, &data[..1001 * 9], [1001, 3, 3]).unwrap();
    let bt = batch.transpose(1, 2).unwrap();
    let mut cb = TensorT::<f32>::zeros(dev, [1001, 3, 3]).unwrap();
    let rb = fma_like::launch(&bt, &batch, &mut cb).unwrap();
    out.push(bits(rb.to_vec().unwrap()));
    out.push(bits(cb.to_vec().unwrap()));
    out.push(bits(bt.contiguous().unwrap().to_vec().unwrap()));
    for axes in [Axes::all(), Axes::of([0]), Axes::of([1])] {
        out.push(bits(sum_sq::launch(&m, axes).unwrap().to_vec().unwrap()));
        out.push(bits(sum_sq::launch(&t, axes).unwrap().to_vec().unwrap()));
    }
    out.push(bits(
        sum::launch(&x, Axes::all()).unwrap().to_vec().unwrap(),
    ));
    for axis in [0, 1] {
        out.push(bits(
            running_sum::launch(&m, axis).unwrap().to_vec().unwrap(),
        ));
        out.push(bits(
            running_sum::launch(&t, axis).unwrap().to_vec().unwrap(),
        ));
    }
    out.push(bits(running_sum::launch(&x, 0).unwrap().to_vec().unwrap()));
    // a scan down columns in two chunks, taken on a CPU in blocks of rows
    // (from rows 0, 16 and 24 of each run of 40)
    let cols: Vec<f32> = (0..1100 * 40).map(|i| data[i % n]).collect();
    let c = TensorT::from_slice(dev, &cols, [1100, 40]).unwrap();
    out.push(bits(running_sum::launch(&c, 0).unwrap().to_vec().unwrap()));
    out.push(bits(t.contiguous().unwrap().to_vec().unwrap()));
    out
}

#[test]
fn no_result_depends_on_the_work_group_size() {
    let Some(dev) = opencl() else { return };
    let want = everything(&dev);
    let max = dev.info().max_work_group_size;
    for local in [1, 3, 64, 1024, 4096].into_iter().filter(|&l| l <= max) {
        silt::__testing::local_size(Some(local));
        let got = everything(&dev);
        silt::__testing::local_size(None);
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(g == w, "result {i} differs with work-groups of {local}");
        }
    }
    // and the host computes the same
    assert_eq!(everything(&Device::host()), want);
}

/// `a * b + i` for element `i`: the `#[index]` of a strided launch is the
/// element's row-major place in the launch's shape.
#[kernel(types = [f32])]
fn mul_at<T>(#[index] i: u64, a: T, b: T) -> T {
    a * b + (i % 1024) as T
}

/// Maps over views of every layout the strided launch grid handles (see
/// `silt_abi::opencl::strided_indices`): one to five coalesced dimensions,
/// narrow and wide innermost ones, broadcasts in each place, and grids of
/// more than 65,535 work-groups in their second or third dimension (enqueued
/// in parts), each against the host's bits.
#[test]
fn strided_maps_of_every_layout_match_the_host() {
    let Some(dev) = opencl() else { return };
    let host = Device::host();
    let n = 280_000;
    let data: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1013) as f32 / 97.0 - 5.0)
        .collect();
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    // (what, shape of the stored tensor, how to view it, the other operand's shape)
    type View = fn(&Tensor) -> Tensor;
    type Case = (&'static str, Vec<usize>, View, Vec<usize>);
    let cases: Vec<Case> = vec![
        (
            "a stepped slice (1 dimension)",
            vec![n],
            |t| t.slice(0, 1, 9_000, 3).unwrap(),
            vec![9_000],
        ),
        (
            "a transpose",
            vec![300, 700],
            |t| t.transpose(0, 1).unwrap(),
            vec![700, 300],
        ),
        (
            "a narrow transpose",
            vec![3, 70_000],
            |t| t.transpose(0, 1).unwrap(),
            vec![70_000, 3],
        ),
        (
            "a broadcast column",
            vec![500, 300],
            |t| t.clone(),
            vec![500, 1],
        ),
        ("a broadcast row", vec![500, 300], |t| t.clone(), vec![300]),
        (
            "the middle broadcast (3 dimensions)",
            vec![7, 40, 300],
            |t| t.clone(),
            vec![7, 1, 300],
        ),
        (
            "4 dimensions",
            vec![3, 5, 7, 11],
            |t| t.permute(&[2, 0, 3, 1]).unwrap(),
            vec![7, 1, 11, 1],
        ),
        (
            "5 dimensions",
            vec![2, 3, 4, 5, 6],
            |t| t.permute(&[4, 2, 0, 3, 1]).unwrap(),
            vec![6, 4, 1, 5, 3],
        ),
        // third dimension: 70,000 (with work-groups of one, below)
        (
            "70,000 in the third dimension",
            vec![2, 2, 70_000],
            |t| t.permute(&[2, 1, 0]).unwrap(),
            vec![70_000, 2, 2],
        ),
    ];
    // `mul_at` of the case's view and other operand on `d`, as bits
    let run = |d: &Device, (_, stored, view, other): &Case| {
        let len: usize = stored.iter().product();
        let olen: usize = other.iter().product();
        let a = view(&Tensor::from_slice(d, &data[..len], stored.clone()).unwrap());
        let b = Tensor::from_slice(d, &data[n - olen..], other.clone()).unwrap();
        let a = a.into_typed::<f32>().unwrap();
        let b = b.into_typed::<f32>().unwrap();
        bits(mul_at::launch(&a, &b).unwrap().to_vec().unwrap())
    };
    for case in &cases {
        assert!(
            run(&dev, case) == run(&host, case),
            "{}: the device differs from the host",
            case.0
        );
    }
    // work-groups of one: 70,000 of them in the second dimension (the
    // narrow transpose) and in the third
    for case in [&cases[2], &cases[8]] {
        silt::__testing::local_size(Some(1));
        let got = run(&dev, case);
        silt::__testing::local_size(None);
        assert!(
            got == run(&host, case),
            "{} with groups of 1: the device differs from the host",
            case.0
        );
    }
}

/// `y = a * 2 + y + 1`, in place (an element written by mistake changes,
/// whatever `a` reads there).
#[kernel(types = [f32])]
fn twice_into<T>(a: T, y: &mut T) {
    *y = a * 2.0 + *y + 1.0;
}

/// Batches of small matrices, viewed transposed: two narrow inner dimensions,
/// so the launch's work-groups take the rest of the dimensions in their third
/// (padded, not a divisor of it). Written in place into narrowed views of
/// larger tensors, through the three-dimensional entry and the general one:
/// the work-items past the views' end must write nothing, so the whole
/// storage is compared with the host's.
#[test]
fn batches_of_small_matrices_write_only_their_elements() {
    let Some(dev) = opencl() else { return };
    let host = Device::host();
    // (the stored tensor's shape, the view written, the other operand's shape)
    type View = fn(&TensorT<f32>) -> TensorT<f32>;
    let cases: [(Vec<usize>, View, Vec<usize>); 4] = [
        // three dimensions: [1001, 3, 3] transposed, in a [1100, 3, 3]
        (
            vec![1100, 3, 3],
            |t| t.narrow(0, 0, 1001).unwrap().transpose(1, 2).unwrap(),
            vec![1001, 3, 3],
        ),
        // a large batch: the wide groups on a CPU
        (
            vec![40_000, 3, 3],
            |t| t.narrow(0, 0, 39_999).unwrap().transpose(1, 2).unwrap(),
            vec![39_999, 3, 3],
        ),
        // four dimensions that do not coalesce (the general entry)
        (
            vec![1100, 4, 3, 3],
            |t| {
                let v = t.narrow(0, 0, 1001).unwrap().narrow(1, 0, 3).unwrap();
                v.transpose(2, 3).unwrap()
            },
            vec![1001, 3, 3, 3],
        ),
        // a broadcast operand, one row of 5 of each [7, 5] matrix
        (
            vec![3000, 5, 7],
            |t| t.narrow(0, 0, 2999).unwrap().transpose(1, 2).unwrap(),
            vec![2999, 1, 5],
        ),
    ];
    let run = |d: &Device, (stored, view, other): &(Vec<usize>, View, Vec<usize>)| {
        let len: usize = stored.iter().product();
        let olen: usize = other.iter().product();
        let start: Vec<f32> = (0..len).map(|i| (i % 1013) as f32 - 500.0).collect();
        let y = TensorT::from_slice(d, &start, stored.clone()).unwrap();
        let a: Vec<f32> = (0..olen).map(|i| (i % 89) as f32 * 0.25).collect();
        let a = TensorT::from_slice(d, &a, other.clone()).unwrap();
        let mut v = view(&y);
        twice_into::launch(&a, &mut v).unwrap();
        y.to_vec()
            .unwrap()
            .into_iter()
            .map(f32::to_bits)
            .collect::<Vec<_>>()
    };
    for case in &cases {
        assert!(
            run(&dev, case) == run(&host, case),
            "{:?}: the device's storage differs from the host's",
            case.0
        );
    }
}

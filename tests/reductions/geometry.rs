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
    out.push(bits(t.contiguous().unwrap().to_vec().unwrap()));
    out
}

#[test]
fn no_result_depends_on_the_work_group_size() {
    let Some(dev) = opencl() else { return };
    let want = everything(&dev);
    let max = dev.info().max_work_group_size;
    for local in [1, 3, 64, 1024, 4096].into_iter().filter(|&l| l <= max) {
        Device::__local_size(Some(local));
        let got = everything(&dev);
        Device::__local_size(None);
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(g == w, "result {i} differs with work-groups of {local}");
        }
    }
    // and the host computes the same
    assert_eq!(everything(&Device::host()), want);
}

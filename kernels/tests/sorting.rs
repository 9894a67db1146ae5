//! `sort`, `argsort` and `topk` against a reference written here (Rust's
//! stable `sort_by` with PyTorch's order: NaN larger than every number,
//! `-0.0` equal to `0.0`), on the host and on the OpenCL device, with the same
//! bits and indices on both: short rows, rows of several blocks (merged on a
//! device), every dimension of 3-d tensors, views, every element type, and
//! the edge cases (empty, one element, NaN, signed zeros, ties, sorted
//! input, `k` of 0 and of the whole row, errors). On the device, sorts run
//! both mappings (`silt::__testing::reduce_as`): a CPU's (an insertion sort
//! a work-item a row up to 256, the radix sort past that) and a GPU's (the
//! merge sort).
#![allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]

#[path = "../../tests/common/mod.rs"]
mod common;

use std::cmp::Ordering;

use silt::prelude::*;
use silt::{f16, DeviceKind, Tensor};
use silt_kernels as k;

/// PyTorch's order of two elements, ascending: NaN (`x != x`) after every
/// number, NaNs equal.
fn order<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    #[allow(clippy::eq_op)]
    match (a != a, b != b) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
    }
}

/// The reference sort of row-major `x` of `shape` along `d`: values and
/// indices, by a stable sort of each row.
fn reference<T: PartialOrd + Copy>(
    x: &[T],
    shape: &[usize],
    d: usize,
    desc: bool,
) -> (Vec<T>, Vec<i64>) {
    let n = shape[d];
    let inner: usize = shape[d + 1..].iter().product();
    let outer: usize = shape[..d].iter().product();
    let (mut values, mut indices) = (x.to_vec(), vec![0i64; x.len()]);
    for o in 0..outer {
        for i in 0..inner {
            let at = |p: usize| o * n * inner + p * inner + i;
            let mut row: Vec<(T, i64)> = (0..n).map(|p| (x[at(p)], p as i64)).collect();
            row.sort_by(|a, b| {
                let c = order(&a.0, &b.0);
                if desc {
                    c.reverse()
                } else {
                    c
                }
            });
            for (p, (v, ix)) in row.into_iter().enumerate() {
                values[at(p)] = v;
                indices[at(p)] = ix;
            }
        }
    }
    (values, indices)
}

/// `n` elements from a pool of `pool` values (many ties), through `make`.
fn data<T>(n: usize, pool: i64, seed: u64, make: impl Fn(i64) -> T) -> Vec<T> {
    let mut rng = common::Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            make((s >> 33) as i64 % pool)
        })
        .collect()
}

/// Floats with NaNs, both zeros, infinities and ties, from a pool index.
fn special(v: i64) -> f32 {
    match v {
        0 => f32::NAN,
        1 => -0.0,
        2 => 0.0,
        3 => f32::INFINITY,
        4 => f32::NEG_INFINITY,
        5 => -f32::NAN,
        v => (v - 20) as f32 * 0.25,
    }
}

/// Element types compared by bits (NaN with NaN, `-0.0` apart from `0.0`).
trait Bits: Element + PartialOrd + k::sort::Sort {
    fn bits(self) -> u64;
}
macro_rules! bits_int {
    ($($t:ty),*) => {$(impl Bits for $t { fn bits(self) -> u64 { self as u64 } })*};
}
bits_int!(u8, i8, u16, i16, u32, i32, u64, i64);
impl Bits for bool {
    fn bits(self) -> u64 {
        u64::from(self)
    }
}
impl Bits for f16 {
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}
impl Bits for f32 {
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}
impl Bits for f64 {
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// The mappings a sort takes on `dev`, through the test hook: the host's
/// own; on an OpenCL device a CPU's (an insertion sort a work-item a row
/// up to 256, the radix sort past that) and a GPU's (blocks of 256 in
/// work-group memory, merged).
fn mappings(dev: &Device, _: usize) -> Vec<Option<DeviceKind>> {
    if dev.is_host() {
        vec![None]
    } else {
        vec![Some(DeviceKind::Cpu), Some(DeviceKind::Gpu)]
    }
}

/// The mapping of a CPU alone (on the host, the host's).
fn cpu_mapping(dev: &Device, _: usize) -> Vec<Option<DeviceKind>> {
    if dev.is_host() {
        vec![None]
    } else {
        vec![Some(DeviceKind::Cpu)]
    }
}

/// Sorts `x` of `shape` along every dimension, both ways, on every device
/// (every mapping), against the reference; `argsort` gives the same
/// indices.
fn check<T: Bits>(x: &[T], shape: &[usize]) {
    check_with(x, shape, mappings);
}

/// [`check`] with the mappings `kinds` gives for a device and a row length.
fn check_with<T: Bits>(
    x: &[T],
    shape: &[usize],
    kinds: fn(&Device, usize) -> Vec<Option<DeviceKind>>,
) {
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, x, shape).unwrap();
        for d in 0..shape.len().max(1) {
            for (kind, desc) in kinds(&dev, shape.get(d).copied().unwrap_or(1))
                .into_iter()
                .flat_map(|k| [(k, false), (k, true)])
            {
                silt::__testing::reduce_as(kind);
                let (rv, ri) = if shape.is_empty() {
                    (x.to_vec(), vec![0])
                } else {
                    reference(x, shape, d, desc)
                };
                let dim = if d % 2 == 1 {
                    d as isize - shape.len() as isize
                } else {
                    d as isize
                };
                let (v, i) = k::sort::launch(&t, dim, desc).unwrap();
                let what = format!(
                    "{} {shape:?} along {d}, descending {desc} on {dev} as {kind:?}",
                    T::DTYPE
                );
                assert_eq!(v.shape(), shape, "{what}");
                assert_eq!(i.to_vec().unwrap(), ri, "{what}");
                let bits = |v: Vec<T>| v.into_iter().map(Bits::bits).collect::<Vec<_>>();
                assert_eq!(bits(v.to_vec().unwrap()), bits(rv), "{what}");
                // `argsort` once per tensor descending, and ascending too
                // for small ones (NaN and ties among them; a launch is slow
                // on Oclgrind: ascending for every tensor cost the sorting
                // step 54 s there)
                if d == 0 && (desc || x.len() <= 64) {
                    let a = k::argsort::launch(&t, dim, desc).unwrap();
                    assert_eq!(a.to_vec().unwrap(), ri, "argsort {what}");
                }
                silt::__testing::reduce_as(None);
            }
        }
    }
}

#[test]
fn floats_with_nan_signed_zeros_and_ties() {
    // short rows (many per work-group), one block of 256, blocks merged
    for (n, seed) in [(1, 1), (2, 2), (5, 3), (33, 4), (256, 5), (300, 6)] {
        check(&data(n, 40, seed, special), &[n]);
    }
    check(&data(2 * 3 * 7, 40, 7, special), &[2, 3, 7]);
    // two merges (an even count: the blocks go straight to the results)
    check(&data(2 * 600, 40, 8, special), &[2, 600]);
}

#[test]
fn rows_merged_twice_and_more() {
    // blocks of 256 merged into 512, 1024, then a run of 1024 and one of 300
    check(&data(1324, 50, 9, special), &[1324]);
    check(&data(2 * 300, 9, 10, |v| v as i32 - 4), &[2, 300]);
    // other types across a merge: 1-byte, 2-byte and 8-byte elements
    check(&data(300, 2, 24, |v| v == 1), &[300]);
    check(&data(300, 40, 25, |v| f16::from_f32(special(v))), &[300]);
    check(&data(300, 40, 26, |v| v as u64 * (u64::MAX / 40)), &[300]);
}

#[test]
fn every_element_type() {
    let shape = [2, 9];
    let n = 2 * 9;
    check(&data(n, 2, 11, |v| v == 1), &shape);
    check(&data(n, 20, 12, |v| v as u8 * 13), &shape);
    check(&data(n, 20, 13, |v| (v - 10) as i8 * 12), &shape);
    check(&data(n, 20, 14, |v| v as u16 * 3000), &shape);
    check(&data(n, 20, 15, |v| (v - 10) as i16 * 3000), &shape);
    check(&data(n, 20, 16, |v| v as u32 * 200_000_000), &shape);
    check(&data(n, 20, 17, |v| (v - 10) as i32 * 200_000_000), &shape);
    check(&data(n, 20, 18, |v| v as u64 * (u64::MAX / 20)), &shape);
    check(&data(n, 20, 19, |v| (v - 10) * (i64::MAX / 10)), &shape);
    check(&data(n, 40, 20, |v| f16::from_f32(special(v))), &shape);
    check(&data(n, 40, 21, |v| f64::from(special(v)) + 1e-12), &shape);
}

/// Rows past a block in every element type (on a CPU device, radix sorts
/// of one to eight passes; the merge sort of such rows is checked for
/// several types above), with ties, NaNs and both zeros, both ways.
#[test]
fn every_element_type_in_long_rows() {
    let n = 300;
    check_with(&data(n, 2, 31, |v| v == 1), &[n], cpu_mapping);
    check_with(&data(n, 200, 32, |v| v as u8), &[n], cpu_mapping);
    check_with(&data(n, 200, 33, |v| (v - 100) as i8), &[n], cpu_mapping);
    check_with(&data(n, 60, 34, |v| v as u16 * 1000), &[n], cpu_mapping);
    check_with(
        &data(n, 60, 35, |v| (v - 30) as i16 * 1000),
        &[n],
        cpu_mapping,
    );
    check_with(
        &data(n, 50, 36, |v| v as u32 * 80_000_000),
        &[n],
        cpu_mapping,
    );
    check_with(
        &data(n, 50, 37, |v| (v - 25) as i32 * 80_000_000),
        &[n],
        cpu_mapping,
    );
    check_with(
        &data(n, 50, 38, |v| v as u64 * (u64::MAX / 50)),
        &[n],
        cpu_mapping,
    );
    check_with(
        &data(n, 50, 39, |v| (v - 25) * (i64::MAX / 25)),
        &[n],
        cpu_mapping,
    );
    check_with(
        &data(n, 40, 40, |v| f16::from_f32(special(v))),
        &[n],
        cpu_mapping,
    );
    check_with(
        &data(n, 40, 41, |v| f64::from(special(v)) * 1e300),
        &[n],
        cpu_mapping,
    );
    // keys that differ only in their high byte
    check_with(
        &data(n, 50, 42, |v| ((v as u32) << 24) | 7),
        &[n],
        cpu_mapping,
    );
    // many rows, of a block and less along the first dimension
    check_with(&data(9 * 290, 40, 44, special), &[9, 290], cpu_mapping);
}

#[test]
fn edge_cases() {
    // empty, along an empty dimension and along another
    check::<f32>(&[], &[0]);
    check::<f32>(&[], &[3, 0]);
    // one element, 0-d
    check(&[7.0f32], &[1]);
    check(&[7.0f32], &[]);
    // all equal (stable: the indices in order, both ways), both zeros
    check(&[2i32; 40], &[40]);
    check(&[2i32; 300], &[300]);
    check(&[0.0f32, -0.0, 0.0, -0.0, f32::NAN, -0.0], &[6]);
    // already sorted, and reversed
    let up: Vec<f64> = (0..300).map(f64::from).collect();
    check(&up, &[300]);
    let down: Vec<f64> = up.iter().rev().copied().collect();
    check(&down, &[300]);
    // topk of nothing (k = 0) and of one element (k = 1 and 0), both ways,
    // as PyTorch: the values and indices of the reference sort's head
    for dev in common::devices() {
        for kind in mappings(&dev, 1) {
            silt::__testing::reduce_as(kind);
            for largest in [true, false] {
                let what = format!("{dev} as {kind:?}, largest {largest}");
                let topk = |x: &[f32], shape: &[usize], kk: usize, dim: isize| {
                    let t = TensorT::from_slice(&dev, x, shape).unwrap();
                    let (v, i) = k::topk::launch(&t, kk, dim, largest, true).unwrap();
                    assert_eq!(v.shape(), i.shape(), "{what}");
                    let bits: Vec<u32> = v.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
                    (v.shape().to_vec(), bits, i.to_vec().unwrap())
                };
                assert_eq!(topk(&[], &[0], 0, 0), (vec![0], vec![], vec![]), "{what}");
                assert_eq!(
                    topk(&[], &[3, 0], 0, 1),
                    (vec![3, 0], vec![], vec![]),
                    "{what}"
                );
                assert_eq!(
                    topk(&[], &[3, 0], 2, 0),
                    (vec![2, 0], vec![], vec![]),
                    "{what}"
                );
                // rows of one element (one launch for them all: launches
                // are slow on Oclgrind), alone, and 0-d
                let ones = [7.0f32, -0.0, f32::NAN, f32::NEG_INFINITY];
                let b: Vec<u32> = ones.iter().map(|v| v.to_bits()).collect();
                assert_eq!(
                    topk(&ones, &[4, 1], 1, 1),
                    (vec![4, 1], b.clone(), vec![0; 4]),
                    "{what}"
                );
                assert_eq!(
                    topk(&ones, &[4, 1], 0, -1),
                    (vec![4, 0], vec![], vec![]),
                    "{what}"
                );
                assert_eq!(
                    topk(&ones[2..3], &[1], 1, 0),
                    (vec![1], vec![b[2]], vec![0]),
                    "{what}"
                );
                assert_eq!(
                    topk(&ones[2..3], &[1], 0, 0),
                    (vec![0], vec![], vec![]),
                    "{what}"
                );
                assert_eq!(
                    topk(&ones[..1], &[], 1, 0),
                    (vec![], vec![b[0]], vec![0]),
                    "{what}"
                );
                // k past the length: an error, for an empty row too
                let e = TensorT::<f32>::zeros(&dev, [0]).unwrap();
                assert!(
                    matches!(
                        k::topk::launch(&e, 1, 0, largest, true),
                        Err(Error::InvalidArgument { op: "topk", .. })
                    ),
                    "{what}"
                );
                let s = TensorT::from_slice(&dev, &[1.0f32], []).unwrap();
                assert!(
                    matches!(
                        k::topk::launch(&s, 2, 0, largest, true),
                        Err(Error::InvalidArgument { op: "topk", .. })
                    ),
                    "{what}"
                );
            }
            silt::__testing::reduce_as(None);
        }
    }
}

#[test]
fn views_are_sorted_in_place() {
    for dev in common::devices() {
        let x = data(4 * 5 * 6, 30, 22, special);
        let t = TensorT::from_slice(&dev, &x, [4, 5, 6]).unwrap();
        // a transpose (rows strided) and a narrowed view
        let tt = t.transpose(0, 2).unwrap();
        let c = tt.contiguous().unwrap();
        for dim in [0, 1, 2] {
            let (v, i) = k::sort::launch(&tt, dim, false).unwrap();
            let (cv, ci) = k::sort::launch(&c, dim, false).unwrap();
            assert_eq!(i.to_vec().unwrap(), ci.to_vec().unwrap(), "{dev} {dim}");
            let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
            assert_eq!(bits(v.to_vec().unwrap()), bits(cv.to_vec().unwrap()));
        }
        let nw = t.narrow(2, 1, 4).unwrap();
        let (_, i) = k::sort::launch(&nw, -1, true).unwrap();
        let (_, ci) = k::sort::launch(&nw.contiguous().unwrap(), -1, true).unwrap();
        assert_eq!(i.to_vec().unwrap(), ci.to_vec().unwrap());
        // a broadcast input
        let row = TensorT::from_slice(&dev, &[3i64, 1, 2], [1, 3]).unwrap();
        let b = row.broadcast_to([2, 3]).unwrap();
        let (v, i) = k::sort::launch(&b, 1, false).unwrap();
        assert_eq!(v.to_vec().unwrap(), [1, 2, 3, 1, 2, 3]);
        assert_eq!(i.to_vec().unwrap(), [1, 2, 0, 1, 2, 0]);
        // rows past a block, strided (a transpose) and narrowed, on every
        // mapping, against the reference
        let x = data(3 * 600, 30, 46, special);
        let t = TensorT::from_slice(&dev, &x, [3, 600]).unwrap();
        let tt = t.transpose(0, 1).unwrap();
        let xt = tt.contiguous().unwrap().to_vec().unwrap();
        let nw = t.narrow(1, 5, 400).unwrap();
        let xn = nw.contiguous().unwrap().to_vec().unwrap();
        let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        for kind in mappings(&dev, 600) {
            silt::__testing::reduce_as(kind);
            let (v, i) = k::sort::launch(&tt, 0, false).unwrap();
            let (rv, ri) = reference(&xt, &[600, 3], 0, false);
            assert_eq!(i.to_vec().unwrap(), ri, "{dev} {kind:?}");
            assert_eq!(bits(v.to_vec().unwrap()), bits(rv), "{dev} {kind:?}");
            let (v, i) = k::sort::launch(&nw, -1, true).unwrap();
            let (rv, ri) = reference(&xn, &[3, 400], 1, true);
            assert_eq!(i.to_vec().unwrap(), ri, "{dev} {kind:?}");
            assert_eq!(bits(v.to_vec().unwrap()), bits(rv), "{dev} {kind:?}");
            silt::__testing::reduce_as(None);
        }
    }
}

#[test]
fn topk_is_the_head_of_the_sort() {
    for dev in common::devices() {
        let x = data(3 * 50, 30, 23, special);
        let t = TensorT::from_slice(&dev, &x, [3, 50]).unwrap();
        for (kk, largest) in [(0, true), (1, true), (7, false), (50, true), (50, false)] {
            let (v, i) = k::topk::launch(&t, kk, -1, largest, true).unwrap();
            assert_eq!(v.shape(), [3, kk]);
            let (rv, ri) = reference(&x, &[3, 50], 1, largest);
            let head = |r: &[i64]| {
                r.chunks(50)
                    .flat_map(|c| c[..kk].to_vec())
                    .collect::<Vec<_>>()
            };
            assert_eq!(i.to_vec().unwrap(), head(&ri), "{dev} k={kk} {largest}");
            let got: Vec<u32> = v.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
            let want: Vec<u32> = rv
                .chunks(50)
                .flat_map(|c| c[..kk].iter().map(|v| v.to_bits()).collect::<Vec<_>>())
                .collect();
            assert_eq!(got, want);
        }
        // along dimension 0, NaN the largest
        let x = TensorT::from_slice(&dev, &[1.0f32, f32::NAN, 5.0, 2.0], [4]).unwrap();
        let (v, i) = k::topk::launch(&x, 2, 0, true, false).unwrap();
        assert!(v.to_vec().unwrap()[0].is_nan());
        assert_eq!(i.to_vec().unwrap(), [1, 2]);
        let (_, i) = k::topk::launch(&x, 3, 0, false, true).unwrap();
        assert_eq!(i.to_vec().unwrap(), [0, 3, 2]);
    }
}

/// The first `kk` along `d` of row-major `r` of `shape`, as a contiguous
/// tensor of `shape` with `kk` along `d` lists them.
fn head_along<T: Copy>(r: &[T], shape: &[usize], d: usize, kk: usize) -> Vec<T> {
    let inner: usize = shape[d + 1..].iter().product();
    let outer: usize = shape[..d].iter().product();
    let n = shape[d];
    let mut out = Vec::with_capacity(outer * kk * inner);
    for o in 0..outer {
        for p in 0..kk {
            for i in 0..inner {
                out.push(r[o * n * inner + p * inner + i]);
            }
        }
    }
    out
}

/// `topk` of rows longer than a block (on a device: a GPU's blocks cut to
/// `k`, then merges cut to `k`, never a whole sort; a CPU's radix sort cut)
/// against the head of the reference sort: lengths around the block of 256
/// and its multiples, `k` from 1 to 256, along each dimension, many ties
/// and NaNs, a view.
#[test]
fn topk_of_long_rows_is_the_head_of_the_sort() {
    for (dev, kind) in common::devices().into_iter().flat_map(|dev| {
        mappings(&dev, 257)
            .into_iter()
            .map(move |k| (dev.clone(), k))
    }) {
        silt::__testing::reduce_as(kind);
        // a CPU's `topk` is the radix sort cut, checked with `sort`: two
        // cases here (launches are slow on Oclgrind)
        let cases = if kind == Some(DeviceKind::Cpu) { 2 } else { 7 };
        for (shape, d, kk, largest) in [
            (vec![2, 257], 1, 1, true),
            (vec![2, 300], 1, 37, false),
            (vec![3, 1000], 1, 256, true),
            (vec![3, 1000], 1, 200, false),
            (vec![1, 4096 + 5], 1, 64, true),
            (vec![1300, 3], 0, 100, true),
            (vec![2, 700, 2], 1, 129, false),
        ]
        .into_iter()
        .take(cases)
        {
            let n: usize = shape.iter().product();
            let x = data(n, 97, 41, special);
            let t = TensorT::from_slice(&dev, &x, &shape[..]).unwrap();
            let (v, i) = k::topk::launch(&t, kk, d as isize, largest, true).unwrap();
            let mut want_shape = shape.clone();
            want_shape[d] = kk;
            assert_eq!(v.shape(), &want_shape[..]);
            let (rv, ri) = reference(&x, &shape, d, largest);
            let what = format!("{dev} {kind:?} {shape:?} along {d}, k={kk}, largest={largest}");
            assert_eq!(
                i.to_vec().unwrap(),
                head_along(&ri, &shape, d, kk),
                "{what}"
            );
            let bits = |v: &[f32]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&v.to_vec().unwrap()),
                bits(&head_along(&rv, &shape, d, kk)),
                "{what}"
            );
        }
        // integers, and a transposed view
        let x = data(600 * 3, 50, 7, |v| v as i32 - 25);
        let t = TensorT::from_slice(&dev, &x, [3, 600]).unwrap();
        let tt = t.transpose(0, 1).unwrap();
        let (v, i) = k::topk::launch(&tt, 10, 0, true, true).unwrap();
        let xt: Vec<i32> = (0..600)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .map(|(r, c)| x[c * 600 + r])
            .collect();
        let (rv, ri) = reference(&xt, &[600, 3], 0, true);
        assert_eq!(
            v.to_vec().unwrap(),
            head_along(&rv, &[600, 3], 0, 10),
            "{dev}"
        );
        assert_eq!(
            i.to_vec().unwrap(),
            head_along(&ri, &[600, 3], 0, 10),
            "{dev}"
        );
        silt::__testing::reduce_as(None);
    }
}

#[test]
fn errors_not_panics() {
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3]).unwrap();
        assert!(matches!(
            k::sort::launch(&t, 1, false),
            Err(Error::AxisOutOfRange { axis: 1, ndim: 1 })
        ));
        assert!(matches!(
            k::argsort::launch(&t, -2, false),
            Err(Error::AxisOutOfRange { axis: -2, .. })
        ));
        assert!(matches!(
            k::topk::launch(&t, 4, 0, true, true),
            Err(Error::InvalidArgument { op: "topk", .. })
        ));
        assert!(matches!(
            k::topk::launch(&t, 1, 3, true, true),
            Err(Error::AxisOutOfRange { .. })
        ));
        // dispatch picks the type
        let u = Tensor::from_slice(&dev, &[3u16, 1, 2], [3]).unwrap();
        let (v, i) = k::sort::dispatch(&u, 0, true).unwrap();
        assert_eq!(v.to_vec::<u16>().unwrap(), [3, 2, 1]);
        assert_eq!(i.to_vec::<i64>().unwrap(), [0, 2, 1]);
        assert_eq!(
            k::argsort::dispatch(&u, -1, false)
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            [1, 2, 0]
        );
        let (v, _) = k::topk::dispatch(&u, 1, 0, false, true).unwrap();
        assert_eq!(v.to_vec::<u16>().unwrap(), [1]);
    }
}

#[test]
fn a_long_row_on_the_host() {
    // sorted by several threads (rows of 2^16 and more); host only, as a
    // device's launches of this size are slow on Oclgrind
    let x = data(70_000, 1000, 27, special);
    let t = TensorT::from_slice(&Device::host(), &x, [70_000]).unwrap();
    for desc in [false, true] {
        let (rv, ri) = reference(&x, &[70_000], 0, desc);
        let (v, i) = k::sort::launch(&t, 0, desc).unwrap();
        assert_eq!(i.to_vec().unwrap(), ri);
        let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        assert_eq!(bits(v.to_vec().unwrap()), bits(rv));
    }
}

/// Sorts `x` (one long row, and two rows of it along the first dimension)
/// on the host both ways and compares values (by bits) and indices with the
/// reference.
fn check_host_long<T: Bits>(x: &[T]) {
    let n = x.len();
    let host = Device::host();
    let mut twice = x.to_vec();
    twice.extend(x.iter().rev());
    for (data, shape, d) in [(x.to_vec(), vec![n], 0), (twice, vec![2, n], 1)] {
        let t = TensorT::from_slice(&host, &data, &shape).unwrap();
        for desc in [false, true] {
            let (rv, ri) = reference(&data, &shape, d, desc);
            let (v, i) = k::sort::launch(&t, d as isize, desc).unwrap();
            let what = format!("{} {shape:?} desc {desc}", T::DTYPE);
            assert_eq!(i.to_vec().unwrap(), ri, "{what}");
            let bits = |v: Vec<T>| v.into_iter().map(Bits::bits).collect::<Vec<_>>();
            assert_eq!(bits(v.to_vec().unwrap()), bits(rv), "{what}");
        }
    }
}

#[test]
fn long_rows_of_every_narrow_type_on_the_host() {
    // rows of 2^16 and more: the bucket sort by several threads for
    // elements of up to 32 bits (bins fuller than a bucket among them: the
    // bools', the narrow integers'), Rust's sort for wider ones; each sort's
    // results and scratch come from the pool with the last one's bytes
    let n = 70_000;
    check_host_long(&data(n, 2, 51, |v| v == 1));
    check_host_long(&data(n, 200, 52, |v| v as u8));
    check_host_long(&data(n, 200, 53, |v| (v - 100) as i8));
    check_host_long(&data(n, 60_000, 54, |v| v as u16));
    check_host_long(&data(n, 60_000, 55, |v| (v - 30_000) as i16));
    check_host_long(&data(n, 1 << 30, 56, |v| (v as u32) << 2));
    check_host_long(&data(n, 1 << 30, 57, |v| (v - (1 << 29)) as i32 * 3));
    check_host_long(&data(n, 40, 58, |v| f16::from_f32(special(v))));
    check_host_long(&data(n, 5000, 59, special));
    check_host_long(&data(n, 50, 60, |v| f64::from(special(v))));
    // digits the same for the whole row (their passes skipped): keys that
    // differ in their high byte alone, and in their low byte alone
    check_host_long(&data(n, 50, 61, |v| ((v as u32) << 24) | 7));
    check_host_long(&data(n, 50, 62, |v| 0x1234_5600 | v as u32));
}

// ---- searchsorted ----

/// The place of `v` in sorted `seq` (no NaN) by its definition rather than
/// by bisection: the number of elements smaller than `v` (`right`: not
/// larger); a NaN `v` goes after every element.
fn count_place<T: PartialOrd>(seq: &[T], v: &T, right: bool) -> i64 {
    #[allow(clippy::eq_op)]
    if v != v {
        return seq.len() as i64;
    }
    seq.iter()
        .filter(|e| if right { *e <= v } else { *e < v })
        .count() as i64
}

/// `searchsorted` of `values` (row-major, `vshape`) in `seq` (sorted rows,
/// `sshape`) on every device, both sides, against [`count_place`]; `seq` and
/// `values` also as transposed views of their transposes.
fn check_searchsorted<T: Bits>(seq: &[T], sshape: &[usize], values: &[T], vshape: &[usize]) {
    let n = *sshape.last().unwrap();
    let m = vshape.last().copied().unwrap_or(1);
    let one = sshape.len() == 1;
    for dev in common::devices() {
        let s = TensorT::from_slice(&dev, seq, sshape).unwrap();
        let v = TensorT::from_slice(&dev, values, vshape).unwrap();
        for right in [false, true] {
            let want: Vec<i64> = values
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let r = if one { 0 } else { i / m };
                    count_place(&seq[r * n..(r + 1) * n], x, right)
                })
                .collect();
            let got = k::searchsorted::launch(&s, &v, right, None).unwrap();
            assert_eq!(got.shape(), vshape, "{dev}");
            assert_eq!(
                got.to_vec().unwrap(),
                want,
                "{dev} right={right} {sshape:?} {vshape:?}"
            );
            // the same through strided views (2-d: the transpose of a transpose)
            if sshape.len() == 2 && vshape.len() == 2 {
                let st = TensorT::from_slice(&dev, &transposed(seq, sshape), [n, sshape[0]])
                    .unwrap()
                    .transpose(0, 1)
                    .unwrap();
                let vt = TensorT::from_slice(&dev, &transposed(values, vshape), [m, vshape[0]])
                    .unwrap()
                    .transpose(0, 1)
                    .unwrap();
                assert!(!st.is_contiguous() && !vt.is_contiguous());
                let got = k::searchsorted::launch(&st, &vt, right, None).unwrap();
                assert_eq!(got.to_vec().unwrap(), want, "{dev} views right={right}");
            }
        }
    }
}

/// The row-major elements of the transpose of a 2-d `x` of `shape`.
fn transposed<T: Copy>(x: &[T], shape: &[usize]) -> Vec<T> {
    let (r, c) = (shape[0], shape[1]);
    (0..c)
        .flat_map(|j| (0..r).map(move |i| x[i * c + j]))
        .collect()
}

/// Rows of `n` sorted elements of the pool `0..pool` (ties), through `make`.
fn sorted_rows<T: PartialOrd + Copy>(
    rows: usize,
    n: usize,
    pool: i64,
    seed: u64,
    make: impl Fn(i64) -> T,
) -> Vec<T> {
    let mut out = data(rows * n, pool, seed, make);
    for row in out.chunks_mut(n.max(1)) {
        row.sort_by(|a, b| a.partial_cmp(b).unwrap());
    }
    out
}

#[test]
fn searchsorted_places_values_in_sorted_sequences() {
    // one sequence for every value: values past both ends and equal to
    // elements (a pool wider than the sequence's)
    let seq = sorted_rows(1, 37, 30, 1, |v| v as f32 * 0.5);
    let vals = data(5 * 7, 40, 2, |v| (v - 5) as f32 * 0.5);
    check_searchsorted(&seq, &[37], &vals, &[5, 7]);
    check_searchsorted(&seq, &[37], &vals[..1], &[]);
    // a sequence a row: [3, n] beside [3, m], and 3-d
    let seq = sorted_rows(3, 300, 200, 3, |v| v as f64 - 50.0);
    let vals = data(3 * 9, 260, 4, |v| v as f64 - 80.0);
    check_searchsorted(&seq, &[3, 300], &vals, &[3, 9]);
    check_searchsorted(&seq, &[3, 1, 300], &vals, &[3, 1, 9]);
    // every element type (as the sort's), with ties and both ends
    fn each<T: Bits>(make: impl Fn(i64) -> T + Copy) {
        let seq = sorted_rows(2, 65, 50, 5, make);
        let vals = data(2 * 11, 60, 6, make);
        check_searchsorted(&seq, &[2, 65], &vals, &[2, 11]);
        check_searchsorted(&seq[..65], &[65], &vals, &[22]);
    }
    each(|v| v as u8);
    each(|v| (v - 30) as i8);
    each(|v| v as u16 * 1000);
    each(|v| (v - 30) as i16);
    each(|v| v as u32 * 70_000_000);
    each(|v| (v - 30) as i32 * 1_000_000);
    each(|v| (v as u64) << 40);
    each(|v| (v - 30) << 40);
    each(|v| f16::from_f32((v - 30) as f32 * 0.125));
    each(|v| (v - 30) as f32 * 1e-3);
    each(|v| (v - 30) as f64 * 1e300);
}

#[test]
fn searchsorted_nan_zeros_empty_and_sorter() {
    for dev in common::devices() {
        let t = |x: &[f32]| TensorT::from_slice(&dev, x, [x.len()]).unwrap();
        let places = |s: &TensorT<f32>, v: &TensorT<f32>, right| {
            k::searchsorted::launch(s, v, right, None)
                .unwrap()
                .to_vec()
                .unwrap()
        };
        // NaN values go after every element; -0.0 equals 0.0; infinities
        let s = t(&[f32::NEG_INFINITY, -1.0, 0.0, 0.0, 2.0, f32::INFINITY]);
        let v = t(&[f32::NAN, -0.0, 0.0, f32::INFINITY, f32::NEG_INFINITY]);
        assert_eq!(places(&s, &v, false), [6, 2, 2, 5, 0], "{dev}");
        assert_eq!(places(&s, &v, true), [6, 4, 4, 6, 1], "{dev}");
        // a sequence with NaN at its end (where a sort puts it): PyTorch's
        // bisection moves right past a NaN it meets (`!(NaN >= v)`), so
        // 1.5 in [1, 2, NaN, NaN] lands at 4, in [1, 2, 3, NaN] at 1
        let v = t(&[1.5]);
        assert_eq!(
            places(&t(&[1.0, 2.0, f32::NAN, f32::NAN]), &v, false),
            [4],
            "{dev}"
        );
        assert_eq!(
            places(&t(&[1.0, 2.0, 3.0, f32::NAN]), &v, false),
            [1],
            "{dev}"
        );
        assert_eq!(
            places(&t(&[1.0, 2.0, 3.0, f32::NAN]), &v, true),
            [1],
            "{dev}"
        );
        // an empty sequence places everything at 0; empty values, nothing
        assert_eq!(places(&t(&[]), &t(&[3.0, f32::NAN]), true), [0, 0], "{dev}");
        assert!(places(&s, &t(&[]), false).is_empty(), "{dev}");
        let e = TensorT::from_slice(&dev, &[] as &[f32], [2, 0]).unwrap();
        let got = k::searchsorted::launch(
            &TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], [2, 2]).unwrap(),
            &e,
            false,
            None,
        )
        .unwrap();
        assert_eq!(got.shape(), [2, 0], "{dev}");

        // a sorter: the sequence read through the indices that sort it
        let raw = TensorT::from_slice(&dev, &[5.0f32, 1.0, 3.0, 2.0, 9.0, 7.0], [2, 3]).unwrap();
        let order = k::argsort::launch(&raw, -1, false).unwrap();
        let v = TensorT::from_slice(&dev, &[3.0f32, 0.0, 6.0, 9.0], [2, 2]).unwrap();
        for right in [false, true] {
            let got = k::searchsorted::launch(&raw, &v, right, Some(&order)).unwrap();
            let want = if right { [2, 0, 1, 3] } else { [1, 0, 1, 2] };
            assert_eq!(got.to_vec().unwrap(), want, "{dev} right={right}");
        }
    }
}

#[test]
fn searchsorted_errors_not_panics() {
    for dev in common::devices() {
        let s = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]).unwrap();
        let v = |shape: &[usize]| {
            let n = shape.iter().product();
            TensorT::from_slice(&dev, &vec![1.0f32; n], shape).unwrap()
        };
        // leading sizes that differ, fewer dimensions, a 0-d sequence
        for shape in [&[3usize, 2][..], &[2][..], &[][..], &[2, 2, 1][..]] {
            let err = k::searchsorted::launch(&s, &v(shape), false, None).unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::InvalidArgument {
                        op: "searchsorted",
                        ..
                    }
                ),
                "{dev} {shape:?}: {err:?}"
            );
        }
        let zero_d = TensorT::from_slice(&dev, &[1.0f32], []).unwrap();
        let err = k::searchsorted::launch(&zero_d, &v(&[2]), false, None).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidArgument {
                    op: "searchsorted",
                    ..
                }
            ),
            "{err:?}"
        );
        // a sorter index out of the row, a sorter of another shape or dtype
        let bad = TensorT::from_slice(&dev, &[0i64, 1, 2, 2, 3, 0], [2, 3]).unwrap();
        let err = k::searchsorted::launch(&s, &v(&[2, 1]), false, Some(&bad)).unwrap_err();
        assert!(
            matches!(&err, Error::IndexOutOfRange { op: "searchsorted", value, at, size: 3, .. }
                if value.starts_with('3') && at == &[1, 1]),
            "{dev}: {err:?}"
        );
        let short = TensorT::from_slice(&dev, &[0i64, 1, 2], [3]).unwrap();
        let err = k::searchsorted::launch(&s, &v(&[2, 1]), false, Some(&short)).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidArgument {
                    op: "searchsorted",
                    ..
                }
            ),
            "{err:?}"
        );
        let i32s = Tensor::from_slice(&dev, &[0i32, 1, 2, 0, 1, 2], [2, 3]).unwrap();
        let err =
            k::searchsorted::dispatch(s.as_tensor(), v(&[2, 1]).as_tensor(), false, Some(&i32s))
                .unwrap_err();
        assert!(matches!(err, Error::DTypeMismatch { .. }), "{err:?}");
        // values of another dtype; bool
        let f64s = Tensor::from_slice(&dev, &[1.0f64, 2.0], [2, 1]).unwrap();
        let err = k::searchsorted::dispatch(s.as_tensor(), &f64s, false, None).unwrap_err();
        assert!(
            matches!(
                err,
                Error::DTypeMismatch {
                    expected: DType::F32,
                    got: DType::F64
                }
            ),
            "{err:?}"
        );
        let b = Tensor::from_slice(&dev, &[false, true], [2]).unwrap();
        let err = k::searchsorted::dispatch(&b, &b, false, None).unwrap_err();
        assert!(
            matches!(
                err,
                Error::UnsupportedDType {
                    kernel: "searchsorted",
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

/// PyTorch's `cus_lower_bound` / `cus_upper_bound`, written as its loop.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn pytorch_bound(seq: &[f32], v: f32, right: bool) -> i64 {
    let (mut start, mut end) = (0usize, seq.len());
    while start < end {
        let mid = start + ((end - start) >> 1);
        let m = seq[mid];
        let go_right = if right { !(m > v) } else { !(m >= v) };
        if go_right {
            start = mid + 1;
        } else {
            end = mid;
        }
    }
    start as i64
}

#[test]
fn searchsorted_of_unsorted_sequences_follows_pytorchs_loop() {
    // not sorted, with NaN, both zeros and infinities: not an error, and
    // the places of PyTorch's bisection
    let seq: Vec<f32> = data(3 * 37, 9, 21, special);
    let vals: Vec<f32> = data(3 * 13, 9, 22, special);
    for dev in common::devices() {
        let s = TensorT::from_slice(&dev, &seq, [3, 37]).unwrap();
        let v = TensorT::from_slice(&dev, &vals, [3, 13]).unwrap();
        for right in [false, true] {
            let want: Vec<i64> = (0..3 * 13)
                .map(|i| pytorch_bound(&seq[(i / 13) * 37..(i / 13 + 1) * 37], vals[i], right))
                .collect();
            let got = k::searchsorted::launch(&s, &v, right, None).unwrap();
            assert_eq!(got.to_vec().unwrap(), want, "{dev} right={right}");
        }
    }
}

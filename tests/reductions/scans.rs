//! `#[scan]`: device, host and `eval` agree bit for bit over shapes, axes and
//! views; exclusive scans; errors.

use silt::prelude::*;
use silt::DeviceKind;

use super::common::devices;
use super::defs::*;

fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = super::common::Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            (s % 20_001) as f32 / 1000.0 - 10.0
        })
        .collect()
}

/// Lines of a row-major `shape` along `axis`, each as the indices it visits.
fn lines(shape: &[usize], axis: usize) -> Vec<Vec<usize>> {
    let stride: usize = shape[axis + 1..].iter().product();
    let n: usize = shape.iter().product();
    (0..n)
        .filter(|i| (i / stride).is_multiple_of(shape[axis]))
        .map(|start| (0..shape[axis]).map(|k| start + k * stride).collect())
        .collect()
}

#[test]
fn every_backend_equals_eval_along_every_axis() {
    let cases: &[(&[usize], isize)] = &[
        (&[0], 0),
        (&[1], 0),
        (&[5], -1),
        (&[1024], 0),
        (&[1025], 0),
        (&[5000], 0),
        (&[3, 2500], 1),
        (&[3, 2500], 0),
        (&[4, 0, 3], 2),
        (&[2, 3, 1100], -1),
        (&[2, 1100, 3], 1),
    ];
    for dev in devices() {
        for &(shape, axis) in cases {
            let n: usize = shape.iter().product();
            let data = values(n, n as u64 + 3);
            let x = TensorT::from_slice(&dev, &data, shape).unwrap();
            let a = if axis < 0 {
                (shape.len() as isize + axis) as usize
            } else {
                axis as usize
            };
            for exclusive in [false, true] {
                let got = if exclusive {
                    running_sum::launch_exclusive(&x, axis)
                } else {
                    running_sum::launch(&x, axis)
                }
                .unwrap();
                assert_eq!(got.shape(), shape);
                let got = got.to_vec().unwrap();
                let mut want = vec![0.0f32; n];
                if n > 0 {
                    for line in lines(shape, a) {
                        let row: Vec<f32> = line.iter().map(|&i| data[i]).collect();
                        let scanned = if exclusive {
                            running_sum::eval_exclusive(&row)
                        } else {
                            running_sum::eval(&row)
                        };
                        for (&i, v) in line.iter().zip(scanned) {
                            want[i] = v;
                        }
                    }
                }
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{dev} {shape:?} axis {axis} exclusive {exclusive}"
                );
            }
        }
    }
}

#[test]
fn every_way_of_sharing_out_the_cells_gives_the_same_bits() {
    // scans down columns (rows innermost in memory): on a CPU in blocks of 16
    // rows that fill a run (16 or 48 rows) or whose last overlaps the one
    // before (37, 40, a batch of 3 runs of 40), or fewer rows than a block
    // (8); along rows and transposed views; chunked (more than 1,024
    // elements) or not
    let data = values(3 * 1100 * 40, 9);
    let ints: Vec<i64> = data.iter().map(|&v| (v * 10.0) as i64).collect();
    let halves: Vec<silt::f16> = data.iter().map(|&v| silt::f16::from_f32(v)).collect();
    let cases: &[(&[usize], usize)] = &[
        (&[2100, 37], 0),
        (&[1030, 16], 0),
        (&[3, 1100, 40], 1),
        (&[300, 48], 0),
        (&[3000, 8], 0),
        (&[40, 2100], 1),
        (&[40, 2100], 0),
    ];
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    for dev in devices() {
        for &(shape, axis) in cases {
            let n: usize = shape.iter().product();
            let x = TensorT::from_slice(&dev, &data[..n], shape).unwrap();
            let xi = TensorT::from_slice(&dev, &ints[..n], shape).unwrap();
            let xh = TensorT::from_slice(&dev, &halves[..n], shape).unwrap();
            // the same values, read through a transpose whose last axis is
            // the stored first
            let last = shape.len() - 1;
            let stored: Vec<usize> = shape.iter().rev().copied().collect();
            let t = TensorT::from_slice(&dev, &data[..n], &stored[..])
                .unwrap()
                .transpose(0, last)
                .unwrap();
            let mut want = None;
            for kind in ways {
                silt::__testing::reduce_as(kind);
                let (mv, mi) = running_max::launch(&xi, axis as isize).unwrap();
                let got = (
                    running_sum::launch(&x, axis as isize)
                        .unwrap()
                        .to_vec()
                        .unwrap(),
                    running_sum::launch_exclusive(&x, axis as isize)
                        .unwrap()
                        .to_vec()
                        .unwrap(),
                    (mv.to_vec().unwrap(), mi.to_vec().unwrap()),
                    running_sum::launch(&xh, axis as isize)
                        .unwrap()
                        .to_vec()
                        .unwrap(),
                    running_dot_mean::launch(&x, &t, axis as isize)
                        .unwrap()
                        .to_vec()
                        .unwrap(),
                    running_sum::launch(&t, last as isize)
                        .unwrap()
                        .to_vec()
                        .unwrap(),
                );
                let got = format!("{got:?}");
                match &want {
                    None => want = Some(got),
                    Some(w) => assert!(w == &got, "{dev} {kind:?} {shape:?} axis {axis}"),
                }
            }
            silt::__testing::reduce_as(None);
            // and the running sums are eval's, line by line
            let tv = t.contiguous().unwrap().to_vec().unwrap();
            for (v, values, axis) in [(&x, &data[..n], axis), (&t, &tv[..], last)] {
                let got = running_sum::launch(v, axis as isize)
                    .unwrap()
                    .to_vec()
                    .unwrap();
                for line in lines(shape, axis) {
                    let row: Vec<f32> = line.iter().map(|&i| values[i]).collect();
                    for (&i, e) in line.iter().zip(running_sum::eval(&row)) {
                        let at = format!("{dev} {shape:?} axis {axis} at {i}");
                        assert_eq!(got[i].to_bits(), e.to_bits(), "{at}");
                    }
                }
            }
        }
    }
}

#[test]
fn segment_and_chunk_boundaries_give_eval_s_bits_every_way() {
    // rows around a segment (16 elements), a chunk (1,024) and a chunk's
    // last segment, scanned by whole chunks (a CPU), by segments (a GPU),
    // and down the columns of [len, 3] and [len, 20] (neighbouring rows; on a
    // CPU, blocks of 16 rows, the last overlapping); a `combine` that is not
    // associative pins the order, a float sum its rounding
    let lens = [
        1, 15, 16, 17, 31, 33, 1000, 1023, 1024, 1025, 1040, 1041, 2047, 2049, 3100,
    ];
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    for dev in devices() {
        for len in lens {
            let cases: [(&[usize], usize); 3] = [(&[3, len], 1), (&[len, 3], 0), (&[len, 20], 0)];
            for (shape, axis) in cases {
                let n: usize = shape.iter().product();
                let data = values(n, len as u64);
                let ints: Vec<i64> = data.iter().map(|&v| (v * 100.0) as i64).collect();
                let x = TensorT::from_slice(&dev, &data, shape).unwrap();
                let xi = TensorT::from_slice(&dev, &ints, shape).unwrap();
                for kind in ways {
                    silt::__testing::reduce_as(kind);
                    for exclusive in [false, true] {
                        let (sums, probes) = if exclusive {
                            (
                                running_sum::launch_exclusive(&x, axis as isize),
                                running_probe::launch_exclusive(&xi, axis as isize),
                            )
                        } else {
                            (
                                running_sum::launch(&x, axis as isize),
                                running_probe::launch(&xi, axis as isize),
                            )
                        };
                        let (sums, probes) = (
                            sums.unwrap().to_vec().unwrap(),
                            probes.unwrap().to_vec().unwrap(),
                        );
                        for line in lines(shape, axis) {
                            let row: Vec<f32> = line.iter().map(|&i| data[i]).collect();
                            let irow: Vec<i64> = line.iter().map(|&i| ints[i]).collect();
                            let (want, iwant) = if exclusive {
                                (
                                    running_sum::eval_exclusive(&row),
                                    running_probe::eval_exclusive(&irow),
                                )
                            } else {
                                (running_sum::eval(&row), running_probe::eval(&irow))
                            };
                            for (k, &i) in line.iter().enumerate() {
                                let at = format!(
                                    "{dev} {kind:?} {shape:?} axis {axis} exclusive {exclusive} at {k}"
                                );
                                assert_eq!(sums[i].to_bits(), want[k].to_bits(), "{at}");
                                assert_eq!(probes[i], iwant[k], "{at}");
                            }
                        }
                    }
                }
                silt::__testing::reduce_as(None);
            }
        }
    }
}

#[test]
fn a_combine_that_ignores_its_second_operand_keeps_the_chunks_totals() {
    // `combine(a, b) = a` over elements that are all the scalar: every
    // running value is the scalar; PoCL once dropped the chunks' totals of
    // such a fold (its chunks after the first came out as the buffer's old
    // contents)
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    for dev in devices() {
        for (shape, axis) in [
            (&[3usize, 2500][..], 1usize),
            (&[1100, 3][..], 0),
            (&[2049, 20][..], 0),
        ] {
            let n: usize = shape.iter().product();
            let data: Vec<i16> = (0..n).map(|i| (i % 1000) as i16 - 500).collect();
            let x = TensorT::from_slice(&dev, &data, shape).unwrap();
            for kind in ways {
                silt::__testing::reduce_as(kind);
                for exclusive in [false, true] {
                    let got = if exclusive {
                        running_first::launch_exclusive(&x, 3i16, axis as isize)
                    } else {
                        running_first::launch(&x, 3i16, axis as isize)
                    };
                    let got = got.unwrap().to_vec().unwrap();
                    for line in lines(shape, axis) {
                        let row: Vec<i16> = line.iter().map(|&i| data[i]).collect();
                        let want = if exclusive {
                            running_first::eval_exclusive(&row, 3)
                        } else {
                            running_first::eval(&row, 3)
                        };
                        for (k, &i) in line.iter().enumerate() {
                            let first = if exclusive && k == 0 { 8 } else { 3 };
                            let at = format!(
                                "{dev} {kind:?} {shape:?} axis {axis} exclusive {exclusive} at {k}"
                            );
                            assert_eq!(want[k], first, "eval, {at}");
                            assert_eq!(got[i], first, "{at}");
                        }
                    }
                }
            }
            silt::__testing::reduce_as(None);
        }
    }
}

#[test]
fn tuples_two_inputs_views_and_types_agree_across_backends() {
    let data = values(3 * 2100, 5);
    let ints: Vec<i64> = data.iter().map(|&v| (v * 10.0) as i64).collect();
    let mut results = Vec::new();
    for dev in devices() {
        let x = TensorT::from_slice(&dev, &data, [3, 2100]).unwrap();
        let xi = TensorT::from_slice(&dev, &ints, [3, 2100]).unwrap();
        let y = TensorT::from_slice(&dev, &data[..2100], [2100]).unwrap();
        let t = x.transpose(0, 1).unwrap(); // [2100, 3]
        let (mv, mi) = running_max::launch(&xi, 1).unwrap();
        let (tv, ti) = running_max::launch(&t, 0).unwrap();
        let h = TensorT::from_slice(
            &dev,
            &data
                .iter()
                .map(|&v| silt::f16::from_f32(v))
                .collect::<Vec<_>>(),
            [6300],
        )
        .unwrap();
        results.push(format!(
            "{:?}",
            (
                mv.to_vec().unwrap(),
                mi.to_vec().unwrap(),
                tv.to_vec().unwrap(),
                ti.to_vec().unwrap(),
                running_dot_mean::launch(&x, &y, -1)
                    .unwrap()
                    .to_vec()
                    .unwrap(),
                running_sum::launch(&h, 0).unwrap().to_vec().unwrap(),
            )
        ));
        // a transposed view scans like its contiguous copy
        let copy = t.contiguous().unwrap();
        assert_eq!(
            running_max::launch(&copy, 0).unwrap().1.to_vec().unwrap(),
            ti.to_vec().unwrap()
        );
    }
    for r in &results[1..] {
        assert_eq!(r, &results[0]);
    }
    // the running maximum against plain Rust
    let row = &ints[..2100];
    let (values_, indices) = running_max::eval(row)
        .into_iter()
        .unzip::<_, _, Vec<i64>, Vec<i64>>();
    let mut best = (i64::MIN, -1);
    for (k, &v) in row.iter().enumerate() {
        if v > best.0 {
            best = (v, k as i64);
        }
        assert_eq!((values_[k], indices[k]), best);
    }
}

#[test]
fn a_bad_axis_is_an_error_and_0d_scans_one_element() {
    for dev in devices() {
        let x = TensorT::<f32>::zeros(&dev, [2, 3]).unwrap();
        assert!(matches!(
            running_sum::launch(&x, 2),
            Err(Error::AxisOutOfRange { axis: 2, ndim: 2 })
        ));
        assert!(matches!(
            running_sum::launch(&x, -3),
            Err(Error::AxisOutOfRange { .. })
        ));
        let s = TensorT::from_slice(&dev, &[4.0f32], [] as [usize; 0]).unwrap();
        let r = running_sum::launch(&s, 0).unwrap();
        assert_eq!(r.shape(), [] as [usize; 0]);
        assert_eq!(r.to_vec().unwrap(), [4.0]);
        assert_eq!(
            running_sum::launch_exclusive(&s, -1)
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0]
        );
    }
}

#[test]
fn a_long_cumsum_stays_accurate() {
    let n = 1 << 20;
    for dev in devices() {
        let x = TensorT::full(&dev, 0.1f32, [n]).unwrap();
        let got = running_sum::launch(&x, 0).unwrap().to_vec().unwrap();
        for k in [0, 1023, 1024, 5000, n - 1] {
            let exact = f64::from(0.1f32) * (k + 1) as f64;
            let err = (f64::from(got[k]) - exact).abs() / exact;
            // the segment's terms (16), the segments before it in its chunk
            // (63 at most), the chunks before it
            let bound = (16.0 + 63.0 + (k / 1024) as f64 + 2.0) * f64::from(f32::EPSILON);
            assert!(err <= bound, "{dev} k={k}: {err:e} > {bound:e}");
        }
    }
}

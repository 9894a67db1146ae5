//! Device, host and `eval` agree bit for bit, over shapes, axes and views.

use silt::f16;
use silt::prelude::*;
use silt::DeviceKind;

use super::common::devices;
use super::defs::*;

/// Deterministic test values with sign changes, zeros and awkward magnitudes.
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = super::common::Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            let m = (s % 20_001) as f32 / 1000.0 - 10.0;
            if s.is_multiple_of(17) {
                0.0
            } else {
                m * 10f32.powi((s % 7) as i32 - 3)
            }
        })
        .collect()
}

/// The rows of `x` (shape `shape`) for reducing `axes`, gathered on the host:
/// kept axes in order, then reduced ones, as the reduction reads them.
fn rows(x: &[f32], shape: &[usize], reduced: &[bool]) -> Vec<Vec<f32>> {
    let nd = shape.len();
    let strides: Vec<usize> = (0..nd).map(|i| shape[i + 1..].iter().product()).collect();
    let kept: Vec<usize> = (0..nd).filter(|&i| !reduced[i]).collect();
    let red: Vec<usize> = (0..nd).filter(|&i| reduced[i]).collect();
    let count = |axes: &[usize]| axes.iter().map(|&a| shape[a]).product::<usize>();
    let coords = |mut i: usize, axes: &[usize]| {
        let mut off = 0;
        for &a in axes.iter().rev() {
            off += (i % shape[a]) * strides[a];
            i /= shape[a];
        }
        off
    };
    (0..count(&kept))
        .map(|r| {
            let base = coords(r, &kept);
            (0..count(&red))
                .map(|k| x[base + coords(k, &red)])
                .collect()
        })
        .collect()
}

fn check_sum_sq(dev: &Device, shape: &[usize], axes: Axes) {
    let n: usize = shape.iter().product();
    let data = values(n, n as u64 + 7);
    let x = TensorT::from_slice(dev, &data, shape).unwrap();
    let got = sum_sq::launch(&x, axes).unwrap().to_vec().unwrap();
    let reduced = axes.reduced(shape.len()).unwrap();
    let want: Vec<f32> = rows(&data, shape, &reduced)
        .iter()
        .map(|r| sum_sq::eval(r))
        .collect();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&got), bits(&want), "{dev} {shape:?} {axes:?}");
}

#[test]
fn every_backend_equals_eval_over_shapes_and_axes() {
    let cases: &[(&[usize], Axes)] = &[
        (&[], Axes::all()),
        (&[0], Axes::all()),
        (&[1], Axes::all()),
        (&[7], Axes::all()),
        (&[64], Axes::all()),
        (&[65], Axes::all()),
        (&[4096], Axes::all()),
        (&[4097], Axes::all()),
        (&[300_001], Axes::all()),
        (&[3, 5000], Axes::of([-1])),
        (&[3, 5000], Axes::of([0])),
        (&[3, 5000], Axes::of([0]).keepdim()),
        (&[5, 0, 3], Axes::of([1])),
        (&[5, 0, 3], Axes::of([0, 2])),
        (&[4, 6, 70], Axes::of([0, 2])),
        (&[6, 50, 300], Axes::of([0, 2])),
        (&[4, 6, 70], Axes::of([2, 0]).keepdim()),
        (&[4, 6, 70], Axes::of([])),
        (&[2, 3, 4, 5], Axes::of([1, -1])),
        (&[70_000, 3], Axes::of([0])),
        (&[5000, 130], Axes::of([0])),
        (&[5000, 130], Axes::of([1])),
    ];
    // every way of sharing out the work gives the same bits (a GPU's: a lane
    // per work-item; a CPU's: whole tiles, blocks of rows)
    for kind in [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)] {
        silt::__testing::reduce_as(kind);
        for dev in devices() {
            for (shape, axes) in cases {
                check_sum_sq(&dev, shape, *axes);
            }
        }
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn shapes_of_results() {
    for dev in devices() {
        let x = TensorT::<f32>::zeros(&dev, [2, 3, 4]).unwrap();
        assert_eq!(
            sum::launch(&x, Axes::all()).unwrap().shape(),
            [] as [usize; 0]
        );
        assert_eq!(
            sum::launch(&x, Axes::all().keepdim()).unwrap().shape(),
            [1, 1, 1]
        );
        assert_eq!(sum::launch(&x, Axes::of([1])).unwrap().shape(), [2, 4]);
        assert_eq!(
            sum::launch(&x, Axes::of([-1, 0]).keepdim())
                .unwrap()
                .shape(),
            [1, 3, 1]
        );
        // a 0-d tensor takes axis 0 as its one axis
        let s = TensorT::from_slice(&dev, &[5.0f32], [] as [usize; 0]).unwrap();
        assert_eq!(
            sum::launch(&s, Axes::of([0])).unwrap().to_vec().unwrap(),
            [5.0]
        );
    }
}

#[test]
fn views_are_read_in_place_with_the_same_bits() {
    // every way of sharing out the work (see the test above)
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    for (kind, dev) in ways
        .iter()
        .flat_map(|k| devices().into_iter().map(move |d| (k, d)))
    {
        silt::__testing::reduce_as(*kind);
        let data = values(6 * 5000, 3);
        let x = TensorT::from_slice(&dev, &data, [6, 5000]).unwrap();
        let t = x.transpose(0, 1).unwrap(); // [5000, 6]
        let n = x.narrow(1, 7, 4500).unwrap();
        let b = TensorT::from_slice(&dev, &data[..5000], [5000])
            .unwrap()
            .broadcast_to([3, 5000])
            .unwrap();
        // a transpose whose innermost reduced dimension is long (read at its
        // stride a group of lanes at a time, and element by element across a
        // run's end)
        let t2 = TensorT::from_slice(&dev, &data, [100, 300])
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        // transposes whose tiles are alike, read in blocks of tiles on a
        // CPU: four runs of 1,024 a tile (4 tiles, one short block), one
        // run (40 tiles: blocks of 16, 16 and 8), 256 runs of 16 (2 tiles),
        // and a batch of 3 rows of 24 tiles each (a block across rows of the
        // batch is whole but unevenly spaced)
        let wide = values(3 * 4096 * 32, 5);
        let transposed = |n: usize, shape: [usize; 2]| {
            TensorT::from_slice(&dev, &wide[..n], shape)
                .unwrap()
                .transpose(0, 1)
                .unwrap()
        };
        let t3 = transposed(1024 * 16, [1024, 16]);
        let t4 = transposed(4096 * 40, [4096, 40]);
        let t5 = transposed(16 * 512, [16, 512]);
        let t6 = TensorT::from_slice(&dev, &wide[..3 * 4096 * 24], [3, 4096, 24])
            .unwrap()
            .transpose(1, 2)
            .unwrap();
        for v in [&t3, &t4, &t5] {
            let got = argmax::launch(v, Axes::all()).unwrap().to_vec().unwrap();
            let copy = v.contiguous().unwrap();
            let want = argmax::launch(&copy, Axes::all())
                .unwrap()
                .to_vec()
                .unwrap();
            assert_eq!(got, want, "argmax {dev} {kind:?} {:?}", v.shape());
        }
        for (v, axes) in [
            (&t, Axes::of([0])),
            (&t, Axes::all()),
            (&t, Axes::of([])),
            (&t2, Axes::all()),
            (&t3, Axes::all()),
            (&t4, Axes::all()),
            (&t5, Axes::all()),
            (&t6, Axes::of([1, 2])),
            (&t6, Axes::all()),
            (&n, Axes::of([1])),
            (&n, Axes::all()),
            (&b, Axes::of([1])),
            (&b, Axes::all()),
        ] {
            let got = sum_sq::launch(v, axes).unwrap().to_vec().unwrap();
            let copy = v.contiguous().unwrap();
            let want = sum_sq::launch(&copy, axes).unwrap().to_vec().unwrap();
            assert_eq!(got, want, "{dev} {kind:?} {:?} {axes:?}", v.shape());
        }
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn sixteen_dimensional_views_reduce_over_all_none_and_some_axes() {
    // a view of the most dimensions whose reduced (or kept) dimensions do not
    // fold: the launch passes exactly 16 dimensions, with none kept (all
    // reduced) or none reduced
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    let data = values(1 << 16, 16);
    for (kind, dev) in ways
        .iter()
        .flat_map(|k| devices().into_iter().map(move |d| (k, d)))
    {
        silt::__testing::reduce_as(*kind);
        let x = TensorT::from_slice(&dev, &data, [2; 16]).unwrap();
        let reversed: Vec<usize> = (0..16).rev().collect();
        let r = x.permute(&reversed).unwrap();
        // 15 dimensions of size 2 and one broadcast (a stride of 0), reversed
        let mut shape = [2; 16];
        shape[15] = 1;
        let e = TensorT::from_slice(&dev, &data[..1 << 15], shape)
            .unwrap()
            .broadcast_to([2; 16])
            .unwrap()
            .permute(&reversed)
            .unwrap();
        let cases = [r, e];
        for v in &cases {
            assert!(!v.is_contiguous());
            let copy = v.contiguous().unwrap();
            for axes in [
                Axes::all(),
                Axes::of((0..16).collect::<Vec<isize>>()),
                Axes::of([]),
                Axes::of((1..16).collect::<Vec<isize>>()),
                Axes::of([0, 5, 15]),
            ] {
                let got = sum_sq::launch(v, axes).unwrap().to_vec().unwrap();
                let want = sum_sq::launch(&copy, axes).unwrap().to_vec().unwrap();
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{dev} {kind:?} {:?} {axes:?}",
                    v.strides()
                );
            }
            let got = argmax::launch(v, Axes::all()).unwrap().to_vec().unwrap();
            let want = argmax::launch(&copy, Axes::all())
                .unwrap()
                .to_vec()
                .unwrap();
            assert_eq!(got, want, "argmax {dev} {kind:?} {:?}", v.strides());
        }
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn host_and_device_agree_for_every_form() {
    let devs = devices();
    let data = values(9000, 11);
    let ints: Vec<i32> = data.iter().map(|x| (x * 100.0) as i32).collect();
    let halves: Vec<f16> = data.iter().map(|&x| f16::from_f32(x)).collect();
    let mut results = Vec::new();
    // every way of sharing out the work, on every device
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    for (kind, dev) in ways.iter().flat_map(|k| devs.iter().map(move |d| (k, d))) {
        silt::__testing::reduce_as(*kind);
        let x = TensorT::from_slice(dev, &data, [3, 3000]).unwrap();
        // the same rows as columns: neighbouring rows neighbours in memory
        let xt = TensorT::from_slice(dev, &data, [3, 3000])
            .unwrap()
            .contiguous()
            .unwrap()
            .transpose(0, 1)
            .unwrap()
            .contiguous()
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let y = TensorT::from_slice(dev, &data[..3000], [3000]).unwrap();
        let xi = TensorT::from_slice(dev, &ints, [3, 3000]).unwrap();
        let xh = TensorT::from_slice(dev, &halves, [9000]).unwrap();
        let xb = TensorT::from_slice(
            dev,
            &ints.iter().map(|&v| v > 0).collect::<Vec<_>>(),
            [9000],
        )
        .unwrap();
        let (lo, hi) = min_max::launch(&x, Axes::of([1])).unwrap();
        let r = (
            sum::launch(&xi, Axes::of([1])).unwrap().to_vec().unwrap(),
            count_nonzero::launch(&xh, Axes::all())
                .unwrap()
                .to_vec()
                .unwrap(),
            count_nonzero::launch(&xb, Axes::all())
                .unwrap()
                .to_vec()
                .unwrap(),
            argmax::launch(&x, Axes::of([1])).unwrap().to_vec().unwrap(),
            argmax::launch(&xh, Axes::all()).unwrap().to_vec().unwrap(),
            scaled_dot_mean::launch(&x, &y, 0.5f32, Axes::of([-1]))
                .unwrap()
                .to_vec()
                .unwrap(),
            (lo.to_vec().unwrap(), hi.to_vec().unwrap()),
            all_positive::launch(&x, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap(),
            argmax::launch(&xt, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap(),
            all_positive::launch(&xt, Axes::of([1]))
                .unwrap()
                .to_vec()
                .unwrap(),
        );
        results.push(r);
    }
    silt::__testing::reduce_as(None);
    for r in &results[1..] {
        assert_eq!(format!("{r:?}"), format!("{:?}", results[0]));
    }
    let r = &results[0];
    // against plain Rust
    let wrapping_sum = |row: &[i32]| row.iter().fold(0i32, |a, &b| a.wrapping_add(b));
    assert_eq!(r.0, ints.chunks(3000).map(wrapping_sum).collect::<Vec<_>>());
    assert_eq!(
        r.1,
        [halves.iter().filter(|h| h.to_f32() != 0.0).count() as u64]
    );
    assert_eq!(r.2, [ints.iter().filter(|&&v| v > 0).count() as u64]);
    let first_max = |row: &[f32]| {
        let m = row.iter().copied().fold(f32::MIN, f32::max);
        row.iter().position(|&v| v == m).unwrap() as i64
    };
    assert_eq!(r.3, data.chunks(3000).map(first_max).collect::<Vec<_>>());
    assert_eq!((&r.8, &r.9), (&r.3, &r.7));
    let mins: Vec<f32> = data
        .chunks(3000)
        .map(|c| c.iter().copied().fold(f32::MAX, f32::min))
        .collect();
    let maxs: Vec<f32> = data
        .chunks(3000)
        .map(|c| c.iter().copied().fold(f32::MIN, f32::max))
        .collect();
    assert_eq!(r.6, (mins, maxs));
    assert_eq!(
        r.7,
        data.chunks(3000)
            .map(|c| c.iter().all(|&v| v > 0.0))
            .collect::<Vec<_>>()
    );
    // the mean of products, close to an f64 reference
    for (row, got) in data.chunks(3000).zip(&r.5) {
        let terms: Vec<f64> = row
            .iter()
            .zip(&data[..3000])
            .map(|(&a, &b)| f64::from(a) * f64::from(b) * 0.5)
            .collect();
        let exact = terms.iter().sum::<f64>() / 3000.0;
        let scale = terms.iter().map(|t| t.abs()).sum::<f64>() / 3000.0;
        assert!(
            (f64::from(*got) - exact).abs() <= scale * 1e-5,
            "{got} vs {exact}"
        );
    }
}

#[test]
fn many_short_rows_of_a_looped_reduction_run_every_way() {
    // 40,000 rows of 3 (a broadcast row among the inputs): enough work-items
    // for PoCL's wide groups, whose stack a work-item's arrays overflowed
    let rows = 40_000;
    let data = values(rows * 3, 21);
    let ws: Vec<i8> = (0..rows * 3).map(|i| (i % 7) as i8 - 3).collect();
    let host = Device::host();
    let want = {
        let x = TensorT::from_slice(&host, &data, [rows, 3]).unwrap();
        let y = TensorT::from_slice(&host, &data[..3], [1, 3]).unwrap();
        let w = TensorT::from_slice(&host, &ws, [rows, 3]).unwrap();
        looped_dot::launch(&x, &y, &w, Axes::of([-1]))
            .unwrap()
            .to_vec()
            .unwrap()
    };
    // plain Rust, row by row
    for r in [0, 1, rows / 2, rows - 1] {
        let m = |j: usize| {
            let (x, y) = (data[r * 3 + j], data[j]);
            let mut acc = 0.0f64;
            if y.is_sign_positive() {
                for _ in 0..5 {
                    acc += f64::from(x * y);
                }
            }
            acc * f64::from(ws[r * 3 + j])
        };
        assert_eq!(want[r], m(0) + m(1) + m(2), "row {r}");
    }
    for kind in [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)] {
        silt::__testing::reduce_as(kind);
        for dev in devices() {
            let x = TensorT::from_slice(&dev, &data, [rows, 3]).unwrap();
            let y = TensorT::from_slice(&dev, &data[..3], [1, 3]).unwrap();
            let w = TensorT::from_slice(&dev, &ws, [rows, 3]).unwrap();
            let got = looped_dot::launch(&x, &y, &w, Axes::of([-1]))
                .unwrap()
                .to_vec()
                .unwrap();
            assert!(got == want, "{dev} {kind:?}");
        }
    }
    silt::__testing::reduce_as(None);
}

#[test]
fn column_sums_in_blocks_of_rows_give_eval_s_bits_every_way() {
    // sums down the columns (rows innermost in memory): on a CPU a lane of
    // a tile of each of ROW_BLOCK (256) columns a work-item, folded in
    // place lane-major; columns around a block and past it (the last block
    // partial), rows around a tile (4,096) and a lane's step (64); a tuple
    // accumulator too
    let cases: &[(usize, usize)] = &[
        (70, 255),
        (130, 256),
        (65, 257),
        (4097, 40),
        (64, 600),
        (3, 1000),
    ];
    let ways = [None, Some(DeviceKind::Gpu), Some(DeviceKind::Cpu)];
    for dev in devices() {
        for &(r, c) in cases {
            let data = values(r * c, (r * c) as u64);
            let x = TensorT::from_slice(&dev, &data, [r, c]).unwrap();
            let columns = rows(&data, &[r, c], &[true, false]);
            let want: Vec<u32> = columns.iter().map(|k| sum_sq::eval(k).to_bits()).collect();
            // argmax: an accumulator of two fields
            let want_arg: Vec<i64> = columns.iter().map(|k| argmax::eval(k)).collect();
            // two inputs, one a row broadcast down the columns (a kept
            // stride of 0), and a scalar
            let y: Vec<f32> = values(c, 5);
            let want_dot: Vec<u32> = columns
                .iter()
                .zip(&y)
                .map(|(k, &w)| {
                    let ws = vec![w; k.len()];
                    scaled_dot_mean::eval(k, &ws, 0.5).unwrap().to_bits()
                })
                .collect();
            let yt = TensorT::from_slice(&dev, &y, [1, c])
                .unwrap()
                .broadcast_to([r, c])
                .unwrap();
            for kind in ways {
                silt::__testing::reduce_as(kind);
                let got = sum_sq::launch(&x, Axes::of([0])).unwrap().to_vec().unwrap();
                let got: Vec<u32> = got.iter().map(|v| v.to_bits()).collect();
                assert_eq!(got, want, "{dev} {kind:?} [{r}, {c}]");
                let got_arg = argmax::launch(&x, Axes::of([0])).unwrap().to_vec().unwrap();
                assert_eq!(got_arg, want_arg, "{dev} {kind:?} [{r}, {c}]");
                let got_dot = scaled_dot_mean::launch(&x, &yt, 0.5, Axes::of([0]))
                    .unwrap()
                    .to_vec()
                    .unwrap();
                let got_dot: Vec<u32> = got_dot.iter().map(|v| v.to_bits()).collect();
                assert_eq!(got_dot, want_dot, "{dev} {kind:?} [{r}, {c}] dot");
            }
            silt::__testing::reduce_as(None);
        }
    }
}

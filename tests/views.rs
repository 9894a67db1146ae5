//! Views (narrow, permute, transpose, broadcast, reshape) read back in logical
//! order and write through to their storage, on the host and on OpenCL, checked
//! against an independent model that moves coordinates instead of strides.

#![allow(clippy::cast_possible_truncation)] // small test sizes

mod common;

use silt::prelude::*;

/// A row-major reference: a shape and the base element index at each position.
#[derive(Clone, Debug)]
struct Model {
    shape: Vec<usize>,
    data: Vec<u32>,
}

fn coords(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for (k, &d) in shape.iter().enumerate().rev() {
        c[k] = i % d;
        i /= d;
    }
    c
}

fn index(c: &[usize], shape: &[usize]) -> usize {
    c.iter().zip(shape).fold(0, |acc, (&x, &d)| acc * d + x)
}

impl Model {
    fn new(shape: &[usize]) -> Model {
        let n = shape.iter().product::<usize>();
        Model {
            shape: shape.to_vec(),
            data: (0..n as u32).collect(),
        }
    }

    fn map(&self, shape: Vec<usize>, old: impl Fn(&[usize]) -> Vec<usize>) -> Model {
        let n = shape.iter().product::<usize>();
        let data = (0..n)
            .map(|i| self.data[index(&old(&coords(i, &shape)), &self.shape)])
            .collect();
        Model { shape, data }
    }

    fn narrow(&self, axis: usize, start: usize, len: usize) -> Model {
        let mut shape = self.shape.clone();
        shape[axis] = len;
        self.map(shape, |c| {
            let mut c = c.to_vec();
            c[axis] += start;
            c
        })
    }

    fn permute(&self, perm: &[usize]) -> Model {
        let shape = perm.iter().map(|&p| self.shape[p]).collect();
        self.map(shape, |c| {
            let mut old = vec![0; c.len()];
            for (i, &p) in perm.iter().enumerate() {
                old[p] = c[i];
            }
            old
        })
    }

    fn broadcast(&self, shape: &[usize]) -> Model {
        let lead = shape.len() - self.shape.len();
        self.map(shape.to_vec(), |c| {
            c[lead..]
                .iter()
                .zip(&self.shape)
                .map(|(&x, &d)| if d == 1 { 0 } else { x })
                .collect()
        })
    }
}

use common::Rng;

/// A number below `n`.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn random_view<T: Element>(rng: &mut Rng, t: &TensorT<T>, m: &Model) -> (TensorT<T>, Model) {
    let ndim = m.shape.len();
    match below(rng, 4) {
        0 => {
            let axis = below(rng, ndim);
            let size = m.shape[axis];
            let start = below(rng, size + 1);
            let len = below(rng, size - start + 1);
            (
                t.narrow(axis, start, len).unwrap(),
                m.narrow(axis, start, len),
            )
        }
        1 => {
            let mut perm: Vec<usize> = (0..ndim).collect();
            for i in (1..ndim).rev() {
                perm.swap(i, below(rng, i + 1));
            }
            (t.permute(&perm).unwrap(), m.permute(&perm))
        }
        2 => {
            let (a, b) = (below(rng, ndim), below(rng, ndim));
            let mut perm: Vec<usize> = (0..ndim).collect();
            perm.swap(a, b);
            (t.transpose(a, b).unwrap(), m.permute(&perm))
        }
        _ => {
            // narrow one axis to size 1, then broadcast it (and maybe a new leading axis)
            let axis = below(rng, ndim);
            let start = below(rng, m.shape[axis].max(1));
            if m.shape[axis] == 0 {
                return (t.clone(), m.clone());
            }
            let (t1, m1) = (t.narrow(axis, start, 1).unwrap(), m.narrow(axis, start, 1));
            let mut shape = m.shape.clone();
            shape[axis] = 1 + below(rng, 4);
            if ndim < 4 && below(rng, 2) == 0 {
                shape.insert(0, 2);
            }
            (t1.broadcast_to(&shape).unwrap(), m1.broadcast(&shape))
        }
    }
}

/// The same chains of random views over elements of 1, 2 and 8 bytes (the
/// host gathers runs of each size in its own loop): the model's indices,
/// wrapped to the type.
#[test]
fn random_view_chains_of_every_element_size() {
    fn chains<T: Element + PartialEq + std::fmt::Debug>(dev: &Device, of: impl Fn(u32) -> T) {
        let mut rng = Rng(0x0dd_5eed_0042);
        for case in 0..200 {
            let ndim = 1 + below(&mut rng, 4);
            let shape: Vec<usize> = (0..ndim).map(|_| 1 + below(&mut rng, 5)).collect();
            let mut m = Model::new(&shape);
            let data: Vec<T> = m.data.iter().map(|&v| of(v)).collect();
            let mut t = TensorT::from_slice(dev, &data, &shape).unwrap();
            for _ in 0..1 + below(&mut rng, 4) {
                (t, m) = random_view(&mut rng, &t, &m);
                if m.shape.len() > 5 {
                    break;
                }
            }
            let want: Vec<T> = m.data.iter().map(|&v| of(v)).collect();
            assert_eq!(t.to_vec().unwrap(), want, "case {case} on {dev}");
            assert_eq!(
                t.contiguous().unwrap().to_vec().unwrap(),
                want,
                "case {case} on {dev}"
            );
        }
    }
    for dev in common::devices() {
        chains(&dev, |v| v as u8);
        chains(&dev, |v| v as i16);
        chains(&dev, |v| f64::from(v) + 0.5);
    }
}

#[test]
fn random_view_chains_read_in_logical_order() {
    for dev in common::devices() {
        let mut rng = Rng(0x5eed_1234_abcd_ef01);
        for case in 0..300 {
            let ndim = 1 + below(&mut rng, 4);
            let shape: Vec<usize> = (0..ndim).map(|_| 1 + below(&mut rng, 5)).collect();
            let mut m = Model::new(&shape);
            let mut t = TensorT::from_slice(&dev, &m.data, &shape).unwrap();
            for _ in 0..1 + below(&mut rng, 4) {
                (t, m) = random_view(&mut rng, &t, &m);
                if m.shape.len() > 5 {
                    break;
                }
            }
            assert_eq!(t.shape(), m.shape, "case {case} on {dev}");
            assert_eq!(t.to_vec().unwrap(), m.data, "case {case} on {dev}: {t:?}");
            let c = t.contiguous().unwrap();
            assert!(c.is_contiguous());
            assert_eq!(
                c.to_vec().unwrap(),
                m.data,
                "contiguous, case {case} on {dev}"
            );
        }
    }
}

#[test]
fn views_share_storage_and_writes_go_through() {
    for dev in common::devices() {
        let y = TensorT::from_slice(&dev, &[0i32; 12], [3, 4]).unwrap();
        // write a 2x2 block through a strided view
        let block = y.narrow(0, 1, 2).unwrap().narrow(1, 1, 2).unwrap();
        assert!(!block.is_contiguous());
        let src = TensorT::from_slice(&Device::host(), &[1, 2, 3, 4], [2, 2]).unwrap();
        block.clone().copy_from(&src).unwrap();
        assert_eq!(
            y.to_vec().unwrap(),
            [0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0],
            "on {dev}"
        );
        // through a transposed view
        let mut yt = y.transpose(0, 1).unwrap();
        let col = TensorT::from_slice(&dev, &[9, 8, 7], [3]).unwrap();
        yt.narrow(0, 3, 1)
            .unwrap()
            .copy_from(&col.reshape([1, 3]).unwrap())
            .unwrap();
        assert_eq!(
            y.to_vec().unwrap(),
            [0, 0, 0, 9, 0, 1, 2, 8, 0, 3, 4, 7],
            "on {dev}"
        );
        // broadcast a row into every row of a contiguous view
        let row = TensorT::from_slice(&dev, &[5, 6, 7, 8], [4]).unwrap();
        yt = y.narrow(0, 0, 2).unwrap();
        yt.copy_from(&row).unwrap();
        assert_eq!(
            y.to_vec().unwrap(),
            [5, 6, 7, 8, 5, 6, 7, 8, 0, 3, 4, 7],
            "on {dev}"
        );
        // deep copies are independent, clones are not
        let deep = y.deep_copy().unwrap();
        let alias = y.clone();
        let mut first = y.narrow(0, 0, 1).unwrap();
        first
            .copy_from(&TensorT::full(&dev, -1, [1, 4]).unwrap())
            .unwrap();
        assert_eq!(alias.to_vec().unwrap()[..4], [-1; 4]);
        assert_eq!(deep.to_vec().unwrap()[..4], [5, 6, 7, 8]);
    }
}

#[test]
fn copy_from_a_view_of_itself() {
    for dev in common::devices() {
        let y = TensorT::from_slice(&dev, &[1u8, 2, 3, 4, 5, 6], [6]).unwrap();
        // overlapping source and destination in one storage
        y.narrow(0, 1, 5)
            .unwrap()
            .copy_from(&y.narrow(0, 0, 5).unwrap())
            .unwrap();
        assert_eq!(y.to_vec().unwrap(), [1, 1, 2, 3, 4, 5], "on {dev}");
    }
}

#[test]
fn bad_views_are_errors() {
    for dev in common::devices() {
        let t = TensorT::<f32>::zeros(&dev, [2, 3]).unwrap();
        assert_eq!(
            t.narrow(2, 0, 1).unwrap_err(),
            Error::InvalidAxis { axis: 2, ndim: 2 }
        );
        assert!(matches!(
            t.narrow(1, 2, 2),
            Err(Error::OutOfRange { size: 3, .. })
        ));
        assert!(matches!(
            t.permute(&[1, 1]),
            Err(Error::InvalidPermutation { .. })
        ));
        assert!(matches!(t.transpose(0, 5), Err(Error::InvalidAxis { .. })));
        assert!(matches!(
            t.reshape([4, 2]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            t.transpose(0, 1).unwrap().reshape([6]),
            Err(Error::NotContiguous { .. })
        ));
        assert!(matches!(
            t.broadcast_to([3, 3]),
            Err(Error::Broadcast { .. })
        ));
        // writing through a broadcast view would write one element several times
        let mut b = TensorT::<f32>::zeros(&dev, [1, 3])
            .unwrap()
            .broadcast_to([4, 3])
            .unwrap();
        assert!(matches!(
            b.copy_from(&TensorT::zeros(&dev, [4, 3]).unwrap()),
            Err(Error::SelfOverlap { .. })
        ));
        // strides that interleave but never meet (offsets 0, 3, 2, 5, 4, 7)
        // are written, and the elements between them left alone
        let base = Tensor::zeros(&dev, DType::F32, [8]).unwrap();
        let mut woven = base.as_strided([3, 2], [2, 3], 0).unwrap();
        assert!(!woven.has_self_overlap());
        let src = Tensor::from_slice(&dev, &[1.0f32, 2., 3., 4., 5., 6.], [3, 2]).unwrap();
        woven.copy_from(&src).unwrap();
        assert_eq!(
            base.to_vec::<f32>().unwrap(),
            [1.0, 0.0, 3.0, 2.0, 5.0, 4.0, 0.0, 6.0]
        );
        let mut meet = base.as_strided([4, 2], [1, 3], 0).unwrap();
        assert!(meet.has_self_overlap());
        assert!(matches!(
            meet.copy_from(&Tensor::zeros(&dev, DType::F32, [4, 2]).unwrap()),
            Err(Error::SelfOverlap { .. })
        ));
        let mut ok = TensorT::<f32>::zeros(&dev, [2, 3]).unwrap();
        assert!(matches!(
            ok.copy_from(&TensorT::zeros(&dev, [3, 2]).unwrap()),
            Err(Error::Broadcast { .. })
        ));
        let mut other: Tensor = TensorT::<f64>::zeros(&dev, [2, 3]).unwrap().into();
        assert!(matches!(
            other.copy_from(t.as_tensor()),
            Err(Error::DTypeMismatch { .. })
        ));
        // a broadcast too large to materialise is an error, not an abort
        let huge = t
            .narrow(0, 0, 1)
            .unwrap()
            .broadcast_to([usize::MAX / 16, 3])
            .unwrap();
        assert!(huge.to_vec().is_err());
    }
}

#[test]
fn reshape_keeps_offset() {
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &(0..24i64).collect::<Vec<_>>(), [4, 6]).unwrap();
        let r = t.narrow(0, 2, 2).unwrap().reshape([3, 4]).unwrap();
        assert_eq!(r.offset(), 12);
        assert_eq!(r.to_vec().unwrap(), (12..24).collect::<Vec<_>>());
    }
}

#[test]
fn views_across_devices() {
    let Some(cl) = common::opencl() else { return };
    // a host view written into a device view and the reverse
    let h = TensorT::from_slice(&Device::host(), &[1.0f64, 2.0, 3.0, 4.0], [2, 2]).unwrap();
    let d = TensorT::<f64>::zeros(&cl, [2, 2]).unwrap();
    d.transpose(0, 1).unwrap().copy_from(&h).unwrap();
    assert_eq!(d.to_vec().unwrap(), [1.0, 3.0, 2.0, 4.0]);
    let h2 = TensorT::<f64>::zeros(&Device::host(), [2, 2]).unwrap();
    h2.transpose(0, 1).unwrap().copy_from(&d).unwrap();
    assert_eq!(h2.to_vec().unwrap(), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn disjoint_strided_writes_from_two_threads_both_land() {
    for dev in common::devices() {
        let y = TensorT::<u32>::zeros(&dev, [64, 2]).unwrap();
        std::thread::scope(|s| {
            for col in 0..2usize {
                let (y, dev) = (y.clone(), dev.clone());
                s.spawn(move || {
                    for round in 1..=50u32 {
                        let value = round * 10 + col as u32;
                        let mut view = y.narrow(1, col, 1).unwrap();
                        view.copy_from(&TensorT::full(&dev, value, [64, 1]).unwrap())
                            .unwrap();
                    }
                });
            }
        });
        let out = y.to_vec().unwrap();
        assert!(out.chunks(2).all(|r| r == [500, 501]), "on {dev}: {out:?}");
    }
}

#[test]
fn large_transposed_copy_matches_the_host() {
    let (rows, cols) = (301usize, 517usize);
    let data: Vec<f32> = (0..rows * cols).map(|i| i as f32 * 0.25).collect();
    let expected: Vec<f32> = (0..cols)
        .flat_map(|c| (0..rows).map(move |r| (r * cols + c) as f32 * 0.25))
        .collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &data, [rows, cols]).unwrap();
        let tt = t.transpose(0, 1).unwrap();
        assert_eq!(tt.to_vec().unwrap(), expected, "on {dev}");
        let c = tt.contiguous().unwrap();
        assert!(c.is_contiguous() && !c.as_tensor().shares_storage(t.as_tensor()));
        assert_eq!(
            c.reshape([rows * cols]).unwrap().to_vec().unwrap(),
            expected
        );
    }
}

/// `x`'s elements with its last two dimensions swapped, computed on the host.
fn swap_last_two<T: Copy>(x: &[T], shape: [usize; 3]) -> Vec<T> {
    let [b, r, c] = shape;
    (0..b)
        .flat_map(|k| (0..c).flat_map(move |j| (0..r).map(move |i| x[(k * r + i) * c + j])))
        .collect()
}

/// Transposing copies of one element type on `dev`: `contiguous()` of a
/// transpose (batched or not, from an offset), and a copy into a transposed
/// view (alone, and inside a larger tensor whose other elements stay as they
/// were), in shapes whose sides are and are not whole blocks and tiles.
fn transposing_copies<T: Element + PartialEq + std::fmt::Debug>(
    dev: &Device,
    value: impl Fn(usize) -> T,
    form: &str,
) {
    transposing_copies_of(
        dev,
        value,
        form,
        &[
            [1, 16, 16],
            [1, 17, 33],
            [1, 301, 517],
            [3, 40, 50],
            [2, 64, 100],
        ],
    );
}

/// [`transposing_copies`] in the given shapes.
fn transposing_copies_of<T: Element + PartialEq + std::fmt::Debug>(
    dev: &Device,
    value: impl Fn(usize) -> T,
    form: &str,
    shapes: &[[usize; 3]],
) {
    for &shape in shapes {
        let n: usize = shape.iter().product();
        let data: Vec<T> = (0..n).map(&value).collect();
        let want = swap_last_two(&data, shape);
        let what = format!("{shape:?} of {} on {dev} ({form})", T::DTYPE);
        let t = TensorT::from_slice(dev, &data, shape).unwrap();
        let c = t.transpose(1, 2).unwrap().contiguous().unwrap();
        assert!(c.is_contiguous());
        assert_eq!(c.to_vec().unwrap(), want, "contiguous() of {what}");
        // from an offset: the transpose of all rows but the first
        let [b, r, cols] = shape;
        let tail = t.narrow(1, 1, r - 1).unwrap().transpose(1, 2).unwrap();
        let tail_want: Vec<T> = (0..b)
            .flat_map(|k| {
                let want = &want;
                (0..cols).flat_map(move |j| (1..r).map(move |i| want[(k * cols + j) * r + i]))
            })
            .collect();
        assert_eq!(
            tail.contiguous().unwrap().to_vec().unwrap(),
            tail_want,
            "an offset transpose of {what}"
        );
        // into a transposed view: the destination strides, the source does not
        let back = TensorT::<T>::zeros(dev, [b, cols, r]).unwrap();
        back.transpose(1, 2).unwrap().copy_from(&t).unwrap();
        assert_eq!(
            back.to_vec().unwrap(),
            want,
            "a copy into the transpose of {what}"
        );
        // into a transposed window of a larger tensor: nothing else written
        let (pad_c, pad_r) = (3, 5);
        let big = TensorT::<T>::from_slice(
            dev,
            &vec![value(7); b * (cols + pad_c) * (r + pad_r)],
            [b, cols + pad_c, r + pad_r],
        )
        .unwrap();
        let window = big.narrow(1, 1, cols).unwrap().narrow(2, 2, r).unwrap();
        window.transpose(1, 2).unwrap().copy_from(&t).unwrap();
        let got = big.to_vec().unwrap();
        for k in 0..b {
            for j in 0..cols + pad_c {
                for i in 0..r + pad_r {
                    let inside = (1..=cols).contains(&j) && (2..r + 2).contains(&i);
                    let expect = if inside {
                        want[(k * cols + j - 1) * r + i - 2]
                    } else {
                        value(7)
                    };
                    let at = (k * (cols + pad_c) + j) * (r + pad_r) + i;
                    assert_eq!(got[at], expect, "a copy into a window of {what}, at {at}");
                }
            }
        }
    }
}

#[test]
fn transposing_copies_match_the_host_in_each_form() {
    let Some(cl) = common::opencl() else { return };
    // the device's own form (blocks on PoCL), then a GPU's (work-group tiles)
    for (kind, form) in [
        (None, "its own form"),
        (Some(silt::DeviceKind::Gpu), "a GPU's tiles"),
    ] {
        silt::__testing::reduce_as(kind);
        transposing_copies(&cl, |i| (i % 251) as u8, form);
        transposing_copies(&cl, |i| (i % 65_521) as u16, form);
        transposing_copies(&cl, |i| i as f32 * 0.5, form);
        transposing_copies(&cl, |i| i as f64 - 0.25, form);
        silt::__testing::reduce_as(None);
    }
    transposing_copies(&Device::host(), |i| i as i32, "the host");
}

/// A few small transposing copies in each form, for Oclgrind (CI runs this
/// test there: races in the GPU form's tile, accesses out of range, writes
/// past a window).
#[test]
fn small_transposing_copies_in_each_form() {
    let Some(cl) = common::opencl() else { return };
    for kind in [Some(silt::DeviceKind::Cpu), Some(silt::DeviceKind::Gpu)] {
        silt::__testing::reduce_as(kind);
        // a CPU's blocks (f32) and strips (f64), a GPU's tiles
        transposing_copies_of(
            &cl,
            |i| i as f32,
            "small",
            &[[1, 1, 1], [1, 17, 33], [2, 40, 36]],
        );
        transposing_copies_of(&cl, |i| i as f64, "small", &[[1, 1, 1], [1, 17, 33]]);
        silt::__testing::reduce_as(None);
    }
}

/// Transposing copies move elements and compute nothing: NaNs of either
/// sign and any payload (signalling ones included), `-0.0`, infinities and
/// subnormals come out bit for bit, in a CPU's and a GPU's form on the
/// device and on the host, one element included (small sizes: CI runs this
/// test on Oclgrind).
#[test]
fn small_transposing_copies_keep_every_bit() {
    /// The transposing copies of `shape` (`contiguous()` of the transpose,
    /// a copy into a transposed view) of the elements `of(i)` gives, whose
    /// bits `bits` reads, against the bits moved by the model.
    fn check<T: Element>(
        dev: &Device,
        of: impl Fn(usize) -> T,
        bits: fn(T) -> u64,
        shape: [usize; 3],
        form: &str,
    ) {
        let n: usize = shape.iter().product();
        let data: Vec<T> = (0..n).map(of).collect();
        let raw: Vec<u64> = data.iter().map(|&v| bits(v)).collect();
        let want = swap_last_two(&raw, shape);
        let what = format!("{shape:?} of {} on {dev} ({form})", T::DTYPE);
        let read =
            |t: &TensorT<T>| -> Vec<u64> { t.to_vec().unwrap().into_iter().map(bits).collect() };
        let t = TensorT::from_slice(dev, &data, shape).unwrap();
        let c = t.transpose(1, 2).unwrap().contiguous().unwrap();
        assert_eq!(read(&c), want, "contiguous() of {what}");
        let [b, r, cols] = shape;
        let back = TensorT::<T>::zeros(dev, [b, cols, r]).unwrap();
        back.transpose(1, 2).unwrap().copy_from(&t).unwrap();
        assert_eq!(read(&back), want, "a copy into the transpose of {what}");
    }
    // quiet and signalling NaNs of both signs with payloads that vary with
    // the position, both zeros, infinities, a subnormal, plain numbers
    let f32_of = |i: usize| {
        let p = (i as u32 % 1000) + 1;
        f32::from_bits(match i % 8 {
            0 => 0x7fc0_0000 | p,
            1 => 0xffc0_0000 | p,
            2 => 0x7f80_0000 | p,
            3 => 0xff80_0000 | p,
            4 => 0x8000_0000,
            5 => [0x7f80_0000, 0xff80_0000, 1, 0x8000_0001][i / 8 % 4],
            6 => 0,
            _ => (i as f32 + 0.5).to_bits(),
        })
    };
    let f64_of = |i: usize| {
        let p = (i as u64 % 1000) + 1;
        f64::from_bits(match i % 6 {
            0 => 0x7ff8_0000_0000_0000 | p,
            1 => 0xfff0_0000_0000_0000 | p,
            2 => 0x8000_0000_0000_0000,
            3 => [0x7ff0_0000_0000_0000, 1, 0][i / 6 % 3],
            4 => 0x7ff0_0000_0000_0000 | (p << 20),
            _ => (i as f64 - 0.25).to_bits(),
        })
    };
    let f16_of = |i: usize| {
        silt::f16::from_bits(match i % 5 {
            0 => 0x7e00 | (i as u16 % 200),
            1 => 0xfc00 | (i as u16 % 200 + 1),
            2 => 0x8000,
            3 => 0x0001,
            _ => silt::f16::from_f32(i as f32).to_bits(),
        })
    };
    let b32 = |v: f32| u64::from(v.to_bits());
    let b64 = |v: f64| v.to_bits();
    let b16 = |v: silt::f16| u64::from(v.to_bits());
    let shapes = [[1, 1, 1], [1, 17, 33], [2, 5, 3]];
    let host = Device::host();
    for shape in shapes {
        check(&host, f32_of, b32, shape, "the host");
        check(&host, f64_of, b64, shape, "the host");
        check(&host, f16_of, b16, shape, "the host");
    }
    let Some(cl) = common::opencl() else { return };
    for kind in [Some(silt::DeviceKind::Cpu), Some(silt::DeviceKind::Gpu)] {
        silt::__testing::reduce_as(kind);
        let form = format!("as {kind:?}");
        for shape in shapes {
            check(&cl, f32_of, b32, shape, &form);
            check(&cl, f64_of, b64, shape, &form);
        }
        check(&cl, f16_of, b16, [1, 17, 33], &form);
        silt::__testing::reduce_as(None);
    }
}

/// Contiguous copies (`deep_copy`, `to` the same device, `copy_from` between
/// contiguous views at offsets) of each element size around the size from
/// which a CPU device copies by kernel (64 KiB) instead of by the driver, in
/// a CPU's way and a GPU's (the driver's copy): every element,
/// nothing past the destination's view.
#[test]
fn contiguous_copies_by_kernel_and_by_driver() {
    let Some(cl) = common::opencl() else { return };
    for kind in [Some(silt::DeviceKind::Cpu), Some(silt::DeviceKind::Gpu)] {
        silt::__testing::reduce_as(kind);
        contiguous_copies(&cl, |i| (i % 251) as u8);
        contiguous_copies(&cl, |i| (i % 65_521) as u16);
        contiguous_copies(&cl, |i| i as f32 * 0.5);
        contiguous_copies(&cl, |i| i as f64 - 0.25);
        silt::__testing::reduce_as(None);
    }
}

fn contiguous_copies<T: Element + PartialEq + std::fmt::Debug>(
    dev: &Device,
    value: impl Fn(usize) -> T,
) {
    let size = std::mem::size_of::<T>();
    for bytes in [(64 << 10) - size, 64 << 10, (1 << 20) + 3 * size] {
        let n = bytes / size;
        let all: Vec<T> = (0..n + 5).map(&value).collect();
        let src = TensorT::from_slice(dev, &all, [n + 5]).unwrap();
        // a contiguous view at an offset of 3
        let view = src.narrow(0, 3, n).unwrap();
        let want = &all[3..n + 3];
        let deep = view.deep_copy().unwrap();
        assert_eq!(
            deep.to_vec().unwrap(),
            want,
            "deep_copy of {n} x {size} bytes"
        );
        let moved = view.to(dev).unwrap();
        assert_eq!(moved.to_vec().unwrap(), want, "to() of {n} x {size} bytes");
        // into a view at an offset of 1, between two elements it must keep
        let zero = value(0);
        let dst = TensorT::from_slice(dev, &vec![zero; n + 2], [n + 2]).unwrap();
        dst.narrow(0, 1, n).unwrap().copy_from(&view).unwrap();
        let got = dst.to_vec().unwrap();
        assert_eq!(&got[1..n + 1], want, "copy_from of {n} x {size} bytes");
        assert_eq!((&got[0], &got[n + 1]), (&zero, &zero), "past the view");
    }
}

/// Host copies of transposes larger than one tile (32 x 32) of every element
/// size, partial tiles at both edges and a leading batch dimension.
#[test]
fn host_transposes_across_tiles() {
    fn check<T: Element + PartialEq + std::fmt::Debug>(of: impl Fn(usize) -> T) {
        let (b, r, c) = (3, 70, 45);
        let data: Vec<T> = (0..b * r * c).map(&of).collect();
        let t = TensorT::from_slice(&Device::host(), &data, [b, r, c]).unwrap();
        let tt = t.transpose(1, 2).unwrap();
        let want: Vec<T> = (0..b)
            .flat_map(|i| (0..c).flat_map(move |j| (0..r).map(move |k| (i, j, k))))
            .map(|(i, j, k)| of((i * r + k) * c + j))
            .collect();
        assert_eq!(tt.contiguous().unwrap().to_vec().unwrap(), want);
        assert_eq!(tt.to_vec().unwrap(), want);
        // a column block of the transpose: strides, offset and short tiles
        let part = tt.narrow(1, 5, 33).unwrap().narrow(2, 2, 40).unwrap();
        let want: Vec<T> = (0..b)
            .flat_map(|i| (5..38).flat_map(move |j| (2..42).map(move |k| (i, j, k))))
            .map(|(i, j, k)| of((i * r + k) * c + j))
            .collect();
        assert_eq!(part.contiguous().unwrap().to_vec().unwrap(), want);
    }
    check(|v| v as u8);
    check(|v| v as u16);
    check(|v| v as f32);
    check(|v| v as u64);
}

/// Empty views copy to empty tensors on every device, whatever their strides
/// (a transpose cut to nothing took the host's tile path and panicked).
#[test]
fn empty_views_copy_to_nothing() {
    for dev in common::devices() {
        let t = Tensor::zeros(&dev, DType::F32, [4, 3]).unwrap();
        let cut = t.transpose(0, 1).unwrap().narrow(0, 0, 0).unwrap();
        assert_eq!(cut.deep_copy().unwrap().shape(), [0, 4], "on {dev}");
        assert!(cut.to_vec::<f32>().unwrap().is_empty());
        let far = t
            .as_strided([0, 5], [usize::MAX / 2, usize::MAX / 3], 0)
            .unwrap();
        assert_eq!(far.contiguous().unwrap().shape(), [0, 5], "on {dev}");
        // select and slice of such a view: no overflow of its huge strides
        assert_eq!(far.select(1, 4).unwrap().shape(), [0]);
        assert_eq!(far.slice(1, 3, 2, 1).unwrap().shape(), [0, 2]);
        let mut none = t.narrow(0, 0, 0).unwrap();
        none.copy_from(&Tensor::zeros(&dev, DType::F32, [0, 3]).unwrap())
            .unwrap();
    }
}

//! Data goes to every device and comes back unchanged, for every dtype.

#![allow(clippy::cast_possible_truncation)] // small test sizes

mod common;

use silt::f16;
use silt::prelude::*;

fn round_trip<T: Element>(values: &[T]) {
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, values, [values.len()]).unwrap();
        assert_eq!(t.dtype(), T::DTYPE);
        assert_eq!(t.device(), &dev);
        assert_eq!(t.to_vec().unwrap(), values, "{} on {dev}", T::DTYPE);
        // host -> device -> host through `to`, and a device-side deep copy
        let back = t.to(&Device::host()).unwrap();
        assert!(back.device().is_host());
        assert_eq!(back.to_vec().unwrap(), values);
        let copy = t.deep_copy().unwrap();
        assert!(!copy.as_tensor().shares_storage(t.as_tensor()));
        assert_eq!(copy.to_vec().unwrap(), values);
        // untyped and back
        let u: Tensor = t.into();
        assert_eq!(u.dtype(), T::DTYPE);
        assert_eq!(u.to_vec::<T>().unwrap(), values);
    }
}

#[test]
fn every_dtype_round_trips() {
    round_trip(&[true, false, false, true, true]);
    round_trip(&[0u8, 1, 127, 128, 255]);
    round_trip(&[i8::MIN, -1, 0, 1, i8::MAX]);
    round_trip(&[0u16, 1, u16::MAX]);
    round_trip(&[i16::MIN, -7, i16::MAX]);
    round_trip(&[0u32, 12345, u32::MAX]);
    round_trip(&[i32::MIN, -2, 0, i32::MAX]);
    round_trip(&[0u64, u64::MAX, 1 << 40]);
    round_trip(&[i64::MIN, -1, i64::MAX]);
    round_trip(&[
        f16::from_f32(1.5),
        f16::NEG_INFINITY,
        f16::MIN_POSITIVE_SUBNORMAL,
        f16::MAX,
    ]);
    round_trip(&[0.0f32, -0.0, 1.0e-45, f32::MAX, f32::NEG_INFINITY, 3.25]);
    round_trip(&[0.0f64, -0.0, 5e-324, f64::MIN, f64::INFINITY, 0.1]);
}

#[test]
fn nan_payloads_survive() {
    let bits = [0x7fc0_0001u32, 0xffc0_1234, 0x7f80_0001];
    let values: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &values, [3]).unwrap();
        let out: Vec<u32> = t.to_vec().unwrap().iter().map(|v| v.to_bits()).collect();
        assert_eq!(out, bits, "on {dev}");
    }
}

#[test]
fn large_tensor_round_trips() {
    let values: Vec<u32> = (0..1_000_003u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &values, [values.len()]).unwrap();
        assert_eq!(t.to_vec().unwrap(), values, "on {dev}");
    }
}

#[test]
fn zeros_and_full() {
    for dev in common::devices() {
        assert_eq!(
            TensorT::<f64>::zeros(&dev, [2, 3])
                .unwrap()
                .to_vec()
                .unwrap(),
            [0.0; 6]
        );
        assert_eq!(
            TensorT::<bool>::zeros(&dev, [3]).unwrap().to_vec().unwrap(),
            [false; 3]
        );
        assert_eq!(
            TensorT::full(&dev, -3i16, [4]).unwrap().to_vec().unwrap(),
            [-3; 4]
        );
        assert_eq!(
            TensorT::full(&dev, true, [2]).unwrap().to_vec().unwrap(),
            [true; 2]
        );
        let f = TensorT::full(&dev, 2.5f32, [1000, 3])
            .unwrap()
            .to_vec()
            .unwrap();
        assert!(f.iter().all(|&v| v == 2.5) && f.len() == 3000);
        let u = Tensor::zeros(&dev, DType::U64, [5]).unwrap();
        assert_eq!(u.to_vec::<u64>().unwrap(), [0; 5]);
    }
}

#[test]
fn zero_sized_tensors() {
    for dev in common::devices() {
        for shape in [&[0][..], &[3, 0], &[0, 4, 2]] {
            let t = TensorT::<f32>::from_slice(&dev, &[], shape).unwrap();
            assert_eq!(t.shape(), shape);
            assert!(t.is_empty());
            assert_eq!(t.to_vec().unwrap(), Vec::<f32>::new());
            assert_eq!(t.deep_copy().unwrap().len(), 0);
            assert_eq!(t.to(&Device::host()).unwrap().len(), 0);
            assert_eq!(
                t.transpose(0, shape.len() - 1).unwrap().to_vec().unwrap(),
                Vec::<f32>::new()
            );
            let z = TensorT::<u8>::zeros(&dev, shape).unwrap();
            assert!(z.is_empty());
        }
        // narrowing a tensor that holds nothing stays empty, whatever the offsets
        let e = TensorT::<f32>::zeros(&dev, [0, 1000, 1000]).unwrap();
        let n = e.narrow(1, 999, 1).unwrap();
        assert_eq!((n.len(), n.offset()), (0, 0));
        assert!(n.to_vec().unwrap().is_empty());
        let huge = silt::__testing::uninit(&dev, DType::U8, &[0, usize::MAX, 2]).unwrap();
        let v = huge
            .narrow(1, usize::MAX - 1, 1)
            .unwrap()
            .permute(&[1, 2, 0])
            .unwrap();
        assert_eq!(v.len(), 0);
        assert!(v.to_bytes().unwrap().is_empty());
        // a scalar (0-d) tensor holds one element
        let s = TensorT::from_slice(&dev, &[42i64], []).unwrap();
        assert_eq!((s.ndim(), s.len()), (0, 1));
        assert_eq!(s.to_vec().unwrap(), [42]);
    }
}

#[test]
fn too_many_dimensions_is_an_error_before_allocating() {
    for dev in common::devices() {
        let before = dev.memory_stats();
        let err = TensorT::<u8>::zeros(&dev, [1; 17]).unwrap_err();
        assert_eq!(err, Error::TooManyDims { ndim: 17, max: 16 });
        assert!(TensorT::from_slice(&dev, &[1u8], [1; 17]).is_err());
        assert_eq!(dev.memory_stats().misses, before.misses);
    }
}

#[test]
fn data_must_fill_the_shape() {
    for dev in common::devices() {
        let err = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [2, 2]).unwrap_err();
        assert_eq!(
            err,
            Error::DataLength {
                shape: vec![2, 2],
                expected: 4,
                len: 3
            }
        );
        assert!(err.to_string().contains("[2, 2]"));
    }
}

#[test]
fn typed_is_checked() {
    for dev in common::devices() {
        let t: Tensor = TensorT::from_slice(&dev, &[1i32, 2], [2]).unwrap().into();
        assert_eq!(t.typed::<i32>().unwrap().to_vec().unwrap(), [1, 2]);
        assert_eq!(
            t.typed::<f32>().unwrap_err(),
            Error::DTypeMismatch {
                expected: DType::F32,
                got: DType::I32
            }
        );
        assert!(matches!(
            t.to_vec::<u32>(),
            Err(Error::DTypeMismatch { .. })
        ));
        assert!(TensorT::<i64>::try_from(t.clone()).is_err());
        assert!(t.into_typed::<i32>().is_ok());
    }
}

#[test]
fn device_to_device_and_back() {
    let Some(cl) = common::opencl() else { return };
    let host = TensorT::from_slice(&Device::host(), &[1u16, 2, 3, 4, 5, 6], [2, 3]).unwrap();
    let on_cl = host.to(&cl).unwrap();
    assert_eq!(on_cl.device(), &cl);
    // a strided device view copied to the host keeps logical order
    let back = on_cl.transpose(0, 1).unwrap().to(&Device::host()).unwrap();
    assert!(back.is_contiguous());
    assert_eq!(back.to_vec().unwrap(), [1, 4, 2, 5, 3, 6]);
    // `to` the same device shares storage
    let same = on_cl.to(&cl).unwrap();
    assert!(same.as_tensor().shares_storage(on_cl.as_tensor()));
}

#[test]
fn contiguous_views_at_offsets_go_straight_between_host_and_device() {
    let Some(cl) = common::opencl() else { return };
    // small (a queued write) and large (a blocking one) views at an offset,
    // each copied from its storage's bytes alone, and a copy, not a view
    for n in [5usize, 40_000] {
        let values: Vec<i32> = (0..3 * n as i32).collect();
        let mut host = TensorT::from_slice(&Device::host(), &values, [3, n]).unwrap();
        let row = host.narrow(0, 1, 1).unwrap().narrow(1, 2, n - 3).unwrap();
        assert!(row.is_contiguous() && row.offset() > 0);
        let on_cl = row.to(&cl).unwrap();
        assert_eq!(on_cl.to_vec().unwrap(), values[n + 2..2 * n - 1]);
        host.with_host_slice_mut(|s| s.fill(-1)).unwrap();
        assert_eq!(on_cl.to_vec().unwrap(), values[n + 2..2 * n - 1]);
        let tail = on_cl.narrow(1, 1, n - 4).unwrap();
        let back = tail.to(&Device::host()).unwrap();
        assert_eq!((back.offset(), back.shape()), (0, &[1, n - 4][..]));
        assert_eq!(back.to_vec().unwrap(), values[n + 3..2 * n - 1]);
    }
}

#[test]
fn to_vec_reads_views_straight_into_the_vector() {
    fn check<T: Element>(values: &[T]) {
        let n = values.len();
        for dev in common::devices() {
            let t = TensorT::from_slice(&dev, values, [n]).unwrap();
            // a contiguous view at an offset, a strided one, a broadcast
            let tail = t.narrow(0, 1, n - 1).unwrap();
            assert_eq!(
                tail.to_vec().unwrap(),
                &values[1..],
                "{} on {dev}",
                T::DTYPE
            );
            let pairs = TensorT::from_slice(&dev, values, [n / 2, 2]).unwrap();
            let every_other = pairs.narrow(1, 1, 1).unwrap();
            let odd: Vec<T> = values
                .iter()
                .skip(1)
                .step_by(2)
                .take(n / 2)
                .copied()
                .collect();
            assert_eq!(every_other.to_vec().unwrap(), odd, "{} on {dev}", T::DTYPE);
            let twice = t.narrow(0, 2, 1).unwrap().broadcast_to([2, 3]).unwrap();
            assert_eq!(
                twice.to_vec().unwrap(),
                [values[2]; 6],
                "{} on {dev}",
                T::DTYPE
            );
            // a broadcast naming more bytes than memory can hold is an error
            let huge = t.narrow(0, 0, 1).unwrap();
            let err = huge
                .broadcast_to([usize::MAX / 4, 3])
                .unwrap()
                .to_vec()
                .unwrap_err();
            assert!(
                matches!(err, Error::SizeOverflow { .. }),
                "{err:?} on {dev}"
            );
        }
    }
    check(
        &(0..9_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect::<Vec<_>>(),
    );
    check(&(0..9_000).map(|i| i % 3 == 0).collect::<Vec<_>>());
    check(
        &(0..9_000)
            .map(|i| f16::from_f32(i as f32 / 7.0))
            .collect::<Vec<_>>(),
    );
    check(&(0..9_000).map(|i| -(i as f64) * 0.125).collect::<Vec<_>>());
    check(&(0..9_000).map(|i| (i % 251) as i8).collect::<Vec<_>>());
}

//! Bad reductions are errors, with nothing written.

use silt::prelude::*;

use super::common::devices;
use super::defs::*;

#[test]
fn bad_axes_are_errors() {
    for dev in devices() {
        let x = TensorT::<f32>::zeros(&dev, [2, 3]).unwrap();
        assert!(matches!(
            sum::launch(&x, Axes::of([2])),
            Err(Error::AxisOutOfRange { axis: 2, ndim: 2 })
        ));
        assert!(matches!(
            sum::launch(&x, Axes::of([-3])),
            Err(Error::AxisOutOfRange { axis: -3, ndim: 2 })
        ));
        assert!(matches!(
            sum::launch(&x, Axes::of([1, -1])),
            Err(Error::RepeatedAxis { axis: -1 })
        ));
        // a 0-d tensor takes 0 and -1, and says so
        let s = TensorT::<f32>::zeros(&dev, []).unwrap();
        assert!(sum::launch(&s, Axes::of([-1])).is_ok());
        let err = sum::launch(&s, Axes::of([1])).unwrap_err();
        assert!(err.to_string().ends_with("(expected in [-1, 0])"), "{err}");
        // its one axis named twice is refused, as any other's
        for twice in [[0, 0], [0, -1]] {
            assert!(matches!(
                sum::launch(&s, Axes::of(twice)),
                Err(Error::RepeatedAxis { .. })
            ));
        }
        // past the most a tensor has: the first axis out of range is named
        assert!(matches!(
            sum::launch(&x, Axes::of(0..20)),
            Err(Error::AxisOutOfRange { axis: 2, ndim: 2 })
        ));
    }
}

#[test]
fn an_empty_row_is_the_identity_or_an_error() {
    for dev in devices() {
        let x = TensorT::<f32>::zeros(&dev, [3, 0]).unwrap();
        assert_eq!(
            sum::launch(&x, Axes::of([1])).unwrap().to_vec().unwrap(),
            [0.0; 3]
        );
        assert!(scaled_dot_mean::launch(&x, &x, 1.0, Axes::all())
            .unwrap()
            .to_vec()
            .unwrap()[0]
            .is_nan());
        assert!(matches!(
            argmax::launch(&x, Axes::of([1])),
            Err(Error::EmptyReduction { op: "argmax", .. })
        ));
        // no rows but rows of 3: nothing to reduce, and no error
        assert_eq!(argmax::launch(&x, Axes::of([0])).unwrap().shape(), [0]);
        // no rows and no elements in a row: an error still, as NumPy's and
        // PyTorch's (`amax` of [0, 2, 0] over its last axis)
        let none = TensorT::<f32>::zeros(&dev, [0, 2, 0]).unwrap();
        assert!(matches!(
            argmax::launch(&none, Axes::of([2])),
            Err(Error::EmptyReduction { op: "argmax", .. })
        ));
        assert_eq!(sum::launch(&none, Axes::of([2])).unwrap().shape(), [0, 2]);
        assert_eq!(argmax::eval(&[] as &[f32]), -1);
    }
}

#[test]
fn mismatched_inputs_are_errors() {
    let devs = devices();
    for dev in &devs {
        let x = TensorT::<f32>::zeros(dev, [2, 3]).unwrap();
        let y = TensorT::<f32>::zeros(dev, [4]).unwrap();
        assert!(matches!(
            scaled_dot_mean::launch(&x, &y, 1.0, Axes::all()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            scaled_dot_mean::eval(&[1.0f32, 2.0], &[1.0], 1.0),
            Err(Error::ShapeMismatch { .. })
        ));
        let t: Tensor = x.clone().into();
        let u8s: Tensor = TensorT::<u8>::zeros(dev, [2]).unwrap().into();
        assert!(matches!(
            sum_sq::dispatch(&u8s, Axes::all()),
            Err(Error::UnsupportedDType { .. })
        ));
        assert_eq!(
            sum_sq::dispatch(&t, Axes::all())
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            [0.0]
        );
    }
    if let [host, cl] = devs.as_slice() {
        let x = TensorT::<f32>::zeros(host, [3]).unwrap();
        let y = TensorT::<f32>::zeros(cl, [3]).unwrap();
        assert!(matches!(
            scaled_dot_mean::launch(&x, &y, 1.0, Axes::all()),
            Err(Error::DeviceMismatch { .. })
        ));
    }
}

#[test]
fn outputs_too_large_are_errors_before_anything_runs() {
    const M: usize = usize::MAX;
    for dev in devices() {
        // no element to reduce, but kept axes whose product does not fit
        let e = TensorT::<f32>::zeros(&dev, [0, M, 2]).unwrap();
        for err in [
            sum::launch(&e, Axes::of([0])).unwrap_err(),
            sum::launch(&TensorT::<f32>::zeros(&dev, [0, M]).unwrap(), Axes::of([0])).unwrap_err(),
        ] {
            assert!(
                matches!(err, Error::SizeOverflow { .. }),
                "{err:?} on {dev}"
            );
        }
        // ... that fits but is far past memory: an error, not an abort
        let big = TensorT::<f32>::zeros(&dev, [0, 1 << 42]).unwrap();
        let err = sum::launch(&big, Axes::of([0])).unwrap_err();
        assert!(
            matches!(
                err,
                Error::OutOfMemory { .. } | Error::AllocationTooLarge { .. }
            ),
            "{err:?} on {dev}"
        );
        // reduced axes whose product does not fit, with no row kept: empty
        let r = sum::launch(&e, Axes::of([1, 2])).unwrap();
        assert_eq!(r.shape(), [0], "on {dev}");
        // a 0 after sizes whose product overflows: no element, the identity
        let late = TensorT::<f32>::zeros(&dev, [M, 2, 0]).unwrap();
        assert_eq!(
            sum::launch(&late, Axes::all()).unwrap().to_vec().unwrap(),
            [0.0]
        );
        assert!(matches!(
            argmax::launch(&late, Axes::all()),
            Err(Error::EmptyReduction { .. })
        ));
        assert_eq!(sum::launch(&late, Axes::of([0, 1])).unwrap().shape(), [0]);
        // scans of no element, whatever the other axes' product: empty, at once
        for (shape, axis) in [(vec![0, M], 0), (vec![0, M, 2], 0), (vec![M, 0], 1)] {
            let x = TensorT::<f32>::zeros(&dev, &shape).unwrap();
            let y = running_sum::launch(&x, axis).unwrap();
            assert_eq!(y.shape(), shape, "on {dev}");
        }
    }
}

#[test]
fn axes_past_a_tensors_dimensions_are_errors() {
    assert!(matches!(
        Axes::all().reduced(usize::MAX),
        Err(Error::TooManyDims { .. })
    ));
    assert!(matches!(
        Axes::of([0]).reduced(1 << 40),
        Err(Error::TooManyDims { .. })
    ));
    // 17 axes of a 16-d tensor: the 17th is the repeated one
    assert!(matches!(
        Axes::of((0..16).chain([3])).reduced(16),
        Err(Error::RepeatedAxis { axis: 3 })
    ));
    // ... or out of range, and said so
    assert!(matches!(
        Axes::of((0..16).chain([99])).reduced(16),
        Err(Error::AxisOutOfRange { axis: 99, .. })
    ));
    assert!(matches!(
        Axes::of([99].into_iter().chain(0..16)).reduced(3),
        Err(Error::AxisOutOfRange { axis: 99, .. })
    ));
}

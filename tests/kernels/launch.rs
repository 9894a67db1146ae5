//! Launches as a user makes them: typed and dispatched, on views, with the
//! validation errors a mistake produces.

use silt::prelude::*;

use crate::common;
use crate::defs;

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

#[test]
fn the_design_example_runs_on_every_device() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &[1.0f32, 2.0, 3.0], [3]).unwrap();
        let mut y = TensorT::<f32>::zeros(&dev, [3]).unwrap();
        defs::axpy::launch(2.0, &x, &mut y).unwrap();
        let z = defs::add::launch(&x, &y).unwrap();
        assert_eq!(z.to_vec().unwrap(), [3.0, 6.0, 9.0], "on {dev}");
        assert_eq!(z.device(), &dev);
        let t: Tensor = z.into();
        let u = defs::add::dispatch(&t, &t).unwrap();
        assert_eq!(u.dtype(), DType::F32);
        assert_eq!(u.to_vec::<f32>().unwrap(), [6.0, 12.0, 18.0]);
        let g = defs::greater::launch(&x, &TensorT::full(&dev, 2.0f32, [3]).unwrap()).unwrap();
        assert_eq!(g.to_vec().unwrap(), [false, false, true]);
        assert_eq!(defs::add::eval(2.0f32, 3.0), 5.0);
    }
}

#[test]
fn mandelbrot_counts_agree() {
    let n = 64;
    let cr: Vec<f32> = (0..n * n)
        .map(|i| -2.0 + 2.5 * (i % n) as f32 / n as f32)
        .collect();
    let ci: Vec<f32> = (0..n * n)
        .map(|i| -1.25 + 2.5 * (i / n) as f32 / n as f32)
        .collect();
    let mut results = Vec::new();
    for dev in common::devices() {
        let it = defs::mandel::launch(&col(&dev, &cr), &col(&dev, &ci), 200).unwrap();
        results.push(it.to_vec().unwrap());
    }
    assert!(results.windows(2).all(|w| w[0] == w[1]));
    assert!(
        results[0].contains(&200) && results[0].iter().any(|&c| c < 5),
        "inside and outside points"
    );
}

#[test]
fn dispatch_covers_every_listed_dtype() {
    for dev in common::devices() {
        for &d in defs::add::TYPES {
            let a = Tensor::zeros(&dev, d, [4]).unwrap();
            let out = defs::add::dispatch(&a, &a).unwrap();
            assert_eq!((out.dtype(), out.shape()), (d, &[4usize][..]));
        }
        // outside `types`
        let u8s = Tensor::zeros(&dev, DType::U8, [4]).unwrap();
        let err = defs::add::dispatch(&u8s, &u8s).unwrap_err();
        assert_eq!(
            err,
            Error::UnsupportedDType {
                kernel: "add",
                dtype: DType::U8,
                supported: &[DType::F32, DType::F64, DType::I32],
            }
        );
        assert!(err.to_string().contains("f32, f64, i32"), "{err}");
        // tensors of the generic type must agree
        let f = Tensor::zeros(&dev, DType::F32, [4]).unwrap();
        let i = Tensor::zeros(&dev, DType::I32, [4]).unwrap();
        assert_eq!(
            defs::add::dispatch(&f, &i).unwrap_err(),
            Error::DTypeMismatch {
                expected: DType::F32,
                got: DType::I32
            }
        );
        // fixed-type parameters are checked too
        let bad_n = Tensor::zeros(&dev, DType::I64, [4]).unwrap();
        assert!(matches!(
            defs::control::dispatch(&f, &bad_n),
            Err(Error::DTypeMismatch { .. })
        ));
        // dynamic scalars convert without loss, or fail
        let mut y: Tensor = TensorT::full(&dev, 1.0f64, [4]).unwrap().into();
        let x: Tensor = TensorT::full(&dev, 2.0f64, [4]).unwrap().into();
        defs::axpy::dispatch(3, &x, &mut y).unwrap();
        assert_eq!(
            y.to_vec::<f64>().unwrap(),
            [7.0; 4],
            "integer scalar into an f64 kernel"
        );
        let ints: Tensor = TensorT::full(&dev, 2i32, [4]).unwrap().into();
        let err = defs::mandel::dispatch(&f, &f, -1i32).unwrap_err();
        assert!(
            matches!(err, Error::ScalarConversion { to: DType::U32, .. }),
            "{err}"
        );
        // the value as a number with its type, and why it does not convert
        let msg = err.to_string();
        assert!(
            msg.starts_with("scalar -1 (i32) does not convert to u32 ("),
            "{msg}"
        );
        assert!(msg.contains("no integer out of the type's range"), "{msg}");
        // tuple outputs come back untyped
        let (s, c) = defs::sincos::dispatch(&x).unwrap();
        assert_eq!((s.dtype(), c.dtype()), (DType::F64, DType::F64));
        let _ = ints;
    }
}

#[test]
fn strided_inputs_and_outputs_are_correct() {
    for dev in common::devices() {
        let base: Vec<f32> = (0..24).map(|i| i as f32).collect();
        let m = TensorT::from_slice(&dev, &base, [4, 6]).unwrap();
        // a transposed input and a narrowed input
        let t = m.transpose(0, 1).unwrap(); // [6, 4]
        let n = m.narrow(1, 1, 4).unwrap().transpose(0, 1).unwrap(); // [4, 4]
        let sum = defs::add::launch(&t.narrow(0, 1, 4).unwrap(), &n).unwrap();
        let host = |a: &TensorT<f32>| a.to_vec().unwrap();
        let expected: Vec<f32> = host(&t.narrow(0, 1, 4).unwrap())
            .iter()
            .zip(host(&n))
            .map(|(a, b)| a + b)
            .collect();
        assert_eq!(sum.to_vec().unwrap(), expected, "on {dev}");
        // writing through a strided view changes exactly its elements
        let y = TensorT::from_slice(&dev, &base, [4, 6]).unwrap();
        let mut col = y.narrow(1, 2, 1).unwrap();
        defs::axpy::launch(
            10.0,
            &TensorT::full(&dev, 1.0f32, [4, 1]).unwrap(),
            &mut col,
        )
        .unwrap();
        let after = y.to_vec().unwrap();
        for (i, (&a, &b)) in after.iter().zip(&base).enumerate() {
            let want = if i % 6 == 2 { b + 10.0 } else { b };
            assert_eq!(a, want, "element {i} on {dev}");
        }
        // an offset (narrowed along the first axis) contiguous view needs no copy
        let rows = y.narrow(0, 1, 2).unwrap();
        assert!(rows.is_contiguous() && rows.offset() == 6);
        let doubled = defs::add::launch(&rows, &rows).unwrap();
        assert_eq!(doubled.to_vec().unwrap()[0], 2.0 * after[6]);
    }
}

#[test]
fn equal_aliasing_is_fine_partial_aliasing_is_an_error() {
    for dev in common::devices() {
        let mut y = TensorT::from_slice(&dev, &[1.0f64, 2.0, 3.0, 4.0], [4]).unwrap();
        // y = 2 * y + y, reading and writing the very same elements
        defs::axpy::launch(2.0, &y.clone(), &mut y).unwrap();
        assert_eq!(y.to_vec().unwrap(), [3.0, 6.0, 9.0, 12.0], "on {dev}");
        // shifted by one element: would race
        let x = y.narrow(0, 0, 3).unwrap();
        let mut out = y.narrow(0, 1, 3).unwrap();
        let err = defs::axpy::launch(1.0, &x, &mut out).unwrap_err();
        assert_eq!(
            err,
            Error::Aliasing {
                kernel: "axpy",
                output: 2,
                other: 1
            },
            "on {dev}"
        );
        assert_eq!(y.to_vec().unwrap(), [3.0, 6.0, 9.0, 12.0], "nothing ran");
        // disjoint views of one storage are fine
        let (lo, mut hi) = (y.narrow(0, 0, 2).unwrap(), y.narrow(0, 2, 2).unwrap());
        defs::axpy::launch(1.0, &lo, &mut hi).unwrap();
        assert_eq!(y.to_vec().unwrap(), [3.0, 6.0, 12.0, 18.0]);
        // an output that repeats elements (a broadcast view)
        let mut b = TensorT::<f64>::zeros(&dev, [1])
            .unwrap()
            .broadcast_to([4])
            .unwrap();
        assert!(matches!(
            defs::axpy::launch(1.0, &y, &mut b),
            Err(Error::SelfOverlap { .. })
        ));
    }
}

#[test]
fn two_outputs_on_one_storage_are_both_written() {
    for dev in common::devices() {
        let v = TensorT::from_slice(&dev, &[1i32, 2, 3, 10, 20, 30], [6]).unwrap();
        let (mut lo, mut hi) = (v.narrow(0, 0, 3).unwrap(), v.narrow(0, 3, 3).unwrap());
        defs::sum_swap::launch(&mut lo, &mut hi).unwrap();
        assert_eq!(v.to_vec().unwrap(), [11, 22, 33, 1, 2, 3], "on {dev}");
        // separate storages, one of them a strided view
        let m = TensorT::from_slice(&dev, &[1i32, 2, 3, 4], [2, 2]).unwrap();
        let mut col = m.narrow(1, 0, 1).unwrap();
        assert!(!col.is_contiguous());
        let mut w = TensorT::from_slice(&dev, &[5i32, 6], [2, 1]).unwrap();
        defs::sum_swap::launch(&mut col, &mut w).unwrap();
        assert_eq!(m.to_vec().unwrap(), [6, 2, 9, 4], "on {dev}");
        assert_eq!(w.to_vec().unwrap(), [1, 3], "on {dev}");
    }
}

#[test]
fn shape_and_device_mismatches_are_errors() {
    for dev in common::devices() {
        let a = TensorT::<i32>::zeros(&dev, [2, 3]).unwrap();
        let b = TensorT::<i32>::zeros(&dev, [3, 2]).unwrap();
        assert_eq!(
            defs::add::launch(&a, &b).unwrap_err(),
            Error::ShapeMismatch {
                op: "add",
                left: vec![2, 3],
                right: vec![3, 2]
            }
        );
    }
    let Some(cl) = common::opencl() else { return };
    let a = TensorT::<f32>::zeros(&cl, [3]).unwrap();
    let h = TensorT::<f32>::zeros(&Device::host(), [3]).unwrap();
    let err = defs::add::launch(&a, &h).unwrap_err();
    assert!(matches!(err, Error::DeviceMismatch { .. }), "{err}");
    assert!(err.to_string().contains("host"), "{err}");
}

#[test]
fn empty_tensors_launch_nothing() {
    for dev in common::devices() {
        let e = TensorT::<f32>::zeros(&dev, [0, 5]).unwrap();
        let out = defs::add::launch(&e, &e).unwrap();
        assert_eq!(out.shape(), [0, 5]);
        assert!(out.to_vec().unwrap().is_empty());
        let (s, c) = defs::sincos::launch(&e).unwrap();
        assert_eq!((s.len(), c.len()), (0, 0));
        let mut y = e.clone();
        defs::axpy::launch(1.0, &e.clone(), &mut y).unwrap();
    }
}

/// Hiding `cl_khr_fp64` affects the whole process's device, so this runs in a
/// child process of its own (`fp64_child` below).
#[test]
fn f64_on_a_device_without_fp64_is_an_error() {
    if common::opencl().is_none() {
        return;
    }
    common::run_child("launch::fp64_child", "SILT_FP64_CHILD");
}

/// The child side of the test above; does nothing unless `SILT_FP64_CHILD` is set.
#[test]
fn fp64_child() {
    if std::env::var_os("SILT_FP64_CHILD").is_none() {
        return;
    }
    let cl = common::opencl().unwrap();
    let x = TensorT::<f64>::zeros(&cl, [3]).unwrap();
    let f = TensorT::<f32>::zeros(&cl, [3]).unwrap();
    silt::__testing::hide_fp64(&cl, true);
    let err = defs::add::launch(&x, &x).unwrap_err();
    assert_eq!(
        err,
        Error::MissingExtension {
            kernel: "kernel `add` for f64".into(),
            extension: "cl_khr_fp64",
            device: cl.to_string()
        }
    );
    assert!(err.to_string().contains("cl_khr_fp64"), "{err}");
    defs::add::launch(&f, &f).unwrap();
    silt::__testing::hide_fp64(&cl, false);
    defs::add::launch(&x, &x).unwrap();
}

#[test]
fn launches_from_many_threads() {
    let Some(cl) = common::opencl() else { return };
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let cl = cl.clone();
            s.spawn(move || {
                for i in 0..100u32 {
                    let n = 1 + ((i * 97 + t * 13) % 5000) as usize;
                    let a: Vec<i32> = (0..n as i32).map(|k| k ^ i as i32).collect();
                    let out = defs::add::launch(&col(&cl, &a), &col(&cl, &a)).unwrap();
                    let want: Vec<i32> = a.iter().map(|v| v.wrapping_mul(2)).collect();
                    assert_eq!(out.to_vec().unwrap(), want, "thread {t} launch {i}");
                }
            });
        }
    });
}

#[test]
fn varying_sizes_use_one_program() {
    let Some(cl) = common::opencl() else { return };
    for n in [1usize, 1000, 1001, 4096, 7777] {
        let v: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let out = defs::sincos::launch(&col(&cl, &v))
            .unwrap()
            .1
            .to_vec()
            .unwrap();
        assert_eq!(out.len(), n);
        assert!((out[n - 1] - ((n - 1) as f64).cos()).abs() < 1e-12);
    }
    // other tests build programs concurrently: the count cannot be pinned here
    assert!(cl.programs_built() >= 1);
}

/// Two modules of one crate defining kernels of one name: the program of the
/// crate's kernels takes the first, the other is built alone, and each computes
/// its own body.
mod same_name_a {
    use silt::prelude::*;

    #[kernel(types = [f32, i32])]
    pub fn shadowed<T>(x: T) -> T {
        x + x
    }
}

mod same_name_b {
    use silt::prelude::*;

    // `pub(crate)`: a crate exports its `pub` kernels by name, once
    #[kernel(types = [f32, i32])]
    pub(crate) fn shadowed<T>(x: T) -> T {
        x * x * x
    }
}

#[test]
fn kernels_of_one_name_in_two_modules_both_run() {
    let Some(cl) = common::opencl() else { return };
    let x = col(&cl, &[1i32, 2, 3, -4]);
    assert_eq!(
        same_name_a::shadowed::launch(&x).unwrap().to_vec().unwrap(),
        [2, 4, 6, -8]
    );
    assert_eq!(
        same_name_b::shadowed::launch(&x).unwrap().to_vec().unwrap(),
        [1, 8, 27, -64]
    );
    let y = col(&cl, &[1.5f32, -2.0]);
    assert_eq!(
        same_name_b::shadowed::launch(&y).unwrap().to_vec().unwrap(),
        [3.375, -8.0]
    );
    assert_eq!(
        same_name_a::shadowed::launch(&y).unwrap().to_vec().unwrap(),
        [3.0, -4.0]
    );
}

/// A kernel enqueue the driver refuses is a typed error naming the call; nothing
/// is left half done, and the next launches run.
#[test]
fn a_refused_enqueue_is_an_error_and_the_device_keeps_working() {
    let Some(cl) = common::opencl() else { return };
    let x = col(&cl, &[1.0f32, 2.0, 3.0]);
    let mut y = col(&cl, &[10.0f32, 20.0, 30.0]);
    silt::__testing::inject_enqueue_failures(1);
    let err = defs::add::launch(&x, &x).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OpenCl {
                op: "clEnqueueNDRangeKernel",
                name: "CL_OUT_OF_RESOURCES",
                ..
            }
        ),
        "{err:?}"
    );
    silt::__testing::inject_enqueue_failures(1);
    let err = defs::axpy::launch(2.0, &x, &mut y).unwrap_err();
    assert!(matches!(err, Error::OpenCl { .. }), "{err:?}");
    // the in-place output is untouched by the refused launch
    assert_eq!(y.to_vec().unwrap(), [10.0, 20.0, 30.0]);
    assert_eq!(
        defs::add::launch(&x, &x).unwrap().to_vec().unwrap(),
        [2.0, 4.0, 6.0]
    );
    defs::axpy::launch(2.0, &x, &mut y).unwrap();
    assert_eq!(y.to_vec().unwrap(), [12.0, 24.0, 36.0]);
}

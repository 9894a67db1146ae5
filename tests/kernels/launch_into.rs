//! `launch_into`: results written into given tensors, on the host and the
//! OpenCL device, and the errors of an output that does not fit.

use silt::f16;
use silt::prelude::*;

use crate::common;
use crate::defs;

/// A parameter named as `launch_into`'s output would be: the output takes
/// another name.
#[kernel]
pub fn shift(out: f32, #[scalar] by: f32) -> f32 {
    out + by
}

/// Two `f16` operations, each rounded.
#[kernel(types = [f16, f32])]
pub fn mul_add<T>(a: T, b: T) -> T {
    a * b + a
}

/// A `&mut` parameter beside a result.
#[kernel]
pub fn accumulate(x: f32, acc: &mut f32) -> f32 {
    *acc += x;
    *acc * 2.0
}

fn vals(n: usize, k: f32) -> Vec<f32> {
    (0..n).map(|i| i as f32 * 0.5 + k).collect()
}

#[test]
fn launch_into_writes_the_bits_launch_returns() {
    for dev in common::devices() {
        let a = TensorT::from_slice(&dev, &vals(12, 0.25), [3, 4]).unwrap();
        let b = TensorT::from_slice(&dev, &vals(4, -1.0), [4]).unwrap(); // broadcast
        let want = defs::add::launch(&a, &b).unwrap().to_vec().unwrap();
        let mut out = TensorT::<f32>::full(&dev, 7.0, [3, 4]).unwrap();
        defs::add::launch_into(&a, &b, &mut out).unwrap();
        assert_eq!(out.to_vec().unwrap(), want, "on {dev}");
        // again into the same tensor, from other inputs
        let c = TensorT::from_slice(&dev, &vals(12, 3.0), [3, 4]).unwrap();
        defs::add::launch_into(&a, &c, &mut out).unwrap();
        let want = defs::add::launch(&a, &c).unwrap().to_vec().unwrap();
        assert_eq!(out.to_vec().unwrap(), want, "on {dev}");
        // other output types, several outputs
        let mut g = TensorT::<bool>::zeros(&dev, [3, 4]).unwrap();
        defs::greater::launch_into(&a, &c, &mut g).unwrap();
        assert_eq!(
            g.to_vec().unwrap(),
            defs::greater::launch(&a, &c).unwrap().to_vec().unwrap()
        );
        let x = TensorT::from_slice(&dev, &[7i32, -7, 9, i32::MIN], [4]).unwrap();
        let y = TensorT::from_slice(&dev, &[2i32, 2, 0, -1], [4]).unwrap();
        let (r, q) = defs::euclid::launch(&x, &y).unwrap();
        let (mut r2, mut q2) = (
            TensorT::<i32>::zeros(&dev, [4]).unwrap(),
            TensorT::<i32>::zeros(&dev, [4]).unwrap(),
        );
        defs::euclid::launch_into(&x, &y, &mut r2, &mut q2).unwrap();
        assert_eq!(r2.to_vec().unwrap(), r.to_vec().unwrap(), "on {dev}");
        assert_eq!(q2.to_vec().unwrap(), q.to_vec().unwrap(), "on {dev}");
        // a parameter named `out`
        let mut s = TensorT::<f32>::zeros(&dev, [3, 4]).unwrap();
        shift::launch_into(&a, 1.0, &mut s).unwrap();
        assert_eq!(
            s.to_vec().unwrap(),
            shift::launch(&a, 1.0).unwrap().to_vec().unwrap()
        );
    }
}

#[test]
fn f16_results_keep_their_bits_on_every_device() {
    // finite values of every exponent, products that overflow and underflow
    let finite = |h: u16| h & 0x7c00 != 0x7c00;
    let v: Vec<f16> = (0..4000u16)
        .map(|i| i.wrapping_mul(29).wrapping_add(7))
        .filter(|&h| finite(h))
        .map(f16::from_bits)
        .take(3000)
        .collect();
    let w: Vec<f16> = (0..4000u16)
        .map(|i| i.wrapping_mul(31).wrapping_add(15000))
        .filter(|&h| finite(h))
        .map(f16::from_bits)
        .take(3000)
        .collect();
    let bits = |t: &TensorT<f16>| -> Vec<u16> {
        t.to_vec()
            .unwrap()
            .iter()
            .map(|x| if x.is_nan() { 0x7e00 } else { x.to_bits() })
            .collect()
    };
    // each operation rounds to f16: the same bits as `eval`, one element at a time
    let want: Vec<u16> = v
        .iter()
        .zip(&w)
        .map(|(&a, &b)| mul_add::eval(a, b))
        .map(|x| if x.is_nan() { 0x7e00 } else { x.to_bits() })
        .collect();
    for dev in common::devices() {
        let (a, b) = (
            TensorT::from_slice(&dev, &v, [v.len()]).unwrap(),
            TensorT::from_slice(&dev, &w, [w.len()]).unwrap(),
        );
        let mut out = TensorT::<f16>::zeros(&dev, [v.len()]).unwrap();
        mul_add::launch_into(&a, &b, &mut out).unwrap();
        assert_eq!(bits(&out), want, "on {dev}");
        assert_eq!(bits(&mul_add::launch(&a, &b).unwrap()), want, "on {dev}");
    }
}

#[test]
fn launch_into_writes_views_and_leaves_the_rest() {
    for dev in common::devices() {
        let a = TensorT::from_slice(&dev, &vals(6, 1.0), [2, 3]).unwrap();
        let b = TensorT::from_slice(&dev, &vals(6, 2.0), [2, 3]).unwrap();
        let want = defs::add::launch(&a, &b).unwrap().to_vec().unwrap();
        // rows 1..3 of a [4, 3] tensor: a view at an offset
        let big = TensorT::<f32>::full(&dev, -9.0, [4, 3]).unwrap();
        let mut rows = big.narrow(0, 1, 2).unwrap();
        defs::add::launch_into(&a, &b, &mut rows).unwrap();
        let all = big.to_vec().unwrap();
        assert_eq!(&all[3..9], &want[..], "on {dev}");
        assert!(all[..3].iter().chain(&all[9..]).all(|&x| x == -9.0));
        // a transposed [3, 2] tensor seen as [2, 3]
        let base = TensorT::<f32>::zeros(&dev, [3, 2]).unwrap();
        let mut t = base.transpose(0, 1).unwrap();
        defs::add::launch_into(&a, &b, &mut t).unwrap();
        assert_eq!(t.to_vec().unwrap(), want, "on {dev}");
        assert_eq!(
            base.to_vec().unwrap(),
            [want[0], want[3], want[1], want[4], want[2], want[5]]
        );
    }
}

#[test]
fn an_output_may_be_an_input_itself() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &vals(1000, 1.0), [1000]).unwrap();
        let y = TensorT::from_slice(&dev, &vals(1000, 2.0), [1000]).unwrap();
        let want = defs::add::launch(&x, &y).unwrap().to_vec().unwrap();
        let mut same = x.clone(); // the very same view of `x`'s storage
        defs::add::launch_into(&x, &y, &mut same).unwrap();
        assert_eq!(x.to_vec().unwrap(), want, "x = x + y on {dev}");
        let doubled: Vec<f32> = want.iter().map(|v| v + v).collect();
        defs::add::launch_into(&x, &x, &mut same).unwrap();
        assert_eq!(x.to_vec().unwrap(), doubled, "x = x + x on {dev}");
        // a view at an offset, in place
        let big = TensorT::from_slice(&dev, &vals(8, 0.0), [8]).unwrap();
        let tail = big.narrow(0, 4, 4).unwrap();
        let mut tail_out = tail.clone();
        let one = TensorT::full(&dev, 1.0f32, [4]).unwrap();
        defs::add::launch_into(&tail, &one, &mut tail_out).unwrap();
        assert_eq!(
            big.to_vec().unwrap(),
            [0.0, 0.5, 1.0, 1.5, 3.0, 3.5, 4.0, 4.5],
            "on {dev}"
        );
    }
}

#[test]
fn outputs_that_do_not_fit_are_errors() {
    for dev in common::devices() {
        let a = TensorT::from_slice(&dev, &vals(6, 1.0), [6]).unwrap();
        // the wrong shape: not the broadcast shape
        let mut short = TensorT::<f32>::zeros(&dev, [5]).unwrap();
        let e = defs::add::launch_into(&a, &a, &mut short).unwrap_err();
        assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
        let mut row = TensorT::<f32>::zeros(&dev, [1, 6]).unwrap();
        let mut col = TensorT::<f32>::zeros(&dev, [6, 1]).unwrap();
        let small = TensorT::from_slice(&dev, &vals(6, 1.0), [1, 6]).unwrap();
        // [6, 1] and [1, 6] broadcast to [6, 6]: no output of theirs fits
        let e = defs::add::launch_into(&col.clone(), &small, &mut row).unwrap_err();
        assert!(matches!(e, Error::OutputShape { .. }), "{e}");
        let e = defs::add::launch_into(&small, &small.clone(), &mut col).unwrap_err();
        assert!(matches!(e, Error::OutputShape { .. }), "{e}");
        // a broadcast view covers its elements many times
        let one = TensorT::<f32>::zeros(&dev, [1]).unwrap();
        let mut wide = one.broadcast_to([6]).unwrap();
        let e = defs::add::launch_into(&a, &a, &mut wide).unwrap_err();
        assert!(matches!(e, Error::SelfOverlap { .. }), "{e}");
        // overlapping an input without being the same view
        let big = TensorT::from_slice(&dev, &vals(7, 0.0), [7]).unwrap();
        let (x, mut shifted) = (big.narrow(0, 0, 6).unwrap(), big.narrow(0, 1, 6).unwrap());
        let e = defs::add::launch_into(&x, &a, &mut shifted).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Aliasing {
                    output: 2,
                    other: 0,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(big.to_vec().unwrap(), vals(7, 0.0), "nothing written");
        // two outputs on the same elements
        let x = TensorT::from_slice(&dev, &[5i32, 6], [2]).unwrap();
        let mut q = TensorT::<i32>::zeros(&dev, [2]).unwrap();
        let mut q2 = q.clone();
        let e = defs::euclid::launch_into(&x, &x, &mut q, &mut q2).unwrap_err();
        assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    }
    // an output on another device
    if let Some(dev) = common::opencl() {
        let a = TensorT::from_slice(&Device::host(), &vals(4, 0.0), [4]).unwrap();
        let mut out = TensorT::<f32>::zeros(&dev, [4]).unwrap();
        let e = defs::add::launch_into(&a, &a, &mut out).unwrap_err();
        assert!(matches!(e, Error::DeviceMismatch { .. }), "{e}");
        let b = TensorT::from_slice(&dev, &vals(4, 0.0), [4]).unwrap();
        let mut host_out = TensorT::<f32>::zeros(&Device::host(), [4]).unwrap();
        let e = defs::add::launch_into(&b, &b, &mut host_out).unwrap_err();
        assert!(matches!(e, Error::DeviceMismatch { .. }), "{e}");
    }
}

#[test]
fn a_host_launch_into_allocates_nothing() {
    let dev = Device::host();
    let a = TensorT::from_slice(&dev, &vals(4096, 1.0), [4096]).unwrap();
    let mut out = TensorT::<f32>::zeros(&dev, [4096]).unwrap();
    defs::add::launch_into(&a, &a, &mut out).unwrap();
    let before = dev.memory_stats();
    for _ in 0..10 {
        defs::add::launch_into(&a, &a, &mut out).unwrap();
    }
    let after = dev.memory_stats();
    assert_eq!((after.hits, after.misses), (before.hits, before.misses));
    assert_eq!(out.to_vec().unwrap()[1], 2.0 * 1.5);
}

#[test]
fn dispatch_into_checks_each_output_dtype() {
    for dev in common::devices() {
        let a = Tensor::from_slice(&dev, &vals(6, 1.0), [2, 3]).unwrap();
        let b = Tensor::from_slice(&dev, &vals(3, 2.0), [3]).unwrap();
        let mut out = Tensor::zeros(&dev, DType::F32, [2, 3]).unwrap();
        defs::add::dispatch_into(&a, &b, &mut out).unwrap();
        let want = defs::add::dispatch(&a, &b).unwrap();
        assert_eq!(
            out.to_vec::<f32>().unwrap(),
            want.to_vec::<f32>().unwrap(),
            "on {dev}"
        );
        // a result of another type than the arguments'
        let mut g = Tensor::zeros(&dev, DType::Bool, [2, 3]).unwrap();
        defs::greater::dispatch_into(&a, &b, &mut g).unwrap();
        assert_eq!(
            g.to_vec::<bool>().unwrap(),
            defs::greater::dispatch(&a, &b)
                .unwrap()
                .to_vec::<bool>()
                .unwrap()
        );
        // an output of the wrong dtype, inputs of an unlisted one
        let mut wrong = Tensor::zeros(&dev, DType::F64, [2, 3]).unwrap();
        let e = defs::add::dispatch_into(&a, &b, &mut wrong).unwrap_err();
        assert!(
            matches!(
                e,
                Error::DTypeMismatch {
                    expected: DType::F32,
                    got: DType::F64
                }
            ),
            "{e}"
        );
        let e = defs::greater::dispatch_into(&a, &b, &mut out).unwrap_err();
        assert!(matches!(e, Error::DTypeMismatch { .. }), "{e}");
        let bytes = Tensor::zeros(&dev, DType::U8, [3]).unwrap();
        let mut bytes_out = Tensor::zeros(&dev, DType::U8, [3]).unwrap();
        let e = defs::add::dispatch_into(&bytes, &bytes, &mut bytes_out).unwrap_err();
        assert!(matches!(e, Error::UnsupportedDType { .. }), "{e}");
        assert_eq!(wrong.to_vec::<f64>().unwrap(), [0.0; 6], "nothing written");
    }
}

#[test]
fn a_mut_parameter_and_a_given_output_are_both_written() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &vals(5, 1.0), [5]).unwrap();
        let start = TensorT::from_slice(&dev, &vals(5, 10.0), [5]).unwrap();
        let mut acc = start.deep_copy().unwrap();
        let want = accumulate::launch(&x, &mut acc).unwrap().to_vec().unwrap();
        let acc_after = acc.to_vec().unwrap();
        // separate tensors
        let mut acc2 = start.deep_copy().unwrap();
        let mut out = TensorT::<f32>::zeros(&dev, [5]).unwrap();
        accumulate::launch_into(&x, &mut acc2, &mut out).unwrap();
        assert_eq!(out.to_vec().unwrap(), want, "on {dev}");
        assert_eq!(acc2.to_vec().unwrap(), acc_after, "on {dev}");
        // the output and the `&mut` argument: two halves of one storage
        let both = TensorT::<f32>::zeros(&dev, [10]).unwrap();
        let mut acc3 = both.narrow(0, 0, 5).unwrap();
        acc3.copy_from(&start).unwrap();
        let mut out3 = both.narrow(0, 5, 5).unwrap();
        accumulate::launch_into(&x, &mut acc3, &mut out3).unwrap();
        let all = both.to_vec().unwrap();
        assert_eq!(&all[..5], &acc_after[..], "on {dev}");
        assert_eq!(&all[5..], &want[..], "on {dev}");
        // the output on the `&mut` argument's elements
        let mut same = acc.clone();
        let e = accumulate::launch_into(&x, &mut acc, &mut same).unwrap_err();
        assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    }
}

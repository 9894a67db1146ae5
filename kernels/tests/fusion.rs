//! Chains fused at run time ([`silt::Fusion`]): library and user kernels on
//! broadcast and strided inputs, scalars, an `#[index]`, `f16` and `bool`;
//! one launch with the bits of the launches it replaces, on every device;
//! errors for what cannot be fused.

use silt::fusion::{Fusion, Value};
use silt::prelude::*;
use silt::{f16, Scalar};
use silt_kernels as k;

#[path = "../../tests/common/mod.rs"]
mod common;

/// A user kernel with an `#[index]` and a `#[scalar]`.
#[kernel(types = [f32, f64])]
pub fn ramp<T>(x: T, #[scalar] step: T, #[index] i: u64) -> T {
    x + step * (i % 7) as T
}

fn bits32(t: &Tensor) -> Vec<u32> {
    t.to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|v| v.to_bits())
        .collect()
}

fn data(n: usize, seed: u32) -> Vec<f32> {
    (0..u32::try_from(n).unwrap())
        .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed) % 2001) as f32 / 100.0 - 10.0)
        .collect()
}

#[test]
fn a_fused_chain_has_the_bits_of_its_launches() {
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &data(3 * 1000, 1), [3, 1000]).unwrap();
        // a transposed view and a broadcast row
        let w = TensorT::from_slice(&dev, &data(3000, 2), [1000, 3])
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let b = TensorT::from_slice(&dev, &data(1000, 3), [1000]).unwrap();

        let mut f = Fusion::new();
        let (xv, wv, bv) = (
            f.input(x.as_tensor()),
            f.input(w.as_tensor()),
            f.input(b.as_tensor()),
        );
        let h = f.call(&k::mul::KERNEL, &[xv, wv]).unwrap();
        let s = f.call(&k::add::KERNEL, &[h, bv]).unwrap();
        let r = f.call(&k::relu::KERNEL, &[s]).unwrap();
        let step = f.scalar(Scalar::F32(0.25));
        let q = f.call(&ramp::KERNEL, &[r, step]).unwrap();
        let g = f.call(&k::gelu::KERNEL, &[s]).unwrap();
        // a dead branch: recorded, never run
        let _unused = f.call(&k::exp::KERNEL, &[xv]).unwrap();
        let out = f.run(&[q, g, s]).unwrap();

        let h1 = k::mul::launch(&x, &w).unwrap();
        let s1 = k::add::launch(&h1, &b).unwrap();
        let r1 = k::relu::launch(&s1).unwrap();
        let q1 = ramp::launch(&r1, 0.25).unwrap();
        let g1 = k::gelu::launch(&s1).unwrap();
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].shape(), [3, 1000]);
        assert_eq!(bits32(&out[0]), bits32(q1.as_tensor()), "on {dev}");
        assert_eq!(bits32(&out[1]), bits32(g1.as_tensor()), "on {dev}");
        assert_eq!(bits32(&out[2]), bits32(s1.as_tensor()), "on {dev}");
    }
}

#[test]
fn half_and_bool_values_cross_between_steps() {
    for dev in common::devices() {
        let v: Vec<f16> = data(777, 5).iter().map(|&x| f16::from_f32(x)).collect();
        let x = TensorT::from_slice(&dev, &v, [777]).unwrap();
        let y = TensorT::from_slice(&dev, &v[..1], [1]).unwrap();
        let mut f = Fusion::new();
        let (xv, yv) = (f.input(x.as_tensor()), f.input(y.as_tensor()));
        let sig = f.call(&k::sigmoid::KERNEL, &[xv]).unwrap();
        let gt = f.call(&k::gt::KERNEL, &[sig, yv]).unwrap();
        let picked = f.call(&k::where_::KERNEL, &[gt, sig, xv]).unwrap();
        assert_eq!(f.dtype(gt), Some(DType::Bool));
        let out = f.run(&[picked, gt]).unwrap();

        let sig1 = k::sigmoid::launch(&x).unwrap();
        let gt1 = k::gt::launch(&sig1, &y).unwrap();
        let picked1 = k::where_::launch(&gt1, &sig1, &x).unwrap();
        let h = |t: &Tensor| -> Vec<u16> {
            t.to_vec::<f16>()
                .unwrap()
                .iter()
                .map(|v| v.to_bits())
                .collect()
        };
        assert_eq!(h(&out[0]), h(picked1.as_tensor()), "on {dev}");
        assert_eq!(
            out[1].to_vec::<bool>().unwrap(),
            gt1.to_vec().unwrap(),
            "on {dev}"
        );
    }
}

#[test]
fn a_chain_structure_is_composed_once() {
    let source = |n: usize, dev: &Device| {
        let x = TensorT::from_slice(dev, &data(n, 9), [n]).unwrap();
        let mut f = Fusion::new();
        let xv = f.input(x.as_tensor());
        let a = f.call(&k::neg::KERNEL, &[xv]).unwrap();
        let b = f.call(&k::abs::KERNEL, &[a]).unwrap();
        let c = f.call(&k::sqrt::KERNEL, &[b]).unwrap();
        f.run(&[c]).unwrap();
        f.source(&[c]).unwrap()
    };
    let host = Device::host();
    let first = source(10, &host);
    // the same structure on other sizes and devices: the same program object,
    // which a device builds once (its programs are kept by address)
    for dev in common::devices() {
        assert!(std::ptr::eq(first, source(1000, &dev)));
        assert!(std::ptr::eq(first, source(3, &dev)));
    }
    // the three entry points, each step's body once, the intermediates in registers
    assert_eq!(first.matches("__kernel void").count(), 3, "{first}");
    for body in [
        "silt_body_neg_f32(",
        "silt_body_abs_f32(",
        "silt_body_sqrt_f32(",
    ] {
        assert!(first.contains(body), "{first}");
    }
    let start = first.find("__kernel void silt_fused(").unwrap();
    let end = first.find("__kernel void silt_fused_strided3(").unwrap();
    assert!(first[end..].contains("__kernel void silt_fused_strided("));
    let entry = &first[start..end];
    assert_eq!(entry.matches("silt_out0[").count(), 1, "{entry}");
    assert_eq!(entry.matches("a0[").count(), 1, "{entry}");
}

#[test]
fn what_cannot_be_fused_is_an_error() {
    let dev = Device::host();
    let x = TensorT::from_slice(&dev, &[1.0f32, 2.0], [2]).unwrap();
    let xi = TensorT::from_slice(&dev, &[1i32, 2], [2]).unwrap();
    let mut f = Fusion::new();
    let (xv, xiv) = (f.input(x.as_tensor()), f.input(xi.as_tensor()));
    let reason = |e: silt::Error| e.to_string();
    // types outside the kernel's, mixed types, a wrong count
    let e = f.call(&k::gelu::KERNEL, &[xiv]).unwrap_err();
    assert!(reason(e).contains("no instantiation for (i32)"));
    assert!(f.call(&k::add::KERNEL, &[xv, xiv]).is_err());
    let e = reason(f.call(&k::add::KERNEL, &[xv]).unwrap_err());
    assert!(
        e.contains("takes 2 arguments") && e.contains("not 1"),
        "{e}"
    );
    // a scalar where a value goes, and a scalar of another type
    let s64 = f.scalar(Scalar::F64(0.5));
    assert!(f.call(&k::add::KERNEL, &[xv, s64]).is_err());
    assert!(f.call(&ramp::KERNEL, &[xv, s64]).is_err());
    // `&mut` parameters
    let e = reason(f.call(&k::axpy::KERNEL, &[s64, xv]).unwrap_err());
    assert!(e.contains("cannot be fused"), "{e}");
    // outputs that are not call results
    assert!(f.run(&[xv]).is_err());
    assert!(f.run(&[]).is_err());
}

/// A library operation on one or two values: its handle for a chain and its
/// `dispatch` for a launch of its own.
enum Op {
    Unary(
        &'static silt::KernelRef,
        fn(&Tensor) -> silt::Result<Tensor>,
    ),
    Binary(
        &'static silt::KernelRef,
        fn(&Tensor, &Tensor) -> silt::Result<Tensor>,
    ),
}

fn ops() -> Vec<Op> {
    use Op::{Binary, Unary};
    vec![
        Unary(&k::neg::KERNEL, k::neg::dispatch),
        Unary(&k::abs::KERNEL, k::abs::dispatch),
        Unary(&k::relu::KERNEL, k::relu::dispatch),
        Unary(&k::square::KERNEL, k::square::dispatch),
        Unary(&k::exp::KERNEL, k::exp::dispatch),
        Unary(&k::sigmoid::KERNEL, k::sigmoid::dispatch),
        Unary(&k::tanh::KERNEL, k::tanh::dispatch),
        Unary(&k::gelu::KERNEL, k::gelu::dispatch),
        Unary(&k::floor::KERNEL, k::floor::dispatch),
        Unary(&k::sin::KERNEL, k::sin::dispatch),
        Binary(&k::add::KERNEL, k::add::dispatch),
        Binary(&k::sub::KERNEL, k::sub::dispatch),
        Binary(&k::mul::KERNEL, k::mul::dispatch),
        Binary(&k::div::KERNEL, k::div::dispatch),
        Binary(&k::minimum::KERNEL, k::minimum::dispatch),
        Binary(&k::maximum::KERNEL, k::maximum::dispatch),
        Binary(&k::hypot::KERNEL, k::hypot::dispatch),
    ]
}

/// Random chains of library operations over a full input, a broadcast row, a
/// transposed view, one element and a broadcast column, in f32 and f64: the fused run has the bits of the
/// operations launched one by one (their `dispatch`), every value asked for.
#[test]
fn random_chains_have_the_bits_of_their_launches() {
    let ops = ops();
    let mut seed = 0x9e37_79b9_u64;
    let mut next = |n: usize| -> usize {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    for dev in common::devices() {
        for round in 0..10 {
            let f64_round = round % 3 == 2;
            let mk = |seed: u32, n: usize, shape: &[usize]| -> Tensor {
                let v = data(n, seed);
                if f64_round {
                    let v: Vec<f64> = v.iter().map(|&x| f64::from(x) * 1.5).collect();
                    TensorT::from_slice(&dev, &v, shape).unwrap().into()
                } else {
                    TensorT::from_slice(&dev, &v, shape).unwrap().into()
                }
            };
            // every class of input: full, a row broadcast down the rows, a
            // transposed view, one element, a column broadcast along the rows
            let inputs = [
                mk(round, 6 * 40, &[6, 40]),
                mk(round + 100, 40, &[40]),
                mk(round + 200, 40 * 6, &[40, 6]).transpose(0, 1).unwrap(),
                mk(round + 300, 1, &[1]),
                mk(round + 400, 6, &[6, 1]),
            ];
            let mut f = Fusion::new();
            let mut vals: Vec<Value> = inputs.iter().map(|t| f.input(t)).collect();
            let mut direct: Vec<Tensor> = inputs.to_vec();
            let steps = 2 + next(7);
            for _ in 0..steps {
                let (a, b) = (next(vals.len()), next(vals.len()));
                match &ops[next(ops.len())] {
                    Op::Unary(kr, launch) => {
                        vals.push(f.call(kr, &[vals[a]]).unwrap());
                        direct.push(launch(&direct[a]).unwrap());
                    }
                    Op::Binary(kr, launch) => {
                        vals.push(f.call(kr, &[vals[a], vals[b]]).unwrap());
                        direct.push(launch(&direct[a], &direct[b]).unwrap());
                    }
                }
            }
            // the last value and one earlier call result, when there is one
            let last = vals.len() - 1;
            let mut wanted = vec![last];
            let earlier = inputs.len() + next(steps);
            if earlier != last {
                wanted.push(earlier);
            }
            let outs = f
                .run(&wanted.iter().map(|&i| vals[i]).collect::<Vec<_>>())
                .unwrap();
            // the run's shape: the broadcast of the inputs its values read,
            // which is the broadcast of those values' shapes
            let mut shape: Vec<usize> = Vec::new();
            for &i in &wanted {
                let s = direct[i].shape();
                while shape.len() < s.len() {
                    shape.insert(0, 1);
                }
                let at = shape.len() - s.len();
                for (d, &n) in s.iter().enumerate() {
                    shape[at + d] = shape[at + d].max(n);
                }
            }
            let shape = &shape[..];
            for (out, &i) in outs.iter().zip(&wanted) {
                assert_eq!(out.shape(), shape);
                let (got, want) = (out.to_bytes().unwrap(), {
                    let d = &direct[i];
                    // a value that reads only the row has a smaller shape:
                    // broadcast as the run's
                    d.broadcast_to(shape).unwrap().to_bytes().unwrap()
                });
                assert!(
                    got == want,
                    "round {round} on {dev}: value {i} of a chain of {steps} differs\n{}",
                    f.source(&[vals[i]]).unwrap()
                );
            }
        }
    }
}

/// `n` `[30, 20]` inputs (transposed views, or all but one contiguous and a
/// broadcast row), their chained sum and the sum launch by launch.
fn wide_sum(dev: &Device, n: u32, transposed: bool) -> (Tensor, TensorT<f32>) {
    let ins: Vec<TensorT<f32>> = (0..n)
        .map(|i| {
            if transposed {
                TensorT::from_slice(dev, &data(600, 20 + i), [20, 30])
                    .unwrap()
                    .transpose(0, 1)
                    .unwrap()
            } else if i == n / 2 {
                TensorT::from_slice(dev, &data(20, 20 + i), [20]).unwrap()
            } else {
                TensorT::from_slice(dev, &data(600, 20 + i), [30, 20]).unwrap()
            }
        })
        .collect();
    let mut f = Fusion::new();
    let vals: Vec<Value> = ins.iter().map(|t| f.input(t.as_tensor())).collect();
    let mut acc = vals[0];
    let mut want = ins[0].clone();
    for (v, t) in vals[1..].iter().zip(&ins[1..]) {
        acc = f.call(&k::add::KERNEL, &[acc, *v]).unwrap();
        want = k::add::launch(&want, t).unwrap();
    }
    let mut out = f.run(&[acc]).unwrap();
    (out.remove(0), want)
}

#[test]
fn a_chain_too_wide_for_the_device_runs_as_its_launches() {
    let Some(dev) = common::opencl() else { return };
    // the OpenCL minimum for a full-profile device
    assert!(dev.info().max_parameter_bytes >= 1024, "{:?}", dev.info());
    assert_eq!(Device::host().info().max_parameter_bytes, usize::MAX);

    // 24 inputs: the strided entry would take 24 * 144 + 128 + 16 bytes of
    // arguments, more than PoCL's 1,024 and NVIDIA's 4,352; the contiguous one
    // 24 * 16 + 16. At the device's cap, transposed views run as the separate
    // launches (24 copies would cost more than 22 intermediate values) and
    // contiguous inputs with one broadcast row as one kernel on a copy of the
    // row; at 100 bytes both run as the separate launches.
    for limit in [None, Some(100)] {
        for transposed in [true, false] {
            silt::__testing::max_parameter_bytes(limit);
            let (got, want) = wide_sum(&dev, 24, transposed);
            silt::__testing::max_parameter_bytes(None);
            assert_eq!(got.shape(), [30, 20]);
            assert_eq!(
                bits32(&got),
                bits32(want.as_tensor()),
                "{limit:?}, transposed: {transposed}"
            );
        }
    }

    // a chain fused, then with its strided entry left out (its arguments take
    // 456 bytes, the contiguous entry's 72 or fewer), then as its launches:
    // the same bits, an `#[index]` counting over the chain's shape each time
    // (`ramp` reads only the row), a scalar, and an output asked for twice
    let x = TensorT::from_slice(&dev, &data(3 * 1000, 1), [3, 1000]).unwrap();
    let b = TensorT::from_slice(&dev, &data(1000, 3), [1000]).unwrap();
    // `with_r`: `ramp`'s result is an output too, which leaves one
    // intermediate value against one input to copy: the separate launches
    let chain = |limit, with_r: bool| {
        silt::__testing::max_parameter_bytes(limit);
        let mut f = Fusion::new();
        let (xv, bv) = (f.input(x.as_tensor()), f.input(b.as_tensor()));
        let step = f.scalar(Scalar::F32(0.5));
        let r = f.call(&ramp::KERNEL, &[bv, step]).unwrap();
        let s = f.call(&k::add::KERNEL, &[xv, r]).unwrap();
        let g = f.call(&k::gelu::KERNEL, &[s]).unwrap();
        let q = f.call(&k::relu::KERNEL, &[g]).unwrap();
        let out = if with_r {
            f.run(&[q, r, q])
        } else {
            f.run(&[q, q])
        };
        silt::__testing::max_parameter_bytes(None);
        out.unwrap()
    };
    let want_r = data(1000, 3)[0] + 0.5 * (1000 % 7) as f32;
    for with_r in [true, false] {
        let fused = chain(None, with_r);
        for limit in [Some(200), Some(50)] {
            let got = chain(limit, with_r);
            assert_eq!(got.len(), fused.len());
            for (a, b) in fused.iter().zip(&got) {
                assert_eq!(b.shape(), [3, 1000]);
                assert_eq!(bits32(a), bits32(b), "{limit:?}, with r: {with_r}");
            }
            if with_r {
                // the `#[index]` ran over 3,000 elements, not the row's 1,000
                let r = got[1].to_vec::<f32>().unwrap();
                assert_eq!(r[1000].to_bits(), want_r.to_bits(), "{limit:?}");
            }
            // two outputs, two storages
            let mut last = got[got.len() - 1].clone();
            last.copy_from(&Tensor::from_slice(&dev, &vec![0.0f32; 3000], [3, 1000]).unwrap())
                .unwrap();
            assert_ne!(bits32(&got[0]), bits32(&last), "{limit:?}");
        }
    }
}

/// A chain whose broadcast result does not fit is an error before anything
/// runs, on the host as on a device (the host computed it first).
#[test]
fn a_result_too_large_is_an_error_before_anything_runs() {
    for dev in common::devices() {
        let one = TensorT::from_slice(&dev, &[1.0f32], [1]).unwrap();
        for shape in [[usize::MAX], [1usize << 61]] {
            let b = one.broadcast_to(shape).unwrap();
            let mut f = Fusion::new();
            let v = f.input(b.as_tensor());
            let y = f.call(&k::add::KERNEL, &[v, v]).unwrap();
            let err = f.run(&[y]).unwrap_err();
            assert!(
                matches!(
                    err,
                    silt::Error::SizeOverflow { .. } | silt::Error::AllocationTooLarge { .. }
                ),
                "{err:?} on {dev}"
            );
        }
    }
}

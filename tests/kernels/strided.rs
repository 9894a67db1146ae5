//! Kernels over views, without copies: every combination of contiguous, narrowed,
//! transposed and broadcast arguments, 1-D to 4-D; in-place writes through views;
//! NumPy broadcasting; the element index.

use silt::prelude::*;

use crate::common;
use crate::defs;

/// The ways an argument of a given shape can be laid out.
#[derive(Debug, Clone, Copy)]
enum Form {
    Contiguous,
    Narrowed,
    Transposed,
    Broadcast,
}

const FORMS: [Form; 4] = [
    Form::Contiguous,
    Form::Narrowed,
    Form::Transposed,
    Form::Broadcast,
];

/// A view of `shape` in the given form, holding `seed * 1000 + logical index` (for
/// a broadcast, the value of the broadcast source element).
fn make(dev: &Device, shape: &[usize], form: Form, seed: i32) -> TensorT<i32> {
    let n: usize = shape.iter().product();
    let values = |k: usize| -> Vec<i32> { (0..k as i32).map(|i| seed * 1000 + i).collect() };
    match form {
        Form::Contiguous => TensorT::from_slice(dev, &values(n), shape).unwrap(),
        Form::Narrowed => {
            // a larger tensor, narrowed on its first and last axes
            let mut big = shape.to_vec();
            big[0] += 2;
            let last = big.len() - 1;
            if last > 0 {
                big[last] += 1;
            }
            let t = TensorT::from_slice(dev, &values(big.iter().product()), &big).unwrap();
            let t = t.narrow(0, 1, shape[0]).unwrap();
            if last > 0 {
                t.narrow(last, 1, shape[last]).unwrap()
            } else {
                t
            }
        }
        Form::Transposed => {
            // stored with the axes reversed, viewed in `shape` order
            let rev: Vec<usize> = shape.iter().rev().copied().collect();
            let t = TensorT::from_slice(dev, &values(n), &rev).unwrap();
            let perm: Vec<usize> = (0..shape.len()).rev().collect();
            t.permute(&perm).unwrap()
        }
        Form::Broadcast => {
            // size 1 on every other axis, and one leading axis fewer
            let src: Vec<usize> = shape
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, &d)| if i % 2 == 0 { 1 } else { d })
                .collect();
            let k: usize = src.iter().product();
            TensorT::from_slice(dev, &values(k), &src).unwrap()
        }
    }
}

#[test]
fn binary_kernel_over_every_combination_of_layouts() {
    let shapes: [&[usize]; 4] = [&[5], &[3, 4], &[2, 3, 4], &[2, 3, 2, 3]];
    for dev in common::devices() {
        for shape in shapes {
            for fa in FORMS {
                for fb in FORMS {
                    let a = make(&dev, shape, fa, 1);
                    let b = make(&dev, shape, fb, 2);
                    let out = defs::add::launch(&a, &b).unwrap();
                    // two broadcast sources keep their own (smaller) shape
                    let want_shape = if matches!((fa, fb), (Form::Broadcast, Form::Broadcast)) {
                        a.shape().to_vec()
                    } else {
                        shape.to_vec()
                    };
                    assert_eq!(out.shape(), want_shape, "{fa:?} + {fb:?} on {dev}");
                    // the host reference: logical values, broadcast by hand
                    let av = a.broadcast_to(&want_shape).unwrap().to_vec().unwrap();
                    let bv = b.broadcast_to(&want_shape).unwrap().to_vec().unwrap();
                    let want: Vec<i32> = av.iter().zip(&bv).map(|(x, y)| x + y).collect();
                    assert_eq!(
                        out.to_vec().unwrap(),
                        want,
                        "{shape:?}: {fa:?} + {fb:?} on {dev}"
                    );
                }
            }
        }
    }
}

#[test]
fn in_place_writes_through_views_leave_the_rest_untouched() {
    for dev in common::devices() {
        let base: Vec<f32> = (0..60).map(|i| i as f32).collect();
        for form in ["column", "transposed block", "every other row"] {
            let y = TensorT::from_slice(&dev, &base, [6, 10]).unwrap();
            let mut view = match form {
                "column" => y.narrow(1, 3, 1).unwrap(),
                "transposed block" => y
                    .narrow(0, 1, 3)
                    .unwrap()
                    .narrow(1, 2, 4)
                    .unwrap()
                    .transpose(0, 1)
                    .unwrap(),
                _ => y.reshape([3, 20]).unwrap().narrow(1, 0, 10).unwrap(),
            };
            assert!(!view.is_contiguous(), "{form}");
            let touched: Vec<f32> = view.to_vec().unwrap();
            let x = TensorT::full(&dev, 1.0f32, view.shape()).unwrap();
            defs::axpy::launch(100.0, &x, &mut view).unwrap();
            assert_eq!(
                view.to_vec().unwrap(),
                touched.iter().map(|v| v + 100.0).collect::<Vec<_>>(),
                "{form} on {dev}"
            );
            let after = y.to_vec().unwrap();
            let changed = after.iter().zip(&base).filter(|(a, b)| a != b).count();
            assert_eq!(
                changed,
                touched.len(),
                "exactly the view's elements changed ({form} on {dev})"
            );
        }
    }
}

#[test]
fn numpy_broadcasting_between_arguments() {
    for dev in common::devices() {
        let col = TensorT::from_slice(&dev, &[1.0f64, 2.0, 3.0], [3, 1]).unwrap();
        let row = TensorT::from_slice(&dev, &[10.0f64, 20.0], [2]).unwrap();
        let out = defs::add::launch(&col, &row).unwrap();
        assert_eq!(out.shape(), [3, 2]);
        assert_eq!(
            out.to_vec().unwrap(),
            [11.0, 21.0, 12.0, 22.0, 13.0, 23.0],
            "on {dev}"
        );
        // a scalar-shaped tensor with anything
        let one = TensorT::from_slice(&dev, &[0.5f64], []).unwrap();
        assert_eq!(
            defs::add::launch(&one, &row).unwrap().to_vec().unwrap(),
            [10.5, 20.5]
        );
        // incompatible shapes name both
        let bad = TensorT::<f64>::zeros(&dev, [4]).unwrap();
        assert_eq!(
            defs::add::launch(&row, &bad).unwrap_err(),
            Error::ShapeMismatch {
                op: "add",
                left: vec![2],
                right: vec![4]
            }
        );
        // an output keeps its shape: a smaller `&mut` argument is an error
        let mut y = TensorT::<f64>::zeros(&dev, [2]).unwrap();
        let err = defs::axpy::launch(1.0, &out, &mut y).unwrap_err();
        assert_eq!(
            err,
            Error::OutputShape {
                kernel: "axpy",
                output: vec![2],
                broadcast: vec![3, 2]
            }
        );
        assert!(
            err.to_string().contains("[2]") && err.to_string().contains("[3, 2]"),
            "{err}"
        );
        // an input is broadcast into a `&mut` of the full shape
        let mut y = TensorT::<f64>::zeros(&dev, [3, 2]).unwrap();
        defs::axpy::launch(2.0, &row, &mut y).unwrap();
        assert_eq!(
            y.to_vec().unwrap(),
            [20.0, 40.0, 20.0, 40.0, 20.0, 40.0],
            "on {dev}"
        );
    }
}

/// `out[i] = i`: the element index, for a fresh tensor and through a view.
#[kernel(types = [f32, i32, u64])]
pub fn iota<T>(#[index] i: u64, out: &mut T) {
    *out = i as T;
}

/// A checkerboard of width `w` from the element index of a 2-D shape.
#[kernel]
pub fn checkerboard(#[index] i: u64, like: f32, #[scalar] w: u64) -> bool {
    let _ = like;
    (i / w + i % w) % 2 == 0
}

#[test]
fn the_element_index() {
    for dev in common::devices() {
        let mut t = TensorT::<i32>::zeros(&dev, [2, 3]).unwrap();
        iota::launch(&mut t).unwrap();
        assert_eq!(t.to_vec().unwrap(), [0, 1, 2, 3, 4, 5], "on {dev}");
        // through a transposed view: the index is the view's logical index
        let base = TensorT::<f32>::zeros(&dev, [2, 3]).unwrap();
        let mut tv = base.transpose(0, 1).unwrap();
        iota::launch(&mut tv).unwrap();
        assert_eq!(tv.to_vec().unwrap(), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(base.to_vec().unwrap(), [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]);
        let mut big = TensorT::<u64>::zeros(&dev, [1 << 16]).unwrap();
        iota::launch(&mut big).unwrap();
        assert!(big
            .to_vec()
            .unwrap()
            .iter()
            .enumerate()
            .all(|(i, &v)| v == i as u64));
        let like = TensorT::<f32>::zeros(&dev, [4, 4]).unwrap();
        let board = checkerboard::launch(&like, 4).unwrap().to_vec().unwrap();
        let want: Vec<bool> = (0..16u64).map(|i| (i / 4 + i % 4) % 2 == 0).collect();
        assert_eq!(board, want, "on {dev}");
        assert_eq!(iota::eval(7u64, &mut 0.0f32), ());
    }
}

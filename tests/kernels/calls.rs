//! Kernels calling kernels: a `#[kernel]` with values, `#[scalar]`s and one
//! result is callable from another kernel's body, inlined for the caller's
//! type; one launch gives the same bits as the launches it replaces.

use silt::prelude::*;

use crate::common;

/// The kernel called: its `#[scalar]` is a plain value in a call.
#[kernel(types = [f32, f64])]
pub fn scaled_square<T>(x: T, #[scalar] k: T) -> T {
    k * x * x
}

/// A kernel that calls a helper, called in turn.
#[kernel(types = [f32, f64])]
pub fn twice<T>(x: T) -> T {
    super::helpers::sq(x) + x + x - super::helpers::sq(x)
}

/// Calls two kernels, one of them twice, and one through its module path.
#[kernel(types = [f32, f64])]
pub fn fused<T>(x: T, b: T) -> T {
    let s = scaled_square(x + b, 0.5);
    crate::calls::twice(s) - scaled_square(b, 2.0)
}

/// A non-generic caller of a generic kernel.
#[kernel]
pub fn fused_f32(x: f32) -> f32 {
    twice(scaled_square(x, 3.0))
}

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

#[test]
fn one_launch_equals_the_launches_it_replaces() {
    let xs = [0.1f64, -3.5, 1e10, 7.25, -0.0, 2.0 / 3.0];
    let bs = [1.0f64, 0.3, -1e10, 1e-300, 0.0, 1.0 / 7.0];
    for dev in common::devices() {
        let (x, b) = (col(&dev, &xs), col(&dev, &bs));
        let fused_out = fused::launch(&x, &b).unwrap().to_vec().unwrap();
        // the same chain as separate launches
        let xb = plus::launch(&x, &b).unwrap();
        let s = scaled_square::launch(&xb, 0.5).unwrap();
        let t = twice::launch(&s).unwrap();
        let u = scaled_square::launch(&b, 2.0).unwrap();
        let chained = minus::launch(&t, &u).unwrap().to_vec().unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fused_out), bits(&chained), "on {dev}");
        for (i, (&xi, &bi)) in xs.iter().zip(&bs).enumerate() {
            assert_eq!(fused::eval(xi, bi).to_bits(), fused_out[i].to_bits());
        }
        let y = col(&dev, &[1.5f32, -2.0, 0.0]);
        assert_eq!(
            fused_f32::launch(&y).unwrap().to_vec().unwrap(),
            [13.5, 24.0, 0.0],
            "on {dev}"
        );
    }
}

#[kernel(types = [f64])]
pub fn plus<T>(a: T, b: T) -> T {
    a + b
}

#[kernel(types = [f64])]
pub fn minus<T>(a: T, b: T) -> T {
    a - b
}

#[test]
fn the_callee_is_compiled_into_the_callers_program() {
    let src = fused::source(DType::F32).unwrap();
    assert!(src.contains("scaled_square"), "{src}");
    assert!(src.contains("twice"), "{src}");
    // the callee's own program is untouched
    assert!(!scaled_square::source(DType::F32).unwrap().contains("twice"));
}

/// Calls a kernel and, itself, the helper that kernel calls: the helper is
/// found first through the kernel (as `twice`'s re-export), and the body's
/// own call of it must still find it (it once failed: "`sq` is not a
/// `#[helper]`", found by the random kernels).
#[kernel(types = [f32, f64])]
pub fn twice_and_square<T>(x: T) -> T {
    twice(x) + super::helpers::sq(x)
}

/// A kernel that calls a helper with two results.
#[kernel(types = [f32, f64])]
pub fn fraction<T>(x: T) -> T {
    let (_, f) = super::tuples::split(x);
    f
}

/// Calls `fraction` and then, destructured, the helper it calls.
#[kernel]
pub fn whole_plus_fraction(x: f64) -> f64 {
    let f = fraction(x);
    let (w, _) = super::tuples::split(x);
    w + f
}

#[test]
fn a_kernel_calls_a_helper_that_a_kernel_it_calls_calls_too() {
    for dev in common::devices() {
        let x = col(&dev, &[1.5f64, -2.25, 3.0]);
        assert_eq!(
            twice_and_square::launch(&x).unwrap().to_vec().unwrap(),
            [5.25, 0.5625, 15.0],
            "on {dev}"
        );
        assert_eq!(
            whole_plus_fraction::launch(&x).unwrap().to_vec().unwrap(),
            [1.5, -2.25, 3.0],
            "on {dev}"
        );
    }
}

//! `#[helper]` functions: called from two kernels, from another helper, generic
//! and not, with the same results on the device and the host.

use silt::prelude::*;

use crate::common;

#[helper(types = [f32, f64])]
pub fn sq<T>(x: T) -> T {
    x * x
}

/// A helper calling a helper.
#[helper(types = [f32, f64])]
pub fn norm2<T>(a: T, b: T) -> T {
    (sq(a) + sq(b)).sqrt()
}

#[helper]
pub fn clamp01(x: f32) -> f32 {
    if x < 0.0 {
        0.0
    } else if x > 1.0 {
        1.0
    } else {
        x
    }
}

#[kernel(types = [f32, f64])]
pub fn hypot2<T>(a: T, b: T) -> T {
    norm2(a, b)
}

/// Two outputs, and the same helper as `hypot2` (through `norm2`).
#[kernel(types = [f32, f64])]
pub fn sq_sum<T>(a: T, b: T) -> (T, T) {
    (sq(a) + sq(b), sq(a - b))
}

#[kernel]
pub fn clamped(x: f32) -> f32 {
    clamp01(x * 2.0) + sq(x)
}

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

#[test]
fn helpers_from_several_kernels() {
    for dev in common::devices() {
        let a = col(&dev, &[3.0f64, 0.5, -2.0]);
        let b = col(&dev, &[4.0f64, 1.5, 0.0]);
        assert_eq!(
            hypot2::launch(&a, &b).unwrap().to_vec().unwrap(),
            [5.0, 2.5f64.sqrt(), 2.0],
            "on {dev}"
        );
        let (s, d) = sq_sum::launch(&a, &b).unwrap();
        assert_eq!(s.to_vec().unwrap(), [25.0, 2.5, 4.0]);
        assert_eq!(d.to_vec().unwrap(), [1.0, 1.0, 4.0]);
        let x = col(&dev, &[-1.0f32, 0.25, 3.0]);
        assert_eq!(
            clamped::launch(&x).unwrap().to_vec().unwrap(),
            [1.0, 0.5625, 10.0],
            "on {dev}"
        );
        assert_eq!(hypot2::eval(6.0f32, 8.0), 10.0);
    }
}

#[test]
fn each_program_holds_the_helpers_it_uses_once() {
    let src = hypot2::source(DType::F32).unwrap();
    let defs = |s: &str, name: &str| {
        s.lines()
            .filter(|l| l.starts_with("static float silt_helper_") && l.contains(name))
            .count()
    };
    assert_eq!(defs(src, "_sq_"), 1, "{src}");
    assert_eq!(defs(src, "_norm2_"), 1, "{src}");
    // callees before callers
    assert!(src.find("silt_helper_sq_").unwrap() < src.find("silt_helper_norm2_").unwrap());
    let f64_src = sq_sum::source(DType::F64).unwrap();
    assert!(
        f64_src.contains("silt_helper_sq_")
            && f64_src.contains("_f64(")
            && !f64_src.contains("norm2"),
        "{f64_src}"
    );
    let mixed = clamped::source(DType::F32).unwrap();
    assert!(mixed.contains("silt_helper_clamp01_") && mixed.contains("silt_helper_sq_"));
}

/// A documented helper that a kernel reaches only through two other
/// helpers, themselves reached through a third.
#[helper(types = [f32, f64])]
pub fn twofold<T>(x: T) -> T {
    x + x
}

/// The first way to [`twofold`].
#[helper(types = [f32, f64])]
pub fn doubled_plus_one<T>(x: T) -> T {
    twofold(x) + 1.0
}

/// The second way to [`twofold`].
#[helper(types = [f32, f64])]
pub fn doubled_minus_one<T>(x: T) -> T {
    twofold(x) - 1.0
}

/// Both ways.
#[helper(types = [f32, f64])]
pub fn both_ways<T>(x: T) -> T {
    doubled_plus_one(x) * doubled_minus_one(x)
}

#[kernel(types = [f32, f64])]
pub fn four_x_squared_minus_one<T>(x: T) -> T {
    both_ways(x)
}

/// A helper reached by two paths through other helpers' expansions is one
/// function in the program: its doc comments reach the two as different
/// tokens (`#[doc = ".."]` and `#[doc = r".."]`), which do not make two
/// definitions of the same code.
#[test]
fn a_helper_reached_through_two_helpers_is_defined_once() {
    for dt in [DType::F32, DType::F64] {
        let src = four_x_squared_minus_one::source(dt).unwrap();
        let defs = src
            .lines()
            .filter(|l| {
                l.starts_with("static") && l.contains("silt_helper_twofold_") && l.contains('{')
            })
            .count();
        assert_eq!(defs, 1, "{src}");
    }
    for dev in common::devices() {
        let x = col(&dev, &[3.0f32, -0.5]);
        let y = four_x_squared_minus_one::launch(&x)
            .unwrap()
            .to_vec()
            .unwrap();
        assert_eq!(y, [35.0, 0.0], "on {dev}");
    }
}

/// Two helpers with one name in different modules stay two functions (not
/// `pub`: a crate exports its `pub` kernels and helpers by name, so two of them
/// may not share one).
pub mod twin_a {
    use silt::prelude::*;
    #[helper]
    pub(crate) fn twin(x: f32) -> f32 {
        x * x
    }
}

pub mod twin_b {
    use silt::prelude::*;
    #[helper]
    pub(crate) fn twin(x: f32) -> f32 {
        x + x
    }
}

#[kernel]
pub fn twins(x: f32) -> f32 {
    twin_a::twin(x) * 100.0 + twin_b::twin(x)
}

/// A helper in another module calling its sibling: the call is resolved from the
/// helper's module, not from the kernel's (where another `sq` exists; one of
/// the two is `pub(crate)`: a crate exports its `pub` helpers by name).
pub mod geometry {
    use silt::prelude::*;
    #[helper]
    pub(crate) fn sq(x: f32) -> f32 {
        x * x
    }
    #[helper]
    pub fn norm(x: f32, y: f32) -> f32 {
        (sq(x) + sq(y)).sqrt()
    }
}

#[kernel]
pub fn geometry_norm(x: f32, y: f32) -> f32 {
    geometry::norm(x, y) + sq(1.0f32) * 0.0
}

#[test]
fn helpers_are_resolved_where_they_are_written() {
    for dev in common::devices() {
        let x = col(&dev, &[3.0f32]);
        assert_eq!(
            twins::launch(&x).unwrap().to_vec().unwrap(),
            [906.0],
            "on {dev}"
        );
        let y = col(&dev, &[4.0f32]);
        assert_eq!(
            geometry_norm::launch(&x, &y).unwrap().to_vec().unwrap(),
            [5.0],
            "on {dev}"
        );
    }
}

/// Private helpers calling each other inside a module, used by a kernel of that
/// module (this failed to compile: the re-export of `twice` was more visible than
/// `twice`).
pub mod private_chain {
    use silt::prelude::*;
    #[helper]
    fn twice(x: f32) -> f32 {
        x * 2.0
    }
    #[helper]
    fn twice_plus_one(x: f32) -> f32 {
        twice(x) + 1.0
    }
    #[kernel]
    pub fn chained(x: f32) -> f32 {
        twice_plus_one(x) * 10.0
    }
}

#[test]
fn private_helpers_call_each_other_in_a_module() {
    for dev in common::devices() {
        let x = col(&dev, &[3.0f32, -0.5]);
        assert_eq!(
            private_chain::chained::launch(&x)
                .unwrap()
                .to_vec()
                .unwrap(),
            [70.0, 0.0],
            "on {dev}"
        );
    }
}

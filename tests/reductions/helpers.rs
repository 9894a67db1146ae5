//! `#[helper]`s called from the functions of reductions and scans (one with
//! several results, destructured): each gives the bits of the same reduction
//! with the helpers' bodies written inline, on every device.

use silt::prelude::*;

use crate::common;

#[helper(types = [f32, f64])]
pub fn sq<T>(x: T) -> T {
    x * x
}

/// The larger of two `(value, index)` pairs: NaN first, then the larger
/// value, the smaller index on ties.
#[helper(types = [f32, f64])]
pub fn pick<T>(av: T, ai: i64, bv: T, bi: i64) -> (T, i64) {
    if av != av {
        return (av, ai);
    }
    if bv != bv {
        return (bv, bi);
    }
    if bv > av || (bv == av && bi < ai) {
        (bv, bi)
    } else {
        (av, ai)
    }
}

/// Helpers in `map` and `finish`.
#[reduce(types = [f32, f64])]
pub mod sum_sq_helper {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        sq(x)
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        sq(acc) / (count as T + 1.0)
    }
}

#[reduce(types = [f32, f64])]
pub mod sum_sq_inline {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        x * x
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        acc * acc / (count as T + 1.0)
    }
}

/// `defs::argmax` with its `combine` written as a call of `pick`, a helper
/// with two results.
#[reduce(types = [f32, f64], empty = error)]
pub mod argmax_helper {
    pub fn identity<T>() -> (T, i64) {
        (T::MIN, -1)
    }
    pub fn map<T>(x: T, #[index] i: u64) -> (T, i64) {
        (x, i as i64)
    }
    pub fn combine<T>(a: (T, i64), b: (T, i64)) -> (T, i64) {
        let (v, i) = pick(a.0, a.1, b.0, b.1);
        (v, i)
    }
    pub fn finish<T>(acc: (T, i64), count: u64) -> i64 {
        acc.1
    }
}

#[scan(types = [f32, f64])]
pub mod running_sq_helper {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        sq(x)
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[scan(types = [f32, f64])]
pub mod running_sq_inline {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        x * x
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

/// Half of `x` and the rest.
#[helper(types = [f32, f64])]
pub fn halves<T>(x: T) -> (T, T) {
    let h = x * 0.5;
    (h, x - h)
}

/// A scan whose `map` destructures a helper's two results.
#[scan(types = [f32, f64])]
pub mod running_halves_helper {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        let (h, rest) = halves(x);
        h * 3.0 + rest
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[scan(types = [f32, f64])]
pub mod running_halves_inline {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(x: T) -> T {
        let h = x * 0.5;
        h * 3.0 + (x - h)
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

fn data(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let i = i as u32;
            let v = (i.wrapping_mul(2_654_435_761) >> 8) as f32 / 65536.0 - 128.0;
            if i % 997 == 5 {
                f32::NAN
            } else {
                v
            }
        })
        .collect()
}

fn bits(t: &TensorT<f32>) -> Vec<u32> {
    t.to_vec().unwrap().iter().map(|v| v.to_bits()).collect()
}

#[test]
fn helpers_in_reductions_and_scans_give_the_inline_bits() {
    let shape = [37usize, 129];
    let host = data(shape[0] * shape[1]);
    let mut first: Option<(Vec<u32>, Vec<i64>, Vec<u32>)> = None;
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &host, shape).unwrap();
        for axes in [Axes::all(), Axes::of([-1]), Axes::of([0])] {
            let a = sum_sq_helper::launch(&x, axes).unwrap();
            let b = sum_sq_inline::launch(&x, axes).unwrap();
            assert_eq!(bits(&a), bits(&b), "sum_sq on {dev}");
            let a = argmax_helper::launch(&x, axes).unwrap();
            let b = crate::defs::argmax::launch(&x, axes).unwrap();
            assert_eq!(a.to_vec().unwrap(), b.to_vec().unwrap(), "argmax on {dev}");
        }
        for axis in [0, -1] {
            let a = running_sq_helper::launch(&x, axis).unwrap();
            let b = running_sq_inline::launch(&x, axis).unwrap();
            assert_eq!(bits(&a), bits(&b), "running_sq on {dev}");
            let a = running_halves_helper::launch(&x, axis).unwrap();
            let b = running_halves_inline::launch(&x, axis).unwrap();
            assert_eq!(bits(&a), bits(&b), "running_halves on {dev}");
        }
        // the device and the host agree too
        let got = (
            bits(&sum_sq_helper::launch(&x, Axes::of([-1])).unwrap()),
            argmax_helper::launch(&x, Axes::of([0]))
                .unwrap()
                .to_vec()
                .unwrap(),
            bits(&running_sq_helper::launch(&x, -1).unwrap()),
        );
        match &first {
            None => first = Some(got),
            Some(f) => assert!(*f == got, "on {dev}: not the first device's bits"),
        }
    }
    let row = &host[..129];
    assert_eq!(
        sum_sq_helper::eval(row).to_bits(),
        sum_sq_inline::eval(row).to_bits()
    );
}

/// A `#[scalar]` of `map` named `launch`: `dispatch` took it as a parameter
/// of that name and then called `launch(..)` (found by the random kernels).
#[reduce(types = [f32, f64])]
pub mod scaled_sum {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn map<T>(#[scalar] launch: T, x: T) -> T {
        launch * x
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
    pub fn finish<T>(acc: T, count: u64) -> T {
        acc + 0.0 * count as T
    }
}

#[test]
fn a_scalar_named_launch() {
    for dev in common::devices() {
        let x: Tensor = TensorT::from_slice(&dev, &[1.0f64, 2.0, 3.0], [3])
            .unwrap()
            .into();
        let s = scaled_sum::dispatch(2.0, &x, Axes::all()).unwrap();
        assert_eq!(s.typed::<f64>().unwrap().to_vec().unwrap(), [12.0], "{dev}");
    }
}

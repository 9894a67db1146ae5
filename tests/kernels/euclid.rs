//! `rem_euclid` and `div_euclid` on every integer type and on `f16`, `f32` and
//! `f64`: the device, the host's launch and `eval` agree bit for bit with each
//! other and with Rust's own methods wherever Rust defines them; a zero divisor
//! gives 0 and `MIN / -1` wraps to `MIN` (remainder 0), as silt's `/` and `%` do.

use silt::f16;
use silt::prelude::*;

use crate::common;
use crate::defs::euclid;
use crate::values::{pairs, Edge};

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// An element type with the expected `(rem_euclid, div_euclid)` of two values.
trait Euclid: Edge + euclid::Instance {
    fn want(a: Self, b: Self) -> (Self, Self);
    /// Pairs to check besides every pair of edge values.
    fn extra() -> Vec<(Self, Self)> {
        Vec::new()
    }
}

macro_rules! int_want {
    ($($t:ty),*) => {$(
        impl Euclid for $t {
            fn want(a: $t, b: $t) -> ($t, $t) {
                match (a.checked_rem_euclid(b), a.checked_div_euclid(b)) {
                    (Some(r), Some(q)) => (r, q),
                    // where Rust panics: silt's defined results
                    _ if b == 0 => (0, 0),
                    _ => {
                        assert!(a == <$t>::MIN && b as i128 == -1, "{a} {b}");
                        (0, <$t>::MIN)
                    }
                }
            }
        }
    )*};
}

int_want!(u8, i8, u16, i16, u32, i32, u64, i64);

impl Euclid for f32 {
    fn want(a: f32, b: f32) -> (f32, f32) {
        (a.rem_euclid(b), a.div_euclid(b))
    }
}

impl Euclid for f64 {
    fn want(a: f64, b: f64) -> (f64, f64) {
        (a.rem_euclid(b), a.div_euclid(b))
    }
}

/// Rust's formulas with each `f16` operation done exactly in `f64` (every sum,
/// remainder and integer here is exact there) and rounded once to `f16`.
impl Euclid for f16 {
    fn want(a: f16, b: f16) -> (f16, f16) {
        let round = silt::__private::f16_from_f64;
        let (x, y) = (a.to_f64(), b.to_f64());
        let r = x % y;
        let rem = if r < 0.0 {
            round(r + y.abs())
        } else {
            round(r)
        };
        // the quotient is an f16 before it is truncated
        let q = round(x / y).to_f64().trunc();
        let div = if r < 0.0 {
            if y > 0.0 {
                q - 1.0
            } else {
                q + 1.0
            }
        } else {
            q
        };
        (rem, round(div))
    }
    fn extra() -> Vec<(f16, f16)> {
        let h = silt::__private::f16_from_f64;
        vec![(h(2047.0), h(682.5)), (h(-1537.0), h(-0.75))]
    }
}

/// Every pair of `T`'s edge values on every device, against `eval` and
/// [`Euclid::want`]; returns how many pairs were checked per device.
fn check<T: Euclid>() -> usize {
    let (mut a, mut b) = pairs::<T>();
    for (x, y) in T::extra() {
        a.push(x);
        b.push(y);
    }
    for dev in common::devices() {
        let (r, q) = euclid::launch(&col(&dev, &a), &col(&dev, &b)).unwrap();
        let (r, q) = (r.to_vec().unwrap(), q.to_vec().unwrap());
        for i in 0..a.len() {
            let e = euclid::eval(a[i], b[i]);
            let w = T::want(a[i], b[i]);
            let what = format!("{} {:?}, {:?} on {dev}", T::DTYPE, a[i], b[i]);
            assert!(
                r[i].key() == e.0.key() && q[i].key() == e.1.key(),
                "{what}: launch ({:?}, {:?}), eval ({:?}, {:?})",
                r[i],
                q[i],
                e.0,
                e.1
            );
            assert!(
                e.0.key() == w.0.key() && e.1.key() == w.1.key(),
                "{what}: eval ({:?}, {:?}), expected ({:?}, {:?})",
                e.0,
                e.1,
                w.0,
                w.1
            );
        }
    }
    a.len()
}

#[test]
fn integer_euclid_is_rusts_and_defined_for_zero_and_min_by_minus_one() {
    for n in [
        check::<u8>(),
        check::<i8>(),
        check::<u16>(),
        check::<i16>(),
        check::<u32>(),
        check::<i32>(),
        check::<u64>(),
        check::<i64>(),
    ] {
        assert!(n > 100);
    }
    // the defined cases, spelled out
    assert_eq!(euclid::eval(-7i32, 0), (0, 0));
    assert_eq!(euclid::eval(i8::MIN, -1), (0, i8::MIN));
    assert_eq!(euclid::eval(-7i64, 2), (1, -4));
    assert_eq!(euclid::eval(-7i16, -2), (1, 4));
    assert_eq!(euclid::eval(7i8, -2), (1, -3));
    assert_eq!(euclid::eval(i32::MIN + 1, i32::MIN), (1, 1));
    assert_eq!(euclid::eval(7u8, 0), (0, 0));
}

#[test]
fn float_euclid_is_rusts_at_edge_values() {
    assert!(check::<f32>() > 1000);
    assert!(check::<f64>() > 1000);
    let x = euclid::eval(-7.0f32, 2.0);
    assert_eq!(x, (1.0, -4.0));
    let x = euclid::eval(7.0f64, -2.0);
    assert_eq!(x, (1.0, -3.0));
    // a tiny negative remainder rounds up to the divisor, as in Rust
    let x = euclid::eval(-f32::from_bits(1), 1.0);
    assert_eq!(x, (1.0, -1.0));
    assert!(euclid::eval(1.0f64, 0.0).0.is_nan());
    assert_eq!(euclid::eval(1.0f64, 0.0).1, f64::INFINITY);
}

#[test]
fn f16_euclid_rounds_like_f16_arithmetic() {
    assert!(check::<f16>() > 1000);
    let h = silt::__private::f16_from_f64;
    // the quotient 2047 / 682.5 = 2.99927.. is 3 in f16 before `trunc` (2
    // through f32), as in Rust's f16
    assert_eq!(euclid::eval(h(2047.0), h(682.5)), (h(682.0), h(3.0)));
    // -1537 / -0.75 = 2049.3.. is 2050 in f16, and 2050 + 1 rounds to even:
    // 2052 (2050 through f32)
    assert_eq!(euclid::eval(h(-1537.0), h(-0.75)), (h(0.5), h(2052.0)));
}

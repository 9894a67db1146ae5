//! `match` (integer and `bool` literals, ranges, `|`, `_`, bindings, guards) and
//! `let (a, b) = (x, y)`: the device, the host and `eval` agree with the same
//! `match` compiled as plain Rust.

use silt::prelude::*;

use crate::common;

#[kernel(types = [i8, i32, i64, u8, u32])]
pub fn bucket<T>(x: T) -> T {
    match x {
        0 => 100,
        1 | 2 | 3 => 101,
        4..=9 => 102,
        10..20 => 103,
        n if n > 100 => n - 100,
        n @ 50..=60 => n + 1,
        _ => 7,
    }
}

#[allow(clippy::manual_range_patterns)]
fn bucket_plain(x: i64) -> i64 {
    match x {
        0 => 100,
        1 | 2 | 3 => 101,
        4..=9 => 102,
        10..20 => 103,
        n if n > 100 => n - 100,
        n @ 50..=60 => n + 1,
        _ => 7,
    }
}

/// A `match` on `bool` covering both values, as a statement and as a value,
/// and a negative literal.
#[kernel(types = [i32, i64])]
pub fn signs<T>(x: T, y: &mut T) -> T {
    let mut acc = match x < 0 {
        true => -1,
        false => 1,
    };
    match x {
        -5..=-1 => {
            acc = acc * 10;
        }
        -100 => {
            *y = *y + 1;
        }
        _ => {}
    }
    acc
}

/// `let (a, b) = (b, a)` swaps: every value is computed before any name is
/// bound; `_` drops one.
#[kernel(types = [f32, f64, i32])]
pub fn swap_sub<T>(a: T, b: T) -> T {
    let (a, b) = (b, a);
    let (mut c, _) = (a - b, a * b);
    c = c + a;
    c
}

#[test]
fn match_agrees_with_rust_on_every_device() {
    let xs: Vec<i32> = (-130..200).collect();
    for dev in common::devices() {
        let x = TensorT::from_slice(&dev, &xs, [xs.len()]).unwrap();
        let got = bucket::launch(&x).unwrap().to_vec().unwrap();
        let want: Vec<i32> = xs.iter().map(|&v| bucket_plain(v.into()) as i32).collect();
        assert_eq!(got, want, "on {dev}");
        let xs8: Vec<u8> = (0..=255).collect();
        let x8 = TensorT::from_slice(&dev, &xs8, [256]).unwrap();
        let got8 = bucket::launch(&x8).unwrap().to_vec().unwrap();
        let want8: Vec<u8> = xs8.iter().map(|&v| bucket_plain(v.into()) as u8).collect();
        assert_eq!(got8, want8, "on {dev}");
        assert_eq!(bucket::eval(55i64), 56);

        let mut y = TensorT::from_slice(&dev, &vec![0i64; xs.len()], [xs.len()]).unwrap();
        let x64: Vec<i64> = xs.iter().map(|&v| v.into()).collect();
        let xt = TensorT::from_slice(&dev, &x64, [xs.len()]).unwrap();
        let s = signs::launch(&xt, &mut y).unwrap().to_vec().unwrap();
        for (i, &v) in x64.iter().enumerate() {
            let base = if v < 0 { -1 } else { 1 };
            let want = if (-5..=-1).contains(&v) {
                base * 10
            } else {
                base
            };
            assert_eq!(s[i], want, "x = {v} on {dev}");
        }
        let ys = y.to_vec().unwrap();
        assert_eq!(ys.iter().sum::<i64>(), 1, "one -100 in the input, on {dev}");

        let a = TensorT::from_slice(&dev, &[5.0f32, 1.5], [2]).unwrap();
        let b = TensorT::from_slice(&dev, &[2.0f32, -4.0], [2]).unwrap();
        // a' = b, b' = a: c = (b - a) + b
        assert_eq!(
            swap_sub::launch(&a, &b).unwrap().to_vec().unwrap(),
            [-1.0, -9.5],
            "on {dev}"
        );
    }
}

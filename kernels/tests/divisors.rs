//! `gcd` and `lcm` against the divisors computed in `i128`: every pair of
//! `i8` and of `u8` values, and the edges and random pairs of the wider
//! types, on the host and the OpenCL device.

#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // wrapping, as the kernels

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::prelude::*;
use silt_kernels as k;

/// The greatest common divisor of `|a|` and `|b|`.
fn gcd(a: i128, b: i128) -> i128 {
    let (mut x, mut y) = (a.abs(), b.abs());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x
}

/// The least common multiple of `|a|` and `|b|`, 0 where either is 0.
fn lcm(a: i128, b: i128) -> i128 {
    let g = gcd(a, b);
    if g == 0 {
        0
    } else {
        // wrapping: its low 64 bits are the exact product's
        (a.abs() / g).wrapping_mul(b.abs())
    }
}

/// Runs `gcd` and `lcm` on every device over the pairs and checks each
/// against `want`, the `i128` results wrapped to `T` by `wrap`.
fn check<T>(pairs: &[(T, T)], wrap: impl Fn(i128) -> T)
where
    T: Element + Into<i128> + std::fmt::Debug + k::gcd::Instance + k::lcm::Instance,
{
    let a: Vec<T> = pairs.iter().map(|p| p.0).collect();
    let b: Vec<T> = pairs.iter().map(|p| p.1).collect();
    for dev in common::devices() {
        let ta = TensorT::from_slice(&dev, &a, [a.len()]).unwrap();
        let tb = TensorT::from_slice(&dev, &b, [b.len()]).unwrap();
        let g = k::gcd::launch(&ta, &tb).unwrap().to_vec().unwrap();
        let l = k::lcm::launch(&ta, &tb).unwrap().to_vec().unwrap();
        for (i, &(x, y)) in pairs.iter().enumerate() {
            let (xi, yi) = (x.into(), y.into());
            assert_eq!(g[i], wrap(gcd(xi, yi)), "gcd({x:?}, {y:?}) on {dev:?}");
            // the product wraps as `T`'s multiplication does
            assert_eq!(l[i], wrap(lcm(xi, yi)), "lcm({x:?}, {y:?}) on {dev:?}");
        }
    }
}

#[test]
fn every_pair_of_bytes() {
    let all: Vec<(i8, i8)> = (i8::MIN..=i8::MAX)
        .flat_map(|x| (i8::MIN..=i8::MAX).map(move |y| (x, y)))
        .collect();
    check(&all, |v| v as i8);
    let all: Vec<(u8, u8)> = (0..=u8::MAX)
        .flat_map(|x| (0..=u8::MAX).map(move |y| (x, y)))
        .collect();
    check(&all, |v| v as u8);
}

/// `(x, y)` pairs of the edges (0, ±1, `MIN`, `MAX`, powers of two, primes)
/// and of pseudo-random values, products of small factors among them.
fn pairs(edges: &[i128], lo: i128, hi: i128) -> Vec<(i128, i128)> {
    let mut v: Vec<(i128, i128)> = edges
        .iter()
        .flat_map(|&x| edges.iter().map(move |&y| (x, y)))
        .collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let span = (hi - lo) as u128 + 1;
    for _ in 0..3000 {
        let f = [2, 3, 5, 6, 12, 30, 210][(next() % 7) as usize];
        let x = lo + (u128::from(next()) % span) as i128;
        let y = lo + (u128::from(next()) % span) as i128;
        // a common factor now and then, so the divisors are not all 1
        let (x, y) = if next() % 2 == 0 {
            ((x / f).max(lo / f) * f, (y / f) * f)
        } else {
            (x, y)
        };
        v.push((x.clamp(lo, hi), y.clamp(lo, hi)));
    }
    v
}

#[test]
fn edges_and_random_pairs_of_wider_types() {
    macro_rules! signed {
        ($t:ty) => {{
            let (lo, hi) = (i128::from(<$t>::MIN), i128::from(<$t>::MAX));
            let e = [
                0,
                1,
                -1,
                2,
                -2,
                12,
                -18,
                97,
                lo,
                lo + 1,
                hi,
                hi - 1,
                lo / 2,
                1 << 10,
            ];
            let p: Vec<($t, $t)> = pairs(&e, lo, hi)
                .into_iter()
                .map(|(x, y)| (x as $t, y as $t))
                .collect();
            check(&p, |v| v as $t);
        }};
    }
    macro_rules! unsigned {
        ($t:ty) => {{
            let hi = i128::from(<$t>::MAX);
            let e = [0, 1, 2, 12, 18, 97, hi, hi - 1, hi / 2 + 1, 1 << 10];
            let p: Vec<($t, $t)> = pairs(&e, 0, hi)
                .into_iter()
                .map(|(x, y)| (x as $t, y as $t))
                .collect();
            check(&p, |v| v as $t);
        }};
    }
    signed!(i16);
    signed!(i32);
    signed!(i64);
    unsigned!(u16);
    unsigned!(u32);
    unsigned!(u64);
}

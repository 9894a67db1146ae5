//! Edge values per element type, defined once: the random kernels
//! (`silt-random-kernels`) and the differential tests (`tests/kernels`,
//! `silt-kernels`' tests) run kernels on them.

use half::f16;

/// An element type with edge values: extremes, zeros, ±1, NaNs (of both
/// signs), infinities, subnormals, values next to the limits where casts
/// saturate, round or wrap, and values next to `f16` rounding ties.
pub trait Edges: Copy + Sized {
    /// The edge values, without repeats, in a fixed order.
    fn edges() -> Vec<Self>;
}

impl Edges for bool {
    fn edges() -> Vec<bool> {
        vec![false, true]
    }
}

macro_rules! int_edges {
    ($($t:ident),*) => {$(
        impl Edges for $t {
            #[allow(
                unused_comparisons,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_possible_wrap
            )]
            fn edges() -> Vec<$t> {
                // the larger constants wrap to other bit patterns in narrow types
                let mut v = vec![
                    $t::MIN, $t::MAX, 0, 1, 2, 3, 7, 8, 100, $t::MAX - 1, $t::MIN + 1,
                    $t::MAX / 2, ($t::MAX / 2).wrapping_add(1), 0x55u64 as $t, 0xaau64 as $t,
                    127u64 as $t, 128u64 as $t, 255u64 as $t, 256u64 as $t, 65535u64 as $t,
                    65536u64 as $t, 16_777_217u64 as $t, 2_147_483_647u64 as $t,
                    2_147_483_648u64 as $t, 4_294_967_295u64 as $t,
                    9_007_199_254_740_993u64 as $t,
                ];
                if $t::MIN < 0 {
                    v.extend([
                        (0 as $t).wrapping_sub(1),
                        (0 as $t).wrapping_sub(2),
                        (0 as $t).wrapping_sub(100),
                        (0 as $t).wrapping_sub(127).wrapping_sub(1),
                    ]);
                }
                dedup(v, |x| *x as u64)
            }
        }
    )*};
}

int_edges!(u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! float_edges {
    ($t:ident) => {
        impl Edges for $t {
            #[allow(clippy::excessive_precision)]
            fn edges() -> Vec<$t> {
                let v = vec![
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    0.5,
                    -0.5,
                    1.5,
                    2.5,
                    -2.5,
                    0.1,
                    3.0,
                    -7.25,
                    $t::NAN,
                    -$t::NAN,
                    $t::INFINITY,
                    $t::NEG_INFINITY,
                    $t::MAX,
                    $t::MIN,
                    $t::MIN_POSITIVE,
                    -$t::MIN_POSITIVE,
                    $t::from_bits(1),
                    -$t::from_bits(1),
                    $t::MIN_POSITIVE / 3.0,
                    $t::EPSILON,
                    1.0 - $t::EPSILON / 2.0,
                    127.9,
                    -128.5,
                    128.0,
                    255.5,
                    256.0,
                    -129.0,
                    65535.9,
                    -32768.7,
                    65536.0,
                    2147483520.0,
                    2147483648.0,
                    -2147483904.0,
                    4294967296.0,
                    3.0e9,
                    -3.0e9,
                    9.3e18,
                    1.8446744e19,
                    -9.3e18,
                    1.0e19,
                    -1.0e19,
                    1.0e10,
                    16777217.0,
                    88.5,
                    -100.0,
                    1.0e-10,
                    0.75,
                    709.0,
                    -745.0,
                    1.0e30,
                    std::$t::consts::PI,
                    std::$t::consts::FRAC_PI_2,
                    std::$t::consts::E,
                    1.0 + $t::EPSILON,
                    1.000_244_140_625,
                    1.5 * $t::EPSILON,
                    $t::MAX * 0.75,
                    -$t::MAX * 0.75,
                    268_435_456.0,
                ];
                dedup(v, |x| u64::from(x.to_bits()))
            }
        }
    };
}

float_edges!(f32);
float_edges!(f64);

impl Edges for f16 {
    /// `f16`'s own edges (ties, the largest finite values, subnormals), then
    /// every finite `f32` edge rounded to `f16`.
    fn edges() -> Vec<f16> {
        let own = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.1,
            3.0,
            -7.25,
            127.9,
            -128.5,
            128.0,
            255.5,
            256.0,
            -129.0,
            2048.0,
            2049.0,
            2050.0,
            -2052.0,
            4095.0,
            32767.0,
            -32768.0,
            65504.0,
            -65504.0,
            1000.0,
            0.333,
            11.0,
            11.1,
            -17.0,
            88.5,
            -100.0,
            0.75,
            std::f32::consts::PI,
            std::f32::consts::FRAC_PI_2,
            std::f32::consts::E,
            6.1e-5,
            1.0e-7,
            3.0e-8,
        ]
        .into_iter()
        .map(f16::from_f32);
        let special = [
            f16::NAN,
            -f16::NAN,
            f16::INFINITY,
            f16::NEG_INFINITY,
            f16::MAX,
            f16::MIN,
            f16::MIN_POSITIVE,
            -f16::MIN_POSITIVE,
            f16::from_bits(1),
            f16::from_bits(0x8001),
            f16::from_bits(0x03ff),
            f16::EPSILON,
            f16::ONE - f16::EPSILON / f16::from_f32(2.0),
            f16::ONE + f16::EPSILON,
            f16::from_bits(0x7bfe),
            f16::from_bits(0x3c01),
        ];
        let from_f32 = f32::edges()
            .into_iter()
            .map(f16::from_f32)
            .filter(|x| !x.is_infinite());
        let v: Vec<f16> = own.chain(special).chain(from_f32).collect();
        dedup(v, |x| u64::from(x.to_bits()))
    }
}

/// `v` without repeats (by `key`), in order.
fn dedup<T: Copy>(v: Vec<T>, key: impl Fn(&T) -> u64) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    v.into_iter().filter(|x| seen.insert(key(x))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_have_no_repeats_and_cover_the_specials() {
        assert_eq!(bool::edges(), [false, true]);
        assert!(u8::edges().contains(&255) && i64::edges().contains(&i64::MIN));
        assert!(i8::edges().contains(&-128) && i8::edges().contains(&-1));
        for v in [f32::edges().len(), f64::edges().len()] {
            assert!(v > 50, "{v}");
        }
        let h = f16::edges();
        assert!(h.iter().any(|x| x.is_nan() && x.is_sign_negative()));
        assert!(h.contains(&f16::from_bits(1)) && h.contains(&f16::MAX));
        let mut bits: Vec<u16> = h.iter().map(|x| x.to_bits()).collect();
        bits.sort_unstable();
        bits.dedup();
        assert_eq!(bits.len(), h.len());
    }
}

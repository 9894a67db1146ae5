//! The host semantics that generated `eval` code calls: silt's integer division
//! and remainder, IEEE `minimumNumber`/`maximumNumber`, a `clamp` that never
//! panics, the error functions and the single-rounding cast to `f16`. Each agrees
//! with what the device computes (docs/semantics.md). Reached through
//! `silt::__private`.

/// Integer types with silt's division rules.
pub trait IntOps: Copy {
    /// `a / b`; 0 when `b == 0`; wrapping for `MIN / -1`.
    fn silt_div(self, b: Self) -> Self;
    /// `a % b`; 0 when `b == 0` and for `MIN % -1`.
    fn silt_rem(self, b: Self) -> Self;
    /// `a.div_euclid(b)`; 0 when `b == 0`; wrapping (`MIN`) for `MIN / -1`.
    fn silt_div_euclid(self, b: Self) -> Self;
    /// `a.rem_euclid(b)`; 0 when `b == 0` and for `MIN % -1`.
    fn silt_rem_euclid(self, b: Self) -> Self;
    /// `a.div_ceil(b)`, the quotient rounded up; 0 when `b == 0`; wrapping
    /// (`MIN`) for `MIN / -1`.
    fn silt_div_ceil(self, b: Self) -> Self;
}

/// Unsigned integer types with silt's rules.
pub trait UnsignedOps: Copy {
    /// The smallest power of two at least `self` (1 for 0); 0 where it does
    /// not fit, as Rust's release builds give.
    fn silt_next_power_of_two(self) -> Self;
}

macro_rules! int_ops {
    ($($t:ty),*) => {$(
        impl IntOps for $t {
            #[inline]
            fn silt_div(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_div(b) }
            }
            #[inline]
            fn silt_rem(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_rem(b) }
            }
            #[inline]
            fn silt_div_euclid(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_div_euclid(b) }
            }
            #[inline]
            fn silt_rem_euclid(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_rem_euclid(b) }
            }
            #[inline]
            #[allow(unused_comparisons)] // `r > 0` of an unsigned `r`
            fn silt_div_ceil(self, b: Self) -> Self {
                if b == 0 {
                    return 0;
                }
                let (q, r) = (self.wrapping_div(b), self.wrapping_rem(b));
                // truncated toward zero: one more where the exact quotient is
                // positive (`r` has the sign of `self`)
                if r != 0 && (r > 0) == (b > 0) { q.wrapping_add(1) } else { q }
            }
        }
    )*};
}

int_ops!(u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! unsigned_ops {
    ($($t:ty),*) => {$(
        impl UnsignedOps for $t {
            #[inline]
            fn silt_next_power_of_two(self) -> Self {
                self.checked_next_power_of_two().unwrap_or(0)
            }
        }
    )*};
}

unsigned_ops!(u8, u16, u32, u64);

/// `x as f16` with one rounding (to nearest, ties to even; overflow to
/// infinity), as every device casts. `half::f16::from_f64` may round through
/// `f32` first, which rounds twice: `1 + 2^-11 + 2^-40` came out as `1`.
pub fn f16_from_f64(x: f64) -> half::f16 {
    // exact: `round_f16` returns an f16 value held in an f32
    f16_narrow(silt_abi::round_f16(x))
}

/// `x` widened to `f32` (exact), as `f16` arithmetic computes: the same value
/// as `half::f16::to_f32`, by a branch-free conversion that vectorizes
/// ([`silt_abi::f16_to_f32`]).
#[inline]
#[must_use]
pub fn f16_widen(x: half::f16) -> f32 {
    silt_abi::f16_to_f32(x.to_bits())
}

/// The `f16` nearest to `x` (ties to even, overflow to infinity), as every
/// `f16` operation rounds: the same bits as `half::f16::from_f32`, by a
/// branch-free conversion that vectorizes ([`silt_abi::f32_to_f16`]).
#[inline]
#[must_use]
pub fn f16_narrow(x: f32) -> half::f16 {
    half::f16::from_bits(silt_abi::f32_to_f16(x))
}

/// `a / b` with silt's rules (see [`IntOps`]).
#[inline]
pub fn int_div<T: IntOps>(a: T, b: T) -> T {
    a.silt_div(b)
}

/// `a % b` with silt's rules (see [`IntOps`]).
#[inline]
pub fn int_rem<T: IntOps>(a: T, b: T) -> T {
    a.silt_rem(b)
}

/// `a.div_euclid(b)` with silt's rules (see [`IntOps`]).
#[inline]
pub fn int_div_euclid<T: IntOps>(a: T, b: T) -> T {
    a.silt_div_euclid(b)
}

/// `a.div_ceil(b)` with silt's rules (see [`IntOps`]).
#[inline]
pub fn int_div_ceil<T: IntOps>(a: T, b: T) -> T {
    a.silt_div_ceil(b)
}

/// `x.next_power_of_two()` with silt's rules (see [`UnsignedOps`]).
#[inline]
pub fn next_power_of_two<T: UnsignedOps>(x: T) -> T {
    x.silt_next_power_of_two()
}

/// `a.rem_euclid(b)` with silt's rules (see [`IntOps`]).
#[inline]
pub fn int_rem_euclid<T: IntOps>(a: T, b: T) -> T {
    a.silt_rem_euclid(b)
}

/// `a.div_euclid(b)` in `f16`, given as `f32` values (exact) and returned as
/// one to round to `f16`: the quotient is rounded to `f16` before `trunc`, as
/// `f16` division and the device round it.
#[inline]
pub fn f16_div_euclid(a: f32, b: f32) -> f32 {
    let q = f16_widen(f16_narrow(a / b)).trunc();
    if a % b < 0.0 {
        if b > 0.0 {
            q - 1.0
        } else {
            q + 1.0
        }
    } else {
        q
    }
}

/// `x` limited to `lo..=hi`: `lo` below, `hi` above, else `x` (so NaN stays NaN);
/// never panics, also when `lo > hi`, and agrees with the device's `clamp`.
#[inline]
pub fn clamp<T: PartialOrd>(x: T, lo: T, hi: T) -> T {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// Floats with silt's `min` and `max`.
pub trait FloatOps: Copy + PartialOrd {
    /// Whether the value is NaN.
    fn nan(self) -> bool;
    /// Whether the sign bit is set.
    fn negative(self) -> bool;
    /// The error function (`libm`'s, which Rust's std lacks).
    fn erf(self) -> Self;
    /// The complementary error function.
    fn erfc(self) -> Self;
    /// `ln |Γ(self)|`, the logarithm of the gamma function's magnitude
    /// (`libm`'s).
    fn lgamma(self) -> Self;
    /// `self` to the power `y`, with C99 Annex F's special values for every NaN:
    /// `pow(1, y)` and `pow(x, ±0)` are 1 even for a signalling NaN (glibc, after
    /// IEEE 754-2019, gives NaN there; every device gives 1).
    fn pow(self, y: Self) -> Self;
    /// `self` to the integer power `n`, as the devices' `pown`: where `n < 0`
    /// and `self^-n` overflows (so that std's `powi`, `1 / self^-n`, gives 0),
    /// `(1 / self)^-n`, the subnormal result the devices give.
    fn powi(self, n: i32) -> Self;
    /// `sqrt(self² + y²)`; `+∞` when either is infinite, even when the other is
    /// a signalling NaN (as for a quiet one; glibc gives NaN there).
    fn hypot(self, y: Self) -> Self;
}

macro_rules! float_ops {
    ($t:ty, $erf:path, $erfc:path, $lgamma:path) => {
        impl FloatOps for $t {
            fn nan(self) -> bool {
                self.is_nan()
            }
            fn negative(self) -> bool {
                self.is_sign_negative()
            }
            fn erf(self) -> Self {
                $erf(self)
            }
            fn erfc(self) -> Self {
                $erfc(self)
            }
            fn lgamma(self) -> Self {
                $lgamma(self)
            }
            #[inline]
            fn pow(self, y: Self) -> Self {
                if self == 1.0 || y == 0.0 {
                    1.0
                } else {
                    self.powf(y)
                }
            }
            #[inline]
            fn powi(self, n: i32) -> Self {
                let r = <$t>::powi(self, n);
                if r == 0.0 && n < 0 && self.is_finite() && self != 0.0 {
                    // `-(n + 1)` fits an `i32` for every negative `n`
                    let y = self.recip();
                    <$t>::powi(y, -(n + 1)) * y
                } else {
                    r
                }
            }
            #[inline]
            fn hypot(self, y: Self) -> Self {
                // the library's result, unless it is the NaN of a signalling
                // one beside an infinity (tested after the call: cheaper than
                // a branch before it)
                let r = <$t>::hypot(self, y);
                if r.is_nan() && (self.is_infinite() || y.is_infinite()) {
                    <$t>::INFINITY
                } else {
                    r
                }
            }
        }
    };
}

float_ops!(f32, libm::erff, libm::erfcf, lgamma_f32);

/// `lgamma` of an `f32` through `f64`: `libm`'s `lgammaf` is off by up to
/// 3e-5 relatively near the roots between the negative integers, where the
/// devices' (PoCL's, glibc's) are within a few `f32` ULPs.
#[allow(clippy::cast_possible_truncation)]
fn lgamma_f32(x: f32) -> f32 {
    libm::lgamma(f64::from(x)) as f32
}
float_ops!(f64, libm::erf, libm::erfc, libm::lgamma);

/// IEEE 754-2019 minimumNumber: the smaller number, the number when the other is
/// NaN, `-0.0` below `+0.0`. The device computes the same.
#[inline]
pub fn fmin<T: FloatOps>(a: T, b: T) -> T {
    let take_a = if a < b || b < a {
        a < b
    } else {
        !a.nan() && (b.nan() || a.negative())
    };
    if take_a {
        a
    } else {
        b
    }
}

/// IEEE 754-2019 maximumNumber: the larger number, the number when the other is
/// NaN, `+0.0` above `-0.0`. The device computes the same.
#[inline]
pub fn fmax<T: FloatOps>(a: T, b: T) -> T {
    let take_a = if a > b || b > a {
        a > b
    } else {
        !a.nan() && (b.nan() || !a.negative())
    };
    if take_a {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rules() {
        assert_eq!(int_div(7i32, 0), 0);
        assert_eq!(int_rem(7u8, 0), 0);
        assert_eq!(int_div(i32::MIN, -1), i32::MIN);
        assert_eq!(int_rem(i64::MIN, -1), 0);
        assert_eq!(int_div(-7i16, 2), -3);
        assert_eq!(int_rem(-7i16, 2), -1);
    }

    #[test]
    fn euclid_rules() {
        assert_eq!(int_div_euclid(7i32, 0), 0);
        assert_eq!(int_rem_euclid(7u8, 0), 0);
        assert_eq!(int_div_euclid(i32::MIN, -1), i32::MIN);
        assert_eq!(int_rem_euclid(i64::MIN, -1), 0);
        assert_eq!(int_div_euclid(-7i16, 2), -4);
        assert_eq!(int_rem_euclid(-7i16, 2), 1);
        assert_eq!(int_rem_euclid(i8::MIN + 1, i8::MIN), 1);
        assert_eq!(int_div_euclid(200u8, 7), 28);
        // the quotient is rounded to f16 (2.9993 is 3) before `trunc`
        assert_eq!(f16_div_euclid(2047.0, 682.5), 3.0);
        assert_eq!(f16_div_euclid(-7.5, 2.0), -4.0);
        assert_eq!(f16_div_euclid(-7.5, -2.0), 4.0);
    }

    #[test]
    fn min_max_order_zeros_and_skip_nan() {
        assert!(fmin(0.0f32, -0.0).is_sign_negative());
        assert!(fmin(-0.0f32, 0.0).is_sign_negative());
        assert!(fmax(-0.0f64, 0.0).is_sign_positive());
        assert!(fmax(0.0f64, -0.0).is_sign_positive());
        assert_eq!(fmin(f32::NAN, 2.0), 2.0);
        assert_eq!(fmax(1.0, f64::NAN), 1.0);
        assert!(fmin(f32::NAN, f32::NAN).is_nan());
        assert_eq!(fmin(1.0f32, 2.0), 1.0);
        assert_eq!(fmax(1.0f32, 2.0), 2.0);
    }

    #[test]
    fn a_signalling_nan_meets_annex_f_like_a_quiet_one() {
        let snan = f64::from_bits(0x7ff0_0000_0000_0001);
        assert_eq!(FloatOps::pow(1.0, snan), 1.0);
        assert_eq!(FloatOps::pow(snan, -0.0), 1.0);
        assert!(FloatOps::pow(2.0, snan).is_nan());
        assert_eq!(
            FloatOps::hypot(f32::NEG_INFINITY, f32::from_bits(0x7f80_0001)),
            f32::INFINITY
        );
        assert!(FloatOps::hypot(1.0, snan).is_nan());
    }

    #[test]
    fn f16_widening_matches_half_for_every_f16() {
        for bits in 0..=u16::MAX {
            let h = half::f16::from_bits(bits);
            assert_eq!(
                f16_widen(h).to_bits(),
                h.to_f32().to_bits(),
                "f16 bits {bits:#06x}"
            );
        }
    }

    /// Every sign, exponent and top ten mantissa bits of an `f32`, each with
    /// low bits at and around the rounding point of a normal `f16` (bit 13),
    /// then every tie and its neighbours among `f16` subnormals (whose rounding
    /// point lies higher), then pseudo-random bits.
    #[test]
    fn f16_narrowing_matches_half() {
        let check = |b: u32| {
            let x = f32::from_bits(b);
            assert_eq!(
                f16_narrow(x).to_bits(),
                half::f16::from_f32(x).to_bits(),
                "f32 bits {b:#010x}"
            );
        };
        for top in 0..(1u32 << 19) {
            for low in [0, 1, 0x7ff, 0xfff, 0x1000, 0x1001, 0x1fff, 0x0abc] {
                check((top << 13) | low);
            }
        }
        // 2^-24 k and (k + 1/2) 2^-24, one f32 step either side
        for k in 0..=1025u32 {
            #[allow(clippy::cast_precision_loss)] // k <= 1025
            for v in [k as f32, k as f32 + 0.5] {
                let b = (v * 2f32.powi(-24)).to_bits();
                for d in [b.wrapping_sub(1), b, b + 1] {
                    check(d);
                    check(d | 0x8000_0000);
                }
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..1 << 20 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            #[allow(clippy::cast_possible_truncation)] // the top half
            check((state >> 32) as u32);
        }
    }

    #[test]
    fn clamp_never_panics() {
        assert_eq!(clamp(5, 0, 3), 3);
        assert!(clamp(f32::NAN, 0.0, 1.0).is_nan());
        assert_eq!(clamp(0.5, 1.0, 0.0), 1.0);
    }
}

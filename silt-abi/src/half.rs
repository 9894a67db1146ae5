//! Rounding to `f16`, the one definition both backends and literals use.

/// The `f16` value nearest to `x` (ties to even; overflow to infinity), as the
/// `f32` that holds it exactly: how `f16` literals and constants are rounded.
pub fn round_f16(x: f64) -> f32 {
    let a = x.abs();
    let r = if x.is_nan() || a.is_infinite() {
        a
    } else if a >= 65520.0 {
        f64::INFINITY
    } else if a < f64::from(MIN_NORMAL_F16) {
        // subnormal: a multiple of 2^-24
        (a * 16_777_216.0).round_ties_even() / 16_777_216.0
    } else {
        // 11 significant bits: the spacing is 2^(exponent - 10)
        let exponent = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let ulp = 2f64.powi(exponent - 10);
        (a / ulp).round_ties_even() * ulp
    };
    #[allow(clippy::cast_possible_truncation)] // exact: an f16 value
    let r = r as f32;
    if x.is_sign_negative() {
        -r
    } else {
        r
    }
}

/// The smallest normal `f16`, 2^-14.
const MIN_NORMAL_F16: f32 = 6.103_515_6e-5;

/// The bits of an `f16` value held exactly in `v` (see [`round_f16`]).
pub fn f16_bits(v: f32) -> u16 {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    let rest = if a.is_nan() {
        0x7e00
    } else if a.is_infinite() {
        0x7c00
    } else if a < MIN_NORMAL_F16 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // < 1024
        let m = (a * 16_777_216.0) as u16;
        m
    } else {
        let b = a.to_bits();
        #[allow(clippy::cast_possible_truncation)] // 5 and 10 bits
        let e = (((b >> 23) & 0xff) + 15 - 127) as u16;
        #[allow(clippy::cast_possible_truncation)]
        let m = ((b >> 13) & 0x3ff) as u16;
        (e << 10) | m
    };
    sign | rest
}

/// The `f32` value of the `f16` with bits `h` (exact). A NaN keeps its sign and
/// payload and comes out quiet, as x86's F16C conversion and `half` give it.
///
/// Branch-free, so a loop over slices vectorizes: the host backend converts
/// with it.
#[inline]
#[must_use]
pub fn f16_to_f32(h: u16) -> f32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let magnitude = h & 0x7fff;
    // a finite f16 moved to f32's exponent and mantissa places is its value
    // times 2^-112 (subnormals included, as f32 subnormals): scale back exactly
    let finite = f32::from_bits(magnitude << 13) * f32::from_bits(0x7780_0000);
    let mantissa = (magnitude & 0x3ff) << 13;
    let quiet = if mantissa == 0 { 0 } else { 0x0040_0000 };
    let special = 0x7f80_0000 | quiet | mantissa;
    let bits = if magnitude >= 0x7c00 {
        special
    } else {
        finite.to_bits()
    };
    f32::from_bits(bits | sign)
}

/// The bits of the `f16` nearest to `x` (ties to even; overflow to infinity).
/// A NaN keeps its sign and the top of its payload and comes out quiet, as
/// x86's F16C conversion and `half` give it.
///
/// Branch-free, so a loop over slices vectorizes: the host backend rounds
/// every `f16` operation with it.
#[inline]
#[must_use]
pub fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    #[allow(clippy::cast_possible_truncation)] // the sign bit, at bit 15
    let sign = ((b >> 16) & 0x8000) as u16;
    let a = b & 0x7fff_ffff;
    // normal f16: the exponent rebiased (127 - 15), the mantissa rounded to
    // nearest even at bit 13; a carry out of the mantissa steps the exponent,
    // up to infinity's
    let r = a.wrapping_sub(112 << 23);
    let normal = r.wrapping_add(0xfff + ((r >> 13) & 1)) >> 13;
    // subnormal f16: adding 0.5 leaves f32's spacing at 2^-24 there, so the
    // addition rounds to a multiple of 2^-24 (to nearest even), which is the
    // f16 subnormal's bits (0x400 when it rounds up to the smallest normal)
    let subnormal = (f32::from_bits(a) + 0.5)
        .to_bits()
        .wrapping_sub(0x3f00_0000);
    let nan = 0x7e00 | ((a & 0x007f_ffff) >> 13);
    let rest = if a > 0x7f80_0000 {
        nan
    } else if a >= 0x4780_0000 {
        // 65536 and above (infinity included); 65520 up to it round up above
        0x7c00
    } else if a >= 0x3880_0000 {
        normal
    } else {
        subnormal
    };
    #[allow(clippy::cast_possible_truncation)] // at most 0x7fff
    let rest = rest as u16;
    sign | rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding_and_bits() {
        assert_eq!(round_f16(1.0), 1.0);
        assert_eq!(f16_bits(1.0), 0x3c00);
        assert_eq!(round_f16(65504.0), 65504.0);
        assert_eq!(f16_bits(65504.0), 0x7bff);
        assert_eq!(round_f16(65519.99), 65504.0);
        assert_eq!(round_f16(65520.0), f32::INFINITY);
        assert_eq!(f16_bits(f32::NEG_INFINITY), 0xfc00);
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: to even
        assert_eq!(round_f16(1.0 + 2f64.powi(-11)), 1.0);
        assert_eq!(round_f16(1.0 + 3.0 * 2f64.powi(-11)), 1.0 + 2f32.powi(-9));
        assert_eq!(round_f16(0.1), 0.099_975_586);
        assert_eq!(f16_bits(0.099_975_586), 0x2e66);
        // subnormals: multiples of 2^-24
        assert_eq!(round_f16(2f64.powi(-24)), 2f32.powi(-24));
        assert_eq!(f16_bits(2f32.powi(-24)), 1);
        assert_eq!(round_f16(2f64.powi(-25)), 0.0);
        assert_eq!(round_f16(3.0 * 2f64.powi(-25)), 2f32.powi(-23));
        assert_eq!(f16_bits(-2f32.powi(-14)), 0x8400);
        assert_eq!(round_f16(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(round_f16(f64::NAN).is_nan());
        assert_eq!(f16_bits(f32::NAN), 0x7e00);
    }
}

//! Element types as the code generator sees them.

use std::fmt;

/// A scalar element type of a kernel body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `bool` (a `uchar` in buffers, `bool` in OpenCL C code).
    Bool,
    /// `u8`.
    U8,
    /// `i8`.
    I8,
    /// `u16`.
    U16,
    /// `i16`.
    I16,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `u64`.
    U64,
    /// `i64`.
    I64,
    /// `f16` (`half::f16`): values are carried as `float` in OpenCL C and as
    /// `f32` on the host, rounded to `f16` after every operation.
    F16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Ty {
    /// Every type a kernel may use, in a fixed order.
    pub const ALL: [Ty; 12] = [
        Ty::Bool,
        Ty::U8,
        Ty::I8,
        Ty::U16,
        Ty::I16,
        Ty::U32,
        Ty::I32,
        Ty::U64,
        Ty::I64,
        Ty::F16,
        Ty::F32,
        Ty::F64,
    ];

    /// The Rust name (`f32`).
    pub fn rust(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::U8 => "u8",
            Ty::I8 => "i8",
            Ty::U16 => "u16",
            Ty::I16 => "i16",
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F16 => "f16",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }

    /// The Rust name of the `silt::DType` variant (`F32`).
    pub fn dtype_variant(self) -> &'static str {
        match self {
            Ty::Bool => "Bool",
            Ty::U8 => "U8",
            Ty::I8 => "I8",
            Ty::U16 => "U16",
            Ty::I16 => "I16",
            Ty::U32 => "U32",
            Ty::I32 => "I32",
            Ty::U64 => "U64",
            Ty::I64 => "I64",
            Ty::F16 => "F16",
            Ty::F32 => "F32",
            Ty::F64 => "F64",
        }
    }

    /// Reads a Rust type name.
    pub fn from_rust(name: &str) -> Option<Ty> {
        Ty::ALL.into_iter().find(|t| t.rust() == name)
    }

    /// The OpenCL C type of a value in code.
    pub fn cl(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::F16 => "float",
            other => other.cl_storage(),
        }
    }

    /// The OpenCL C type of an element in a buffer or a kernel argument (`f16`
    /// as its bits: `half` needs `cl_khr_fp16` for anything but pointers).
    pub fn cl_storage(self) -> &'static str {
        match self {
            Ty::Bool | Ty::U8 => "uchar",
            Ty::I8 => "char",
            Ty::U16 | Ty::F16 => "ushort",
            Ty::I16 => "short",
            Ty::U32 => "uint",
            Ty::I32 => "int",
            Ty::U64 => "ulong",
            Ty::I64 => "long",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }

    /// Whether this is `f16`, `f32` or `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }

    /// The type arithmetic of this type is computed in: `f32` for `f16` (whose
    /// results are then rounded to `f16`), the type itself otherwise.
    pub fn compute(self) -> Ty {
        if self == Ty::F16 {
            Ty::F32
        } else {
            self
        }
    }

    /// Whether this is an integer type (not `bool`).
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Bool
    }

    /// Whether this is a signed integer type.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }

    /// Whether this is a number (integer or float).
    pub fn is_numeric(self) -> bool {
        self != Ty::Bool
    }

    /// The width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool | Ty::U8 | Ty::I8 => 8,
            Ty::U16 | Ty::I16 | Ty::F16 => 16,
            Ty::U32 | Ty::I32 | Ty::F32 => 32,
            Ty::U64 | Ty::I64 | Ty::F64 => 64,
        }
    }

    /// The unsigned integer type of the same width (for integers).
    pub fn unsigned(self) -> Ty {
        match self.bits() {
            8 => Ty::U8,
            16 => Ty::U16,
            32 => Ty::U32,
            _ => Ty::U64,
        }
    }

    /// The OpenCL type that integer arithmetic of this type is done in: unsigned
    /// (so that overflow wraps instead of being undefined) and at least 32 bits (so
    /// that C's promotion to `int` cannot overflow).
    pub fn cl_wide_unsigned(self) -> &'static str {
        if self.bits() == 64 {
            "ulong"
        } else {
            "uint"
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rust())
    }
}

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

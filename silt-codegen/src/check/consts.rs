//! Values known from a type alone: literal ranges, `T::IS_FLOAT`-style
//! properties, and associated constants (`T::MAX`, `f64::consts::PI`, ...).

use crate::ir::Value;
use crate::ty::Ty;

pub(super) fn int_fits(v: i128, t: Ty) -> bool {
    let (lo, hi): (i128, i128) = match t {
        Ty::U8 => (0, u8::MAX.into()),
        Ty::I8 => (i8::MIN.into(), i8::MAX.into()),
        Ty::U16 => (0, u16::MAX.into()),
        Ty::I16 => (i16::MIN.into(), i16::MAX.into()),
        Ty::U32 => (0, u32::MAX.into()),
        Ty::I32 => (i32::MIN.into(), i32::MAX.into()),
        Ty::U64 => (0, u64::MAX.into()),
        Ty::I64 => (i64::MIN.into(), i64::MAX.into()),
        _ => return false,
    };
    (lo..=hi).contains(&v)
}

/// The type properties `T::IS_FLOAT`, `T::IS_INT`, `T::IS_SIGNED`, `T::IS_BOOL`
/// (`bool`) and `T::BITS` (`u32`), with their types.
pub(super) fn type_property(t: Ty, name: &str) -> Option<(Value, Ty)> {
    Some(match name {
        "IS_FLOAT" => (Value::Bool(t.is_float()), Ty::Bool),
        "IS_INT" => (Value::Bool(t.is_int()), Ty::Bool),
        "IS_SIGNED" => (Value::Bool(t.is_signed_int() || t.is_float()), Ty::Bool),
        "IS_BOOL" => (Value::Bool(t == Ty::Bool), Ty::Bool),
        "BITS" => (Value::Int(i128::from(t.bits())), Ty::U32),
        _ => return None,
    })
}

/// The value of `T::NAME`.
pub(super) fn constant(t: Ty, name: &str) -> Option<Value> {
    macro_rules! float_consts {
        ($f:ident, $wrap:expr) => {{
            use std::$f::consts as c;
            let v: $f = match name {
                "MAX" => $f::MAX,
                "MIN" => $f::MIN,
                "EPSILON" => $f::EPSILON,
                "MIN_POSITIVE" => $f::MIN_POSITIVE,
                "INFINITY" => $f::INFINITY,
                "NEG_INFINITY" => $f::NEG_INFINITY,
                "NAN" => $f::NAN,
                "PI" => c::PI,
                "TAU" => c::TAU,
                "E" => c::E,
                "SQRT_2" => c::SQRT_2,
                "FRAC_1_SQRT_2" => c::FRAC_1_SQRT_2,
                "LN_2" => c::LN_2,
                "LN_10" => c::LN_10,
                "LOG2_E" => c::LOG2_E,
                "LOG10_E" => c::LOG10_E,
                "LOG2_10" => c::LOG2_10,
                "LOG10_2" => c::LOG10_2,
                "FRAC_PI_2" => c::FRAC_PI_2,
                "FRAC_PI_3" => c::FRAC_PI_3,
                "FRAC_PI_4" => c::FRAC_PI_4,
                "FRAC_PI_6" => c::FRAC_PI_6,
                "FRAC_PI_8" => c::FRAC_PI_8,
                "FRAC_1_PI" => c::FRAC_1_PI,
                "FRAC_2_PI" => c::FRAC_2_PI,
                "FRAC_2_SQRT_PI" => c::FRAC_2_SQRT_PI,
                _ => return None,
            };
            Some($wrap(v))
        }};
    }
    macro_rules! int_consts {
        ($i:ident) => {
            match name {
                "MAX" => Some(Value::Int($i::MAX.into())),
                "MIN" => Some(Value::Int($i::MIN.into())),
                _ => None,
            }
        };
    }
    match t {
        Ty::F16 => match name {
            "MAX" => Some(Value::F32(65504.0)),
            "MIN" => Some(Value::F32(-65504.0)),
            "EPSILON" => Some(Value::F32(0.000_976_562_5)),
            "MIN_POSITIVE" => Some(Value::F32(6.103_515_6e-5)),
            _ => match constant(Ty::F64, name)? {
                Value::F64(v) => Some(Value::F32(silt_abi::round_f16(v))),
                _ => None,
            },
        },
        Ty::F32 => float_consts!(f32, Value::F32),
        Ty::F64 => float_consts!(f64, Value::F64),
        Ty::U8 => int_consts!(u8),
        Ty::I8 => int_consts!(i8),
        Ty::U16 => int_consts!(u16),
        Ty::I16 => int_consts!(i16),
        Ty::U32 => int_consts!(u32),
        Ty::I32 => int_consts!(i32),
        Ty::U64 => int_consts!(u64),
        Ty::I64 => int_consts!(i64),
        Ty::Bool => None,
    }
}

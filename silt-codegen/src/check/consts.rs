//! Values known from a type alone: literal ranges, `T::IS_FLOAT`-style
//! properties, and associated constants (`T::MAX`, `f64::consts::PI`, ...).

use crate::ir::Value;
use silt_abi::DType;

/// Whether the integer `v` lies in `t`'s range (never, for `bool` and floats).
pub(super) fn int_fits(v: i128, t: DType) -> bool {
    t.int_range().is_some_and(|(lo, hi)| (lo..=hi).contains(&v))
}

/// The type properties `T::IS_FLOAT`, `T::IS_INT`, `T::IS_SIGNED`, `T::IS_BOOL`
/// (`bool`) and `T::BITS` (`u32`), with their types.
pub(super) fn type_property(t: DType, name: &str) -> Option<(Value, DType)> {
    Some(match name {
        "IS_FLOAT" => (Value::Bool(t.is_float()), DType::Bool),
        "IS_INT" => (Value::Bool(t.is_int()), DType::Bool),
        "IS_SIGNED" => (Value::Bool(t.is_signed_int() || t.is_float()), DType::Bool),
        "IS_BOOL" => (Value::Bool(t == DType::Bool), DType::Bool),
        "BITS" => (Value::Int(i128::from(t.bits())), DType::U32),
        _ => return None,
    })
}

/// The value of `T::NAME`.
pub(super) fn constant(t: DType, name: &str) -> Option<Value> {
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
        DType::F16 => match name {
            "MAX" => Some(Value::F32(65504.0)),
            "MIN" => Some(Value::F32(-65504.0)),
            "EPSILON" => Some(Value::F32(0.000_976_562_5)),
            "MIN_POSITIVE" => Some(Value::F32(6.103_515_6e-5)),
            _ => match constant(DType::F64, name)? {
                Value::F64(v) => Some(Value::F32(silt_abi::round_f16(v))),
                _ => None,
            },
        },
        DType::F32 => float_consts!(f32, Value::F32),
        DType::F64 => float_consts!(f64, Value::F64),
        DType::U8 => int_consts!(u8),
        DType::I8 => int_consts!(i8),
        DType::U16 => int_consts!(u16),
        DType::I16 => int_consts!(i16),
        DType::U32 => int_consts!(u32),
        DType::I32 => int_consts!(i32),
        DType::U64 => int_consts!(u64),
        DType::I64 => int_consts!(i64),
        DType::Bool => None,
    }
}

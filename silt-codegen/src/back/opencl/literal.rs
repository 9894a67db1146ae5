//! Literals and casts as C.

use super::int_polyfill::wrap_to;
use super::types::ClType;
use crate::ir::Value;
use silt_abi::DType;

/// The C literal of `v` with type `t`.
pub fn literal(t: DType, v: Value) -> String {
    match (t, v) {
        (_, Value::Bool(b)) => b.to_string(),
        (DType::F32 | DType::F16, Value::F32(x)) => float_lit(
            f64::from(x),
            x.is_nan(),
            format!("{x:?}"),
            "f",
            "INFINITY",
            "NAN",
        ),
        (DType::F64, Value::F64(x)) => float_lit(
            x,
            x.is_nan(),
            format!("{x:?}"),
            "",
            "(double)INFINITY",
            "(double)NAN",
        ),
        (t, Value::Int(i)) => int_lit(t, i),
        // a value of another type than the expression cannot come out of the checker
        (t, Value::F32(x)) => format!("(({})({x:?}f))", t.value_type()),
        (t, Value::F64(x)) => format!("(({})({x:?}))", t.value_type()),
    }
}

fn float_lit(x: f64, nan: bool, repr: String, suffix: &str, inf: &str, nan_text: &str) -> String {
    if nan {
        nan_text.to_string()
    } else if x.is_infinite() {
        if x > 0.0 {
            inf.to_string()
        } else {
            format!("(-{inf})")
        }
    } else if x.is_sign_negative() {
        format!("({repr}{suffix})")
    } else {
        format!("{repr}{suffix}")
    }
}

fn int_lit(t: DType, i: i128) -> String {
    match t {
        DType::U32 => format!("{i}u"),
        DType::I32 if i == i128::from(i32::MIN) => "(-2147483647 - 1)".into(),
        DType::I32 if i < 0 => format!("({i})"),
        DType::I32 => format!("{i}"),
        DType::U64 => format!("{i}UL"),
        DType::I64 if i == i128::from(i64::MIN) => "(-9223372036854775807L - 1L)".into(),
        DType::I64 if i < 0 => format!("({i}L)"),
        DType::I64 => format!("{i}L"),
        DType::Bool => (i != 0).to_string(),
        // char, uchar, short, ushort: an int literal converted
        t => format!("(({})({i}))", t.value_type()),
    }
}

/// `x as to` for a value of type `from`.
pub(super) fn cast(from: DType, to: DType, x: &str) -> String {
    if from == to {
        return x.to_string();
    }
    let c = to.value_type();
    match (from.is_float(), to.is_float()) {
        // saturating, NaN -> 0, toward zero: Rust's `as`
        (true, false) => format!("convert_{c}_sat_rtz({x})"),
        // round to nearest even (the default for conversions to float)
        (_, true) if from != DType::Bool => format!("convert_{c}({x})"),
        (_, true) => format!("(({c})({x}))"),
        (false, false) => {
            let preserving = from == DType::Bool
                || (from.is_signed_int() == to.is_signed_int() && to.bits() >= from.bits())
                || (!from.is_signed_int() && to.bits() > from.bits());
            if preserving {
                format!("(({c})({x}))")
            } else {
                format!("({})", wrap_to(to, x))
            }
        }
    }
}

//! Literals as Rust tokens.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

use super::types::ty;
use crate::ir::Value;
use silt_abi::DType;

/// A literal of type `t`.
pub(super) fn literal(t: DType, v: Value, span: Span) -> TokenStream {
    let tt = ty(t);
    match v {
        Value::Bool(b) => {
            if b {
                quote_spanned!(span=> true)
            } else {
                quote_spanned!(span=> false)
            }
        }
        Value::Int(i) => {
            let min = match t {
                DType::I8 => i128::from(i8::MIN),
                DType::I16 => i128::from(i16::MIN),
                DType::I32 => i128::from(i32::MIN),
                DType::I64 => i128::from(i64::MIN),
                _ => 0,
            };
            if t.is_signed_int() && i == min {
                quote_spanned!(span=> #tt::MIN)
            } else {
                let text = format!("{}{}", i.unsigned_abs(), t.name());
                let lit: TokenStream = text.parse().unwrap_or_default();
                if i < 0 {
                    quote_spanned!(span=> (-#lit))
                } else {
                    lit
                }
            }
        }
        Value::F32(x) => float(
            f64::from(x),
            x.is_nan(),
            format!("{:?}", x.abs()),
            &tt,
            span,
        ),
        Value::F64(x) => float(x, x.is_nan(), format!("{:?}", x.abs()), &tt, span),
    }
}

fn float(x: f64, nan: bool, abs_repr: String, tt: &TokenStream, span: Span) -> TokenStream {
    if nan {
        return quote_spanned!(span=> #tt::NAN);
    }
    let mag = if x.is_infinite() {
        quote_spanned!(span=> #tt::INFINITY)
    } else {
        let text = format!("{abs_repr}_{tt}");
        let lit: TokenStream = text.parse().unwrap_or_default();
        lit
    };
    if x.is_sign_negative() {
        quote_spanned!(span=> (-#mag))
    } else {
        mag
    }
}

//! Builtin methods as Rust: the method of the table, or silt's own function
//! where Rust's would differ from the device.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

use super::types::ty;
use crate::builtins::{Builtin, Form};
use silt_abi::DType;

/// `acosh`, `asinh` and `atanh` of `t`: std's formulas overflow above `MAX / 2`
/// (infinity where the result is about 710), std's `acosh` loses all accuracy
/// just above 1 (`ln` of `1 + tiny`) and std's `atanh` near -1 (`ln_1p` of a
/// rounded `-1 + tiny`: 76 ULPs at `-0.999f32`); these take fdlibm's formulas
/// in those ranges (`atanh` on `|x|`, the sign put back), like the device's
/// built-ins.
pub(super) fn inverse_hyperbolic(b: Builtin, t: DType, x: &TokenStream, span: Span) -> TokenStream {
    let tt = ty(t);
    if b == Builtin::Atanh {
        return quote_spanned!(span=> ({
            let __x: #tt = #x;
            let __a = __x.abs();
            (0.5 * ((2.0 * __a) / (1.0 - __a)).ln_1p()).copysign(__x)
        }));
    }
    if b == Builtin::Asinh {
        return quote_spanned!(span=> ({
            let __x: #tt = #x;
            if __x.abs() >= 268_435_456.0 {
                (__x.abs().ln() + ::core::#tt::consts::LN_2).copysign(__x)
            } else {
                __x.asinh()
            }
        }));
    }
    quote_spanned!(span=> ({
        let __x: #tt = #x;
        if __x >= 268_435_456.0 {
            __x.ln() + ::core::#tt::consts::LN_2
        } else if __x > 2.0 {
            (2.0 * __x - 1.0 / (__x + (__x * __x - 1.0).sqrt())).ln()
        } else if __x >= 1.0 {
            let __u = __x - 1.0;
            (__u + (2.0 * __u + __u * __u).sqrt()).ln_1p()
        } else {
            __x.acosh()
        }
    }))
}

/// `b` applied to the argument tokens `a` (the receiver first).
pub(super) fn builtin(
    b: Builtin,
    a: &[TokenStream],
    krate: &TokenStream,
    span: Span,
) -> TokenStream {
    use Builtin as B;
    let x = &a[0];
    let rest = &a[1..];
    if let Form::Call(name) = b.def().rust {
        let m = syn::Ident::new(name, span);
        return quote_spanned!(span=> (#x).#m(#(#rest),*));
    }
    match b {
        B::Erf => quote_spanned!(span=> #krate::__private::FloatOps::erf(#x)),
        B::Erfc => quote_spanned!(span=> #krate::__private::FloatOps::erfc(#x)),
        B::LGamma => quote_spanned!(span=> #krate::__private::FloatOps::lgamma(#x)),
        B::Powf => quote_spanned!(span=> #krate::__private::FloatOps::pow(#x, #(#rest),*)),
        B::Powi => quote_spanned!(span=> #krate::__private::FloatOps::powi(#x, #(#rest),*)),
        B::Hypot => quote_spanned!(span=> #krate::__private::FloatOps::hypot(#x, #(#rest),*)),
        B::FMin => quote_spanned!(span=> #krate::__private::fmin(#x, #(#rest),*)),
        B::FMax => quote_spanned!(span=> #krate::__private::fmax(#x, #(#rest),*)),
        B::FClamp | B::IClamp => quote_spanned!(span=> #krate::__private::clamp(#x, #(#rest),*)),
        B::WrappingDiv => quote_spanned!(span=> #krate::__private::int_div(#x, #(#rest),*)),
        B::WrappingRem => quote_spanned!(span=> #krate::__private::int_rem(#x, #(#rest),*)),
        B::IDivEuclid => quote_spanned!(span=> #krate::__private::int_div_euclid(#x, #(#rest),*)),
        B::IRemEuclid => quote_spanned!(span=> #krate::__private::int_rem_euclid(#x, #(#rest),*)),
        B::DivCeil => quote_spanned!(span=> #krate::__private::int_div_ceil(#x, #(#rest),*)),
        B::NextPowerOfTwo => quote_spanned!(span=> #krate::__private::next_power_of_two(#x)),
        B::IMin => quote_spanned!(span=> ::core::cmp::Ord::min(#x, #(#rest),*)),
        B::IMax => quote_spanned!(span=> ::core::cmp::Ord::max(#x, #(#rest),*)),
        // asinh, acosh and atanh are written by `inverse_hyperbolic`; every other
        // builtin has a `Call` form in the table
        _ => {
            let m = syn::Ident::new(b.def().name, span);
            quote_spanned!(span=> (#x).#m(#(#rest),*))
        }
    }
}

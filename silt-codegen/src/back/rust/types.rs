//! Rust spellings: types (`f16` through the generated module's `__silt`
//! alias), identifiers, and the `f16` widening and narrowing of values.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::ir::HelperRef;
use silt_abi::DType;

/// An identifier for `name`, raw (`r#type`) when `name` is a keyword.
pub(super) fn rust_ident(name: &str, span: Span) -> syn::Ident {
    if syn::parse_str::<syn::Ident>(name).is_ok() {
        syn::Ident::new(name, span)
    } else {
        syn::Ident::new_raw(name, span)
    }
}

/// The Rust type tokens of `t` (`f16` through the `__silt` alias of the
/// generated module: it is `half::f16`, not a primitive).
pub fn ty(t: DType) -> TokenStream {
    if t == DType::F16 {
        return quote!(__silt::f16);
    }
    let id = format_ident!("{}", t.name());
    quote!(#id)
}

/// `v` (of type `t`) as the type `f16` arithmetic is computed in.
pub(super) fn widen(t: DType, v: TokenStream) -> TokenStream {
    if t == DType::F16 {
        quote!(__silt::__private::f16_widen(#v))
    } else {
        v
    }
}

/// An `f32` result as `f16` (the nearest, ties to even).
pub(super) fn narrow(v: TokenStream, span: Span) -> TokenStream {
    quote_spanned!(span=> __silt::__private::f16_narrow(#v))
}

/// The Rust function of a helper instantiation: `silt_helper_NAME_TAG_TYPE`
/// (the tag tells apart helpers of one name in different modules).
pub fn helper_fn_name(h: &HelperRef) -> String {
    match h.inst {
        Some(t) => format!("silt_helper_{}_{:04x}_{}", h.name, h.tag(), t.name()),
        None => format!("silt_helper_{}_{:04x}", h.name, h.tag()),
    }
}

//! Pieces of the generated Rust signatures: dtypes, element types, the
//! parameters and result of `eval`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::back::rust;
use crate::front::syntax::{ParamKind, Signature, TyRef};
use silt_abi::DType;

/// `DType::F32` through the generated module's `__silt` alias.
pub(super) fn dtype(t: DType, s: &TokenStream) -> TokenStream {
    let v = format_ident!("{}", t.variant_name());
    quote!(#s::DType::#v)
}

/// The Rust type of an element type as written (`T` for the generic one).
pub(super) fn elem(r: TyRef) -> TokenStream {
    match r {
        TyRef::Generic => quote!(T),
        TyRef::Elem(t) => rust::ty(t),
    }
}

/// The parameters and call arguments of `eval` (`self_ty` replaces `T`).
pub(super) fn eval_signature(
    sig: &Signature,
    self_ty: Option<TokenStream>,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let generic_ty = self_ty.unwrap_or(quote!(T));
    let mut params = Vec::new();
    let mut args = Vec::new();
    for p in &sig.params {
        let n = &p.name;
        let t = match p.ty {
            TyRef::Generic => generic_ty.clone(),
            TyRef::Elem(t) => rust::ty(t),
        };
        match p.kind {
            ParamKind::InOut => params.push(quote!(#n: &mut #t)),
            _ => params.push(quote!(#n: #t)),
        }
        args.push(quote!(#n));
    }
    (params, args)
}

/// `-> T`, `-> (A, B)` or nothing, for the outputs of `sig`.
pub(super) fn ret_type(sig: &Signature, generic_ty: TokenStream) -> TokenStream {
    let ts: Vec<TokenStream> = sig
        .outputs
        .iter()
        .map(|(r, _)| match r {
            TyRef::Generic => generic_ty.clone(),
            TyRef::Elem(t) => rust::ty(*t),
        })
        .collect();
    match ts.as_slice() {
        [] => quote!(),
        [one] => quote!(-> #one),
        many => quote!(-> (#(#many),*)),
    }
}

/// Rust types of a list of element types as written (`T` as `self_ty`): one
/// type, or a tuple.
pub(super) fn types_of(list: &[TyRef], self_ty: &TokenStream) -> TokenStream {
    let ts: Vec<TokenStream> = list
        .iter()
        .map(|t| match t {
            TyRef::Generic => self_ty.clone(),
            TyRef::Elem(t) => rust::ty(*t),
        })
        .collect();
    match ts.as_slice() {
        [one] => one.clone(),
        many => quote!((#(#many),*)),
    }
}

/// `a` as the arguments of a function taking its fields one by one.
pub(super) fn fields(a: &TokenStream, n: usize) -> Vec<TokenStream> {
    if n == 1 {
        return vec![a.clone()];
    }
    (0..n)
        .map(|i| {
            let i = syn::Index::from(i);
            quote!(#a.#i)
        })
        .collect()
}

/// The parameters of `__map` (`T` as `self_ty`) and the arguments that pass
/// them on.
pub(super) fn map_signature(
    map: &Signature,
    self_ty: &TokenStream,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    map.params
        .iter()
        .map(|p| {
            let n = &p.name;
            let t = types_of(&[p.ty], self_ty);
            (quote!(#n: #t), quote!(#n))
        })
        .unzip()
}

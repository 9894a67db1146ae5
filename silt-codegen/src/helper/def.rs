//! A helper's definition as it travels between macros, and its lowering.

use proc_macro2::TokenStream;
use quote::format_ident;
use syn::parse::{Parse, ParseStream};

use crate::check::HelperDef;
use crate::errors::Errors;
use crate::front::attr::{self, Options};
use crate::front::syntax::{ParamKind, Signature};
use crate::front::{self, helper_calls, path_key};

/// The tokens in `key [ ... ]`.
pub(super) fn bracketed(input: ParseStream, key: &str) -> syn::Result<TokenStream> {
    let k: syn::Ident = input.parse()?;
    if k != key {
        return Err(syn::Error::new(k.span(), format!("expected `{key}`")));
    }
    let content;
    syn::bracketed!(content in input);
    content.parse()
}

/// A helper's definition as its macro hands it over: `types [..] item [..]`.
pub(super) struct HelperTokens {
    /// The attribute's tokens.
    pub(super) types: TokenStream,
    /// The function's tokens.
    pub(super) item: TokenStream,
}

impl Parse for HelperTokens {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(HelperTokens {
            types: bracketed(input, "types")?,
            item: bracketed(input, "item")?,
        })
    }
}

/// `found_at::__silt_dep_j`: the `j`-th helper that the helper at `found_at` calls,
/// named through the re-export in that helper's own module.
pub(super) fn dep_path(found_at: &syn::Path, j: usize) -> syn::Path {
    let mut p = found_at.clone();
    p.segments
        .push(syn::PathSegment::from(format_ident!("__silt_dep_{}", j)));
    p
}

/// Lowers a helper's definition, found at `found_at`; problems go to `errors`.
pub(super) fn helper_def(
    found_at: &syn::Path,
    t: &HelperTokens,
    errors: &mut Errors,
) -> Option<HelperDef> {
    let key = path_key(found_at);
    let opts = attr::parse(t.types.clone(), errors);
    let func: syn::ItemFn = syn::parse2(t.item.clone())
        .map_err(|e| errors.add(e))
        .ok()?;
    let sig = front::signature(&func, errors)?;
    check_helper_signature(&sig, &opts, errors);
    let body = front::block(&func.block, sig.generic.as_ref(), errors);
    let types = opts
        .types
        .map(|(list, _)| list.into_iter().map(|(t, _)| t).collect())
        .unwrap_or_default();
    let mut calls = Vec::new();
    helper_calls(&body, &mut calls);
    let deps = calls
        .into_iter()
        .enumerate()
        .map(|(j, (written, _))| (written, path_key(&dep_path(found_at, j))))
        .collect();
    Some(HelperDef {
        key,
        sig,
        body,
        types,
        deps,
    })
}

fn check_helper_signature(sig: &Signature, opts: &Options, errors: &mut Errors) {
    match (&sig.generic, &opts.types) {
        (Some(g), None) => errors.push(
            g.span(),
            "a generic helper needs `types`: `#[helper(types = [f32, f64])]`",
        ),
        (None, Some((_, span))) => errors.push(*span, "`types` needs a generic parameter"),
        _ => {}
    }
    for p in &sig.params {
        if p.kind != ParamKind::Input {
            errors.push(
                p.name.span(),
                "helper parameters are plain values (no `&mut`, `#[scalar]` or `#[index]`)",
            );
        }
    }
    if sig.outputs.len() != 1 {
        errors.push(sig.name.span(), "a helper returns one value");
    }
}

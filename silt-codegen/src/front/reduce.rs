//! A `#[reduce]` or `#[scan]` module as written: its functions `identity`, `map`,
//! `combine` and `finish`, each lowered like a kernel's body.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::spanned::Spanned;

use super::body::block;
use super::signature::signature_with;
use super::syntax::{Block, Signature, TyRef};
use crate::errors::Errors;

/// One function of a reduction.
#[derive(Debug, Clone)]
pub struct Part {
    /// Its signature (tuple parameters allowed).
    pub sig: Signature,
    /// Its body.
    pub body: Block,
}

/// The functions of a reduction, as written.
#[derive(Debug, Clone)]
pub struct ReduceModule {
    /// The module's name.
    pub name: syn::Ident,
    /// Its visibility, given to the generated module.
    pub vis: syn::Visibility,
    /// Its doc comments.
    pub docs: Vec<syn::Attribute>,
    /// `fn identity() -> Acc`.
    pub identity: Option<Part>,
    /// `fn map(inputs..) -> Acc`.
    pub map: Option<Part>,
    /// `fn combine(a: Acc, b: Acc) -> Acc`.
    pub combine: Option<Part>,
    /// `fn finish(acc: Acc, count: u64) -> Out`.
    pub finish: Option<Part>,
}

/// The functions a reduction module may hold, in order.
pub const PARTS: [&str; 4] = ["identity", "map", "combine", "finish"];

/// Lowers `mod NAME { fn identity.. }` under the attribute `#[what]`
/// (`reduce` or `scan`, which messages name); problems go to `errors`. `None`
/// when the item is no inline module.
pub fn module_of_parts(item: TokenStream, what: &str, errors: &mut Errors) -> Option<ReduceModule> {
    let module: syn::ItemMod = match syn::parse2(item) {
        Ok(m) => m,
        Err(e) => {
            errors.push(
                e.span(),
                format!("`#[{what}]` goes on an inline module: `mod NAME {{ fn identity() .. fn combine(a, b) .. }}`: {e}"),
            );
            return None;
        }
    };
    let docs = module
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect();
    for a in module.attrs.iter().filter(|a| !a.path().is_ident("doc")) {
        errors.push(
            a.span(),
            "attributes other than doc comments are not supported on a reduction",
        );
    }
    if let Some(u) = &module.unsafety {
        errors.push(u.span(), "a reduction module cannot be `unsafe`");
    }
    let mut out = ReduceModule {
        name: module.ident.clone(),
        vis: module.vis.clone(),
        docs,
        identity: None,
        map: None,
        combine: None,
        finish: None,
    };
    let Some((_, items)) = &module.content else {
        errors.push(
            module.semi.map_or(module.ident.span(), |s| s.span()),
            format!("`#[{what}]` goes on an inline module: write its functions inside `mod NAME {{ ... }}`"),
        );
        return Some(out);
    };
    for item in items {
        let syn::Item::Fn(f) = item else {
            errors.push(
                item_span(item),
                format!("a `#[{what}]` module holds only the functions `identity`, `map`, `combine` and `finish`"),
            );
            continue;
        };
        let name = f.sig.ident.to_string();
        let slot = match name.as_str() {
            "identity" => &mut out.identity,
            "map" => &mut out.map,
            "combine" => &mut out.combine,
            "finish" => &mut out.finish,
            _ => {
                errors.push(
                    f.sig.ident.span(),
                    format!("unknown function `{name}` in a `#[{what}]` module; expected `identity`, `map`, `combine` or `finish`"),
                );
                continue;
            }
        };
        if slot.is_some() {
            errors.push(f.sig.ident.span(), format!("`{name}` is defined twice"));
            continue;
        }
        let Some(sig) = signature_with(f, true, errors) else {
            continue;
        };
        let body = block(&f.block, sig.generic.as_ref(), errors);
        *slot = Some(Part { sig, body });
    }
    Some(out)
}

fn item_span(item: &syn::Item) -> Span {
    match item {
        syn::Item::Const(c) => c.ident.span(),
        syn::Item::Static(s) => s.ident.span(),
        syn::Item::Struct(s) => s.ident.span(),
        syn::Item::Enum(e) => e.ident.span(),
        syn::Item::Mod(m) => m.ident.span(),
        syn::Item::Type(t) => t.ident.span(),
        other => other.span(),
    }
}

fn ty_tokens(t: TyRef, generic: &syn::Ident, at: Span) -> TokenStream {
    match t {
        TyRef::Generic => quote_spanned!(at=> #generic),
        TyRef::Elem(t) => {
            let id = syn::Ident::new(t.name(), at);
            quote_spanned!(at=> #id)
        }
    }
}

fn generics(types: &[TyRef], generic: &syn::Ident, at: Span) -> TokenStream {
    if types.contains(&TyRef::Generic) {
        quote_spanned!(at=> <#generic>)
    } else {
        TokenStream::new()
    }
}

/// `fn map<T>(x: T) -> T { x }`.
fn map_tokens(acc: TyRef, generic: &syn::Ident, at: Span) -> TokenStream {
    let t = ty_tokens(acc, generic, at);
    let g = generics(&[acc], generic, at);
    let x = syn::Ident::new("x", at);
    quote_spanned!(at=> fn map #g (#x: #t) -> #t { #x })
}

/// `fn finish<T>(acc: Acc, count: u64) -> Acc { acc }`.
fn finish_tokens(acc: &[TyRef], generic: &syn::Ident, at: Span) -> TokenStream {
    let ts: Vec<TokenStream> = acc.iter().map(|t| ty_tokens(*t, generic, at)).collect();
    let t = match ts.as_slice() {
        [one] => one.clone(),
        many => quote_spanned!(at=> (#(#many),*)),
    };
    let g = generics(acc, generic, at);
    let a = syn::Ident::new("acc", at);
    let n = syn::Ident::new("count", at);
    quote_spanned!(at=> fn finish #g (#a: #t, #n: u64) -> #t { #a })
}

/// The `map` of a reduction that leaves it out: `fn map<T>(x: Acc) -> Acc { x }`
/// for a one-component accumulator `acc`, spanned at `at`.
pub fn identity_map(
    acc: TyRef,
    generic: &syn::Ident,
    at: Span,
    errors: &mut Errors,
) -> Option<Part> {
    lower(&map_tokens(acc, generic, at), errors)
}

/// The `finish` of a reduction that leaves it out:
/// `fn finish<T>(acc: Acc, count: u64) -> Acc { acc }`, spanned at `at`.
pub fn identity_finish(
    acc: &[TyRef],
    generic: &syn::Ident,
    at: Span,
    errors: &mut Errors,
) -> Option<Part> {
    lower(&finish_tokens(acc, generic, at), errors)
}

/// A function written by the front end, lowered like one the user wrote.
fn lower(tokens: &TokenStream, errors: &mut Errors) -> Option<Part> {
    let f: syn::ItemFn = syn::parse2(tokens.clone())
        .map_err(|e| errors.add(e))
        .ok()?;
    let sig = signature_with(&f, true, errors)?;
    let body = block(&f.block, sig.generic.as_ref(), errors);
    Some(Part { sig, body })
}

//! `#[helper]` functions, and how a kernel collects the definitions of the helpers
//! it calls.
//!
//! A proc macro sees only its own item, so the definitions travel as tokens: each
//! `#[helper] fn NAME` also defines a `macro_rules!` reachable as
//! `NAME::__silt_helper_tokens!`, which hands its definition to a callback. A
//! kernel that calls helpers expands to a call of the first helper's macro with
//! `__kernel_chain` as the callback and its own tokens as state; `__kernel_chain`
//! adds the definition and asks the next helper (including helpers that helpers
//! call), and when none is left, compiles the kernel with all of them. Helper
//! paths are resolved from the kernel's module.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::Token;

use crate::errors::Errors;
use crate::typeck::{ident_name, HelperDef};
use crate::{ast, attr, expand};

/// The state the chain carries from one helper macro to the next.
struct Chain {
    attr: TokenStream,
    item: TokenStream,
    pending: Vec<syn::Path>,
    asked: Option<syn::Path>,
    found: Vec<(syn::Path, TokenStream)>,
}

fn bracketed(input: ParseStream, key: &str) -> syn::Result<TokenStream> {
    let k: syn::Ident = input.parse()?;
    if k != key {
        return Err(syn::Error::new(k.span(), format!("expected `{key}`")));
    }
    let content;
    syn::bracketed!(content in input);
    content.parse()
}

impl Parse for Chain {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let state;
        syn::braced!(state in input);
        let attr = bracketed(&state, "attr")?;
        let item = bracketed(&state, "item")?;
        let paths = |t: TokenStream| -> syn::Result<Vec<syn::Path>> {
            let p = syn::punctuated::Punctuated::<syn::Path, Token![,]>::parse_terminated;
            Ok(syn::parse::Parser::parse2(p, t)?.into_iter().collect())
        };
        let pending = paths(bracketed(&state, "pending")?)?;
        let asked = paths(bracketed(&state, "asked")?)?.into_iter().next();
        let found_tokens = bracketed(&state, "found")?;
        let found = syn::parse::Parser::parse2(
            |input: ParseStream| {
                let mut out = Vec::new();
                while !input.is_empty() {
                    let p;
                    syn::bracketed!(p in input);
                    let path: syn::Path = p.parse()?;
                    let h;
                    syn::braced!(h in input);
                    out.push((path, h.parse()?));
                }
                Ok(out)
            },
            found_tokens,
        )?;
        let mut chain = Chain {
            attr,
            item,
            pending,
            asked,
            found,
        };
        // the definition the asked helper's macro appended
        if !input.is_empty() {
            let h;
            syn::braced!(h in input);
            if let Some(asked) = chain.asked.take() {
                chain.found.push((asked, h.parse()?));
            }
        }
        Ok(chain)
    }
}

impl Chain {
    /// The tokens that ask the next pending helper, or `None` when none is left.
    fn next(&mut self, krate: &TokenStream) -> Option<TokenStream> {
        if self.pending.is_empty() {
            return None;
        }
        let next = self.pending.remove(0);
        let (attr, item, pending) = (&self.attr, &self.item, &self.pending);
        let found = self.found.iter().map(|(p, h)| quote!([#p] { #h }));
        Some(quote! {
            #next::__silt_helper_tokens! {
                [#krate::__kernel_chain]
                { attr [#attr] item [#item] pending [#(#pending),*] asked [#next] found [#(#found)*] }
            }
        })
    }
}

/// The crate path a kernel's attribute names (`crate = ...`), else `::silt`.
fn krate_of(attr_tokens: &TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    match attr::parse(attr_tokens.clone(), &mut errors).krate {
        Some(p) => quote!(#p),
        None => quote!(::silt),
    }
}

/// The helper paths a function body calls.
fn calls_in(item: &TokenStream) -> Vec<(String, syn::Path)> {
    let Ok(func) = syn::parse2::<syn::ItemFn>(item.clone()) else {
        return Vec::new();
    };
    let mut errors = Errors::default();
    let generic = func
        .sig
        .generics
        .type_params()
        .next()
        .map(|t| t.ident.clone());
    let body = ast::block(&func.block, generic.as_ref(), &mut errors);
    let mut out = Vec::new();
    ast::helper_calls(&body, &mut out);
    out
}

/// For a kernel that calls helpers: the first link of the chain that collects
/// them. `None` for a kernel that calls none.
pub fn start_chain(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    let calls = calls_in(item);
    if calls.is_empty() {
        return None;
    }
    let mut chain = Chain {
        attr: attr.clone(),
        item: item.clone(),
        pending: calls.into_iter().map(|(_, p)| p).collect(),
        asked: None,
        found: Vec::new(),
    };
    chain.next(&krate_of(attr))
}

/// One link of the chain (`__kernel_chain!`): adds the helper just handed over,
/// asks for the next one, or compiles the kernel with all of them.
pub fn chain(input: TokenStream) -> TokenStream {
    let chain: Chain = match syn::parse2(input) {
        Ok(c) => c,
        Err(e) => return e.to_compile_error(),
    };
    let krate = krate_of(&chain.attr);
    // helpers that the collected helpers call, not yet collected or asked
    let mut chain = chain;
    let known: Vec<String> = chain
        .found
        .iter()
        .map(|(p, _)| ast::path_key(p))
        .chain(chain.pending.iter().map(ast::path_key))
        .collect();
    let mut more = Vec::new();
    for (_, h) in &chain.found {
        if let Ok(def) = syn::parse2::<HelperTokens>(h.clone()) {
            for (key, path) in calls_in(&def.item) {
                if !known.contains(&key)
                    && !more.iter().any(|(k, _): &(String, syn::Path)| *k == key)
                {
                    more.push((key, path));
                }
            }
        }
    }
    chain.pending.extend(more.into_iter().map(|(_, p)| p));
    if let Some(tokens) = chain.next(&krate) {
        return tokens;
    }
    let mut errors = Errors::default();
    let mut defs = Vec::new();
    for (path, h) in &chain.found {
        match syn::parse2::<HelperTokens>(h.clone()) {
            Ok(t) => {
                if let Some(def) = helper_def(ast::path_key(path), &t, &mut errors) {
                    defs.push(def);
                }
            }
            Err(e) => errors.add(e),
        }
    }
    if let Some(e) = errors.combine() {
        return e.to_compile_error();
    }
    match crate::compile_with(chain.attr, chain.item, &defs) {
        Ok(c) => expand::module(&c.sig, &c.instances, &c.krate),
        Err((e, sig)) => expand::fallback(sig.as_deref(), e),
    }
}

/// A helper's definition as its macro hands it over: `types [..] item [..]`.
struct HelperTokens {
    types: TokenStream,
    item: TokenStream,
}

impl Parse for HelperTokens {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(HelperTokens {
            types: bracketed(input, "types")?,
            item: bracketed(input, "item")?,
        })
    }
}

/// Lowers a helper's definition; problems go to `errors`.
fn helper_def(key: String, t: &HelperTokens, errors: &mut Errors) -> Option<HelperDef> {
    let opts = attr::parse(t.types.clone(), errors);
    let func: syn::ItemFn = syn::parse2(t.item.clone())
        .map_err(|e| errors.add(e))
        .ok()?;
    let sig = ast::signature(&func, errors)?;
    check_helper_signature(&sig, &opts, errors);
    let body = ast::block(&func.block, sig.generic.as_ref(), errors);
    let types = opts
        .types
        .map(|(list, _)| list.into_iter().map(|(t, _)| t).collect())
        .unwrap_or_default();
    Some(HelperDef {
        key,
        sig,
        body,
        types,
    })
}

fn check_helper_signature(sig: &ast::Signature, opts: &attr::Options, errors: &mut Errors) {
    match (&sig.generic, &opts.types) {
        (Some(g), None) => errors.push(
            g.span(),
            "a generic helper needs `types`: `#[helper(types = [f32, f64])]`",
        ),
        (None, Some((_, span))) => errors.push(*span, "`types` needs a generic parameter"),
        _ => {}
    }
    for p in &sig.params {
        if p.kind != ast::ParamKind::Input {
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

/// The expansion of `#[helper(attr)] item`: the definition's macro, and a module
/// of the same name that makes it reachable by path.
pub fn expand_helper(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let def = helper_def(
        String::new(),
        &HelperTokens {
            types: attr.clone(),
            item: item.clone(),
        },
        &mut errors,
    );
    let Some(def) = def else {
        return errors
            .combine()
            .map(|e| e.to_compile_error())
            .unwrap_or_default();
    };
    // check the body now if it stands alone (helpers it calls are checked with
    // the kernels that use them)
    let mut calls = Vec::new();
    ast::helper_calls(&def.body, &mut calls);
    if errors.is_empty() && calls.is_empty() {
        let types: Vec<Option<crate::ty::Ty>> = if def.types.is_empty() {
            vec![None]
        } else {
            def.types.iter().copied().map(Some).collect()
        };
        for t in types {
            crate::typeck::check_fn_only(&def.sig, &def.body, t, &mut errors);
        }
    }
    let err = errors.combine().map(|e| e.to_compile_error());
    let name = &def.sig.name;
    let vis = &def.sig.vis;
    let docs = &def.sig.docs;
    let mac = format_ident!("__silt_helper_{}", ident_name(name));
    let types_text: Vec<&str> = def.types.iter().map(|t| t.rust()).collect();
    let doc = format!(
        "The `#[helper]` function `{}`, callable from `#[kernel]` bodies{}.",
        ident_name(name),
        if types_text.is_empty() {
            String::new()
        } else {
            format!(" for {}", types_text.join(", "))
        }
    );
    let _ = Span::call_site();
    quote! {
        #err
        #(#docs)*
        #[doc = #doc]
        #[allow(non_snake_case)]
        #vis mod #name {
            #[doc(hidden)]
            #[allow(unused_macros)]
            macro_rules! #mac {
                ([$($cb:tt)*] { $($state:tt)* }) => {
                    $($cb)*! { { $($state)* } { types [#attr] item [#item] } }
                };
            }
            #[doc(hidden)]
            #[allow(unused_imports)]
            pub(crate) use #mac as __silt_helper_tokens;
        }
    }
}

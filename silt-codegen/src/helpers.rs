//! `#[helper]` functions, and how a kernel collects the definitions of the helpers
//! it calls.
//!
//! A proc macro sees only its own item, so the definitions travel as tokens: each
//! `#[helper] fn NAME` also defines a `macro_rules!` reachable as
//! `NAME::__silt_helper_tokens!`, which hands its definition to a callback. A
//! kernel that calls helpers expands to a call of the first helper's macro with
//! `__kernel_chain` as the callback and its own tokens as state; `__kernel_chain`
//! adds the definition and asks the next helper (including helpers that helpers
//! call), and when none is left, compiles the kernel with all of them. A call in
//! a kernel is resolved from the kernel's module; a call in a helper through a
//! re-export (`__silt_dep_N`) in that helper's own module, so from where it is
//! written. A helper reached by two paths is recognised by its tokens and kept
//! once.

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
    // a helper reached by two paths (`sq` and `norm::__silt_dep_0`) is the same
    // definition: the first path found is its canonical key, and only it is
    // lowered and asked about the helpers it calls (this also ends recursion)
    let mut chain = chain;
    let mut canon: Vec<(String, String)> = Vec::new();
    let mut texts: Vec<(String, String)> = Vec::new();
    for (p, h) in &chain.found {
        let key = ast::path_key(p);
        let text = h.to_string();
        let target = texts
            .iter()
            .find(|(t, _)| *t == text)
            .map(|(_, k)| k.clone());
        match target {
            Some(k) => canon.push((key, k)),
            None => {
                texts.push((text, key.clone()));
                canon.push((key.clone(), key));
            }
        }
    }
    let is_canonical = |key: &str| canon.iter().any(|(k, c)| k == key && c == key);
    let known: Vec<String> = chain
        .found
        .iter()
        .map(|(p, _)| ast::path_key(p))
        .chain(chain.pending.iter().map(ast::path_key))
        .collect();
    let mut more = Vec::new();
    for (found_at, h) in &chain.found {
        if !is_canonical(&ast::path_key(found_at)) {
            continue;
        }
        if let Ok(def) = syn::parse2::<HelperTokens>(h.clone()) {
            for j in 0..calls_in(&def.item).len() {
                let path = dep_path(found_at, j);
                let key = ast::path_key(&path);
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
        if !is_canonical(&ast::path_key(path)) {
            continue;
        }
        match syn::parse2::<HelperTokens>(h.clone()) {
            Ok(t) => {
                if let Some(mut def) = helper_def(path, &t, &mut errors) {
                    // calls of aliases go to the canonical definition
                    for (_, resolved) in &mut def.deps {
                        if let Some((_, c)) = canon.iter().find(|(k, _)| k == resolved) {
                            *resolved = c.clone();
                        }
                    }
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

/// `found_at::__silt_dep_j`: the `j`-th helper that the helper at `found_at` calls,
/// named through the re-export in that helper's own module.
fn dep_path(found_at: &syn::Path, j: usize) -> syn::Path {
    let mut p = found_at.clone();
    p.segments
        .push(syn::PathSegment::from(format_ident!("__silt_dep_{}", j)));
    p
}

/// Lowers a helper's definition, found at `found_at`; problems go to `errors`.
fn helper_def(found_at: &syn::Path, t: &HelperTokens, errors: &mut Errors) -> Option<HelperDef> {
    let key = ast::path_key(found_at);
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
    let mut calls = Vec::new();
    ast::helper_calls(&body, &mut calls);
    let deps = calls
        .into_iter()
        .enumerate()
        .map(|(j, (written, _))| (written, ast::path_key(&dep_path(found_at, j))))
        .collect();
    Some(HelperDef {
        key,
        sig,
        body,
        types,
        deps,
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

/// `p` as seen from a module one level below the one it is written in.
fn from_parent(p: &syn::Path) -> TokenStream {
    let first = p
        .segments
        .first()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    if p.leading_colon.is_some() || first == "crate" {
        quote!(#p)
    } else if first == "self" {
        let rest = p.segments.iter().skip(1);
        quote!(super #(:: #rest)*)
    } else {
        quote!(super::#p)
    }
}

/// The expansion of `#[helper(attr)] item`: the definition's macro, and a module
/// of the same name that makes it reachable by path.
pub fn expand_helper(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let def = helper_def(
        &syn::Path::from(format_ident!("self")),
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
    // the helpers this one calls, named from this helper's module (one level
    // below where it is written)
    // seen where the helper is: a private helper's re-exports may only be as
    // visible as the private helpers they name
    let dep_vis = match def.sig.vis {
        syn::Visibility::Inherited => quote!(pub(super)),
        _ => quote!(pub(crate)),
    };
    let deps = calls.iter().enumerate().map(|(j, (_, p))| {
        let alias = format_ident!("__silt_dep_{}", j);
        let path = from_parent(p);
        quote! {
            #[doc(hidden)]
            #[allow(unused_imports)]
            #dep_vis use #path as #alias;
        }
    });
    let name = &def.sig.name;
    let vis = &def.sig.vis;
    let docs = &def.sig.docs;
    let mac = format_ident!("__silt_helper_{}", ident_name(name));
    let types_text: Vec<&str> = def.types.iter().map(|t| t.name()).collect();
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
            #(#deps)*
        }
    }
}

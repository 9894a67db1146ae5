//! The chain of macros by which a kernel collects the definitions of the
//! helpers it calls (see the module above).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::Token;

use super::crates::{dependencies, tokens_macro};
use super::def::{bracketed, dep_path, helper_def, Embedded, HelperTokens};
use super::expand::{export_item, Carries};
use crate::errors::Errors;
use crate::front::{self, attr, helper_calls, path_key};
use crate::{compile, expand};

/// What a chain collects helpers for (its mark, first in the state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A `#[kernel]` (no mark).
    Kernel,
    /// A `pub` helper's export (`export`).
    Export,
    /// A `#[reduce]` module (`reduce`).
    Reduce,
    /// A `#[scan]` module (`scan`).
    Scan,
    /// A `#[grid]` kernel (`grid`).
    Grid,
}

impl Form {
    fn mark(self) -> Option<&'static str> {
        match self {
            Form::Kernel => None,
            Form::Export => Some("export"),
            Form::Reduce => Some("reduce"),
            Form::Scan => Some("scan"),
            Form::Grid => Some("grid"),
        }
    }
}

/// The state the chain carries from one helper macro to the next.
struct Chain {
    form: Form,
    attr: TokenStream,
    item: TokenStream,
    pending: Vec<syn::Path>,
    asked: Option<syn::Path>,
    found: Vec<(syn::Path, TokenStream)>,
}

impl Parse for Chain {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let state;
        syn::braced!(state in input);
        let mut form = Form::Kernel;
        if state.peek(syn::Ident) {
            let mark = state.fork().parse::<syn::Ident>()?;
            if let Some(f) = [Form::Export, Form::Reduce, Form::Scan, Form::Grid]
                .into_iter()
                .find(|f| f.mark().is_some_and(|m| mark == m))
            {
                state.parse::<syn::Ident>()?;
                form = f;
            }
        }
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
            form,
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
        let mac = tokens_macro(&next, &dependencies());
        let mark = self.form.mark().map(|m| format_ident!("{m}"));
        Some(quote! {
            #mac! {
                [#krate::__kernel_chain]
                { #mark attr [#attr] item [#item] pending [#(#pending),*] asked [#next] found [#(#found)*] }
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

/// The items a kernel's module carries so that other kernels can call it (see
/// `token_items` in `expand.rs`), with the definitions of the helpers it
/// uses (`found`: as its chain found them, by the paths the chain asked).
pub fn callable_items(
    name: &syn::Ident,
    vis: &syn::Visibility,
    attr: &TokenStream,
    item: &TokenStream,
    found: &[(syn::Path, TokenStream)],
) -> TokenStream {
    let (calls, _) = calls_in(item);
    let embedded = embed(found, &calls);
    super::expand::token_items(name, vis, attr, item, &calls, Carries::Kernel(&embedded))
}

/// The definitions `found` by a chain, each with the chain of calls that
/// reaches it from a body that makes `calls`.
fn embed(found: &[(syn::Path, TokenStream)], calls: &[(String, syn::Path)]) -> Embedded {
    found
        .iter()
        .filter_map(|(p, h)| Some((dep_chain(p, calls)?, h.clone())))
        .collect()
}

/// How a helper found at `p` is reached from a kernel whose body makes
/// `calls`: `[j, k, ...]` for `calls[j]::__silt_dep_k::...`.
fn dep_chain(p: &syn::Path, calls: &[(String, syn::Path)]) -> Option<Vec<usize>> {
    let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
    (1..=segs.len()).rev().find_map(|i| {
        let mut head = p.clone();
        head.segments = p.segments.iter().take(i).cloned().collect();
        let j = calls
            .iter()
            .position(|(_, c)| path_key(c) == path_key(&head))?;
        let rest: Option<Vec<usize>> = segs[i..]
            .iter()
            .map(|s| s.strip_prefix("__silt_dep_")?.parse().ok())
            .collect();
        let mut at = vec![j];
        at.extend(rest?);
        Some(at)
    })
}

/// `found_at` followed by the chain of re-exports `at` names (see
/// [`dep_chain`]): where a helper a called kernel uses is from the caller.
fn chain_path(found_at: &syn::Path, at: &[usize]) -> syn::Path {
    at.iter().fold(found_at.clone(), |p, &j| dep_path(&p, j))
}

/// The helper paths a function body calls (every function's, for the module
/// of a reduction or scan), and whether its syntax has errors of its own.
fn calls_in(item: &TokenStream) -> (Vec<(String, syn::Path)>, bool) {
    let funcs: Vec<syn::ItemFn> = match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Fn(f)) => vec![f],
        Ok(syn::Item::Mod(m)) => m
            .content
            .into_iter()
            .flat_map(|(_, items)| items)
            .filter_map(|i| match i {
                syn::Item::Fn(f) => Some(f),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let mut errors = Errors::default();
    for func in funcs {
        let generic = func
            .sig
            .generics
            .type_params()
            .next()
            .map(|t| t.ident.clone());
        let body = front::block(&func.block, generic.as_ref(), &mut errors);
        helper_calls(&body, &mut out);
    }
    (out, !errors.is_empty())
}

/// For a kernel that calls helpers: the first link of the chain that collects
/// them. `None` for a kernel that calls none.
pub fn start_chain(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    start(attr, item, Form::Kernel)
}

/// For a `#[grid]` kernel that calls helpers: the first link of the chain
/// that collects them. `None` for a kernel that calls none.
pub fn start_grid_chain(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    start(attr, item, Form::Grid)
}

/// For a `#[reduce]` (or, with `scan`, a `#[scan]`) module whose functions call
/// helpers: the first link of the chain that collects them. `None` for a
/// module that calls none.
pub fn start_module_chain(
    attr: &TokenStream,
    item: &TokenStream,
    scan: bool,
) -> Option<TokenStream> {
    start(attr, item, if scan { Form::Scan } else { Form::Reduce })
}

/// For a `pub` helper that calls helpers: the first link of the chain that
/// collects them and exports the helper with their definitions.
pub(super) fn start_export_chain(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    start(attr, item, Form::Export)
}

fn start(attr: &TokenStream, item: &TokenStream, form: Form) -> Option<TokenStream> {
    let (calls, broken) = calls_in(item);
    // a body whose syntax has errors is expanded at once, without collecting
    // its helpers: its errors are then reported beside the calls' (a chain
    // stops at the first call rustc cannot resolve, and hid them)
    if calls.is_empty() || broken {
        return None;
    }
    let mut chain = Chain {
        form,
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
    let mut chain = chain;
    // a called kernel (or another crate's `pub` helper) brings the helpers it
    // uses: found where its re-exports would be, so they are never asked for
    let mut brought = Vec::new();
    for (found_at, h) in &chain.found {
        if let Ok(HelperTokens {
            embedded: Some(embedded),
            ..
        }) = syn::parse2::<HelperTokens>(h.clone())
        {
            for (at, def) in embedded {
                let p = chain_path(found_at, &at);
                let key = path_key(&p);
                let known = chain.found.iter().any(|(q, _)| path_key(q) == key)
                    || brought
                        .iter()
                        .any(|(q, _): &(syn::Path, TokenStream)| path_key(q) == key);
                if !known {
                    brought.push((p, def));
                }
            }
        }
    }
    chain.found.extend(brought);
    // a helper reached by two paths (`sq` and `norm::__silt_dep_0`) is the same
    // definition: one path is its canonical key, and only it is lowered and
    // asked about the helpers it calls (this also ends recursion). A path the
    // body itself calls comes first, so that its calls find the definition
    // (a helper that a called kernel brings was found before the body's own
    // call of it), then the first path found.
    let direct: Vec<String> = calls_in(&chain.item)
        .0
        .iter()
        .map(|(_, p)| path_key(p))
        .collect();
    let mut order: Vec<&(syn::Path, TokenStream)> = chain.found.iter().collect();
    order.sort_by_key(|(p, _)| !direct.contains(&path_key(p)));
    let mut canon: Vec<(String, String)> = Vec::new();
    let mut texts: Vec<(String, String)> = Vec::new();
    for (p, h) in order {
        let key = path_key(p);
        let text = token_text(h.clone());
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
        .map(|(p, _)| path_key(p))
        .chain(chain.pending.iter().map(path_key))
        .collect();
    let mut more = Vec::new();
    for (found_at, h) in &chain.found {
        if !is_canonical(&path_key(found_at)) {
            continue;
        }
        if let Ok(def) = syn::parse2::<HelperTokens>(h.clone()) {
            for j in 0..calls_in(&def.item).0.len() {
                let path = dep_path(found_at, j);
                let key = path_key(&path);
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
    if chain.form == Form::Export {
        // a helper's export: its definition with every one it uses (checked
        // with the kernels that call it)
        let Ok(func) = syn::parse2::<syn::ItemFn>(chain.item.clone()) else {
            return TokenStream::new();
        };
        let embedded = embed(&chain.found, &calls_in(&chain.item).0);
        return export_item(&func.sig.ident, &chain.attr, &chain.item, &embedded);
    }
    let mut errors = Errors::default();
    let mut defs = Vec::new();
    for (path, h) in &chain.found {
        if !is_canonical(&path_key(path)) {
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
    if let Form::Reduce | Form::Scan = chain.form {
        let scan = chain.form == Form::Scan;
        return match compile::compile_module_with(chain.attr, chain.item, scan, &defs) {
            Ok(c) => expand::fold_module(&c),
            Err((e, placeholder)) => expand::fold_fallback(placeholder, e),
        };
    }
    if chain.form == Form::Grid {
        return match compile::compile_grid_with(chain.attr, chain.item, &defs) {
            Ok(c) => expand::grid_module(&c),
            Err((e, sig)) => expand::fallback(sig.as_deref(), e),
        };
    }
    match compile::compile_with(chain.attr.clone(), chain.item.clone(), &defs) {
        Ok(c) => {
            let callable = callable_items(
                &c.sig.name,
                &c.sig.vis,
                &chain.attr,
                &chain.item,
                &chain.found,
            );
            expand::module(&c.sig, &c.instances, &c.krate, &callable)
        }
        Err((e, sig)) => expand::fallback(sig.as_deref(), e),
    }
}

/// The tokens of `ts` one by one, groups recursively, without doc
/// attributes: a helper's definition reached through another helper's
/// expansion carries its doc comments as `#[doc = r".."]`, reached directly
/// as `#[doc = ".."]` (and prints them as `///` comments), and the code is
/// the same.
fn token_text(ts: TokenStream) -> String {
    use proc_macro2::{Delimiter, TokenTree};
    let is_doc = |tt: Option<&TokenTree>| {
        matches!(tt, Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket
            && matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc"))
    };
    let mut out = String::new();
    let mut tokens = ts.into_iter().peekable();
    while let Some(tt) = tokens.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '#' && is_doc(tokens.peek()) => {
                tokens.next();
                continue;
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                out.push_str(&token_text(g.stream()));
                out.push_str(close);
            }
            other => out.push_str(&other.to_string()),
        }
        out.push(' ');
    }
    out
}

//! A helper's definition as it travels between macros, and its lowering.

use proc_macro2::TokenStream;
use quote::format_ident;
use syn::parse::{Parse, ParseStream};

use crate::check::HelperDef;
use crate::errors::Errors;
use crate::front::attr::{self, Options};
use crate::front::syntax::{ParamKind, Signature};
use crate::front::{self, helper_calls, ident_name, path_key};

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

/// What a kernel, or a `pub` helper that calls helpers, hands over beside its
/// own definition: the definitions of the helpers its body uses, each with the
/// chain of calls that reaches it (`[j, k]`: the `k`-th call of the helper that
/// is the body's `j`-th call), so a caller, in another crate too, needs no
/// path to them.
pub type Embedded = Vec<(Vec<usize>, TokenStream)>;

/// A helper's definition as its macro hands it over: `types [..] item [..]`,
/// then, for a `#[kernel]`, `kernel [..]` with the definitions of the helpers
/// it uses ([`Embedded`]), or for a helper exported with them, `uses [..]`.
pub(super) struct HelperTokens {
    /// The attribute's tokens.
    pub(super) types: TokenStream,
    /// The function's tokens.
    pub(super) item: TokenStream,
    /// A `#[kernel]` (whose `#[scalar]`s are plain values in a call).
    pub(super) kernel: bool,
    /// The definitions of the helpers it uses, when they travel with it.
    pub(super) embedded: Option<Embedded>,
}

/// `[0, 1] { def } [2] { def } ...`: the entries of an [`Embedded`].
fn embedded_entries(input: ParseStream) -> syn::Result<Embedded> {
    let mut out = Vec::new();
    while !input.is_empty() {
        let at;
        syn::bracketed!(at in input);
        let at = syn::punctuated::Punctuated::<syn::LitInt, syn::Token![,]>::parse_terminated(&at)?
            .iter()
            .map(syn::LitInt::base10_parse::<usize>)
            .collect::<syn::Result<Vec<_>>>()?;
        let h;
        syn::braced!(h in input);
        out.push((at, h.parse()?));
    }
    Ok(out)
}

impl Parse for HelperTokens {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let types = bracketed(input, "types")?;
        let item = bracketed(input, "item")?;
        let (kernel, embedded) = if input.is_empty() {
            (false, None)
        } else {
            let key: syn::Ident = input.fork().parse()?;
            let kernel = key == "kernel";
            let entries = bracketed(input, if kernel { "kernel" } else { "uses" })?;
            let entries = syn::parse::Parser::parse2(embedded_entries, entries)?;
            (kernel, Some(entries))
        };
        Ok(HelperTokens {
            types,
            item,
            kernel,
            embedded,
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

/// The definitions of `#[helper]`s written side by side in one module, each
/// given as its attribute's tokens and its `fn` item, as the chain collects
/// them for a body written there: for tools and tests that compile without
/// rustc ([`compile_with`](crate::compile_with),
/// [`compile_module_with`](crate::compile_module_with)). A call of one of them
/// from another resolves by its name.
///
/// # Errors
/// Every problem with the definitions, combined.
pub fn sibling_defs(helpers: &[(TokenStream, TokenStream)]) -> Result<Vec<HelperDef>, syn::Error> {
    let mut errors = Errors::default();
    let mut defs = Vec::new();
    for (attr, item) in helpers {
        let func: syn::ItemFn = match syn::parse2(item.clone()) {
            Ok(f) => f,
            Err(e) => {
                errors.add(e);
                continue;
            }
        };
        let path = syn::Path::from(func.sig.ident.clone());
        let tokens = HelperTokens {
            types: attr.clone(),
            item: item.clone(),
            kernel: false,
            embedded: None,
        };
        defs.extend(helper_def(&path, &tokens, &mut errors));
    }
    let keys: Vec<String> = defs.iter().map(|d| d.key.clone()).collect();
    for d in &mut defs {
        for (written, resolved) in &mut d.deps {
            if keys.contains(written) {
                resolved.clone_from(written);
            }
        }
    }
    match errors.combine() {
        Some(e) => Err(e),
        None => Ok(defs),
    }
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
    let mut sig = front::signature(&func, errors)?;
    if t.kernel {
        callable_kernel(found_at, &mut sig, errors);
    } else {
        check_helper_signature(&sig, &opts, errors);
    }
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
        kernel: t.kernel,
    })
}

/// A kernel called from another kernel (found at `found_at`, as the call
/// wrote it): its `#[scalar]`s become plain values; `&mut` and `#[index]`
/// parameters, and more or fewer than one result, are errors at the call.
fn callable_kernel(found_at: &syn::Path, sig: &mut Signature, errors: &mut Errors) {
    let name = path_key(found_at);
    let span = found_at
        .segments
        .last()
        .map_or_else(proc_macro2::Span::call_site, |s| s.ident.span());
    let callable = "a kernel can be called from another kernel when its parameters are values and `#[scalar]`s and it returns a value (or a tuple of values)";
    for p in &mut sig.params {
        match p.kind {
            ParamKind::Input => {}
            ParamKind::Scalar => p.kind = ParamKind::Input,
            ParamKind::InOut => errors.push(
                span,
                format!(
                    "kernel `{name}` writes through `&mut {}`: {callable}",
                    ident_name(&p.name)
                ),
            ),
            ParamKind::Index => errors.push(
                span,
                format!(
                    "kernel `{name}` takes an `#[index]` (`{}`): {callable}",
                    ident_name(&p.name)
                ),
            ),
            ParamKind::View(_) | ParamKind::ViewMut(_) => errors.push(
                span,
                format!(
                    "kernel `{name}` takes a view (`{}`): {callable}",
                    ident_name(&p.name)
                ),
            ),
        }
    }
    if sig.outputs.is_empty() {
        errors.push(span, format!("kernel `{name}` returns nothing: {callable}"));
    }
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
    if sig.outputs.is_empty() {
        errors.push(
            sig.name.span(),
            "a helper returns a value or a tuple of values (`-> T`, `-> (T, T)`)",
        );
    }
}

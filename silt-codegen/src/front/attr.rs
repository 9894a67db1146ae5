//! The attribute's options: `#[kernel(types = [f32, f64])]`.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, Token};

use super::types::{supported_types, ungroup};
use crate::errors::Errors;
use silt_abi::DType;

/// The parsed options of `#[kernel(...)]`.
#[derive(Debug, Default)]
pub struct Options {
    /// The instantiation types, with the span of each.
    pub types: Option<(Vec<(DType, Span)>, Span)>,
    /// The path of the `silt` crate in generated code (`crate = my_reexport::silt`).
    pub krate: Option<syn::Path>,
    /// `#[reduce]` only: what a reduction over no elements gives, `empty =
    /// identity` (the default) or `empty = error` (an error at launch, for
    /// reductions such as `amax` whose identity is no answer), with the span.
    pub empty: Option<(EmptyRows, Span)>,
    /// `#[grid]` only: the work-group's shape (1 to 3 sizes), with the span
    /// of the option.
    pub group: Option<(Vec<u32>, Span)>,
    /// `#[grid]` only: `unchecked`, with its span.
    pub unchecked: Option<Span>,
}

/// The most work-items a grid kernel's work-group may have (what every
/// OpenCL device that silt knows takes; devices may take fewer, an error at
/// launch).
pub const MAX_GROUP_ITEMS: u64 = 1024;

/// What a reduction over no elements gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyRows {
    /// `finish(identity(), 0)`.
    Identity,
    /// `Error::EmptyReduction` at launch.
    Error,
}

struct RawOption {
    key: Ident,
    value: RawValue,
}

enum RawValue {
    /// `[a, b, c]`, read as types.
    List(Vec<syn::Type>, Span),
    /// `[1, 2]` for `group`, read as expressions.
    Exprs(Vec<syn::Expr>, Span),
    /// A bare option (`unchecked`).
    Flag,
    /// Anything else, kept for its span.
    Other(Box<syn::Expr>),
}

impl Parse for RawOption {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key: Ident = if input.peek(Token![crate]) {
            let k: Token![crate] = input.parse()?;
            Ident::new("crate", k.span)
        } else {
            input.parse()?
        };
        if key == "unchecked" && !input.peek(Token![=]) {
            return Ok(RawOption {
                key,
                value: RawValue::Flag,
            });
        }
        input.parse::<Token![=]>()?;
        let value = if key == "group" && input.peek(syn::token::Bracket) {
            let content;
            let bracket = syn::bracketed!(content in input);
            let list = Punctuated::<syn::Expr, Token![,]>::parse_terminated(&content)?;
            RawValue::Exprs(list.into_iter().collect(), bracket.span.join())
        } else if input.peek(syn::token::Bracket) {
            let content;
            let bracket = syn::bracketed!(content in input);
            let list = Punctuated::<syn::Type, Token![,]>::parse_terminated(&content)?;
            RawValue::List(list.into_iter().collect(), bracket.span.join())
        } else {
            RawValue::Other(Box::new(input.parse()?))
        };
        Ok(RawOption { key, value })
    }
}

/// Parses the attribute's tokens, reporting every problem into `errors`.
pub fn parse(tokens: TokenStream, errors: &mut Errors) -> Options {
    let mut opts = Options::default();
    if tokens.is_empty() {
        return opts;
    }
    // parsed inside a group that spans the last token, so that an error at the
    // end of the tokens (`types`, `crate = a +`) points at that token instead of
    // at the whole attribute
    let last = tokens.clone().into_iter().last().map(|t| t.span());
    let mut group = Group::new(Delimiter::Parenthesis, tokens);
    if let Some(span) = last {
        group.set_span(span);
    }
    let parser = |input: ParseStream| {
        let content;
        syn::parenthesized!(content in input);
        Punctuated::<RawOption, Token![,]>::parse_terminated(&content)
    };
    let raw = match syn::parse::Parser::parse2(parser, TokenTree::Group(group).into()) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(
                e.span(),
                format!("{e}; expected options like `types = [f32, f64]`"),
            );
            return opts;
        }
    };
    for opt in raw {
        if opt.key == "types" {
            if opts.types.is_some() {
                errors.push(
                    opt.key.span(),
                    "duplicate `types` option: give the list once",
                );
                continue;
            }
            opts.types = Some((parse_types(&opt.value, errors), opt.key.span()));
        } else if opt.key == "crate" {
            let path = match &opt.value {
                RawValue::Other(e) => match &**e {
                    syn::Expr::Path(p) => Some(p),
                    _ => None,
                },
                _ => None,
            };
            match path {
                Some(p) if p.qself.is_none() && opts.krate.is_none() => {
                    opts.krate = Some(p.path.clone());
                }
                _ if opts.krate.is_some() => {
                    errors.push(opt.key.span(), "duplicate `crate` option")
                }
                _ => errors.push(
                    value_span(&opt.value),
                    "expected the path of the silt crate, e.g. `crate = ::my_crate::silt`",
                ),
            }
        } else if opt.key == "group" {
            if opts.group.is_some() {
                errors.push(opt.key.span(), "duplicate `group` option");
                continue;
            }
            // a shape that is wrong is reported once, not also as missing
            let g = parse_group(&opt.value, errors).unwrap_or_else(|| vec![1]);
            opts.group = Some((g, opt.key.span()));
        } else if opt.key == "unchecked" {
            match opt.value {
                RawValue::Flag if opts.unchecked.is_none() => opts.unchecked = Some(opt.key.span()),
                RawValue::Flag => errors.push(opt.key.span(), "duplicate `unchecked` option"),
                _ => errors.push(
                    value_span(&opt.value),
                    "`unchecked` takes no value: write `#[grid(unchecked, ...)]`",
                ),
            }
        } else if opt.key == "empty" {
            let value = match &opt.value {
                RawValue::Other(e) => match &**e {
                    syn::Expr::Path(p) if p.path.is_ident("error") => Some(EmptyRows::Error),
                    syn::Expr::Path(p) if p.path.is_ident("identity") => Some(EmptyRows::Identity),
                    _ => None,
                },
                _ => None,
            };
            match value {
                Some(_) if opts.empty.is_some() => {
                    errors.push(opt.key.span(), "duplicate `empty` option")
                }
                Some(v) => opts.empty = Some((v, opt.key.span())),
                None => errors.push(
                    value_span(&opt.value),
                    "expected `empty = error` (an empty reduction is an error) or `empty = identity`",
                ),
            }
        } else {
            let hint = if opt.key.to_string().starts_with("typ") {
                " (did you mean `types`?)"
            } else {
                ""
            };
            errors.push(
                opt.key.span(),
                format!(
                    "unknown option `{}`{hint}; expected `types = [...]` or `crate = path`",
                    opt.key
                ),
            );
        }
    }
    opts
}

fn value_span(v: &RawValue) -> Span {
    match v {
        RawValue::List(_, span) | RawValue::Exprs(_, span) => *span,
        RawValue::Other(e) => syn::spanned::Spanned::span(e),
        RawValue::Flag => Span::call_site(),
    }
}

/// `group = [16, 16]`: 1 to 3 sizes of at least 1, of at most
/// [`MAX_GROUP_ITEMS`] work-items in all.
fn parse_group(value: &RawValue, errors: &mut Errors) -> Option<Vec<u32>> {
    let expected = "expected the work-group's shape: 1 to 3 sizes, e.g. `group = [16, 16]`";
    let RawValue::Exprs(elems, span) = value else {
        errors.push(value_span(value), expected);
        return None;
    };
    if elems.is_empty() || elems.len() > 3 {
        errors.push(*span, expected);
        return None;
    }
    let mut out = Vec::new();
    for e in elems {
        let n = match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse::<u32>().ok().filter(|&n| n >= 1),
            _ => None,
        };
        match n {
            Some(n) => out.push(n),
            None => {
                errors.push(
                    syn::spanned::Spanned::span(e),
                    "a work-group size is an integer literal of at least 1",
                );
                return None;
            }
        }
    }
    let items: u64 = out.iter().map(|&n| u64::from(n)).product();
    if items > MAX_GROUP_ITEMS {
        errors.push(
            *span,
            format!("a work-group of {items} work-items: at most {MAX_GROUP_ITEMS}"),
        );
        return None;
    }
    Some(out)
}

fn parse_types(value: &RawValue, errors: &mut Errors) -> Vec<(DType, Span)> {
    let RawValue::List(elems, list_span) = value else {
        errors.push(
            value_span(value),
            "expected a list of element types, e.g. `types = [f32, f64]`",
        );
        return Vec::new();
    };
    let mut out: Vec<(DType, Span)> = Vec::new();
    for elem in elems {
        let span = syn::spanned::Spanned::span(elem);
        let name = match ungroup(elem) {
            syn::Type::Path(p) if p.qself.is_none() => p.path.get_ident().map(Ident::to_string),
            _ => None,
        };
        match name.as_deref().map(|n| (n, DType::from_name(n))) {
            Some((_, Some(ty))) => {
                if out.iter().any(|(t, _)| *t == ty) {
                    errors.push(span, format!("`{ty}` is listed twice in `types`"));
                } else {
                    out.push((ty, span));
                }
            }
            _ => errors.push(
                span,
                format!(
                    "unsupported element type; supported element types: {}",
                    supported_types()
                ),
            ),
        }
    }
    if elems.is_empty() {
        errors.push(
            *list_span,
            format!(
                "`types` is empty; list at least one of: {}",
                supported_types()
            ),
        );
    }
    out
}

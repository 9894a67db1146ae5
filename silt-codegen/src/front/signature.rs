//! Lowers a kernel's (or helper's) signature: name, generic parameter,
//! parameters and their kinds, outputs, doc comments.

use syn::spanned::Spanned;

use super::syntax::{Param, ParamKind, Signature, TyRef};
use super::types::{ty_ref, ungroup};
use crate::errors::Errors;
use silt_abi::DType;

/// Lowers the signature. Problems go to `errors`; what could be read is returned.
pub fn signature(f: &syn::ItemFn, errors: &mut Errors) -> Option<Signature> {
    signature_with(f, false, errors)
}

/// [`signature`], also accepting tuple parameters (`a: (T, i64)`) when
/// `tuples` is set: the functions of a reduction take their accumulator so.
pub fn signature_with(f: &syn::ItemFn, tuples: bool, errors: &mut Errors) -> Option<Signature> {
    let before = errors.len();
    let sig = &f.sig;
    if let Some(t) = &sig.constness {
        errors.push(t.span(), "a kernel cannot be `const`");
    }
    if let Some(t) = &sig.asyncness {
        errors.push(t.span(), "a kernel cannot be `async`");
    }
    if let Some(t) = &sig.unsafety {
        errors.push(
            t.span(),
            "a kernel cannot be `unsafe`: silt checks everything it accepts",
        );
    }
    if let Some(t) = &sig.abi {
        errors.push(t.span(), "a kernel cannot have an ABI");
    }
    if let Some(t) = &sig.variadic {
        errors.push(t.span(), "a kernel cannot be variadic");
    }
    if let Some(w) = &sig.generics.where_clause {
        errors.push(w.span(), "`where` clauses are not supported: the generic parameter stands for each type in `types`");
    }
    let mut generic = None;
    for gp in &sig.generics.params {
        match gp {
            syn::GenericParam::Type(tp) => {
                if generic.is_some() {
                    errors.push(
                        tp.ident.span(),
                        "a kernel takes at most one generic type parameter",
                    );
                } else if let Some(b) = tp.bounds.first() {
                    errors.push(
                        b.span(),
                        "generic bounds are not supported: the generic parameter stands for each type in `types`",
                    );
                    generic = Some(tp.ident.clone());
                } else if let Some(d) = &tp.default {
                    errors.push(d.span(), "generic defaults are not supported");
                } else {
                    generic = Some(tp.ident.clone());
                }
            }
            other => errors.push(
                other.span(),
                "only one generic type parameter is supported (no lifetimes or const generics)",
            ),
        }
    }
    let mut params = Vec::new();
    let mut tuple_params = Vec::new();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(r) => errors.push(r.span(), "a kernel cannot take `self`"),
            syn::FnArg::Typed(pt) => match &*pt.ty {
                syn::Type::Tuple(t) if tuples && !t.elems.is_empty() => {
                    if let Some((name, fields)) = tuple_param(pt, t, generic.as_ref(), errors) {
                        tuple_params
                            .push((name, (params.len()..params.len() + fields.len()).collect()));
                        params.extend(fields);
                    }
                }
                _ => {
                    if let Some(p) = param(pt, generic.as_ref(), errors) {
                        params.push(p);
                    }
                }
            },
        }
    }
    let outputs = match &sig.output {
        syn::ReturnType::Default => Vec::new(),
        syn::ReturnType::Type(_, ty) => match &**ty {
            syn::Type::Tuple(t) => t
                .elems
                .iter()
                .filter_map(|e| ty_ref(e, generic.as_ref(), errors).map(|r| (r, e.span())))
                .collect(),
            other => ty_ref(other, generic.as_ref(), errors)
                .map(|r| vec![(r, other.span())])
                .unwrap_or_default(),
        },
    };
    let docs = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect();
    for a in &f.attrs {
        if !a.path().is_ident("doc") {
            errors.push(
                a.span(),
                "attributes other than doc comments are not supported on a kernel",
            );
        }
    }
    Some(Signature {
        name: sig.ident.clone(),
        vis: f.vis.clone(),
        generic,
        params,
        tuples: tuple_params,
        outputs,
        docs,
        complete: errors.len() == before,
    })
}

/// A tuple parameter `a: (T, i64)`: one by-value parameter per field,
/// `__silt_a_0: T`, `__silt_a_1: i64` (a name no user parameter can take).
fn tuple_param(
    pt: &syn::PatType,
    t: &syn::TypeTuple,
    generic: Option<&syn::Ident>,
    errors: &mut Errors,
) -> Option<(syn::Ident, Vec<Param>)> {
    let name = match &*pt.pat {
        syn::Pat::Ident(pi)
            if pi.by_ref.is_none() && pi.subpat.is_none() && pi.mutability.is_none() =>
        {
            pi.ident.clone()
        }
        other => {
            errors.push(
                other.span(),
                "a tuple parameter is a plain name: `a: (T, i64)`, read as `a.0`, `a.1`",
            );
            return None;
        }
    };
    if let Some(a) = pt.attrs.first() {
        errors.push(a.span(), "a tuple parameter takes no attribute");
    }
    let mut fields = Vec::new();
    for (i, elem) in t.elems.iter().enumerate() {
        let ty = ty_ref(elem, generic, errors)?;
        fields.push(Param {
            name: syn::Ident::new(
                &format!("__silt_{}_{i}", super::ident_name(&name)),
                name.span(),
            ),
            mutable: false,
            kind: ParamKind::Input,
            ty,
            ty_span: elem.span(),
        });
    }
    Some((name, fields))
}

fn param(pt: &syn::PatType, generic: Option<&syn::Ident>, errors: &mut Errors) -> Option<Param> {
    let (name, mutable) = match &*pt.pat {
        syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            (pi.ident.clone(), pi.mutability.is_some())
        }
        other => {
            errors.push(other.span(), "a kernel parameter must be a plain name");
            return None;
        }
    };
    let mut scalar = false;
    let mut index = false;
    for a in &pt.attrs {
        if a.path().is_ident("scalar") && matches!(a.meta, syn::Meta::Path(_)) {
            scalar = true;
        } else if a.path().is_ident("index") && matches!(a.meta, syn::Meta::Path(_)) {
            index = true;
        } else {
            errors.push(
                a.meta.path().span(),
                "unsupported parameter attribute; expected `#[scalar]` or `#[index]`",
            );
        }
    }
    if index {
        if scalar {
            errors.push(
                pt.span(),
                "a parameter is `#[scalar]` or `#[index]`, not both",
            );
            return None;
        }
        let is_u64 = matches!(ungroup(&pt.ty), syn::Type::Path(p) if p.path.is_ident("u64"));
        if !is_u64 {
            errors.push(
                pt.ty.span(),
                "an `#[index]` parameter has type `u64`: `#[index] i: u64`",
            );
            return None;
        }
        return Some(Param {
            name,
            mutable,
            kind: ParamKind::Index,
            ty: TyRef::Elem(DType::U64),
            ty_span: pt.ty.span(),
        });
    }
    let (kind, ty) = match &*pt.ty {
        syn::Type::Reference(r) => {
            if r.mutability.is_none() {
                errors.push(
                    r.span(),
                    "references other than `&mut T` are not supported: take `T` for an input tensor",
                );
                return None;
            }
            if let Some(l) = &r.lifetime {
                errors.push(l.span(), "lifetimes are not supported in kernel parameters");
            }
            if scalar {
                errors.push(
                    r.span(),
                    "a `#[scalar]` parameter is passed by value: drop the `&mut`",
                );
                return None;
            }
            if matches!(&*r.elem, syn::Type::Reference(_)) {
                errors.push(
                    r.span(),
                    "an in/out parameter is `&mut T` (one element, read and written in place)",
                );
                return None;
            }
            if mutable {
                errors.push(pt.pat.span(), "`mut` is not needed on a `&mut` parameter");
            }
            (ParamKind::InOut, ty_ref(&r.elem, generic, errors)?)
        }
        other => {
            if let Some((write, args)) = view_type(other) {
                let what = if write { "ViewMut" } else { "View" };
                if scalar {
                    errors.push(pt.span(), format!("a `{what}` is not a `#[scalar]`"));
                    return None;
                }
                if mutable {
                    errors.push(
                        pt.pat.span(),
                        "`mut` is not needed on a view: a `ViewMut` is written through, a `View` only read",
                    );
                }
                let (ty, rank) = view_args(what, args, other, generic, errors)?;
                let kind = if write {
                    ParamKind::ViewMut(rank)
                } else {
                    ParamKind::View(rank)
                };
                (kind, ty)
            } else {
                let kind = if scalar {
                    ParamKind::Scalar
                } else {
                    ParamKind::Input
                };
                (kind, ty_ref(other, generic, errors)?)
            }
        }
    };
    Some(Param {
        name,
        mutable,
        kind,
        ty,
        ty_span: pt.ty.span(),
    })
}

/// `View<..>` or `ViewMut<..>` (the last segment of a path type): whether it
/// is written, and its generic arguments.
fn view_type(t: &syn::Type) -> Option<(bool, &syn::PathArguments)> {
    let syn::Type::Path(p) = ungroup(t) else {
        return None;
    };
    let last = p.path.segments.last()?;
    match last.ident.to_string().as_str() {
        "View" => Some((false, &last.arguments)),
        "ViewMut" => Some((true, &last.arguments)),
        _ => None,
    }
}

/// `<T, N>` of a view: its element type and its dimension count (an integer
/// literal from 1 to `MAX_DIMS`).
fn view_args(
    what: &str,
    args: &syn::PathArguments,
    t: &syn::Type,
    generic: Option<&syn::Ident>,
    errors: &mut Errors,
) -> Option<(TyRef, usize)> {
    let expected = format!(
        "a view is `{what}<T, N>`: its element type and its number of dimensions (1 to {})",
        silt_abi::MAX_DIMS
    );
    let syn::PathArguments::AngleBracketed(a) = args else {
        errors.push(t.span(), expected);
        return None;
    };
    let items: Vec<&syn::GenericArgument> = a.args.iter().collect();
    let [syn::GenericArgument::Type(elem), n] = items.as_slice() else {
        errors.push(a.span(), expected);
        return None;
    };
    let ty = ty_ref(elem, generic, errors)?;
    let lit = match n {
        syn::GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        })) => Some(i),
        syn::GenericArgument::Type(syn::Type::Verbatim(_)) => None,
        _ => None,
    };
    let rank = lit
        .and_then(|i| i.base10_parse::<usize>().ok())
        .filter(|n| (1..=silt_abi::MAX_DIMS).contains(n));
    match rank {
        Some(r) => Some((ty, r)),
        None => {
            errors.push(n.span(), expected);
            None
        }
    }
}

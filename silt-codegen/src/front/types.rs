//! Element types as written: `T`, `f32`, ... in signatures, `let`s and casts.

use syn::spanned::Spanned;

use super::syntax::TyRef;
use crate::errors::Errors;
use silt_abi::DType;

/// Every type name `types` accepts, for messages.
pub fn supported_types() -> String {
    DType::ALL
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads an element type or the generic parameter from a type.
pub fn ty_ref(ty: &syn::Type, generic: Option<&syn::Ident>, errors: &mut Errors) -> Option<TyRef> {
    let ty = ungroup(ty);
    if let syn::Type::Path(p) = ty {
        if p.qself.is_none() {
            if let Some(id) = p.path.get_ident() {
                if generic.is_some_and(|g| id == g) {
                    return Some(TyRef::Generic);
                }
                if let Some(t) = DType::from_name(&id.to_string()) {
                    return Some(TyRef::Elem(t));
                }
            }
        }
    }
    let hint = match generic {
        Some(g) => format!("`{g}` or an element type"),
        None => "an element type".to_string(),
    };
    errors.push(
        ty.span(),
        format!(
            "unsupported type in a kernel; expected {hint} ({})",
            supported_types()
        ),
    );
    None
}

/// The type inside invisible groups (from `macro_rules!` `$t:ty`) and parentheses.
pub fn ungroup(mut ty: &syn::Type) -> &syn::Type {
    loop {
        match ty {
            syn::Type::Group(g) => ty = &g.elem,
            syn::Type::Paren(p) => ty = &p.elem,
            other => return other,
        }
    }
}

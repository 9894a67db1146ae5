//! The expansion of `#[helper]`: the definition's macro, its dependencies'
//! re-exports, and a module that makes it reachable by path.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::def::{helper_def, Embedded, HelperTokens};
use crate::check;
use crate::errors::Errors;
use crate::front::{helper_calls, ident_name};

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
            kernel: None,
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
    helper_calls(&def.body, &mut calls);
    if errors.is_empty() && calls.is_empty() {
        let types: Vec<Option<crate::ty::Ty>> = if def.types.is_empty() {
            vec![None]
        } else {
            def.types.iter().copied().map(Some).collect()
        };
        for t in types {
            check::check_fn_only(&def.sig, &def.body, t, &mut errors);
        }
    }
    let err = errors.combine().map(|e| e.to_compile_error());
    let name = &def.sig.name;
    let vis = &def.sig.vis;
    let docs = &def.sig.docs;
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
    let items = token_items(name, &def.sig.vis, &attr, &item, &calls, None);
    quote! {
        #err
        #(#docs)*
        #[doc = #doc]
        #[allow(non_snake_case)]
        #vis mod #name {
            #items
        }
    }
}

/// The items that make a function's definition reachable from kernels, to go
/// in the module named after it: its macro (as `__silt_helper_tokens`), which
/// hands `types [attr] item [item]` to a callback. A helper's module also
/// re-exports the helpers its body `calls` (`__silt_dep_N`), named from where
/// it is written; a kernel's definition is marked `kernel [..]` and carries
/// its helpers' definitions instead (`kernel`).
pub fn token_items(
    name: &syn::Ident,
    vis: &syn::Visibility,
    attr: &TokenStream,
    item: &TokenStream,
    calls: &[(String, syn::Path)],
    kernel: Option<&Embedded>,
) -> TokenStream {
    // seen where the function is: a private one's re-exports may only be as
    // visible as the private helpers they name
    let dep_vis = match vis {
        syn::Visibility::Inherited => quote!(pub(super)),
        _ => quote!(pub(crate)),
    };
    let deps = calls
        .iter()
        .enumerate()
        .filter(|_| kernel.is_none())
        .map(|(j, (_, p))| {
            let alias = format_ident!("__silt_dep_{}", j);
            let path = from_parent(p);
            quote! {
                #[doc(hidden)]
                #[allow(unused_imports)]
                #dep_vis use #path as #alias;
            }
        });
    let mac = format_ident!("__silt_helper_{}", ident_name(name));
    let marker = kernel.map(|found| {
        let entries = found.iter().map(|(at, h)| quote!([#(#at),*] { #h }));
        quote!(kernel [#(#entries)*])
    });
    // a `pub` one is also exported for other crates, at the crate's root
    let export = matches!(vis, syn::Visibility::Public(_)).then(|| {
        let exported = format_ident!("__silt_export_{}", ident_name(name));
        quote! {
            #[doc(hidden)]
            #[macro_export]
            macro_rules! #exported {
                ([$($cb:tt)*] { $($state:tt)* }) => {
                    $($cb)*! { { $($state)* } { types [#attr] item [#item] #marker } }
                };
            }
        }
    });
    quote! {
        #export
        #[doc(hidden)]
        #[allow(unused_macros)]
        macro_rules! #mac {
            ([$($cb:tt)*] { $($state:tt)* }) => {
                $($cb)*! { { $($state)* } { types [#attr] item [#item] #marker } }
            };
        }
        #[doc(hidden)]
        #[allow(unused_imports)]
        pub(crate) use #mac as __silt_helper_tokens;
        #(#deps)*
    }
}

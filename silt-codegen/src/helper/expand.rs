//! The expansion of `#[helper]`: the definition's macro, its dependencies'
//! re-exports, and a module that makes it reachable by path.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::def::{helper_def, Embedded, HelperTokens};
use crate::check;
use crate::errors::Errors;
use crate::front::{helper_calls, ident_name};

/// `p`, written in a module, as seen from `levels` modules below it.
fn from_below(p: &syn::Path, levels: usize) -> TokenStream {
    let first = p
        .segments
        .first()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    let up = std::iter::repeat_n(quote!(super::), levels);
    if p.leading_colon.is_some() || first == "crate" {
        quote!(#p)
    } else if first == "self" {
        let rest = p.segments.iter().skip(1);
        quote!(#(#up)* #(#rest)::*)
    } else {
        quote!(#(#up)* #p)
    }
}

/// The expansion of `#[helper(attr)] item`: the definition's macro, and a module
/// of the same name that makes it reachable by path; and whether a chain must
/// export it (a `pub` helper that calls helpers: `Carries::Deps`).
pub fn expand_helper(attr: TokenStream, item: TokenStream) -> (TokenStream, bool) {
    let mut errors = Errors::default();
    let def = helper_def(
        &syn::Path::from(format_ident!("self")),
        &HelperTokens {
            types: attr.clone(),
            item: item.clone(),
            kernel: false,
            embedded: None,
        },
        &mut errors,
    );
    let Some(def) = def else {
        let err = errors
            .combine()
            .map(|e| e.to_compile_error())
            .unwrap_or_default();
        return (err, false);
    };
    // check the body now if it stands alone (helpers it calls are checked with
    // the kernels that use them)
    let mut calls = Vec::new();
    helper_calls(&def.body, &mut calls);
    if errors.is_empty() && calls.is_empty() {
        let types: Vec<Option<silt_abi::DType>> = if def.types.is_empty() {
            vec![None]
        } else {
            def.types.iter().copied().map(Some).collect()
        };
        for t in types {
            check::check_helper(&def.sig, &def.body, t, &mut errors);
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
    // a `pub` helper that calls helpers is exported with their definitions,
    // which a chain collects (another crate cannot name the private ones)
    let exported_by_chain = matches!(vis, syn::Visibility::Public(_)) && !calls.is_empty();
    let carries = if exported_by_chain {
        Carries::Deps
    } else {
        Carries::Nothing
    };
    let items = token_items(name, &def.sig.vis, &attr, &item, &calls, carries);
    let out = quote! {
        #err
        #(#docs)*
        #[doc = #doc]
        #[allow(non_snake_case)]
        #vis mod #name {
            #items
        }
    };
    (out, exported_by_chain)
}

/// What the macros of a function's module hand over beside its definition.
pub enum Carries<'a> {
    /// Nothing: a helper, whose dependencies are named through its module.
    Nothing,
    /// The definitions of the helpers a `pub` helper calls, in its export
    /// only, which a chain writes (`export_item`).
    Deps,
    /// A `#[kernel]`, with the definitions of the helpers it uses.
    Kernel(&'a Embedded),
}

/// `kernel [..]` or `uses [..]`: what a definition's macro appends.
fn marker(kernel: bool, found: &Embedded) -> TokenStream {
    let entries = found.iter().map(|(at, h)| quote!([#(#at),*] { #h }));
    if kernel {
        quote!(kernel [#(#entries)*])
    } else {
        quote!(uses [#(#entries)*])
    }
}

/// The macro, exported at the crate's root as `__silt_export_NAME`, that
/// hands another crate the definition of a `pub` function, with `marker`
/// after it.
fn export_macro(
    name: &syn::Ident,
    attr: &TokenStream,
    item: &TokenStream,
    marker: Option<&TokenStream>,
) -> TokenStream {
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
}

/// The export of a `pub` helper with the definitions of the helpers it uses
/// (`found`, each with its chain of calls): what its export chain writes last.
pub fn export_item(
    name: &syn::Ident,
    attr: &TokenStream,
    item: &TokenStream,
    found: &Embedded,
) -> TokenStream {
    export_macro(name, attr, item, Some(&marker(false, found)))
}

/// The items that make a function's definition reachable from kernels, to go
/// in the module named after it: its macro (as `__silt_helper_tokens`), which
/// hands `types [attr] item [item]` to a callback, and for a `pub` function
/// its export at the crate's root (unless a chain writes it: `Carries::Deps`).
/// A helper's module also holds, per helper its body `calls`, a module
/// `__silt_dep_N` that re-exports that helper's items (named from where the
/// helper is written; a glob, so that a `pub` helper may use a private one);
/// a kernel's definition is marked `kernel [..]` and carries its helpers'
/// definitions instead.
pub fn token_items(
    name: &syn::Ident,
    vis: &syn::Visibility,
    attr: &TokenStream,
    item: &TokenStream,
    calls: &[(String, syn::Path)],
    carries: Carries,
) -> TokenStream {
    let embedded = match carries {
        Carries::Kernel(found) => Some(marker(true, found)),
        _ => None,
    };
    let deps = calls
        .iter()
        .enumerate()
        .filter(|_| embedded.is_none())
        .map(|(j, (_, p))| {
            let module = format_ident!("__silt_dep_{}", j);
            let path = from_below(p, 2);
            quote! {
                #[doc(hidden)]
                pub(crate) mod #module {
                    #[allow(unused_imports)]
                    pub(crate) use #path::*;
                }
            }
        });
    let mac = format_ident!("__silt_helper_{}", ident_name(name));
    // a `pub` one is also exported for other crates, at the crate's root
    let export = (matches!(vis, syn::Visibility::Public(_)) && !matches!(carries, Carries::Deps))
        .then(|| export_macro(name, attr, item, embedded.as_ref()));
    quote! {
        #export
        #[doc(hidden)]
        #[allow(unused_macros)]
        macro_rules! #mac {
            ([$($cb:tt)*] { $($state:tt)* }) => {
                $($cb)*! { { $($state)* } { types [#attr] item [#item] #embedded } }
            };
        }
        #[doc(hidden)]
        #[allow(unused_imports)]
        pub(crate) use #mac as __silt_helper_tokens;
        #(#deps)*
    }
}

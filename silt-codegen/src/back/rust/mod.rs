//! The Rust backend: a function body as plain Rust for one element, with
//! silt's semantics, so that the host backend and the reference (`eval`)
//! agree with the device.

mod body;
mod builtin;
mod literal;
mod types;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Function, ParamKind, Stmt};
use body::Emitter;

pub use types::{helper_fn_name, ty};

/// `fn NAME(params) -> ret { body }`: the instantiation's element function.
pub fn eval_fn(k: &Function, name: &syn::Ident, krate: &TokenStream) -> TokenStream {
    let e = Emitter { k, krate };
    let params = k.params.iter().enumerate().map(|(i, p)| {
        let n = e.param(i);
        let t = ty(p.ty);
        let m = if p.mutable { quote!(mut) } else { quote!() };
        match p.kind {
            ParamKind::InOut => quote!(#n: &mut #t),
            ParamKind::View(_) => quote!(#n: &#krate::__private::GridView<'_, #t>),
            ParamKind::ViewMut(_) => quote!(#n: &#krate::__private::GridViewMut<'_, #t>),
            _ => quote!(#m #n: #t),
        }
    });
    // a grid kernel's body also takes the work-item's place in the grid
    let item = k
        .params
        .iter()
        .any(|p| p.kind.rank().is_some())
        .then(|| quote!(__item: &#krate::__private::GridItem,));
    let ret = match k.outputs.as_slice() {
        [] => quote!(),
        [one] => {
            let t = ty(*one);
            quote!(-> #t)
        }
        many => {
            let ts = many.iter().map(|t| ty(*t));
            quote!(-> (#(#ts),*))
        }
    };
    let arrays = k
        .arrays
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.private)
        .map(|(i, a)| {
            let n = e.array(crate::ir::Array::Local(i));
            let t = ty(a.ty);
            quote!(#n: &#krate::__private::GridViewMut<'_, #t>)
        });
    // each work-item's own arrays, zeroed where the body starts
    let privates = k
        .arrays
        .iter()
        .enumerate()
        .filter(|(_, a)| a.private)
        .map(|(i, a)| {
            let n = e.array(crate::ir::Array::Local(i));
            let t = ty(a.ty);
            let dims = a
                .dims
                .iter()
                .map(|&d| usize::try_from(d).unwrap_or(usize::MAX));
            let id = k.params.len() + i;
            quote!(let #n = &#krate::__private::GridViewMut::<#t>::local(&[#(#dims),*], #id);)
        });
    let body = e.block(&k.body);
    let body = if k.arrays.iter().any(|a| a.private) {
        quote!({ #(#privates)* #body })
    } else {
        body
    };
    // a body that meets its work-group at barriers is run as a future, each
    // barrier a point where it yields to the other work-items
    let mut barriers = false;
    crate::ir::walk_stmts(&k.body, &mut |s| barriers |= matches!(s, Stmt::Barrier(_)));
    let asyncness = if barriers { quote!(async) } else { quote!() };
    quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut, unused_variables, unused_assignments, unused_parens, unreachable_code,
                clippy::all, clippy::pedantic, non_snake_case)]
        pub #asyncness fn #name(#item #(#params,)* #(#arrays),*) #ret #body
    }
}

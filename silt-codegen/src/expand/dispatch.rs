//! `dispatch`: the same over untyped tensors and dynamic scalars, choosing the
//! instantiation from the runtime dtype (`select!`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::back::rust;
use crate::front::ident_name;
use crate::front::syntax::{Param, ParamKind, Signature, TyRef};
use silt_abi::DType;

/// The `dispatch` function; `types` are the instantiation types' names.
pub(super) fn dispatch_fn(sig: &Signature, types: &[String], s: &TokenStream) -> TokenStream {
    dispatch_around(sig, types, &[], &[], false, s)
}

/// [`dispatch_fn`] with `extra` arguments after the signature's, passed on to
/// `launch` as they are: (parameter, argument) tokens, as `axes: Axes`.
pub(super) fn dispatch_with(
    sig: &Signature,
    types: &[String],
    extra: &[(TokenStream, TokenStream)],
    s: &TokenStream,
) -> TokenStream {
    dispatch_around(sig, types, &[], extra, false, s)
}

/// [`dispatch_fn`] with `lead` arguments before the signature's and `extra`
/// ones after, passed on to `launch` as they are (a grid kernel's `Grid`
/// leads); with `unsafe_launch`, `launch` and so `dispatch` are `unsafe`.
pub(super) fn dispatch_around(
    sig: &Signature,
    types: &[String],
    lead: &[(TokenStream, TokenStream)],
    extra: &[(TokenStream, TokenStream)],
    unsafe_launch: bool,
    s: &TokenStream,
) -> TokenStream {
    let name_str = ident_name(&sig.name);
    let generic = sig.generic.is_some();
    let params = lead.iter().map(|(p, _)| p.clone()).chain(
        sig.params
            .iter()
            .filter(|p| p.kind != ParamKind::Index)
            .map(|p| {
                let n = &p.name;
                match p.kind {
                    ParamKind::Input | ParamKind::View(_) => quote!(#n: &#s::Tensor),
                    ParamKind::InOut | ParamKind::ViewMut(_) => quote!(#n: &mut #s::Tensor),
                    _ => quote!(#n: impl ::core::convert::Into<#s::Scalar>),
                }
            })
            .chain(extra.iter().map(|(p, _)| p.clone())),
    );
    // where the dtype of T comes from: T tensors, else T scalars, else an argument
    let t_tensors: Vec<&syn::Ident> = sig
        .params
        .iter()
        .filter(|p| p.ty == TyRef::Generic && p.kind != ParamKind::Scalar)
        .map(|p| &p.name)
        .collect();
    let t_scalars: Vec<&syn::Ident> = sig
        .params
        .iter()
        .filter(|p| p.ty == TyRef::Generic && p.kind == ParamKind::Scalar)
        .map(|p| &p.name)
        .collect();
    let explicit_dtype = generic && t_tensors.is_empty() && t_scalars.is_empty();
    let scalars_in = sig
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Scalar)
        .map(|p| {
            let n = &p.name;
            quote!(let #n: #s::Scalar = #n.into();)
        });
    let ty_of = |p: &Param| match p.ty {
        TyRef::Generic => quote!(__T),
        TyRef::Elem(t) => rust::ty(t),
    };
    let typed = sig.params.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__t_{}", n);
        let t = ty_of(p);
        match p.kind {
            ParamKind::Input | ParamKind::View(_) => quote!(let #v = #n.typed::<#t>()?;),
            ParamKind::InOut | ParamKind::ViewMut(_) => quote!(let mut #v = #n.typed::<#t>()?;),
            ParamKind::Scalar => quote!(let #v = #n.to::<#t>()?;),
            ParamKind::Index => quote!(),
        }
    });
    let lead_args = lead.iter().map(|(_, a)| a);
    let extra_args = extra.iter().map(|(_, a)| a);
    let call_args = sig
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let v = format_ident!("__t_{}", p.name);
            match p.kind {
                ParamKind::Input | ParamKind::View(_) => quote!(&#v),
                ParamKind::InOut | ParamKind::ViewMut(_) => quote!(&mut #v),
                _ => quote!(#v),
            }
        });
    let turbofish = if generic { quote!(::<__T>) } else { quote!() };
    let wrap = match sig.outputs.len() {
        0 => quote!(),
        1 => quote!(.map(#s::Tensor::from)),
        n => {
            let idx = (0..n).map(syn::Index::from);
            quote!(.map(|__o| (#(#s::Tensor::from(__o.#idx)),*)))
        }
    };
    let ret = match sig.outputs.len() {
        0 => quote!(()),
        1 => quote!(#s::Tensor),
        n => {
            let ts = (0..n).map(|_| quote!(#s::Tensor));
            quote!((#(#ts),*))
        }
    };
    let call =
        quote!(self::launch #turbofish (#(#lead_args,)* #(#call_args,)* #(#extra_args),*) #wrap);
    let (call, safety) = if unsafe_launch {
        // SAFETY: the caller of `dispatch` promises what `launch` needs
        (quote!(unsafe { #call }), quote!(unsafe))
    } else {
        (call, quote!())
    };
    let body = quote! {{
        #(#typed)*
        #call
    }};
    let dtype_param = if explicit_dtype {
        quote!(dtype: #s::DType,)
    } else {
        quote!()
    };
    let doc = format!(
        "Runs `{name_str}` on untyped tensors, choosing the instantiation from their dtype.\n\n{}\
         # Errors\n`Error::UnsupportedDType` for a dtype outside [`TYPES`], \
         `Error::DTypeMismatch` when tensor arguments disagree, a scalar that does not \
         convert, and everything [`launch`] reports.",
        if unsafe_launch {
            "# Safety\nAs [`launch`]'s: every index the kernel takes is in range.\n\n"
        } else {
            ""
        }
    );
    if !generic {
        return quote! {
            #[doc = #doc]
            #[allow(clippy::too_many_arguments, unused_unsafe)]
            pub #safety fn dispatch(#(#params),*) -> #s::Result<#ret> {
                #(#scalars_in)*
                #body
            }
        };
    }
    let (dtype_expr, type_idents) = selection(&t_tensors, &t_scalars, types, s);
    quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments, unused_unsafe)]
        pub #safety fn dispatch(#dtype_param #(#params),*) -> #s::Result<#ret> {
            #(#scalars_in)*
            let __dtype: #s::DType = #dtype_expr;
            #s::select!(#name_str, __dtype, __T => #body, [#(#type_idents),*])
        }
    }
}

/// `dispatch_into`: [`dispatch_fn`]'s untyped `launch_into`, each output an
/// untyped tensor whose dtype is checked against the result's type; `None`
/// for a kernel that returns nothing.
pub(super) fn dispatch_into_fn(
    sig: &Signature,
    types: &[String],
    outs: &[syn::Ident],
    s: &TokenStream,
) -> Option<TokenStream> {
    if sig.outputs.is_empty() {
        return None;
    }
    let name_str = ident_name(&sig.name);
    let generic = sig.generic.is_some();
    let kept: Vec<&Param> = sig
        .params
        .iter()
        .filter(|p| {
            matches!(
                p.kind,
                ParamKind::Input | ParamKind::InOut | ParamKind::Scalar
            )
        })
        .collect();
    let params = kept.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::Input => quote!(#n: &#s::Tensor),
            ParamKind::InOut => quote!(#n: &mut #s::Tensor),
            _ => quote!(#n: impl ::core::convert::Into<#s::Scalar>),
        }
    });
    let t_tensors: Vec<&syn::Ident> = sig
        .params
        .iter()
        .filter(|p| p.ty == TyRef::Generic && p.kind != ParamKind::Scalar)
        .map(|p| &p.name)
        .collect();
    let t_scalars: Vec<&syn::Ident> = sig
        .params
        .iter()
        .filter(|p| p.ty == TyRef::Generic && p.kind == ParamKind::Scalar)
        .map(|p| &p.name)
        .collect();
    let explicit_dtype = generic && t_tensors.is_empty() && t_scalars.is_empty();
    let scalars_in = kept
        .iter()
        .filter(|p| p.kind == ParamKind::Scalar)
        .map(|p| {
            let n = &p.name;
            quote!(let #n: #s::Scalar = #n.into();)
        });
    let ty_of = |t: TyRef| match t {
        TyRef::Generic => quote!(__T),
        TyRef::Elem(t) => rust::ty(t),
    };
    let typed = kept.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__t_{}", n);
        let t = ty_of(p.ty);
        match p.kind {
            ParamKind::Input => quote!(let #v = #n.typed::<#t>()?;),
            ParamKind::InOut => quote!(let mut #v = #n.typed::<#t>()?;),
            _ => quote!(let #v = #n.to::<#t>()?;),
        }
    });
    let out_vs: Vec<syn::Ident> = outs.iter().map(|o| format_ident!("__t_{}", o)).collect();
    let typed_outs = outs
        .iter()
        .zip(&out_vs)
        .zip(&sig.outputs)
        .map(|((o, v), (r, _))| {
            let t = ty_of(*r);
            quote!(let mut #v = #o.typed::<#t>()?;)
        });
    let call_args = kept.iter().map(|p| {
        let v = format_ident!("__t_{}", p.name);
        match p.kind {
            ParamKind::Input => quote!(&#v),
            ParamKind::InOut => quote!(&mut #v),
            _ => quote!(#v),
        }
    });
    let turbofish = if generic { quote!(::<__T>) } else { quote!() };
    let body = quote! {{
        #(#typed)*
        #(#typed_outs)*
        self::launch_into #turbofish (#(#call_args,)* #(&mut #out_vs),*)
    }};
    let dtype_param = if explicit_dtype {
        quote!(dtype: #s::DType,)
    } else {
        quote!()
    };
    let doc =
        "[`launch_into`] on untyped tensors, choosing the instantiation from their dtype, as \
         [`dispatch`] does; each output must have its result's dtype (the arguments' for \
         `T`). The outputs are written through views sharing their storage.\n\n# Errors\n\
         `Error::UnsupportedDType` for a dtype outside [`TYPES`], `Error::DTypeMismatch` \
         when tensors disagree or an output has another dtype than its result, a scalar \
         that does not convert, and everything [`launch_into`] reports.";
    if !generic {
        return Some(quote! {
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            pub fn dispatch_into(#(#params,)* #(#outs: &mut #s::Tensor),*) -> #s::Result<()> {
                #(#scalars_in)*
                #body
            }
        });
    }
    let (dtype_expr, type_idents) = selection(&t_tensors, &t_scalars, types, s);
    Some(quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        pub fn dispatch_into(#dtype_param #(#params,)* #(#outs: &mut #s::Tensor),*) -> #s::Result<()> {
            #(#scalars_in)*
            let __dtype: #s::DType = #dtype_expr;
            #s::select!(#name_str, __dtype, __T => #body, [#(#type_idents),*])
        }
    })
}

/// What a generic `dispatch` or `dispatch_into` selects its instantiation by:
/// the dtype expression (the tensors' common dtype, else the first generic
/// scalar's, else the explicit `dtype` parameter) and the Rust types of
/// `types`, in order.
fn selection(
    t_tensors: &[&syn::Ident],
    t_scalars: &[&syn::Ident],
    types: &[String],
    s: &TokenStream,
) -> (TokenStream, Vec<TokenStream>) {
    let dtype_expr = if !t_tensors.is_empty() {
        quote!(#s::__private::common_dtype(&[#(#t_tensors.dtype()),*])?)
    } else if let Some(first) = t_scalars.first() {
        quote!(#first.dtype())
    } else {
        quote!(dtype)
    };
    let type_idents = types
        .iter()
        .map(|t| DType::from_name(t).map_or_else(|| t.parse().unwrap_or_default(), rust::ty))
        .collect();
    (dtype_expr, type_idents)
}

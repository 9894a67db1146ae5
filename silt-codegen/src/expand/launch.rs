//! `launch`: typed tensors in, validation by the runtime's plan, then the
//! runtime's `map_on_device`, which runs the device's program, or says the
//! tensors are on the host and the host path written here runs (the generated
//! code names no device backend).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::host::host_path;
use super::sig::elem;
use crate::front::syntax::{ParamKind, Signature};

/// The `launch` function of the kernel `name_str`.
pub(super) fn launch_fn(sig: &Signature, name_str: &str, s: &TokenStream) -> TokenStream {
    let generic = sig.generic.is_some();
    // ---- launch ----
    let launch_params = sig
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let n = &p.name;
            let t = elem(p.ty);
            match p.kind {
                ParamKind::Input => quote!(#n: &#s::TensorT<#t>),
                ParamKind::InOut => quote!(#n: &mut #s::TensorT<#t>),
                _ => quote!(#n: #t),
            }
        });
    let args = sig
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let n = &p.name;
            match p.kind {
                ParamKind::Input => quote!(#s::__private::Arg::In(#n.as_tensor())),
                ParamKind::InOut => quote!(#s::__private::Arg::InOut(#n.as_tensor())),
                _ => quote!(#s::__private::Arg::Scalar(#s::Element::into_scalar(#n))),
            }
        });
    let out_tys: Vec<TokenStream> = sig.outputs.iter().map(|(r, _)| elem(*r)).collect();
    let launch_ret = match out_tys.as_slice() {
        [] => quote!(()),
        [one] => quote!(#s::TensorT<#one>),
        many => quote!((#(#s::TensorT<#many>),*)),
    };
    let info_expr = if generic {
        quote!(<T as Instance>::__info())
    } else {
        quote!(&__INFO_KERNEL)
    };
    let eval_call = if generic {
        quote!(<T as Instance>::__eval)
    } else {
        quote!(__eval_kernel)
    };
    // host path: inputs read in place where possible, fresh outputs and `&mut`
    // arguments written in place where possible (else through a copy written
    // back); chunks run on rayon
    let (host, host_ret) = host_path(sig, &eval_call, None, s);
    let out_dtypes = out_tys.iter().map(|t| quote!(<#t as #s::Element>::DTYPE));
    let cl_ret = match out_tys.len() {
        0 => quote!(()),
        1 => {
            let t = &out_tys[0];
            quote!(#s::__private::next_output::<#t>(&mut __outs)?)
        }
        _ => {
            let each = out_tys
                .iter()
                .map(|t| quote!(#s::__private::next_output::<#t>(&mut __outs)?));
            quote!((#(#each),*))
        }
    };
    let generics = if generic {
        quote!(<T: Instance>)
    } else {
        quote!()
    };
    let launch_doc = format!(
        "Runs `{name_str}` over every element of its tensor arguments, on their device \
         (OpenCL or the host).\n\n# Errors\nTensors on different devices or of different \
         shapes, an output that aliases an input, an `f64` instantiation on a device without \
         `cl_khr_fp64`, an OpenCL build or launch failure, or an allocation failure."
    );
    let launch = quote! {
        #[doc = #launch_doc]
        #[allow(clippy::too_many_arguments, clippy::needless_question_mark, unused_mut)]
        pub fn launch #generics (#(#launch_params),*) -> #s::Result<#launch_ret> {
            let __info = #info_expr;
            let __args = [#(#args),*];
            let __plan = #s::__private::prepare(__info, &__args)?;
            if let ::core::option::Option::Some(mut __outs) =
                #s::__private::map_on_device(__info, &__plan, &__args, &[#(#out_dtypes),*])?
            {
                return ::core::result::Result::Ok(#cl_ret);
            }
            #host
            #host_ret
        }
    };
    launch
}

/// The names of `launch_into`'s output parameters: `out` for one output,
/// `out0`, `out1`, ... for several, with `_` appended while one is a
/// parameter's name.
pub(super) fn output_names(sig: &Signature) -> Vec<syn::Ident> {
    let n = sig.outputs.len();
    (0..n)
        .map(|i| {
            let mut name = if n == 1 {
                "out".to_string()
            } else {
                format!("out{i}")
            };
            while sig.params.iter().any(|p| p.name == name.as_str()) {
                name.push('_');
            }
            format_ident!("{}", name)
        })
        .collect()
}

/// The `launch_into` function of a kernel: `launch` writing its
/// results into given tensors; `None` for a kernel that returns nothing.
pub(super) fn launch_into_fn(sig: &Signature, s: &TokenStream) -> Option<TokenStream> {
    if sig.outputs.is_empty() {
        return None;
    }
    let generic = sig.generic.is_some();
    let params: Vec<&crate::front::syntax::Param> = sig
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .collect();
    let launch_params = params.iter().map(|p| {
        let n = &p.name;
        let t = elem(p.ty);
        match p.kind {
            ParamKind::Input => quote!(#n: &#s::TensorT<#t>),
            ParamKind::InOut => quote!(#n: &mut #s::TensorT<#t>),
            _ => quote!(#n: #t),
        }
    });
    let args = params.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::Input => quote!(#s::__private::Arg::In(#n.as_tensor())),
            ParamKind::InOut => quote!(#s::__private::Arg::InOut(#n.as_tensor())),
            _ => quote!(#s::__private::Arg::Scalar(#s::Element::into_scalar(#n))),
        }
    });
    let n_args = params.len();
    let outs = output_names(sig);
    let out_tys: Vec<TokenStream> = sig.outputs.iter().map(|(r, _)| elem(*r)).collect();
    let info_expr = if generic {
        quote!(<T as Instance>::__info())
    } else {
        quote!(&__INFO_KERNEL)
    };
    let eval_call = if generic {
        quote!(<T as Instance>::__eval)
    } else {
        quote!(__eval_kernel)
    };
    let (host, host_ret) = host_path(sig, &eval_call, Some(&outs), s);
    let generics = if generic {
        quote!(<T: Instance>)
    } else {
        quote!()
    };
    let what = if outs.len() == 1 {
        format!("its result into `{}`", outs[0])
    } else {
        format!(
            "its {} results into the given tensors, in order",
            outs.len()
        )
    };
    let doc = format!(
        "[`launch`] writing {what} (as NumPy's and PyTorch's `out=`): no tensor is made, \
         so a launch repeated on the same tensors allocates nothing.\n\n\
         An output must be on the arguments' device and have their broadcast shape (it \
         takes part in the broadcast, as in NumPy); it may be any view that does not cover \
         an element twice. It may be an input itself, the very same view (`x = f(x)` in \
         place: each element is read before its result is written), but may not otherwise \
         overlap an argument. Results are the same bits `launch` returns. On an OpenCL \
         device an output that is not contiguous from the start of its storage is written \
         through a fresh buffer and a copy.\n\n\
         # Errors\n`Error::DeviceMismatch` for an output on another device, \
         `Error::OutputShape` for one whose shape is not the broadcast shape, \
         `Error::SelfOverlap` for one that covers an element twice, `Error::Aliasing` \
         for one that overlaps an argument without being the same view, and everything \
         [`launch`] reports."
    );
    Some(quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments, clippy::needless_question_mark, unused_mut)]
        pub fn launch_into #generics (#(#launch_params,)* #(#outs: &mut #s::TensorT<#out_tys>),*) -> #s::Result<()> {
            let __info = #info_expr;
            let __all = [#(#args,)* #(#s::__private::Arg::InOut(#outs.as_tensor())),*];
            let __plan = #s::__private::prepare(__info, &__all)?;
            if #s::__private::map_into_device(
                __info,
                &__plan,
                &__all[..#n_args],
                &[#(#outs.as_tensor()),*],
            )? {
                return ::core::result::Result::Ok(());
            }
            #host
            #host_ret
        }
    })
}

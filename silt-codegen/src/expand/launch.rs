//! `launch`: typed tensors in, validation by the runtime's plan, then the
//! runtime's `map_on_device`, which runs the device's program, or says the
//! tensors are on the host and the host path written here runs (the generated
//! code names no device backend).

use proc_macro2::TokenStream;
use quote::quote;

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
    let (host, host_ret) = host_path(sig, &eval_call, s);
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

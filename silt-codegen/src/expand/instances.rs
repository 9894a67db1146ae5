//! What each instantiation adds: its `KernelInfo` static, its `eval` function
//! and those of the helpers it calls, and its `Instance` trait impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::sig::{dtype, eval_signature, ret_type};
use crate::back::rust;
use crate::compile::Instance;
use crate::front::syntax::Signature;

/// The items of every instantiation of a kernel, reduction or scan.
pub(super) struct Items {
    /// Statics, functions and impls.
    pub(super) items: Vec<TokenStream>,
    /// The `KernelInfo` statics, in order.
    pub(super) infos: Vec<syn::Ident>,
    /// `DType::X => Some(INFO.source()),` for `source`.
    pub(super) source_arms: Vec<TokenStream>,
}

/// For a map kernel of values, `#[scalar]`s and an `#[index]` with one result
/// (what a chain fused at run time can hold): the `Body` that describes its C
/// body function, and the function that evaluates it over a block of elements
/// (the host's way to run a fused chain).
fn fusable_body(
    k: &crate::ir::Kernel,
    eval: &syn::Ident,
    suffix: &str,
    s: &TokenStream,
) -> Option<(TokenStream, TokenStream)> {
    use crate::ir::{Entry, ParamKind};
    let f = &k.func;
    if !matches!(k.entry, Entry::Map) || f.outputs.len() != 1 {
        return None;
    }
    if f.params.iter().any(|p| p.kind == ParamKind::InOut) {
        return None;
    }
    let params = f.params.iter().map(|p| {
        let d = dtype(p.ty, s);
        match p.kind {
            ParamKind::Input => quote!(#s::__private::BodyParam::Value(#d)),
            ParamKind::Scalar => quote!(#s::__private::BodyParam::Scalar(#d)),
            _ => quote!(#s::__private::BodyParam::Index),
        }
    });
    let out = dtype(f.outputs[0], s);
    let name = crate::back::opencl::body_name(f);
    let n = f.params.len();
    let vars: Vec<syn::Ident> = (0..n).map(|i| format_ident!("__a{}", i)).collect();
    let chunk_name = format_ident!("__eval_chunk_{}", suffix);
    let out_ty = rust::ty(f.outputs[0]);
    // each argument of a block: a slice of values, a scalar, or the block's
    // first index
    let unpack = f.params.iter().zip(&vars).map(|(p, v)| {
        let t = rust::ty(p.ty);
        match p.kind {
            ParamKind::Input => quote! {
                let #v: &[#t] = match #v {
                    #s::__private::ChunkArg::Values(b) => <#t as #s::Element>::from_bytes(b)?,
                    _ => return ::core::option::Option::None,
                };
                if #v.len() != __out.len() {
                    return ::core::option::Option::None;
                }
            },
            ParamKind::Scalar => quote! {
                let #v: #t = match #v {
                    #s::__private::ChunkArg::Scalar(x) => <#t as #s::Element>::from_scalar(*x)?,
                    _ => return ::core::option::Option::None,
                };
            },
            _ => quote! {
                let #v: u64 = match #v {
                    #s::__private::ChunkArg::Index(i) => *i,
                    _ => return ::core::option::Option::None,
                };
            },
        }
    });
    let per_element = f.params.iter().zip(&vars).map(|(p, v)| {
        let t = rust::ty(p.ty);
        match p.kind {
            ParamKind::Input => quote!(#v[__i]),
            ParamKind::Scalar => quote!(#v),
            _ => quote!((#v + __i as u64) as #t),
        }
    });
    let body = quote! {
        #s::__private::Body::new(#name, &[#(#params),*], #out, #chunk_name)
    };
    let func = quote! {
        #[doc(hidden)]
        #[allow(clippy::all)]
        fn #chunk_name(
            __args: &[#s::__private::ChunkArg<'_>],
            __out: &mut [u8],
        ) -> ::core::option::Option<()> {
            let [#(#vars),*] = __args else {
                return ::core::option::Option::None;
            };
            let __out: &mut [#out_ty] = <#out_ty as #s::Element>::from_bytes_mut(__out)?;
            #(#unpack)*
            // vectorized for AVX2 where the CPU has it
            #s::__private::host_simd(|| {
                for __i in 0..__out.len() {
                    __out[__i] = #eval(#(#per_element),*);
                }
            });
            ::core::option::Option::Some(())
        }
    };
    Some((body, func))
}

/// The items of every instantiation of the kernel `name_str`, whose
/// `OpenClKernel`s are `opencl`.
pub(super) fn items(
    sig: &Signature,
    instances: &[Instance],
    opencl: &[TokenStream],
    name_str: &str,
    s: &TokenStream,
) -> Items {
    let mut items = Vec::new();
    let mut info_names = Vec::new();
    let mut helper_fns: Vec<String> = Vec::new();
    let mut source_arms = Vec::new();
    for (inst, opencl) in instances.iter().zip(opencl) {
        let suffix = inst
            .ty
            .map_or_else(|| "kernel".to_string(), |t| t.name().to_string());
        let info = format_ident!("__INFO_{}", suffix.to_uppercase());
        let eval = format_ident!("__eval_{}", suffix);
        let inst_dtype = match inst.ty {
            Some(t) => {
                let d = dtype(t, s);
                quote!(::core::option::Option::Some(#d))
            }
            None => quote!(::core::option::Option::None),
        };
        info_names.push(info.clone());
        let body = fusable_body(&inst.kernel, &eval, &suffix, s);
        let with_body = body.as_ref().map(|(b, _)| quote!(.with_body(#b)));
        items.extend(body.map(|(_, f)| f));
        items.push(quote! {
            #[doc(hidden)]
            pub static #info: #s::__private::KernelInfo = #s::__private::KernelInfo::new(
                #name_str,
                #inst_dtype,
                #s::__private::Form::Map,
                #opencl,
            )
            #with_body;
        });
        items.push(rust::eval_fn(&inst.kernel.func, &eval, s));
        for h in &inst.kernel.helpers {
            let name = rust::helper_fn_name(&h.id);
            if !helper_fns.contains(&name) {
                items.push(rust::eval_fn(&h.func, &format_ident!("{}", name), s));
                helper_fns.push(name);
            }
        }
        if let Some(t) = inst.ty {
            let rt = rust::ty(t);
            let (eval_params, eval_args) = eval_signature(sig, Some(quote!(Self)));
            let ret = ret_type(sig, quote!(Self));
            let header = quote::quote_spanned!(inst.ty_span=> impl Instance for #rt);
            items.push(quote! {
                impl __sealed::Sealed for #rt {}
                #header {
                    fn __info() -> &'static #s::__private::KernelInfo {
                        &#info
                    }
                    #[inline]
                    fn __eval(#(#eval_params),*) #ret {
                        #eval(#(#eval_args),*)
                    }
                }
            });
            let d = dtype(t, s);
            source_arms.push(quote!(#d => ::core::option::Option::Some(#info.source()),));
        }
    }
    Items {
        items,
        infos: info_names,
        source_arms,
    }
}

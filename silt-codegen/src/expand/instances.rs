//! What each instantiation adds: its `KernelInfo` static, its `eval` function
//! and those of the helpers it calls, and its `Instance` trait impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::sig::{dtype, eval_signature, ret_type};
use crate::back::{opencl, rust};
use crate::compile::Instance;
use crate::front::syntax::Signature;

/// The items of every instantiation.
pub(super) struct Items {
    /// Statics, functions and impls.
    pub items: Vec<TokenStream>,
    /// The `KernelInfo` statics, in order.
    pub infos: Vec<syn::Ident>,
    /// `DType::X => Some(INFO.source()),` for `source`.
    pub source_arms: Vec<TokenStream>,
}

/// The items of every instantiation of the kernel `name_str`.
pub(super) fn items(
    sig: &Signature,
    instances: &[Instance],
    name_str: &str,
    s: &TokenStream,
) -> Items {
    let mut items = Vec::new();
    let mut info_names = Vec::new();
    let mut helper_fns: Vec<String> = Vec::new();
    let mut source_arms = Vec::new();
    for inst in instances {
        let suffix = inst
            .ty
            .map_or_else(|| "kernel".to_string(), |t| t.name().to_string());
        let info = format_ident!("__INFO_{}", suffix.to_uppercase());
        let eval = format_ident!("__eval_{}", suffix);
        let src = &inst.opencl;
        let entry = proc_macro2::Literal::c_string(
            &std::ffi::CString::new(opencl::entry_name(&inst.kernel.func)).unwrap_or_default(),
        );
        let strided_entry = proc_macro2::Literal::c_string(
            &std::ffi::CString::new(opencl::strided_entry_name(&inst.kernel.func))
                .unwrap_or_default(),
        );
        let inst_dtype = match inst.ty {
            Some(t) => {
                let d = dtype(t, s);
                quote!(::core::option::Option::Some(#d))
            }
            None => quote!(::core::option::Option::None),
        };
        let fp64 = inst.uses_f64;
        let program = format_ident!("__PROGRAM_{}", usize::from(fp64));
        info_names.push(info.clone());
        items.push(quote! {
            #[doc(hidden)]
            pub static #info: #s::__private::KernelInfo =
                #s::__private::KernelInfo::new(#name_str, #inst_dtype, #src, &#program, #entry, #strided_entry, #fp64);
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

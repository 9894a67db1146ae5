//! What each instantiation of a reduction or scan adds to its module: the
//! `KernelInfo` static, the functions as Rust with adapters that take the
//! accumulator whole, and the `Instance` impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::instances::Items;
use super::sig::{dtype, fields, map_signature, types_of};
use crate::back::rust;
use crate::compile::{CompiledReduce, FoldForm};
use crate::front::ident_name;
use crate::front::syntax::{Signature, TyRef};
use crate::ir::Entry;

/// The items of every instantiation of `c`, whose `map` is `map`, whose
/// accumulator and outputs are `acc` and `out`, and whose `OpenClKernel`s are
/// `opencl`.
pub(super) fn items(
    c: &CompiledReduce,
    opencl: &[TokenStream],
    map: &Signature,
    acc: &[TyRef],
    out: &[TyRef],
    s: &TokenStream,
) -> Items {
    let name_str = ident_name(&c.module.name);
    let n_acc = acc.len();
    let self_ty = quote!(Self);
    let mut items = Vec::new();
    let mut infos = Vec::new();
    let mut source_arms = Vec::new();
    let mut helper_fns: Vec<String> = Vec::new();
    for (inst, opencl) in c.instances.iter().zip(opencl) {
        let (Entry::Reduce(r) | Entry::Scan(r)) = &inst.kernel.entry else {
            continue;
        };
        let suffix = inst
            .ty
            .map_or_else(|| "kernel".to_string(), |t| t.name().to_string());
        let info = format_ident!("__INFO_{}", suffix.to_uppercase());
        let f = &inst.kernel.func;
        let form = match c.form {
            FoldForm::Scan => quote!(#s::__private::Form::Scan),
            FoldForm::Reduce { empty_is_error } => {
                quote!(#s::__private::Form::Reduce { empty_is_error: #empty_is_error })
            }
        };
        let inst_dtype = match inst.ty {
            Some(t) => {
                let d = dtype(t, s);
                quote!(::core::option::Option::Some(#d))
            }
            None => quote!(::core::option::Option::None),
        };
        items.push(quote! {
            #[doc(hidden)]
            pub static #info: #s::__private::KernelInfo =
                #s::__private::KernelInfo::new(#name_str, #inst_dtype, #form, #opencl);
        });
        infos.push(info.clone());
        // the functions as Rust, then adapters that take the accumulator whole
        let fns = [
            ("identity", &r.identity),
            ("map", f),
            ("combine", &r.combine),
            ("finish", &r.finish),
        ];
        for (part, func) in fns {
            items.push(rust::eval_fn(
                func,
                &format_ident!("__{}_{}", part, suffix),
                s,
            ));
        }
        // the helpers they call, each instantiation once in the module
        for h in &inst.kernel.helpers {
            let name = rust::helper_fn_name(&h.id);
            if !helper_fns.contains(&name) {
                items.push(rust::eval_fn(&h.func, &format_ident!("{}", name), s));
                helper_fns.push(name);
            }
        }
        let inst_ty = inst.ty.map_or_else(|| quote!(()), rust::ty);
        let acc_t = types_of(acc, &inst_ty);
        let out_t = types_of(out, &inst_ty);
        let (identity_f, map_f, combine_f, finish_f) = (
            format_ident!("__identity_{}", suffix),
            format_ident!("__map_{}", suffix),
            format_ident!("__combine_{}", suffix),
            format_ident!("__finish_{}", suffix),
        );
        let (combine_acc, finish_acc) = (
            format_ident!("__combine_acc_{}", suffix),
            format_ident!("__finish_acc_{}", suffix),
        );
        let (a, b) = (quote!(__a), quote!(__b));
        let (fa, fb) = (fields(&a, n_acc), fields(&b, n_acc));
        items.push(quote! {
            #[doc(hidden)]
            #[inline]
            pub fn #combine_acc(#a: #acc_t, #b: #acc_t) -> #acc_t {
                #combine_f(#(#fa,)* #(#fb),*)
            }
            #[doc(hidden)]
            #[inline]
            pub fn #finish_acc(#a: #acc_t, __count: u64) -> #out_t {
                #finish_f(#(#fa,)* __count)
            }
        });
        if let Some(t) = inst.ty {
            let rt = rust::ty(t);
            let header = quote_spanned!(inst.ty_span=> impl Instance for #rt);
            let (map_params, map_args) = map_signature(map, &self_ty);
            let acc_self = types_of(acc, &self_ty);
            let out_self = types_of(out, &self_ty);
            items.push(quote! {
                impl __sealed::Sealed for #rt {}
                #header {
                    fn __info() -> &'static #s::__private::KernelInfo {
                        &#info
                    }
                    #[inline]
                    fn __identity() -> #acc_self {
                        #identity_f()
                    }
                    #[inline]
                    fn __map(#(#map_params),*) -> #acc_self {
                        #map_f(#(#map_args),*)
                    }
                    #[inline]
                    fn __combine(__a: #acc_self, __b: #acc_self) -> #acc_self {
                        #combine_acc(__a, __b)
                    }
                    #[inline]
                    fn __finish(__a: #acc_self, __count: u64) -> #out_self {
                        #finish_acc(__a, __count)
                    }
                }
            });
            let d = dtype(t, s);
            source_arms.push(quote!(#d => ::core::option::Option::Some(#info.source()),));
        }
    }

    Items {
        items,
        infos,
        source_arms,
    }
}

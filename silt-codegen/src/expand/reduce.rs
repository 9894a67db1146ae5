//! The generated module of a reduction: its programs, per instantiation the
//! `KernelInfo` and the functions as Rust, the `Instance` trait, `launch`
//! (device passes or the host fold), `dispatch`, `eval` (one row on the host),
//! `source`, `TYPES` and `NAME`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::instances::Items;
use super::sig::{dtype, map_signature, types_of};
use super::{api, dispatch, opencl};
use crate::back::rust;
use crate::compile::CompiledReduce;
use crate::front::ident_name;
use crate::front::syntax::{ParamKind, Signature, TyRef};

fn sig_of(p: &Option<crate::front::reduce::Part>) -> Option<&Signature> {
    p.as_ref().map(|p| &p.sig)
}

/// Everything generated for one reduction.
pub fn module(c: &CompiledReduce) -> TokenStream {
    let m = &c.module;
    let (Some(map), Some(identity), Some(finish)) =
        (sig_of(&m.map), sig_of(&m.identity), sig_of(&m.finish))
    else {
        // `complete` writes `map` and `finish` or reports an error
        return quote!(::core::compile_error!("a reduction needs its functions"););
    };
    let krate = &c.krate;
    let name = &m.name;
    let name_str = ident_name(name);
    let vis = &m.vis;
    let docs = &m.docs;
    let s = quote!(__silt);
    let generic = c.instances.iter().any(|i| i.ty.is_some());
    let acc: Vec<TyRef> = identity.outputs.iter().map(|(t, _)| *t).collect();
    let out: Vec<TyRef> = finish.outputs.iter().map(|(t, _)| *t).collect();
    let type_list: Vec<String> = c
        .instances
        .iter()
        .filter_map(|i| i.ty.map(|t| t.name().to_string()))
        .collect();
    let types_text = type_list.join(", ");
    let dtypes = c
        .instances
        .iter()
        .filter_map(|i| i.ty)
        .map(|t| dtype(t, &s));
    let opencl::OpenCl { programs, kernels } = opencl::items(&c.instances, &s);

    let empty_is_error = c.empty_is_error;
    let self_ty = quote!(Self);
    let Items {
        items,
        infos,
        source_arms,
    } = super::reduce_items::items(c, &kernels, map, &acc, &out, &s);

    // ---- how launch and eval call the functions ----
    let (identity_call, map_call, combine_call, finish_call, info_expr) = if generic {
        (
            quote!(<T as Instance>::__identity),
            quote!(<T as Instance>::__map),
            quote!(<T as Instance>::__combine),
            quote!(<T as Instance>::__finish),
            quote!(<T as Instance>::__info()),
        )
    } else {
        (
            quote!(__identity_kernel),
            quote!(__map_kernel),
            quote!(__combine_acc_kernel),
            quote!(__finish_acc_kernel),
            quote!(&__INFO_KERNEL),
        )
    };
    let generics = if generic {
        quote!(<T: Instance>)
    } else {
        quote!()
    };
    let t = quote!(T);
    let elem = |r: TyRef| match r {
        TyRef::Generic => t.clone(),
        TyRef::Elem(t) => rust::ty(t),
    };
    let acc_dtypes: Vec<TokenStream> = acc
        .iter()
        .map(|r| {
            let e = elem(*r);
            quote!(<#e as #s::Element>::DTYPE)
        })
        .collect();
    let out_tys: Vec<TokenStream> = out.iter().map(|r| elem(*r)).collect();

    // ---- launch ----
    let inputs: Vec<&syn::Ident> = map
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Input)
        .map(|p| &p.name)
        .collect();
    let launch_params = map
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let n = &p.name;
            let ty = elem(p.ty);
            match p.kind {
                ParamKind::Input => quote!(#n: &#s::TensorT<#ty>),
                _ => quote!(#n: #ty),
            }
        });
    let args = map
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let n = &p.name;
            match p.kind {
                ParamKind::Input => quote!(#s::__private::Arg::In(#n.as_tensor())),
                _ => quote!(#s::__private::Arg::Scalar(#s::Element::into_scalar(#n))),
            }
        });
    let rows_reads = inputs.iter().map(|n| {
        let v = format_ident!("__v_{}", n);
        let sl = format_ident!("__s_{}", n);
        quote! {
            let #v = #s::__private::host_rows(&__plan, #n)?;
            let #sl = &*#v;
        }
    });
    let host_map_args = map.params.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::Input => {
                let sl = format_ident!("__s_{}", n);
                quote!(#sl[__i])
            }
            ParamKind::Index => quote!(__k),
            _ => quote!(#n),
        }
    });
    let host_output = if c.scan {
        quote!(host_scan_output)
    } else {
        quote!(host_output)
    };
    let (launch_ret, host_ret, cl_ret) = match out_tys.as_slice() {
        [one] => (
            quote!(#s::TensorT<#one>),
            quote!(#s::__private::#host_output::<#one>(&__plan, &__out)),
            quote!(#s::__private::next_output::<#one>(&mut __outs)),
        ),
        many => {
            let idx: Vec<syn::Index> = (0..many.len()).map(syn::Index::from).collect();
            (
                quote!((#(#s::TensorT<#many>),*)),
                quote! {
                    ::core::result::Result::Ok((#(
                        #s::__private::#host_output::<#many>(
                            &__plan,
                            &__out.iter().map(|__o| __o.#idx).collect::<::std::vec::Vec<_>>(),
                        )?
                    ),*))
                },
                quote!(::core::result::Result::Ok((#(#s::__private::next_output::<#many>(&mut __outs)?),*))),
            )
        }
    };
    let launch_doc = format!(
        "Reduces with `{name_str}` over the axes `__axes` (last argument) of its tensor arguments (broadcast \
         together), on their device, in silt's fixed order: the same bits on every \
         device.\n\n# Errors\nAn axis out of range or repeated, tensors on different \
         devices or of shapes that do not broadcast, {}an `f64` instantiation on a \
         device without `cl_khr_fp64`, an OpenCL build or launch failure, or an \
         allocation failure.",
        if empty_is_error {
            "a reduction over no elements, "
        } else {
            ""
        }
    );
    let launch = if c.scan {
        let names: Vec<&syn::Ident> = map
            .params
            .iter()
            .filter(|p| p.kind != ParamKind::Index)
            .map(|p| &p.name)
            .collect();
        let params: Vec<TokenStream> = launch_params.collect();
        let scan_doc = |which: &str| {
            format!(
                "The {which} scan of `{name_str}` along the axis `__axis` (last argument; negative counts from the \
                 end) of its tensor arguments (broadcast together), on their device, in \
                 silt's fixed order: a result of their broadcast shape.\n\n# Errors\nAn \
                 axis out of range, tensors on different devices or of shapes that do not \
                 broadcast, an `f64` instantiation on a device without `cl_khr_fp64`, an \
                 OpenCL build or launch failure, or an allocation failure."
            )
        };
        let (inclusive_doc, exclusive_doc) = (
            scan_doc("inclusive (element `i` combines elements `0..=i`)"),
            scan_doc("exclusive (element `i` combines elements `0..i`)"),
        );
        let turbofish = if generic { quote!(::<T>) } else { quote!() };
        quote! {
            #[doc = #inclusive_doc]
            #[allow(clippy::too_many_arguments)]
            pub fn launch #generics (#(#params,)* __axis: isize) -> #s::Result<#launch_ret> {
                __scan #turbofish (#(#names,)* __axis, false)
            }

            #[doc = #exclusive_doc]
            #[allow(clippy::too_many_arguments)]
            pub fn launch_exclusive #generics (#(#params,)* __axis: isize) -> #s::Result<#launch_ret> {
                __scan #turbofish (#(#names,)* __axis, true)
            }

            #[allow(clippy::too_many_arguments, clippy::needless_question_mark, unused_mut)]
            fn __scan #generics (#(#params,)* __axis: isize, __exclusive: bool) -> #s::Result<#launch_ret> {
                let __info = #info_expr;
                let __args = [#(#args),*];
                let __plan = #s::__private::prepare_scan(__info, &__args, __axis)?;
                if let ::core::option::Option::Some(mut __outs) = #s::__private::scan_on_device(
                    __info,
                    &__plan,
                    &__args,
                    &[#(<#out_tys as #s::Element>::DTYPE),*],
                    &[#(#acc_dtypes),*],
                    __exclusive,
                )? {
                    return #cl_ret;
                }
                #(#rows_reads)*
                let __out = #s::__private::host_scan(
                    &__plan,
                    #identity_call,
                    |__i: usize, __k: u64| #map_call(#(#host_map_args),*),
                    #combine_call,
                    #finish_call,
                    __exclusive,
                );
                #host_ret
            }
        }
    } else {
        quote! {
        #[doc = #launch_doc]
        #[allow(clippy::too_many_arguments, clippy::needless_question_mark, unused_mut)]
        pub fn launch #generics (#(#launch_params,)* __axes: #s::Axes) -> #s::Result<#launch_ret> {
            let __info = #info_expr;
            let __args = [#(#args),*];
            let __plan = #s::__private::prepare_reduce(__info, &__args, &__axes)?;
            if let ::core::option::Option::Some(mut __outs) = #s::__private::reduce_on_device(
                __info,
                &__plan,
                &__args,
                &[#(<#out_tys as #s::Element>::DTYPE),*],
                &[#(#acc_dtypes),*],
            )? {
                return #cl_ret;
            }
            #(#rows_reads)*
            let __out = #s::__private::host_reduce(
                &__plan,
                #identity_call,
                |__i: usize, __k: u64| #map_call(#(#host_map_args),*),
                #combine_call,
                #finish_call,
            );
            #host_ret
        }
        }
    };

    // ---- eval: one row on the host ----
    let eval_params = map
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let n = &p.name;
            let ty = elem(p.ty);
            match p.kind {
                ParamKind::Input => quote!(#n: &[#ty]),
                _ => quote!(#n: #ty),
            }
        });
    let eval_map_args = map.params.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::Input => quote!(#n[__k]),
            ParamKind::Index => quote!(__k as u64),
            _ => quote!(#n),
        }
    });
    let out_ret = types_of(&out, &t);
    let first_input = inputs.first();
    let eval_doc = format!(
        "Reduces the elements of one row with `{name_str}` on the host, in silt's \
         fixed order: what a launch computes for each output element.{}",
        if inputs.len() > 1 {
            "\n\n# Errors\n`Error::ShapeMismatch` when the slices' lengths differ."
        } else {
            ""
        }
    );
    let eval_map_args: Vec<TokenStream> = eval_map_args.collect();
    let fold = |exclusive: bool| {
        if c.scan {
            quote! {
                #s::__private::scan_row(
                    __len,
                    #identity_call,
                    |__k: usize| #map_call(#(#eval_map_args),*),
                    #combine_call,
                    #finish_call,
                    #exclusive,
                )
            }
        } else {
            quote! {
                #s::__private::fold_row(
                    __len,
                    #identity_call,
                    |__k: usize| #map_call(#(#eval_map_args),*),
                    #combine_call,
                    #finish_call,
                )
            }
        }
    };
    let out_ret = if c.scan {
        quote!(::std::vec::Vec<#out_ret>)
    } else {
        out_ret
    };
    let eval_params: Vec<TokenStream> = eval_params.collect();
    let eval_fn = |fn_name: syn::Ident, exclusive: bool, doc: &str| {
        let fold = fold(exclusive);
        if inputs.len() > 1 {
            let others = &inputs[1..];
            quote! {
                #[doc = #doc]
                #[allow(clippy::too_many_arguments)]
                pub fn #fn_name #generics (#(#eval_params),*) -> #s::Result<#out_ret> {
                    let __len = #first_input.len();
                    #(
                        if #others.len() != __len {
                            return ::core::result::Result::Err(#s::Error::ShapeMismatch {
                                op: #name_str,
                                left: ::std::vec![__len],
                                right: ::std::vec![#others.len()],
                            });
                        }
                    )*
                    ::core::result::Result::Ok(#fold)
                }
            }
        } else {
            quote! {
                #[doc = #doc]
                #[allow(clippy::too_many_arguments)]
                pub fn #fn_name #generics (#(#eval_params),*) -> #out_ret {
                    let __len = #first_input.len();
                    #fold
                }
            }
        }
    };
    let eval = if c.scan {
        let inclusive = eval_fn(
            format_ident!("eval"),
            false,
            &format!("The inclusive scan of one row with `{name_str}` on the host, in silt's fixed order: what a launch computes along the axis.{}", if inputs.len() > 1 { "\n\n# Errors\n`Error::ShapeMismatch` when the slices' lengths differ." } else { "" }),
        );
        let exclusive = eval_fn(
            format_ident!("eval_exclusive"),
            true,
            &format!("The exclusive scan of one row with `{name_str}` on the host, as [`launch_exclusive`] computes it.{}", if inputs.len() > 1 { "\n\n# Errors\n`Error::ShapeMismatch` when the slices' lengths differ." } else { "" }),
        );
        quote!(#inclusive #exclusive)
    } else {
        eval_fn(format_ident!("eval"), false, &eval_doc)
    };

    // ---- dispatch, source, the trait ----
    let mut dispatch_sig = map.clone();
    dispatch_sig.name = name.clone();
    dispatch_sig.outputs.clone_from(&finish.outputs);
    dispatch_sig.generic = generic.then(|| format_ident!("T"));
    let dispatch = dispatch::dispatch_with(
        &dispatch_sig,
        &type_list,
        &[if c.scan {
            (quote!(__axis: isize), quote!(__axis))
        } else {
            (quote!(__axes: #s::Axes), quote!(__axes))
        }],
        &s,
    );
    let source = api::source_fn(generic, &source_arms, &s);
    let trait_def = if generic {
        let form = if c.scan { "scan" } else { "reduction" };
        let msg = format!("{form} `{name_str}` is not instantiated for `{{Self}}`");
        let label = format!("`{name_str}` has no `{{Self}}` instantiation");
        let note = format!("`{name_str}` is instantiated for: {types_text} (its `types` list)");
        let doc = format!("An element type `{name_str}` is instantiated for: {types_text}.");
        let (map_params, _) = map_signature(map, &self_ty);
        let acc_self = types_of(&acc, &self_ty);
        let out_self = types_of(&out, &self_ty);
        quote! {
            #[doc(hidden)]
            pub mod __sealed {
                pub trait Sealed {}
            }
            #[doc = #doc]
            #[diagnostic::on_unimplemented(message = #msg, label = #label, note = #note)]
            pub trait Instance: #s::Element + __sealed::Sealed {
                #[doc(hidden)]
                fn __info() -> &'static #s::__private::KernelInfo;
                #[doc(hidden)]
                fn __identity() -> #acc_self;
                #[doc(hidden)]
                fn __map(#(#map_params),*) -> #acc_self;
                #[doc(hidden)]
                fn __combine(a: #acc_self, b: #acc_self) -> #acc_self;
                #[doc(hidden)]
                fn __finish(a: #acc_self, count: u64) -> #out_self;
            }
        }
    } else {
        quote!()
    };
    let what = if c.scan {
        "scan `{name_str}`, generated by `#[scan]`: [`launch`] (inclusive) and \
         [`launch_exclusive`] on typed tensors, [`dispatch`] on untyped ones, [`eval`] \
         and [`eval_exclusive`] for one row on the host"
    } else {
        "reduction `{name_str}`, generated by `#[reduce]`: [`launch`] on typed \
         tensors, [`dispatch`] on untyped ones, [`eval`] for one row on the host"
    }
    .replace("{name_str}", &name_str);
    let module_doc = format!(
        "The {what}, [`source`] for the OpenCL C.{}",
        if generic {
            format!("\n\nInstantiated for: {types_text}.")
        } else {
            String::new()
        }
    );
    quote! {
        #(#docs)*
        #[doc = #module_doc]
        #[allow(non_snake_case, clippy::all)]
        #vis mod #name {
            #[allow(unused_imports)]
            use #krate as __silt;

            /// The element types this reduction is instantiated for.
            pub const TYPES: &[#s::DType] = &[#(#dtypes),*];
            /// The reduction's name.
            pub const NAME: &str = #name_str;

            #trait_def
            #(#programs)*
            #(#items)*
            #source
            #launch
            #eval
            #dispatch

            #[doc(hidden)]
            pub static __INFOS: &[&#s::__private::KernelInfo] = &[#(&#infos),*];

            /// Every instantiation's launch information (for tests and tools).
            #[doc(hidden)]
            pub fn __infos() -> &'static [&'static #s::__private::KernelInfo] {
                __INFOS
            }
        }
    }
}

/// The placeholder generated beside the errors of a rejected reduction.
pub fn fallback(
    placeholder: Option<(syn::Visibility, syn::Ident)>,
    err: syn::Error,
) -> TokenStream {
    let err = err.to_compile_error();
    match placeholder {
        Some((vis, name)) => quote! {
            #err
            #[allow(dead_code, non_snake_case)]
            #vis mod #name {}
        },
        None => err,
    }
}

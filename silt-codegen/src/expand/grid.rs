//! The generated module of a grid kernel (`#[grid]`): its programs and per
//! instantiation the `KernelInfo`, the body as Rust and the `Instance` impl;
//! `launch` over a `Grid` (the device, or the host running the body for
//! every work-item), `source`, `TYPES` and `NAME`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::opencl;
use super::sig::{dtype, elem};
use crate::back::rust;
use crate::compile::Compiled;
use crate::front::ident_name;
use crate::front::syntax::{ParamKind, TyRef};
use crate::ir::Entry;

/// Everything generated for one grid kernel.
pub fn module(c: &Compiled) -> TokenStream {
    let (sig, instances, krate) = (&c.sig, &c.instances, &c.krate);
    let s = quote!(__silt);
    let name = &sig.name;
    let name_str = ident_name(name);
    let (vis, docs) = (&sig.vis, &sig.docs);
    let generic = sig.generic.is_some();
    let Some(Entry::Grid(grid)) = instances.first().map(|i| &i.kernel.entry) else {
        return quote!(::core::compile_error!("a grid kernel needs an instantiation"););
    };
    let group = grid.group.iter().copied();
    let checked = !grid.unchecked;
    let type_list: Vec<String> = instances
        .iter()
        .filter_map(|i| i.ty.map(|t| t.name().to_string()))
        .collect();
    let types_text = type_list.join(", ");
    let dtypes = instances.iter().filter_map(|i| i.ty).map(|t| dtype(t, &s));
    let opencl::OpenCl { programs, kernels } = opencl::items(instances, &s);

    // the host run's parameters, `Self` for the generic type in the trait
    let run_params = |t: &TokenStream| -> Vec<TokenStream> {
        let mut out = vec![quote!(__plan: &#s::__private::GridPlan<'_>)];
        for p in &sig.params {
            let n = &p.name;
            let e = match p.ty {
                TyRef::Generic => t.clone(),
                TyRef::Elem(d) => rust::ty(d),
            };
            out.push(match p.kind {
                ParamKind::View(_) => quote!(#n: &#s::__private::GridView<'_, #e>),
                ParamKind::ViewMut(_) => quote!(#n: &#s::__private::GridViewMut<'_, #e>),
                _ => quote!(#n: #e),
            });
        }
        out
    };
    let param_names: Vec<&syn::Ident> = sig.params.iter().map(|p| &p.name).collect();

    // per instantiation: its description, its body as Rust, its trait impl
    let mut items = Vec::new();
    let mut infos = Vec::new();
    let mut source_arms = Vec::new();
    let mut helper_fns: Vec<String> = Vec::new();
    for (inst, opencl) in instances.iter().zip(&kernels) {
        let suffix = inst
            .ty
            .map_or_else(|| "kernel".to_string(), |t| t.name().to_string());
        let info = format_ident!("__INFO_{}", suffix.to_uppercase());
        let eval = format_ident!("__eval_{}", suffix);
        let inst_dtype = match inst.ty {
            Some(t) => {
                let d = dtype(t, &s);
                quote!(::core::option::Option::Some(#d))
            }
            None => quote!(::core::option::Option::None),
        };
        items.push(quote! {
            #[doc(hidden)]
            pub static #info: #s::__private::KernelInfo = #s::__private::KernelInfo::new(
                #name_str,
                #inst_dtype,
                #s::__private::Form::Grid,
                #opencl,
            );
        });
        infos.push(info.clone());
        items.push(rust::eval_fn(&inst.kernel.func, &eval, &s));
        for h in &inst.kernel.helpers {
            let n = rust::helper_fn_name(&h.id);
            if !helper_fns.contains(&n) {
                items.push(rust::eval_fn(&h.func, &format_ident!("{}", n), &s));
                helper_fns.push(n);
            }
        }
        // the host run: every work-item, in turn between barriers where
        // the body has them
        let run = format_ident!("__run_{}", suffix);
        let f = &inst.kernel.func;
        let mut barriers = false;
        crate::ir::walk_stmts(&f.body, &mut |st| {
            barriers |= matches!(st, crate::ir::Stmt::Barrier(_));
        });
        let params = run_params(&match inst.ty {
            Some(t) => rust::ty(t),
            None => quote!(T),
        });
        // work-group arrays are made per group and lent to each work-item; a
        // work-item makes its `private!` arrays itself
        let group_arrays: Vec<(usize, &crate::ir::LocalArray)> = f
            .arrays
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.private)
            .collect();
        let run_body = if barriers || !group_arrays.is_empty() {
            let locals = group_arrays.iter().map(|&(i, a)| {
                let t = rust::ty(a.ty);
                let dims = a
                    .dims
                    .iter()
                    .map(|&n| usize::try_from(n).unwrap_or(usize::MAX));
                let id = sig.params.len() + i;
                quote!(#s::__private::GridViewMut::<#t>::local(&[#(#dims),*], #id),)
            });
            let taken = (0..group_arrays.len()).map(|i| {
                let i = syn::Index::from(i);
                quote!(&__l.#i)
            });
            let call = if barriers {
                quote!(#eval(&__item, #(#param_names,)* #(#taken),*).await)
            } else {
                quote!(#eval(&__item, #(#param_names,)* #(#taken),*))
            };
            quote! {
                #s::__private::run_grid_host_async(
                    __plan,
                    NAME,
                    || (#(#locals)*),
                    move |__item, __l| ::std::boxed::Box::pin(async move { #call; }),
                )
            }
        } else {
            quote!(#s::__private::run_grid_host(__plan, NAME, |__item| #eval(__item, #(#param_names),*)))
        };
        items.push(quote! {
            #[doc(hidden)]
            #[allow(clippy::too_many_arguments)]
            pub fn #run(#(#params),*) -> #s::Result<()> {
                #run_body
            }
        });
        if let Some(t) = inst.ty {
            let rt = rust::ty(t);
            let params = run_params(&quote!(Self));
            let header = quote::quote_spanned!(inst.ty_span=> impl Instance for #rt);
            items.push(quote! {
                impl __sealed::Sealed for #rt {}
                #header {
                    fn __info() -> &'static #s::__private::KernelInfo {
                        &#info
                    }
                    #[inline]
                    fn __run(#(#params),*) -> #s::Result<()> {
                        #run(__plan, #(#param_names),*)
                    }
                }
            });
            let d = dtype(t, &s);
            source_arms.push(quote!(#d => ::core::option::Option::Some(#info.source()),));
        }
    }
    let trait_def = if generic {
        let params = run_params(&quote!(Self));
        super::api::sealed_trait(
            "kernel",
            &name_str,
            &types_text,
            &quote!(#s::Element + #s::__private::GridElem),
            &quote! {
                #[doc(hidden)]
                fn __info() -> &'static #s::__private::KernelInfo;
                #[doc(hidden)]
                fn __run(#(#params),*) -> #s::Result<()>;
            },
        )
    } else {
        quote!()
    };
    let (info_expr, run_call, generics) = if generic {
        (
            quote!(<T as Instance>::__info()),
            quote!(<T as Instance>::__run),
            quote!(<T: Instance>),
        )
    } else {
        (quote!(&__INFO_KERNEL), quote!(__run_kernel), quote!())
    };
    let local_names: Vec<TokenStream> = instances
        .first()
        .map(|i| {
            i.kernel
                .func
                .arrays
                .iter()
                .map(|a| {
                    let name = &a.name;
                    let dims = a
                        .dims
                        .iter()
                        .map(|&d| usize::try_from(d).unwrap_or(usize::MAX));
                    quote!((#name, &[#(#dims),*]))
                })
                .collect()
        })
        .unwrap_or_default();

    // ---- launch ----
    let launch_params = sig.params.iter().map(|p| {
        let n = &p.name;
        let t = elem(p.ty);
        match p.kind {
            ParamKind::View(_) => quote!(#n: &#s::TensorT<#t>),
            ParamKind::ViewMut(_) => quote!(#n: &mut #s::TensorT<#t>),
            _ => quote!(#n: #t),
        }
    });
    let args = sig.params.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::View(_) => quote!(#s::__private::Arg::In(#n.as_tensor())),
            ParamKind::ViewMut(_) => quote!(#s::__private::Arg::InOut(#n.as_tensor())),
            _ => quote!(#s::__private::Arg::Scalar(#s::Element::into_scalar(#n))),
        }
    });
    let views = sig.params.iter().map(|p| match p.kind.rank() {
        Some(r) => {
            let n = ident_name(&p.name);
            quote!(::core::option::Option::Some((#n, #r)))
        }
        None => quote!(::core::option::Option::None),
    });
    // the host path: a copy of each view's elements in logical order, the
    // written ones stored back (also after an access out of range: the
    // device writes the elements in range too)
    let mut copies = Vec::new();
    let mut host_views = Vec::new();
    let mut store_back = Vec::new();
    let mut declared = Vec::new();
    let mut call_args = vec![quote!(&__plan)];
    for (i, p) in sig.params.iter().enumerate() {
        let n = &p.name;
        let d = format_ident!("__d_{}", n);
        let v = format_ident!("__v_{}", n);
        match p.kind {
            ParamKind::View(_) => {
                copies.push(quote!(let #d = #n.to_vec()?;));
                host_views
                    .push(quote!(let #v = #s::__private::GridView::new(&#d, #n.shape(), #i);));
                call_args.push(quote!(&#v));
            }
            ParamKind::ViewMut(_) => {
                declared.push(quote!(let mut #d = ::std::vec::Vec::new();));
                copies.push(quote!(#d = #s::__private::grid_cells(#n)?;));
                host_views
                    .push(quote!(let #v = #s::__private::GridViewMut::new(&#d, #n.shape(), #i);));
                store_back.push(quote!(#s::__private::grid_store(#n, &#d)?;));
                call_args.push(quote!(&#v));
            }
            _ => call_args.push(quote!(#n)),
        }
    }
    let safety = if checked { quote!() } else { quote!(unsafe) };
    let launch_doc = format!(
        "Runs `{name_str}` over `grid`'s work-items, rounded up to whole work-groups of {:?}, \
         on the device of its tensor arguments (OpenCL or the host).\n\n{}# Errors\n\
         A grid of another dimension count than the work-group, a tensor of another \
         dimension count than its view, tensors on different devices, a written view that \
         overlaps itself or another view, an `f64` instantiation on a device without \
         `cl_khr_fp64`, an OpenCL build or launch failure, or an allocation failure{}.",
        grid.group,
        if checked {
            String::new()
        } else {
            "# Safety\nThe kernel is `unchecked`: every index of every view must be in \
             range, or the device reads and writes memory outside the tensors.\n\n"
                .to_owned()
        },
        if checked {
            "; `Error::IndexOutOfBounds` for the first access out of its view's range \
             (the access touched nothing; the launch waits for the device to know)"
        } else {
            ""
        }
    );
    let launch = quote! {
        #[doc = #launch_doc]
        #[allow(clippy::too_many_arguments, unused_mut, unused_unsafe)]
        pub #safety fn launch #generics (__grid: #s::Grid, #(#launch_params),*) -> #s::Result<()> {
            let __info = #info_expr;
            #(#declared)*
            let __run = {
                let __args = [#(#args),*];
                let __plan = #s::__private::prepare_grid(
                    __info,
                    &__grid,
                    &[#(#group),*],
                    &[#(#views),*],
                    &[#(#local_names),*],
                    &__args,
                )?;
                if #s::__private::grid_on_device(__info, &__plan, &__args, #checked)? {
                    return ::core::result::Result::Ok(());
                }
                #(#copies)*
                #(#host_views)*
                #run_call(#(#call_args),*)
            };
            #(#store_back)*
            __run
        }
    };
    let source = super::api::source_fn(generic, &source_arms, &s);
    let infos_items = super::api::infos_items(&infos, &s);
    // an unchecked kernel's `launch` is unsafe: so is its `dispatch`
    let dispatch = super::dispatch::dispatch_around(
        sig,
        &type_list,
        &[(quote!(__grid: #s::Grid), quote!(__grid))],
        &[],
        !checked,
        &s,
    );
    let module_doc = format!(
        "The grid kernel `{name_str}`, generated by `#[grid]`: [`launch`] over a `Grid` of \
         work-items on typed tensors, `dispatch` on untyped ones, [`source`] for the OpenCL C.{}",
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

            /// The element types this kernel is instantiated for.
            pub const TYPES: &[#s::DType] = &[#(#dtypes),*];
            /// The kernel's name.
            pub const NAME: &str = #name_str;

            #trait_def
            #(#programs)*
            #(#items)*
            #source
            #launch
            #dispatch

            #infos_items
        }
    }
}

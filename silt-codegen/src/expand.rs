//! The generated module of a kernel: instantiations, `launch`, `dispatch`,
//! `source`, `eval`, `TYPES`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use crate::ast::{ParamKind, Signature, TyRef};
use crate::emit_rust;
use crate::ty::Ty;
use crate::Instance;

/// Everything generated for one kernel.
pub fn module(sig: &Signature, instances: &[Instance], krate: &TokenStream) -> TokenStream {
    let name = &sig.name;
    let name_str = crate::typeck::ident_name(name);
    let vis = &sig.vis;
    let docs = &sig.docs;
    let generic = sig.generic.is_some();
    let s = quote!(__silt);

    let type_list: Vec<String> = instances
        .iter()
        .filter_map(|i| i.ty.map(|t| t.name().to_string()))
        .collect();
    let types_text = type_list.join(", ");
    let dtypes = instances.iter().filter_map(|i| i.ty).map(|t| dtype(t, &s));

    // ---- programs: one per precision, holding all its instantiations ----
    let mut items = Vec::new();
    let groups: [Vec<&crate::ir::Kernel>; 2] = [
        instances
            .iter()
            .filter(|i| !i.uses_f64)
            .map(|i| &i.kernel)
            .collect(),
        instances
            .iter()
            .filter(|i| i.uses_f64)
            .map(|i| &i.kernel)
            .collect(),
    ];
    for (g, kernels) in groups.iter().enumerate() {
        if kernels.is_empty() {
            continue;
        }
        let ident = format_ident!("__PROGRAM_{}", g);
        let registered = format_ident!("__REGISTERED_{}", g);
        let (text, lines) = crate::emit_cl::emit_group_with_lines(kernels);
        let lines = lines.into_iter().filter_map(|(at, rust)| {
            let (at, rust) = (u32::try_from(at).ok()?, u32::try_from(rust).ok()?);
            Some(quote!((#at, #rust)))
        });
        let fp64 = g == 1;
        let defs = crate::emit_cl::group_defs(kernels)
            .into_iter()
            .map(|(name, text)| quote!((#name, #text)));
        items.push(quote! {
            #[doc(hidden)]
            pub static #ident: #s::__private::ProgramText = #s::__private::ProgramText::new(
                #text,
                ::core::module_path!(),
                #fp64,
                &[#(#defs),*],
            )
            .with_lines(::core::file!(), &[#(#lines),*]);
            #[#s::__private::linkme::distributed_slice(#s::__private::PROGRAMS)]
            #[linkme(crate = #s::__private::linkme)]
            static #registered: &#s::__private::ProgramText = &#ident;
        });
    }
    // ---- per instantiation: info static, eval function, trait impl ----
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
            &std::ffi::CString::new(inst.kernel.entry()).unwrap_or_default(),
        );
        let strided_entry = proc_macro2::Literal::c_string(
            &std::ffi::CString::new(format!("{}_strided", inst.kernel.entry())).unwrap_or_default(),
        );
        let inst_dtype = match inst.ty {
            Some(t) => {
                let d = dtype(t, &s);
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
        items.push(emit_rust::eval_fn(&inst.kernel, &eval, &s));
        for h in &inst.kernel.helpers {
            if !helper_fns.contains(&h.name) {
                helper_fns.push(h.name.clone());
                items.push(emit_rust::eval_fn(
                    &h.kernel,
                    &format_ident!("{}", h.name),
                    &s,
                ));
            }
        }
        if let Some(t) = inst.ty {
            let rt = emit_rust::ty(t);
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
            let d = dtype(t, &s);
            source_arms.push(quote!(#d => ::core::option::Option::Some(#info.source()),));
        }
    }

    let t_tok = if generic { quote!(T) } else { quote!() };
    let elem = |r: TyRef| match r {
        TyRef::Generic => quote!(T),
        TyRef::Elem(t) => emit_rust::ty(t),
    };

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
    let inputs: Vec<&crate::ast::Param> = sig
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Input)
        .collect();
    let inouts: Vec<&crate::ast::Param> = sig
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::InOut)
        .collect();
    let host_reads = inputs.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__v_{}", n);
        let sl = format_ident!("__s_{}", n);
        quote! {
            let #v = #s::__private::host_read(&__plan, #n)?;
            let #sl = &*#v;
        }
    });
    let inout_loads = inouts.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__v_{}", n);
        quote!(let mut #v = #s::__private::host_inout(&__plan, &*#n)?;)
    });
    let n_out = sig.outputs.len();
    let out_ts: Vec<syn::Ident> = (0..n_out).map(|i| format_ident!("__t{}", i)).collect();
    let out_ws: Vec<syn::Ident> = (0..n_out).map(|i| format_ident!("__w{}", i)).collect();
    // the mutable buffers, zipped chunk by chunk: outputs, then `&mut` copies
    let mut mut_bufs: Vec<TokenStream> = out_ws.iter().map(|w| quote!(&mut *#w)).collect();
    mut_bufs.extend(inouts.iter().map(|p| {
        let v = format_ident!("__v_{}", p.name);
        quote!(#v.as_mut_slice())
    }));
    let chunks: Vec<syn::Ident> = (0..mut_bufs.len())
        .map(|i| format_ident!("__c{}", i))
        .collect();
    let mut zipped = quote!();
    let mut pattern = quote!();
    for (i, (b, c)) in mut_bufs.iter().zip(&chunks).enumerate() {
        if i == 0 {
            zipped = quote!(#s::__private::rayon::slice::ParallelSliceMut::par_chunks_mut(#b, #s::__private::HOST_CHUNK));
            pattern = quote!(#c);
        } else {
            zipped = quote!(#s::__private::rayon::iter::IndexedParallelIterator::zip(#zipped, #s::__private::rayon::slice::ParallelSliceMut::par_chunks_mut(#b, #s::__private::HOST_CHUNK)));
            pattern = quote!((#pattern, #c));
        }
    }
    let host_args = sig.params.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::Input => {
                let sl = format_ident!("__s_{}", n);
                quote!(#sl[__i])
            }
            ParamKind::InOut => {
                let pos = inouts.iter().position(|q| q.name == p.name).unwrap_or(0);
                let c = &chunks[n_out + pos];
                quote!(&mut #c[__j])
            }
            ParamKind::Scalar => quote!(#n),
            ParamKind::Index => quote!(__i as u64),
        }
    });
    let call = quote!(#eval_call(#(#host_args),*));
    let rs: Vec<syn::Ident> = (0..n_out).map(|i| format_ident!("__r{}", i)).collect();
    let out_chunks = &chunks[..n_out];
    let per_element = match n_out {
        0 => quote!(#call;),
        1 => {
            let c = &out_chunks[0];
            quote!(#c[__j] = #call;)
        }
        _ => quote! {
            let (#(#rs),*) = #call;
            #(#out_chunks[__j] = #rs;)*
        },
    };
    let Some(first) = chunks.first() else {
        // rejected before expansion (a kernel writes something)
        return quote!(::core::compile_error!("a kernel must write an output"););
    };
    let out_tys_host: Vec<TokenStream> = sig.outputs.iter().map(|(r, _)| elem(*r)).collect();
    // `&mut` arguments that went through a copy are stored once every lock is
    // released
    let inout_vs: Vec<syn::Ident> = inouts
        .iter()
        .map(|p| format_ident!("__v_{}", p.name))
        .collect();
    let backs: Vec<syn::Ident> = inouts
        .iter()
        .map(|p| format_ident!("__back_{}", p.name))
        .collect();
    let inout_names = inouts.iter().map(|p| &p.name);
    let host = quote! {
        #(let #out_ts = #s::__private::host_new::<#out_tys_host>(&__plan)?;)*
        let (#(#backs,)*) = {
            #(#host_reads)*
            #(#inout_loads)*
            #(let mut #out_ws = #s::__private::host_write(&#out_ts)?;)*
            #s::__private::rayon::iter::ParallelIterator::for_each(
                #s::__private::rayon::iter::IndexedParallelIterator::enumerate(#zipped),
                |(__k, #pattern)| {
                    let __base = __k * #s::__private::HOST_CHUNK;
                    for __j in 0..#first.len() {
                        let __i = __base + __j;
                        #per_element
                    }
                },
            );
            (#(#inout_vs.finish(),)*)
        };
        #(
            if let ::core::option::Option::Some(__copy) = #backs {
                #s::__private::store_host(#inout_names, &__copy)?;
            }
        )*
    };
    let host_ret = match n_out {
        0 => quote!(()),
        1 => {
            let t = &out_ts[0];
            quote!(#t)
        }
        _ => quote!((#(#out_ts),*)),
    };
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
            if __plan.is_host() {
                #host
                ::core::result::Result::Ok(#host_ret)
            } else {
                let mut __outs = #s::__private::launch_opencl(__info, &__plan, &__args, &[#(#out_dtypes),*])?
                    .into_iter();
                ::core::result::Result::Ok(#cl_ret)
            }
        }
    };

    // ---- eval ----
    let (eval_params, eval_args) = eval_signature(sig, None);
    let eval_ret = ret_type(sig, quote!(T));
    let eval_doc = format!(
        "The body of `{name_str}` as plain Rust for one element, with silt's semantics \
         (wrapping integer arithmetic, division by zero gives 0, saturating casts): the \
         reference device results are checked against."
    );
    let eval = quote! {
        #[doc = #eval_doc]
        #[inline]
        pub fn eval #generics (#(#eval_params),*) #eval_ret {
            #eval_call(#(#eval_args),*)
        }
    };

    // ---- dispatch ----
    let dispatch = dispatch_fn(sig, &type_list, &s);

    // ---- source / TYPES / trait ----
    let source = if generic {
        quote! {
            /// The OpenCL C program of the instantiation for `dtype`, `None` outside
            /// [`TYPES`].
            pub fn source(dtype: #s::DType) -> ::core::option::Option<&'static str> {
                match dtype {
                    #(#source_arms)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    } else {
        quote! {
            /// The OpenCL C program of this kernel (it has one instantiation, so
            /// `dtype` is ignored).
            pub fn source(dtype: #s::DType) -> ::core::option::Option<&'static str> {
                let _ = dtype;
                ::core::option::Option::Some(__INFO_KERNEL.source())
            }
        }
    };
    let trait_def = if generic {
        let msg = format!("kernel `{name_str}` is not instantiated for `{{Self}}`");
        let label = format!("`{name_str}` has no `{{Self}}` instantiation");
        let note = format!("`{name_str}` is instantiated for: {types_text} (its `types` list)");
        let doc = format!("An element type `{name_str}` is instantiated for: {types_text}.");
        let (tp, _) = eval_signature(sig, Some(quote!(Self)));
        let tr = ret_type(sig, quote!(Self));
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
                fn __eval(#(#tp),*) #tr;
            }
        }
    } else {
        quote!()
    };
    let _ = t_tok;
    let module_doc = format!(
        "The kernel `{name_str}`, generated by `#[kernel]`: [`launch`] on typed tensors, \
         [`dispatch`] on untyped ones, [`eval`] for one element on the host, [`source`] \
         for the OpenCL C.{}",
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
            #(#items)*
            #source
            #eval
            #launch
            #dispatch

            #[doc(hidden)]
            pub static __INFOS: &[&#s::__private::KernelInfo] = &[#(&#info_names),*];

            /// Every instantiation's launch information (for tests and tools).
            #[doc(hidden)]
            pub fn __infos() -> &'static [&'static #s::__private::KernelInfo] {
                __INFOS
            }
        }
    }
}

fn dtype(t: Ty, s: &TokenStream) -> TokenStream {
    let v = format_ident!("{}", t.variant_name());
    quote!(#s::DType::#v)
}

/// The parameters and call arguments of `eval` (`self_ty` replaces `T`).
fn eval_signature(
    sig: &Signature,
    self_ty: Option<TokenStream>,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let generic_ty = self_ty.unwrap_or(quote!(T));
    let mut params = Vec::new();
    let mut args = Vec::new();
    for p in &sig.params {
        let n = &p.name;
        let t = match p.ty {
            TyRef::Generic => generic_ty.clone(),
            TyRef::Elem(t) => emit_rust::ty(t),
        };
        match p.kind {
            ParamKind::InOut => params.push(quote!(#n: &mut #t)),
            _ => params.push(quote!(#n: #t)),
        }
        args.push(quote!(#n));
    }
    (params, args)
}

fn ret_type(sig: &Signature, generic_ty: TokenStream) -> TokenStream {
    let ts: Vec<TokenStream> = sig
        .outputs
        .iter()
        .map(|(r, _)| match r {
            TyRef::Generic => generic_ty.clone(),
            TyRef::Elem(t) => emit_rust::ty(*t),
        })
        .collect();
    match ts.as_slice() {
        [] => quote!(),
        [one] => quote!(-> #one),
        many => quote!(-> (#(#many),*)),
    }
}

fn dispatch_fn(sig: &Signature, types: &[String], s: &TokenStream) -> TokenStream {
    let name_str = crate::typeck::ident_name(&sig.name);
    let generic = sig.generic.is_some();
    let params = sig
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let n = &p.name;
            match p.kind {
                ParamKind::Input => quote!(#n: &#s::Tensor),
                ParamKind::InOut => quote!(#n: &mut #s::Tensor),
                _ => quote!(#n: impl ::core::convert::Into<#s::Scalar>),
            }
        });
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
    let ty_of = |p: &crate::ast::Param| match p.ty {
        TyRef::Generic => quote!(__T),
        TyRef::Elem(t) => emit_rust::ty(t),
    };
    let typed = sig.params.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__t_{}", n);
        let t = ty_of(p);
        match p.kind {
            ParamKind::Input => quote!(let #v = #n.typed::<#t>()?;),
            ParamKind::InOut => quote!(let mut #v = #n.typed::<#t>()?;),
            ParamKind::Scalar => quote!(let #v = #n.to::<#t>()?;),
            ParamKind::Index => quote!(),
        }
    });
    let call_args = sig
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Index)
        .map(|p| {
            let v = format_ident!("__t_{}", p.name);
            match p.kind {
                ParamKind::Input => quote!(&#v),
                ParamKind::InOut => quote!(&mut #v),
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
    let body = quote! {{
        #(#typed)*
        launch #turbofish (#(#call_args),*) #wrap
    }};
    let dtype_param = if explicit_dtype {
        quote!(dtype: #s::DType,)
    } else {
        quote!()
    };
    let doc = format!(
        "Runs `{name_str}` on untyped tensors, choosing the instantiation from their dtype.\n\n\
         # Errors\n`Error::UnsupportedDType` for a dtype outside [`TYPES`], \
         `Error::DTypeMismatch` when tensor arguments disagree, a scalar that does not \
         convert, and everything [`launch`] reports."
    );
    if !generic {
        return quote! {
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            pub fn dispatch(#(#params),*) -> #s::Result<#ret> {
                #(#scalars_in)*
                #body
            }
        };
    }
    let dtype_expr = if !t_tensors.is_empty() {
        quote!(#s::__private::common_dtype(&[#(#t_tensors.dtype()),*])?)
    } else if let Some(first) = t_scalars.first() {
        quote!(#first.dtype())
    } else {
        quote!(__dtype_arg)
    };
    let type_idents: Vec<TokenStream> = types
        .iter()
        .map(|t| Ty::from_name(t).map_or_else(|| t.parse().unwrap_or_default(), emit_rust::ty))
        .collect();
    quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        pub fn dispatch(#dtype_param #(#params),*) -> #s::Result<#ret> {
            #(#scalars_in)*
            let __dtype: #s::DType = #dtype_expr;
            #s::select!(#name_str, __dtype, __T => #body, [#(#type_idents),*])
        }
    }
}

/// The generated items when the kernel has errors: the errors, and a module with
/// the same name so that uses of it do not add errors of their own.
pub fn fallback(sig: Option<&Signature>, err: syn::Error) -> TokenStream {
    let err = err.to_compile_error();
    match sig {
        Some(sig) => {
            let (vis, name) = (&sig.vis, &sig.name);
            quote! {
                #err
                #[allow(dead_code, non_snake_case)]
                #vis mod #name {}
            }
        }
        None => err,
    }
}

/// A placeholder span for generated tokens.
pub fn call_site() -> Span {
    Span::call_site()
}

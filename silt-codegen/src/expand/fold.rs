//! What the generated modules of reductions (`reduce.rs`) and scans
//! (`scan.rs`) share: the calls of the module's functions for the element
//! type, the arguments of `launch` and `eval` and the host's reads of the
//! rows, the `Instance` trait, `dispatch`, `source` and the module around them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::instances::Items;
use super::sig::{dtype, map_signature, types_of};
use super::{api, dispatch, opencl};
use crate::back::rust;
use crate::compile::CompiledReduce;
use crate::front::ident_name;
use crate::front::syntax::{ParamKind, Signature, TyRef};

/// The parts of a reduction's or scan's module that its form's `launch` and
/// `eval` are made of.
pub(super) struct Fold<'a> {
    pub(super) c: &'a CompiledReduce,
    pub(super) map: &'a Signature,
    finish: &'a Signature,
    acc: Vec<TyRef>,
    pub(super) s: TokenStream,
    pub(super) name_str: String,
    pub(super) generic: bool,
    /// `<T: Instance>` for a generic module.
    pub(super) generics: TokenStream,
    /// `identity`, `map`, `combine` and `finish` for the element type.
    pub(super) calls: [TokenStream; 4],
    /// The instantiation's `&'static KernelInfo`.
    pub(super) info: TokenStream,
    /// The `DType` of each component of the accumulator.
    pub(super) acc_dtypes: Vec<TokenStream>,
    /// The Rust type of each output.
    pub(super) out_tys: Vec<TokenStream>,
    /// The tensor parameters of `map`.
    pub(super) inputs: Vec<&'a syn::Ident>,
    /// `launch`'s parameters but the axes, and their names.
    pub(super) launch_params: Vec<TokenStream>,
    pub(super) launch_names: Vec<&'a syn::Ident>,
    /// The runtime's `Arg` of each of them.
    pub(super) args: Vec<TokenStream>,
    /// The host's reads of each tensor's rows (`__s_NAME`).
    pub(super) rows_reads: Vec<TokenStream>,
    /// `map`'s arguments on the host (element `__i` of a row, index `__k`).
    pub(super) host_map_args: Vec<TokenStream>,
    /// `eval`'s parameters (a slice per tensor) and `map`'s arguments in it.
    eval_params: Vec<TokenStream>,
    pub(super) eval_map_args: Vec<TokenStream>,
    /// The output, as one value or a tuple, of `T`.
    pub(super) out_ret: TokenStream,
    type_list: Vec<String>,
    types_text: String,
}

fn sig_of(p: &Option<crate::front::reduce::Part>) -> Option<&Signature> {
    p.as_ref().map(|p| &p.sig)
}

/// The placeholder generated beside the errors of a rejected reduction or
/// scan.
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

impl<'a> Fold<'a> {
    /// The parts of `c`'s module; `None` without `map` and `finish`.
    pub(super) fn new(c: &'a CompiledReduce) -> Option<Self> {
        let m = &c.module;
        let (map, identity, finish) = (sig_of(&m.map)?, sig_of(&m.identity)?, sig_of(&m.finish)?);
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
        let (calls, info) = if generic {
            (
                [
                    quote!(<T as Instance>::__identity),
                    quote!(<T as Instance>::__map),
                    quote!(<T as Instance>::__combine),
                    quote!(<T as Instance>::__finish),
                ],
                quote!(<T as Instance>::__info()),
            )
        } else {
            (
                [
                    quote!(__identity_kernel),
                    quote!(__map_kernel),
                    quote!(__combine_acc_kernel),
                    quote!(__finish_acc_kernel),
                ],
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
        let acc_dtypes = acc
            .iter()
            .map(|r| {
                let e = elem(*r);
                quote!(<#e as #s::Element>::DTYPE)
            })
            .collect();
        let out_tys = out.iter().map(|r| elem(*r)).collect();
        let inputs: Vec<&syn::Ident> = map
            .params
            .iter()
            .filter(|p| p.kind == ParamKind::Input)
            .map(|p| &p.name)
            .collect();
        let given = || map.params.iter().filter(|p| p.kind != ParamKind::Index);
        let launch_params = given()
            .map(|p| {
                let n = &p.name;
                let ty = elem(p.ty);
                match p.kind {
                    ParamKind::Input => quote!(#n: &#s::TensorT<#ty>),
                    _ => quote!(#n: #ty),
                }
            })
            .collect();
        let args = given()
            .map(|p| {
                let n = &p.name;
                match p.kind {
                    ParamKind::Input => quote!(#s::__private::Arg::In(#n.as_tensor())),
                    _ => quote!(#s::__private::Arg::Scalar(#s::Element::into_scalar(#n))),
                }
            })
            .collect();
        let rows_reads = inputs
            .iter()
            .map(|n| {
                let v = format_ident!("__v_{}", n);
                let sl = format_ident!("__s_{}", n);
                quote! {
                    let #v = #s::__private::host_rows(&__plan, #n)?;
                    let #sl = &*#v;
                }
            })
            .collect();
        let host_map_args = map
            .params
            .iter()
            .map(|p| {
                let n = &p.name;
                match p.kind {
                    ParamKind::Input => {
                        let sl = format_ident!("__s_{}", n);
                        quote!(#sl[__i])
                    }
                    ParamKind::Index => quote!(__k),
                    _ => quote!(#n),
                }
            })
            .collect();
        let eval_params = given()
            .map(|p| {
                let n = &p.name;
                let ty = elem(p.ty);
                match p.kind {
                    ParamKind::Input => quote!(#n: &[#ty]),
                    _ => quote!(#n: #ty),
                }
            })
            .collect();
        let eval_map_args = map
            .params
            .iter()
            .map(|p| {
                let n = &p.name;
                match p.kind {
                    ParamKind::Input => quote!(#n[__k]),
                    ParamKind::Index => quote!(__k as u64),
                    _ => quote!(#n),
                }
            })
            .collect();
        Some(Fold {
            c,
            map,
            finish,
            out_ret: types_of(&out, &t),
            acc,
            name_str: ident_name(&m.name),
            generic,
            generics,
            calls,
            info,
            acc_dtypes,
            out_tys,
            inputs,
            launch_params,
            launch_names: given().map(|p| &p.name).collect(),
            args,
            rows_reads,
            host_map_args,
            eval_params,
            eval_map_args,
            type_list,
            types_text,
            s,
        })
    }

    /// `launch`'s return type, its host path's return (the host results
    /// `__out` made tensors by the runtime's `host_output`, a reduction's or a
    /// scan's), and its device path's (the results `__outs`).
    pub(super) fn returns(
        &self,
        host_output: TokenStream,
    ) -> (TokenStream, TokenStream, TokenStream) {
        let s = &self.s;
        match self.out_tys.as_slice() {
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
        }
    }

    /// An `eval` function named `name`, documented `doc`, that returns
    /// `fold` (over `__len` elements) as `ret`; with several tensors, their
    /// lengths must agree.
    pub(super) fn eval_fn(
        &self,
        name: &str,
        fold: &TokenStream,
        ret: &TokenStream,
        doc: &str,
    ) -> TokenStream {
        let (s, name_str, generics) = (&self.s, &self.name_str, &self.generics);
        let eval_params = &self.eval_params;
        let name = format_ident!("{}", name);
        let first_input = self.inputs.first();
        if self.inputs.len() > 1 {
            let doc = format!(
                "{doc}\n\n# Errors\n`Error::ShapeMismatch` when the slices' lengths differ."
            );
            let others = &self.inputs[1..];
            quote! {
                #[doc = #doc]
                #[allow(clippy::too_many_arguments)]
                pub fn #name #generics (#(#eval_params),*) -> #s::Result<#ret> {
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
                pub fn #name #generics (#(#eval_params),*) -> #ret {
                    let __len = #first_input.len();
                    #fold
                }
            }
        }
    }

    /// The module: `what` describes it in its doc (after "The "), `form`
    /// names it in the `Instance` trait's message ("reduction", "scan"),
    /// `axes` is `dispatch`'s last parameter and its argument.
    pub(super) fn module(
        &self,
        what: &str,
        form: &str,
        launch: &TokenStream,
        eval: &TokenStream,
        axes: (TokenStream, TokenStream),
    ) -> TokenStream {
        let (c, s, name_str) = (self.c, &self.s, &self.name_str);
        let m = &c.module;
        let (krate, name, vis, docs) = (&c.krate, &m.name, &m.vis, &m.docs);
        let (generic, types_text) = (self.generic, &self.types_text);
        let dtypes = c.instances.iter().filter_map(|i| i.ty).map(|t| dtype(t, s));
        let opencl::OpenCl { programs, kernels } = opencl::items(&c.instances, s);
        let Items {
            items,
            infos,
            source_arms,
        } = super::fold_items::items(c, &kernels, self.map, &self.acc, &self.out(), s);
        let mut dispatch_sig = self.map.clone();
        dispatch_sig.name = name.clone();
        dispatch_sig.outputs.clone_from(&self.finish.outputs);
        dispatch_sig.generic = generic.then(|| format_ident!("T"));
        let dispatch = dispatch::dispatch_with(&dispatch_sig, &self.type_list, &[axes], s);
        let source = api::source_fn(generic, &source_arms, s);
        let trait_def = if generic {
            self.instance_trait(form)
        } else {
            quote!()
        };
        let types_doc = format!("The element types this {form} is instantiated for.");
        let name_doc = format!("The {form}'s name.");
        let infos_items = api::infos_items(&infos, s);
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

                #[doc = #types_doc]
                pub const TYPES: &[#s::DType] = &[#(#dtypes),*];
                #[doc = #name_doc]
                pub const NAME: &str = #name_str;

                #trait_def
                #(#programs)*
                #(#items)*
                #source
                #launch
                #eval
                #dispatch

                #infos_items
            }
        }
    }

    fn out(&self) -> Vec<TyRef> {
        self.finish.outputs.iter().map(|(t, _)| *t).collect()
    }

    /// The trait that bounds `launch`'s type parameter, with the module's
    /// functions for each element type.
    fn instance_trait(&self, form: &str) -> TokenStream {
        let s = &self.s;
        let self_ty = quote!(Self);
        let (map_params, _) = map_signature(self.map, &self_ty);
        let acc_self = types_of(&self.acc, &self_ty);
        let out_self = types_of(&self.out(), &self_ty);
        api::sealed_trait(
            form,
            &self.name_str,
            &self.types_text,
            &quote!(#s::Element),
            &quote! {
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
            },
        )
    }
}

//! The small items of the generated module: `eval`, `source` and the
//! `Instance` trait that bounds `launch`'s type parameter.

use proc_macro2::TokenStream;
use quote::quote;

use super::sig::{eval_signature, ret_type};
use crate::front::syntax::Signature;

/// `eval`: the body for one element on the host.
pub(super) fn eval_fn(sig: &Signature, name_str: &str) -> TokenStream {
    let generic = sig.generic.is_some();
    let generics = if generic {
        quote!(<T: Instance>)
    } else {
        quote!()
    };
    let eval_call = if generic {
        quote!(<T as Instance>::__eval)
    } else {
        quote!(__eval_kernel)
    };
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
    eval
}

/// `source(dtype)`: the OpenCL C of an instantiation.
pub(super) fn source_fn(
    generic: bool,
    source_arms: &[TokenStream],
    s: &TokenStream,
) -> TokenStream {
    if generic {
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
    }
}

/// The sealed `Instance` trait a generic kernel's types implement (with a
/// diagnostic naming the listed types when one is missing).
pub(super) fn instance_trait(
    sig: &Signature,
    name_str: &str,
    types_text: &str,
    s: &TokenStream,
) -> TokenStream {
    if sig.generic.is_none() {
        return quote!();
    }
    let (tp, _) = eval_signature(sig, Some(quote!(Self)));
    let tr = ret_type(sig, quote!(Self));
    sealed_trait(
        "kernel",
        name_str,
        types_text,
        &quote!(#s::Element),
        &quote! {
            #[doc(hidden)]
            fn __info() -> &'static #s::__private::KernelInfo;
            #[doc(hidden)]
            fn __eval(#(#tp),*) #tr;
        },
    )
}

/// The sealed `Instance` trait of a generic `form` (kernel, reduction, scan)
/// named `name_str`, bounded by `bounds` and holding `methods`, with a
/// diagnostic naming the listed types when a type is missing.
pub(super) fn sealed_trait(
    form: &str,
    name_str: &str,
    types_text: &str,
    bounds: &TokenStream,
    methods: &TokenStream,
) -> TokenStream {
    let msg = format!("{form} `{name_str}` is not instantiated for `{{Self}}`");
    let label = format!("`{name_str}` has no `{{Self}}` instantiation");
    let note = format!("`{name_str}` is instantiated for: {types_text} (its `types` list)");
    let doc = format!("An element type `{name_str}` is instantiated for: {types_text}.");
    quote! {
        #[doc(hidden)]
        pub mod __sealed {
            pub trait Sealed {}
        }
        #[doc = #doc]
        #[diagnostic::on_unimplemented(message = #msg, label = #label, note = #note)]
        pub trait Instance: #bounds + __sealed::Sealed {
            #methods
        }
    }
}

/// `__INFOS` and `__infos()`: every instantiation's `KernelInfo`, for tests
/// and tools.
pub(super) fn infos_items(infos: &[syn::Ident], s: &TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        pub static __INFOS: &[&#s::__private::KernelInfo] = &[#(&#infos),*];

        /// Every instantiation's launch information (for tests and tools).
        #[doc(hidden)]
        pub fn __infos() -> &'static [&'static #s::__private::KernelInfo] {
            __INFOS
        }
    }
}

//! The program statics of a kernel: one OpenCL program per precision holding
//! all its instantiations, registered for the runtime's crate-wide grouping.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::back::opencl;
use crate::compile::Instance;
use crate::ir::Kernel;

/// `__PROGRAM_0` (instantiations without `f64`) and `__PROGRAM_1` (with), each
/// a `ProgramText` with its definitions and line map, registered in
/// `PROGRAMS`.
pub(super) fn items(instances: &[Instance], s: &TokenStream) -> Vec<TokenStream> {
    let mut items = Vec::new();
    let groups: [Vec<&Kernel>; 2] = [
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
        let (text, lines) = opencl::emit_group_with_lines(kernels);
        let lines = lines.into_iter().filter_map(|(at, rust)| {
            let (at, rust) = (u32::try_from(at).ok()?, u32::try_from(rust).ok()?);
            Some(quote!((#at, #rust)))
        });
        let fp64 = g == 1;
        let defs = opencl::group_defs(kernels)
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
    items
}

//! The OpenCL side of a generated module, the only part of the expansion
//! that knows the target: one program per precision holding all the
//! instantiations (registered for the runtime's crate-wide grouping), and per
//! instantiation its `OpenClKernel` (the program, the pieces of it that make
//! its own program, and its entry points).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use silt_abi::opencl::FoldEntry;

use crate::back::opencl::{self, Program};
use crate::compile::Instance;
use crate::ir::{Entry, Kernel};

/// The OpenCL items of a module's instantiations.
pub(super) struct OpenCl {
    /// `__PROGRAM_0` (instantiations without `f64`) and `__PROGRAM_1` (with),
    /// each a `ProgramText` of named pieces with its line map, registered in
    /// `PROGRAMS`.
    pub programs: Vec<TokenStream>,
    /// Per instantiation, in order: its `OpenClKernel` expression.
    pub kernels: Vec<TokenStream>,
}

/// The programs and the `OpenClKernel` of every instantiation.
pub(super) fn items(instances: &[Instance], s: &TokenStream) -> OpenCl {
    let mut programs = Vec::new();
    let mut kernels = vec![TokenStream::new(); instances.len()];
    for fp64 in [false, true] {
        let members: Vec<usize> = (0..instances.len())
            .filter(|&i| instances[i].uses_f64 == fp64)
            .collect();
        if members.is_empty() {
            continue;
        }
        let g = usize::from(fp64);
        let ident = format_ident!("__PROGRAM_{}", g);
        let registered = format_ident!("__REGISTERED_{}", g);
        let ks: Vec<&Kernel> = members.iter().map(|&i| &instances[i].kernel).collect();
        let program = Program::new(&ks);
        let title = opencl::program_title(&ks);
        let (_, lines) = program.text_with_lines(&title, fp64);
        let lines = lines.into_iter().filter_map(|(at, rust)| {
            let (at, rust) = (u32::try_from(at).ok()?, u32::try_from(rust).ok()?);
            Some(quote!((#at, #rust)))
        });
        let defs = program.defs.iter().map(|(piece, name, text)| {
            let piece = format_ident!("{}", format!("{piece:?}"));
            quote!(#s::__private::Def::new(#s::__private::Piece::#piece, #name, #text))
        });
        programs.push(quote! {
            #[doc(hidden)]
            pub static #ident: #s::__private::ProgramText = #s::__private::ProgramText::new(
                #title,
                ::core::module_path!(),
                #fp64,
                &[#(#defs),*],
            )
            .with_lines(::core::file!(), &[#(#lines),*]);
            #[#s::__private::linkme::distributed_slice(#s::__private::PROGRAMS)]
            #[linkme(crate = #s::__private::linkme)]
            static #registered: &#s::__private::ProgramText = &#ident;
        });
        for (at, &i) in members.iter().enumerate() {
            let k = &instances[i].kernel;
            let title = opencl::instance_title(k);
            let pieces = program.own[at].iter().map(|&j| {
                // a program holds far fewer pieces than u16::MAX
                u16::try_from(j).unwrap_or(u16::MAX)
            });
            kernels[i] = kernel(k, quote!(&#ident), &title, pieces, s);
        }
    }
    OpenCl { programs, kernels }
}

/// `OpenClKernel::new(PROGRAM, TITLE, &[PIECES], ENTRY, STRIDED)` with the
/// entry points of `k`'s form.
fn kernel(
    k: &Kernel,
    program: TokenStream,
    title: &str,
    pieces: impl Iterator<Item = u16>,
    s: &TokenStream,
) -> TokenStream {
    let c_string = |text: String| {
        proc_macro2::Literal::c_string(&std::ffi::CString::new(text).unwrap_or_default())
    };
    let f = &k.func;
    let fold = |e: FoldEntry| c_string(opencl::fold_entry_name(f, e));
    let (entry, strided, more) = match &k.entry {
        Entry::Map => {
            let strided3 = c_string(opencl::strided3_entry_name(f));
            (
                c_string(opencl::entry_name(f)),
                c_string(opencl::strided_entry_name(f)),
                quote!(.with_strided3(#strided3)),
            )
        }
        Entry::Reduce(_) => {
            let tree = fold(FoldEntry::Tree);
            (
                fold(FoldEntry::Reduce),
                fold(FoldEntry::ReduceStrided),
                quote!(.with_tree(#tree)),
            )
        }
        // a scan's second entry point takes blocks of rows
        Entry::Scan(_) => (fold(FoldEntry::Scan), fold(FoldEntry::ScanBlocks), quote!()),
        // a grid kernel has one entry point, for any views
        Entry::Grid(_) => {
            let entry = c_string(opencl::entry_name(f));
            (entry.clone(), entry, quote!())
        }
    };
    quote! {
        #s::__private::OpenClKernel::new(#program, #title, &[#(#pieces),*], #entry, #strided)#more
    }
}

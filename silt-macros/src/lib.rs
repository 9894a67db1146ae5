//! The `#[kernel]` attribute of silt. A thin shell: all the work is done by the
//! `silt-codegen` library, where it can be tested without a compiler in the loop.
//! See the `silt` crate for the attribute's documentation.

use proc_macro::TokenStream;

/// Turns a Rust-like elementwise function into an OpenCL kernel module; see
/// `silt::kernel` for the documentation.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    silt_codegen::expand_kernel(attr.into(), item.into()).into()
}

/// Turns a Rust-like function of views into a grid kernel module; see
/// `silt::grid` for the documentation.
#[proc_macro_attribute]
pub fn grid(attr: TokenStream, item: TokenStream) -> TokenStream {
    silt_codegen::expand_grid(attr.into(), item.into()).into()
}

/// Turns an inline module of `identity`, `map`, `combine` and `finish` into a
/// reduction; see `silt::reduce` for the documentation.
#[proc_macro_attribute]
pub fn reduce(attr: TokenStream, item: TokenStream) -> TokenStream {
    silt_codegen::expand_reduce(attr.into(), item.into()).into()
}

/// Turns an inline module of `identity`, `map`, `combine` and `finish` into a
/// scan along one axis; see `silt::scan` for the documentation.
#[proc_macro_attribute]
pub fn scan(attr: TokenStream, item: TokenStream) -> TokenStream {
    silt_codegen::expand_scan(attr.into(), item.into()).into()
}

/// Makes a Rust-like function callable from `#[kernel]` bodies; see `silt::helper`.
#[proc_macro_attribute]
pub fn helper(attr: TokenStream, item: TokenStream) -> TokenStream {
    silt_codegen::expand_helper(attr.into(), item.into()).into()
}

/// One link of the chain that collects a kernel's helpers (generated code only).
#[doc(hidden)]
#[proc_macro]
pub fn __kernel_chain(input: TokenStream) -> TokenStream {
    silt_codegen::helper_chain(input.into()).into()
}

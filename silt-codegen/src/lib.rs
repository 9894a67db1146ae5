//! The code generator behind silt's `#[kernel]` and `#[helper]` attributes, as
//! a plain library. `silt-macros` is a thin shell over [`expand_kernel`],
//! [`expand_helper`] and [`helper_chain`].
//!
//! The pipeline, one folder a stage (`ARCHITECTURE.md` maps the files):
//! 1. [`front`]: the attribute's options and the function, lowered from `syn`
//!    into a spanned syntax tree; unsupported syntax is rejected here;
//! 2. [`check`]: types inferred and checked for each instantiation, helper
//!    calls resolved, the typed [`ir`] produced; then definite assignment;
//! 3. [`back`]: the backends, which read only the IR: [`back::opencl`] (OpenCL
//!    C programs with their entry points) and [`back::rust`] (the body as Rust);
//! 4. [`expand`]: the generated module (`launch`, `dispatch`, `eval`, ...).
//!
//! [`compile()`] runs stages 1 and 2 and the OpenCL backend for one kernel;
//! [`helper`] carries the definitions of `#[helper]` functions to the kernels
//! that call them. What the generator shares with the runtime (element types,
//! the launch ABI) is in `silt-abi`; the methods of the language are one table,
//! [`builtins`].

pub mod back;
pub mod builtins;
pub mod check;
pub mod compile;
pub mod errors;
pub mod expand;
pub mod front;
pub mod helper;
pub mod ir;

use proc_macro2::TokenStream;

pub use compile::{
    compile, compile_module_with, compile_reduce, compile_scan, compile_with, Compiled,
    CompiledReduce, Instance,
};
pub use helper::{chain as helper_chain, expand_helper};

/// The whole expansion of `#[kernel(attr)] item`: the generated module, or the
/// errors (plus a placeholder module so that uses do not add errors of their own).
pub fn expand_kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    // a kernel that calls helpers first collects their definitions
    if let Some(chain) = helper::start_chain(&attr, &item) {
        return chain;
    }
    match compile(attr.clone(), item.clone()) {
        Ok(c) => {
            let callable = helper::callable_items(&c.sig.name, &c.sig.vis, &attr, &item, &[]);
            expand::module(&c.sig, &c.instances, &c.krate, &callable)
        }
        Err((e, sig)) => expand::fallback(sig.as_deref(), e),
    }
}

/// The whole expansion of `#[grid(attr)] fn NAME(..) { .. }`: the generated
/// module, or the errors beside a placeholder module of the same name.
pub fn expand_grid(attr: TokenStream, item: TokenStream) -> TokenStream {
    // a grid kernel that calls helpers first collects their definitions
    if let Some(chain) = helper::start_grid_chain(&attr, &item) {
        return chain;
    }
    match compile::compile_grid_with(attr, item, &[]) {
        Ok(c) => expand::grid_module(&c),
        Err((e, sig)) => expand::fallback(sig.as_deref(), e),
    }
}

/// The whole expansion of `#[reduce(attr)] mod NAME { .. }`: the generated
/// module, or the errors beside a placeholder module of the same name.
pub fn expand_reduce(attr: TokenStream, item: TokenStream) -> TokenStream {
    // a reduction whose functions call helpers first collects their definitions
    if let Some(chain) = helper::start_module_chain(&attr, &item, false) {
        return chain;
    }
    match compile_reduce(attr, item) {
        Ok(c) => expand::fold_module(&c),
        Err((e, placeholder)) => expand::fold_fallback(placeholder, e),
    }
}

/// The whole expansion of `#[scan(attr)] mod NAME { .. }`: the generated
/// module, or the errors beside a placeholder module of the same name.
pub fn expand_scan(attr: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(chain) = helper::start_module_chain(&attr, &item, true) {
        return chain;
    }
    match compile_scan(attr, item) {
        Ok(c) => expand::fold_module(&c),
        Err((e, placeholder)) => expand::fold_fallback(placeholder, e),
    }
}

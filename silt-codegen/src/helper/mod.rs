//! `#[helper]` functions, and how a kernel collects the definitions of the helpers
//! it calls.
//!
//! A proc macro sees only its own item, so the definitions travel as tokens: each
//! `#[helper] fn NAME` also defines a `macro_rules!` reachable as
//! `NAME::__silt_helper_tokens!`, which hands its definition to a callback. A
//! kernel that calls helpers expands to a call of the first helper's macro with
//! `__kernel_chain` as the callback and its own tokens as state; `__kernel_chain`
//! adds the definition and asks the next helper (including helpers that helpers
//! call), and when none is left, compiles the kernel with all of them. A call in
//! a kernel is resolved from the kernel's module; a call in a helper through a
//! re-export (`__silt_dep_N`) in that helper's own module, so from where it is
//! written. A helper reached by two paths is recognised by its tokens and kept
//! once, under the path the body itself calls when it does (else the first
//! path found).
//!
//! A `#[kernel]` with plain and `#[scalar]` parameters and one result is
//! callable the same way: its module carries the same macro (its definition
//! marked `kernel []`), and a call passes its `#[scalar]`s as plain values.
//!
//! Another crate reaches a `pub` kernel or helper through the macro exported
//! at the defining crate's root (`__silt_export_NAME`), and cannot name the
//! helpers its body calls (private ones, or through modules it cannot see):
//! so a kernel's export, and a `pub` helper's when its body calls helpers,
//! carries their definitions (`kernel [..]`, `uses [..]`). A helper's is
//! written by a chain of its own, started beside it, whose last link writes
//! the export instead of compiling a kernel.

mod chain;
mod crates;
mod def;
mod expand;

pub use chain::callable_items;
pub use chain::{chain, start_chain, start_grid_chain, start_module_chain};
pub use def::sibling_defs;

use proc_macro2::TokenStream;

/// The expansion of `#[helper(attr)] item`: its module (`expand.rs`), and for
/// a `pub` helper that calls helpers, the chain that exports it with their
/// definitions, so that other crates can call it.
pub fn expand_helper(attr: TokenStream, item: TokenStream) -> TokenStream {
    let (mut out, export) = expand::expand_helper(attr.clone(), item.clone());
    if export {
        out.extend(chain::start_export_chain(&attr, &item));
    }
    out
}

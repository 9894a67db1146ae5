//! The checker: types inferred and checked for each instantiation, helper calls
//! resolved and instantiated, and the syntax tree turned into the typed [`ir`].
//! Definite assignment is a pass of its own over the IR.
//!
//! [`ir`]: crate::ir

mod call;
mod consts;
pub mod definite_init;
mod defs;
mod expr;
mod finish;
mod function;
mod grid;
mod infer;
pub mod reduce;
mod stmt;
mod tree;
pub mod uniform;

pub use defs::HelperDef;
pub use function::{check_helper, check_kernel};

#[cfg(test)]
mod tests;

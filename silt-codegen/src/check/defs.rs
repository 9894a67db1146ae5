//! The definitions a body may call besides builtins: `#[helper]` functions.

use crate::front::syntax;
use silt_abi::DType;

/// A `#[helper]` function a kernel may call.
#[derive(Debug, Clone)]
pub struct HelperDef {
    /// The path calls use (`util::sq`).
    pub key: String,
    /// Its signature (parameters by value, one result or several).
    pub sig: syntax::Signature,
    /// Its body.
    pub body: syntax::Block,
    /// Its instantiation types (empty without a generic parameter).
    pub types: Vec<DType>,
    /// How the calls in its body are resolved: the path as written, and the key
    /// of the helper it names (resolved from the helper's own module).
    pub deps: Vec<(String, String)>,
    /// Whether it is a `#[kernel]` called from another kernel (not a
    /// `#[helper]`).
    pub kernel: bool,
}

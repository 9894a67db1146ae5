//! The checker's working tree: the IR's shapes, with expression nodes whose
//! types are still type variables. [`super::finish`] turns it into the IR.

use proc_macro2::Span;

use crate::ir::{self, Node};

/// A block of the working tree.
pub(super) type Block = ir::Block<Expr>;
/// A statement of the working tree.
pub(super) type Stmt = ir::Stmt<Expr>;
/// An expression kind of the working tree.
pub(super) type ExprKind = ir::ExprKind<Expr>;

/// An expression whose type is being inferred.
#[derive(Debug, Clone)]
pub(super) struct Expr {
    /// What it computes (a float literal whose type is not decided yet is a
    /// placeholder `Lit` with its digits in `float`).
    pub kind: ExprKind,
    /// Its type variable.
    pub tv: usize,
    /// Where it was written.
    pub span: Span,
    /// The digits of an unsuffixed float literal, parsed once its type is known.
    pub float: Option<String>,
}

impl Node for Expr {
    fn kind(&self) -> &ExprKind {
        &self.kind
    }
}

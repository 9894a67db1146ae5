//! The kernel as written, in silt's own spanned syntax tree.
//!
//! Only the supported subset has a node here; `body.rs` and
//! `signature.rs` report everything else. No types are decided yet.

use proc_macro2::Span;

pub use crate::ir::{BinOp, ParamKind, UnOp};
use silt_abi::DType;

/// A type as written in the kernel: the generic parameter or an element type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TyRef {
    /// The kernel's generic parameter (`T`).
    Generic,
    /// A fixed element type.
    Elem(DType),
}

/// A kernel parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// The name as written.
    pub name: syn::Ident,
    /// `mut x: T` (a by-value parameter the body reassigns).
    pub mutable: bool,
    /// How it is passed.
    pub kind: ParamKind,
    /// Its element type.
    pub ty: TyRef,
    /// The span of its type.
    pub ty_span: Span,
}

/// The kernel's signature.
#[derive(Debug, Clone)]
pub struct Signature {
    /// The function's name.
    pub name: syn::Ident,
    /// Its visibility, given to the generated module.
    pub vis: syn::Visibility,
    /// The generic parameter's name, if any.
    pub generic: Option<syn::Ident>,
    /// The parameters. A tuple parameter `a: (T, i64)` (where allowed: the
    /// functions of a reduction) is one parameter per field, named
    /// `__silt_a_0`, `__silt_a_1`, ... (see `tuples`).
    pub params: Vec<Param>,
    /// The tuple parameters: each name with its fields' indices in `params`.
    pub tuples: Vec<(syn::Ident, Vec<usize>)>,
    /// The returned element types (empty: nothing returned).
    pub outputs: Vec<(TyRef, Span)>,
    /// The doc comments and other outer attributes to keep on the module.
    pub docs: Vec<syn::Attribute>,
    /// Whether every parameter and output could be read (checks that need the
    /// whole signature are skipped otherwise, so one mistake reports once).
    pub complete: bool,
}

/// A literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    /// An integer, with its suffix type if any.
    Int(i128, Option<DType>),
    /// A float as written (digits), with its suffix type if any.
    Float(String, Option<DType>),
    /// `true` / `false`.
    Bool(bool),
}

/// A block: statements and an optional tail expression (its value).
#[derive(Debug, Clone)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// The value of the block, if it ends in an expression without `;`.
    pub tail: Option<Box<Expr>>,
    /// The span of the braces.
    pub span: Span,
}

/// A statement.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// `let [mut] name[: ty] [= init];`
    Let {
        /// The bound name.
        name: syn::Ident,
        /// `let mut`.
        mutable: bool,
        /// The annotation.
        ty: Option<(TyRef, Span)>,
        /// The initialiser.
        init: Option<Expr>,
    },
    /// `let (a, mut b, _) = f(x);`: binds the values a call of a helper (or of
    /// a kernel) with several results returns, in order (`None`: `_`); no
    /// names at all: every value dropped (`_` for the whole call).
    LetCall {
        /// The bound names, with `mut`, one per value.
        names: Vec<Option<(syn::Ident, bool)>>,
        /// The call (an [`ExprKind::Call`]).
        call: Expr,
    },
    /// An expression followed by `;` (or a block-like expression).
    Expr(Expr),
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The kinds of expression in the supported subset.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A literal.
    Lit(Lit),
    /// A local variable or parameter.
    Var(syn::Ident),
    /// An associated constant: `T::MAX`, `f32::INFINITY`, `core::f64::consts::PI`.
    Const(TyRef, String),
    /// `*p` for a `&mut` parameter.
    Deref(syn::Ident),
    /// `-x`, `!x`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `place = value`, `place op= value`.
    Assign(Box<Expr>, Option<BinOp>, Box<Expr>),
    /// `x as ty`.
    Cast(Box<Expr>, TyRef),
    /// `receiver.method(args)`.
    Method(Box<Expr>, syn::Ident, Vec<Expr>),
    /// `if cond { .. } else ..`.
    If(Box<Expr>, Block, Option<Box<Expr>>),
    /// `while cond { .. }`.
    While(Box<Expr>, Block),
    /// `for var in start..end { .. }` (`..=` when inclusive).
    For(syn::Ident, Box<Expr>, Box<Expr>, bool, Block),
    /// `loop { .. }`.
    Loop(Block),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `return [value]`.
    Return(Option<Box<Expr>>),
    /// `{ .. }`.
    Block(Block),
    /// `a.0`: a field of a tuple parameter.
    Field(syn::Ident, usize),
    /// `(a, b)`: only as the returned value of a kernel with several outputs.
    Tuple(Vec<Expr>),
    /// `helper(args)`: a call of a `#[helper]` function (keyed by its path as written).
    Call(String, syn::Path, Vec<Expr>),
    /// `view[[i, j]]`: an element of a grid kernel's view, one index per
    /// dimension.
    Index(syn::Ident, Vec<Expr>),
    /// `local![T; 16, 16]`: a grid kernel's work-group array of that shape
    /// (each size an integer literal).
    LocalArray(TyRef, Vec<u64>, bool),
    /// `a.atomic_add([i, j], v)` and the other atomics of grid kernels: the
    /// view or array, the method, the indices, the operands.
    Atomic(syn::Ident, syn::Ident, Vec<Expr>, Vec<Expr>),
}

//! The typed IR of one kernel instantiation: every expression has an element type,
//! every literal a value of that type, every name a unique local. Emitters read
//! only this.

use proc_macro2::Span;

pub use crate::ast::{BinOp, ParamKind, UnOp};
use crate::builtins::Builtin;
use crate::ty::Ty;

/// One kernel, monomorphised for one type.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The kernel's name as written.
    pub name: String,
    /// The instantiation type (`None` for a kernel without a generic parameter).
    pub inst: Option<Ty>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// The returned element types, in order.
    pub outputs: Vec<Ty>,
    /// Every local of the body, indexed by [`LocalId`].
    pub locals: Vec<Local>,
    /// The body. Values are returned by [`Stmt::Return`] only.
    pub body: Block,
    /// Where the kernel is, for `#line` directives.
    pub span: Span,
    /// The helper instantiations it calls, callees before callers.
    pub helpers: Vec<HelperFn>,
}

/// One instantiation of a `#[helper]`: a function of its own in both emitters.
#[derive(Debug, Clone)]
pub struct HelperFn {
    /// Its name in C and in Rust (`silt_helper_sq_f32`).
    pub name: String,
    /// Its body, as a kernel with by-value parameters and one output.
    pub kernel: Kernel,
}

impl Kernel {
    /// The name of the OpenCL C kernel function: `NAME_TYPE` (or `NAME`).
    /// (A kernel without a generic parameter is `NAME_kernel`, so that it never
    /// takes the name of an OpenCL built-in such as `abs` or `dot`.)
    pub fn entry(&self) -> String {
        match self.inst {
            Some(t) => format!("{}_{}", ascii_name(&self.name), t.name()),
            None => format!("{}_kernel", ascii_name(&self.name)),
        }
    }
}

/// A Rust identifier as an OpenCL C one. Rust accepts Unicode identifiers
/// (`α`, `größe`) that OpenCL C compilers reject, so a name with a non-ASCII
/// character becomes `silt_x_` followed by its characters with `_` doubled and
/// every non-ASCII character written as `_HEX_` (`größe` is
/// `silt_x_gr_f6__df_e`): ASCII, one-to-one, and in the `silt_` namespace that
/// ASCII user names never take. An ASCII name is returned as it is.
pub fn ascii_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.is_ascii() {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::from("silt_x_");
    for c in name.chars() {
        match c {
            '_' => out.push_str("__"),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&format!("_{:x}_", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A kernel parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// The name as written.
    pub name: String,
    /// How it is passed.
    pub kind: ParamKind,
    /// Its element type.
    pub ty: Ty,
    /// Whether the body assigns to it (`mut x: T`).
    pub mutable: bool,
    /// Where it is declared.
    pub span: Span,
}

/// Index of a [`Local`].
pub type LocalId = usize;
/// Index of a [`Param`].
pub type ParamId = usize;

/// A `let` binding or `for` variable.
#[derive(Debug, Clone)]
pub struct Local {
    /// The name as written (several locals may share it through shadowing).
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// `let mut`.
    pub mutable: bool,
}

/// Statements and an optional value.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// The block's value, when used as an expression.
    pub tail: Option<Box<Expr>>,
}

/// Where an assignment writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A `let mut` local.
    Local(LocalId),
    /// A `mut` by-value parameter.
    Param(ParamId),
    /// `*y` for a `&mut` parameter.
    Deref(ParamId),
}

/// A statement.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// Declares a local, initialised or not.
    Let(LocalId, Option<Expr>),
    /// `place = value` or `place op= value`.
    Assign(Place, Option<BinOp>, Expr),
    /// An expression evaluated for its effects.
    Expr(Expr),
    /// `if` in statement position.
    If(Expr, Block, Option<Block>),
    /// `while cond { body }`.
    While(Expr, Block),
    /// `for var in start..end` (`..=` when inclusive).
    For(LocalId, Expr, Expr, bool, Block),
    /// `loop { body }`.
    Loop(Block),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// Returns one value per output (none for a kernel without outputs).
    Return(Vec<Expr>),
    /// A nested block.
    Block(Block),
}

/// A typed expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Ty,
    /// Where it was written.
    pub span: Span,
    /// The type variable while types are inferred (meaningless afterwards).
    pub(crate) tv: usize,
}

/// A literal value, already of the expression's type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// `true` / `false`.
    Bool(bool),
    /// An integer (in range of the expression's type).
    Int(i128),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
}

/// The kinds of typed expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A constant.
    Lit(Value),
    /// A local.
    Local(LocalId),
    /// A by-value parameter (input element or scalar).
    Param(ParamId),
    /// `*y`: the current value of a `&mut` parameter.
    Deref(ParamId),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation (operands of one type, except shifts).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `x as ty` (the target is the expression's type).
    Cast(Box<Expr>),
    /// A builtin method.
    Call(Builtin, Vec<Expr>),
    /// A call of a helper instantiation (by its function name).
    Helper(String, Vec<Expr>),
    /// `if cond { a } else { b }` as a value.
    If(Box<Expr>, Block, Block),
    /// A block with a value.
    Block(Block),
    /// A float literal whose type is not decided yet (only during inference).
    #[doc(hidden)]
    PendingFloat(String),
}

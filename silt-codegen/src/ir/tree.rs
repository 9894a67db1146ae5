//! Blocks, statements and expressions.
//!
//! [`Block`], [`Stmt`] and [`ExprKind`] are generic over the expression node,
//! so that the checker can build the same shapes with nodes of its own (whose
//! types are still being inferred) and hand the IR its final [`Expr`]s.

use proc_macro2::Span;

use super::ops::{BinOp, UnOp};
use super::values::{HelperRef, LocalId, ParamId, Place, Value};
use crate::builtins::Builtin;
use silt_abi::DType;

/// Statements and an optional value.
#[derive(Debug, Clone)]
pub struct Block<E = Expr> {
    /// The statements.
    pub stmts: Vec<Stmt<E>>,
    /// The block's value, when used as an expression.
    pub tail: Option<Box<E>>,
}

impl<E> Default for Block<E> {
    fn default() -> Self {
        Block {
            stmts: Vec::new(),
            tail: None,
        }
    }
}

/// A statement.
#[derive(Debug, Clone)]
pub enum Stmt<E = Expr> {
    /// Declares a local, initialised or not.
    Let(LocalId, Option<E>),
    /// `let (a, _, b) = helper(args);`: declares a local for each result of a
    /// helper with several (a result bound to `_` gets an unnamed one) and
    /// calls it. The call is an [`ExprKind::Helper`] (typed as its first
    /// result), written by this statement alone: no expression holds a call
    /// with several results.
    LetCall(Vec<LocalId>, E),
    /// `place = value` or `place op= value`.
    Assign(Place, Option<BinOp>, E),
    /// `a[[i, j]] = value` or `a[[i, j]] op= value` on a `ViewMut` parameter
    /// or a work-group array of a grid kernel (one index per dimension,
    /// `u64`s).
    Store(Array, Vec<E>, Option<BinOp>, E),
    /// `barrier()`: every work-item of the work-group waits here until all
    /// have come; then each sees what the others wrote before it.
    Barrier(Span),
    /// An expression evaluated for its effects.
    Expr(E),
    /// `if` in statement position.
    If(E, Block<E>, Option<Block<E>>),
    /// `while cond { body }`.
    While(E, Block<E>),
    /// `for var in start..end` (`..=` when inclusive).
    For(LocalId, E, E, bool, Block<E>),
    /// `loop { body }`.
    Loop(Block<E>),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// Returns one value per output (none for a function without outputs).
    Return(Vec<E>),
    /// A nested block.
    Block(Block<E>),
}

/// A typed expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: DType,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind<E = Expr> {
    /// A constant.
    Lit(Value),
    /// A local.
    Local(LocalId),
    /// A by-value parameter (input element, scalar or index).
    Param(ParamId),
    /// `*y`: the current value of a `&mut` parameter.
    Deref(ParamId),
    /// A unary operation.
    Unary(UnOp, Box<E>),
    /// A binary operation (operands of one type, except shifts).
    Binary(BinOp, Box<E>, Box<E>),
    /// `x as ty` (the target is the expression's type).
    Cast(Box<E>),
    /// A builtin method; the receiver is the first argument.
    Call(Builtin, Vec<E>),
    /// A call of a helper instantiation.
    Helper(HelperRef, Vec<E>),
    /// `if cond { a } else { b }` as a value.
    If(Box<E>, Block<E>, Block<E>),
    /// A block with a value.
    Block(Block<E>),
    /// `a[[i, j]]`: an element of a view parameter or a work-group array of
    /// a grid kernel (one index per dimension, `u64`s).
    Load(Array, Vec<E>),
    /// `a.len(d)`: the size of dimension `d` of a view or array (`u64`).
    Len(Array, usize),
    /// `global_id(d)` and its kin: where the work-item is in the grid (`u64`).
    GridId(GridId, usize),
    /// `a.atomic_add([i, j], v)` and its kin: the operation done as one
    /// indivisible step on the element, whose old value it gives. The
    /// indices, then the operands (two for `compare_exchange`: the value
    /// expected, the new one).
    Atomic(AtomicOp, Array, Vec<E>, Vec<E>),
}

/// An atomic operation of grid kernels on an element of a view or array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum AtomicOp {
    /// `atomic_add`: integers (wrapping) and floats.
    Add,
    /// `atomic_sub` (integers, wrapping).
    Sub,
    /// `atomic_min` (integers).
    Min,
    /// `atomic_max` (integers).
    Max,
    /// `atomic_and` (integers).
    And,
    /// `atomic_or` (integers).
    Or,
    /// `atomic_xor` (integers).
    Xor,
    /// `atomic_exchange`: stores the operand (integers).
    Exchange,
    /// `atomic_compare_exchange(ix, expected, new)`: stores `new` where the
    /// element is `expected` (integers).
    CompareExchange,
}

impl AtomicOp {
    /// Every operation, by the method's name.
    pub const ALL: [(AtomicOp, &'static str); 9] = [
        (AtomicOp::Add, "atomic_add"),
        (AtomicOp::Sub, "atomic_sub"),
        (AtomicOp::Min, "atomic_min"),
        (AtomicOp::Max, "atomic_max"),
        (AtomicOp::And, "atomic_and"),
        (AtomicOp::Or, "atomic_or"),
        (AtomicOp::Xor, "atomic_xor"),
        (AtomicOp::Exchange, "atomic_exchange"),
        (AtomicOp::CompareExchange, "atomic_compare_exchange"),
    ];

    /// The operation named `name`.
    pub fn named(name: &str) -> Option<AtomicOp> {
        AtomicOp::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(o, _)| *o)
    }

    /// Its method's name.
    pub fn name(self) -> &'static str {
        AtomicOp::ALL
            .iter()
            .find(|(o, _)| *o == self)
            .map_or("", |(_, n)| n)
    }

    /// How many operands it takes.
    pub fn operands(self) -> usize {
        if self == AtomicOp::CompareExchange {
            2
        } else {
            1
        }
    }
}

/// What a grid kernel indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Array {
    /// A `View` or `ViewMut` parameter.
    View(ParamId),
    /// A work-group array ([`Function::arrays`](super::Function::arrays)).
    Local(usize),
}

/// The grid built-ins: where a work-item of a grid kernel is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridId {
    /// `global_id(d)`: the work-item's place in the whole grid.
    Global,
    /// `local_id(d)`: its place in its work-group.
    Local,
    /// `group_id(d)`: its work-group's place among the groups.
    Group,
    /// `num_groups(d)`: how many work-groups the grid has.
    NumGroups,
    /// `global_size(d)`: how many work-items the grid has (whole groups).
    GlobalSize,
}

impl GridId {
    /// Every grid built-in with its name.
    pub const ALL: [(GridId, &'static str); 5] = [
        (GridId::Global, "global_id"),
        (GridId::Local, "local_id"),
        (GridId::Group, "group_id"),
        (GridId::NumGroups, "num_groups"),
        (GridId::GlobalSize, "global_size"),
    ];

    /// Whether `name` is a built-in function of grid kernels (these or
    /// `barrier`), which calls never take for a helper.
    pub fn is_builtin(name: &str) -> bool {
        name == "barrier" || GridId::named(name).is_some()
    }

    /// The built-in named `name`.
    pub fn named(name: &str) -> Option<GridId> {
        GridId::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(g, _)| *g)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        GridId::ALL
            .iter()
            .find(|(g, _)| *g == self)
            .map_or("", |(_, n)| n)
    }
}

//! The typed IR: what the checker produces and every backend reads.
//!
//! A [`Kernel`] is a checked [`Function`] (its body: what one element computes,
//! with every expression typed and every literal a value of its type), the
//! `#[helper]` functions it calls, and the [`Entry`] template that says how
//! elements are assigned to work-items. Nothing here is specific to a backend:
//! names are as the user wrote them, and each backend spells them its own way.

mod flow;
mod function;
mod ops;
mod tree;
mod values;
mod walk;

pub use flow::{diverges, loop_breaks, Node};
pub use function::{Entry, Function, Grid, HelperFn, Kernel, Local, LocalArray, Param, Reduce};
pub use ops::{BinOp, ParamKind, UnOp};
pub use tree::{Array, AtomicOp, Block, Expr, ExprKind, GridId, Stmt};
pub use values::{HelperRef, LocalId, ParamId, Place, Value};
pub use walk::{walk_exprs, walk_stmts};

//! Control flow facts about blocks, for the checker (a body must end in a value
//! or diverge) and the definite-assignment check.

use super::tree::{Block, Expr, ExprKind, Stmt};

/// An expression node: the IR's [`Expr`], or the checker's node while types are
/// inferred.
pub trait Node: Sized {
    /// What the expression is.
    fn kind(&self) -> &ExprKind<Self>;
}

impl Node for Expr {
    fn kind(&self) -> &ExprKind {
        &self.kind
    }
}

/// Whether control never reaches the end of `b` (every path returns, breaks or
/// continues, or loops forever).
pub fn diverges<E: Node>(b: &Block<E>) -> bool {
    b.stmts.iter().any(stmt_diverges)
}

fn stmt_diverges<E: Node>(s: &Stmt<E>) -> bool {
    match s {
        Stmt::Return(_) | Stmt::Break | Stmt::Continue => true,
        Stmt::If(_, t, Some(e)) => diverges(t) && diverges(e),
        Stmt::Block(b) => diverges(b),
        Stmt::Loop(body) => !loop_breaks(body),
        _ => false,
    }
}

/// Whether a loop body can `break` out of this loop (not out of a nested one),
/// also from inside an expression (`let v = if c { break; } else { 1 };`).
pub fn loop_breaks<E: Node>(b: &Block<E>) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Break => true,
        Stmt::If(c, t, e) => {
            expr_breaks(c) || loop_breaks(t) || e.as_ref().is_some_and(loop_breaks)
        }
        Stmt::Block(b) => loop_breaks(b),
        Stmt::Let(_, Some(x)) | Stmt::Assign(_, _, x) | Stmt::Expr(x) | Stmt::LetCall(_, x) => {
            expr_breaks(x)
        }
        Stmt::Return(vs) => vs.iter().any(expr_breaks),
        // `while`/`for` conditions and ranges cannot break (checked), bodies are
        // nested loops
        _ => false,
    }) || b.tail.as_ref().is_some_and(|t| expr_breaks(&**t))
}

fn expr_breaks<E: Node>(e: &E) -> bool {
    match e.kind() {
        ExprKind::If(c, t, f) => expr_breaks(&**c) || loop_breaks(t) || loop_breaks(f),
        ExprKind::Block(b) => loop_breaks(b),
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => expr_breaks(&**x),
        ExprKind::Binary(_, l, r) => expr_breaks(&**l) || expr_breaks(&**r),
        ExprKind::Call(_, args) | ExprKind::Helper(_, args) => args.iter().any(expr_breaks),
        _ => false,
    }
}

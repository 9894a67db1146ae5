//! Walks over the IR: every statement, every expression, which types appear.

use super::function::{Entry, Function, Kernel};
use super::tree::{Block, Expr, ExprKind, Stmt};
use silt_abi::DType;

/// Calls `f` on every statement of `b`, nested ones included.
pub fn walk_stmts(b: &Block, f: &mut dyn FnMut(&Stmt)) {
    for s in &b.stmts {
        f(s);
        match s {
            Stmt::If(_, t, e) => {
                walk_stmts(t, f);
                if let Some(e) = e {
                    walk_stmts(e, f);
                }
            }
            Stmt::While(_, body) | Stmt::For(.., body) | Stmt::Loop(body) | Stmt::Block(body) => {
                walk_stmts(body, f);
            }
            _ => {}
        }
    }
}

/// Calls `f` on every expression of `b`, outer ones before those inside them.
pub fn walk_exprs(b: &Block, f: &mut dyn FnMut(&Expr)) {
    for s in &b.stmts {
        match s {
            Stmt::Let(_, Some(e)) | Stmt::Assign(_, _, e) | Stmt::Expr(e) | Stmt::LetCall(_, e) => {
                expr(e, f);
            }
            Stmt::If(c, t, e) => {
                expr(c, f);
                walk_exprs(t, f);
                if let Some(e) = e {
                    walk_exprs(e, f);
                }
            }
            Stmt::While(c, body) => {
                expr(c, f);
                walk_exprs(body, f);
            }
            Stmt::For(_, a, z, _, body) => {
                expr(a, f);
                expr(z, f);
                walk_exprs(body, f);
            }
            Stmt::Loop(body) | Stmt::Block(body) => walk_exprs(body, f),
            Stmt::Return(vs) => vs.iter().for_each(|v| expr(v, f)),
            Stmt::Store(_, ix, _, v) => {
                ix.iter().for_each(|i| expr(i, f));
                expr(v, f);
            }
            Stmt::Let(_, None) | Stmt::Break | Stmt::Continue | Stmt::Barrier(_) => {}
        }
    }
    if let Some(t) = &b.tail {
        expr(t, f);
    }
}

fn expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => expr(x, f),
        ExprKind::Binary(_, l, r) => {
            expr(l, f);
            expr(r, f);
        }
        ExprKind::Call(_, args) | ExprKind::Helper(_, args) | ExprKind::Load(_, args) => {
            args.iter().for_each(|a| expr(a, f));
        }
        ExprKind::Atomic(_, _, ix, ops) => ix.iter().chain(ops).for_each(|a| expr(a, f)),
        ExprKind::If(c, t, e) => {
            expr(c, f);
            walk_exprs(t, f);
            walk_exprs(e, f);
        }
        ExprKind::Block(b) => walk_exprs(b, f),
        ExprKind::Lit(_)
        | ExprKind::Local(_)
        | ExprKind::Param(_)
        | ExprKind::Deref(_)
        | ExprKind::Len(..)
        | ExprKind::GridId(..) => {}
    }
}

impl Function {
    /// Whether values of type `t` appear in this function: its instantiation,
    /// a parameter, an output, a local or any expression.
    pub fn uses(&self, t: DType) -> bool {
        let mut found = self.inst == Some(t)
            || self.params.iter().any(|p| p.ty == t)
            || self.outputs.contains(&t)
            || self.locals.iter().any(|l| l.ty == t);
        if !found {
            walk_exprs(&self.body, &mut |e| found |= e.ty == t);
        }
        found
    }
}

impl Kernel {
    /// Whether values of type `t` appear in the kernel, the other functions of
    /// its entry, or a helper it calls (`f64` needs `cl_khr_fp64` on OpenCL
    /// devices).
    pub fn uses(&self, t: DType) -> bool {
        let entry = match &self.entry {
            Entry::Map | Entry::Grid(_) => false,
            Entry::Reduce(r) | Entry::Scan(r) => {
                r.identity.uses(t) || r.combine.uses(t) || r.finish.uses(t)
            }
        };
        entry || self.func.uses(t) || self.helpers.iter().any(|h| h.func.uses(t))
    }
}

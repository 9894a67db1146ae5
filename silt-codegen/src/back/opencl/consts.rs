//! Which values are known when the program is compiled (some builtins of
//! such values are kept from the compiler, which folds a few of them wrongly).

use crate::ir::{walk_stmts, Expr, ExprKind, Function, Place, Stmt};

/// Whether each local of `k` only ever holds compile-time constants: every value
/// assigned to it is made of literals and such locals.
pub(super) fn const_locals(k: &Function) -> Vec<bool> {
    let mut konst = vec![true; k.locals.len()];
    loop {
        let mut changed = false;
        let mut visit = |s: &Stmt, konst: &mut Vec<bool>| {
            let (id, value) = match s {
                Stmt::Let(id, Some(v)) | Stmt::Assign(Place::Local(id), _, v) => (*id, v),
                Stmt::For(id, ..) => {
                    if konst[*id] {
                        konst[*id] = false;
                        changed = true;
                    }
                    return;
                }
                // written by a helper's body
                Stmt::LetCall(ids, _) => {
                    for &id in ids {
                        if konst[id] {
                            konst[id] = false;
                            changed = true;
                        }
                    }
                    return;
                }
                _ => return,
            };
            if konst[id] && !const_expr(value, konst) {
                konst[id] = false;
                changed = true;
            }
        };
        walk_stmts(&k.body, &mut |s| visit(s, &mut konst));
        if !changed {
            return konst;
        }
    }
}

/// Whether `e` is known when the program is compiled (literals, operations on
/// them, and locals that only hold such values).
pub(super) fn const_expr(e: &Expr, konst: &[bool]) -> bool {
    match &e.kind {
        ExprKind::Lit(_) => true,
        ExprKind::Local(id) => konst.get(*id).copied().unwrap_or(false),
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => const_expr(x, konst),
        ExprKind::Binary(_, a, b) => const_expr(a, konst) && const_expr(b, konst),
        ExprKind::Call(_, args) => args.iter().all(|a| const_expr(a, konst)),
        _ => false,
    }
}

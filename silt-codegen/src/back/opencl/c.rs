//! Facts of C syntax the emitter relies on: the precedence of operators, and
//! which expressions need statements written before them.

use crate::ir::{BinOp, Expr, ExprKind};

/// The precedence of a primary expression (name, literal, call, parenthesised).
pub(super) const PRIMARY: u8 = 16;
/// The precedence of C's unary operators and casts.
pub(super) const UNARY: u8 = 15;

/// C's precedence of a binary operator (higher binds tighter).
pub(super) fn precedence(op: BinOp) -> u8 {
    use BinOp as B;
    match op {
        B::Mul | B::Div | B::Rem => 13,
        B::Add | B::Sub => 12,
        B::Shl | B::Shr => 11,
        B::Lt | B::Le | B::Gt | B::Ge => 10,
        B::Eq | B::Ne => 9,
        B::BitAnd => 8,
        B::BitXor => 7,
        B::BitOr => 6,
        B::And => 5,
        B::Or => 4,
    }
}

/// Whether emitting `e` writes statements (an `if` or block used as a value).
pub(super) fn needs_hoist(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::If(..) | ExprKind::Block(_) => true,
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => needs_hoist(x),
        ExprKind::Binary(_, l, r) => needs_hoist(l) || needs_hoist(r),
        ExprKind::Call(_, args) | ExprKind::Helper(_, args) | ExprKind::Load(_, args) => {
            args.iter().any(needs_hoist)
        }
        ExprKind::Atomic(_, _, ix, ops) => ix.iter().chain(ops).any(needs_hoist),
        _ => false,
    }
}

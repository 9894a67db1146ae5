//! Barriers every work-item reaches: in a grid kernel, `barrier()` may not
//! sit under a condition or in a loop that depends on the work-item (its
//! `global_id` or `local_id`, or values it loaded), nor after a `return`
//! some work-items may have taken. A work-item that skips a barrier the
//! others wait at hangs the group on a GPU; silt refuses such a kernel at the
//! barrier's span.
//!
//! The analysis is conservative: a value is uniform across the work-group
//! when it is built from literals, `#[scalar]`s, view sizes, `group_id`,
//! `num_groups`, `global_size` and locals that only ever hold uniform values
//! under uniform control; everything else varies.

use proc_macro2::Span;

use crate::errors::Errors;
use crate::ir::{Block, Expr, ExprKind, Function, GridId, Place, Stmt};

/// Reports each barrier of `f` that not every work-item may reach.
pub fn check(f: &Function, errors: &mut Errors) {
    let mut a = Analysis {
        varying: vec![false; f.locals.len()],
        changed: false,
        left: false,
        bad: Vec::new(),
    };
    // which locals vary: until nothing changes
    loop {
        a.changed = false;
        a.left = false;
        a.block(&f.body, false);
        if !a.changed {
            break;
        }
    }
    a.bad.clear();
    a.left = false;
    a.block(&f.body, false);
    for span in a.bad {
        errors.push(
            span,
            "not every work-item of the group may reach this `barrier()`: it is under a condition or in a loop that depends on the work-item (its `global_id`, `local_id` or values it loaded), or after a `return` some work-items take; move it where every work-item of the group passes",
        );
    }
}

struct Analysis {
    /// Per local: whether it may hold different values in the work-items
    /// of a group.
    varying: Vec<bool>,
    changed: bool,
    /// Whether some work-items may have returned already.
    left: bool,
    /// The barriers not every work-item may reach.
    bad: Vec<Span>,
}

impl Analysis {
    fn vary(&mut self, id: usize) {
        if let Some(v) = self.varying.get_mut(id) {
            if !*v {
                *v = true;
                self.changed = true;
            }
        }
    }

    fn varies(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Lit(_) | ExprKind::Param(_) | ExprKind::Len(..) => false,
            ExprKind::Deref(_) | ExprKind::Load(..) | ExprKind::Atomic(..) => true,
            ExprKind::GridId(g, _) => matches!(g, GridId::Global | GridId::Local),
            ExprKind::Local(id) => self.varying.get(*id).copied().unwrap_or(true),
            ExprKind::Unary(_, x) | ExprKind::Cast(x) => self.varies(x),
            ExprKind::Binary(_, l, r) => self.varies(l) || self.varies(r),
            ExprKind::Call(_, args) | ExprKind::Helper(_, args) => {
                args.iter().any(|a| self.varies(a))
            }
            ExprKind::If(c, t, f) => self.varies(c) || self.block_varies(t) || self.block_varies(f),
            ExprKind::Block(b) => self.block_varies(b),
        }
    }

    /// Whether a block's statements or value may differ between work-items
    /// (conservatively: any expression in it varies).
    fn block_varies(&self, b: &Block) -> bool {
        let mut any = false;
        crate::ir::walk_exprs(b, &mut |e| any |= self.varies(e));
        any
    }

    /// Whether `body` (a loop's) may end an iteration or the loop early in
    /// some work-items only: a `break`, `continue` or `return` under a
    /// condition that varies.
    fn exits_apart(&self, body: &Block, ctl: bool) -> bool {
        body.stmts.iter().any(|s| match s {
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => ctl,
            Stmt::If(c, t, f) => {
                let ctl = ctl || self.varies(c);
                self.exits_apart(t, ctl) || f.as_ref().is_some_and(|f| self.exits_apart(f, ctl))
            }
            Stmt::Block(b) => self.exits_apart(b, ctl),
            // a nested loop's `break` is its own; a `return` in it is not
            Stmt::While(..) | Stmt::For(..) | Stmt::Loop(_) => {
                let mut ret = false;
                crate::ir::walk_stmts(
                    &Block {
                        stmts: vec![s.clone()],
                        tail: None,
                    },
                    &mut |x| {
                        ret |= matches!(x, Stmt::Return(_));
                    },
                );
                ret && (ctl
                    || self.block_varies(&Block {
                        stmts: vec![s.clone()],
                        tail: None,
                    }))
            }
            _ => false,
        })
    }

    /// Walks `b`; `ctl` says whether the work-items may differ on whether
    /// they run it.
    fn block(&mut self, b: &Block, ctl: bool) {
        for s in &b.stmts {
            self.stmt(s, ctl);
        }
    }

    fn stmt(&mut self, s: &Stmt, ctl: bool) {
        match s {
            Stmt::Let(id, init) => {
                if ctl || init.as_ref().is_some_and(|e| self.varies(e)) {
                    self.vary(*id);
                }
            }
            Stmt::LetCall(ids, call) => {
                if ctl || self.varies(call) {
                    for id in ids {
                        self.vary(*id);
                    }
                }
            }
            Stmt::Assign(place, _, v) => {
                if let Place::Local(id) = place {
                    if ctl || self.varies(v) {
                        self.vary(*id);
                    }
                }
            }
            Stmt::Store(..) | Stmt::Expr(_) | Stmt::Break | Stmt::Continue => {}
            Stmt::Barrier(span) => {
                let at = |s: &Span| (s.start().line, s.start().column, format!("{s:?}"));
                if (ctl || self.left) && !self.bad.iter().any(|b| at(b) == at(span)) {
                    self.bad.push(*span);
                }
            }
            Stmt::Return(_) => {
                if ctl {
                    self.left = true;
                }
            }
            Stmt::If(c, t, f) => {
                let inner = ctl || self.varies(c);
                self.block(t, inner);
                if let Some(f) = f {
                    self.block(f, inner);
                }
            }
            Stmt::While(c, body) => {
                let inner = ctl || self.varies(c) || self.exits_apart(body, false);
                self.block(body, inner);
                // a condition that a later iteration makes vary
                let inner = inner || self.varies(c);
                self.block(body, inner);
            }
            Stmt::For(id, a, z, _, body) => {
                let inner =
                    ctl || self.varies(a) || self.varies(z) || self.exits_apart(body, false);
                if inner {
                    self.vary(*id);
                }
                self.block(body, inner);
            }
            Stmt::Loop(body) => {
                let inner = ctl || self.exits_apart(body, false);
                self.block(body, inner);
            }
            Stmt::Block(body) => self.block(body, ctl),
        }
    }
}

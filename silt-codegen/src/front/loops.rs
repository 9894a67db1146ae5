//! `loop`s with a value: `let v = loop { .. break x; .. };` becomes a block
//! that declares a temporary, runs the loop (each `break x` assigns `x` to
//! the temporary, then breaks) and gives the temporary.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::body::{LoopValue, Lower};
use super::syntax::{Block, Expr, ExprKind, Stmt};

impl Lower<'_> {
    /// `loop { .. }`, with a value where a `break` of it gives one.
    pub(super) fn loop_expr(&mut self, l: &syn::ExprLoop, span: Span) -> ExprKind {
        if let Some(l) = &l.label {
            self.errors.push(l.span(), "loop labels are not supported");
        }
        self.matches += 1;
        self.loops.push(Some(LoopValue {
            var: syn::Ident::new(&format!("__silt_loop_{}", self.matches), l.loop_token.span),
            valued: false,
            plain: None,
        }));
        let body = self.block(&l.body);
        match self.loops.pop().flatten() {
            // `break value`: each break assigns the temporary, which
            // is the loop's value
            Some(LoopValue {
                var,
                valued: true,
                plain,
            }) => {
                if let Some(p) = plain {
                    self.errors.push(
                        p,
                        "this `loop` gives a value: every `break` of it needs one",
                    );
                }
                let loop_stmt = Stmt::Expr(Expr {
                    kind: ExprKind::Loop(body),
                    span,
                });
                let declare = Stmt::Let {
                    name: var.clone(),
                    mutable: true,
                    ty: None,
                    init: None,
                };
                ExprKind::Block(Block {
                    stmts: vec![declare, loop_stmt],
                    tail: Some(Box::new(Expr {
                        kind: ExprKind::Var(var),
                        span,
                    })),
                    span,
                })
            }
            _ => ExprKind::Loop(body),
        }
    }

    /// `break` and `break value` (of the innermost loop, a `loop`).
    pub(super) fn break_expr(&mut self, b: &syn::ExprBreak, span: Span) -> ExprKind {
        if let Some(l) = &b.label {
            self.errors.push(l.span(), "loop labels are not supported");
        }
        match (&b.expr, self.loops.last_mut()) {
            (Some(v), Some(Some(lv))) => {
                lv.valued = true;
                let var = lv.var.clone();
                let value = self.expr(v);
                let assign = Expr {
                    kind: ExprKind::Assign(
                        Box::new(Expr {
                            kind: ExprKind::Var(var),
                            span,
                        }),
                        None,
                        Box::new(value),
                    ),
                    span,
                };
                ExprKind::Block(Block {
                    stmts: vec![Stmt::Expr(assign)],
                    tail: Some(Box::new(Expr {
                        kind: ExprKind::Break,
                        span,
                    })),
                    span,
                })
            }
            (Some(v), _) => {
                self.errors.push(
                    v.span(),
                    "`break` with a value only leaves a `loop` (not a `while` or `for`)",
                );
                ExprKind::Break
            }
            (None, Some(Some(lv))) => {
                lv.plain.get_or_insert(span);
                ExprKind::Break
            }
            (None, _) => ExprKind::Break,
        }
    }
}

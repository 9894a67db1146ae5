//! Loops' exits beyond a plain `break` and `continue`, lowered to what the
//! rest of silt already knows:
//!
//! - `let v = loop { .. break x; .. };`: a block that declares a temporary,
//!   runs the loop (each `break x` assigns `x` to the temporary, then breaks)
//!   and gives the temporary;
//! - `break 'outer` and `continue 'outer` from a nested loop: a flag of the
//!   labelled loop (declared before it) is set and the innermost loop left;
//!   after each loop on the way out, the flag is tested: `break` out of the
//!   next loop, and at the labelled one `break`, or clear it and `continue`.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::body::{LoopFrame, LoopValue, Lower};
use super::syntax::{BinOp, Block, Expr, ExprKind, Lit, Stmt};

impl Lower<'_> {
    /// Enters a loop, labelled `label`; a `loop` (`is_loop`) may have a value.
    pub(super) fn enter_loop(&mut self, label: Option<&syn::Label>, is_loop: bool, span: Span) {
        self.loop_ids += 1;
        let id = self.loop_ids;
        self.loops.push(LoopFrame {
            id,
            label: label.map(|l| l.name.ident.to_string()),
            value: is_loop.then(|| LoopValue {
                var: syn::Ident::new(&format!("__silt_loop_{id}"), span),
                valued: false,
                plain: None,
            }),
            leaves: Vec::new(),
            breaks_in: false,
            continues_in: false,
        });
    }

    /// Leaves the loop entered last, lowered to `kind`: with its value, the
    /// flags of the labelled exits to it declared before it, and after it the
    /// tests of the labelled exits through it to outer loops.
    pub(super) fn leave_loop(&mut self, kind: ExprKind, span: Span) -> ExprKind {
        let Some(frame) = self.loops.pop() else {
            return kind;
        };
        let value = frame.value.filter(|v| v.valued);
        if value.is_none() && !frame.breaks_in && !frame.continues_in && frame.leaves.is_empty() {
            return kind;
        }
        let mut stmts = Vec::new();
        let [brk, cont] = flags(frame.id, span);
        for (used, flag) in [(frame.breaks_in, &brk), (frame.continues_in, &cont)] {
            if used {
                stmts.push(Stmt::Let {
                    name: flag.clone(),
                    mutable: true,
                    ty: None,
                    init: Some(lit(Lit::Bool(false), span)),
                });
            }
        }
        let mut tail = None;
        if let Some(v) = value {
            if let Some(p) = v.plain {
                self.errors.push(
                    p,
                    "this `loop` gives a value: every `break` of it needs one",
                );
            }
            if !frame.leaves.is_empty() {
                self.errors.push(
                    span,
                    "a `loop` with a value cannot be left by a labelled `break` or `continue` of an outer loop",
                );
            }
            stmts.push(Stmt::Let {
                name: v.var.clone(),
                mutable: true,
                ty: None,
                init: None,
            });
            tail = Some(Box::new(var(v.var)));
        }
        stmts.push(Stmt::Expr(Expr { kind, span }));
        for target in frame.leaves {
            let Some(t) = self.loops.iter().find(|f| f.id == target) else {
                continue;
            };
            let [b, c] = flags(target, span);
            let direct = self.loops.last().is_some_and(|f| f.id == target);
            if direct {
                // at the labelled loop: its own `break`, or `continue`
                if t.breaks_in {
                    stmts.push(if_then(var(b), vec![], ExprKind::Break, span));
                }
                if t.continues_in {
                    let clear = Stmt::Expr(assign(c.clone(), Lit::Bool(false), span));
                    stmts.push(if_then(var(c), vec![clear], ExprKind::Continue, span));
                }
            } else {
                // on the way: out of the next loop
                let test = match (t.breaks_in, t.continues_in) {
                    (true, true) => Expr {
                        kind: ExprKind::Binary(BinOp::Or, Box::new(var(b)), Box::new(var(c))),
                        span,
                    },
                    (true, false) => var(b),
                    _ => var(c),
                };
                stmts.push(if_then(test, vec![], ExprKind::Break, span));
            }
        }
        ExprKind::Block(Block { stmts, tail, span })
    }

    /// `break` and `continue` (`is_break` false), labelled or not, `break`
    /// with a value.
    pub(super) fn exit_expr(
        &mut self,
        label: Option<&syn::Lifetime>,
        value: Option<&syn::Expr>,
        is_break: bool,
        span: Span,
    ) -> ExprKind {
        let plain = if is_break {
            ExprKind::Break
        } else {
            ExprKind::Continue
        };
        let target = match label {
            None => self.loops.len().checked_sub(1),
            Some(l) => {
                let name = l.ident.to_string();
                match self
                    .loops
                    .iter()
                    .rposition(|f| f.label.as_deref() == Some(name.as_str()))
                {
                    Some(i) => Some(i),
                    None => {
                        self.errors.push(
                            l.span(),
                            format!("no loop around this one is labelled `'{name}`"),
                        );
                        return plain;
                    }
                }
            }
        };
        // outside every loop: the checker says so
        let Some(t) = target else { return plain };
        let top = self.loops.len() - 1;
        if let Some(v) = value {
            if t != top {
                self.errors.push(
                    v.span(),
                    "a `break` with a value from a nested loop is not supported: assign a `let mut` declared before the loops, then `break 'label`",
                );
                return plain;
            }
            let Some(lv) = self.loops[t].value.as_mut() else {
                self.errors.push(
                    v.span(),
                    "`break` with a value only leaves a `loop` (not a `while` or `for`)",
                );
                return plain;
            };
            lv.valued = true;
            let temp = lv.var.clone();
            let value = self.expr(v);
            let assign = Expr {
                kind: ExprKind::Assign(Box::new(var(temp)), None, Box::new(value)),
                span,
            };
            return exit_block(vec![Stmt::Expr(assign)], ExprKind::Break, span);
        }
        let frame = &mut self.loops[t];
        if is_break {
            if let Some(lv) = frame.value.as_mut() {
                lv.plain.get_or_insert(span);
            }
        }
        if t == top {
            return plain;
        }
        // from a nested loop: the labelled loop's flag, then out of this one
        let id = frame.id;
        if is_break {
            frame.breaks_in = true;
        } else {
            frame.continues_in = true;
        }
        for f in &mut self.loops[t + 1..] {
            if !f.leaves.contains(&id) {
                f.leaves.push(id);
            }
        }
        let [b, c] = flags(id, span);
        let flag = if is_break { b } else { c };
        exit_block(
            vec![Stmt::Expr(assign(flag, Lit::Bool(true), span))],
            ExprKind::Break,
            span,
        )
    }
}

/// The flags of loop `id`'s labelled `break` and `continue` from nested
/// loops.
fn flags(id: usize, span: Span) -> [syn::Ident; 2] {
    [
        syn::Ident::new(&format!("{BREAK_FLAG}{id}"), span),
        syn::Ident::new(&format!("{CONTINUE_FLAG}{id}"), span),
    ]
}

const BREAK_FLAG: &str = "__silt_break_";
const CONTINUE_FLAG: &str = "__silt_continue_";

/// Which flag of a labelled exit a local is (definite assignment follows
/// them: `flags`' locals are declared just before their loop, set just
/// before a `break`, and tested just after each loop on the way out).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LabelFlag {
    /// `break 'label` from a nested loop.
    Break,
    /// `continue 'label` from a nested loop.
    Continue,
}

impl LabelFlag {
    /// The flag a local of this name is, if any.
    pub(crate) fn of(name: &str) -> Option<LabelFlag> {
        let numbered = |rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
        if name.strip_prefix(BREAK_FLAG).is_some_and(numbered) {
            Some(LabelFlag::Break)
        } else if name.strip_prefix(CONTINUE_FLAG).is_some_and(numbered) {
            Some(LabelFlag::Continue)
        } else {
            None
        }
    }
}

fn var(name: syn::Ident) -> Expr {
    Expr {
        span: name.span(),
        kind: ExprKind::Var(name),
    }
}

fn lit(l: Lit, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Lit(l),
        span,
    }
}

/// `name = l`.
fn assign(name: syn::Ident, l: Lit, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Assign(Box::new(var(name)), None, Box::new(lit(l, span))),
        span,
    }
}

/// `{ stmts; exit }`: a block that leaves its loop (`break`, `continue`).
fn exit_block(stmts: Vec<Stmt>, exit: ExprKind, span: Span) -> ExprKind {
    ExprKind::Block(Block {
        stmts,
        tail: Some(Box::new(Expr { kind: exit, span })),
        span,
    })
}

/// `if cond { stmts; exit }` as a statement.
fn if_then(cond: Expr, stmts: Vec<Stmt>, exit: ExprKind, span: Span) -> Stmt {
    let block = Block {
        stmts,
        tail: Some(Box::new(Expr { kind: exit, span })),
        span,
    };
    Stmt::Expr(Expr {
        kind: ExprKind::If(Box::new(cond), block, None),
        span,
    })
}

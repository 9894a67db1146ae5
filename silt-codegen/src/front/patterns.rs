//! `match`, lowered to what the rest of silt already knows: a block that binds
//! the scrutinee once and tests the arms in order with `if` / `else if` (a
//! pattern's test is `==` and range comparisons, its bindings `let`s in the
//! arm).

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::body::Lower;
use super::syntax::{BinOp, Block, Expr, ExprKind, Lit, Stmt};

/// What a pattern tests and binds.
struct Pattern {
    /// The test on the scrutinee (`None`: always matches).
    test: Option<Expr>,
    /// The names bound to the scrutinee.
    binds: Vec<syn::Ident>,
    /// The `bool` values it matches, when it is made of `true`/`false` alone.
    bools: Option<[bool; 2]>,
}

impl Lower<'_> {
    /// `match scrutinee { arms }`.
    pub(super) fn match_expr(&mut self, m: &syn::ExprMatch) -> ExprKind {
        let span = m.span();
        self.matches += 1;
        let var = syn::Ident::new(
            &format!("__silt_match_{}", self.matches),
            m.match_token.span,
        );
        let scrutinee = self.expr(&m.expr);
        let mut arms = Vec::new();
        let mut covered = [false, false];
        let mut exhaustive = false;
        let mut failed = false;
        for arm in &m.arms {
            if exhaustive {
                self.errors.push(
                    arm.pat.span(),
                    "unreachable arm: an earlier arm matches every value",
                );
                continue;
            }
            let Some(p) = self.pattern(&arm.pat, &var) else {
                // reported; the arm may have been the one that covered the rest
                failed = true;
                continue;
            };
            let guard = arm.guard.as_ref().map(|(_, g)| self.expr(g));
            if guard.is_none() {
                if p.test.is_none() {
                    exhaustive = true;
                }
                if let Some([f, t]) = p.bools {
                    covered = [covered[0] || f, covered[1] || t];
                    exhaustive |= covered == [true, true];
                }
            }
            let body = self.arm_body(&arm.body, &p.binds, &var);
            let bind = |b: &[syn::Ident], e: Expr| -> Expr {
                // a guard sees the arm's bindings
                let stmts = b.iter().map(|n| let_var(n, &var)).collect();
                let span = e.span;
                Expr {
                    kind: ExprKind::Block(Block {
                        stmts,
                        tail: Some(Box::new(e)),
                        span,
                    }),
                    span,
                }
            };
            let test = match (p.test, guard) {
                (t, None) => t,
                (None, Some(g)) => Some(bind(&p.binds, g)),
                (Some(t), Some(g)) => Some(binary(BinOp::And, t, bind(&p.binds, g))),
            };
            arms.push((test, body));
        }
        if !exhaustive && !failed && !m.arms.is_empty() {
            self.errors.push(
                m.brace_token.span.close(),
                "this `match` does not cover every value: end it with `_ => ...` (or cover both `true` and `false`)",
            );
        }
        if m.arms.is_empty() {
            self.errors
                .push(span, "a `match` needs at least one arm (`_ => ...`)");
        }
        // the last arm is the final `else`: every value that reaches it matches
        let last = arms.len().saturating_sub(1);
        let mut chain: Option<Expr> = None;
        for (i, (test, body)) in arms.into_iter().enumerate().rev() {
            let span = body.span;
            chain = Some(match test {
                Some(t) if i != last => Expr {
                    kind: ExprKind::If(Box::new(t), body, chain.map(Box::new)),
                    span,
                },
                _ => Expr {
                    kind: ExprKind::Block(body),
                    span,
                },
            });
        }
        ExprKind::Block(Block {
            stmts: vec![Stmt::Let {
                name: var,
                mutable: false,
                ty: None,
                init: Some(scrutinee),
            }],
            tail: chain.map(Box::new),
            span,
        })
    }

    /// An arm's body, with the pattern's bindings first.
    fn arm_body(&mut self, body: &syn::Expr, binds: &[syn::Ident], var: &syn::Ident) -> Block {
        let lets = binds.iter().map(|n| let_var(n, var));
        match body {
            syn::Expr::Block(b) if b.label.is_none() => {
                let mut block = self.block(&b.block);
                block.stmts.splice(0..0, lets);
                block
            }
            other => {
                let e = self.expr(other);
                Block {
                    stmts: lets.collect(),
                    span: e.span,
                    tail: Some(Box::new(e)),
                }
            }
        }
    }

    /// What `pat` tests of `var` and binds.
    fn pattern(&mut self, pat: &syn::Pat, var: &syn::Ident) -> Option<Pattern> {
        let span = pat.span();
        let scrutinee = || Expr {
            kind: ExprKind::Var(var.clone()),
            span,
        };
        match pat {
            syn::Pat::Wild(_) => Some(Pattern {
                test: None,
                binds: Vec::new(),
                bools: None,
            }),
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.mutability.is_none() => {
                let mut p = match &pi.subpat {
                    Some((_, sub)) => self.pattern(sub, var)?,
                    None => Pattern {
                        test: None,
                        binds: Vec::new(),
                        bools: None,
                    },
                };
                p.binds.push(pi.ident.clone());
                Some(p)
            }
            syn::Pat::Lit(l) => {
                let value = self.pattern_lit(&syn::Expr::Lit(l.clone()))?;
                let bools = match value.kind {
                    ExprKind::Lit(Lit::Bool(b)) => Some([!b, b]),
                    _ => None,
                };
                Some(Pattern {
                    test: Some(binary(BinOp::Eq, scrutinee(), value)),
                    binds: Vec::new(),
                    bools,
                })
            }
            syn::Pat::Range(r) => {
                let mut test = None;
                if let Some(lo) = &r.start {
                    let lo = self.pattern_lit(lo)?;
                    test = Some(binary(BinOp::Ge, scrutinee(), lo));
                }
                if let Some(hi) = &r.end {
                    let hi = self.pattern_lit(hi)?;
                    let op = match r.limits {
                        syn::RangeLimits::Closed(_) => BinOp::Le,
                        syn::RangeLimits::HalfOpen(_) => BinOp::Lt,
                    };
                    let t = binary(op, scrutinee(), hi);
                    test = Some(match test {
                        Some(lo) => binary(BinOp::And, lo, t),
                        None => t,
                    });
                }
                Some(Pattern {
                    test,
                    binds: Vec::new(),
                    bools: None,
                })
            }
            syn::Pat::Or(o) => {
                let mut test: Option<Expr> = None;
                let mut always = false;
                let mut bools = Some([false, false]);
                for case in &o.cases {
                    let p = self.pattern(case, var)?;
                    if !p.binds.is_empty() {
                        self.errors.push(
                            case.span(),
                            "names cannot be bound inside `|` patterns: bind the whole value (`n @ (1 | 2)`)",
                        );
                        return None;
                    }
                    bools = match (bools, p.bools) {
                        (Some([a, b]), Some([c, d])) => Some([a || c, b || d]),
                        _ => None,
                    };
                    match p.test {
                        None => always = true,
                        Some(t) => {
                            test = Some(match test {
                                Some(prev) => binary(BinOp::Or, prev, t),
                                None => t,
                            });
                        }
                    }
                }
                Some(Pattern {
                    test: if always { None } else { test },
                    binds: Vec::new(),
                    bools,
                })
            }
            syn::Pat::Paren(p) => self.pattern(&p.pat, var),
            _ => {
                self.errors.push(
                    span,
                    "unsupported pattern: `match` takes integer and `bool` literals, ranges (`1..=9`), `|`, `_`, names and `name @ pattern`",
                );
                None
            }
        }
    }

    /// A literal in a pattern (an integer, possibly negative, or a `bool`).
    fn pattern_lit(&mut self, e: &syn::Expr) -> Option<Expr> {
        let v = self.expr(e);
        match &v.kind {
            ExprKind::Lit(Lit::Int(..) | Lit::Bool(_)) => Some(v),
            _ => {
                self.errors.push(
                    e.span(),
                    "a pattern compares with an integer or `bool` literal (floats cannot be matched: compare with `if`)",
                );
                None
            }
        }
    }
}

/// `let name = var;`
fn let_var(name: &syn::Ident, var: &syn::Ident) -> Stmt {
    Stmt::Let {
        name: name.clone(),
        mutable: false,
        ty: None,
        init: Some(Expr {
            kind: ExprKind::Var(var.clone()),
            span: name.span(),
        }),
    }
}

fn binary(op: BinOp, l: Expr, r: Expr) -> Expr {
    let span: Span = l.span;
    Expr {
        kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
        span,
    }
}

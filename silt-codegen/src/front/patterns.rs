//! `match` and `let (a, b) = ...`, lowered to what the rest of silt already
//! knows: a `match` becomes a block that binds the scrutinee once and tests
//! the arms in order with `if` / `else if` (a pattern's test is `==` and range
//! comparisons, its bindings `let`s in the arm); a tuple `let` becomes one
//! `let` per name (a call with several results one `LetCall`), all values
//! computed before any is bound; a tuple from an `if`, `match` or block, and a
//! destructuring assignment (`(a, b) = (b, a)`), go through temporaries
//! assigned in the branches.

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

    /// `let (a, b, ..) = (x, y, ..);`, `let (a, _) = f(x);` and their nestings
    /// (`let ((a, b), c) = (f(x), y);`): every value in order (each call with
    /// several results a [`Stmt::LetCall`]), then every name.
    pub(super) fn let_tuple(&mut self, t: &syn::PatTuple, init: Option<&syn::Expr>) -> Vec<Stmt> {
        let Some(pat) = self.let_pattern(&syn::Pat::Tuple(t.clone())) else {
            return Vec::new();
        };
        let Some(init) = init else {
            self.errors.push(
                t.span(),
                "a tuple `let` needs a value: `let (a, b) = (x, y);`",
            );
            return Vec::new();
        };
        self.matches += 1;
        let mut d = Destructure {
            n: self.matches,
            temps: 0,
            values: Vec::new(),
            binds: Vec::new(),
        };
        if !self.destructure(&pat, init, &mut d) {
            return Vec::new();
        }
        d.values.extend(d.binds);
        d.values
    }

    /// A `let` pattern: names (`mut` allowed), `_`, tuples of them.
    fn let_pattern(&mut self, p: &syn::Pat) -> Option<LetPat> {
        match p {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                Some(LetPat::Name(pi.ident.clone(), pi.mutability.is_some()))
            }
            syn::Pat::Wild(_) => Some(LetPat::Wild),
            syn::Pat::Paren(inner) => self.let_pattern(&inner.pat),
            syn::Pat::Tuple(t) => {
                let elems: Option<Vec<LetPat>> =
                    t.elems.iter().map(|e| self.let_pattern(e)).collect();
                Some(LetPat::Tuple(elems?, t.span()))
            }
            other => {
                self.errors.push(
                    other.span(),
                    "a tuple `let` binds names, `_` and tuples of them: `let (a, mut b) = (x, y);`",
                );
                None
            }
        }
    }

    /// Lowers `pat = value` into `d`; `false` once an error is reported.
    fn destructure(&mut self, pat: &LetPat, value: &syn::Expr, d: &mut Destructure) -> bool {
        let elems = match (pat, value) {
            (_, syn::Expr::Paren(p)) => return self.destructure(pat, &p.expr, d),
            (LetPat::Tuple(elems, _), syn::Expr::Tuple(values)) => {
                if values.elems.len() != elems.len() {
                    self.errors.push(
                        value.span(),
                        format!(
                            "{} names bound to {} values",
                            elems.len(),
                            values.elems.len()
                        ),
                    );
                    return false;
                }
                return elems
                    .iter()
                    .zip(&values.elems)
                    .all(|(p, v)| self.destructure(p, v, d));
            }
            (LetPat::Tuple(elems, _), syn::Expr::Call(_)) => elems,
            (LetPat::Tuple(..), other) => {
                // an `if`, `match` or block that ends in tuples: each name's
                // temporary declared first, assigned in the branches
                let target = self.let_target(pat, d);
                let value = self.expr(other);
                return match self.fill(&target, value, d) {
                    Some(e) => {
                        d.values.push(Stmt::Expr(e));
                        true
                    }
                    None => false,
                };
            }
            (LetPat::Name(name, mutable), _) => {
                let tmp = d.temp(value.span());
                d.values
                    .push(let_stmt(tmp.clone(), false, self.expr(value)));
                d.binds
                    .push(let_stmt(name.clone(), *mutable, var_expr(tmp)));
                return true;
            }
            (LetPat::Wild, syn::Expr::Call(_)) => {
                // a call whose results are all dropped, however many
                let call = self.expr(value);
                d.values.push(Stmt::LetCall {
                    names: Vec::new(),
                    call,
                });
                return true;
            }
            (LetPat::Wild, _) => {
                // evaluated all the same, as Rust does
                let tmp = d.temp(value.span());
                d.values.push(let_stmt(tmp, false, self.expr(value)));
                return true;
            }
        };
        // a call's values, each to a temporary, then to its name
        let mut names = Vec::new();
        for p in elems {
            match p {
                LetPat::Name(name, mutable) => {
                    let tmp = d.temp(name.span());
                    names.push(Some((tmp.clone(), false)));
                    d.binds
                        .push(let_stmt(name.clone(), *mutable, var_expr(tmp)));
                }
                LetPat::Wild => names.push(None),
                LetPat::Tuple(_, span) => {
                    self.errors.push(
                        *span,
                        "a call returns its values side by side: bind each to a name or `_` (`let (a, b) = f(x);`)",
                    );
                    return false;
                }
            }
        }
        let call = self.expr(value);
        d.values.push(Stmt::LetCall { names, call });
        true
    }

    /// `(a, b) = value;`, `(*p, (c, _)) = f(x);`, `_ = value;`: Rust's
    /// destructuring assignment. Every value goes to a temporary first (as a
    /// tuple `let` would bind it), then each place is assigned, left to
    /// right: `(a, b) = (b, a)` swaps.
    pub(super) fn assign_tuple(&mut self, a: &syn::ExprAssign) -> ExprKind {
        self.matches += 1;
        let mut d = Destructure {
            n: self.matches,
            temps: 0,
            values: Vec::new(),
            binds: Vec::new(),
        };
        let target = self.assign_target(&a.left, &mut d);
        let value = self.expr(&a.right);
        let mut stmts = Vec::new();
        if let Some(e) = self.fill(&target, value, &mut d) {
            stmts = d.values;
            stmts.push(Stmt::Expr(e));
            stmts.extend(d.binds);
        }
        ExprKind::Block(Block {
            stmts,
            tail: None,
            span: a.span(),
        })
    }

    /// The temporaries of a destructuring assignment's places: each declared
    /// (in `d.values`) and assigned to its place (in `d.binds`).
    fn assign_target(&mut self, place: &syn::Expr, d: &mut Destructure) -> Target {
        match place {
            syn::Expr::Infer(_) => Target::Leaf(None),
            syn::Expr::Paren(p) => self.assign_target(&p.expr, d),
            syn::Expr::Tuple(t) => Target::Tuple(
                t.elems.iter().map(|e| self.assign_target(e, d)).collect(),
                t.span(),
            ),
            other => {
                let place = self.expr(other);
                let tmp = d.temp(other.span());
                d.values.push(declare(tmp.clone()));
                d.binds
                    .push(Stmt::Expr(assign_expr(place, var_expr(tmp.clone()))));
                Target::Leaf(Some(tmp))
            }
        }
    }

    /// The temporaries of a tuple `let`'s names: each declared (in
    /// `d.values`) and bound to its name (in `d.binds`).
    fn let_target(&mut self, pat: &LetPat, d: &mut Destructure) -> Target {
        match pat {
            LetPat::Name(name, mutable) => {
                let tmp = d.temp(name.span());
                d.values.push(declare(tmp.clone()));
                d.binds
                    .push(let_stmt(name.clone(), *mutable, var_expr(tmp.clone())));
                Target::Leaf(Some(tmp))
            }
            LetPat::Wild => Target::Leaf(None),
            LetPat::Tuple(elems, span) => {
                Target::Tuple(elems.iter().map(|p| self.let_target(p, d)).collect(), *span)
            }
        }
    }

    /// `value` (lowered) as a statement that writes its values to the
    /// temporaries of `target` (`_` evaluates and drops): a tuple's in
    /// order, a call's results side by side, an `if`'s, a block's or a
    /// `match`'s (a block of `if`s) from the tuple each branch ends with; a
    /// branch that returns, breaks or continues writes nothing. `None` once
    /// an error is reported.
    fn fill(&mut self, target: &Target, value: Expr, d: &mut Destructure) -> Option<Expr> {
        let span = value.span;
        let block = |stmts: Vec<Stmt>| Expr {
            kind: ExprKind::Block(Block {
                stmts,
                tail: None,
                span,
            }),
            span,
        };
        match (target, value.kind) {
            (_, kind @ (ExprKind::Return(_) | ExprKind::Break | ExprKind::Continue)) => {
                Some(Expr { kind, span })
            }
            (Target::Leaf(Some(tmp)), kind) => {
                Some(assign_expr(var_expr(tmp.clone()), Expr { kind, span }))
            }
            (Target::Tuple(targets, _), ExprKind::Tuple(values)) => {
                if targets.len() != values.len() {
                    self.errors.push(
                        span,
                        format!("{} names bound to {} values", targets.len(), values.len()),
                    );
                    return None;
                }
                let stmts = targets
                    .iter()
                    .zip(values)
                    .map(|(t, v)| self.fill(t, v, d).map(Stmt::Expr))
                    .collect::<Option<Vec<_>>>()?;
                Some(block(stmts))
            }
            (Target::Leaf(None), ExprKind::Tuple(values)) => {
                let stmts = values
                    .into_iter()
                    .map(|v| self.fill(&Target::Leaf(None), v, d).map(Stmt::Expr))
                    .collect::<Option<Vec<_>>>()?;
                Some(block(stmts))
            }
            (Target::Leaf(None), kind @ ExprKind::Call(..)) => Some(block(vec![Stmt::LetCall {
                // every result dropped, however many
                names: Vec::new(),
                call: Expr { kind, span },
            }])),
            (Target::Tuple(targets, _), kind @ ExprKind::Call(..)) => {
                let (mut names, mut moves) = (Vec::new(), Vec::new());
                for t in targets {
                    match t {
                        Target::Leaf(Some(tmp)) => {
                            let result = d.temp(tmp.span());
                            names.push(Some((result.clone(), false)));
                            moves.push(Stmt::Expr(assign_expr(
                                var_expr(tmp.clone()),
                                var_expr(result),
                            )));
                        }
                        Target::Leaf(None) => names.push(None),
                        Target::Tuple(_, s) => {
                            self.errors.push(
                                *s,
                                "a call returns its values side by side: bind each to a name or `_` (`let (a, b) = f(x);`)",
                            );
                            return None;
                        }
                    }
                }
                let mut stmts = vec![Stmt::LetCall {
                    names,
                    call: Expr { kind, span },
                }];
                stmts.extend(moves);
                Some(block(stmts))
            }
            (t, ExprKind::If(cond, then, els)) => {
                let then = self.fill_block(t, then, d)?;
                let els = match els {
                    Some(e) => Some(Box::new(self.fill(t, *e, d)?)),
                    None if matches!(t, Target::Leaf(None)) => None,
                    None => {
                        self.errors.push(
                            span,
                            "an `if` that gives a tuple needs an `else` that gives one too",
                        );
                        return None;
                    }
                };
                Some(Expr {
                    kind: ExprKind::If(cond, then, els),
                    span,
                })
            }
            (t, ExprKind::Block(b)) => Some(Expr {
                kind: ExprKind::Block(self.fill_block(t, b, d)?),
                span,
            }),
            // evaluated all the same, as Rust does
            (Target::Leaf(None), kind) => Some(Expr { kind, span }),
            (Target::Tuple(..), _) => {
                self.errors.push(
                    span,
                    "a tuple takes a tuple of values, a call that returns several, or an `if`, `match` or block that ends in one: `let (a, b) = (x, y);`, `let (a, b) = f(x);`, `let (a, b) = if c { (x, y) } else { (y, x) };`",
                );
                None
            }
        }
    }

    /// Block `b` of a tuple's branch, its tail written to `target` (see
    /// [`Self::fill`]); a block without one must end by leaving.
    fn fill_block(&mut self, target: &Target, mut b: Block, d: &mut Destructure) -> Option<Block> {
        match b.tail.take() {
            Some(tail) => {
                let e = self.fill(target, *tail, d)?;
                b.stmts.push(Stmt::Expr(e));
            }
            None if matches!(target, Target::Leaf(None)) => {}
            None if matches!(
                b.stmts.last(),
                Some(Stmt::Expr(Expr {
                    kind: ExprKind::Return(_) | ExprKind::Break | ExprKind::Continue,
                    ..
                }))
            ) => {}
            None => {
                self.errors.push(
                    b.span,
                    "this block gives no tuple: end it with one, `(a, b)` (or with `return`, `break` or `continue`)",
                );
                return None;
            }
        }
        Some(b)
    }
}

/// Where the values of a tuple go: a temporary each (`None`: `_`, the value
/// evaluated and dropped), nested as the tuple.
enum Target {
    Leaf(Option<syn::Ident>),
    Tuple(Vec<Target>, Span),
}

/// `let name;`, a temporary assigned later.
fn declare(name: syn::Ident) -> Stmt {
    Stmt::Let {
        name,
        mutable: false,
        ty: None,
        init: None,
    }
}

/// `place = value`.
fn assign_expr(place: Expr, value: Expr) -> Expr {
    let span = value.span;
    Expr {
        kind: ExprKind::Assign(Box::new(place), None, Box::new(value)),
        span,
    }
}

/// A pattern of a tuple `let`.
enum LetPat {
    Name(syn::Ident, bool),
    Wild,
    Tuple(Vec<LetPat>, Span),
}

/// A tuple `let` being lowered: the values computed in order, then the names
/// bound.
struct Destructure {
    /// Which tuple `let` (names the temporaries).
    n: usize,
    /// Temporaries made so far.
    temps: usize,
    values: Vec<Stmt>,
    binds: Vec<Stmt>,
}

impl Destructure {
    fn temp(&mut self, span: Span) -> syn::Ident {
        self.temps += 1;
        syn::Ident::new(&format!("__silt_tuple_{}_{}", self.n, self.temps - 1), span)
    }
}

/// `let [mut] name = init;`
fn let_stmt(name: syn::Ident, mutable: bool, init: Expr) -> Stmt {
    Stmt::Let {
        name,
        mutable,
        ty: None,
        init: Some(init),
    }
}

fn var_expr(name: syn::Ident) -> Expr {
    Expr {
        span: name.span(),
        kind: ExprKind::Var(name),
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

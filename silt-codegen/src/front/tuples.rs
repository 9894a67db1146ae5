//! Tuples, lowered to what the rest of silt already knows: a tuple `let`
//! becomes one `let` per name (a call with several results one `LetCall`),
//! all values computed before any is bound; a tuple from an `if`, `match` or
//! block, and a destructuring assignment (`(a, b) = (b, a)`), go through
//! temporaries assigned in the branches.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::body::Lower;
use super::syntax::{Block, Expr, ExprKind, Stmt};

impl Lower<'_> {
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
            assigns: false,
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
                    let msg = d.count_error(elems.len(), values.elems.len());
                    self.errors.push(value.span(), msg);
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
            assigns: true,
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
                    let msg = d.count_error(targets.len(), values.len());
                    self.errors.push(span, msg);
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
    /// A destructuring assignment (places), not a `let` (names).
    assigns: bool,
}

impl Destructure {
    /// The error for `targets` targets given `values` values.
    fn count_error(&self, targets: usize, values: usize) -> String {
        if self.assigns {
            format!("{targets} places assigned {values} values")
        } else {
            format!("{targets} names bound to {values} values")
        }
    }

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

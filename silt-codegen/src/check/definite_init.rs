//! Definite assignment, as rustc checks it: a local declared without a value
//! (`let x;`) must be assigned on every path before it is read, and an immutable
//! one at most once. Run on the typed IR, so that the errors point at the user's
//! code instead of at rustc's view of the generated host function.

use proc_macro2::Span;

use crate::errors::Errors;
use crate::ir::{loop_breaks, Block, Expr, ExprKind, Function, Place, Stmt};

#[derive(Clone)]
struct State {
    /// Assigned on every path so far.
    definitely: Vec<bool>,
    /// Assigned on some path so far.
    maybe: Vec<bool>,
    /// Control cannot reach this point (after `return`, `break`, `continue`).
    dead: bool,
}

struct Checker<'a> {
    k: &'a Function,
    errors: &'a mut Errors,
    /// The loop depth each local was declared at.
    depth_of: Vec<usize>,
    depth: usize,
    suffix: String,
    /// Per loop around the statement being checked, innermost last: the
    /// states its `break`s leave it in, merged (`None`: no break reached).
    breaks: Vec<Option<State>>,
}

/// Reports reads of possibly unassigned locals and repeated assignments of
/// immutable ones.
pub fn check(k: &Function, errors: &mut Errors) {
    let n = k.locals.len();
    let mut state = State {
        definitely: vec![false; n],
        maybe: vec![false; n],
        dead: false,
    };
    let suffix = match k.inst {
        Some(t) => format!(" (in the `{t}` instantiation)"),
        None => String::new(),
    };
    let mut c = Checker {
        k,
        errors,
        depth_of: vec![0; n],
        depth: 0,
        suffix,
        breaks: Vec::new(),
    };
    c.block(&k.body, &mut state);
}

impl Checker<'_> {
    fn err(&mut self, span: Span, msg: String) {
        let msg = format!("{msg}{}", self.suffix);
        self.errors.push(span, msg);
    }

    fn block(&mut self, b: &Block, st: &mut State) {
        for s in &b.stmts {
            self.stmt(s, st);
        }
        if let Some(t) = &b.tail {
            self.expr(t, st);
        }
    }

    fn assign(&mut self, id: usize, span: Span, st: &mut State) {
        let local = &self.k.locals[id];
        if !local.mutable && !st.dead && (st.maybe[id] || self.depth > self.depth_of[id]) {
            let name = local.name.clone();
            self.err(
                span,
                format!(
                    "cannot assign twice to immutable variable `{name}`: declare it with `let mut`"
                ),
            );
        }
        st.definitely[id] = true;
        st.maybe[id] = true;
    }

    fn stmt(&mut self, s: &Stmt, st: &mut State) {
        match s {
            Stmt::Let(id, init) => {
                if let Some(e) = init {
                    self.expr(e, st);
                }
                self.depth_of[*id] = self.depth;
                st.definitely[*id] = init.is_some();
                st.maybe[*id] = init.is_some();
            }
            Stmt::LetCall(ids, call) => {
                self.expr(call, st);
                for id in ids {
                    self.depth_of[*id] = self.depth;
                    st.definitely[*id] = true;
                    st.maybe[*id] = true;
                }
            }
            Stmt::Assign(place, op, value) => {
                self.expr(value, st);
                if let Place::Local(id) = place {
                    if op.is_some() {
                        self.read(*id, value.span, st);
                    }
                    self.assign(*id, value.span, st);
                }
            }
            Stmt::Barrier(_) => {}
            Stmt::Store(_, ix, _, value) => {
                for i in ix {
                    self.expr(i, st);
                }
                self.expr(value, st);
            }
            Stmt::Expr(e) => self.expr(e, st),
            Stmt::If(c, t, f) => {
                self.expr(c, st);
                let mut a = st.clone();
                self.block(t, &mut a);
                let mut b = st.clone();
                if let Some(f) = f {
                    self.block(f, &mut b);
                }
                *st = merge(a, b);
            }
            Stmt::While(c, body) => {
                self.expr(c, st);
                self.breaks.push(None);
                self.in_loop(body, st);
                self.breaks.pop();
            }
            Stmt::For(id, a, z, _, body) => {
                self.expr(a, st);
                self.expr(z, st);
                let mut inner = st.clone();
                inner.definitely[*id] = true;
                inner.maybe[*id] = true;
                self.depth += 1;
                self.depth_of[*id] = self.depth;
                self.breaks.push(None);
                self.block(body, &mut inner);
                self.breaks.pop();
                self.depth -= 1;
                self.absorb_maybe(st, &inner);
            }
            Stmt::Loop(body) => {
                let exits = loop_breaks(body);
                self.breaks.push(None);
                self.in_loop(body, st);
                match self.breaks.pop().flatten() {
                    // a `loop` is left by its breaks alone: what each of them
                    // assigned is assigned after it (`let x = loop { ..
                    // break v; }` assigns its temporary so)
                    Some(left) if exits => {
                        st.definitely = left.definitely;
                        st.dead = left.dead;
                    }
                    _ if exits => {}
                    _ => st.dead = true,
                }
            }
            Stmt::Break => {
                if let Some(top) = self.breaks.last_mut() {
                    let here = st.clone();
                    *top = Some(match top.take() {
                        Some(before) => merge(before, here),
                        None => here,
                    });
                }
                st.dead = true;
            }
            Stmt::Continue => st.dead = true,
            Stmt::Return(vs) => {
                for v in vs {
                    self.expr(v, st);
                }
                st.dead = true;
            }
            Stmt::Block(b) => self.block(b, st),
        }
    }

    /// A loop body: assignments in it may happen any number of times, so they make
    /// nothing definitely assigned afterwards (they do make it maybe assigned).
    fn in_loop(&mut self, body: &Block, st: &mut State) {
        let mut inner = st.clone();
        self.depth += 1;
        self.block(body, &mut inner);
        self.depth -= 1;
        self.absorb_maybe(st, &inner);
    }

    fn absorb_maybe(&self, st: &mut State, inner: &State) {
        for (m, i) in st.maybe.iter_mut().zip(&inner.maybe) {
            *m |= *i;
        }
    }

    fn read(&mut self, id: usize, span: Span, st: &State) {
        if !st.dead && !st.definitely[id] {
            let name = self.k.locals[id].name.clone();
            self.err(
                span,
                format!("`{name}` may be read before it is assigned: give it a value in its `let`, or assign it on every path first"),
            );
        }
    }

    fn expr(&mut self, e: &Expr, st: &mut State) {
        match &e.kind {
            ExprKind::Local(id) => self.read(*id, e.span, st),
            ExprKind::Lit(_)
            | ExprKind::Param(_)
            | ExprKind::Deref(_)
            | ExprKind::Len(..)
            | ExprKind::GridId(..) => {}
            ExprKind::Unary(_, x) | ExprKind::Cast(x) => self.expr(x, st),
            ExprKind::Binary(op, l, r) => {
                self.expr(l, st);
                if matches!(op, crate::ir::BinOp::And | crate::ir::BinOp::Or) {
                    // the right side may not run
                    let mut maybe_run = st.clone();
                    self.expr(r, &mut maybe_run);
                    self.absorb_maybe(st, &maybe_run);
                } else {
                    self.expr(r, st);
                }
            }
            ExprKind::Call(_, args) | ExprKind::Helper(_, args) | ExprKind::Load(_, args) => {
                for a in args {
                    self.expr(a, st);
                }
            }
            ExprKind::Atomic(_, _, ix, ops) => {
                for a in ix.iter().chain(ops) {
                    self.expr(a, st);
                }
            }
            ExprKind::If(c, t, f) => {
                self.expr(c, st);
                let mut a = st.clone();
                self.block(t, &mut a);
                let mut b = st.clone();
                self.block(f, &mut b);
                *st = merge(a, b);
            }
            ExprKind::Block(b) => self.block(b, st),
        }
    }
}

/// The state after two alternative paths.
fn merge(a: State, b: State) -> State {
    if a.dead {
        return State {
            maybe: or(&a.maybe, &b.maybe),
            ..b
        };
    }
    if b.dead {
        return State {
            maybe: or(&a.maybe, &b.maybe),
            ..a
        };
    }
    State {
        definitely: a
            .definitely
            .iter()
            .zip(&b.definitely)
            .map(|(x, y)| *x && *y)
            .collect(),
        maybe: or(&a.maybe, &b.maybe),
        dead: false,
    }
}

fn or(a: &[bool], b: &[bool]) -> Vec<bool> {
    a.iter().zip(b).map(|(x, y)| *x || *y).collect()
}

//! Definite assignment, as rustc checks it: a local declared without a value
//! (`let x;`) must be assigned on every path before it is read, and an immutable
//! one at most once. Run on the typed IR, so that the errors point at the user's
//! code instead of at rustc's view of the generated host function.
//!
//! "At most once" follows control flow, loops' back edges included: an
//! assignment in a loop is a second one only where control can come back to
//! it after it ran (`loop { x = v; break; }` assigns once). A loop's body is
//! walked twice: silently, to learn what may be assigned when control comes
//! back to its head, then from that state, reporting. A labelled exit,
//! lowered to a flag set before a `break` and tested after each loop on the
//! way out, is followed as the jump it stands for: the state where it is
//! taken goes to the labelled loop's exits, and the flag's tests are never
//! reached with the flag set.

use proc_macro2::Span;

use crate::errors::Errors;
use crate::front::LabelFlag;
use crate::ir::{BinOp, Block, Expr, ExprKind, Function, Place, Stmt, Value};

#[derive(Clone)]
struct State {
    /// Assigned on every path so far.
    definitely: Vec<bool>,
    /// Assigned on some path so far.
    maybe: Vec<bool>,
    /// Control cannot reach this point (after `return`, `break`, `continue`).
    dead: bool,
    /// The labelled exit's flag just set (its `break` comes next).
    exit: Option<usize>,
}

/// Where the `break`s and `continue`s of one loop leave it.
#[derive(Default)]
struct Exits {
    /// The states its `break`s leave it in, merged (`None`: no break reached).
    breaks: Option<State>,
    /// The states its `continue`s go back to its head in, merged.
    continues: Option<State>,
    /// The flags of the labelled exits to it from nested loops.
    flags: Vec<usize>,
}

struct Checker<'a> {
    k: &'a Function,
    errors: &'a mut Errors,
    suffix: String,
    /// Per loop around the statement being checked, innermost last.
    loops: Vec<Exits>,
    /// Above zero while a loop body is walked to learn its back edge's
    /// state: errors are reported on the second walk alone.
    quiet: usize,
    /// Labelled exits' flags declared and not yet given to their loop (the
    /// next one).
    flags: Vec<usize>,
}

/// Reports reads of possibly unassigned locals and repeated assignments of
/// immutable ones.
pub fn check(k: &Function, errors: &mut Errors) {
    let n = k.locals.len();
    let mut state = State {
        definitely: vec![false; n],
        maybe: vec![false; n],
        dead: false,
        exit: None,
    };
    let suffix = match k.inst {
        Some(t) => format!(" (in the `{t}` instantiation)"),
        None => String::new(),
    };
    let mut c = Checker {
        k,
        errors,
        suffix,
        loops: Vec::new(),
        quiet: 0,
        flags: Vec::new(),
    };
    c.block(&k.body, &mut state);
}

impl Checker<'_> {
    fn err(&mut self, span: Span, msg: String) {
        if self.quiet > 0 {
            return;
        }
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
        if !local.mutable && !st.dead && st.maybe[id] {
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
                st.definitely[*id] = init.is_some();
                st.maybe[*id] = init.is_some();
                if self.flag(*id).is_some() {
                    self.flags.push(*id);
                }
            }
            Stmt::LetCall(ids, call) => {
                self.expr(call, st);
                for id in ids {
                    st.definitely[*id] = true;
                    st.maybe[*id] = true;
                }
            }
            Stmt::Assign(Place::Local(id), None, value)
                if self.flag(*id).is_some()
                    && matches!(value.kind, ExprKind::Lit(Value::Bool(true))) =>
            {
                st.exit = Some(*id);
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
            // a labelled exit's test: reached with its flag clear alone
            Stmt::If(c, _, None) if self.flag_test(c) => {}
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
                let (head, breaks) = self.in_loop(body, None, st);
                left_at_head(st, &head, breaks.as_ref());
            }
            Stmt::For(id, a, z, _, body) => {
                self.expr(a, st);
                self.expr(z, st);
                let (head, breaks) = self.in_loop(body, Some(*id), st);
                left_at_head(st, &head, breaks.as_ref());
            }
            Stmt::Loop(body) => {
                let (head, breaks) = self.in_loop(body, None, st);
                st.maybe = head.maybe;
                match breaks {
                    // a `loop` is left by its breaks alone: what each of them
                    // assigned is assigned after it (`let x = loop { ..
                    // break v; }` assigns its temporary so)
                    Some(left) => *st = left,
                    // no `break` of its own (those of outer loops' labels went
                    // to their loops): nothing after it runs
                    None => st.dead = true,
                }
            }
            Stmt::Break | Stmt::Continue => {
                let exit = st.exit.take();
                // a labelled exit goes to its loop; a plain one to the
                // innermost
                let (target, to_break) = match exit {
                    Some(f) => {
                        let to_break = self.flag(f) == Some(LabelFlag::Break);
                        (
                            self.loops.iter_mut().rev().find(|l| l.flags.contains(&f)),
                            to_break,
                        )
                    }
                    None => (self.loops.last_mut(), matches!(s, Stmt::Break)),
                };
                if let Some(top) = target {
                    let to = if to_break {
                        &mut top.breaks
                    } else {
                        &mut top.continues
                    };
                    let here = st.clone();
                    *to = Some(match to.take() {
                        Some(before) => merge(before, here),
                        None => here,
                    });
                }
                st.dead = true;
            }
            Stmt::Return(vs) => {
                for v in vs {
                    self.expr(v, st);
                }
                st.dead = true;
            }
            Stmt::Block(b) => self.block(b, st),
        }
    }

    /// A loop body, entered in `st` (with `var`, a `for` loop's variable,
    /// assigned afresh each time round). Returns the state at the loop's head
    /// (what may be assigned when control comes back to it), and the states
    /// its `break`s leave it in, merged.
    fn in_loop(&mut self, body: &Block, var: Option<usize>, st: &State) -> (State, Option<State>) {
        let flags = std::mem::take(&mut self.flags);
        let walk = |c: &mut Self, head: &State| {
            let mut inner = head.clone();
            if let Some(id) = var {
                inner.definitely[id] = true;
                inner.maybe[id] = true;
            }
            c.loops.push(Exits {
                flags: flags.clone(),
                ..Exits::default()
            });
            c.block(body, &mut inner);
            let exits = c.loops.pop().unwrap_or_default();
            (inner, exits)
        };
        let back_to_head = |(end, exits): (State, Exits)| {
            let mut head = st.clone();
            // (a `continue` or the end that control cannot reach goes nowhere)
            for back in exits.continues.iter().chain([&end]).filter(|b| !b.dead) {
                head.maybe = or(&head.maybe, &back.maybe);
            }
            (head, exits.breaks)
        };
        // inside a walk that only learns an outer loop's head, once: a local
        // that would reach that head only through this loop's own back edge
        // is assigned in this loop, where its own reporting walk finds it
        // (and twice at every depth would cost 2^depth walks)
        if self.quiet > 0 {
            return back_to_head(walk(self, st));
        }
        // first, silently, to learn the state at the head; then from it
        // (what the body assigns on its way back does not depend on where
        // it starts, so twice is enough)
        self.quiet += 1;
        let (head, _) = back_to_head(walk(self, st));
        self.quiet -= 1;
        back_to_head(walk(self, &head))
    }

    fn flag(&self, id: usize) -> Option<LabelFlag> {
        LabelFlag::of(&self.k.locals[id].name)
    }

    /// `flag` or `flag || flag`: a labelled exit's test after a loop.
    fn flag_test(&self, c: &Expr) -> bool {
        match &c.kind {
            ExprKind::Local(id) => self.flag(*id).is_some(),
            ExprKind::Binary(BinOp::Or, l, r) => self.flag_test(l) && self.flag_test(r),
            _ => false,
        }
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

/// After a `while` or `for` loop, left from its head (`head`: its condition
/// false or its range done) or by a `break`: what was definitely assigned
/// before it still is; what may have been assigned on either way may be.
fn left_at_head(st: &mut State, head: &State, breaks: Option<&State>) {
    st.maybe = match breaks {
        Some(b) if !b.dead => or(&head.maybe, &b.maybe),
        _ => head.maybe.clone(),
    };
}

/// The state after two alternative paths; a path that cannot reach it (after
/// a `return`, `break` or `continue`) adds nothing to it.
fn merge(a: State, b: State) -> State {
    if a.dead {
        return b;
    }
    if b.dead {
        return a;
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
        exit: None,
    }
}

fn or(a: &[bool], b: &[bool]) -> Vec<bool> {
    a.iter().zip(b).map(|(x, y)| *x || *y).collect()
}

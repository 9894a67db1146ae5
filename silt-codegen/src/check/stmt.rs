//! Checking statements: `let`, assignments, control flow, `return` and the
//! body's value.

use proc_macro2::Span;

use super::infer::{Cx, Need, Slot};
use super::tree::{Block, Expr, Stmt};
use crate::front::ident_name;
use crate::front::syntax::{self, BinOp, ParamKind};
use crate::ir::{self, diverges, ExprKind, Place, Value};

impl Cx<'_> {
    // ---- the body ----

    pub(super) fn body(&mut self, b: &syntax::Block) -> Block {
        if self.sig.outputs.is_empty() {
            let mut out = self.block_stmts(b);
            if let Some(tail) = out.tail.take() {
                out.stmts.push(Stmt::Expr(*tail));
            }
            out
        } else {
            let out = self.block_tail(b);
            if !diverges(&out) {
                let what = self.outputs_text();
                self.err(
                    b.span,
                    format!("the kernel returns {what}, but its body does not end in a value"),
                );
            }
            out
        }
    }

    pub(super) fn outputs_text(&self) -> String {
        let names: Vec<String> = self.sig.outputs.iter().map(|t| t.to_string()).collect();
        if names.len() == 1 {
            format!("`{}`", names[0])
        } else {
            format!("`({})`", names.join(", "))
        }
    }

    /// A block whose tail is the kernel's returned value.
    pub(super) fn block_tail(&mut self, b: &syntax::Block) -> Block {
        self.push_scope();
        let mut out = Block::default();
        for s in &b.stmts {
            self.stmt(s, &mut out.stmts);
        }
        if let Some(t) = &b.tail {
            self.tail(t, &mut out.stmts);
        }
        self.pop_scope();
        out
    }

    pub(super) fn tail(&mut self, e: &syntax::Expr, out: &mut Vec<Stmt>) {
        match &e.kind {
            syntax::ExprKind::If(c, then, Some(els)) if self.static_cond(c).is_some() => {
                if self.static_cond(c) == Some(true) {
                    // the chosen branch's statements stand in for the `if` (C names
                    // are unique, so no scope is needed)
                    let b = self.block_tail(then);
                    out.extend(b.stmts);
                } else if let syntax::ExprKind::Block(b) = &els.kind {
                    let b = self.block_tail(b);
                    out.extend(b.stmts);
                } else {
                    self.tail(els, out);
                }
            }
            syntax::ExprKind::If(c, then, Some(els)) => {
                let cond = self.bool_expr(c);
                let then = self.block_tail(then);
                let els = match &els.kind {
                    syntax::ExprKind::Block(b) => self.block_tail(b),
                    _ => {
                        let mut b = Block::default();
                        self.tail(els, &mut b.stmts);
                        b
                    }
                };
                out.push(Stmt::If(cond, then, Some(els)));
            }
            syntax::ExprKind::Block(b) => out.push(Stmt::Block(self.block_tail(b))),
            syntax::ExprKind::If(_, _, None)
            | syntax::ExprKind::Return(_)
            | syntax::ExprKind::Loop(_)
            | syntax::ExprKind::While(..)
            | syntax::ExprKind::For(..)
            | syntax::ExprKind::Assign(..)
            | syntax::ExprKind::Break
            | syntax::ExprKind::Continue => self.stmt_expr(e, out),
            _ => {
                let values = self.returned(e);
                out.push(Stmt::Return(values));
            }
        }
    }

    /// The values of `return e` / a tail `e`, checked against the outputs.
    pub(super) fn returned(&mut self, e: &syntax::Expr) -> Vec<Expr> {
        let n = self.sig.outputs.len();
        // a tuple parameter returned whole is its fields
        let whole: Option<Vec<syntax::Expr>> = match &e.kind {
            syntax::ExprKind::Var(id) => self.tuple_fields(&ident_name(id)).map(|f| {
                (0..f.len())
                    .map(|i| syntax::Expr {
                        kind: syntax::ExprKind::Field(id.clone(), i),
                        span: e.span,
                    })
                    .collect()
            }),
            _ => None,
        };
        let elems: Vec<&syntax::Expr> = match (&e.kind, n) {
            _ if whole.is_some() => whole.iter().flatten().collect(),
            (syntax::ExprKind::Tuple(xs), _) if n != 1 => xs.iter().collect(),
            (_, 1) => vec![e],
            _ => {
                let what = self.outputs_text();
                self.err(
                    e.span,
                    format!("expected a tuple of {n} values: the kernel returns {what}"),
                );
                return Vec::new();
            }
        };
        if elems.len() != n {
            let what = self.outputs_text();
            self.err(
                e.span,
                format!("expected {n} values: the kernel returns {what}"),
            );
            return Vec::new();
        }
        let outs = self.sig.outputs.clone();
        elems
            .into_iter()
            .zip(outs)
            .map(|(x, t)| {
                let v = self.value(x);
                let k = self.known(t);
                self.unify(k, v.tv, x.span);
                v
            })
            .collect()
    }

    /// A block in statement position (its tail, if any, is evaluated and dropped).
    pub(super) fn block_stmts(&mut self, b: &syntax::Block) -> Block {
        self.push_scope();
        let mut out = Block::default();
        for s in &b.stmts {
            self.stmt(s, &mut out.stmts);
        }
        if let Some(t) = &b.tail {
            self.stmt_expr(t, &mut out.stmts);
        }
        self.pop_scope();
        out
    }

    pub(super) fn stmt(&mut self, s: &syntax::Stmt, out: &mut Vec<Stmt>) {
        match s {
            syntax::Stmt::Let {
                name,
                init:
                    Some(syntax::Expr {
                        kind: syntax::ExprKind::LocalArray(t, dims, private),
                        span,
                    }),
                ..
            } => self.declare_array(name, *t, dims, *private, *span),
            syntax::Stmt::Let {
                name,
                mutable,
                ty,
                init,
            } => {
                let tv = match ty {
                    Some((t, _)) => {
                        let t = self.ty(*t);
                        self.known(t)
                    }
                    None => self.var(Slot::Unknown),
                };
                // the initialiser is checked before the name is in scope
                let init = init.as_ref().map(|e| {
                    let v = self.value(e);
                    self.unify(tv, v.tv, e.span);
                    v
                });
                let id = self.declare(name, *mutable, tv);
                if init.is_none() {
                    self.vars.deferred.push(id);
                }
                out.push(Stmt::Let(id, init));
            }
            syntax::Stmt::LetCall { names, call } => self.let_call(names, call, out),
            syntax::Stmt::Expr(e) => self.stmt_expr(e, out),
        }
    }

    /// `let (a, _, b) = f(x);`: the call, then a local for each named result.
    fn let_call(
        &mut self,
        names: &[Option<(syn::Ident, bool)>],
        call: &syntax::Expr,
        out: &mut Vec<Stmt>,
    ) {
        let (call, outputs) = match &call.kind {
            syntax::ExprKind::Call(key, _, args) => {
                let (c, outputs) = self.helper_call_outputs(key, args, call.span);
                if !outputs.is_empty() && !names.is_empty() && outputs.len() != names.len() {
                    self.err(
                        call.span,
                        format!(
                            "`{key}` returns {} value(s), the pattern binds {}",
                            outputs.len(),
                            names.len()
                        ),
                    );
                }
                (c, outputs)
            }
            // the front end makes a `LetCall` of calls alone
            _ => (self.value(call), Vec::new()),
        };
        let dropped = syn::Ident::new("__silt_dropped", call.span);
        let all_dropped = vec![None; outputs.len()];
        let names = if names.is_empty() {
            &all_dropped
        } else {
            names
        };
        let ids = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let (name, mutable) = n.as_ref().map_or((&dropped, false), |(n, m)| (n, *m));
                let tv = match outputs.get(i) {
                    Some(&t) => self.known(t),
                    None => self.var(Slot::Unknown),
                };
                self.declare(name, mutable, tv)
            })
            .collect();
        out.push(Stmt::LetCall(ids, call));
    }

    pub(super) fn stmt_expr(&mut self, e: &syntax::Expr, out: &mut Vec<Stmt>) {
        match &e.kind {
            syntax::ExprKind::Call(key, _, args) if key == "barrier" => {
                if let Some(s) = self.barrier(args, e.span) {
                    out.push(s);
                }
            }
            syntax::ExprKind::Assign(place, op, value) => {
                let s = match &place.kind {
                    syntax::ExprKind::Index(view, ix) => {
                        self.view_store(view, ix, *op, value, e.span)
                    }
                    _ => self.assign(place, *op, value, e.span),
                };
                if let Some(s) = s {
                    out.push(s);
                }
            }
            syntax::ExprKind::If(c, then, els) if self.static_cond(c).is_some() => {
                if self.static_cond(c) == Some(true) {
                    let b = self.block_stmts(then);
                    out.extend(b.stmts);
                } else if let Some(syntax::ExprKind::Block(b)) = els.as_ref().map(|e| &e.kind) {
                    let b = self.block_stmts(b);
                    out.extend(b.stmts);
                } else if let Some(els) = els {
                    self.stmt_expr(els, out);
                }
            }
            syntax::ExprKind::If(c, then_src, els) => {
                let cond = self.bool_expr(c);
                let then = self.block_stmts(then_src);
                let els_src = els.as_ref().and_then(|x| match &x.kind {
                    syntax::ExprKind::Block(b) => Some(b),
                    _ => None,
                });
                let els = els.as_ref().map(|x| match &x.kind {
                    syntax::ExprKind::Block(b) => self.block_stmts(b),
                    _ => {
                        let mut b = Block::default();
                        self.stmt_expr(x, &mut b.stmts);
                        b
                    }
                });
                // an `if` whose value is dropped still has one type, as in Rust
                if let (Some(e_src), Some(e)) = (els_src, &els) {
                    let tail_tv = |src: &syntax::Block, b: &Block| match (&src.tail, b.stmts.last())
                    {
                        (Some(_), Some(Stmt::Expr(v))) => Some((v.tv, v.span)),
                        _ => None,
                    };
                    if let (Some((a, _)), Some((b, span))) =
                        (tail_tv(then_src, &then), tail_tv(e_src, e))
                    {
                        self.unify(a, b, span);
                    }
                }
                out.push(Stmt::If(cond, then, els));
            }
            syntax::ExprKind::While(c, body) => {
                // `break` in a loop condition is an error in Rust (E0590)
                let depth = std::mem::replace(&mut self.loop_depth, 0);
                let cond = self.bool_expr(c);
                self.loop_depth = depth;
                self.loop_depth += 1;
                let body = self.block_stmts(body);
                self.loop_depth -= 1;
                out.push(Stmt::While(cond, body));
            }
            syntax::ExprKind::For(var, start, end, inclusive, body) => {
                let (s, t) = (self.value(start), self.value(end));
                self.unify(s.tv, t.tv, end.span);
                self.need(s.tv, Need::Int, start.span);
                self.push_scope();
                let id = self.declare(var, false, s.tv);
                self.loop_depth += 1;
                let body = self.block_stmts(body);
                self.loop_depth -= 1;
                self.pop_scope();
                out.push(Stmt::For(id, s, t, *inclusive, body));
            }
            syntax::ExprKind::Loop(body) => {
                self.loop_depth += 1;
                let body = self.block_stmts(body);
                self.loop_depth -= 1;
                out.push(Stmt::Loop(body));
            }
            syntax::ExprKind::Break | syntax::ExprKind::Continue => {
                if self.loop_depth == 0 {
                    self.err(e.span, "`break` / `continue` outside of a loop");
                }
                out.push(if matches!(e.kind, syntax::ExprKind::Break) {
                    Stmt::Break
                } else {
                    Stmt::Continue
                });
            }
            // `return if c { a } else { (x, y) };` of several outputs: each
            // branch returns its tuple, as the same `if` in tail position
            syntax::ExprKind::Return(Some(v))
                if self.sig.outputs.len() > 1
                    && matches!(
                        v.kind,
                        syntax::ExprKind::If(_, _, Some(_)) | syntax::ExprKind::Block(_)
                    ) =>
            {
                self.tail(v, out);
            }
            syntax::ExprKind::Return(value) => {
                let values = match (value, self.sig.outputs.is_empty()) {
                    (None, true) => Vec::new(),
                    (Some(v), false) => self.returned(v),
                    (None, false) => {
                        let what = self.outputs_text();
                        self.err(
                            e.span,
                            format!("`return` needs a value: the kernel returns {what}"),
                        );
                        Vec::new()
                    }
                    (Some(v), true) => {
                        self.err(v.span, "the kernel returns nothing (it writes `&mut` parameters): use `return;`");
                        Vec::new()
                    }
                };
                out.push(Stmt::Return(values));
            }
            syntax::ExprKind::Block(b) => out.push(Stmt::Block(self.block_stmts(b))),
            _ => {
                let v = self.value(e);
                out.push(Stmt::Expr(v));
            }
        }
    }

    pub(super) fn assign(
        &mut self,
        place: &syntax::Expr,
        op: Option<BinOp>,
        value: &syntax::Expr,
        span: Span,
    ) -> Option<Stmt> {
        let (place_ir, tv) = match &place.kind {
            syntax::ExprKind::Var(name) => match self.lookup(&ident_name(name)) {
                Some(Ok(id)) => {
                    // `let x; x = 1;` is allowed once (checked by `init`)
                    if !self.vars.locals[id].mutable && !self.vars.deferred.contains(&id) {
                        self.err(
                            place.span,
                            format!("cannot assign twice to immutable variable `{name}`: declare it with `let mut`"),
                        );
                    }
                    (Place::Local(id), self.vars.tvs[id])
                }
                Some(Err(pid)) => {
                    let p = &self.sig.params[pid];
                    match p.kind {
                        ParamKind::InOut => {
                            self.err(
                                place.span,
                                format!("`{name}` is a `&mut` parameter: assign through `*{name}`"),
                            );
                            return None;
                        }
                        _ if !p.mutable => {
                            self.err(
                                place.span,
                                format!("cannot assign to parameter `{name}`: declare it `mut {name}` or use a `let mut`"),
                            );
                            return None;
                        }
                        _ => {
                            let t = p.ty;
                            (Place::Param(pid), self.known(t))
                        }
                    }
                }
                None => {
                    self.err(
                        place.span,
                        format!("cannot find value `{name}` in this kernel"),
                    );
                    return None;
                }
            },
            syntax::ExprKind::Deref(name) => {
                let pid = self.inout_param(name, place.span)?;
                let t = self.sig.params[pid].ty;
                (Place::Deref(pid), self.known(t))
            }
            _ => {
                self.err(
                    place.span,
                    "can only assign to a `let mut` variable or `*param` of a `&mut` parameter",
                );
                return None;
            }
        };
        let v = self.value(value);
        match op {
            None => self.unify(tv, v.tv, value.span),
            Some(op) => {
                let target = self.expr(ExprKind::Lit(Value::Bool(false)), tv, place.span);
                // type the compound assignment like `place op value`
                let _ = self.binary_types(op, &target, &v, span);
            }
        }
        Some(Stmt::Assign(place_ir, op, v))
    }

    pub(super) fn inout_param(&mut self, name: &syn::Ident, span: Span) -> Option<ir::ParamId> {
        match self.lookup(&ident_name(name)) {
            Some(Err(pid)) if self.sig.params[pid].kind == ParamKind::InOut => Some(pid),
            _ => {
                self.err(
                    span,
                    format!("`*{name}`: only `&mut` parameters can be dereferenced"),
                );
                None
            }
        }
    }
}

//! Type inference and checking: one kernel instantiation from the AST to the IR.
//!
//! Types are inferred by unification, as rustc does for numbers: a literal without
//! suffix is an integer or float variable that takes its type from the code around
//! it (an integer literal may also become a float: `x * 2` works for `x: f32`), and
//! defaults to `i32` / `f64` when nothing decides it.

use std::collections::HashMap;

use proc_macro2::Span;

use crate::ast::{self, BinOp, ParamKind, TyRef, UnOp};
use crate::builtins::{self, Rel};
use crate::errors::Errors;
use crate::ir::{self, Block, Expr, ExprKind, Place, Stmt, Value};
use crate::ty::Ty;

#[derive(Debug, Clone, Copy)]
enum Slot {
    Known(Ty),
    IntLit,
    FloatLit,
    Unknown,
    Link(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Need {
    Numeric,
    Int,
    IntOrBool,
    SignedOrFloat,
    CastSource(Ty),
}

/// A `#[helper]` function a kernel may call.
#[derive(Debug, Clone)]
pub struct HelperDef {
    /// The path calls use (`util::sq`).
    pub key: String,
    /// Its signature (parameters by value, one result).
    pub sig: ast::Signature,
    /// Its body.
    pub body: ast::Block,
    /// Its instantiation types (empty without a generic parameter).
    pub types: Vec<Ty>,
    /// How the calls in its body are resolved: the path as written, and the key
    /// of the helper it names (resolved from the helper's own module).
    pub deps: Vec<(String, String)>,
}

/// A helper call found while checking a body: which helper, for which type, where.
type Need2 = (usize, Option<Ty>, Span);

/// Checks one instantiation (`inst` is the type of the generic parameter), and
/// every helper instantiation it calls.
pub fn check(
    sig: &ast::Signature,
    body: &ast::Block,
    inst: Option<Ty>,
    helpers: &[HelperDef],
    errors: &mut Errors,
) -> Option<ir::Kernel> {
    let before = errors_len(errors);
    let (mut kernel, calls) = check_fn(sig, body, inst, helpers, &[], errors);
    let mut done = Vec::new();
    let mut stack = Vec::new();
    for (h, t, span) in calls {
        instantiate(helpers, h, t, span, &mut stack, &mut done, errors);
    }
    kernel.helpers = done;
    if errors_len(errors) == before {
        crate::init::check(&kernel, errors);
    }
    (errors_len(errors) == before).then_some(kernel)
}

/// Checks a function body alone (a helper at its definition), reporting into
/// `errors`.
pub fn check_fn_only(
    sig: &ast::Signature,
    body: &ast::Block,
    inst: Option<Ty>,
    errors: &mut Errors,
) {
    let before = errors.len();
    let (kernel, _) = check_fn(sig, body, inst, &[], &[], errors);
    if errors.len() == before {
        crate::init::check(&kernel, errors);
    }
}

/// The C and Rust name of a helper instantiation: `silt_helper_NAME_TYPE`.
fn helper_fn_name(def: &HelperDef, inst: Option<Ty>) -> String {
    // the helper's name and a short hash of the path it was reached by, so that
    // helpers with one name in different modules (or `g<T>` at f32 and a
    // `g_f32`) stay different functions
    let hash = def.key.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let name = ident_name(&def.sig.name);
    let name = ir::ascii_name(&name);
    match inst {
        Some(t) => format!("silt_helper_{name}_{:04x}_{}", hash & 0xffff, t.name()),
        None => format!("silt_helper_{name}_{:04x}", hash & 0xffff),
    }
}

/// Checks a helper instantiation and, first, the helpers it calls; rejects
/// recursion.
fn instantiate(
    helpers: &[HelperDef],
    h: usize,
    inst: Option<Ty>,
    span: Span,
    stack: &mut Vec<(usize, Option<Ty>)>,
    done: &mut Vec<ir::HelperFn>,
    errors: &mut Errors,
) {
    let def = &helpers[h];
    let name = helper_fn_name(def, inst);
    if done.iter().any(|d| d.name == name) {
        return;
    }
    if stack.contains(&(h, inst)) {
        let chain: Vec<String> = stack
            .iter()
            .map(|(i, _)| ident_name(&helpers[*i].sig.name))
            .chain(std::iter::once(ident_name(&def.sig.name)))
            .collect();
        errors.push(
            span,
            format!(
                "recursion is not supported in kernels: {}",
                chain.join(" -> ")
            ),
        );
        return;
    }
    stack.push((h, inst));
    let before = errors.len();
    let (kernel, calls) = check_fn(&def.sig, &def.body, inst, helpers, &def.deps, errors);
    if errors.len() == before {
        crate::init::check(&kernel, errors);
    }
    for (callee, t, call_span) in calls {
        instantiate(helpers, callee, t, call_span, stack, done, errors);
    }
    stack.pop();
    done.push(ir::HelperFn { name, kernel });
}

/// Checks one function body (a kernel or a helper) for one type; returns its IR
/// and the helper instantiations it calls.
fn check_fn(
    sig: &ast::Signature,
    body: &ast::Block,
    inst: Option<Ty>,
    helpers: &[HelperDef],
    deps: &[(String, String)],
    errors: &mut Errors,
) -> (ir::Kernel, Vec<Need2>) {
    let mut cx = Cx {
        slots: Vec::new(),
        needs: Vec::new(),
        errors,
        inst,
        scopes: vec![HashMap::new()],
        locals: Vec::new(),
        local_tvs: Vec::new(),
        local_spans: Vec::new(),
        deferred: Vec::new(),
        params: Vec::new(),
        outputs: Vec::new(),
        loop_depth: 0,
        helpers,
        deps,
        calls: Vec::new(),
    };
    for p in &sig.params {
        let ty = cx.ty(p.ty);
        cx.params.push(ir::Param {
            name: ident_name(&p.name),
            kind: p.kind,
            ty,
            mutable: p.mutable,
            span: p.name.span(),
        });
    }
    cx.outputs = sig.outputs.iter().map(|(t, _)| cx.ty(*t)).collect();
    let mut ir_body = cx.body(body);
    cx.finish(&mut ir_body);
    let kernel = ir::Kernel {
        name: ident_name(&sig.name),
        inst,
        params: cx.params,
        outputs: cx.outputs,
        locals: cx.locals,
        body: ir_body,
        span: sig.name.span(),
        helpers: Vec::new(),
    };
    (kernel, cx.calls)
}

fn errors_len(e: &Errors) -> usize {
    e.len()
}

struct Cx<'a> {
    slots: Vec<Slot>,
    needs: Vec<(usize, Need, Span)>,
    errors: &'a mut Errors,
    inst: Option<Ty>,
    scopes: Vec<HashMap<String, ir::LocalId>>,
    locals: Vec<ir::Local>,
    local_tvs: Vec<usize>,
    local_spans: Vec<Span>,
    /// Locals declared without a value (`let x;`).
    deferred: Vec<ir::LocalId>,
    params: Vec<ir::Param>,
    outputs: Vec<Ty>,
    loop_depth: usize,
    /// The helpers calls may name.
    helpers: &'a [HelperDef],
    /// How calls in this body name helpers (empty: as written).
    deps: &'a [(String, String)],
    /// The helper instantiations called so far.
    calls: Vec<Need2>,
}

impl Cx<'_> {
    fn in_inst(&self) -> String {
        match self.inst {
            Some(t) => format!(" (in the `{t}` instantiation)"),
            None => String::new(),
        }
    }

    fn err(&mut self, span: Span, msg: impl std::fmt::Display) {
        let msg = format!("{msg}{}", self.in_inst());
        self.errors.push(span, msg);
    }

    fn ty(&self, t: TyRef) -> Ty {
        match t {
            TyRef::Elem(t) => t,
            // without `types` there is no generic parameter, so this is unreachable
            // through `lib.rs`; i32 keeps the checker going if it ever happens
            TyRef::Generic => self.inst.unwrap_or(Ty::I32),
        }
    }

    // ---- type variables ----

    fn var(&mut self, s: Slot) -> usize {
        self.slots.push(s);
        self.slots.len() - 1
    }

    fn known(&mut self, t: Ty) -> usize {
        self.var(Slot::Known(t))
    }

    fn find(&mut self, v: usize) -> usize {
        match self.slots[v] {
            Slot::Link(n) => {
                let root = self.find(n);
                self.slots[v] = Slot::Link(root);
                root
            }
            _ => v,
        }
    }

    fn get(&mut self, v: usize) -> Slot {
        let r = self.find(v);
        self.slots[r]
    }

    fn show(&mut self, v: usize) -> String {
        match self.get(v) {
            Slot::Known(t) => format!("`{t}`"),
            Slot::IntLit => "an integer".into(),
            Slot::FloatLit => "a float".into(),
            _ => "a value".into(),
        }
    }

    /// Makes `a` and `b` one type; reports a mismatch at `span`.
    fn unify(&mut self, a: usize, b: usize, span: Span) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let merged = match (self.slots[ra], self.slots[rb]) {
            (Slot::Unknown, _) => Some((ra, rb)),
            (_, Slot::Unknown) => Some((rb, ra)),
            (Slot::Known(x), Slot::Known(y)) => (x == y).then_some((ra, rb)),
            (Slot::Known(x), Slot::IntLit) => x.is_numeric().then_some((rb, ra)),
            (Slot::IntLit, Slot::Known(y)) => y.is_numeric().then_some((ra, rb)),
            (Slot::Known(x), Slot::FloatLit) => x.is_float().then_some((rb, ra)),
            (Slot::FloatLit, Slot::Known(y)) => y.is_float().then_some((ra, rb)),
            (Slot::IntLit, Slot::FloatLit) => Some((ra, rb)),
            (Slot::FloatLit, Slot::IntLit) => Some((rb, ra)),
            (Slot::IntLit, Slot::IntLit) | (Slot::FloatLit, Slot::FloatLit) => Some((ra, rb)),
            (Slot::Link(_), _) | (_, Slot::Link(_)) => None,
        };
        match merged {
            Some((from, to)) => self.slots[from] = Slot::Link(to),
            None => {
                let (x, y) = (self.show(a), self.show(b));
                let hint = match (self.get(a), self.get(b)) {
                    (Slot::Known(t), Slot::FloatLit) if t.is_int() => {
                        "; a float literal cannot be an integer: write an integer literal"
                    }
                    (Slot::Known(_), Slot::Known(_)) => "; convert explicitly with `as`",
                    _ => "",
                };
                self.err(
                    span,
                    format!("mismatched types: expected {x}, found {y}{hint}"),
                );
            }
        }
    }

    /// Unifies the operands of a binary operator, blaming the operand that is a
    /// literal if one is (else the right one).
    fn unify_operands(&mut self, l: &Expr, r: &Expr) {
        let lit = |e: &Expr| matches!(e.kind, ExprKind::Lit(_) | ExprKind::PendingFloat(_));
        if lit(l) && !lit(r) {
            self.unify(r.tv, l.tv, l.span);
        } else {
            self.unify(l.tv, r.tv, r.span);
        }
    }

    /// The value of a condition made only of type properties (`T::IS_FLOAT`,
    /// `!T::IS_SIGNED && ...`): such an `if` picks its branch per instantiation,
    /// and the other branch is neither checked nor emitted.
    fn static_cond(&self, e: &ast::Expr) -> Option<bool> {
        match &e.kind {
            ast::ExprKind::Const(t, name) => match type_property(self.ty(*t), name) {
                Some((Value::Bool(b), _)) => Some(b),
                _ => None,
            },
            ast::ExprKind::Unary(UnOp::Not, x) => self.static_cond(x).map(|b| !b),
            ast::ExprKind::Binary(BinOp::And, l, r) => {
                Some(self.static_cond(l)? && self.static_cond(r)?)
            }
            ast::ExprKind::Binary(BinOp::Or, l, r) => {
                Some(self.static_cond(l)? || self.static_cond(r)?)
            }
            _ => None,
        }
    }

    fn need(&mut self, v: usize, need: Need, span: Span) {
        self.needs.push((v, need, span));
    }

    fn resolved(&mut self, v: usize) -> Ty {
        match self.get(v) {
            Slot::Known(t) => t,
            Slot::IntLit | Slot::Unknown | Slot::Link(_) => Ty::I32,
            Slot::FloatLit => Ty::F64,
        }
    }

    fn expr(&mut self, kind: ExprKind, tv: usize, span: Span) -> Expr {
        Expr {
            kind,
            ty: Ty::Bool, // decided in `finish`
            span,
            tv,
        }
    }

    // ---- scopes ----

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn declare(&mut self, name: &syn::Ident, mutable: bool, tv: usize) -> ir::LocalId {
        let id = self.locals.len();
        self.locals.push(ir::Local {
            name: ident_name(name),
            ty: Ty::Bool,
            mutable,
        });
        self.local_tvs.push(tv);
        self.local_spans.push(name.span());
        if let Some(s) = self.scopes.last_mut() {
            s.insert(ident_name(name), id);
        }
        id
    }

    fn lookup(&self, name: &str) -> Option<Result<ir::LocalId, ir::ParamId>> {
        for s in self.scopes.iter().rev() {
            if let Some(&id) = s.get(name) {
                return Some(Ok(id));
            }
        }
        self.params.iter().position(|p| p.name == name).map(Err)
    }

    // ---- the body ----

    fn body(&mut self, b: &ast::Block) -> Block {
        if self.outputs.is_empty() {
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

    fn outputs_text(&self) -> String {
        let names: Vec<String> = self.outputs.iter().map(|t| t.to_string()).collect();
        if names.len() == 1 {
            format!("`{}`", names[0])
        } else {
            format!("`({})`", names.join(", "))
        }
    }

    /// A block whose tail is the kernel's returned value.
    fn block_tail(&mut self, b: &ast::Block) -> Block {
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

    fn tail(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        match &e.kind {
            ast::ExprKind::If(c, then, Some(els)) if self.static_cond(c).is_some() => {
                if self.static_cond(c) == Some(true) {
                    // the chosen branch's statements stand in for the `if` (C names
                    // are unique, so no scope is needed)
                    let b = self.block_tail(then);
                    out.extend(b.stmts);
                } else if let ast::ExprKind::Block(b) = &els.kind {
                    let b = self.block_tail(b);
                    out.extend(b.stmts);
                } else {
                    self.tail(els, out);
                }
            }
            ast::ExprKind::If(c, then, Some(els)) => {
                let cond = self.bool_expr(c);
                let then = self.block_tail(then);
                let els = match &els.kind {
                    ast::ExprKind::Block(b) => self.block_tail(b),
                    _ => {
                        let mut b = Block::default();
                        self.tail(els, &mut b.stmts);
                        b
                    }
                };
                out.push(Stmt::If(cond, then, Some(els)));
            }
            ast::ExprKind::Block(b) => out.push(Stmt::Block(self.block_tail(b))),
            ast::ExprKind::If(_, _, None)
            | ast::ExprKind::Return(_)
            | ast::ExprKind::Loop(_)
            | ast::ExprKind::While(..)
            | ast::ExprKind::For(..)
            | ast::ExprKind::Assign(..)
            | ast::ExprKind::Break
            | ast::ExprKind::Continue => self.stmt_expr(e, out),
            _ => {
                let values = self.returned(e);
                out.push(Stmt::Return(values));
            }
        }
    }

    /// The values of `return e` / a tail `e`, checked against the outputs.
    fn returned(&mut self, e: &ast::Expr) -> Vec<Expr> {
        let n = self.outputs.len();
        let elems: Vec<&ast::Expr> = match (&e.kind, n) {
            (ast::ExprKind::Tuple(xs), _) if n != 1 => xs.iter().collect(),
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
        let outs = self.outputs.clone();
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
    fn block_stmts(&mut self, b: &ast::Block) -> Block {
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

    fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        match s {
            ast::Stmt::Let {
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
                    self.deferred.push(id);
                }
                out.push(Stmt::Let(id, init));
            }
            ast::Stmt::Expr(e) => self.stmt_expr(e, out),
        }
    }

    fn stmt_expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        match &e.kind {
            ast::ExprKind::Assign(place, op, value) => {
                if let Some(s) = self.assign(place, *op, value, e.span) {
                    out.push(s);
                }
            }
            ast::ExprKind::If(c, then, els) if self.static_cond(c).is_some() => {
                if self.static_cond(c) == Some(true) {
                    let b = self.block_stmts(then);
                    out.extend(b.stmts);
                } else if let Some(ast::ExprKind::Block(b)) = els.as_ref().map(|e| &e.kind) {
                    let b = self.block_stmts(b);
                    out.extend(b.stmts);
                } else if let Some(els) = els {
                    self.stmt_expr(els, out);
                }
            }
            ast::ExprKind::If(c, then, els) => {
                let cond = self.bool_expr(c);
                let then = self.block_stmts(then);
                let els = els.as_ref().map(|x| match &x.kind {
                    ast::ExprKind::Block(b) => self.block_stmts(b),
                    _ => {
                        let mut b = Block::default();
                        self.stmt_expr(x, &mut b.stmts);
                        b
                    }
                });
                out.push(Stmt::If(cond, then, els));
            }
            ast::ExprKind::While(c, body) => {
                // `break` in a loop condition is an error in Rust (E0590)
                let depth = std::mem::replace(&mut self.loop_depth, 0);
                let cond = self.bool_expr(c);
                self.loop_depth = depth;
                self.loop_depth += 1;
                let body = self.block_stmts(body);
                self.loop_depth -= 1;
                out.push(Stmt::While(cond, body));
            }
            ast::ExprKind::For(var, start, end, inclusive, body) => {
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
            ast::ExprKind::Loop(body) => {
                self.loop_depth += 1;
                let body = self.block_stmts(body);
                self.loop_depth -= 1;
                out.push(Stmt::Loop(body));
            }
            ast::ExprKind::Break | ast::ExprKind::Continue => {
                if self.loop_depth == 0 {
                    self.err(e.span, "`break` / `continue` outside of a loop");
                }
                out.push(if matches!(e.kind, ast::ExprKind::Break) {
                    Stmt::Break
                } else {
                    Stmt::Continue
                });
            }
            ast::ExprKind::Return(value) => {
                let values = match (value, self.outputs.is_empty()) {
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
            ast::ExprKind::Block(b) => out.push(Stmt::Block(self.block_stmts(b))),
            _ => {
                let v = self.value(e);
                out.push(Stmt::Expr(v));
            }
        }
    }

    fn assign(
        &mut self,
        place: &ast::Expr,
        op: Option<BinOp>,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Stmt> {
        let (place_ir, tv) = match &place.kind {
            ast::ExprKind::Var(name) => match self.lookup(&ident_name(name)) {
                Some(Ok(id)) => {
                    // `let x; x = 1;` is allowed once (checked by `init`)
                    if !self.locals[id].mutable && !self.deferred.contains(&id) {
                        self.err(
                            place.span,
                            format!("cannot assign twice to immutable variable `{name}`: declare it with `let mut`"),
                        );
                    }
                    (Place::Local(id), self.local_tvs[id])
                }
                Some(Err(pid)) => {
                    let p = &self.params[pid];
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
            ast::ExprKind::Deref(name) => {
                let pid = self.inout_param(name, place.span)?;
                let t = self.params[pid].ty;
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

    fn inout_param(&mut self, name: &syn::Ident, span: Span) -> Option<ir::ParamId> {
        match self.lookup(&ident_name(name)) {
            Some(Err(pid)) if self.params[pid].kind == ParamKind::InOut => Some(pid),
            _ => {
                self.err(
                    span,
                    format!("`*{name}`: only `&mut` parameters can be dereferenced"),
                );
                None
            }
        }
    }

    fn bool_expr(&mut self, e: &ast::Expr) -> Expr {
        let v = self.value(e);
        let b = self.known(Ty::Bool);
        self.unify(b, v.tv, e.span);
        v
    }

    /// An expression in value position.
    fn value(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Lit(l) => match l {
                ast::Lit::Bool(b) => {
                    let tv = self.known(Ty::Bool);
                    self.expr(ExprKind::Lit(Value::Bool(*b)), tv, span)
                }
                ast::Lit::Int(v, suffix) => {
                    let tv = match suffix {
                        Some(t) => self.known(*t),
                        None => self.var(Slot::IntLit),
                    };
                    self.expr(ExprKind::Lit(Value::Int(*v)), tv, span)
                }
                ast::Lit::Float(text, suffix) => {
                    let tv = match suffix {
                        Some(t) => self.known(*t),
                        None => self.var(Slot::FloatLit),
                    };
                    self.expr(ExprKind::PendingFloat(text.clone()), tv, span)
                }
            },
            ast::ExprKind::Var(name) => match self.lookup(&ident_name(name)) {
                Some(Ok(id)) => {
                    let tv = self.local_tvs[id];
                    self.expr(ExprKind::Local(id), tv, span)
                }
                Some(Err(pid)) => {
                    if self.params[pid].kind == ParamKind::InOut {
                        self.err(
                            span,
                            format!(
                                "`{name}` is a `&mut` parameter: read its value with `*{name}`"
                            ),
                        );
                    }
                    let t = self.params[pid].ty;
                    let tv = self.known(t);
                    self.expr(ExprKind::Param(pid), tv, span)
                }
                None => {
                    self.err(span, format!("cannot find value `{name}` in this kernel"));
                    let tv = self.var(Slot::Unknown);
                    self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
                }
            },
            ast::ExprKind::Const(t, name) if type_property(self.ty(*t), name).is_some() => {
                let (v, vt) =
                    type_property(self.ty(*t), name).unwrap_or((Value::Bool(false), Ty::Bool));
                let tv = self.known(vt);
                self.expr(ExprKind::Lit(v), tv, span)
            }
            ast::ExprKind::Const(t, name) => {
                let t = self.ty(*t);
                let value = constant(t, name);
                let tv = self.known(t);
                match value {
                    Some(v) => self.expr(ExprKind::Lit(v), tv, span),
                    None => {
                        self.err(
                            span,
                            format!(
                                "no constant `{name}` on `{t}`; supported: MAX, MIN{}",
                                if t.is_float() {
                                    ", EPSILON, MIN_POSITIVE, INFINITY, NEG_INFINITY, NAN and the `consts` (PI, E, TAU, SQRT_2, LN_2, ...)"
                                } else {
                                    ""
                                }
                            ),
                        );
                        self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
                    }
                }
            }
            ast::ExprKind::Deref(name) => {
                let tv = self.var(Slot::Unknown);
                match self.inout_param(name, span) {
                    Some(pid) => {
                        let t = self.params[pid].ty;
                        let k = self.known(t);
                        self.unify(tv, k, span);
                        self.expr(ExprKind::Deref(pid), tv, span)
                    }
                    None => self.expr(ExprKind::Lit(Value::Int(0)), tv, span),
                }
            }
            ast::ExprKind::Unary(op, inner) => {
                let x = self.value(inner);
                let need = match op {
                    UnOp::Neg => Need::SignedOrFloat,
                    UnOp::Not => Need::IntOrBool,
                };
                self.need(x.tv, need, span);
                let tv = x.tv;
                self.expr(ExprKind::Unary(*op, Box::new(x)), tv, span)
            }
            ast::ExprKind::Binary(op, l, r) => {
                let (l, r) = (self.value(l), self.value(r));
                let tv = self.binary_types(*op, &l, &r, span);
                self.expr(ExprKind::Binary(*op, Box::new(l), Box::new(r)), tv, span)
            }
            ast::ExprKind::Cast(inner, target) => {
                let x = self.value(inner);
                let t = self.ty(*target);
                self.need(x.tv, Need::CastSource(t), span);
                let tv = self.known(t);
                self.expr(ExprKind::Cast(Box::new(x)), tv, span)
            }
            ast::ExprKind::Method(recv, name, args) => self.method(recv, name, args, span),
            ast::ExprKind::If(c, then, Some(els)) if self.static_cond(c).is_some() => {
                if self.static_cond(c) == Some(true) {
                    let block = self.value_block(then);
                    let tv = match &block.tail {
                        Some(t) => t.tv,
                        None => self.var(Slot::Unknown),
                    };
                    self.expr(ExprKind::Block(block), tv, span)
                } else {
                    self.value(els)
                }
            }
            ast::ExprKind::If(c, then, els) => {
                let cond = self.bool_expr(c);
                let Some(els) = els else {
                    self.err(
                        span,
                        "an `if` without `else` has no value here; add an `else` branch",
                    );
                    let tv = self.var(Slot::Unknown);
                    return self.expr(ExprKind::Lit(Value::Int(0)), tv, span);
                };
                let then = self.value_block(then);
                let els = match &els.kind {
                    ast::ExprKind::Block(b) => self.value_block(b),
                    _ => {
                        let x = self.value(els);
                        Block {
                            stmts: Vec::new(),
                            tail: Some(Box::new(x)),
                        }
                    }
                };
                let tv = self.var(Slot::Unknown);
                for b in [&then, &els] {
                    if let Some(t) = &b.tail {
                        self.unify(tv, t.tv, t.span);
                    }
                }
                self.expr(ExprKind::If(Box::new(cond), then, els), tv, span)
            }
            ast::ExprKind::Block(b) => {
                let block = self.value_block(b);
                let tv = match &block.tail {
                    Some(t) => t.tv,
                    None => self.var(Slot::Unknown),
                };
                self.expr(ExprKind::Block(block), tv, span)
            }
            ast::ExprKind::Call(key, _, args) => self.helper_call(key, args, span),
            ast::ExprKind::Tuple(_) => {
                self.err(span, "tuples are only supported as the returned value of a kernel with several outputs");
                let tv = self.var(Slot::Unknown);
                self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
            }
            _ => {
                self.err(span, "this expression has no value: use it as a statement");
                let tv = self.var(Slot::Unknown);
                self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
            }
        }
    }

    /// A block used as a value: it ends in a value, or it diverges (`return`, ...).
    fn value_block(&mut self, b: &ast::Block) -> Block {
        self.push_scope();
        let mut out = Block::default();
        for s in &b.stmts {
            self.stmt(s, &mut out.stmts);
        }
        match &b.tail {
            Some(t) if is_value_expr(t) => out.tail = Some(Box::new(self.value(t))),
            Some(t) => self.stmt_expr(t, &mut out.stmts),
            None => {}
        }
        if out.tail.is_none() && !diverges(&out) {
            self.err(
                b.span,
                "expected a value: this block does not end in an expression",
            );
        }
        self.pop_scope();
        out
    }

    /// Types `l op r`; returns the result's type variable.
    fn binary_types(&mut self, op: BinOp, l: &Expr, r: &Expr, span: Span) -> usize {
        match op {
            BinOp::And | BinOp::Or => {
                let b = self.known(Ty::Bool);
                self.unify(b, l.tv, l.span);
                self.unify(b, r.tv, r.span);
                b
            }
            BinOp::Shl | BinOp::Shr => {
                self.need(l.tv, Need::Int, l.span);
                self.need(r.tv, Need::Int, r.span);
                l.tv
            }
            _ if op.is_comparison() => {
                self.unify_operands(l, r);
                self.known(Ty::Bool)
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                self.unify_operands(l, r);
                self.need(l.tv, Need::IntOrBool, span);
                l.tv
            }
            _ => {
                self.unify_operands(l, r);
                self.need(l.tv, Need::Numeric, span);
                l.tv
            }
        }
    }

    fn helper_call(&mut self, key: &str, args: &[ast::Expr], span: Span) -> Expr {
        let args: Vec<Expr> = args.iter().map(|a| self.value(a)).collect();
        let fail = |cx: &mut Self| {
            let tv = cx.var(Slot::Unknown);
            cx.expr(ExprKind::Lit(Value::Int(0)), tv, span)
        };
        let helpers = self.helpers;
        let key = self
            .deps
            .iter()
            .find(|(written, _)| written == key)
            .map_or(key, |(_, resolved)| resolved.as_str());
        let Some(h) = helpers.iter().position(|d| d.key == key) else {
            self.err(
                span,
                format!("`{key}` is not a `#[helper]`: mark the function `#[helper(types = [...])]` to call it from kernels"),
            );
            return fail(self);
        };
        let def = &helpers[h];
        if def.sig.params.len() != args.len() {
            self.err(
                span,
                format!(
                    "`{key}` takes {} argument(s), {} given",
                    def.sig.params.len(),
                    args.len()
                ),
            );
            return fail(self);
        }
        // a generic helper is instantiated for the type of its first generic
        // argument (else for the kernel's own type)
        let inst = if def.sig.generic.is_some() {
            let mut t = None;
            for (a, p) in args.iter().zip(&def.sig.params) {
                if p.ty == TyRef::Generic {
                    if let Slot::Known(x) = self.get(a.tv) {
                        t = Some(x);
                        break;
                    }
                }
            }
            match t.or(self.inst) {
                Some(t) if def.types.contains(&t) => Some(t),
                Some(t) => {
                    let list: Vec<&str> = def.types.iter().map(|t| t.name()).collect();
                    self.err(
                        span,
                        format!(
                            "helper `{key}` is not instantiated for `{t}` (its types: {})",
                            list.join(", ")
                        ),
                    );
                    return fail(self);
                }
                None => {
                    self.err(span, format!("cannot tell which instantiation of helper `{key}` to call: give an argument a type"));
                    return fail(self);
                }
            }
        } else {
            None
        };
        let resolve = |r: TyRef| match r {
            TyRef::Generic => inst.unwrap_or(Ty::I32),
            TyRef::Elem(t) => t,
        };
        for (a, p) in args.iter().zip(&def.sig.params) {
            let k = self.known(resolve(p.ty));
            self.unify(k, a.tv, a.span);
        }
        let ret = def
            .sig
            .outputs
            .first()
            .map_or(Ty::Bool, |(r, _)| resolve(*r));
        let tv = self.known(ret);
        if !self.calls.iter().any(|(hh, tt, _)| *hh == h && *tt == inst) {
            self.calls.push((h, inst, span));
        }
        self.expr(ExprKind::Helper(helper_fn_name(def, inst), args), tv, span)
    }

    fn method(
        &mut self,
        recv: &ast::Expr,
        name: &syn::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Expr {
        let r = self.value(recv);
        let args: Vec<Expr> = args.iter().map(|a| self.value(a)).collect();
        let fail = |cx: &mut Self| {
            let tv = cx.var(Slot::Unknown);
            cx.expr(ExprKind::Lit(Value::Int(0)), tv, span)
        };
        let recv_ty = match self.get(r.tv) {
            Slot::Known(t) => t,
            Slot::IntLit | Slot::FloatLit => {
                self.err(
                    name.span(),
                    format!("can't call method `{name}` on an ambiguous number: give it a suffix (`2.0f32`) or a typed `let`"),
                );
                return fail(self);
            }
            _ => {
                self.err(
                    name.span(),
                    format!("can't call method `{name}`: the receiver's type is not known yet"),
                );
                return fail(self);
            }
        };
        let sig = match builtins::resolve(&name.to_string(), recv_ty) {
            Ok(s) => s,
            Err(msg) => {
                self.err(name.span(), msg);
                return fail(self);
            }
        };
        if sig.args.len() != args.len() {
            self.err(
                span,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    sig.args.len(),
                    args.len()
                ),
            );
            return fail(self);
        }
        for (a, rel) in args.iter().zip(&sig.args) {
            let t = rel.apply(recv_ty);
            let k = self.known(t);
            self.unify(k, a.tv, a.span);
        }
        let ret = match sig.ret {
            Rel::Same => r.tv,
            other => {
                let t = other.apply(recv_ty);
                self.known(t)
            }
        };
        let mut all = vec![r];
        all.extend(args);
        self.expr(ExprKind::Call(sig.builtin, all), ret, span)
    }

    // ---- after inference ----

    fn finish(&mut self, body: &mut Block) {
        for i in 0..self.locals.len() {
            let tv = self.local_tvs[i];
            if matches!(self.get(tv), Slot::Unknown) {
                let name = self.locals[i].name.clone();
                let span = self.local_spans[i];
                self.err(
                    span,
                    format!("type annotations needed for `{name}`: write `let {name}: T`"),
                );
            }
            self.locals[i].ty = self.resolved(tv);
        }
        let needs = std::mem::take(&mut self.needs);
        for (tv, need, span) in needs {
            let t = self.resolved(tv);
            let ok = match need {
                Need::Numeric => t.is_numeric(),
                Need::Int => t.is_int(),
                Need::IntOrBool => !t.is_float(),
                Need::SignedOrFloat => t.is_signed_int() || t.is_float(),
                Need::CastSource(target) => {
                    if target == Ty::Bool && t != Ty::Bool {
                        self.err(span, "cannot cast to `bool`: compare instead (`x != 0`)");
                        continue;
                    }
                    // `bool as f32` is a silt extension (Rust needs `as u8 as f32`)
                    t != Ty::Bool || target.is_numeric() || target == Ty::Bool
                }
            };
            if !ok {
                let msg = match need {
                    Need::Numeric => format!("arithmetic is not defined on `{t}`"),
                    Need::Int => format!("expected an integer, found `{t}`"),
                    Need::IntOrBool => {
                        format!("bitwise operators need integers or `bool`, found `{t}`")
                    }
                    Need::SignedOrFloat => format!("cannot negate a value of type `{t}`"),
                    Need::CastSource(target) => format!("cannot cast `{t}` as `{target}`"),
                };
                self.err(span, msg);
            }
        }
        self.finish_block(body);
    }

    fn finish_block(&mut self, b: &mut Block) {
        for s in &mut b.stmts {
            match s {
                Stmt::Let(_, Some(e)) | Stmt::Assign(_, _, e) | Stmt::Expr(e) => {
                    self.finish_expr(e)
                }
                Stmt::Let(_, None) | Stmt::Break | Stmt::Continue => {}
                Stmt::If(c, t, e) => {
                    self.finish_expr(c);
                    self.finish_block(t);
                    if let Some(e) = e {
                        self.finish_block(e);
                    }
                }
                Stmt::While(c, body) => {
                    self.finish_expr(c);
                    self.finish_block(body);
                }
                Stmt::For(_, a, z, _, body) => {
                    self.finish_expr(a);
                    self.finish_expr(z);
                    self.finish_block(body);
                }
                Stmt::Loop(body) | Stmt::Block(body) => self.finish_block(body),
                Stmt::Return(vs) => vs.iter_mut().for_each(|v| self.finish_expr(v)),
            }
        }
        if let Some(t) = &mut b.tail {
            self.finish_expr(t);
        }
    }

    fn finish_expr(&mut self, e: &mut Expr) {
        e.ty = self.resolved(e.tv);
        match &mut e.kind {
            ExprKind::Lit(v) => {
                if let Value::Int(i) = *v {
                    *v = match e.ty {
                        Ty::F16 => {
                            let x = silt_abi::round_f16(i as f64);
                            if x.is_infinite() {
                                self.err(e.span, "literal out of range for `f16`");
                            }
                            Value::F32(x)
                        }
                        Ty::F32 => Value::F32(i as f32),
                        Ty::F64 => Value::F64(i as f64),
                        t => {
                            if !int_fits(i, t) {
                                self.err(e.span, format!("literal out of range for `{t}`"));
                            }
                            Value::Int(i)
                        }
                    };
                }
            }
            ExprKind::PendingFloat(text) => {
                let v = match e.ty {
                    Ty::F16 => text
                        .parse::<f64>()
                        .ok()
                        .map(|x| Value::F32(silt_abi::round_f16(x))),
                    Ty::F32 => text.parse::<f32>().ok().map(Value::F32),
                    _ => text.parse::<f64>().ok().map(Value::F64),
                };
                let infinite = match v {
                    Some(Value::F32(x)) => x.is_infinite(),
                    Some(Value::F64(x)) => x.is_infinite(),
                    _ => false,
                };
                if infinite {
                    // as rustc's `overflowing_literals`
                    self.err(e.span, format!("literal out of range for `{}`", e.ty));
                }
                match v {
                    Some(v) => e.kind = ExprKind::Lit(v),
                    None => {
                        self.err(e.span, "invalid float literal");
                        e.kind = ExprKind::Lit(Value::F64(0.0));
                    }
                }
            }
            ExprKind::Local(_) | ExprKind::Param(_) | ExprKind::Deref(_) => {}
            ExprKind::Unary(_, x) | ExprKind::Cast(x) => self.finish_expr(x),
            ExprKind::Binary(_, l, r) => {
                self.finish_expr(l);
                self.finish_expr(r);
            }
            ExprKind::Call(_, args) | ExprKind::Helper(_, args) => {
                args.iter_mut().for_each(|a| self.finish_expr(a))
            }
            ExprKind::If(c, t, f) => {
                self.finish_expr(c);
                self.finish_block(t);
                self.finish_block(f);
            }
            ExprKind::Block(b) => self.finish_block(b),
        }
    }
}

/// An identifier's name without `r#`.
pub(crate) fn ident_name(i: &syn::Ident) -> String {
    syn::ext::IdentExt::unraw(i).to_string()
}

fn is_value_expr(e: &ast::Expr) -> bool {
    !matches!(
        e.kind,
        ast::ExprKind::Assign(..)
            | ast::ExprKind::While(..)
            | ast::ExprKind::For(..)
            | ast::ExprKind::Loop(_)
            | ast::ExprKind::Break
            | ast::ExprKind::Continue
            | ast::ExprKind::Return(_)
    ) && !matches!(&e.kind, ast::ExprKind::If(_, _, None))
}

/// Whether control never reaches the end of `b` (every path returns, breaks or
/// continues, or loops forever).
pub fn diverges(b: &Block) -> bool {
    b.stmts.iter().any(stmt_diverges)
}

fn stmt_diverges(s: &Stmt) -> bool {
    match s {
        Stmt::Return(_) | Stmt::Break | Stmt::Continue => true,
        Stmt::If(_, t, Some(e)) => diverges(t) && diverges(e),
        Stmt::Block(b) => diverges(b),
        Stmt::Loop(body) => !loop_breaks(body),
        _ => false,
    }
}

/// Whether a loop body can `break` out of this loop (not out of a nested one),
/// also from inside an expression (`let v = if c { break; } else { 1 };`).
pub(crate) fn loop_breaks(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Break => true,
        Stmt::If(c, t, e) => {
            expr_breaks(c) || loop_breaks(t) || e.as_ref().is_some_and(loop_breaks)
        }
        Stmt::Block(b) => loop_breaks(b),
        Stmt::Let(_, Some(x)) | Stmt::Assign(_, _, x) | Stmt::Expr(x) => expr_breaks(x),
        Stmt::Return(vs) => vs.iter().any(expr_breaks),
        // `while`/`for` conditions and ranges cannot break (checked), bodies are
        // nested loops
        _ => false,
    }) || b.tail.as_ref().is_some_and(|t| expr_breaks(t))
}

fn expr_breaks(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::If(c, t, f) => expr_breaks(c) || loop_breaks(t) || loop_breaks(f),
        ExprKind::Block(b) => loop_breaks(b),
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => expr_breaks(x),
        ExprKind::Binary(_, l, r) => expr_breaks(l) || expr_breaks(r),
        ExprKind::Call(_, args) | ExprKind::Helper(_, args) => args.iter().any(expr_breaks),
        _ => false,
    }
}

fn int_fits(v: i128, t: Ty) -> bool {
    let (lo, hi): (i128, i128) = match t {
        Ty::U8 => (0, u8::MAX.into()),
        Ty::I8 => (i8::MIN.into(), i8::MAX.into()),
        Ty::U16 => (0, u16::MAX.into()),
        Ty::I16 => (i16::MIN.into(), i16::MAX.into()),
        Ty::U32 => (0, u32::MAX.into()),
        Ty::I32 => (i32::MIN.into(), i32::MAX.into()),
        Ty::U64 => (0, u64::MAX.into()),
        Ty::I64 => (i64::MIN.into(), i64::MAX.into()),
        _ => return false,
    };
    (lo..=hi).contains(&v)
}

/// The type properties `T::IS_FLOAT`, `T::IS_INT`, `T::IS_SIGNED`, `T::IS_BOOL`
/// (`bool`) and `T::BITS` (`u32`), with their types.
fn type_property(t: Ty, name: &str) -> Option<(Value, Ty)> {
    Some(match name {
        "IS_FLOAT" => (Value::Bool(t.is_float()), Ty::Bool),
        "IS_INT" => (Value::Bool(t.is_int()), Ty::Bool),
        "IS_SIGNED" => (Value::Bool(t.is_signed_int() || t.is_float()), Ty::Bool),
        "IS_BOOL" => (Value::Bool(t == Ty::Bool), Ty::Bool),
        "BITS" => (Value::Int(i128::from(t.bits())), Ty::U32),
        _ => return None,
    })
}

/// The value of `T::NAME`.
fn constant(t: Ty, name: &str) -> Option<Value> {
    macro_rules! float_consts {
        ($f:ident, $wrap:expr) => {{
            use std::$f::consts as c;
            let v: $f = match name {
                "MAX" => $f::MAX,
                "MIN" => $f::MIN,
                "EPSILON" => $f::EPSILON,
                "MIN_POSITIVE" => $f::MIN_POSITIVE,
                "INFINITY" => $f::INFINITY,
                "NEG_INFINITY" => $f::NEG_INFINITY,
                "NAN" => $f::NAN,
                "PI" => c::PI,
                "TAU" => c::TAU,
                "E" => c::E,
                "SQRT_2" => c::SQRT_2,
                "FRAC_1_SQRT_2" => c::FRAC_1_SQRT_2,
                "LN_2" => c::LN_2,
                "LN_10" => c::LN_10,
                "LOG2_E" => c::LOG2_E,
                "LOG10_E" => c::LOG10_E,
                "LOG2_10" => c::LOG2_10,
                "LOG10_2" => c::LOG10_2,
                "FRAC_PI_2" => c::FRAC_PI_2,
                "FRAC_PI_3" => c::FRAC_PI_3,
                "FRAC_PI_4" => c::FRAC_PI_4,
                "FRAC_PI_6" => c::FRAC_PI_6,
                "FRAC_PI_8" => c::FRAC_PI_8,
                "FRAC_1_PI" => c::FRAC_1_PI,
                "FRAC_2_PI" => c::FRAC_2_PI,
                "FRAC_2_SQRT_PI" => c::FRAC_2_SQRT_PI,
                _ => return None,
            };
            Some($wrap(v))
        }};
    }
    macro_rules! int_consts {
        ($i:ident) => {
            match name {
                "MAX" => Some(Value::Int($i::MAX.into())),
                "MIN" => Some(Value::Int($i::MIN.into())),
                _ => None,
            }
        };
    }
    match t {
        Ty::F16 => match name {
            "MAX" => Some(Value::F32(65504.0)),
            "MIN" => Some(Value::F32(-65504.0)),
            "EPSILON" => Some(Value::F32(0.000_976_562_5)),
            "MIN_POSITIVE" => Some(Value::F32(6.103_515_6e-5)),
            _ => match constant(Ty::F64, name)? {
                Value::F64(v) => Some(Value::F32(silt_abi::round_f16(v))),
                _ => None,
            },
        },
        Ty::F32 => float_consts!(f32, Value::F32),
        Ty::F64 => float_consts!(f64, Value::F64),
        Ty::U8 => int_consts!(u8),
        Ty::I8 => int_consts!(i8),
        Ty::U16 => int_consts!(u16),
        Ty::I16 => int_consts!(i16),
        Ty::U32 => int_consts!(u32),
        Ty::I32 => int_consts!(i32),
        Ty::U64 => int_consts!(u64),
        Ty::I64 => int_consts!(i64),
        Ty::Bool => None,
    }
}

//! A function body as a C function: the emitter's state, and statements.

use std::collections::{BTreeSet, HashMap};

use super::c::{needs_hoist, PRIMARY};
use super::consts::{const_expr, const_locals};
use super::names::{c_ident, helper_fn_name};
use super::polyfill::Polyfill;
use super::types::ClType;
use crate::ir::{Block, Expr, ExprKind, Function, ParamKind, Place, Stmt};

/// Writes one function body (a kernel's or a helper's) as a C function, and the
/// entry points around a kernel's.
pub(super) struct Emitter<'k> {
    /// The function.
    pub(super) f: &'k Function,
    /// The C function's name.
    pub(super) name: String,
    /// The polyfills the text written so far calls.
    pub(super) polyfills: BTreeSet<Polyfill>,
    /// The C names of the locals.
    pub(super) locals: Vec<String>,
    /// The C names of the parameters.
    pub(super) params: Vec<String>,
    /// The C names of a grid kernel's work-group arrays.
    pub(super) arrays: Vec<String>,
    /// The text written so far.
    pub(super) out: String,
    pub(super) indent: usize,
    /// Temporaries made so far (`silt_t1`, ...).
    tmp: usize,
    /// The Rust line of the statement being emitted (0: unknown).
    rust_line: usize,
    /// (line of `out`, Rust line) for each line emitted for a statement.
    pub(super) line_map: Vec<(usize, usize)>,
    /// Which locals only ever hold values known when the program is compiled.
    const_locals: Vec<bool>,
    /// Whether view accesses are checked (a grid kernel without `unchecked`).
    pub(super) checked: bool,
}

impl<'k> Emitter<'k> {
    /// See [`const_expr`].
    pub(super) fn is_const(&self, e: &Expr) -> bool {
        const_expr(e, &self.const_locals)
    }

    /// An emitter of the function `f`, whose C function is called `name`.
    pub(super) fn new(f: &'k Function, name: String) -> Self {
        let k = f;
        // unique C names: the first `x` is `x`, shadowing ones `x_1`, `x_2`, ...
        let mut used: HashMap<String, usize> = HashMap::new();
        let mut unique = |name: &str| {
            let base = c_ident(name);
            if !used.contains_key(&base) {
                used.insert(base.clone(), 0);
                return base;
            }
            let mut n = used.get(&base).copied().unwrap_or(0);
            let name = loop {
                n += 1;
                let candidate = format!("{base}_{n}");
                if !used.contains_key(&candidate) {
                    break candidate;
                }
            };
            used.insert(base, n);
            used.insert(name.clone(), 0);
            name
        };
        let params: Vec<String> = k.params.iter().map(|p| unique(&p.name)).collect();
        let locals = k.locals.iter().map(|l| unique(&l.name)).collect();
        let arrays = k.arrays.iter().map(|a| unique(&a.name)).collect();
        Emitter {
            f,
            name,
            polyfills: BTreeSet::new(),
            locals,
            params,
            arrays,
            out: String::new(),
            indent: 1,
            tmp: 0,
            rust_line: 0,
            line_map: Vec::new(),
            const_locals: const_locals(k),
            checked: false,
        }
    }

    pub(super) fn line(&mut self, s: &str) {
        if self.rust_line > 0 {
            let at = self.out.matches('\n').count();
            self.line_map.push((at, self.rust_line));
        }
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    pub(super) fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("silt_t{}", self.tmp)
    }

    /// `static RET NAME(params) { ... }`: the function with its body; values of
    /// several outputs are written through `silt_retN` pointers.
    pub(super) fn body_function(&mut self) -> String {
        let k = self.f;
        let mut params: Vec<String> = k
            .params
            .iter()
            .zip(&self.params)
            .map(|(p, n)| match p.kind {
                ParamKind::InOut => format!("{}* {n}", p.ty.value_type()),
                ParamKind::Index => format!("ulong {n}"),
                ParamKind::View(_) | ParamKind::ViewMut(_) => {
                    let q = if p.kind.rank().is_some() && matches!(p.kind, ParamKind::View(_)) {
                        "const "
                    } else {
                        ""
                    };
                    format!(
                        "__global {q}{}* {n}, ulong silt_off_{n}, ulong16 silt_st_{n}, ulong16 silt_sh_{n}",
                        p.ty.storage_type()
                    )
                }
                _ => format!("{} {n}", p.ty.value_type()),
            })
            .collect();
        for (a, n) in k.arrays.iter().zip(&self.arrays) {
            if !a.private {
                params.push(format!("__local {}* {n}", a.ty.storage_type()));
            }
        }
        if self.checked {
            params.push("__global uint* silt_err".into());
        }
        let ret = if k.outputs.len() == 1 {
            k.outputs[0].value_type().to_string()
        } else {
            for (i, t) in k.outputs.iter().enumerate() {
                params.push(format!("{}* silt_ret{i}", t.value_type()));
            }
            "void".to_string()
        };
        if params.is_empty() {
            params.push("void".into());
        }
        self.out.clear();
        self.line_map.clear();
        self.indent = 1;
        // each work-item's own arrays, zeroed
        for (a, n) in k.arrays.iter().zip(self.arrays.clone()) {
            if a.private {
                self.line(&format!(
                    "{} {n}[{}] = {{0}};",
                    a.ty.storage_type(),
                    a.elements()
                ));
            }
        }
        let body = k.body.clone();
        self.stmts(&body);
        self.rust_line = 0;
        let text = std::mem::take(&mut self.out);
        // the function's first line is its signature
        for (at, _) in &mut self.line_map {
            *at += 1;
        }
        format!(
            "static {ret} {}({}) {{\n{text}}}\n",
            self.name,
            params.join(", ")
        )
    }

    pub(super) fn stmts(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
        if let Some(t) = &b.tail {
            let v = self.expr(t);
            self.line(&format!("(void)({v});"));
        }
    }

    /// `} else {` ... or, for an `else` holding just an `if` whose condition needs
    /// no statements, `} else if (...) {`.
    fn else_branch(&mut self, f: Option<&Block>) {
        let Some(f) = f else { return };
        if let ([Stmt::If(c, t, f2)], None) = (f.stmts.as_slice(), &f.tail) {
            if !needs_hoist(c) {
                let c = self.expr(c);
                self.line(&format!("}} else if ({c}) {{"));
                self.nested(t);
                self.else_branch(f2.as_ref());
                return;
            }
        }
        self.line("} else {");
        self.nested(f);
    }

    fn nested(&mut self, b: &Block) {
        self.indent += 1;
        self.stmts(b);
        self.indent -= 1;
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        let span = match s {
            Stmt::Let(_, Some(e))
            | Stmt::LetCall(_, e)
            | Stmt::Assign(_, _, e)
            | Stmt::Store(_, _, _, e)
            | Stmt::Expr(e)
            | Stmt::If(e, ..)
            | Stmt::While(e, _)
            | Stmt::For(_, e, ..) => Some(e.span),
            Stmt::Return(es) => es.first().map(|e| e.span),
            _ => None,
        };
        if let Some(line) = span.map(|sp| sp.start().line).filter(|&l| l > 0) {
            self.rust_line = line;
        }
        match s {
            Stmt::Let(id, init) => {
                let ty = self.f.locals[*id].ty.value_type();
                let name = self.locals[*id].clone();
                match init {
                    Some(e) => {
                        let v = self.expr(e);
                        self.line(&format!("{ty} {name} = {v};"));
                    }
                    None => self.line(&format!("{ty} {name};")),
                }
            }
            Stmt::LetCall(ids, call) if ids.len() == 1 => {
                // a helper with one result returns it
                let id = ids[0];
                let ty = self.f.locals[id].ty.value_type();
                let name = self.locals[id].clone();
                let v = self.expr(call);
                self.line(&format!("{ty} {name} = {v};"));
            }
            Stmt::LetCall(ids, call) => {
                let mut outs = Vec::new();
                for &id in ids {
                    let ty = self.f.locals[id].ty.value_type();
                    let name = self.locals[id].clone();
                    self.line(&format!("{ty} {name};"));
                    outs.push(format!("&{name}"));
                }
                // the helper writes its results through its `silt_retN`
                // pointers (the checker makes a `LetCall` of helper calls alone)
                if let ExprKind::Helper(h, args) = &call.kind {
                    let mut vs = self.args_in_order(args);
                    vs.extend(outs);
                    self.line(&format!("{}({});", helper_fn_name(h), vs.join(", ")));
                } else {
                    let v = self.expr(call);
                    self.line(&format!("(void)({v});"));
                }
            }
            Stmt::Assign(place, op, value) => {
                let (target, ty) = match place {
                    Place::Local(id) => (self.locals[*id].clone(), self.f.locals[*id].ty),
                    Place::Param(pid) => (self.params[*pid].clone(), self.f.params[*pid].ty),
                    Place::Deref(pid) => {
                        (format!("(*{})", self.params[*pid]), self.f.params[*pid].ty)
                    }
                };
                let (v, p) = self.pexpr(value);
                let v = match op {
                    None => v,
                    Some(op) => {
                        self.binary_text(*op, ty, value.ty, (&target, PRIMARY), (&v, p))
                            .0
                    }
                };
                self.line(&format!("{target} = {v};"));
            }
            Stmt::Store(pid, ix, op, value) => {
                // the indices once each, in order, before the value
                let mut at = Vec::new();
                for i in ix {
                    let v = self.expr(i);
                    at.push(self.spill(i.ty, v));
                }
                let (v, p) = self.pexpr(value);
                let v = match op {
                    None => v,
                    Some(op) => {
                        let old = self.view_get(*pid, &at);
                        let ty = match *pid {
                            crate::ir::Array::View(p) => self.f.params[p].ty,
                            crate::ir::Array::Local(i) => self.f.arrays[i].ty,
                        };
                        self.binary_text(*op, ty, value.ty, (&old, PRIMARY), (&v, p))
                            .0
                    }
                };
                let s = self.view_set(*pid, &at, &v);
                self.line(&s);
            }
            Stmt::Barrier(_) => self.line("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"),
            Stmt::Expr(e) => {
                let v = self.expr(e);
                self.line(&format!("(void)({v});"));
            }
            Stmt::If(c, t, f) => {
                let c = self.expr(c);
                self.line(&format!("if ({c}) {{"));
                self.nested(t);
                self.else_branch(f.as_ref());
                self.line("}");
            }
            Stmt::While(c, body) => {
                if needs_hoist(c) {
                    self.line("for (;;) {");
                    self.indent += 1;
                    let cv = self.expr(c);
                    self.line(&format!("if (!({cv})) break;"));
                    self.indent -= 1;
                } else {
                    let cv = self.expr(c);
                    self.line(&format!("while ({cv}) {{"));
                }
                self.nested(body);
                self.line("}");
            }
            Stmt::For(id, start, end, inclusive, body) => {
                let t = self.f.locals[*id].ty;
                let ty = t.value_type();
                let var = self.locals[*id].clone();
                let a = self.expr(start);
                let a_tmp = self.fresh();
                self.line(&format!("{ty} {a_tmp} = {a};"));
                let z = self.expr(end);
                let end_tmp = self.fresh();
                self.line(&format!("{ty} {end_tmp} = {z};"));
                if *inclusive {
                    // `a..=b` may end at the type's MAX: step only while i != b
                    let more = self.fresh();
                    self.line(&format!(
                        "for ({ty} {var} = {a_tmp}, {more} = ({a_tmp} <= {end_tmp}); {more}; {more} = ({var} != {end_tmp}), {var} = {more} ? ({ty})({var} + 1) : {var}) {{"
                    ));
                } else {
                    self.line(&format!(
                        "for ({ty} {var} = {a_tmp}; {var} < {end_tmp}; {var} = ({ty})({var} + 1)) {{"
                    ));
                }
                self.nested(body);
                self.line("}");
            }
            Stmt::Loop(body) => {
                self.line("for (;;) {");
                self.nested(body);
                self.line("}");
            }
            Stmt::Break => self.line("break;"),
            Stmt::Continue => self.line("continue;"),
            Stmt::Return(values) => {
                let mut vs: Vec<String> = Vec::new();
                for (i, v) in values.iter().enumerate() {
                    let mut text = self.expr(v);
                    // Rust evaluates the values left to right
                    if values[i + 1..].iter().any(needs_hoist) {
                        text = self.spill(v.ty, text);
                    }
                    vs.push(text);
                }
                match vs.len() {
                    0 => self.line("return;"),
                    1 if self.f.outputs.len() == 1 => {
                        let v = vs[0].clone();
                        self.line(&format!("return {v};"));
                    }
                    _ => {
                        for (i, v) in vs.iter().enumerate() {
                            self.line(&format!("*silt_ret{i} = {v};"));
                        }
                        self.line("return;");
                    }
                }
            }
            Stmt::Block(b) => {
                self.line("{");
                self.nested(b);
                self.line("}");
            }
        }
    }
}

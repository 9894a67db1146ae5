//! Statements: `let` (typed, untyped, deferred, shadowing), assignments,
//! `if`, loops, `break`/`continue`, early `return`, blocks. Loops of a kernel
//! that runs end after a few iterations; those of a kernel that is only
//! compiled may have any condition or range.

use silt_abi::DType;

use crate::ast::{Blk, E, S};
use crate::gen::{Gen, Var};
use crate::kernel::Ty;

impl Gen<'_> {
    pub fn stmts(&mut self, n: usize, depth: usize) -> Vec<S> {
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.stmt(depth, &mut out);
        }
        out
    }

    fn stmt(&mut self, depth: usize, out: &mut Vec<S>) {
        self.budget -= 1;
        let nested_ok = self.block_depth < 3;
        let loop_ok = nested_ok && self.loop_depth < 2;
        let bool_t = Ty::Elem(DType::Bool);
        match self.below(100) {
            0..=29 => {
                if !(self.pct(25) && self.let_call(depth, out)) {
                    self.let_stmt(depth, out);
                }
            }
            30..=49 => {
                if !self.assign(depth, out) {
                    self.let_stmt(depth, out);
                }
            }
            50..=56 => self.deferred_let(depth, out),
            57..=66 if nested_ok => {
                let c = self.expr(bool_t, depth, false);
                let a = self.stmt_blk(depth);
                let b = self.c.bool().then(|| self.stmt_blk(depth));
                out.push(S::If(c.e, a, b));
            }
            67..=74 if loop_ok => self.for_loop(depth, out),
            75..=79 if loop_ok => self.while_loop(depth, out),
            80..=82 if loop_ok => self.loop_loop(depth, out),
            83..=87 if self.loop_depth > 0 => {
                let c = self.expr(bool_t, depth, false);
                let s = if self.pct(60) { S::Break } else { S::Continue };
                out.push(S::If(c.e, Blk::of(s), None));
            }
            88..=90 => {
                let c = self.expr(bool_t, depth, false);
                let r = self.ret(depth);
                out.push(S::If(c.e, Blk::of(r), None));
            }
            91..=93 if nested_ok => match self.static_cond() {
                Some((c, yes, no)) => {
                    let a = self.narrowed(yes, |g| g.stmt_blk(depth));
                    let b = self.narrowed(no, |g| g.stmt_blk(depth));
                    out.push(S::If(c, a, Some(b)));
                }
                None => self.let_stmt(depth, out),
            },
            94..=95 => {
                let t = self.any_tt();
                // silt does not unify the branches of an `if` whose value is
                // discarded: a literal alone in its branch is an `i32` there
                let outer = std::mem::replace(&mut self.small_lits, true);
                let e = self.expr(t, depth, true);
                self.small_lits = outer;
                out.push(if self.c.bool() {
                    S::LetWild(e.e)
                } else {
                    S::Expr(e.e)
                });
            }
            96..=97 if nested_ok => {
                let b = self.stmt_blk(depth);
                out.push(S::Block(b));
            }
            _ => self.let_stmt(depth, out),
        }
    }

    fn stmt_blk(&mut self, depth: usize) -> Blk {
        self.nested(|g| {
            let n = g.range(1, 3);
            Blk {
                stmts: g.stmts(n, depth),
                tail: None,
            }
        })
    }

    fn let_stmt(&mut self, depth: usize, out: &mut Vec<S>) {
        let t = self.any_tt();
        let annotate = self.pct(35);
        let mutable = self.pct(45);
        // without an annotation the value must fix the type, or be a value whose
        // type may default (`let x = 3;` becomes whatever uses of `x` make it)
        let loose = !annotate && self.pct(30);
        let outer = std::mem::replace(&mut self.small_lits, loose);
        let init = self.expr(t, depth, !annotate && !loose);
        self.small_lits = outer;
        // shadow a visible local of any type now and then
        let locals: Vec<String> = self
            .scopes
            .iter()
            .skip(1)
            .flatten()
            .filter(|v| !v.deref)
            .map(|v| v.name.clone())
            .collect();
        let name = if !locals.is_empty() && self.pct(10) {
            locals[self.below(locals.len())].clone()
        } else {
            self.fresh("v")
        };
        let ty = annotate.then(|| self.tname(t));
        out.push(S::Let(name.clone(), mutable, ty, Some(init.e)));
        self.declare(Var::local(name, t, annotate || init.det, mutable));
    }

    /// `let (a, mut b, _) = h(..);` for a helper `h` with several results
    /// (sometimes nested: `let ((a, b), c) = (h(..), e);`, or every result
    /// dropped: `let (_, x) = (h(..), e);`); `false` when no helper here has
    /// several.
    fn let_call(&mut self, depth: usize, out: &mut Vec<S>) -> bool {
        let multi: Vec<_> = self
            .helpers
            .iter()
            .filter(|h| h.rets.len() > 1)
            .cloned()
            .collect();
        if multi.is_empty() {
            return false;
        }
        let h = multi[self.below(multi.len())].clone();
        let insts = self.call_insts(&h);
        let inst = insts[self.below(insts.len())];
        let call = self.call_of(&h, inst, depth);
        let rets: Vec<Ty> = h
            .rets
            .iter()
            .map(|&t| match (t, inst) {
                (Ty::Param, Some(i)) => i,
                _ => t,
            })
            .collect();
        // the names, bound once every value is computed
        let mut vars = Vec::new();
        let mut names = Vec::new();
        for &t in &rets {
            if self.pct(20) {
                names.push("_".to_string());
            } else {
                let mutable = self.pct(30);
                let name = self.fresh("t");
                names.push(format!("{}{name}", if mutable { "mut " } else { "" }));
                vars.push(Var::local(name, t, true, mutable));
            }
        }
        let pattern = format!("({})", names.join(", "));
        match self.below(10) {
            0..=6 => out.push(S::LetPat(pattern, call)),
            7..=8 => {
                // nested in a tuple with a value of its own
                let t = self.any_tt();
                let v = self.expr(t, depth, true);
                let name = self.fresh("t");
                out.push(S::LetPat(
                    format!("({pattern}, {name})"),
                    E::Tuple(vec![call, v.e]),
                ));
                vars.push(Var::local(name, t, v.det, false));
            }
            _ => {
                // the call's results all dropped (its names unused)
                vars.clear();
                let t = self.any_tt();
                let v = self.expr(t, depth, true);
                let name = self.fresh("t");
                out.push(S::LetPat(format!("(_, {name})"), E::Tuple(vec![call, v.e])));
                vars.push(Var::local(name, t, v.det, false));
            }
        }
        for v in vars {
            self.declare(v);
        }
        true
    }

    /// `let x: t; if c { x = a; } else { x = b; }`, the same without the type,
    /// or `let x; x = e;`.
    fn deferred_let(&mut self, depth: usize, out: &mut Vec<S>) {
        let t = self.any_tt();
        let name = self.fresh("d");
        let form = self.below(3);
        if form < 2 {
            // the type comes from the annotation, or from both values
            let typed = form == 0;
            let ty = typed.then(|| self.tname(t));
            out.push(S::Let(name.clone(), false, ty, None));
            let c = self.expr(Ty::Elem(DType::Bool), depth, false);
            let a = self.expr(t, depth, !typed);
            let b = self.expr(t, depth, !typed);
            let det = typed || a.det || b.det;
            let set = |e: E| Blk::of(S::Assign(name.clone(), None, e));
            out.push(S::If(c.e, set(a.e), Some(set(b.e))));
            self.declare(Var::local(name, t, det, false));
        } else {
            out.push(S::Let(name.clone(), false, None, None));
            let e = self.expr(t, depth, true);
            out.push(S::Assign(name.clone(), None, e.e));
            self.declare(Var::local(name, t, e.det, false));
        }
    }

    fn assign(&mut self, depth: usize, out: &mut Vec<S>) -> bool {
        let targets: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable)
            .collect();
        if targets.is_empty() {
            return false;
        }
        let v = targets[self.below(targets.len())].clone();
        let t = v.ty;
        // a local whose type may still default (`let mut x = 3;`) takes small
        // literals, as its `let` did: `x /= 4294967295` would make it an
        // `i32` out of range
        let small = self.small_lits || !v.det;
        let outer = std::mem::replace(&mut self.small_lits, small);
        let done = self.assign_to(&v, t, depth, out);
        self.small_lits = outer;
        done
    }

    /// [`assign`](Self::assign) to `v`, of type `t`.
    fn assign_to(&mut self, v: &Var, t: Ty, depth: usize, out: &mut Vec<S>) -> bool {
        let mut ops: Vec<&'static str> = vec![];
        if self.all(t, |x| x != DType::Bool) {
            ops.extend(["+", "-", "*", "/", "%"]);
        }
        if self.all(t, |x| !x.is_float()) {
            ops.extend(["&", "|", "^"]);
        }
        if self.all(t, DType::is_int) {
            ops.extend(["<<", ">>"]);
        }
        if ops.is_empty() || self.pct(40) {
            let e = self.expr(t, depth, false);
            out.push(S::Assign(v.place(), None, e.e));
        } else {
            let op = self.pick(&ops);
            let e = if op == "<<" || op == ">>" {
                let ct = self.rand_tt(DType::is_int).unwrap_or(Ty::Elem(DType::U32));
                self.expr(ct, depth, true)
            } else {
                self.expr(t, depth, false)
            };
            out.push(S::Assign(v.place(), Some(op), e.e));
        }
        true
    }

    /// `return` with values of the function's result types.
    pub fn ret(&mut self, depth: usize) -> S {
        let outs = self.outputs.clone();
        match outs.len() {
            0 => S::Return(None),
            1 => S::Return(Some(self.expr(outs[0], depth, false).e)),
            _ => {
                let v = outs.iter().map(|t| self.expr(*t, depth, false).e).collect();
                S::Return(Some(E::Tuple(v)))
            }
        }
    }

    fn loop_body(&mut self, var: Option<Var>, depth: usize, head: Vec<S>) -> Blk {
        self.loop_depth += 1;
        let body = self.nested(|g| {
            if let Some(v) = var {
                g.declare(v);
            }
            let mut stmts = head;
            let n = g.range(1, 3);
            stmts.extend(g.stmts(n, depth));
            Blk { stmts, tail: None }
        });
        self.loop_depth -= 1;
        body
    }

    /// Runs `f` outside every loop: a `while` condition or a range cannot
    /// `break` out of an enclosing loop.
    fn outside_loops<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.loop_depth, 0);
        let r = f(self);
        self.loop_depth = outer;
        r
    }

    fn for_loop(&mut self, depth: usize, out: &mut Vec<S>) {
        let t = self.rand_tt(DType::is_int).unwrap_or(Ty::Elem(DType::I32));
        let name = self.fresh("i");
        let mut head = Vec::new();
        let (start, end, incl, det) = if self.run || self.pct(50) {
            self.outside_loops(|g| g.bounded_range(t, depth, &mut head))
        } else {
            // any range
            self.outside_loops(|g| {
                let a = g.expr(t, depth.min(2), false);
                let b = g.expr(t, depth.min(2), !a.det);
                (a.e, b.e, g.c.bool(), true)
            })
        };
        let var = Var::local(name.clone(), t, det, false);
        let body = self.loop_body(Some(var), depth, head);
        out.push(S::For(name, start, end, incl, body));
    }

    /// A range of at most a few iterations: `(start, end, inclusive, whether
    /// its type is fixed)`; statements for the top of the body go to `head`.
    fn bounded_range(&mut self, t: Ty, depth: usize, head: &mut Vec<S>) -> (E, E, bool, bool) {
        let lit = |v: i128| E::Lit(v.to_string(), Some(v));
        let masked = |x: E| E::Bin("&", Box::new(x), Box::new(lit(7)));
        let targets: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable && v.ty == t)
            .collect();
        let case = if !targets.is_empty() && self.pct(25) {
            4
        } else {
            self.below(4)
        };
        match case {
            4 => {
                // the end is evaluated once: a body that changes what it was
                // computed from does not change the number of iterations
                let v = targets[self.below(targets.len())].clone();
                head.push(S::Assign(v.place(), Some("+"), lit(3)));
                (lit(0), masked(v.read()), self.pct(30), true)
            }
            0 => {
                let s = match t {
                    Ty::Elem(x) if self.c.bool() => x.name().to_string(),
                    _ => String::new(),
                };
                let signed = self.all(t, DType::is_signed_int);
                let a: i128 = if signed && self.pct(30) { -3 } else { 0 };
                let b = i128::try_from(self.range(0, 6)).unwrap_or(0);
                let det = !s.is_empty();
                (
                    E::Lit(format!("{a}{s}"), Some(a)),
                    E::Lit(format!("{b}{s}"), Some(b)),
                    self.pct(30),
                    det,
                )
            }
            1 => {
                // an end computed from the data, at most 8 iterations
                let x = self.expr(t, depth.min(2), true);
                (lit(0), masked(x.e), self.pct(30), true)
            }
            2 => {
                // up to the type's maximum, inclusive
                let k = i128::try_from(self.range(0, 4)).unwrap_or(0);
                let max = format!("{}::MAX", self.tname(t));
                let start = E::Bin("-", Box::new(E::Path(max.clone())), Box::new(lit(k)));
                (start, E::Path(max), true, true)
            }
            _ => {
                // a start from the data: `(x % 4)..4`
                let x = self.expr(t, depth.min(2), true);
                let start = E::Bin("%", Box::new(x.e), Box::new(lit(4)));
                (start, lit(4), self.pct(30), true)
            }
        }
    }

    /// `let mut c = 0u8;`, a counter of a random integer type.
    fn counter(&mut self, out: &mut Vec<S>) -> Var {
        let ints: Vec<DType> = DType::ALL.into_iter().filter(|d| d.is_int()).collect();
        let t = self.pick(&ints);
        let name = self.fresh("c");
        let zero = E::Lit(format!("0{}", t.name()), Some(0));
        out.push(S::Let(name.clone(), true, None, Some(zero)));
        Var::local(name, Ty::Elem(t), true, false)
    }

    fn while_loop(&mut self, depth: usize, out: &mut Vec<S>) {
        if !self.run && self.c.bool() {
            // any condition
            let c = self.outside_loops(|g| g.expr(Ty::Elem(DType::Bool), depth.min(2), false));
            let body = self.loop_body(None, depth, Vec::new());
            out.push(S::While(c.e, body));
            return;
        }
        let c = self.counter(out);
        let k = i128::try_from(self.range(1, 6)).unwrap_or(1);
        let mut cond = E::Bin(
            "<",
            Box::new(c.read()),
            Box::new(E::Lit(k.to_string(), Some(k))),
        );
        if self.pct(60) {
            let extra = self.outside_loops(|g| g.expr(Ty::Elem(DType::Bool), depth.min(2), false));
            cond = E::Bin("&&", Box::new(cond), Box::new(extra.e));
        }
        // the counter goes up first, so that `continue` cannot loop forever
        let head = vec![S::Assign(
            c.name.clone(),
            Some("+"),
            E::Lit("1".into(), Some(1)),
        )];
        self.scopes.push(vec![c]);
        let body = self.loop_body(None, depth, head);
        self.scopes.pop();
        out.push(S::While(cond, body));
    }

    fn loop_loop(&mut self, depth: usize, out: &mut Vec<S>) {
        if !self.run && self.c.bool() {
            // `loop { if c { break; } .. }` on any condition
            let c = self.expr(Ty::Elem(DType::Bool), depth.min(2), false);
            let head = vec![S::If(c.e, Blk::of(S::Break), None)];
            let body = self.loop_body(None, depth, head);
            out.push(S::Loop(body));
            return;
        }
        let c = self.counter(out);
        let k = i128::try_from(self.range(1, 6)).unwrap_or(1);
        let over = E::Bin(
            ">",
            Box::new(c.read()),
            Box::new(E::Lit(k.to_string(), Some(k))),
        );
        let head = vec![
            S::Assign(c.name.clone(), Some("+"), E::Lit("1".into(), Some(1))),
            S::If(over, Blk::of(S::Break), None),
        ];
        self.scopes.push(vec![c]);
        let body = self.loop_body(None, depth, head);
        self.scopes.pop();
        out.push(S::Loop(body));
    }
}

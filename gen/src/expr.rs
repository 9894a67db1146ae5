//! Expressions, each generated at a type for every instantiation of the type
//! parameter.

use silt_abi::DType;
use silt_codegen::builtins::{Def, Rel, TABLE};

use crate::ast::{Blk, E, S};
use crate::gen::{Ex, Gen, HelperSig, Var};
use crate::kernel::Ty;

/// Whether an `if` on `e` may be decided per instantiation, its other
/// branch neither checked nor emitted: `e` is a type property
/// (`T::IS_INT`), or one side of an `&&` or `||` is (the checker folds
/// `T::IS_FLOAT && x` to `false` where `T` is no float, whatever `x` is).
pub(crate) fn is_static(e: &E, tparam: &str) -> bool {
    match e {
        E::Path(p) => p
            .trim_start_matches('!')
            .strip_prefix(tparam)
            .is_some_and(|r| r.starts_with("::IS_")),
        E::Un("!", x) | E::Paren(x) => is_static(x, tparam),
        E::Bin("&&" | "||", l, r) => is_static(l, tparam) || is_static(r, tparam),
        _ => false,
    }
}

impl Gen<'_> {
    /// A variable of type `t` (with a fixed type when `det`).
    fn var(&mut self, t: Ty, det: bool) -> Option<Ex> {
        let vs: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.ty == t && (v.det || !det))
            .collect();
        if vs.is_empty() {
            return None;
        }
        // parameters (the data) half of the time
        let params: Vec<&Var> = vs
            .iter()
            .filter(|v| self.param_names.contains(&v.name))
            .collect();
        let v = if !params.is_empty() && self.c.bool() {
            params[self.below(params.len())]
        } else {
            &vs[self.below(vs.len())]
        };
        Some(Ex {
            e: v.read(),
            det: v.det,
        })
    }

    pub fn leaf(&mut self, t: Ty, det: bool) -> Ex {
        for _ in 0..8 {
            let got = match self.below(20) {
                0..=12 => self.var(t, det),
                13..=17 => self.lit(t, det),
                _ => self.constant(t),
            };
            if let Some(x) = got {
                return x;
            }
        }
        if let Some(x) = self.var(t, det).or_else(|| self.constant(t)) {
            return x;
        }
        // something of type `t` always exists: a cast of a literal
        let src = if self.insts(t).contains(&DType::Bool) {
            "true"
        } else {
            "1i32"
        };
        Ex::det(E::Cast(Box::new(E::Lit(src.into(), None)), self.tname(t)))
    }

    /// An expression of type `t`, at most `depth` deep; with a type fixed
    /// without context when `det`.
    pub fn expr(&mut self, t: Ty, depth: usize, det: bool) -> Ex {
        self.budget -= 1;
        // a `bool` leaf is mostly a literal: prefer comparisons of data
        let stop = if t == Ty::Elem(DType::Bool) { 5 } else { 22 };
        if depth == 0 || self.budget <= 0 || self.pct(stop) {
            return self.leaf(t, det);
        }
        if self.mistake() {
            return self.wrong_expr(t, depth);
        }
        for _ in 0..12 {
            let got = match self.below(100) {
                0..=17 => self.arith(t, depth, det),
                18..=25 => self.bitwise(t, depth, det),
                26..=30 => self.shift(t, depth, det),
                31..=35 => self.unary(t, depth, det),
                36..=45 => self.cast(t, depth),
                46..=55 => self.compare(t, depth),
                56..=59 => self.logic(t, depth),
                60..=77 => self.method(t, depth),
                78..=79 => self.match_expr(t, depth, det),
                80..=84 => self.if_expr(t, depth, det),
                85..=88 => self.block_expr(t, depth, det),
                89..=93 => self.static_if(t, depth, det),
                94..=96 => self.helper_call(t, depth),
                _ => {
                    let x = self.expr(t, depth - 1, det);
                    Some(Ex {
                        e: E::Paren(Box::new(x.e)),
                        det: x.det,
                    })
                }
            };
            if let Some(x) = got {
                return x;
            }
        }
        self.leaf(t, det)
    }

    /// Two operands of type `t`, at least one with a fixed type when `det`.
    fn operands(&mut self, t: Ty, depth: usize, det: bool) -> (Ex, Ex) {
        if self.c.bool() {
            let l = self.expr(t, depth - 1, det);
            let r = self.expr(t, depth - 1, false);
            (l, r)
        } else {
            let r = self.expr(t, depth - 1, det);
            let l = self.expr(t, depth - 1, false);
            (l, r)
        }
    }

    fn binary(&mut self, op: &'static str, t: Ty, depth: usize, det: bool) -> Ex {
        let (l, r) = self.operands(t, depth, det);
        Ex {
            det: l.det || r.det,
            e: E::Bin(op, Box::new(l.e), Box::new(r.e)),
        }
    }

    fn arith(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        if !self.all(t, |x| x != DType::Bool) {
            return None;
        }
        let op = self.pick(&["+", "-", "*", "/", "%", "+", "-", "*"]);
        // `v op { v = e; w }`: the left operand is read before the right one runs
        let targets: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable && v.ty == t && v.det)
            .collect();
        if !targets.is_empty() && self.pct(15) {
            let v = targets[self.below(targets.len())].clone();
            let val = self.expr(t, depth - 1, false);
            let tail = self.expr(t, depth - 1, false);
            let blk = Blk {
                stmts: vec![S::Assign(v.place(), None, val.e)],
                tail: Some(Box::new(tail.e)),
            };
            return Some(Ex::det(E::Bin(
                op,
                Box::new(v.read()),
                Box::new(E::Block(blk)),
            )));
        }
        Some(self.binary(op, t, depth, det))
    }

    fn bitwise(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        if !self.all(t, |x| !x.is_float()) {
            return None;
        }
        let op = self.pick(&["&", "|", "^"]);
        Some(self.binary(op, t, depth, det))
    }

    fn shift(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        if !self.all(t, DType::is_int) {
            return None;
        }
        let op = self.pick(&["<<", ">>"]);
        let l = self.expr(t, depth - 1, det);
        let ct = self.rand_tt(DType::is_int)?;
        let c = self.expr(ct, depth - 1, true);
        Some(Ex {
            det: l.det,
            e: E::Bin(op, Box::new(l.e), Box::new(c.e)),
        })
    }

    fn unary(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        if self.c.bool() {
            if !self.all(t, |x| x.is_signed_int() || x.is_float()) {
                return None;
            }
            let x = self.expr(t, depth - 1, det);
            // `-LIT` is folded into one literal, which must fit
            let mut inner = &x.e;
            while let E::Paren(y) = inner {
                inner = y;
            }
            if let E::Lit(_, Some(v)) = inner {
                let v = *v;
                // a literal of a `let` without a type may default to `i32`
                // (see `small_lits`): negated, it must fit there too
                let i32_only = self.small_lits && !det;
                if !self
                    .insts(t)
                    .iter()
                    .all(|ty| ty.is_float() || crate::lits::fits(*ty, -v))
                    || (i32_only && !crate::lits::fits(DType::I32, -v))
                {
                    return None;
                }
            }
            Some(Ex {
                det: x.det,
                e: E::Un("-", Box::new(x.e)),
            })
        } else {
            if !self.all(t, |x| !x.is_float()) {
                return None;
            }
            let x = self.expr(t, depth - 1, det);
            Some(Ex {
                det: x.det,
                e: E::Un("!", Box::new(x.e)),
            })
        }
    }

    fn cast(&mut self, t: Ty, depth: usize) -> Option<Ex> {
        let src = self.rand_tt(|_| true)?;
        // pairs of (source, target) instantiation types: nothing but `bool`
        // becomes `bool`
        let pairs: Vec<(DType, DType)> = match (src, t) {
            (Ty::Param, Ty::Param) => self.gs.iter().map(|x| (*x, *x)).collect(),
            (Ty::Param, Ty::Elem(y)) => self.gs.iter().map(|x| (*x, y)).collect(),
            (Ty::Elem(x), Ty::Param) => self.gs.iter().map(|y| (x, *y)).collect(),
            (Ty::Elem(x), Ty::Elem(y)) => vec![(x, y)],
        };
        if pairs.is_empty()
            || pairs
                .iter()
                .any(|(s, d)| *d == DType::Bool && *s != DType::Bool)
        {
            return None;
        }
        let x = self.expr(src, depth - 1, true);
        Some(Ex::det(E::Cast(Box::new(x.e), self.tname(t))))
    }

    fn compare(&mut self, t: Ty, depth: usize) -> Option<Ex> {
        if t != Ty::Elem(DType::Bool) {
            return None;
        }
        let src = self.rand_tt(|_| true)?;
        let op = self.pick(&["==", "!=", "<", "<=", ">", ">="]);
        let (l, r) = self.operands(src, depth, true);
        Some(Ex::det(E::Bin(op, Box::new(l.e), Box::new(r.e))))
    }

    fn logic(&mut self, t: Ty, depth: usize) -> Option<Ex> {
        if t != Ty::Elem(DType::Bool) {
            return None;
        }
        let op = self.pick(&["&&", "||"]);
        let l = self.expr(t, depth - 1, false);
        let r = self.expr(t, depth - 1, false);
        Some(Ex::det(E::Bin(op, Box::new(l.e), Box::new(r.e))))
    }

    /// The receiver types a method returning `t` may be called on.
    fn receivers(&self, d: &Def, t: Ty) -> Vec<Ty> {
        let on = |x: DType| d.on.covers(x);
        match d.ret {
            Rel::Same if self.all(t, on) => vec![t],
            Rel::Same => vec![],
            Rel::Fixed(x) if t == Ty::Elem(x) => {
                let mut v: Vec<Ty> = DType::ALL
                    .into_iter()
                    .filter(|y| on(*y))
                    .map(Ty::Elem)
                    .collect();
                if self.all(Ty::Param, on) {
                    v.push(Ty::Param);
                }
                v
            }
            Rel::Fixed(_) => vec![],
            // `to_bits`: the float as wide as the unsigned result
            Rel::Bits => DType::ALL
                .into_iter()
                .filter(|y| on(*y) && Ty::Elem(y.unsigned()) == t)
                .map(Ty::Elem)
                .collect(),
        }
    }

    /// A method call returning `t`, from the builtin table: exact ones only
    /// when the kernel runs (transcendentals end outputs instead).
    fn method(&mut self, t: Ty, depth: usize) -> Option<Ex> {
        let d = depth - 1;
        let defs: Vec<(&'static Def, Vec<Ty>)> = TABLE
            .iter()
            .filter(|def| def.exact || !self.run)
            .map(|def| (def, self.receivers(def, t)))
            .filter(|(_, r)| !r.is_empty())
            .collect();
        if defs.is_empty() {
            return None;
        }
        let (def, recvs) = defs[self.below(defs.len())].clone();
        let rt = self.pick(&recvs);
        Some(Ex::det(self.call(def, rt, d)))
    }

    /// `recv.method(args)` with a receiver of type `rt`.
    pub fn call(&mut self, def: &'static Def, rt: Ty, d: usize) -> E {
        let mut recv = self.expr(rt, d, true).e;
        let mut args: Vec<E> = def
            .args
            .iter()
            .map(|a| match a {
                Rel::Fixed(x) => self.expr(Ty::Elem(*x), d, false).e,
                _ => self.expr(rt, d, false).e,
            })
            .collect();
        if self.run {
            match def.builtin.nan_sign_operand() {
                Some(0) => recv = self.nan_free(rt, recv),
                Some(k) => args[k - 1] = self.nan_free(rt, args[k - 1].clone()),
                None => {}
            }
        }
        E::Call(Box::new(recv), def.name, args)
    }

    /// `e`, with a NaN replaced by a number: the sign and payload of a NaN that
    /// arithmetic produced are unspecified (IEEE 754), so they must not reach an
    /// operation that shows them. An input NaN passed on unchanged keeps its
    /// bits, so parameters that hold their input are used as they are.
    pub fn nan_free(&mut self, t: Ty, e: E) -> E {
        if let E::Path(p) = &e {
            if self.visible().iter().any(|v| v.name == *p && v.pristine) {
                return e;
            }
        }
        let name = self.fresh("n");
        let v = E::Path(name.clone());
        let repl = self
            .lit(t, false)
            .map_or(E::Lit("0.0".into(), None), |x| x.e);
        let is_nan = E::Call(Box::new(v.clone()), "is_nan", vec![]);
        E::Block(Blk {
            stmts: vec![S::Let(name, false, Some(self.tname(t)), Some(e))],
            tail: Some(Box::new(E::If(
                Box::new(is_nan),
                Blk::value(repl),
                Blk::value(v),
            ))),
        })
    }

    /// A block with a value of type `t`, and whether its type is fixed.
    pub fn value_blk(&mut self, t: Ty, depth: usize, det: bool) -> (Blk, bool) {
        self.nested(|g| {
            let n = if g.block_depth > 3 || g.pct(60) {
                0
            } else {
                g.range(1, 2)
            };
            let stmts = g.stmts(n, depth);
            let tail = g.expr(t, depth - 1, det);
            (
                Blk {
                    stmts,
                    tail: Some(Box::new(tail.e)),
                },
                tail.det,
            )
        })
    }

    fn if_expr(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        let c = self.expr(Ty::Elem(DType::Bool), depth - 1, false);
        let stat = is_static(&c.e, &self.tparam);
        // sometimes a branch leaves: `if c { return ..; } else { v }`
        if !det && !stat && self.pct(10) {
            let div = self.diverging_blk(depth);
            let (f, fd) = self.value_blk(t, depth, det);
            return Some(Ex {
                e: E::If(Box::new(c.e), div, f),
                det: fd,
            });
        }
        // a condition made of type properties only picks one branch per
        // instantiation (at compile time): both must fix the type then
        let (a, ad) = self.value_blk(t, depth, det);
        let (b, bd) = if !stat && depth > 1 && self.pct(20) {
            // `else if`
            match self.if_expr(t, depth - 1, false) {
                Some(x) => (Blk::value(x.e), x.det),
                None => self.value_blk(t, depth, false),
            }
        } else {
            self.value_blk(t, depth, det && stat)
        };
        Some(Ex {
            e: E::If(Box::new(c.e), a, b),
            det: if stat { ad && bd } else { ad || bd },
        })
    }

    /// A block that returns (or breaks out of the loop it is in).
    pub fn diverging_blk(&mut self, depth: usize) -> Blk {
        let s = if self.loop_depth > 0 && self.c.bool() {
            if self.c.bool() {
                S::Break
            } else {
                S::Continue
            }
        } else {
            self.ret(depth)
        };
        Blk::of(s)
    }

    fn block_expr(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        let (b, d) = self.value_blk(t, depth, det);
        Some(Ex {
            e: E::Block(b),
            det: d,
        })
    }

    /// A condition on the type properties, and the instantiations it holds and
    /// does not hold for. When the kernel is only compiled, one side may be
    /// empty now and then (a branch no instantiation takes).
    pub fn static_cond(&mut self) -> Option<(E, Vec<DType>, Vec<DType>)> {
        if self.gs.is_empty() || (self.run && self.gs.len() < 2) {
            return None;
        }
        type Prop = fn(DType) -> bool;
        let (text, f): (&str, Prop) = self.pick(&[
            ("IS_FLOAT", DType::is_float as Prop),
            ("IS_INT", DType::is_int),
            ("IS_SIGNED", |t| t.is_signed_int() || t.is_float()),
            ("!IS_SIGNED", |t| !(t.is_signed_int() || t.is_float())),
            ("IS_BOOL", |t| t == DType::Bool),
            ("!IS_BOOL", |t| t != DType::Bool),
            ("IS_INT && IS_SIGNED", DType::is_signed_int),
            ("IS_FLOAT || IS_BOOL", |t| t.is_float() || t == DType::Bool),
        ]);
        let yes: Vec<DType> = self.gs.iter().copied().filter(|t| f(*t)).collect();
        let no: Vec<DType> = self.gs.iter().copied().filter(|t| !f(*t)).collect();
        let one_sided = !self.run && self.pct(10);
        if (yes.is_empty() || no.is_empty()) && !one_sided {
            return None;
        }
        let tp = &self.tparam;
        let text = text
            .split(' ')
            .map(|w| match w.strip_prefix('!') {
                Some(p) => format!("!{tp}::{p}"),
                None if w.starts_with("IS_") => format!("{tp}::{w}"),
                None => w.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ");
        Some((E::Path(text), yes, no))
    }

    fn static_if(&mut self, t: Ty, depth: usize, det: bool) -> Option<Ex> {
        let (c, yes, no) = self.static_cond()?;
        let (a, ad) = self.narrowed(yes, |g| g.value_blk(t, depth, det));
        let (b, bd) = self.narrowed(no, |g| g.value_blk(t, depth, det));
        Some(Ex {
            e: E::If(Box::new(c), a, b),
            det: ad && bd,
        })
    }

    /// A call of a `#[helper]` returning `t`.
    pub(crate) fn helper_call(&mut self, t: Ty, depth: usize) -> Option<Ex> {
        // (helper, the type its type parameter is instantiated at)
        let mut fits: Vec<(HelperSig, Option<Ty>)> = Vec::new();
        for h in self.helpers.iter().filter(|h| h.rets.len() == 1) {
            let covered = |x: Ty| {
                let i = self.insts(x);
                !i.is_empty() && i.iter().all(|d| h.types.contains(d))
            };
            match h.rets[0] {
                Ty::Param if covered(t) => fits.push((h.clone(), Some(t))),
                Ty::Elem(r) if Ty::Elem(r) == t && h.types.is_empty() => {
                    fits.push((h.clone(), None));
                }
                Ty::Elem(r) if Ty::Elem(r) == t => {
                    let mut at: Vec<Ty> = h.types.iter().map(|d| Ty::Elem(*d)).collect();
                    if covered(Ty::Param) {
                        at.push(Ty::Param);
                    }
                    for a in at {
                        fits.push((h.clone(), Some(a)));
                    }
                }
                _ => {}
            }
        }
        if fits.is_empty() {
            return None;
        }
        let (h, inst) = fits[self.below(fits.len())].clone();
        Some(Ex::det(self.call_of(&h, inst, depth)))
    }

    /// A call of `h` instantiated at `inst` (`None`: not generic).
    pub(crate) fn call_of(&mut self, h: &HelperSig, inst: Option<Ty>, depth: usize) -> E {
        // the instantiation is the type of the first generic argument
        let mut first = true;
        let mut args = Vec::new();
        for p in &h.params {
            let (pt, det) = match (p, inst) {
                (Ty::Param, Some(i)) => (i, std::mem::replace(&mut first, false)),
                _ => (*p, false),
            };
            args.push(self.expr(pt, depth.saturating_sub(1), det).e);
        }
        E::HelperCall(h.name.clone(), args)
    }

    /// The instantiations at which `h` may be called here (`None`: it is not
    /// generic): the type parameter where `h` has all its types, and each of
    /// `h`'s types.
    pub(crate) fn call_insts(&self, h: &HelperSig) -> Vec<Option<Ty>> {
        if h.types.is_empty() {
            return vec![None];
        }
        let i = self.insts(Ty::Param);
        let mut at: Vec<Option<Ty>> = h.types.iter().map(|d| Some(Ty::Elem(*d))).collect();
        if !i.is_empty() && i.iter().all(|d| h.types.contains(d)) {
            at.push(Some(Ty::Param));
        }
        at
    }
}

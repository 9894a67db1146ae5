//! Expressions as C text, in Rust's evaluation order, with silt's semantics.

use super::c::{needs_hoist, precedence, PRIMARY, UNARY};
use super::function::Emitter;
use super::literal::{cast, literal};
use super::names::helper_fn_name;
use super::polyfill::{self, Polyfill};
use super::types::ClType;
use crate::ir::{Array, BinOp, Block, Expr, ExprKind, GridId, UnOp};
use silt_abi::DType;

impl Emitter<'_> {
    /// The C text of `e`; statements it needs first (blocks, `if` values) are
    /// written out before it, in Rust's left-to-right order.
    pub(super) fn expr(&mut self, e: &Expr) -> String {
        self.pexpr(e).0
    }

    /// The C text of `e` and the precedence of its outermost operator (so that
    /// operands are parenthesised only where C needs it).
    pub(super) fn pexpr(&mut self, e: &Expr) -> (String, u8) {
        let text = match &e.kind {
            ExprKind::Lit(v) => literal(e.ty, *v),
            ExprKind::Local(id) => self.locals[*id].clone(),
            ExprKind::Param(pid) => self.params[*pid].clone(),
            ExprKind::Deref(pid) => format!("(*{})", self.params[*pid]),
            ExprKind::Unary(op, x) => {
                let (v, p) = self.pexpr(x);
                let operand = if p < UNARY || v.starts_with('-') {
                    format!("({v})")
                } else {
                    v.clone()
                };
                return match (op, x.ty) {
                    (UnOp::Neg, t) if t.is_float() => (format!("-{operand}"), UNARY),
                    (UnOp::Neg, t) => (self.call_polyfill(Polyfill::Neg(t), &[v]), PRIMARY),
                    (UnOp::Not, DType::Bool) => (format!("!{operand}"), UNARY),
                    (UnOp::Not, t) => (format!("({})~{operand}", t.value_type()), UNARY),
                };
            }
            ExprKind::Binary(op, l, r) => {
                if matches!(op, BinOp::And | BinOp::Or) && needs_hoist(r) {
                    // keep the short circuit: the right side runs only when needed
                    let lv = self.expr(l);
                    let t = self.fresh();
                    self.line(&format!("bool {t} = {lv};"));
                    let test = if *op == BinOp::And {
                        t.clone()
                    } else {
                        format!("!{t}")
                    };
                    self.line(&format!("if ({test}) {{"));
                    self.indent += 1;
                    let rv = self.expr(r);
                    self.line(&format!("{t} = {rv};"));
                    self.indent -= 1;
                    self.line("}");
                    return (t, PRIMARY);
                }
                let (mut lv, mut lp) = self.pexpr(l);
                if needs_hoist(r) {
                    lv = self.spill(l.ty, lv);
                    lp = PRIMARY;
                }
                let (rv, rp) = self.pexpr(r);
                return self.binary_text(*op, l.ty, r.ty, (&lv, lp), (&rv, rp));
            }
            ExprKind::Cast(x) if x.ty == e.ty => return self.pexpr(x),
            ExprKind::Cast(x) => {
                let v = self.expr(x);
                match (x.ty, e.ty) {
                    (DType::F64, DType::F16) => self.call_polyfill(Polyfill::F16RoundD, &[v]),
                    (from, DType::F16) => {
                        let f = cast(from, DType::F32, &v);
                        self.call_polyfill(Polyfill::F16Round, &[f])
                    }
                    (from, to) => cast(from.compute(), to, &v),
                }
            }
            ExprKind::Call(b, args) => {
                let mut vs = self.args_in_order(args);
                if args.iter().all(|a| self.is_const(a)) {
                    for (v, a) in vs.iter_mut().zip(args) {
                        if a.ty.is_float() {
                            let keep = Polyfill::Keep(a.ty.compute());
                            *v = self.call_polyfill(keep, std::slice::from_ref(v));
                        }
                    }
                }
                self.builtin(*b, args[0].ty, e.ty, &vs)
            }
            ExprKind::Helper(h, args) => {
                let vs = self.args_in_order(args);
                format!("{}({})", helper_fn_name(h), vs.join(", "))
            }
            ExprKind::If(c, t, f) => {
                let tmp = self.fresh();
                let ty = e.ty.value_type();
                self.line(&format!("{ty} {tmp};"));
                let cv = self.expr(c);
                self.line(&format!("if ({cv}) {{"));
                self.value_block(t, &tmp);
                self.else_chain(f, &tmp);
                tmp
            }
            ExprKind::Block(b) => {
                let tmp = self.fresh();
                let ty = e.ty.value_type();
                self.line(&format!("{ty} {tmp};"));
                self.line("{");
                self.value_block(b, &tmp);
                self.line("}");
                tmp
            }
            ExprKind::Load(array, ix) => {
                let ix = self.args_in_order(ix);
                self.view_get(*array, &ix)
            }
            ExprKind::Len(array, d) => self.array_len(*array, *d),
            ExprKind::Atomic(op, array, ix, ops) => {
                let mut vs = self.args_in_order(&[ix.as_slice(), ops.as_slice()].concat());
                let operands = vs.split_off(ix.len());
                let (t, _, id) = self.array_of(*array);
                let rank = u8::try_from(ix.len()).unwrap_or(u8::MAX);
                if self.checked {
                    self.polyfills.insert(Polyfill::ViewOob(rank));
                }
                let h = Polyfill::Atomic {
                    op: *op,
                    t,
                    rank,
                    local: matches!(array, Array::Local(_)),
                    checked: self.checked,
                };
                let mut args = self.array_args(*array);
                args.extend(vs);
                args.extend(operands);
                if self.checked {
                    args.extend(["silt_err".to_owned(), format!("{id}u")]);
                }
                self.call_polyfill(h, &args)
            }
            ExprKind::GridId(g, d) => {
                let f = match g {
                    GridId::Global => "get_global_id",
                    GridId::Local => "get_local_id",
                    GridId::Group => "get_group_id",
                    GridId::NumGroups => "get_num_groups",
                    GridId::GlobalSize => "get_global_size",
                };
                format!("(ulong){f}({d})")
            }
        };
        (text, PRIMARY)
    }

    /// The element type, the C name and the error record's number of
    /// `array`.
    fn array_of(&self, array: Array) -> (DType, String, usize) {
        match array {
            Array::View(pid) => (self.f.params[pid].ty, self.params[pid].clone(), pid),
            Array::Local(i) => (
                self.f.arrays[i].ty,
                self.arrays[i].clone(),
                self.f.params.len() + i,
            ),
        }
    }

    /// `a.len(d)`.
    fn array_len(&self, array: Array, d: usize) -> String {
        match array {
            Array::View(pid) => {
                format!("silt_sh_{}.{}", self.params[pid], silt_abi::opencl::lane(d))
            }
            Array::Local(i) => format!("{}UL", self.f.arrays[i].dims.get(d).copied().unwrap_or(0)),
        }
    }

    /// Where element `ix` of `array` is, unchecked.
    fn array_at(&self, array: Array, ix: &[String]) -> String {
        match array {
            Array::View(pid) => view_at(&self.params[pid], ix),
            Array::Local(i) => {
                let dims = &self.f.arrays[i].dims;
                let mut at = ix.first().map_or("0".to_owned(), |i| format!("({i})"));
                for (d, i) in ix.iter().enumerate().skip(1) {
                    at = format!("({at}) * {}UL + ({i})", dims.get(d).copied().unwrap_or(1));
                }
                at
            }
        }
    }

    /// The leading arguments of a checked access of `array`: a view's
    /// buffer, offset, strides and shape, or an array and its sizes.
    fn array_args(&self, array: Array) -> Vec<String> {
        match array {
            Array::View(pid) => view_args(&self.params[pid]),
            Array::Local(i) => std::iter::once(self.arrays[i].clone())
                .chain(self.f.arrays[i].dims.iter().map(|n| format!("{n}UL")))
                .collect(),
        }
    }

    /// The element `ix` of `array` as a value: a checked read, or in an
    /// unchecked kernel the element itself.
    pub(super) fn view_get(&mut self, array: Array, ix: &[String]) -> String {
        let (t, n, id) = self.array_of(array);
        if !self.checked {
            if t == DType::F16 {
                self.polyfills.insert(Polyfill::F16Load);
            }
            return super::polyfill::load(t, format!("{n}[{}]", self.array_at(array, ix)));
        }
        let rank = u8::try_from(ix.len()).unwrap_or(u8::MAX);
        self.polyfills.insert(Polyfill::ViewOob(rank));
        if t == DType::F16 {
            self.polyfills.insert(Polyfill::F16Load);
        }
        let mut args = self.array_args(array);
        args.extend(ix.iter().cloned());
        args.extend(["silt_err".to_owned(), format!("{id}u")]);
        let h = match array {
            Array::View(_) => Polyfill::ViewGet(t, rank),
            Array::Local(i) => Polyfill::LocalGet(t, rank, self.f.arrays[i].private),
        };
        self.call_polyfill(h, &args)
    }

    /// The statement that writes `v` to element `ix` of `array`: checked,
    /// or in an unchecked kernel straight to it.
    pub(super) fn view_set(&mut self, array: Array, ix: &[String], v: &str) -> String {
        let (t, n, id) = self.array_of(array);
        if !self.checked {
            if t == DType::F16 {
                self.polyfills.insert(Polyfill::F16Bits);
            }
            let v = super::polyfill::store(t, v.to_owned());
            return format!("{n}[{}] = {v};", self.array_at(array, ix));
        }
        let rank = u8::try_from(ix.len()).unwrap_or(u8::MAX);
        self.polyfills.insert(Polyfill::ViewOob(rank));
        if t == DType::F16 {
            self.polyfills.insert(Polyfill::F16Bits);
        }
        let mut args = self.array_args(array);
        args.extend(ix.iter().cloned());
        args.extend([v.to_owned(), "silt_err".to_owned(), format!("{id}u")]);
        let h = match array {
            Array::View(_) => Polyfill::ViewSet(t, rank),
            Array::Local(i) => Polyfill::LocalSet(t, rank, self.f.arrays[i].private),
        };
        format!("{};", self.call_polyfill(h, &args))
    }

    /// The `else` of an `if` used as a value, into `target`: an `else` that
    /// is only another such `if` (an `else if` chain, or a `match` lowered to
    /// one) continues as `} else if (..) {` into the same `target`, unless its
    /// condition writes statements; then `} else { .. }`.
    fn else_chain(&mut self, f: &Block, target: &str) {
        if let (true, Some(tail)) = (f.stmts.is_empty(), &f.tail) {
            if let ExprKind::If(c, t, f2) = &tail.kind {
                if !needs_hoist(c) {
                    let cv = self.expr(c);
                    self.line(&format!("}} else if ({cv}) {{"));
                    self.value_block(t, target);
                    self.else_chain(f2, target);
                    return;
                }
            }
        }
        self.line("} else {");
        self.value_block(f, target);
        self.line("}");
    }

    fn value_block(&mut self, b: &Block, target: &str) {
        self.indent += 1;
        for s in &b.stmts {
            self.stmt(s);
        }
        if let Some(t) = &b.tail {
            let v = self.expr(t);
            self.line(&format!("{target} = {v};"));
        }
        self.indent -= 1;
    }

    /// The texts of call arguments; an argument is evaluated into a temporary first
    /// when a later one writes statements, so that Rust's left-to-right order holds.
    pub(super) fn args_in_order(&mut self, args: &[Expr]) -> Vec<String> {
        let mut vs = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let mut v = self.expr(a);
            if args[i + 1..].iter().any(needs_hoist) {
                v = self.spill(a.ty, v);
            }
            vs.push(v);
        }
        vs
    }

    /// Evaluates `v` into a temporary now (to keep evaluation order).
    pub(super) fn spill(&mut self, t: DType, v: String) -> String {
        let tmp = self.fresh();
        self.line(&format!("{} {tmp} = {v};", t.value_type()));
        tmp
    }

    /// A call of a polyfill, which the program then defines.
    pub(super) fn call_polyfill(&mut self, h: Polyfill, args: &[String]) -> String {
        self.polyfills.insert(h);
        format!("{}({})", polyfill::name(h), args.join(", "))
    }

    /// `l op r` for operands of type `t` (`rt` for a shift count), each given with
    /// its precedence; returns the text and its precedence.
    pub(super) fn binary_text(
        &mut self,
        op: BinOp,
        t: DType,
        rt: DType,
        l: (&str, u8),
        r: (&str, u8),
    ) -> (String, u8) {
        use BinOp as B;
        let plain = |op: BinOp| {
            let p = precedence(op);
            // an `&&` inside `||` keeps parentheses it does not need
            // (clang's -Wlogical-op-parentheses, on with -Wall)
            let and_in_or = |q: u8| op == B::Or && q == precedence(B::And);
            let lv = if l.1 < p || and_in_or(l.1) {
                format!("({})", l.0)
            } else {
                l.0.to_string()
            };
            // left-associative: an equal-precedence right operand needs parentheses
            let rv = if r.1 <= p || and_in_or(r.1) {
                format!("({})", r.0)
            } else {
                r.0.to_string()
            };
            (format!("{lv} {} {rv}", op.symbol()), p)
        };
        if op.is_comparison() || matches!(op, B::And | B::Or) {
            return plain(op);
        }
        if t == DType::F16 {
            let (v, p) = self.binary_text(op, DType::F32, rt, l, r);
            // `fmod` of f16 values is exact, and an f16 value
            if op == B::Rem {
                return (v, p);
            }
            return (self.call_polyfill(Polyfill::F16Round, &[v]), PRIMARY);
        }
        if t.is_float() {
            return match op {
                B::Rem => (format!("fmod({}, {})", l.0, r.0), PRIMARY),
                _ => plain(op),
            };
        }
        if t == DType::Bool {
            // & | ^ on bools give an int 0 or 1
            let (v, _) = plain(op);
            return (format!("({v}) != 0"), precedence(B::Ne));
        }
        let wide = t.bits() >= 32 && !t.is_signed_int();
        let args = [l.0.to_string(), r.0.to_string()];
        let helper = match op {
            B::Add | B::Sub | B::Mul if wide => return plain(op),
            B::Add => Polyfill::Add(t),
            B::Sub => Polyfill::Sub(t),
            B::Mul => Polyfill::Mul(t),
            B::Div => Polyfill::Div(t),
            B::Rem => Polyfill::Rem(t),
            B::Shl | B::Shr => {
                let s = if rt == DType::U32 {
                    r.0.to_string()
                } else {
                    format!("(uint)({})", r.0)
                };
                let h = if op == B::Shl {
                    Polyfill::Shl(t)
                } else {
                    Polyfill::Shr(t)
                };
                return (self.call_polyfill(h, &[l.0.to_string(), s]), PRIMARY);
            }
            B::BitAnd | B::BitOr | B::BitXor if wide || t.bits() >= 32 => return plain(op),
            B::BitAnd | B::BitOr | B::BitXor => {
                let (v, _) = plain(op);
                return (format!("({})({v})", t.value_type()), UNARY);
            }
            _ => return plain(op),
        };
        (self.call_polyfill(helper, &args), PRIMARY)
    }
}

/// A view's buffer, offset, strides and shape, as a grid body names them.
fn view_args(n: &str) -> Vec<String> {
    vec![
        n.to_owned(),
        format!("silt_off_{n}"),
        format!("silt_st_{n}"),
        format!("silt_sh_{n}"),
    ]
}

/// `silt_off_N + i0 * silt_st_N.s0 + ...`: where element `ix` of a view is.
fn view_at(n: &str, ix: &[String]) -> String {
    let mut at = format!("silt_off_{n}");
    for (d, i) in ix.iter().enumerate() {
        at.push_str(&format!(
            " + ({i}) * silt_st_{n}.{}",
            silt_abi::opencl::lane(d)
        ));
    }
    at
}

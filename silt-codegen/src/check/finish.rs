//! After inference: every type variable resolved (defaults applied), the
//! requirements on them checked, literals given values of their final types,
//! and the working tree turned into the IR.

use super::consts::int_fits;
use super::infer::{Cx, Need, Slot};
use super::tree::{Block, Expr, ExprKind, Stmt};
use crate::ir::{self, Value};
use silt_abi::DType;

impl Cx<'_> {
    /// Resolves every type, checks what was required of them, and returns the
    /// body as IR.
    pub(super) fn finish(&mut self, body: Block) -> ir::Block {
        for i in 0..self.vars.locals.len() {
            let tv = self.vars.tvs[i];
            if matches!(self.get(tv), Slot::Unknown) {
                let name = self.vars.locals[i].name.clone();
                let span = self.vars.spans[i];
                self.err(
                    span,
                    format!("type annotations needed for `{name}`: write `let {name}: T`"),
                );
            }
            self.vars.locals[i].ty = self.resolved(tv);
        }
        let needs = self.take_needs();
        for (tv, need, span) in needs {
            let t = self.resolved(tv);
            let ok = match need {
                Need::Numeric => t.is_numeric(),
                Need::Int => t.is_int(),
                Need::IntOrBool => !t.is_float(),
                Need::SignedOrFloat => t.is_signed_int() || t.is_float(),
                Need::CastSource(target) => {
                    if target == DType::Bool && t != DType::Bool {
                        self.err(span, "cannot cast to `bool`: compare instead (`x != 0`)");
                        continue;
                    }
                    // `bool as f32` is a silt extension (Rust needs `as u8 as f32`)
                    t != DType::Bool || target.is_numeric() || target == DType::Bool
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
        self.finish_block(body)
    }

    fn finish_block(&mut self, b: Block) -> ir::Block {
        ir::Block {
            stmts: b.stmts.into_iter().map(|s| self.finish_stmt(s)).collect(),
            tail: b.tail.map(|t| Box::new(self.finish_expr(*t))),
        }
    }

    fn finish_stmt(&mut self, s: Stmt) -> ir::Stmt {
        match s {
            Stmt::Let(id, e) => ir::Stmt::Let(id, e.map(|e| self.finish_expr(e))),
            Stmt::LetCall(ids, call) => ir::Stmt::LetCall(ids, self.finish_expr(call)),
            Stmt::Assign(p, op, e) => ir::Stmt::Assign(p, op, self.finish_expr(e)),
            Stmt::Expr(e) => ir::Stmt::Expr(self.finish_expr(e)),
            Stmt::If(c, t, e) => ir::Stmt::If(
                self.finish_expr(c),
                self.finish_block(t),
                e.map(|e| self.finish_block(e)),
            ),
            Stmt::While(c, body) => ir::Stmt::While(self.finish_expr(c), self.finish_block(body)),
            Stmt::For(id, a, z, inclusive, body) => ir::Stmt::For(
                id,
                self.finish_expr(a),
                self.finish_expr(z),
                inclusive,
                self.finish_block(body),
            ),
            Stmt::Loop(body) => ir::Stmt::Loop(self.finish_block(body)),
            Stmt::Break => ir::Stmt::Break,
            Stmt::Continue => ir::Stmt::Continue,
            Stmt::Return(vs) => {
                ir::Stmt::Return(vs.into_iter().map(|v| self.finish_expr(v)).collect())
            }
            Stmt::Block(b) => ir::Stmt::Block(self.finish_block(b)),
            Stmt::Barrier(span) => ir::Stmt::Barrier(span),
            Stmt::Store(p, ix, op, v) => {
                let ix = ix.into_iter().map(|i| self.finish_expr(i)).collect();
                ir::Stmt::Store(p, ix, op, self.finish_expr(v))
            }
        }
    }

    fn finish_expr(&mut self, e: Expr) -> ir::Expr {
        let ty = self.resolved(e.tv);
        let span = e.span;
        let boxed = |cx: &mut Self, x: Box<Expr>| Box::new(cx.finish_expr(*x));
        let kind = match e.kind {
            ExprKind::Lit(_) if e.float.is_some() => {
                let text = e.float.unwrap_or_default();
                ir::ExprKind::Lit(self.float_value(&text, ty, span))
            }
            ExprKind::Lit(Value::Int(i)) => ir::ExprKind::Lit(self.int_value(i, ty, span)),
            ExprKind::Lit(v) => ir::ExprKind::Lit(v),
            ExprKind::Local(id) => ir::ExprKind::Local(id),
            ExprKind::Param(p) => ir::ExprKind::Param(p),
            ExprKind::Deref(p) => ir::ExprKind::Deref(p),
            ExprKind::Unary(op, x) => ir::ExprKind::Unary(op, boxed(self, x)),
            ExprKind::Cast(x) => ir::ExprKind::Cast(boxed(self, x)),
            ExprKind::Binary(op, l, r) => {
                let l = boxed(self, l);
                ir::ExprKind::Binary(op, l, boxed(self, r))
            }
            ExprKind::Call(b, args) => {
                ir::ExprKind::Call(b, args.into_iter().map(|a| self.finish_expr(a)).collect())
            }
            ExprKind::Helper(h, args) => {
                ir::ExprKind::Helper(h, args.into_iter().map(|a| self.finish_expr(a)).collect())
            }
            ExprKind::If(c, t, f) => {
                let c = boxed(self, c);
                let t = self.finish_block(t);
                ir::ExprKind::If(c, t, self.finish_block(f))
            }
            ExprKind::Block(b) => ir::ExprKind::Block(self.finish_block(b)),
            ExprKind::Load(p, ix) => {
                ir::ExprKind::Load(p, ix.into_iter().map(|i| self.finish_expr(i)).collect())
            }
            ExprKind::Len(p, d) => ir::ExprKind::Len(p, d),
            ExprKind::Atomic(op, a, ix, ops) => {
                let ix = ix.into_iter().map(|i| self.finish_expr(i)).collect();
                let ops = ops.into_iter().map(|o| self.finish_expr(o)).collect();
                ir::ExprKind::Atomic(op, a, ix, ops)
            }
            ExprKind::GridId(g, d) => ir::ExprKind::GridId(g, d),
        };
        ir::Expr { kind, ty, span }
    }

    /// An integer literal as a value of its type (integer literals may become
    /// floats: `x * 2` for `x: f32`).
    fn int_value(&mut self, i: i128, ty: DType, span: proc_macro2::Span) -> Value {
        match ty {
            DType::F16 => {
                let x = silt_abi::round_f16(i as f64);
                if x.is_infinite() {
                    self.err(span, "literal out of range for `f16`");
                }
                Value::F32(x)
            }
            DType::F32 => Value::F32(i as f32),
            DType::F64 => Value::F64(i as f64),
            // only the placeholder of an expression in error (a `0` of a type
            // not known then, the error reported) gets here: an integer
            // literal's own type never unifies with `bool`
            DType::Bool if i == 0 => Value::Bool(false),
            t => {
                if !int_fits(i, t) {
                    self.err(span, format!("literal out of range for `{t}`"));
                }
                Value::Int(i)
            }
        }
    }

    /// A float literal's digits as a value of its type.
    fn float_value(&mut self, text: &str, ty: DType, span: proc_macro2::Span) -> Value {
        let v = match ty {
            DType::F16 => text
                .parse::<f64>()
                .ok()
                .map(|x| Value::F32(silt_abi::round_f16(x))),
            DType::F32 => text.parse::<f32>().ok().map(Value::F32),
            _ => text.parse::<f64>().ok().map(Value::F64),
        };
        let infinite = match v {
            Some(Value::F32(x)) => x.is_infinite(),
            Some(Value::F64(x)) => x.is_infinite(),
            _ => false,
        };
        if infinite {
            // as rustc's `overflowing_literals`
            self.err(span, format!("literal out of range for `{ty}`"));
        }
        v.unwrap_or_else(|| {
            self.err(span, "invalid float literal");
            Value::F64(0.0)
        })
    }
}

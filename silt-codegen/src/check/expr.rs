//! Checking expressions in value position.

use proc_macro2::Span;

use super::consts::{constant, type_property};
use super::infer::{Cx, Need, Slot};
use super::tree::{Block, Expr};
use crate::front::ident_name;
use crate::front::syntax::{self, BinOp, ParamKind, UnOp};
use crate::ir::{diverges, ExprKind, Value};
use silt_abi::DType;

impl Cx<'_> {
    pub(super) fn bool_expr(&mut self, e: &syntax::Expr) -> Expr {
        let v = self.value(e);
        let b = self.known(DType::Bool);
        self.unify(b, v.tv, e.span);
        v
    }

    /// An expression in value position.
    pub(super) fn value(&mut self, e: &syntax::Expr) -> Expr {
        let span = e.span;
        match &e.kind {
            syntax::ExprKind::Lit(l) => match l {
                syntax::Lit::Bool(b) => {
                    let tv = self.known(DType::Bool);
                    self.expr(ExprKind::Lit(Value::Bool(*b)), tv, span)
                }
                syntax::Lit::Int(v, suffix) => {
                    let tv = match suffix {
                        Some(t) => self.known(*t),
                        None => self.var(Slot::IntLit),
                    };
                    self.expr(ExprKind::Lit(Value::Int(*v)), tv, span)
                }
                syntax::Lit::Float(text, suffix) => {
                    let tv = match suffix {
                        Some(t) => self.known(*t),
                        None => self.var(Slot::FloatLit),
                    };
                    self.float_literal(text.clone(), tv, span)
                }
            },
            syntax::ExprKind::Var(name) => match self.lookup(&ident_name(name)) {
                Some(Ok(id)) => {
                    let tv = self.vars.tvs[id];
                    self.expr(ExprKind::Local(id), tv, span)
                }
                Some(Err(pid)) if self.sig.params[pid].kind.rank().is_some() => {
                    self.err(
                        span,
                        format!("`{name}` is a view: read its elements by index, `{name}[[i]]`, and its sizes with `{name}.len(d)`"),
                    );
                    let tv = self.var(Slot::Unknown);
                    self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
                }
                Some(Err(pid)) => {
                    if self.sig.params[pid].kind == ParamKind::InOut {
                        self.err(
                            span,
                            format!(
                                "`{name}` is a `&mut` parameter: read its value with `*{name}`"
                            ),
                        );
                    }
                    let t = self.sig.params[pid].ty;
                    let tv = self.known(t);
                    self.expr(ExprKind::Param(pid), tv, span)
                }
                None => {
                    let n = self.tuple_fields(&ident_name(name)).map(<[_]>::len);
                    match n {
                        Some(n) => self.err(
                            span,
                            format!(
                                "`{name}` is a tuple of {n}: read its fields (`{name}.0` to `{name}.{}`), or return it whole",
                                n - 1
                            ),
                        ),
                        None => self.err(span, format!("cannot find value `{name}` in this kernel")),
                    }
                    let tv = self.var(Slot::Unknown);
                    self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
                }
            },
            syntax::ExprKind::Field(name, i) => {
                let field = self
                    .tuple_fields(&ident_name(name))
                    .map(|f| (f.len(), f.get(*i).copied()));
                match field {
                    Some((_, Some(pid))) => {
                        let t = self.sig.params[pid].ty;
                        let tv = self.known(t);
                        self.expr(ExprKind::Param(pid), tv, span)
                    }
                    Some((n, None)) => {
                        self.err(
                            span,
                            format!("`{name}` has {n} fields: `{name}.0` to `{name}.{}`", n - 1),
                        );
                        let tv = self.var(Slot::Unknown);
                        self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
                    }
                    None => {
                        self.err(
                            span,
                            format!("`{name}` is not a tuple parameter: `.{i}` reads a field of a parameter like `a: (T, i64)`"),
                        );
                        let tv = self.var(Slot::Unknown);
                        self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
                    }
                }
            }
            syntax::ExprKind::Const(t, name) if type_property(self.ty(*t), name).is_some() => {
                let (v, vt) =
                    type_property(self.ty(*t), name).unwrap_or((Value::Bool(false), DType::Bool));
                let tv = self.known(vt);
                self.expr(ExprKind::Lit(v), tv, span)
            }
            syntax::ExprKind::Const(t, name) => {
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
            syntax::ExprKind::Deref(name) => {
                let tv = self.var(Slot::Unknown);
                match self.inout_param(name, span) {
                    Some(pid) => {
                        let t = self.sig.params[pid].ty;
                        let k = self.known(t);
                        self.unify(tv, k, span);
                        self.expr(ExprKind::Deref(pid), tv, span)
                    }
                    None => self.expr(ExprKind::Lit(Value::Int(0)), tv, span),
                }
            }
            syntax::ExprKind::Unary(op, inner) => {
                let x = self.value(inner);
                let need = match op {
                    UnOp::Neg => Need::SignedOrFloat,
                    UnOp::Not => Need::IntOrBool,
                };
                self.need(x.tv, need, span);
                let tv = x.tv;
                self.expr(ExprKind::Unary(*op, Box::new(x)), tv, span)
            }
            syntax::ExprKind::Binary(op, l, r) => {
                let (l, r) = (self.value(l), self.value(r));
                let tv = self.binary_types(*op, &l, &r, span);
                self.expr(ExprKind::Binary(*op, Box::new(l), Box::new(r)), tv, span)
            }
            syntax::ExprKind::Cast(inner, target) => {
                let x = self.value(inner);
                let t = self.ty(*target);
                self.need(x.tv, Need::CastSource(t), span);
                let tv = self.known(t);
                self.expr(ExprKind::Cast(Box::new(x)), tv, span)
            }
            syntax::ExprKind::Method(recv, name, args) => {
                match self.view_len(recv, name, args, span) {
                    Some(e) => e,
                    None => self.method(recv, name, args, span),
                }
            }
            syntax::ExprKind::If(c, then, Some(els)) if self.static_cond(c).is_some() => {
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
            syntax::ExprKind::If(c, then, els) => {
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
                    syntax::ExprKind::Block(b) => self.value_block(b),
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
            syntax::ExprKind::Block(b) => {
                let block = self.value_block(b);
                let tv = match &block.tail {
                    Some(t) => t.tv,
                    None => self.var(Slot::Unknown),
                };
                self.expr(ExprKind::Block(block), tv, span)
            }
            syntax::ExprKind::Call(key, _, args) => match self.grid_call(key, args, span) {
                Some(e) => e,
                None => self.helper_call(key, args, span),
            },
            syntax::ExprKind::Index(view, ix) => self.view_load(view, ix, span),
            syntax::ExprKind::Atomic(a, m, ix, ops) => self.atomic(a, m, ix, ops, span),
            syntax::ExprKind::LocalArray(_, _, private) => {
                let msg = if *private {
                    "`private!` declares a work-item's array: `let mut acc = private![T; 8];`"
                } else {
                    "`local!` declares a work-group array: `let mut tile = local![T; 16, 16];`"
                };
                self.err(span, msg);
                let tv = self.var(Slot::Unknown);
                self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
            }
            syntax::ExprKind::Tuple(_) => {
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
    pub(super) fn value_block(&mut self, b: &syntax::Block) -> Block {
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
    pub(super) fn binary_types(&mut self, op: BinOp, l: &Expr, r: &Expr, span: Span) -> usize {
        match op {
            BinOp::And | BinOp::Or => {
                let b = self.known(DType::Bool);
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
                self.known(DType::Bool)
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
}

fn is_value_expr(e: &syntax::Expr) -> bool {
    !matches!(
        e.kind,
        syntax::ExprKind::Assign(..)
            | syntax::ExprKind::While(..)
            | syntax::ExprKind::For(..)
            | syntax::ExprKind::Loop(_)
            | syntax::ExprKind::Break
            | syntax::ExprKind::Continue
            | syntax::ExprKind::Return(_)
    ) && !matches!(&e.kind, syntax::ExprKind::If(_, _, None))
}

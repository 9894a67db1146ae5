//! Type inference by unification, as rustc does for numbers: a literal without
//! suffix is an integer or float variable that takes its type from the code
//! around it (an integer literal may also become a float: `x * 2` works for
//! `x: f32`), and defaults to `i32` / `f64` when nothing decides it.
//!
//! [`Cx`] holds the state of checking one function body: type variables, the
//! requirements on them, scopes, and the helper calls found. Its methods are
//! spread over this module's siblings by what they check.

use std::collections::HashMap;

use proc_macro2::Span;

use super::consts::type_property;
use super::defs::HelperDef;
use super::tree::Expr;
use crate::errors::Errors;
use crate::front::ident_name;
use crate::front::syntax::{self, BinOp, TyRef, UnOp};
use crate::ir::{self, ExprKind, Value};
use silt_abi::DType;

#[derive(Debug, Clone, Copy)]
pub(super) enum Slot {
    Known(DType),
    IntLit,
    FloatLit,
    Unknown,
    Link(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Need {
    Numeric,
    Int,
    IntOrBool,
    SignedOrFloat,
    CastSource(DType),
}

/// A helper call found while checking a body: which helper, for which type, where.
pub(super) type HelperUse = (usize, Option<DType>, Span);

/// The state of checking one function body. What its sibling files use is
/// grouped: the function being built (`sig`), its locals (`vars`), the helper
/// calls (`calls`); type variables, scopes and errors stay here.
pub(super) struct Cx<'a> {
    /// The type variables and the requirements on them.
    slots: Vec<Slot>,
    needs: Vec<(usize, Need, Span)>,
    errors: &'a mut Errors,
    /// The names in scope, innermost scope last.
    scopes: Vec<HashMap<String, ir::LocalId>>,
    /// The tuple parameters: each name with its fields' parameters.
    tuples: Vec<(String, Vec<ir::ParamId>)>,
    pub(super) sig: Sig,
    pub(super) vars: Vars,
    pub(super) calls: Calls<'a>,
    /// How many loops enclose the statement being checked.
    pub(super) loop_depth: usize,
}

/// The function being checked: its type, parameters and results.
pub(super) struct Sig {
    /// The type of the generic parameter in this instantiation.
    pub(super) inst: Option<DType>,
    /// Whether this is a grid kernel's body (it takes views).
    pub(super) grid: bool,
    pub(super) params: Vec<ir::Param>,
    pub(super) outputs: Vec<DType>,
}

/// The function's locals, by `LocalId`.
pub(super) struct Vars {
    pub(super) locals: Vec<ir::Local>,
    /// Each local's type variable.
    pub(super) tvs: Vec<usize>,
    /// Where each local is declared.
    pub(super) spans: Vec<Span>,
    /// Locals declared without a value (`let x;`).
    pub(super) deferred: Vec<ir::LocalId>,
    /// A grid kernel's work-group arrays, by `Array::Local` number.
    pub(super) arrays: Vec<ir::LocalArray>,
}

/// The helpers a body may call, and those it calls.
pub(super) struct Calls<'a> {
    /// The helpers calls may name.
    pub(super) helpers: &'a [HelperDef],
    /// How calls in this body name helpers (empty: as written).
    pub(super) deps: &'a [(String, String)],
    /// The helper instantiations called so far.
    pub(super) used: Vec<HelperUse>,
}

impl<'a> Cx<'a> {
    /// A checker for a body of `sig` in the instantiation `inst`, whose calls
    /// may name `helpers` (as `deps` renames them).
    pub(super) fn new(
        sig: &syntax::Signature,
        inst: Option<DType>,
        helpers: &'a [HelperDef],
        deps: &'a [(String, String)],
        errors: &'a mut Errors,
    ) -> Self {
        let mut cx = Cx {
            slots: Vec::new(),
            needs: Vec::new(),
            errors,
            scopes: vec![HashMap::new()],
            tuples: sig
                .tuples
                .iter()
                .map(|(n, f)| (ident_name(n), f.clone()))
                .collect(),
            sig: Sig {
                inst,
                grid: sig.params.iter().any(|p| p.kind.rank().is_some()),
                params: Vec::new(),
                outputs: Vec::new(),
            },
            vars: Vars {
                locals: Vec::new(),
                tvs: Vec::new(),
                spans: Vec::new(),
                deferred: Vec::new(),
                arrays: Vec::new(),
            },
            calls: Calls {
                helpers,
                deps,
                used: Vec::new(),
            },
            loop_depth: 0,
        };
        for p in &sig.params {
            let ty = cx.ty(p.ty);
            cx.sig.params.push(ir::Param {
                name: ident_name(&p.name),
                kind: p.kind,
                ty,
                mutable: p.mutable,
                span: p.name.span(),
            });
        }
        cx.sig.outputs = sig.outputs.iter().map(|(t, _)| cx.ty(*t)).collect();
        cx
    }

    /// The requirements on type variables, for `finish` to check.
    pub(super) fn take_needs(&mut self) -> Vec<(usize, Need, Span)> {
        std::mem::take(&mut self.needs)
    }
}

impl Cx<'_> {
    pub(super) fn in_inst(&self) -> String {
        match self.sig.inst {
            Some(t) => format!(" (in the `{t}` instantiation)"),
            None => String::new(),
        }
    }

    pub(super) fn err(&mut self, span: Span, msg: impl std::fmt::Display) {
        let msg = format!("{msg}{}", self.in_inst());
        self.errors.push(span, msg);
    }

    pub(super) fn ty(&self, t: TyRef) -> DType {
        match t {
            TyRef::Elem(t) => t,
            // without `types` there is no generic parameter, so this is unreachable
            // through `lib.rs`; i32 keeps the checker going if it ever happens
            TyRef::Generic => self.sig.inst.unwrap_or(DType::I32),
        }
    }

    // ---- type variables ----

    pub(super) fn var(&mut self, s: Slot) -> usize {
        self.slots.push(s);
        self.slots.len() - 1
    }

    pub(super) fn known(&mut self, t: DType) -> usize {
        self.var(Slot::Known(t))
    }

    pub(super) fn find(&mut self, v: usize) -> usize {
        match self.slots[v] {
            Slot::Link(n) => {
                let root = self.find(n);
                self.slots[v] = Slot::Link(root);
                root
            }
            _ => v,
        }
    }

    pub(super) fn get(&mut self, v: usize) -> Slot {
        let r = self.find(v);
        self.slots[r]
    }

    pub(super) fn show(&mut self, v: usize) -> String {
        match self.get(v) {
            Slot::Known(t) => format!("`{t}`"),
            Slot::IntLit => "an integer".into(),
            Slot::FloatLit => "a float".into(),
            _ => "a value".into(),
        }
    }

    /// Makes `a` and `b` one type; reports a mismatch at `span`.
    pub(super) fn unify(&mut self, a: usize, b: usize, span: Span) {
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
    pub(super) fn unify_operands(&mut self, l: &Expr, r: &Expr) {
        let lit = |e: &Expr| matches!(e.kind, ExprKind::Lit(_));
        if lit(l) && !lit(r) {
            self.unify(r.tv, l.tv, l.span);
        } else {
            self.unify(l.tv, r.tv, r.span);
        }
    }

    /// The value of a condition made only of type properties (`T::IS_FLOAT`,
    /// `!T::IS_SIGNED && ...`, `T::BITS == 16`): such an `if` picks its branch
    /// per instantiation, and the other branch is neither checked nor emitted.
    pub(super) fn static_cond(&self, e: &syntax::Expr) -> Option<bool> {
        match &e.kind {
            syntax::ExprKind::Const(t, name) => match type_property(self.ty(*t), name) {
                Some((Value::Bool(b), _)) => Some(b),
                _ => None,
            },
            syntax::ExprKind::Unary(UnOp::Not, x) => self.static_cond(x).map(|b| !b),
            syntax::ExprKind::Binary(BinOp::And, l, r) => {
                Some(self.static_cond(l)? && self.static_cond(r)?)
            }
            syntax::ExprKind::Binary(BinOp::Or, l, r) => {
                Some(self.static_cond(l)? || self.static_cond(r)?)
            }
            syntax::ExprKind::Binary(op, l, r) => self.static_comparison(*op, l, r),
            _ => None,
        }
    }

    /// `T::BITS == 16`, `32 <= T::BITS`, ...: a comparison of an integer type
    /// property with an integer literal or another one (a comparison of two
    /// literals stays an ordinary expression).
    fn static_comparison(&self, op: BinOp, l: &syntax::Expr, r: &syntax::Expr) -> Option<bool> {
        let int = |e: &syntax::Expr| match &e.kind {
            syntax::ExprKind::Const(t, name) => match type_property(self.ty(*t), name) {
                Some((Value::Int(v), _)) => Some((v, true)),
                _ => None,
            },
            syntax::ExprKind::Lit(syntax::Lit::Int(v, _)) => Some((*v, false)),
            _ => None,
        };
        let ((a, pa), (b, pb)) = (int(l)?, int(r)?);
        if !(pa || pb) {
            return None;
        }
        Some(match op {
            BinOp::Eq => a == b,
            BinOp::Ne => a != b,
            BinOp::Lt => a < b,
            BinOp::Le => a <= b,
            BinOp::Gt => a > b,
            BinOp::Ge => a >= b,
            _ => return None,
        })
    }

    pub(super) fn need(&mut self, v: usize, need: Need, span: Span) {
        self.needs.push((v, need, span));
    }

    pub(super) fn resolved(&mut self, v: usize) -> DType {
        match self.get(v) {
            Slot::Known(t) => t,
            Slot::IntLit | Slot::Unknown | Slot::Link(_) => DType::I32,
            Slot::FloatLit => DType::F64,
        }
    }

    pub(super) fn expr(&mut self, kind: ExprKind<Expr>, tv: usize, span: Span) -> Expr {
        Expr {
            kind,
            tv,
            span,
            float: None,
        }
    }

    /// An unsuffixed float literal: its value is read once its type is known.
    pub(super) fn float_literal(&mut self, digits: String, tv: usize, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Lit(Value::F64(0.0)),
            tv,
            span,
            float: Some(digits),
        }
    }

    // ---- scopes ----

    pub(super) fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub(super) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Whether a statement being checked is at the top of the function's
    /// body (the parameters' scope, then the body's).
    pub(super) fn at_top_level(&self) -> bool {
        self.scopes.len() == 2
    }

    pub(super) fn declare(&mut self, name: &syn::Ident, mutable: bool, tv: usize) -> ir::LocalId {
        let id = self.vars.locals.len();
        self.vars.locals.push(ir::Local {
            name: ident_name(name),
            ty: DType::Bool,
            mutable,
        });
        self.vars.tvs.push(tv);
        self.vars.spans.push(name.span());
        if let Some(s) = self.scopes.last_mut() {
            s.insert(ident_name(name), id);
        }
        id
    }

    /// The parameters of the fields of the tuple parameter `name`, if it is one.
    pub(super) fn tuple_fields(&self, name: &str) -> Option<&[ir::ParamId]> {
        self.tuples
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.as_slice())
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Result<ir::LocalId, ir::ParamId>> {
        for s in self.scopes.iter().rev() {
            if let Some(&id) = s.get(name) {
                return Some(Ok(id));
            }
        }
        self.sig.params.iter().position(|p| p.name == name).map(Err)
    }
}

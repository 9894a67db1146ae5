//! What grid kernels add to the checker: their views indexed (`a[[i, j]]`,
//! one `u64` per dimension) and written (`c[[i, j]] = v` on a `ViewMut`),
//! `view.len(d)`, and the built-ins that say where a work-item is
//! (`global_id(d)` and its kin).

use proc_macro2::Span;

use super::infer::{Cx, Slot};
use super::tree::{Expr, ExprKind, Stmt};
use crate::front::ident_name;
use crate::front::syntax::{self, BinOp, ParamKind};
use crate::ir::{self, GridId, Value};
use silt_abi::DType;

impl Cx<'_> {
    /// What `name` indexes, if anything: a work-group array or a view
    /// parameter, with its dimension count, whether it may be written, and
    /// its element type.
    pub(super) fn indexable(&self, name: &syn::Ident) -> Option<(ir::Array, usize, bool, DType)> {
        let n = ident_name(name);
        if let Some(i) = self.vars.arrays.iter().rposition(|a| a.name == n) {
            let a = &self.vars.arrays[i];
            return Some((ir::Array::Local(i), a.dims.len(), true, a.ty));
        }
        match self.lookup(&n) {
            Some(Err(pid)) => {
                let p = &self.sig.params[pid];
                let write = matches!(p.kind, ParamKind::ViewMut(_));
                p.kind
                    .rank()
                    .map(|r| (ir::Array::View(pid), r, write, p.ty))
            }
            _ => None,
        }
    }

    /// `let mut tile = local![T; 16, 16];` or `let mut acc = private![T;
    /// 8];` in a grid kernel.
    pub(super) fn declare_array(
        &mut self,
        name: &syn::Ident,
        t: syntax::TyRef,
        dims: &[u64],
        private: bool,
        span: Span,
    ) {
        if !self.sig.grid {
            let msg = if private {
                "`private!` arrays are a work-item's own memory in a `#[grid]` kernel; a `#[kernel]` sees one element"
            } else {
                "`local!` arrays are work-group memory, which `#[grid]` kernels have"
            };
            self.err(span, msg);
            return;
        }
        if private && !self.at_top_level() {
            self.err(
                span,
                "declare `private!` arrays at the top of the kernel's body (each work-item's array is zeroed once, where the body starts)",
            );
            return;
        }
        let ty = self.ty(t);
        self.vars.arrays.push(ir::LocalArray {
            name: ident_name(name),
            private,
            ty,
            dims: dims.to_vec(),
        });
    }

    /// `barrier()` as a statement of a grid kernel.
    pub(super) fn barrier(&mut self, args: &[syntax::Expr], span: Span) -> Option<Stmt> {
        if !self.sig.grid {
            self.err(
                span,
                "`barrier` is a built-in of `#[grid]` kernels, whose work-items meet in work-groups",
            );
            return None;
        }
        if !args.is_empty() {
            self.err(span, "`barrier()` takes no argument");
        }
        Some(Stmt::Barrier(span))
    }

    fn zero(&mut self, span: Span) -> Expr {
        let tv = self.var(Slot::Unknown);
        self.expr(ExprKind::Lit(Value::Int(0)), tv, span)
    }

    /// The indices of an access of a view of `rank` dimensions, each a `u64`.
    fn indices(
        &mut self,
        name: &syn::Ident,
        rank: usize,
        ix: &[syntax::Expr],
        span: Span,
    ) -> Vec<Expr> {
        if ix.len() != rank {
            self.err(
                span,
                format!(
                    "`{name}` has {rank} dimension(s): index it with {rank} index(es), `{name}[[{}]]`",
                    (0..rank).map(|d| format!("i{d}")).collect::<Vec<_>>().join(", ")
                ),
            );
        }
        ix.iter()
            .map(|i| {
                let v = self.value(i);
                let u = self.known(DType::U64);
                self.unify(u, v.tv, i.span);
                v
            })
            .collect()
    }

    /// `view[[i, j]]` as a value.
    pub(super) fn view_load(&mut self, name: &syn::Ident, ix: &[syntax::Expr], span: Span) -> Expr {
        let Some((array, rank, _, t)) = self.indexable(name) else {
            self.err(
                span,
                format!("indexing is only for the views of a `#[grid]` kernel (`{name}: View<T, N>`): a `#[kernel]` sees one element of each tensor"),
            );
            return self.zero(span);
        };
        let ix = self.indices(name, rank, ix, span);
        let tv = self.known(t);
        self.expr(ExprKind::Load(array, ix), tv, span)
    }

    /// `view[[i, j]] = value` (or `op=`) on a `ViewMut`.
    pub(super) fn view_store(
        &mut self,
        name: &syn::Ident,
        ix: &[syntax::Expr],
        op: Option<BinOp>,
        value: &syntax::Expr,
        span: Span,
    ) -> Option<Stmt> {
        let Some((array, rank, write, t)) = self.indexable(name) else {
            self.err(
                span,
                format!("indexing is only for the views of a `#[grid]` kernel (`{name}: ViewMut<T, N>`)"),
            );
            return None;
        };
        if !write {
            self.err(
                span,
                format!("`{name}` is a `View`, which is read only: take `{name}: ViewMut<T, N>` to write it"),
            );
            return None;
        }
        let ix = self.indices(name, rank, ix, span);
        let tv = self.known(t);
        let v = self.value(value);
        match op {
            None => self.unify(tv, v.tv, value.span),
            Some(op) => {
                let target = self.expr(ExprKind::Lit(Value::Bool(false)), tv, span);
                let _ = self.binary_types(op, &target, &v, span);
            }
        }
        Some(Stmt::Store(array, ix, op, v))
    }

    /// A dimension given to `len` or a grid built-in: an integer literal
    /// below `limit` (`of`: what has the dimensions, for the message).
    fn dimension(
        &mut self,
        what: &str,
        of: &str,
        args: &[syntax::Expr],
        limit: usize,
        span: Span,
    ) -> usize {
        let d = match args {
            [syntax::Expr {
                kind: syntax::ExprKind::Lit(syntax::Lit::Int(d, _)),
                ..
            }] => usize::try_from(*d).ok().filter(|&d| d < limit),
            _ => None,
        };
        d.unwrap_or_else(|| {
            self.err(
                span,
                format!(
                    "`{what}` takes a dimension: an integer literal from 0 to {} ({of} has {limit} dimension{})",
                    limit - 1,
                    if limit == 1 { "" } else { "s" }
                ),
            );
            0
        })
    }

    /// `view.len(d)`, when `recv` is a view; `None` for other receivers.
    pub(super) fn view_len(
        &mut self,
        recv: &syntax::Expr,
        name: &syn::Ident,
        args: &[syntax::Expr],
        span: Span,
    ) -> Option<Expr> {
        let syntax::ExprKind::Var(v) = &recv.kind else {
            return None;
        };
        let (array, rank, _, _) = self.indexable(v)?;
        if name != "len" {
            self.err(
                span,
                format!("a view or `local!` array has `len(d)` and is indexed with `{v}[[..]]`; it has no method `{name}`"),
            );
            return Some(self.zero(span));
        }
        let d = self.dimension("len", &format!("`{v}`"), args, rank, span);
        let tv = self.known(DType::U64);
        Some(self.expr(ExprKind::Len(array, d), tv, span))
    }

    /// `global_id(d)` and its kin, in a grid kernel; `None` for other calls.
    pub(super) fn grid_call(
        &mut self,
        key: &str,
        args: &[syntax::Expr],
        span: Span,
    ) -> Option<Expr> {
        let g = GridId::named(key)?;
        if !self.sig.grid {
            self.err(
                span,
                format!("`{key}` is a built-in of `#[grid]` kernels, which index whole views"),
            );
            return Some(self.zero(span));
        }
        let d = self.dimension(g.name(), "a grid", args, 3, span);
        let tv = self.known(DType::U64);
        Some(self.expr(ExprKind::GridId(g, d), tv, span))
    }

    /// `a.atomic_add([i, j], v)` and its kin, on a `ViewMut` or `local!`
    /// array of 32- or 64-bit integers (`atomic_add` also of floats).
    pub(super) fn atomic(
        &mut self,
        name: &syn::Ident,
        method: &syn::Ident,
        ix: &[syntax::Expr],
        ops: &[syntax::Expr],
        span: Span,
    ) -> Expr {
        let Some(op) = ir::AtomicOp::named(&method.to_string()) else {
            let names: Vec<&str> = ir::AtomicOp::ALL.iter().map(|(_, n)| *n).collect();
            self.err(
                method.span(),
                format!("no atomic `{method}`: the atomics are {}", names.join(", ")),
            );
            return self.zero(span);
        };
        let Some((array, rank, write, t)) = self.indexable(name) else {
            self.err(
                span,
                format!("atomics work on a grid kernel's `ViewMut`s and `local!` arrays; `{name}` is neither"),
            );
            return self.zero(span);
        };
        if let ir::Array::Local(i) = array {
            if self.vars.arrays[i].private {
                self.err(
                    span,
                    format!("`{name}` is a `private!` array, which only its work-item sees: write it directly, no atomic is needed"),
                );
                return self.zero(span);
            }
        }
        if !write {
            self.err(
                span,
                format!("`{name}` is a `View`, which is read only: an atomic writes, take `{name}: ViewMut<T, N>`"),
            );
            return self.zero(span);
        }
        let int = matches!(t, DType::I32 | DType::U32 | DType::I64 | DType::U64);
        let float = matches!(t, DType::F32 | DType::F64);
        if !(int || (float && op == ir::AtomicOp::Add)) {
            self.err(
                span,
                format!(
                    "`{}` on `{t}`: atomics take 32- and 64-bit integers (`i32`, `u32`, `i64`, `u64`), and `atomic_add` also `f32` and `f64`",
                    op.name()
                ),
            );
            return self.zero(span);
        }
        if ops.len() != op.operands() {
            let what = if op.operands() == 2 {
                "the index array, the value expected and the new value"
            } else {
                "the index array and a value"
            };
            self.err(span, format!("`{}` takes {what}", op.name()));
            return self.zero(span);
        }
        let ix = self.indices(name, rank, ix, span);
        let ops = ops
            .iter()
            .map(|o| {
                let v = self.value(o);
                let k = self.known(t);
                self.unify(k, v.tv, o.span);
                v
            })
            .collect();
        let tv = self.known(t);
        self.expr(ExprKind::Atomic(op, array, ix, ops), tv, span)
    }
}

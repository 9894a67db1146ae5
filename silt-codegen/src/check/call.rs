//! Checking calls: `#[helper]` functions and builtin methods.

use proc_macro2::Span;

use super::function::helper_ref;
use super::infer::{Cx, Slot};
use super::tree::Expr;
use crate::builtins::{self, Rel};
use crate::front::syntax::{self, TyRef};
use crate::ir::{ExprKind, Value};
use silt_abi::DType;

impl Cx<'_> {
    /// A call of a helper in an expression: it must return one value.
    pub(super) fn helper_call(&mut self, key: &str, args: &[syntax::Expr], span: Span) -> Expr {
        let (call, outputs) = self.helper_call_outputs(key, args, span);
        if outputs.len() > 1 {
            self.err(
                span,
                format!(
                    "`{key}` returns {} values, not one: bind them with a tuple `let` (`let ({}) = {key}(..);`)",
                    outputs.len(),
                    ["a", "b", "c", "d", "e", "f", "g", "h"][..outputs.len().min(8)].join(", ")
                ),
            );
            let tv = self.var(Slot::Unknown);
            return self.expr(ExprKind::Lit(Value::Int(0)), tv, span);
        }
        call
    }

    /// A call of a helper, typed as its first result, and the types of all its
    /// results (none when the call is in error, reported).
    pub(super) fn helper_call_outputs(
        &mut self,
        key: &str,
        args: &[syntax::Expr],
        span: Span,
    ) -> (Expr, Vec<DType>) {
        let args: Vec<Expr> = args.iter().map(|a| self.value(a)).collect();
        let fail = |cx: &mut Self| {
            let tv = cx.var(Slot::Unknown);
            (cx.expr(ExprKind::Lit(Value::Int(0)), tv, span), Vec::new())
        };
        let helpers = self.calls.helpers;
        let key = self
            .calls
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
            match t.or(self.sig.inst) {
                Some(t) if def.types.contains(&t) => Some(t),
                Some(t) => {
                    let list: Vec<&str> = def.types.iter().map(|t| t.name()).collect();
                    let msg = if def.kernel {
                        format!(
                            "kernel `{key}` has no `{t}` instantiation (its types: {}): the calling kernel's `types` must be among them",
                            list.join(", ")
                        )
                    } else {
                        format!(
                            "helper `{key}` is not instantiated for `{t}` (its types: {})",
                            list.join(", ")
                        )
                    };
                    self.err(span, msg);
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
            TyRef::Generic => inst.unwrap_or(DType::I32),
            TyRef::Elem(t) => t,
        };
        for (a, p) in args.iter().zip(&def.sig.params) {
            let k = self.known(resolve(p.ty));
            self.unify(k, a.tv, a.span);
        }
        let outputs: Vec<DType> = def.sig.outputs.iter().map(|(r, _)| resolve(*r)).collect();
        let tv = self.known(outputs.first().copied().unwrap_or(DType::Bool));
        if !self
            .calls
            .used
            .iter()
            .any(|(hh, tt, _)| *hh == h && *tt == inst)
        {
            self.calls.used.push((h, inst, span));
        }
        let call = self.expr(ExprKind::Helper(helper_ref(def, inst), args), tv, span);
        (call, outputs)
    }

    pub(super) fn method(
        &mut self,
        recv: &syntax::Expr,
        name: &syn::Ident,
        args: &[syntax::Expr],
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
}

//! A function body as Rust tokens, with silt's semantics (wrapping integers,
//! division by zero is 0, non-panicking clamp, `f16` computed in `f32` and
//! rounded after every operation).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::builtin::{builtin, inverse_hyperbolic};
use super::literal::literal;
use super::types::{helper_fn_name, narrow, rust_ident, ty, widen};
use crate::builtins::Builtin;
use crate::ir::{
    Array, AtomicOp, BinOp, Block, Expr, ExprKind, Function, Place, Stmt, UnOp, Value,
};
use silt_abi::DType;

/// Writes one function's body as Rust.
pub(super) struct Emitter<'a> {
    /// The function.
    pub(super) k: &'a Function,
    /// The path of the silt crate in generated code.
    pub(super) krate: &'a TokenStream,
}

impl Emitter<'_> {
    pub(super) fn param(&self, i: usize) -> syn::Ident {
        let p = &self.k.params[i];
        rust_ident(&p.name, p.span)
    }

    /// The Rust name of what a grid kernel indexes: a view parameter, or
    /// `__a{i}_{name}` for a work-group array.
    pub(super) fn array(&self, a: Array) -> syn::Ident {
        match a {
            Array::View(pid) => self.param(pid),
            Array::Local(i) => format_ident!("__a{}_{}", i, self.k.arrays[i].name),
        }
    }

    /// The element type of what a grid kernel indexes.
    fn array_ty(&self, a: Array) -> DType {
        match a {
            Array::View(pid) => self.k.params[pid].ty,
            Array::Local(i) => self.k.arrays[i].ty,
        }
    }

    /// `__l{id}_{name}`: unique per local (shadowing becomes distinct names), in
    /// the `__` namespace that parameters cannot take.
    fn local(&self, id: usize) -> syn::Ident {
        format_ident!("__l{}_{}", id, self.k.locals[id].name)
    }

    pub(super) fn block(&self, b: &Block) -> TokenStream {
        let stmts = b.stmts.iter().map(|s| self.stmt(s));
        let tail = b.tail.as_ref().map(|t| self.expr(t));
        quote!({ #(#stmts)* #tail })
    }

    fn stmt(&self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Let(id, init) => {
                let n = self.local(*id);
                let t = ty(self.k.locals[*id].ty);
                let m = if self.k.locals[*id].mutable {
                    quote!(mut)
                } else {
                    quote!()
                };
                match init {
                    Some(e) => {
                        let v = self.expr(e);
                        quote!(let #m #n: #t = #v;)
                    }
                    None => quote!(let #m #n: #t;),
                }
            }
            Stmt::LetCall(ids, call) => {
                let names = ids.iter().map(|&id| {
                    let n = self.local(id);
                    if self.k.locals[id].mutable {
                        quote!(mut #n)
                    } else {
                        quote!(#n)
                    }
                });
                let v = self.expr(call);
                quote!(let (#(#names),*) = #v;)
            }
            Stmt::Barrier(_) => quote!(__item.barrier().await;),
            Stmt::Store(pid, ix, op, value) => {
                // the indices, then the value, as the OpenCL backend does
                let n = self.array(*pid);
                let ix = ix.iter().map(|i| self.expr(i));
                let v = self.expr(value);
                let t = self.array_ty(*pid);
                let v = match op {
                    None => v,
                    Some(op) => {
                        let old = quote!(#n.get(&__ix, __item));
                        let combined =
                            self.binary(*op, t, value.ty, old, quote!(__rhs), value.span);
                        quote!({ let __rhs = #v; #combined })
                    }
                };
                quote!({ let __ix = [#(#ix),*]; let __v = #v; #n.set(&__ix, __v, __item); })
            }
            Stmt::Assign(place, op, value) => {
                let (target, t) = match place {
                    Place::Local(id) => {
                        let n = self.local(*id);
                        (quote!(#n), self.k.locals[*id].ty)
                    }
                    Place::Param(pid) => {
                        let n = self.param(*pid);
                        (quote!(#n), self.k.params[*pid].ty)
                    }
                    Place::Deref(pid) => {
                        let n = self.param(*pid);
                        (quote!((*#n)), self.k.params[*pid].ty)
                    }
                };
                let v = self.expr(value);
                match op {
                    None => quote!(#target = #v;),
                    Some(op) => {
                        // Rust evaluates the right side of a compound assignment of
                        // primitives first
                        let combined = self.binary(
                            *op,
                            t,
                            value.ty,
                            target.clone(),
                            quote!(__rhs),
                            value.span,
                        );
                        quote!({ let __rhs = #v; #target = #combined; })
                    }
                }
            }
            Stmt::Expr(e) => {
                let v = self.expr(e);
                quote!(let _ = #v;)
            }
            Stmt::If(c, t, f) => {
                let c = self.expr(c);
                let t = self.block(t);
                match f {
                    Some(f) => {
                        let f = self.block(f);
                        quote!(if #c #t else #f)
                    }
                    None => quote!(if #c #t),
                }
            }
            Stmt::While(c, body) => {
                let c = self.expr(c);
                let b = self.block(body);
                quote!(while #c #b)
            }
            Stmt::For(id, a, z, inclusive, body) => {
                let n = self.local(*id);
                let (a, z) = (self.expr(a), self.expr(z));
                let b = self.block(body);
                if *inclusive {
                    quote!(for #n in (#a)..=(#z) #b)
                } else {
                    quote!(for #n in (#a)..(#z) #b)
                }
            }
            Stmt::Loop(body) => {
                let b = self.block(body);
                quote!(loop #b)
            }
            Stmt::Break => quote!(break;),
            Stmt::Continue => quote!(continue;),
            Stmt::Return(vs) => {
                let vs: Vec<TokenStream> = vs.iter().map(|v| self.expr(v)).collect();
                match vs.len() {
                    0 => quote!(return;),
                    1 if self.k.outputs.len() == 1 => {
                        let v = &vs[0];
                        quote!(return #v;)
                    }
                    _ => quote!(return (#(#vs),*);),
                }
            }
            Stmt::Block(b) => self.block(b),
        }
    }

    fn expr(&self, e: &Expr) -> TokenStream {
        let span = e.span;
        let krate = self.krate;
        match &e.kind {
            ExprKind::Lit(Value::F32(x)) if e.ty == DType::F16 => {
                let bits = silt_abi::f16_bits(*x);
                quote_spanned!(span=> __silt::f16::from_bits(#bits))
            }
            ExprKind::Lit(v) => literal(e.ty, *v, span),
            ExprKind::Local(id) => {
                let n = self.local(*id);
                quote!(#n)
            }
            ExprKind::Param(pid) => {
                let n = self.param(*pid);
                quote!(#n)
            }
            ExprKind::Deref(pid) => {
                let n = self.param(*pid);
                quote!((*#n))
            }
            ExprKind::Load(pid, ix) => {
                let n = self.array(*pid);
                let ix = ix.iter().map(|i| self.expr(i));
                quote_spanned!(span=> #n.get(&[#(#ix),*], __item))
            }
            ExprKind::Len(pid, d) => {
                let n = self.array(*pid);
                quote_spanned!(span=> #n.len(#d))
            }
            ExprKind::Atomic(op, array, ix, ops) => {
                // one indivisible step on the element's atomic
                let n = self.array(*array);
                let t = self.array_ty(*array);
                let ix = ix.iter().map(|i| self.expr(i));
                let v = ops.first().map(|o| self.expr(o));
                let w = ops.get(1).map(|o| self.expr(o));
                let old = quote!(__old);
                let (vq, wq) = (quote!(__v), quote!(__w));
                let new = match op {
                    AtomicOp::Add => self.binary(BinOp::Add, t, t, old.clone(), vq, span),
                    AtomicOp::Sub => self.binary(BinOp::Sub, t, t, old.clone(), vq, span),
                    AtomicOp::And => self.binary(BinOp::BitAnd, t, t, old.clone(), vq, span),
                    AtomicOp::Or => self.binary(BinOp::BitOr, t, t, old.clone(), vq, span),
                    AtomicOp::Xor => self.binary(BinOp::BitXor, t, t, old.clone(), vq, span),
                    AtomicOp::Min => quote!(if __v < __old { __v } else { __old }),
                    AtomicOp::Max => quote!(if __v > __old { __v } else { __old }),
                    AtomicOp::Exchange => vq,
                    AtomicOp::CompareExchange => quote!(if __old == __v { #wq } else { __old }),
                };
                let w = w.map(|w| quote!(let __w = #w;));
                quote_spanned! {span=> {
                    let __ix = [#(#ix),*];
                    let __v = #v;
                    #w
                    #n.update(&__ix, |__old| #new, __item)
                }}
            }
            ExprKind::GridId(g, d) => {
                let f = format_ident!("{}", g.name());
                quote_spanned!(span=> __item.#f(#d))
            }
            ExprKind::Unary(op, x) => {
                let v = self.expr(x);
                match (op, x.ty.is_float()) {
                    (UnOp::Neg, true) => quote_spanned!(span=> (-#v)),
                    (UnOp::Neg, false) => quote_spanned!(span=> (#v).wrapping_neg()),
                    (UnOp::Not, _) => quote_spanned!(span=> (!#v)),
                }
            }
            ExprKind::Binary(op, l, r) => {
                let (lv, rv) = (self.expr(l), self.expr(r));
                self.binary(*op, l.ty, r.ty, lv, rv, span)
            }
            ExprKind::Cast(x) if x.ty == e.ty => self.expr(x),
            ExprKind::Cast(x) if e.ty == DType::F16 => {
                let v = self.expr(x);
                match x.ty {
                    // one rounding, like every device
                    DType::F64 => quote_spanned!(span=> __silt::__private::f16_from_f64(#v)),
                    DType::F32 => narrow(v, span),
                    DType::Bool => narrow(quote!(((#v) as u8 as f32)), span),
                    // exact in f64 below 2^53; any integer from 65520 up is
                    // infinity in f16 however it is rounded on the way
                    _ => quote_spanned!(span=> __silt::__private::f16_from_f64((#v) as f64)),
                }
            }
            ExprKind::Cast(x) if x.ty == DType::F16 => {
                let v = self.expr(x);
                if e.ty == DType::F64 {
                    quote_spanned!(span=> (#v).to_f64())
                } else {
                    let t = ty(e.ty);
                    quote_spanned!(span=> (__silt::__private::f16_widen(#v) as #t))
                }
            }
            ExprKind::Cast(x) => {
                let v = self.expr(x);
                let t = ty(e.ty);
                if x.ty == DType::Bool && e.ty.is_float() {
                    quote_spanned!(span=> ((#v) as u8 as #t))
                } else {
                    quote_spanned!(span=> ((#v) as #t))
                }
            }
            ExprKind::Call(Builtin::ToBits, args) if args[0].ty == DType::F16 => {
                let v = self.expr(&args[0]);
                quote_spanned!(span=> (#v).to_bits())
            }
            // f16 sign operations on the bits, as the device does them: through
            // f32 they would quiet a signalling NaN
            ExprKind::Call(Builtin::FAbs, args) if e.ty == DType::F16 => {
                let v = self.expr(&args[0]);
                quote_spanned!(span=> __silt::f16::from_bits((#v).to_bits() & 0x7fff))
            }
            ExprKind::Call(Builtin::Copysign, args) if e.ty == DType::F16 => {
                let (a, b) = (self.expr(&args[0]), self.expr(&args[1]));
                quote_spanned!(span=> __silt::f16::from_bits(((#a).to_bits() & 0x7fff) | ((#b).to_bits() & 0x8000)))
            }
            // a selection: compared as f16 (`half`'s order is IEEE's), returned as is
            ExprKind::Call(Builtin::FClamp, args) if e.ty == DType::F16 => {
                let vs = args.iter().map(|a| self.expr(a));
                quote_spanned!(span=> #krate::__private::clamp(#(#vs),*))
            }
            // the quotient rounded to f16 before `trunc`, as on the device
            ExprKind::Call(Builtin::FDivEuclid, args) if e.ty == DType::F16 => {
                let vs = args.iter().map(|a| widen(a.ty, self.expr(a)));
                narrow(
                    quote_spanned!(span=> #krate::__private::f16_div_euclid(#(#vs),*)),
                    span,
                )
            }
            ExprKind::Call(b, args) => {
                // f16: computed in f32, then rounded
                let vs: Vec<TokenStream> = args.iter().map(|a| widen(a.ty, self.expr(a))).collect();
                let v = match b {
                    Builtin::Acosh | Builtin::Asinh | Builtin::Atanh => {
                        inverse_hyperbolic(*b, e.ty.compute(), &vs[0], span)
                    }
                    _ => builtin(*b, &vs, krate, span),
                };
                // (exact for the builtins that need no rounding on the device)
                if e.ty == DType::F16 {
                    narrow(v, span)
                } else {
                    v
                }
            }
            ExprKind::Helper(h, args) => {
                let f = format_ident!("{}", helper_fn_name(h), span = span);
                let vs = args.iter().map(|a| self.expr(a));
                quote!(self::#f(#(#vs),*))
            }
            ExprKind::If(c, t, f) => {
                let c = self.expr(c);
                let (t, f) = (self.block(t), self.block(f));
                quote!((if #c #t else #f))
            }
            ExprKind::Block(b) => self.block(b),
        }
    }

    fn binary(
        &self,
        op: BinOp,
        t: DType,
        rt: DType,
        l: TokenStream,
        r: TokenStream,
        span: Span,
    ) -> TokenStream {
        use BinOp as B;
        let krate = self.krate;
        if t == DType::F16 && !matches!(op, B::And | B::Or) {
            // computed in f32: exact for comparisons, and one rounding to f16 of
            // an f32 result is the correctly rounded f16 result of + - * / %
            let (l, r) = (widen(t, l), widen(t, r));
            let v = self.binary(op, DType::F32, DType::F32, l, r, span);
            return if op.is_comparison() {
                v
            } else {
                narrow(v, span)
            };
        }
        if t.is_float() || t == DType::Bool || op.is_comparison() || matches!(op, B::And | B::Or) {
            let sym: TokenStream = op.symbol().parse().unwrap_or_default();
            return quote_spanned!(span=> ((#l) #sym (#r)));
        }
        match op {
            B::Add => quote_spanned!(span=> (#l).wrapping_add(#r)),
            B::Sub => quote_spanned!(span=> (#l).wrapping_sub(#r)),
            B::Mul => quote_spanned!(span=> (#l).wrapping_mul(#r)),
            B::Div => quote_spanned!(span=> #krate::__private::int_div(#l, #r)),
            B::Rem => quote_spanned!(span=> #krate::__private::int_rem(#l, #r)),
            B::Shl | B::Shr => {
                let amount = if rt == DType::U32 {
                    r
                } else {
                    quote!(((#r) as u32))
                };
                if op == B::Shl {
                    quote_spanned!(span=> (#l).wrapping_shl(#amount))
                } else {
                    quote_spanned!(span=> (#l).wrapping_shr(#amount))
                }
            }
            _ => {
                let sym: TokenStream = op.symbol().parse().unwrap_or_default();
                quote_spanned!(span=> ((#l) #sym (#r)))
            }
        }
    }
}

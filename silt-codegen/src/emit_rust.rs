//! Rust tokens from the typed IR: the body as plain Rust for one element, with
//! silt's semantics (wrapping integers, division by zero is 0, non-panicking
//! clamp), so that the host backend and the reference agree with the device.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::builtins::{Builtin, Form};
use crate::ir::{BinOp, Block, Expr, ExprKind, Kernel, ParamKind, Place, Stmt, UnOp, Value};
use crate::ty::Ty;

/// An identifier for `name`, raw (`r#type`) when `name` is a keyword.
fn rust_ident(name: &str, span: Span) -> syn::Ident {
    if syn::parse_str::<syn::Ident>(name).is_ok() {
        syn::Ident::new(name, span)
    } else {
        syn::Ident::new_raw(name, span)
    }
}

/// The Rust type tokens of `t` (`f16` through the `__silt` alias of the
/// generated module: it is `half::f16`, not a primitive).
pub fn ty(t: Ty) -> TokenStream {
    if t == Ty::F16 {
        return quote!(__silt::f16);
    }
    let id = format_ident!("{}", t.name());
    quote!(#id)
}

/// `v` (of type `t`) as the type `f16` arithmetic is computed in.
fn widen(t: Ty, v: TokenStream) -> TokenStream {
    if t == Ty::F16 {
        quote!((#v).to_f32())
    } else {
        v
    }
}

/// An `f32` result as `f16` (the nearest, ties to even).
fn narrow(v: TokenStream, span: Span) -> TokenStream {
    quote_spanned!(span=> __silt::f16::from_f32(#v))
}

/// `fn NAME(params) -> ret { body }`: the instantiation's element function.
pub fn eval_fn(k: &Kernel, name: &syn::Ident, krate: &TokenStream) -> TokenStream {
    let e = Emitter { k, krate };
    let params = k.params.iter().enumerate().map(|(i, p)| {
        let n = e.param(i);
        let t = ty(p.ty);
        let m = if p.mutable { quote!(mut) } else { quote!() };
        match p.kind {
            ParamKind::InOut => quote!(#n: &mut #t),
            _ => quote!(#m #n: #t),
        }
    });
    let ret = match k.outputs.as_slice() {
        [] => quote!(),
        [one] => {
            let t = ty(*one);
            quote!(-> #t)
        }
        many => {
            let ts = many.iter().map(|t| ty(*t));
            quote!(-> (#(#ts),*))
        }
    };
    let body = e.block(&k.body);
    quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut, unused_variables, unused_assignments, unused_parens, unreachable_code,
                clippy::all, clippy::pedantic, non_snake_case)]
        pub fn #name(#(#params),*) #ret #body
    }
}

struct Emitter<'a> {
    k: &'a Kernel,
    krate: &'a TokenStream,
}

impl Emitter<'_> {
    fn param(&self, i: usize) -> syn::Ident {
        let p = &self.k.params[i];
        rust_ident(&p.name, p.span)
    }

    /// `__l{id}_{name}`: unique per local (shadowing becomes distinct names), in
    /// the `__` namespace that parameters cannot take.
    fn local(&self, id: usize) -> syn::Ident {
        format_ident!("__l{}_{}", id, self.k.locals[id].name)
    }

    fn block(&self, b: &Block) -> TokenStream {
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
            ExprKind::Lit(Value::F32(x)) if e.ty == Ty::F16 => {
                let bits = silt_abi::f16_bits(*x);
                quote_spanned!(span=> __silt::f16::from_bits(#bits))
            }
            ExprKind::Lit(v) => literal(e.ty, *v, span),
            ExprKind::PendingFloat(t) => {
                let l = proc_macro2::Literal::f64_unsuffixed(t.parse().unwrap_or(0.0));
                quote!(#l)
            }
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
            ExprKind::Cast(x) if e.ty == Ty::F16 => {
                let v = self.expr(x);
                match x.ty {
                    // one rounding, like every device
                    Ty::F64 => quote_spanned!(span=> __silt::__private::f16_from_f64(#v)),
                    Ty::F32 => narrow(v, span),
                    Ty::Bool => narrow(quote!(((#v) as u8 as f32)), span),
                    // exact in f64 below 2^53; any integer from 65520 up is
                    // infinity in f16 however it is rounded on the way
                    _ => quote_spanned!(span=> __silt::__private::f16_from_f64((#v) as f64)),
                }
            }
            ExprKind::Cast(x) if x.ty == Ty::F16 => {
                let v = self.expr(x);
                if e.ty == Ty::F64 {
                    quote_spanned!(span=> (#v).to_f64())
                } else {
                    let t = ty(e.ty);
                    quote_spanned!(span=> ((#v).to_f32() as #t))
                }
            }
            ExprKind::Cast(x) => {
                let v = self.expr(x);
                let t = ty(e.ty);
                if x.ty == Ty::Bool && e.ty.is_float() {
                    quote_spanned!(span=> ((#v) as u8 as #t))
                } else {
                    quote_spanned!(span=> ((#v) as #t))
                }
            }
            ExprKind::Call(Builtin::ToBits, args) if args[0].ty == Ty::F16 => {
                let v = self.expr(&args[0]);
                quote_spanned!(span=> (#v).to_bits())
            }
            ExprKind::Call(b, args) => {
                // f16: computed in f32, then rounded
                let vs: Vec<TokenStream> = args.iter().map(|a| widen(a.ty, self.expr(a))).collect();
                let v = match b {
                    Builtin::Acosh | Builtin::Asinh => {
                        inverse_hyperbolic(*b, e.ty.compute(), &vs[0], span)
                    }
                    _ => builtin(*b, &vs, krate, span),
                };
                // (exact for the builtins that need no rounding on the device)
                if e.ty == Ty::F16 {
                    narrow(v, span)
                } else {
                    v
                }
            }
            ExprKind::Helper(name, args) => {
                let f = format_ident!("{}", name, span = span);
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
        t: Ty,
        rt: Ty,
        l: TokenStream,
        r: TokenStream,
        span: Span,
    ) -> TokenStream {
        use BinOp as B;
        let krate = self.krate;
        if t == Ty::F16 && !matches!(op, B::And | B::Or) {
            // computed in f32: exact for comparisons, and one rounding to f16 of
            // an f32 result is the correctly rounded f16 result of + - * / %
            let (l, r) = (widen(t, l), widen(t, r));
            let v = self.binary(op, Ty::F32, Ty::F32, l, r, span);
            return if op.is_comparison() {
                v
            } else {
                narrow(v, span)
            };
        }
        if t.is_float() || t == Ty::Bool || op.is_comparison() || matches!(op, B::And | B::Or) {
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
                let amount = if rt == Ty::U32 {
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

/// `acosh` and `asinh` of `t`: std's formulas overflow above `MAX / 2` (infinity
/// where the result is about 710) and std's `acosh` loses all accuracy just above
/// 1 (`ln` of `1 + tiny`); these take fdlibm's formulas in those ranges, like the
/// device's built-ins.
fn inverse_hyperbolic(b: Builtin, t: Ty, x: &TokenStream, span: Span) -> TokenStream {
    let tt = ty(t);
    if b == Builtin::Asinh {
        return quote_spanned!(span=> ({
            let __x: #tt = #x;
            if __x.abs() >= 268_435_456.0 {
                (__x.abs().ln() + ::core::#tt::consts::LN_2).copysign(__x)
            } else {
                __x.asinh()
            }
        }));
    }
    quote_spanned!(span=> ({
        let __x: #tt = #x;
        if __x >= 268_435_456.0 {
            __x.ln() + ::core::#tt::consts::LN_2
        } else if __x > 2.0 {
            (2.0 * __x - 1.0 / (__x + (__x * __x - 1.0).sqrt())).ln()
        } else if __x >= 1.0 {
            let __u = __x - 1.0;
            (__u + (2.0 * __u + __u * __u).sqrt()).ln_1p()
        } else {
            __x.acosh()
        }
    }))
}

fn builtin(b: Builtin, a: &[TokenStream], krate: &TokenStream, span: Span) -> TokenStream {
    use Builtin as B;
    let x = &a[0];
    let rest = &a[1..];
    if let Form::Call(name) = b.def().rust {
        let m = syn::Ident::new(name, span);
        return quote_spanned!(span=> (#x).#m(#(#rest),*));
    }
    match b {
        B::Erf => quote_spanned!(span=> #krate::__private::FloatOps::erf(#x)),
        B::Erfc => quote_spanned!(span=> #krate::__private::FloatOps::erfc(#x)),
        B::FMin => quote_spanned!(span=> #krate::__private::fmin(#x, #(#rest),*)),
        B::FMax => quote_spanned!(span=> #krate::__private::fmax(#x, #(#rest),*)),
        B::FClamp | B::IClamp => quote_spanned!(span=> #krate::__private::clamp(#x, #(#rest),*)),
        B::WrappingDiv => quote_spanned!(span=> #krate::__private::int_div(#x, #(#rest),*)),
        B::WrappingRem => quote_spanned!(span=> #krate::__private::int_rem(#x, #(#rest),*)),
        B::IMin => quote_spanned!(span=> ::core::cmp::Ord::min(#x, #(#rest),*)),
        B::IMax => quote_spanned!(span=> ::core::cmp::Ord::max(#x, #(#rest),*)),
        // asinh and acosh are written by `inverse_hyperbolic`; every other
        // builtin has a `Call` form in the table
        _ => {
            let m = syn::Ident::new(b.def().name, span);
            quote_spanned!(span=> (#x).#m(#(#rest),*))
        }
    }
}

/// A literal of type `t`.
fn literal(t: Ty, v: Value, span: Span) -> TokenStream {
    let tt = ty(t);
    match v {
        Value::Bool(b) => {
            if b {
                quote_spanned!(span=> true)
            } else {
                quote_spanned!(span=> false)
            }
        }
        Value::Int(i) => {
            let min = match t {
                Ty::I8 => i128::from(i8::MIN),
                Ty::I16 => i128::from(i16::MIN),
                Ty::I32 => i128::from(i32::MIN),
                Ty::I64 => i128::from(i64::MIN),
                _ => 0,
            };
            if t.is_signed_int() && i == min {
                quote_spanned!(span=> #tt::MIN)
            } else {
                let text = format!("{}{}", i.unsigned_abs(), t.name());
                let lit: TokenStream = text.parse().unwrap_or_default();
                if i < 0 {
                    quote_spanned!(span=> (-#lit))
                } else {
                    lit
                }
            }
        }
        Value::F32(x) => float(
            f64::from(x),
            x.is_nan(),
            format!("{:?}", x.abs()),
            &tt,
            span,
        ),
        Value::F64(x) => float(x, x.is_nan(), format!("{:?}", x.abs()), &tt, span),
    }
}

fn float(x: f64, nan: bool, abs_repr: String, tt: &TokenStream, span: Span) -> TokenStream {
    if nan {
        return quote_spanned!(span=> #tt::NAN);
    }
    let mag = if x.is_infinite() {
        quote_spanned!(span=> #tt::INFINITY)
    } else {
        let text = format!("{abs_repr}_{tt}");
        let lit: TokenStream = text.parse().unwrap_or_default();
        lit
    };
    if x.is_sign_negative() {
        quote_spanned!(span=> (-#mag))
    } else {
        mag
    }
}

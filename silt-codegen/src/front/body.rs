//! Lowers a function body from `syn` into the syntax tree, rejecting what the
//! kernel language does not support with spanned errors that say what to use.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::paths::{helper_path, path_key};
use super::syntax::{BinOp, Block, Expr, ExprKind, Lit, Stmt, TyRef, UnOp};
use super::types::ty_ref;
use crate::errors::Errors;
use silt_abi::DType;

/// Lowers a function body.
pub fn block(b: &syn::Block, generic: Option<&syn::Ident>, errors: &mut Errors) -> Block {
    Lower {
        generic,
        errors,
        matches: 0,
        loop_ids: 0,
        loops: Vec::new(),
    }
    .block(b)
}

pub(super) struct Lower<'a> {
    generic: Option<&'a syn::Ident>,
    pub(super) errors: &'a mut Errors,
    /// How many `match`es and tuple `let`s so far (names their temporaries).
    pub(super) matches: usize,
    /// How many loops so far (names their flags and temporaries; apart from
    /// `matches`, so that a loop changes no other temporary's name).
    pub(super) loop_ids: usize,
    /// The loops around the expression being lowered, innermost last.
    pub(super) loops: Vec<LoopFrame>,
}

/// A loop being lowered (see `loops`).
pub(super) struct LoopFrame {
    /// Names its flags (and a `loop`'s value).
    pub(super) id: usize,
    /// Its label, without the `'`.
    pub(super) label: Option<String>,
    /// A `loop`'s value (`None` for `while` and `for`).
    pub(super) value: Option<LoopValue>,
    /// The outer loops (by `id`) that labelled exits from inside leave this
    /// one for.
    pub(super) leaves: Vec<usize>,
    /// Whether a nested loop breaks out of this one by its label.
    pub(super) breaks_in: bool,
    /// Whether a nested loop continues this one by its label.
    pub(super) continues_in: bool,
}

/// A `loop`'s value (see `loops`): the temporary its breaks assign, whether
/// one did, and where a `break` without a value is.
pub(super) struct LoopValue {
    pub(super) var: syn::Ident,
    pub(super) valued: bool,
    pub(super) plain: Option<Span>,
}

const METHOD_HINT: &str =
    "the supported methods (sqrt, exp, min, max, abs, ...) are listed in the `kernel` docs";

impl Lower<'_> {
    pub(super) fn block(&mut self, b: &syn::Block) -> Block {
        let mut stmts = Vec::new();
        let mut tail = None;
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            match s {
                syn::Stmt::Local(l) => match &l.pat {
                    syn::Pat::Tuple(t) => {
                        let init = l.init.as_ref().map(|i| &*i.expr);
                        stmts.extend(self.let_tuple(t, init));
                    }
                    _ => {
                        if let Some(s) = self.local(l) {
                            stmts.push(s);
                        }
                    }
                },
                // a stray `;` (Rust allows it)
                syn::Stmt::Expr(syn::Expr::Verbatim(v), Some(_)) if v.is_empty() => {}
                syn::Stmt::Expr(e, semi) => {
                    let e = self.expr(e);
                    if semi.is_none() && i + 1 == n {
                        tail = Some(Box::new(e));
                    } else {
                        stmts.push(Stmt::Expr(e));
                    }
                }
                syn::Stmt::Item(item) => self.errors.push(
                    item.span(),
                    "items (fn, struct, use, ...) are not supported inside a kernel body",
                ),
                syn::Stmt::Macro(m) => self.errors.push(
                    m.mac.path.span(),
                    "macros are not supported in kernel bodies: the OpenCL C is generated from the body itself",
                ),
            }
        }
        Block {
            stmts,
            tail,
            span: b.brace_token.span.join(),
        }
    }

    fn local(&mut self, l: &syn::Local) -> Option<Stmt> {
        let (pat, ty) = match &l.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        let (name, mutable) = match pat {
            // `let _ = e;` evaluates `e` and drops it
            syn::Pat::Wild(_) if l.init.is_some() => {
                return l.init.as_ref().map(|i| Stmt::Expr(self.expr(&i.expr)));
            }
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                (pi.ident.clone(), pi.mutability.is_some())
            }
            other => {
                self.errors.push(
                    other.span(),
                    "only `let name`, `let mut name` and `let (a, b) = (x, y)` are supported",
                );
                return None;
            }
        };
        let ty = ty.and_then(|t| ty_ref(t, self.generic, self.errors).map(|r| (r, t.span())));
        if let Some(init) = &l.init {
            if let Some((_, d)) = &init.diverge {
                self.errors
                    .push(d.span(), "`let ... else` is not supported");
            }
        }
        Some(Stmt::Let {
            name,
            mutable,
            ty,
            init: l.init.as_ref().map(|i| self.expr(&i.expr)),
        })
    }

    fn unsupported(&mut self, e: &syn::Expr, what: &str) -> Expr {
        self.errors.push(e.span(), what);
        Expr {
            kind: ExprKind::Lit(Lit::Int(0, None)),
            span: e.span(),
        }
    }

    pub(super) fn expr(&mut self, e: &syn::Expr) -> Expr {
        let span = e.span();
        let kind = match e {
            syn::Expr::Lit(l) => match self.lit(&l.lit) {
                Some(l) => ExprKind::Lit(l),
                None => return self.unsupported(e, "unsupported literal; expected a number or `true`/`false`"),
            },
            syn::Expr::Path(p) => return self.path(p),
            syn::Expr::Paren(p) => return self.expr(&p.expr),
            syn::Expr::Group(g) => return self.expr(&g.expr),
            syn::Expr::Unary(u) => {
                let inner = self.expr(&u.expr);
                match u.op {
                    syn::UnOp::Neg(_) => match inner.kind {
                        // fold `-literal` so that `-128i8` and `-0.0` are one literal
                        ExprKind::Lit(Lit::Int(v, s)) => ExprKind::Lit(Lit::Int(-v, s)),
                        ExprKind::Lit(Lit::Float(t, s)) => ExprKind::Lit(Lit::Float(negate(&t), s)),
                        _ => ExprKind::Unary(UnOp::Neg, Box::new(inner)),
                    },
                    syn::UnOp::Not(_) => ExprKind::Unary(UnOp::Not, Box::new(inner)),
                    syn::UnOp::Deref(_) => match inner.kind {
                        ExprKind::Var(id) => ExprKind::Deref(id),
                        _ => return self.unsupported(e, "`*` is only supported on a `&mut` parameter"),
                    },
                    _ => return self.unsupported(e, "unsupported unary operator"),
                }
            }
            syn::Expr::Binary(b) => {
                let (l, r) = (self.expr(&b.left), self.expr(&b.right));
                let (op, assign) = match binop(&b.op) {
                    Some(x) => x,
                    None => return self.unsupported(e, "unsupported operator"),
                };
                if assign {
                    ExprKind::Assign(Box::new(l), Some(op), Box::new(r))
                } else {
                    ExprKind::Binary(op, Box::new(l), Box::new(r))
                }
            }
            syn::Expr::Assign(a) if matches!(&*a.left, syn::Expr::Tuple(_) | syn::Expr::Infer(_)) => self.assign_tuple(a),
            syn::Expr::Assign(a) => {
                ExprKind::Assign(Box::new(self.expr(&a.left)), None, Box::new(self.expr(&a.right)))
            }
            syn::Expr::Cast(c) => {
                let inner = self.expr(&c.expr);
                match ty_ref(&c.ty, self.generic, self.errors) {
                    Some(t) => ExprKind::Cast(Box::new(inner), t),
                    None => return inner,
                }
            }
            syn::Expr::MethodCall(m) => {
                if let Some(t) = &m.turbofish {
                    self.errors.push(t.span(), "turbofish is not supported on kernel methods");
                }
                let base = match &*m.receiver {
                    syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
                    _ => None,
                };
                let first = m.args.first();
                match (base, first) {
                    (Some(a), Some(syn::Expr::Array(ix))) if m.method.to_string().starts_with("atomic_") => {
                        let ix = ix.elems.iter().map(|i| self.expr(i)).collect();
                        let ops = m.args.iter().skip(1).map(|a| self.expr(a)).collect();
                        ExprKind::Atomic(a, m.method.clone(), ix, ops)
                    }
                    _ => {
                        let recv = self.expr(&m.receiver);
                        let args = m.args.iter().map(|a| self.expr(a)).collect();
                        ExprKind::Method(Box::new(recv), m.method.clone(), args)
                    }
                }
            }
            syn::Expr::If(i) => {
                let cond = self.expr(&i.cond);
                let then = self.block(&i.then_branch);
                let els = i.else_branch.as_ref().map(|(_, e)| Box::new(self.expr(e)));
                ExprKind::If(Box::new(cond), then, els)
            }
            syn::Expr::While(w) => {
                let cond = self.expr(&w.cond);
                self.enter_loop(w.label.as_ref(), false, span);
                let body = self.block(&w.body);
                self.leave_loop(ExprKind::While(Box::new(cond), body), span)
            }
            syn::Expr::ForLoop(f) => {
                let var = match &*f.pat {
                    syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() && pi.mutability.is_none() => {
                        pi.ident.clone()
                    }
                    // `for _ in`: a name the body cannot refer to
                    syn::Pat::Wild(w) => syn::Ident::new("__silt_unused", w.underscore_token.span),
                    other => {
                        self.errors.push(other.span(), "a `for` loop binds one name: `for i in a..b` or `for _ in a..b`");
                        return self.unsupported_quiet(span);
                    }
                };
                let syn::Expr::Range(r) = &*f.expr else {
                    return self.unsupported(&f.expr, "`for` loops run over a range `a..b` or `a..=b`");
                };
                let (Some(start), Some(end)) = (&r.start, &r.end) else {
                    return self.unsupported(&f.expr, "a `for` range needs both ends: `a..b`");
                };
                let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
                let (start, end) = (self.expr(start), self.expr(end));
                self.enter_loop(f.label.as_ref(), false, span);
                let body = self.block(&f.body);
                self.leave_loop(ExprKind::For(var, Box::new(start), Box::new(end), inclusive, body), span)
            }
            syn::Expr::Loop(l) => {
                self.enter_loop(l.label.as_ref(), true, span);
                let body = self.block(&l.body);
                self.leave_loop(ExprKind::Loop(body), span)
            }
            syn::Expr::Break(b) => self.exit_expr(b.label.as_ref(), b.expr.as_deref(), true, span),
            syn::Expr::Continue(c) => self.exit_expr(c.label.as_ref(), None, false, span),
            syn::Expr::Return(r) => ExprKind::Return(r.expr.as_ref().map(|v| Box::new(self.expr(v)))),
            syn::Expr::Block(b) => {
                if let Some(l) = &b.label {
                    self.errors.push(l.span(), "block labels are not supported");
                }
                ExprKind::Block(self.block(&b.block))
            }
            syn::Expr::Tuple(t) => ExprKind::Tuple(t.elems.iter().map(|x| self.expr(x)).collect()),
            syn::Expr::Closure(_) => {
                return self.unsupported(
                    e,
                    "closures are not supported in kernel bodies; write a `#[helper]` function and call it",
                )
            }
            syn::Expr::Array(_) | syn::Expr::Repeat(_) => {
                return self.unsupported(
                    e,
                    "array literals are not supported in kernel bodies; hold the values in `let`s (a `#[grid]` kernel has `private![T; N]` arrays)",
                )
            }
            syn::Expr::Unsafe(_) => {
                return self.unsupported(e, "`unsafe` is not supported in kernel bodies: silt checks everything it accepts")
            }
            syn::Expr::Macro(m) if m.mac.path.is_ident("local") || m.mac.path.is_ident("private") => match self.local_array(&m.mac) {
                Some(kind) => kind,
                None => return self.unsupported_quiet(span),
            },
            syn::Expr::Macro(_) => {
                return self.unsupported(
                    e,
                    "macros are not supported in kernel bodies: the OpenCL C is generated from the body itself",
                )
            }
            syn::Expr::Reference(_) => {
                return self.unsupported(e, "references are not supported in kernel bodies; only `&mut T` parameters")
            }
            syn::Expr::Call(c)
                if helper_path(&c.func).is_some_and(|p| {
                    // `T::sqrt(x)` is a method call in disguise, not a helper
                    !(p.segments.len() > 1 && self.generic.is_some_and(|g| p.segments[0].ident == *g))
                }) =>
            {
                let path = helper_path(&c.func).cloned().unwrap_or_else(|| syn::Path::from(syn::Ident::new("_", span)));
                let key = path_key(&path);
                let args = c.args.iter().map(|a| self.expr(a)).collect();
                ExprKind::Call(key, path, args)
            }
            syn::Expr::Call(c) => {
                let method = match &*c.func {
                    syn::Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                    _ => None,
                };
                let known = |m: &str| {
                    crate::builtins::TABLE.iter().any(|d| d.name == m)
                };
                let msg = match method {
                    Some(m) if !c.args.is_empty() && known(&m) => format!(
                        "function calls are not supported in kernel bodies; call it as a method: `x.{m}(..)`; {METHOD_HINT}"
                    ),
                    _ => format!("function calls are not supported in kernel bodies; {METHOD_HINT}"),
                };
                return self.unsupported(e, &msg);
            }
            syn::Expr::Match(m) => self.match_expr(m),
            syn::Expr::Index(ix) => {
                let base = match &*ix.expr {
                    syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
                    _ => None,
                };
                match (base, &*ix.index) {
                    (Some(view), syn::Expr::Array(a)) => {
                        ExprKind::Index(view, a.elems.iter().map(|i| self.expr(i)).collect())
                    }
                    _ => {
                        self.errors.push(
                            ix.bracket_token.span.join(),
                            "indexing is not supported: a kernel sees one element of each tensor (a `#[grid]` kernel indexes its views with one index per dimension: `a[[i, j]]`)",
                        );
                        return self.unsupported_quiet(span);
                    }
                }
            }
            syn::Expr::Field(f) => {
                let base = match &*f.base {
                    syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
                    _ => None,
                };
                match (base, &f.member) {
                    (Some(id), syn::Member::Unnamed(i)) => ExprKind::Field(id, i.index as usize),
                    _ => {
                        return self.unsupported(
                            e,
                            "field access is only supported on a tuple parameter of a reduction's function: `a.0`",
                        )
                    }
                }
            }
            syn::Expr::Range(_) => return self.unsupported(e, "ranges are only supported in `for i in a..b`"),
            syn::Expr::Let(_) => return self.unsupported(e, "`if let` / `while let` are not supported"),
            _ => return self.unsupported(e, "unsupported syntax in a kernel body"),
        };
        Expr { kind, span }
    }

    /// `local![T; 16, 16]` or `private![T; 8]`: the element type, then each
    /// size as an integer literal.
    fn local_array(&mut self, mac: &syn::Macro) -> Option<ExprKind> {
        let private = mac.path.is_ident("private");
        let expected = if private {
            "a work-item's array is `private![T; 8]`: its element type, then its sizes as integer literals (its size is fixed when the kernel is compiled)"
        } else {
            "a work-group array is `local![T; 16, 16]`: its element type, then its sizes as integer literals (its size is fixed when the kernel is compiled)"
        };
        let parser = |input: syn::parse::ParseStream<'_>| {
            let t: syn::Type = input.parse()?;
            input.parse::<syn::Token![;]>()?;
            let dims =
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated(input)?;
            Ok((t, dims))
        };
        let (t, dims) = match syn::parse::Parser::parse2(parser, mac.tokens.clone()) {
            Ok(v) => v,
            Err(e) => {
                self.errors.push(e.span(), expected);
                return None;
            }
        };
        let ty = super::types::ty_ref(&t, self.generic, self.errors)?;
        let mut sizes = Vec::new();
        for d in &dims {
            // a size from a `macro_rules!` fragment comes in an invisible group
            let mut d = d;
            while let syn::Expr::Group(g) = d {
                d = &g.expr;
            }
            let n = match d {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) => i.base10_parse::<u64>().ok().filter(|&n| n >= 1),
                _ => None,
            };
            match n {
                Some(n) => sizes.push(n),
                None => {
                    self.errors.push(syn::spanned::Spanned::span(d), expected);
                    return None;
                }
            }
        }
        if sizes.is_empty() || sizes.len() > silt_abi::MAX_DIMS {
            self.errors
                .push(syn::spanned::Spanned::span(&mac.tokens), expected);
            return None;
        }
        Some(ExprKind::LocalArray(ty, sizes, private))
    }

    fn unsupported_quiet(&mut self, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Lit(Lit::Int(0, None)),
            span,
        }
    }

    fn lit(&mut self, l: &syn::Lit) -> Option<Lit> {
        match l {
            syn::Lit::Bool(b) => Some(Lit::Bool(b.value)),
            syn::Lit::Int(i) => {
                let suffix = self.suffix(i.suffix(), l.span())?;
                if suffix.is_some_and(|t| t.is_float()) {
                    // `1f32` is a float literal in Rust
                    return Some(Lit::Float(i.base10_digits().to_string(), suffix));
                }
                match i.base10_parse::<i128>() {
                    Ok(v) => Some(Lit::Int(v, suffix)),
                    Err(_) => {
                        self.errors.push(l.span(), "integer literal too large");
                        None
                    }
                }
            }
            syn::Lit::Float(f) => {
                let suffix = self.suffix(f.suffix(), l.span())?;
                if suffix.is_some_and(|t| !t.is_float()) {
                    self.errors
                        .push(l.span(), "a float literal cannot have an integer suffix");
                    return None;
                }
                Some(Lit::Float(f.base10_digits().to_string(), suffix))
            }
            _ => None,
        }
    }

    fn suffix(&mut self, s: &str, span: Span) -> Option<Option<DType>> {
        if s.is_empty() {
            return Some(None);
        }
        match DType::from_name(s) {
            Some(t) if t != DType::Bool => Some(Some(t)),
            _ => {
                self.errors
                    .push(span, format!("unsupported literal suffix `{s}`"));
                None
            }
        }
    }

    fn path(&mut self, p: &syn::ExprPath) -> Expr {
        let span = p.span();
        if p.qself.is_some() {
            return self.unsupported(
                &syn::Expr::Path(p.clone()),
                "qualified paths are not supported",
            );
        }
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        if p.path.segments.iter().any(|s| !s.arguments.is_none()) {
            return self.unsupported(
                &syn::Expr::Path(p.clone()),
                "generic arguments are not supported here",
            );
        }
        if let [one] = segs.as_slice() {
            let id = &p.path.segments[0].ident;
            if one == "INFINITY" || one == "NAN" || one == "NEG_INFINITY" {
                self.errors.push(
                    span,
                    format!(
                        "write `{}::{one}` (with the type) for this constant",
                        self.generic.map_or("f32".into(), |g| g.to_string())
                    ),
                );
            }
            return Expr {
                kind: ExprKind::Var(id.clone()),
                span,
            };
        }
        let seg_refs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let (ty_name, name) = match seg_refs.as_slice() {
            [ty, name] => (*ty, *name),
            ["core" | "std", ty @ ("f32" | "f64"), "consts", name] => (*ty, *name),
            [ty @ ("f32" | "f64"), "consts", name] => (*ty, *name),
            _ => {
                return self.unsupported(
                    &syn::Expr::Path(p.clone()),
                    "unsupported path; expected a variable, `T::MAX`-style constant or `core::f64::consts::PI`",
                )
            }
        };
        let ty = if self.generic.is_some_and(|g| g == ty_name) {
            TyRef::Generic
        } else if let Some(t) = DType::from_name(ty_name) {
            TyRef::Elem(t)
        } else {
            return self.unsupported(
                &syn::Expr::Path(p.clone()),
                "unsupported path; expected a variable, `T::MAX`-style constant or `core::f64::consts::PI`",
            );
        };
        Expr {
            kind: ExprKind::Const(ty, name.to_string()),
            span,
        }
    }
}

fn negate(digits: &str) -> String {
    match digits.strip_prefix('-') {
        Some(rest) => rest.to_string(),
        None => format!("-{digits}"),
    }
}

fn binop(op: &syn::BinOp) -> Option<(BinOp, bool)> {
    use syn::BinOp as S;
    Some(match op {
        S::Add(_) => (BinOp::Add, false),
        S::Sub(_) => (BinOp::Sub, false),
        S::Mul(_) => (BinOp::Mul, false),
        S::Div(_) => (BinOp::Div, false),
        S::Rem(_) => (BinOp::Rem, false),
        S::And(_) => (BinOp::And, false),
        S::Or(_) => (BinOp::Or, false),
        S::BitXor(_) => (BinOp::BitXor, false),
        S::BitAnd(_) => (BinOp::BitAnd, false),
        S::BitOr(_) => (BinOp::BitOr, false),
        S::Shl(_) => (BinOp::Shl, false),
        S::Shr(_) => (BinOp::Shr, false),
        S::Eq(_) => (BinOp::Eq, false),
        S::Lt(_) => (BinOp::Lt, false),
        S::Le(_) => (BinOp::Le, false),
        S::Ne(_) => (BinOp::Ne, false),
        S::Ge(_) => (BinOp::Ge, false),
        S::Gt(_) => (BinOp::Gt, false),
        S::AddAssign(_) => (BinOp::Add, true),
        S::SubAssign(_) => (BinOp::Sub, true),
        S::MulAssign(_) => (BinOp::Mul, true),
        S::DivAssign(_) => (BinOp::Div, true),
        S::RemAssign(_) => (BinOp::Rem, true),
        S::BitXorAssign(_) => (BinOp::BitXor, true),
        S::BitAndAssign(_) => (BinOp::BitAnd, true),
        S::BitOrAssign(_) => (BinOp::BitOr, true),
        S::ShlAssign(_) => (BinOp::Shl, true),
        S::ShrAssign(_) => (BinOp::Shr, true),
        _ => return None,
    })
}

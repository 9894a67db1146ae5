//! The kernel as written, lowered from `syn` into silt's own spanned AST.
//!
//! Only the supported subset has a node here; everything else is reported as a
//! spanned error saying what to use instead. No types are decided yet.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::errors::Errors;
use crate::ty::Ty;

/// A type as written in the kernel: the generic parameter or an element type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TyRef {
    /// The kernel's generic parameter (`T`).
    Generic,
    /// A fixed element type.
    Elem(Ty),
}

/// How a parameter is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `x: T`: one element of an input tensor.
    Input,
    /// `y: &mut T`: one element of a tensor read and written in place.
    InOut,
    /// `#[scalar] a: T`: one value for all elements.
    Scalar,
    /// `#[index] i: u64`: the element's logical (row-major) index; not an argument
    /// of `launch`.
    Index,
}

/// A kernel parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// The name as written.
    pub name: syn::Ident,
    /// `mut x: T` (a by-value parameter the body reassigns).
    pub mutable: bool,
    /// How it is passed.
    pub kind: ParamKind,
    /// Its element type.
    pub ty: TyRef,
    /// The span of its type.
    pub ty_span: Span,
}

/// The kernel's signature.
#[derive(Debug, Clone)]
pub struct Signature {
    /// The function's name.
    pub name: syn::Ident,
    /// Its visibility, given to the generated module.
    pub vis: syn::Visibility,
    /// The generic parameter's name, if any.
    pub generic: Option<syn::Ident>,
    /// The parameters.
    pub params: Vec<Param>,
    /// The returned element types (empty: nothing returned).
    pub outputs: Vec<(TyRef, Span)>,
    /// The doc comments and other outer attributes to keep on the module.
    pub docs: Vec<syn::Attribute>,
    /// Whether every parameter and output could be read (checks that need the
    /// whole signature are skipped otherwise, so one mistake reports once).
    pub complete: bool,
}

/// A literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    /// An integer, with its suffix type if any.
    Int(i128, Option<Ty>),
    /// A float as written (digits), with its suffix type if any.
    Float(String, Option<Ty>),
    /// `true` / `false`.
    Bool(bool),
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`.
    Neg,
    /// `!x`.
    Not,
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Whether the result is `bool` whatever the operands.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// A block: statements and an optional tail expression (its value).
#[derive(Debug, Clone)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// The value of the block, if it ends in an expression without `;`.
    pub tail: Option<Box<Expr>>,
    /// The span of the braces.
    pub span: Span,
}

/// A statement.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// `let [mut] name[: ty] [= init];`
    Let {
        /// The bound name.
        name: syn::Ident,
        /// `let mut`.
        mutable: bool,
        /// The annotation.
        ty: Option<(TyRef, Span)>,
        /// The initialiser.
        init: Option<Expr>,
    },
    /// An expression followed by `;` (or a block-like expression).
    Expr(Expr),
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The kinds of expression in the supported subset.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A literal.
    Lit(Lit),
    /// A local variable or parameter.
    Var(syn::Ident),
    /// An associated constant: `T::MAX`, `f32::INFINITY`, `core::f64::consts::PI`.
    Const(TyRef, String),
    /// `*p` for a `&mut` parameter.
    Deref(syn::Ident),
    /// `-x`, `!x`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `place = value`, `place op= value`.
    Assign(Box<Expr>, Option<BinOp>, Box<Expr>),
    /// `x as ty`.
    Cast(Box<Expr>, TyRef),
    /// `receiver.method(args)`.
    Method(Box<Expr>, syn::Ident, Vec<Expr>),
    /// `if cond { .. } else ..`.
    If(Box<Expr>, Block, Option<Box<Expr>>),
    /// `while cond { .. }`.
    While(Box<Expr>, Block),
    /// `for var in start..end { .. }` (`..=` when inclusive).
    For(syn::Ident, Box<Expr>, Box<Expr>, bool, Block),
    /// `loop { .. }`.
    Loop(Block),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `return [value]`.
    Return(Option<Box<Expr>>),
    /// `{ .. }`.
    Block(Block),
    /// `(a, b)`: only as the returned value of a kernel with several outputs.
    Tuple(Vec<Expr>),
    /// `helper(args)`: a call of a `#[helper]` function (keyed by its path as written).
    Call(String, syn::Path, Vec<Expr>),
}

/// The path of a call that may name a `#[helper]`: a plain path that is not an
/// associated function of an element type (`f32::sqrt(x)` is not a helper).
pub fn helper_path(func: &syn::Expr) -> Option<&syn::Path> {
    let syn::Expr::Path(p) = func else {
        return None;
    };
    if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let first = p.path.segments.first()?.ident.to_string();
    if p.path.segments.len() > 1 && (Ty::from_name(&first).is_some() || first == "Self") {
        return None;
    }
    // `self`, `super` and `crate` only lead a path to a function, and `Self` names
    // none (a helper is re-exported by its path: `use super::Self` is no Rust)
    let segs = &p.path.segments;
    let last = segs.len() - 1;
    let lead = p.path.leading_colon.is_none();
    for (n, s) in segs.iter().enumerate() {
        let id = &s.ident;
        let ok = if id == "Self" {
            false
        } else if id == "self" || id == "crate" {
            lead && n == 0 && n < last
        } else if id == "super" {
            lead && n < last
                && segs
                    .iter()
                    .take(n)
                    .all(|x| x.ident == "self" || x.ident == "super")
        } else {
            true
        };
        if !ok {
            return None;
        }
    }
    Some(&p.path)
}

/// A path as text (`util::sq`), to match calls with helper definitions.
pub fn path_key(p: &syn::Path) -> String {
    let segs: Vec<String> = p
        .segments
        .iter()
        .map(|s| crate::typeck::ident_name(&s.ident))
        .collect();
    let lead = if p.leading_colon.is_some() { "::" } else { "" };
    format!("{lead}{}", segs.join("::"))
}

/// Every helper call path in a block (and nested expressions), in order of first
/// appearance, without repeats.
pub fn helper_calls(b: &Block, out: &mut Vec<(String, syn::Path)>) {
    for s in &b.stmts {
        match s {
            Stmt::Let { init: Some(e), .. } | Stmt::Expr(e) => expr_calls(e, out),
            Stmt::Let { init: None, .. } => {}
        }
    }
    if let Some(t) = &b.tail {
        expr_calls(t, out);
    }
}

fn expr_calls(e: &Expr, out: &mut Vec<(String, syn::Path)>) {
    match &e.kind {
        ExprKind::Call(key, path, args) => {
            if !out.iter().any(|(k, _)| k == key) {
                out.push((key.clone(), path.clone()));
            }
            args.iter().for_each(|a| expr_calls(a, out));
        }
        ExprKind::Unary(_, x) | ExprKind::Cast(x, _) => expr_calls(x, out),
        ExprKind::Binary(_, l, r) | ExprKind::Assign(l, _, r) => {
            expr_calls(l, out);
            expr_calls(r, out);
        }
        ExprKind::Method(r, _, args) => {
            expr_calls(r, out);
            args.iter().for_each(|a| expr_calls(a, out));
        }
        ExprKind::If(c, t, f) => {
            expr_calls(c, out);
            helper_calls(t, out);
            if let Some(f) = f {
                expr_calls(f, out);
            }
        }
        ExprKind::While(c, b) => {
            expr_calls(c, out);
            helper_calls(b, out);
        }
        ExprKind::For(_, a, z, _, b) => {
            expr_calls(a, out);
            expr_calls(z, out);
            helper_calls(b, out);
        }
        ExprKind::Loop(b) | ExprKind::Block(b) => helper_calls(b, out),
        ExprKind::Return(Some(x)) => expr_calls(x, out),
        ExprKind::Tuple(xs) => xs.iter().for_each(|x| expr_calls(x, out)),
        _ => {}
    }
}

/// Reads an element type or the generic parameter from a type.
pub fn ty_ref(ty: &syn::Type, generic: Option<&syn::Ident>, errors: &mut Errors) -> Option<TyRef> {
    let ty = ungroup(ty);
    if let syn::Type::Path(p) = ty {
        if p.qself.is_none() {
            if let Some(id) = p.path.get_ident() {
                if generic.is_some_and(|g| id == g) {
                    return Some(TyRef::Generic);
                }
                if let Some(t) = Ty::from_name(&id.to_string()) {
                    return Some(TyRef::Elem(t));
                }
            }
        }
    }
    let hint = match generic {
        Some(g) => format!("`{g}` or an element type"),
        None => "an element type".to_string(),
    };
    errors.push(
        ty.span(),
        format!(
            "unsupported type in a kernel; expected {hint} ({})",
            crate::attr::supported_types()
        ),
    );
    None
}

/// The type inside invisible groups (from `macro_rules!` `$t:ty`) and parentheses.
pub fn ungroup(mut ty: &syn::Type) -> &syn::Type {
    loop {
        match ty {
            syn::Type::Group(g) => ty = &g.elem,
            syn::Type::Paren(p) => ty = &p.elem,
            other => return other,
        }
    }
}

/// Lowers the signature. Problems go to `errors`; what could be read is returned.
pub fn signature(f: &syn::ItemFn, errors: &mut Errors) -> Option<Signature> {
    let before = errors.len();
    let sig = &f.sig;
    if let Some(t) = &sig.constness {
        errors.push(t.span(), "a kernel cannot be `const`");
    }
    if let Some(t) = &sig.asyncness {
        errors.push(t.span(), "a kernel cannot be `async`");
    }
    if let Some(t) = &sig.unsafety {
        errors.push(
            t.span(),
            "a kernel cannot be `unsafe`: silt checks everything it accepts",
        );
    }
    if let Some(t) = &sig.abi {
        errors.push(t.span(), "a kernel cannot have an ABI");
    }
    if let Some(t) = &sig.variadic {
        errors.push(t.span(), "a kernel cannot be variadic");
    }
    if let Some(w) = &sig.generics.where_clause {
        errors.push(w.span(), "`where` clauses are not supported: the generic parameter stands for each type in `types`");
    }
    let mut generic = None;
    for gp in &sig.generics.params {
        match gp {
            syn::GenericParam::Type(tp) => {
                if generic.is_some() {
                    errors.push(
                        tp.ident.span(),
                        "a kernel takes at most one generic type parameter",
                    );
                } else if let Some(b) = tp.bounds.first() {
                    errors.push(
                        b.span(),
                        "generic bounds are not supported: the generic parameter stands for each type in `types`",
                    );
                    generic = Some(tp.ident.clone());
                } else if let Some(d) = &tp.default {
                    errors.push(d.span(), "generic defaults are not supported");
                } else {
                    generic = Some(tp.ident.clone());
                }
            }
            other => errors.push(
                other.span(),
                "only one generic type parameter is supported (no lifetimes or const generics)",
            ),
        }
    }
    let mut params = Vec::new();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(r) => errors.push(r.span(), "a kernel cannot take `self`"),
            syn::FnArg::Typed(pt) => {
                if let Some(p) = param(pt, generic.as_ref(), errors) {
                    params.push(p);
                }
            }
        }
    }
    let outputs = match &sig.output {
        syn::ReturnType::Default => Vec::new(),
        syn::ReturnType::Type(_, ty) => match &**ty {
            syn::Type::Tuple(t) => t
                .elems
                .iter()
                .filter_map(|e| ty_ref(e, generic.as_ref(), errors).map(|r| (r, e.span())))
                .collect(),
            other => ty_ref(other, generic.as_ref(), errors)
                .map(|r| vec![(r, other.span())])
                .unwrap_or_default(),
        },
    };
    let docs = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect();
    for a in &f.attrs {
        if !a.path().is_ident("doc") {
            errors.push(
                a.span(),
                "attributes other than doc comments are not supported on a kernel",
            );
        }
    }
    Some(Signature {
        name: sig.ident.clone(),
        vis: f.vis.clone(),
        generic,
        params,
        outputs,
        docs,
        complete: errors.len() == before,
    })
}

fn param(pt: &syn::PatType, generic: Option<&syn::Ident>, errors: &mut Errors) -> Option<Param> {
    let (name, mutable) = match &*pt.pat {
        syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            (pi.ident.clone(), pi.mutability.is_some())
        }
        other => {
            errors.push(other.span(), "a kernel parameter must be a plain name");
            return None;
        }
    };
    let mut scalar = false;
    let mut index = false;
    for a in &pt.attrs {
        if a.path().is_ident("scalar") && matches!(a.meta, syn::Meta::Path(_)) {
            scalar = true;
        } else if a.path().is_ident("index") && matches!(a.meta, syn::Meta::Path(_)) {
            index = true;
        } else {
            errors.push(
                a.meta.path().span(),
                "unsupported parameter attribute; expected `#[scalar]` or `#[index]`",
            );
        }
    }
    if index {
        if scalar {
            errors.push(
                pt.span(),
                "a parameter is `#[scalar]` or `#[index]`, not both",
            );
            return None;
        }
        let is_u64 = matches!(ungroup(&pt.ty), syn::Type::Path(p) if p.path.is_ident("u64"));
        if !is_u64 {
            errors.push(
                pt.ty.span(),
                "an `#[index]` parameter has type `u64`: `#[index] i: u64`",
            );
            return None;
        }
        return Some(Param {
            name,
            mutable,
            kind: ParamKind::Index,
            ty: TyRef::Elem(Ty::U64),
            ty_span: pt.ty.span(),
        });
    }
    let (kind, ty) = match &*pt.ty {
        syn::Type::Reference(r) => {
            if r.mutability.is_none() {
                errors.push(
                    r.span(),
                    "references other than `&mut T` are not supported: take `T` for an input tensor",
                );
                return None;
            }
            if let Some(l) = &r.lifetime {
                errors.push(l.span(), "lifetimes are not supported in kernel parameters");
            }
            if scalar {
                errors.push(
                    r.span(),
                    "a `#[scalar]` parameter is passed by value: drop the `&mut`",
                );
                return None;
            }
            if matches!(&*r.elem, syn::Type::Reference(_)) {
                errors.push(
                    r.span(),
                    "an in/out parameter is `&mut T` (one element, read and written in place)",
                );
                return None;
            }
            if mutable {
                errors.push(pt.pat.span(), "`mut` is not needed on a `&mut` parameter");
            }
            (ParamKind::InOut, ty_ref(&r.elem, generic, errors)?)
        }
        other => {
            let kind = if scalar {
                ParamKind::Scalar
            } else {
                ParamKind::Input
            };
            (kind, ty_ref(other, generic, errors)?)
        }
    };
    Some(Param {
        name,
        mutable,
        kind,
        ty,
        ty_span: pt.ty.span(),
    })
}

/// Lowers a function body.
pub fn block(b: &syn::Block, generic: Option<&syn::Ident>, errors: &mut Errors) -> Block {
    Lower { generic, errors }.block(b)
}

struct Lower<'a> {
    generic: Option<&'a syn::Ident>,
    errors: &'a mut Errors,
}

const METHOD_HINT: &str =
    "the supported methods (sqrt, exp, min, max, abs, ...) are listed in the `kernel` docs";

impl Lower<'_> {
    fn block(&mut self, b: &syn::Block) -> Block {
        let mut stmts = Vec::new();
        let mut tail = None;
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            match s {
                syn::Stmt::Local(l) => {
                    if let Some(s) = self.local(l) {
                        stmts.push(s);
                    }
                }
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
                    "only `let name` and `let mut name` are supported (no patterns)",
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

    fn expr(&mut self, e: &syn::Expr) -> Expr {
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
                let recv = self.expr(&m.receiver);
                let args = m.args.iter().map(|a| self.expr(a)).collect();
                ExprKind::Method(Box::new(recv), m.method.clone(), args)
            }
            syn::Expr::If(i) => {
                let cond = self.expr(&i.cond);
                let then = self.block(&i.then_branch);
                let els = i.else_branch.as_ref().map(|(_, e)| Box::new(self.expr(e)));
                ExprKind::If(Box::new(cond), then, els)
            }
            syn::Expr::While(w) => {
                if let Some(l) = &w.label {
                    self.errors.push(l.span(), "loop labels are not supported");
                }
                ExprKind::While(Box::new(self.expr(&w.cond)), self.block(&w.body))
            }
            syn::Expr::ForLoop(f) => {
                if let Some(l) = &f.label {
                    self.errors.push(l.span(), "loop labels are not supported");
                }
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
                ExprKind::For(
                    var,
                    Box::new(self.expr(start)),
                    Box::new(self.expr(end)),
                    inclusive,
                    self.block(&f.body),
                )
            }
            syn::Expr::Loop(l) => {
                if let Some(l) = &l.label {
                    self.errors.push(l.span(), "loop labels are not supported");
                }
                ExprKind::Loop(self.block(&l.body))
            }
            syn::Expr::Break(b) => {
                if let Some(l) = &b.label {
                    self.errors.push(l.span(), "loop labels are not supported");
                }
                if let Some(v) = &b.expr {
                    self.errors.push(v.span(), "`break` with a value is not supported: assign to a `let mut` before the loop");
                }
                ExprKind::Break
            }
            syn::Expr::Continue(c) => {
                if let Some(l) = &c.label {
                    self.errors.push(l.span(), "loop labels are not supported");
                }
                ExprKind::Continue
            }
            syn::Expr::Return(r) => ExprKind::Return(r.expr.as_ref().map(|v| Box::new(self.expr(v)))),
            syn::Expr::Block(b) => {
                if let Some(l) = &b.label {
                    self.errors.push(l.span(), "block labels are not supported");
                }
                ExprKind::Block(self.block(&b.block))
            }
            syn::Expr::Tuple(t) => ExprKind::Tuple(t.elems.iter().map(|x| self.expr(x)).collect()),
            syn::Expr::Closure(_) => return self.unsupported(e, "closures are not supported in kernel bodies"),
            syn::Expr::Unsafe(_) => {
                return self.unsupported(e, "`unsafe` is not supported in kernel bodies: silt checks everything it accepts")
            }
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
            syn::Expr::Match(_) => return self.unsupported(e, "`match` is not supported: use `if` / `else`"),
            syn::Expr::Index(ix) => {
                self.errors.push(
                    ix.bracket_token.span.join(),
                    "indexing is not supported: a kernel sees one element of each tensor",
                );
                return self.unsupported_quiet(span);
            }
            syn::Expr::Field(_) => return self.unsupported(e, "field access is not supported in kernel bodies"),
            syn::Expr::Range(_) => return self.unsupported(e, "ranges are only supported in `for i in a..b`"),
            syn::Expr::Let(_) => return self.unsupported(e, "`if let` / `while let` are not supported"),
            _ => return self.unsupported(e, "unsupported syntax in a kernel body"),
        };
        Expr { kind, span }
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

    fn suffix(&mut self, s: &str, span: Span) -> Option<Option<Ty>> {
        if s.is_empty() {
            return Some(None);
        }
        match Ty::from_name(s) {
            Some(t) if t != Ty::Bool => Some(Some(t)),
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
        } else if let Some(t) = Ty::from_name(ty_name) {
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

//! Names and paths: identifiers without `r#`, and the paths of helper calls.

use super::syntax::{Block, Expr, ExprKind, Stmt};
use silt_abi::DType;

/// An identifier's name without `r#`.
pub fn ident_name(i: &syn::Ident) -> String {
    syn::ext::IdentExt::unraw(i).to_string()
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
    // `std::cmp::max(a, b)` names no helper: a helper cannot live in the
    // standard library, so it gets the method hint, not rustc's "cannot find"
    let standard = matches!(first.as_str(), "std" | "core" | "alloc");
    if p.path.segments.len() > 1
        && (DType::from_name(&first).is_some() || first == "Self" || standard)
    {
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
    let segs: Vec<String> = p.segments.iter().map(|s| ident_name(&s.ident)).collect();
    let lead = if p.leading_colon.is_some() { "::" } else { "" };
    format!("{lead}{}", segs.join("::"))
}

/// Every helper call path in a block (and nested expressions), in order of first
/// appearance, without repeats.
pub fn helper_calls(b: &Block, out: &mut Vec<(String, syn::Path)>) {
    for s in &b.stmts {
        match s {
            Stmt::Let { init: Some(e), .. } | Stmt::Expr(e) | Stmt::LetCall { call: e, .. } => {
                expr_calls(e, out);
            }
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
            // `global_id(0)` and its kin are built-ins, not helpers
            let builtin = crate::ir::GridId::is_builtin(key);
            if !builtin && !out.iter().any(|(k, _)| k == key) {
                out.push((key.clone(), path.clone()));
            }
            args.iter().for_each(|a| expr_calls(a, out));
        }
        ExprKind::Index(_, ix) => ix.iter().for_each(|i| expr_calls(i, out)),
        ExprKind::Atomic(_, _, ix, ops) => ix.iter().chain(ops).for_each(|i| expr_calls(i, out)),
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

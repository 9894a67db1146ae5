//! The rules of a reduction's functions: `identity` gives the accumulator,
//! `map` turns the inputs of one element into it, `combine` joins two, and
//! `finish` turns the row's accumulator (and its count) into the outputs.
//! A missing `map` or `finish` is the identity function, which the front end
//! writes (`front::reduce::identity_map`, `identity_finish`).

use proc_macro2::Span;
use quote::format_ident;

use super::defs::HelperDef;
use super::function::{check_part, instantiate_helpers};
use crate::errors::Errors;
use crate::front::reduce::{identity_finish, identity_map, Part, ReduceModule};
use crate::front::syntax::{ParamKind, Signature, TyRef};
use crate::ir;
use silt_abi::DType;

/// The accumulator's types as written, with how messages show them.
struct Acc {
    types: Vec<TyRef>,
    text: String,
}

/// Checks the functions' signatures against each other and writes the
/// missing `map` and `finish`; reports into `errors`. `identity` and `combine`
/// must be there.
pub fn complete(m: &mut ReduceModule, errors: &mut Errors) {
    for p in [&m.identity, &m.map, &m.combine, &m.finish]
        .into_iter()
        .flatten()
    {
        check_names(&p.sig, errors);
    }
    let Some(identity) = &m.identity else {
        errors.push(
            m.name.span(),
            "a reduction needs `fn identity() -> Acc`, the value of an empty reduction: add it (for a sum, `fn identity<T>() -> T { 0 as T }`)",
        );
        if m.combine.is_none() {
            errors.push(
                m.name.span(),
                "a reduction needs `fn combine(a: Acc, b: Acc) -> Acc`, which joins two partial results: add it (for a sum, `a + b`)",
            );
        }
        return;
    };
    let sig = &identity.sig;
    if let Some(p) = sig.params.first() {
        errors.push(
            p.name.span(),
            "`identity` takes no parameter: it is the value of an empty reduction, `fn identity() -> Acc`",
        );
    }
    if sig.outputs.is_empty() {
        errors.push(
            sig.name.span(),
            "`identity` returns the accumulator: `fn identity<T>() -> T { .. }` (or a tuple, `-> (T, i64)`)",
        );
        return;
    }
    let generic = sig.generic.clone().unwrap_or_else(|| format_ident!("T"));
    let acc = Acc {
        types: sig.outputs.iter().map(|(t, _)| *t).collect(),
        text: show(
            &sig.outputs.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
            &generic.to_string(),
        ),
    };
    let at = sig.name.span();
    match &m.combine {
        None => errors.push(
            m.name.span(),
            format!(
                "a reduction needs `fn combine(a: {a}, b: {a}) -> {a}`, which joins two partial results: add it",
                a = acc.text
            ),
        ),
        Some(c) => check_combine(&c.sig, &acc, errors),
    }
    match &m.map {
        Some(p) => check_map(&p.sig, &acc, errors),
        None => match acc.types.as_slice() {
            [one] => m.map = identity_map(*one, &generic, at, errors),
            _ => errors.push(
                m.name.span(),
                format!(
                    "without `map`, a reduction folds its input itself, so its accumulator is one type, not `{}`: add `fn map(x: T) -> {}`",
                    acc.text, acc.text
                ),
            ),
        },
    }
    match &m.finish {
        Some(p) => check_finish(&p.sig, &acc, errors),
        None => m.finish = identity_finish(&acc.types, &generic, at, errors),
    }
}

/// The parameter names of one function, as kernels' are checked: each once,
/// none `__`-prefixed (the generated code's own), none `NAME` or `TYPES` (the
/// generated module's constants, which a parameter of the same name would
/// match as a pattern). A tuple parameter is checked by its name.
fn check_names(sig: &Signature, errors: &mut Errors) {
    let fields: Vec<usize> = sig
        .tuples
        .iter()
        .flat_map(|(_, f)| f.iter().copied())
        .collect();
    let names = sig
        .params
        .iter()
        .enumerate()
        .filter(|(i, _)| !fields.contains(i))
        .map(|(_, p)| &p.name)
        .chain(sig.tuples.iter().map(|(n, _)| n));
    let mut seen: Vec<String> = Vec::new();
    for id in names {
        let n = crate::front::ident_name(id);
        if seen.contains(&n) {
            errors.push(id.span(), format!("parameter `{n}` is declared twice"));
        }
        if n.starts_with("__") {
            errors.push(
                id.span(),
                "parameter names starting with `__` are reserved for generated code",
            );
        }
        if n == "NAME" || n == "TYPES" {
            errors.push(
                id.span(),
                format!(
                    "`{n}` is a constant of the generated module: give the parameter another name"
                ),
            );
        }
        seen.push(n);
    }
}

/// The parameters of `sig` grouped as written: a tuple parameter is one
/// group of its fields' types, any other parameter a group of one.
fn groups(sig: &Signature) -> Vec<(Vec<TyRef>, Span)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < sig.params.len() {
        match sig.tuples.iter().find(|(_, f)| f.first() == Some(&i)) {
            Some((name, fields)) => {
                out.push((
                    fields.iter().map(|&f| sig.params[f].ty).collect(),
                    name.span(),
                ));
                i += fields.len();
            }
            None => {
                out.push((vec![sig.params[i].ty], sig.params[i].name.span()));
                i += 1;
            }
        }
    }
    out
}

fn outputs(sig: &Signature) -> Vec<TyRef> {
    sig.outputs.iter().map(|(t, _)| *t).collect()
}

fn check_combine(sig: &Signature, acc: &Acc, errors: &mut Errors) {
    let want = format!(
        "`combine` joins two accumulators into one: `fn combine(a: {a}, b: {a}) -> {a}`",
        a = acc.text
    );
    let g = groups(sig);
    if g.len() != 2 {
        errors.push(
            sig.name.span(),
            format!("{want}; this one takes {} parameter(s)", g.len()),
        );
        return;
    }
    for (types, span) in &g {
        if *types != acc.types {
            errors.push(*span, format!("{want}, the type of `identity`'s result"));
        }
    }
    if outputs(sig) != acc.types {
        let span = sig.outputs.first().map_or(sig.name.span(), |(_, s)| *s);
        errors.push(span, format!("{want}, the type of `identity`'s result"));
    }
}

fn check_map(sig: &Signature, acc: &Acc, errors: &mut Errors) {
    if let Some((name, _)) = sig.tuples.first() {
        errors.push(
            name.span(),
            "`map` takes elements (`x: T`), `#[scalar]`s and an `#[index]`, not tuples",
        );
    }
    for p in &sig.params {
        if p.kind == ParamKind::InOut {
            errors.push(
                p.name.span(),
                "`map` reads its inputs: take `x: T`, not `&mut T` (a reduction writes only its result)",
            );
        }
    }
    if !sig.params.iter().any(|p| p.kind == ParamKind::Input) {
        errors.push(
            sig.name.span(),
            "`map` takes at least one tensor element (`x: T`): its shape and device come from the tensors",
        );
    }
    if outputs(sig) != acc.types {
        let span = sig.outputs.first().map_or(sig.name.span(), |(_, s)| *s);
        errors.push(
            span,
            format!(
                "`map` returns the accumulator, `{}` (the type of `identity`'s result)",
                acc.text
            ),
        );
    }
}

fn check_finish(sig: &Signature, acc: &Acc, errors: &mut Errors) {
    let want = format!(
        "`finish` takes the row's accumulator and its element count: `fn finish(acc: {}, count: u64) -> Out`",
        acc.text
    );
    let g = groups(sig);
    match g.as_slice() {
        [(a, a_span), (c, c_span)] => {
            if *a != acc.types {
                errors.push(*a_span, want.clone());
            }
            if *c != [TyRef::Elem(DType::U64)] {
                errors.push(*c_span, want);
            }
        }
        _ => errors.push(
            sig.name.span(),
            format!("{want}; this one takes {} parameter(s)", g.len()),
        ),
    }
    if sig.outputs.is_empty() {
        errors.push(
            sig.name.span(),
            "`finish` returns the reduction's result: `-> T` (or a tuple)",
        );
    }
}

/// `T`, `f32` or `(T, i64)`.
fn show(types: &[TyRef], generic: &str) -> String {
    let names: Vec<String> = types
        .iter()
        .map(|t| match t {
            TyRef::Generic => generic.to_owned(),
            TyRef::Elem(t) => t.to_string(),
        })
        .collect();
    match names.as_slice() {
        [one] => one.clone(),
        _ => format!("({})", names.join(", ")),
    }
}

/// The reduction's IR for one instantiation type: `map` as the body, the
/// other functions in its entry. `None` after errors.
pub fn instantiate(
    m: &ReduceModule,
    inst: Option<DType>,
    scan: bool,
    helpers: &[HelperDef],
    errors: &mut Errors,
) -> Option<ir::Kernel> {
    let mut calls = Vec::new();
    let mut check = |p: &Option<Part>| {
        let p = p.as_ref()?;
        let (f, c) = check_part(&p.sig, &p.body, inst, helpers, errors)?;
        calls.extend(c);
        Some(f)
    };
    let identity = check(&m.identity);
    let map = check(&m.map);
    let combine = check(&m.combine);
    let finish = check(&m.finish);
    let (identity, mut func, combine, finish) = (identity?, map?, combine?, finish?);
    // the body's C and Rust functions are named after the reduction
    func.name = crate::front::ident_name(&m.name);
    let before = errors.len();
    let helpers = instantiate_helpers(helpers, calls, errors);
    if errors.len() != before {
        return None;
    }
    Some(ir::Kernel {
        func,
        helpers,
        entry: {
            let parts = Box::new(ir::Reduce {
                identity,
                combine,
                finish,
            });
            if scan {
                ir::Entry::Scan(parts)
            } else {
                ir::Entry::Reduce(parts)
            }
        },
    })
}

//! The functions of a generated reduction (`identity`, `map`, `combine`,
//! `finish`), each a function of its own written by the expression and
//! statement generators, and the mistakes users make in a reduction's
//! structure.

use silt_abi::DType;
use silt_codegen::builtins::{Def, Rel, TABLE};

use crate::ast::{self, Blk, E, S};
use crate::fold::FoldKind;
use crate::gen::{Gen, Var};
use crate::kernel::{Param, ParamKind, Ty};

/// A parameter of a reduction's function.
#[derive(Clone, Debug)]
pub(crate) enum PSpec {
    /// An element, a `#[scalar]` or an `#[index]`.
    Plain(Param),
    /// An accumulator tuple, read by its fields (`a.0`, `a.1`).
    Tuple(String, Vec<Ty>),
}

/// What one function takes and returns.
#[derive(Clone, Debug)]
pub(crate) struct FnSpec {
    pub name: &'static str,
    /// Declares the type parameter (its body may use it).
    pub generic: bool,
    pub params: Vec<PSpec>,
    pub outputs: Vec<Ty>,
    /// Tuple parameters of the accumulator's type, which may be returned whole.
    pub whole: Vec<String>,
}

/// Writes one function, indented as a module's item.
pub(crate) fn function(g: &mut Gen, spec: &FnSpec, types: &[DType]) -> String {
    // a function of its own: fresh state, but the names used so far stay taken
    let saved = (
        std::mem::replace(
            &mut g.gs,
            if spec.generic {
                types.to_vec()
            } else {
                Vec::new()
            },
        ),
        std::mem::replace(&mut g.scopes, vec![Vec::new()]),
        std::mem::take(&mut g.param_names),
        std::mem::replace(&mut g.outputs, spec.outputs.clone()),
        std::mem::replace(&mut g.budget, 30),
    );
    if !g.run {
        g.budget = i64::try_from(g.range(5, 60)).unwrap_or(30);
    }
    let mut texts = Vec::new();
    for p in &spec.params {
        match p {
            PSpec::Plain(q) => {
                g.used_names.insert(q.name.clone());
                g.param_names.push(q.name.clone());
                let tn = g.tname(q.ty);
                let m = if q.mutable { "mut " } else { "" };
                texts.push(match q.kind {
                    ParamKind::Scalar => format!("#[scalar] {m}{}: {tn}", q.name),
                    ParamKind::Index => format!("#[index] {}: u64", q.name),
                    _ => format!("{m}{}: {tn}", q.name),
                });
                g.scopes[0].push(Var {
                    name: q.name.clone(),
                    ty: q.ty,
                    det: true,
                    assignable: q.mutable,
                    deref: false,
                    // `map`'s inputs hold what the tensors hold; accumulators
                    // and the count are computed
                    pristine: spec.name == "map" && !q.mutable,
                });
            }
            PSpec::Tuple(name, tys) => {
                g.used_names.insert(name.clone());
                g.param_names.push(name.clone());
                let names: Vec<String> = tys.iter().map(|t| g.tname(*t)).collect();
                texts.push(format!("{name}: ({})", names.join(", ")));
                for (i, t) in tys.iter().enumerate() {
                    let field = format!("{name}.{i}");
                    g.param_names.push(field.clone());
                    g.scopes[0].push(Var::local(field, *t, true, false));
                }
            }
        }
    }
    let depth = 3;
    g.scopes.push(Vec::new());
    let n = g.range(0, 4);
    let mut stmts = Vec::new();
    // `if a.0 != a.0 { return a; }`: a whole accumulator returned early
    if !spec.whole.is_empty() && g.pct(25) {
        let c = g.expr(Ty::Elem(DType::Bool), depth, false);
        let w = spec.whole[g.below(spec.whole.len())].clone();
        stmts.push(S::If(c.e, Blk::of(S::Return(Some(E::Path(w)))), None));
    }
    stmts.extend(g.stmts(n, depth));
    let tail = if !spec.whole.is_empty() && g.pct(45) {
        whole_value(g, &spec.whole, depth)
    } else {
        match spec.outputs.as_slice() {
            [one] => mix(g, *one, depth),
            many => E::Tuple(many.iter().map(|t| mix(g, *t, depth)).collect()),
        }
    };
    let tail = if g.pct(10) {
        stmts.push(S::Return(Some(tail)));
        None
    } else {
        Some(Box::new(tail))
    };
    let body = Blk { stmts, tail };
    let ret = match spec.outputs.as_slice() {
        [] => String::new(),
        [one] => format!(" -> {}", g.tname(*one)),
        many => {
            let v: Vec<String> = many.iter().map(|t| g.tname(*t)).collect();
            format!(" -> ({})", v.join(", "))
        }
    };
    let generic = if spec.generic {
        format!("<{}>", g.tparam)
    } else {
        String::new()
    };
    let vis = g.pick(&["", "pub "]);
    let text = format!(
        "    {vis}fn {}{generic}({}){ret} {}",
        spec.name,
        texts.join(", "),
        ast::blk(&body, 1)
    );
    (g.gs, g.scopes, g.param_names, g.outputs, g.budget) = saved;
    text
}

/// A value of type `t` that mostly depends on the parameters: two of them
/// joined by an operator or a method (`a + b`, `a.0.max(b.0)`), one and an
/// expression, or a parameter cast; else any expression.
fn mix(g: &mut Gen, t: Ty, depth: usize) -> E {
    let params: Vec<Var> = g.scopes[0].clone();
    let same: Vec<&Var> = params.iter().filter(|v| v.ty == t).collect();
    if !same.is_empty() && g.pct(85) {
        let x = same[g.below(same.len())].read();
        let y = if g.pct(70) {
            same[g.below(same.len())].read()
        } else {
            g.expr(t, depth - 1, false).e
        };
        let mut ops: Vec<&'static str> = Vec::new();
        if g.all(t, |d| d != DType::Bool) {
            ops.extend(["+", "-", "*", "+", "/", "%"]);
        }
        if g.all(t, |d| !d.is_float()) {
            ops.extend(["&", "|", "^"]);
        }
        let defs: Vec<&'static Def> = TABLE
            .iter()
            .filter(|d| {
                (d.exact || !g.run)
                    && d.ret == Rel::Same
                    && d.args == [Rel::Same]
                    && g.all(t, |x| d.on.covers(x))
            })
            .collect();
        if !defs.is_empty() && (ops.is_empty() || g.pct(35)) {
            let d = defs[g.below(defs.len())];
            let (mut x, mut y) = (x, y);
            if g.run {
                match d.builtin.nan_sign_operand() {
                    Some(0) => x = g.nan_free(t, x),
                    Some(_) => y = g.nan_free(t, y),
                    None => {}
                }
            }
            return E::Call(Box::new(x), d.name, vec![y]);
        }
        if !ops.is_empty() {
            // the parameter on either side (a method's receiver is always it:
            // its type must be fixed)
            let op = g.pick(&ops);
            let (x, y) = if g.c.bool() { (x, y) } else { (y, x) };
            return E::Bin(op, Box::new(x), Box::new(y));
        }
    }
    // a parameter of another type, cast (nothing but `bool` becomes `bool`)
    let castable: Vec<&Var> = params
        .iter()
        .filter(|v| {
            v.ty != t && !g.insts(v.ty).is_empty() && {
                let to_bool = g.insts(t).contains(&DType::Bool);
                !to_bool || g.all(v.ty, |d| d == DType::Bool) && g.all(t, |d| d == DType::Bool)
            }
        })
        .collect();
    if !castable.is_empty() && g.pct(70) {
        let v = castable[g.below(castable.len())];
        return E::Cast(Box::new(v.read()), g.tname(t));
    }
    g.expr(t, depth, false).e
}

/// A whole accumulator: one of the tuple parameters, or a choice between two.
fn whole_value(g: &mut Gen, whole: &[String], depth: usize) -> E {
    let pick = |g: &mut Gen| E::Path(whole[g.below(whole.len())].clone());
    if g.pct(60) {
        let c = g.expr(Ty::Elem(DType::Bool), depth, false);
        let (x, y) = (pick(g), pick(g));
        E::If(Box::new(c.e), Blk::value(x), Blk::value(y))
    } else {
        pick(g)
    }
}

/// Replaces the functions and attribute of a module by ones with one of the
/// mistakes users make in a reduction's structure.
pub(crate) fn structural_mistake(
    g: &mut Gen,
    kind: FoldKind,
    acc: &[Ty],
    fns: &mut Vec<String>,
    attr: &mut String,
) {
    let acc_text = |g: &Gen| {
        let v: Vec<String> = acc.iter().map(|t| g.tname(*t)).collect();
        if v.len() == 1 {
            v[0].clone()
        } else {
            format!("({})", v.join(", "))
        }
    };
    let generic = if g.gs.is_empty() {
        String::new()
    } else {
        format!("<{}>", g.tparam)
    };
    let a = acc_text(g);
    let find =
        |fns: &[String], name: &str| fns.iter().position(|f| f.contains(&format!("fn {name}")));
    match g.below(12) {
        // a function missing
        0 => {
            if let Some(i) = find(fns, "identity") {
                fns.remove(i);
            }
        }
        1 => {
            if let Some(i) = find(fns, "combine") {
                fns.remove(i);
            }
        }
        // `combine` of one accumulator, or three
        2 => {
            if let Some(i) = find(fns, "combine") {
                fns[i] = if g.c.bool() {
                    format!("    fn combine{generic}(a: {a}) -> {a} {{\n        a\n    }}")
                } else {
                    format!(
                        "    fn combine{generic}(a: {a}, b: {a}, c: {a}) -> {a} {{\n        a\n    }}"
                    )
                };
            }
        }
        // `finish` without the count, or with another type
        3 => {
            let ty = g.pick(&["", ", count: u32", ", count: T", ", #[index] count: u64"]);
            fns.push(format!(
                "    fn finish{generic}(acc: {a}{ty}) -> {a} {{\n        acc\n    }}"
            ));
            if let Some(i) = fns.iter().position(|f| f.contains("fn finish")) {
                if i + 1 < fns.len() {
                    fns.remove(i);
                }
            }
        }
        // `map` returning another type than the accumulator, or taking a tuple
        // or a `&mut`
        4 => {
            if let Some(i) = find(fns, "map") {
                fns.remove(i);
            }
            let other = g.pick(&DType::ALL).name();
            fns.push(match g.below(3) {
                0 => format!("    fn map(x: f32) -> ({other}, {other}, {other}) {{\n        (0, 0, 0)\n    }}"),
                1 => format!("    fn map{generic}(x: {a}, y: ({other}, {other})) -> {a} {{\n        x\n    }}"),
                _ => format!("    fn map{generic}(x: &mut {a}) -> {a} {{\n        *x\n    }}"),
            });
        }
        // a tuple accumulator without `map`
        5 => {
            if let Some(i) = find(fns, "map") {
                fns.remove(i);
            }
            fns.push(format!(
                "    fn identity{generic}() -> ({a}, {a}) {{\n        (0, 0)\n    }}"
            ));
        }
        // `identity` with a parameter, or returning nothing
        6 => {
            if let Some(i) = find(fns, "identity") {
                fns[i] = if g.c.bool() {
                    format!("    fn identity{generic}(x: {a}) -> {a} {{\n        x\n    }}")
                } else {
                    "    fn identity() {\n    }".to_string()
                };
            }
        }
        // an item that is no function of a reduction
        7 => {
            let item = g.pick(&[
                "    fn reduce() -> i32 {\n        0\n    }",
                "    const K: i32 = 3;",
                "    struct S;",
                "    use core::f32;",
                "    #[inline]\n    fn combine2() {}",
            ]);
            let at = g.below(fns.len() + 1);
            fns.insert(at, item.to_string());
        }
        // a function defined twice
        8 => {
            if !fns.is_empty() {
                let i = g.below(fns.len());
                let f = fns[i].clone();
                fns.push(f);
            }
        }
        // the attribute's options
        9 => {
            let extra = match kind {
                FoldKind::Scan => g.pick(&["empty = error", "empty = identity"]),
                FoldKind::Reduce => {
                    g.pick(&["empty = maybe", "empty", "empty = error, empty = error"])
                }
            };
            *attr = if attr.is_empty() {
                extra.to_string()
            } else {
                format!("{attr}, {extra}")
            };
        }
        // `types` without a generic function, or the other way round
        10 => {
            if attr.contains("types") {
                *attr = String::new();
            } else {
                *attr = "types = [f32, i64]".to_string();
            }
        }
        // a parameter named as silt's own
        _ => {
            if let Some(i) = find(fns, "combine") {
                fns[i] = format!(
                    "    fn combine{generic}(__a: {a}, b: {a}) -> {a} {{\n        b\n    }}"
                );
            }
        }
    }
}

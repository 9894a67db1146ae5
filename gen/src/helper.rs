//! `#[helper]` functions for kernels to call, generic or not.

use silt_abi::DType;

use crate::ast::{self, Blk, E};
use crate::gen::{Gen, HelperSig, Var};
use crate::kernel::{param_name, types_attr, Helper, Ty};
use crate::names::TYPE_PARAMS;

/// A `#[helper]`, generic over `types` half of the time (then mostly over the
/// kernel's types and more, so that the kernel can call it at its own type),
/// returning one value or, a quarter of the time, a tuple (which callers
/// destructure); the code generated afterwards may call it.
pub(crate) fn helper(g: &mut Gen, name: String, kernel_types: &[DType]) -> Helper {
    let types: Vec<DType> = if g.c.bool() {
        types_over(g, kernel_types, 70, 15)
    } else {
        Vec::new()
    };
    let generic = !types.is_empty();
    let n = g.range(1, 3);
    let ptys: Vec<Ty> = (0..n)
        .map(|j| {
            if generic && (j == 0 || g.pct(30)) {
                Ty::Param
            } else {
                Ty::Elem(g.pick(&DType::ALL))
            }
        })
        .collect();
    // one result, or now and then a tuple of two or three
    let n_rets = match g.below(100) {
        0..=19 => 2,
        20..=24 => 3,
        _ => 1,
    };
    let rets: Vec<Ty> = (0..n_rets)
        .map(|_| {
            if generic && g.pct(65) {
                Ty::Param
            } else {
                Ty::Elem(g.pick(&DType::ALL))
            }
        })
        .collect();
    let tparam = if generic {
        g.pick(TYPE_PARAMS).to_string()
    } else {
        "T".to_string()
    };
    // a helper is a function of its own: fresh state, but the names used so
    // far stay taken
    let saved = (
        std::mem::replace(&mut g.gs, types.clone()),
        std::mem::replace(&mut g.tparam, tparam),
        std::mem::replace(&mut g.scopes, vec![Vec::new()]),
        std::mem::take(&mut g.param_names),
        std::mem::replace(&mut g.outputs, rets.clone()),
        std::mem::replace(&mut g.budget, 30),
    );
    let mut ps = Vec::new();
    for (i, t) in ptys.iter().enumerate() {
        let pn = param_name(g, "p", i);
        g.used_names.insert(pn.clone());
        g.param_names.push(pn.clone());
        ps.push(format!("{pn}: {}", g.tname(*t)));
        // arguments may be computed NaNs: not pristine
        g.scopes[0].push(Var::local(pn, *t, true, false));
    }
    let body = g.nested(|g| {
        let k = g.range(0, 3);
        let stmts = g.stmts(k, 2);
        let mut vals: Vec<E> = rets.iter().map(|&t| g.expr(t, 2, false).e).collect();
        let tail = if vals.len() == 1 {
            vals.remove(0)
        } else {
            E::Tuple(vals)
        };
        Blk {
            stmts,
            tail: Some(Box::new(tail)),
        }
    });
    // `pub` when it runs: a private helper that another private helper calls
    // does not compile inside a module (E0365, "`h` is private, and cannot be
    // re-exported")
    let vis = if g.run { "pub " } else { g.pick(&["", "pub "]) };
    let generic_text = if generic {
        format!("<{}>", g.tparam)
    } else {
        String::new()
    };
    let ret_text = match rets.as_slice() {
        [one] => g.tname(*one),
        many => {
            let names: Vec<String> = many.iter().map(|t| g.tname(*t)).collect();
            format!("({})", names.join(", "))
        }
    };
    let item = format!(
        "{vis}fn {name}{generic_text}({}) -> {ret_text} {}",
        ps.join(", "),
        ast::blk(&body, 0)
    );
    (g.gs, g.tparam, g.scopes, g.param_names, g.outputs, g.budget) = saved;
    g.helpers.push(HelperSig {
        name: name.clone(),
        params: ptys,
        rets,
        types: types.clone(),
    });
    Helper {
        name,
        attr: types_attr(&types),
        item,
    }
}

/// A sorted, non-empty list of types for a generic helper or called kernel:
/// `kernel_types` kept `keep` percent of the time, then each other type added
/// `extra` percent of the time.
pub(crate) fn types_over(g: &mut Gen, kernel_types: &[DType], keep: u32, extra: u32) -> Vec<DType> {
    let mut t: Vec<DType> = if !kernel_types.is_empty() && g.pct(keep) {
        kernel_types.to_vec()
    } else {
        Vec::new()
    };
    for d in DType::ALL {
        if !t.contains(&d) && g.pct(extra) {
            t.push(d);
        }
    }
    if t.is_empty() {
        t.push(g.pick(&DType::ALL));
    }
    t.sort();
    t
}

//! Kernels for other kernels to call: a `#[kernel]` whose parameters are
//! values and `#[scalar]`s and which returns one value, generated before the
//! kernel that may call it (inlined there for the caller's type).

use silt_abi::DType;

use crate::ast::{self, Blk, S};
use crate::gen::{Gen, HelperSig, Var};
use crate::kernel::{param_name, types_attr, Kernel, Param, ParamKind, Ty};
use crate::names::TYPE_PARAMS;

/// A callable kernel named `name`, generic over the caller's types and more
/// (so that the caller can call it at its own type) or not generic; the code
/// generated afterwards may call it. It may call the helpers generated before
/// it. Its result is exact when it runs: the caller's checks assume that only
/// the caller's last operation may be inexact.
pub(crate) fn callee(g: &mut Gen, name: String, kernel_types: &[DType]) -> Kernel {
    let types: Vec<DType> = if g.pct(75) {
        crate::helper::types_over(g, kernel_types, 80, 12)
    } else {
        Vec::new()
    };
    let generic = !types.is_empty();
    let tparam = if generic {
        g.pick(TYPE_PARAMS).to_string()
    } else {
        "T".to_string()
    };
    let ret = if generic && g.pct(65) {
        Ty::Param
    } else {
        Ty::Elem(g.pick(&DType::ALL))
    };
    let saved = (
        std::mem::replace(&mut g.gs, types.clone()),
        std::mem::replace(&mut g.tparam, tparam),
        std::mem::replace(&mut g.scopes, vec![Vec::new()]),
        std::mem::take(&mut g.param_names),
        std::mem::replace(&mut g.outputs, vec![ret]),
        std::mem::replace(&mut g.budget, 30),
    );
    // values and `#[scalar]`s, the first a value; a generic one has a `T`
    // among them (its `dispatch` takes the dtype from one)
    let n = g.range(1, 3);
    let mut params = Vec::new();
    for i in 0..n {
        // a kernel needs a tensor parameter
        let kind = if i > 0 && g.pct(30) {
            ParamKind::Scalar
        } else {
            ParamKind::Input
        };
        let ty = if generic && (i == 0 || g.pct(40)) {
            Ty::Param
        } else {
            Ty::Elem(g.pick(&DType::ALL))
        };
        let pn = param_name(g, if kind == ParamKind::Scalar { "s" } else { "a" }, i);
        g.used_names.insert(pn.clone());
        g.param_names.push(pn.clone());
        let mutable = g.pct(15);
        // arguments may be computed NaNs: not pristine
        g.scopes[0].push(Var {
            name: pn.clone(),
            ty,
            det: true,
            assignable: mutable,
            deref: false,
            pristine: false,
        });
        params.push(Param {
            name: pn,
            kind,
            ty,
            mutable,
        });
    }
    let body = g.nested(|g| {
        let k = g.range(0, 3);
        let stmts = g.stmts(k, 2);
        let tail = g.expr(ret, 2, false).e;
        Blk {
            stmts,
            tail: Some(Box::new(tail)),
        }
    });
    let params_text: Vec<String> = params
        .iter()
        .map(|q| {
            let tn = g.tname(q.ty);
            let m = if q.mutable { "mut " } else { "" };
            match q.kind {
                ParamKind::Scalar => format!("#[scalar] {m}{}: {tn}", q.name),
                _ => format!("{m}{}: {tn}", q.name),
            }
        })
        .collect();
    let generic_text = if generic {
        format!("<{}>", g.tparam)
    } else {
        String::new()
    };
    let vis = g.pick(&["", "pub ", "pub(crate) "]);
    let item = format!(
        "{vis}fn {name}{generic_text}({}) -> {} {}",
        params_text.join(", "),
        g.tname(ret),
        ast::blk(&body, 0)
    );
    (g.gs, g.tparam, g.scopes, g.param_names, g.outputs, g.budget) = saved;
    g.helpers.push(HelperSig {
        name: name.clone(),
        params: params.iter().map(|p| p.ty).collect(),
        rets: vec![ret],
        types: types.clone(),
    });
    Kernel {
        name,
        attr: types_attr(&types),
        item,
        helpers: Vec::new(),
        callees: Vec::new(),
        types,
        params,
        outputs: vec![ret],
        checks: Vec::new(),
        mistake: false,
    }
}

/// `let c = callee(..);` for each of `callees` the kernel can call at some
/// type, declared for the code after it: so that a kernel generated for
/// another to call is called (more calls may follow).
pub(crate) fn first_calls(g: &mut Gen, callees: &[Kernel], depth: usize) -> Vec<S> {
    let mut out = Vec::new();
    for k in callees {
        let Some(sig) = g.helpers.iter().find(|h| h.name == k.name).cloned() else {
            continue;
        };
        // at the kernel's own type when the callee has it, else at one of
        // the callee's
        let t = match sig.rets[0] {
            Ty::Param if !g.gs.is_empty() && g.gs.iter().all(|d| sig.types.contains(d)) => {
                Ty::Param
            }
            Ty::Param => Ty::Elem(g.pick(&sig.types)),
            elem => elem,
        };
        let all = std::mem::replace(&mut g.helpers, vec![sig]);
        let call = g.helper_call(t, depth);
        g.helpers = all;
        if let Some(call) = call {
            let name = g.fresh("c");
            let tn = g.tname(t);
            out.push(S::Let(name.clone(), false, Some(tn), Some(call.e)));
            g.declare(Var::local(name, t, true, false));
        }
    }
    out
}

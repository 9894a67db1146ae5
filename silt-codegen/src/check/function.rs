//! Checking one function body (a kernel's or a helper's) for one type, and the
//! helper instantiations it calls.

use proc_macro2::Span;

use super::definite_init;
use super::defs::HelperDef;
use super::infer::{Cx, HelperUse};
use crate::errors::Errors;
use crate::front::ident_name;
use crate::front::syntax;
use crate::ir::{self, HelperRef};
use silt_abi::DType;

/// Type-checks one instantiation of a kernel's body (`inst` is the type of the
/// generic parameter), and every helper instantiation it calls, into the IR of
/// a map kernel. Definite assignment is checked apart ([`definite_init`]).
pub fn check_kernel(
    sig: &syntax::Signature,
    body: &syntax::Block,
    inst: Option<DType>,
    helpers: &[HelperDef],
    errors: &mut Errors,
) -> Option<ir::Kernel> {
    let before = errors.len();
    let (func, calls) = check_body(sig, body, inst, helpers, &[], errors);
    let done = instantiate_helpers(helpers, calls, errors);
    (errors.len() == before).then_some(ir::Kernel {
        func,
        helpers: done,
        entry: ir::Entry::Map,
    })
}

/// The helper instantiations `calls` names and those they call, callees
/// first, each once.
pub(super) fn instantiate_helpers(
    helpers: &[HelperDef],
    calls: Vec<HelperUse>,
    errors: &mut Errors,
) -> Vec<ir::HelperFn> {
    let mut done = Vec::new();
    let mut stack = Vec::new();
    for (h, t, span) in calls {
        instantiate(helpers, h, t, span, &mut stack, &mut done, errors);
    }
    done
}

/// Checks a helper's body alone, at its definition (the helpers it calls are
/// not known there), definite assignment included, reporting into `errors`.
pub fn check_helper(
    sig: &syntax::Signature,
    body: &syntax::Block,
    inst: Option<DType>,
    errors: &mut Errors,
) {
    check_part(sig, body, inst, &[], errors);
}

/// Checks one function of a reduction or scan for one type, with the helpers
/// it may call, definite assignment included: its IR and the helper
/// instantiations it calls, when it has no errors.
pub(super) fn check_part(
    sig: &syntax::Signature,
    body: &syntax::Block,
    inst: Option<DType>,
    helpers: &[HelperDef],
    errors: &mut Errors,
) -> Option<(ir::Function, Vec<HelperUse>)> {
    let before = errors.len();
    let (func, calls) = check_body(sig, body, inst, helpers, &[], errors);
    if errors.len() == before {
        definite_init::check(&func, errors);
    }
    (errors.len() == before).then_some((func, calls))
}

/// Checks a helper instantiation and, first, the helpers it calls; rejects
/// recursion.
fn instantiate(
    helpers: &[HelperDef],
    h: usize,
    inst: Option<DType>,
    span: Span,
    stack: &mut Vec<(usize, Option<DType>)>,
    done: &mut Vec<ir::HelperFn>,
    errors: &mut Errors,
) {
    let def = &helpers[h];
    let id = helper_ref(def, inst);
    if done.iter().any(|d| d.id == id) {
        return;
    }
    if stack.contains(&(h, inst)) {
        let chain: Vec<String> = stack
            .iter()
            .map(|(i, _)| ident_name(&helpers[*i].sig.name))
            .chain(std::iter::once(ident_name(&def.sig.name)))
            .collect();
        errors.push(
            span,
            format!(
                "recursion is not supported in kernels: {}",
                chain.join(" -> ")
            ),
        );
        return;
    }
    stack.push((h, inst));
    let (func, calls) = check_body(&def.sig, &def.body, inst, helpers, &def.deps, errors);
    for (callee, t, call_span) in calls {
        instantiate(helpers, callee, t, call_span, stack, done, errors);
    }
    stack.pop();
    done.push(ir::HelperFn { id, func });
}

/// How calls name the instantiation `inst` of the helper `def`.
pub(super) fn helper_ref(def: &HelperDef, inst: Option<DType>) -> HelperRef {
    HelperRef {
        name: ident_name(&def.sig.name),
        key: def.key.clone(),
        inst,
    }
}

/// Checks one function body (a kernel or a helper) for one type; returns its IR
/// and the helper instantiations it calls.
fn check_body(
    sig: &syntax::Signature,
    body: &syntax::Block,
    inst: Option<DType>,
    helpers: &[HelperDef],
    deps: &[(String, String)],
    errors: &mut Errors,
) -> (ir::Function, Vec<HelperUse>) {
    let mut cx = Cx::new(sig, inst, helpers, deps, errors);
    let checked = cx.body(body);
    let body = cx.finish(checked);
    let func = ir::Function {
        name: ident_name(&sig.name),
        inst,
        params: cx.sig.params,
        outputs: cx.sig.outputs,
        locals: cx.vars.locals,
        arrays: cx.vars.arrays,
        body,
        span: sig.name.span(),
    };
    (func, cx.calls.used)
}

//! The grid entry template: one entry point per instantiation, `NAME_TYPE`,
//! that requires work-groups of the kernel's shape and calls the body
//! function with its arguments (a view's buffer, offset, strides and shape;
//! a scalar's value; the error record of a checked kernel), by
//! `silt_abi::opencl::grid_args`.

use std::fmt::Write;

use silt_abi::opencl::{declare, entry_head, grid_args, Signature};

use super::{passes, views};
use crate::back::opencl::function::Emitter;
use crate::back::opencl::names::entry_name;
use crate::back::opencl::polyfill::{load, Polyfill};
use crate::back::opencl::types::ClType;
use crate::ir::{Grid, ParamKind};
use silt_abi::DType;

/// `__kernel __attribute__((reqd_work_group_size(X, Y, Z))) void NAME_TYPE(...)`.
pub(in crate::back::opencl) fn entry_points(e: &mut Emitter<'_>, g: &Grid) -> String {
    let k = e.f;
    let params = views(k, &e.params);
    let sig = Signature {
        params: &params,
        acc: &[],
        outputs: &[],
    };
    let lines = declare(grid_args(passes(k), !g.unchecked), &sig);
    let dim = |d: usize| g.group.get(d).map_or(1, |&n| n as usize);
    let mut s = entry_head(&entry_name(k), &lines, Some([dim(0), dim(1), dim(2)]));
    // work-group memory is declared in the kernel function and lent to the body
    for (i, a) in k.arrays.iter().enumerate().filter(|(_, a)| !a.private) {
        let _ = writeln!(
            s,
            "    __local {} silt_local{i}[{}];",
            a.ty.storage_type(),
            a.elements()
        );
    }
    let mut args = Vec::new();
    for (p, n) in k.params.iter().zip(&e.params) {
        match p.kind {
            ParamKind::View(_) | ParamKind::ViewMut(_) => args.extend([
                n.clone(),
                format!("silt_off_{n}"),
                format!("silt_st_{n}"),
                format!("silt_sh_{n}"),
            ]),
            _ => {
                if p.ty == DType::F16 {
                    e.polyfills.insert(Polyfill::F16Load);
                }
                args.push(load(p.ty, n.clone()));
            }
        }
    }
    args.extend(
        k.arrays
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.private)
            .map(|(i, _)| format!("silt_local{i}")),
    );
    if !g.unchecked {
        args.push("silt_err".into());
    }
    let _ = writeln!(s, "    {}({});", e.name, args.join(", "));
    s.push_str("}\n");
    s
}

//! Entry templates: the `__kernel` functions that assign elements to
//! work-items and call a kernel's body. One file per form of [`Entry`].
//!
//! [`Entry`]: crate::ir::Entry

mod first_pass;
pub(super) mod grid;
pub(super) mod map;
pub(super) mod reduce;
pub(super) mod scan;
mod scan_write;

use silt_abi::opencl::{Pass, View};

use crate::ir::{Function, ParamKind};

/// How each parameter of `f` reaches an entry point.
pub(super) fn passes(f: &Function) -> impl Iterator<Item = Pass> + Clone + '_ {
    f.params.iter().map(|p| match p.kind {
        ParamKind::Input | ParamKind::InOut | ParamKind::View(_) | ParamKind::ViewMut(_) => {
            Pass::Tensor
        }
        ParamKind::Scalar => Pass::Scalar,
        ParamKind::Index => Pass::Index,
    })
}

/// The parameters of `f`, named `names` in C, as entry points declare them.
pub(super) fn views<'a>(f: &Function, names: &'a [String]) -> Vec<View<'a>> {
    f.params
        .iter()
        .zip(names)
        .map(|(p, n)| {
            let written = matches!(p.kind, ParamKind::InOut | ParamKind::ViewMut(_));
            View::new(n, p.ty, written)
        })
        .collect()
}

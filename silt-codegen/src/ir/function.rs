//! Kernels and functions: a body with its parameters, locals and outputs.

use proc_macro2::Span;

use super::ops::ParamKind;
use super::tree::Block;
use super::values::HelperRef;
use silt_abi::DType;

/// One kernel instantiation: its body, the helpers it calls and its entry form.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The body, monomorphised for one type.
    pub func: Function,
    /// The helper instantiations the body calls (directly or through other
    /// helpers), callees before callers.
    pub helpers: Vec<HelperFn>,
    /// How elements are assigned to work-items.
    pub entry: Entry,
}

/// How a kernel's elements are assigned to work-items: the entry template a
/// backend wraps around the body.
#[derive(Debug, Clone)]
pub enum Entry {
    /// One work-item per element of the broadcast shape of the tensor
    /// parameters; outputs have that shape (`#[kernel]`).
    Map,
    /// The body is a reduction's `map`; each output element combines the
    /// mapped elements of its row in silt's fixed order (`#[reduce]`).
    Reduce(Box<Reduce>),
    /// The body is a scan's `map`; each output element is the running value
    /// of its row up to it, in silt's fixed order (`#[scan]`).
    Scan(Box<Reduce>),
    /// The body is what one work-item of a grid does, reading and writing
    /// whole views by index (`#[grid]`); work-groups have the shape `group`
    /// (as many dimensions as the launch's grid).
    Grid(Grid),
}

/// A grid kernel's launch form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The work-group's shape, 1 to 3 dimensions.
    pub group: Vec<u32>,
    /// Whether view indices go unchecked (`#[grid(unchecked)]`).
    pub unchecked: bool,
}

/// The functions of a reduction (or scan) besides its `map`, checked for one
/// type.
#[derive(Debug, Clone)]
pub struct Reduce {
    /// `identity() -> Acc`: the value of an empty row.
    pub identity: Function,
    /// `combine(a: Acc, b: Acc) -> Acc` (its parameters are the fields of `a`,
    /// then those of `b`).
    pub combine: Function,
    /// `finish(acc: Acc, count: u64) -> Out`.
    pub finish: Function,
}

impl Reduce {
    /// The accumulator's types (`identity`'s outputs).
    pub fn acc(&self) -> &[DType] {
        &self.identity.outputs
    }
}

/// A checked function body, monomorphised for one type: a kernel's body or a
/// helper's.
#[derive(Debug, Clone)]
pub struct Function {
    /// The function's name as written (without `r#`).
    pub name: String,
    /// The instantiation type (`None` for a function without a generic parameter).
    pub inst: Option<DType>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// The returned element types, in order.
    pub outputs: Vec<DType>,
    /// Every local of the body, indexed by [`LocalId`](super::LocalId).
    pub locals: Vec<Local>,
    /// A grid kernel's arrays: work-group memory (`local![T; 16, 16]`) and
    /// each work-item's own (`private![T; 8]`), indexed by
    /// [`Array::Local`](super::Array::Local).
    pub arrays: Vec<LocalArray>,
    /// The body. Values are returned by [`Stmt::Return`](super::Stmt::Return) only.
    pub body: Block,
    /// Where the function is, for line mappings.
    pub span: Span,
}

/// An array of a grid kernel, of a size fixed at compile time: work-group
/// memory (one per work-group, shared by its work-items), or private to each
/// work-item (zeroed where it is declared, at the top of the body).
#[derive(Debug, Clone)]
pub struct LocalArray {
    /// Its name as written.
    pub name: String,
    /// Whether each work-item has its own (`private!`) rather than one per
    /// work-group (`local!`).
    pub private: bool,
    /// Its element type.
    pub ty: DType,
    /// Its shape.
    pub dims: Vec<u64>,
}

impl LocalArray {
    /// How many elements it holds.
    pub fn elements(&self) -> u64 {
        self.dims.iter().product()
    }

    /// The macro that declares it: `local!` or `private!`.
    pub fn declarer(&self) -> &'static str {
        if self.private {
            "private!"
        } else {
            "local!"
        }
    }
}

/// One instantiation of a `#[helper]`: a function of its own in every backend.
#[derive(Debug, Clone)]
pub struct HelperFn {
    /// Which helper, for which type.
    pub id: HelperRef,
    /// Its body (by-value parameters; several outputs are returned as a
    /// tuple in Rust and through pointers in C).
    pub func: Function,
}

/// A function parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// The name as written (without `r#`).
    pub name: String,
    /// How it is passed.
    pub kind: ParamKind,
    /// Its element type.
    pub ty: DType,
    /// Whether the body assigns to it (`mut x: T`).
    pub mutable: bool,
    /// Where it is declared.
    pub span: Span,
}

/// A `let` binding or `for` variable.
#[derive(Debug, Clone)]
pub struct Local {
    /// The name as written (several locals may share it through shadowing).
    pub name: String,
    /// Its type.
    pub ty: DType,
    /// `let mut`.
    pub mutable: bool,
}

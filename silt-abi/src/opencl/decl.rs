//! Entry-point declarations: the C parameter that receives each launch
//! argument, and the head of an entry point.
//!
//! Every `__kernel` function silt writes, generated at compile time or
//! composed at run time, is declared here: the argument lists of
//! [`map_args`](super::map_args), [`reduce_args`](super::reduce_args),
//! [`tree_args`](super::tree_args) and [`scan_args`](super::scan_args) become
//! parameters by [`Declare`], and [`entry_head`] opens the function.
//!
//! ```
//! use silt_abi::opencl::{declare_map, entry_head, map_args, Pass, Signature, View};
//! use silt_abi::DType;
//!
//! let params = [View::new("x", DType::F32, false)];
//! let sig = Signature { params: &params, acc: &[], outputs: &[DType::F32] };
//! let lines = declare_map(map_args([Pass::Tensor], 1, false), &sig);
//! assert_eq!(
//!     entry_head("k_f32", &lines, None),
//!     "__kernel void k_f32(\n    __global const float* x, ulong silt_off_x,\n    \
//!      __global float* silt_out0,\n    ulong silt_n) {\n"
//! );
//! ```

use crate::dtype::DType;

use super::grid::GridArg;
use super::map::MapArg;
use super::reduce::{ReduceArg, TreeArg};
use super::scan::ScanArg;
use super::types::{storage_type, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE};

/// A kernel parameter as its entry points see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View<'a> {
    /// Its C name in the entry point (a tensor's offset is `silt_off_NAME`,
    /// its strides `silt_st_NAME`).
    pub name: &'a str,
    /// Its element type.
    pub dtype: DType,
    /// Whether the entry point writes it (an in/out view).
    pub written: bool,
}

impl<'a> View<'a> {
    /// A parameter named `name` of `dtype`.
    pub const fn new(name: &'a str, dtype: DType, written: bool) -> Self {
        View {
            name,
            dtype,
            written,
        }
    }
}

/// What the declarations of an entry point's parameters depend on.
#[derive(Debug, Clone, Copy)]
pub struct Signature<'a> {
    /// The kernel's parameters, in order (`#[index]` ones included).
    pub params: &'a [View<'a>],
    /// The element type of each component of a reduction's or scan's
    /// accumulator (empty for a map).
    pub acc: &'a [DType],
    /// The element type of each result.
    pub outputs: &'a [DType],
}

/// A launch argument that an entry point declares as one C parameter.
pub trait Declare {
    /// The C declaration of the parameter that receives this argument.
    fn declare(&self, sig: &Signature<'_>) -> String;
}

fn scalar(sig: &Signature<'_>, param: usize) -> String {
    let p = &sig.params[param];
    format!("{} {}", storage_type(p.dtype), p.name)
}

fn buffer(sig: &Signature<'_>, param: usize) -> String {
    let p = &sig.params[param];
    let q = if p.written { "" } else { "const " };
    format!("__global {q}{}* {}", storage_type(p.dtype), p.name)
}

fn read_buffer(sig: &Signature<'_>, param: usize) -> String {
    let p = &sig.params[param];
    format!("__global const {}* {}", storage_type(p.dtype), p.name)
}

fn offset(sig: &Signature<'_>, param: usize) -> String {
    format!("{COUNT_TYPE} silt_off_{}", sig.params[param].name)
}

fn strides(sig: &Signature<'_>, param: usize) -> String {
    format!("{DIMS_TYPE} silt_st_{}", sig.params[param].name)
}

fn buffer_of(name: &str, d: DType, written: bool) -> String {
    let q = if written { "" } else { "const " };
    format!("__global {q}{}* {name}", storage_type(d))
}

impl Declare for MapArg {
    fn declare(&self, sig: &Signature<'_>) -> String {
        match *self {
            MapArg::Scalar { param } => scalar(sig, param),
            MapArg::Buffer { param } => buffer(sig, param),
            MapArg::Offset { param } => offset(sig, param),
            MapArg::Strides { param, .. } => strides(sig, param),
            MapArg::Output { output } => {
                buffer_of(&format!("silt_out{output}"), sig.outputs[output], true)
            }
            MapArg::Shape => format!("{DIMS_TYPE} silt_shape"),
            MapArg::Ndim => format!("{NDIM_TYPE} silt_ndim"),
            MapArg::Len => format!("{COUNT_TYPE} silt_n"),
        }
    }
}

impl Declare for ReduceArg {
    fn declare(&self, sig: &Signature<'_>) -> String {
        match *self {
            ReduceArg::Scalar { param } => scalar(sig, param),
            ReduceArg::Buffer { param } => read_buffer(sig, param),
            ReduceArg::Offset { param } => offset(sig, param),
            ReduceArg::Strides { param, .. } => strides(sig, param),
            ReduceArg::Acc { component } => {
                buffer_of(&format!("silt_acc{component}"), sig.acc[component], true)
            }
            ReduceArg::Out { output } => {
                buffer_of(&format!("silt_out{output}"), sig.outputs[output], true)
            }
            ReduceArg::Shape => format!("{DIMS_TYPE} silt_shape"),
            ReduceArg::Ndim => format!("{NDIM_TYPE} silt_ndim"),
            ReduceArg::Kept => format!("{NDIM_TYPE} silt_kept"),
            ReduceArg::Rows => format!("{COUNT_TYPE} silt_rows"),
            ReduceArg::Len => format!("{COUNT_TYPE} silt_len"),
            ReduceArg::Tiles => format!("{COUNT_TYPE} silt_tiles"),
            ReduceArg::Mapping => format!("{NDIM_TYPE} silt_mapping"),
        }
    }
}

impl Declare for TreeArg {
    fn declare(&self, sig: &Signature<'_>) -> String {
        match *self {
            TreeArg::Src { component } => {
                buffer_of(&format!("silt_src{component}"), sig.acc[component], false)
            }
            TreeArg::Dst { component } => {
                buffer_of(&format!("silt_dst{component}"), sig.acc[component], true)
            }
            TreeArg::Out { output } => {
                buffer_of(&format!("silt_out{output}"), sig.outputs[output], true)
            }
            TreeArg::Rows => format!("{COUNT_TYPE} silt_rows"),
            TreeArg::Parts => format!("{COUNT_TYPE} silt_parts"),
            TreeArg::Stride => format!("{COUNT_TYPE} silt_stride"),
            TreeArg::PartStride => format!("{COUNT_TYPE} silt_part_stride"),
            TreeArg::Blocks => format!("{COUNT_TYPE} silt_blocks"),
            TreeArg::Final => format!("{NDIM_TYPE} silt_final"),
            TreeArg::Count => format!("{COUNT_TYPE} silt_count"),
        }
    }
}

impl Declare for ScanArg {
    fn declare(&self, sig: &Signature<'_>) -> String {
        match *self {
            ScanArg::Scalar { param } => scalar(sig, param),
            ScanArg::Buffer { param } => read_buffer(sig, param),
            ScanArg::Offset { param } => offset(sig, param),
            ScanArg::Strides { param, .. } => strides(sig, param),
            ScanArg::Acc { component } => {
                buffer_of(&format!("silt_acc{component}"), sig.acc[component], true)
            }
            ScanArg::Out { output } => {
                buffer_of(&format!("silt_out{output}"), sig.outputs[output], true)
            }
            ScanArg::OutStrides => format!("{DIMS_TYPE} silt_ost"),
            ScanArg::Shape => format!("{DIMS_TYPE} silt_shape"),
            ScanArg::Ndim => format!("{NDIM_TYPE} silt_ndim"),
            ScanArg::Rows => format!("{COUNT_TYPE} silt_rows"),
            ScanArg::Len => format!("{COUNT_TYPE} silt_len"),
            ScanArg::Chunks => format!("{COUNT_TYPE} silt_chunks"),
            ScanArg::Phase => format!("{NDIM_TYPE} silt_phase"),
            ScanArg::Mapping => format!("{NDIM_TYPE} silt_mapping"),
        }
    }
}

impl Declare for GridArg {
    fn declare(&self, sig: &Signature<'_>) -> String {
        match *self {
            GridArg::Scalar { param } => scalar(sig, param),
            GridArg::Buffer { param } => buffer(sig, param),
            GridArg::Offset { param } => offset(sig, param),
            GridArg::Strides { param } => strides(sig, param),
            GridArg::Shape { param } => format!("{DIMS_TYPE} silt_sh_{}", sig.params[param].name),
            GridArg::Errors => "__global uint* silt_err".to_owned(),
        }
    }
}

/// The declarations of `args`, one per line.
pub fn declare<A: Declare>(args: impl IntoIterator<Item = A>, sig: &Signature<'_>) -> Vec<String> {
    args.into_iter().map(|a| a.declare(sig)).collect()
}

/// The declarations of a map entry point's arguments, on lines that group
/// them: the vectors (strides and shape), each parameter (a view's buffer
/// and offset together), each output, then the dimension count and the
/// element count.
pub fn declare_map(args: impl IntoIterator<Item = MapArg>, sig: &Signature<'_>) -> Vec<String> {
    #[derive(PartialEq)]
    enum Line {
        Vectors,
        Param(usize),
        Output(usize),
        Len,
    }
    let mut lines: Vec<(Line, String)> = Vec::new();
    for a in args {
        let line = match a {
            MapArg::Scalar { param } | MapArg::Buffer { param } | MapArg::Offset { param } => {
                Line::Param(param)
            }
            MapArg::Strides { .. } | MapArg::Shape => Line::Vectors,
            MapArg::Output { output } => Line::Output(output),
            MapArg::Ndim | MapArg::Len => Line::Len,
        };
        let text = a.declare(sig);
        match lines.last_mut() {
            Some((l, t)) if *l == line => {
                t.push_str(", ");
                t.push_str(&text);
            }
            _ => lines.push((line, text)),
        }
    }
    lines.into_iter().map(|(_, t)| t).collect()
}

/// `__kernel void NAME(\n    PARAMS) {\n`, a parameter line each; with
/// `group`, the function requires work-groups of that shape
/// (`reqd_work_group_size`).
pub fn entry_head(name: &str, lines: &[String], group: Option<[usize; 3]>) -> String {
    let attr = match group {
        Some([x, y, z]) => format!(" __attribute__((reqd_work_group_size({x}, {y}, {z})))\n"),
        None => " ".to_owned(),
    };
    format!(
        "__kernel{attr}void {name}(\n    {}) {{\n",
        lines.join(",\n    ")
    )
}

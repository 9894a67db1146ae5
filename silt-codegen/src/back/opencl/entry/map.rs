//! The map entry template: one work-item per element of the broadcast shape,
//! with three entry points per instantiation (contiguous views; any views
//! over at most three coalesced dimensions; any views).

use std::fmt::Write;

use silt_abi::opencl::{map_args, MapArg, MapEntry, Pass, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE};

use crate::back::opencl::function::Emitter;
use crate::back::opencl::names::entry_name;
use crate::back::opencl::polyfill::{load, store, Polyfill};
use crate::back::opencl::types::ClType;
use crate::ir::ParamKind;
use crate::ty::Ty;

/// `__kernel void NAME_TYPE(buffers..., ulong silt_n) { ... }`,
/// `__kernel void NAME_TYPE_strided3(...)` and
/// `__kernel void NAME_TYPE_strided(...)`: the entry point for contiguous
/// tensors (each at an offset), the one for any views (strides of 0
/// broadcast) over at most three coalesced dimensions, whose index code has no
/// branch, and the one for any views of any dimension count. The runtime
/// picks one per launch. All call the body function the emitter wrote.
pub(in crate::back::opencl) fn entry_points(e: &mut Emitter<'_>) -> String {
    MapEntry::ALL.map(|f| e.entry_point(f)).join("\n")
}

impl Emitter<'_> {
    /// The parameter list of an entry point, by the launch ABI
    /// ([`silt_abi::opencl::map_args`]): one line for the vectors (strides and
    /// shape), one per parameter (a view's buffer and offset together), per
    /// output, and one for the dimension count and the count.
    fn entry_args(&self, strided: bool) -> Vec<String> {
        let k = self.f;
        let pass = k.params.iter().map(|p| match p.kind {
            ParamKind::Input | ParamKind::InOut => Pass::Tensor,
            ParamKind::Scalar => Pass::Scalar,
            ParamKind::Index => Pass::Index,
        });
        // arguments on one line share a key: the vectors (strides and shape);
        // a view's buffer and offset; the dimension count and the count
        #[derive(PartialEq)]
        enum Line {
            Vectors,
            Param(usize),
            Output(usize),
            Len,
        }
        let mut lines: Vec<(Line, String)> = Vec::new();
        for a in map_args(pass, k.outputs.len(), strided) {
            let (line, text) = match a {
                MapArg::Scalar { param } => {
                    let st = k.params[param].ty.cl_storage();
                    (Line::Param(param), format!("{st} {}", self.params[param]))
                }
                MapArg::Buffer { param } => {
                    let p = &k.params[param];
                    let q = if p.kind == ParamKind::Input {
                        "const "
                    } else {
                        ""
                    };
                    let st = p.ty.cl_storage();
                    (
                        Line::Param(param),
                        format!("__global {q}{st}* {}", self.params[param]),
                    )
                }
                MapArg::Offset { param } => (
                    Line::Param(param),
                    format!("{COUNT_TYPE} silt_off_{}", self.params[param]),
                ),
                MapArg::Strides { param, .. } => (
                    Line::Vectors,
                    format!("{DIMS_TYPE} silt_st_{}", self.params[param]),
                ),
                MapArg::Output { output } => (
                    Line::Output(output),
                    format!(
                        "__global {}* silt_out{output}",
                        k.outputs[output].cl_storage()
                    ),
                ),
                MapArg::Shape => (Line::Vectors, format!("{DIMS_TYPE} silt_shape")),
                MapArg::Ndim => (Line::Len, format!("{NDIM_TYPE} silt_ndim")),
                MapArg::Len => (Line::Len, format!("{COUNT_TYPE} silt_n")),
            };
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

    fn entry_point(&mut self, form: MapEntry) -> String {
        let k = self.f;
        let strided = form.strided();
        let f16_params = k
            .params
            .iter()
            .any(|p| p.ty == Ty::F16 && p.kind != ParamKind::Index);
        if f16_params {
            self.polyfills.insert(Polyfill::F16Load);
        }
        if k.outputs.contains(&Ty::F16)
            || k.params
                .iter()
                .any(|p| p.ty == Ty::F16 && p.kind == ParamKind::InOut)
        {
            self.polyfills.insert(Polyfill::F16Bits);
        }
        let mut pre = Vec::new();
        let mut call = Vec::new();
        let mut post = Vec::new();
        let mut views = Vec::new();
        for (p, n) in k.params.iter().zip(self.params.clone()) {
            // the contiguous entry moves each pointer to its view's first element
            // once (indexing with `off + gid` measured 5-10% slower on PoCL)
            let at = if strided {
                format!("silt_i_{n}")
            } else {
                "silt_gid".to_owned()
            };
            match p.kind {
                ParamKind::Scalar => call.push(load(p.ty, n.clone())),
                ParamKind::Index => call.push("silt_gid".into()),
                ParamKind::Input => {
                    call.push(load(p.ty, format!("{n}[{at}]")));
                    views.push(n);
                }
                ParamKind::InOut => {
                    pre.push(format!(
                        "{} silt_v_{n} = {};",
                        p.ty.cl(),
                        load(p.ty, format!("{n}[{at}]"))
                    ));
                    call.push(format!("&silt_v_{n}"));
                    post.push(format!(
                        "{n}[{at}] = {};",
                        store(p.ty, format!("silt_v_{n}"))
                    ));
                    views.push(n);
                }
            }
        }
        let args = self.entry_args(strided);
        let name = format!("{}{}", entry_name(k), form.suffix());
        let mut s = format!("__kernel void {name}(\n    ");
        s.push_str(&args.join(",\n    "));
        s.push_str(") {\n");
        let names: Vec<String> = views.iter().map(ToString::to_string).collect();
        // the element of the work-item (x, y, z) in the (broadcast) shape, and
        // its index in each view
        if let Some(indices) = form.indices(&names) {
            s.push_str(&indices);
        } else {
            s.push_str(
                "    ulong silt_gid = get_global_id(0);\n    if (silt_gid >= silt_n) return;\n",
            );
            for n in &views {
                let _ = writeln!(s, "    {n} += silt_off_{n};");
            }
        }
        for l in pre {
            let _ = writeln!(s, "    {l}");
        }
        let call_expr = format!("{}({{}})", self.name);
        match k.outputs.len() {
            0 => {
                let _ = writeln!(s, "    {};", call_expr.replace("{}", &call.join(", ")));
            }
            1 => {
                let v = call_expr.replace("{}", &call.join(", "));
                let _ = writeln!(s, "    silt_out0[silt_gid] = {};", store(k.outputs[0], v));
            }
            _ => {
                for (i, t) in k.outputs.iter().enumerate() {
                    let _ = writeln!(s, "    {} silt_r{i};", t.cl());
                    call.push(format!("&silt_r{i}"));
                }
                let _ = writeln!(s, "    {};", call_expr.replace("{}", &call.join(", ")));
                for (i, t) in k.outputs.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "    silt_out{i}[silt_gid] = {};",
                        store(*t, format!("silt_r{i}"))
                    );
                }
            }
        }
        for l in post {
            let _ = writeln!(s, "    {l}");
        }
        s.push_str("}\n");
        s
    }
}

//! The map entry template: one work-item per element of the broadcast shape,
//! with three entry points per instantiation (contiguous views; any views
//! over at most three coalesced dimensions; any views).

use std::fmt::Write;

use silt_abi::opencl::{declare_map, entry_head, map_args, MapEntry, Signature};

use super::{passes, views};

use crate::back::opencl::function::Emitter;
use crate::back::opencl::names::entry_name;
use crate::back::opencl::polyfill::{load, store, Polyfill};
use crate::back::opencl::types::ClType;
use crate::ir::ParamKind;
use silt_abi::DType;

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
    fn entry_point(&mut self, form: MapEntry) -> String {
        let k = self.f;
        let strided = form.strided();
        let f16_params = k
            .params
            .iter()
            .any(|p| p.ty == DType::F16 && p.kind != ParamKind::Index);
        if f16_params {
            self.polyfills.insert(Polyfill::F16Load);
        }
        if k.outputs.contains(&DType::F16)
            || k.params
                .iter()
                .any(|p| p.ty == DType::F16 && p.kind == ParamKind::InOut)
        {
            self.polyfills.insert(Polyfill::F16Bits);
        }
        let mut pre = Vec::new();
        let mut call = Vec::new();
        let mut post = Vec::new();
        let mut names = Vec::new();
        for (p, n) in k.params.iter().zip(self.params.clone()) {
            // the contiguous entry moves each pointer to its view's first element
            // once (MapEntry::prologue)
            let at = if strided {
                format!("silt_i_{n}")
            } else {
                "silt_gid".to_owned()
            };
            match p.kind {
                ParamKind::Scalar => call.push(load(p.ty, n.clone())),
                ParamKind::Index => call.push("silt_gid".into()),
                // not parameters of a map (the checker keeps views to grids)
                ParamKind::View(_) | ParamKind::ViewMut(_) => {}
                ParamKind::Input => {
                    call.push(load(p.ty, format!("{n}[{at}]")));
                    names.push(n);
                }
                ParamKind::InOut => {
                    pre.push(format!(
                        "{} silt_v_{n} = {};",
                        p.ty.value_type(),
                        load(p.ty, format!("{n}[{at}]"))
                    ));
                    call.push(format!("&silt_v_{n}"));
                    post.push(format!(
                        "{n}[{at}] = {};",
                        store(p.ty, format!("silt_v_{n}"))
                    ));
                    names.push(n);
                }
            }
        }
        let views = views(k, &self.params);
        let sig = Signature {
            params: &views,
            acc: &[],
            outputs: &k.outputs,
        };
        let lines = declare_map(map_args(passes(k), k.outputs.len(), strided), &sig);
        let name = format!("{}{}", entry_name(k), form.suffix());
        let mut s = entry_head(&name, &lines, None);
        // the element of the work-item (x, y, z) in the (broadcast) shape, and
        // its index in each view
        s.push_str(&form.prologue(&names));
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
                    let _ = writeln!(s, "    {} silt_r{i};", t.value_type());
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

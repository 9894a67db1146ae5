//! The scan entry template: one entry point, `NAME_TYPE_scan`, whose phase
//! argument makes it write the chunks' totals, turn them into prefixes, or
//! write the inclusive or exclusive scan, in the order `silt_abi::opencl`
//! fixes (`SCAN_CHUNK`).

use std::fmt::Write;

use silt_abi::opencl::{
    scan_args, scan_phase, Pass, ScanArg, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE, SCAN_CHUNK,
};

use super::reduce::{part_functions, Template};
use crate::back::opencl::function::Emitter;
use crate::back::opencl::polyfill::{load, store, Polyfill};
use crate::back::opencl::types::ClType;
use crate::ir::{ParamKind, Reduce};

/// The functions `identity`, `combine` and `finish`, then the entry point.
pub(in crate::back::opencl) fn entry_points(e: &mut Emitter<'_>, r: &Reduce) -> String {
    let mut out = part_functions(e, r);
    let t = Template::new(e, r);
    if t.uses_f16() {
        e.polyfills.insert(Polyfill::F16Load);
        e.polyfills.insert(Polyfill::F16Bits);
    }
    out.push_str(&scan(&t));
    out
}

fn scan(t: &Template<'_>) -> String {
    let f = t.map;
    let n = t.acc.len();
    let pass = f.params.iter().map(|p| match p.kind {
        ParamKind::Input | ParamKind::InOut => Pass::Tensor,
        ParamKind::Scalar => Pass::Scalar,
        ParamKind::Index => Pass::Index,
    });
    let mut args = Vec::new();
    for a in scan_args(pass, n, t.out.len()) {
        args.push(match a {
            ScanArg::Scalar { param } => {
                format!("{} {}", f.params[param].ty.cl_storage(), t.params[param])
            }
            ScanArg::Buffer { param } => format!(
                "__global const {}* {}",
                f.params[param].ty.cl_storage(),
                t.params[param]
            ),
            ScanArg::Offset { param } => format!("{COUNT_TYPE} silt_off_{}", t.params[param]),
            ScanArg::Strides { param, .. } => format!("{DIMS_TYPE} silt_st_{}", t.params[param]),
            ScanArg::Acc { component } => format!(
                "__global {}* silt_acc{component}",
                t.acc[component].cl_storage()
            ),
            ScanArg::Out { output } => {
                format!("__global {}* silt_out{output}", t.out[output].cl_storage())
            }
            ScanArg::OutStrides => format!("{DIMS_TYPE} silt_ost"),
            ScanArg::Shape => format!("{DIMS_TYPE} silt_shape"),
            ScanArg::Ndim => format!("{NDIM_TYPE} silt_ndim"),
            ScanArg::Rows => format!("{COUNT_TYPE} silt_rows"),
            ScanArg::Len => format!("{COUNT_TYPE} silt_len"),
            ScanArg::Chunks => format!("{COUNT_TYPE} silt_chunks"),
            ScanArg::Phase => format!("{NDIM_TYPE} silt_phase"),
        });
    }
    let views: Vec<&String> = f
        .params
        .iter()
        .zip(&t.params)
        .filter(|(p, _)| matches!(p.kind, ParamKind::Input | ParamKind::InOut))
        .map(|(_, n)| n)
        .collect();
    let mut s = format!(
        "__kernel void {}_scan(\n    {}) {{\n",
        t.entry,
        args.join(",\n    ")
    );
    s.push_str("    ulong silt_gid = get_global_id(0);\n");
    // phase 1: a row's chunk totals into prefixes, in place
    let _ = writeln!(s, "    if (silt_phase == {}u) {{", scan_phase::PREFIXES);
    s.push_str("        if (silt_gid >= silt_rows) return;\n        ulong silt_base = silt_gid * silt_chunks;\n");
    t.declare(&mut s, "        ", "silt_p");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "        silt_p{i} = {};",
            load(*ty, format!("silt_acc{i}[silt_base]"))
        );
    }
    s.push_str("        for (ulong silt_c = 1; silt_c < silt_chunks; silt_c++) {\n");
    t.declare(&mut s, "            ", "silt_q");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "            silt_q{i} = {};\n            silt_acc{i}[silt_base + silt_c] = {};",
            load(*ty, format!("silt_acc{i}[silt_base + silt_c]")),
            store(*ty, format!("silt_p{i}"))
        );
    }
    t.combine_into(
        &mut s,
        "            ",
        &Template::vars("silt_p", n),
        &Template::vars("silt_q", n),
    );
    s.push_str("        }\n        return;\n    }\n");
    // the others: one work-item per (row, chunk)
    s.push_str("    if (silt_gid >= silt_rows * silt_chunks) return;\n");
    s.push_str("    ulong silt_row = silt_gid / silt_chunks;\n    ulong silt_chunk = silt_gid - silt_row * silt_chunks;\n");
    let d = silt_abi::MAX_DIMS;
    let _ = writeln!(
        s,
        "    ulong silt_dims[{d}];\n    vstore{d}(silt_shape, 0, silt_dims);\n    ulong silt_so[{d}];\n    vstore{d}(silt_ost, 0, silt_so);\n    ulong silt_bo = 0;"
    );
    for v in &views {
        let _ = writeln!(
            s,
            "    ulong silt_s_{v}[{d}];\n    vstore{d}(silt_st_{v}, 0, silt_s_{v});\n    ulong silt_b_{v} = silt_off_{v};"
        );
    }
    s.push_str("    {\n        ulong silt_rest = silt_row;\n        for (uint silt_d = silt_ndim - 1u; silt_d-- > 0u;) {\n");
    s.push_str("            ulong silt_c = silt_rest % silt_dims[silt_d];\n            silt_rest /= silt_dims[silt_d];\n            silt_bo += silt_c * silt_so[silt_d];\n");
    for v in &views {
        let _ = writeln!(s, "            silt_b_{v} += silt_c * silt_s_{v}[silt_d];");
    }
    s.push_str("        }\n    }\n");
    let _ = writeln!(
        s,
        "    ulong silt_first = silt_chunk * {SCAN_CHUNK}UL;\n    ulong silt_end = min(silt_first + {SCAN_CHUNK}UL, silt_len);"
    );
    // map's arguments for element silt_k
    let map_args: Vec<String> = f
        .params
        .iter()
        .zip(&t.params)
        .map(|(p, n)| match p.kind {
            ParamKind::Scalar => load(p.ty, n.clone()),
            ParamKind::Index => "silt_k".to_owned(),
            ParamKind::Input | ParamKind::InOut => load(
                p.ty,
                format!("{n}[silt_b_{n} + silt_k * silt_s_{n}[silt_ndim - 1u]]"),
            ),
        })
        .collect();
    // phase 0: the chunk's total
    let _ = writeln!(s, "    if (silt_phase == {}u) {{", scan_phase::TOTALS);
    t.declare(&mut s, "        ", "silt_l");
    s.push_str("        ulong silt_k = silt_first;\n");
    let _ = writeln!(s, "        {}", t.call(0, &map_args, "silt_l", n));
    s.push_str("        for (silt_k = silt_first + 1; silt_k < silt_end; silt_k++) {\n");
    t.declare(&mut s, "            ", "silt_m");
    let _ = writeln!(s, "            {}", t.call(0, &map_args, "silt_m", n));
    t.combine_into(
        &mut s,
        "            ",
        &Template::vars("silt_l", n),
        &Template::vars("silt_m", n),
    );
    s.push_str("        }\n");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "        silt_acc{i}[silt_gid] = {};",
            store(*ty, format!("silt_l{i}"))
        );
    }
    s.push_str("        return;\n    }\n");
    // phases 2 and 3: the scan written
    let _ = writeln!(
        s,
        "    int silt_exclusive = silt_phase == {}u;",
        scan_phase::EXCLUSIVE
    );
    t.declare(&mut s, "    ", "silt_p");
    s.push_str("    if (silt_chunk > 0) {\n");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "        silt_p{i} = {};",
            load(*ty, format!("silt_acc{i}[silt_gid]"))
        );
    }
    s.push_str("    } else {\n");
    let _ = writeln!(s, "        {}", t.call(1, &[], "silt_p", n));
    s.push_str("    }\n");
    t.declare(&mut s, "    ", "silt_l");
    s.push_str("    for (ulong silt_k = silt_first; silt_k < silt_end; silt_k++) {\n");
    t.declare(&mut s, "        ", "silt_m");
    let _ = writeln!(s, "        {}", t.call(0, &map_args, "silt_m", n));
    // the value before element silt_k (exclusive), then with it (inclusive)
    s.push_str("        if (silt_exclusive) {\n");
    t.declare(&mut s, "            ", "silt_v");
    s.push_str("            if (silt_k == silt_first) {\n");
    for i in 0..n {
        let _ = writeln!(s, "                silt_v{i} = silt_p{i};");
    }
    s.push_str("            } else if (silt_chunk > 0) {\n");
    let mut both = Template::vars("silt_p", n);
    both.extend(Template::vars("silt_l", n));
    let _ = writeln!(s, "                {}", t.call(2, &both, "silt_v", n));
    s.push_str("            } else {\n");
    for i in 0..n {
        let _ = writeln!(s, "                silt_v{i} = silt_l{i};");
    }
    s.push_str("            }\n");
    finish_into(t, &mut s, "            ", "silt_k");
    s.push_str("        }\n");
    // the running value of the chunk
    s.push_str("        if (silt_k == silt_first) {\n");
    for i in 0..n {
        let _ = writeln!(s, "            silt_l{i} = silt_m{i};");
    }
    s.push_str("        } else {\n");
    t.combine_into(
        &mut s,
        "            ",
        &Template::vars("silt_l", n),
        &Template::vars("silt_m", n),
    );
    s.push_str("        }\n        if (!silt_exclusive) {\n");
    t.declare(&mut s, "            ", "silt_v");
    s.push_str("            if (silt_chunk > 0) {\n");
    let _ = writeln!(s, "                {}", t.call(2, &both, "silt_v", n));
    s.push_str("            } else {\n");
    for i in 0..n {
        let _ = writeln!(s, "                silt_v{i} = silt_l{i};");
    }
    s.push_str("            }\n");
    finish_into(t, &mut s, "            ", "silt_k + 1");
    s.push_str("        }\n    }\n}\n");
    s
}

/// `silt_outN[element silt_k] = finish(silt_v, count)`.
fn finish_into(t: &Template<'_>, s: &mut String, indent: &str, count: &str) {
    for (i, ty) in t.out.iter().enumerate() {
        let _ = writeln!(s, "{indent}{} silt_o{i};", ty.cl());
    }
    let mut args = Template::vars("silt_v", t.acc.len());
    args.push(count.to_owned());
    let _ = writeln!(s, "{indent}{}", t.call(3, &args, "silt_o", t.out.len()));
    for (i, ty) in t.out.iter().enumerate() {
        let _ = writeln!(
            s,
            "{indent}silt_out{i}[silt_bo + silt_k * silt_so[silt_ndim - 1u]] = {};",
            store(*ty, format!("silt_o{i}"))
        );
    }
}

//! The scan entry template: an entry point, `NAME_TYPE_scan`, whose phase
//! argument makes it write the chunks' (or segments') totals, turn them into
//! prefixes, or write the inclusive or exclusive scan, in the order
//! `silt_abi::opencl` fixes (`SCAN_CHUNK`), a work-item per (row, chunk) cell
//! walking the chunk's segments, or per (row, chunk, segment) cell
//! (`SCAN_SEGMENTS`); and one with the
//! same arguments, `NAME_TYPE_scan_blocks`, for the totals and the scan
//! written in blocks of rows (`SCAN_ROW_BLOCKS`): a block's rows side by
//! side, each row's values in arrays, the rows a stride apart. The blocks
//! have an entry point of their own because their arrays, in the same
//! function, slowed PoCL's one-row work-items by a third.

use std::fmt::Write;

use silt_abi::opencl::{
    declare, entry_head, scan_args, scan_phase, Signature, SCAN_CHUNK, SCAN_ROWS_FASTEST,
    SCAN_ROW_BLOCK, SCAN_SEGMENT, SCAN_SEGMENTS, SCAN_SEGMENTS_PER_CHUNK,
};

use super::reduce::{part_functions, Template};
use super::scan_write::write_segment;
use super::{passes, views};
use crate::back::opencl::function::Emitter;
use crate::back::opencl::polyfill::{load, store, Polyfill};
use crate::back::opencl::types::ClType;
use crate::ir::{ParamKind, Reduce};
use silt_abi::opencl::FoldEntry;

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
    let params = views(f, &t.params);
    let sig = Signature {
        params: &params,
        acc: &t.acc,
        outputs: &t.out,
    };
    let args = declare(scan_args(passes(f), n, t.out.len()), &sig);
    let views: Vec<&String> = f
        .params
        .iter()
        .zip(&t.params)
        .filter(|(p, _)| matches!(p.kind, ParamKind::Input | ParamKind::InOut))
        .map(|(_, n)| n)
        .collect();
    let header = |which: FoldEntry| {
        let mut s = entry_head(&format!("{}{}", t.entry, which.suffix()), &args, None);
        s.push_str("    ulong silt_gid = get_global_id(0);\n");
        s
    };
    let seg = SCAN_SEGMENT;
    let per_chunk = SCAN_SEGMENTS_PER_CHUNK;
    let mut s = header(FoldEntry::Scan);
    // phase 1: a row's chunk totals into prefixes, in place
    let _ = writeln!(s, "    if (silt_phase == {}u) {{", scan_phase::PREFIXES);
    s.push_str("        if (silt_gid >= silt_rows) return;\n        ulong silt_base = silt_gid * silt_chunks;\n        ulong silt_n = silt_chunks;\n");
    fold_slots(t, &mut s, None);
    s.push_str("        return;\n    }\n");
    // phase 4: a chunk's segment totals into prefixes in place, and the
    // chunk's total into its slot
    let _ = writeln!(
        s,
        "    if (silt_phase == {}u) {{",
        scan_phase::SEGMENT_PREFIXES
    );
    let _ = writeln!(
        s,
        "        if (silt_gid >= silt_rows * silt_chunks) return;\n        ulong silt_c0 = silt_gid % silt_chunks * {SCAN_CHUNK}UL;\n        ulong silt_n = (min(silt_c0 + {SCAN_CHUNK}UL, silt_len) - silt_c0 + {}UL) / {seg}UL;\n        ulong silt_base = silt_rows * silt_chunks + silt_gid * {per_chunk}UL;",
        seg - 1
    );
    fold_slots(t, &mut s, Some("silt_gid"));
    s.push_str("        return;\n    }\n");
    // the others: one work-item per cell
    s.push_str(&cells(&views, false));
    // map's arguments for element silt_k of the row at silt_b_*, and of row
    // silt_j of a block
    let map_args = |lane: bool| -> Vec<String> {
        f.params
            .iter()
            .zip(&t.params)
            .map(|(p, n)| match p.kind {
                ParamKind::Scalar => load(p.ty, n.clone()),
                ParamKind::Index => "silt_k".to_owned(),
                ParamKind::Input
                | ParamKind::InOut
                | ParamKind::View(_)
                | ParamKind::ViewMut(_) => {
                    let row = if lane {
                        format!(" + silt_j * silt_rs_{n}")
                    } else {
                        String::new()
                    };
                    load(p.ty, format!("{n}[silt_b_{n}{row} + silt_k * silt_sk_{n}]"))
                }
            })
            .collect()
    };
    let lane_args = map_args(true);
    let row_args = map_args(false);
    // each segment of the work-item's elements, silt_sf to silt_se
    let each_segment =
        format!("for (ulong silt_sf = silt_f0; silt_sf < silt_e0; silt_sf += {seg}UL) {{");
    let segment_end = format!("ulong silt_se = min(silt_sf + {seg}UL, silt_e0);");
    // the blocks' entry point: a block's rows side by side, each row's values
    // in arrays (the last block of a run ends at the run's end, overlapping
    // the one before: the rows they share are written twice with the same
    // bits)
    let rows = s;
    let mut s = header(FoldEntry::ScanBlocks);
    s.push_str(&cells(&views, true));
    let b = SCAN_ROW_BLOCK;
    s.push_str("    {\n        ulong silt_rso = silt_so[silt_ndim - 2u];\n");
    for v in &views {
        let _ = writeln!(s, "        ulong silt_rs_{v} = silt_s_{v}[silt_ndim - 2u];");
    }
    bases(&mut s, &views, "silt_r0");
    let lanes = |s: &mut String, indent: &str, var: &str| {
        for (i, ty) in t.acc.iter().enumerate() {
            let _ = writeln!(s, "{indent}{} {var}{i}[{b}];", ty.value_type());
        }
    };
    // zeros never read, as `Template::declare_zeroed`'s (the arrays were not
    // seen to fail; they follow the same pattern)
    let zeroed_lanes = |s: &mut String, indent: &str, var: &str| {
        for (i, ty) in t.acc.iter().enumerate() {
            let _ = writeln!(s, "{indent}{} {var}{i}[{b}] = {{0}};", ty.value_type());
        }
    };
    let each_lane = format!("for (uint silt_j = 0; silt_j < {b}u; silt_j++) {{");
    let cell = "(silt_r0 + silt_j) * silt_chunks + silt_chunk";
    let get = |s: &mut String, indent: &str, var: &str, from: &str| {
        t.declare(s, indent, var);
        for i in 0..n {
            let _ = writeln!(s, "{indent}{var}{i} = {from}{i}[silt_j];");
        }
    };
    let put = |s: &mut String, indent: &str, to: &str, var: &str| {
        for i in 0..n {
            let _ = writeln!(s, "{indent}{to}{i}[silt_j] = {var}{i};");
        }
    };
    // phase 0, a block: each row's segments folded, their totals folded
    let _ = writeln!(s, "        if (silt_phase == {}u) {{", scan_phase::TOTALS);
    zeroed_lanes(&mut s, "            ", "silt_ta");
    lanes(&mut s, "            ", "silt_la");
    let _ = writeln!(
        s,
        "            {each_segment}\n                {segment_end}"
    );
    let _ = writeln!(
        s,
        "                {each_lane}\n                    ulong silt_k = silt_sf;"
    );
    t.declare(&mut s, "                    ", "silt_m");
    let _ = writeln!(
        s,
        "                    {}",
        t.call(0, &lane_args, "silt_m", n)
    );
    put(&mut s, "                    ", "silt_la", "silt_m");
    s.push_str("                }\n                for (ulong silt_k = silt_sf + 1; silt_k < silt_se; silt_k++) {\n");
    let _ = writeln!(s, "                    {each_lane}");
    t.declare(&mut s, "                        ", "silt_m");
    let _ = writeln!(
        s,
        "                        {}",
        t.call(0, &lane_args, "silt_m", n)
    );
    get(&mut s, "                        ", "silt_l", "silt_la");
    t.combine_into(
        &mut s,
        "                        ",
        &Template::vars("silt_l", n),
        &Template::vars("silt_m", n),
    );
    put(&mut s, "                        ", "silt_la", "silt_l");
    s.push_str("                    }\n                }\n");
    let _ = writeln!(s, "                {each_lane}");
    get(&mut s, "                    ", "silt_l", "silt_la");
    s.push_str("                    if (silt_sf == silt_f0) {\n");
    put(&mut s, "                        ", "silt_ta", "silt_l");
    s.push_str("                    } else {\n");
    get(&mut s, "                        ", "silt_t", "silt_ta");
    t.combine_into(
        &mut s,
        "                        ",
        &Template::vars("silt_t", n),
        &Template::vars("silt_l", n),
    );
    put(&mut s, "                        ", "silt_ta", "silt_t");
    s.push_str("                    }\n                }\n            }\n");
    let _ = writeln!(s, "            {each_lane}");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "                silt_acc{i}[{cell}] = {};",
            store(*ty, format!("silt_ta{i}[silt_j]"))
        );
    }
    s.push_str("            }\n            return;\n        }\n");
    // phases 2 and 3, a block
    lanes(&mut s, "        ", "silt_pa");
    lanes(&mut s, "        ", "silt_qa");
    lanes(&mut s, "        ", "silt_ba");
    lanes(&mut s, "        ", "silt_la");
    let _ = writeln!(s, "        {each_lane}");
    prefix(t, &mut s, "            ", cell);
    put(&mut s, "            ", "silt_pa", "silt_p");
    // any values: the first segment and element replace them
    put(&mut s, "            ", "silt_qa", "silt_p");
    put(&mut s, "            ", "silt_la", "silt_p");
    let _ = writeln!(
        s,
        "        }}\n        {each_segment}\n            {segment_end}"
    );
    s.push_str("            int silt_hq = silt_sf > silt_first;\n            int silt_hb = silt_hq || silt_chunk > 0;\n");
    let _ = writeln!(s, "            {each_lane}");
    get(&mut s, "                ", "silt_p", "silt_pa");
    get(&mut s, "                ", "silt_q", "silt_qa");
    segment_prefix(t, &mut s, "                ");
    put(&mut s, "                ", "silt_ba", "silt_b");
    s.push_str("            }\n");
    write_segment(
        t,
        &mut s,
        "            ",
        &lane_args,
        "silt_bo + silt_j * silt_rso + silt_k * silt_sko",
        true,
    );
    let _ = writeln!(s, "            {each_lane}");
    get(&mut s, "                ", "silt_q", "silt_qa");
    get(&mut s, "                ", "silt_l", "silt_la");
    fold_q(t, &mut s, "                ");
    put(&mut s, "                ", "silt_qa", "silt_q");
    s.push_str("            }\n        }\n    }\n}\n");
    let blocks = s;
    let mut s = rows;
    // one row: a whole chunk, or one segment of it
    s.push_str("    {\n        ulong silt_row = silt_r0;\n        ulong silt_cell = silt_row * silt_chunks + silt_chunk;\n");
    bases(&mut s, &views, "silt_row");
    // phase 0: the chunk's (or the segment's) total
    let _ = writeln!(s, "        if (silt_phase == {}u) {{", scan_phase::TOTALS);
    t.declare_zeroed(&mut s, "            ", "silt_t");
    let _ = writeln!(
        s,
        "            {each_segment}\n                {segment_end}"
    );
    t.declare(&mut s, "                ", "silt_l");
    s.push_str("                ulong silt_k = silt_sf;\n");
    let _ = writeln!(s, "                {}", t.call(0, &row_args, "silt_l", n));
    s.push_str("                for (silt_k = silt_sf + 1; silt_k < silt_se; silt_k++) {\n");
    t.declare(&mut s, "                    ", "silt_m");
    let _ = writeln!(
        s,
        "                    {}",
        t.call(0, &row_args, "silt_m", n)
    );
    t.combine_into(
        &mut s,
        "                    ",
        &Template::vars("silt_l", n),
        &Template::vars("silt_m", n),
    );
    s.push_str("                }\n                if (silt_sf == silt_f0) {\n");
    for i in 0..n {
        let _ = writeln!(s, "                    silt_t{i} = silt_l{i};");
    }
    s.push_str("                } else {\n");
    t.combine_into(
        &mut s,
        "                    ",
        &Template::vars("silt_t", n),
        &Template::vars("silt_l", n),
    );
    s.push_str("                }\n            }\n");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "            silt_acc{i}[silt_slot] = {};",
            store(*ty, format!("silt_t{i}"))
        );
    }
    s.push_str("            return;\n        }\n");
    // phases 2 and 3: the scan written
    prefix(t, &mut s, "        ", "silt_cell");
    // Q_s of the first segment, read from its slot unless it is the chunk's
    // first
    t.declare_zeroed(&mut s, "        ", "silt_q");
    s.push_str("        if (silt_f0 > silt_first) {\n");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "            silt_q{i} = {};",
            load(*ty, format!("silt_acc{i}[silt_slot]"))
        );
    }
    s.push_str("        }\n");
    let _ = writeln!(s, "        {each_segment}\n            {segment_end}");
    s.push_str("            int silt_hq = silt_sf > silt_first;\n            int silt_hb = silt_hq || silt_chunk > 0;\n");
    segment_prefix(t, &mut s, "            ");
    t.declare(&mut s, "            ", "silt_l");
    write_segment(
        t,
        &mut s,
        "            ",
        &row_args,
        "silt_bo + silt_k * silt_sko",
        false,
    );
    fold_q(t, &mut s, "            ");
    s.push_str("        }\n    }\n}\n\n");
    s.push_str(&blocks);
    s
}

/// Folds `silt_n` slots from `silt_acc*[silt_base]` left to right in place:
/// slot `c` gets the fold of the slots before it (slot 0 is left as it is);
/// with `total`, the fold of all of them is stored at that chunk slot.
fn fold_slots(t: &Template<'_>, s: &mut String, total: Option<&str>) {
    let n = t.acc.len();
    t.declare(s, "        ", "silt_p");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "        silt_p{i} = {};",
            load(*ty, format!("silt_acc{i}[silt_base]"))
        );
    }
    s.push_str("        for (ulong silt_c = 1; silt_c < silt_n; silt_c++) {\n");
    t.declare(s, "            ", "silt_q");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "            silt_q{i} = {};\n            silt_acc{i}[silt_base + silt_c] = {};",
            load(*ty, format!("silt_acc{i}[silt_base + silt_c]")),
            store(*ty, format!("silt_p{i}"))
        );
    }
    t.combine_into(
        s,
        "            ",
        &Template::vars("silt_p", n),
        &Template::vars("silt_q", n),
    );
    s.push_str("        }\n");
    if let Some(at) = total {
        for (i, ty) in t.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "        silt_acc{i}[{at}] = {};",
                store(*ty, format!("silt_p{i}"))
            );
        }
    }
}

/// Declares `silt_b`, the prefix of the segment at `silt_sf`: `combine(P_c,
/// Q_s)` from `silt_p` and `silt_q`, either alone where the other is absent
/// (`silt_hq`: a segment before this one in the chunk; any value where
/// `silt_hb` says there is none: `silt_p`, which is then `identity()`).
fn segment_prefix(t: &Template<'_>, s: &mut String, indent: &str) {
    let n = t.acc.len();
    t.declare(s, indent, "silt_b");
    let _ = writeln!(s, "{indent}if (silt_hq && silt_chunk > 0) {{");
    let mut both = Template::vars("silt_p", n);
    both.extend(Template::vars("silt_q", n));
    let _ = writeln!(s, "{indent}    {}", t.call(2, &both, "silt_b", n));
    let _ = writeln!(s, "{indent}}} else if (silt_hq) {{");
    for i in 0..n {
        let _ = writeln!(s, "{indent}    silt_b{i} = silt_q{i};");
    }
    let _ = writeln!(s, "{indent}}} else {{");
    for i in 0..n {
        let _ = writeln!(s, "{indent}    silt_b{i} = silt_p{i};");
    }
    let _ = writeln!(s, "{indent}}}");
}

/// `silt_q` folds the segment's total `silt_l` (or starts from it in the
/// chunk's first segment).
fn fold_q(t: &Template<'_>, s: &mut String, indent: &str) {
    let n = t.acc.len();
    let _ = writeln!(s, "{indent}if (silt_sf > silt_first) {{");
    t.combine_into(
        s,
        &format!("{indent}    "),
        &Template::vars("silt_q", n),
        &Template::vars("silt_l", n),
    );
    let _ = writeln!(s, "{indent}}} else {{");
    for i in 0..n {
        let _ = writeln!(s, "{indent}    silt_q{i} = silt_l{i};");
    }
    let _ = writeln!(s, "{indent}}}");
}

/// What both entry points do first for the phases over cells: the shape and
/// strides into arrays, which cell this work-item takes (one row's, or with
/// `blocks` a block of rows' from `silt_r0`), the chunk's elements
/// (`silt_first` to `silt_end`), the work-item's (`silt_f0` to `silt_e0`: the
/// chunk's, or with `SCAN_SEGMENTS` one segment's) and its slot
/// (`silt_slot`: the chunk's, or the segment's), the scanned dimension's
/// strides and whether the scan is exclusive.
fn cells(views: &[&String], blocks: bool) -> String {
    let mut s = String::new();
    let d = silt_abi::MAX_DIMS;
    let _ = writeln!(
        s,
        "    ulong silt_dims[{d}];\n    vstore{d}(silt_shape, 0, silt_dims);\n    ulong silt_so[{d}];\n    vstore{d}(silt_ost, 0, silt_so);"
    );
    for v in views {
        let _ = writeln!(
            s,
            "    ulong silt_s_{v}[{d}];\n    vstore{d}(silt_st_{v}, 0, silt_s_{v});"
        );
    }
    let b = SCAN_ROW_BLOCK;
    let seg = SCAN_SEGMENT;
    if blocks {
        // runs of the innermost kept dimension, each ceil(run / b) blocks
        let _ = writeln!(
            s,
            "    if (silt_ndim < 2u || silt_dims[silt_ndim - 2u] < {b}UL) return;\n    ulong silt_run = silt_dims[silt_ndim - 2u];\n    ulong silt_per_run = (silt_run + {}UL) / {b}UL;\n    ulong silt_units = silt_rows / silt_run * silt_per_run;",
            b - 1
        );
        s.push_str("    if (silt_gid >= silt_units * silt_chunks) return;\n");
    } else {
        // with segments, each cell's segments (fewer than a chunk's in a
        // row shorter than a chunk)
        let _ = writeln!(
            s,
            "    ulong silt_units = silt_rows;\n    ulong silt_segs = (silt_mapping & {SCAN_SEGMENTS}u) ? (min(silt_len, {SCAN_CHUNK}UL) + {}UL) / {seg}UL : 1UL;\n    if (silt_gid / silt_segs >= silt_units * silt_chunks) return;\n    ulong silt_cg = silt_gid / silt_segs;\n    ulong silt_sg = silt_gid - silt_cg * silt_segs;",
            seg - 1
        );
    }
    let g = if blocks { "silt_gid" } else { "silt_cg" };
    let _ = writeln!(
        s,
        "    ulong silt_unit;\n    ulong silt_chunk;\n    if (silt_mapping & {SCAN_ROWS_FASTEST}u) {{\n        silt_chunk = {g} / silt_units;\n        silt_unit = {g} - silt_chunk * silt_units;\n    }} else {{\n        silt_unit = {g} / silt_chunks;\n        silt_chunk = {g} - silt_unit * silt_chunks;\n    }}"
    );
    if blocks {
        let _ = writeln!(
            s,
            "    ulong silt_q = silt_unit / silt_per_run;\n    ulong silt_b = silt_unit - silt_q * silt_per_run;\n    ulong silt_r0 = silt_q * silt_run + min(silt_b * {b}UL, silt_run - {b}UL);"
        );
    } else {
        s.push_str("    ulong silt_r0 = silt_unit;\n");
    }
    let _ = writeln!(
        s,
        "    ulong silt_first = silt_chunk * {SCAN_CHUNK}UL;\n    ulong silt_end = min(silt_first + {SCAN_CHUNK}UL, silt_len);"
    );
    if blocks {
        s.push_str("    ulong silt_f0 = silt_first;\n    ulong silt_e0 = silt_end;\n");
    } else {
        let _ = writeln!(
            s,
            "    ulong silt_f0 = silt_first;\n    ulong silt_e0 = silt_end;\n    ulong silt_slot = silt_r0 * silt_chunks + silt_chunk;\n    if (silt_mapping & {SCAN_SEGMENTS}u) {{\n        silt_f0 = silt_first + silt_sg * {seg}UL;\n        if (silt_f0 >= silt_end) return;\n        silt_e0 = min(silt_f0 + {seg}UL, silt_end);\n        silt_slot = silt_rows * silt_chunks + silt_slot * {SCAN_SEGMENTS_PER_CHUNK}UL + silt_sg;\n    }}"
        );
    }
    s.push_str("    ulong silt_sko = silt_so[silt_ndim - 1u];\n");
    for v in views {
        let _ = writeln!(s, "    ulong silt_sk_{v} = silt_s_{v}[silt_ndim - 1u];");
    }
    let _ = writeln!(
        s,
        "    int silt_exclusive = silt_phase == {}u;",
        scan_phase::EXCLUSIVE
    );
    s
}

/// Declares `silt_p`, the prefix of this work-item's chunk of the row whose
/// cell is `cell`: its slot of the prefixes, or `identity` for a row's first
/// chunk.
fn prefix(t: &Template<'_>, s: &mut String, indent: &str, cell: &str) {
    t.declare(s, indent, "silt_p");
    let _ = writeln!(s, "{indent}if (silt_chunk > 0) {{");
    for (i, ty) in t.acc.iter().enumerate() {
        let _ = writeln!(
            s,
            "{indent}    silt_p{i} = {};",
            load(*ty, format!("silt_acc{i}[{cell}]"))
        );
    }
    let _ = writeln!(s, "{indent}}} else {{");
    let _ = writeln!(s, "{indent}    {}", t.call(1, &[], "silt_p", t.acc.len()));
    let _ = writeln!(s, "{indent}}}");
}

/// Declares `silt_bo` and each view's `silt_b_*`: where the outputs' and the
/// views' elements of row `row` start.
fn bases(s: &mut String, views: &[&String], row: &str) {
    s.push_str("        ulong silt_bo = 0;\n");
    for v in views {
        let _ = writeln!(s, "        ulong silt_b_{v} = silt_off_{v};");
    }
    let _ = writeln!(
        s,
        "        {{\n            ulong silt_rest = {row};\n            for (uint silt_d = silt_ndim - 1u; silt_d-- > 0u;) {{"
    );
    s.push_str("                ulong silt_c = silt_rest % silt_dims[silt_d];\n                silt_rest /= silt_dims[silt_d];\n                silt_bo += silt_c * silt_so[silt_d];\n");
    for v in views {
        let _ = writeln!(
            s,
            "                silt_b_{v} += silt_c * silt_s_{v}[silt_d];"
        );
    }
    s.push_str("            }\n        }\n");
}

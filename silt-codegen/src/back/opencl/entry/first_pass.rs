//! A reduction's first pass (`NAME_TYPE_reduce`, and `NAME_TYPE_reduce_strided`
//! for views of any strides): each lane's fold of its elements, written to
//! the accumulator's buffers (or, for whole rows, combined and finished into
//! the outputs), with the work shared out among work-items in the ways
//! `silt_abi::opencl::ReduceArg::Mapping` names.

use std::fmt::Write;

use silt_abi::opencl::{
    declare, entry_head, reduce_args, Signature, REDUCE_LANES, REDUCE_TILE, ROWS_FASTEST,
    ROW_BLOCK, ROW_BLOCKS, TILE_BLOCK, TILE_BLOCKS, WHOLE_TILES,
};

use crate::back::opencl::polyfill::{load, store};
use crate::ir::ParamKind;
use silt_abi::opencl::FoldEntry;
use silt_abi::DType;

use super::reduce::{from_local, local_type, to_local, Template};
use super::{passes, views};

impl Template<'_> {
    /// The first pass over the elements: one work-item per lane, contiguous
    /// rows or (`strided`) views of any strides over the shape of kept then
    /// reduced dimensions; each lane's value goes to the accumulator's buffers
    /// (with `WHOLE_ROWS`, the row's finished result to the outputs).
    pub(super) fn first_pass(&self, strided: bool) -> String {
        let f = self.map;
        let params = views(f, &self.params);
        let sig = Signature {
            params: &params,
            acc: &self.acc,
            outputs: &self.out,
        };
        let args = declare(
            reduce_args(passes(f), self.acc.len(), self.out.len(), strided),
            &sig,
        );
        let views: Vec<&String> = f
            .params
            .iter()
            .zip(&self.params)
            .filter(|(p, _)| matches!(p.kind, ParamKind::Input | ParamKind::InOut))
            .map(|(_, n)| n)
            .collect();
        let which = if strided {
            FoldEntry::ReduceStrided
        } else {
            FoldEntry::Reduce
        };
        let name = format!("{}{}", self.entry, which.suffix());
        let mut s = entry_head(&name, &args, None);
        let (rows_fastest, whole, blocks) = (ROWS_FASTEST, WHOLE_TILES, ROW_BLOCKS);
        // the units work-items are given: rows, or blocks of ROW_BLOCK rows
        // (a work-item takes a part of a tile in each row of its unit); the
        // parts of a tile: its lanes, or the whole tile; the tiles of a row
        // are taken one at a time or (strided) TILE_BLOCK at a time
        let _ = writeln!(
            s,
            "    ulong silt_g = get_global_id(0);\n    int silt_whole = (silt_mapping & {whole}u) != 0u;\n    int silt_blocked = (silt_mapping & {blocks}u) != 0u;\n    ulong silt_units = silt_blocked ? (silt_rows + {l1}UL) / {ROW_BLOCK}UL : silt_rows;\n    ulong silt_per_tile = silt_whole ? 1UL : {REDUCE_LANES}UL;",
            l1 = ROW_BLOCK - 1
        );
        let tiles = if strided {
            let _ = writeln!(
                s,
                "    int silt_tblocked = (silt_mapping & {TILE_BLOCKS}u) != 0u;\n    ulong silt_blocks = silt_tblocked ? (silt_tiles + {t1}UL) / {TILE_BLOCK}UL : silt_tiles;",
                t1 = TILE_BLOCK - 1
            );
            "silt_blocks"
        } else {
            "silt_tiles"
        };
        let _ = writeln!(
            s,
            "    if (silt_g >= silt_units * {tiles} * silt_per_tile) return;"
        );
        s.push_str("    ulong silt_unit, silt_tile, silt_j;\n");
        let _ = writeln!(
            s,
            "    if ((silt_mapping & {rows_fastest}u) != 0u) {{\n        silt_unit = silt_g % silt_units;\n        ulong silt_q = silt_g / silt_units;\n        silt_j = silt_q % silt_per_tile;\n        silt_tile = silt_q / silt_per_tile;\n    }} else {{\n        silt_j = silt_g % silt_per_tile;\n        ulong silt_q = silt_g / silt_per_tile;\n        silt_tile = silt_q % {tiles};\n        silt_unit = silt_q / {tiles};\n    }}\n    ulong silt_row = silt_blocked ? silt_unit * {ROW_BLOCK}UL : silt_unit;"
        );
        if strided {
            let _ = writeln!(s, "    if (silt_tblocked) silt_tile *= {TILE_BLOCK}UL;");
        }
        let _ = writeln!(
            s,
            "    ulong silt_first = silt_tile * {REDUCE_TILE}UL;\n    ulong silt_end = min(silt_first + {REDUCE_TILE}UL, silt_len);\n    ulong silt_at = (silt_row * silt_tiles + silt_tile) * {REDUCE_LANES}UL;"
        );
        let d = silt_abi::MAX_DIMS;
        if strided {
            // each view's offset of the row: its coordinates in the kept dimensions
            let _ = writeln!(
                s,
                "    ulong silt_dims[{d}];\n    vstore{d}(silt_shape, 0, silt_dims);"
            );
            for n in &views {
                let _ = writeln!(
                    s,
                    "    ulong silt_s_{n}[{d}];\n    vstore{d}(silt_st_{n}, 0, silt_s_{n});\n    ulong silt_b_{n} = silt_off_{n};"
                );
            }
            s.push_str("    {\n        ulong silt_rest = silt_row;\n        for (uint silt_d = silt_kept; silt_d-- > 0u;) {\n");
            s.push_str("            ulong silt_c = silt_rest % silt_dims[silt_d];\n            silt_rest /= silt_dims[silt_d];\n");
            for n in &views {
                let _ = writeln!(s, "            silt_b_{n} += silt_c * silt_s_{n}[silt_d];");
            }
            s.push_str("        }\n    }\n");
        } else {
            for n in &views {
                let _ = writeln!(s, "    {n} += silt_off_{n} + silt_row * silt_len;");
            }
        }
        let n = self.acc.len();
        if strided {
            self.row_blocks(&mut s, &views);
            self.tile_blocks(&mut s, &views);
        }
        // a whole tile per work-item: its lanes side by side in private
        // memory, the tile read in order (what suits a CPU)
        s.push_str("    if (silt_whole) {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(s, "        {} silt_v{i}[{REDUCE_LANES}];", local_type(*t));
        }
        if strided {
            // the tile's elements in order
            Self::start(&mut s, "        ", "silt_first", &views);
        }
        let _ = writeln!(
            s,
            "        uint silt_n = (uint)min(silt_end - silt_first, {REDUCE_LANES}UL);"
        );
        self.whole_group(
            &mut s,
            "        ",
            "silt_first",
            "silt_n",
            true,
            strided,
            &views,
        );
        let _ = writeln!(
            s,
            "        for (ulong silt_base = silt_first + {REDUCE_LANES}UL; silt_base < silt_end; silt_base += {REDUCE_LANES}UL) {{\n            uint silt_cnt = (uint)min(silt_end - silt_base, {REDUCE_LANES}UL);"
        );
        self.whole_group(
            &mut s,
            "            ",
            "silt_base",
            "silt_cnt",
            false,
            strided,
            &views,
        );
        s.push_str("        }\n");
        self.whole_row(&mut s);
        s.push_str("        for (uint silt_l = 0u; silt_l < silt_n; silt_l++) {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "            silt_acc{i}[silt_at + silt_l] = {};",
                store(*t, from_local(*t, format!("silt_v{i}[silt_l]")))
            );
        }
        s.push_str("        }\n        return;\n    }\n");
        // a lane per work-item
        s.push_str(
            "    ulong silt_k = silt_first + silt_j;\n    if (silt_k >= silt_end) return;\n",
        );
        if strided {
            Self::start(&mut s, "    ", "silt_k", &views);
        }
        self.declare(&mut s, "    ", "silt_a");
        self.map_call(&mut s, "    ", "silt_a", strided, None);
        let _ = writeln!(
            s,
            "    for (silt_k += {REDUCE_LANES}UL; silt_k < silt_end; silt_k += {REDUCE_LANES}UL) {{"
        );
        if strided {
            Self::advance(&mut s, "        ", &format!("{REDUCE_LANES}u"), &views);
        }
        self.declare(&mut s, "        ", "silt_m");
        self.map_call(&mut s, "        ", "silt_m", strided, None);
        self.combine_into(
            &mut s,
            "        ",
            &Self::vars("silt_a", n),
            &Self::vars("silt_m", n),
        );
        s.push_str("    }\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "    silt_acc{i}[silt_at + silt_j] = {};",
                store(*t, format!("silt_a{i}"))
            );
        }
        s.push_str("}\n");
        s
    }

    /// One group of a whole tile's lanes, `silt_l < {count}`, element
    /// silt_k at `{base} + silt_l`: the first (`first`: each lane's value is
    /// its element's) or a later one (folded into each lane's). Strided, a
    /// group within one run of the innermost reduced dimension reads its
    /// elements at that dimension's stride from the group's first, then steps
    /// the coordinates once; a group across a run's end steps them element by
    /// element.
    #[allow(clippy::too_many_arguments)]
    fn whole_group(
        &self,
        s: &mut String,
        indent: &str,
        base: &str,
        count: &str,
        first: bool,
        strided: bool,
        views: &[&String],
    ) {
        let lanes = |s: &mut String, indent: &str, step: Option<&dyn Fn(&str) -> String>| {
            let _ = writeln!(
                s,
                "{indent}for (uint silt_l = 0u; silt_l < {count}; silt_l++) {{\n{indent}    ulong silt_k = {base} + silt_l;"
            );
            let inner = format!("{indent}    ");
            if first {
                self.declare(s, &inner, "silt_a");
                self.map_call(s, &inner, "silt_a", strided, step);
                for (i, t) in self.acc.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "{inner}silt_v{i}[silt_l] = {};",
                        to_local(*t, format!("silt_a{i}"))
                    );
                }
            } else {
                self.declare(s, &inner, "silt_m");
                self.map_call(s, &inner, "silt_m", strided, step);
                self.fold_held(s, &inner);
            }
            if strided && step.is_none() {
                Self::advance(s, &inner, "1u", views);
            }
            let _ = writeln!(s, "{indent}}}");
        };
        if !strided {
            lanes(s, indent, None);
            return;
        }
        let _ = writeln!(
            s,
            "{indent}if (silt_ndim > silt_kept && silt_c[silt_ndim - 1u] + {count} <= silt_dims[silt_ndim - 1u]) {{"
        );
        let inner = format!("{indent}    ");
        for n in views {
            let _ = writeln!(s, "{inner}ulong silt_in_{n} = silt_s_{n}[silt_ndim - 1u];");
        }
        let along = |n: &str| format!("silt_l * silt_in_{n}");
        lanes(s, &inner, Some(&along));
        Self::advance(s, &inner, count, views);
        let _ = writeln!(s, "{indent}}} else {{");
        lanes(s, &inner, None);
        let _ = writeln!(s, "{indent}}}");
    }

    /// The branch of [`ROW_BLOCKS`]: a work-item takes lane silt_j of a tile
    /// in each of up to [`ROW_BLOCK`] rows, folding them side by side in
    /// place in the accumulator's buffers, where the lanes lie lane-major
    /// (the work-item's rows neighbours). Each read, the block's elements of
    /// one place in the row, is then a run of neighbouring elements when rows
    /// are the innermost dimension in memory (a sum down a matrix's columns),
    /// and the work-item holds no array in private memory. Only for one kept
    /// dimension, whose stride steps from row to row.
    fn row_blocks(&self, s: &mut String, views: &[&String]) {
        s.push_str("    if (silt_blocked) {\n");
        let _ = writeln!(
            s,
            "        ulong silt_k = silt_first + silt_j;\n        if (silt_k >= silt_end) return;\n        uint silt_n = (uint)min(silt_rows - silt_row, {ROW_BLOCK}UL);\n        ulong silt_o = (silt_tile * {REDUCE_LANES}UL + silt_j) * silt_rows + silt_row;"
        );
        Self::start(s, "        ", "silt_k", views);
        let rows = |n: &str| format!("silt_l * silt_s_{n}[0]");
        s.push_str("        for (uint silt_l = 0u; silt_l < silt_n; silt_l++) {\n");
        self.declare(s, "            ", "silt_a");
        self.map_call(s, "            ", "silt_a", true, Some(&rows));
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "            silt_acc{i}[silt_o + silt_l] = {};",
                store(*t, format!("silt_a{i}"))
            );
        }
        let _ = writeln!(
            s,
            "        }}\n        for (silt_k += {REDUCE_LANES}UL; silt_k < silt_end; silt_k += {REDUCE_LANES}UL) {{"
        );
        Self::advance(s, "            ", &format!("{REDUCE_LANES}u"), views);
        s.push_str("            for (uint silt_l = 0u; silt_l < silt_n; silt_l++) {\n");
        let indent = "                ";
        self.declare(s, indent, "silt_m");
        self.map_call(s, indent, "silt_m", true, Some(&rows));
        self.fold_into(
            s,
            indent,
            &|i, t| load(t, format!("silt_acc{i}[silt_o + silt_l]")),
            &|i, t, v| format!("silt_acc{i}[silt_o + silt_l] = {}", store(t, v)),
        );
        s.push_str("            }\n        }\n        return;\n    }\n");
    }

    /// The branch of [`TILE_BLOCKS`]: a work-item takes lane silt_j of each
    /// of up to [`TILE_BLOCK`] consecutive tiles of its row, side by side in
    /// private memory. Each element read is then next to the last one when a
    /// tile's elements lie far apart but neighbouring tiles' lie close (a
    /// transpose). The host chooses it only where every tile of the row is
    /// full and the tiles' elements lie alike: the innermost reduced
    /// dimension's size is a power of two that divides the tile, and no tile
    /// crosses the end of the next dimension. Element `e` of a tile is then
    /// `e >> silt_sh` steps along the one and `e & silt_mask` along the other
    /// from the tile's first, and at a fixed distance, `silt_dt_{view}[tile]`,
    /// from the first tile's element `e` (a multiple of the tile's number
    /// when the block is whole and evenly spaced).
    fn tile_blocks(&self, s: &mut String, views: &[&String]) {
        s.push_str("    if (silt_tblocked) {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(s, "        {} silt_v{i}[{TILE_BLOCK}];", local_type(*t));
        }
        let _ = writeln!(
            s,
            "        ulong silt_k = silt_first + silt_j;\n        if (silt_k >= silt_end) return;\n        uint silt_n = (uint)min(silt_tiles - silt_tile, {TILE_BLOCK}UL);"
        );
        Self::start(s, "        ", "silt_k", views);
        // each tile's distance from the first: the coordinates stepped a
        // tile at a time
        for v in views {
            let _ = writeln!(
                s,
                "        ulong silt_dt_{v}[{TILE_BLOCK}];\n        ulong silt_i0_{v} = silt_i_{v};"
            );
        }
        s.push_str("        for (uint silt_l = 0u; silt_l < silt_n; silt_l++) {\n");
        for v in views {
            let _ = writeln!(
                s,
                "            silt_dt_{v}[silt_l] = silt_i_{v} - silt_i0_{v};"
            );
        }
        Self::advance(s, "            ", &format!("{REDUCE_TILE}u"), views);
        s.push_str("        }\n");
        for v in views {
            let _ = writeln!(s, "        silt_i_{v} = silt_i0_{v};");
        }
        // the first tile's first element, and the spacing of the tiles
        let _ = writeln!(
            s,
            "        uint silt_sh = (uint)(63UL - clz(silt_dims[silt_ndim - 1u]));\n        ulong silt_mask = silt_dims[silt_ndim - 1u] - 1UL;\n        int silt_even = silt_n == {TILE_BLOCK}u;"
        );
        for v in views {
            let _ = writeln!(
                s,
                "        ulong silt_so_{v} = silt_s_{v}[silt_ndim - 2u];\n        ulong silt_si_{v} = silt_s_{v}[silt_ndim - 1u];\n        ulong silt_t0_{v} = silt_i0_{v} - ((silt_j >> silt_sh) * silt_so_{v} + (silt_j & silt_mask) * silt_si_{v});\n        ulong silt_ts_{v} = silt_n > 1u ? silt_dt_{v}[1] : 0UL;\n        for (uint silt_l = 2u; silt_l < silt_n; silt_l++) silt_even = silt_even && silt_dt_{v}[silt_l] == silt_l * silt_ts_{v};"
            );
        }
        let even = |v: &str| format!("silt_l * silt_ts_{v}");
        let any = |v: &str| format!("silt_dt_{v}[silt_l]");
        s.push_str("        if (silt_even) {\n");
        self.tile_block_loops(s, views, &format!("{TILE_BLOCK}u"), &even);
        s.push_str("        } else {\n");
        self.tile_block_loops(s, views, "silt_n", &any);
        s.push_str("        }\n");
        s.push_str("        for (uint silt_l = 0u; silt_l < silt_n; silt_l++) {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "            silt_acc{i}[silt_at + silt_l * {REDUCE_LANES}UL + silt_j] = {};",
                store(*t, from_local(*t, format!("silt_v{i}[silt_l]")))
            );
        }
        s.push_str("        }\n        return;\n    }\n");
    }

    /// The folds of [`tile_blocks`](Self::tile_blocks): lane silt_j of
    /// `count` tiles, tile silt_l's element at `silt_i_{view}` plus `tile`'s
    /// term, element by element of the lane.
    fn tile_block_loops(
        &self,
        s: &mut String,
        views: &[&String],
        count: &str,
        tile: &dyn Fn(&str) -> String,
    ) {
        let index = format!("silt_k + silt_l * {REDUCE_TILE}UL");
        let _ = writeln!(
            s,
            "            for (uint silt_l = 0u; silt_l < {count}; silt_l++) {{"
        );
        self.declare(s, "                ", "silt_a");
        self.map_call_at(s, "                ", "silt_a", true, Some(tile), &index);
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "                silt_v{i}[silt_l] = {};",
                to_local(*t, format!("silt_a{i}"))
            );
        }
        let _ = writeln!(
            s,
            "            }}\n            for (ulong silt_e = silt_j + {REDUCE_LANES}UL; silt_e < silt_end - silt_first; silt_e += {REDUCE_LANES}UL) {{\n                silt_k = silt_first + silt_e;"
        );
        for v in views {
            let _ = writeln!(
                s,
                "                silt_i_{v} = silt_t0_{v} + (silt_e >> silt_sh) * silt_so_{v} + (silt_e & silt_mask) * silt_si_{v};"
            );
        }
        let _ = writeln!(
            s,
            "                for (uint silt_l = 0u; silt_l < {count}; silt_l++) {{"
        );
        self.declare(s, "                    ", "silt_m");
        self.map_call_at(
            s,
            "                    ",
            "silt_m",
            true,
            Some(tile),
            &index,
        );
        self.fold_held(s, "                    ");
        s.push_str("                }\n            }\n");
    }

    /// `silt_v*[silt_l] = combine(silt_v*[silt_l], silt_m*)`.
    fn fold_held(&self, s: &mut String, indent: &str) {
        self.fold_into(
            s,
            indent,
            &|i, t| from_local(t, format!("silt_v{i}[silt_l]")),
            &|i, t, v| format!("silt_v{i}[silt_l] = {}", to_local(t, v)),
        );
    }

    /// `held = combine(held, silt_m*)`, component by component: `get(i, t)`
    /// is the held value of component `i` (of type `t`), `put(i, t, v)` the
    /// statement that stores `v` back.
    fn fold_into(
        &self,
        s: &mut String,
        indent: &str,
        get: &dyn Fn(usize, DType) -> String,
        put: &dyn Fn(usize, DType, String) -> String,
    ) {
        let n = self.acc.len();
        self.declare(s, indent, "silt_a");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(s, "{indent}silt_a{i} = {};", get(i, *t));
        }
        self.combine_into(
            s,
            indent,
            &Self::vars("silt_a", n),
            &Self::vars("silt_m", n),
        );
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(s, "{indent}{};", put(i, *t, format!("silt_a{i}")));
        }
    }

    /// `silt_c` and `silt_i_{view}`: the coordinates of element `{k}` of the
    /// row in the reduced dimensions, and each view's offset of it from the
    /// row's at `silt_b_{view}` (divisions once per work-item; [`advance`]
    /// then steps them).
    ///
    /// [`advance`]: Self::advance
    fn start(s: &mut String, indent: &str, k: &str, views: &[&String]) {
        let d = silt_abi::MAX_DIMS;
        let _ = writeln!(
            s,
            "{indent}ulong silt_c[{d}];\n{indent}ulong silt_rest = {k};"
        );
        for n in views {
            let _ = writeln!(s, "{indent}ulong silt_i_{n} = silt_b_{n};");
        }
        let _ = writeln!(
            s,
            "{indent}for (uint silt_d = silt_ndim; silt_d-- > silt_kept;) {{\n{indent}    silt_c[silt_d] = silt_rest % silt_dims[silt_d];\n{indent}    silt_rest /= silt_dims[silt_d];"
        );
        for n in views {
            let _ = writeln!(
                s,
                "{indent}    silt_i_{n} += silt_c[silt_d] * silt_s_{n}[silt_d];"
            );
        }
        let _ = writeln!(s, "{indent}}}");
    }

    /// Steps `silt_c` and `silt_i_{view}` on by `step` (an OpenCL `uint`
    /// expression) elements of the row: the innermost reduced coordinate,
    /// carried outwards only as far as it overflows (a division where a
    /// coordinate overflows, none for a step of one); the outermost reduced
    /// coordinate is not wrapped, so a step past the row's end leaves offsets
    /// that are never read. Unsigned arithmetic wraps, so the offsets'
    /// differences may pass through "negative" values.
    fn advance(s: &mut String, indent: &str, step: &str, views: &[&String]) {
        let _ = writeln!(
            s,
            "{indent}for (uint silt_d = silt_ndim, silt_q = {step}; silt_q != 0u && silt_d-- > silt_kept;) {{\n{indent}    ulong silt_t = silt_c[silt_d] + silt_q;\n{indent}    silt_q = 0u;\n{indent}    if (silt_d > silt_kept && silt_t >= silt_dims[silt_d]) {{"
        );
        if step == "1u" {
            let _ = writeln!(
                s,
                "{indent}        silt_q = 1u;\n{indent}        silt_t = 0UL;"
            );
        } else {
            let _ = writeln!(
                s,
                "{indent}        silt_q = (uint)(silt_t / silt_dims[silt_d]);\n{indent}        silt_t -= silt_q * silt_dims[silt_d];"
            );
        }
        let _ = writeln!(s, "{indent}    }}");
        for n in views {
            let _ = writeln!(
                s,
                "{indent}    silt_i_{n} += (silt_t - silt_c[silt_d]) * silt_s_{n}[silt_d];"
            );
        }
        let _ = writeln!(s, "{indent}    silt_c[silt_d] = silt_t;\n{indent}}}");
    }

    /// The call of `map` on element silt_k, its results going to `{to}*`:
    /// each view's element at `silt_i_{view}`, or (`step`) at that plus the
    /// term `step` gives for the view (another row's, or another lane's).
    fn map_call(
        &self,
        s: &mut String,
        indent: &str,
        to: &str,
        strided: bool,
        step: Option<&dyn Fn(&str) -> String>,
    ) {
        self.map_call_at(s, indent, to, strided, step, "silt_k");
    }

    /// [`map_call`](Self::map_call) for the element whose place in the row
    /// (its `#[index]`) is `index`.
    fn map_call_at(
        &self,
        s: &mut String,
        indent: &str,
        to: &str,
        strided: bool,
        step: Option<&dyn Fn(&str) -> String>,
        index: &str,
    ) {
        let f = self.map;
        let args: Vec<String> = f
            .params
            .iter()
            .zip(&self.params)
            .map(|(p, n)| match p.kind {
                ParamKind::Scalar => load(p.ty, n.clone()),
                ParamKind::Index => index.to_owned(),
                ParamKind::Input | ParamKind::InOut if strided => match step {
                    Some(term) => load(p.ty, format!("{n}[silt_i_{n} + {}]", term(n))),
                    None => load(p.ty, format!("{n}[silt_i_{n}]")),
                },
                ParamKind::Input
                | ParamKind::InOut
                | ParamKind::View(_)
                | ParamKind::ViewMut(_) => load(p.ty, format!("{n}[silt_k]")),
            })
            .collect();
        let _ = writeln!(s, "{indent}{}", self.call(0, &args, to, self.acc.len()));
    }
}

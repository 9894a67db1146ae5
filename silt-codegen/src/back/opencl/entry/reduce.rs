//! The reduction entry template: the first pass (`NAME_TYPE_reduce`, and
//! `NAME_TYPE_reduce_strided` for views of any strides; in `first_pass`),
//! which folds each lane of each tile of each row, and the tree pass
//! (`NAME_TYPE_tree`), which combines partial results `REDUCE_LANES` at a
//! time, in the order `silt_abi::opencl` fixes.

use std::fmt::Write;

use silt_abi::opencl::{declare, entry_head, tree_args, Signature, REDUCE_LANES, WHOLE_ROWS};

use crate::back::opencl::function::Emitter;
use crate::back::opencl::names::{entry_name, part_name};
use crate::back::opencl::polyfill::{load, store, Polyfill};
use crate::back::opencl::types::ClType;
use crate::ir::{Function, ParamKind, Reduce};
use silt_abi::opencl::FoldEntry;
use silt_abi::DType;

/// The functions `identity`, `combine` and `finish` (the emitter has written
/// `map`, the body), then the three entry points.
pub(in crate::back::opencl) fn entry_points(e: &mut Emitter<'_>, r: &Reduce) -> String {
    let mut out = part_functions(e, r);
    let t = Template::new(e, r);
    if t.uses_f16() {
        e.polyfills.insert(Polyfill::F16Load);
        e.polyfills.insert(Polyfill::F16Bits);
    }
    out.push_str(&t.first_pass(false));
    out.push('\n');
    out.push_str(&t.first_pass(true));
    out.push('\n');
    out.push_str(&t.tree_pass());
    out
}

/// The C functions `identity`, `combine` and `finish` (the emitter has
/// written `map`, the body); their polyfills join the emitter's.
pub(super) fn part_functions(e: &mut Emitter<'_>, r: &Reduce) -> String {
    let mut out = String::new();
    for (f, part) in [
        (&r.identity, "identity"),
        (&r.combine, "combine"),
        (&r.finish, "finish"),
    ] {
        let mut pe = Emitter::new(f, part_name(e.f, part));
        out.push_str(&pe.body_function());
        out.push('\n');
        e.polyfills.extend(pe.polyfills);
    }
    out
}

/// What the entry points of one reduction instantiation need.
pub(super) struct Template<'a> {
    pub(super) map: &'a Function,
    /// The C names of `map`'s parameters.
    pub(super) params: Vec<String>,
    pub(super) acc: Vec<DType>,
    pub(super) out: Vec<DType>,
    /// The C functions of `map`, `identity`, `combine` and `finish`.
    pub(super) names: [String; 4],
    pub(super) entry: String,
}

impl<'a> Template<'a> {
    pub(super) fn new(e: &Emitter<'a>, r: &'a Reduce) -> Self {
        let f = e.f;
        Template {
            map: f,
            params: e.params.clone(),
            acc: r.acc().to_vec(),
            out: r.finish.outputs.clone(),
            names: [
                e.name.clone(),
                part_name(f, "identity"),
                part_name(f, "combine"),
                part_name(f, "finish"),
            ],
            entry: entry_name(f),
        }
    }

    /// Whether `f16` values cross the entry points (map's tensors and
    /// scalars, the accumulator, the outputs): they travel as bits.
    pub(super) fn uses_f16(&self) -> bool {
        self.acc.contains(&DType::F16)
            || self.out.contains(&DType::F16)
            || self
                .map
                .params
                .iter()
                .any(|p| p.ty == DType::F16 && p.kind != ParamKind::Index)
    }

    /// `__local T silt_tN[LANES]` for each accumulator field (`bool` as `uchar`).
    fn locals(&self, s: &mut String) {
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "    __local {} silt_t{i}[{REDUCE_LANES}];",
                local_type(*t)
            );
        }
    }

    /// Calls `f` with `args`, its results going to the variables `{to}0`, ...
    /// (declared by the caller).
    pub(super) fn call(&self, f: usize, args: &[String], to: &str, n: usize) -> String {
        let name = &self.names[f];
        if n == 1 {
            return format!("{to}0 = {name}({});", args.join(", "));
        }
        let mut all = args.to_vec();
        all.extend((0..n).map(|i| format!("&{to}{i}")));
        format!("{name}({});", all.join(", "))
    }

    pub(super) fn declare(&self, s: &mut String, indent: &str, var: &str) {
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(s, "{indent}{} {var}{i};", t.value_type());
        }
    }

    /// [`declare`](Self::declare) with zeros, for a fold that takes its
    /// first value in a loop's first round (`if first { t = l; } else { t =
    /// combine(t, l); }`): the zeros are never read, but left out, PoCL
    /// (LLVM 15) dropped the fold's result where `combine` ignores its
    /// second operand (`combine(a, b) = a`: the scan's chunk totals came out
    /// as whatever the buffer held).
    pub(super) fn declare_zeroed(&self, s: &mut String, indent: &str, var: &str) {
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(s, "{indent}{} {var}{i} = 0;", t.value_type());
        }
    }

    pub(super) fn vars(var: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{var}{i}")).collect()
    }

    /// `silt_a = combine(silt_a, other)`.
    pub(super) fn combine_into(&self, s: &mut String, indent: &str, a: &[String], b: &[String]) {
        let mut args = a.to_vec();
        args.extend(b.iter().cloned());
        let _ = writeln!(s, "{indent}{{");
        self.declare(s, &format!("{indent}    "), "silt_c");
        let _ = writeln!(
            s,
            "{indent}    {}",
            self.call(2, &args, "silt_c", self.acc.len())
        );
        for (i, v) in a.iter().enumerate() {
            let _ = writeln!(s, "{indent}    {v} = silt_c{i};");
        }
        let _ = writeln!(s, "{indent}}}");
    }

    /// The tree over the lanes' values in `silt_t*`, `silt_leaves` of them.
    fn tree(&self, s: &mut String) {
        let n = self.acc.len();
        s.push_str("    barrier(CLK_LOCAL_MEM_FENCE);\n");
        let _ = writeln!(
            s,
            "    for (uint silt_w = 1; silt_w < {REDUCE_LANES}u; silt_w <<= 1) {{"
        );
        s.push_str(
            "        if ((silt_j & (2u * silt_w - 1u)) == 0u && silt_j + silt_w < silt_leaves) {\n",
        );
        let a: Vec<String> = (0..n)
            .map(|i| from_local(self.acc[i], format!("silt_t{i}[silt_j]")))
            .collect();
        let b: Vec<String> = (0..n)
            .map(|i| from_local(self.acc[i], format!("silt_t{i}[silt_j + silt_w]")))
            .collect();
        let mut args = a;
        args.extend(b);
        self.declare(s, "            ", "silt_c");
        let _ = writeln!(s, "            {}", self.call(2, &args, "silt_c", n));
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "            silt_t{i}[silt_j] = {};",
                to_local(*t, format!("silt_c{i}"))
            );
        }
        s.push_str("        }\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
    }

    /// With [`WHOLE_ROWS`] (the row is this tile): the tree over the tile's
    /// `silt_n` lanes in `silt_v*`, pair by pair as the tree pass combines
    /// them (leaf `l` with `l + w` for `l` a multiple of `2 w`, `w = 1, 2,
    /// 4, ..`), then `finish` into the outputs at the row.
    pub(super) fn whole_row(&self, s: &mut String) {
        let n = self.acc.len();
        let _ = writeln!(
            s,
            "        if ((silt_mapping & {WHOLE_ROWS}u) != 0u) {{\n            for (uint silt_w = 1u; silt_w < silt_n; silt_w <<= 1) {{\n                for (uint silt_l = 0u; silt_l + silt_w < silt_n; silt_l += 2u * silt_w) {{"
        );
        let mut args: Vec<String> = (0..n)
            .map(|i| from_local(self.acc[i], format!("silt_v{i}[silt_l]")))
            .collect();
        args.extend((0..n).map(|i| from_local(self.acc[i], format!("silt_v{i}[silt_l + silt_w]"))));
        self.declare(s, "                    ", "silt_c");
        let _ = writeln!(
            s,
            "                    {}",
            self.call(2, &args, "silt_c", n)
        );
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "                    silt_v{i}[silt_l] = {};",
                to_local(*t, format!("silt_c{i}"))
            );
        }
        s.push_str("                }\n            }\n");
        let mut args: Vec<String> = (0..n)
            .map(|i| from_local(self.acc[i], format!("silt_v{i}[0]")))
            .collect();
        args.push("silt_len".to_owned());
        self.finish_into_outputs(s, &args);
        s.push_str("            return;\n        }\n");
    }

    /// `finish(args)` into the outputs at the row (`silt_o*` declared), at
    /// the indent of a block two deep.
    fn finish_into_outputs(&self, s: &mut String, args: &[String]) {
        for (i, t) in self.out.iter().enumerate() {
            let _ = writeln!(s, "            {} silt_o{i};", t.value_type());
        }
        let _ = writeln!(
            s,
            "            {}",
            self.call(3, args, "silt_o", self.out.len())
        );
        for (i, t) in self.out.iter().enumerate() {
            let _ = writeln!(
                s,
                "            silt_out{i}[silt_row] = {};",
                store(*t, format!("silt_o{i}"))
            );
        }
    }

    /// Work-item 0's ending: the row's result finished into the outputs, or
    /// the partial result stored at `silt_g` in the accumulator buffers.
    fn ending(&self, s: &mut String, parts: &str, count: &str) {
        let n = self.acc.len();
        s.push_str("    if (silt_j == 0u) {\n");
        self.declare(s, "        ", "silt_r");
        // an empty row has no leaves: its result is identity()
        s.push_str("        if (silt_leaves == 0u) {\n");
        let _ = writeln!(s, "            {}", self.call(1, &[], "silt_r", n));
        s.push_str("        } else {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "            silt_r{i} = {};",
                from_local(*t, format!("silt_t{i}[0]"))
            );
        }
        s.push_str("        }\n");
        s.push_str("        if (silt_final) {\n");
        let mut args = Self::vars("silt_r", n);
        args.push(count.to_owned());
        self.finish_into_outputs(s, &args);
        s.push_str("        } else {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let _ = writeln!(
                s,
                "            {parts}{i}[silt_g] = {};",
                store(*t, format!("silt_r{i}"))
            );
        }
        s.push_str("        }\n    }\n}\n");
    }

    /// The tree pass over partial results.
    fn tree_pass(&self) -> String {
        let sig = Signature {
            params: &[],
            acc: &self.acc,
            outputs: &self.out,
        };
        let args = declare(tree_args(self.acc.len(), self.out.len()), &sig);
        let name = format!("{}{}", self.entry, FoldEntry::Tree.suffix());
        let mut s = entry_head(&name, &args, Some([REDUCE_LANES, 1, 1]));
        self.locals(&mut s);
        s.push_str(
            "    uint silt_j = (uint)get_local_id(0);\n    ulong silt_g = get_group_id(0);\n",
        );
        s.push_str("    ulong silt_row = silt_g / silt_blocks;\n");
        let _ = writeln!(
            s,
            "    ulong silt_first = (silt_g - silt_row * silt_blocks) * {REDUCE_LANES}UL;"
        );
        let _ = writeln!(
            s,
            "    uint silt_leaves = silt_parts > silt_first ? (uint)min(silt_parts - silt_first, {REDUCE_LANES}UL) : 0u;"
        );
        s.push_str("    if (silt_j < silt_leaves) {\n");
        for (i, t) in self.acc.iter().enumerate() {
            let v = load(
                *t,
                format!(
                    "silt_src{i}[silt_row * silt_stride + (silt_first + silt_j) * silt_part_stride]"
                ),
            );
            let _ = writeln!(s, "        silt_t{i}[silt_j] = {};", to_local(*t, v));
        }
        s.push_str("    }\n");
        self.tree(&mut s);
        self.ending(&mut s, "silt_dst", "silt_count");
        s
    }
}

/// The type of an accumulator field in local memory (`bool` as `uchar`).
pub(super) fn local_type(t: DType) -> &'static str {
    if t == DType::Bool {
        "uchar"
    } else {
        t.value_type()
    }
}

pub(super) fn to_local(t: DType, v: String) -> String {
    if t == DType::Bool {
        format!("(uchar)({v})")
    } else {
        v
    }
}

pub(super) fn from_local(t: DType, v: String) -> String {
    if t == DType::Bool {
        format!("({v} != 0)")
    } else {
        v
    }
}

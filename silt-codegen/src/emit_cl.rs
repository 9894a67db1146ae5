//! OpenCL C from the typed IR: one complete program per instantiation.
//!
//! The semantics follow silt's table (DESIGN.md): integer arithmetic wraps (done in
//! unsigned types, since signed overflow is undefined in C), division by zero gives
//! 0, shift counts are masked, float-to-integer casts saturate, and contraction of
//! `a * b + c` into fma is off.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use crate::builtins::{Builtin, Form};
use crate::ir::{BinOp, Block, Expr, ExprKind, Kernel, ParamKind, Place, Stmt, UnOp, Value};
use crate::ty::Ty;
use silt_abi::opencl::Pass;

/// How OpenCL C spells an element type.
pub trait ClType {
    /// The OpenCL C type of a value in code (`bool` is `bool`, `f16` is `float`).
    fn cl(self) -> &'static str;
    /// The OpenCL C type of an element in a buffer or a kernel argument (`f16`
    /// as its bits: `half` needs `cl_khr_fp16` for anything but pointers).
    fn cl_storage(self) -> &'static str;
    /// The OpenCL type that integer arithmetic of this type is done in: unsigned
    /// (so that overflow wraps instead of being undefined) and at least 32 bits (so
    /// that C's promotion to `int` cannot overflow).
    fn cl_wide_unsigned(self) -> &'static str;
}

impl ClType for Ty {
    fn cl(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::F16 => "float",
            other => other.cl_storage(),
        }
    }

    fn cl_storage(self) -> &'static str {
        silt_abi::opencl::arg_type(self)
    }

    fn cl_wide_unsigned(self) -> &'static str {
        if self.bits() == 64 {
            "ulong"
        } else {
            "uint"
        }
    }
}

/// Where a kernel came from, for the program's header and `#line` directives.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The Rust file (as `file!()` would give it), if known.
    pub file: Option<String>,
    /// The line of the kernel's `fn` in that file, if known.
    pub line: Option<usize>,
}

/// What one instantiation contributes to a program.
struct Parts {
    helpers: BTreeSet<Helper>,
    /// `#[helper]` functions, by name, callees first.
    helper_fns: Vec<(String, String)>,
    body: String,
    /// (line of `body`, Rust line) of the body's statements.
    body_lines: Vec<(usize, usize)>,
    entries: String,
    uses_f64: bool,
}

fn parts(k: &Kernel) -> Parts {
    let mut e = Emitter::new(k);
    let mut helper_fns = Vec::new();
    for h in &k.helpers {
        let mut he = Emitter::new(&h.kernel);
        he.name_override = Some(h.name.clone());
        helper_fns.push((h.name.clone(), he.body_function()));
        e.helpers.extend(he.helpers);
        e.uses_f64 |= he.uses_f64;
    }
    let body = e.body_function();
    let body_lines = std::mem::take(&mut e.line_map);
    let entries = e.kernel_function();
    Parts {
        helpers: e.helpers,
        helper_fns,
        body,
        body_lines,
        entries,
        uses_f64: e.uses_f64,
    }
}

/// Pragmas, then operator helpers and `#[helper]` functions once each, then every
/// instantiation's body and entry points.
fn assemble(header: &str, all: &[Parts]) -> String {
    assemble_with_lines(header, all).0
}

/// [`assemble`], with the Rust line of each program line that a statement of a
/// kernel body was emitted to: (1-based program line, Rust line).
fn assemble_with_lines(header: &str, all: &[Parts]) -> (String, Vec<(usize, usize)>) {
    let mut lines = Vec::new();
    let mut out = String::new();
    out.push_str(header);
    out.push_str("#pragma OPENCL FP_CONTRACT OFF\n");
    if all.iter().any(|p| p.uses_f64) {
        out.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    let helpers: BTreeSet<Helper> = all.iter().flat_map(|p| p.helpers.iter().copied()).collect();
    for h in &helpers {
        out.push('\n');
        out.push_str(&helper_source(*h));
    }
    out.push('\n');
    let mut seen: Vec<&str> = Vec::new();
    for (name, text) in all.iter().flat_map(|p| &p.helper_fns) {
        if !seen.contains(&name.as_str()) {
            seen.push(name);
            out.push_str(text);
            out.push('\n');
        }
    }
    for (i, p) in all.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let first = out.matches('\n').count() + 1;
        lines.extend(p.body_lines.iter().map(|&(at, rust)| (first + at, rust)));
        out.push_str(&p.body);
        out.push('\n');
        out.push_str(&p.entries);
    }
    (out, lines)
}

/// The OpenCL C program of one kernel instantiation.
pub fn emit(k: &Kernel, origin: &Origin) -> String {
    let what = match k.inst {
        Some(t) => format!("`{}` for `{t}`", k.name),
        None => format!("`{}`", k.name),
    };
    let mut header = format!("// silt kernel {what}: generated from its Rust body, do not edit.\n");
    if let Some(file) = &origin.file {
        let _ = writeln!(
            header,
            "// source: {file}{}",
            origin.line.map(|l| format!(":{l}")).unwrap_or_default()
        );
    }
    assemble(&header, &[parts(k)])
}

/// One program holding several instantiations of a kernel (the device builds it
/// once for all of them; PoCL's cost is per program, not per kernel).
pub fn emit_group(ks: &[&Kernel]) -> String {
    emit_group_with_lines(ks).0
}

/// [`emit_group`], with the Rust line of each program line a statement of a
/// kernel body was emitted to, as (1-based program line, Rust line): what maps
/// a compiler's message back to the kernel's source.
pub fn emit_group_with_lines(ks: &[&Kernel]) -> (String, Vec<(usize, usize)>) {
    let name = ks.first().map_or("", |k| k.name.as_str());
    let types: Vec<String> = ks
        .iter()
        .filter_map(|k| k.inst.map(|t| t.name().to_string()))
        .collect();
    let header = if types.is_empty() {
        format!("// silt kernel `{name}`: generated from its Rust body, do not edit.\n")
    } else {
        format!(
            "// silt kernel `{name}` for {}: generated from its Rust body, do not edit.\n",
            types.join(", ")
        )
    };
    let all: Vec<Parts> = ks.iter().map(|k| parts(k)).collect();
    assemble_with_lines(&header, &all)
}

/// The definitions of [`emit_group`]'s program, each with a name, in an order
/// where every definition follows those it uses: operator helpers, `#[helper]`
/// functions, then each instantiation's body and its entry points. The runtime
/// merges the definitions of a crate's kernels into one program, emitting each
/// name once; two definitions of one name with different texts keep a kernel
/// out of that program.
pub fn group_defs(ks: &[&Kernel]) -> Vec<(String, String)> {
    let all: Vec<Parts> = ks.iter().map(|k| parts(k)).collect();
    let helpers: BTreeSet<Helper> = all.iter().flat_map(|p| p.helpers.iter().copied()).collect();
    let mut defs: Vec<(String, String)> = helpers
        .iter()
        .map(|&h| (helper_name(h), helper_source(h)))
        .collect();
    for (name, text) in all.iter().flat_map(|p| &p.helper_fns) {
        if !defs.iter().any(|(n, _)| n == name) {
            defs.push((name.clone(), text.clone()));
        }
    }
    for (k, p) in ks.iter().zip(&all) {
        defs.push((
            format!("{} (kernel)", k.entry()),
            format!("{}\n{}", p.body, p.entries),
        ));
    }
    defs
}

/// A helper function an expression needs, emitted once per program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Helper {
    Add(Ty),
    Sub(Ty),
    Mul(Ty),
    Div(Ty),
    Rem(Ty),
    Shl(Ty),
    Shr(Ty),
    Neg(Ty),
    Abs(Ty),
    Ctz(Ty),
    IClamp(Ty),
    FClamp(Ty),
    FSignum(Ty),
    Fract(Ty),
    FMin(Ty),
    FMax(Ty),
    Keep(Ty),
    /// The `f16` value nearest to a `float` (ties to even), as a `float`.
    F16Round,
    /// The `f16` value nearest to a `double`, as a `float` (one rounding).
    F16RoundD,
    /// An `f16`'s bits (a buffer element or argument) to its `float` value.
    F16Load,
    /// The bits of an `f16` value held in a `float`.
    F16Bits,
}

fn helper_name(h: Helper) -> String {
    let (op, t) = match h {
        Helper::F16Round => return "silt_f16_round".into(),
        Helper::F16RoundD => return "silt_f16_round_d".into(),
        Helper::F16Load => return "silt_f16_load".into(),
        Helper::F16Bits => return "silt_f16_bits".into(),
        Helper::Add(t) => ("add", t),
        Helper::Sub(t) => ("sub", t),
        Helper::Mul(t) => ("mul", t),
        Helper::Div(t) => ("div", t),
        Helper::Rem(t) => ("rem", t),
        Helper::Shl(t) => ("shl", t),
        Helper::Shr(t) => ("shr", t),
        Helper::Neg(t) => ("neg", t),
        Helper::Abs(t) => ("abs", t),
        Helper::Ctz(t) => ("ctz", t),
        Helper::IClamp(t) | Helper::FClamp(t) => ("clamp", t),
        Helper::FSignum(t) => ("signum", t),
        Helper::Fract(t) => ("fract", t),
        Helper::FMin(t) => ("min", t),
        Helper::FMax(t) => ("max", t),
        Helper::Keep(t) => ("keep", t),
    };
    format!("silt_{op}_{}", t.cl())
}

/// `(T)(x)` for an unsigned `T`, `as_T((UT)(x))` for a signed one: the two's
/// complement truncation that C leaves implementation-defined for signed types.
fn wrap_to(t: Ty, x: &str) -> String {
    if t.is_signed_int() {
        format!("as_{}(({})({x}))", t.cl(), t.unsigned().cl())
    } else {
        format!("({})({x})", t.cl())
    }
}

fn helper_source(h: Helper) -> String {
    let name = helper_name(h);
    let bin = |t: Ty, body: String| {
        let c = t.cl();
        format!("static inline {c} {name}({c} a, {c} b) {{\n    return {body};\n}}\n")
    };
    let un = |t: Ty, body: String| {
        let c = t.cl();
        format!("static inline {c} {name}({c} a) {{\n    return {body};\n}}\n")
    };
    match h {
        // f16 without `cl_khr_fp16`: values are floats that hold f16 values
        // exactly, rounded after each operation (to nearest even, by rounding
        // the bits: 13 of a float's 23 fraction bits, or a multiple of 2^-24
        // for a subnormal f16); buffers hold the bits
        Helper::F16Round => format!(
            "static inline float {name}(float x) {{\n    float a = fabs(x);\n    uint u = as_uint(a);\n    uint r = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;\n    r = a < 6.103515625e-05f ? as_uint(rint(a * 16777216.0f) * 5.9604644775390625e-08f) : r;\n    r = a >= 65520.0f ? 0x7f800000u : r;\n    r = isnan(x) ? u : r;\n    return as_float((as_uint(x) & 0x80000000u) | r);\n}}\n"
        ),
        Helper::F16RoundD => format!(
            "static inline float {name}(double x) {{\n    double a = fabs(x);\n    if (!(a < 65520.0)) return isnan(x) ? (float)x : copysign(INFINITY, (float)x);\n    if (a < 6.103515625e-05) {{\n        a = rint(a * 16777216.0) * 5.9604644775390625e-08;\n    }} else {{\n        ulong u = as_ulong(a);\n        a = as_double((u + 0x1ffffffffffUL + ((u >> 42) & 1UL)) & ~0x3ffffffffffUL);\n    }}\n    return copysign((float)a, (float)x);\n}}\n"
        ),
        Helper::F16Load => format!(
            "static inline float {name}(ushort h) {{\n    uint e = h & 0x7fffu;\n    uint r = (e << 13) + (e >= 0x7c00u ? 224u << 23 : 112u << 23);\n    r = e < 0x400u ? as_uint((float)e * 5.9604644775390625e-08f) : r;\n    return as_float(((uint)(h & 0x8000u) << 16) | r);\n}}\n"
        ),
        Helper::F16Bits => format!(
            "static inline ushort {name}(float x) {{\n    uint u = as_uint(x) & 0x7fffffffu;\n    float a = as_float(u);\n    uint r = (u >> 13) - (112u << 10);\n    r = a < 6.103515625e-05f ? convert_uint_sat(a * 16777216.0f) : r;\n    r = a >= 65520.0f ? 0x7c00u : r;\n    uint m = (u >> 13) & 0x3ffu;\n    r = isnan(x) ? (0x7c00u | (m == 0u ? 0x200u : m)) : r;\n    return (ushort)(((as_uint(x) >> 16) & 0x8000u) | r);\n}}\n"
        ),
        // a value the compiler cannot see: PoCL folds some builtins of constant
        // arguments wrongly (`exp(NAN)`, `rint(3e38f)`, ... came out as garbage,
        // other outputs of the kernel with them)
        Helper::Keep(t) => {
            let c = t.cl();
            format!(
                "static inline {c} {name}({c} a) {{\n    volatile {c} v = a;\n    return v;\n}}\n"
            )
        }
        Helper::Add(t) | Helper::Sub(t) | Helper::Mul(t) => {
            let op = match h {
                Helper::Add(_) => "+",
                Helper::Sub(_) => "-",
                _ => "*",
            };
            let w = t.cl_wide_unsigned();
            bin(t, wrap_to(t, &format!("({w})a {op} ({w})b")))
        }
        Helper::Div(t) | Helper::Rem(t) => {
            let is_div = matches!(h, Helper::Div(_));
            let op = if is_div { "/" } else { "%" };
            let c = t.cl();
            let body = if t.is_signed_int() {
                // MIN / -1 wraps to MIN and MIN % -1 is 0, as in Rust's wrapping_*
                let neg1 = if is_div {
                    wrap_to(
                        t,
                        &format!("({})0 - ({})a", t.cl_wide_unsigned(), t.cl_wide_unsigned()),
                    )
                } else {
                    format!("({c})0")
                };
                format!("b == ({c})0 ? ({c})0 : (b == ({c})-1 ? {neg1} : ({c})(a {op} b))")
            } else {
                format!("b == ({c})0 ? ({c})0 : ({c})(a {op} b)")
            };
            bin(t, body)
        }
        Helper::Shl(t) | Helper::Shr(t) => {
            let c = t.cl();
            let mask = t.bits() - 1;
            let body = if matches!(h, Helper::Shl(_)) {
                let w = t.cl_wide_unsigned();
                // through the unsigned type of the same width, so no sign bits leak in
                wrap_to(
                    t,
                    &format!("({w})({})a << (s & {mask}u)", t.unsigned().cl()),
                )
            } else {
                // arithmetic for signed types, logical for unsigned ones
                format!("({c})(a >> (s & {mask}u))")
            };
            format!("static inline {c} {name}({c} a, uint s) {{\n    return {body};\n}}\n")
        }
        Helper::Neg(t) => {
            let w = t.cl_wide_unsigned();
            un(t, wrap_to(t, &format!("({w})0 - ({w})a")))
        }
        // negated as unsigned: OpenCL's `abs` leaves MIN undefined, and PoCL's
        // optimiser then assumes a result that is never negative
        Helper::Abs(t) => {
            let (c, u) = (t.cl(), t.unsigned().cl());
            un(
                t,
                format!("as_{c}(({u})(a < ({c})0 ? ({u})0 - as_{u}(a) : as_{u}(a)))"),
            )
        }
        Helper::Ctz(t) => {
            let u = t.unsigned().cl();
            let bits = t.bits();
            format!(
                "static inline uint {name}({c} a) {{\n    {u} u = ({u})a;\n    return u == ({u})0 ? {bits}u : (uint)popcount(({u})((u & ({u})(({u})0 - u)) - ({u})1));\n}}\n",
                c = t.cl()
            )
        }
        Helper::IClamp(t) | Helper::FClamp(t) => {
            let c = t.cl();
            // NaN stays NaN (comparisons are false), lo > hi does not trap
            format!("static inline {c} {name}({c} x, {c} lo, {c} hi) {{\n    return x < lo ? lo : (x > hi ? hi : x);\n}}\n")
        }
        Helper::FSignum(t) => {
            let c = t.cl();
            let one = if t == Ty::F32 { "1.0f" } else { "1.0" };
            format!("static inline {c} {name}({c} x) {{\n    return isnan(x) ? x : copysign({one}, x);\n}}\n")
        }
        Helper::FMin(t) | Helper::FMax(t) => {
            let c = t.cl();
            // IEEE 754-2019 minimumNumber / maximumNumber: the number when one side
            // is NaN, and -0.0 below +0.0, so that every device and the host agree
            // (fmin and fmax leave the sign of a zero result open)
            let (lt, zero) = if matches!(h, Helper::FMin(_)) {
                ("<", "signbit(a) ? a : b")
            } else {
                (">", "signbit(a) ? b : a")
            };
            format!(
                "static inline {c} {name}({c} a, {c} b) {{\n    return a {lt} b ? a : (b {lt} a ? b : (isnan(a) ? b : (isnan(b) ? a : ({zero}))));\n}}\n"
            )
        }
        Helper::Fract(t) => {
            let c = t.cl();
            // Rust's fract is x - trunc(x) (OpenCL's fract floors instead)
            format!("static inline {c} {name}({c} x) {{\n    return x - trunc(x);\n}}\n")
        }
    }
}

/// Names that user identifiers must not take in C: keywords, OpenCL types and
/// qualifiers, and every function silt's programs call.
const RESERVED: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "true",
    "false",
    "half",
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "kernel",
    "global",
    "local",
    "constant",
    "private",
    "read_only",
    "write_only",
    "read_write",
    "image1d_t",
    "image2d_t",
    "image3d_t",
    "sampler_t",
    "event_t",
    "complex",
    "imaginary",
    "INFINITY",
    "NAN",
    "HUGE_VALF",
    "HUGE_VAL",
    "MAXFLOAT",
    "sqrt",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "fabs",
    "floor",
    "ceil",
    "round",
    "trunc",
    "fract",
    "cbrt",
    "atan2",
    "pow",
    "pown",
    "fmin",
    "fmax",
    "hypot",
    "copysign",
    "fma",
    "fmod",
    "isnan",
    "isfinite",
    "isinf",
    "signbit",
    "popcount",
    "clz",
    "rotate",
    "abs",
    "min",
    "max",
    "clamp",
    "select",
    "get_global_id",
    "vload_half",
    "vstore_half",
    "main",
    "erf",
    "erfc",
    "rint",
    "vec_step",
    "pipe",
    "generic",
    "typeof",
    "asm",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_array_t",
    "image2d_depth_t",
    "image2d_array_depth_t",
    "queue_t",
    "ndrange_t",
    "clk_event_t",
    "reserve_id_t",
    "cl_mem_fence_flags",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "NULL",
    "bitselect",
    "mad",
    "mix",
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "sign",
    "step",
    "smoothstep",
    "degrees",
    "radians",
    "printf",
    "barrier",
    "shuffle",
    "shuffle2",
    "upsample",
    "hadd",
    "rhadd",
    "mul_hi",
    "mad_hi",
    "mad_sat",
    "add_sat",
    "sub_sat",
    "ctz",
    "nan",
    "ldexp",
    "frexp",
    "modf",
    "remquo",
    "sincos",
];

fn c_ident(name: &str) -> String {
    if !name.is_ascii() {
        return crate::ir::ascii_name(name).into_owned();
    }
    // macro-like names (FLT_MAX, M_PI, CHAR_BIT, ...) and cl_/CL_ names are the
    // OpenCL headers'
    let macro_like = name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let taken = RESERVED.contains(&name)
        || macro_like
        || name.starts_with("cl_")
        || name.starts_with("CL_")
        || name.starts_with("CLK_")
        || name.starts_with("silt_")
        || name.starts_with("__")
        || name.starts_with("as_")
        || name.starts_with("convert_")
        || name.starts_with("get_")
        || is_vector_type(name);
    if taken {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

fn is_vector_type(name: &str) -> bool {
    [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
        "half", "bool",
    ]
    .iter()
    .any(|base| {
        name.strip_prefix(base)
            .is_some_and(|n| matches!(n, "2" | "3" | "4" | "8" | "16"))
    })
}

struct Emitter<'k> {
    k: &'k Kernel,
    helpers: BTreeSet<Helper>,
    uses_f64: bool,
    locals: Vec<String>,
    params: Vec<String>,
    out: String,
    indent: usize,
    tmp: usize,
    /// The function's name when it is a helper's (else `silt_body_ENTRY`).
    name_override: Option<String>,
    /// The Rust line of the statement being emitted (0: unknown).
    rust_line: usize,
    /// (line of `out`, Rust line) for each line emitted for a statement.
    line_map: Vec<(usize, usize)>,
    /// Which locals only ever hold values known when the program is compiled.
    const_locals: Vec<bool>,
}

/// Whether each local of `k` only ever holds compile-time constants: every value
/// assigned to it is made of literals and such locals.
fn const_locals(k: &Kernel) -> Vec<bool> {
    let mut konst = vec![true; k.locals.len()];
    loop {
        let mut changed = false;
        let mut visit = |s: &Stmt, konst: &mut Vec<bool>| {
            let (id, value) = match s {
                Stmt::Let(id, Some(v)) | Stmt::Assign(Place::Local(id), _, v) => (*id, v),
                Stmt::For(id, ..) => {
                    if konst[*id] {
                        konst[*id] = false;
                        changed = true;
                    }
                    return;
                }
                _ => return,
            };
            if konst[id] && !const_expr(value, konst) {
                konst[id] = false;
                changed = true;
            }
        };
        walk_stmts(&k.body, &mut |s| visit(s, &mut konst));
        if !changed {
            return konst;
        }
    }
}

/// Calls `f` on every statement of `b`, nested ones included.
fn walk_stmts(b: &Block, f: &mut dyn FnMut(&Stmt)) {
    for s in &b.stmts {
        f(s);
        match s {
            Stmt::If(_, t, e) => {
                walk_stmts(t, f);
                if let Some(e) = e {
                    walk_stmts(e, f);
                }
            }
            Stmt::While(_, body) | Stmt::For(.., body) | Stmt::Loop(body) | Stmt::Block(body) => {
                walk_stmts(body, f);
            }
            _ => {}
        }
    }
}

/// Whether `e` is known when the program is compiled (literals, operations on
/// them, and locals that only hold such values).
fn const_expr(e: &Expr, konst: &[bool]) -> bool {
    match &e.kind {
        ExprKind::Lit(_) => true,
        ExprKind::Local(id) => konst.get(*id).copied().unwrap_or(false),
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => const_expr(x, konst),
        ExprKind::Binary(_, a, b) => const_expr(a, konst) && const_expr(b, konst),
        ExprKind::Call(_, args) => args.iter().all(|a| const_expr(a, konst)),
        _ => false,
    }
}

impl<'k> Emitter<'k> {
    /// See [`const_expr`].
    fn is_const(&self, e: &Expr) -> bool {
        const_expr(e, &self.const_locals)
    }

    fn new(k: &'k Kernel) -> Self {
        // unique C names: the first `x` is `x`, shadowing ones `x_1`, `x_2`, ...
        let mut used: HashMap<String, usize> = HashMap::new();
        let mut unique = |name: &str| {
            let base = c_ident(name);
            if !used.contains_key(&base) {
                used.insert(base.clone(), 0);
                return base;
            }
            let mut n = used.get(&base).copied().unwrap_or(0);
            let name = loop {
                n += 1;
                let candidate = format!("{base}_{n}");
                if !used.contains_key(&candidate) {
                    break candidate;
                }
            };
            used.insert(base, n);
            used.insert(name.clone(), 0);
            name
        };
        let params: Vec<String> = k.params.iter().map(|p| unique(&p.name)).collect();
        let locals = k.locals.iter().map(|l| unique(&l.name)).collect();
        let uses_f64 = k.inst == Some(Ty::F64)
            || k.params.iter().any(|p| p.ty == Ty::F64)
            || k.outputs.contains(&Ty::F64)
            || k.locals.iter().any(|l| l.ty == Ty::F64);
        Emitter {
            k,
            helpers: BTreeSet::new(),
            uses_f64,
            locals,
            params,
            out: String::new(),
            indent: 1,
            tmp: 0,
            name_override: None,
            rust_line: 0,
            line_map: Vec::new(),
            const_locals: const_locals(k),
        }
    }

    fn line(&mut self, s: &str) {
        if self.rust_line > 0 {
            let at = self.out.matches('\n').count();
            self.line_map.push((at, self.rust_line));
        }
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("silt_t{}", self.tmp)
    }

    /// `silt_body_ENTRY`: in the `silt_` namespace that user names never take.
    fn body_name(&self) -> String {
        match &self.name_override {
            Some(n) => n.clone(),
            None => format!("silt_body_{}", self.k.entry()),
        }
    }

    /// `static RET NAME_body(params) { ... }`
    fn body_function(&mut self) -> String {
        let k = self.k;
        let mut params: Vec<String> = k
            .params
            .iter()
            .zip(&self.params)
            .map(|(p, n)| match p.kind {
                ParamKind::InOut => format!("{}* {n}", p.ty.cl()),
                ParamKind::Index => format!("ulong {n}"),
                _ => format!("{} {n}", p.ty.cl()),
            })
            .collect();
        let ret = if k.outputs.len() == 1 {
            k.outputs[0].cl().to_string()
        } else {
            for (i, t) in k.outputs.iter().enumerate() {
                params.push(format!("{}* silt_ret{i}", t.cl()));
            }
            "void".to_string()
        };
        if params.is_empty() {
            params.push("void".into());
        }
        self.out.clear();
        self.line_map.clear();
        self.indent = 1;
        let body = k.body.clone();
        self.stmts(&body);
        self.rust_line = 0;
        let text = std::mem::take(&mut self.out);
        // the function's first line is its signature
        for (at, _) in &mut self.line_map {
            *at += 1;
        }
        format!(
            "static {ret} {}({}) {{\n{text}}}\n",
            self.body_name(),
            params.join(", ")
        )
    }

    /// `__kernel void NAME_TYPE(buffers..., ulong silt_n) { ... }`
    /// The two entry points: `NAME_T` for contiguous tensors (each at an offset)
    /// and `NAME_T_strided` for any views (strides of 0 broadcast), which turns the
    /// element's index into coordinates. The runtime picks one per launch.
    fn kernel_function(&mut self) -> String {
        let mut s = self.entry_point(false);
        s.push('\n');
        s.push_str(&self.entry_point(true));
        s
    }

    /// The parameter list of an entry point, by the launch ABI
    /// ([`silt_abi::opencl::map_args`]): one line per parameter (a view's buffer,
    /// offset and strides together), per output, for the shape, and the count.
    fn entry_args(&self, strided: bool) -> Vec<String> {
        use silt_abi::opencl::{map_args, MapArg, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE};
        let k = self.k;
        let pass = k.params.iter().map(|p| match p.kind {
            ParamKind::Input | ParamKind::InOut => Pass::Tensor,
            ParamKind::Scalar => Pass::Scalar,
            ParamKind::Index => Pass::Index,
        });
        // arguments on one line share a key: a view's buffer, offset and strides;
        // the shape and the dimension count
        #[derive(PartialEq)]
        enum Line {
            Param(usize),
            Output(usize),
            Dims,
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
                    Line::Param(param),
                    format!("{DIMS_TYPE} silt_st_{}", self.params[param]),
                ),
                MapArg::Output { output } => (
                    Line::Output(output),
                    format!(
                        "__global {}* silt_out{output}",
                        k.outputs[output].cl_storage()
                    ),
                ),
                MapArg::Shape => (Line::Dims, format!("{DIMS_TYPE} silt_shape")),
                MapArg::Ndim => (Line::Dims, format!("{NDIM_TYPE} silt_ndim")),
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

    fn entry_point(&mut self, strided: bool) -> String {
        let k = self.k;
        let f16_params = k
            .params
            .iter()
            .any(|p| p.ty == Ty::F16 && p.kind != ParamKind::Index);
        if f16_params {
            self.helpers.insert(Helper::F16Load);
        }
        if k.outputs.contains(&Ty::F16)
            || k.params
                .iter()
                .any(|p| p.ty == Ty::F16 && p.kind == ParamKind::InOut)
        {
            self.helpers.insert(Helper::F16Bits);
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
        let name = if strided {
            format!("{}_strided", k.entry())
        } else {
            k.entry()
        };
        let mut s = format!("__kernel void {name}(\n    ");
        s.push_str(&args.join(",\n    "));
        s.push_str(
            ") {\n    ulong silt_gid = get_global_id(0);\n    if (silt_gid >= silt_n) return;\n",
        );
        if strided {
            // coordinates of element silt_gid in the (broadcast) shape, applied to
            // each view's strides
            s.push_str("    ulong silt_dims[16];\n    vstore16(silt_shape, 0, silt_dims);\n");
            for n in &views {
                let _ = writeln!(
                    s,
                    "    ulong silt_s_{n}[16];\n    vstore16(silt_st_{n}, 0, silt_s_{n});"
                );
                let _ = writeln!(s, "    ulong silt_i_{n} = silt_off_{n};");
            }
            s.push_str("    ulong silt_rest = silt_gid;\n    for (uint silt_k = silt_ndim; silt_k-- > 0;) {\n");
            s.push_str("        ulong silt_c = silt_rest % silt_dims[silt_k];\n        silt_rest /= silt_dims[silt_k];\n");
            for n in &views {
                let _ = writeln!(s, "        silt_i_{n} += silt_c * silt_s_{n}[silt_k];");
            }
            s.push_str("    }\n");
        } else {
            for n in &views {
                let _ = writeln!(s, "    {n} += silt_off_{n};");
            }
        }
        for l in pre {
            let _ = writeln!(s, "    {l}");
        }
        let call_expr = format!("{}({{}})", self.body_name());
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

    // ---- statements ----

    fn stmts(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
        if let Some(t) = &b.tail {
            let v = self.expr(t);
            self.line(&format!("(void)({v});"));
        }
    }

    /// `} else {` ... or, for an `else` holding just an `if` whose condition needs
    /// no statements, `} else if (...) {`.
    fn else_branch(&mut self, f: Option<&Block>) {
        let Some(f) = f else { return };
        if let ([Stmt::If(c, t, f2)], None) = (f.stmts.as_slice(), &f.tail) {
            if !needs_hoist(c) {
                let c = self.expr(c);
                self.line(&format!("}} else if ({c}) {{"));
                self.nested(t);
                self.else_branch(f2.as_ref());
                return;
            }
        }
        self.line("} else {");
        self.nested(f);
    }

    fn nested(&mut self, b: &Block) {
        self.indent += 1;
        self.stmts(b);
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        let span = match s {
            Stmt::Let(_, Some(e))
            | Stmt::Assign(_, _, e)
            | Stmt::Expr(e)
            | Stmt::If(e, ..)
            | Stmt::While(e, _)
            | Stmt::For(_, e, ..) => Some(e.span),
            Stmt::Return(es) => es.first().map(|e| e.span),
            _ => None,
        };
        if let Some(line) = span.map(|sp| sp.start().line).filter(|&l| l > 0) {
            self.rust_line = line;
        }
        match s {
            Stmt::Let(id, init) => {
                let ty = self.k.locals[*id].ty.cl();
                let name = self.locals[*id].clone();
                match init {
                    Some(e) => {
                        let v = self.expr(e);
                        self.line(&format!("{ty} {name} = {v};"));
                    }
                    None => self.line(&format!("{ty} {name};")),
                }
            }
            Stmt::Assign(place, op, value) => {
                let (target, ty) = match place {
                    Place::Local(id) => (self.locals[*id].clone(), self.k.locals[*id].ty),
                    Place::Param(pid) => (self.params[*pid].clone(), self.k.params[*pid].ty),
                    Place::Deref(pid) => {
                        (format!("(*{})", self.params[*pid]), self.k.params[*pid].ty)
                    }
                };
                let (v, p) = self.pexpr(value);
                let v = match op {
                    None => v,
                    Some(op) => {
                        self.binary_text(*op, ty, value.ty, (&target, PRIMARY), (&v, p))
                            .0
                    }
                };
                self.line(&format!("{target} = {v};"));
            }
            Stmt::Expr(e) => {
                let v = self.expr(e);
                self.line(&format!("(void)({v});"));
            }
            Stmt::If(c, t, f) => {
                let c = self.expr(c);
                self.line(&format!("if ({c}) {{"));
                self.nested(t);
                self.else_branch(f.as_ref());
                self.line("}");
            }
            Stmt::While(c, body) => {
                if needs_hoist(c) {
                    self.line("for (;;) {");
                    self.indent += 1;
                    let cv = self.expr(c);
                    self.line(&format!("if (!({cv})) break;"));
                    self.indent -= 1;
                } else {
                    let cv = self.expr(c);
                    self.line(&format!("while ({cv}) {{"));
                }
                self.nested(body);
                self.line("}");
            }
            Stmt::For(id, start, end, inclusive, body) => {
                let t = self.k.locals[*id].ty;
                let ty = t.cl();
                let var = self.locals[*id].clone();
                let a = self.expr(start);
                let a_tmp = self.fresh();
                self.line(&format!("{ty} {a_tmp} = {a};"));
                let z = self.expr(end);
                let end_tmp = self.fresh();
                self.line(&format!("{ty} {end_tmp} = {z};"));
                if *inclusive {
                    // `a..=b` may end at the type's MAX: step only while i != b
                    let more = self.fresh();
                    self.line(&format!(
                        "for ({ty} {var} = {a_tmp}, {more} = ({a_tmp} <= {end_tmp}); {more}; {more} = ({var} != {end_tmp}), {var} = {more} ? ({ty})({var} + 1) : {var}) {{"
                    ));
                } else {
                    self.line(&format!(
                        "for ({ty} {var} = {a_tmp}; {var} < {end_tmp}; {var} = ({ty})({var} + 1)) {{"
                    ));
                }
                self.nested(body);
                self.line("}");
            }
            Stmt::Loop(body) => {
                self.line("for (;;) {");
                self.nested(body);
                self.line("}");
            }
            Stmt::Break => self.line("break;"),
            Stmt::Continue => self.line("continue;"),
            Stmt::Return(values) => {
                let mut vs: Vec<String> = Vec::new();
                for (i, v) in values.iter().enumerate() {
                    let mut text = self.expr(v);
                    // Rust evaluates the values left to right
                    if values[i + 1..].iter().any(needs_hoist) {
                        text = self.spill(v.ty, text);
                    }
                    vs.push(text);
                }
                match vs.len() {
                    0 => self.line("return;"),
                    1 if self.k.outputs.len() == 1 => {
                        let v = vs[0].clone();
                        self.line(&format!("return {v};"));
                    }
                    _ => {
                        for (i, v) in vs.iter().enumerate() {
                            self.line(&format!("*silt_ret{i} = {v};"));
                        }
                        self.line("return;");
                    }
                }
            }
            Stmt::Block(b) => {
                self.line("{");
                self.nested(b);
                self.line("}");
            }
        }
    }

    // ---- expressions ----

    /// The C text of `e`; statements it needs first (blocks, `if` values) are
    /// written out before it, in Rust's left-to-right order.
    fn expr(&mut self, e: &Expr) -> String {
        self.pexpr(e).0
    }

    /// The C text of `e` and the precedence of its outermost operator (so that
    /// operands are parenthesised only where C needs it).
    fn pexpr(&mut self, e: &Expr) -> (String, u8) {
        if e.ty == Ty::F64 {
            self.uses_f64 = true;
        }
        let text = match &e.kind {
            ExprKind::Lit(v) => literal(e.ty, *v),
            ExprKind::PendingFloat(t) => t.clone(),
            ExprKind::Local(id) => self.locals[*id].clone(),
            ExprKind::Param(pid) => self.params[*pid].clone(),
            ExprKind::Deref(pid) => format!("(*{})", self.params[*pid]),
            ExprKind::Unary(op, x) => {
                let (v, p) = self.pexpr(x);
                let operand = if p < UNARY || v.starts_with('-') {
                    format!("({v})")
                } else {
                    v.clone()
                };
                return match (op, x.ty) {
                    (UnOp::Neg, t) if t.is_float() => (format!("-{operand}"), UNARY),
                    (UnOp::Neg, t) => (self.call_helper(Helper::Neg(t), &[v]), PRIMARY),
                    (UnOp::Not, Ty::Bool) => (format!("!{operand}"), UNARY),
                    (UnOp::Not, t) => (format!("({})~{operand}", t.cl()), UNARY),
                };
            }
            ExprKind::Binary(op, l, r) => {
                if matches!(op, BinOp::And | BinOp::Or) && needs_hoist(r) {
                    // keep the short circuit: the right side runs only when needed
                    let lv = self.expr(l);
                    let t = self.fresh();
                    self.line(&format!("bool {t} = {lv};"));
                    let test = if *op == BinOp::And {
                        t.clone()
                    } else {
                        format!("!{t}")
                    };
                    self.line(&format!("if ({test}) {{"));
                    self.indent += 1;
                    let rv = self.expr(r);
                    self.line(&format!("{t} = {rv};"));
                    self.indent -= 1;
                    self.line("}");
                    return (t, PRIMARY);
                }
                let (mut lv, mut lp) = self.pexpr(l);
                if needs_hoist(r) {
                    lv = self.spill(l.ty, lv);
                    lp = PRIMARY;
                }
                let (rv, rp) = self.pexpr(r);
                return self.binary_text(*op, l.ty, r.ty, (&lv, lp), (&rv, rp));
            }
            ExprKind::Cast(x) if x.ty == e.ty => return self.pexpr(x),
            ExprKind::Cast(x) => {
                let v = self.expr(x);
                match (x.ty, e.ty) {
                    (Ty::F64, Ty::F16) => self.call_helper(Helper::F16RoundD, &[v]),
                    (from, Ty::F16) => {
                        let f = cast(from, Ty::F32, &v);
                        self.call_helper(Helper::F16Round, &[f])
                    }
                    (from, to) => cast(from.compute(), to, &v),
                }
            }
            ExprKind::Call(b, args) => {
                let mut vs = self.args_in_order(args);
                if args.iter().all(|a| self.is_const(a)) {
                    for (v, a) in vs.iter_mut().zip(args) {
                        if a.ty.is_float() {
                            let keep = Helper::Keep(a.ty.compute());
                            *v = self.call_helper(keep, std::slice::from_ref(v));
                        }
                    }
                }
                self.builtin(*b, args[0].ty, e.ty, &vs)
            }
            ExprKind::Helper(name, args) => {
                let vs = self.args_in_order(args);
                format!("{name}({})", vs.join(", "))
            }
            ExprKind::If(c, t, f) => {
                let tmp = self.fresh();
                let ty = e.ty.cl();
                self.line(&format!("{ty} {tmp};"));
                let cv = self.expr(c);
                self.line(&format!("if ({cv}) {{"));
                self.value_block(t, &tmp);
                self.line("} else {");
                self.value_block(f, &tmp);
                self.line("}");
                tmp
            }
            ExprKind::Block(b) => {
                let tmp = self.fresh();
                let ty = e.ty.cl();
                self.line(&format!("{ty} {tmp};"));
                self.line("{");
                self.value_block(b, &tmp);
                self.line("}");
                tmp
            }
        };
        (text, PRIMARY)
    }

    fn value_block(&mut self, b: &Block, target: &str) {
        self.indent += 1;
        for s in &b.stmts {
            self.stmt(s);
        }
        if let Some(t) = &b.tail {
            let v = self.expr(t);
            self.line(&format!("{target} = {v};"));
        }
        self.indent -= 1;
    }

    /// The texts of call arguments; an argument is evaluated into a temporary first
    /// when a later one writes statements, so that Rust's left-to-right order holds.
    fn args_in_order(&mut self, args: &[Expr]) -> Vec<String> {
        let mut vs = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let mut v = self.expr(a);
            if args[i + 1..].iter().any(needs_hoist) {
                v = self.spill(a.ty, v);
            }
            vs.push(v);
        }
        vs
    }

    /// Evaluates `v` into a temporary now (to keep evaluation order).
    fn spill(&mut self, t: Ty, v: String) -> String {
        let tmp = self.fresh();
        self.line(&format!("{} {tmp} = {v};", t.cl()));
        tmp
    }

    fn call_helper(&mut self, h: Helper, args: &[String]) -> String {
        self.helpers.insert(h);
        format!("{}({})", helper_name(h), args.join(", "))
    }

    /// `l op r` for operands of type `t` (`rt` for a shift count), each given with
    /// its precedence; returns the text and its precedence.
    fn binary_text(
        &mut self,
        op: BinOp,
        t: Ty,
        rt: Ty,
        l: (&str, u8),
        r: (&str, u8),
    ) -> (String, u8) {
        use BinOp as B;
        let plain = |op: BinOp| {
            let p = precedence(op);
            let lv = if l.1 < p {
                format!("({})", l.0)
            } else {
                l.0.to_string()
            };
            // left-associative: an equal-precedence right operand needs parentheses
            let rv = if r.1 <= p {
                format!("({})", r.0)
            } else {
                r.0.to_string()
            };
            (format!("{lv} {} {rv}", op.symbol()), p)
        };
        if op.is_comparison() || matches!(op, B::And | B::Or) {
            return plain(op);
        }
        if t == Ty::F16 {
            let (v, p) = self.binary_text(op, Ty::F32, rt, l, r);
            // `fmod` of f16 values is exact, and an f16 value
            if op == B::Rem {
                return (v, p);
            }
            return (self.call_helper(Helper::F16Round, &[v]), PRIMARY);
        }
        if t.is_float() {
            return match op {
                B::Rem => (format!("fmod({}, {})", l.0, r.0), PRIMARY),
                _ => plain(op),
            };
        }
        if t == Ty::Bool {
            // & | ^ on bools give an int 0 or 1
            let (v, _) = plain(op);
            return (format!("({v}) != 0"), precedence(B::Ne));
        }
        let wide = t.bits() >= 32 && !t.is_signed_int();
        let args = [l.0.to_string(), r.0.to_string()];
        let helper = match op {
            B::Add | B::Sub | B::Mul if wide => return plain(op),
            B::Add => Helper::Add(t),
            B::Sub => Helper::Sub(t),
            B::Mul => Helper::Mul(t),
            B::Div => Helper::Div(t),
            B::Rem => Helper::Rem(t),
            B::Shl | B::Shr => {
                let s = if rt == Ty::U32 {
                    r.0.to_string()
                } else {
                    format!("(uint)({})", r.0)
                };
                let h = if op == B::Shl {
                    Helper::Shl(t)
                } else {
                    Helper::Shr(t)
                };
                return (self.call_helper(h, &[l.0.to_string(), s]), PRIMARY);
            }
            B::BitAnd | B::BitOr | B::BitXor if wide || t.bits() >= 32 => return plain(op),
            B::BitAnd | B::BitOr | B::BitXor => {
                let (v, _) = plain(op);
                return (format!("({})({v})", t.cl()), UNARY);
            }
            _ => return plain(op),
        };
        (self.call_helper(helper, &args), PRIMARY)
    }

    fn builtin(&mut self, b: Builtin, t: Ty, ret: Ty, a: &[String]) -> String {
        use Builtin as B;
        if b == B::ToBits && t == Ty::F16 {
            return self.call_helper(Helper::F16Bits, a);
        }
        if t == Ty::F16 || ret == Ty::F16 {
            // computed in float, then rounded
            let v = self.builtin(b, t.compute(), ret.compute(), a);
            return if ret == Ty::F16 && !b.exact_on_f16() {
                self.call_helper(Helper::F16Round, &[v])
            } else {
                v
            };
        }
        let f = |name: &str| format!("{name}({})", a.join(", "));
        let x = &a[0];
        // arguments used as operands are parenthesised: they may be any expression
        let xp = format!("({x})");
        let a1 = a.get(1).map(|v| format!("({v})")).unwrap_or_default();
        let one = if t == Ty::F32 { "1.0f" } else { "1.0" };
        if let Form::Call(name) = b.def().opencl {
            return f(name);
        }
        match b {
            B::Fract => self.call_helper(Helper::Fract(t), a),
            B::Recip => format!("({one} / {xp})"),
            B::FSignum => self.call_helper(Helper::FSignum(t), a),
            // the default rounding mode of OpenCL is to nearest even
            B::ToDegrees => {
                // the same constant Rust multiplies by
                let k = if t == Ty::F32 {
                    literal(t, Value::F32(to_f32(180.0f64 / std::f64::consts::PI)))
                } else {
                    literal(t, Value::F64(180.0f64 / std::f64::consts::PI))
                };
                format!("({xp} * {k})")
            }
            B::ToRadians => {
                let k = if t == Ty::F32 {
                    literal(t, Value::F32(std::f32::consts::PI / 180.0))
                } else {
                    literal(t, Value::F64(std::f64::consts::PI / 180.0))
                };
                format!("({xp} * {k})")
            }
            B::FMin => self.call_helper(Helper::FMin(t), a),
            B::FMax => self.call_helper(Helper::FMax(t), a),
            B::FClamp => self.call_helper(Helper::FClamp(t), a),
            B::IsNan => format!("(isnan({x}) != 0)"),
            B::IsFinite => format!("(isfinite({x}) != 0)"),
            B::IsInfinite => format!("(isinf({x}) != 0)"),
            B::IsSignNegative => format!("(signbit({x}) != 0)"),
            B::IsSignPositive => format!("(signbit({x}) == 0)"),
            B::ToBits => format!("as_{}({x})", ret.cl()),
            B::WrappingAdd | B::WrappingSub | B::WrappingMul | B::WrappingDiv | B::WrappingRem => {
                let op = match b {
                    B::WrappingAdd => BinOp::Add,
                    B::WrappingSub => BinOp::Sub,
                    B::WrappingMul => BinOp::Mul,
                    B::WrappingDiv => BinOp::Div,
                    _ => BinOp::Rem,
                };
                format!("({})", self.binary_text(op, t, t, (x, 0), (&a[1], 0)).0)
            }
            B::WrappingShl => {
                self.binary_text(BinOp::Shl, t, Ty::U32, (x, 0), (&a[1], 0))
                    .0
            }
            B::WrappingShr => {
                self.binary_text(BinOp::Shr, t, Ty::U32, (x, 0), (&a[1], 0))
                    .0
            }
            B::WrappingNeg => self.call_helper(Helper::Neg(t), std::slice::from_ref(x)),
            B::WrappingAbs | B::IAbs => self.call_helper(Helper::Abs(t), std::slice::from_ref(x)),
            B::CountOnes => format!("((uint)popcount({x}))"),
            B::CountZeros => format!("((uint)({} - popcount({x})))", t.bits()),
            B::LeadingZeros => format!("((uint)clz({x}))"),
            B::TrailingZeros => self.call_helper(Helper::Ctz(t), std::slice::from_ref(x)),
            B::RotateLeft | B::RotateRight => {
                let m = t.bits() - 1;
                let n = if b == B::RotateLeft {
                    format!("({a1} & {m}u)")
                } else {
                    format!("(({}u - ({a1} & {m}u)) & {m}u)", t.bits())
                };
                format!("rotate({x}, ({})({n}))", t.cl())
            }
            B::ISignum => format!("(({c})(({xp} > ({c})0) - ({xp} < ({c})0)))", c = t.cl()),
            B::IClamp => self.call_helper(Helper::IClamp(t), a),
            // the table gives the others as calls
            _ => f(b.def().name),
        }
    }
}

/// The `f32` nearest to `x` (Rust's `as`, which rounds to nearest).
#[allow(clippy::cast_possible_truncation)]
fn to_f32(x: f64) -> f32 {
    x as f32
}

/// The precedence of a primary expression (name, literal, call, parenthesised).
const PRIMARY: u8 = 16;
/// The precedence of C's unary operators and casts.
const UNARY: u8 = 15;

/// C's precedence of a binary operator (higher binds tighter).
fn precedence(op: BinOp) -> u8 {
    use BinOp as B;
    match op {
        B::Mul | B::Div | B::Rem => 13,
        B::Add | B::Sub => 12,
        B::Shl | B::Shr => 11,
        B::Lt | B::Le | B::Gt | B::Ge => 10,
        B::Eq | B::Ne => 9,
        B::BitAnd => 8,
        B::BitXor => 7,
        B::BitOr => 6,
        B::And => 5,
        B::Or => 4,
    }
}

/// Whether emitting `e` writes statements (an `if` or block used as a value).
fn needs_hoist(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::If(..) | ExprKind::Block(_) => true,
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => needs_hoist(x),
        ExprKind::Binary(_, l, r) => needs_hoist(l) || needs_hoist(r),
        ExprKind::Call(_, args) | ExprKind::Helper(_, args) => args.iter().any(needs_hoist),
        _ => false,
    }
}

/// Reads a buffer element or scalar argument as a value of `t`.
fn load(t: Ty, v: String) -> String {
    match t {
        Ty::Bool => format!("({v} != 0)"),
        Ty::F16 => format!("{}({v})", helper_name(Helper::F16Load)),
        _ => v,
    }
}

/// Converts a value of `t` for storing in a buffer.
fn store(t: Ty, v: String) -> String {
    match t {
        Ty::Bool => format!("(uchar)({v})"),
        Ty::F16 => format!("{}({v})", helper_name(Helper::F16Bits)),
        _ => v,
    }
}

/// The C literal of `v` with type `t`.
pub fn literal(t: Ty, v: Value) -> String {
    match (t, v) {
        (_, Value::Bool(b)) => b.to_string(),
        (Ty::F32 | Ty::F16, Value::F32(x)) => float_lit(
            f64::from(x),
            x.is_nan(),
            format!("{x:?}"),
            "f",
            "INFINITY",
            "NAN",
        ),
        (Ty::F64, Value::F64(x)) => float_lit(
            x,
            x.is_nan(),
            format!("{x:?}"),
            "",
            "(double)INFINITY",
            "(double)NAN",
        ),
        (t, Value::Int(i)) => int_lit(t, i),
        // a value of another type than the expression cannot come out of typeck
        (t, Value::F32(x)) => format!("(({})({x:?}f))", t.cl()),
        (t, Value::F64(x)) => format!("(({})({x:?}))", t.cl()),
    }
}

fn float_lit(x: f64, nan: bool, repr: String, suffix: &str, inf: &str, nan_text: &str) -> String {
    if nan {
        nan_text.to_string()
    } else if x.is_infinite() {
        if x > 0.0 {
            inf.to_string()
        } else {
            format!("(-{inf})")
        }
    } else if x.is_sign_negative() {
        format!("({repr}{suffix})")
    } else {
        format!("{repr}{suffix}")
    }
}

fn int_lit(t: Ty, i: i128) -> String {
    match t {
        Ty::U32 => format!("{i}u"),
        Ty::I32 if i == i128::from(i32::MIN) => "(-2147483647 - 1)".into(),
        Ty::I32 if i < 0 => format!("({i})"),
        Ty::I32 => format!("{i}"),
        Ty::U64 => format!("{i}UL"),
        Ty::I64 if i == i128::from(i64::MIN) => "(-9223372036854775807L - 1L)".into(),
        Ty::I64 if i < 0 => format!("({i}L)"),
        Ty::I64 => format!("{i}L"),
        Ty::Bool => (i != 0).to_string(),
        // char, uchar, short, ushort: an int literal converted
        t => format!("(({})({i}))", t.cl()),
    }
}

/// `x as to` for a value of type `from`.
fn cast(from: Ty, to: Ty, x: &str) -> String {
    if from == to {
        return x.to_string();
    }
    let c = to.cl();
    match (from.is_float(), to.is_float()) {
        // saturating, NaN -> 0, toward zero: Rust's `as`
        (true, false) => format!("convert_{c}_sat_rtz({x})"),
        // round to nearest even (the default for conversions to float)
        (_, true) if from != Ty::Bool => format!("convert_{c}({x})"),
        (_, true) => format!("(({c})({x}))"),
        (false, false) => {
            let preserving = from == Ty::Bool
                || (from.is_signed_int() == to.is_signed_int() && to.bits() >= from.bits())
                || (!from.is_signed_int() && to.bits() > from.bits());
            if preserving {
                format!("(({c})({x}))")
            } else {
                format!("({})", wrap_to(to, x))
            }
        }
    }
}

//! C names: user identifiers kept out of C's and OpenCL's namespaces, and the
//! names of entry points, body functions and helper functions.

use silt_abi::opencl::{FoldEntry, MapEntry};

use crate::ir::{Function, HelperRef};

/// The entry point of a map kernel's instantiation: `NAME_TYPE`, or
/// `NAME_kernel` without a generic parameter (so that it never takes the name
/// of an OpenCL built-in such as `abs` or `dot`).
pub fn entry_name(f: &Function) -> String {
    match f.inst {
        Some(t) => format!("{}_{}", ascii_name(&f.name), t.name()),
        None => format!("{}_kernel", ascii_name(&f.name)),
    }
}

/// The entry point for views of any strides: [`entry_name`] + `_strided`.
pub fn strided_entry_name(f: &Function) -> String {
    format!("{}{}", entry_name(f), MapEntry::Strided.suffix())
}

/// The entry point for views of any strides over at most three coalesced
/// dimensions, with no branch in its index code: [`entry_name`] +
/// `_strided3` (same arguments as [`strided_entry_name`]'s).
pub fn strided3_entry_name(f: &Function) -> String {
    format!("{}{}", entry_name(f), MapEntry::Strided3.suffix())
}

/// The name of `f`'s entry point `e`: [`entry_name`] + its suffix.
pub fn fold_entry_name(f: &Function, e: FoldEntry) -> String {
    format!("{}{}", entry_name(f), e.suffix())
}

/// The C function of a kernel's body: `silt_body_ENTRY`, in the `silt_`
/// namespace that user names never take.
pub fn body_name(f: &Function) -> String {
    format!("silt_body_{}", entry_name(f))
}

/// The C function of another function of a kernel's entry (a reduction's
/// `identity`, `combine`, `finish`): `silt_PART_ENTRY`.
pub(super) fn part_name(f: &Function, part: &str) -> String {
    format!("silt_{part}_{}", entry_name(f))
}

/// The C function of a helper instantiation: `silt_helper_NAME_TAG_TYPE`, the
/// helper's name and a short hash of the path it was reached by, so that
/// helpers with one name in different modules (or `g<T>` at f32 and a `g_f32`)
/// stay different functions.
pub(super) fn helper_fn_name(h: &HelperRef) -> String {
    let name = ascii_name(&h.name);
    match h.inst {
        Some(t) => format!("silt_helper_{name}_{:04x}_{}", h.tag(), t.name()),
        None => format!("silt_helper_{name}_{:04x}", h.tag()),
    }
}

/// A Rust identifier as an OpenCL C one. Rust accepts Unicode identifiers
/// (`α`, `größe`) that OpenCL C compilers reject, so a name with a non-ASCII
/// character becomes `silt_x_` followed by its characters with `_` doubled and
/// every non-ASCII character written as `_HEX_` (`größe` is
/// `silt_x_gr_f6__df_e`): ASCII, one-to-one, and in the `silt_` namespace that
/// ASCII user names never take. An ASCII name is returned as it is.
pub fn ascii_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.is_ascii() {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::from("silt_x_");
    for c in name.chars() {
        match c {
            '_' => out.push_str("__"),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&format!("_{:x}_", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
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
    // OpenCL C's other built-in functions: a local of one of these names
    // would hide it from the code silt emits beside it (`abs_diff` did)
    "acospi",
    "asinpi",
    "atanpi",
    "atan2pi",
    "cospi",
    "sinpi",
    "tanpi",
    "exp10",
    "fdim",
    "ilogb",
    "lgamma",
    "lgamma_r",
    "logb",
    "maxmag",
    "minmag",
    "nextafter",
    "powr",
    "remainder",
    "rootn",
    "rsqrt",
    "tgamma",
    "abs_diff",
    "mad24",
    "mul24",
    "fast_distance",
    "fast_length",
    "fast_normalize",
    "isequal",
    "isnotequal",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isnormal",
    "isordered",
    "isunordered",
    "any",
    "all",
    "mem_fence",
    "read_mem_fence",
    "write_mem_fence",
    "work_group_barrier",
    "async_work_group_copy",
    "async_work_group_strided_copy",
    "wait_group_events",
    "prefetch",
    "atomic_add",
    "atomic_sub",
    "atomic_xchg",
    "atomic_inc",
    "atomic_dec",
    "atomic_cmpxchg",
    "atomic_min",
    "atomic_max",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "atom_add",
    "atom_sub",
    "atom_xchg",
    "atom_inc",
    "atom_dec",
    "atom_cmpxchg",
    "atom_min",
    "atom_max",
    "atom_and",
    "atom_or",
    "atom_xor",
    "vload2",
    "vload3",
    "vload4",
    "vload8",
    "vload16",
    "vstore2",
    "vstore3",
    "vstore4",
    "vstore8",
    "vstore16",
    "vloada_half",
    "vstorea_half",
];

/// `name` as a C identifier of a local or parameter: escaped to ASCII, and
/// with `_` appended where it would take a name of C, OpenCL or silt.
pub(super) fn c_ident(name: &str) -> String {
    if !name.is_ascii() {
        return ascii_name(name).into_owned();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::{Form, TABLE};

    /// Every OpenCL function the emitter calls by name is kept from user
    /// names (a local `abs_diff` once hid the built-in from `a.abs_diff(b)`).
    #[test]
    fn the_builtins_silt_calls_are_reserved() {
        let called = TABLE.iter().filter_map(|d| match d.opencl {
            Form::Call(name) => Some(name),
            Form::Special => None,
        });
        let special = [
            "abs_diff",
            "add_sat",
            "sub_sat",
            "popcount",
            "clz",
            "rotate",
            "isnan",
            "isinf",
            "isfinite",
            "signbit",
            "copysign",
            "floor",
            "trunc",
            "fabs",
            "tanh",
            "rint",
            "mul_hi",
            "barrier",
            "mem_fence",
            "atomic_cmpxchg",
            "atomic_add",
            "atomic_min",
            "atomic_max",
            "lgamma",
        ];
        for name in called.chain(special) {
            assert_eq!(c_ident(name), format!("{name}_"), "`{name}`");
        }
        assert_eq!(c_ident("abs_diffs"), "abs_diffs");
    }
}

//! Names for what the generator declares: plain ones, and ones that are
//! keywords, types, built-in functions, macros or reserved words of OpenCL C,
//! or that look like the names the code generator makes up (the emitter must
//! rename them all), raw identifiers and non-ASCII ones.

/// Names of parameters and locals.
#[rustfmt::skip]
pub(crate) const NAMES: &[&str] = &[
    "x", "y", "z", "a", "b", "acc", "v", "n", "i", "t", "s", "out", "res", "tmp", "result",
    // C and OpenCL C keywords and types
    "int", "float", "double", "half", "char", "long", "short", "uint", "uchar", "ulong",
    "ushort", "bool", "unsigned", "signed", "r#const", "volatile", "register", "auto", "switch",
    "case", "default", "goto", "typedef", "r#struct", "union", "r#enum", "sizeof", "restrict",
    "inline", "void", "kernel", "global", "local", "private", "constant", "size_t", "int4",
    "float2", "float4", "double16", "uchar8", "char16", "long3", "ulong2", "short8", "bool2",
    "quad", "float8", "double3", "uint16", "half4", "complex", "imaginary", "pipe", "generic",
    "asm", "r#typeof", "_Bool", "__kernel", "__global", "__attribute__", "ptrdiff_t",
    "intptr_t", "image2d_t", "sampler_t", "event_t",
    // built-in functions
    "sqrt", "max", "min", "clamp", "fabs", "exp", "pow", "select", "rotate", "popcount", "fma",
    "mad", "mix", "sign", "isnan", "signbit", "copysign", "fmod", "native_sin", "half_sqrt",
    "convert_int", "as_float", "vload4", "vstore4", "get_global_id", "get_local_size",
    "barrier", "printf", "atomic_add", "read_imagef", "isfinite", "trunc", "round", "rint",
    "nan", "ldexp", "upsample", "abs_diff", "hadd", "shuffle", "any", "all", "bitselect",
    "step", "dot", "length", "degrees", "erf", "erfc", "tgamma", "lgamma", "logb", "ilogb",
    "fdim", "fmax", "fmin", "nextafter", "remainder", "sub_sat", "add_sat", "mul24", "mad24",
    "clz", "ctz", "work_dim", "mem_fence", "async_work_group_copy", "prefetch",
    "vec_type_hint",
    // macros and preprocessor words
    "M_PI", "M_PI_F", "FLT_MAX", "INT_MAX", "CHAR_BIT", "MAXFLOAT", "HUGE_VALF", "cl_khr_fp64",
    "CL_VERSION_1_2", "NULL", "FP_CONTRACT", "OPENCL", "EXTENSION", "pragma", "define",
    "include", "ifdef", "endif", "line", "error", "warning",
    // like the generated code's own names
    "gid", "idx", "offset", "silt_t1", "silt_ret0", "silt_body", "x__0", "x_1", "int_", "_x",
    "__x", "main", "entry",
    // Rust keywords as raw identifiers, non-ASCII names, type-like names
    "r#match", "r#loop", "r#type", "r#fn", "café", "δ", "ñ", "Ω", "T", "U", "xs",
];

/// Names of kernels the generator names itself.
pub(crate) const KERNEL_NAMES: &[&str] = &[
    "k", "axpy", "int", "float", "kernel", "main", "silt_k", "café",
];

/// Stems of helper names (an index follows).
pub(crate) const HELPER_STEMS: &[&str] = &["h", "sq", "int", "silt_h", "mix"];

/// Names of the type parameter (`T` most often).
pub(crate) const TYPE_PARAMS: &[&str] = &["T", "T", "T", "U", "Elem", "F"];

/// Names a reduction's generated module uses itself (`launch`'s `axes`, a
/// scan's `axis` and `exclusive`, its functions and items), for the parameters
/// of a reduction's functions.
pub(crate) const FOLD_NAMES: &[&str] = &[
    "axes",
    "axis",
    "exclusive",
    "count",
    "acc",
    "identity",
    "map",
    "combine",
    "finish",
    "eval",
    "launch",
    "dispatch",
    "source",
    "Instance",
    "dtype",
];

//! Kernels from fuzzer bytes: a type-directed generator of `#[kernel]` functions
//! (and `#[helper]`s they call) in the subset silt supports.
//!
//! Every choice reads bytes from an [`Unstructured`], so the fuzzer's mutations
//! become changes to the program. The generator tracks the type of every
//! expression for every listed instantiation (narrowing inside `if T::IS_FLOAT`
//! and friends), so most kernels it writes are valid; with a small probability it
//! makes one of the mistakes users make instead (a wrong type, a missing `else`,
//! an unknown method, ...) to exercise the error paths.

use std::fmt::Write;

use arbitrary::{Result, Unstructured};
use silt_codegen::ty::Ty;

use crate::check::HelperSrc;

/// A generated kernel: the attribute's tokens, the item, and the helpers beside it.
#[derive(Debug, Clone)]
pub struct Case {
    /// What goes in `#[kernel(...)]`.
    pub attr: String,
    /// The `fn` item.
    pub item: String,
    /// The `#[helper]` functions the kernel may call.
    pub helpers: Vec<HelperSrc>,
    /// Whether a deliberate mistake was made (the kernel may be rejected).
    pub wild: bool,
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for h in &self.helpers {
            writeln!(f, "#[helper({})]\n{}\n", h.attr, h.item)?;
        }
        write!(f, "#[kernel({})]\n{}", self.attr, self.item)
    }
}

/// A type as written: the generic parameter or an element type.
#[derive(Debug, Clone, Copy, PartialEq)]
enum G {
    T,
    E(Ty),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Local,
    Param,
    Scalar,
    InOut,
    Index,
}

#[derive(Debug, Clone)]
struct Var {
    name: String,
    ty: G,
    mutable: bool,
    kind: Kind,
    /// Whether its type is known where it is declared (a method receiver).
    typed: bool,
}

#[derive(Debug, Clone)]
struct HelperSig {
    name: String,
    /// Parameter types; `G::T` is the helper's own generic parameter.
    params: Vec<G>,
    ret: G,
    /// The helper's `types` (empty when not generic).
    types: Vec<Ty>,
}

/// Names for parameters and locals: plain ones, and ones that are keywords,
/// types, macros or builtins in OpenCL C (the emitter must rename them).
const NAMES: &[&str] = &[
    "x",
    "y",
    "z",
    "a",
    "b",
    "acc",
    "v",
    "n",
    "i",
    "t",
    "s",
    "out",
    "res",
    "tmp",
    "int",
    "float",
    "double",
    "half",
    "char",
    "long",
    "short",
    "uint",
    "uchar",
    "ulong",
    "ushort",
    "bool",
    "unsigned",
    "signed",
    "r#const",
    "volatile",
    "register",
    "auto",
    "switch",
    "case",
    "default",
    "goto",
    "typedef",
    "r#struct",
    "union",
    "r#enum",
    "sizeof",
    "restrict",
    "inline",
    "kernel",
    "global",
    "local",
    "private",
    "constant",
    "size_t",
    "int4",
    "float2",
    "double16",
    "uchar8",
    "sqrt",
    "max",
    "min",
    "clamp",
    "fabs",
    "exp",
    "pow",
    "select",
    "rotate",
    "popcount",
    "fma",
    "mad",
    "mix",
    "sign",
    "isnan",
    "signbit",
    "copysign",
    "fmod",
    "native_sin",
    "half_sqrt",
    "convert_int",
    "as_float",
    "vload4",
    "vstore4",
    "get_global_id",
    "get_local_size",
    "barrier",
    "printf",
    "atomic_add",
    "read_imagef",
    "M_PI",
    "M_PI_F",
    "FLT_MAX",
    "INT_MAX",
    "CHAR_BIT",
    "MAXFLOAT",
    "HUGE_VALF",
    "cl_khr_fp64",
    "CL_VERSION_1_2",
    "NULL",
    "gid",
    "idx",
    "offset",
    "silt_t1",
    "silt_ret0",
    "silt_body",
    "x_1",
    "int_",
    "_x",
    "__x",
    "main",
    "entry",
    "r#match",
    "r#loop",
    "r#type",
    "r#fn",
    "café",
    "δ",
    "ñ",
    "Ω",
    "T",
    "U",
    "xs",
    "isfinite",
    "trunc",
    "round",
    "rint",
    "nan",
    "ldexp",
    "upsample",
    "abs_diff",
    "hadd",
    "shuffle",
    "any",
    "all",
    "bitselect",
    "step",
    "dot",
    "length",
    "degrees",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
    "logb",
    "ilogb",
    "fdim",
    "fmax",
    "fmin",
    "nextafter",
    "remainder",
    "sub_sat",
    "add_sat",
    "mul24",
    "mad24",
    "clz",
    "ctz",
    "work_dim",
    "mem_fence",
    "async_work_group_copy",
    "prefetch",
    "vec_type_hint",
    "image2d_t",
    "sampler_t",
    "event_t",
    "complex",
    "imaginary",
    "pipe",
    "generic",
    "asm",
    "r#typeof",
    "_Bool",
    "__kernel",
    "__global",
    "__attribute__",
    "ptrdiff_t",
    "intptr_t",
    "FP_CONTRACT",
    "OPENCL",
    "EXTENSION",
    "pragma",
    "define",
    "include",
    "ifdef",
    "endif",
    "line",
    "error",
    "warning",
    "char16",
    "long3",
    "ulong2",
    "short8",
    "bool2",
    "quad",
    "float8",
    "double3",
    "uint16",
    "half4",
];

const FLOAT_UNARY: &[&str] = &[
    "sqrt",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "ln_1p",
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
    "abs",
    "floor",
    "ceil",
    "round",
    "round_ties_even",
    "trunc",
    "fract",
    "recip",
    "signum",
    "cbrt",
    "to_degrees",
    "to_radians",
    "erf",
    "erfc",
];
const FLOAT_BINARY: &[&str] = &["atan2", "powf", "min", "max", "hypot", "copysign"];
const FLOAT_PRED: &[&str] = &[
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
];
const INT_BINARY: &[&str] = &[
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_div",
    "wrapping_rem",
    "min",
    "max",
];
const INT_U32_ARG: &[&str] = &[
    "wrapping_shl",
    "wrapping_shr",
    "rotate_left",
    "rotate_right",
];
const INT_COUNT: &[&str] = &[
    "count_ones",
    "count_zeros",
    "leading_zeros",
    "trailing_zeros",
];
const SIGNED_UNARY: &[&str] = &["abs", "signum", "wrapping_abs"];
const FLOAT_CONSTS: &[&str] = &[
    "MAX",
    "MIN",
    "EPSILON",
    "MIN_POSITIVE",
    "INFINITY",
    "NEG_INFINITY",
    "NAN",
    "PI",
    "TAU",
    "E",
    "SQRT_2",
    "FRAC_1_SQRT_2",
    "LN_2",
    "LN_10",
    "LOG2_E",
    "LOG10_E",
    "LOG2_10",
    "LOG10_2",
    "FRAC_PI_2",
    "FRAC_PI_3",
    "FRAC_PI_4",
    "FRAC_PI_6",
    "FRAC_PI_8",
    "FRAC_1_PI",
    "FRAC_2_PI",
    "FRAC_2_SQRT_PI",
];
const FLOAT_LITS: &[&str] = &[
    "0.0",
    "1.0",
    "0.5",
    "2.5",
    "-0.0",
    "1e3",
    "1e-7",
    "3.4e38",
    "1e-45",
    "1.7976931348623157e308",
    "5e-324",
    "1e400",
    "0.1",
    "123456789.123456789",
    "1_000.5",
    "6.02E23",
    "1e0",
];
const INT_LITS: &[&str] = &[
    "0", "1", "2", "3", "7", "10", "42", "100", "127", "0x7f", "0b101", "0o17", "1_0",
];

/// Generates a kernel (with helpers) from the fuzzer's bytes.
///
/// # Errors
/// Never in practice: running out of bytes makes every later choice the first one.
pub fn kernel(u: &mut Unstructured) -> Result<Case> {
    let mut g = Gen {
        u,
        generic: None,
        set: Vec::new(),
        scopes: Vec::new(),
        loop_depth: 0,
        outputs: Vec::new(),
        helpers: Vec::new(),
        fuel: 0,
        wild: false,
        mistakes: 0,
        in_helper: false,
    };
    g.mistakes = if g.u.ratio(1u8, 6u8)? { 1 } else { 0 };
    let n_helpers = g.u.int_in_range(0..=2u8)?;
    let mut helpers = Vec::new();
    for i in 0..n_helpers {
        helpers.push(g.helper(i)?);
    }
    let (attr, item) = g.kernel_fn()?;
    Ok(Case {
        attr,
        item,
        helpers,
        wild: g.wild,
    })
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    /// The generic parameter's name, when there is one.
    generic: Option<String>,
    /// The instantiations the current code is checked for (narrowed by
    /// `if T::IS_FLOAT` and friends).
    set: Vec<Ty>,
    scopes: Vec<Vec<Var>>,
    loop_depth: usize,
    outputs: Vec<G>,
    helpers: Vec<HelperSig>,
    /// Nodes left to generate.
    fuel: usize,
    /// Whether a mistake was made.
    wild: bool,
    /// Mistakes left to make.
    mistakes: u8,
    in_helper: bool,
}

fn ty_list() -> [Ty; 12] {
    Ty::ALL
}

impl Gen<'_, '_> {
    // ---- types ----

    fn tys(&self, g: G) -> Vec<Ty> {
        match g {
            G::E(t) => vec![t],
            G::T => self.set.clone(),
        }
    }

    fn all(&self, g: G, f: impl Fn(Ty) -> bool) -> bool {
        self.tys(g).into_iter().all(f)
    }

    fn name_of(&self, g: G) -> String {
        match g {
            G::E(t) => t.name().to_string(),
            G::T => self.generic.clone().unwrap_or_else(|| "T".into()),
        }
    }

    fn any_ty(&mut self) -> Result<G> {
        if self.generic.is_some() && self.u.ratio(1u8, 2u8)? {
            return Ok(G::T);
        }
        Ok(G::E(*self.u.choose(&ty_list())?))
    }

    fn int_ty(&mut self) -> Result<G> {
        if self.generic.is_some()
            && !self.set.is_empty()
            && self.all(G::T, Ty::is_int)
            && self.u.ratio(1u8, 3u8)?
        {
            return Ok(G::T);
        }
        let ints: Vec<Ty> = ty_list().into_iter().filter(|t| t.is_int()).collect();
        Ok(G::E(*self.u.choose(&ints)?))
    }

    fn float_ty(&mut self) -> Result<G> {
        if self.generic.is_some()
            && !self.set.is_empty()
            && self.all(G::T, Ty::is_float)
            && self.u.ratio(1u8, 3u8)?
        {
            return Ok(G::T);
        }
        Ok(G::E(*self.u.choose(&[Ty::F16, Ty::F32, Ty::F64])?))
    }

    /// A deliberate mistake, at most as often as allowed.
    fn mistake(&mut self) -> Result<bool> {
        if self.mistakes > 0 && self.u.ratio(1u8, 12u8)? {
            self.mistakes -= 1;
            self.wild = true;
            return Ok(true);
        }
        Ok(false)
    }

    fn fresh_name(&mut self) -> Result<String> {
        Ok((*self.u.choose(NAMES)?).to_string())
    }

    // ---- scopes ----

    fn vars(&self) -> impl Iterator<Item = &Var> {
        // later (inner) declarations shadow earlier ones
        let all: Vec<&Var> = self.scopes.iter().flatten().collect();
        let mut out: Vec<&Var> = Vec::new();
        for v in all.into_iter().rev() {
            if !out.iter().any(|o| o.name == v.name) {
                out.push(v);
            }
        }
        out.into_iter()
    }

    fn declare(&mut self, v: Var) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(v);
        }
    }

    fn vars_of(&self, g: G, pred: impl Fn(&Var) -> bool) -> Vec<Var> {
        self.vars()
            .filter(|v| v.ty == g && v.kind != Kind::Index && pred(v))
            .cloned()
            .chain(
                // the index is a u64
                self.vars()
                    .filter(|v| v.kind == Kind::Index && g == G::E(Ty::U64) && pred(v))
                    .cloned(),
            )
            .collect()
    }

    fn read(v: &Var) -> String {
        if v.kind == Kind::InOut {
            format!("*{}", v.name)
        } else {
            v.name.clone()
        }
    }

    // ---- expressions ----

    /// A literal of type `g` (untyped unless `suffix`).
    fn literal(&mut self, g: G, suffix: bool) -> Result<Option<String>> {
        if self.all(g, |t| t == Ty::Bool) {
            return Ok(Some((*self.u.choose(&["true", "false"])?).to_string()));
        }
        if !self.all(g, Ty::is_numeric) {
            return Ok(None);
        }
        let float = self.all(g, Ty::is_float);
        let signed = self.all(g, |t| t.is_signed_int() || t.is_float());
        if let G::E(t) = g {
            if t.is_int() && self.u.ratio(1u8, 6u8)? {
                // the type's bounds, as C must spell them (`-2147483648` is a long
                // in C; `-9223372036854775808` does not fit any type)
                let (lo, hi): (i128, i128) = match t {
                    Ty::U8 => (0, 255),
                    Ty::I8 => (-128, 127),
                    Ty::U16 => (0, 65535),
                    Ty::I16 => (-32768, 32767),
                    Ty::U32 => (0, 4_294_967_295),
                    Ty::I32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
                    Ty::U64 => (0, i128::from(u64::MAX)),
                    _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
                };
                let v = if self.u.ratio(1u8, 2u8)? { lo } else { hi };
                // unsuffixed only where the default type is the right one
                let text = if suffix || t != Ty::I32 {
                    format!("{v}{}", t.name())
                } else {
                    v.to_string()
                };
                return Ok(Some(text));
            }
        }
        let mut text = if float && self.u.ratio(2u8, 3u8)? {
            (*self.u.choose(FLOAT_LITS)?).to_string()
        } else {
            (*self.u.choose(INT_LITS)?).to_string()
        };
        if text.starts_with('-') && !signed {
            text.remove(0);
        }
        if signed && !text.starts_with('-') && self.u.ratio(1u8, 5u8)? {
            text.insert(0, '-');
        }
        if let (true, G::E(t)) = (suffix, g) {
            if text.contains(['.', 'e', 'E']) && !t.is_float() {
                text = "1".into();
            }
            if text.starts_with("0x") && t.is_float() {
                // `0x7ff32` would be one hex number
                text = "7".into();
            }
            text.push_str(t.name());
        }
        Ok(Some(text))
    }

    /// An expression whose type is known without context (a method receiver or
    /// a generic helper's argument).
    fn typed(&mut self, g: G, depth: u32) -> Result<String> {
        let vars = self.vars_of(g, |v| v.typed);
        let choice = self.u.int_in_range(0..=4u8)?;
        match choice {
            0 | 1 if !vars.is_empty() => {
                let v = self.u.choose(&vars)?;
                Ok(if v.kind == Kind::InOut {
                    format!("(*{})", v.name)
                } else {
                    v.name.clone()
                })
            }
            2 if matches!(g, G::E(t) if t.is_numeric()) => {
                let lit = self.literal(g, true)?.unwrap_or_default();
                Ok(if lit.starts_with('-') {
                    format!("({lit})")
                } else {
                    lit
                })
            }
            3 if depth > 0 && self.fuel > 0 => {
                let inner = self.expr(g, depth - 1)?;
                Ok(format!("({inner} as {})", self.name_of(g)))
            }
            _ => {
                let src = if self.all(g, Ty::is_numeric) {
                    "1"
                } else {
                    "false"
                };
                Ok(format!("({src} as {})", self.name_of(g)))
            }
        }
    }

    /// An expression of type `g`.
    fn expr(&mut self, g: G, depth: u32) -> Result<String> {
        self.fuel = self.fuel.saturating_sub(1);
        if depth == 0 || self.fuel == 0 {
            return self.leaf(g);
        }
        if self.mistake()? {
            return self.wrong_expr(g, depth);
        }
        let numeric = self.all(g, Ty::is_numeric);
        let float = self.all(g, Ty::is_float);
        let int = self.all(g, Ty::is_int);
        let not_float = self.all(g, |t| !t.is_float());
        let signed = self.all(g, |t| t.is_signed_int() || t.is_float());
        let boolean = self.all(g, |t| t == Ty::Bool);
        let d = depth - 1;
        let choice = self.u.int_in_range(0..=24u8)?;
        Ok(match choice {
            0..=3 => return self.leaf(g),
            4 | 5 if numeric => {
                let op = *self.u.choose(&["+", "-", "*", "/", "%"])?;
                let (a, b) = (self.expr(g, d)?, self.expr(g, d)?);
                format!("({a} {op} {b})")
            }
            6 if not_float => {
                let op = *self.u.choose(&["&", "|", "^"])?;
                let (a, b) = (self.expr(g, d)?, self.expr(g, d)?);
                format!("({a} {op} {b})")
            }
            7 if int => {
                let op = *self.u.choose(&["<<", ">>"])?;
                let a = self.expr(g, d)?;
                let ct = self.int_ty()?;
                let c = self.expr(ct, d)?;
                format!("({a} {op} {c})")
            }
            8 if signed => {
                let x = self.expr(g, d)?;
                // `-(-128i8)` overflows (Rust rejects it too)
                if x.trim_start_matches('(').starts_with('-') {
                    x
                } else {
                    format!("(-{x})")
                }
            }
            8 if not_float => format!("(!{})", self.expr(g, d)?),
            9 => {
                let src = self.cast_source(g)?;
                let inner = self.expr(src, d)?;
                format!("({inner} as {})", self.name_of(g))
            }
            10 | 11 if float => self.float_method(g, d)?,
            10 | 11 if int => self.int_method(g, d)?,
            12 if g == G::E(Ty::U32) => {
                let h = self.int_ty()?;
                let r = self.typed(h, d)?;
                let m = self.u.choose(INT_COUNT)?;
                format!("{r}.{m}()")
            }
            12 if g == G::E(Ty::Bool) => {
                let h = self.float_ty()?;
                let r = self.typed(h, d)?;
                let m = self.u.choose(FLOAT_PRED)?;
                format!("{r}.{m}()")
            }
            12 if matches!(g, G::E(Ty::U32 | Ty::U64)) => {
                let f = if g == G::E(Ty::U32) { Ty::F32 } else { Ty::F64 };
                let r = self.typed(G::E(f), d)?;
                format!("{r}.to_bits()")
            }
            13 if boolean => {
                let h = self.any_ty()?;
                let op = *self.u.choose(&["==", "!=", "<", "<=", ">", ">="])?;
                let (a, b) = (self.expr(h, d)?, self.expr(h, d)?);
                format!("({a} {op} {b})")
            }
            14 if boolean => {
                let op = *self.u.choose(&["&&", "||"])?;
                let (a, b) = (self.expr(g, d)?, self.expr(g, d)?);
                format!("({a} {op} {b})")
            }
            15 | 16 => {
                let c = self.cond(d)?;
                self.scopes.push(Vec::new());
                let stmts = self.stmts(d, 2)?;
                let a = self.expr(g, d)?;
                self.scopes.pop();
                let b = self.else_value(g, d)?;
                format!("(if {c} {{ {stmts}{a} }} else {b})")
            }
            17 => {
                self.scopes.push(Vec::new());
                let stmts = self.stmts(d, 3)?;
                let a = self.expr(g, d)?;
                self.scopes.pop();
                format!("{{ {stmts}{a} }}")
            }
            18 if self.generic.is_some() => {
                let (cond, yes, no) = self.static_split()?;
                let saved = std::mem::replace(&mut self.set, yes);
                let a = self.expr(g, d)?;
                self.set = no;
                let b = self.expr(g, d)?;
                self.set = saved;
                format!("(if {cond} {{ {a} }} else {{ {b} }})")
            }
            19 => match self.helper_call(g, d)? {
                Some(s) => s,
                None => return self.leaf(g),
            },
            20 if numeric => {
                let names: &[&str] = if float { FLOAT_CONSTS } else { &["MAX", "MIN"] };
                let c = *self.u.choose(names)?;
                match g {
                    G::E(Ty::F64)
                        if self.u.ratio(1u8, 3u8)?
                            && ![
                                "MAX",
                                "MIN",
                                "EPSILON",
                                "MIN_POSITIVE",
                                "INFINITY",
                                "NEG_INFINITY",
                                "NAN",
                            ]
                            .contains(&c) =>
                    {
                        format!("core::f64::consts::{c}")
                    }
                    G::E(Ty::F32)
                        if self.u.ratio(1u8, 3u8)?
                            && ![
                                "MAX",
                                "MIN",
                                "EPSILON",
                                "MIN_POSITIVE",
                                "INFINITY",
                                "NEG_INFINITY",
                                "NAN",
                            ]
                            .contains(&c) =>
                    {
                        format!("f32::consts::{c}")
                    }
                    _ => format!("{}::{c}", self.name_of(g)),
                }
            }
            21 if g == G::E(Ty::U32) && self.generic.is_some() && !self.set.is_empty() => {
                format!("{}::BITS", self.name_of(G::T))
            }
            22 if boolean && self.generic.is_some() => {
                let (cond, _, _) = self.static_split()?;
                cond
            }
            23 if numeric => {
                // a float literal's value in an integer context is an error; an
                // integer literal in a float context is fine
                let lit = self.literal(g, false)?.unwrap_or_else(|| "1".into());
                let b = self.expr(g, d)?;
                format!("({lit} * {b})")
            }
            _ => return self.leaf(g),
        })
    }

    fn leaf(&mut self, g: G) -> Result<String> {
        let vars = self.vars_of(g, |_| true);
        if !vars.is_empty() && self.u.ratio(2u8, 3u8)? {
            return Ok(Self::read(self.u.choose(&vars)?));
        }
        let suffix = self.u.ratio(1u8, 4u8)?;
        if let Some(l) = self.literal(g, suffix)? {
            return Ok(if l.starts_with('-') {
                format!("({l})")
            } else {
                l
            });
        }
        Ok(format!("(false as {})", self.name_of(g)))
    }

    /// A type `x as g` accepts for every instantiation.
    fn cast_source(&mut self, g: G) -> Result<G> {
        let to_bool_only = !self.all(g, |t| t != Ty::Bool);
        if to_bool_only {
            // only `bool as bool` (and `T as T`)
            return Ok(if self.u.ratio(1u8, 2u8)? {
                G::E(Ty::Bool)
            } else {
                g
            });
        }
        // a `T` that may be bool cast to a numeric type is fine (0 or 1)
        self.any_ty()
    }

    fn float_method(&mut self, g: G, d: u32) -> Result<String> {
        let r = self.typed(g, d)?;
        Ok(match self.u.int_in_range(0..=4u8)? {
            0 | 1 => format!("{r}.{}()", self.u.choose(FLOAT_UNARY)?),
            2 => {
                let m = *self.u.choose(FLOAT_BINARY)?;
                format!("{r}.{m}({})", self.expr(g, d)?)
            }
            3 => {
                let m = *self.u.choose(&["mul_add", "clamp"])?;
                let (a, b) = (self.expr(g, d)?, self.expr(g, d)?);
                format!("{r}.{m}({a}, {b})")
            }
            _ => format!("{r}.powi({})", self.expr(G::E(Ty::I32), d)?),
        })
    }

    fn int_method(&mut self, g: G, d: u32) -> Result<String> {
        let r = self.typed(g, d)?;
        let signed = self.all(g, Ty::is_signed_int);
        Ok(match self.u.int_in_range(0..=4u8)? {
            0 => format!("{r}.{}({})", self.u.choose(INT_BINARY)?, self.expr(g, d)?),
            1 => format!(
                "{r}.{}({})",
                self.u.choose(INT_U32_ARG)?,
                self.expr(G::E(Ty::U32), d)?
            ),
            2 => {
                let (a, b) = (self.expr(g, d)?, self.expr(g, d)?);
                format!("{r}.clamp({a}, {b})")
            }
            3 if signed => format!("{r}.{}()", self.u.choose(SIGNED_UNARY)?),
            _ => format!("{r}.wrapping_neg()"),
        })
    }

    /// A condition made of type properties, and the instantiations for which it
    /// is true and false.
    fn static_split(&mut self) -> Result<(String, Vec<Ty>, Vec<Ty>)> {
        let t = self.name_of(G::T);
        let (prop, f): (&str, fn(Ty) -> bool) = *self.u.choose(&[
            ("IS_FLOAT", Ty::is_float as fn(Ty) -> bool),
            ("IS_INT", Ty::is_int),
            ("IS_SIGNED", |t: Ty| t.is_signed_int() || t.is_float()),
            ("IS_BOOL", |t: Ty| t == Ty::Bool),
        ])?;
        let neg = self.u.ratio(1u8, 4u8)?;
        let (yes, no): (Vec<Ty>, Vec<Ty>) = self.set.iter().partition(|x| f(**x) != neg);
        let cond = if neg {
            format!("!{t}::{prop}")
        } else {
            format!("{t}::{prop}")
        };
        Ok((cond, yes, no))
    }

    fn else_value(&mut self, g: G, d: u32) -> Result<String> {
        if d > 0 && self.u.ratio(1u8, 4u8)? {
            let c = self.cond(d - 1)?;
            let a = self.expr(g, d - 1)?;
            let b = self.else_value(g, d - 1)?;
            return Ok(format!("if {c} {{ {a} }} else {b}"));
        }
        self.scopes.push(Vec::new());
        let stmts = self.stmts(d, 2)?;
        let b = self.expr(g, d)?;
        self.scopes.pop();
        Ok(format!("{{ {stmts}{b} }}"))
    }

    fn cond(&mut self, d: u32) -> Result<String> {
        self.expr(G::E(Ty::Bool), d)
    }

    fn helper_call(&mut self, g: G, d: u32) -> Result<Option<String>> {
        let tys = self.tys(g);
        let fits: Vec<HelperSig> = self
            .helpers
            .iter()
            .filter(|h| match h.ret {
                G::T => !tys.is_empty() && tys.iter().all(|t| h.types.contains(t)),
                G::E(t) => g == G::E(t),
            })
            .cloned()
            .collect();
        if fits.is_empty() {
            return Ok(None);
        }
        let h = self.u.choose(&fits)?.clone();
        // the instantiation is the type of the first generic argument
        let inst = match h.ret {
            G::T => g,
            G::E(_) if h.types.is_empty() => g,
            G::E(_) => G::E(*self.u.choose(&h.types)?),
        };
        let mut args = Vec::new();
        let mut first_generic = true;
        for p in &h.params {
            let pg = if *p == G::T { inst } else { *p };
            if *p == G::T && first_generic {
                first_generic = false;
                args.push(self.typed(pg, d)?);
            } else {
                args.push(self.expr(pg, d)?);
            }
        }
        Ok(Some(format!("{}({})", h.name, args.join(", "))))
    }

    /// One of the mistakes users make, in place of an expression of type `g`.
    fn wrong_expr(&mut self, g: G, d: u32) -> Result<String> {
        let other = self.any_ty()?;
        Ok(match self.u.int_in_range(0..=11u8)? {
            0 => self.expr(other, d)?,
            1 => format!("{}.frobnicate()", self.typed(g, d)?),
            2 => format!("(if {} {{ {} }})", self.cond(d)?, self.expr(g, d)?),
            3 => "undefined_name".to_string(),
            4 => format!("(1.5 + {})", self.expr(g, d)?),
            5 => format!("({} as bool)", self.expr(other, d)?),
            6 => format!(
                "{}.sqrt()",
                self.literal(g, false)?.unwrap_or_else(|| "2".into())
            ),
            7 => "300".to_string(),
            8 => format!("[{}][0]", self.expr(g, d)?),
            9 => format!("undefined_helper({})", self.expr(g, d)?),
            10 => format!("(-{})", self.expr(g, d)?),
            _ => format!("{}.min()", self.typed(g, d)?),
        })
    }

    // ---- statements ----

    fn stmts(&mut self, depth: u32, max: u8) -> Result<String> {
        let n = self.u.int_in_range(0..=max)?;
        let mut out = String::new();
        for _ in 0..n {
            if self.fuel == 0 {
                break;
            }
            out.push_str(&self.stmt(depth)?);
            out.push(' ');
        }
        Ok(out)
    }

    fn stmt(&mut self, depth: u32) -> Result<String> {
        self.fuel = self.fuel.saturating_sub(1);
        let d = depth.saturating_sub(1);
        let choice = self.u.int_in_range(0..=15u8)?;
        Ok(match choice {
            0..=3 => self.let_stmt(d)?,
            4..=6 => match self.assign(d)? {
                Some(s) => s,
                None => self.let_stmt(d)?,
            },
            7 if depth > 0 => {
                let c = self.cond(d)?;
                let a = self.block(d, 3)?;
                if self.u.ratio(1u8, 2u8)? {
                    let b = self.block(d, 3)?;
                    format!("if {c} {a} else {b}")
                } else {
                    format!("if {c} {a}")
                }
            }
            8 if depth > 0 && self.generic.is_some() => {
                let (cond, yes, no) = self.static_split()?;
                let saved = std::mem::replace(&mut self.set, yes);
                let a = self.block(d, 3)?;
                self.set = no;
                let b = self.block(d, 3)?;
                self.set = saved;
                format!("if {cond} {a} else {b}")
            }
            9 if depth > 0 => {
                // `break` in a `while` condition is an error (E0590)
                let outer = std::mem::replace(&mut self.loop_depth, 0);
                let c = self.cond(d)?;
                self.loop_depth = outer;
                self.loop_depth += 1;
                let body = self.block(d, 3)?;
                self.loop_depth -= 1;
                format!("while {c} {body}")
            }
            10 if depth > 0 => {
                let h = self.int_ty()?;
                let start = self.expr(h, d)?;
                let end = self.typed(h, d)?;
                let name = self.fresh_name()?;
                let dots = *self.u.choose(&["..", "..="])?;
                self.loop_depth += 1;
                self.scopes.push(vec![Var {
                    name: name.clone(),
                    ty: h,
                    mutable: false,
                    kind: Kind::Local,
                    typed: true,
                }]);
                let body = self.block(d, 3)?;
                self.scopes.pop();
                self.loop_depth -= 1;
                format!("for {name} in {start}{dots}{end} {body}")
            }
            11 if depth > 0 => {
                let c = self.cond(d)?;
                self.loop_depth += 1;
                let body = self.block(d, 3)?;
                self.loop_depth -= 1;
                format!("loop {{ if {c} {{ break; }} {body} }}")
            }
            12 if self.loop_depth > 0 => {
                let c = self.cond(d)?;
                let what = *self.u.choose(&["break", "continue"])?;
                format!("if {c} {{ {what}; }}")
            }
            13 => {
                let c = self.cond(d)?;
                let r = self.return_stmt(d)?;
                format!("if {c} {{ {r} }}")
            }
            14 => {
                let t = self.any_ty()?;
                let e = self.expr(t, d)?;
                if self.u.ratio(1u8, 2u8)? {
                    format!("let _ = {e};")
                } else {
                    format!("({e});")
                }
            }
            15 if depth > 0 => self.block(d, 3)?,
            _ => self.let_stmt(d)?,
        })
    }

    fn block(&mut self, d: u32, max: u8) -> Result<String> {
        self.scopes.push(Vec::new());
        let s = self.stmts(d, max)?;
        self.scopes.pop();
        Ok(format!("{{ {s}}}"))
    }

    fn let_stmt(&mut self, d: u32) -> Result<String> {
        let ty = self.any_ty()?;
        let name = self.fresh_name()?;
        let mutable = self.u.ratio(1u8, 2u8)?;
        let m = if mutable { "mut " } else { "" };
        let tn = self.name_of(ty);
        let form = self.u.int_in_range(0..=4u8)?;
        // `let x; x = ..x..;` reads the new, unassigned `x`
        let name = if form >= 3 && self.vars().any(|v| v.name == name) {
            format!("{}_d", name.trim_start_matches("r#"))
        } else {
            name
        };
        let (text, typed) = match form {
            0 | 1 => (
                format!("let {m}{name}: {tn} = {};", self.expr(ty, d)?),
                true,
            ),
            2 => (format!("let {m}{name} = {};", self.typed(ty, d)?), true),
            3 => {
                let e = self.expr(ty, d)?;
                (format!("let {name}: {tn}; {name} = {e};"), true)
            }
            _ => {
                let c = self.cond(d)?;
                let (a, b) = (self.typed(ty, d)?, self.typed(ty, d)?);
                (
                    format!("let {name}; if {c} {{ {name} = {a}; }} else {{ {name} = {b}; }}"),
                    true,
                )
            }
        };
        let deferred =
            text.contains(&format!("let {name};")) || text.contains(&format!("let {name}: {tn};"));
        self.declare(Var {
            name,
            ty,
            mutable: mutable && !deferred,
            kind: Kind::Local,
            typed,
        });
        Ok(text)
    }

    fn assign(&mut self, d: u32) -> Result<Option<String>> {
        let targets: Vec<Var> = self
            .vars()
            .filter(|v| v.kind == Kind::InOut || (v.mutable && v.kind != Kind::Index))
            .cloned()
            .collect();
        if targets.is_empty() {
            return Ok(None);
        }
        let v = self.u.choose(&targets)?.clone();
        let place = Self::read(&v);
        let numeric = self.all(v.ty, Ty::is_numeric);
        let not_float = self.all(v.ty, |t| !t.is_float());
        let int = self.all(v.ty, Ty::is_int);
        Ok(Some(match self.u.int_in_range(0..=3u8)? {
            1 if numeric => {
                let op = *self.u.choose(&["+=", "-=", "*=", "/=", "%="])?;
                format!("{place} {op} {};", self.expr(v.ty, d)?)
            }
            2 if not_float => {
                let op = *self.u.choose(&["&=", "|=", "^="])?;
                format!("{place} {op} {};", self.expr(v.ty, d)?)
            }
            3 if int => {
                let op = *self.u.choose(&["<<=", ">>="])?;
                let h = self.int_ty()?;
                format!("{place} {op} {};", self.expr(h, d)?)
            }
            _ => format!("{place} = {};", self.expr(v.ty, d)?),
        }))
    }

    fn return_stmt(&mut self, d: u32) -> Result<String> {
        if self.in_helper || !self.outputs.is_empty() {
            Ok(format!("return {};", self.output_value(d)?))
        } else {
            Ok("return;".to_string())
        }
    }

    fn output_value(&mut self, d: u32) -> Result<String> {
        let outs = self.outputs.clone();
        if outs.len() == 1 {
            return self.expr(outs[0], d);
        }
        let mut parts = Vec::new();
        for o in outs {
            parts.push(self.expr(o, d)?);
        }
        Ok(format!("({})", parts.join(", ")))
    }

    // ---- items ----

    fn pick_types(&mut self) -> Result<Vec<Ty>> {
        let n = self.u.int_in_range(1..=4u8)?;
        let mut out: Vec<Ty> = Vec::new();
        let family = self.u.int_in_range(0..=3u8)?;
        for _ in 0..n {
            let pool: Vec<Ty> = ty_list()
                .into_iter()
                .filter(|t| match family {
                    0 => t.is_float(),
                    1 => t.is_int(),
                    2 => t.is_numeric(),
                    _ => true,
                })
                .collect();
            let t = *self.u.choose(&pool)?;
            if !out.contains(&t) {
                out.push(t);
            }
        }
        Ok(out)
    }

    fn generic_name(&mut self) -> Result<String> {
        Ok((*self.u.choose(&["T", "T", "T", "U", "Elem", "F"])?).to_string())
    }

    fn helper(&mut self, i: u8) -> Result<HelperSrc> {
        let name = format!(
            "{}{i}",
            self.u.choose(&["h", "sq", "int", "silt_h", "mix"])?
        );
        let generic = self.u.ratio(2u8, 3u8)?;
        let types = if generic {
            self.pick_types()?
        } else {
            Vec::new()
        };
        self.generic = generic.then(|| "U".to_string());
        self.set = types.clone();
        let n = self.u.int_in_range(1..=3u8)?;
        let mut params = Vec::new();
        let mut vars = Vec::new();
        for j in 0..n {
            let t = if j == 0 && generic {
                G::T
            } else {
                self.any_ty()?
            };
            params.push(t);
            vars.push(Var {
                name: format!("a{j}"),
                ty: t,
                mutable: false,
                kind: Kind::Param,
                typed: true,
            });
        }
        let ret = if generic && self.u.ratio(2u8, 3u8)? {
            G::T
        } else {
            self.any_ty()?
        };
        let sig_params: Vec<String> = vars
            .iter()
            .map(|v| format!("{}: {}", v.name, self.name_of(v.ty)))
            .collect();
        self.scopes = vec![vars];
        self.outputs = vec![ret];
        self.in_helper = true;
        self.fuel = 40;
        let stmts = self.stmts(2, 3)?;
        let tail = self.expr(ret, 3)?;
        self.in_helper = false;
        let item = format!(
            "fn {name}{}({}) -> {} {{ {stmts}{tail} }}",
            if generic { "<U>" } else { "" },
            sig_params.join(", "),
            self.name_of(ret)
        );
        let attr = if generic {
            let list: Vec<&str> = types.iter().map(|t| t.name()).collect();
            format!("types = [{}]", list.join(", "))
        } else {
            String::new()
        };
        self.helpers.push(HelperSig {
            name: name.clone(),
            params,
            ret,
            types,
        });
        Ok(HelperSrc { name, attr, item })
    }

    fn kernel_fn(&mut self) -> Result<(String, String)> {
        let generic = self.u.ratio(3u8, 4u8)?;
        self.generic = if generic {
            Some(self.generic_name()?)
        } else {
            None
        };
        let types = if generic {
            self.pick_types()?
        } else {
            Vec::new()
        };
        self.set = types.clone();
        // a generic helper returning `U` is called at the kernel's types: keep
        // helpers whose types cover them, else their calls would be mistakes
        let n = self.u.int_in_range(1..=5u8)?;
        let mut params: Vec<String> = Vec::new();
        let mut vars: Vec<Var> = Vec::new();
        let mut has_index = false;
        for j in 0..n {
            let ty = self.any_ty()?;
            let mut name = self.fresh_name()?;
            if name.starts_with("__") || vars.iter().any(|v| v.name == name) || name == "_" {
                name = format!("p{j}");
            }
            let kind = match self.u.int_in_range(0..=9u8)? {
                0..=4 => Kind::Param,
                5..=7 => Kind::InOut,
                8 => Kind::Scalar,
                _ if !has_index => Kind::Index,
                _ => Kind::Param,
            };
            let mutable = kind != Kind::InOut && kind != Kind::Index && self.u.ratio(1u8, 4u8)?;
            let m = if mutable { "mut " } else { "" };
            let tn = self.name_of(ty);
            let (text, vty, kind) = match kind {
                Kind::Param => (format!("{m}{name}: {tn}"), ty, Kind::Param),
                Kind::InOut => (format!("{name}: &mut {tn}"), ty, Kind::InOut),
                Kind::Scalar | Kind::Local => {
                    (format!("#[scalar] {m}{name}: {tn}"), ty, Kind::Scalar)
                }
                Kind::Index => {
                    has_index = true;
                    (format!("#[index] {name}: u64"), G::E(Ty::U64), Kind::Index)
                }
            };
            params.push(text);
            vars.push(Var {
                name,
                ty: vty,
                mutable,
                kind,
                typed: true,
            });
        }
        let n_out = self.u.int_in_range(0..=3u8)?;
        let mut outputs = Vec::new();
        for _ in 0..n_out {
            outputs.push(self.any_ty()?);
        }
        if !vars
            .iter()
            .any(|v| matches!(v.kind, Kind::Param | Kind::InOut))
        {
            let tn = self.name_of(G::T);
            let ty = if generic { G::T } else { G::E(Ty::F32) };
            let tn = if generic { tn } else { "f32".into() };
            params.push(format!("x_in: {tn}"));
            vars.push(Var {
                name: "x_in".into(),
                ty,
                mutable: false,
                kind: Kind::Param,
                typed: true,
            });
        }
        if outputs.is_empty() && !vars.iter().any(|v| v.kind == Kind::InOut) {
            outputs.push(self.any_ty()?);
        }
        self.outputs = outputs.clone();
        self.scopes = vec![vars.clone()];
        self.fuel = self.u.int_in_range(10..=120usize)?;
        let mut body = self.stmts(3, 6)?;
        // write every `&mut` parameter at the end, most of the time
        let visible: Vec<Var> = self
            .vars()
            .filter(|v| v.kind == Kind::InOut)
            .cloned()
            .collect();
        for v in &visible {
            if self.u.ratio(3u8, 4u8)? {
                let e = self.expr(v.ty, 2)?;
                let _ = write!(body, "*{} = {e}; ", v.name);
            }
        }
        let tail = if outputs.is_empty() {
            String::new()
        } else if self.u.ratio(1u8, 5u8)? {
            format!("return {};", self.output_value(2)?)
        } else {
            self.output_value(3)?
        };
        let ret = match outputs.len() {
            0 => String::new(),
            1 => format!(" -> {}", self.name_of(outputs[0])),
            _ => {
                let names: Vec<String> = outputs.iter().map(|o| self.name_of(*o)).collect();
                format!(" -> ({})", names.join(", "))
            }
        };
        let name = *self.u.choose(&[
            "k", "axpy", "int", "float", "kernel", "main", "silt_k", "café",
        ])?;
        let vis = *self.u.choose(&["", "pub ", "pub(crate) "])?;
        let doc = if self.u.ratio(1u8, 8u8)? {
            "/// Docs with \"quotes\" and */ comment end.\n"
        } else {
            ""
        };
        let gen = match &self.generic {
            Some(g) => format!("<{g}>"),
            None => String::new(),
        };
        let item = format!(
            "{doc}{vis}fn {name}{gen}({}){ret} {{ {body}{tail} }}",
            params.join(", ")
        );
        let attr = if generic {
            let list: Vec<&str> = types.iter().map(|t| t.name()).collect();
            format!("types = [{}]", list.join(", "))
        } else {
            String::new()
        };
        Ok((attr, item))
    }
}

//! Writes `$OUT_DIR/generated.rs`: `SILT_RANDOM_COUNT` random valid `#[kernel]`
//! functions derived from `SILT_RANDOM_SEED`, and for each instantiation a function
//! that launches it, one that calls its `eval` and one that lists its inputs.
//!
//! The generator knows the kernel language's typing rules (docs/kernel.md): every
//! expression is generated at a type, literals are suffixed where nothing else
//! would fix their type, and only operations the checker accepts for every
//! instantiation type are used. Float outputs either stay within the exactly
//! specified operations (bit-exact on both backends) or end in one transcendental
//! function of exact arguments (compared within that function's ULP bound).

// indices and counts here are small: `as usize` never truncates
#![allow(clippy::cast_possible_truncation)]

use std::collections::HashSet;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

const DEFAULT_SEED: u64 = 0x5117_0001;
const DEFAULT_COUNT: usize = 40;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_SEED");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_COUNT");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_ONLY");
    let seed = env::var("SILT_RANDOM_SEED")
        .ok()
        .and_then(|s| parse_u64(&s))
        .unwrap_or(DEFAULT_SEED);
    let count = env::var("SILT_RANDOM_COUNT")
        .ok()
        .and_then(|s| parse_u64(&s))
        .map_or(DEFAULT_COUNT, |n| {
            usize::try_from(n).unwrap_or(DEFAULT_COUNT)
        });
    // `SILT_RANDOM_ONLY=3,17`: only these kernels of the corpus (to reproduce one)
    let only: Option<Vec<usize>> = env::var("SILT_RANDOM_ONLY")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect());
    let indices: Vec<usize> = match only {
        Some(v) => v,
        None => (0..count).collect(),
    };
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    fs::write(out.join("generated.rs"), generate(seed, count, &indices)).expect("write");
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

// ---------------------------------------------------------------------------
// randomness

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// True with probability `p` percent.
    fn pct(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
}

// ---------------------------------------------------------------------------
// types

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Ty {
    Bool,
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}
use Ty::*;

const ALL: [Ty; 12] = [Bool, U8, I8, U16, I16, U32, I32, U64, I64, F16, F32, F64];
const INTS: [Ty; 8] = [U8, I8, U16, I16, U32, I32, U64, I64];

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Bool => "bool",
            U8 => "u8",
            I8 => "i8",
            U16 => "u16",
            I16 => "i16",
            U32 => "u32",
            I32 => "i32",
            U64 => "u64",
            I64 => "i64",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
        }
    }
    fn is_int(self) -> bool {
        INTS.contains(&self)
    }
    fn is_float(self) -> bool {
        matches!(self, F16 | F32 | F64)
    }
    fn is_signed_int(self) -> bool {
        matches!(self, I8 | I16 | I32 | I64)
    }
    fn range(self) -> (i128, i128) {
        match self {
            U8 => (0, 255),
            I8 => (-128, 127),
            U16 => (0, 65535),
            I16 => (-32768, 32767),
            U32 => (0, u32::MAX.into()),
            I32 => (i32::MIN.into(), i32::MAX.into()),
            U64 => (0, u64::MAX.into()),
            I64 => (i64::MIN.into(), i64::MAX.into()),
            // the literals that do not round to infinity
            F16 => (-65519, 65519),
            _ => (i128::MIN, i128::MAX),
        }
    }
    fn fits(self, v: i128) -> bool {
        let (lo, hi) = self.range();
        lo <= v && v <= hi
    }
}

/// A type as the generator sees it: a concrete type, or the generic parameter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TT {
    C(Ty),
    G,
}

// ---------------------------------------------------------------------------
// syntax

#[derive(Clone, Debug)]
enum E {
    /// A literal; `int` is its value when it is an integer literal.
    Lit(String, Option<i128>),
    Path(String),
    Deref(String),
    Un(&'static str, Box<E>),
    Bin(&'static str, Box<E>, Box<E>),
    Cast(Box<E>, String),
    Call(Box<E>, &'static str, Vec<E>),
    If(Box<E>, Blk, Blk),
    Block(Blk),
    Paren(Box<E>),
    Tuple(Vec<E>),
    HelperCall(String, Vec<E>),
}

#[derive(Clone, Debug, Default)]
struct Blk {
    stmts: Vec<S>,
    tail: Option<Box<E>>,
}

#[derive(Clone, Debug)]
enum S {
    Let(String, bool, Option<String>, Option<E>),
    Assign(String, Option<&'static str>, E),
    If(E, Blk, Option<Blk>),
    For(String, E, E, bool, Blk),
    While(E, Blk),
    Loop(Blk),
    Break,
    Continue,
    Return(Option<E>),
    Block(Blk),
    LetWild(E),
}

fn binprec(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 13,
        "+" | "-" => 12,
        "<<" | ">>" => 11,
        "&" => 10,
        "^" => 9,
        "|" => 8,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 7,
        "&&" => 6,
        "||" => 5,
        _ => 0,
    }
}

fn prec(e: &E) -> u8 {
    match e {
        E::Lit(t, _) if t.starts_with('-') => 15,
        E::Lit(..) | E::Path(_) | E::Paren(_) | E::Call(..) | E::Tuple(_) | E::HelperCall(..) => 16,
        E::Deref(_) | E::Un(..) => 15,
        E::Cast(..) => 14,
        E::Bin(op, ..) => binprec(op),
        E::If(..) | E::Block(_) => 0,
    }
}

/// Whether printed text ends in `as TYPE` (then `<` / `<<` after it would start
/// generic arguments).
fn ends_in_cast(s: &str) -> bool {
    let mut words = s.trim_end().rsplit(' ');
    let last = words.next().unwrap_or("");
    words.next() == Some("as") && !last.ends_with(')')
}

/// Whether `e` is made of type properties only (`T::IS_INT && !T::IS_SIGNED`):
/// then an `if` on it is decided per instantiation.
fn is_static(e: &E) -> bool {
    match e {
        E::Path(p) => p.starts_with("T::IS_"),
        E::Un("!", x) | E::Paren(x) => is_static(x),
        E::Bin("&&" | "||", l, r) => is_static(l) && is_static(r),
        _ => false,
    }
}

struct Printer {
    out: String,
}

impl Printer {
    fn e(&mut self, e: &E, ind: usize) -> String {
        match e {
            E::Lit(t, _) | E::Path(t) => t.clone(),
            E::Deref(n) => format!("*{n}"),
            E::Un(op, x) => {
                let s = self.e(x, ind);
                if prec(x) < 15 || s.starts_with('-') && *op == "-" {
                    format!("{op}({s})")
                } else {
                    format!("{op}{s}")
                }
            }
            E::Bin(op, l, r) => {
                let p = binprec(op);
                let mut ls = self.e(l, ind);
                let rs = self.e(r, ind);
                let lp = prec(l);
                let rp = prec(r);
                if lp < p
                    || (p == 7 && lp == 7)
                    || (matches!(*op, "<" | "<=" | "<<") && ends_in_cast(&ls))
                {
                    ls = format!("({ls})");
                }
                let rs = if rp <= p { format!("({rs})") } else { rs };
                format!("{ls} {op} {rs}")
            }
            E::Cast(x, t) => {
                let s = self.e(x, ind);
                if prec(x) < 14 {
                    format!("({s}) as {t}")
                } else {
                    format!("{s} as {t}")
                }
            }
            E::Call(r, m, args) => {
                let s = self.e(r, ind);
                let s = if prec(r) < 16 { format!("({s})") } else { s };
                let a: Vec<String> = args.iter().map(|a| self.e(a, ind)).collect();
                format!("{s}.{m}({})", a.join(", "))
            }
            E::If(c, t, f) => {
                let cs = self.cond(c, ind);
                format!("if {cs} {} else {}", self.blk(t, ind), self.blk(f, ind))
            }
            E::Block(b) => self.blk(b, ind),
            E::Paren(x) => format!("({})", self.e(x, ind)),
            E::Tuple(xs) => {
                let a: Vec<String> = xs.iter().map(|a| self.e(a, ind)).collect();
                format!("({})", a.join(", "))
            }
            E::HelperCall(n, xs) => {
                let a: Vec<String> = xs.iter().map(|a| self.e(a, ind)).collect();
                format!("{n}({})", a.join(", "))
            }
        }
    }

    fn cond(&mut self, c: &E, ind: usize) -> String {
        let s = self.e(c, ind);
        if prec(c) == 0 {
            format!("({s})")
        } else {
            s
        }
    }

    fn blk(&mut self, b: &Blk, ind: usize) -> String {
        let pad = "    ".repeat(ind + 1);
        let mut s = String::from("{\n");
        for st in &b.stmts {
            let text = self.s(st, ind + 1);
            let _ = writeln!(s, "{pad}{text}");
        }
        if let Some(t) = &b.tail {
            let text = self.e(t, ind + 1);
            // a tail that starts like a statement (`if`, `{`) is parenthesised
            // when it continues as a binary operation
            let _ = writeln!(s, "{pad}{text}");
        }
        let _ = write!(s, "{}}}", "    ".repeat(ind));
        s
    }

    fn s(&mut self, st: &S, ind: usize) -> String {
        match st {
            S::Let(n, m, t, init) => {
                let mut s = format!("let {}{n}", if *m { "mut " } else { "" });
                if let Some(t) = t {
                    let _ = write!(s, ": {t}");
                }
                if let Some(i) = init {
                    let _ = write!(s, " = {}", self.e(i, ind));
                }
                s.push(';');
                s
            }
            S::Assign(p, op, e) => {
                let es = self.e(e, ind);
                match op {
                    Some(op) => format!("{p} {op}= {es};"),
                    None => format!("{p} = {es};"),
                }
            }
            S::If(c, t, f) => {
                let cs = self.cond(c, ind);
                let mut s = format!("if {cs} {}", self.blk(t, ind));
                if let Some(f) = f {
                    let _ = write!(s, " else {}", self.blk(f, ind));
                }
                s
            }
            S::For(v, a, b, incl, body) => {
                let a_s = self.e(a, ind);
                let a_s = if prec(a) < 16 {
                    format!("({a_s})")
                } else {
                    a_s
                };
                let b_s = self.e(b, ind);
                let b_s = if prec(b) < 16 {
                    format!("({b_s})")
                } else {
                    b_s
                };
                format!(
                    "for {v} in {a_s}{}{b_s} {}",
                    if *incl { "..=" } else { ".." },
                    self.blk(body, ind)
                )
            }
            S::While(c, body) => {
                let cs = self.cond(c, ind);
                format!("while {cs} {}", self.blk(body, ind))
            }
            S::Loop(body) => format!("loop {}", self.blk(body, ind)),
            S::Break => "break;".into(),
            S::Continue => "continue;".into(),
            S::Return(None) => "return;".into(),
            S::Return(Some(e)) => format!("return {};", self.e(e, ind)),
            S::Block(b) => self.blk(b, ind),
            S::LetWild(e) => format!("let _ = {};", self.e(e, ind)),
        }
    }
}

// ---------------------------------------------------------------------------
// the generator

#[derive(Clone, Debug)]
struct Var {
    name: String,
    tt: TT,
    /// Its type is fixed where it is declared (methods may be called on it).
    det: bool,
    /// Assignable (`let mut`, `mut` parameter, `&mut` parameter).
    assignable: bool,
    deref: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Input,
    Scalar,
    InOut,
    Index,
}

struct Param {
    name: String,
    kind: Kind,
    tt: TT,
    mutable: bool,
}

/// The transcendental functions and their tested ULP bounds (OpenCL 1.2, 7.4,
/// plus one for the host), with their extra arguments.
const APPROX: &[(&str, u64, usize)] = &[
    ("exp", 4, 0),
    ("exp2", 4, 0),
    ("exp_m1", 4, 0),
    ("ln", 4, 0),
    ("ln_1p", 3, 0),
    ("log2", 4, 0),
    ("log10", 4, 0),
    ("sin", 5, 0),
    ("cos", 5, 0),
    ("tan", 6, 0),
    ("asin", 5, 0),
    ("acos", 5, 0),
    ("atan", 6, 0),
    ("sinh", 5, 0),
    ("cosh", 5, 0),
    ("tanh", 6, 0),
    ("asinh", 5, 0),
    ("acosh", 5, 0),
    ("atanh", 6, 0),
    ("cbrt", 3, 0),
    ("erf", 17, 0),
    ("erfc", 17, 0),
    ("atan2", 7, 1),
    ("powf", 17, 1),
    ("hypot", 5, 1),
    ("powi", 17, 9),
];

/// Local names that are OpenCL C keywords, types, macros or built-ins.
const ODD_NAMES: &[&str] = &[
    "float",
    "int",
    "uint",
    "char",
    "uchar",
    "short",
    "long",
    "ulong",
    "double",
    "half",
    "global",
    "local",
    "private",
    "constant",
    "kernel",
    "restrict",
    "sizeof",
    "min",
    "max",
    "select",
    "exp",
    "sqrt",
    "get_global_id",
    "M_PI",
    "signed",
    "unsigned",
    "volatile",
    "register",
    "goto",
    "switch",
    "case",
    "default",
    "typedef",
    "void",
    "float4",
    "size_t",
    "x__0",
    "gid",
    "n",
    "i",
    "tmp",
    "result",
];

struct Gen {
    r: Rng,
    /// The instantiation types of the generic parameter (empty: none).
    gs: Vec<Ty>,
    scopes: Vec<Vec<Var>>,
    params: Vec<Param>,
    outputs: Vec<TT>,
    next: usize,
    loop_depth: usize,
    block_depth: usize,
    /// Nodes left to generate.
    budget: i64,
    /// Unsuffixed integer literals must fit `i32` (their type may default).
    small_lits: bool,
    used_names: HashSet<String>,
    /// The `#[helper]` functions bodies may call: name, parameter types, result.
    helpers: Vec<(String, Vec<Ty>, Ty)>,
}

struct Ex {
    e: E,
    det: bool,
}

impl Gen {
    fn insts(&self, t: TT) -> Vec<Ty> {
        match t {
            TT::C(x) => vec![x],
            TT::G => self.gs.clone(),
        }
    }
    fn all(&self, t: TT, f: impl Fn(Ty) -> bool) -> bool {
        let i = self.insts(t);
        !i.is_empty() && i.into_iter().all(f)
    }
    fn tname(&self, t: TT) -> String {
        match t {
            TT::C(x) => x.name().to_string(),
            TT::G => "T".to_string(),
        }
    }
    /// A random type (the generic parameter among them) satisfying `f` for all its
    /// instantiations.
    fn rand_tt(&mut self, f: impl Fn(Ty) -> bool) -> Option<TT> {
        let mut c: Vec<TT> = ALL.iter().filter(|t| f(**t)).map(|t| TT::C(*t)).collect();
        if !self.gs.is_empty() && self.gs.iter().all(|t| f(*t)) {
            // the generic parameter is the most interesting type: weight it
            c.extend([TT::G, TT::G, TT::G]);
        }
        if c.is_empty() {
            None
        } else {
            Some(self.r.pick(&c))
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        if self.r.pct(12) {
            let n = self.r.pick(ODD_NAMES);
            // a name not used yet in this kernel (shadowing is tested separately)
            if !self.used_names.contains(n) && !self.params.iter().any(|p| p.name == n) {
                self.used_names.insert(n.to_string());
                return n.to_string();
            }
        }
        self.next += 1;
        let n = format!("{prefix}{}", self.next);
        self.used_names.insert(n.clone());
        n
    }

    fn visible(&self) -> Vec<Var> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for s in self.scopes.iter().rev() {
            for v in s.iter().rev() {
                if seen.insert(v.name.clone()) {
                    out.push(v.clone());
                }
            }
        }
        out
    }

    fn declare(&mut self, v: Var) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(v);
        }
    }

    // ---- literals and constants ----

    fn float_texts(&self, tys: &[Ty]) -> Vec<&'static str> {
        let all = [
            "0.0",
            "-0.0",
            "1.0",
            "-1.0",
            "0.5",
            "2.0",
            "-2.5",
            "0.1",
            "3.0",
            "1e3",
            "1.5e-3",
            "100.0",
            "65504.0",
            "1e-40",
            "-1e-45",
            "3.4028235e38",
            "1e38",
            "16777217.0",
            "0.30000000000000004",
            "1e300",
            "4.9e-324",
            "2.5",
            "-7.25",
            "1e10",
            "255.5",
            "0.3333333333333333",
            "-128.5",
            "4294967296.0",
            "1E2",
            "6.02e23",
            "1_000.5",
            // f16: ties (to even), the largest finite values, subnormals
            "2049.0",
            "2051.0",
            "1.00048828125",
            "65519.0",
            "6.1e-5",
            "5.96e-8",
            "3e-8",
            "0.333",
        ];
        all.into_iter()
            .filter(|t| {
                let t2 = t.replace('_', "");
                tys.iter().all(|ty| match ty {
                    F32 => t2.parse::<f32>().is_ok_and(f32::is_finite),
                    // finite in f16: below 65520, where rounding gives infinity
                    F16 => t2.parse::<f64>().is_ok_and(|x| x.abs() < 65520.0),
                    _ => true,
                })
            })
            .collect()
    }

    fn int_values(&mut self, tys: &[Ty], i32_only: bool) -> Vec<i128> {
        let mut c: Vec<i128> = vec![
            0,
            1,
            2,
            3,
            5,
            7,
            8,
            15,
            16,
            31,
            32,
            63,
            64,
            100,
            127,
            128,
            255,
            256,
            1000,
            32767,
            32768,
            65535,
            65536,
            16_777_217,
            2_147_483_647,
            2_147_483_648,
            4_294_967_295,
            4_294_967_296,
            i64::MAX.into(),
            u64::MAX.into(),
            -1,
            -2,
            -7,
            -100,
            -128,
            -129,
            -32768,
            -2_147_483_648,
            i64::MIN.into(),
        ];
        c.push(i128::from(self.r.next() % 50));
        c.retain(|v| {
            tys.iter()
                .all(|t| (t.is_float() && *t != F16) || t.fits(*v))
        });
        if i32_only {
            c.retain(|v| I32.fits(*v));
        }
        c
    }

    fn int_text(&mut self, v: i128) -> String {
        match self.r.below(10) {
            0 if v >= 0 => format!("0x{v:x}"),
            1 if v.unsigned_abs() >= 1000 => {
                // with `_` separators
                let s = v.unsigned_abs().to_string();
                let mut o = String::new();
                for (i, ch) in s.chars().enumerate() {
                    if i > 0 && (s.len() - i) % 3 == 0 {
                        o.push('_');
                    }
                    o.push(ch);
                }
                if v < 0 {
                    format!("-{o}")
                } else {
                    o
                }
            }
            2 if v < 0 => format!("-0x{:x}", v.unsigned_abs()),
            _ => v.to_string(),
        }
    }

    /// A literal of type `t` (None when the type has none).
    fn lit(&mut self, t: TT, det: bool) -> Option<Ex> {
        let tys = self.insts(t);
        if tys.iter().all(|x| *x == Bool) {
            let b = if self.r.pct(50) { "true" } else { "false" };
            return Some(Ex {
                e: E::Lit(b.into(), None),
                det: true,
            });
        }
        if tys.contains(&Bool) {
            return None;
        }
        let all_float = tys.iter().all(|x| x.is_float());
        // integer literals also serve float types (a silt extension)
        let use_int = !all_float || self.r.pct(35);
        if t == TT::G && det {
            // `lit as T`: the literal's own type defaults (i32 or f64)
            let inner = if use_int {
                let vals = self.int_values(&[I32], true);
                let v = self.r.pick(&vals);
                E::Lit(self.int_text(v), Some(v))
            } else {
                let f = self.float_texts(&[F64]);
                E::Lit(self.r.pick(&f).to_string(), None)
            };
            return Some(Ex {
                e: E::Cast(Box::new(inner), "T".into()),
                det: true,
            });
        }
        if use_int {
            let i32_only = self.small_lits && !det;
            let vals = self.int_values(&tys, i32_only);
            let v = self.r.pick(&vals);
            let text = self.int_text(v);
            let suffix = match t {
                TT::C(x) if det || self.r.pct(30) => {
                    // `3f32` is a float literal in Rust; `0x1f32` is an integer
                    if x.is_float() && text.contains('x') {
                        return Some(Ex {
                            e: E::Lit(format!("{v}{}", x.name()), None),
                            det: true,
                        });
                    }
                    x.name()
                }
                _ => "",
            };
            let int = if suffix.is_empty() || !suffix.starts_with('f') {
                Some(v)
            } else {
                None
            };
            return Some(Ex {
                e: E::Lit(format!("{text}{suffix}"), int),
                det: !suffix.is_empty(),
            });
        }
        let texts = self.float_texts(&tys);
        let text = self.r.pick(&texts);
        let suffix = match t {
            TT::C(x) if det || self.r.pct(30) => {
                // `1e3f32` is fine, `1.f32` is not (never generated)
                x.name()
            }
            _ => "",
        };
        let text = if suffix.is_empty() {
            text.to_string()
        } else if text.contains(['.', 'e', 'E']) {
            format!("{text}{suffix}")
        } else {
            format!("{text}.0{suffix}")
        };
        Some(Ex {
            e: E::Lit(text, None),
            det: !suffix.is_empty(),
        })
    }

    /// An associated constant of type `t`.
    fn constant(&mut self, t: TT) -> Option<Ex> {
        let tys = self.insts(t);
        let tn = self.tname(t);
        let mut c: Vec<String> = Vec::new();
        if tys.iter().all(|x| *x != Bool) {
            c.push(format!("{tn}::MAX"));
            c.push(format!("{tn}::MIN"));
        }
        if tys.iter().all(|x| x.is_float()) {
            for n in ["EPSILON", "MIN_POSITIVE", "INFINITY", "NEG_INFINITY", "NAN"] {
                c.push(format!("{tn}::{n}"));
            }
            match t {
                TT::G => {
                    for n in ["PI", "E", "LN_2", "FRAC_1_SQRT_2", "TAU"] {
                        c.push(format!("T::{n}"));
                    }
                }
                // `half::f16` has no `consts` module: `f16::PI`
                TT::C(F16) => {
                    for n in ["PI", "E", "LN_10", "SQRT_2", "FRAC_PI_3"] {
                        c.push(format!("f16::{n}"));
                    }
                }
                TT::C(x) => {
                    for n in ["PI", "E", "LN_10", "SQRT_2", "FRAC_PI_3"] {
                        c.push(format!("core::{}::consts::{n}", x.name()));
                        c.push(format!("std::{}::consts::{n}", x.name()));
                    }
                }
            }
        }
        if t == TT::C(U32) {
            c.push(format!("{}::BITS", self.r.pick(&INTS).name()));
            if !self.gs.is_empty() {
                c.push("T::BITS".into());
            }
        }
        if t == TT::C(Bool) && !self.gs.is_empty() {
            for n in ["IS_FLOAT", "IS_INT", "IS_SIGNED", "IS_BOOL"] {
                c.push(format!("T::{n}"));
            }
        }
        if c.is_empty() {
            return None;
        }
        let p = c[self.r.below(c.len())].clone();
        Some(Ex {
            e: E::Path(p),
            det: true,
        })
    }

    fn var(&mut self, t: TT, det: bool) -> Option<Ex> {
        let vs: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.tt == t && (v.det || !det))
            .collect();
        if vs.is_empty() {
            return None;
        }
        // parameters (the data) half of the time
        let params: Vec<&Var> = vs
            .iter()
            .filter(|v| self.params.iter().any(|p| p.name == v.name))
            .collect();
        let v = if !params.is_empty() && self.r.pct(50) {
            params[self.r.below(params.len())]
        } else {
            &vs[self.r.below(vs.len())]
        };
        Some(Ex {
            e: if v.deref {
                E::Deref(v.name.clone())
            } else {
                E::Path(v.name.clone())
            },
            det: v.det,
        })
    }

    fn leaf(&mut self, t: TT, det: bool) -> Ex {
        for _ in 0..8 {
            let got = match self.r.below(20) {
                0..=12 => self.var(t, det),
                13..=17 => self.lit(t, det),
                _ => self.constant(t),
            };
            if let Some(x) = got {
                return x;
            }
        }
        // something of type `t` always exists: a cast of a literal
        if let Some(x) = self.var(t, det).or_else(|| self.constant(t)) {
            return x;
        }
        let tys = self.insts(t);
        let src = if tys.contains(&Bool) { "true" } else { "1i32" };
        Ex {
            e: E::Cast(Box::new(E::Lit(src.into(), None)), self.tname(t)),
            det: true,
        }
    }

    // ---- expressions ----

    fn expr(&mut self, t: TT, depth: usize, det: bool) -> Ex {
        self.budget -= 1;
        // a `bool` leaf is mostly a literal: prefer comparisons of data
        let stop = if t == TT::C(Bool) { 5 } else { 22 };
        if depth == 0 || self.budget <= 0 || self.r.pct(stop) {
            return self.leaf(t, det);
        }
        for _ in 0..12 {
            let choice = self.r.below(100);
            let got = match choice {
                0..=17 => self.arith(t, depth, det),
                18..=25 => self.bitwise(t, depth, det),
                26..=30 => self.shift(t, depth, det),
                31..=35 => self.unary(t, depth, det),
                36..=45 => self.cast(t, depth),
                46..=55 => self.compare(t, depth),
                56..=59 => self.logic(t, depth),
                60..=77 => self.method(t, depth),
                78..=84 => self.if_expr(t, depth, det),
                85..=88 => self.block_expr(t, depth, det),
                89..=93 => self.static_if(t, depth, det),
                94..=96 => self.helper_call(t, depth),
                _ => {
                    let x = self.expr(t, depth - 1, det);
                    Some(Ex {
                        e: E::Paren(Box::new(x.e)),
                        det: x.det,
                    })
                }
            };
            if let Some(x) = got {
                return x;
            }
        }
        self.leaf(t, det)
    }

    /// Two operands of type `t`, at least one determined when `det` is asked.
    fn operands(&mut self, t: TT, depth: usize, det: bool) -> (Ex, Ex) {
        if self.r.pct(50) {
            let l = self.expr(t, depth - 1, det);
            let r = self.expr(t, depth - 1, false);
            (l, r)
        } else {
            let r = self.expr(t, depth - 1, det);
            let l = self.expr(t, depth - 1, false);
            (l, r)
        }
    }

    /// A call of a `#[helper]` returning `t`.
    fn helper_call(&mut self, t: TT, depth: usize) -> Option<Ex> {
        let hs: Vec<(String, Vec<Ty>, Ty)> = self
            .helpers
            .iter()
            .filter(|h| TT::C(h.2) == t)
            .cloned()
            .collect();
        if hs.is_empty() {
            return None;
        }
        let (name, ps, _) = hs[self.r.below(hs.len())].clone();
        let args: Vec<E> = ps
            .iter()
            .map(|p| self.expr(TT::C(*p), depth - 1, false).e)
            .collect();
        Some(Ex {
            e: E::HelperCall(name, args),
            det: true,
        })
    }

    fn arith(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        if !self.all(t, |x| x != Bool) {
            return None;
        }
        let op = self.r.pick(&["+", "-", "*", "/", "%", "+", "-", "*"]);
        // `v op { v = e; w }`: the left operand is read before the right one runs
        let targets: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable && v.tt == t && v.det)
            .collect();
        if !targets.is_empty() && self.r.pct(15) {
            let v = targets[self.r.below(targets.len())].clone();
            let (place, read) = if v.deref {
                (format!("*{}", v.name), E::Deref(v.name.clone()))
            } else {
                (v.name.clone(), E::Path(v.name.clone()))
            };
            let val = self.expr(t, depth - 1, false);
            let tail = self.expr(t, depth - 1, false);
            let blk = Blk {
                stmts: vec![S::Assign(place, None, val.e)],
                tail: Some(Box::new(tail.e)),
            };
            return Some(Ex {
                e: E::Bin(op, Box::new(read), Box::new(E::Block(blk))),
                det: true,
            });
        }
        let (l, r) = self.operands(t, depth, det);
        Some(Ex {
            det: l.det || r.det,
            e: E::Bin(op, Box::new(l.e), Box::new(r.e)),
        })
    }

    fn bitwise(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        if !self.all(t, |x| !x.is_float()) {
            return None;
        }
        let op = self.r.pick(&["&", "|", "^"]);
        let (l, r) = self.operands(t, depth, det);
        Some(Ex {
            det: l.det || r.det,
            e: E::Bin(op, Box::new(l.e), Box::new(r.e)),
        })
    }

    fn shift(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        if !self.all(t, Ty::is_int) {
            return None;
        }
        let op = self.r.pick(&["<<", ">>"]);
        let l = self.expr(t, depth - 1, det);
        let ct = self.rand_tt(Ty::is_int)?;
        let c = self.expr(ct, depth - 1, true);
        Some(Ex {
            det: l.det,
            e: E::Bin(op, Box::new(l.e), Box::new(c.e)),
        })
    }

    fn unary(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        if self.r.pct(50) {
            if !self.all(t, |x| x.is_signed_int() || x.is_float()) {
                return None;
            }
            let x = self.expr(t, depth - 1, det);
            // `-LIT` is folded into one literal, which must fit
            let mut inner = &x.e;
            while let E::Paren(y) = inner {
                inner = y;
            }
            if let E::Lit(_, Some(v)) = inner {
                if !self.insts(t).iter().all(|ty| ty.is_float() || ty.fits(-*v)) {
                    return None;
                }
            }
            Some(Ex {
                det: x.det,
                e: E::Un("-", Box::new(x.e)),
            })
        } else {
            if !self.all(t, |x| !x.is_float()) {
                return None;
            }
            let x = self.expr(t, depth - 1, det);
            Some(Ex {
                det: x.det,
                e: E::Un("!", Box::new(x.e)),
            })
        }
    }

    fn cast(&mut self, t: TT, depth: usize) -> Option<Ex> {
        let src = self.rand_tt(|_| true)?;
        // pairs of (source, target) instantiation types
        let pairs: Vec<(Ty, Ty)> = match (src, t) {
            (TT::G, TT::G) => self.gs.iter().map(|x| (*x, *x)).collect(),
            (TT::G, TT::C(y)) => self.gs.iter().map(|x| (*x, y)).collect(),
            (TT::C(x), TT::G) => self.gs.iter().map(|y| (x, *y)).collect(),
            (TT::C(x), TT::C(y)) => vec![(x, y)],
        };
        if pairs.is_empty() || pairs.iter().any(|(s, d)| *d == Bool && *s != Bool) {
            return None;
        }
        let x = self.expr(src, depth - 1, true);
        let tn = self.tname(t);
        Some(Ex {
            e: E::Cast(Box::new(x.e), tn),
            det: true,
        })
    }

    fn compare(&mut self, t: TT, depth: usize) -> Option<Ex> {
        if t != TT::C(Bool) {
            return None;
        }
        let src = self.rand_tt(|_| true)?;
        let op = self.r.pick(&["==", "!=", "<", "<=", ">", ">="]);
        let (l, r) = self.operands(src, depth, true);
        Some(Ex {
            e: E::Bin(op, Box::new(l.e), Box::new(r.e)),
            det: true,
        })
    }

    fn logic(&mut self, t: TT, depth: usize) -> Option<Ex> {
        if t != TT::C(Bool) {
            return None;
        }
        let op = self.r.pick(&["&&", "||"]);
        let l = self.expr(t, depth - 1, false);
        let r = self.expr(t, depth - 1, false);
        Some(Ex {
            e: E::Bin(op, Box::new(l.e), Box::new(r.e)),
            det: true,
        })
    }

    fn method(&mut self, t: TT, depth: usize) -> Option<Ex> {
        let d = depth - 1;
        let mut options: Vec<u8> = Vec::new();
        if self.all(t, Ty::is_float) {
            options.extend([0, 0, 0]);
        }
        if self.all(t, Ty::is_int) {
            options.extend([1, 1, 1]);
        }
        if t == TT::C(U32) {
            options.push(2);
        }
        if t == TT::C(Bool) {
            options.push(3);
        }
        if t == TT::C(U16) || t == TT::C(U32) || t == TT::C(U64) {
            options.push(4);
        }
        if options.is_empty() {
            return None;
        }
        let e = match self.r.pick(&options) {
            0 => {
                let (m, n) = self.r.pick(&[
                    ("abs", 0),
                    ("floor", 0),
                    ("ceil", 0),
                    ("round", 0),
                    ("round_ties_even", 0),
                    ("trunc", 0),
                    ("fract", 0),
                    ("recip", 0),
                    ("signum", 0),
                    ("to_degrees", 0),
                    ("to_radians", 0),
                    ("sqrt", 0),
                    ("min", 1),
                    ("max", 1),
                    ("copysign", 1),
                    ("mul_add", 2),
                    ("clamp", 2),
                ]);
                let recv = self.expr(t, d, true);
                let mut args: Vec<E> = (0..n).map(|_| self.expr(t, d, false).e).collect();
                if m == "copysign" {
                    // the sign of a computed NaN is unspecified
                    args[0] = self.nan_free(t, args[0].clone());
                }
                E::Call(Box::new(recv.e), m, args)
            }
            1 => {
                let mut ms = vec![
                    ("wrapping_add", 1),
                    ("wrapping_sub", 1),
                    ("wrapping_mul", 1),
                    ("wrapping_div", 1),
                    ("wrapping_rem", 1),
                    ("wrapping_neg", 0),
                    ("min", 1),
                    ("max", 1),
                    ("clamp", 2),
                    ("wrapping_shl", 9),
                    ("wrapping_shr", 9),
                    ("rotate_left", 9),
                    ("rotate_right", 9),
                ];
                if self.all(t, Ty::is_signed_int) {
                    ms.extend([("abs", 0), ("signum", 0), ("wrapping_abs", 0)]);
                }
                let (m, n) = self.r.pick(&ms);
                let recv = self.expr(t, d, true);
                let args = if n == 9 {
                    vec![self.expr(TT::C(U32), d, false).e]
                } else {
                    (0..n).map(|_| self.expr(t, d, false).e).collect()
                };
                E::Call(Box::new(recv.e), m, args)
            }
            2 => {
                let src = self.rand_tt(Ty::is_int)?;
                let m = self.r.pick(&[
                    "count_ones",
                    "count_zeros",
                    "leading_zeros",
                    "trailing_zeros",
                ]);
                let recv = self.expr(src, d, true);
                E::Call(Box::new(recv.e), m, vec![])
            }
            3 => {
                let src = self.rand_tt(Ty::is_float)?;
                let m = self.r.pick(&[
                    "is_nan",
                    "is_finite",
                    "is_infinite",
                    "is_sign_negative",
                    "is_sign_positive",
                ]);
                let mut recv = self.expr(src, d, true).e;
                if m.starts_with("is_sign") {
                    recv = self.nan_free(src, recv);
                }
                E::Call(Box::new(recv), m, vec![])
            }
            _ => {
                let src = match t {
                    TT::C(U16) => F16,
                    TT::C(U32) => F32,
                    _ => F64,
                };
                let recv = self.expr(TT::C(src), d, true).e;
                let recv = self.nan_free(TT::C(src), recv);
                E::Call(Box::new(recv), "to_bits", vec![])
            }
        };
        Some(Ex { e, det: true })
    }

    /// `e`, with a NaN replaced by a number: the sign and payload of a NaN that
    /// arithmetic produced are unspecified (IEEE 754), so they must not reach
    /// `is_sign_*`, `copysign`'s sign or `to_bits`. An input NaN passed on
    /// unchanged keeps its bits, so parameters are used as they are.
    fn nan_free(&mut self, t: TT, e: E) -> E {
        if let E::Path(p) = &e {
            if self
                .params
                .iter()
                .any(|q| q.name == *p && !q.mutable && q.kind != Kind::InOut)
            {
                return e;
            }
        }
        let name = self.fresh("n");
        let tn = self.tname(t);
        let v = E::Path(name.clone());
        let repl = self
            .lit(t, false)
            .map_or(E::Lit("0.0".into(), None), |x| x.e);
        E::Block(Blk {
            stmts: vec![S::Let(name, false, Some(tn), Some(e))],
            tail: Some(Box::new(E::If(
                Box::new(E::Call(Box::new(v.clone()), "is_nan", vec![])),
                Blk {
                    stmts: vec![],
                    tail: Some(Box::new(repl)),
                },
                Blk {
                    stmts: vec![],
                    tail: Some(Box::new(v)),
                },
            ))),
        })
    }

    fn value_blk(&mut self, t: TT, depth: usize, det: bool) -> (Blk, bool) {
        self.scopes.push(Vec::new());
        self.block_depth += 1;
        let n = if self.block_depth > 3 || self.r.pct(60) {
            0
        } else {
            self.r.range(1, 2)
        };
        let stmts = self.stmts(n, depth);
        let tail = self.expr(t, depth - 1, det);
        self.block_depth -= 1;
        self.scopes.pop();
        (
            Blk {
                stmts,
                tail: Some(Box::new(tail.e)),
            },
            tail.det,
        )
    }

    fn if_expr(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        let c = self.expr(TT::C(Bool), depth - 1, false);
        // sometimes a branch leaves: `if c { return ..; } else { v }`
        if !det && !is_static(&c.e) && self.r.pct(10) {
            if let Some(div) = self.diverging_blk(depth) {
                let (f, fd) = self.value_blk(t, depth, det);
                return Some(Ex {
                    e: E::If(Box::new(c.e), div, f),
                    det: fd,
                });
            }
        }
        // a condition made of type properties only picks one branch per
        // instantiation (at compile time): both must fix the type then
        let stat = is_static(&c.e);
        let (a, ad) = self.value_blk(t, depth, det);
        let (b, bd) = self.value_blk(t, depth, det && stat);
        Some(Ex {
            e: E::If(Box::new(c.e), a, b),
            det: if stat { ad && bd } else { ad || bd },
        })
    }

    /// A block that returns (or breaks out of the loop it is in).
    fn diverging_blk(&mut self, depth: usize) -> Option<Blk> {
        let s = if self.loop_depth > 0 && self.r.pct(50) {
            if self.r.pct(50) {
                S::Break
            } else {
                S::Continue
            }
        } else {
            self.ret(depth)
        };
        Some(Blk {
            stmts: vec![s],
            tail: None,
        })
    }

    fn block_expr(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        let (b, d) = self.value_blk(t, depth, det);
        Some(Ex {
            e: E::Block(b),
            det: d,
        })
    }

    /// A static condition on the type properties and the instantiation types it
    /// holds for.
    fn static_cond(&mut self) -> Option<(E, Vec<Ty>, Vec<Ty>)> {
        if self.gs.len() < 2 {
            return None;
        }
        let (text, f): (&str, fn(Ty) -> bool) = self.r.pick(&[
            ("T::IS_FLOAT", Ty::is_float as fn(Ty) -> bool),
            ("T::IS_INT", Ty::is_int),
            ("T::IS_SIGNED", |t| t.is_signed_int() || t.is_float()),
            ("!T::IS_SIGNED", |t| !(t.is_signed_int() || t.is_float())),
            ("T::IS_BOOL", |t| t == Bool),
            ("T::IS_INT && T::IS_SIGNED", Ty::is_signed_int),
            ("T::IS_FLOAT || T::IS_BOOL", |t| t.is_float() || t == Bool),
        ]);
        let yes: Vec<Ty> = self.gs.iter().copied().filter(|t| f(*t)).collect();
        let no: Vec<Ty> = self.gs.iter().copied().filter(|t| !f(*t)).collect();
        if yes.is_empty() || no.is_empty() {
            return None;
        }
        Some((E::Path(text.into()), yes, no))
    }

    fn static_if(&mut self, t: TT, depth: usize, det: bool) -> Option<Ex> {
        let (c, yes, no) = self.static_cond()?;
        let saved = std::mem::replace(&mut self.gs, yes);
        let (a, ad) = self.value_blk(t, depth, det);
        self.gs = no;
        let (b, bd) = self.value_blk(t, depth, det);
        self.gs = saved;
        Some(Ex {
            e: E::If(Box::new(c), a, b),
            det: ad && bd,
        })
    }

    // ---- statements ----

    fn stmts(&mut self, n: usize, depth: usize) -> Vec<S> {
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.stmt(depth, &mut out);
        }
        out
    }

    fn any_tt(&mut self) -> TT {
        self.rand_tt(|_| true).unwrap_or(TT::C(I32))
    }

    fn stmt(&mut self, depth: usize, out: &mut Vec<S>) {
        self.budget -= 1;
        let nested_ok = self.block_depth < 3;
        match self.r.below(100) {
            0..=29 => self.let_stmt(depth, out),
            30..=49 => {
                if !self.assign(depth, out) {
                    self.let_stmt(depth, out);
                }
            }
            50..=56 => self.deferred_let(depth, out),
            57..=66 if nested_ok => {
                let c = self.expr(TT::C(Bool), depth, false);
                let a = self.stmt_blk(depth);
                let b = if self.r.pct(50) {
                    Some(self.stmt_blk(depth))
                } else {
                    None
                };
                out.push(S::If(c.e, a, b));
            }
            67..=74 if nested_ok && self.loop_depth < 2 => self.for_loop(depth, out),
            75..=79 if nested_ok && self.loop_depth < 2 => self.while_loop(depth, out),
            80..=82 if nested_ok && self.loop_depth < 2 => self.loop_loop(depth, out),
            83..=87 if self.loop_depth > 0 => {
                let c = self.expr(TT::C(Bool), depth, false);
                let s = if self.r.pct(60) {
                    S::Break
                } else {
                    S::Continue
                };
                out.push(S::If(
                    c.e,
                    Blk {
                        stmts: vec![s],
                        tail: None,
                    },
                    None,
                ));
            }
            88..=90 => {
                let c = self.expr(TT::C(Bool), depth, false);
                let r = self.ret(depth);
                out.push(S::If(
                    c.e,
                    Blk {
                        stmts: vec![r],
                        tail: None,
                    },
                    None,
                ));
            }
            91..=93 if nested_ok => {
                if let Some((c, yes, no)) = self.static_cond() {
                    let saved = std::mem::replace(&mut self.gs, yes);
                    let a = self.stmt_blk(depth);
                    self.gs = no;
                    let b = self.stmt_blk(depth);
                    self.gs = saved;
                    out.push(S::If(c, a, Some(b)));
                } else {
                    self.let_stmt(depth, out);
                }
            }
            94..=95 => {
                let t = self.any_tt();
                let e = self.expr(t, depth, true);
                out.push(S::LetWild(e.e));
            }
            96..=97 if nested_ok => {
                let b = self.stmt_blk(depth);
                out.push(S::Block(b));
            }
            _ => self.let_stmt(depth, out),
        }
    }

    fn stmt_blk(&mut self, depth: usize) -> Blk {
        self.scopes.push(Vec::new());
        self.block_depth += 1;
        let n = self.r.range(1, 3);
        let stmts = self.stmts(n, depth);
        self.block_depth -= 1;
        self.scopes.pop();
        Blk { stmts, tail: None }
    }

    fn let_stmt(&mut self, depth: usize, out: &mut Vec<S>) {
        let t = self.any_tt();
        let annotate = self.r.pct(35);
        let mutable = self.r.pct(45);
        // without an annotation the value must fix the type, or be a value whose
        // type may default (`let x = 3;` becomes whatever uses `x` make it)
        let loose = !annotate && self.r.pct(30);
        let outer = std::mem::replace(&mut self.small_lits, loose);
        let init = self.expr(t, depth, !annotate && !loose);
        self.small_lits = outer;
        // shadow a visible local of any type now and then
        let name = if self.r.pct(10) {
            let locals: Vec<String> = self
                .scopes
                .iter()
                .skip(1)
                .flatten()
                .filter(|v| !v.deref)
                .map(|v| v.name.clone())
                .collect();
            if locals.is_empty() {
                self.fresh("v")
            } else {
                self.r
                    .pick(&locals.iter().map(String::as_str).collect::<Vec<_>>())
                    .to_string()
            }
        } else {
            self.fresh("v")
        };
        let ty = annotate.then(|| self.tname(t));
        out.push(S::Let(name.clone(), mutable, ty, Some(init.e)));
        self.declare(Var {
            name,
            tt: t,
            det: annotate || init.det,
            assignable: mutable,
            deref: false,
        });
    }

    /// `let x: t; if c { x = a; } else { x = b; }` or `let x; x = e;`.
    fn deferred_let(&mut self, depth: usize, out: &mut Vec<S>) {
        let t = self.any_tt();
        let name = self.fresh("d");
        let tn = self.tname(t);
        if self.r.pct(50) {
            out.push(S::Let(name.clone(), false, Some(tn), None));
            let c = self.expr(TT::C(Bool), depth, false);
            let a = self.expr(t, depth, false);
            let b = self.expr(t, depth, false);
            out.push(S::If(
                c.e,
                Blk {
                    stmts: vec![S::Assign(name.clone(), None, a.e)],
                    tail: None,
                },
                Some(Blk {
                    stmts: vec![S::Assign(name.clone(), None, b.e)],
                    tail: None,
                }),
            ));
            self.declare(Var {
                name,
                tt: t,
                det: true,
                assignable: false,
                deref: false,
            });
        } else {
            out.push(S::Let(name.clone(), false, None, None));
            let e = self.expr(t, depth, true);
            out.push(S::Assign(name.clone(), None, e.e));
            self.declare(Var {
                name,
                tt: t,
                det: e.det,
                assignable: false,
                deref: false,
            });
        }
    }

    fn assign(&mut self, depth: usize, out: &mut Vec<S>) -> bool {
        let targets: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable)
            .collect();
        if targets.is_empty() {
            return false;
        }
        let v = targets[self.r.below(targets.len())].clone();
        let place = if v.deref {
            format!("*{}", v.name)
        } else {
            v.name.clone()
        };
        let t = v.tt;
        let mut ops: Vec<&'static str> = vec![];
        if self.all(t, |x| x != Bool) {
            ops.extend(["+", "-", "*", "/", "%"]);
        }
        if self.all(t, |x| !x.is_float()) {
            ops.extend(["&", "|", "^"]);
        }
        if self.all(t, Ty::is_int) {
            ops.extend(["<<", ">>"]);
        }
        if ops.is_empty() || self.r.pct(40) {
            let e = self.expr(t, depth, false);
            out.push(S::Assign(place, None, e.e));
        } else {
            let op = self.r.pick(&ops);
            let e = if op == "<<" || op == ">>" {
                let ct = self.rand_tt(Ty::is_int).unwrap_or(TT::C(U32));
                self.expr(ct, depth, true)
            } else {
                self.expr(t, depth, false)
            };
            out.push(S::Assign(place, Some(op), e.e));
        }
        true
    }

    fn ret(&mut self, depth: usize) -> S {
        let outs = self.outputs.clone();
        match outs.len() {
            0 => S::Return(None),
            1 => S::Return(Some(self.expr(outs[0], depth, false).e)),
            _ => {
                let v = outs.iter().map(|t| self.expr(*t, depth, false).e).collect();
                S::Return(Some(E::Tuple(v)))
            }
        }
    }

    fn loop_body(&mut self, var: Option<Var>, depth: usize, head: Vec<S>) -> Blk {
        self.scopes.push(Vec::new());
        if let Some(v) = var {
            self.declare(v);
        }
        self.loop_depth += 1;
        self.block_depth += 1;
        let mut stmts = head;
        let n = self.r.range(1, 3);
        stmts.extend(self.stmts(n, depth));
        self.block_depth -= 1;
        self.loop_depth -= 1;
        self.scopes.pop();
        Blk { stmts, tail: None }
    }

    fn for_loop(&mut self, depth: usize, out: &mut Vec<S>) {
        // a range (like a `while` condition) cannot `break` out of an outer loop
        let outer = std::mem::replace(&mut self.loop_depth, 0);
        let t = self.rand_tt(Ty::is_int).unwrap_or(TT::C(I32));
        let tn = self.tname(t);
        let signed = self.all(t, Ty::is_signed_int);
        let name = self.fresh("i");
        let suffix = |g: &mut Gen| -> String {
            match t {
                TT::C(x) if g.r.pct(50) => x.name().to_string(),
                _ => String::new(),
            }
        };
        // the end is evaluated once: a body that changes what it was computed from
        // must not change the number of iterations
        let mut head = Vec::new();
        let targets: Vec<Var> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable && v.tt == t)
            .collect();
        let case = if !targets.is_empty() && self.r.pct(25) {
            4
        } else {
            self.r.below(4)
        };
        let (start, end, incl, det) = match case {
            4 => {
                let v = targets[self.r.below(targets.len())].clone();
                let place = if v.deref {
                    format!("*{}", v.name)
                } else {
                    v.name.clone()
                };
                let read = if v.deref {
                    E::Deref(v.name.clone())
                } else {
                    E::Path(v.name.clone())
                };
                head.push(S::Assign(place, Some("+"), E::Lit("3".into(), Some(3))));
                (
                    E::Lit("0".into(), Some(0)),
                    E::Bin("&", Box::new(read), Box::new(E::Lit("7".into(), Some(7)))),
                    self.r.pct(30),
                    true,
                )
            }
            0 => {
                let s = suffix(self);
                let a = if signed && self.r.pct(30) { -3 } else { 0 };
                let b = self.r.range(0, 6);
                let det = !s.is_empty();
                (
                    E::Lit(format!("{a}{s}"), Some(a)),
                    E::Lit(format!("{b}{s}"), Some(b as i128)),
                    self.r.pct(30),
                    det,
                )
            }
            1 => {
                // an end computed from the data, at most 7 iterations
                let x = self.expr(t, depth.min(2), true);
                (
                    E::Lit("0".into(), Some(0)),
                    E::Bin("&", Box::new(x.e), Box::new(E::Lit("7".into(), Some(7)))),
                    self.r.pct(30),
                    true,
                )
            }
            2 => {
                // up to the type's maximum, inclusive
                let k = self.r.range(0, 4);
                (
                    E::Bin(
                        "-",
                        Box::new(E::Path(format!("{tn}::MAX"))),
                        Box::new(E::Lit(k.to_string(), Some(k as i128))),
                    ),
                    E::Path(format!("{tn}::MAX")),
                    true,
                    true,
                )
            }
            _ => {
                // a start from the data: `(x % 4)..4`
                let x = self.expr(t, depth.min(2), true);
                (
                    E::Bin("%", Box::new(x.e), Box::new(E::Lit("4".into(), Some(4)))),
                    E::Lit("4".into(), Some(4)),
                    self.r.pct(30),
                    true,
                )
            }
        };
        self.loop_depth = outer;
        let var = Var {
            name: name.clone(),
            tt: t,
            det,
            assignable: false,
            deref: false,
        };
        let body = self.loop_body(Some(var), depth, head);
        out.push(S::For(name, start, end, incl, body));
    }

    fn counter(&mut self, out: &mut Vec<S>) -> (String, TT) {
        let t = self.r.pick(&INTS);
        let name = self.fresh("c");
        out.push(S::Let(
            name.clone(),
            true,
            None,
            Some(E::Lit(format!("0{}", t.name()), Some(0))),
        ));
        (name, TT::C(t))
    }

    fn while_loop(&mut self, depth: usize, out: &mut Vec<S>) {
        let (c, ct) = self.counter(out);
        let k = self.r.range(1, 6);
        let mut cond = E::Bin(
            "<",
            Box::new(E::Path(c.clone())),
            Box::new(E::Lit(k.to_string(), Some(k as i128))),
        );
        if self.r.pct(60) {
            let outer = std::mem::replace(&mut self.loop_depth, 0);
            let extra = self.expr(TT::C(Bool), depth.min(2), false);
            self.loop_depth = outer;
            cond = E::Bin("&&", Box::new(cond), Box::new(extra.e));
        }
        // the counter goes up first, so that `continue` cannot loop forever
        let head = vec![S::Assign(c.clone(), Some("+"), E::Lit("1".into(), Some(1)))];
        let var = Var {
            name: c,
            tt: ct,
            det: true,
            assignable: false,
            deref: false,
        };
        self.scopes.push(vec![var]);
        let body = self.loop_body(None, depth, head);
        self.scopes.pop();
        out.push(S::While(cond, body));
    }

    fn loop_loop(&mut self, depth: usize, out: &mut Vec<S>) {
        let (c, ct) = self.counter(out);
        let k = self.r.range(1, 6);
        let head = vec![
            S::Assign(c.clone(), Some("+"), E::Lit("1".into(), Some(1))),
            S::If(
                E::Bin(
                    ">",
                    Box::new(E::Path(c.clone())),
                    Box::new(E::Lit(k.to_string(), Some(k as i128))),
                ),
                Blk {
                    stmts: vec![S::Break],
                    tail: None,
                },
                None,
            ),
        ];
        let var = Var {
            name: c,
            tt: ct,
            det: true,
            assignable: false,
            deref: false,
        };
        self.scopes.push(vec![var]);
        let body = self.loop_body(None, depth, head);
        self.scopes.pop();
        out.push(S::Loop(body));
    }

    /// The value of a float output: exact, or one transcendental function of
    /// exact arguments.
    fn output_value(&mut self, t: TT, depth: usize) -> (E, u64) {
        if self.all(t, Ty::is_float) && self.r.pct(35) {
            let (f, bound, extra) = self.r.pick(APPROX);
            let recv = self.expr(t, depth, true);
            let args = match extra {
                0 => vec![],
                9 => {
                    let n: i32 = self.r.pick(&[-3, -2, -1, 0, 1, 2, 3, 4, 5, 7]);
                    vec![E::Lit(n.to_string(), Some(n.into()))]
                }
                _ => vec![self.expr(t, depth, false).e],
            };
            return (E::Call(Box::new(recv.e), f, args), bound);
        }
        (self.expr(t, depth, false).e, 0)
    }
}

// ---------------------------------------------------------------------------
// kernels

struct Meta {
    name: String,
    gs: Vec<Ty>,
    params: Vec<Param>,
    outputs: Vec<TT>,
    /// Output names and ULP bounds (0: exact), outputs first, then `&mut` params.
    checks: Vec<(String, TT, u64)>,
    text: String,
}

/// A `#[helper]` of concrete types with a random body; `g` may call it afterwards.
fn gen_helper(g: &mut Gen, name: String) -> String {
    let n = g.r.range(1, 3);
    let ptys: Vec<Ty> = (0..n).map(|_| g.r.pick(&ALL)).collect();
    let ret = g.r.pick(&ALL);
    let gs = std::mem::take(&mut g.gs);
    let scopes = std::mem::replace(&mut g.scopes, vec![Vec::new()]);
    let params = std::mem::take(&mut g.params);
    let outputs = std::mem::replace(&mut g.outputs, vec![TT::C(ret)]);
    let budget = std::mem::replace(&mut g.budget, 30);
    for (i, t) in ptys.iter().enumerate() {
        let pn = format!("p{i}");
        // arguments may be computed NaNs: `mutable` keeps `nan_free` wrapping them
        g.params.push(Param {
            name: pn.clone(),
            kind: Kind::Input,
            tt: TT::C(*t),
            mutable: true,
        });
        g.scopes[0].push(Var {
            name: pn,
            tt: TT::C(*t),
            det: true,
            assignable: false,
            deref: false,
        });
    }
    g.scopes.push(Vec::new());
    let k = g.r.range(0, 3);
    let stmts = g.stmts(k, 2);
    let tail = g.expr(TT::C(ret), 2, false).e;
    let body = Blk {
        stmts,
        tail: Some(Box::new(tail)),
    };
    let mut p = Printer { out: String::new() };
    let ps: Vec<String> = ptys
        .iter()
        .enumerate()
        .map(|(i, t)| format!("p{i}: {}", t.name()))
        .collect();
    // `pub`: a private helper that another private helper calls does not compile
    // inside a module (E0365, "`h` is private, and cannot be re-exported")
    let text = format!(
        "#[::silt::helper]\npub fn {name}({}) -> {} {}\n",
        ps.join(", "),
        ret.name(),
        p.blk(&body, 0)
    );
    g.gs = gs;
    g.scopes = scopes;
    g.params = params;
    g.outputs = outputs;
    g.budget = budget;
    g.helpers.push((name, ptys, ret));
    text
}

fn gen_kernel(seed: u64, index: usize) -> Meta {
    let mut r = Rng(seed ^ (index as u64).wrapping_mul(0xd6e8_feb8_6659_fd93));
    for _ in 0..4 {
        r.next();
    }
    let gs: Vec<Ty> = if r.pct(70) {
        let mut pool: Vec<Ty> = match r.below(7) {
            0 | 1 => INTS.to_vec(),
            2 => vec![F16, F32, F64],
            3 => vec![U8, I16, U32, I64, F16, F32, F64],
            4 => vec![I8, I16, I32, I64, F16, F32, F64],
            5 => vec![Bool, U8, I8, U64, I32],
            _ => ALL.to_vec(),
        };
        // a random non-empty subset, in the pool's order (`f16` less often: its
        // instantiations would lengthen the default run by a fifth)
        let mut chosen = Vec::new();
        while chosen.is_empty() {
            chosen = pool
                .iter()
                .copied()
                .filter(|t| r.pct(if *t == F16 { 30 } else { 45 }))
                .collect();
        }
        pool.clear();
        chosen
    } else {
        Vec::new()
    };
    let mut g = Gen {
        r,
        gs,
        scopes: vec![Vec::new()],
        params: Vec::new(),
        outputs: Vec::new(),
        next: 0,
        loop_depth: 0,
        block_depth: 0,
        budget: 70,
        small_lits: false,
        used_names: HashSet::new(),
        helpers: Vec::new(),
    };
    // ---- helpers it may call ----
    let mut helper_text = String::new();
    if g.r.pct(30) {
        for j in 0..g.r.range(1, 2) {
            helper_text.push_str(&gen_helper(&mut g, format!("h{index}_{j}")));
        }
    }
    // ---- signature ----
    let n_in = g.r.range(1, 3);
    let n_scalar = g.r.range(0, 2) * usize::from(g.r.pct(50));
    let n_inout = if g.r.pct(35) { g.r.range(1, 2) } else { 0 };
    let n_out = if n_inout == 0 {
        g.r.range(1, 3)
    } else {
        g.r.range(0, 2)
    };
    let with_index = g.r.pct(20);
    let mut kinds: Vec<Kind> = Vec::new();
    kinds.extend(std::iter::repeat_n(Kind::Input, n_in));
    kinds.extend(std::iter::repeat_n(Kind::Scalar, n_scalar));
    kinds.extend(std::iter::repeat_n(Kind::InOut, n_inout));
    if with_index {
        kinds.push(Kind::Index);
    }
    // shuffle
    for i in (1..kinds.len()).rev() {
        let j = g.r.below(i + 1);
        kinds.swap(i, j);
    }
    let mut has_generic_tensor = false;
    for (i, k) in kinds.iter().enumerate() {
        let tt = match k {
            Kind::Index => TT::C(U64),
            _ => {
                if !g.gs.is_empty()
                    && (g.r.pct(55) || (!has_generic_tensor && i + 1 == kinds.len()))
                {
                    TT::G
                } else {
                    TT::C(g.r.pick(&ALL))
                }
            }
        };
        if tt == TT::G && matches!(k, Kind::Input | Kind::InOut) {
            has_generic_tensor = true;
        }
        let name = match k {
            Kind::Input => format!("a{i}"),
            Kind::Scalar => format!("s{i}"),
            Kind::InOut => format!("o{i}"),
            Kind::Index => "idx".to_string(),
        };
        let mutable = *k == Kind::Input && g.r.pct(20);
        g.params.push(Param {
            name,
            kind: *k,
            tt,
            mutable,
        });
    }
    if !g.gs.is_empty() && !has_generic_tensor {
        // the generic parameter must come from a tensor: make the first input `T`
        if let Some(p) = g.params.iter_mut().find(|p| p.kind == Kind::Input) {
            p.tt = TT::G;
        }
    }
    for p in &g.params {
        let v = Var {
            name: p.name.clone(),
            tt: p.tt,
            det: true,
            assignable: p.mutable || p.kind == Kind::InOut,
            deref: p.kind == Kind::InOut,
        };
        g.scopes[0].push(v);
    }
    g.outputs = (0..n_out)
        .map(|_| {
            if !g.gs.is_empty() && g.r.pct(50) {
                TT::G
            } else {
                TT::C(g.r.pick(&ALL))
            }
        })
        .collect();
    // ---- body ----
    let depth = 3;
    g.scopes.push(Vec::new());
    let n = g.r.range(2, 7);
    let mut stmts = g.stmts(n, depth);
    let mut checks: Vec<(String, TT, u64)> = Vec::new();
    let outputs = g.outputs.clone();
    let mut tail_vals = Vec::new();
    let mut bounds = Vec::new();
    for t in &outputs {
        let (e, b) = g.output_value(*t, depth);
        tail_vals.push(e);
        bounds.push(b);
    }
    // `&mut` parameters get a last write (perhaps a transcendental one)
    let mut inout_checks = Vec::new();
    for p in g.params.iter().filter(|p| p.kind == Kind::InOut) {
        inout_checks.push((p.name.clone(), p.tt));
    }
    let mut inout_bounds = Vec::new();
    for (k, (name, tt)) in inout_checks.iter().enumerate() {
        let last = k + 1 == inout_checks.len();
        if g.r.pct(60) {
            // what runs after this write (later writes, the returned values) may
            // read it: only the very last one may be inexact
            let (e, b) = if outputs.is_empty() && last {
                g.output_value(*tt, depth)
            } else {
                (g.expr(*tt, depth, false).e, 0)
            };
            stmts.push(S::Assign(format!("*{name}"), None, e));
            inout_bounds.push(b);
        } else {
            inout_bounds.push(0);
        }
    }
    for (i, t) in outputs.iter().enumerate() {
        checks.push((format!("return.{i}"), *t, bounds[i]));
    }
    for ((name, tt), b) in inout_checks.iter().zip(&inout_bounds) {
        checks.push((format!("*{name}"), *tt, *b));
    }
    let tail = match tail_vals.len() {
        0 => None,
        1 => tail_vals.pop(),
        _ => Some(E::Tuple(tail_vals)),
    };
    // a tail `if` on a static condition now and then picks per instantiation
    let body = Blk {
        stmts,
        tail: tail.map(Box::new),
    };
    // ---- text ----
    let name = format!("rk{index}");
    let mut p = Printer { out: String::new() };
    let params: Vec<String> = g
        .params
        .iter()
        .map(|q| {
            let tn = g.tname(q.tt);
            match q.kind {
                Kind::Input => format!("{}{}: {tn}", if q.mutable { "mut " } else { "" }, q.name),
                Kind::Scalar => format!("#[scalar] {}: {tn}", q.name),
                Kind::InOut => format!("{}: &mut {tn}", q.name),
                Kind::Index => format!("#[index] {}: u64", q.name),
            }
        })
        .collect();
    let ret = match outputs.len() {
        0 => String::new(),
        1 => format!(" -> {}", g.tname(outputs[0])),
        _ => {
            let v: Vec<String> = outputs.iter().map(|t| g.tname(*t)).collect();
            format!(" -> ({})", v.join(", "))
        }
    };
    let attr = if g.gs.is_empty() {
        "#[kernel]".to_string()
    } else {
        let v: Vec<&str> = g.gs.iter().map(|t| t.name()).collect();
        format!("#[kernel(types = [{}])]", v.join(", "))
    };
    let generic = if g.gs.is_empty() { "" } else { "<T>" };
    let body_text = p.blk(&body, 0);
    let _ = &mut p.out;
    let text = format!(
        "{helper_text}{attr}\npub fn {name}{generic}({}){ret} {body_text}\n",
        params.join(", ")
    );
    Meta {
        name,
        gs: g.gs.clone(),
        params: g.params,
        outputs,
        checks,
        text,
    }
}

// ---------------------------------------------------------------------------
// output

fn concrete(t: TT, inst: Option<Ty>) -> Ty {
    match t {
        TT::C(x) => x,
        TT::G => inst.unwrap_or(I32),
    }
}

fn glue(m: &Meta, inst: Option<Ty>, out: &mut String) -> String {
    let suffix = inst.map_or("kernel", Ty::name);
    let fname = format!("{}_{suffix}", m.name);
    let turbofish = inst.map_or(String::new(), |t| format!("::<{}>", t.name()));
    // inputs
    let _ = writeln!(
        out,
        "fn {fname}_inputs(inp: &crate::Inputs) -> Vec<(&'static str, crate::Col)> {{\n    vec!["
    );
    for (k, p) in m.params.iter().enumerate() {
        let t = concrete(p.tt, inst).name();
        match p.kind {
            Kind::Input | Kind::InOut => {
                let _ = writeln!(
                    out,
                    "        (\"{}\", crate::Elem::col(inp.col::<{t}>({k}))),",
                    p.name
                );
            }
            Kind::Scalar => {
                let _ = writeln!(
                    out,
                    "        (\"{}\", crate::one(inp.scalar::<{t}>({k}))),",
                    p.name
                );
            }
            Kind::Index => {}
        }
    }
    let _ = writeln!(out, "    ]\n}}");
    // launch
    let _ = writeln!(
        out,
        "fn {fname}_launch(dev: &::silt::Device, inp: &crate::Inputs, via_dispatch: bool) -> ::silt::Result<Vec<crate::Col>> {{"
    );
    let mut args = Vec::new();
    for (k, p) in m.params.iter().enumerate() {
        let t = concrete(p.tt, inst).name();
        match p.kind {
            Kind::Input => {
                let _ = writeln!(
                    out,
                    "    let {n} = crate::tensor(dev, &inp.col::<{t}>({k}))?;",
                    n = p.name
                );
                args.push(format!("&{}", p.name));
            }
            Kind::InOut => {
                let _ = writeln!(
                    out,
                    "    let mut {n} = crate::tensor(dev, &inp.col::<{t}>({k}))?;",
                    n = p.name
                );
                args.push(format!("&mut {}", p.name));
            }
            Kind::Scalar => {
                let _ = writeln!(out, "    let {n} = inp.scalar::<{t}>({k});", n = p.name);
                args.push(p.name.clone());
            }
            Kind::Index => {}
        }
    }
    // the same through `dispatch`, on untyped tensors
    let _ = writeln!(out, "    if via_dispatch {{");
    let mut dargs = Vec::new();
    for p in &m.params {
        match p.kind {
            Kind::Input => {
                let _ = writeln!(
                    out,
                    "        let d_{n}: ::silt::Tensor = {n}.clone().into();",
                    n = p.name
                );
                dargs.push(format!("&d_{}", p.name));
            }
            Kind::InOut => {
                let _ = writeln!(
                    out,
                    "        let mut d_{n}: ::silt::Tensor = {n}.clone().into();",
                    n = p.name
                );
                dargs.push(format!("&mut d_{}", p.name));
            }
            Kind::Scalar => dargs.push(p.name.clone()),
            Kind::Index => {}
        }
    }
    let _ = writeln!(
        out,
        "        let r = {}::dispatch({})?;",
        m.name,
        dargs.join(", ")
    );
    let mut dcols = Vec::new();
    match m.outputs.len() {
        0 => {
            let _ = writeln!(out, "        let () = r;");
        }
        1 => dcols.push(format!(
            "crate::out_any::<{}>(&r)?",
            concrete(m.outputs[0], inst).name()
        )),
        _ => {
            for (i, t) in m.outputs.iter().enumerate() {
                dcols.push(format!(
                    "crate::out_any::<{}>(&r.{i})?",
                    concrete(*t, inst).name()
                ));
            }
        }
    }
    for p in m.params.iter().filter(|p| p.kind == Kind::InOut) {
        dcols.push(format!(
            "crate::out_any::<{}>(&d_{})?",
            concrete(p.tt, inst).name(),
            p.name
        ));
    }
    let _ = writeln!(
        out,
        "        return Ok(vec![{}]);\n    }}",
        dcols.join(", ")
    );
    let _ = writeln!(
        out,
        "    let r = {}::launch{turbofish}({})?;",
        m.name,
        args.join(", ")
    );
    let mut cols = Vec::new();
    match m.outputs.len() {
        0 => {}
        1 => cols.push("crate::out(&r)?".to_string()),
        n => {
            for i in 0..n {
                cols.push(format!("crate::out(&r.{i})?"));
            }
        }
    }
    for p in m.params.iter().filter(|p| p.kind == Kind::InOut) {
        cols.push(format!("crate::out(&{})?", p.name));
    }
    if m.outputs.is_empty() {
        let _ = writeln!(out, "    let () = r;");
    }
    let _ = writeln!(out, "    Ok(vec![{}])\n}}", cols.join(", "));
    // eval
    let _ = writeln!(
        out,
        "fn {fname}_eval(inp: &crate::Inputs, n: usize) -> Vec<crate::Col> {{"
    );
    let mut eargs = Vec::new();
    for (k, p) in m.params.iter().enumerate() {
        let t = concrete(p.tt, inst).name();
        match p.kind {
            Kind::Input => {
                let _ = writeln!(out, "    let {n} = inp.col::<{t}>({k});", n = p.name);
                eargs.push(format!("{}[i]", p.name));
            }
            Kind::InOut => {
                let _ = writeln!(
                    out,
                    "    let mut {n} = inp.col::<{t}>({k}); {n}.truncate(n);",
                    n = p.name
                );
                eargs.push(format!("&mut {}[i]", p.name));
            }
            Kind::Scalar => {
                let _ = writeln!(out, "    let {n} = inp.scalar::<{t}>({k});", n = p.name);
                eargs.push(p.name.clone());
            }
            Kind::Index => eargs.push("i as u64".into()),
        }
    }
    let n_out = m.outputs.len();
    for (i, t) in m.outputs.iter().enumerate() {
        let _ = writeln!(
            out,
            "    let mut e{i}: Vec<{}> = Vec::new();",
            concrete(*t, inst).name()
        );
    }
    let _ = writeln!(out, "    for i in 0..n {{");
    let call = format!("{}::eval{turbofish}({})", m.name, eargs.join(", "));
    match n_out {
        0 => {
            let _ = writeln!(out, "        {call};");
        }
        1 => {
            let _ = writeln!(out, "        e0.push({call});");
        }
        _ => {
            let _ = writeln!(out, "        let r = {call};");
            for i in 0..n_out {
                let _ = writeln!(out, "        e{i}.push(r.{i});");
            }
        }
    }
    let _ = writeln!(out, "    }}");
    let mut ecols: Vec<String> = (0..n_out)
        .map(|i| format!("crate::Elem::col(e{i})"))
        .collect();
    for p in m.params.iter().filter(|p| p.kind == Kind::InOut) {
        ecols.push(format!("crate::Elem::col({})", p.name));
    }
    let _ = writeln!(out, "    vec![{}]\n}}", ecols.join(", "));
    fname
}

fn generate(seed: u64, count: usize, indices: &[usize]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by build.rs from SILT_RANDOM_SEED={seed:#x}, SILT_RANDOM_COUNT={count}.\n\
         use ::silt::kernel;\nuse ::silt::f16;\n\n\
         /// The seed the corpus was generated from.\npub const SEED: u64 = {seed:#x};\n\
         /// The number of kernels of the corpus.\npub const COUNT: usize = {count};\n"
    );
    let mut entries = Vec::new();
    for &i in indices {
        let m = gen_kernel(seed, i);
        let _ = writeln!(out, "/// Random kernel {i}.\n{}", m.text);
        let insts: Vec<Option<Ty>> = if m.gs.is_empty() {
            vec![None]
        } else {
            m.gs.iter().copied().map(Some).collect()
        };
        let mut inst_entries = Vec::new();
        for inst in insts {
            let f = glue(&m, inst, &mut out);
            let names: Vec<String> = m.checks.iter().map(|c| format!("{:?}", c.0)).collect();
            let classes: Vec<String> = m
                .checks
                .iter()
                .map(|c| {
                    let t = concrete(c.1, inst);
                    if c.2 == 0 || !t.is_float() {
                        "crate::Class::Exact".to_string()
                    } else if t == F16 {
                        // the f32 function's error shows in f16 only next to a
                        // rounding tie, as one f16 ULP
                        "crate::Class::Ulps(1)".to_string()
                    } else {
                        format!("crate::Class::Ulps({})", c.2)
                    }
                })
                .collect();
            inst_entries.push(format!(
                "crate::Inst {{ ty: {:?}, outputs: &[{}], classes: &[{}], inputs: {f}_inputs, launch: {f}_launch, eval: {f}_eval }}",
                inst.map_or("-", Ty::name),
                names.join(", "),
                classes.join(", ")
            ));
        }
        entries.push(format!(
            "crate::Kernel {{ name: {:?}, source: {:?}, insts: &[\n        {}\n    ] }}",
            m.name,
            m.text,
            inst_entries.join(",\n        ")
        ));
    }
    let _ = writeln!(
        out,
        "/// Every generated kernel.\npub static KERNELS: &[crate::Kernel] = &[\n    {}\n];",
        entries.join(",\n    ")
    );
    out
}

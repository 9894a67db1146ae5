//! Literals and constants: every form the language reads (suffixed or not,
//! decimal, hex, octal, binary, with `_`, exponents), values at the types'
//! bounds, and the associated constants and type properties.

use silt_abi::DType;

use crate::ast::E;
use crate::gen::{Ex, Gen};
use crate::kernel::Ty;

/// Float literal texts: ordinary values, extremes, subnormals, values that
/// round in `f32` or `f16` (ties to even), and each written form.
const FLOAT_TEXTS: &[&str] = &[
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
    "1e0",
    "1.5e-3",
    "1e-7",
    "100.0",
    "65504.0",
    "1e-40",
    "-1e-45",
    "1e-45",
    "3.4028235e38",
    "3.4e38",
    "1e38",
    "16777217.0",
    "0.30000000000000004",
    "123456789.123456789",
    "1e300",
    "1.7976931348623157e308",
    "4.9e-324",
    "5e-324",
    "2.5",
    "-7.25",
    "1e10",
    "255.5",
    "0.3333333333333333",
    "-128.5",
    "4294967296.0",
    "1E2",
    "6.02e23",
    "6.02E23",
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

/// Integer literal values: small ones, powers of two and their neighbours, and
/// the bounds of every integer type.
const INT_VALUES: &[i128] = &[
    0,
    1,
    2,
    3,
    5,
    7,
    8,
    10,
    15,
    16,
    31,
    32,
    42,
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
    i64::MAX as i128,
    u64::MAX as i128,
    -1,
    -2,
    -7,
    -100,
    -128,
    -129,
    -32768,
    -2_147_483_648,
    i64::MIN as i128,
];

/// Associated constants of the float types (`T::PI`, `f32::EPSILON`); those
/// after the first seven are also in `core::f64::consts`.
pub(crate) const FLOAT_CONSTS: &[&str] = &[
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

/// The integers a literal of type `t` may hold (for floats, those that are
/// finite in the type).
pub(crate) fn int_range(t: DType) -> (i128, i128) {
    match t {
        DType::U8 => (0, 255),
        DType::I8 => (-128, 127),
        DType::U16 => (0, 65535),
        DType::I16 => (-32768, 32767),
        DType::U32 => (0, u32::MAX.into()),
        DType::I32 => (i32::MIN.into(), i32::MAX.into()),
        DType::U64 => (0, u64::MAX.into()),
        DType::I64 => (i64::MIN.into(), i64::MAX.into()),
        // the literals that do not round to infinity
        DType::F16 => (-65519, 65519),
        _ => (i128::MIN, i128::MAX),
    }
}

pub(crate) fn fits(t: DType, v: i128) -> bool {
    let (lo, hi) = int_range(t);
    lo <= v && v <= hi
}

/// Whether the float literal `text` is finite in every type of `tys`
/// (a literal that rounds to infinity is an error).
fn finite_in(text: &str, tys: &[DType]) -> bool {
    let t = text.replace('_', "");
    tys.iter().all(|ty| match ty {
        DType::F32 => t.parse::<f32>().is_ok_and(f32::is_finite),
        // below 65520, where rounding gives infinity
        DType::F16 => t.parse::<f64>().is_ok_and(|x| x.abs() < 65520.0),
        _ => t.parse::<f64>().is_ok_and(f64::is_finite),
    })
}

impl Gen<'_> {
    fn float_texts(&self, tys: &[DType]) -> Vec<&'static str> {
        FLOAT_TEXTS
            .iter()
            .copied()
            .filter(|t| finite_in(t, tys))
            .collect()
    }

    fn int_values(&mut self, tys: &[DType], i32_only: bool) -> Vec<i128> {
        let mut c = INT_VALUES.to_vec();
        c.push(i128::try_from(self.below(50)).unwrap_or(0));
        c.retain(|v| {
            tys.iter()
                .all(|t| (t.is_float() && *t != DType::F16) || fits(*t, *v))
        });
        if i32_only {
            c.retain(|v| fits(DType::I32, *v));
        }
        c
    }

    /// `v` written in one of the forms Rust reads.
    fn int_text(&mut self, v: i128) -> String {
        let a = v.unsigned_abs();
        let sign = if v < 0 { "-" } else { "" };
        match self.below(14) {
            0 | 1 => format!("{sign}0x{a:x}"),
            2 if a >= 1000 => {
                // with `_` separators
                let s = a.to_string();
                let mut o = String::new();
                for (i, ch) in s.chars().enumerate() {
                    if i > 0 && (s.len() - i).is_multiple_of(3) {
                        o.push('_');
                    }
                    o.push(ch);
                }
                format!("{sign}{o}")
            }
            3 => format!("{sign}0o{a:o}"),
            4 if a < 1 << 16 => format!("{sign}0b{a:b}"),
            5 if a >= 10 => format!("{sign}{}_{}", a / 10, a % 10),
            _ => v.to_string(),
        }
    }

    /// A literal of type `t` (`None` when `t` has none): suffixed when `det`
    /// asks for a fixed type (for the type parameter, `LIT as T`).
    pub fn lit(&mut self, t: Ty, det: bool) -> Option<Ex> {
        let tys = self.insts(t);
        if !tys.is_empty() && tys.iter().all(|x| *x == DType::Bool) {
            let b = if self.c.bool() { "true" } else { "false" };
            return Some(Ex::det(E::Lit(b.into(), None)));
        }
        if tys.is_empty() || tys.contains(&DType::Bool) {
            return None;
        }
        let all_float = tys.iter().all(|x| x.is_float());
        // integer literals also serve float types (a silt extension)
        let use_int = !all_float || self.pct(35);
        if t == Ty::Param && det {
            // `lit as T`: the literal's own type defaults (i32 or f64)
            let inner = if use_int {
                let vals = self.int_values(&[DType::I32], true);
                let v = self.pick(&vals);
                E::Lit(self.int_text(v), Some(v))
            } else {
                let f = self.float_texts(&[DType::F64]);
                E::Lit(self.pick(&f).to_string(), None)
            };
            return Some(Ex::det(E::Cast(Box::new(inner), self.tparam.clone())));
        }
        if use_int {
            let i32_only = self.small_lits && !det;
            let vals = self.int_values(&tys, i32_only);
            let v = self.pick(&vals);
            let text = self.int_text(v);
            let suffix = match t {
                Ty::Elem(x) if det || self.pct(30) => {
                    // `3f32` is a float literal, `0x1f32` an integer, and `0o7f32`
                    // and `0b1f32` are errors: floats take decimal digits
                    if x.is_float() && text.contains(['x', 'o', 'b']) {
                        return Some(Ex::det(E::Lit(format!("{v}{}", x.name()), None)));
                    }
                    x.name()
                }
                _ => "",
            };
            let int = (!suffix.starts_with('f')).then_some(v);
            return Some(Ex {
                e: E::Lit(format!("{text}{suffix}"), int),
                det: !suffix.is_empty(),
            });
        }
        let texts = self.float_texts(&tys);
        let text = self.pick(&texts);
        let suffix = match t {
            Ty::Elem(x) if det || self.pct(30) => x.name(),
            _ => "",
        };
        let text = if suffix.is_empty() || text.contains(['.', 'e', 'E']) {
            format!("{text}{suffix}")
        } else {
            format!("{text}.0{suffix}")
        };
        Some(Ex {
            e: E::Lit(text, None),
            det: !suffix.is_empty(),
        })
    }

    /// An associated constant or type property of type `t`.
    pub fn constant(&mut self, t: Ty) -> Option<Ex> {
        let tys = self.insts(t);
        let tn = self.tname(t);
        let mut c: Vec<String> = Vec::new();
        if !tys.is_empty() && tys.iter().all(|x| *x != DType::Bool) {
            c.push(format!("{tn}::MAX"));
            c.push(format!("{tn}::MIN"));
        }
        if !tys.is_empty() && tys.iter().all(|x| x.is_float()) {
            let name = self.pick(FLOAT_CONSTS);
            let module = FLOAT_CONSTS[7..].contains(&name);
            c.push(match t {
                // `half::f16` has no `consts` module: `f16::PI`
                Ty::Elem(x @ (DType::F32 | DType::F64)) if module => {
                    let prefix = self.pick(&["core::", "std::", ""]);
                    format!("{prefix}{}::consts::{name}", x.name())
                }
                _ => format!("{tn}::{name}"),
            });
            let name = self.pick(&FLOAT_CONSTS[2..7]);
            c.push(format!("{tn}::{name}"));
        }
        if t == Ty::Elem(DType::U32) {
            let ints: Vec<DType> = DType::ALL.into_iter().filter(|d| d.is_int()).collect();
            c.push(format!("{}::BITS", self.pick(&ints).name()));
            if !self.gs.is_empty() {
                c.push(format!("{}::BITS", self.tparam));
            }
        }
        if t == Ty::Elem(DType::Bool) && !self.gs.is_empty() {
            for n in ["IS_FLOAT", "IS_INT", "IS_SIGNED", "IS_BOOL"] {
                c.push(format!("{}::{n}", self.tparam));
            }
        }
        if c.is_empty() {
            return None;
        }
        let p = c[self.below(c.len())].clone();
        Some(Ex::det(E::Path(p)))
    }
}

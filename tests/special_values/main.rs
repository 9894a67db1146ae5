//! Every builtin of the kernel language at its special values (±0, ±∞, NaN and
//! the named points of C99 Annex F and the OpenCL C specification), on the host
//! and on the OpenCL device, in `f16`, `f32` and `f64`; and what a signalling
//! NaN gives (docs/semantics.md, "Special values").

#![allow(clippy::cast_possible_truncation)] // test data

#[path = "../common/mod.rs"]
mod common;
mod kernels;
mod table;
#[path = "../kernels/values.rs"]
#[allow(dead_code)]
mod values;

use silt::prelude::*;
use silt::{f16, Element};
use silt_codegen::builtins::{On, TABLE};
use values::Edge;

/// A float element type, built from `f64` test values.
trait F:
    Edge + std::ops::Neg<Output = Self> + kernels::unary::Instance + kernels::binary::Instance
{
    fn of(x: f64) -> Self;
    /// A signalling NaN (quiet bit clear, payload 1), positive.
    fn snan() -> Self;
    fn bits(self) -> u64;
}

impl F for f16 {
    fn of(x: f64) -> Self {
        f16::from_f64(x)
    }
    fn snan() -> Self {
        f16::from_bits(0x7c01)
    }
    fn bits(self) -> u64 {
        self.to_bits().into()
    }
}

impl F for f32 {
    fn of(x: f64) -> Self {
        x as f32
    }
    fn snan() -> Self {
        f32::from_bits(0x7f80_0001)
    }
    fn bits(self) -> u64 {
        self.to_bits().into()
    }
}

impl F for f64 {
    fn of(x: f64) -> Self {
        x
    }
    fn snan() -> Self {
        f64::from_bits(0x7ff0_0000_0000_0001)
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

fn col<T: Element>(dev: &Device, v: &[T]) -> TensorT<T> {
    TensorT::from_slice(dev, v, [v.len()]).unwrap()
}

/// How far a special value may be from the table: 0 ULPs for the exact ones
/// (zeros, infinities, integers, NaN), the method's bound (plus one) for a
/// rounded irrational one (`atan(∞) = π/2`).
fn tolerance(method: &str, expected: f64) -> u64 {
    if !expected.is_finite() || expected.fract() == 0.0 {
        return 0;
    }
    TABLE
        .iter()
        .find(|d| d.name == method && d.on == On::Float)
        .map_or(0, |d| u64::from(d.builtin.ulps()) + 1)
}

/// Whether `got` is the table's `expected` (NaN for NaN, zeros by sign).
fn agrees<T: F>(method: &str, got: T, expected: f64) -> bool {
    if expected.is_nan() {
        return got.key() == T::of(f64::NAN).key();
    }
    got.ulps(T::of(expected)) <= tolerance(method, expected)
}

/// Runs every table of one float type on `dev`; returns the disagreements.
fn float_tables<
    T: F + kernels::ternary::Instance + kernels::powi::Instance + kernels::predicates::Instance,
>(
    dev: &Device,
) -> Vec<String> {
    let mut bad = Vec::new();
    let ty = T::DTYPE;
    for (method, cases) in table::UNARY {
        let op = kernels::UNARY.iter().position(|m| m == method).unwrap() as u32;
        let x: Vec<T> = cases.iter().map(|c| T::of(c.0)).collect();
        let y = kernels::unary::launch(&col(dev, &x), op)
            .unwrap()
            .to_vec()
            .unwrap();
        for (c, got) in cases.iter().zip(y) {
            if !agrees(method, got, c.1) {
                bad.push(format!(
                    "{dev} {ty}: {method}({:?}) = {got:?}, expected {:?}",
                    c.0, c.1
                ));
            }
        }
    }
    for (method, cases) in table::BINARY {
        let op = kernels::BINARY.iter().position(|m| m == method).unwrap() as u32;
        let a: Vec<T> = cases.iter().map(|c| T::of(c.0)).collect();
        let b: Vec<T> = cases.iter().map(|c| T::of(c.1)).collect();
        let y = kernels::binary::launch(&col(dev, &a), &col(dev, &b), op)
            .unwrap()
            .to_vec()
            .unwrap();
        for (c, got) in cases.iter().zip(y) {
            if !agrees(method, got, c.2) {
                bad.push(format!(
                    "{dev} {ty}: {method}({:?}, {:?}) = {got:?}, expected {:?}",
                    c.0, c.1, c.2
                ));
            }
        }
    }
    for (method, cases) in table::TERNARY {
        let op = kernels::TERNARY.iter().position(|m| m == method).unwrap() as u32;
        let cols: Vec<Vec<T>> = (0..3)
            .map(|k| cases.iter().map(|c| T::of([c.0, c.1, c.2][k])).collect())
            .collect();
        let y = kernels::ternary::launch(
            &col(dev, &cols[0]),
            &col(dev, &cols[1]),
            &col(dev, &cols[2]),
            op,
        )
        .unwrap()
        .to_vec()
        .unwrap();
        for (c, got) in cases.iter().zip(y) {
            if !agrees(method, got, c.3) {
                bad.push(format!(
                    "{dev} {ty}: {method}({:?}, {:?}, {:?}) = {got:?}, expected {:?}",
                    c.0, c.1, c.2, c.3
                ));
            }
        }
    }
    let x: Vec<T> = table::POWI.iter().map(|c| T::of(c.0)).collect();
    let n: Vec<i32> = table::POWI.iter().map(|c| c.1).collect();
    let y = kernels::powi::launch(&col(dev, &x), &col(dev, &n))
        .unwrap()
        .to_vec()
        .unwrap();
    for (c, got) in table::POWI.iter().zip(y) {
        if !agrees("powi", got, c.2) {
            bad.push(format!(
                "{dev} {ty}: powi({:?}, {}) = {got:?}, expected {:?}",
                c.0, c.1, c.2
            ));
        }
    }
    let x: Vec<T> = table::PREDICATES.iter().map(|c| T::of(c.0)).collect();
    let (p0, p1, p2, p3, p4, bits) = kernels::predicates::launch(&col(dev, &x)).unwrap();
    let p = [p0, p1, p2, p3, p4].map(|t| t.to_vec().unwrap());
    let bits = bits.to_vec().unwrap();
    for (i, (v, expected)) in table::PREDICATES.iter().enumerate() {
        for (k, want) in expected.iter().enumerate() {
            if p[k][i] != *want {
                bad.push(format!(
                    "{dev} {ty}: {}({v:?}) = {}",
                    kernels::PREDICATES[k],
                    p[k][i]
                ));
            }
        }
        if bits[i] != x[i].bits() {
            bad.push(format!("{dev} {ty}: to_bits({v:?}) = {:#x}", bits[i]));
        }
    }
    bad
}

#[test]
fn the_tables_cover_every_builtin() {
    let listed = |name: &str, on: On| match on {
        On::Float => {
            kernels::UNARY.contains(&name)
                || kernels::BINARY.contains(&name)
                || kernels::TERNARY.contains(&name)
                || kernels::PREDICATES.contains(&name)
                || name == "powi"
        }
        On::Int | On::SignedInt | On::UnsignedInt => kernels::INT.contains(&name),
    };
    for d in TABLE {
        assert!(
            listed(d.name, d.on),
            "`{}` has no special-value kernel",
            d.name
        );
        let cases = match d.on {
            On::Float => {
                table::UNARY.iter().any(|(m, _)| *m == d.name)
                    || table::BINARY.iter().any(|(m, _)| *m == d.name)
                    || table::TERNARY.iter().any(|(m, _)| *m == d.name)
                    || kernels::PREDICATES.contains(&d.name)
                    || d.name == "powi"
            }
            _ => table::INT.iter().any(|c| c.1 == d.name),
        };
        assert!(cases, "`{}` has no special values in the table", d.name);
    }
}

#[test]
fn every_float_builtin_meets_the_special_value_table() {
    let mut bad = Vec::new();
    for dev in common::devices() {
        bad.extend(float_tables::<f16>(&dev));
        bad.extend(float_tables::<f32>(&dev));
        bad.extend(float_tables::<f64>(&dev));
    }
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

fn int_case<T: Element + kernels::int_ops::Instance>(
    dev: &Device,
    c: &(&str, &str, i64, i64, i64, i64),
) -> i64
where
    i64: TryInto<T>,
{
    let v = |x: i64| -> T {
        // u64 cases are written as i64 bit patterns
        x.try_into()
            .ok()
            .or_else(|| Scalar::U64(x as u64).to::<T>().ok())
            .unwrap()
    };
    let op = kernels::INT.iter().position(|m| *m == c.1).unwrap() as u32;
    let t = |x| col(dev, &[v(x)]);
    kernels::int_ops::launch(&t(c.2), &t(c.3), &t(c.4), op)
        .unwrap()
        .to_vec()
        .unwrap()[0]
}

#[test]
fn every_integer_builtin_meets_its_table() {
    let mut bad = Vec::new();
    for dev in common::devices() {
        for c in table::INT {
            let got = match c.0 {
                "i8" => int_case::<i8>(&dev, c),
                "i32" => int_case::<i32>(&dev, c),
                "i64" => int_case::<i64>(&dev, c),
                "i16" => int_case::<i16>(&dev, c),
                "u32" => int_case::<u32>(&dev, c),
                "u8" => int_case::<u8>(&dev, c),
                _ => int_case::<u64>(&dev, c),
            };
            if got != c.5 {
                bad.push(format!(
                    "{dev} {}: {}({}, {}, {}) = {got}, expected {}",
                    c.0, c.1, c.2, c.3, c.4, c.5
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// What a signalling NaN operand gives.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// This number.
    Num(f64),
    /// The signalling NaN itself, with this sign (negative when `true`).
    Same(bool),
    /// A NaN, its quiet bit and payload unspecified (what IEEE 754 gives for
    /// a signalling NaN operand).
    Nan,
}

fn check_snan<T: F>(what: String, got: T, want: Want, bad: &mut Vec<String>) {
    let ok = match want {
        Want::Num(v) => got.ulps(T::of(v)) == 0,
        Want::Same(neg) => {
            let s = if neg { -T::snan() } else { T::snan() };
            got.bits() == s.bits()
        }
        Want::Nan => got.key() == u64::MAX,
    };
    if !ok {
        bad.push(format!(
            "{what} = {got:?} ({:#x}), expected {want:?}",
            got.bits()
        ));
    }
}

/// Marks the signalling NaN in the cases below.
const S: f64 = 1234.5;

/// The two-argument cases with a signalling NaN: `(a, b)`, per method the result.
fn binary_snan_want(method: &str, a: f64, b: f64) -> Want {
    let num = |v: f64| {
        if v == S {
            Want::Same(false)
        } else {
            Want::Num(v)
        }
    };
    match method {
        // minimumNumber / maximumNumber take the number; of two NaNs, one
        "min" | "max" if a == S && b == S => Want::Nan,
        "min" | "max" => num(if a == S { b } else { a }),
        // a sign operation: the magnitude's bits, the sign of `b` (S is positive)
        "copysign" => num(a),
        // C99 Annex F's numbers for any NaN
        "powf" if a == 1.0 || b == 0.0 => Want::Num(1.0),
        "hypot" if a.is_infinite() || b.is_infinite() => Want::Num(f64::INFINITY),
        _ => Want::Nan,
    }
}

fn snan_cases<T: F + kernels::ternary::Instance + kernels::powi::Instance>(
    dev: &Device,
) -> Vec<String> {
    let mut bad = Vec::new();
    let ty = T::DTYPE;
    let v = |x: f64| if x == S { T::snan() } else { T::of(x) };
    for (op, method) in kernels::UNARY.iter().enumerate() {
        let x = [T::snan(), -T::snan()];
        let y = kernels::unary::launch(&col(dev, &x), op as u32)
            .unwrap()
            .to_vec()
            .unwrap();
        for (k, got) in y.into_iter().enumerate() {
            let neg = k == 1;
            let want = match *method {
                "abs" => Want::Same(false),
                "neg" => Want::Same(!neg),
                _ => Want::Nan,
            };
            let sign = if neg { "-" } else { "" };
            check_snan(
                format!("{dev} {ty}: {method}({sign}sNaN)"),
                got,
                want,
                &mut bad,
            );
        }
    }
    let pairs = [
        (S, 2.0),
        (2.0, S),
        (1.0, S),
        (S, 0.0),
        (f64::INFINITY, S),
        (S, f64::INFINITY),
        (S, S),
    ];
    for (op, method) in kernels::BINARY.iter().enumerate() {
        let a: Vec<T> = pairs.iter().map(|p| v(p.0)).collect();
        let b: Vec<T> = pairs.iter().map(|p| v(p.1)).collect();
        let y = kernels::binary::launch(&col(dev, &a), &col(dev, &b), op as u32)
            .unwrap()
            .to_vec()
            .unwrap();
        for (p, got) in pairs.iter().zip(y) {
            let name = |x: f64| {
                if x == S {
                    "sNaN".to_string()
                } else {
                    format!("{x:?}")
                }
            };
            let what = format!("{dev} {ty}: {method}({}, {})", name(p.0), name(p.1));
            check_snan(what, got, binary_snan_want(method, p.0, p.1), &mut bad);
        }
    }
    // mul_add computes; clamp selects (a signalling NaN `x` passes unchanged,
    // a signalling NaN bound compares false)
    let t = [
        (0, [S, 1.0, 1.0], Want::Nan),
        (0, [1.0, 0.0, S], Want::Nan),
        (1, [S, 0.0, 1.0], Want::Same(false)),
        (1, [2.0, S, 1.0], Want::Num(1.0)),
    ];
    for (op, args, want) in t {
        let c = |k: usize| col(dev, &[v(args[k])]);
        let got = kernels::ternary::launch(&c(0), &c(1), &c(2), op)
            .unwrap()
            .to_vec()
            .unwrap()[0];
        check_snan(
            format!("{dev} {ty}: {}({args:?})", kernels::TERNARY[op as usize]),
            got,
            want,
            &mut bad,
        );
    }
    let got = kernels::powi::launch(&col(dev, &[T::snan()]), &col(dev, &[0i32]))
        .unwrap()
        .to_vec()
        .unwrap()[0];
    check_snan(
        format!("{dev} {ty}: powi(sNaN, 0)"),
        got,
        Want::Num(1.0),
        &mut bad,
    );
    bad
}

/// silt's rule: a signalling NaN is a NaN like any other. Where C99 Annex F
/// gives a number for every NaN operand (`pow(1, y)`, `pow(x, ±0)`,
/// `powi(x, 0)`, `hypot(±∞, y)`), that number; elsewhere a NaN whose quiet bit
/// and payload are unspecified; and an operation that only selects a value or
/// changes its sign (`-x`, `abs`, `copysign`, `min`, `max`, `clamp`) returns its
/// bits unchanged. Both backends agree on every case.
#[test]
fn signalling_nans_are_nans_and_keep_their_bits_through_sign_and_selection() {
    let mut bad = Vec::new();
    for dev in common::devices() {
        bad.extend(snan_cases::<f16>(&dev));
        bad.extend(snan_cases::<f32>(&dev));
        bad.extend(snan_cases::<f64>(&dev));
    }
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// `div_ceil` of every pair of `i8` and `u8` values, and `next_power_of_two`,
/// `isqrt` and `is_power_of_two` of every `u8` and `u16`, against their
/// definitions in `i64` arithmetic, on every device.
#[test]
fn integer_rounding_methods_meet_their_definitions_everywhere() {
    /// The quotient rounded up by `f64` division (exact enough for 16-bit
    /// operands: a quotient that is not whole is 1/65535 from one at least),
    /// wrapped into `[min, -min)` for `i8` (`MIN.div_ceil(-1)`).
    fn div_ceil(a: i64, b: i64, min: i64) -> i64 {
        if b == 0 {
            return 0;
        }
        let q = (a as f64 / b as f64).ceil() as i64;
        if min < 0 && q >= -min {
            q + 2 * min
        } else {
            q
        }
    }
    for dev in common::devices() {
        let pairs: Vec<(i64, i64)> = (0..65536i64).map(|i| (i >> 8, i & 255)).collect();
        // i8: every pair
        let a: Vec<i8> = pairs.iter().map(|p| (p.0 as u8) as i8).collect();
        let b: Vec<i8> = pairs.iter().map(|p| (p.1 as u8) as i8).collect();
        let o = kernels::rounding::launch(&col(&dev, &a), &col(&dev, &b)).unwrap();
        let q = o.0.to_vec().unwrap();
        for i in 0..a.len() {
            let want = div_ceil(a[i].into(), b[i].into(), i8::MIN.into());
            assert_eq!(i64::from(q[i]), want, "{dev}: {}.div_ceil({})", a[i], b[i]);
        }
        // u8: every pair; u16: every value, divided by its low byte
        let a: Vec<u8> = pairs.iter().map(|p| p.0 as u8).collect();
        let b: Vec<u8> = pairs.iter().map(|p| p.1 as u8).collect();
        unsigned_rounding(&dev, &a, &b);
        let a: Vec<u16> = (0..=u16::MAX).collect();
        let b: Vec<u16> = a.iter().map(|x| x & 255).collect();
        unsigned_rounding(&dev, &a, &b);
    }
}

/// The unsigned half of the test above: `div_ceil`, `next_power_of_two`,
/// `isqrt` and `is_power_of_two` of `a` (by `b`) on `dev`, against their
/// definitions.
fn unsigned_rounding<T: Element + Into<i64> + kernels::rounding::Instance>(
    dev: &Device,
    a: &[T],
    b: &[T],
) {
    let bits = 8 * std::mem::size_of::<T>() as u32;
    let o = kernels::rounding::launch(&col(dev, a), &col(dev, b)).unwrap();
    let (q, p, r, t) = (
        o.0.to_vec().unwrap(),
        o.1.to_vec().unwrap(),
        o.2.to_vec().unwrap(),
        o.3.to_vec().unwrap(),
    );
    for i in 0..a.len() {
        let (x, y): (i64, i64) = (a[i].into(), b[i].into());
        let up = if y == 0 {
            0
        } else {
            (x as f64 / y as f64).ceil() as i64
        };
        assert_eq!(q[i].into(), up, "{dev}: {x}.div_ceil({y})");
        let pow2 = (x.max(1) as u64).next_power_of_two() as i64;
        let pow2 = if pow2 >> bits != 0 { 0 } else { pow2 };
        assert_eq!(p[i].into(), pow2, "{dev}: {x}u{bits}.next_power_of_two()");
        let root = r[i].into();
        assert!(
            root * root <= x && (root + 1) * (root + 1) > x,
            "{dev}: {x}u{bits}.isqrt() = {root}"
        );
        assert_eq!(
            t[i],
            x.count_ones() == 1,
            "{dev}: {x}u{bits}.is_power_of_two()"
        );
    }
}

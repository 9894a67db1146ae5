//! Small C functions that give OpenCL C silt's semantics where its operators
//! and builtins differ (wrapping integer arithmetic, division by zero, NaN-aware
//! `min`/`max`, `f16` rounding, ...), each emitted once per program.

use super::int_polyfill::{self, wrap_to};
use super::types::ClType;
use crate::ir::AtomicOp;
use silt_abi::DType;

/// A C function an expression needs, emitted once per program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Polyfill {
    Add(DType),
    Sub(DType),
    Mul(DType),
    Div(DType),
    Rem(DType),
    Shl(DType),
    Shr(DType),
    Neg(DType),
    Abs(DType),
    Ctz(DType),
    /// `saturating_mul`.
    SatMul(DType),
    /// `wrapping_pow`, by squaring in unsigned arithmetic.
    Pow(DType),
    /// `abs_diff`, in unsigned arithmetic (PoCL folds its built-in of
    /// constant `long`s wrongly: `abs_diff(MIN, 2147483647L)` came out 0).
    AbsDiff(DType),
    /// `div_ceil`: 0 for a zero divisor, `MIN` for `MIN.div_ceil(-1)`.
    DivCeil(DType),
    /// `next_power_of_two` of an unsigned type: 0 where it does not fit.
    NextPow2(DType),
    /// `isqrt` of an unsigned type, digit by digit.
    Isqrt(DType),
    /// `reverse_bits`.
    ReverseBits(DType),
    /// `swap_bytes`.
    SwapBytes(DType),
    IClamp(DType),
    FClamp(DType),
    FSignum(DType),
    Fract(DType),
    FMin(DType),
    FMax(DType),
    Keep(DType),
    /// `tanh` that is ±1 where the correctly rounded result is.
    Tanh(DType),
    /// The `f16` value nearest to a `float` (ties to even), as a `float`.
    F16Round,
    /// The `f16` value nearest to a `double`, as a `float` (one rounding).
    F16RoundD,
    /// An `f16`'s bits (a buffer element or argument) to its `float` value.
    F16Load,
    /// The bits of an `f16` value held in a `float`.
    F16Bits,
    /// `rem_euclid`: for integers on silt's `%` (0 for a zero divisor and for
    /// `MIN % -1`), for floats on `fmod`. After `F16Round`, which the `f16` form
    /// of `DivEuclid` calls.
    RemEuclid(DType),
    /// `div_euclid`: for integers on silt's `/` (0 for a zero divisor, `MIN`
    /// for `MIN / -1`), for floats on `/` and `trunc`.
    DivEuclid(DType),
    /// Records the first out-of-range access of a grid kernel with an index
    /// of this many components (`silt_abi::opencl::GridArg::Errors`).
    ViewOob(u8),
    /// A checked read of a view of this type and rank: the element, or 0
    /// and the access recorded (after `ViewOob`, and `F16Load` for `f16`).
    ViewGet(DType, u8),
    /// A checked write of a view of this type and rank (after `ViewOob`,
    /// and `F16Bits` for `f16`).
    ViewSet(DType, u8),
    /// A checked read of a work-group array (or, `true`, a work-item's
    /// `private!` array) of this type and rank.
    LocalGet(DType, u8, bool),
    /// A checked write of a work-group array (or, `true`, a work-item's
    /// `private!` array) of this type and rank.
    LocalSet(DType, u8, bool),
    /// An atomic operation on an element of a view (or, `local`, a
    /// work-group array) of this type and rank, `checked` or not.
    Atomic {
        op: AtomicOp,
        t: DType,
        rank: u8,
        local: bool,
        checked: bool,
    },
}

/// The polyfill's C name (`silt_add_char`, `silt_f16_round`, ...).
pub(super) fn name(h: Polyfill) -> String {
    let (op, t) = match h {
        Polyfill::F16Round => return "silt_f16_round".into(),
        Polyfill::F16RoundD => return "silt_f16_round_d".into(),
        Polyfill::F16Load => return silt_abi::opencl::F16_LOAD.into(),
        Polyfill::F16Bits => return silt_abi::opencl::F16_BITS.into(),
        Polyfill::ViewOob(n) => return format!("silt_oob_{n}"),
        Polyfill::ViewGet(t, n) => return format!("silt_get_{}_{n}", t.name()),
        Polyfill::ViewSet(t, n) => return format!("silt_set_{}_{n}", t.name()),
        Polyfill::LocalGet(t, n, private) => {
            return format!(
                "silt_{}get_{}_{n}",
                if private { "p" } else { "l" },
                t.name()
            )
        }
        Polyfill::LocalSet(t, n, private) => {
            return format!(
                "silt_{}set_{}_{n}",
                if private { "p" } else { "l" },
                t.name()
            )
        }
        Polyfill::Atomic {
            op,
            t,
            rank,
            local,
            checked,
        } => {
            let space = if local { "l" } else { "g" };
            let check = if checked { "" } else { "_unchecked" };
            return format!("silt_{}_{}_{rank}{space}{check}", op.name(), t.name());
        }
        // f16 values are held in floats: a name of its own beside the float one
        Polyfill::DivEuclid(DType::F16) => return "silt_div_euclid_half".into(),
        Polyfill::Add(t) => ("add", t),
        Polyfill::Sub(t) => ("sub", t),
        Polyfill::Mul(t) => ("mul", t),
        Polyfill::Div(t) => ("div", t),
        Polyfill::Rem(t) => ("rem", t),
        Polyfill::Shl(t) => ("shl", t),
        Polyfill::Shr(t) => ("shr", t),
        Polyfill::Neg(t) => ("neg", t),
        Polyfill::Abs(t) => ("abs", t),
        Polyfill::Ctz(t) => ("ctz", t),
        Polyfill::SatMul(t) => ("sat_mul", t),
        Polyfill::Pow(t) => ("pow", t),
        Polyfill::AbsDiff(t) => ("abs_diff", t),
        Polyfill::DivCeil(t) => ("div_ceil", t),
        Polyfill::NextPow2(t) => ("next_power_of_two", t),
        Polyfill::Isqrt(t) => ("isqrt", t),
        Polyfill::ReverseBits(t) => ("reverse_bits", t),
        Polyfill::SwapBytes(t) => ("swap_bytes", t),
        Polyfill::IClamp(t) | Polyfill::FClamp(t) => ("clamp", t),
        Polyfill::FSignum(t) => ("signum", t),
        Polyfill::Fract(t) => ("fract", t),
        Polyfill::FMin(t) => ("min", t),
        Polyfill::FMax(t) => ("max", t),
        Polyfill::Keep(t) => ("keep", t),
        Polyfill::Tanh(t) => ("tanh", t),
        Polyfill::RemEuclid(t) => ("rem_euclid", t),
        Polyfill::DivEuclid(t) => ("div_euclid", t),
    };
    format!("silt_{op}_{}", t.value_type())
}

/// The polyfill's C definition.
pub(super) fn source(h: Polyfill) -> String {
    let name = name(h);
    let bin = |t: DType, body: String| {
        let c = t.value_type();
        format!("static inline {c} {name}({c} a, {c} b) {{\n    return {body};\n}}\n")
    };
    let un = |t: DType, body: String| {
        let c = t.value_type();
        format!("static inline {c} {name}({c} a) {{\n    return {body};\n}}\n")
    };
    match h {
        // f16 without `cl_khr_fp16`: values are floats that hold f16 values
        // exactly, rounded after each operation (to nearest even, by rounding
        // the bits: 13 of a float's 23 fraction bits, or a multiple of 2^-24
        // for a subnormal f16); buffers hold the bits
        Polyfill::F16Round => format!(
            "static inline float {name}(float x) {{\n    float a = fabs(x);\n    uint u = as_uint(a);\n    uint r = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;\n    r = a < 6.103515625e-05f ? as_uint(rint(a * 16777216.0f) * 5.9604644775390625e-08f) : r;\n    r = a >= 65520.0f ? 0x7f800000u : r;\n    r = isnan(x) ? u : r;\n    return as_float((as_uint(x) & 0x80000000u) | r);\n}}\n"
        ),
        Polyfill::F16RoundD => format!(
            "static inline float {name}(double x) {{\n    double a = fabs(x);\n    if (!(a < 65520.0)) return isnan(x) ? (float)x : copysign(INFINITY, (float)x);\n    if (a < 6.103515625e-05) {{\n        a = rint(a * 16777216.0) * 5.9604644775390625e-08;\n    }} else {{\n        ulong u = as_ulong(a);\n        a = as_double((u + 0x1ffffffffffUL + ((u >> 42) & 1UL)) & ~0x3ffffffffffUL);\n    }}\n    return copysign((float)a, (float)x);\n}}\n"
        ),
        Polyfill::F16Load => format!(
            "static inline float {name}(ushort h) {{\n    uint e = h & 0x7fffu;\n    uint r = (e << 13) + (e >= 0x7c00u ? 224u << 23 : 112u << 23);\n    r = e < 0x400u ? as_uint((float)e * 5.9604644775390625e-08f) : r;\n    return as_float(((uint)(h & 0x8000u) << 16) | r);\n}}\n"
        ),
        Polyfill::F16Bits => format!(
            "static inline ushort {name}(float x) {{\n    uint u = as_uint(x) & 0x7fffffffu;\n    float a = as_float(u);\n    uint r = (u >> 13) - (112u << 10);\n    r = a < 6.103515625e-05f ? convert_uint_sat(a * 16777216.0f) : r;\n    r = a >= 65520.0f ? 0x7c00u : r;\n    uint m = (u >> 13) & 0x3ffu;\n    r = isnan(x) ? (0x7c00u | (m == 0u ? 0x200u : m)) : r;\n    return (ushort)(((as_uint(x) >> 16) & 0x8000u) | r);\n}}\n"
        ),
        // a value the compiler cannot see: PoCL folds some builtins of constant
        // arguments wrongly (`exp(NAN)`, `rint(3e38f)`, ... came out as garbage,
        // other outputs of the kernel with them)
        Polyfill::Keep(t) => {
            let c = t.value_type();
            format!(
                "static inline {c} {name}({c} a) {{\n    volatile {c} v = a;\n    return v;\n}}\n"
            )
        }
        // ±1 from |x| = 9.1 on, where the correctly rounded float tanh is ±1 (it
        // is from 9.0110...); NaN fails the comparison and takes the built-in
        Polyfill::Tanh(t) => {
            let c = t.value_type();
            format!("static inline {c} {name}({c} x) {{\n    return fabs(x) >= 9.1f ? copysign(1.0f, x) : tanh(x);\n}}\n")
        }
        Polyfill::Add(t) | Polyfill::Sub(t) | Polyfill::Mul(t) => {
            let op = match h {
                Polyfill::Add(_) => "+",
                Polyfill::Sub(_) => "-",
                _ => "*",
            };
            let w = t.cl_wide_unsigned();
            bin(t, wrap_to(t, &format!("({w})a {op} ({w})b")))
        }
        Polyfill::Div(t) | Polyfill::Rem(t) => {
            let is_div = matches!(h, Polyfill::Div(_));
            let op = if is_div { "/" } else { "%" };
            let c = t.value_type();
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
        Polyfill::Shl(t) | Polyfill::Shr(t) => {
            let c = t.value_type();
            let mask = t.bits() - 1;
            let body = if matches!(h, Polyfill::Shl(_)) {
                let w = t.cl_wide_unsigned();
                // through the unsigned type of the same width, so no sign bits leak in
                wrap_to(
                    t,
                    &format!("({w})({})a << (s & {mask}u)", t.unsigned().value_type()),
                )
            } else {
                // arithmetic for signed types, logical for unsigned ones
                format!("({c})(a >> (s & {mask}u))")
            };
            format!("static inline {c} {name}({c} a, uint s) {{\n    return {body};\n}}\n")
        }
        Polyfill::Neg(t) => {
            let w = t.cl_wide_unsigned();
            un(t, wrap_to(t, &format!("({w})0 - ({w})a")))
        }
        // negated as unsigned: OpenCL's `abs` leaves MIN undefined, and PoCL's
        // optimiser then assumes a result that is never negative
        Polyfill::Abs(t) => {
            let (c, u) = (t.value_type(), t.unsigned().value_type());
            un(
                t,
                format!("as_{c}(({u})(a < ({c})0 ? ({u})0 - as_{u}(a) : as_{u}(a)))"),
            )
        }
        Polyfill::Ctz(t) => {
            let u = t.unsigned().value_type();
            let bits = t.bits();
            format!(
                "static inline uint {name}({c} a) {{\n    {u} u = ({u})a;\n    return u == ({u})0 ? {bits}u : (uint)popcount(({u})((u & ({u})(({u})0 - u)) - ({u})1));\n}}\n",
                c = t.value_type()
            )
        }
        Polyfill::SatMul(t) => int_polyfill::sat_mul(t, &name),
        Polyfill::Pow(t) => int_polyfill::pow(t, &name),
        Polyfill::AbsDiff(t) => {
            let (c, u) = (t.value_type(), t.unsigned().value_type());
            format!(
                "static inline {u} {name}({c} a, {c} b) {{\n    return a > b ? ({u})(({u})a - ({u})b) : ({u})(({u})b - ({u})a);\n}}\n"
            )
        }
        Polyfill::DivCeil(t) => int_polyfill::div_ceil(t, &name),
        Polyfill::NextPow2(t) => int_polyfill::next_power_of_two(t, &name),
        Polyfill::Isqrt(t) => int_polyfill::isqrt(t, &name),
        Polyfill::ReverseBits(t) => int_polyfill::shuffle(t, &name, true),
        Polyfill::SwapBytes(t) => int_polyfill::shuffle(t, &name, false),
        Polyfill::IClamp(t) | Polyfill::FClamp(t) => {
            let c = t.value_type();
            // NaN stays NaN (comparisons are false), lo > hi does not trap
            format!("static inline {c} {name}({c} x, {c} lo, {c} hi) {{\n    return x < lo ? lo : (x > hi ? hi : x);\n}}\n")
        }
        Polyfill::FSignum(t) => {
            let c = t.value_type();
            let one = if t == DType::F32 { "1.0f" } else { "1.0" };
            format!("static inline {c} {name}({c} x) {{\n    return isnan(x) ? x : copysign({one}, x);\n}}\n")
        }
        Polyfill::FMin(t) | Polyfill::FMax(t) => {
            let c = t.value_type();
            // IEEE 754-2019 minimumNumber / maximumNumber: the number when one side
            // is NaN, and -0.0 below +0.0, so that every device and the host agree
            // (fmin and fmax leave the sign of a zero result open)
            let (lt, zero) = if matches!(h, Polyfill::FMin(_)) {
                ("<", "signbit(a) ? a : b")
            } else {
                (">", "signbit(a) ? b : a")
            };
            format!(
                "static inline {c} {name}({c} a, {c} b) {{\n    return a {lt} b ? a : (b {lt} a ? b : (isnan(a) ? b : (isnan(b) ? a : ({zero}))));\n}}\n"
            )
        }
        Polyfill::RemEuclid(t) | Polyfill::DivEuclid(t) => euclid(&name, h, t),
        Polyfill::ViewOob(n) => view_oob(&name, n),
        Polyfill::ViewGet(t, n) => view_access(&name, t, n, false),
        Polyfill::ViewSet(t, n) => view_access(&name, t, n, true),
        Polyfill::LocalGet(t, n, private) => local_access(&name, t, n, private, false),
        Polyfill::LocalSet(t, n, private) => local_access(&name, t, n, private, true),
        Polyfill::Atomic {
            op,
            t,
            rank,
            local,
            checked,
        } => atomic(&name, op, t, rank, local, checked),
        Polyfill::Fract(t) => {
            let c = t.value_type();
            // Rust's fract is x - trunc(x) (OpenCL's fract floors instead)
            format!("static inline {c} {name}({c} x) {{\n    return x - trunc(x);\n}}\n")
        }
    }
}

/// The C definition of `rem_euclid` or `div_euclid` (`h`) on `t`, named `name`:
/// Rust's formulas (`r = a % b; r < 0 ? r + |b| : r`, and `trunc(a / b)` one
/// towards -∞ or +∞ where `a % b < 0`) on silt's `/` and `%`. Integer
/// arithmetic is done unsigned (two's complement, no overflow); a float `f16`
/// is held in a `float` and its quotient rounded to `f16` before `trunc`.
fn euclid(name: &str, h: Polyfill, t: DType) -> String {
    let rem = matches!(h, Polyfill::RemEuclid(_));
    if t.is_float() {
        let c = t.compute().value_type();
        let (zero, one) = if t == DType::F64 {
            ("0.0", "1.0")
        } else {
            ("0.0f", "1.0f")
        };
        let body = if rem {
            format!("{c} r = fmod(a, b);\n    return r < {zero} ? r + fabs(b) : r;")
        } else {
            let q = if t == DType::F16 {
                "trunc(silt_f16_round(a / b))"
            } else {
                "trunc(a / b)"
            };
            format!(
                "{c} q = {q};\n    return fmod(a, b) < {zero} ? (b > {zero} ? q - {one} : q + {one}) : q;"
            )
        };
        return format!("static inline {c} {name}({c} a, {c} b) {{\n    {body}\n}}\n");
    }
    let c = t.value_type();
    if !t.is_signed_int() {
        let op = if rem { "%" } else { "/" };
        return format!(
            "static inline {c} {name}({c} a, {c} b) {{\n    return b == ({c})0 ? ({c})0 : ({c})(a {op} b);\n}}\n"
        );
    }
    let u = t.unsigned().value_type();
    // b == -1 leaves no remainder; MIN / -1 wraps to MIN
    let body = if rem {
        format!(
            "if (b == ({c})0 || b == ({c})-1) return ({c})0;\n    {c} r = a % b;\n    {u} m = b < ({c})0 ? ({u})0 - as_{u}(b) : as_{u}(b);\n    return r < ({c})0 ? as_{c}(({u})(as_{u}(r) + m)) : r;"
        )
    } else {
        format!(
            "if (b == ({c})0) return ({c})0;\n    if (b == ({c})-1) return as_{c}(({u})(({u})0 - as_{u}(a)));\n    {c} q = a / b;\n    return a % b < ({c})0 ? (b > ({c})0 ? q - ({c})1 : q + ({c})1) : q;"
        )
    };
    format!("static inline {c} {name}({c} a, {c} b) {{\n    {body}\n}}\n")
}

/// `silt_oob_N`: records an out-of-range access of a grid kernel (the first
/// one wins) by the layout of `silt_abi::opencl::GridArg::Errors`.
fn view_oob(name: &str, n: u8) -> String {
    let ix: Vec<String> = (0..n).map(|d| format!("ulong i{d}")).collect();
    let mut body = String::from(
        "    if (atomic_cmpxchg((volatile __global uint*)err, 0u, 1u) != 0u) return;\n    err[1] = view;\n",
    );
    body.push_str(&format!("    err[2] = {n}u;\n    err[3] = {n}u;\n"));
    for d in 0..n {
        let w = 4 + 2 * usize::from(d);
        body.push_str(&format!(
            "    err[{w}] = (uint)i{d};\n    err[{}] = (uint)(i{d} >> 32);\n",
            w + 1
        ));
    }
    format!(
        "static void {name}(__global uint* err, uint view, {}) {{\n{body}}}\n",
        ix.join(", ")
    )
}

/// `silt_get_T_N` / `silt_set_T_N`: a checked access of element
/// `[i0, .., iN-1]` of a view (its buffer, offset, strides and shape); out of
/// range, nothing is touched, the access is recorded and a read gives 0.
fn view_access(name: &str, t: DType, n: u8, write: bool) -> String {
    let st = t.storage_type();
    let vt = t.value_type();
    let ix: Vec<String> = (0..n).map(|d| format!("ulong i{d}")).collect();
    let names: Vec<String> = (0..n).map(|d| format!("i{d}")).collect();
    let lanes: Vec<String> = (0..usize::from(n)).map(silt_abi::opencl::lane).collect();
    let inside: Vec<String> = names
        .iter()
        .zip(&lanes)
        .map(|(i, l)| format!("{i} < sh.{l}"))
        .collect();
    let inside = if inside.is_empty() {
        "1".to_owned()
    } else {
        inside.join(" && ")
    };
    let at: String = names
        .iter()
        .zip(&lanes)
        .map(|(i, l)| format!(" + {i} * st.{l}"))
        .collect();
    let oob = format!(
        "silt_oob_{n}(err, view{})",
        names.iter().map(|i| format!(", {i}")).collect::<String>()
    );
    let ix = ix.join(", ");
    if write {
        let v = store(t, "v".into());
        format!(
            "static inline void {name}(__global {st}* p, ulong off, ulong16 st, ulong16 sh, {ix}, {vt} v, __global uint* err, uint view) {{\n    if ({inside}) {{\n        p[off{at}] = {v};\n        return;\n    }}\n    {oob};\n}}\n"
        )
    } else {
        let v = load(t, format!("p[off{at}]"));
        format!(
            "static inline {vt} {name}(__global const {st}* p, ulong off, ulong16 st, ulong16 sh, {ix}, __global uint* err, uint view) {{\n    if ({inside}) return {v};\n    {oob};\n    return ({vt})0;\n}}\n"
        )
    }
}

/// `silt_lget_T_N` / `silt_lset_T_N` (`silt_pget_T_N` / `silt_pset_T_N`
/// for a `private!` array): a checked access of element `[i0, .., iN-1]` of
/// a work-group or work-item array of shape `[n0, .., nN-1]` (row major);
/// out of range, nothing is touched, the access is recorded and a
/// read gives 0.
fn local_access(name: &str, t: DType, n: u8, private: bool, write: bool) -> String {
    let st = t.storage_type();
    // a pointer without an address space points to private memory
    let space = if private { "" } else { "__local " };
    let vt = t.value_type();
    let dims: Vec<String> = (0..n).map(|d| format!("ulong n{d}")).collect();
    let ix: Vec<String> = (0..n).map(|d| format!("ulong i{d}")).collect();
    let inside: Vec<String> = (0..n).map(|d| format!("i{d} < n{d}")).collect();
    let mut at = "i0".to_owned();
    for d in 1..n {
        at = format!("({at}) * n{d} + i{d}");
    }
    let names: String = (0..n).map(|d| format!(", i{d}")).collect();
    let oob = format!("silt_oob_{n}(err, view{names})");
    let (dims, ix, inside) = (dims.join(", "), ix.join(", "), inside.join(" && "));
    if write {
        let v = store(t, "v".into());
        format!(
            "static inline void {name}({space}{st}* p, {dims}, {ix}, {vt} v, __global uint* err, uint view) {{\n    if ({inside}) {{\n        p[{at}] = {v};\n        return;\n    }}\n    {oob};\n}}\n"
        )
    } else {
        let v = load(t, format!("p[{at}]"));
        format!(
            "static inline {vt} {name}({space}const {st}* p, {dims}, {ix}, __global uint* err, uint view) {{\n    if ({inside}) return {v};\n    {oob};\n    return ({vt})0;\n}}\n"
        )
    }
}

/// `silt_atomic_OP_T_N{g,l}`: an atomic operation on element `[i0, ..]` of a
/// view (its buffer, offset, strides and shape) or of a work-group array
/// (its sizes), giving the element's old value; checked, an index out of
/// range touches nothing, is recorded and gives 0. Integers use OpenCL's
/// atomics (`atom_*` for 64 bits, under `cl_khr_int64_*_atomics`); a float
/// `add` is a compare-and-swap loop on the element's bits.
fn atomic(name: &str, op: AtomicOp, t: DType, n: u8, local: bool, checked: bool) -> String {
    let st = t.storage_type();
    let space = if local { "__local" } else { "__global" };
    let wide = t.bits() == 64;
    let names: Vec<String> = (0..n).map(|d| format!("i{d}")).collect();
    let ix: String = names.iter().map(|i| format!(", ulong {i}")).collect();
    let (shape, inside, at) = if local {
        let dims: String = (0..n).map(|d| format!(", ulong n{d}")).collect();
        let inside: Vec<String> = (0..n).map(|d| format!("i{d} < n{d}")).collect();
        let mut at = "i0".to_owned();
        for d in 1..n {
            at = format!("({at}) * n{d} + i{d}");
        }
        (dims, inside.join(" && "), at)
    } else {
        let lanes: Vec<String> = (0..usize::from(n)).map(silt_abi::opencl::lane).collect();
        let inside: Vec<String> = names
            .iter()
            .zip(&lanes)
            .map(|(i, l)| format!("{i} < sh.{l}"))
            .collect();
        let at: String = names
            .iter()
            .zip(&lanes)
            .map(|(i, l)| format!(" + {i} * st.{l}"))
            .collect();
        (
            ", ulong off, ulong16 st, ulong16 sh".to_owned(),
            inside.join(" && "),
            format!("off{at}"),
        )
    };
    let operands = if op == AtomicOp::CompareExchange {
        format!(", {st} v, {st} w")
    } else {
        format!(", {st} v")
    };
    let err = if checked {
        ", __global uint* err, uint view"
    } else {
        ""
    };
    let mut body = String::new();
    if checked {
        let list: String = names.iter().map(|i| format!(", {i}")).collect();
        body.push_str(&format!(
            "    if (!({inside})) {{\n        silt_oob_{n}(err, view{list});\n        return ({st})0;\n    }}\n"
        ));
    }
    body.push_str(&format!("    volatile {space} {st}* q = &p[{at}];\n"));
    let f = |base: &str| {
        if wide {
            format!("atom_{base}")
        } else {
            format!("atomic_{base}")
        }
    };
    let apply = match op {
        AtomicOp::Add if t.is_float() => {
            let (bits, as_bits, as_value, cas, read) = if wide {
                ("ulong", "as_ulong", "as_double", "atom_cmpxchg", "atom_add")
            } else {
                (
                    "uint",
                    "as_uint",
                    "as_float",
                    "atomic_cmpxchg",
                    "atomic_add",
                )
            };
            // the first guess read atomically too (a plain read would race
            // with the other work-items' swaps)
            format!(
                "    volatile {space} {bits}* u = (volatile {space} {bits}*)q;\n    {bits} old = {read}(u, ({bits})0);\n    for (;;) {{\n        {bits} seen = {cas}(u, old, {as_bits}({as_value}(old) + v));\n        if (seen == old) return {as_value}(old);\n        old = seen;\n    }}\n"
            )
        }
        AtomicOp::CompareExchange => format!("    return {}(q, v, w);\n", f("cmpxchg")),
        _ => {
            let base = match op {
                AtomicOp::Add => "add",
                AtomicOp::Sub => "sub",
                AtomicOp::Min => "min",
                AtomicOp::Max => "max",
                AtomicOp::And => "and",
                AtomicOp::Or => "or",
                AtomicOp::Xor => "xor",
                _ => "xchg",
            };
            format!("    return {}(q, v);\n", f(base))
        }
    };
    body.push_str(&apply);
    let pragmas = if wide {
        silt_abi::opencl::int64_atomics(t.is_int())
    } else {
        String::new()
    };
    format!("{pragmas}static inline {st} {name}({space} {st}* p{shape}{ix}{operands}{err}) {{\n{body}}}\n")
}

/// Reads a buffer element or scalar argument as a value of `t`.
pub(super) fn load(t: DType, v: String) -> String {
    silt_abi::opencl::load(t, &v)
}

/// Converts a value of `t` for storing in a buffer.
pub(super) fn store(t: DType, v: String) -> String {
    silt_abi::opencl::store(t, &v)
}

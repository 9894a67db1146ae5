//! The integer polyfills of the methods OpenCL C has no builtin for:
//! `saturating_mul`, `wrapping_pow`, `reverse_bits`, `swap_bytes`,
//! `div_ceil`, `next_power_of_two` and `isqrt`; and [`wrap_to`], the two's
//! complement truncation the others build on.

use super::types::ClType;
use silt_abi::DType;

/// `(T)(x)` for an unsigned `T`, `as_T((UT)(x))` for a signed one: the two's
/// complement truncation that C leaves implementation-defined for signed types.
pub(super) fn wrap_to(t: DType, x: &str) -> String {
    if t.is_signed_int() {
        format!(
            "as_{}(({})({x}))",
            t.value_type(),
            t.unsigned().value_type()
        )
    } else {
        format!("({})({x})", t.value_type())
    }
}

/// `saturating_mul` for `t`, named `name`: up to 32 bits the exact product
/// in 64 (unsigned for `u32`), clamped; in 64 bits the high half of the
/// product (`mul_hi`) tells an overflow.
pub(super) fn sat_mul(t: DType, name: &str) -> String {
    let c = t.value_type();
    let (min, max) = bounds(t);
    let body = match (t.bits(), t.is_signed_int()) {
        (64, true) => format!(
            "    long lo = as_long(as_ulong(a) * as_ulong(b));\n    if (mul_hi(a, b) == (lo < 0L ? -1L : 0L)) return lo;\n    return (a < 0L) == (b < 0L) ? {max} : {min};\n"
        ),
        (64, false) => format!("    return mul_hi(a, b) != 0UL ? {max} : a * b;\n"),
        (32, false) => format!("    ulong p = (ulong)a * (ulong)b;\n    return p > (ulong){max} ? {max} : (uint)p;\n"),
        _ => format!("    return ({c})clamp((long)a * (long)b, (long){min}, (long){max});\n"),
    };
    format!("static inline {c} {name}({c} a, {c} b) {{\n{body}}}\n")
}

/// `wrapping_pow` for `t`, named `name`: by squaring, in unsigned arithmetic
/// of at least 32 bits (whose low bits are the wrapped result's).
pub(super) fn pow(t: DType, name: &str) -> String {
    let (c, w) = (t.value_type(), t.cl_wide_unsigned());
    let r = wrap_to(t, "r");
    format!(
        "static inline {c} {name}({c} a, uint e) {{\n    {w} r = ({w})1;\n    {w} b = ({w})a;\n    while (e != 0u) {{\n        if ((e & 1u) != 0u) r *= b;\n        b *= b;\n        e >>= 1;\n    }}\n    return {r};\n}}\n"
    )
}

/// `reverse_bits` (`bits`) or `swap_bytes` for `t`, named `name`: the value
/// widened to 64 bits, its bits (or bytes) reversed by swapping halves of
/// ever larger blocks, then shifted down to the receiver's width.
pub(super) fn shuffle(t: DType, name: &str, bits: bool) -> String {
    let u = t.unsigned().value_type();
    let steps: &[(u32, &str)] = if bits {
        &[
            (1, "0x5555555555555555UL"),
            (2, "0x3333333333333333UL"),
            (4, "0x0f0f0f0f0f0f0f0fUL"),
            (8, "0x00ff00ff00ff00ffUL"),
            (16, "0x0000ffff0000ffffUL"),
        ]
    } else {
        &[(8, "0x00ff00ff00ff00ffUL"), (16, "0x0000ffff0000ffffUL")]
    };
    let mut body = format!("    ulong v = (ulong)({u})a;\n");
    for (k, m) in steps {
        body.push_str(&format!(
            "    v = ((v >> {k}) & {m}) | ((v & {m}) << {k});\n"
        ));
    }
    body.push_str("    v = (v >> 32) | (v << 32);\n");
    let r = wrap_to(t, &format!("v >> {}", 64 - t.bits()));
    let c = t.value_type();
    format!("static inline {c} {name}({c} a) {{\n{body}    return {r};\n}}\n")
}

/// `div_ceil` for `t`, named `name`: the truncated quotient, one more where
/// the remainder is not 0 and has the divisor's sign (the exact quotient is
/// positive); 0 for a zero divisor, and `-a` wrapped for a divisor of -1
/// (`MIN.div_ceil(-1)` is `MIN`), as silt's `/`.
pub(super) fn div_ceil(t: DType, name: &str) -> String {
    let c = t.value_type();
    let w = t.cl_wide_unsigned();
    let mut body = format!(
        "    if (b == ({c})0) return ({c})0;
"
    );
    if t.is_signed_int() {
        let neg = wrap_to(t, &format!("({w})0 - ({w})a"));
        body.push_str(&format!(
            "    if (b == ({c})-1) return {neg};
"
        ));
    }
    body.push_str(&format!(
        "    {c} q = ({c})(a / b);
    {c} r = ({c})(a % b);
    return r != ({c})0 && (r > ({c})0) == (b > ({c})0) ? ({c})(q + ({c})1) : q;
"
    ));
    format!(
        "static inline {c} {name}({c} a, {c} b) {{
{body}}}
"
    )
}

/// `next_power_of_two` for the unsigned `t`, named `name`: 1 up to 1, else
/// the bit above the highest of `a - 1`; 0 where that is past the width.
pub(super) fn next_power_of_two(t: DType, name: &str) -> String {
    let (c, w, bits) = (t.value_type(), t.cl_wide_unsigned(), t.bits());
    format!(
        "static inline {c} {name}({c} a) {{
    if (a <= ({c})1) return ({c})1;
    uint z = (uint)clz(({c})(a - ({c})1));
    return z == 0u ? ({c})0 : ({c})(({w})1 << ({bits}u - z));
}}
"
    )
}

/// `isqrt` for the unsigned `t`, named `name`: the root found digit by
/// digit (two bits of `a` a step, from the highest pair that is set).
pub(super) fn isqrt(t: DType, name: &str) -> String {
    let (c, w, bits) = (t.value_type(), t.cl_wide_unsigned(), t.bits());
    format!(
        "static inline {c} {name}({c} a) {{
    {w} x = ({w})a;
    {w} r = ({w})0;
    {w} bit = ({w})1 << {};
    while (bit > x) bit >>= 2;
    while (bit != ({w})0) {{
        if (x >= r + bit) {{
            x -= r + bit;
            r = (r >> 1) + bit;
        }} else {{
            r >>= 1;
        }}
        bit >>= 2;
    }}
    return ({c})r;
}}
",
        bits - 2
    )
}

/// The smallest and largest values of integer type `t`, as C expressions.
fn bounds(t: DType) -> (String, String) {
    let c = t.value_type();
    let bits = t.bits();
    if t.is_signed_int() {
        let max = (1i128 << (bits - 1)) - 1;
        let sfx = if bits == 64 { "L" } else { "" };
        (
            format!("(({c})(-{max}{sfx} - 1{sfx}))"),
            format!("(({c}){max}{sfx})"),
        )
    } else {
        let max = (1u128 << bits) - 1;
        let sfx = if bits == 64 { "UL" } else { "u" };
        (format!("(({c})0)"), format!("(({c}){max}{sfx})"))
    }
}

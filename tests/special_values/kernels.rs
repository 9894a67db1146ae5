//! One kernel per arity that applies the builtin chosen by a scalar: every float
//! method of the language, the float operators, and the integer methods.

use silt::prelude::*;

/// The one-argument float methods (and `-x`), in the order of [`unary`]'s `op`.
pub const UNARY: &[&str] = &[
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
    "lgamma",
    "neg",
];

/// `UNARY[op]` of `x`.
#[kernel(types = [f16, f32, f64])]
pub fn unary<T>(x: T, #[scalar] op: u32) -> T {
    if op == 0 {
        x.sqrt()
    } else if op == 1 {
        x.exp()
    } else if op == 2 {
        x.exp2()
    } else if op == 3 {
        x.exp_m1()
    } else if op == 4 {
        x.ln()
    } else if op == 5 {
        x.ln_1p()
    } else if op == 6 {
        x.log2()
    } else if op == 7 {
        x.log10()
    } else if op == 8 {
        x.sin()
    } else if op == 9 {
        x.cos()
    } else if op == 10 {
        x.tan()
    } else if op == 11 {
        x.asin()
    } else if op == 12 {
        x.acos()
    } else if op == 13 {
        x.atan()
    } else if op == 14 {
        x.sinh()
    } else if op == 15 {
        x.cosh()
    } else if op == 16 {
        x.tanh()
    } else if op == 17 {
        x.asinh()
    } else if op == 18 {
        x.acosh()
    } else if op == 19 {
        x.atanh()
    } else if op == 20 {
        x.abs()
    } else if op == 21 {
        x.floor()
    } else if op == 22 {
        x.ceil()
    } else if op == 23 {
        x.round()
    } else if op == 24 {
        x.round_ties_even()
    } else if op == 25 {
        x.trunc()
    } else if op == 26 {
        x.fract()
    } else if op == 27 {
        x.recip()
    } else if op == 28 {
        x.signum()
    } else if op == 29 {
        x.cbrt()
    } else if op == 30 {
        x.to_degrees()
    } else if op == 31 {
        x.to_radians()
    } else if op == 32 {
        x.erf()
    } else if op == 33 {
        x.erfc()
    } else if op == 34 {
        x.lgamma()
    } else {
        -x
    }
}

/// The two-argument float methods and `%`, in the order of [`binary`]'s `op`.
pub const BINARY: &[&str] = &[
    "atan2",
    "powf",
    "min",
    "max",
    "hypot",
    "copysign",
    "rem_euclid",
    "div_euclid",
    "rem",
];

/// `BINARY[op]` of `a` and `b`.
#[kernel(types = [f16, f32, f64])]
pub fn binary<T>(a: T, b: T, #[scalar] op: u32) -> T {
    if op == 0 {
        a.atan2(b)
    } else if op == 1 {
        a.powf(b)
    } else if op == 2 {
        a.min(b)
    } else if op == 3 {
        a.max(b)
    } else if op == 4 {
        a.hypot(b)
    } else if op == 5 {
        a.copysign(b)
    } else if op == 6 {
        a.rem_euclid(b)
    } else if op == 7 {
        a.div_euclid(b)
    } else {
        a % b
    }
}

/// The three-argument float methods: `mul_add` (`op == 0`) and `clamp`.
pub const TERNARY: &[&str] = &["mul_add", "clamp"];

/// `TERNARY[op]` of `a`, `b` and `c`.
#[kernel(types = [f16, f32, f64])]
pub fn ternary<T>(a: T, b: T, c: T, #[scalar] op: u32) -> T {
    if op == 0 {
        a.mul_add(b, c)
    } else {
        a.clamp(b, c)
    }
}

/// `x.powi(n)`.
#[kernel(types = [f16, f32, f64])]
pub fn powi<T>(x: T, n: i32) -> T {
    x.powi(n)
}

/// The predicates, in the order of [`predicates`]' outputs, and `to_bits`.
pub const PREDICATES: &[&str] = &[
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
    "to_bits",
];

/// Every predicate of `x`, and its bits.
#[kernel(types = [f16, f32, f64])]
pub fn predicates<T>(x: T) -> (bool, bool, bool, bool, bool, u64) {
    (
        x.is_nan(),
        x.is_finite(),
        x.is_infinite(),
        x.is_sign_negative(),
        x.is_sign_positive(),
        x.to_bits() as u64,
    )
}

/// The integer methods, in the order of [`int_ops`]' `op`.
pub const INT: &[&str] = &[
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_div",
    "wrapping_rem",
    "wrapping_shl",
    "wrapping_shr",
    "wrapping_abs",
    "count_ones",
    "count_zeros",
    "leading_zeros",
    "trailing_zeros",
    "rotate_left",
    "rotate_right",
    "abs",
    "signum",
    "min",
    "max",
    "clamp",
    "rem_euclid",
    "div_euclid",
    "saturating_add",
    "saturating_sub",
    "saturating_mul",
    "abs_diff",
    "wrapping_pow",
    "reverse_bits",
    "swap_bytes",
    "pow",
    "unsigned_abs",
    "leading_ones",
    "trailing_ones",
    "is_positive",
    "is_negative",
    "div_ceil",
    "is_power_of_two",
    "next_power_of_two",
    "isqrt",
];

/// `INT[op]` of `a` (and `b`, `b as u32`, or `clamp(b, c)`), widened to `i64`.
#[kernel(types = [i8, i16, i32, i64, u8, u32, u64])]
pub fn int_ops<T>(a: T, b: T, c: T, #[scalar] op: u32) -> i64 {
    let s = b as u32;
    if op == 0 {
        a.wrapping_add(b) as i64
    } else if op == 1 {
        a.wrapping_sub(b) as i64
    } else if op == 2 {
        a.wrapping_mul(b) as i64
    } else if op == 3 {
        a.wrapping_neg() as i64
    } else if op == 4 {
        a.wrapping_div(b) as i64
    } else if op == 5 {
        a.wrapping_rem(b) as i64
    } else if op == 6 {
        a.wrapping_shl(s) as i64
    } else if op == 7 {
        a.wrapping_shr(s) as i64
    } else if op == 8 {
        if T::IS_SIGNED {
            a.wrapping_abs() as i64
        } else {
            a as i64
        }
    } else if op == 9 {
        a.count_ones() as i64
    } else if op == 10 {
        a.count_zeros() as i64
    } else if op == 11 {
        a.leading_zeros() as i64
    } else if op == 12 {
        a.trailing_zeros() as i64
    } else if op == 13 {
        a.rotate_left(s) as i64
    } else if op == 14 {
        a.rotate_right(s) as i64
    } else if op == 15 {
        if T::IS_SIGNED {
            a.abs() as i64
        } else {
            a as i64
        }
    } else if op == 16 {
        if T::IS_SIGNED {
            a.signum() as i64
        } else {
            0
        }
    } else if op == 17 {
        a.min(b) as i64
    } else if op == 18 {
        a.max(b) as i64
    } else if op == 19 {
        a.clamp(b, c) as i64
    } else if op == 20 {
        a.rem_euclid(b) as i64
    } else if op == 21 {
        a.div_euclid(b) as i64
    } else if op == 22 {
        a.saturating_add(b) as i64
    } else if op == 23 {
        a.saturating_sub(b) as i64
    } else if op == 24 {
        a.saturating_mul(b) as i64
    } else if op == 25 {
        a.abs_diff(b) as i64
    } else if op == 26 {
        a.wrapping_pow(s) as i64
    } else if op == 27 {
        a.reverse_bits() as i64
    } else if op == 28 {
        a.swap_bytes() as i64
    } else if op == 29 {
        a.pow(s) as i64
    } else if op == 30 {
        if T::IS_SIGNED {
            a.unsigned_abs() as i64
        } else {
            a as i64
        }
    } else if op == 31 {
        a.leading_ones() as i64
    } else if op == 32 {
        a.trailing_ones() as i64
    } else if op == 33 {
        if T::IS_SIGNED {
            a.is_positive() as i64
        } else {
            0
        }
    } else if op == 34 {
        if T::IS_SIGNED {
            a.is_negative() as i64
        } else {
            0
        }
    } else if op == 35 {
        a.div_ceil(b) as i64
    } else if T::IS_SIGNED {
        // the rest are methods of unsigned integers
        0
    } else if op == 36 {
        a.is_power_of_two() as i64
    } else if op == 37 {
        a.next_power_of_two() as i64
    } else {
        a.isqrt() as i64
    }
}

/// `div_ceil` of every pair of 8-bit values, and the unsigned methods of
/// every 16-bit value (its low byte for the divisor).
#[kernel(types = [i8, u8, u16])]
pub fn rounding<T>(a: T, b: T) -> (T, T, T, bool) {
    if T::IS_SIGNED {
        (a.div_ceil(b), 0, 0, false)
    } else {
        (
            a.div_ceil(b),
            a.next_power_of_two(),
            a.isqrt(),
            a.is_power_of_two(),
        )
    }
}

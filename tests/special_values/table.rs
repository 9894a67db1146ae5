//! The expected results: C99 Annex F (F.9) and the OpenCL C specification's
//! edge-case behaviour (section 7.5.1 of OpenCL 1.2, 7.5 of OpenCL C 3.0), IEEE
//! 754-2019 where those leave a case open (`pow(1, y)` for a signalling NaN),
//! and silt's own rules (docs/semantics.md) for the methods C does not have.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;
const M0: f64 = -0.0;

/// Per method, its cases (arguments and the expected result).
pub type Cases<C> = &'static [(&'static str, &'static [C])];

/// `(method, [(x, expected)])`.
pub const UNARY: Cases<(f64, f64)> = &[
    (
        "sqrt",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, INF),
            (-1.0, NAN),
            (-INF, NAN),
            (NAN, NAN),
            (4.0, 2.0),
        ],
    ),
    (
        "exp",
        &[(0.0, 1.0), (M0, 1.0), (-INF, 0.0), (INF, INF), (NAN, NAN)],
    ),
    (
        "exp2",
        &[(0.0, 1.0), (M0, 1.0), (-INF, 0.0), (INF, INF), (NAN, NAN)],
    ),
    (
        "exp_m1",
        &[(0.0, 0.0), (M0, M0), (-INF, -1.0), (INF, INF), (NAN, NAN)],
    ),
    (
        "ln",
        &[
            (0.0, -INF),
            (M0, -INF),
            (1.0, 0.0),
            (-1.0, NAN),
            (INF, INF),
            (-INF, NAN),
            (NAN, NAN),
        ],
    ),
    (
        "ln_1p",
        &[
            (0.0, 0.0),
            (M0, M0),
            (-1.0, -INF),
            (-2.0, NAN),
            (INF, INF),
            (-INF, NAN),
            (NAN, NAN),
        ],
    ),
    (
        "log2",
        &[
            (0.0, -INF),
            (M0, -INF),
            (1.0, 0.0),
            (-1.0, NAN),
            (INF, INF),
            (-INF, NAN),
            (NAN, NAN),
        ],
    ),
    (
        "log10",
        &[
            (0.0, -INF),
            (M0, -INF),
            (1.0, 0.0),
            (-1.0, NAN),
            (INF, INF),
            (-INF, NAN),
            (NAN, NAN),
        ],
    ),
    (
        "sin",
        &[(0.0, 0.0), (M0, M0), (INF, NAN), (-INF, NAN), (NAN, NAN)],
    ),
    (
        "cos",
        &[(0.0, 1.0), (M0, 1.0), (INF, NAN), (-INF, NAN), (NAN, NAN)],
    ),
    (
        "tan",
        &[(0.0, 0.0), (M0, M0), (INF, NAN), (-INF, NAN), (NAN, NAN)],
    ),
    (
        "asin",
        &[
            (0.0, 0.0),
            (M0, M0),
            (2.0, NAN),
            (-2.0, NAN),
            (INF, NAN),
            (NAN, NAN),
            (1.0, FRAC_PI_2),
        ],
    ),
    (
        "acos",
        &[
            (1.0, 0.0),
            (2.0, NAN),
            (-2.0, NAN),
            (-INF, NAN),
            (NAN, NAN),
            (-1.0, PI),
        ],
    ),
    (
        "atan",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, FRAC_PI_2),
            (-INF, -FRAC_PI_2),
            (NAN, NAN),
        ],
    ),
    (
        "sinh",
        &[(0.0, 0.0), (M0, M0), (INF, INF), (-INF, -INF), (NAN, NAN)],
    ),
    (
        "cosh",
        &[(0.0, 1.0), (M0, 1.0), (INF, INF), (-INF, INF), (NAN, NAN)],
    ),
    // correctly rounded, tanh is ±1 from |x| = 9.01 (f32) or 19.06 (f64) on
    (
        "tanh",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, 1.0),
            (-INF, -1.0),
            (NAN, NAN),
            (20.0, 1.0),
            (-20.0, -1.0),
            (1000.0, 1.0),
            (-60000.0, -1.0),
        ],
    ),
    (
        "asinh",
        &[(0.0, 0.0), (M0, M0), (INF, INF), (-INF, -INF), (NAN, NAN)],
    ),
    (
        "acosh",
        &[(1.0, 0.0), (0.5, NAN), (INF, INF), (-INF, NAN), (NAN, NAN)],
    ),
    (
        "atanh",
        &[
            (0.0, 0.0),
            (M0, M0),
            (1.0, INF),
            (-1.0, -INF),
            (2.0, NAN),
            (-2.0, NAN),
            (INF, NAN),
            (NAN, NAN),
        ],
    ),
    (
        "abs",
        &[
            (0.0, 0.0),
            (M0, 0.0),
            (-INF, INF),
            (INF, INF),
            (NAN, NAN),
            (-2.0, 2.0),
        ],
    ),
    (
        "floor",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, INF),
            (-INF, -INF),
            (-0.5, -1.0),
            (0.5, 0.0),
            (NAN, NAN),
        ],
    ),
    (
        "ceil",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, INF),
            (-INF, -INF),
            (-0.5, M0),
            (0.5, 1.0),
            (NAN, NAN),
        ],
    ),
    (
        "round",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, INF),
            (-INF, -INF),
            (0.5, 1.0),
            (-0.5, -1.0),
            (2.5, 3.0),
            (-0.25, M0),
            (NAN, NAN),
        ],
    ),
    (
        "round_ties_even",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, INF),
            (-INF, -INF),
            (0.5, 0.0),
            (-0.5, M0),
            (2.5, 2.0),
            (1.5, 2.0),
            (NAN, NAN),
        ],
    ),
    (
        "trunc",
        &[
            (0.0, 0.0),
            (M0, M0),
            (INF, INF),
            (-INF, -INF),
            (-0.5, M0),
            (1.5, 1.0),
            (NAN, NAN),
        ],
    ),
    // Rust's `x - x.trunc()`: NaN for infinities, +0 for -0
    (
        "fract",
        &[
            (1.5, 0.5),
            (-1.5, -0.5),
            (M0, 0.0),
            (-1.0, 0.0),
            (INF, NAN),
            (-INF, NAN),
            (NAN, NAN),
        ],
    ),
    (
        "recip",
        &[
            (0.0, INF),
            (M0, -INF),
            (INF, 0.0),
            (-INF, M0),
            (NAN, NAN),
            (2.0, 0.5),
        ],
    ),
    (
        "signum",
        &[
            (0.0, 1.0),
            (M0, -1.0),
            (INF, 1.0),
            (-INF, -1.0),
            (-3.0, -1.0),
            (NAN, NAN),
        ],
    ),
    (
        "cbrt",
        &[(0.0, 0.0), (M0, M0), (INF, INF), (-INF, -INF), (NAN, NAN)],
    ),
    (
        "to_degrees",
        &[(0.0, 0.0), (M0, M0), (INF, INF), (-INF, -INF), (NAN, NAN)],
    ),
    (
        "to_radians",
        &[(0.0, 0.0), (M0, M0), (INF, INF), (-INF, -INF), (NAN, NAN)],
    ),
    (
        "erf",
        &[(0.0, 0.0), (M0, M0), (INF, 1.0), (-INF, -1.0), (NAN, NAN)],
    ),
    (
        "erfc",
        &[(0.0, 1.0), (M0, 1.0), (INF, 0.0), (-INF, 2.0), (NAN, NAN)],
    ),
    ("neg", &[(0.0, M0), (M0, 0.0), (INF, -INF), (NAN, NAN)]),
];

/// `(method, [(a, b, expected)])`: `a.method(b)`.
pub const BINARY: Cases<(f64, f64, f64)> = &[
    (
        "atan2",
        &[
            (0.0, M0, PI),
            (M0, M0, -PI),
            (0.0, 0.0, 0.0),
            (M0, 0.0, M0),
            (0.0, -1.0, PI),
            (M0, -1.0, -PI),
            (0.0, 1.0, 0.0),
            (M0, 1.0, M0),
            (-1.0, 0.0, -FRAC_PI_2),
            (-1.0, M0, -FRAC_PI_2),
            (1.0, 0.0, FRAC_PI_2),
            (1.0, M0, FRAC_PI_2),
            (1.0, -INF, PI),
            (-1.0, -INF, -PI),
            (1.0, INF, 0.0),
            (-1.0, INF, M0),
            (INF, 1.0, FRAC_PI_2),
            (-INF, 1.0, -FRAC_PI_2),
            (INF, -INF, 3.0 * FRAC_PI_4),
            (-INF, -INF, -3.0 * FRAC_PI_4),
            (INF, INF, FRAC_PI_4),
            (-INF, INF, -FRAC_PI_4),
            (NAN, 1.0, NAN),
            (1.0, NAN, NAN),
        ],
    ),
    (
        "powf",
        &[
            (0.0, -1.0, INF),
            (M0, -1.0, -INF),
            (0.0, -2.0, INF),
            (M0, -2.0, INF),
            (0.0, -INF, INF),
            (M0, -INF, INF),
            (0.0, -0.5, INF),
            (0.0, 1.0, 0.0),
            (M0, 1.0, M0),
            (0.0, 2.0, 0.0),
            (M0, 2.0, 0.0),
            (M0, 0.5, 0.0),
            (-1.0, INF, 1.0),
            (-1.0, -INF, 1.0),
            (1.0, 0.0, 1.0),
            (1.0, -2.5, 1.0),
            (1.0, INF, 1.0),
            (1.0, -INF, 1.0),
            (1.0, NAN, 1.0),
            (0.0, 0.0, 1.0),
            (M0, M0, 1.0),
            (2.0, 0.0, 1.0),
            (-INF, 0.0, 1.0),
            (INF, M0, 1.0),
            (NAN, 0.0, 1.0),
            (NAN, M0, 1.0),
            (-2.0, 0.5, NAN),
            (0.5, -INF, INF),
            (2.0, -INF, 0.0),
            (0.5, INF, 0.0),
            (2.0, INF, INF),
            (-INF, -1.0, M0),
            (-INF, -2.0, 0.0),
            (-INF, -0.5, 0.0),
            (-INF, 1.0, -INF),
            (-INF, 2.0, INF),
            (-INF, 0.5, INF),
            (INF, -1.0, 0.0),
            (INF, 1.0, INF),
            (INF, 0.5, INF),
            (NAN, 1.0, NAN),
            (2.0, NAN, NAN),
        ],
    ),
    // IEEE 754-2019 minimumNumber / maximumNumber
    (
        "min",
        &[
            (NAN, 2.0, 2.0),
            (2.0, NAN, 2.0),
            (0.0, M0, M0),
            (M0, 0.0, M0),
            (NAN, NAN, NAN),
            (-INF, 1.0, -INF),
        ],
    ),
    (
        "max",
        &[
            (NAN, 2.0, 2.0),
            (2.0, NAN, 2.0),
            (0.0, M0, 0.0),
            (M0, 0.0, 0.0),
            (NAN, NAN, NAN),
            (INF, 1.0, INF),
        ],
    ),
    (
        "hypot",
        &[
            (INF, NAN, INF),
            (NAN, INF, INF),
            (-INF, NAN, INF),
            (NAN, -INF, INF),
            (INF, 1.0, INF),
            (3.0, 0.0, 3.0),
            (-3.0, M0, 3.0),
            (0.0, 0.0, 0.0),
            (M0, M0, 0.0),
            (NAN, 1.0, NAN),
        ],
    ),
    (
        "copysign",
        &[
            (1.0, M0, -1.0),
            (-1.0, 0.0, 1.0),
            (INF, -1.0, -INF),
            (2.0, -NAN, -2.0),
            (2.0, NAN, 2.0),
            (0.0, -INF, M0),
        ],
    ),
    // Rust's formulas on `%`, `/` and `trunc`: a remainder below zero moves up
    // by |b| (to ∞ for b = ±∞), the quotient one away from it
    (
        "rem_euclid",
        &[
            (0.0, 2.0, 0.0),
            (M0, 2.0, M0),
            (1.0, 0.0, NAN),
            (INF, 2.0, NAN),
            (1.5, INF, 1.5),
            (-1.5, INF, INF),
            (-1.5, -INF, INF),
            (M0, INF, M0),
            (-7.5, 2.0, 0.5),
            (7.5, -2.0, 1.5),
            (-7.5, -2.0, 0.5),
            (NAN, 1.0, NAN),
            (1.0, NAN, NAN),
        ],
    ),
    (
        "div_euclid",
        &[
            (0.0, 2.0, 0.0),
            (M0, 2.0, M0),
            (1.0, 0.0, INF),
            (-1.0, 0.0, -INF),
            (1.0, M0, -INF),
            (0.0, 0.0, NAN),
            (INF, 2.0, INF),
            (INF, -2.0, -INF),
            (1.5, INF, 0.0),
            (-1.5, INF, -1.0),
            (-1.5, -INF, 1.0),
            (-7.5, 2.0, -4.0),
            (7.5, -2.0, -3.0),
            (-7.5, -2.0, 4.0),
            (NAN, 1.0, NAN),
            (1.0, NAN, NAN),
        ],
    ),
    (
        "rem",
        &[
            (0.0, 2.0, 0.0),
            (M0, 2.0, M0),
            (1.0, 0.0, NAN),
            (INF, 2.0, NAN),
            (1.5, INF, 1.5),
            (M0, INF, M0),
            (-7.5, 2.0, -1.5),
            (7.5, -2.0, 1.5),
            (NAN, 1.0, NAN),
            (1.0, NAN, NAN),
        ],
    ),
];

/// `(method, [(a, b, c, expected)])`: `a.method(b, c)`.
pub const TERNARY: Cases<(f64, f64, f64, f64)> = &[
    (
        "mul_add",
        &[
            (INF, 0.0, 1.0, NAN),
            (0.0, INF, NAN, NAN),
            (2.0, 3.0, 1.0, 7.0),
            (M0, 1.0, 0.0, 0.0),
            (0.0, -1.0, M0, M0),
            (INF, 1.0, -INF, NAN),
            (NAN, 0.0, 1.0, NAN),
        ],
    ),
    // silt's clamp: `lo` below, `hi` above, else `x`; a NaN bound compares false
    (
        "clamp",
        &[
            (NAN, 0.0, 1.0, NAN),
            (2.0, NAN, 1.0, 1.0),
            (-1.0, 0.0, NAN, 0.0),
            (0.5, NAN, NAN, 0.5),
            (M0, 0.0, 1.0, M0),
            (5.0, 1.0, 0.0, 0.0),
            (-INF, -1.0, 1.0, -1.0),
        ],
    ),
];

/// `(x, n, expected)`: `x.powi(n)` (OpenCL's `pown`).
pub const POWI: &[(f64, i32, f64)] = &[
    (0.0, 0, 1.0),
    (M0, 0, 1.0),
    (INF, 0, 1.0),
    (NAN, 0, 1.0),
    (2.0, 0, 1.0),
    (0.0, -1, INF),
    (M0, -1, -INF),
    (M0, -2, INF),
    (0.0, 3, 0.0),
    (M0, 3, M0),
    (M0, 2, 0.0),
    (INF, -1, 0.0),
    (-INF, -1, M0),
    (-INF, 3, -INF),
    (-INF, 2, INF),
    (2.0, -2, 0.25),
    (NAN, 1, NAN),
];

/// `(x, [is_nan, is_finite, is_infinite, is_sign_negative, is_sign_positive])`.
pub const PREDICATES: &[(f64, [bool; 5])] = &[
    (NAN, [true, false, false, false, true]),
    (-NAN, [true, false, false, true, false]),
    (INF, [false, false, true, false, true]),
    (-INF, [false, false, true, true, false]),
    (0.0, [false, true, false, false, true]),
    (M0, [false, true, false, true, false]),
    (-1.0, [false, true, false, true, false]),
];

/// `(type, method, a, b, c, expected)` for `int_ops`.
#[rustfmt::skip]
pub const INT: &[(&str, &str, i64, i64, i64, i64)] = &[
    ("i8", "wrapping_add", 127, 1, 0, -128), ("u8", "wrapping_add", 255, 1, 0, 0),
    ("i8", "wrapping_sub", -128, 1, 0, 127), ("u8", "wrapping_sub", 0, 1, 0, 255),
    ("i8", "wrapping_mul", 64, 2, 0, -128), ("u64", "wrapping_mul", 1 << 63, 2, 0, 0),
    ("i8", "wrapping_neg", -128, 0, 0, -128), ("u8", "wrapping_neg", 1, 0, 0, 255),
    ("i8", "wrapping_div", -128, -1, 0, -128), ("i32", "wrapping_div", 7, 0, 0, 0), ("u8", "wrapping_div", 7, 0, 0, 0),
    ("i8", "wrapping_div", -7, 2, 0, -3),
    ("i8", "wrapping_rem", -128, -1, 0, 0), ("i32", "wrapping_rem", 7, 0, 0, 0), ("i8", "wrapping_rem", -7, 2, 0, -1),
    ("i8", "wrapping_shl", 1, 9, 0, 2), ("u8", "wrapping_shl", 1, 8, 0, 1), ("i32", "wrapping_shl", 1, 33, 0, 2),
    ("i8", "wrapping_shr", -128, 7, 0, -1), ("u8", "wrapping_shr", 128, 15, 0, 1),
    ("i8", "wrapping_abs", -128, 0, 0, -128), ("i32", "wrapping_abs", -5, 0, 0, 5),
    ("i8", "count_ones", -1, 0, 0, 8), ("u64", "count_ones", 0, 0, 0, 0),
    ("i8", "count_zeros", 0, 0, 0, 8), ("u64", "count_zeros", 1, 0, 0, 63),
    ("i8", "leading_zeros", 0, 0, 0, 8), ("i32", "leading_zeros", 0, 0, 0, 32), ("u64", "leading_zeros", 1, 0, 0, 63),
    ("i8", "leading_zeros", -1, 0, 0, 0),
    ("i8", "trailing_zeros", 0, 0, 0, 8), ("u64", "trailing_zeros", 0, 0, 0, 64), ("i32", "trailing_zeros", -128, 0, 0, 7),
    ("u8", "rotate_left", 0x81, 9, 0, 0x03), ("i8", "rotate_left", 1, 7, 0, -128),
    ("u8", "rotate_right", 0x81, 9, 0, 0xc0), ("i32", "rotate_right", 1, 32, 0, 1),
    ("i8", "abs", -128, 0, 0, -128), ("i8", "abs", -3, 0, 0, 3),
    ("i8", "signum", -128, 0, 0, -1), ("i8", "signum", 0, 0, 0, 0), ("i32", "signum", 5, 0, 0, 1),
    ("i8", "min", -128, 127, 0, -128), ("u8", "max", 0, 255, 0, 255),
    ("i8", "clamp", 100, -5, 5, 5), ("u8", "clamp", 3, 5, 1, 5), ("i32", "clamp", -9, -5, 5, -5),
    // silt's `/` and `%` beneath: 0 for a zero divisor, MIN / -1 wraps
    ("i8", "rem_euclid", -7, 2, 0, 1), ("i32", "rem_euclid", -7, -2, 0, 1), ("i8", "rem_euclid", -128, -1, 0, 0),
    ("i32", "rem_euclid", 7, 0, 0, 0), ("u8", "rem_euclid", 7, 0, 0, 0), ("i8", "rem_euclid", -127, -128, 0, 1),
    ("u8", "rem_euclid", 250, 7, 0, 5),
    ("i8", "div_euclid", -7, 2, 0, -4), ("i32", "div_euclid", -7, -2, 0, 4), ("i8", "div_euclid", -128, -1, 0, -128),
    ("i32", "div_euclid", 7, 0, 0, 0), ("u8", "div_euclid", 7, 0, 0, 0), ("i8", "div_euclid", -127, -128, 0, 1),
    ("u64", "div_euclid", -1, 2, 0, i64::MAX),
];

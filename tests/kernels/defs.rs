//! The kernels the tests run: together they cover the supported syntax, every
//! element type and every row of the semantics table.

use silt::prelude::*;

#[kernel(types = [f32, f64, i32])]
pub fn add<T>(a: T, b: T) -> T {
    a + b
}

#[kernel(types = [f32, f64])]
pub fn axpy<T>(#[scalar] alpha: T, x: T, y: &mut T) {
    *y = alpha * x + *y;
}

/// Two `&mut` parameters: `(a, b) = (a + b, a)`.
#[kernel(types = [i32])]
pub fn sum_swap<T>(a: &mut T, b: &mut T) {
    let t = *a;
    *a = t + *b;
    *b = t;
}

/// Escape-time iterations of the Mandelbrot map.
#[kernel(types = [f32])]
pub fn mandel<T>(cr: T, ci: T, #[scalar] max_iter: u32) -> u32 {
    let mut zr = 0.0;
    let mut zi = 0.0;
    let mut i = 0;
    while i < max_iter && zr * zr + zi * zi <= 4.0 {
        let t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        i += 1;
    }
    i
}

#[kernel(types = [f32, f64, i32])]
pub fn greater<T>(a: T, b: T) -> bool {
    a > b
}

/// Wrapping `+ - *`, division and remainder with the zero and `MIN / -1` rules.
#[kernel(types = [u8, i8, u16, i16, u32, i32, u64, i64])]
pub fn int_arith<T>(a: T, b: T) -> (T, T, T, T, T) {
    (a + b, a - b, a * b, a / b, a % b)
}

/// Shifts with counts past the width, bitwise operators, rotation.
#[kernel(types = [u8, i8, u16, i16, u32, i32, u64, i64])]
pub fn int_bits<T>(a: T, b: T, s: u32) -> (T, T, T, T, T, T) {
    (
        a << s,
        a >> s,
        a << b,
        (a & b) | !a,
        a ^ b,
        a.rotate_left(s),
    )
}

#[kernel(types = [i8, i16, i32, i64])]
pub fn signed_ops<T>(a: T) -> (T, T, T, T) {
    (-a, a.abs(), a.signum(), a.wrapping_neg())
}

#[kernel(types = [u8, i8, u16, i16, u32, i32, u64, i64])]
pub fn int_counts<T>(a: T, b: T) -> (u32, u32, u32, T, T, T) {
    (
        a.count_ones(),
        a.leading_zeros(),
        a.trailing_zeros(),
        a.min(b),
        a.max(b),
        a.clamp(3, 100),
    )
}

/// Saturating float-to-integer casts (NaN to 0).
#[kernel(types = [f32, f64])]
pub fn float_to_int<T>(x: T) -> (i8, u8, i16, u16, i32, u32, i64, u64) {
    (
        x as i8, x as u8, x as i16, x as u16, x as i32, x as u32, x as i64, x as u64,
    )
}

/// Integer-to-integer (truncating, sign-extending) and integer-to-float casts.
#[kernel(types = [u8, i8, u16, i16, u32, i32, u64, i64])]
pub fn int_casts<T>(x: T) -> (f32, f64, i8, u16, i32, u64, i64) {
    (
        x as f32, x as f64, x as i8, x as u16, x as i32, x as u64, x as i64,
    )
}

#[kernel]
pub fn narrow_f64(x: f64, flag: bool) -> (f32, i32, u8) {
    (x as f32, flag as i32, flag as u8)
}

/// The correctly rounded operations: `+ - * / % sqrt`.
#[kernel(types = [f32, f64])]
pub fn float_exact<T>(a: T, b: T) -> (T, T, T, T, T, T) {
    (a + b, a - b, a * b, a / b, a % b, a.sqrt())
}

#[kernel(types = [f32, f64])]
pub fn float_minmax<T>(a: T, b: T) -> (T, T, T, T, T) {
    (
        a.min(b),
        a.max(b),
        a.clamp(-1.0, 1.0),
        a.mul_add(b, 1.0),
        a.copysign(b),
    )
}

#[kernel(types = [f32, f64])]
pub fn float_round<T>(x: T) -> (T, T, T, T, T, T, T, T) {
    (
        x.floor(),
        x.ceil(),
        x.round(),
        x.trunc(),
        x.fract(),
        x.signum(),
        x.abs(),
        -x,
    )
}

#[kernel(types = [f32, f64])]
pub fn float_compare<T>(a: T, b: T) -> (bool, bool, bool, bool, bool, bool, bool) {
    (
        a == b,
        a != b,
        a < b,
        a >= b,
        a.is_nan(),
        a.is_infinite() || a.is_finite() && b.is_sign_negative(),
        !(a > b),
    )
}

#[kernel(types = [f32])]
pub fn float_bits<T>(x: T) -> (u32, T, T) {
    (x.to_bits(), x.recip(), x.to_degrees() + x.to_radians())
}

/// Functions the OpenCL spec bounds in ULPs.
#[kernel(types = [f32, f64])]
pub fn transcendental<T>(x: T) -> (T, T, T, T, T, T, T, T) {
    (
        x.exp(),
        x.ln(),
        x.sin(),
        x.cos(),
        x.tanh(),
        x.atan2(0.5),
        x.powf(1.5),
        x.cbrt(),
    )
}

#[kernel(types = [f32, f64])]
pub fn transcendental2<T>(x: T) -> (T, T, T, T, T, T, T, T, T, T, T, T) {
    (
        x.exp2(),
        x.log2(),
        x.log10(),
        x.exp_m1(),
        x.ln_1p(),
        x.asin(),
        x.acos(),
        x.atan(),
        x.sinh(),
        x.cosh(),
        x.hypot(3.0),
        x.powi(3),
    )
}

/// Every control-flow form: for, continue, while, loop/break, `if` as a value,
/// block values, early return and a cast to the generic type.
#[kernel(types = [i32, f32, f64])]
pub fn control<T>(x: T, n: i32) -> T {
    if n < -5 {
        return x;
    }
    let mut acc = x;
    for i in 0..n {
        if i % 2 == 0 {
            continue;
        }
        acc = acc + x;
    }
    let mut k = 0;
    while k < 3 {
        k += 1;
    }
    loop {
        if k > 5 {
            break;
        }
        k += 1;
    }
    let y = if acc > x {
        acc - x
    } else {
        let t = x * 2;
        t + 1
    };
    y + k as T
}

/// `a..=MAX` ends (the C loop must not overflow its counter).
#[kernel]
pub fn inclusive_range(n: u8) -> u32 {
    let mut c = 0u32;
    for i in 250..=n {
        c += i as u32;
    }
    c
}

/// Integer literals typed from context: `1`, `-1`, `0` are floats for `f32`.
#[kernel(types = [f32, i32, i64])]
pub fn sign<T>(x: T) -> T {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

/// Several outputs from one launch.
#[kernel(types = [f32, f64])]
pub fn sincos<T>(x: T) -> (T, T) {
    (x.sin(), x.cos())
}

#[kernel]
pub fn logic(a: bool, b: bool) -> (bool, bool, bool, bool, bool) {
    (a && b, a || b, a ^ b, !a, a & !b | b & !a)
}

#[kernel(types = [f32, f64])]
pub fn consts<T>(x: T) -> T {
    x * T::PI + T::EPSILON - T::MAX.min(x) + T::MIN_POSITIVE + T::LN_2
}

/// Shadowing, and user names that are keywords or builtins in OpenCL C.
#[kernel]
pub fn names(int: f32, sqrt: f32, silt_n: i32) -> f32 {
    let float = int * 2.0;
    let float = float + sqrt.sqrt();
    let mut out = float;
    {
        let float = float - 100.0;
        out += float * 0.0;
    }
    out + silt_n as f32
}

/// Compound assignment wraps like the operators.
#[kernel(types = [u8, i64])]
pub fn compound<T>(x: T, y: &mut T) {
    *y += x;
    *y *= x;
    *y -= 1;
    *y <<= 3;
}

/// Constant expressions: `MIN`, `MAX`, negative literals, suffixed literals.
#[kernel(types = [i8, u16, i64])]
pub fn int_consts<T>(x: T) -> (T, T, bool, u8) {
    (
        T::MIN.wrapping_add(x),
        T::MAX.wrapping_sub(x),
        x == T::MIN,
        200u8,
    )
}

/// `rem_euclid` and `div_euclid`, on silt's `/` and `%` (a zero divisor gives 0,
/// `MIN / -1` wraps).
#[kernel(types = [u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])]
pub fn euclid<T>(a: T, b: T) -> (T, T) {
    (a.rem_euclid(b), a.div_euclid(b))
}

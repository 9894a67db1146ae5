//! The module's own kernels, for what Python's operators and `astype` need
//! and silt-kernels does not have: Python's (and PyTorch's) floor division
//! and remainder, integer powers, and the casts to the integer types
//! silt-kernels has no `to_*` for. Written with `#[kernel]` as any crate
//! writes its own; `silt.ops.floor_divide` and `silt.ops.remainder` are the
//! first two.

use silt::{helper, kernel};

/// `floor(a / b)` as Python's `//` (and PyTorch's `floor_divide`): for
/// integers the truncating quotient moved down by one when the remainder is
/// not zero and has the other sign than `b` (`-7 // 2 == -4`), `0` when
/// `b == 0` (silt's division by zero), wrapping for `MIN // -1`; for floats
/// see [`floor_divide_of`]; `f16` computed in `f32`, rounded once.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn floor_divide<T>(a: T, b: T) -> T {
    if T::IS_FLOAT {
        if T::BITS == 16 {
            floor_divide_of(a as f32, b as f32) as T
        } else {
            floor_divide_of(a, b)
        }
    } else if T::IS_SIGNED {
        let q = a / b;
        let r = a % b;
        if r != 0 && (r < 0) != (b < 0) {
            q - 1
        } else {
            q
        }
    } else {
        a / b
    }
}

/// The float floor division: the exact quotient `(a - fmod(a, b)) / b`, one
/// lower when the remainder's sign is not `b`'s, rounded to the nearest
/// integer below; `a / b` (infinity or NaN) when `b == 0`, a zero with the
/// sign of `a / b` when the quotient is zero. NumPy's `floor_divide` gives the
/// same bits.
#[helper(types = [f32, f64])]
fn floor_divide_of<T>(a: T, b: T) -> T {
    if b == 0.0 {
        return a / b;
    }
    let m = a % b;
    let mut d = (a - m) / b;
    if m != 0.0 && (b < 0.0) != (m < 0.0) {
        d = d - 1.0;
    }
    if d == 0.0 {
        return (0.0 as T).copysign(a / b);
    }
    let f = d.floor();
    if d - f > 0.5 {
        f + 1.0
    } else {
        f
    }
}

/// `a % b` as Python's `%` (and PyTorch's `remainder`): the sign of `b`
/// (`-7 % 2 == 1`); `0` for integers when `b == 0`, NaN for floats; a zero
/// remainder of a float takes `b`'s sign; `f16` computed in `f32`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn remainder<T>(a: T, b: T) -> T {
    if T::IS_FLOAT {
        if T::BITS == 16 {
            remainder_of(a as f32, b as f32) as T
        } else {
            remainder_of(a, b)
        }
    } else if T::IS_SIGNED {
        let r = a % b;
        if r != 0 && (r < 0) != (b < 0) {
            r + b
        } else {
            r
        }
    } else {
        a % b
    }
}

/// The float remainder with `b`'s sign: `fmod(a, b)`, plus `b` when its sign
/// is not `b`'s; `+0.0` or `-0.0` (as `b`) when it is zero.
#[helper(types = [f32, f64])]
fn remainder_of<T>(a: T, b: T) -> T {
    let m = a % b;
    if m == 0.0 {
        (0.0 as T).copysign(b)
    } else if (b < 0.0) != (m < 0.0) {
        m + b
    } else {
        m
    }
}

/// `a ** b` for integers, by repeated squaring, wrapping as integer
/// multiplication does. A negative exponent gives `1` for `a == 1`, `±1` for
/// `a == -1` and `0` otherwise (the integer part of `1 / a**-b`, as
/// PyTorch's integer `pow`).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64])]
pub fn pow_int<T>(a: T, b: T) -> T {
    if T::IS_SIGNED {
        if b < 0 {
            return if a == 1 {
                1
            } else if a == -1 {
                if b % 2 == 0 {
                    1
                } else {
                    -1
                }
            } else {
                0
            };
        }
    }
    let mut result: T = 1;
    let mut base = a;
    let mut e = b;
    while e > 0 {
        if e % 2 == 1 {
            result = result * base;
        }
        e = e / 2;
        if e > 0 {
            base = base * base;
        }
    }
    result
}

/// `x as i8` (saturating from floats, NaN to 0; truncating from integers).
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_i8<T>(x: T) -> i8 {
    x as i8
}

/// `x as i16`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_i16<T>(x: T) -> i16 {
    x as i16
}

/// `x as u16`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_u16<T>(x: T) -> u16 {
    x as u16
}

/// `x as u32`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_u32<T>(x: T) -> u32 {
    x as u32
}

/// `x as u64`.
#[kernel(types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64])]
pub fn to_u64<T>(x: T) -> u64 {
    x as u64
}

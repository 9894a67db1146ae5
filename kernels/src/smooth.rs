//! The smooth activations, made of `exp`, `erfc` and `log1p`. Each is a
//! helper in `T` written in a numerically stable form (no overflow in between,
//! no cancellation: the error is bounded relative to the true result), and a
//! kernel that calls it in `f32` for `f16` and rounds once at the end (PyTorch's
//! "opmath"), in `T` itself for `f32` and `f64`.

use silt::{helper, kernel};

/// `x` for `x > 0`, else `alpha * (e^x - 1)`.
#[kernel(types = [f16, f32, f64])]
pub fn elu<T>(x: T, #[scalar] alpha: T) -> T {
    if T::BITS == 16 {
        elu_of(x as f32, alpha as f32) as T
    } else {
        elu_of(x, alpha)
    }
}

/// [`elu`](mod@elu) in `T`.
#[helper(types = [f32, f64])]
fn elu_of<T>(x: T, alpha: T) -> T {
    if x > 0.0 {
        x
    } else {
        alpha * x.exp_m1()
    }
}

/// Scaled ELU with PyTorch's constants.
#[kernel(types = [f16, f32, f64])]
pub fn selu<T>(x: T) -> T {
    if T::BITS == 16 {
        selu_of(x as f32) as T
    } else {
        selu_of(x)
    }
}

/// [`selu`](mod@selu) in `T`.
#[helper(types = [f32, f64])]
fn selu_of<T>(x: T) -> T {
    let alpha = 1.673_263_242_354_377_3;
    let scale = 1.050_700_987_355_480_5;
    if x > 0.0 {
        scale * x
    } else {
        scale * alpha * x.exp_m1()
    }
}

/// `x * Φ(x)` with the exact normal CDF, computed as `0.5 x erfc(-x / √2)`
/// (`1 + erf(..)` would cancel for negative `x`); the limits `gelu(-∞) = -0.0`
/// and `gelu(∞) = ∞` (the formula gives `∞ · 0`).
#[kernel(types = [f16, f32, f64])]
pub fn gelu<T>(x: T) -> T {
    if T::BITS == 16 {
        gelu_of(x as f32) as T
    } else {
        gelu_of(x)
    }
}

/// [`gelu`](mod@gelu) in `T`.
#[helper(types = [f32, f64])]
fn gelu_of<T>(x: T) -> T {
    if x.is_infinite() {
        if x > 0.0 {
            x
        } else {
            -0.0
        }
    } else {
        0.5 * x * (-x * T::FRAC_1_SQRT_2).erfc()
    }
}

/// GELU's tanh approximation, `0.5 x (1 + tanh(u))` with `u = √(2/π) (x +
/// 0.044715 x³)`, computed as `x · sigmoid(2u)` (the same function, without the
/// cancellation of `1 + tanh(u)` for negative `x`); the limits at `±∞` as for
/// [`gelu`](mod@gelu).
#[kernel(types = [f16, f32, f64])]
pub fn gelu_tanh<T>(x: T) -> T {
    if T::BITS == 16 {
        gelu_tanh_of(x as f32) as T
    } else {
        gelu_tanh_of(x)
    }
}

/// [`gelu_tanh`](mod@gelu_tanh) in `T`.
#[helper(types = [f32, f64])]
fn gelu_tanh_of<T>(x: T) -> T {
    if x.is_infinite() {
        if x > 0.0 {
            x
        } else {
            -0.0
        }
    } else {
        let k = T::FRAC_2_SQRT_PI * T::FRAC_1_SQRT_2;
        let t = 2.0 * (k * (x + 0.044715 * x * x * x));
        if t >= 0.0 {
            x / (1.0 + (-t).exp())
        } else {
            let e = t.exp();
            x * e / (1.0 + e)
        }
    }
}

/// `1 / (1 + e^-x)`, without overflow for large `|x|`.
#[kernel(types = [f16, f32, f64])]
pub fn sigmoid<T>(x: T) -> T {
    if T::BITS == 16 {
        sigmoid_of(x as f32) as T
    } else {
        sigmoid_of(x)
    }
}

/// [`sigmoid`](mod@sigmoid) in `T`: `e^x` only for `x < 0`, so it never
/// overflows.
#[helper(types = [f32, f64])]
fn sigmoid_of<T>(x: T) -> T {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Swish with a slope, `x * sigmoid(beta * x)`, in `T`: a `#[helper]` for
/// kernel bodies (`silt_kernels::swish(x, beta)` from a kernel of any crate),
/// not an operation of its own. `swish(x, 1)` is [`silu`](mod@silu) bit for
/// bit; where `sigmoid(beta * x)` is 0 the result is a zero of `x`'s sign
/// (`swish(-∞, 1) = -0.0`, where the formula gives `∞ · 0`).
#[helper(types = [f32, f64])]
pub fn swish<T>(x: T, beta: T) -> T {
    let s = sigmoid_of(beta * x);
    if s == 0.0 {
        if x < 0.0 {
            -0.0
        } else {
            0.0
        }
    } else {
        x * s
    }
}

/// `x * sigmoid(x)`; `silu(-∞) = -0.0` (the formula gives `∞ · 0`).
#[kernel(types = [f16, f32, f64])]
pub fn silu<T>(x: T) -> T {
    if T::BITS == 16 {
        silu_of(x as f32) as T
    } else {
        silu_of(x)
    }
}

/// [`silu`](mod@silu) in `T`.
#[helper(types = [f32, f64])]
fn silu_of<T>(x: T) -> T {
    if x == T::NEG_INFINITY {
        -0.0
    } else {
        x * sigmoid_of(x)
    }
}

/// `ln(1 + e^x)`, computed as `max(x, 0) + ln(1 + e^-|x|)`: no overflow, and
/// accurate everywhere (PyTorch returns `x` itself above a threshold of 20,
/// which in `f64` is `e^-20 ≈ 2e-9` short).
#[kernel(types = [f16, f32, f64])]
pub fn softplus<T>(x: T) -> T {
    if T::BITS == 16 {
        softplus_of(x as f32) as T
    } else {
        softplus_of(x)
    }
}

/// [`softplus`](mod@softplus) in `T`.
#[helper(types = [f32, f64])]
fn softplus_of<T>(x: T) -> T {
    let m = if x > 0.0 { x } else { 0.0 };
    m + (-x.abs()).exp().ln_1p()
}

/// `x * tanh(softplus(x))`, computed as `x · n / (n + 2)` with `n = e^x (e^x +
/// 2)` (the same function: `tanh(ln(1 + e)) = ((1 + e)² - 1) / ((1 + e)² + 1)`),
/// and `x` above 20, where that is 1 in `f64`; `mish(-∞) = -0.0` (the formula
/// gives `∞ · 0`).
#[kernel(types = [f16, f32, f64])]
pub fn mish<T>(x: T) -> T {
    if T::BITS == 16 {
        mish_of(x as f32) as T
    } else {
        mish_of(x)
    }
}

/// [`mish`](mod@mish) in `T`.
#[helper(types = [f32, f64])]
fn mish_of<T>(x: T) -> T {
    if x > 20.0 || x.is_nan() {
        x
    } else if x == T::NEG_INFINITY {
        -0.0
    } else {
        let e = x.exp();
        let n = e * (e + 2.0);
        x * (n / (n + 2.0))
    }
}

/// `ln(sigmoid(x))`, computed as `min(x, 0) - ln(1 + e^-|x|)` (no overflow, no
/// `ln(0)`).
#[kernel(types = [f16, f32, f64])]
pub fn logsigmoid<T>(x: T) -> T {
    if T::BITS == 16 {
        logsigmoid_of(x as f32) as T
    } else {
        logsigmoid_of(x)
    }
}

/// [`logsigmoid`](mod@logsigmoid) in `T`.
#[helper(types = [f32, f64])]
fn logsigmoid_of<T>(x: T) -> T {
    let m = if x < 0.0 { x } else { 0.0 };
    m - (-x.abs()).exp().ln_1p()
}

//! Activation functions, in the numerically careful forms PyTorch uses.

use silt::kernel;

/// `max(x, 0)`; NaN stays NaN.
#[kernel(types = [f16, f32, f64])]
pub fn relu<T>(x: T) -> T {
    if x > 0.0 || x.is_nan() {
        x
    } else {
        0.0
    }
}

/// `min(max(x, 0), 6)`; NaN stays NaN.
#[kernel(types = [f16, f32, f64])]
pub fn relu6<T>(x: T) -> T {
    if x.is_nan() {
        x
    } else if x <= 0.0 {
        0.0
    } else if x >= 6.0 {
        6.0
    } else {
        x
    }
}

/// `x` for `x > 0`, else `slope * x`.
#[kernel(types = [f16, f32, f64])]
pub fn leaky_relu<T>(x: T, #[scalar] slope: T) -> T {
    if x > 0.0 {
        x
    } else {
        x * slope
    }
}

/// `x` for `x > 0`, else `alpha * (e^x - 1)`.
#[kernel(types = [f16, f32, f64])]
pub fn elu<T>(x: T, #[scalar] alpha: T) -> T {
    if x > 0.0 {
        x
    } else {
        alpha * x.exp_m1()
    }
}

/// Scaled ELU with PyTorch's constants.
#[kernel(types = [f16, f32, f64])]
pub fn selu<T>(x: T) -> T {
    let alpha = 1.673_263_242_354_377_3;
    let scale = 1.050_700_987_355_480_5;
    if x > 0.0 {
        scale * x
    } else {
        scale * alpha * x.exp_m1()
    }
}

/// `x * Φ(x)` with the exact normal CDF: `0.5 x (1 + erf(x / √2))`; the limits
/// `gelu(-∞) = -0.0` and `gelu(∞) = ∞` (the formula gives `∞ · 0`).
#[kernel(types = [f16, f32, f64])]
pub fn gelu<T>(x: T) -> T {
    if x.is_infinite() {
        if x > 0.0 {
            x
        } else {
            -0.0
        }
    } else {
        0.5 * x * (1.0 + (x * T::FRAC_1_SQRT_2).erf())
    }
}

/// GELU's tanh approximation: `0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))`; the
/// limits at `±∞` as for [`gelu`](mod@gelu).
#[kernel(types = [f16, f32, f64])]
pub fn gelu_tanh<T>(x: T) -> T {
    if x.is_infinite() {
        if x > 0.0 {
            x
        } else {
            -0.0
        }
    } else {
        let k = T::FRAC_2_SQRT_PI * T::FRAC_1_SQRT_2;
        0.5 * x * (1.0 + (k * (x + 0.044715 * x * x * x)).tanh())
    }
}

/// `1 / (1 + e^-x)`, without overflow for large `|x|`.
#[kernel(types = [f16, f32, f64])]
pub fn sigmoid<T>(x: T) -> T {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `x * sigmoid(x)`; `silu(-∞) = -0.0` (the formula gives `∞ · 0`).
#[kernel(types = [f16, f32, f64])]
pub fn silu<T>(x: T) -> T {
    if x == T::NEG_INFINITY {
        return -0.0;
    }
    let s = if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    };
    x * s
}

/// `ln(1 + e^x)`, and `x` itself above PyTorch's threshold of 20.
#[kernel(types = [f16, f32, f64])]
pub fn softplus<T>(x: T) -> T {
    if x > 20.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// `x / (1 + |x|)`.
#[kernel(types = [f16, f32, f64])]
pub fn softsign<T>(x: T) -> T {
    x / (1.0 + x.abs())
}

/// `x * tanh(softplus(x))`; `mish(-∞) = -0.0` (the formula gives `∞ · 0`).
#[kernel(types = [f16, f32, f64])]
pub fn mish<T>(x: T) -> T {
    if x == T::NEG_INFINITY {
        return -0.0;
    }
    let sp = if x > 20.0 { x } else { x.exp().ln_1p() };
    x * sp.tanh()
}

/// `x` limited to `min_val..=max_val`; NaN stays NaN.
#[kernel(types = [f16, f32, f64])]
pub fn hardtanh<T>(x: T, #[scalar] min_val: T, #[scalar] max_val: T) -> T {
    if x < min_val {
        min_val
    } else if x > max_val {
        max_val
    } else {
        x
    }
}

/// `relu6(x + 3) / 6`, piecewise as PyTorch: 0 below -3, 1 above 3.
#[kernel(types = [f16, f32, f64])]
pub fn hardsigmoid<T>(x: T) -> T {
    if x <= -3.0 {
        0.0
    } else if x >= 3.0 {
        1.0
    } else {
        x / 6.0 + 0.5
    }
}

/// `x * relu6(x + 3) / 6`, piecewise as PyTorch: 0 below -3, `x` above 3.
#[kernel(types = [f16, f32, f64])]
pub fn hardswish<T>(x: T) -> T {
    if x <= -3.0 {
        0.0
    } else if x >= 3.0 {
        x
    } else {
        x * (x + 3.0) / 6.0
    }
}

/// `ln(sigmoid(x))`, computed as `min(x, 0) - ln(1 + e^-|x|)` (no overflow, no
/// `ln(0)`).
#[kernel(types = [f16, f32, f64])]
pub fn logsigmoid<T>(x: T) -> T {
    let m = if x < 0.0 { x } else { 0.0 };
    m - (-x.abs()).exp().ln_1p()
}

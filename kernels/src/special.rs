//! Special functions, as PyTorch's `torch.special`: `lgamma` (the kernel
//! language's built-in), `digamma` and `erfinv` (written here in it). Each
//! computes `f16` in `f32` and rounds once at the end, as the smooth
//! activations do.

use silt::{helper, kernel};

/// `ln |Γ(x)|`: `+∞` at `0`, `-0` and the negative integers, `0` at 1 and 2,
/// `+∞` at `±∞`.
#[kernel(types = [f16, f32, f64])]
pub fn lgamma<T>(x: T) -> T {
    x.lgamma()
}

/// `ψ(x) = Γ'(x) / Γ(x)`, the logarithmic derivative of the gamma function,
/// with PyTorch's values at its poles: `-∞` at `+0`, `+∞` at `-0`, NaN at the
/// negative integers and `-∞`.
#[kernel(types = [f16, f32, f64])]
pub fn digamma<T>(x: T) -> T {
    if T::BITS == 16 {
        digamma_of(x as f32) as T
    } else {
        digamma_of(x)
    }
}

/// [`digamma`](mod@digamma) in `T`: the reflection `ψ(x) = ψ(1 - x) -
/// π / tan(πx)` below 0 (`tan` of at most `π/4`, from the fraction of `x`), the
/// recurrence `ψ(x) = ψ(x + 1) - 1/x` up to 10, then the asymptotic series
/// `ln x - 1/(2x) - Σ B₂ₖ / (2k x²ᵏ)` to `k = 7`.
#[helper(types = [f32, f64])]
fn digamma_of<T>(x: T) -> T {
    let mut r: T = 0.0;
    if x.is_nan() || x == T::INFINITY {
        r = x;
    } else if x == 0.0 {
        r = T::INFINITY.copysign(-x);
    } else if x < 0.0 && x == x.trunc() {
        r = T::NAN;
    } else {
        let mut v = x;
        let mut acc: T = 0.0;
        if x < 0.0 {
            // π / tan(πf) for the nearest fraction f = x - round(x) (exact,
            // in [-1/2, 1/2]), odd in f: for |f| <= 1/4 as written, above as
            // π tan(π (1/2 - |f|)) (tan's argument stays within π/4, where a
            // rounding of it moves tan least)
            let f = x - x.round();
            let a = f.abs();
            let c = if a <= 0.25 {
                T::PI / (T::PI * a).tan()
            } else {
                T::PI * (T::PI * (0.5 - a)).tan()
            };
            acc = -c.copysign(f);
            v = 1.0 - x;
        }
        while v < 10.0 {
            acc -= 1.0 / v;
            v += 1.0;
        }
        let z = 1.0 / (v * v);
        // B₂ₖ / 2k for k = 1..7: 1/12, -1/120, 1/252, -1/240, 1/132,
        // -691/32760, 1/12
        let s = z
            * (1.0 / 12.0
                + z * (-1.0 / 120.0
                    + z * (1.0 / 252.0
                        + z * (-1.0 / 240.0
                            + z * (1.0 / 132.0 + z * (-691.0 / 32760.0 + z / 12.0))))));
        r = acc + v.ln() - 0.5 / v - s;
    }
    r
}

/// The inverse error function: `erfinv(erf(x)) = x`; `±∞` at `±1`, NaN
/// beyond, `-0` at `-0`.
#[kernel(types = [f16, f32, f64])]
pub fn erfinv<T>(x: T) -> T {
    if T::BITS == 16 {
        erfinv_of(x as f32) as T
    } else {
        erfinv_of(x)
    }
}

/// [`erfinv`](mod@erfinv) in `T`, of `a = |y|`: a start from M. Giles'
/// single-precision polynomials in `w = -ln((1 - a)(1 + a))` (below `w = 16`;
/// above, from `erfc(x) ≈ e^(-x²) / (x √π)`), then Newton steps (one for
/// `f32`, three for `f64`): on `erf(x) - a` up to `a = 1/2`, and on
/// `ln erfc(x) - ln(1 - a)` above it (`1 - a` is exact there, and the
/// logarithm is nearly quadratic in `x`, so the steps converge in the tail).
#[helper(types = [f32, f64])]
fn erfinv_of<T>(y: T) -> T {
    let a = y.abs();
    let mut r: T = 0.0;
    if y.is_nan() || a > 1.0 {
        r = T::NAN;
    } else if a == 1.0 {
        r = T::INFINITY;
    } else if a == 0.0 {
        r = 0.0;
    } else {
        let w = -((1.0 - a) * (1.0 + a)).ln();
        let mut x: T = 0.0;
        if w < 5.0 {
            let u = w - 2.5;
            let mut p: T = 2.81022636e-08;
            p = 3.43273939e-07 + p * u;
            p = -3.5233877e-06 + p * u;
            p = -4.39150654e-06 + p * u;
            p = 0.00021858087 + p * u;
            p = -0.00125372503 + p * u;
            p = -0.00417768164 + p * u;
            p = 0.246640727 + p * u;
            p = 1.50140941 + p * u;
            x = p * a;
        } else if w < 16.0 {
            let u = w.sqrt() - 3.0;
            let mut p: T = -0.000200214257;
            p = 0.000100950558 + p * u;
            p = 0.00134934322 + p * u;
            p = -0.00367342844 + p * u;
            p = 0.00573950773 + p * u;
            p = -0.0076224613 + p * u;
            p = 0.00943887047 + p * u;
            p = 1.00167406 + p * u;
            p = 2.83297682 + p * u;
            x = p * a;
        } else {
            // x² = -ln(1 - a) - ln(x √π), by two fixed-point steps
            let l = -(1.0 - a).ln();
            x = l.sqrt();
            x = (l - (x * T::PI.sqrt()).ln()).sqrt();
            x = (l - (x * T::PI.sqrt()).ln()).sqrt();
        }
        let steps = if T::BITS == 64 { 3 } else { 1 };
        let mut k = 0;
        while k < steps {
            let d = T::FRAC_2_SQRT_PI * (-x * x).exp();
            if a <= 0.5 {
                x -= (x.erf() - a) / d;
            } else {
                let c = x.erfc();
                x += (c.ln() - (1.0 - a).ln()) * c / d;
            }
            k += 1;
        }
        r = x;
    }
    r.copysign(y)
}

/// The Hurwitz zeta function `ζ(x, q) = Σ (q + k)^-x` over `k >= 0`
/// (`torch.special.zeta`): `+∞` at `x = 1` and at `q` a non-positive
/// integer, NaN for `x < 1` and for `q < 0` with `x` not an integer; `0` at
/// `q = +∞`; at `x = +∞`, `q^-x`'s limit (`0`, `1` or `+∞`).
#[kernel(types = [f16, f32, f64])]
pub fn zeta<T>(x: T, q: T) -> T {
    if T::BITS == 16 {
        zeta_of(x as f32, q as f32) as T
    } else {
        zeta_of(x, q)
    }
}

/// [`zeta`](mod@zeta) in `T`: the terms summed directly until `q + k`
/// passes 9 (and at least nine of them), then the Euler–Maclaurin tail at
/// `w = q + k`: `w^(1-x) / (x - 1) - w^-x / 2 + Σ B₂ⱼ / (2j)! x(x+1)⋯(x+2j-2)
/// w^(-x-2j+1)`, `j` up to 12, each sum stopped where a term no longer
/// changes it.
#[helper(types = [f32, f64])]
fn zeta_of<T>(x: T, q: T) -> T {
    let mut r: T = 0.0;
    if x.is_nan() || q.is_nan() || q == T::NEG_INFINITY {
        r = T::NAN;
    } else if x == 1.0 {
        r = T::INFINITY;
    } else if x < 1.0 {
        r = T::NAN;
    } else if q <= 0.0 && q == q.floor() {
        r = T::INFINITY;
    } else if q < 0.0 && x != x.floor() {
        r = T::NAN;
    } else if q == T::INFINITY {
        r = 0.0;
    } else if x == T::INFINITY {
        r = if q > 1.0 {
            0.0
        } else if q == 1.0 {
            1.0
        } else {
            T::INFINITY
        };
    } else {
        let mut s = q.powf(-x);
        let mut a = q;
        let mut b: T = 0.0;
        let mut k = 0;
        let mut done = false;
        while !done && (k < 9 || a <= 9.0) {
            k += 1;
            a += 1.0;
            b = a.powf(-x);
            s += b;
            done = b.abs() < T::EPSILON * s.abs();
        }
        if !done {
            let w = a;
            s += b * w / (x - 1.0);
            s -= 0.5 * b;
            // (2j)! / B₂ⱼ for j = 1..12
            let mut f: T = 1.0;
            let mut m: T = 0.0;
            let mut j = 0;
            while !done && j < 12 {
                let c = match j {
                    0 => 12.0,
                    1 => -720.0,
                    2 => 30240.0,
                    3 => -1209600.0,
                    4 => 47900160.0,
                    5 => -1892437580.3183792,
                    6 => 74724249600.0,
                    7 => -2950130727918.164,
                    8 => 116467828143500.67,
                    9 => -4597978722407473.0,
                    10 => 1.8152105401943546e17,
                    _ => -7.166165256175667e18,
                };
                f *= x + m;
                b /= w;
                let t = f * b / c;
                s += t;
                done = (t / s).abs() < T::EPSILON;
                m += 1.0;
                f *= x + m;
                b /= w;
                m += 1.0;
                j += 1;
            }
        }
        r = s;
    }
    r
}

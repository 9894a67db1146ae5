//! Special functions, as PyTorch's `torch.special`: `lgamma` (the kernel
//! language's built-in), `digamma`, `erfinv`, `erfcx`, `log_ndtr`, `ndtri`,
//! the modified Bessel functions `i0`, `i0e`, `i1`, `i1e` and the Hurwitz
//! `zeta` (written here in it). Each
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

/// [`erfinv`](mod@erfinv) in `T`: its poles, zeros and NaNs, then
/// [`erfinv_core`] of `|y|` with the sign of `y`.
#[helper(types = [f32, f64])]
fn erfinv_of<T>(y: T) -> T {
    let a = y.abs();
    let mut r: T = 0.0;
    if y.is_nan() || a > 1.0 {
        r = T::NAN;
    } else if a == 1.0 {
        r = T::INFINITY;
    } else if a > 0.0 {
        r = erfinv_core(a, 1.0 - a);
    }
    r.copysign(y)
}

/// The `x > 0` with `erf(x) = a` and `erfc(x) = c`, for `0 < a < 1` and `c =
/// 1 - a` (whichever of the two the caller has exactly, the other rounded):
/// a start from M. Giles' single-precision polynomials in `w = -ln(c (1 +
/// a))` (below `w = 16`; above, from `erfc(x) ≈ e^(-x²) / (x √π)`), then
/// Newton steps (one for `f32`, three for `f64`): on `erf(x) - a` up to `a =
/// 1/2`, and on `ln erfc(x) - ln c` above it, with `ln erfc(x)` as `ln
/// erfcx(x) - x²` (which does not underflow in the tail, and is nearly
/// quadratic in `x` there, so the steps converge).
#[helper(types = [f32, f64])]
fn erfinv_core<T>(a: T, c: T) -> T {
    let w = -(c * (1.0 + a)).ln();
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
        // x² = -ln c - ln(x √π), by two fixed-point steps
        let l = -c.ln();
        x = l.sqrt();
        x = (l - (x * T::PI.sqrt()).ln()).sqrt();
        x = (l - (x * T::PI.sqrt()).ln()).sqrt();
    }
    let steps = if T::BITS == 64 { 3 } else { 1 };
    for _ in 0..steps {
        if a <= 0.5 {
            let d = T::FRAC_2_SQRT_PI * (-x * x).exp();
            x -= (x.erf() - a) / d;
        } else {
            // ln erfc(x) - ln c over its derivative, -2 / (√π erfcx(x))
            let e = erfcx_of(x);
            x += (e.ln() - x * x - c.ln()) * e / T::FRAC_2_SQRT_PI;
        }
    }
    x
}

/// `erfc(x) e^(x²)`, the scaled complementary error function
/// (`torch.special.erfcx`): `1` at `0`, `0` at `+∞`, `+∞` at `-∞` (and
/// wherever `2 e^(x²)` overflows).
#[kernel(types = [f16, f32, f64])]
pub fn erfcx<T>(x: T) -> T {
    if T::BITS == 16 {
        erfcx_of(x as f32) as T
    } else {
        erfcx_of(x)
    }
}

/// [`erfcx`](mod@erfcx) in `T`. Within 1 (`f32`) or 2 (`f64`) of 0, `e^(x²)
/// erfc(x)`, with `x²` split exactly as `h +
/// l` and `e^(x²)` taken as `e^h (1 + l)`; above, Laplace's continued
/// fraction `1 / (√π (x + ½ / (x + 1 / (x + (3/2) / (x + ⋯)))))` of 40
/// (`f32`) or 60 (`f64`) terms, evaluated from the last (within 2 ULPs
/// there, and free of underflow); below, `2 e^(x²) - erfcx(-x)`.
#[helper(types = [f32, f64])]
fn erfcx_of<T>(x: T) -> T {
    let mut r: T = 0.0;
    let b = if T::BITS == 64 { 2.0 } else { 1.0 };
    let a = x.abs();
    if x.is_nan() {
        r = x;
    } else if x < -30.0 {
        r = T::INFINITY;
    } else if a < b {
        let h = x * x;
        let l = x.mul_add(x, -h);
        r = h.exp() * (1.0 + l) * x.erfc();
    } else {
        let mut g = a;
        let mut m: T = if T::BITS == 64 { 30.0 } else { 20.0 };
        while m > 0.0 {
            g = a + m / g;
            m -= 0.5;
        }
        r = 0.5 * T::FRAC_2_SQRT_PI / g;
        if x < 0.0 {
            let h = x * x;
            let l = x.mul_add(x, -h);
            r = 2.0 * (h.exp() * (1.0 + l)) - r;
        }
    }
    r
}

/// `ln Φ(x)`, the logarithm of the standard normal distribution's
/// cumulative distribution function (`torch.special.log_ndtr`): `-∞` at
/// `-∞`, `-0` at `+∞`.
#[kernel(types = [f16, f32, f64])]
pub fn log_ndtr<T>(x: T) -> T {
    if T::BITS == 16 {
        log_ndtr_of(x as f32) as T
    } else {
        log_ndtr_of(x)
    }
}

/// [`log_ndtr`](mod@log_ndtr) in `T`, with `z = x / √2`: below `-1`, `ln
/// erfcx(-z) - ln 2 - x²/2` (no underflow); up to 0, `ln(erfc(-z) / 2)`;
/// above, `ln(1 - erfc(z) / 2)`, with `z`'s rounding (and that of `1/√2`)
/// carried into `erfc` by its derivative, since `erfc(z)`'s relative error
/// grows with `z²` times `z`'s.
#[helper(types = [f32, f64])]
fn log_ndtr_of<T>(x: T) -> T {
    let mut r: T = 0.0;
    if x.is_nan() {
        r = x;
    } else if x < -1.0 {
        r = erfcx_of(-x * T::FRAC_1_SQRT_2).ln() - T::LN_2 - 0.5 * (x * x);
    } else if x <= 0.0 {
        r = (0.5 * (-x * T::FRAC_1_SQRT_2).erfc()).ln();
    } else if x == T::INFINITY {
        r = -0.0;
    } else {
        // 1/√2 - FRAC_1_SQRT_2 in `T`
        let c: T = if T::BITS == 64 {
            -4.833_646_656_726_456_5e-17
        } else {
            1.210_161_7e-8
        };
        let z = x * T::FRAC_1_SQRT_2;
        let dz = x.mul_add(T::FRAC_1_SQRT_2, -z) + x * c;
        let t = z.erfc() - T::FRAC_2_SQRT_PI * (-z * z).exp() * dz;
        r = (-0.5 * t).ln_1p();
    }
    r
}

/// `Φ⁻¹(p)`, the inverse of the standard normal distribution's cumulative
/// distribution function (`torch.special.ndtri`): `-∞` at `0`, `+∞` at `1`,
/// NaN outside `[0, 1]`.
#[kernel(types = [f16, f32, f64])]
pub fn ndtri<T>(p: T) -> T {
    if T::BITS == 16 {
        ndtri_of(p as f32) as T
    } else {
        ndtri_of(p)
    }
}

/// [`ndtri`](mod@ndtri) in `T`: `-√2 erfc⁻¹(2p)` below `p = 1/2`, `√2
/// erfc⁻¹(2 (1 - p))` from it (`2p` and `1 - p` are exact there), so the
/// tails keep their digits to the smallest `p`.
#[helper(types = [f32, f64])]
fn ndtri_of<T>(p: T) -> T {
    let mut r: T = 0.0;
    if p.is_nan() || p < 0.0 || p > 1.0 {
        r = T::NAN;
    } else if p == 0.0 {
        r = T::NEG_INFINITY;
    } else if p == 1.0 {
        r = T::INFINITY;
    } else if p < 0.5 {
        let c = 2.0 * p;
        r = -T::SQRT_2 * erfinv_core(1.0 - c, c);
    } else if p > 0.5 {
        let c = 2.0 * (1.0 - p);
        r = T::SQRT_2 * erfinv_core(1.0 - c, c);
    }
    r
}

/// `I₀(x)`, the modified Bessel function of the first kind of order 0
/// (`torch.special.i0`): even, `1` at `0`, `+∞` at `±∞`.
#[kernel(types = [f16, f32, f64])]
pub fn i0<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_i_of(x as f32, 0, 0) as T
    } else {
        bessel_i_of(x, 0, 0)
    }
}

/// `e^-|x| I₀(x)`, the exponentially scaled [`i0`](mod@i0)
/// (`torch.special.i0e`): `1` at `0`, `0` at `±∞`.
#[kernel(types = [f16, f32, f64])]
pub fn i0e<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_i_of(x as f32, 0, 1) as T
    } else {
        bessel_i_of(x, 0, 1)
    }
}

/// `I₁(x)`, the modified Bessel function of the first kind of order 1
/// (`torch.special.i1`): odd, `±∞` at `±∞`.
#[kernel(types = [f16, f32, f64])]
pub fn i1<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_i_of(x as f32, 1, 0) as T
    } else {
        bessel_i_of(x, 1, 0)
    }
}

/// `e^-|x| I₁(x)`, the exponentially scaled [`i1`](mod@i1)
/// (`torch.special.i1e`): odd, `±0` at `±∞`.
#[kernel(types = [f16, f32, f64])]
pub fn i1e<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_i_of(x as f32, 1, 1) as T
    } else {
        bessel_i_of(x, 1, 1)
    }
}

/// `I_ν(x)` for `ν` 0 or 1, times `e^-|x|` where `scaled` is 1. Up to `|x| =
/// 10` (`f32`) or 20 (`f64`), the power series `Σ (x/2)^(2k+ν) / (k! (k +
/// ν)!)` (all terms positive), to the term below the sum's last bit; above,
/// the asymptotic series `e^x / √(2πx) Σ (-1)^k ∏ (4ν² - (2j - 1)²) / (k!
/// (8x)^k)`, to the term below the sum's last bit, which it reaches from
/// those `x` (`e^x` as `e^(x/2)` squared, so that it overflows only where
/// `I_ν` does). Odd orders take the sign of `x`.
#[helper(types = [f32, f64])]
fn bessel_i_of<T>(x: T, nu: u32, scaled: u32) -> T {
    let a = x.abs();
    let n = nu as T;
    let mut r: T = 0.0;
    if x.is_nan() {
        r = x;
    } else if a == T::INFINITY {
        r = if scaled == 1 { 0.0 } else { T::INFINITY };
    } else if a <= (if T::BITS == 64 { 20.0 } else { 10.0 }) {
        let q = 0.25 * a * a;
        let mut t: T = if nu == 0 { 1.0 } else { 0.5 * a };
        let mut s = t;
        let mut k: T = 1.0;
        loop {
            t = t * q / (k * (k + n));
            s += t;
            k += 1.0;
            if t <= T::EPSILON * s {
                break;
            }
        }
        r = if scaled == 1 { s * (-a).exp() } else { s };
    } else {
        let mu = 4.0 * n * n;
        let mut t: T = 1.0;
        let mut s = t;
        let mut k: T = 1.0;
        while k < 60.0 {
            let u = t * ((2.0 * k - 1.0) * (2.0 * k - 1.0) - mu) / (8.0 * k * a);
            if u.abs() >= t.abs() {
                break;
            }
            t = u;
            s += t;
            k += 1.0;
            if t.abs() <= T::EPSILON * s.abs() {
                break;
            }
        }
        r = s / (2.0 * T::PI * a).sqrt();
        if scaled == 0 {
            let e = (0.5 * a).exp();
            r = r * e * e;
        }
    }
    if x < 0.0 && nu == 1 {
        r = -r;
    }
    r
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

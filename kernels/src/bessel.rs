//! Bessel functions of integer order 0 and 1 (`bessel_j0`, `bessel_j1`,
//! `bessel_y0`, `bessel_y1`), the modified ones of the second kind
//! (`modified_bessel_k0`, `modified_bessel_k1` and their exponentially
//! scaled forms) and Airy's `airy_ai`, as PyTorch's `torch.special` names
//! them. Each computes `f16` in `f32` and rounds once at the end.
//!
//! Where a power series cancels (`J`, `Y` and `Ai` of negative arguments),
//! it is summed in double-word arithmetic (a value and its rounding error),
//! so that its digits survive terms thousands of times larger than the sum;
//! beyond, the asymptotic series take over where their smallest term is
//! below the last bit. `K` is an integral of positive terms, summed by the
//! trapezoidal rule (which converges geometrically for it).

use silt::{helper, kernel};

use crate::two_prod;

/// `J₀(x)`, the Bessel function of the first kind of order 0
/// (`torch.special.bessel_j0`): even, `1` at `0`, `0` at `±∞` (PyTorch's
/// gives NaN there).
#[kernel(types = [f16, f32, f64])]
pub fn bessel_j0<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_jy_of(x as f32, 0, 0) as T
    } else {
        bessel_jy_of(x, 0, 0)
    }
}

/// `J₁(x)`, the Bessel function of the first kind of order 1
/// (`torch.special.bessel_j1`): odd, `±0` at `±0` and at `±∞` (PyTorch's
/// gives NaN at `±∞`).
#[kernel(types = [f16, f32, f64])]
pub fn bessel_j1<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_jy_of(x as f32, 1, 0) as T
    } else {
        bessel_jy_of(x, 1, 0)
    }
}

/// `Y₀(x)`, the Bessel function of the second kind of order 0
/// (`torch.special.bessel_y0`): `-∞` at `±0`, NaN below 0, `0` at `+∞`
/// (PyTorch's gives NaN there).
#[kernel(types = [f16, f32, f64])]
pub fn bessel_y0<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_jy_of(x as f32, 0, 1) as T
    } else {
        bessel_jy_of(x, 0, 1)
    }
}

/// `Y₁(x)`, the Bessel function of the second kind of order 1
/// (`torch.special.bessel_y1`): `-∞` at `±0` (and wherever `-2 / (πx)`
/// overflows), NaN below 0, `0` at `+∞` (PyTorch's gives NaN there).
#[kernel(types = [f16, f32, f64])]
pub fn bessel_y1<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_jy_of(x as f32, 1, 1) as T
    } else {
        bessel_jy_of(x, 1, 1)
    }
}

/// `J_ν(x)` (`second` 0) or `Y_ν(x)` (`second` 1) for `ν` 0 or 1: the
/// power series up to `|x|` = 20 (`f64`) or 10 (`f32`), Hankel's asymptotic
/// expansion beyond.
#[helper(types = [f32, f64])]
fn bessel_jy_of<T>(x: T, nu: u32, second: u32) -> T {
    let a = x.abs();
    let mut r: T = 0.0;
    if x.is_nan() {
        r = x;
    } else if second == 1 && x < 0.0 {
        r = T::NAN;
    } else if second == 1 && x == 0.0 {
        r = T::NEG_INFINITY;
    } else if a == T::INFINITY {
        r = 0.0;
    } else if a <= (if T::BITS == 64 { 20.0 } else { 10.0 }) {
        r = bessel_jy_series(a, nu, second);
    } else {
        let (j, y) = bessel_jy_hankel(a, nu);
        r = if second == 1 { y } else { j };
    }
    if second == 0 && nu == 1 && x.is_sign_negative() {
        r = -r;
    }
    r
}

/// The power series of `J_ν(a)` or `Y_ν(a)`, `a > 0` and `ν` 0 or 1, in
/// double-word arithmetic: with `q = a²/4` and `t_k = (-q)^k / (k! (k +
/// ν)!)`, `J_ν = (a/2)^ν Σ t_k`, `Y₀ = (2/π) ((ln(a/2) + γ) J₀ - Σ H_k t_k)`
/// and `Y₁ = (2/π) (ln(a/2) + γ) J₁ - 2/(πa) - (a/2π) Σ (H_k + H_(k+1)) t_k`
/// (`H_k` the harmonic numbers; DLMF 10.8.1-2). The terms reach `e^a` times
/// the sum; their double words keep about 2 x 53 bits, the sum is rounded
/// once. The logarithm's factor is a plain float, so `Y` keeps its digits
/// relative to the functions' size, not near its zeros.
#[helper(types = [f32, f64])]
fn bessel_jy_series<T>(a: T, nu: u32, second: u32) -> T {
    let (q0, q1) = two_prod(a, a);
    let (qh, ql) = (0.25 * q0, 0.25 * q1);
    let n = nu as T;
    let mut th: T = 1.0;
    let mut tl: T = 0.0;
    let mut sh: T = 1.0;
    let mut sl: T = 0.0;
    let mut hh: T = 0.0;
    let mut hl: T = 0.0;
    let mut wh: T = if nu == 0 { 0.0 } else { 1.0 };
    let mut wl: T = 0.0;
    let mut k: T = 1.0;
    while k < 100.0 {
        (th, tl) = dd_mul(th, tl, qh, ql);
        (th, tl) = dd_div(-th, -tl, k * (k + n));
        (sh, sl) = dd_add(sh, sl, th, tl);
        if second == 1 {
            let (ih, il) = dd_div(1.0, 0.0, k);
            (hh, hl) = dd_add(hh, hl, ih, il);
            let (ch, cl) = if nu == 0 {
                (hh, hl)
            } else {
                let (jh, jl) = dd_div(1.0, 0.0, k + 1.0);
                let (dh, dl) = dd_add(hh, hl, hh, hl);
                dd_add(dh, dl, jh, jl)
            };
            let (ph, pl) = dd_mul(th, tl, ch, cl);
            (wh, wl) = dd_add(wh, wl, ph, pl);
        }
        if th.abs() <= T::EPSILON * T::EPSILON * sh.abs() {
            break;
        }
        k += 1.0;
    }
    let s = sh + sl;
    let mut r: T = 0.0;
    if second == 0 {
        r = if nu == 0 { s } else { 0.5 * a * s };
    } else {
        let l = ln_half(a) + 0.577_215_664_901_532_9;
        let w = wh + wl;
        if nu == 0 {
            r = T::FRAC_2_PI * (l * s - w);
        } else {
            let h = 0.5 * a;
            r = T::FRAC_2_PI * (l * (h * s)) - T::FRAC_2_PI / a - T::FRAC_1_PI * (h * w);
        }
    }
    r
}

/// `(J_ν(a), Y_ν(a))` for `a` above 10 or 20 and `ν` 0 or 1 by Hankel's
/// expansion (DLMF 10.17.3-4): `√(2/(πa)) (P cos ω - Q sin ω)` and `√(2/(πa))
/// (P sin ω + Q cos ω)` with `ω = a - (2ν + 1)π/4`, each of `P` and `Q` summed
/// to its term below the last bit (the smallest is about `e^(-2a)`).
/// `cos ω` and `sin ω` are put together from `cos a` and `sin a`, whose
/// arguments are exact.
#[helper(types = [f32, f64])]
fn bessel_jy_hankel<T>(a: T, nu: u32) -> (T, T) {
    let (p, q) = asymptotic_pq(a, (4 * nu * nu) as T);
    let (c, s) = (a.cos(), a.sin());
    let (co, si) = if nu == 0 {
        ((c + s) * T::FRAC_1_SQRT_2, (s - c) * T::FRAC_1_SQRT_2)
    } else {
        ((s - c) * T::FRAC_1_SQRT_2, -(s + c) * T::FRAC_1_SQRT_2)
    };
    let amp = (T::FRAC_2_PI / a).sqrt();
    (amp * (p * co - q * si), amp * (p * si + q * co))
}

/// The two sums `P = Σ (-1)^k a_2k` and `Q = Σ (-1)^k a_(2k+1)` of an
/// asymptotic expansion in `1/z`, each to its term below the last bit or to
/// its smallest term: Hankel's (DLMF 10.17.1) for `mu = 4ν² >= 0`, `a_k =
/// a_(k-1) (mu - (2k - 1)²) / (8kz)`; the Airy function's (DLMF 9.7.2) for
/// `mu < 0`, `a_k = a_(k-1) (6k - 5)(6k - 3)(6k - 1) / (216 (2k - 1) k z)`.
#[helper(types = [f32, f64])]
fn asymptotic_pq<T>(z: T, mu: T) -> (T, T) {
    let mut p: T = 1.0;
    let mut q: T = 0.0;
    let mut t: T = 1.0;
    let mut k: u32 = 1;
    while k < 100 {
        let kf = k as T;
        let m = 2.0 * kf - 1.0;
        let u = if mu >= 0.0 {
            t * (mu - m * m) / (8.0 * kf * z)
        } else {
            t * ((6.0 * kf - 5.0) * (6.0 * kf - 3.0) * (6.0 * kf - 1.0)) / (216.0 * m * kf * z)
        };
        if u.abs() >= t.abs() {
            break;
        }
        t = u;
        let v = if (k / 2) % 2 == 1 { -t } else { t };
        if k % 2 == 1 {
            q += v;
        } else {
            p += v;
        }
        if t.abs() <= 0.01 * T::EPSILON {
            break;
        }
        k += 1;
    }
    (p, q)
}

/// `ln(x/2)` of `x > 0`: `x/2` is exact but below the normal range, where
/// halving rounds (the smallest subnormal halves to 0); there, `ln x - ln 2`.
#[helper(types = [f32, f64])]
fn ln_half<T>(x: T) -> T {
    if x < T::MIN_POSITIVE {
        x.ln() - T::LN_2
    } else {
        (0.5 * x).ln()
    }
}

/// `K₀(x)`, the modified Bessel function of the second kind of order 0
/// (`torch.special.modified_bessel_k0`): `+∞` at `±0`, NaN below 0, `0` at
/// `+∞`.
#[kernel(types = [f16, f32, f64])]
pub fn modified_bessel_k0<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_k_of(x as f32, 0, 0) as T
    } else {
        bessel_k_of(x, 0, 0)
    }
}

/// `K₁(x)`, the modified Bessel function of the second kind of order 1
/// (`torch.special.modified_bessel_k1`): `+∞` at `±0` (and wherever `1/x`
/// overflows), NaN below 0, `0` at `+∞`.
#[kernel(types = [f16, f32, f64])]
pub fn modified_bessel_k1<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_k_of(x as f32, 1, 0) as T
    } else {
        bessel_k_of(x, 1, 0)
    }
}

/// `eˣ K₀(x)`, the exponentially scaled [`modified_bessel_k0`](mod@modified_bessel_k0)
/// (`torch.special.scaled_modified_bessel_k0`): `+∞` at `±0`, NaN below 0,
/// `0` at `+∞`, without `K₀`'s underflow.
#[kernel(types = [f16, f32, f64])]
pub fn scaled_modified_bessel_k0<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_k_of(x as f32, 0, 1) as T
    } else {
        bessel_k_of(x, 0, 1)
    }
}

/// `eˣ K₁(x)`, the exponentially scaled [`modified_bessel_k1`](mod@modified_bessel_k1)
/// (`torch.special.scaled_modified_bessel_k1`): `+∞` at `±0`, NaN below 0,
/// `0` at `+∞`, without `K₁`'s underflow.
#[kernel(types = [f16, f32, f64])]
pub fn scaled_modified_bessel_k1<T>(x: T) -> T {
    if T::BITS == 16 {
        bessel_k_of(x as f32, 1, 1) as T
    } else {
        bessel_k_of(x, 1, 1)
    }
}

/// `K_ν(x)` for `ν` 0 or 1, times `eˣ` where `scaled` is 1: up to 1, the
/// series `K₀ = -(ln(x/2) + γ) I₀(x) + Σ H_k q^k / k!²` and `K₁ = 1/x + (ln(x/2)
/// + γ) I₁(x) - (x/4) Σ (H_k + H_(k+1)) q^k / (k! (k + 1)!)`, `q = x²/4`
/// (DLMF 10.31.1-2, their terms of one sign there); above,
/// [`bessel_k_scaled`]'s integral.
#[helper(types = [f32, f64])]
fn bessel_k_of<T>(x: T, nu: u32, scaled: u32) -> T {
    let mut r: T = 0.0;
    if x.is_nan() {
        r = x;
    } else if x < 0.0 {
        r = T::NAN;
    } else if x == 0.0 {
        r = T::INFINITY;
    } else if x == T::INFINITY {
        r = 0.0;
    } else if x <= 1.0 {
        let q = 0.25 * x * x;
        let l = ln_half(x) + 0.577_215_664_901_532_9;
        let mut t: T = 1.0;
        let mut s: T = 1.0;
        let mut h: T = 0.0;
        let mut w: T = if nu == 0 { 0.0 } else { 1.0 };
        let mut k: T = 1.0;
        while k < 40.0 {
            t = t * q / (k * (k + nu as T));
            s += t;
            h += 1.0 / k;
            w += t
                * (if nu == 0 {
                    h
                } else {
                    2.0 * h + 1.0 / (k + 1.0)
                });
            if t <= T::EPSILON * s {
                break;
            }
            k += 1.0;
        }
        if nu == 0 {
            r = w - l * s;
        } else {
            let hx = 0.5 * x;
            r = 1.0 / x + l * (hx * s) - 0.5 * hx * w;
        }
        if scaled == 1 {
            r = r * x.exp();
        }
    } else {
        r = bessel_k_scaled(x, nu as T);
        if scaled == 0 {
            let e = (-0.5 * x).exp();
            r = r * e * e;
        }
    }
    r
}

/// `eˣ K_ν(x) = ∫₀^∞ exp(-2x sinh²(t/2)) cosh(νt) dt` for `x` not far below
/// 1 (DLMF 10.32.9), by the trapezoidal rule, whose error falls as
/// `exp(-c/h)` for an integrand analytic in a strip: steps of `min(0.22,
/// 0.55/√x)` (`f64`; `min(0.35, 0.8/√x)` for `f32`, measured against 30-digit
/// values to leave an error below a tenth of the last bit) until the
/// exponent passes 38 (18) plus `νt`. Every term is positive: at most 24
/// of them for `x >= 2/3`.
#[helper(types = [f32, f64])]
fn bessel_k_scaled<T>(x: T, nu: T) -> T {
    let hmax: T = if T::BITS == 64 { 0.22 } else { 0.35 };
    let c: T = if T::BITS == 64 { 0.55 } else { 0.8 };
    let lim: T = if T::BITS == 64 { 38.0 } else { 18.0 };
    let h = hmax.min(c / x.sqrt());
    let mut s: T = 0.5;
    let mut j: T = 1.0;
    while j < 64.0 {
        let t = j * h;
        let sh = (0.5 * t).sinh();
        let e = 2.0 * x * sh * sh;
        let f = (-e).exp();
        s += if nu == 0.0 { f } else { f * (nu * t).cosh() };
        if e - nu * t > lim {
            break;
        }
        j += 1.0;
    }
    h * s
}

/// `Ai(x)`, the Airy function of the first kind (`torch.special.airy_ai`):
/// `0` at `±∞` (PyTorch's gives NaN there) and wherever `|x|^(3/2)`
/// overflows. Above 1, `(1/π) √(x/3) K_(1/3)(ζ)` with `ζ = 2x^(3/2)/3`
/// (DLMF 9.6.1) by the trapezoidal rule on its integral, as `K₀`; from -9 (`f64`; -6 for
/// `f32`) to 1, the Maclaurin series (DLMF 9.4.1) in double words; below, the
/// asymptotic expansion of DLMF 9.7.9. `ζ` is carried as a double word, so
/// that `e^-ζ` and the phase keep their digits for large `|x|`.
#[kernel(types = [f16, f32, f64])]
pub fn airy_ai<T>(x: T) -> T {
    if T::BITS == 16 {
        airy_ai_of(x as f32) as T
    } else {
        airy_ai_of(x)
    }
}

#[helper(types = [f32, f64])]
fn airy_ai_of<T>(x: T) -> T {
    let mut r: T = 0.0;
    if x.is_nan() {
        r = x;
    } else if x.is_infinite() {
        r = 0.0;
    } else if x > 1.0 {
        let (zh, zl) = airy_zeta(x);
        // `Ai` is below the smallest subnormal there
        if zh < (if T::BITS == 64 { 800.0 } else { 120.0 }) {
            let e = (-0.5 * zh).exp();
            let k = bessel_k_scaled(zh, 1.0 / 3.0);
            r = (x / 3.0).sqrt() * T::FRAC_1_PI * k * e * e * (1.0 - zl);
        }
    } else if x >= (if T::BITS == 64 { -9.0 } else { -6.0 }) {
        r = airy_ai_series(x);
    } else {
        r = airy_ai_oscillating(-x);
    }
    r
}

/// `ζ = 2a^(3/2)/3` of `a > 0` as a double word `(ζ, its rounding error)`:
/// `a√a` from `√a` and its exact remainder `a - (√a)²`, then the division by
/// 3 with its exact remainder. `(∞, NaN)` where `a√a` overflows.
#[helper(types = [f32, f64])]
fn airy_zeta<T>(a: T) -> (T, T) {
    let s = a.sqrt();
    let r = (-s).mul_add(s, a);
    let (p, pe) = two_prod(a, s);
    let lo = pe + a * r / (2.0 * s);
    let d = 2.0 * p / 3.0;
    let rem = (-3.0 as T).mul_add(d, 2.0 * p);
    let (s2, e2) = fast_two_sum(d, (rem + 2.0 * lo) / 3.0);
    (s2, e2)
}

/// `Ai(x) = c₁ f(x) - c₂ g(x)` with `f = Σ 3^k (1/3)_k x^(3k) / (3k)!`, `g =
/// Σ 3^k (2/3)_k x^(3k+1) / (3k+1)!` and `c₁ = Ai(0)`, `c₂ = -Ai'(0)` as
/// double words; the terms of a negative `x` reach `e^ζ` times the result.
#[helper(types = [f32, f64])]
fn airy_ai_series<T>(x: T) -> T {
    let c1h: T = if T::BITS == 64 {
        0.355_028_053_887_817_2
    } else {
        0.355_028_06
    };
    let c1l: T = if T::BITS == 64 {
        2.052_336_324_362_12e-17
    } else {
        -9.171_035_5e-9
    };
    let c2h: T = if T::BITS == 64 {
        0.258_819_403_792_806_8
    } else {
        0.258_819_4
    };
    let c2l: T = if T::BITS == 64 {
        -2.522_243_111_610_832e-17
    } else {
        2.528_616_2e-9
    };
    let (x2h, x2l) = two_prod(x, x);
    let (ch, cl) = dd_mul(x2h, x2l, x, 0.0);
    let mut fh: T = 1.0;
    let mut fl: T = 0.0;
    let mut gh: T = x;
    let mut gl: T = 0.0;
    let mut sfh: T = 1.0;
    let mut sfl: T = 0.0;
    let mut sgh: T = x;
    let mut sgl: T = 0.0;
    let mut k: T = 1.0;
    while k < 60.0 {
        (fh, fl) = dd_mul(fh, fl, ch, cl);
        (fh, fl) = dd_div(fh, fl, (3.0 * k - 1.0) * (3.0 * k));
        (gh, gl) = dd_mul(gh, gl, ch, cl);
        (gh, gl) = dd_div(gh, gl, (3.0 * k) * (3.0 * k + 1.0));
        (sfh, sfl) = dd_add(sfh, sfl, fh, fl);
        (sgh, sgl) = dd_add(sgh, sgl, gh, gl);
        let big = fh.abs().max(gh.abs());
        if big <= T::EPSILON * T::EPSILON * sfh.abs().max(sgh.abs()) {
            break;
        }
        k += 1.0;
    }
    let (ah, al) = dd_mul(c1h, c1l, sfh, sfl);
    let (bh, bl) = dd_mul(c2h, c2l, sgh, sgl);
    let (rh, rl) = dd_add(ah, al, -bh, -bl);
    rh + rl
}

/// `Ai(-a)` for large `a`: `(cos(ζ - π/4) P + sin(ζ - π/4) Q) / (√π a^(1/4))`
/// with `P = Σ (-1)^k u_2k ζ^-2k` and `Q = Σ (-1)^k u_(2k+1) ζ^-(2k+1)` (DLMF
/// 9.7.9), `u_k = u_(k-1) (6k - 5)(6k - 3)(6k - 1) / (216 (2k - 1) k)`. The
/// phase is `cos` and `sin` of `ζ`'s two words put together.
#[helper(types = [f32, f64])]
fn airy_ai_oscillating<T>(a: T) -> T {
    let (zh, zl) = airy_zeta(a);
    let mut r: T = 0.0;
    if zh.is_finite() {
        // `mu` negative picks the Airy terms
        let (p, q) = asymptotic_pq(zh, -1.0);
        let (ch, sh) = (zh.cos(), zh.sin());
        let (cl, sl) = (zl.cos(), zl.sin());
        let cz = ch * cl - sh * sl;
        let sz = sh * cl + ch * sl;
        let co = (cz + sz) * T::FRAC_1_SQRT_2;
        let si = (sz - cz) * T::FRAC_1_SQRT_2;
        r = 0.5 * T::FRAC_2_SQRT_PI * (co * p + si * q) / a.sqrt().sqrt();
    }
    r
}

/// `a + b` as a double word, for `|a| >= |b|` (or `a` zero): three
/// operations.
#[helper(types = [f32, f64])]
fn fast_two_sum<T>(a: T, b: T) -> (T, T) {
    let s = a + b;
    (s, b - (s - a))
}

/// The sum of two double words, to about twice the float's precision.
#[helper(types = [f32, f64])]
fn dd_add<T>(ah: T, al: T, bh: T, bl: T) -> (T, T) {
    let s = ah + bh;
    let bb = s - ah;
    let e = (ah - (s - bb)) + (bh - bb) + (al + bl);
    let (s2, e2) = fast_two_sum(s, e);
    (s2, e2)
}

/// The product of two double words, to about twice the float's precision.
#[helper(types = [f32, f64])]
fn dd_mul<T>(ah: T, al: T, bh: T, bl: T) -> (T, T) {
    let (p, e) = two_prod(ah, bh);
    let (s2, e2) = fast_two_sum(p, e + (ah * bl + al * bh));
    (s2, e2)
}

/// A double word divided by a float `m`: the quotient's first word, the
/// remainder exactly by a fused multiply-add, and its second.
#[helper(types = [f32, f64])]
fn dd_div<T>(ah: T, al: T, m: T) -> (T, T) {
    let q1 = ah / m;
    let (p, pe) = two_prod(q1, m);
    let q2 = (((ah - p) - pe) + al) / m;
    let (s2, e2) = fast_two_sum(q1, q2);
    (s2, e2)
}

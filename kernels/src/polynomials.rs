//! The classical orthogonal polynomials of PyTorch's `torch.special`, of an
//! argument `x` and a degree `n` (two tensors, broadcast together, of one
//! float type): Chebyshev's `T`, `U`, `V`, `W` and their shifted forms on
//! `[0, 1]`, Hermite's `H` (physicists') and `He` (probabilists'),
//! Laguerre's `L` and Legendre's `P`.
//!
//! As PyTorch's: the degree is `n` truncated to an integer (`2.7` is 2); a
//! negative one gives 0 and 0 gives 1 (for every `x`, NaN too); the
//! three-term recurrence gives each value in PyTorch's order of operations,
//! and for Chebyshev's polynomials of a degree above 6 (`T`) or 8 (`U`, `V`,
//! `W`) inside `(-1, 1)`, their trigonometric forms (`T_n(cos θ) = cos nθ`).
//! Where PyTorch's give NaN or loop without end, these give:
//!
//! - the limits at `x = ±∞` (`±∞` by the leading coefficient's sign and the
//!   degree's parity), NaN for a NaN or infinite degree;
//! - Chebyshev's polynomials of degrees above 65,536 outside `[-1, 1]` by
//!   their hyperbolic forms (`T_n(cosh φ) = cosh nφ`), in constant time;
//! - the recurrences of the others rescaled by a power of two before a step
//!   could overflow, so that a value beyond the type's range is `±∞` of the
//!   right sign (PyTorch's recurrence reaches `∞ - ∞`); the recurrence of a
//!   degree above `2^24` is not run, and gives NaN (its rounding errors grow
//!   with the degree: 2^24 steps leave `f32` no digit).
//!
//! `f16` computes in `f32` and rounds once.

use silt::{helper, kernel};

/// Chebyshev's polynomial of the first kind, `T_n(x)`
/// (`torch.special.chebyshev_polynomial_t`).
#[kernel(types = [f16, f32, f64])]
pub fn chebyshev_polynomial_t<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        chebyshev_of(x as f32, n as f32, 0) as T
    } else {
        chebyshev_of(x, n, 0)
    }
}

/// Chebyshev's polynomial of the second kind, `U_n(x)`
/// (`torch.special.chebyshev_polynomial_u`).
#[kernel(types = [f16, f32, f64])]
pub fn chebyshev_polynomial_u<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        chebyshev_of(x as f32, n as f32, 1) as T
    } else {
        chebyshev_of(x, n, 1)
    }
}

/// Chebyshev's polynomial of the third kind, `V_n(x)`
/// (`torch.special.chebyshev_polynomial_v`).
#[kernel(types = [f16, f32, f64])]
pub fn chebyshev_polynomial_v<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        chebyshev_of(x as f32, n as f32, 2) as T
    } else {
        chebyshev_of(x, n, 2)
    }
}

/// Chebyshev's polynomial of the fourth kind, `W_n(x)`
/// (`torch.special.chebyshev_polynomial_w`).
#[kernel(types = [f16, f32, f64])]
pub fn chebyshev_polynomial_w<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        chebyshev_of(x as f32, n as f32, 3) as T
    } else {
        chebyshev_of(x, n, 3)
    }
}

/// `T*_n(x) = T_n(2x - 1)`, Chebyshev's polynomial of the first kind on
/// `[0, 1]` (`torch.special.shifted_chebyshev_polynomial_t`; `2x - 1`
/// rounded as PyTorch's `x + x - 1`).
#[kernel(types = [f16, f32, f64])]
pub fn shifted_chebyshev_polynomial_t<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        let y = x as f32;
        chebyshev_of(y + y - 1.0, n as f32, 0) as T
    } else {
        chebyshev_of(x + x - 1.0, n, 0)
    }
}

/// `U*_n(x) = U_n(2x - 1)` (`torch.special.shifted_chebyshev_polynomial_u`).
#[kernel(types = [f16, f32, f64])]
pub fn shifted_chebyshev_polynomial_u<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        let y = x as f32;
        chebyshev_of(y + y - 1.0, n as f32, 1) as T
    } else {
        chebyshev_of(x + x - 1.0, n, 1)
    }
}

/// `V*_n(x) = V_n(2x - 1)` (`torch.special.shifted_chebyshev_polynomial_v`).
#[kernel(types = [f16, f32, f64])]
pub fn shifted_chebyshev_polynomial_v<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        let y = x as f32;
        chebyshev_of(y + y - 1.0, n as f32, 2) as T
    } else {
        chebyshev_of(x + x - 1.0, n, 2)
    }
}

/// `W*_n(x) = W_n(2x - 1)` (`torch.special.shifted_chebyshev_polynomial_w`).
#[kernel(types = [f16, f32, f64])]
pub fn shifted_chebyshev_polynomial_w<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        let y = x as f32;
        chebyshev_of(y + y - 1.0, n as f32, 3) as T
    } else {
        chebyshev_of(x + x - 1.0, n, 3)
    }
}

/// Hermite's (physicists') polynomial `H_n(x)`, `H_(k+1) = 2x H_k - 2k
/// H_(k-1)` (`torch.special.hermite_polynomial_h`).
#[kernel(types = [f16, f32, f64])]
pub fn hermite_polynomial_h<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        classical_of(x as f32, n as f32, 0) as T
    } else {
        classical_of(x, n, 0)
    }
}

/// Hermite's (probabilists') polynomial `He_n(x)`, `He_(k+1) = x He_k - k
/// He_(k-1)` (`torch.special.hermite_polynomial_he`).
#[kernel(types = [f16, f32, f64])]
pub fn hermite_polynomial_he<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        classical_of(x as f32, n as f32, 1) as T
    } else {
        classical_of(x, n, 1)
    }
}

/// Laguerre's polynomial `L_n(x)`, `(k + 1) L_(k+1) = (2k + 1 - x) L_k - k
/// L_(k-1)` (`torch.special.laguerre_polynomial_l`).
#[kernel(types = [f16, f32, f64])]
pub fn laguerre_polynomial_l<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        classical_of(x as f32, n as f32, 2) as T
    } else {
        classical_of(x, n, 2)
    }
}

/// Legendre's polynomial `P_n(x)`, `(k + 1) P_(k+1) = (2k + 1) x P_k - k
/// P_(k-1)` (`torch.special.legendre_polynomial_p`).
#[kernel(types = [f16, f32, f64])]
pub fn legendre_polynomial_p<T>(x: T, n: T) -> T {
    if T::BITS == 16 {
        classical_of(x as f32, n as f32, 3) as T
    } else {
        classical_of(x, n, 3)
    }
}

/// Whether the integer-valued `k` is odd (every float from `2^53`, `2^24`
/// for `f32`, is even).
#[helper(types = [f32, f64])]
fn is_odd<T>(k: T) -> bool {
    (0.5 * k).fract() != 0.0
}

/// Chebyshev's `T` (`kind` 0), `U` (1), `V` (2) or `W` (3) of degree `n`
/// at `y`.
#[helper(types = [f32, f64])]
fn chebyshev_of<T>(y: T, n: T, kind: u32) -> T {
    let k = n.trunc();
    let a = y.abs();
    // (-1)^k
    let sign: T = if is_odd(k) { -1.0 } else { 1.0 };
    let mut r: T = 0.0;
    if n.is_nan() {
        r = n;
    } else if k < 0.0 {
        r = 0.0;
    } else if k == 0.0 {
        r = 1.0;
    } else if y.is_nan() || k == T::INFINITY {
        r = T::NAN;
    } else if a == T::INFINITY {
        // every leading coefficient is positive
        r = if y < 0.0 {
            sign * T::INFINITY
        } else {
            T::INFINITY
        };
    } else if a == 1.0 {
        // `T_k(1) = V_k(1) = 1`, `U_k(1) = k + 1`, `W_k(1) = 2k + 1`, and at -1
        // those of the kind with `V` and `W` swapped, times `(-1)^k`
        let at_one = if kind == 1 {
            k + 1.0
        } else if (kind == 3 && y > 0.0) || (kind == 2 && y < 0.0) {
            2.0 * k + 1.0
        } else {
            1.0
        };
        r = if y < 0.0 { sign * at_one } else { at_one };
    } else if a < 1.0 && k > (if kind == 0 { 6.0 } else { 8.0 }) {
        let t = y.acos();
        if kind == 0 {
            r = (k * t).cos();
        } else if kind == 1 {
            r = ((k + 1.0) * t).sin() / t.sin();
        } else if kind == 2 {
            r = ((k + 0.5) * t).cos() / (0.5 * t).cos();
        } else {
            r = ((k + 0.5) * t).sin() / (0.5 * t).sin();
        }
    } else if a > 1.0 {
        // on `|y|`, where every value is positive: `V_k(-y) = (-1)^k W_k(y)`
        // and `W_k(-y) = (-1)^k V_k(y)`
        let kind_a = if y < 0.0 && kind == 2 {
            3
        } else if y < 0.0 && kind == 3 {
            2
        } else {
            kind
        };
        if k > 65536.0 {
            let f = a.acosh();
            if kind_a == 0 {
                r = (k * f).cosh();
            } else if kind_a == 1 {
                r = ((k + 1.0) * f).sinh() / f.sinh();
            } else if kind_a == 2 {
                r = ((k + 0.5) * f).cosh() / (0.5 * f).cosh();
            } else {
                r = ((k + 0.5) * f).sinh() / (0.5 * f).sinh();
            }
        } else {
            r = chebyshev_recurrence(a, k, kind_a);
        }
        if y < 0.0 {
            r = sign * r;
        }
    } else {
        r = chebyshev_recurrence(y, k, kind);
    }
    r
}

/// `p_(j+1) = 2y p_j - p_(j-1)` from `p_0 = 1` and `p_1` of the kind, to
/// `p_k`, `k >= 1`; where a value overflows (for `y > 1`, where they grow),
/// `+∞`.
#[helper(types = [f32, f64])]
fn chebyshev_recurrence<T>(y: T, k: T, kind: u32) -> T {
    let mut p: T = 1.0;
    let mut q: T = if kind == 0 {
        y
    } else if kind == 1 {
        y + y
    } else if kind == 2 {
        y + y - 1.0
    } else {
        y + y + 1.0
    };
    let mut j: T = 1.0;
    while j < k && q.abs() != T::INFINITY {
        let r = (y + y) * q - p;
        p = q;
        q = r;
        j += 1.0;
    }
    q
}

/// Hermite's `H` (`kind` 0) and `He` (1), Laguerre's `L` (2) or Legendre's
/// `P` (3) of degree `n` at `x`, by their recurrences. Before a step whose
/// products could overflow (each is at most `4 (|x| + 1) (k + 2)` times the
/// larger value), both values are multiplied by `2^-512` (`2^-64` for `f32`),
/// exactly, and the result is multiplied back as often at the end: so a
/// result beyond the range is `±∞` of its sign.
#[helper(types = [f32, f64])]
fn classical_of<T>(x: T, n: T, kind: u32) -> T {
    let k = n.trunc();
    let a = x.abs();
    let sign: T = if is_odd(k) { -1.0 } else { 1.0 };
    let mut r: T = 0.0;
    if n.is_nan() {
        r = n;
    } else if k < 0.0 {
        r = 0.0;
    } else if k == 0.0 {
        r = 1.0;
    } else if x.is_nan() || k == T::INFINITY {
        r = T::NAN;
    } else if kind == 2 && x == 0.0 {
        r = 1.0;
    } else if kind == 3 && a == 1.0 {
        r = if x > 0.0 { 1.0 } else { sign };
    } else if k > 16_777_216.0 {
        r = T::NAN;
    } else if a
        > (if T::BITS == 64 {
            2.681_561_585_988_519_4e154
        } else {
            3.689_348_8e19
        })
        && k >= 2.0
    {
        // beyond `2^(emax/2 + 1)`, the value is beyond the range from degree
        // 2 (and at infinite `x`): the leading term's sign, `(-1)^k / k!` for
        // `L`, positive for the others
        let lead: T = if kind == 2 { sign } else { 1.0 };
        r = if x < 0.0 {
            lead * sign * T::INFINITY
        } else {
            lead * T::INFINITY
        };
    } else {
        let scale: T = if T::BITS == 64 {
            7.458_340_731_200_207e-155
        } else {
            5.421_010_9e-20
        };
        let unscale: T = if T::BITS == 64 {
            1.340_780_792_994_259_7e154
        } else {
            1.844_674_4e19
        };
        let limit = T::MAX / (4.0 * (a + 1.0) * (k + 2.0));
        let mut p: T = 1.0;
        let mut q: T = if kind == 0 {
            x + x
        } else if kind == 1 {
            x
        } else if kind == 2 {
            1.0 - x
        } else {
            x
        };
        let mut scaled: u32 = 0;
        let mut j: T = 1.0;
        while j < k {
            while p.abs().max(q.abs()) > limit {
                p = p * scale;
                q = q * scale;
                scaled += 1;
            }
            let s = if kind == 0 {
                (x + x) * q - (j + j) * p
            } else if kind == 1 {
                x * q - j * p
            } else if kind == 2 {
                ((j + (j + 1.0) - x) * q - j * p) / (j + 1.0)
            } else {
                ((j + j + 1.0) * x * q - j * p) / (j + 1.0)
            };
            p = q;
            q = s;
            j += 1.0;
        }
        while scaled > 0 && q.abs() != T::INFINITY {
            q = q * unscale;
            scaled -= 1;
        }
        r = q;
    }
    r
}

"""Every operation of silt.ops against NumPy on the same inputs, on the host
backend and on an OpenCL device; the list is checked against silt-kernels'
catalog, so an operation added there without a test here fails."""

import math

import numpy as np
import pytest

import silt
from silt import _silt

RNG = np.random.default_rng(7)
# values away from .5 ties, in (-4, 4)
X = (RNG.uniform(-4, 4, (5, 6)) + 0.01).astype(np.float32)
DEG = RNG.integers(0, 13, (5, 6)).astype(np.float32)  # polynomials' degrees
DEG6 = DEG % 7  # Hermite's, whose terms grow as n!
Y = (RNG.uniform(-4, 4, (5, 6)) + 0.01).astype(np.float32)
POS = np.abs(X) + 0.1
UNIT = np.clip(X / 4.5, -0.99, 0.99).astype(np.float32)
I = RNG.integers(-50, 50, (5, 6)).astype(np.int32)
J = RNG.integers(1, 9, (5, 6)).astype(np.int32) * np.where(RNG.random((5, 6)) < 0.5, -1, 1).astype(np.int32)
U = RNG.integers(0, 200, (5, 6)).astype(np.uint32)
SH = RNG.integers(0, 31, (5, 6)).astype(np.uint32)
B = RNG.random((5, 6)) < 0.5
C = RNG.random((5, 6)) < 0.5
ROW = (RNG.uniform(-1, 1, (6,))).astype(np.float32)  # broadcast over rows
# floats with NaNs, both zeros and ties (NumPy sorts NaN last too)
NANS = np.where(RNG.random((5, 6)) < 0.2, np.nan, np.round(X)).astype(np.float32)
IDX = np.array([5, 0, 2, 2], np.int64)  # positions along X's columns
GI = RNG.integers(0, 6, (5, 3)).astype(np.int64)  # gather/scatter positions
TI = np.array([[0, 29], [-1, -30]], np.int64)  # flat positions, negatives too
BC = RNG.integers(0, 9, (40,)).astype(np.int64)  # bincount's input

SQ = X[:, :5]  # a square matrix (5 x 5) for the factorisations


def lu_ref(a):
    """LU with partial pivoting in float64 (the first largest |value| the
    pivot): `(LU, pivots)`, the pivots 1-based int32, as LAPACK's."""
    a = a.astype(np.float64).copy()
    m, n = a.shape
    piv = np.zeros(min(m, n), np.int32)
    for k in range(min(m, n)):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        piv[k] = p + 1
        a[[k, p]] = a[[p, k]]
        if a[k, k] != 0:
            a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, piv


SYM = (SQ + SQ.T) / 2  # symmetric, for eigh
SPD = (SQ @ SQ.T + 5 * np.eye(5)).astype(np.float32)  # positive-definite, for cholesky_ex

LU_SQ, PIV_SQ = (v.astype(t) for v, t in zip(lu_ref(SQ), (np.float32, np.int32)))

erf = np.vectorize(math.erf, otypes=[np.float64])
lgamma = np.vectorize(math.lgamma, otypes=[np.float64])


def digamma(x):
    """`lgamma`'s derivative by a central difference (an error of about
    1e-10, far from the poles)."""
    x, h = f64(x), 1e-5
    return (lgamma(x + h) - lgamma(x - h)) / (2 * h)


def zeta(x, q):
    """Hurwitz's zeta: 2000 terms, then the integral and two corrections of
    the tail (an error of about 2000^-(x+3))."""
    x, q = np.broadcast_arrays(f64(x), f64(q))
    k = np.arange(2000.0)
    s = ((q[..., None] + k) ** -x[..., None]).sum(-1)
    w = q + 2000
    return s + w ** (1 - x) / (x - 1) + w ** -x / 2 + x * w ** (-x - 1) / 12


@np.vectorize
def erfinv(y):
    """`math.erf` inverted by bisection."""
    lo, hi = -6.0, 6.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erf(mid) < y else (lo, mid)
    return (lo + hi) / 2


erfc = np.vectorize(math.erfc, otypes=[np.float64])


def ndtr(x):
    return 0.5 * erfc(-f64(x) / math.sqrt(2))


@np.vectorize
def ndtri(p):
    """`ndtr` inverted by bisection."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ndtr(mid) < p else (lo, mid)
    return (lo + hi) / 2


@np.vectorize
def i1(x):
    """The power series of I₁ (all terms positive), to 60 terms."""
    t = s = x / 2
    for k in range(1, 60):
        t *= x * x / 4 / (k * (k + 1))
        s += t
    return s


@np.vectorize
def gammainc(a, x):
    """The power series of P(a, x) (every term positive), to 400 terms."""
    t = s = 1.0
    for n in range(1, 400):
        t *= x / (a + n)
        s += t
    return s * math.exp(a * math.log(x) - x - math.lgamma(a + 1))


def _trapezoid(f, lo, hi, n):
    """The trapezoidal rule over ``n`` steps of a function of a grid
    ``t`` (the last axis) and the inputs (broadcast before it)."""
    t = np.linspace(lo, hi, n + 1)
    v = f(t)
    return (v.sum(-1) - (v[..., 0] + v[..., -1]) / 2) * (hi - lo) / n


def bessel_j(n, x):
    """Bessel's integral ``(1/π) ∫₀^π cos(nτ - x sin τ) dτ``: the
    trapezoidal rule is exact to rounding for it (a periodic integrand)."""
    x = f64(x)[..., None]
    return _trapezoid(lambda t: np.cos(n * t - x * np.sin(t)), 0, np.pi, 400) / np.pi


def bessel_y(n, x):
    """``(1/π) ∫₀^π sin(x sin τ - nτ) dτ - (1/π) ∫₀^∞ (e^(nt) + (-1)^n
    e^(-nt)) e^(-x sinh t) dt`` for ``x > 0`` (DLMF 10.9.7)."""
    x = f64(x)[..., None]
    # not periodic: the rule's error is about h² here
    a = _trapezoid(lambda t: np.sin(x * np.sin(t) - n * t), 0, np.pi, 40000)
    b = _trapezoid(lambda t: (np.exp(n * t) + (-1) ** n * np.exp(-n * t)) * np.exp(-x * np.sinh(t)), 0, 12, 120000)
    return (a - b) / np.pi


def bessel_k(n, x):
    """``∫₀^∞ e^(-x cosh t) cosh(nt) dt`` (DLMF 10.32.9)."""
    x = f64(x)[..., None]
    return _trapezoid(lambda t: np.exp(-x * np.cosh(t)) * np.cosh(n * t), 0, 12, 12000)


@np.vectorize
def airy_ai(x):
    """The Maclaurin series of ``Ai`` in float64, to 80 terms (its terms
    cancel to about 1e-14 within ``|x| < 4``)."""
    c1, c2 = 0.3550280538878172, 0.2588194037928068
    f, g, sf, sg = 1.0, x, 1.0, x
    for k in range(1, 80):
        f *= x ** 3 / ((3 * k - 1) * 3 * k)
        g *= x ** 3 / (3 * k * (3 * k + 1))
        sf, sg = sf + f, sg + g
    return c1 * sf - c2 * sg


def polynomial(kind, x, n):
    """The three-term recurrence of an orthogonal polynomial in float64, to
    each element's degree ``n`` (whole, non-negative)."""
    x, n = np.broadcast_arrays(f64(x), f64(n).astype(np.int64))
    first = {"t": x, "u": 2 * x, "v": 2 * x - 1, "w": 2 * x + 1, "h": 2 * x, "he": x, "l": 1 - x, "p": x}
    p, q = np.ones_like(x), first[kind]
    out = np.where(n == 0, p, q)
    for j in range(1, int(n.max(initial=1))):
        r = {
            "h": 2 * x * q - 2 * j * p,
            "he": x * q - j * p,
            "l": ((2 * j + 1 - x) * q - j * p) / (j + 1),
            "p": ((2 * j + 1) * x * q - j * p) / (j + 1),
        }.get(kind, 2 * x * q - p)
        p, q = q, r
        out = np.where(n == j + 1, q, out)
    return out


def f64(a):
    return np.asarray(a, dtype=np.float64)


def sigmoid(x):
    return 1 / (1 + np.exp(-f64(x)))


def gelu(x):
    x = f64(x)
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def softplus(x):
    x = f64(x)
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


def scatter_amax_ref(x, gi, src):
    """`scatter_reduce(1, gi, src, "amax", include_self=False)`."""
    out = f64(x).copy()
    rows = np.arange(gi.shape[0])[:, None].repeat(gi.shape[1], 1)
    out[rows, gi] = -np.inf
    np.maximum.at(out, (rows, gi), f64(src)[: gi.shape[0], : gi.shape[1]])
    return out


def scatter_add_ref(x, gi, src):
    out = f64(x).copy()
    rows = np.arange(gi.shape[0])[:, None].repeat(gi.shape[1], 1)
    np.add.at(out, (rows, gi), f64(src)[: gi.shape[0], : gi.shape[1]])
    return out


def trunc_div(a, b):
    with np.errstate(all="ignore"):
        q = np.trunc(a.astype(np.float64) / np.where(b == 0, 1, b))
    return np.where(b == 0, 0, q).astype(a.dtype)


def cum_arg(x, better):
    vals = np.empty_like(x)
    idx = np.empty(x.shape, np.int64)
    for r in range(x.shape[0]):
        best, at = x[r, 0], 0
        for c in range(x.shape[1]):
            if better(x[r, c], best):
                best, at = x[r, c], c
            vals[r, c], idx[r, c] = best, at
    return vals, idx


SELU_A, SELU_S = 1.6732632423543772, 1.0507009873554805

# name: (call(ops, *inputs), inputs, reference(*inputs))
CASES = {
    "neg": (lambda o, x: o.neg(x), [X], lambda x: -x),
    "abs": (lambda o, x: o.abs(x), [I], np.abs),
    "sign": (lambda o, x: o.sign(x), [X], np.sign),
    "square": (lambda o, x: o.square(x), [I], np.square),
    "reciprocal": (lambda o, x: o.reciprocal(x), [X], lambda x: 1 / f64(x)),
    "sqrt": (lambda o, x: o.sqrt(x), [POS], lambda x: np.sqrt(f64(x))),
    "rsqrt": (lambda o, x: o.rsqrt(x), [POS], lambda x: 1 / np.sqrt(f64(x))),
    "exp": (lambda o, x: o.exp(x), [X], lambda x: np.exp(f64(x))),
    "exp2": (lambda o, x: o.exp2(x), [X], lambda x: np.exp2(f64(x))),
    "expm1": (lambda o, x: o.expm1(x), [X], lambda x: np.expm1(f64(x))),
    "log": (lambda o, x: o.log(x), [POS], lambda x: np.log(f64(x))),
    "log2": (lambda o, x: o.log2(x), [POS], lambda x: np.log2(f64(x))),
    "log10": (lambda o, x: o.log10(x), [POS], lambda x: np.log10(f64(x))),
    "log1p": (lambda o, x: o.log1p(x), [POS], lambda x: np.log1p(f64(x))),
    "sin": (lambda o, x: o.sin(x), [X], lambda x: np.sin(f64(x))),
    "cos": (lambda o, x: o.cos(x), [X], lambda x: np.cos(f64(x))),
    "tan": (lambda o, x: o.tan(x), [UNIT], lambda x: np.tan(f64(x))),
    "asin": (lambda o, x: o.asin(x), [UNIT], lambda x: np.arcsin(f64(x))),
    "acos": (lambda o, x: o.acos(x), [UNIT], lambda x: np.arccos(f64(x))),
    "atan": (lambda o, x: o.atan(x), [X], lambda x: np.arctan(f64(x))),
    "sinh": (lambda o, x: o.sinh(x), [X], lambda x: np.sinh(f64(x))),
    "cosh": (lambda o, x: o.cosh(x), [X], lambda x: np.cosh(f64(x))),
    "tanh": (lambda o, x: o.tanh(x), [X], lambda x: np.tanh(f64(x))),
    "asinh": (lambda o, x: o.asinh(x), [X], lambda x: np.arcsinh(f64(x))),
    "acosh": (lambda o, x: o.acosh(x), [POS + 1], lambda x: np.arccosh(f64(x))),
    "atanh": (lambda o, x: o.atanh(x), [UNIT], lambda x: np.arctanh(f64(x))),
    "erf": (lambda o, x: o.erf(x), [X], erf),
    "erfc": (lambda o, x: o.erfc(x), [X], lambda x: 1 - erf(x)),
    "lgamma": (lambda o, x: o.lgamma(x), [X], lgamma),
    "digamma": (lambda o, x: o.digamma(x), [X], digamma),
    "erfinv": (lambda o, x: o.erfinv(x), [UNIT], lambda y: erfinv(f64(y))),
    "erfcx": (lambda o, x: o.erfcx(x), [X], lambda x: np.exp(f64(x) ** 2) * erfc(f64(x))),
    "log_ndtr": (lambda o, x: o.log_ndtr(x), [X], lambda x: np.log(ndtr(x))),
    "ndtri": (lambda o, x: o.ndtri(x), [(UNIT + 1) / 2], lambda p: ndtri(f64(p))),
    "i0": (lambda o, x: o.i0(x), [X], lambda x: np.i0(f64(x))),
    "i0e": (lambda o, x: o.i0e(x), [X], lambda x: np.i0(f64(x)) * np.exp(-np.abs(f64(x)))),
    "i1": (lambda o, x: o.i1(x), [X], lambda x: i1(f64(x))),
    "i1e": (lambda o, x: o.i1e(x), [X], lambda x: i1(f64(x)) * np.exp(-np.abs(f64(x)))),
    "zeta": (lambda o, x, q: o.zeta(x, q), [POS + 1.5, POS], zeta),
    "bessel_j0": (lambda o, x: o.bessel_j0(x), [X], lambda x: bessel_j(0, x)),
    "bessel_j1": (lambda o, x: o.bessel_j1(x), [X], lambda x: bessel_j(1, x)),
    "bessel_y0": (lambda o, x: o.bessel_y0(x), [POS], lambda x: bessel_y(0, x)),
    "bessel_y1": (lambda o, x: o.bessel_y1(x), [POS], lambda x: bessel_y(1, x)),
    "modified_bessel_k0": (lambda o, x: o.modified_bessel_k0(x), [POS], lambda x: bessel_k(0, x)),
    "modified_bessel_k1": (lambda o, x: o.modified_bessel_k1(x), [POS], lambda x: bessel_k(1, x)),
    "scaled_modified_bessel_k0": (lambda o, x: o.scaled_modified_bessel_k0(x), [POS],
                                  lambda x: bessel_k(0, x) * np.exp(f64(x))),
    "scaled_modified_bessel_k1": (lambda o, x: o.scaled_modified_bessel_k1(x), [POS],
                                  lambda x: bessel_k(1, x) * np.exp(f64(x))),
    "airy_ai": (lambda o, x: o.airy_ai(x), [X], airy_ai),
    "chebyshev_polynomial_t": (lambda o, x, n: o.chebyshev_polynomial_t(x, n), [UNIT, DEG],
        lambda x, n: polynomial("t", x, n)),
    "chebyshev_polynomial_u": (lambda o, x, n: o.chebyshev_polynomial_u(x, n), [UNIT, DEG],
        lambda x, n: polynomial("u", x, n)),
    "chebyshev_polynomial_v": (lambda o, x, n: o.chebyshev_polynomial_v(x, n), [UNIT, DEG],
        lambda x, n: polynomial("v", x, n)),
    "chebyshev_polynomial_w": (lambda o, x, n: o.chebyshev_polynomial_w(x, n), [UNIT, DEG],
        lambda x, n: polynomial("w", x, n)),
    "shifted_chebyshev_polynomial_t": (lambda o, x, n: o.shifted_chebyshev_polynomial_t(x, n), [(UNIT + 1) / 2, DEG],
        lambda x, n: polynomial("t", 2 * f64(x) - 1, n)),
    "shifted_chebyshev_polynomial_u": (lambda o, x, n: o.shifted_chebyshev_polynomial_u(x, n), [(UNIT + 1) / 2, DEG],
        lambda x, n: polynomial("u", 2 * f64(x) - 1, n)),
    "shifted_chebyshev_polynomial_v": (lambda o, x, n: o.shifted_chebyshev_polynomial_v(x, n), [(UNIT + 1) / 2, DEG],
        lambda x, n: polynomial("v", 2 * f64(x) - 1, n)),
    "shifted_chebyshev_polynomial_w": (lambda o, x, n: o.shifted_chebyshev_polynomial_w(x, n), [(UNIT + 1) / 2, DEG],
        lambda x, n: polynomial("w", 2 * f64(x) - 1, n)),
    "hermite_polynomial_h": (lambda o, x, n: o.hermite_polynomial_h(x, n), [X / 4, DEG6],
        lambda x, n: polynomial("h", x, n)),
    "hermite_polynomial_he": (lambda o, x, n: o.hermite_polynomial_he(x, n), [X / 4, DEG6],
        lambda x, n: polynomial("he", x, n)),
    "laguerre_polynomial_l": (lambda o, x, n: o.laguerre_polynomial_l(x, n), [X / 4, DEG],
        lambda x, n: polynomial("l", x, n)),
    "legendre_polynomial_p": (lambda o, x, n: o.legendre_polynomial_p(x, n), [UNIT, DEG],
        lambda x, n: polynomial("p", x, n)),
    "gammainc": (lambda o, a, x: o.gammainc(a, x), [POS, POS + 0.5], lambda a, x: gammainc(f64(a), f64(x))),
    "gammaincc": (lambda o, a, x: o.gammaincc(a, x), [POS, POS + 0.5],
                  lambda a, x: 1 - gammainc(f64(a), f64(x))),
    "gcd": (lambda o, a, b: o.gcd(a, b), [I, J], np.gcd),
    "lcm": (lambda o, a, b: o.lcm(a, b), [I, J], np.lcm),
    "floor": (lambda o, x: o.floor(x), [X], np.floor),
    "ceil": (lambda o, x: o.ceil(x), [X], np.ceil),
    "round": (lambda o, x: o.round(x), [X], np.round),
    "trunc": (lambda o, x: o.trunc(x), [X], np.trunc),
    "frac": (lambda o, x: o.frac(x), [X], lambda x: f64(x) - np.trunc(f64(x))),
    "add": (lambda o, a, b: o.add(a, b), [X, ROW], lambda a, b: f64(a) + b),
    "sub": (lambda o, a, b: o.sub(a, b), [I, J], np.subtract),
    "mul": (lambda o, a, b: o.mul(a, b), [X, Y], lambda a, b: f64(a) * b),
    "div": (lambda o, a, b: o.div(a, b), [I, J], trunc_div),
    "rem": (lambda o, a, b: o.rem(a, b), [I, J], np.fmod),
    "minimum": (lambda o, a, b: o.minimum(a, b), [X, Y], np.minimum),
    "maximum": (lambda o, a, b: o.maximum(a, b), [U, U[::-1].copy()], np.maximum),
    "fmin": (lambda o, a, b: o.fmin(a, b), [X, Y], np.fmin),
    "fmax": (lambda o, a, b: o.fmax(a, b), [X, Y], np.fmax),
    "pow": (lambda o, a, b: o.pow(a, exponent=b), [POS, Y], lambda a, b: f64(a) ** f64(b)),
    "atan2": (lambda o, a, b: o.atan2(a, b), [X, Y], lambda a, b: np.arctan2(f64(a), b)),
    "hypot": (lambda o, a, b: o.hypot(a, b), [X, Y], lambda a, b: np.hypot(f64(a), b)),
    "copysign": (lambda o, a, b: o.copysign(a, b), [X, Y], np.copysign),
    "eq": (lambda o, a, b: o.eq(a, b), [I, I % 3], np.equal),
    "ne": (lambda o, a, b: o.ne(a, b), [I, I % 3], np.not_equal),
    "lt": (lambda o, a, b: o.lt(a, b), [X, Y], np.less),
    "le": (lambda o, a, b: o.le(a, b), [X, X.round()], np.less_equal),
    "gt": (lambda o, a, b: o.gt(a, b), [X, 0.5], lambda a, b: a > b),
    "ge": (lambda o, a, b: o.ge(a, b), [U, 100], lambda a, b: a >= b),
    "isnan": (lambda o, x: o.isnan(x), [np.array([np.nan, 1, np.inf], np.float32)], np.isnan),
    "isinf": (lambda o, x: o.isinf(x), [np.array([np.nan, 1, -np.inf], np.float32)], np.isinf),
    "isfinite": (lambda o, x: o.isfinite(x), [np.array([np.nan, 1, np.inf], np.float32)], np.isfinite),
    "logical_and": (lambda o, a, b: o.logical_and(a, b), [B, C], np.logical_and),
    "logical_or": (lambda o, a, b: o.logical_or(a, b), [B, C], np.logical_or),
    "logical_xor": (lambda o, a, b: o.logical_xor(a, b), [B, C], np.logical_xor),
    "logical_not": (lambda o, a: o.logical_not(a), [B], np.logical_not),
    "bitwise_and": (lambda o, a, b: o.bitwise_and(a, b), [I, J], np.bitwise_and),
    "bitwise_or": (lambda o, a, b: o.bitwise_or(a, b), [I, J], np.bitwise_or),
    "bitwise_xor": (lambda o, a, b: o.bitwise_xor(a, b), [I, J], np.bitwise_xor),
    "bitwise_not": (lambda o, a: o.bitwise_not(a), [I], np.invert),
    "shl": (lambda o, a, b: o.shl(a, b), [U, SH], np.left_shift),
    "shr": (lambda o, a, b: o.shr(a, b), [U, SH], np.right_shift),
    "where_": (lambda o, c, a, b: o.where_(c, a, b), [B, X, Y], np.where),
    "clamp": (lambda o, x: o.clamp(x, -1.5, 2), [X], lambda x: np.clip(x, -1.5, 2)),
    "lerp": (lambda o, a, b: o.lerp(a, b, 0.25), [X, Y], lambda a, b: f64(a) + 0.25 * (f64(b) - a)),
    "addcmul": (lambda o, a, b, c: o.addcmul(a, b, c, value=3), [I, J, I], lambda a, b, c: a + 3 * b * c),
    "relu": (lambda o, x: o.relu(x), [X], lambda x: np.maximum(x, 0)),
    "relu6": (lambda o, x: o.relu6(x), [X * 3], lambda x: np.clip(x, 0, 6)),
    "leaky_relu": (lambda o, x: o.leaky_relu(x, 0.1), [X], lambda x: np.where(x > 0, x, 0.1 * f64(x))),
    "elu": (lambda o, x: o.elu(x), [X], lambda x: np.where(x > 0, x, np.expm1(f64(x)))),
    "selu": (lambda o, x: o.selu(x), [X], lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(f64(x)))),
    "gelu": (lambda o, x: o.gelu(x), [X], gelu),
    "gelu_tanh": (
        lambda o, x: o.gelu_tanh(x), [X],
        lambda x: 0.5 * f64(x) * (1 + np.tanh(math.sqrt(2 / math.pi) * (f64(x) + 0.044715 * f64(x) ** 3))),
    ),
    "sigmoid": (lambda o, x: o.sigmoid(x), [X], sigmoid),
    "silu": (lambda o, x: o.silu(x), [X], lambda x: f64(x) * sigmoid(x)),
    "softplus": (lambda o, x: o.softplus(x), [X], softplus),
    "softsign": (lambda o, x: o.softsign(x), [X], lambda x: f64(x) / (1 + np.abs(x))),
    "mish": (lambda o, x: o.mish(x), [X], lambda x: f64(x) * np.tanh(softplus(x))),
    "hardtanh": (lambda o, x: o.hardtanh(x), [X], lambda x: np.clip(x, -1, 1)),
    "hardsigmoid": (lambda o, x: o.hardsigmoid(x), [X], lambda x: np.clip(f64(x) + 3, 0, 6) / 6),
    "hardswish": (lambda o, x: o.hardswish(x), [X], lambda x: f64(x) * np.clip(f64(x) + 3, 0, 6) / 6),
    "logsigmoid": (lambda o, x: o.logsigmoid(x), [X], lambda x: -softplus(-f64(x))),
    "to_f16": (lambda o, x: o.to_f16(x), [X], lambda x: x.astype(np.float16)),
    "to_f32": (lambda o, x: o.to_f32(x), [I], lambda x: x.astype(np.float32)),
    "to_f64": (lambda o, x: o.to_f64(x), [X], lambda x: x.astype(np.float64)),
    "to_i32": (lambda o, x: o.to_i32(x), [X], lambda x: np.trunc(x).astype(np.int32)),
    "to_i64": (lambda o, x: o.to_i64(x), [U], lambda x: x.astype(np.int64)),
    "to_u8": (lambda o, x: o.to_u8(x), [U], lambda x: x.astype(np.uint8)),
    "to_bool": (lambda o, x: o.to_bool(x), [I], lambda x: x != 0),
    "sum": (lambda o, x: o.sum(x, dim=1), [X], lambda x: f64(x).sum(1)),
    "prod": (lambda o, x: o.prod(x, 0, keepdim=True), [J], lambda x: x.astype(np.int64).prod(0, keepdims=True)),
    "mean": (lambda o, x: o.mean(x), [X], lambda x: f64(x).mean()),
    "var": (lambda o, x: o.var(x, dim=(0, 1), correction=0), [X], lambda x: f64(x).var()),
    "std": (lambda o, x: o.std(x, -1), [X], lambda x: f64(x).std(-1, ddof=1)),
    "amin": (lambda o, x: o.amin(x, 0), [I], lambda x: x.min(0)),
    "amax": (lambda o, x: o.amax(x, dim=[0, 1]), [X], lambda x: x.max()),
    "argmin": (lambda o, x: o.argmin(x, 1), [X], lambda x: x.argmin(1)),
    "argmax": (lambda o, x: o.argmax(x), [X], lambda x: x.argmax()),
    "all": (lambda o, x: o.all(x, 1), [I % 7], lambda x: x.all(1)),
    "any": (lambda o, x: o.any(x, 0), [B], lambda x: x.any(0)),
    "count_nonzero": (lambda o, x: o.count_nonzero(x, 1), [I % 3], lambda x: np.count_nonzero(x, 1)),
    "norm": (lambda o, x: o.norm(x, 2, 1), [X], lambda x: np.linalg.norm(f64(x), 2, 1)),
    "logsumexp": (lambda o, x: o.logsumexp(x, 1), [X], lambda x: np.log(np.exp(f64(x)).sum(1))),
    "softmax": (lambda o, x: o.softmax(x, 1), [X], lambda x: np.exp(f64(x)) / np.exp(f64(x)).sum(1, keepdims=True)),
    "log_softmax": (
        lambda o, x: o.log_softmax(x, -1), [X],
        lambda x: f64(x) - np.log(np.exp(f64(x)).sum(1, keepdims=True)),
    ),
    "cumsum": (lambda o, x: o.cumsum(x, 1), [I], lambda x: x.astype(np.int64).cumsum(1)),
    "logcumsumexp": (lambda o, x: o.logcumsumexp(x, 1), [X], lambda x: np.logaddexp.accumulate(f64(x), 1)),
    "cumprod": (lambda o, x: o.cumprod(x, 0), [X], lambda x: f64(x).cumprod(0)),
    "cummax": (lambda o, x: o.cummax(x, 1), [X], lambda x: cum_arg(x, lambda a, b: a >= b)),
    "cummin": (lambda o, x: o.cummin(x, 1), [I], lambda x: cum_arg(x, lambda a, b: a <= b)),
    "matmul": (lambda o, x, y: o.matmul(x, y), [X, Y.T.copy()], lambda x, y: f64(x) @ f64(y)),
    "layer_norm": (lambda o, x, w: o.layer_norm(x, [6], w, w, 1e-5), [X, ROW],
                   lambda x, w: (f64(x) - f64(x).mean(1, keepdims=True))
                   / np.sqrt(f64(x).var(1, keepdims=True) + 1e-5) * w + w),
    "rms_norm": (lambda o, x: o.rms_norm(x, [5, 6]), [X],
                 lambda x: f64(x) / np.sqrt((f64(x) ** 2).mean() + np.finfo(np.float32).eps)),
    "sort": (
        lambda o, x: o.sort(x, 0, descending=True), [I % 5],
        lambda x: (-np.sort(-x, 0, kind="stable"), np.argsort(-x, 0, kind="stable")),
    ),
    "argsort": (lambda o, x: o.argsort(x), [NANS], lambda x: np.argsort(x, -1, kind="stable")),
    "topk": (
        lambda o, x: o.topk(x, 3, largest=False), [I % 4],
        lambda x: (np.sort(x, -1, kind="stable")[:, :3], np.argsort(x, -1, kind="stable")[:, :3]),
    ),
    "searchsorted": (
        lambda o, s, x: o.searchsorted(s, x, right=True), [np.sort(ROW), X],
        lambda s, x: np.searchsorted(s, x, side="right"),
    ),
    "index_select": (lambda o, x, i: o.index_select(x, 1, i), [X, IDX], lambda x, i: np.take(x, i, axis=1)),
    "gather": (lambda o, x, i: o.gather(x, 1, i), [X, GI], lambda x, i: np.take_along_axis(x, i, axis=1)),
    "scatter_add": (lambda o, x, i, y: o.scatter_add(x, 1, i, y), [X, GI, Y], scatter_add_ref),
    "scatter_reduce": (
        lambda o, x, i, y: o.scatter_reduce(x, 1, i, y, "amax", include_self=False), [X, GI, Y],
        lambda x, i, y: scatter_amax_ref(x, i, y),
    ),
    "take": (lambda o, x, i: o.take(x, i), [X, TI], lambda x, i: np.take(x, i)),
    "bincount": (lambda o, x: o.bincount(x), [BC], np.bincount),
    "histc": (
        lambda o, x: o.histc(x, 7), [X],
        lambda x: np.histogram(f64(x), 7, range=(float(x.min()), float(x.max())))[0],
    ),
    "lu_factor": (lambda o, a: o.lu_factor(a), [X], lu_ref),
    "cholesky_ex": (
        lambda o, a: o.cholesky_ex(a), [SPD],
        lambda a: (np.linalg.cholesky(f64(a)), np.zeros((), np.int32)),
    ),
    "solve_triangular": (
        lambda o, a, b: o.solve_triangular(a, b, True), [np.triu(SQ) + 5 * np.eye(5, dtype=np.float32), Y[:, :2].copy()],
        lambda a, b: np.linalg.solve(f64(a), f64(b)),
    ),
    # LAPACK's conventions: R and Q as NumPy's (LAPACK) give them
    "geqrf": (lambda o, a: o.geqrf(a)[0].triu(), [X], lambda a: np.linalg.qr(f64(a), mode="r")),
    "householder_product": (
        lambda o, a: o.householder_product(*o.geqrf(a)), [X[:, :4].copy()],
        lambda a: np.linalg.qr(f64(a))[0],
    ),
    # the singular values, and |U|, |Vh| (their signs are free)
    "svd": (
        lambda o, a: tuple(v.abs() for v in o.svd(a)), [X],
        lambda a: tuple(np.abs(v) for v in np.linalg.svd(f64(a), full_matrices=False)),
    ),
    # the eigenvalues, and |eigenvectors| (their signs are free)
    "eigh": (
        lambda o, a: (o.eigh(a)[0], o.eigh(a)[1].abs()), [SYM],
        lambda a: (np.linalg.eigvalsh(f64(a)), np.abs(np.linalg.eigh(f64(a))[1])),
    ),
    # LD's D and L through their product: ldl_solve of the identity is A's inverse
    "ldl_factor": (
        lambda o, a, i: o.ldl_solve(*o.ldl_factor(a)[:2], i), [SYM, np.eye(5, dtype=np.float32)],
        lambda a, i: np.linalg.inv(f64(a)),
    ),
    "ldl_solve": (
        lambda o, a, b: o.ldl_solve(*o.ldl_factor(a)[:2], b), [SYM, Y[:, :2].copy()],
        lambda a, b: np.linalg.solve(f64(a), f64(b)),
    ),
    "lu_solve": (
        lambda o, lu, p, b: o.lu_solve(lu, p, b), [LU_SQ, PIV_SQ, Y[:, :2].copy()],
        lambda lu, p, b: np.linalg.solve(SQ.astype(np.float64), b.astype(np.float64)),
    ),
    # the module's own operations (not in silt-kernels' catalog)
    "floor_divide": (lambda o, a, b: o.floor_divide(a, b), [I, J], np.floor_divide),
    "remainder": (lambda o, a, b: o.remainder(a, b), [X, Y], np.remainder),
}
# silt.ops' operations beyond silt-kernels' catalog
OWN = {"floor_divide", "remainder"}

# the in-place operations: (call(ops, out, *inputs), out, inputs, reference)
IN_PLACE = {
    "set": (lambda o, out: o.set(2.5, out), X, [], lambda out: np.full_like(out, 2.5)),
    "copy": (lambda o, out, x: o.copy(x, out), X, [ROW], lambda out, x: np.broadcast_to(x, out.shape)),
    "axpy": (lambda o, out, x: o.axpy(0.5, x, out), X, [Y], lambda out, x: out + 0.5 * x),
    "scale_": (lambda o, out: o.scale_(-2.0, out), X, [], lambda out: out * -2),
    "add_": (lambda o, out, y: o.add_(out, y), X, [ROW], lambda out, y: out + y),
}


def test_every_operation_is_bound_and_tested():
    names = set(_silt._catalog()) | OWN
    assert names == set(silt.ops.__all__) - {"where"}
    assert names == set(CASES) | set(IN_PLACE)


def check(got, want, name):
    want = np.asarray(want)
    got = got.numpy() if isinstance(got, silt.Tensor) else np.asarray(got)
    assert got.shape == want.shape, name
    if got.dtype.kind == "f":
        tol = 2e-3 if got.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol, err_msg=name)
    else:
        np.testing.assert_array_equal(got, want.astype(got.dtype), err_msg=name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_operation_matches_numpy(device, name):
    call, inputs, ref = CASES[name]
    args = [silt.tensor(a, device=device) if isinstance(a, np.ndarray) else a for a in inputs]
    got = call(silt.ops, *args)
    want = ref(*inputs)
    if isinstance(got, tuple):
        for g, w in zip(got, want):
            check(g, w, name)
    else:
        assert got.device == device
        check(got, want, name)


@pytest.mark.parametrize("name", sorted(IN_PLACE))
def test_in_place_operation_matches_numpy(device, name):
    call, out, inputs, ref = IN_PLACE[name]
    t = silt.tensor(out.copy(), device=device)
    args = [silt.tensor(a, device=device) for a in inputs]
    assert call(silt.ops, t, *args) is t
    check(t, ref(out, *inputs), name)


def test_numpy_arrays_and_numbers_as_arguments(host):
    # arrays go to the device of the call's first silt.Tensor
    t = silt.tensor(X, device=host)
    check(silt.ops.add(t, Y), X + Y, "array")
    check(silt.ops.mul(2, t), 2 * X, "number first")
    check(silt.ops.sub(I, 1), I - 1, "array and number")
    check(silt.ops.where(B, X, 0.0), np.where(B, X, 0), "where alias")
    assert silt.ops.where is silt.ops.where_


def test_in_place_on_numpy_array(host, monkeypatch):
    monkeypatch.setenv("SILT_DEVICE", "host")
    a = X.copy()
    assert silt.ops.scale_(2.0, a) is a
    np.testing.assert_array_equal(a, X * 2)


def test_float16(device):
    h = X.astype(np.float16)
    check(silt.ops.add(silt.tensor(h, device=device), h), h + h, "f16 add")
    s = silt.ops.sum(silt.tensor(h, device=device))
    assert s.dtype == np.float16
    np.testing.assert_allclose(float(s.item()), float(h.astype(np.float64).sum()), rtol=2e-3)


def test_in_place_with_the_same_array_twice(host, monkeypatch):
    monkeypatch.setenv("SILT_DEVICE", "host")
    a = X.copy()
    assert silt.ops.add_(a, a) is a  # one storage, not two over the same memory
    np.testing.assert_array_equal(a, X * 2)
    silt.ops.axpy(1.0, a, a)
    np.testing.assert_array_equal(a, X * 4)
    t = silt.tensor(X.copy(), device=host)
    silt.ops.add_(t, X)  # an array beside a tensor goes to its device
    check(t, 2 * X, "array beside")


# floor division and remainder on every dtype they take, signs and zeros
# included: Python's rules (NumPy's floor_divide and remainder), silt's 0 for
# an integer divisor of 0
FLOOR_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", FLOOR_DTYPES)
def test_floor_divide_and_remainder_follow_python(device, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = np.array([-7.5, 7.5, -7.5, 7.5, 0.0, -0.0, 6.0, -6.0, 1e-3, 5.0, 3.25], dt)
        b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, -3.0, 3.0, -1.0, 0.0, 0.5], dt)
    elif dt.kind == "u":
        a = np.array([7, 0, 255, 9, 5], dt)
        b = np.array([2, 3, 16, 9, 0], dt)
    else:
        a = np.array([-7, 7, -7, 7, 0, 6, -6, 5, np.iinfo(dt).min], dt)
        b = np.array([2, 2, -2, -2, 3, -3, 3, 0, -1], dt)
    ta, tb = silt.tensor(a, device=device), silt.tensor(b, device=device)
    with np.errstate(all="ignore"):
        want_q, want_r = np.floor_divide(a, b), np.remainder(a, b)
    got_q, got_r = silt.ops.floor_divide(ta, tb).numpy(), silt.ops.remainder(ta, tb).numpy()
    assert got_q.dtype == dt and got_r.dtype == dt
    np.testing.assert_array_equal(got_q, want_q)
    np.testing.assert_array_equal(got_r, want_r)
    if dt.kind == "f":  # zeros keep NumPy's signs
        np.testing.assert_array_equal(np.signbit(got_q), np.signbit(want_q))
        np.testing.assert_array_equal(np.signbit(got_r[~np.isnan(want_r)]), np.signbit(want_r[~np.isnan(want_r)]))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64"])
def test_pow_on_integers(device, dtype):
    dt = np.dtype(dtype)
    a = np.array([2, 3, 0, 1, 7, 2], dt)
    b = np.array([10, 3, 0, 5, 2, 70], dt)  # 2**70 wraps, as NumPy's
    got = silt.ops.pow(silt.tensor(a, device=device), silt.tensor(b, device=device))
    assert got.dtype == dt
    np.testing.assert_array_equal(got.numpy(), a ** b)
    if dt.kind == "i":  # negative exponents: PyTorch's integer results
        a = np.array([1, -1, -1, 2, -3], dt)
        b = np.array([-3, -3, -2, -1, -2], dt)
        got = silt.ops.pow(silt.tensor(a, device=device), silt.tensor(b, device=device))
        np.testing.assert_array_equal(got.numpy(), np.array([1, -1, 1, 0, 0], dt))


def test_sort_nan_ties_and_errors(device):
    # NaN larger than every number: last ascending, first descending; ties
    # (the two zeros, the NaNs) in their order both ways
    x = np.array([1.0, np.nan, -0.0, 0.0, -np.inf, np.nan, 1.0], np.float32)
    t = silt.tensor(x, device=device)
    v, i = silt.ops.sort(t)
    np.testing.assert_array_equal(i.numpy(), [4, 2, 3, 0, 6, 1, 5])
    np.testing.assert_array_equal(np.signbit(v.numpy()[1:3]), [True, False])
    v, i = silt.ops.sort(t, descending=True, stable=False)
    np.testing.assert_array_equal(i.numpy(), [1, 5, 0, 6, 2, 3, 4])
    np.testing.assert_array_equal(silt.ops.argsort(t, -1, True).numpy(), i.numpy())
    v, i = silt.ops.topk(t, 2)
    np.testing.assert_array_equal(i.numpy(), [1, 5])
    v, i = silt.ops.topk(t, 0)
    assert v.numpy().shape == (0,)
    with pytest.raises(silt.ArgumentError):
        silt.ops.topk(t, 8)
    with pytest.raises(Exception, match="axis"):
        silt.ops.sort(t, 1)


def test_indexing_and_counting_follow_pytorch(device):
    x = silt.tensor(X, device=device)
    # an index out of range raises, negative ones included (take counts
    # them from the end)
    for call in (
        lambda: silt.ops.index_select(x, 0, np.array([0, 5], np.int64)),
        lambda: silt.ops.index_select(x, 0, np.array([-1], np.int64)),
        lambda: silt.ops.gather(x, 1, np.full((5, 6), 6, np.int64)),
        lambda: silt.ops.scatter_add(x, 0, np.full((1, 6), -1, np.int64), X),
        lambda: silt.ops.take(x, np.array([30], np.int64)),
        lambda: silt.ops.bincount(np.array([1, -1], np.int64)),
        lambda: silt.ops.bincount(np.array([1], np.int64), minlength=-1),
        lambda: silt.ops.histc(silt.tensor(np.array([1.0, np.nan], np.float32), device=device)),
    ):
        with pytest.raises(silt.ArgumentError):
            call()
    # index_select takes int32 indices; gather only int64
    check(silt.ops.index_select(x, 0, np.array([4, 1], np.int32)), X[[4, 1]], "int32")
    with pytest.raises(silt.DTypeError):
        silt.ops.gather(x, 1, GI.astype(np.int32))
    # bincount's weights and minlength: PyTorch's dtypes
    w32 = np.linspace(-1, 1, 40).astype(np.float32)
    got = silt.ops.bincount(silt.tensor(BC, device=device), w32, minlength=12)
    assert got.dtype == np.float32
    check(got, np.bincount(BC, f64(w32), minlength=12), "weights f32")
    got = silt.ops.bincount(silt.tensor(BC, device=device), np.arange(40, dtype=np.int32))
    assert got.dtype == np.float64
    check(got, np.bincount(BC, np.arange(40)), "weights int32")
    # layer_norm's weight and bias of any view: a stepped NumPy array (on the
    # host read in place), a stepped silt view
    wide = np.repeat(ROW, 2)
    want = silt.ops.layer_norm(silt.tensor(X, device=device), [6], ROW, ROW, 1e-5).numpy()
    for w in [wide[::2], silt.tensor(wide, device=device)[::2]]:
        got = silt.ops.layer_norm(silt.tensor(X, device=device), [6], w, w, 1e-5)
        assert np.array_equal(got.numpy(), want), "layer_norm of a stepped weight"
        got = silt.ops.rms_norm(silt.tensor(X, device=device), [6], w)
        want_rms = silt.ops.rms_norm(silt.tensor(X, device=device), [6], ROW).numpy()
        assert np.array_equal(got.numpy(), want_rms), "rms_norm of a stepped weight"
    wb = np.arange(40) % 3 == 0
    got = silt.ops.bincount(silt.tensor(BC, device=device), wb)
    assert got.dtype == np.float64
    check(got, np.bincount(BC, wb.astype(np.float64)), "weights bool")
    # histc in a given range: the top edge counts in the last bin, values
    # outside and NaN nowhere
    h = silt.tensor(np.array([0.0, 0.5, 1.0, 2.0, np.nan, -1.0], np.float32), device=device)
    check(silt.ops.histc(h, bins=2, min=0, max=1), np.array([1.0, 2.0]), "histc range")


def softmax_ref(x, axis=-1):
    """PyTorch's softmax: the row shifted by its maximum (NaN if any is;
    a row of -inf is NaN throughout), in float64."""
    x = f64(x)
    e = np.exp(x - x.max(axis, keepdims=True)) if x.size else x
    return e / e.sum(axis, keepdims=True) if x.size else x


def log_softmax_ref(x, axis=-1):
    x = f64(x)
    if not x.size:
        return x
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


def layer_norm_ref(x, w, b, eps=1e-5):
    x = f64(x)
    if not x.size:
        return x
    m = x.mean(-1, keepdims=True)
    return (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + eps) * w + b


def rms_norm_ref(x, w, eps=1e-6):
    x = f64(x)
    if not x.size:
        return x
    return x / np.sqrt((x**2).mean(-1, keepdims=True) + eps) * w


def cum_nan_ref(x, ge):
    """PyTorch's cummax (`ge` is >=) or cummin (<=) along the last axis: an
    element takes over when it is NaN, or when the best so far is not NaN
    and it is at least as good (the later of equal ones)."""
    vals, idx = np.empty_like(x), np.zeros(x.shape, np.int64)
    for r in np.ndindex(x.shape[:-1]):
        best, at = None, 0
        for c in range(x.shape[-1]):
            v = x[r + (c,)]
            if best is None or np.isnan(v) or (not np.isnan(best) and ge(v, best)):
                best, at = v, c
            vals[r + (c,)], idx[r + (c,)] = best, at
    return vals, idx


EMPTY = np.zeros((3, 0), np.float32)  # rows of none
EMPTY_ROWS = np.zeros((0, 4), np.float32)  # no rows
ONE = np.array([[2.5]], np.float32)
# a row with a NaN, one with -inf and +inf, one of -inf alone, one plain
NAN_ROWS = np.array(
    [[1.0, np.nan, 2.0, 0.5], [-np.inf, 1.0, np.inf, 0.0], [-np.inf] * 4, [0.25, -1.0, 3.0, 2.0]],
    np.float32,
)
NAN_CUM = np.array([[1.0, np.nan, 2.0, np.nan, 0.0], [3.0, 1.0, 3.0, -np.inf, 4.0]], np.float32)
W4 = np.array([0.5, -1.0, 2.0, 1.5], np.float32)
B4 = np.array([0.25, 0.0, -0.5, 1.0], np.float32)
EMPTY_I = np.zeros((0,), np.int64)

# name: [(call(ops, *inputs), inputs, reference(*inputs))], the edge cases
# of issue 34's operations: empty, one element, NaN and infinities, ties
EDGES = {
    "softmax": [(lambda o, x: o.softmax(x, -1), [x], softmax_ref) for x in (EMPTY, EMPTY_ROWS, ONE, NAN_ROWS)],
    "log_softmax": [(lambda o, x: o.log_softmax(x, -1), [x], log_softmax_ref) for x in (EMPTY, EMPTY_ROWS, ONE, NAN_ROWS)],
    "layer_norm": [
        (lambda o, x: o.layer_norm(x, [4], W4, B4, 1e-5), [EMPTY_ROWS], lambda x: layer_norm_ref(x, W4, B4)),
        (lambda o, x: o.layer_norm(x, [1], np.array([3.0], np.float32), np.array([-2.0], np.float32), 1e-5),
         [ONE], lambda x: layer_norm_ref(x, 3.0, -2.0)),
        (lambda o, x: o.layer_norm(x, [4], W4, B4, 1e-5), [NAN_ROWS], lambda x: layer_norm_ref(x, W4, B4)),
    ],
    "rms_norm": [
        (lambda o, x: o.rms_norm(x, [4], W4, 1e-6), [EMPTY_ROWS], lambda x: rms_norm_ref(x, W4)),
        (lambda o, x: o.rms_norm(x, [1], None, 1e-6), [ONE], lambda x: rms_norm_ref(x, 1.0)),
        (lambda o, x: o.rms_norm(x, [4], W4, 1e-6), [NAN_ROWS], lambda x: rms_norm_ref(x, W4)),
    ],
    "cumsum": [(lambda o, x: o.cumsum(x, -1), [x], lambda x: f64(x).cumsum(-1)) for x in (EMPTY, ONE, NAN_CUM)],
    "cumprod": [(lambda o, x: o.cumprod(x, -1), [x], lambda x: f64(x).cumprod(-1)) for x in (EMPTY, ONE, NAN_CUM)],
    "logcumsumexp": [
        (lambda o, x: o.logcumsumexp(x, -1), [x], lambda x: np.logaddexp.accumulate(f64(x), -1) if x.size else x)
        for x in (EMPTY, ONE, NAN_CUM)
    ],
    "cummax": [(lambda o, x: o.cummax(x, -1), [x], lambda x: cum_nan_ref(x, np.greater_equal)) for x in (EMPTY, ONE, NAN_CUM)],
    "cummin": [(lambda o, x: o.cummin(x, -1), [x], lambda x: cum_nan_ref(x, np.less_equal)) for x in (EMPTY, ONE, NAN_CUM)],
    "matmul": [
        (lambda o, a, b: o.matmul(a, b), [np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)],
         lambda a, b: np.zeros((2, 3))),
        (lambda o, a, b: o.matmul(a, b), [EMPTY_ROWS, np.ones((4, 2), np.float32)], lambda a, b: np.zeros((0, 2))),
        (lambda o, a, b: o.matmul(a, b), [ONE, ONE], lambda a, b: f64(a) @ f64(b)),
        (lambda o, a, b: o.matmul(a, b), [NAN_ROWS[:1], np.ones((4, 2), np.float32)], lambda a, b: f64(a) @ f64(b)),
    ],
    "sort": [
        (lambda o, x: o.sort(x, -1), [x], lambda x: (np.sort(x, -1, kind="stable"), np.argsort(x, -1, kind="stable")))
        for x in (EMPTY, np.zeros((0,), np.float32), ONE, NAN_ROWS)
    ],
    "argsort": [
        # descending: NaN (the largest) first (these rows have no inf)
        (lambda o, x: o.argsort(x, -1, True), [x], lambda x: np.argsort(-np.where(np.isnan(x), np.inf, x), -1, kind="stable"))
        for x in (EMPTY, ONE, NAN_ROWS[[0, 3]])
    ],
    "topk": [
        (lambda o, x: o.topk(x, 0), [EMPTY], lambda x: (np.zeros((3, 0)), np.zeros((3, 0), np.int64))),
        (lambda o, x: o.topk(x, 1), [ONE], lambda x: (x, np.zeros((1, 1), np.int64))),
        (lambda o, x: o.topk(x, 1, largest=False), [ONE], lambda x: (x, np.zeros((1, 1), np.int64))),
    ],
    "index_select": [
        (lambda o, x, i: o.index_select(x, 1, i), [X, EMPTY_I], lambda x, i: np.zeros((5, 0))),
        (lambda o, x, i: o.index_select(x, 0, i), [EMPTY_ROWS, EMPTY_I], lambda x, i: np.zeros((0, 4))),
        (lambda o, x, i: o.index_select(x, 0, i), [ONE, np.array([0, 0], np.int64)], lambda x, i: x[i]),
    ],
    "gather": [
        (lambda o, x, i: o.gather(x, 1, i), [X, np.zeros((5, 0), np.int64)], lambda x, i: np.zeros((5, 0))),
        (lambda o, x, i: o.gather(x, 1, i), [ONE, np.zeros((1, 1), np.int64)], lambda x, i: x),
    ],
    "scatter_add": [
        (lambda o, x, i, y: o.scatter_add(x, 1, i, y), [X, np.zeros((5, 0), np.int64), np.zeros((5, 0), np.float32)],
         lambda x, i, y: x),
        (lambda o, x, i, y: o.scatter_add(x, 1, i, y), [ONE, np.zeros((1, 1), np.int64), ONE], lambda x, i, y: 2 * x),
    ],
    "take": [
        (lambda o, x, i: o.take(x, i), [X, EMPTY_I], lambda x, i: np.zeros((0,))),
        (lambda o, x, i: o.take(x, i), [ONE, np.array([0, -1], np.int64)], lambda x, i: np.take(x, i)),
    ],
    "bincount": [
        (lambda o, x: o.bincount(x), [EMPTY_I], lambda x: np.zeros((0,), np.int64)),
        (lambda o, x: o.bincount(x, minlength=3), [EMPTY_I], lambda x: np.zeros((3,), np.int64)),
        (lambda o, x: o.bincount(x), [np.array([4], np.int64)], np.bincount),
    ],
    "histc": [
        (lambda o, x: o.histc(x, 4), [np.zeros((0,), np.float32)], lambda x: np.zeros((4,))),
        # one value: the range widened to [v - 1, v + 1]
        (lambda o, x: o.histc(x, 4), [np.array([2.0], np.float32)], lambda x: np.array([0.0, 0.0, 1.0, 0.0])),
        (lambda o, x: o.histc(x, 3, min=0, max=3), [np.array([np.nan, 1.0, np.inf], np.float32)],
         lambda x: np.array([0.0, 1.0, 0.0])),
    ],
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_cases_follow_pytorch(device, name):
    for n, (call, inputs, ref) in enumerate(EDGES[name]):
        args = [silt.tensor(a, device=device) for a in inputs]
        got = call(silt.ops, *args)
        with np.errstate(invalid="ignore", divide="ignore"):  # NaN rows are meant
            want = ref(*inputs)
        label = f"{name} case {n}"
        if isinstance(got, tuple):
            assert len(got) == len(want), label
            for g, w in zip(got, want):
                check(g, w, label)
        else:
            check(got, want, label)

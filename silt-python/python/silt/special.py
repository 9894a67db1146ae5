"""PyTorch's ``torch.special`` namespace: the special functions under its
names (``gammaln``, ``psi``, ``expit``, ``ndtr``, ``entr``, ...), each the
tensor method of the same function (``silt.special.gammaln(t)`` is
``t.lgamma()``). Integer and bool tensors compute in float32; an input that is
not a tensor is made one, as ``silt.tensor`` makes it.

>>> import silt
>>> silt.special.gammaln(silt.tensor([0.5, 3.0], device="host")).tolist()
[0.5723649429247001, 0.6931471805599453]
"""

import math

from . import _functions
from ._composed import _floated, _floated_pair
from ._silt import Tensor, ops

__all__ = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
    "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc",
    "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h",
    "hermite_polynomial_he", "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l", "legendre_polynomial_p", "log1p",
    "log_ndtr", "log_softmax", "logit", "logsumexp", "modified_bessel_i0", "modified_bessel_i1",
    "modified_bessel_k0", "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc",
    "softmax", "spherical_bessel_j0", "xlog1py", "xlogy", "zeta",
]


def _tensor(x, *rest):
    """``x`` as a tensor, on the device of the first tensor in ``rest``."""
    return _functions._input(x, rest)


def gammaln(input) -> Tensor:
    """``ln |Γ(input)|`` (``torch.special.gammaln``; ``Tensor.lgamma``)."""
    return _tensor(input).lgamma()


def digamma(input) -> Tensor:
    """``ψ(input)``, the logarithmic derivative of Γ: ``-inf`` at ``+0``,
    ``inf`` at ``-0``, NaN at the negative integers (``Tensor.digamma``)."""
    return _tensor(input).digamma()


psi = digamma


def polygamma(n, input) -> Tensor:
    """The ``n``-th derivative of ``digamma`` (``Tensor.polygamma``)."""
    return _tensor(input).polygamma(n)


def zeta(input, other) -> Tensor:
    """The Hurwitz zeta function ``ζ(x, q) = Σ (q + k)^-x``, of ``input`` as
    ``x`` and ``other`` as ``q`` (broadcast; either may be a number), as
    ``torch.special.zeta``: ``inf`` at ``x = 1`` and at the non-positive
    integers ``q``, NaN for ``x < 1``."""
    x = _tensor(input, other)
    q = _tensor(other, x)
    return ops.zeta(*_floated_pair(x, q))


def erf(input) -> Tensor:
    """The error function (``Tensor.erf``)."""
    return _tensor(input).erf()


def erfc(input) -> Tensor:
    """``1 - erf(input)`` without its cancellation (``Tensor.erfc``)."""
    return _tensor(input).erfc()


def erfinv(input) -> Tensor:
    """The inverse error function, ``±inf`` at ``±1`` and NaN beyond
    (``Tensor.erfinv``)."""
    return _tensor(input).erfinv()


def gammainc(input, other) -> Tensor:
    """The regularized lower incomplete gamma function ``P(a, x)`` of
    ``input`` as ``a`` and ``other`` as ``x`` (``Tensor.igamma``; either may
    be a number)."""
    a = _tensor(input, other)
    return a.igamma(_tensor(other, a))


def gammaincc(input, other) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a,
    x)``, computed for itself where it is small (``Tensor.igammac``)."""
    a = _tensor(input, other)
    return a.igammac(_tensor(other, a))


def erfcx(input) -> Tensor:
    """``erfc(x) e^(x²)`` without its overflow and underflow: ``0`` at
    ``inf``, ``inf`` at ``-inf`` and wherever ``2 e^(x²)`` overflows (silt-kernels'
    ``erfcx``)."""
    return ops.erfcx(_floated(_tensor(input)))


def i0(input) -> Tensor:
    """``I₀(x)``, the modified Bessel function of the first kind of order 0
    (``Tensor.i0``)."""
    return _tensor(input).i0()


def i0e(input) -> Tensor:
    """``e^-|x| I₀(x)``, without ``I₀``'s overflow: ``0`` at ``±inf``
    (silt-kernels' ``i0e``)."""
    return ops.i0e(_floated(_tensor(input)))


def i1(input) -> Tensor:
    """``I₁(x)``, the modified Bessel function of the first kind of order 1
    (odd; silt-kernels' ``i1``)."""
    return ops.i1(_floated(_tensor(input)))


def i1e(input) -> Tensor:
    """``e^-|x| I₁(x)``, without ``I₁``'s overflow: ``±0`` at ``±inf``
    (silt-kernels' ``i1e``)."""
    return ops.i1e(_floated(_tensor(input)))


def modified_bessel_i0(input) -> Tensor:
    """``I₀(x)`` (``torch.special.modified_bessel_i0``; ``i0`` here)."""
    return i0(input)


def modified_bessel_i1(input) -> Tensor:
    """``I₁(x)`` (``torch.special.modified_bessel_i1``; ``i1`` here)."""
    return i1(input)


def bessel_j0(input) -> Tensor:
    """``J₀(x)``, the Bessel function of the first kind of order 0
    (``torch.special.bessel_j0``): ``0`` at ``±inf``, where PyTorch's gives
    NaN (silt-kernels' ``bessel_j0``)."""
    return ops.bessel_j0(_floated(_tensor(input)))


def bessel_j1(input) -> Tensor:
    """``J₁(x)``, the Bessel function of the first kind of order 1 (odd;
    ``±0`` at ``±inf``, where PyTorch's gives NaN)."""
    return ops.bessel_j1(_floated(_tensor(input)))


def bessel_y0(input) -> Tensor:
    """``Y₀(x)``, the Bessel function of the second kind of order 0: ``-inf``
    at ``±0``, NaN below 0, ``0`` at ``inf`` (PyTorch's gives NaN there)."""
    return ops.bessel_y0(_floated(_tensor(input)))


def bessel_y1(input) -> Tensor:
    """``Y₁(x)``, the Bessel function of the second kind of order 1: ``-inf``
    at ``±0``, NaN below 0, ``0`` at ``inf`` (PyTorch's gives NaN there)."""
    return ops.bessel_y1(_floated(_tensor(input)))


def modified_bessel_k0(input) -> Tensor:
    """``K₀(x)``, the modified Bessel function of the second kind of order
    0: ``inf`` at ``±0``, NaN below 0, ``0`` at ``inf``."""
    return ops.modified_bessel_k0(_floated(_tensor(input)))


def modified_bessel_k1(input) -> Tensor:
    """``K₁(x)``, the modified Bessel function of the second kind of order
    1: ``inf`` at ``±0``, NaN below 0, ``0`` at ``inf``."""
    return ops.modified_bessel_k1(_floated(_tensor(input)))


def scaled_modified_bessel_k0(input) -> Tensor:
    """``e^x K₀(x)``, without ``K₀``'s underflow."""
    return ops.scaled_modified_bessel_k0(_floated(_tensor(input)))


def scaled_modified_bessel_k1(input) -> Tensor:
    """``e^x K₁(x)``, without ``K₁``'s underflow."""
    return ops.scaled_modified_bessel_k1(_floated(_tensor(input)))


def airy_ai(input) -> Tensor:
    """``Ai(x)``, the Airy function of the first kind: ``0`` at ``±inf``,
    where PyTorch's gives NaN (silt-kernels' ``airy_ai``)."""
    return ops.airy_ai(_floated(_tensor(input)))


def _polynomial(op, input, n) -> Tensor:
    """``op`` of ``input`` and the degree ``n`` in their promoted float dtype."""
    x = _tensor(input, n)
    return op(*_floated_pair(x, _tensor(n, x)))


def chebyshev_polynomial_t(input, n) -> Tensor:
    """Chebyshev's polynomial of the first kind ``T_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.chebyshev_polynomial_t``: the degree
    truncated (silt-kernels' ``chebyshev_polynomial_t``)."""
    return _polynomial(ops.chebyshev_polynomial_t, input, n)


def chebyshev_polynomial_u(input, n) -> Tensor:
    """Chebyshev's polynomial of the second kind ``U_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.chebyshev_polynomial_u``: the degree
    truncated (silt-kernels' ``chebyshev_polynomial_u``)."""
    return _polynomial(ops.chebyshev_polynomial_u, input, n)


def chebyshev_polynomial_v(input, n) -> Tensor:
    """Chebyshev's polynomial of the third kind ``V_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.chebyshev_polynomial_v``: the degree
    truncated (silt-kernels' ``chebyshev_polynomial_v``)."""
    return _polynomial(ops.chebyshev_polynomial_v, input, n)


def chebyshev_polynomial_w(input, n) -> Tensor:
    """Chebyshev's polynomial of the fourth kind ``W_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.chebyshev_polynomial_w``: the degree
    truncated (silt-kernels' ``chebyshev_polynomial_w``)."""
    return _polynomial(ops.chebyshev_polynomial_w, input, n)


def shifted_chebyshev_polynomial_t(input, n) -> Tensor:
    """``T_n(2x - 1)``, Chebyshev's first kind on ``[0, 1]`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.shifted_chebyshev_polynomial_t``: the degree
    truncated (silt-kernels' ``shifted_chebyshev_polynomial_t``)."""
    return _polynomial(ops.shifted_chebyshev_polynomial_t, input, n)


def shifted_chebyshev_polynomial_u(input, n) -> Tensor:
    """``U_n(2x - 1)``, Chebyshev's second kind on ``[0, 1]`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.shifted_chebyshev_polynomial_u``: the degree
    truncated (silt-kernels' ``shifted_chebyshev_polynomial_u``)."""
    return _polynomial(ops.shifted_chebyshev_polynomial_u, input, n)


def shifted_chebyshev_polynomial_v(input, n) -> Tensor:
    """``V_n(2x - 1)``, Chebyshev's third kind on ``[0, 1]`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.shifted_chebyshev_polynomial_v``: the degree
    truncated (silt-kernels' ``shifted_chebyshev_polynomial_v``)."""
    return _polynomial(ops.shifted_chebyshev_polynomial_v, input, n)


def shifted_chebyshev_polynomial_w(input, n) -> Tensor:
    """``W_n(2x - 1)``, Chebyshev's fourth kind on ``[0, 1]`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.shifted_chebyshev_polynomial_w``: the degree
    truncated (silt-kernels' ``shifted_chebyshev_polynomial_w``)."""
    return _polynomial(ops.shifted_chebyshev_polynomial_w, input, n)


def hermite_polynomial_h(input, n) -> Tensor:
    """Hermite's (physicists') polynomial ``H_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.hermite_polynomial_h``: the degree
    truncated (silt-kernels' ``hermite_polynomial_h``)."""
    return _polynomial(ops.hermite_polynomial_h, input, n)


def hermite_polynomial_he(input, n) -> Tensor:
    """Hermite's (probabilists') polynomial ``He_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.hermite_polynomial_he``: the degree
    truncated (silt-kernels' ``hermite_polynomial_he``)."""
    return _polynomial(ops.hermite_polynomial_he, input, n)


def laguerre_polynomial_l(input, n) -> Tensor:
    """Laguerre's polynomial ``L_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.laguerre_polynomial_l``: the degree
    truncated (silt-kernels' ``laguerre_polynomial_l``)."""
    return _polynomial(ops.laguerre_polynomial_l, input, n)


def legendre_polynomial_p(input, n) -> Tensor:
    """Legendre's polynomial ``P_n(x)`` of ``input`` as ``x`` and ``n`` as the degree (broadcast;
    either may be a number), as ``torch.special.legendre_polynomial_p``: the degree
    truncated (silt-kernels' ``legendre_polynomial_p``)."""
    return _polynomial(ops.legendre_polynomial_p, input, n)


def spherical_bessel_j0(input) -> Tensor:
    """``j₀(x) = sin(x) / x``, 1 at 0 and 0 at ``±inf``, as
    ``torch.special.spherical_bessel_j0``."""
    x = _floated(_tensor(input))
    v = x.sin() / x
    return v.masked_fill(x == 0, 1).masked_fill(x.isinf(), 0)


def log_ndtr(input) -> Tensor:
    """``ln Φ(x)``, the logarithm of ``ndtr``, without its underflow in the
    lower tail (``-x²/2`` and less there): ``-inf`` at ``-inf``, ``-0.0``
    at ``inf`` (silt-kernels' ``log_ndtr``)."""
    return ops.log_ndtr(_floated(_tensor(input)))


def ndtri(input) -> Tensor:
    """``Φ⁻¹(p)``, the inverse of ``ndtr``: ``-inf`` at 0, ``inf`` at 1, NaN
    outside ``[0, 1]``; the tails keep their digits down to the smallest
    ``p`` (silt-kernels' ``ndtri``)."""
    return ops.ndtri(_floated(_tensor(input)))


def expit(input) -> Tensor:
    """The logistic sigmoid, ``1 / (1 + e^-x)`` (``Tensor.sigmoid``)."""
    return _tensor(input).sigmoid()


def logit(input, eps=None) -> Tensor:
    """``ln(x / (1 - x))``, ``x`` clamped to ``[eps, 1 - eps]`` when ``eps``
    is given (``Tensor.logit``)."""
    return _tensor(input).logit(eps)


def exp2(input) -> Tensor:
    """``2^x`` (``Tensor.exp2``)."""
    return _tensor(input).exp2()


def expm1(input) -> Tensor:
    """``e^x - 1`` without its cancellation near 0 (``Tensor.expm1``)."""
    return _tensor(input).expm1()


def log1p(input) -> Tensor:
    """``ln(1 + x)`` without its cancellation near 0 (``Tensor.log1p``)."""
    return _tensor(input).log1p()


def round(input, decimals=0) -> Tensor:  # noqa: A001 (PyTorch's name)
    """Rounded half to even, to ``decimals`` places (``Tensor.round``)."""
    return _tensor(input).round(decimals=decimals)


def sinc(input) -> Tensor:
    """``sin(πx) / (πx)``, 1 at 0 (``Tensor.sinc``)."""
    return _tensor(input).sinc()


def xlogy(input, other) -> Tensor:
    """``x ln y``, 0 where ``x`` is 0 (unless ``y`` is NaN) (``Tensor.xlogy``)."""
    return _functions._function("xlogy")(input, other)


def xlog1py(input, other) -> Tensor:
    """``x ln(1 + y)``, 0 where ``x`` is 0 (unless ``y`` is NaN), as
    ``torch.special.xlog1py``."""
    x = _tensor(input, other)
    y = _tensor(other, x)
    v = x * _floated(y).log1p()
    zero = (x == 0) & ~y.isnan()
    return v.masked_fill(zero, 0)


def logsumexp(input, dim, keepdim=False) -> Tensor:
    """``ln Σ e^x`` over ``dim`` (``Tensor.logsumexp``)."""
    return _tensor(input).logsumexp(dim, keepdim=keepdim)


def softmax(input, dim, dtype=None) -> Tensor:
    """``e^x / Σ e^x`` along ``dim`` (``Tensor.softmax``)."""
    return _tensor(input).softmax(dim, dtype=dtype)


def log_softmax(input, dim, dtype=None) -> Tensor:
    """``x - logsumexp(x)`` along ``dim`` (``Tensor.log_softmax``)."""
    return _tensor(input).log_softmax(dim, dtype=dtype)


def ndtr(input) -> Tensor:
    """The standard normal distribution function, ``erfc(-x / √2) / 2``
    (no cancellation in the lower tail), as ``torch.special.ndtr``."""
    x = _floated(_tensor(input))
    return (x * -math.sqrt(0.5)).erfc() * 0.5


def multigammaln(input, p) -> Tensor:
    """The logarithm of the multivariate gamma function of dimension ``p``
    (``Tensor.mvlgamma``)."""
    return _tensor(input).mvlgamma(p)


def entr(input) -> Tensor:
    """The elementwise entropy, ``-x ln x`` for ``x > 0``, 0 at 0, ``-inf``
    below 0, as ``torch.special.entr``."""
    x = _floated(_tensor(input))
    v = -x * x.log()
    return v.masked_fill(x == 0, 0).masked_fill(x < 0, -math.inf)

"""Type stubs of silt.ops: every silt-kernels operation, and floor_divide and
remainder (generated from the module's signatures and docstrings;
tests/test_stubs.py checks they match)."""

from typing import Optional, Sequence, Tuple, TypeVar, Union

import numpy.typing as npt

from . import Tensor

_T = TypeVar("_T")

TensorLike = Union[Tensor, npt.ArrayLike]
"""A silt.Tensor, a NumPy array (or anything numpy.asarray takes), or a Python number."""
Number = Union[bool, int, float]
Dim = Union[None, int, Sequence[int]]

__all__: list[str]

def abs(input: TensorLike) -> Tensor:
    """`abs(input)`: silt-kernels' `abs`, elementwise."""

def acos(input: TensorLike) -> Tensor:
    """`acos(input)`: silt-kernels' `acos`, elementwise."""

def layer_norm(
    input: TensorLike,
    normalized_shape: Sequence[int],
    weight: Optional[TensorLike] = None,
    bias: Optional[TensorLike] = None,
    eps: float = 1e-5,
) -> Tensor:
    """`layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5)`:
    silt-kernels' `layer_norm`, `(x - mean) / sqrt(var + eps) * weight + bias`
    over the trailing `normalized_shape`, one pass over each row."""

def rms_norm(
    input: TensorLike,
    normalized_shape: Sequence[int],
    weight: Optional[TensorLike] = None,
    eps: Optional[float] = None,
) -> Tensor:
    """`rms_norm(input, normalized_shape, weight=None, eps=None)`: silt-kernels'
    `rms_norm`, `x / sqrt(mean(x^2) + eps) * weight` over the trailing
    `normalized_shape` (`eps` by default the machine epsilon of the type the
    sums are kept in: float32's for float16, as PyTorch's)."""

def matmul(input: TensorLike, other: TensorLike) -> Tensor:
    """`matmul(input, other)`: silt-kernels' `matmul`, the matrix product with
    PyTorch's shapes (1-d, 2-d, batched with broadcast batches)."""

def index_select(input: TensorLike, dim: int, index: TensorLike) -> Tensor:
    """`index_select(input, dim, index)`: silt-kernels' `index_select`, the
    slices of `input` along `dim` at the positions in `index` (1-d, int64
    or int32; an index out of range raises)."""

def gather(input: TensorLike, dim: int, index: TensorLike) -> Tensor:
    """`gather(input, dim, index)`: silt-kernels' `gather`, the elements of
    `input` along `dim` at the positions in `index` (int64, of `input`'s
    dimension count); the result has `index`'s shape."""

def scatter_add(input: TensorLike, dim: int, index: TensorLike, src: TensorLike) -> Tensor:
    """`scatter_add(input, dim, index, src)`: silt-kernels' `scatter_add`, a
    new tensor: `input` plus `src`'s elements added at the positions along
    `dim` in `index` (int64)."""

def take(input: TensorLike, index: TensorLike) -> Tensor:
    """`take(input, index)`: silt-kernels' `take`, the elements of `input`,
    read as a 1-d tensor, at the positions in `index` (int64, any shape;
    negative ones count from the end): a tensor of `index`'s shape."""

def bincount(input: TensorLike, weights: Optional[TensorLike] = None, minlength: int = 0) -> Tensor:
    """`bincount(input, weights=None, minlength=0)`: silt-kernels' `bincount`,
    the count of each non-negative integer of a 1-d tensor (int64), or the
    sum of its weights (float32 for float32 weights, else float64)."""

def lu_factor(A: TensorLike) -> Tuple[Tensor, Tensor]:
    """`lu_factor(A)`: silt-kernels' `lu_factor`, `(LU, pivots)` of the LU
    factorisation with partial pivoting of float matrices `[..., m, n]`:
    `pivots` int32 `[..., min(m, n)]`, 1-based, as LAPACK's."""

def eigh(A: TensorLike) -> Tuple[Tensor, Tensor]:
    """`eigh(A)`: silt-kernels' `eigh`, `(eigenvalues, eigenvectors)` of
    symmetric float matrices `[..., n, n]` (the lower triangle read) by
    Jacobi's method: the values ascending, the vectors in the columns."""

def svd(A: TensorLike) -> Tuple[Tensor, Tensor, Tensor]:
    """`svd(A)`: silt-kernels' `svd`, `(U, S, Vh)` of float matrices `[...,
    m, n]` by one-sided Jacobi: reduced (`k = min(m, n)`), `S` descending,
    `U` and `Vh` orthonormal."""

def geqrf(input: TensorLike) -> Tuple[Tensor, Tensor]:
    """`geqrf(input)`: silt-kernels' `geqrf`, `(a, tau)` of Householder QR
    as LAPACK's: `R` on and above `a`'s diagonal, the reflectors below."""

def householder_product(A: TensorLike, tau: TensorLike) -> Tensor:
    """`householder_product(A, tau)`: silt-kernels' `householder_product`,
    `Q`'s first `n` columns from `geqrf`'s reflectors (LAPACK's `orgqr`)."""

def cholesky_ex(A: TensorLike) -> Tuple[Tensor, Tensor]:
    """`cholesky_ex(A)`: silt-kernels' `cholesky_ex`, `(L, info)`: `A = L
    L^T` (the lower triangle read), `info` LAPACK's (int32 of the batch)."""

def ldl_factor(A: TensorLike) -> Tuple[Tensor, Tensor, Tensor]:
    """`ldl_factor(A)`: silt-kernels' `ldl_factor`, `(LD, pivots, info)`:
    the Bunch-Kaufman factorisation `P A P^T = L D L^T` (LAPACK's `sytrf`)."""

def ldl_solve(LD: TensorLike, pivots: TensorLike, B: TensorLike) -> Tensor:
    """`ldl_solve(LD, pivots, B)`: silt-kernels' `ldl_solve`, `X` with `A X = B`."""

def solve_triangular(A: TensorLike, B: TensorLike, upper: bool, unitriangular: bool = False) -> Tensor:
    """`solve_triangular(A, B, upper, unitriangular=False)`: silt-kernels'
    `solve_triangular`, `X` with `A X = B` for triangular `A`."""

def lu_solve(LU: TensorLike, pivots: TensorLike, B: TensorLike, adjoint: bool = False) -> Tensor:
    """`lu_solve(LU, pivots, B, adjoint=False)`: silt-kernels' `lu_solve`,
    `X` with `A X = B` (`A^T X = B` with `adjoint`) from `lu_factor`'s
    `(LU, pivots)`, the batches broadcast."""

def histc(input: TensorLike, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """`histc(input, bins=100, min=0, max=0)`: silt-kernels' `histc`, the
    histogram of a float tensor in `bins` equal bins over `[min, max]` (the
    data's range when `min == max`), of `input`'s dtype."""

def add(input: TensorLike, other: TensorLike) -> Tensor:
    """`add(input, other)`: silt-kernels' `add`, elementwise with broadcasting."""

def add_(x: _T, y: TensorLike) -> _T:
    """`add_(x, y)`: `x += y`, in place; returns `x`."""

def addcmul(input: TensorLike, tensor1: TensorLike, tensor2: TensorLike, value: Optional[Number] = None) -> Tensor:
    """`addcmul(input, tensor1, tensor2, value=1)`: `input + value * tensor1 * tensor2`."""

def all(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`all(input, dim=None, keepdim=False)`: silt-kernels' `all` over `dim` (an int, a sequence, or None for every axis)."""

def amax(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`amax(input, dim=None, keepdim=False)`: silt-kernels' `amax` over `dim` (an int, a sequence, or None for every axis)."""

def amin(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`amin(input, dim=None, keepdim=False)`: silt-kernels' `amin` over `dim` (an int, a sequence, or None for every axis)."""

def any(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`any(input, dim=None, keepdim=False)`: silt-kernels' `any` over `dim` (an int, a sequence, or None for every axis)."""

def argmax(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`argmax(input, dim=None, keepdim=False)`: silt-kernels' `argmax` over `dim` (an int, a sequence, or None for every axis)."""

def argmin(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`argmin(input, dim=None, keepdim=False)`: silt-kernels' `argmin` over `dim` (an int, a sequence, or None for every axis)."""

def asin(input: TensorLike) -> Tensor:
    """`asin(input)`: silt-kernels' `asin`, elementwise."""

def atan(input: TensorLike) -> Tensor:
    """`atan(input)`: silt-kernels' `atan`, elementwise."""

def atan2(input: TensorLike, other: TensorLike) -> Tensor:
    """`atan2(input, other)`: silt-kernels' `atan2`, elementwise with broadcasting."""

def axpy(a: Number, x: TensorLike, y: _T) -> _T:
    """`axpy(a, x, y)`: `y += a * x`, in place; returns `y`."""

def bitwise_and(input: TensorLike, other: TensorLike) -> Tensor:
    """`bitwise_and(input, other)`: silt-kernels' `bitwise_and`, elementwise with broadcasting."""

def bitwise_not(input: TensorLike) -> Tensor:
    """`bitwise_not(input)`: silt-kernels' `bitwise_not`, elementwise."""

def bitwise_or(input: TensorLike, other: TensorLike) -> Tensor:
    """`bitwise_or(input, other)`: silt-kernels' `bitwise_or`, elementwise with broadcasting."""

def bitwise_xor(input: TensorLike, other: TensorLike) -> Tensor:
    """`bitwise_xor(input, other)`: silt-kernels' `bitwise_xor`, elementwise with broadcasting."""

def ceil(input: TensorLike) -> Tensor:
    """`ceil(input)`: silt-kernels' `ceil`, elementwise."""

def clamp(input: TensorLike, min: Optional[Number] = None, max: Optional[Number] = None) -> Tensor:
    """`clamp(input, min=None, max=None)`: each element limited to `[min, max]` (a bound left out does not limit)."""

def copy(x: TensorLike, out: _T) -> _T:
    """`copy(x, out)`: the elements of `x` (broadcast) copied into `out`; returns `out`."""

def copysign(input: TensorLike, other: TensorLike) -> Tensor:
    """`copysign(input, other)`: silt-kernels' `copysign`, elementwise with broadcasting."""

def cos(input: TensorLike) -> Tensor:
    """`cos(input)`: silt-kernels' `cos`, elementwise."""

def cosh(input: TensorLike) -> Tensor:
    """`cosh(input)`: silt-kernels' `cosh`, elementwise."""

def count_nonzero(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`count_nonzero(input, dim=None, keepdim=False)`: silt-kernels' `count_nonzero` over `dim` (an int, a sequence, or None for every axis)."""

def sort(input: TensorLike, dim: int = -1, descending: bool = False, *, stable: bool = True) -> Tuple[Tensor, Tensor]:
    """`sort(input, dim=-1, descending=False, *, stable=True)`: the elements sorted along `dim` and their indices (int64), as a tuple `(values, indices)`; NaN counts as larger than every number (last ascending, first descending); always stable."""
    ...

def argsort(input: TensorLike, dim: int = -1, descending: bool = False, *, stable: bool = True) -> Tensor:
    """`argsort(input, dim=-1, descending=False, *, stable=True)`: the indices (int64) that sort `input` along `dim`, those of `sort`."""
    ...

def topk(input: TensorLike, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Tuple[Tensor, Tensor]:
    """`topk(input, k, dim=-1, largest=True, sorted=True)`: the `k` largest (or smallest) elements along `dim` and their indices (int64), as a tuple `(values, indices)`, in order, ties by index; NaN counts as the largest; `k` past the length of `dim` is an error."""
    ...

def searchsorted(sorted_sequence: TensorLike, input: TensorLike, right: bool = False, sorter: Optional[TensorLike] = None) -> Tensor:
    """`searchsorted(sorted_sequence, input, right=False, sorter=None)`: silt-kernels' `searchsorted`, the place (int64) of each value of `input` in the sorted last dimension of `sorted_sequence` (1-d, or of `input`'s sizes but the last), before equal elements or, with `right`, after them; `sorter` (int64) gives the order of an unsorted sequence; one dtype for both."""

def scatter_reduce(input: TensorLike, dim: int, index: TensorLike, src: TensorLike, reduce: str, *, include_self: bool = True) -> Tensor:
    """`scatter_reduce(input, dim, index, src, reduce, *, include_self=True)`: silt-kernels' `scatter_reduce`, a new tensor: `input` with `src`'s elements combined at the positions along `dim` in `index` (int64) by `reduce`, one of "sum", "prod", "mean", "amax", "amin"."""

def cummax(input: TensorLike, dim: int) -> Tuple[Tensor, Tensor]:
    """`cummax(input, dim)`: the running maximum along `dim` and its indices (int64), as a tuple `(values, indices)`."""

def cummin(input: TensorLike, dim: int) -> Tuple[Tensor, Tensor]:
    """`cummin(input, dim)`: the running minimum along `dim` and its indices."""

def cumprod(input: TensorLike, dim: int) -> Tensor:
    """`cumprod(input, dim)`: silt-kernels' `cumprod` along `dim`."""

def logcumsumexp(input: TensorLike, dim: int) -> Tensor:
    """`logcumsumexp(input, dim)`: the running log of the sum of exponentials along `dim` (floats)."""

def cumsum(input: TensorLike, dim: int) -> Tensor:
    """`cumsum(input, dim)`: silt-kernels' `cumsum` along `dim`."""

def div(input: TensorLike, other: TensorLike) -> Tensor:
    """`div(input, other)`: silt-kernels' `div`, elementwise with broadcasting."""

def elu(input: TensorLike, alpha: Number = 1.0) -> Tensor:
    """`elu(input, alpha=1.0)`."""

def eq(input: TensorLike, other: TensorLike) -> Tensor:
    """`eq(input, other)`: silt-kernels' `eq`, elementwise with broadcasting."""

def asinh(input: TensorLike) -> Tensor:
    """`asinh(input)`: silt-kernels' `asinh`, elementwise."""

def acosh(input: TensorLike) -> Tensor:
    """`acosh(input)`: silt-kernels' `acosh`, elementwise."""

def atanh(input: TensorLike) -> Tensor:
    """`atanh(input)`: silt-kernels' `atanh`, elementwise."""

def erf(input: TensorLike) -> Tensor:
    """`erf(input)`: silt-kernels' `erf`, elementwise."""

def erfc(input: TensorLike) -> Tensor:
    """`erfc(input)`: silt-kernels' `erfc`, elementwise."""

def lgamma(input: TensorLike) -> Tensor:
    """`lgamma(input)`: silt-kernels' `lgamma`, elementwise."""

def digamma(input: TensorLike) -> Tensor:
    """`digamma(input)`: silt-kernels' `digamma`, elementwise."""

def erfinv(input: TensorLike) -> Tensor:
    """`erfinv(input)`: silt-kernels' `erfinv`, elementwise."""

def erfcx(input: TensorLike) -> Tensor:
    """`erfcx(input)`: silt-kernels' `erfcx`, elementwise."""

def log_ndtr(input: TensorLike) -> Tensor:
    """`log_ndtr(input)`: silt-kernels' `log_ndtr`, elementwise."""

def ndtri(input: TensorLike) -> Tensor:
    """`ndtri(input)`: silt-kernels' `ndtri`, elementwise."""

def i0(input: TensorLike) -> Tensor:
    """`i0(input)`: silt-kernels' `i0`, elementwise."""

def i0e(input: TensorLike) -> Tensor:
    """`i0e(input)`: silt-kernels' `i0e`, elementwise."""

def i1(input: TensorLike) -> Tensor:
    """`i1(input)`: silt-kernels' `i1`, elementwise."""

def i1e(input: TensorLike) -> Tensor:
    """`i1e(input)`: silt-kernels' `i1e`, elementwise."""

def bessel_j0(input: TensorLike) -> Tensor:
    """`bessel_j0(input)`: silt-kernels' `bessel_j0`, elementwise."""

def bessel_j1(input: TensorLike) -> Tensor:
    """`bessel_j1(input)`: silt-kernels' `bessel_j1`, elementwise."""

def bessel_y0(input: TensorLike) -> Tensor:
    """`bessel_y0(input)`: silt-kernels' `bessel_y0`, elementwise."""

def bessel_y1(input: TensorLike) -> Tensor:
    """`bessel_y1(input)`: silt-kernels' `bessel_y1`, elementwise."""

def modified_bessel_k0(input: TensorLike) -> Tensor:
    """`modified_bessel_k0(input)`: silt-kernels' `modified_bessel_k0`, elementwise."""

def modified_bessel_k1(input: TensorLike) -> Tensor:
    """`modified_bessel_k1(input)`: silt-kernels' `modified_bessel_k1`, elementwise."""

def scaled_modified_bessel_k0(input: TensorLike) -> Tensor:
    """`scaled_modified_bessel_k0(input)`: silt-kernels' `scaled_modified_bessel_k0`, elementwise."""

def scaled_modified_bessel_k1(input: TensorLike) -> Tensor:
    """`scaled_modified_bessel_k1(input)`: silt-kernels' `scaled_modified_bessel_k1`, elementwise."""

def airy_ai(input: TensorLike) -> Tensor:
    """`airy_ai(input)`: silt-kernels' `airy_ai`, elementwise."""

def exp(input: TensorLike) -> Tensor:
    """`exp(input)`: silt-kernels' `exp`, elementwise."""

def exp2(input: TensorLike) -> Tensor:
    """`exp2(input)`: silt-kernels' `exp2`, elementwise."""

def expm1(input: TensorLike) -> Tensor:
    """`expm1(input)`: silt-kernels' `expm1`, elementwise."""

def floor_divide(input: TensorLike, other: TensorLike) -> Tensor:
    """`floor_divide(input, other)`: Python's `//` (PyTorch's `floor_divide`), elementwise with broadcasting: the quotient rounded down (`-7 // 2 == -4`); integer division by zero gives 0 (silt's rule), float division by zero infinity or NaN."""

def floor(input: TensorLike) -> Tensor:
    """`floor(input)`: silt-kernels' `floor`, elementwise."""

def fmax(input: TensorLike, other: TensorLike) -> Tensor:
    """`fmax(input, other)`: silt-kernels' `fmax`, elementwise with broadcasting."""

def fmin(input: TensorLike, other: TensorLike) -> Tensor:
    """`fmin(input, other)`: silt-kernels' `fmin`, elementwise with broadcasting."""

def frac(input: TensorLike) -> Tensor:
    """`frac(input)`: silt-kernels' `frac`, elementwise."""

def ge(input: TensorLike, other: TensorLike) -> Tensor:
    """`ge(input, other)`: silt-kernels' `ge`, elementwise with broadcasting."""

def gelu(input: TensorLike) -> Tensor:
    """`gelu(input)`: silt-kernels' `gelu`, elementwise."""

def gelu_tanh(input: TensorLike) -> Tensor:
    """`gelu_tanh(input)`: silt-kernels' `gelu_tanh`, elementwise."""

def gt(input: TensorLike, other: TensorLike) -> Tensor:
    """`gt(input, other)`: silt-kernels' `gt`, elementwise with broadcasting."""

def hardsigmoid(input: TensorLike) -> Tensor:
    """`hardsigmoid(input)`: silt-kernels' `hardsigmoid`, elementwise."""

def hardswish(input: TensorLike) -> Tensor:
    """`hardswish(input)`: silt-kernels' `hardswish`, elementwise."""

def hardtanh(input: TensorLike, min_val: Number = ..., max_val: Number = 1.0) -> Tensor:
    """`hardtanh(input, min_val=-1.0, max_val=1.0)`."""

def hypot(input: TensorLike, other: TensorLike) -> Tensor:
    """`hypot(input, other)`: silt-kernels' `hypot`, elementwise with broadcasting."""

def gcd(input: TensorLike, other: TensorLike) -> Tensor:
    """`gcd(input, other)`: silt-kernels' `gcd`, elementwise with broadcasting."""

def lcm(input: TensorLike, other: TensorLike) -> Tensor:
    """`lcm(input, other)`: silt-kernels' `lcm`, elementwise with broadcasting."""

def gammainc(input: TensorLike, other: TensorLike) -> Tensor:
    """`gammainc(input, other)`: silt-kernels' `gammainc`, elementwise with broadcasting."""

def gammaincc(input: TensorLike, other: TensorLike) -> Tensor:
    """`gammaincc(input, other)`: silt-kernels' `gammaincc`, elementwise with broadcasting."""

def chebyshev_polynomial_t(input: TensorLike, other: TensorLike) -> Tensor:
    """`chebyshev_polynomial_t(input, other)`: silt-kernels' `chebyshev_polynomial_t`, elementwise with broadcasting."""

def chebyshev_polynomial_u(input: TensorLike, other: TensorLike) -> Tensor:
    """`chebyshev_polynomial_u(input, other)`: silt-kernels' `chebyshev_polynomial_u`, elementwise with broadcasting."""

def chebyshev_polynomial_v(input: TensorLike, other: TensorLike) -> Tensor:
    """`chebyshev_polynomial_v(input, other)`: silt-kernels' `chebyshev_polynomial_v`, elementwise with broadcasting."""

def chebyshev_polynomial_w(input: TensorLike, other: TensorLike) -> Tensor:
    """`chebyshev_polynomial_w(input, other)`: silt-kernels' `chebyshev_polynomial_w`, elementwise with broadcasting."""

def shifted_chebyshev_polynomial_t(input: TensorLike, other: TensorLike) -> Tensor:
    """`shifted_chebyshev_polynomial_t(input, other)`: silt-kernels' `shifted_chebyshev_polynomial_t`, elementwise with broadcasting."""

def shifted_chebyshev_polynomial_u(input: TensorLike, other: TensorLike) -> Tensor:
    """`shifted_chebyshev_polynomial_u(input, other)`: silt-kernels' `shifted_chebyshev_polynomial_u`, elementwise with broadcasting."""

def shifted_chebyshev_polynomial_v(input: TensorLike, other: TensorLike) -> Tensor:
    """`shifted_chebyshev_polynomial_v(input, other)`: silt-kernels' `shifted_chebyshev_polynomial_v`, elementwise with broadcasting."""

def shifted_chebyshev_polynomial_w(input: TensorLike, other: TensorLike) -> Tensor:
    """`shifted_chebyshev_polynomial_w(input, other)`: silt-kernels' `shifted_chebyshev_polynomial_w`, elementwise with broadcasting."""

def hermite_polynomial_h(input: TensorLike, other: TensorLike) -> Tensor:
    """`hermite_polynomial_h(input, other)`: silt-kernels' `hermite_polynomial_h`, elementwise with broadcasting."""

def hermite_polynomial_he(input: TensorLike, other: TensorLike) -> Tensor:
    """`hermite_polynomial_he(input, other)`: silt-kernels' `hermite_polynomial_he`, elementwise with broadcasting."""

def laguerre_polynomial_l(input: TensorLike, other: TensorLike) -> Tensor:
    """`laguerre_polynomial_l(input, other)`: silt-kernels' `laguerre_polynomial_l`, elementwise with broadcasting."""

def legendre_polynomial_p(input: TensorLike, other: TensorLike) -> Tensor:
    """`legendre_polynomial_p(input, other)`: silt-kernels' `legendre_polynomial_p`, elementwise with broadcasting."""

def zeta(input: TensorLike, other: TensorLike) -> Tensor:
    """`zeta(input, other)`: silt-kernels' `zeta`, elementwise with broadcasting."""

def isfinite(input: TensorLike) -> Tensor:
    """`isfinite(input)`: silt-kernels' `isfinite`, elementwise."""

def isinf(input: TensorLike) -> Tensor:
    """`isinf(input)`: silt-kernels' `isinf`, elementwise."""

def isnan(input: TensorLike) -> Tensor:
    """`isnan(input)`: silt-kernels' `isnan`, elementwise."""

def le(input: TensorLike, other: TensorLike) -> Tensor:
    """`le(input, other)`: silt-kernels' `le`, elementwise with broadcasting."""

def leaky_relu(input: TensorLike, negative_slope: Number = 0.01) -> Tensor:
    """`leaky_relu(input, negative_slope=0.01)`."""

def lerp(input: TensorLike, end: TensorLike, weight: Number) -> Tensor:
    """`lerp(input, end, weight)`: `input + weight * (end - input)`, with a scalar `weight`."""

def log(input: TensorLike) -> Tensor:
    """`log(input)`: silt-kernels' `log`, elementwise."""

def log10(input: TensorLike) -> Tensor:
    """`log10(input)`: silt-kernels' `log10`, elementwise."""

def log1p(input: TensorLike) -> Tensor:
    """`log1p(input)`: silt-kernels' `log1p`, elementwise."""

def log2(input: TensorLike) -> Tensor:
    """`log2(input)`: silt-kernels' `log2`, elementwise."""

def log_softmax(input: TensorLike, dim: int) -> Tensor:
    """`log_softmax(input, dim)`: silt-kernels' `log_softmax` along `dim`."""

def logical_and(input: TensorLike, other: TensorLike) -> Tensor:
    """`logical_and(input, other)`: silt-kernels' `logical_and`, elementwise with broadcasting."""

def logical_not(input: TensorLike) -> Tensor:
    """`logical_not(input)`: silt-kernels' `logical_not`, elementwise."""

def logical_or(input: TensorLike, other: TensorLike) -> Tensor:
    """`logical_or(input, other)`: silt-kernels' `logical_or`, elementwise with broadcasting."""

def logical_xor(input: TensorLike, other: TensorLike) -> Tensor:
    """`logical_xor(input, other)`: silt-kernels' `logical_xor`, elementwise with broadcasting."""

def logsigmoid(input: TensorLike) -> Tensor:
    """`logsigmoid(input)`: silt-kernels' `logsigmoid`, elementwise."""

def logsumexp(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`logsumexp(input, dim=None, keepdim=False)`: silt-kernels' `logsumexp` over `dim` (an int, a sequence, or None for every axis)."""

def lt(input: TensorLike, other: TensorLike) -> Tensor:
    """`lt(input, other)`: silt-kernels' `lt`, elementwise with broadcasting."""

def maximum(input: TensorLike, other: TensorLike) -> Tensor:
    """`maximum(input, other)`: silt-kernels' `maximum`, elementwise with broadcasting."""

def mean(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`mean(input, dim=None, keepdim=False)`: silt-kernels' `mean` over `dim` (an int, a sequence, or None for every axis)."""

def minimum(input: TensorLike, other: TensorLike) -> Tensor:
    """`minimum(input, other)`: silt-kernels' `minimum`, elementwise with broadcasting."""

def mish(input: TensorLike) -> Tensor:
    """`mish(input)`: silt-kernels' `mish`, elementwise."""

def mul(input: TensorLike, other: TensorLike) -> Tensor:
    """`mul(input, other)`: silt-kernels' `mul`, elementwise with broadcasting."""

def ne(input: TensorLike, other: TensorLike) -> Tensor:
    """`ne(input, other)`: silt-kernels' `ne`, elementwise with broadcasting."""

def neg(input: TensorLike) -> Tensor:
    """`neg(input)`: silt-kernels' `neg`, elementwise."""

def norm(input: TensorLike, p: Number = 2.0, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`norm(input, p=2, dim=None, keepdim=False)`: the vector norm of order `p` (1, 2 or `inf`) over `dim`."""

def pow(input: TensorLike, exponent: TensorLike) -> Tensor:
    """`pow(input, exponent)`: silt-kernels' `pow` for floats; for integers this module's `pow_int` (repeated squaring, wrapping; a negative exponent gives `1` for a base of 1, `±1` for -1, else 0, as PyTorch's); elementwise with broadcasting."""

def prod(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`prod(input, dim=None, keepdim=False)`: silt-kernels' `prod` over `dim` (an int, a sequence, or None for every axis)."""

def remainder(input: TensorLike, other: TensorLike) -> Tensor:
    """`remainder(input, other)`: Python's `%` (PyTorch's `remainder`), with the sign of `other` (`-7 % 2 == 1`; silt-kernels' `rem` has the sign of `input`); integer remainder by zero gives 0, float NaN."""

def reciprocal(input: TensorLike) -> Tensor:
    """`reciprocal(input)`: silt-kernels' `reciprocal`, elementwise."""

def relu(input: TensorLike) -> Tensor:
    """`relu(input)`: silt-kernels' `relu`, elementwise."""

def relu6(input: TensorLike) -> Tensor:
    """`relu6(input)`: silt-kernels' `relu6`, elementwise."""

def rem(input: TensorLike, other: TensorLike) -> Tensor:
    """`rem(input, other)`: silt-kernels' `rem`, elementwise with broadcasting."""

def round(input: TensorLike) -> Tensor:
    """`round(input)`: silt-kernels' `round`, elementwise."""

def rsqrt(input: TensorLike) -> Tensor:
    """`rsqrt(input)`: silt-kernels' `rsqrt`, elementwise."""

def scale_(a: Number, x: _T) -> _T:
    """`scale_(a, x)`: `x *= a`, in place; returns `x`."""

def selu(input: TensorLike) -> Tensor:
    """`selu(input)`: silt-kernels' `selu`, elementwise."""

def set(value: Number, out: _T) -> _T:
    """`set(value, out)`: every element of `out` set to `value`; returns `out`."""

def shl(input: TensorLike, other: TensorLike) -> Tensor:
    """`shl(input, other)`: silt-kernels' `shl`, elementwise with broadcasting."""

def shr(input: TensorLike, other: TensorLike) -> Tensor:
    """`shr(input, other)`: silt-kernels' `shr`, elementwise with broadcasting."""

def sigmoid(input: TensorLike) -> Tensor:
    """`sigmoid(input)`: silt-kernels' `sigmoid`, elementwise."""

def sign(input: TensorLike) -> Tensor:
    """`sign(input)`: silt-kernels' `sign`, elementwise."""

def silu(input: TensorLike) -> Tensor:
    """`silu(input)`: silt-kernels' `silu`, elementwise."""

def sin(input: TensorLike) -> Tensor:
    """`sin(input)`: silt-kernels' `sin`, elementwise."""

def sinh(input: TensorLike) -> Tensor:
    """`sinh(input)`: silt-kernels' `sinh`, elementwise."""

def softmax(input: TensorLike, dim: int) -> Tensor:
    """`softmax(input, dim)`: silt-kernels' `softmax` along `dim`."""

def softplus(input: TensorLike) -> Tensor:
    """`softplus(input)`: silt-kernels' `softplus`, elementwise."""

def softsign(input: TensorLike) -> Tensor:
    """`softsign(input)`: silt-kernels' `softsign`, elementwise."""

def sqrt(input: TensorLike) -> Tensor:
    """`sqrt(input)`: silt-kernels' `sqrt`, elementwise."""

def square(input: TensorLike) -> Tensor:
    """`square(input)`: silt-kernels' `square`, elementwise."""

def std(input: TensorLike, dim: Dim = None, *, correction: Number = 1.0, keepdim: bool = False) -> Tensor:
    """`std(input, dim=None, *, correction=1, keepdim=False)`: `sqrt(var)`."""

def sub(input: TensorLike, other: TensorLike) -> Tensor:
    """`sub(input, other)`: silt-kernels' `sub`, elementwise with broadcasting."""

def sum(input: TensorLike, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """`sum(input, dim=None, keepdim=False)`: silt-kernels' `sum` over `dim` (an int, a sequence, or None for every axis)."""

def tan(input: TensorLike) -> Tensor:
    """`tan(input)`: silt-kernels' `tan`, elementwise."""

def tanh(input: TensorLike) -> Tensor:
    """`tanh(input)`: silt-kernels' `tanh`, elementwise."""

def to_bool(input: TensorLike) -> Tensor:
    """`to_bool(input)`: silt-kernels' `to_bool`, elementwise."""

def to_f16(input: TensorLike) -> Tensor:
    """`to_f16(input)`: silt-kernels' `to_f16`, elementwise."""

def to_f32(input: TensorLike) -> Tensor:
    """`to_f32(input)`: silt-kernels' `to_f32`, elementwise."""

def to_f64(input: TensorLike) -> Tensor:
    """`to_f64(input)`: silt-kernels' `to_f64`, elementwise."""

def to_i32(input: TensorLike) -> Tensor:
    """`to_i32(input)`: silt-kernels' `to_i32`, elementwise."""

def to_i64(input: TensorLike) -> Tensor:
    """`to_i64(input)`: silt-kernels' `to_i64`, elementwise."""

def to_u8(input: TensorLike) -> Tensor:
    """`to_u8(input)`: silt-kernels' `to_u8`, elementwise."""

def trunc(input: TensorLike) -> Tensor:
    """`trunc(input)`: silt-kernels' `trunc`, elementwise."""

def var(input: TensorLike, dim: Dim = None, *, correction: Number = 1.0, keepdim: bool = False) -> Tensor:
    """`var(input, dim=None, *, correction=1, keepdim=False)`: the variance over `dim`, divided by `count - correction`."""

def where(condition: TensorLike, input: TensorLike, other: TensorLike) -> Tensor:
    """`where_(condition, input, other)`: `input` where `condition` (a bool tensor) holds, else `other`, with broadcasting. Also `silt.ops.where`."""

def where_(condition: TensorLike, input: TensorLike, other: TensorLike) -> Tensor:
    """`where_(condition, input, other)`: `input` where `condition` (a bool tensor) holds, else `other`, with broadcasting. Also `silt.ops.where`."""

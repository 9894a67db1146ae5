"""The decompositions of ``silt.linalg`` by eigenvalues and singular values
(``eigh``, ``eigvalsh``, ``svd``, ``svdvals``) and what is built on them
(``pinv``, ``matrix_rank``, ``cond``, the matrix norms of orders 2, -2 and
``'nuc'``), by Jacobi's method on the input's device, every matrix of a
batch at once.

``eigh`` and ``svd`` are silt-kernels' ``eigh`` (the cyclic two-sided
Jacobi method) and ``svd`` (Hestenes' one-sided Jacobi method), each in the
round-robin order of pairs, a matrix a work-item (a work-group on a GPU),
one launch (``silt.ops``);
the matrices are divided by their largest ``|value|`` first (``eigh``
here, ``svd`` in the kernel) and the values multiplied back. The sweeps
end at a tolerance of the dtype (at most 30; 5 to 10 in practice). A
matrix holding NaN or an infinity gives NaN without holding the others
back. ``svd``'s ``full_matrices`` columns past ``n`` are the eigenvectors
of the projector ``I - U U^T`` of eigenvalue 1 (``eigh`` again).

Float16 is computed in float32 and rounded once (PyTorch refuses it);
integer and bool inputs raise ``silt.DTypeError``, as PyTorch's. Only real
dtypes (no complex ``eig``, ``eigvals``).

>>> import silt
>>> from silt._linalg_jacobi import eigvalsh, svdvals
>>> a = silt.tensor([[2.0, 1.0], [1.0, 2.0]], device="host")
>>> [round(v, 12) for v in eigvalsh(a).tolist()]
[1.0, 3.0]
>>> [round(v, 12) for v in svdvals(a).tolist()]
[3.0, 1.0]
"""

import collections
import math

import numpy as np

from ._silt import ArgumentError, DTypeError, Tensor, ops as _ops
from ._creation import cat, eye
from ._functions import _input, where
from ._operators import _is_number
from .linalg import LinAlgError, _F32, _float, _matrices, _matrix_dims, _narrow, inv_ex, matrix_norm

__all__ = ["EighResult", "PolarResult", "SVDResult", "cond", "eigh", "eigvalsh", "matrix_rank", "matrix_sqrth", "pinv",
           "polar", "svd", "svdvals"]

EighResult = collections.namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EighResult.__doc__ = "`(eigenvalues, eigenvectors)` of `eigh`, as PyTorch's `torch.return_types.linalg_eigh`."
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])
SVDResult.__doc__ = "`(U, S, Vh)` of `svd`, as PyTorch's `torch.return_types.linalg_svd`."
PolarResult = collections.namedtuple("PolarResult", ["U", "H"])
PolarResult.__doc__ = "`(U, H)` of `polar`, as PyTorch's `torch.return_types.linalg_polar`."
_TorchSVD = collections.namedtuple("svd", ["U", "S", "V"])
_TorchSVD.__doc__ = "`(U, S, V)` of `silt.svd`, as PyTorch's `torch.return_types.svd`."

_INF = float("inf")


# ---- the tournament -----------------------------------------------------------

def _eps(dt):
    return float(np.finfo(dt).eps)


def _scale(x):
    """The largest `|value|` of each matrix of `x` (`[..., 1, 1]`), 1 where
    it is 0 or not finite: the matrices are divided by it (no overflow of
    the squares and differences) and the values multiplied back."""
    a = x.abs().amax((-2, -1), keepdim=True)
    return where((a > 0) & a.isfinite(), a, 1.0)


def _jacobi_eigh(S, vectors):
    """`(w, V)` (`V` None unless `vectors`) of the symmetric matrices `S` (a
    float32 or float64 tensor `[..., n, n]`, `n > 0`, any batch, entries of
    at most about 1): silt-kernels' `eigh` (Jacobi's method, a matrix a
    work-item, one launch; the sweeps end at `max(n, 2)` eps of the largest
    diagonal value, or after 30), the eigenvalues ascending and the
    eigenvectors in the columns of `V`."""
    w, V = _ops.eigh(S)
    return w, (V if vectors else None)


def _symmetric(x, uplo, op):
    """The symmetric matrices of the `uplo` triangle of `x` (the other not
    read), in the working dtype."""
    if not isinstance(uplo, str) or uplo.upper() not in ("L", "U"):
        raise ArgumentError(f"{op}: Expected UPLO argument to be 'L' or 'U', but got {uplo}")
    w = x.astype(_F32) if x.dtype == np.float16 else x
    return w.tril() + w.tril(-1).mT if uplo.upper() == "L" else w.triu() + w.triu(1).mT


def _bad(x):
    """The matrices of `x` holding a NaN or an infinity (bool of the
    batch): their results are NaN."""
    return x.isfinite().logical_not().any(-1).any(-1)


def _eigh(x, uplo, vectors, op):
    """`(w, V)` of `x` (float matrices, any dtype), in the working dtype,
    sorted ascending; V None unless `vectors`."""
    *batch, n, _ = x.shape
    batch = tuple(batch)
    wd = _F32 if x.dtype == np.float16 else x.dtype
    if x.numel() == 0:
        return x.new_zeros(batch + (n,), dtype=wd), (x.new_zeros(batch + (n, n), dtype=wd) if vectors else None)
    S = _symmetric(x, uplo, op)
    scale = _scale(S)
    w, V = _jacobi_eigh(S / scale, vectors)
    w, order = (w * scale[..., 0]).sort(-1)
    bad = _bad(S)
    w = where(bad[..., None], math.nan, w)
    if vectors:
        V = V.gather(-1, order[..., None, :].expand(*batch, n, n))
        V = where(bad[..., None, None], math.nan, V)
    return w, V


def eigh(A, UPLO="L") -> EighResult:
    """`torch.linalg.eigh(A, UPLO='L')`: `EighResult(eigenvalues,
    eigenvectors)` of the symmetric matrices `A` (`[..., n, n]`, any batch
    dimensions): the eigenvalues ascending (`[..., n]`) and the orthonormal
    eigenvectors in the columns of `eigenvectors` (`A = V diag(w) V^T`; each
    of either sign, as LAPACK's). Only the lower triangle (`UPLO='L'`) or the
    upper one (`'U'`) is read, as PyTorch's. silt-kernels' `eigh`: the
    cyclic Jacobi method in the round-robin order, a matrix a work-item (a
    work-group on a GPU), every matrix of the batch in one launch, each divided by its largest
    `|value|` first; the sweeps stop where the largest off-diagonal
    `|value|` is at most `max(n, 2)` eps of the largest diagonal one (at
    most 30; 5 to 10 usually). Then the eigenvalues are sorted. A matrix
    holding NaN or an infinity gives NaN. A `UPLO` other than `'L'` or `'U'`
    raises `silt.ArgumentError`; float16 is computed in float32, rounded
    once."""
    op = "linalg.eigh"
    x = _matrices(A, op)
    w, V = _eigh(x, UPLO, True, op)
    return EighResult(_narrow(w, x.dtype), _narrow(V, x.dtype))


def eigvalsh(A, UPLO="L") -> Tensor:
    """`torch.linalg.eigvalsh(A, UPLO='L')`: the eigenvalues, ascending, of
    the symmetric matrices `A` (only the `UPLO` triangle read), by `eigh`'s
    Jacobi method."""
    op = "linalg.eigvalsh"
    x = _matrices(A, op)
    return _narrow(_eigh(x, UPLO, False, op)[0], x.dtype)


def matrix_sqrth(A) -> Tensor:
    """`torch.linalg.matrix_sqrth(A)`: the principal square root of the
    symmetric positive-definite matrices `A` (`[..., n, n]`, any batch
    dimensions; only the lower triangle read, as PyTorch's): `X = V
    diag(sqrt(w)) V^T` from `eigh`, each eigenvalue below zero (of a matrix
    that is not positive-definite, or by rounding) taken as zero, as
    PyTorch's. A matrix holding NaN or an infinity gives NaN; float16 is
    computed in float32, rounded once."""
    op = "linalg.matrix_sqrth"
    x = _matrices(A, op)
    w, V = _eigh(x, "L", True, op)
    return _narrow((V * w.clamp_min(0).sqrt()[..., None, :]) @ V.mT, x.dtype)


# ---- singular values: one-sided Jacobi ---------------------------------------------

def _svd(x, vectors, full, complete=True):
    """`(U, S, Vh)` of the matrices `x` (any float dtype) in the working
    dtype, `S` descending (U and Vh None unless `vectors`): silt-kernels'
    `svd` (its `U` orthonormal, the columns of zero singular values
    completed), and where `full` (and `complete`) `U`'s columns past `n`
    by `_complete`."""
    *batch, m, n = x.shape
    batch = tuple(batch)
    wd = _F32 if x.dtype == np.float16 else x.dtype
    k = min(m, n)
    if x.numel() == 0:
        S = x.new_zeros(batch + (k,), dtype=wd)
        if not vectors:
            return None, S, None
        mu, nv = (m, n) if full else (k, k)
        U = x.new_zeros(batch + (m, mu), dtype=wd)
        Vh = x.new_zeros(batch + (nv, n), dtype=wd)
        if full:
            # the identity, a valid SVD of an empty matrix, as PyTorch's
            U.diagonal(dim1=-2, dim2=-1).fill_(1)
            Vh.diagonal(dim1=-2, dim2=-1).fill_(1)
        return U, S, Vh
    w = x.astype(_F32) if x.dtype == np.float16 else x
    wide = m < n
    if wide:
        w = w.mT  # A^T = U' S V'^T: U = V', Vh = U'^T
        m, n = n, m
    U, S, Vh = _ops.svd(w)  # U [m, n] with orthonormal columns, S descending, Vh [n, n]
    bad = _bad(w)
    S = where(bad[..., None], math.nan, S)
    if not vectors:
        return None, S, None
    Y = U.mT
    U = _complete(Y, S, full, m, n) if complete and full and m > n else Y.mT
    U = where(bad[..., None, None], math.nan, U)
    Vh = where(bad[..., None, None], math.nan, Vh)
    if wide:
        U, Vh = Vh.mT, U.mT
    return U.contiguous(), S, Vh.contiguous()


def _complete(Y, S, full, m, n):
    """The left singular vectors `U` (`[..., m, m]` where `full`, else
    `[..., m, n]`) of the sorted normalised rows `Y = U^T` and values `S`:
    the columns of `Y^T` where `σ > max(m, n) eps σ_max`; the columns of the
    smaller (zero) singular values, and where `full` the `m - n` more, are
    the eigenvectors of the projector `I - U_good U_good^T` of eigenvalue 1
    (`eigh`'s Jacobi, its last ones), orthonormal and orthogonal to the
    others. The projector's `eigh` runs only where it is needed (`full` and
    `m > n`, or a zero singular value: one flag read back)."""
    *batch, _, _ = Y.shape
    batch = tuple(batch)
    good = S > S[..., :1] * (max(m, n) * _eps(Y.dtype))
    if not ((full and m > n) or good.logical_not().any().item()):
        return Y.mT
    U = where(good[..., None, :], Y.mT, 0.0)
    if m > n:
        U = cat([U, U.new_zeros(batch + (m, m - n))], -1)
        good = cat([good, good.new_zeros(batch + (m - n,))], -1)
    P = _symmetric(eye(m, dtype=U.dtype, device=U.device) - U @ U.mT, "L", "linalg.svd")
    lam, Q = _jacobi_eigh(P, True)
    # the eigenvalues are 0 (the good columns' space) and 1: sorted ascending, the ones of 1 are the last
    Q = Q.gather(-1, lam.argsort(-1)[..., None, :].expand(*batch, m, m))
    U = where(good[..., None, :], U, Q)
    return U if full else U[..., :n]


def _no_driver(driver, op):
    if driver is not None:
        raise ArgumentError(f"{op}: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER "
                            f"backend (silt computes by Jacobi's method)")


def svd(A, full_matrices=True, *, driver=None) -> SVDResult:
    """`torch.linalg.svd(A, full_matrices=True, *, driver=None)`:
    `SVDResult(U, S, Vh)` with `A = U diag(S) Vh` of the matrices `A` (`[..., m, n]`, any batch
    dimensions): `S` the singular values descending (`[..., k]`, `k =
    min(m, n)`), `U` and `Vh` orthonormal (`[..., m, m]` and `[..., n, n]`,
    or `[..., m, k]` and `[..., k, n]` where not `full_matrices`; each
    singular vector of either sign). silt-kernels' `svd`: Hestenes'
    one-sided Jacobi method on the columns (of `A^T` where `m < n`) in the
    round-robin order, a matrix a work-item (a work-group on a GPU), every
    matrix of the batch in one launch, each divided by its largest `|value|` first; the sweeps
    stop where no two columns have a `|cos|` above `max(m, n)` eps (at most
    30; 5 to 10 usually). `S` are the columns' norms, `V` the product of
    the rotations, `U` the normalised columns, completed by Gram-Schmidt
    where singular values are (nearly) zero and by an orthonormal basis of
    the rest (the eigenvectors of the projector on it, by `eigh`) where
    `full_matrices` asks for more columns. An empty matrix gives
    identities, as PyTorch's; a matrix holding NaN or an infinity gives
    NaN. `driver` (cuSOLVER's, for CUDA) must be None. Float16 is computed
    in float32, rounded once."""
    op = "linalg.svd"
    _no_driver(driver, op)
    x = _matrices(A, op, square=False)
    U, S, Vh = _svd(x, True, bool(full_matrices))
    return SVDResult(_narrow(U, x.dtype), _narrow(S, x.dtype), _narrow(Vh, x.dtype))


def polar(A) -> PolarResult:
    """`torch.linalg.polar(A)`: `PolarResult(U, H)` with `A = U H` of the
    matrices `A` (`[..., m, n]`, `m >= n`, any batch dimensions): `U` with
    orthonormal columns (`[..., m, n]`, the nearest such matrix to `A`) and
    `H` symmetric positive-semidefinite (`[..., n, n]`), from the reduced
    SVD `A = W diag(S) Vh` as PyTorch's on the CPU: `U = W Vh`, `H = Vh^T
    diag(S) Vh`. `m < n` raises `silt.ArgumentError`; a matrix holding NaN
    or an infinity gives NaN; float16 is computed in float32, rounded
    once."""
    op = "linalg.polar"
    x = _matrices(A, op, square=False)
    m, n = x.shape[-2:]
    if m < n:
        raise ArgumentError(f"{op}: input must have at least as many rows as columns, but got {m} by {n} matrices")
    W, S, Vh = _svd(x, True, False)
    return PolarResult(_narrow(W @ Vh, x.dtype), _narrow(Vh.mT @ (S[..., :, None] * Vh), x.dtype))


def svdvals(A, *, driver=None) -> Tensor:
    """`torch.linalg.svdvals(A, *, driver=None)`: the singular values,
    descending (`[..., min(m, n)]`), of the matrices `A`: `svd`'s Jacobi
    method without the vectors (the columns' rotations only). `driver`
    (cuSOLVER's, for CUDA) must be None."""
    op = "linalg.svdvals"
    _no_driver(driver, op)
    x = _matrices(A, op, square=False)
    return _narrow(_svd(x, False, False)[1], x.dtype)


def _svd_torch(input, some=True, compute_uv=True):
    """`torch.svd(input, some=True, compute_uv=True)` (and `Tensor.svd`):
    `(U, S, V)` with `input = U diag(S) V^T`, `linalg.svd`'s with `V =
    Vh^T`: the reduced matrices where `some` (`U [..., m, k]`, `V [..., n,
    k]`), the full ones where not. Without `compute_uv`, `U` and `V` are
    zeros of `[..., m, m]` and `[..., n, n]` (`some` has no effect), as
    PyTorch's."""
    x = _matrices(input, "svd", square=False)
    *batch, m, n = x.shape
    if not compute_uv:
        S = _svd(x, False, False)[1]
        return _TorchSVD(x.new_zeros(tuple(batch) + (m, m)), _narrow(S, x.dtype),
                         x.new_zeros(tuple(batch) + (n, n)))
    U, S, Vh = _svd(x, True, not some)
    return _TorchSVD(_narrow(U, x.dtype), _narrow(S, x.dtype), _narrow(Vh.mT.contiguous(), x.dtype))


# ---- pseudo-inverses, ranks, condition numbers, norms ----------------------------

def _tolerance(x, S_max, atol, rtol, op):
    """`max(atol, rtol σ_max)` (`[..., 1]`), PyTorch's `atol` and `rtol`:
    numbers or tensors broadcast to the batch; `rtol` by default eps of the
    input's dtype times `max(m, n)`, or 0 where `atol` is given and `> 0`."""
    m, n = x.shape[-2:]
    default = _eps(x.dtype) * max(m, n)

    def value(v, name):
        if v is None:
            return None
        if isinstance(v, Tensor):
            if v.dtype.kind not in "fiub":
                raise DTypeError(f"{op}: {name} tensor of complex type is not supported")
            return v.astype(S_max.dtype)
        if not _is_number(v) or isinstance(v, complex):
            raise TypeError(f"{op}: {name} must be a number or a tensor, not {type(v).__name__}")
        return float(v)

    a, r = value(atol, "atol"), value(rtol, "rtol")
    if r is None:
        if a is None:
            r = default
        elif isinstance(a, Tensor):
            r = where(a > 0, 0.0, default)
        else:
            r = 0.0 if a > 0 else default
    if a is None:
        a = 0.0
    a = a[..., None] if isinstance(a, Tensor) else a
    r = r[..., None] if isinstance(r, Tensor) else r
    t = S_max * r
    return t.maximum(a) if isinstance(a, Tensor) else t.clamp_min(a)


def pinv(A, *, atol=None, rtol=None, hermitian=False) -> Tensor:
    """`torch.linalg.pinv(A, *, atol=None, rtol=None, hermitian=False)`:
    the pseudo-inverses (`[..., n, m]`) of the matrices `A` (`[..., m, n]`),
    `V diag(1/σ) U^T` over the singular values `σ > max(atol, rtol σ_max)`
    of `svd` (the others count as 0). `rtol` is by default eps times
    `max(m, n)`, or 0 where only `atol` (`> 0`) is given, as PyTorch's; both
    may be tensors broadcast to the batch. With `hermitian` the matrices are
    taken as symmetric (the lower triangle read) and `eigh`'s `|λ|` are the
    singular values: `V diag(1/λ) V^T`. Float16 is computed in float32,
    rounded once."""
    op = "linalg.pinv"
    x = _matrices(A, op, square=bool(hermitian))
    *batch, m, n = x.shape
    if x.numel() == 0:
        return x.new_zeros(tuple(batch) + (n, m))
    if hermitian:
        w, V = _eigh(x, "L", True, op)
        mag = w.abs()
        tol = _tolerance(x, mag.amax(-1, keepdim=True), atol, rtol, op)
        inv = where(mag > tol, w.reciprocal(), 0.0)
        r = (V * inv[..., None, :]) @ V.mT
    else:
        U, S, Vh = _svd(x, True, False, complete=False)
        tol = _tolerance(x, S[..., :1], atol, rtol, op)
        inv = where(S > tol, S.reciprocal(), 0.0)
        r = (Vh.mT * inv[..., None, :]) @ U.mT
    return _narrow(r.contiguous(), x.dtype)


def _pinverse(input, rcond=1e-15):
    """`torch.pinverse(input, rcond=1e-15)` (and `Tensor.pinverse`):
    `linalg.pinv(input, rtol=rcond)`, the singular values below `rcond`
    times the largest counted as 0."""
    return pinv(input, atol=0.0, rtol=rcond)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False) -> Tensor:
    """`torch.linalg.matrix_rank(A, *, atol=None, rtol=None,
    hermitian=False)`: the ranks (int64, `[...]`) of the matrices `A`, the
    number of singular values (`svdvals`; `|λ|` of `eigvalsh` with
    `hermitian`) above `max(atol, rtol σ_max)`, `pinv`'s tolerance. A
    matrix holding NaN or an infinity raises `LinAlgError` (one flag read
    back), as PyTorch's."""
    op = "linalg.matrix_rank"
    x = _matrices(A, op, square=bool(hermitian))
    *batch, m, n = x.shape
    if x.numel() == 0:
        return x.new_zeros(tuple(batch), dtype=np.int64)
    if _bad(x).any().item():
        # a rank is no float: no NaN to give, so an error, as PyTorch's
        raise LinAlgError(f"{op}: the input matrix contains non-finite values (NaN or infinity): it has no rank")
    S = _eigh(x, "L", False, op)[0].abs() if hermitian else _svd(x, False, False)[1]
    tol = _tolerance(x, S.amax(-1, keepdim=True), atol, rtol, op)
    return (S > tol).sum(-1).astype(np.int64)


def _spectral(x, ord):
    """The norm of order 2, -2 or 'nuc' (`'nuc'`) of the matrices in the
    last two dimensions of `x` (working dtype), from `svdvals`; an empty
    matrix gives 0."""
    *batch, m, n = x.shape
    if min(m, n) == 0:
        return x.new_zeros(tuple(batch), dtype=_F32 if x.dtype == np.float16 else x.dtype)
    S = _svd(x, False, False)[1]
    if ord == "nuc":
        return S.sum(-1)
    return S[..., 0] if ord > 0 else S[..., -1]


def _spectral_matrix_norm(t, ord, d0, d1, keepdim):
    """`matrix_norm`'s orders `2` (the largest singular value), `-2` (the
    smallest) and `'nuc'` (their sum) of the matrices in the dimensions
    `d0` (rows), `d1` (columns) of the float tensor `t` (non-negative
    dimension indices), moved last for `svdvals`; with `keepdim` the two
    dimensions stay, of size 1. An empty matrix gives 0. Float16 in
    float32, rounded once."""
    if ord == -2 and min(t.shape[d0], t.shape[d1]) == 0:
        raise ArgumentError("linalg.matrix_norm: the order -2 norm of matrices with no rows or no columns has no "
                            "value (the smallest of no singular values)")
    r = _spectral(t.movedim((d0, d1), (-2, -1)), ord)
    if keepdim:
        r = r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
    return _narrow(r, t.dtype)


def _nuclear_norm(input, dim=None, keepdim=False):
    """`torch.nuclear_norm(input, dim=None, keepdim=False)` (and
    `Tensor.nuclear_norm`): the sum of the singular values of the matrices
    in the two dimensions `dim` of `input` (the last two without `dim`, as
    PyTorch's), `linalg.matrix_norm(input, 'nuc', dim, keepdim)`."""
    op = "nuclear_norm"
    t = _float(_input(input, ()), op)
    if isinstance(dim, bool):
        dim, keepdim = None, dim  # torch.nuclear_norm(input, keepdim), its other overload
    if dim is None:
        dim = (-2, -1)
    if t.ndim < 2:
        raise ArgumentError(f"{op}: The input tensor A must have at least 2 dimensions.")
    d0, d1 = _matrix_dims(t, dim, op)
    return _spectral_matrix_norm(t, "nuc", d0, d1, keepdim)


def cond(A, p=None) -> Tensor:
    """`torch.linalg.cond(A, p=None)`: the condition numbers (`[...]`) of
    the matrices `A`: for `p` None or `2` the ratio of the largest singular
    value to the smallest (`svdvals`; inf where the smallest is 0), for `-2`
    the inverse ratio, any `m` x `n`; for `'fro'`, `'nuc'`, `inf`, `-inf`,
    `1`, `-1` (square matrices only) `matrix_norm(A, p) *
    matrix_norm(inv(A), p)`, inf for a singular matrix (a zero pivot of the
    elimination), as PyTorch's. An empty matrix gives 0, as PyTorch's;
    another `p` raises `silt.ArgumentError`. Float16 in float32, rounded
    once."""
    op = "linalg.cond"
    x = _matrices(A, op, square=False)
    *batch, m, n = x.shape
    batch = tuple(batch)
    if p is None:
        p = 2
    spectral = not isinstance(p, str) and _is_number(p) and not isinstance(p, bool) and p in (2, -2)
    if not spectral and p not in ("fro", "nuc") and not (
            not isinstance(p, (str, bool)) and _is_number(p) and p in (1, -1, _INF, -_INF)):
        raise ArgumentError(f"{op} got an invalid norm type: {p}")
    if not spectral and m != n:
        raise ArgumentError(f"{op}(ord={p}): A must be batches of square matrices, but they are {m} by {n} "
                            f"matrices")
    if x.numel() == 0:
        return x.new_zeros(batch)
    w = x.astype(_F32) if x.dtype == np.float16 else x
    if spectral:
        S = _svd(w, False, False)[1]
        r = S[..., 0] / S[..., -1] if p == 2 else S[..., -1] / S[..., 0]
        return _narrow(r, x.dtype)

    def norm(t):
        return _spectral(t, "nuc") if p == "nuc" else matrix_norm(t, p)

    X, info = inv_ex(w)
    singular = info > 0  # a zero pivot: inf, as PyTorch's
    r = norm(w) * norm(where(singular[..., None, None], 0.0, X))
    return _narrow(where(singular, _INF, r), x.dtype)


# silt.NAME as torch.NAME (the integrator attaches them, and the tensor methods)
TORCH = {"svd": _svd_torch, "pinverse": _pinverse, "nuclear_norm": _nuclear_norm}

"""PyTorch's QR family in ``torch.linalg``: the Householder QR factorisation
(``qr``, and torch's ``geqrf``, ``qr``), the products with its ``Q``
(``householder_product`` (torch's ``orgqr``), torch's ``ormqr``), the least
squares solutions (``lstsq``) and the matrix exponential (``matrix_exp``).
Each runs on the input's device, every matrix of a batch at once: the
factorisation and ``Q`` are silt-kernels' ``geqrf`` and
``householder_product`` (a matrix a work-item, one launch each); the column
pivoting of ``lstsq``'s ``'gelsy'`` is composed, one column a round.
LAPACK's conventions (``dgeqrf``/``dlarfg``): the reflector of column ``k`` is ``H = I - tau v
v^T`` with ``v_0 = 1`` (not stored), ``beta = -sign(alpha) hypot(alpha,
|x|)`` on the diagonal (``sign(0) = +``), the ``v``'s below it; a column
that is already 0 below the diagonal gets ``tau = 0`` (``H = I``). ``R``
and ``Q`` therefore have LAPACK's signs, as PyTorch's and NumPy's.

Float16 is computed in float32 and rounded once (PyTorch refuses it);
integer and bool inputs raise ``silt.DTypeError``. No complex dtypes. The
``lstsq`` drivers by singular values (``'gelsd'``, ``'gelss'``) use
``_linalg_jacobi``'s ``svd``. The torch-level forms (``silt.qr``,
``silt.geqrf``, ``silt.orgqr``, ``silt.ormqr``, ``silt.matrix_exp``, ...
``TORCH``) become tensor methods
too.

>>> import silt
>>> from silt._linalg_qr import qr
>>> Q, R = qr(silt.tensor([[0.0, 2.0], [4.0, 1.0]], device="host"))
>>> R.tolist()
[[-4.0, -1.0], [0.0, -2.0]]
>>> Q.tolist()
[[0.0, -1.0], [-1.0, 0.0]]
"""

import collections
import math

import numpy as np

from ._silt import ArgumentError, DTypeError, Tensor, ops as _ops
from ._creation import arange, cat, eye
from ._functions import _input, where
from .linalg import (
    LinAlgError, _F32, _batch, _first, _float, _matrices, _narrow, _prefix, _solve_lower_, _solve_unchecked,
    _solve_upper_, _wide,
)

__all__ = ["LstsqResult", "QRResult", "householder_product", "lstsq", "matrix_exp", "qr"]

QRResult = collections.namedtuple("QRResult", ["Q", "R"])
QRResult.__doc__ = "`(Q, R)` of `qr`, as PyTorch's `torch.return_types.linalg_qr`."
GeqrfResult = collections.namedtuple("GeqrfResult", ["a", "tau"])
GeqrfResult.__doc__ = "`(a, tau)` of `geqrf`, as PyTorch's `torch.return_types.geqrf`."
LstsqResult = collections.namedtuple("LstsqResult", ["solution", "residuals", "rank", "singular_values"])
LstsqResult.__doc__ = ("`(solution, residuals, rank, singular_values)` of `lstsq`, as PyTorch's "
                       "`torch.return_types.linalg_lstsq`.")

_MODES = ("reduced", "complete", "r")
_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _count(shape):
    return math.prod(tuple(shape))


# ---- the column steps -------------------------------------------------------

def _reflect_(W, tau, k, keep=None):
    """LAPACK's `dlarfg` and `dlarf` on column `k` of `W` (a new row-major
    float tensor `[..., m, n]`, written in place): the reflector `H = I -
    tau v v^T` that takes `(alpha, x) = W[k:, k]` to `(beta, 0)`, `beta =
    -sign(alpha) hypot(alpha, |x|)`, `tau = (beta - alpha) / beta`, `v = x /
    (alpha - beta)` stored over `x`, `beta` over `alpha`; where `|x| = 0`,
    `tau = 0` and the column stays. `|x|` is the norm of `x` scaled by its
    largest `|value|` (no overflow nor underflow). The trailing columns
    `W[k:, k+1:]` become `H W[k:, k+1:]` by one broadcast product; `tau`
    (`[..., min(m, n)]`) gets `tau[k]`."""
    n = W.shape[-1]
    alpha = W[..., k:k + 1, k:k + 1]
    x = W[..., k + 1:, k:k + 1]
    a = alpha.clone()
    big = x.abs().amax(-2, keepdim=True)
    zero = big == 0
    big = where(zero, 1.0, big)
    xnorm = (x / big).square().sum(-2, keepdim=True).sqrt() * big
    h = a.hypot(xnorm)
    beta = where(a >= 0, -h, h)
    t = where(zero, 0.0, (beta - a) / beta)
    x.div_(where(zero, 1.0, a - beta))
    if k + 1 < n:
        alpha.fill_(1)
        v = W[..., k:, k:k + 1]
        rest = W[..., k:, k + 1:]
        rest.sub_((v * t) @ (v.mT @ rest))
    alpha.copy_(where(zero, a, beta))
    tau[..., k:k + 1].copy_(t[..., 0])


def _geqrf(W):
    """Householder QR of the float matrices `W` (a new row-major tensor of
    the working dtype, written in place) by silt-kernels' `geqrf` (LAPACK's
    `dgeqrf`, a matrix a work-item, one launch): `R` on and above the
    diagonal, the `v`'s below it; returns `tau` `[..., min(m, n)]`."""
    r, tau = _ops.geqrf(W)
    W.copy_(r)
    return tau


def _geqp3(W):
    """Householder QR with column pivoting (LAPACK's `dgeqp3`) of `W` (new,
    row-major, written in place): at step `k` the remaining column of the
    largest norm below row `k` (the first of equal ones; the norms
    recomputed, of the matrix scaled by its largest `|value|`) is swapped
    with column `k` (one `gather` of the columns in their new order), then
    reflected. Returns `(tau, perm)`, `perm` int64 `[..., n]` the column of
    `A` at each place (`A[:, perm] = Q R`)."""
    *batch, m, n = W.shape
    batch = tuple(batch)
    k = min(m, n)
    tau = W.new_zeros(batch + (k,))
    cols = arange(n, device=W.device)
    perm = cols.broadcast_to(batch + (n,)).clone()
    if W.numel() == 0:
        return tau, perm
    scale = W.abs().amax(-1, keepdim=True).amax(-2, keepdim=True)
    scale = where((scale > 0).logical_and(scale.isfinite()), scale, 1.0)
    for j in range(k):
        rest = W[..., :, j:]
        p = (W[..., j:, j:] / scale).square().sum(-2).argmax(-1, keepdim=True)  # counted from j
        order = where(cols[:n - j] == p, cols[0], cols[:n - j])  # cols[0]: a 0 on the device
        order[..., :1].copy_(p)
        rest.copy_(rest.gather(-1, order[..., None, :].expand(*batch, m, n - j)))
        tail = perm[..., j:]
        tail.copy_(tail.gather(-1, order))
        if j < m - 1:
            _reflect_(W, tau, j)
    return tau, perm


def _reflectors(W, k):
    """The first `k` reflectors' `v`'s below the diagonal of `W` as
    columns, with their implicit 1 (`[..., m, k]`, new)."""
    V = W[..., :, :k].tril(-1)
    V.diagonal(dim1=-2, dim2=-1).fill_(1)
    return V


def _apply_q_(V, tau, C, transpose):
    """`C := Q C` (`Q^T C` where `transpose`) in place, `Q = H_1 ... H_k`
    of the reflectors `V` (`[..., m, k]`, below the diagonal) and `tau`
    (`[..., k]`), `C` `[..., m, c]` of the broadcast batch, as LAPACK's
    `dormqr`: the square `Q` formed (`_form_q`), then one product."""
    Q = _form_q(V, tau, V.shape[-2])
    C.copy_((Q.mT if transpose else Q) @ C)
    return C


def _form_q(W, tau, ncols):
    """The first `ncols` columns of `Q = H_1 ... H_k` (`[..., m, ncols]`,
    new, `k <= ncols <= m`) of the reflectors below the diagonal of `W`
    and `tau`, by silt-kernels' `householder_product` (LAPACK's `dorgqr`,
    a matrix a work-item, one launch); `W` padded with zero columns (no
    reflectors) where it has fewer than `ncols`."""
    *batch, m, n = W.shape
    if ncols > n:
        W = cat([W, W.new_zeros(tuple(batch) + (m, ncols - n))], -1)
    return _ops.householder_product(W[..., :ncols], tau)


def _same_dtype(t, x, message):
    if t.dtype != x.dtype:
        raise DTypeError(message)
    return t


# ---- QR ---------------------------------------------------------------------

def qr(A, mode="reduced") -> QRResult:
    """`torch.linalg.qr(A, mode='reduced')`: `QRResult(Q, R)` with `A = Q R`
    of the matrices `A` (`[..., m, n]`, any batch dimensions), `Q`
    orthonormal columns and `R` upper triangular, `k = min(m, n)`: for
    `mode='reduced'` `Q` is `[..., m, k]` and `R` `[..., k, n]`; for
    `'complete'` `Q` is `[..., m, m]` and `R` `[..., m, n]`; for `'r'` only
    `R` (`[..., k, n]`) and `Q` empty (shape `(0,)`), as PyTorch's.
    Householder QR by silt-kernels' `geqrf` on the device (LAPACK's
    `dgeqrf` conventions: the signs of `R`'s diagonal and `Q` are LAPACK's,
    as PyTorch's and NumPy's), then `Q` by `householder_product` (the
    reflectors applied backward to the identity's columns, `dorgqr`); one
    launch each. An unknown `mode` raises
    `silt.ArgumentError` with PyTorch's message. Float16 in float32, rounded
    once."""
    op = "linalg.qr"
    x = _matrices(A, op, square=False)
    if mode not in _MODES:
        raise ArgumentError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                            f"or 'complete'")
    m, n = x.shape[-2:]
    k = min(m, n)
    W = _wide(x)
    tau = _geqrf(W)
    R = (W if mode == "complete" else W[..., :k, :]).triu()
    if mode == "r":
        return QRResult(x.new_empty((0,)), _narrow(R, x.dtype))
    Q = _form_q(W, tau, m if mode == "complete" else k)
    return QRResult(_narrow(Q, x.dtype), _narrow(R, x.dtype))


def _qr_torch(input, some=True) -> QRResult:
    """`torch.qr(input, some=True)` (and `Tensor.qr`), the older form of
    `silt.linalg.qr`: the reduced factorisation where `some`, the complete
    one otherwise (`QRResult(Q, R)`)."""
    return qr(input, "reduced" if some else "complete")


def geqrf(input) -> GeqrfResult:
    """`torch.geqrf(input)` (and `Tensor.geqrf`): LAPACK's `geqrf` of the
    matrices `input` (`[..., m, n]`, any batch dimensions),
    `GeqrfResult(a, tau)`: `R` on and above the diagonal of `a`, below it
    the Householder vectors `v` (their leading 1 not stored), `tau` `[...,
    min(m, n)]`, so that `Q = H_1 ... H_k`, `H_i = I - tau_i v_i v_i^T`
    (`householder_product(a, tau)`, `ormqr`). One column a round on the
    device; float16 in float32, rounded once."""
    x = _input(input, ())
    _float(x, "geqrf")
    if x.ndim < 2:
        raise ArgumentError("torch.geqrf: input must have at least 2 dimensions.")
    W = _wide(x)
    tau = _geqrf(W)
    return GeqrfResult(_narrow(W, x.dtype), _narrow(tau, x.dtype))


def _check_tau(x, t, op):
    """PyTorch's checks of `tau` beside the reflectors `x`: one dimension
    less, the same batch dimensions, the same dtype."""
    if x.ndim - t.ndim != 1:
        raise ArgumentError(f"{op}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                            f"{t.ndim} and input.ndim is equal to {x.ndim}")
    if x.ndim > 2 and tuple(t.shape[:-1]) != tuple(x.shape[:-2]):
        raise ArgumentError(f"{op}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
                            f"{list(t.shape[:-1])}")


def householder_product(A, tau) -> Tensor:
    """`torch.linalg.householder_product(A, tau)` (and torch's `orgqr`): the
    first `n` columns of `H_1 ... H_k`, `H_i = I - tau_i v_i v_i^T`, the
    `v_i` below the diagonal of the columns of `A` (`[..., m, n]`, their
    leading 1 implicit; the rest of `A` not read), `tau` `[..., k]` of `A`'s
    batch dimensions and dtype (`m >= n >= k`): `Q` from `geqrf`'s result.
    The reflectors applied backward to the identity's columns (LAPACK's
    `dorgqr`) by silt-kernels' `householder_product`, a matrix a work-item,
    one launch. Shapes and dtypes
    are checked as PyTorch's (`silt.ArgumentError`, `silt.DTypeError`, its
    messages). Float16 in float32, rounded once."""
    op = "torch.linalg.householder_product"
    x = _input(A, (tau,))
    t = _input(tau, (x,))
    if x.ndim < 2:
        raise ArgumentError(f"{op}: input must have at least 2 dimensions.")
    _float(x, op)
    m, n = x.shape[-2:]
    if m < n:
        raise ArgumentError(f"{op}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if t.ndim < 1 or n < t.shape[-1]:
        raise ArgumentError(f"{op}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    _check_tau(x, t, op)
    _same_dtype(t, x, f"{op}: tau dtype {t.dtype} does not match input dtype {x.dtype}")
    W = x.astype(_F32) if x.dtype == np.float16 else x
    tw = t.astype(_F32) if t.dtype == np.float16 else t
    return _narrow(_form_q(W, tw, n), x.dtype)


def _orgqr(input, tau) -> Tensor:
    """`torch.orgqr(input, tau)` (and `Tensor.orgqr`): the first `n` columns
    of the product of the Householder reflectors of `geqrf`'s `(a, tau)`,
    `silt.linalg.householder_product(input, tau)`."""
    return householder_product(input, tau)


def ormqr(input, tau, other, left=True, transpose=False) -> Tensor:
    """`torch.ormqr(input, tau, other, left=True, transpose=False)` (and
    `Tensor.ormqr`): `other` multiplied by `Q = H_1 ... H_k` of the
    Householder reflectors of `geqrf`'s `(input, tau)`:
    `Q @ other` (`left`), `other @ Q` (not `left`), with `Q^T` where
    `transpose`. `input` is `[..., mn, k']` with `k <= k'` reflectors (`tau`
    `[..., k]`), `other` `[..., mn, c]` (`[..., c, mn]` for `left=False`),
    of `input`'s batch dimensions (no broadcasting, as PyTorch's) and dtype.
    The square `Q` formed by `householder_product`, then one `matmul`, every
    matrix of a batch at once. Shapes and dtypes are checked as PyTorch's
    (`silt.ArgumentError`, `silt.DTypeError`, its messages). Float16 in
    float32, rounded once."""
    op = "torch.ormqr"
    x = _input(input, (tau, other))
    t = _input(tau, (x,))
    c = _input(other, (x,))
    if x.ndim < 2:
        raise ArgumentError(f"{op}: input must have at least 2 dimensions.")
    if c.ndim < 2:
        raise ArgumentError(f"{op}: other must have at least 2 dimensions.")
    _float(x, op)
    side = -2 if left else -1
    k = t.shape[-1] if t.ndim else 0
    if c.shape[side] < k:
        raise ArgumentError(f"{op}: other.shape[{side}] must be greater than or equal to tau.shape[-1]")
    if c.shape[side] != x.shape[-2]:
        raise ArgumentError(f"{op}: other.shape[{side}] must be equal to input.shape[-2]")
    if k > x.shape[-1]:
        raise ArgumentError(f"{op}: tau.shape[-1] must be less than or equal to input.shape[-1]")
    if k != min(c.shape[side], x.shape[-1]):
        raise ArgumentError(f"{op}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])")
    _check_tau(x, t, op)
    if x.ndim != c.ndim:
        raise ArgumentError(f"{op}: Expected other to have the same number of dimensions as input, but got "
                            f"other.ndim equal to {c.ndim} and input.ndim is equal to {x.ndim}")
    if x.ndim > 2 and tuple(c.shape[:-2]) != tuple(x.shape[:-2]):
        raise ArgumentError(f"{op}: Expected batch dimensions of other to be equal to input.shape[:-2], but got "
                            f"{list(c.shape[:-2])}")
    _same_dtype(t, x, f"{op}: Expected input and tau to have the same dtype, but input has dtype{x.dtype} and tau "
                      f"has dtype {t.dtype}")
    _same_dtype(c, x, f"{op}: Expected input and other to have the same dtype, but input has dtype{x.dtype} and "
                      f"other has dtype {c.dtype}")
    W = x.astype(_F32) if x.dtype == np.float16 else x
    tw = t.astype(_F32) if t.dtype == np.float16 else t
    C = _wide(c if left else c.mT)
    # other @ Q = (Q^T other^T)^T: on the right, the transpose flips
    _apply_q_(_reflectors(W, k), tw, C, bool(transpose) == bool(left))
    return _narrow(C if left else C.mT.contiguous(), x.dtype)


# ---- least squares ----------------------------------------------------------

def _exponent(x):
    """The binary exponent `e` (int32, `[..., 1, 1]`) of the largest `|value|`
    of each matrix of `x`: that value is in `[2^(e-1), 2^e)` (frexp's; 0 for
    a zero, NaN or infinite largest value), read from its bits, exact on
    every device."""
    from ._extras import frexp
    return frexp(x.abs().amax((-2, -1), keepdim=True)).exponent


def _times_pow2(x, k):
    """`x * 2^k` for the int tensor `k` (broadcast): three factors of whole
    powers of two, each made from its bits and within the dtype's normal
    range, so each product is exact where the result is a normal number
    (`|k|` up to three times the largest exponent, which covers any ratio
    of two values and its square)."""
    from ._extras import _BITS
    idt, mbits, bias = _BITS[x.dtype]
    k = k.astype(np.int64)
    parts = [k // 3]
    parts.append((k - parts[0]) // 2)
    parts.append(k - parts[0] - parts[1])
    for part in parts:
        x = x * ((part + bias) << mbits).astype(idt).view(x.dtype)
    return x


def lstsq(A, B, rcond=None, *, driver=None) -> LstsqResult:
    """`torch.linalg.lstsq(A, B, rcond=None, *, driver=None)`:
    `LstsqResult(solution, residuals, rank, singular_values)`, the `X`
    minimising `||A X - B||_F` for the matrices `A` (`[..., m, n]`) and `B`
    (`[..., m, k]`, the batches broadcast; a batch of vectors where `B` is
    1-d or has `A`'s shape without its last dimension, as PyTorch's rule,
    giving vectors `[..., n]`; any other `B` of one dimension less than `A`
    raises `silt.ArgumentError`). `B` must have `A`'s dtype.

    The drivers, as PyTorch's on the CPU (the default `'gelsy'`):

    * `'gels'` (`A` of full rank): `m >= n`: Householder QR of `A`, `X = R^-1
      (Q^T B)` by back substitution; `m < n`: the minimum-norm solution from
      the QR of `A^T`, `X = Q (R^-T B)`. A zero on `R`'s diagonal raises
      `LinAlgError` (a `silt.ArgumentError`), as PyTorch's (one flag read
      back). `residuals` `[..., k]` (`[..., 1]` for vectors) are the squared
      norms of `Q^T B`'s rows below `n` where `m > n`, else empty; `rank` is
      empty.
    * `'gelsy'`: QR with column pivoting, the rank `r` = the number of
      `|R_ii| > rcond |R_11|` (`rcond` the precision of `A`'s dtype times
      `max(m, n)` where None; LAPACK estimates the condition of `R_11`
      instead: the same rank but for borderline matrices), `R`'s rows past
      `r` dropped, and the minimum-norm solution of `R[:r] z = (Q^T B)[:r]`
      by the QR of `R[:r]^T` (LAPACK's complete orthogonal factorisation):
      the minimum-norm least squares solution of rank-deficient `A` too.
      `rank` int64 of `A`'s batch dimensions; `residuals` empty, as
      PyTorch's for this driver.
    * `'gelsd'`, `'gelss'`: by `svd` (one-sided Jacobi), the minimum-norm
      solution `V diag(1/s) U^T B` over the singular values `s > rcond
      s_max`; `rank` their count, `singular_values` `[..., min(m, n)]`
      (descending); `residuals` where `m > n` and every matrix has rank `n`
      (one flag read back), else empty.

    `singular_values` is empty (shape `(0,)`) for the other drivers. Each
    matrix of `A` and of `B` is first scaled by a power of two (exactly) to
    a largest `|value|` in `[0.5, 1)`, as LAPACK scales matrices near under-
    or overflow, so subnormal and huge matrices are solved as accurately as
    others. A matrix holding NaN or an infinity gives a NaN solution with
    every driver. Every step runs on the device, every matrix of a batch at
    once. Float16 in float32, rounded once."""
    op = "torch.linalg.lstsq"
    a = _input(A, (B,))
    b = _input(B, (a,))
    if a.ndim < 2:
        raise ArgumentError(f"{op}: input must have at least 2 dimensions.")
    if b.ndim < 1:
        raise ArgumentError(f"{op}: other must have at least 1 dimension.")
    if b.dtype != a.dtype:
        raise DTypeError(f"{op}: Expected input and other to have the same dtype, but got input's dtype {a.dtype} "
                         f"and other's dtype {b.dtype}")
    _float(a, op)
    diff = a.ndim - b.ndim
    if not 0 <= diff <= 1:
        raise ArgumentError(f"{op}: input.dim() must be greater or equal to other.dim() and "
                            f"(input.dim() - other.dim()) <= 1")
    m, n = a.shape[-2:]
    if (b.shape[-1] if diff else b.shape[-2]) != m:
        raise ArgumentError(f"{op}: input.size(-2) should match other.size({-1 if diff else -2})")
    vector = b.ndim == 1 or (diff == 1 and tuple(b.shape) == tuple(a.shape[:-1]))
    if diff and not vector:
        raise ArgumentError(f"{op}: other of shape {tuple(b.shape)} is neither a batch of vectors (A's shape "
                            f"{tuple(a.shape[:-1])} without its last dimension) nor of matrices (A's number of "
                            f"dimensions)")
    drv = "gelsy" if driver is None else str(driver).lower()
    if drv not in _DRIVERS:
        raise ArgumentError(f"{op}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    tol = float(np.finfo(a.dtype).eps) * max(m, n) if rcond is None else float(rcond)
    b2 = b[..., None] if vector else b
    nrhs = b2.shape[-1]
    abatch = tuple(a.shape[:-2])
    batch = _batch(abatch, b2.shape[:-2], op=op)
    dt = a.dtype
    aw = a.astype(_F32) if dt == np.float16 else a
    bw = b2.astype(_F32) if dt == np.float16 else b2
    empty = a.new_empty((0,))
    residual = m > n and drv != "gelsy"
    rank = a.new_zeros(abatch, dtype=np.int64) if drv != "gels" else a.new_empty((0,), dtype=np.int64)
    by_sv = drv in ("gelsd", "gelss")
    from ._linalg_jacobi import svd, svdvals  # imported after this module (both follow linalg's helpers)
    if m == 0 or n == 0 or nrhs == 0 or _count(batch) == 0:
        # LAPACK returns at once, B zeroed: a zero solution, zero residuals where there are any
        sv = empty
        if by_sv:
            sv = _narrow(svdvals(aw), dt) if m and n and _count(abatch) else a.new_zeros(abatch + (min(m, n),))
            rank = (sv > sv[..., :1] * tol).astype(np.int64).sum(-1) if m and n else rank
        elif drv == "gelsy" and m and n and _count(abatch):
            rank = _rank(aw, tol)[-1]
        X = a.new_zeros(batch + (n, nrhs))
        res = a.new_zeros(batch + (nrhs,)) if residual else empty
        if residual and by_sv and n == 0:
            # no columns: the residuals are B's squared norms, as PyTorch's (its gels gives zeros)
            res = _narrow(bw.square().sum(-2).broadcast_to(batch + (nrhs,)).contiguous(), dt)
        return LstsqResult(X[..., 0] if vector else X, res, rank, sv)
    # each matrix of A and of B scaled by a power of two to a largest |value| in [0.5, 1), exactly, as
    # LAPACK scales matrices near under- or overflow: X = X' 2^(eb - ea), residuals res' 4^eb, S S' 2^ea
    ea, eb = _exponent(aw), _exponent(bw)
    aw = _times_pow2(aw, -ea)
    C = _times_pow2(bw, -eb).broadcast_to(batch + (m, nrhs)).clone()
    unit = eb - ea
    res = empty
    if by_sv:
        # the minimum-norm solution by the singular values above rcond times the largest
        U, S, Vh = svd(aw, full_matrices=False)
        keep = S > S[..., :1] * tol
        inv = where(keep, 1.0 / where(keep, S, 1.0), 0.0)
        X = Vh.mT @ (inv[..., None] * (U.mT @ C))
        rank = keep.astype(np.int64).sum(-1)
        if m > n and (rank == n).all().item():
            res = _times_pow2((aw @ X - C).square().sum(-2), 2 * eb[..., 0, :])
        X = _narrow(_times_pow2(X, unit), dt)
        S = _times_pow2(S, ea[..., 0, :])
        return LstsqResult(X[..., 0] if vector else X, _narrow(res, dt), rank, _narrow(S, dt))
    if drv == "gels":
        W = _wide(aw if m >= n else aw.mT)
        tau = _geqrf(W)
        k = min(m, n)
        zero = _first(W.diagonal(dim1=-2, dim2=-1) == 0)
        if zero is not None:
            raise LinAlgError(f"{op}: {_prefix(_count(abatch) > 1, zero[0])}The least squares solution could not be "
                              f"computed because the input matrix does not have full rank (error code: {zero[1]}).")
        if m >= n:
            _apply_q_(_reflectors(W, k), tau, C, True)
            X = _solve_upper_(W[..., :n, :n], C[..., :n, :], False).contiguous()
            if m > n:
                res = _times_pow2(C[..., n:, :].square().sum(-2), 2 * eb[..., 0, :])
        else:
            _solve_lower_(W[..., :m, :m].mT, C, False)
            X = cat([C, C.new_zeros(batch + (n - m, nrhs))], -2)
            _apply_q_(_reflectors(W, k), tau, X, False)
    else:
        X, r = _gelsy(aw, C, tol)
        rank = r
        # NaN or an infinity in A leaves no rank to trust (the test of R's diagonal fails for every entry):
        # a NaN solution, as the other drivers give
        X = where(aw.isfinite().logical_not().any(-1).any(-1)[..., None, None], math.nan, X)
    X = _narrow(_times_pow2(X, unit), dt)
    return LstsqResult(X[..., 0] if vector else X, _narrow(res, dt), rank, empty)


def _rank(a, tol):
    """The QR with column pivoting of the matrices `a` (`_geqp3`) and their
    rank, the number of `|R_ii| > tol |R_11|` (`R_11` the largest):
    `(W, tau, perm, rank)`, `rank` int64 of `a`'s batch dimensions."""
    W = _wide(a)
    tau, perm = _geqp3(W)
    d = W.diagonal(dim1=-2, dim2=-1).abs()
    rank = (d > d[..., :1] * tol).astype(np.int64).sum(-1)
    return W, tau, perm, rank


def _gelsy(a, C, tol):
    """LAPACK's `gelsy` for the matrices `a` and the right-hand sides `C`
    (`[..., m, c]`, new, of the broadcast batch, overwritten): `(X, rank)`,
    `X` the minimum-norm least squares solutions (`[..., n, c]`) by QR with
    column pivoting, the rank from `R`'s diagonal, and the QR of the kept
    rows of `R` (transposed) for the minimum norm."""
    n = a.shape[-1]
    W, tau, perm, rank = _rank(a, tol)
    k = tau.shape[-1]
    keep = arange(k, device=W.device) < rank[..., None]  # the rows of R kept, [..., k]
    _apply_q_(_reflectors(W, k), tau, C, True)
    c = where(keep[..., None], C[..., :k, :], 0.0)
    T = where(keep[..., None], W[..., :k, :].triu(), 0.0)  # [..., k, n]: full row rank in its kept rows
    S = T.mT.contiguous()  # [..., n, k]
    tau2 = _geqrf(S)
    L = S[..., :k, :k].triu().mT.contiguous()  # T[kept] = L Z^T: L lower triangular
    diag = L.diagonal(dim1=-2, dim2=-1)
    diag.copy_(where(keep, diag, 1.0))  # the dropped rows give 0 (their row of L and of c is 0)
    _solve_lower_(L, c, False)
    Z = cat([c, c.new_zeros(tuple(c.shape[:-2]) + (n - k, c.shape[-1]))], -2)
    _apply_q_(_reflectors(S, k), tau2, Z, False)
    # X[perm[j]] = Z[j]: Z's rows gathered in the inverse order
    inverse = perm.argsort(-1)
    X = Z.gather(-2, inverse[..., None].expand(*Z.shape[:-2], n, Z.shape[-1]))
    return X, rank


# ---- the matrix exponential -------------------------------------------------

_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0,
           1.0)
_THETA13 = 5.371920351148152


def matrix_exp(A) -> Tensor:
    """`torch.linalg.matrix_exp(A)` (and `silt.matrix_exp`,
    `Tensor.matrix_exp`): the exponential `sum_k A^k / k!` of the square
    matrices `A` (any batch dimensions), by Higham's scaling and squaring
    (2005) with the [13/13] Pade approximant: `s` from the largest 1-norm
    of the batch (one number read back; every matrix scaled by the same
    `2^-s`, `s = max(0, ceil(log2(|A|_1 / 5.3719...)))`), `U` and `V` of
    the approximant from `A^2, A^4, A^6` (six products), `(V - U) X = V +
    U` solved by elimination with partial pivoting on the device, then `X`
    squared `s` times. A 1 x 1 matrix gives `exp` of its value, a 0 x 0 one
    an empty result. A matrix with infinities or NaN gives NaN (it does not
    set the scaling of the others, and raises nothing). Float16 in float32,
    rounded once."""
    op = "linalg.matrix_exp"
    x = _matrices(A, op)
    n = x.shape[-1]
    if x.numel() == 0:
        return x.clone()
    if n == 1:
        return _narrow(_wide(x).exp(), x.dtype)
    W = _wide(x)
    norms = W.abs().sum(-2).amax(-1)
    big = where(norms.isfinite(), norms, 0.0).amax().item()
    s = max(0, math.ceil(math.log2(big / _THETA13))) if big > _THETA13 else 0
    if s:
        W.mul_(2.0 ** -s)
    b = _PADE13
    I = eye(n, dtype=W.dtype, device=W.device)
    A2 = W @ W
    A4 = A2 @ A2
    A6 = A4 @ A2
    U = W @ (A6 @ (b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * I)
    V = A6 @ (b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * I
    # (V - U) X = V + U by silt-kernels' lu_factor and lu_solve (a zero pivot, only from NaN or inf, gives NaN)
    X = _solve_unchecked(V - U, V + U)
    for _ in range(s):
        X = X @ X
    return _narrow(X.contiguous(), x.dtype)


# ---- torch's forms: silt.qr, silt.geqrf, ..., and the tensor methods ----------

# silt.NAME as torch.NAME (each also Tensor.NAME)
TORCH = {"qr": _qr_torch, "geqrf": geqrf, "orgqr": _orgqr, "ormqr": ormqr, "matrix_exp": matrix_exp}

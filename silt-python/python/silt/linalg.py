"""PyTorch's ``torch.linalg`` namespace: the LU factorisation with partial
pivoting (``lu_factor``, ``lu``, ``lu_solve`` and the ``_ex`` forms), the
determinants (``det``, ``slogdet``), ``inv``, ``solve``, ``cholesky``,
``solve_triangular``, ``tensorinv``, ``tensorsolve``, ``matrix_power``,
the norms (``vector_norm``, ``matrix_norm``, ``norm``), the aliases of
silt's operations (``vecdot``, ``cross``, ``multi_dot``, ``diagonal``,
``matmul``, ``vander``); the QR family (``qr``, ``householder_product``,
``lstsq``, ``matrix_exp``: ``_linalg_qr``) and the decompositions by
eigenvalues and singular values (``eigh``, ``eigvalsh``, ``svd``,
``svdvals``, ``pinv``, ``matrix_rank``, ``cond``: ``_linalg_jacobi``).
Each runs on the input's device, every matrix of a batch at once, on
silt-kernels' factorisations (``silt.ops``: ``lu_factor``, ``lu_solve``,
``cholesky_ex``, ``solve_triangular``, ``geqrf``, ``householder_product``,
``eigh``, ``svd``; one launch each, a matrix a work-item, or on a GPU a
work-group for ``lu_factor``) and silt's tensor operations (``gelsy``'s
column pivoting is one column a round), and only a flag is read back to
raise ``LinAlgError`` (a ``silt.ArgumentError``) for a singular matrix or
one that is not positive-definite.

Float16 is computed in float32 and rounded once (PyTorch refuses it);
integer and bool inputs raise ``silt.DTypeError``, as PyTorch's. No
complex dtypes, so no ``eig``/``eigvals`` of general matrices. The
torch-level forms (``silt.det``, ``silt.inverse``, ``silt.svd``,
``silt.qr``, ... ``TORCH``) and the tensor methods (``Tensor.det``, ...)
are attached from here.

>>> import silt
>>> a = silt.tensor([[0.0, 2.0], [4.0, 1.0]], device="host")
>>> silt.linalg.det(a).item()
-8.0
>>> silt.linalg.solve(a, silt.tensor([2.0, 9.0], device="host")).tolist()
[2.0, 1.0]
"""

import collections
import math
import operator

import numpy as np

from ._silt import ArgumentError, DTypeError, Tensor, ops as _ops, tensor
from ._creation import arange, cat, eye
from ._functions import _input, broadcast_shapes, where
from ._methods import _dim_index
from ._more import chain_matmul, matrix_power
from ._operators import _is_number

__all__ = [
    "CholeskyInfo", "InverseInfo", "LUPivots", "LUPivotsInfo", "LinAlgError", "PLU", "SignLogAbsDet",
    "SolveInfo", "LDLFactor", "LDLFactorInfo", "cholesky", "cholesky_ex", "cross", "det", "diagonal", "inv",
    "inv_ex", "ldl_factor", "ldl_factor_ex", "ldl_solve", "lu", "lu_factor",
    "lu_factor_ex", "lu_solve", "matmul", "matrix_norm", "matrix_power", "multi_dot", "norm", "slogdet",
    "solve", "solve_ex", "solve_triangular", "tensorinv", "tensorsolve", "vander", "vecdot", "vector_norm",
]

LUPivots = collections.namedtuple("LUPivots", ["LU", "pivots"])
LUPivots.__doc__ = "`(LU, pivots)` of `lu_factor`, as PyTorch's `torch.return_types.linalg_lu_factor`."
PLU = collections.namedtuple("PLU", ["P", "L", "U"])
PLU.__doc__ = "`(P, L, U)` of `lu`, as PyTorch's `torch.return_types.linalg_lu`."
LUPivotsInfo = collections.namedtuple("LUPivotsInfo", ["LU", "pivots", "info"])
LUPivotsInfo.__doc__ = "`(LU, pivots, info)` of `lu_factor_ex`, as PyTorch's `torch.return_types.linalg_lu_factor_ex`."
InverseInfo = collections.namedtuple("InverseInfo", ["inverse", "info"])
InverseInfo.__doc__ = "`(inverse, info)` of `inv_ex`, as PyTorch's `torch.return_types.linalg_inv_ex`."
SolveInfo = collections.namedtuple("SolveInfo", ["result", "info"])
SolveInfo.__doc__ = "`(result, info)` of `solve_ex`, as PyTorch's `torch.return_types.linalg_solve_ex`."
CholeskyInfo = collections.namedtuple("CholeskyInfo", ["L", "info"])
CholeskyInfo.__doc__ = "`(L, info)` of `cholesky_ex`, as PyTorch's `torch.return_types.linalg_cholesky_ex`."
LDLFactor = collections.namedtuple("LDLFactor", ["LD", "pivots"])
LDLFactor.__doc__ = "`(LD, pivots)` of `ldl_factor`, as PyTorch's `torch.return_types.linalg_ldl_factor`."
LDLFactorInfo = collections.namedtuple("LDLFactorInfo", ["LD", "pivots", "info"])
LDLFactorInfo.__doc__ = "`(LD, pivots, info)` of `ldl_factor_ex`, as PyTorch's `torch.return_types.linalg_ldl_factor_ex`."
SignLogAbsDet = collections.namedtuple("SignLogAbsDet", ["sign", "logabsdet"])
SignLogAbsDet.__doc__ = "`(sign, logabsdet)` of `slogdet`, as PyTorch's `torch.return_types.linalg_slogdet`."



class LinAlgError(ArgumentError):
    """`torch.linalg.LinAlgError`: a matrix the operation cannot take, a
    singular one (`inv`, `solve`, `lu_factor`) or one not positive-definite
    (`cholesky`). A `silt.ArgumentError` (PyTorch's is a `RuntimeError`)."""


_F32 = np.dtype(np.float32)
_INF = float("inf")


# ---- checks and dtypes ------------------------------------------------------

def _float(x, op, name="input"):
    if x.dtype.kind != "f":
        raise DTypeError(f"{op}: Expected a floating point tensor as {name}. Got {x.dtype}")
    return x


def _matrices(A, op, square=True, name="A"):
    """`A` as a tensor of float matrices (at least 2 dimensions; square
    unless told)."""
    x = _float(_input(A, ()), op, name)
    if x.ndim < 2:
        raise ArgumentError(f"{op}: The input tensor {name} must have at least 2 dimensions.")
    if square and x.shape[-1] != x.shape[-2]:
        raise ArgumentError(f"{op}: {name} must be batches of square matrices, but they are {x.shape[-2]} by "
                            f"{x.shape[-1]} matrices")
    return x


def _rhs(B, x, op, name="B"):
    """The right-hand side `B` beside the matrices `x`: a tensor on their
    device of their dtype (`silt.DTypeError` for another, as PyTorch's)."""
    b = _input(B, (x,))
    if b.dtype != x.dtype:
        raise DTypeError(f"{op}: Expected A and {name} to have the same dtype, but found A of type {x.dtype} and "
                         f"{name} of type {b.dtype} instead")
    return b


def _wide(x):
    """A new row-major copy to compute in: float16 as float32."""
    return x.astype(_F32) if x.dtype == np.float16 else x.clone()


def _narrow(r, dt):
    """A result computed in `_wide`'s dtype, in `dt` (rounded once)."""
    return r.astype(dt) if r.dtype != dt else r


def _batch(*shapes, op):
    try:
        return broadcast_shapes(*shapes)
    except ArgumentError:
        raise ArgumentError(f"{op}: the batch dimensions {' and '.join(str(tuple(s)) for s in shapes)} do not "
                            f"broadcast") from None


def _first(flags):
    """`(batch element, 1-based place)` of the first True of the last
    dimension of the bool tensor `flags`, or None: one flag read back (the
    places only when there is one)."""
    if flags.numel() == 0 or not flags.any().item():
        return None
    rows = flags.reshape(-1, flags.shape[-1]).astype(np.int32)
    b = int(rows.amax(-1).argmax().item())
    return b, int(rows[b].argmax().item()) + 1


def _check_rhs(b, n, left, op):
    """PyTorch's checks of the right-hand sides `b` of `n` x `n` systems:
    matrices, of `n` rows (`left`) or columns."""
    if b.ndim < 2:
        raise ArgumentError(f"{op}: The input tensor B must have at least 2 dimensions.")
    if (b.shape[-2] if left else b.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise ArgumentError(f"{op}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and "
                            f"{b.shape[-2]}x{b.shape[-1]})")


def _prefix(batched, b):
    return f"(Batch element {b}): " if batched else ""


# ---- the column steps -------------------------------------------------------

def _factor(x):
    """`(LU, pivots)` of the float matrices `x` (`[..., m, n]`, any view) by
    silt-kernels' `lu_factor` (LU with partial pivoting, one launch: a
    matrix a work-item on a CPU device, a work-group on a GPU): `LU` new,
    contiguous, in the working dtype (float16 as float32), `pivots` int32,
    1-based, as LAPACK's. A zero pivot leaves its column as it is."""
    return _ops.lu_factor(x.astype(_F32) if x.dtype == np.float16 else x)


def _lu_solved(LU, pivots, b, adjoint=False):
    """`A^-1 B` (`A^-T B` with `adjoint`) from `_factor`'s `(LU, pivots)`
    of `A` and the matrices `b` (the batches broadcast; float16 as
    float32) by silt-kernels' `lu_solve` (one launch): a new tensor; a zero
    pivot gives infinities or NaN."""
    return _ops.lu_solve(LU, pivots, b.astype(_F32) if b.dtype == np.float16 else b, adjoint)


def _solve_unchecked(A, B):
    """`A^-1 B` of square float matrices `A` and matrices `B` of one
    working dtype (the batches broadcast), without raising for a singular
    `A` (its solution holds infinities or NaN)."""
    LU, piv = _factor(A)
    return _lu_solved(LU, piv, B)


def _solve_lower_(L, X, unit):
    """`X := L^-1 X` in place, `L` lower triangular `[..., n, n]` (only its
    lower triangle read; a unit diagonal not read where `unit`), `X`
    `[..., n, k]` of the broadcast batch: silt-kernels' `solve_triangular`
    (forward substitution, a column a work-item, one launch)."""
    return X.copy_(_ops.solve_triangular(L, X, False, bool(unit)))


def _solve_upper_(U, X, unit):
    """`X := U^-1 X` in place, `U` upper triangular (only its upper triangle
    read): silt-kernels' `solve_triangular` (back substitution, one
    launch)."""
    return X.copy_(_ops.solve_triangular(U, X, True, bool(unit)))


def _permutation(pivots, n):
    """The rows the pivots (1-based int32 `[..., k]`, `k <= n`) bring to
    each of `n` places: `perm` (int64 `[..., n]`, on the pivots' device)
    with `LU = A[perm]`, by the swaps in order, done on the pivots read
    back (a few bytes a matrix)."""
    p = pivots.numpy().astype(np.int64) - 1
    batch = p.shape[:-1]
    perm = np.broadcast_to(np.arange(n, dtype=np.int64), batch + (n,)).copy()
    count = math.prod(batch)
    flat, pf = perm.reshape(count, n), p.reshape(count, p.shape[-1])
    rows = np.arange(count)
    for k in range(min(pf.shape[-1], n)):
        a, b = flat[rows, k].copy(), flat[rows, pf[:, k]].copy()
        flat[rows, k], flat[rows, pf[:, k]] = b, a
    return tensor(perm, device=pivots.device)


def _info(flags):
    """LAPACK's `info` of the bool tensor `flags` (`[..., n]`, True where a
    step failed): the 1-based place of the first True, 0 where there is
    none, int32 `[...]`, on the device (nothing read back)."""
    if flags.shape[-1] == 0:
        return flags.new_zeros(tuple(flags.shape[:-1]), dtype=np.int32)
    f = flags.astype(np.int32)
    return (f.argmax(-1) + 1).astype(np.int32) * f.amax(-1)


def _solved(x, b, op, left, what, check=True):
    """`A^-1 B` (or `B A^-1`) of the matrices `x` and the matrices `b` (the
    batches broadcast), by `_factor` and `_lu_solved` (two launches); a
    zero pivot raises `LinAlgError` where `check` (one flag read back),
    else the result is `(X, info)` (`info` as `_info`, the first zero
    pivot)."""
    if not left:
        x, b = x.mT, b.mT
    batch = _batch(x.shape[:-2], b.shape[:-2], op=op)
    LU, piv = _factor(x)
    zeros = LU.diagonal(dim1=-2, dim2=-1) == 0
    if check:
        zero = _first(zeros)
        if zero is not None:
            raise LinAlgError(f"{op}: {_prefix(bool(batch), zero[0])}The diagonal element {zero[1]} is zero, the "
                                f"{what} could not be completed because the input matrix is singular.")
    X = _lu_solved(LU, piv, b)
    X = X.mT if not left else X
    return X if check else (X, _info(zeros))


# ---- LU ---------------------------------------------------------------------

def _lu(x, perm=False):
    """`(LU, pivots)` of the matrices `x` (any shape) by `_factor`, in the
    working dtype, the pivots 1-based int32, and with `perm` the rows each
    place holds (`LU = A[perm]`, int64)."""
    LU, piv = _factor(x)
    if perm:
        return LU, piv, _permutation(piv, x.shape[-2])
    return LU, piv


def lu_factor(A, *, pivot=True) -> LUPivots:
    """`torch.linalg.lu_factor(A, *, pivot=True)`: the LU factorisation with
    partial pivoting of the matrices `A` (`[..., m, n]`, any batch
    dimensions, not necessarily square), `LUPivots(LU, pivots)`: `L` (unit
    diagonal, not stored) below the diagonal of `LU` and `U` on and above it,
    `pivots` int32 `[..., min(m, n)]`, 1-based, as LAPACK's (row `i` was
    swapped with row `pivots[i] - 1` at step `i`), by silt-kernels'
    `lu_factor` on the device (one launch); the pivot is the first largest
    `|value|` of the column. A zero pivot (a singular matrix) raises `LinAlgError` (a
    `silt.ArgumentError`) naming it, as PyTorch's (`lu` factors any matrix).
    Only `pivot=True` (PyTorch's `False` runs only on CUDA); float16 is
    computed in float32 and rounded once (PyTorch refuses it)."""
    LU, piv, _ = _lu_factor(A, pivot, "linalg.lu_factor", True)
    return LUPivots(LU, piv)


def lu_factor_ex(A, *, pivot=True, check_errors=False) -> LUPivotsInfo:
    """`torch.linalg.lu_factor_ex(A, *, pivot=True, check_errors=False)`:
    `lu_factor`'s factorisation without its error, `LUPivotsInfo(LU,
    pivots, info)`: `info` (int32, the batch's shape) is LAPACK's, 0 where
    the factorisation has no zero pivot, else the 1-based place of the
    first zero on `U`'s diagonal (computed on the device, nothing read
    back). With `check_errors` a zero pivot raises `LinAlgError` as
    `lu_factor`'s."""
    return LUPivotsInfo(*_lu_factor(A, pivot, "linalg.lu_factor_ex", check_errors))


def _lu_factor(A, pivot, op, check):
    """`(LU, pivots, info)` of `lu_factor_ex`; with `check`, a zero pivot
    raises (one flag read back) and `info` is zeros."""
    x = _matrices(A, op, square=False)
    if not pivot:
        raise ArgumentError(f"{op}: pivot=False (LU without pivoting) is not built; silt pivots")
    LU, piv = _lu(x)
    zeros = LU.diagonal(dim1=-2, dim2=-1) == 0
    if check:
        zero = _first(zeros)
        if zero is not None:
            i = zero[1]
            raise LinAlgError(f"{op}: {_prefix(x.ndim > 2, zero[0])}U[{i},{i}] is zero and using it on lu_solve "
                                f"would result in a division by zero. If you still want to perform the "
                                f"factorization, consider calling silt.linalg.lu(A)")
    info = _info(zeros)  # zeros where `check` has passed
    return _narrow(LU, x.dtype), piv, info


def lu(A, *, pivot=True) -> PLU:
    """`torch.linalg.lu(A, *, pivot=True)`: `PLU(P, L, U)` with `A = P @ L
    @ U` for the matrices `A` (`[..., m, n]`, any batch dimensions): `P` the
    `m` x `m` permutation, `L` `m` x `k` lower triangular of unit diagonal,
    `U` `k` x `n` upper triangular (`k = min(m, n)`), all of `A`'s dtype;
    `lu_factor`'s factorisation, `P` from its pivots (read back). A singular
    matrix factors without error (a zero on `U`'s
    diagonal). Only `pivot=True`; float16 in float32, rounded once."""
    op = "linalg.lu"
    x = _matrices(A, op, square=False)
    if not pivot:
        raise ArgumentError(f"{op}: pivot=False (LU without pivoting) is not built; silt pivots")
    m, n = x.shape[-2:]
    k = min(m, n)
    LU, _, perm = _lu(x, perm=True)
    rows = arange(m, device=x.device).reshape(m, 1)
    P = (rows == perm[..., None, :]).astype(x.dtype)
    L = LU[..., :, :k].tril(-1)
    L.diagonal(dim1=-2, dim2=-1).fill_(1)
    U = LU[..., :k, :].triu()
    return PLU(P, _narrow(L, x.dtype), _narrow(U, x.dtype))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False) -> Tensor:
    """`torch.linalg.lu_solve(LU, pivots, B, *, left=True, adjoint=False)`:
    the solution `X` of `A X = B` from `lu_factor`'s `(LU, pivots)` of `A`
    (`A^T X = B` with `adjoint`, `X A = B` with `left=False`), the batches
    of `LU` and `B` broadcast, `B` a matrix `[..., n, k]` (`[..., k, n]`
    for `left=False`) of `LU`'s dtype: silt-kernels' `lu_solve` (one
    launch: the rows swapped as the pivots say, forward and back
    substitution, a column a work-item).
    `pivots` must be int32 of `LU`'s batch and size `n`; one out of `[1, n]`
    raises `silt.ArgumentError` (their extremes read back), as PyTorch's."""
    op = "linalg.lu_solve"
    lu_ = _matrices(LU, op, name="LU")
    b = _rhs(B, lu_, op)
    pv = _input(pivots, (lu_,))
    n = lu_.shape[-1]
    if pv.dtype != np.int32:
        raise DTypeError(f"{op}: pivots should be a Tensor of scalar type int32, not {pv.dtype}")
    if tuple(pv.shape) != tuple(lu_.shape[:-1]):
        raise ArgumentError(f"{op}: pivots of shape {tuple(pv.shape)} do not match LU of shape "
                            f"{tuple(lu_.shape)} (its batch and size {n})")
    _check_rhs(b, n, left, op)
    if n and ((pv < 1) | (pv > n)).any().item():
        raise ArgumentError(f"{op}: Pivots given to lu_solve must all be between 1 and LU.size(-2) = {n}. Did you "
                            f"properly pass the result of lu_factor?")
    if not left:
        # X A = B is A^T X^T = B^T (and X A^T = B is A X^T = B^T)
        b, adjoint = b.mT, not adjoint
    _batch(lu_.shape[:-2], b.shape[:-2], op=op)
    f = lu_.astype(_F32) if lu_.dtype == np.float16 else lu_
    X = _lu_solved(f, pv, b, adjoint)
    return _narrow(X if left else X.mT.contiguous(), b.dtype)


# ---- determinants -----------------------------------------------------------

def _det_parts(x):
    """`(diag, odd)`: the diagonals of `U` (working dtype) and whether the
    pivots make an odd permutation (bool) of the square matrices `x`."""
    n = x.shape[-1]
    LU, piv = _lu(x)
    odd = (piv != arange(1, n + 1, device=x.device)).sum(-1) % 2 == 1
    return LU.diagonal(dim1=-2, dim2=-1), odd


def det(A) -> Tensor:
    """`torch.linalg.det(A)` (and `silt.det`, `Tensor.det`): the
    determinants of the square matrices `A` (any batch dimensions), the
    product of `U`'s diagonal of `lu_factor`'s elimination times the sign of
    its permutation, on the device. A singular matrix gives 0 (or the
    rounding residue of the elimination, as LAPACK's), without error; a
    0 x 0 matrix gives 1. Float16 in float32, rounded once."""
    x = _matrices(A, "linalg.det")
    diag, odd = _det_parts(x)
    p = diag.prod(-1)
    return _narrow(where(odd, -p, p), x.dtype)


def slogdet(A) -> SignLogAbsDet:
    """`torch.linalg.slogdet(A)` (and `silt.slogdet`, `Tensor.slogdet`):
    `SignLogAbsDet(sign, logabsdet)` of the square matrices `A`, the sign of
    the determinant (-1, 0 or 1) and the sum of `log |u_ii|` over `U`'s
    diagonal (no overflow of the product); a singular matrix gives `(0,
    -inf)`, a 0 x 0 one `(1, 0)`, as PyTorch's."""
    x = _matrices(A, "linalg.slogdet")
    diag, odd = _det_parts(x)
    s = diag.sign().prod(-1)
    return SignLogAbsDet(_narrow(where(odd, -s, s), x.dtype), _narrow(diag.abs().log().sum(-1), x.dtype))


def _logdet(input):
    """`torch.logdet(input)` (and `Tensor.logdet`): the logarithm of the
    determinants of the square matrices, from `slogdet`: NaN where the
    determinant is negative, `-inf` where it is 0, as PyTorch's."""
    s, la = slogdet(_matrices(input, "logdet"))
    return where(s < 0, math.nan, la)


# ---- inverses and solves ----------------------------------------------------

def inv(A) -> Tensor:
    """`torch.linalg.inv(A)` (and `silt.inverse`, `Tensor.inverse`): the
    inverses of the square matrices `A` (any batch dimensions), by
    `lu_factor` and `lu_solve` of the identity on the device (two
    launches). A zero pivot (a singular matrix, as
    LAPACK's `getrf` reports it) raises `LinAlgError` (a
    `silt.ArgumentError`) naming the batch element and the diagonal element,
    as PyTorch's message (one flag read back); a 0 x 0 matrix gives an empty one. Float16 in float32,
    rounded once."""
    return _inv(A, "linalg.inv", True)[0]


def inv_ex(A, *, check_errors=False) -> InverseInfo:
    """`torch.linalg.inv_ex(A, *, check_errors=False)`: `inv` without its
    error, `InverseInfo(inverse, info)`: `info` (int32, the batch's shape)
    is 0 where the matrix was inverted, else the 1-based place of the
    first zero pivot (LAPACK's `getrf`), whose inverse holds infinities or
    NaN; computed on the device, nothing read back. With `check_errors` a
    singular matrix raises `LinAlgError` as `inv`'s."""
    return InverseInfo(*_inv(A, "linalg.inv_ex", check_errors))


def _inv(A, op, check):
    x = _matrices(A, op)
    n = x.shape[-1]
    I = eye(n, dtype=x.dtype, device=x.device)
    if check:
        X, info = _solved(x, I, op, True, "inversion"), None
    else:
        X, info = _solved(x, I, op, True, "inversion", check=False)
    if info is None:
        info = x.new_zeros(tuple(x.shape[:-2]), dtype=np.int32)
    return _narrow(X.contiguous(), x.dtype), info


def solve(A, B, *, left=True) -> Tensor:
    """`torch.linalg.solve(A, B, *, left=True)`: the solution `X` of `A X =
    B` (`X A = B` with `left=False`) for square `A`, the batches of `A` and
    `B` broadcast, by `lu_factor` and `lu_solve` on the device (two
    launches; no inverse formed). `B` is a batch of vectors where it is
    1-d or has `A`'s shape without the last dimension, as PyTorch's rule,
    and gives vectors; else it is matrices `[..., n, k]`. `B` must have
    `A`'s dtype. A singular matrix (a zero pivot) raises `LinAlgError` (a
    `silt.ArgumentError`) naming the batch element and the diagonal element
    (PyTorch's names the batch element only)."""
    return _solve(A, B, left, "linalg.solve", True)[0]


def solve_ex(A, B, *, left=True, check_errors=False) -> SolveInfo:
    """`torch.linalg.solve_ex(A, B, *, left=True, check_errors=False)`:
    `solve` without its error, `SolveInfo(result, info)`: `info` (int32,
    the shape of `A`'s batch, as PyTorch's) is 0 where `A` was factored, else the
    1-based place of the first zero pivot (the result there holds
    infinities or NaN); computed on the device, nothing read back. With
    `check_errors` a singular matrix raises `LinAlgError` as `solve`'s."""
    return SolveInfo(*_solve(A, B, left, "linalg.solve_ex", check_errors))


def _solve(A, B, left, op, check):
    x = _matrices(A, op)
    b = _rhs(B, x, op)
    n = x.shape[-1]
    vector = b.ndim == 1 or (b.ndim == x.ndim - 1 and tuple(b.shape) == tuple(x.shape[:-1]))
    if vector:
        if not left:
            raise ArgumentError(f"{op}: Vector broadcasting of the left hand side is not supported for left=False. "
                                f"In this case linalg.solve is equivalent to B / A.squeeze(-1)")
        b = b[..., None]
    _check_rhs(b, n, left, op)
    if check:
        X = _solved(x, b, op, left, "solve")
        _batch(x.shape[:-2], b.shape[:-2], op=op)
        info = x.new_zeros(tuple(x.shape[:-2]), dtype=np.int32)
    else:
        X, info = _solved(x, b, op, left, "solve", check=False)
    return _narrow((X[..., 0] if vector else X).contiguous(), x.dtype), info


def solve_triangular(A, B, *, upper, left=True, unitriangular=False) -> Tensor:
    """`torch.linalg.solve_triangular(A, B, *, upper, left=True,
    unitriangular=False)`: the solution `X` of `A X = B` (`X A = B` with
    `left=False`) for triangular `A` (upper or lower: only that triangle is
    read; with `unitriangular` neither is the diagonal, taken as ones), the
    batches of `A` and `B` broadcast, `B` matrices of `A`'s dtype: back or
    forward substitution, one row a round. A zero on the diagonal gives
    infinities or NaN, without error, as PyTorch's."""
    op = "linalg.solve_triangular"
    x = _matrices(A, op)
    b = _rhs(B, x, op)
    n = x.shape[-1]
    _check_rhs(b, n, left, op)
    upper = bool(upper)
    if not left:
        x, b, upper = x.mT, b.mT, not upper
    batch = _batch(x.shape[:-2], b.shape[:-2], op=op)
    f = x.astype(_F32) if x.dtype == np.float16 else x
    X = _wide(b).broadcast_to(batch + tuple(b.shape[-2:])).clone()
    (_solve_upper_ if upper else _solve_lower_)(f, X, bool(unitriangular))
    return _narrow(X if left else X.mT.contiguous(), x.dtype)


# ---- Cholesky ---------------------------------------------------------------

def cholesky(A, *, upper=False) -> Tensor:
    """`torch.linalg.cholesky(A, *, upper=False)`: the lower triangular `L`
    with `A = L L^T` of the symmetric positive-definite matrices `A` (any
    batch dimensions; only the lower triangle is read, as PyTorch's), or
    the upper triangular `U` with `A = U^T U` with `upper` (only the upper
    triangle read, as PyTorch's): silt-kernels' `cholesky_ex` (column after
    column, a matrix a work-item, one launch). A matrix that is not positive-definite raises
    `LinAlgError` (a `silt.ArgumentError`) naming the batch element and the
    order of the first leading minor that is not (one flag read back), as
    PyTorch's. Float16 in float32, rounded once."""
    return _cholesky_factor(A, upper, "linalg.cholesky", True)[0]


def cholesky_ex(A, *, upper=False, check_errors=False) -> CholeskyInfo:
    """`torch.linalg.cholesky_ex(A, *, upper=False, check_errors=False)`:
    `cholesky` without its error, `CholeskyInfo(L, info)`: `info` (int32,
    the batch's shape) is 0 where the matrix is positive-definite, else the
    order of the first leading minor that is not (that matrix's factor is
    not meaningful: NaN from that column on); computed on the device,
    nothing read back. With `check_errors` such a matrix raises
    `LinAlgError` as `cholesky`'s."""
    return CholeskyInfo(*_cholesky_factor(A, upper, "linalg.cholesky_ex", check_errors))


def _cholesky_factor(A, upper, op, check):
    x = _matrices(A, op)
    # `upper` reads the upper triangle, as PyTorch's: U^T U = A is L L^T of A^T's lower one
    src = x.mT if upper else x
    L, bad = _ops.cholesky_ex(src.astype(_F32) if x.dtype == np.float16 else src)
    if check:
        first = _first((bad != 0)[..., None]) if bad.numel() else None
        if first is not None:
            order = int(bad.reshape(-1)[first[0]].item())
            raise LinAlgError(f"{op}: {_prefix(x.ndim > 2, first[0])}The factorization could not be completed "
                                f"because the input is not positive-definite (the leading minor of order {order} "
                                f"is not positive-definite).")
    return _narrow(L.mT.contiguous() if upper else L, x.dtype), bad


# ---- LDL^T (Bunch-Kaufman) -------------------------------------------------------

def ldl_factor(A, *, hermitian=False) -> LDLFactor:
    """`torch.linalg.ldl_factor(A, *, hermitian=False)`: `LDLFactor(LD,
    pivots)`, the Bunch-Kaufman factorisation `P A P^T = L D L^T` of the
    symmetric (possibly indefinite) matrices `A` (any batch dimensions; only
    the lower triangle read, as PyTorch's), as LAPACK's `sytrf`:
    silt-kernels' `ldl_factor` (`sytf2`'s steps, a matrix a work-item, one
    launch). `L` unit lower triangular below `LD`'s diagonal, `D` block
    diagonal of 1 x 1 and 2 x 2 blocks on its diagonal and subdiagonal,
    `LD`'s upper triangle zero; `pivots` LAPACK's (int32, 1-based, negative
    for both columns of a 2 x 2 block). A singular `D` (a column of zeros)
    raises `LinAlgError` naming the batch element and the column (one flag
    read back; PyTorch's fails an internal assert there). `hermitian` has no
    effect on real matrices. Float16 in float32, rounded once."""
    LD, piv, _ = _ldl_factor(A, "linalg.ldl_factor", True)
    return LDLFactor(LD, piv)


def ldl_factor_ex(A, *, hermitian=False, check_errors=False) -> LDLFactorInfo:
    """`torch.linalg.ldl_factor_ex(A, *, hermitian=False,
    check_errors=False)`: `ldl_factor` without its error,
    `LDLFactorInfo(LD, pivots, info)`: `info` (int32, the batch's shape) is
    0, or LAPACK's 1-based place of the first zero pivot (`D` singular);
    computed on the device, nothing read back. With `check_errors` a
    singular `D` raises `LinAlgError` as `ldl_factor`'s."""
    return LDLFactorInfo(*_ldl_factor(A, "linalg.ldl_factor_ex", check_errors))


def _ldl_factor(A, op, check):
    x = _matrices(A, op)
    LD, piv, info = _ops.ldl_factor(x.astype(_F32) if x.dtype == np.float16 else x)
    if check:
        first = _first((info != 0)[..., None]) if info.numel() else None
        if first is not None:
            k = int(info.reshape(-1)[first[0]].item())
            raise LinAlgError(f"{op}: {_prefix(x.ndim > 2, first[0])}The factorization could not be completed "
                              f"because D is singular (its diagonal block at column {k} is zero).")
    return _narrow(LD, x.dtype), piv, info


def ldl_solve(LD, pivots, B, *, hermitian=False) -> Tensor:
    """`torch.linalg.ldl_solve(LD, pivots, B, *, hermitian=False)`: the
    solution `X` of `A X = B` from `ldl_factor`'s `(LD, pivots)` of `A`, as
    LAPACK's `sytrs`: silt-kernels' `ldl_solve` (a column of `B` a
    work-item, one launch), `B` matrices `[..., n, k]` of `LD`'s dtype, the
    batches broadcast. Pivots outside `[1, n]` in size raise
    `silt.ArgumentError`. `hermitian` has no effect on real matrices."""
    op = "linalg.ldl_solve"
    x = _matrices(LD, op, name="LD")
    b = _rhs(B, x, op)
    p = _input(pivots, (x,))
    if p.dtype != np.int32:
        raise DTypeError(f"{op}: Expected pivots to be integers (int32), got {p.dtype}")
    _check_rhs(b, x.shape[-1], True, op)
    w = x.astype(_F32) if x.dtype == np.float16 else x
    return _narrow(_ops.ldl_solve(w, p, b.astype(_F32) if b.dtype == np.float16 else b), x.dtype)


def _cholesky(input, upper=False):
    """`torch.cholesky(input, upper=False)` (and `Tensor.cholesky`), the
    deprecated form of `silt.linalg.cholesky` with `upper` positional too:
    `L` (lower, by default) or `U` (`upper=True`) with `A = L L^T = U^T U`.
    PyTorch 2.15 has removed it (it raises there); silt keeps it."""
    return cholesky(input, upper=upper)


def _cholesky_solve(input, input2, upper=False):
    """`torch.cholesky_solve(B, L, upper=False)` (and
    `B.cholesky_solve(L, upper=False)`): the solution `X` of `A X = B` for
    `A = L L^T` given its Cholesky factor `L` (lower; `U` with `A = U^T U`
    where `upper`; only that triangle is read), the batches of `B` and `L`
    broadcast, `B` matrices of `L`'s dtype: forward then back substitution,
    one row a round."""
    op = "cholesky_solve"
    f = _matrices(input2, op, name="L")
    b = _rhs(input, f, op)
    n = f.shape[-1]
    if b.ndim < 2:
        raise ArgumentError(f"{op}: b should have at least 2 dimensions, but has {b.ndim} dimensions instead")
    if b.shape[-2] != n:
        raise ArgumentError(f"{op}: Incompatible matrix sizes for cholesky_solve: each L matrix is {n} by {n} "
                            f"but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    batch = _batch(b.shape[:-2], f.shape[:-2], op=op)
    w = f.astype(_F32) if f.dtype == np.float16 else f
    L = w.mT if upper else w
    X = _wide(b).broadcast_to(batch + tuple(b.shape[-2:])).clone()
    _solve_lower_(L, X, False)
    return _narrow(_solve_upper_(L.mT, X, False), f.dtype)


def _cholesky_inverse(input, upper=False):
    """`torch.cholesky_inverse(L, upper=False)` (and
    `L.cholesky_inverse(upper=False)`): the inverse of `A = L L^T` (`U^T U`
    where `upper`) from its Cholesky factor (only that triangle read; any
    batch dimensions), `cholesky_solve` of the identity."""
    f = _matrices(input, "cholesky_inverse", name="L")
    return _cholesky_solve(eye(f.shape[-1], dtype=f.dtype, device=f.device), f, upper)


def _lu_torch(A, pivot=True, get_infos=False):
    """`torch.lu(A, pivot=True, get_infos=False)` (and `Tensor.lu`),
    PyTorch's deprecated form of `lu_factor`: `(LU, pivots)`, or `(LU,
    pivots, infos)` with `get_infos` (then a zero pivot raises nothing; as
    `lu_factor_ex`)."""
    LU, piv, info = _lu_factor(A, pivot, "lu", not get_infos)
    return (LU, piv, info) if get_infos else (LU, piv)


def _lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """`torch.lu_unpack(LU_data, LU_pivots, unpack_data=True,
    unpack_pivots=True)`: `PLU(P, L, U)` of `lu_factor`'s `(LU, pivots)`
    (`[..., m, n]` and int32 `[..., min(m, n)]`, 1-based): `P` the `m` x
    `m` permutation of the pivots' swaps in order (one `gather` a swap, on
    the device), `L` `m` x `k` of unit diagonal, `U` `k` x `n`, `k = min(m,
    n)`. Without `unpack_data`, `L` and `U` are empty; without
    `unpack_pivots`, `P` is; as PyTorch's. Pivots out of `[1, m]` raise
    `silt.ArgumentError` (their extremes read back)."""
    op = "lu_unpack"
    lu_ = _input(LU_data, ())
    pv = _input(LU_pivots, (lu_,))
    if lu_.ndim < 2:
        raise ArgumentError(f"{op}: LU_data must have at least 2 dimensions, got {lu_.ndim}")
    *batch, m, n = lu_.shape
    k = min(m, n)
    if pv.dtype != np.int32:
        raise DTypeError(f"{op}: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype. Got "
                         f"{pv.dtype}")
    if tuple(pv.shape) != tuple(batch) + (k,):
        raise ArgumentError(f"{op}: LU_pivots of shape {tuple(pv.shape)} do not match LU_data of shape "
                            f"{tuple(lu_.shape)} (its batch and min(m, n) = {k})")
    empty = lu_.new_zeros((0,))
    if unpack_data:
        L = lu_[..., :, :k].tril(-1)
        L.diagonal(dim1=-2, dim2=-1).fill_(1)
        U = lu_[..., :k, :].triu()
    else:
        L = U = empty
    if not unpack_pivots:
        return PLU(empty, L, U)
    if k and ((pv < 1) | (pv > m)).any().item():
        raise ArgumentError(f"{op}: the pivots must be between 1 and LU_data.size(-2) = {m}")
    perm = _permutation(pv, m)
    rows = arange(m, device=lu_.device).reshape(m, 1)
    return PLU((rows == perm[..., None, :]).astype(lu_.dtype), L, U)


TriangularSolution = collections.namedtuple("TriangularSolution", ["solution", "cloned_coefficient"])
TriangularSolution.__doc__ = ("`(solution, cloned_coefficient)` of `silt.triangular_solve`, as PyTorch's "
                              "`torch.return_types.triangular_solve`.")


def _triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    """`torch.triangular_solve(b, A, upper=True, transpose=False,
    unitriangular=False)` (and `b.triangular_solve(A, ...)`), PyTorch's
    deprecated form of `silt.linalg.solve_triangular`: the solution `X` of
    `A X = b` (`A^T X = b` with `transpose`) for the triangular `A` (upper by
    default), the batches broadcast, as `TriangularSolution(solution,
    cloned_coefficient)`, the second a copy of `A` (of the broadcast
    batch)."""
    op = "triangular_solve"
    a = _matrices(A, op)
    b = _rhs(input, a, op)
    if b.ndim < 2:
        raise ArgumentError(f"{op}: The input tensor B must have at least 2 dimensions.")
    batch = _batch(b.shape[:-2], a.shape[:-2], op=op)
    coeff = a.broadcast_to(batch + tuple(a.shape[-2:])).clone()
    if transpose:
        a, upper = a.mT, not upper
    return TriangularSolution(solve_triangular(a, b, upper=upper, unitriangular=unitriangular), coeff)


def tensorinv(A, ind=2) -> Tensor:
    """`torch.linalg.tensorinv(A, ind=2)`: the inverse of `A` for
    `tensordot(A, X, ind)`: `A`'s first `ind` dimensions (their product
    `n`) against the rest (whose product must be `n` too), `inv` of that
    `n` x `n` matrix reshaped to `A.shape[ind:] + A.shape[:ind]`. A
    singular matrix raises `LinAlgError`, as `inv`'s."""
    op = "linalg.tensorinv"
    t = _input(A, ())
    ind = operator.index(ind)
    if ind <= 0:
        raise ArgumentError(f"{op}: Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = math.prod(t.shape[:ind]), math.prod(t.shape[ind:])
    if rows != cols:
        raise ArgumentError(f"{op}: Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                            f"prod(self.shape[:ind]), but got {cols} != {rows}")
    return inv(t.reshape(rows, cols)).reshape(tuple(t.shape[ind:]) + tuple(t.shape[:ind]))


def tensorsolve(A, B, dims=None) -> Tensor:
    """`torch.linalg.tensorsolve(A, B, dims=None)`: `X` with
    `tensordot(A, X, X.ndim) = B`: the dimensions `dims` of `A` (where
    given) moved last, then `A` as a square matrix, its rows `A`'s first
    `B.ndim` dimensions (as many elements as `B`, whose shape is not
    compared, as PyTorch's), its columns the rest, solved by `solve`; `X`
    has `A`'s remaining dimensions."""
    op = "linalg.tensorsolve"
    a = _input(A, (B,))
    b = _rhs(B, a, op)
    if dims is not None:
        ds = [_dim_index(operator.index(d), a.ndim, op) for d in dims]
        rest = [d for d in range(a.ndim) if d not in ds]
        a = a.permute(*(rest + ds))
    shape = tuple(a.shape[b.ndim:])
    rows, cols = math.prod(a.shape[:b.ndim]), math.prod(shape)
    if rows != cols:
        raise ArgumentError(f"{op}: Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                            f"prod(self.shape[:other.ndim]), but got {cols} != {rows}")
    if b.numel() != rows:
        raise ArgumentError(f"{op}: B has {b.numel()} elements, A's first {b.ndim} dimensions {rows}")
    return solve(a.reshape(rows, cols), b.reshape(rows)).reshape(shape)


def _lu_solve(input, LU_data, LU_pivots):
    """`torch.lu_solve(b, LU_data, LU_pivots)` (and
    `b.lu_solve(LU_data, LU_pivots)`), PyTorch's deprecated form of
    `silt.linalg.lu_solve(LU_data, LU_pivots, b)` (its arguments in the
    other order)."""
    return lu_solve(LU_data, LU_pivots, input)


# ---- norms ------------------------------------------------------------------

def _norm_dtype(x, dtype, op):
    _float(x, op)
    if dtype is None:
        return x
    dt = np.dtype(dtype)
    if dt.kind != "f" or dt.itemsize < x.dtype.itemsize:
        raise DTypeError(f"{op}: the dtype of the input ({x.dtype}) should be convertible without narrowing to "
                         f"the specified dtype ({dt})")
    return x.astype(dt, copy=False)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """`torch.linalg.vector_norm(x, ord=2, dim=None, keepdim=False, *,
    dtype=None)`: the vector norm of order `ord` of the float tensor `x`
    over `dim` (an int or a sequence; every dimension where None or `()`):
    `sum(|x|**ord)**(1/ord)`, the count of nonzeros for 0, the largest and
    smallest `|x|` for `inf` and `-inf` (which need elements, as the orders
    below 0 do: an empty dimension raises `silt.ArgumentError`, as
    PyTorch's). `dtype` converts
    `x` first and must not narrow it. silt's `Tensor.norm`."""
    op = "linalg.vector_norm"
    t = _norm_dtype(_input(x, ()), dtype, op)
    if isinstance(ord, str) or isinstance(ord, bool) or not _is_number(ord):
        raise TypeError(f"{op}: ord must be a number, not {type(ord).__name__}")
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        dim = None
    if dim is not None:
        dims = [dim] if isinstance(dim, (int, np.integer)) else list(dim)
        dims = [_dim_index(operator.index(d), max(t.ndim, 1), op) for d in dims]
        if len(set(dims)) != len(dims):
            raise ArgumentError(f"{op}: a dimension appears twice in {dim}")
        dim = tuple(dims)
    if abs(ord) == _INF or ord < 0:
        empty = [d for d in (dim or ()) if t.ndim and t.shape[d] == 0]
        if (dim is None and t.numel() == 0) or empty:
            raise ArgumentError(f"{op} cannot compute the {ord} norm on an empty tensor because the operation does "
                                f"not have an identity")
    return t.norm(ord, dim, keepdim)


def _matrix_dims(t, dim, op):
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        raise ArgumentError(f"{op}: dim must be a 2-tuple. Got {dim}")
    d0, d1 = (_dim_index(operator.index(d), t.ndim, op) for d in dim)
    if d0 == d1:
        raise ArgumentError(f"{op}: dims must be different. Got {tuple(dim)}")
    return d0, d1


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None) -> Tensor:
    """`torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False,
    *, dtype=None)`: the matrix norm of the float matrices in the dimensions
    `dim` (rows, columns) of `A`: `'fro'` (the root of the sum of squares),
    `1` and `-1` (the largest and smallest sum of `|a|` down a column),
    `inf` and `-inf` (the largest and smallest along a row), `2`, `-2` and
    `'nuc'` (the largest and smallest singular value and their sum, by
    `svdvals`); an empty matrix gives 0, but for the orders `-1` (without
    columns), `-inf` (without rows) and `-2`, which raise
    `silt.ArgumentError`, as PyTorch's."""
    op = "linalg.matrix_norm"
    t = _input(A, ())
    _float(t, op)
    if t.ndim < 2:
        raise ArgumentError(f"{op}: The input tensor A must have at least 2 dimensions.")
    d0, d1 = _matrix_dims(t, dim, op)
    t = _norm_dtype(t, dtype, op)
    if ord == "fro":
        return t.norm(2, (d0, d1), keepdim)
    if ord == "nuc" or (_is_number(ord) and not isinstance(ord, str) and ord in (2, -2)):
        return _linalg_jacobi._spectral_matrix_norm(t, ord, d0, d1, keepdim)
    if isinstance(ord, str) or isinstance(ord, bool) or not _is_number(ord) or ord not in (1, -1, _INF, -_INF):
        raise ArgumentError(f"{op}: Order {ord} not supported.")
    # 1, -1: the sums down each column (over the rows d0), then their extreme over the columns d1
    over, across = (d0, d1) if ord in (1, -1) else (d1, d0)
    wide = t.astype(_F32) if t.dtype == np.float16 else t
    sums = wide.abs().sum(over, keepdim=True)
    if sums.shape[across] == 0:
        if ord < 0:
            raise ArgumentError(f"{op}: the order {ord} norm of matrices with no {'columns' if ord == -1 else 'rows'} "
                                f"has no value (the smallest of no sums)")
        r = sums.sum(across, keepdim=True)  # an empty matrix: 0
    else:
        r = sums.amax(across, keepdim=True) if ord > 0 else sums.amin(across, keepdim=True)
    if not keepdim:
        r = r.squeeze(max(d0, d1)).squeeze(min(d0, d1))
    return _narrow(r, t.dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """`torch.linalg.norm(A, ord=None, dim=None, keepdim=False, *,
    dtype=None)`: `vector_norm` where `dim` is an int or one dimension (the
    order 2 by default), `matrix_norm` where it is two (`'fro'` by default);
    without `dim`, the 2-norm of all the elements when `ord` is None, else
    the vector norm of a 1-d `A` or the matrix norm of a 2-d one, as
    PyTorch's dispatch."""
    op = "linalg.norm"
    t = _input(A, ())
    if dim is not None:
        dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        if len(dims) == 1:
            if isinstance(ord, str):
                raise ArgumentError(f"{op}: the order {ord!r} is a matrix norm's, for a dim of two dimensions")
            return vector_norm(t, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
        if len(dims) == 2:
            return matrix_norm(t, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        raise ArgumentError(f"{op}: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    if ord is None:
        return vector_norm(t, 2, None, keepdim, dtype=dtype)
    if t.ndim == 1 and not isinstance(ord, str):
        return vector_norm(t, ord, None, keepdim, dtype=dtype)
    if t.ndim == 2:
        return matrix_norm(t, ord, (-2, -1), keepdim, dtype=dtype)
    raise ArgumentError(f"{op}: If dim is not specified but ord is, the input must be 1D or 2D. Got {t.ndim}D.")


# ---- aliases of silt's operations --------------------------------------------

def vecdot(x, y, *, dim=-1) -> Tensor:
    """`torch.linalg.vecdot(x, y, *, dim=-1)`: the dot products of the
    vectors along `dim` of the float tensors `x` and `y` (one dtype, the
    other dimensions broadcast), `(x * y).sum(dim)`."""
    op = "linalg.vecdot"
    a = _float(_input(x, (y,)), op)
    b = _input(y, (a,))
    if b.dtype != a.dtype:
        raise DTypeError(f"{op}: Expected x and y to have the same dtype, but found x of type {a.dtype} and y of "
                         f"type {b.dtype} instead")
    return (a * b).sum(dim)


def cross(input, other, *, dim=-1) -> Tensor:
    """`torch.linalg.cross(input, other, *, dim=-1)`: the cross product of
    the 3-vectors along `dim` (the last by default), silt's `cross`
    (broadcast, and promoted where PyTorch wants one dtype)."""
    return _input(input, (other,)).cross(other, dim=dim)


def multi_dot(tensors) -> Tensor:
    """`torch.linalg.multi_dot(tensors)`: the product of two or more
    matrices of one dtype in the order of fewest multiplications
    (`silt.chain_matmul`); the first may be a 1-d row vector and the last a
    1-d column vector, as PyTorch's (a vector at either end drops that
    dimension of the result)."""
    ts = list(tensors)
    if len(ts) < 2:
        raise ArgumentError(f"multi_dot(): expected at least 2 tensors but got {len(ts)}")
    ts = [_input(t, ts) for t in ts]
    for i, t in enumerate(ts):
        ok = (1, 2) if i in (0, len(ts) - 1) else (2,)
        if t.ndim not in ok:
            raise ArgumentError(f"multi_dot(): tensor {i} must be {' or '.join(f'{d}D' for d in ok)} but got "
                                f"{t.ndim}D")
        if t.dtype != ts[0].dtype:
            raise DTypeError(f"multi_dot(): all tensors must have the same dtype but tensor 0 is {ts[0].dtype} and "
                             f"tensor {i} {t.dtype}")
    first, last = ts[0].ndim == 1, ts[-1].ndim == 1
    ms = [ts[0][None, :] if first else ts[0]] + ts[1:-1] + [ts[-1][:, None] if last else ts[-1]]
    r = chain_matmul(*ms)
    if last:
        r = r[:, 0]
    return r[0] if first else r


def diagonal(A, *, offset=0, dim1=-2, dim2=-1) -> Tensor:
    """`torch.linalg.diagonal(A, *, offset=0, dim1=-2, dim2=-1)`:
    `A.diagonal(offset, dim1, dim2)`, a view, the matrices' diagonals by
    default."""
    return _input(A, ()).diagonal(offset, dim1, dim2)


def matmul(input, other) -> Tensor:
    """`torch.linalg.matmul(input, other)`: `input @ other` (silt's
    `matmul`)."""
    return _input(input, (other,)).matmul(other)


def vander(x, *, N=None) -> Tensor:
    """`torch.linalg.vander(x, *, N=None)`: the Vandermonde matrices of the
    vectors in the last dimension of `x`, the powers increasing, `x**0 ..
    x**(N-1)` (`N > 1`, the vector's length by default), as a running
    product (`cumprod`), as PyTorch's; any dtype but bool."""
    t = _input(x, ())
    if t.ndim < 1:
        raise ArgumentError("linalg.vander: x must have at least one dimension")
    if t.dtype.kind == "b":
        raise DTypeError("linalg.vander: a tensor of numbers, not bool")
    n = t.shape[-1] if N is None else operator.index(N)
    if n < 2:
        raise ArgumentError(f"linalg.vander: N must be greater than 1, not {n}")
    powers = t[..., None].expand(*t.shape, n - 1).cumprod(-1)
    return cat([t.new_ones(tuple(t.shape) + (1,)), powers], -1)


# ---- the decompositions of their own modules ---------------------------------

# (imported here: they use the helpers above)
from . import _linalg_qr  # noqa: E402
from ._linalg_qr import (  # noqa: E402
    LstsqResult, QRResult, householder_product, lstsq, matrix_exp, qr,
)

from . import _linalg_jacobi  # noqa: E402
from ._linalg_jacobi import (  # noqa: E402
    EighResult, PolarResult, SVDResult, cond, eigh, eigvalsh, matrix_rank, matrix_sqrth, pinv, polar, svd, svdvals,
)

__all__ += _linalg_qr.__all__ + _linalg_jacobi.__all__


# ---- torch's forms: silt.det, ..., and the tensor methods ----------------------

# silt.NAME as torch.NAME
TORCH = {
    "det": det, "logdet": _logdet, "slogdet": slogdet, "inverse": inv, "cholesky": _cholesky,
    "cholesky_solve": _cholesky_solve, "cholesky_inverse": _cholesky_inverse, "lu_solve": _lu_solve,
    "lu": _lu_torch, "lu_unpack": _lu_unpack, "triangular_solve": _triangular_solve,
    **_linalg_qr.TORCH, **_linalg_jacobi.TORCH,
}


def _torch_function(name, fn):
    if fn.__name__ != name:
        def function(*args, **kwargs):
            return fn(*args, **kwargs)

        function.__name__ = function.__qualname__ = name
        function.__doc__ = fn.__doc__
        return function
    return fn


TORCH = {name: _torch_function(name, fn) for name, fn in TORCH.items()}


_NOT_METHODS = {"lu_unpack", "nuclear_norm"}  # torch.NAME without a Tensor method


def _attach(T):
    """The methods on `silt.Tensor` (called by `_tensor`): each of `TORCH`
    but `_NOT_METHODS` (`det`, `inverse`, `lu_solve`, ...) as
    `silt.NAME(self, ...)`."""
    for name, fn in TORCH.items():
        if name not in _NOT_METHODS:
            setattr(T, name, fn)

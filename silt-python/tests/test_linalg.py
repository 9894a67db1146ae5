"""`silt.linalg` and the torch-level forms of its functions (`silt.det`,
`silt.inverse`, `silt.cholesky_solve`, ... and the tensor methods), against
numpy.linalg and PyTorch's values (recorded here: the tests run without
PyTorch), on the host backend and an OpenCL device."""

import math

import numpy as np
import pytest

import silt
from silt import linalg as LA

RNG = np.random.default_rng(31)
TOL = {np.float64: 1e-12, np.float32: 1e-4}


def on(device, a, dtype=None):
    """A tensor of a copy of `a` (on the host, `silt.tensor` shares an array's memory)."""
    return silt.tensor(np.array(a, dtype=dtype), device=device)


def well_conditioned(shape, dtype=np.float64):
    """Random matrices of condition number about 3, their rows shuffled and
    some negated (so the pivots move and the determinants take both signs)."""
    n = shape[-1]
    a = RNG.standard_normal(shape) / math.sqrt(n) + 2 * np.eye(n)
    a = a[..., RNG.permutation(n), :]
    a *= RNG.choice([-1.0, 1.0], shape[:-1] + (1,))
    return a.astype(dtype)


def close(got, want, dtype, scale=None):
    """`got` (a tensor) equals `want` relatively within the dtype's tolerance
    (of `scale`, the magnitude of the results, where given)."""
    g = got.numpy() if isinstance(got, silt.Tensor) else np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    tol = TOL[np.dtype(dtype).type]
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol * (np.abs(want).max(initial=1) if scale is None else scale))


# ---- LU ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_lu_factor_and_lu(device, dtype):
    a = well_conditioned((3, 2, 6, 6), dtype)
    t = on(device, a)
    LU, piv = LA.lu_factor(t)
    assert LU.shape == (3, 2, 6, 6) and LU.dtype == dtype and LU.device == device
    assert piv.shape == (3, 2, 6) and piv.dtype == np.int32 and piv.device == device
    p = piv.numpy()
    assert (p >= np.arange(1, 7)).all() and (p <= 6).all()
    # the rows swapped in order give A's rows in the order of LU
    lu = LU.numpy()
    L = np.tril(lu, -1) + np.eye(6)
    U = np.triu(lu)
    swapped = a.copy()
    for idx in np.ndindex(3, 2):
        for k, r in enumerate(p[idx] - 1):
            swapped[idx][[k, r]] = swapped[idx][[r, k]]
    close(L @ U, swapped, dtype)
    assert (np.abs(L) <= 1 + 1e-6).all()  # partial pivoting: the multipliers are at most 1
    P, Lt, Ut = LA.lu(t)
    assert P.dtype == dtype and P.device == device and Lt.device == device
    assert np.array_equal(Lt.numpy(), L.astype(dtype)) and np.array_equal(Ut.numpy(), U)
    assert set(np.unique(P.numpy())) == {0, 1} and (P.numpy().sum(-1) == 1).all()
    close((P @ Lt @ Ut).numpy(), a, dtype)


def test_lu_pivots_as_pytorch(device):
    # a zero in the top-left needs the pivot; PyTorch's (LAPACK's) factors
    LU, piv = LA.lu_factor(on(device, [[0.0, 2.0], [4.0, 1.0]]))
    assert LU.tolist() == [[4.0, 1.0], [0.0, 2.0]] and piv.tolist() == [2, 2]
    LU, piv = LA.lu_factor(on(device, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
    np.testing.assert_allclose(LU.numpy(), [[5, 6], [0.2, 0.8], [0.6, 0.5]], rtol=1e-6)
    assert piv.tolist() == [3, 3]
    P, L, U = LA.lu(on(device, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    assert P.tolist() == [[0, 1], [1, 0]] and L.tolist() == [[1, 0], [0.25, 1]]
    assert U.tolist() == [[4, 5, 6], [0, 0.75, 1.5]]
    P, L, U = LA.lu(on(device, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert P.tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]] and L.shape == (3, 2) and U.shape == (2, 2)
    np.testing.assert_allclose(L.numpy(), [[1, 0], [0.2, 1], [0.6, 0.5]], rtol=1e-14)
    # a singular matrix: lu factors it (a zero on U's diagonal), lu_factor raises as PyTorch's
    s = on(device, [[0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    P, L, U = LA.lu(s)
    assert U.tolist() == [[3, 4, 5], [0, 0, 2], [0, 0, 1]] and L.tolist() == np.eye(3).tolist()
    assert P.tolist() == [[0, 0, 1], [0, 1, 0], [1, 0, 0]]
    with pytest.raises(LA.LinAlgError, match=r"^linalg.lu_factor: U\[2,2\] is zero"):
        LA.lu_factor(s)
    with pytest.raises(silt.ArgumentError, match=r"\(Batch element 1\): U\[2,2\] is zero"):
        LA.lu_factor(silt.stack([silt.eye(3, dtype=np.float64, device=device), s]))
    with pytest.raises(silt.ArgumentError):
        LA.lu_factor(s, pivot=False)


def test_lu_rectangular_and_empty(device):
    for shape in ((4, 7), (7, 4), (2, 1, 5), (3, 0, 4), (0, 3, 3)):
        a = RNG.standard_normal(shape)
        P, L, U = LA.lu(on(device, a))
        k = min(shape[-2:])
        assert P.shape == shape[:-1] + (shape[-2],) and L.shape == shape[:-1] + (k,)
        assert U.shape == shape[:-2] + (k, shape[-1])
        close(P @ L @ U, a, np.float64)
    LU, piv = LA.lu_factor(silt.zeros(2, 0, 0, dtype=np.float64, device=device))
    assert LU.shape == (2, 0, 0) and piv.shape == (2, 0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_lu_solve(device, dtype):
    a = well_conditioned((2, 5, 5), dtype)
    b = RNG.standard_normal((3, 1, 5, 2)).astype(dtype)
    LU, piv = LA.lu_factor(on(device, a))
    x = LA.lu_solve(LU, piv, on(device, b))
    assert x.shape == (3, 2, 5, 2) and x.dtype == dtype and x.device == device
    close(x, np.linalg.solve(a, b), dtype)
    close(LA.lu_solve(LU, piv, on(device, b), adjoint=True), np.linalg.solve(a.swapaxes(-1, -2), b), dtype)
    bt = b.swapaxes(-1, -2)
    want = np.linalg.solve(a.swapaxes(-1, -2), b).swapaxes(-1, -2)  # X A = B
    close(LA.lu_solve(LU, piv, on(device, bt), left=False), want, dtype)
    close(LA.lu_solve(LU, piv, on(device, bt), left=False, adjoint=True),
          np.linalg.solve(a, b).swapaxes(-1, -2), dtype)
    # torch's deprecated form, its arguments in the other order, and the method
    close(silt.lu_solve(on(device, b), LU, piv), np.linalg.solve(a, b), dtype)
    close(on(device, b).lu_solve(LU, piv), np.linalg.solve(a, b), dtype)


def test_lu_solve_checks(device):
    LU, piv = LA.lu_factor(on(device, well_conditioned((3, 3))))
    b = on(device, np.ones((3, 1)))
    with pytest.raises(silt.DTypeError):
        LA.lu_solve(LU, piv.long(), b)
    with pytest.raises(silt.DTypeError):
        LA.lu_solve(LU, piv, b.float())
    with pytest.raises(silt.ArgumentError, match="between 1 and"):
        LA.lu_solve(LU, on(device, [1, 4, 3], np.int32), b)
    with pytest.raises(silt.ArgumentError, match="between 1 and"):
        LA.lu_solve(LU, on(device, [0, 2, 3], np.int32), b)
    with pytest.raises(silt.ArgumentError):
        LA.lu_solve(LU, piv[:2], b)
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        LA.lu_solve(LU, piv, on(device, np.ones(3)))
    with pytest.raises(silt.ArgumentError, match=r"AX = B \(3x3 and 2x1\)"):
        LA.lu_solve(LU, piv, on(device, np.ones((2, 1))))


# ---- determinants -----------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_det_slogdet_logdet(device, dtype):
    a = well_conditioned((4, 3, 7, 7), dtype)
    t = on(device, a)
    want = np.linalg.det(a.astype(np.float64))
    assert (want < 0).any() and (want > 0).any()
    for got in (LA.det(t), silt.det(t), t.det()):
        assert got.shape == (4, 3) and got.dtype == dtype and got.device == device
        np.testing.assert_allclose(got.numpy(), want, rtol=TOL[dtype])
    sign, logabsdet = np.linalg.slogdet(a.astype(np.float64))
    for got in (LA.slogdet(t), silt.slogdet(t), t.slogdet()):
        assert isinstance(got, LA.SignLogAbsDet) and got.sign is got[0] and got.logabsdet is got[1]
        assert got.sign.dtype == dtype and got.sign.device == device and got.logabsdet.device == device
        assert np.array_equal(got.sign.numpy(), sign)
        np.testing.assert_allclose(got.logabsdet.numpy(), logabsdet, rtol=TOL[dtype], atol=TOL[dtype])
    ld = silt.logdet(t).numpy()
    assert np.isnan(ld[want < 0]).all()
    np.testing.assert_allclose(ld[want > 0], np.log(want[want > 0]), rtol=TOL[dtype], atol=TOL[dtype])
    assert np.array_equal(t.logdet().numpy(), ld, equal_nan=True)


def test_det_of_singular_and_special_matrices(device):
    # PyTorch's values: a singular matrix gives 0 (its sign), slogdet (0, -inf), logdet -inf
    s = on(device, [[0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    assert LA.det(s).item() == 0
    sign, logabsdet = LA.slogdet(s)
    assert sign.item() == 0 and logabsdet.item() == -math.inf and silt.logdet(s).item() == -math.inf
    assert LA.det(on(device, np.zeros((2, 2)))).item() == 0
    # a matrix of rank 1 that elimination leaves with rounding only: far below its scale
    r = np.outer([1.0, 2.0, 3.0], [0.3, 0.7, 1.1])
    assert abs(LA.det(on(device, r)).item()) < 1e-14
    assert math.isnan(silt.logdet(on(device, -np.eye(3))).item())
    assert silt.logdet(on(device, -np.eye(2))).item() == 0.0
    # 0 x 0 matrices: det 1, slogdet (1, 0), as PyTorch's
    z = silt.zeros(2, 0, 0, dtype=np.float64, device=device)
    assert LA.det(z).tolist() == [1.0, 1.0]
    assert LA.slogdet(z).sign.tolist() == [1.0, 1.0] and LA.slogdet(z).logabsdet.tolist() == [0.0, 0.0]
    assert LA.det(silt.zeros(0, 3, 3, dtype=np.float32, device=device)).shape == (0,)
    # a permutation's determinant is its sign, exactly
    for perm, sgn in (([1, 0, 2, 3], -1), ([1, 2, 3, 0], -1), ([1, 0, 3, 2], 1), ([2, 3, 0, 1], 1)):
        assert LA.det(on(device, np.eye(4)[perm])).item() == sgn
    # float16 in float32, rounded once
    h = on(device, [[3.0, 1.5], [0.25, 7.0]], np.float16)
    d = LA.det(h)
    assert d.dtype == np.float16 and d.item() == np.float16(np.float32(3 * 7 - 1.5 * 0.25))


# ---- inverse and solve ------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_inv(device, dtype):
    a = well_conditioned((3, 6, 6), dtype)
    t = on(device, a)
    want = np.linalg.inv(a.astype(np.float64))
    for got in (LA.inv(t), silt.inverse(t), t.inverse()):
        assert got.shape == (3, 6, 6) and got.dtype == dtype and got.device == device
        close(got, want, dtype)
    close(LA.inv(t.mT), np.linalg.inv(a.swapaxes(-1, -2).astype(np.float64)), dtype)  # a strided input
    assert LA.inv(silt.zeros(0, 0, dtype=dtype, device=device)).shape == (0, 0)
    assert LA.inv(on(device, [[4.0]], dtype)).tolist() == [[0.25]]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_solve(device, dtype):
    a = well_conditioned((2, 1, 5, 5), dtype)
    a64 = a.astype(np.float64)
    t = on(device, a)
    # matrices, the batches broadcast
    b = RNG.standard_normal((3, 5, 2)).astype(dtype)
    x = LA.solve(t, on(device, b))
    assert x.shape == (2, 3, 5, 2) and x.dtype == dtype and x.device == device
    close(x, np.linalg.solve(a64, b), dtype)
    # vectors: 1-d, or A's shape without its last dimension
    v = RNG.standard_normal(5).astype(dtype)
    x = LA.solve(t, on(device, v))
    assert x.shape == (2, 1, 5)
    close(x, np.linalg.solve(a64, v[:, None])[..., 0], dtype)
    vb = RNG.standard_normal((2, 1, 5)).astype(dtype)
    x = LA.solve(t, on(device, vb))
    assert x.shape == (2, 1, 5)
    close(x, np.linalg.solve(a64, vb[..., None])[..., 0], dtype)
    # B of (2, 5) beside A of (2, 1, 5, 5) is a matrix of 2 rows (not A's shape less its last dimension)
    with pytest.raises(silt.ArgumentError, match=r"AX = B \(5x5 and 2x5\)"):
        LA.solve(t, on(device, np.ones((2, 5), dtype)))
    # X A = B
    bt = RNG.standard_normal((4, 5)).astype(dtype)
    x = LA.solve(t, on(device, bt), left=False)
    assert x.shape == (2, 1, 4, 5)
    close(x, np.linalg.solve(a64.swapaxes(-1, -2), bt.T).swapaxes(-1, -2), dtype)
    with pytest.raises(silt.ArgumentError, match=r"XA = B"):
        LA.solve(t, on(device, np.ones((5, 4), dtype)), left=False)


def test_solve_with_pivoting_and_near_singular(device):
    # a zero in the top-left corner needs the row swap
    a = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]])
    b = np.array([1.0, 2.0, 3.0])
    close(LA.solve(on(device, a), on(device, b)), np.linalg.solve(a, b), np.float64)
    close(LA.inv(on(device, a)), np.linalg.inv(a), np.float64)
    # near-singular (condition number about 1e10): a small residual, the solution to about 1e-6
    u, _ = np.linalg.qr(RNG.standard_normal((6, 6)))
    w, _ = np.linalg.qr(RNG.standard_normal((6, 6)))
    a = u @ np.diag(np.logspace(0, -10, 6)) @ w
    b = RNG.standard_normal((6, 3))
    x = LA.solve(on(device, a), on(device, b)).numpy()
    assert np.abs(a @ x - b).max() < 1e-12 * np.abs(x).max()
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-5, atol=1e-5 * np.abs(x).max())


def test_singular_matrices_raise(device):
    s = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])
    with pytest.raises(LA.LinAlgError) as e:
        LA.inv(on(device, [[1.0, 2.0], [2.0, 4.0]]))
    assert isinstance(e.value, silt.ArgumentError) and issubclass(LA.LinAlgError, ValueError)
    assert str(e.value) == ("linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because "
                            "the input matrix is singular.")
    batch = on(device, np.stack([np.eye(3), s, s]))
    with pytest.raises(silt.ArgumentError, match=r"^linalg.inv: \(Batch element 1\): The diagonal element 3 is zero"):
        LA.inv(batch)
    with pytest.raises(silt.ArgumentError, match=r"^linalg.inv: \(Batch element 1\)"):
        batch.inverse()
    with pytest.raises(LA.LinAlgError, match=r"^linalg.solve: \(Batch element 2\): The diagonal element 3 is "
                                                 r"zero, the solve could not be completed because the input matrix"):
        LA.solve(on(device, np.stack([np.eye(3), np.eye(3), s])), on(device, np.ones(3)))
    with pytest.raises(silt.ArgumentError, match=r"^linalg.solve: The diagonal element 1 is zero"):
        LA.solve(on(device, np.zeros((2, 2), np.float32)), on(device, np.ones(2, np.float32)))
    with pytest.raises(silt.ArgumentError, match="singular"):
        silt.matrix_power(on(device, s), -2)


# ---- triangular solves ------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_solve_triangular(device, dtype):
    n = 6
    a = (RNG.standard_normal((2, 1, n, n)) / n + np.diag(RNG.uniform(1, 2, n) * RNG.choice([-1, 1], n))).astype(dtype)
    garbage = RNG.standard_normal((2, 1, n, n)).astype(dtype) * 100  # the other triangle is not read
    up = np.triu(a) + np.tril(garbage, -1)
    lo = np.tril(a) + np.triu(garbage, 1)
    b = RNG.standard_normal((3, n, 4)).astype(dtype)
    f = a.astype(np.float64)
    for upper, m, want in ((True, up, np.triu(f)), (False, lo, np.tril(f))):
        x = LA.solve_triangular(on(device, m), on(device, b), upper=upper)
        assert x.shape == (2, 3, n, 4) and x.dtype == dtype and x.device == device
        close(x, np.linalg.solve(want, b), dtype)
        # unit diagonal: the diagonal is not read either
        unit = want.copy()
        unit[..., range(n), range(n)] = 1
        close(LA.solve_triangular(on(device, m), on(device, b), upper=upper, unitriangular=True),
              np.linalg.solve(unit, b), dtype)
        # X A = B
        bt = b.swapaxes(-1, -2)
        x = LA.solve_triangular(on(device, m), on(device, bt), upper=upper, left=False)
        close(x, np.linalg.solve(want.swapaxes(-1, -2), b).swapaxes(-1, -2), dtype)
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        LA.solve_triangular(on(device, up), on(device, np.ones(n, dtype)), upper=True)
    with pytest.raises(silt.ArgumentError, match=r"XA = B \(6x6 and 6x4\)"):
        LA.solve_triangular(on(device, up), on(device, b), upper=True, left=False)
    with pytest.raises(TypeError):
        LA.solve_triangular(on(device, up), on(device, b))  # upper is required, as PyTorch's


# ---- Cholesky ---------------------------------------------------------------

def spd(shape, dtype=np.float64):
    a = RNG.standard_normal(shape)
    return (a @ a.swapaxes(-1, -2) / shape[-1] + np.eye(shape[-1])).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cholesky(device, dtype):
    a = spd((3, 2, 6, 6), dtype)
    want = np.linalg.cholesky(a.astype(np.float64))
    t = on(device, a)
    for got in (LA.cholesky(t), silt.cholesky(t), t.cholesky()):
        assert got.shape == (3, 2, 6, 6) and got.dtype == dtype and got.device == device
        close(got, want, dtype)
        assert not np.triu(got.numpy(), 1).any()
    up = want.swapaxes(-1, -2)
    for got in (LA.cholesky(t, upper=True), silt.cholesky(t, True), t.cholesky(upper=True)):
        close(got, up, dtype)
    # only the lower triangle is read, as PyTorch's: [[4, 2], [3, 5]] is [[4, 3], [3, 5]]
    np.testing.assert_allclose(LA.cholesky(on(device, [[4.0, 2.0], [3.0, 5.0]])).numpy(),
                               [[2.0, 0.0], [1.5, math.sqrt(5 - 2.25)]], rtol=1e-15)
    assert LA.cholesky(silt.zeros(2, 0, 0, dtype=dtype, device=device)).shape == (2, 0, 0)
    # with upper, only the upper triangle is read, as PyTorch's: [[4, 3], [2, 5]] is [[4, 3], [3, 5]]
    want_up = [[2.0, 1.5], [0.0, math.sqrt(5 - 2.25)]]
    np.testing.assert_allclose(LA.cholesky(on(device, [[4.0, 3.0], [2.0, 5.0]]), upper=True).numpy(), want_up,
                               rtol=1e-15)
    np.testing.assert_allclose(LA.cholesky_ex(on(device, [[4.0, 3.0], [-7.0, 5.0]]), upper=True).L.numpy(), want_up,
                               rtol=1e-15)


def test_cholesky_errors(device):
    bad = np.stack([np.eye(3), np.eye(3), [[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]])
    with pytest.raises(LA.LinAlgError) as e:
        LA.cholesky(on(device, bad))
    assert str(e.value) == ("linalg.cholesky: (Batch element 2): The factorization could not be completed because the "
                            "input is not positive-definite (the leading minor of order 2 is not positive-definite).")
    with pytest.raises(silt.ArgumentError, match=r"^linalg.cholesky: The factorization .* order 1 is not"):
        LA.cholesky(on(device, -np.eye(3)))
    with pytest.raises(silt.ArgumentError, match="order 3"):
        LA.cholesky(on(device, [[1.0, 0, 0], [0, 1, 0], [0, 0, 0]], np.float32))  # semi-definite
    with pytest.raises(silt.ArgumentError, match="order 2"):
        LA.cholesky(on(device, [[1.0, 0], [0, math.nan]]))
    with pytest.raises(silt.ArgumentError, match="square matrices, but they are 2 by 3"):
        LA.cholesky(on(device, np.ones((2, 3))))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cholesky_solve_and_inverse(device, dtype):
    a = spd((2, 5, 5), dtype)
    a64 = a.astype(np.float64)
    L = np.linalg.cholesky(a64)
    garbage = np.triu(RNG.standard_normal((2, 5, 5)), 1) * 10  # the other triangle is not read
    lt = on(device, (L + garbage).astype(dtype))
    ut = on(device, (L.swapaxes(-1, -2) + garbage.swapaxes(-1, -2)).astype(dtype))
    b = RNG.standard_normal((3, 1, 5, 2)).astype(dtype)
    want = np.linalg.solve(a64, b)
    for got in (silt.cholesky_solve(on(device, b), lt), on(device, b).cholesky_solve(lt),
                silt.cholesky_solve(on(device, b), ut, upper=True), on(device, b).cholesky_solve(ut, True)):
        assert got.shape == (3, 2, 5, 2) and got.dtype == dtype and got.device == device
        close(got, want, dtype)
    inv = np.linalg.inv(a64)
    for got in (silt.cholesky_inverse(lt), lt.cholesky_inverse(), silt.cholesky_inverse(ut, upper=True),
                ut.cholesky_inverse(True)):
        assert got.shape == (2, 5, 5) and got.device == device
        close(got, inv, dtype)
    # PyTorch's values for an L with a value above its diagonal (not read)
    got = silt.cholesky_solve(on(device, np.ones((2, 1))), on(device, [[2.0, 7.0], [1.0, 3.0]]))
    np.testing.assert_allclose(got.numpy(), [[8 / 36], [2 / 36]], rtol=1e-15)
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        silt.cholesky_solve(on(device, np.ones(5, dtype)), lt)


# ---- matrix powers ------------------------------------------------------------

def test_matrix_power_of_negative_powers(device):
    a = well_conditioned((2, 4, 4))
    t = on(device, a)
    for n in (-1, -2, -5):
        want = np.linalg.matrix_power(a, n)
        for got in (silt.matrix_power(t, n), LA.matrix_power(t, n), t.matrix_power(n)):
            assert got.dtype == np.float64 and got.device == device
            close(got, want, np.float64)
    # PyTorch's value
    assert LA.matrix_power(on(device, [[2.0, 1.0], [1.0, 1.0]], np.float32), -2).tolist() == [[2, -3], [-3, 5]]
    with pytest.raises(silt.DTypeError):
        silt.matrix_power(on(device, [[1, 2], [3, 4]]), -1)  # no inverse of integers, as PyTorch's


# ---- norms ------------------------------------------------------------------

def vector_norm(a, ord, axis):
    """The vector norm of order `ord` over `axis` (None: all), by its definition."""
    m = np.abs(a)
    if ord == 0:
        return (m != 0).sum(axis).astype(a.dtype)
    if ord == math.inf:
        return m.max(axis)
    if ord == -math.inf:
        return m.min(axis)
    return (m ** ord).sum(axis) ** (1 / ord)


def test_vector_norm(device):
    a = RNG.standard_normal((3, 4, 5))
    t = on(device, a)
    for ord in (2, 1, math.inf, -math.inf, 0, 0.5, 3, -1):
        for dim, axis in ((None, None), (-1, -1), ((0, 2), (0, 2)), ([1], 1)):
            got = LA.vector_norm(t, ord, dim)
            assert got.device == device and got.dtype == np.float64
            np.testing.assert_allclose(got.numpy(), vector_norm(a, ord, axis), rtol=1e-12, err_msg=f"{ord} {dim}")
    np.testing.assert_allclose(LA.vector_norm(t).item(), np.linalg.norm(a.reshape(-1)), rtol=1e-12)
    assert LA.vector_norm(t, keepdim=True).shape == (1, 1, 1)
    assert LA.vector_norm(t, 1, (0, -1), keepdim=True).shape == (1, 4, 1)
    np.testing.assert_allclose(LA.vector_norm(t, dim=()).item(), np.linalg.norm(a.reshape(-1)), rtol=1e-12)
    f = on(device, a, np.float32)
    assert LA.vector_norm(f, dtype=np.float64).dtype == np.float64
    assert LA.vector_norm(on(device, [3.0, 4.0], np.float16)).tolist() == 5.0
    assert LA.vector_norm(on(device, 2.0)).item() == 2.0
    assert LA.vector_norm(silt.zeros(2, 0, device=device), 2, 1).tolist() == [0, 0]
    assert LA.vector_norm(silt.zeros(2, 0, device=device), math.inf, 0).shape == (0,)
    with pytest.raises(silt.ArgumentError, match="empty"):
        LA.vector_norm(silt.zeros(2, 0, device=device), math.inf, 1)
    with pytest.raises(silt.ArgumentError, match="empty"):
        LA.vector_norm(silt.zeros(0, device=device), -math.inf)
    with pytest.raises(silt.DTypeError):
        LA.vector_norm(on(device, [1, 2]))
    with pytest.raises(silt.DTypeError, match="narrowing"):
        LA.vector_norm(t, dtype=np.float32)
    with pytest.raises(TypeError):
        LA.vector_norm(t, "fro")


def test_matrix_norm_and_norm(device):
    a = RNG.standard_normal((2, 4, 5))
    t = on(device, a)
    for ord in ("fro", 1, -1, math.inf, -math.inf):
        got = LA.matrix_norm(t, ord)
        assert got.shape == (2,) and got.device == device
        np.testing.assert_allclose(got.numpy(), np.linalg.norm(a, ord, axis=(-2, -1)), rtol=1e-12)
        got = LA.matrix_norm(t, ord, dim=(2, 0), keepdim=True)
        assert got.shape == (1, 4, 1)
        np.testing.assert_allclose(got.numpy()[0, :, 0], np.linalg.norm(a, ord, axis=(2, 0)), rtol=1e-12)
        np.testing.assert_allclose(LA.norm(t, ord, dim=(1, 2)).numpy(), np.linalg.norm(a, ord, axis=(1, 2)),
                                   rtol=1e-12)
        np.testing.assert_allclose(LA.norm(t[0], ord).numpy(), np.linalg.norm(a[0], ord), rtol=1e-12)
    # PyTorch's value, and the dispatch of norm
    x = on(device, [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)
    assert LA.matrix_norm(x, 1, dim=(1, 0), keepdim=True).tolist() == [[15.0]]
    assert LA.norm(x, 1).item() == 9.0 and LA.matrix_norm(x.half(), 1).dtype == np.float16
    np.testing.assert_allclose(LA.norm(x).item(), math.sqrt(91), rtol=1e-6)
    np.testing.assert_allclose(LA.norm(x.reshape(1, 2, 3)).item(), math.sqrt(91), rtol=1e-6)
    np.testing.assert_allclose(LA.norm(x, 2, dim=1).numpy(), [math.sqrt(14), math.sqrt(77)], rtol=1e-6)
    assert LA.norm(x.reshape(-1), 1).item() == 21.0
    assert LA.matrix_norm(silt.zeros(0, 3, device=device), math.inf).item() == 0
    assert LA.matrix_norm(silt.zeros(0, 3, device=device), 1).item() == 0
    # the orders by the singular values
    for ord in (2, -2, "nuc"):
        want = np.stack([np.linalg.norm(m, ord) for m in a])
        close(LA.matrix_norm(t, ord), want, np.float64)
        close(LA.matrix_norm(t, ord, dim=(2, 1), keepdim=True),
              np.stack([np.linalg.norm(m.T, ord) for m in a])[:, None, None], np.float64)
        close(LA.norm(x, ord), np.linalg.norm(x.numpy().astype(np.float64), ord), np.float32)
    for bad in (dict(ord=3), dict(ord="abc"), dict(dim=(0, 0)), dict(dim=1)):
        with pytest.raises(silt.ArgumentError):
            LA.matrix_norm(t, **bad)
    with pytest.raises(silt.ArgumentError, match="1D or 2D"):
        LA.norm(t, 1)
    with pytest.raises(silt.ArgumentError):
        LA.norm(x.reshape(-1), "fro")
    with pytest.raises(silt.ArgumentError):
        LA.norm(x, "fro", dim=1)
    with pytest.raises(silt.ArgumentError):
        LA.matrix_norm(on(device, [1.0, 2.0]))
    with pytest.raises(silt.DTypeError):
        LA.matrix_norm(on(device, [[1, 2], [3, 4]]))


# ---- aliases ------------------------------------------------------------------

def test_aliases(device):
    a, b = RNG.standard_normal((3, 4)), RNG.standard_normal(4)
    got = LA.vecdot(on(device, a), on(device, b))
    assert got.shape == (3,) and got.device == device
    np.testing.assert_allclose(got.numpy(), a @ b, rtol=1e-12)
    np.testing.assert_allclose(LA.vecdot(on(device, a), on(device, a[:1]), dim=0).numpy(), (a * a[:1]).sum(0),
                               rtol=1e-12)
    with pytest.raises(silt.DTypeError):
        LA.vecdot(on(device, a), on(device, b, np.float32))
    with pytest.raises(silt.DTypeError):
        LA.vecdot(on(device, [1, 2]), on(device, [1, 2]))
    u, v = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    np.testing.assert_allclose(LA.cross(on(device, u), on(device, v)).numpy(), np.cross(u, v), rtol=1e-12)
    np.testing.assert_allclose(LA.cross(on(device, u.T), on(device, v.T), dim=0).numpy(), np.cross(u, v).T,
                               rtol=1e-12)
    ms = [RNG.standard_normal(s) for s in ((5,), (5, 3), (3, 8), (8,))]
    got = LA.multi_dot([on(device, m) for m in ms])
    assert got.shape == () and got.device == device
    np.testing.assert_allclose(got.item(), np.linalg.multi_dot(ms), rtol=1e-12)
    got = LA.multi_dot([on(device, m) for m in ms[1:]])
    assert got.shape == (5,)
    np.testing.assert_allclose(got.numpy(), np.linalg.multi_dot(ms[1:]), rtol=1e-12)
    assert LA.multi_dot([on(device, [1.0, 1, 1]), on(device, [1.0, 1, 1])]).item() == 3.0
    with pytest.raises(silt.ArgumentError, match="at least 2"):
        LA.multi_dot([on(device, ms[1])])
    with pytest.raises(silt.ArgumentError):
        LA.multi_dot([on(device, ms[1]), on(device, np.ones((3, 2, 2)))])
    with pytest.raises(silt.DTypeError):
        LA.multi_dot([on(device, ms[1]), on(device, ms[2], np.float32)])
    m = on(device, RNG.standard_normal((2, 3, 4)))
    assert LA.diagonal(m).tolist() == np.diagonal(m.numpy(), axis1=-2, axis2=-1).tolist()
    assert LA.diagonal(m, offset=1, dim1=0, dim2=2).tolist() == np.diagonal(m.numpy(), 1, 0, 2).tolist()
    k = RNG.standard_normal((4, 3))
    np.testing.assert_allclose(LA.matmul(m, on(device, k)).numpy(), m.numpy() @ k, rtol=1e-12)
    x = on(device, [[1, 2, 3], [2, 0, -1]])
    assert LA.vander(x).tolist() == [[[1, 1, 1], [1, 2, 4], [1, 3, 9]], [[1, 2, 4], [1, 0, 0], [1, -1, 1]]]
    v = LA.vander(on(device, [0.5, 2.0], np.float32), N=4)
    assert v.dtype == np.float32 and v.tolist() == np.vander([0.5, 2.0], 4, increasing=True).tolist()
    for bad in (dict(x=on(device, [3.0]), N=1), dict(x=on(device, [3.0])), dict(x=on(device, 3.0))):
        with pytest.raises(silt.ArgumentError):
            LA.vander(**bad)
    with pytest.raises(silt.DTypeError):
        LA.vander(on(device, [True, False]))


# ---- dtypes, shapes, forms ----------------------------------------------------

def test_float16_rounds_once(device):
    a = well_conditioned((2, 4, 4), np.float16)
    h = on(device, a)
    f = h.float()
    s = spd((4, 4), np.float16)
    b = on(device, RNG.standard_normal((4, 2)), np.float16)
    pairs = [
        (LA.inv(h), LA.inv(f)), (LA.det(h), LA.det(f)), (LA.solve(h, b), LA.solve(f, b.float())),
        (LA.cholesky(on(device, s)), LA.cholesky(on(device, s).float())), (LA.lu_factor(h)[0], LA.lu_factor(f)[0]),
        (LA.slogdet(h).logabsdet, LA.slogdet(f).logabsdet), (LA.lu(h).L, LA.lu(f).L),
        (LA.solve_triangular(h, b, upper=True), LA.solve_triangular(f, b.float(), upper=True)),
    ]
    for got, wide in pairs:
        assert got.dtype == np.float16 and got.device == device
        assert np.array_equal(got.numpy(), wide.numpy().astype(np.float16))
    assert np.array_equal(LA.lu_factor(h).pivots.numpy(), LA.lu_factor(f).pivots.numpy())


def test_dtype_and_shape_errors(device):
    ints = on(device, [[1, 2], [3, 4]])
    for fn in (LA.det, LA.slogdet, LA.inv, LA.cholesky, LA.lu_factor, LA.lu, silt.logdet, silt.inverse):
        with pytest.raises(silt.DTypeError, match="floating point"):
            fn(ints)
        with pytest.raises(silt.DTypeError):
            fn(on(device, [[True, False], [False, True]]))
        with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
            fn(on(device, [1.0, 2.0]))
    for fn in (LA.det, LA.slogdet, LA.inv, LA.cholesky, silt.logdet):
        with pytest.raises(silt.ArgumentError, match="square matrices, but they are 2 by 3 matrices"):
            fn(on(device, np.ones((2, 3))))
    a = on(device, np.eye(3))
    with pytest.raises(silt.DTypeError, match="same dtype"):
        LA.solve(a, on(device, np.ones(3, np.float32)))
    with pytest.raises(silt.DTypeError):
        LA.solve_triangular(a, on(device, np.ones((3, 1), np.float32)), upper=False)
    with pytest.raises(silt.ArgumentError, match="do not broadcast"):
        LA.solve(on(device, np.ones((2, 3, 3))), on(device, np.ones((3, 3, 1))))
    # Python data as A: silt.tensor's float64
    assert LA.det([[1.0, 2.0], [3.0, 4.0]]).dtype == np.float64



# ---- the _ex forms, PyTorch's deprecated forms, tensorinv and tensorsolve ---

def test_ex_forms_report_instead_of_raising(device):
    good = well_conditioned((2, 4, 4))
    singular = good.copy()
    singular[0, 1] = 0.0
    singular[0, :, 2] = 0.0  # column 3 of the first matrix is zero: its third pivot is
    spd = good @ np.swapaxes(good, -1, -2) + np.eye(4)
    spd[1, 1, 1] = -5.0  # the second matrix's leading minor of order 2 is not positive-definite
    a = on(device, singular)
    inverse, info = LA.inv_ex(a)
    assert info.dtype == np.int32 and info.shape == (2,) and info.device == device
    assert info.tolist() == [3, 0]
    close(inverse[1], np.linalg.inv(singular[1]), np.float64)
    b = RNG.standard_normal((2, 4, 2))
    x, info = LA.solve_ex(a, on(device, b))
    assert info.tolist() == [3, 0]
    close(x[1], np.linalg.solve(singular[1], b[1]), np.float64)
    x, info = LA.solve_ex(a, on(device, b[..., 0]))  # a batch of vectors
    assert x.shape == (2, 4) and info.tolist() == [3, 0]
    LU, piv, info = LA.lu_factor_ex(a)
    assert info.tolist() == [3, 0]
    want = LA.lu_factor(on(device, singular[1]))
    assert LU[1].tolist() == want.LU.tolist() and piv[1].tolist() == want.pivots.tolist()
    L, info = LA.cholesky_ex(on(device, spd))
    assert info.tolist() == [0, 2]
    close(L[0], np.linalg.cholesky(spd[0]), np.float64)
    U, info = LA.cholesky_ex(on(device, spd[:1]), upper=True)
    assert info.tolist() == [0]
    close(U[0], np.linalg.cholesky(spd[0]).T, np.float64)
    s = on(device, spd)
    for fn, bad, fine in ((LA.inv_ex, (a,), (a[1:],)), (LA.solve_ex, (a, on(device, b)), (a[1:], on(device, b[1:]))),
                          (LA.lu_factor_ex, (a,), (a[1:],)), (LA.cholesky_ex, (s,), (s[:1],))):
        with pytest.raises(LA.LinAlgError):
            fn(*bad, check_errors=True)
        assert fn(*fine, check_errors=True)[-1].tolist() == [0]
    # PyTorch's field names, and empty matrices
    assert LA.inv_ex(on(device, np.eye(2))).inverse.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert LA.cholesky_ex(on(device, np.ones((3, 0, 0)))).info.tolist() == [0, 0, 0]


def test_solve_ex_info_has_the_batch_of_a(device):
    # info is A's, as PyTorch's: one per matrix factored, not per right-hand side
    a = on(device, np.stack([np.eye(3), np.zeros((3, 3))])[:, None])  # (2, 1, 3, 3)
    x, info = LA.solve_ex(a, on(device, np.ones((4, 3, 2))))
    assert x.shape == (2, 4, 3, 2) and info.shape == (2, 1) and info.tolist() == [[0], [1]]
    assert LA.solve_ex(on(device, np.eye(3)), on(device, np.ones((4, 3, 1)))).info.shape == ()
    # a vector B with left=False is refused, whatever n (PyTorch's: B / A.squeeze(-1) is meant)
    for n in (1, 3):
        with pytest.raises(silt.ArgumentError, match="Vector broadcasting"):
            LA.solve(on(device, np.eye(n)), on(device, np.ones(n)), left=False)
    with pytest.raises(silt.ArgumentError, match="Vector broadcasting"):
        LA.solve_ex(on(device, [[2.0]]), on(device, [1.0]), left=False)


def test_norms_without_an_identity_on_empty_input(device):
    for shape, raises in (((0, 0), (-1, -2, -math.inf)), ((3, 0), (-1, -2)), ((0, 3), (-2, -math.inf)),
                          ((2, 0, 0), (-1, -2, -math.inf))):
        t = on(device, np.zeros(shape))
        for ord in (1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc"):
            if ord in raises:
                with pytest.raises(silt.ArgumentError):
                    LA.matrix_norm(t, ord)
            else:
                assert not LA.matrix_norm(t, ord).numpy().any()
    for ord in (-1, -2, -0.5, math.inf, -math.inf):
        with pytest.raises(silt.ArgumentError):
            LA.vector_norm(on(device, np.zeros(0)), ord)
        with pytest.raises(silt.ArgumentError):
            LA.vector_norm(on(device, np.zeros((2, 0))), ord, dim=1)
        assert LA.vector_norm(on(device, np.zeros((2, 0))), ord, dim=0).shape == (0,)
        with pytest.raises(silt.ArgumentError):
            on(device, np.zeros((2, 0))).norm(ord, 1)
    for ord in (0, 1, 2, 0.5):
        assert LA.vector_norm(on(device, np.zeros(0)), ord).item() == 0.0


def test_cross_as_pytorch(device):
    with pytest.raises(silt.ArgumentError, match="same number of dimensions"):
        LA.cross(on(device, np.ones((4, 3))), on(device, np.ones(3)))
    with pytest.raises(silt.DTypeError):
        LA.cross(on(device, np.ones(3, bool)), on(device, np.ones(3, bool)))
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((1, 3))
    close(LA.cross(on(device, a), on(device, b)), np.cross(a, b), np.float64)


@pytest.mark.parametrize("shape", [(5, 5), (6, 3), (3, 6), (2, 4, 4)])
def test_lu_unpack_and_torch_lu(device, shape):
    a = RNG.standard_normal(shape)
    t = on(device, a)
    LU, piv = silt.lu(t)
    want = LA.lu(t)
    P, L, U = silt.lu_unpack(LU, piv)
    for got, w in zip((P, L, U), want):
        assert got.shape == w.shape and got.tolist() == w.tolist()
    close(P.numpy() @ L.numpy() @ U.numpy(), a, np.float64)
    P2, L2, U2 = silt.lu_unpack(LU, piv, unpack_data=False)
    assert P2.tolist() == P.tolist() and L2.shape == U2.shape == (0,)
    P3, L3, U3 = silt.lu_unpack(LU, piv, unpack_pivots=False)
    assert P3.shape == (0,) and L3.tolist() == L.tolist() and U3.tolist() == U.tolist()
    LU2, piv2, infos = t.lu(get_infos=True)
    assert LU2.tolist() == LU.tolist() and piv2.tolist() == piv.tolist()
    assert infos.shape == tuple(shape[:-2]) and not infos.numpy().any()
    with pytest.raises(silt.ArgumentError, match="between 1 and"):
        silt.lu_unpack(LU, piv * 0)
    with pytest.raises(silt.DTypeError):
        silt.lu_unpack(LU, piv.astype(np.int64))
    assert not hasattr(silt.Tensor, "lu_unpack")


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
def test_triangular_solve(device, upper, transpose):
    a = well_conditioned((2, 1, 5, 5))
    a = np.triu(a) if upper else np.tril(a)
    b = RNG.standard_normal((3, 5, 2))
    sol, coeff = silt.triangular_solve(on(device, b), on(device, a), upper=upper, transpose=transpose)
    m = np.swapaxes(a, -1, -2) if transpose else a
    close(sol, np.linalg.solve(m, b), np.float64)
    assert coeff.shape == (2, 3, 5, 5) and coeff.tolist() == np.broadcast_to(a, (2, 3, 5, 5)).tolist()
    # only the named triangle is read, and unitriangular skips the diagonal
    noisy = a + (np.tril(np.ones((5, 5)), -1) if upper else np.triu(np.ones((5, 5)), 1))
    unit = on(device, b).triangular_solve(on(device, noisy), upper=upper, transpose=transpose,
                                          unitriangular=True).solution
    ones = a.copy()
    np.einsum("...ii->...i", ones)[:] = 1.0
    m = np.swapaxes(ones, -1, -2) if transpose else ones
    close(unit, np.linalg.solve(m, b), np.float64)


def test_tensorinv_and_tensorsolve(device):
    a = well_conditioned((24, 24)).reshape(4, 6, 8, 3)
    close(LA.tensorinv(on(device, a)), np.linalg.tensorinv(a), np.float64)
    close(LA.tensorinv(on(device, a.reshape(4, 2, 3, 24)), ind=3), np.linalg.tensorinv(a.reshape(4, 2, 3, 24), 3),
          np.float64)
    with pytest.raises(silt.ArgumentError, match="prod"):
        LA.tensorinv(on(device, np.ones((2, 3, 4))), ind=1)
    with pytest.raises(silt.ArgumentError, match="strictly positive"):
        LA.tensorinv(on(device, a), ind=0)
    b = RNG.standard_normal((4, 6))
    close(LA.tensorsolve(on(device, a), on(device, b)), np.linalg.tensorsolve(a, b), np.float64)
    a2 = np.moveaxis(a, 0, 3)  # [6, 8, 3, 4]: dims (1, 2) moved last give [6, 4, 8, 3]
    close(LA.tensorsolve(on(device, a2), on(device, b.T.copy()), dims=(1, 2)),
          np.linalg.tensorsolve(a2, b.T.copy(), axes=(1, 2)), np.float64)
    with pytest.raises(silt.ArgumentError, match="prod"):
        LA.tensorsolve(on(device, a), on(device, b.reshape(24)))
    with pytest.raises(silt.ArgumentError, match="elements"):
        LA.tensorsolve(on(device, a), on(device, b[:, :5]))

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_ldl_factor_and_solve(device, dtype):
    a = RNG.standard_normal((2, 3, 6, 6))
    a = a + np.swapaxes(a, -1, -2)
    a[..., range(6), range(6)] *= 0.05  # small diagonals: 2 x 2 pivots
    t = on(device, a, dtype)
    LD, piv = LA.ldl_factor(t)
    assert isinstance(LA.ldl_factor(t), LA.LDLFactor) and LD.dtype == dtype and piv.dtype == np.int32
    assert LD.shape == (2, 3, 6, 6) and piv.shape == (2, 3, 6) and (piv.numpy() < 0).any()
    assert not np.triu(LD.numpy(), 1).any()
    b = RNG.standard_normal((2, 3, 6, 2))
    close(LA.ldl_solve(LD, piv, on(device, b, dtype)), np.linalg.solve(a, b), dtype, scale=np.abs(np.linalg.solve(a, b)).max())
    # B's batch broadcast
    bb = RNG.standard_normal((4, 1, 1, 6, 1))
    x = LA.ldl_solve(LD, piv, on(device, bb, dtype))
    assert x.shape == (4, 2, 3, 6, 1)
    want = np.linalg.solve(np.broadcast_to(a, (4, 2, 3, 6, 6)), np.broadcast_to(bb, (4, 2, 3, 6, 1)))
    close(x, want, dtype, scale=np.abs(want).max())
    # PyTorch's (LAPACK's) values: a 2 x 2 block of columns 1 and 3
    LD, piv = LA.ldl_factor(on(device, [[1.0, 2.0, 3.0], [2.0, 1.0, 4.0], [3.0, 4.0, 0.0]], dtype))
    assert piv.tolist() == [-3, -3, 3]
    close(LD, [[1.0, 0.0, 0.0], [3.0, 0.0, 0.0], [4 / 3, 2 / 9, -23 / 9]], dtype)
    # only the lower triangle is read
    noisy = np.tril(a[0, 0]) + np.triu(np.full((6, 6), 99.0), 1)
    assert LA.ldl_factor(on(device, noisy, dtype)).LD.tolist() == LA.ldl_factor(on(device, a[0, 0], dtype)).LD.tolist()


def test_ldl_errors_and_ex_form(device):
    z = on(device, np.zeros((2, 3, 3)))
    LD, piv, info = LA.ldl_factor_ex(z)
    assert info.tolist() == [1, 1] and piv.tolist() == [[1, 2, 3], [1, 2, 3]] and not LD.numpy().any()
    with pytest.raises(LA.LinAlgError, match="D is singular"):
        LA.ldl_factor(z)
    with pytest.raises(LA.LinAlgError):
        LA.ldl_factor_ex(z, check_errors=True)
    assert LA.ldl_factor_ex(on(device, np.eye(3)), check_errors=True).info.tolist() == 0
    assert LA.ldl_factor(on(device, np.zeros((0, 3, 3)))).LD.shape == (0, 3, 3)
    h = LA.ldl_factor(on(device, [[2.0, 1.0], [1.0, 3.0]], np.float16))
    assert h.LD.dtype == np.float16
    LD, piv = LA.ldl_factor(on(device, [[2.0, 1.0], [1.0, 3.0]]))
    with pytest.raises(silt.DTypeError):
        LA.ldl_solve(LD, piv.astype(np.int64), on(device, np.ones((2, 1))))
    with pytest.raises(silt.ArgumentError, match="pivots"):
        LA.ldl_solve(LD, on(device, np.array([1, 3], np.int32)), on(device, np.ones((2, 1))))
    with pytest.raises(silt.ArgumentError):
        LA.ldl_solve(LD, piv, on(device, np.ones((3, 1))))
    with pytest.raises(silt.DTypeError):
        LA.ldl_factor(on(device, [[1, 0], [0, 1]]))
    with pytest.raises(silt.ArgumentError):
        LA.ldl_factor(on(device, np.ones((2, 3))))


def test_forms_and_names():
    for name in ("det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_solve", "cholesky_inverse", "lu_solve",
                 "lu", "triangular_solve", "qr", "geqrf", "orgqr", "ormqr", "matrix_exp", "svd", "pinverse"):
        assert name in silt.__all__ and getattr(silt, name).__name__ == name and getattr(silt, name).__doc__
        assert getattr(silt.Tensor, name).__doc__
    assert "linalg" in silt.__all__ and silt.linalg is LA
    for name in LA.__all__:
        assert getattr(LA, name).__doc__, name
    assert LA.matrix_power is silt.matrix_power
    from silt import _linalg_jacobi, _linalg_qr
    for mod in (_linalg_qr, _linalg_jacobi):
        for name in mod.__all__:
            assert getattr(LA, name) is getattr(mod, name) and name in LA.__all__
    assert silt.nuclear_norm.__name__ == "nuclear_norm" and not hasattr(silt.Tensor, "nuclear_norm")


def test_module_doctest():
    import doctest
    assert doctest.testmod(LA).failed == 0

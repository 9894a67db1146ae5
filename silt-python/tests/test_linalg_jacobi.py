"""The decompositions by Jacobi's method (`silt._linalg_jacobi`: `eigh`,
`eigvalsh`, `svd`, `svdvals`, `pinv`, `matrix_rank`, `cond`, the spectral and
nuclear norms, torch's `svd`, `pinverse`, `nuclear_norm`) against
numpy.linalg, with `matrix_sqrth` and `polar` on them, on the host backend and an OpenCL device. The matrices are
small (the suite runs in seconds); eigenvectors and singular vectors are
checked by what defines them (reconstruction, orthonormality), not by their
signs."""

import math

import numpy as np
import pytest

import silt
from silt import _linalg_jacobi as J

RNG = np.random.default_rng(57)
TOL = {np.float64: 1e-12, np.float32: 1e-4}


def on(device, a, dtype=None):
    """A tensor of a copy of `a` (on the host, `silt.tensor` shares an array's memory)."""
    return silt.tensor(np.array(a, dtype=dtype), device=device)


def symmetric(shape, dtype=np.float64):
    a = RNG.standard_normal(shape)
    return ((a + a.swapaxes(-1, -2)) / 2).astype(dtype)


def orthogonal(n):
    q, _ = np.linalg.qr(RNG.standard_normal((n, n)))
    return q


def close(got, want, dtype, scale=None):
    """`got` (a tensor or array) equals `want` within the dtype's tolerance
    relative to the largest `|want|` (or `scale`)."""
    g = got.numpy() if isinstance(got, silt.Tensor) else np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    tol = TOL[np.dtype(dtype).type]
    s = np.abs(want).max(initial=1) if scale is None else scale
    np.testing.assert_allclose(g, want, rtol=0, atol=tol * s)


def orthonormal(q, dtype, axis=-2):
    """The columns (`axis=-2`) or rows (`axis=-1`) of the matrices `q` are orthonormal."""
    q = q.numpy().astype(np.float64)
    g = q.swapaxes(-1, -2) @ q if axis == -2 else q @ q.swapaxes(-1, -2)
    close(g, np.broadcast_to(np.eye(g.shape[-1]), g.shape), dtype, scale=1)


def check_eigh(device, a, dtype, uplo="L"):
    """eigh of `a` against numpy's: the values ascending, the vectors
    orthonormal and rebuilding the matrix."""
    w, V = J.eigh(on(device, a), UPLO=uplo)
    assert w.dtype == dtype and V.dtype == dtype and w.device == device and V.device == device
    assert w.shape == a.shape[:-1] and V.shape == a.shape
    a64 = a.astype(np.float64)
    want = np.linalg.eigvalsh(a64, UPLO=uplo)
    scale = np.abs(want).max(initial=1)
    close(w, want, dtype, scale)
    wn = w.numpy().astype(np.float64)
    assert (np.diff(wn, axis=-1) >= 0).all()
    orthonormal(V, dtype)
    full = np.tril(a64) + np.tril(a64, -1).swapaxes(-1, -2) if uplo == "L" else \
        np.triu(a64) + np.triu(a64, 1).swapaxes(-1, -2)
    v = V.numpy().astype(np.float64)
    close((v * wn[..., None, :]) @ v.swapaxes(-1, -2), full, dtype, scale)
    return w, V


def check_svd(device, a, dtype, full_matrices=True):
    """svd of `a` against numpy's: the values descending, U and Vh
    orthonormal (all their columns and rows) and rebuilding the matrix."""
    U, S, Vh = J.svd(on(device, a), full_matrices=full_matrices)
    *batch, m, n = a.shape
    k = min(m, n)
    batch = tuple(batch)
    assert S.shape == batch + (k,) and S.dtype == dtype and S.device == device
    assert U.shape == batch + ((m, m) if full_matrices else (m, k)) and U.dtype == dtype and U.device == device
    assert Vh.shape == batch + ((n, n) if full_matrices else (k, n)) and Vh.dtype == dtype
    want = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    scale = np.abs(want).max(initial=1)
    close(S, want, dtype, scale)
    s = S.numpy().astype(np.float64)
    assert (np.diff(s, axis=-1) <= 0).all() and (s >= 0).all()
    orthonormal(U, dtype)
    orthonormal(Vh, dtype, axis=-1)
    u, vh = U.numpy().astype(np.float64), Vh.numpy().astype(np.float64)
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a.astype(np.float64), dtype, scale)
    return U, S, Vh


# ---- the tournament -----------------------------------------------------------

# ---- eigh ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_eigh_random_batches(device, dtype):
    for shape in ((2, 3, 5, 5), (6, 6), (1, 1), (2, 2), (3, 3), (7, 7)):
        w, _ = check_eigh(device, symmetric(shape, dtype), dtype)
    a = symmetric((2, 1, 4, 4), dtype)
    close(J.eigvalsh(on(device, a)), np.linalg.eigvalsh(a.astype(np.float64)), dtype)
    assert isinstance(J.eigh(on(device, a)), J.EighResult)
    res = J.eigh(on(device, a))
    assert res.eigenvalues is res[0] and res.eigenvectors is res[1]


def test_eigh_reads_one_triangle(device):
    a = symmetric((2, 5, 5))
    garbage = RNG.standard_normal((2, 5, 5)) * 100
    lower = np.tril(a) + np.triu(garbage, 1)
    upper = np.triu(a) + np.tril(garbage, -1)
    w, _ = check_eigh(device, lower, np.float64, "L")
    close(w, np.linalg.eigvalsh(a), np.float64)
    w, _ = check_eigh(device, upper, np.float64, "U")
    close(w, np.linalg.eigvalsh(a), np.float64)
    close(J.eigvalsh(on(device, upper), UPLO="u"), np.linalg.eigvalsh(a), np.float64)
    with pytest.raises(silt.ArgumentError, match="UPLO"):
        J.eigh(on(device, a), UPLO="X")


def test_eigh_repeated_and_badly_scaled(device):
    # the identity and zero: diagonal already (no sweep), any orthonormal basis
    for a in (np.eye(4), np.zeros((3, 3)), np.diag([3.0, -1.0, 2.0])):
        w, V = check_eigh(device, a, np.float64)
    assert w.tolist() == [-1.0, 2.0, 3.0]
    # double eigenvalues in a rotated basis
    q = orthogonal(6)
    a = q @ np.diag([2.0, 2.0, 5.0, -1.0, -1.0, 0.5]) @ q.T
    w, _ = check_eigh(device, (a + a.T) / 2, np.float64)
    close(w, [-1, -1, 0.5, 2, 2, 5], np.float64, scale=5)
    # eigenvalues 20 orders apart: accurate relative to the largest
    q = orthogonal(3)
    a = q @ np.diag([1e10, 1.0, 1e-10]) @ q.T
    check_eigh(device, (a + a.T) / 2, np.float64)
    w = J.eigvalsh(on(device, np.diag([1e10, 1.0, 1e-10])))
    assert w.tolist() == [1e-10, 1.0, 1e10]
    # huge and tiny scales do not overflow nor underflow
    b = symmetric((4, 4))
    for s in (1e300, 1e-300):
        close(J.eigvalsh(on(device, b * s)) / s, np.linalg.eigvalsh(b), np.float64)


def test_eigh_float16_empty_and_errors(device):
    h = symmetric((2, 4, 4), np.float16)
    w, V = J.eigh(on(device, h))
    assert w.dtype == np.float16 and V.dtype == np.float16
    # computed in float32 and rounded once: float32's result rounded
    w32, V32 = J.eigh(on(device, h, np.float32))
    assert np.array_equal(w.numpy(), w32.numpy().astype(np.float16))
    assert np.array_equal(V.numpy(), V32.numpy().astype(np.float16))
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(h.astype(np.float64)), atol=4e-3)
    for shape in ((0, 0), (3, 0, 4, 4), (2, 0, 0)):
        w, V = J.eigh(silt.zeros(*shape, dtype=np.float64, device=device))
        assert w.shape == shape[:-1] and V.shape == shape and w.device == device
        assert J.eigvalsh(silt.zeros(*shape, dtype=np.float32, device=device)).shape == shape[:-1]
    with pytest.raises(silt.DTypeError):
        J.eigh(on(device, [[1, 2], [2, 1]]))
    with pytest.raises(silt.DTypeError):
        J.eigvalsh(on(device, [[True]]))
    with pytest.raises(silt.ArgumentError, match="square"):
        J.eigh(on(device, np.ones((2, 3))))
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        J.eigvalsh(on(device, np.ones(3)))


def test_eigh_nan_returns_nan(device):
    bad = np.eye(4)
    bad[2, 1] = bad[1, 2] = math.nan
    good = symmetric((4, 4))
    w, V = J.eigh(on(device, np.stack([bad, good])))  # returns (no endless sweeps)
    assert np.isnan(w.numpy()[0]).all() and np.isnan(V.numpy()[0]).all()
    close(w[1], np.linalg.eigvalsh(good), np.float64)  # the other matrix of the batch is not spoilt
    assert np.isnan(J.eigvalsh(on(device, [[1.0, math.inf], [math.inf, 1.0]])).numpy()).all()


# ---- svd ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_svd_shapes_and_batches(device, dtype):
    for shape in ((5, 3), (3, 5), (4, 4), (2, 3, 4, 3), (6, 1), (1, 5), (1, 1)):
        a = RNG.standard_normal(shape).astype(dtype)
        check_svd(device, a, dtype)
        check_svd(device, a, dtype, full_matrices=False)
        close(J.svdvals(on(device, a)), np.linalg.svd(a.astype(np.float64), compute_uv=False), dtype)
    res = J.svd(on(device, RNG.standard_normal((3, 2))))
    assert isinstance(res, J.SVDResult) and res.U is res[0] and res.S is res[1] and res.Vh is res[2]


def test_svd_rank_deficient_and_zero(device):
    # rank 2 of 6 x 6, of 7 x 4 and of 4 x 7: the columns of the zero singular values complete U and Vh
    for m, n in ((6, 6), (7, 4), (4, 7)):
        a = RNG.standard_normal((m, 2)) @ RNG.standard_normal((2, n))
        U, S, _ = check_svd(device, a, np.float64)
        assert (S.numpy()[2:] < 1e-13 * S.numpy()[0]).all()
        check_svd(device, a, np.float64, full_matrices=False)
    for shape in ((4, 3), (3, 4), (2, 3, 3)):
        U, S, Vh = check_svd(device, np.zeros(shape), np.float64)
        assert not S.numpy().any()
    # a zero column and a repeated column
    a = RNG.standard_normal((5, 4))
    a[:, 1] = 0
    a[:, 3] = a[:, 0]
    check_svd(device, a, np.float64)
    # singular values 20 orders apart
    a = orthogonal(3) @ np.diag([1e10, 1.0, 1e-10]) @ orthogonal(3)
    check_svd(device, a, np.float64)
    check_svd(device, a[:, :2] * 1e-290, np.float64)  # no underflow of the squares


def test_svd_empty_float16_nan_and_errors(device):
    # empty matrices: PyTorch's shapes, the identities where full
    U, S, Vh = J.svd(silt.zeros(3, 0, dtype=np.float64, device=device))
    assert S.shape == (0,) and U.tolist() == np.eye(3).tolist() and Vh.shape == (0, 0)
    U, S, Vh = J.svd(silt.zeros(0, 2, dtype=np.float64, device=device))
    assert U.shape == (0, 0) and Vh.tolist() == np.eye(2).tolist()
    U, S, Vh = J.svd(silt.zeros(3, 0, dtype=np.float64, device=device), full_matrices=False)
    assert U.shape == (3, 0) and Vh.shape == (0, 0)
    U, S, Vh = J.svd(silt.zeros(2, 0, 4, 3, dtype=np.float32, device=device))
    assert U.shape == (2, 0, 4, 4) and S.shape == (2, 0, 3) and Vh.shape == (2, 0, 3, 3)
    assert J.svdvals(silt.zeros(0, 0, dtype=np.float64, device=device)).shape == (0,)
    # float16 in float32, rounded once
    h = RNG.standard_normal((2, 4, 3)).astype(np.float16)
    U, S, Vh = J.svd(on(device, h))
    U32, S32, Vh32 = J.svd(on(device, h, np.float32))
    assert S.dtype == U.dtype == Vh.dtype == np.float16
    assert np.array_equal(S.numpy(), S32.numpy().astype(np.float16))
    assert np.array_equal(U.numpy(), U32.numpy().astype(np.float16))
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(h.astype(np.float64), compute_uv=False), atol=8e-3)
    # NaN: returns, NaN values; the rest of the batch unspoilt
    a = RNG.standard_normal((2, 3, 3))
    a[0, 1, 2] = math.nan
    U, S, Vh = J.svd(on(device, a))
    assert np.isnan(S.numpy()[0]).all() and np.isnan(U.numpy()[0]).all()
    close(S[1], np.linalg.svd(a[1], compute_uv=False), np.float64)
    with pytest.raises(silt.DTypeError):
        J.svd(on(device, [[1, 2], [3, 4]]))
    with pytest.raises(silt.DTypeError):
        J.svdvals(on(device, [[1, 2], [3, 4]], np.int32))
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        J.svd(on(device, np.ones(3)))


def test_svd_torch_form(device):
    a = RNG.standard_normal((2, 5, 3))
    t = on(device, a)
    U, S, V = J._svd_torch(t)
    assert U.shape == (2, 5, 3) and S.shape == (2, 3) and V.shape == (2, 3, 3)
    close((U.numpy() * S.numpy()[..., None, :]) @ V.numpy().swapaxes(-1, -2), a, np.float64)
    U, S, V = J._svd_torch(on(device, a.swapaxes(-1, -2)), some=False)
    assert U.shape == (2, 3, 3) and V.shape == (2, 5, 5)
    orthonormal(V, np.float64)
    close((U.numpy() * S.numpy()[..., None, :]) @ V.numpy()[..., :, :3].swapaxes(-1, -2), a.swapaxes(-1, -2),
          np.float64)
    U, S, V = J._svd_torch(t, compute_uv=False)
    assert U.shape == (2, 5, 5) and V.shape == (2, 3, 3) and not U.numpy().any() and not V.numpy().any()
    close(S, np.linalg.svd(a, compute_uv=False), np.float64)
    assert set(J.TORCH) == {"svd", "pinverse", "nuclear_norm"}
    assert set(J.__all__) == {"EighResult", "SVDResult", "eigh", "eigvalsh", "svd", "svdvals", "pinv",
                              "matrix_rank", "cond", "PolarResult", "matrix_sqrth", "polar"}


# ---- pinv, matrix_rank ------------------------------------------------------------

def pinv_cut(a, cut):
    """The pseudo-inverse over the singular values above `cut` (`[..., 1]`), by numpy's SVD."""
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    inv = np.where(s > cut, 1 / np.where(s > 0, s, 1), 0)
    return (vh.swapaxes(-1, -2) * inv[..., None, :]) @ u.swapaxes(-1, -2)


def test_pinv(device):
    eps = np.finfo(np.float64).eps
    for a in (RNG.standard_normal((5, 3)), RNG.standard_normal((2, 3, 4)),
              RNG.standard_normal((6, 2)) @ RNG.standard_normal((2, 6)), np.zeros((3, 2))):
        got = J.pinv(on(device, a))
        assert got.shape == a.shape[:-2] + (a.shape[-1], a.shape[-2]) and got.device == device
        want = np.linalg.pinv(a, rcond=max(a.shape[-2:]) * eps)  # PyTorch's default rtol
        close(got, want, np.float64)
    a = RNG.standard_normal((4, 4)) @ np.diag([1.0, 0.5, 0.1, 0.01]) @ RNG.standard_normal((4, 4))
    s = np.linalg.svd(a, compute_uv=False)
    close(J.pinv(on(device, a), rtol=0.05), np.linalg.pinv(a, rcond=0.05), np.float64)
    close(J._pinverse(on(device, a), 0.05), np.linalg.pinv(a, rcond=0.05), np.float64)
    atol = (s[1] + s[2]) / 2  # only atol: rtol 0, two values kept
    close(J.pinv(on(device, a), atol=atol), pinv_cut(a, atol), np.float64)
    close(J.pinv(on(device, a), atol=atol, rtol=0.5), pinv_cut(a, max(atol, 0.5 * s[0])), np.float64)
    # tolerances as tensors, one a matrix of the batch
    b = np.stack([a, a])
    cut = np.array([s[3] / 2, atol])
    got = J.pinv(on(device, b), atol=on(device, cut))
    close(got, pinv_cut(b, cut[:, None]), np.float64)
    # hermitian: by eigh (the lower triangle read)
    h = symmetric((2, 5, 5))
    h[0] = h[0] @ np.diag([1, 1, 1, 0, 0.0]) @ h[0].T  # singular
    got = J.pinv(on(device, h + np.triu(np.ones((5, 5)), 1)), hermitian=True)
    close(got, np.linalg.pinv(h, hermitian=True, rcond=5 * eps), np.float64)
    assert J.pinv(silt.zeros(3, 0, dtype=np.float64, device=device)).shape == (0, 3)
    # float32 and float16
    f = RNG.standard_normal((4, 3)).astype(np.float32)
    close(J.pinv(on(device, f)), np.linalg.pinv(f.astype(np.float64)), np.float32)
    assert J.pinv(on(device, f, np.float16)).dtype == np.float16
    with pytest.raises(silt.DTypeError):
        J.pinv(on(device, [[1, 2], [3, 4]]))
    with pytest.raises(silt.ArgumentError, match="square"):
        J.pinv(on(device, np.ones((2, 3))), hermitian=True)


def test_matrix_rank(device):
    mats = [RNG.standard_normal((5, 5)), RNG.standard_normal((6, 2)) @ RNG.standard_normal((2, 6)),
            np.zeros((4, 4)), np.eye(4) * [1, 1, 1, 1e-17], RNG.standard_normal((3, 4)) @ RNG.standard_normal((4, 4))]
    for a in mats:
        got = J.matrix_rank(on(device, a))
        assert got.dtype == np.int64 and got.shape == () and got.device == device
        assert got.item() == np.linalg.matrix_rank(a)
    a = np.stack([np.diag([3.0, 2.0, 1.0, 0.1]), np.diag([3.0, 0.0, 0.0, 0.5])])
    assert J.matrix_rank(on(device, a)).tolist() == [4, 2]
    assert J.matrix_rank(on(device, a), atol=0.7).tolist() == [3, 1]
    assert J.matrix_rank(on(device, a), rtol=0.5).tolist() == [2, 1]
    assert J.matrix_rank(on(device, a), atol=0.7, rtol=0.5).tolist() == [2, 1]
    assert J.matrix_rank(on(device, a), atol=on(device, [0.05, 1.0])).tolist() == [4, 1]
    h = symmetric((4, 4))
    h = h @ np.diag([1.0, -2.0, 0.0, 0.0]) @ h.T
    assert J.matrix_rank(on(device, h), hermitian=True).item() == np.linalg.matrix_rank(h, hermitian=True) == 2
    assert J.matrix_rank(silt.zeros(2, 3, 0, dtype=np.float32, device=device)).tolist() == [0, 0]


# ---- cond and the norms -------------------------------------------------------------

def test_cond(device):
    a = RNG.standard_normal((2, 4, 4))
    t = on(device, a)
    for p in (None, 2, -2, "fro", "nuc", math.inf, -math.inf, 1, -1):
        got = J.cond(t, p)
        assert got.shape == (2,) and got.dtype == np.float64 and got.device == device
        np.testing.assert_allclose(got.numpy(), np.linalg.cond(a, p), rtol=1e-11, err_msg=str(p))
    r = RNG.standard_normal((3, 5))
    for p in (None, 2, -2):
        np.testing.assert_allclose(J.cond(on(device, r), p).item(), np.linalg.cond(r, p), rtol=1e-12)
    # singular: inf, as PyTorch's (an exact zero pivot, an exactly zero singular value)
    s = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])
    for p in ("fro", "nuc", math.inf, -math.inf, 1, -1):
        assert J.cond(on(device, s), p).item() == math.inf
    z = np.array([[1.0, 0.0], [2.0, 0.0]])
    assert J.cond(on(device, z)).item() == math.inf and J.cond(on(device, z), -2).item() == 0
    assert J.cond(on(device, s)).item() > 1e15
    f = RNG.standard_normal((3, 3)).astype(np.float32)
    np.testing.assert_allclose(J.cond(on(device, f), "fro").item(), np.linalg.cond(f.astype(np.float64), "fro"),
                               rtol=1e-4)
    assert J.cond(silt.zeros(2, 0, 0, dtype=np.float64, device=device)).tolist() == [0.0, 0.0]
    with pytest.raises(silt.ArgumentError, match="invalid norm"):
        J.cond(t, 3)
    with pytest.raises(silt.ArgumentError, match="square"):
        J.cond(on(device, r), "fro")


def test_spectral_and_nuclear_norms(device):
    a = RNG.standard_normal((3, 4, 5))
    t = on(device, a)
    for ord in (2, -2, "nuc"):
        for d0, d1 in ((1, 2), (2, 0), (0, 1)):
            got = J._spectral_matrix_norm(t, ord, d0, d1, False)
            want = np.linalg.norm(a, ord, axis=(d0, d1))
            assert got.device == device
            close(got, want, np.float64)
            kept = J._spectral_matrix_norm(t, ord, d0, d1, True)
            close(kept, np.expand_dims(want, (d0, d1)) if d0 < d1 else np.expand_dims(want, (d1, d0)), np.float64)
    close(J._nuclear_norm(t[0]), np.linalg.norm(a[0], "nuc"), np.float64)
    close(J._nuclear_norm(t, (0, 2)), np.linalg.norm(a, "nuc", axis=(0, 2)), np.float64)
    assert J._nuclear_norm(t, (0, 2), keepdim=True).shape == (1, 4, 1)
    assert J._nuclear_norm(t[0], True).shape == (1, 1)  # torch.nuclear_norm(input, keepdim)
    assert J._spectral_matrix_norm(silt.zeros(2, 0, 3, device=device), 2, 1, 2, False).tolist() == [0, 0]
    h = J._spectral_matrix_norm(on(device, a[0], np.float16), "nuc", 0, 1, False)
    assert h.dtype == np.float16
    np.testing.assert_allclose(h.item(), np.linalg.norm(a[0].astype(np.float16).astype(np.float64), "nuc"),
                               rtol=2e-3)
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        J._nuclear_norm(t[0, 0])
    with pytest.raises(silt.DTypeError):
        J._nuclear_norm(on(device, [[1, 2], [3, 4]]))


def test_matrix_rank_of_non_finite_matrices_raises(device):
    for bad in ([[math.nan, 1.0], [1.0, 1.0]], [[math.inf, 0.0], [0.0, 1.0]]):
        for hermitian in (False, True):
            with pytest.raises(silt.linalg.LinAlgError, match="non-finite"):
                J.matrix_rank(on(device, bad), hermitian=hermitian)
    assert J.matrix_rank(on(device, [[1.0, 1.0], [1.0, 1.0]])).item() == 1


def test_nuclear_norm_of_batches_and_norm_nuc(device):
    a = RNG.standard_normal((2, 3, 4))
    want = np.linalg.norm(a, "nuc", axis=(-2, -1))
    close(J._nuclear_norm(on(device, a)), want, np.float64)
    close(silt.nuclear_norm(on(device, a)), want, np.float64)
    close(on(device, a[0]).norm("nuc"), want[0], np.float64)
    close(on(device, a).norm("nuc", (1, 2)), want, np.float64)
    close(on(device, a).norm("nuc", (1, 2), True), want[:, None, None], np.float64)
    with pytest.raises(silt.ArgumentError, match="'nuc'"):
        on(device, a).norm("nuc")
    with pytest.raises(silt.ArgumentError):
        J.cond(on(device, np.zeros((3, 0))), "fro")  # square matrices only, empty or not
    assert J.cond(on(device, np.zeros((3, 0)))).item() == 0.0


# ---- matrix_sqrth and polar ----------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matrix_sqrth(device, dtype):
    for shape in ((2, 3, 4, 4), (5, 5), (1, 1)):
        a = symmetric(shape)
        a = a @ a.swapaxes(-1, -2) + np.eye(shape[-1])
        w, v = np.linalg.eigh(a)
        want = (v * np.sqrt(w)[..., None, :]) @ v.swapaxes(-1, -2)
        x = J.matrix_sqrth(on(device, a, dtype))
        assert x.dtype == dtype
        close(x, want, dtype)
        close(x @ x, a, dtype)
    # the lower triangle read; eigenvalues below zero taken as zero, as PyTorch's
    close(J.matrix_sqrth(on(device, [[1.0, 9.0], [2.0, 1.0]])), np.full((2, 2), math.sqrt(3) / 2), np.float64)
    close(J.matrix_sqrth(on(device, [[-1.0, 0.0], [0.0, 4.0]])), [[0.0, 0.0], [0.0, 2.0]], np.float64)
    assert np.isnan(J.matrix_sqrth(on(device, [[math.nan, 0.0], [0.0, 1.0]])).numpy()).all()
    assert J.matrix_sqrth(on(device, np.zeros((3, 0, 0)))).shape == (3, 0, 0)
    with pytest.raises(silt.ArgumentError):
        J.matrix_sqrth(on(device, np.ones((2, 3))))
    with pytest.raises(silt.DTypeError):
        J.matrix_sqrth(on(device, [[1, 0], [0, 1]]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_polar(device, dtype):
    for shape in ((2, 3, 5, 4), (4, 4), (6, 1), (1, 1)):
        a = RNG.standard_normal(shape)
        w, s, vh = np.linalg.svd(a, full_matrices=False)
        res = J.polar(on(device, a, dtype))
        assert isinstance(res, J.PolarResult) and res.U is res[0] and res.H is res[1]
        assert res.U.dtype == dtype and res.H.dtype == dtype
        close(res.U, w @ vh, dtype)
        close(res.H, vh.swapaxes(-1, -2) @ (s[..., :, None] * vh), dtype)
        close(res.U @ res.H, a, dtype)
    # a zero matrix: U the identity, H zero
    u, h = J.polar(on(device, np.zeros((2, 2))))
    close(u, np.eye(2), np.float64)
    close(h, np.zeros((2, 2)), np.float64)
    u, h = J.polar(on(device, np.zeros((0, 3, 2))))
    assert u.shape == (0, 3, 2) and h.shape == (0, 2, 2)
    assert np.isnan(J.polar(on(device, [[math.inf, 0.0], [0.0, 1.0]])).U.numpy()).all()
    with pytest.raises(silt.ArgumentError, match="at least as many rows"):
        J.polar(on(device, np.ones((2, 3))))
    with pytest.raises(silt.DTypeError):
        J.polar(on(device, [[1, 0], [0, 1]]))


def test_docstrings_and_module_doctest():
    for name in ("eigh", "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank", "cond", "matrix_sqrth", "polar"):
        assert getattr(J, name).__doc__.startswith(f"`torch.linalg.{name}(")
    for fn, name in ((J._svd_torch, "svd"), (J._pinverse, "pinverse"), (J._nuclear_norm, "nuclear_norm")):
        assert fn.__doc__.startswith(f"`torch.{name}(")
    # Python data as A: silt.tensor's float64
    assert J.eigvalsh([[2.0, 1.0], [1.0, 2.0]]).dtype == np.float64
    import doctest
    assert doctest.testmod(J).failed == 0


def test_svd_of_a_tall_float32_matrix_sweeps_to_sqrt_m_epsilons(device):
    # the pairs' test at m epsilons stopped at 70,000 rows with the columns
    # 1e-4 apart from orthogonal (the singular values 1e-4 off); LAPACK's
    # sqrt(m) epsilons take them to float32's accuracy of the sums
    a = np.random.default_rng(0).uniform(0, 1, (70000, 3)).astype(np.float32)
    u, s, vh = silt.linalg.svd(silt.tensor(a, device=device), full_matrices=False)
    want = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    assert np.abs(s.numpy() - want).max() / want[0] < 1e-5
    u = u.numpy().astype(np.float64)
    assert np.abs(u.T @ u - np.eye(3)).max() < 1e-4

"""The QR family of `silt.linalg` (`silt._linalg_qr`: `qr`, `geqrf`,
`householder_product`/`orgqr`, `ormqr`, `lstsq`, `matrix_exp`) against
numpy.linalg (LAPACK: the same conventions, so the same signs), series and
closed forms, on the host backend and an OpenCL device."""

import math

import numpy as np
import pytest

import silt
from silt import _linalg_qr as QR
from silt.linalg import LinAlgError

RNG = np.random.default_rng(47)
TOL = {np.float64: 1e-12, np.float32: 1e-4}


def on(device, a, dtype=None):
    """A tensor of a copy of `a` (on the host, `silt.tensor` shares an array's memory)."""
    return silt.tensor(np.array(a, dtype=dtype), device=device)


def close(got, want, dtype, scale=None):
    """`got` equals `want` within the dtype's tolerance relative to the
    results' magnitude (`scale` where given)."""
    g = got.numpy() if isinstance(got, silt.Tensor) else np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    tol = TOL[np.dtype(dtype).type]
    s = np.abs(want).max(initial=1) if scale is None else scale
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol * s)


def orthonormal_columns(q, dtype):
    k = q.shape[-1]
    close(q.swapaxes(-1, -2) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), dtype, scale=1)


# ---- qr ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_qr_as_lapack(device, dtype):
    for shape in ((5, 3), (3, 5), (4, 4), (2, 3, 5, 4)):
        a = RNG.standard_normal(shape).astype(dtype)
        t = on(device, a)
        for mode in ("reduced", "complete"):
            Q, R = QR.qr(t, mode=mode)
            assert Q.dtype == dtype and R.dtype == dtype and Q.device == device and R.device == device
            qn, rn = np.linalg.qr(a.astype(np.float64), mode=mode)
            close(Q, qn, dtype)  # LAPACK's signs
            close(R, rn, dtype)
            q, r = Q.numpy().astype(np.float64), R.numpy()
            assert not np.tril(r, -1).any()  # upper triangular, exactly
            orthonormal_columns(q, dtype)
            close(q @ r, a, dtype)
        Q, R = QR.qr(t, mode="r")
        assert Q.shape == (0,) and Q.dtype == dtype and Q.device == device
        close(R, np.linalg.qr(a.astype(np.float64), mode="r"), dtype)
    # a result as a namedtuple, R's diagonal of LAPACK's signs (beta = -sign(alpha) |column|)
    res = QR.qr(on(device, [[3.0, 1.0], [4.0, 2.0]]))
    assert isinstance(res, QR.QRResult) and res.Q is res[0] and res.R is res[1]
    np.testing.assert_allclose(res.R.numpy(), [[-5.0, -2.2], [0.0, 0.4]], rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(res.Q.numpy(), [[-0.6, -0.8], [-0.8, 0.6]], rtol=1e-15)
    np.testing.assert_allclose(QR.qr(on(device, [[-3.0], [4.0]])).R.numpy(), [[5.0]], rtol=1e-15)


def test_qr_shapes_and_special_matrices(device):
    for shape in ((1, 1), (4, 1), (1, 4), (0, 3), (3, 0), (0, 0), (0, 2, 3), (2, 0, 3), (2, 3, 0)):
        a = RNG.standard_normal(shape)
        for mode in ("reduced", "complete", "r"):
            Q, R = QR.qr(on(device, a), mode)
            if mode == "r":
                rn = np.linalg.qr(a, mode="r")
                assert Q.shape == (0,)
            else:
                qn, rn = np.linalg.qr(a, mode=mode)
                assert Q.shape == qn.shape, (shape, mode)
                close(Q, qn, np.float64)
            assert R.shape == rn.shape, (shape, mode)
            close(R, rn, np.float64)
    # a zero column (tau = 0, H = I) and rank deficiency: LAPACK's factors still
    z = np.array([[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 7.0]])
    d = RNG.standard_normal((5, 4))
    d[:, 2] = d[:, 0] - 2 * d[:, 1]
    for a, r in ((z, 3), (d, 2), (np.zeros((3, 2)), 2), (np.diag([2.0, -3.0, 0.0]), 3)):
        Q, R = QR.qr(on(device, a))
        qn, rn = np.linalg.qr(a)
        # Q's columns and R's rows past the rank are set by the rounding
        close(Q[:, :r], qn[:, :r], np.float64)
        close(R[:r], rn[:r], np.float64)
        orthonormal_columns(Q.numpy(), np.float64)
        close(Q @ R, a, np.float64)
    h, tau = QR.geqrf(on(device, z))
    assert tau.tolist()[0] == 0.0 and tau.tolist() == pytest.approx(np.linalg.qr(z, mode="raw")[1].tolist(), rel=1e-14)
    # no overflow nor underflow of the column norms
    for s in (1e200, 1e-200):
        a = RNG.standard_normal((4, 3))
        Q, R = QR.qr(on(device, a * s))
        qn, rn = np.linalg.qr(a)
        close(Q, qn, np.float64)
        np.testing.assert_allclose(R.numpy() / s, rn, rtol=1e-12, atol=1e-12)


def test_qr_errors(device):
    a = on(device, np.ones((3, 2)))
    with pytest.raises(silt.ArgumentError) as e:
        QR.qr(a, mode="full")
    assert str(e.value) == ("qr received unrecognized mode 'full' but expected one of 'reduced' (default), 'r', or "
                            "'complete'")
    with pytest.raises(silt.ArgumentError, match="^linalg.qr: The input tensor A must have at least 2 dimensions."):
        QR.qr(on(device, [1.0, 2.0]))
    ints = on(device, [[1, 2], [3, 4]])
    for fn in (QR.qr, QR.geqrf, QR.matrix_exp, lambda x: QR.lstsq(x, x), lambda x: QR.householder_product(x, x[0]),
               lambda x: QR.ormqr(x, x[0], x), QR._qr_torch):
        with pytest.raises(silt.DTypeError):
            fn(ints)
        with pytest.raises(silt.DTypeError):
            fn(on(device, [[True, False], [False, True]]))
    with pytest.raises(silt.ArgumentError, match="^torch.geqrf: input must have at least 2 dimensions."):
        QR.geqrf(on(device, [1.0]))


# ---- geqrf, householder_product (orgqr), ormqr -------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_geqrf_and_householder_product(device, dtype):
    for shape in ((6, 4), (4, 4), (3, 5), (2, 2, 5, 3)):
        a = RNG.standard_normal(shape).astype(dtype)
        res = QR.geqrf(on(device, a))
        assert isinstance(res, QR.GeqrfResult) and res.a is res[0] and res.tau is res[1]
        h, tau = res
        assert h.dtype == dtype and tau.dtype == dtype and h.device == device and tau.device == device
        hn, taun = np.linalg.qr(a.astype(np.float64), mode="raw")  # LAPACK's, column-major: transposed
        close(h, hn.swapaxes(-1, -2), dtype)
        close(tau, taun, dtype)
        if shape[-2] >= shape[-1]:
            for fn in (QR.householder_product, QR._orgqr):
                Q = fn(h, tau)
                assert Q.shape == shape and Q.dtype == dtype and Q.device == device
                close(Q, np.linalg.qr(a.astype(np.float64))[0], dtype)
    # fewer reflectors than columns (k < n), the rest of A not read: the product by its definition
    v = RNG.standard_normal((5, 3))
    tau = np.array([1.2, 0.0, 0.7])
    want = np.eye(5)
    for i in range(2):
        u = np.concatenate([np.zeros(i), [1.0], v[i + 1:, i]])
        want = want @ (np.eye(5) - tau[i] * np.outer(u, u))
    got = QR.householder_product(on(device, v, dtype), on(device, tau[:2], dtype))
    close(got, want[:, :3], dtype)
    got = QR.householder_product(on(device, v, dtype), on(device, np.zeros(0), dtype))  # no reflectors: I
    assert got.tolist() == np.eye(5, 3).tolist()


def test_householder_product_checks(device):
    a = on(device, np.ones((2, 4, 3)))
    t = on(device, np.ones((2, 3)))
    op = "torch.linalg.householder_product"
    with pytest.raises(silt.ArgumentError, match=f"^{op}: input must have at least 2 dimensions."):
        QR.householder_product(on(device, [1.0]), on(device, [1.0]))
    with pytest.raises(silt.ArgumentError, match=r"input.shape\[-2\] must be greater than or equal to "
                                                 r"input.shape\[-1\]"):
        QR.householder_product(a.mT, t)
    with pytest.raises(silt.ArgumentError, match=r"input.shape\[-1\] must be greater than or equal to tau.shape\[-1\]"):
        QR.householder_product(a, on(device, np.ones((2, 4))))
    with pytest.raises(silt.ArgumentError, match="tau.ndim equal to 1 and input.ndim is equal to 3"):
        QR.householder_product(a, t[0])
    with pytest.raises(silt.ArgumentError, match=r"batch dimensions of tau to be equal to input.shape\[:-2\], but got "
                                                 r"\[3\]"):
        QR.householder_product(a, on(device, np.ones((3, 3))))
    with pytest.raises(silt.DTypeError, match=f"^{op}: tau dtype float32 does not match input dtype float64"):
        QR.householder_product(a, t.float())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_ormqr(device, dtype):
    a = RNG.standard_normal((2, 6, 4)).astype(dtype)
    h, tau = QR.geqrf(on(device, a))
    Qc = np.linalg.qr(a.astype(np.float64), mode="complete")[0]  # 6 x 6
    c = RNG.standard_normal((2, 6, 3)).astype(dtype)
    ct = RNG.standard_normal((2, 3, 6)).astype(dtype)
    for left in (True, False):
        for transpose in (False, True):
            q = Qc.swapaxes(-1, -2) if transpose else Qc
            other = c if left else ct
            want = q @ other if left else other @ q
            for got in (QR.ormqr(h, tau, on(device, other), left, transpose),
                        QR.ormqr(h, tau, on(device, other), left=left, transpose=transpose)):
                assert got.dtype == dtype and got.device == device and got.shape == other.shape
                close(got, want, dtype)
    # a wide input: its min(m, n) reflectors, Q square of its rows
    w = RNG.standard_normal((3, 5))
    hw, tw = QR.geqrf(on(device, w))
    other = RNG.standard_normal((3, 2))
    close(QR.ormqr(hw, tw, on(device, other), transpose=True), np.linalg.qr(w)[0].T @ other, np.float64)


def test_ormqr_checks(device):
    h = on(device, np.ones((2, 5, 3)))
    t = on(device, np.ones((2, 3)))
    c = on(device, np.ones((2, 5, 4)))
    op = "torch.ormqr"
    with pytest.raises(silt.ArgumentError, match=f"^{op}: other must have at least 2 dimensions."):
        QR.ormqr(h, t, on(device, np.ones(5)))
    with pytest.raises(silt.ArgumentError, match=r"other.shape\[-1\] must be greater than or equal to tau"):
        QR.ormqr(h, t, on(device, np.ones((2, 4, 2))), left=False)
    with pytest.raises(silt.ArgumentError, match=r"other.shape\[-2\] must be equal to input.shape\[-2\]"):
        QR.ormqr(h, t, on(device, np.ones((2, 4, 2))))
    with pytest.raises(silt.ArgumentError, match=r"tau.shape\[-1\] must be less than or equal to input.shape\[-1\]"):
        QR.ormqr(h, on(device, np.ones((2, 4))), c)
    with pytest.raises(silt.ArgumentError, match="same number of dimensions"):
        QR.ormqr(h, t, c[0])
    with pytest.raises(silt.ArgumentError, match=r"batch dimensions of other to be equal to input.shape\[:-2\], but "
                                                 r"got \[1\]"):
        QR.ormqr(h, t, c[:1])
    with pytest.raises(silt.DTypeError, match="input and tau to have the same dtype"):
        QR.ormqr(h, t.float(), c)
    with pytest.raises(silt.DTypeError, match="input and other to have the same dtype"):
        QR.ormqr(h, t, c.float())
    # as many reflectors as the shorter side of input and other, as PyTorch's
    for tau, other, left in (((2,), (5, 2), True), ((2,), (5, 4), True), ((2,), (2, 5), False)):
        with pytest.raises(silt.ArgumentError, match=r"tau.shape\[-1\] must be equal to min\(other.shape"):
            QR.ormqr(on(device, np.ones((5, 3))), on(device, np.ones(tau)), on(device, np.ones(other)), left=left)


# ---- lstsq ------------------------------------------------------------------

def np_lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq over the (broadcast) batches: solution, residuals."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    x = np.empty(batch + (a.shape[-1], b.shape[-1]))
    for i in np.ndindex(*batch):
        x[i] = np.linalg.lstsq(a[i], b[i], rcond=rcond)[0]
    return x


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_lstsq_full_rank(device, dtype):
    for ashape, bshape in (((6, 3), (6, 2)), ((3, 5), (3, 2)), ((4, 4), (4, 1)), ((2, 1, 5, 3), (1, 3, 5, 2)),
                           ((2, 2, 4), (2, 2, 3))):
        a = RNG.standard_normal(ashape).astype(dtype)
        b = RNG.standard_normal(bshape).astype(dtype)
        want = np_lstsq(a.astype(np.float64), b.astype(np.float64))
        m, n = ashape[-2:]
        abatch = ashape[:-2]
        for driver in (None, "gels", "gelsy", "GELS"):
            res = QR.lstsq(on(device, a), on(device, b), driver=driver)
            assert isinstance(res, QR.LstsqResult) and res.solution is res[0]
            x, residuals, rank, sv = res
            assert x.dtype == dtype and x.device == device and residuals.device == device and rank.device == device
            close(x, want, dtype)
            assert sv.shape == (0,) and sv.dtype == dtype
            if driver in ("gels", "GELS"):
                assert rank.shape == (0,) and rank.dtype == np.int64
                if m > n:
                    assert residuals.dtype == dtype
                    full = a.astype(np.float64) @ want - b
                    close(residuals, (full ** 2).sum(-2), dtype)
                else:
                    assert residuals.shape == (0,)
            else:  # gelsy, the default: no residuals, the rank of each matrix
                assert residuals.shape == (0,)
                assert rank.dtype == np.int64 and rank.tolist() == np.full(abatch, min(m, n)).tolist()
        # tall: the residuals against numpy's
        if len(ashape) == 2 and m > n:
            close(QR.lstsq(on(device, a), on(device, b), driver="gels").residuals,
                  np.linalg.lstsq(a.astype(np.float64), b.astype(np.float64))[1], dtype)


def test_lstsq_vectors(device):
    # a 1-d B beside a matrix, or B of A's shape without its last dimension: vectors, as PyTorch's
    a = RNG.standard_normal((5, 3))
    b = RNG.standard_normal(5)
    x, res, rank, _ = QR.lstsq(on(device, a), on(device, b), driver="gels")
    xn, resn, _, _ = np.linalg.lstsq(a, b)
    assert x.shape == (3,) and res.shape == (1,)  # PyTorch's residuals of vectors: [..., 1]
    close(x, xn, np.float64)
    close(res, resn, np.float64)
    ab = RNG.standard_normal((2, 5, 3))
    bb = RNG.standard_normal((2, 5))
    x, res, rank, _ = QR.lstsq(on(device, ab), on(device, bb), driver="gels")
    assert x.shape == (2, 3) and res.shape == (2, 1) and rank.shape == (0,)
    close(x, np_lstsq(ab, bb[..., None])[..., 0], np.float64)
    x, res, rank, _ = QR.lstsq(on(device, ab), on(device, bb))
    assert x.shape == (2, 3) and res.shape == (0,) and rank.tolist() == [3, 3]
    # (2, 5) beside (2, 5, 3)... but beside (3, 5, 3) a B of one dimension less is neither
    with pytest.raises(silt.ArgumentError, match="neither a batch of vectors"):
        QR.lstsq(on(device, np.ones((3, 5, 3))), on(device, np.ones((1, 5))))
    with pytest.raises(silt.ArgumentError, match=r"^torch.linalg.lstsq: input.size\(-2\) should match "
                                                 r"other.size\(-1\)"):
        QR.lstsq(on(device, a), on(device, np.ones(4)))
    with pytest.raises(silt.ArgumentError, match=r"should match other.size\(-2\)"):
        QR.lstsq(on(device, a), on(device, np.ones((4, 1))))
    with pytest.raises(silt.ArgumentError, match=r"input.dim\(\) must be greater or equal to other.dim\(\)"):
        QR.lstsq(on(device, ab), on(device, b))  # a 1-d B beside a batch: as PyTorch's, an error


def test_lstsq_rank_deficient(device):
    # gelsy: QR with column pivoting, the minimum-norm solution, as numpy's (by the SVD)
    a = RNG.standard_normal((2, 6, 4))
    a[0, :, 2] = a[0, :, 0] + a[0, :, 1]
    a[1, :, 3] = 0.0
    a[1, :, 1] = 2 * a[1, :, 0]
    b = RNG.standard_normal((2, 6, 2))
    x, res, rank, _ = QR.lstsq(on(device, a), on(device, b), rcond=1e-10)
    assert rank.tolist() == [3, 2] and res.shape == (0,)
    close(x, np_lstsq(a, b, rcond=1e-10), np.float64)
    w = RNG.standard_normal((3, 6))
    w[2] = 2 * w[0]
    x, _, rank, _ = QR.lstsq(on(device, w), on(device, b[0, :3]))
    assert rank.item() == 2
    close(x, np.linalg.lstsq(w, b[0, :3], rcond=None)[0], np.float64)
    # the rank with the rcond tolerance: |R_ii| > rcond |R_11| of the pivoted R
    s = np.diag([1.0, 1e-3, 1e-6])
    assert QR.lstsq(on(device, s), on(device, np.ones((3, 1)))).rank.item() == 3
    assert QR.lstsq(on(device, s), on(device, np.ones((3, 1))), 1e-4).rank.item() == 2
    assert QR.lstsq(on(device, s), on(device, np.ones((3, 1))), 1e-2).rank.item() == 1
    assert QR.lstsq(on(device, s * 1e8), on(device, np.ones((3, 1))), 1e-4).rank.item() == 2  # relative
    assert QR.lstsq(on(device, np.zeros((3, 2))), on(device, np.ones((3, 1)))).solution.tolist() == [[0], [0]]
    # gelsd, gelss: by the singular values, which they return; residuals only at full rank
    for driver in ("gelsd", "gelss"):
        x, res, rank, sv = QR.lstsq(on(device, a), on(device, b), rcond=1e-10, driver=driver)
        assert rank.tolist() == [3, 2] and res.shape == (0,)
        close(x, np_lstsq(a, b, rcond=1e-10), np.float64)
        close(sv, np.linalg.svd(a, compute_uv=False), np.float64)
        full = RNG.standard_normal((6, 3))
        x, res, rank, sv = QR.lstsq(on(device, full), on(device, b[0]), driver=driver)
        close(x, np.linalg.lstsq(full, b[0], rcond=None)[0], np.float64)
        close(res, np.linalg.lstsq(full, b[0], rcond=None)[1], np.float64)
        assert rank.item() == 3 and sv.shape == (3,)
        assert QR.lstsq(on(device, s), on(device, np.ones((3, 1))), 1e-4, driver=driver).rank.item() == 2
        x, _, rank, sv = QR.lstsq(on(device, w), on(device, b[0, :3]), driver=driver)
        close(x, np.linalg.lstsq(w, b[0, :3], rcond=None)[0], np.float64)
        assert rank.item() == 2
    # gels: a zero on R's diagonal raises LinAlgError, as PyTorch's
    z = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    with pytest.raises(LinAlgError) as e:
        QR.lstsq(on(device, z), on(device, np.ones((3, 1))), driver="gels")
    assert str(e.value) == ("torch.linalg.lstsq: The least squares solution could not be computed because the input "
                            "matrix does not have full rank (error code: 2).")
    with pytest.raises(silt.ArgumentError, match=r"^torch.linalg.lstsq: \(Batch element 1\): The least squares"):
        QR.lstsq(on(device, np.stack([np.eye(3, 2), z])), on(device, np.ones((2, 3, 1))), driver="gels")
    with pytest.raises(LinAlgError, match=r"error code: 2"):
        QR.lstsq(on(device, z.T), on(device, np.ones((2, 1))), driver="gels")


def test_lstsq_checks_and_empty(device):
    a = on(device, np.ones((3, 2)))
    b = on(device, np.ones((3, 1)))
    with pytest.raises(silt.ArgumentError, match=r"^torch.linalg.lstsq: parameter `driver` should be one of \(gels, "
                                                 r"gelsy, gelsd, gelss\)"):
        QR.lstsq(a, b, driver="gelsx")
    with pytest.raises(silt.DTypeError, match="input's dtype float64 and other's dtype float32"):
        QR.lstsq(a, b.float())
    with pytest.raises(silt.ArgumentError, match="input must have at least 2 dimensions"):
        QR.lstsq(on(device, [1.0]), on(device, [1.0]))
    with pytest.raises(silt.ArgumentError, match="other must have at least 1 dimension"):
        QR.lstsq(a, on(device, 1.0))
    with pytest.raises(silt.ArgumentError, match="do not broadcast"):
        QR.lstsq(on(device, np.ones((2, 3, 2))), on(device, np.ones((3, 3, 1))))
    # empty matrices: LAPACK returns at once (a zero solution, zero residuals where there are any)
    for ashape, bshape, xshape in (((0, 3), (0, 2), (3, 2)), ((3, 0), (3, 2), (0, 2)), ((3, 2), (3, 0), (2, 0)),
                                   ((0, 3, 2), (0, 3, 1), (0, 2, 1))):
        x, res, rank, sv = QR.lstsq(on(device, np.ones(ashape)), on(device, np.ones(bshape)), driver="gels")
        assert x.shape == xshape and not x.numpy().any() and sv.shape == (0,) and rank.shape == (0,)
        m, n = ashape[-2:]
        assert res.shape == ((bshape[-1],) if m > n and len(ashape) == 2 else (0,) if m <= n else (0, 1))
        assert not res.numpy().any()
        x, res, rank, sv = QR.lstsq(on(device, np.ones(ashape)), on(device, np.ones(bshape)))
        assert x.shape == xshape and res.shape == (0,) and rank.shape == ashape[:-2]
    assert QR.lstsq(on(device, np.eye(3, 2)), on(device, np.ones((3, 0)))).rank.item() == 2
    # no columns: gelsd's and gelss's residuals are B's squared norms, as PyTorch's
    for driver in ("gelsd", "gelss"):
        res = QR.lstsq(on(device, np.ones((2, 4, 0))), on(device, np.full((1, 4, 2), 2.0)), driver=driver).residuals
        assert res.tolist() == [[16.0, 16.0], [16.0, 16.0]]


def test_lstsq_of_non_finite_matrices(device):
    # NaN or an infinity gives NaN, never the zeros of a rank of 0
    for bad in (math.nan, math.inf):
        a = np.array([[1.0, bad], [0.0, 1.0], [1.0, 1.0]])
        for driver in ("gels", "gelsy", "gelsd", "gelss"):
            x = QR.lstsq(on(device, np.stack([a, np.eye(3, 2)])), on(device, np.ones((2, 3, 1))), driver=driver)[0]
            assert np.isnan(x[0].numpy()).any(), driver
            close(x[1], [[1.0], [1.0]], np.float64)


@pytest.mark.parametrize("scale", [1e-310, 1e-320, 1e-300, 1e300, 1e-30])
def test_lstsq_scales_its_matrices(device, scale):
    # subnormal, tiny and huge matrices: scaled by powers of two first (exact), as LAPACK's
    a = RNG.standard_normal((2, 5, 4)) * scale
    for driver in ("gels", "gelsy", "gelsd", "gelss"):
        x, res, rank, sv = QR.lstsq(on(device, a), on(device, a), driver=driver)
        close(x, np.broadcast_to(np.eye(4), (2, 4, 4)), np.float64, scale=1.0)
        if driver in ("gelsd", "gelss"):
            close(sv, np.linalg.svd(a, compute_uv=False), np.float64)
    b = RNG.standard_normal((2, 5, 2)) * scale
    x, res = QR.lstsq(on(device, a), on(device, b), driver="gelsd")[:2]
    want = np_lstsq(a, b)
    close(x, want, np.float64)
    if scale < 1:  # (at 1e300 the squares overflow to inf)
        close(res, ((a @ want - b) ** 2).sum(-2), np.float64)
    a32 = (RNG.standard_normal((5, 3)) * 1e-30).astype(np.float32)
    close(QR.lstsq(on(device, a32), on(device, a32))[0], np.eye(3), np.float32, scale=1.0)


# ---- matrix_exp -------------------------------------------------------------

def taylor(a, terms=40):
    """exp(a) by its series in float64 (small norms)."""
    r = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    t = r.copy()
    for k in range(1, terms):
        t = t @ a / k
        r = r + t
    return r


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matrix_exp_small_norms(device, dtype):
    for scale in (0.01, 0.5, 2.0):
        a = (RNG.standard_normal((3, 5, 5)) * scale / math.sqrt(5)).astype(dtype)
        got = QR.matrix_exp(on(device, a))
        assert got.shape == (3, 5, 5) and got.dtype == dtype and got.device == device
        close(got, taylor(a.astype(np.float64)), dtype)
    d = np.array([0.5, -1.0, 3.0, 0.0])
    close(QR.matrix_exp(on(device, np.diag(d), dtype)), np.diag(np.exp(d)), dtype)
    got = QR.matrix_exp(on(device, np.zeros((2, 3, 3)), dtype))
    assert got.tolist() == np.broadcast_to(np.eye(3), (2, 3, 3)).tolist()


def test_matrix_exp_rotations_and_large_norms(device):
    for t in (0.3, 2.0, 50.0, 1000.0):
        got = QR.matrix_exp(on(device, [[0.0, -t], [t, 0.0]]))
        close(got, [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]], np.float64, scale=1e3 if t > 100 else 1)
    # symmetric matrices of norms to 60 against their eigendecomposition; a batch of one small and one large
    s = RNG.standard_normal((2, 5, 5))
    s = s + s.swapaxes(-1, -2)
    s[1] *= 10
    w, v = np.linalg.eigh(s)
    want = v @ (np.exp(w)[..., None] * v.swapaxes(-1, -2))
    got = QR.matrix_exp(on(device, s)).numpy()
    for i in range(2):  # each relative to its own magnitude (the batch shares one scaling)
        np.testing.assert_allclose(got[i], want[i], rtol=1e-11, atol=1e-11 * np.abs(want[i]).max())
    # a diagonalisable matrix P D P^-1 (P well conditioned): P exp(D) P^-1
    p = np.eye(4) + 0.2 * RNG.standard_normal((4, 4))
    dd = np.array([20.0, -15.0, 3.0, 0.5])
    a = p @ np.diag(dd) @ np.linalg.inv(p)
    want = p @ np.diag(np.exp(dd)) @ np.linalg.inv(p)
    got = QR.matrix_exp(on(device, a)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11 * np.abs(want).max())
    # exp(A) exp(-A) = I for normal matrices (skew-symmetric plus a multiple of I)
    k = RNG.standard_normal((3, 6, 6)) * 8
    k = k - k.swapaxes(-1, -2) + 3 * np.eye(6)
    e, ei = QR.matrix_exp(on(device, k)).numpy(), QR.matrix_exp(on(device, -k)).numpy()
    close(e @ ei, np.broadcast_to(np.eye(6), (3, 6, 6)), np.float64, scale=10)


def test_matrix_exp_shapes_and_special_values(device):
    assert QR.matrix_exp(on(device, np.zeros((2, 0, 0)))).shape == (2, 0, 0)
    assert QR.matrix_exp(on(device, np.zeros((0, 3, 3)))).shape == (0, 3, 3)
    assert QR.matrix_exp(on(device, [[2.0]])).tolist() == [[math.exp(2.0)]]
    got = QR.matrix_exp(on(device, [[[0.0]], [[-1.0]]], np.float32))
    assert got.dtype == np.float32 and got.numpy().tolist() == [[[1.0]], [[np.float32(math.exp(-1))]]]
    # NaN and inf give NaN without hanging, and do not set the scaling of the others
    a = np.array([[[1.0, math.nan], [0.0, 1.0]], [[math.inf, 0.0], [0.0, 1.0]], [[0.0, -1.0], [1.0, 0.0]]])
    got = QR.matrix_exp(on(device, a)).numpy()
    assert np.isnan(got[0]).all() and np.isnan(got[1]).any()
    close(got[2], [[math.cos(1), -math.sin(1)], [math.sin(1), math.cos(1)]], np.float64)
    a = np.array([[[math.inf, 0.0], [0.0, 1.0]], [[0.0, -50.0], [50.0, 0.0]]])
    got = QR.matrix_exp(on(device, a)).numpy()
    assert np.isnan(got[0]).any()
    close(got[1], [[math.cos(50), -math.sin(50)], [math.sin(50), math.cos(50)]], np.float64)
    with pytest.raises(silt.ArgumentError, match="square matrices, but they are 2 by 3"):
        QR.matrix_exp(on(device, np.ones((2, 3))))
    with pytest.raises(silt.ArgumentError, match="at least 2 dimensions"):
        QR.matrix_exp(on(device, [1.0]))


# ---- float16, forms -----------------------------------------------------------

def test_float16_rounds_once(device):
    a = on(device, RNG.standard_normal((2, 4, 3)), np.float16)
    f = a.float()
    h, tau = QR.geqrf(a)
    hf, tauf = QR.geqrf(f)
    c = on(device, RNG.standard_normal((2, 4, 2)), np.float16)
    sq = on(device, RNG.standard_normal((2, 3, 3)) / 3, np.float16)
    pairs = [
        (QR.qr(a).Q, QR.qr(f).Q), (QR.qr(a).R, QR.qr(f).R), (QR.qr(a, "complete").Q, QR.qr(f, "complete").Q),
        (h, hf), (tau, tauf), (QR.householder_product(h, tau), QR.householder_product(h.float(), tau.float())),
        (QR.ormqr(h, tau, c), QR.ormqr(h.float(), tau.float(), c.float())),
        (QR.lstsq(a, c).solution, QR.lstsq(f, c.float()).solution),
        (QR.lstsq(a, c, driver="gels").residuals, QR.lstsq(f, c.float(), driver="gels").residuals),
        (QR.matrix_exp(sq), QR.matrix_exp(sq.float())),
    ]
    for got, wide in pairs:
        assert got.dtype == np.float16 and got.device == device
        assert np.array_equal(got.numpy(), wide.numpy().astype(np.float16))


def test_torch_forms(device):
    a = RNG.standard_normal((4, 3))
    t = on(device, a)
    assert set(QR.TORCH) == {"qr", "geqrf", "orgqr", "ormqr", "matrix_exp"}
    Q, R = QR.TORCH["qr"](t)
    Qc, Rc = QR.TORCH["qr"](t, some=False)
    qn, rn = np.linalg.qr(a, mode="complete")
    assert Q.shape == (4, 3) and Qc.shape == (4, 4) and Rc.shape == (4, 3)
    close(Qc, qn, np.float64)
    close(Q @ R, a, np.float64)
    h, tau = QR.TORCH["geqrf"](t)
    close(QR.TORCH["orgqr"](h, tau), np.linalg.qr(a)[0], np.float64)
    close(QR.TORCH["ormqr"](h, tau, on(device, np.eye(4))), qn, np.float64)
    close(QR.TORCH["matrix_exp"](on(device, np.zeros((2, 2)))), np.eye(2), np.float64)
    for fn in list(QR.TORCH.values()) + [getattr(QR, name) for name in QR.__all__]:
        assert fn.__doc__
    for name in ("qr", "householder_product", "lstsq", "matrix_exp"):
        assert getattr(QR, name).__doc__.startswith(f"`torch.linalg.{name}(")
    # Python data as A: silt.tensor's float64
    assert QR.qr([[1.0, 2.0], [3.0, 4.0]]).R.dtype == np.float64


def test_module_doctest():
    import doctest
    assert doctest.testmod(QR).failed == 0

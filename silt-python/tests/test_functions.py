"""PyTorch's `torch.NAME(input, ...)` functions: each of `silt._functions.METHODS`
is the tensor method of its name (checked on every method that takes one
tensor, and by hand on the others' argument forms), `silt.where` in
PyTorch's argument order, numbers as `input`, and `silt.isin` against
NumPy, on the host backend and an OpenCL device."""

import numpy as np
import pytest

import silt
from silt import _functions

RNG = np.random.default_rng(5)
X = RNG.uniform(0.1, 0.9, (3, 4)).astype(np.float32)  # in every unary function's domain


def same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
        return
    if isinstance(a, silt.Tensor):
        assert a.dtype == b.dtype and a.shape == b.shape and a.device == b.device
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    else:
        assert a == b


def test_every_function_is_the_method(device):
    t = silt.tensor(X, device=device)
    u = silt.tensor(X[::-1].copy(), device=device)
    compared = 0
    for name in _functions.METHODS:
        f = getattr(silt, name)
        assert f.__name__ == name and (name in silt.__all__) != (name in _functions.SHADOWING)
        if name in ("multinomial", "bernoulli"):
            continue  # random draws: test_pytorch_forms.py checks them
        # the first of these argument lists the method takes (the others
        # are called by hand below)
        for args in ((), (u,), (1,), (u, u)):
            try:
                want = getattr(t, name)(*args)
            except (TypeError, ValueError, IndexError, silt.Error):
                continue
            same(f(t, *args), want)
            compared += 1
            break
    assert compared >= 170, compared


def test_functions_with_arguments(device):
    t = silt.tensor(X, device=device)
    u = silt.tensor(X[::-1].copy(), device=device)
    same(silt.add(t, u, alpha=2), t.add(u, alpha=2))
    same(silt.clamp(t, min=0.3, max=0.6), t.clamp(0.3, 0.6))
    same(silt.sum(t, 1, keepdim=True), t.sum(1, keepdim=True))
    same(silt.max(t, 1), t.max(1))
    same(silt.max(t, u), t.maximum(u))
    same(silt.split(t, 2, dim=1), t.split(2, 1))
    same(silt.transpose(t, 0, 1), t.transpose(0, 1))
    same(silt.topk(t, 2), t.topk(2))
    same(silt.matmul(t, u.T), t @ u.T)
    assert silt.numel(t) == 12 and silt.is_tensor(t) and not silt.is_tensor(X)


def test_numbers_and_arrays_as_input(device):
    t = silt.tensor(X, device=device)
    # a number beside a tensor: the dtype they promote to, on its device
    got = silt.pow(2, t)
    same(got, 2 ** t)
    i = silt.tensor(np.arange(4, dtype=np.int32), device=device)
    got = silt.add(3, i)
    assert got.dtype == np.int32 and got.device == device
    np.testing.assert_array_equal(got.numpy(), np.arange(4) + 3)
    # an array beside a tensor goes to its device
    got = silt.sub(X, t)
    assert got.device == device and not got.numpy().any()
    # an array alone: silt.tensor's device
    np.testing.assert_allclose(silt.exp(X).numpy(), np.exp(X), rtol=1e-6)


def test_where_in_pytorchs_order(device):
    t = silt.tensor(X, device=device)
    c = t > 0.5
    same(silt.where(c, t, 0.0), t.where(c, 0.0))
    got = silt.where(c, 1.0, t)
    np.testing.assert_array_equal(got.numpy(), np.where(X > 0.5, 1.0, X).astype(np.float32))
    assert got.dtype == np.float32 and got.device == device
    rows, cols = silt.where(c)
    want = np.nonzero(X > 0.5)
    np.testing.assert_array_equal(rows.numpy(), want[0])
    np.testing.assert_array_equal(cols.numpy(), want[1])
    with pytest.raises(silt.ArgumentError):
        silt.where(c, t)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint8", "bool"])
def test_isin_against_numpy(device, dtype):
    e = RNG.integers(0, 12, (5, 6)).astype(dtype)
    test = RNG.integers(0, 12, 7).astype(dtype)
    te, tt = silt.tensor(e, device=device), silt.tensor(test, device=device)
    got = silt.isin(te, tt)
    assert got.dtype == np.bool_ and got.device == device
    np.testing.assert_array_equal(got.numpy(), np.isin(e, test))
    np.testing.assert_array_equal(silt.isin(te, tt, invert=True).numpy(), ~np.isin(e, test))
    # a number on either side (a Python int beside bool promotes to int64,
    # as PyTorch's), an empty test set
    v = 1 if dtype == "bool" else 3
    np.testing.assert_array_equal(silt.isin(te, v).numpy(), e.astype(np.int64) == v)
    np.testing.assert_array_equal(silt.isin(v, tt).numpy(), np.isin(v, test.astype(np.int64)))
    assert not silt.isin(te, 99).numpy().any()
    empty = silt.tensor(np.array([], dtype), device=device)
    assert not silt.isin(te, empty).numpy().any()


def test_isin_nan_and_zeros(device):
    e = silt.tensor(np.array([np.nan, -0.0, 1.0, 2.5], np.float32), device=device)
    test = silt.tensor(np.array([0.0, np.nan, 2.5], np.float32), device=device)
    np.testing.assert_array_equal(silt.isin(e, test).numpy(), [False, True, False, True])
    # int elements among float test elements: promoted
    i = silt.tensor(np.array([1, 2, 3], np.int64), device=device)
    np.testing.assert_array_equal(silt.isin(i, np.array([2.0, 2.5])).numpy(), [False, True, False])
    with pytest.raises(silt.ArgumentError):
        silt.isin(1, 2)


# ---- shapes, grids, stacks, distances, histograms, runs ----

def test_broadcasts_and_grids(device):
    a = silt.tensor(np.arange(3, dtype=np.float32), device=device)
    b = silt.tensor(np.arange(4, dtype=np.float32) * 10, device=device)
    assert silt.broadcast_shapes((3, 1), (1, 4), 4) == (3, 4)
    x, y = silt.broadcast_tensors(a.reshape(3, 1), b)
    want = np.broadcast_arrays(np.arange(3.0).reshape(3, 1), np.arange(4.0) * 10)
    np.testing.assert_array_equal(x.numpy(), want[0])
    np.testing.assert_array_equal(y.numpy(), want[1])
    assert x.shares_storage(a)
    for indexing in ("ij", "xy"):
        got = silt.meshgrid(a, b, indexing=indexing)
        for g, w in zip(got, np.meshgrid(np.arange(3.0), np.arange(4.0) * 10, indexing=indexing)):
            np.testing.assert_array_equal(g.numpy(), w)
    c = silt.tensor(np.array([5, 6], np.float32), device=device)
    got = silt.cartesian_prod(a, b, c)
    want = np.array([[i, j, k] for i in range(3) for j in np.arange(4) * 10 for k in (5, 6)], np.float32)
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(silt.ArgumentError):
        silt.meshgrid(a, b, indexing="yx")


def test_atleast_and_stacks(device):
    s = silt.tensor(np.float32(2.0), device=device)
    v = silt.tensor(np.arange(3, dtype=np.float32), device=device)
    m = silt.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    assert silt.atleast_1d(s).shape == (1,)
    assert [t.shape for t in silt.atleast_2d(s, v, m)] == [(1, 1), (1, 3), (2, 3)]
    assert [t.shape for t in silt.atleast_3d(s, v, m)] == [np.atleast_3d(np.zeros(sh)).shape for sh in ((), (3,), (2, 3))]
    vn, mn = np.arange(3, dtype=np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(silt.hstack([v, v]).numpy(), np.hstack([vn, vn]))
    np.testing.assert_array_equal(silt.hstack([m, m]).numpy(), np.hstack([mn, mn]))
    np.testing.assert_array_equal(silt.vstack([v, m]).numpy(), np.vstack([vn, mn]))
    np.testing.assert_array_equal(silt.row_stack([v, v]).numpy(), np.vstack([vn, vn]))
    np.testing.assert_array_equal(silt.dstack([m, m]).numpy(), np.dstack([mn, mn]))
    np.testing.assert_array_equal(silt.column_stack([v, v, m.T]).numpy(), np.column_stack([vn, vn, mn.T]))


def test_block_diag_and_triangle_indices(device):
    a = silt.tensor(np.ones((2, 2), np.int32), device=device)
    b = silt.tensor(np.array([7.5, 8.5], np.float32), device=device)
    got = silt.block_diag(a, b)
    want = np.zeros((3, 4), np.float32)
    want[:2, :2] = 1
    want[2, 2:] = [7.5, 8.5]
    assert got.dtype == np.float32 and got.device == device
    np.testing.assert_array_equal(got.numpy(), want)
    for off in (-1, 0, 2):
        np.testing.assert_array_equal(silt.tril_indices(4, 5, off, device=device).numpy(), np.stack(np.tril_indices(4, off, 5)))
        np.testing.assert_array_equal(silt.triu_indices(4, 5, off, device=device).numpy(), np.stack(np.triu_indices(4, off, 5)))


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, np.inf, 3.0])
def test_cdist_against_numpy(device, p):
    rng = np.random.default_rng(2)
    for rows in (5, 30):  # 30: the matrix product form for p = 2
        x1 = rng.standard_normal((2, rows, 4)).astype(np.float32)
        x2 = rng.standard_normal((2, 6, 4)).astype(np.float32)
        d = np.abs(x1[:, :, None, :].astype(np.float64) - x2[:, None, :, :])
        want = (d != 0).sum(-1) if p == 0 else d.max(-1) if p == np.inf else (d ** p).sum(-1) ** (1 / p)
        got = silt.cdist(silt.tensor(x1, device=device), silt.tensor(x2, device=device), p)
        assert got.shape == (2, rows, 6) and got.dtype == np.float32
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_histogram_against_numpy(device):
    rng = np.random.default_rng(6)
    x = rng.standard_normal(1000).astype(np.float32)
    x[:3] = [np.nan, 10.0, -10.0]
    t = silt.tensor(x, device=device)
    # a range: the outliers and NaN count nowhere; the top edge counts
    for kwargs in ({"range": (-2.0, 2.0)}, {"range": (-2.0, 2.0), "density": True}):
        hist, edges = silt.histogram(t, 8, **kwargs)
        want, wedges = np.histogram(x[~np.isnan(x)], 8, **kwargs)
        np.testing.assert_allclose(hist.numpy(), want, rtol=1e-5)
        np.testing.assert_allclose(edges.numpy(), wedges, rtol=1e-6)
    top = silt.tensor(np.array([0.0, 1.0, 2.0], np.float32), device=device)
    np.testing.assert_array_equal(silt.histogram(top, 2)[0].numpy(), [1, 2])
    # given edges and weights
    e = np.array([-3.0, -1.0, 0.0, 0.5, 3.0], np.float32)
    w = rng.random(1000).astype(np.float32)
    hist, _ = silt.histogram(t, silt.tensor(e, device=device), weight=silt.tensor(w, device=device))
    ok = ~np.isnan(x)
    np.testing.assert_allclose(hist.numpy(), np.histogram(x[ok], e, weights=w[ok])[0], rtol=1e-5)
    with pytest.raises(silt.DTypeError):
        silt.histogram(silt.tensor(np.arange(3), device=device), 2)
    # without a range, NaN or an infinity makes the range not finite: an
    # error, as PyTorch's and NumPy's (not the finite elements' range)
    for bad in ([0.0, 1.0, np.nan], [0.0, 1.0, np.inf], [np.nan, np.nan], [-np.inf, 0.0]):
        b = silt.tensor(np.array(bad, np.float32), device=device)
        with pytest.raises(silt.ArgumentError, match="not a finite range"):
            silt.histogram(b, 2)
        with pytest.raises(silt.ArgumentError, match="not a finite range"):
            silt.histogramdd(b.reshape(-1, 1), 2)
        with pytest.raises(ValueError):
            np.histogram(np.array(bad), 2)
    # with one, NaN and infinities count nowhere
    b = silt.tensor(np.array([0.0, 1.0, np.nan, np.inf], np.float32), device=device)
    assert silt.histogram(b, 2, range=(0.0, 1.0))[0].numpy().tolist() == [1.0, 1.0]


def test_unique_consecutive(device):
    x = np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int64)
    t = silt.tensor(x, device=device)
    values, inverse, counts = silt.unique_consecutive(t, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.numpy(), [1, 2, 3, 1, 2])
    np.testing.assert_array_equal(inverse.numpy(), [0, 0, 1, 1, 2, 3, 3, 4])
    np.testing.assert_array_equal(counts.numpy(), [2, 2, 1, 2, 1])
    np.testing.assert_array_equal(silt.unique_consecutive(t.reshape(2, 4)).numpy(), [1, 2, 3, 1, 2])
    n = silt.tensor(np.array([np.nan, np.nan, 1.0], np.float32), device=device)
    assert silt.unique_consecutive(n).numel() == 3  # NaNs are never equal
    assert silt.unique_consecutive(silt.tensor(np.zeros(0, np.float32), device=device)).numel() == 0


def test_reduction_edges_found_by_fuzzing(device):
    """Against PyTorch: `unique_consecutive` along a `dim` of size 0, `diff`
    with `n=0` (nothing joined), a 0-d tensor's one dimension named twice
    or out of range, and a reduction without an identity over no elements
    where no rows are kept either."""
    e = silt.tensor(np.zeros((4, 0), np.float32), device=device)
    values, inverse, counts = silt.unique_consecutive(e, return_inverse=True, return_counts=True, dim=1)
    assert (values.shape, inverse.shape, counts.shape) == ((4, 0), (0,), (0,))
    assert silt.unique_consecutive(silt.tensor(np.zeros(0, np.float32), device=device), dim=0).shape == (0,)
    x = silt.tensor(np.array([1.0, 2.0, 4.0], np.float32), device=device)
    for kw in ({"prepend": x}, {"append": x}, {}):
        np.testing.assert_array_equal(silt.diff(x, n=0, **kw).numpy(), [1.0, 2.0, 4.0])
    s = silt.tensor(np.float32(3.0), device=device)
    for f in (lambda: s.sum((0, 0)), lambda: s.var((0, -1)), lambda: silt.logsumexp(s, (0, 0))):
        with pytest.raises(silt.ArgumentError):
            f()
    assert float(s.sum((0,))) == 3.0
    for d in (1, -2):
        with pytest.raises(silt.ArgumentError):
            s.mode(d)
    assert float(s.mode(-1).values) == 3.0
    none = silt.tensor(np.zeros((0, 2, 0), np.float32), device=device)
    for f in (lambda: none.amin(2), lambda: none.max(2), lambda: none.argmax(2), lambda: silt.aminmax(none, dim=2)):
        with pytest.raises(silt.ArgumentError):
            f()
    assert none.sum(2).shape == (0, 2)


def test_statistics(device):
    rng = np.random.default_rng(9)
    a = rng.standard_normal((3, 20)).astype(np.float32)
    t = silt.tensor(a, device=device)
    s, m = silt.std_mean(t, 1)
    np.testing.assert_allclose(s.numpy(), a.std(1, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(m.numpy(), a.mean(1), rtol=1e-5, atol=1e-6)
    v, _ = silt.var_mean(t, correction=0)
    np.testing.assert_allclose(v.numpy(), a.var(), rtol=1e-5)
    np.testing.assert_allclose(silt.cov(t).numpy(), np.cov(a), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(silt.cov(t, correction=0).numpy(), np.cov(a, ddof=0), rtol=1e-4, atol=1e-6)
    fw = rng.integers(1, 4, 20)
    aw = rng.random(20).astype(np.float32)
    np.testing.assert_allclose(
        silt.cov(t, fweights=silt.tensor(fw, device=device), aweights=silt.tensor(aw, device=device)).numpy(),
        np.cov(a, fweights=fw, aweights=aw), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(silt.cov(t[0]).numpy(), np.cov(a[0]), rtol=1e-4)
    np.testing.assert_allclose(silt.corrcoef(t).numpy(), np.corrcoef(a), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(silt.logspace(-2, 3, 6, base=2, device=device).numpy(), np.logspace(-2, 3, 6, base=2), rtol=1e-6)


def test_calculus_and_products(device):
    rng = np.random.default_rng(10)
    y = rng.standard_normal((3, 7)).astype(np.float32)
    x = np.cumsum(rng.random(7)).astype(np.float32)
    ty, tx = silt.tensor(y, device=device), silt.tensor(x, device=device)
    np.testing.assert_allclose(silt.trapezoid(ty).numpy(), np.trapezoid(y), rtol=1e-5)
    np.testing.assert_allclose(silt.trapz(ty, dx=0.5, dim=0).numpy(), np.trapezoid(y, dx=0.5, axis=0), rtol=1e-5)
    np.testing.assert_allclose(silt.trapezoid(ty, tx).numpy(), np.trapezoid(y, x), rtol=1e-5)
    cum = np.cumsum((y[:, 1:] + y[:, :-1]) * np.diff(x) / 2, axis=1)
    np.testing.assert_allclose(silt.cumulative_trapezoid(ty, tx).numpy(), cum, rtol=1e-5, atol=1e-6)
    e = silt.tensor(np.array([0, 1, -2, 3], np.int32), device=device)
    np.testing.assert_array_equal(silt.ldexp(silt.tensor(np.full(4, 1.5, np.float32), device=device), e).numpy(),
                                  np.ldexp(np.float32(1.5), [0, 1, -2, 3]))
    # the promoted dtype: float16 stays (overflowing to inf), float64 keeps its range, integers give float32
    half = silt.ldexp(silt.tensor(np.array([1.5, 3.0], np.float16), device=device),
                      silt.tensor(np.array([2, 70]), device=device))
    assert half.dtype == np.float16
    np.testing.assert_array_equal(half.numpy(), np.array([6.0, np.inf], np.float16))
    wide = silt.ldexp(silt.tensor(np.array([1.0]), device=device), silt.tensor(np.array([1000]), device=device))
    assert wide.dtype == np.float64 and wide.item() == 2.0 ** 1000
    assert silt.ldexp(silt.tensor(np.array([1, 2]), device=device), e[:2]).dtype == np.float32
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((3, 4, 5)).astype(np.float32)
    ta, tb = silt.tensor(a, device=device), silt.tensor(b, device=device)
    np.testing.assert_allclose(silt.tensordot(ta, tb).numpy(), np.tensordot(a, b), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(silt.tensordot(ta, tb, dims=([1], [0])).numpy(),
                               np.tensordot(a, b, axes=([1], [0])), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(silt.tensordot(ta, tb, dims=([2, 1], [1, 0])).numpy(),
                               np.tensordot(a, b, axes=([2, 1], [1, 0])), rtol=1e-4, atol=1e-5)
    with pytest.raises(silt.ArgumentError):
        silt.tensordot(ta, tb, dims=([0], [0]))
    v = silt.tensor(np.array([1, 2, 3, 5], np.int64), device=device)
    np.testing.assert_array_equal(silt.vander(v).numpy(), np.vander([1, 2, 3, 5]))
    np.testing.assert_array_equal(silt.vander(v, 3, increasing=True).numpy(), np.vander([1, 2, 3, 5], 3, increasing=True))
    np.testing.assert_array_equal(silt.diagflat(silt.tensor(np.arange(4).reshape(2, 2), device=device), 1).numpy(),
                                  np.diagflat(np.arange(4), 1))


def test_review_edges(device):
    # isin: NaN among the test elements matches nothing, and hides nothing
    got = silt.isin(silt.tensor(np.array([1.0, 2.0, np.nan], np.float32), device=device),
                    silt.tensor(np.array([1.0, np.nan], np.float32), device=device))
    np.testing.assert_array_equal(got.numpy(), [True, False, False])
    # a number no element can equal; a number that does not fit as input
    i8 = silt.tensor(np.array([44, 1], np.int8), device=device)
    assert not silt.isin(i8, 300).numpy().any()
    assert silt.isin(i8, 300, invert=True).numpy().all()
    assert silt.isin(300, i8).item() is False
    with pytest.raises(silt.DTypeError):
        silt.add(1000, i8)
    with pytest.raises(silt.ArgumentError):
        silt.broadcast_shapes((2,), (3,))
    # trapezoid: x of one value a sample; x with fewer dimensions; empty
    y = silt.tensor(np.ones((2, 3, 4), np.float32), device=device)
    with pytest.raises(silt.ArgumentError):
        silt.trapezoid(silt.tensor(np.array([[1.0, 2.0, 4.0]], np.float32), device=device),
                       silt.tensor(np.array([0.0, 2.0], np.float32), device=device))
    xs = np.cumsum(np.ones((3, 4)), axis=-1).astype(np.float32)
    np.testing.assert_allclose(silt.trapezoid(y, silt.tensor(xs, device=device)).numpy(),
                               np.trapezoid(np.ones((2, 3, 4)), xs), rtol=1e-6)
    e = silt.tensor(np.ones((2, 0), np.float32), device=device)
    np.testing.assert_array_equal(silt.trapezoid(e).numpy(), [0.0, 0.0])
    assert tuple(silt.cumulative_trapezoid(e).shape) == (2, 0)
    # cov refuses negative weights; std_mean takes the older unbiased
    m = silt.tensor(np.array([[1.0, 2.0, 4.0]], np.float32), device=device)
    with pytest.raises(silt.ArgumentError):
        silt.cov(m, fweights=silt.tensor(np.array([1, -1, 1]), device=device))
    s, _ = silt.std_mean(m, 1, False)
    np.testing.assert_allclose(s.numpy(), np.std([1, 2, 4], ddof=0), rtol=1e-6)
    # vander of integers is int64; block_diag of nothing; bad triangle sizes
    assert silt.vander(silt.tensor(np.array([1, 2], np.int32), device=device), 1).dtype == np.int64
    assert tuple(silt.block_diag().shape) == (1, 0)
    with pytest.raises(silt.ArgumentError):
        silt.tril_indices(-1, 2)


def test_star_import_leaves_the_builtins():
    names = {}
    exec("from silt import *", names)
    for builtin in ("sum", "max", "min", "all", "any", "abs", "round", "pow"):
        assert builtin not in names
        assert hasattr(silt, builtin)


def test_out_takes_a_copy_of_the_result_as_pytorchs(device):
    x = silt.tensor(np.array([1.0, 2.0, 3.0], np.float32), device=device)
    out = silt.zeros(3, dtype=np.float64, device=device)
    assert silt.add(x, x, out=out) is out and out.tolist() == [2.0, 4.0, 6.0]  # float32 into float64
    half = silt.zeros(3, dtype=np.float16, device=device)
    assert silt.mul(x, 2, out=half).tolist() == [2.0, 4.0, 6.0]  # down within floats, as PyTorch's
    with pytest.raises(silt.DTypeError, match="does not cast"):
        silt.exp(x, out=silt.zeros(3, dtype=np.int64, device=device))
    # a tuple of results into a tuple; the named tuple kept
    v, i = silt.zeros(3, device=device), silt.zeros(3, dtype=np.int64, device=device)
    got = silt.sort(silt.tensor(np.array([3.0, 1.0, 2.0], np.float32), device=device), out=(v, i))
    assert got.values is v and got.indices is i and v.tolist() == [1.0, 2.0, 3.0] and i.tolist() == [1, 2, 0]
    # another shape: resized within the storage (with PyTorch's warning), an empty one grows
    five = silt.zeros(5, device=device)
    with pytest.warns(UserWarning, match="resized"):
        silt.neg(x, out=five)
    assert five.shape == (3,) and five.tolist() == [-1.0, -2.0, -3.0]
    empty = silt.empty(0, device=device)
    assert silt.cat([x, x], out=empty) is empty and empty.shape == (6,)
    assert silt.stack([x, x], out=silt.empty(0, device=device)).shape == (2, 3)
    assert silt.where(x > 1, x, 0.0, out=silt.empty(0, device=device)).tolist() == [0.0, 2.0, 3.0]
    # a view as out writes through to its base
    base = silt.zeros(2, 3, device=device)
    silt.add(x, 1, out=base[1])
    assert base.tolist() == [[0.0, 0.0, 0.0], [2.0, 3.0, 4.0]]
    with pytest.raises(TypeError, match="tuple"):
        silt.sort(x, out=v)


def test_view_and_index_edges_found_by_fuzzing(device):
    """Against PyTorch: `repeat`/`tile` with a 0 after the first place give
    empty tensors (a broadcast to nothing raised); `take_along_dim` with
    `dim` counts negative indices from the end (without `dim` they raise, as
    PyTorch's); `scatter_`/`index_fill_` of a tensor of no elements are no
    writes into a view that overlaps itself; `unfold` of a 0-d tensor with
    size 0."""
    ones = silt.ones((1, 2), device=device)
    assert ones.repeat(1, 0).shape == (1, 0)
    assert ones.repeat(2, 0, 3).shape == (2, 0, 6)
    assert silt.ones(3, device=device).tile((2, 0)).shape == (2, 0)
    with pytest.raises(silt.ArgumentError):
        ones.repeat(1, -1)
    t = silt.tensor(np.array([10.0, 20.0, 30.0], np.float32), device=device)
    i = silt.tensor(np.array([-1, -3, 0], np.int64), device=device)
    np.testing.assert_array_equal(silt.take_along_dim(t, i, 0).numpy(), [30.0, 10.0, 10.0])
    m = silt.arange(6.0, device=device).reshape(2, 3)
    got = silt.take_along_dim(m, silt.tensor(np.array([[-1], [0]], np.int64), device=device), 1)
    np.testing.assert_array_equal(got.numpy(), [[2.0], [3.0]])
    for f in (lambda: silt.take_along_dim(t, silt.tensor(np.array([-4]), device=device), 0),
              lambda: silt.take_along_dim(t, silt.tensor(np.array([-1]), device=device))):
        with pytest.raises(silt.IndexOutOfRangeError):
            f()
    e = silt.zeros((3, 0), device=device)
    assert e.scatter_(0, silt.zeros((0, 0), dtype=silt.int64, device=device), 1.0).shape == (3, 0)
    assert e.index_fill_(0, silt.tensor(np.array([1]), device=device), 1.0).shape == (3, 0)
    s = silt.tensor(np.float32(5.0), device=device)
    assert s.unfold(0, 0, 1).shape == (0,) and s.unfold(0, 1, 1).shape == (1,)

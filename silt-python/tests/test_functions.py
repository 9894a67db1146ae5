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
        assert f.__name__ == name and name in silt.__all__
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

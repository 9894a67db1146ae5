"""The functions and methods of `silt._extras`: the window functions, NumPy's
arrays as tensors (`from_numpy`, `as_tensor`, `asarray`), `rsub`,
`unravel_index`, `combinations`, the scatters of views, `narrow_copy`,
`split_with_sizes`, `renorm`, `frexp`, `ldexp`, `nextafter` and `is_signed`,
against NumPy and PyTorch's values (recorded here: the tests run without
PyTorch), on the host backend and an OpenCL device."""

import itertools
import math

import numpy as np
import pytest

import silt

RNG = np.random.default_rng(11)
WINDOWS = ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window")
FLOATS = ((np.float16, np.int16), (np.float32, np.int32), (np.float64, np.int64))


def on(device, a, dtype=None):
    return silt.tensor(np.asarray(a) if dtype is None else np.asarray(a, dtype), device=device)


# ---- window functions -------------------------------------------------------

# PyTorch 2.15's values: window(5, periodic=True), window(5, periodic=False), float32
TORCH_WINDOWS_5 = {
    "hann_window": (
        [0, 0.345491529, 0.904508471, 0.904508471, 0.345491439],
        [0, 0.5, 1, 0.5, 0],
    ),
    "hamming_window": (
        [0.0800000131, 0.397852212, 0.91214788, 0.91214782, 0.397852123],
        [0.0800000131, 0.540000021, 1, 0.540000021, 0.0800000131],
    ),
    "blackman_window": (
        [-2.98023224e-08, 0.20077014, 0.849229813, 0.849229813, 0.20077008],
        [-2.98023224e-08, 0.340000004, 1, 0.339999974, -2.98023224e-08],
    ),
    "bartlett_window": (
        [0, 0.400000006, 0.800000012, 0.799999952, 0.399999976],
        [0, 0.5, 1, 0.5, 0],
    ),
    "kaiser_window": (
        [5.27734373e-05, 0.101719715, 0.792939425, 0.792939425, 0.101719715],
        [5.27734373e-05, 0.215672657, 1, 0.215672657, 5.27734373e-05],
    ),
}
# PyTorch 2.15's values: each window's first element at length 2 (periodic: [w0, 1], else [w0, w0])
TORCH_WINDOWS_2 = {"hann_window": 0.0, "hamming_window": 0.0800000131, "blackman_window": -2.98023224e-08,
                   "bartlett_window": 0.0, "kaiser_window": 5.27734373e-05}


@pytest.mark.parametrize("name", WINDOWS)
def test_windows_as_pytorch(device, name):
    fn = getattr(silt, name)
    for periodic, want in zip((True, False), TORCH_WINDOWS_5[name]):
        w = fn(5, periodic=periodic, device=device)
        assert w.dtype == np.float32 and w.shape == (5,) and w.device == device
        np.testing.assert_allclose(w.numpy(), want, rtol=0, atol=1e-6)
    # lengths 0, 1 and 2, as PyTorch gives them
    for periodic in (True, False):
        assert fn(0, periodic, device=device).shape == (0,)
        assert fn(1, periodic, device=device).tolist() == [1.0]
    w0 = TORCH_WINDOWS_2[name]
    np.testing.assert_allclose(fn(2, device=device).numpy(), [w0, 1.0], atol=1e-7)
    np.testing.assert_allclose(fn(2, False, device=device).numpy(), [w0, w0], atol=1e-7)


def _numpy_window(name, n):
    if name == "kaiser_window":
        return np.kaiser(n, 12.0)
    return {"hann_window": np.hanning, "hamming_window": np.hamming, "blackman_window": np.blackman,
            "bartlett_window": np.bartlett}[name](n)


@pytest.mark.parametrize("name", WINDOWS)
def test_windows_against_numpy(device, name):
    fn = getattr(silt, name)
    for n in (3, 8, 65):
        sym, per = _numpy_window(name, n), _numpy_window(name, n + 1)[:-1]
        for dtype, atol in ((np.float64, 1e-12), (np.float32, 2e-6), (np.float16, 2e-3)):
            w = fn(n, periodic=False, dtype=dtype, device=device)
            assert w.dtype == dtype
            np.testing.assert_allclose(w.numpy().astype(np.float64), sym, rtol=0, atol=atol)
            np.testing.assert_allclose(fn(n, dtype=dtype, device=device).numpy().astype(np.float64), per,
                                       rtol=0, atol=atol)


def test_window_parameters(device):
    # PyTorch 2.15's values: hamming_window(6, True, 0.5, 0.3), kaiser_window(6, False, 5.0)
    np.testing.assert_allclose(
        silt.hamming_window(6, True, 0.5, 0.3, device=device).numpy(),
        [0.199999988, 0.350000024, 0.650000036, 0.800000012, 0.649999976, 0.350000024], atol=1e-6)
    np.testing.assert_allclose(
        silt.kaiser_window(6, False, 5.0, device=device).numpy(),
        [0.0367108881, 0.414903581, 0.91381228, 0.91381228, 0.414903581, 0.0367108881], atol=1e-6)
    np.testing.assert_allclose(silt.kaiser_window(9, False, beta=3.5, dtype=np.float64, device=device).numpy(),
                               np.kaiser(9, 3.5), atol=1e-12)
    assert silt.hann_window(np.int64(4), device=device).shape == (4,)


def test_window_errors():
    for name in WINDOWS:
        fn = getattr(silt, name)
        with pytest.raises(silt.ArgumentError):
            fn(-1)
        with pytest.raises(silt.DTypeError):
            fn(4, dtype=np.int32)
        with pytest.raises(TypeError):
            fn(2.5)


# ---- from_numpy, as_tensor, asarray ------------------------------------------

def test_from_numpy_shares_the_array():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = silt.from_numpy(a)
    assert t.device.is_host and t.dtype == np.float32 and t.shape == (2, 3)
    a[0, 0] = 42
    t[1, 2] = -1
    assert t.tolist() == [[42, 1, 2], [3, 4, -1]] and a[1, 2] == -1
    # transposes and steps are views too, 0-d arrays as well
    f = silt.from_numpy(a.T)
    assert f.strides == (1, 3) and np.shares_memory(f.numpy(), a)
    assert np.shares_memory(silt.from_numpy(a[:, ::2]).numpy(), a)
    assert silt.from_numpy(np.array(2.5)).item() == 2.5


def test_from_numpy_refusals_and_copies():
    a = np.arange(4.0)
    with pytest.raises(silt.ArgumentError):
        silt.from_numpy(a[::-1])  # negative strides, refused as PyTorch's
    with pytest.raises(ValueError):
        silt.from_numpy(a.astype(">f8"))  # byte-swapped, refused as PyTorch's
    with pytest.raises(TypeError):
        silt.from_numpy([1.0, 2.0])
    with pytest.raises(silt.DTypeError):
        silt.from_numpy(np.zeros(2, np.complex64))
    # a read-only array is copied (PyTorch's shares it)
    r = a.copy()
    r.flags.writeable = False
    t = silt.from_numpy(r)
    t[0] = 9
    assert r[0] == 0 and t.tolist() == [9, 1, 2, 3]


def test_as_tensor(device):
    t = on(device, [1.0, 2.0], np.float32)
    assert silt.as_tensor(t) is t
    assert silt.as_tensor(t, device=device) is t
    c = silt.as_tensor(t, dtype=np.float64)
    assert c.dtype == np.float64 and c.device == device and c.tolist() == [1.0, 2.0]
    a = np.arange(4, dtype=np.int32)
    u = silt.as_tensor(a, device=device)
    assert u.dtype == np.int32 and u.device == device and u.tolist() == [0, 1, 2, 3]
    a[0] = 7
    # the host shares the array's memory; an OpenCL device holds a copy
    assert u[0].item() == (7 if device.is_host else 0)
    h = silt.as_tensor(a, dtype=np.float32, device=device)
    assert h.dtype == np.float32 and h.tolist() == [7, 1, 2, 3]
    assert silt.as_tensor([1.5, 2]).device == silt.default_device()
    assert silt.as_tensor(a[::-1], device=device).tolist() == [3, 2, 1, 7]  # copied (PyTorch's refuses it)


def test_asarray(device):
    t = on(device, [1.0, 2.0], np.float32)
    assert silt.asarray(t) is t
    c = silt.asarray(t, copy=True)
    assert c is not t and not c.shares_storage(t) and c.tolist() == t.tolist()
    assert silt.asarray(t, dtype=np.float64).dtype == np.float64
    with pytest.raises(silt.ArgumentError):
        silt.asarray(t, dtype=np.float64, copy=False)
    # an array: on the host by default, shared there
    a = np.arange(3.0)
    h = silt.asarray(a)
    assert h.device.is_host and np.shares_memory(h.numpy(), a)
    assert np.shares_memory(silt.asarray(a, copy=False).numpy(), a)
    assert not np.shares_memory(silt.asarray(a, copy=True).numpy(), a)
    d = silt.asarray(a, device=device)
    assert d.device == device and d.tolist() == [0, 1, 2]
    if not device.is_host:
        with pytest.raises(silt.ArgumentError):
            silt.asarray(a, device=device, copy=False)
    with pytest.raises(silt.ArgumentError):
        silt.asarray(a, dtype=np.float32, copy=False)
    with pytest.raises(silt.ArgumentError):
        silt.asarray(a[::-1], copy=False)
    assert silt.asarray(a[::-1]).tolist() == [2, 1, 0]
    assert silt.asarray(a, dtype=np.float32).dtype == np.float32
    # Python data: as silt.tensor makes it, never shared
    p = silt.asarray([[1, 2]], dtype=np.float16, device=device)
    assert p.dtype == np.float16 and p.device == device and p.tolist() == [[1, 2]]
    assert silt.asarray(np.float32(2)).dtype == np.float32
    with pytest.raises(ValueError):
        silt.asarray([1.0], copy=False)


# ---- rsub, unravel_index, combinations --------------------------------------

def test_rsub(device):
    x = np.array([1, 2, 3])
    t = on(device, x)
    assert silt.rsub(t, 10).tolist() == [9, 8, 7]
    r = silt.rsub(t, 10, alpha=2)
    assert r.dtype == np.int64 and r.tolist() == (10 - 2 * x).tolist()
    f = silt.rsub(on(device, x, np.float32), on(device, [1.0, 2.0, 3.0], np.float32), alpha=0.5)
    assert f.dtype == np.float32 and f.tolist() == [0.5, 1.0, 1.5]
    assert silt.rsub(t, 2.5).dtype == np.float32
    # PyTorch 2.15's values: rsub of uint8 [1, 2, 3] and 1 wraps
    assert silt.rsub(on(device, x, np.uint8), 1).tolist() == [0, 255, 254]
    with pytest.raises(silt.DTypeError):
        silt.rsub(t, 10, alpha=0.5)
    with pytest.raises(silt.DTypeError):
        silt.rsub(on(device, [True]), True)


def test_unravel_index(device):
    shape = (3, 4, 5)
    flat = RNG.integers(0, 60, (4, 6))
    got = silt.unravel_index(on(device, flat), shape)
    want = np.unravel_index(flat, shape)
    assert isinstance(got, tuple) and len(got) == 3
    for g, w in zip(got, want):
        assert g.dtype == np.int64 and g.device == device and g.shape == (4, 6)
        np.testing.assert_array_equal(g.numpy(), w)
    # negative indices count from the end, as PyTorch's; int32 indices give int64
    got = silt.unravel_index(on(device, [-1, -60, 7], np.int32), list(shape))
    assert [g.tolist() for g in got] == [list(c) for c in np.unravel_index([59, 0, 7], shape)]
    assert all(g.dtype == np.int64 for g in got)
    # a 0-d index, an int shape, an empty shape
    i, j = silt.unravel_index(on(device, 4), (2, 3))
    assert i.shape == () and (i.item(), j.item()) == (1, 1)
    assert silt.unravel_index(on(device, [5]), 6)[0].tolist() == [5]
    assert silt.unravel_index(on(device, [0]), ()) == ()
    e = silt.unravel_index(on(device, np.zeros(0, np.int64)), (2, 0))
    assert [g.shape for g in e] == [(0,), (0,)]


def test_unravel_index_errors(device):
    for bad in ([6], [-7]):
        with pytest.raises(silt.IndexOutOfRangeError):
            silt.unravel_index(on(device, bad), (2, 3))
    with pytest.raises(IndexError):
        silt.unravel_index(on(device, [1]), (2, 0))
    with pytest.raises(silt.DTypeError):
        silt.unravel_index(on(device, [1.0]), (2, 3))
    with pytest.raises(silt.DTypeError):
        silt.unravel_index(on(device, [True]), (2, 3))
    with pytest.raises(silt.ArgumentError):
        silt.unravel_index(on(device, [1]), (2, -3))
    with pytest.raises(TypeError):
        silt.unravel_index(on(device, [1]), (2.0, 3))
    with pytest.raises(TypeError):
        silt.unravel_index(on(device, [1]), on(device, [2, 3]))


def test_combinations(device):
    x = np.array([3.0, 1.5, -2.0, 7.0], np.float32)
    t = on(device, x)
    for r in (1, 2, 3, 4):
        for rep in (False, True):
            pick = itertools.combinations_with_replacement if rep else itertools.combinations
            got = silt.combinations(t, r, with_replacement=rep)
            want = np.array(list(pick(x, r)), np.float32)
            assert got.dtype == np.float32 and got.device == device
            np.testing.assert_array_equal(got.numpy(), want)
    # PyTorch 2.15's shapes: r=0 gives an empty 1-d tensor, r above the length (0, r)
    assert silt.combinations(t, 0).shape == (0,)
    assert silt.combinations(t, 5).shape == (0, 5)
    assert silt.combinations(on(device, np.zeros(0, np.int64))).shape == (0, 2)
    assert silt.combinations(on(device, [5.0]), 2, True).tolist() == [[5.0, 5.0]]
    assert silt.combinations(on(device, [True, False])).tolist() == [[True, False]]
    for bad in (on(device, [[1, 2]]), on(device, 1)):
        with pytest.raises(silt.ArgumentError):
            silt.combinations(bad)
    with pytest.raises(silt.ArgumentError):
        silt.combinations(t, -1)


# ---- scatters of views, narrow_copy, split_with_sizes -----------------------

def test_diagonal_scatter(device):
    base = RNG.standard_normal((3, 4)).astype(np.float32)
    x = on(device, base)
    for offset in (0, 1, -1, 3):
        n = len(np.diagonal(base, offset))
        src = np.arange(1, n + 1, dtype=np.float32)
        want = base.copy()
        keep = [(i, i + offset) for i in range(3) if 0 <= i + offset < 4]
        for k, (i, j) in enumerate(keep):
            want[i, j] = src[k]
        got = x.diagonal_scatter(on(device, src), offset)
        assert got.device == device
        np.testing.assert_array_equal(got.numpy(), want)
        np.testing.assert_array_equal(silt.diagonal_scatter(x, on(device, src), offset).numpy(), want)
    np.testing.assert_array_equal(x.numpy(), base)  # the input is left alone
    # other dimensions, and src converted to the input's dtype (PyTorch's)
    z = silt.zeros(2, 2, 3, device=device).diagonal_scatter(on(device, np.ones((3, 2))), 0, 0, 1)
    np.testing.assert_array_equal(z.numpy(), np.stack([np.eye(2)] * 3, axis=2))
    i = silt.zeros(3, 4, dtype=np.int64, device=device).diagonal_scatter(on(device, [1.0, 2.0, 3.0]))
    assert i.dtype == np.int64 and i.diagonal().tolist() == [1, 2, 3]
    with pytest.raises(silt.ArgumentError):
        x.diagonal_scatter(on(device, np.ones(2, np.float32)))
    with pytest.raises(silt.ArgumentError):
        x.diagonal_scatter(on(device, np.float32(1)))
    with pytest.raises(silt.ArgumentError):
        x.diagonal_scatter(on(device, np.ones(3, np.float32)), 0, 0, 0)


def test_select_scatter(device):
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = on(device, base)
    want = base.copy()
    want[:, -1] = [7, 8, 9]
    np.testing.assert_array_equal(x.select_scatter(on(device, [7.0, 8.0, 9.0]), 1, -1).numpy(), want)
    want = base.copy()
    want[1] = -1
    np.testing.assert_array_equal(silt.select_scatter(x, on(device, -np.ones(4)), 0, 1).numpy(), want)
    assert silt.select_scatter(silt.zeros(3, device=device), on(device, 2.0), 0, 0).tolist() == [2, 0, 0]
    np.testing.assert_array_equal(x.numpy(), base)
    with pytest.raises(IndexError):
        x.select_scatter(on(device, np.ones(3, np.float32)), 1, 4)
    with pytest.raises(silt.ArgumentError):
        x.select_scatter(on(device, np.ones(1, np.float32)), 0, 0)  # no broadcasting, as PyTorch's


def test_slice_scatter(device):
    base = np.zeros((8, 8), np.float32)
    x = on(device, base)
    for dim, start, end, step in ((0, 6, None, 1), (1, 2, 6, 2), (0, -3, -1, 1), (1, -10, 100, 3),
                                  (0, None, None, 2), (1, 5, 2, 1)):
        key = (slice(None),) * dim + (slice(start, end, step),)
        view = base[key]
        src = RNG.standard_normal(view.shape).astype(np.float32)
        want = base.copy()
        want[key] = src
        got = x.slice_scatter(on(device, src), dim, start, end, step)
        np.testing.assert_array_equal(got.numpy(), want)
        got = silt.slice_scatter(x, on(device, src), dim=dim, start=start, end=end, step=step)
        np.testing.assert_array_equal(got.numpy(), want)
    assert x.numpy().sum() == 0
    with pytest.raises(silt.ArgumentError):
        silt.slice_scatter(silt.zeros(5, device=device), silt.ones(2, device=device), end=2, step=0)
    with pytest.raises(silt.ArgumentError):
        silt.slice_scatter(silt.zeros(5, device=device), silt.ones(1, device=device))
    with pytest.raises(IndexError):
        silt.slice_scatter(silt.zeros(5, device=device), silt.ones(1, device=device), dim=1)
    with pytest.raises(silt.ArgumentError):
        silt.slice_scatter(on(device, 1.0), on(device, 2.0))


def test_narrow_copy(device):
    base = np.arange(12).reshape(3, 4)
    y = on(device, base)
    for dim, start, length in ((1, 1, 2), (1, -2, 2), (0, 0, 3), (1, 4, 0)):
        got = y.narrow_copy(dim, start, length)
        s = start if start >= 0 else start + base.shape[dim]
        want = np.take(base, np.arange(s, s + length), axis=dim)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
        assert got.is_contiguous() and not got.shares_storage(y)
    assert silt.narrow_copy(y, 1, on(device, 1), 2).tolist() == [[1, 2], [5, 6], [9, 10]]
    with pytest.raises(silt.ArgumentError):
        y.narrow_copy(1, 3, 2)
    with pytest.raises(IndexError):
        y.narrow_copy(2, 0, 1)


def test_split_with_sizes(device):
    base = np.arange(12).reshape(3, 4)
    y = on(device, base)
    parts = y.split_with_sizes([1, 2, 0, 1], 1)
    assert isinstance(parts, tuple) and [p.shape for p in parts] == [(3, 1), (3, 2), (3, 0), (3, 1)]
    for p, w in zip(parts, np.split(base, [1, 3, 3], axis=1)):
        np.testing.assert_array_equal(p.numpy(), w)
        assert p.shares_storage(y)  # views, as PyTorch's
    assert [p.shape for p in silt.split_with_sizes(y, (1, 2))] == [(1, 4), (2, 4)]
    assert [p.shape for p in y.split_with_sizes([4], -1)] == [(3, 4)]
    with pytest.raises(silt.ArgumentError):
        y.split_with_sizes([1, 2], 1)
    with pytest.raises(silt.ArgumentError):
        y.split_with_sizes([5, -1], 1)
    with pytest.raises(TypeError):
        y.split_with_sizes(4, 1)
    with pytest.raises(IndexError):
        y.split_with_sizes([4], 2)
    with pytest.raises(silt.ArgumentError):
        on(device, 1.0).split_with_sizes([1])


# ---- renorm, frexp, ldexp, nextafter, is_signed ------------------------------

def _renorm(x, p, dim, maxnorm):
    """PyTorch's renorm in NumPy: the norm of each slice along dim, the
    factor maxnorm / (norm + 1e-7) where it is above maxnorm."""
    other = tuple(k for k in range(x.ndim) if k != dim % x.ndim)
    a = np.abs(x.astype(np.float64))
    norm = a.max(axis=other, keepdims=True) if p == math.inf else (a ** p).sum(axis=other, keepdims=True) ** (1 / p)
    return x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)


def test_renorm(device):
    # PyTorch 2.15's values
    x = np.array([[1, 2, 3], [4, 5, 6], [0.1, 0.2, 0.2]], np.float32)
    t = on(device, x)
    np.testing.assert_allclose(t.renorm(2, 0, 5).numpy(), [
        [1, 2, 3], [2.2792115211, 2.8490142822, 3.4188172817], [0.1, 0.2, 0.2]], rtol=1e-6)
    np.testing.assert_allclose(t.renorm(1, 1, 5).numpy(), [
        [0.9803921580, 1.3888889551, 1.6304347515], [3.9215686321, 3.4722223282, 3.2608695030],
        [0.0980392173, 0.1388888955, 0.1086956486]], rtol=1e-6)
    np.testing.assert_allclose(t.renorm(math.inf, 0, 4).numpy(), [
        [1, 2, 3], [2.6666667461, 3.3333334923, 4], [0.1, 0.2, 0.2]], rtol=1e-6)
    np.testing.assert_allclose(t.renorm(0.5, 0, 4).numpy(), [
        [0.2326730043, 0.4653460085, 0.6980190277], [0.3579684496, 0.4474605620, 0.5369526744],
        [0.1, 0.2, 0.2]], rtol=1e-5)
    # against NumPy, more dimensions, float64, the function
    y = RNG.standard_normal((3, 4, 5))
    for p, dim, maxnorm in ((2, 1, 1.5), (3, -1, 2.0), (1, 0, 4.0), (math.inf, 2, 1.0)):
        np.testing.assert_allclose(silt.renorm(on(device, y), p, dim, maxnorm).numpy(), _renorm(y, p, dim, maxnorm),
                                   rtol=1e-12)
    h = on(device, x, np.float16).renorm(2, 0, 5)
    assert h.dtype == np.float16
    np.testing.assert_allclose(h.numpy(), _renorm(x, 2, 0, 5), rtol=2e-3)
    # PyTorch 2.15's values: NaN keeps its row, an inf norm gives NaN and zeros
    r = on(device, [[np.nan, 1.0], [np.inf, 4.0]], np.float32).renorm(2, 0, 1).numpy()
    assert np.isnan(r[0, 0]) and r[0, 1] == 1 and np.isnan(r[1, 0]) and r[1, 1] == 0
    assert silt.zeros(2, 0, device=device).renorm(2, 0, 1).shape == (2, 0)
    z = t.clone()
    assert z.renorm_(2, 0, 5) is z
    np.testing.assert_array_equal(z.numpy(), t.renorm(2, 0, 5).numpy())


def test_renorm_errors(device):
    t = on(device, np.ones((2, 3), np.float32))
    for p in (0, -1):
        with pytest.raises(silt.ArgumentError):
            t.renorm(p, 0, 1)
    with pytest.raises(silt.ArgumentError):
        t.renorm(2, 0, -1)
    with pytest.raises(IndexError):
        t.renorm(2, 2, 1)
    with pytest.raises(silt.DTypeError):
        on(device, np.ones((2, 2), np.int64)).renorm(2, 0, 1)
    with pytest.raises(silt.ArgumentError):
        on(device, [1.0, 2.0]).renorm(2, 0, 1)


def _random_floats(fdt, idt, n=4000):
    """Random bit patterns of `fdt` (every exponent, subnormals, NaNs) and
    the special values."""
    info = np.iinfo(idt)
    x = RNG.integers(info.min, info.max, n, dtype=idt, endpoint=True).view(fdt).copy()
    fi = np.finfo(fdt)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, fi.tiny, -fi.tiny, fi.smallest_subnormal,
                        -fi.smallest_subnormal, fi.max, -fi.max, 1.0, -1.0, 0.5], fdt)
    return np.concatenate([special, x])


@pytest.mark.parametrize("fdt, idt", FLOATS)
def test_frexp_against_numpy(device, fdt, idt):
    x = _random_floats(fdt, idt)
    got = on(device, x).frexp()
    assert isinstance(got, silt.MantissaExponent) and got._fields == ("mantissa", "exponent")
    m, e = got
    assert m.dtype == fdt and e.dtype == np.int32 and m.device == device
    with np.errstate(invalid="ignore"):
        wm, we = np.frexp(x)
    nan = np.isnan(x)
    np.testing.assert_array_equal(m.numpy().view(idt)[~nan], wm.view(idt)[~nan])
    assert np.isnan(m.numpy()[nan]).all()
    np.testing.assert_array_equal(e.numpy(), np.where(np.isfinite(x), we, 0))
    # mantissa * 2 ** exponent gives back the input
    fin = np.isfinite(x)
    np.testing.assert_array_equal(np.ldexp(m.numpy()[fin].astype(np.float64), e.numpy()[fin]), x[fin])


def test_frexp_as_pytorch(device):
    # PyTorch 2.15's values
    v = np.array([0.0, -0.0, 1.0, 0.5, 3.0, -10.0, 1e-40, -1e-45, 3e38, np.inf, -np.inf, np.nan], np.float32)
    m, e = silt.frexp(on(device, v))
    assert e.tolist() == [0, 0, 1, 0, 2, 4, -132, -148, 128, 0, 0, 0]
    np.testing.assert_array_equal(m.numpy()[:11], np.array(
        [0.0, -0.0, 0.5, 0.5, 0.75, -0.625, 0.5444488525, -0.5, 0.8816207647, np.inf, -np.inf], np.float32))
    assert np.signbit(m.numpy()[1]) and np.isnan(m.numpy()[11])
    m, e = silt.frexp(on(device, [1e-310, 5e-324, 2.2250738585072014e-308]))
    assert e.tolist() == [-1029, -1073, -1021]
    np.testing.assert_allclose(m.numpy(), [0.5752618032, 0.5, 0.5], rtol=1e-9)
    m, e = on(device, [0.0, 1.0, 6e-8, 1e-5, 65504.0, -3.0], np.float16).frexp()
    assert e.tolist() == [0, 1, -23, -16, 16, 2]
    assert m.tolist() == [0.0, 0.5, 0.5, 0.65625, 0.99951171875, -0.75]
    m, e = on(device, 3.5).frexp()
    assert m.shape == () and (m.item(), e.item()) == (0.875, 2)
    with pytest.raises(silt.DTypeError):
        on(device, [1, 2]).frexp()


def test_ldexp_method(device):
    t = on(device, [1.0, -2.0, 0.5], np.float32)
    e = on(device, [2, 3, -1])
    r = t.ldexp(e)
    assert r.dtype == np.float32 and r.tolist() == [4.0, -16.0, 0.25]
    assert on(device, [1, 2]).ldexp(on(device, [2, 3])).dtype == np.float32
    assert t.ldexp_(e) is t and t.tolist() == [4.0, -16.0, 0.25] and t.dtype == np.float32
    with pytest.raises(silt.DTypeError):
        on(device, [1, 2]).ldexp_(on(device, [2, 3]))


@pytest.mark.parametrize("fdt, idt", FLOATS)
def test_nextafter_against_numpy(device, fdt, idt):
    x = _random_floats(fdt, idt)
    o = np.concatenate([np.repeat(x[:14], 14), _random_floats(fdt, idt)[14:]])
    x = np.concatenate([np.tile(x[:14], 14), x[14:]])
    x[300:400] = o[300:400]  # equal pairs
    got = silt.nextafter(on(device, x), on(device, o))
    assert got.dtype == fdt and got.device == device
    with np.errstate(all="ignore"):
        want = np.nextafter(x, o)
    # where the two are equal, PyTorch's (and C's) is `other` (NumPy's float16 gives `input`)
    want = np.where(x == o, o, want)
    nan = np.isnan(want)
    np.testing.assert_array_equal(got.numpy().view(idt)[~nan], want.view(idt)[~nan])
    assert np.isnan(got.numpy()[nan]).all()


def test_nextafter_as_pytorch(device):
    # PyTorch 2.15's values, float32 and float64
    a = [0.0, -0.0, 0.0, 1.0, 1.0, -1.0, np.inf, -np.inf, 3.4028234663852886e38, np.nan, 1.0, 2.0]
    b = [1.0, -1.0, -1.0, 2.0, 0.0, -2.0, 0.0, 0.0, np.inf, 1.0, np.nan, 2.0]
    r = silt.nextafter(on(device, a, np.float32), on(device, b, np.float32)).tolist()
    assert r[:9] + r[11:] == [1.401298464324817e-45, -1.401298464324817e-45, -1.401298464324817e-45,
                              1.0000001192092896, 0.9999999403953552, -1.0000001192092896,
                              3.4028234663852886e38, -3.4028234663852886e38, math.inf, 2.0]
    assert math.isnan(r[9]) and math.isnan(r[10])
    r = on(device, a).nextafter(on(device, b)).tolist()
    assert r[:9] + r[11:] == [5e-324, -5e-324, -5e-324, 1.0000000000000002, 0.9999999999999999,
                              -1.0000000000000002, 1.7976931348623157e308, -1.7976931348623157e308,
                              3.402823466385289e38, 2.0]
    # equal zeros give `other`, its sign too
    z = silt.nextafter(on(device, [0.0, -0.0], np.float32), on(device, [-0.0, 0.0], np.float32))
    assert z.view(np.int32).tolist() == [-2**31, 0]
    # promotion, broadcasting, numbers
    assert silt.nextafter(on(device, [1.0], np.float32), on(device, [3.0])).dtype == np.float64
    assert silt.nextafter(on(device, [1.0], np.float32), on(device, [3])).dtype == np.float32
    assert silt.nextafter(on(device, [1.0], np.float16), on(device, [3.0], np.float32)).dtype == np.float32
    assert silt.nextafter(on(device, [1.0], np.float32), 2.0).tolist() == [1.0000001192092896]
    bc = silt.nextafter(on(device, [1.0, 2.0], np.float32), on(device, [[3.0], [0.0]], np.float32))
    assert bc.shape == (2, 2) and bc.tolist() == [[1.0000001192092896, 2.000000238418579],
                                                 [0.9999999403953552, 1.9999998807907104]]
    with pytest.raises(silt.DTypeError):
        silt.nextafter(on(device, [1, 2]), on(device, [3, 4]))


def test_nextafter_in_place(device):
    w = on(device, [1.0, 2.0], np.float32)
    assert w.nextafter_(on(device, [3.0, 0.0], np.float32)) is w
    assert w.tolist() == [1.0000001192092896, 1.9999998807907104]
    # PyTorch 2.15's: computed in float64, rounded back to float32
    w = on(device, [1.0, 2.0], np.float32)
    assert w.nextafter_(on(device, [3.0])).tolist() == [1.0, 2.0]
    with pytest.raises(silt.ArgumentError):
        on(device, [1.0, 2.0], np.float32).nextafter_(on(device, [[3.0], [0.0]], np.float32))


def test_is_signed_function(device):
    # PyTorch 2.15's: floats and signed integers, not unsigned ones or bool
    for dtype, want in ((np.float32, True), (np.int8, True), (np.uint8, False), (np.uint16, False),
                        (np.bool_, False)):
        t = on(device, [1], dtype)
        assert silt.is_signed(t) is want and t.is_signed() is want


def test_functions_are_the_methods(device):
    t = on(device, RNG.standard_normal((3, 4)).astype(np.float32))
    np.testing.assert_array_equal(silt.frexp(t).mantissa.numpy(), t.frexp().mantissa.numpy())
    np.testing.assert_array_equal(silt.nextafter(t, 0.0).numpy(), t.nextafter(0.0).numpy())
    np.testing.assert_array_equal(silt.narrow_copy(t, 1, 1, 2).numpy(), t.numpy()[:, 1:3])
    assert [p.shape for p in silt.split_with_sizes(t, [3, 1], 1)] == [(3, 3), (3, 1)]

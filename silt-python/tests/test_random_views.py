"""Random views (transposes, strided slices, broadcasts, new dimensions) of
random tensors of every dtype, each put through one of a table of operations,
against NumPy on the same view: the strided paths of the kernels, the casts
and the Python layer, on the host backend and an OpenCL device."""

import warnings

import numpy as np
import pytest

import silt

DTYPES = [np.float32, np.float64, np.float16, np.int32, np.int64, np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.uint64, np.bool_]
def rand_array(rng, shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_: return rng.random(shape) < 0.5
    if dt.kind == "f": return (rng.standard_normal(shape) * 3).astype(dt)
    info = np.iinfo(dt)
    lo, hi = max(info.min, -50), min(info.max, 50)
    return rng.integers(lo, hi + 1, shape).astype(dt)
def rand_view(rng, a, t):
    for _ in range(rng.integers(0, 3)):
        k = rng.integers(0, 4)
        if a.ndim == 0: break
        if k == 0 and a.ndim >= 2:
            p = list(rng.permutation(a.ndim)); a = a.transpose(p); t = t.permute(*p)
        elif k == 1:
            d = rng.integers(0, a.ndim); n = a.shape[d]
            if n == 0: continue
            st = int(rng.integers(0, n)); step = int(rng.integers(1, 3))
            key = (slice(None),) * d + (slice(st, None, step),)
            a = a[key]; t = t[key]
        elif k == 2:
            d = rng.integers(0, a.ndim)
            if a.shape[d] == 1:
                shape = list(a.shape); shape[d] = int(rng.integers(2, 4))
                a = np.broadcast_to(a, shape); t = t.expand(*shape)
        elif k == 3:
            a = a[None]; t = t[None]
    return a, t
OPS = [
 ("neg", lambda t: -t, lambda a: -a, lambda dt: dt.kind in "if"),
 ("abs", lambda t: abs(t), lambda a: np.abs(a), lambda dt: dt.kind in "iuf"),
 ("add", lambda t: t + t, lambda a: a + a, lambda dt: dt.kind in "iuf"),
 ("mul3", lambda t: t * 3, lambda a: a * a.dtype.type(3), lambda dt: dt.kind in "iuf"),
 ("sum", lambda t: t.sum(), lambda a: a.astype(_acc(a.dtype)).sum(), lambda dt: True),
 ("sum-1", lambda t: t.sum(-1), lambda a: a.astype(_acc(a.dtype)).sum(-1), lambda dt: True),
 ("amax0", lambda t: t.amax(0), lambda a: a.max(0), lambda dt: True),
 ("cumsum0", lambda t: t.cumsum(0), lambda a: np.cumsum(a.astype(_acc(a.dtype)), 0), lambda dt: True),
 ("sort", lambda t: t.sort(-1).values, lambda a: np.sort(a, -1), lambda dt: True),
 ("argsort", lambda t: t.argsort(-1), lambda a: np.argsort(a, -1, kind="stable"), lambda dt: dt.kind != "f"),
 ("flip", lambda t: t.flip(0), lambda a: a[::-1], lambda dt: True),
 ("contig", lambda t: t.contiguous(), lambda a: np.ascontiguousarray(a), lambda dt: True),
 ("clone", lambda t: t.clone(), lambda a: a.copy(), lambda dt: True),
 ("eq", lambda t: t == t.flip(-1), lambda a: a == a[..., ::-1], lambda dt: True),
 ("where", lambda t: t.where(t > 0, 0) if t.dtype != np.bool_ else t, lambda a: np.where(a > 0, a, 0).astype(a.dtype) if a.dtype != np.bool_ else a, lambda dt: True),
 ("exp", lambda t: t.exp(), lambda a: np.exp(a.astype(np.float64)), lambda dt: dt.kind == "f"),
 ("astype f64", lambda t: t.astype(np.float64), lambda a: a.astype(np.float64), lambda dt: True),
 ("matmul", lambda t: t @ t.transpose(-1, -2), lambda a: a.astype(np.float64) @ np.swapaxes(a, -1, -2).astype(np.float64), lambda dt: dt.kind == "f" and dt != np.float16),
 ("softmax", lambda t: t.softmax(-1), lambda a: (lambda e: e / e.sum(-1, keepdims=True))(np.exp(a.astype(np.float64) - a.astype(np.float64).max(-1, keepdims=True))), lambda dt: dt.kind == "f"),
 ("median", lambda t: t.median(-1).values, lambda a: np.sort(a, -1)[..., (a.shape[-1] - 1) // 2], lambda dt: dt.kind != "b"),
 ("diff", lambda t: t.diff(), lambda a: np.diff(a), lambda dt: dt.kind in "if"),
 ("logcumsumexp", lambda t: t.logcumsumexp(0), lambda a: np.logaddexp.accumulate(a.astype(np.float64), 0), lambda dt: dt.kind == "f"),
 ("roll", lambda t: t.roll(1, 0), lambda a: np.roll(a, 1, 0), lambda dt: True),
 ("getitem mask", lambda t: t[t != t.flip(0)], lambda a: a[a != a[::-1]], lambda dt: True),
 ("nansum", lambda t: t.nansum(-1), lambda a: np.nansum(a.astype(np.float64), -1), lambda dt: dt.kind == "f"),
]
def run(seed, dev):
    rng = np.random.default_rng(seed)
    dt = np.dtype(DTYPES[rng.integers(0, len(DTYPES))])
    nd = int(rng.integers(1, 4))
    shape = tuple(int(x) for x in rng.integers(0, 5, nd))
    base = rand_array(rng, shape, dt)
    a, t = rand_view(rng, base, silt.tensor(base.copy(), device=dev))
    name, f, g, ok = OPS[rng.integers(0, len(OPS))]
    if not ok(dt) or a.ndim == 0: return None
    if name == "median" and a.shape[-1] == 0:
        return None  # an error in both
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = np.asarray(g(a))
        except ValueError as e:  # a maximum of no elements
            want = e
    try:
        got = f(t)
    except silt.Error as e:
        if isinstance(want, Exception):
            return None  # refused by both
        return f"{name} {dt} shape {a.shape} strides {t.strides}: {type(e).__name__}: {e}"
    if isinstance(want, Exception) and got.numel() == 0:
        return None  # NumPy's maximum of nothing refuses even where nothing is asked
    if isinstance(want, Exception):
        return f"{name} {dt} shape {a.shape}: NumPy refuses ({want}), silt gives {got}"
    gn = got.numpy()
    if gn.shape != want.shape:
        return f"{name} {dt} shape {a.shape}: got shape {gn.shape}, want {want.shape}"
    if want.dtype.kind == "f" or gn.dtype.kind == "f":
        tol = 2e-2 if dt == np.float16 else 1e-4
        if not np.allclose(gn.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol, equal_nan=True):
            return f"{name} {dt} shape {a.shape} strides {t.strides}: values differ\n{gn}\n{want}"
    elif not np.array_equal(gn.astype(np.int64) if gn.dtype != np.uint64 else gn, want.astype(np.int64) if want.dtype != np.uint64 else want):
        return f"{name} {dt} shape {a.shape} strides {t.strides}: values differ\n{gn}\n{want}"
    return None


def _acc(dt):
    """The dtype of sum and cumsum (PyTorch's): int64 for bool and signed
    integers, uint64 for uint32/uint64, float64 here for the floats."""
    if dt.kind in "ib":
        return np.int64
    if dt.kind == "u":
        return np.uint64 if dt.itemsize >= 4 else np.int64
    return np.float64


@pytest.mark.parametrize("block", range(5))
def test_random_views_through_the_operations_match_numpy(device, block):
    bad = [r for seed in range(block * 100, block * 100 + 100) if (r := run(seed, device))]
    assert not bad, "\n".join(bad[:5])


@pytest.mark.parametrize("form", ["reversed", "expanded"])
def test_sixteen_dimensional_views_reduce_over_every_axis(device, form):
    # the most dimensions, in a view that does not fold: a reduction over
    # all of them (or none) passes 16 dimensions to the device, not 17
    a = np.arange(2**16, dtype=np.float64).reshape((2,) * 16)
    t = silt.tensor(a, device=device)
    if form == "expanded":
        a = np.broadcast_to(a[..., :1], (2,) * 16)
        t = t[..., :1].expand(*(2,) * 16)
    a = a.transpose(range(15, -1, -1))
    t = t.permute(*range(15, -1, -1))
    every = tuple(range(16))
    for dim in [None, every]:
        for keepdim in [False, True]:
            kw = {} if dim is None else {"dim": dim, "keepdim": keepdim}
            nkw = {} if dim is None else {"axis": dim, "keepdims": keepdim}
            assert silt.ops.sum(t, **kw).numpy().tolist() == a.sum(**nkw).tolist()
            assert silt.ops.amax(t, **kw).numpy().tolist() == a.max(**nkw).tolist()
            np.testing.assert_allclose(silt.ops.std(t, **kw).numpy(), a.std(ddof=1, **nkw), rtol=1e-12)
    assert silt.ops.argmax(t).item() == int(np.argmax(a))
    assert silt.ops.argmin(t).item() == int(np.argmin(a))
    assert silt.ops.count_nonzero(t).item() == int(np.count_nonzero(a))
    assert silt.histc(t, bins=4).numpy().tolist() == np.histogram(a, 4, (a.min(), a.max()))[0].tolist()
    # reductions over 15 axes and over none (silt.ops, as NumPy, reduces no
    # axis for dim=(); the methods, as PyTorch, every one)
    assert np.array_equal(silt.ops.sum(t, dim=tuple(range(1, 16))).numpy(), a.sum(axis=tuple(range(1, 16))))
    assert np.array_equal(silt.ops.sum(t, dim=()).numpy(), a.sum(axis=()))
    assert t.sum(dim=()).item() == a.sum()

"""Edge cases of silt.nn.functional's pools, unpools, transposed convolutions,
shuffles and circular padding, against NumPy references written here from
PyTorch's loops (and a few values pinned from PyTorch 2.15's CPU), on the
host backend and an OpenCL device."""

import itertools
import math

import numpy as np
import pytest

import silt
import silt.nn.functional as F
from test_functional import check, t

RNG = np.random.default_rng(23)


# ---- references --------------------------------------------------------------------

def pool_out(n, k, s, p, d, ceil):
    """PyTorch's `pooling_output_shape`: the kernel may be longer than the
    input with ceil_mode, the last window starting inside the input or its
    left padding."""
    m = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
    if ceil and (m - 1) * s >= n + p:
        m -= 1
    return m


def max_pool_ref(x, k, s, p, d, ceil):
    """PyTorch's CPU loop over `len(k)` spatial dimensions: each window's
    places from its first at or past 0 (stepping by the dilation) to the
    input's end; the first maximum or the last NaN; a window with no place
    of the input keeps -inf and the flat index of that first place."""
    nd = len(k)
    spatial = x.shape[-nd:]
    out = tuple(pool_out(*a, ceil) for a in zip(spatial, k, s, p, d))
    vals = np.zeros(x.shape[:-nd] + out, x.dtype)
    idx = np.zeros(x.shape[:-nd] + out, np.int64)
    for lead in np.ndindex(*x.shape[:-nd]):
        for o in np.ndindex(*out):
            ranges = []
            for i in range(nd):
                start = o[i] * s[i] - p[i]
                end = min(start + (k[i] - 1) * d[i] + 1, spatial[i])
                while start < 0:
                    start += d[i]
                ranges.append(range(start, end, d[i]))
            best, top = 0, -np.inf
            for n, r in zip(spatial, ranges):
                best = best * n + r.start
            for q in itertools.product(*ranges):
                v = x[lead + q]
                if v > top or np.isnan(v):
                    top, best = v, np.ravel_multi_index(q, spatial)
            vals[lead + o], idx[lead + o] = top, best
    return vals, idx


def avg_pool_ref(x, k, s, p, ceil, include_pad):
    """PyTorch's divisor: the window's places up to the end of the right
    padding (all of them with `count_include_pad`, else those in the input)."""
    nd = len(k)
    spatial = x.shape[-nd:]
    out = tuple(pool_out(n, kk, ss, pp, 1, ceil) for n, kk, ss, pp in zip(spatial, k, s, p))
    y = np.zeros(x.shape[:-nd] + out)
    for o in np.ndindex(*out):
        sl, size, real = [], 1, 1
        for i in range(nd):
            start = o[i] * s[i] - p[i]
            end = min(start + k[i], spatial[i] + p[i])
            lo, hi = max(start, 0), min(end, spatial[i])
            sl.append(slice(lo, hi))
            size, real = size * (end - start), real * (hi - lo)
        window = x[(Ellipsis,) + tuple(sl)].astype(np.float64)
        y[(Ellipsis,) + o] = window.sum(tuple(range(-nd, 0))) / (size if include_pad else real)
    return y.astype(x.dtype)


def conv_transpose_ref(x, w, b):
    """`[N, C, *L]` by `[C, O, *k]` (stride, dilation 1, no padding) in
    float64: each kernel place adds its input-weighted copy of the input."""
    nd = w.ndim - 2
    spatial, kernel = x.shape[2:], w.shape[2:]
    y = np.zeros((x.shape[0], w.shape[1]) + tuple(L + k - 1 for L, k in zip(spatial, kernel)))
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    for place in np.ndindex(*kernel):
        sl = tuple(slice(q, q + L) for q, L in zip(place, spatial))
        y[(slice(None), slice(None)) + sl] += np.einsum("nc...,co->no...", x64, w64[(Ellipsis,) + place])
    return y + b.astype(np.float64).reshape((-1,) + (1,) * nd)


# ---- transposed convolutions of halves ---------------------------------------------

@pytest.mark.parametrize("xs,ws", [((1, 1, 300), (1, 1, 255)), ((1, 2, 20, 20), (2, 3, 16, 16)),
                                   ((1, 1, 6, 6, 6), (1, 2, 6, 6, 6))])
def test_conv_transpose_sums_halves_in_float32(device, xs, ws):
    # hundreds of overlapping taps: summed in float16 the error is ~5e-3
    # (PyTorch's, summed in float32 and rounded once, ~4e-4)
    x = RNG.uniform(0, 1, xs).astype(np.float16)
    w = RNG.uniform(0, 1, ws).astype(np.float16)
    b = RNG.uniform(0, 1, ws[1]).astype(np.float16)
    fn = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][len(xs) - 3]
    got = fn(t(x, device), t(w, device), t(b, device))
    assert got.dtype == np.float16
    want = conv_transpose_ref(x, w, b)
    assert tuple(got.shape) == want.shape
    assert np.max(np.abs(got.numpy().astype(np.float64) - want) / want) < 1e-3


# ---- shuffles and unfold write new tensors -----------------------------------------

def test_channel_shuffle_and_unfold_never_view_their_input(device):
    a = np.arange(24, dtype=np.float32).reshape(1, 4, 2, 3)
    cases = [
        (lambda x: F.channel_shuffle(x, 1), a),
        (lambda x: F.channel_shuffle(x, 4), a),
        (lambda x: F.native_channel_shuffle(x, 4), a),
        (lambda x: F.channel_shuffle(x, 2), a.reshape(1, 2, 2, 2, 3).transpose(0, 2, 1, 3, 4).reshape(1, 4, 2, 3)),
        (lambda x: F.unfold(x, 1), a.reshape(1, 4, 6)),
        (lambda x: F.unfold(x[0], 1), a.reshape(4, 6)),
        (lambda x: F.unfold(x, (2, 3)), a.reshape(1, 24, 1)),
    ]
    for fn, want in cases:
        x = t(a.copy(), device)  # (the host's tensor may share the array)
        y = fn(x)
        assert not y.shares_storage(x)
        x[...] = -1.0
        check(y, want)


# ---- pool geometry: ceil_mode, padding, windows in the padding ----------------------

POOLS = [
    # (spatial, kernel, stride, padding, dilation, ceil_mode)
    ((3,), (4,), (4,), (0,), (1,), True),            # the kernel longer than the input
    ((3,), (9,), (9,), (0,), (1,), True),
    ((3,), (4,), (1,), (1,), (1,), True),
    ((2,), (2,), (2,), (1,), (3,), True),            # a window wholly in the padding
    ((8,), (2,), (1,), (1,), (3,), False),           # padding up to half the kernel, not its span
    ((8,), (3,), (2,), (1,), (4,), True),
    ((3, 3), (4, 4), (4, 4), (0, 0), (1, 1), True),
    ((2, 3), (4, 3), (3, 1), (2, 1), (1, 1), True),
    ((2, 2), (2, 2), (2, 2), (1, 1), (3, 3), True),
    ((2, 3), (2, 2), (2, 1), (1, 1), (3, 1), True),
    ((5, 4), (3, 2), (2, 3), (1, 1), (2, 3), True),
    ((3, 3, 3), (4, 4, 4), (4, 4, 4), (0, 0, 0), (1, 1, 1), True),
    ((2, 2, 2), (2, 2, 2), (2, 2, 2), (1, 1, 1), (3, 3, 3), True),
    ((4, 3, 5), (3, 2, 4), (2, 2, 3), (1, 1, 2), (1, 2, 1), True),
]


@pytest.mark.parametrize("spatial,k,s,p,d,ceil", POOLS)
def test_max_pools_as_pytorch_loops(device, spatial, k, s, p, d, ceil):
    x = RNG.standard_normal((2, 3) + spatial).astype(np.float32)
    x[1, 2].flat[0] = np.nan
    fn = [F.max_pool1d, F.max_pool2d, F.max_pool3d][len(k) - 1]
    want_v, want_i = max_pool_ref(x, k, s, p, d, ceil)
    values, indices = fn(t(x, device), k, s, p, d, ceil, True)
    check(values, want_v)
    check(indices, want_i)
    check(fn(t(x, device), k, s, p, d, ceil), want_v)
    if len(k) < 3:  # PyTorch's avg_pool3d wants the input no smaller than the kernel
        for include_pad in (True, False):
            avg = [F.avg_pool1d, F.avg_pool2d][len(k) - 1]
            check(avg(t(x, device), k, s, p, ceil, include_pad), avg_pool_ref(x, k, s, p, ceil, include_pad))


def test_pools_with_a_kernel_longer_than_the_input_as_pytorch(device):
    line = t(np.arange(3, dtype=np.float32)[None, None], device)
    check(F.max_pool1d(line, 4, ceil_mode=True), np.array([[[2]]], np.float32))
    check(F.max_pool1d(line, 4, ceil_mode=True, return_indices=True)[1], np.array([[[2]]]))
    check(F.avg_pool1d(line, 4, ceil_mode=True), np.array([[[1]]], np.float32))
    plane = t(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3), device)
    values, indices = F.max_pool2d(plane, 4, ceil_mode=True, return_indices=True)
    check(values, np.array([[[[8]]]], np.float32))
    check(indices, np.array([[[[8]]]]))
    check(F.avg_pool2d(plane, 4, ceil_mode=True), np.array([[[[4]]]], np.float32))
    # PyTorch's lp pools: the average pool (its divisor the 3 or 9 places in
    # the input) times the kernel's size
    check(F.lp_pool1d(line, 2, 4, ceil_mode=True), np.sqrt(np.float32([[[5 / 3 * 4]]])))
    check(F.lp_pool2d(plane, 2, 4, ceil_mode=True), np.sqrt(np.float32([[[[204 / 9 * 16]]]])))
    cube = t(np.arange(27, dtype=np.float32).reshape(1, 1, 3, 3, 3), device)
    check(F.max_pool3d(cube, 4, ceil_mode=True, return_indices=True)[1], np.array([[[[[26]]]]]))
    check(F.lp_pool3d(cube, math.inf, 4, ceil_mode=True), np.array([[[[[26]]]]], np.float32))
    # ... and PyTorch's errors: no window at all, or avg_pool3d's input
    # smaller than its kernel, padded or not
    for fn in (F.max_pool1d, F.avg_pool1d):
        with pytest.raises(silt.ArgumentError, match="more than"):
            fn(line, 5, 1, ceil_mode=True)
        with pytest.raises(silt.ArgumentError, match="more than"):
            fn(line, 4)
    with pytest.raises(silt.ArgumentError, match="smaller than the kernel"):
        F.avg_pool3d(cube, 4, ceil_mode=True)
    with pytest.raises(silt.ArgumentError, match="smaller than the kernel"):
        F.avg_pool3d(cube, (3, 3, 4), 1, (0, 0, 2))
    with pytest.raises(silt.ArgumentError, match="smaller than the kernel"):
        F.lp_pool3d(cube, 2, 4, ceil_mode=True)


def test_pool_padding_is_at_most_half_the_kernel_whatever_the_dilation(device):
    x = t(np.arange(8, dtype=np.float32)[None, None], device)
    values, indices = F.max_pool1d(x, 2, padding=1, dilation=3, return_indices=True)  # PyTorch's values
    check(values, np.array([[[2, 4, 6, 5]]], np.float32))
    check(indices, np.array([[[2, 4, 6, 5]]]))
    for return_indices in (False, True):
        with pytest.raises(silt.ArgumentError, match="half"):
            F.max_pool1d(x, 2, padding=2, dilation=3, return_indices=return_indices)
        with pytest.raises(silt.ArgumentError, match="half"):
            F.max_pool2d(t(np.zeros((1, 1, 8, 8), np.float32), device), (2, 3), 1, (1, 2), 3,
                         return_indices=return_indices)
        with pytest.raises(silt.ArgumentError, match="half"):
            F.max_pool3d(t(np.zeros((1, 1, 8, 8, 8), np.float32), device), 3, 1, (1, 1, 2), 4,
                         return_indices=return_indices)
    with pytest.raises(silt.ArgumentError, match="half"):
        F.avg_pool2d(t(np.zeros((1, 1, 8, 8), np.float32), device), 3, padding=2)


def test_max_pool_window_in_the_padding_indexes_its_first_place(device):
    # PyTorch 2.15 (CPU): -inf and the flat index of the first place at or
    # past 0 the window visits, even past the input's end
    one = t(np.array([[[1, 2]]], np.float32), device)
    values, indices = F.max_pool1d(one, 2, 2, 1, 3, True, True)
    check(values, np.array([[[-np.inf]]], np.float32))
    check(indices, np.array([[[2]]]))
    two = t(np.arange(1, 7, dtype=np.float32).reshape(1, 1, 2, 3), device)
    check(F.max_pool2d(two, 2, (2, 1), 1, (3, 1), True, True)[1], np.array([[[[6, 6, 7, 8]]]]))
    three = t(np.arange(1, 9, dtype=np.float32).reshape(1, 1, 2, 2, 2), device)
    check(F.max_pool3d(three, 2, 2, 1, 3, True, True)[1], np.array([[[[[14]]]]]))


# ---- empty batches and circular cuts --------------------------------------------------

def test_max_unpool_of_an_empty_batch(device):
    cases = [(F.max_unpool1d, (0, 3, 5), (0, 3, 10)), (F.max_unpool2d, (0, 3, 5, 4), (0, 3, 10, 8)),
             (F.max_unpool3d, (0, 3, 5, 4, 2), (0, 3, 10, 8, 4)), (F.max_unpool1d, (0, 5), (0, 10)),
             (F.max_unpool3d, (0, 2, 2, 2), (0, 4, 4, 4))]
    for fn, shape, want in cases:
        got = fn(t(np.zeros(shape, np.float32), device), t(np.zeros(shape, np.int64), device), 2)
        check(got, np.zeros(want, np.float32))
    x, i = t(np.zeros((0, 3, 5), np.float32), device), t(np.zeros((0, 3, 5), np.int64), device)
    check(F.max_unpool1d(x, i, 2, output_size=(11,)), np.zeros((0, 3, 11), np.float32))
    # PyTorch's: only the first dimension may be empty
    for shape in [(2, 0, 5), (3, 0), (2, 3, 0)]:
        with pytest.raises(silt.ArgumentError, match="empty"):
            F.max_unpool1d(t(np.zeros(shape, np.float32), device), t(np.zeros(shape, np.int64), device), 2)


def test_fractional_max_pool_of_an_empty_batch(device):
    cases = [(F.fractional_max_pool2d, 2, (0, 3, 8, 8)), (F.fractional_max_pool2d, 2, (0, 8, 8)),
             (F.fractional_max_pool3d, 3, (0, 3, 8, 8, 8))]
    for fn, nd, shape in cases:
        x = t(np.zeros(shape, np.float32), device)
        want = shape[:-nd] + (4,) * nd
        values, indices = fn(x, 2, output_size=4, return_indices=True)
        check(values, np.zeros(want, np.float32))
        check(indices, np.zeros(want, np.int64))
        check(fn(x, 2, output_ratio=(0.5,) * nd), np.zeros(want, np.float32))
    x = t(np.zeros((0, 3, 8, 8), np.float32), device)
    check(F.fractional_max_pool2d(x, 2, 4, _random_samples=t(np.zeros((0, 3, 2), np.float32), device)),
          np.zeros((0, 3, 4, 4), np.float32))
    with pytest.raises(silt.ArgumentError, match="does not fit"):
        F.fractional_max_pool2d(x, 2, 8)
    with pytest.raises(silt.ArgumentError, match="empty"):
        F.fractional_max_pool2d(t(np.zeros((2, 0, 8, 8), np.float32), device), 2, 4)
    with pytest.raises(silt.ArgumentError, match="empty"):
        F.fractional_max_pool3d(t(np.zeros((1, 3, 8, 0, 8), np.float32), device), 2, 4)


def test_circular_pad_may_cut_a_dimension_to_nothing(device):
    x = t(np.arange(5, dtype=np.float32).reshape(1, 1, 5), device)
    for amounts in [(-3, -2), (-5, 0), (0, -5), (-1, -4)]:
        check(F.pad(x, amounts, "circular"), np.zeros((1, 1, 0), np.float32))
    check(F.pad(x, (-2, -2), "circular"), np.array([[[2]]], np.float32))
    plane = t(np.arange(20, dtype=np.float32).reshape(1, 4, 5), device)
    check(F.pad(plane, (1, 1, -4, 0), "circular"), np.zeros((1, 0, 7), np.float32))
    check(F.pad(plane, (-2, -3, 1, 0), "circular"), np.zeros((1, 5, 0), np.float32))
    # a negative length, and the other modes, still raise (as PyTorch's)
    with pytest.raises(silt.ArgumentError, match="negative length"):
        F.pad(x, (-4, -2), "circular")
    for mode in ("reflect", "replicate"):
        with pytest.raises(silt.ArgumentError, match="empty"):
            F.pad(x, (-3, -2), mode)

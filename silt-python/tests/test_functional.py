"""silt.nn.functional against NumPy references written here from PyTorch's
definitions (loops over windows, PyTorch's source coordinates and divisors),
on the host backend and an OpenCL device."""

import itertools
import math
import warnings

import numpy as np
import pytest

import silt
import silt.nn.functional as F

RNG = np.random.default_rng(11)


def t(a, device):
    return silt.tensor(np.asarray(a), device=device)


def check(got, want, tol=1e-5):
    want = np.asarray(want)
    assert isinstance(got, silt.Tensor)
    assert tuple(got.shape) == want.shape, (tuple(got.shape), want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


def f32(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape).astype(np.float32)


# ---- references ------------------------------------------------------------------

def conv_ref(x, w, b, stride, padding, dilation, groups):
    """Direct cross-correlation, one output at a time (float64)."""
    nd = w.ndim - 2
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(p, p) for p in padding])
    n, c = x.shape[:2]
    o, cg = w.shape[:2]
    k = w.shape[2:]
    out = [(x.shape[2 + i] - dilation[i] * (k[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    y = np.zeros((n, o, *out))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for pos in np.ndindex(*out):
            sl = tuple(slice(pos[i] * stride[i], pos[i] * stride[i] + dilation[i] * (k[i] - 1) + 1, dilation[i])
                       for i in range(nd))
            window = x[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            y[(slice(None), oc) + pos] = window.reshape(n, -1) @ w[oc].astype(np.float64).reshape(-1)
        if b is not None:
            y[:, oc] += b[oc]
    return y


def pool_out(n, k, s, p, d, ceil):
    room = n + 2 * p - d * (k - 1) - 1
    m = (-(-room // s) if ceil else room // s) + 1
    if ceil and (m - 1) * s >= n + p:
        m -= 1
    return m


def max_pool1d_ref(x, k, s, p, d, ceil):
    """PyTorch's loop: the window's real places, the first maximum, the last
    NaN (`val > maxval || isnan(val)`)."""
    n = x.shape[-1]
    m = pool_out(n, k, s, p, d, ceil)
    vals = np.zeros(x.shape[:-1] + (m,), x.dtype)
    idx = np.zeros(x.shape[:-1] + (m,), np.int64)
    for lead in np.ndindex(*x.shape[:-1]):
        for i in range(m):
            start = i * s - p
            places = [start + j * d for j in range(k) if 0 <= start + j * d < n]
            best, top = places[0], -np.inf
            for q in places:
                v = x[lead + (q,)]
                if v > top or np.isnan(v):
                    best, top = q, v
            vals[lead + (i,)] = x[lead + (best,)]
            idx[lead + (i,)] = best
    return vals, idx


def avg_pool1d_ref(x, k, s, p, ceil, include_pad):
    n = x.shape[-1]
    m = pool_out(n, k, s, p, 1, ceil)
    y = np.zeros(x.shape[:-1] + (m,))
    for i in range(m):
        start, end = i * s - p, min(i * s - p + k, n + p)
        size = end - start
        lo, hi = max(start, 0), min(end, n)
        y[..., i] = x[..., lo:hi].astype(np.float64).sum(-1) / (size if include_pad else hi - lo)
    return y.astype(x.dtype)


def adaptive_ref(x, m, reduce):
    n = x.shape[-1]
    cols = [reduce(x[..., (i * n) // m:-((-(i + 1) * n) // m)], -1) for i in range(m)]
    return np.stack(cols, -1).astype(x.dtype)


# ---- convolutions ------------------------------------------------------------------

CONVS = [
    # (input shape, weight shape, stride, padding, dilation, groups)
    ((2, 3, 11), (4, 3, 3), 1, 0, 1, 1),
    ((2, 4, 12), (6, 2, 3), 2, 1, 2, 2),
    ((3, 9), (2, 3, 4), 3, 2, 1, 1),  # unbatched
    ((2, 3, 7, 8), (5, 3, 3, 2), 1, 1, 1, 1),
    ((1, 4, 9, 10), (4, 1, 3, 3), (2, 1), (1, 2), (2, 1), 4),  # depthwise
    ((2, 2, 4, 5, 6), (3, 2, 2, 3, 2), 1, (1, 0, 1), 1, 1),
]


@pytest.mark.parametrize("case", range(len(CONVS)))
def test_conv_matches_a_direct_loop(device, case):
    shape, wshape, stride, padding, dilation, groups = CONVS[case]
    nd = len(wshape) - 2
    x, w, b = f32(*shape), f32(*wshape), f32(wshape[0])
    args = (t(x, device), t(w, device), t(b, device), stride, padding, dilation, groups)
    got = F.conv1d(*args) if nd == 1 else (F.conv2d(*args) if nd == 2 else F.conv3d(*args))
    tup = lambda v: (v,) * nd if isinstance(v, int) else v  # noqa: E731
    xb = x if len(shape) == nd + 2 else x[None]
    want = conv_ref(xb, w, b, tup(stride), tup(padding), tup(dilation), groups)
    want = want if len(shape) == nd + 2 else want[0]
    check(got, want.astype(np.float32), 1e-4)


def test_conv_padding_same_and_valid(device):
    x, w = f32(2, 3, 10, 9), f32(4, 3, 4, 3)
    same = F.conv2d(t(x, device), t(w, device), padding="same", dilation=(1, 2))
    # 'same' pads d * (k - 1) in all, the smaller half before
    xp = np.pad(x, [(0, 0), (0, 0), (1, 2), (2, 2)])
    check(same, conv_ref(xp, w, None, (1, 1), (0, 0), (1, 2), 1).astype(np.float32), 1e-4)
    assert tuple(same.shape) == (2, 4, 10, 9)
    valid = F.conv2d(t(x, device), t(w, device), padding="valid")
    check(valid, conv_ref(x, w, None, (1, 1), (0, 0), (1, 1), 1).astype(np.float32), 1e-4)
    with pytest.raises(silt.ArgumentError, match="stride of 1"):
        F.conv2d(t(x, device), t(w, device), padding="same", stride=2)


def test_conv_reads_views_and_f64(device):
    x = f32(3, 2, 12).astype(np.float64)
    w = f32(4, 2, 3).astype(np.float64)
    xt = t(x.transpose(1, 0, 2).copy(), device).transpose(0, 1)  # a view, not contiguous
    assert not xt.is_contiguous()
    check(F.conv1d(xt, t(w, device), stride=2), conv_ref(x, w, None, (2,), (0,), (1,), 1), 1e-12)


def test_conv_errors(device):
    x, w = t(f32(2, 4, 8), device), t(f32(3, 2, 3), device)
    with pytest.raises(silt.ArgumentError, match="does not fit"):
        F.conv1d(x, w)  # 2 channels a group, groups=1
    with pytest.raises(silt.ArgumentError, match="does not fit"):
        F.conv1d(x, w, groups=2)  # 3 outputs do not split in 2 groups
    with pytest.raises(silt.ArgumentError, match="more than"):
        F.conv1d(x, t(f32(3, 4, 9), device))
    with pytest.raises(silt.DTypeError):
        F.conv1d(x, t(f32(3, 4, 3).astype(np.float64), device))
    with pytest.raises(silt.ArgumentError, match="dimensions"):
        F.conv2d(x[0], t(f32(3, 4, 3, 3), device))  # [C, H, W] or [N, C, H, W]
    with pytest.raises(silt.ArgumentError, match="bias"):
        F.conv1d(x, t(f32(3, 4, 3), device), t(f32(2), device))
    with pytest.raises(silt.ArgumentError, match="stride"):
        F.conv1d(x, t(f32(3, 4, 3), device), stride=0)
    with pytest.raises(TypeError):
        F.conv1d(f32(2, 4, 8), w)


def test_unfold_is_im2col(device):
    x = f32(2, 3, 6, 7)
    got = F.unfold(t(x, device), (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))
    xp = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)])
    oh, ow = (8 - 3) // 1 + 1, (9 - 3) // 2 + 1
    want = np.zeros((2, 3 * 6, oh * ow), np.float32)
    for c in range(3):
        for ki in range(2):
            for kj in range(3):
                for i in range(oh):
                    for j in range(ow):
                        want[:, c * 6 + ki * 3 + kj, i * ow + j] = xp[:, c, i + 2 * ki, j * 2 + kj]
    check(got, want)


# ---- pooling ------------------------------------------------------------------------

@pytest.mark.parametrize("k,s,p,d,ceil", [(2, None, 0, 1, False), (3, 2, 1, 1, True), (3, 2, 1, 2, False),
                                          (4, 3, 2, 1, True), (3, 1, 0, 1, False),
                                          (2, 2, 1, 1, True)])  # ceil_mode drops a window starting in the padding
def test_max_pool1d(device, k, s, p, d, ceil):
    x = f32(2, 3, 11)
    x[0, 1, 4] = x[0, 1, 5] = x[0, 1, 9] = np.nan  # a window's last NaN
    x[1, 2, :] = -np.inf  # a window of -inf picks an input place, not padding
    x[1, 0, 3:6] = 1.5  # ties: the first
    vals, idx = F.max_pool1d(t(x, device), k, s, p, d, ceil_mode=ceil, return_indices=True)
    want_v, want_i = max_pool1d_ref(x, k, s if s else k, p, d, ceil)
    check(vals, want_v)
    check(idx, want_i)
    check(F.max_pool1d(t(x, device), k, s, p, d, ceil_mode=ceil), want_v)


def test_max_pool2d_and_3d_are_separable_maxima(device):
    x = f32(2, 3, 9, 8)
    got, idx = F.max_pool2d(t(x, device), (3, 2), (2, 2), (1, 1), ceil_mode=True, return_indices=True)
    rows, _ = max_pool1d_ref(x.transpose(0, 1, 3, 2), 3, 2, 1, 1, True)
    want, _ = max_pool1d_ref(rows.transpose(0, 1, 3, 2), 2, 2, 1, 1, True)
    check(got, want)
    flat = x.reshape(2, 3, -1)
    check(silt.tensor(np.take_along_axis(flat, idx.numpy().reshape(2, 3, -1), -1).reshape(want.shape),
                      device=device), want)
    x3 = f32(1, 2, 5, 6, 4)
    got3 = F.max_pool3d(t(x3, device), 2)
    check(got3, x3[:, :, :4, :6, :4].reshape(1, 2, 2, 2, 3, 2, 2, 2).max(axis=(3, 5, 7)))


def test_max_pool_of_integers_and_unbatched(device):
    x = RNG.integers(-50, 50, (3, 10)).astype(np.int32)
    got = F.max_pool1d(t(x, device), 3, 2, 1)
    check(got, max_pool1d_ref(x, 3, 2, 1, 1, False)[0])


@pytest.mark.parametrize("k,s,p,ceil,include", [(2, None, 0, False, True), (3, 2, 1, True, True),
                                                (3, 2, 1, True, False), (4, 3, 2, True, True),
                                                (4, 3, 2, False, False), (2, 2, 1, True, True)])
def test_avg_pool1d(device, k, s, p, ceil, include):
    x = f32(2, 3, 12)
    got = F.avg_pool1d(t(x, device), k, s, p, ceil, include)
    check(got, avg_pool1d_ref(x, k, s if s else k, p, ceil, include))


def test_avg_pool2d_divisors(device):
    x = f32(2, 2, 7, 6)
    got = F.avg_pool2d(t(x, device), 3, 2, 1, ceil_mode=True, count_include_pad=False)
    rows = avg_pool1d_ref(x.transpose(0, 1, 3, 2), 3, 2, 1, True, False).transpose(0, 1, 3, 2)
    check(got, avg_pool1d_ref(rows, 3, 2, 1, True, False))
    ones = np.ones((1, 1, 4, 4), np.float32)
    check(F.avg_pool2d(t(ones, device), 2, divisor_override=3), np.full((1, 1, 2, 2), 4 / 3, np.float32))
    check(F.avg_pool3d(t(np.ones((1, 1, 2, 2, 2), np.float32), device), 2, padding=1)[0, 0, 0, 0, 0],
          np.float32(1 / 8))


def test_pool_errors(device):
    x = t(f32(1, 2, 8), device)
    with pytest.raises(silt.ArgumentError, match="half"):
        F.max_pool1d(x, 2, padding=2)
    with pytest.raises(silt.ArgumentError, match="more than"):
        F.max_pool1d(x, 9)
    with pytest.raises(silt.ArgumentError, match="dimensions"):
        F.max_pool2d(x[0], 2)
    with pytest.raises(silt.DTypeError):
        F.avg_pool1d(t(np.ones((1, 2, 4), np.int32), device), 2)
    with pytest.raises(silt.ArgumentError, match="divisor_override"):
        F.avg_pool2d(t(f32(1, 1, 4, 4), device), 2, divisor_override=0)


@pytest.mark.parametrize("n,m", [(8, 3), (10, 4), (5, 5), (3, 7), (9, 1)])
def test_adaptive_pools_1d(device, n, m):
    x = f32(2, 3, n)
    check(F.adaptive_avg_pool1d(t(x, device), m), adaptive_ref(x.astype(np.float64), m, np.mean).astype(np.float32))
    check(F.adaptive_max_pool1d(t(x, device), m), adaptive_ref(x, m, np.max))


def test_adaptive_pools_2d_and_none(device):
    x = f32(2, 3, 7, 9)
    got = F.adaptive_avg_pool2d(t(x, device), (3, None))
    want = adaptive_ref(x.transpose(0, 1, 3, 2).astype(np.float64), 3, np.mean).transpose(0, 1, 3, 2)
    check(got, want.astype(np.float32))
    got = F.adaptive_max_pool2d(t(x, device), 4)
    rows = adaptive_ref(x.transpose(0, 1, 3, 2), 4, np.max).transpose(0, 1, 3, 2)
    check(got, adaptive_ref(rows, 4, np.max))
    y = np.full((1, 1, 4), np.inf, np.float32)
    check(F.adaptive_avg_pool1d(t(y, device), 3), np.full((1, 1, 3), np.inf, np.float32))
    x3 = f32(1, 2, 4, 6, 5)
    check(F.adaptive_avg_pool3d(t(x3, device), (2, 3, None)),
          x3.astype(np.float64).reshape(1, 2, 2, 2, 3, 2, 5).mean((3, 5)).astype(np.float32))
    check(F.adaptive_max_pool3d(t(x3, device), (1, 2, 5)), x3.reshape(1, 2, 1, 4, 2, 3, 5).max((3, 5)))
    same = F.adaptive_avg_pool2d(t(x, device), (7, 9))
    check(same, x)
    assert not same.shares_storage(t(x, device))
    # an output size 0: an empty result, as PyTorch's
    assert tuple(F.adaptive_avg_pool1d(t(x[0], device), 0).shape) == (3, 7, 0)
    assert tuple(F.adaptive_avg_pool2d(t(x, device), (0, 2)).shape) == (2, 3, 0, 2)
    values, indices = F.adaptive_max_pool2d(t(x, device), 0, return_indices=True)
    assert tuple(values.shape) == tuple(indices.shape) == (2, 3, 0, 0) and indices.dtype == np.int64
    assert tuple(F.interpolate(t(x, device), scale_factor=0.1, mode="area").shape) == (2, 3, 0, 0)
    with pytest.raises(silt.ArgumentError, match="non-negative"):
        F.adaptive_avg_pool1d(t(x[0], device), -1)


def adaptive_max_ref(x, sizes):
    """PyTorch's adaptive max loop over `len(sizes)` trailing dimensions: each
    window in row-major order, `val > maxval || isnan(val)` (the first
    maximum, the last NaN); indices flat in the spatial plane."""
    nd = len(sizes)
    spatial = x.shape[-nd:]
    vals = np.zeros(x.shape[:-nd] + tuple(sizes), x.dtype)
    idx = np.zeros(x.shape[:-nd] + tuple(sizes), np.int64)
    for lead in np.ndindex(*x.shape[:-nd]):
        for out in np.ndindex(*sizes):
            ranges = [range((o * n) // m, -((-(o + 1) * n) // m)) for o, n, m in zip(out, spatial, sizes)]
            best, top = None, -np.inf
            for place in np.ndindex(*[len(r) for r in ranges]):
                q = tuple(r[j] for r, j in zip(ranges, place))
                v = x[lead + q]
                if best is None or v > top or np.isnan(v):
                    best, top = q, v
            vals[lead + out] = top
            idx[lead + out] = np.ravel_multi_index(best, spatial)
    return vals, idx


@pytest.mark.parametrize("shape,sizes", [((2, 3, 10), (4,)), ((3, 7), (3,)), ((2, 2, 7, 9), (3, 4)),
                                         ((1, 2, 5, 6), (5, 2)), ((2, 4, 5, 3), (2, 5)),
                                         ((1, 2, 4, 6, 5), (3, 2, 4))])
def test_adaptive_max_pool_indices(device, shape, sizes):
    x = f32(*shape)
    flat = x.reshape(-1)
    flat[[p for p in (3, 4, 17, 20, 30) if p < flat.size]] = np.nan  # windows with one NaN and with several
    flat[8:14] = 0.5  # ties
    nd = len(sizes)
    fn = [F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d][nd - 1]
    vals, idx = fn(t(x, device), sizes, return_indices=True)
    want_v, want_i = adaptive_max_ref(x, sizes)
    check(vals, want_v)
    check(idx, want_i)
    check(fn(t(x, device), sizes), want_v)
    ints = RNG.integers(-3, 3, shape).astype(np.int32)
    vals, idx = fn(t(ints, device), sizes, return_indices=True)
    want_v, want_i = adaptive_max_ref(ints, sizes)
    check(vals, want_v)
    check(idx, want_i)


# ---- interpolate ----------------------------------------------------------------------

def linear_ref(x, m, align, scale=None):
    n = x.shape[-1]
    ratio = (1 / scale) if scale else n / m
    y = np.zeros(x.shape[:-1] + (m,))
    for i in range(m):
        src = (i * (n - 1) / (m - 1) if m > 1 else 0) if align else max((i + 0.5) * ratio - 0.5, 0)
        lo = min(int(src), n - 1)
        hi = min(lo + 1, n - 1)
        lam = src - lo
        y[..., i] = x[..., lo] * (1 - lam) + x[..., hi] * lam
    return y.astype(x.dtype)


@pytest.mark.parametrize("n,m,align", [(5, 9, False), (5, 9, True), (9, 4, False), (6, 6, True), (4, 1, True)])
def test_interpolate_linear(device, n, m, align):
    x = f32(2, 3, n)
    check(F.interpolate(t(x, device), size=m, mode="linear", align_corners=align), linear_ref(x, m, align))


def test_interpolate_bilinear_scale_and_nearest(device):
    x = f32(1, 2, 4, 5)
    got = F.interpolate(t(x, device), scale_factor=(1.5, 2), mode="bilinear")
    rows = linear_ref(x.transpose(0, 1, 3, 2), 6, False, 1.5).transpose(0, 1, 3, 2)
    check(got, linear_ref(rows, 10, False, 2))
    # nearest: floor(dst * in / out) in float32; nearest-exact: floor((dst + 0.5) * in / out)
    check(F.interpolate(t(x, device), size=(7, 3)),
          x[:, :, [0, 0, 1, 1, 2, 2, 3]][:, :, :, [0, 1, 3]])
    check(F.interpolate(t(x, device), size=(7, 3), mode="nearest-exact"),
          x[:, :, [0, 0, 1, 2, 2, 3, 3]][:, :, :, [0, 2, 4]])
    ints = RNG.integers(0, 9, (1, 1, 3)).astype(np.int64)
    check(F.interpolate(t(ints, device), scale_factor=2), np.repeat(ints, 2, -1))
    check(F.interpolate(t(x, device), size=(2, 5), mode="area"),
          x.reshape(1, 2, 2, 2, 5).mean(3))


def bicubic_ref(x, size, align, scales=(None, None)):
    """PyTorch's upsample_bicubic2d loop: for each output, the 4 x 4 places
    around its source (clamped to the edges), each row interpolated along W,
    then those along H (float64)."""
    a = -0.75

    def weights(t):
        near = lambda v: ((a + 2) * v - (a + 3)) * v * v + 1  # noqa: E731
        far = lambda v: ((a * v - 5 * a) * v + 8 * a) * v - 4 * a  # noqa: E731
        return [far(t + 1), near(t), near(1 - t), far(2 - t)]

    def source(i, n, m, scale):
        if align:
            return i * (n - 1) / (m - 1) if m > 1 else 0.0
        ratio = 1 / scale if scale else n / m
        return (i + 0.5) * ratio - 0.5

    h, w = x.shape[-2:]
    (mh, mw), y = size, np.zeros(x.shape[:-2] + tuple(size))
    for oy in range(mh):
        sy = source(oy, h, mh, scales[0])
        iy = math.floor(sy)
        wy = weights(sy - iy)
        for ox in range(mw):
            sx = source(ox, w, mw, scales[1])
            ix = math.floor(sx)
            wx = weights(sx - ix)
            rows = []
            for j in range(4):
                r = min(max(iy - 1 + j, 0), h - 1)
                rows.append(sum(wx[k] * x[..., r, min(max(ix - 1 + k, 0), w - 1)].astype(np.float64)
                                for k in range(4)))
            y[..., oy, ox] = sum(wy[j] * rows[j] for j in range(4))
    return y.astype(x.dtype)


@pytest.mark.parametrize("size,align", [((7, 9), False), ((7, 9), True), ((3, 2), False), ((2, 5), True),
                                        ((4, 6), False), ((1, 1), True)])
def test_interpolate_bicubic(device, size, align):
    x = f32(2, 3, 4, 6)
    check(F.interpolate(t(x, device), size=size, mode="bicubic", align_corners=align),
          bicubic_ref(x, size, align))


def test_interpolate_bicubic_scale_and_float64(device):
    x = f32(1, 2, 5, 4)
    got = F.interpolate(t(x, device), scale_factor=(1.5, 2.5), mode="bicubic")
    check(got, bicubic_ref(x, (7, 10), False, (1.5, 2.5)))
    got = F.interpolate(t(x, device), scale_factor=(1.5, 2.5), mode="bicubic", recompute_scale_factor=True)
    check(got, bicubic_ref(x, (7, 10), False))
    x64 = x.astype(np.float64)
    check(F.interpolate(t(x64, device), size=(8, 3), mode="bicubic"), bicubic_ref(x64, (8, 3), False), 1e-12)
    # a step overshoots on both sides (Keys' kernel has negative lobes), as PyTorch's
    step = np.zeros((1, 1, 1, 4), np.float32)
    step[..., 2:] = 1
    got = F.interpolate(t(step, device), size=(1, 8), mode="bicubic").numpy()
    assert got.min() < 0 and got.max() > 1
    check(F.interpolate(t(step, device), size=(1, 8), mode="bicubic"), bicubic_ref(step, (1, 8), False))


def antialias_ref(x, size, mode, align=False, scales=(None, None)):
    """Pillow's separable resampling as PyTorch computes it, one output at a
    time (float64): along W, then along H, each output the normalised sum of
    the filter (widened by the scale when shrinking) over the places whose
    centres lie within its support."""
    width = {"bilinear": 1.0, "bicubic": 2.0, "lanczos": 3.0}[mode]

    def filt(v):
        v = abs(v)
        if mode == "bilinear":
            return max(0.0, 1 - v)
        if mode == "bicubic":
            a = -0.5
            return ((a + 2) * v - (a + 3)) * v * v + 1 if v < 1 else (
                a * v ** 3 - 5 * a * v ** 2 + 8 * a * v - 4 * a if v < 2 else 0.0)
        return float(np.sinc(v) * np.sinc(v / 3)) if v < 3 else 0.0

    def along(x, m, scale):
        n = x.shape[-1]
        if n == m:
            return x
        s = ((n - 1) / (m - 1) if m > 1 else 0.0) if align else (1 / scale if scale else n / m)
        support = width * max(s, 1.0)
        y = np.zeros(x.shape[:-1] + (m,))
        for i in range(m):
            centre = s * (i + 0.5)
            lo = max(int(centre - support + 0.5), 0)
            hi = min(int(centre + support + 0.5), n)
            w = [filt((j - centre + 0.5) / max(s, 1.0)) for j in range(lo, hi)]
            total = sum(w)
            y[..., i] = sum(wj / total * x[..., j] for wj, j in zip(w, range(lo, hi)))
        return y

    y = along(x.astype(np.float64), size[1], scales[1])
    return along(y.swapaxes(-1, -2), size[0], scales[0]).swapaxes(-1, -2)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("size,align", [((3, 5), False), ((11, 4), False), ((2, 13), True), ((7, 6), False)])
def test_interpolate_antialias(device, mode, size, align):
    if mode == "lanczos" and align:
        return
    x = f32(2, 3, 7, 9)
    got = F.interpolate(t(x, device), size=size, mode=mode, antialias=True, align_corners=align)
    check(got, antialias_ref(x, size, mode, align).astype(np.float32))
    x64 = x[:, :, ::2].astype(np.float64)  # 4 x 9, a view with a step
    got = F.interpolate(t(x64, device)[:, :, :, ::2], scale_factor=(0.6, 2.5), mode=mode, antialias=True)
    check(got, antialias_ref(x64[..., ::2], (2, 12), mode, scales=(0.6, 2.5)), 1e-12)


def test_interpolate_antialias_values(device):
    """Values that PyTorch 2.15's CPU kernels give (float64, uint8)."""
    x = np.arange(64.0).reshape(1, 1, 8, 8)
    want = {
        "bilinear": [9.2511961722, 10.7680311891, 12.3421052632, 13.9161793372, 15.4330143541],
        "lanczos": [6.7913567961, 8.3691579582, 9.9891412062, 11.6091244541, 13.1869256163],
    }
    for mode, row in want.items():
        got = F.interpolate(t(x, device), size=(3, 5), mode=mode, antialias=True).numpy()
        np.testing.assert_allclose(got[0, 0, 0], row, rtol=1e-10)
    got = F.interpolate(t(x, device), size=(3, 5), mode="bicubic", antialias=True, align_corners=True)
    np.testing.assert_allclose(got.numpy()[0, 0, :, 0], [11.0926411935, 39.0711989082, 57.0514302271], rtol=1e-10)
    # uint8: PyTorch's integer passes, the same bytes
    u = (np.arange(64).reshape(1, 1, 8, 8) * 37 % 256).astype(np.uint8)
    want = {
        "bilinear": [[59, 115, 162, 136, 63], [153, 159, 104, 84, 128], [135, 83, 111, 168, 180]],
        "bicubic": [[48, 111, 174, 141, 53], [161, 171, 97, 71, 131], [137, 72, 107, 180, 184]],
        "lanczos": [[39, 112, 182, 141, 46], [167, 177, 95, 62, 135], [139, 66, 99, 189, 188]],
    }
    for mode, rows in want.items():
        check(F.interpolate(t(u, device), size=(3, 5), mode=mode, antialias=True), np.array([[rows]], np.uint8))
    # an infinity outside an output's window does not reach it; float16 is computed in float32
    y = x.copy()
    y[..., 7] = np.inf
    got = F.interpolate(t(y, device), size=(8, 2), mode="bilinear", antialias=True).numpy()
    assert np.isfinite(got[..., 0]).all() and np.isinf(got[..., 1]).all()
    h = x.astype(np.float16)
    check(F.interpolate(t(h, device), size=(3, 5), mode="lanczos", antialias=True),
          antialias_ref(h, (3, 5), "lanczos").astype(np.float16), 1e-2)


def test_interpolate_errors(device):
    x = t(f32(1, 2, 4), device)
    with pytest.raises(silt.ArgumentError, match="4-d"):
        F.interpolate(x, size=3, mode="bicubic")
    with pytest.raises(silt.DTypeError):
        F.interpolate(t(np.ones((1, 1, 2, 2), np.int32), device), size=3, mode="bicubic")
    with pytest.raises(silt.ArgumentError, match="antialias"):
        F.interpolate(t(f32(1, 1, 4, 4), device), size=3, mode="nearest", antialias=True)
    with pytest.raises(silt.ArgumentError, match="antialias"):
        F.interpolate(x, size=3, mode="linear", antialias=True)
    with pytest.raises(silt.ArgumentError, match="antialias=True"):
        F.interpolate(t(f32(1, 1, 4, 4), device), size=3, mode="lanczos")
    with pytest.raises(silt.ArgumentError, match="align_corners"):
        F.interpolate(t(f32(1, 1, 4, 4), device), size=3, mode="lanczos", antialias=True, align_corners=True)
    with pytest.raises(silt.DTypeError):
        F.interpolate(t(np.ones((1, 1, 4, 4), np.int32), device), size=3, mode="bilinear", antialias=True)
    with pytest.raises(silt.ArgumentError, match="4-d"):
        F.interpolate(x, size=3, mode="bilinear")
    with pytest.raises(silt.ArgumentError, match="either"):
        F.interpolate(x, size=3, scale_factor=2.0)
    with pytest.raises(silt.ArgumentError, match="align_corners"):
        F.interpolate(x, size=3, align_corners=True)


# ---- padding -------------------------------------------------------------------------

@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")])
def test_pad_modes_match_numpy(device, mode, np_mode):
    x = f32(2, 3, 5, 6)
    got = F.pad(t(x, device), (2, 1, 3, 4) if mode != "reflect" else (2, 1, 3, 4 - 1), mode=mode)
    widths = [(0, 0), (0, 0), (3, 4 if mode != "reflect" else 3), (2, 1)]
    check(got, np.pad(x, widths, mode=np_mode))


def test_pad_constant_crops_and_fills(device):
    x = RNG.integers(0, 9, (3, 4)).astype(np.int32)
    check(F.pad(t(x, device), (1, -2, -1, 2), value=7),
          np.pad(x[1:, :2], [(0, 2), (1, 0)], constant_values=7))
    check(F.pad(t(x, device), (0, 0, 0, 0)), x)
    check(F.pad(t(x, device), (-4, 1)), np.zeros((3, 1), np.int32))
    with pytest.raises(silt.ArgumentError, match="amounts"):
        F.pad(t(x, device), (1, 1, 1))
    with pytest.raises(silt.ArgumentError, match="below the length"):
        F.pad(t(x, device), (4, 0), mode="reflect")
    with pytest.raises(silt.ArgumentError, match="negative length"):
        F.pad(t(x, device), (-3, -2))
    with pytest.raises(silt.ArgumentError, match="mode"):
        F.pad(t(x, device), (1, 1), mode="symmetric")
    for mode in ("reflect", "replicate"):  # PyTorch's: these leave something
        with pytest.raises(silt.ArgumentError, match="empty"):
            F.pad(t(x, device), (-2, -2), mode=mode)


# ---- activations, softmax, normalisations --------------------------------------------

def test_activations(device):
    x = f32(4, 5, low=-30, high=30)
    tx = t(x, device)
    d = x.astype(np.float64)
    # the functions that are torch's elementwise ones take integers, as float32
    ints = np.array([-3, 0, 2, 7], np.int32)
    fd = ints.astype(np.float64)
    for fn, want in ((F.sigmoid, 1 / (1 + np.exp(-fd))), (F.tanh, np.tanh(fd)), (F.softsign, fd / (1 + np.abs(fd))),
                     (F.tanhshrink, fd - np.tanh(fd))):
        check(fn(t(ints, device)), want.astype(np.float32), 1e-6)
    check(F.relu(tx), np.maximum(x, 0))
    check(F.leaky_relu(tx, 0.2), np.where(x > 0, x, 0.2 * x))
    check(F.elu(tx, 0.5), np.where(x > 0, d, 0.5 * np.expm1(d)).astype(np.float32))
    check(F.hardtanh(tx, -2, 3), np.clip(x, -2, 3))
    check(F.threshold(tx, 1.0, -5.0), np.where(x > 1, x, -5).astype(np.float32))
    check(F.softplus(tx, beta=2, threshold=10),
          np.where(2 * d > 10, d, np.log1p(np.exp(2 * d)) / 2).astype(np.float32), 1e-5)
    check(F.softplus(tx), np.where(d > 20, d, np.log1p(np.exp(d))).astype(np.float32), 1e-5)
    check(F.glu(tx[:, :4], 1), (d[:, :2] / (1 + np.exp(-d[:, 2:4]))).astype(np.float32), 1e-5)
    check(F.gelu(tx, approximate="tanh"),
          (0.5 * d * (1 + np.tanh(math.sqrt(2 / math.pi) * (d + 0.044715 * d ** 3)))).astype(np.float32), 1e-5)
    check(F.silu(tx), (d / (1 + np.exp(-d))).astype(np.float32), 1e-5)
    sig = 1 / (1 + np.exp(-d))
    softplus = np.logaddexp(0, d)
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    for got, want in [
        (F.sigmoid(tx), sig), (F.tanh(tx), np.tanh(d)), (F.softsign(tx), d / (1 + np.abs(d))),
        (F.relu6(tx), np.clip(d, 0, 6)), (F.hardsigmoid(tx), np.clip(d / 6 + 0.5, 0, 1)),
        (F.hardswish(tx), d * np.clip(d / 6 + 0.5, 0, 1)), (F.logsigmoid(tx), -np.logaddexp(0, -d)),
        (F.mish(tx), d * np.tanh(softplus)), (F.selu(tx), scale * np.where(d > 0, d, alpha * np.expm1(d))),
    ]:
        check(got, want.astype(np.float32), 1e-5)
    y = tx.clone()
    assert F.relu(y, inplace=True) is y
    check(y, np.maximum(x, 0))
    with pytest.raises(silt.ArgumentError, match="approximate"):
        F.gelu(tx, approximate="erf")
    with pytest.raises(silt.ArgumentError, match="odd"):
        F.glu(tx, 1)


def test_softmax_family(device):
    x = f32(3, 4, 5)
    d = x.astype(np.float64)

    def sm(a, axis):
        e = np.exp(a - a.max(axis, keepdims=True))
        return e / e.sum(axis, keepdims=True)

    check(F.softmax(t(x, device), dim=1), sm(d, 1).astype(np.float32))
    check(F.softmax(t(x, device)), sm(d, 0).astype(np.float32))  # implicit: 0 for 3-d
    check(F.log_softmax(t(x, device), -1), np.log(sm(d, -1)).astype(np.float32))
    check(F.softmin(t(x, device), 2), sm(-d, 2).astype(np.float32))
    check(F.softmax(t(x, device), 1, dtype=np.float64), sm(d, 1), 1e-12)
    check(F.softmax(t(np.float32(3), device), 0), np.float32(1))


def test_norms(device):
    x = f32(4, 3, 5, 2)
    d = x.astype(np.float64)
    w, b = f32(3), f32(3)
    mean, var = d.mean((0, 2, 3)), d.var((0, 2, 3))
    shape = (1, 3, 1, 1)
    want = (d - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + 1e-5) * w.reshape(shape) + b.reshape(shape)
    rm, rv = t(np.zeros(3, np.float32), device), t(np.ones(3, np.float32), device)
    got = F.batch_norm(t(x, device), rm, rv, t(w, device), t(b, device), training=True, momentum=0.25)
    check(got, want.astype(np.float32), 1e-4)
    n = x.size // 3
    check(rm, (0.25 * mean).astype(np.float32))
    check(rv, (0.75 + 0.25 * var * n / (n - 1)).astype(np.float32))
    got = F.batch_norm(t(x, device), rm, rv, t(w, device), t(b, device))
    want = (d - rm.numpy().reshape(shape)) / np.sqrt(rv.numpy().reshape(shape) + 1e-5) * w.reshape(shape) + b.reshape(shape)
    check(got, want.astype(np.float32), 1e-4)

    # group_norm: groups of 3 channels out of 6
    g = f32(2, 6, 4)
    gd = g.astype(np.float64).reshape(2, 2, 12)
    gn = ((gd - gd.mean(-1, keepdims=True)) / np.sqrt(gd.var(-1, keepdims=True) + 1e-5)).reshape(2, 6, 4)
    gw, gb = f32(6), f32(6)
    check(F.group_norm(t(g, device), 2, t(gw, device), t(gb, device)),
          (gn * gw[:, None] + gb[:, None]).astype(np.float32), 1e-4)
    inst = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)
    check(F.instance_norm(t(g, device)), inst.astype(np.float32), 1e-4)
    with pytest.raises(silt.ArgumentError, match="divide"):
        F.group_norm(t(g, device), 4)
    with pytest.raises(silt.ArgumentError, match="more than 1 value"):  # PyTorch's check
        F.group_norm(t(f32(1, 2, 1), device), 2)

    check(F.layer_norm(t(x, device), (5, 2)),
          ((d - d.mean((2, 3), keepdims=True)) / np.sqrt(d.var((2, 3), keepdims=True) + 1e-5)).astype(np.float32),
          1e-4)
    check(F.rms_norm(t(x, device), [2], eps=1e-6),
          (d / np.sqrt((d * d).mean(-1, keepdims=True) + 1e-6)).astype(np.float32), 1e-5)
    # rms_norm takes a weight of any float dtype, the result the input's (PyTorch's rule); layer_norm does not
    for wd in (np.float16, np.float64):
        w = np.linspace(0.5, 1.5, 2).astype(wd)
        got = F.rms_norm(t(x, device), [2], t(w, device), eps=1e-6)
        assert got.dtype == np.float32
        check(got, (d / np.sqrt((d * d).mean(-1, keepdims=True) + 1e-6) * w.astype(np.float32)).astype(np.float32),
              1e-5)
    with pytest.raises(silt.DTypeError):
        F.layer_norm(t(x, device), [2], t(np.ones(2, np.float16), device))
    for p in (1, 2, 3, math.inf):
        norm = np.linalg.norm(d, ord=p, axis=1, keepdims=True)
        check(F.normalize(t(x, device), p=p), (d / np.maximum(norm, 1e-12)).astype(np.float32), 1e-5)


def test_linear_dropout_embedding_one_hot(device):
    x, w, b = f32(2, 3, 4), f32(5, 4), f32(5)
    check(F.linear(t(x, device), t(w, device), t(b, device)),
          (x.astype(np.float64) @ w.T + b).astype(np.float32), 1e-5)
    check(F.linear(t(x, device), t(w[0], device)), (x.astype(np.float64) @ w[0]).astype(np.float32), 1e-5)

    ones = t(np.ones((200, 50), np.float32), device)
    silt.manual_seed(3)
    y = F.dropout(ones, 0.25).numpy()
    assert set(np.unique(y)) == {0.0, np.float32(1 / 0.75)}
    assert 0.2 < (y == 0).mean() < 0.3
    assert F.dropout(ones, 0.5, training=False) is ones
    check(F.dropout(ones, 1.0), np.zeros((200, 50), np.float32))
    with pytest.raises(silt.ArgumentError, match="p must"):
        F.dropout(ones, 1.5)

    table = f32(6, 3)
    idx = np.array([[0, 5, 2], [2, 2, 1]], np.int64)
    check(F.embedding(t(idx, device), t(table, device)), table[idx])
    with pytest.raises(silt.ArgumentError):
        F.embedding(t(np.array([6]), device), t(table, device))

    cls = np.array([[1, 0], [3, 2]], np.int64)
    check(F.one_hot(t(cls, device)), np.eye(4, dtype=np.int64)[cls])
    check(F.one_hot(t(cls, device), 6), np.eye(6, dtype=np.int64)[cls])
    with pytest.raises(silt.ArgumentError, match="out of range"):
        F.one_hot(t(cls, device), 3)
    with pytest.raises(silt.ArgumentError, match="negative"):
        F.one_hot(t(-cls, device))
    with pytest.raises(silt.DTypeError):
        F.one_hot(t(cls.astype(np.int32), device))


# ---- losses ----------------------------------------------------------------------------

def test_regression_losses(device):
    x, y = f32(3, 4), f32(3, 4)
    d = x.astype(np.float64) - y
    a = np.abs(d)
    tx, ty = t(x, device), t(y, device)
    check(F.mse_loss(tx, ty), np.float32((d * d).mean()))
    check(F.mse_loss(tx, ty, reduction="none"), (d * d).astype(np.float32))
    check(F.l1_loss(tx, ty, reduction="sum"), np.float32(a.sum()), 1e-4)
    check(F.smooth_l1_loss(tx, ty, beta=0.5), np.float32(np.where(a < 0.5, a * a, a - 0.25).mean()))
    check(F.huber_loss(tx, ty, delta=0.7), np.float32(np.where(a < 0.7, 0.5 * a * a, 0.7 * (a - 0.35)).mean()))
    with pytest.raises(silt.ArgumentError, match="reduction"):
        F.mse_loss(tx, ty, reduction="avg")
    # a target that broadcasts, with PyTorch's warning; one that does not
    with pytest.warns(UserWarning, match="broadcast"):
        got = F.mse_loss(tx, ty[:1])
    check(got, np.float32(((x.astype(np.float64) - y[:1]) ** 2).mean()))
    with pytest.raises(silt.ArgumentError, match="broadcast"):
        F.mse_loss(tx, t(f32(3, 3), device))
    # weights: each element's loss times its weight; the mean over the
    # weights' sum (mse, l1) or the count (huber), as PyTorch's
    w = f32(3, 4, low=0.0, high=2.0)
    tw = t(w, device)
    check(F.mse_loss(tx, ty, weight=tw), np.float32((d * d * w).sum() / w.sum()), 1e-5)
    check(F.l1_loss(tx, ty, weight=tw, reduction="none"), (a * w).astype(np.float32), 1e-6)
    check(F.l1_loss(tx, ty, weight=tw), np.float32((a * w).sum() / w.sum()), 1e-5)
    hub = np.where(a < 1, 0.5 * a * a, a - 0.5) * w
    check(F.huber_loss(tx, ty, weight=tw), np.float32(hub.mean()), 1e-5)
    check(F.huber_loss(tx, ty, weight=tw, reduction="sum"), np.float32(hub.sum()), 1e-4)
    with pytest.raises(silt.ArgumentError, match="weight"):
        F.mse_loss(tx, ty, weight=tw[0])


def test_binary_losses(device):
    p = RNG.uniform(0, 1, (4, 3)).astype(np.float32)
    p[0, 0], p[1, 1] = 0.0, 1.0  # the logs clamp at -100
    y = (RNG.random((4, 3)) < 0.5).astype(np.float32)
    w = f32(4, 3, low=0.5, high=1.5)
    pd = p.astype(np.float64)
    with np.errstate(divide="ignore"):
        want = -(y * np.maximum(np.log(pd), -100) + (1 - y) * np.maximum(np.log(1 - pd), -100)) * w
    check(F.binary_cross_entropy(t(p, device), t(y, device), t(w, device), reduction="none"),
          want.astype(np.float32), 1e-5)
    with pytest.raises(silt.ArgumentError, match=r"input must lie in \[0, 1\]"):
        F.binary_cross_entropy(t(p + 1, device), t(y, device))
    with pytest.raises(silt.ArgumentError, match=r"target must lie in \[0, 1\]"):
        F.binary_cross_entropy(t(p, device), t(y + 1.5, device))
    z = f32(4, 3, low=-40, high=40)
    zd = z.astype(np.float64)
    pw = f32(3, low=0.5, high=2)
    logsig = -np.logaddexp(0, -zd)
    want = -(pw * y * logsig + (1 - y) * (-np.logaddexp(0, zd)))
    check(F.binary_cross_entropy_with_logits(t(z, device), t(y, device), pos_weight=t(pw, device)),
          np.float32(want.mean()), 1e-5)


def log_softmax_ref(x, axis):
    d = x.astype(np.float64)
    m = d.max(axis, keepdims=True)
    return d - m - np.log(np.exp(d - m).sum(axis, keepdims=True))


@pytest.mark.parametrize("weighted", [False, True])
def test_nll_and_cross_entropy(device, weighted):
    x = f32(5, 4, 3)  # [N, C, d]
    target = RNG.integers(0, 4, (5, 3)).astype(np.int64)
    target[0, 0] = target[3, 2] = -100
    w = f32(4, low=0.2, high=2) if weighted else np.ones(4, np.float32)
    tw = t(w, device) if weighted else None
    kept = target != -100
    safe = np.where(kept, target, 0)
    lp = log_softmax_ref(x, 1)
    picked = np.take_along_axis(lp, safe[:, None], 1)[:, 0]
    wt = w[safe] * kept
    nll = -picked * wt
    check(F.cross_entropy(t(x, device), t(target, device), tw), np.float32(nll.sum() / wt.sum()), 1e-5)
    check(F.cross_entropy(t(x, device), t(target, device), tw, reduction="none"), nll.astype(np.float32), 1e-5)
    check(F.nll_loss(t(lp.astype(np.float32), device), t(target, device), tw, reduction="sum"),
          np.float32(nll.sum()), 1e-4)
    # label smoothing: (1 - e) nll + e / C * (-sum_c w_c log p_c), ignored samples 0
    e = 0.2
    smooth = -(lp * w[None, :, None]).sum(1) * kept
    want = (1 - e) * nll.sum() / wt.sum() + e / 4 * smooth.sum() / wt.sum()
    check(F.cross_entropy(t(x, device), t(target, device), tw, label_smoothing=e), np.float32(want), 1e-5)
    # class probabilities
    probs = RNG.dirichlet(np.ones(4), (5, 3)).transpose(0, 2, 1).astype(np.float32)
    want = -(lp * probs * w[None, :, None]).sum(1)
    check(F.cross_entropy(t(x, device), t(probs, device), tw), np.float32(want.mean()), 1e-5)


def test_linear_cross_entropy(device):
    x, w, b = f32(6, 5), f32(4, 5), f32(4)
    target = RNG.integers(0, 4, 6).astype(np.int64)
    target[2] = -100
    logits = x.astype(np.float64) @ w.T.astype(np.float64) + b
    lp = log_softmax_ref(logits, 1)
    kept = target != -100
    nll = -lp[np.arange(6), np.where(kept, target, 0)] * kept
    got = F.linear_cross_entropy(t(x, device), t(w, device), t(target, device), linear_bias=t(b, device))
    check(got, np.float32(nll.sum() / kept.sum()), 1e-5)
    got = F.linear_cross_entropy(t(x, device), t(w, device), t(target, device), linear_bias=t(b, device),
                                 ignore_index=None, reduction="none", options=object())
    check(got, nll.astype(np.float32), 1e-5)
    # K-dimensional: a weight [C, d, in] gives logits [N, C, d]
    w3, b3 = f32(4, 3, 5), f32(4, 3)
    target3 = RNG.integers(0, 4, (6, 3)).astype(np.int64)
    logits3 = np.einsum("nf,cdf->ncd", x.astype(np.float64), w3.astype(np.float64)) + b3
    lp3 = log_softmax_ref(logits3, 1)
    want = -np.take_along_axis(lp3, target3[:, None], 1)[:, 0]
    got = F.linear_cross_entropy(t(x, device), t(w3, device), t(target3, device), linear_bias=t(b3, device),
                                 reduction="sum")
    check(got, np.float32(want.sum()), 1e-4)
    # class probabilities, an unbatched input
    probs = RNG.dirichlet(np.ones(4)).astype(np.float32)
    want = -(log_softmax_ref(x[0].astype(np.float64) @ w.T.astype(np.float64), 0) * probs).sum()
    check(F.linear_cross_entropy(t(x[0], device), t(w, device), t(probs, device)), np.float32(want), 1e-5)
    with pytest.raises(silt.ArgumentError, match="ignore_index"):
        F.linear_cross_entropy(t(x[0], device), t(w, device), t(probs, device), ignore_index=-100)
    with pytest.raises(silt.ArgumentError, match="in_features"):
        F.linear_cross_entropy(t(x, device), t(f32(4, 3), device), t(target, device))
    with pytest.raises(silt.ArgumentError, match="batched"):
        F.linear_cross_entropy(t(x[0], device), t(w3, device), t(target3[0], device))
    with pytest.raises(silt.ArgumentError, match="linear_bias"):
        F.linear_cross_entropy(t(x, device), t(w, device), t(target, device), linear_bias=t(f32(3), device))


def test_class_loss_edges(device):
    x = f32(4)  # unbatched: [C] and a 0-d target
    check(F.cross_entropy(t(x, device), t(np.int64(2), device)), np.float32(-log_softmax_ref(x, 0)[2]), 1e-5)
    check(F.nll_loss(t(x, device), t(np.int64(1), device), reduction="none"), np.float32(-x[1]))
    with pytest.raises(silt.ArgumentError, match="out of range"):
        F.nll_loss(t(f32(2, 3), device), t(np.array([0, 3]), device))
    with pytest.raises(silt.ArgumentError, match="does not fit"):
        F.nll_loss(t(f32(2, 3), device), t(np.array([0, 1, 2]), device))
    with pytest.raises(silt.DTypeError):
        F.nll_loss(t(f32(2, 3), device), t(np.array([0, 1], np.int32), device))
    everything_ignored = F.cross_entropy(t(f32(2, 3), device), t(np.array([-100, -100]), device))
    assert math.isnan(everything_ignored.item())
    with pytest.raises(silt.ArgumentError, match="ignore_index"):  # PyTorch's: not with probabilities
        F.cross_entropy(t(f32(2, 3), device), t(f32(2, 3, low=0, high=1), device), ignore_index=1)


def test_kl_div_and_distances(device):
    logp = log_softmax_ref(f32(3, 5), 1).astype(np.float32)
    q = RNG.dirichlet(np.ones(5), 3).astype(np.float32)
    q[0, 0] = 0.0
    qd = q.astype(np.float64)
    terms = np.where(qd > 0, qd * np.log(np.where(qd > 0, qd, 1)), 0) - qd * logp
    check(F.kl_div(t(logp, device), t(q, device), reduction="batchmean"), np.float32(terms.sum() / 3), 1e-5)
    lq = np.log(q[1:]).astype(np.float32)
    check(F.kl_div(t(logp[1:], device), t(lq, device), reduction="sum", log_target=True),
          np.float32((q[1:] * (lq - logp[1:])).sum()), 1e-5)

    a, b = f32(4, 6), f32(1, 6)
    ad, bd = a.astype(np.float64), b.astype(np.float64)
    cos = (ad * bd).sum(1) / np.linalg.norm(ad, axis=1) / np.linalg.norm(bd, axis=1)
    check(F.cosine_similarity(t(a, device), t(b, device)), cos.astype(np.float32), 1e-5)
    zero = F.cosine_similarity(t(np.zeros((1, 3), np.float32), device), t(np.ones((1, 3), np.float32), device))
    check(zero, np.zeros(1, np.float32))
    for p in (1, 2, 3.5):
        want = np.linalg.norm(ad - bd + 1e-6, ord=p, axis=-1)
        check(F.pairwise_distance(t(a, device), t(b, device), p=p), want.astype(np.float32), 1e-5)


# ---- transposed convolutions, pixel shuffles, attention --------------------------------

def conv_transpose_ref(x, w, b, stride, padding, output_padding, groups, dilation):
    """The definition: each input element scatters its products with the
    kernel to `i * stride - padding + k * dilation` (float64)."""
    nd = w.ndim - 2
    n, c = x.shape[:2]
    og = w.shape[1]
    k = w.shape[2:]
    cg = c // groups
    out = [(x.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k[i] - 1) + output_padding[i] + 1
           for i in range(nd)]
    y = np.zeros((n, og * groups, *out))
    for ic in range(c):
        g = ic // cg
        for pos in np.ndindex(*x.shape[2:]):
            for kp in np.ndindex(*k):
                at = tuple(pos[i] * stride[i] - padding[i] + kp[i] * dilation[i] for i in range(nd))
                if all(0 <= a < o for a, o in zip(at, out)):
                    y[(slice(None), slice(g * og, (g + 1) * og)) + at] += (
                        x[(slice(None), ic) + pos][:, None] * w[(ic, slice(None)) + kp][None, :])
    if b is not None:
        y += b.reshape([1, -1] + [1] * nd)
    return y


@pytest.mark.parametrize("case", [
    # (input shape, weight shape, stride, padding, output_padding, groups, dilation)
    ((2, 3, 5), (3, 4, 3), 2, 1, 1, 1, 1),
    ((1, 4, 6), (4, 1, 2), 3, 0, 2, 2, 1),
    ((3, 7), (3, 2, 3), 1, 2, 0, 1, 2),  # unbatched
    ((2, 2, 3, 4), (2, 3, 3, 2), (2, 1), (1, 0), (1, 0), 1, (1, 2)),
    ((1, 2, 2, 3, 2), (2, 2, 2, 2, 2), 2, 0, 0, 1, 1),
])
def test_conv_transpose_matches_its_definition(device, case):
    shape, wshape, stride, padding, output_padding, groups, dilation = case
    nd = len(wshape) - 2
    x, w, b = f32(*shape), f32(*wshape), f32(wshape[1] * groups)
    tup = lambda v: (v,) * nd if isinstance(v, int) else v  # noqa: E731
    args = (t(x, device), t(w, device), t(b, device), stride, padding, output_padding, groups, dilation)
    got = (F.conv_transpose1d(*args) if nd == 1 else
           F.conv_transpose2d(*args) if nd == 2 else F.conv_transpose3d(*args))
    xb = x if len(shape) == nd + 2 else x[None]
    want = conv_transpose_ref(xb.astype(np.float64), w, b, tup(stride), tup(padding), tup(output_padding),
                              groups, tup(dilation))
    check(got, (want if len(shape) == nd + 2 else want[0]).astype(np.float32), 1e-4)
    with pytest.raises(silt.ArgumentError, match="output_padding"):
        F.conv_transpose1d(t(f32(1, 2, 3), device), t(f32(2, 1, 2), device), stride=2, output_padding=2)


def test_conv_transpose_multiplies_no_inserted_zero(device):
    # col2im, as PyTorch's: an inf weight gives inf where it reaches and
    # leaves the other places finite (inf * 0 would make them NaN)
    x = t(np.array([[[1.0, 2.0, 3.0]]], np.float32), device)
    w = t(np.array([[[np.inf, 1.0]]], np.float32), device)
    check(F.conv_transpose1d(x, w), np.array([[[np.inf, np.inf, np.inf, 3.0]]], np.float32))
    check(F.conv_transpose1d(x, w, stride=2), np.array([[[np.inf, 1, np.inf, 2, np.inf, 3]]], np.float32))
    w2 = t(np.array([[[[1.0, np.inf]]]], np.float32), device)
    got = F.conv_transpose2d(t(np.ones((1, 1, 2, 2), np.float32), device), w2, stride=(1, 3))
    check(got, np.array([[[[1, np.inf, 0, 1, np.inf]] * 2]], np.float32))


def test_pixel_shuffle_round_trip(device):
    x = f32(2, 3 * 4, 3, 5)
    got = F.pixel_shuffle(t(x, device), 2)
    want = np.zeros((2, 3, 6, 10), np.float32)
    for c in range(3):
        for i in range(2):
            for j in range(2):
                want[:, c, i::2, j::2] = x[:, c * 4 + i * 2 + j]
    check(got, want)
    check(F.pixel_unshuffle(got, 2), x)
    with pytest.raises(silt.ArgumentError, match="divisible"):
        F.pixel_shuffle(t(f32(1, 6, 2, 2), device), 2)


def attention_ref(q, k, v, mask=None, causal=False, scale=None):
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) * (scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
    if causal:
        mask = np.tril(np.ones(s.shape[-2:], bool))
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v


def test_scaled_dot_product_attention(device):
    q, k, v = f32(2, 3, 5, 4), f32(2, 3, 6, 4), f32(2, 3, 6, 7)
    tq, tk, tv = t(q, device), t(k, device), t(v, device)
    check(F.scaled_dot_product_attention(tq, tk, tv), attention_ref(q, k, v).astype(np.float32), 1e-5)
    mask = RNG.random((5, 6)) < 0.7
    mask[:, 0] = True
    check(F.scaled_dot_product_attention(tq, tk, tv, attn_mask=t(mask, device)),
          attention_ref(q, k, v, mask).astype(np.float32), 1e-5)
    bias = f32(5, 6)
    check(F.scaled_dot_product_attention(tq, tk, tv, attn_mask=t(bias, device), scale=0.3),
          attention_ref(q, k, v, bias, scale=0.3).astype(np.float32), 1e-5)
    sq = f32(2, 3, 6, 4)
    check(F.scaled_dot_product_attention(t(sq, device), tk, tv, is_causal=True),
          attention_ref(sq, k, v, causal=True).astype(np.float32), 1e-5)
    # grouped heads: 6 query heads share 3 key and value heads, two each
    q6 = f32(2, 6, 5, 4)
    check(F.scaled_dot_product_attention(t(q6, device), tk, tv, enable_gqa=True),
          attention_ref(q6, np.repeat(k, 2, 1), np.repeat(v, 2, 1)).astype(np.float32), 1e-5)
    with pytest.raises(silt.ArgumentError, match="do not fit"):
        F.scaled_dot_product_attention(tq, tk, t(f32(2, 3, 5, 7), device))
    with pytest.raises(silt.ArgumentError, match="not both"):
        F.scaled_dot_product_attention(tq, tk, tv, attn_mask=t(mask, device), is_causal=True)


def test_more_activations(device):
    x = f32(4, 5, low=-3, high=3)
    d = x.astype(np.float64)
    tx = t(x, device)
    check(F.celu(tx, 0.7), np.where(d > 0, d, 0.7 * np.expm1(d / 0.7)).astype(np.float32), 1e-6)
    check(F.hardshrink(tx, 1.0), np.where(np.abs(x) > 1, x, 0).astype(np.float32))
    check(F.softshrink(tx, 1.0), np.where(x > 1, x - 1, np.where(x < -1, x + 1, 0)).astype(np.float32))
    check(F.tanhshrink(tx), (d - np.tanh(d)).astype(np.float32), 1e-6)
    w = f32(4, low=0, high=1)
    x4 = f32(2, 4, 3)
    check(F.prelu(t(x4, device), t(w, device)), np.where(x4 > 0, x4, w[None, :, None] * x4).astype(np.float32))
    check(F.prelu(tx, t(np.array([0.25], np.float32), device)), np.where(x > 0, x, 0.25 * x).astype(np.float32))
    with pytest.raises(silt.ArgumentError, match="weights"):
        F.prelu(tx, t(f32(3), device))


# ---- margin and likelihood losses, channel dropout, in-place forms -------------------

def test_margin_losses(device):
    a, b = f32(6), f32(6)
    y = np.where(RNG.random(6) < 0.5, 1.0, -1.0).astype(np.float32)
    ad, bd = a.astype(np.float64), b.astype(np.float64)
    ta, tb, ty = t(a, device), t(b, device), t(y, device)
    check(F.margin_ranking_loss(ta, tb, ty, margin=0.3), np.float32(np.maximum(0, -y * (ad - bd) + 0.3).mean()), 1e-6)
    check(F.hinge_embedding_loss(ta, ty, margin=0.5, reduction="none"),
          np.where(y == 1, ad, np.maximum(0, 0.5 - ad)).astype(np.float32), 1e-6)
    check(F.soft_margin_loss(ta, ty, reduction="sum"), np.float32(np.log1p(np.exp(-y * ad)).sum()), 1e-5)
    x, labels = f32(4, 3), (RNG.random((4, 3)) < 0.5).astype(np.float32)
    xd = x.astype(np.float64)
    w = f32(3, low=0.5, high=2)
    terms = -(labels * -np.logaddexp(0, -xd) + (1 - labels) * -np.logaddexp(0, xd)) * w
    check(F.multilabel_soft_margin_loss(t(x, device), t(labels, device), t(w, device), reduction="none"),
          terms.mean(1).astype(np.float32), 1e-6)
    u, v = f32(5, 4), f32(5, 4)
    yy = np.array([1, -1, 1, -1, -1], np.int64)
    ud, vd = u.astype(np.float64), v.astype(np.float64)
    cos = (ud * vd).sum(1) / np.sqrt(((ud * ud).sum(1) + 1e-12) * ((vd * vd).sum(1) + 1e-12))
    want = np.where(yy == 1, 1 - cos, np.maximum(0, cos - 0.1))
    check(F.cosine_embedding_loss(t(u, device), t(v, device), t(yy, device), margin=0.1, reduction="none"),
          want.astype(np.float32), 1e-6)
    n = f32(5, 4)
    nd = n.astype(np.float64)

    def dist(p, q):
        return np.linalg.norm(p - q + 1e-6, axis=-1)

    for swap in (False, True):
        d_an = dist(ud, nd) if not swap else np.minimum(dist(ud, nd), dist(vd, nd))
        want = np.maximum(0, 1.0 + dist(ud, vd) - d_an).mean()
        check(F.triplet_margin_loss(t(u, device), t(v, device), t(n, device), swap=swap), np.float32(want), 1e-5)
    with pytest.raises(silt.ArgumentError, match="margin"):
        F.triplet_margin_loss(t(u, device), t(v, device), t(n, device), margin=0)
    with pytest.raises(silt.ArgumentError, match="dimensions"):
        F.triplet_margin_loss(t(u, device), t(v[0], device), t(n, device))
    with pytest.raises(silt.ArgumentError, match="dimensions"):
        F.margin_ranking_loss(ta, tb, t(np.float32(1), device))
    with pytest.raises(silt.ArgumentError, match="target"):
        F.cosine_embedding_loss(t(u, device), t(v, device), t(yy[:, None], device))
    # soft margins as PyTorch's formula: log1p(exp(-y x)), which overflows alike
    check(F.soft_margin_loss(t(np.float32([-100.0]), device), t(np.float32([1.0]), device), reduction="none"),
          np.float32([np.inf]))


def test_likelihood_losses(device):
    x = f32(3, 4, low=-1, high=2)
    target = RNG.poisson(2.0, (3, 4)).astype(np.float32)
    xd, td = x.astype(np.float64), target.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        stirling = np.where(td > 1, td * np.log(td) - td + 0.5 * np.log(2 * np.pi * td), 0)
    check(F.poisson_nll_loss(t(x, device), t(target, device)), np.float32((np.exp(xd) - td * xd).mean()), 1e-5)
    check(F.poisson_nll_loss(t(x, device), t(target, device), full=True, reduction="none"),
          (np.exp(xd) - td * xd + stirling).astype(np.float32), 1e-5)
    pos = np.abs(x) + 0.5
    check(F.poisson_nll_loss(t(pos, device), t(target, device), log_input=False, reduction="sum"),
          np.float32((pos - td * np.log(pos.astype(np.float64) + 1e-8)).sum()), 1e-4)
    mu, var = f32(3, 4), f32(3, low=0.1, high=2)
    vd = np.maximum(var.astype(np.float64), 1e-6)[:, None]  # one variance a row
    want = 0.5 * (np.log(vd) + (mu - x) ** 2 / vd) + 0.5 * np.log(2 * np.pi)
    check(F.gaussian_nll_loss(t(mu, device), t(x, device), t(var, device), full=True, reduction="none"),
          want.astype(np.float32), 1e-5)
    check(F.gaussian_nll_loss(t(mu, device), t(x, device), 0.5),
          np.float32((0.5 * (np.log(0.5) + (mu - xd) ** 2 / 0.5)).mean()), 1e-5)
    with pytest.raises(silt.ArgumentError, match="negative"):
        F.gaussian_nll_loss(t(mu, device), t(x, device), t(-var, device))
    with pytest.raises(silt.ArgumentError, match="fit"):
        F.gaussian_nll_loss(t(mu, device), t(x, device), t(f32(4), device))
    with pytest.raises(TypeError):
        F.gaussian_nll_loss(t(mu, device), t(x, device), None)


def test_channel_dropout_and_in_place_forms(device):
    ones = t(np.ones((40, 30, 5, 2), np.float32), device)
    silt.manual_seed(7)
    y = F.dropout2d(ones, 0.4).numpy()
    per_channel = y.reshape(40, 30, -1)
    # whole channels: each all zero or all 1 / 0.6
    assert np.all(per_channel.min(-1) == per_channel.max(-1))
    assert set(np.unique(y)) == {0.0, np.float32(1 / 0.6)}
    assert 0.3 < (per_channel[:, :, 0] == 0).mean() < 0.5
    assert F.dropout1d(ones[0, :, :, 0], 0.5, training=False).shares_storage(ones)
    check(F.dropout3d(ones, 1.0), np.zeros((40, 30, 5, 2), np.float32))
    # as PyTorch's: a 3-d input to dropout2d drops rows of its first two dimensions
    rows = F.dropout2d(t(np.ones((30, 40, 5), np.float32), device), 0.5).numpy()
    assert np.all(rows.min(-1) == rows.max(-1)) and not np.all(rows.min((1, 2)) == rows.max((1, 2)))
    # and dropout3d of [C, D, H, W] whole channels
    chans = F.dropout3d(t(np.ones((30, 2, 3, 4), np.float32), device), 0.5).numpy().reshape(30, -1)
    assert np.all(chans.min(-1) == chans.max(-1))
    with pytest.raises(silt.ArgumentError, match="dimensions"):
        F.dropout1d(ones, 0.5)
    ints = t(np.array([0, 1, -3], np.int64), device)
    check(F.threshold(ints, -0.5, 9.7), np.array([9, 1, 9], np.int64))  # in the tensor's dtype: 0 and 9
    with pytest.raises(silt.DTypeError):
        F.threshold(t(np.array([True, False]), device), 0, 1)
    with pytest.raises(TypeError):
        F.threshold_([1.0], 0, 0)
    x = f32(3, 4)
    for fn, want in [(lambda v: F.relu_(v), np.maximum(x, 0)), (lambda v: F.leaky_relu_(v, 0.1), np.where(x > 0, x, 0.1 * x)),
                     (lambda v: F.hardtanh_(v, -0.5, 0.5), np.clip(x, -0.5, 0.5)),
                     (lambda v: F.threshold_(v, 0.2, 9.0), np.where(x > 0.2, x, 9).astype(np.float32)),
                     (lambda v: F.elu_(v), np.where(x > 0, x, np.expm1(x.astype(np.float64))).astype(np.float32))]:
        tx = t(x.copy(), device)  # a host tensor shares the array's memory
        assert fn(tx) is tx
        check(tx, want, 1e-6)


# ---- the example and the list ------------------------------------------------------

def test_the_small_cnn_example_runs(opencl, capsys):
    """silt-python/examples/small_cnn.py as written: it checks every device
    against its NumPy network and fails on a difference."""
    import pathlib
    import runpy

    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / "small_cnn.py"
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count("logits within") == len(silt.devices()), out


def test_max_pools_with_indices_give_the_indices_whatever_they_are_told(device):
    x1, x2, x3 = (silt.tensor(np.random.default_rng(nd).standard_normal((1, 2) + (6,) * nd).astype(np.float32),
                              device=device) for nd in (1, 2, 3))
    for got, pool, x, arg in (
            (F.max_pool1d_with_indices(x1, 2, return_indices=False), F.max_pool1d, x1, 2),
            (F.max_pool2d_with_indices(x2, 2, None, 0, 1, False, False), F.max_pool2d, x2, 2),
            (F.max_pool3d_with_indices(x3, 2), F.max_pool3d, x3, 2),
            (F.adaptive_max_pool1d_with_indices(x1, 4), F.adaptive_max_pool1d, x1, 4),
            (F.adaptive_max_pool2d_with_indices(x2, 4, False), F.adaptive_max_pool2d, x2, 4),
            (F.adaptive_max_pool3d_with_indices(x3, 4), F.adaptive_max_pool3d, x3, 4)):
        values, indices = pool(x, arg, return_indices=True)
        assert got[0].tolist() == values.tolist() and got[1].tolist() == indices.tolist()
    x = silt.tensor(np.random.default_rng(4).standard_normal((1, 2, 8, 8, 8)).astype(np.float32), device=device)
    samples = silt.tensor(np.full((1, 2, 3), 0.5, np.float32), device=device)
    for got, pool, xx in ((F.fractional_max_pool2d_with_indices(x[..., 0], 2, 4, _random_samples=samples[..., :2]),
                           F.fractional_max_pool2d, x[..., 0]),
                          (F.fractional_max_pool3d_with_indices(x, 2, 4, _random_samples=samples),
                           F.fractional_max_pool3d, x)):
        want = pool(xx, 2, 4, return_indices=True, _random_samples=samples[..., :xx.ndim - 2])
        assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()


def test_every_function_is_documented_and_tested():
    import pathlib

    source = pathlib.Path(__file__).read_text()
    for name in F.__all__:
        fn = getattr(F, name)
        assert fn.__doc__ and fn.__doc__.startswith(f"`{name}("), name
        assert f"F.{name}(" in source, f"{name} has no test here"
    assert silt.nn.functional is F


# ---- PyTorch's edges -------------------------------------------------------------

def test_broadcasting_distances_and_nan_thresholds(device):
    a, b = f32(1, 1), f32(1, 3)  # cosine_similarity broadcasts before the norms
    ab = np.broadcast_to(a, b.shape).astype(np.float64)
    cos = (ab * b).sum(1) / np.linalg.norm(ab, axis=1) / np.linalg.norm(b, axis=1)
    check(F.cosine_similarity(t(a, device), t(b, device)), cos.astype(np.float32), 1e-6)
    v, m = f32(3), f32(2, 3)
    cos = (m @ v) / np.linalg.norm(m, axis=1) / np.linalg.norm(v)
    check(F.cosine_similarity(t(v, device), t(m, device), dim=1), cos.astype(np.float32), 1e-6)
    check(F.threshold(t(np.array([np.nan, -1, 1], np.float32), device), 0.0, 5.0),
          np.array([np.nan, 5, 1], np.float32))
    check(F.glu(t(np.zeros((2, 0), np.float32), device)), np.zeros((2, 0), np.float32))
    ints = np.array([-3, 0, 4, 9], np.int64)
    check(F.relu6(t(ints, device)), np.clip(ints, 0, 6))
    check(F.hardtanh(t(ints, device), -2, 5), np.clip(ints, -2, 5))
    with pytest.raises(TypeError):
        F.linear(t(f32(2, 3), device), None)
    with pytest.raises(TypeError):
        F.conv1d(t(f32(1, 1, 4), device), None)


def test_nearest_and_circular_as_pytorch_cpu(device):
    x = t(np.arange(3, dtype=np.float32).reshape(1, 1, 3), device)
    # PyTorch 2.15's CPU places: floor(dst / scale_factor) for 1-d and 3-d
    # inputs; for 4-d ones the same and twice the length are exact, whatever
    # the scale
    check(F.interpolate(x, scale_factor=1.2), np.array([[[0, 0, 1]]], np.float32))
    check(F.interpolate(x, scale_factor=2.1), np.array([[[0, 0, 0, 1, 1, 2]]], np.float32))
    check(F.interpolate(x, scale_factor=1.7), np.array([[[0, 0, 1, 1, 2]]], np.float32))
    check(F.interpolate(x.reshape(1, 1, 1, 1, 3), scale_factor=(1, 1, 2.1)),
          np.array([0, 0, 0, 1, 1, 2], np.float32).reshape(1, 1, 1, 1, 6))
    check(F.interpolate(x.reshape(1, 1, 1, 3), scale_factor=(1, 1.2)), np.array([[[[0, 1, 2]]]], np.float32))
    check(F.interpolate(x.reshape(1, 1, 1, 3), scale_factor=(1, 2.1)),
          np.array([[[[0, 0, 1, 1, 2, 2]]]], np.float32))
    # the linear modes copy a dimension whose length stays, whatever the
    # scale (bicubic does not)
    check(F.interpolate(x, scale_factor=1.2, mode="linear"), np.array([[[0, 1, 2]]], np.float32))
    sq = t(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3), device)
    got = F.interpolate(sq, scale_factor=(1.2, 2.5), mode="bilinear")
    np.testing.assert_allclose(got.numpy()[0, 0, 1], [3.0, 3.1, 3.5, 3.9, 4.3, 4.7, 5.0], rtol=1e-6)
    got = F.interpolate(sq, scale_factor=(1.2, 1.2), mode="bicubic")
    np.testing.assert_allclose(got.numpy()[0, 0, 1], [1.9514, 2.6719, 3.6733], atol=1e-4)
    four = t(np.arange(4, dtype=np.float32).reshape(1, 1, 4), device)
    # a negative amount cuts first; the rest wraps around what is left
    check(F.pad(four, (-1, 2), "circular"), np.array([[[1, 2, 3, 1, 2]]], np.float32))
    check(F.pad(four, (2, -1), "circular"), np.array([[[1, 2, 0, 1, 2]]], np.float32))
    # cut to nothing: empty, as PyTorch 2.15's; cut past nothing raises
    check(F.pad(four, (-2, -2), "circular"), np.zeros((1, 1, 0), np.float32))
    with pytest.raises(silt.ArgumentError, match="left"):
        F.pad(four, (-4, 1), "circular")


def test_rms_norm_of_halves_takes_float32s_epsilon(device):
    # PyTorch 2.15: the default eps is that of the type the sums are kept in
    x = np.array([[1e-4, -2e-4, 3e-4, 5e-5]], np.float16)
    got = F.rms_norm(t(x, device), (4,))
    np.testing.assert_allclose(got.numpy().astype(np.float64), [[0.2542, -0.5083, 0.7622, 0.1271]], atol=2e-3)
    with pytest.raises(silt.ArgumentError, match="num_classes"):
        F.one_hot(t(np.array([0, 1]), device), num_classes=-2)


def test_halves_sum_in_float32(device):
    def h(a):
        return t(np.asarray(a, np.float16), device)

    check(F.normalize(h([[300, 400]])), np.array([[0.6, 0.8]], np.float16), 1e-3)
    check(F.cosine_similarity(h([[300, 400]]), h([[3, 4]])), np.array([1], np.float16), 1e-3)
    check(F.pairwise_distance(h([[300, 400]]), h([[0, 0]])), np.array([500], np.float16), 1e-3)
    big = np.full((1, 1, 7, 7), 1500, np.float16)
    check(F.avg_pool2d(h(big), 7), np.full((1, 1, 1, 1), 1500, np.float16))
    check(F.adaptive_avg_pool2d(h(big), 1), np.full((1, 1, 1, 1), 1500, np.float16))
    x = RNG.uniform(290, 310, (4, 3, 5)).astype(np.float16)
    d = x.astype(np.float64)
    want = (d - d.mean((0, 2), keepdims=True)) / np.sqrt(d.var((0, 2), keepdims=True) + 1e-5)
    rm, rv = t(np.zeros(3, np.float32), device), t(np.ones(3, np.float32), device)  # float32 statistics
    got = F.batch_norm(h(x), rm, rv, training=True)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.numpy().astype(np.float64), want, atol=4e-3)
    w = f32(5)
    assert F.layer_norm(h(x), 5, t(w, device)).dtype == np.float16
    assert F.group_norm(h(x), 3, t(f32(3), device)).dtype == np.float16
    with pytest.raises(silt.DTypeError):
        F.layer_norm(t(f32(2, 5), device), 5, t(w.astype(np.float64), device))


def test_legacy_loss_arguments(device):
    x, y = t(f32(3, 4), device), t(f32(3, 4), device)
    d = (x.numpy().astype(np.float64) - y.numpy()) ** 2
    check(F.mse_loss(x, y, size_average=False), np.float32(d.sum()), 1e-4)
    check(F.mse_loss(x, y, reduce=False), d.astype(np.float32))
    check(F.mse_loss(x, y, None, None, "sum"), np.float32(d.sum()), 1e-4)
    logits, target = t(f32(2, 3), device), t(np.array([0, 1]), device)
    lp = log_softmax_ref(logits.numpy(), 1)
    # positionally, as PyTorch's: weight, size_average, ignore_index
    check(F.cross_entropy(logits, target, None, None, 1), np.float32(-lp[0, 0]), 1e-6)
    check(F.nll_loss(t(lp.astype(np.float32), device), target, None, None, 0), np.float32(-lp[1, 1]), 1e-6)
    with pytest.raises(TypeError, match="ignore_index"):
        F.nll_loss(logits, target, ignore_index=None)
    small = t(np.array([1e-8], np.float32), device)  # log1p(-x), not log(1 - x)
    check(F.binary_cross_entropy(small, t(np.zeros(1, np.float32), device)), np.float32(1e-8), 1e-6)


def embedding_renorm_ref(table, idx, max_norm, p):
    """PyTorch's embedding_renorm_: each row looked up once, its norm in the
    row's dtype read as a double; where above max_norm, the row times
    `max_norm / (norm + 1e-7)` (a double, rounded to the type the row is
    multiplied in: float32 for float16)."""
    table = table.copy()
    wide = np.float32 if table.dtype == np.float16 else table.dtype.type
    for r in np.unique(idx):
        norm = float(table.dtype.type(np.linalg.norm(table[r].astype(np.float64), p)))
        if norm > max_norm:
            scale = wide(max_norm / (norm + 1e-7))
            table[r] = (table[r].astype(wide) * scale).astype(table.dtype)
    return table


@pytest.mark.parametrize("p", [2.0, 1.0, math.inf, 3.0])
def test_embedding_max_norm_rescales_the_rows_looked_up(device, p):
    table = f32(6, 4, low=-3, high=3)
    table[4] = 0.01  # a row under the limit keeps its bits
    idx = np.array([[0, 5, 2], [2, 2, 4]], np.int64)
    weight = t(table.copy(), device)  # host tensors share NumPy's memory
    got = F.embedding(t(idx, device), weight, max_norm=1.5, norm_type=p)
    want_table = embedding_renorm_ref(table, idx, 1.5, p)
    check(weight, want_table)  # rescaled in place
    check(got, want_table[idx])
    assert (weight.numpy()[[1, 3]] == table[[1, 3]]).all()  # rows not looked up are untouched
    assert (weight.numpy()[4] == table[4]).all()
    assert np.linalg.norm(weight.numpy()[[0, 2, 5]].astype(np.float64), p, axis=1).max() <= 1.5 + 1e-5
    with pytest.raises(silt.ArgumentError):
        F.embedding(t(np.array([1, 6]), device), weight, max_norm=1.0)
    check(weight, want_table)  # nothing written by the failed call
    check(F.embedding(t(np.zeros((0, 2), np.int64), device), weight, max_norm=1.0), np.zeros((0, 2, 4), np.float32))
    half = t(table.astype(np.float16), device)
    F.embedding(t(idx, device), half, max_norm=1.5, norm_type=p)
    check(half, embedding_renorm_ref(table.astype(np.float16), idx, 1.5, p), 2e-3)


def test_instance_norm_updates_running_statistics(device):
    x = f32(3, 2, 5, low=-1, high=3)
    rm, rv = np.array([0.5, -1.0], np.float32), np.array([2.0, 0.5], np.float32)
    mean_t, var_t = t(rm.copy(), device), t(rv.copy(), device)  # host tensors share NumPy's memory
    w, b = f32(2), f32(2)
    got = F.instance_norm(t(x, device), mean_t, var_t, t(w, device), t(b, device), momentum=0.3)
    d = x.astype(np.float64)
    norm = (d - d.mean(-1, keepdims=True)) / np.sqrt(d.var(-1, keepdims=True) + 1e-5)
    check(got, (norm * w[:, None] + b[:, None]).astype(np.float32), 1e-5)
    # each sample's batch_norm update, averaged over the samples (PyTorch's)
    check(mean_t, (0.7 * rm + 0.3 * d.mean(-1)).mean(0).astype(np.float32), 1e-6)
    check(var_t, (0.7 * rv + 0.3 * d.var(-1, ddof=1)).mean(0).astype(np.float32), 1e-6)
    only = t(rm.copy(), device)
    F.instance_norm(t(x, device), only)  # a running mean alone, momentum 0.1
    check(only, (0.9 * rm + 0.1 * d.mean(-1)).mean(0).astype(np.float32), 1e-6)
    # with use_input_stats=False, the running statistics normalise and stay
    fixed = F.instance_norm(t(x, device), t(rm.copy(), device), t(rv.copy(), device), use_input_stats=False)
    check(fixed, ((d - rm[:, None]) / np.sqrt(rv[:, None] + 1e-5)).astype(np.float32), 1e-5)
    with pytest.raises(silt.ArgumentError, match="running_var"):
        F.instance_norm(t(x, device), t(rm, device), t(np.ones(3, np.float32), device))


def test_norm_and_dropout_edges(device):
    with pytest.raises(silt.ArgumentError, match="spatial"):
        F.instance_norm(t(f32(1, 2, 1), device))
    empty = F.batch_norm(t(np.zeros((0, 2, 4), np.float32), device), t(np.zeros(2, np.float32), device),
                         t(np.ones(2, np.float32), device), training=True)
    check(empty, np.zeros((0, 2, 4), np.float32))
    odd = t(np.array([np.nan, np.inf, 1], np.float32), device)
    check(F.dropout(odd, 1.0), np.array([np.nan, np.nan, 0], np.float32))


def test_the_module_examples_run():
    import doctest

    assert doctest.testmod(F).failed == 0
    assert doctest.testmod(silt.nn).failed == 0


def test_attention_edges_as_pytorch(device):
    def h(a):
        return t(np.asarray(a, np.float16), device)

    # halves compute in float32: q . k = 160,000 overflows float16
    got = F.scaled_dot_product_attention(h(np.full((1, 4), 200)), h(np.full((2, 4), 200)), h([[1, 2], [3, 4]]))
    check(got, np.array([[2, 3]], np.float16))
    # a float32 mask on a float16 query
    q, k, v = f32(2, 3), f32(4, 3), f32(4, 2)
    bias = f32(2, 4)
    got = F.scaled_dot_product_attention(h(q), h(k), h(v), attn_mask=t(bias, device))
    want = attention_ref(q.astype(np.float16), k.astype(np.float16), v.astype(np.float16), bias)
    check(got, want.astype(np.float16), 2e-3)
    # a row masked everywhere attends to nothing
    mask = np.ones((2, 4), bool)
    mask[1] = False
    got = F.scaled_dot_product_attention(t(q, device), t(k, device), t(v, device), attn_mask=t(mask, device))
    check(got, np.stack([attention_ref(q[:1], k, v, mask[:1])[0], np.zeros(2)]).astype(np.float32), 1e-6)
    # grouped heads: key and value heads repeat separately
    q4, k4, v2 = f32(4, 2, 3), f32(4, 5, 3), f32(2, 5, 3)
    got = F.scaled_dot_product_attention(t(q4, device), t(k4, device), t(v2, device), enable_gqa=True)
    check(got, attention_ref(q4, k4, np.repeat(v2, 2, 0)).astype(np.float32), 1e-5)
    with pytest.raises(silt.ArgumentError, match="heads"):
        F.scaled_dot_product_attention(t(q4, device), t(k4[:2], device), t(f32(5, 3), device), enable_gqa=True)
    with pytest.raises(silt.DTypeError):
        F.scaled_dot_product_attention(t(q, device), t(k, device), t(v, device), attn_mask=t(np.zeros((2, 4)), device))


def test_shrinks_keep_nan_and_shuffles_copy(device):
    odd = t(np.array([np.nan, 0.3, -2.0], np.float32), device)
    check(F.hardshrink(odd), np.array([np.nan, 0, -2], np.float32))
    check(F.softshrink(odd), np.array([np.nan, 0, -1.5], np.float32))
    with pytest.raises(silt.ArgumentError, match="lambd"):
        F.softshrink(odd, float("nan"))
    x = t(np.arange(4, dtype=np.float32).reshape(4, 1, 1), device)
    y = F.pixel_shuffle(x, 2)
    assert not y.shares_storage(x)
    assert not F.pixel_unshuffle(x, 1).shares_storage(x)
    with pytest.raises(silt.ArgumentError, match="empty"):
        F.conv_transpose1d(t(np.zeros((1, 2, 0), np.float32), device), t(np.ones((2, 3, 3), np.float32), device))
    with pytest.raises(silt.ArgumentError, match="output would"):
        F.conv_transpose1d(t(np.ones((1, 2, 1), np.float32), device), t(np.ones((2, 3, 1), np.float32), device),
                           padding=1)
    with pytest.raises(TypeError):
        F.conv_transpose1d(t(np.ones((1, 2, 3), np.float32), device), t(np.ones((2, 3, 1), np.float32), device),
                           padding="same")
    with pytest.raises(silt.ArgumentError, match="groups"):
        F.conv1d(t(np.ones((1, 2, 3), np.float32), device), t(np.ones((2, 2, 1), np.float32), device), groups=True)
    x16 = np.linspace(-6, 0, 50).astype(np.float16)
    want = (3 * np.expm1(x16.astype(np.float64) / 3)).astype(np.float16)
    check(F.celu(t(x16, device), 3.0), want, 1e-3)


# ---- embedding_bag, fold, unpooling, lp pools and the rest of _more ---------------

@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_against_loops(device, mode):
    w = f32(10, 4)
    tokens = np.array([1, 2, 4, 5, 4, 3, 2, 9, 0], np.int64)
    offsets = np.array([0, 2, 2, 6], np.int64)  # an empty bag
    psw = f32(9) if mode == "sum" else None

    def ref(tok, bags, padding_idx=None, weights=None):
        out = np.zeros((len(bags), 4), np.float64)
        for b, members in enumerate(bags):
            rows = [(w[tok[i]].astype(np.float64) * (1 if weights is None else weights[i]))
                    for i in members if tok[i] != padding_idx]
            if rows:
                out[b] = {"sum": np.sum, "mean": np.mean, "max": np.max}[mode](rows, axis=0)
        return out.astype(np.float32)

    bags = [range(0, 2), range(2, 2), range(2, 6), range(6, 9)]
    got = F.embedding_bag(t(tokens, device), t(w, device), t(offsets, device), mode=mode,
                          per_sample_weights=None if psw is None else t(psw, device))
    check(got, ref(tokens, bags, weights=psw))
    # include_last_offset: the last offset ends the last bag; padding_idx left out
    got = F.embedding_bag(t(tokens, device), t(w, device), t(np.array([0, 2, 7]), device), mode=mode,
                          include_last_offset=True, padding_idx=4)
    check(got, ref(tokens, [range(0, 2), range(2, 7)], padding_idx=4))
    # a 2-d input: a bag a row
    two = tokens[:8].reshape(2, 4)
    check(F.embedding_bag(t(two, device), t(w, device), mode=mode), ref(tokens, [range(0, 4), range(4, 8)]))
    with pytest.raises(silt.ArgumentError):
        F.embedding_bag(t(tokens, device), t(w, device), mode=mode)  # 1-d without offsets


def test_fold_inverts_unfold_and_sums_overlaps(device):
    x = f32(2, 3, 5, 6)
    for kw in ({"kernel_size": 2}, {"kernel_size": (2, 3), "stride": (1, 2), "padding": 1, "dilation": (2, 1)}):
        cols = F.unfold(t(x, device), **kw)
        got = F.fold(cols, (5, 6), **kw)
        # the reference: each element times the number of windows holding it
        k = kw["kernel_size"]
        ones = F.unfold(t(np.ones((1, 1, 5, 6), np.float32), device), **kw)
        count = F.fold(ones, (5, 6), **kw).numpy()
        check(got, (x * count).astype(np.float32))
        # against a direct col2im loop
        c = cols.numpy()
        ref = np.zeros((2, 3, 5, 6))
        kh, kwid = (k, k) if isinstance(k, int) else k
        st = kw.get("stride", 1)
        sh, sw = (st, st) if isinstance(st, int) else st
        dl = kw.get("dilation", 1)
        dh, dw = (dl, dl) if isinstance(dl, int) else dl
        pd = kw.get("padding", 0)
        P = np.zeros((2, 3, 5 + 2 * pd, 6 + 2 * pd))
        bh = (5 + 2 * pd - dh * (kh - 1) - 1) // sh + 1
        bw = (6 + 2 * pd - dw * (kwid - 1) - 1) // sw + 1
        cr = c.reshape(2, 3, kh, kwid, bh, bw)
        for i in range(kh):
            for j in range(kwid):
                for a in range(bh):
                    for b in range(bw):
                        P[:, :, a * sh + i * dh, b * sw + j * dw] += cr[:, :, i, j, a, b]
        ref = P[:, :, pd:pd + 5, pd:pd + 6]
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-5, atol=1e-5)
    check(F.fold(t(np.ones((4, 4), np.float32), device), (3, 3), 2), np.array([[[1, 2, 1], [2, 4, 2], [1, 2, 1]]], np.float32))
    with pytest.raises(silt.ArgumentError):
        F.fold(t(np.ones((1, 4, 5), np.float32), device), (3, 3), 2)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_max_unpool_undoes_max_pool(device, nd):
    shape = (2, 3) + (4,) * nd
    x = f32(*shape)
    pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[nd - 1]
    unpool = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[nd - 1]
    values, indices = pool(t(x, device), 2, return_indices=True)
    got = unpool(values, indices, 2)
    want = np.zeros(shape, np.float32).reshape(2, 3, -1)
    np.put_along_axis(want, indices.numpy().reshape(2, 3, -1), values.numpy().reshape(2, 3, -1), axis=2)
    check(got, want.reshape(shape))
    bigger = unpool(values, indices, 2, output_size=(5,) * nd)
    assert tuple(bigger.shape) == (2, 3) + (5,) * nd
    with pytest.raises(silt.ArgumentError):
        unpool(values, indices, 1)  # an output too small for the indices
    with pytest.raises(silt.ArgumentError, match="between 2 and 6"):  # PyTorch's: within a stride of 4
        unpool(values, indices, 2, output_size=(6,) * nd)


def test_max_unpool_by_name_unbatched_and_padded(device):
    # unbatched inputs and a padded pool: PyTorch's default output size
    # (L - 1) * stride - 2 * padding + kernel
    x = f32(3, 7)
    v, i = F.max_pool1d(t(x, device), 3, stride=2, padding=1, return_indices=True)
    got = F.max_unpool1d(v, i, 3, stride=2, padding=1)
    want = np.zeros((3, 7), np.float32)
    np.put_along_axis(want, i.numpy(), v.numpy(), axis=1)
    check(got, want)
    x2 = f32(2, 4, 4)
    v, i = F.max_pool2d(t(x2, device), 2, return_indices=True)
    assert tuple(F.max_unpool2d(v, i, 2).shape) == (2, 4, 4)
    x3 = f32(1, 2, 2, 2)
    v, i = F.max_pool3d(t(x3, device), 2, return_indices=True)
    got = F.max_unpool3d(v, i, 2)
    assert tuple(got.shape) == (1, 2, 2, 2) and got.numpy().max() == x3.max()


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_lp_pools(device, p):
    x = f32(2, 3, 6, 6, low=0.1, high=2.0)
    got = F.lp_pool2d(t(x, device), p, 2)
    want = (x.astype(np.float64) ** p).reshape(2, 3, 3, 2, 3, 2).sum((3, 5)) ** (1 / p)
    check(got, want.astype(np.float32), 1e-4)
    got = F.lp_pool1d(t(x[:, :, 0], device), p, 3, stride=2)
    want = np.stack([(x[:, :, 0, i:i + 3].astype(np.float64) ** p).sum(-1) ** (1 / p) for i in (0, 2)], -1)
    check(got, want.astype(np.float32), 1e-4)
    got = F.lp_pool3d(t(x[:, :, None, :4, :4].repeat(2, 2), device), p, 2)
    assert tuple(got.shape) == (2, 3, 1, 2, 2)
    # PyTorch's limits, of |x|: the largest for inf, the smallest for -inf
    y = x * np.where(f32(2, 3, 6, 6) > 0.5, -1, 1).astype(np.float32)
    windows = np.abs(y).reshape(2, 3, 3, 2, 3, 2)
    check(F.lp_pool2d(t(y, device), math.inf, 2), windows.max((3, 5)))
    check(F.lp_pool2d(t(y, device), -math.inf, 2), windows.min((3, 5)))
    check(F.lp_pool1d(t(y[:, :, 0], device), math.inf, 2), np.abs(y[:, :, 0]).reshape(2, 3, 3, 2).max(-1))
    with pytest.raises(silt.ArgumentError, match="norm_type"):
        F.lp_pool1d(t(x[:, :, 0], device), 0, 2)


def test_local_response_norm_and_channel_shuffle(device):
    x = f32(2, 7, 3, 4)
    for size in (1, 3, 4):
        sq = np.pad(x.astype(np.float64) ** 2, [(0, 0), (size // 2, (size - 1) // 2), (0, 0), (0, 0)])
        avg = np.stack([sq[:, c:c + size].sum(1) for c in range(7)], 1) / size
        want = x / (1.0 + 1e-2 * avg) ** 0.75
        check(F.local_response_norm(t(x, device), size, alpha=1e-2), want.astype(np.float32), 1e-5)
    y = f32(2, 6, 5)
    want = y.reshape(2, 2, 3, 5).transpose(0, 2, 1, 3).reshape(2, 6, 5)
    check(F.channel_shuffle(t(y, device), 2), want)
    check(F.native_channel_shuffle(t(y, device), 2), want)
    with pytest.raises(silt.ArgumentError):
        F.channel_shuffle(t(y, device), 4)


def test_pdist_bilinear_and_upsample(device):
    x = f32(5, 3)
    for p in (1.0, 2.0, 0.5):
        want = [np.sum(np.abs(x[i].astype(np.float64) - x[j]) ** p) ** (1 / p) for i in range(5) for j in range(i + 1, 5)]
        check(F.pdist(t(x, device), p), np.array(want, np.float32), 1e-5)
    a, b, w, bias = f32(4, 3), f32(4, 2), f32(5, 3, 2), f32(5)
    want = np.einsum("ni,oij,nj->no", a.astype(np.float64), w, b) + bias
    check(F.bilinear(t(a, device), t(b, device), t(w, device), t(bias, device)), want.astype(np.float32), 1e-5)
    img = t(f32(1, 2, 3, 4), device)
    check(F.upsample(img, scale_factor=2), F.interpolate(img, scale_factor=2).numpy())
    check(F.upsample_nearest(img, size=(6, 8)), F.interpolate(img, size=(6, 8), mode="nearest").numpy())
    check(F.upsample_bilinear(img, scale_factor=2),
          F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=True).numpy())


def test_multi_margin_losses(device):
    x = f32(4, 5)
    y = np.array([0, 3, 4, 3], np.int64)
    wt = f32(5, low=0.5, high=1.5)
    for p in (1, 2):
        for weight in (None, wt):
            want = []
            for n in range(4):
                terms = [max(0.0, 1.0 - x[n, y[n]] + x[n, i]) ** p * (1 if weight is None else weight[y[n]])
                         for i in range(5) if i != y[n]]
                want.append(sum(terms) / 5)
            got = F.multi_margin_loss(t(x, device), t(y, device), p=p,
                                      weight=None if weight is None else t(weight, device), reduction="none")
            check(got, np.array(want, np.float32), 1e-5)
    assert abs(F.multi_margin_loss(t(x, device), t(y, device)).item() - np.mean(
        [sum(max(0.0, 1 - x[n, y[n]] + x[n, i]) for i in range(5) if i != y[n]) / 5 for n in range(4)])) < 1e-5
    target = np.array([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [-1, 0, 0, 0, 0], [4, -1, 2, 2, 2]], np.int64)
    want = []
    for n in range(4):
        js = []
        for v in target[n]:
            if v < 0:
                break
            js.append(v)
        others = [i for i in range(5) if i not in js]
        want.append(sum(max(0.0, 1 - (x[n, j] - x[n, i])) for j in set(js) for i in others) / 5)
    check(F.multilabel_margin_loss(t(x, device), t(target, device), reduction="none"), np.array(want, np.float32), 1e-5)
    a, pos, neg = f32(3, 4), f32(3, 4), f32(3, 4)
    def dist(u, v):
        return np.linalg.norm(u.astype(np.float64) - v + 1e-6, axis=1)
    want = np.maximum(dist(a, pos) - np.minimum(dist(a, neg), dist(pos, neg)) + 1.0, 0).mean()
    got = F.triplet_margin_with_distance_loss(t(a, device), t(pos, device), t(neg, device), swap=True)
    assert abs(got.item() - want) < 1e-5
    l1 = lambda u, v: (u - v).abs().sum(-1)  # noqa: E731
    want = np.maximum(np.abs(a - pos).sum(1) - np.abs(a - neg).sum(1) + 0.5, 0).sum()
    got = F.triplet_margin_with_distance_loss(t(a, device), t(pos, device), t(neg, device), distance_function=l1,
                                              margin=0.5, reduction="sum")
    assert abs(got.item() - want) < 1e-4


def grid_sample_ref(x, grid, mode, padding_mode, align_corners):
    """PyTorch's `grid_sampler_2d` and `grid_sampler_3d` (CPU) one output at
    a time (float64), NaN places as those kernels take them."""
    nd = x.ndim - 2
    sizes = x.shape[2:]
    c = x.shape[1]
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])

    def unnormalize(v, size):
        return ((v + 1) / 2) * (size - 1) if align_corners else ((v + 1) * size - 1) / 2

    def padded(v, size):
        if padding_mode == "zeros":
            return v
        if padding_mode == "reflection":
            lo2, hi2 = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
            if lo2 == hi2:
                v = 0.0
            elif not math.isnan(v):
                low, span = lo2 / 2, (hi2 - lo2) / 2
                d = abs(v - low)
                extra, flips = math.fmod(d, span), math.floor(d / span)
                v = extra + low if flips % 2 == 0 else span - extra + low
        if math.isnan(v):  # the clip takes 0 (2-d) or the last place (3-d) for NaN
            return 0.0 if nd == 2 else size - 1.0
        return min(size - 1, max(v, 0))

    def at(b, place):
        if all(0 <= p < s for p, s in zip(place, sizes)):
            return x[(b, slice(None)) + tuple(int(p) for p in place)].astype(np.float64)
        return np.zeros(c)

    def cubic(t):
        a = -0.75
        near = lambda v: ((a + 2) * v - (a + 3)) * v * v + 1
        far = lambda v: ((a * v - 5 * a) * v + 8 * a) * v - 4 * a
        return [far(t + 1), near(t), near(1 - t), far(2 - t)]

    for idx in np.ndindex(*out.shape[:1], *out.shape[2:]):
        b, o = idx[0], idx[1:]
        coords = [float(grid[(b,) + o + (nd - 1 - k,)]) for k in range(nd)]  # [z,] y, x
        dst = (b, slice(None)) + o
        if mode == "bicubic":
            src = [unnormalize(v, s) for v, s in zip(coords, sizes)]
            if any(math.isnan(v) for v in src):
                out[dst] = np.nan
                continue
            base = [math.floor(v) for v in src]
            ws = [cubic(v - f) for v, f in zip(src, base)]

            def interp(fixed):  # x's four places first, then y's sums, then z's
                k = len(fixed)
                if k == nd:
                    return at(b, fixed)
                return sum(interp(fixed + [padded(base[k] - 1 + j, sizes[k])]) * ws[k][j] for j in range(4))

            out[dst] = interp([])
            continue
        src = [padded(unnormalize(v, s), s) for v, s in zip(coords, sizes)]
        if any(math.isnan(v) for v in src):  # only with zeros
            out[dst] = np.nan if (mode == "bilinear" and nd == 2) else 0.0
            continue
        if mode == "nearest":
            out[dst] = at(b, [np.rint(v) for v in src])
            continue
        lo = [math.floor(v) for v in src]
        total = np.zeros(c)
        for corner in itertools.product((0, 1), repeat=nd):  # x fastest
            weight = 1.0
            for k in reversed(range(nd)):
                weight *= (src[k] - lo[k]) if corner[k] else (lo[k] + 1 - src[k])
            total = total + at(b, [lo[k] + corner[k] for k in range(nd)]) * weight
        out[dst] = total
    return out.astype(np.float32)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_against_pytorchs_steps(device, mode, padding_mode, align_corners):
    x = f32(2, 3, 4, 5)
    grid = f32(2, 3, 6, 2, low=-1.6, high=1.6)  # places outside the input too
    got = F.grid_sample(t(x, device), t(grid, device), mode, padding_mode, align_corners)
    check(got, grid_sample_ref(x, grid, mode, padding_mode, align_corners), 1e-5)
    # NaN places, as PyTorch's CPU kernel takes them (NaN with zeros, else the place 0)
    grid.reshape(-1)[::5] = np.nan
    got = F.grid_sample(t(x, device), t(grid, device), mode, padding_mode, align_corners)
    want = grid_sample_ref(x, grid, mode, padding_mode, align_corners)
    assert np.array_equal(np.isnan(got.numpy()), np.isnan(want)), (mode, padding_mode)
    check(got, want, 1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_of_volumes_against_pytorchs_steps(device, mode, padding_mode, align_corners):
    x = f32(2, 2, 3, 4, 5)
    grid = f32(2, 2, 3, 2, 3, low=-1.6, high=1.6)
    got = F.grid_sample(t(x, device), t(grid, device), mode, padding_mode, align_corners)
    assert tuple(got.shape) == (2, 2, 2, 3, 2)
    check(got, grid_sample_ref(x, grid, mode, padding_mode, align_corners), 1e-5)
    grid.reshape(-1)[::4] = np.nan  # the last place where clipped, 0 with zeros (bicubic: NaN)
    got = F.grid_sample(t(x, device), t(grid, device), mode, padding_mode, align_corners)
    check(got, grid_sample_ref(x, grid, mode, padding_mode, align_corners), 1e-5)
    # the volume's identity grid reads it back
    theta = t(np.eye(3, 4, dtype=np.float32)[None].repeat(2, 0), device)
    identity = F.affine_grid(theta, (2, 2, 3, 4, 5), align_corners=align_corners)
    check(F.grid_sample(t(x, device), identity, mode, padding_mode, align_corners), x, 1e-5)


def test_grid_sample_refuses(device):
    x, grid = t(f32(1, 1, 2, 3, 4), device), t(f32(1, 2, 2, 2, 3), device)
    with pytest.raises(silt.ArgumentError, match="mode"):
        F.grid_sample(t(f32(1, 1, 2, 3), device), t(f32(1, 2, 2, 2), device), "area")
    with pytest.raises(silt.ArgumentError, match="are not"):
        F.grid_sample(t(f32(1, 1, 2, 3), device), grid)


def test_affine_grid_and_the_identity(device):
    for ac in (False, True):
        theta = np.array([[[1, 0, 0], [0, 1, 0]]] * 2, np.float32)
        grid = F.affine_grid(t(theta, device), (2, 3, 4, 5), align_corners=ac)
        xs = np.linspace(-1, 1, 5) * (1 if ac else 4 / 5)
        ys = np.linspace(-1, 1, 4) * (1 if ac else 3 / 4)
        want = np.stack(np.meshgrid(xs, ys), -1)[None].repeat(2, 0).astype(np.float32)
        check(grid, want, 1e-6)
        # the identity grid reads the input back
        x = f32(2, 3, 4, 5)
        check(F.grid_sample(t(x, device), grid, align_corners=ac), x, 1e-5)
    # a general map, and 3-d
    theta = f32(1, 2, 3)
    grid = F.affine_grid(t(theta, device), (1, 1, 3, 2), align_corners=True)
    base = np.array([[x, y, 1] for y in (-1, 0, 1) for x in (-1, 1)], np.float64)
    check(grid, (base @ theta[0].T.astype(np.float64)).reshape(1, 3, 2, 2).astype(np.float32), 1e-6)
    g3 = F.affine_grid(t(np.eye(3, 4, dtype=np.float32)[None], device), (1, 1, 2, 3, 4))
    assert tuple(g3.shape) == (1, 2, 3, 4, 3)
    with pytest.raises(silt.ArgumentError):
        F.affine_grid(t(theta, device), (1, 1, 2, 3, 4))


def test_random_layers(device):
    silt.manual_seed(3)
    x = f32(4, 6, 50)
    tx = t(x, device)
    # eval: the input itself
    assert F.alpha_dropout(tx, 0.3) is tx and F.feature_alpha_dropout(tx, 0.3) is tx
    al = 1.7580993408473766
    a = 1 / math.sqrt((al * al * 0.3 + 1) * 0.7)
    # kept: a x + b with b = al a p; dropped: b - al a
    kept, dropped = a * x + al * a * 0.3, np.full_like(x, -al * a + al * a * 0.3)
    y = F.alpha_dropout(tx, 0.3, training=True).numpy()
    is_kept = np.isclose(y, kept, rtol=1e-5, atol=1e-6)
    assert (is_kept | np.isclose(y, dropped, rtol=1e-5, atol=1e-6)).all()
    assert 0.6 < is_kept.mean() < 0.8
    y = F.feature_alpha_dropout(tx, 0.5, training=True).numpy()
    al = 1.7580993408473766
    a5 = 1 / math.sqrt((al * al * 0.5 + 1) * 0.5)
    per_channel = np.isclose(y, a5 * x + al * a5 * 0.5, rtol=1e-5, atol=1e-6)
    assert (per_channel.all(-1) | ~per_channel.any(-1)).all()  # whole channels kept or dropped
    # rrelu: the mean slope in eval, a slope in [lower, upper] in training
    check(F.rrelu(tx), np.where(x >= 0, x, x * ((1 / 8 + 1 / 3) / 2)).astype(np.float32))
    y = F.rrelu(tx, 0.1, 0.3, training=True).numpy()
    neg = x < 0
    slopes = y[neg] / x[neg]
    assert (slopes >= 0.1 - 1e-6).all() and (slopes <= 0.3 + 1e-6).all() and np.array_equal(y[~neg], x[~neg])
    # gumbel_softmax: rows of probabilities; hard: one-hot rows
    g = F.gumbel_softmax(t(f32(5, 7), device), tau=0.5).numpy()
    np.testing.assert_allclose(g.sum(-1), 1, rtol=1e-5)
    h = F.gumbel_softmax(t(f32(5, 7), device), hard=True).numpy()
    assert ((h == 0) | (np.abs(h - 1) < 1e-6)).all() and np.allclose(h.sum(-1), 1)


def test_conv_tbc(device):
    x, w, b = f32(7, 2, 3), f32(3, 3, 4), f32(4)
    for pad in (0, 1):
        want = conv_ref(x.transpose(1, 2, 0), w.transpose(2, 1, 0), b, (1,), (pad,), (1,), 1).transpose(2, 0, 1)
        check(F.conv_tbc(t(x, device), t(w, device), t(b, device), pad), want.astype(np.float32), 1e-5)


def ctc_ref(lp, target, steps, blank):
    """The CTC forward recursion for one sample, in float64 with loops."""
    ext = [blank]
    for v in target:
        ext += [v, blank]
    width = len(ext)
    alpha = np.full(width, -np.inf)
    if steps == 0:
        return 0.0 if not len(target) else np.inf
    alpha[0] = lp[0, blank]
    if width > 1:
        alpha[1] = lp[0, ext[1]]
    for t_ in range(1, steps):
        new = np.full(width, -np.inf)
        for s in range(width):
            terms = [alpha[s]]
            if s >= 1:
                terms.append(alpha[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(alpha[s - 2])
            new[s] = np.logaddexp.reduce(terms) + lp[t_, ext[s]]
        alpha = new
    tail = [alpha[-1]] + ([alpha[-2]] if width > 1 else [])
    return -np.logaddexp.reduce(tail)


def test_ctc_loss_against_the_recursion_and_every_alignment(device):
    rng = np.random.default_rng(12)
    steps, n, classes = 6, 4, 5
    logits = rng.standard_normal((steps, n, classes))
    lp = (logits - np.log(np.exp(logits).sum(-1, keepdims=True))).astype(np.float32)
    targets = np.array([[1, 2, 2], [3, 0, 0], [4, 4, 1], [0, 0, 0]], np.int64)  # repeats; an empty one
    t_len = np.array([6, 5, 6, 3])
    s_len = np.array([3, 1, 3, 0])
    want = np.array([ctc_ref(lp[:, i].astype(np.float64), targets[i, : s_len[i]], t_len[i], 0) for i in range(n)])
    got = F.ctc_loss(t(lp, device), t(targets, device), t(t_len, device), t(s_len, device), reduction="none")
    check(got, want.astype(np.float32), 1e-4)
    # the same targets concatenated; the reductions
    flat = np.concatenate([targets[i, : s_len[i]] for i in range(n)])
    mean = F.ctc_loss(t(lp, device), t(flat, device), t_len, s_len)
    assert abs(mean.item() - (want / np.maximum(s_len, 1)).mean()) < 1e-4
    assert abs(F.ctc_loss(t(lp, device), t(flat, device), t_len, s_len, reduction="sum").item() - want.sum()) < 1e-3
    # every alignment of a tiny case: paths whose collapse is the target
    import itertools
    lp1 = lp[:3, 0, :3].astype(np.float64)
    total = 0.0
    for path in itertools.product(range(3), repeat=3):
        collapsed = [v for i, v in enumerate(path) if v != 0 and (i == 0 or path[i - 1] != v)]
        if collapsed == [1, 2]:
            total += np.exp(sum(lp1[i, v] for i, v in enumerate(path)))
    got = F.ctc_loss(t(np.ascontiguousarray(lp[:3, :1, :3]), device), t(np.array([[1, 2]]), device), [3], [2],
                     reduction="none")
    assert abs(got.item() + np.log(total)) < 1e-5
    # impossible: a target longer than the steps allow; zero_infinity
    imp = F.ctc_loss(t(lp, device), t(targets, device), [2, 5, 6, 3], s_len, reduction="none")
    assert math.isinf(imp.numpy()[0])
    z = F.ctc_loss(t(lp, device), t(targets, device), [2, 5, 6, 3], s_len, reduction="none", zero_infinity=True)
    assert z.numpy()[0] == 0
    with pytest.raises(silt.ArgumentError):
        F.ctc_loss(t(lp, device), t(targets + 5, device), t_len, s_len)


def mha_ref(q, k, v, heads, w_in, b_in, w_out, b_out, attn_mask=None, kpm=None):
    """nn.MultiheadAttention's forward in float64 (batch-second inputs),
    bool masks leaving out where True."""
    L, N, E = q.shape
    S = k.shape[0]
    d = E // heads
    wq, wk, wv = w_in[:E], w_in[E:2 * E], w_in[2 * E:]
    bq, bk, bv = b_in[:E], b_in[E:2 * E], b_in[2 * E:]
    out = np.zeros((L, N, E))
    weights = np.zeros((N, heads, L, S))
    for n in range(N):
        Q, K, V = q[:, n] @ wq.T + bq, k[:, n] @ wk.T + bk, v[:, n] @ wv.T + bv
        cat = np.zeros((L, E))
        for h in range(heads):
            sl = slice(h * d, (h + 1) * d)
            s = Q[:, sl] @ K[:, sl].T / math.sqrt(d)
            if attn_mask is not None:
                s = np.where(attn_mask, -np.inf, s)
            if kpm is not None:
                s = np.where(kpm[n][None, :], -np.inf, s)
            e = np.exp(s - s.max(-1, keepdims=True))
            p = e / e.sum(-1, keepdims=True)
            weights[n, h] = p
            cat[:, sl] = p @ V[:, sl]
        out[:, n] = cat @ w_out.T + b_out
    return out, weights


def test_multi_head_attention_forward(device):
    L, S, N, E, H = 4, 5, 2, 6, 3
    q, k, v = f32(L, N, E), f32(S, N, E), f32(S, N, E)
    w_in, b_in, w_out, b_out = f32(3 * E, E), f32(3 * E), f32(E, E), f32(E)
    args = [t(a, device) for a in (w_in, b_in)]
    mask = np.triu(np.ones((L, S), bool), 1)
    kpm = np.zeros((N, S), bool)
    kpm[1, -1] = True
    out, w = F.multi_head_attention_forward(t(q, device), t(k, device), t(v, device), E, H, *args, None, None, False,
                                            0.0, t(w_out, device), t(b_out, device), attn_mask=t(mask, device),
                                            key_padding_mask=t(kpm, device))
    want, wants = mha_ref(q.astype(np.float64), k, v, H, w_in, b_in, w_out, b_out, mask, kpm)
    check(out, want.astype(np.float32), 1e-4)
    check(w, wants.mean(1).astype(np.float32), 1e-5)
    _, w = F.multi_head_attention_forward(t(q, device), t(k, device), t(v, device), E, H, *args, None, None, False,
                                          0.0, t(w_out, device), t(b_out, device), average_attn_weights=False)
    check(w, mha_ref(q.astype(np.float64), k, v, H, w_in, b_in, w_out, b_out)[1].astype(np.float32), 1e-5)
    # unbatched, without weights; bias_k/bias_v and a zero attention add two keys
    out, none = F.multi_head_attention_forward(t(q[:, 0], device), t(k[:, 0], device), t(v[:, 0], device), E, H,
                                               *args, None, None, False, 0.0, t(w_out, device), t(b_out, device),
                                               need_weights=False)
    assert none is None
    check(out, mha_ref(q[:, :1].astype(np.float64), k[:, :1], v[:, :1], H, w_in, b_in, w_out, b_out)[0][:, 0]
          .astype(np.float32), 1e-4)
    bk, bv = f32(1, 1, E), f32(1, 1, E)
    _, w = F.multi_head_attention_forward(t(q, device), t(k, device), t(v, device), E, H, *args, t(bk, device),
                                          t(bv, device), True, 0.0, t(w_out, device), t(b_out, device))
    assert tuple(w.shape) == (N, L, S + 2)
    # the added keys' mask columns are zeros, not the first column times 0
    # (-inf * 0 is NaN): a first key masked out (bool, or -inf) leaves every
    # weight finite
    first = np.zeros((N, S), bool)
    first[:, 0] = True
    float_mask = np.where(np.arange(S) == 0, -np.inf, 0.0).astype(np.float32)[None].repeat(L, 0)
    for extra in ({"add_zero_attn": True}, {"bias_k": t(bk, device), "bias_v": t(bv, device)}):
        zero = extra.pop("add_zero_attn", False)
        bias = (extra.get("bias_k"), extra.get("bias_v"))
        for masks in ({"key_padding_mask": t(first, device)}, {"attn_mask": t(float_mask, device)}):
            out, w = F.multi_head_attention_forward(t(q, device), t(k, device), t(v, device), E, H, *args, *bias,
                                                    zero, 0.0, t(w_out, device), t(b_out, device), **masks)
            w = w.numpy()
            assert np.isfinite(out.numpy()).all() and np.isfinite(w).all(), (zero, list(masks))
            assert (w[..., 0] == 0).all()
            np.testing.assert_allclose(w.sum(-1), 1, rtol=1e-5)
    with pytest.raises(silt.ArgumentError):
        F.multi_head_attention_forward(t(q, device), t(k, device), t(v, device), E, 4, *args, None, None, False,
                                       0.0, t(w_out, device), t(b_out, device))


def test_review_edges_functional(device):
    # a class listed twice counts twice (PyTorch's loop)
    got = F.multilabel_margin_loss(t(np.array([[0.1, 0.2, 0.4, 0.8]], np.float32), device),
                                   t(np.array([[3, 3, -1, 0]]), device), reduction="none")
    want = 2 * sum(max(0.0, 1 - (0.8 - v)) for v in (0.1, 0.2, 0.4)) / 4
    check(got, np.array([want], np.float32), 1e-6)
    # rrelu takes a negative lower bound
    x = t(np.array([-2.0, 3.0], np.float32), device)
    check(F.rrelu(x, -0.5, 0.1), np.array([0.4, 3.0], np.float32))


def frac_ref(x, kernel, out, samples):
    """PyTorch's fractional max pool loops over one batch (float32 steps)."""
    nd = len(kernel)
    order = [1, 0] if nd == 2 else list(range(nd))
    n, c = x.shape[:2]
    lengths = x.shape[2:]
    values = np.zeros((n, c) + tuple(out), np.float32)
    index = np.zeros((n, c) + tuple(out), np.int64)
    for b in range(n):
        for ch in range(c):
            seqs = []
            for d in range(nd):
                u = np.float32(samples[b, ch, order[d]])
                alpha = np.float32(lengths[d] - kernel[d]) / np.float32(out[d] - 1) if out[d] > 1 else 0
                seq = [int((np.float32(i) + u) * alpha) - int(u * alpha) for i in range(out[d] - 1)]
                seqs.append(seq + [lengths[d] - kernel[d]])
            for pos in np.ndindex(*out):
                best, at = -np.inf, None
                for off in np.ndindex(*kernel):
                    p = tuple(seqs[d][pos[d]] + off[d] for d in range(nd))
                    flat = int(np.ravel_multi_index(p, lengths))
                    if at is None:
                        at = flat
                    v = x[(b, ch) + p]
                    if v > best or np.isnan(v):
                        best, at = v, flat
                values[(b, ch) + pos], index[(b, ch) + pos] = best, at
    return values, index


@pytest.mark.parametrize("nd", [2, 3])
def test_fractional_max_pool_against_pytorchs_loops(device, nd):
    shape = (2, 3) + ((7, 8) if nd == 2 else (5, 6, 7))
    x = f32(*shape)
    x[0, 0].flat[3] = np.nan
    kernel = (2,) * nd
    out = (4, 5) if nd == 2 else (3, 2, 4)
    samples = RNG.random((2, 3, nd)).astype(np.float32)
    fn = F.fractional_max_pool2d if nd == 2 else F.fractional_max_pool3d
    got, idx = fn(t(x, device), 2, output_size=out, return_indices=True, _random_samples=t(samples, device))
    want, wi = frac_ref(x, kernel, out, samples)
    check(got, want)
    check(idx, wi)
    # output_ratio, drawn samples: the shape, and every value one of the input's
    half = fn(t(x, device), 2, output_ratio=0.5)
    assert tuple(half.shape) == (2, 3) + tuple(int(L * 0.5) for L in shape[2:])
    with pytest.raises(silt.ArgumentError):
        fn(t(x, device), 3, output_size=shape[2:])
    # output + kernel - 1 == input: taken in 2-d (every window one place on), refused in 3-d, as PyTorch's
    edge = tuple(L - 1 for L in shape[2:])
    if nd == 2:
        got, idx = fn(t(x, device), 2, output_size=edge, return_indices=True, _random_samples=t(samples, device))
        want, wi = frac_ref(x, kernel, edge, samples)
        check(got, want)
        check(idx, wi)
    else:
        with pytest.raises(silt.ArgumentError, match="does not fit"):
            fn(t(x, device), 2, output_size=edge, _random_samples=t(samples, device))
    if nd == 2:
        assert tuple(F.fractional_max_pool2d(t(x[0], device), (2, 2), output_size=(3, 3)).shape) == (3, 3, 3)
    else:
        assert tuple(F.fractional_max_pool3d(t(x[0], device), 2, output_size=(2, 2, 2)).shape) == (3, 2, 2, 2)


def test_the_last_in_place_activations(device):
    x = f32(3, 4)
    for name, ref in (("celu_", F.celu), ("selu_", F.selu), ("rrelu_", F.rrelu)):
        tx = t(x.copy(), device)
        want = ref(t(x, device)).numpy()
        out = {"celu_": lambda a: F.celu_(a), "selu_": lambda a: F.selu_(a), "rrelu_": lambda a: F.rrelu_(a)}[name](tx)
        assert out is tx, name
        check(tx, want)


# PyTorch 2.15's uint8 results (CPU) for this input, recorded
_U8 = np.array([[[[217, 163, 130, 69, 78, 10, 19], [4, 44, 208, 166, 233, 128, 155], [248, 186, 161, 139, 143, 239, 71], [208, 171, 0, 100, 219, 141, 8], [195, 186, 216, 44, 22, 220, 5]], [[138, 20, 76, 123, 108, 103, 7], [1, 31, 2, 171, 134, 165, 65], [157, 195, 98, 117, 255, 206, 251], [97, 175, 243, 166, 215, 176, 180], [99, 224, 34, 148, 184, 216, 134]]]], np.uint8)
_U8_WANT = {
    "down": (dict(size=(8, 4), mode="bilinear", align_corners=False),
             [[[[197, 122, 77, 16], [119, 157, 142, 72], [32, 200, 220, 144], [161, 172, 169, 137], [215, 113, 162, 110], [196, 22, 200, 63], [193, 115, 103, 74], [192, 195, 25, 86]], [[94, 82, 110, 43], [58, 56, 123, 69], [22, 28, 145, 111], [121, 76, 207, 193], [157, 142, 229, 217], [129, 225, 211, 182], [137, 129, 193, 171], [146, 48, 180, 165]]]]),
    "corners": (dict(scale_factor=(1.5, 0.6), mode="bilinear", align_corners=True),
                [[[[217, 130, 78, 19], [75, 182, 181, 110], [85, 192, 203, 127], [248, 161, 143, 71], [221, 54, 194, 29], [204, 72, 153, 7], [195, 216, 22, 5]], [[138, 76, 108, 7], [47, 27, 125, 46], [53, 34, 174, 127], [157, 98, 255, 251], [117, 195, 228, 204], [98, 173, 205, 165], [99, 34, 184, 134]]]]),
    "one pass": (dict(size=(5, 11), mode="bilinear", align_corners=False),
                 [[[[217, 192, 160, 139, 108, 69, 75, 59, 16, 15, 19], [4, 22, 59, 163, 193, 166, 209, 204, 138, 143, 155], [248, 220, 184, 168, 153, 139, 142, 169, 230, 147, 71], [208, 191, 155, 47, 36, 100, 176, 198, 148, 68, 8], [195, 191, 189, 208, 153, 44, 30, 76, 202, 103, 5]], [[138, 84, 25, 61, 93, 123, 113, 107, 103, 51, 7], [1, 15, 28, 10, 63, 171, 147, 142, 162, 110, 65], [157, 174, 186, 124, 105, 117, 205, 242, 210, 231, 251], [97, 132, 181, 224, 215, 166, 197, 204, 180, 178, 180], [99, 156, 207, 86, 75, 148, 171, 193, 213, 171, 134]]]]),
    "bicubic": (dict(size=(7, 9), mode="bicubic", align_corners=False),
                [[[[238, 197, 150, 106, 61, 69, 29, 0, 9], [67, 64, 129, 178, 128, 177, 115, 67, 110], [45, 46, 136, 216, 171, 216, 203, 162, 149], [252, 208, 170, 154, 139, 132, 215, 197, 60], [234, 214, 95, 18, 115, 205, 210, 112, 12], [200, 195, 129, 62, 72, 128, 178, 114, 0], [195, 185, 222, 201, 40, 0, 150, 181, 0]], [[157, 53, 30, 95, 119, 111, 110, 67, 0], [45, 18, 0, 52, 157, 121, 132, 102, 13], [27, 69, 41, 36, 160, 171, 185, 167, 119], [154, 194, 155, 88, 117, 233, 234, 215, 254], [115, 157, 217, 219, 153, 221, 208, 185, 214], [85, 164, 194, 166, 164, 192, 200, 177, 151], [91, 211, 138, 20, 147, 175, 214, 196, 125]]]]),
}


@pytest.mark.parametrize("case", sorted(_U8_WANT))
def test_interpolate_of_uint8_as_pytorch(device, case):
    kw, want = _U8_WANT[case]
    got = F.interpolate(silt.tensor(_U8, device=device), **kw)
    assert got.dtype == np.uint8 and got.device == device
    got, want = got.numpy().astype(int), np.array(want)
    assert got.shape == want.shape
    if kw["mode"] == "bilinear":
        # PyTorch's integer passes, bit for bit
        np.testing.assert_array_equal(got, want)
    else:
        # bicubic: within 1 of PyTorch's (docs/python.md)
        assert np.abs(got - want).max() <= 1


def test_interpolate_of_uint8_refuses_the_other_linear_modes(device):
    x = silt.tensor(np.zeros((1, 1, 4), np.uint8), device=device)
    with pytest.raises(silt.DTypeError, match="float"):
        F.interpolate(x, scale_factor=2, mode="linear")
    same = F.interpolate(silt.tensor(_U8, device=device), size=(5, 7), mode="bilinear")
    np.testing.assert_array_equal(same.numpy(), _U8)


def test_argument_edges_found_by_fuzzing(device):
    """Against PyTorch: a transposed convolution whose output has a length
    of 0 is an empty tensor (not an error); `pad` refuses a cut past the
    dimension even where padding at the other end would leave a length;
    class targets of uint8 are taken, as PyTorch's "Long or Byte"."""
    rng = np.random.default_rng(3)
    x = t(rng.standard_normal((2, 4, 4, 2)).astype(np.float32), device)
    w = t(rng.standard_normal((4, 2, 3, 1)).astype(np.float32), device)
    y = F.conv_transpose2d(x, w, None, 1, 1, 0, 2, 2)  # width (2-1) - 2 + 0 + 1 = 0
    assert y.shape == (2, 4, 6, 0) and y.dtype == np.float32
    assert F.conv_transpose1d(x[0, :, :, 0], w[:, :, :, 0], padding=1, dilation=2, groups=2).shape == (4, 6)
    assert F.conv_transpose1d(x[0, :, :2, 0], w[:, :, :, 0], padding=2, groups=2).shape == (4, 0)
    with pytest.raises(silt.ArgumentError):
        F.conv_transpose1d(x[0, :, :2, 0], w[:, :, :, 0], padding=3, groups=2)  # a negative length
    p = t(np.arange(6.0).reshape(1, 2, 3), device)
    for pads in ([3, 1, -1, 2, -2, 3], [0, 0, -3, 1], [-4, 0]):
        with pytest.raises(silt.ArgumentError):
            F.pad(p, pads)
    assert F.pad(p, [-3, 1]).shape == (1, 2, 1)
    assert F.pad(p, [-2, -1]).shape == (1, 2, 0)
    logits = rng.standard_normal((2, 3)).astype(np.float32)
    for target in ([0, 2], [1, 1]):
        want = F.nll_loss(t(logits, device), t(np.array(target, np.int64), device))
        got = F.nll_loss(t(logits, device), t(np.array(target, np.uint8), device))
        assert float(got) == float(want)
        ce = F.cross_entropy(t(logits, device), t(np.array(target, np.uint8), device), label_smoothing=0.1)
        ce64 = F.cross_entropy(t(logits, device), t(np.array(target, np.int64), device), label_smoothing=0.1)
        assert float(ce) == float(ce64)
    with pytest.raises(silt.DTypeError):
        F.nll_loss(t(logits, device), t(np.array([0, 2], np.int32), device))
    # kl_div broadcasts its input and target (PyTorch's, without a warning)
    q = rng.uniform(0.1, 0.9, (2, 3)).astype(np.float32)
    logq = np.log(rng.uniform(0.1, 0.9, 3)).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = F.kl_div(t(logq, device), t(q, device), reduction="sum")
    check(got, np.float32((q * (np.log(q) - logq)).sum()))
    with pytest.raises(silt.ArgumentError):
        F.kl_div(t(logq, device), t(q[:, :2], device))

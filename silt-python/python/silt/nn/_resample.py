"""``silt.nn.functional.interpolate``: elements picked along one dimension
at a time with ``index_select`` (and weighed, in the linear modes)."""

import math
import numbers

import numpy as np

from .._silt import ArgumentError
from ._args import _floats, _on, _tensor
from ._pools import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d


# ---- interpolate -------------------------------------------------------------------


_MODES = {"nearest": None, "nearest-exact": None, "linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2,
          "area": None}

# PyTorch's cubic convolution constant (Keys' kernel with a = -0.75)
_A = -0.75


def _cubic_weights(t):
    """The four weights of places ``floor(src) - 1 .. floor(src) + 2`` at
    fractions ``t`` (PyTorch's ``get_cubic_upsample_coefficients``)."""
    def near(x):  # |x| <= 1
        return ((_A + 2) * x - (_A + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _linear_source(mode, n, m, ratio, align_corners):
    """The source places (float64) of the `m` outputs of a linear or cubic
    resampling of `n` places, PyTorch's: the corners aligned, or the
    centres scaled by `ratio` (clamped at 0 except for bicubic)."""
    dst = np.arange(m, dtype=np.float64)
    if align_corners:
        return dst * ((n - 1) / (m - 1)) if m > 1 else np.zeros(m)
    if mode == "bicubic":
        return (dst + 0.5) * ratio - 0.5  # not clamped at 0, as PyTorch's cubic places
    return np.maximum((dst + 0.5) * ratio - 0.5, 0.0)


def _uint8_passes(x, out, scales, mode, align_corners):
    """`bilinear` or `bicubic` of a uint8 `[N, C, H, W]`, as PyTorch's CPU
    kernels compute it: one pass along W, then one along H (a pass skipped
    where the length does not change), each a sum of the neighbours with
    integer weights (the weights times `2^p`, rounded, for the largest `p` up
    to 22 that keeps each below `2^15`) in int32, plus `2^(p-1)`, shifted
    down by `p` and clamped to `[0, 255]`."""
    start = x
    for d in (3, 2):
        n, m, s = x.shape[d], out[d - 2], scales[d - 2]
        if n == 0 or m == 0:
            raise ArgumentError(f"interpolate: dimension {d} resamples {n} places to {m}")
        if n == m:
            continue
        src = _linear_source(mode, n, m, (1.0 / s) if s is not None else n / m, align_corners)
        if mode == "bicubic":
            base = np.floor(src).astype(np.int64)
            weights = _cubic_weights(src - base)
            places = [np.clip(base - 1 + j, 0, n - 1) for j in range(4)]
        else:
            lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
            frac = src - lo
            weights = [1 - frac, frac]
            places = [lo, np.minimum(lo + 1, n - 1)]
        largest = max(float(np.abs(w).max()) for w in weights)
        p = 0
        while p < 22 and largest * (1 << (p + 1)) < 32768:
            p += 1
        shape = [1] * x.ndim
        shape[d] = m
        acc = None
        for w, at in zip(weights, places):
            wi = _on(x, np.round(w * (1 << p)).astype(np.int32).reshape(shape))
            term = x.index_select(d, _on(x, at)).astype(np.int32) * wi
            acc = term if acc is None else acc + term
        x = ((acc + (1 << (p - 1))) >> p).clamp(0, 255).astype(np.uint8)
    return x if x is not start else start.clone()


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """`interpolate(input, size=None, scale_factor=None, mode='nearest',
    align_corners=None, recompute_scale_factor=None)`: `input` (`[N, C,
    *spatial]`) resampled to `size` or by `scale_factor`, with PyTorch's
    source coordinates; modes `nearest`, `nearest-exact`, `linear`,
    `bilinear`, `trilinear` (each output from its two neighbours a
    dimension), `bicubic` (from four neighbours a dimension, Keys' kernel
    with `a = -0.75`, places past an edge read at the edge; not clamped to
    the input's range) and `area` (`adaptive_avg_pool`). A uint8 input
    takes `bilinear` as PyTorch's CPU kernels compute it (integer passes
    along W then H, the same bytes) and `bicubic` the same way (within 1 of
    PyTorch's)."""
    fn = "interpolate"
    _tensor(input, fn)
    if mode not in _MODES:
        raise ArgumentError(f"{fn}: mode {mode!r} is not taken (one of {', '.join(_MODES)})")
    if antialias:
        raise ArgumentError(f"{fn}: antialias is not taken")
    nd = input.ndim - 2
    if nd < 1 or nd > 3:
        raise ArgumentError(f"{fn}: input must have 3 to 5 dimensions, not {input.ndim}")
    if _MODES[mode] is not None and _MODES[mode] != nd:
        raise ArgumentError(f"{fn}: mode {mode!r} needs a {_MODES[mode] + 2}-d input, not {input.ndim}-d")
    linear_mode = _MODES[mode] is not None
    if align_corners is not None and not linear_mode:
        raise ArgumentError(f"{fn}: align_corners is only for the interpolating modes "
                            "(linear, bilinear, bicubic, trilinear)")
    align_corners = bool(align_corners)
    if (size is None) == (scale_factor is None):
        raise ArgumentError(f"{fn}: give either size or scale_factor")
    lengths = list(input.shape[2:])
    if size is not None:
        out = [size] * nd if isinstance(size, numbers.Integral) else list(size)
        if len(out) != nd or not all(isinstance(m, numbers.Integral) and m > 0 for m in out):
            raise ArgumentError(f"{fn}: size must be {nd} positive ints, not {size}")
        scales = [None] * nd
    else:
        scales = [scale_factor] * nd if isinstance(scale_factor, numbers.Number) else list(scale_factor)
        if len(scales) != nd or not all(s > 0 for s in scales):
            raise ArgumentError(f"{fn}: scale_factor must be {nd} positive numbers, not {scale_factor}")
        out = [int(math.floor(n * s)) for n, s in zip(lengths, scales)]
        if recompute_scale_factor:
            scales = [None] * nd
    if mode == "area":
        return adaptive_avg_pool3d(input, out) if nd == 3 else (
            adaptive_avg_pool2d(input, out) if nd == 2 else adaptive_avg_pool1d(input, out))
    if linear_mode and input.dtype == np.uint8 and nd == 2:
        return _uint8_passes(input, out, scales, mode, align_corners)
    if linear_mode:
        _floats(input, fn)
    x = input
    for i, (n, m, s) in enumerate(zip(lengths, out, scales)):
        d = 2 + i
        if n == 0 or m == 0:
            raise ArgumentError(f"{fn}: dimension {d} resamples {n} places to {m}")
        # PyTorch's scale: the given factor's inverse, else the lengths' ratio
        ratio = (1.0 / s) if s is not None else n / m
        dst = np.arange(m, dtype=np.float64)
        if not linear_mode:
            # in float32, as PyTorch computes these places; its CPU kernels
            # take the same and twice the length exactly
            scale = np.float32(1.0 / s) if s is not None else np.float32(n) / np.float32(m)
            dst32 = dst.astype(np.float32)
            if mode == "nearest-exact":
                src = np.floor((dst32 + np.float32(0.5)) * scale)
            elif m == n:
                src = dst
            elif m == 2 * n:
                src = np.arange(m) >> 1
            else:
                src = np.floor(dst32 * scale)
            x = x.index_select(d, _on(x, np.minimum(src, n - 1).astype(np.int64)))
            continue
        src = _linear_source(mode, n, m, ratio, align_corners)
        shape = [1] * x.ndim
        shape[d] = m
        if mode == "bicubic":
            base = np.floor(src)
            weights = _cubic_weights(src - base)
            y = None
            for j, w in enumerate(weights):
                places = np.clip(base.astype(np.int64) - 1 + j, 0, n - 1)
                term = x.index_select(d, _on(x, places)) * _on(x, w.astype(x.dtype).reshape(shape))
                y = term if y is None else y + term
            x = y
            continue
        lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
        hi = np.minimum(lo + 1, n - 1)
        frac = (src - lo).astype(x.dtype)
        w1 = _on(x, frac.reshape(shape))
        w0 = _on(x, (1 - frac).reshape(shape))
        x = x.index_select(d, _on(x, lo)) * w0 + x.index_select(d, _on(x, hi)) * w1
    return x if x is not input else input.clone()

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
          "lanczos": 2, "area": None}

# the antialiasing filters' widths in places at a scale of 1 (PyTorch's `interp_size`)
_AA_WIDTH = {"bilinear": 2, "bicubic": 4, "lanczos": 6}

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


def _aa_filter(mode, x):
    """The antialiasing filter of `mode` at `x` (float64): the triangle, Keys'
    cubic with `a = -0.5` (Pillow's, not the `-0.75` of plain `bicubic`) or
    Lanczos-3, `sinc(x) sinc(x / 3)` within 3."""
    x = np.abs(x)
    if mode == "bilinear":
        return np.where(x < 1, 1 - x, 0.0)
    if mode == "bicubic":
        a = -0.5
        near = ((a + 2) * x - (a + 3)) * x * x + 1
        far = (((x - 5) * x + 8) * x - 4) * a
        return np.where(x < 1, near, np.where(x < 2, far, 0.0))
    return np.where(x < 3, np.sinc(x) * np.sinc(x / 3), 0.0)


def _aa_taps(mode, n, m, scale, exact):
    """PyTorch's antialiased resampling of `n` places to `m` at `scale`
    (input places an output): the first place each output reads and the
    weights of its `taps` places from there (`[m, taps]`, float64, zero past
    the input and past the output's window), each output's weights summing to
    1. The filter is widened by the scale when it shrinks, so each output
    averages every place under it. The window's ends are computed in
    `exact` (`np.float32` for float32 input, as PyTorch's kernels do)."""
    half = _AA_WIDTH[mode] / 2
    scale = exact(scale)
    support = exact(half) * scale if scale >= 1 else exact(half)
    taps = int(math.ceil(support)) * 2 + 1
    inverse = exact(1) / scale if scale >= 1 else exact(1)
    centre = scale * (np.arange(m).astype(exact) + exact(0.5))
    first = np.maximum(np.trunc(centre - support + exact(0.5)).astype(np.int64), 0)
    ends = np.minimum(np.trunc(centre + support + exact(0.5)).astype(np.int64), n)
    count = np.clip(ends - first, 0, taps)
    j = np.arange(taps)
    at = (j[None, :] + first[:, None]).astype(exact) - centre[:, None] + exact(0.5)
    w = np.where(j[None, :] < count[:, None], _aa_filter(mode, (at * inverse).astype(np.float64)), 0.0)
    total = w.sum(1, keepdims=True)
    return first, np.where(total != 0, w / np.where(total != 0, total, 1), w)


def _aa_scale(n, m, s, align_corners):
    """PyTorch's scale (input places an output) of a dimension of `n`
    resampled to `m`, given its scale factor `s` or `None`."""
    if align_corners:
        return (n - 1) / (m - 1) if m > 1 else 0.0
    return (1.0 / s) if s is not None else n / m


def _passes(x, out, scales):
    """The separable passes of a 4-d `x` resampled to `out`, as PyTorch's CPU
    kernels make them: along W, then along H, a dimension whose length
    stays skipped; `(dimension, its length, the output's, its scale factor
    or None)` each."""
    for d in (3, 2):
        n, m = x.shape[d], out[d - 2]
        if n == 0 or m == 0:
            raise ArgumentError(f"interpolate: dimension {d} resamples {n} places to {m}")
        if n != m:
            yield d, n, m, scales[d - 2]


def _antialiased(x, out, scales, mode, align_corners):
    """`bilinear`, `bicubic` or `lanczos` of a float `[N, C, H, W]` with
    antialiasing, as PyTorch's CPU kernels: a pass along W, then one along
    H (a pass skipped where the length does not change), each output the
    weighted sum of the places under its widened filter: those places
    picked at once (`index_select`), weighed and summed."""
    start = x
    wide = x.dtype == np.float16
    if wide:
        x = x.astype(np.float32)
    exact = np.float64 if x.dtype == np.float64 else np.float32
    for d, n, m, s in _passes(x, out, scales):
        first, w = _aa_taps(mode, n, m, _aa_scale(n, m, s, align_corners), exact)
        taps = w.shape[1]
        places = np.minimum(first[:, None] + np.arange(taps)[None, :], n - 1)
        picked = x.index_select(d, _on(x, places.reshape(-1)))
        shape = list(x.shape)
        shape[d:d + 1] = [m, taps]
        picked = picked.reshape(shape)
        wshape = [1] * len(shape)
        wshape[d], wshape[d + 1] = m, taps
        # places past a window are not read: their weight is 0, but the
        # element picked there may be infinite or NaN
        inside = _on(x, (w != 0).reshape(wshape))
        x = (picked * _on(x, w.astype(x.dtype).reshape(wshape))).where(inside, 0).sum(d + 1)
    if x is start:
        return start.clone()
    return x.astype(np.float16) if wide else x


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


def _uint8_passes(x, out, scales, mode, align_corners, antialias=False):
    """`bilinear` or `bicubic` (or, antialiased, `lanczos`) of a uint8 `[N,
    C, H, W]`, as PyTorch's CPU kernels compute it: one pass along W, then
    one along H (a pass skipped where the length does not change), each a
    sum of the neighbours (or of the places under the antialiasing filter)
    with integer weights (the weights times `2^p`, rounded, for the largest
    `p` up to 22 that keeps each below `2^15`) in int32, plus `2^(p-1)`,
    shifted down by `p` and clamped to `[0, 255]`."""
    start = x
    for d, n, m, s in _passes(x, out, scales):
        if antialias:
            first, w = _aa_taps(mode, n, m, _aa_scale(n, m, s, align_corners), np.float64)
            weights = list(w.T)
            places = [np.minimum(first + j, n - 1) for j in range(w.shape[1])]
        elif mode == "bicubic":
            src = _linear_source(mode, n, m, (1.0 / s) if s is not None else n / m, align_corners)
            base = np.floor(src).astype(np.int64)
            weights = _cubic_weights(src - base)
            places = [np.clip(base - 1 + j, 0, n - 1) for j in range(4)]
        else:
            src = _linear_source(mode, n, m, (1.0 / s) if s is not None else n / m, align_corners)
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
    align_corners=None, recompute_scale_factor=None, antialias=False)`:
    `input` (`[N, C, *spatial]`) resampled to `size` or by `scale_factor`,
    with PyTorch's source coordinates; modes `nearest`, `nearest-exact`, `linear`,
    `bilinear`, `trilinear` (each output from its two neighbours a
    dimension), `bicubic` (from four neighbours a dimension, Keys' kernel
    with `a = -0.75`, places past an edge read at the edge; not clamped to
    the input's range) and `area` (`adaptive_avg_pool`). With
    `antialias=True`, `bilinear`, `bicubic` and `lanczos` (which needs it)
    of a 4-d input filter as Pillow does, PyTorch's CPU kernels: a
    triangle, Keys' cubic with `a = -0.5` or Lanczos-3, widened by the
    scale where the input shrinks, each output's weights summing to 1
    (float16 computed in float32). A uint8 input takes `bilinear` as
    PyTorch's CPU kernels compute it (integer passes along W then H, the
    same bytes) and `bicubic` and `lanczos` the same way (within 1 of
    PyTorch's)."""
    fn = "interpolate"
    _tensor(input, fn)
    if mode not in _MODES:
        raise ArgumentError(f"{fn}: mode {mode!r} is not taken (one of {', '.join(_MODES)})")
    nd = input.ndim - 2
    if antialias and (mode not in _AA_WIDTH or nd != 2):
        raise ArgumentError(f"{fn}: antialias is taken by the modes bilinear, bicubic and lanczos "
                            f"of a 4-d input, not {mode!r} of a {input.ndim}-d one")
    if mode == "lanczos" and not antialias:
        raise ArgumentError(f"{fn}: mode 'lanczos' needs antialias=True")
    if mode == "lanczos" and align_corners:
        raise ArgumentError(f"{fn}: mode 'lanczos' does not take align_corners=True")
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
        return _uint8_passes(input, out, scales, mode, align_corners, antialias)
    if linear_mode:
        _floats(input, fn)
    if antialias:
        return _antialiased(input, out, scales, mode, align_corners)
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
            # of 4-d inputs take the same and twice the length exactly
            scale = np.float32(1.0 / s) if s is not None else np.float32(n) / np.float32(m)
            dst32 = dst.astype(np.float32)
            if mode == "nearest-exact":
                src = np.floor((dst32 + np.float32(0.5)) * scale)
            elif nd == 2 and m == n:
                src = dst
            elif nd == 2 and m == 2 * n:
                src = np.arange(m) >> 1
            else:
                src = np.floor(dst32 * scale)
            x = x.index_select(d, _on(x, np.minimum(src, n - 1).astype(np.int64)))
            continue
        if n == m and mode != "bicubic":
            continue  # PyTorch's linear modes copy a dimension whose length stays, whatever the scale
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

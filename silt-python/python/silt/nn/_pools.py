"""``silt.nn.functional``'s max, average and adaptive pools: reductions
over strided views of windows, or over elements picked by ``index_select``."""

import math
import numbers

import numpy as np

from .. import _silt
from .._silt import ArgumentError
from ._args import _floats, _ints, _on, _tensor, _unbatched, _widened
from ._windows import _pad_spatial, _windows


def _pool_geometry(x, nd, kernel_size, stride, padding, dilation, ceil_mode, fn):
    kernel = _ints(kernel_size, nd, fn, "kernel_size", 1)
    stride = kernel if stride is None or (not isinstance(stride, numbers.Integral) and len(stride) == 0) \
        else _ints(stride, nd, fn, "stride", 1)
    dilation = _ints(dilation, nd, fn, "dilation", 1)
    padding = _ints(padding, nd, fn, "padding")
    for k, p in zip(kernel, padding):
        if p > k // 2:  # PyTorch's limit: half the kernel's size, whatever the dilation
            raise ArgumentError(f"{fn}: padding {p} is more than half the kernel size {k}")
    out, pads = [], []
    for n, k, s, p, d in zip(x.shape[-nd:], kernel, stride, padding, dilation):
        span = d * (k - 1) + 1
        room = n + 2 * p - span
        # PyTorch's: with ceil_mode the last window may run past the padding,
        # but must start inside the input or its left padding
        m = (-(-room // s) if ceil_mode else room // s) + 1
        if ceil_mode and (m - 1) * s >= n + p:
            m -= 1
        if m < 1:
            raise ArgumentError(f"{fn}: the kernel spans {span} places, more than the padded input's {n + 2 * p}")
        out.append(m)
        pads.append((p, (m - 1) * s + span - n - p))
    return kernel, stride, dilation, padding, out, pads


def _lowest(dtype):
    return -math.inf if dtype.kind == "f" else (np.iinfo(dtype).min if dtype.kind in "iu" else False)


def _first_or_last_nan(hit, values):
    """The place along the last dimension of ``hit`` (a bool tensor of each
    window's places that hold its maximum) that PyTorch's loops pick: the
    first, or the last where the maximum is NaN (each NaN replaces it)."""
    first = hit.view(np.uint8).argmax(-1)
    if values.dtype.kind != "f":
        return first
    last = (hit.shape[-1] - 1) - hit.flip(-1).view(np.uint8).argmax(-1)
    return first.where(~values.isnan(), last)


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nd, fn):
    _tensor(input, fn)
    x, added = _unbatched(input, nd, fn)
    kernel, stride, dilation, padding, out, pads = _pool_geometry(
        x, nd, kernel_size, stride, padding, dilation, ceil_mode, fn)
    xp = _pad_spatial(x, pads, _lowest(x.dtype))
    win = _windows(xp, kernel, stride, dilation, out)
    window_dims = tuple(range(-nd, 0))
    values = win.amax(window_dims)
    if not return_indices:
        return values[0] if added else values
    # Each window's place of its maximum among the input's own places (a
    # window of -inf does not pick padding): PyTorch's loop keeps the first
    # maximum and the last NaN.
    real = _windows(_pad_spatial(x.new_ones(x.shape, dtype=np.bool_), pads, False),
                    kernel, stride, dilation, out)
    m = values.reshape(list(values.shape) + [1] * nd)
    hit = (win == m) | (win.isnan() & m.isnan()) if x.dtype.kind == "f" else win == m
    hit = (hit & real).reshape(list(values.shape) + [math.prod(kernel)])
    first = _first_or_last_nan(hit, values)
    # A window wholly in the padding (possible with a dilation) picks, as
    # PyTorch's loop, the first place it visits at or past 0 in each dimension.
    entry = np.zeros(out, np.int64)
    for i, (k, s, p, d, o) in enumerate(zip(kernel, stride, padding, dilation, out)):
        skipped = -(-np.maximum(p - np.arange(o) * s, 0) // d)
        entry = entry * k + skipped.reshape([o if j == i else 1 for j in range(nd)])
    first = first.where(hit.any(-1), _on(x, entry))
    flat = None
    remaining = first
    coords = []
    for k in reversed(kernel):
        coords.append(remaining % k)
        remaining = remaining // k
    coords.reverse()
    for i, (k_i, s, p, d, length) in enumerate(zip(coords, stride, padding, dilation, x.shape[-nd:])):
        shape = [1] * (values.ndim - nd) + [out[i] if j == i else 1 for j in range(nd)]
        starts = _on(x, (np.arange(out[i], dtype=np.int64) * s - p).reshape(shape))
        place = starts + k_i * d
        flat = place if flat is None else flat * length + place
    return (values[0], flat[0]) if added else (values, flat)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """`max_pool1d(input, kernel_size, stride=kernel_size, padding=0,
    dilation=1, ceil_mode=False, return_indices=False)`: the maximum of each
    window of `[N, C, L]` (or `[C, L]`), padding counting as -inf; with
    `return_indices`, also each maximum's place along `L` (int64)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1, "max_pool1d")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """`max_pool2d(...)`: as `max_pool1d` over `[N, C, H, W]`; indices are
    places in each `H x W` plane."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2, "max_pool2d")


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """`max_pool3d(...)`: as `max_pool1d` over `[N, C, D, H, W]`."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3, "max_pool3d")


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, nd, fn):
    _floats(input, fn)
    x, added = _unbatched(input, nd, fn)
    kernel, stride, dilation, padding, out, pads = _pool_geometry(
        x, nd, kernel_size, stride, padding, 1, ceil_mode, fn)
    if nd == 3 and any(n < k for n, k in zip(x.shape[-3:], kernel)):
        # PyTorch's avg_pool3d (not its 1-d and 2-d pools): no padding makes up for it
        raise ArgumentError(f"{fn}: input {tuple(x.shape[-3:])} is smaller than the kernel {tuple(kernel)}")
    sums = _windows(_pad_spatial(_widened(x), pads), kernel, stride, dilation, out).sum(tuple(range(-nd, 0)))
    if divisor_override is not None:
        if divisor_override == 0:
            raise ArgumentError(f"{fn}: divisor_override must not be 0")
        y = sums / divisor_override
    else:
        # Each window's divisor: its places inside the input (and, with
        # count_include_pad, inside the padding), not those past it.
        count = np.ones(1)
        for n, k, s, p, (lo, hi), m in zip(x.shape[-nd:], kernel, stride, padding, pads, out):
            inside = np.zeros(n + lo + hi)
            inside[lo - p if count_include_pad else lo:lo + n + (p if count_include_pad else 0)] = 1
            per = np.array([inside[i * s:i * s + k].sum() for i in range(m)])
            count = np.multiply.outer(count, per)
        y = sums / _on(x, count.reshape(out).astype(sums.dtype))
    y = y.astype(x.dtype, copy=False)
    return y[0] if added else y


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """`avg_pool1d(input, kernel_size, stride=kernel_size, padding=0,
    ceil_mode=False, count_include_pad=True)`: the mean of each window of
    `[N, C, L]` (or `[C, L]`), padding counting as 0 and, with
    `count_include_pad`, in the divisor."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1, "avg_pool1d")


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """`avg_pool2d(...)`: as `avg_pool1d` over `[N, C, H, W]`; a
    `divisor_override` replaces each window's divisor."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2,
                     "avg_pool2d")


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """`avg_pool3d(...)`: as `avg_pool2d` over `[N, C, D, H, W]`."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3,
                     "avg_pool3d")


def _adaptive_windows(n, m):
    """PyTorch's adaptive windows of ``m`` outputs over ``n`` places: the
    places of each (padded with its last place to the longest) and lengths."""
    starts = (np.arange(m) * n) // m
    ends = -((-(np.arange(m) + 1) * n) // m)
    lengths = ends - starts
    longest = int(lengths.max())
    offsets = np.arange(longest)
    places = starts[:, None] + np.minimum(offsets[None, :], lengths[:, None] - 1)
    return places.astype(np.int64), lengths, offsets[None, :] < lengths[:, None]


def _adaptive_sizes(x, output_size, nd, fn):
    """The output's `nd` spatial lengths (`None` keeps the input's), checked."""
    sizes = [output_size] * nd if isinstance(output_size, numbers.Integral) or output_size is None \
        else list(output_size)
    if len(sizes) == 1:
        sizes = sizes * nd
    if len(sizes) != nd:
        raise ArgumentError(f"{fn}: output_size must be an int or {nd} ints, not {output_size}")
    out = []
    for i, m in enumerate(sizes):
        d = x.ndim - nd + i
        n = x.shape[d]
        m = n if m is None else m
        if not isinstance(m, numbers.Integral) or m < 0:
            raise ArgumentError(f"{fn}: output sizes must be non-negative ints, not {output_size}")
        if n == 0:
            raise ArgumentError(f"{fn}: dimension {d} of length 0 cannot pool to {m}")
        out.append(int(m))
    return out


def _empty_pool(x, sizes, added, nd):
    """The pool of an output size 0 (PyTorch's: an empty result)."""
    out = _silt.zeros(tuple(x.shape[:x.ndim - nd]) + tuple(sizes), dtype=x.dtype, device=x.device)
    return out[0] if added else out


def _adaptive(input, output_size, nd, fn, reduce):
    _tensor(input, fn)
    x, added = _unbatched(input, nd, fn)
    sizes = _adaptive_sizes(x, output_size, nd, fn)
    if 0 in sizes:
        return _empty_pool(x, sizes, added, nd)
    changed = False
    for i, m in enumerate(sizes):
        d = x.ndim - nd + i
        n = x.shape[d]
        if m == n:
            continue
        changed = True
        places, lengths, valid = _adaptive_windows(n, m)
        k = places.shape[1]
        picked = x.index_select(d, _on(x, places.reshape(-1)))
        picked = picked.reshape(list(x.shape[:d]) + [m, k] + list(x.shape[d + 1:]))
        mask_shape = [1] * d + [m, k] + [1] * (x.ndim - d - 1)
        kept_shape = mask_shape[:d + 1] + mask_shape[d + 2:]
        x = reduce(picked, d + 1, _on(x, valid.reshape(mask_shape)), _on(x, lengths.reshape(kept_shape)))
    if not changed:
        x = x.clone()
    return x[0] if added else x


def _mean_reduce(picked, d, valid, lengths):
    wide = _widened(picked)
    return (wide.where(valid, 0).sum(d) / lengths.astype(wide.dtype)).astype(picked.dtype, copy=False)


def _max_reduce(picked, d, valid, lengths):
    return picked.amax(d)  # the padding repeats a window's own last place


def adaptive_avg_pool1d(input, output_size):
    """`adaptive_avg_pool1d(input, output_size)`: the means of `output_size`
    windows of `[N, C, L]`, window `i` over `[floor(i L / m), ceil((i + 1) L / m))`."""
    _floats(input, "adaptive_avg_pool1d")
    return _adaptive(input, output_size, 1, "adaptive_avg_pool1d", _mean_reduce)


def adaptive_avg_pool2d(input, output_size):
    """`adaptive_avg_pool2d(input, output_size)`: as `adaptive_avg_pool1d`
    along `H` and `W` (`None` keeps a size)."""
    _floats(input, "adaptive_avg_pool2d")
    return _adaptive(input, output_size, 2, "adaptive_avg_pool2d", _mean_reduce)


def adaptive_avg_pool3d(input, output_size):
    """`adaptive_avg_pool3d(input, output_size)`: as `adaptive_avg_pool1d`
    along `D`, `H` and `W`."""
    _floats(input, "adaptive_avg_pool3d")
    return _adaptive(input, output_size, 3, "adaptive_avg_pool3d", _mean_reduce)


def _adaptive_max_indices(input, output_size, nd, fn):
    """`adaptive_max_pool` with indices: each window's places gathered whole
    (along each dimension in turn, then side by side), the maximum and the
    place PyTorch's loop picks (the first maximum, the last NaN), as a place
    in the input's spatial plane."""
    _tensor(input, fn)
    x, added = _unbatched(input, nd, fn)
    sizes = _adaptive_sizes(x, output_size, nd, fn)
    if 0 in sizes:
        values = _empty_pool(x, sizes, added, nd)
        return values, values.astype(np.int64)
    lead = x.ndim - nd
    spatial = list(x.shape[lead:])
    win, tables = x, []
    for i, (n, m) in enumerate(zip(spatial, sizes)):
        places = _adaptive_windows(n, m)[0]
        k = places.shape[1]
        d = lead + 2 * i  # each earlier dimension became (outputs, window)
        win = win.index_select(d, _on(x, places.reshape(-1)))
        win = win.reshape(list(win.shape[:d]) + [m, k] + list(win.shape[d + 1:]))
        tables.append(places)
    order = list(range(lead)) + [lead + 2 * i for i in range(nd)] + [lead + 2 * i + 1 for i in range(nd)]
    win = win.permute(*order)
    window = math.prod(places.shape[1] for places in tables)
    win = win.reshape(list(win.shape[:lead + nd]) + [window])
    values = win.amax(-1)
    # A shape-only table of each output's window places, flat in the plane
    # (a window shorter than the longest repeats its last place, which
    # changes neither its first maximum nor its last NaN's place).
    flat = np.zeros([1] * (2 * nd), np.int64)
    for i, places in enumerate(tables):
        shape = [1] * (2 * nd)
        shape[i], shape[nd + i] = places.shape
        flat = flat * spatial[i] + places.reshape(shape)
    flat = flat.reshape(list(sizes) + [window])
    m = values.unsqueeze(-1)
    hit = (win == m) | (win.isnan() & m.isnan()) if x.dtype.kind == "f" else win == m
    pick = _first_or_last_nan(hit, values)
    table = _on(x, flat.reshape([1] * lead + list(flat.shape)))
    indices = table.take_along_dim(pick.unsqueeze(-1), -1).squeeze(-1)
    return (values[0], indices[0]) if added else (values, indices)


def _adaptive_max(input, output_size, return_indices, nd, fn):
    if return_indices:
        return _adaptive_max_indices(input, output_size, nd, fn)
    return _adaptive(input, output_size, nd, fn, _max_reduce)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """`adaptive_max_pool1d(input, output_size, return_indices=False)`: the
    maxima of the windows of `adaptive_avg_pool1d` (NaN if a window holds
    one); with `return_indices`, also each maximum's place along `L` (int64;
    the first maximum, or the last NaN, as PyTorch's)."""
    return _adaptive_max(input, output_size, return_indices, 1, "adaptive_max_pool1d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """`adaptive_max_pool2d(input, output_size, return_indices=False)`: as
    `adaptive_max_pool1d` along `H` and `W`; indices are places in each
    `H x W` plane."""
    return _adaptive_max(input, output_size, return_indices, 2, "adaptive_max_pool2d")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """`adaptive_max_pool3d(input, output_size, return_indices=False)`: as
    `adaptive_max_pool1d` along `D`, `H` and `W`."""
    return _adaptive_max(input, output_size, return_indices, 3, "adaptive_max_pool3d")

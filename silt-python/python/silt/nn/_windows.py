"""``silt.nn.functional``'s padding, convolutions (as one ``matmul`` over a
strided view of windows), ``unfold``, pixel shuffles and ``interpolate``."""

import math
import numbers

import numpy as np

from .. import _silt
from .._silt import ArgumentError
from ._args import _channel_shape, _floats, _ints, _is_int, _on, _same_dtype, _tensor, _unbatched, _widened


# ---- padding ---------------------------------------------------------------------

def _source_places(n, lo, hi, mode):
    """The source index of each place of a dimension of length ``n`` padded
    by ``lo`` and ``hi`` in ``mode``."""
    places = np.arange(-lo, n + hi, dtype=np.int64)
    if mode == "replicate":
        return np.clip(places, 0, n - 1)
    if mode == "circular":
        # PyTorch's: a negative amount cuts first, the rest wraps around what is left
        if n + lo + hi == 0:
            return places  # nothing left
        cut = max(-lo, 0)
        kept = n - cut - max(-hi, 0)
        return cut + np.arange(-max(lo, 0), kept + max(hi, 0), dtype=np.int64) % kept
    if n == 1:
        return np.zeros_like(places)
    period = 2 * (n - 1)
    m = places % period
    return np.where(m < n, m, period - m)


def pad(input, pad, mode="constant", value=None):
    """`pad(input, pad, mode='constant', value=None)`: `pad` lists (before,
    after) pairs from the last dimension backwards; a negative amount cuts.
    Modes: `constant` (`value`, 0 by default), `reflect` (mirrored about the
    edge, not repeating it), `replicate` (the edge repeated) and `circular`
    (wrapped around)."""
    _tensor(input, "pad")
    pad = list(pad)
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise ArgumentError(f"pad: {len(pad)} amounts for {input.ndim} dimensions (two a dimension, from the last)")
    if not all(isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in pad):
        raise ArgumentError(f"pad: the amounts must be ints, not {pad}")
    dims = [(input.ndim - 1 - i, int(pad[2 * i]), int(pad[2 * i + 1])) for i in range(len(pad) // 2)]
    shape = list(input.shape)
    for d, lo, hi in dims:
        # the cuts within the dimension, as PyTorch's (a cut past it is an
        # error though padding at the other end would leave a length)
        if shape[d] + lo + hi < 0 or shape[d] + min(lo, 0) + min(hi, 0) < 0:
            raise ArgumentError(f"pad: dimension {d} of length {shape[d]} padded by ({lo}, {hi}) has a negative length")
    if mode == "constant":
        fill = 0 if value is None else value
        out_shape = list(shape)
        src, dst = [slice(None)] * input.ndim, [slice(None)] * input.ndim
        empty = False
        for d, lo, hi in dims:
            out_shape[d] = shape[d] + lo + hi
            start, stop = max(-lo, 0), shape[d] - max(-hi, 0)
            if stop <= start:
                empty = True
                continue
            src[d] = slice(start, stop)
            dst[d] = slice(max(lo, 0), max(lo, 0) + stop - start)
        out = input.new_full(out_shape, fill)
        if not empty and input.numel():
            out[tuple(dst)] = input[tuple(src)]
        return out
    if mode not in ("reflect", "replicate", "circular"):
        raise ArgumentError(f"pad: mode must be 'constant', 'reflect', 'replicate' or 'circular', not {mode!r}")
    if value not in (None, 0):
        raise ArgumentError(f"pad: mode {mode!r} takes no value")
    y = input
    for d, lo, hi in dims:
        n = shape[d]
        if lo == 0 and hi == 0:
            continue
        if n == 0:
            raise ArgumentError(f"pad: mode {mode!r} cannot pad dimension {d} of length 0")
        if n + lo + hi == 0 and mode != "circular":
            # PyTorch's: these modes leave something of each dimension (circular may cut it all)
            raise ArgumentError(f"pad: mode {mode!r} needs something left of dimension {d} of length {n} "
                                f"after padding by ({lo}, {hi}), not an empty one")
        if mode == "reflect" and (lo >= n or hi >= n):
            raise ArgumentError(f"pad: reflect needs amounts below the length {n} of dimension {d}, not ({lo}, {hi})")
        if mode == "circular" and (lo > n or hi > n or n + lo + hi > 0 >= n - max(-lo, 0) - max(-hi, 0)):
            raise ArgumentError(f"pad: circular needs amounts up to the length {n} of dimension {d}, "
                                f"and something left after cutting, not ({lo}, {hi})")
        y = y.index_select(d, _on(y, _source_places(n, lo, hi, mode)))
    return y if y is not input else input.clone()


# ---- windows: convolution, unfold, pooling --------------------------------------

def _windows(x, kernel, stride, dilation, out):
    """A view of ``x``'s windows over its last ``len(kernel)`` dimensions:
    ``x.shape[:-nd] + out + kernel``."""
    nd = len(kernel)
    st = list(x.stride())
    lead = list(x.shape[:-nd])
    return x.as_strided(
        lead + list(out) + list(kernel),
        st[:-nd] + [s * t for s, t in zip(stride, st[-nd:])] + [d * t for d, t in zip(dilation, st[-nd:])],
    )


def _conv_padding(padding, kernel, stride, dilation, fn):
    nd = len(kernel)
    if isinstance(padding, str):
        if padding == "valid":
            return [(0, 0)] * nd
        if padding == "same":
            if any(s != 1 for s in stride):
                raise ArgumentError(f"{fn}: padding='same' needs a stride of 1, not {stride}")
            total = [d * (k - 1) for d, k in zip(dilation, kernel)]
            return [(t // 2, t - t // 2) for t in total]
        raise ArgumentError(f"{fn}: padding must be 'valid', 'same' or ints, not {padding!r}")
    return [(p, p) for p in _ints(padding, nd, fn, "padding")]


def _pad_spatial(x, pads, value=0):
    """``x`` padded over its last ``len(pads)`` dimensions by (lo, hi) pairs."""
    if all(lo == 0 and hi == 0 for lo, hi in pads):
        return x
    flat = []
    for lo, hi in reversed(pads):
        flat += [lo, hi]
    return pad(x, flat, "constant", value)


def _out_length(n, k, s, d, fn):
    span = d * (k - 1) + 1
    if n < span:
        raise ArgumentError(f"{fn}: the kernel spans {span} places, more than the (padded) input's {n}")
    return (n - span) // s + 1


def _conv_args(input, weight, bias, groups, nd, fn):
    """The checks every convolution makes; ``input`` with a batch dimension
    and whether one was added."""
    _floats(input, fn)
    _tensor(weight, fn, "weight")
    _same_dtype(input, weight, fn, "weight")
    _same_dtype(input, bias, fn, "bias")
    x, added = _unbatched(input, nd, fn)
    if weight.ndim != nd + 2:
        raise ArgumentError(f"{fn}: weight must have {nd + 2} dimensions, not {weight.ndim}")
    if not _is_int(groups) or groups < 1:
        raise ArgumentError(f"{fn}: groups must be a positive int, not {groups}")
    return x, added


def _conv(input, weight, bias, stride, padding, dilation, groups, nd, fn):
    x, added = _conv_args(input, weight, bias, groups, nd, fn)
    n, c = x.shape[0], x.shape[1]
    o, cg = weight.shape[0], weight.shape[1]
    kernel = tuple(weight.shape[2:])
    if cg * groups != c or o % groups:
        raise ArgumentError(
            f"{fn}: weight {tuple(weight.shape)} with groups={groups} does not fit {c} input channels")
    if bias is not None and tuple(bias.shape) != (o,):
        raise ArgumentError(f"{fn}: bias must have shape ({o},), not {tuple(bias.shape)}")
    stride = _ints(stride, nd, fn, "stride", 1)
    dilation = _ints(dilation, nd, fn, "dilation", 1)
    if any(k == 0 for k in kernel):
        raise ArgumentError(f"{fn}: the kernel {kernel} is empty")
    x = _pad_spatial(x, _conv_padding(padding, kernel, stride, dilation, fn))
    out = [_out_length(L, k, s, d, fn) for L, k, s, d in zip(x.shape[2:], kernel, stride, dilation)]
    # [n, c, *out, *kernel] -> [n, groups, cg, *kernel, *out] -> [n, groups, cg * K, L]
    win = _windows(x, kernel, stride, dilation, out)
    order = [0, 1] + list(range(2 + nd, 2 + 2 * nd)) + list(range(2, 2 + nd))
    cols = win.permute(*order).reshape(n, groups, cg * math.prod(kernel), math.prod(out))
    w = weight.reshape(groups, o // groups, cg * math.prod(kernel))
    y = w.matmul(cols).reshape([n, o] + out)
    if bias is not None:
        y = y + _channel_shape(y, bias)
    return y[0] if added else y


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1,
    groups=1)`: the cross-correlation of `input` (`[N, C, L]` or `[C, L]`)
    with `weight` (`[O, C / groups, k]`); `padding` an int or `'valid'` or
    `'same'`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1,
    groups=1)`: as `conv1d` over `[N, C, H, W]` with `weight` `[O, C /
    groups, kh, kw]`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1,
    groups=1)`: as `conv1d` over `[N, C, D, H, W]`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """`unfold(input, kernel_size, dilation=1, padding=0, stride=1)`: the
    windows of a `[N, C, H, W]` (or `[C, H, W]`) input as columns,
    `[N, C * kh * kw, L]` (im2col)."""
    _tensor(input, "unfold")
    x, added = _unbatched(input, 2, "unfold")
    kernel = _ints(kernel_size, 2, "unfold", "kernel_size", 1)
    dilation = _ints(dilation, 2, "unfold", "dilation", 1)
    stride = _ints(stride, 2, "unfold", "stride", 1)
    pads = [(p, p) for p in _ints(padding, 2, "unfold", "padding")]
    x = _pad_spatial(x, pads)
    out = [_out_length(L, k, s, d, "unfold") for L, k, s, d in zip(x.shape[2:], kernel, stride, dilation)]
    n, c = x.shape[0], x.shape[1]
    cols = _windows(x, kernel, stride, dilation, out).permute(0, 1, 4, 5, 2, 3)
    cols = _fresh(cols.reshape(n, c * math.prod(kernel), math.prod(out)), input)
    return cols[0] if added else cols


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, nd, fn):
    x, added = _conv_args(input, weight, bias, groups, nd, fn)
    c, og = weight.shape[0], weight.shape[1]
    if x.shape[1] != c or c % groups:
        raise ArgumentError(f"{fn}: weight {tuple(weight.shape)} with groups={groups} does not fit "
                            f"{x.shape[1]} input channels")
    o = og * groups
    if bias is not None and tuple(bias.shape) != (o,):
        raise ArgumentError(f"{fn}: bias must have shape ({o},), not {tuple(bias.shape)}")
    kernel = tuple(weight.shape[2:])
    stride = _ints(stride, nd, fn, "stride", 1)
    padding = _ints(padding, nd, fn, "padding")
    output_padding = _ints(output_padding, nd, fn, "output_padding")
    dilation = _ints(dilation, nd, fn, "dilation", 1)
    if any(op >= max(s, d) for op, s, d in zip(output_padding, stride, dilation)):
        raise ArgumentError(f"{fn}: output_padding {output_padding} must be below the stride or the dilation")
    if any(L == 0 for L in x.shape[2:]):
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} has an empty spatial dimension")
    out = [(L - 1) * s - 2 * p + d * (k - 1) + op + 1
           for L, s, p, d, k, op in zip(x.shape[2:], stride, padding, dilation, kernel, output_padding)]
    if any(m < 0 for m in out):
        raise ArgumentError(f"{fn}: the output would have the size {out}")
    n = x.shape[0]
    if 0 in out:
        # an output of no elements, as PyTorch's CPU kernels give it
        y = _silt.zeros([n, og * groups] + out, dtype=x.dtype, device=x.device)
        return y[0] if added else y
    # col2im, as PyTorch's: each input place times the weights gives the
    # columns (one matmul a group), added into the padded output where each
    # kernel place of each input place lands (`scatter_add` in the columns'
    # order); nothing is multiplied by an inserted zero (an inf weight stays
    # inf where PyTorch's does)
    cg = c // groups
    spatial = list(x.shape[2:])
    L, K = math.prod(spatial), math.prod(kernel)
    padded = [m + 2 * p for m, p in zip(out, padding)]
    # (float16 summed in float32, rounded once, as the convolutions)
    w = _widened(weight).reshape(groups, cg, og * K).transpose(1, 2)  # [groups, og K, cg]
    cols = w.matmul(_widened(x).reshape(n, groups, cg, L))            # [n, groups, og K, L]
    cols = cols.reshape(n, o, K * L)
    # the padded output's flat place of each (kernel place, input place)
    table = np.zeros([1] * (2 * nd), np.int64)
    for d in range(nd):
        shape = [1] * (2 * nd)
        shape[d], shape[nd + d] = kernel[d], spatial[d]
        place = (np.arange(spatial[d])[None, :] * stride[d] + np.arange(kernel[d])[:, None] * dilation[d])
        table = table * padded[d] + place.reshape(shape)
    index = _on(x, np.broadcast_to(table.reshape(1, 1, K * L), (n, o, K * L)))
    y = _silt.zeros((n, o, math.prod(padded)), dtype=cols.dtype, device=x.device)
    y = y.scatter_add(2, index, cols).reshape([n, o] + padded)
    y = y[(slice(None), slice(None)) + tuple(slice(p, p + m) for p, m in zip(padding, out))]
    if bias is not None:
        y = y + bias.reshape([o] + [1] * nd)
    y = y.contiguous().astype(x.dtype, copy=False)
    return y[0] if added else y


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`conv_transpose1d(input, weight, bias=None, stride=1, padding=0,
    output_padding=0, groups=1, dilation=1)`: the transposed convolution
    (the gradient of `conv1d` by its input) of `[N, C, L]` with `weight`
    `[C, O / groups, k]`: output length `(L - 1) stride - 2 padding +
    dilation (k - 1) + output_padding + 1`."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`conv_transpose2d(...)`: as `conv_transpose1d` over `[N, C, H, W]`."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`conv_transpose3d(...)`: as `conv_transpose1d` over `[N, C, D, H, W]`."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                           "conv_transpose3d")


def _fresh(y, input):
    """``y`` in memory of its own: a reshape that could view ``input`` copied,
    as PyTorch's shuffles always write a new tensor."""
    return y.clone() if y.shares_storage(input) else y


def pixel_shuffle(input, upscale_factor):
    """`pixel_shuffle(input, upscale_factor)`: `[*, C r², H, W]` rearranged to
    `[*, C, H r, W r]`."""
    _tensor(input, "pixel_shuffle")
    r = upscale_factor
    if not _is_int(r) or r < 1:
        raise ArgumentError(f"pixel_shuffle: upscale_factor must be a positive int, not {r}")
    if input.ndim < 3 or input.shape[-3] % (r * r):
        raise ArgumentError(f"pixel_shuffle: input {tuple(input.shape)} needs at least 3 dimensions and "
                            f"channels divisible by {r * r}")
    *lead, c, h, w = input.shape
    x = input.reshape(list(lead) + [c // (r * r), r, r, h, w])
    k = len(lead)
    x = x.permute(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    return _fresh(x.reshape(list(lead) + [c // (r * r), h * r, w * r]), input)


def pixel_unshuffle(input, downscale_factor):
    """`pixel_unshuffle(input, downscale_factor)`: `[*, C, H r, W r]`
    rearranged to `[*, C r², H, W]` (`pixel_shuffle` undone)."""
    _tensor(input, "pixel_unshuffle")
    r = downscale_factor
    if not _is_int(r) or r < 1:
        raise ArgumentError(f"pixel_unshuffle: downscale_factor must be a positive int, not {r}")
    if input.ndim < 3 or input.shape[-2] % r or input.shape[-1] % r:
        raise ArgumentError(f"pixel_unshuffle: input {tuple(input.shape)} needs at least 3 dimensions and "
                            f"a height and width divisible by {r}")
    *lead, c, h, w = input.shape
    x = input.reshape(list(lead) + [c, h // r, r, w // r, r])
    k = len(lead)
    x = x.permute(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return _fresh(x.reshape(list(lead) + [c * r * r, h // r, w // r]), input)

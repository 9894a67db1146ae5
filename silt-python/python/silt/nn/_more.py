"""More of ``torch.nn.functional``, built on the others and on silt's
indexing: ``embedding_bag`` (``index_add``, ``scatter_reduce``), ``fold``
(col2im by ``scatter_add``), ``max_unpool*`` (``scatter``), ``lp_pool*``,
``local_response_norm``, ``channel_shuffle``, ``pdist``, ``bilinear``,
the ``upsample*`` aliases of ``interpolate``, the margin losses
``multi_margin_loss``, ``multilabel_margin_loss`` and
``triplet_margin_with_distance_loss``, and ``affine_grid`` with
``grid_sample`` (neighbours gathered on the device)."""

import math

import numpy as np

from .. import _silt
from .._silt import ArgumentError, DTypeError
from ._args import (
    _floats, _ints, _legacy_reduction, _on, _reduced, _same_dtype, _tensor, _unbatched, _widened,
)
from ._losses import pairwise_distance
from ._pools import avg_pool1d, avg_pool2d, avg_pool3d, max_pool1d, max_pool2d, max_pool3d
from ._resample import _cubic_weights, interpolate
from ._layers import embedding


# ---- embedding_bag -------------------------------------------------------------

def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """`embedding_bag(input, weight, offsets=None, max_norm=None,
    norm_type=2, ..., mode='mean', per_sample_weights=None,
    include_last_offset=False, padding_idx=None)`: the rows of `weight`
    at the indices of each bag combined by `mode` (`'sum'`, `'mean'`,
    `'max'`), `[bags, embedding_dim]`. A 2-d `input` is a bag a row; a 1-d
    one is cut into bags at `offsets` (the last one the end with
    `include_last_offset`). `per_sample_weights` scale the rows (`'sum'`
    only); indices equal to `padding_idx` are left out (and out of the
    mean's count); an empty bag gives zeros. Sums add in order of the
    indices' places, as PyTorch's CPU does."""
    fn = "embedding_bag"
    _tensor(input, fn)
    _floats(weight, fn, "weight")
    if mode not in ("sum", "mean", "max"):
        raise ArgumentError(f"{fn}: mode must be 'sum', 'mean' or 'max', not {mode!r}")
    if input.ndim == 2:
        if offsets is not None:
            raise ArgumentError(f"{fn}: offsets must be None for a 2-d input")
        bags, length = input.shape
        bag_of = np.repeat(np.arange(bags), length)
    elif input.ndim == 1:
        if offsets is None:
            raise ArgumentError(f"{fn}: a 1-d input needs offsets")
        starts = (offsets.numpy() if isinstance(offsets, _silt.Tensor) else np.asarray(offsets)).astype(np.int64)
        if starts.ndim != 1 or (starts.size and starts[0] != 0) or np.any(np.diff(starts) < 0) \
                or (starts.size and starts[-1] > input.shape[0]):
            raise ArgumentError(f"{fn}: offsets must rise from 0 to at most the input's length")
        if include_last_offset:
            if starts.size == 0:
                raise ArgumentError(f"{fn}: include_last_offset needs at least one offset")
            ends = starts[1:]
            starts = starts[:-1]
        else:
            ends = np.append(starts[1:], input.shape[0])
        bags = starts.size
        bag_of = np.repeat(np.arange(bags), ends - starts)
        # tokens past the last bag (include_last_offset with a short end)
        input = input[: int(ends[-1])] if bags else input[:0]
    else:
        raise ArgumentError(f"{fn}: input must be 1-d or 2-d, not {input.ndim}-d")
    if per_sample_weights is not None:
        if mode != "sum":
            raise ArgumentError(f"{fn}: per_sample_weights only with mode='sum', not {mode!r}")
        _same_dtype(weight, per_sample_weights, fn, "per_sample_weights")
        if tuple(per_sample_weights.shape) != tuple(input.shape):
            raise ArgumentError(f"{fn}: per_sample_weights must have the input's shape {tuple(input.shape)}")
    tokens = input.reshape(-1)
    keep = np.ones(tokens.numel(), bool)
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise ArgumentError(f"{fn}: padding_idx {padding_idx} is out of range for {weight.shape[0]} rows")
        keep = tokens.numpy() != (padding_idx % weight.shape[0])
    places = np.flatnonzero(keep)
    rows = embedding(tokens[_on(tokens, places)], weight, max_norm=max_norm, norm_type=norm_type)
    bag = _on(weight, bag_of[places])
    dim = weight.shape[1]
    out = _silt.zeros((bags, dim), dtype=weight.dtype, device=weight.device)
    if mode == "max":
        index = bag.unsqueeze(1).broadcast_to((len(places), dim))
        return out.scatter_reduce(0, index, rows, "amax", include_self=False)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.reshape(-1)[_on(tokens, places)].unsqueeze(1)
    out.index_add_(0, bag, rows)
    if mode == "mean":
        count = np.bincount(bag_of[places], minlength=bags).astype(np.float64)
        out = out / _on(out, np.maximum(count, 1).astype(out.dtype).reshape(-1, 1))
    return out


# ---- fold, unpooling, lp pools --------------------------------------------------

def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """`fold(input, output_size, kernel_size, dilation=1, padding=0,
    stride=1)`: the inverse of `unfold` (col2im): the columns of `input`
    (`[N, C * kh * kw, L]` or unbatched) added into an `[N, C, H, W]`
    output where their windows lie, overlaps summed (by `scatter_add`, in
    the order of the columns' elements, as PyTorch's col2im)."""
    fn = "fold"
    _tensor(input, fn)
    x, added = _unbatched(input, 1, fn)
    size = _ints(output_size, 2, fn, "output_size", 1)
    kernel = _ints(kernel_size, 2, fn, "kernel_size", 1)
    dilation = _ints(dilation, 2, fn, "dilation", 1)
    stride = _ints(stride, 2, fn, "stride", 1)
    padding = _ints(padding, 2, fn, "padding")
    padded = [s + 2 * p for s, p in zip(size, padding)]
    blocks = [(P - d * (k - 1) - 1) // st + 1 for P, d, k, st in zip(padded, dilation, kernel, stride)]
    k = math.prod(kernel)
    n, ck, L = x.shape
    if ck % k or L != math.prod(blocks) or min(blocks) < 1:
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} does not fit {math.prod(blocks)} blocks "
                            f"of kernel {kernel} in {tuple(size)}")
    c = ck // k
    # the padded output's flat place of each (kernel place, block)
    ki, kj = np.divmod(np.arange(k), kernel[1])
    bi, bj = np.divmod(np.arange(L), blocks[1])
    rows = bi[None, :] * stride[0] + ki[:, None] * dilation[0]
    cols = bj[None, :] * stride[1] + kj[:, None] * dilation[1]
    table = (rows * padded[1] + cols).reshape(-1)
    index = _on(x, np.broadcast_to(table, (n, c, k * L)))
    out = _silt.zeros((n, c, padded[0] * padded[1]), dtype=x.dtype, device=x.device)
    out = out.scatter_add(2, index, x.reshape(n, c, k * L))
    out = out.reshape(n, c, padded[0], padded[1])
    out = out[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]].contiguous()
    return out[0] if added else out


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, nd, fn):
    _tensor(input, fn)
    _tensor(indices, fn, "indices")
    if indices.dtype != np.int64:
        raise DTypeError(f"{fn}: indices must be int64, not {indices.dtype}")
    if tuple(indices.shape) != tuple(input.shape):
        raise ArgumentError(f"{fn}: indices {tuple(indices.shape)} and input {tuple(input.shape)} differ")
    x, added = _unbatched(input, nd, fn)
    if 0 in input.shape[1:]:  # PyTorch's: only the first dimension may be empty
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} is empty past its first dimension")
    kernel = _ints(kernel_size, nd, fn, "kernel_size", 1)
    stride = kernel if stride is None else _ints(stride, nd, fn, "stride", 1)
    padding = _ints(padding, nd, fn, "padding")
    default = [(L - 1) * s - 2 * p + k for L, s, p, k in zip(x.shape[2:], stride, padding, kernel)]
    if output_size is None:
        out = default
    else:
        out = [int(v) for v in output_size][-nd:]
        if len(out) != nd:
            raise ArgumentError(f"{fn}: output_size must give {nd} spatial sizes")
        # PyTorch's: within a stride of the size the pool's arguments give
        for d, (size, want, s) in enumerate(zip(out, default, stride)):
            if not want - s < size < want + s:
                raise ArgumentError(f"{fn}: output_size {size} of spatial dimension {d} must be between "
                                    f"{want - s} and {want + s}, exclusive")
    n, c = x.shape[0], x.shape[1]
    plane = math.prod(out)
    flat_idx = indices.reshape(n, c, math.prod(x.shape[2:]))
    result = _silt.zeros((n, c, plane), dtype=x.dtype, device=x.device)
    # PyTorch's check: every index within the output plane
    if flat_idx.numel():
        lo, hi = int(flat_idx.min().item()), int(flat_idx.max().item())
        if lo < 0 or hi >= plane:
            raise ArgumentError(f"{fn}: index {lo if lo < 0 else hi} is out of range for an output "
                                f"of {plane} places")
    result.scatter_(2, flat_idx, x.reshape(flat_idx.shape))
    result = result.reshape((n, c) + tuple(out))
    return result[0] if added else result


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """`max_unpool1d(input, indices, kernel_size, stride=None, padding=0,
    output_size=None)`: each value of `input` put at its place in
    `indices` (`max_pool1d`'s, flat within each plane) of a zero output."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1, "max_unpool1d")


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """`max_unpool2d(input, indices, kernel_size, stride=None, padding=0,
    output_size=None)`: as `max_unpool1d`, over two spatial dimensions."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2, "max_unpool2d")


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """`max_unpool3d(input, indices, kernel_size, stride=None, padding=0,
    output_size=None)`: as `max_unpool1d`, over three spatial dimensions."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3, "max_unpool3d")


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd, fn):
    _floats(input, fn)
    kernel = _ints(kernel_size, nd, fn, "kernel_size", 1)
    if norm_type == 0:
        raise ArgumentError(f"{fn}: norm_type must not be 0")
    pool = (max_pool1d, max_pool2d, max_pool3d)[nd - 1]
    # PyTorch's limits: the largest |x| of each window, and the smallest for -inf
    if norm_type == math.inf:
        return pool(input.abs(), kernel, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return -pool(-input.abs(), kernel, stride, 0, 1, ceil_mode)
    avg = (avg_pool1d, avg_pool2d, avg_pool3d)[nd - 1]
    # PyTorch's: the mean of x^p over each window, times its size, to 1/p
    out = avg(input.pow(norm_type), kernel, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(math.prod(kernel)).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """`lp_pool1d(input, norm_type, kernel_size, stride=None,
    ceil_mode=False)`: `(sum of x^p over each window)^(1/p)`, as PyTorch
    computes it (an average pool times the window's size); `p = inf` is
    the largest `|x|` of each window and `-inf` the smallest (PyTorch's
    limits), `p = 0` an error."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1, "lp_pool1d")


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """`lp_pool2d(input, norm_type, kernel_size, stride=None,
    ceil_mode=False)`: as `lp_pool1d`, over two spatial dimensions."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2, "lp_pool2d")


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """`lp_pool3d(input, norm_type, kernel_size, stride=None,
    ceil_mode=False)`: as `lp_pool1d`, over three spatial dimensions."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3, "lp_pool3d")


# ---- channels -------------------------------------------------------------------

def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """`local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0)`:
    each element over `(k + alpha * mean of the squares of the `size`
    channels around it)^beta` (the window zero-padded: `size // 2` before,
    `(size - 1) // 2` after, as PyTorch's)."""
    fn = "local_response_norm"
    _floats(input, fn)
    if input.ndim < 3:
        raise ArgumentError(f"{fn}: input must have at least 3 dimensions, not {input.ndim}")
    if size < 1:
        raise ArgumentError(f"{fn}: size must be at least 1, not {size}")
    x = _widened(input)
    sq = x * x
    c = x.shape[1]
    before, after = size // 2, (size - 1) // 2
    shape = list(sq.shape)
    padded = _silt.zeros(tuple(shape[:1] + [c + before + after] + shape[2:]), dtype=sq.dtype,
                         device=sq.device)
    padded[:, before:before + c] = sq
    acc = padded.narrow(1, 0, c)
    for j in range(1, size):
        acc = acc + padded.narrow(1, j, c)
    div = (acc / size * alpha + k).pow(beta)
    return (x / div).astype(input.dtype, copy=False)


def channel_shuffle(input, groups):
    """`channel_shuffle(input, groups)`: the channels of `[N, C, *]`
    regrouped: `C = g * m` read as `[g, m]` and written as `[m, g]`."""
    fn = "channel_shuffle"
    _tensor(input, fn)
    if input.ndim < 3:
        raise ArgumentError(f"{fn}: input must have at least 3 dimensions, not {input.ndim}")
    c = input.shape[1]
    if groups < 1 or c % groups:
        raise ArgumentError(f"{fn}: {c} channels are not {groups} groups")
    n, rest = input.shape[0], tuple(input.shape[2:])
    from ._windows import _fresh
    x = input.reshape((n, groups, c // groups) + rest).transpose(1, 2)
    return _fresh(x.contiguous().reshape((n, c) + rest), input)


# ---- distances, bilinear, upsampling ----------------------------------------------

def pdist(input, p=2):
    """`pdist(input, p=2)`: the `p`-norm distance between every pair of
    rows `i < j` of `[N, M]`, in row-major order of the pairs (`N (N - 1) /
    2` of them), from the rows' differences."""
    fn = "pdist"
    _floats(input, fn)
    if input.ndim != 2:
        raise ArgumentError(f"{fn}: input must be 2-d, not {input.ndim}-d")
    from .._functions import cdist, triu_indices
    d = cdist(input, input, p, compute_mode="donot_use_mm_for_euclid_dist")
    ij = triu_indices(input.shape[0], input.shape[0], 1, device=input.device)
    return d[ij[0], ij[1]]


def bilinear(input1, input2, weight, bias=None):
    """`bilinear(input1, input2, weight, bias=None)`: `y[..., o] = x1[...,
    :] @ weight[o] @ x2[..., :] + bias[o]` (`weight` `[out, in1, in2]`)."""
    fn = "bilinear"
    _floats(input1, fn, "input1")
    _same_dtype(input1, input2, fn, "input2")
    _same_dtype(input1, weight, fn, "weight")
    if weight.ndim != 3 or input1.shape[-1] != weight.shape[1] or input2.shape[-1] != weight.shape[2]:
        raise ArgumentError(f"{fn}: weight {tuple(weight.shape)} does not fit inputs "
                            f"{tuple(input1.shape)} and {tuple(input2.shape)}")
    from .._einsum import einsum
    y = einsum("...i,oij,...j->...o", input1, weight, input2)
    if bias is not None:
        _same_dtype(input1, bias, fn, "bias")
        y = y + bias
    return y


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """`upsample(input, size=None, scale_factor=None, mode='nearest',
    align_corners=None)`: `interpolate` (PyTorch's deprecated name)."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """`upsample_nearest(input, size=None, scale_factor=None)`:
    `interpolate(mode='nearest')`."""
    return interpolate(input, size, scale_factor, "nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """`upsample_bilinear(input, size=None, scale_factor=None)`:
    `interpolate(mode='bilinear', align_corners=True)`."""
    return interpolate(input, size, scale_factor, "bilinear", True)


# ---- margin losses ---------------------------------------------------------------

def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """`multi_margin_loss(input, target, p=1, margin=1.0, weight=None,
    reduction='mean')`: for each sample (`input` `[N, C]` or `[C]`, `target`
    class indices, 0-d or 1-d), `sum over i != y of max(0, margin - x[y] +
    x[i])^p * weight[y] / C`, in the target's shape."""
    fn = "multi_margin_loss"
    _floats(input, fn)
    if p not in (1, 2):
        raise ArgumentError(f"{fn}: p must be 1 or 2, not {p}")
    x = input.unsqueeze(0) if input.ndim == 1 else input
    if x.ndim != 2:
        raise ArgumentError(f"{fn}: input must be 1-d or 2-d, not {input.ndim}-d")
    n, c = x.shape
    _tensor(target, fn, "target")
    if target.ndim > 1 or target.numel() != n or target.dtype.kind not in "iu":
        raise ArgumentError(f"{fn}: target must be 0-d or 1-d and hold {n} class indices, "
                            f"not {tuple(target.shape)} {target.dtype}")
    t = target.reshape(-1)
    if n and (int(t.min().item()) < 0 or int(t.max().item()) >= c):
        raise ArgumentError(f"{fn}: a target is outside 0..{c}")
    t = t.astype(np.int64)
    xy = x.gather(1, t.unsqueeze(1))
    # PyTorch's loop: `z = margin - x[y] + x[i]` counted where `z > 0` (not
    # NaN); the others are left out (selected, not times 0: infinities)
    z = (margin - xy) + x
    term = z if p == 1 else z * z
    if weight is not None:
        _same_dtype(x, weight, fn, "weight")
        term = term * weight[t].unsqueeze(1)
    counted = _on(x, np.ones((n, c), bool)).scatter(1, t.unsqueeze(1), False) & (z > 0)
    # one loss a target, in the target's shape (as PyTorch's)
    loss = (term.where(counted, 0.0).sum(1) / c).reshape(tuple(target.shape))
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """`multilabel_margin_loss(input, target, reduction='mean')`: for each
    sample, `sum over j in the targets and i not in them of max(0, 1 -
    (x[j] - x[i])) / C`; `target` lists class indices, ended by the first
    -1 (read back from the device, as PyTorch's loop reads it), a class
    listed twice counting twice; every entry must be in [-1, C - 1]."""
    fn = "multilabel_margin_loss"
    _floats(input, fn)
    x = input.unsqueeze(0) if input.ndim == 1 else input
    if x.ndim != 2:
        raise ArgumentError(f"{fn}: input must be 1-d or 2-d, not {input.ndim}-d")
    n, c = x.shape
    t = _tensor(target, fn, "target")
    t = (t.unsqueeze(0) if t.ndim == 1 else t).numpy()
    if t.shape != (n, c):
        raise ArgumentError(f"{fn}: target must have the input's shape {tuple(x.shape)}")
    if ((t < -1) | (t >= c)).any():
        raise ArgumentError(f"{fn}: target is out of range: every entry must be in [-1, {c - 1}]")
    # each listed target counts as often as it is listed (PyTorch's loop
    # goes over the list), against each class not listed
    listed = np.zeros((n, c), np.int64)
    for r in range(n):
        for v in t[r]:
            if v < 0:
                break
            listed[r, v] += 1
    pairs = _on(x, (listed[:, :, None] * (listed == 0)[:, None, :]).astype(x.dtype))  # [n, j, i]
    # PyTorch's loop: `z = 1 - x[j] + x[i]` added where `z > 0` (not NaN);
    # the terms not counted are left out (selected, not times 0: infinities)
    z = (1 - x).unsqueeze(2) + x.unsqueeze(1)
    loss = (z * pairs).where((z > 0) & (pairs != 0), 0).sum((1, 2)) / c
    if input.ndim == 1:
        loss = loss.reshape(())
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """`triplet_margin_with_distance_loss(anchor, positive, negative, *,
    distance_function=None, margin=1.0, swap=False, reduction='mean')`:
    `max(0, d(a, p) - d(a, n) + margin)` with `d` the given function
    (`pairwise_distance` by default); with `swap`, `d(a, n)` is the smaller
    of it and `d(p, n)`."""
    fn = "triplet_margin_with_distance_loss"
    if margin <= 0:
        raise ArgumentError(f"{fn}: margin must be positive, not {margin}")
    d = pairwise_distance if distance_function is None else distance_function
    d_ap, d_an = d(anchor, positive), d(anchor, negative)
    if swap:
        d_an = d_an.minimum(d(positive, negative))
    return _reduced((d_ap - d_an + margin).clamp_min(0), reduction, fn)


# ---- affine_grid, grid_sample ----------------------------------------------------

def _base_line(n, align_corners, dtype):
    """PyTorch's `linspace_from_neg_one`: `n` places from -1 to 1, drawn in
    by `(n - 1) / n` without `align_corners`."""
    line = np.linspace(-1.0, 1.0, n, dtype=np.float64) if n > 1 else np.zeros(n)
    if not align_corners and n > 1:
        line = line * (n - 1) / n
    return line.astype(dtype)


def affine_grid(theta, size, align_corners=None):
    """`affine_grid(theta, size, align_corners=None)`: the sampling grid of
    the affine maps `theta` (`[N, 2, 3]` for `size` `[N, C, H, W]`, `[N, 3,
    4]` for `[N, C, D, H, W]`): each output place's normalised `(x, y[,
    z], 1)` times `theta` transposed, `[N, H, W, 2]` (`[N, D, H, W, 3]`);
    `align_corners` false by default (the places drawn in by `(n - 1) /
    n`)."""
    fn = "affine_grid"
    _floats(theta, fn, "theta")
    size = [int(v) for v in size]
    nd = len(size) - 2
    if nd not in (2, 3) or tuple(theta.shape) != (size[0], nd, nd + 1):
        raise ArgumentError(f"{fn}: theta {tuple(theta.shape)} does not fit size {size} "
                            "([N, 2, 3] for 4 sizes, [N, 3, 4] for 5)")
    ac = bool(align_corners)
    dt = theta.dtype
    lines = [_base_line(s, ac, dt) for s in reversed(size[2:])]  # x (width) first
    mesh = np.meshgrid(*lines[::-1], indexing="ij")[::-1]  # x, y[, z] over [D,] H, W
    base = np.stack(list(mesh) + [np.ones_like(mesh[0])], -1).reshape(-1, nd + 1)
    grid = _on(theta, base) @ theta.transpose(1, 2)  # [N, places, nd]
    return grid.reshape(tuple([size[0]] + size[2:] + [nd]))


def _unnormalize(coord, size, align_corners):
    """PyTorch's `grid_sampler_unnormalize`: a coordinate normalised to
    [-1, 1] as a place of a dimension of `size`."""
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _padded(x, size, padding_mode, align_corners, nan_place=0):
    """PyTorch's `compute_coordinates`: places clipped to the edges
    (`border`) or reflected and clipped (`reflection`); as they are for
    `zeros`. A NaN place becomes `nan_place` where it is clipped (PyTorch's
    CPU kernels clip NaN to 0 in 2-d, to `size - 1` in 3-d)."""
    if padding_mode == "border":
        x = x.clamp(0, size - 1)
    elif padding_mode == "reflection":
        lo2, hi2 = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if lo2 == hi2:
            x = x * 0
        else:
            low, span = lo2 / 2, (hi2 - lo2) / 2
            d = (x - low).abs()
            extra = d.fmod(span)
            flips = (d / span).floor()
            even = flips.remainder(2) == 0
            x = (extra + low).where(even, span - extra + low)
        x = x.clamp(0, size - 1)
    if padding_mode != "zeros":
        x = x.where(x == x, float(nan_place))
    return x


def _source_index(coord, size, padding_mode, align_corners, nan_place=0):
    """PyTorch's `grid_sampler_compute_source_index`, elementwise: the
    normalised coordinate unnormalised, then clipped (`border`) or
    reflected and clipped (`reflection`)."""
    return _padded(_unnormalize(coord, size, align_corners), size, padding_mode, align_corners, nan_place)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """`grid_sample(input, grid, mode='bilinear', padding_mode='zeros',
    align_corners=None)`: `input` (`[N, C, H, W]`, or `[N, C, D, H, W]`)
    read at the places of `grid` (`[N, Ho, Wo, 2]`, `(x, y)` normalised to
    [-1, 1]; `[N, Do, Ho, Wo, 3]`, `(x, y, z)`), `[N, C, Ho, Wo]` (`[N, C,
    Do, Ho, Wo]`), with PyTorch's coordinates: `mode` `bilinear` (the four
    neighbours weighed, those outside the input counting 0; the eight of
    trilinear for 5-d inputs), `nearest` (rounding half to even) or
    `bicubic` (sixteen neighbours, 64 for 5-d inputs as PyTorch 2.15's, by
    Keys' kernel with `a = -0.75`, each place padded on its own); `padding_mode` `zeros`,
    `border` (places clipped to the edges) or `reflection`;
    `align_corners` false by default. Each neighbour is gathered on the
    device, and the weighed neighbours are summed in PyTorch's order. A NaN
    in `grid` gives what PyTorch's CPU kernels give: where `border` or
    `reflection` clip it, the place 0 (4-d) or the last place (5-d); with
    `zeros`, NaN (`bilinear` and `bicubic` of 4-d inputs) or 0."""
    fn = "grid_sample"
    _floats(input, fn)
    _same_dtype(input, grid, fn, "grid")
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ArgumentError(f"{fn}: mode must be 'bilinear', 'nearest' or 'bicubic', not {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ArgumentError(f"{fn}: padding_mode must be 'zeros', 'border' or 'reflection', not {padding_mode!r}")
    nd = input.ndim - 2
    if (nd not in (2, 3) or grid.ndim != input.ndim or grid.shape[-1] != nd
            or grid.shape[0] != input.shape[0]):
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} and grid {tuple(grid.shape)} are not "
                            "[N, C, H, W] and [N, Ho, Wo, 2], or [N, C, D, H, W] and [N, Do, Ho, Wo, 3]")
    ac = bool(align_corners)
    n, c = input.shape[:2]
    sizes = tuple(input.shape[2:])  # [D,] H, W
    out_sizes = tuple(grid.shape[1:-1])
    places = math.prod(out_sizes)
    cd = _widened(input).dtype
    g = grid.astype(cd, copy=False)
    # the coordinates in the input's order of dimensions ([z,] y, x): grid's last is x
    coords = [g[..., nd - 1 - k] for k in range(nd)]
    flat = _widened(input).reshape(n, c, math.prod(sizes))

    def read(ps, weight=None):
        """`input` at the integer places `ps` (floats, one a dimension),
        times `weight`; 0 outside, whatever the weight in 3-d, and times
        it in 2-d (a NaN weight gives NaN), as PyTorch's CPU kernels."""
        inside = None
        place = None
        for p, size in zip(ps, sizes):
            fits = (p >= 0) & (p <= size - 1)
            inside = fits if inside is None else inside & fits
            place = p if place is None else place * size + p
        place = place.where(inside, 0.0).astype(np.int64)
        place = place.reshape(n, 1, places).broadcast_to((n, c, places))
        values = flat.gather(2, place).reshape((n, c) + out_sizes)
        if nd == 2:
            values = values.where(inside.unsqueeze(1), 0.0)
        if weight is not None:
            values = values * weight.unsqueeze(1)
        return values if nd == 2 else values.where(inside.unsqueeze(1), 0.0)

    if mode == "bicubic":
        # Keys' kernel along each dimension: the four places of x summed
        # first, then those sums along y (then z), each place padded alone
        at = [_unnormalize(v, s, ac) for v, s in zip(coords, sizes)]
        base = [v.floor() for v in at]
        weights = [[w.unsqueeze(1) for w in _cubic_weights(v - b)] for v, b in zip(at, base)]
        steps = [[_padded(b + (j - 1), s, padding_mode, ac) for j in range(4)] for b, s in zip(base, sizes)]

        def cubic(fixed):
            """The interpolation over the dimensions after those `fixed`."""
            k = len(fixed)
            if k == nd:
                return read(fixed)
            parts = [cubic(fixed + [steps[k][j]]) for j in range(4)]
            w = weights[k]
            return parts[0] * w[0] + parts[1] * w[1] + parts[2] * w[2] + parts[3] * w[3]

        return cubic([]).astype(input.dtype, copy=False)

    src = [_source_index(v, s, padding_mode, ac, 0 if nd == 2 else s - 1) for v, s in zip(coords, sizes)]
    if mode == "nearest":
        return read([v.round() for v in src]).astype(input.dtype, copy=False)
    lo = [v.floor() for v in src]
    hi = [v + 1 for v in lo]
    out = None
    # PyTorch's order: x fastest, then y, then z (nw, ne, sw, se; top, then bottom)
    for corner in range(1 << nd):
        picks = [(corner >> (nd - 1 - k)) & 1 for k in range(nd)]  # bit 0 is x
        ps = [hi[k] if b else lo[k] for k, b in enumerate(picks)]
        weight = None
        for k in reversed(range(nd)):  # x first, then y, then z: PyTorch's products
            f = (src[k] - lo[k]) if picks[k] else (hi[k] - src[k])
            weight = f if weight is None else weight * f
        term = read(ps, weight)
        out = term if out is None else out + term
    return out.astype(input.dtype, copy=False)


# ---- random: alpha dropouts, rrelu, gumbel_softmax --------------------------------

# SELU's negative saturation, -alpha * scale (PyTorch's constant)
_ALPHA = 1.7580993408473766


def _alpha_dropout(input, p, training, inplace, feature, fn):
    from .. import _creation
    from ._args import _in_place
    _floats(input, fn)
    if not 0 <= p <= 1:
        raise ArgumentError(f"{fn}: p must be in [0, 1], not {p}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        return _in_place(input, input * 0, inplace)
    if feature:
        if input.ndim < 2:
            raise ArgumentError(f"{fn}: input must have a channel dimension")
        shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
        noise = (_creation.rand(*shape, dtype=input.dtype, device=input.device) >= p).astype(input.dtype)
    else:
        noise = (_creation.rand_like(input) >= p).astype(input.dtype)
    # PyTorch's: a = 1 / sqrt((alpha^2 p + 1)(1 - p)), b = (noise - 1) alpha a + alpha a p
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = (noise - 1) * (_ALPHA * a) + _ALPHA * a * p
    return _in_place(input, input * (noise * a) + b, inplace)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """`alpha_dropout(input, p=0.5, training=False, inplace=False)`: in
    training, dropout that keeps SELU's mean and variance: each element
    dropped with probability `p` to SELU's saturation, then all scaled and
    shifted (PyTorch's `a` and `b`); `input` itself otherwise."""
    return _alpha_dropout(input, p, training, inplace, False, "alpha_dropout")


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """`feature_alpha_dropout(input, p=0.5, training=False, inplace=False)`:
    `alpha_dropout` of whole channels (one draw per `[N, C]` place)."""
    return _alpha_dropout(input, p, training, inplace, True, "feature_alpha_dropout")


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """`rrelu(input, lower=1/8, upper=1/3, training=False, inplace=False)`:
    negative elements times a slope drawn uniformly from `[lower, upper]`
    for each element in training, `(lower + upper) / 2` otherwise."""
    from .. import _creation
    from ._args import _in_place
    fn = "rrelu"
    _floats(input, fn)
    if lower > upper:
        raise ArgumentError(f"{fn}: need lower <= upper, not {lower} and {upper}")
    if training:
        slope = _creation.rand_like(input) * (upper - lower) + lower
    else:
        slope = (lower + upper) / 2
    y = input.where(input >= 0, input * slope)
    return _in_place(input, y, inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """`rrelu_(input, lower=1/8, upper=1/3, training=False)`: `rrelu`
    written into `input`."""
    return rrelu(input, lower, upper, training, inplace=True)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """`gumbel_softmax(logits, tau=1, hard=False, dim=-1)`: `softmax((logits
    + g) / tau)` along `dim` with `g` Gumbel noise (`-log` of an
    exponential draw); with `hard`, the one-hot of each row's largest, as
    PyTorch returns it (`y_hard - y + y`)."""
    from .. import _creation
    fn = "gumbel_softmax"
    _floats(logits, fn, "logits")
    if tau <= 0:
        raise ArgumentError(f"{fn}: tau must be positive, not {tau}")
    del eps  # PyTorch's argument, unused there too
    draws = _creation.empty(*logits.shape, dtype=logits.dtype, device=logits.device).exponential_()
    y = ((logits - draws.log()) / tau).softmax(dim)
    if not hard:
        return y
    top = y.argmax(dim, keepdim=True)
    one = (y * 0).scatter(dim if dim >= 0 else dim + y.ndim, top, 1.0)
    return one - y + y


# ---- conv_tbc, ctc_loss ------------------------------------------------------------

def conv_tbc(input, weight, bias, pad=0):
    """`conv_tbc(input, weight, bias, pad=0)`: a 1-d convolution of a
    time-batch-channel input (`[T, B, C_in]`, `weight` `[K, C_in, C_out]`,
    `bias` `[C_out]`), padded by `pad` at both ends: `[T + 2 pad - K + 1, B,
    C_out]`, as `conv1d` computes it."""
    from ._windows import conv1d
    fn = "conv_tbc"
    _floats(input, fn)
    _same_dtype(input, weight, fn, "weight")
    _same_dtype(input, bias, fn, "bias")
    if input.ndim != 3 or weight.ndim != 3 or weight.shape[1] != input.shape[2]:
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} and weight {tuple(weight.shape)} are not "
                            "[T, B, C_in] and [K, C_in, C_out]")
    y = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return y.permute(2, 0, 1).contiguous()


def _cat(tensors, dim):
    from .._creation import cat
    return cat(tensors, dim)


def _logsumexp3(a, b, c):
    """`log(exp(a) + exp(b) + exp(c))` elementwise, `-inf` where all are."""
    m = a.maximum(b).maximum(c)
    finite = m != -math.inf
    safe = m.where(finite, 0.0)
    s = (a - safe).exp() + (b - safe).exp() + (c - safe).exp()
    return (s.log() + safe).where(finite, -math.inf)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """`ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
    reduction='mean', zero_infinity=False)`: the connectionist temporal
    classification loss, `-log` of the probability of each target over all
    its alignments (blanks between and around its labels, repeats merged),
    by the forward recursion in log space, one step a time step on the
    device (every sample at once). `log_probs` `[T, N, C]` (or `[T, C]`),
    `targets` `[N, S]` or concatenated 1-d (`sum(target_lengths)` long);
    the lengths are read back, as PyTorch's kernels read them. `'mean'`
    divides each loss by its target's length (at least 1) before the batch
    mean; `zero_infinity` turns impossible alignments' infinite losses into
    0."""
    fn = "ctc_loss"
    _floats(log_probs, fn, "log_probs")
    unbatched = log_probs.ndim == 2
    lp = log_probs.unsqueeze(1) if unbatched else log_probs
    if lp.ndim != 3:
        raise ArgumentError(f"{fn}: log_probs must be [T, N, C] or [T, C], not {tuple(log_probs.shape)}")
    steps, n, classes = lp.shape
    if not 0 <= blank < classes:
        raise ArgumentError(f"{fn}: blank {blank} is not a class of {classes}")

    def host(v, name):
        a = v.numpy() if isinstance(v, _silt.Tensor) else np.asarray(v)
        a = np.atleast_1d(a).astype(np.int64)
        if a.shape != (n,):
            raise ArgumentError(f"{fn}: {name} must hold {n} lengths")
        return a

    t_len, s_len = host(input_lengths, "input_lengths"), host(target_lengths, "target_lengths")
    if (t_len < 0).any() or (t_len > steps).any() or (s_len < 0).any():
        raise ArgumentError(f"{fn}: a length is negative or past the {steps} time steps")
    tg = targets.numpy() if isinstance(targets, _silt.Tensor) else np.asarray(targets)
    tg = tg.astype(np.int64)
    if tg.ndim != 2 and tg.shape != (s_len.sum(),):
        raise ArgumentError(f"{fn}: concatenated targets {tg.shape} must hold sum(target_lengths) = "
                            f"{s_len.sum()} labels")
    rows = []
    at = 0
    for i in range(n):
        if tg.ndim == 2:
            if s_len[i] > tg.shape[1]:
                raise ArgumentError(f"{fn}: target_lengths[{i}] is past the targets' {tg.shape[1]}")
            rows.append(tg[i, : s_len[i]])
        else:
            rows.append(tg[at: at + s_len[i]])
            at += s_len[i]
    if any(((r < 0) | (r >= classes) | (r == blank)).any() for r in rows):
        raise ArgumentError(f"{fn}: a target is outside 0..{classes} or is the blank")
    width = 2 * int(s_len.max(initial=0)) + 1
    ext = np.full((n, width), blank, np.int64)
    skip = np.zeros((n, width), bool)
    for i, r in enumerate(rows):
        ext[i, 1: 2 * len(r): 2] = r
        for s in range(3, 2 * len(r), 2):
            skip[i, s] = ext[i, s] != ext[i, s - 2]
    cd = _widened(lp).dtype
    lpw = lp.astype(cd, copy=False)
    ext_t = _on(lpw, ext)
    skip_t = _on(lpw, skip)
    valid = _on(lpw, np.arange(width)[None, :] < (2 * s_len[:, None] + 1))
    neg = _silt.zeros((n, width), dtype=cd, device=lpw.device) - math.inf
    emit = lpw[0].gather(1, ext_t)
    start = _on(lpw, np.arange(width)[None, :] < np.minimum(2, 2 * s_len[:, None] + 1))
    alpha = emit.where(start & valid, -math.inf)
    for step in range(1, steps):
        prev = alpha
        one = _cat([neg[:, :1], prev[:, :-1]], 1)
        two = _cat([neg[:, :2], prev[:, :-2]], 1).where(skip_t, -math.inf) if width > 2 else neg
        nxt = (_logsumexp3(prev, one, two) + lpw[step].gather(1, ext_t)).where(valid, -math.inf)
        live = _on(lpw, (step < t_len)[:, None])
        alpha = nxt.where(live, prev)
    last = _on(lpw, 2 * s_len)
    end_a = alpha.gather(1, last.unsqueeze(1)).reshape(n)
    before = _on(lpw, np.maximum(2 * s_len - 1, 0))
    end_b = alpha.gather(1, before.unsqueeze(1)).reshape(n).where(_on(lpw, s_len > 0), -math.inf)
    m = end_a.maximum(end_b)
    finite = m != -math.inf
    safe = m.where(finite, 0.0)
    total = (((end_a - safe).exp() + (end_b - safe).exp()).log() + safe).where(finite, -math.inf)
    # no time steps: only an empty target has an alignment (probability 1)
    none = _on(lpw, np.where(s_len == 0, 0.0, math.inf).astype(cd))
    loss = (-total).where(_on(lpw, t_len > 0), none)
    if zero_infinity:
        loss = loss.where(loss != math.inf, 0.0)
    loss = loss.astype(log_probs.dtype, copy=False)
    if reduction == "mean":
        return (loss / _on(loss, np.maximum(s_len, 1).astype(loss.dtype))).mean()
    if unbatched and reduction == "none":
        return loss.reshape(())
    return _reduced(loss, reduction, fn)


# ---- multi_head_attention_forward -----------------------------------------------------

def _mask_as_float(mask, dtype, fn, name):
    """A bool mask (True: left out) as -inf and 0, a float one as it is."""
    _tensor(mask, fn, name)
    if mask.dtype == np.bool_:
        zero = _silt.zeros(tuple(mask.shape), dtype=dtype, device=mask.device)
        return zero.where(mask.logical_not(), -math.inf)
    if mask.dtype.kind != "f":
        raise DTypeError(f"{fn}: {name} must be bool or float, not {mask.dtype}")
    return mask.astype(dtype, copy=False)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight,
                                 out_proj_bias, training=True, key_padding_mask=None, need_weights=True,
                                 attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
                                 average_attn_weights=True, is_causal=False):
    """`multi_head_attention_forward(query, key, value, embed_dim_to_check,
    num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
    dropout_p, out_proj_weight, out_proj_bias, training=True,
    key_padding_mask=None, need_weights=True, attn_mask=None, ...)`: the
    forward pass of `torch.nn.MultiheadAttention` on `[L, N, E]` queries
    and `[S, N, E]` keys and values (or unbatched `[L, E]`): the three
    projections (`in_proj_weight` split in three, or the separate ones),
    `bias_k`/`bias_v` and `add_zero_attn` appended to the keys and values
    (the masks padded), `num_heads` heads of `softmax(q k^T / sqrt(d) +
    masks) v` (a bool mask leaves out where True), the output projection;
    `(output, weights)` with the weights `[N, L, S]` averaged over the heads
    (`[N, H, L, S]` without `average_attn_weights`) or None without
    `need_weights`. `static_k`/`static_v` (`[N * H, S, d]`) replace the
    projected keys and values; `is_causal` without a mask masks `j > i`.
    Without `need_weights` a query whose keys are all masked attends to
    nothing (PyTorch's safe softmax; NaN with the weights, as PyTorch's)."""
    fn = "multi_head_attention_forward"
    _floats(query, fn, "query")
    unbatched = query.ndim == 2
    q_in, k_in, v_in = ((x.unsqueeze(1) if unbatched else x) for x in (query, key, value))
    if q_in.ndim != 3 or k_in.ndim != 3 or v_in.ndim != 3:
        raise ArgumentError(f"{fn}: query, key and value must be [L, N, E] (or all unbatched)")
    tgt, bsz, embed = q_in.shape
    if embed != embed_dim_to_check or embed % num_heads:
        raise ArgumentError(f"{fn}: embedding {embed} is not {embed_dim_to_check} or not "
                            f"{num_heads} heads wide")
    hd = embed // num_heads
    if use_separate_proj_weight:
        ws = (q_proj_weight, k_proj_weight, v_proj_weight)
    else:
        ws = tuple(in_proj_weight[i * embed:(i + 1) * embed] for i in range(3))
    bs = (None, None, None) if in_proj_bias is None else tuple(
        in_proj_bias[i * embed:(i + 1) * embed] for i in range(3))
    from ._layers import dropout, linear
    q = linear(q_in, ws[0], bs[0])
    k = linear(k_in, ws[1], bs[1])
    v = linear(v_in, ws[2], bs[2])
    if key_padding_mask is not None and unbatched:
        key_padding_mask = key_padding_mask.unsqueeze(0)
    if is_causal and attn_mask is None:
        attn_mask = _on(query, np.triu(np.ones((tgt, k_in.shape[0]), np.bool_), 1))
    if attn_mask is not None:
        attn_mask = _mask_as_float(attn_mask, q.dtype, fn, "attn_mask")
        if attn_mask.ndim == 2:
            attn_mask = attn_mask.unsqueeze(0)
    if key_padding_mask is not None:
        key_padding_mask = _mask_as_float(key_padding_mask, q.dtype, fn, "key_padding_mask")

    def zero_column(t, dim):
        """Zeros (False for a bool mask) of `t`'s shape but one place along
        `dim` (made as zeros: `-inf * 0` would be NaN)."""
        shape = list(t.shape)
        shape[dim] = 1
        return _silt.zeros(tuple(shape), dtype=t.dtype, device=t.device)

    def pad_masks():
        nonlocal attn_mask, key_padding_mask
        if attn_mask is not None:
            attn_mask = _cat([attn_mask, zero_column(attn_mask, -1)], -1)
        if key_padding_mask is not None:
            key_padding_mask = _cat([key_padding_mask, zero_column(key_padding_mask, -1)], -1)

    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise ArgumentError(f"{fn}: bias_k and bias_v cannot go with static_k and static_v")
        k = _cat([k, bias_k.reshape(1, 1, embed).broadcast_to((1, bsz, embed))], 0)
        v = _cat([v, bias_v.reshape(1, 1, embed).broadcast_to((1, bsz, embed))], 0)
        pad_masks()
    elif (bias_k is None) != (bias_v is None):
        raise ArgumentError(f"{fn}: give both bias_k and bias_v, or neither")
    heads = bsz * num_heads
    q = q.reshape(tgt, heads, hd).transpose(0, 1)
    k = (static_k if static_k is not None else k.reshape(k.shape[0], heads, hd).transpose(0, 1))
    v = (static_v if static_v is not None else v.reshape(v.shape[0], heads, hd).transpose(0, 1))
    if add_zero_attn:
        k = _cat([k, zero_column(k, 1)], 1)
        v = _cat([v, zero_column(v, 1)], 1)
        pad_masks()
    src = k.shape[1]
    scores = (q * (1.0 / math.sqrt(hd))).matmul(k.transpose(1, 2))  # [N*H, L, S]
    if attn_mask is not None:
        scores = scores + attn_mask
    if key_padding_mask is not None:
        kpm = key_padding_mask.reshape(bsz, 1, 1, src).broadcast_to((bsz, num_heads, 1, src))
        scores = scores + kpm.reshape(heads, 1, src)
    weights = scores.softmax(-1)
    if not need_weights:
        # PyTorch then goes through scaled_dot_product_attention, whose safe
        # softmax has a row masked everywhere attend to nothing (not NaN)
        weights = weights.where((scores.amax(-1, True) == -math.inf).logical_not(), 0)
    if dropout_p > 0 and training:
        weights = dropout(weights, dropout_p)
    out = weights.matmul(v).transpose(0, 1).contiguous().reshape(tgt * bsz, embed)
    out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt, bsz, embed)
    if unbatched:
        out = out.squeeze(1)
    if not need_weights:
        return out, None
    w = weights.reshape(bsz, num_heads, tgt, src)
    if average_attn_weights:
        w = w.mean(1)
    if unbatched:
        w = w.squeeze(0)
    return out, w


# ---- fractional max pools ------------------------------------------------------------

def _fractional_starts(samples, length, kernel, out, dtype):
    """PyTorch's `generate_intervals`: the window starts of each plane along
    one dimension from its sample `u` in [0, 1): `int((i + u) a) - int(u
    a)` with `a = (length - kernel) / (out - 1)`, in the input's float type
    as PyTorch computes them, the last at `length - kernel`."""
    starts = np.empty(samples.shape + (out,), np.int64)
    starts[..., -1] = length - kernel
    if out > 1:
        u = samples.astype(dtype)[..., None]
        alpha = dtype.type(length - kernel) / dtype.type(out - 1)
        i = np.arange(out - 1).astype(dtype)
        starts[..., :-1] = ((i + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    return starts


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, samples, nd, fn):
    from .. import _creation
    from ._pools import _first_or_last_nan
    _tensor(input, fn)
    x, added = _unbatched(input, nd, fn)
    if 0 in input.shape[1:]:  # PyTorch's: only the first dimension may be empty
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} is empty past its first dimension")
    kernel = _ints(kernel_size, nd, fn, "kernel_size", 1)
    lengths = tuple(x.shape[2:])
    if output_size is None:
        if output_ratio is None:
            raise ArgumentError(f"{fn}: give output_size or output_ratio")
        ratio = (output_ratio,) * nd if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
        if len(ratio) != nd or not all(0 < r < 1 for r in ratio):
            raise ArgumentError(f"{fn}: output_ratio must be {nd} numbers in (0, 1), not {output_ratio}")
        out = tuple(int(L * r) for L, r in zip(lengths, ratio))
    else:
        out = _ints(output_size, nd, fn, "output_size", 1)
    # PyTorch's checks: `output + kernel - 1 <= input` in each dimension (2-d),
    # `<` (3-d)
    reach = 0 if nd == 2 else 1
    if any(o + k - 1 + reach > L for o, k, L in zip(out, kernel, lengths)) or min(out) < 1:
        raise ArgumentError(f"{fn}: output {out} with kernel {kernel} does not fit the input's {lengths}")
    n, c = x.shape[0], x.shape[1]
    if samples is None:
        samples = _creation.rand(n, c, nd, dtype=x.dtype, device="host").numpy()
    else:
        samples = samples.numpy() if isinstance(samples, _silt.Tensor) else np.asarray(samples)
        if samples.shape != (n, c, nd):
            raise ArgumentError(f"{fn}: _random_samples must be [{n}, {c}, {nd}]")
    dt = np.dtype(x.dtype)
    # PyTorch's samples per plane: 2-d (W, H), 3-d (T, H, W)
    order = [1, 0] if nd == 2 else [0, 1, 2]
    # flat places of every window's elements, plane by plane: [n, c, out..., kernel...]
    per_dim = []
    for d in range(nd):
        starts = _fractional_starts(samples[..., order[d]], lengths[d], kernel[d], out[d], dt)
        per_dim.append(starts[..., :, None] + np.arange(kernel[d]))  # [n, c, out_d, k_d]
    places = np.zeros((n, c) + out + kernel, np.int64)
    for d in range(nd):
        shape = [n, c] + [1] * nd + [1] * nd
        shape[2 + d], shape[2 + nd + d] = out[d], kernel[d]
        stride = math.prod(lengths[d + 1:])
        places = places + per_dim[d].reshape(shape) * stride
    window = math.prod(kernel)
    flat_places = places.reshape(n, c, math.prod(out) * window)
    values = x.reshape(n, c, math.prod(lengths)).gather(2, _on(x, flat_places)).reshape((n, c) + out + (window,))
    top = values.amax(-1)
    if not return_indices:
        return top[0] if added else top
    hit = (values == top.unsqueeze(-1))
    if x.dtype.kind == "f":
        hit = hit | (values.isnan() & top.isnan().unsqueeze(-1))
    pick = _first_or_last_nan(hit, top)
    index = _on(x, places.reshape((n, c) + out + (window,))).gather(-1, pick.unsqueeze(-1)).squeeze(-1)
    return (top[0], index[0]) if added else (top, index)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """`fractional_max_pool2d(input, kernel_size, output_size=None,
    output_ratio=None, return_indices=False, _random_samples=None)`: max
    pooling over windows at pseudo-random places (Graham's fractional max
    pooling): each plane's window starts drawn from one sample per
    dimension in [0, 1) (`silt.rand`'s generator, or `_random_samples`
    `[N, C, 2]`, the width's first, as PyTorch's) by PyTorch's formula in
    the input's type; the indices flat within each plane, the first maximum
    or the last NaN."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 2, "fractional_max_pool2d")


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """`fractional_max_pool3d(input, kernel_size, output_size=None,
    output_ratio=None, return_indices=False, _random_samples=None)`: as
    `fractional_max_pool2d`, over three spatial dimensions (samples `[N,
    C, 3]` in the order of the dimensions, as PyTorch's)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 3, "fractional_max_pool3d")

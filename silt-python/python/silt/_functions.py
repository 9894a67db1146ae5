"""Functions of PyTorch's ``torch`` namespace: ``silt.NAME(input, ...)`` for
each tensor method PyTorch also has as a function (``METHODS``: ``silt.exp(t)``
is ``t.exp()``, ``silt.add(t, u, alpha=2)`` is ``t.add(u, alpha=2)``),
``where`` with PyTorch's argument order, ``is_tensor``, and the functions
that are not methods: ``searchsorted``, ``bucketize`` (silt-kernels'
``searchsorted``, with PyTorch's promotion of the sequence and the values to
one dtype) and ``isin``."""

import builtins
import math

import numpy as np

from ._silt import ArgumentError, DTypeError, Tensor, tensor, zeros
from ._methods import _correction
from ._operators import _as, _device_of, _is_number, promote, ops

# the tensor methods PyTorch has as functions of `torch`, `input` first
METHODS = (
    # elementwise, one tensor
    "abs absolute acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh "
    "bitwise_not ceil cos cosh deg2rad digamma erf erfc erfinv exp exp2 i0 expm1 fix floor frac isfinite isinf isnan "
    "lgamma log log10 log1p log2 logical_not logit mvlgamma nan_to_num neg negative rad2deg reciprocal relu round "
    "rsqrt selu sgn sigmoid sign signbit sin sinc sinh sqrt square tan tanh trunc "
    # elementwise, two or three
    "add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow "
    "float_power maximum minimum fmax fmin atan2 arctan2 hypot copysign eq ne not_equal lt less le "
    "less_equal gt greater ge greater_equal bitwise_and bitwise_or bitwise_xor bitwise_left_shift "
    "bitwise_right_shift gcd lcm logical_and "
    "logical_or logical_xor heaviside logaddexp logaddexp2 xlogy igamma igammac isclose allclose equal lerp "
    "addcmul addcdiv clamp clip clamp_min clamp_max isposinf isneginf positive is_nonzero is_same_size "
    # reductions and scans
    "sum prod mean amax amin aminmax argmax argmin all any count_nonzero max min std var norm "
    "logsumexp nansum nanmean median nanmedian quantile nanquantile kthvalue cumsum cumprod cummax "
    "cummin logcumsumexp softmax log_softmax trace dist "
    # ordering, products
    "sort argsort msort mode topk unique matmul mm bmm mv dot inner vdot outer ger kron cross addmm addmv "
    "baddbmm addr addbmm multinomial bernoulli "
    # indexing
    "index_select gather scatter scatter_add scatter_reduce take take_along_dim index_fill index_copy index_add index_reduce "
    "masked_fill masked_select put index_put nonzero argwhere bincount histc "
    # views and new tensors
    "reshape flatten unflatten squeeze unsqueeze transpose swapaxes swapdims permute movedim "
    "moveaxis t narrow select split chunk unbind tensor_split hsplit vsplit dsplit masked_scatter diagonal as_strided broadcast_to "
    "clone flip fliplr flipud roll rot90 repeat_interleave tile tril triu diag diag_embed diff "
    "ravel numel detach is_floating_point is_complex"
).split()


def _input(x, rest):
    """`input` as a tensor: itself; a number beside a tensor argument as a
    0-d tensor of the dtype the two promote to, on its device (so that
    `silt.pow(2, t)` is `2 ** t`); anything else as `silt.tensor` makes it,
    on the device of the first tensor argument."""
    if isinstance(x, Tensor):
        return x
    other = next((a for a in rest if isinstance(a, Tensor)), None)
    if other is None:
        return tensor(x)
    if _is_number(x):
        return tensor(_number_as(x, promote(x, other)), device=other.device)
    return tensor(x, device=other.device)


def _number_as(x, dtype):
    """A Python number as a 0-d array of `dtype`; one that does not fit is
    `silt.DTypeError`, as the operators' (`uint8` beside 300)."""
    try:
        with np.errstate(over="raise"):
            return np.asarray(x, dtype=dtype)
    except (OverflowError, FloatingPointError):
        raise DTypeError(f"the number {x!r} does not fit {np.dtype(dtype)}") from None


def _into(name, result, out):
    """PyTorch's `out=`: `result` written into `out` (a tensor, or a tuple
    of them for a tuple of results) and `out` returned. `out` keeps its
    dtype where the result casts to it within its category or up (float
    into float, an integer into a float, never a float into an integer),
    takes the result's shape as `resize_` does (within its storage; one
    with elements warns, as PyTorch's), and lies on the result's device."""
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{name}: out= is a tuple of {len(result)} tensors")
        written = [_into(name, r, o) for r, o in zip(result, out)]
        return type(result)(*written) if hasattr(result, "_fields") else tuple(written)
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}: out= is a silt.Tensor, not {type(out).__name__}")
    if out.device != result.device:
        raise ArgumentError(f"{name}: out= is on {out.device}, the result on {result.device}")
    from ._operators import _CATEGORY
    if _CATEGORY[out.dtype.kind] < _CATEGORY[result.dtype.kind]:
        raise DTypeError(f"{name}: the result's dtype {result.dtype} does not cast to out='s {out.dtype}")
    if tuple(out.shape) != tuple(result.shape):
        if out.numel():
            import warnings
            warnings.warn(f"{name}: out= of shape {tuple(out.shape)} was resized to the result's "
                          f"{tuple(result.shape)}", UserWarning, stacklevel=3)
        out.resize_(tuple(result.shape))
    out.copy_(result)
    return out


def _function(name):
    method = getattr(Tensor, name)

    def function(input, *args, out=None, **kwargs):
        result = method(_input(input, args + tuple(kwargs.values())), *args, **kwargs)
        return result if out is None else _into(name, result, out)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"`silt.{name}(input, ..., out=None)`: `input.{name}(...)` (see `silt.Tensor.{name}`), as "
        f"PyTorch's `torch.{name}`; an `input` that is not a tensor is made one on the "
        "device of the first tensor argument; `out=` takes a copy of the result, as PyTorch's "
        "(see `silt._functions._into`)."
    )
    return function


def where(condition, input=None, other=None, *, out=None):
    """`torch.where(condition, input, other)`: `input` where `condition`
    holds, else `other` (numbers too), promoted to one dtype;
    `where(condition)` alone is `condition.nonzero(as_tuple=True)`; `out=`
    takes a copy of the result."""
    if out is not None:
        return _into("where", where(condition, input, other), out)
    if input is None and other is None:
        return _input(condition, ()).nonzero(as_tuple=True)
    if input is None or other is None:
        raise ArgumentError("where: give both `input` and `other`, or neither")
    if not isinstance(input, Tensor):
        input = _input(input, (other, condition))
    return input.where(condition, other)


def is_tensor(obj):
    """`torch.is_tensor(obj)`: whether `obj` is a `silt.Tensor`."""
    return isinstance(obj, Tensor)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """`torch.searchsorted(sorted_sequence, input, *, out_int32=False,
    right=False, side=None, sorter=None)`: the place of each value of
    `input` in the sorted last dimension of `sorted_sequence`, before equal
    elements (`side='left'`) or after them (`right=True`, `side='right'`),
    int64 (int32 with `out_int32`). `sorted_sequence` is 1-d (a number for
    `input` too), or has `input`'s sizes but the last; `sorter` (int64, of
    the sequence's shape) gives the order of an unsorted sequence. The two
    are promoted to one dtype as PyTorch's binary operations are; a NaN
    value goes after every element."""
    if side is not None:
        if side not in ("left", "right"):
            raise ArgumentError(f"searchsorted: `side` is 'left' or 'right', not {side!r}")
        if right and side == "left":
            raise ArgumentError("searchsorted: `side='left'` and `right=True` are opposites")
        right = side == "right"
    if _is_number(sorted_sequence):
        raise ArgumentError("searchsorted: `sorted_sequence` is a tensor, not a number")
    dtype = promote(sorted_sequence, input)
    device = _device_of(sorted_sequence, input)
    s, v = _as(sorted_sequence, dtype, device), _as(input, dtype, device)
    out = ops.searchsorted(s, v, bool(right), sorter)
    return out.int() if out_int32 else out


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """`torch.bucketize(input, boundaries, *, out_int32=False, right=False)`:
    the bucket of each value of `input` among the sorted 1-d `boundaries`,
    `searchsorted(boundaries, input, right=right)`: with `right` false,
    `boundaries[i - 1] < v <= boundaries[i]`; with `right`,
    `boundaries[i - 1] <= v < boundaries[i]`."""
    nd = boundaries.ndim if isinstance(boundaries, Tensor) else getattr(boundaries, "ndim", 1)
    if nd != 1:
        raise ArgumentError(f"bucketize: `boundaries` must be 1-d, not {nd}-d")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """`torch.isin(elements, test_elements, *, assume_unique=False,
    invert=False)`: whether each element of `elements` is among
    `test_elements` (bool, `elements`' shape; `invert` negates it), on the
    device: the test elements sorted, each element placed among them by
    `searchsorted` and compared with the one found. NaN is in nothing
    (NaN != NaN); `-0.0` is `0.0`. Either may be a number (not both).
    `assume_unique` is taken and changes nothing."""
    del assume_unique
    if _is_number(elements) and _is_number(test_elements):
        raise ArgumentError("isin: `elements` and `test_elements` cannot both be numbers")
    dtype = promote(elements, test_elements)
    device = _device_of(elements, test_elements)
    for side, other in ((elements, test_elements), (test_elements, elements)):
        if _is_number(side) and not _fits(side, dtype):
            # a number no element can equal (PyTorch compares with `eq`)
            e = other if isinstance(other, Tensor) else tensor(np.asarray(other), device=device)
            found = (e != e) & (e == e) if side is test_elements else tensor(False, device=e.device)
            return ~found if invert else found
    e = _as(elements, dtype, device)
    t = _as(test_elements, dtype, device)
    if not isinstance(e, Tensor):
        e = tensor(np.asarray(e, dtype=dtype), device=t.device)
    if not isinstance(t, Tensor):
        t = tensor(np.asarray(t, dtype=dtype), device=e.device)
    if dtype == np.bool_:  # searched as bytes
        e, t = e.byte(), t.byte()
    flat = t.reshape(-1)
    if dtype.kind == "f":
        # NaN equals nothing: out of the sorted list (where it would end
        # the search past the numbers before it)
        flat = flat[~flat.isnan()]
    if flat.numel() == 0:
        found = (e != e) & (e == e)  # false everywhere, e's shape and device
        return ~found if invert else found
    ordered = flat.sort().values
    at = ops.searchsorted(ordered, e).clamp(max=flat.numel() - 1)
    found = ordered.take(at) == e
    return ~found if invert else found


def _fits(x, dtype):
    """Whether the Python number `x` is a value of `dtype`."""
    try:
        with np.errstate(over="raise", invalid="raise"):
            return np.asarray(x, dtype=dtype).item() == x or x != x
    except (OverflowError, FloatingPointError, ValueError):
        return False


# ---- shapes, grids and stacks ------------------------------------------------

def _tensors(args, op):
    """The tensors of a call taking `*tensors` or one sequence of them."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    for t in args:
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}: expected silt.Tensors, got {type(t).__name__}")
    return args


def broadcast_shapes(*shapes):
    """`torch.broadcast_shapes(*shapes)`: the shape the shapes broadcast to
    (a tuple), by NumPy's rules; an int is a 1-d shape."""
    try:
        return tuple(np.broadcast_shapes(*[(s,) if isinstance(s, int) else tuple(s) for s in shapes]))
    except ValueError:
        raise ArgumentError(f"broadcast_shapes: shapes {list(shapes)} do not broadcast") from None


def broadcast_tensors(*tensors):
    """`torch.broadcast_tensors(*tensors)`: each tensor as a view of their
    common broadcast shape (no copy)."""
    ts = _tensors(tensors, "broadcast_tensors")
    shape = broadcast_shapes(*[t.shape for t in ts])
    return tuple(t.broadcast_to(shape) for t in ts)


def meshgrid(*tensors, indexing="ij"):
    """`torch.meshgrid(*tensors, indexing="ij")`: for 0-d or 1-d tensors of
    lengths `n1, n2, ...`, views of shape `(n1, n2, ...)` (`indexing="xy"`:
    the first two lengths swapped), the i-th tensor's values along
    dimension i (no copy)."""
    if indexing not in ("ij", "xy"):
        raise ArgumentError(f"meshgrid: `indexing` is 'ij' or 'xy', not {indexing!r}")
    if not tensors or (len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) and not tensors[0]):
        raise ArgumentError("meshgrid: expects a non-empty list of tensors")
    ts = [t.reshape(-1) if t.ndim == 0 else t for t in _tensors(tensors, "meshgrid")]
    if any(t.ndim != 1 for t in ts):
        raise ArgumentError("meshgrid: the tensors must be 0-d or 1-d")
    if len({t.dtype for t in ts}) > 1 or len({t.device for t in ts}) > 1:
        raise ArgumentError("meshgrid: the tensors must share a dtype and a device")
    swap = indexing == "xy" and len(ts) >= 2
    order = [1, 0] + list(range(2, len(ts))) if swap else list(range(len(ts)))
    shape = tuple(ts[i].shape[0] for i in order)
    out = []
    for i, t in enumerate(ts):
        at = order.index(i)
        view = [1] * len(ts)
        view[at] = t.shape[0]
        out.append(t.reshape(tuple(view)).broadcast_to(shape))
    return tuple(out)


def cartesian_prod(*tensors):
    """`torch.cartesian_prod(*tensors)`: every combination of the 1-d
    tensors' elements, `[n1 * n2 * ..., k]` (the first tensor's element
    changing slowest; one tensor is returned as it is)."""
    ts = _tensors(tensors, "cartesian_prod")
    if not ts or any(t.ndim != 1 for t in ts):
        raise ArgumentError("cartesian_prod: expects 1-d tensors (at least one)")
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return _stack([g.reshape(-1) for g in grids], 1)


def _stack(ts, dim):
    from ._creation import stack
    return stack(ts, dim)


def _cat(ts, dim):
    from ._creation import cat
    return cat(ts, dim)


def atleast_1d(*tensors):
    """`torch.atleast_1d`: each tensor with at least one dimension (a view);
    one tensor gives a tensor, several a tuple."""
    return _atleast(tensors, 1)


def atleast_2d(*tensors):
    """`torch.atleast_2d`: each tensor with at least two dimensions (a 1-d
    one as a row, a view)."""
    return _atleast(tensors, 2)


def atleast_3d(*tensors):
    """`torch.atleast_3d`: each tensor with at least three dimensions (a 1-d
    one as `[1, n, 1]`, a 2-d one as `[m, n, 1]`, as NumPy's)."""
    return _atleast(tensors, 3)


def _atleast(tensors, n):
    ts = _tensors(tensors, f"atleast_{n}d")
    out = []
    for t in ts:
        shape = tuple(t.shape)
        if len(shape) < n:
            if n == 3 and len(shape) == 2:
                shape = shape + (1,)
            elif n == 3 and len(shape) == 1:
                shape = (1,) + shape + (1,)
            else:
                shape = (1,) * (n - len(shape)) + shape
            t = t.reshape(shape)
        out.append(t)
    return out[0] if len(out) == 1 else tuple(out)


def hstack(tensors):
    """`torch.hstack(tensors)`: joined along the columns (the first
    dimension of 1-d tensors)."""
    ts = [atleast_1d(t) for t in _tensors((tensors,), "hstack")]
    return _cat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(tensors):
    """`torch.vstack(tensors)`: joined along the rows (1-d tensors as rows)."""
    return _cat([atleast_2d(t) for t in _tensors((tensors,), "vstack")], 0)


def dstack(tensors):
    """`torch.dstack(tensors)`: joined along the third dimension (after
    `atleast_3d`)."""
    return _cat([atleast_3d(t) for t in _tensors((tensors,), "dstack")], 2)


def column_stack(tensors):
    """`torch.column_stack(tensors)`: 0-d and 1-d tensors as columns, then
    joined along the columns."""
    ts = [t.reshape(-1, 1) if t.ndim <= 1 else t for t in _tensors((tensors,), "column_stack")]
    return _cat(ts, 1)


row_stack = vstack


def block_diag(*tensors):
    """`torch.block_diag(*tensors)`: the tensors (0-d, 1-d as a row, or 2-d)
    down the diagonal of a new 2-d tensor, zeros elsewhere, of their
    promoted dtype on their device."""
    ts = [t.reshape(1, -1) if t.ndim < 2 else t for t in _tensors(tensors, "block_diag")]
    if any(t.ndim != 2 for t in ts):
        raise ArgumentError("block_diag: the tensors must have at most 2 dimensions")
    if not ts:
        return tensor(np.zeros((1, 0), np.float32))
    dtype = ts[0].dtype
    for t in ts[1:]:
        dtype = promote(np.zeros(0, dtype), t)
    rows, cols = sum(t.shape[0] for t in ts), sum(t.shape[1] for t in ts)
    out = zeros((rows, cols), dtype=dtype, device=ts[0].device)
    r = c = 0
    for t in ts:
        h, w = t.shape
        out[r:r + h, c:c + w] = t
        r, c = r + h, c + w
    return out


def _triangle_sizes(row, col, op):
    if row < 0 or col < 0:
        raise ArgumentError(f"{op}: row and col must be at least 0, not {row} and {col}")


def tril_indices(row, col, offset=0, *, dtype=np.int64, device=None):
    """`torch.tril_indices(row, col, offset=0)`: the coordinates `[2, N]`
    of the lower triangle of a `row x col` matrix (the diagonal `offset`
    included), row by row."""
    _triangle_sizes(row, col, "tril_indices")
    r, c = np.tril_indices(row, offset, col)
    return tensor(np.stack([r, c]).astype(dtype), device=device)


def triu_indices(row, col, offset=0, *, dtype=np.int64, device=None):
    """`torch.triu_indices(row, col, offset=0)`: the coordinates `[2, N]`
    of the upper triangle (from the diagonal `offset`), row by row."""
    _triangle_sizes(row, col, "triu_indices")
    r, c = np.triu_indices(row, offset, col)
    return tensor(np.stack([r, c]).astype(dtype), device=device)


# ---- distances, histograms, runs ---------------------------------------------

def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """`torch.cdist(x1, x2, p=2.0)`: the `p`-norm distance of every row of
    `x1` (`[..., P, M]`) to every row of `x2` (`[..., R, M]`), `[..., P,
    R]`. Euclidean distances of more than 25 rows on either side take
    PyTorch's matrix product form (`|a|^2 + |b|^2 - 2 a.b`, clamped at 0,
    faster and less exact), as its default `compute_mode` does; other
    cases broadcast the differences."""
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor)):
        raise TypeError("cdist: x1 and x2 are silt.Tensors")
    if x1.dtype.kind != "f" or x2.dtype.kind != "f":
        raise DTypeError(f"cdist: float tensors only, not {x1.dtype} and {x2.dtype}")
    if x1.ndim < 2 or x2.ndim < 2 or x1.shape[-1] != x2.shape[-1]:
        raise ArgumentError(f"cdist: shapes {x1.shape} and {x2.shape} are not [..., P, M] and [..., R, M]")
    if p < 0:
        raise ArgumentError(f"cdist: p must be at least 0, not {p}")
    mm = {
        "use_mm_for_euclid_dist_if_necessary": x1.shape[-2] > 25 or x2.shape[-2] > 25,
        "use_mm_for_euclid_dist": True,
        "donot_use_mm_for_euclid_dist": False,
    }.get(compute_mode)
    if mm is None:
        raise ArgumentError(f"cdist: unknown compute_mode {compute_mode!r}")
    if p == 2 and mm:
        a2 = (x1 * x1).sum(-1, keepdim=True)
        b2 = (x2 * x2).sum(-1, keepdim=True)
        d2 = a2 - 2 * (x1 @ x2.transpose(-1, -2)) + b2.transpose(-1, -2)
        return d2.clamp_min(0).sqrt()
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    d = diff.norm(p, dim=-1)
    if p == 0:  # the count of differing places; a NaN difference gives NaN, as PyTorch's
        d = d.where(diff.isnan().any(-1).logical_not(), math.nan)
    return d


def _histogram_edges(x, bins, range, op):
    """The bin edges of the float elements `x` (1-d) on their device: the
    given edges (a 1-d tensor of at least 2), or `bins` equal bins over
    `range` (a pair; the elements' smallest and largest by default, `[0,
    1]` without any; a single value widened by 0.5 each way), as NumPy's
    and PyTorch's `histogram`: a range that is not finite (given, or from
    data holding NaN or an infinity) raises. The equal bins' edges are
    NumPy's (`linspace` in float64, rounded to the dtype); PyTorch's
    `linspace` in the dtype differs in the last bits, so an element exactly
    on an inner edge may fall in the bin beside PyTorch's."""
    if isinstance(bins, Tensor):
        edges = bins.astype(x.dtype).to(x.device)
        if edges.ndim != 1 or edges.numel() < 2:
            raise ArgumentError(f"{op}: bin edges are a 1-d tensor of at least 2")
        return edges
    if int(bins) < 1:
        raise ArgumentError(f"{op}: bins must be at least 1, not {bins}")
    if range is not None:
        lo, hi = float(range[0]), float(range[1])
    elif x.numel():
        # NaN propagates through amin/amax: the check below raises
        lo, hi = float(x.amin().item()), float(x.amax().item())
    else:
        lo, hi = 0.0, 1.0
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
        raise ArgumentError(f"{op}: the range [{lo}, {hi}] is not a finite range")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return tensor(np.linspace(lo, hi, int(bins) + 1).astype(x.dtype), device=x.device)


def _bin_of(x, edges):
    """The bin (int64) of each element of `x` (1-d) among `edges`: the last
    edge not above it, the top edge in the last bin; outside (and NaN) the
    number of bins, one past the last."""
    n = edges.numel() - 1
    at = searchsorted(edges, x, right=True) - 1
    top = x == edges[-1]
    at = at.where(~top, n - 1)
    inside = (x >= edges[0]) & (x <= edges[-1])
    return at.where(inside, n)


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """`torch.histogram(input, bins, *, range=None, weight=None,
    density=False)`: `(hist, bin_edges)` of a float tensor, as NumPy's
    `histogram`: `bins` equal bins over `range` (the data's smallest and
    largest element by default) or the given sorted edges (a tensor);
    each bin `[a, b)`, the last `[a, b]`; elements outside, and NaN, count
    nowhere; `weight` sums weights instead; `density` divides by the total
    and the bins' widths. Without `range`, data holding NaN or an infinity
    raises `silt.ArgumentError` (its range is not finite), as PyTorch's.
    On the tensor's device (`searchsorted`, then `bincount`)."""
    if not isinstance(input, Tensor):
        raise TypeError("histogram: input is a silt.Tensor")
    if input.dtype.kind != "f":
        raise DTypeError(f"histogram: float tensors only, not {input.dtype}")
    x = input.reshape(-1)
    edges = _histogram_edges(x, bins, None if range is None else (range[0], range[1]), "histogram")
    n = edges.numel() - 1
    at = _bin_of(x, edges)
    w = None
    if weight is not None:
        w = (weight if isinstance(weight, Tensor) else tensor(np.asarray(weight), device=input.device))
        w = w.astype(input.dtype).reshape(-1)
    counts = ops.bincount(at, w, n + 1)[:n]
    hist = counts.astype(input.dtype)
    if density:
        widths = edges[1:] - edges[:-1]
        hist = hist / (hist.sum() * widths)
    return hist, edges


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """`torch.unique_consecutive(input, return_inverse=False,
    return_counts=False, dim=None)`: the elements with each run of equal
    neighbours kept once (of the tensor read as 1-d; with `dim`, the slices
    along `dim` equal to the one before dropped), with each element's (or
    slice's) run (`return_inverse`, `input`'s shape, or `dim`'s length)
    and each run's length (`return_counts`); on the tensor's device. NaNs
    are never equal, so each is a run of its own."""
    if dim is not None:
        if input.ndim == 0:
            raise ArgumentError("unique_consecutive: a 0-d tensor has no dimension")
        d = dim + input.ndim if dim < 0 else dim
        if not 0 <= d < input.ndim:
            raise ArgumentError(f"unique_consecutive: dim {dim} out of range for {input.ndim} dimensions")
        if any(size == 0 for k, size in enumerate(input.shape) if k != d):
            raise ArgumentError("unique_consecutive: a dimension of size 0 besides dim (PyTorch's rule)")
        x = input.movedim(d, 0)
        n = x.shape[0]
        rows = x.reshape(n, math.prod(x.shape[1:]))  # not -1: `dim` may be of size 0
        differs = (rows[1:] != rows[:-1]).any(1)
    else:
        x = input.reshape(-1)
        n = x.numel()
        differs = x[1:] != x[:-1]
    if n == 0:
        starts = x.new_zeros((0,), dtype=np.bool_)
    else:
        starts = _cat([x.new_ones((1,), dtype=np.bool_), differs], 0)
    where = starts.nonzero().reshape(-1)
    values = x.index_select(0, where)
    out = [values if dim is None else values.movedim(0, d)]
    if return_inverse:
        inverse = starts.astype(np.int64).cumsum(0) - 1
        out.append(inverse if dim is not None else inverse.reshape(input.shape))
    if return_counts:
        ends = _cat([where[1:], tensor(np.array([n], np.int64), device=x.device)], 0)
        out.append(ends - where)
    return out[0] if len(out) == 1 else tuple(out)


# ---- statistics, calculus, products -----------------------------------------

def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """`torch.std_mean(input, dim=None, *, correction=1, keepdim=False)`
    (and the older `unbiased`): `(input.std(...), input.mean(...))` over
    `dim`."""
    dim, correction = _correction(dim, unbiased, correction, "std_mean")
    return (input.std(dim, correction=correction, keepdim=keepdim),
            input.mean(dim, keepdim=keepdim))


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """`torch.var_mean(input, dim=None, *, correction=1, keepdim=False)`
    (and the older `unbiased`): `(input.var(...), input.mean(...))` over
    `dim`."""
    dim, correction = _correction(dim, unbiased, correction, "var_mean")
    return (input.var(dim, correction=correction, keepdim=keepdim),
            input.mean(dim, keepdim=keepdim))


def cov(input, *, correction=1, fweights=None, aweights=None):
    """`torch.cov(input, *, correction=1, fweights=None, aweights=None)`:
    the covariance matrix of the variables in the rows of `input` (`[vars,
    obs]`; one variable, 1-d or a row, gives a 0-d result), observations
    weighted by the integer `fweights` and the float `aweights`, as
    NumPy's `cov`: `(x - avg) (w (x - avg))^T / (sum(w) - correction *
    sum(w * aweights) / sum(w))` (without `aweights`, `sum(w) -
    correction`). Integer tensors are computed in float32, and float
    `aweights` of a wider dtype widen the result, as PyTorch's."""
    if input.ndim > 2:
        raise ArgumentError(f"cov: a 1-d or 2-d tensor, not {input.ndim}-d")
    x = input.reshape(1, -1) if input.ndim < 2 else input
    if x.dtype.kind != "f":
        x = x.float()
    if isinstance(aweights, Tensor) and aweights.dtype.kind == "f":
        x = x.astype(np.promote_types(x.dtype, aweights.dtype), copy=False)  # PyTorch's promotion
    n = x.shape[1]
    w = None
    for name, v in (("fweights", fweights), ("aweights", aweights)):
        if v is None:
            continue
        v = v if isinstance(v, Tensor) else tensor(np.asarray(v), device=x.device)
        if v.ndim != 1 or v.shape[0] != n:
            raise ArgumentError(f"cov: {name} must be 1-d of {n} observations")
        if name == "fweights" and v.dtype.kind not in "iu":
            raise DTypeError("cov: fweights must hold integers")
        if v.numel() and float(v.min().item()) < 0:
            raise ArgumentError(f"cov: {name} cannot be negative")
        v = v.astype(x.dtype)
        w = v if w is None else w * v
    if w is None:
        w_sum = float(n)
        avg = x.mean(1, keepdim=True)
    else:
        w_sum = w.sum()
        avg = (x * w).sum(1, keepdim=True) / w_sum
    if w is None:
        norm = w_sum - correction
    elif aweights is None:
        norm = w_sum - correction
    else:
        a = aweights if isinstance(aweights, Tensor) else tensor(np.asarray(aweights), device=x.device)
        norm = w_sum - correction * (w * a.astype(x.dtype)).sum() / w_sum
    d = x - avg
    dw = d if w is None else d * w
    c = d @ dw.T
    c = c / (norm.clamp_min(0) if isinstance(norm, Tensor) else max(norm, 0))
    return c.reshape(()) if x.shape[0] == 1 else c  # one variable: a 0-d tensor, as PyTorch's


def corrcoef(input):
    """`torch.corrcoef(input)`: Pearson's correlation coefficients of the
    variables in the rows of `input`: `cov(input)` over the outer product
    of the standard deviations, clamped to [-1, 1] (as NumPy's)."""
    c = cov(input)
    if c.ndim == 0:
        return c / c
    sd = c.diagonal().sqrt()
    return (c / sd.unsqueeze(1) / sd.unsqueeze(0)).clamp(-1, 1)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None):
    """`torch.logspace(start, end, steps, base=10.0)`: `base` to the powers
    of `linspace(start, end, steps)`, computed in float64 and rounded to
    `dtype` (float32 by default)."""
    if not isinstance(steps, int) or steps < 0:
        raise ArgumentError(f"logspace: steps must be a non-negative integer, not {steps!r}")
    if dtype is not None and np.dtype(dtype).kind in "iub":
        # PyTorch's: an integer dtype truncates start and end first
        start, end = math.trunc(start), math.trunc(end)
    values = np.logspace(float(start), float(end), steps, base=float(base))
    return tensor(values.astype(np.float32 if dtype is None else dtype), device=device)


def _spacing(y, x, dx, dim, op):
    """The widths of `trapezoid`'s intervals along `dim`: `diff(x)` (a 1-d
    `x` of one value a sample along `dim`, or an `x` that broadcasts with
    `y`, padded with leading dimensions), `dx`, or 1."""
    if x is not None and dx is not None:
        raise ArgumentError(f"{op}: give x or dx, not both")
    if x is None:
        return 1.0 if dx is None else dx
    x = x if isinstance(x, Tensor) else tensor(np.asarray(x), device=y.device)
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise ArgumentError(f"{op}: there must be one x value for each sample point "
                                f"({x.shape[0]} for {y.shape[dim]})")
        shape = [1] * y.ndim
        shape[dim] = x.shape[0]
        x = x.reshape(tuple(shape))
    elif x.ndim < y.ndim:
        x = x.reshape((1,) * (y.ndim - x.ndim) + tuple(x.shape))
    if x.ndim != y.ndim or x.shape[dim] != y.shape[dim]:
        raise ArgumentError(f"{op}: x {tuple(x.shape)} does not fit y {tuple(y.shape)} along {dim}")
    return x.diff(dim=dim)


def _trapezoids(y, x, dx, dim, op):
    if not -y.ndim <= dim < y.ndim:
        raise ArgumentError(f"{op}: dim {dim} is out of range for {y.ndim} dimensions")
    dim = dim + y.ndim if dim < 0 else dim
    n = y.shape[dim]
    if n == 0:
        return y.narrow(dim, 0, 0), dim
    step = _spacing(y, x, dx, dim, op)
    hi = y.narrow(dim, 1, n - 1)
    lo = y.narrow(dim, 0, n - 1)
    return (hi + lo) * step / 2, dim


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """`torch.trapezoid(y, x=None, *, dx=None, dim=-1)`: the integral of `y`
    along `dim` by the trapezoidal rule, the samples at `x` (1-d, one a
    sample, or broadcasting with `y`) or `dx` apart (1 by default); 0 for
    an empty `dim`."""
    parts, d = _trapezoids(y, x, dx, dim, "trapezoid")
    return parts.sum(d)


def trapz(y, x=None, *, dx=None, dim=-1):
    """`torch.trapz`: `trapezoid`."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """`torch.cumulative_trapezoid(y, x=None, *, dx=None, dim=-1)`: the
    running integral of `trapezoid` (one element fewer along `dim`)."""
    parts, d = _trapezoids(y, x, dx, dim, "cumulative_trapezoid")
    return parts.cumsum(d)


def ldexp(input, other):
    """`torch.ldexp(input, other)`: `input * 2 ** other`, of the two's
    promoted dtype (float32 for two integer tensors; float16 stays float16,
    computed in float32 and rounded once); an integer `other` is applied in
    exact steps, so the result is finite wherever it fits (`ldexp(1e-30,
    130)` of float32), as PyTorch's and NumPy's."""
    x = input if isinstance(input, Tensor) else tensor(np.asarray(input))
    o = other if isinstance(other, Tensor) else tensor(np.asarray(other), device=x.device)
    rd = promote(x, o)
    if rd.kind != "f":
        rd = np.dtype(np.float32)
    wide = np.dtype(np.float32) if rd == np.float16 else rd
    if o.dtype.kind == "f":
        return (x.astype(wide, copy=False) * (2.0 ** o.astype(wide, copy=False))).astype(rd, copy=False)
    # `2 ** other` may overflow where the product does not (`1e-30 * 2 **
    # 130`): an integer exponent, clamped to where every finite input is 0
    # or infinite, is applied in three exact powers of two
    info = np.finfo(rd)
    reach = 2 * info.maxexp + info.nmant + 3
    e = o.astype(wide, copy=False).clamp(-reach, reach).trunc()
    first = (e / 3).trunc()
    second = ((e - first) / 2).trunc()
    r = x.astype(wide, copy=False)
    for part in (first, second, e - first - second):
        r = r * (2.0 ** part)
    return r.astype(rd, copy=False)


def tensordot(a, b, dims=2):
    """`torch.tensordot(a, b, dims=2)`: the sum over the last `dims`
    dimensions of `a` and the first `dims` of `b` (or the listed pairs of
    dimensions, `dims=([..], [..])`), by one `matmul` of the two reshaped."""
    if isinstance(dims, int):
        if dims < 0:
            raise ArgumentError(f"tensordot: dims must be at least 0, not {dims}")
        da, db = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
    da = [d + a.ndim if d < 0 else d for d in da]
    db = [d + b.ndim if d < 0 else d for d in db]
    if len(da) != len(db) or any(a.shape[i] != b.shape[j] for i, j in zip(da, db)):
        raise ArgumentError(f"tensordot: dimensions {da} of {a.shape} and {db} of {b.shape} do not match")
    fa = [d for d in range(a.ndim) if d not in da]
    fb = [d for d in range(b.ndim) if d not in db]
    k = math.prod(a.shape[d] for d in da)
    left = a.permute(*(fa + da)).reshape(math.prod(a.shape[d] for d in fa), k)
    right = b.permute(*(db + fb)).reshape(k, math.prod(b.shape[d] for d in fb))
    return (left @ right).reshape(tuple(a.shape[d] for d in fa) + tuple(b.shape[d] for d in fb))


def vander(x, N=None, increasing=False):
    """`torch.vander(x, N=None, increasing=False)`: the powers of the 1-d
    `x`, `N` columns (`len(x)` by default), from `x^(N-1)` down to 1 (up
    with `increasing`), as PyTorch makes them: ones, then a running
    product (integers stay integers)."""
    if x.ndim != 1:
        raise ArgumentError("vander: x must be 1-d")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise ArgumentError(f"vander: N must be at least 0, not {n}")
    # PyTorch's: the dtype promoted with int64 (integers and bool to int64)
    dt = x.dtype if x.dtype.kind == "f" else np.dtype(np.int64)
    ones = x.new_ones((x.shape[0], min(n, 1)), dtype=dt)
    if n <= 1:
        out = ones
    else:
        powers = x.astype(dt).unsqueeze(1).broadcast_to((x.shape[0], n - 1)).cumprod(1)
        out = _cat([ones, powers], 1)
    return out if increasing else out.flip(1)


def diagflat(input, offset=0):
    """`torch.diagflat(input, offset=0)`: the elements of `input` (read as
    1-d) on the diagonal `offset` of a new square matrix."""
    return input.reshape(-1).diag(offset)


def polygamma(n, input):
    """`torch.polygamma(n, input)`: `input.polygamma(n)`, the `n`-th
    derivative of `digamma` (`n` first, as PyTorch's)."""
    return _input(input, ()).polygamma(n)


HELPERS = [
    "polygamma",
    "atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "cdist", "column_stack", "dstack", "histogram", "hstack", "meshgrid",
    "row_stack", "tril_indices", "triu_indices", "unique_consecutive", "vstack",
    "corrcoef", "cov", "cumulative_trapezoid", "diagflat", "ldexp", "logspace", "std_mean",
    "tensordot", "trapezoid", "trapz", "vander", "var_mean",
]

# the functions named as Python's builtins (`sum`, `max`, `abs`, ...): in
# the module, but not in `__all__`, so that `from silt import *` leaves the
# builtins alone
SHADOWING = sorted(n for n in METHODS if hasattr(builtins, n))

__all__ = ["bucketize", "is_tensor", "isin", "searchsorted", "where"] + HELPERS + [
    n for n in METHODS if n not in SHADOWING
]

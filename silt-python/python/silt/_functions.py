"""Functions of PyTorch's ``torch`` namespace that are not tensor methods:
``searchsorted`` and ``bucketize`` (silt-kernels' ``searchsorted``, with
PyTorch's promotion of the sequence and the values to one dtype)."""

from ._silt import ArgumentError, Tensor
from ._operators import _as, _device_of, _is_number, promote, ops


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

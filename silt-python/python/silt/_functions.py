"""Functions of PyTorch's ``torch`` namespace: ``silt.NAME(input, ...)`` for
each tensor method PyTorch also has as a function (``METHODS``: ``silt.exp(t)``
is ``t.exp()``, ``silt.add(t, u, alpha=2)`` is ``t.add(u, alpha=2)``),
``where`` with PyTorch's argument order, ``is_tensor``, and the functions
that are not methods: ``searchsorted``, ``bucketize`` (silt-kernels'
``searchsorted``, with PyTorch's promotion of the sequence and the values to
one dtype) and ``isin``."""

import numpy as np

from ._silt import ArgumentError, Tensor, tensor
from ._operators import _as, _device_of, _is_number, promote, ops

# the tensor methods PyTorch has as functions of `torch`, `input` first
METHODS = (
    # elementwise, one tensor
    "abs absolute acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh "
    "bitwise_not ceil cos cosh deg2rad erf erfc exp exp2 expm1 fix floor frac isfinite isinf isnan "
    "log log10 log1p log2 logical_not logit nan_to_num neg negative rad2deg reciprocal relu round "
    "rsqrt selu sgn sigmoid sign signbit sin sinc sinh sqrt square tan tanh trunc "
    # elementwise, two or three
    "add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow "
    "float_power maximum minimum fmax fmin atan2 arctan2 hypot copysign eq ne not_equal lt less le "
    "less_equal gt greater ge greater_equal bitwise_and bitwise_or bitwise_xor logical_and "
    "logical_or logical_xor heaviside logaddexp logaddexp2 xlogy isclose allclose equal lerp "
    "addcmul clamp clip clamp_min clamp_max "
    # reductions and scans
    "sum prod mean amax amin aminmax argmax argmin all any count_nonzero max min std var norm "
    "logsumexp nansum nanmean median nanmedian quantile nanquantile kthvalue cumsum cumprod cummax "
    "cummin logcumsumexp softmax log_softmax trace dist "
    # ordering, products
    "sort argsort topk unique matmul mm bmm mv dot inner vdot outer kron cross addmm addmv baddbmm "
    # indexing
    "index_select gather scatter scatter_add scatter_reduce take take_along_dim index_fill index_copy index_add index_reduce "
    "masked_fill masked_select put index_put nonzero argwhere bincount histc "
    # views and new tensors
    "reshape flatten unflatten squeeze unsqueeze transpose swapaxes swapdims permute movedim "
    "moveaxis t narrow select split chunk unbind tensor_split diagonal as_strided broadcast_to "
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
        return tensor(np.asarray(x, dtype=promote(x, other)), device=other.device)
    return tensor(x, device=other.device)


def _function(name):
    method = getattr(Tensor, name)

    def function(input, *args, **kwargs):
        return method(_input(input, args + tuple(kwargs.values())), *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"`silt.{name}(input, ...)`: `input.{name}(...)` (see `silt.Tensor.{name}`), as "
        f"PyTorch's `torch.{name}`; an `input` that is not a tensor is made one on the "
        "device of the first tensor argument."
    )
    return function


def where(condition, input=None, other=None):
    """`torch.where(condition, input, other)`: `input` where `condition`
    holds, else `other` (numbers too), promoted to one dtype;
    `where(condition)` alone is `condition.nonzero(as_tuple=True)`."""
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
    e = _as(elements, dtype, device)
    t = _as(test_elements, dtype, device)
    if not isinstance(e, Tensor):
        e = tensor(np.asarray(e, dtype=dtype), device=t.device)
    if not isinstance(t, Tensor):
        t = tensor(np.asarray(t, dtype=dtype), device=e.device)
    if dtype == np.bool_:  # searched as bytes
        e, t = e.byte(), t.byte()
    flat = t.reshape(-1)
    if flat.numel() == 0:
        found = (e != e) & (e == e)  # false everywhere, e's shape and device
        return ~found if invert else found
    ordered = flat.sort().values
    at = ops.searchsorted(ordered, e).clamp(max=flat.numel() - 1)
    found = ordered.take(at) == e
    return ~found if invert else found


__all__ = ["bucketize", "is_tensor", "isin", "searchsorted", "where"] + list(METHODS)

"""The arguments of ``silt.nn.functional``: checks of tensors, dtypes and
ints, reductions of losses, float16 widened for sums, tables copied to a
device, and the helpers more than one part shares."""

import numbers

import numpy as np

from .. import _silt
from .._silt import ArgumentError, DTypeError, Tensor


# ---- arguments ---------------------------------------------------------------

def _tensor(x, fn, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}: {name} must be a silt.Tensor, not {type(x).__name__}")
    return x


def _floats(x, fn, name="input"):
    _tensor(x, fn, name)
    if x.dtype.kind != "f":
        raise DTypeError(f"{fn}: {name} must be a float tensor, not {x.dtype}")
    return x


def _same_dtype(x, other, fn, name):
    if other is not None:
        _tensor(other, fn, name)
        if other.dtype != x.dtype:
            raise DTypeError(f"{fn}: {name} is {other.dtype} and input {x.dtype}; they must match")
    return other


def _is_int(v):
    """Whether ``v`` is an int (not a bool), as PyTorch's int arguments."""
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _ints(v, n, fn, name, low=0):
    """``v`` (an int or a sequence of ``n`` ints) as a tuple of ``n`` ints of at
    least ``low``."""
    if _is_int(v):
        v = (int(v),) * n
    elif isinstance(v, str):
        raise TypeError(f"{fn}: {name} must be an int or ints, not {v!r}")
    else:
        try:
            v = tuple(v)
        except TypeError:
            raise TypeError(f"{fn}: {name} must be an int or a sequence of ints, not {type(v).__name__}") from None
        if len(v) == 1:
            v = v * n
        if len(v) != n or not all(isinstance(e, numbers.Integral) and not isinstance(e, bool) for e in v):
            raise ArgumentError(f"{fn}: {name} must be an int or {n} ints, not {v}")
        v = tuple(int(e) for e in v)
    if any(e < low for e in v):
        raise ArgumentError(f"{fn}: {name} must be at least {low}, not {v}")
    return v


def _compute_dtype(x):
    """The dtype to compute ``x``'s sums in: float32 for float16 (as PyTorch
    accumulates halves), else its own."""
    return np.dtype(np.float32) if x.dtype == np.float16 else x.dtype


def _widened(x):
    return x if x.dtype != np.float16 else x.astype(np.float32)


def _legacy_reduction(size_average, reduce, reduction):
    """PyTorch's reading of the deprecated ``size_average`` and ``reduce``:
    either, when given, decides the reduction."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _reduced(loss, reduction, fn):
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ArgumentError(f"{fn}: reduction must be 'none', 'mean' or 'sum', not {reduction!r}")


def _on(x, array):
    """A NumPy array as a tensor on ``x``'s device."""
    return _silt.tensor(np.ascontiguousarray(array), device=x.device)


def _unbatched(x, nd, fn):
    """``x`` with a batch dimension (PyTorch's unbatched ``[C, *spatial]``
    inputs get one) and whether it was added."""
    if x.ndim == nd + 1:
        return x.unsqueeze(0), True
    if x.ndim != nd + 2:
        raise ArgumentError(f"{fn}: input must have {nd + 1} or {nd + 2} dimensions, not {x.ndim}")
    return x, False


def _in_place(x, y, inplace):
    return x.copy_(y) if inplace else y


def _params_as(x, fn, any_float=False, **params):
    """The float tensors ``params`` (None kept) in ``x``'s dtype: float32
    ones of a float16 ``x`` rounded to it (PyTorch takes that mix), and
    with ``any_float`` any float dtype converted (``rms_norm``'s rule); any
    other mix is an error."""
    out = []
    for name, v in params.items():
        if v is not None:
            _floats(v, fn, name)
            if v.dtype != x.dtype:
                if not (any_float or (x.dtype == np.float16 and v.dtype == np.float32)):
                    raise DTypeError(f"{fn}: {name} is {v.dtype} and input {x.dtype}; they must match")
                v = v.astype(x.dtype)
        out.append(v)
    return out


def _channel_shape(x, v):
    """``v`` (of the channels' length) shaped to broadcast along ``x``'s dimension 1."""
    return v.reshape([1, -1] + [1] * (x.ndim - 2))

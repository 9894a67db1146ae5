"""``silt.nn.functional``'s activations and the softmax family."""

import math

import numpy as np

from .. import _silt
from .._silt import ArgumentError, AxisError, DTypeError
from ._args import _channel_shape, _floats, _in_place, _same_dtype, _tensor, _widened

ops = _silt.ops


# ---- activations --------------------------------------------------------------

def relu(input, inplace=False):
    """`relu(input, inplace=False)`: `max(input, 0)`."""
    return _in_place(input, _tensor(input, "relu").relu(), inplace)


def _clamped(input, low, high, fn):
    """``input`` clamped to [low, high]: floats by the ``op``, integers by
    ``clamp`` (PyTorch takes integers here, not bool)."""
    _tensor(input, fn)
    if input.dtype.kind in "iu":
        return input.clamp(int(math.ceil(low)), int(math.floor(high)))
    _floats(input, fn)
    return None


def relu6(input, inplace=False):
    """`relu6(input, inplace=False)`: `min(max(input, 0), 6)` (integers too)."""
    y = _clamped(input, 0, 6, "relu6")
    return _in_place(input, input.relu6() if y is None else y, inplace)


def elu(input, alpha=1.0, inplace=False):
    """`elu(input, alpha=1.0, inplace=False)`: `x` above 0, `alpha * (exp(x) - 1)` below."""
    return _in_place(input, ops.elu(_floats(input, "elu"), alpha), inplace)


def selu(input, inplace=False):
    """`selu(input, inplace=False)`: the scaled `elu` of Klambauer et al."""
    return _in_place(input, _floats(input, "selu").selu(), inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """`leaky_relu(input, negative_slope=0.01, inplace=False)`."""
    return _in_place(input, ops.leaky_relu(_floats(input, "leaky_relu"), negative_slope), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """`hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False)`: `input` clamped (integers too)."""
    if min_val > max_val:
        raise ArgumentError(f"hardtanh: min_val {min_val} is above max_val {max_val}")
    y = _clamped(input, min_val, max_val, "hardtanh")
    return _in_place(input, ops.hardtanh(input, min_val, max_val) if y is None else y, inplace)


def threshold(input, threshold, value, inplace=False):
    """`threshold(input, threshold, value, inplace=False)`: `value` where
    `input` is at most `threshold`, else `input` (NaN stays)."""
    return _in_place(input, _thresholded(input, threshold, value), inplace)


def _thresholded(input, limit, value):
    _tensor(input, "threshold")
    if input.dtype == np.bool_:
        raise DTypeError("threshold: not defined for bool tensors")
    if input.dtype.kind in "iu":
        # as PyTorch's: the threshold and value in the tensor's dtype
        limit, value = int(limit), int(value)
    return input.where((input <= limit).logical_not(), value)


def celu(input, alpha=1.0, inplace=False):
    """`celu(input, alpha=1.0, inplace=False)`: `max(0, x) + min(0, alpha *
    (exp(x / alpha) - 1))`."""
    _floats(input, "celu")
    if alpha == 0:
        raise ArgumentError("celu: alpha must not be 0")
    x = _widened(input)  # float16 rounded once, as PyTorch's
    y = x.where(x > 0, (x / alpha).expm1() * alpha).astype(input.dtype, copy=False)
    return _in_place(input, y, inplace)


def prelu(input, weight):
    """`prelu(input, weight)`: `x` above 0, `weight * x` below; `weight` has
    one element or one a channel (dimension 1)."""
    _floats(input, "prelu")
    _same_dtype(input, _tensor(weight, "prelu", "weight"), "prelu", "weight")
    if weight.ndim > 1:
        raise ArgumentError(f"prelu: weight must have at most 1 dimension, not {weight.ndim}")
    n = weight.numel()
    if n != 1:
        if input.ndim < 2 or input.shape[1] != n:
            raise ArgumentError(f"prelu: {n} weights for input {tuple(input.shape)} (one, or one a channel)")
        weight = _channel_shape(input, weight)
    else:
        weight = weight.reshape([])
    return input.where(input > 0, input * weight)


def hardshrink(input, lambd=0.5):
    """`hardshrink(input, lambd=0.5)`: `x` where `|x| > lambd`, else 0."""
    _floats(input, "hardshrink")
    # PyTorch's test: 0 inside [-lambd, lambd], so NaN stays
    return input.where(((input >= -lambd) & (input <= lambd)).logical_not(), 0)


def softshrink(input, lambd=0.5):
    """`softshrink(input, lambd=0.5)`: `x - lambd` above `lambd`, `x + lambd`
    below `-lambd`, else 0."""
    _floats(input, "softshrink")
    if not lambd >= 0:
        raise ArgumentError(f"softshrink: lambd must not be negative, not {lambd}")
    inside = input.where(input != input, 0)  # NaN stays
    return (input - lambd).where(input > lambd, (input + lambd).where(input < -lambd, inside))


def _to_float(input, fn):
    """`input` as floats: integers and bool as float32 (PyTorch's for the
    functions that are `torch.sigmoid` and the like), floats as they are."""
    _tensor(input, fn)
    return input if input.dtype.kind == "f" else input.astype(np.float32)


def tanhshrink(input):
    """`tanhshrink(input)`: `x - tanh(x)` (integers as float32)."""
    x = _to_float(input, "tanhshrink")
    return x - x.tanh()


def relu_(input):
    """`relu_(input)`: `relu` written into `input`."""
    return relu(input, inplace=True)


def elu_(input, alpha=1.0):
    """`elu_(input, alpha=1.0)`: `elu` written into `input`."""
    return elu(input, alpha, inplace=True)


def celu_(input, alpha=1.0):
    """`celu_(input, alpha=1.0)`: `celu` written into `input`."""
    return celu(input, alpha, inplace=True)


def selu_(input):
    """`selu_(input)`: `selu` written into `input`."""
    return selu(input, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    """`leaky_relu_(input, negative_slope=0.01)`: `leaky_relu` written into `input`."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """`hardtanh_(input, min_val=-1.0, max_val=1.0)`: `hardtanh` written into `input`."""
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    """`threshold_(input, threshold, value)`: `threshold` written into `input`."""
    y = _thresholded(input, threshold, value)
    return input.copy_(y)


def gelu(input, approximate="none"):
    """`gelu(input, approximate='none')`: `x * Φ(x)`, or its tanh
    approximation with `approximate='tanh'`."""
    _floats(input, "gelu")
    if approximate == "none":
        return input.gelu()
    if approximate == "tanh":
        return input.gelu_tanh()
    raise ArgumentError(f"gelu: approximate must be 'none' or 'tanh', not {approximate!r}")


def silu(input, inplace=False):
    """`silu(input, inplace=False)`: `x * sigmoid(x)`."""
    return _in_place(input, _floats(input, "silu").silu(), inplace)


def mish(input, inplace=False):
    """`mish(input, inplace=False)`: `x * tanh(softplus(x))`."""
    return _in_place(input, _floats(input, "mish").mish(), inplace)


def sigmoid(input):
    """`sigmoid(input)`: `1 / (1 + exp(-x))` (integers as float32)."""
    return _to_float(input, "sigmoid").sigmoid()


def tanh(input):
    """`tanh(input)` (integers as float32)."""
    return _to_float(input, "tanh").tanh()


def softsign(input):
    """`softsign(input)`: `x / (1 + |x|)` (integers as float32)."""
    return _to_float(input, "softsign").softsign()


def hardsigmoid(input, inplace=False):
    """`hardsigmoid(input, inplace=False)`: `clamp(x / 6 + 1 / 2, 0, 1)`."""
    return _in_place(input, _floats(input, "hardsigmoid").hardsigmoid(), inplace)


def hardswish(input, inplace=False):
    """`hardswish(input, inplace=False)`: `x * hardsigmoid(x)`."""
    return _in_place(input, _floats(input, "hardswish").hardswish(), inplace)


def logsigmoid(input):
    """`logsigmoid(input)`: `log(sigmoid(x))`, without overflow."""
    return _floats(input, "logsigmoid").logsigmoid()


def softplus(input, beta=1.0, threshold=20.0):
    """`softplus(input, beta=1.0, threshold=20.0)`: `log(1 + exp(beta * x)) /
    beta`, and `x` itself where `beta * x` is above `threshold`."""
    _floats(input, "softplus")
    bx = input if beta == 1 else input * beta
    soft = bx.softplus() if beta == 1 else bx.softplus() / beta
    return input.where(bx > threshold, soft)


def glu(input, dim=-1):
    """`glu(input, dim=-1)`: the first half of `input` along `dim` times the
    sigmoid of the second (an even length)."""
    _floats(input, "glu")
    if input.ndim == 0:
        raise ArgumentError("glu: input must have at least one dimension")
    n = input.shape[dim]
    if n % 2:
        raise ArgumentError(f"glu: dimension {dim} has odd length {n}")
    a, b = input.narrow(dim, 0, n // 2), input.narrow(dim, n // 2, n // 2)
    return a * b.sigmoid()


# ---- softmax and normalisations ----------------------------------------------

def _implicit_dim(ndim):
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_like(name, negate=False):
    def fn(input, dim=None, _stacklevel=3, dtype=None):
        _tensor(input, name)
        x = input if dtype is None else input.astype(dtype)
        _floats(x, name)
        d = _implicit_dim(x.ndim) if dim is None else dim
        op = getattr(ops, "log_softmax" if name == "log_softmax" else "softmax")
        if x.ndim == 0:
            if not -1 <= d <= 0:
                raise AxisError(f"{name}: dimension {d} out of range for a 0-d tensor (expected -1 or 0)")
            return op(x.reshape(1), 0).reshape(())
        return op(-x if negate else x, d)

    fn.__name__ = name
    what = {"softmax": "`exp(x) / sum(exp(x))`", "log_softmax": "`x - logsumexp(x)`",
            "softmin": "`softmax(-x)`"}[name]
    fn.__doc__ = (f"`{name}(input, dim=None, dtype=None)`: {what} along `dim` (PyTorch's "
                  "implicit dimension where it is None), in `dtype` when given.")
    return fn


softmax = _softmax_like("softmax")
log_softmax = _softmax_like("log_softmax")
softmin = _softmax_like("softmin", negate=True)

"""PyTorch's ``torch.nn.functional`` on silt tensors, forward only (silt has no
gradients): activations, softmax and the normalisations, ``linear``,
``dropout``, ``pad``, ``one_hot``, ``embedding``, convolutions, pooling,
``interpolate`` and the common losses, under PyTorch's names and arguments.

Each runs on its input's device through ``silt.Tensor``'s methods and
``silt.ops``: a convolution is one copy of the input's windows (a strided view
of the padded input) and one ``matmul`` a group; pooling reduces a strided
view of windows; ``interpolate`` and the adaptive pools pick elements with
``index_select``. Small tables that depend only on shapes (pooling divisors,
interpolation weights, index lists) are made with NumPy on the host and
copied to the device.

>>> import numpy as np, silt
>>> import silt.nn.functional as F
>>> x = silt.tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 8), device="host")
>>> F.max_pool1d(x, 2).tolist()
[[[1.0, 3.0, 5.0, 7.0]]]
>>> F.conv1d(x, silt.ones(1, 1, 3, device="host")).tolist()
[[[3.0, 6.0, 9.0, 12.0, 15.0, 18.0]]]

Float16 inputs are summed in float32 (norms, means, pools), as PyTorch's
CPU kernels do, and float32 weights of a float16 input are rounded to it.

Where silt narrows PyTorch: ``interpolate`` takes the modes ``nearest``
(with PyTorch's CPU places: the same and twice the length exact),
``nearest-exact``, ``linear``, ``bilinear``, ``trilinear`` and ``area``;
``avg_pool*`` take floats only; ``embedding`` does not take ``max_norm``;
``batch_norm`` does not take ``momentum=None``; ``instance_norm`` does not
update running statistics (it refuses them with ``use_input_stats=True``);
the adaptive max pools do not return indices; ``max_pool*`` with
``return_indices=True`` gives the first NaN of a window where PyTorch gives
the last. ``pad`` in the modes other than ``constant`` pads any dimension
(PyTorch's only the last one to three).
"""

import math
import numbers

import numpy as np

from .. import _creation, _silt
from .._silt import ArgumentError, DTypeError, Tensor

ops = _silt.ops

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
    "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "conv1d", "conv2d", "conv3d", "cosine_similarity", "cross_entropy",
    "dropout", "elu", "embedding", "gelu", "glu", "group_norm", "hardsigmoid",
    "hardswish", "hardtanh", "huber_loss", "instance_norm", "interpolate",
    "kl_div", "l1_loss", "layer_norm", "leaky_relu", "linear", "log_softmax",
    "logsigmoid", "max_pool1d", "max_pool2d", "max_pool3d", "mish", "mse_loss",
    "nll_loss", "normalize", "one_hot", "pad", "pairwise_distance", "relu",
    "relu6", "rms_norm", "selu", "sigmoid", "silu", "smooth_l1_loss",
    "softmax", "softmin", "softplus", "softsign", "tanh", "threshold", "unfold",
]


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


def _ints(v, n, fn, name, low=0):
    """``v`` (an int or a sequence of ``n`` ints) as a tuple of ``n`` ints of at
    least ``low``."""
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        v = (int(v),) * n
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


# ---- activations --------------------------------------------------------------

def _in_place(x, y, inplace):
    return x.copy_(y) if inplace else y


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
    _tensor(input, "threshold")
    return _in_place(input, input.where((input <= threshold).logical_not(), value), inplace)


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
    """`sigmoid(input)`: `1 / (1 + exp(-x))`."""
    return _floats(input, "sigmoid").sigmoid()


def tanh(input):
    """`tanh(input)`."""
    return _floats(input, "tanh").tanh()


def softsign(input):
    """`softsign(input)`: `x / (1 + |x|)`."""
    return _floats(input, "softsign").softsign()


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


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """`layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5)`:
    each slice over the last dimensions (`normalized_shape`) less its mean,
    over its standard deviation (biased), times `weight` plus `bias`."""
    _floats(input, "layer_norm")
    weight, bias = _params_as(input, "layer_norm", weight=weight, bias=bias)
    return ops.layer_norm(input, list(_shape(normalized_shape)), weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """`rms_norm(input, normalized_shape, weight=None, eps=None)`: each slice
    over the last dimensions over its root mean square (plus `eps`, by
    default the dtype's machine epsilon), times `weight`."""
    _floats(input, "rms_norm")
    (weight,) = _params_as(input, "rms_norm", weight=weight)
    return ops.rms_norm(input, list(_shape(normalized_shape)), weight, eps)


def _params_as(x, fn, **params):
    """The float tensors ``params`` (None kept) in ``x``'s dtype: float32
    ones of a float16 ``x`` rounded to it (PyTorch takes that mix); any
    other mix is an error."""
    out = []
    for name, v in params.items():
        if v is not None:
            _floats(v, fn, name)
            if v.dtype != x.dtype:
                if not (x.dtype == np.float16 and v.dtype == np.float32):
                    raise DTypeError(f"{fn}: {name} is {v.dtype} and input {x.dtype}; they must match")
                v = v.astype(np.float16)
        out.append(v)
    return out


def _shape(s):
    return (s,) if isinstance(s, numbers.Integral) else tuple(s)


def _vector_norm(x, p, dim, keepdim):
    """The norm of order `p` (any number, inf and -inf included) along `dim`."""
    a = x.abs()
    if p == math.inf:
        return a.amax(dim, keepdim)
    if p == -math.inf:
        return a.amin(dim, keepdim)
    if p == 0:
        return (a != 0).astype(x.dtype).sum(dim, keepdim)
    if p == 1:
        return a.sum(dim, keepdim)
    if p == 2:
        return (a * a).sum(dim, keepdim).sqrt()
    return (a ** p).sum(dim, keepdim) ** (1.0 / p)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """`normalize(input, p=2.0, dim=1, eps=1e-12)`: `input` over its `p`-norm
    along `dim`, the norm at least `eps`."""
    _floats(input, "normalize")
    x = _widened(input)
    return (x / _vector_norm(x, p, dim, True).clamp_min(eps)).astype(input.dtype)


def _channel_shape(x, v):
    """``v`` (of the channels' length) shaped to broadcast along ``x``'s dimension 1."""
    return v.reshape([1, -1] + [1] * (x.ndim - 2))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """`batch_norm(input, running_mean, running_var, weight=None, bias=None,
    training=False, momentum=0.1, eps=1e-5)`: each channel (dimension 1) less
    its mean over its standard deviation, times `weight` plus `bias`. In
    training, the batch's statistics (biased variance), and the running ones
    (when given) updated in place with `momentum` (the unbiased variance);
    otherwise the running ones."""
    _floats(input, "batch_norm")
    if input.ndim < 2:
        raise ArgumentError(f"batch_norm: input must have at least 2 dimensions, not {input.ndim}")
    c = input.shape[1]
    for name, v in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if v is not None and tuple(_floats(v, "batch_norm", name).shape) != (c,):
            raise ArgumentError(f"batch_norm: {name} must have shape ({c},), not {tuple(v.shape)}")
    dims = [0] + list(range(2, input.ndim))
    if training and momentum is None:
        raise ArgumentError("batch_norm: momentum=None (a cumulative average) is not taken")
    cd = _compute_dtype(input)

    def wide(v):
        return None if v is None else v.astype(cd, copy=False)

    x = input.astype(cd, copy=False)
    if training:
        count = input.numel() // c if c else 0
        if input.numel() == 0:
            return input.clone()
        if count <= 1:
            raise ArgumentError(f"batch_norm: training needs more than one value a channel, got {count}")
        mean = x.mean(dims)
        var = x.var(dims, correction=0)
        if running_mean is not None:
            running_mean.copy_(wide(running_mean) * (1 - momentum) + mean * momentum)
        if running_var is not None:
            running_var.copy_(wide(running_var) * (1 - momentum) + var * (momentum * count / (count - 1)))
    else:
        if running_mean is None or running_var is None:
            raise ArgumentError("batch_norm: running_mean and running_var are needed when not training")
        mean, var = wide(running_mean), wide(running_var)
    y = (x - _channel_shape(x, mean)) / (_channel_shape(x, var) + eps).sqrt()
    if weight is not None:
        y = y * _channel_shape(x, wide(weight))
    if bias is not None:
        y = y + _channel_shape(x, wide(bias))
    return y.astype(input.dtype, copy=False)


def _affine(y, weight, bias, fn):
    c = y.shape[1]
    for name, v in (("weight", weight), ("bias", bias)):
        if v is not None and tuple(_tensor(v, fn, name).shape) != (c,):
            raise ArgumentError(f"{fn}: {name} must have shape ({c},), not {tuple(v.shape)}")
    weight, bias = _params_as(y, fn, weight=weight, bias=bias)
    if weight is not None:
        y = y * _channel_shape(y, weight)
    if bias is not None:
        y = y + _channel_shape(y, bias)
    return y


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """`group_norm(input, num_groups, weight=None, bias=None, eps=1e-5)`: the
    channels (dimension 1) in `num_groups` groups, each group of each sample
    normalised as `layer_norm`, then `weight` and `bias` a channel."""
    _floats(input, "group_norm")
    if input.ndim < 2:
        raise ArgumentError(f"group_norm: input must have at least 2 dimensions, not {input.ndim}")
    n, c = input.shape[0], input.shape[1]
    if num_groups < 1 or c % num_groups:
        raise ArgumentError(f"group_norm: {c} channels do not divide into {num_groups} groups")
    per_group = input.numel() // (n * num_groups) if n else 0
    if per_group == 0:
        return _affine(input.clone(), weight, bias, "group_norm")
    grouped = input.reshape(n, num_groups, per_group)
    y = ops.layer_norm(grouped, [per_group], None, None, eps).reshape(input.shape)
    return _affine(y, weight, bias, "group_norm")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """`instance_norm(input, running_mean=None, running_var=None, weight=None,
    bias=None, use_input_stats=True, momentum=0.1, eps=1e-5)`: each channel
    of each sample normalised over its own elements (`group_norm` with a
    group a channel); running statistics are taken only with
    `use_input_stats=False`, and not updated."""
    _floats(input, "instance_norm")
    if input.ndim < 3:
        raise ArgumentError(f"instance_norm: input must have at least 3 dimensions, not {input.ndim}")
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ArgumentError("instance_norm: needs more than one spatial element a channel")
    if use_input_stats:
        if running_mean is not None or running_var is not None:
            raise ArgumentError("instance_norm: running statistics are not updated; pass them with use_input_stats=False")
        return group_norm(input, input.shape[1], weight, bias, eps)
    return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)


# ---- linear, dropout, embedding, one_hot ------------------------------------------

def linear(input, weight, bias=None):
    """`linear(input, weight, bias=None)`: `input @ weight.T + bias` (`weight`
    read in place, not copied)."""
    _tensor(input, "linear")
    _tensor(weight, "linear", "weight")
    _same_dtype(input, weight, "linear", "weight")
    _same_dtype(input, bias, "linear", "bias")
    if weight.ndim not in (1, 2):
        raise ArgumentError(f"linear: weight must have 1 or 2 dimensions, not {weight.ndim}")
    y = input.matmul(weight.t() if weight.ndim == 2 else weight)
    return y if bias is None else y + bias


def dropout(input, p=0.5, training=True, inplace=False):
    """`dropout(input, p=0.5, training=True, inplace=False)`: in training, each
    element zeroed with probability `p` and the others divided by `1 - p`
    (drawn by `silt.rand`'s generator), by multiplying as PyTorch does (a
    dropped NaN stays NaN); `input` itself otherwise."""
    _floats(input, "dropout")
    if not 0 <= p <= 1:
        raise ArgumentError(f"dropout: p must be in [0, 1], not {p}")
    if not training or p == 0:
        return input
    if p == 1:
        y = input * 0  # as PyTorch's: NaN and infinities give NaN
    else:
        keep = _creation.rand_like(input) >= p
        y = input * (keep.astype(input.dtype) * (1.0 / (1 - p)))
    return _in_place(input, y, inplace)


def one_hot(tensor, num_classes=-1):
    """`one_hot(tensor, num_classes=-1)`: int64 with a last dimension of
    `num_classes` (one past the largest class by default), 1 at each class of
    `tensor` (int64) and 0 elsewhere; a class out of range raises."""
    _tensor(tensor, "one_hot", "tensor")
    if tensor.dtype != np.int64:
        raise DTypeError(f"one_hot: tensor must be int64, not {tensor.dtype}")
    if tensor.numel() == 0:
        if num_classes < 0:
            raise ArgumentError("one_hot: an empty tensor needs num_classes")
    else:
        low, high = tensor.amin().item(), tensor.amax().item()
        if low < 0:
            raise ArgumentError(f"one_hot: class {low} is negative")
        if num_classes < 0:
            num_classes = high + 1
        elif high >= num_classes:
            raise ArgumentError(f"one_hot: class {high} is out of range for {num_classes} classes")
    classes = _on(tensor, np.arange(num_classes, dtype=np.int64))
    return (tensor.unsqueeze(-1) == classes).astype(np.int64)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """`embedding(input, weight, padding_idx=None, ...)`: the rows of `weight`
    (2-d) at the indices of `input` (int64 or int32), shaped `input.shape +
    (embedding_dim,)`. `padding_idx` matters only to gradients and is
    checked; `max_norm` is not taken."""
    _tensor(input, "embedding")
    _tensor(weight, "embedding", "weight")
    if input.dtype not in (np.int64, np.int32):
        raise DTypeError(f"embedding: input must be int64 or int32, not {input.dtype}")
    if weight.ndim != 2:
        raise ArgumentError(f"embedding: weight must have 2 dimensions, not {weight.ndim}")
    if max_norm is not None:
        raise ArgumentError("embedding: max_norm is not taken (it renormalises weight in place)")
    if padding_idx is not None and not -weight.shape[0] <= padding_idx < weight.shape[0]:
        raise ArgumentError(f"embedding: padding_idx {padding_idx} is out of range for {weight.shape[0]} rows")
    rows = weight.index_select(0, input.reshape(-1))
    return rows.reshape(tuple(input.shape) + (weight.shape[1],))


# ---- padding ---------------------------------------------------------------------

def _source_places(n, lo, hi, mode):
    """The source index of each place of a dimension of length ``n`` padded
    by ``lo`` and ``hi`` in ``mode``."""
    places = np.arange(-lo, n + hi, dtype=np.int64)
    if mode == "replicate":
        return np.clip(places, 0, n - 1)
    if mode == "circular":
        # PyTorch's: a negative amount cuts first, the rest wraps around what is left
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
        if shape[d] + lo + hi < 0:
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
        if mode == "reflect" and (lo >= n or hi >= n):
            raise ArgumentError(f"pad: reflect needs amounts below the length {n} of dimension {d}, not ({lo}, {hi})")
        if mode == "circular" and (lo > n or hi > n or n - max(-lo, 0) - max(-hi, 0) <= 0):
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


def _conv(input, weight, bias, stride, padding, dilation, groups, nd, fn):
    _floats(input, fn)
    _tensor(weight, fn, "weight")
    _same_dtype(input, weight, fn, "weight")
    _same_dtype(input, bias, fn, "bias")
    x, added = _unbatched(input, nd, fn)
    if weight.ndim != nd + 2:
        raise ArgumentError(f"{fn}: weight must have {nd + 2} dimensions, not {weight.ndim}")
    if not isinstance(groups, numbers.Integral) or groups < 1:
        raise ArgumentError(f"{fn}: groups must be a positive int, not {groups}")
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
    cols = cols.reshape(n, c * math.prod(kernel), math.prod(out))
    return cols[0] if added else cols


def _pool_geometry(x, nd, kernel_size, stride, padding, dilation, ceil_mode, fn):
    kernel = _ints(kernel_size, nd, fn, "kernel_size", 1)
    stride = kernel if stride is None or (not isinstance(stride, numbers.Integral) and len(stride) == 0) \
        else _ints(stride, nd, fn, "stride", 1)
    dilation = _ints(dilation, nd, fn, "dilation", 1)
    padding = _ints(padding, nd, fn, "padding")
    for k, p, d in zip(kernel, padding, dilation):
        half = (d * (k - 1) + 1) // 2
        if p > half:
            raise ArgumentError(f"{fn}: padding {p} is more than half the kernel's span ({half})")
    out, pads = [], []
    for n, k, s, p, d in zip(x.shape[-nd:], kernel, stride, padding, dilation):
        span = d * (k - 1) + 1
        room = n + 2 * p - span
        if room < 0:
            raise ArgumentError(f"{fn}: the kernel spans {span} places, more than the padded input's {n + 2 * p}")
        m = (-(-room // s) if ceil_mode else room // s) + 1
        if ceil_mode and (m - 1) * s >= n + p:
            m -= 1  # the last window must start inside the input or its left padding
        out.append(m)
        pads.append((p, (m - 1) * s + span - n - p))
    return kernel, stride, dilation, padding, out, pads


def _lowest(dtype):
    return -math.inf if dtype.kind == "f" else (np.iinfo(dtype).min if dtype.kind in "iu" else False)


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
    # The first place of each window holding its maximum (NaN: its first NaN),
    # among the input's own places (a window of -inf does not pick padding).
    real = _windows(_pad_spatial(x.new_ones(x.shape, dtype=np.bool_), pads, False),
                    kernel, stride, dilation, out)
    m = values.reshape(list(values.shape) + [1] * nd)
    hit = (win == m) | (win.isnan() & m.isnan()) if x.dtype.kind == "f" else win == m
    hit = (hit & real).reshape(list(values.shape) + [math.prod(kernel)])
    first = hit.view(np.uint8).argmax(-1)
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


def _adaptive(input, output_size, nd, fn, reduce):
    _tensor(input, fn)
    x, added = _unbatched(input, nd, fn)
    sizes = [output_size] * nd if isinstance(output_size, numbers.Integral) or output_size is None \
        else list(output_size)
    if len(sizes) == 1:
        sizes = sizes * nd
    if len(sizes) != nd:
        raise ArgumentError(f"{fn}: output_size must be an int or {nd} ints, not {output_size}")
    changed = False
    for i, m in enumerate(sizes):
        d = x.ndim - nd + i
        n = x.shape[d]
        m = n if m is None else m
        if not isinstance(m, numbers.Integral) or m < 1:
            raise ArgumentError(f"{fn}: output sizes must be positive ints, not {output_size}")
        if n == 0:
            raise ArgumentError(f"{fn}: dimension {d} of length 0 cannot pool to {m}")
        if m == n:
            continue
        changed = True
        places, lengths, valid = _adaptive_windows(n, m)
        k = places.shape[1]
        picked = x.index_select(d, _on(x, places.reshape(-1)))
        picked = picked.reshape(list(x.shape[:d]) + [m, k] + list(x.shape[d + 1:]))
        mask_shape = [1] * d + [m, k] + [1] * (x.ndim - d - 1)
        x = reduce(picked, d + 1, _on(x, valid.reshape(mask_shape)), _on(x, lengths.reshape(mask_shape[:d + 1] + mask_shape[d + 2:])))
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


def _no_indices(return_indices, fn):
    if return_indices:
        raise ArgumentError(f"{fn}: return_indices is not taken")


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """`adaptive_max_pool1d(input, output_size)`: the maxima of the windows
    of `adaptive_avg_pool1d` (NaN if a window holds one); no indices."""
    _no_indices(return_indices, "adaptive_max_pool1d")
    return _adaptive(input, output_size, 1, "adaptive_max_pool1d", _max_reduce)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """`adaptive_max_pool2d(input, output_size)`: as `adaptive_max_pool1d`
    along `H` and `W`."""
    _no_indices(return_indices, "adaptive_max_pool2d")
    return _adaptive(input, output_size, 2, "adaptive_max_pool2d", _max_reduce)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """`adaptive_max_pool3d(input, output_size)`: as `adaptive_max_pool1d`
    along `D`, `H` and `W`."""
    _no_indices(return_indices, "adaptive_max_pool3d")
    return _adaptive(input, output_size, 3, "adaptive_max_pool3d", _max_reduce)


# ---- interpolate -------------------------------------------------------------------

_MODES = {"nearest": None, "nearest-exact": None, "linear": 1, "bilinear": 2, "trilinear": 3, "area": None}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """`interpolate(input, size=None, scale_factor=None, mode='nearest',
    align_corners=None, recompute_scale_factor=None)`: `input` (`[N, C,
    *spatial]`) resampled to `size` or by `scale_factor`, with PyTorch's
    source coordinates; modes `nearest`, `nearest-exact`, `linear`,
    `bilinear`, `trilinear` (each output from its two neighbours a
    dimension) and `area` (`adaptive_avg_pool`)."""
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
        raise ArgumentError(f"{fn}: align_corners is only for the linear modes")
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
        if align_corners:
            src = dst * ((n - 1) / (m - 1)) if m > 1 else np.zeros(m)
        else:
            src = np.maximum((dst + 0.5) * ratio - 0.5, 0.0)
        lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
        hi = np.minimum(lo + 1, n - 1)
        frac = (src - lo).astype(x.dtype)
        shape = [1] * x.ndim
        shape[d] = m
        w1 = _on(x, frac.reshape(shape))
        w0 = _on(x, (1 - frac).reshape(shape))
        x = x.index_select(d, _on(x, lo)) * w0 + x.index_select(d, _on(x, hi)) * w1
    return x if x is not input else input.clone()


# ---- losses -----------------------------------------------------------------------

def _pair(input, target, fn):
    _floats(input, fn)
    _tensor(target, fn, "target")
    if tuple(input.shape) != tuple(target.shape):
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} and target {tuple(target.shape)} differ in shape")
    _same_dtype(input, target, fn, "target")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """`mse_loss(input, target, reduction='mean')`: `(input - target) ** 2`,
    reduced (`'mean'`, `'sum'` or `'none'`; the deprecated `size_average`
    and `reduce`, when given, decide it as in PyTorch)."""
    _pair(input, target, "mse_loss")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    d = input - target
    return _reduced(d * d, reduction, "mse_loss")


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """`l1_loss(input, target, reduction='mean')`: `|input - target|`, reduced."""
    _pair(input, target, "l1_loss")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _reduced((input - target).abs(), reduction, "l1_loss")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """`smooth_l1_loss(input, target, reduction='mean', beta=1.0)`: `0.5 d² /
    beta` where `|d| < beta`, else `|d| - 0.5 beta`."""
    _pair(input, target, "smooth_l1_loss")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise ArgumentError(f"smooth_l1_loss: beta must not be negative, not {beta}")
    a = (input - target).abs()
    if beta == 0:
        return _reduced(a, reduction, "smooth_l1_loss")
    return _reduced((a * a * (0.5 / beta)).where(a < beta, a - 0.5 * beta), reduction, "smooth_l1_loss")


def huber_loss(input, target, reduction="mean", delta=1.0):
    """`huber_loss(input, target, reduction='mean', delta=1.0)`: `0.5 d²`
    where `|d| < delta`, else `delta (|d| - 0.5 delta)`."""
    _pair(input, target, "huber_loss")
    if delta <= 0:
        raise ArgumentError(f"huber_loss: delta must be positive, not {delta}")
    a = (input - target).abs()
    return _reduced((a * a * 0.5).where(a < delta, (a - 0.5 * delta) * delta), reduction, "huber_loss")


def _weighted(loss, weight, fn):
    if weight is None:
        return loss
    _same_dtype(loss, weight, fn, "weight")
    return loss * weight


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """`binary_cross_entropy(input, target, weight=None, reduction='mean')`:
    `-(t log(x) + (1 - t) log(1 - x))`, each log at least -100 (as PyTorch);
    `input` must lie in [0, 1]."""
    fn = "binary_cross_entropy"
    _pair(input, target, fn)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input.numel() and not bool(((input >= 0) & (input <= 1)).all().item()):
        raise ArgumentError(f"{fn}: input must lie in [0, 1]")
    log_x = input.log().clamp_min(-100)
    log_1mx = (-input).log1p().clamp_min(-100)
    loss = -(target * log_x + (1 - target) * log_1mx)
    return _reduced(_weighted(loss, weight, fn), reduction, fn)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """`binary_cross_entropy_with_logits(input, target, weight=None,
    reduction='mean', pos_weight=None)`: `binary_cross_entropy` of
    `sigmoid(input)`, computed from the logits without overflow; `pos_weight`
    weighs the positive term."""
    fn = "binary_cross_entropy_with_logits"
    _pair(input, target, fn)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    softplus_neg = (-input.abs()).exp().log1p() + (-input).clamp_min(0)  # log(1 + exp(-x))
    if pos_weight is None:
        loss = (1 - target) * input + softplus_neg
    else:
        _same_dtype(input, pos_weight, fn, "pos_weight")
        scale = (pos_weight - 1) * target + 1
        loss = (1 - target) * input + scale * softplus_neg
    return _reduced(_weighted(loss, weight, fn), reduction, fn)


def _ignore_index(v, fn):
    if not isinstance(v, numbers.Integral) or isinstance(v, bool):
        raise TypeError(f"{fn}: ignore_index must be an int, not {type(v).__name__}")


def _class_targets(input, target, fn):
    """Checks of class-index targets: ``input`` ``[N, C, *d]`` (or ``[C]``),
    ``target`` ``[N, *d]`` (or ``[]``) int64."""
    if input.ndim < 1:
        raise ArgumentError(f"{fn}: input must have at least 1 dimension")
    want = (tuple(input.shape[:1]) + tuple(input.shape[2:])) if input.ndim >= 2 else ()
    if tuple(target.shape) != want:
        raise ArgumentError(f"{fn}: target {tuple(target.shape)} does not fit input {tuple(input.shape)} "
                            f"(expected {want})")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """`nll_loss(input, target, weight=None, ignore_index=-100,
    reduction='mean')`: `-weight[t] * input[n, t]` for the class `t` of each
    target (int64; `[N, *d]` for an input `[N, C, *d]`); targets equal to
    `ignore_index` count 0, and `'mean'` divides by the weights of the
    others. A class out of range raises."""
    fn = "nll_loss"
    _floats(input, fn)
    _tensor(target, fn, "target")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _ignore_index(ignore_index, fn)
    if target.dtype != np.int64:
        raise DTypeError(f"{fn}: target must be int64, not {target.dtype}")
    _class_targets(input, target, fn)
    x = input if input.ndim >= 2 else input.unsqueeze(0)
    t = target if input.ndim >= 2 else target.unsqueeze(0)
    c = x.shape[1]
    if weight is not None:
        _same_dtype(input, weight, fn, "weight")
        if tuple(weight.shape) != (c,):
            raise ArgumentError(f"{fn}: weight must have shape ({c},), not {tuple(weight.shape)}")
    kept = t != ignore_index
    safe = t.where(kept, 0)
    if t.numel():
        low, high = safe.amin().item(), safe.amax().item()
        if low < 0 or high >= c:
            raise ArgumentError(f"{fn}: target {low if low < 0 else high} is out of range for {c} classes")
    picked = x.gather(1, safe.unsqueeze(1)).squeeze(1)
    w = kept.astype(x.dtype) if weight is None else weight.index_select(0, safe.reshape(-1)).reshape(safe.shape) \
        .where(kept, 0)
    loss = -(picked * w)
    if reduction == "mean":
        return loss.sum() / w.sum()
    out = _reduced(loss, reduction, fn)
    return out if input.ndim >= 2 or reduction != "none" else out.reshape(())


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """`cross_entropy(input, target, weight=None, ignore_index=-100,
    reduction='mean', label_smoothing=0.0)`: `nll_loss` of `log_softmax(input,
    1)` for class-index targets (int64), or `-sum(weight * target *
    log_softmax(input))` over the classes for class probabilities (a float
    target of `input`'s shape); `label_smoothing` mixes in the uniform
    distribution."""
    fn = "cross_entropy"
    _floats(input, fn)
    _tensor(target, fn, "target")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _ignore_index(ignore_index, fn)
    if not 0 <= label_smoothing <= 1:
        raise ArgumentError(f"{fn}: label_smoothing must be in [0, 1], not {label_smoothing}")
    if input.ndim < 1:
        raise ArgumentError(f"{fn}: input must have at least 1 dimension")
    cdim = 1 if input.ndim >= 2 else 0
    c = input.shape[cdim]
    logp = ops.log_softmax(input, cdim)
    wshape = [1] * input.ndim
    wshape[cdim] = c
    if weight is not None:
        _same_dtype(input, weight, fn, "weight")
        if tuple(weight.shape) != (c,):
            raise ArgumentError(f"{fn}: weight must have shape ({c},), not {tuple(weight.shape)}")
    if target.dtype.kind == "f":
        if tuple(target.shape) != tuple(input.shape):
            raise ArgumentError(f"{fn}: probabilities {tuple(target.shape)} must have input's shape {tuple(input.shape)}")
        _same_dtype(input, target, fn, "target")
        p = target if label_smoothing == 0 else target * (1 - label_smoothing) + label_smoothing / c
        terms = logp * p
        if weight is not None:
            terms = terms * weight.reshape(wshape)
        loss = -terms.sum(cdim)
        return _reduced(loss, reduction, fn)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    # the uniform part: -sum_c weight[c] log p[c] a sample, ignored targets 0
    terms = logp if weight is None else logp * weight.reshape(wshape)
    smooth = -terms.sum(cdim)
    kept = target != ignore_index
    smooth = smooth.where(kept, 0)
    if reduction == "mean":
        if weight is None:
            denominator = kept.astype(input.dtype).sum()
        else:
            safe = target.where(kept, 0)
            denominator = weight.index_select(0, safe.reshape(-1)).reshape(safe.shape).where(kept, 0).sum()
        smooth = smooth.sum() / denominator
    else:
        smooth = _reduced(smooth, reduction, fn)
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / c)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """`kl_div(input, target, reduction='mean', log_target=False)`: `target *
    (log(target) - input)` (0 where `target` is 0), with `input` log
    probabilities; `'batchmean'` divides the sum by the first dimension."""
    fn = "kl_div"
    _pair(input, target, fn)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = target.xlogy(target) - target * input
    if reduction == "batchmean":
        return loss.sum() / (input.shape[0] if input.ndim else 1)
    return _reduced(loss, reduction, fn)


# ---- distances ----------------------------------------------------------------------

def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """`cosine_similarity(x1, x2, dim=1, eps=1e-8)`: `(x1 / max(|x1|, eps)) ·
    (x2 / max(|x2|, eps))` along `dim`, after broadcasting."""
    fn = "cosine_similarity"
    _floats(x1, fn, "x1")
    _same_dtype(x1, x2, fn, "x2")
    try:
        shape = np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
    except ValueError:
        raise ArgumentError(f"{fn}: shapes {tuple(x1.shape)} and {tuple(x2.shape)} do not broadcast") from None
    a, b = _widened(x1).broadcast_to(shape), _widened(x2).broadcast_to(shape)
    n1 = _vector_norm(a, 2, dim, True).clamp_min(eps)
    n2 = _vector_norm(b, 2, dim, True).clamp_min(eps)
    return ((a / n1) * (b / n2)).sum(dim).astype(x1.dtype, copy=False)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """`pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False)`: the
    `p`-norm of `x1 - x2 + eps` along the last dimension."""
    fn = "pairwise_distance"
    _floats(x1, fn, "x1")
    _same_dtype(x1, x2, fn, "x2")
    d = _widened(x1 - x2 + eps)
    if d.ndim == 0:
        return _vector_norm(d.reshape(1), p, -1, False).astype(x1.dtype, copy=False)
    return _vector_norm(d, p, -1, keepdim).astype(x1.dtype, copy=False)

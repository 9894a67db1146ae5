"""``silt.nn.functional``'s normalisations, ``linear``, ``dropout``,
``embedding``, ``one_hot`` and attention."""

import math
import numbers

import numpy as np

from .. import _creation, _silt
from .._silt import ArgumentError, DTypeError
from ._args import (
    _channel_shape, _compute_dtype, _floats, _in_place, _on, _params_as, _same_dtype, _tensor,
    _widened,
)

ops = _silt.ops


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
    default the machine epsilon of the type it is computed in, float32's
    for float16, as PyTorch's), times `weight`."""
    _floats(input, "rms_norm")
    # PyTorch's rms_norm takes a weight of any float dtype, the result of the input's
    (weight,) = _params_as(input, "rms_norm", any_float=True, weight=weight)
    return ops.rms_norm(input, list(_shape(normalized_shape)), weight, eps)


def _shape(s):
    shape = (s,) if isinstance(s, numbers.Integral) else tuple(s)
    if any(not isinstance(d, numbers.Integral) or d < 0 for d in shape):
        raise ArgumentError(f"normalized_shape={list(shape)}: sizes are integers of at least 0")
    return shape


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """`normalize(input, p=2.0, dim=1, eps=1e-12)`: `input` over its `p`-norm
    along `dim`, the norm at least `eps`."""
    _floats(input, "normalize")
    x = _widened(input)
    return (x / x.norm(p, dim, True).clamp_min(eps)).astype(input.dtype)


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
    if n * c // num_groups * math.prod(input.shape[2:]) == 1:
        # PyTorch's check (its batch norm's): one value a group is no statistic
        raise ArgumentError("group_norm: expected more than 1 value per group")
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
    group a channel). Running statistics given with `use_input_stats` are
    updated in place as PyTorch's: each sample's update as `batch_norm`'s
    (the unbiased variance), averaged over the samples. With
    `use_input_stats=False`, the running statistics normalise instead."""
    _floats(input, "instance_norm")
    if input.ndim < 3:
        raise ArgumentError(f"instance_norm: input must have at least 3 dimensions, not {input.ndim}")
    if not use_input_stats:
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    count = math.prod(input.shape[2:])
    if count == 1:
        raise ArgumentError("instance_norm: needs more than one spatial element a channel")
    c = input.shape[1]
    for name, v in (("running_mean", running_mean), ("running_var", running_var)):
        if v is not None and tuple(_floats(v, "instance_norm", name).shape) != (c,):
            raise ArgumentError(f"instance_norm: {name} must have shape ({c},), not {tuple(v.shape)}")
    if momentum is None and (running_mean is not None or running_var is not None):
        raise ArgumentError("instance_norm: momentum=None (a cumulative average) is not taken")
    y = group_norm(input, c, weight, bias, eps)
    if input.numel() and (running_mean is not None or running_var is not None):
        cd = _compute_dtype(input)
        x = input.astype(cd, copy=False)
        dims = list(range(2, input.ndim))
        if running_mean is not None:
            each = running_mean.astype(cd, copy=False) * (1 - momentum) + x.mean(dims) * momentum
            running_mean.copy_(each.mean(0))
        if running_var is not None:
            var = x.var(dims, correction=0)
            each = running_var.astype(cd, copy=False) * (1 - momentum) + var * (momentum * count / (count - 1))
            running_var.copy_(each.mean(0))
    return y


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


def _channel_dropout(input, p, training, inplace, channels, fn):
    """``dropout`` of whole slices: those of ``input``'s first ``channels``
    dimensions."""
    _floats(input, fn)
    if not 0 <= p <= 1:
        raise ArgumentError(f"{fn}: p must be in [0, 1], not {p}")
    if input.ndim <= channels:
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} has no dimension past its channels")
    if not training or p == 0:
        return input
    nd = input.ndim - channels
    channels = list(input.shape[:channels])
    if p == 1:
        y = input * 0
    else:
        keep = _creation.rand(*channels, device=input.device) >= p
        scale = keep.astype(input.dtype) * (1.0 / (1 - p))
        y = input * scale.reshape(channels + [1] * nd)
    return _in_place(input, y, inplace)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """`dropout1d(input, p=0.5, training=True, inplace=False)`: `dropout`
    of whole channels of `[N, C, L]` (or `[C, L]`): each zeroed with
    probability `p`, the others divided by `1 - p`."""
    if _tensor(input, "dropout1d").ndim not in (2, 3):
        raise ArgumentError(f"dropout1d: input must have 2 or 3 dimensions, not {input.ndim}")
    return _channel_dropout(input, p, training, inplace, input.ndim - 1, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):
    """`dropout2d(...)`: as `dropout1d` over `[N, C, H, W]`; as PyTorch's, an
    input of another rank (a 3-d one included) drops the slices of its first
    two dimensions."""
    return _channel_dropout(input, p, training, inplace, 2, "dropout2d")


def dropout3d(input, p=0.5, training=True, inplace=False):
    """`dropout3d(...)`: as `dropout1d` over `[N, C, D, H, W]`; any other rank
    (`[C, D, H, W]`) drops the slices of its first dimension."""
    batched = _tensor(input, "dropout3d").ndim == 5
    return _channel_dropout(input, p, training, inplace, 2 if batched else 1, "dropout3d")


def one_hot(tensor, num_classes=-1):
    """`one_hot(tensor, num_classes=-1)`: int64 with a last dimension of
    `num_classes` (one past the largest class by default), 1 at each class of
    `tensor` (int64) and 0 elsewhere; a class out of range raises."""
    _tensor(tensor, "one_hot", "tensor")
    if tensor.dtype != np.int64:
        raise DTypeError(f"one_hot: tensor must be int64, not {tensor.dtype}")
    if num_classes < -1:
        raise ArgumentError(f"one_hot: num_classes must be -1 (one past the largest class) or at least 0, "
                            f"not {num_classes}")
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
    """`embedding(input, weight, padding_idx=None, max_norm=None,
    norm_type=2.0, ...)`: the rows of `weight` (2-d) at the indices of
    `input` (int64 or int32), shaped `input.shape + (embedding_dim,)`.
    With `max_norm`, each row looked up whose `norm_type`-norm is above it
    is first scaled in `weight` itself to `max_norm / (norm + 1e-7)` times
    its length, as PyTorch's. `padding_idx` matters only to gradients and
    is checked."""
    _tensor(input, "embedding")
    _tensor(weight, "embedding", "weight")
    if input.dtype not in (np.int64, np.int32):
        raise DTypeError(f"embedding: input must be int64 or int32, not {input.dtype}")
    if weight.ndim != 2:
        raise ArgumentError(f"embedding: weight must have 2 dimensions, not {weight.ndim}")
    if padding_idx is not None and not -weight.shape[0] <= padding_idx < weight.shape[0]:
        raise ArgumentError(f"embedding: padding_idx {padding_idx} is out of range for {weight.shape[0]} rows")
    places = input.reshape(-1)
    if max_norm is not None:
        _embedding_renorm(weight, places, max_norm, norm_type)
    rows = weight.index_select(0, places)
    return rows.reshape(tuple(input.shape) + (weight.shape[1],))


def _embedding_renorm(weight, places, max_norm, norm_type):
    """PyTorch's ``embedding_renorm_``: the rows of ``weight`` at ``places``
    (each once) whose norm exceeds ``max_norm``, scaled in place."""
    _floats(weight, "embedding", "weight")
    if not places.numel():
        return
    once = places.unique()
    rows = weight.index_select(0, once)  # an index out of range raises here, before any write
    # PyTorch's arithmetic: each row's norm in the weight's dtype, read as a
    # double; the scale `max_norm / (norm + 1e-7)` in double, rounded once
    # to the type the row is multiplied in (float32 for float16)
    norms = rows.norm(norm_type, 1, True).numpy().astype(np.float64)
    cd = _compute_dtype(weight)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = (max_norm / (norms + 1e-7)).astype(cd)
    scaled = (rows.astype(cd, copy=False) * _on(weight, scale)).astype(weight.dtype)
    weight.index_copy_(0, once, rows.where(_on(weight, ~(norms > max_norm)), scaled))


# ---- attention ---------------------------------------------------------------------

def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    """`scaled_dot_product_attention(query, key, value, attn_mask=None,
    dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False)`:
    `softmax(query @ key.T * scale + mask) @ value` over `[..., L, E]`
    queries, `[..., S, E]` keys and `[..., S, Ev]` values, `scale`
    `1 / sqrt(E)` by default; a bool `attn_mask` keeps where True (-inf
    elsewhere), a float one is added; `is_causal` keeps `j <= i`; with
    `enable_gqa`, key and value heads (dimension -3) repeat to the query's.
    A row masked everywhere gives zeros (PyTorch's safe softmax); float16
    computes in float32."""
    fn = "scaled_dot_product_attention"
    _floats(query, fn, "query")
    _same_dtype(query, _tensor(key, fn, "key"), fn, "key")
    _same_dtype(query, _tensor(value, fn, "value"), fn, "value")
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise ArgumentError(f"{fn}: query, key and value need at least 2 dimensions")
    L, E = query.shape[-2], query.shape[-1]
    S = key.shape[-2]
    if key.shape[-1] != E or value.shape[-2] != S:
        raise ArgumentError(f"{fn}: query {tuple(query.shape)}, key {tuple(key.shape)} and value "
                            f"{tuple(value.shape)} do not fit")
    if is_causal and attn_mask is not None:
        raise ArgumentError(f"{fn}: give attn_mask or is_causal, not both")
    if enable_gqa:
        if min(query.ndim, key.ndim, value.ndim) < 3:
            raise ArgumentError(f"{fn}: enable_gqa needs heads (dimension -3) in query, key and value")
        hq, hk, hv = query.shape[-3], key.shape[-3], value.shape[-3]
        if not (hk and hv and hq % hk == 0 and hq % hv == 0):
            raise ArgumentError(f"{fn}: {hq} query heads do not share {hk} key and {hv} value heads")
        key = key.repeat_interleave(hq // hk, dim=-3)
        value = value.repeat_interleave(hq // hv, dim=-3)
    if scale is None:
        scale = 1.0 / math.sqrt(E) if E else 1.0
    # halves in float32, as PyTorch's kernels compute them
    cd = _compute_dtype(query)
    q, k, v = (a.astype(cd, copy=False) for a in (query, key, value))
    scores = q.matmul(k.transpose(-2, -1)) * scale
    if is_causal:
        attn_mask = _on(query, np.tril(np.ones((L, S), np.bool_)))
    if attn_mask is not None:
        _tensor(attn_mask, fn, "attn_mask")
        if attn_mask.dtype == np.bool_:
            scores = scores.where(attn_mask, -math.inf)
        elif attn_mask.dtype in (np.float32, query.dtype):
            scores = scores + attn_mask.astype(cd, copy=False)
        else:
            raise DTypeError(f"{fn}: attn_mask must be bool, float32 or the query's {query.dtype}, "
                             f"not {attn_mask.dtype}")
        if scores.ndim > max(query.ndim, key.ndim):
            raise ArgumentError(f"{fn}: attn_mask {tuple(attn_mask.shape)} has more dimensions than the scores")
    if S:
        weights = ops.softmax(scores, scores.ndim - 1)
        # a row masked everywhere attends to nothing (PyTorch's safe softmax)
        weights = weights.where((scores.amax(-1, True) == -math.inf).logical_not(), 0)
    else:
        weights = scores
    if dropout_p > 0:
        weights = dropout(weights, dropout_p)
    return weights.matmul(v).astype(query.dtype, copy=False)

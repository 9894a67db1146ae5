"""``silt.nn.functional``'s losses and distances."""

import numbers
import warnings

import numpy as np

from .. import _silt
from .._silt import ArgumentError, DTypeError
from ._args import _floats, _legacy_reduction, _reduced, _same_dtype, _tensor, _widened

ops = _silt.ops


# ---- losses -----------------------------------------------------------------------

def _pair(input, target, fn, broadcast=False, warn=True):
    """Checks a loss's `input` and `target`: floats of one dtype, of one
    shape, or (`broadcast`: the regression losses and `kl_div`, as
    PyTorch's) shapes that broadcast, with PyTorch's warning where it gives
    one (`warn`)."""
    _floats(input, fn)
    _tensor(target, fn, "target")
    if tuple(input.shape) != tuple(target.shape):
        if not broadcast:
            raise ArgumentError(f"{fn}: input {tuple(input.shape)} and target {tuple(target.shape)} differ in shape")
        try:
            np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
        except ValueError:
            raise ArgumentError(f"{fn}: input {tuple(input.shape)} and target {tuple(target.shape)} "
                                "do not broadcast") from None
        if warn:
            warnings.warn(f"{fn}: a target of shape {tuple(target.shape)} is broadcast with an input of shape "
                          f"{tuple(input.shape)}, which is likely not what was meant", UserWarning, stacklevel=3)
    _same_dtype(input, target, fn, "target")


def _regression(loss, input, weight, reduction, fn, by_weights=True):
    """The regression losses' `weight` (of `input`'s shape, each element's
    loss times it; `'mean'` then divides by the weights' sum, or by the
    count where not `by_weights`, as PyTorch's `huber_loss`), reduced."""
    if weight is None:
        return _reduced(loss, reduction, fn)
    _tensor(weight, fn, "weight")
    if tuple(weight.shape) != tuple(input.shape):
        raise ArgumentError(f"{fn}: weight {tuple(weight.shape)} and input {tuple(input.shape)} differ in shape")
    loss = loss * weight
    if reduction == "mean" and by_weights:
        return loss.sum() / weight.sum()
    return _reduced(loss, reduction, fn)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """`mse_loss(input, target, reduction='mean', weight=None)`: `(input -
    target) ** 2`, reduced (`'mean'`, `'sum'` or `'none'`; the deprecated
    `size_average` and `reduce`, when given, decide it as in PyTorch); a
    `weight` of the input's shape multiplies each element's loss, and the
    mean is then over the weights' sum. `target` broadcasts with `input`
    (with PyTorch's warning)."""
    _pair(input, target, "mse_loss", broadcast=True)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    d = input - target
    return _regression(d * d, input, weight, reduction, "mse_loss")


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """`l1_loss(input, target, reduction='mean', weight=None)`: `|input -
    target|`, reduced and weighed as `mse_loss`."""
    _pair(input, target, "l1_loss", broadcast=True)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _regression((input - target).abs(), input, weight, reduction, "l1_loss")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """`smooth_l1_loss(input, target, reduction='mean', beta=1.0)`: `0.5 d² /
    beta` where `|d| < beta`, else `|d| - 0.5 beta`."""
    _pair(input, target, "smooth_l1_loss", broadcast=True)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise ArgumentError(f"smooth_l1_loss: beta must not be negative, not {beta}")
    a = (input - target).abs()
    if beta == 0:
        return _reduced(a, reduction, "smooth_l1_loss")
    return _reduced((a * a * (0.5 / beta)).where(a < beta, a - 0.5 * beta), reduction, "smooth_l1_loss")


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """`huber_loss(input, target, reduction='mean', delta=1.0, weight=None)`:
    `0.5 d²` where `|d| < delta`, else `delta (|d| - 0.5 delta)`; a `weight`
    multiplies each element's loss (the mean stays over the count, as
    PyTorch's)."""
    _pair(input, target, "huber_loss", broadcast=True)
    if delta <= 0:
        raise ArgumentError(f"huber_loss: delta must be positive, not {delta}")
    a = (input - target).abs()
    loss = (a * a * 0.5).where(a < delta, (a - 0.5 * delta) * delta)
    return _regression(loss, input, weight, reduction, "huber_loss", by_weights=False)


def _broadcasts_to_input(weight, input, fn, name):
    """Checks that ``weight`` broadcasts to ``input``'s shape (not to a
    larger one), as PyTorch's losses weigh the input in place."""
    _same_dtype(input, weight, fn, name)
    shape = tuple(input.shape)
    try:
        fits = np.broadcast_shapes(tuple(weight.shape), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise ArgumentError(f"{fn}: {name} {tuple(weight.shape)} does not broadcast to "
                            f"the input's shape {shape}")


def _weighted(loss, weight, fn):
    if weight is None:
        return loss
    _broadcasts_to_input(weight, loss, fn, "weight")
    return loss * weight


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """`binary_cross_entropy(input, target, weight=None, reduction='mean')`:
    `-(t log(x) + (1 - t) log(1 - x))`, each log at least -100 (as PyTorch);
    `input` and `target` must lie in [0, 1]; a `weight` (multiplying each
    element's loss) must broadcast to the input's shape."""
    fn = "binary_cross_entropy"
    _pair(input, target, fn)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input.numel() and not bool(((input >= 0) & (input <= 1)).all().item()):
        raise ArgumentError(f"{fn}: input must lie in [0, 1]")
    if target.numel() and not bool(((target >= 0) & (target <= 1)).all().item()):
        raise ArgumentError(f"{fn}: target must lie in [0, 1]")
    log_x = input.log().clamp_min(-100)
    log_1mx = (-input).log1p().clamp_min(-100)
    loss = -(target * log_x + (1 - target) * log_1mx)
    return _reduced(_weighted(loss, weight, fn), reduction, fn)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """`binary_cross_entropy_with_logits(input, target, weight=None,
    reduction='mean', pos_weight=None)`: `binary_cross_entropy` of
    `sigmoid(input)`, computed from the logits without overflow; `pos_weight`
    weighs the positive term (it and `weight` must broadcast to the input's
    shape)."""
    fn = "binary_cross_entropy_with_logits"
    _pair(input, target, fn)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    softplus_neg = (-input.abs()).exp().log1p() + (-input).clamp_min(0)  # log(1 + exp(-x))
    if pos_weight is None:
        loss = (1 - target) * input + softplus_neg
    else:
        _broadcasts_to_input(pos_weight, input, fn, "pos_weight")
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
    target (int64 or uint8; `[N, *d]` for an input `[N, C, *d]`); targets equal to
    `ignore_index` count 0, and `'mean'` divides by the weights of the
    others. A class out of range raises."""
    fn = "nll_loss"
    _floats(input, fn)
    _tensor(target, fn, "target")
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _ignore_index(ignore_index, fn)
    if target.dtype == np.uint8:
        target = target.astype(np.int64)  # PyTorch's "Long or Byte"
    if target.dtype != np.int64:
        raise DTypeError(f"{fn}: target must be int64 (or uint8), not {target.dtype}")
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
    # ignored places count exactly 0, whatever their input (NaN, infinities)
    loss = (-(picked * w)).where(kept, 0)
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
        if ignore_index != -100:
            raise ArgumentError(f"{fn}: ignore_index is not taken with class probabilities (a float target)")
        if tuple(target.shape) != tuple(input.shape):
            raise ArgumentError(f"{fn}: probabilities {tuple(target.shape)} must have "
                                f"input's shape {tuple(input.shape)}")
        _same_dtype(input, target, fn, "target")
        p = target if label_smoothing == 0 else target * (1 - label_smoothing) + label_smoothing / c
        terms = logp * p
        if weight is not None:
            terms = terms * weight.reshape(wshape)
        loss = -terms.sum(cdim)
        return _reduced(loss, reduction, fn)
    if target.dtype == np.uint8:
        target = target.astype(np.int64)  # PyTorch's "Long or Byte"
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


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):
    """`linear_cross_entropy(input, linear_weight, target, *, linear_bias=None,
    weight=None, reduction='mean', ignore_index=None, label_smoothing=0.0,
    options=None)`: `cross_entropy` of the logits `input @ W.T + bias`, where
    `linear_weight` is `[C, *out_features, in_features]` (the logits
    `[*batch, C, *out_features]`, a K-dimensional loss for a batched 1-d
    `input`); `ignore_index=None` is PyTorch's -100. silt forms the logits
    whole: `options` (PyTorch's chunking of the batch) is taken and has no
    effect."""
    fn = "linear_cross_entropy"
    _floats(input, fn)
    _tensor(linear_weight, fn, "linear_weight")
    _tensor(target, fn, "target")
    if input.ndim not in (1, 2):
        raise ArgumentError(f"{fn}: input must have 1 or 2 dimensions, not {input.ndim}")
    if linear_weight.ndim < 2:
        raise ArgumentError(f"{fn}: linear_weight must have at least 2 dimensions, not {linear_weight.ndim}")
    _same_dtype(input, linear_weight, fn, "linear_weight")
    batch, features = tuple(input.shape[:-1]), input.shape[-1]
    if linear_weight.shape[-1] != features:
        raise ArgumentError(f"{fn}: linear_weight's last dimension {linear_weight.shape[-1]} must be "
                            f"input's {features} (in_features)")
    classes = tuple(linear_weight.shape[:-1])
    if linear_bias is not None:
        _same_dtype(input, linear_bias, fn, "linear_bias")
        if tuple(linear_bias.shape) != classes:
            raise ArgumentError(f"{fn}: linear_bias must have shape {classes}, not {tuple(linear_bias.shape)}")
    if len(classes) > 1 and not batch:
        raise ArgumentError(f"{fn}: a K-dimensional loss (linear_weight {tuple(linear_weight.shape)}) "
                            f"needs a batched input (N, {features}), not {tuple(input.shape)}")
    logits_shape = batch + classes
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise ArgumentError(f"{fn}: ignore_index is not taken with class probabilities (a target of the "
                            f"logits' shape {logits_shape})")
    logits = input.matmul(linear_weight.reshape(-1, features).t())
    if linear_bias is not None:
        logits = logits + linear_bias.reshape(-1)
    return cross_entropy(logits.reshape(logits_shape), target, weight, reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         label_smoothing=label_smoothing)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """`kl_div(input, target, reduction='mean', log_target=False)`: `target *
    (log(target) - input)` (0 where `target` is 0), with `input` log
    probabilities; `'batchmean'` divides the sum by `input`'s first
    dimension. The two broadcast, as PyTorch's (without a warning)."""
    fn = "kl_div"
    _pair(input, target, fn, broadcast=True, warn=False)
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
    n1 = a.norm(2, dim, True).clamp_min(eps)
    n2 = b.norm(2, dim, True).clamp_min(eps)
    return ((a / n1) * (b / n2)).sum(dim).astype(x1.dtype, copy=False)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """`pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False)`: the
    `p`-norm of `x1 - x2 + eps` along the last dimension."""
    fn = "pairwise_distance"
    _floats(x1, fn, "x1")
    _same_dtype(x1, x2, fn, "x2")
    d = _widened(x1 - x2 + eps)
    if d.ndim == 0:
        return d.reshape(1).norm(p, -1, False).astype(x1.dtype, copy=False)
    return d.norm(p, -1, keepdim).astype(x1.dtype, copy=False)

"""``silt.nn.functional``'s margin and likelihood losses: ranking, hinge,
soft margins, cosine and triplet embeddings, Poisson and Gaussian negative
log likelihoods."""

import math
import numbers

from .._silt import ArgumentError, Tensor
from ._args import _floats, _legacy_reduction, _reduced, _same_dtype, _tensor, _widened
from ._losses import pairwise_distance


def _signs(target, input, fn):
    """``target`` (any numeric dtype, of 1 and -1) compared as ``input``'s dtype."""
    _tensor(target, fn, "target")
    return target if target.dtype == input.dtype else target.astype(input.dtype)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """`margin_ranking_loss(input1, input2, target, margin=0.0,
    reduction='mean')`: `max(0, -target * (input1 - input2) + margin)`, with
    `target` 1 where `input1` should rank higher and -1 where lower."""
    fn = "margin_ranking_loss"
    _floats(input1, fn, "input1")
    _same_dtype(input1, _tensor(input2, fn, "input2"), fn, "input2")
    y = _signs(target, input1, fn)
    if not input1.ndim == input2.ndim == y.ndim:
        raise ArgumentError(f"{fn}: input1, input2 and target must have as many dimensions, not "
                            f"{input1.ndim}, {input2.ndim} and {y.ndim}")
    loss = (-y * (input1 - input2) + margin).clamp_min(0)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """`hinge_embedding_loss(input, target, margin=1.0, reduction='mean')`:
    `input` where `target` is 1, `max(0, margin - input)` where it is -1."""
    fn = "hinge_embedding_loss"
    _floats(input, fn)
    y = _signs(target, input, fn)
    # as PyTorch's: each part where the target is not the other sign
    loss = (margin - input).clamp_min(0).where(y != 1, 0) + input.where(y != -1, 0)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """`soft_margin_loss(input, target, reduction='mean')`: `log(1 +
    exp(-target * input))`, with `target` 1 or -1."""
    fn = "soft_margin_loss"
    _floats(input, fn)
    loss = (-_signs(target, input, fn) * input).exp().log1p()  # as PyTorch's (it overflows alike)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """`multilabel_soft_margin_loss(input, target, weight=None,
    reduction='mean')`: for `[N, C]` scores and 0/1 targets, the mean over
    the classes of `-(y log sigmoid(x) + (1 - y) log sigmoid(-x))` (times
    `weight`), then reduced over the samples."""
    fn = "multilabel_soft_margin_loss"
    _floats(input, fn)
    y = _signs(target, input, fn)
    if input.ndim < 1 or tuple(y.shape) != tuple(input.shape):
        raise ArgumentError(f"{fn}: input {tuple(input.shape)} and target {tuple(y.shape)} must be [N, C] alike")
    terms = -(y * input.logsigmoid() + (1 - y) * (-input).logsigmoid())
    if weight is not None:
        _same_dtype(input, _tensor(weight, fn, "weight"), fn, "weight")
        terms = terms * weight
    loss = terms.mean(-1)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """`cosine_embedding_loss(input1, input2, target, margin=0.0,
    reduction='mean')`: `1 - cos(input1, input2)` where `target` is 1,
    `max(0, cos - margin)` where it is -1; the cosine along the last
    dimension, its squared norms plus 1e-12 (PyTorch's)."""
    fn = "cosine_embedding_loss"
    _floats(input1, fn, "input1")
    _same_dtype(input1, _tensor(input2, fn, "input2"), fn, "input2")
    if input1.ndim not in (1, 2) or tuple(input1.shape) != tuple(input2.shape):
        raise ArgumentError(f"{fn}: inputs {tuple(input1.shape)} and {tuple(input2.shape)} must be alike, "
                            "of 1 or 2 dimensions")
    y = _signs(target, input1, fn)
    if y.ndim != input1.ndim - 1 or (y.ndim == 1 and y.shape[0] != input1.shape[0]):
        raise ArgumentError(f"{fn}: target {tuple(y.shape)} must be 0-d for 1-d inputs and of their "
                            f"length for 2-d ones, inputs {tuple(input1.shape)}")
    a, b = _widened(input1), _widened(input2)
    eps = 1e-12
    cos = (a * b).sum(-1) / (((a * a).sum(-1) + eps) * ((b * b).sum(-1) + eps)).sqrt()
    cos = cos.astype(input1.dtype, copy=False)
    loss = (1 - cos).where(y == 1, 0) + (cos - margin).clamp_min(0).where(y == -1, 0)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """`triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2,
    eps=1e-6, swap=False, reduction='mean')`: `max(0, margin + d(a, p) -
    d(a, n))` with `d` the `pairwise_distance`; with `swap`, `d(a, n)` is
    the smaller of it and `d(p, n)`."""
    fn = "triplet_margin_loss"
    _floats(anchor, fn, "anchor")
    for name, v in (("positive", positive), ("negative", negative)):
        _same_dtype(anchor, _tensor(v, fn, name), fn, name)
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise ArgumentError(f"{fn}: anchor, positive and negative must have as many dimensions")
    if margin <= 0:
        raise ArgumentError(f"{fn}: margin must be positive, not {margin}")
    d_ap = pairwise_distance(anchor, positive, p, eps)
    d_an = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_an = d_an.minimum(pairwise_distance(positive, negative, p, eps))
    loss = (d_ap - d_an + margin).clamp_min(0)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """`poisson_nll_loss(input, target, log_input=True, full=False,
    eps=1e-8, reduction='mean')`: `exp(input) - target * input` (the input a
    log rate), or `input - target * log(input + eps)`; `full` adds
    Stirling's `target log(target) - target + log(2 pi target) / 2` where
    `target > 1`."""
    fn = "poisson_nll_loss"
    _floats(input, fn)
    _same_dtype(input, _tensor(target, fn, "target"), fn, "target")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.where(target > 1, 0)
    return _reduced(loss, _legacy_reduction(size_average, reduce, reduction), fn)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """`gaussian_nll_loss(input, target, var, full=False, eps=1e-6,
    reduction='mean')`: `(log(max(var, eps)) + (input - target)² /
    max(var, eps)) / 2`, plus `log(2 pi) / 2` with `full`; `var` of
    `input`'s shape, or of one dimension fewer or a last dimension of 1
    (one variance for each row)."""
    fn = "gaussian_nll_loss"
    _floats(input, fn)
    _same_dtype(input, _tensor(target, fn, "target"), fn, "target")
    if not isinstance(var, Tensor):
        if isinstance(var, bool) or not isinstance(var, numbers.Real):
            raise TypeError(f"{fn}: var must be a tensor or a number, not {type(var).__name__}")
        var = input.new_full(input.shape, var)
    _same_dtype(input, var, fn, "var")
    if tuple(var.shape) != tuple(input.shape):
        if var.ndim == input.ndim - 1 and tuple(var.shape) == tuple(input.shape[:-1]):
            var = var.unsqueeze(-1)
        elif not (var.ndim == input.ndim and tuple(var.shape[:-1]) == tuple(input.shape[:-1])
                  and var.shape[-1] == 1):
            raise ArgumentError(f"{fn}: var {tuple(var.shape)} does not fit input {tuple(input.shape)}")
    if var.numel() and bool((var < 0).any().item()):
        raise ArgumentError(f"{fn}: var has negative entries")
    v = var.clamp_min(eps)
    d = input - target
    loss = (v.log() + d * d / v) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction, fn)

"""PyTorch's functions of ``torch`` that are ``torch.nn.functional``'s:
``silt.conv2d`` is ``silt.nn.functional.conv2d``, and so on. Where
``torch``'s own signature differs from ``torch.nn.functional``'s (the
normalisations' argument order, ``embedding``'s, a reduction given as an
integer, ``train`` for ``training``), the function here takes ``torch``'s and
calls the functional one."""

from .nn import functional as F

# the same signature in `torch` (its leading positional arguments, at least)
SAME = [
    "adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu", "celu_", "channel_shuffle", "conv1d",
    "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_similarity", "hardshrink", "max_pool1d", "max_pool2d", "max_pool3d", "pairwise_distance",
    "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu", "relu_", "rms_norm", "selu_", "threshold",
    "threshold_",
]

# `torch`'s reductions as integers (ATen's enumeration)
_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _reduction(reduction):
    """``reduction`` as ``torch.nn.functional`` names it: ``torch``'s
    functions take ATen's 0, 1 or 2 (names pass through)."""
    if isinstance(reduction, str):
        return reduction
    if type(reduction) is int and reduction in _REDUCTIONS:
        return _REDUCTIONS[reduction]
    raise ValueError(f"reduction must be 0 ('none'), 1 ('mean') or 2 ('sum'), not {reduction!r}")


def adaptive_max_pool1d(input, output_size):
    """``torch.adaptive_max_pool1d(input, output_size)``: the maxima and their
    indices (``F.adaptive_max_pool1d`` with ``return_indices=True``)."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def dropout(input, p, train):
    """``torch.dropout(input, p, train)``: ``F.dropout(input, p, training=train)``."""
    return F.dropout(input, p, training=train)


def dropout_(input, p, train):
    """``torch.dropout_(input, p, train)``: ``dropout`` in place."""
    return F.dropout(input, p, training=train, inplace=True)


def alpha_dropout(input, p, train):
    """``torch.alpha_dropout(input, p, train)``: ``F.alpha_dropout``."""
    return F.alpha_dropout(input, p, training=train)


def alpha_dropout_(input, p, train):
    """``torch.alpha_dropout_(input, p, train)``: ``alpha_dropout`` in place."""
    return F.alpha_dropout(input, p, training=train, inplace=True)


def feature_alpha_dropout(input, p, train):
    """``torch.feature_alpha_dropout(input, p, train)``: ``F.feature_alpha_dropout``."""
    return F.feature_alpha_dropout(input, p, training=train)


def feature_alpha_dropout_(input, p, train):
    """``torch.feature_alpha_dropout_(input, p, train)``: in place."""
    return F.feature_alpha_dropout(input, p, training=train, inplace=True)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled=True):
    """``torch.batch_norm``: the weight and bias before the running
    statistics (``F.batch_norm`` takes the statistics first);
    ``cudnn_enabled`` has no effect."""
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled=True):
    """``torch.instance_norm``: the weight and bias before the running
    statistics (``F.instance_norm`` takes the statistics first);
    ``cudnn_enabled`` has no effect."""
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    """``torch.group_norm``: ``F.group_norm``; ``cudnn_enabled`` has no effect."""
    return F.group_norm(input, num_groups, weight, bias, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    """``torch.layer_norm``: ``F.layer_norm``; ``cudnn_enable`` has no effect."""
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """``torch.embedding(weight, indices, ...)``: the rows of ``weight`` at
    ``indices`` (``F.embedding`` takes the indices first; ``padding_idx``,
    which only masks gradients, has no effect here)."""
    return F.embedding(indices, weight)


def rrelu(input, lower=0.125, upper=1.0 / 3.0, training=False, generator=None):
    """``torch.rrelu``: ``F.rrelu`` (only ``generator=None`` is taken, as
    silt's random functions take it)."""
    _no_generator(generator)
    return F.rrelu(input, lower, upper, training)


def rrelu_(input, lower=0.125, upper=1.0 / 3.0, training=False, generator=None):
    """``torch.rrelu_``: ``rrelu`` in place."""
    _no_generator(generator)
    return F.rrelu(input, lower, upper, training, inplace=True)


def _no_generator(generator):
    if generator is not None:
        raise ValueError("only generator=None is taken: silt draws from one generator (silt.manual_seed)")


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    """``torch.binary_cross_entropy_with_logits``: ``pos_weight`` before
    ``reduction``, which may be ATen's integer."""
    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    """``torch.cosine_embedding_loss``: ``F.cosine_embedding_loss``, the
    reduction as ATen's integer or a name."""
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    """``torch.hinge_embedding_loss``: ``F.hinge_embedding_loss``, the
    reduction as ATen's integer or a name."""
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    """``torch.margin_ranking_loss``: ``F.margin_ranking_loss``, the
    reduction as ATen's integer or a name."""
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False, reduction=1):
    """``torch.triplet_margin_loss``: ``F.triplet_margin_loss``, the
    reduction as ATen's integer or a name."""
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction(reduction))


def kl_div(input, target, reduction=1, *, log_target=False):
    """``torch.kl_div``: ``F.kl_div``, the reduction as ATen's integer or a
    name."""
    return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """``torch.poisson_nll_loss(input, target, log_input, full, eps,
    reduction)``: every argument given, the reduction as ATen's integer or a
    name."""
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """``torch.ctc_loss``: ``F.ctc_loss``, the reduction as ATen's integer or
    a name."""
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      reduction=_reduction(reduction), zero_infinity=zero_infinity)


ADAPTED = [
    "adaptive_max_pool1d", "alpha_dropout", "alpha_dropout_", "batch_norm", "binary_cross_entropy_with_logits",
    "cosine_embedding_loss", "ctc_loss", "dropout", "dropout_", "embedding", "feature_alpha_dropout",
    "feature_alpha_dropout_", "group_norm", "hinge_embedding_loss", "instance_norm", "kl_div", "layer_norm",
    "margin_ranking_loss", "poisson_nll_loss", "rrelu", "rrelu_", "triplet_margin_loss",
]

NAMES = sorted(SAME + ADAPTED)

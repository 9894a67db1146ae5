"""PyTorch's functions of ``torch`` that are ``torch.nn.functional``'s:
``silt.conv2d`` is ``silt.nn.functional.conv2d``, and so on. Where
``torch``'s own signature differs from ``torch.nn.functional``'s (the
normalisations' argument order, ``embedding``'s, a reduction given as an
integer, ``train`` for ``training``), the function here takes ``torch``'s and
calls the functional one."""

import numpy as np

from ._silt import ArgumentError, DTypeError
from .nn import functional as F
from .nn._args import _tensor
from .nn._layers import _channel_dropout, _embedding_renorm

# the same signature in `torch` (its leading positional arguments, at least)
SAME = [
    "adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu", "celu_", "channel_shuffle", "conv1d",
    "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_similarity", "hardshrink", "max_pool1d", "max_pool2d", "max_pool3d", "pairwise_distance",
    "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu", "relu_", "rms_norm", "selu_", "threshold",
    "threshold_", "native_channel_shuffle",
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


def feature_dropout(input, p, train):
    """``torch.feature_dropout(input, p, train)``: dropout of whole features,
    the slices of ``input``'s first two dimensions (each element of a 2-d
    input alone), as ``F.dropout2d`` of a 4-d input."""
    return _feature_dropout(input, p, train, False)


def feature_dropout_(input, p, train):
    """``torch.feature_dropout_(input, p, train)``: ``feature_dropout`` in place."""
    return _feature_dropout(input, p, train, True)


def _feature_dropout(input, p, train, inplace):
    fn = "feature_dropout"
    _tensor(input, fn)
    if input.ndim < 2:
        raise ArgumentError(f"{fn}: input must have at least 2 dimensions, not {input.ndim}")
    if input.ndim == 2:
        return F.dropout(input, p, training=train, inplace=inplace)
    return _channel_dropout(input, p, train, inplace, 2, fn)


def embedding_renorm_(input, indices, max_norm, norm_type):
    """``torch.embedding_renorm_(input, indices, max_norm, norm_type)``: the
    rows of the 2-d ``input`` at ``indices`` (each once) whose
    ``norm_type``-norm is above ``max_norm`` scaled in place to ``max_norm /
    (norm + 1e-7)`` of their length, as ``F.embedding`` with ``max_norm``
    does; returns ``input``."""
    fn = "embedding_renorm_"
    _tensor(input, fn)
    _tensor(indices, fn, "indices")
    if input.ndim != 2:
        raise ArgumentError(f"{fn}: input must have 2 dimensions, not {input.ndim}")
    if indices.dtype not in (np.int64, np.int32):
        raise DTypeError(f"{fn}: indices must be int64 or int32, not {indices.dtype}")
    _embedding_renorm(input, indices.reshape(-1), max_norm, norm_type)
    return input


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """``torch.convolution(input, weight, bias, stride, padding, dilation,
    transposed, output_padding, groups)``: ATen's one convolution,
    ``F.conv{1,2,3}d`` or, ``transposed``, ``F.conv_transpose{1,2,3}d``, by
    the weight's rank; ``output_padding`` is taken only when transposed."""
    fn = "convolution"
    _tensor(weight, fn, "weight")
    nd = weight.ndim - 2
    if nd not in (1, 2, 3):
        raise ArgumentError(f"{fn}: weight must have 3 to 5 dimensions, not {weight.ndim}")
    if transposed:
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[nd - 1]
        return conv(input, weight, bias, stride, padding, output_padding, groups, dilation)
    if any(output_padding if isinstance(output_padding, (list, tuple)) else [output_padding]):
        raise ArgumentError(f"{fn}: output_padding {output_padding} is only for transposed convolutions")
    return (F.conv1d, F.conv2d, F.conv3d)[nd - 1](input, weight, bias, stride, padding, dilation, groups)


_GRID_MODES = ("bilinear", "nearest", "bicubic")
_GRID_PADDINGS = ("zeros", "border", "reflection")


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler(input, grid, interpolation_mode, padding_mode,
    align_corners)``: ``F.grid_sample`` with ATen's modes as integers
    (``0`` bilinear, ``1`` nearest, ``2`` bicubic; padding ``0`` zeros,
    ``1`` border, ``2`` reflection)."""
    if type(interpolation_mode) is not int or not 0 <= interpolation_mode < 3:
        raise ArgumentError(f"grid_sampler: interpolation_mode must be 0, 1 or 2, not {interpolation_mode!r}")
    if type(padding_mode) is not int or not 0 <= padding_mode < 3:
        raise ArgumentError(f"grid_sampler: padding_mode must be 0, 1 or 2, not {padding_mode!r}")
    return F.grid_sample(input, grid, _GRID_MODES[interpolation_mode], _GRID_PADDINGS[padding_mode],
                         bool(align_corners))


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler_2d``: ``grid_sampler`` of a 4-d input."""
    _tensor(input, "grid_sampler_2d")
    if input.ndim != 4:
        raise ArgumentError(f"grid_sampler_2d: input must have 4 dimensions, not {input.ndim}")
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler_3d``: ``grid_sampler`` of a 5-d input."""
    _tensor(input, "grid_sampler_3d")
    if input.ndim != 5:
        raise ArgumentError(f"grid_sampler_3d: input must have 5 dimensions, not {input.ndim}")
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def affine_grid_generator(theta, size, align_corners):
    """``torch.affine_grid_generator(theta, size, align_corners)``:
    ``F.affine_grid``."""
    return F.affine_grid(theta, size, bool(align_corners))


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


# ---- PyTorch's ATen forms: statistics kept, cells of the recurrent layers ------------

def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """``torch.max_pool1d_with_indices(input, kernel_size, stride=None,
    padding=0, dilation=1, ceil_mode=False)``: ``(output, indices)`` of
    ``F.max_pool1d``."""
    if stride is None or (not isinstance(stride, int) and len(stride) == 0):
        stride = None
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def constant_pad_nd(input, pad, value=0):
    """``torch.constant_pad_nd(input, pad, value=0)``: ``F.pad(input, pad,
    'constant', value)`` (negative pads cut)."""
    return F.pad(input, pad, "constant", value)


def _floats(input, op):
    from ._silt import DTypeError, Tensor
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}: input must be a silt.Tensor, not {type(input).__name__}")
    if input.dtype.kind != "f":
        raise DTypeError(f"{op}: float tensors only, not {input.dtype}")
    return input


def _stats(x, dims, eps):
    """The mean and `1 / sqrt(var + eps)` (biased variance) of `x` over
    `dims`, kept, computed in float32 for float16 (as PyTorch's CPU kernels
    sum), in `x`'s dtype."""
    import numpy as np
    w = x.astype(np.float32) if x.dtype == np.float16 else x
    mean = w.mean(dims, keepdim=True)
    rstd = (w.var(dims, keepdim=True, correction=0) + eps).rsqrt()
    return mean.astype(x.dtype, copy=False), rstd.astype(x.dtype, copy=False)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """``torch.native_layer_norm(input, normalized_shape, weight, bias,
    eps)``: ``(output, mean, rstd)``: ``F.layer_norm``'s output, and each
    slice's mean and ``1 / sqrt(var + eps)`` (biased variance) of the shape
    ``input.shape[:axis] + (1,) * len(normalized_shape)``."""
    x = _floats(input, "native_layer_norm")
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    axis = x.ndim - len(shape)
    if axis < 0 or tuple(x.shape[axis:]) != shape:
        raise ValueError(f"native_layer_norm: normalized_shape {shape} is not the end of the input's shape "
                         f"{tuple(x.shape)}")
    out = F.layer_norm(x, shape, weight, bias, eps)
    if x.numel() == 0:
        return out, x.new_zeros(tuple(x.shape[:axis]) + (1,) * len(shape)), x.new_zeros(
            tuple(x.shape[:axis]) + (1,) * len(shape))
    mean, rstd = _stats(x, tuple(range(axis, x.ndim)), eps)
    return out, mean, rstd


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """``torch.native_group_norm(input, weight, bias, N, C, HxW, group,
    eps)``: ``(output, mean, rstd)``: ``F.group_norm``'s output, and each
    sample's and group's mean and ``1 / sqrt(var + eps)`` (``[N, group]``).
    ``N``, ``C`` and ``HxW`` must be the input's."""
    x = _floats(input, "native_group_norm")
    if x.ndim < 2 or (x.shape[0], x.shape[1], x.numel() // max(x.shape[0] * x.shape[1], 1)) != (N, C, HxW):
        raise ValueError(f"native_group_norm: N={N}, C={C}, HxW={HxW} are not the input's {tuple(x.shape)}")
    out = F.group_norm(x, group, weight, bias, eps)
    mean, rstd = _stats(x.reshape(N, group, -1), (2,), eps)
    return out, mean.reshape(N, group), rstd.reshape(N, group)


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """``torch.native_batch_norm(input, weight, bias, running_mean,
    running_var, training, momentum, eps)``: ``(output, save_mean,
    save_invstd)``: ``F.batch_norm``'s output (the running statistics
    updated in training), and in training each channel's mean and ``1 /
    sqrt(var + eps)`` (``[C]``, biased variance), else two empty tensors,
    as PyTorch's."""
    x = _floats(input, "native_batch_norm")
    out = F.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        return out, x.new_zeros((0,)), x.new_zeros((0,))
    dims = (0,) + tuple(range(2, x.ndim))
    mean, rstd = _stats(x, dims, eps)
    return out, mean.reshape(-1), rstd.reshape(-1)


def native_dropout(input, p, train):
    """``torch.native_dropout(input, p, train)``: ``(output, mask)``: in
    training (``train`` True or None) each element kept with probability
    ``1 - p`` (``mask``, bool) and divided by it, the others 0 (drawn by
    ``silt.rand``'s generator); otherwise ``(input's copy, all True)``."""
    from ._silt import ArgumentError
    from ._creation import rand_like
    x = _floats(input, "native_dropout")
    if not 0 <= p <= 1:
        raise ArgumentError(f"native_dropout: p must be in [0, 1], not {p}")
    if train is False:
        return x.clone(), x.new_ones(tuple(x.shape), dtype=bool)
    if p == 1:
        return x * 0, x.new_zeros(tuple(x.shape), dtype=bool)
    keep = rand_like(x) >= p
    return x * (keep.astype(x.dtype) * (1.0 / (1 - p))), keep


def norm_except_dim(v, pow=2, dim=0):
    """``torch.norm_except_dim(v, pow=2, dim=0)``: the ``pow``-norm over
    every dimension but ``dim``, kept (weight normalisation's); ``dim=-1``
    is the norm of the whole tensor, as PyTorch's."""
    x = _floats(v, "norm_except_dim")
    if dim == -1:
        return x.norm(pow)
    d = dim + x.ndim if dim < 0 else dim
    return x.norm(pow, tuple(i for i in range(x.ndim) if i != d), True)


def _cell_input(input, hx, op):
    from ._silt import ArgumentError
    x = _floats(input, op)
    if x.ndim != 2 or hx.ndim != 2:
        raise ArgumentError(f"{op}: Expected 2D input and hidden state (batch x feature), as PyTorch's, but got "
                            f"{x.ndim}D and {hx.ndim}D")
    return x


def _gates(x, h, w_ih, w_hh, b_ih, b_hh):
    """`x W_ih^T + b_ih` and `h W_hh^T + b_hh` (a missing bias is 0)."""
    gi = x.matmul(w_ih.mT)
    gh = h.matmul(w_hh.mT)
    if b_ih is not None:
        gi = gi + b_ih
    if b_hh is not None:
        gh = gh + b_hh
    return gi, gh


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None,
    b_hh=None)``: ``tanh(input W_ih^T + b_ih + hx W_hh^T + b_hh)``, one
    step of ``torch.nn.RNNCell``."""
    x = _cell_input(input, hx, "rnn_tanh_cell")
    gi, gh = _gates(x, hx, w_ih, w_hh, b_ih, b_hh)
    return (gi + gh).tanh()


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.rnn_relu_cell(...)``: ``rnn_tanh_cell`` with ``relu``."""
    x = _cell_input(input, hx, "rnn_relu_cell")
    gi, gh = _gates(x, hx, w_ih, w_hh, b_ih, b_hh)
    return (gi + gh).relu()


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None)``:
    one step of ``torch.nn.LSTMCell``, ``hx = (h, c)``: the gates ``i, f,
    g, o`` (in that order in ``w_ih``'s and ``w_hh``'s rows),
    ``c' = sigmoid(f) c + sigmoid(i) tanh(g)``, ``h' = sigmoid(o) tanh(c')``;
    returns ``(h', c')``."""
    h, c = hx
    x = _cell_input(input, h, "lstm_cell")
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    i, f, g, o = (gi + gh).chunk(4, -1)
    c2 = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c2.tanh(), c2


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``torch.gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None)``:
    one step of ``torch.nn.GRUCell``: the gates ``r, z, n`` (in that order
    in the weights' rows), ``r = sigmoid(i_r + h_r)``, ``z = sigmoid(i_z +
    h_z)``, ``n = tanh(i_n + r h_n)``, ``h' = (1 - z) n + z hx``."""
    x = _cell_input(input, hx, "gru_cell")
    gi, gh = _gates(x, hx, w_ih, w_hh, b_ih, b_hh)
    i_r, i_z, i_n = gi.chunk(3, -1)
    h_r, h_z, h_n = gh.chunk(3, -1)
    r = (i_r + h_r).sigmoid()
    z = (i_z + h_z).sigmoid()
    n = (i_n + r * h_n).tanh()
    return n + z * (hx - n)


ADAPTED = [
    "adaptive_max_pool1d", "alpha_dropout", "alpha_dropout_", "batch_norm", "binary_cross_entropy_with_logits",
    "cosine_embedding_loss", "ctc_loss", "dropout", "dropout_", "embedding", "feature_alpha_dropout",
    "feature_alpha_dropout_", "group_norm", "hinge_embedding_loss", "instance_norm", "kl_div", "layer_norm",
    "margin_ranking_loss", "poisson_nll_loss", "rrelu", "rrelu_", "triplet_margin_loss",
    "max_pool1d_with_indices", "constant_pad_nd", "native_layer_norm", "native_group_norm", "native_batch_norm",
    "native_dropout", "norm_except_dim", "rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell",
    "feature_dropout", "feature_dropout_", "embedding_renorm_", "convolution", "grid_sampler", "grid_sampler_2d",
    "grid_sampler_3d", "affine_grid_generator",
]

NAMES = sorted(SAME + ADAPTED)

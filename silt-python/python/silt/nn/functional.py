"""PyTorch's ``torch.nn.functional`` on silt tensors, every function of it,
forward only (silt has no gradients): activations, softmax and the normalisations, ``linear``,
``dropout``, ``pad``, ``one_hot``, ``embedding``, convolutions (transposed
too), pixel shuffles, pooling, ``interpolate``, ``scaled_dot_product_attention``
and the common losses, under PyTorch's names and arguments.

Each runs on its input's device through ``silt.Tensor``'s methods and
``silt.ops``: a convolution is one copy of the input's windows (a strided view
of the padded input) and one ``matmul`` a group, a transposed one the same
over the input spread out by its stride; pooling reduces a strided view of
windows; ``interpolate`` and the adaptive pools pick elements with
``index_select``. The parts live in ``_activations``, ``_layers``
(normalisations, ``linear``, ``dropout``, ``embedding``, attention),
``_windows`` (padding, convolutions), ``_pools``, ``_resample``, ``_losses``,
``_margins`` (the margin and likelihood losses) and ``_more``
(``embedding_bag``, ``fold``, unpooling, ``lp_pool*`` and the rest built on
silt's indexing), over the argument
checks of ``_args``. Small tables that depend only on shapes (pooling
divisors, interpolation weights, index lists) are made with NumPy on the
host and copied to the device.

>>> import numpy as np, silt
>>> import silt.nn.functional as F
>>> x = silt.tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 8), device="host")
>>> F.max_pool1d(x, 2).tolist()
[[[1.0, 3.0, 5.0, 7.0]]]
>>> F.conv1d(x, silt.ones(1, 1, 3, device="host")).tolist()
[[[3.0, 6.0, 9.0, 12.0, 15.0, 18.0]]]

Float16 inputs are summed in float32 (norms, means, pools), as PyTorch's
CPU kernels do, and float32 weights of a float16 input are rounded to it.

Where silt narrows PyTorch: ``interpolate``'s ``nearest`` takes PyTorch's
CPU places (for 4-d inputs the same and twice the length exact);
``avg_pool*`` take floats only; ``batch_norm`` does not take
``momentum=None``. ``pad`` in the modes other
than ``constant`` pads any dimension (PyTorch's only the last one to
three). The max pools' indices are PyTorch's: each window's first maximum,
or its last NaN.
"""

from ._activations import (  # noqa: F401 (the public names)
    celu,
    celu_,
    elu,
    elu_,
    gelu,
    glu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    relu,
    relu6,
    relu_,
    selu,
    selu_,
    sigmoid,
    silu,
    softmax,
    softmin,
    softplus,
    softshrink,
    softsign,
    tanh,
    tanhshrink,
    threshold,
    threshold_,
)
from ._layers import (  # noqa: F401 (the public names)
    batch_norm,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    embedding,
    group_norm,
    instance_norm,
    layer_norm,
    linear,
    normalize,
    one_hot,
    rms_norm,
    scaled_dot_product_attention,
)
from ._losses import (  # noqa: F401 (the public names)
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cosine_similarity,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    linear_cross_entropy,
    mse_loss,
    nll_loss,
    pairwise_distance,
    smooth_l1_loss,
)
from ._margins import (  # noqa: F401 (the public names)
    cosine_embedding_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multilabel_soft_margin_loss,
    poisson_nll_loss,
    soft_margin_loss,
    triplet_margin_loss,
)
from ._more import (  # noqa: F401 (the public names)
    affine_grid,
    alpha_dropout,
    bilinear,
    channel_shuffle,
    conv_tbc,
    ctc_loss,
    embedding_bag,
    feature_alpha_dropout,
    fold,
    fractional_max_pool2d,
    fractional_max_pool3d,
    grid_sample,
    gumbel_softmax,
    local_response_norm,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
    multi_head_attention_forward,
    multi_margin_loss,
    multilabel_margin_loss,
    pdist,
    rrelu,
    rrelu_,
    triplet_margin_with_distance_loss,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)
from ._pools import (  # noqa: F401 (the public names)
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool1d,
    max_pool2d,
    max_pool3d,
)
from ._resample import (  # noqa: F401 (the public names)
    interpolate,
)
from ._windows import (  # noqa: F401 (the public names)
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    pad,
    pixel_shuffle,
    pixel_unshuffle,
    unfold,
)

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool2d", "adaptive_max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits", "celu", "conv1d",
    "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_embedding_loss", "cosine_similarity", "cross_entropy", "dropout", "dropout1d",
    "dropout2d", "dropout3d", "elu", "elu_", "embedding", "gaussian_nll_loss", "gelu", "glu",
    "group_norm", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "hardtanh_",
    "hinge_embedding_loss", "huber_loss", "instance_norm", "interpolate", "kl_div", "l1_loss",
    "layer_norm", "leaky_relu", "leaky_relu_", "linear", "log_softmax", "logsigmoid",
    "margin_ranking_loss", "max_pool1d", "max_pool2d", "max_pool3d", "mish", "mse_loss",
    "multilabel_soft_margin_loss", "nll_loss", "normalize", "one_hot", "pad", "pairwise_distance",
    "pixel_shuffle", "pixel_unshuffle", "poisson_nll_loss", "prelu", "relu", "relu6", "relu_",
    "rms_norm", "scaled_dot_product_attention", "selu", "sigmoid", "silu", "smooth_l1_loss",
    "soft_margin_loss", "softmax", "softmin", "softplus", "softshrink", "softsign", "tanh",
    "tanhshrink", "threshold", "threshold_", "triplet_margin_loss", "unfold",
    "bilinear", "channel_shuffle", "embedding_bag", "fold", "local_response_norm", "lp_pool1d",
    "lp_pool2d", "lp_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d", "multi_margin_loss",
    "multilabel_margin_loss", "pdist", "triplet_margin_with_distance_loss", "upsample",
    "upsample_bilinear", "upsample_nearest", "affine_grid", "grid_sample",
    "alpha_dropout", "feature_alpha_dropout", "gumbel_softmax", "rrelu", "conv_tbc", "ctc_loss",
    "multi_head_attention_forward", "fractional_max_pool2d", "fractional_max_pool3d",
    "celu_", "selu_", "rrelu_", "linear_cross_entropy", "native_channel_shuffle",
] + [f"{kind}max_pool{nd}d_with_indices" for kind in ("", "adaptive_") for nd in (1, 2, 3)] + [
    "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices",
]


def _with_indices(pool):
    """PyTorch's `POOL_with_indices` form of a max pool: the pool with
    `return_indices=True` whatever the call says, `(output, indices)`."""
    import inspect

    signature = inspect.signature(pool)

    def with_indices(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.arguments["return_indices"] = True
        return pool(*bound.args, **bound.kwargs)

    with_indices.__name__ = with_indices.__qualname__ = f"{pool.__name__}_with_indices"
    with_indices.__doc__ = (f"`{pool.__name__}_with_indices(...)`: `{pool.__name__}` with `return_indices=True` "
                            f"(whatever `return_indices` says, as PyTorch's): `(output, indices)`.")
    return with_indices


max_pool1d_with_indices = _with_indices(max_pool1d)
max_pool2d_with_indices = _with_indices(max_pool2d)
max_pool3d_with_indices = _with_indices(max_pool3d)
adaptive_max_pool1d_with_indices = _with_indices(adaptive_max_pool1d)
adaptive_max_pool2d_with_indices = _with_indices(adaptive_max_pool2d)
adaptive_max_pool3d_with_indices = _with_indices(adaptive_max_pool3d)
fractional_max_pool2d_with_indices = _with_indices(fractional_max_pool2d)
fractional_max_pool3d_with_indices = _with_indices(fractional_max_pool3d)


def native_channel_shuffle(input, groups):
    """`native_channel_shuffle(input, groups)`: `channel_shuffle` under ATen's
    name, as PyTorch's."""
    return channel_shuffle(input, groups)

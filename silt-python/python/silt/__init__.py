"""silt from Python: tensors on OpenCL devices or silt's host backend, shared
with NumPy without copies on the host, and every silt-kernels operation in
``silt.ops``. Tensors behave as PyTorch's: operators with broadcasting and
PyTorch's result dtypes, PyTorch's methods, item assignment, DLPack and
NumPy's ``__array_ufunc__`` / ``__array_function__`` (``silt._operators``
has the promotion rules); ``silt.Fusion`` runs chains of operations as one kernel.

>>> import numpy as np, silt
>>> x = silt.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), device="host")
>>> silt.ops.sum(silt.ops.mul(x, x), dim=1).numpy()
array([ 5., 50.], dtype=float32)
>>> (x * x).sum(dim=1).tolist()
[5.0, 50.0]
"""

import numpy as _np

from . import _silt
from ._silt import (
    ArgumentError,
    AxisError,
    IndexOutOfRangeError,
    Device,
    DeviceError,
    DTypeError,
    Error,
    Fusion,
    FusionValue,
    OutOfMemoryError,
    Tensor,
    default_device,
    devices,
    tensor,
    zeros,
)
from . import ops
from . import _tensor  # attaches the operators, methods and protocols to Tensor
from ._creation import (
    arange, cat, concatenate, empty, empty_like, eye, full, full_like, linspace, manual_seed, ones,
    ones_like, rand, rand_like, randint, randn, randn_like, randperm, stack, zeros_like,
)
from ._creation import sized_zeros as zeros  # the binding's, with PyTorch's size= too
from ._creation import cat as concat  # PyTorch's alias
from ._composed import binomial, normal, poisson
from ._einsum import einsum
from . import _functions
from ._functions import bucketize, is_tensor, isin, searchsorted, where
from ._interop import from_dlpack
from . import _extras
from ._extras import (
    MantissaExponent, as_tensor, asarray, bartlett_window, blackman_window, combinations, diagonal_scatter,
    frexp, from_numpy, hamming_window, hann_window, is_signed, kaiser_window, narrow_copy, nextafter,
    renorm, rsub, select_scatter, slice_scatter, split_with_sizes, unravel_index,
)
from . import _more
from ._methods import Size, ValuesIndices
from ._operators import promote as result_type
from . import nn  # noqa: E402  (after Tensor has its methods)
from . import special  # noqa: E402
from . import linalg  # noqa: E402
from . import _nn_functions  # noqa: E402

# PyTorch's functions that are tensor methods: silt.exp(t) is t.exp()
for _name in _functions.METHODS:
    globals()[_name] = _functions._function(_name)
for _name in _functions.HELPERS:
    globals()[_name] = getattr(_functions, _name)
# the in-place functions (silt.exp_(t) is t.exp_()), matrix_power, gradient, ... (silt._more)
for _name in _more.__all__:
    globals()[_name] = getattr(_more, _name)
# torch.nn.functional's functions that torch has too: silt.conv2d
for _name in _nn_functions.SAME:
    globals()[_name] = getattr(nn.functional, _name)
for _name in _nn_functions.ADAPTED:
    globals()[_name] = getattr(_nn_functions, _name)
# torch's forms of silt.linalg's functions: silt.det, silt.inverse, silt.cholesky_solve, ...
for _name, _fn in linalg.TORCH.items():
    globals()[_name] = _fn
# PyTorch's names of the dtypes, as silt's (NumPy's) dtypes: silt.float32, silt.long, silt.half, ...
# (module attributes, not in __all__: `from silt import *` must not shadow the builtins bool, int, float)
_DTYPES = {
    "bool": "bool", "uint8": "uint8", "int8": "int8", "int16": "int16", "short": "int16", "uint16": "uint16",
    "int32": "int32", "int": "int32", "uint32": "uint32", "int64": "int64", "long": "int64", "uint64": "uint64",
    "float16": "float16", "half": "float16", "float32": "float32", "float": "float32", "float64": "float64",
    "double": "float64",
}
for _name, _fn in _DTYPES.items():
    globals()[_name] = _np.dtype(_fn)
finfo, iinfo = _np.finfo, _np.iinfo
# PyTorch's constants (module attributes, not in __all__): silt.pi, silt.e, silt.inf, silt.nan and
# silt.newaxis (None, for indexing)
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None
range = _more._range  # torch.range (not in __all__, as the other builtins' names)
del _fn
del _name

__all__ = [
    "ArgumentError",
    "AxisError",
    "IndexOutOfRangeError",
    "DTypeError",
    "Device",
    "DeviceError",
    "Error",
    "Fusion",
    "FusionValue",
    "OutOfMemoryError",
    "Size",
    "Tensor",
    "ValuesIndices",
    "arange",
    "bucketize",
    "cat",
    "concat",
    "normal",
    "poisson",
    "binomial",
    "concatenate",
    "default_device",
    "devices",
    "empty",
    "empty_like",
    "einsum",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "linspace",
    "manual_seed",
    "nn",
    "ones",
    "ones_like",
    "ops",
    "special",
    "linalg",
    "rand",
    "rand_like",
    "randint",
    "randn",
    "randn_like",
    "randperm",
    "result_type",
    "searchsorted",
    "stack",
    "tensor",
    "zeros",
    "zeros_like",
    "is_tensor",
    "isin",
    "where",
] + _extras.__all__ + _more.__all__ + _functions.HELPERS + _nn_functions.NAMES + list(linalg.TORCH) + [n for n in _functions.METHODS if n not in _functions.SHADOWING]

# PyTorch's functions take NumPy's `axis` and `keepdims` for `dim` and
# `keepdim` (the methods do too: `silt._tensor._numpy_keywords`); those of
# torch.nn.functional stay the very functions of silt.nn.functional
for _name in __all__ + _functions.SHADOWING:
    if _name in _nn_functions.SAME:
        continue
    _fn = globals().get(_name)
    if callable(_fn) and not isinstance(_fn, type):
        globals()[_name] = _tensor._numpy_keywords(_fn)

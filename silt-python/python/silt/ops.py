"""Every silt-kernels operation, with PyTorch's argument names, and the
module's own ``floor_divide`` and ``remainder`` (Python's ``//`` and ``%``).

Each takes ``silt.Tensor``s, NumPy arrays (placed on the device of the call's
first ``silt.Tensor``, else ``silt.default_device()``; on the host without a
copy where the memory order allows) or Python numbers (0-d tensors of the
other arguments' dtype), runs the operation's generated ``dispatch`` with the
GIL released, and returns a ``silt.Tensor``. A dtype outside an operation's
types raises ``silt.DTypeError`` (a ``TypeError``); bad shapes or axes raise
``silt.ArgumentError`` (a ``ValueError``).
"""

from ._silt import ops as _ops

__all__ = list(_ops.__all__)
globals().update({_name: getattr(_ops, _name) for _name in __all__})

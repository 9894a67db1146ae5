"""``silt.Tensor``'s operators and the promotion of their operands' dtypes:
each operator is one ``silt.ops`` call (one launch on the tensor's device)
after the operands are converted to the result's dtype. ``_tensor`` attaches
them to the class.

Result dtypes follow PyTorch's promotion rules (see ``promote``):

- tensor with tensor: the dtype of the higher category (bool < integer <
  float) wins; within a category the wider dtype (NumPy's ``promote_types``:
  ``int8`` with ``uint8`` is ``int16``, ``int64`` with ``uint64`` is
  ``float64``). 0-d tensors count as tensors (PyTorch ranks them below
  tensors of more dimensions).
- tensor with a Python number (or a NumPy scalar): the tensor's dtype, unless
  the number is of a higher category: an ``int`` with a ``bool`` tensor gives
  ``int64``, a ``float`` with a ``bool`` or integer tensor gives ``float32``
  (PyTorch's default float dtype). A number that does not fit the dtype
  (``uint8`` tensor ``+ 300``; ``- 1`` is fine but ``+ -1`` is not) raises
  ``silt.DTypeError`` (NumPy 2 raises ``OverflowError``).
- ``/`` is true division: integer and bool tensors divide as ``float32``.
  ``//`` and ``%`` are Python's (and PyTorch's ``floor_divide`` and
  ``remainder``): rounded down, the remainder with the divisor's sign;
  integer division or remainder by zero gives 0 (silt's rule; PyTorch raises
  for integers, NumPy gives 0 with a warning). ``**`` on integers stays
  integer (a negative Python ``int`` exponent raises ``ValueError``), with a
  ``float`` exponent it is ``float32``.
- comparisons give ``bool`` tensors, after promoting both sides; ``& | ^ ~``
  are logical on ``bool`` and bitwise on integers (floats raise
  ``silt.DTypeError``). ``+`` and ``*`` on two ``bool`` tensors are ``or`` and
  ``and``; ``-`` raises.
- in-place forms (``t += x``) write ``t``: the result must have ``t``'s
  shape (``silt.ArgumentError`` otherwise) and casts to its dtype within its
  category or up (``float32`` into ``float16``, ``int64`` into ``int32``, an
  integer or ``bool`` into an integer), never down (a float into an integer,
  an integer into ``bool``: ``silt.DTypeError``), as PyTorch's.
- operations of floats only (``exp``, ``sqrt``, ``sigmoid``, ...) on integer
  or bool tensors compute in ``float32``, as PyTorch's.
"""

import numbers

import numpy as np

from . import _silt
from ._silt import ArgumentError, DTypeError, Tensor, tensor

ops = _silt.ops

_F32 = np.dtype(np.float32)
_I64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)

# the category of a dtype: bool < integer < float
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}
_KIND_NAME = {"b": "bool", "u": "an integer", "i": "an integer", "f": "a float"}


def _is_number(x):
    return isinstance(x, (bool, numbers.Number, np.generic)) and not isinstance(x, complex)


def _number_category(x):
    if isinstance(x, (bool, np.bool_)):
        return 0
    if isinstance(x, (numbers.Integral, np.integer)):
        return 1
    return 2


def _dtype_of(x):
    """The dtype of a tensor operand (a Tensor or an array-like)."""
    if isinstance(x, Tensor):
        return x.dtype
    return np.asarray(x).dtype


def promote(a, b):
    """The dtype of an operation's result on ``a`` and ``b`` (tensors,
    arrays or numbers, at least one of them not a number), by PyTorch's
    rules (see the module's docs)."""
    if _is_number(a):
        a, b = b, a
    da = _dtype_of(a)
    if da.kind not in _CATEGORY:
        raise DTypeError(f"NumPy dtype {da} has no silt dtype")
    if _is_number(b):
        cb, ca = _number_category(b), _CATEGORY[da.kind]
        if cb <= ca:
            return da
        return _I64 if cb == 1 else _F32
    db = _dtype_of(b)
    if db.kind not in _CATEGORY:
        raise DTypeError(f"NumPy dtype {db} has no silt dtype")
    ca, cb = _CATEGORY[da.kind], _CATEGORY[db.kind]
    if ca != cb:
        return da if ca > cb else db
    return np.promote_types(da, db)


def _as(x, dtype, device):
    """An operand as ``dtype``: a tensor converted on its device, an array
    converted by NumPy (placed later, as silt.ops places arrays), a number as
    the Python number of the dtype's kind."""
    if isinstance(x, Tensor):
        return x if x.dtype == dtype else x.astype(dtype, copy=False)
    if type(x) is float and dtype.kind == "f":
        return x
    if _is_number(x):
        if isinstance(x, np.generic):
            x = x.item()
        kind = dtype.kind
        if kind == "f":
            return float(x)
        if kind == "b":
            return bool(x)
        return int(x)
    return tensor(np.asarray(x, dtype=dtype), device=device)


def _device_of(a, b):
    """The device of the first tensor among ``a`` and ``b`` (None when only
    arrays and numbers need no placing)."""
    if type(a) is Tensor:
        return a.device
    if type(b) is Tensor:
        return b.device
    return None


def _is_operand(x):
    """Whether an operator takes ``x`` as its other operand (else it answers
    NotImplemented and Python tries the other side)."""
    if isinstance(x, (Tensor, np.ndarray, list, tuple)) or _is_number(x):
        return True
    return False


# operands that need no device to be placed on
_PLAIN = (Tensor, bool, int, float)

# the result dtype of a tensor dtype with a Python number's type, cached
_WITH_NUMBER = {}


def _promote_fast(a, b):
    """``promote(a, b)`` with the common cases first: two tensors of one
    dtype, a tensor and a Python number (cached by dtype and type)."""
    ta, tb = type(a) is Tensor, type(b) is Tensor
    if ta and tb:
        da = a.dtype
        return da if da == b.dtype else promote(a, b)
    if ta or tb:
        t, n = (a, b) if ta else (b, a)
        key = (t.dtype, type(n))
        rd = _WITH_NUMBER.get(key)
        if rd is None:
            rd = promote(t, n)
            if type(n) in (bool, int, float):
                _WITH_NUMBER[key] = rd
        return rd
    return promote(a, b)


def _binary(name, a, b):
    """The operation ``name`` on ``a`` and ``b`` (one of them a Tensor) with
    promotion; the dispatch behind the operators and the methods. A 0-d
    host tensor beside a tensor of another device goes to that device
    first (PyTorch takes a 0-d CPU tensor beside a CUDA tensor)."""
    if type(a) is Tensor and type(b) is Tensor and a.device != b.device:
        if a.ndim == 0 and a.device.is_host:
            a = a.to(b.device)
        elif b.ndim == 0 and b.device.is_host:
            b = b.to(a.device)
    rd = _promote_fast(a, b)
    if name in ("fmax", "fmin") and rd.kind != "f":
        name = "maximum" if name == "fmax" else "minimum"  # no NaN to pass over
    # arrays go to the tensors' device; only they need it
    dev = None if type(a) in _PLAIN and type(b) in _PLAIN else _device_of(a, b)
    kind = rd.kind
    if name == "truediv":
        if kind != "f":
            rd = _F32
        return ops.div(_as(a, rd, dev), _as(b, rd, dev))
    if name in ("atan2", "copysign") and kind != "f":
        # PyTorch's float ops: integers and bool promote to float32
        rd, kind = _F32, "f"
    if name == "pow":
        if kind in "iu" and _is_number(b) and int(b) < 0:
            raise ValueError("Integers to negative integer powers are not allowed")
        if kind == "b":
            if type(b) is bool and isinstance(a, Tensor):
                # PyTorch's: a bool power of bools stays bool (x ** True is
                # x, x ** False is True)
                return ops.logical_and(a, True) if b else ops.logical_or(a, True)
            rd = _I64
        return ops.pow(_as(a, rd, dev), _as(b, rd, dev))
    x, y = _as(a, rd, dev), _as(b, rd, dev)
    if name == "matmul":
        if kind == "b":
            raise DTypeError("`@` is not defined on bool tensors")
        return ops.matmul(x, y)
    if kind == "b":
        fn = _BOOL_BINARY.get(name)
        if fn is None:
            raise DTypeError(f"`{_SYMBOL.get(name, name)}` is not defined on bool tensors")
        return fn(x, y)
    if kind == "f" and name in ("and", "or", "xor", "lshift", "rshift"):
        raise DTypeError(f"`{_SYMBOL[name]}` is defined on bool and integer tensors, not {rd}")
    if name in ("lshift", "rshift"):
        return _shift(name, x, y)
    if name in ("gcd", "lcm") and kind != "i" and kind != "u":
        raise DTypeError(f"`{name}` is defined on integer tensors, not {rd}")
    return getattr(ops, _OPS[name])(x, y)


def _shift(name, x, y):
    """PyTorch's (and NumPy's) shifts of integers: a count that is negative
    or at least the bit width shifts every bit out, giving 0 (`<<`, and `>>`
    of unsigned or non-negative values) or -1 (`>>` of negative values);
    silt-kernels' `shl` and `shr` take the count modulo the width."""
    if not isinstance(x, Tensor):
        # checked as every number is (a DTypeError where it does not fit)
        x = ops.add(tensor(0, dtype=y.dtype, device=y.device), x)
    bits = x.dtype.itemsize * 8
    out = ops.shl(x, y) if name == "lshift" else ops.shr(x, y)
    if not isinstance(y, Tensor):
        if 0 <= int(y) < bits:
            return out
        past = True
    else:
        past = ops.ge(y, bits)
        if y.dtype.kind == "i":
            past = ops.logical_or(past, ops.lt(y, 0))
    if name == "lshift" or x.dtype.kind == "u":
        fill = ops.sub(out, out)
    else:
        fill = ops.shr(x, bits - 1)
    return fill if past is True else ops.where(past, fill, out)


_OPS = {
    "add": "add", "sub": "sub", "mul": "mul", "floordiv": "floor_divide", "mod": "remainder",
    "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "shl", "rshift": "shr",
    "maximum": "maximum", "minimum": "minimum", "fmax": "fmax", "fmin": "fmin",
    "atan2": "atan2", "hypot": "hypot", "copysign": "copysign", "fmod": "rem", "gcd": "gcd", "lcm": "lcm",
}
_SYMBOL = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
    "matmul": "@",
    "and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>",
}


def _u8(x):
    return x.astype(np.uint8, copy=False)


_BOOL_BINARY = {
    "add": ops.logical_or,
    "mul": ops.logical_and,
    "and": ops.logical_and,
    "or": ops.logical_or,
    "xor": ops.logical_xor,
    "ne": ops.logical_xor,
    "eq": lambda x, y: ops.logical_not(ops.logical_xor(x, y)),
    "lt": lambda x, y: ops.lt(_u8(_t(x, y)), _u8(_t(y, x))),
    "le": lambda x, y: ops.le(_u8(_t(x, y)), _u8(_t(y, x))),
    "gt": lambda x, y: ops.gt(_u8(_t(x, y)), _u8(_t(y, x))),
    "ge": lambda x, y: ops.ge(_u8(_t(x, y)), _u8(_t(y, x))),
    "maximum": ops.logical_or,
    "minimum": ops.logical_and,
}


def _t(x, other):
    """``x`` as a tensor on ``other``'s device (for bool comparisons, which
    convert both sides)."""
    if isinstance(x, Tensor):
        return x
    dev = other.device if isinstance(other, Tensor) else None
    return tensor(np.asarray(x, dtype=np.bool_), device=dev)


# the operators whose operation, on two tensors of one dtype (or a tensor and
# a Python number of its kind), is the silt.ops function itself: what the
# general path would call after promoting nothing
_DIRECT = {
    "add": ("fiu", "add"), "sub": ("fiu", "sub"), "mul": ("fiu", "mul"), "truediv": ("f", "div"),
    "floordiv": ("fiu", "floor_divide"), "mod": ("fiu", "remainder"), "pow": ("f", "pow"),
    "eq": ("fiu", "eq"), "ne": ("fiu", "ne"), "lt": ("fiu", "lt"), "le": ("fiu", "le"),
    "gt": ("fiu", "gt"), "ge": ("fiu", "ge"),
    "and": ("iu", "bitwise_and"), "or": ("iu", "bitwise_or"), "xor": ("iu", "bitwise_xor"),
}


def _operator(name, reflected=False):
    kinds, direct = _DIRECT.get(name, ("", None))
    direct = getattr(ops, direct) if direct else None

    def op(self, other):
        if direct is not None:
            # the common cases without the promotion's general path
            t = type(other)
            if t is Tensor or t is float or t is int:
                kind = self.dtype.kind
                if kind in kinds:
                    if t is int and kind == "f":
                        other, t = float(other), float
                    if (
                        (t is Tensor and other.dtype == self.dtype and other.device == self.device)
                        or (t is float and kind == "f")
                        or (t is int and kind == "i" and name != "pow")
                    ):
                        return direct(other, self) if reflected else direct(self, other)
        if not _is_operand(other):
            return NotImplemented
        if reflected:
            return _binary(name, other, self)
        return _binary(name, self, other)

    sym = _SYMBOL.get(name, name)
    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    op.__doc__ = f"`{'other ' + sym + ' self' if reflected else 'self ' + sym + ' other'}` with broadcasting and PyTorch's promotion."
    return op


def _inplace(name):
    def op(self, other):
        if not _is_operand(other):
            return NotImplemented
        r = _binary(name, self, other)
        if r.dtype != self.dtype:
            # PyTorch's rule: the result casts back within its category or
            # to a higher one (float32 into float16, int64 into int32), never
            # down (a float into an integer, an integer into bool)
            if _CATEGORY[r.dtype.kind] > _CATEGORY[self.dtype.kind]:
                raise DTypeError(
                    f"in-place `{_SYMBOL[name]}=`: the result's dtype {r.dtype} does not cast "
                    f"to the tensor's {self.dtype} ({_KIND_NAME[r.dtype.kind]} into "
                    f"{_KIND_NAME[self.dtype.kind]})"
                )
            r = r.astype(self.dtype)
        if r.shape != self.shape:
            raise ArgumentError(f"in-place `{_SYMBOL[name]}=`: the result's shape {r.shape} is not the tensor's {self.shape}")
        ops.copy(r, self)
        return self

    op.__name__ = f"__i{name}__"
    op.__doc__ = (
        f"`self {_SYMBOL[name]}= other`: writes the tensor (the result keeps its shape, and casts to its "
        "dtype within its category or up: float into float, an integer or bool into an integer, as PyTorch's)."
    )
    return op


def _neg(self):
    """`-self` (wrapping for integers, unsigned ones included; not for bool)."""
    if self.dtype.kind == "u":
        return ops.sub(0, self)
    if self.dtype == _BOOL:
        raise DTypeError("`-` is not defined on bool tensors (use `~` or logical_not)")
    return ops.neg(self)


def _pos(self):
    """`+self`: the tensor itself."""
    return self


def _abs(self):
    """`abs(self)`."""
    if self.dtype == _BOOL:
        return self.clone()
    return ops.abs(self)


def _invert(self):
    """`~self`: logical not on bool, bitwise not on integers."""
    if self.dtype == _BOOL:
        return ops.logical_not(self)
    if self.dtype.kind == "f":
        raise DTypeError(f"`~` is defined on bool and integer tensors, not {self.dtype}")
    return ops.bitwise_not(self)


def _one(self, what):
    if self.size != 1:
        raise ArgumentError(f"{what} of a tensor of {self.size} elements is ambiguous (one element needed)")
    return self.item()


def _bool_tensor(x, dev):
    """``x`` as a bool tensor (a tensor converted; an array placed on ``dev``)."""
    if isinstance(x, Tensor):
        return x if x.dtype == _BOOL else x.astype(_BOOL)
    return tensor(np.asarray(x, dtype=np.bool_), device=dev)

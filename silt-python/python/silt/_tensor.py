"""What makes ``silt.Tensor`` behave as the arrays Python users know: its
operators, PyTorch's methods, item assignment, pickling, DLPack and NumPy's
``__array_ufunc__`` / ``__array_function__`` protocols. Each is a thin layer
over ``silt.ops`` (one launch per operation, on the tensor's device), attached
to the class when ``silt`` is imported.

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
  (``uint8`` tensor ``+ 300``, ``- 1`` is fine but ``+ -1`` is not) raises
  ``silt.DTypeError``; PyTorch wraps it.
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
- in-place forms (``t += x``) write ``t``: the result must have ``t``'s dtype
  and shape (``silt.DTypeError`` / ``silt.ArgumentError`` otherwise).
- operations of floats only (``exp``, ``sqrt``, ``sigmoid``, ...) on integer
  or bool tensors compute in ``float32``, as PyTorch's.
"""

import collections
import numbers

import numpy as np

from . import _silt
from ._silt import ArgumentError, DTypeError, Device, Tensor, tensor

ops = _silt.ops

_F32 = np.dtype(np.float32)
_I64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)

# the category of a dtype: bool < integer < float
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}

ValuesIndices = collections.namedtuple("ValuesIndices", ["values", "indices"])
ValuesIndices.__doc__ = "The values and indices (int64) of max/min along a dim and of cummax/cummin."


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
    promotion; the dispatch behind the operators and the methods."""
    rd = _promote_fast(a, b)
    # arrays go to the tensors' device; only they need it
    dev = None if type(a) in _PLAIN and type(b) in _PLAIN else _device_of(a, b)
    kind = rd.kind
    if name == "truediv":
        if kind != "f":
            rd = _F32
        return ops.div(_as(a, rd, dev), _as(b, rd, dev))
    if name == "pow":
        if kind in "iu" and _is_number(b) and int(b) < 0:
            raise ValueError("Integers to negative integer powers are not allowed")
        if kind == "b":
            rd = _I64
        return ops.pow(_as(a, rd, dev), _as(b, rd, dev))
    x, y = _as(a, rd, dev), _as(b, rd, dev)
    if kind == "b":
        fn = _BOOL_BINARY.get(name)
        if fn is None:
            raise DTypeError(f"`{_SYMBOL.get(name, name)}` is not defined on bool tensors")
        return fn(x, y)
    if kind == "f" and name in ("and", "or", "xor", "lshift", "rshift"):
        raise DTypeError(f"`{_SYMBOL[name]}` is defined on bool and integer tensors, not {rd}")
    return getattr(ops, _OPS[name])(x, y)


_OPS = {
    "add": "add", "sub": "sub", "mul": "mul", "floordiv": "floor_divide", "mod": "remainder",
    "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "shl", "rshift": "shr",
    "maximum": "maximum", "minimum": "minimum", "fmax": "fmax", "fmin": "fmin",
    "atan2": "atan2", "hypot": "hypot", "copysign": "copysign", "fmod": "rem",
}
_SYMBOL = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
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
                        (t is Tensor and other.dtype == self.dtype)
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
            raise DTypeError(f"in-place `{_SYMBOL[name]}=`: the result's dtype {r.dtype} is not the tensor's {self.dtype}")
        if r.shape != self.shape:
            raise ArgumentError(f"in-place `{_SYMBOL[name]}=`: the result's shape {r.shape} is not the tensor's {self.shape}")
        ops.copy(r, self)
        return self

    op.__name__ = f"__i{name}__"
    op.__doc__ = f"`self {_SYMBOL[name]}= other`: writes the tensor (the result must keep its dtype and shape)."
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


# ---- methods ---------------------------------------------------------------

# unary operations defined on floats only: integer and bool tensors compute in float32
_FLOAT_UNARY = (
    "reciprocal sqrt rsqrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan "
    "sinh cosh tanh erf frac relu6 selu gelu gelu_tanh sigmoid silu softplus softsign mish "
    "hardsigmoid hardswish logsigmoid isnan isinf isfinite"
).split()
# rounding is the identity on integers (a copy, as in PyTorch)
_ROUNDING = ("floor", "ceil", "round", "trunc")
# unary operations that take integers as they are
_ANY_UNARY = ("neg", "abs", "sign", "square", "logical_not", "bitwise_not")


def _unary(name):
    fn = getattr(ops, name)

    if name in _FLOAT_UNARY:
        def method(self):
            x = self if self.dtype.kind == "f" else self.astype(_F32)
            return fn(x)
    elif name in _ROUNDING:
        def method(self):
            return fn(self) if self.dtype.kind == "f" else self.clone()
    elif name == "relu":
        def method(self):
            return fn(self) if self.dtype.kind == "f" else ops.maximum(self, 0)
    else:
        def method(self):
            return fn(self)
    method.__name__ = name
    method.__doc__ = f"`{name}(self)`, elementwise (`silt.ops.{name}`)."
    return method


def _binary_method(name, op=None):
    op = op or name

    def method(self, other):
        return _binary(op, self, other)

    method.__name__ = name
    method.__doc__ = f"`{name}(self, other)`, elementwise with broadcasting and PyTorch's promotion."
    return method


def _reduction(name):
    fn = getattr(ops, name)

    def method(self, dim=None, keepdim=False):
        return fn(self, dim, keepdim)

    method.__name__ = name
    method.__doc__ = f"`{name}(dim=None, keepdim=False)` over `dim` (an int, a sequence, or None for all), as `silt.ops.{name}`."
    return method


def _sum(self, dim=None, keepdim=False, *, dtype=None):
    """`sum(dim=None, keepdim=False, *, dtype=None)`: integers and bool sum in
    int64 (uint64 for uint32/uint64), float16 in float32 then rounded;
    `dtype` converts first."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    return ops.sum(x, dim, keepdim)


def _prod(self, dim=None, keepdim=False, *, dtype=None):
    """`prod(dim=None, keepdim=False, *, dtype=None)`, as `sum`."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    return ops.prod(x, dim, keepdim)


def _mean(self, dim=None, keepdim=False, *, dtype=None):
    """`mean(dim=None, keepdim=False, *, dtype=None)`: floats only, as
    PyTorch's (`dtype` converts first)."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    return ops.mean(x, dim, keepdim)


def _extreme(name, values, indices):
    def method(self, dim=None, keepdim=False):
        if dim is None:
            return values(self)
        return ValuesIndices(values(self, dim, keepdim), indices(self, dim, keepdim))

    method.__name__ = name
    method.__doc__ = (
        f"`{name}()`: the {name}imum of all elements (NaN propagates); `{name}(dim, keepdim=False)`: "
        f"a named tuple (values, indices) along `dim`, as PyTorch's."
    )
    return method


def _var(self, dim=None, *, correction=1, keepdim=False, unbiased=None):
    """`var(dim=None, *, correction=1, keepdim=False)`: divided by `count -
    correction` (`unbiased=False` is `correction=0`)."""
    if unbiased is not None:
        correction = 1 if unbiased else 0
    return ops.var(self, dim, correction=correction, keepdim=keepdim)


def _std(self, dim=None, *, correction=1, keepdim=False, unbiased=None):
    """`std(dim=None, *, correction=1, keepdim=False)`: `sqrt(var)`."""
    if unbiased is not None:
        correction = 1 if unbiased else 0
    return ops.std(self, dim, correction=correction, keepdim=keepdim)


def _norm(self, p=2, dim=None, keepdim=False):
    """`norm(p=2, dim=None, keepdim=False)`: the vector norm of order 1, 2 or inf."""
    return ops.norm(self, p, dim, keepdim)


def _along(name):
    fn = getattr(ops, name)

    def method(self, dim):
        return fn(self, dim)

    method.__name__ = name
    method.__doc__ = f"`{name}(dim)` along `dim`, as `silt.ops.{name}`."
    return method


def _cum_extreme(name):
    fn = getattr(ops, name)

    def method(self, dim):
        return ValuesIndices(*fn(self, dim))

    method.__name__ = name
    method.__doc__ = f"`{name}(dim)`: a named tuple (values, indices) of the running {name[3:]}imum along `dim`."
    return method


def _clamp(self, min=None, max=None):
    """`clamp(min=None, max=None)`: each element limited to `[min, max]`."""
    return ops.clamp(self, min, max)


def _where(self, condition, other):
    """`where(condition, other)`: self where `condition` holds, else `other` (PyTorch's `Tensor.where`)."""
    rd = promote(self, other)
    dev = self.device
    return ops.where_(_bool_tensor(condition, dev), _as(self, rd, dev), _as(other, rd, dev))


def _lerp(self, end, weight):
    """`lerp(end, weight)`: `self + weight * (end - self)`."""
    return ops.lerp(self, end, weight)


def _addcmul(self, tensor1, tensor2, value=1):
    """`addcmul(tensor1, tensor2, value=1)`: `self + value * tensor1 * tensor2`."""
    return ops.addcmul(self, tensor1, tensor2, value)


def _fill_(self, value):
    """`fill_(value)`: every element set to `value`; returns the tensor."""
    ops.set(_as(value, self.dtype, self.device), self)
    return self


def _zero_(self):
    """`zero_()`: every element set to 0; returns the tensor."""
    return _fill_(self, 0)


def _copy_(self, src):
    """`copy_(src)`: the elements of `src` (broadcast, converted to the
    tensor's dtype, from any device) written into the tensor; returns it."""
    _write(self, src)
    return self


def _method_inplace(name, op):
    fn = _inplace(op)

    def method(self, other):
        return fn(self, other)

    method.__name__ = name
    method.__doc__ = f"`{name}(other)`: `self {_SYMBOL[op]}= other`, in place; returns the tensor."
    return method


def _cast(name, dtype):
    def method(self):
        return self.astype(dtype, copy=False)

    method.__name__ = name
    method.__doc__ = f"`{name}()`: the tensor as {np.dtype(dtype)} (itself when it already is)."
    return method


def _cpu(self):
    """`cpu()`: the tensor on the host backend (itself when it is there)."""
    return self.to("host")


def _numel(self):
    """`numel()`: the number of elements."""
    return self.size


def _dim(self):
    """`dim()`: the number of dimensions."""
    return self.ndim


# ---- item assignment -------------------------------------------------------

def _write(view, value):
    """Writes ``value`` (a number, an array-like or a tensor, broadcast) into
    the tensor ``view``, converted to its dtype."""
    if _is_number(value):
        ops.set(_as(value, view.dtype, view.device), view)
        return
    if isinstance(value, Tensor):
        src = value.to(view.device, view.dtype)
    else:
        arr = np.asarray(value)
        if arr.dtype.kind not in _CATEGORY:
            raise DTypeError(f"cannot assign an array of dtype {arr.dtype} to a silt tensor")
        src = tensor(arr, device=view.device, dtype=view.dtype)
    if src.shares_storage(view):
        src = src.clone()  # overlapping views (t[1:] = t[:-1]) read a copy
    ops.copy(src, view)


def _setitem(self, key, value):
    """`t[key] = value`: `key` as for `t[key]` (integers, slices with positive
    steps, `...`), `value` a number, an array or a tensor broadcast to the
    indexed view and converted to the tensor's dtype (floats to integers
    truncate toward zero, as in PyTorch and NumPy). Boolean masks and integer
    arrays as indices are not supported (they need gathers and scatters)."""
    view = self[key]
    _write(view, value)


# ---- conversions to Python -------------------------------------------------

def _bool(self):
    """`bool(t)`: the one element's truth."""
    return bool(_one(self, "bool()"))


def _float(self):
    """`float(t)`: the one element."""
    return float(_one(self, "float()"))


def _int(self):
    """`int(t)`: the one element, truncated."""
    return int(_one(self, "int()"))


def _rebuild(array, device):
    """Unpickles a tensor: ``array``'s elements on the device ``device``."""
    return tensor(array, device=device)


def _reduce(self):
    """Pickles the elements (through NumPy) and the device's spec: a tensor
    of an OpenCL device comes back on the OpenCL device of that index."""
    return (_rebuild, (self.numpy(), self.device.spec))


def _device_reduce(self):
    return (Device, (self.spec,))


# ---- DLPack ----------------------------------------------------------------

_KDL_CPU = 1
_KDL_OPENCL = 4


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack's export: a capsule over the tensor's memory on the host (no
    copy; the capsule keeps the storage alive). A tensor of an OpenCL device
    is exported as a host copy only when asked (`dl_device=(1, 0)`, the CPU,
    and `copy` not False); otherwise `BufferError`."""
    t = self
    if dl_device is not None and tuple(dl_device)[0] != _KDL_CPU:
        raise BufferError(f"silt exports DLPack on the CPU only, not to device {tuple(dl_device)}")
    if not self.device.is_host:
        if dl_device is None or copy is False:
            raise BufferError(
                "a silt tensor of an OpenCL device has no DLPack export: "
                "move it to the host first (t.to('host')), or ask for dl_device=(1, 0)"
            )
        t = self.to("host")
        copy = None  # the copy is made
    kwargs = {}
    if stream is not None:
        kwargs["stream"] = stream
    if max_version is not None:
        kwargs["max_version"] = max_version
    if copy is not None:
        kwargs["copy"] = copy
    return t.numpy().__dlpack__(**kwargs)


def _dlpack_device(self):
    """`(1, 0)` (DLPack's CPU) for a host tensor, `(4, index)` (OpenCL) else."""
    if self.device.is_host:
        return (_KDL_CPU, 0)
    return (_KDL_OPENCL, self.device.index)


def from_dlpack(x, device=None):
    """A silt tensor over the memory of ``x``, any object with ``__dlpack__``
    whose memory is on the CPU (NumPy arrays, PyTorch CPU tensors, ...): on
    the host without a copy (NumPy reads the capsule, silt uses the array in
    place), or copied to ``device``. A silt tensor is returned as it is (or
    copied to ``device``)."""
    if isinstance(x, Tensor):
        return x if device is None else x.to(device)
    arr = np.from_dlpack(x)
    return tensor(arr, device="host" if device is None else device)


# ---- NumPy's protocols -----------------------------------------------------

def _to_numpy(x):
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, list):
        return [_to_numpy(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_to_numpy(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return x


_UFUNC_UNARY = {
    np.negative: _neg, np.positive: _pos, np.absolute: _abs, np.fabs: _abs, np.invert: _invert,
    np.sign: "sign", np.square: "square", np.reciprocal: "reciprocal", np.sqrt: "sqrt",
    np.exp: "exp", np.exp2: "exp2", np.expm1: "expm1", np.log: "log", np.log2: "log2",
    np.log10: "log10", np.log1p: "log1p", np.sin: "sin", np.cos: "cos", np.tan: "tan",
    np.arcsin: "asin", np.arccos: "acos", np.arctan: "atan", np.sinh: "sinh", np.cosh: "cosh",
    np.tanh: "tanh", np.floor: "floor", np.ceil: "ceil", np.trunc: "trunc", np.rint: "round",
    np.isnan: "isnan", np.isinf: "isinf", np.isfinite: "isfinite",
    np.logical_not: "logical_not",
}
_UFUNC_BINARY = {
    np.add: "add", np.subtract: "sub", np.multiply: "mul", np.true_divide: "truediv",
    np.floor_divide: "floordiv", np.remainder: "mod", np.fmod: "fmod", np.power: "pow",
    np.maximum: "maximum", np.minimum: "minimum", np.fmax: "fmax", np.fmin: "fmin",
    np.arctan2: "atan2", np.hypot: "hypot", np.copysign: "copysign",
    np.equal: "eq", np.not_equal: "ne", np.less: "lt", np.less_equal: "le",
    np.greater: "gt", np.greater_equal: "ge",
    np.bitwise_and: "and", np.bitwise_or: "or", np.bitwise_xor: "xor",
    np.left_shift: "lshift", np.right_shift: "rshift",
}
_UFUNC_LOGICAL = {np.logical_and: ops.logical_and, np.logical_or: ops.logical_or, np.logical_xor: ops.logical_xor}


def _bool_tensor(x, dev):
    if isinstance(x, Tensor):
        return x if x.dtype == _BOOL else x.astype(_BOOL)
    return tensor(np.asarray(x, dtype=np.bool_), device=dev)


def _ufunc_call(ufunc, inputs):
    """A ufunc call silt has, or None."""
    if ufunc in _UFUNC_BINARY and len(inputs) == 2:
        return _binary(_UFUNC_BINARY[ufunc], *inputs)
    if ufunc in _UFUNC_LOGICAL and len(inputs) == 2:
        dev = _device_of(*inputs)
        return _UFUNC_LOGICAL[ufunc](_bool_tensor(inputs[0], dev), _bool_tensor(inputs[1], dev))
    if ufunc in _UFUNC_UNARY and len(inputs) == 1 and isinstance(inputs[0], Tensor):
        impl = _UFUNC_UNARY[ufunc]
        if isinstance(impl, str):
            if impl == "logical_not":
                return ops.logical_not(_bool_tensor(inputs[0], None))
            return getattr(Tensor, impl)(inputs[0])
        return impl(inputs[0])
    return None


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ufuncs on silt tensors: those silt has (arithmetic,
    comparisons, logical and bitwise operations, the elementwise math
    functions), called plainly (`np.add(t, x)`, also `out=` a tensor or an
    array), run on the tensor's device and return silt tensors, with silt's
    (PyTorch's) result dtypes. Anything else (`np.add.reduce`, `dtype=`,
    `where=`, ufuncs silt lacks) runs in NumPy on the tensors' elements and
    returns NumPy arrays."""
    out = kwargs.pop("out", None)
    result = None
    if method == "__call__" and not kwargs:
        if not all(isinstance(x, Tensor) or _is_operand(x) or isinstance(x, np.ndarray) for x in inputs):
            return NotImplemented
        result = _ufunc_call(ufunc, inputs)
    if result is None:
        if out is not None:
            kwargs["out"] = out
        return _numpy_fallback_ufunc(ufunc, method, inputs, kwargs)
    if out is None:
        return result
    (target,) = out
    if isinstance(target, Tensor):
        _write(target, result)
    else:
        target[...] = result.numpy()
    return target


def _numpy_fallback_ufunc(ufunc, method, inputs, kwargs):
    out = kwargs.get("out")
    targets = None
    if out is not None:
        targets = out
        kwargs["out"] = tuple(
            t.numpy() if isinstance(t, Tensor) and t.device.is_host else
            (np.empty(t.shape, t.dtype) if isinstance(t, Tensor) else t)
            for t in out
        )
    result = getattr(ufunc, method)(*_to_numpy(inputs), **kwargs)
    if targets is not None:
        for t, a in zip(targets, kwargs["out"]):
            if isinstance(t, Tensor) and not t.device.is_host:
                _write(t, a)
        return targets[0] if len(targets) == 1 else targets
    return result


def _axis(kwargs, args, i):
    return args[i] if len(args) > i else kwargs.get("axis")


def _f64_if_int(a):
    return a if a.dtype.kind == "f" else a.astype(np.float64)


def _flat(a):
    return a.contiguous().reshape(-1)


class _Fallback(Exception):
    """A NumPy function's arguments that silt's version does not take."""


def _only(kwargs, *allowed):
    for k, v in kwargs.items():
        if k not in allowed and v is not None and v is not np._NoValue:
            raise _Fallback(k)


def _np_reduce(fn, cast=None):
    def impl(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
        _only(kw)
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        keepdims = bool(keepdims) if keepdims is not np._NoValue else False
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        elif cast is not None:
            a = cast(a)
        return fn(a, axis, keepdims)
    return impl


def _np_arg(fn):
    def impl(a, axis=None, out=None, *, keepdims=False):
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        keepdims = bool(keepdims) if keepdims is not np._NoValue else False
        return fn(a, axis, keepdims)
    return impl


def _np_extreme(fn):
    def impl(a, axis=None, out=None, keepdims=False, **kw):
        _only(kw)
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        keepdims = bool(keepdims) if keepdims is not np._NoValue else False
        return fn(a, axis, keepdims)
    return impl


def _np_spread(fn):
    def impl(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        _only(kw)
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        keepdims = bool(keepdims) if keepdims is not np._NoValue else False
        a = a.astype(dtype, copy=False) if dtype is not None else _f64_if_int(a)
        return fn(a, axis, correction=ddof, keepdim=keepdims)
    return impl


def _np_cum(fn):
    def impl(a, axis=None, dtype=None, out=None):
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        elif a.dtype.kind == "b" or a.dtype.kind == "i" and a.dtype.itemsize < 8:
            a = a.astype(np.int64)  # NumPy accumulates small integers in the platform's int64
        elif a.dtype.kind == "u" and a.dtype.itemsize < 8:
            a = a.astype(np.uint64)
        if axis is None:
            a, axis = _flat(a), 0
        return fn(a, axis)
    return impl


def _np_where(condition, x=None, y=None):
    if x is None or y is None:
        raise _Fallback()
    rd = promote(x, y) if not (_is_number(x) and _is_number(y)) else None
    if rd is None:
        raise _Fallback()
    dev = next((t.device for t in (condition, x, y) if isinstance(t, Tensor)), None)
    return ops.where_(_bool_tensor(condition, dev), _as(x, rd, dev), _as(y, rd, dev))


def _np_clip(a, a_min=None, a_max=None, out=None, **kw):
    # NumPy 2 also names them min= and max=
    a_min = kw.pop("min", a_min) if a_min is None else a_min
    a_max = kw.pop("max", a_max) if a_max is None else a_max
    _only(kw)
    if out is not None or not isinstance(a, Tensor):
        raise _Fallback()
    if not all(v is None or _is_number(v) for v in (a_min, a_max)):
        raise _Fallback()
    return ops.clamp(a, a_min, a_max)


def _np_transpose(a, axes=None):
    if not isinstance(a, Tensor):
        raise _Fallback()
    return a.T if axes is None else a.permute(*axes)


def _np_count_nonzero(a, axis=None, *, keepdims=False):
    if not isinstance(a, Tensor):
        raise _Fallback()
    return ops.count_nonzero(a, axis, keepdims)


def _np_copy(a, order="K", subok=False):
    if not isinstance(a, Tensor) or not subok:
        raise _Fallback()
    return a.clone()


_ARRAY_FUNCTIONS = {
    np.sum: _np_reduce(ops.sum),
    np.prod: _np_reduce(ops.prod),
    np.mean: _np_reduce(ops.mean, cast=_f64_if_int),
    np.max: _np_extreme(ops.amax),
    np.amax: _np_extreme(ops.amax),
    np.min: _np_extreme(ops.amin),
    np.amin: _np_extreme(ops.amin),
    np.argmax: _np_arg(ops.argmax),
    np.argmin: _np_arg(ops.argmin),
    np.all: _np_extreme(ops.all),
    np.any: _np_extreme(ops.any),
    np.std: _np_spread(ops.std),
    np.var: _np_spread(ops.var),
    np.cumsum: _np_cum(ops.cumsum),
    np.cumprod: _np_cum(ops.cumprod),
    np.where: _np_where,
    np.clip: _np_clip,
    np.transpose: _np_transpose,
    np.count_nonzero: _np_count_nonzero,
    np.copy: _np_copy,
}


def _array_function(self, func, types, args, kwargs):
    """NumPy's functions on silt tensors: `sum prod mean max amax min amin
    argmax argmin all any std var cumsum cumprod where clip transpose
    count_nonzero` run on the tensor's device and return silt tensors (with
    NumPy's defaults: `ddof=0`, `axis=None` over every element; integer
    `mean`, `std`, `var` in float64). Other functions, and these with
    arguments silt does not take (`out=`, `where=`, ...), run in NumPy on the
    tensors' elements (a copy from an OpenCL device) and return what NumPy
    returns."""
    impl = _ARRAY_FUNCTIONS.get(func)
    if impl is not None:
        try:
            return impl(*args, **kwargs)
        except (_Fallback, TypeError) as e:
            if isinstance(e, DTypeError):
                raise
    return func(*_to_numpy(args), **_to_numpy(kwargs))


# ---- silt.Fusion's values: operators that record calls ---------------------

_FUSED = {
    "add": "add", "sub": "sub", "mul": "mul", "floordiv": "floor_divide", "mod": "remainder",
    "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
}
_FUSED_LOGICAL = {"and": ("bitwise_and", "logical_and"), "or": ("bitwise_or", "logical_or"),
                  "xor": ("bitwise_xor", "logical_xor")}


def _value_kind(*args):
    for a in args:
        if isinstance(a, _silt.FusionValue) and a.dtype is not None:
            return a.dtype.kind
    return "f"


def _fused(name, reflected=False):
    """An operator of a Fusion's values: records the call of the operation
    (the values' dtype, numbers converted to it; no promotion in a chain)."""
    def op(self, other):
        if not (isinstance(other, _silt.FusionValue) or _is_number(other)):
            return NotImplemented
        a, b = (other, self) if reflected else (self, other)
        if isinstance(a, np.generic):
            a = a.item()
        if isinstance(b, np.generic):
            b = b.item()
        f = self.fusion
        kind = _value_kind(a, b)
        if name == "truediv":
            if kind != "f":  # true division: integers as float32, as for tensors
                a = f.call("to_f32", a) if isinstance(a, _silt.FusionValue) else float(a)
                b = f.call("to_f32", b) if isinstance(b, _silt.FusionValue) else float(b)
            return f.call("div", a, b)
        if name == "pow":
            return f.call("pow" if kind == "f" else "pow_int", a, b)
        if name in _FUSED_LOGICAL:
            return f.call(_FUSED_LOGICAL[name][kind == "b"], a, b)
        return f.call(_FUSED[name], a, b)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    op.__doc__ = f"Records `{_SYMBOL.get(name, name)}` as a call of the chain."
    return op


def _fused_unary(name, bool_name=None):
    def op(self):
        return self.fusion.call(bool_name if bool_name and self.dtype == _BOOL else name, self)

    op.__doc__ = f"Records `{name}` as a call of the chain."
    return op


def _fused_getattr(self, name):
    """`v.relu()`, `v.clamp(0, 1)`, `v.to_f32()`: a call of the operation of
    that name on the value (and the arguments), recorded in its Fusion."""
    if name.startswith("_"):
        raise AttributeError(name)
    f = self.fusion

    def call(*args):
        return f.call(name, self, *args)

    call.__name__ = name
    return call


def _attach_fusion_values():
    V = _silt.FusionValue
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor"):
        setattr(V, f"__{name}__", _fused(name))
        setattr(V, f"__r{name}__", _fused(name, reflected=True))
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(V, f"__{name}__", _fused(name))
    V.__hash__ = object.__hash__
    V.__neg__ = _fused_unary("neg")
    V.__abs__ = _fused_unary("abs")
    V.__invert__ = _fused_unary("bitwise_not", "logical_not")
    V.__getattr__ = _fused_getattr


# ---- attaching -------------------------------------------------------------

def _attach():
    T = Tensor
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift"):
        setattr(T, f"__{name}__", _operator(name))
        setattr(T, f"__r{name}__", _operator(name, reflected=True))
        setattr(T, f"__i{name}__", _inplace(name))
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(T, f"__{name}__", _operator(name))
    T.__hash__ = object.__hash__  # by identity, as PyTorch's tensors
    T.__neg__ = _neg
    T.__pos__ = _pos
    T.__abs__ = _abs
    T.__invert__ = _invert
    T.__bool__ = _bool
    T.__float__ = _float
    T.__int__ = _int
    T.__setitem__ = _setitem
    T.__reduce__ = _reduce
    T.__dlpack__ = _dlpack
    T.__dlpack_device__ = _dlpack_device
    T.__array_ufunc__ = _array_ufunc
    T.__array_function__ = _array_function
    Device.__reduce__ = _device_reduce

    for name in _FLOAT_UNARY + list(_ROUNDING) + list(_ANY_UNARY) + ["relu"]:
        setattr(T, name, _unary(name))
    for name, op in (
        ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "truediv"), ("floor_divide", "floordiv"),
        ("remainder", "mod"), ("fmod", "fmod"), ("pow", "pow"), ("maximum", "maximum"),
        ("minimum", "minimum"), ("fmax", "fmax"), ("fmin", "fmin"), ("atan2", "atan2"),
        ("hypot", "hypot"), ("copysign", "copysign"), ("eq", "eq"), ("ne", "ne"), ("lt", "lt"),
        ("le", "le"), ("gt", "gt"), ("ge", "ge"), ("bitwise_and", "and"), ("bitwise_or", "or"),
        ("bitwise_xor", "xor"),
    ):
        setattr(T, name, _binary_method(name, op))
    for name in ("logical_and", "logical_or", "logical_xor"):
        fn = _UFUNC_LOGICAL[getattr(np, name)]
        setattr(T, name, (lambda fn, name: _named(name, lambda self, other: fn(
            _bool_tensor(self, None), _bool_tensor(other, self.device)),
            f"`{name}(self, other)`: both sides as bool, elementwise with broadcasting."))(fn, name))
    for name in ("amax", "amin", "argmax", "argmin", "all", "any", "count_nonzero", "logsumexp"):
        setattr(T, name, _reduction(name))
    T.sum = _sum
    T.prod = _prod
    T.mean = _mean
    T.max = _extreme("max", ops.amax, ops.argmax)
    T.min = _extreme("min", ops.amin, ops.argmin)
    T.var = _var
    T.std = _std
    T.norm = _norm
    for name in ("cumsum", "cumprod", "softmax", "log_softmax"):
        setattr(T, name, _along(name))
    T.cummax = _cum_extreme("cummax")
    T.cummin = _cum_extreme("cummin")
    T.clamp = _clamp
    T.clip = _clamp
    T.where = _where
    T.lerp = _lerp
    T.addcmul = _addcmul
    T.fill_ = _fill_
    T.zero_ = _zero_
    T.copy_ = _copy_
    for name, op in (("add_", "add"), ("sub_", "sub"), ("mul_", "mul"), ("div_", "truediv"), ("pow_", "pow")):
        setattr(T, name, _method_inplace(name, op))
    for name, dt in (("float", np.float32), ("double", np.float64), ("half", np.float16),
                     ("int", np.int32), ("long", np.int64), ("bool", np.bool_)):
        setattr(T, name, _cast(name, dt))
    T.cpu = _cpu
    T.numel = _numel
    T.dim = _dim


def _named(name, fn, doc):
    fn.__name__ = name
    fn.__doc__ = doc
    return fn


_attach()
_attach_fusion_values()

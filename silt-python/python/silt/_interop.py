"""DLPack and NumPy's ``__array_ufunc__`` / ``__array_function__`` for
``silt.Tensor``: host memory shared without copies, NumPy's ufuncs and
functions that silt has run on the tensor's device. ``_tensor`` attaches them
to the class.
"""

import numpy as np

from . import _silt
from ._silt import DTypeError, Tensor, tensor
from ._operators import (
    _abs, _as, _binary, _bool_tensor, _device_of, _invert, _is_number, _is_operand, _neg, _pos,
    promote,
)
from ._indexing import _write
from ._methods import _argmax, _argmin
from . import _creation

ops = _silt.ops


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
    place; a producer that marks its memory read-only is copied, as silt
    copies read-only arrays), or copied to ``device``. A silt tensor is
    returned as it is (or copied to ``device``)."""
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
    np.tanh: "tanh", np.arcsinh: "asinh", np.arccosh: "acosh", np.arctanh: "atanh",
    np.floor: "floor", np.ceil: "ceil", np.trunc: "trunc", np.rint: "round",
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
    np.left_shift: "lshift", np.right_shift: "rshift", np.matmul: "matmul",
}
_UFUNC_LOGICAL = {np.logical_and: ops.logical_and, np.logical_or: ops.logical_or, np.logical_xor: ops.logical_xor}


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
    if not np.can_cast(result.dtype, target.dtype, casting="same_kind"):
        # NumPy's rule for out= (silt's own `+=` refuses it too)
        raise DTypeError(f"{ufunc.__name__}: the result's dtype {result.dtype} does not cast to out's "
                         f"{target.dtype} (NumPy's casting='same_kind')")
    if isinstance(target, Tensor):
        _write(target, result)
    else:
        target[...] = result.numpy()
    return target


def _numpy_fallback_ufunc(ufunc, method, inputs, kwargs):
    """A ufunc call in NumPy on the tensors' elements (a copy from an
    OpenCL device): what it writes into a tensor (`out=`, and the first
    input of `ufunc.at`) is written back to the tensor, and `out=` tensors
    are returned as NumPy returns its `out`."""
    out = kwargs.get("out")
    targets = None
    if out is not None:
        targets = out
        # an OpenCL tensor's elements as they are: `where=` leaves some of them
        kwargs["out"] = tuple(t.numpy() if isinstance(t, Tensor) else t for t in out)
    arrays = _to_numpy(inputs)
    # tensors among the other keywords too (`where=`, `initial=`): NumPy
    # would hand the call back to the tensor, forever
    kwargs.update({k: _to_numpy(v) for k, v in kwargs.items() if k != "out"})
    result = getattr(ufunc, method)(*arrays, **kwargs)
    if method == "at" and isinstance(inputs[0], Tensor) and not inputs[0].device.is_host:
        _write(inputs[0], arrays[0])
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


def _float_dtype(dtype):
    """A `dtype=` of NumPy's reductions and scans that silt's give as NumPy
    does: a float dtype (the elements converted, then summed in it). NumPy
    accumulates an integer `dtype` in that dtype itself (an int8 sum wraps),
    so those run in NumPy."""
    d = np.dtype(dtype)
    if d.kind != "f":
        raise _Fallback()
    return d


def _np_reduce(fn, cast=None):
    def impl(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
        _only(kw)
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        keepdims = bool(keepdims) if keepdims is not np._NoValue else False
        if dtype is not None:
            a = a.astype(_float_dtype(dtype), copy=False)
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
        a = a.astype(_float_dtype(dtype), copy=False) if dtype is not None else _f64_if_int(a)
        return fn(a, axis, correction=ddof, keepdim=keepdims)
    return impl


def _np_cum(fn):
    def impl(a, axis=None, dtype=None, out=None):
        if out is not None or not isinstance(a, Tensor):
            raise _Fallback()
        if dtype is not None:
            a = a.astype(_float_dtype(dtype), copy=False)
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
    return a.clamp(a_min, a_max)  # with promotion: float bounds of integers give float32


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


def _np_join(fn):
    def impl(arrays, axis=0, out=None, **kw):
        _only(kw)
        arrays = list(arrays)
        if out is not None or not arrays or not all(isinstance(a, Tensor) for a in arrays):
            raise _Fallback()
        return fn(arrays, axis)
    return impl


_ARRAY_FUNCTIONS = {
    np.sum: _np_reduce(ops.sum),
    np.prod: _np_reduce(ops.prod),
    np.mean: _np_reduce(ops.mean, cast=_f64_if_int),
    np.max: _np_extreme(ops.amax),
    np.amax: _np_extreme(ops.amax),
    np.min: _np_extreme(ops.amin),
    np.amin: _np_extreme(ops.amin),
    np.argmax: _np_arg(_argmax),
    np.argmin: _np_arg(_argmin),
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
    np.concatenate: _np_join(_creation.concatenate),
    np.stack: _np_join(_creation.stack),
}


def _array_function(self, func, types, args, kwargs):
    """NumPy's functions on silt tensors: `sum prod mean max amax min amin
    argmax argmin all any std var cumsum cumprod where clip transpose
    count_nonzero copy`, and `concatenate stack` of silt tensors only, run on
    the tensor's device and return silt tensors (with
    NumPy's defaults: `ddof=0`, `axis=None` over every element; integer
    `mean`, `std`, `var` in float64; a float `dtype=` converts first). Other
    functions, and these with arguments silt does not take (`out=`,
    `where=`, an integer `dtype=`, ...), run in NumPy on the tensors'
    elements (a copy from an OpenCL device) and return what NumPy returns;
    what NumPy writes into a tensor's copy (`out=`, the first argument of
    `np.copyto`, `np.put`, ...) is written back to the tensor."""
    impl = _ARRAY_FUNCTIONS.get(func)
    if impl is not None:
        try:
            return impl(*args, **kwargs)
        except (_Fallback, TypeError) as e:
            if isinstance(e, DTypeError):
                raise
    arrays, named = _to_numpy(args), _to_numpy(kwargs)
    result = func(*arrays, **named)
    # what NumPy wrote into a tensor's copy goes back to the tensor: `out=`,
    # and the first argument of the functions that write it
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else (out,)
    for t, a in zip(outs, named.get("out") if isinstance(out, tuple) else (named.get("out"),)):
        if isinstance(t, Tensor):
            if not t.device.is_host:
                _write(t, a)
            if result is a:
                result = t
    if func in _WRITES_FIRST and args and isinstance(args[0], Tensor) and not args[0].device.is_host:
        _write(args[0], arrays[0])
    return result


# NumPy's functions that write their first argument in place
_WRITES_FIRST = {np.copyto, np.put, np.putmask, np.place, np.fill_diagonal, np.put_along_axis}

"""What makes ``silt.Tensor`` behave as the arrays Python users know, attached
to the class when ``silt`` is imported: its operators and their dtypes
(``_operators``: PyTorch's promotion rules are in its docs), PyTorch's
methods and pickling (``_methods``, ``_extras``, ``_more``, ``linalg``), item access (``_indexing``), DLPack and NumPy's
protocols (``_interop``), and the operators of ``silt.Fusion``'s values
(``_fusion``). Each is a thin layer over ``silt.ops``.
"""

import functools
import inspect

import numpy as np

from . import _silt
from ._silt import ArgumentError, Device, DTypeError, Tensor
from ._operators import _is_number
from ._operators import _abs, _bool_tensor, _inplace, _invert, _neg, _operator, _pos, ops
from ._methods import (
    _along, _addcmul, _binary_method, _bool, _cast, _clamp, _copy_, _cpu, _cum_extreme,
    _device_reduce, _dim, _extreme, _fill_, _float, _int, _lerp, _mean, _method_inplace,
    _add_method, _div,
    _norm, _numel, _prod, _reduce, _reduction, _std, _sum, _unary, _var, _where,
    _zero_, _ANY_UNARY, _FLOAT_UNARY, _ROUNDING,
    _argsort, _bincount, _matmul, _expand, _flatten, _gather, _histc, _index_select, _scatter_add,
    _scatter_reduce, _scatter_reduce_,
    _scatter_add_, _sort, _squeeze, _take, _topk, _unsqueeze,
    _allclose, _checked_matmul, _chunk, _equal, _flip, _in_place, _isclose, _masked_fill, _new, _write_back,
    _new_full, _new_tensor, _repeat, _split, _tri, _type_as, _unbind,
    _argmax, _argmin, _as_of, _dim_index, _clamp_side, _on_a_copy, _detach, _index_add_, _index_reduce_, _index_copy_, _index_fill_, _nonzero, _roll,
    _scatter_, _t, _unique, Size,
)
from ._composed import (
    _add_product, _aminmax, _diag, _diagonal, _diff, _kthvalue, _masked_select, _median_like,
    _movedim, _nan_to_num, _nanmean, _nansum, _outer, _quantile_like, _swapaxes, _tile, _trace,
    _bernoulli, _bernoulli_fill, _cross, _diag_embed, _dist, _exponential, _fill_diagonal_,
    _flip_side, _float_power, _heaviside, _index_put_, _inner, _kron, _logaddexp, _logaddexp2,
    _logit, _normal, _put_, _random_fill, _random_ints, _repeat_interleave, _rot90, _scaled,
    _select, _signbit, _sinc, _take_along_dim, _tensor_split, _uniform, _unflatten, _vdot,
    _xlogy, _igamma, _igammac, _h_transpose, _m_transpose, _mode, _msort, _unfold, _split_side, _masked_scatter,
    _masked_scatter_, _is_signed, _addcdiv, _addcdiv_, _scan_in_place, _is_inf_side, _positive,
    _is_nonzero, _sum_to_size, _multinomial, _mvlgamma, _polygamma,
)
from ._indexing import _getitem, _setitem
from ._interop import _UFUNC_LOGICAL, _array_function, _array_ufunc, _dlpack, _dlpack_device
from ._fusion import _attach_fusion_values
from ._extras import _attach as _attach_extras
from ._more import _attach as _attach_more
from .linalg import _attach as _attach_linalg

# ---- attaching -------------------------------------------------------------

def _attach():
    T = Tensor
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift", "rshift"):
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
    T.__getitem__ = _getitem
    T.__setitem__ = _setitem
    T.__reduce__ = _reduce
    T.__dlpack__ = _dlpack
    T.__dlpack_device__ = _dlpack_device
    T.__array_ufunc__ = _array_ufunc
    T.__array_function__ = _array_function
    Device.__reduce__ = _device_reduce

    for name in _FLOAT_UNARY + list(_ROUNDING) + list(_ANY_UNARY) + ["relu"]:
        setattr(T, name, _unary(name))
    # as the operators: unsigned negation wraps, bool's abs and bitwise not
    T.neg = _neg
    T.abs = _abs
    T.bitwise_not = _invert
    for name, op in (
        ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "truediv"), ("floor_divide", "floordiv"),
        ("remainder", "mod"), ("fmod", "fmod"), ("pow", "pow"), ("maximum", "maximum"),
        ("minimum", "minimum"), ("fmax", "fmax"), ("fmin", "fmin"), ("atan2", "atan2"),
        ("hypot", "hypot"), ("copysign", "copysign"), ("eq", "eq"), ("ne", "ne"), ("lt", "lt"),
        ("le", "le"), ("gt", "gt"), ("ge", "ge"), ("bitwise_and", "and"), ("bitwise_or", "or"),
        ("bitwise_xor", "xor"), ("bitwise_left_shift", "lshift"), ("bitwise_right_shift", "rshift"),
        ("gcd", "gcd"), ("lcm", "lcm"),
    ):
        setattr(T, name, _binary_method(name, op))
    T.add = _add_method("add", "add")
    T.sub = _add_method("sub", "sub")
    T.div = _div
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
    T.max = _extreme("max", ops.amax, _argmax)
    T.min = _extreme("min", ops.amin, _argmin)
    T.var = _var
    T.std = _std
    T.norm = _norm
    for name in ("cumsum", "cumprod", "softmax", "log_softmax", "logcumsumexp"):
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
    T.matmul = _matmul
    T.sort = _sort
    T.argsort = _argsort
    T.topk = _topk
    T.index_select = _index_select
    T.gather = _gather
    T.scatter_add = _scatter_add
    T.scatter_add_ = _scatter_add_
    T.scatter_reduce = _scatter_reduce
    T.scatter_reduce_ = _scatter_reduce_
    T.take = _take
    T.bincount = _bincount
    T.histc = _histc
    T.unsqueeze = _unsqueeze
    T.squeeze = _squeeze
    T.flatten = _flatten
    T.expand = _expand
    T.split = _split
    T.chunk = _chunk
    T.unbind = _unbind
    T.masked_fill = _masked_fill
    T.flip = _flip
    T.repeat = _repeat
    T.mm = _checked_matmul("mm", (2, 2))
    T.bmm = _checked_matmul("bmm", (3, 3))
    T.mv = _checked_matmul("mv", (2, 1))
    T.dot = _checked_matmul("dot", (1, 1))
    T.new_zeros = _new(0)
    T.new_ones = _new(1)
    T.new_empty = _named("new_empty", _new(None), "`new_empty(*size, dtype=None, device=None)`: as `new_zeros` (silt gives zeros).")
    T.new_full = _new_full
    T.new_tensor = _new_tensor
    T.type_as = _type_as
    T.isclose = _isclose
    T.allclose = _allclose
    T.equal = _equal
    T.tril = _tri(False)
    T.triu = _tri(True)
    # in place: the method's result written back, PyTorch's casts
    for name in ([n for n in _FLOAT_UNARY if not n.startswith("is")] + list(_ROUNDING)
                 + ["neg", "abs", "sign", "square", "relu", "logical_not", "bitwise_not",
                    "clamp", "clip", "lerp", "addcmul", "masked_fill", "tril", "triu"]):
        setattr(T, f"{name}_", _in_place(name))
    T.index_fill_ = _index_fill_
    T.index_copy_ = _index_copy_
    T.index_add_ = _index_add_
    T.index_reduce_ = _index_reduce_
    T.scatter_ = _scatter_
    for name, inplace in (("index_fill", _index_fill_), ("index_copy", _index_copy_),
                          ("index_add", _index_add_), ("index_reduce", _index_reduce_),
                          ("scatter", _scatter_)):
        setattr(T, name, _on_a_copy(name, inplace))
    T.nonzero = _nonzero
    T.argwhere = _named("argwhere", lambda self: _nonzero(self), "`argwhere()`: `nonzero()`.")
    T.roll = _roll
    T.unique = _unique
    T.t = _t
    T.detach = _detach
    T.expand_as = _as_of("expand_as", "expand")
    T.view_as = _as_of("view_as", "view")
    T.reshape_as = _as_of("reshape_as", "reshape")
    T.clamp_min = _clamp_side("min")
    T.clamp_max = _clamp_side("max")
    T.clamp_min_ = _in_place("clamp_min")
    T.clamp_max_ = _in_place("clamp_max")
    T.movedim = _movedim
    T.moveaxis = _named("moveaxis", lambda self, source, destination: _movedim(self, source, destination),
                        "`moveaxis(source, destination)`: `movedim`.")
    T.swapaxes = _swapaxes
    T.swapdims = _named("swapdims", lambda self, dim0, dim1: _swapaxes(self, dim0, dim1),
                        "`swapdims(dim0, dim1)`: `transpose(dim0, dim1)`, a view.")
    T.diagonal = _diagonal
    T.diag = _diag
    T.trace = _trace
    T.tile = _tile
    T.outer = _outer
    T.diff = _diff
    T.median = _median_like("median", skip_nan=False)
    T.nanmedian = _median_like("nanmedian", skip_nan=True)
    T.kthvalue = _kthvalue
    T.quantile = _quantile_like("quantile", skip_nan=False)
    T.nanquantile = _quantile_like("nanquantile", skip_nan=True)
    T.nansum = _nansum
    T.nanmean = _nanmean
    T.nan_to_num = _nan_to_num
    T.nan_to_num_ = _in_place("nan_to_num")
    T.aminmax = _aminmax
    T.masked_select = _masked_select
    T.addmm = _add_product("addmm", "mm", ("mat1", "mat2"))
    T.addmv = _add_product("addmv", "mv", ("mat", "vec"))
    T.baddbmm = _add_product("baddbmm", "bmm", ("batch1", "batch2"))
    T.addr = _add_product("addr", "outer", ("vec1", "vec2"))
    # the batch's sum in the tensors' dtype (an integer sum would widen to int64)
    T.addbmm = _add_product("addbmm", lambda a, b: a.bmm(b).sum(0, dtype=a.dtype), ("batch1", "batch2"))
    T.ger = _alias("ger", "outer")
    T.multinomial = _multinomial
    # PyTorch's and NumPy's other names
    for alias, name in (("absolute", "abs"), ("arccos", "acos"), ("arcsin", "asin"), ("arctan", "atan"),
                        ("arctan2", "atan2"), ("arcsinh", "asinh"), ("arccosh", "acosh"),
                        ("arctanh", "atanh"), ("divide", "div"), ("true_divide", "div"),
                        ("multiply", "mul"), ("subtract", "sub"), ("negative", "neg"), ("greater", "gt"),
                        ("greater_equal", "ge"), ("less", "lt"), ("less_equal", "le"),
                        ("not_equal", "ne"), ("fix", "trunc"), ("sgn", "sign")):
        setattr(T, alias, _alias(alias, name))
        if hasattr(T, f"{name}_") and alias not in ("greater", "greater_equal", "less", "less_equal", "not_equal"):
            setattr(T, f"{alias}_", _alias(f"{alias}_", f"{name}_"))
    for name, dt in (("short", np.int16), ("byte", np.uint8), ("char", np.int8)):
        setattr(T, name, _cast(name, dt))
    T.ravel = _named("ravel", lambda self: self.reshape(-1), "`ravel()`: `reshape(-1)` (a view where one can be).")
    T.stride = _named("stride", lambda self, dim=None: tuple(self.strides) if dim is None
                      else self.strides[_dim_index(dim, self.ndim, "stride")],
                      "`stride(dim=None)`: the strides in elements (one dimension's with `dim`).")
    T.element_size = _named("element_size", lambda self: self.itemsize, "`element_size()`: bytes per element.")
    T.nbytes = property(lambda self: self.size * self.itemsize, doc="The bytes of the elements (`numel() * itemsize`).")
    T.is_floating_point = _named("is_floating_point", lambda self: self.dtype.kind == "f",
                                 "`is_floating_point()`: whether the dtype is a float.")
    T.is_complex = _named("is_complex", lambda self: False, "`is_complex()`: False (silt has no complex dtype).")
    T.deg2rad = _scaled(np.pi / 180, "deg2rad")
    T.rad2deg = _scaled(180 / np.pi, "rad2deg")
    T.logaddexp = _logaddexp
    T.logaddexp2 = _logaddexp2
    T.xlogy = _xlogy
    T.igamma = _igamma
    T.igammac = _igammac
    T.heaviside = _heaviside
    T.signbit = _signbit
    T.sinc = _sinc
    T.mT = property(_m_transpose, doc="The last two dimensions swapped, a view (PyTorch's `mT`).")
    T.mH = property(_m_transpose, doc="`mT` (the conjugate of a real tensor is itself).")
    T.H = property(_h_transpose, doc="The transpose of a matrix, a view (PyTorch's `H` of a real tensor).")
    T.unfold = _unfold
    T.hsplit = _split_side("hsplit", 1, 1)
    T.vsplit = _split_side("vsplit", 0, 2)
    T.dsplit = _split_side("dsplit", 2, 3)
    T.masked_scatter_ = _masked_scatter_
    T.masked_scatter = _masked_scatter
    T.mode = _mode
    Device.type = property(lambda d: "cpu" if d.is_host else "opencl",
                           doc="PyTorch's device type: `cpu` for the host backend, else `opencl`.")
    T.nelement = _alias("nelement", "numel")
    T.ndimension = _alias("ndimension", "dim")
    T.storage_offset = _named("storage_offset", lambda self: self.offset,
                              "`storage_offset()`: the view's first element's place in its storage.")
    T.is_signed = _is_signed
    T.addcdiv = _addcdiv
    T.addcdiv_ = _addcdiv_
    T.cumsum_ = _scan_in_place("cumsum")
    T.cumprod_ = _scan_in_place("cumprod")
    T.isposinf = _is_inf_side(1)
    T.isneginf = _is_inf_side(-1)
    T.positive = _positive
    T.is_same_size = _named("is_same_size", lambda self, other: tuple(self.shape) == tuple(other.shape),
                            "`is_same_size(other)`: whether the two shapes are equal.")
    T.is_nonzero = _is_nonzero
    T.sum_to_size = _sum_to_size
    T.is_cpu = property(lambda self: self.device.is_host, doc="Whether the tensor is on the host backend.")
    T.get_device = _named("get_device", lambda self: -1 if self.device.is_host else _device_index(self.device),
                          "`get_device()`: -1 on the host backend (PyTorch's CPU), else the OpenCL device's index.")
    T.msort = _msort
    T.float_power = _float_power
    T.logit = _logit
    T.mvlgamma = _mvlgamma
    T.polygamma = _polygamma
    for name in ("deg2rad", "rad2deg", "xlogy", "sinc", "logit", "heaviside", "mvlgamma", "polygamma", "igamma",
                 "igammac"):
        setattr(T, f"{name}_", _in_place(name))
    T.float_power_ = _named("float_power_", lambda self, exponent: _float_power_(self, exponent),
                            "`float_power_(exponent)`: `float_power` in place, on a float64 tensor only (PyTorch's).")
    # the binary operations and comparisons in place (a comparison writes 0 or 1)
    for name in ("atan2", "hypot", "copysign", "fmod", "remainder", "floor_divide", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "logical_and",
                 "logical_or", "logical_xor", "eq", "ne", "lt", "le", "gt", "ge", "gcd", "lcm"):
        setattr(T, f"{name}_", _in_place(name))
    for alias, name in (("arctan2_", "atan2_"), ("greater_", "gt_"), ("greater_equal_", "ge_"),
                        ("less_", "lt_"), ("less_equal_", "le_"), ("not_equal_", "ne_")):
        setattr(T, alias, _alias(alias, name))
    T.fliplr = _flip_side("fliplr", 1, 2)
    T.flipud = _flip_side("flipud", 0, 1)
    T.rot90 = _rot90
    T.hardshrink = _hardshrink
    T.prelu = _prelu
    T.select = _select
    T.unflatten = _unflatten
    T.tensor_split = _tensor_split
    T.take_along_dim = _take_along_dim
    T.repeat_interleave = _repeat_interleave
    T.inner = _inner
    T.vdot = _vdot
    T.kron = _kron
    T.cross = _cross
    T.dist = _dist
    T.fill_diagonal_ = _fill_diagonal_
    T.diag_embed = _diag_embed
    T.put_ = _put_
    T.put = _on_a_copy("put", _put_)
    T.index_put_ = _index_put_
    T.index_put = _on_a_copy("index_put", _index_put_)
    T.uniform_ = _random_fill("uniform_", _uniform, "`uniform_(from_=0, to=1)`: uniform numbers in `[from_, to)`.")
    T.normal_ = _random_fill("normal_", _normal, "`normal_(mean=0, std=1)`: normal numbers.")
    T.exponential_ = _random_fill("exponential_", _exponential, "`exponential_(lambd=1)`: exponential numbers of rate `lambd`.")
    T.bernoulli_ = _random_fill("bernoulli_", _bernoulli_fill, "`bernoulli_(p=0.5)`: 1 with probability `p`, else 0.")
    T.random_ = _random_fill("random_", _random_ints, "`random_(from_=0, to=None)`: integers in `[from_, to)` "
                             "(`random_(to)` from 0; without either, PyTorch's range for the dtype).")
    T.bernoulli = _bernoulli
    T.cpu = _cpu
    T.numel = _numel
    T.size = property(lambda self: Size(self.shape), doc=Size.__doc__)
    T.dim = _dim


def _float_power_(self, exponent):
    if self.dtype != np.float64:
        raise DTypeError(f"float_power_: a float64 tensor (its result's dtype), not {self.dtype}")
    return _write_back(self, self.float_power(exponent), "float_power_")


def _alias(alias, name):
    def method(self, *args, **kwargs):
        return getattr(self, name)(*args, **kwargs)

    method.__name__ = alias
    method.__doc__ = f"`{alias}(...)`: `{name}(...)`."
    return method


def _named(name, fn, doc):
    fn.__name__ = name
    fn.__doc__ = doc
    return fn




def _attach_pytorch_forms(T):
    """PyTorch's other spellings of the binding's methods: `permute` of one
    sequence, `narrow` from a 0-d tensor, and `__index__` for integer
    tensors of one element (a list index, `range(t)`)."""
    permute, narrow = T.permute, T.narrow

    def _permute(self, *dims):
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        return permute(self, *dims)

    def _narrow(self, dim, start, length):
        if isinstance(start, Tensor):
            start = int(start.item())
        return narrow(self, dim, start, length)

    def _index(self):
        if self.dtype.kind not in "iub" or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    for name in ("scatter_add", "index_add", "scatter_reduce", "index_reduce", "put", "index_put"):
        for n in (name, name + "_"):
            setattr(T, n, _bool_accumulating(getattr(T, n), n))

    to, scatter_, scatter = T.to, T.scatter_, T.scatter

    def _to(self, *args, non_blocking=False, **kwargs):
        # to(other): the other tensor's device and dtype, as PyTorch's
        if args and isinstance(args[0], Tensor):
            other = args[0]
            return to(self, other.device, other.dtype, *args[1:], **kwargs)
        return to(self, *args, **kwargs)

    def _reduced_src(self, index, src, value):
        if src is None:
            src = value
        if isinstance(src, Tensor):
            return src
        idx = index if isinstance(index, Tensor) else _silt.tensor(np.asarray(index), device=self.device)
        return self.new_full(tuple(idx.shape), src)

    def _scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        if reduce is None:
            return scatter_(self, dim, index, src, value=value)
        src = _reduced_src(self, index, src, value)
        if reduce == "add":
            return self.scatter_add_(dim, index, src)
        if reduce == "multiply":
            return self.scatter_reduce_(dim, index, src, "prod")
        raise ArgumentError(f"scatter_: reduce must be 'add' or 'multiply', not {reduce!r}")

    def _scatter(self, dim, index, src=None, *, value=None, reduce=None):
        if reduce is None:
            return scatter(self, dim, index, src, value=value)
        return _scatter_(self.clone(), dim, index, src, value=value, reduce=reduce)

    def _reversed(self):
        return self if self.ndim == 0 else self.flip(0)

    def _iter(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def _contains(self, element):
        if not (_is_number(element) or isinstance(element, Tensor)):
            raise TypeError(f"`in` takes a number or a tensor, not {type(element).__name__}")
        return bool((self == element).any().item())

    def _format(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec) if spec else str(self)

    def _copy(self):
        # a new tensor object over the same storage, as PyTorch's copy.copy
        return self.view(tuple(self.shape)) if self.is_contiguous() else self.as_strided(
            list(self.shape), list(self.stride()))

    def _type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return f"silt.{np.dtype(self.dtype).name}"
        return self.astype(dtype, copy=False)

    for name, fn, doc in (
        ("to", _to, "`to(device=None, dtype=None, *, copy=False)`, or `to(other)`: the other tensor's "
                    "device and dtype (PyTorch's); `non_blocking` is taken and has no effect."),
        ("scatter_", _scatter_, scatter_.__doc__ + " `reduce='add'` or `'multiply'` combines instead "
                                "(PyTorch's: `scatter_add_`, `scatter_reduce_(..., 'prod')`)."),
        ("scatter", _scatter, "`scatter_` on a copy."),
        ("__iter__", _iter, "The tensor's rows (views), as PyTorch's; a 0-d tensor is not iterable."),
        ("__reversed__", _reversed, "`reversed(t)`: `flip(0)` (a 0-d tensor itself), as PyTorch's."),
        ("__contains__", _contains, "`element in t`: whether any element equals it (a number or a tensor "
                                    "that broadcasts), as PyTorch's."),
        ("__format__", _format, "`format(t, spec)`: a 0-d tensor formats as its element (others take no spec, as PyTorch's)."),
        ("__copy__", _copy, "`copy.copy(t)`: a new tensor over the same storage, as PyTorch's."),
        ("type", _type, "`type(dtype)`: `astype(dtype)`; `type()`: the dtype's name as `silt.NAME`."),
    ):
        fn.__name__, fn.__doc__ = name, doc
        setattr(T, name, fn)

    _permute.__name__, _permute.__doc__ = "permute", permute.__doc__
    _narrow.__name__, _narrow.__doc__ = "narrow", narrow.__doc__
    _index.__doc__ = "`operator.index(t)`: the one element of an integer tensor, as PyTorch's."
    T.permute, T.narrow, T.__index__ = _permute, _narrow, _index




def _bool_accumulating(method, name):
    """`method` (an accumulating write: `scatter_add`, `index_add`,
    `scatter_reduce`, `put(accumulate=True)`, ...) on bool tensors as
    PyTorch's: computed in int64 (a sum or a maximum is an or, a product or
    a minimum an and), read back as `!= 0`; `mean` is refused, as PyTorch's."""
    in_place = name.endswith("_")

    def wrapper(self, *args, **kwargs):
        if self.dtype != np.bool_:
            return method(self, *args, **kwargs)
        if "mean" in args or kwargs.get("reduce") == "mean":
            raise DTypeError(f"{name}: 'mean' is not defined on bool tensors")
        wide = lambda v: v.astype(np.int64) if isinstance(v, Tensor) and v.dtype == np.bool_ else v  # noqa: E731
        args = [tuple(wide(i) for i in a) if isinstance(a, tuple) else wide(a) for a in args]
        kwargs = {k: wide(v) for k, v in kwargs.items()}
        r = method(self.astype(np.int64), *args, **kwargs) != 0
        if in_place:
            self.copy_(r)
            return self
        return r

    wrapper.__name__, wrapper.__doc__ = name, method.__doc__
    return wrapper


def _hardshrink(self, lambd=0.5):
    """`hardshrink(lambd=0.5)`: the elements of magnitude above `lambd`, 0
    elsewhere (`silt.nn.functional.hardshrink`)."""
    from .nn import functional as F
    return F.hardshrink(self, lambd)


def _prelu(self, weight):
    """`prelu(weight)`: `max(0, x) + weight * min(0, x)`, `weight` one value
    or one a channel (`silt.nn.functional.prelu`)."""
    from .nn import functional as F
    return F.prelu(self, weight)


def _attach_no_gradients(T):
    """PyTorch's autograd attributes, as a tensor that records no gradients
    has them, so code written for PyTorch that asks runs: `requires_grad`
    False, `grad` and `grad_fn` None, `is_leaf` True, `data` a view of the
    same storage, `detach_()` the tensor itself; `requires_grad_(True)`
    raises (silt has no gradients). And the layouts silt has not: `is_cuda`,
    `is_sparse`, `is_quantized`, `is_meta`, `is_nested` and `is_inference`
    are False."""
    T.requires_grad = property(lambda self: False, doc="False: silt records no gradients.")
    T.grad = property(lambda self: None, doc="None: silt records no gradients.")
    T.grad_fn = property(lambda self: None, doc="None: silt records no gradients.")
    T.is_leaf = property(lambda self: True, doc="True, as every tensor that records no gradients.")
    T.data = property(lambda self: self[...], doc="A view of the same storage (PyTorch's `data`).")
    for name in ("is_cuda", "is_sparse", "is_quantized", "is_meta", "is_nested", "is_inference"):
        setattr(T, name, property(lambda self: False, doc="False: silt's tensors are strided views."))
    T.detach_ = _named("detach_", lambda self: self, "`detach_()`: the tensor itself (it records no gradients).")

    def requires_grad_(self, requires_grad=True):
        if requires_grad:
            raise ArgumentError("requires_grad_(True): silt records no gradients (its tensors are forward only)")
        return self

    T.requires_grad_ = _named("requires_grad_", requires_grad_,
                              "`requires_grad_(requires_grad=True)`: the tensor itself for False; "
                              "True raises, as silt records no gradients.")


def _numpy_keywords(f):
    """``f`` taking NumPy's names of two keywords too, as PyTorch's functions
    do: ``axis`` for ``dim`` and ``keepdims`` for ``keepdim``
    (``x.sum(axis=0, keepdims=True)``); ``f`` itself where it takes neither
    ``dim`` nor ``keepdim``, or has a parameter of those names already."""
    try:
        params = inspect.signature(f).parameters
    except (TypeError, ValueError):
        return f
    names = {alias: name for alias, name in (("axis", "dim"), ("keepdims", "keepdim"))
             if name in params and alias not in params}
    if not names:
        return f

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        if kwargs:
            for alias, name in names.items():
                if alias in kwargs:
                    if name in kwargs:
                        raise TypeError(f"{f.__name__}: {name} given twice (as {name} and as {alias})")
                    kwargs[name] = kwargs.pop(alias)
        return f(*args, **kwargs)

    return wrapped


def _attach_numpy_keywords(T):
    for name, raw in list(vars(T).items()):
        if not name.startswith("__") and callable(raw) and not isinstance(raw, (property, type)):
            f = _numpy_keywords(raw)
            if f is not raw:
                setattr(T, name, f)


_attach()
_attach_no_gradients(Tensor)
_attach_fusion_values()
_attach_pytorch_forms(Tensor)
_attach_extras(Tensor)
_attach_more(Tensor)
_attach_linalg(Tensor)
_attach_numpy_keywords(Tensor)


def _device_index(device):
    """An OpenCL device's index `N` (its spec `opencl:N`)."""
    spec = device.spec
    return int(spec.split(":")[1]) if ":" in spec else 0


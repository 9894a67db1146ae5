"""``silt.Tensor``'s methods named as PyTorch's (reductions, scans, the
elementwise operations and their in-place forms, the library's operations,
views, indexing by dimension, conversions, fills) and pickling, each a thin
layer over ``silt.ops``. ``_tensor`` attaches them to the class.
"""

import collections
import math

import numpy as np

from . import _silt
from ._silt import ArgumentError, AxisError, DTypeError, Device, Tensor, tensor, zeros
from ._creation import concatenate as _silt_concatenate, stack as _silt_stack
from ._indexing import _overlaps_itself, _stable_partition, _write
from ._operators import (
    _CATEGORY, _F32, _SYMBOL, _as, _binary, _bool_tensor, _inplace, _is_number, _one, promote,
)

ops = _silt.ops

ValuesIndices = collections.namedtuple("ValuesIndices", ["values", "indices"])
ValuesIndices.__doc__ = "The values and indices (int64) of max/min along a dim and of cummax/cummin."


# ---- methods ---------------------------------------------------------------

# unary operations defined on floats only: integer and bool tensors compute in float32
_FLOAT_UNARY = (
    "reciprocal sqrt rsqrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan "
    "sinh cosh tanh asinh acosh atanh erf erfc lgamma digamma erfinv i0 frac relu6 selu gelu gelu_tanh sigmoid silu softplus softsign mish "
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
    elif name == "round":
        def method(self, decimals=0):
            if self.dtype.kind != "f":
                return self.clone()
            if decimals == 0:
                return fn(self)
            # PyTorch's: scaled by 10^|decimals| (float16 in float32), rounded half to even, scaled back;
            # a scale past the dtype's range is inf there (NaN results, as PyTorch's)
            x = self.astype(_F32) if self.dtype == np.float16 else self
            k = abs(int(decimals))
            with np.errstate(over="ignore"):
                scale = x.dtype.type(10.0 ** k if k <= 308 else math.inf)
            r = fn(x * scale) / scale if decimals > 0 else fn(x / scale) * scale
            return r.astype(self.dtype, copy=False)
    elif name in _ROUNDING:
        def method(self):
            return fn(self) if self.dtype.kind == "f" else self.clone()
    elif name == "sign":
        def method(self):
            return self.clone() if self.dtype.kind == "b" else fn(self)
    elif name == "square":
        def method(self):
            # bool squares as int64, as PyTorch's (its pow of bool)
            return fn(self.astype(np.int64) if self.dtype.kind == "b" else self)
    elif name == "relu":
        def method(self):
            return fn(self) if self.dtype.kind == "f" else ops.maximum(self, 0)
    elif name == "logical_not":
        def method(self):
            return fn(self if self.dtype.kind == "b" else self.astype(np.bool_))
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


def _ordered(t):
    """``t`` where it has an order the index kernels take: bool as uint8
    (a view of the same bytes, False < True), as PyTorch orders bools."""
    return t.view(np.uint8) if t.dtype == np.bool_ else t


def _argmax(t, *args):
    return ops.argmax(_ordered(t), *args)


def _argmin(t, *args):
    return ops.argmin(_ordered(t), *args)


def _all_dims(dim):
    """PyTorch's reading of `dim` for `sum`, `mean`, `amax`, `var` and the
    like: an empty sequence (`dim=()`) reduces every dimension, as None
    does (silt.ops, as NumPy, reduces none)."""
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        return None
    return dim


def _reduction(name):
    fn = {"argmax": _argmax, "argmin": _argmin}.get(name) or getattr(ops, name)
    # all and any reduce nothing over `dim=()`, as PyTorch's
    dims = _all_dims if name in ("amax", "amin", "count_nonzero", "logsumexp") else (lambda d: d)

    def method(self, dim=None, keepdim=False):
        x = self
        if name == "logsumexp" and x.dtype.kind != "f":
            x = x.astype(_F32)  # PyTorch's: integers and bool as float32
        r = fn(x, dims(dim), keepdim)
        if name in ("all", "any") and x.dtype == np.uint8:
            r = r.astype(np.uint8)  # PyTorch's: uint8 in, uint8 out
        return r

    method.__name__ = name
    method.__doc__ = f"`{name}(dim=None, keepdim=False)` over `dim` (an int, a sequence, or None for all), as `silt.ops.{name}`."
    return method


def _sum(self, dim=None, keepdim=False, *, dtype=None):
    """`sum(dim=None, keepdim=False, *, dtype=None)`: integers and bool sum in
    int64 (uint64 for uint32/uint64), float16 in float32 then rounded;
    `dtype` converts first and is the result's (an integer one wraps, as
    PyTorch's)."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    return _as_asked(ops.sum(x, _all_dims(dim), keepdim), dtype)


def _as_asked(r, dtype):
    """A sum or product `r` in the integer `dtype=` asked for (`silt.ops`
    sums narrow integers in int64): the int64 result wrapped to it, the
    same numbers as PyTorch's sum in that dtype."""
    if dtype is not None and r.dtype != np.dtype(dtype):
        return r.astype(dtype, copy=False)
    return r


def _prod(self, dim=None, keepdim=False, *, dtype=None):
    """`prod(dim=None, keepdim=False, *, dtype=None)`, as `sum`."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    return _as_asked(ops.prod(x, dim, keepdim), dtype)


def _mean(self, dim=None, keepdim=False, *, dtype=None):
    """`mean(dim=None, keepdim=False, *, dtype=None)`: floats only, as
    PyTorch's (`dtype` converts first)."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    return ops.mean(x, _all_dims(dim), keepdim)


def _extreme(name, values, indices):
    binary = f"{name}imum"

    def method(self, dim=None, keepdim=None, *, other=None):
        if other is not None or isinstance(dim, (Tensor, np.ndarray)):
            # PyTorch's max(other): the elementwise maximum, no other argument
            if (other is not None and dim is not None) or keepdim is not None:
                raise TypeError(f"{name}(other) takes the other tensor alone")
            return _binary(binary, self, dim if other is None else other)
        if dim is None:
            if keepdim is not None:
                raise TypeError(f"{name}() over all elements takes no keepdim")
            return values(self)
        keepdim = bool(keepdim)
        return ValuesIndices(values(self, dim, keepdim), indices(self, dim, keepdim))

    method.__name__ = name
    method.__doc__ = (
        f"`{name}()`: the {name}imum of all elements (NaN propagates); `{name}(dim, keepdim=False)`: "
        f"a named tuple (values, indices) along `dim`, as PyTorch's; `{name}(other)` with a tensor: "
        f"`{binary}(other)`."
    )
    return method


def _correction(dim, unbiased, correction, op):
    """PyTorch's arguments of `var`, `std` and their `_mean` forms: `dim` (a
    bool there is the old `unbiased`), `unbiased` or `correction` (1 by
    default)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise ArgumentError(f"{op}: give unbiased or correction, not both")
    if correction is None:
        correction = 1 if unbiased is None else int(bool(unbiased))
    return dim, correction


def _var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """`var(dim=None, *, correction=1, keepdim=False)`, or PyTorch's older
    `var(dim, unbiased=True, keepdim=False)`: divided by `count -
    correction` (`unbiased=False` is `correction=0`); `dim=()` is every
    dimension."""
    dim, correction = _correction(dim, unbiased, correction, "var")
    return ops.var(self, _all_dims(dim), correction=correction, keepdim=keepdim)


def _std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """`std(dim=None, *, correction=1, keepdim=False)` (or `std(dim,
    unbiased, keepdim)`): `sqrt(var)`."""
    dim, correction = _correction(dim, unbiased, correction, "std")
    return ops.std(self, _all_dims(dim), correction=correction, keepdim=keepdim)


def _norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    """`norm(p='fro', dim=None, keepdim=False, dtype=None)`: the vector norm
    of order `p` over `dim` (all dimensions by default), of a float tensor
    (cast to `dtype` first where given): `sum(|x|**p)**(1/p)`, the count
    of nonzeros for 0, the largest and smallest `|x|` for inf and -inf;
    `'fro'` is the order 2 (over any dimensions, as PyTorch's `norm`);
    `'nuc'` the nuclear norm of a 2-d tensor or of the two dimensions
    `dim` (`silt.nuclear_norm`). The orders below 0 and `±inf` over an
    empty dimension raise `silt.ArgumentError`, as PyTorch's.
    The orders 1, 2 and inf run as one reduction of silt-kernels' `norm`
    (float16 summed in float32); the others as `abs`, `pow`, `sum` and a
    root (float16 computed in float32)."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    dim = _all_dims(dim)
    if isinstance(p, str):
        if p == "nuc":
            # the nuclear norm of matrices, as PyTorch's: a 2-d tensor, or the two dimensions `dim`
            from ._linalg_jacobi import _nuclear_norm
            if dim is None and x.ndim != 2:
                raise ArgumentError(f"norm: 'nuc' is the norm of a matrix: a 2-d tensor or two dimensions in dim, "
                                    f"not a tensor of {x.ndim} dimensions")
            return _nuclear_norm(x, (-2, -1) if dim is None else dim, keepdim)
        if p != "fro":
            raise ArgumentError(f"norm: order {p!r} is not taken (a number, 'fro' or 'nuc')")
        p = 2
    if not _is_number(p) or isinstance(p, bool):
        raise TypeError(f"norm: the order must be a number, 'fro' or 'nuc', not {type(p).__name__}")
    if p < 0 or p == float("inf"):
        # the orders below 0 and inf have no value over no elements, as PyTorch's
        dims = range(x.ndim) if dim is None else [dim] if _is_number(dim) else list(dim)
        if x.ndim and any(x.shape[_dim_index(d, x.ndim, "norm")] == 0 for d in dims):
            raise ArgumentError(f"norm: the order {p} norm has no value over no elements (an empty dimension)")
    if p in (1, 2, float("inf")):
        return ops.norm(x, p, dim, keepdim)
    if x.dtype.kind != "f":
        raise DTypeError(f"norm: float tensors (PyTorch's), not {x.dtype}")
    if x.dtype == np.float16:
        # |x|**p overflows float16: computed in float32, rounded once
        return _norm(x.astype(np.float32), p, dim, keepdim).astype(np.float16)
    a = abs(x)
    if p == float("-inf"):
        return a.amin(dim, keepdim)
    if p == 0:
        return (a != 0).sum(dim, keepdim).astype(x.dtype)
    return (a ** p).sum(dim, keepdim) ** (1 / p)


def _along(name):
    fn = getattr(ops, name)

    def method(self, dim, dtype=None):
        x = self if dtype is None else self.astype(dtype, copy=False)
        r = fn(x, dim)
        if dtype is not None and name in ("cumsum", "cumprod") and r.dtype != np.dtype(dtype):
            # silt.ops sums narrow integers in int64; PyTorch's dtype= sums in that dtype, wrapping:
            # the int64 sums (or products) wrapped to it are the same numbers
            r = r.astype(dtype, copy=False)
        return r

    method.__name__ = name
    method.__doc__ = (f"`{name}(dim, dtype=None)` along `dim`, as `silt.ops.{name}` (`dtype` converts "
                      "the input first, and is the result's, as PyTorch's: an integer dtype wraps).")
    return method


def _cum_extreme(name):
    fn = getattr(ops, name)

    def method(self, dim):
        values, indices = fn(_ordered(self), dim)
        return ValuesIndices(values.astype(self.dtype, copy=False), indices)

    method.__name__ = name
    method.__doc__ = f"`{name}(dim)`: a named tuple (values, indices) of the running {name[3:]}imum along `dim`."
    return method


def _clamp(self, min=None, max=None):
    """`clamp(min=None, max=None)`: each element limited to `[min, max]`; a
    float bound on an integer or bool tensor gives float32, as PyTorch's.
    Tensor bounds broadcast: `minimum(maximum(self, min), max)` with
    promotion (a NaN among them propagates). One bound at least, as
    PyTorch's."""
    if min is None and max is None:
        raise ArgumentError("clamp: give min, max or both")
    if self.dtype != np.bool_:
        # a bool bound is 0 or 1, as PyTorch's (a bool tensor has no clamp)
        min, max = (int(b) if type(b) is bool else b for b in (min, max))
    if any(b is not None and not _is_number(b) for b in (min, max)):
        t = self if min is None else _binary("maximum", self, min)
        return t if max is None else _binary("minimum", t, max)
    t = self
    for bound in (min, max):
        if bound is not None and _is_number(bound):
            rd = promote(t, bound)
            if rd != t.dtype:
                t = t.astype(rd)
    if any(isinstance(b, float) and math.isnan(b) for b in (min, max)):
        # PyTorch's: a NaN bound makes every element NaN (silt-kernels'
        # clamp, as fmax and fmin, passes over a NaN bound)
        return ops.mul(t, float("nan"))
    return ops.clamp(t, min, max)


def _where(self, condition, other):
    """`where(condition, other)`: self where `condition` holds, else `other` (PyTorch's `Tensor.where`)."""
    rd = promote(self, other)
    dev = self.device
    return ops.where_(_bool_tensor(condition, dev), _as(self, rd, dev), _as(other, rd, dev))


def _lerp(self, end, weight):
    """`lerp(end, weight)`: `self + weight * (end - self)`, as PyTorch
    computes it (`end - (end - self) * (1 - weight)` where `|weight| >=
    0.5`); `weight` a number or a tensor of the same dtype, broadcast
    (float16 computed in float32, rounded once)."""
    if _is_number(weight):
        return ops.lerp(self, end, weight)
    dt = self.dtype
    if dt.kind != "f":
        raise DTypeError(f"lerp is defined on float tensors, not {dt}")
    for what, v in (("end", end), ("weight", weight)):
        # as PyTorch: tensors of the input's dtype, no promotion
        if isinstance(v, (Tensor, np.ndarray)) and v.dtype != dt:
            raise DTypeError(f"lerp: `{what}` is {v.dtype}, the input {dt}")
    dev = self.device
    wide = _F32 if dt == np.float16 else dt
    a, b, w = (_as(np.asarray(v, dt) if _is_number(v) else v, dt, dev).astype(wide, copy=False)
               for v in (self, end, weight))
    d = b - a
    got = (a + w * d).where(abs(w) < 0.5, b - d * (1 - w))
    return got.astype(dt, copy=False)


def _matmul(self, other):
    """`matmul(other)`: the matrix product with PyTorch's shapes and
    promotion, as `self @ other` (`silt.ops.matmul`)."""
    return _binary("matmul", self, other)


def _addcmul(self, tensor1, tensor2, value=1):
    """`addcmul(tensor1, tensor2, value=1)`: `self + value * tensor1 *
    tensor2`, the three promoted to one dtype (PyTorch's rules) first."""
    rd = promote(np.empty(0, promote(self, tensor1)), tensor2)
    dev = self.device
    x, a, b = (_as(v, rd, dev) for v in (self, tensor1, tensor2))
    return ops.addcmul(x, a, b, value)


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

    def method(self, other, **kwargs):
        if kwargs:
            # alpha= or rounding_mode=: the method's result written back
            return _write_back(self, getattr(self, name[:-1])(other, **kwargs), name)
        return fn(self, other)

    method.__name__ = name
    method.__doc__ = f"`{name}(other)`: `self {_SYMBOL[op]}= other`, in place; returns the tensor."
    return method


def _scaled_operand(self, other, alpha, name):
    """`other * alpha` for `add` and `sub`, computed in the result's dtype
    (PyTorch's checks: a float `alpha` only for a float result, a bool one
    only for a bool result)."""
    if alpha is not True and not isinstance(alpha, np.bool_) and alpha == 1:
        return other
    rd = promote(self, other)
    if isinstance(alpha, (bool, np.bool_)) and rd.kind != "b":
        raise DTypeError(f"{name}: a bool alpha is for bool results, not {rd}")
    if rd.kind != "f" and isinstance(alpha, (float, np.floating)):
        raise DTypeError(f"{name}: a float alpha ({alpha}) for a {rd} result")
    if rd.kind == "b":
        alpha = bool(alpha)  # as PyTorch's: an integer alpha of a bool result is its truth
    dev = self.device
    o = _as(other, rd, dev)
    if not isinstance(o, Tensor):
        o = tensor(np.asarray(o, rd), device=dev)
    return _binary("mul", o, alpha)


def _add_method(name, op):
    def method(self, other, *, alpha=1):
        return _binary(op, self, _scaled_operand(self, other, alpha, name))

    method.__name__ = name
    method.__doc__ = (f"`{name}(other, *, alpha=1)`: `self {_SYMBOL[op]} alpha * other`, elementwise "
                      f"with broadcasting and PyTorch's promotion.")
    return method


def _div(self, other, *, rounding_mode=None):
    """`div(other, *, rounding_mode=None)`: true division (integers give
    float32), or rounded: `"trunc"` toward zero, `"floor"` down
    (`floor_divide`), in the operands' promoted dtype."""
    if rounding_mode is None:
        return _binary("truediv", self, other)
    if rounding_mode == "floor":
        return _binary("floordiv", self, other)
    if rounding_mode != "trunc":
        raise ArgumentError(f"div: rounding_mode is None, 'trunc' or 'floor', not {rounding_mode!r}")
    rd = promote(self, other)
    if rd.kind == "b":
        raise DTypeError("div: rounding_mode='trunc' is not defined on bool tensors")
    if rd == np.float16:
        # the quotient in float32, truncated, then rounded once (as PyTorch's)
        dev = self.device
        q = _binary("truediv", _as(self, _F32, dev), _as(other, _F32, dev)).trunc()
        return q.astype(np.float16)
    if rd.kind == "f":
        return _binary("truediv", self, other).trunc()
    # integers: silt.ops.div truncates
    dev = self.device
    return ops.div(_as(self, rd, dev), _as(other, rd, dev))


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
    return int(self.size)


class Size(int):
    """`t.size`: the element count (NumPy's `size`, an int) that also answers
    PyTorch's calls: `t.size()` is the shape, `t.size(dim)` one dimension's
    length."""

    def __new__(cls, shape):
        count = 1
        for n in shape:
            count *= n
        out = super().__new__(cls, count)
        out.shape = tuple(shape)
        return out

    def __call__(self, dim=None):
        if dim is None:
            return self.shape
        return self.shape[_dim_index(dim, len(self.shape), "size")]


def _dim(self):
    """`dim()`: the number of dimensions."""
    return self.ndim


# ---- the library: matrix products, ordering, indexing, counting -----------

def _sort(self, dim=-1, descending=False, stable=False):
    """`sort(dim=-1, descending=False, stable=False)`: a named tuple (values,
    indices) of the elements sorted along `dim` (`silt.ops.sort`: always
    stable, NaN as the largest)."""
    return ValuesIndices(*ops.sort(self, dim, descending))


def _argsort(self, dim=-1, descending=False, stable=False):
    """`argsort(dim=-1, descending=False, stable=False)`: the indices (int64)
    that sort the tensor along `dim` (those of `sort`; always stable)."""
    return ops.argsort(self, dim, descending)


def _topk(self, k, dim=-1, largest=True, sorted=True):
    """`topk(k, dim=-1, largest=True, sorted=True)`: a named tuple (values,
    indices) of the `k` largest (or smallest) elements along `dim`, in order,
    ties by index (`silt.ops.topk`)."""
    return ValuesIndices(*ops.topk(self, k, dim, largest, sorted))


def _index_select(self, dim, index):
    """`index_select(dim, index)`: the slices along `dim` at the positions in
    `index` (1-d, int64 or int32), as `silt.ops.index_select`."""
    return ops.index_select(self, dim, index)


def _long(index):
    """An int32 index tensor as int64 (PyTorch's `gather` and `scatter_*`
    take either; `silt.ops`' kernels take int64); anything else as it is."""
    if isinstance(index, Tensor) and index.dtype == np.int32:
        return index.astype(np.int64)
    return index


def _gather(self, dim, index):
    """`gather(dim, index)`: the elements along `dim` at the positions in
    `index` (int64 or int32), as `silt.ops.gather`."""
    return ops.gather(self, dim, _long(index))


def _scatter_add(self, dim, index, src):
    """`scatter_add(dim, index, src)`: a new tensor, `self` plus `src`'s
    elements added at the positions along `dim` in `index` (int64 or
    int32), as `silt.ops.scatter_add`."""
    return ops.scatter_add(self, dim, _long(index), src)


def _scatter_add_(self, dim, index, src):
    """`scatter_add_(dim, index, src)`: `scatter_add` written into the
    tensor; returns it (nothing is written when an index is out of range)."""
    ops.copy(ops.scatter_add(self, dim, _long(index), src), self)
    return self


def _scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
    """`scatter_reduce(dim, index, src, reduce, *, include_self=True)`: a new
    tensor, `self` with `src`'s elements combined at the positions along
    `dim` in `index` (int64 or int32) by `reduce` (`"sum"`, `"prod"`,
    `"mean"`, `"amax"`, `"amin"`), as `silt.ops.scatter_reduce`: each place
    combines its elements in order along `dim`, the same bits on every
    device."""
    return ops.scatter_reduce(self, dim, _long(index), src, reduce, include_self=include_self)


def _scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    """`scatter_reduce_(dim, index, src, reduce, *, include_self=True)`:
    `scatter_reduce` written into the tensor; returns it (nothing is
    written when an index is out of range)."""
    ops.copy(_scatter_reduce(self, dim, index, src, reduce, include_self=include_self), self)
    return self


def _take(self, index):
    """`take(index)`: the elements of the tensor read as 1-d at the positions
    in `index` (int64, any shape), as `silt.ops.take`."""
    return ops.take(self, index)


def _bincount(self, weights=None, minlength=0):
    """`bincount(weights=None, minlength=0)`: the count (or the weights' sum)
    of each non-negative integer of a 1-d tensor, as `silt.ops.bincount`."""
    return ops.bincount(self, weights, minlength)


def _histc(self, bins=100, min=0, max=0):
    """`histc(bins=100, min=0, max=0)`: the histogram of a float tensor in
    `bins` equal bins over `[min, max]`, as `silt.ops.histc`."""
    return ops.histc(self, bins, min, max)


# ---- shapes ----------------------------------------------------------------

def _dim_index(dim, ndim, op):
    """``dim`` counted from the end when negative, checked against ``ndim``
    (a 0-d tensor takes 0 and -1, as PyTorch's)."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise AxisError(f"{op}: dimension {dim} out of range for a tensor of {ndim} dimensions")
    return dim % n


def _unsqueeze(self, dim):
    """`unsqueeze(dim)`: a view with a dimension of size 1 inserted at `dim`
    (`-ndim - 1..=ndim`)."""
    d = _dim_index(dim, self.ndim + 1, "unsqueeze")
    shape, strides = list(self.shape), list(self.strides)
    # the new dimension's stride is that of the one it precedes (any is valid)
    shape.insert(d, 1)
    strides.insert(d, strides[d] * self.shape[d] if d < self.ndim else 1)
    return self.as_strided(shape, strides)


def _squeeze(self, dim=None):
    """`squeeze(dim=None)`: a view without the dimensions of size 1 (all, or
    those of `dim`, an int or a tuple, left alone where their size is not 1)."""
    dims = () if dim is None else tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    wrapped = [_dim_index(d, self.ndim, "squeeze") for d in dims]
    if len(set(wrapped)) != len(wrapped):
        raise ArgumentError(f"squeeze: a dimension appears twice in {dims}")
    if self.ndim == 0:
        return self.as_strided([], [])
    if dim is None:
        drop = {i for i, n in enumerate(self.shape) if n == 1}
    else:
        drop = {d for d in wrapped if self.shape[d] == 1}
    keep = [i for i in range(self.ndim) if i not in drop]
    return self.as_strided([self.shape[i] for i in keep], [self.strides[i] for i in keep])


def _flatten(self, start_dim=0, end_dim=-1):
    """`flatten(start_dim=0, end_dim=-1)`: dimensions `start_dim..=end_dim`
    as one (a view when they are row-major, else a copy, as `reshape`)."""
    s = _dim_index(start_dim, self.ndim, "flatten")
    e = _dim_index(end_dim, self.ndim, "flatten")
    if self.ndim == 0:
        return self.reshape(1)
    if s > e:
        raise ArgumentError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim}")
    if s == e:
        return self  # nothing to merge: the tensor itself, as PyTorch's
    shape = tuple(self.shape)
    return self.reshape(shape[:s] + (int(np.prod(shape[s:e + 1], dtype=np.int64)),) + shape[e + 1:])


def _expand(self, *sizes):
    """`expand(*sizes)`: `broadcast_to(*sizes)`, a view repeating dimensions
    of size 1 with stride 0 (-1 keeps a dimension's size); a write through
    it that reaches an element twice raises."""
    return self.broadcast_to(*sizes)


# ---- more of PyTorch's methods, on the ones above -------------------------

def _write_back(self, r, name):
    """Writes the result ``r`` of ``name`` into ``self`` as PyTorch's
    in-place methods do: of the tensor's shape, cast within its category or
    up (never a float into an integer); returns ``self``."""
    if r.dtype != self.dtype:
        if _CATEGORY[r.dtype.kind] > _CATEGORY[self.dtype.kind]:
            raise DTypeError(
                f"{name}: the result's dtype {r.dtype} does not cast to the tensor's {self.dtype}")
        r = r.astype(self.dtype)
    if tuple(r.shape) != tuple(self.shape):
        raise ArgumentError(f"{name}: the result's shape {r.shape} is not the tensor's {self.shape}")
    if r.shares_storage(self):
        r = r.clone()
    ops.copy(r, self)
    return self


def _in_place(name):
    """``name_``: the method ``name`` written into the tensor."""
    def method(self, *args, **kwargs):
        return _write_back(self, getattr(self, name)(*args, **kwargs), f"{name}_")

    method.__name__ = f"{name}_"
    method.__doc__ = f"`{name}_(...)`: `{name}(...)` written into the tensor (its dtype kept, as PyTorch's); returns it."
    return method


def _at_least_1d(self, op):
    if self.ndim == 0:
        raise ArgumentError(f"{op}: a 0-d tensor has no dimension to cut")


def _split(self, split_size_or_sections, dim=0):
    """`split(split_size_or_sections, dim=0)`: views along `dim`, of
    `split_size` each (the last shorter) or of the listed sizes."""
    _at_least_1d(self, "split")
    d = _dim_index(dim, self.ndim, "split")
    n = self.shape[d]
    if isinstance(split_size_or_sections, (int, np.integer)):
        step = int(split_size_or_sections)
        if step < 0 or (step == 0 and n):
            raise ArgumentError(f"split: a size of {step}")
        sizes = [min(step, n - i) for i in range(0, n, step)] if n else [0]
    else:
        sizes = [int(k) for k in split_size_or_sections]
        if any(k < 0 for k in sizes) or sum(sizes) != n:
            raise ArgumentError(f"split: sizes {sizes} do not add up to {n} along dimension {dim}")
    out, start = [], 0
    for k in sizes:
        out.append(self.narrow(d, start, k))
        start += k
    return tuple(out)


def _chunk(self, chunks, dim=0):
    """`chunk(chunks, dim=0)`: at most `chunks` views along `dim`, each of
    `ceil(size / chunks)` (PyTorch's)."""
    if chunks <= 0:
        raise ArgumentError(f"chunk: {chunks} chunks")
    _at_least_1d(self, "chunk")
    n = self.shape[_dim_index(dim, self.ndim, "chunk")]
    if n == 0:
        return _split(self, [0] * chunks, dim)  # `chunks` empty views, as PyTorch's
    return _split(self, -(-n // chunks), dim)


def _unbind(self, dim=0):
    """`unbind(dim=0)`: the views with `dim` removed, one per index."""
    _at_least_1d(self, "unbind")
    d = _dim_index(dim, self.ndim, "unbind")
    key = (slice(None),) * d
    return tuple(self[key + (i,)] for i in range(self.shape[d]))


def _masked_fill(self, mask, value):
    """`masked_fill(mask, value)`: `value` where `mask` (bool, broadcast)
    holds, else the tensor's element; of the tensor's dtype."""
    dev = self.device
    if np.dtype(getattr(mask, "dtype", np.asarray(mask).dtype)) != np.bool_:
        raise DTypeError(f"masked_fill: the mask must be bool, not {getattr(mask, 'dtype', type(mask).__name__)}")
    if isinstance(value, Tensor):
        if value.ndim:
            raise ArgumentError(f"masked_fill: the value must be a number or a 0-d tensor, not of shape {value.shape}")
        value = value.item()
    return ops.where_(_bool_tensor(mask, dev), _as(value, self.dtype, dev), self)


def _flip(self, *dims, **kwargs):
    """`flip(dims)` (also `flip(dims=...)`): a copy with the order of `dims`
    reversed."""
    if "dims" in kwargs:
        if dims:
            raise TypeError("flip: give dims once")
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"flip: unexpected keyword arguments {', '.join(kwargs)}")
    if not dims:
        raise TypeError("flip: give the dimensions to reverse")
    dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    wrapped = [_dim_index(d, self.ndim, "flip") for d in dims]
    if len(set(wrapped)) != len(wrapped):
        raise ArgumentError(f"flip: a dimension appears twice in {tuple(dims)}")
    out = self
    for d in (wrapped if self.ndim else ()):
        n = out.shape[d]
        if n > 1:
            out = ops.index_select(out, d, tensor(np.arange(n - 1, -1, -1, dtype=np.int64), device=self.device))
    return out.clone() if out is self else out


def _repeat(self, *sizes):
    """`repeat(*sizes)`: the tensor tiled `sizes[i]` times along each
    dimension (leading sizes add dimensions), a copy."""
    sizes = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    if len(sizes) < self.ndim:
        raise ArgumentError(f"repeat: {len(sizes)} sizes for a tensor of {self.ndim} dimensions")
    if any(r < 0 for r in sizes):
        raise ArgumentError(f"repeat: the sizes must not be negative, not {sizes}")
    shape = (1,) * (len(sizes) - self.ndim) + tuple(self.shape)
    if 0 in sizes:
        # no elements (a dimension repeated 0 times broadcasts to nothing)
        return zeros(tuple(r * d for r, d in zip(sizes, shape)), dtype=self.dtype, device=self.device)
    x = self.reshape(shape)
    # a dimension of d > 1 repeated r > 1 times as [1, d] broadcast to
    # [r, d]; the others as they are ([1] broadcast to [r]); then merged
    inter = tuple(v for r, d in zip(sizes, shape) for v in ((1, d) if r > 1 and d > 1 else (d,)))
    wide = tuple(v for r, d in zip(sizes, shape) for v in ((r, d) if r > 1 and d > 1 else (r * d,)))
    out_shape = tuple(r * d for r, d in zip(sizes, shape))
    if len(inter) <= 16:  # silt's most dimensions
        out = x.reshape(inter).broadcast_to(wide).reshape(out_shape)
    else:
        # too many dimensions for the broadcast: each repeated dimension
        # gathered in turn (its places 0..d-1, r times)
        out = x
        for k, (r, d) in enumerate(zip(sizes, shape)):
            if r > 1 and d > 1:
                at = tensor(np.arange(r * d, dtype=np.int64) % d, device=self.device)
                out = ops.index_select(out, k, at)
        out = out.broadcast_to(out_shape)
        if out.shares_storage(self) or any(st == 0 for st in out.stride()):
            out = out.clone()
    # a new tensor always, as PyTorch's (repeats of 1 reshape to a view)
    return out.clone() if out.shares_storage(self) else out


def _checked_matmul(name, dims):
    def method(self, other):
        if not isinstance(other, (Tensor, np.ndarray)):
            raise TypeError(f"{name}: takes a tensor or an array, not {type(other).__name__}")
        if other.dtype != self.dtype:
            # PyTorch's rule for these four (`@` and `matmul` promote)
            raise DTypeError(f"{name}: tensors of one dtype, not {self.dtype} and {other.dtype}")
        o = other
        if (self.ndim, o.ndim) != dims:
            raise ArgumentError(f"{name}: takes tensors of {dims[0]} and {dims[1]} dimensions, not {self.ndim} and {o.ndim}")
        if dims == (3, 3) and self.shape[0] != o.shape[0]:
            raise ArgumentError(f"bmm: batches of {self.shape[0]} and {o.shape[0]} (no broadcasting)")
        return _binary("matmul", self, other)

    method.__name__ = name
    method.__doc__ = (f"`{name}(other)`: `matmul` of a {dims[0]}-d and a {dims[1]}-d tensor "
                      f"of the same dtype (no promotion, as PyTorch's).")
    return method


def _new(fill):
    def method(self, *size, dtype=None, device=None):
        size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        out = zeros(size, dtype=self.dtype if dtype is None else dtype,
                    device=self.device if device is None else device)
        return out if fill is None else out.fill_(fill)

    method.__name__ = "new_zeros" if fill in (None, 0) else "new_ones"
    method.__doc__ = f"`{method.__name__}(*size, dtype=None, device=None)`: a new tensor of the tensor's dtype and device (unless given)."
    return method


def _new_full(self, size, fill_value, *, dtype=None, device=None):
    """`new_full(size, fill_value, *, dtype=None, device=None)`: `fill_value`
    in `size`, of the tensor's dtype and device (unless given)."""
    return _new(0)(self, size, dtype=dtype, device=device).fill_(fill_value)


def _new_tensor(self, data, *, dtype=None, device=None):
    """`new_tensor(data, *, dtype=None, device=None)`: `data` as a tensor of
    the tensor's dtype and device (unless given)."""
    dtype = self.dtype if dtype is None else dtype
    device = self.device if device is None else device
    if isinstance(data, Tensor):
        out = data.to(device, dtype)
        return out.clone() if out.shares_storage(data) else out
    # a copy always, as PyTorch's (silt.tensor views a host array in place)
    return tensor(np.array(data, copy=True), dtype=dtype, device=device)


def _type_as(self, other):
    """`type_as(other)`: the tensor as `other`'s dtype."""
    return self.astype(other.dtype, copy=False)


def _isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """`isclose(other, rtol=1e-05, atol=1e-08, equal_nan=False)`: `self ==
    other`, or `|self - other|` finite and at most `atol + rtol * |other|`,
    elementwise (PyTorch's test; integers compared in float64; NaN close to
    NaN only with `equal_nan`)."""
    if rtol < 0 or atol < 0:
        raise ArgumentError(f"isclose: rtol {rtol} and atol {atol} must not be negative")
    rd = promote(self, other)
    dev = self.device
    a, b = _as(self, rd, dev), _as(other, rd, dev)
    if rtol == 0 and atol == 0:
        return _binary("eq", a, b)
    if rd.kind != "f":
        # integers and bool compare in the default float dtype, as PyTorch's
        a, b = _as(a, _F32, dev), _as(b, _F32, dev)
    err = abs(_binary("sub", a, b))
    close = _binary("eq", a, b) | (err.isfinite() & (err <= atol + rtol * abs(b)))
    if equal_nan:
        nan_b = b.isnan() if isinstance(b, Tensor) else bool(np.isnan(b))
        close = close | (a.isnan() & nan_b)
    return close


def _allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """`allclose(...)`: whether every element `isclose` (a Python bool)."""
    return bool(_isclose(self, other, rtol, atol, equal_nan).all().item())


def _equal(self, other):
    """`equal(other)`: whether both have the same shape and elements (a
    Python bool; NaN is not equal to itself)."""
    if tuple(self.shape) != tuple(other.shape):
        return False
    return bool((self == other).all().item())


def _tri(upper):
    def method(self, diagonal=0):
        if self.ndim < 2:
            raise ArgumentError(f"{method.__name__}: a tensor of {self.ndim} dimensions (2 at least)")
        n, m = self.shape[-2:]
        dev = self.device
        rows = tensor(np.arange(n, dtype=np.int64).reshape(n, 1), device=dev)
        cols = tensor(np.arange(m, dtype=np.int64).reshape(1, m), device=dev)
        keep = (cols - rows >= diagonal) if upper else (cols - rows <= diagonal)
        return ops.where_(keep, self, _as(0, self.dtype, dev))

    method.__name__ = "triu" if upper else "tril"
    method.__doc__ = (f"`{method.__name__}(diagonal=0)`: the last two dimensions' "
                      f"{'upper' if upper else 'lower'} triangle from `diagonal`, zeros elsewhere.")
    return method


# ---- indexing by dimension, on advanced indexing --------------------------

def _index_array(index, op):
    """``index`` (a list, an array or a tensor of integers) as int64 on the
    host; an empty list is an empty index."""
    i = index.numpy() if isinstance(index, Tensor) else np.asarray(index)
    if isinstance(index, list) and i.size == 0:
        i = i.astype(np.int64)
    if i.dtype.kind not in "iu":
        raise IndexError(f"{op}: the index must hold integers, not {i.dtype}")
    if i.dtype == np.uint64 and i.size and i.max() > np.iinfo(np.int64).max:
        raise IndexError(f"{op}: index {i.max()} is out of range")
    return i.astype(np.int64)


def _index_key(self, dim, index, op, negative=True):
    """The key ``t[key]`` that picks ``index`` (1-d integers; negative ones
    from the end where ``negative``, as PyTorch's ``index_fill``) along
    ``dim``, each checked against the dimension."""
    d = _dim_index(dim, self.ndim, op)
    i = _index_array(index, op)
    if i.ndim > 1:
        raise IndexError(f"{op}: the index must be 1-d, not of {i.ndim} dimensions")
    n = self.shape[d]
    low = -n if negative else 0
    if i.size and (i.min() < low or i.max() >= n):
        bad = i[(i < low) | (i >= n)].flat[0]
        raise IndexError(f"{op}: index {bad} is out of range for dimension {d} of size {n}")
    return d, (slice(None),) * d + (np.where(i < 0, i + n, i).reshape(-1),)


def _same_dtype(self, source, op):
    """PyTorch's rule for a source tensor: the tensor's own dtype."""
    if isinstance(source, Tensor) and source.dtype != self.dtype:
        raise DTypeError(f"{op}: the source is {source.dtype}, the tensor {self.dtype}")


def _no_overlap(self, op):
    """An in-place write into a view that repeats elements (stride 0) is an
    error, as PyTorch's."""
    if _overlaps_itself(self):
        raise ArgumentError(f"{op}: the tensor overlaps itself (a broadcast view); write a copy")


def _index_fill_(self, dim, index, value):
    """`index_fill_(dim, index, value)`: `value` (a number or a 0-d tensor)
    into the slices along `dim` at `index` (negative ones from the end);
    returns the tensor."""
    target = self if self.ndim else self.reshape(1)
    _, key = _index_key(target, dim, index, "index_fill_")
    if isinstance(value, Tensor):
        if value.ndim:
            raise ArgumentError(f"index_fill_: the value must be a number or a 0-d tensor, not of shape {value.shape}")
        value = value.item()
    _no_overlap(self, "index_fill_")
    target[key] = value
    return self


def _index_copy_(self, dim, index, source):
    """`index_copy_(dim, index, source)`: the slices of `source` along `dim`
    into the tensor's slices at `index` (a repeated index keeps the last);
    returns the tensor."""
    target = self if self.ndim else self.reshape(1)
    d, key = _index_key(target, dim, index, "index_copy_", negative=False)
    _same_dtype(self, source, "index_copy_")
    src = source if isinstance(source, Tensor) else np.asarray(source)
    if src.ndim == 0:
        src = src.reshape(1)
    want = tuple(target.shape[:d]) + (len(key[-1]),) + tuple(target.shape[d + 1:])
    if tuple(src.shape) != want:
        raise ArgumentError(f"index_copy_: the source's shape {tuple(src.shape)} is not {want}")
    _no_overlap(self, "index_copy_")
    target[key] = src
    return self


def _index_add_(self, dim, index, source, *, alpha=1):
    """`index_add_(dim, index, source, *, alpha=1)`: `alpha * source`'s
    slices along `dim` added to the tensor's at `index` (repeated indices
    add up: `scatter_add`); returns the tensor."""
    if self.dtype.kind != "f" and isinstance(alpha, float):
        raise DTypeError(f"index_add_: a float alpha ({alpha}) for a {self.dtype} tensor")
    target, d, full, src = _index_scatter(self, dim, index, source, "index_add_")
    if alpha != 1:
        src = src * alpha
    ops.copy(ops.scatter_add(target, d, full, _as(src, self.dtype, self.device)), target)
    return self


def _index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    """`index_reduce_(dim, index, source, reduce, *, include_self=True)`:
    `source`'s slices along `dim` combined into the tensor's at `index` by
    `reduce` (`"prod"`, `"mean"`, `"amax"`, `"amin"`), as
    `scatter_reduce`: each slice in order of its place in `index`; returns
    the tensor."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise ArgumentError(f"index_reduce_: `reduce` is one of prod, mean, amax, amin, not {reduce!r}")
    target, d, full, src = _index_scatter(self, dim, index, source, "index_reduce_")
    ops.copy(ops.scatter_reduce(target, d, full, src, reduce, include_self=include_self), target)
    return self


def _index_scatter(self, dim, index, source, op):
    """What `index_add_` and `index_reduce_` scatter: the tensor (1-d for a
    0-d one), the dimension, `index` broadcast to the source's shape along
    it, and the source (a tensor of the tensor's dtype, checked)."""
    target = self if self.ndim else self.reshape(1)
    d, key = _index_key(target, dim, index, op, negative=False)
    i = key[-1]
    _same_dtype(self, source, op)
    src = source if isinstance(source, Tensor) else tensor(np.asarray(source), device=self.device)
    if src.ndim == 0:
        src = src.reshape(1)
    want = tuple(target.shape[:d]) + (len(i),) + tuple(target.shape[d + 1:])
    if tuple(src.shape) != want:
        raise ArgumentError(f"{op}: the source's shape {tuple(src.shape)} is not {want}")
    shape = [1] * target.ndim
    shape[d] = len(i)
    full = tensor(np.broadcast_to(i.reshape(shape), want).copy(), device=self.device)
    return target, d, full, src


def _on_a_copy(name, inplace):
    def method(self, *args, **kwargs):
        return inplace(self.clone(), *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"`{name}(...)`: `{name}_` on a copy."
    return method


def _scatter_(self, dim, index, src=None, *, value=None):
    """`scatter_(dim, index, src)` (or `value=`): for each place of `index`
    (int64, of the tensor's dimension count), `self[..., index[i], ...] =
    src[i]` along `dim` (a place written twice keeps the last, as NumPy's
    assignment; PyTorch leaves it unspecified); returns the tensor."""
    d = _dim_index(dim, self.ndim, "scatter_")
    i = _index_array(index, "scatter_")
    if i.ndim != self.ndim:
        raise IndexError(f"scatter_: the index must be an integer tensor of {self.ndim} dimensions")
    if (src is None) == (value is None):
        raise TypeError("scatter_: give src or value")
    if i.size and i.min() < 0:
        raise IndexError(f"scatter_: index {i.min()} is negative")
    _same_dtype(self, src, "scatter_")
    _no_overlap(self, "scatter_")
    key = tuple(i.astype(np.int64) if k == d else np.arange(n).reshape((-1,) + (1,) * (i.ndim - 1 - k))
                for k, n in enumerate(i.shape))
    if any(n > m for k, (n, m) in enumerate(zip(i.shape, self.shape)) if k != d):
        raise IndexError(f"scatter_: the index's shape {i.shape} passes the tensor's {tuple(self.shape)}")
    if value is not None:
        self[key] = value.item() if isinstance(value, Tensor) else value
        return self
    if _is_number(src):
        self[key] = src
        return self
    s = src if isinstance(src, Tensor) else np.asarray(src)
    if any(n > m for n, m in zip(i.shape, s.shape)):
        raise IndexError(f"scatter_: the index's shape {i.shape} passes the source's {tuple(s.shape)}")
    self[key] = s[tuple(slice(0, n) for n in i.shape)]
    return self


def _nonzero(self, *, as_tuple=False):
    """`nonzero(*, as_tuple=False)`: the indices (int64) of the nonzero
    elements, one row each in row-major order (`[count, ndim]`), or a tuple
    of one tensor per dimension; found on an OpenCL device there (one count
    read back to size the result), on the host backend by NumPy."""
    if self.device.is_host:
        # NumPy over the tensor's own memory: no launch, no copy
        found = np.nonzero(self.numpy() if self.ndim else self.numpy().reshape(1))
        if as_tuple:
            return tuple(tensor(f.astype(np.int64), device=self.device) for f in found)
        rows = np.stack(found, axis=1) if self.ndim else np.zeros((len(found[0]), 0))
        return tensor(rows.astype(np.int64), device=self.device)
    x = self if self.ndim else self.reshape(1)
    flat, count = _stable_partition(x.reshape(-1) != 0)
    flat = flat[:count]
    cols = []
    for n in reversed(tuple(x.shape)):
        cols.append(flat % n if n else flat)
        flat = flat // n if n else flat
    cols = cols[::-1] if self.ndim else []
    if as_tuple:
        return tuple(c.contiguous() for c in cols) if self.ndim else (zeros((flat.shape[0],), dtype=np.int64, device=self.device),)
    if not cols:
        return zeros((flat.shape[0], 0), dtype=np.int64, device=self.device)
    return _silt_stack(cols, 1)


def _roll(self, shifts, dims=None):
    """`roll(shifts, dims=None)`: the elements moved `shifts` places along
    `dims` (around the end); without `dims`, along the flattened tensor."""
    if dims is None:
        return _roll(self.reshape(-1), shifts, 0).reshape(tuple(self.shape))
    shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if not all(isinstance(k, (int, np.integer)) for k in shifts):
        raise TypeError(f"roll: shifts must be integers, not {shifts}")
    if len(shifts) != len(dims) or not shifts:
        raise ArgumentError(f"roll: {len(shifts)} shifts for {len(dims)} dims")
    out = self
    for k, d in zip(shifts, dims):
        d = _dim_index(d, self.ndim, "roll")
        n = out.shape[d]
        if n:
            i = (np.arange(n, dtype=np.int64) - int(k)) % n
            out = ops.index_select(out, d, tensor(i, device=self.device))
    return out.clone() if out is self else out


def _unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """`unique(sorted=True, return_inverse=False, return_counts=False,
    dim=None)`: the distinct elements, sorted (each NaN distinct, last, as
    PyTorch's), or with `dim` the distinct slices along it in lexicographic
    order; with the inverse (each element's or slice's place among them) and
    the counts when asked; on the tensor's device (with `dim`, by NumPy
    over the tensor's memory). Of equal elements (`0.0` and `-0.0`) the
    first in the tensor's order is kept, on every device."""
    if dim is None:
        # the stable sort on every device, so the host's bits are the
        # device's (the first of equal zeros, NaNs in their order)
        return _unique_flat(self, return_inverse, return_counts)
    d = _dim_index(dim, self.ndim, "unique")
    if self.ndim == 0:
        raise AxisError(f"unique: a 0-d tensor has no dimension {dim}")
    if self.size == 0 and self.shape[d] != 0:
        # PyTorch's rule: slices of no elements are not compared
        raise ArgumentError(f"unique: dimension {d} is not the empty one of shape {tuple(self.shape)}")
    values, inverse, counts = np.unique(self.numpy(), return_inverse=True, return_counts=True, axis=d,
                                        equal_nan=False)
    out = [tensor(np.ascontiguousarray(values), device=self.device)]
    if return_inverse:
        out.append(tensor(inverse.reshape(self.shape[d]).astype(np.int64), device=self.device))
    if return_counts:
        out.append(tensor(counts.astype(np.int64), device=self.device))
    return out[0] if len(out) == 1 else tuple(out)


def _unique_flat(self, return_inverse, return_counts):
    """`unique()` of all elements on the tensor's device: the stable sort,
    the first of each run of equal elements (NaN never equals NaN, so each
    is its own run), their places by `_stable_partition`; the inverse
    scattered back through the sort's permutation."""
    dev = self.device
    flat = self.reshape(-1)
    n = flat.shape[0]
    v, perm = ops.sort(_ordered(flat), 0, False)
    v = v.astype(self.dtype, copy=False)
    if n:
        first = zeros((1,), dtype=np.bool_, device=dev).fill_(True)
        flags = _silt_concatenate([first, v[1:] != v[:-1]])
    else:
        flags = zeros((0,), dtype=np.bool_, device=dev)
    starts, count = _stable_partition(flags)
    starts = starts[:count]
    out = [ops.index_select(v, 0, starts)]
    if return_inverse:
        run = ops.cumsum(flags.view(np.uint8), 0) - 1
        inverse = ops.scatter_add(zeros((n,), dtype=np.int64, device=dev), 0, perm, run)
        out.append(inverse.reshape(tuple(self.shape)))
    if return_counts:
        ends = _silt_concatenate([starts[1:], zeros((1,), dtype=np.int64, device=dev).fill_(n)]) if count else starts
        out.append(ends - starts)
    return out[0] if len(out) == 1 else tuple(out)


def _t(self):
    """`t()`: a 2-d tensor's transpose (0-d and 1-d tensors as they are), a view."""
    if self.ndim > 2:
        raise ArgumentError(f"t() takes a tensor of 2 dimensions at most, not {self.ndim}")
    return self.T if self.ndim == 2 else self[...]


def _detach(self):
    """`detach()`: a view of the same storage (silt records no gradients)."""
    return self[...]


def _as_of(name, method_name):
    def method(self, other):
        return getattr(self, method_name)(*other.shape)

    method.__name__ = name
    method.__doc__ = f"`{name}(other)`: `{method_name}(*other.shape)`."
    return method


def _clamp_side(side):
    def method(self, bound):
        return _clamp(self, **{side: bound})

    method.__name__ = f"clamp_{side}"
    method.__doc__ = f"`clamp_{side}(bound)`: `clamp({side}=bound)`."
    return method


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
    """Pickles a device as its spec (the device of that spec in the process
    that unpickles it)."""
    return (Device, (self.spec,))

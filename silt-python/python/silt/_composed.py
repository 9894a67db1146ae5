"""``silt.Tensor``'s methods composed of the others, named and defined as
PyTorch's: dimensions moved, diagonals, tiles and differences; order
statistics on ``sort`` (``median``, ``kthvalue``, ``quantile``,
``nanquantile``); sums that skip NaN; the matrix products with an added term
(``addmm``, ``addmv``, ``baddbmm``) and the others on ``matmul`` (``inner``,
``kron``, ``cross``, ``dist``); elementwise functions on silt-kernels'
(``logaddexp``, ``xlogy``, ``sinc``, ...); shapes (``rot90``,
``tensor_split``, ``take_along_dim``, ``repeat_interleave``); writes
(``fill_diagonal_``, ``put_``, ``index_put_``); and the random fills, drawn
by ``silt.rand``'s generator. Each runs on the tensor's device (the random
numbers and a few index lists are made on the host). ``_tensor`` attaches
them.
"""

import collections
import math

import numpy as np

from . import _creation, _silt
from ._silt import ArgumentError, DTypeError, Tensor, tensor, zeros
from ._operators import _as, _binary, _is_number, promote
from ._methods import ValuesIndices, _all_dims, _dim_index, _ordered
from ._creation import concatenate
from ._indexing import _as_int64

ops = _silt.ops

MinMax = collections.namedtuple("MinMax", ["min", "max"])
MinMax.__doc__ = "The minimum and the maximum of `aminmax`."


def _broadcast(a, b, op):
    """The shape `a` and `b` broadcast to, or an ArgumentError."""
    try:
        return np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        raise ArgumentError(f"{op}: shapes {tuple(a)} and {tuple(b)} do not broadcast") from None


def _dims_arg(dims):
    return list(dims) if isinstance(dims, (tuple, list)) else [dims]


# ---- dimensions and diagonals ----------------------------------------------

def _movedim(self, source, destination):
    """`movedim(source, destination)`: a view with the dimensions `source`
    (an int or a sequence) moved to the places `destination`, the others
    keeping their order (NumPy's `moveaxis`)."""
    src = [_dim_index(d, self.ndim, "movedim") for d in _dims_arg(source)]
    dst = [_dim_index(d, self.ndim, "movedim") for d in _dims_arg(destination)]
    if len(src) != len(dst):
        raise ArgumentError(f"movedim: {len(src)} sources for {len(dst)} destinations")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ArgumentError(f"movedim: a dimension repeats in {source} or {destination}")
    if self.ndim == 0:
        return self[...]  # 0 and -1 name its one place: nothing moves
    order = [d for d in range(self.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return self.permute(*order)


def _swapaxes(self, axis0, axis1):
    """`swapaxes(axis0, axis1)` (also `swapdims`): `transpose(axis0, axis1)`, a view."""
    return self.transpose(axis0, axis1)


def _diagonal(self, offset=0, dim1=0, dim2=1):
    """`diagonal(offset=0, dim1=0, dim2=1)`: a view of the elements `[i, i +
    offset]` of dimensions `dim1` and `dim2` (below the main diagonal for a
    negative `offset`), as the last dimension; the others keep their order."""
    if self.ndim < 2:
        raise ArgumentError(f"diagonal: a tensor of {self.ndim} dimensions (2 at least)")
    a = _dim_index(dim1, self.ndim, "diagonal")
    b = _dim_index(dim2, self.ndim, "diagonal")
    if a == b:
        raise ArgumentError(f"diagonal: dim1 and dim2 are both dimension {a}")
    (n1, n2), (s1, s2) = (self.shape[a], self.shape[b]), (self.strides[a], self.strides[b])
    offset = int(offset)
    if offset >= 0:
        length = max(0, min(n1, n2 - offset))
        start = offset * s2 if length else 0
    else:
        length = max(0, min(n1 + offset, n2))
        start = -offset * s1 if length else 0
    keep = [d for d in range(self.ndim) if d not in (a, b)]
    return self.as_strided([self.shape[d] for d in keep] + [length],
                           [self.strides[d] for d in keep] + [s1 + s2], self.offset + start)


def _diag(self, diagonal=0):
    """`diag(diagonal=0)`: of a 1-d tensor, a square matrix with it on the
    diagonal `diagonal` and zeros elsewhere; of a 2-d tensor, a copy of that
    diagonal."""
    if self.ndim == 1:
        n = self.shape[0] + abs(int(diagonal))
        out = zeros((n, n), dtype=self.dtype, device=self.device)
        ops.copy(self, _diagonal(out, diagonal))
        return out
    if self.ndim == 2:
        return _diagonal(self, diagonal).clone()
    raise ArgumentError(f"diag: a tensor of 1 or 2 dimensions, not {self.ndim}")


def _trace(self):
    """`trace()`: the sum of a 2-d tensor's main diagonal (of `sum`'s dtype:
    integers and bool in int64)."""
    if self.ndim != 2:
        raise ArgumentError(f"trace: a tensor of 2 dimensions, not {self.ndim}")
    return _diagonal(self).sum()


def _tile(self, *dims, **kw):
    """`tile(dims)`: `repeat(dims)`, with `dims` filled with leading 1s
    where it names fewer dimensions than the tensor has."""
    if kw:
        if dims or set(kw) != {"dims"}:
            raise TypeError(f"tile: takes dims, not {sorted(kw)}")
        dims = (kw["dims"],)
    dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    return self.repeat(*((1,) * (self.ndim - len(dims)) + tuple(dims)))


def _outer(self, vec2):
    """`outer(vec2)`: the outer product of two 1-d tensors, `self[i] *
    vec2[j]`, with promotion."""
    v = vec2 if isinstance(vec2, Tensor) else np.asarray(vec2)
    if self.ndim != 1 or v.ndim != 1:
        raise ArgumentError(f"outer: two 1-d tensors, not of {self.ndim} and {v.ndim} dimensions")
    return _binary("mul", self.reshape(-1, 1), v.reshape(1, -1))


def _diff(self, n=1, dim=-1, prepend=None, append=None):
    """`diff(n=1, dim=-1, prepend=None, append=None)`: the `n`-th forward
    difference along `dim` (`x[i + 1] - x[i]`; `!=` for bool), after
    `prepend` and `append` are joined at each end (tensors of the same
    dimensions, or numbers as one slice)."""
    if self.ndim == 0:
        raise ArgumentError("diff: a 0-d tensor has no dimension to take differences along")
    d = _dim_index(dim, self.ndim, "diff")
    if int(n) != n or n < 0:
        raise ArgumentError(f"diff: n = {n}; it takes a non-negative integer")
    if n == 0:
        return self.clone()  # NumPy's and PyTorch's: nothing joined either
    parts = []
    for p in (prepend, self, append):
        if p is None:
            continue
        if _is_number(p):
            shape = list(self.shape)
            shape[d] = 1
            p = tensor(np.full(shape, p, promote(self, p)), device=self.device)
        elif not isinstance(p, Tensor):
            p = tensor(np.asarray(p), device=self.device)
        if p.ndim != self.ndim:
            raise ArgumentError(f"diff: prepend and append take {self.ndim} dimensions, not {p.ndim}")
        parts.append(p)
    x = concatenate(parts, d) if len(parts) > 1 else self
    for _ in range(int(n)):
        length = x.shape[d]
        if length == 0:
            break
        hi, lo = x.narrow(d, 1, length - 1), x.narrow(d, 0, length - 1)
        x = _binary("ne" if x.dtype == np.bool_ else "sub", hi, lo)
    return self.clone() if x is self else x


# ---- order statistics, on sort ---------------------------------------------

def _along_dim(self, dim, op):
    """The tensor (a 0-d one as 1-d) and `dim` wrapped, for a method that
    reduces along one dimension."""
    x = self if self.ndim else self.reshape(1)
    d = _dim_index(dim, self.ndim, op)
    if x.shape[d] == 0:
        raise ArgumentError(f"{op}: dimension {d} is empty")
    return x, d


def _median_along(x, d, skip_nan):
    """The median of `x` along `d` and its index, keeping `d` (size 1): the
    lower of the two middle elements, as PyTorch's; a NaN in the row gives
    the first NaN (`median`) or is left out (`nanmedian`)."""
    n = x.shape[d]
    v, i = ops.sort(_ordered(x), d, False)  # stable, NaN last
    if x.dtype.kind != "f":
        k = (n - 1) // 2
        return v.narrow(d, k, 1).astype(x.dtype, copy=False), i.narrow(d, k, 1)
    nans = x.isnan().sum(d, keepdim=True)
    if skip_nan:
        pos = ((n - nans - 1) // 2).clamp(min=0)
    else:
        pos = (n - nans).where(nans > 0, (n - 1) // 2)
    return v.gather(d, pos), i.gather(d, pos)


def _median_like(name, skip_nan):
    def method(self, dim=None, keepdim=None):
        if dim is None:
            if keepdim is not None:
                raise TypeError(f"{name}() over all elements takes no keepdim")
            if self.size == 0:
                if self.dtype.kind == "f":
                    return tensor(np.array(np.nan, self.dtype), device=self.device)  # as PyTorch's
                raise ArgumentError(f"{name}: an empty {self.dtype} tensor has no median")
            return _median_along(self.reshape(-1), 0, skip_nan)[0].reshape(())
        x, d = _along_dim(self, dim, name)
        v, i = _median_along(x, d, skip_nan)
        if not keepdim or self.ndim == 0:
            v, i = v.squeeze(d), i.squeeze(d)
        return ValuesIndices(v.clone(), i.clone())

    method.__name__ = name
    nan = "leaving NaN out (NaN where a row has nothing else)" if skip_nan else "NaN where a row holds one"
    method.__doc__ = (f"`{name}(dim=None, keepdim=False)`: the lower of the two middle elements ({nan}); "
                      f"over all elements a 0-d tensor (NaN for an empty float tensor), along `dim` a "
                      f"named tuple (values, indices).")
    return method


def _kthvalue(self, k, dim=-1, keepdim=False):
    """`kthvalue(k, dim=-1, keepdim=False)`: a named tuple (values, indices)
    of the `k`-th smallest element along `dim` (from 1; NaN as the largest)."""
    x, d = _along_dim(self, -1 if dim is None else dim, "kthvalue")
    n = x.shape[d]
    if int(k) != k or not 1 <= k <= n:
        raise ArgumentError(f"kthvalue: k = {k} is not in 1..={n}")
    v, i = ops.sort(_ordered(x), d, False)
    v, i = v.narrow(d, int(k) - 1, 1).astype(self.dtype, copy=False), i.narrow(d, int(k) - 1, 1)
    if not keepdim or self.ndim == 0:
        v, i = v.squeeze(d), i.squeeze(d)
    return ValuesIndices(v.clone(), i.clone())


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_like(name, skip_nan):
    def method(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        if self.dtype not in (np.float32, np.float64):
            # float16's ranks are not exact past 2048 elements: PyTorch refuses it too
            raise DTypeError(f"{name}: float32 or float64 tensors (PyTorch's), not {self.dtype}")
        if interpolation not in _INTERPOLATIONS:
            raise ArgumentError(f"{name}: interpolation {interpolation!r} is not one of {_INTERPOLATIONS}")
        qs = q.numpy() if isinstance(q, Tensor) else np.asarray(q)
        if qs.ndim > 1:
            raise ArgumentError(f"{name}: q is a number or 1-d, not of {qs.ndim} dimensions")
        qs = qs.astype(np.float64)
        if np.isnan(qs).any() or ((qs < 0) | (qs > 1)).any():
            raise ArgumentError(f"{name}: q must lie in [0, 1], not {qs.tolist()}")
        if dim is None:
            if self.size == 0:
                raise ArgumentError(f"{name}: an empty tensor has no quantile")
            x, d = self.reshape(-1), 0
        else:
            x, d = _along_dim(self, dim, name)
        v = ops.sort(x, d, False)[0]  # NaN last
        # the ranks in the tensor's dtype, as PyTorch computes them
        dt, dev = self.dtype.type, self.device
        shape = [1] * x.ndim
        shape[d] = qs.size
        r = (_nan_skipping_quantile if skip_nan else _quantile_of_all)(
            x, d, v, np.atleast_1d(qs).astype(dt), shape, interpolation, dev)
        # q's dimension first, then the others (size 1 at `dim` with keepdim)
        r = r.movedim(d, 0)
        if keepdim and dim is None:
            r = r.reshape((qs.size,) + (1,) * self.ndim)
        elif keepdim and self.ndim:
            r = r.unsqueeze(d + 1)
        return (r[0] if np.ndim(qs) == 0 else r).clone()

    method.__name__ = name
    rows = ("NaN left out (NaN where a row has nothing else)" if skip_nan
            else "NaN where a row holds one")
    method.__doc__ = (
        f"`{name}(q, dim=None, keepdim=False, *, interpolation=\"linear\")`: the `q`-th quantiles (a "
        f"number or a 1-d tensor in [0, 1]) of a float tensor over all elements or along `dim`, "
        f"between the sorted elements at `q * (n - 1)` as `interpolation` says (`linear`, `lower`, "
        f"`higher`, `midpoint`, `nearest`); {rows}. A 1-d `q` adds its dimension first, as PyTorch's.")
    return method


def _quantile_of_all(x, d, v, qs, shape, interpolation, dev):
    """The quantiles of every row of `n` elements: one rank per `q`, found
    on the host; NaN where a row holds one."""
    rank = qs * qs.dtype.type(x.shape[d] - 1)
    lo, hi = np.floor(rank).astype(np.int64), np.ceil(rank).astype(np.int64)
    pick = {"lower": lo, "higher": hi, "nearest": np.round(rank).astype(np.int64)}.get(interpolation)
    if pick is not None:
        r = ops.index_select(v, d, tensor(pick, device=dev))
    else:
        below = ops.index_select(v, d, tensor(lo, device=dev))
        above = ops.index_select(v, d, tensor(hi, device=dev))
        w = np.full(rank.shape, 0.5, rank.dtype) if interpolation == "midpoint" else rank - np.floor(rank)
        r = below.lerp(above, tensor(w.reshape(shape), device=dev))
    return r.masked_fill(x.isnan().any(d, keepdim=True), float("nan"))


def _nan_skipping_quantile(x, d, v, qs, shape, interpolation, dev):
    """The quantiles of each row's `k` numbers (NaN sorted after them): one
    rank per row and `q`, on the device; NaN where `k` is 0."""
    k = (~x.isnan()).sum(d, keepdim=True)
    rank = tensor(qs.reshape(shape), device=dev) * (k - 1).astype(x.dtype)
    rank = rank.clamp(min=0)  # rows of NaN alone: any place, NaN below
    lo, hi = rank.floor(), rank.ceil()
    pick = {"lower": lo, "higher": hi, "nearest": rank.round()}.get(interpolation)
    take = lambda at: v.gather(d, at.astype(np.int64).contiguous())  # noqa: E731
    if pick is not None:
        r = take(pick)
    else:
        w = rank - lo if interpolation != "midpoint" else tensor(np.full(shape, 0.5, x.dtype), device=dev)
        r = take(lo).lerp(take(hi), w.broadcast_to(*lo.shape).contiguous())
    return r.masked_fill(k == 0, float("nan"))


# ---- sums that skip NaN, extremes ------------------------------------------

def _nansum(self, dim=None, keepdim=False, *, dtype=None):
    """`nansum(dim=None, keepdim=False, *, dtype=None)`: `sum` with NaN
    counted as 0."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    if x.dtype.kind == "f":
        x = x.masked_fill(x.isnan(), 0)
    r = ops.sum(x, _all_dims(dim), keepdim)
    return r.astype(dtype, copy=False) if dtype is not None and r.dtype != np.dtype(dtype) else r


def _nanmean(self, dim=None, keepdim=False, *, dtype=None):
    """`nanmean(dim=None, keepdim=False, *, dtype=None)`: the mean of the
    elements that are not NaN (NaN where there is none); floats only."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    if x.dtype.kind != "f":
        raise DTypeError(f"nanmean: float tensors only (PyTorch's), not {x.dtype}")
    nan = x.isnan()
    dim = _all_dims(dim)
    total = ops.sum(x.masked_fill(nan, 0), dim, keepdim)
    count = ops.sum(~nan, dim, keepdim)
    return (total / count).astype(total.dtype, copy=False)


def _nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """`nan_to_num(nan=0.0, posinf=None, neginf=None)`: NaN, +inf and -inf
    replaced (by default with 0 and the dtype's largest and lowest finite
    values); integer and bool tensors are copied as they are."""
    if self.dtype.kind != "f":
        return self.clone()
    info = np.finfo(self.dtype)
    # each mask of the tensor itself, so that no replacement is replaced again
    pos, neg = self == float("inf"), self == float("-inf")
    x = self.masked_fill(self.isnan(), nan)
    x = x.masked_fill(pos, info.max if posinf is None else posinf)
    return x.masked_fill(neg, info.min if neginf is None else neginf)


def _aminmax(self, *, dim=None, keepdim=False):
    """`aminmax(*, dim=None, keepdim=False)`: a named tuple (min, max) of
    `amin` and `amax`."""
    return MinMax(ops.amin(self, dim, keepdim), ops.amax(self, dim, keepdim))


def _masked_select(self, mask):
    """`masked_select(mask)`: the elements where `mask` (bool, broadcast with
    the tensor) holds, as a 1-d tensor in row-major order."""
    m = mask if isinstance(mask, Tensor) else tensor(np.asarray(mask), device=self.device)
    if m.dtype != np.bool_:
        raise DTypeError(f"masked_select: the mask must be bool, not {m.dtype}")
    shape = _broadcast(self.shape, m.shape, "masked_select")
    return self.broadcast_to(*shape)[m.broadcast_to(*shape)].reshape(-1)


# ---- matrix products with an added term ------------------------------------

def _add_product(name, product, names):
    def method(self, *args, beta=1, alpha=1, **kw):
        if len(args) + len(kw) != 2 or set(kw) - set(names) or any(n in kw for n in names[:len(args)]):
            raise TypeError(f"{name}: takes {names[0]} and {names[1]}")
        a, b = (args + tuple(kw[n] for n in names[len(args):]))
        if not isinstance(a, (Tensor, np.ndarray)):
            raise TypeError(f"{name}: {names[0]} is a tensor or an array, not {type(a).__name__}")
        a = a if isinstance(a, Tensor) else tensor(a, device=self.device)
        if a.dtype != self.dtype:
            raise DTypeError(f"{name}: tensors of one dtype, not {self.dtype} and {a.dtype}")
        if self.dtype.kind != "f" and any(isinstance(s, float) for s in (alpha, beta)):
            raise DTypeError(f"{name}: a float alpha or beta for a {self.dtype} tensor")
        p = product(a, b) if callable(product) else getattr(a, product)(b)
        if _broadcast(self.shape, p.shape, name) != tuple(p.shape):
            raise ArgumentError(f"{name}: the tensor's shape {tuple(self.shape)} does not broadcast to "
                                f"the product's {tuple(p.shape)}")
        if alpha != 1:
            p = p * alpha
        if beta == 0:
            return p  # the tensor is not read: its NaN do not pass (PyTorch's)
        return p + (self if beta == 1 else self * beta)

    method.__name__ = name
    a, b = names
    shown = f"{a}.{product}({b})" if isinstance(product, str) else f"{a}.bmm({b}).sum(0)"
    method.__doc__ = (f"`{name}({a}, {b}, *, beta=1, alpha=1)`: `beta * self + alpha * {shown}`, "
                      f"the tensor broadcast to the product (not read when `beta` is 0); one dtype.")
    return method


# ---- elementwise, on the operations silt-kernels has ------------------------

def _floated(x):
    """``x`` as a float tensor (integers and bool in float32), as the
    methods of floats take them."""
    return x if x.dtype.kind == "f" else x.astype(np.float32)


def _floated_pair(self, other):
    """Both operands of an elementwise float operation, promoted (a float
    dtype at least: float32 for integers and bool)."""
    rd = promote(self, other)
    if rd.kind != "f":
        rd = np.dtype(np.float32)
    dev = self.device
    return _as(self, rd, dev), _as(other, rd, dev)


def _scaled(factor, name):
    def method(self):
        if self.dtype == np.float16:
            # in float32, rounded once (the factor is not rounded to float16 first)
            return (self.astype(np.float32) * factor).astype(np.float16)
        return _floated(self) * factor

    method.__name__ = name
    method.__doc__ = f"`{name}()`: the elements times {factor!r} (integers in float32)."
    return method


def _logaddexp(self, other):
    """`logaddexp(other)`: `log(exp(self) + exp(other))` without overflow
    (`max + log1p(exp(-|self - other|))`; equal infinities give themselves)."""
    a, b = _floated_pair(self, other)
    m = _binary("maximum", a, b)
    r = m + (-abs(_binary("sub", a, b))).exp().log1p()
    return r.where(~(a.isinf() & _binary("eq", a, b)), a)


def _logaddexp2(self, other):
    """`logaddexp2(other)`: `log2(2**self + 2**other)`, as `logaddexp`."""
    a, b = _floated_pair(self, other)
    m = _binary("maximum", a, b)
    r = m + (-abs(_binary("sub", a, b))).exp2().log1p() * (1 / np.log(2))
    return r.where(~(a.isinf() & _binary("eq", a, b)), a)


def _xlogy(self, other):
    """`xlogy(other)`: `self * log(other)`, 0 where `self` is 0 (unless
    `other` is NaN), as PyTorch's."""
    x, y = _floated_pair(self, other)
    y = y if isinstance(y, Tensor) else tensor(np.asarray(y, x.dtype), device=self.device)
    r = _binary("mul", x, y.log())
    return r.where(~((x == 0) & ~y.isnan()), 0)


def _igamma(self, other):
    """`igamma(other)`: the regularized lower incomplete gamma function
    `P(self, other)` (silt-kernels' `gammainc`; integers and bool in
    float32)."""
    return _silt.ops.gammainc(*_incgamma_pair(self, other))


def _igammac(self, other):
    """`igammac(other)`: the regularized upper incomplete gamma function
    `Q(self, other) = 1 - P(self, other)`, computed for itself where it is
    small (silt-kernels' `gammaincc`)."""
    return _silt.ops.gammaincc(*_incgamma_pair(self, other))


def _incgamma_pair(a, x):
    """`a` and `x` promoted to one float dtype, both tensors on `a`'s device."""
    a, x = _floated_pair(a, x)
    if not isinstance(x, Tensor):
        x = tensor(np.asarray(x, a.dtype), device=a.device)
    return a, x


def _heaviside(self, values):
    """`heaviside(values)`: 0 below 0, 1 above, `values` at 0 (NaN gives 0,
    PyTorch's formula); `values` of the tensor's dtype."""
    v = values if isinstance(values, Tensor) else np.asarray(values)
    if v.dtype != self.dtype:
        raise DTypeError(f"heaviside: values of the tensor's dtype {self.dtype}, not {v.dtype}")
    dev = self.device
    return _as(self > 0, self.dtype, dev).where(self != 0, _as(v, self.dtype, dev))


def _signbit(self):
    """`signbit()`: whether the sign bit is set (-0.0 and negative NaN too)."""
    if self.dtype.kind == "f":
        return _binary("copysign", 1.0, self) < 0
    return self < 0


def _sinc(self):
    """`sinc()`: `sin(pi x) / (pi x)`, 1 at 0 (integers in float32; float16
    computed in float32 and rounded once, as PyTorch's: `pi x` in float16
    is too coarse for the sine)."""
    x = _floated(self)
    if x.dtype == np.float16:
        return _sinc(x.astype(np.float32)).astype(np.float16)
    px = x * np.pi
    return (px.sin() / px).where(x != 0, 1)


def _float_power(self, exponent):
    """`float_power(exponent)`: `pow` in float64."""
    e = exponent.astype(np.float64) if isinstance(exponent, Tensor) else exponent
    if isinstance(e, np.ndarray):
        e = e.astype(np.float64)
    return _binary("pow", self.astype(np.float64), e)


def _logit(self, eps=None):
    """`logit(eps=None)`: `log(x / (1 - x))`, with `x` clamped to `[eps, 1 -
    eps]` when `eps` is given (integers in float32)."""
    x = _floated(self)
    if eps is not None:
        x = x.clamp(eps, 1 - eps)
    return (x / (1 - x)).log()


def _mvlgamma(self, p):
    """`mvlgamma(p)`: the logarithm of the multivariate gamma function of
    dimension `p`, `p (p - 1) / 4 ln(pi) + sum of lgamma(x - j / 2)` for `j`
    in `0..p`; every element must be above `(p - 1) / 2` (integers in
    float32)."""
    p = int(p)
    if p < 1:
        raise ArgumentError(f"mvlgamma: p must be at least 1, not {p}")
    x = _floated(self)
    if x.numel() and not bool((x > (p - 1) / 2).all()):
        raise ArgumentError(f"mvlgamma: every element must be greater than (p - 1) / 2 = {(p - 1) / 2}")
    out = x.lgamma()
    for j in range(1, p):
        out = out + (x - j / 2).lgamma()
    return out + p * (p - 1) / 4 * math.log(math.pi)


def _polygamma(self, n):
    """`polygamma(n)`: the `n`-th derivative of `digamma`, `(-1)^(n+1) n!
    zeta(n + 1, x)` for `n >= 1` (integers in float32; float16 computes in
    float32 and rounds once; float32 computes in float64 on a device that
    has it and rounds once: the Hurwitz sum cancels at negative `x`, and
    its terms for a large `n` fall below float32's normal numbers)."""
    if isinstance(n, bool) or int(n) != n:
        raise ArgumentError(f"polygamma: n must be an integer, not {n!r}")
    n = int(n)
    if n < 0:
        raise ArgumentError(f"polygamma: n must be at least 0, not {n}")
    x = _floated(self)
    if x.dtype == np.float16:
        return _polygamma(x.astype(np.float32), n).astype(np.float16)
    if n == 0:
        return x.digamma()
    if x.dtype == np.float32 and x.device.info()["fp64"]:
        return _polygamma(x.astype(np.float64), n).astype(np.float32)
    order = _silt.ops.zeta(x.new_full((), n + 1), x)
    return order * float(math.factorial(n) if n % 2 else -math.factorial(n))


# ---- shapes ----------------------------------------------------------------

def _flip_side(name, dim, least):
    def method(self):
        if self.ndim < least:
            raise ArgumentError(f"{name}: a tensor of {least} dimensions at least, not {self.ndim}")
        return self.flip(dim)

    method.__name__ = name
    method.__doc__ = f"`{name}()`: `flip({dim})` (a copy)."
    return method


def _rot90(self, k=1, dims=(0, 1)):
    """`rot90(k=1, dims=(0, 1))`: rotated by 90 degrees `k` times, from
    `dims[0]` toward `dims[1]` (a copy)."""
    dims = tuple(dims)
    if len(dims) != 2:
        raise ArgumentError(f"rot90: two dims, not {dims}")
    if self.ndim < 2:
        raise ArgumentError(f"rot90: a tensor of 2 dimensions at least, not {self.ndim}")
    a, b = (_dim_index(d, self.ndim, "rot90") for d in dims)
    if a == b:
        raise ArgumentError(f"rot90: the dims {dims} are one dimension")
    k = int(k) % 4
    if k == 1:
        return self.flip(b).transpose(a, b)
    if k == 2:
        return self.flip(a, b)
    if k == 3:
        return self.flip(a).transpose(a, b)
    return self.clone()


def _select(self, dim, index):
    """`select(dim, index)`: the view at `index` of `dim`, without it."""
    d = _dim_index(dim, self.ndim, "select")
    if self.ndim == 0:
        raise ArgumentError("select: a 0-d tensor has no dimension to pick from")
    n = self.shape[d]
    if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
        raise TypeError(f"select: an integer index, not {index!r}")
    if not -n <= index < n:
        raise IndexError(f"select: index {index} is out of range for dimension {d} of size {n}")
    return self[(slice(None),) * d + (int(index),)]


def _unflatten(self, dim, sizes):
    """`unflatten(dim, sizes)`: `dim` split into `sizes` (one may be -1), a
    view where the strides allow (as `reshape`)."""
    d = _dim_index(dim, self.ndim, "unflatten")
    if self.ndim == 0:
        raise ArgumentError("unflatten: a 0-d tensor has no dimension to split")
    sizes = tuple(int(s) for s in sizes)
    if not sizes:
        raise ArgumentError("unflatten: no sizes")
    n = self.shape[d]
    known = int(np.prod([s for s in sizes if s != -1], dtype=np.int64))
    if sizes.count(-1) > 1 or (-1 not in sizes and known != n) or (-1 in sizes and (known == 0 or n % known)):
        raise ArgumentError(f"unflatten: sizes {sizes} do not make dimension {d} of size {n}")
    sizes = tuple(n // known if s == -1 else s for s in sizes)
    return self.reshape(tuple(self.shape[:d]) + sizes + tuple(self.shape[d + 1:]))


def _tensor_split(self, indices_or_sections, dim=0):
    """`tensor_split(indices_or_sections, dim=0)`: views along `dim`: `n`
    sections as equal as can be (the first longer), or cut before each of
    the indices (NumPy's `array_split`)."""
    if self.ndim == 0:
        raise ArgumentError("tensor_split: a 0-d tensor has no dimension to cut")
    d = _dim_index(dim, self.ndim, "tensor_split")
    n = self.shape[d]
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ArgumentError(f"tensor_split: {k} sections")
        cuts = [i * (n // k) + min(i, n % k) for i in range(1, k)]
    else:
        cuts = list(indices_or_sections)
        if not all(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in cuts):
            raise TypeError(f"tensor_split: integer indices, not {cuts}")
        cuts = [int(i) for i in cuts]
    bounds = [0] + cuts + [n]
    out = []
    for lo, hi in zip(bounds, bounds[1:]):
        lo, hi = min(max(lo + n if lo < 0 else lo, 0), n), min(max(hi + n if hi < 0 else hi, 0), n)
        out.append(self.narrow(d, lo, max(hi - lo, 0)))
    return tuple(out)


def _take_along_dim(self, indices, dim=None):
    """`take_along_dim(indices, dim=None)`: `gather(dim, indices)` with the
    tensor and `indices` (int64) broadcast in the other dimensions; without
    `dim`, both flattened."""
    i = indices if isinstance(indices, Tensor) else tensor(np.asarray(indices), device=self.device)
    if dim is None:
        return self.reshape(-1).gather(0, i.reshape(-1))
    d = _dim_index(dim, self.ndim, "take_along_dim")
    if self.ndim == 0:
        if i.ndim:
            raise ArgumentError(f"take_along_dim: indices of 0 dimensions, not {i.ndim}")
        return self.reshape(1).gather(0, i.reshape(1)).reshape(())
    if i.ndim != self.ndim:
        raise ArgumentError(f"take_along_dim: indices of {self.ndim} dimensions, not {i.ndim}")
    if i.dtype.kind == "i" and i.numel():
        # PyTorch's with `dim` (not without): a negative index counts from
        # the end (one below -length still raises, in `gather`)
        i = _binary("add", i, (i < 0).astype(i.dtype) * self.shape[d])
    a_shape, i_shape = list(self.shape), list(i.shape)
    a_shape[d] = i_shape[d] = 1
    common = _broadcast(a_shape, i_shape, "take_along_dim")
    a_to = list(common)
    a_to[d] = self.shape[d]
    i_to = list(common)
    i_to[d] = i.shape[d]
    return self.broadcast_to(*a_to).gather(d, i.broadcast_to(*i_to).contiguous())


def _repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    """`repeat_interleave(repeats, dim=None)`: each element (or slice along
    `dim`) repeated `repeats` times (a number, or one count each); without
    `dim`, of the flattened tensor. Without `repeats`, the tensor is the
    counts: `arange(len(t))` repeated by them (PyTorch's one-argument
    form)."""
    if repeats is None:
        if self.ndim != 1 or self.dtype.kind not in "iu":
            raise ArgumentError("repeat_interleave: alone, the tensor is the counts: 1-d integers")
        places = _creation.arange(self.shape[0], device=self.device)
        return _repeat_interleave(places, self, 0, output_size=output_size)
    x, d = (self.reshape(-1), 0) if dim is None else (self, _dim_index(dim, self.ndim, "repeat_interleave"))
    if x.ndim == 0:
        x = x.reshape(1)
    n = x.shape[d]
    r = repeats.numpy() if isinstance(repeats, Tensor) else np.asarray(repeats)
    if r.dtype.kind not in "iu" or r.ndim > 1 or (r.ndim == 1 and len(r) not in (1, n)):
        raise ArgumentError(f"repeat_interleave: repeats of integers, one or {n} of them, not {r.tolist()}")
    if (r < 0).any():
        raise ArgumentError("repeat_interleave: a negative count")
    picks = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(r.astype(np.int64), (n,)))
    if output_size is not None and output_size != len(picks):
        raise ArgumentError(f"repeat_interleave: output_size {output_size}, not {len(picks)}")
    return ops.index_select(x, d, tensor(picks, device=self.device))


# ---- products ----------------------------------------------------------------

def _same_dtype_operand(self, other, name):
    o = other if isinstance(other, Tensor) else None
    if o is None:
        if not isinstance(other, np.ndarray):
            raise TypeError(f"{name}: takes a tensor or an array, not {type(other).__name__}")
        o = tensor(other, device=self.device)
    if o.dtype != self.dtype:
        raise DTypeError(f"{name}: tensors of one dtype, not {self.dtype} and {o.dtype}")
    return o


def _inner(self, other):
    """`inner(other)`: the sums of products over the last dimension of each,
    of shape `self.shape[:-1] + other.shape[:-1]` (a 0-d side multiplies);
    one dtype."""
    o = _same_dtype_operand(self, other, "inner")
    if self.ndim == 0 or o.ndim == 0:
        return self * o
    k = self.shape[-1]
    if o.shape[-1] != k:
        raise ArgumentError(f"inner: last dimensions of {k} and {o.shape[-1]}")
    rows = lambda t: int(np.prod(t.shape[:-1], dtype=np.int64))  # noqa: E731
    p = self.reshape(rows(self), k) @ o.reshape(rows(o), k).T
    return p.reshape(tuple(self.shape[:-1]) + tuple(o.shape[:-1]))


def _vdot(self, other):
    """`vdot(other)`: `dot` (real tensors: no conjugate)."""
    return self.dot(_same_dtype_operand(self, other, "vdot"))


def _kron(self, other):
    """`kron(other)`: the Kronecker product (the shapes padded with leading
    1s to one length; block `i` is `self[i] * other`), with promotion."""
    o = other if isinstance(other, Tensor) else tensor(np.asarray(other), device=self.device)
    nd = max(self.ndim, o.ndim)
    sa = (1,) * (nd - self.ndim) + tuple(self.shape)
    sb = (1,) * (nd - o.ndim) + tuple(o.shape)
    a = self.reshape(tuple(v for n in sa for v in (n, 1)))
    b = o.reshape(tuple(v for n in sb for v in (1, n)))
    return _binary("mul", a, b).reshape(tuple(x * y for x, y in zip(sa, sb)))


def _cross(self, other, dim=None):
    """`cross(other, dim=None)`: the cross product of 3-vectors along `dim`
    (without it, the tensor's first dimension of size 3, as PyTorch's
    `cross`), with broadcasting (of tensors of one number of dimensions,
    as PyTorch's) and promotion; bool tensors raise `silt.DTypeError`."""
    o = other if isinstance(other, Tensor) else tensor(np.asarray(other), device=self.device)
    if self.ndim != o.ndim:
        raise ArgumentError(f"cross: inputs must have the same number of dimensions, not {self.ndim} and {o.ndim} "
                            f"(as PyTorch's)")
    if self.dtype == np.bool_ or o.dtype == np.bool_:
        raise DTypeError("cross: not defined on bool tensors (as PyTorch's)")
    shape = _broadcast(self.shape, o.shape, "cross")
    if dim is None:
        # PyTorch's: the first dimension of size 3 of the tensor itself
        dim = next((i for i, n in enumerate(self.shape) if n == 3), None)
        if dim is None:
            raise ArgumentError(f"cross: no dimension of size 3 in {tuple(self.shape)}")
    d = _dim_index(dim, len(shape), "cross")
    if len(shape) == 0 or shape[d] != 3:
        raise ArgumentError(f"cross: dimension {d} of {shape} is not of size 3")
    a, b = self.broadcast_to(*shape), o.broadcast_to(*shape)
    part = [(a.narrow(d, i, 1), b.narrow(d, i, 1)) for i in range(3)]
    comp = [_binary("sub", _binary("mul", part[j][0], part[k][1]), _binary("mul", part[k][0], part[j][1]))
            for j, k in ((1, 2), (2, 0), (0, 1))]
    return concatenate(comp, d)


def _dist(self, other, p=2):
    """`dist(other, p=2)`: the `p`-norm of `self - other` (a float tensor):
    `sum(|d|**p)**(1/p)`, the count of nonzeros for 0, the largest and
    smallest `|d|` for inf and -inf."""
    d = _binary("sub", self, other)
    if d.dtype.kind != "f":
        raise DTypeError(f"dist: float tensors (PyTorch's), not {d.dtype}")
    return d.norm(p)


# ---- writes ------------------------------------------------------------------

def _fill_diagonal_(self, fill_value, wrap=False):
    """`fill_diagonal_(fill_value, wrap=False)`: `fill_value` on the main
    diagonal (of a 2-d tensor, or of one whose dimensions are all equal);
    `wrap` continues it below a tall matrix every `ncols + 1` rows, as
    NumPy's; returns the tensor."""
    if self.ndim < 2:
        raise ArgumentError(f"fill_diagonal_: a tensor of 2 dimensions at least, not {self.ndim}")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise ArgumentError(f"fill_diagonal_: all dimensions of equal length, not {tuple(self.shape)}")
    if self.ndim > 2:
        i = np.arange(self.shape[0])
        self[(i,) * self.ndim] = fill_value
        return self
    n, m = self.shape
    end = n * m if wrap else min(n, m) * m
    flat = np.arange(0, end, m + 1)
    if flat.size:
        self[flat // m, flat % m] = fill_value
    return self


def _diag_embed(self, offset=0, dim1=-2, dim2=-1):
    """`diag_embed(offset=0, dim1=-2, dim2=-1)`: the last dimension put on the
    diagonal `offset` of two new dimensions `dim1` and `dim2` of size `n +
    |offset|`, zeros elsewhere."""
    nd = self.ndim + 1
    a, b = _dim_index(dim1, nd, "diag_embed"), _dim_index(dim2, nd, "diag_embed")
    if a == b:
        raise ArgumentError(f"diag_embed: dim1 and dim2 are both dimension {a}")
    x = self if self.ndim else self.reshape(1)
    n = x.shape[-1] + abs(int(offset))
    shape = list(x.shape[:-1])
    for d in sorted((a, b)):
        shape.insert(d, n)
    out = zeros(tuple(shape), dtype=self.dtype, device=self.device)
    ops.copy(x, _diagonal(out, offset, a, b))
    return out


def _same_source(self, source, op):
    """PyTorch's rule for what `put_` and `index_put_` write: a tensor or an
    array of the tensor's dtype, or a number."""
    if isinstance(source, (Tensor, np.ndarray)) and source.dtype != self.dtype:
        raise DTypeError(f"{op}: the source is {source.dtype}, the tensor {self.dtype}")


def _flat_positions(self, index, op):
    """`index` (integers, negative from the end) as positions of the tensor
    read as 1-d, checked."""
    i = index.numpy() if isinstance(index, Tensor) else np.asarray(index)
    if i.dtype.kind not in "iu":
        raise IndexError(f"{op}: the index must hold integers, not {i.dtype}")
    n = self.size
    i = _as_int64(i, op)
    if i.size and (i.min() < -n or i.max() >= n):
        raise IndexError(f"{op}: an index is out of range for {n} elements")
    return np.where(i < 0, i + n, i)


def _put_(self, index, source, accumulate=False):
    """`put_(index, source, accumulate=False)`: `source`'s elements written
    (or added, with `accumulate`) at the positions `index` of the tensor read
    as 1-d; returns the tensor."""
    pos = _flat_positions(self, index, "put_")
    _same_source(self, source, "put_")
    src = source if isinstance(source, Tensor) else tensor(np.asarray(source, self.dtype), device=self.device)
    if src.size != pos.size:
        raise ArgumentError(f"put_: {pos.size} positions and {src.size} values")
    flat = self.contiguous().reshape(-1)
    idx = tensor(pos.reshape(-1), device=self.device)
    vals = src.reshape(-1).astype(self.dtype, copy=False)
    if accumulate:
        flat = ops.scatter_add(flat, 0, idx, vals)
    else:
        flat[idx] = vals
    if not flat.shares_storage(self):
        ops.copy(flat.reshape(tuple(self.shape)), self)
    return self


def _index_put_(self, indices, values, accumulate=False):
    """`index_put_(indices, values, accumulate=False)`: `self[indices] =
    values` for a tuple of index tensors (or masks); with `accumulate` the
    values are added, repeated places adding up; returns the tensor."""
    if not isinstance(indices, (tuple, list)) or any(k is None for k in indices):
        raise TypeError("index_put_: a tuple of index tensors (write slices with t[...] = v)")
    _same_source(self, values, "index_put_")
    key = tuple(indices)
    if not accumulate:
        self[key] = values
        return self
    arrays = [k.numpy() if isinstance(k, Tensor) else np.asarray(k) for k in key]
    if any(a.dtype == np.bool_ for a in arrays):
        # masks as the positions they pick (NumPy's nonzero)
        arrays = [x for a in arrays for x in (np.nonzero(a) if a.dtype == np.bool_ else (a,))]
    if len(arrays) > self.ndim:
        raise IndexError(f"index_put_: {len(arrays)} indices for {self.ndim} dimensions")
    for a in arrays:
        if a.dtype.kind not in "iu":
            raise IndexError(f"index_put_: the indices must hold integers, not {a.dtype}")
    lead = tuple(self.shape[:len(arrays)])
    rest = tuple(self.shape[len(arrays):])
    b = np.broadcast_arrays(*arrays)
    for k, (a, n) in enumerate(zip(b, lead)):
        if a.size and (a.min() < -n or a.max() >= n):
            raise IndexError(f"index_put_: an index is out of range for dimension {k} of size {n}")
    pos = np.ravel_multi_index(tuple(np.where(a < 0, a + n, a) for a, n in zip(b, lead)), lead) if b else np.zeros((), np.int64)
    want = pos.shape + rest
    v = values if isinstance(values, Tensor) else tensor(np.asarray(values, self.dtype), device=self.device)
    v = v.astype(self.dtype, copy=False).broadcast_to(*want).reshape((pos.size,) + rest)
    rows = self.contiguous().reshape((int(np.prod(lead, dtype=np.int64)),) + rest)
    idx = np.broadcast_to(pos.reshape((-1,) + (1,) * len(rest)), (pos.size,) + rest)
    rows = ops.scatter_add(rows, 0, tensor(np.ascontiguousarray(idx), device=self.device), v.contiguous())
    ops.copy(rows.reshape(tuple(self.shape)), self)
    return self


# ---- random fills, from the generator of silt.rand ---------------------------

def _random_fill(name, draw, doc):
    def method(self, *args, generator=None, **kwargs):
        if generator is not None:
            raise TypeError(f"{name}: silt has one generator (silt.manual_seed), not generator=")
        if "from" in kwargs:  # PyTorch's keyword, a Python keyword too
            kwargs["from_"] = kwargs.pop("from")
        if self.dtype.kind != "f" and name not in ("random_", "bernoulli_"):
            raise DTypeError(f"{name}: a float tensor, not {self.dtype}")
        values = np.asarray(draw(_creation._generator, tuple(self.shape), self.dtype, *args, **kwargs))
        ops.copy(tensor(values.astype(self.dtype), device=self.device), self)
        return self

    method.__name__ = name
    method.__doc__ = doc + " Drawn on the host by `silt.rand`'s generator (`silt.manual_seed`); returns the tensor."
    return method


def _uniform(g, shape, dt, from_=0.0, to=1.0):
    if not from_ <= to:
        raise ArgumentError(f"uniform_: from {from_} is above to {to}")
    values = g.uniform(from_, to, shape).astype(dt)
    if from_ < to:
        # rounding to float16 or float32 can reach `to`: keep below it, as silt.rand does
        values = np.minimum(values, np.nextafter(dt.type(to), dt.type(-np.inf)))
        # ... and not below `from`, where `from` and `to` round to one value
        values = np.maximum(values, dt.type(from_))
    return values


def _normal(g, shape, dt, mean=0.0, std=1.0):
    if not std >= 0:
        raise ArgumentError(f"normal_: std must not be negative or NaN, not {std}")
    return g.normal(mean, std, shape)


def _exponential(g, shape, dt, lambd=1.0):
    if not lambd > 0:  # NaN too
        raise ArgumentError(f"exponential_: lambd {lambd} is not positive")
    return g.exponential(1 / lambd, shape)


def _bernoulli_fill(g, shape, dt, p=0.5):
    probs = p.numpy() if isinstance(p, Tensor) else np.asarray(p)
    probs = probs.astype(np.float64)
    if ((probs < 0) | (probs > 1) | np.isnan(probs)).any():
        raise ArgumentError(f"bernoulli_: probabilities must lie in [0, 1], not {probs.tolist()}")
    try:
        probs = np.broadcast_to(probs, shape)
    except ValueError:
        raise ArgumentError(f"bernoulli_: p of shape {probs.shape} does not broadcast to {shape}") from None
    return g.random(shape) < probs


def _dtype_range(dt):
    """The integers a dtype holds, as PyTorch's `random_` sees them: all of
    an integer type's, 0 and 1 for bool, `[-2**digits, 2**digits]` for a
    float (its integers without a gap)."""
    if dt == np.bool_:
        return 0, 1
    if dt.kind == "f":
        top = 2 ** (np.finfo(dt).nmant + 1)
        return -top, top
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def _random_ints(g, shape, dt, *args, **kwargs):
    """`random_()`, `random_(to)`, `random_(from_, to)`, as PyTorch's
    overloads (`to=None` with a `from_`: up to the dtype's top)."""
    if len(args) > 2 or set(kwargs) - {"from_", "to"}:
        raise TypeError("random_: takes (), (to) or (from, to)")
    if len(args) == 1 and not kwargs:
        lo, hi = 0, args[0]
    else:
        bound = dict(zip(("from_", "to"), args))
        if set(bound) & set(kwargs):
            raise TypeError("random_: an argument given twice")
        bound.update(kwargs)
        lo, hi = bound.get("from_", 0), bound.get("to")
    low, top = _dtype_range(dt)
    if hi is None:
        hi = top + 1
    if any(not isinstance(v, (int, np.integer)) or isinstance(v, bool) for v in (lo, hi)):
        raise TypeError(f"random_: integer bounds, not {lo!r} and {hi!r}")
    lo, hi = int(lo), int(hi)
    if hi <= lo:
        raise ArgumentError(f"random_: an empty range [{lo}, {hi})")
    if lo < low or hi - 1 > top:
        raise ArgumentError(f"random_: [{lo}, {hi}) is out of {dt}'s range [{low}, {top}]")
    if dt == np.uint64 or hi > 2 ** 63:
        return g.integers(lo, hi, shape, dtype=np.uint64)
    return g.integers(lo, hi, shape, dtype=np.int64)


def _bernoulli(self, p=None, *, generator=None):
    """`bernoulli(p=None)`: 1 where a uniform draw is below the element (or
    `p`), else 0, in the tensor's dtype; drawn on the host by `silt.rand`'s
    generator."""
    if p is not None:
        return _random_fill("bernoulli_", _bernoulli_fill, "")(self.clone(), p, generator=generator)
    if generator is not None:
        raise TypeError("bernoulli: silt has one generator (silt.manual_seed), not generator=")
    if self.dtype.kind != "f":
        raise DTypeError(f"bernoulli: probabilities of a float dtype, not {self.dtype}")
    draws = _bernoulli_fill(_creation._generator, tuple(self.shape), self.dtype, self)
    return tensor(draws.astype(self.dtype), device=self.device)


# ---- PyTorch's smaller names: views, mode, msort ----------------------------------

def _m_transpose(self):
    """`mT` (and `mH`, the same for real dtypes): the last two dimensions
    swapped, a view (at least 2 dimensions)."""
    if self.ndim < 2:
        raise ArgumentError(f"mT: a tensor of at least 2 dimensions, not {self.ndim}")
    return self.transpose(-2, -1)


def _h_transpose(self):
    """`H`: the transpose of a matrix (2-d; the conjugate for real dtypes
    is the tensor itself), a view; a 0-d tensor's is itself, as PyTorch's
    (deprecated there)."""
    if self.ndim == 0:
        return self[...]
    if self.ndim != 2:
        raise ArgumentError(f"H: a matrix (2 dimensions), not {self.ndim}")
    return self.transpose(0, 1)


def _unfold(self, dimension, size, step):
    """`unfold(dimension, size, step)`: a view of every slice of `size`
    elements along `dimension`, `step` apart, as a new last dimension (the
    windows' count where `dimension` stood), as PyTorch's `Tensor.unfold`."""
    if self.ndim == 0:
        x = self.reshape(1)
        if not 0 <= size <= 1:
            raise ArgumentError(f"unfold: size {size} of a 0-d tensor")
        if step <= 0:
            raise ArgumentError(f"unfold: step must be positive, not {step}")
        return x.as_strided((size,), (1,))  # PyTorch's: (1,) or (0,)
    d = _dim_index(dimension, self.ndim, "unfold")
    n = self.shape[d]
    if size < 0 or size > n:
        raise ArgumentError(f"unfold: size {size} of dimension {d} of length {n}")
    if step <= 0:
        raise ArgumentError(f"unfold: step must be positive, not {step}")
    shape, strides = list(self.shape), list(self.stride())
    shape[d] = (n - size) // step + 1
    strides[d] = strides[d] * step
    return self.as_strided(shape + [size], strides + [self.stride()[d]])


def _mode(self, dim=-1, keepdim=False):
    """`mode(dim=-1, keepdim=False)`: `(values, indices)`, each slice's
    most frequent element along `dim` (the smallest of those tied; each NaN
    counted on its own) and the last place it stands, found in NumPy (a
    copy from an OpenCL device) as `unique(dim=)` is."""
    d = _dim_index(dim, self.ndim, "mode")  # a 0-d tensor's: 0 or -1
    a = self.numpy()
    if self.ndim == 0:
        return ValuesIndices(self.clone(), tensor(np.array(0, np.int64), device=self.device))
    if a.shape[d] == 0:
        raise ArgumentError(f"mode: dimension {d} is empty")
    rows = np.moveaxis(a, d, -1).reshape(-1, a.shape[d])
    values = np.empty(rows.shape[0], a.dtype)
    places = np.empty(rows.shape[0], np.int64)
    for r, row in enumerate(rows):
        order = np.argsort(row, kind="stable")  # NaN last
        s = row[order]
        starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))  # NaN != NaN: runs of one
        counts = np.diff(np.append(starts, len(s)))
        best = int(np.argmax(counts))  # the first of the largest: the smallest value
        values[r] = s[starts[best]]
        places[r] = order[starts[best] + counts[best] - 1]  # the stable order's last: the last place
    out_shape = tuple(np.delete(np.array(a.shape), d))
    v = values.reshape(out_shape)
    i = places.reshape(out_shape)
    if keepdim:
        v, i = np.expand_dims(v, d), np.expand_dims(i, d)
    return ValuesIndices(tensor(v, device=self.device), tensor(i, device=self.device))


def _msort(self):
    """`msort()`: the elements sorted along the first dimension (`sort(0)`'s
    values)."""
    return self.sort(0).values


def _split_side(name, dim, least):
    """`hsplit`, `vsplit`, `dsplit`: `tensor_split` along `dim` (`hsplit` of a
    1-d tensor along 0), a number of sections dividing the length evenly."""
    def method(self, indices_or_sections):
        if self.ndim < least:
            raise ArgumentError(f"{name}: a tensor of at least {least} dimensions, not {self.ndim}")
        d = 0 if (name == "hsplit" and self.ndim == 1) else dim
        if isinstance(indices_or_sections, (int, np.integer)):
            n = int(indices_or_sections)
            if n <= 0 or self.shape[d] % n:
                raise ArgumentError(f"{name}: {n} sections do not divide dimension {d} of length {self.shape[d]}")
        return _tensor_split(self, indices_or_sections, d)

    method.__name__ = name
    method.__doc__ = (f"`{name}(indices_or_sections)`: views along dimension {dim}"
                      f"{' (0 for a 1-d tensor)' if name == 'hsplit' else ''}, as `tensor_split`, "
                      "a number of sections dividing it evenly (PyTorch's).")
    return method


def _masked_scatter_(self, mask, source):
    """`masked_scatter_(mask, source)`: the places where `mask` (bool,
    broadcast to the tensor) holds, in order, take `source`'s elements in
    order (it needs at least as many); returns the tensor."""
    m = mask if isinstance(mask, Tensor) else tensor(np.asarray(mask), device=self.device)
    if m.dtype != np.bool_:
        raise DTypeError(f"masked_scatter_: the mask must be bool, not {m.dtype}")
    if not isinstance(source, Tensor):
        raise TypeError(f"masked_scatter_: source must be a tensor, not {type(source).__name__}")
    if source.dtype != self.dtype:
        raise DTypeError(f"masked_scatter_: source is {source.dtype}, the tensor {self.dtype}")
    m = m.to(self.device).broadcast_to(*self.shape)
    count = int(m.sum().item()) if m.numel() else 0
    if count > source.numel():
        raise ArgumentError(f"masked_scatter_: {count} places and only {source.numel()} source elements")
    if count:
        self[m.contiguous()] = source.to(self.device).reshape(-1)[:count]
    return self


def _masked_scatter(self, mask, source):
    """`masked_scatter(mask, source)`: `masked_scatter_` on a copy."""
    return _masked_scatter_(self.clone(), mask, source)


# ---- PyTorch's small methods: aliases, introspection, addcdiv, sum_to_size ---------

def _is_signed(self):
    """`is_signed()`: whether the dtype holds negative values (signed
    integers and floats)."""
    return self.dtype.kind in "if"


def _addcdiv(self, tensor1, tensor2, value=1):
    """`addcdiv(tensor1, tensor2, value=1)`: `self + value * tensor1 /
    tensor2` (PyTorch's order: `(value * tensor1) / tensor2`), of floats;
    integer division is refused, as PyTorch's."""
    rd = promote(np.empty(0, promote(self, tensor1)), tensor2)
    if rd.kind != "f":
        raise DTypeError("addcdiv: integer division is not taken (PyTorch's); use floats")
    dev = self.device
    x, a, b = (_as(v, rd, dev) for v in (self, tensor1, tensor2))
    return x + (a * value) / b


def _addcdiv_(self, tensor1, tensor2, value=1):
    """`addcdiv_(tensor1, tensor2, value=1)`: `addcdiv` written into the
    tensor."""
    return self.copy_(_addcdiv(self, tensor1, tensor2, value).astype(self.dtype, copy=False))


def _scan_in_place(name):
    def method(self, dim):
        return self.copy_(getattr(self, name)(dim).astype(self.dtype, copy=False))

    method.__name__ = name + "_"
    method.__doc__ = f"`{name}_(dim)`: `{name}` written into the tensor (its dtype kept)."
    return method


def _is_inf_side(sign):
    def method(self):
        if self.dtype.kind != "f":
            return _creation.zeros_like(self, dtype=np.bool_)
        return self == sign * float("inf")

    method.__name__ = "isposinf" if sign > 0 else "isneginf"
    method.__doc__ = f"`{method.__name__}()`: where the elements are {'+' if sign > 0 else '-'}inf."
    return method


def _positive(self):
    """`positive()`: the tensor itself (bool refused, as PyTorch's)."""
    if self.dtype == np.bool_:
        raise DTypeError("positive is not defined on bool tensors")
    return self


def _is_nonzero(self):
    """`is_nonzero()`: whether the one element of a one-element tensor is
    not zero."""
    if self.numel() != 1:
        raise ArgumentError(f"is_nonzero: a tensor of one element, not {self.numel()}")
    return bool(self.reshape(()).item() != 0)


def _sum_to_size(self, *size):
    """`sum_to_size(*size)`: summed down to `size`, a shape the tensor
    broadcasts from (leading dimensions summed away, those of 1 kept)."""
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:])):
        raise ArgumentError(f"sum_to_size: {size} is not a shape {shape} broadcasts from")
    x = self.sum(tuple(range(lead))) if lead else self
    dims = tuple(d for d, (s, n) in enumerate(zip(size, x.shape)) if s == 1 and n != 1)
    return x.sum(dims, keepdim=True) if dims else x.clone() if not lead else x


# ---- sampling: multinomial, normal, poisson ------------------------------------------

def _multinomial(self, num_samples, replacement=False, *, generator=None):
    """`multinomial(num_samples, replacement=False)`: for each row of
    non-negative weights (1-d or 2-d), `num_samples` category indices
    (int64) drawn in proportion to them, each at most once without
    `replacement`; drawn on the host by `silt.rand`'s generator."""
    if generator is not None:
        raise TypeError("multinomial: silt has one generator (silt.manual_seed), not generator=")
    if self.ndim not in (1, 2) or self.dtype.kind != "f":
        raise ArgumentError(f"multinomial: a 1-d or 2-d float tensor of weights, not {self.ndim}-d {self.dtype}")
    w = self.numpy().astype(np.float64).reshape(-1, self.shape[-1])
    if not np.isfinite(w).all() or (w < 0).any():
        raise ArgumentError("multinomial: the weights must be finite and not negative")
    n = w.shape[1]
    k = int(num_samples)
    if k <= 0:
        raise ArgumentError(f"multinomial: num_samples must be positive, not {num_samples}")
    if not replacement and k > n:
        raise ArgumentError(f"multinomial: {k} samples of {n} categories without replacement")
    g = _creation._generator
    out = np.empty((w.shape[0], k), np.int64)
    for r, row in enumerate(w):
        total = row.sum()
        if total <= 0:
            raise ArgumentError(f"multinomial: row {r} has no positive weight")
        if not replacement and np.count_nonzero(row) < k:
            raise ArgumentError(f"multinomial: row {r} has fewer than {k} categories of positive weight")
        out[r] = g.choice(n, size=k, replace=bool(replacement), p=row / total)
    return tensor(out.reshape(tuple(self.shape[:-1]) + (k,)), device=self.device)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None):
    """`torch.normal(mean, std, size=None)`: draws from normal distributions
    of the means and standard deviations given (tensors broadcast, or numbers
    with `size`), of the tensors' dtype and device (float32 by default);
    drawn on the host by `silt.rand`'s generator."""
    if generator is not None:
        raise TypeError("normal: silt has one generator (silt.manual_seed), not generator=")
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if not tensors and size is None:
        raise ArgumentError("normal: give a tensor mean or std, or numbers with a size")
    dev = device if device is not None else (tensors[0].device if tensors else None)
    dt = np.dtype(dtype) if dtype is not None else (tensors[0].dtype if tensors else np.dtype(np.float32))
    if dt.kind != "f":
        raise DTypeError(f"normal: a float dtype, not {dt}")
    m, s = (v.numpy().astype(np.float64) if isinstance(v, Tensor) else np.float64(v) for v in (mean, std))
    if not (np.asarray(s) >= 0).all():
        raise ArgumentError("normal: std must not be negative or NaN")
    shape = tuple(size) if size is not None else np.broadcast_shapes(np.shape(m), np.shape(s))
    draws = _creation._generator.normal(np.broadcast_to(m, shape), np.broadcast_to(s, shape))
    return tensor(np.asarray(draws).astype(dt), device=dev)


def binomial(count, prob, generator=None):
    """`torch.binomial(count, prob)`: a draw from the binomial distribution
    of each element's number of trials (`count`, floored, as PyTorch's) and
    success probability (`prob`), broadcast, in their dtype (float tensors
    of one dtype); drawn on the host by `silt.rand`'s generator. A count
    that is negative or not finite, or a probability outside `[0, 1]` (NaN
    too), raises `silt.ArgumentError` (PyTorch's loops forever on NaN)."""
    if generator is not None:
        raise TypeError("binomial: silt has one generator (silt.manual_seed), not generator=")
    for name, t in (("count", count), ("prob", prob)):
        if not isinstance(t, Tensor) or t.dtype.kind != "f":
            raise DTypeError(f"binomial: {name} must be a float tensor")
    if count.dtype != prob.dtype:
        raise DTypeError(f"binomial: count and prob must have one dtype, not {count.dtype} and {prob.dtype}")
    shape = _broadcast(count.shape, prob.shape, "binomial")
    n = np.broadcast_to(count.numpy().astype(np.float64), shape)
    p = np.broadcast_to(prob.numpy().astype(np.float64), shape)
    if not (np.isfinite(n).all() and (n >= 0).all()):
        raise ArgumentError("binomial: the counts must be finite and not negative")
    if not ((p >= 0) & (p <= 1)).all():
        raise ArgumentError("binomial: the probabilities must lie in [0, 1]")
    draws = _creation._generator.binomial(np.floor(n).astype(np.int64), p)
    return tensor(np.asarray(draws).astype(count.dtype), device=count.device)


def poisson(input, generator=None):
    """`torch.poisson(input)`: a draw from the Poisson distribution of each
    element's rate, in the input's dtype; drawn on the host by `silt.rand`'s
    generator."""
    if generator is not None:
        raise TypeError("poisson: silt has one generator (silt.manual_seed), not generator=")
    if not isinstance(input, Tensor) or input.dtype.kind != "f":
        raise DTypeError("poisson: a float tensor of rates")
    rates = input.numpy().astype(np.float64)
    if (rates < 0).any() or not np.isfinite(rates).all():
        raise ArgumentError("poisson: the rates must be finite and not negative")
    return tensor(np.asarray(_creation._generator.poisson(rates)).astype(input.dtype), device=input.device)

"""``silt.Tensor``'s methods composed of the others, named and defined as
PyTorch's: dimensions moved, diagonals, tiles and differences; order
statistics on ``sort`` (``median``, ``kthvalue``, ``quantile``); sums that
skip NaN; the matrix products with an added term (``addmm``, ``addmv``,
``baddbmm``). Each runs on the tensor's device. ``_tensor`` attaches them.
"""

import collections

import numpy as np

from . import _silt
from ._silt import ArgumentError, DTypeError, Tensor, tensor, zeros
from ._operators import _binary, _is_number, promote
from ._methods import ValuesIndices, _dim_index, _ordered
from ._creation import concatenate

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


def _quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    """`quantile(q, dim=None, keepdim=False, *, interpolation="linear")`: the
    `q`-th quantiles (a number or a 1-d tensor in [0, 1]) of a float tensor
    over all elements or along `dim`, between the sorted elements at `q *
    (n - 1)` as `interpolation` says (`linear`, `lower`, `higher`,
    `midpoint`, `nearest`); NaN where a row holds one. A 1-d `q` adds its
    dimension first, as PyTorch's."""
    if self.dtype.kind != "f":
        raise DTypeError(f"quantile: float tensors only (PyTorch's), not {self.dtype}")
    if interpolation not in _INTERPOLATIONS:
        raise ArgumentError(f"quantile: interpolation {interpolation!r} is not one of {_INTERPOLATIONS}")
    qs = q.numpy() if isinstance(q, Tensor) else np.asarray(q)
    if qs.ndim > 1:
        raise ArgumentError(f"quantile: q is a number or 1-d, not of {qs.ndim} dimensions")
    qs = qs.astype(np.float64)
    if np.isnan(qs).any() or ((qs < 0) | (qs > 1)).any():
        raise ArgumentError(f"quantile: q must lie in [0, 1], not {qs.tolist()}")
    if dim is None:
        if self.size == 0:
            raise ArgumentError("quantile: an empty tensor has no quantile")
        x, d = self.reshape(-1), 0
    else:
        x, d = _along_dim(self, dim, "quantile")
    n = x.shape[d]
    v = ops.sort(x, d, False)[0]
    # the ranks in the tensor's dtype, as PyTorch computes them
    dt = self.dtype.type
    rank = np.atleast_1d(qs).astype(dt) * dt(n - 1)
    lo, hi = np.floor(rank).astype(np.int64), np.ceil(rank).astype(np.int64)
    pick = {"lower": lo, "higher": hi, "nearest": np.round(rank).astype(np.int64)}.get(interpolation)
    dev = self.device
    if pick is not None:
        r = ops.index_select(v, d, tensor(pick, device=dev))
    else:
        below = ops.index_select(v, d, tensor(lo, device=dev))
        above = ops.index_select(v, d, tensor(hi, device=dev))
        w = np.full(rank.shape, 0.5, dt) if interpolation == "midpoint" else rank - np.floor(rank)
        shape = [1] * x.ndim
        shape[d] = len(w)
        r = below.lerp(above, tensor(w.astype(self.dtype).reshape(shape), device=dev))
    r = r.masked_fill(x.isnan().any(d, keepdim=True), float("nan"))
    # q's dimension first, then the others (size 1 at `dim` with keepdim)
    r = r.movedim(d, 0)
    if keepdim and dim is None:
        r = r.reshape((len(rank),) + (1,) * self.ndim)
    elif keepdim and self.ndim:
        r = r.unsqueeze(d + 1)
    return (r[0] if np.ndim(qs) == 0 else r).clone()


# ---- sums that skip NaN, extremes ------------------------------------------

def _nansum(self, dim=None, keepdim=False, *, dtype=None):
    """`nansum(dim=None, keepdim=False, *, dtype=None)`: `sum` with NaN
    counted as 0."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    if x.dtype.kind == "f":
        x = x.masked_fill(x.isnan(), 0)
    return ops.sum(x, dim, keepdim)


def _nanmean(self, dim=None, keepdim=False, *, dtype=None):
    """`nanmean(dim=None, keepdim=False, *, dtype=None)`: the mean of the
    elements that are not NaN (NaN where there is none); floats only."""
    x = self if dtype is None else self.astype(dtype, copy=False)
    if x.dtype.kind != "f":
        raise DTypeError(f"nanmean: float tensors only (PyTorch's), not {x.dtype}")
    nan = x.isnan()
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
        p = getattr(a, product)(b)
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
    method.__doc__ = (f"`{name}({a}, {b}, *, beta=1, alpha=1)`: `beta * self + alpha * {a}.{product}({b})`, "
                      f"the tensor broadcast to the product (not read when `beta` is 0); one dtype.")
    return method

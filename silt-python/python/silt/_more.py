"""Still more of PyTorch's ``torch`` functions and ``Tensor`` methods,
composed from silt's tensor operations, each on its input's device: the
in-place functions of ``torch`` (``silt.exp_(t)`` is ``t.exp_()``,
``IN_PLACE``), the methods of functions silt had only as functions
(``corrcoef``, ``cov``, ``diagflat``, ``histogram``,
``unique_consecutive``), the in-place matrix products (``addmm_``,
``addmv_``, ``addr_``, ``addbmm_``, ``baddbmm_``), the random fills
``geometric_``, ``cauchy_`` and ``log_normal_`` (from ``silt.rand``'s
generator), ``matrix_power`` and ``chain_matmul``, ``gradient`` (NumPy's
and PyTorch's finite differences), the dtype rules ``can_cast`` and
``promote_types``, ``scalar_tensor``, ``fill``, ``frobenius_norm``, and the
complex-number queries and no-ops of real tensors (``isreal``, ``is_conj``,
``is_neg``, ``conj``, ``conj_physical``, ``resolve_conj``, ``resolve_neg``,
``real``): silt has no complex dtypes, so every tensor is real.
The views in place (``unsqueeze_``, ``t_``, ``as_strided_``, ``resize_``,
...) make the tensor itself another view of its own storage
(``Tensor._set_view``).

As in ``_extras``, the functions that are also methods take ``input``
first; ``_attach`` (called by ``_tensor``) puts the methods on the class."""

import builtins
import collections
import math
import operator

import numpy as np

from . import _creation, _functions
from ._silt import ArgumentError, DTypeError, Tensor, default_device, tensor
from ._composed import _random_fill
from ._creation import cat, empty_like, eye
from ._functions import _input, _number_as
from ._extras import _shape_arg
from ._methods import _dim_index, _in_place
from ._operators import _CATEGORY, _is_number, promote

# PyTorch's `torch.NAME_` (2.15's dir(torch)) that are silt.Tensor methods; `relu_` and
# `selu_` are silt.nn.functional's already
IN_PLACE = (
    "abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ atanh_ "
    "ceil_ clamp_ clamp_max_ clamp_min_ clip_ conj_physical_ cos_ cosh_ deg2rad_ erf_ erfc_ exp2_ exp_ "
    "expm1_ fill_ fix_ floor_ frac_ gcd_ i0_ index_put_ lcm_ ldexp_ log10_ log1p_ log2_ log_ logit_ "
    "nan_to_num_ neg_ negative_ rad2deg_ reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ "
    "square_ tan_ tanh_ trunc_ xlogy_ zero_"
).split()

# torch.NAME_copy: the view `NAME` gives, as a new contiguous tensor (PyTorch's functional forms)
COPIES = {
    "alias_copy": "alias", "as_strided_copy": "as_strided", "detach_copy": "detach",
    "diagonal_copy": "diagonal", "expand_copy": "expand", "permute_copy": "permute", "select_copy": "select",
    "slice_copy": "slice", "split_copy": "split", "split_with_sizes_copy": "split_with_sizes",
    "squeeze_copy": "squeeze", "t_copy": "t", "transpose_copy": "transpose", "unbind_copy": "unbind",
    "unfold_copy": "unfold", "unsqueeze_copy": "unsqueeze", "view_copy": "view",
}

__all__ = IN_PLACE + [
    "adjoint", "angle", "can_cast", "chain_matmul", "conj", "conj_physical", "empty_permuted", "empty_strided",
    "fill", "frobenius_norm", "gradient", "is_conj", "is_neg", "isreal", "matrix_power", "nonzero_static",
    "promote_types", "randint_like", "real", "resolve_conj", "resolve_neg", "scalar_tensor",
    "histogramdd", "as_strided_scatter", "as_strided_", "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes",
] + list(COPIES)

_F32 = np.dtype(np.float32)
_builtin_range = builtins.range  # `range` is an argument's name in histogramdd


def _in_place_function(name):
    def function(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}: input is written in place, so it must be a silt.Tensor, "
                            f"not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"`silt.{name}(input, ...)`: `input.{name}(...)` (see `silt.Tensor.{name}`), as "
                        f"PyTorch's `torch.{name}`: `input` (a tensor) written in place and returned.")
    return function


for _name in IN_PLACE:
    globals()[_name] = _in_place_function(_name)
del _name


# ---- methods of silt's functions --------------------------------------------

def _corrcoef(self):
    """`corrcoef()`: `silt.corrcoef(self)`, the correlation coefficients of
    the variables in the rows."""
    return _functions.corrcoef(self)


def _cov(self, *, correction=1, fweights=None, aweights=None):
    """`cov(*, correction=1, fweights=None, aweights=None)`: `silt.cov(self,
    ...)`, the covariance matrix of the variables in the rows."""
    return _functions.cov(self, correction=correction, fweights=fweights, aweights=aweights)


def _diagflat(self, offset=0):
    """`diagflat(offset=0)`: `silt.diagflat(self, offset)`, the elements (read
    as 1-d) on the diagonal `offset` of a new square matrix."""
    return _functions.diagflat(self, offset)


def _histogram(self, bins=100, *, range=None, weight=None, density=False):
    """`histogram(bins=100, *, range=None, weight=None, density=False)`:
    `silt.histogram(self, ...)`, `(hist, bin_edges)` of a float tensor."""
    return _functions.histogram(self, bins, range=range, weight=weight, density=density)


def _unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """`unique_consecutive(return_inverse=False, return_counts=False,
    dim=None)`: `silt.unique_consecutive(self, ...)`, each run of equal
    neighbours kept once (read as 1-d; `dim` is not taken)."""
    return _functions.unique_consecutive(self, return_inverse, return_counts, dim)


# ---- in-place matrix products -----------------------------------------------

def _product_in_place(name, args):
    method = _in_place(name)
    method.__doc__ = (f"`{name}_({args}, *, beta=1, alpha=1)`: `{name}(...)` written into the tensor, "
                      f"as PyTorch's: the product's shape must be the tensor's (a broadcast that would change "
                      f"it is `silt.ArgumentError`), one dtype; returns the tensor.")
    return method


# ---- random fills -----------------------------------------------------------

def _geometric_(self, p, *, generator=None):
    """`geometric_(p)`: the number of Bernoulli trials of success
    probability `p` up to and including the first success (1, 2, ...),
    in the tensor's dtype (integers or floats; a count past an integer
    dtype's largest value saturates there, where PyTorch's wraps); `0 < p <
    1`, as PyTorch's. Drawn on the host by `silt.rand`'s generator
    (`silt.manual_seed`); returns the tensor."""
    if generator is not None:
        raise TypeError("geometric_: silt has one generator (silt.manual_seed), not generator=")
    if self.dtype.kind == "b":
        raise DTypeError("geometric_: a tensor of numbers, not bool")
    p = float(p)
    if not 0 < p < 1:
        raise ArgumentError(f"geometric_: p must lie in (0, 1), not {p}")
    values = _creation._generator.geometric(p, tuple(self.shape))
    if self.dtype.kind in "iu":
        values = np.minimum(values, np.iinfo(self.dtype).max)
    return self.copy_(tensor(values.astype(self.dtype), device=self.device))


def _cauchy(g, shape, dt, median=0.0, sigma=1.0):
    if not sigma > 0:
        raise ArgumentError(f"cauchy_: sigma must be positive, not {sigma}")
    return median + sigma * g.standard_cauchy(shape)


def _log_normal(g, shape, dt, mean=1.0, std=2.0):
    if not std > 0:
        raise ArgumentError(f"log_normal_: std must be positive, not {std}")
    return g.lognormal(mean, std, shape)


# ---- matrix powers and chains -----------------------------------------------

def matrix_power(input, n):
    """`matrix_power(n)` (and `torch.matrix_power(input, n)`,
    `silt.linalg.matrix_power`): the square matrices in the last two
    dimensions (any batch dimensions before them) to the power `n`, by
    repeated squaring with `matmul`; `n = 0` gives the identity of the
    input's dtype and shape, `n = 1` a copy, and a negative `n` the power
    `-n` of the inverse (`silt.linalg.inv`, float matrices only; a singular
    one raises `silt.ArgumentError`), as PyTorch's."""
    x = _input(input, ())
    if isinstance(n, (bool, np.bool_)):
        raise TypeError("matrix_power: n must be an int, not bool")
    n = operator.index(n)
    if x.ndim < 2:
        raise ArgumentError(f"matrix_power: the input needs at least 2 dimensions, not {x.ndim}")
    if x.shape[-1] != x.shape[-2]:
        raise ArgumentError(f"matrix_power: the input must be square matrices, not {x.shape[-2]} by "
                            f"{x.shape[-1]}")
    if n < 0:
        from .linalg import inv
        x, n = inv(x), -n
        if n == 1:
            return x
    if n == 0:
        return eye(x.shape[-1], dtype=x.dtype, device=x.device).broadcast_to(tuple(x.shape)).clone()
    result, base = None, x
    while True:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if not n:
            return result.clone() if result is x else result
        base = base @ base


def chain_matmul(*matrices):
    """`torch.chain_matmul(*matrices)`: the product of 2-d matrices of one
    dtype (each one's columns the next one's rows), multiplied by `mm` in
    the order of fewest multiplications, as PyTorch's (`multi_dot`); one
    matrix gives a copy. PyTorch has deprecated it for
    `torch.linalg.multi_dot`."""
    if not matrices:
        raise ArgumentError("chain_matmul: expects one or more matrices")
    for i, m in enumerate(matrices):
        if not isinstance(m, Tensor):
            raise TypeError(f"chain_matmul: matrix {i} is a {type(m).__name__}, not a silt.Tensor")
        if m.ndim != 2:
            raise ArgumentError(f"chain_matmul: matrix {i} has {m.ndim} dimensions, not 2")
        if i and matrices[i - 1].shape[1] != m.shape[0]:
            raise ArgumentError(f"chain_matmul: matrices {i - 1} and {i} of shapes "
                                f"{tuple(matrices[i - 1].shape)} and {tuple(m.shape)} do not multiply")
    if len(matrices) == 1:
        return matrices[0].clone()
    # the cheapest split of each run i..j of the chain, shorter runs first
    sizes = [matrices[0].shape[0]] + [m.shape[1] for m in matrices]
    cost, split = {(i, i): 0 for i in range(len(matrices))}, {}
    for length in range(1, len(matrices)):
        for i in range(len(matrices) - length):
            j = i + length
            cost[i, j], split[i, j] = min(
                (cost[i, k] + cost[k + 1, j] + sizes[i] * sizes[k + 1] * sizes[j + 1], k) for k in range(i, j))

    def product(i, j):
        return matrices[i] if i == j else product(i, split[i, j]).mm(product(split[i, j] + 1, j))

    return product(0, len(matrices) - 1)


# ---- gradient ---------------------------------------------------------------

def _gradient_along(y, d, h, edge_order):
    """The derivative of `y` along `d` (a float tensor, size at least
    `edge_order + 1`): central differences inside, one-sided ones of
    `edge_order` at the two ends; `h` a number (even steps) or the 1-d
    coordinates (a tensor of `y`'s dtype and device)."""
    n = y.shape[d]

    def at(start, length):
        return y.narrow(d, start, length)

    if isinstance(h, Tensor):
        shape = [1] * y.ndim
        shape[d] = n - 1
        dx = h.diff().reshape(tuple(shape))
        a, b = dx.narrow(d, 0, n - 2), dx.narrow(d, 1, n - 2)  # the steps before and after each point
        inner = (-b / (a * (a + b))) * at(0, n - 2) + ((b - a) / (a * b)) * at(1, n - 2) \
            + (a / (b * (a + b))) * at(2, n - 2)
        if edge_order == 1:
            first = (at(1, 1) - at(0, 1)) / dx.narrow(d, 0, 1)
            last = (at(n - 1, 1) - at(n - 2, 1)) / dx.narrow(d, n - 2, 1)
        else:
            a, b = dx.narrow(d, 0, 1), dx.narrow(d, 1, 1)
            first = (-(2 * a + b) / (a * (a + b))) * at(0, 1) + ((a + b) / (a * b)) * at(1, 1) \
                - (a / (b * (a + b))) * at(2, 1)
            a, b = dx.narrow(d, n - 3, 1), dx.narrow(d, n - 2, 1)
            last = (b / (a * (a + b))) * at(n - 3, 1) - ((a + b) / (a * b)) * at(n - 2, 1) \
                + ((2 * b + a) / (b * (a + b))) * at(n - 1, 1)
    else:
        inner = (at(2, n - 2) - at(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (at(1, 1) - at(0, 1)) / h
            last = (at(n - 1, 1) - at(n - 2, 1)) / h
        else:
            first = (at(0, 1) * -1.5 + at(1, 1) * 2 - at(2, 1) * 0.5) / h
            last = (at(n - 3, 1) * 0.5 - at(n - 2, 1) * 2 + at(n - 1, 1) * 1.5) / h
    return cat([first, inner, last], d)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """`torch.gradient(input, *, spacing=1, dim=None, edge_order=1)`: the
    derivative of `input` along each dimension of `dim` (an int or a
    sequence; all by default), a tuple of one tensor each, as PyTorch's and
    NumPy's `gradient`: second-order central differences inside (for
    uneven steps, the weighted form), first- or second-order one-sided ones
    at the ends (`edge_order` 1 or 2; each dimension needs `edge_order + 1`
    points). `spacing` is a number (the step of every dimension), a
    sequence of numbers (one step per dimension) or a sequence of 1-d
    tensors (the coordinates along each dimension). Floats keep their
    dtype (promoted with the coordinates'; float16 computed in float32 and
    rounded once), integers give float32; a 0-d input gives `()`."""
    x = _input(input, ())
    if isinstance(edge_order, (bool, np.bool_)) or edge_order not in (1, 2):
        raise ArgumentError(f"gradient: edge_order must be 1 or 2, not {edge_order!r}")
    if x.dtype.kind == "b":
        raise DTypeError("gradient: a tensor of numbers, not bool")
    if dim is None:
        dims = list(range(x.ndim))
    else:
        dims = [dim] if isinstance(dim, (int, np.integer)) else list(dim)
        if x.ndim == 0 and dims:
            raise ArgumentError("gradient: a 0-d tensor has no dimension to differentiate")
        dims = [_dim_index(operator.index(d), x.ndim, "gradient") for d in dims]
        if len(set(dims)) != len(dims):
            raise ArgumentError(f"gradient: a dimension appears twice in {dim}")
    if isinstance(spacing, Tensor) and spacing.ndim == 0:
        spacing = spacing.item()
    if _is_number(spacing):
        steps = [spacing] * len(dims)
    else:
        steps = list(spacing)
        if len(steps) != len(dims):
            raise ArgumentError(f"gradient: spacing has {len(steps)} elements for {len(dims)} dimensions "
                                f"(give a number, or one element per dimension)")
        numbers = [_is_number(s) for s in steps]
        if any(numbers) and not all(numbers):
            raise TypeError("gradient: spacing is a number, a sequence of numbers or a sequence of tensors")
    out = []
    for d, h in zip(dims, steps):
        n = x.shape[d]
        if n < edge_order + 1:
            raise ArgumentError(f"gradient: dimension {d} has {n} points; edge_order={edge_order} needs at "
                                f"least {edge_order + 1}")
        rd = x.dtype if x.dtype.kind == "f" else _F32
        if not _is_number(h):
            h = h if isinstance(h, Tensor) else tensor(np.asarray(h), device=x.device)
            if h.ndim != 1 or h.shape[0] != n:
                raise ArgumentError(f"gradient: the coordinates of dimension {d} must be 1-d of {n} "
                                    f"points, not of shape {tuple(h.shape)}")
            rd = promote(np.empty(0, rd), h)
            rd = rd if rd.kind == "f" else _F32
        wide = _F32 if rd == np.float16 else rd
        if isinstance(h, Tensor):
            h = (h if h.device == x.device else h.to(x.device)).astype(wide, copy=False)
        g = _gradient_along(x.astype(wide, copy=False), d, h, edge_order)
        out.append(g.astype(rd, copy=False))
    return tuple(out)


# ---- dtypes, scalars, fills, norms ------------------------------------------

def _silt_dtype(dtype, op):
    dt = np.dtype(dtype)
    if dt.kind not in _CATEGORY:
        raise DTypeError(f"{op}: silt has no dtype {dt}")
    return dt


def can_cast(from_, to):
    """`torch.can_cast(from_, to)`: whether PyTorch's casting rule lets a
    value of `from_` become `to` (dtypes: `numpy.float32`, `'int8'`, ...):
    within its category or up (bool < integer < float), never down, so
    bool casts to anything, an integer to any integer or float, a float
    only to a float."""
    return _CATEGORY[_silt_dtype(from_, "can_cast").kind] <= _CATEGORY[_silt_dtype(to, "can_cast").kind]


def promote_types(type1, type2):
    """`torch.promote_types(type1, type2)`: the dtype both promote to, by
    the rules of silt's operators (`silt.result_type` of two tensors): the
    higher category wins (bool < integer < float), else the wider (`uint8`
    with `int8` is `int16`). PyTorch refuses `uint16`, `uint32` and
    `uint64` beside another integer dtype; silt gives NumPy's (`uint16` with
    `int8` is `int32`, `uint64` with `int64` is `float64`)."""
    a, b = (np.empty(0, _silt_dtype(t, "promote_types")) for t in (type1, type2))
    return promote(a, b)


def scalar_tensor(s, *, dtype=None, device=None):
    """`torch.scalar_tensor(s, *, dtype=float32, device=None)`: a 0-d tensor
    of the number `s` (or of a 0-d tensor's value) in `dtype` (float32 by
    default: PyTorch's default dtype; a float into an integer dtype is
    truncated), on `device` (`silt.default_device()` by default)."""
    if isinstance(s, Tensor):
        if s.ndim != 0:
            raise TypeError(f"scalar_tensor: s must be a number, not a tensor of shape {tuple(s.shape)}")
        s = s.item()
    if not _is_number(s):
        raise TypeError(f"scalar_tensor: s must be a number, not {type(s).__name__}")
    dt = _silt_dtype(_F32 if dtype is None else dtype, "scalar_tensor")
    return tensor(_number_as(s, dt), device=default_device() if device is None else device)


def fill(input, value):
    """`torch.fill(input, value)`: a new tensor of `input`'s shape, dtype and
    device with every element `value` (a number or a 0-d tensor, as
    `fill_` converts it: a float into an integer truncates, a value out of
    the dtype's range is `silt.DTypeError` where PyTorch's wraps a
    negative one into an unsigned dtype)."""
    x = _input(input, ())
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ArgumentError(f"fill: value must be a number or a 0-d tensor, not of shape {tuple(value.shape)}")
        value = value.item()
    return empty_like(x).fill_(value)


def frobenius_norm(input, dim=(-2, -1), keepdim=False):
    """`torch.frobenius_norm(input, dim, keepdim=False)`: the square root of
    the sum of the squares over `dim` (one or two dimensions; `()` is every
    dimension), `norm(2, dim, keepdim)`, of a float tensor. PyTorch
    requires `dim`; silt takes the last two by default (the matrices')."""
    x = _input(input, ())
    if x.dtype.kind != "f":
        raise DTypeError(f"frobenius_norm: a float tensor, not {x.dtype}")
    dims = [dim] if isinstance(dim, (int, np.integer)) else list(dim)
    if len(dims) > 2:
        raise ArgumentError(f"frobenius_norm: one or two dimensions, not {len(dims)}")
    dims = [_dim_index(operator.index(d), x.ndim, "frobenius_norm") for d in dims]
    if len(set(dims)) != len(dims):
        raise ArgumentError(f"frobenius_norm: a dimension appears twice in {dim}")
    return x.norm(2, dim=tuple(dims) if dims else None, keepdim=keepdim)


# ---- complex-number queries and no-ops (silt's tensors are real) -------------

def isreal(input):
    """`isreal()` (and `torch.isreal(input)`): a bool tensor of the input's
    shape on its device, True everywhere: silt's dtypes are all real."""
    x = _input(input, ())
    return x.new_ones(tuple(x.shape), dtype=np.bool_)


def is_conj(input):
    """`is_conj()` (and `torch.is_conj(input)`): False, as PyTorch's for a
    real tensor (silt has no conjugate views)."""
    _input(input, ())
    return False


def is_neg(input):
    """`is_neg()` (and `torch.is_neg(input)`): False, as PyTorch's for a
    real tensor (silt has no negative views)."""
    _input(input, ())
    return False


def conj(input):
    """`conj()` (and `torch.conj(input)`): the complex conjugate, which for
    silt's real tensors is the tensor itself, as PyTorch's."""
    return _input(input, ())


def conj_physical(input):
    """`conj_physical()` (and `torch.conj_physical(input)`): the conjugate
    computed into memory; for silt's real tensors the tensor itself, as
    PyTorch's returns a real input (no copy)."""
    return _input(input, ())


def _conj_physical_(self):
    """`conj_physical_()`: conjugates in place, which leaves silt's real
    tensors as they are; returns the tensor."""
    return self


def resolve_conj(input):
    """`resolve_conj()` (and `torch.resolve_conj(input)`): the tensor with a
    conjugate view materialised; silt's real tensors are returned
    themselves, as PyTorch's."""
    return _input(input, ())


def resolve_neg(input):
    """`resolve_neg()` (and `torch.resolve_neg(input)`): the tensor with a
    negative view materialised; silt's real tensors are returned
    themselves, as PyTorch's."""
    return _input(input, ())


def real(input):
    """`torch.real(input)` (and the property `Tensor.real`): the real part,
    which for silt's real dtypes is the tensor itself, as PyTorch's."""
    return _input(input, ())


# ---- the copying forms of views, and other names ------------------------------

def _slice(t, dim=0, start=None, end=None, step=1):
    """`torch.slice`'s view: `t[..., start:end:step, ...]` along `dim`."""
    d = _dim_index(operator.index(dim), t.ndim, "slice_copy")
    return t[(slice(None),) * d + (slice(start, end, step),)]


def _copy_function(name, view):
    def function(input, *args, **kwargs):
        t = _input(input, ())
        if view == "alias":
            r = t
        elif view == "slice":
            r = _slice(t, *args, **kwargs)
        else:
            r = getattr(t, view)(*args, **kwargs)
        if isinstance(r, (tuple, list)):
            return [v.clone() for v in r]
        return r.clone()

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"`silt.{name}(input, ...)`: `torch.{name}`, the same as `{view}` (see "
                        f"`silt.Tensor.{'__getitem__' if view in ('alias', 'slice') else view}`) but every result "
                        f"a new contiguous tensor (a list for several), not a view.")
    return function


for _name, _view in COPIES.items():
    globals()[_name] = _copy_function(_name, _view)
del _name, _view


def adjoint(input):
    """`adjoint()` (and `torch.adjoint(input)`): the conjugate transpose of
    the last two dimensions, a view; silt's dtypes are real, so `mT`. At
    least 2 dimensions."""
    t = _input(input, ())
    if t.ndim < 2:
        raise ArgumentError(f"adjoint: tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                            f"{t.ndim}-D tensor.")
    return t.mT


def angle(input):
    """`angle()` (and `torch.angle(input)`): the argument of each element as
    a complex number, which for real numbers is `pi` where negative, 0
    elsewhere (-0.0 too), NaN where NaN; floats keep their dtype, integers
    and bool give float32, as PyTorch's."""
    t = _input(input, ())
    dt = t.dtype if t.dtype.kind == "f" else _F32
    x = t if t.dtype.kind == "f" else t.astype(_F32)
    r = _functions.where(x < 0, x.new_full((), np.pi, dtype=dt), x.new_zeros((), dtype=dt))
    return _functions.where(x.isnan(), x, r) if t.dtype.kind == "f" else r


def nonzero_static(input, *, size, fill_value=-1):
    """`nonzero_static(*, size, fill_value=-1)` (and
    `torch.nonzero_static(input, *, size, fill_value=-1)`): `nonzero()`'s
    indices (int64 `[size, input.ndim]`) cut to `size` rows or padded with
    rows of `fill_value`, as PyTorch's."""
    t = _input(input, ())
    size = operator.index(size)
    if size < 0:
        raise ArgumentError(f"nonzero_static: 'size' must be an non-negative integer, but got {size}")
    nz = t.nonzero()
    k, d = nz.shape
    if k >= size:
        return nz[:size].clone()
    pad = _creation.full((size - k, d), fill_value, dtype=np.int64, device=nz.device)
    return cat([nz, pad], 0)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, generator=None):
    """`torch.randint_like(input, high)` or `(input, low, high, *,
    dtype=None, device=None)`: `silt.randint` of `input`'s shape, its dtype
    and device unless given (integers in `[low, high)`, drawn on the
    host)."""
    t = _input(input, ())
    if high is None:
        low, high = 0, low
    return _creation.randint(low, high, tuple(t.shape), dtype=t.dtype if dtype is None else dtype,
                             device=t.device if device is None else device)


def _range(start=0, end=None, step=1, *, dtype=None, device=None):
    """`torch.range(start=0, end, step=1, *, dtype=None, device=None)`,
    PyTorch's deprecated range that includes `end`: `start + i * step` for
    `i` from 0 while within `[start, end]` (computed in float64, then
    `dtype`: float32 by default, as PyTorch's default dtype). A zero step or
    one of the wrong sign raises `silt.ArgumentError`. `silt.range`, a
    module attribute not in `__all__` (it would shadow the builtin)."""
    if end is None:
        start, end = 0, start
    dt = _F32 if dtype is None else np.dtype(dtype)
    if dt.kind in "iub":
        # as PyTorch's: the bounds and the step in the dtype's integers first,
        # truncated toward zero (a step of 0.5 becomes 0 and raises)
        start, end, step = (_range_int(v) for v in (start, end, step))
    if step == 0:
        raise ArgumentError("range: step must be nonzero")
    if (end - start) * step < 0:
        raise ArgumentError("range: upper bound and larger bound inconsistent with step sign")
    if dt.kind in "iub":
        # exact in integers: start + i * step up to and with end
        return _creation.arange(start, end + (1 if step > 0 else -1), step, dtype=np.int64,
                                device=device).astype(dt)
    n = int(np.floor((end - start) / step)) + 1
    i = _creation.arange(n, dtype=np.float64, device=device)
    return (i * step + start).astype(dt)


def _range_int(v):
    """A bound or step of an integer `range`, truncated toward zero."""
    try:
        return int(v)
    except (OverflowError, ValueError, TypeError) as e:
        raise ArgumentError(f"range: {v!r} is not a number an integer range can take") from e


def empty_strided(size, stride, *, dtype=None, device=None):
    """`torch.empty_strided(size, stride, *, dtype=None, device=None)`: a
    new tensor of that shape whose elements are `stride` apart in a buffer
    of their extent (float32 by default; silt zeroes it)."""
    shape, strides = tuple(size), tuple(stride)
    if len(shape) != len(strides):
        raise ArgumentError(f"empty_strided: mismatch in length of strides and shape ({len(strides)} and "
                            f"{len(shape)})")
    if any(s < 0 for s in shape) or any(s < 0 for s in strides):
        raise ArgumentError(f"empty_strided: negative sizes or strides in {shape}, {strides}")
    extent = 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    base = _creation.empty(extent, dtype=_F32 if dtype is None else dtype, device=device)
    return base.as_strided(shape, strides)


def empty_permuted(size, physical_layout, *, dtype=None, device=None):
    """`torch.empty_permuted(size, physical_layout, *, dtype=None,
    device=None)`: a new tensor of shape `size` laid out in memory in the
    order of the dimensions `physical_layout` (outermost first), as
    PyTorch's: allocated in that order and permuted back (float32 by
    default; silt zeroes it)."""
    shape, layout = tuple(size), tuple(physical_layout)
    if sorted(layout) != list(range(len(shape))):
        raise ArgumentError(f"empty_permuted: physical_layout {layout} is not a permutation of the {len(shape)} "
                            f"dimensions")
    base = _creation.empty(*[shape[d] for d in layout], dtype=_F32 if dtype is None else dtype, device=device)
    return base.permute(*np.argsort(layout).tolist())


# ---- attaching -------------------------------------------------------------

# ---- in-place views ----------------------------------------------------------

def _view_in_place(name, view, doc):
    """A method that makes the tensor itself the view `view(self, ...)` gives
    (of its own storage: `Tensor._set_view` checks) and returns it."""
    def method(self, *args, **kwargs):
        return self._set_view(view(self, *args, **kwargs))
    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
    return method


def _resize_(self, *sizes):
    """`resize_(*sizes)`: the tensor itself made a contiguous view of shape
    `sizes` from its first element, as PyTorch's, where its storage holds
    that many elements from there; a tensor of no elements takes a new
    storage (zeroed) of any size. silt's storages do not grow: past its
    storage, a tensor with elements raises `ArgumentError`, unchanged."""
    shape = _shape_arg(sizes[0] if len(sizes) == 1 and not isinstance(sizes[0], (int, np.integer)) else sizes,
                       "resize_")
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    try:
        view = self.as_strided(shape, strides[::-1])
    except ArgumentError as e:
        if self.numel() == 0:
            return self._set_view(_creation.zeros(shape, dtype=self.dtype, device=self.device))
        raise ArgumentError(f"resize_: {shape} takes {math.prod(shape)} elements from the storage's element "
                            f"{self.offset}, more than the tensor's storage holds; silt's storages do not grow "
                            f"(make a new tensor: silt.empty({', '.join(map(str, shape))}))") from e
    return self._set_view(view)


def _resize_as_(self, other):
    """`resize_as_(other)`: `resize_(other.shape)`."""
    return _resize_(self, tuple(other.shape))


def _new_empty_strided(self, size, stride, *, dtype=None, device=None):
    """`new_empty_strided(size, stride, *, dtype=None, device=None)`:
    `silt.empty_strided` with this tensor's dtype and device unless given
    (silt zeroes it)."""
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype,
                         device=self.device if device is None else device)


# ---- histogramdd, scatter of a strided view, PyTorch's unsafe splits ----------------

HistogramddResult = collections.namedtuple("histogramdd", ["hist", "bin_edges"])
HistogramddResult.__doc__ = "`(hist, bin_edges)` of `histogramdd`, as PyTorch's `torch.return_types.histogramdd`."


def histogramdd(input, bins, *, range=None, weight=None, density=False):
    """`torch.histogramdd(input, bins, *, range=None, weight=None,
    density=False)`: `(hist, bin_edges)` of the points `input` (a float
    tensor `[..., D]`, a point a row): `bins` an int (each dimension), `D`
    ints, or `D` 1-d tensors of edges; `range` `D` pairs flat (`[lo0, hi0,
    lo1, hi1, ...]`; each dimension's extremes by default, which raise
    where not finite, as PyTorch's); each bin
    `[a, b)`, the last `[a, b]`, as `histogram`'s; a point outside any
    dimension's edges, or holding NaN, counts nowhere; `weight` (`input`'s
    shape without its last dimension) sums weights; `density` divides by
    the total and each bin's volume. `hist` is `[b0, b1, ...]`, `bin_edges`
    a tuple of `D` tensors. On the tensor's device (`searchsorted` per
    dimension, then one `bincount`)."""
    from ._functions import _bin_of, _histogram_edges
    op = "histogramdd"
    x = _input(input, ())
    if x.dtype.kind != "f":
        raise DTypeError(f"{op}: float tensors only, not {x.dtype}")
    if x.ndim < 2:
        raise ArgumentError(f"{op}: input tensor should have at least 2 dimensions (points of D coordinates in "
                            f"its last), not {x.ndim}")
    D = x.shape[-1]
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        bins = [int(bins)] * D
    bins = list(bins)
    if len(bins) != D:
        raise ArgumentError(f"{op}: bins gives {len(bins)} dimensions, the points have {D}")
    if range is not None:
        range = [float(v) for v in range]
        if len(range) != 2 * D:
            raise ArgumentError(f"{op}: range takes 2 values a dimension ({2 * D}), not {len(range)}")
    pts = x.reshape(-1, D)
    edges, sizes = [], []
    flat = inside = None
    for d in _builtin_range(D):
        col = pts[:, d].contiguous()
        e = _histogram_edges(col, bins[d], None if range is None else range[2 * d:2 * d + 2], op)
        n = e.numel() - 1
        at = _bin_of(col, e)
        ok = at < n
        inside = ok if inside is None else inside & ok
        at = at.where(ok, 0)
        flat = at if flat is None else flat * n + at
        edges.append(e)
        sizes.append(n)
    total = math.prod(sizes)
    if flat is None:  # no dimensions
        flat = pts.new_zeros((pts.shape[0],), dtype=np.int64)
        inside = flat == 0
    flat = flat.where(inside, total)
    w = None
    if weight is not None:
        w = weight if isinstance(weight, Tensor) else tensor(np.asarray(weight), device=x.device)
        if tuple(w.shape) != tuple(x.shape[:-1]):
            raise ArgumentError(f"{op}: weight must have the shape {tuple(x.shape[:-1])} of the points, not "
                                f"{tuple(w.shape)}")
        w = w.astype(x.dtype).reshape(-1)
    hist = _functions.ops.bincount(flat, w, total + 1)[:total].astype(x.dtype).reshape(tuple(sizes))
    if density:
        volume = None
        for d, e in enumerate(edges):
            width = (e[1:] - e[:-1]).reshape(tuple(-1 if i == d else 1 for i in _builtin_range(D)))
            volume = width if volume is None else volume * width
        hist = hist / (hist.sum() * volume)
    return HistogramddResult(hist, tuple(edges))


def _preserved_clone(x):
    """A copy of `x` in new storage as PyTorch's `clone()` makes it
    (`preserve_format`): a tensor whose elements are dense (its strides a
    permutation of a contiguous layout's) keeps that order of dimensions,
    any other is row-major."""
    strides = x.stride()
    order = sorted(_builtin_range(x.ndim), key=lambda d: -strides[d])
    step, dense = 1, True
    for d in reversed(order):
        if x.shape[d] != 1 and strides[d] != step:
            dense = False
        step *= x.shape[d]
    if not dense or order == list(_builtin_range(x.ndim)):
        return x.contiguous().clone()
    inverse = sorted(_builtin_range(x.ndim), key=order.__getitem__)
    return x.permute(order).clone().permute(inverse)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """`torch.as_strided_scatter(input, src, size, stride,
    storage_offset=None)`: a copy of `input` (in new storage, laid out as
    PyTorch's `clone` lays it out: in `input`'s order of dimensions where
    its elements are dense, else row-major) with the view `as_strided(size,
    stride, storage_offset)` of that storage (offset 0 by default) written
    with `src` (of that view's shape exactly, converted to `input`'s
    dtype)."""
    x = _input(input, (src,))
    out = _preserved_clone(x)
    view = out.as_strided(size, stride, 0 if storage_offset is None else storage_offset)
    s = src if isinstance(src, Tensor) else tensor(np.asarray(src), device=out.device)
    if tuple(s.shape) != tuple(view.shape):
        raise ArgumentError(f"as_strided_scatter: src must have the view's shape {tuple(view.shape)}, not "
                            f"{tuple(s.shape)}")
    view.copy_(s.astype(out.dtype))
    return out


def as_strided_(input, size, stride, storage_offset=None):
    """`torch.as_strided_(input, size, stride, storage_offset=None)`:
    `input.as_strided_(...)`, the tensor itself made that view of its
    storage."""
    if not isinstance(input, Tensor):
        raise TypeError(f"as_strided_: input is changed in place, so it must be a silt.Tensor, not "
                        f"{type(input).__name__}")
    return input.as_strided_(size, stride, storage_offset)


def unsafe_chunk(input, chunks, dim=0):
    """`torch.unsafe_chunk(input, chunks, dim=0)`: `chunk` (PyTorch's
    unsafe forms differ only in autograd's checks, which silt has not)."""
    return _input(input, ()).chunk(chunks, dim)


def unsafe_split(input, split_size_or_sections, dim=0):
    """`torch.unsafe_split(input, split_size_or_sections, dim=0)`: `split`."""
    return _input(input, ()).split(split_size_or_sections, dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """`torch.unsafe_split_with_sizes(input, split_sizes, dim=0)`:
    `split_with_sizes`."""
    from ._extras import split_with_sizes
    return split_with_sizes(input, split_sizes, dim)


def _attach(T):
    """The methods on `silt.Tensor` (called by `_tensor`)."""
    for fn in (_corrcoef, _cov, _diagflat, _histogram, _unique_consecutive, _geometric_, _conj_physical_):
        fn.__name__ = fn.__qualname__ = fn.__name__[1:]
        setattr(T, fn.__name__, fn)
    for name, args in (("addmm", "mat1, mat2"), ("addmv", "mat, vec"), ("addr", "vec1, vec2"),
                       ("addbmm", "batch1, batch2"), ("baddbmm", "batch1, batch2")):
        setattr(T, f"{name}_", _product_in_place(name, args))
    T.cauchy_ = _random_fill("cauchy_", _cauchy, "`cauchy_(median=0, sigma=1)`: Cauchy's distribution of that "
                             "median and scale (half the interquartile range); `sigma > 0`, a float tensor.")
    T.log_normal_ = _random_fill("log_normal_", _log_normal, "`log_normal_(mean=1, std=2)`: `exp` of a normal "
                                 "number of that `mean` and `std` (the logarithm's); `std > 0`, a float tensor.")
    for fn in (matrix_power, isreal, is_conj, is_neg, conj, conj_physical, resolve_conj, resolve_neg, adjoint, angle,
               nonzero_static):
        setattr(T, fn.__name__, fn)
    for name, view, doc in (
            ("unsqueeze_", lambda self, dim: self.unsqueeze(dim),
             "`unsqueeze_(dim)`: the tensor itself made `unsqueeze(dim)`, as PyTorch's."),
            ("squeeze_", lambda self, dim=None: self.squeeze(dim),
             "`squeeze_(dim=None)`: the tensor itself made `squeeze(dim)`, as PyTorch's."),
            ("t_", lambda self: self.t(), "`t_()`: the tensor itself made `t()`, as PyTorch's."),
            ("transpose_", lambda self, dim0, dim1: self.transpose(dim0, dim1),
             "`transpose_(dim0, dim1)`: the tensor itself made `transpose(dim0, dim1)`, as PyTorch's."),
            ("swapaxes_", lambda self, axis0, axis1: self.transpose(axis0, axis1),
             "`swapaxes_(axis0, axis1)`: `transpose_(axis0, axis1)`."),
            ("swapdims_", lambda self, dim0, dim1: self.transpose(dim0, dim1),
             "`swapdims_(dim0, dim1)`: `transpose_(dim0, dim1)`."),
            ("as_strided_", lambda self, size, stride, storage_offset=None: self.as_strided(size, stride,
                                                                                            storage_offset),
             "`as_strided_(size, stride, storage_offset=None)`: the tensor itself made `as_strided(...)` of its "
             "storage, as PyTorch's.")):
        setattr(T, name, _view_in_place(name, view, doc))
    for fn in (unsafe_chunk, unsafe_split, unsafe_split_with_sizes, as_strided_scatter):
        setattr(T, fn.__name__, fn)
    for fn in (_resize_, _resize_as_, _new_empty_strided):
        fn.__name__ = fn.__qualname__ = fn.__name__[1:]
        setattr(T, fn.__name__, fn)
    T.real = property(real, doc="`real`: the real part, the tensor itself (silt's dtypes are real), as PyTorch's.")

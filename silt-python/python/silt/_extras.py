"""More of PyTorch's ``torch`` functions and ``Tensor`` methods, composed from
silt's tensor operations, each on its input's device: the window functions
(``hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window``, PyTorch's formulas in its order of
operations), NumPy's arrays as tensors (``from_numpy``, ``as_tensor``,
``asarray``: the host shares the array's memory where silt can view it),
``rsub``, ``unravel_index``, ``combinations``, the scatter forms of views
(``diagonal_scatter``, ``select_scatter``, ``slice_scatter``: a copy of the
input with the view written), ``narrow_copy``, ``split_with_sizes``,
``renorm``, ``frexp`` and ``nextafter`` (on the bits of the floats, viewed as
integers), ``ldexp`` as a method and ``is_signed`` as a function.

The functions that are also methods take ``input`` first, so that one
function is both ``silt.NAME(input, ...)`` and ``Tensor.NAME``; ``_attach``
(called by ``_tensor``) puts the methods on the class."""

import collections
import itertools
import math
import operator

import numpy as np

from ._silt import ArgumentError, Device, DTypeError, IndexOutOfRangeError, Tensor, default_device, tensor
from ._functions import _input, ldexp
from ._methods import _dim_index, _in_place
from ._operators import promote

__all__ = [
    "MantissaExponent",
    "as_tensor", "asarray", "bartlett_window", "blackman_window", "combinations", "diagonal_scatter",
    "frexp", "from_numpy", "hamming_window", "hann_window", "is_signed", "kaiser_window", "narrow_copy",
    "nextafter", "renorm", "rsub", "select_scatter", "slice_scatter", "split_with_sizes", "unravel_index",
]

MantissaExponent = collections.namedtuple("MantissaExponent", ["mantissa", "exponent"])
MantissaExponent.__doc__ = ("The mantissa (the input's dtype, magnitude in [0.5, 1)) and the exponent (int32) "
                            "of `frexp`, as PyTorch's `torch.return_types.frexp`.")

_F32 = np.dtype(np.float32)


# ---- window functions -------------------------------------------------------

def _window_args(name, window_length, dtype):
    """The checked length and dtype of a window: an integer of at least 0,
    a float dtype (`float32` by default); `silt.DTypeError` else, as
    PyTorch's."""
    if isinstance(window_length, (bool, np.bool_)) or isinstance(window_length, float):
        raise TypeError(f"{name}: window_length must be an int, not {type(window_length).__name__}")
    n = operator.index(window_length)
    if n < 0:
        raise ArgumentError(f"{name}: window_length must be at least 0, not {n}")
    dt = _F32 if dtype is None else np.dtype(dtype)
    if dt.kind != "f":
        raise DTypeError(f"{name}: a floating point dtype, not {dt}")
    return n, dt


def _window(name, window_length, periodic, dtype, device, body):
    """PyTorch's frame of its windows: empty for a length of 0, `[1]` for 1;
    else `body(k, m)` of `k = arange(m)` (`m` one longer where `periodic`,
    the last element then dropped), computed in the dtype (`float16` in
    `float32`, rounded once)."""
    n, dt = _window_args(name, window_length, dtype)
    device = default_device() if device is None else device
    if n <= 1:
        return tensor(np.ones(n, dt), device=device)
    m = n + 1 if periodic else n
    wide = _F32 if dt == np.float16 else dt
    k = tensor(np.arange(m, dtype=wide), device=device)
    w = body(k, m)
    if periodic:
        w = w[:n]
    return w.astype(dt, copy=False).contiguous()


def hann_window(window_length, periodic=True, *, dtype=None, device=None):
    """`torch.hann_window(window_length, periodic=True, *, dtype=None,
    device=None)`: `0.5 - 0.5 cos(2 pi k / (N - 1))`, `hamming_window` with
    `alpha = beta = 0.5`, as PyTorch's (`N` is one longer where `periodic`,
    for spectra: the window of `N + 1` without its last element). Lengths 0
    and 1 give `[]` and `[1.]`; `dtype` a float dtype, `float32` by default."""
    return _hamming("hann_window", window_length, periodic, 0.5, 0.5, dtype, device)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, device=None):
    """`torch.hamming_window(window_length, periodic=True, alpha=0.54,
    beta=0.46, *, dtype=None, device=None)`: `alpha - beta cos(2 pi k / (N -
    1))`, computed as PyTorch's (`k` times the step, `cos`, times `-beta`,
    plus `alpha`); `periodic`, lengths 0 and 1 and `dtype` as
    `hann_window`'s."""
    return _hamming("hamming_window", window_length, periodic, alpha, beta, dtype, device)


def _hamming(name, window_length, periodic, alpha, beta, dtype, device):
    alpha, beta = float(alpha), float(beta)
    return _window(name, window_length, periodic, dtype, device,
                   lambda k, m: (k * (2 * math.pi / (m - 1))).cos() * -beta + alpha)


def blackman_window(window_length, periodic=True, *, dtype=None, device=None):
    """`torch.blackman_window(window_length, periodic=True, *, dtype=None,
    device=None)`: `0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N -
    1))`, in PyTorch's order of operations; `periodic`, lengths 0 and 1 and
    `dtype` as `hann_window`'s."""
    def body(k, m):
        x = k * (math.pi / (m - 1))
        return (x * 4).cos() * 0.08 - (x * 2).cos() * 0.5 + 0.42

    return _window("blackman_window", window_length, periodic, dtype, device, body)


def bartlett_window(window_length, periodic=True, *, dtype=None, device=None):
    """`torch.bartlett_window(window_length, periodic=True, *, dtype=None,
    device=None)`: the triangle `2k / (N - 1)` up to the middle and `2 - 2k /
    (N - 1)` after it, as PyTorch's; `periodic`, lengths 0 and 1 and `dtype`
    as `hann_window`'s."""
    def body(k, m):
        x = k * (2.0 / (m - 1))
        half = ((m - 1) >> 1) + 1
        return x.where(k < half, 2 - x)

    return _window("bartlett_window", window_length, periodic, dtype, device, body)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, device=None):
    """`torch.kaiser_window(window_length, periodic=True, beta=12.0, *,
    dtype=None, device=None)`: `i0(beta sqrt(1 - ((k - a) / a)^2)) /
    i0(beta)` with `a = (N - 1) / 2`, as PyTorch's (silt's `i0`);
    `periodic`, lengths 0 and 1 and `dtype` as `hann_window`'s."""
    beta = float(beta)

    def body(k, m):
        a = (m - 1) / 2.0
        r = (1 - ((k - a) / a).square()).abs().sqrt()
        return (r * beta).i0() / k.new_full((), beta).i0()

    return _window("kaiser_window", window_length, periodic, dtype, device, body)


# ---- NumPy's arrays as tensors ----------------------------------------------

def _device(device):
    return device if device is None or isinstance(device, Device) else Device(device)


def _viewable(a):
    """Why silt cannot use the NumPy array `a`'s memory in place on the
    host (None where it can: non-negative strides of whole elements, in the
    machine's byte order, writeable, aligned; `silt.tensor`'s rule)."""
    if any(s < 0 for s in a.strides):
        return "it has a negative stride"
    if any(s % a.itemsize for s in a.strides):
        return "its strides are not whole elements"
    if not a.dtype.isnative:
        return "its byte order is not the machine's"
    if not a.flags.writeable:
        return "it is read-only"
    if not a.flags.aligned:
        return "it is not aligned"
    return None


def from_numpy(ndarray):
    """`torch.from_numpy(ndarray)`: a host tensor over the NumPy array's
    memory (no copy: writes through either show in the other), of its dtype.
    An array of negative strides, of strides that are not whole elements or
    of the other byte order is refused, as PyTorch refuses it
    (`silt.ArgumentError`); a read-only or unaligned array is copied
    (PyTorch shares it). A dtype silt lacks is `silt.DTypeError`."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, not {type(ndarray).__name__}")
    why = _viewable(ndarray)
    if why is not None and why not in ("it is read-only", "it is not aligned"):
        raise ArgumentError(f"from_numpy: the array cannot be shared: {why} (copy it first)")
    return tensor(ndarray, device="host")


def _shares(t, a):
    """Whether the host tensor `t` is a view of the array `a`'s memory."""
    if not t.device.is_host:
        return False
    if t.numel() == 0:
        return True
    return t.__array_interface__["data"][0] == a.__array_interface__["data"][0]


def _converted(t, dtype, device, copy, op):
    """The tensor `t` as `dtype` on `device`: itself where both are its own
    (a copy with `copy=True`), else a new tensor (refused with
    `copy=False`)."""
    dt = t.dtype if dtype is None else np.dtype(dtype)
    dev = t.device if device is None else device
    if dt == t.dtype and dev == t.device:
        return t.clone() if copy else t
    if copy is False:
        raise ArgumentError(f"{op}: a tensor of {t.dtype} on {t.device.spec} needs a copy to become "
                            f"{dt} on {dev.spec}, and copy=False")
    return t.to(dev, dt)


def as_tensor(data, dtype=None, device=None):
    """`torch.as_tensor(data, dtype=None, device=None)`: `data` as a tensor
    without a copy where it can be: a tensor of the `dtype` and `device`
    asked for is returned itself (else converted, as `to`); a NumPy array of
    `dtype` shares its memory on the host (`device='host'`, or where the
    default device is the host); anything else is copied, as `silt.tensor`
    makes it (Python floats as float64, NumPy's dtype). `device=None` is the
    tensor's own device, else `silt.default_device()` (PyTorch's current
    device)."""
    device = _device(device)
    if isinstance(data, Tensor):
        return _converted(data, dtype, device, None, "as_tensor")
    return tensor(data, device=default_device() if device is None else device, dtype=dtype)


def asarray(obj, *, dtype=None, device=None, copy=None):
    """`torch.asarray(obj, *, dtype=None, device=None, copy=None)`: `obj` as
    a tensor, sharing its memory where it can: a tensor (itself where
    `dtype` and `device` are its own), a NumPy array (or a CPU object with
    `__dlpack__`) on the host, a Python number or sequence as `silt.tensor`
    makes it. `device=None` is `obj`'s device (the host for an array, the
    default device for Python data). `copy=True` always copies;
    `copy=False` raises `silt.ArgumentError` where a copy is needed (another
    dtype or device, an array silt cannot view, Python data)."""
    device = _device(device)
    if isinstance(obj, Tensor):
        return _converted(obj, dtype, device, copy, "asarray")
    if not isinstance(obj, np.ndarray) and hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        obj = np.from_dlpack(obj)
    if isinstance(obj, np.ndarray):
        dev = Device("host") if device is None else device
        if copy is False and dev.is_host and _viewable(obj) is not None:
            raise ArgumentError(f"asarray: the array cannot be shared: {_viewable(obj)}, and copy=False")
        t = tensor(obj, device=dev)
        shared = _shares(t, obj)
        if copy is False and not shared:
            raise ArgumentError(f"asarray: the array needs a copy on {dev.spec}, and copy=False")
        dt = t.dtype if dtype is None else np.dtype(dtype)
        if dt != t.dtype:
            if copy is False:
                raise ArgumentError(f"asarray: the array of {t.dtype} needs a copy to become {dt}, and copy=False")
            return t.astype(dt)
        return t.clone() if copy and shared else t
    if copy is False:
        raise ArgumentError(f"asarray: a {type(obj).__name__} cannot be shared as a tensor, and copy=False")
    return tensor(obj, device=default_device() if device is None else device, dtype=dtype)


# ---- rsub, unravel_index, combinations --------------------------------------

def rsub(input, other, *, alpha=1):
    """`torch.rsub(input, other, *, alpha=1)`: `other - alpha * input`
    (`other.sub(input, alpha=alpha)`), with `sub`'s promotion and checks (a
    float `alpha` only for a float result; bool tensors refused); `other`
    may be a number."""
    x = _input(input, (other,))
    return _input(other, (x,)).sub(x, alpha=alpha)


def _shape_arg(shape, op):
    """An int or a sequence of ints (not a tensor), each at least 0."""
    if isinstance(shape, Tensor):
        raise TypeError(f"{op}: shape must be an int or a sequence of ints, not a tensor")
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, (bool, np.bool_)):
        shape = (shape,)
    try:
        sizes = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError(f"{op}: shape must be an int or a sequence of ints, not {shape!r}") from None
    if any(s < 0 for s in sizes):
        raise ArgumentError(f"{op}: shape cannot have negative sizes, {sizes}")
    return sizes


def unravel_index(indices, shape):
    """`torch.unravel_index(indices, shape)`: the coordinates in `shape` of
    each flat index, a tuple of int64 tensors of `indices`' shape (one per
    dimension of `shape`, C order). The indices are integers in `[-N, N)`
    (`N` the elements of `shape`; negative ones count from the end, as
    PyTorch's); one out of that range is `silt.IndexOutOfRangeError` (its
    extremes are read back to check it)."""
    sizes = _shape_arg(shape, "unravel_index")
    idx = indices if isinstance(indices, Tensor) else tensor(np.asarray(indices))
    if idx.dtype.kind not in "iu":
        raise DTypeError(f"unravel_index: indices must be an integer tensor, not {idx.dtype}")
    n = math.prod(sizes)
    if idx.numel():
        lo, hi = (v.item() for v in idx.aminmax())
        if lo < -n or hi >= n:
            bad = lo if lo < -n else hi
            raise IndexOutOfRangeError(
                f"unravel_index: index {bad} is out of range for the shape {sizes} ({n} elements)")
    i = idx.astype(np.int64, copy=False)
    if idx.numel() and lo < 0:
        i = i.where(i >= 0, i + n)
    coords = []
    for s in reversed(sizes):
        coords.append(i % s if s else i)
        i = i // s if s else i
    return tuple(reversed(coords))


def combinations(input, r=2, with_replacement=False):
    """`torch.combinations(input, r=2, with_replacement=False)`: the
    `r`-element combinations of the 1-d `input`'s elements (with repeats
    where `with_replacement`), one a row, in `itertools.combinations`' order
    (PyTorch's); `r=0` gives an empty 1-d tensor, `r` above the length an
    `(0, r)` one. The places are listed on the host and gathered on the
    device by `index_select`."""
    x = _input(input, ())
    if x.ndim != 1:
        raise ArgumentError(f"combinations: expects a 1-d tensor, not one of shape {tuple(x.shape)}")
    r = operator.index(r)
    if r < 0:
        raise ArgumentError(f"combinations: r must be at least 0, not {r}")
    if r == 0:
        return x.new_zeros((0,))
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    places = np.fromiter(itertools.chain.from_iterable(pick(range(x.shape[0]), r)), dtype=np.int64)
    index = tensor(places, device=x.device)
    return x.index_select(0, index).reshape(-1, r)


# ---- methods: scatters of views, copies, splits ------------------------------

def _source(src, view, op):
    """`src` (a tensor, or data made one on the view's device) checked to
    have the view's shape exactly, as PyTorch's scatters."""
    if not isinstance(src, Tensor):
        src = tensor(np.asarray(src), device=view.device)
    if tuple(src.shape) != tuple(view.shape):
        raise ArgumentError(f"{op}: src has the shape {tuple(src.shape)}, the slice of input "
                            f"{tuple(view.shape)}")
    return src


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """`diagonal_scatter(src, offset=0, dim1=0, dim2=1)` (and
    `torch.diagonal_scatter(input, src, ...)`): a copy of `input` with the
    diagonal `diagonal(offset, dim1, dim2)` written with `src` (of that
    view's shape exactly; converted to `input`'s dtype)."""
    out = _input(input, (src,)).clone()
    view = out.diagonal(offset, dim1, dim2)
    view.copy_(_source(src, view, "diagonal_scatter"))
    return out


def select_scatter(input, src, dim, index):
    """`select_scatter(src, dim, index)` (and `torch.select_scatter(input,
    src, dim, index)`): a copy of `input` with `select(dim, index)` written
    with `src` (of that view's shape exactly, converted to `input`'s
    dtype); an index out of range is an `IndexError`."""
    out = _input(input, (src,)).clone()
    view = out.select(dim, index)
    view.copy_(_source(src, view, "select_scatter"))
    return out


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """`slice_scatter(src, dim=0, start=None, end=None, step=1)` (and
    `torch.slice_scatter(input, src, ...)`): a copy of `input` with the
    slice `start:end:step` of `dim` written with `src` (of that slice's
    shape exactly); `start` and `end` as Python's slices take them (negative
    from the end, clamped), `step` at least 1."""
    x = _input(input, (src,))
    if x.ndim == 0:
        raise ArgumentError("slice_scatter: a 0-d tensor has no dimension to slice")
    d = _dim_index(dim, x.ndim, "slice_scatter")
    step = 1 if step is None else operator.index(step)
    if step < 1:
        raise ArgumentError(f"slice_scatter: step must be positive, not {step}")
    out = x.clone()
    view = out[(slice(None),) * d + (slice(start, end, step),)]
    view.copy_(_source(src, view, "slice_scatter"))
    return out


def narrow_copy(input, dim, start, length):
    """`narrow_copy(dim, start, length)` (and `torch.narrow_copy(input,
    ...)`): `narrow(dim, start, length)` copied into a new tensor."""
    return _input(input, ()).narrow(dim, start, length).clone()


def split_with_sizes(input, split_sizes, dim=0):
    """`split_with_sizes(split_sizes, dim=0)` (and
    `torch.split_with_sizes(input, ...)`): views along `dim` of the listed
    sizes, which are at least 0 and add up to the dimension's size."""
    x = _input(input, ())
    if isinstance(split_sizes, (int, np.integer, Tensor)):
        raise TypeError("split_with_sizes: split_sizes must be a sequence of ints")
    sizes = [operator.index(s) for s in split_sizes]
    if x.ndim == 0:
        raise ArgumentError("split_with_sizes: a 0-d tensor has no dimension to split")
    d = _dim_index(dim, x.ndim, "split_with_sizes")
    if any(s < 0 for s in sizes):
        raise ArgumentError(f"split_with_sizes: the sizes must be at least 0, not {sizes}")
    if sum(sizes) != x.shape[d]:
        raise ArgumentError(f"split_with_sizes: the sizes {sizes} must add up to {x.shape[d]}, "
                            f"the size of dimension {d}")
    return x.split(sizes, d)


# ---- methods: renorm, frexp, ldexp, nextafter --------------------------------

def renorm(input, p, dim, maxnorm):
    """`renorm(p, dim, maxnorm)` (and `torch.renorm(input, ...)`): each
    slice `select(dim, i)` whose `p`-norm is above `maxnorm` scaled by
    `maxnorm / (norm + 1e-7)`, as PyTorch's (the norm of float16 in
    float32); floats of at least 2 dimensions, `p > 0` (inf too),
    `maxnorm >= 0`."""
    x = _input(input, ())
    if x.dtype.kind != "f":
        raise DTypeError(f"renorm: a floating point tensor, not {x.dtype}")
    if x.ndim < 2:
        raise ArgumentError(f"renorm: the input needs at least 2 dimensions, not {x.ndim}")
    p, maxnorm = float(p), float(maxnorm)
    if not p > 0:
        raise ArgumentError(f"renorm: p must be positive, not {p}")
    if not maxnorm >= 0:
        raise ArgumentError(f"renorm: maxnorm must be at least 0, not {maxnorm}")
    d = _dim_index(dim, x.ndim, "renorm")
    wide = _F32 if x.dtype == np.float16 else x.dtype
    norm = x.astype(wide, copy=False).norm(p, dim=tuple(k for k in range(x.ndim) if k != d), keepdim=True)
    m = norm.new_full((), maxnorm)
    factor = (m / (norm + 1e-7)).where(norm > m, 1.0)
    return x * factor.astype(x.dtype, copy=False)


# the integer of each float's bits, its mantissa bits and its exponent's bias
_BITS = {
    np.dtype(np.float16): (np.dtype(np.int16), 10, 15),
    np.dtype(np.float32): (np.dtype(np.int32), 23, 127),
    np.dtype(np.float64): (np.dtype(np.int64), 52, 1023),
}


def _float_bits(x, op):
    if x.dtype not in _BITS:
        raise DTypeError(f"{op}: only floating point tensors, not {x.dtype}")
    return _BITS[x.dtype]


def frexp(input):
    """`frexp()` (and `torch.frexp(input)`): a named tuple `(mantissa,
    exponent)` with `input = mantissa * 2 ** exponent`, the mantissa's
    magnitude in `[0.5, 1)` (of the input's dtype) and the exponent int32, as
    C's `frexp` and PyTorch's; zeros, infinities and NaN are their own
    mantissa with exponent 0. Read from the bits (a subnormal's from its
    mantissa field as a float), so exact on every device."""
    x = _input(input, ())
    idt, mbits, bias = _float_bits(x, "frexp")
    emask, mmask = (1 << (x.dtype.itemsize * 8 - mbits - 1)) - 1, (1 << mbits) - 1
    bits = x.view(idt)

    def parts(b):
        # the exponent field, and the bits with it set to put the value in [0.5, 1)
        return (b >> mbits) & emask, (b & ~(emask << mbits)) | ((bias - 1) << mbits)

    field, normal_bits = parts(bits)
    # a subnormal: its mantissa field as a float, a normal number
    sub_field, sub_bits = parts(((bits & mmask).astype(x.dtype)).view(idt))
    sign = bits & (-1 << (x.dtype.itemsize * 8 - 1))
    normal = (field != 0) & (field != emask)
    subnormal = (field == 0) & ((bits & mmask) != 0)
    mantissa = normal_bits.where(normal, (sub_bits | sign).where(subnormal, bits)).view(x.dtype)
    exponent = (field - (bias - 1)).where(normal, (sub_field - (bias - 1) + (1 - bias - mbits)).where(
        subnormal, bits.new_zeros(())))
    return MantissaExponent(mantissa, exponent.astype(np.int32, copy=False))


def _ldexp(self, other):
    """`ldexp(other)`: `silt.ldexp(self, other)`, `self * 2 ** other` (float32
    for integers)."""
    return ldexp(self, other)


def nextafter(input, other):
    """`nextafter(other)` (and `torch.nextafter(input, other)`): the next
    float after `input` toward `other`, elementwise with broadcasting, in the
    two's promoted float dtype (float16, float32, float64; two integer
    tensors are refused): the bits, viewed as integers, one step toward
    `other`; from zero the smallest subnormal of `other`'s sign; `other`
    where the two are equal; NaN where either is NaN. Every step but the NaN
    test is on the integers, so a device that flushes subnormals to zero
    still gives them."""
    x = _input(input, (other,))
    o = _input(other, (x,))
    rd = promote(x, o)
    if rd.kind != "f":
        raise DTypeError(f"nextafter: floating point tensors, not {x.dtype} and {o.dtype}")
    x, o = x.astype(rd, copy=False), o.astype(rd, copy=False)
    idt = _float_bits(x, "nextafter")[0]
    sign = -1 << (rd.itemsize * 8 - 1)
    bx, bo = x.view(idt), o.view(idt)
    # the floats' order as integers (both zeros 0): sign and magnitude to two's complement
    ox, oo = bx.where(bx >= 0, sign - bx), bo.where(bo >= 0, sign - bo)
    # the bits plus one go away from zero, minus one toward it
    step = ((oo > ox) == (ox > 0)).astype(idt) * 2 - 1
    r = ((bo & sign) | 1).where(ox == 0, bx + step)
    r = bo.where(ox == oo, r)
    return (x + o).view(idt).where(x.isnan() | o.isnan(), r).view(rd)


def is_signed(input):
    """`torch.is_signed(input)`: `input.is_signed()`, whether its dtype holds
    negative values (signed integers and floats)."""
    return _input(input, ()).is_signed()


# ---- attaching -------------------------------------------------------------

def _attach(T):
    """The methods on `silt.Tensor` (called by `_tensor`)."""
    for fn in (diagonal_scatter, select_scatter, slice_scatter, narrow_copy, split_with_sizes, renorm,
               frexp, nextafter):
        setattr(T, fn.__name__, fn)
    T.ldexp = _ldexp
    for name in ("renorm", "ldexp", "nextafter"):
        setattr(T, f"{name}_", _in_place(name))

"""New tensors filled on their device: ``zeros`` (silt's own fill), ``ones``,
``full`` and ``empty`` (and their ``_like`` forms), and ``concatenate``
(``cat``) and ``stack`` of tensors on one device (also what
``numpy.concatenate`` and ``numpy.stack`` run on silt tensors, and so what
dask puts silt chunks together with); ``arange``, ``linspace`` and ``eye``,
computed on the host and copied to their device; random tensors (``rand``,
``randn``, ``randint``, ``randperm`` and their ``_like`` forms) drawn on the
host by one NumPy generator that ``manual_seed`` seeds."""

import math

import numpy as np

from ._silt import ArgumentError, DTypeError, Tensor, tensor, zeros
from ._indexing import _write
from ._operators import promote


def _shape(shape):
    if len(shape) == 1 and not isinstance(shape[0], int):
        return tuple(shape[0])
    return tuple(shape)


def empty(*shape, dtype=None, device=None, size=None):
    """``empty(*shape, dtype=numpy.float32, device=None)`` (or ``size=``): a
    new tensor whose elements are to be written (silt gives zeros)."""
    return zeros(*_sized(shape, size, "empty"), dtype=dtype, device=device)


def sized_zeros(*shape, dtype=None, device=None, size=None):
    """``zeros(*shape, dtype=numpy.float32, device=None)`` (or ``size=``,
    PyTorch's name): a new tensor of zeros, filled on its device."""
    return zeros(*_sized(shape, size, "zeros"), dtype=dtype, device=device)


def _sized(shape, size, fn):
    """The shape given as arguments or as PyTorch's ``size=``."""
    if size is None:
        return shape
    if shape:
        raise TypeError(f"{fn}: give the shape or size=, not both")
    return (tuple(size) if not isinstance(size, int) else (size,),)


def full(shape=None, fill_value=None, dtype=None, device=None, *, size=None):
    """``full(shape, fill_value, dtype=None, device=None)``: a new tensor with
    every element ``fill_value``, filled on ``device``; ``dtype`` by default
    that of the number as PyTorch's (``bool``, ``int64`` or ``float32``);
    ``size=`` names the shape too."""
    if size is not None:
        if shape is not None:
            raise TypeError("full: give the shape or size=, not both")
        shape = size
    if shape is None or fill_value is None:
        raise TypeError("full: takes a shape and a fill value")
    if isinstance(shape, int):
        shape = (shape,)
    if dtype is None:
        dtype = np.bool_ if isinstance(fill_value, (bool, np.bool_)) else (
            np.int64 if isinstance(fill_value, (int, np.integer)) else np.float32)
    return zeros(tuple(shape), dtype=dtype, device=device).fill_(fill_value)


def ones(*shape, dtype=None, device=None, size=None):
    """``ones(*shape, dtype=numpy.float32, device=None)`` (or ``size=``): a
    new tensor of ones."""
    return zeros(*_sized(shape, size, "ones"), dtype=dtype, device=device).fill_(1)


def _like(t, dtype, device):
    return (t.shape, t.dtype if dtype is None else dtype, t.device if device is None else device)


def zeros_like(input, *, dtype=None, device=None):
    """``zeros_like(input, *, dtype=None, device=None)``: zeros of ``input``'s
    shape, dtype and device (unless given)."""
    shape, dtype, device = _like(input, dtype, device)
    return zeros(shape, dtype=dtype, device=device)


def empty_like(input, *, dtype=None, device=None):
    """``empty_like(input, *, dtype=None, device=None)``: as ``zeros_like``
    (silt gives zeros)."""
    return zeros_like(input, dtype=dtype, device=device)


def ones_like(input, *, dtype=None, device=None):
    """``ones_like(input, *, dtype=None, device=None)``: ones of ``input``'s
    shape, dtype and device (unless given)."""
    return zeros_like(input, dtype=dtype, device=device).fill_(1)


def full_like(input, fill_value, *, dtype=None, device=None):
    """``full_like(input, fill_value, *, dtype=None, device=None)``:
    ``fill_value`` in ``input``'s shape, dtype and device (unless given)."""
    return zeros_like(input, dtype=dtype, device=device).fill_(fill_value)


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_whole(v):
    """An integer or a bool: `arange`'s arguments that make an int64 range,
    as PyTorch's."""
    return isinstance(v, (int, np.integer, bool, np.bool_))


def arange(start=None, end=None, step=1, *, dtype=None, device=None):
    """``arange(start, end=None, step=1, *, dtype=None, device=None)``:
    ``start, start + step, ...`` up to ``end`` (excluded; ``arange(n)`` is
    ``0..n``), each ``start + i * step`` computed in float64 (int64 for
    integers) and converted to ``dtype``, by default ``int64`` when every
    argument is an integer, else ``float32``, as PyTorch's (an integer
    ``dtype`` of float arguments counts by the floats and steps by their
    integer parts, as PyTorch's)."""
    if end is None:
        if start is None:
            raise TypeError("arange: give end")
        start, end = 0, start
    elif start is None:  # PyTorch's arange(end=n)
        start = 0
    # 0-d tensors (and arrays) as the numbers they hold, as PyTorch's
    start, end, step = (v.item() if isinstance(v, (Tensor, np.ndarray)) and v.ndim == 0 else v
                        for v in (start, end, step))
    ints = all(_is_whole(v) for v in (start, end, step))
    # Python numbers: NumPy's float32 scalars would size the range in float32
    start, end, step = ((int(v) if ints else float(v)) for v in (start, end, step))
    if dtype is None:
        dtype = np.int64 if ints else np.float32
    if step == 0:
        raise ArgumentError("arange: step must not be 0")
    if not all(math.isfinite(v) for v in (start, end, step)):
        raise ArgumentError(f"arange: start {start}, end {end} and step {step} must be finite")
    if (end - start) * step < 0:
        raise ArgumentError(f"arange: the step {step} goes away from end {end} (start {start})")
    if ints:
        values = np.arange(start, end, step, dtype=np.int64)
    elif np.dtype(dtype).kind in "iub":
        # PyTorch's: the count from the floats, the values from start and step
        # truncated to integers (a step of 0.5 gives zeros)
        n = math.ceil((end - start) / step)
        values = math.trunc(start) + np.arange(n, dtype=np.int64) * math.trunc(step)
    else:
        n = math.ceil((end - start) / step)
        values = start + np.arange(n, dtype=np.float64) * step
    return tensor(values, dtype=dtype, device=device)


def linspace(start, end, steps, *, dtype=None, device=None):
    """``linspace(start, end, steps, *, dtype=None, device=None)``: ``steps``
    evenly spaced values from ``start`` to ``end`` (both included), in the
    steps of PyTorch's: ``start`` and ``end`` converted to ``dtype``
    (``float32`` by default; integers truncated), the step and the values in
    that float dtype (``float16`` in ``float32``; integers in ``float64``),
    the first half forward from ``start`` and the rest back from ``end``
    (PyTorch's CPU kernel may fuse a multiply and an add: a value can differ
    from it in the last bit)."""
    if not _is_int(steps) or steps < 0:
        raise ArgumentError(f"linspace: steps must be a non-negative integer, not {steps!r}")
    dt = np.dtype(np.float32 if dtype is None else dtype)
    if dt.kind == "f":
        ct = np.float64 if dt.itemsize == 8 else np.float32
        s0, e0 = (ct(dt.type(v)) for v in (start, end))
    else:
        ct = np.float64
        s0, e0 = ct(math.trunc(start)), ct(math.trunc(end))
    if steps == 1:
        return tensor(np.array([s0], ct), dtype=dt, device=device)
    step = (e0 - s0) / ct(max(steps - 1, 1))
    if dt == np.float16:
        step = ct(np.float16(step))
    i = np.arange(steps)
    with np.errstate(invalid="ignore", over="ignore"):
        values = np.where(i < steps // 2, s0 + step * i.astype(ct), e0 - step * (steps - 1 - i).astype(ct))
    return tensor(values.astype(ct), dtype=dt, device=device)


def eye(n, m=None, *, dtype=None, device=None):
    """``eye(n, m=None, *, dtype=None, device=None)``: the ``n`` x ``m``
    (``n`` x ``n``) identity, ``float32`` by default."""
    return tensor(np.eye(n, n if m is None else m), dtype=np.float32 if dtype is None else dtype, device=device)


def cat(tensors, dim=0, *, out=None):
    """``cat(tensors, dim=0, *, out=None)``: PyTorch's name for
    ``concatenate``; as PyTorch's, a 1-d empty tensor (shape ``(0,)``)
    beside tensors of more dimensions is passed over (their dtype still
    promotes). ``out=`` takes a copy of the result, as the functions'."""
    if out is not None:
        from ._functions import _into
        return _into("cat", cat(tensors, dim), out)
    tensors = list(tensors)
    if any(t.ndim != 1 for t in tensors):
        empty = [t for t in tensors if tuple(t.shape) == (0,)]
        kept = [t for t in tensors if tuple(t.shape) != (0,)]
        if empty and kept:
            dtype = tensors[0].dtype  # every tensor promotes, in order
            for t in tensors[1:]:
                dtype = promote(np.empty(0, dtype), t)
            return concatenate(kept, dim).astype(dtype, copy=False)
    return concatenate(tensors, dim)


def concatenate(tensors, axis=0):
    """``concatenate(tensors, axis=0)``: the tensors joined along ``axis``
    into a new tensor on their device (one copy of each into its place), of
    their promoted dtype (PyTorch's rules). They must share a device and
    every other dimension; ``axis=None`` joins them flattened."""
    tensors = list(tensors)
    if not tensors:
        raise ArgumentError("concatenate: no tensors")
    if axis is None:
        tensors = [t.contiguous().reshape(-1) for t in tensors]
        axis = 0
    first = tensors[0]
    devices = {t.device for t in tensors}
    if len(devices) != 1:
        raise ArgumentError(f"concatenate: tensors on several devices: {sorted(d.spec for d in devices)}")
    ndim = first.ndim
    if ndim == 0:
        raise ArgumentError("concatenate: 0-d tensors cannot be joined")
    if axis < 0:
        axis += ndim
    if not 0 <= axis < ndim:
        raise ArgumentError(f"concatenate: axis {axis} out of range for {ndim} dimensions")
    dtype = first.dtype
    for t in tensors[1:]:
        if t.ndim != ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, first.shape)) if i != axis):
            raise ArgumentError(f"concatenate: shapes {first.shape} and {t.shape} differ off axis {axis}")
        dtype = promote(np.empty(0, dtype), t)
    shape = list(first.shape)
    shape[axis] = sum(t.shape[axis] for t in tensors)
    out = zeros(tuple(shape), dtype=dtype, device=first.device)
    start = 0
    for t in tensors:
        n = t.shape[axis]
        key = (slice(None),) * axis + (slice(start, start + n),)
        _write(out[key], t)
        start += n
    return out


def stack(tensors, axis=0, *, dim=None, out=None):
    """``stack(tensors, axis=0)`` (``dim=``, PyTorch's name, too): tensors
    of one shape joined along a new axis, into a new tensor on their
    device; ``out=`` takes a copy of it, as the functions'."""
    if out is not None:
        from ._functions import _into
        return _into("stack", stack(tensors, axis, dim=dim), out)
    if dim is not None:
        axis = dim
    tensors = list(tensors)
    if not tensors:
        raise ArgumentError("stack: no tensors")
    ndim = tensors[0].ndim + 1
    if axis < 0:
        axis += ndim
    if not 0 <= axis < ndim:
        raise ArgumentError(f"stack: axis {axis} out of range for {ndim} dimensions")
    shape = tensors[0].shape
    for t in tensors:
        if t.shape != shape:
            raise ArgumentError(f"stack: shapes {shape} and {t.shape} differ")
    expanded = [t.contiguous().reshape(shape[:axis] + (1,) + shape[axis:]) for t in tensors]
    return concatenate(expanded, axis)



# ---- random tensors --------------------------------------------------------

_generator = np.random.default_rng()


def manual_seed(seed):
    """``manual_seed(seed)``: seeds the generator of silt's random tensors
    (NumPy's PCG64, so the numbers are not PyTorch's); returns the seed. As
    PyTorch's, the seed is read as an integer in ``[-2^63, 2^64)``, a
    negative one as its 64-bit two's complement."""
    global _generator
    value = int(seed)
    if not -(1 << 63) <= value < (1 << 64):
        raise ArgumentError(f"manual_seed: {value} is outside [-2^63, 2^64)")
    _generator = np.random.default_rng(value % (1 << 64))
    return seed


def _random_dtype(dtype, kind):
    dt = np.dtype(np.float32 if dtype is None else dtype)
    if dt.kind != kind and not (kind == "f" and dt.kind == "f"):
        raise ArgumentError(f"a {'float' if kind == 'f' else 'integer'} dtype is needed, not {dt}")
    return dt


def rand(*size, dtype=None, device=None, **kwargs):
    """``rand(*size, dtype=float32, device=None)`` (or PyTorch's ``size=``):
    uniform numbers in ``[0, 1)``, drawn on the host (in float64, then
    converted) and copied to ``device``."""
    size = _sized(size, _size_keyword(kwargs, "rand"), "rand")
    dt = _random_dtype(dtype, "f")
    values = _generator.random(_shape(size))
    # float16/float32 rounding can reach 1.0: keep it below
    values = np.minimum(values.astype(dt), np.nextafter(dt.type(1), dt.type(0)))
    return tensor(values, device=device)


def randn(*size, dtype=None, device=None, **kwargs):
    """``randn(*size, dtype=float32, device=None)`` (or PyTorch's ``size=``):
    standard normal numbers, drawn on the host and copied to ``device``."""
    size = _sized(size, _size_keyword(kwargs, "randn"), "randn")
    dt = _random_dtype(dtype, "f")
    return tensor(_generator.standard_normal(_shape(size)).astype(dt), device=device)


def _size_keyword(kwargs, fn):
    """PyTorch's ``size=`` among ``kwargs`` (and nothing else)."""
    size = kwargs.pop("size", None)
    if kwargs:
        raise TypeError(f"{fn}: unexpected keyword arguments {', '.join(kwargs)}")
    return size


def _exact_range(dt):
    """The integers a dtype holds: its range, or for a float dtype those up
    to ``2^(mantissa bits + 1)`` (every integer there is exact)."""
    if dt == np.bool_:
        return 0, 1
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return int(info.min), int(info.max)
    top = 1 << (np.finfo(dt).nmant + 1)
    return -top, top


def randint(low=None, high=None, size=None, *, dtype=None, device=None):
    """``randint(low=0, high, size, *, dtype=int64, device=None)``: integers
    in ``[low, high)`` (``randint(high, size)`` from 0), drawn on the host.
    As PyTorch's, ``low`` and ``high - 1`` must lie in an integer dtype's
    range; a float dtype keeps every draw below ``high`` (a draw that rounds
    up to it takes the float below)."""
    if high is None:
        if low is None:
            raise TypeError("randint: give high")
        low, high = 0, low
    elif size is None and not _is_int(high):
        # PyTorch's randint(high, size)
        low, high, size = 0, low, high
    low = 0 if low is None else low
    size = () if size is None else size
    if high <= low:
        raise ArgumentError(f"randint: an empty range [{low}, {high})")
    dt = np.dtype(np.int64 if dtype is None else dtype)
    if dt.kind != "f":
        least, most = _exact_range(dt)
        if low < least or high - 1 > most:
            raise ArgumentError(f"randint: [{low}, {high}) is outside {dt}'s range [{least}, {most}]")
    shape = (size,) if isinstance(size, int) else tuple(size)
    values = _generator.integers(low, high, shape, dtype=np.int64)
    if dt.kind == "f":
        values = values.astype(dt)
        below = dt.type(high)
        while below >= high:
            below = np.nextafter(below, dt.type(-np.inf))
        values = np.minimum(values, below)
    return tensor(values, dtype=dt, device=device)


def randperm(n, *, dtype=None, device=None):
    """``randperm(n, *, dtype=int64, device=None)``: a random permutation of
    ``0..n``, drawn on the host. As PyTorch's, ``n`` may not be negative,
    and ``n - 1`` must lie in ``dtype``'s range (every integer below ``n``
    exact in a float dtype); bool is refused."""
    dt = np.dtype(np.int64 if dtype is None else dtype)
    if n < 0:
        raise ArgumentError(f"randperm: n must not be negative, not {n}")
    if dt == np.bool_:
        raise DTypeError("randperm: bool is not taken")
    least, most = _exact_range(dt)
    if n - 1 > most:
        raise ArgumentError(f"randperm: {n} places do not fit {dt} (at most {most + 1})")
    return tensor(_generator.permutation(n).astype(np.int64), dtype=dt, device=device)


def rand_like(input, *, dtype=None, device=None):
    """``rand_like(input, *, dtype=None, device=None)``: ``rand`` in
    ``input``'s shape, dtype and device (unless given)."""
    shape, dtype, device = _like(input, dtype, device)
    return rand(shape, dtype=dtype, device=device)


def randn_like(input, *, dtype=None, device=None):
    """``randn_like(input, *, dtype=None, device=None)``: ``randn`` in
    ``input``'s shape, dtype and device (unless given)."""
    shape, dtype, device = _like(input, dtype, device)
    return randn(shape, dtype=dtype, device=device)

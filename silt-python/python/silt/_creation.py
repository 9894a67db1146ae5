"""New tensors filled on their device: ``zeros`` (silt's own fill), ``ones``,
``full`` and ``empty``, and ``concatenate`` and ``stack`` of tensors on one
device (also what ``numpy.concatenate`` and ``numpy.stack`` run on silt
tensors, and so what dask puts silt chunks together with)."""

import numpy as np

from ._silt import ArgumentError, zeros
from ._methods import _write
from ._operators import promote


def _shape(shape):
    if len(shape) == 1 and not isinstance(shape[0], int):
        return tuple(shape[0])
    return tuple(shape)


def empty(*shape, dtype=None, device=None):
    """``empty(*shape, dtype=numpy.float32, device=None)``: a new tensor whose
    elements are to be written (silt gives zeros)."""
    return zeros(*shape, dtype=dtype, device=device)


def full(shape, fill_value, dtype=None, device=None):
    """``full(shape, fill_value, dtype=None, device=None)``: a new tensor with
    every element ``fill_value``, filled on ``device``; ``dtype`` by default
    that of the number as PyTorch's (``bool``, ``int64`` or ``float32``)."""
    if isinstance(shape, int):
        shape = (shape,)
    if dtype is None:
        dtype = np.bool_ if isinstance(fill_value, (bool, np.bool_)) else (
            np.int64 if isinstance(fill_value, (int, np.integer)) else np.float32)
    return zeros(tuple(shape), dtype=dtype, device=device).fill_(fill_value)


def ones(*shape, dtype=None, device=None):
    """``ones(*shape, dtype=numpy.float32, device=None)``: a new tensor of ones."""
    return zeros(*shape, dtype=dtype, device=device).fill_(1)


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


def stack(tensors, axis=0):
    """``stack(tensors, axis=0)``: tensors of one shape joined along a new
    axis, into a new tensor on their device."""
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


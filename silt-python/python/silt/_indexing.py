"""Item access of ``silt.Tensor``: ``t[key]`` and ``t[key] = value`` for
basic keys (integers, slices, ``...``, ``None``: views) and NumPy's advanced
indexing (integer arrays and boolean masks, alone or anywhere in a tuple:
one gather to read, a few launches to write), and ``_write``, the
conversion and broadcast every assignment goes through. ``_tensor``
attaches them to the class.
"""

import numpy as np

from . import _silt
from ._silt import ArgumentError, DTypeError, Tensor, tensor, zeros
from ._operators import _CATEGORY, _as, _is_number

ops = _silt.ops


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
    if src.ndim > view.ndim and all(n == 1 for n in src.shape[:src.ndim - view.ndim]):
        # leading dimensions of one are dropped, as NumPy's and PyTorch's
        src = src.reshape(tuple(src.shape[src.ndim - view.ndim:]))
    if src.shares_storage(view):
        src = src.clone()  # overlapping views (t[1:] = t[:-1]) read a copy
    ops.copy(src, view)


def _scalar_keys(key):
    """``key`` with its 0-d integer tensors and arrays as the ints they hold:
    PyTorch's (and NumPy's) reading, so that ``t[i]`` with ``i`` such a
    tensor is the same view as ``t[int(i)]``, writes through it reaching
    ``t``."""
    def plain(k):
        if isinstance(k, (Tensor, np.ndarray)) and k.ndim == 0 and k.dtype.kind in "iu":
            return int(k.item())
        return k
    if isinstance(key, tuple):
        return tuple(plain(k) for k in key)
    return plain(key)


def _getitem(self, key, _view=Tensor.__getitem__):
    """`t[key]`: integers, slices with positive steps, `...` and `None` give a
    view; integer arrays and boolean masks (lists, arrays or tensors, read on
    the host), alone or anywhere in a tuple, give a new tensor gathered on
    the device (`_gather_key`: NumPy's advanced indexing). A bool tensor
    alone, on the tensor's device, over its leading dimensions, is found on
    the device (`_mask_key`)."""
    key = _scalar_keys(key)
    if _device_mask(self, key):
        return _mask_key(self, key)
    if _gathers(key):
        return _gather_key(self, tuple(key) if isinstance(key, tuple) else (key,), _view)
    with_new = _new_axes(self, key, _view)
    return _view(self, key) if with_new is None else with_new


def _device_mask(self, key):
    """Whether ``key`` is a bool tensor on the tensor's device over its
    leading dimensions (``t[t > 0]``), which the device reads itself."""
    return (isinstance(key, Tensor) and key.dtype == np.bool_ and key.device == self.device
            and not self.device.is_host
            and 0 < key.ndim <= self.ndim and tuple(key.shape) == tuple(self.shape[:key.ndim]))


def _mask_key(self, mask):
    """``t[mask]`` for a bool tensor over the leading dimensions: the places
    of True by ``_stable_partition`` and one ``index_select`` of the rows,
    all on the device (one count read back)."""
    rest = tuple(self.shape[mask.ndim:])
    rows = self.reshape((int(np.prod(mask.shape, dtype=np.int64)),) + rest)
    picks, count = _stable_partition(mask.reshape(-1))
    if count == 0:
        return zeros((0,) + rest, dtype=self.dtype, device=self.device)
    return ops.index_select(rows, 0, picks[:count])


def _stable_partition(flags, by_scatter=None):
    """The permutation (int64) that puts the places of a 1-d bool tensor
    holding True first and the others after, each in order, and the count of
    True (one element read back). On a GPU, one scan and one scatter that
    writes each place once; on a CPU device, where atomics are slow and the
    sort is a radix sort, the stable argsort of `~flags` (one pass over
    8-bit keys), twice as fast there (`by_scatter` picks one; the tests run
    both). The host backend's callers use NumPy over the tensor's memory
    instead."""
    n = flags.shape[0]
    dev = flags.device
    if not (dev.kind == "gpu" if by_scatter is None else by_scatter):
        count = int(ops.sum(flags).item()) if n else 0
        return ops.argsort(~flags, 0, False), count
    ones = zeros((n,), dtype=np.int64, device=dev).fill_(1)
    at = ops.cumsum(ones, 0) - 1                      # 0..n on the device
    trues = ops.cumsum(flags.view(np.uint8), 0)       # True up to each place, int64
    count = int(trues[-1].item()) if n else 0
    # a True goes to its rank among the Trues, a False after all of them
    dest = ops.where_(flags, trues - 1, at - trues + count)
    return ops.scatter_add(zeros((n,), dtype=np.int64, device=dev), 0, dest, at), count



_ARRAY_KEYS = (list, np.ndarray, Tensor)


def _gathers(key):
    """Whether ``key`` is an advanced index: an index array, a mask or a bool
    (a 0-d mask), alone or in a tuple."""
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, _ARRAY_KEYS + (bool, np.bool_)) for k in keys)


class _KeyPlan:
    """How a tuple key with index arrays reads a tensor (see ``_gather_key``):
    ``lead``, a view of the tensor with the indexed dimensions first (their
    sizes ``sizes``) and the others after (``rest_shape``); ``linear``, each
    picked place among the indexed dimensions as one number, in the arrays'
    broadcast ``shape``; ``first``, where the result's dimensions from the
    arrays stand (None: first)."""

    def __init__(self, lead, sizes, rest_shape, linear, shape, first):
        self.lead, self.sizes, self.rest_shape = lead, sizes, rest_shape
        self.linear, self.shape, self.first = linear, shape, first

    def order(self, ndim):
        """The permutation from the gathered layout (the arrays' dimensions
        first) to the result's."""
        k, f = len(self.shape), self.first or 0
        return list(range(k, k + f)) + list(range(k)) + list(range(k + f, ndim))


def _as_int64(a, op=None):
    """Integer indices (a NumPy array) as int64; a uint64 index past int64's
    range (out of range of any dimension) is an `IndexError`, not a wrapped
    negative index."""
    if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
        raise IndexError(f"{op + ': ' if op else ''}index {a.max()} is out of range")
    return a.astype(np.int64)


def _overlaps_itself(t):
    """Whether `t` repeats elements: a dimension of stride 0 (a broadcast);
    never for a tensor of no elements (whose strides may be 0)."""
    return 0 not in t.shape and any(st == 0 and n > 1 for st, n in zip(t.stride(), t.shape))


def _no_self_overlap(self):
    """A write into a view that repeats elements (a dimension of stride 0)
    is an error whichever places it writes, as PyTorch's."""
    if _overlaps_itself(self):
        raise ArgumentError(f"cannot write through a view that overlaps itself (shape {list(self.shape)}, "
                            f"strides {list(self.stride())})")


def _plan_key(self, key, view):
    entries = []
    for k in key:
        if isinstance(k, (bool, np.bool_)) or (isinstance(k, _ARRAY_KEYS) and np.ndim(
                k.numpy() if isinstance(k, Tensor) else k) == 0 and np.asarray(
                k.numpy() if isinstance(k, Tensor) else k).dtype == np.bool_):
            # a 0-d mask: a new dimension, of one place or none (NumPy's)
            held = bool(k.item() if isinstance(k, Tensor) else np.asarray(k))
            entries.append(("newmask", np.zeros(int(held), np.int64)))
            continue
        if isinstance(k, _ARRAY_KEYS):
            a = k.numpy() if isinstance(k, Tensor) else np.asarray(k)
            if isinstance(k, list) and a.size == 0:
                a = a.astype(np.int64)
            if a.dtype == np.bool_:
                # a mask stands for the positions where it holds, a dimension each
                entries.append(("mask", a))
            elif a.dtype.kind in "iu":
                entries.append(("array", _as_int64(a)))
            else:
                raise IndexError(f"tensors used as indices must be integer or boolean arrays, not {a.dtype}")
        elif k is Ellipsis or k is None or isinstance(k, slice):
            entries.append((k if k is None or k is Ellipsis else "slice", k))
        elif isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)):
            entries.append(("int", int(k)))
        else:
            raise TypeError(f"an index of type {type(k).__name__} is not supported")
    used = sum(a.ndim if kind == "mask" else 1 for kind, a in entries if kind in ("mask", "array", "int", "slice"))
    if sum(1 for kind, _ in entries if kind is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if used > self.ndim:
        raise IndexError(f"too many indices for a tensor of {self.ndim} dimensions")
    if not any(kind is Ellipsis for kind, _ in entries):
        entries.append((Ellipsis, Ellipsis))
    # the masks as their positions; each entry with the dimension it indexes
    flat, dim = [], 0
    for kind, a in entries:
        if kind is Ellipsis:
            # as PyTorch's: an ellipsis of no dimensions parts no arrays
            # (`t[:, [0, 1], ..., [1, 0]]` of a 3-d `t` is `t[:, [0, 1], [1, 0]]`)
            for _ in range(self.ndim - used):
                flat.append(("slice", slice(None), dim))
                dim += 1
        elif kind is None:
            flat.append((None, None, None))
        elif kind == "newmask":
            flat.append(("newmask", a, None))
        elif kind == "mask":
            shape = tuple(self.shape[dim:dim + a.ndim])
            if a.shape != shape:
                raise IndexError(f"a boolean mask of shape {a.shape} does not match the dimensions {shape} it indexes")
            for p in np.nonzero(a):
                flat.append(("array", p.astype(np.int64), dim))
                dim += 1
        else:
            flat.append((kind, a, dim))
            dim += 1
    arrays = [a for kind, a, _ in flat if kind in ("array", "newmask")]
    try:
        shape = tuple(np.broadcast_shapes(*(a.shape for a in arrays)))
    except ValueError:
        raise IndexError(f"index arrays of shapes {[a.shape for a in arrays]} do not broadcast together") from None
    # the view of the basic entries, the indexed dimensions kept whole
    basic, places, at = [], [], 0
    for kind, a, d in flat:
        if kind == "newmask":
            # a new dimension of one, indexed by the mask's place (or none)
            basic.append(None)
            places.append(at)
            at += 1
            continue
        if kind == "array":
            n = self.shape[d]
            if a.size and (a.min() < -n or a.max() >= n):
                bad = a[(a < -n) | (a >= n)].flat[0]
                raise IndexError(f"index {bad} is out of bounds for dimension {d} of size {n}")
            basic.append(slice(None))
            places.append(at)
            at += 1
        else:
            basic.append(a)
            if kind != "int":
                at += 1
    v = _getitem(self, tuple(basic), view)
    picked = [np.broadcast_to(a if kind == "newmask" else np.where(a < 0, a + self.shape[d], a), shape)
              for kind, a, d in flat if kind in ("array", "newmask")]
    sizes = [v.shape[p] for p in places]
    rest = [i for i in range(v.ndim) if i not in places]
    lead = v.permute(*(places + rest))
    linear = np.zeros(shape, np.int64)
    for a, n in zip(picked, sizes):
        linear = linear * n + a
    # side by side: where the first stood. As PyTorch's (not NumPy's), the
    # integers pick first and leave no mark: `t[1, :, [0, 3]]` is `t[1][:, [0, 3]]`
    kinds = [kind for kind, _, _ in flat if kind != "int"]
    adv = [i for i, kind in enumerate(kinds) if kind in ("array", "newmask")]
    first = None
    if adv and adv[-1] - adv[0] + 1 == len(adv):
        first = sum(1 for kind in kinds[:adv[0]] if kind in ("slice", None))
    return _KeyPlan(lead, sizes, tuple(v.shape[i] for i in rest), linear, shape, first)


def _gather_key(self, key, view):
    """``t[key]`` for a tuple ``key`` holding integer arrays or boolean masks
    (lists, arrays or tensors, read on the host) beside integers, slices,
    ``...`` and ``None``: NumPy's and PyTorch's advanced indexing. The
    arrays broadcast together; the result's dimensions from them stand where
    the first of them stood when the arrays are side by side in ``key``
    once its integers are taken out (PyTorch's rule: NumPy counts the
    integers among the arrays), else first. The basic entries make a view, the indexed
    dimensions are brought first and merged, and one ``index_select``
    gathers the picked elements on the device."""
    plan = _plan_key(self, key, view)
    count = int(np.prod(plan.sizes, dtype=np.int64))
    out_shape = plan.shape + plan.rest_shape
    if plan.linear.size == 0 or count == 0:
        got = zeros(out_shape, dtype=self.dtype, device=self.device)
    else:
        rows = plan.lead.reshape((count,) + plan.rest_shape)
        got = ops.index_select(rows, 0, tensor(plan.linear.reshape(-1), device=self.device))
        got = got.reshape(out_shape)
    return got.permute(*plan.order(got.ndim))


def _scatter_key(self, key, value, view):
    """``t[key] = value`` for a key ``_gather_key`` reads: ``value``
    broadcast to the shape ``t[key]`` has and converted. A place picked twice
    keeps the last value, as NumPy's. A few places are written one by one;
    more in one ``where`` over the indexed view (a number), with an
    ``index_select`` of the values before it. A tensor that overlaps itself
    (a broadcast view) is refused, however few places are written."""
    _no_self_overlap(self)
    plan = _plan_key(self, key, view)
    out_shape = plan.shape + plan.rest_shape
    order = plan.order(len(out_shape))
    result_shape = tuple(out_shape[i] for i in order)
    picks = plan.linear.reshape(-1)
    each = None
    if not _is_number(value):
        src = value.to(self.device, self.dtype) if isinstance(value, Tensor) else tensor(
            np.asarray(value), device=self.device, dtype=self.dtype)
        extra = src.ndim - len(result_shape)
        if extra > 0 and all(n == 1 for n in src.shape[:extra]):
            # leading dimensions of one are dropped, as PyTorch's
            src = src.reshape(tuple(src.shape[extra:]))
        src = src.broadcast_to(result_shape)
        back = [order.index(i) for i in range(len(order))]
        each = src.permute(*back).reshape((picks.size,) + plan.rest_shape)
        if each.shares_storage(self):
            each = each.clone()
    if picks.size == 0:
        return
    if picks.size <= _FEW_PLACES:
        for i, p in enumerate(picks):
            place = tuple(int(x) for x in np.unravel_index(int(p), plan.sizes))
            _write(plan.lead[place], value if each is None else each[i])
        return
    count = int(np.prod(plan.sizes, dtype=np.int64))
    ones = (1,) * len(plan.rest_shape)
    hit = np.zeros(count, np.bool_)
    hit[picks] = True
    hit = tensor(hit.reshape(tuple(plan.sizes) + ones), device=self.device)
    if each is None:
        new = _as(value, self.dtype, self.device)
    else:
        # for each place, the value of its last pick (NumPy's assignment keeps the last)
        source = np.zeros(count, np.int64)
        source[picks] = np.arange(picks.size)
        new = ops.index_select(each, 0, tensor(source, device=self.device))
        new = new.reshape(tuple(plan.sizes) + plan.rest_shape)
    ops.copy(ops.where(hit, new, plan.lead), plan.lead)


# the picked places an assignment writes one by one (more: one `where`)
_FEW_PLACES = 8


def _new_axes(self, key, view):
    """``t[key]`` for a basic key (integers, slices, ``...``) holding ``None``:
    the view without them, with a dimension of size 1 where each stood (as
    NumPy's ``np.newaxis``); None when ``key`` holds no ``None`` or is not
    basic."""
    keys = key if isinstance(key, tuple) else (key,)
    basic = (int, np.integer, slice)
    if not any(k is None for k in keys):
        return None
    bad = [k for k in keys if not (k is None or k is Ellipsis or isinstance(k, basic))]
    if bad:
        raise TypeError(f"an index of type {type(bad[0]).__name__} is not supported")
    rest = tuple(k for k in keys if k is not None)
    got = view(self, rest) if rest else self
    # the dimensions an ellipsis stands for: those no other entry indexes
    kept = self.ndim - sum(1 for k in rest if k is not Ellipsis)
    at, new = 0, []
    for k in keys:
        if k is None:
            new.append(at)
            at += 1
        elif k is Ellipsis:
            at += kept
        elif isinstance(k, slice):
            at += 1
    for d in new:
        got = got.unsqueeze(d)
    return got


def _setitem(self, key, value):
    """`t[key] = value`: `key` as for `t[key]` (integers, slices with positive
    steps, `...`; a boolean mask or an integer array), `value` a number, an
    array or a tensor broadcast to the indexed elements and converted to the
    tensor's dtype (floats to integers truncate toward zero, as in PyTorch
    and NumPy; an array's or a tensor's out of range saturate and NaN gives
    0, as `astype`; a number must fit the dtype). A mask with a number writes
    in one launch (`where`); other advanced assignments (index arrays and
    masks, anywhere in a tuple) as NumPy's, the value broadcast to what
    `t[key]` reads, in a few launches (a repeated place keeps the last
    value)."""
    key = _scalar_keys(key)
    if not _gathers(key):
        _write(self[key], value)
        return
    mask = key if isinstance(key, Tensor) else np.asarray(key) if isinstance(key, _ARRAY_KEYS) else None
    if (_is_number(value) and mask is not None and mask.dtype == np.bool_ and mask.ndim
            and tuple(mask.shape) == tuple(self.shape[:mask.ndim])):
        # a mask over the leading dimensions and a number: one `where`, the mask
        # read where it is
        if not isinstance(mask, Tensor):
            mask = tensor(mask, device=self.device)
        mask = mask.to(self.device).reshape(tuple(mask.shape) + (1,) * (self.ndim - mask.ndim))
        ops.copy(ops.where(mask, _as(value, self.dtype, self.device), self), self)
        return
    _scatter_key(self, tuple(key) if isinstance(key, tuple) else (key,), value, Tensor.__getitem__)

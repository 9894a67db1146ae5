"""The operators and methods of ``silt.Fusion``'s values: each records a call
of the chain, as the tensors' operators run one. ``_tensor`` attaches them to
the class.
"""

import math
import numbers

import numpy as np

from . import _silt
from ._operators import _BOOL, _SYMBOL, _is_number
from ._silt import ArgumentError, DTypeError


# ---- silt.Fusion's values: operators that record calls ---------------------

_FUSED = {
    "add": "add", "sub": "sub", "mul": "mul", "floordiv": "floor_divide", "mod": "remainder",
    "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
}
_FUSED_LOGICAL = {"and": ("bitwise_and", "logical_and"), "or": ("bitwise_or", "logical_or"),
                  "xor": ("bitwise_xor", "logical_xor")}


def _value_kind(*args):
    for a in args:
        if isinstance(a, _silt.FusionValue) and a.dtype is not None:
            return a.dtype.kind
    return "f"


def _fused(name, reflected=False):
    """An operator of a Fusion's values: records the call of the operation
    (the values' dtype, numbers converted to it; no promotion in a chain)."""
    def op(self, other):
        if isinstance(other, (np.ndarray, _silt.Tensor)):
            raise TypeError(f"a Fusion value and a {type(other).__name__}: take it into the chain "
                            f"with Fusion.input first")
        if not (isinstance(other, _silt.FusionValue) or _is_number(other)):
            return NotImplemented
        a, b = (other, self) if reflected else (self, other)
        if isinstance(a, np.generic):
            a = a.item()
        if isinstance(b, np.generic):
            b = b.item()
        f = self.fusion
        kind = _value_kind(a, b)
        if name == "truediv":
            if kind != "f":  # true division: integers as float32, as for tensors
                a = f.call("to_f32", a) if isinstance(a, _silt.FusionValue) else float(a)
                b = f.call("to_f32", b) if isinstance(b, _silt.FusionValue) else float(b)
            return f.call("div", a, b)
        if name == "pow":
            if kind in "iu" and isinstance(b, numbers.Integral) and b < 0:
                # as the tensors' `**` (PyTorch's rule), not a silent 0
                raise ValueError("Integers to negative integer powers are not allowed")
            return f.call("pow" if kind == "f" else "pow_int", a, b)
        if name in _FUSED_LOGICAL:
            return f.call(_FUSED_LOGICAL[name][kind == "b"], a, b)
        return f.call(_FUSED[name], a, b)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    op.__doc__ = f"Records `{_SYMBOL.get(name, name)}` as a call of the chain."
    return op


def _fused_unary(name, bool_name=None):
    def op(self):
        return self.fusion.call(bool_name if bool_name and self.dtype == _BOOL else name, self)

    op.__doc__ = f"Records `{name}` as a call of the chain."
    return op


def _fused_where(self, condition, other):
    """`v.where(condition, other)`: the value where `condition` holds, else
    `other`, as the tensors' `where` (the call `where(condition, v, other)`)."""
    return self.fusion.call("where", condition, self, other)


def _fused_div(self, other, *, rounding_mode=None):
    """`v.div(other, *, rounding_mode=None)`, as the tensors' `div`: `/`
    (integers as float32), `//` for `"floor"`, the quotient truncated toward
    zero for `"trunc"` (float16 computed in float32, rounded once)."""
    if rounding_mode is None:
        return self / other
    if rounding_mode == "floor":
        return self // other
    if rounding_mode != "trunc":
        raise ArgumentError(f"div: rounding_mode is None, 'trunc' or 'floor', not {rounding_mode!r}")
    f = self.fusion
    kind = _value_kind(self, other)
    if kind == "b":
        raise DTypeError("div: rounding_mode='trunc' is not defined on bool values")
    if kind != "f":
        return f.call("div", self, other)  # the integers' division truncates
    if self.dtype == np.float16:
        wide = [f.call("to_f32", v) if isinstance(v, _silt.FusionValue) else float(v) for v in (self, other)]
        return f.call("to_f16", f.call("trunc", f.call("div", *wide)))
    return f.call("trunc", f.call("div", self, other))


def _fused_clamp(self, min=None, max=None):
    """`v.clamp(min=None, max=None)`, as the tensors' `clamp`: one bound at
    least, a bound left out does not limit, a NaN bound makes every element
    NaN, and value bounds take `maximum` and `minimum`."""
    if min is None and max is None:
        raise ArgumentError("clamp: give min, max or both")
    f = self.fusion
    if any(isinstance(b, _silt.FusionValue) for b in (min, max)):
        v = self if min is None else f.call("maximum", self, min)
        return v if max is None else f.call("minimum", v, max)
    dt = self.dtype
    if any(isinstance(b, float) and math.isnan(b) for b in (min, max)):
        if dt is not None and dt.kind != "f":
            raise DTypeError(f"clamp: a NaN bound for {dt} values")
        return f.call("mul", self, float("nan"))
    if dt is not None and dt.kind in "iu":
        lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
    else:
        lo, hi = -math.inf, math.inf
    return f.call("clamp", self, lo if min is None else min, hi if max is None else max)


def _fused_pow(self, exponent):
    """`v.pow(exponent)`: `v ** exponent` (integers to a negative integer
    power raise, as the tensors' `pow`)."""
    return self ** exponent


# the values' methods that are the tensors' own, not a kernel's call as named
_FUSED_METHODS = {"where": _fused_where, "div": _fused_div, "clamp": _fused_clamp, "pow": _fused_pow}


def _fused_getattr(self, name):
    """`v.relu()`, `v.clamp(0, 1)`, `v.to_f32()`: a call of the operation of
    that name on the value (and the arguments), recorded in its Fusion.
    `where`, `div`, `clamp` and `pow` take the tensors' methods' arguments
    and meaning."""
    if name.startswith("_"):
        raise AttributeError(name)
    if name in _FUSED_METHODS:
        return _FUSED_METHODS[name].__get__(self)
    f = self.fusion

    def call(*args):
        return f.call(name, self, *args)

    call.__name__ = name
    return call


def _no_truth(self):
    """A value has no elements until its chain runs: `if v > 0:` would take
    the value itself as true, whatever its elements."""
    raise TypeError(
        "a Fusion value has no truth value: its elements exist once the chain runs "
        "(use where() or a comparison inside the chain, or run it first)"
    )


def _attach_fusion_values():
    V = _silt.FusionValue
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor"):
        setattr(V, f"__{name}__", _fused(name))
        setattr(V, f"__r{name}__", _fused(name, reflected=True))
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(V, f"__{name}__", _fused(name))
    V.__hash__ = object.__hash__
    V.__bool__ = _no_truth
    V.__neg__ = _fused_unary("neg")
    V.__abs__ = _fused_unary("abs")
    V.__invert__ = _fused_unary("bitwise_not", "logical_not")
    V.__getattr__ = _fused_getattr
    # NumPy hands `array + v` back to the value, which refuses arrays,
    # instead of making an array of values
    V.__array_ufunc__ = None

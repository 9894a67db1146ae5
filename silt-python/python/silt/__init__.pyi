"""Type stubs of silt: tensors, devices, exceptions; the operations are in
silt.ops (ops.pyi)."""

from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import nn as nn
from . import ops as ops
from . import special as special
from . import linalg as linalg

# the builtins under names the Tensor class's methods int(), float() and bool() do not hide
_int = int
_float = float
_bool = bool

DeviceLike = Union["Device", str, None]
Number = Union[bool, int, float]
Operand = Union["Tensor", npt.ArrayLike, Number]
"""A tensor, an array (placed on the tensor's device) or a Python number."""
Dim = Union[None, int, Sequence[int]]

class Error(Exception):
    """The base of every exception silt raises."""

class DTypeError(Error, TypeError):
    """A dtype outside an operation's types, dtypes that disagree, or a scalar that does not convert."""

class ArgumentError(Error, ValueError):
    """Shapes that do not agree or broadcast, an axis or range out of bounds, another bad argument."""

class AxisError(ArgumentError, IndexError):
    """A dimension out of range for the tensor (NumPy's AxisError; PyTorch raises IndexError)."""

class IndexOutOfRangeError(ArgumentError, IndexError):
    """An index read from an index tensor out of the range it indexes, nothing written; or a grid kernel's access out of its view's range, reported after the launch (PyTorch raises IndexError)."""

class OutOfMemoryError(Error, MemoryError):
    """An allocation the device or the host refused, after silt emptied its cache and retried."""

class DeviceError(Error, RuntimeError):
    """No such device, an OpenCL call that failed, a program that did not build, a missing extension."""

class Device:
    """A device: Device("host") (or PyTorch's "cpu"), Device("opencl") or Device("opencl:N")."""

    def __init__(self, spec: str) -> None:
        """A spec, or what str(device) gives ("opencl:0 (NAME)", the name checked)."""
    @property
    def spec(self) -> str:
        """"host" or "opencl:N"."""
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str:
        """"host", "cpu", "gpu" or "accelerator"."""
    @property
    def type(self) -> str:
        """PyTorch's device type: "cpu" for the host backend, else "opencl"."""
    @property
    def is_host(self) -> bool: ...
    @property
    def index(self) -> Optional[int]: ...
    def info(self) -> Dict[str, Any]:
        """Name, vendor, versions, fp64, fp16, memory sizes, compute units, extensions."""
    def memory_stats(self) -> Dict[str, int]:
        """The caching pool's counters (allocated, reserved and peak bytes, hits, misses, ...)."""
    def empty_cache(self) -> None:
        """Returns the pool's cached buffers to the driver."""
    def synchronize(self) -> None:
        """Waits until every operation queued on the device has finished."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Tensor:
    """A tensor: a dtype, a shape and strides over storage on one device.

    Views share the storage; on the host, NumPy arrays made with numpy() share it too.
    """

    @property
    def shape(self) -> Tuple[_int, ...]: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def device(self) -> Device: ...
    @property
    def ndim(self) -> _int: ...
    @property
    def size(self) -> "Size":
        """The element count (an int); t.size() is the shape and t.size(dim) a dimension's length, as PyTorch's."""
    @property
    def itemsize(self) -> _int: ...
    @property
    def strides(self) -> Tuple[_int, ...]:
        """In elements (as PyTorch), not bytes."""
    @property
    def offset(self) -> _int: ...
    @property
    def T(self) -> "Tensor":
        """The view with the dimensions reversed."""
    @property
    def __array_interface__(self) -> Dict[str, Any]:
        """Host tensors only: NumPy views the same memory."""
    def is_contiguous(self) -> _bool: ...
    def shares_storage(self, other: "Tensor") -> _bool: ...
    def numpy(self) -> np.ndarray[Any, Any]:
        """A view of the same memory on the host; a copy from an OpenCL device."""
    def tolist(self) -> Any: ...
    def item(self) -> Union[_bool, _int, _float]: ...
    def __array__(self, dtype: Any = None, copy: Optional[_bool] = None) -> np.ndarray[Any, Any]: ...
    def to(self, device: Any = None, dtype: Any = None, *, copy: _bool = False, non_blocking: _bool = False) -> "Tensor":
        """On device, with elements of dtype (converted on the tensor's device); t.to(numpy.float64) too; t.to(other) takes other's device and dtype."""
    def type(self, dtype: Any = None) -> Any:
        """astype(dtype); without one, the dtype's name as silt.NAME."""
    def __iter__(self) -> Iterator["Tensor"]: ...
    def __contains__(self, element: Operand) -> _bool: ...
    def __copy__(self) -> "Tensor": ...
    def astype(self, dtype: Any, copy: _bool = True) -> "Tensor":
        """The elements converted to dtype: floats to integers saturate (NaN to 0), integers wrap, into bool is x != 0."""
    def contiguous(self) -> "Tensor": ...
    def clone(self) -> "Tensor": ...
    def transpose(self, dim0: _int, dim1: _int) -> "Tensor": ...
    def permute(self, *dims: Any) -> "Tensor":
        """The dimensions in the order `dims` (ints, or one sequence of them), a view."""
    def narrow(self, dim: _int, start: Any, length: _int) -> "Tensor":
        """`length` elements along `dim` from `start` (an int or a 0-d integer tensor), a view."""
    @property
    def mT(self) -> "Tensor":
        """The last two dimensions swapped, a view."""
    @property
    def mH(self) -> "Tensor":
        """`mT` (the conjugate of a real tensor is itself)."""
    @property
    def H(self) -> "Tensor":
        """The transpose of a matrix (2-d), a view."""
    def unfold(self, dimension: _int, size: _int, step: _int) -> "Tensor":
        """Every slice of `size` elements along `dimension`, `step` apart, as a new last dimension: a view."""
    def __index__(self) -> _int:
        """The one element of an integer tensor (a list index, `range(t)`)."""
    def reshape(self, *shape: Union[_int, Tuple[_int, ...]]) -> "Tensor":
        """The same elements in another shape (one -1 inferred): a view where view makes one, else a copy."""
    def view(self, *shape: Union[_int, Tuple[_int, ...], Any]) -> "Tensor":
        """As reshape, but a view only (PyTorch's rule); where the strides do not allow one, it raises.
        view(dtype): the same bytes as elements of dtype (the last dimension, of stride 1, scaled by the ratio of the sizes)."""
    def broadcast_to(self, *shape: Union[_int, Tuple[_int, ...]]) -> "Tensor":
        """A view repeating dimensions of size 1 with stride 0 (-1 keeps an existing dimension's size); a write reaching an element twice raises."""
    def expand(self, *sizes: Union[_int, Tuple[_int, ...]]) -> "Tensor":
        """broadcast_to(*sizes), as PyTorch's expand."""
    def as_strided(self, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> "Tensor":
        """A view of the same storage with any shape, strides and offset (in elements), checked to lie inside it."""
    def unsqueeze(self, dim: _int) -> "Tensor":
        """A view with a dimension of size 1 inserted at dim."""
    def squeeze(self, dim: Dim = None) -> "Tensor":
        """A view without the dimensions of size 1 (all, or those of dim)."""
    def _set_view(self, view: "Tensor") -> "Tensor":
        """Makes this tensor the view `view` (of its own storage and dtype); returns it."""
    def unsqueeze_(self, dim: _int) -> "Tensor":
        """The tensor itself made unsqueeze(dim)."""
    def squeeze_(self, dim: Dim = None) -> "Tensor":
        """The tensor itself made squeeze(dim)."""
    def t_(self) -> "Tensor":
        """The tensor itself made t()."""
    def transpose_(self, dim0: _int, dim1: _int) -> "Tensor":
        """The tensor itself made transpose(dim0, dim1)."""
    def swapaxes_(self, axis0: _int, axis1: _int) -> "Tensor":
        """transpose_(axis0, axis1)."""
    def swapdims_(self, dim0: _int, dim1: _int) -> "Tensor":
        """transpose_(dim0, dim1)."""
    def as_strided_(self, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> "Tensor":
        """The tensor itself made as_strided(size, stride, storage_offset) of its storage."""
    def resize_(self, *sizes: Union[_int, Sequence[_int]]) -> "Tensor":
        """The tensor itself made a contiguous view of that shape from its first element, where its storage holds it."""
    def resize_as_(self, other: "Tensor") -> "Tensor":
        """resize_(other.shape)."""
    def as_strided_scatter(self, src: Operand, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> "Tensor":
        """silt.as_strided_scatter(self, ...)."""
    def unsafe_chunk(self, chunks: _int, dim: _int = 0) -> List["Tensor"]:
        """chunk."""
    def unsafe_split(self, split_size_or_sections: Any, dim: _int = 0) -> List["Tensor"]:
        """split."""
    def unsafe_split_with_sizes(self, split_sizes: Sequence[_int], dim: _int = 0) -> List["Tensor"]:
        """split_with_sizes."""
    def new_empty_strided(self, size: Sequence[_int], stride: Sequence[_int], *, dtype: Any = None, device: Any = None) -> "Tensor":
        """silt.empty_strided with this tensor's dtype and device unless given."""
    def flatten(self, start_dim: _int = 0, end_dim: _int = -1) -> "Tensor":
        """Dimensions start_dim..=end_dim as one (a view when row-major, else a copy)."""
    def __getitem__(self, key: Any) -> "Tensor":
        """Integers, slices with positive steps, '...' and None (a new dimension): a view; integer arrays and boolean masks (NumPy's advanced indexing, anywhere in a tuple): a gathered copy."""
    def __len__(self) -> _int: ...
    def __setitem__(self, key: Any, value: Operand) -> None:
        """As `t[key]` (a boolean mask or an integer array too); a number, an array or a tensor, broadcast and converted."""
    # operators: broadcasting and PyTorch's promotion (see silt._operators' docs)
    def __add__(self, other: Operand) -> "Tensor": ...
    def __radd__(self, other: Operand) -> "Tensor": ...
    def __iadd__(self, other: Operand) -> "Tensor": ...
    def __sub__(self, other: Operand) -> "Tensor": ...
    def __rsub__(self, other: Operand) -> "Tensor": ...
    def __isub__(self, other: Operand) -> "Tensor": ...
    def __mul__(self, other: Operand) -> "Tensor": ...
    def __rmul__(self, other: Operand) -> "Tensor": ...
    def __matmul__(self, other: Operand) -> "Tensor": ...
    def __rmatmul__(self, other: Operand) -> "Tensor": ...
    def __imul__(self, other: Operand) -> "Tensor": ...
    def __truediv__(self, other: Operand) -> "Tensor":
        """True division: integer and bool tensors divide as float32."""
    def __rtruediv__(self, other: Operand) -> "Tensor": ...
    def __itruediv__(self, other: Operand) -> "Tensor": ...
    def __floordiv__(self, other: Operand) -> "Tensor":
        """Python's floor division; integer division by zero gives 0."""
    def __rfloordiv__(self, other: Operand) -> "Tensor": ...
    def __ifloordiv__(self, other: Operand) -> "Tensor": ...
    def __mod__(self, other: Operand) -> "Tensor":
        """Python's remainder, with the divisor's sign."""
    def __rmod__(self, other: Operand) -> "Tensor": ...
    def __imod__(self, other: Operand) -> "Tensor": ...
    def __pow__(self, other: Operand) -> "Tensor": ...
    def __rpow__(self, other: Operand) -> "Tensor": ...
    def __ipow__(self, other: Operand) -> "Tensor": ...
    def __and__(self, other: Operand) -> "Tensor": ...
    def __rand__(self, other: Operand) -> "Tensor": ...
    def __iand__(self, other: Operand) -> "Tensor": ...
    def __or__(self, other: Operand) -> "Tensor": ...
    def __ror__(self, other: Operand) -> "Tensor": ...
    def __ior__(self, other: Operand) -> "Tensor": ...
    def __xor__(self, other: Operand) -> "Tensor": ...
    def __rxor__(self, other: Operand) -> "Tensor": ...
    def __ixor__(self, other: Operand) -> "Tensor": ...
    def __lshift__(self, other: Operand) -> "Tensor":
        """Shift counts are masked by the bit width (silt's shl)."""
    def __rlshift__(self, other: Operand) -> "Tensor": ...
    def __ilshift__(self, other: Operand) -> "Tensor": ...
    def __rshift__(self, other: Operand) -> "Tensor": ...
    def __rrshift__(self, other: Operand) -> "Tensor": ...
    def __irshift__(self, other: Operand) -> "Tensor": ...
    def __eq__(self, other: Operand) -> "Tensor": ...  # type: ignore[override]
    def __ne__(self, other: Operand) -> "Tensor": ...  # type: ignore[override]
    def __lt__(self, other: Operand) -> "Tensor": ...
    def __le__(self, other: Operand) -> "Tensor": ...
    def __gt__(self, other: Operand) -> "Tensor": ...
    def __ge__(self, other: Operand) -> "Tensor": ...
    def __hash__(self) -> _int: ...
    def __neg__(self) -> "Tensor": ...
    def __pos__(self) -> "Tensor": ...
    def __abs__(self) -> "Tensor": ...
    def __invert__(self) -> "Tensor": ...
    def __bool__(self) -> _bool: ...
    def __float__(self) -> _float: ...
    def __int__(self) -> _int: ...
    # protocols
    def __dlpack__(self, *, stream: Any = None, max_version: Optional[Tuple[_int, _int]] = None, dl_device: Optional[Tuple[_int, _int]] = None, copy: Optional[_bool] = None) -> Any:
        """A DLPack capsule over the host tensor's memory (no copy); an OpenCL tensor only as a host copy, with dl_device=(1, 0)."""
    def __dlpack_device__(self) -> Tuple[_int, _int]:
        """(1, 0) on the host, (4, index) (DLPack's OpenCL) on an OpenCL device."""
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy's ufuncs silt has run on the tensor's device and return tensors; others run in NumPy."""
    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        """np.sum, np.mean, np.where, ... run on the tensor's device; other functions run in NumPy."""
    def __reduce__(self) -> Any:
        """Pickles the elements and the device's spec."""
    # elementwise methods, as silt.ops (floats only ones compute integers in float32)
    def abs(self) -> "Tensor": ...
    def acos(self) -> "Tensor": ...
    def asin(self) -> "Tensor": ...
    def atan(self) -> "Tensor": ...
    def bitwise_not(self) -> "Tensor": ...
    def ceil(self) -> "Tensor": ...
    def cos(self) -> "Tensor": ...
    def cosh(self) -> "Tensor": ...
    def asinh(self) -> "Tensor": ...
    def acosh(self) -> "Tensor": ...
    def atanh(self) -> "Tensor": ...
    def erf(self) -> "Tensor": ...
    def erfc(self) -> "Tensor": ...
    def erfinv(self) -> "Tensor": ...
    def i0(self) -> "Tensor": ...
    def lgamma(self) -> "Tensor": ...
    def digamma(self) -> "Tensor": ...
    def exp(self) -> "Tensor": ...
    def exp2(self) -> "Tensor": ...
    def expm1(self) -> "Tensor": ...
    def floor(self) -> "Tensor": ...
    def frac(self) -> "Tensor": ...
    def gelu(self) -> "Tensor": ...
    def gelu_tanh(self) -> "Tensor": ...
    def hardsigmoid(self) -> "Tensor": ...
    def hardswish(self) -> "Tensor": ...
    def isfinite(self) -> "Tensor": ...
    def isinf(self) -> "Tensor": ...
    def isnan(self) -> "Tensor": ...
    def log(self) -> "Tensor": ...
    def log10(self) -> "Tensor": ...
    def log1p(self) -> "Tensor": ...
    def log2(self) -> "Tensor": ...
    def logical_not(self) -> "Tensor": ...
    def logsigmoid(self) -> "Tensor": ...
    def mish(self) -> "Tensor": ...
    def neg(self) -> "Tensor": ...
    def reciprocal(self) -> "Tensor": ...
    def relu(self) -> "Tensor": ...
    def relu6(self) -> "Tensor": ...
    def round(self, decimals: _int = 0) -> "Tensor":
        """Rounded half to even, to `decimals` places (scaled by 10^decimals in the tensor's dtype, as PyTorch's)."""
    def rsqrt(self) -> "Tensor": ...
    def selu(self) -> "Tensor": ...
    def sigmoid(self) -> "Tensor": ...
    def sign(self) -> "Tensor": ...
    def silu(self) -> "Tensor": ...
    def sin(self) -> "Tensor": ...
    def sinh(self) -> "Tensor": ...
    def softplus(self) -> "Tensor": ...
    def softsign(self) -> "Tensor": ...
    def sqrt(self) -> "Tensor": ...
    def square(self) -> "Tensor": ...
    def tan(self) -> "Tensor": ...
    def tanh(self) -> "Tensor": ...
    def trunc(self) -> "Tensor": ...
    # binary methods: broadcasting and PyTorch's promotion
    def add(self, other: Operand, *, alpha: Any = 1) -> "Tensor": ...
    def sub(self, other: Operand, *, alpha: Any = 1) -> "Tensor": ...
    def mul(self, other: Operand) -> "Tensor": ...
    def div(self, other: Operand, *, rounding_mode: Optional[str] = None) -> "Tensor":
        """True division, as `/`; rounding_mode "trunc" or "floor" rounds the quotient."""
    def floor_divide(self, other: Operand) -> "Tensor": ...
    def remainder(self, other: Operand) -> "Tensor": ...
    def fmod(self, other: Operand) -> "Tensor":
        """The remainder with the dividend's sign (silt.ops.rem)."""
    def pow(self, other: Operand) -> "Tensor": ...
    def maximum(self, other: Operand) -> "Tensor": ...
    def minimum(self, other: Operand) -> "Tensor": ...
    def fmax(self, other: Operand) -> "Tensor": ...
    def fmin(self, other: Operand) -> "Tensor": ...
    def atan2(self, other: Operand) -> "Tensor": ...
    def hypot(self, other: Operand) -> "Tensor": ...
    def hardshrink(self, lambd: _float = 0.5) -> "Tensor": ...
    def prelu(self, weight: "Tensor") -> "Tensor": ...
    def gcd(self, other: Operand) -> "Tensor": ...
    def igamma(self, other: Operand) -> "Tensor": ...
    def igammac(self, other: Operand) -> "Tensor": ...
    def lcm(self, other: Operand) -> "Tensor": ...
    def copysign(self, other: Operand) -> "Tensor": ...
    def eq(self, other: Operand) -> "Tensor": ...
    def ne(self, other: Operand) -> "Tensor": ...
    def lt(self, other: Operand) -> "Tensor": ...
    def le(self, other: Operand) -> "Tensor": ...
    def gt(self, other: Operand) -> "Tensor": ...
    def ge(self, other: Operand) -> "Tensor": ...
    def logical_and(self, other: Operand) -> "Tensor": ...
    def logical_or(self, other: Operand) -> "Tensor": ...
    def logical_xor(self, other: Operand) -> "Tensor": ...
    def bitwise_and(self, other: Operand) -> "Tensor": ...
    def bitwise_or(self, other: Operand) -> "Tensor": ...
    def bitwise_xor(self, other: Operand) -> "Tensor": ...
    def bitwise_left_shift(self, other: Operand) -> "Tensor":
        """`self << other`: 0 for a count that is negative or at least the bit width (PyTorch's)."""
    def bitwise_right_shift(self, other: Operand) -> "Tensor":
        """`self >> other` (arithmetic for signed dtypes): 0, or -1 for negative elements, for a count that is negative or at least the bit width (PyTorch's)."""
    def clamp(self, min: Optional[Operand] = None, max: Optional[Operand] = None) -> "Tensor":
        """Each element limited to [min, max]; tensor bounds broadcast (minimum(maximum(self, min), max))."""
    def clip(self, min: Optional[Number] = None, max: Optional[Number] = None) -> "Tensor": ...
    def where(self, condition: Operand, other: Operand) -> "Tensor":
        """self where condition holds, else other."""
    def lerp(self, end: Operand, weight: Operand) -> "Tensor":
        """self + weight * (end - self) as PyTorch computes it; weight a number or a tensor (broadcast)."""
    def addcmul(self, tensor1: Operand, tensor2: Operand, value: Number = 1) -> "Tensor": ...
    # reductions and scans
    def sum(self, dim: Dim = None, keepdim: _bool = False, *, dtype: Any = None) -> "Tensor": ...
    def prod(self, dim: Dim = None, keepdim: _bool = False, *, dtype: Any = None) -> "Tensor": ...
    def mean(self, dim: Dim = None, keepdim: _bool = False, *, dtype: Any = None) -> "Tensor": ...
    def max(self, dim: Union[None, _int, "Tensor", np.ndarray[Any, Any]] = None, keepdim: Optional[_bool] = None, *, other: Optional[Operand] = None) -> Any:
        """The maximum of all elements; with dim, ValuesIndices(values, indices); with a tensor, maximum(other)."""
    def min(self, dim: Union[None, _int, "Tensor", np.ndarray[Any, Any]] = None, keepdim: Optional[_bool] = None, *, other: Optional[Operand] = None) -> Any:
        """The minimum of all elements; with dim, ValuesIndices(values, indices); with a tensor, minimum(other)."""
    def amax(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def amin(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def argmax(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def argmin(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def all(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def any(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def count_nonzero(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def logsumexp(self, dim: Dim = None, keepdim: _bool = False) -> "Tensor": ...
    def var(self, dim: Dim = None, unbiased: Optional[_bool] = None, keepdim: _bool = False, *, correction: Optional[_float] = None) -> "Tensor": ...
    def std(self, dim: Dim = None, unbiased: Optional[_bool] = None, keepdim: _bool = False, *, correction: Optional[_float] = None) -> "Tensor": ...
    def norm(self, p: Union[_float, str] = "fro", dim: Dim = None, keepdim: _bool = False, dtype: Any = None) -> "Tensor": ...
    def cumsum(self, dim: _int, dtype: Any = None) -> "Tensor": ...
    def cumprod(self, dim: _int) -> "Tensor": ...
    def logcumsumexp(self, dim: _int) -> "Tensor": ...
    def cummax(self, dim: _int) -> "ValuesIndices": ...
    def cummin(self, dim: _int) -> "ValuesIndices": ...
    def softmax(self, dim: _int, dtype: Any = None) -> "Tensor": ...
    def log_softmax(self, dim: _int) -> "Tensor": ...
    # in place: write the tensor and return it
    def fill_(self, value: Number) -> "Tensor": ...
    def zero_(self) -> "Tensor": ...
    def copy_(self, src: Operand) -> "Tensor": ...
    def add_(self, other: Operand, *, alpha: Any = 1) -> "Tensor": ...
    def sub_(self, other: Operand, *, alpha: Any = 1) -> "Tensor": ...
    def mul_(self, other: Operand) -> "Tensor": ...
    def div_(self, other: Operand, *, rounding_mode: Optional[str] = None) -> "Tensor": ...
    def pow_(self, other: Operand) -> "Tensor": ...
    # conversions
    def float(self) -> "Tensor": ...
    def double(self) -> "Tensor": ...
    def half(self) -> "Tensor": ...
    def int(self) -> "Tensor": ...
    def long(self) -> "Tensor": ...
    def bool(self) -> "Tensor": ...
    def matmul(self, other: Operand) -> "Tensor":
        """The matrix product with PyTorch's shapes and promotion (self @ other)."""
    def sort(self, dim: _int = -1, descending: _bool = False, stable: _bool = False) -> "ValuesIndices":
        """The elements sorted along dim and their indices (always stable; NaN as the largest)."""
    def argsort(self, dim: _int = -1, descending: _bool = False, stable: _bool = False) -> "Tensor":
        """The indices (int64) that sort the tensor along dim (those of sort)."""
    def topk(self, k: _int, dim: _int = -1, largest: _bool = True, sorted: _bool = True) -> "ValuesIndices":
        """The k largest (or smallest) elements along dim and their indices, in order, ties by index."""
    def index_select(self, dim: _int, index: Operand) -> "Tensor":
        """The slices along dim at the positions in index (1-d, int64 or int32)."""
    def gather(self, dim: _int, index: Operand) -> "Tensor":
        """The elements along dim at the positions in index (int64)."""
    def scatter_add(self, dim: _int, index: Operand, src: Operand) -> "Tensor":
        """A new tensor: self plus src's elements added at the positions along dim in index."""
    def scatter_add_(self, dim: _int, index: Operand, src: Operand) -> "Tensor":
        """scatter_add written into the tensor; returns it."""
    def scatter_reduce(self, dim: _int, index: Operand, src: Operand, reduce: str, *, include_self: _bool = True) -> "Tensor":
        """self with src's elements combined at the positions along dim in index (int64) by reduce ("sum", "prod", "mean", "amax", "amin"), in order along dim: the same bits on every device."""
    def scatter_reduce_(self, dim: _int, index: Operand, src: Operand, reduce: str, *, include_self: _bool = True) -> "Tensor":
        """scatter_reduce written into the tensor; returns it."""
    def take(self, index: Operand) -> "Tensor":
        """The elements of the tensor read as 1-d at the positions in index (int64, any shape)."""
    def bincount(self, weights: Optional[Operand] = None, minlength: _int = 0) -> "Tensor":
        """The count (or the weights' sum) of each non-negative integer of a 1-d tensor."""
    def histc(self, bins: _int = 100, min: _float = 0, max: _float = 0) -> "Tensor":
        """The histogram of a float tensor in bins equal bins over [min, max] (the data's range when equal)."""
    def split(self, split_size_or_sections: Union[_int, Sequence[_int]], dim: _int = 0) -> Tuple["Tensor", ...]:
        """Views along dim, of split_size each (the last shorter) or of the listed sizes."""
    def chunk(self, chunks: _int, dim: _int = 0) -> Tuple["Tensor", ...]:
        """At most chunks views along dim, each of ceil(size / chunks)."""
    def unbind(self, dim: _int = 0) -> Tuple["Tensor", ...]:
        """The views with dim removed, one per index."""
    def masked_scatter_(self, mask: Operand, source: "Tensor") -> "Tensor":
        """The places where mask (broadcast) holds, in order, take source's elements in order."""
    def masked_scatter(self, mask: Operand, source: "Tensor") -> "Tensor": ...
    def masked_fill(self, mask: Operand, value: Number) -> "Tensor":
        """value where mask (bool, broadcast) holds, else the tensor's element."""
    def flip(self, *dims: Union[_int, Sequence[_int]], **kwargs: Sequence[_int]) -> "Tensor":
        """A copy with the order of dims reversed (dims also as dims=)."""
    def repeat(self, *sizes: Union[_int, Sequence[_int]]) -> "Tensor":
        """The tensor tiled sizes[i] times along each dimension (leading sizes add dimensions)."""
    def mm(self, other: Operand) -> "Tensor":
        """matmul of two 2-d tensors of one dtype."""
    def bmm(self, other: Operand) -> "Tensor":
        """matmul of two 3-d tensors of one dtype."""
    def mv(self, other: Operand) -> "Tensor":
        """matmul of a 2-d and a 1-d tensor of one dtype."""
    def dot(self, other: Operand) -> "Tensor":
        """matmul of two 1-d tensors of one dtype."""
    def new_zeros(self, *size: Union[_int, Sequence[_int]], dtype: Any = None, device: Any = None) -> "Tensor": ...
    def new_ones(self, *size: Union[_int, Sequence[_int]], dtype: Any = None, device: Any = None) -> "Tensor": ...
    def new_empty(self, *size: Union[_int, Sequence[_int]], dtype: Any = None, device: Any = None) -> "Tensor": ...
    def new_full(self, size: Sequence[_int], fill_value: Number, *, dtype: Any = None, device: Any = None) -> "Tensor": ...
    def new_tensor(self, data: Any, *, dtype: Any = None, device: Any = None) -> "Tensor":
        """data as a tensor of this tensor's dtype and device (unless given)."""
    def type_as(self, other: "Tensor") -> "Tensor": ...
    def isclose(self, other: Operand, rtol: _float = 1e-05, atol: _float = 1e-08, equal_nan: _bool = False) -> "Tensor":
        """self == other, or |self - other| finite and at most atol + rtol * |other| (PyTorch's test)."""
    def allclose(self, other: Operand, rtol: _float = 1e-05, atol: _float = 1e-08, equal_nan: _bool = False) -> _bool: ...
    def equal(self, other: "Tensor") -> _bool:
        """The same shape and elements (NaN is not equal to itself)."""
    def tril(self, diagonal: _int = 0) -> "Tensor": ...
    def triu(self, diagonal: _int = 0) -> "Tensor": ...
    # in place: the method's result written into the tensor (its dtype kept, PyTorch's casts); each returns it
    def abs_(self) -> "Tensor": ...
    def acos_(self) -> "Tensor": ...
    def asin_(self) -> "Tensor": ...
    def atan_(self) -> "Tensor": ...
    def bitwise_not_(self) -> "Tensor": ...
    def ceil_(self) -> "Tensor": ...
    def cos_(self) -> "Tensor": ...
    def cosh_(self) -> "Tensor": ...
    def asinh_(self) -> "Tensor": ...
    def acosh_(self) -> "Tensor": ...
    def atanh_(self) -> "Tensor": ...
    def erf_(self) -> "Tensor": ...
    def erfc_(self) -> "Tensor": ...
    def erfinv_(self) -> "Tensor": ...
    def i0_(self) -> "Tensor": ...
    def lgamma_(self) -> "Tensor": ...
    def digamma_(self) -> "Tensor": ...
    def exp2_(self) -> "Tensor": ...
    def exp_(self) -> "Tensor": ...
    def expm1_(self) -> "Tensor": ...
    def floor_(self) -> "Tensor": ...
    def frac_(self) -> "Tensor": ...
    def gelu_(self) -> "Tensor": ...
    def gelu_tanh_(self) -> "Tensor": ...
    def hardsigmoid_(self) -> "Tensor": ...
    def hardswish_(self) -> "Tensor": ...
    def log10_(self) -> "Tensor": ...
    def log1p_(self) -> "Tensor": ...
    def log2_(self) -> "Tensor": ...
    def log_(self) -> "Tensor": ...
    def logical_not_(self) -> "Tensor": ...
    def logsigmoid_(self) -> "Tensor": ...
    def mish_(self) -> "Tensor": ...
    def neg_(self) -> "Tensor": ...
    def reciprocal_(self) -> "Tensor": ...
    def relu6_(self) -> "Tensor": ...
    def relu_(self) -> "Tensor": ...
    def round_(self) -> "Tensor": ...
    def rsqrt_(self) -> "Tensor": ...
    def selu_(self) -> "Tensor": ...
    def sigmoid_(self) -> "Tensor": ...
    def sign_(self) -> "Tensor": ...
    def silu_(self) -> "Tensor": ...
    def sin_(self) -> "Tensor": ...
    def sinh_(self) -> "Tensor": ...
    def softplus_(self) -> "Tensor": ...
    def softsign_(self) -> "Tensor": ...
    def sqrt_(self) -> "Tensor": ...
    def square_(self) -> "Tensor": ...
    def tan_(self) -> "Tensor": ...
    def tanh_(self) -> "Tensor": ...
    def trunc_(self) -> "Tensor": ...
    def clamp_(self, min: Optional[Operand] = None, max: Optional[Operand] = None) -> "Tensor": ...
    def clip_(self, min: Optional[Operand] = None, max: Optional[Operand] = None) -> "Tensor": ...
    def lerp_(self, end: Operand, weight: Operand) -> "Tensor": ...
    def addcmul_(self, tensor1: Operand, tensor2: Operand, value: Number = 1) -> "Tensor": ...
    def masked_fill_(self, mask: Operand, value: Number) -> "Tensor": ...
    def tril_(self, diagonal: _int = 0) -> "Tensor": ...
    def triu_(self, diagonal: _int = 0) -> "Tensor": ...
    def index_fill_(self, dim: _int, index: Operand, value: Number) -> "Tensor":
        """value into the slices along dim at index (1-d integers); returns the tensor."""
    def index_fill(self, dim: _int, index: Operand, value: Number) -> "Tensor": ...
    def index_copy_(self, dim: _int, index: Operand, source: Operand) -> "Tensor":
        """source's slices along dim into the tensor's at index (a repeated index keeps the last)."""
    def index_copy(self, dim: _int, index: Operand, source: Operand) -> "Tensor": ...
    def index_add_(self, dim: _int, index: Operand, source: Operand, *, alpha: Number = 1) -> "Tensor":
        """alpha * source's slices along dim added to the tensor's at index (repeats add up)."""
    def index_add(self, dim: _int, index: Operand, source: Operand, *, alpha: Number = 1) -> "Tensor": ...
    def index_reduce_(self, dim: _int, index: Operand, source: Operand, reduce: str, *, include_self: _bool = True) -> "Tensor":
        """source's slices along dim combined into the tensor's at index by reduce ("prod", "mean", "amax", "amin"), in order of their place in index."""
    def index_reduce(self, dim: _int, index: Operand, source: Operand, reduce: str, *, include_self: _bool = True) -> "Tensor": ...
    def scatter_(self, dim: _int, index: Operand, src: Optional[Operand] = None, *, value: Optional[Number] = None, reduce: Optional[str] = None) -> "Tensor":
        """self[..., index[i], ...] = src[i] along dim for each place of index (a place written twice keeps the last)."""
    def scatter(self, dim: _int, index: Operand, src: Optional[Operand] = None, *, value: Optional[Number] = None, reduce: Optional[str] = None) -> "Tensor": ...
    def nonzero(self, *, as_tuple: _bool = False) -> Any:
        """The indices (int64) of the nonzero elements, [count, ndim] (or a tensor per dimension); on the device."""
    def argwhere(self) -> "Tensor": ...
    def roll(self, shifts: Union[_int, Sequence[_int]], dims: Union[None, _int, Sequence[_int]] = None) -> "Tensor":
        """The elements moved shifts places along dims, around the end (flattened without dims)."""
    def unique(self, sorted: _bool = True, return_inverse: _bool = False, return_counts: _bool = False, dim: Optional[_int] = None) -> Any:
        """The distinct elements (or slices along dim, on the host), sorted (with the inverse and the counts when asked)."""
    def t(self) -> "Tensor":
        """A 2-d tensor's transpose, a view."""
    def detach(self) -> "Tensor":
        """A view of the same storage (silt records no gradients)."""
    def expand_as(self, other: "Tensor") -> "Tensor": ...
    def view_as(self, other: "Tensor") -> "Tensor": ...
    def reshape_as(self, other: "Tensor") -> "Tensor": ...
    def clamp_min(self, bound: Operand) -> "Tensor": ...
    def clamp_max(self, bound: Operand) -> "Tensor": ...
    def clamp_min_(self, bound: Operand) -> "Tensor": ...
    def clamp_max_(self, bound: Operand) -> "Tensor": ...
    def movedim(self, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> "Tensor":
        """A view with the dimensions source moved to destination (NumPy's moveaxis)."""
    def moveaxis(self, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> "Tensor": ...
    def swapaxes(self, axis0: _int, axis1: _int) -> "Tensor": ...
    def swapdims(self, dim0: _int, dim1: _int) -> "Tensor": ...
    def diagonal(self, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> "Tensor":
        """A view of the elements [i, i + offset] of dim1 and dim2, as the last dimension."""
    def diag(self, diagonal: _int = 0) -> "Tensor":
        """1-d: a square matrix with the tensor on that diagonal; 2-d: a copy of that diagonal."""
    def trace(self) -> "Tensor": ...
    def tile(self, *dims: Union[_int, Sequence[_int]]) -> "Tensor": ...
    def outer(self, vec2: Operand) -> "Tensor": ...
    def diff(self, n: _int = 1, dim: _int = -1, prepend: Any = None, append: Any = None) -> "Tensor": ...
    def median(self, dim: Optional[_int] = None, keepdim: _bool = False) -> Any:
        """The lower middle element (NaN where a row holds one): 0-d over all, ValuesIndices along dim."""
    def nanmedian(self, dim: Optional[_int] = None, keepdim: _bool = False) -> Any:
        """As median, with NaN left out."""
    def kthvalue(self, k: _int, dim: _int = -1, keepdim: _bool = False) -> "ValuesIndices": ...
    def mode(self, dim: _int = -1, keepdim: _bool = False) -> "ValuesIndices":
        """Each slice's most frequent element along `dim` (the smallest of those tied) and its last place."""
    def msort(self) -> "Tensor":
        """Sorted along the first dimension (`sort(0)`'s values)."""
    def nelement(self) -> _int:
        """numel()."""
    def ndimension(self) -> _int:
        """dim()."""
    def storage_offset(self) -> _int:
        """The view's first element's place in its storage."""
    def is_signed(self) -> _bool:
        """Whether the dtype holds negative values (signed integers and floats)."""
    def addcdiv(self, tensor1: Operand, tensor2: Operand, value: Number = 1) -> "Tensor":
        """self + value * tensor1 / tensor2 ((value * tensor1) / tensor2, floats only)."""
    def addcdiv_(self, tensor1: Operand, tensor2: Operand, value: Number = 1) -> "Tensor": ...
    def cumsum_(self, dim: _int) -> "Tensor": ...
    def cumprod_(self, dim: _int) -> "Tensor": ...
    def isposinf(self) -> "Tensor": ...
    def isneginf(self) -> "Tensor": ...
    def positive(self) -> "Tensor": ...
    def is_same_size(self, other: "Tensor") -> _bool: ...
    def is_nonzero(self) -> _bool: ...
    def sum_to_size(self, *size: Any) -> "Tensor":
        """Summed down to size, a shape the tensor broadcasts from."""
    @property
    def is_cpu(self) -> _bool: ...
    @property
    def requires_grad(self) -> _bool:
        """False: silt records no gradients."""
    @property
    def grad(self) -> None: ...
    @property
    def grad_fn(self) -> None: ...
    @property
    def is_leaf(self) -> _bool: ...
    @property
    def data(self) -> "Tensor":
        """A view of the same storage."""
    @property
    def is_cuda(self) -> _bool: ...
    @property
    def is_sparse(self) -> _bool: ...
    @property
    def is_quantized(self) -> _bool: ...
    @property
    def is_meta(self) -> _bool: ...
    @property
    def is_nested(self) -> _bool: ...
    @property
    def is_inference(self) -> _bool: ...
    def detach_(self) -> "Tensor":
        """The tensor itself (it records no gradients)."""
    def requires_grad_(self, requires_grad: _bool = True) -> "Tensor":
        """The tensor itself for False; True raises (silt records no gradients)."""
    def get_device(self) -> _int:
        """-1 on the host backend, else the OpenCL device's index."""
    def __reversed__(self) -> "Tensor": ...
    def quantile(self, q: Any, dim: Optional[_int] = None, keepdim: _bool = False, *, interpolation: str = "linear") -> "Tensor":
        """The q-th quantiles of a float tensor (a 1-d q adds its dimension first)."""
    def nanquantile(self, q: Any, dim: Optional[_int] = None, keepdim: _bool = False, *, interpolation: str = "linear") -> "Tensor":
        """As quantile, with NaN left out of each row."""
    def nansum(self, dim: Dim = None, keepdim: _bool = False, *, dtype: Any = None) -> "Tensor": ...
    def nanmean(self, dim: Dim = None, keepdim: _bool = False, *, dtype: Any = None) -> "Tensor": ...
    def nan_to_num(self, nan: float = 0.0, posinf: Optional[float] = None, neginf: Optional[float] = None) -> "Tensor": ...
    def nan_to_num_(self, nan: float = 0.0, posinf: Optional[float] = None, neginf: Optional[float] = None) -> "Tensor": ...
    def aminmax(self, *, dim: Optional[_int] = None, keepdim: _bool = False) -> Any:
        """A named tuple (min, max)."""
    def masked_select(self, mask: Operand) -> "Tensor": ...
    def addmm(self, a: Operand, b: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor":
        """beta * self + alpha * a.mm(b), self broadcast to the product (not read when beta is 0)."""
    def addmv(self, a: Operand, b: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor": ...
    def baddbmm(self, a: Operand, b: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor": ...
    def addr(self, vec1: Operand, vec2: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor":
        """beta * self + alpha * outer(vec1, vec2)."""
    def addbmm(self, batch1: Operand, batch2: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor":
        """beta * self + alpha * the sum over the batch of batch1 @ batch2."""
    def ger(self, vec2: Operand) -> "Tensor":
        """outer(vec2)."""
    def multinomial(self, num_samples: _int, replacement: _bool = False, *, generator: Any = None) -> "Tensor":
        """For each row of weights, num_samples category indices drawn in proportion (each once without replacement), int64."""
    def absolute(self) -> "Tensor": ...
    def absolute_(self) -> "Tensor": ...
    def arccos(self) -> "Tensor": ...
    def arccos_(self) -> "Tensor": ...
    def arcsin(self) -> "Tensor": ...
    def arcsin_(self) -> "Tensor": ...
    def arctan(self) -> "Tensor": ...
    def arctan_(self) -> "Tensor": ...
    def arcsinh(self) -> "Tensor": ...
    def arcsinh_(self) -> "Tensor": ...
    def arccosh(self) -> "Tensor": ...
    def arccosh_(self) -> "Tensor": ...
    def arctanh(self) -> "Tensor": ...
    def arctanh_(self) -> "Tensor": ...
    def fix(self) -> "Tensor": ...
    def fix_(self) -> "Tensor": ...
    def sgn(self) -> "Tensor": ...
    def sgn_(self) -> "Tensor": ...
    def negative(self) -> "Tensor": ...
    def negative_(self) -> "Tensor": ...
    def deg2rad(self) -> "Tensor": ...
    def deg2rad_(self) -> "Tensor": ...
    def rad2deg(self) -> "Tensor": ...
    def rad2deg_(self) -> "Tensor": ...
    def sinc(self) -> "Tensor": ...
    def sinc_(self) -> "Tensor": ...
    def arctan2(self, other: Operand) -> "Tensor": ...
    def divide(self, other: Operand, *, rounding_mode: Optional[str] = None) -> "Tensor": ...
    def divide_(self, other: Operand) -> "Tensor": ...
    def true_divide(self, other: Operand) -> "Tensor": ...
    def true_divide_(self, other: Operand) -> "Tensor": ...
    def multiply(self, other: Operand) -> "Tensor": ...
    def multiply_(self, other: Operand) -> "Tensor": ...
    def subtract(self, other: Operand, *, alpha: Any = 1) -> "Tensor": ...
    def subtract_(self, other: Operand) -> "Tensor": ...
    def greater(self, other: Operand) -> "Tensor": ...
    def greater_equal(self, other: Operand) -> "Tensor": ...
    def less(self, other: Operand) -> "Tensor": ...
    def less_equal(self, other: Operand) -> "Tensor": ...
    def not_equal(self, other: Operand) -> "Tensor": ...
    def short(self) -> "Tensor": ...
    def byte(self) -> "Tensor": ...
    def char(self) -> "Tensor": ...
    def ravel(self) -> "Tensor": ...
    def stride(self, dim: Optional[_int] = None) -> Any:
        """The strides in elements (a tuple), or one dimension's."""
    def element_size(self) -> _int: ...
    @property
    def nbytes(self) -> _int: ...
    def is_floating_point(self) -> _bool: ...
    def is_complex(self) -> _bool: ...
    def logaddexp(self, other: Operand) -> "Tensor": ...
    def logaddexp2(self, other: Operand) -> "Tensor": ...
    def xlogy(self, other: Operand) -> "Tensor":
        """self * log(other), 0 where self is 0 (unless other is NaN)."""
    def xlogy_(self, other: Operand) -> "Tensor": ...
    def heaviside(self, values: Operand) -> "Tensor": ...
    def heaviside_(self, values: Operand) -> "Tensor": ...
    def signbit(self) -> "Tensor": ...
    def float_power(self, exponent: Operand) -> "Tensor": ...
    def float_power_(self, exponent: Operand) -> "Tensor": ...
    def logit(self, eps: Optional[float] = None) -> "Tensor": ...
    def logit_(self, eps: Optional[float] = None) -> "Tensor": ...
    def mvlgamma(self, p: _int) -> "Tensor": ...
    def mvlgamma_(self, p: _int) -> "Tensor": ...
    def polygamma(self, n: _int) -> "Tensor": ...
    def polygamma_(self, n: _int) -> "Tensor": ...
    def fliplr(self) -> "Tensor": ...
    def flipud(self) -> "Tensor": ...
    def rot90(self, k: _int = 1, dims: Sequence[_int] = (0, 1)) -> "Tensor": ...
    def select(self, dim: _int, index: _int) -> "Tensor": ...
    def unflatten(self, dim: _int, sizes: Sequence[_int]) -> "Tensor": ...
    def tensor_split(self, indices_or_sections: Any, dim: _int = 0) -> Tuple["Tensor", ...]: ...
    def hsplit(self, indices_or_sections: Any) -> Tuple["Tensor", ...]:
        """Views along dimension 1 (0 for a 1-d tensor), as tensor_split; sections must divide it evenly."""
    def vsplit(self, indices_or_sections: Any) -> Tuple["Tensor", ...]:
        """Views along dimension 0 (at least 2 dimensions)."""
    def dsplit(self, indices_or_sections: Any) -> Tuple["Tensor", ...]:
        """Views along dimension 2 (at least 3 dimensions)."""
    def take_along_dim(self, indices: Operand, dim: Optional[_int] = None) -> "Tensor": ...
    def repeat_interleave(self, repeats: Any = None, dim: Optional[_int] = None, *, output_size: Optional[_int] = None) -> "Tensor": ...
    def inner(self, other: Operand) -> "Tensor": ...
    def vdot(self, other: Operand) -> "Tensor": ...
    def kron(self, other: Operand) -> "Tensor": ...
    def cross(self, other: Operand, dim: Optional[_int] = None) -> "Tensor":
        """The cross product of 3-vectors along dim (without it, the first dimension of size 3)."""
    def dist(self, other: Operand, p: Any = 2) -> "Tensor": ...
    def fill_diagonal_(self, fill_value: Any, wrap: _bool = False) -> "Tensor": ...
    def diag_embed(self, offset: _int = 0, dim1: _int = -2, dim2: _int = -1) -> "Tensor": ...
    def put_(self, index: Operand, source: Operand, accumulate: _bool = False) -> "Tensor": ...
    def put(self, index: Operand, source: Operand, accumulate: _bool = False) -> "Tensor": ...
    def index_put_(self, indices: Sequence[Any], values: Operand, accumulate: _bool = False) -> "Tensor": ...
    def index_put(self, indices: Sequence[Any], values: Operand, accumulate: _bool = False) -> "Tensor": ...
    def uniform_(self, from_: float = 0.0, to: float = 1.0, *, generator: None = None) -> "Tensor":
        """Random fills (uniform_, normal_, exponential_, bernoulli_, random_) draw on the host from silt.rand's generator."""
    def normal_(self, mean: float = 0.0, std: float = 1.0) -> "Tensor": ...
    def exponential_(self, lambd: float = 1.0) -> "Tensor": ...
    def bernoulli_(self, p: Any = 0.5, *, generator: None = None) -> "Tensor": ...
    def bernoulli(self, p: Optional[float] = None) -> "Tensor": ...
    def random_(self, *args: Optional[_int], generator: None = None, **kwargs: Optional[_int]) -> "Tensor":
        """random_(), random_(to), random_(from, to): integers in the range (from to the dtype's top when to is None)."""
    def arctan2_(self, other: Operand) -> "Tensor": ...
    def atan2_(self, other: Operand) -> "Tensor": ...
    def bitwise_and_(self, other: Operand) -> "Tensor": ...
    def bitwise_or_(self, other: Operand) -> "Tensor": ...
    def bitwise_xor_(self, other: Operand) -> "Tensor": ...
    def bitwise_left_shift_(self, other: Operand) -> "Tensor": ...
    def bitwise_right_shift_(self, other: Operand) -> "Tensor": ...
    def copysign_(self, other: Operand) -> "Tensor": ...
    def eq_(self, other: Operand) -> "Tensor": ...
    def floor_divide_(self, other: Operand) -> "Tensor": ...
    def fmod_(self, other: Operand) -> "Tensor": ...
    def ge_(self, other: Operand) -> "Tensor": ...
    def greater_(self, other: Operand) -> "Tensor": ...
    def greater_equal_(self, other: Operand) -> "Tensor": ...
    def gt_(self, other: Operand) -> "Tensor": ...
    def hypot_(self, other: Operand) -> "Tensor": ...
    def gcd_(self, other: Operand) -> "Tensor": ...
    def igamma_(self, other: Operand) -> "Tensor": ...
    def igammac_(self, other: Operand) -> "Tensor": ...
    def lcm_(self, other: Operand) -> "Tensor": ...
    def le_(self, other: Operand) -> "Tensor": ...
    def less_(self, other: Operand) -> "Tensor": ...
    def less_equal_(self, other: Operand) -> "Tensor": ...
    def logical_and_(self, other: Operand) -> "Tensor": ...
    def logical_or_(self, other: Operand) -> "Tensor": ...
    def logical_xor_(self, other: Operand) -> "Tensor": ...
    def lt_(self, other: Operand) -> "Tensor": ...
    def ne_(self, other: Operand) -> "Tensor": ...
    def not_equal_(self, other: Operand) -> "Tensor": ...
    def remainder_(self, other: Operand) -> "Tensor": ...
    def cpu(self) -> "Tensor": ...
    def numel(self) -> _int: ...
    def dim(self) -> _int: ...
    # silt._extras
    def diagonal_scatter(self, src: Operand, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> "Tensor":
        """A copy with diagonal(offset, dim1, dim2) written with src (of that view's shape exactly)."""
    def select_scatter(self, src: Operand, dim: _int, index: _int) -> "Tensor":
        """A copy with select(dim, index) written with src (of that view's shape exactly)."""
    def slice_scatter(self, src: Operand, dim: _int = 0, start: Optional[_int] = None, end: Optional[_int] = None, step: _int = 1) -> "Tensor":
        """A copy with the slice start:end:step of dim written with src (of that slice's shape exactly)."""
    def narrow_copy(self, dim: _int, start: Any, length: _int) -> "Tensor":
        """narrow(dim, start, length) copied into a new tensor."""
    def split_with_sizes(self, split_sizes: Sequence[_int], dim: _int = 0) -> Tuple["Tensor", ...]:
        """Views along dim of the listed sizes (at least 0, adding up to the dimension's size)."""
    def renorm(self, p: _float, dim: _int, maxnorm: _float) -> "Tensor":
        """Each slice along dim whose p-norm is above maxnorm scaled by maxnorm / (norm + 1e-7); floats of 2+ dimensions."""
    def renorm_(self, p: _float, dim: _int, maxnorm: _float) -> "Tensor": ...
    def frexp(self) -> "MantissaExponent":
        """(mantissa, exponent): self = mantissa * 2 ** exponent, |mantissa| in [0.5, 1), exponent int32 (floats only)."""
    def ldexp(self, other: Operand) -> "Tensor":
        """self * 2 ** other (silt.ldexp), a float result."""
    def ldexp_(self, other: Operand) -> "Tensor": ...
    def nextafter(self, other: Operand) -> "Tensor":
        """The next float after self toward other, in the promoted float dtype (bits stepped as integers)."""
    def nextafter_(self, other: Operand) -> "Tensor": ...
    # silt._more
    def corrcoef(self) -> "Tensor":
        """silt.corrcoef(self): the correlation coefficients of the variables in the rows."""
    def cov(self, *, correction: _int = 1, fweights: Optional[Operand] = None, aweights: Optional[Operand] = None) -> "Tensor":
        """silt.cov(self, ...): the covariance matrix of the variables in the rows."""
    def diagflat(self, offset: _int = 0) -> "Tensor":
        """silt.diagflat(self, offset): the elements (read as 1-d) on a diagonal of a new square matrix."""
    def histogram(self, bins: Union[_int, "Tensor"] = 100, *, range: Optional[Tuple[_float, _float]] = None, weight: Optional[Operand] = None, density: _bool = False) -> Tuple["Tensor", "Tensor"]:
        """silt.histogram(self, ...): (hist, bin_edges) of a float tensor."""
    def unique_consecutive(self, return_inverse: _bool = False, return_counts: _bool = False, dim: Optional[_int] = None) -> Any:
        """silt.unique_consecutive(self, ...): each run of equal neighbours once (read as 1-d)."""
    def addmm_(self, mat1: Operand, mat2: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor":
        """addmm(...) written into the tensor (the product's shape must be the tensor's); returns it."""
    def addmv_(self, mat: Operand, vec: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor": ...
    def addr_(self, vec1: Operand, vec2: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor": ...
    def addbmm_(self, batch1: Operand, batch2: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor": ...
    def baddbmm_(self, batch1: Operand, batch2: Operand, *, beta: Any = 1, alpha: Any = 1) -> "Tensor": ...
    def geometric_(self, p: _float, *, generator: None = None) -> "Tensor":
        """The Bernoulli trials (of success p, 0 < p < 1) up to the first success: 1, 2, ...; the tensor's dtype."""
    def cauchy_(self, median: _float = 0.0, sigma: _float = 1.0, *, generator: None = None) -> "Tensor":
        """Cauchy's distribution of that median and scale (sigma > 0); float tensors."""
    def log_normal_(self, mean: _float = 1.0, std: _float = 2.0, *, generator: None = None) -> "Tensor":
        """exp of a normal number of that mean and std (std > 0); float tensors."""
    def matrix_power(self, n: _int) -> "Tensor":
        """The square matrices (batched) to the power n by repeated squaring; n = 0 the identity, n < 0 inverts first."""
    def det(self) -> "Tensor":
        """silt.linalg.det(self): the determinants of the square matrices (batched), from the LU factors."""
    def logdet(self) -> "Tensor":
        """The log of the determinants: NaN where negative, -inf where 0."""
    def slogdet(self) -> "linalg.SignLogAbsDet":
        """silt.linalg.slogdet(self): (sign, logabsdet) of the determinants."""
    def inverse(self) -> "Tensor":
        """silt.linalg.inv(self): the inverses of the square matrices; a singular one raises ArgumentError."""
    def cholesky(self, upper: _bool = False) -> "Tensor":
        """silt.linalg.cholesky(self, upper=upper): L with A = L L^T (U = L^T with upper)."""
    def cholesky_solve(self, input2: "Tensor", upper: _bool = False) -> "Tensor":
        """X with A X = self, A = L L^T of the Cholesky factor input2 (U^T U with upper)."""
    def cholesky_inverse(self, upper: _bool = False) -> "Tensor":
        """The inverse of A = L L^T (U^T U with upper) from its Cholesky factor, the tensor."""
    def lu_solve(self, LU_data: "Tensor", LU_pivots: "Tensor") -> "Tensor":
        """silt.linalg.lu_solve(LU_data, LU_pivots, self)."""
    def lu(self, pivot: _bool = True, get_infos: _bool = False) -> Tuple["Tensor", ...]:
        """silt.lu(self): (LU, pivots) of silt.linalg.lu_factor, (LU, pivots, infos) with get_infos (no error)."""
    def qr(self, some: _bool = True) -> "linalg.QRResult":
        """silt.linalg.qr(self, 'reduced' if some else 'complete'): (Q, R), Householder QR (LAPACK's signs)."""
    def geqrf(self) -> Tuple["Tensor", "Tensor"]:
        """(a, tau): R on and above the diagonal, the Householder vectors below, as LAPACK's geqrf."""
    def orgqr(self, tau: "Tensor") -> "Tensor":
        """silt.linalg.householder_product(self, tau): Q's first columns from geqrf's (a, tau)."""
    def ormqr(self, tau: "Tensor", other: "Tensor", left: _bool = True, transpose: _bool = False) -> "Tensor":
        """Q (or Q^T) of geqrf's (self, tau) times other (left) or other times it, Q not formed."""
    def svd(self, some: _bool = True, compute_uv: _bool = True) -> Tuple["Tensor", "Tensor", "Tensor"]:
        """(U, S, V) with self = U diag(S) V^T (one-sided Jacobi); V, not V^T, as torch.svd's."""
    def pinverse(self, rcond: _float = 1e-15) -> "Tensor":
        """The pseudo-inverse: silt.linalg.pinv(self, rtol=rcond)."""
    def matrix_exp(self) -> "Tensor":
        """The exponential of the square matrices: scaling and squaring with the [13/13] Pade approximant."""
    def triangular_solve(self, A: "Tensor", upper: _bool = True, transpose: _bool = False,
                         unitriangular: _bool = False) -> "linalg.TriangularSolution":
        """(X, a copy of A) with A X = self (A^T X with transpose), A triangular."""
    def isreal(self) -> "Tensor":
        """A bool tensor of the shape, True everywhere (silt's dtypes are real)."""
    def is_conj(self) -> _bool:
        """False (silt has no conjugate views)."""
    def is_neg(self) -> _bool:
        """False (silt has no negative views)."""
    def conj(self) -> "Tensor":
        """The tensor itself (a real tensor is its own conjugate)."""
    def conj_physical(self) -> "Tensor":
        """The tensor itself, as PyTorch's for a real tensor."""
    def conj_physical_(self) -> "Tensor":
        """Leaves the real tensor as it is; returns it."""
    def resolve_conj(self) -> "Tensor":
        """The tensor itself."""
    def resolve_neg(self) -> "Tensor":
        """The tensor itself."""
    def adjoint(self) -> "Tensor":
        """The transpose of the last two dimensions (mT: silt's dtypes are real), a view."""
    def angle(self) -> "Tensor":
        """pi where negative, 0 elsewhere, NaN where NaN; integers and bool give float32."""
    def nonzero_static(self, *, size: _int, fill_value: _int = -1) -> "Tensor":
        """nonzero()'s indices cut to size rows or padded with rows of fill_value."""
    @property
    def real(self) -> "Tensor":
        """The real part: the tensor itself."""

class Size(int):
    """t.size: the element count, callable as PyTorch's size(): the shape, or size(dim) one length."""

    shape: Tuple[int, ...]
    def __call__(self, dim: Optional[int] = None) -> Any: ...

class ValuesIndices(NamedTuple):
    """The values and indices (int64) of max/min along a dim and of cummax/cummin."""

    values: Tensor
    indices: Tensor

class MantissaExponent(NamedTuple):
    """The mantissa (the input's dtype, magnitude in [0.5, 1)) and the exponent (int32) of frexp."""

    mantissa: Tensor
    exponent: Tensor

class FusionValue:
    """A value of a silt.Fusion: an input, a scalar or a call's result.

    Its operators (+ - * / // % ** & | ^ ~, comparisons, unary -, abs) and any
    operation's name as a method (v.relu(), v.clamp(0, 1)) record calls in its
    Fusion, on values of one dtype (numbers take it; no promotion in a chain).
    """

    @property
    def fusion(self) -> "Fusion":
        """The Fusion that made the value."""
    @property
    def dtype(self) -> Optional[np.dtype[Any]]:
        """Its dtype; None for a number whose dtype the call that uses it fixes."""
    def __add__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __radd__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __sub__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rsub__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __mul__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rmul__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __truediv__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rtruediv__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __floordiv__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rfloordiv__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __mod__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rmod__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __pow__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rpow__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __and__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rand__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __or__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __ror__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __xor__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __rxor__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __eq__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...  # type: ignore[override]
    def __ne__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...  # type: ignore[override]
    def __lt__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __le__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __gt__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __ge__(self, other: Union["FusionValue", Number]) -> "FusionValue": ...
    def __hash__(self) -> int: ...
    def __neg__(self) -> "FusionValue": ...
    def __abs__(self) -> "FusionValue": ...
    def __invert__(self) -> "FusionValue": ...
    def __getattr__(self, name: str) -> Any:
        """An operation's name: a method recording its call on the value."""

class Fusion:
    """A chain of elementwise operations recorded now and run later as one kernel (silt's run-time fusion)."""

    def __init__(self) -> None: ...
    def input(self, t: Union[Tensor, npt.ArrayLike]) -> FusionValue:
        """A tensor the chain reads (inputs broadcast together)."""
    def scalar(self, value: Number, dtype: Any = None) -> FusionValue:
        """A number for an operation's scalar parameter; without dtype, of the call's tensors' dtype."""
    def call(self, op: Any, *args: Union[FusionValue, Number]) -> FusionValue:
        """A call of op (a name or a silt.ops function) on values and numbers."""
    def run(self, *values: FusionValue) -> Any:
        """Runs the chain as one kernel: a tensor for one value, a tuple for several."""
    def source(self, *values: FusionValue) -> str:
        """The OpenCL C program run(*values) builds."""

def zeros(*shape: Union[int, Sequence[int]], dtype: Any = None, device: DeviceLike = None, **size: Sequence[int]) -> Tensor:
    """A new tensor of zeros (float32 unless dtype), filled on device (default: default_device())."""

def ones(*shape: Union[int, Sequence[int]], dtype: Any = None, device: DeviceLike = None, **size: Sequence[int]) -> Tensor:
    """A new tensor of ones, filled on device."""

def empty(*shape: Union[int, Sequence[int]], dtype: Any = None, device: DeviceLike = None, **size: Sequence[int]) -> Tensor:
    """A new tensor whose elements are to be written (silt gives zeros)."""

def full(shape: Union[int, Sequence[int], None] = None, fill_value: Optional[Number] = None, dtype: Any = None, device: DeviceLike = None, *, size: Optional[Sequence[int]] = None) -> Tensor:
    """A new tensor with every element fill_value; dtype by default PyTorch's for the number (bool, int64, float32)."""

def zeros_like(input: Tensor, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """Zeros of input's shape, dtype and device (unless given)."""

def ones_like(input: Tensor, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """Ones of input's shape, dtype and device (unless given)."""

def empty_like(input: Tensor, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """As zeros_like (silt gives zeros)."""

def full_like(input: Tensor, fill_value: Number, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """fill_value in input's shape, dtype and device (unless given)."""

def arange(start: Optional[Number] = None, end: Optional[Number] = None, step: Number = 1, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """start, start + step, ... up to end (excluded); int64 when every argument is an integer, else float32; made on the host."""

def linspace(start: Number, end: Number, steps: int, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """steps evenly spaced values from start to end (both included), as PyTorch computes them; float32 by default."""

def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation as PyTorch's, on the operands' device: views, sums and one batched matmul per pair."""

def searchsorted(sorted_sequence: Operand, input: Operand, *, out_int32: bool = False, right: bool = False, side: Optional[str] = None, sorter: Optional[Operand] = None) -> Tensor:
    """The place (int64, or int32 with out_int32) of each value of input in the sorted last dimension of sorted_sequence, before equal elements (side='left') or after them (right=True, side='right'), as PyTorch's; the two promoted to one dtype."""

def bucketize(input: Operand, boundaries: Operand, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """The bucket of each value of input among the sorted 1-d boundaries: searchsorted(boundaries, input, right=right), as PyTorch's."""

def where(condition: Operand, input: Optional[Operand] = None, other: Optional[Operand] = None, *, out: Any = None) -> Any:
    """input where condition holds, else other, promoted to one dtype; where(condition) alone is condition.nonzero(as_tuple=True)."""

def is_tensor(obj: Any) -> _bool:
    """Whether obj is a silt.Tensor."""

def isin(elements: Operand, test_elements: Operand, *, assume_unique: _bool = False, invert: _bool = False) -> Tensor:
    """Whether each element of elements is among test_elements (bool; NaN in nothing), on the device, as PyTorch's."""

def broadcast_shapes(*shapes: Union[_int, Sequence[_int]]) -> Tuple[_int, ...]:
    """The shape the shapes broadcast to, by NumPy's rules."""

def broadcast_tensors(*tensors: Tensor) -> Tuple[Tensor, ...]:
    """Each tensor as a view of their common broadcast shape."""

def meshgrid(*tensors: Tensor, indexing: str = "ij") -> Tuple[Tensor, ...]:
    """Views of shape (n1, n2, ...) of 0-d or 1-d tensors, the i-th tensor's values along dimension i ("xy": the first two swapped)."""

def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of the 1-d tensors' elements, [n1 * n2 * ..., k]."""

def atleast_1d(*tensors: Tensor) -> Any:
    """Each tensor with at least one dimension (a view); several give a tuple."""

def atleast_2d(*tensors: Tensor) -> Any:
    """Each tensor with at least two dimensions (a view)."""

def atleast_3d(*tensors: Tensor) -> Any:
    """Each tensor with at least three dimensions (a view, as NumPy's)."""

def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Joined along the columns (the first dimension of 1-d tensors)."""

def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Joined along the rows (1-d tensors as rows)."""

def row_stack(tensors: Sequence[Tensor]) -> Tensor:
    """vstack."""

def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """Joined along the third dimension (after atleast_3d)."""

def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """0-d and 1-d tensors as columns, then joined along the columns."""

def block_diag(*tensors: Tensor) -> Tensor:
    """The tensors down the diagonal of a new 2-d tensor, zeros elsewhere."""

def tril_indices(row: _int, col: _int, offset: _int = 0, *, dtype: Any = ..., device: DeviceLike = None) -> Tensor:
    """The coordinates [2, N] of the lower triangle of a row x col matrix."""

def triu_indices(row: _int, col: _int, offset: _int = 0, *, dtype: Any = ..., device: DeviceLike = None) -> Tensor:
    """The coordinates [2, N] of the upper triangle of a row x col matrix."""

# torch.nn.functional's functions that torch has too (silt._nn_functions)

def adaptive_avg_pool1d(input, output_size) -> Tensor:
    """`silt.nn.functional.adaptive_avg_pool1d`, as torch.adaptive_avg_pool1d."""

def adaptive_max_pool1d(input, output_size) -> Tuple[Tensor, Tensor]:
    """`torch.adaptive_max_pool1d(input, output_size)`: the maxima and their indices
    (`F.adaptive_max_pool1d` with `return_indices=True`)."""

def alpha_dropout(input, p, train) -> Tensor:
    """`torch.alpha_dropout(input, p, train)`: `F.alpha_dropout`."""

def alpha_dropout_(input, p, train) -> Tensor:
    """`torch.alpha_dropout_(input, p, train)`: `alpha_dropout` in place."""

def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True) -> Tensor:
    """`silt.nn.functional.avg_pool1d`, as torch.avg_pool1d."""

def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True) -> Tensor:
    """`torch.batch_norm`: the weight and bias before the running statistics (`F.batch_norm`
    takes the statistics first); `cudnn_enabled` has no effect."""

def bilinear(input1, input2, weight, bias=None) -> Tensor:
    """`silt.nn.functional.bilinear`, as torch.bilinear."""

def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1) -> Tensor:
    """`torch.binary_cross_entropy_with_logits`: `pos_weight` before `reduction`, which may be
    ATen's integer."""

def celu(input, alpha=1.0, inplace=False) -> Tensor:
    """`silt.nn.functional.celu`, as torch.celu."""

def celu_(input, alpha=1.0) -> Tensor:
    """`silt.nn.functional.celu_`, as torch.celu_."""

def channel_shuffle(input, groups) -> Tensor:
    """`silt.nn.functional.channel_shuffle`, as torch.channel_shuffle."""

def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """`silt.nn.functional.conv1d`, as torch.conv1d."""

def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """`silt.nn.functional.conv2d`, as torch.conv2d."""

def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """`silt.nn.functional.conv3d`, as torch.conv3d."""

def conv_tbc(input, weight, bias, pad=0) -> Tensor:
    """`silt.nn.functional.conv_tbc`, as torch.conv_tbc."""

def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor:
    """`silt.nn.functional.conv_transpose1d`, as torch.conv_transpose1d."""

def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor:
    """`silt.nn.functional.conv_transpose2d`, as torch.conv_transpose2d."""

def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor:
    """`silt.nn.functional.conv_transpose3d`, as torch.conv_transpose3d."""

def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1) -> Tensor:
    """`torch.cosine_embedding_loss`: `F.cosine_embedding_loss`, the reduction as ATen's integer
    or a name."""

def cosine_similarity(x1, x2, dim=1, eps=1e-08) -> Tensor:
    """`silt.nn.functional.cosine_similarity`, as torch.cosine_similarity."""

def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False) -> Tensor:
    """`torch.ctc_loss`: `F.ctc_loss`, the reduction as ATen's integer or a name."""

def dropout(input, p, train) -> Tensor:
    """`torch.dropout(input, p, train)`: `F.dropout(input, p, training=train)`."""

def dropout_(input, p, train) -> Tensor:
    """`torch.dropout_(input, p, train)`: `dropout` in place."""

def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False) -> Tensor:
    """`torch.embedding(weight, indices, ...)`: the rows of `weight` at `indices` (`F.embedding`
    takes the indices first; `padding_idx`, which only masks gradients, has no effect here)."""

def feature_alpha_dropout(input, p, train) -> Tensor:
    """`torch.feature_alpha_dropout(input, p, train)`: `F.feature_alpha_dropout`."""

def feature_alpha_dropout_(input, p, train) -> Tensor:
    """`torch.feature_alpha_dropout_(input, p, train)`: in place."""

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True) -> Tensor:
    """`torch.group_norm`: `F.group_norm`; `cudnn_enabled` has no effect."""

def hardshrink(input, lambd=0.5) -> Tensor:
    """`silt.nn.functional.hardshrink`, as torch.hardshrink."""

def hinge_embedding_loss(input, target, margin=1.0, reduction=1) -> Tensor:
    """`torch.hinge_embedding_loss`: `F.hinge_embedding_loss`, the reduction as ATen's integer
    or a name."""

def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled=True) -> Tensor:
    """`torch.instance_norm`: the weight and bias before the running statistics
    (`F.instance_norm` takes the statistics first); `cudnn_enabled` has no effect."""

def kl_div(input, target, reduction=1, *, log_target=False) -> Tensor:
    """`torch.kl_div`: `F.kl_div`, the reduction as ATen's integer or a name."""

def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True) -> Tensor:
    """`torch.layer_norm`: `F.layer_norm`; `cudnn_enable` has no effect."""

def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False) -> Tuple[Tensor, Tensor]:
    """`torch.max_pool1d_with_indices`: `(output, indices)` of `F.max_pool1d`."""

def constant_pad_nd(input, pad, value=0) -> Tensor:
    """`torch.constant_pad_nd`: `F.pad(input, pad, 'constant', value)`."""

def native_layer_norm(input, normalized_shape, weight, bias, eps) -> Tuple[Tensor, Tensor, Tensor]:
    """`torch.native_layer_norm`: `(output, mean, rstd)`, the statistics kept."""

def native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> Tuple[Tensor, Tensor, Tensor]:
    """`torch.native_group_norm`: `(output, mean, rstd)`, the statistics `[N, group]`."""

def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps) -> Tuple[Tensor, Tensor, Tensor]:
    """`torch.native_batch_norm`: `(output, save_mean, save_invstd)` (empty when not training)."""

def native_dropout(input, p, train) -> Tuple[Tensor, Tensor]:
    """`torch.native_dropout`: `(output, mask)`."""

def norm_except_dim(v, pow=2, dim=0) -> Tensor:
    """`torch.norm_except_dim`: the norm over every dimension but `dim`, kept (-1: the whole tensor)."""

def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """`torch.rnn_tanh_cell`: one step of an Elman RNN with tanh."""

def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """`torch.rnn_relu_cell`: one step of an Elman RNN with relu."""

def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tuple[Tensor, Tensor]:
    """`torch.lstm_cell`: one step of an LSTM, `(h', c')`."""

def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """`torch.gru_cell`: one step of a GRU."""

def native_channel_shuffle(input, groups) -> Tensor:
    """`silt.nn.functional.native_channel_shuffle`, as torch.native_channel_shuffle."""

def feature_dropout(input, p, train) -> Tensor:
    """`torch.feature_dropout`: dropout of the slices of the first two dimensions."""

def feature_dropout_(input, p, train) -> Tensor:
    """`torch.feature_dropout_`: `feature_dropout` in place."""

def embedding_renorm_(input, indices, max_norm, norm_type) -> Tensor:
    """`torch.embedding_renorm_`: the rows at `indices` above `max_norm` scaled in place."""

def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups) -> Tensor:
    """`torch.convolution`: ATen's one convolution, transposed or not, by the weight's rank."""

def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners) -> Tensor:
    """`torch.grid_sampler`: `F.grid_sample` with ATen's modes as integers."""

def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners) -> Tensor:
    """`torch.grid_sampler_2d`: `grid_sampler` of a 4-d input."""

def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners) -> Tensor:
    """`torch.grid_sampler_3d`: `grid_sampler` of a 5-d input."""

def affine_grid_generator(theta, size, align_corners) -> Tensor:
    """`torch.affine_grid_generator`: `F.affine_grid`."""

def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1) -> Tensor:
    """`torch.margin_ranking_loss`: `F.margin_ranking_loss`, the reduction as ATen's integer or
    a name."""

def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor:
    """`silt.nn.functional.max_pool1d`, as torch.max_pool1d."""

def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor:
    """`silt.nn.functional.max_pool2d`, as torch.max_pool2d."""

def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor:
    """`silt.nn.functional.max_pool3d`, as torch.max_pool3d."""

def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False) -> Tensor:
    """`silt.nn.functional.pairwise_distance`, as torch.pairwise_distance."""

def pdist(input, p=2) -> Tensor:
    """`silt.nn.functional.pdist`, as torch.pdist."""

def pixel_shuffle(input, upscale_factor) -> Tensor:
    """`silt.nn.functional.pixel_shuffle`, as torch.pixel_shuffle."""

def pixel_unshuffle(input, downscale_factor) -> Tensor:
    """`silt.nn.functional.pixel_unshuffle`, as torch.pixel_unshuffle."""

def poisson_nll_loss(input, target, log_input, full, eps, reduction) -> Tensor:
    """`torch.poisson_nll_loss(input, target, log_input, full, eps, reduction)`: every argument
    given, the reduction as ATen's integer or a name."""

def prelu(input, weight) -> Tensor:
    """`silt.nn.functional.prelu`, as torch.prelu."""

def relu_(input) -> Tensor:
    """`silt.nn.functional.relu_`, as torch.relu_."""

def rms_norm(input, normalized_shape, weight=None, eps=None) -> Tensor:
    """`silt.nn.functional.rms_norm`, as torch.rms_norm."""

def rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None) -> Tensor:
    """`torch.rrelu`: `F.rrelu` (only `generator=None` is taken, as silt's random functions take
    it)."""

def rrelu_(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None) -> Tensor:
    """`torch.rrelu_`: `rrelu` in place."""

def selu_(input) -> Tensor:
    """`silt.nn.functional.selu_`, as torch.selu_."""

def threshold(input, threshold, value, inplace=False) -> Tensor:
    """`silt.nn.functional.threshold`, as torch.threshold."""

def threshold_(input, threshold, value) -> Tensor:
    """`silt.nn.functional.threshold_`, as torch.threshold_."""

def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=1) -> Tensor:
    """`torch.triplet_margin_loss`: `F.triplet_margin_loss`, the reduction as ATen's integer or
    a name."""

def cdist(x1: Tensor, x2: Tensor, p: _float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance of every row of x1 to every row of x2, [..., P, R]."""

def histogram(input: Tensor, bins: Union[_int, Tensor] = 100, *, range: Optional[Tuple[_float, _float]] = None, weight: Optional[Operand] = None, density: _bool = False) -> Tuple[Tensor, Tensor]:
    """(hist, bin_edges) of a float tensor, as NumPy's histogram, on its device."""

def unique_consecutive(input: Tensor, return_inverse: _bool = False, return_counts: _bool = False, dim: Optional[_int] = None) -> Any:
    """The elements with each run of equal neighbours kept once (read as 1-d), and optionally each element's run and each run's length."""

def std_mean(input: Tensor, dim: Dim = None, *, correction: _float = 1, keepdim: _bool = False) -> Tuple[Tensor, Tensor]:
    """(input.std(...), input.mean(...)) over dim."""

def var_mean(input: Tensor, dim: Dim = None, *, correction: _float = 1, keepdim: _bool = False) -> Tuple[Tensor, Tensor]:
    """(input.var(...), input.mean(...)) over dim."""

def cov(input: Tensor, *, correction: _int = 1, fweights: Optional[Operand] = None, aweights: Optional[Operand] = None) -> Tensor:
    """The covariance matrix of the variables in the rows of input, as NumPy's cov."""

def corrcoef(input: Tensor) -> Tensor:
    """Pearson's correlation coefficients of the variables in the rows of input."""

def logspace(start: Number, end: Number, steps: _int, base: _float = 10.0, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """base to the powers of linspace(start, end, steps), float32 by default."""

def trapezoid(y: Tensor, x: Optional[Operand] = None, *, dx: Optional[Number] = None, dim: _int = -1) -> Tensor:
    """The integral of y along dim by the trapezoidal rule."""

def trapz(y: Tensor, x: Optional[Operand] = None, *, dx: Optional[Number] = None, dim: _int = -1) -> Tensor:
    """trapezoid."""

def cumulative_trapezoid(y: Tensor, x: Optional[Operand] = None, *, dx: Optional[Number] = None, dim: _int = -1) -> Tensor:
    """The running integral of trapezoid (one element fewer along dim)."""

def ldexp(input: Operand, other: Operand) -> Tensor:
    """input * 2 ** other, a float result."""

def polygamma(n: _int, input: Operand) -> Tensor:
    """The n-th derivative of digamma, n first, as torch.polygamma."""

def tensordot(a: Tensor, b: Tensor, dims: Union[_int, Tuple[Sequence[_int], Sequence[_int]]] = 2) -> Tensor:
    """The sum over the last dims dimensions of a and the first dims of b (or the listed pairs), one matmul."""

def vander(x: Tensor, N: Optional[_int] = None, increasing: _bool = False) -> Tensor:
    """The powers of the 1-d x, N columns, as PyTorch makes them (a running product)."""

def diagflat(input: Tensor, offset: _int = 0) -> Tensor:
    """The elements of input (read as 1-d) on the diagonal offset of a new square matrix."""

# more of torch's functions, composed (silt._extras)

def hann_window(window_length: _int, periodic: _bool = True, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """0.5 - 0.5 cos(2 pi k / (N - 1)), N one longer where periodic (the last element dropped); float32 by default."""

def hamming_window(window_length: _int, periodic: _bool = True, alpha: _float = 0.54, beta: _float = 0.46, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """alpha - beta cos(2 pi k / (N - 1)), as PyTorch computes it; periodic and dtype as hann_window's."""

def blackman_window(window_length: _int, periodic: _bool = True, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1)); periodic and dtype as hann_window's."""

def bartlett_window(window_length: _int, periodic: _bool = True, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """The triangle 2k / (N - 1), then 2 - 2k / (N - 1); periodic and dtype as hann_window's."""

def kaiser_window(window_length: _int, periodic: _bool = True, beta: _float = 12.0, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """i0(beta sqrt(1 - ((k - a) / a)^2)) / i0(beta), a = (N - 1) / 2; periodic and dtype as hann_window's."""

def from_numpy(ndarray: np.ndarray[Any, Any]) -> Tensor:
    """A host tensor over the array's memory (read-only or unaligned arrays copied; negative strides refused)."""

def as_tensor(data: Any, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """data as a tensor without a copy where it can be (a tensor itself; an array shared on the host)."""

def asarray(obj: Any, *, dtype: Any = None, device: DeviceLike = None, copy: Optional[_bool] = None) -> Tensor:
    """obj as a tensor sharing its memory where it can (an array on the host); copy=False refuses a copy."""

def rsub(input: Operand, other: Operand, *, alpha: Number = 1) -> Tensor:
    """other - alpha * input, as sub's promotion and checks."""

def unravel_index(indices: Operand, shape: Union[_int, Sequence[_int]]) -> Tuple[Tensor, ...]:
    """The coordinates (int64) in shape of each flat index in [-N, N); one out of range is IndexOutOfRangeError."""

def combinations(input: Operand, r: _int = 2, with_replacement: _bool = False) -> Tensor:
    """The r-element combinations of the 1-d input's elements, one a row, in itertools' order."""

def diagonal_scatter(input: Operand, src: Operand, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> Tensor:
    """input.diagonal_scatter(src, offset, dim1, dim2)."""

def select_scatter(input: Operand, src: Operand, dim: _int, index: _int) -> Tensor:
    """input.select_scatter(src, dim, index)."""

def slice_scatter(input: Operand, src: Operand, dim: _int = 0, start: Optional[_int] = None, end: Optional[_int] = None, step: _int = 1) -> Tensor:
    """input.slice_scatter(src, dim, start, end, step)."""

def narrow_copy(input: Operand, dim: _int, start: Any, length: _int) -> Tensor:
    """input.narrow_copy(dim, start, length)."""

def split_with_sizes(input: Operand, split_sizes: Sequence[_int], dim: _int = 0) -> Tuple[Tensor, ...]:
    """input.split_with_sizes(split_sizes, dim)."""

def renorm(input: Operand, p: _float, dim: _int, maxnorm: _float) -> Tensor:
    """input.renorm(p, dim, maxnorm)."""

def frexp(input: Operand) -> MantissaExponent:
    """input.frexp(): (mantissa, exponent int32)."""

def nextafter(input: Operand, other: Operand) -> Tensor:
    """input.nextafter(other)."""

def is_signed(input: Operand) -> _bool:
    """input.is_signed()."""

# more of torch's functions (silt._more): the in-place functions, silt.NAME_(input, ...) is input.NAME_(...)
def abs_(input: Tensor) -> Tensor: ...
def acos_(input: Tensor) -> Tensor: ...
def acosh_(input: Tensor) -> Tensor: ...
def addmv_(input: Tensor, mat: Operand, vec: Operand, *, beta: Any = 1, alpha: Any = 1) -> Tensor: ...
def arccos_(input: Tensor) -> Tensor: ...
def arccosh_(input: Tensor) -> Tensor: ...
def arcsin_(input: Tensor) -> Tensor: ...
def arcsinh_(input: Tensor) -> Tensor: ...
def arctan_(input: Tensor) -> Tensor: ...
def arctanh_(input: Tensor) -> Tensor: ...
def asin_(input: Tensor) -> Tensor: ...
def asinh_(input: Tensor) -> Tensor: ...
def atan_(input: Tensor) -> Tensor: ...
def atanh_(input: Tensor) -> Tensor: ...
def ceil_(input: Tensor) -> Tensor: ...
def clamp_(input: Tensor, min: Optional[Operand] = None, max: Optional[Operand] = None) -> Tensor: ...
def clamp_max_(input: Tensor, bound: Operand) -> Tensor: ...
def clamp_min_(input: Tensor, bound: Operand) -> Tensor: ...
def clip_(input: Tensor, min: Optional[Operand] = None, max: Optional[Operand] = None) -> Tensor: ...
def conj_physical_(input: Tensor) -> Tensor: ...
def cos_(input: Tensor) -> Tensor: ...
def cosh_(input: Tensor) -> Tensor: ...
def deg2rad_(input: Tensor) -> Tensor: ...
def erf_(input: Tensor) -> Tensor: ...
def erfc_(input: Tensor) -> Tensor: ...
def exp2_(input: Tensor) -> Tensor: ...
def exp_(input: Tensor) -> Tensor: ...
def expm1_(input: Tensor) -> Tensor: ...
def fill_(input: Tensor, value: Number) -> Tensor: ...
def fix_(input: Tensor) -> Tensor: ...
def floor_(input: Tensor) -> Tensor: ...
def frac_(input: Tensor) -> Tensor: ...
def gcd_(input: Tensor, other: Operand) -> Tensor: ...
def i0_(input: Tensor) -> Tensor: ...
def index_put_(input: Tensor, indices: Sequence[Any], values: Operand, accumulate: _bool = False) -> Tensor: ...
def lcm_(input: Tensor, other: Operand) -> Tensor: ...
def ldexp_(input: Tensor, other: Operand) -> Tensor: ...
def log10_(input: Tensor) -> Tensor: ...
def log1p_(input: Tensor) -> Tensor: ...
def log2_(input: Tensor) -> Tensor: ...
def log_(input: Tensor) -> Tensor: ...
def logit_(input: Tensor, eps: Optional[float] = None) -> Tensor: ...
def nan_to_num_(input: Tensor, nan: float = 0.0, posinf: Optional[float] = None, neginf: Optional[float] = None) -> Tensor: ...
def neg_(input: Tensor) -> Tensor: ...
def negative_(input: Tensor) -> Tensor: ...
def rad2deg_(input: Tensor) -> Tensor: ...
def reciprocal_(input: Tensor) -> Tensor: ...
def round_(input: Tensor) -> Tensor: ...
def rsqrt_(input: Tensor) -> Tensor: ...
def sigmoid_(input: Tensor) -> Tensor: ...
def sin_(input: Tensor) -> Tensor: ...
def sinc_(input: Tensor) -> Tensor: ...
def sinh_(input: Tensor) -> Tensor: ...
def sqrt_(input: Tensor) -> Tensor: ...
def square_(input: Tensor) -> Tensor: ...
def tan_(input: Tensor) -> Tensor: ...
def tanh_(input: Tensor) -> Tensor: ...
def trunc_(input: Tensor) -> Tensor: ...
def xlogy_(input: Tensor, other: Operand) -> Tensor: ...
def zero_(input: Tensor) -> Tensor: ...

def matrix_power(input: Operand, n: _int) -> Tensor:
    """input.matrix_power(n): square matrices (batched) to the power n; a negative n inverts first (float matrices)."""

def det(A: Operand) -> Tensor:
    """silt.linalg.det: the determinants of the square matrices (batched), from the LU factors."""

def logdet(input: Operand) -> Tensor:
    """The log of the determinants of the square matrices: NaN where negative, -inf where 0."""

def slogdet(A: Operand) -> "linalg.SignLogAbsDet":
    """silt.linalg.slogdet: (sign, logabsdet) of the determinants."""

def inverse(A: Operand) -> Tensor:
    """silt.linalg.inv: the inverses of the square matrices; a singular one raises ArgumentError."""

def cholesky(input: Operand, upper: _bool = False) -> Tensor:
    """torch.cholesky's form of silt.linalg.cholesky: L with A = L L^T (U = L^T with upper)."""

def cholesky_solve(input: Operand, input2: Operand, upper: _bool = False) -> Tensor:
    """X with A X = input (B), A = L L^T of the Cholesky factor input2 (U^T U with upper)."""

def cholesky_inverse(input: Operand, upper: _bool = False) -> Tensor:
    """The inverse of A = L L^T (U^T U with upper) from its Cholesky factor."""

def lu_solve(input: Operand, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """torch.lu_solve(b, LU_data, LU_pivots): silt.linalg.lu_solve(LU_data, LU_pivots, b)."""

def qr(input: Operand, some: _bool = True) -> "linalg.QRResult":
    """torch.qr: silt.linalg.qr(input, 'reduced' if some else 'complete'), Householder QR (LAPACK's signs)."""

def geqrf(input: Operand) -> Tuple[Tensor, Tensor]:
    """(a, tau): R on and above the diagonal, the Householder vectors below, as LAPACK's geqrf."""

def orgqr(input: Operand, tau: Operand) -> Tensor:
    """silt.linalg.householder_product: Q's first columns from geqrf's (a, tau)."""

def ormqr(input: Operand, tau: Operand, other: Operand, left: _bool = True, transpose: _bool = False) -> Tensor:
    """Q (or Q^T) of geqrf's (input, tau) times other (left) or other times it, Q not formed."""

def svd(input: Operand, some: _bool = True, compute_uv: _bool = True) -> Tuple[Tensor, Tensor, Tensor]:
    """torch.svd: (U, S, V) with input = U diag(S) V^T (one-sided Jacobi); V, not V^T."""

def pinverse(input: Operand, rcond: _float = 1e-15) -> Tensor:
    """The pseudo-inverse: silt.linalg.pinv(input, rtol=rcond)."""

def nuclear_norm(input: Operand, dim: Any = None, keepdim: _bool = False) -> Tensor:
    """The sum of the singular values of the matrices (the last two dimensions, or dim)."""

def matrix_exp(A: Operand) -> Tensor:
    """The exponential of the square matrices: scaling and squaring with the [13/13] Pade approximant."""

def lu(A: Operand, pivot: _bool = True, get_infos: _bool = False) -> Tuple[Tensor, ...]:
    """torch.lu: (LU, pivots) of silt.linalg.lu_factor, (LU, pivots, infos) with get_infos (no error then)."""

def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: _bool = True,
              unpack_pivots: _bool = True) -> "linalg.PLU":
    """(P, L, U) of lu_factor's (LU, pivots); L and U empty without unpack_data, P without unpack_pivots."""

def triangular_solve(input: Operand, A: Operand, upper: _bool = True, transpose: _bool = False,
                     unitriangular: _bool = False) -> "linalg.TriangularSolution":
    """torch.triangular_solve(b, A): (X, a copy of A) with A X = b (A^T X with transpose), A triangular."""

def chain_matmul(*matrices: Tensor) -> Tensor:
    """The product of 2-d matrices of one dtype in the order of fewest multiplications; one matrix gives a copy."""

def gradient(input: Operand, *, spacing: Any = 1, dim: Dim = None, edge_order: _int = 1) -> Tuple[Tensor, ...]:
    """The derivative along each dimension of dim (all by default) by finite differences, as numpy.gradient."""

def can_cast(from_: Any, to: Any) -> _bool:
    """Whether from_ casts to to by PyTorch's rule: within its category or up (bool < integer < float)."""

def promote_types(type1: Any, type2: Any) -> np.dtype[Any]:
    """The dtype two dtypes promote to, by silt's operators' (PyTorch's) rules."""

def scalar_tensor(s: Any, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """A 0-d tensor of the number s, float32 by default."""

def isreal(input: Operand) -> Tensor:
    """input.isreal(): True everywhere (silt's dtypes are real)."""

def is_conj(input: Operand) -> _bool:
    """False."""

def is_neg(input: Operand) -> _bool:
    """False."""

def conj(input: Operand) -> Tensor:
    """The tensor itself (real)."""

def conj_physical(input: Operand) -> Tensor:
    """The tensor itself (real), as PyTorch's."""

def resolve_conj(input: Operand) -> Tensor:
    """The tensor itself."""

def resolve_neg(input: Operand) -> Tensor:
    """The tensor itself."""

def real(input: Operand) -> Tensor:
    """The real part: the tensor itself."""

def adjoint(input: Operand) -> Tensor:
    """The transpose of the last two dimensions (mT: silt's dtypes are real), a view."""

def angle(input: Operand) -> Tensor:
    """pi where negative, 0 elsewhere, NaN where NaN; integers and bool give float32."""

def nonzero_static(input: Operand, *, size: _int, fill_value: _int = -1) -> Tensor:
    """nonzero()'s indices (int64 [size, ndim]) cut to size rows or padded with rows of fill_value."""

def randint_like(input: Tensor, low: _int = 0, high: Optional[_int] = None, *, dtype: Any = None,
                 device: DeviceLike = None, generator: None = None) -> Tensor:
    """randint in input's shape, dtype and device (unless given): randint_like(t, high) or (t, low, high)."""

def histogramdd(input: Tensor, bins: Any, *, range: Optional[Sequence[_float]] = None, weight: Optional[Operand] = None, density: _bool = False) -> Any:
    """(hist, bin_edges) of points [..., D], as PyTorch's histogramdd, on their device."""

def as_strided_scatter(input: Operand, src: Operand, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> Tensor:
    """A row-major copy of input with the view as_strided(size, stride, storage_offset) written with src."""

def as_strided_(input: Tensor, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> Tensor:
    """input.as_strided_(size, stride, storage_offset)."""

def unsafe_chunk(input: Operand, chunks: _int, dim: _int = 0) -> List[Tensor]:
    """chunk (silt has no autograd checks to skip)."""

def unsafe_split(input: Operand, split_size_or_sections: Any, dim: _int = 0) -> List[Tensor]:
    """split."""

def unsafe_split_with_sizes(input: Operand, split_sizes: Sequence[_int], dim: _int = 0) -> List[Tensor]:
    """split_with_sizes."""

def empty_strided(size: Sequence[_int], stride: Sequence[_int], *, dtype: Any = None,
                  device: DeviceLike = None) -> Tensor:
    """A new tensor of that shape and those strides (float32 by default; zeroed)."""

def empty_permuted(size: Sequence[_int], physical_layout: Sequence[_int], *, dtype: Any = None,
                   device: DeviceLike = None) -> Tensor:
    """A new tensor laid out in the order of the dimensions physical_layout (outermost first; zeroed)."""

def alias_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.alias_copy: alias's result as new contiguous tensors, not views."""

def as_strided_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.as_strided_copy: as_strided's result as new contiguous tensors, not views."""

def detach_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.detach_copy: detach's result as new contiguous tensors, not views."""

def diagonal_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.diagonal_copy: diagonal's result as new contiguous tensors, not views."""

def expand_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.expand_copy: expand's result as new contiguous tensors, not views."""

def permute_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.permute_copy: permute's result as new contiguous tensors, not views."""

def select_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.select_copy: select's result as new contiguous tensors, not views."""

def slice_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.slice_copy: slice's result as new contiguous tensors, not views."""

def split_copy(input: Operand, *args: Any, **kwargs: Any) -> List[Tensor]:
    """torch.split_copy: split's result as new contiguous tensors, not views."""

def split_with_sizes_copy(input: Operand, *args: Any, **kwargs: Any) -> List[Tensor]:
    """torch.split_with_sizes_copy: split_with_sizes's result as new contiguous tensors, not views."""

def squeeze_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.squeeze_copy: squeeze's result as new contiguous tensors, not views."""

def t_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.t_copy: t's result as new contiguous tensors, not views."""

def transpose_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.transpose_copy: transpose's result as new contiguous tensors, not views."""

def unbind_copy(input: Operand, *args: Any, **kwargs: Any) -> List[Tensor]:
    """torch.unbind_copy: unbind's result as new contiguous tensors, not views."""

def unfold_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.unfold_copy: unfold's result as new contiguous tensors, not views."""

def unsqueeze_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.unsqueeze_copy: unsqueeze's result as new contiguous tensors, not views."""

def view_copy(input: Operand, *args: Any, **kwargs: Any) -> Tensor:
    """torch.view_copy: view's result as new contiguous tensors, not views."""

def fill(input: Operand, value: Any) -> Tensor:
    """A new tensor like input with every element value (a number or a 0-d tensor)."""

def frobenius_norm(input: Operand, dim: Dim = (-2, -1), keepdim: _bool = False) -> Tensor:
    """The square root of the sum of squares over one or two dimensions (the last two by default)."""

# PyTorch's functions that are tensor methods: silt.NAME(input, ...) is input.NAME(...)

def abs(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.abs(...)` (see Tensor.abs), as torch.abs."""

def absolute(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.absolute(...)` (see Tensor.absolute), as torch.absolute."""

def acos(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.acos(...)` (see Tensor.acos), as torch.acos."""

def acosh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.acosh(...)` (see Tensor.acosh), as torch.acosh."""

def arccos(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arccos(...)` (see Tensor.arccos), as torch.arccos."""

def arccosh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arccosh(...)` (see Tensor.arccosh), as torch.arccosh."""

def arcsin(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arcsin(...)` (see Tensor.arcsin), as torch.arcsin."""

def arcsinh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arcsinh(...)` (see Tensor.arcsinh), as torch.arcsinh."""

def arctan(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arctan(...)` (see Tensor.arctan), as torch.arctan."""

def arctanh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arctanh(...)` (see Tensor.arctanh), as torch.arctanh."""

def asin(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.asin(...)` (see Tensor.asin), as torch.asin."""

def asinh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.asinh(...)` (see Tensor.asinh), as torch.asinh."""

def atan(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.atan(...)` (see Tensor.atan), as torch.atan."""

def atanh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.atanh(...)` (see Tensor.atanh), as torch.atanh."""

def bitwise_not(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bitwise_not(...)` (see Tensor.bitwise_not), as torch.bitwise_not."""

def ceil(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.ceil(...)` (see Tensor.ceil), as torch.ceil."""

def cos(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.cos(...)` (see Tensor.cos), as torch.cos."""

def cosh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.cosh(...)` (see Tensor.cosh), as torch.cosh."""

def deg2rad(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.deg2rad(...)` (see Tensor.deg2rad), as torch.deg2rad."""

def erf(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.erf(...)` (see Tensor.erf), as torch.erf."""

def erfc(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.erfc(...)` (see Tensor.erfc), as torch.erfc."""

def erfinv(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.erfinv(...)` (see Tensor.erfinv), as torch.erfinv."""

def i0(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.i0(...)` (see Tensor.i0), as torch.i0."""

def lgamma(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.lgamma(...)` (see Tensor.lgamma), as torch.lgamma."""

def digamma(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.digamma(...)` (see Tensor.digamma), as torch.digamma."""

def mvlgamma(input: Operand, p: _int, *, out: Any = None) -> 'Tensor':
    """`input.mvlgamma(...)` (see Tensor.mvlgamma), as torch.mvlgamma."""

def exp(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.exp(...)` (see Tensor.exp), as torch.exp."""

def exp2(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.exp2(...)` (see Tensor.exp2), as torch.exp2."""

def expm1(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.expm1(...)` (see Tensor.expm1), as torch.expm1."""

def fix(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.fix(...)` (see Tensor.fix), as torch.fix."""

def floor(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.floor(...)` (see Tensor.floor), as torch.floor."""

def frac(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.frac(...)` (see Tensor.frac), as torch.frac."""

def isfinite(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.isfinite(...)` (see Tensor.isfinite), as torch.isfinite."""

def isinf(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.isinf(...)` (see Tensor.isinf), as torch.isinf."""

def isnan(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.isnan(...)` (see Tensor.isnan), as torch.isnan."""

def log(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.log(...)` (see Tensor.log), as torch.log."""

def log10(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.log10(...)` (see Tensor.log10), as torch.log10."""

def log1p(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.log1p(...)` (see Tensor.log1p), as torch.log1p."""

def log2(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.log2(...)` (see Tensor.log2), as torch.log2."""

def logical_not(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.logical_not(...)` (see Tensor.logical_not), as torch.logical_not."""

def logit(input: Operand, eps: Optional[float]=None, *, out: Any = None) -> 'Tensor':
    """`input.logit(...)` (see Tensor.logit), as torch.logit."""

def nan_to_num(input: Operand, nan: float=0.0, posinf: Optional[float]=None, neginf: Optional[float]=None, *, out: Any = None) -> 'Tensor':
    """`input.nan_to_num(...)` (see Tensor.nan_to_num), as torch.nan_to_num."""

def neg(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.neg(...)` (see Tensor.neg), as torch.neg."""

def negative(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.negative(...)` (see Tensor.negative), as torch.negative."""

def rad2deg(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.rad2deg(...)` (see Tensor.rad2deg), as torch.rad2deg."""

def reciprocal(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.reciprocal(...)` (see Tensor.reciprocal), as torch.reciprocal."""

def relu(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.relu(...)` (see Tensor.relu), as torch.relu."""

def round(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.round(...)` (see Tensor.round), as torch.round."""

def rsqrt(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.rsqrt(...)` (see Tensor.rsqrt), as torch.rsqrt."""

def selu(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.selu(...)` (see Tensor.selu), as torch.selu."""

def sgn(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sgn(...)` (see Tensor.sgn), as torch.sgn."""

def sigmoid(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sigmoid(...)` (see Tensor.sigmoid), as torch.sigmoid."""

def sign(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sign(...)` (see Tensor.sign), as torch.sign."""

def signbit(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.signbit(...)` (see Tensor.signbit), as torch.signbit."""

def sin(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sin(...)` (see Tensor.sin), as torch.sin."""

def sinc(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sinc(...)` (see Tensor.sinc), as torch.sinc."""

def sinh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sinh(...)` (see Tensor.sinh), as torch.sinh."""

def sqrt(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.sqrt(...)` (see Tensor.sqrt), as torch.sqrt."""

def square(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.square(...)` (see Tensor.square), as torch.square."""

def tan(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.tan(...)` (see Tensor.tan), as torch.tan."""

def tanh(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.tanh(...)` (see Tensor.tanh), as torch.tanh."""

def trunc(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.trunc(...)` (see Tensor.trunc), as torch.trunc."""

def add(input: Operand, other: Operand, *, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.add(...)` (see Tensor.add), as torch.add."""

def sub(input: Operand, other: Operand, *, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.sub(...)` (see Tensor.sub), as torch.sub."""

def subtract(input: Operand, other: Operand, *, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.subtract(...)` (see Tensor.subtract), as torch.subtract."""

def mul(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.mul(...)` (see Tensor.mul), as torch.mul."""

def multiply(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.multiply(...)` (see Tensor.multiply), as torch.multiply."""

def div(input: Operand, other: Operand, *, rounding_mode: Optional[str]=None, out: Any = None) -> 'Tensor':
    """`input.div(...)` (see Tensor.div), as torch.div."""

def divide(input: Operand, other: Operand, *, rounding_mode: Optional[str]=None, out: Any = None) -> 'Tensor':
    """`input.divide(...)` (see Tensor.divide), as torch.divide."""

def true_divide(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.true_divide(...)` (see Tensor.true_divide), as torch.true_divide."""

def floor_divide(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.floor_divide(...)` (see Tensor.floor_divide), as torch.floor_divide."""

def remainder(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.remainder(...)` (see Tensor.remainder), as torch.remainder."""

def fmod(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.fmod(...)` (see Tensor.fmod), as torch.fmod."""

def pow(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.pow(...)` (see Tensor.pow), as torch.pow."""

def float_power(input: Operand, exponent: Operand, *, out: Any = None) -> 'Tensor':
    """`input.float_power(...)` (see Tensor.float_power), as torch.float_power."""

def maximum(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.maximum(...)` (see Tensor.maximum), as torch.maximum."""

def minimum(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.minimum(...)` (see Tensor.minimum), as torch.minimum."""

def fmax(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.fmax(...)` (see Tensor.fmax), as torch.fmax."""

def fmin(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.fmin(...)` (see Tensor.fmin), as torch.fmin."""

def atan2(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.atan2(...)` (see Tensor.atan2), as torch.atan2."""

def arctan2(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.arctan2(...)` (see Tensor.arctan2), as torch.arctan2."""

def hypot(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.hypot(...)` (see Tensor.hypot), as torch.hypot."""

def igamma(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.igamma(...)` (see Tensor.igamma), as torch.igamma."""

def igammac(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.igammac(...)` (see Tensor.igammac), as torch.igammac."""

def gcd(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.gcd(...)` (see Tensor.gcd), as torch.gcd."""

def lcm(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.lcm(...)` (see Tensor.lcm), as torch.lcm."""

def copysign(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.copysign(...)` (see Tensor.copysign), as torch.copysign."""

def eq(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.eq(...)` (see Tensor.eq), as torch.eq."""

def ne(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.ne(...)` (see Tensor.ne), as torch.ne."""

def not_equal(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.not_equal(...)` (see Tensor.not_equal), as torch.not_equal."""

def lt(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.lt(...)` (see Tensor.lt), as torch.lt."""

def less(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.less(...)` (see Tensor.less), as torch.less."""

def le(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.le(...)` (see Tensor.le), as torch.le."""

def less_equal(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.less_equal(...)` (see Tensor.less_equal), as torch.less_equal."""

def gt(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.gt(...)` (see Tensor.gt), as torch.gt."""

def greater(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.greater(...)` (see Tensor.greater), as torch.greater."""

def ge(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.ge(...)` (see Tensor.ge), as torch.ge."""

def greater_equal(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.greater_equal(...)` (see Tensor.greater_equal), as torch.greater_equal."""

def bitwise_and(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bitwise_and(...)` (see Tensor.bitwise_and), as torch.bitwise_and."""

def bitwise_or(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bitwise_or(...)` (see Tensor.bitwise_or), as torch.bitwise_or."""

def bitwise_xor(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bitwise_xor(...)` (see Tensor.bitwise_xor), as torch.bitwise_xor."""

def bitwise_left_shift(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bitwise_left_shift(...)` (see Tensor.bitwise_left_shift), as torch.bitwise_left_shift."""

def bitwise_right_shift(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bitwise_right_shift(...)` (see Tensor.bitwise_right_shift), as torch.bitwise_right_shift."""

def logical_and(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.logical_and(...)` (see Tensor.logical_and), as torch.logical_and."""

def logical_or(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.logical_or(...)` (see Tensor.logical_or), as torch.logical_or."""

def logical_xor(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.logical_xor(...)` (see Tensor.logical_xor), as torch.logical_xor."""

def heaviside(input: Operand, values: Operand, *, out: Any = None) -> 'Tensor':
    """`input.heaviside(...)` (see Tensor.heaviside), as torch.heaviside."""

def logaddexp(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.logaddexp(...)` (see Tensor.logaddexp), as torch.logaddexp."""

def logaddexp2(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.logaddexp2(...)` (see Tensor.logaddexp2), as torch.logaddexp2."""

def xlogy(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.xlogy(...)` (see Tensor.xlogy), as torch.xlogy."""

def isclose(input: Operand, other: Operand, rtol: _float=1e-05, atol: _float=1e-08, equal_nan: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.isclose(...)` (see Tensor.isclose), as torch.isclose."""

def allclose(input: Operand, other: Operand, rtol: _float=1e-05, atol: _float=1e-08, equal_nan: _bool=False, *, out: Any = None) -> _bool:
    """`input.allclose(...)` (see Tensor.allclose), as torch.allclose."""

def equal(input: Operand, other: 'Tensor', *, out: Any = None) -> _bool:
    """`input.equal(...)` (see Tensor.equal), as torch.equal."""

def lerp(input: Operand, end: Operand, weight: Operand, *, out: Any = None) -> 'Tensor':
    """`input.lerp(...)` (see Tensor.lerp), as torch.lerp."""

def addcmul(input: Operand, tensor1: Operand, tensor2: Operand, value: Number=1, *, out: Any = None) -> 'Tensor':
    """`input.addcmul(...)` (see Tensor.addcmul), as torch.addcmul."""

def clamp(input: Operand, min: Optional[Operand]=None, max: Optional[Operand]=None, *, out: Any = None) -> 'Tensor':
    """`input.clamp(...)` (see Tensor.clamp), as torch.clamp."""

def clip(input: Operand, min: Optional[Number]=None, max: Optional[Number]=None, *, out: Any = None) -> 'Tensor':
    """`input.clip(...)` (see Tensor.clip), as torch.clip."""

def clamp_min(input: Operand, bound: Operand, *, out: Any = None) -> 'Tensor':
    """`input.clamp_min(...)` (see Tensor.clamp_min), as torch.clamp_min."""

def clamp_max(input: Operand, bound: Operand, *, out: Any = None) -> 'Tensor':
    """`input.clamp_max(...)` (see Tensor.clamp_max), as torch.clamp_max."""

def sum(input: Operand, dim: Dim=None, keepdim: _bool=False, *, dtype: Any=None, out: Any = None) -> 'Tensor':
    """`input.sum(...)` (see Tensor.sum), as torch.sum."""

def prod(input: Operand, dim: Dim=None, keepdim: _bool=False, *, dtype: Any=None, out: Any = None) -> 'Tensor':
    """`input.prod(...)` (see Tensor.prod), as torch.prod."""

def mean(input: Operand, dim: Dim=None, keepdim: _bool=False, *, dtype: Any=None, out: Any = None) -> 'Tensor':
    """`input.mean(...)` (see Tensor.mean), as torch.mean."""

def amax(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.amax(...)` (see Tensor.amax), as torch.amax."""

def amin(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.amin(...)` (see Tensor.amin), as torch.amin."""

def aminmax(input: Operand, *, dim: Optional[_int]=None, keepdim: _bool=False, out: Any = None) -> Any:
    """`input.aminmax(...)` (see Tensor.aminmax), as torch.aminmax."""

def argmax(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.argmax(...)` (see Tensor.argmax), as torch.argmax."""

def argmin(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.argmin(...)` (see Tensor.argmin), as torch.argmin."""

def all(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.all(...)` (see Tensor.all), as torch.all."""

def any(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.any(...)` (see Tensor.any), as torch.any."""

def count_nonzero(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.count_nonzero(...)` (see Tensor.count_nonzero), as torch.count_nonzero."""

def max(input: Operand, dim: Union[None, _int, 'Tensor', np.ndarray[Any, Any]]=None, keepdim: Optional[_bool]=None, *, other: Optional[Operand]=None, out: Any = None) -> Any:
    """`input.max(...)` (see Tensor.max), as torch.max."""

def min(input: Operand, dim: Union[None, _int, 'Tensor', np.ndarray[Any, Any]]=None, keepdim: Optional[_bool]=None, *, other: Optional[Operand]=None, out: Any = None) -> Any:
    """`input.min(...)` (see Tensor.min), as torch.min."""

def std(input: Operand, dim: Dim=None, unbiased: Optional[_bool]=None, keepdim: _bool=False, *, correction: Optional[_float]=None, out: Any = None) -> 'Tensor':
    """`input.std(...)` (see Tensor.std), as torch.std."""

def var(input: Operand, dim: Dim=None, unbiased: Optional[_bool]=None, keepdim: _bool=False, *, correction: Optional[_float]=None, out: Any = None) -> 'Tensor':
    """`input.var(...)` (see Tensor.var), as torch.var."""

def norm(input: Operand, p: Union[_float, str]='fro', dim: Dim=None, keepdim: _bool=False, dtype: Any=None, *, out: Any = None) -> 'Tensor':
    """`input.norm(...)` (see Tensor.norm), as torch.norm."""

def logsumexp(input: Operand, dim: Dim=None, keepdim: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.logsumexp(...)` (see Tensor.logsumexp), as torch.logsumexp."""

def nansum(input: Operand, dim: Dim=None, keepdim: _bool=False, *, dtype: Any=None, out: Any = None) -> 'Tensor':
    """`input.nansum(...)` (see Tensor.nansum), as torch.nansum."""

def nanmean(input: Operand, dim: Dim=None, keepdim: _bool=False, *, dtype: Any=None, out: Any = None) -> 'Tensor':
    """`input.nanmean(...)` (see Tensor.nanmean), as torch.nanmean."""

def median(input: Operand, dim: Optional[_int]=None, keepdim: _bool=False, *, out: Any = None) -> Any:
    """`input.median(...)` (see Tensor.median), as torch.median."""

def nanmedian(input: Operand, dim: Optional[_int]=None, keepdim: _bool=False, *, out: Any = None) -> Any:
    """`input.nanmedian(...)` (see Tensor.nanmedian), as torch.nanmedian."""

def quantile(input: Operand, q: Any, dim: Optional[_int]=None, keepdim: _bool=False, *, interpolation: str='linear', out: Any = None) -> 'Tensor':
    """`input.quantile(...)` (see Tensor.quantile), as torch.quantile."""

def nanquantile(input: Operand, q: Any, dim: Optional[_int]=None, keepdim: _bool=False, *, interpolation: str='linear', out: Any = None) -> 'Tensor':
    """`input.nanquantile(...)` (see Tensor.nanquantile), as torch.nanquantile."""

def kthvalue(input: Operand, k: _int, dim: _int=-1, keepdim: _bool=False, *, out: Any = None) -> 'ValuesIndices':
    """`input.kthvalue(...)` (see Tensor.kthvalue), as torch.kthvalue."""

def cumsum(input: Operand, dim: _int, *, out: Any = None) -> 'Tensor':
    """`input.cumsum(...)` (see Tensor.cumsum), as torch.cumsum."""

def cumprod(input: Operand, dim: _int, *, out: Any = None) -> 'Tensor':
    """`input.cumprod(...)` (see Tensor.cumprod), as torch.cumprod."""

def cummax(input: Operand, dim: _int, *, out: Any = None) -> 'ValuesIndices':
    """`input.cummax(...)` (see Tensor.cummax), as torch.cummax."""

def cummin(input: Operand, dim: _int, *, out: Any = None) -> 'ValuesIndices':
    """`input.cummin(...)` (see Tensor.cummin), as torch.cummin."""

def logcumsumexp(input: Operand, dim: _int, *, out: Any = None) -> 'Tensor':
    """`input.logcumsumexp(...)` (see Tensor.logcumsumexp), as torch.logcumsumexp."""

def softmax(input: Operand, dim: _int, *, out: Any = None) -> 'Tensor':
    """`input.softmax(...)` (see Tensor.softmax), as torch.softmax."""

def log_softmax(input: Operand, dim: _int, *, out: Any = None) -> 'Tensor':
    """`input.log_softmax(...)` (see Tensor.log_softmax), as torch.log_softmax."""

def trace(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.trace(...)` (see Tensor.trace), as torch.trace."""

def dist(input: Operand, other: Operand, p: Any=2, *, out: Any = None) -> 'Tensor':
    """`input.dist(...)` (see Tensor.dist), as torch.dist."""

def sort(input: Operand, dim: _int=-1, descending: _bool=False, stable: _bool=False, *, out: Any = None) -> 'ValuesIndices':
    """`input.sort(...)` (see Tensor.sort), as torch.sort."""

def argsort(input: Operand, dim: _int=-1, descending: _bool=False, stable: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.argsort(...)` (see Tensor.argsort), as torch.argsort."""

def addcdiv(input: Operand, tensor1: Operand, tensor2: Operand, value: Number = 1, *, out: Any = None) -> 'Tensor':
    """`input.addcdiv(...)` (see Tensor.addcdiv), as torch.addcdiv."""

def isposinf(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.isposinf()` (see Tensor.isposinf), as torch.isposinf."""

def isneginf(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.isneginf()` (see Tensor.isneginf), as torch.isneginf."""

def positive(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.positive()` (see Tensor.positive), as torch.positive."""

def is_nonzero(input: Operand, *, out: Any = None) -> _bool:
    """`input.is_nonzero()` (see Tensor.is_nonzero), as torch.is_nonzero."""

def is_same_size(input: Operand, other: 'Tensor', *, out: Any = None) -> _bool:
    """`input.is_same_size(...)` (see Tensor.is_same_size), as torch.is_same_size."""

def concat(tensors: Sequence[Tensor], dim: int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """PyTorch's alias of cat."""

def msort(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.msort()` (see Tensor.msort), as torch.msort."""

def mode(input: Operand, dim: _int=-1, keepdim: _bool=False, *, out: Any = None) -> 'ValuesIndices':
    """`input.mode(...)` (see Tensor.mode), as torch.mode."""

def topk(input: Operand, k: _int, dim: _int=-1, largest: _bool=True, sorted: _bool=True, *, out: Any = None) -> 'ValuesIndices':
    """`input.topk(...)` (see Tensor.topk), as torch.topk."""

def unique(input: Operand, sorted: _bool=True, return_inverse: _bool=False, return_counts: _bool=False, dim: Optional[_int]=None, *, out: Any = None) -> Any:
    """`input.unique(...)` (see Tensor.unique), as torch.unique."""

def matmul(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.matmul(...)` (see Tensor.matmul), as torch.matmul."""

def mm(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.mm(...)` (see Tensor.mm), as torch.mm."""

def bmm(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.bmm(...)` (see Tensor.bmm), as torch.bmm."""

def mv(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.mv(...)` (see Tensor.mv), as torch.mv."""

def dot(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.dot(...)` (see Tensor.dot), as torch.dot."""

def inner(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.inner(...)` (see Tensor.inner), as torch.inner."""

def vdot(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.vdot(...)` (see Tensor.vdot), as torch.vdot."""

def outer(input: Operand, vec2: Operand, *, out: Any = None) -> 'Tensor':
    """`input.outer(...)` (see Tensor.outer), as torch.outer."""

def kron(input: Operand, other: Operand, *, out: Any = None) -> 'Tensor':
    """`input.kron(...)` (see Tensor.kron), as torch.kron."""

def cross(input: Operand, other: Operand, dim: Optional[_int]=None, *, out: Any = None) -> 'Tensor':
    """`input.cross(...)` (see Tensor.cross), as torch.cross."""

def addmm(input: Operand, a: Operand, b: Operand, *, beta: Any=1, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.addmm(...)` (see Tensor.addmm), as torch.addmm."""

def addmv(input: Operand, a: Operand, b: Operand, *, beta: Any=1, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.addmv(...)` (see Tensor.addmv), as torch.addmv."""

def baddbmm(input: Operand, a: Operand, b: Operand, *, beta: Any=1, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.baddbmm(...)` (see Tensor.baddbmm), as torch.baddbmm."""

def addr(input: Operand, vec1: Operand, vec2: Operand, *, beta: Any=1, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.addr(...)` (see Tensor.addr), as torch.addr."""

def addbmm(input: Operand, batch1: Operand, batch2: Operand, *, beta: Any=1, alpha: Any=1, out: Any = None) -> 'Tensor':
    """`input.addbmm(...)` (see Tensor.addbmm), as torch.addbmm."""

def ger(input: Operand, vec2: Operand, *, out: Any = None) -> 'Tensor':
    """`input.ger(...)` (see Tensor.ger), as torch.ger."""

def multinomial(input: Operand, num_samples: _int, replacement: _bool=False, *, generator: Any=None, out: Any = None) -> 'Tensor':
    """`input.multinomial(...)` (see Tensor.multinomial), as torch.multinomial."""

def bernoulli(input: Operand, p: Any=None, *, generator: Any=None, out: Any = None) -> 'Tensor':
    """`input.bernoulli(...)` (see Tensor.bernoulli), as torch.bernoulli."""

def normal(mean: Any=0.0, std: Any=1.0, size: Optional[Sequence[int]]=None, *, generator: Any=None, dtype: Any=None, device: DeviceLike=None) -> Tensor:
    """Draws from normal distributions of the means and standard deviations given (tensors broadcast, or numbers with size)."""

def binomial(count: Tensor, prob: Tensor, generator: Any=None) -> Tensor:
    """A draw from the binomial distribution of each count (floored) and probability, drawn on the host."""

def poisson(input: Tensor, generator: Any=None) -> Tensor:
    """A draw from the Poisson distribution of each element's rate, in the input's dtype."""

def index_select(input: Operand, dim: _int, index: Operand, *, out: Any = None) -> 'Tensor':
    """`input.index_select(...)` (see Tensor.index_select), as torch.index_select."""

def gather(input: Operand, dim: _int, index: Operand, *, out: Any = None) -> 'Tensor':
    """`input.gather(...)` (see Tensor.gather), as torch.gather."""

def scatter(input: Operand, dim: _int, index: Operand, src: Optional[Operand]=None, *, value: Optional[Number]=None, out: Any = None) -> 'Tensor':
    """`input.scatter(...)` (see Tensor.scatter), as torch.scatter."""

def scatter_add(input: Operand, dim: _int, index: Operand, src: Operand, *, out: Any = None) -> 'Tensor':
    """`input.scatter_add(...)` (see Tensor.scatter_add), as torch.scatter_add."""

def scatter_reduce(input: Operand, dim: _int, index: Operand, src: Operand, reduce: str, *, include_self: _bool=True, out: Any = None) -> 'Tensor':
    """`input.scatter_reduce(...)` (see Tensor.scatter_reduce), as torch.scatter_reduce."""

def take(input: Operand, index: Operand, *, out: Any = None) -> 'Tensor':
    """`input.take(...)` (see Tensor.take), as torch.take."""

def take_along_dim(input: Operand, indices: Operand, dim: Optional[_int]=None, *, out: Any = None) -> 'Tensor':
    """`input.take_along_dim(...)` (see Tensor.take_along_dim), as torch.take_along_dim."""

def index_fill(input: Operand, dim: _int, index: Operand, value: Number, *, out: Any = None) -> 'Tensor':
    """`input.index_fill(...)` (see Tensor.index_fill), as torch.index_fill."""

def index_copy(input: Operand, dim: _int, index: Operand, source: Operand, *, out: Any = None) -> 'Tensor':
    """`input.index_copy(...)` (see Tensor.index_copy), as torch.index_copy."""

def index_add(input: Operand, dim: _int, index: Operand, source: Operand, *, alpha: Number=1, out: Any = None) -> 'Tensor':
    """`input.index_add(...)` (see Tensor.index_add), as torch.index_add."""

def index_reduce(input: Operand, dim: _int, index: Operand, source: Operand, reduce: str, *, include_self: _bool=True, out: Any = None) -> 'Tensor':
    """`input.index_reduce(...)` (see Tensor.index_reduce), as torch.index_reduce."""

def masked_fill(input: Operand, mask: Operand, value: Number, *, out: Any = None) -> 'Tensor':
    """`input.masked_fill(...)` (see Tensor.masked_fill), as torch.masked_fill."""

def masked_select(input: Operand, mask: Operand, *, out: Any = None) -> 'Tensor':
    """`input.masked_select(...)` (see Tensor.masked_select), as torch.masked_select."""

def put(input: Operand, index: Operand, source: Operand, accumulate: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.put(...)` (see Tensor.put), as torch.put."""

def index_put(input: Operand, indices: Sequence[Any], values: Operand, accumulate: _bool=False, *, out: Any = None) -> 'Tensor':
    """`input.index_put(...)` (see Tensor.index_put), as torch.index_put."""

def nonzero(input: Operand, *, as_tuple: _bool=False, out: Any = None) -> Any:
    """`input.nonzero(...)` (see Tensor.nonzero), as torch.nonzero."""

def argwhere(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.argwhere(...)` (see Tensor.argwhere), as torch.argwhere."""

def bincount(input: Operand, weights: Optional[Operand]=None, minlength: _int=0, *, out: Any = None) -> 'Tensor':
    """`input.bincount(...)` (see Tensor.bincount), as torch.bincount."""

def histc(input: Operand, bins: _int=100, min: _float=0, max: _float=0, *, out: Any = None) -> 'Tensor':
    """`input.histc(...)` (see Tensor.histc), as torch.histc."""

def reshape(input: Operand, *shape: Union[_int, Tuple[_int, ...]], out: Any = None) -> 'Tensor':
    """`input.reshape(...)` (see Tensor.reshape), as torch.reshape."""

def flatten(input: Operand, start_dim: _int=0, end_dim: _int=-1, *, out: Any = None) -> 'Tensor':
    """`input.flatten(...)` (see Tensor.flatten), as torch.flatten."""

def unflatten(input: Operand, dim: _int, sizes: Sequence[_int], *, out: Any = None) -> 'Tensor':
    """`input.unflatten(...)` (see Tensor.unflatten), as torch.unflatten."""

def squeeze(input: Operand, dim: Dim=None, *, out: Any = None) -> 'Tensor':
    """`input.squeeze(...)` (see Tensor.squeeze), as torch.squeeze."""

def unsqueeze(input: Operand, dim: _int, *, out: Any = None) -> 'Tensor':
    """`input.unsqueeze(...)` (see Tensor.unsqueeze), as torch.unsqueeze."""

def transpose(input: Operand, dim0: _int, dim1: _int, *, out: Any = None) -> 'Tensor':
    """`input.transpose(...)` (see Tensor.transpose), as torch.transpose."""

def swapaxes(input: Operand, axis0: _int, axis1: _int, *, out: Any = None) -> 'Tensor':
    """`input.swapaxes(...)` (see Tensor.swapaxes), as torch.swapaxes."""

def swapdims(input: Operand, dim0: _int, dim1: _int, *, out: Any = None) -> 'Tensor':
    """`input.swapdims(...)` (see Tensor.swapdims), as torch.swapdims."""

def permute(input: Operand, *dims: _int, out: Any = None) -> 'Tensor':
    """`input.permute(...)` (see Tensor.permute), as torch.permute."""

def movedim(input: Operand, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]], *, out: Any = None) -> 'Tensor':
    """`input.movedim(...)` (see Tensor.movedim), as torch.movedim."""

def moveaxis(input: Operand, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]], *, out: Any = None) -> 'Tensor':
    """`input.moveaxis(...)` (see Tensor.moveaxis), as torch.moveaxis."""

def t(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.t(...)` (see Tensor.t), as torch.t."""

def narrow(input: Operand, dim: _int, start: _int, length: _int, *, out: Any = None) -> 'Tensor':
    """`input.narrow(...)` (see Tensor.narrow), as torch.narrow."""

def select(input: Operand, dim: _int, index: _int, *, out: Any = None) -> 'Tensor':
    """`input.select(...)` (see Tensor.select), as torch.select."""

def split(input: Operand, split_size_or_sections: Union[_int, Sequence[_int]], dim: _int=0, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.split(...)` (see Tensor.split), as torch.split."""

def chunk(input: Operand, chunks: _int, dim: _int=0, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.chunk(...)` (see Tensor.chunk), as torch.chunk."""

def unbind(input: Operand, dim: _int=0, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.unbind(...)` (see Tensor.unbind), as torch.unbind."""

def tensor_split(input: Operand, indices_or_sections: Any, dim: _int=0, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.tensor_split(...)` (see Tensor.tensor_split), as torch.tensor_split."""

def hsplit(input: Operand, indices_or_sections: Any, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.hsplit(...)` (see Tensor.hsplit), as torch.hsplit."""

def vsplit(input: Operand, indices_or_sections: Any, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.vsplit(...)` (see Tensor.vsplit), as torch.vsplit."""

def dsplit(input: Operand, indices_or_sections: Any, *, out: Any = None) -> Tuple['Tensor', ...]:
    """`input.dsplit(...)` (see Tensor.dsplit), as torch.dsplit."""

def masked_scatter(input: Operand, mask: Operand, source: 'Tensor', *, out: Any = None) -> 'Tensor':
    """`input.masked_scatter(...)` (see Tensor.masked_scatter), as torch.masked_scatter."""

def diagonal(input: Operand, offset: _int=0, dim1: _int=0, dim2: _int=1, *, out: Any = None) -> 'Tensor':
    """`input.diagonal(...)` (see Tensor.diagonal), as torch.diagonal."""

def as_strided(input: Operand, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int]=None, *, out: Any = None) -> 'Tensor':
    """`input.as_strided(...)` (see Tensor.as_strided), as torch.as_strided."""

def broadcast_to(input: Operand, *shape: Union[_int, Tuple[_int, ...]], out: Any = None) -> 'Tensor':
    """`input.broadcast_to(...)` (see Tensor.broadcast_to), as torch.broadcast_to."""

def clone(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.clone(...)` (see Tensor.clone), as torch.clone."""

def flip(input: Operand, *dims: Union[_int, Sequence[_int]], out: Any = None, **kwargs: Sequence[_int]) -> 'Tensor':
    """`input.flip(...)` (see Tensor.flip), as torch.flip."""

def fliplr(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.fliplr(...)` (see Tensor.fliplr), as torch.fliplr."""

def flipud(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.flipud(...)` (see Tensor.flipud), as torch.flipud."""

def roll(input: Operand, shifts: Union[_int, Sequence[_int]], dims: Union[None, _int, Sequence[_int]]=None, *, out: Any = None) -> 'Tensor':
    """`input.roll(...)` (see Tensor.roll), as torch.roll."""

def rot90(input: Operand, k: _int=1, dims: Sequence[_int]=(0, 1), *, out: Any = None) -> 'Tensor':
    """`input.rot90(...)` (see Tensor.rot90), as torch.rot90."""

def repeat_interleave(input: Operand, repeats: Any, dim: Optional[_int]=None, *, output_size: Optional[_int]=None, out: Any = None) -> 'Tensor':
    """`input.repeat_interleave(...)` (see Tensor.repeat_interleave), as torch.repeat_interleave."""

def tile(input: Operand, *dims: Union[_int, Sequence[_int]], out: Any = None) -> 'Tensor':
    """`input.tile(...)` (see Tensor.tile), as torch.tile."""

def tril(input: Operand, diagonal: _int=0, *, out: Any = None) -> 'Tensor':
    """`input.tril(...)` (see Tensor.tril), as torch.tril."""

def triu(input: Operand, diagonal: _int=0, *, out: Any = None) -> 'Tensor':
    """`input.triu(...)` (see Tensor.triu), as torch.triu."""

def diag(input: Operand, diagonal: _int=0, *, out: Any = None) -> 'Tensor':
    """`input.diag(...)` (see Tensor.diag), as torch.diag."""

def diag_embed(input: Operand, offset: _int=0, dim1: _int=-2, dim2: _int=-1, *, out: Any = None) -> 'Tensor':
    """`input.diag_embed(...)` (see Tensor.diag_embed), as torch.diag_embed."""

def diff(input: Operand, n: _int=1, dim: _int=-1, prepend: Any=None, append: Any=None, *, out: Any = None) -> 'Tensor':
    """`input.diff(...)` (see Tensor.diff), as torch.diff."""

def ravel(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.ravel(...)` (see Tensor.ravel), as torch.ravel."""

def numel(input: Operand, *, out: Any = None) -> _int:
    """`input.numel(...)` (see Tensor.numel), as torch.numel."""

def detach(input: Operand, *, out: Any = None) -> 'Tensor':
    """`input.detach(...)` (see Tensor.detach), as torch.detach."""

def is_floating_point(input: Operand, *, out: Any = None) -> _bool:
    """`input.is_floating_point(...)` (see Tensor.is_floating_point), as torch.is_floating_point."""

def is_complex(input: Operand, *, out: Any = None) -> _bool:
    """`input.is_complex(...)` (see Tensor.is_complex), as torch.is_complex."""

def eye(n: int, m: Optional[int] = None, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """The n x m (n x n) identity, float32 by default."""

def manual_seed(seed: int) -> int:
    """Seeds the generator of silt's random tensors (NumPy's PCG64, not PyTorch's numbers)."""

def rand(*size: Union[int, Sequence[int]], dtype: Any = None, device: DeviceLike = None, **kwargs: Sequence[int]) -> Tensor:
    """Uniform numbers in [0, 1), float32 by default, drawn on the host (the shape also as size=)."""

def randn(*size: Union[int, Sequence[int]], dtype: Any = None, device: DeviceLike = None, **kwargs: Sequence[int]) -> Tensor:
    """Standard normal numbers, float32 by default, drawn on the host (the shape also as size=)."""

def randint(low: Optional[int] = None, high: Optional[int] = None, size: Optional[Union[int, Sequence[int]]] = None, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """Integers in [low, high) (randint(high, size) from 0), int64 by default, drawn on the host."""

def randperm(n: int, *, dtype: Any = None, device: DeviceLike = None) -> Tensor:
    """A random permutation of 0..n (int64), drawn on the host."""

def rand_like(input: Tensor, *, dtype: Any = None, device: DeviceLike = None) -> Tensor: ...

def randn_like(input: Tensor, *, dtype: Any = None, device: DeviceLike = None) -> Tensor: ...

def cat(tensors: Sequence[Tensor], dim: int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """PyTorch's name for concatenate (a 1-d empty tensor beside others is passed over, as PyTorch's)."""

def concatenate(tensors: Sequence[Tensor], axis: Optional[int] = 0) -> Tensor:
    """The tensors joined along axis on their device, of their promoted dtype (None: flattened)."""

def stack(tensors: Sequence[Tensor], axis: int = 0, *, dim: Optional[int] = None, out: Optional[Tensor] = None) -> Tensor:
    """Tensors of one shape joined along a new axis (`dim=`, PyTorch's name, too), on their device."""

def from_dlpack(x: Any, device: DeviceLike = None) -> Tensor:
    """A tensor over the memory of a CPU DLPack producer (no copy on the host), or copied to device."""

def result_type(a: Operand, b: Operand) -> np.dtype[Any]:
    """The dtype of an operation's result on a and b, by PyTorch's promotion rules."""

def tensor(data: Union[Tensor, npt.ArrayLike], device: DeviceLike = None, dtype: Any = None) -> Tensor:
    """A tensor of data on device (default: default_device()); a NumPy array in place on the host where the memory
    order allows, a silt.Tensor copied (as PyTorch's). With dtype, the data is converted as astype converts (floats to
    integers saturate, NaN to 0); Python integers out of an integer dtype's range raise."""

def devices() -> List[Device]:
    """The OpenCL devices, then the host."""

def default_device() -> Device:
    """SILT_DEVICE if set, else the first OpenCL device, else the host."""

# PyTorch's names of the dtypes, as NumPy's dtypes (not in __all__)
bool: np.dtype
uint8: np.dtype
int8: np.dtype
int16: np.dtype
short: np.dtype
uint16: np.dtype
int32: np.dtype
int: np.dtype
uint32: np.dtype
int64: np.dtype
long: np.dtype
uint64: np.dtype
float16: np.dtype
half: np.dtype
float32: np.dtype
float: np.dtype
float64: np.dtype
double: np.dtype
finfo = np.finfo
iinfo = np.iinfo
# PyTorch's constants (not in __all__); newaxis is None, for indexing
pi: _float
e: _float
inf: _float
nan: _float
newaxis: None
range: Callable[..., Tensor]  # torch.range: start + i * step up to end inclusive, float32 by default

__all__: List[str]

"""Type stubs of silt: tensors, devices, exceptions; the operations are in
silt.ops (ops.pyi)."""

from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import ops as ops

DeviceLike = Union["Device", str, None]

class Error(Exception):
    """The base of every exception silt raises."""

class DTypeError(Error, TypeError):
    """A dtype outside an operation's types, dtypes that disagree, or a scalar that does not convert."""

class ArgumentError(Error, ValueError):
    """Shapes that do not agree or broadcast, an axis or range out of bounds, another bad argument."""

class OutOfMemoryError(Error, MemoryError):
    """An allocation the device or the host refused, after silt emptied its cache and retried."""

class DeviceError(Error, RuntimeError):
    """No such device, an OpenCL call that failed, a program that did not build, a missing extension."""

class Device:
    """A device: Device("host"), Device("opencl") or Device("opencl:N")."""

    def __init__(self, spec: str) -> None: ...
    @property
    def spec(self) -> str:
        """"host" or "opencl:N"."""
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str:
        """"host", "cpu", "gpu" or "accelerator"."""
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
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def device(self) -> Device: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def itemsize(self) -> int: ...
    @property
    def strides(self) -> Tuple[int, ...]:
        """In elements (as PyTorch), not bytes."""
    @property
    def offset(self) -> int: ...
    @property
    def T(self) -> "Tensor":
        """The view with the dimensions reversed."""
    @property
    def __array_interface__(self) -> Dict[str, Any]:
        """Host tensors only: NumPy views the same memory."""
    def is_contiguous(self) -> bool: ...
    def shares_storage(self, other: "Tensor") -> bool: ...
    def numpy(self) -> np.ndarray[Any, Any]:
        """A view of the same memory on the host; a copy from an OpenCL device."""
    def tolist(self) -> Any: ...
    def item(self) -> Union[bool, int, float]: ...
    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> np.ndarray[Any, Any]: ...
    def to(self, device: Union["Device", str]) -> "Tensor": ...
    def contiguous(self) -> "Tensor": ...
    def clone(self) -> "Tensor": ...
    def transpose(self, dim0: int, dim1: int) -> "Tensor": ...
    def permute(self, *dims: int) -> "Tensor": ...
    def narrow(self, dim: int, start: int, length: int) -> "Tensor": ...
    def reshape(self, *shape: Union[int, Tuple[int, ...]]) -> "Tensor": ...
    def broadcast_to(self, *shape: Union[int, Tuple[int, ...]]) -> "Tensor": ...
    def __getitem__(self, key: Any) -> "Tensor":
        """Integers, slices with positive steps, and '...': a view."""
    def __len__(self) -> int: ...

def tensor(data: Union[Tensor, npt.ArrayLike], device: DeviceLike = None, dtype: Any = None) -> Tensor:
    """A tensor of data on device (default: default_device()); in place on the host where the memory order allows."""

def devices() -> List[Device]:
    """The OpenCL devices, then the host."""

def default_device() -> Device:
    """SILT_DEVICE if set, else the first OpenCL device, else the host."""

__all__: List[str]

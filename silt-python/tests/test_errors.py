"""Errors come back as Python exceptions with silt's message: silt.Error is
the base; dtypes are TypeErrors, shapes ValueErrors, and a dimension out of
range a silt.AxisError (a ValueError and an IndexError, as NumPy's)."""

import numpy as np
import pytest

import silt


def test_classes():
    assert issubclass(silt.DTypeError, silt.Error) and issubclass(silt.DTypeError, TypeError)
    assert issubclass(silt.ArgumentError, silt.Error) and issubclass(silt.ArgumentError, ValueError)
    assert issubclass(silt.OutOfMemoryError, MemoryError)
    assert issubclass(silt.DeviceError, RuntimeError)
    assert issubclass(silt.AxisError, silt.ArgumentError) and issubclass(silt.AxisError, IndexError)
    assert issubclass(silt.IndexOutOfRangeError, silt.ArgumentError)
    assert issubclass(silt.IndexOutOfRangeError, IndexError)
    assert silt.Error.__module__ == "silt"


def test_dtype_outside_a_kernels_types(device):
    ints = silt.tensor(np.arange(4, dtype=np.int32), device=device)
    with pytest.raises(silt.DTypeError, match=r"kernel `sqrt` does not support dtype i32 \(supported: f16, f32, f64\)"):
        silt.ops.sqrt(ints)
    with pytest.raises(TypeError, match="bitwise_and"):
        silt.ops.bitwise_and(np.ones(2, np.float32), np.ones(2, np.float32))


def test_dtypes_that_disagree(host):
    a = silt.tensor(np.ones(3, np.float32), device=host)
    with pytest.raises(TypeError, match="dtype mismatch"):
        silt.ops.add(a, np.ones(3, np.float64))
    with pytest.raises(silt.DTypeError, match="does not convert"):
        silt.ops.clamp(silt.tensor(np.arange(3), device=host), 0.5, 2)


def test_shapes_and_axes(device):
    a = silt.tensor(np.ones((2, 3), np.float32), device=device)
    with pytest.raises(ValueError, match=r"shape mismatch in add: \[2, 3\] vs \[4\]"):
        silt.ops.add(a, np.ones(4, np.float32))
    with pytest.raises(silt.ArgumentError, match="axis 2 out of range"):
        silt.ops.sum(a, dim=2)
    with pytest.raises(ValueError, match="given twice"):
        silt.ops.sum(a, dim=(0, -2))
    with pytest.raises(ValueError, match="out of range"):
        silt.ops.cumsum(a, 5)
    with pytest.raises(ValueError, match="no elements"):
        silt.ops.amax(silt.tensor(np.ones((0, 3), np.float32), device=device))
    with pytest.raises(ValueError, match="norm"):
        silt.ops.norm(a, p=3)
    # the infinity norm has no identity: no elements is an error, as the
    # method's and PyTorch's; 1- and 2-norms of nothing are 0
    empty = silt.tensor(np.ones((2, 0), np.float32), device=device)
    with pytest.raises(ValueError, match="norm of no elements"):
        silt.ops.norm(empty, float("inf"))
    with pytest.raises(ValueError, match="norm of no elements"):
        silt.ops.norm(empty, float("inf"), dim=1)
    assert silt.ops.norm(empty, 2.0, dim=1).numpy().tolist() == [0.0, 0.0]
    assert silt.ops.norm(empty, float("inf"), dim=0).shape == (0,)


def test_bad_inputs(host):
    with pytest.raises(silt.DTypeError, match="complex128 has no silt dtype"):
        silt.tensor(np.ones(2, complex), device=host)
    with pytest.raises(TypeError):
        silt.tensor(np.array(["a"]), device=host)
    with pytest.raises(TypeError):
        silt.ops.add(np.ones(2, np.float32))  # arity
    with pytest.raises(TypeError):
        silt.ops.sum(np.ones(2, np.float32), dim="x")
    with pytest.raises(ValueError):
        silt.ops.scale_(2.0, np.ones(3, np.float32)[::-1])  # written in place: not a copy
    with pytest.raises(ValueError):
        silt.tensor(np.ones(2), device="nowhere")
    with pytest.raises(ValueError, match="dimensions"):
        silt.tensor(np.ones((1,) * 17), device=host)


def test_device_mismatch(host, opencl):
    with pytest.raises(ValueError, match="device mismatch"):
        silt.ops.add(silt.tensor(np.ones(2), device=host), silt.tensor(np.ones(2), device=opencl))


def test_errors_leave_the_module_working(host):
    for _ in range(3):
        with pytest.raises(silt.Error):
            silt.ops.sqrt(np.arange(3))
    np.testing.assert_array_equal(silt.ops.sqrt(silt.tensor(np.full(3, 4.0), device=host)).numpy(), 2.0)


def test_a_dimension_out_of_range_is_an_axis_error(device):
    a = silt.tensor(np.ones((2, 3), np.float32), device=device)
    # silt.ops, the runtime's checks, Tensor's own and the Python methods alike
    for bad in (lambda: silt.ops.sum(a, dim=2), lambda: silt.ops.cumsum(a, -3), lambda: a.transpose(0, 2),
                lambda: a.narrow(5, 0, 1), lambda: a.unsqueeze(3), lambda: a.split(1, 2), lambda: a.max(2)):
        with pytest.raises(silt.AxisError):
            bad()
        with pytest.raises(IndexError):  # PyTorch's exception
            bad()


def test_an_index_out_of_range_is_an_index_error(device):
    # the operations that check their indices on the device, as PyTorch's
    # IndexError; item access and the Python methods raise IndexError too
    a = silt.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    bad = silt.tensor(np.array([[0, 7, 1]]), device=device)
    for op in (lambda: a.index_select(1, bad[0]), lambda: a.gather(1, bad), lambda: a.take(bad),
               lambda: a.scatter_add(1, bad, a[:1]), lambda: a.take_along_dim(bad, 1),
               lambda: silt.ops.index_select(a, 1, bad[0]), lambda: a[0, 7], lambda: a.index_fill(1, bad[0], 0.0)):
        with pytest.raises(IndexError, match="out of (range|bounds)"):
            op()
    with pytest.raises(silt.IndexOutOfRangeError, match=r"index 7 \(at \[0, 1\] of `index`\)"):
        a.gather(1, bad)

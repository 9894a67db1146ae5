"""The downstream example's kernels from Python (silt_downstream), against
NumPy, and with tensors of the silt module."""

import math
import os

import numpy as np
import pytest

import silt
import silt_downstream as ds

erf = np.vectorize(math.erf, otypes=[np.float64])
RNG = np.random.default_rng(3)
X = RNG.uniform(-3, 3, (4, 8)).astype(np.float32)
BIAS = RNG.uniform(-0.5, 0.5, (8,)).astype(np.float32)


def gelu(v):
    return 0.5 * v * (1 + erf(v / math.sqrt(2)))


def devices():
    devs = [ds.Device("host")]
    cl = [d for d in ds.devices() if not d.is_host]
    if cl:
        devs.append(cl[0])
    elif os.environ.get("CI") == "true":
        pytest.fail("no OpenCL device found (CI=true)")
    return devs


@pytest.mark.parametrize("dev", devices(), ids=str)
def test_kernels_against_numpy(dev):
    x = ds.tensor(X, device=dev)
    want = gelu(X.astype(np.float64) + BIAS)
    np.testing.assert_allclose(ds.bias_gelu(x, BIAS).numpy(), want, rtol=1e-5, atol=1e-6)
    lib = ds.bias_gelu_lib(x, BIAS).numpy()
    np.testing.assert_allclose(lib, want, rtol=1e-5, atol=1e-6)
    clipped = ds.softclip(x, 2.0)
    assert clipped.device == dev and clipped.dtype == np.float32
    np.testing.assert_allclose(clipped.numpy(), 2 * np.tanh(X.astype(np.float64) / 2), rtol=1e-5, atol=1e-6)
    x64 = ds.tensor(X.astype(np.float64), device=dev)
    assert ds.softclip(x64, 1.5).dtype == np.float64


def test_dtype_outside_the_kernels_types():
    with pytest.raises(TypeError, match=r"kernel `softclip` does not support dtype i32 \(supported: f32, f64\)"):
        ds.softclip(np.arange(3, dtype=np.int32), 1.0)
    with pytest.raises(ds.DTypeError):
        ds.bias_gelu(np.ones(2, np.float16), np.ones(2, np.float16))
    with pytest.raises(ValueError, match="shape mismatch"):
        ds.bias_gelu(np.ones(3, np.float32), np.ones(2, np.float32))


def test_with_tensors_of_the_silt_module():
    # a host tensor of `silt` passes through NumPy's array interface, in place
    a = np.array(X)
    t = silt.tensor(a, device="host")
    out = ds.softclip(t, 2.0)
    assert isinstance(out, ds.Tensor) and not isinstance(out, silt.Tensor)
    np.testing.assert_allclose(out.numpy(), 2 * np.tanh(X.astype(np.float64) / 2), rtol=1e-5, atol=1e-6)
    # and back into silt's operations
    np.testing.assert_allclose(silt.ops.sub(out.numpy(), 0).numpy(), out.numpy())


@pytest.mark.parametrize("dev", devices(), ids=str)
def test_a_grid_kernel_and_its_index_errors(dev):
    table = RNG.uniform(-1, 1, (5, 3))
    idx = np.array([4, 0, 0, 2], np.int64)
    for dtype in (np.float32, np.float64):
        got = ds.lookup(ds.tensor(table.astype(dtype), device=dev), idx)
        assert got.device == dev and got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), table.astype(dtype)[idx])
    # an index past the table's rows, or negative: an IndexError naming the view
    for bad in ([1, 5], [-1, 0]):
        with pytest.raises(IndexError, match="`table`") as e:
            ds.lookup(ds.tensor(table.astype(np.float32), device=dev), np.array(bad, np.int64))
        assert isinstance(e.value, ds.IndexOutOfRangeError)
    with pytest.raises(ds.DTypeError):
        ds.lookup(np.ones((2, 2), np.int32), idx[:1])

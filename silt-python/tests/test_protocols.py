"""DLPack both ways with NumPy, NumPy's __array_ufunc__ and
__array_function__ on silt tensors, pickling, and device specs that round
trip; on the host backend and an OpenCL device."""

import pickle

import numpy as np
import pytest

import silt

X = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5
I = np.arange(12, dtype=np.int32).reshape(3, 4) - 4


# ---- devices -------------------------------------------------------------

def test_device_strings_round_trip():
    for d in silt.devices():
        assert silt.Device(str(d)) == d
        assert silt.Device(d.spec) == d
        assert silt.Device(repr(d)[len("silt.Device('"):-2]) == d
        t = silt.tensor(X, device=str(d))  # str(d) names a device wherever a spec does
        assert t.device == d
        with pytest.raises(silt.ArgumentError):
            silt.Device(f"{d.spec} (not its name)")
    with pytest.raises(silt.ArgumentError):
        silt.Device("gpu:0")


def test_pickle_round_trips(device):
    t = silt.tensor(X, device=device)[1:, ::2]
    u = pickle.loads(pickle.dumps(t))
    assert u.device == device and u.dtype == t.dtype
    np.testing.assert_array_equal(u.numpy(), X[1:, ::2])
    assert pickle.loads(pickle.dumps(device)) == device


# ---- DLPack --------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"])
def test_numpy_reads_host_tensors_through_dlpack_without_a_copy(host, dtype):
    a = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    t = silt.tensor(a.copy(), device=host)
    v = t.T[1:]  # any view
    assert v.__dlpack_device__() == (1, 0)
    b = np.from_dlpack(v)
    np.testing.assert_array_equal(b, a.T[1:])
    t.fill_(1)  # written by silt, seen through NumPy's array
    np.testing.assert_array_equal(b, np.ones_like(a.T[1:]))
    del t, v
    np.testing.assert_array_equal(b, np.ones_like(a.T[1:]))  # the capsule kept the storage alive


def test_silt_reads_dlpack_producers_without_a_copy():
    a = X.copy()
    t = silt.from_dlpack(a)
    assert t.device.is_host
    t += 1
    np.testing.assert_array_equal(a, X + 1)
    assert silt.from_dlpack(t) is t
    # a silt tensor is a producer too, to itself
    u = silt.from_dlpack(np.from_dlpack(t))
    u -= 1
    np.testing.assert_array_equal(a, X)


def test_dlpack_from_an_opencl_device(opencl, host):
    t = silt.tensor(X, device=opencl)
    assert t.__dlpack_device__() == (4, opencl.index)
    with pytest.raises(BufferError, match="host"):
        t.__dlpack__()
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(1, 0), copy=False)  # a copy is needed
    with pytest.raises(BufferError, match="CPU only"):
        silt.tensor(X, device="host").__dlpack__(dl_device=(2, 0))  # CUDA
    # a CPU consumer may ask for a copy
    np.testing.assert_array_equal(np.from_dlpack(t, device="cpu"), X)
    moved = silt.from_dlpack(X, device=opencl)
    assert moved.device == opencl
    np.testing.assert_array_equal(moved.numpy(), X)


# ---- __array_ufunc__ -----------------------------------------------------

UFUNCS = [
    (np.add, [X, X]), (np.subtract, [I, 3]), (np.multiply, [X, 2.0]), (np.negative, [X]),
    (np.absolute, [I]), (np.sqrt, [np.abs(X)]), (np.exp, [X]), (np.sin, [X]), (np.arctan2, [X, X.T.copy().T]),
    (np.maximum, [X, 0.0]), (np.minimum, [I, 0]), (np.floor_divide, [I, 3]), (np.remainder, [I, -3]),
    (np.fmod, [I, -3]), (np.power, [np.abs(X), 2.0]), (np.greater, [X, 0]), (np.equal, [I, 0]),
    (np.logical_and, [X > 0, I > 0]), (np.logical_not, [X > 0]), (np.bitwise_and, [I, 5]),
    (np.invert, [I]), (np.floor, [X]), (np.rint, [X]), (np.isnan, [X]), (np.sign, [X]),
    (np.matmul, [X, X.T.copy()]), (np.arcsinh, [X]), (np.arccosh, [np.abs(X) + 1]), (np.arctanh, [X / 10]),
]


@pytest.mark.parametrize("case", range(len(UFUNCS)))
def test_numpy_ufuncs_stay_on_the_device(device, case):
    ufunc, args = UFUNCS[case]
    targs = [silt.tensor(a, device=device) if isinstance(a, np.ndarray) else a for a in args]
    got = ufunc(*targs)
    assert isinstance(got, silt.Tensor) and got.device == device, ufunc
    want = ufunc(*args)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_ufuncs_with_arrays_and_out(device):
    t = silt.tensor(X, device=device)
    got = np.add(X, t)  # an array first: still silt's, on t's device
    assert isinstance(got, silt.Tensor) and got.device == device
    out = silt.tensor(np.zeros_like(X), device=device)
    assert np.multiply(t, 2, out=out) is out
    np.testing.assert_array_equal(out.numpy(), X * 2)
    arr = np.zeros_like(X)
    assert np.multiply(t, 3, out=arr) is arr
    np.testing.assert_array_equal(arr, X * 3)
    # silt's (PyTorch's) dtypes, not NumPy's: int / int is float32
    assert np.true_divide(silt.tensor(I, device=device), 2).dtype == np.float32


def test_ufuncs_silt_lacks_fall_back_to_numpy(device):
    t = silt.tensor(X, device=device)
    r = np.add.reduce(t, axis=0)
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, np.add.reduce(X, axis=0))
    r = np.cbrt(t)
    assert isinstance(r, np.ndarray)
    np.testing.assert_allclose(r, np.cbrt(X))
    r = np.add(t, 1, dtype=np.float64)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64
    out = silt.tensor(np.zeros_like(X), device=device)
    np.cbrt(t, out=out)  # a tensor as out, filled from NumPy's result
    np.testing.assert_allclose(out.numpy(), np.cbrt(X), rtol=1e-6)


# ---- __array_function__ --------------------------------------------------

FUNCTIONS = [
    (lambda a: np.sum(a), X), (lambda a: np.sum(a, axis=1, keepdims=True), X),
    (lambda a: np.sum(a, axis=0), I), (lambda a: np.mean(a), X), (lambda a: np.mean(a, 0), I),
    (lambda a: np.prod(a, axis=0), I), (lambda a: np.max(a), X), (lambda a: np.amin(a, axis=1), I),
    (lambda a: np.argmax(a), X), (lambda a: np.argmin(a, axis=0), X), (lambda a: np.all(a > -3, axis=1), X),
    (lambda a: np.any(a > 5), X), (lambda a: np.std(a), X), (lambda a: np.var(a, axis=0, ddof=1), X),
    (lambda a: np.std(a, axis=1), I), (lambda a: np.cumsum(a, axis=1), X), (lambda a: np.cumsum(a), I),
    (lambda a: np.cumprod(a, axis=0), I), (lambda a: np.where(a > 0, a, 0.0), X),
    (lambda a: np.clip(a, -2, 3), X), (lambda a: np.transpose(a), X), (lambda a: np.transpose(a, (1, 0)), I),
    (lambda a: np.count_nonzero(a, axis=0), I),
    (lambda a: np.concatenate([a, a[1:]]), X), (lambda a: np.concatenate([a, a], axis=1), I),
    (lambda a: np.concatenate([a, a.T.T], axis=None), X), (lambda a: np.stack([a, a * 2]), I),
    (lambda a: np.stack([a, a], axis=-1), X),
]


@pytest.mark.parametrize("case", range(len(FUNCTIONS)))
def test_numpy_functions_stay_on_the_device(device, case):
    fn, a = FUNCTIONS[case]
    got = fn(silt.tensor(a, device=device))
    assert isinstance(got, silt.Tensor) and got.device == device
    want = np.asarray(fn(a))
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_numpy_functions_silt_lacks_fall_back_to_numpy(device):
    t = silt.tensor(X, device=device)
    r = np.concatenate([t, X])  # a NumPy array among them: NumPy's
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, np.concatenate([X, X]))
    r = np.sum(t, where=X > 0)  # an argument silt's sum does not take
    assert isinstance(r, np.float32) or isinstance(r, np.ndarray)
    assert r == np.sum(X, where=X > 0)
    # a tensor as the mask of where= (it went back to the tensor, forever)
    r = np.add(t, 1, where=t > 0, out=np.zeros_like(X))
    np.testing.assert_array_equal(r, np.add(X, 1, where=X > 0, out=np.zeros_like(X)))
    assert np.add.reduce(t, axis=None, where=t > 0) == np.add.reduce(X, axis=None, where=X > 0)
    assert np.allclose(t, X)
    assert np.shape(t) == X.shape
    np.testing.assert_array_equal(np.sort(t, axis=1), np.sort(X, axis=1))


def test_numpy_writes_into_tensors_reach_them(device):
    # NumPy's fallbacks work on a copy of an OpenCL tensor's elements: what
    # they write into it is written back, and out= returns the tensor
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = silt.tensor(a.copy(), device=device)
    o = silt.zeros(3, device=device)
    assert np.sum(t, axis=0, out=o) is o
    np.testing.assert_array_equal(o.numpy(), a.sum(0))
    c = silt.zeros(2, 3, device=device)
    np.copyto(c, t)
    np.testing.assert_array_equal(c.numpy(), a)
    at = silt.zeros(3, device=device)
    np.add.at(at, [0, 0, 2], 1)
    np.testing.assert_array_equal(at.numpy(), [2, 0, 1])
    p = silt.zeros(4, device=device)
    np.put(p, [1, 3], [5, 6])
    np.testing.assert_array_equal(p.numpy(), [0, 5, 0, 6])
    # where= leaves the other places of out as they were
    w = silt.full((2, 3), -1.0, device=device)
    np.add(t, 1, out=w, where=np.array([[False] * 3, [True] * 3]))
    np.testing.assert_array_equal(w.numpy(), [[-1, -1, -1], [4, 5, 6]])


def test_numpys_rules_on_out_copy_and_dtype(device):
    f = silt.tensor(np.array([0.5, 1.7, -2.9], np.float32), device=device)
    with pytest.raises(TypeError, match="same_kind"):
        np.add(f, 0, out=silt.zeros(3, dtype=np.int32, device=device))
    if device.is_host:
        assert np.shares_memory(np.asarray(f, copy=False), f.numpy())
    else:
        with pytest.raises(ValueError, match="copy"):
            np.asarray(f, copy=False)
    with pytest.raises(ValueError, match="copy"):
        f.__array__(dtype=np.float64, copy=False)
    # an integer dtype= accumulates in it, as NumPy's (in NumPy); a float one on the device
    i8 = silt.tensor(np.full(3, 100, np.int8), device=device)
    assert np.sum(i8, dtype=np.int8) == np.int8(44)
    np.testing.assert_array_equal(np.cumsum(i8, dtype=np.int8), np.array([100, -56, 44], np.int8))
    s = np.sum(i8, dtype=np.float32)
    assert isinstance(s, silt.Tensor) and s.dtype == np.float32 and s.item() == 300
    # clip of integers by float bounds promotes, as the method does
    c = np.clip(silt.tensor(np.arange(5), device=device), 0.5, 2.5)
    assert c.dtype == np.float32
    np.testing.assert_array_equal(c.numpy(), [0.5, 1, 2, 2.5, 2.5])

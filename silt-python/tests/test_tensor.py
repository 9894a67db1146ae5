"""Tensors and NumPy: round trips of every dtype, the memory shared in place
on the host (both directions), the copies where it cannot be, views and
indexing, devices."""

import warnings

import numpy as np
import pytest

import silt

DTYPES = [
    np.bool_, np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32,
    np.uint64, np.int64, np.float16, np.float32, np.float64,
]


def sample(dtype, shape=(3, 4)):
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return (np.arange(n) % 3 == 0).reshape(shape)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    if info is not None:
        vals = np.arange(n, dtype=np.int64) * (int(info.max) // n)
        vals = vals.astype(dtype)
        vals[0], vals[-1] = info.min, info.max
        return vals.reshape(shape)
    return (np.linspace(-3.5, 7.25, n) * (1 + 1e-3)).astype(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_round_trip_every_dtype(device, dtype):
    a = sample(dtype)
    t = silt.tensor(a, device=device)
    assert t.dtype == np.dtype(dtype)
    assert t.shape == a.shape and t.device == device
    b = t.numpy()
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_host_shares_memory_both_ways(host, dtype):
    a = sample(dtype)
    t = silt.tensor(a, device=host)  # in place: no copy
    b = t.numpy()  # in place again
    assert np.shares_memory(a, b)
    assert b.__array_interface__["data"][0] == a.__array_interface__["data"][0]
    # a write on the NumPy side is seen by silt's kernels...
    a.flat[0] = a.flat[1]
    out = silt.tensor(np.zeros_like(a), device=host)
    np.testing.assert_array_equal(silt.ops.copy(t, out).numpy(), a)
    # ...and silt's writes by NumPy
    silt.ops.set(a.flat[2].item(), t)
    assert (a == a.flat[2]).all()


def test_host_kernel_writes_into_numpy_array(host):
    a = np.ones(5, np.float32)
    x = np.arange(5, dtype=np.float32)
    silt.ops.axpy(2.0, silt.tensor(x, device=host), silt.tensor(a, device=host))
    np.testing.assert_array_equal(a, 1 + 2 * x)


def test_numpy_keeps_storage_alive(host):
    t = silt.ops.add(silt.tensor(np.arange(4.0), device=host), 1.0)
    b = t.numpy()
    del t
    np.testing.assert_array_equal(b, [1.0, 2.0, 3.0, 4.0])
    assert isinstance(b.base, silt.Tensor)


def test_tensor_keeps_array_alive(host):
    t = silt.tensor(np.arange(6, dtype=np.int32) * 2, device=host)
    import gc
    gc.collect()
    np.testing.assert_array_equal(t.numpy(), np.arange(6) * 2)


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a.T,  # Fortran order
        lambda a: a[:, ::2],  # steps
        lambda a: a[1:, 1:3],  # an offset
        lambda a: np.broadcast_to(a[:1], (4, 6)),  # stride 0 (read-only: copied)
    ],
    ids=["transpose", "step", "offset", "broadcast"],
)
def test_strided_arrays(host, opencl, make):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    v = make(a)
    for dev in (host, opencl):
        t = silt.tensor(v, device=dev)
        np.testing.assert_array_equal(t.numpy(), v)
        np.testing.assert_array_equal(silt.ops.mul(t, 2).numpy(), v * 2)
    t = silt.tensor(v, device=host)
    assert np.shares_memory(t.numpy(), a) == v.flags.writeable


def test_copies_where_memory_order_does_not_allow(host):
    a = np.arange(6, dtype=np.float64)
    for v in (a[::-1], a.astype(">f8"), np.frombuffer(a.tobytes(), np.float64)):
        t = silt.tensor(v, device=host)
        np.testing.assert_array_equal(t.numpy(), v)
        assert not np.shares_memory(t.numpy(), a)
    ro = a.copy()
    ro.flags.writeable = False
    assert not np.shares_memory(silt.tensor(ro, device=host).numpy(), ro)


def test_device_tensors_copy(opencl):
    a = np.arange(5, dtype=np.float32)
    t = silt.tensor(a, device=opencl)
    assert not np.shares_memory(t.numpy(), a)
    np.testing.assert_array_equal(np.asarray(t), a)  # through __array__
    assert not hasattr(t, "__array_interface__")


def test_to_and_back(host, opencl):
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    t = silt.tensor(a, device=host)
    o = t.to(opencl)
    assert o.device == opencl and o.to("host").device == host
    np.testing.assert_array_equal(o.to(host).numpy(), a)
    assert t.to("host") is not None and t.to(host).shares_storage(t)


def test_views_and_indexing(device):
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    t = silt.tensor(a, device=device)
    cases = {
        "T": (t.T, a.T),
        "transpose": (t.transpose(0, 2), a.transpose(2, 1, 0)),
        "permute": (t.permute(1, 2, 0), a.transpose(1, 2, 0)),
        "narrow": (t.narrow(1, 1, 2), a[:, 1:3]),
        "narrow-neg": (t.narrow(-1, -2, 2), a[..., -2:]),
        "int": (t[1], a[1]),
        "neg-int": (t[-1, 2], a[-1, 2]),
        "slices": (t[1:, ::2, 1:4:2], a[1:, ::2, 1:4:2]),
        "ellipsis": (t[..., 3], a[..., 3]),
        "empty": (t[2:2], a[2:2]),
        "reshape": (t.reshape(12, -1), a.reshape(12, -1)),
        "broadcast": (t[0, 0].broadcast_to(2, 5), np.broadcast_to(a[0, 0], (2, 5))),
    }
    for name, (view, want) in cases.items():
        assert view.shape == want.shape, name
        np.testing.assert_array_equal(view.numpy(), want, err_msg=name)
    assert t[1:, ::2].shares_storage(t)
    assert len(t) == 3 and t.ndim == 3 and t.size == 60
    # NumPy's size, callable as PyTorch's
    assert t.size() == (3, 4, 5) and t.size(-1) == 5 and t.size * 2 == 120 and isinstance(t.numel(), int)
    with pytest.raises(IndexError):
        t.size(3)
    assert t.strides == (20, 5, 1) and t.T.strides == (1, 5, 20)
    assert t.is_contiguous() and not t.T.is_contiguous()
    np.testing.assert_array_equal(t.T.contiguous().numpy(), a.T)
    c = t.clone()
    assert not c.shares_storage(t)
    assert silt.tensor(np.float32(2.5), device=device).item() == 2.5
    assert t[0, 0].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_index_errors(host):
    t = silt.tensor(np.zeros((2, 3)), device=host)
    with pytest.raises(IndexError):
        t[2]
    with pytest.raises(IndexError):
        t[0, 0, 0]
    with pytest.raises(ValueError):
        t[::-1]
    with pytest.raises(TypeError):
        t["a"]
    with pytest.raises(ValueError):
        t.transpose(0, 2)
    with pytest.raises(ValueError):
        t.T.view(6)  # not contiguous (reshape copies)


def test_devices(host, opencl):
    devs = silt.devices()
    assert devs[-1] == host and opencl in devs
    assert silt.Device("opencl:0") == opencl and silt.Device("opencl") == opencl
    assert silt.default_device() in devs
    assert host.is_host and host.kind == "host" and host.index is None
    assert opencl.index == 0 and opencl.kind in ("cpu", "gpu", "accelerator")
    assert "fp64" in opencl.info() and opencl.info()["name"] == opencl.name
    assert repr(opencl) == "silt.Device('opencl:0')"
    assert len({host, opencl, silt.Device("host")}) == 2
    # PyTorch's "cpu" is the host backend
    assert silt.Device("cpu") == host and silt.Device(" cpu ") == host
    t = silt.tensor(np.arange(3.0), device=opencl)
    assert t.to("cpu").device == host and silt.tensor([1, 2], device="cpu").device == host
    assert t.to("cpu", np.float32).dtype == np.float32
    with pytest.raises(ValueError):
        silt.Device("cpu:0")
    with pytest.raises(ValueError):
        silt.Device("cuda:0")
    with pytest.raises(silt.DeviceError):
        silt.Device("opencl:99")


def test_memory_stats(opencl):
    opencl.synchronize()
    before = opencl.memory_stats()
    t = silt.tensor(np.zeros(1 << 16, np.float32), device=opencl)
    during = opencl.memory_stats()
    assert during["allocated_bytes"] >= before["allocated_bytes"] + (1 << 18)
    del t
    opencl.synchronize()
    assert opencl.memory_stats()["allocated_bytes"] == before["allocated_bytes"]
    opencl.empty_cache()
    stats = opencl.memory_stats()
    assert stats["reserved_bytes"] == stats["allocated_bytes"]
    assert set(stats) >= {"peak_bytes", "hits", "misses", "live_buffers", "cache_flushes"}


def test_tensor_of_tensor_and_dtype(host, opencl):
    t = silt.tensor([1, 2, 3], device=host)
    assert t.dtype == np.int64
    assert silt.tensor(t) is not t and not silt.tensor(t).shares_storage(t)  # a copy, as PyTorch's
    assert silt.tensor(t, device=opencl).device == opencl
    f = silt.tensor([1, 2, 3], device=host, dtype=np.float16)
    assert f.dtype == np.float16
    np.testing.assert_array_equal(f.numpy(), [1, 2, 3])


def test_an_array_converts_to_a_dtype_as_astype_does(device):
    # silt.tensor(a, dtype=d), t[...] = a and silt.tensor(a).astype(d) agree:
    # floats to integers saturate, NaN to 0 (Rust's `as`), with no warning
    f = np.array([1e10, np.nan, -1e10, 300.7, -2.5])
    want = silt.tensor(f, device=device).astype(np.int32).numpy()
    np.testing.assert_array_equal(want, [2**31 - 1, 0, -(2**31), 300, -2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = silt.tensor(f, device=device, dtype=np.int32)
        np.testing.assert_array_equal(got.numpy(), want)
        got = silt.tensor(f.tolist(), device=device, dtype=np.int32)  # a list too
        np.testing.assert_array_equal(got.numpy(), want)
        # float64 data to float32: converted on the host, so that a device
        # without f64 takes it
        got = silt.tensor(np.array([0.1, 1e300]), device=device, dtype=np.float32)
        np.testing.assert_array_equal(got.numpy(), np.array([0.1, np.inf], np.float32))
        u = silt.zeros((5,), dtype=np.uint8, device=device)
        u[...] = f
        np.testing.assert_array_equal(u.numpy(), [255, 0, 0, 255, 0])
        u[np.array([True, False, True, False, True])] = np.array([-1.0, 7.9, 1e3])
        np.testing.assert_array_equal(u.numpy(), [0, 0, 7, 255, 255])
    # the array's own dtype named: on the host still in place
    a = np.arange(4.0)
    t = silt.tensor(a, device=device, dtype=np.float64)
    a[0] = 9.0
    assert t.numpy()[0] == (9.0 if device.is_host else 0.0)


def test_arrays_of_a_tensor_come_back_as_views_of_its_storage(host):
    t = silt.ops.add(silt.tensor(np.arange(6.0).reshape(2, 3), device=host), 0.0)
    a = t.numpy()
    assert silt.tensor(a, device=host).shares_storage(t)
    assert silt.tensor(t.T.numpy(), device=host).shares_storage(t)
    # and NumPy's views of it: the same storage, in the view's layout
    v = silt.tensor(a[:, 1::2], device=host)
    assert v.shares_storage(t) and v.offset == 1 and v.strides == (3, 2)
    np.testing.assert_array_equal(v.numpy(), a[:, 1::2])
    assert not silt.tensor(a[::-1], device=host).shares_storage(t)  # copied


A4 = np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)
# tuple keys with index arrays: NumPy's advanced indexing (the arrays'
# dimensions where the first stood when side by side, else first)
ARRAY_KEYS = {
    "a column list": (slice(None), [0, 2]),
    "an int beside": (0, [1, 2]),
    "an int after": ([1, 0], 0),
    "apart: first": ([0, 1], slice(None), 0),
    "apart, later": (slice(None), [0, 1], slice(None), 0),
    "after an ellipsis": (Ellipsis, [4, 0, 1]),
    "broadcast apart": ([[0], [1]], slice(None), [1, 3]),
    "broadcast side by side": (slice(None), np.array([[0, 1], [2, 2]]), [[1], [3]]),
    "a mask alone": (A4[:, :, 0, 0] > 20,),
    "a mask and a slice": (A4[:, :, 0, 0] > 20, slice(1, 3)),
    "a mask later": (slice(None), A4[0, :, :, 0] > 30),
    "None first": (None, slice(None), [1, 2]),
    "None between": ([0, 1], None, [1, 2]),
    "int, list and a step": (1, slice(None), [[0, 3]], slice(None, None, 2)),
    "empty": ([], slice(None)),
    "negative": (slice(None), [-1, -3]),
    "three arrays": (slice(1, 2), [2], [3], [4]),
    "repeated": ([1, 1, 0], [2, 2, 2]),
    # more than a few places: written by one `where`, the last of repeated ones kept
    "many, repeated": ([0, 1, 1, 0, 1, 0, 0, 1, 1, 0], [2, 2, 1, 0, 2, 2, 1, 0, 2, 2]),
    "a big mask": (slice(None), A4[0] % 3 == 0),
    # arrays apart by a slice, with an ellipsis of no dimensions among them
    "apart by a slice and an empty ellipsis": (slice(None), [0], slice(None), Ellipsis, [1]),
    # an ellipsis of no dimensions parts no arrays (PyTorch's reading: NumPy's
    # moves them first)
    "side by side across an empty ellipsis": (slice(None), [0, 2], Ellipsis, [1, 3], slice(None)),
    "an int apart by an ellipsis": (slice(None), 0, slice(None), Ellipsis, [1]),
    # 0-d masks and bools: a new dimension of one place or none
    "a 0-d mask": (np.array(True), [0]),
    "a false 0-d mask": ([0], np.array(False)),
    "a bool": (True, slice(None), [1, 2]),
}


# where PyTorch's reading differs from NumPy's: the integers pick first and
# leave the arrays side by side (NumPy counts them among the arrays, which
# are then apart and go first): the same picks as a view and a key without
# integers
PYTORCH_READS = {
    "apart, later": lambda a: (a[..., 0], (slice(None), [0, 1], slice(None))),
    "int, list and a step": lambda a: (a[1], (slice(None), [[0, 3]], slice(None, None, 2))),
    "an int apart by an ellipsis": lambda a: (a[:, 0], (slice(None), slice(None), Ellipsis, [1])),
    # the same key without its ellipsis of no dimensions
    "side by side across an empty ellipsis": lambda a: (a, (slice(None), [0, 2], [1, 3], slice(None))),
}


@pytest.mark.parametrize("name", sorted(ARRAY_KEYS))
def test_index_arrays_in_a_tuple_as_numpy(device, name):
    key = ARRAY_KEYS[name]
    t = silt.tensor(A4, device=device)
    reads = PYTORCH_READS.get(name, lambda a: (a, key))
    view, same = reads(A4)
    got, want = t[key], view[same]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    if isinstance(key[0], list) and key[0]:
        # a tensor as an index reads the same
        np.testing.assert_array_equal(t[(silt.tensor(np.array(key[0])),) + key[1:]].numpy(), want)
    for value in (-1.0, np.arange(want.size, dtype=np.float32).reshape(want.shape) + 1000):
        b = A4.copy()
        view, same = reads(b)
        view[same] = value
        u = silt.tensor(A4.copy(), device=device)
        u[key] = value
        np.testing.assert_array_equal(u.numpy(), b)  # the last of repeated places wins


def test_index_array_errors(host):
    t = silt.tensor(A4, device=host)
    for key, err in (
        ((slice(None), [3]), IndexError),               # out of range
        ((slice(None), [-4]), IndexError),
        (([0, 1], [0, 1, 2]), IndexError),              # no broadcast
        ((slice(None), [0.5]), IndexError),             # not integers
        ((0, 0, 0, 0, [0]), IndexError),                # too many
        ((A4[0, :, 0, 0] > 1,), IndexError),            # a mask of another shape
        ((Ellipsis, [0], Ellipsis), IndexError),
    ):
        with pytest.raises(err):
            t[key]
        with pytest.raises(err):
            t[key] = 0
    assert t.numpy().tolist() == A4.tolist()  # nothing written


def test_bools_and_empty_views_index_as_numpy(device):
    t = silt.tensor(A4, device=device)
    for key in (True, False, (False,)):
        assert t[key].shape == A4[key].shape
    u = silt.tensor(A4.copy(), device=device)
    u[True] = 1.0
    assert (u.numpy() == 1).all()
    # a new dimension on an empty view that starts past its storage
    e = silt.zeros((0, 3), device=device).T[1:]
    assert e[:, None].shape == (2, 1, 0) and e.unsqueeze(0).shape == (1, 2, 0)
    # an empty selection still checks its value
    with pytest.raises(ValueError):
        t[[], :] = np.ones((5, 7), np.float32)

"""New tensors filled on their device (zeros, ones, full, empty) and
concatenate and stack, against NumPy, on the host backend and an OpenCL
device."""

import numpy as np
import pytest

import silt

X = np.arange(12, dtype=np.float32).reshape(3, 4)
I = np.arange(8, dtype=np.int32).reshape(2, 4)


def test_zeros_ones_full_empty(device):
    z = silt.zeros(2, 3, device=device)
    assert z.device == device and z.dtype == np.float32 and z.shape == (2, 3)
    np.testing.assert_array_equal(z.numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(silt.zeros((4,), dtype=np.int8, device=device).numpy(), np.zeros(4, np.int8))
    assert silt.zeros(device=device).shape == ()
    o = silt.ones([2, 2], dtype="uint16", device=device)
    np.testing.assert_array_equal(o.numpy(), np.ones((2, 2), np.uint16))
    f = silt.full((2, 3), 7, device=device)
    assert f.dtype == np.int64  # PyTorch's dtype of an int fill
    np.testing.assert_array_equal(f.numpy(), np.full((2, 3), 7))
    assert silt.full(3, 2.5, device=device).dtype == np.float32
    assert silt.full(3, True, device=device).dtype == np.bool_
    np.testing.assert_array_equal(silt.full(2, -1, dtype=np.float64, device=device).numpy(), [-1.0, -1.0])
    e = silt.empty(0, 5, device=device)
    assert e.shape == (0, 5) and e.size == 0
    with pytest.raises(silt.ArgumentError, match="at least 0"):
        silt.zeros(-1, device=device)
    with pytest.raises(silt.DTypeError):
        silt.zeros(2, dtype=np.complex64, device=device)


def test_concatenate_and_stack(device, host):
    a, b = silt.tensor(X, device=device), silt.tensor(I, device=device)
    c = silt.concatenate([a[:2], b])  # promoted: float32
    assert c.device == device and c.dtype == np.float32
    np.testing.assert_array_equal(c.numpy(), np.concatenate([X[:2], I]).astype(np.float32))
    np.testing.assert_array_equal(silt.concatenate([a, a.T.T], axis=-1).numpy(), np.concatenate([X, X], axis=-1))
    np.testing.assert_array_equal(silt.concatenate((a, b), axis=None).numpy(), np.concatenate([X.ravel(), I.ravel()]))
    s = silt.stack([b, b + 1, b * 2], axis=1)
    np.testing.assert_array_equal(s.numpy(), np.stack([I, I + 1, I * 2], axis=1))
    with pytest.raises(silt.ArgumentError, match="differ"):
        silt.concatenate([a, b], axis=1)
    others = [d for d in silt.devices() if d != device]
    if others:
        with pytest.raises(silt.ArgumentError, match="several devices"):
            silt.concatenate([a, silt.tensor(X, device=others[0])])
    with pytest.raises(silt.ArgumentError):
        silt.concatenate([])
    with pytest.raises(silt.ArgumentError):
        silt.stack([a, b])
    with pytest.raises(silt.ArgumentError):
        silt.concatenate([a, a], axis=2)


def test_like_forms_take_the_tensors_shape_dtype_and_device(device, host):
    t = silt.tensor(I, device=device)
    for made, value in ((silt.zeros_like(t), 0), (silt.ones_like(t), 1), (silt.empty_like(t), 0),
                        (silt.full_like(t, 7), 7)):
        assert made.device == device and made.dtype == np.int32 and made.shape == (2, 4)
        np.testing.assert_array_equal(made.numpy(), np.full((2, 4), value, np.int32))
    f = silt.ones_like(t, dtype=np.float16, device=host)
    assert f.device == host and f.dtype == np.float16
    assert not silt.zeros_like(t).shares_storage(t)


def test_arange_linspace_eye(device):
    def same(got, want):
        assert got.device == device
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_array_equal(got.numpy(), want)

    same(silt.arange(5, device=device), np.arange(5, dtype=np.int64))  # PyTorch's int64
    same(silt.arange(2, -7, -3, device=device), np.arange(2, -7, -3, dtype=np.int64))
    same(silt.arange(0, 1, 0.1, device=device), (np.arange(10) * 0.1).astype(np.float32))
    same(silt.arange(1.5, 4, dtype=np.float64, device=device), np.array([1.5, 2.5, 3.5]))
    same(silt.arange(3, 3, device=device), np.zeros(0, np.int64))
    for bad in ((0, 5, 0), (0, 5, -1), (0, float("inf"))):
        with pytest.raises(silt.ArgumentError):
            silt.arange(*bad, device=device)
    # both ends exact, the halves from each end (PyTorch's formula)
    got = silt.linspace(-1, 0.3, 7, device=device)
    s0, e0 = np.float32(-1), np.float32(0.3)
    step = (e0 - s0) / np.float32(6)  # in float32, as PyTorch's
    want = [s0 + step * np.float32(i) if i < 3 else e0 - step * np.float32(6 - i) for i in range(7)]
    same(got, np.array(want, np.float32))
    assert got.numpy()[-1] == np.float32(0.3) and got.numpy()[0] == -1
    # integers: the ends truncated, the values in float64 truncated
    same(silt.linspace(0.9, 1.9, 3, dtype=np.int64, device=device), np.array([0, 0, 1]))
    # NumPy's float32 scalars are sized in float64, as Python's
    same(silt.arange(0, 0.7, np.float32(0.7), device=device), np.array([0, np.float32(0.7)], np.float32))
    same(silt.linspace(2, 3, 1, device=device), np.array([2], np.float32))
    same(silt.linspace(2, 3, 0, dtype=np.float64, device=device), np.zeros(0))
    with pytest.raises(silt.ArgumentError):
        silt.linspace(0, 1, -1, device=device)
    same(silt.eye(3, device=device), np.eye(3, dtype=np.float32))
    same(silt.eye(2, 3, dtype=np.int8, device=device), np.eye(2, 3, dtype=np.int8))
    same(silt.cat([silt.tensor(I, device=device)] * 2, dim=1), np.concatenate([I, I], axis=1))


def test_random_tensors(device):
    silt.manual_seed(3)
    a = silt.rand(1000, device=device)
    silt.manual_seed(3)
    b = silt.rand((1000,), device=device)
    assert a.device == device and a.dtype == np.float32 and a.shape == (1000,)
    np.testing.assert_array_equal(a.numpy(), b.numpy())  # seeded: the same numbers
    v = a.numpy()
    assert v.min() >= 0 and v.max() < 1 and 0.4 < v.mean() < 0.6
    h = silt.rand(2, 3, dtype=np.float16, device=device)
    assert h.dtype == np.float16 and (h.numpy() < 1).all()
    n = silt.randn(4000, dtype=np.float64, device=device).numpy()
    assert abs(n.mean()) < 0.1 and 0.9 < n.std() < 1.1
    i = silt.randint(-3, 5, (2, 500), device=device)
    assert i.dtype == np.int64 and i.numpy().min() >= -3 and i.numpy().max() < 5
    assert silt.randint(7, 100, dtype=np.uint8, device=device).dtype == np.uint8
    assert sorted(silt.randperm(50, device=device).numpy().tolist()) == list(range(50))
    x = silt.zeros(3, 2, dtype=np.float64, device=device)
    assert silt.rand_like(x).shape == (3, 2) and silt.randn_like(x).dtype == np.float64
    with pytest.raises(silt.ArgumentError):
        silt.rand(2, dtype=np.int32, device=device)
    with pytest.raises(silt.ArgumentError):
        silt.randint(5, 5, (2,), device=device)


def test_creation_refuses_what_pytorch_refuses(device):
    for bad in (lambda: silt.zeros(2, -1, device=device), lambda: silt.ones(-2, device=device),
                lambda: silt.empty((2, -1), device=device), lambda: silt.full((2, -1), 1.0, device=device),
                lambda: silt.arange(4.0, device=device).as_strided((2,), (-1,), 3),
                lambda: silt.arange(4.0, device=device).as_strided((2,), (1,), -1),
                lambda: silt.cartesian_prod(silt.zeros(2, 2, device=device)), lambda: silt.meshgrid()):
        with pytest.raises(silt.ArgumentError):
            bad()
    for data in (None, [None, 1.0]):
        with pytest.raises(TypeError, match="numbers"):
            silt.tensor(data, dtype=np.float32, device=device)


def test_creation_dtypes_as_pytorch(device):
    assert silt.arange(True, device=device).dtype == np.int64
    assert silt.arange(False, 3, device=device).tolist() == [0, 1, 2]
    # an integer dtype truncates logspace's ends first
    assert silt.logspace(0.5, 2.5, 3, dtype=np.int64, device=device).tolist() == [1, 10, 100]
    x = silt.tensor(3.0, device=device)
    assert x.transpose(0, -1).tolist() == 3.0 and x.H.tolist() == 3.0 and x.T.tolist() == 3.0
    with pytest.raises(silt.AxisError, match="0-d tensor has none"):
        x.transpose(0, 1)


def test_advanced_assignment_drops_leading_ones_of_the_value(device):
    t = silt.zeros(2, 3, 4, device=device)
    t[[0, 1]] = silt.ones(1, 1, 3, 4, device=device)
    assert t.numpy().sum() == 24
    t[t > 0] = silt.full((1, 24), 2.0, device=device)
    assert t.numpy().sum() == 48


def test_random_ranges_hold_in_narrow_dtypes(device):
    # as PyTorch's: low and high - 1 must fit an integer dtype
    for low, high, dt in ((0, 200, np.int8), (0, 2**40, np.int32), (-1, 5, np.uint8), (0, 3, np.bool_)):
        with pytest.raises(silt.ArgumentError, match="range"):
            silt.randint(low, high, (4,), dtype=dt, device=device)
    assert silt.randint(-128, 128, (50,), dtype=np.int8, device=device).numpy().min() >= -128
    with pytest.raises(silt.ArgumentError, match="range"):
        silt.randint_like(silt.zeros(4, dtype=np.int8, device=device), 1000)
    # a float dtype never gives high, even where draws round up to it
    silt.manual_seed(5)
    got = silt.randint(4094, 4096, (2000,), dtype=np.float16, device=device).numpy()
    assert got.max() < 4096 and got.min() >= 4094
    got = silt.randint(2**24, 2**24 + 100, (5000,), dtype=np.float32, device=device).numpy()
    assert got.max() < 2**24 + 100
    # randperm: a permutation or an error
    for n, dt in ((300, np.int8), (40000, np.int16), (2050, np.float16)):
        with pytest.raises(silt.ArgumentError, match="do not fit"):
            silt.randperm(n, dtype=dt, device=device)
    assert sorted(silt.randperm(2049, dtype=np.float16, device=device).numpy().tolist()) == list(range(2049))
    with pytest.raises(silt.DTypeError):
        silt.randperm(3, dtype=np.bool_, device=device)
    with pytest.raises(silt.ArgumentError, match="negative"):
        silt.randperm(-1, device=device)
    # NaN standard deviations, 0-d rates, PyTorch's keywords and seeds
    with pytest.raises(silt.ArgumentError, match="NaN"):
        silt.normal(silt.zeros(3, device=device), float("nan"))
    with pytest.raises(silt.ArgumentError, match="NaN"):
        silt.zeros(3, device=device).normal_(0, float("nan"))
    assert silt.poisson(silt.tensor(np.float32(2.0), device=device)).shape == ()
    assert silt.rand(size=(2, 3), device=device).shape == (2, 3)
    assert silt.randn(size=(4,), device=device).shape == (4,)
    assert silt.randint(high=5, size=(3,), device=device).numpy().max() < 5
    assert silt.arange(end=3, device=device).tolist() == [0, 1, 2]
    silt.manual_seed(-1)
    a = silt.rand(4, device=device).numpy()
    silt.manual_seed(2**64 - 1)
    np.testing.assert_array_equal(a, silt.rand(4, device=device).numpy())
    with pytest.raises(silt.ArgumentError):
        silt.manual_seed(2**64)


def test_tensor_of_numbers_lists_and_tensors_as_pytorch(device):
    # Python integers out of the dtype's range raise (they wrapped)
    for data, dt in (([300], np.uint8), ([-1, 256], np.uint8), ([2**63], np.int64), ([40000], np.int16)):
        with pytest.raises(silt.ArgumentError, match="range"):
            silt.tensor(data, dtype=dt, device=device)
    assert silt.tensor([255, 0], dtype=np.uint8, device=device).tolist() == [255, 0]
    # arrays convert as astype does
    assert silt.tensor(np.array([300]), dtype=np.uint8, device=device).tolist() == [44]
    # a tensor is copied
    x = silt.zeros(3, device=device)
    y = silt.tensor(x)
    y[0] = 7.0
    assert x.tolist() == [0.0, 0.0, 0.0] and not y.shares_storage(x)
    # one-element tensors in a list are numbers; larger ones raise
    got = silt.tensor([silt.tensor([1], device=device), silt.tensor(3, device=device)], device=device)
    assert got.shape == (2,) and got.tolist() == [1, 3]
    assert silt.tensor([[silt.tensor(1.5)], [2.0]], device=device).shape == (2, 1)
    with pytest.raises(silt.ArgumentError, match="one-element"):
        silt.tensor([silt.tensor([1, 2]), silt.tensor([3, 4])], device=device)
    # format: a 0-d tensor as its element; others take no spec, as PyTorch's
    assert format(silt.tensor(2.5, device=device), ".2f") == "2.50"
    with pytest.raises(TypeError):
        format(silt.tensor([2.5], device=device), ".2f")

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
    with pytest.raises(OverflowError):
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

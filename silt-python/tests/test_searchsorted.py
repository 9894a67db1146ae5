"""`silt.searchsorted` and `silt.bucketize` against NumPy's `searchsorted`
(row by row for sequences of several dimensions), on the host backend and
an OpenCL device: both sides, promotion, numbers, `sorter`, `out_int32`,
NaN, and the errors PyTorch raises."""

import numpy as np
import pytest

import silt

RNG = np.random.default_rng(11)
SEQ = np.sort(RNG.integers(-20, 20, 50)).astype(np.float32)  # ties
VALS = RNG.integers(-25, 25, (4, 6)).astype(np.float32) / 2  # equal to elements too


def rows(seq, vals, side):
    """NumPy's searchsorted of each row of `vals` in the same row of `seq`."""
    out = np.empty(vals.shape, np.int64)
    for r in np.ndindex(*vals.shape[:-1]):
        out[r] = np.searchsorted(seq[r], vals[r], side=side)
    return out


@pytest.mark.parametrize("side", ["left", "right"])
def test_one_sequence_for_every_value(device, side):
    s, v = silt.tensor(SEQ, device=device), silt.tensor(VALS, device=device)
    got = silt.searchsorted(s, v, side=side)
    assert got.dtype == np.int64 and got.device == device
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(SEQ, VALS, side=side))
    np.testing.assert_array_equal(
        silt.searchsorted(s, v, right=side == "right").numpy(), got.numpy()
    )
    # bucketize is the same with its arguments swapped
    np.testing.assert_array_equal(
        silt.bucketize(v, s, right=side == "right").numpy(), got.numpy()
    )


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "float16", "float64"])
def test_a_sequence_a_row(device, dtype):
    seq = np.sort(RNG.integers(0, 100, (2, 3, 40)), axis=-1).astype(dtype)
    vals = RNG.integers(-5, 105, (2, 3, 7)).astype(dtype)
    s, v = silt.tensor(seq, device=device), silt.tensor(vals, device=device)
    for side in ("left", "right"):
        got = silt.searchsorted(s, v, side=side)
        np.testing.assert_array_equal(got.numpy(), rows(seq, vals, side))
    # a transposed view of the values
    vt = silt.tensor(np.ascontiguousarray(vals[0].T), device=device).T
    got = silt.searchsorted(s[0], vt)
    np.testing.assert_array_equal(got.numpy(), rows(seq[0], vals[0], "left"))


def test_promotion_numbers_and_out_int32(device):
    seq = np.arange(0, 20, 2, dtype=np.int32)
    s = silt.tensor(seq, device=device)
    # int32 beside float32 values: compared as float32
    v = silt.tensor(np.array([3.5, 4.0, -1.0, 25.0], np.float32), device=device)
    got = silt.searchsorted(s, v)
    np.testing.assert_array_equal(got.numpy(), [2, 2, 0, 10])
    # a number: a 0-d result (a float promotes the int sequence)
    one = silt.searchsorted(s, 4.5, right=True)
    assert one.shape == () and one.item() == 3
    assert silt.searchsorted(s, 4).item() == 2
    # int32 places
    got = silt.searchsorted(s, v, out_int32=True)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.numpy(), [2, 2, 0, 10])
    # NumPy arrays for both
    np.testing.assert_array_equal(silt.searchsorted(seq, np.array([5, 6])).numpy(), [3, 3])


def test_nan_and_sorter(device):
    s = silt.tensor(np.array([-np.inf, -1.0, 0.0, 2.0], np.float32), device=device)
    v = silt.tensor(np.array([np.nan, -0.0, np.inf], np.float32), device=device)
    np.testing.assert_array_equal(silt.searchsorted(s, v).numpy(), [4, 2, 4])
    # an unsorted sequence read through the order argsort gives
    raw = RNG.permutation(SEQ)
    r = silt.tensor(raw, device=device)
    order = r.argsort()
    got = silt.searchsorted(r, silt.tensor(VALS, device=device), sorter=order)
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(raw, VALS, sorter=np.argsort(raw, kind="stable")))


def test_errors(device):
    s = silt.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    with pytest.raises(silt.ArgumentError, match="side"):
        silt.searchsorted(s, s, side="middle")
    with pytest.raises(silt.ArgumentError, match="opposites"):
        silt.searchsorted(s, s, side="left", right=True)
    with pytest.raises(silt.ArgumentError):  # leading sizes that differ
        silt.searchsorted(s, silt.tensor(np.zeros((3, 2), np.float32), device=device))
    with pytest.raises(silt.ArgumentError):  # a number beside rows of sequences
        silt.searchsorted(s, 1.0)
    with pytest.raises(silt.ArgumentError, match="1-d"):
        silt.bucketize(silt.tensor(np.zeros(3, np.float32), device=device), s)
    bad = silt.tensor(np.array([[0, 1, 2], [2, 3, 0]], np.int64), device=device)
    with pytest.raises(IndexError, match="searchsorted"):
        silt.searchsorted(s, s, sorter=bad)
    with pytest.raises(silt.DTypeError):
        b = silt.tensor(np.array([False, True]), device=device)
        silt.searchsorted(b, b)


def test_an_empty_sequence_places_every_value_at_0(device):
    # NumPy's empty arrays, used in place on the host backend, once failed
    # there as misaligned memory
    for dtype in (np.float32, np.int64, np.float64):
        seq = silt.tensor(np.zeros(0, dtype), device=device)
        values = silt.tensor(np.array([3, 6], dtype), device=device)
        got = silt.searchsorted(seq, values)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got.numpy(), [0, 0])
        np.testing.assert_array_equal(silt.bucketize(values, seq, right=True).numpy(), [0, 0])
    # an empty host tensor reads as no elements through every kernel
    empty = silt.tensor(np.zeros((0, 3), np.float32), device=device)
    assert empty.sum().item() == 0 and tuple((empty + 1).shape) == (0, 3)

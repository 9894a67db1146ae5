"""Item assignment, t[idx] = value, against NumPy's on the same indices, on
the host backend and an OpenCL device."""

import numpy as np
import pytest

import silt

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

# (index, value): NumPy's basic indexing with integers, slices (positive
# steps) and '...'; values numbers, arrays, nested lists, broadcast
CASES = [
    ((0, 1, 2), 5.0),
    ((-1, -1, -1), -3),
    ((1,), 7.5),
    (1, np.arange(12, dtype=np.float32).reshape(3, 4)),
    ((slice(None), 0), [100, 200, 300, 400]),  # a row broadcast over dim 0
    ((Ellipsis, 1), np.array([[9], [8]], np.float64)),  # converted, broadcast
    ((slice(None), slice(1, 3), slice(None, None, 2)), 0),
    ((0, Ellipsis), 1),
    ((Ellipsis,), np.float32(2.5)),
    ((slice(None, None, 2), slice(None, None, 2), 3), [[1, 2]]),
    ((1, slice(0, 0)), 4),  # empty
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_setitem_matches_numpy(device, case):
    key, value = CASES[case]
    want = A.copy()
    want[key] = value
    t = silt.tensor(A.copy(), device=device)
    t[key] = value
    np.testing.assert_array_equal(t.numpy(), want)


def test_setitem_with_tensors(device, host):
    want = A.copy()
    t = silt.tensor(A.copy(), device=device)
    src = silt.tensor(np.array([1, 2, 3, 4], np.int64), device=host)  # another device, dtype
    t[0, 1] = src
    want[0, 1] = [1, 2, 3, 4]
    t[1] = silt.tensor(np.full((1, 4), -1.0, np.float32), device=device)
    want[1] = -1
    np.testing.assert_array_equal(t.numpy(), want)
    # overlapping views of one tensor read a copy, as NumPy does
    t[0, 1:] = t[0, :-1]
    want[0, 1:] = want[0, :-1].copy()
    np.testing.assert_array_equal(t.numpy(), want)


def test_setitem_converts_as_pytorch(device):
    i = silt.tensor(np.zeros(4, np.int32), device=device)
    i[1] = 2.9  # truncated toward zero
    i[2] = -2.9
    i[3] = True
    np.testing.assert_array_equal(i.numpy(), [0, 2, -2, 1])
    b = silt.tensor(np.zeros(3, bool), device=device)
    b[0] = 1
    b[1:] = np.array([0.0, 0.5])
    np.testing.assert_array_equal(b.numpy(), [True, False, True])


def test_setitem_writes_through_views_and_arrays(host):
    a = A.copy()
    t = silt.tensor(a, device=host)  # in place over a
    v = t.T
    v[0, 0, 0] = 99
    t[1, 2, 3] = -1
    assert a[0, 0, 0] == 99 and a[1, 2, 3] == -1


def test_setitem_errors(device):
    t = silt.tensor(A.copy(), device=device)
    with pytest.raises(IndexError):
        t[5] = 1
    with pytest.raises(IndexError):
        t[0, 0, 0, 0] = 1
    with pytest.raises(silt.ArgumentError):
        t[0] = np.ones((2, 2))  # does not broadcast to (3, 4)
    with pytest.raises(IndexError, match="out of bounds"):
        t[np.array([0, 2])] = 1  # dimension 0 has 2 rows
    with pytest.raises(IndexError, match="boolean mask"):
        t[np.ones((3,), bool)] = 0  # not the leading dimensions' shape
    with pytest.raises(IndexError, match="integer or boolean"):
        t[np.array([0.5])] = 0
    with pytest.raises(silt.ArgumentError, match="negative steps"):
        t[::-1] = 0
    with pytest.raises(silt.DTypeError):
        t[0] = np.array(["a", "b", "c", "d"])
    with pytest.raises(ValueError):
        silt.tensor(np.zeros(2, np.int32), device=device)[0] = float("nan")
    np.testing.assert_array_equal(t.numpy(), A)  # nothing written


# advanced indices: (index, value) for t[index] = value and t[index]
ADVANCED = [
    (np.array([1, 0, 1]), None),
    (np.array([[0], [-1]]), None),
    ([1], None),
    (A > 10, None),
    (A[:, :, 0] > 5, None),
    (np.array([0, 1, 1]), 7.0),
    (A > 10, -1.0),
    (A[:, 0, 0] > 5, np.arange(12, dtype=np.float32).reshape(3, 4)),
    (np.array([1, 0]), np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 2),
]


@pytest.mark.parametrize("case", range(len(ADVANCED)))
def test_advanced_indexing_matches_numpy(device, case):
    key, value = ADVANCED[case]
    t = silt.tensor(A.copy(), device=device)
    got = t[silt.tensor(key, device=device) if isinstance(key, np.ndarray) and case % 2 else key]
    want = A[key]
    assert isinstance(got, silt.Tensor) and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    if value is None:
        return
    a = A.copy()
    a[key] = value
    t[key] = value
    np.testing.assert_array_equal(t.numpy(), a)


# integers beside index arrays, as PyTorch reads them (the integers pick
# first; NumPy counts them among the arrays and can move the arrays'
# dimensions first): (key, the same picks written without the integers)
INTEGERS_FIRST = [
    ((1, slice(None), [0, 3]), lambda a: a[1][:, [0, 3]]),                 # [3, 2]; NumPy: [2, 3]
    ((None, [0, 1], slice(None), 0), lambda a: a[:, :, 0][None, [0, 1], :]),  # [1, 2, 3]
    ((slice(None), 2, [1, 0, 3]), lambda a: a[:, 2][:, [1, 0, 3]]),        # [2, 3]
    (([1, 0], 1, [0, 3]), lambda a: a[:, 1][[1, 0], [0, 3]]),             # [2]
    ((Ellipsis, [2, 1], 1), lambda a: a[..., 1][..., [2, 1]]),            # [2, 2]
]


@pytest.mark.parametrize("case", range(len(INTEGERS_FIRST)))
def test_integers_beside_index_arrays_pick_first_as_pytorchs(device, case):
    key, same = INTEGERS_FIRST[case]
    t = silt.tensor(A.copy(), device=device)
    want = same(A)
    got = t[key]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    # written through the same key: a value of the read's shape lands there
    value = np.arange(want.size, dtype=np.float32).reshape(want.shape) + 100
    t[key] = value
    np.testing.assert_array_equal(t[key].numpy(), value)
    untouched = np.ones(A.shape, bool)
    flat = np.arange(A.size, dtype=np.float32).reshape(A.shape)
    untouched.reshape(-1)[same(flat).astype(np.int64).reshape(-1)] = False
    np.testing.assert_array_equal(t.numpy()[untouched], A[untouched])


def test_uint64_indices_past_int64_and_writes_into_broadcast_views(device):
    # a uint64 index past int64's range is out of range (it wrapped to a
    # negative index, the last element)
    t = silt.tensor(np.arange(12), device=device)
    big = np.array([2**64 - 1], np.uint64)
    with pytest.raises(IndexError, match="18446744073709551615"):
        t[big]
    with pytest.raises(IndexError):
        t[big] = 99
    with pytest.raises(IndexError):
        t.index_put_((silt.tensor(big, device=device),), silt.tensor(np.array([99]), device=device))
    with pytest.raises(IndexError, match="put_"):
        t.put_(silt.tensor(big, device=device), silt.tensor(np.array([99]), device=device))
    with pytest.raises(IndexError, match="9223372036854775808"):
        t[[2**63]]
    assert t.numpy().tolist() == list(range(12))  # nothing written
    assert t[np.array([11], np.uint64)].item() == 11
    # a broadcast view refuses writes however few places they touch (a
    # few were written one by one, the shared element taking the last)
    b = silt.tensor(np.zeros((4, 1), np.float32), device=device)
    e = b.expand(4, 3)
    for write in (lambda: e.__setitem__(([0, 0], [0, 1]), silt.tensor(np.float32([5, 6]), device=device)),
                  lambda: e.index_put_((silt.tensor([0, 1], device=device), silt.tensor([0, 1], device=device)),
                                       silt.tensor(np.float32([8, 9]), device=device)),
                  lambda: e.masked_scatter_(silt.tensor(np.eye(4, 3, dtype=bool), device=device),
                                            silt.tensor(np.float32([7, 8, 9]), device=device)),
                  lambda: e.__setitem__(([1],), 3.0)):
        with pytest.raises(silt.ArgumentError, match="overlaps itself"):
            write()
    assert b.numpy().tolist() == [[0.0]] * 4

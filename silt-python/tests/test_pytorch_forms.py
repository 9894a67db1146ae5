"""PyTorch's other spellings and smaller rules, each against NumPy on the host
backend and an OpenCL device: `dim=` for `stack`, `dtype=` for the scans,
`round(decimals=)`, sequences for `permute`, 0-d tensors as numbers
(`narrow`, `arange`, `__index__`), the `mT`/`mH`/`H` views, `unfold`,
`mode`, `msort`, and the dtypes PyTorch gives (`all` of uint8, `addcmul`
promoting, integer `fmax`/`logsumexp`, bool `sign`/`square`)."""

import operator

import numpy as np
import pytest

import silt

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def t(a, device):
    return silt.tensor(a, device=device)


def same(got, want):
    want = np.asarray(want)
    assert isinstance(got, silt.Tensor)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert tuple(got.shape) == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-7)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


def test_joins_take_pytorchs_dim(device):
    x = t(A, device)
    same(silt.stack([x, x + 1], dim=1), np.stack([A, A + 1], 1))
    same(silt.stack([x, x], dim=-1), np.stack([A, A], -1))
    # a 1-d empty tensor beside tensors of more dimensions is passed over
    same(silt.cat([x, t(np.zeros(0, np.float32), device)], 1), A)
    same(silt.cat([t(np.zeros(0, np.int32), device), x, x]), np.concatenate([A, A]))
    same(silt.cat([t(np.zeros(0, np.float32), device), t(np.zeros(0, np.float32), device)]),
         np.zeros(0, np.float32))
    # ... and its dtype promotes wherever it stands, first or later
    i64 = t(np.arange(6).reshape(2, 3), device)
    for joined in ([t(np.zeros(0), device), i64], [i64, t(np.zeros(0), device)]):
        same(silt.cat(joined, -1), np.arange(6.0).reshape(2, 3))
    u8, i8 = t(np.zeros(0, np.uint8), device), t(np.ones((2, 2), np.int8), device)
    same(silt.cat([u8, i8]), np.ones((2, 2), np.int16))


def test_scans_take_a_dtype(device):
    x = t(A[0], device)
    same(x.cumsum(1, dtype=np.float64), np.cumsum(A[0].astype(np.float64), 1))
    same(silt.cumsum(t(A[0].astype(np.int32), device), 0, dtype=np.float32), np.cumsum(A[0], 0))
    e = np.exp(A[0].astype(np.float64) - A[0].max(0))
    same(x.softmax(0, dtype=np.float64), e / e.sum(0))
    same(x.log_softmax(0, np.float64), np.log(e / e.sum(0)))


def test_round_to_decimals(device):
    a = np.array([1.2345, -2.5551, 1234.5, 0.125, -0.0049], np.float32)
    x = t(a, device)
    scale = np.float32(100)
    same(x.round(decimals=2), np.round(a * scale) / scale)
    same(silt.round(x, decimals=1), np.round(a * np.float32(10)) / np.float32(10))
    same(x.round(decimals=-2), np.round(a / scale) * scale)
    same(x.round(), np.round(a))
    same(t(np.array([3, -7]), device).round(decimals=2), np.array([3, -7]))


def test_views_in_pytorchs_spellings(device):
    x = t(A, device)
    same(x.permute((2, 0, 1)), A.transpose(2, 0, 1))
    same(x.permute([1, 0, 2]), A.transpose(1, 0, 2))
    same(x.narrow(2, t(np.int64(1), device), 2), A[:, :, 1:3])
    same(x.mT, A.swapaxes(-1, -2))
    same(x.mH, A.swapaxes(-1, -2))
    same(x[0].H, A[0].T)
    for bad in (lambda: t(A[0, 0], device).mT, lambda: x.H):
        with pytest.raises(silt.ArgumentError):
            bad()
    # unfold: windows of 2 along the last dimension, one apart, and of 2 rows, 1 apart
    same(x.unfold(2, 2, 1), np.lib.stride_tricks.sliding_window_view(A, 2, axis=2))
    same(x.unfold(1, 2, 2), np.lib.stride_tricks.sliding_window_view(A, 2, axis=1)[:, ::2])
    same(x.unfold(-1, 4, 3), A[:, :, None, :])
    assert x.unfold(2, 2, 1).shares_storage(x)
    with pytest.raises(silt.ArgumentError):
        x.unfold(2, 5, 1)


def test_zero_d_tensors_as_numbers(device):
    three = t(np.int64(3), device)
    same(silt.arange(three), np.arange(3))
    same(silt.arange(t(np.float32(0.5), device), 2), np.array([0.5, 1.5], np.float32))
    assert [10, 20, 30, 40][three] == 40
    assert list(range(t(np.array([2], np.int32), device))) == [0, 1]
    assert operator.index(t(np.array([[5]], np.uint8), device)) == 5
    for bad in (t(np.float32(1), device), t(np.array([1, 2]), device)):
        with pytest.raises(TypeError):
            operator.index(bad)


def test_mode_and_msort(device):
    a = np.array([[3, 1, 3, 1, 2], [5, 5, 4, 4, 4], [7, 8, 9, 1, 2]])
    values, indices = t(a, device).mode(1)
    same(values, np.array([1, 4, 1]))  # the smallest of those tied
    same(indices, np.array([3, 4, 3]))  # its last place
    v, i = silt.mode(t(a.T.copy(), device), 0, keepdim=True)
    same(v, np.array([[1, 4, 1]]))
    same(i, np.array([[3, 4, 3]]))
    same(t(a, device).msort(), np.sort(a, 0))
    same(silt.msort(t(A[:, :, 0][::-1].copy(), device)), np.sort(A[:, :, 0][::-1], 0))


def test_dtypes_as_pytorchs(device):
    u = t(np.array([[1, 0], [2, 3]], np.uint8), device)
    same(u.all(), np.uint8(0))
    same(u.any(1), np.array([1, 1], np.uint8))
    f = t(np.array([1.0, 2.0], np.float32), device)
    i = t(np.array([3, 4]), device)
    same(silt.addcmul(f, i, i, value=0.5), np.array([5.5, 10], np.float32))
    same(i.addcmul(i, i, value=2), np.array([21, 36]))
    same(i.fmax(t(np.array([5, 1]), device)), np.array([5, 4]))
    same(silt.fmin(i, t(np.array([5, 1]), device)), np.array([3, 1]))
    same(i.logsumexp(0), np.float32(np.logaddexp(3, 4)))
    b = t(np.array([True, False]), device)
    same(b.sign(), np.array([True, False]))
    same(b.sgn(), np.array([True, False]))
    same(b.square(), np.array([1, 0]))


def test_repeat_interleave_of_counts_alone(device):
    same(t(np.array([1, 0, 2]), device).repeat_interleave(), np.array([0, 2, 2]))
    same(silt.repeat_interleave(t(np.array([2, 1]), device)), np.array([0, 0, 1]))
    with pytest.raises(silt.ArgumentError):
        t(np.array([1.5]), device).repeat_interleave()


def test_accumulating_writes_of_bool_as_pytorchs(device):
    # a sum or a maximum is an or, a product or a minimum an and
    z = t(np.zeros(4, bool), device)
    i = t(np.array([0, 0, 2, 3]), device)
    s = t(np.array([True, True, False, True]), device)
    want_or = np.array([True, False, False, True])
    same(z.scatter_add(0, i, s), want_or)
    same(silt.index_add(z, 0, i, s), want_or)
    same(z.scatter_reduce(0, i, s, "amax"), want_or)
    same(z.clone().put_(i, s, accumulate=True), want_or)
    same(z.clone().index_put_((i,), s, accumulate=True), want_or)
    ones = t(np.ones(4, bool), device)
    same(ones.scatter_reduce(0, i, s, "prod"), np.array([True, True, False, True]))
    same(ones.scatter_reduce(0, i, s, "amin", include_self=False), np.array([True, True, False, True]))
    w = z.clone()
    assert w.scatter_add_(0, i, s) is w
    same(w, want_or)
    # many places into one: no wrap of a count
    many = t(np.ones(300, bool), device)
    same(t(np.zeros(1, bool), device).index_add(0, t(np.zeros(300, np.int64), device), many), np.array([True]))
    with pytest.raises(silt.DTypeError, match="mean"):
        z.scatter_reduce(0, i, s, "mean")


def test_a_0d_integer_tensor_indexes_as_an_int(device):
    x = t(np.zeros((3, 2), np.float32), device)
    i = t(np.array(1), device)
    row = x[i]
    assert row.shares_storage(x) and x[:, t(np.array(0), device)].shares_storage(x)
    row.add_(1)
    x[i][0] = 5
    x[np.int64(2), i] = 7
    same(x, np.array([[0, 0], [5, 1], [0, 7]], np.float32))
    for k in (t(np.array(0), device),):  # a loop over index tensors writes through
        x[k].mul_(0)
    same(x[0], np.zeros(2, np.float32))


def test_conversions_and_protocols_as_pytorchs(device, host):
    x = t(np.arange(3, dtype=np.float32), device)
    other = silt.tensor(np.zeros(1, np.int8), device=host)
    moved = x.to(other)
    assert moved.device == other.device and moved.dtype == np.int8
    same(moved, np.arange(3, dtype=np.int8))
    assert x.to(device, non_blocking=True) is not None
    assert x.type() == "silt.float32" and x.type(np.float64).dtype == np.float64
    # copy.copy: a new tensor over the same storage on every device
    import copy
    c = copy.copy(x)
    assert c is not x and c.shares_storage(x)
    x.add_(10)
    same(c, np.arange(10, 13, dtype=np.float32))
    # iteration gives rows; a 0-d tensor is not iterable; `in` compares every element
    rows = list(t(A[0], device))
    assert len(rows) == 3 and rows[1].shares_storage(rows[0]) is True
    same(rows[2], A[0, 2])
    with pytest.raises(TypeError, match="0-d"):
        list(t(np.float32(1), device))
    grid = t(A[0], device)
    assert 5.0 in grid and 100 not in grid and t(np.array([8.0, 9, 10, 11], np.float32), device) in grid
    # format of a 0-d tensor is its element's
    assert f"{t(np.float32(1.5), device):.2f}" == "1.50" and f"{t(np.int64(7), device):03d}" == "007"


def test_assignments_drop_leading_dimensions_of_one(device):
    x = t(np.zeros((2, 4), np.float32), device)
    x[1] = np.ones((1, 4), np.float32)
    x[0, 0] = t(np.array([7.0], np.float32), device)
    x[0, 1:3] = np.array([[[2.0, 3.0]]], np.float32)
    same(x, np.array([[7, 2, 3, 0], [1, 1, 1, 1]], np.float32))
    with pytest.raises(silt.ArgumentError):
        x[1] = np.ones((2, 4), np.float32)  # a leading 2 is not dropped


def test_creation_and_splits_in_pytorchs_spellings(device):
    assert silt.zeros(size=(2, 3)).shape == (2, 3) and silt.ones(size=[4]).shape == (4,)
    assert silt.empty(size=(1, 2)).shape == (1, 2)
    same(silt.full(size=(2,), fill_value=3, device=device), np.array([3, 3]))
    with pytest.raises(TypeError):
        silt.zeros(2, size=(2,))
    r = silt.randint(5, (3,))
    assert r.shape == (3,) and r.dtype == np.int64 and 0 <= int(r.amin().item()) <= int(r.amax().item()) < 5
    x = t(A, device)
    for got, want in ((x.hsplit(3), np.split(A, 3, 1)), (silt.vsplit(x, [1]), np.split(A, [1], 0)),
                      (x.dsplit(2), np.split(A, 2, 2)), (t(np.arange(6), device).hsplit(2), np.split(np.arange(6), 2))):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    with pytest.raises(silt.ArgumentError, match="divide"):
        x.hsplit(2)
    with pytest.raises(silt.ArgumentError):
        t(A[0], device).dsplit(2)


def test_masked_scatter_and_scatter_with_reduce(device):
    m = t(np.array([[True, False, True], [False, True, False]]), device)
    y = t(np.zeros((2, 3), np.float32), device)
    src = t(np.array([1, 2, 3, 4], np.float32), device)
    same(y.masked_scatter(m, src), np.array([[1, 0, 2], [0, 3, 0]], np.float32))
    same(y, np.zeros((2, 3), np.float32))
    assert y.masked_scatter_(m[0], src) is y  # the mask broadcasts over rows
    same(y, np.array([[1, 0, 2], [3, 0, 4]], np.float32))
    with pytest.raises(silt.ArgumentError, match="source"):
        y.masked_scatter(t(np.ones((2, 3), bool), device), src)
    z = t(np.full(4, 2, np.float32), device)
    i = t(np.array([0, 0, 2]), device)
    same(z.scatter(0, i, t(np.ones(3, np.float32), device), reduce="add"), np.array([4, 2, 3, 2], np.float32))
    same(z.scatter(0, i, 3.0, reduce="multiply"), np.array([18, 2, 6, 2], np.float32))
    assert z.scatter_(0, i, 1.0, reduce="add") is z
    same(z, np.array([4, 2, 3, 2], np.float32))
    with pytest.raises(silt.ArgumentError, match="reduce"):
        z.scatter_(0, i, 1.0, reduce="max")


def test_arange_of_floats_into_integers_as_pytorchs():
    # the count from the floats, the values from the integer parts of start and step
    for args, want in (((0, 2, 0.5), [0, 0, 0, 0]), ((0.5, 3, 1), [0, 1, 2]), ((-1.5, 2, 0.7), [-1] * 5),
                       ((2.7, -1, -0.9), [2] * 5), ((0, 5.5, 2), [0, 2, 4])):
        same(silt.arange(*args, dtype=np.int32), np.array(want, np.int32))


def test_a_number_past_float16s_range_is_an_error(device):
    # PyTorch's: "cannot be converted to Half without overflow" (inf itself converts)
    h = t(np.ones(2, np.float16), device)
    for bad in (lambda: h + 1e6, lambda: h.fill_(70000), lambda: silt.full((1,), 1e6, dtype=np.float16)):
        with pytest.raises(silt.DTypeError, match="f16"):
            bad()
    same(h * float("inf"), np.full(2, np.inf, np.float16))
    same(h + 60000.0, np.full(2, 60000, np.float16))


def test_small_methods_as_pytorchs(device):
    x = t(np.array([[1.0, -np.inf], [np.inf, 2.0]], np.float32), device)
    assert x.nelement() == 4 and x.ndimension() == 2 and x.storage_offset() == 0 and x[1].storage_offset() == 2
    assert x.is_signed() and not t(np.array([1], np.uint8), device).is_signed()
    same(x.isposinf(), np.array([[False, False], [True, False]]))
    same(silt.isneginf(x), np.array([[False, True], [False, False]]))
    same(t(np.array([1, 2]), device).isposinf(), np.array([False, False]))
    assert x.positive() is x and silt.is_same_size(x, x) and not x.is_same_size(x[0])
    assert t(np.array([3]), device).is_nonzero() and not silt.is_nonzero(t(np.array([[0.0]]), device))
    with pytest.raises(silt.ArgumentError):
        x.is_nonzero()
    a = t(np.full((2, 3), 2.0, np.float32), device)
    same(a.addcdiv(a, a * 4, value=3), np.full((2, 3), 2 + 3 * 2 / 8, np.float32))
    assert a.addcdiv_(a, a) is a
    same(a, np.full((2, 3), 3.0, np.float32))
    with pytest.raises(silt.DTypeError):
        t(np.array([1]), device).addcdiv(t(np.array([1]), device), t(np.array([2]), device))
    c = t(np.arange(4, dtype=np.float32), device)
    assert c.cumsum_(0) is c
    same(c, np.array([0, 1, 3, 6], np.float32))
    same(c.cumprod_(0), np.array([0, 0, 0, 0], np.float32))
    ones = t(np.ones((2, 3, 4), np.float32), device)
    same(ones.sum_to_size(3, 1), np.full((3, 1), 8, np.float32))
    same(ones.sum_to_size((1, 3, 4)), np.full((1, 3, 4), 2, np.float32))
    with pytest.raises(silt.ArgumentError):
        ones.sum_to_size(2, 4)
    same(list(reversed(t(np.arange(3), device)))[0], np.int64(2))
    assert [10, 20][t(np.array([True]), device)] == 20
    assert x.is_cpu == device.is_host and x.get_device() == (-1 if device.is_host else 0)
    same(silt.concat([a, a]), np.full((4, 3), 3.0, np.float32))


def test_sampling_as_pytorchs(device):
    silt.manual_seed(7)
    w = t(np.array([[0.0, 1.0, 3.0], [2.0, 0.0, 2.0]], np.float32), device)
    picks = w.multinomial(2)
    assert picks.dtype == np.int64 and tuple(picks.shape) == (2, 2)
    for row, weights in zip(picks.numpy(), w.numpy()):
        assert len(set(row)) == 2 and all(weights[i] > 0 for i in row)  # each once, never a zero weight
    many = silt.multinomial(t(np.array([0.1, 0.0, 0.9], np.float32), device), 20000, replacement=True).numpy()
    share = np.bincount(many, minlength=3) / 20000
    assert share[1] == 0 and abs(share[0] - 0.1) < 0.02
    for bad in (lambda: w.multinomial(3), lambda: t(np.array([-1.0, 2.0], np.float32), device).multinomial(1),
                lambda: t(np.zeros(2, np.float32), device).multinomial(1, True)):
        with pytest.raises(silt.ArgumentError):
            bad()
    n = silt.normal(t(np.array([5.0, -5.0], np.float32), device), 0.0)
    same(n, np.array([5.0, -5.0], np.float32))
    assert n.device == device
    spread = silt.normal(0.0, 2.0, size=(20000,)).numpy()
    assert spread.dtype == np.float32 and abs(spread.std() - 2) < 0.1
    p = silt.poisson(t(np.full(20000, 3.0, np.float32), device)).numpy()
    assert p.dtype == np.float32 and abs(p.mean() - 3) < 0.1 and (p == np.round(p)).all()
    b = silt.binomial(t(np.full((2, 10000), 10.5, np.float32), device), t(np.array([[0.3], [1.0]], np.float32), device))
    bn = b.numpy()
    assert b.dtype == np.float32 and b.shape == (2, 10000) and b.device == device
    assert abs(bn[0].mean() - 3) < 0.1 and (bn[0] == np.round(bn[0])).all() and bn[0].max() <= 10  # count floored
    assert (bn[1] == 10).all()
    for bad in ((np.float32(-1), np.float32(0.5)), (np.float32(np.nan), np.float32(0.5)),
                (np.float32(3), np.float32(1.5)), (np.float32(3), np.float32(np.nan))):
        with pytest.raises(silt.ArgumentError):
            silt.binomial(t(np.array([bad[0]]), device), t(np.array([bad[1]]), device))
    with pytest.raises(silt.DTypeError):
        silt.binomial(t(np.array([3.0]), device), t(np.array([0.5], np.float32), device))
    same(silt.bernoulli(t(np.array([0.0, 1.0], np.float32), device)), np.array([0.0, 1.0], np.float32))


def test_products_and_device_type(device):
    a = t(np.ones((2, 3), np.float32), device)
    v1, v2 = t(np.array([1.0, 2.0], np.float32), device), t(np.array([1.0, 0.0, 1.0], np.float32), device)
    same(a.addr(v1, v2, alpha=2), 1 + 2 * np.outer([1, 2], [1, 0, 1]).astype(np.float32))
    same(silt.ger(v1, v2), np.outer([1, 2], [1, 0, 1]).astype(np.float32))
    b1 = RNG_T.standard_normal((4, 2, 5)).astype(np.float32)
    b2 = RNG_T.standard_normal((4, 5, 3)).astype(np.float32)
    want = 0.5 + (b1.astype(np.float64) @ b2).sum(0)
    got = silt.addbmm(a, t(b1, device), t(b2, device), beta=0.5)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    assert device.type == ("cpu" if device.is_host else "opencl")


RNG_T = np.random.default_rng(3)


def test_a_0d_host_tensor_joins_another_devices_tensor(opencl, host):
    # PyTorch takes a 0-d CPU tensor beside a CUDA tensor; silt a 0-d host tensor beside an OpenCL one
    o = silt.tensor(np.arange(3, dtype=np.float32), device=opencl)
    h = silt.tensor(np.array(3.0, np.float32), device=host)
    for got, want in ((o + h, [3, 4, 5]), (h * o, [0, 3, 6]), (o.maximum(h), [3, 3, 3]), (o - h, [-3, -2, -1])):
        assert got.device == opencl
        np.testing.assert_array_equal(got.numpy(), np.array(want, np.float32))
    with pytest.raises(silt.ArgumentError, match="device"):
        o + silt.tensor(np.ones(3, np.float32), device=host)  # only 0-d tensors move


def test_numpy_names_of_dim_and_keepdim(device):
    """`axis=` for `dim=` and `keepdims=` for `keepdim=`, as PyTorch's
    functions and methods take them; both names at once is a TypeError."""
    x = t(A, device)
    same(x.sum(axis=1, keepdims=True), A.sum(1, keepdims=True))
    same(silt.sum(x, axis=0), A.sum(0))
    same(x.mean(axis=-1), A.mean(-1))
    same(x.amax(axis=(0, 2)), A.max((0, 2)))
    same(x.max(axis=1).values, A.max(1))
    same(x.cumsum(axis=2), A.cumsum(2))
    same(x.softmax(axis=0), np.exp(A - A.max(0)) / np.exp(A - A.max(0)).sum(0))
    same(silt.cat([x, x], axis=1), np.concatenate([A, A], 1))
    same(silt.var_mean(x, axis=2)[1], A.mean(2))
    with pytest.raises(TypeError):
        x.sum(axis=1, dim=0)
    with pytest.raises(TypeError):
        silt.cat([x, x], dim=0, axis=1)

"""torch.nn.functional's functions that torch has too (``silt.conv2d``):
the same functions where torch's signature is theirs, and torch's own
signatures (argument order, integer reductions, ``train``) mapped onto them."""

import numpy as np
import pytest

import silt
import silt.nn.functional as F
from silt import _nn_functions

RNG = np.random.default_rng(11)


def arr(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def test_the_same_functions_are_the_functional_ones():
    for name in _nn_functions.SAME:
        assert getattr(silt, name) is getattr(F, name), name
    for name in _nn_functions.NAMES:
        assert name in silt.__all__ and callable(getattr(silt, name)), name


def test_normalisations_take_torchs_argument_order(device):
    x = silt.tensor(arr(4, 3, 5), device=device)
    w, b = silt.tensor(arr(3), device=device), silt.tensor(arr(3), device=device)
    rm, rv = silt.tensor(arr(3), device=device), silt.tensor(np.abs(arr(3)) + 0.5, device=device)
    got = silt.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5, True)
    want = F.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    # in training the running statistics are updated, as F's
    rm2, rv2 = rm.clone(), rv.clone()
    silt.batch_norm(x, w, b, rm, rv, True, 0.3, 1e-5, True)
    F.batch_norm(x, rm2, rv2, w, b, True, 0.3, 1e-5)
    np.testing.assert_array_equal(rm.numpy(), rm2.numpy())
    np.testing.assert_array_equal(rv.numpy(), rv2.numpy())
    got = silt.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False)
    np.testing.assert_array_equal(got.numpy(), F.instance_norm(x, None, None, w, b, True, 0.1, 1e-5).numpy())
    got = silt.layer_norm(x, [5], None, None, 1e-3, True)
    np.testing.assert_array_equal(got.numpy(), F.layer_norm(x, [5], eps=1e-3).numpy())
    g = silt.tensor(arr(6, 4, 2), device=device)
    np.testing.assert_array_equal(silt.group_norm(g, 2, None, None, 1e-5, True).numpy(),
                                  F.group_norm(g, 2).numpy())


def test_embedding_takes_the_weight_first(device):
    weight = silt.tensor(arr(5, 3), device=device)
    idx = silt.tensor(np.array([[4, 0], [2, 2]], np.int64), device=device)
    got = silt.embedding(weight, idx)
    assert got.shape == (2, 2, 3)
    np.testing.assert_array_equal(got.numpy(), weight.numpy()[idx.numpy()])


def test_dropouts_take_train(device):
    x = silt.tensor(arr(8, 8), device=device)
    for fn in (silt.dropout, silt.alpha_dropout, silt.feature_alpha_dropout):
        assert fn(x, 0.5, False).tolist() == x.tolist()
    assert silt.dropout(x, 1.0, True).tolist() == np.zeros((8, 8)).tolist()
    y = x.clone()
    assert silt.dropout_(y, 0.0, True) is y and y.tolist() == x.tolist()
    z = x.clone()
    assert silt.alpha_dropout_(z, 0.5, False) is z


def test_losses_take_atens_integer_reductions(device):
    a, b = silt.tensor(arr(6), device=device), silt.tensor(arr(6), device=device)
    t = silt.tensor(np.array([1, -1, 1, 1, -1, -1], np.float32), device=device)
    for code, name in ((0, "none"), (1, "mean"), (2, "sum")):
        pairs = [
            (silt.margin_ranking_loss(a, b, t, 0.1, code), F.margin_ranking_loss(a, b, t, 0.1, reduction=name)),
            (silt.hinge_embedding_loss(a, t, 0.5, code), F.hinge_embedding_loss(a, t, 0.5, reduction=name)),
            (silt.kl_div(a, b.exp(), code), F.kl_div(a, b.exp(), reduction=name)),
            (silt.poisson_nll_loss(a, b.abs(), True, False, 1e-8, code),
             F.poisson_nll_loss(a, b.abs(), reduction=name)),
            (silt.binary_cross_entropy_with_logits(a, b.sigmoid(), None, None, code),
             F.binary_cross_entropy_with_logits(a, b.sigmoid(), reduction=name)),
        ]
        for got, want in pairs:
            np.testing.assert_array_equal(got.numpy(), want.numpy())
    m1, m2 = silt.tensor(arr(4, 3), device=device), silt.tensor(arr(4, 3), device=device)
    y = silt.tensor(np.array([1, -1, 1, -1], np.float32), device=device)
    np.testing.assert_array_equal(silt.cosine_embedding_loss(m1, m2, y, 0.2, 2).numpy(),
                                  F.cosine_embedding_loss(m1, m2, y, 0.2, reduction="sum").numpy())
    n = silt.tensor(arr(4, 3), device=device)
    np.testing.assert_array_equal(silt.triplet_margin_loss(m1, m2, n, 1.0, 2.0, 1e-6, True, 0).numpy(),
                                  F.triplet_margin_loss(m1, m2, n, swap=True, reduction="none").numpy())
    # the pos_weight before the reduction, as torch's order
    pw = silt.tensor(np.float32([2.0] * 6), device=device)
    np.testing.assert_array_equal(silt.binary_cross_entropy_with_logits(a, b.sigmoid(), None, pw, 2).numpy(),
                                  F.binary_cross_entropy_with_logits(a, b.sigmoid(), reduction="sum",
                                                                     pos_weight=pw).numpy())
    with pytest.raises(ValueError, match="reduction"):
        silt.kl_div(a, b, 3)


def test_the_other_adapted_functions(device):
    x = silt.tensor(arr(2, 3, 8), device=device)
    values, indices = silt.adaptive_max_pool1d(x, 3)
    want_v, want_i = F.adaptive_max_pool1d(x, 3, return_indices=True)
    assert values.tolist() == want_v.tolist() and indices.tolist() == want_i.tolist()
    assert silt.rrelu(x).tolist() == F.rrelu(x).tolist()
    y = x.clone()
    assert silt.rrelu_(y) is y and y.tolist() == F.rrelu(x).tolist()
    with pytest.raises(ValueError, match="generator"):
        silt.rrelu(x, generator=object())
    # the methods PyTorch has as well
    assert x.hardshrink(0.3).tolist() == F.hardshrink(x, 0.3).tolist()
    w = silt.tensor(np.float32([0.1, 0.2, 0.3]), device=device)
    assert x.prelu(w).tolist() == F.prelu(x, w).tolist()


def test_ctc_loss_takes_an_integer_reduction(device):
    lp = silt.tensor(arr(6, 2, 4), device=device).log_softmax(2)
    targets = silt.tensor(np.array([[1, 2], [3, 3]], np.int64), device=device)
    got = silt.ctc_loss(lp, targets, [6, 6], [2, 2], 0, 0, False)
    want = F.ctc_loss(lp, targets, [6, 6], [2, 2], 0, reduction="none")
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def test_atens_norm_forms_keep_their_statistics(device):
    x = arr(2, 3, 4)
    t = silt.tensor(x, device=device)
    out, mean, rstd = silt.native_layer_norm(t, [3, 4], None, None, 1e-5)
    assert out.tolist() == F.layer_norm(t, [3, 4]).tolist()
    assert mean.shape == (2, 1, 1) and rstd.shape == (2, 1, 1)
    np.testing.assert_allclose(mean.numpy(), x.mean((1, 2), keepdims=True), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd.numpy(), 1 / np.sqrt(x.var((1, 2), keepdims=True) + 1e-5), rtol=1e-5)
    with pytest.raises(ValueError):
        silt.native_layer_norm(t, [3], None, None, 1e-5)
    x4 = arr(2, 6, 4, 5)
    t4 = silt.tensor(x4, device=device)
    out, mean, rstd = silt.native_group_norm(t4, None, None, 2, 6, 20, 3, 1e-5)
    assert out.tolist() == F.group_norm(t4, 3).tolist()
    g = x4.reshape(2, 3, -1)
    np.testing.assert_allclose(mean.numpy(), g.mean(-1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd.numpy(), 1 / np.sqrt(g.var(-1) + 1e-5), rtol=1e-5)
    with pytest.raises(ValueError):
        silt.native_group_norm(t4, None, None, 2, 6, 21, 3, 1e-5)
    rm, rv = silt.zeros(6, device=device), silt.ones(6, device=device)
    out, mean, invstd = silt.native_batch_norm(t4, None, None, rm, rv, True, 0.1, 1e-5)
    assert out.tolist() == F.batch_norm(t4, None, None, training=True).tolist()
    np.testing.assert_allclose(mean.numpy(), x4.mean((0, 2, 3)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(invstd.numpy(), 1 / np.sqrt(x4.var((0, 2, 3)) + 1e-5), rtol=1e-5)
    np.testing.assert_allclose(rm.numpy(), 0.1 * x4.mean((0, 2, 3)), rtol=1e-5, atol=1e-7)  # updated in place
    out, mean, invstd = silt.native_batch_norm(t4, None, None, rm, rv, False, 0.1, 1e-5)
    assert mean.shape == (0,) and invstd.shape == (0,)
    assert out.tolist() == F.batch_norm(t4, rm, rv).tolist()
    np.testing.assert_allclose(silt.norm_except_dim(t, 2, 1).numpy(),
                               np.sqrt((x ** 2).sum((0, 2), keepdims=True)), rtol=1e-6)
    np.testing.assert_allclose(silt.norm_except_dim(t, 2, -1).numpy(), np.sqrt((x ** 2).sum()), rtol=1e-6)


def test_native_dropout(device):
    t = silt.ones(2000, device=device)
    out, mask = silt.native_dropout(t, 0.25, True)
    m = mask.numpy()
    assert mask.dtype == np.bool_ and 0.2 < 1 - m.mean() < 0.3
    np.testing.assert_allclose(out.numpy(), np.where(m, 1 / 0.75, 0.0), rtol=1e-6)
    out, mask = silt.native_dropout(t, 0.25, False)
    assert mask.numpy().all() and out.numpy().tolist() == [1.0] * 2000
    out, mask = silt.native_dropout(t, 1.0, None)  # None trains, as PyTorch's
    assert not mask.numpy().any() and not out.numpy().any()
    with pytest.raises(silt.ArgumentError):
        silt.native_dropout(t, 1.5, True)


@pytest.mark.parametrize("bias", [True, False])
def test_recurrent_cells(device, bias):
    x, h, c = arr(4, 3), arr(4, 2), arr(4, 2)

    def params(gates):
        p = [arr(2 * gates, 3), arr(2 * gates, 2), arr(2 * gates), arr(2 * gates)]
        return p if bias else p[:2] + [np.zeros(2 * gates, np.float32)] * 2

    def on(*a):
        return [silt.tensor(v, device=device) for v in a]

    def pre(p):
        return x @ p[0].T + p[2] + h @ p[1].T + p[3]

    def given(p):
        t = on(*p)
        return t if bias else t[:2] + [None, None]

    for name, fn in (("rnn_tanh_cell", np.tanh), ("rnn_relu_cell", lambda v: np.maximum(v, 0))):
        p = params(1)
        got = getattr(silt, name)(*on(x, h), *given(p))
        np.testing.assert_allclose(got.numpy(), fn(pre(p)), rtol=1e-5, atol=1e-6)
    p = params(4)
    i, f, g, o = np.split(pre(p), 4, -1)
    c2 = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    hy, cy = silt.lstm_cell(on(x)[0], tuple(on(h, c)), *given(p))
    np.testing.assert_allclose(cy.numpy(), c2, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hy.numpy(), sigmoid(o) * np.tanh(c2), rtol=1e-5, atol=1e-6)
    p = params(3)
    gi, gh = x @ p[0].T + p[2], h @ p[1].T + p[3]
    r = sigmoid(gi[:, :2] + gh[:, :2])
    z = sigmoid(gi[:, 2:4] + gh[:, 2:4])
    n = np.tanh(gi[:, 4:] + r * gh[:, 4:])
    got = silt.gru_cell(*on(x, h), *given(p))
    np.testing.assert_allclose(got.numpy(), (1 - z) * n + z * h, rtol=1e-5, atol=1e-6)
    with pytest.raises(silt.ArgumentError, match="2D"):
        silt.rnn_tanh_cell(*on(x[0], h[0]), *given(params(1)))


def test_pools_with_indices_and_constant_pad_nd(device):
    for nd in (1, 2, 3):
        x = silt.tensor(arr(1, 2, *(6,) * nd), device=device)
        for name, args in ((f"max_pool{nd}d", (2,)), (f"adaptive_max_pool{nd}d", (3,))):
            v, i = getattr(F, f"{name}_with_indices")(x, *args, return_indices=False)  # indices whatever it says
            want_v, want_i = getattr(F, name)(x, *args, return_indices=True)
            assert v.tolist() == want_v.tolist() and i.tolist() == want_i.tolist()
    x = silt.tensor(arr(1, 2, 8), device=device)
    v, i = silt.max_pool1d_with_indices(x, 2, [])  # PyTorch's empty stride is the kernel's
    want_v, want_i = F.max_pool1d(x, 2, return_indices=True)
    assert v.tolist() == want_v.tolist() and i.tolist() == want_i.tolist()
    x = silt.tensor(arr(1, 2, 8, 8), device=device)
    v, i = F.fractional_max_pool2d_with_indices(x, 2, output_size=4)
    assert v.shape == (1, 2, 4, 4) and i.dtype == np.int64
    got = silt.constant_pad_nd(silt.ones(2, 2, device=device), (1, -1), 5.0)
    assert got.tolist() == [[5.0, 1.0], [5.0, 1.0]]


def test_atens_convolution_grid_sampler_and_feature_dropout(device):
    def on(a):
        return silt.tensor(a, device=device)

    x, w, wt = arr(1, 2, 5, 5), arr(3, 2, 3, 3), arr(2, 3, 3, 3)
    got = silt.convolution(on(x), on(w), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    np.testing.assert_array_equal(got.numpy(), F.conv2d(on(x), on(w), padding=1).numpy())
    got = silt.convolution(on(x), on(wt), on(arr(3)[:3]), [2, 2], [1, 1], [1, 1], True, [1, 1], 1)
    assert got.shape == (1, 3, 10, 10)
    with pytest.raises(silt.ArgumentError, match="output_padding"):
        silt.convolution(on(x), on(w), None, [1, 1], [1, 1], [1, 1], False, [1, 1], 1)
    grid = on(RNG.uniform(-1.2, 1.2, (1, 3, 4, 2)).astype(np.float32))
    for mode, name in enumerate(("bilinear", "nearest", "bicubic")):
        for padding, pname in enumerate(("zeros", "border", "reflection")):
            got = silt.grid_sampler_2d(on(x), grid, mode, padding, True)
            want = F.grid_sample(on(x), grid, name, pname, True)
            np.testing.assert_array_equal(got.numpy(), want.numpy())
    with pytest.raises(silt.ArgumentError, match="interpolation_mode"):
        silt.grid_sampler(on(x), grid, 3, 0, False)
    with pytest.raises(silt.ArgumentError, match="5 dimensions"):
        silt.grid_sampler_3d(on(x), grid, 0, 0, False)
    theta = on(arr(2, 2, 3))
    np.testing.assert_array_equal(silt.affine_grid_generator(theta, [2, 1, 4, 5], False).numpy(),
                                  F.affine_grid(theta, [2, 1, 4, 5], False).numpy())
    # whole features dropped: each [N, C] slice is all kept (scaled by 2) or all zero
    got = silt.feature_dropout(silt.ones(6, 5, 4, device=device), 0.5, True).numpy()
    assert set(np.unique(got)) <= {0.0, 2.0} and (got.min(-1) == got.max(-1)).all()
    assert 0 < (got == 0).sum() < got.size
    y = silt.ones(4, 3, device=device)
    assert silt.feature_dropout_(y, 1.0, True) is y and y.tolist() == [[0.0] * 3] * 4
    assert silt.feature_dropout(silt.ones(4, 3, device=device), 0.5, False).tolist() == [[1.0] * 3] * 4
    with pytest.raises(silt.ArgumentError, match="2 dimensions"):
        silt.feature_dropout(silt.ones(3, device=device), 0.5, True)
    # embedding_renorm_: the rows looked up whose norm is above max_norm scaled in place
    weight = on(np.array([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]], np.float32))
    assert silt.embedding_renorm_(weight, on(np.array([0, 1, 0])), 1.0, 2.0) is weight
    np.testing.assert_allclose(weight.numpy(), [[0.6, 0.8], [0.3, 0.4], [6.0, 8.0]], rtol=1e-6)

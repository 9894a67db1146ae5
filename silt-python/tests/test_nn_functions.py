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

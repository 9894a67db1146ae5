"""Edges of silt.nn.functional's losses, softmax and attention where silt
parted from PyTorch: ignored targets holding NaN or infinities, terms left
out rather than multiplied by 0, weights broadcast to the input's shape,
out-of-range dimensions and targets, output shapes. Against NumPy
references written here from PyTorch's definitions (its loops), or values
from PyTorch pinned where noted; on the host backend and an OpenCL device."""

import math

import numpy as np
import pytest

import silt
import silt.nn.functional as F

RNG = np.random.default_rng(23)
NAN, INF = math.nan, math.inf


def t(a, device):
    return silt.tensor(np.asarray(a), device=device)


def floats(a, device):
    return silt.tensor(np.array(a, np.float32), device=device)


def ints(a, device):
    return silt.tensor(np.array(a, np.int64), device=device)


def check(got, want, tol=1e-5):
    want = np.asarray(want)
    assert isinstance(got, silt.Tensor)
    assert tuple(got.shape) == want.shape, (tuple(got.shape), want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def f32(*shape):
    return RNG.uniform(-2.0, 2.0, shape).astype(np.float32)


# ---- nll_loss, cross_entropy: ignored places count exactly 0 ---------------------

def ce_ref(x, target, weight=None, ignore_index=-100, label_smoothing=0.0, log_probs=False):
    """PyTorch's class-index cross entropy (`nll_loss` with `log_probs`) in
    float64, `x` `[N, C, *d]`: per place `(1 - ls) * -w[t] logp[t] + ls / C *
    -sum_c w[c] logp[c]`, an ignored place 0 whatever it holds (it is never
    read); returns the per-place losses and the mean's denominator (the
    kept places' `w[t]`)."""
    x = np.moveaxis(x.astype(np.float64), 1, -1)  # [N, *d, C]
    c = x.shape[-1]
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    loss = np.zeros(target.shape)
    denominator = 0.0
    for pos in np.ndindex(*target.shape):
        y = target[pos]
        if y == ignore_index:
            continue
        row = x[pos]
        logp = row if log_probs else row - (row.max() + np.log(np.exp(row - row.max()).sum()))
        loss[pos] = (1 - label_smoothing) * -w[y] * logp[y] - label_smoothing / c * (w * logp).sum()
        denominator += w[y]
    return loss, denominator


def reduce_ref(loss, denominator, reduction):
    return {"none": loss, "sum": loss.sum(), "mean": loss.sum() / denominator}[reduction]


def test_nll_loss_and_cross_entropy_give_ignored_places_0_whatever_they_hold(device):
    # the repros: an ignored row of NaN (nll_loss), of -inf (cross_entropy)
    check(F.nll_loss(floats([[0.5, 1.0], [NAN, 0.0]], device), ints([0, -100], device)), np.float32(-0.5))
    got = F.cross_entropy(floats([[0.5, 1], [-INF, 0]], device), ints([0, -100], device), reduction="none")
    check(got, np.float32([math.log1p(math.exp(0.5)), 0.0]))
    assert got.numpy()[1] == 0
    # a 1-d input with an ignored 0-d target
    check(F.nll_loss(floats([NAN, 0.0], device), ints(-100, device), reduction="none"), np.float32(0))
    # every reduction, weights, label smoothing, another ignore_index, a
    # K-dimensional input; the ignored places hold NaN, inf and -inf
    x = f32(4, 3, 2)
    target = np.array([[0, 2], [1, 1], [2, 0], [1, 2]], np.int64)
    ignored = np.array([[False, True], [True, False], [False, False], [True, True]])
    x = x.transpose(0, 2, 1).copy()
    x[ignored] = [[NAN, 0.0, 1.0], [INF, 0.0, -INF], [-INF, -INF, -INF], [NAN, INF, NAN]]
    x = x.transpose(0, 2, 1).copy()
    weight = np.float32([0.5, 2.0, 1.5])
    for ignore_index in (-100, 7):
        tg = np.where(ignored, ignore_index, target)
        for w in (None, weight):
            wt = None if w is None else t(w, device)
            for reduction in ("none", "sum", "mean"):
                loss, den = ce_ref(x, tg, w, ignore_index, log_probs=True)
                got = F.nll_loss(t(x, device), t(tg, device), wt, ignore_index=ignore_index, reduction=reduction)
                check(got, np.float32(reduce_ref(loss, den, reduction)))
                for ls in (0.0, 0.3):
                    loss, den = ce_ref(x, tg, w, ignore_index, ls)
                    got = F.cross_entropy(t(x, device), t(tg, device), wt, ignore_index=ignore_index,
                                          reduction=reduction, label_smoothing=ls)
                    check(got, np.float32(reduce_ref(loss, den, reduction)))
                    if reduction == "none":
                        assert (got.numpy()[ignored] == 0).all()


# ---- multilabel_margin_loss, multi_margin_loss: PyTorch's loops -------------------------

def multilabel_margin_ref(x, target):
    """PyTorch's loop: the targets up to the first -1; for each and each
    class not a target `z = 1 - x[j] + x[i]` (in the input's type), added
    where `z > 0`; the sum (float64) over the classes."""
    out = []
    for row, tg in zip(x, target):
        listed = []
        for v in tg:
            if v < 0:
                break
            listed.append(v)
        total = 0.0
        for j in listed:
            for i in range(len(row)):
                if i not in listed:
                    with np.errstate(all="ignore"):
                        z = np.float32(1) - row[j] + row[i]
                    if z > 0:
                        total += float(z)
        out.append(total / len(row))
    return np.float32(out)


def test_multilabel_margin_loss_leaves_out_the_terms_not_counted(device):
    x = floats([[0.3, INF, 0.5]], device)
    # from PyTorch 2.15: no targets 0; inf a non-target inf; inf a target 0
    for tg, want in (([[-1, 0, 0]], 0.0), ([[0, -1, 0]], INF), ([[1, -1, 0]], 0.0)):
        check(F.multilabel_margin_loss(x, ints(tg, device), reduction="none"), np.float32([want]))
    # float32 overflow: 1 - x[j] + x[i] is inf (or -inf) for pairs not counted
    big = floats([[0.3, 3e38, -3e38]], device)
    check(F.multilabel_margin_loss(big, ints([[-1, 0, 0]], device)), np.float32(0))
    check(F.multilabel_margin_loss(big, ints([[2, -1, 0]], device), reduction="none"), np.float32([INF]))
    # a NaN term is not added (`z > 0` fails), as in PyTorch's loop: 4.3 / 3
    check(F.multilabel_margin_loss(floats([[0.3, NAN, -3]], device), ints([[2, -1, 0]], device)), np.float32(4.3 / 3))
    # PyTorch's order of operations: (1 - 3e38) + 3e38 is 0, not counted
    check(F.multilabel_margin_loss(floats([[3e38, 3e38, 0]], device), ints([[0, -1, 0]], device)), np.float32(0))
    # random rows with non-finite entries, repeats, empty lists
    x = f32(6, 5)
    x[0, 1], x[1, 3], x[2, 0], x[3, 2] = INF, -INF, NAN, 3e38
    target = np.array([[1, 0, -1, 2, 2], [3, 3, -1, 0, 0], [2, -1, 0, 0, 0], [2, 4, -1, -1, 0],
                       [-1, 0, 0, 0, 0], [0, 1, 2, 3, 4]], np.int64)
    got = F.multilabel_margin_loss(t(x, device), t(target, device), reduction="none")
    check(got, multilabel_margin_ref(x, target))


def test_multilabel_margin_loss_rejects_targets_out_of_range(device):
    x = floats([[0.3, 1.0, -3.0]], device)
    # PyTorch: "argument #2 'target' is out of range", even after the first -1
    for tg in ([[0, -2, 1]], [[0, -1, 7]], [[3, -1, 0]], [[0, -1, -5]]):
        with pytest.raises(silt.ArgumentError, match="out of range"):
            F.multilabel_margin_loss(x, ints(tg, device))
    check(F.multilabel_margin_loss(x, ints([[0, -1, 2]], device), reduction="none"),
          multilabel_margin_ref(np.float32([[0.3, 1.0, -3.0]]), [[0, -1, 2]]))


def multi_margin_ref(x, target, p=1, margin=1.0, weight=None):
    """PyTorch's loop: for each class `i != y`, `z = margin - x[y] + x[i]`
    (the input's type), `z^p * weight[y]` added where `z > 0`; over C."""
    out = []
    for row, y in zip(x, target):
        total = 0.0
        for i in range(len(row)):
            if i == y:
                continue
            with np.errstate(all="ignore"):
                z = np.float32(margin) - row[y] + row[i]
            if z > 0:
                h = float(z) if p == 1 else float(z) * float(z)
                total += h * (1.0 if weight is None else float(weight[y]))
        out.append(total / len(row))
    with np.errstate(over="ignore"):  # a sum past float32's range is inf, as PyTorch's cast
        return np.float32(out)


def test_multi_margin_loss_has_the_targets_shape(device):
    x = floats([0.1, 0.5, 0.3], device)
    want = multi_margin_ref(np.float32([[0.1, 0.5, 0.3]]), [1])  # 0.4667 (PyTorch 2.15)
    # PyTorch: the losses take the target's shape, a 1-d or a 2-d input
    check(F.multi_margin_loss(x, ints([1], device), reduction="none"), want)
    check(F.multi_margin_loss(x, ints(1, device), reduction="none"), want.reshape(()))
    check(F.multi_margin_loss(x.unsqueeze(0), ints(1, device), reduction="none"), want.reshape(()))
    check(F.multi_margin_loss(x.unsqueeze(0), ints([1], device), reduction="none"), want)
    check(F.multi_margin_loss(x, ints([1], device)), want.reshape(()))
    with pytest.raises(silt.ArgumentError):
        F.multi_margin_loss(x, ints([[1]], device), reduction="none")


def test_multi_margin_loss_leaves_out_the_terms_not_counted(device):
    x = f32(6, 4)
    x[0, 1], x[1, 2], x[2, 0], x[3, 3], x[4, 0] = NAN, NAN, INF, -INF, 3e38
    target = np.array([1, 0, 1, 2, 3, 2], np.int64)  # a NaN target's row counts 0
    weight = np.float32([0.5, INF, 2.0, 1.0])  # a weight inf where nothing counts
    x[5] = [0.0, 5.0, 9.0, 1.0]
    target[5] = 2
    for p in (1, 2):
        for w in (None, weight):
            wt = None if w is None else t(w, device)
            got = F.multi_margin_loss(t(x, device), t(target, device), p=p, weight=wt, reduction="none")
            check(got, multi_margin_ref(x, target, p, weight=w))


# ---- binary_cross_entropy: weights broadcast to the input's shape ---------------------

def test_binary_cross_entropy_weights_broadcast_to_the_inputs_shape(device):
    x, y = np.full((2, 3), 0.4, np.float32), np.float32([[1, 0, 1], [0, 1, 1]])
    xt, yt = t(x, device), t(y, device)
    for shape in ((4, 2, 3), (1, 2, 3), (2, 2)):
        w = t(np.ones(shape, np.float32), device)
        with pytest.raises(silt.ArgumentError, match="weight"):
            F.binary_cross_entropy(xt, yt, weight=w, reduction="none")
        with pytest.raises(silt.ArgumentError, match="weight"):
            F.binary_cross_entropy_with_logits(xt, yt, weight=w, reduction="none")
        with pytest.raises(silt.ArgumentError, match="pos_weight"):
            F.binary_cross_entropy_with_logits(xt, yt, pos_weight=w, reduction="none")
    # a 0-d input takes no (1,) weight
    one = t(np.ones(1, np.float32), device)
    with pytest.raises(silt.ArgumentError):
        F.binary_cross_entropy_with_logits(floats(0.4, device), floats(1.0, device), pos_weight=one, reduction="none")
    with pytest.raises(silt.ArgumentError):
        F.binary_cross_entropy_with_logits(floats(0.4, device), floats(1.0, device), weight=one, reduction="none")
    with pytest.raises(silt.ArgumentError):
        F.binary_cross_entropy(floats(0.4, device), floats(1.0, device), weight=one, reduction="none")
    # weights that broadcast to the input's shape still work
    bce = -(y * np.log(x) + (1 - y) * np.log1p(-x))
    for shape in ((3,), (2, 1), ()):
        w = RNG.uniform(0.5, 2, shape).astype(np.float32)
        check(F.binary_cross_entropy(xt, yt, weight=t(w, device), reduction="none"), (bce * w).astype(np.float32))
        sp = np.log1p(np.exp(-x))  # log(1 + exp(-x))
        want = (1 - y) * x + ((w - 1) * y + 1) * sp
        got = F.binary_cross_entropy_with_logits(xt, yt, pos_weight=t(w, device), reduction="none")
        check(got, want.astype(np.float32))
    check(F.binary_cross_entropy(floats(0.4, device), floats(1.0, device), weight=floats(2.0, device), reduction="none"),
          np.float32(-2 * math.log(0.4)))


# ---- softmax of a 0-d tensor --------------------------------------------------------------

def test_softmax_family_of_a_0d_tensor_checks_dim(device):
    x = floats(2.0, device)
    for fn, want in ((F.softmax, 1.0), (F.log_softmax, 0.0), (F.softmin, 1.0)):
        for dim in (0, -1, None):
            check(fn(x, dim=dim), np.float32(want))
        # PyTorch: IndexError "Dimension out of range (expected to be in range of [-1, 0] ...)"
        for dim in (1, -2, 5):
            with pytest.raises(silt.AxisError):
                fn(x, dim=dim)
            with pytest.raises(IndexError):
                fn(x, dim=dim)


# ---- ctc_loss: concatenated targets of sum(target_lengths) ----------------------------------

def test_ctc_loss_concatenated_targets_must_hold_the_lengths_sum(device):
    lp = np.log(np.full((5, 2, 4), 0.25, np.float32))
    lengths = [5, 5]
    # PyTorch: "Expected tensor to have size 4 at dimension 0, but got size 3 ..."
    for targets in ([1, 2, 3], [1, 2, 3, 1, 2], []):
        with pytest.raises(silt.ArgumentError, match="sum"):
            F.ctc_loss(t(lp, device), ints(targets, device), lengths, [2, 2])
    flat = F.ctc_loss(t(lp, device), ints([1, 2, 3, 1], device), lengths, [2, 2], reduction="none")
    padded = F.ctc_loss(t(lp, device), ints([[1, 2, 0], [3, 1, 0]], device), lengths, [2, 2], reduction="none")
    np.testing.assert_array_equal(flat.numpy(), padded.numpy())
    assert np.isfinite(flat.numpy()).all()


# ---- multi_head_attention_forward: keys all masked --------------------------------------------

def mha_safe_ref(q, k, v, heads, w_in, b_in, w_out, b_out, attn_mask=None, kpm=None):
    """`nn.MultiheadAttention`'s forward without weights, in float64
    (batch-second inputs, bool masks leaving out where True): PyTorch's
    scaled_dot_product_attention, where a query whose keys are all left out
    attends to nothing (weights 0)."""
    L, N, E = q.shape
    d = E // heads
    w3, b3 = np.split(w_in.astype(np.float64), 3), np.split(b_in.astype(np.float64), 3)
    out = np.zeros((L, N, E))
    for n in range(N):
        Q, K, V = (a[:, n] @ w.T + b for a, w, b in zip((q, k, v), w3, b3))
        cat = np.zeros((L, E))
        for h in range(heads):
            sl = slice(h * d, (h + 1) * d)
            s = Q[:, sl] @ K[:, sl].T / math.sqrt(d)
            left_out = np.zeros(s.shape, bool)
            if attn_mask is not None:
                left_out |= attn_mask
            if kpm is not None:
                left_out |= kpm[n][None, :]
            e = np.where(left_out, 0.0, np.exp(s - s.max(-1, keepdims=True)))
            total = e.sum(-1, keepdims=True)
            cat[:, sl] = np.divide(e, total, out=np.zeros_like(e), where=total > 0) @ V[:, sl]
        out[:, n] = cat @ w_out.T + b_out
    return out


def test_multi_head_attention_forward_with_every_key_masked(device):
    L, S, N, E, H = 3, 5, 2, 4, 2
    q, k, v = f32(L, N, E), f32(S, N, E), f32(S, N, E)
    w_in, b_in, w_out, b_out = f32(3 * E, E), f32(3 * E), f32(E, E), f32(E)
    kpm = np.zeros((N, S), bool)
    kpm[1] = True  # every key of the second batch element
    mask = np.zeros((L, S), bool)
    mask[1] = True  # every key of the second query

    def run(need_weights, qq=q, kk=k, vv=v, **masks):
        return F.multi_head_attention_forward(
            t(qq, device), t(kk, device), t(vv, device), E, H, t(w_in, device), t(b_in, device), None, None,
            False, 0.0, t(w_out, device), t(b_out, device), training=False, need_weights=need_weights,
            **{name: t(m, device) for name, m in masks.items()})

    for masks in ({"key_padding_mask": kpm}, {"attn_mask": mask},
                  {"key_padding_mask": np.where(kpm, -np.inf, 0).astype(np.float32)}):
        bool_masks = {name: m if m.dtype == bool else m == -np.inf for name, m in masks.items()}
        out, none = run(False, **masks)
        assert none is None
        want = mha_safe_ref(q, k, v, H, w_in, b_in, w_out, b_out, bool_masks.get("attn_mask"),
                            bool_masks.get("key_padding_mask"))
        check(out, want.astype(np.float32), 1e-4)
        # with the weights PyTorch's softmax gives NaN there
        out, w = run(True, **masks)
        assert np.isnan(out.numpy()).any() and np.isnan(w.numpy()).any()
    # the masked element's output is out_proj's bias
    out, _ = run(False, key_padding_mask=kpm)
    check(out[:, 1], np.broadcast_to(b_out, (L, E)), 1e-6)
    # unbatched, all keys masked
    out, _ = run(False, q[:, 0], k[:, 0], v[:, 0], key_padding_mask=np.ones(S, bool))
    check(out, np.broadcast_to(b_out, (L, E)), 1e-6)

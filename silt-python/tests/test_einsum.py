"""silt.einsum against NumPy's, on the host backend and an OpenCL device."""

import numpy as np
import pytest

import silt

RNG = np.random.default_rng(11)


def r(*shape, dtype=np.float32):
    if np.dtype(dtype).kind == "i":
        return RNG.integers(-5, 5, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


CASES = [
    ("ij,jk->ik", r(3, 4), r(4, 5)),
    ("ij,jk", r(3, 4), r(4, 5)),                      # implicit output: labels seen once, sorted
    ("ij,kj", r(2, 3), r(4, 3)),
    ("bij,bjk->bik", r(2, 3, 4), r(2, 4, 5)),
    ("bhqd,bhkd->bhqk", r(2, 3, 4, 5), r(2, 3, 6, 5)),  # attention scores
    ("ii->i", r(4, 4)),
    ("ii", r(4, 4)),                                  # the trace
    ("iij->j", r(3, 3, 2)),
    ("ij->ji", r(3, 4)),
    ("ijk->kji", r(2, 3, 4)),
    ("ij->", r(3, 4)),
    ("i,i->", r(5), r(5)),
    ("i,j->ij", r(3), r(4)),
    ("i,i,i->i", r(4), r(4), r(4)),
    ("ij,jk,kl->il", r(2, 3), r(3, 4), r(4, 5)),
    ("ij,ij,ij->", r(2, 3), r(2, 3), r(2, 3)),
    ("ijk,ikj->i", r(2, 3, 4), r(2, 4, 3)),
    ("...ij->...ji", r(2, 3, 4)),
    ("...ij,...jk->...ik", r(2, 3, 4), r(4, 5)),       # ellipses broadcast
    ("...,...->...", r(3, 1), r(4)),
    ("ij,j->i", r(3, 1), r(5)),                        # a size of 1 broadcasts
    ("Ab,bC->AC", r(2, 3), r(3, 2)),
    ("ij,jk->ik", r(3, 0), r(0, 5)),                   # an empty sum is 0
    ("ab,ab->a", r(3, 4, dtype=np.int32), r(3, 4, dtype=np.int32)),
    ("ij,jk->ik", r(3, 4, dtype=np.float64), r(4, 2, dtype=np.float64)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_einsum_matches_numpy(device, case):
    eq, *ops = CASES[case]
    want = np.einsum(eq, *[o.astype(np.float64) if o.dtype.kind == "f" else o for o in ops])
    got = silt.einsum(eq, *[silt.tensor(o, device=device) for o in ops])
    assert got.device == device
    assert got.shape == want.shape and got.dtype == ops[0].dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


def test_einsum_as_matmul_gives_matmuls_bits(device):
    a, b = (silt.tensor(x, device=device) for x in (r(16, 33), r(33, 7)))
    assert (silt.einsum("ij,jk->ik", a, b) == a @ b).all().item()
    assert (silt.einsum("ij,kj->ik", [a, b.T]) == a @ b).all().item()  # a list of operands


def test_einsum_views_and_errors(device):
    t = silt.tensor(r(3, 3), device=device)
    assert silt.einsum("ij->ji", t).shares_storage(t)  # a view, as PyTorch's
    assert silt.einsum("ii->i", t).shares_storage(t)
    for eq, ops in (("ij,jk->ik", (r(3, 4), r(5, 5))), ("ij->k", (r(2, 2),)), ("ij", (r(2, 2, 2),)),
                    ("i,j", (r(2),)), ("ij->ii", (r(2, 2),)), ("i$->i", (r(2, 2),)),
                    ("ij->i->j", (r(2, 2),)), ("ii->i", (r(2, 3),))):
        with pytest.raises(silt.ArgumentError):
            silt.einsum(eq, *[silt.tensor(o, device=device) for o in ops])
    with pytest.raises(silt.DTypeError):
        silt.einsum("i,i", silt.tensor(r(2), device=device), silt.tensor(r(2, dtype=np.int32), device=device))
    with pytest.raises(TypeError):
        silt.einsum("i,i", r(2), r(2))  # NumPy arrays alone: use np.einsum

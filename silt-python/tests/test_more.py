"""The functions and methods of `silt._more`: the in-place functions of
`torch`, the methods `corrcoef`, `cov`, `diagflat`, `histogram` and
`unique_consecutive`, the in-place matrix products, the random fills
`geometric_`, `cauchy_` and `log_normal_`, `matrix_power`, `chain_matmul`,
`gradient`, `can_cast`, `promote_types`, `scalar_tensor`, `fill`,
`frobenius_norm` and the complex-number queries of real tensors, against
NumPy and PyTorch's values (recorded here: the tests run without PyTorch),
on the host backend and an OpenCL device."""

import math

import numpy as np
import pytest

import silt
from silt import _more

RNG = np.random.default_rng(23)


def on(device, a, dtype=None):
    """A tensor of a copy of `a` (on the host, `silt.tensor` shares an array's memory)."""
    return silt.tensor(np.array(a, dtype=dtype), device=device)


# ---- the in-place functions of torch -----------------------------------------

# arguments of the in-place functions that take more than the tensor
IN_PLACE_ARGS = {
    "clamp_": (0.2, 0.6), "clip_": (0.2, 0.6), "clamp_min_": (0.3,), "clamp_max_": (0.3,), "fill_": (2.0,),
    "ldexp_": (2.0,), "xlogy_": (2.0,), "index_put_": (), "gcd_": (), "lcm_": (), "addmv_": (),
}


def test_in_place_functions_exist_and_return_their_input(device):
    assert len(_more.IN_PLACE) == 60
    for name in _more.IN_PLACE:
        fn = getattr(silt, name)
        assert name in silt.__all__ and fn.__name__ == name and fn.__doc__, name
        if name in ("gcd_", "lcm_"):
            t, args = on(device, [4, 6, 9], np.int32), (on(device, [6, 4, 3], np.int32),)
        elif name == "index_put_":
            t, args = on(device, [0.5, 0.5], np.float32), ((on(device, [1]),), on(device, 3.0, np.float32))
        elif name == "addmv_":
            t = on(device, [0.5, 0.5], np.float32)
            args = (silt.ones(2, 3, device=device), silt.ones(3, device=device))
        else:
            t, args = on(device, [0.25, 0.5], np.float32), IN_PLACE_ARGS.get(name, ())
        assert fn(t, *args) is t, name
    assert not hasattr(silt, "addmm_")  # PyTorch has it as a method only


def test_in_place_functions_write_the_tensor(device):
    a = np.array([[-1.5, 0.25], [2.0, np.nan]], np.float32)
    t = on(device, a)
    silt.nan_to_num_(t, nan=7.0)
    silt.exp_(t)
    np.testing.assert_allclose(t.numpy(), np.exp(np.nan_to_num(a, nan=7.0)), rtol=1e-6)
    silt.clamp_(t, min=1.0, max=2.0)
    np.testing.assert_allclose(t.numpy(), np.clip(np.exp(np.nan_to_num(a, nan=7.0)), 1, 2), rtol=1e-6)
    assert silt.zero_(t).tolist() == [[0, 0], [0, 0]]
    assert silt.fill_(t, 3).tolist() == [[3, 3], [3, 3]]
    silt.index_put_(t, (on(device, [0, 1]), on(device, [1, 0])), on(device, 5.0, np.float32), accumulate=True)
    assert t.tolist() == [[3, 8], [8, 3]]
    g = on(device, [12, 18, 7], np.int64)
    assert silt.gcd_(g, on(device, [8, 12, 21], np.int64)).tolist() == [4, 6, 7]
    # as the methods: an integer tensor does not take a float result, a non-tensor is refused
    with pytest.raises(silt.DTypeError):
        silt.sqrt_(on(device, [4, 9], np.int32))
    with pytest.raises(TypeError):
        silt.exp_([1.0, 2.0])


# ---- methods of silt's functions --------------------------------------------

def test_methods_of_functions(device):
    a = RNG.standard_normal((3, 7))
    t = on(device, a)
    np.testing.assert_allclose(t.cov().numpy(), np.cov(a), rtol=1e-10)
    np.testing.assert_allclose(t.cov(correction=0).numpy(), np.cov(a, ddof=0), rtol=1e-10)
    fw = np.array([1, 2, 1, 3, 1, 1, 2])
    np.testing.assert_allclose(t.cov(fweights=on(device, fw)).numpy(), np.cov(a, fweights=fw), rtol=1e-10)
    np.testing.assert_allclose(t.corrcoef().numpy(), np.corrcoef(a), rtol=1e-10, atol=1e-12)
    v = on(device, [1, 2, 3], np.int32)
    assert v.diagflat().tolist() == np.diagflat([1, 2, 3]).tolist()
    assert v.diagflat(-1).tolist() == np.diagflat([1, 2, 3], -1).tolist()
    x = RNG.standard_normal(200).astype(np.float32)
    hist, edges = on(device, x).histogram(6, range=(-2.0, 2.0))
    want, want_edges = np.histogram(x, 6, range=(-2.0, 2.0))
    assert hist.tolist() == want.tolist()
    np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-6)
    values, inverse, counts = on(device, [1, 1, 2, 2, 2, 3, 1, 1], np.int64).unique_consecutive(True, True)
    assert values.tolist() == [1, 2, 3, 1]
    assert inverse.tolist() == [0, 0, 1, 1, 1, 2, 3, 3]
    assert counts.tolist() == [2, 3, 1, 2]
    assert on(device, [5, 5, 4]).unique_consecutive().tolist() == [5, 4]


# ---- in-place matrix products -----------------------------------------------

PRODUCTS = {
    "addmm": ((2, 3), (2, 4), (4, 3), lambda m1, m2: m1 @ m2),
    "addmv": ((2,), (2, 4), (4,), lambda m, v: m @ v),
    "addr": ((2, 3), (2,), (3,), np.outer),
    "addbmm": ((2, 3), (5, 2, 4), (5, 4, 3), lambda b1, b2: (b1 @ b2).sum(0)),
    "baddbmm": ((5, 2, 3), (5, 2, 4), (5, 4, 3), lambda b1, b2: b1 @ b2),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_in_place_products(device, name):
    shape, sa, sb, ref = PRODUCTS[name]
    s, a, b = (RNG.standard_normal(k) for k in (shape, sa, sb))
    t = on(device, s)
    assert getattr(t, f"{name}_")(on(device, a), on(device, b), beta=0.5, alpha=-2) is t
    np.testing.assert_allclose(t.numpy(), 0.5 * s - 2 * ref(a, b), rtol=1e-10, atol=1e-12)
    # integers, and a strided view of a larger tensor written in place
    si, ai, bi = (RNG.integers(-5, 5, k) for k in (shape, sa, sb))
    big = on(device, np.zeros((2,) + shape, np.int64))
    big[1] = on(device, si)
    view = big[1]
    getattr(view, f"{name}_")(on(device, ai), on(device, bi), alpha=3)
    assert big.numpy()[1].tolist() == (si + 3 * ref(ai, bi)).tolist()
    assert not big.numpy()[0].any()


def test_in_place_products_refuse_another_shape_or_dtype(device):
    t = silt.zeros(1, 3, device=device)
    with pytest.raises(silt.ArgumentError):
        t.addmm_(silt.ones(2, 4, device=device), silt.ones(4, 3, device=device))  # broadcast to (2, 3)
    assert t.tolist() == [[0, 0, 0]]
    with pytest.raises(silt.ArgumentError):
        silt.zeros(2, 2, device=device).baddbmm_(silt.ones(3, 2, 4, device=device),
                                                 silt.ones(3, 4, 2, device=device))
    with pytest.raises(silt.DTypeError):
        on(device, np.zeros((2, 3))).addmm_(silt.ones(2, 4, device=device), silt.ones(4, 3, device=device))
    assert silt.addmv_(silt.zeros(2, device=device), silt.ones(2, 3, device=device),
                       silt.ones(3, device=device), beta=0, alpha=2).tolist() == [6, 6]


# ---- random fills -----------------------------------------------------------

N = 100_000


def test_geometric(device):
    silt.manual_seed(5)
    t = silt.zeros(N, device=device)
    assert t.geometric_(0.2) is t
    x = t.numpy()
    assert t.dtype == np.float32 and x.min() == 1 and np.all(x == np.round(x))
    assert abs(x.mean() - 5) < 0.1  # 1/p, the standard error 0.014
    assert abs((x == 1).mean() - 0.2) < 0.01 and abs((x == 2).mean() - 0.16) < 0.01
    silt.manual_seed(5)
    assert np.array_equal(silt.zeros(N, device=device).geometric_(0.2).numpy(), x)
    i = silt.zeros(N, dtype=np.int32, device=device).geometric_(0.5)
    assert i.dtype == np.int32 and i.numpy().min() == 1 and abs(i.numpy().mean() - 2) < 0.05
    # a count past int8's range saturates
    assert silt.zeros(1000, dtype=np.int8, device=device).geometric_(1e-4).numpy().max() == 127
    for p in (0, 1, 1.5, -0.1, math.nan):
        with pytest.raises(silt.ArgumentError):
            t.geometric_(p)
    with pytest.raises(silt.DTypeError):
        silt.zeros(3, dtype=np.bool_, device=device).geometric_(0.5)


def test_cauchy_and_log_normal(device):
    silt.manual_seed(9)
    t = silt.zeros(N, device=device)
    assert t.cauchy_(2.0, 3.0) is t
    x = t.numpy()
    q1, q2, q3 = np.quantile(x, [0.25, 0.5, 0.75])
    assert abs(q2 - 2) < 0.1 and abs(q1 + 1) < 0.15 and abs(q3 - 5) < 0.15  # median -/+ sigma
    silt.manual_seed(9)
    assert np.array_equal(silt.zeros(N, device=device).cauchy_(2.0, 3.0).numpy(), x)
    d = silt.zeros(N, dtype=np.float64, device=device).cauchy_()
    assert abs(np.median(d.numpy())) < 0.05 and abs(np.quantile(d.numpy(), 0.75) - 1) < 0.05

    silt.manual_seed(4)
    y = silt.zeros(N, dtype=np.float64, device=device).log_normal_(0.5, 0.25).numpy()
    assert y.min() > 0
    assert abs(np.log(y).mean() - 0.5) < 0.01 and abs(np.log(y).std() - 0.25) < 0.01
    assert abs(np.median(y) - math.exp(0.5)) < 0.02
    assert abs(y.mean() - math.exp(0.5 + 0.25 ** 2 / 2)) < 0.02
    silt.manual_seed(4)
    assert np.array_equal(silt.zeros(N, dtype=np.float64, device=device).log_normal_(0.5, 0.25).numpy(), y)
    z = silt.zeros(N, device=device).log_normal_()  # mean 1, std 2
    assert abs(np.median(np.log(z.numpy())) - 1) < 0.05

    for sigma in (0, -1):
        with pytest.raises(silt.ArgumentError):
            t.cauchy_(0, sigma)
        with pytest.raises(silt.ArgumentError):
            t.log_normal_(1, sigma)
    with pytest.raises(silt.DTypeError):
        silt.zeros(3, dtype=np.int32, device=device).cauchy_()
    with pytest.raises(silt.DTypeError):
        silt.zeros(3, dtype=np.int32, device=device).log_normal_()
    with pytest.raises(TypeError):
        t.cauchy_(generator=object())


# ---- matrix_power, chain_matmul -----------------------------------------------

def test_matrix_power(device):
    a = RNG.integers(-3, 4, (2, 3, 3, 3))
    t = on(device, a)
    for n in range(8):
        r = t.matrix_power(n)
        assert r.dtype == np.int64 and r.shape == (2, 3, 3, 3)
        assert r.tolist() == np.linalg.matrix_power(a, n).tolist(), n
    f = RNG.standard_normal((4, 4))
    np.testing.assert_allclose(silt.matrix_power(on(device, f), 13).numpy(), np.linalg.matrix_power(f, 13),
                               rtol=1e-9)
    one = on(device, f).matrix_power(1)
    assert one.tolist() == f.tolist() and not one.shares_storage(on(device, f))
    u = on(device, np.full((2, 2, 2), 7, np.uint8)).matrix_power(0)
    assert u.dtype == np.uint8 and u.tolist() == [[[1, 0], [0, 1]]] * 2
    assert silt.zeros(3, 0, 0, device=device).matrix_power(0).shape == (3, 0, 0)
    # a negative power inverts first, as PyTorch's: floats only (silt.linalg.inv; test_linalg.py has more)
    np.testing.assert_allclose(silt.matrix_power(on(device, f), -3).numpy(), np.linalg.matrix_power(f, -3),
                               rtol=1e-9)
    with pytest.raises(silt.DTypeError):
        t.matrix_power(-1)
    with pytest.raises(silt.ArgumentError):
        silt.ones(2, 3, device=device).matrix_power(2)
    with pytest.raises(silt.ArgumentError):
        silt.ones(3, device=device).matrix_power(2)
    with pytest.raises(TypeError):
        t.matrix_power(2.0)


def test_chain_matmul(device):
    shapes = [(3, 10), (10, 2), (2, 8), (8, 1), (1, 5)]
    ms = [RNG.standard_normal(s) for s in shapes]
    np.testing.assert_allclose(silt.chain_matmul(*(on(device, m) for m in ms)).numpy(), np.linalg.multi_dot(ms),
                               rtol=1e-10)
    np.testing.assert_allclose(silt.chain_matmul(on(device, ms[0]), on(device, ms[1])).numpy(), ms[0] @ ms[1],
                               rtol=1e-12)
    m = on(device, ms[0])
    c = silt.chain_matmul(m)
    assert c.tolist() == ms[0].tolist() and not c.shares_storage(m)
    with pytest.raises(silt.ArgumentError):
        silt.chain_matmul()
    with pytest.raises(silt.ArgumentError):
        silt.chain_matmul(m, silt.ones(10, device=device))
    with pytest.raises(silt.ArgumentError):
        silt.chain_matmul(m, on(device, ms[2]))
    with pytest.raises(silt.DTypeError):
        silt.chain_matmul(m, silt.ones(10, 2, device=device))  # float64 with float32


# ---- gradient ---------------------------------------------------------------

def test_gradient_against_numpy(device):
    f = RNG.standard_normal((5, 6, 7))
    t = on(device, f)
    for edge_order in (1, 2):
        got = silt.gradient(t, edge_order=edge_order)
        assert isinstance(got, tuple) and len(got) == 3
        for g, w in zip(got, np.gradient(f, edge_order=edge_order)):
            assert g.dtype == np.float64 and g.device == device
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-12, atol=1e-12)
        # a scalar step, per-dimension steps, a subset of dimensions
        for g, w in zip(silt.gradient(t, spacing=0.5, dim=(2, 0), edge_order=edge_order),
                        np.gradient(f, 0.5, axis=(2, 0), edge_order=edge_order)):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-12, atol=1e-12)
        for g, w in zip(silt.gradient(t, spacing=[2.0, 0.25], dim=[-1, 1], edge_order=edge_order),
                        np.gradient(f, 2.0, 0.25, axis=(-1, 1), edge_order=edge_order)):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-12, atol=1e-12)
        (g,) = silt.gradient(t, spacing=(3.0,), dim=1, edge_order=edge_order)
        np.testing.assert_allclose(g.numpy(), np.gradient(f, 3.0, axis=1, edge_order=edge_order), rtol=1e-12)


def test_gradient_of_uneven_coordinates(device):
    f = RNG.standard_normal((4, 9))
    x0 = np.array([0.0, 0.5, 2.0, 2.25])
    x1 = np.cumsum(RNG.uniform(0.1, 2.0, 9))
    t = on(device, f)
    for edge_order in (1, 2):
        got = silt.gradient(t, spacing=[on(device, x0), on(device, x1)], edge_order=edge_order)
        for g, w in zip(got, np.gradient(f, x0, x1, edge_order=edge_order)):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-10, atol=1e-12)
        (g,) = silt.gradient(t, spacing=[on(device, x1)], dim=1, edge_order=edge_order)
        np.testing.assert_allclose(g.numpy(), np.gradient(f, x1, axis=1, edge_order=edge_order), rtol=1e-10)
    # y = x^2 at uneven points: the second-order differences are exact (2x)
    x = np.array([0.0, 1.0, 3.0, 4.0, 7.0])
    (g,) = silt.gradient(on(device, x ** 2), spacing=[on(device, x)], edge_order=2)
    np.testing.assert_allclose(g.numpy(), 2 * x, atol=1e-12)
    # PyTorch 2.15's values for [1, 4, 9, 16, 25] at these points (edge_order=1)
    (g,) = silt.gradient(on(device, [1.0, 4, 9, 16, 25], np.float32), spacing=[on(device, x, np.float32)])
    np.testing.assert_allclose(g.numpy(), [3.0, 2.8333333, 5.5, 6.0, 3.0], rtol=1e-6)


def test_gradient_dtypes_and_errors(device):
    (g,) = silt.gradient(on(device, [0, 1, 4, 9, 16], np.int32))
    assert g.dtype == np.float32 and g.tolist() == [1, 2, 4, 6, 7]
    (g,) = silt.gradient(on(device, [0, 1, 4, 9, 16], np.float16), spacing=2)
    assert g.dtype == np.float16 and g.tolist() == [0.5, 1, 2, 3, 3.5]
    (g,) = silt.gradient(on(device, [0, 1, 4], np.float32), spacing=[on(device, [0.0, 1.0, 2.0])])
    assert g.dtype == np.float64  # promoted with the coordinates'
    assert silt.gradient(on(device, 3.0)) == ()
    (g,) = silt.gradient(on(device, [1.0, 3.0]))
    assert g.tolist() == [2.0, 2.0]
    t = on(device, np.zeros((3, 4)))
    for kwargs in (dict(edge_order=3), dict(edge_order=0), dict(spacing=[1.0]), dict(dim=1, spacing=[1.0, 2.0]),
                   dict(dim=(0, 0)), dict(spacing=[on(device, [0.0, 1, 2]), on(device, [0.0, 1, 2])])):
        with pytest.raises(silt.ArgumentError):
            silt.gradient(t, **kwargs)
    with pytest.raises(silt.ArgumentError):
        silt.gradient(on(device, [1.0, 2.0]), edge_order=2)  # two points, edge_order=2 needs three
    with pytest.raises(silt.ArgumentError):
        silt.gradient(on(device, [1.0]))
    with pytest.raises(IndexError):
        silt.gradient(t, dim=2)
    with pytest.raises(TypeError):
        silt.gradient(t, spacing=[on(device, [0.0, 1, 2]), 2.0])
    with pytest.raises(silt.DTypeError):
        silt.gradient(on(device, [True, False, True]))


# ---- dtypes, scalars, fills, norms ------------------------------------------

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64"]
# PyTorch 2.15's torch.promote_types of the dtypes above (None: PyTorch refuses the pair)
TORCH_PROMOTE = {
    "bool": "bool int8 int16 int32 int64 uint8 - - - float16 float32 float64",
    "int8": "int8 int8 int16 int32 int64 int16 - - - float16 float32 float64",
    "int16": "int16 int16 int16 int32 int64 int16 - - - float16 float32 float64",
    "int32": "int32 int32 int32 int32 int64 int32 - - - float16 float32 float64",
    "int64": "int64 int64 int64 int64 int64 int64 - - - float16 float32 float64",
    "uint8": "uint8 int16 int16 int32 int64 uint8 - - - float16 float32 float64",
    "uint16": "- - - - - - uint16 - - float16 float32 float64",
    "uint32": "- - - - - - - uint32 - float16 float32 float64",
    "uint64": "- - - - - - - - uint64 float16 float32 float64",
    "float16": " ".join(["float16"] * 10 + ["float32", "float64"]),
    "float32": " ".join(["float32"] * 11 + ["float64"]),
    "float64": " ".join(["float64"] * 12),
}


def test_can_cast_and_promote_types():
    for a in DTYPES:
        for b, want in zip(DTYPES, TORCH_PROMOTE[a].split()):
            got = silt.promote_types(np.dtype(a), b)
            # where PyTorch refuses (uint16, uint32, uint64 with another integer), NumPy's
            assert got == (np.promote_types(a, b) if want == "-" else np.dtype(want)), (a, b)
            # PyTorch's can_cast: within the category or up
            cast = a == "bool" or (a[0] in "iu" and b != "bool") or (a[0] == "f" and b[0] == "f")
            assert silt.can_cast(getattr(np, a if a != "bool" else "bool_"), b) is cast, (a, b)
    assert silt.promote_types(np.uint16, np.int8) == np.int32
    assert silt.promote_types(np.uint64, np.int64) == np.float64
    with pytest.raises(silt.DTypeError):
        silt.promote_types(np.complex64, np.float32)
    with pytest.raises(silt.DTypeError):
        silt.can_cast(np.float32, np.complex128)


def test_scalar_tensor_and_fill(device):
    s = silt.scalar_tensor(3, device=device)
    assert s.shape == () and s.dtype == np.float32 and s.item() == 3.0 and s.device == device
    assert silt.scalar_tensor(2.5, dtype=np.int64, device=device).item() == 2
    assert silt.scalar_tensor(True, device=device).item() == 1.0
    assert silt.scalar_tensor(on(device, 4.5), dtype=np.float64, device=device).item() == 4.5
    assert silt.scalar_tensor(1.5).device == silt.default_device()
    with pytest.raises(TypeError):
        silt.scalar_tensor(on(device, [1.0]))
    with pytest.raises(TypeError):
        silt.scalar_tensor("1")
    with pytest.raises(silt.DTypeError):
        silt.scalar_tensor(300, dtype=np.uint8)

    x = on(device, [[1, 2], [3, 4]], np.int32)
    f = silt.fill(x, 3.7)
    assert f.dtype == np.int32 and f.device == device and f.tolist() == [[3, 3], [3, 3]]
    assert x.tolist() == [[1, 2], [3, 4]]
    assert silt.fill(on(device, [0.0, 1.0], np.float32), on(device, 2.5)).tolist() == [2.5, 2.5]
    assert silt.fill(on(device, [False]), 3).tolist() == [True]
    with pytest.raises(silt.ArgumentError):
        silt.fill(x, on(device, [2]))


def test_frobenius_norm(device):
    a = RNG.standard_normal((2, 3, 4))
    t = on(device, a)
    np.testing.assert_allclose(silt.frobenius_norm(t).numpy(), np.linalg.norm(a, axis=(-2, -1)), rtol=1e-12)
    np.testing.assert_allclose(silt.frobenius_norm(t, (0, 2), keepdim=True).numpy(),
                               np.sqrt((a ** 2).sum(axis=(0, 2), keepdims=True)), rtol=1e-12)
    np.testing.assert_allclose(silt.frobenius_norm(t, 1).numpy(), np.sqrt((a ** 2).sum(axis=1)), rtol=1e-12)
    np.testing.assert_allclose(silt.frobenius_norm(t, ()).item(), np.sqrt((a ** 2).sum()), rtol=1e-12)
    h = silt.frobenius_norm(on(device, [[3, 4]], np.float16), (0, 1))
    assert h.dtype == np.float16 and h.item() == 5.0
    with pytest.raises(silt.DTypeError):
        silt.frobenius_norm(on(device, [[1, 2]], np.int64))
    with pytest.raises(silt.ArgumentError):
        silt.frobenius_norm(t, (0, 1, 2))
    with pytest.raises(silt.ArgumentError):
        silt.frobenius_norm(t, (1, 1))


# ---- complex-number queries of real tensors ---------------------------------

def test_real_tensors(device):
    x = on(device, [[1.5, -2.0]], np.float32)
    r = silt.isreal(x)
    assert r.dtype == np.bool_ and r.shape == (1, 2) and r.device == device and r.tolist() == [[True, True]]
    assert x.isreal().tolist() == [[True, True]] and on(device, 3, np.uint8).isreal().tolist() is True
    for fn in ("conj", "conj_physical", "resolve_conj", "resolve_neg", "real"):
        assert getattr(silt, fn)(x) is x, fn
    for fn in ("conj", "conj_physical", "resolve_conj", "resolve_neg", "conj_physical_"):
        assert getattr(x, fn)() is x, fn
    assert isinstance(silt.Tensor.real, property) and x.real is x
    assert silt.is_conj(x) is False and silt.is_neg(x) is False and x.is_conj() is False and x.is_neg() is False
    assert silt.conj_physical_(x) is x and x.tolist() == [[1.5, -2.0]]


def test_pytorch_dtype_names(device):
    """`silt.float32`, `silt.long`, ... are NumPy's dtypes, taken wherever a dtype is."""
    pairs = {"bool": np.bool_, "uint8": np.uint8, "int8": np.int8, "short": np.int16, "int16": np.int16,
             "uint16": np.uint16, "int": np.int32, "int32": np.int32, "uint32": np.uint32, "long": np.int64,
             "int64": np.int64, "uint64": np.uint64, "half": np.float16, "float16": np.float16,
             "float": np.float32, "float32": np.float32, "double": np.float64, "float64": np.float64}
    for name, want in pairs.items():
        dt = getattr(silt, name)
        assert dt == np.dtype(want), name
        assert silt.zeros(2, dtype=dt, device=device).dtype == want, name
    x = silt.ones(3, device=device)
    assert x.to(silt.long).dtype == np.int64 and x.astype(silt.half).dtype == np.float16
    assert silt.finfo(silt.float32).eps == np.finfo(np.float32).eps and silt.iinfo(silt.uint8).max == 255
    # not in __all__: a star import keeps the builtins
    assert not {"bool", "int", "float", "long", "finfo"} & set(silt.__all__)
    ns = {}
    exec("from silt import *", ns)
    assert "float" not in ns and "int" not in ns
    # PyTorch's constants
    assert (silt.pi, silt.e, silt.inf) == (np.pi, np.e, np.inf) and np.isnan(silt.nan) and silt.newaxis is None
    assert x[silt.newaxis].shape == (1, 3) and "e" not in ns


def test_copies_of_views(device):
    a = np.arange(24.0).reshape(2, 3, 4)
    x = silt.tensor(a.copy(), device=device)
    cases = [
        (silt.alias_copy(x), a), (silt.detach_copy(x), a), (silt.t_copy(x[0]), a[0].T),
        (silt.transpose_copy(x, 0, 2), a.transpose(2, 1, 0)), (silt.permute_copy(x, (1, 2, 0)), a.transpose(1, 2, 0)),
        (silt.diagonal_copy(x, 0, 1, 2), np.diagonal(a, 0, 1, 2)), (silt.select_copy(x, 1, 2), a[:, 2]),
        (silt.slice_copy(x, 2, 1, None, 2), a[:, :, 1::2]), (silt.slice_copy(x), a),
        (silt.squeeze_copy(x[:1]), a[0]), (silt.unsqueeze_copy(x, 1), a[:, None]),
        (silt.expand_copy(x[:, :1], (2, 5, 4)), np.broadcast_to(a[:, :1], (2, 5, 4))),
        (silt.view_copy(x, (6, 4)), a.reshape(6, 4)), (silt.unfold_copy(x, 2, 2, 2), a.reshape(2, 3, 2, 2)),
        (silt.as_strided_copy(x, (3, 2), (1, 4)), np.lib.stride_tricks.as_strided(a, (3, 2), (8, 32))),
    ]
    for got, want in cases:
        assert got.is_contiguous() and got.device == device
        assert got.shape == want.shape and got.tolist() == want.tolist()
    for got, want in ((silt.split_copy(x, 2, 2), np.split(a, 2, 2)), (silt.unbind_copy(x, 1), list(np.moveaxis(a, 1, 0))),
                      (silt.split_with_sizes_copy(x, [1, 2], 1), np.split(a, [1], 1))):
        assert isinstance(got, list) and [g.tolist() for g in got] == [w.tolist() for w in want]
        assert all(g.is_contiguous() for g in got)
    # a copy, not a view: writing it leaves x alone
    c = silt.alias_copy(x)
    c.fill_(0)
    assert x.tolist() == a.tolist()
    with pytest.raises(silt.ArgumentError):
        silt.slice_copy(x, 3)


def test_adjoint_angle_nonzero_static(device):
    x = silt.tensor(np.arange(6.0).reshape(1, 2, 3), device=device)
    assert x.adjoint().shape == (1, 3, 2) and silt.adjoint(x).tolist() == np.swapaxes(x.numpy(), 1, 2).tolist()
    with pytest.raises(silt.ArgumentError, match="matrices"):
        silt.adjoint(silt.ones(3, device=device))
    f = silt.tensor([-1.0, 0.0, -0.0, 2.0, float("nan"), -float("inf")], device=device)
    got = silt.angle(f).tolist()
    assert got[:4] == [math.pi, 0.0, 0.0, 0.0] and math.isnan(got[4]) and got[5] == math.pi
    assert f.angle().dtype == np.float64
    i = silt.angle(silt.tensor([-3, 0, 3], device=device))
    assert i.dtype == np.float32 and i.tolist() == [np.float32(math.pi), 0.0, 0.0]
    assert silt.angle(silt.tensor([-1.0], dtype=np.float16, device=device)).dtype == np.float16
    m = silt.tensor([[0, 1], [1, 1]], device=device)
    assert silt.nonzero_static(m, size=5).tolist() == [[0, 1], [1, 0], [1, 1], [-1, -1], [-1, -1]]
    assert m.nonzero_static(size=1, fill_value=7).tolist() == [[0, 1]]
    z = silt.nonzero_static(m, size=4, fill_value=9)
    assert z.dtype == np.int64 and z.tolist()[3] == [9, 9]
    assert silt.nonzero_static(m, size=0).shape == (0, 2)
    with pytest.raises(silt.ArgumentError):
        silt.nonzero_static(m, size=-1)


def test_range_randint_like_and_strided_empties(device):
    assert silt.range(0, 1, 0.25, device=device).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    r = silt.range(1, 4)
    assert r.dtype == np.float32 and r.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert silt.range(5, 1, -2, dtype=np.int64).tolist() == [5, 3, 1]
    assert silt.range(3).tolist() == [0.0, 1.0, 2.0, 3.0]
    # integer dtypes take the bounds and step truncated first, as PyTorch's
    assert silt.range(0.5, 3.7, dtype=np.int64).tolist() == [0, 1, 2, 3]
    assert silt.range(1.9, 5.2, 1.5, dtype=np.int32, device=device).tolist() == [1, 2, 3, 4, 5]
    assert silt.range(-1.5, -4.9, -1.9, dtype=np.int16).tolist() == [-1, -2, -3, -4]
    big = 2**62 + 1
    assert silt.range(big, big + 4, 2, dtype=np.int64).tolist() == [big, big + 2, big + 4]
    with pytest.raises(silt.ArgumentError):
        silt.range(0, 3, 0.5, dtype=np.int64)  # a step of 0
    for bad in ((0, 1, 0), (0, 1, -1)):
        with pytest.raises(silt.ArgumentError):
            silt.range(*bad)
    assert "range" not in silt.__all__
    x = silt.zeros(3, 4, dtype=np.int16, device=device)
    r = silt.randint_like(x, 5)
    assert r.shape == (3, 4) and r.dtype == np.int16 and r.device == device
    assert ((r.numpy() >= 0) & (r.numpy() < 5)).all()
    r = silt.randint_like(x, 10, 12, dtype=np.int64)
    assert r.dtype == np.int64 and set(r.numpy().ravel()) <= {10, 11}
    e = silt.empty_strided((2, 3), (1, 2), device=device)
    assert e.shape == (2, 3) and e.stride() == (1, 2) and e.dtype == np.float32 and e.device == device
    assert silt.empty_strided((0, 3), (3, 1)).shape == (0, 3)
    p = silt.empty_permuted((2, 3, 4), (2, 0, 1), dtype=np.float64, device=device)
    assert p.shape == (2, 3, 4) and p.stride() == (3, 1, 6) and p.dtype == np.float64
    with pytest.raises(silt.ArgumentError):
        silt.empty_permuted((2, 3), (0, 0))
    with pytest.raises(silt.ArgumentError):
        silt.empty_strided((2, 3), (1,))


def test_in_place_views(device):
    t = silt.tensor(np.arange(6.0, dtype=np.float32), device=device)
    same = t
    assert t.unsqueeze_(0) is t and same.shape == (1, 6)
    t.squeeze_()
    assert t.shape == (6,)
    t.resize_(2, 3)
    assert t.shape == (2, 3) and t.stride() == (3, 1)
    np.testing.assert_array_equal(t.t_().numpy(), np.arange(6.0).reshape(2, 3).T)
    assert t.shape == (3, 2) and t.stride() == (1, 3)
    t.transpose_(0, 1).swapdims_(1, 0).swapaxes_(0, 1)
    assert t.shape == (2, 3) and t.stride() == (3, 1)
    t.squeeze_(0).unsqueeze_(-1)
    assert t.shape == (2, 3, 1)
    t.squeeze_((0, 2))
    assert t.shape == (2, 3)
    # a view of the storage, from its second element
    t.as_strided_((3,), (2,), 1)
    np.testing.assert_array_equal(t.numpy(), [1.0, 3.0, 5.0])
    # writes through the new view reach the storage
    other = t.as_strided((6,), (1,), 0)
    t.add_(10)
    np.testing.assert_array_equal(other.numpy(), [0, 11, 2, 13, 4, 15])
    t.resize_as_(silt.zeros(2, 2))
    assert t.shape == (2, 2) and t.storage_offset() == 1
    np.testing.assert_array_equal(t.numpy(), [[11, 2], [13, 4]])
    t.resize_([5])
    np.testing.assert_array_equal(t.numpy(), [11, 2, 13, 4, 15])


def test_in_place_views_refuse_what_they_cannot_view(device):
    t = silt.tensor(np.arange(6.0, dtype=np.float32), device=device)
    # silt's storages do not grow: the tensor stays as it was
    with pytest.raises(silt.ArgumentError, match="do not grow"):
        t.resize_(7)
    with pytest.raises(silt.ArgumentError):
        t[2:].resize_(5)
    with pytest.raises(silt.ArgumentError):
        t.unsqueeze_(3)
    with pytest.raises(silt.ArgumentError):
        t.t_().t_().as_strided_((4,), (2,))
    with pytest.raises(silt.ArgumentError):
        t.resize_(-1)
    assert t.shape == (6,) and t.stride() == (1,)
    with pytest.raises(silt.ArgumentError, match="another storage"):
        t._set_view(silt.zeros(6, device=device))
    with pytest.raises(silt.ArgumentError, match="as i32"):
        t._set_view(t.view(np.int32))
    np.testing.assert_array_equal(t.numpy(), np.arange(6.0))


def test_in_place_views_keep_numpy_arrays_of_the_storage():
    t = silt.tensor(np.arange(4, dtype=np.int64), device="host")
    a = t.numpy()
    t.unsqueeze_(0).as_strided_((2,), (2,))
    t.fill_(7)
    np.testing.assert_array_equal(a, [7, 1, 7, 3])


def test_new_empty_strided(device):
    x = silt.zeros(3, dtype=np.float64, device=device)
    e = x.new_empty_strided((2, 3), (1, 2))
    assert e.shape == (2, 3) and e.stride() == (1, 2) and e.dtype == np.float64 and e.device == device
    assert x.new_empty_strided((2,), (1,), dtype=np.int32).dtype == np.int32


def test_histogramdd_against_numpy(device):
    rng = np.random.default_rng(5)
    pts = rng.standard_normal((200, 3))
    w = rng.random(200)
    t = silt.tensor(pts, device=device)
    for kwargs in ({"bins": 4}, {"bins": [2, 3, 4]}, {"bins": 3, "range": [-1, 1, -2, 2, 0, 1]}):
        got = silt.histogramdd(t, **kwargs, weight=silt.tensor(w, device=device), density=True)
        rng_pairs = None if "range" not in kwargs else np.reshape(kwargs["range"], (3, 2))
        want, edges = np.histogramdd(pts, bins=kwargs["bins"], range=rng_pairs, weights=w, density=True)
        np.testing.assert_allclose(got.hist.numpy(), want, rtol=1e-9)
        assert len(got.bin_edges) == 3
        for e, we in zip(got.bin_edges, edges):
            np.testing.assert_allclose(e.numpy(), we, rtol=1e-12)
    edges = [np.array([-1.0, 0.0, 1.0]), np.array([-9.0, 0.0, 0.5, 9.0]), np.array([-5.0, 5.0])]
    got = silt.histogramdd(silt.tensor(pts.reshape(4, 50, 3), device=device),
                           bins=[silt.tensor(e, device=device) for e in edges])
    want, _ = np.histogramdd(pts, bins=edges)
    assert got.hist.shape == (2, 3, 1) and got.hist.numpy().tolist() == want.tolist()
    # a point outside one dimension's edges, or holding NaN, counts nowhere
    p = silt.tensor(np.array([[0.5, 0.5], [2.0, 0.5], [np.nan, 0.5]]), device=device)
    assert silt.histogramdd(p, bins=2, range=[0, 1, 0, 1]).hist.numpy().sum() == 1
    assert silt.histogramdd(silt.zeros(0, 2, device=device), bins=2).hist.numpy().tolist() == [[0, 0], [0, 0]]
    with pytest.raises(silt.ArgumentError):
        silt.histogramdd(silt.zeros(3, device=device), bins=2)
    with pytest.raises(silt.ArgumentError):
        silt.histogramdd(t, bins=[2, 2])
    with pytest.raises(silt.DTypeError):
        silt.histogramdd(silt.zeros(3, 2, dtype=np.int32, device=device), bins=2)


def test_as_strided_scatter_and_unsafe_splits(device):
    x = silt.tensor(np.arange(6.0), device=device)
    got = silt.as_strided_scatter(x, silt.ones(2, 2, dtype=np.float64, device=device), (2, 2), (3, 1))
    assert got.tolist() == [1.0, 1.0, 2.0, 1.0, 1.0, 5.0] and x.tolist() == list(np.arange(6.0))
    assert x.as_strided_scatter(silt.ones(2, device=device), (2,), (2,), 1).tolist() == [0, 1, 2, 1, 4, 5]
    with pytest.raises(silt.ArgumentError):
        silt.as_strided_scatter(x, silt.ones(3, device=device), (2,), (2,))
    m = silt.tensor(np.arange(6.0).reshape(2, 3), device=device)
    # laid out as PyTorch's clone: a transpose keeps its order of dimensions, a slice is made row-major
    assert silt.as_strided_scatter(m.T, silt.zeros(2, device=device), (2,), (1,)).tolist() == [[0, 3], [0, 4],
                                                                                                [2, 5]]
    assert silt.as_strided_scatter(m[:, 1:], silt.zeros(2, device=device), (2,), (1,)).tolist() == [[0, 0], [4, 5]]
    a = silt.tensor(np.arange(5), device=device)
    assert [p.tolist() for p in silt.unsafe_split_with_sizes(a, [2, 3])] == [[0, 1], [2, 3, 4]]
    assert [p.tolist() for p in a.unsafe_split(2)] == [[0, 1], [2, 3], [4]]
    assert [p.tolist() for p in a.unsafe_chunk(2)] == [[0, 1, 2], [3, 4]]
    t = silt.tensor(np.arange(6.0), device=device)
    assert silt.as_strided_(t, (2,), (3,)) is t and t.tolist() == [0.0, 3.0]


def test_autograd_attributes_of_a_tensor_without_gradients(device):
    """Code written for PyTorch that asks about gradients runs: silt's tensors record none."""
    x = silt.ones(2, 3, device=device)
    assert x.requires_grad is False and x.grad is None and x.grad_fn is None and x.is_leaf is True
    assert not (x.is_cuda or x.is_sparse or x.is_quantized or x.is_meta or x.is_nested or x.is_inference)
    assert x.detach_() is x and x.requires_grad_(False) is x
    with pytest.raises(silt.ArgumentError, match="no gradients"):
        x.requires_grad_()
    d = x.data  # a view of the same storage, as PyTorch's
    d[0, 0] = 5.0
    assert x[0, 0].item() == 5.0 and d.shape == x.shape


def test_functions_as_pytorch_215_in_their_corners(device):
    """Measured against PyTorch 2.15; each failed before its fix."""
    def on(a):
        return silt.tensor(np.asarray(a), device=device)

    # ldexp: an integer exponent whose power of two overflows, where the product does not
    got = silt.ldexp(on(np.float32([1e-30, 0.0, -2.5])), on(np.int32([130, 128, 2]))).numpy()
    np.testing.assert_array_equal(got, np.ldexp(np.float32([1e-30, 0.0, -2.5]), [130, 128, 2]))
    np.testing.assert_array_equal(silt.ldexp(on([1e300, 0.0]), on([-1100, 1024])).numpy(),
                                  np.ldexp([1e300, 0.0], [-1100, 1024]))
    np.testing.assert_allclose(silt.ldexp(on(np.float32([3.0])), on(np.float32([0.5]))).numpy(), [3 * 2**0.5],
                               rtol=1e-6)
    # cov and corrcoef of one variable in a row: 0-d; wider aweights widen
    c = silt.cov(on([[1.0, 2, 4, 7]]))
    assert c.shape == () and c.item() == pytest.approx(7.0)
    assert silt.corrcoef(on([[1.0, 2, 4, 7]])).shape == ()
    w = silt.cov(on(np.float32([[1, 2, 4], [0, 1, 1]])), aweights=on([1.0, 2.0, 1.0]))
    assert w.dtype == np.float64
    # addbmm of integers keeps their dtype
    b = on(np.ones((2, 2, 2), np.int32))
    assert silt.addbmm(on(np.zeros((2, 2), np.int32)), b, b).dtype == np.int32
    # cdist with p=0: a NaN difference gives NaN
    d = silt.cdist(on([[np.nan, 1.0], [0.0, 1.0]]), on([[0.0, 2.0]]), p=0).numpy()
    assert np.isnan(d[0, 0]) and d[1, 0] == 1.0
    # flip's dims=, einsum's sublists and bools, unique_consecutive's dim, clamp without bounds
    x = on(np.arange(6).reshape(2, 3))
    assert silt.flip(x, dims=(0,)).tolist() == [[3, 4, 5], [0, 1, 2]]
    assert x.flip(dims=[1]).tolist() == [[2, 1, 0], [5, 4, 3]]
    a, m = on(np.arange(6.0).reshape(2, 3)), on(np.arange(12.0).reshape(3, 4))
    assert silt.einsum(a, [0, 1], m, [1, 2], [0, 2]).tolist() == (a @ m).tolist()
    assert silt.einsum(a, [Ellipsis, 1], [1]).tolist() == [3.0, 5.0, 7.0]
    t = on(np.array([True, False, True]))
    assert silt.einsum("i,j->ij", t, t).tolist() == [[True, False, True], [False] * 3, [True, False, True]]
    assert silt.einsum("i->", t).item() is True
    rows = on([[1, 2], [1, 2], [3, 4], [3, 4], [1, 2]])
    u, inv, cnt = silt.unique_consecutive(rows, return_inverse=True, return_counts=True, dim=0)
    assert u.tolist() == [[1, 2], [3, 4], [1, 2]] and inv.tolist() == [0, 0, 1, 1, 2] and cnt.tolist() == [2, 2, 1]
    assert silt.unique_consecutive(rows.T, dim=1).tolist() == [[1, 3, 1], [2, 4, 2]]
    with pytest.raises(silt.ArgumentError):
        silt.unique_consecutive(on(np.zeros((0, 2))), dim=1)
    with pytest.raises(silt.ArgumentError, match="min"):
        x.clamp()

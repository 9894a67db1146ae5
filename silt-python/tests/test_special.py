"""The special functions (``lgamma``, ``digamma``, ``erfinv``, ``mvlgamma``)
and ``silt.special``: values against references computed here, and
PyTorch's values at poles, limits and signed zeros (PyTorch 2.15's, recorded
here)."""

import math

import numpy as np
import pytest

import silt

inf, nan = math.inf, math.nan


def same(got, want):
    """Equal elementwise, NaN for NaN and zeros by sign."""
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    assert got.shape == want.shape
    both_nan = np.isnan(got) & np.isnan(want)
    equal = (got == want) & (np.signbit(got) == np.signbit(want))
    assert np.all(both_nan | equal), f"{got} != {want}"


def test_poles_limits_and_zeros_as_pytorch(device):
    x = silt.tensor([0.0, -0.0, -2.0, -inf, inf, nan, 1.0, 2.0], device=device)
    same(x.lgamma().tolist(), [inf, inf, inf, inf, inf, nan, 0.0, 0.0])
    d = x.digamma().tolist()
    same(d[:6], [-inf, inf, nan, nan, inf, nan])
    assert d[6:] == pytest.approx([-0.5772156649015329, 0.42278433509846713], rel=1e-15)
    y = silt.tensor([0.0, -0.0, 1.0, -1.0, 1.5, -inf, nan], device=device)
    same(y.erfinv().tolist(), [0.0, -0.0, inf, -inf, nan, nan, nan])
    same(silt.special.entr(silt.tensor([0.0, -1.0, inf, nan, -0.0, 1.0], device=device)).tolist(),
         [0.0, -inf, -inf, nan, 0.0, -0.0])
    same(silt.special.ndtr(silt.tensor([-inf, inf, 0.0, nan], device=device)).tolist(), [0.0, 1.0, 0.5, nan])
    same(silt.special.xlog1py(silt.tensor([0.0, 0.0, 2.0, 0.0], device=device),
                              silt.tensor([nan, -1.0, -1.0, inf], device=device)).tolist(),
         [nan, 0.0, -inf, 0.0])


def test_values_against_references(device):
    x = np.linspace(-7.9, 30, 397)
    x = x[np.abs(x - np.round(x)) > 1e-3]
    t = silt.tensor(x, device=device)
    lg = np.array([math.lgamma(v) for v in x])
    np.testing.assert_allclose(t.lgamma().numpy(), lg, rtol=1e-13, atol=1e-13)
    # the derivative of lgamma by a central difference
    h = 1e-6
    dg = np.array([(math.lgamma(v + h) - math.lgamma(v - h)) / (2 * h) for v in x])
    np.testing.assert_allclose(t.digamma().numpy(), dg, rtol=1e-6, atol=1e-6)
    y = np.linspace(-0.9999, 0.9999, 501)
    back = np.array([math.erf(v) for v in silt.tensor(y, device=device).erfinv().numpy()])
    np.testing.assert_allclose(back, y, rtol=0, atol=4e-16)


def test_integers_compute_in_float32_and_float16_rounds_once(device):
    i = silt.tensor(np.array([1, 2, 3, 5], np.int32), device=device)
    for name in ("lgamma", "digamma"):
        out = getattr(silt, name)(i)
        assert out.dtype == np.float32
    np.testing.assert_allclose(i.lgamma().numpy(), [0, 0, math.log(2), math.log(24)], atol=1e-6)
    h = silt.tensor(np.array([0.5, 3.0], np.float16), device=device)
    # PyTorch's float16 results for these (computed in float32, rounded once)
    assert h.lgamma().tolist() == [0.572265625, 0.693359375]
    assert h.digamma().tolist() == [-1.9638671875, 0.9228515625]
    assert silt.tensor(np.array([0.5, 0.999], np.float16), device=device).erfinv().tolist() == [
        0.47705078125, 2.33203125]


def test_in_place_forms(device):
    x = silt.tensor([0.5, 3.0, 10.0], device=device)
    want = x.lgamma().numpy()
    assert x.lgamma_() is x
    np.testing.assert_array_equal(x.numpy(), want)
    y = silt.tensor([0.5, -0.25], device=device)
    want = y.erfinv().numpy()
    y.erfinv_()
    np.testing.assert_array_equal(y.numpy(), want)
    z = silt.tensor([2.5, 3.0], device=device)
    want = z.mvlgamma(2).numpy()
    z.mvlgamma_(2)
    np.testing.assert_array_equal(z.numpy(), want)


def test_mvlgamma(device):
    x = silt.tensor([2.5, 3.0], device=device)
    # PyTorch's float32 results
    np.testing.assert_allclose(silt.mvlgamma(x.float(), 3).numpy(), [1.8809953927993774, 2.694924831390381],
                               rtol=1e-6)
    for v in (2.5, 3.0):
        want = 3 * 2 / 4 * math.log(math.pi) + sum(math.lgamma(v - j / 2) for j in range(3))
        assert silt.special.multigammaln(silt.tensor([v], device=device), 3).item() == pytest.approx(want, 1e-14)
    assert x.mvlgamma(1).tolist() == x.lgamma().tolist()
    with pytest.raises(silt.ArgumentError, match="greater than"):
        silt.tensor([0.5], device=device).mvlgamma(3)
    with pytest.raises(silt.ArgumentError, match="at least 1"):
        x.mvlgamma(0)


def test_the_special_namespace(device):
    x = silt.tensor([-0.5, 0.25, 2.0], device=device)
    assert silt.special.psi is silt.special.digamma
    for name, method in (("gammaln", "lgamma"), ("digamma", "digamma"), ("erf", "erf"),
                         ("erfc", "erfc"), ("expit", "sigmoid"), ("exp2", "exp2"), ("expm1", "expm1"),
                         ("log1p", "log1p"), ("sinc", "sinc"), ("round", "round")):
        assert getattr(silt.special, name)(x).tolist() == getattr(x, method)().tolist(), name
    u = silt.tensor([0.25, -0.5], device=device)
    assert silt.special.erfinv(u).tolist() == u.erfinv().tolist()
    assert silt.special.logit(u.abs(), eps=0.3).tolist() == u.abs().logit(0.3).tolist()
    assert silt.special.xlogy(x, 2.0).tolist() == x.xlogy(2.0).tolist()
    assert silt.special.logsumexp(x, 0).item() == x.logsumexp(0).item()
    assert silt.special.softmax(x, 0).tolist() == x.softmax(0).tolist()
    assert silt.special.log_softmax(x, 0).tolist() == x.log_softmax(0).tolist()
    np.testing.assert_allclose(silt.special.ndtr(x).numpy(),
                               [0.5 * math.erfc(-v / math.sqrt(2)) for v in (-0.5, 0.25, 2.0)], rtol=1e-15)
    # a number or an array as the input
    assert silt.special.gammaln(3.0).item() == pytest.approx(math.log(2), 1e-15)
    assert silt.special.entr(np.array([0.5])).tolist() == pytest.approx([0.5 * math.log(2)], 1e-15)
    for name in silt.special.__all__:
        assert callable(getattr(silt.special, name)), name


def test_fusion_gives_the_bits_of_each_function(device):
    x = silt.tensor(np.float32([0.3, -2.5, 7.0, 1e-3]), device=device)
    f = silt.Fusion()
    xv = f.input(x)
    y = f.call("add", f.call("digamma", xv), f.call("lgamma", xv))
    z = f.call("erfinv", f.call("mul", xv, 0.1))
    a, b = f.run(y, z)
    np.testing.assert_array_equal(a.numpy(), (x.digamma() + x.lgamma()).numpy())
    np.testing.assert_array_equal(b.numpy(), (x * 0.1).erfinv().numpy())


def test_zeta_and_polygamma(device):
    x = silt.tensor([0.5, 1.0, 2.5, -1.5], device=device)
    # polygamma(1, x) is zeta(2, x); polygamma(2, 1) is -2 zeta(3)
    np.testing.assert_allclose(x.polygamma(1).numpy(),
                               [math.pi ** 2 / 2, math.pi ** 2 / 6, 0.49035775610023486, 9.379246644989124],
                               rtol=1e-13)
    assert silt.polygamma(2, silt.tensor([1.0], device=device)).item() == pytest.approx(-2 * 1.2020569031595942, 1e-14)
    assert silt.special.polygamma(0, x).tolist() == x.digamma().tolist()
    # the recurrence psi_n(x + 1) = psi_n(x) + (-1)^n n! / x^(n + 1)
    for n in (1, 2, 3, 5):
        y = silt.tensor(np.linspace(0.3, 7, 30), device=device)
        got = (y + 1).polygamma(n).numpy() - y.polygamma(n).numpy()
        want = (-1) ** n * math.factorial(n) / y.numpy() ** (n + 1)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    # poles and limits: odd n gives inf at the poles, even n -inf
    same(silt.tensor([0.0, -2.0, inf], device=device).polygamma(1).tolist(), [inf, inf, 0.0])
    same(silt.tensor([0.0, -2.0, inf], device=device).polygamma(2).tolist(), [-inf, -inf, -0.0])
    q = silt.tensor([1.0, 1.0, 0.0, -2.0, -1.5, inf, 2.0, 1.0, 0.5], device=device)
    s = silt.tensor([1.0, 0.5, 2.0, 2.0, 2.5, 2.0, inf, inf, inf], device=device)
    same(silt.special.zeta(s, q).tolist(), [inf, nan, inf, inf, nan, 0.0, 0.0, 1.0, inf])
    # numbers on either side; integers compute in float32
    assert silt.special.zeta(2.0, silt.tensor([1.0], device=device)).item() == pytest.approx(math.pi ** 2 / 6, 1e-14)
    i = silt.tensor(np.array([2, 3], np.int32), device=device)
    assert silt.special.zeta(i, i).dtype == np.float32
    assert silt.tensor(np.array([1, 2], np.int64), device=device).polygamma(1).dtype == np.float32
    # float32 computes in float64 where the device has it: the sum's cancellation at negative x (values of
    # mpmath, 30 digits)
    f = silt.tensor(np.array([-10.5, -2.5, 3.0], np.float32), device=device)
    np.testing.assert_allclose(f.polygamma(8).numpy(), [-2.29439840821536e-05, -0.576384651869932, -2.22839874763489], rtol=1e-4)
    np.testing.assert_allclose(silt.special.zeta(silt.tensor(np.array([100.0, 1e4], np.float32), device=device),
                                                 silt.tensor(np.array([3.5, 2.0], np.float32), device=device)).numpy(),
                               [0.0, 0.0])
    h = silt.tensor(np.array([0.5, 2.0], np.float16), device=device)
    assert h.polygamma(1).dtype == np.float16
    np.testing.assert_allclose(h.polygamma(1).numpy(), [4.934802, 0.644934], rtol=1e-3)
    y = silt.tensor([2.0, 3.0], device=device)
    want = y.polygamma(1).tolist()
    assert y.polygamma_(1) is y and y.tolist() == want
    with pytest.raises(silt.ArgumentError, match="at least 0"):
        x.polygamma(-1)
    with pytest.raises(silt.ArgumentError, match="integer"):
        x.polygamma(1.5)


def test_the_module_examples_run():
    import doctest
    assert doctest.testmod(silt.special).failed == 0


def test_bessel_functions(device):
    x = np.concatenate([np.linspace(-40, 40, 321), [1e-300, -1e-12, 700.0]])
    t = silt.tensor(x, device=device)
    # numpy's i0 (Cephes); i0e and i1's references from it, I₁ = I₀'
    np.testing.assert_allclose(t.i0().numpy(), np.i0(x), rtol=1e-14)
    np.testing.assert_allclose(silt.i0(t).numpy(), np.i0(x), rtol=1e-14)
    np.testing.assert_allclose(silt.special.i0e(t).numpy(), np.i0(x) * np.exp(-np.abs(x)), rtol=1e-14)
    m = np.abs(x) < 40
    h = 1e-5
    di0 = (np.i0(x[m] + h) - np.i0(x[m] - h)) / (2 * h)
    np.testing.assert_allclose(silt.special.i1(t).numpy()[m], di0, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(silt.special.i1e(t).numpy(), silt.special.i1(t).numpy() * np.exp(-np.abs(x)),
                               rtol=1e-14)
    # PyTorch 2.15's float64 values
    v = silt.tensor([0.5, -30.0, 700.0], device=device)
    np.testing.assert_allclose(silt.special.i1(v).numpy(),
                               [0.25789430539089636, -768532038938.9569, 1.5285003902339006e+302], rtol=1e-15)
    np.testing.assert_allclose(silt.special.i1e(v).numpy(),
                               [0.15642080318487173, -0.07191633059864755, 0.015070519444716846], rtol=1e-15)
    # zeros, infinities and NaN: PyTorch's, but for I₀ and I₁ at ±inf, where
    # PyTorch gives NaN and silt the limits
    e = silt.tensor([0.0, -0.0, inf, -inf, nan], device=device)
    same(e.i0().tolist(), [1.0, 1.0, inf, inf, nan])
    same(silt.special.i0e(e).tolist(), [1.0, 1.0, 0.0, 0.0, nan])
    same(silt.special.i1(e).tolist(), [0.0, 0.0, inf, -inf, nan])
    same(silt.special.i1e(e).tolist(), [0.0, 0.0, 0.0, -0.0, nan])
    # integers in float32, float16 rounded once from float32; in place
    i = silt.tensor(np.array([1, 2], np.int32), device=device)
    assert silt.special.i1(i).dtype == np.float32 and i.i0().dtype == np.float32
    f = silt.tensor(np.array([1.0, -2.5], np.float16), device=device)
    # PyTorch's float16 results
    assert f.i0().tolist() == [1.265625, 3.2890625]
    assert silt.special.i1e(f).tolist() == [0.2078857421875, -0.20654296875]
    y = silt.tensor([0.5, 3.0], device=device)
    want = y.i0().tolist()
    assert y.i0_() is y and y.tolist() == want


def test_bessel_functions_of_the_second_kind_and_airy(device):
    t = silt.tensor([0.5, 3.0, 25.0], device=device)
    # mpmath's values to 30 digits, rounded
    want = {
        "bessel_j0": [0.9384698072408129, -0.26005195490193345, 0.09626678327595811],
        "bessel_j1": [0.2422684576748739, 0.3390589585259365, -0.1253502495802899],
        "bessel_y0": [-0.44451873350670656, 0.3768500100127904, -0.12724943226800614],
        "bessel_y1": [-1.471472392670243, 0.3246744247918, -0.09882996478323741],
        "modified_bessel_k0": [0.9244190712276659, 0.03473950438627925, 3.4641615622131143e-12],
        "modified_bessel_k1": [1.656441120003301, 0.040156431128194184, 3.5327780731999337e-12],
        "scaled_modified_bessel_k0": [1.5241093857739094, 0.6977615980438517, 0.2494366045755967],
        "scaled_modified_bessel_k1": [2.731009708211786, 0.8065634801287869, 0.25437732954208525],
    }
    for name, w in want.items():
        got = getattr(silt.special, name)(t)
        np.testing.assert_allclose(got.numpy(), w, rtol=2e-15, err_msg=name)
        assert getattr(silt.ops, name)(t).tolist() == got.tolist()
    a = silt.special.airy_ai(silt.tensor([-25.0, -3.0, 0.5, 25.0], device=device))
    np.testing.assert_allclose(a.numpy(), [0.16352657883042948, -0.37881429367765806, 0.23169360648083348,
                                           8.116026824691387e-38], rtol=2e-15)
    # PyTorch's values at zero, below it and at NaN; the limits where
    # PyTorch's give NaN at the infinities
    e = silt.tensor([0.0, -0.0, -1.0, inf, -inf, nan], device=device)
    same(silt.special.bessel_j0(e).tolist(), [1.0, 1.0, 0.7651976865579666, 0.0, 0.0, nan])
    same(silt.special.bessel_j1(e).tolist(), [0.0, -0.0, -0.4400505857449335, 0.0, -0.0, nan])
    same(silt.special.bessel_y0(e).tolist(), [-inf, -inf, nan, 0.0, nan, nan])
    same(silt.special.bessel_y1(e).tolist(), [-inf, -inf, nan, 0.0, nan, nan])
    for name in ("modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1"):
        same(getattr(silt.special, name)(e).tolist(), [inf, inf, nan, 0.0, nan, nan])
    same(silt.special.airy_ai(e).tolist()[3:], [0.0, 0.0, nan])
    # integers compute in float32, float16 in float32 rounded once
    i = silt.tensor(np.array([1, 2], np.int32), device=device)
    assert silt.special.bessel_y0(i).dtype == np.float32
    f = silt.tensor(np.array([1.0, 2.5], np.float16), device=device)
    g = silt.special.modified_bessel_k1(f)
    assert g.dtype == np.float16
    assert g.tolist() == np.float16(silt.special.modified_bessel_k1(f.float()).numpy()).tolist()
    # numbers are tensors
    assert silt.special.airy_ai(0.0).item() == 0.3550280538878172


POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
               "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]


def test_orthogonal_polynomials(device):
    x = silt.tensor([0.375, -1.5, 2.0], device=device)
    # the recurrences in exact arithmetic (the values are dyadic)
    want = {
        "chebyshev_polynomial_t": [-0.9140625, -9.0, 26.0],
        "hermite_polynomial_h": [-4.078125, -9.0, 40.0],
        "hermite_polynomial_he": [-1.072265625, 1.125, 2.0],
        "legendre_polynomial_p": [-0.4306640625, -6.1875, 17.0],
    }
    for name, w in want.items():
        f = getattr(silt.special, name)
        assert f(x, 3).tolist() == w, name
        # the degree may be a tensor, broadcast, truncated as PyTorch's
        assert f(x, silt.tensor([3.7], device=device)).tolist() == w, name
    # Laguerre's L_3(x) = (-x³ + 9x² - 18x + 6) / 6
    xs = np.array([0.375, -1.5, 2.0])
    np.testing.assert_allclose(silt.special.laguerre_polynomial_l(x, 3).numpy(),
                               (-xs ** 3 + 9 * xs ** 2 - 18 * xs + 6) / 6, rtol=1e-15)
    for name in POLYNOMIALS:
        f = getattr(silt.special, name)
        # every element its own degree; negative degrees give 0, degree 0 gives 1
        n = silt.tensor([-2.0, 0.0, 1.0], device=device)
        r = f(silt.tensor([0.5, nan, 0.25], device=device), n).tolist()
        assert r[:2] == [0.0, 1.0], name
        assert getattr(silt.ops, name)(x, silt.tensor(3.0, device=device)).tolist() == f(x, 3).tolist()
        # integers compute in float32; float16 in float32, rounded once
        i = f(silt.tensor(np.array([1, 2], np.int32), device=device), 2)
        assert i.dtype == np.float32, name
        h = silt.tensor(np.array([0.3, 0.7], np.float16), device=device)
        assert f(h, 5).tolist() == np.float16(f(h.float(), 5).numpy()).tolist(), name
    # Chebyshev's trigonometric form: T_n(cos θ) = cos nθ, U_n(cos θ) = sin((n + 1)θ) / sin θ
    th = np.linspace(0.1, 3.0, 30)
    c = silt.tensor(np.cos(th), device=device)
    np.testing.assert_allclose(silt.special.chebyshev_polynomial_t(c, 40).numpy(), np.cos(40 * th), atol=1e-12)
    np.testing.assert_allclose(silt.special.chebyshev_polynomial_u(c, 40).numpy(),
                               np.sin(41 * th) / np.sin(th), atol=1e-11)
    # limits where PyTorch's give NaN; a degree too large for the recurrence
    e = silt.tensor([inf, -inf], device=device)
    same(silt.special.hermite_polynomial_h(e, 3).tolist(), [inf, -inf])
    same(silt.special.laguerre_polynomial_l(e, 3).tolist(), [-inf, inf])
    assert math.isnan(silt.special.legendre_polynomial_p(0.5, 2.0 ** 25).item())
    # a value past the range has its sign: H_400(0.5) is below -1.8e308
    assert silt.special.hermite_polynomial_h(0.5, 400).item() == -inf


def test_normal_distribution_functions(device):
    # math's erfc down to its normal range; ln(1 - t) as log1p above 0
    x = np.linspace(-37, 8, 451)
    t = silt.tensor(x, device=device)
    want = np.array([math.log(0.5 * math.erfc(-v / math.sqrt(2))) if v <= 0
                     else math.log1p(-0.5 * math.erfc(v / math.sqrt(2))) for v in x])
    np.testing.assert_allclose(silt.special.log_ndtr(t).numpy(), want, rtol=1e-13)
    # beyond math.erfc's range: ln Φ(x) = -x²/2 - ln(-x √(2π)) - 1/x² + 5/(2x⁴) - 37/(3x⁶) + ...
    far = np.array([-100.0, -1e3, -1e10])
    asym = -far ** 2 / 2 - np.log(-far * math.sqrt(2 * math.pi)) - 1 / far ** 2 + 2.5 / far ** 4 - 37 / (3 * far ** 6)
    np.testing.assert_allclose(silt.special.log_ndtr(silt.tensor(far, device=device)).numpy(), asym, rtol=1e-15)
    # Φ(Φ⁻¹(p)) = p from p = 1e-300 up, and near 1 (math's Φ moves by x²
    # ULPs where x = Φ⁻¹(p) is -37)
    p = np.concatenate([np.geomspace(1e-300, 0.5, 300), 1 - np.geomspace(1e-15, 0.5, 100)])
    q = silt.special.ndtri(silt.tensor(p, device=device)).numpy()
    back = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in q])
    np.testing.assert_allclose(back, p, rtol=5e-13)
    # PyTorch 2.15's float64 values
    np.testing.assert_allclose(silt.special.ndtri(silt.tensor([1e-300, 0.975], device=device)).numpy(),
                               [-37.0470962993612, 1.959963984540054], rtol=1e-14)
    np.testing.assert_allclose(silt.special.log_ndtr(silt.tensor([-30.0, 1.0], device=device)).numpy(),
                               [-454.32124395634327, -0.17275377902344985], rtol=1e-15)
    # erfcx: math's product where it holds, the asymptotic series beyond
    z = np.linspace(-5, 9, 281)
    want = np.array([math.exp(v * v) * math.erfc(v) for v in z])
    np.testing.assert_allclose(silt.special.erfcx(silt.tensor(z, device=device)).numpy(), want, rtol=1e-13)
    big = np.array([1e3, 1e5, 1e100])
    asym = (1 - 1 / (2 * big ** 2) + 3 / (4 * big ** 4)) / (big * math.sqrt(math.pi))
    np.testing.assert_allclose(silt.special.erfcx(silt.tensor(big, device=device)).numpy(), asym, rtol=1e-15)
    # limits and NaN, as PyTorch's
    e = silt.tensor([inf, -inf, nan, 0.0, -30.0], device=device)
    same(silt.special.erfcx(e).tolist(), [0.0, inf, nan, 1.0, inf])
    same(silt.special.log_ndtr(e).tolist()[:3], [-0.0, -inf, nan])
    same(silt.special.ndtri(silt.tensor([0.0, -0.0, 1.0, 0.5, -0.5, 1.5, inf, nan], device=device)).tolist(),
         [-inf, -inf, inf, 0.0, nan, nan, nan, nan])
    # float32 and float16 as their dtype; numbers and integers
    f = silt.tensor(np.float32([0.025, 0.5]), device=device)
    assert silt.special.ndtri(f).dtype == np.float32
    np.testing.assert_allclose(silt.special.ndtri(f).numpy(), [-1.959964, 0.0], rtol=1e-6)
    assert silt.special.erfcx(silt.tensor(np.float16([1.0]), device=device)).tolist() == [0.427490234375]
    assert silt.special.log_ndtr(silt.tensor(np.array([0], np.int64), device=device)).dtype == np.float32
    assert silt.special.ndtri(0.5).item() == 0.0


def test_incomplete_gamma(device):
    a = np.array([0.01, 0.5, 1.0, 2.5, 9.5, 20.5, 99.0, 150.0, 1e4])
    x = np.array([0.5, 2.0, 0.4, 3.5, 9.0, 14.5, 130.0, 196.5, 9900.0])
    ta, tx = silt.tensor(a, device=device), silt.tensor(x, device=device)
    # P and Q to 20 digits (mpmath)
    p = [0.99437324380603281585, 0.9544997361036415856, 0.32967995396436067, 0.77935969206328920921,
         0.47756172601373708028, 0.07976405262069458698, 0.99796097806214027614, 0.99975804127386413805,
         0.15865119219356465696]
    q = [0.005626756193967184147, 0.045500263896358414401, 0.67032004603563933, 0.22064030793671079079,
         0.52243827398626291972, 0.92023594737930541302, 0.0020390219378597238575, 2.419587261358619489e-4,
         0.84134880780643534304]
    np.testing.assert_allclose(ta.igamma(tx).numpy(), p, rtol=1e-14)
    np.testing.assert_allclose(ta.igammac(tx).numpy(), q, rtol=1e-14)
    np.testing.assert_allclose(silt.special.gammainc(ta, tx).numpy(), p, rtol=1e-14)
    np.testing.assert_allclose(silt.special.gammaincc(ta, tx).numpy(), q, rtol=1e-14)
    np.testing.assert_allclose(silt.igamma(ta, tx).numpy(), p, rtol=1e-14)
    # identities: P(1, x) = 1 - e^-x, Q(1/2, x) = erfc(√x)
    xs = np.linspace(0.05, 20, 400)
    np.testing.assert_allclose(silt.special.gammainc(1.0, silt.tensor(xs, device=device)).numpy(),
                               -np.expm1(-xs), rtol=2e-15)
    np.testing.assert_allclose(silt.special.gammaincc(0.5, silt.tensor(xs, device=device)).numpy(),
                               [math.erfc(math.sqrt(v)) for v in xs], rtol=1e-13)
    # limits as PyTorch's: (a, x) -> P, Q
    la = silt.tensor([0.0, 0.0, 1.0, -1.0, inf, inf, 1.0, nan], device=device)
    lx = silt.tensor([0.0, 1.0, 0.0, 1.0, 1.0, inf, inf, 1.0], device=device)
    same(la.igamma(lx).tolist(), [nan, 1.0, 0.0, nan, 0.0, nan, 1.0, nan])
    same(la.igammac(lx).tolist(), [nan, 0.0, 1.0, nan, 1.0, nan, 0.0, nan])
    # PyTorch 2.15's float32 value; float16 in float32 rounded once; integers in float32
    f = silt.tensor(np.float32([2.5]), device=device)
    assert f.igamma(silt.tensor(np.float32([3.5]), device=device)).dtype == np.float32
    np.testing.assert_allclose(f.igamma(silt.tensor(np.float32([3.5]), device=device)).numpy(), [0.7793597],
                               rtol=1e-6)
    h = silt.tensor(np.float16([2.5]), device=device)
    assert h.igammac(silt.tensor(np.float16([3.5]), device=device)).tolist() == [0.2205810546875]
    i = silt.tensor(np.array([2, 3], np.int64), device=device)
    assert i.igamma(i).dtype == np.float32
    # in place
    y = silt.tensor([2.5, 1.0], device=device)
    want = y.igamma(silt.tensor([3.5, 0.4], device=device)).tolist()
    assert y.igamma_(silt.tensor([3.5, 0.4], device=device)) is y and y.tolist() == want


def test_the_bessel_aliases_and_spherical_j0(device):
    x = silt.tensor([0.0, -0.0, 1e-20, 0.3, 1.0, -2.5, 10.0, inf, -inf, nan, 1e300], device=device)
    assert silt.special.modified_bessel_i0(x).tolist()[:7] == x.i0().tolist()[:7]
    assert silt.special.modified_bessel_i1(x).tolist()[:7] == silt.special.i1(x).tolist()[:7]
    # PyTorch 2.15's float64 values
    want = [1.0, 1.0, 1.0, 0.9850673555377986, 0.8414709848078965, 0.23938885764158263, -0.05440211108893698,
            0.0, 0.0, nan, -8.178819121159085e-301]
    got = silt.special.spherical_bessel_j0(x).tolist()
    same(got[:3] + got[7:10], want[:3] + want[7:10])
    np.testing.assert_allclose(got[3:7] + got[10:], want[3:7] + want[10:], rtol=1e-15)
    assert silt.special.spherical_bessel_j0(silt.tensor(np.array([1, 2], np.int32), device=device)).dtype == np.float32

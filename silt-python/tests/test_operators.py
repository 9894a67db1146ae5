"""Python's operators on silt.Tensor against NumPy on the same inputs, on the
host backend and an OpenCL device: broadcasting, Python numbers on either
side, PyTorch's result dtypes, in-place forms, and clear errors."""

import operator

import numpy as np
import pytest

import silt

RNG = np.random.default_rng(11)
F = (RNG.uniform(-4, 4, (4, 5)) + 0.01).astype(np.float32)
G = (RNG.uniform(0.5, 3, (5,))).astype(np.float32)  # broadcast over rows, no zeros
I = RNG.integers(-20, 20, (4, 5)).astype(np.int32)
J = (RNG.integers(1, 6, (4, 1)) * np.array([[1], [-1], [1], [-1]])).astype(np.int32)
U = RNG.integers(0, 200, (4, 5)).astype(np.uint8)
B = RNG.random((4, 5)) < 0.5
C = RNG.random((5,)) < 0.5


def check(got, want):
    assert isinstance(got, silt.Tensor)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


# (operator, a, b, NumPy's result with the dtype PyTorch gives)
BINARY = {
    "add": (operator.add, F, G, F + G),
    "sub": (operator.sub, I, J, I - J),
    "mul": (operator.mul, F, F, F * F),
    "truediv float": (operator.truediv, F, G, F / G),
    "truediv int": (operator.truediv, I, J, (I / J).astype(np.float32)),
    "floordiv int": (operator.floordiv, I, J, I // J),
    "floordiv float": (operator.floordiv, F, G, F // G),
    "mod int": (operator.mod, I, J, I % J),
    "mod float": (operator.mod, F, G, F % G),
    "pow": (operator.pow, np.abs(F) + 0.5, G, (np.abs(F) + 0.5) ** G),
    "and int": (operator.and_, I, J, I & J),
    "or bool": (operator.or_, B, C, B | C),
    "xor bool": (operator.xor, B, C, B ^ C),
    "and bool": (operator.and_, B, C, B & C),
    "eq": (operator.eq, I, I % 3, I == I % 3),
    "ne": (operator.ne, I, J, I != J),
    "lt": (operator.lt, F, G, F < G),
    "le": (operator.le, I, J, I <= J),
    "gt": (operator.gt, U, U.T.copy().T, U > U),
    "ge": (operator.ge, F, F.round(), F >= F.round()),
    "eq bool": (operator.eq, B, C, B == C),
    "lt bool": (operator.lt, B, C, B < C),
    "int with float tensor": (operator.add, I, F, (I + F).astype(np.float32)),
    "uint8 with int8": (operator.add, U, I.astype(np.int8), U.astype(np.int16) + I.astype(np.int8)),
    "bool plus bool": (operator.add, B, C, B | C),
    "bool times bool": (operator.mul, B, C, B & C),
    "matmul": (operator.matmul, F, F.T.copy(), F @ F.T),
    "matmul int batched": (operator.matmul, I.reshape(2, 2, 5), I[0], I.reshape(2, 2, 5) @ I[0]),
    "matmul row": (operator.matmul, G, F.T.copy(), G @ F.T),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_operator(device, name):
    op, a, b, want = BINARY[name]
    ta, tb = silt.tensor(a, device=device), silt.tensor(b, device=device)
    got = op(ta, tb)
    assert got.device == device
    check(got, want)
    # an array on either side goes to the tensor's device (on the left through
    # NumPy's __array_ufunc__)
    check(op(ta, b), want)
    got = op(a, tb)
    assert got.device == device
    check(got, want)


# (expression on a tensor x, the same on the NumPy array, the dtype PyTorch gives)
NUMBERS = [
    (lambda x: x + 2, F, lambda a: a + 2, np.float32),
    (lambda x: 2 * x, I, lambda a: 2 * a, np.int32),
    (lambda x: x * 1.5, I, lambda a: a * 1.5, np.float32),  # the default float dtype
    (lambda x: 1.5 - x, I, lambda a: 1.5 - a, np.float32),
    (lambda x: x - 1, U, lambda a: a - 1, np.uint8),
    (lambda x: 10 - x, I, lambda a: 10 - a, np.int32),
    (lambda x: x / 4, I, lambda a: a / 4, np.float32),
    (lambda x: 7 / x, J, lambda a: 7 / a, np.float32),
    (lambda x: x // 3, I, lambda a: a // 3, np.int32),
    (lambda x: -7 // x, J, lambda a: -7 // a, np.int32),
    (lambda x: x % 3, I, lambda a: a % 3, np.int32),
    (lambda x: x % -2.5, F, lambda a: a % -2.5, np.float32),
    (lambda x: 5 % x, J, lambda a: 5 % a, np.int32),
    (lambda x: x ** 2, I, lambda a: a ** 2, np.int32),
    (lambda x: x ** 0.5, np.abs(I), lambda a: a ** 0.5, np.float32),
    (lambda x: 2 ** x, np.abs(J), lambda a: 2 ** a, np.int32),
    (lambda x: 2.0 ** x, F, lambda a: 2.0 ** a, np.float32),
    (lambda x: x + 1, B, lambda a: a + 1, np.int64),
    (lambda x: x * 0.5, B, lambda a: a * 0.5, np.float32),
    (lambda x: x & 1, I, lambda a: a & 1, np.int32),
    (lambda x: 6 | x, I, lambda a: 6 | a, np.int32),
    (lambda x: x ^ True, B, lambda a: a ^ True, np.bool_),
    (lambda x: x << 2, U.astype(np.int32), lambda a: a << 2, np.int32),
    (lambda x: x >> 1, I, lambda a: a >> 1, np.int32),
    (lambda x: x > 0.5, I, lambda a: a > 0.5, np.bool_),
    (lambda x: 3 <= x, I, lambda a: 3 <= a, np.bool_),
    (lambda x: x == 2, I, lambda a: a == 2, np.bool_),
    (lambda x: x != 0.0, F, lambda a: a != 0.0, np.bool_),
    (lambda x: x + np.float64(1.5), F, lambda a: a + 1.5, np.float32),  # NumPy scalars count as numbers
    (lambda x: -x, F, lambda a: -a, np.float32),
    (lambda x: -x, I, lambda a: -a, np.int32),
    (lambda x: -x, U, lambda a: -a, np.uint8),
    (lambda x: +x, I, lambda a: +a, np.int32),
    (lambda x: abs(x), I, abs, np.int32),
    (lambda x: ~x, I, lambda a: ~a, np.int32),
    (lambda x: ~x, B, lambda a: ~a, np.bool_),
]


@pytest.mark.parametrize("case", range(len(NUMBERS)))
def test_operators_with_numbers(device, case):
    expr, a, ref, dtype = NUMBERS[case]
    got = expr(silt.tensor(a, device=device))
    assert got.device == device
    check(got, np.asarray(ref(a)).astype(dtype))


def test_result_type_follows_pytorch():
    t = lambda dt: silt.tensor(np.zeros(2, dt), device="host")  # noqa: E731
    rt = silt.result_type
    assert rt(t(np.int32), 2.0) == np.float32
    assert rt(t(np.float16), 2) == np.float16
    assert rt(t(np.float16), 2.0) == np.float16
    assert rt(t(np.bool_), True) == np.bool_
    assert rt(t(np.bool_), 3) == np.int64
    assert rt(t(np.uint8), 3) == np.uint8
    assert rt(t(np.int64), t(np.float16)) == np.float16
    assert rt(t(np.int8), t(np.uint8)) == np.int16
    assert rt(t(np.float32), t(np.float64)) == np.float64
    assert rt(3, t(np.int16)) == np.int16


def test_in_place_operators_write_the_tensor(device):
    t = silt.tensor(F.copy(), device=device)
    view = t[1:3]
    before = t
    t += G
    assert t is before
    t *= 2
    t -= 1.0
    t /= 4
    want = ((F + G) * 2 - 1.0) / 4
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(view.numpy(), want[1:3], rtol=1e-6)  # views see the writes
    i = silt.tensor(I.copy(), device=device)
    i //= 3
    i %= 5
    i **= 2
    i &= 7
    i |= 8
    i ^= 1
    i <<= 1
    i >>= 1
    check(i, ((((((I // 3) % 5) ** 2) & 7) | 8) ^ 1))
    b = silt.tensor(B.copy(), device=device)
    b &= C
    b |= ~C
    check(b, (B & C) | ~C)


def test_in_place_results_cast_back_within_their_category(device):
    # PyTorch's rule: float32 into float16, int64 into int32 (wrapping), and
    # bool into an integer; never a float into an integer (test below)
    h = silt.tensor(F.astype(np.float16), device=device)
    h += silt.tensor(G, device=device)  # float32
    assert h.dtype == np.float16
    check(h, (F.astype(np.float16).astype(np.float32) + G).astype(np.float16))
    i = silt.tensor(I.copy(), device=device)  # int32
    i += silt.tensor(np.full(I.shape, 2**32 + 1, np.int64), device=device)
    assert i.dtype == np.int32
    check(i, I + 1)
    i *= silt.tensor(B, device=device)
    check(i, (I + 1) * B)
    b = silt.tensor(B.copy(), device=device)
    with pytest.raises(silt.DTypeError, match=r"\(an integer into bool\)"):
        b += silt.tensor(I, device=device)
    check(b, B)


def test_in_place_operators_on_host_arrays_write_the_array(host):
    a = F.copy()
    t = silt.tensor(a, device=host)
    t += 1
    np.testing.assert_array_equal(a, F + 1)


def test_in_place_errors(device):
    i = silt.tensor(I.copy(), device=device)
    with pytest.raises(silt.DTypeError, match=r"float32 does not cast .* \(a float into an integer\)"):
        i += 1.5  # PyTorch: the result type cannot be cast to int32
    with pytest.raises(silt.DTypeError):
        i /= 2
    row = silt.tensor(G.copy(), device=device)
    with pytest.raises(silt.ArgumentError, match="shape"):
        row += F  # the broadcast result is bigger than the tensor
    np.testing.assert_array_equal(i.numpy(), I)  # nothing written


def test_operator_errors(device):
    f = silt.tensor(F, device=device)
    i = silt.tensor(I, device=device)
    b = silt.tensor(B, device=device)
    with pytest.raises(silt.DTypeError, match="&"):
        f & f
    with pytest.raises(silt.DTypeError):
        ~f
    with pytest.raises(silt.DTypeError, match="bool"):
        b - b
    with pytest.raises(silt.DTypeError):
        -b
    with pytest.raises(ValueError, match="negative integer powers"):
        i ** -1
    with pytest.raises(silt.ArgumentError):
        f + np.ones((3, 3), np.float32)  # shapes that do not broadcast
    with pytest.raises(silt.DTypeError):
        silt.tensor(U, device=device) + 300  # does not fit uint8
    # integers past 64 bits: silt.DTypeError, not Python's OverflowError
    i64 = silt.tensor(np.array([0], np.int64), device=device)
    u64 = silt.tensor(np.array([0], np.uint64), device=device)
    for bad in (lambda: i64 < -2**63 - 1, lambda: i64 + 2**64, lambda: u64 + 2**64,
                lambda: silt.ops.add(i64, -2**70), lambda: i64 > 2**63):
        with pytest.raises(silt.DTypeError, match="does not convert"):
            bad()
    assert (u64 + (2**64 - 1)).numpy().tolist() == [2**64 - 1]
    with pytest.raises(TypeError):
        f + "text"
    with pytest.raises(TypeError):
        f + object()
    assert (f == None) is False  # noqa: E711


def test_integer_division_by_zero_is_zero(device):
    i = silt.tensor(np.array([5, -5, 0], np.int32), device=device)
    check(i // 0, np.zeros(3, np.int32))
    check(i % 0, np.zeros(3, np.int32))
    f = silt.tensor(np.array([5.0, -5.0, 0.0], np.float32), device=device)
    with np.errstate(all="ignore"):
        check(f // 0.0, np.array([5.0, -5.0, 0.0], np.float32) // 0.0)
        check(f / 0, np.array([5.0, -5.0, 0.0], np.float32) / 0)


def test_bool_and_conversions(device):
    t = silt.tensor(np.array([2.5], np.float32), device=device)
    assert bool(t) and float(t) == 2.5 and int(t) == 2
    assert bool(silt.tensor(np.array([[0]]), device=device)) is False
    with pytest.raises(silt.ArgumentError, match="ambiguous"):
        bool(silt.tensor(F, device=device))
    if (t > 2).all():
        pass
    else:
        pytest.fail("a one-element bool tensor is truthy")


def test_tensors_hash_by_identity(host):
    a, b = silt.tensor(F, device=host), silt.tensor(F, device=host)
    assert len({a, b, a}) == 2


def _shifted(a, b, left):
    """PyTorch's (and NumPy's) shift of one element: every bit out for a
    count that is negative or at least the width."""
    bits = a.dtype.itemsize * 8
    if 0 <= int(b) < bits:
        return (a << b) if left else (a >> b)
    if left or a.dtype.kind == "u" or a >= 0:
        return a.dtype.type(0)
    return a.dtype.type(-1)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32])
def test_shifts_past_the_width_shift_every_bit_out(device, dtype):
    bits = np.dtype(dtype).itemsize * 8
    signed = np.dtype(dtype).kind == "i"
    counts = [0, 1, bits - 1, bits, bits + 1, min(2 * bits + 3, 127)] + ([-1, -bits] if signed else [])
    a = np.array([1, 5, 0] + ([-8, np.iinfo(dtype).min] if signed else [200 % 256]), dtype)
    for c in counts:
        b = np.full(a.shape, c, dtype)
        for left, op in ((True, operator.lshift), (False, operator.rshift)):
            want = np.array([_shifted(x, c, left) for x in a], dtype)
            ta, tb = silt.tensor(a, device=device), silt.tensor(b, device=device)
            check(op(ta, tb), want)
            check(op(ta, c), want)
            name = "bitwise_left_shift" if left else "bitwise_right_shift"
            check(getattr(silt, name)(ta, tb), want)
            inplace = silt.tensor(a, device=device)
            getattr(inplace, name + "_")(tb)
            check(inplace, want)
    # a number shifted by a tensor of counts
    b = np.array([1, bits - 1, bits, bits + 4], dtype)
    check(3 << silt.tensor(b, device=device), np.array([_shifted(dtype(3), c, True) for c in b], dtype))


def test_gcd_and_lcm(device):
    a = np.array([0, 0, -12, 7, 5, 2 ** 31 - 1, -2 ** 31, -2 ** 31, 48], np.int32)
    b = np.array([0, -4, 18, -21, 0, 2 ** 31 - 1, 0, 6, 180], np.int32)
    x, y = silt.tensor(a, device=device), silt.tensor(b, device=device)
    # NumPy's, but for gcd(MIN, 0), whose 2^31 wraps to MIN (as PyTorch's does)
    want = np.gcd(a.astype(np.int64), b.astype(np.int64)).astype(np.int32)
    assert x.gcd(y).tolist() == want.tolist()
    assert silt.gcd(x, y).tolist()[6] == -2 ** 31
    # lcm wraps as int32 multiplication does
    assert silt.lcm(x, y).tolist() == np.lcm(a.astype(np.int64), b.astype(np.int64)).astype(np.int32).tolist()
    # gcd(-128, 6) is 2 (PyTorch's gives -2); every pair of int8 as NumPy's where it fits
    i8 = np.arange(-128, 128, dtype=np.int8)
    p, q = np.meshgrid(i8, i8)
    g = silt.tensor(p, device=device).gcd(silt.tensor(q, device=device)).numpy()
    np.testing.assert_array_equal(g, np.gcd(p.astype(np.int64), q.astype(np.int64)).astype(np.int8))
    # promotion with numbers and other integer dtypes; unsigned too
    assert x.gcd(6).dtype == np.int32 and x.gcd(6).tolist()[:4] == [6, 6, 6, 1]
    u = silt.tensor(np.array([200, 0, 9], np.uint8), device=device)
    assert u.gcd(silt.tensor(np.array([150, 5, 6], np.int64), device=device)).dtype == np.int64
    assert u.lcm(u).tolist() == [200, 0, 9]
    # in place
    z = silt.tensor(np.array([12, 18], np.int64), device=device)
    assert z.gcd_(8) is z and z.tolist() == [4, 2]
    assert z.lcm_(3).tolist() == [12, 6]
    # floats and bool are refused, as PyTorch refuses them
    with pytest.raises(silt.DTypeError, match="integer"):
        silt.tensor([1.5], device=device).gcd(2)
    with pytest.raises(silt.DTypeError, match="bool"):
        silt.tensor([True], device=device).lcm(silt.tensor([False], device=device))


def test_bool_and_shift_edges_read_as_pytorch(device):
    """Found by fuzzing against PyTorch: a reflected shift of a number that
    does not fit is a DTypeError (it was NumPy's OverflowError); fmax and
    fmin of bools, a bool bound of clamp on numbers, and a bool power of a
    bool tensor (which stays bool) as PyTorch's."""
    u = silt.tensor(np.array([1, 2, 3], np.uint8), device=device)
    b = silt.tensor(np.array([True, False]), device=device)
    for f in (lambda: 256 << u, lambda: -1 >> u, lambda: 2**64 << u, lambda: 2**63 << b):
        with pytest.raises(silt.DTypeError):
            f()
    check(3 << u, np.array([6, 12, 24], np.uint8))
    check(1 >> b, np.array([0, 1], np.int64))
    for name in ("fmax", "fmin"):
        want = np.maximum(b.numpy(), ~b.numpy()) if name == "fmax" else np.minimum(b.numpy(), ~b.numpy())
        check(getattr(silt, name)(b, ~b), want)
    f32 = silt.tensor(np.array([0.5, 2.0], np.float32), device=device)
    check(f32.clamp(min=True), np.array([1.0, 2.0], np.float32))
    check(f32.clamp_max(False), np.array([0.0, 0.0], np.float32))
    i8 = silt.tensor(np.array([3, -1], np.int8), device=device)
    check(i8.clamp_min_(True), np.array([3, 1], np.int8))
    check(i8, np.array([3, 1], np.int8))
    check(b ** True, np.array([True, False]))
    check(b ** False, np.array([True, True]))
    c = b.clone()
    c **= False
    check(c, np.array([True, True]))

"""silt.Fusion: chains of elementwise operations run as one kernel, with the
bits of the operations run one by one, on the host backend and an OpenCL
device."""

import numpy as np
import pytest

import silt

RNG = np.random.default_rng(3)
X = RNG.uniform(-2, 2, (4, 5)).astype(np.float32)
W = RNG.uniform(-2, 2, (4, 5)).astype(np.float32)
B = RNG.uniform(-1, 1, (5,)).astype(np.float32)  # broadcast over rows


def test_a_chain_gives_the_bits_of_its_operations(device):
    x, w, b = (silt.tensor(a, device=device) for a in (X, W, B))
    f = silt.Fusion()
    xv, wv, bv = f.input(x), f.input(w), f.input(b)
    h = f.call("mul", xv, wv)
    s = f.call(silt.ops.add, h, bv)  # by the silt.ops function
    y = f.call("gelu", s)
    out = f.run(y)
    assert isinstance(out, silt.Tensor) and out.device == device
    want = silt.ops.gelu(silt.ops.add(silt.ops.mul(x, w), b))
    np.testing.assert_array_equal(out.numpy(), want.numpy())
    both = f.run(y, s)
    assert isinstance(both, tuple) and len(both) == 2
    np.testing.assert_array_equal(both[1].numpy(), (X * W + B))
    assert "__kernel" in f.source(y)


def test_numbers_scalars_and_arrays(device):
    x = silt.tensor(X, device=device)
    f = silt.Fusion()
    xv = f.input(x)
    bv = f.input(B)  # an array goes to the device of the first input
    s = f.call("add", xv, 0.5)  # a number as a 0-d tensor (add has no scalar parameter)
    c = f.call("clamp", s, -1, 1)  # numbers for clamp's scalar bounds, in the tensors' dtype
    lr = f.call("leaky_relu", f.call("sub", c, bv), f.scalar(0.2))
    e = f.call("elu", lr, f.scalar(1.5, dtype=np.float32))
    got_c, got_e = f.run(c, e)
    want_c = np.clip(X + np.float32(0.5), -1, 1)
    np.testing.assert_array_equal(got_c.numpy(), want_c)
    on = silt.tensor(want_c, device=device)  # the same device: transcendental bits may differ between devices
    want = silt.ops.elu(silt.ops.leaky_relu(silt.ops.sub(on, B), 0.2), 1.5)
    np.testing.assert_array_equal(got_e.numpy(), want.numpy())
    assert got_e.device == device


def test_integer_and_own_operations(device):
    a = RNG.integers(-50, 50, (3, 4)).astype(np.int32)
    b = RNG.integers(1, 7, (3, 4)).astype(np.int32)
    f = silt.Fusion()
    av, bv = f.input(silt.tensor(a, device=device)), f.input(silt.tensor(b, device=device))
    q = f.call("floor_divide", av, bv)
    r = f.call("remainder", av, bv)
    m = f.call("where", f.call("gt", q, 0), q, r)
    got_q, got_r, got_m = f.run(q, r, m)
    np.testing.assert_array_equal(got_q.numpy(), a // b)
    np.testing.assert_array_equal(got_r.numpy(), a % b)
    np.testing.assert_array_equal(got_m.numpy(), np.where(a // b > 0, a // b, a % b))


def test_fusion_errors(device):
    x = silt.tensor(X, device=device)
    f = silt.Fusion()
    xv = f.input(x)
    with pytest.raises(silt.ArgumentError, match="not an elementwise operation"):
        f.call("sum", xv)
    with pytest.raises(silt.ArgumentError, match="no instantiation"):
        f.call("bitwise_and", xv, xv)  # floats
    with pytest.raises(TypeError):
        f.call("add", xv, "one")
    with pytest.raises(TypeError):
        f.call(42, xv)
    with pytest.raises(TypeError):
        f.input(3.0)
    other = silt.Fusion()
    ov = other.input(x)
    with pytest.raises(silt.ArgumentError, match="another"):
        f.call("add", xv, ov)
    with pytest.raises(silt.ArgumentError):
        f.run()
    with pytest.raises(silt.ArgumentError):
        f.run(xv)  # an input is not a result
    with pytest.raises(silt.ArgumentError):
        silt.Fusion().call("add", 1.0, 2.0)
    y = f.call("exp", xv)
    np.testing.assert_allclose(f.run(y).numpy(), np.exp(X), rtol=1e-6)  # still usable


def test_values_record_calls_with_operators_and_methods(device):
    x, w = (silt.tensor(a, device=device) for a in (X, W))
    f = silt.Fusion()
    xv, wv = f.input(x), f.input(w)
    assert xv.fusion is f and xv.dtype == np.float32
    y = ((xv * wv) + 0.5).relu()  # as the tensors' operators, recorded
    z = (2 - xv) / wv ** 2
    m = (xv > 0) & (wv <= 1) | ~(xv == wv)
    got_y, got_z, got_m = f.run(y, z, m)
    np.testing.assert_array_equal(got_y.numpy(), np.maximum(X * W + np.float32(0.5), 0))
    np.testing.assert_array_equal(got_z.numpy(), (silt.tensor(2 - X, device=device) / (w ** 2)).numpy())
    np.testing.assert_array_equal(got_m.numpy(), (X > 0) & (W <= 1) | ~(X == W))
    a = RNG.integers(-50, 50, (4, 5)).astype(np.int32)
    iv = f.input(a)
    outs = f.run(iv // 3, iv % -3, iv / 4, iv ** 2, -iv, abs(iv), ~iv, iv & 6, iv.clamp(-5, 5), iv.to_f32())
    wants = [a // 3, a % -3, (a / 4).astype(np.float32), a ** 2, -a, abs(a), ~a, a & 6, np.clip(a, -5, 5), a.astype(np.float32)]
    for got, want in zip(outs, wants):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(silt.ArgumentError):
        xv + iv  # no promotion inside a chain: one dtype per call
    with pytest.raises(AttributeError):
        xv._private
    with pytest.raises(TypeError):
        xv + "a"
    # as the tensors' operators: no integer to a negative power, and no
    # truth value for a value whose elements do not exist yet
    with pytest.raises(ValueError, match="negative integer powers"):
        iv ** -1
    with pytest.raises(TypeError, match="no truth value"):
        bool(xv > 0)
    with pytest.raises(TypeError, match="no truth value"):
        if xv:
            pass


def test_one_fusion_from_several_threads(device):
    import threading

    x = silt.tensor(RNG.uniform(-1, 1, (256, 256)).astype(np.float32), device=device)
    f = silt.Fusion()
    y = f.input(x).exp() * 2.0
    want = f.run(y).numpy()
    errors = []

    def work():
        try:
            for _ in range(10):
                np.testing.assert_array_equal(f.run(y).numpy(), want)
                f.call("add", y, 1.0)  # records while other threads run
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "deadlock"
    assert not errors, errors


def test_numbers_take_a_non_bool_values_dtype_and_pow_of_integers(device):
    x = silt.tensor(np.array([-1.0, 2.0, 0.5], np.float32), device=device)
    f = silt.Fusion()
    xv = f.input(x)
    got = f.run(f.call("where", xv > 0, xv, 0.0))
    np.testing.assert_array_equal(got.numpy(), silt.ops.where(x > 0, x, 0.0).numpy())
    i = silt.tensor(np.array([1, 2, 3], np.int32), device=device)
    f = silt.Fusion()
    iv = f.input(i)
    a, b = f.call(silt.ops.pow, iv, 2), f.call("pow", iv, 3)
    got_a, got_b = f.run(a, b)
    assert got_a.dtype == np.int32
    np.testing.assert_array_equal(got_a.numpy(), silt.ops.pow(i, 2).numpy())
    np.testing.assert_array_equal(got_b.numpy(), [1, 8, 27])


def test_values_methods_are_the_tensors_where_names_meet(device):
    # where, div, clamp and pow take the tensors' methods' arguments and meaning
    b = silt.tensor([True, False, True, False], device=device)
    c = silt.tensor([True, True, False, False], device=device)
    i = silt.tensor(np.array([-7, 5, 0], np.int32), device=device)
    h = silt.tensor(np.array([-7.5, 5.25, 1e4], np.float16), device=device)
    x = silt.tensor(X, device=device)
    cases = [
        ((b, c), lambda b, c: b.where(c, True)),
        ((x,), lambda x: x.where(x > 0, 0.5)),
        ((i,), lambda i: i.div(2)),
        ((i,), lambda i: i.div(i)),  # 0 / 0 is NaN, not an integer 0
        ((i,), lambda i: i.div(2, rounding_mode="trunc")),
        ((i,), lambda i: i.div(2, rounding_mode="floor")),
        ((h,), lambda h: h.div(3, rounding_mode="trunc")),
        ((x,), lambda x: x.div(0.3, rounding_mode="trunc")),
        ((x,), lambda x: x.clamp(float("nan"), 1.0)),
        ((x,), lambda x: x.clamp(None, 1.0)),
        ((x,), lambda x: x.clamp(0.0)),
        ((x,), lambda x: x.clamp(x * 0.5, x * 0 + 1)),
        ((i,), lambda i: i.clamp(None, 1)),
        ((i,), lambda i: i.clamp(-3)),
        ((x,), lambda x: x.pow(2.0)),
        ((i,), lambda i: i.pow(2)),
    ]
    for k, (inputs, fn) in enumerate(cases):
        f = silt.Fusion()
        got, want = f.run(fn(*(f.input(t) for t in inputs))), fn(*inputs)
        assert got.dtype == want.dtype, (k, got.dtype, want.dtype)
        np.testing.assert_array_equal(got.numpy(), want.numpy(), err_msg=str(k))
    f = silt.Fusion()
    iv, xv = f.input(i), f.input(x)
    with pytest.raises(ValueError):
        iv.pow(-1)
    with pytest.raises(silt.ArgumentError):
        xv.clamp()
    with pytest.raises(silt.ArgumentError):
        xv.div(2, rounding_mode="up")
    # an array or a tensor beside a value is refused, not made an array of values
    for other in (np.ones(X.shape, np.float32), x):
        with pytest.raises(TypeError, match="Fusion.input"):
            xv + other
        with pytest.raises(TypeError):
            other * xv

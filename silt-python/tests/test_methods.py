"""silt.Tensor's methods named as PyTorch's (reductions, scans, elementwise
operations, conversions, in-place fills) against NumPy, on the host backend
and an OpenCL device."""

import math

import numpy as np
import pytest

import silt

RNG = np.random.default_rng(5)
X = (RNG.uniform(-3, 3, (3, 4)) + 0.01).astype(np.float32)
POS = np.abs(X) + 0.25
I = RNG.integers(-9, 9, (3, 4)).astype(np.int32)
B = RNG.random((3, 4)) < 0.5
W = RNG.uniform(-1, 2, (3, 4)).astype(np.float32)  # lerp weights on both sides of 0.5
X16, P16, W16 = (f.astype(np.float16).astype(np.float32) for f in (X, POS, W))
# X.scatter(0, [[2, 0, 1, 2]], X + 100): row index[0][j] of column j takes (X + 100)[0][j]
SCATTERED = X.copy()
SCATTERED[[2, 0, 1, 2], [0, 1, 2, 3]] = X[0] + 100


def check(got, want, tol=1e-5):
    want = np.asarray(want)
    assert isinstance(got, silt.Tensor)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


def f64(a):
    return a.astype(np.float64)


# (method call on a tensor, input, NumPy's result with PyTorch's dtype)
METHODS = {
    "sum": (lambda t: t.sum(), X, np.float32(f64(X).sum())),
    "sum dim keepdim": (lambda t: t.sum(dim=1, keepdim=True), X, f64(X).sum(1, keepdims=True).astype(np.float32)),
    "sum int": (lambda t: t.sum(0), I, I.astype(np.int64).sum(0)),
    "sum bool": (lambda t: t.sum(), B, np.int64(B.sum())),
    "sum dtype": (lambda t: t.sum(dtype=np.float64), I, f64(I).sum()),
    "prod": (lambda t: t.prod(1), I, I.astype(np.int64).prod(1)),
    "mean": (lambda t: t.mean(dim=(0, 1)), X, np.float32(f64(X).mean())),
    "mean dtype": (lambda t: t.mean(0, dtype=np.float32), I, I.mean(0).astype(np.float32)),
    "max": (lambda t: t.max(), X, X.max()),
    "min": (lambda t: t.min(), I, np.int32(I.min())),
    "amax": (lambda t: t.amax(1), X, X.max(1)),
    "amin": (lambda t: t.amin(dim=0, keepdim=True), X, X.min(0, keepdims=True)),
    "argmax": (lambda t: t.argmax(), X, np.int64(X.argmax())),
    "argmin": (lambda t: t.argmin(1), X, X.argmin(1)),
    "all": (lambda t: t.all(1), I % 4, (I % 4).all(1)),
    "any": (lambda t: t.any(), B, np.bool_(B.any())),
    "count_nonzero": (lambda t: t.count_nonzero(0), I % 3, np.count_nonzero(I % 3, 0)),
    "var": (lambda t: t.var(), X, np.float32(f64(X).var(ddof=1))),
    "var correction": (lambda t: t.var(1, correction=0), X, f64(X).var(1).astype(np.float32)),
    "std unbiased": (lambda t: t.std(0, unbiased=False, keepdim=True), X, f64(X).std(0, keepdims=True).astype(np.float32)),
    "norm": (lambda t: t.norm(), X, np.float32(np.linalg.norm(f64(X)))),
    "logsumexp": (lambda t: t.logsumexp(1), X, np.log(np.exp(f64(X)).sum(1)).astype(np.float32)),
    "cumsum": (lambda t: t.cumsum(1), X, f64(X).cumsum(1).astype(np.float32)),
    "cumsum int": (lambda t: t.cumsum(0), I, I.astype(np.int64).cumsum(0)),
    "cumprod": (lambda t: t.cumprod(-1), X, f64(X).cumprod(-1).astype(np.float32)),
    "softmax": (lambda t: t.softmax(1), X, (np.exp(f64(X)) / np.exp(f64(X)).sum(1, keepdims=True)).astype(np.float32)),
    "log_softmax": (lambda t: t.log_softmax(0), X, (f64(X) - np.log(np.exp(f64(X)).sum(0, keepdims=True))).astype(np.float32)),
    "exp": (lambda t: t.exp(), X, np.exp(X)),
    "exp int": (lambda t: t.exp(), I, np.exp(I).astype(np.float32)),  # PyTorch: integers in float32
    "sqrt": (lambda t: t.sqrt(), POS, np.sqrt(POS)),
    "log": (lambda t: t.log(), POS, np.log(POS)),
    "sin": (lambda t: t.sin(), X, np.sin(X)),
    "tanh": (lambda t: t.tanh(), X, np.tanh(X)),
    "sigmoid": (lambda t: t.sigmoid(), X, (1 / (1 + np.exp(-f64(X)))).astype(np.float32)),
    "relu": (lambda t: t.relu(), X, np.maximum(X, 0)),
    "relu int": (lambda t: t.relu(), I, np.maximum(I, 0)),
    "abs": (lambda t: t.abs(), I, np.abs(I)),
    "neg": (lambda t: t.neg(), X, -X),
    "neg unsigned": (lambda t: t.neg(), np.abs(I).astype(np.uint16), -np.abs(I).astype(np.uint16)),
    "abs bool": (lambda t: t.abs(), B, B),
    "bitwise_not bool": (lambda t: t.bitwise_not(), B, ~B),
    "sign": (lambda t: t.sign(), X, np.sign(X)),
    "square": (lambda t: t.square(), I, np.square(I)),
    "reciprocal": (lambda t: t.reciprocal(), POS, 1 / POS),
    "floor": (lambda t: t.floor(), X, np.floor(X)),
    "floor int": (lambda t: t.floor(), I, I),
    "round": (lambda t: t.round(), X * 2, np.round(X * 2)),
    "isnan": (lambda t: t.isnan(), np.array([np.nan, 1.0], np.float32), np.array([True, False])),
    "isfinite int": (lambda t: t.isfinite(), I, np.ones(I.shape, bool)),
    "logical_not": (lambda t: t.logical_not(), B, ~B),
    "bitwise_not": (lambda t: t.bitwise_not(), I, ~I),
    "add": (lambda t: t.add(1), I, I + 1),
    "sub": (lambda t: t.sub(X), I, (I - X).astype(np.float32)),
    "mul": (lambda t: t.mul(2.5), X, X * np.float32(2.5)),
    "div": (lambda t: t.div(2), I, (I / 2).astype(np.float32)),
    "floor_divide": (lambda t: t.floor_divide(4), I, I // 4),
    "remainder": (lambda t: t.remainder(4), I, I % 4),
    "fmod": (lambda t: t.fmod(4), I, np.fmod(I, 4)),
    "pow": (lambda t: t.pow(2), X, X ** 2),
    "maximum": (lambda t: t.maximum(X[0]), X, np.maximum(X, X[0])),
    "minimum": (lambda t: t.minimum(0), I, np.minimum(I, 0)),
    "atan2": (lambda t: t.atan2(POS), X, np.arctan2(X, POS)),
    # PyTorch's float ops on integers and bool: float32
    "atan2 int": (lambda t: t.atan2(t), I, np.arctan2(I, I).astype(np.float32)),
    "copysign int": (lambda t: t.copysign(-1), I, np.copysign(I, -1).astype(np.float32)),
    "copysign bool": (lambda t: t.copysign(t), B, B.astype(np.float32)),
    "eq": (lambda t: t.eq(0), I, I == 0),
    "lt": (lambda t: t.lt(X.T.copy().T), X, X < X),
    "ge": (lambda t: t.ge(1.5), X, X >= 1.5),
    "logical_and": (lambda t: t.logical_and(B), I, (I != 0) & B),
    "logical_or": (lambda t: t.logical_or(False), B, B),
    "bitwise_xor": (lambda t: t.bitwise_xor(5), I, I ^ 5),
    "clamp": (lambda t: t.clamp(-1, 2), X, np.clip(X, -1, 2)),
    "clamp max only": (lambda t: t.clamp(max=0), I, np.minimum(I, 0)),
    # a float bound on integers: float32, as PyTorch's
    "clamp int float": (lambda t: t.clamp(0.5, 2.5), I, np.clip(I, 0.5, 2.5).astype(np.float32)),
    "clamp int max float": (lambda t: t.clamp(max=1.5), I, np.minimum(I, 1.5).astype(np.float32)),
    "clip": (lambda t: t.clip(min=0.5), X, np.maximum(X, 0.5)),
    "where": (lambda t: t.where(B, 0.0), X, np.where(B, X, 0).astype(np.float32)),
    "lerp": (lambda t: t.lerp(POS, 0.25), X, X + np.float32(0.25) * (POS - X)),
    "addcmul": (lambda t: t.addcmul(I, I, value=2), I, I + 2 * I * I),
    "astype": (lambda t: t.astype(np.int16), X, X.astype(np.int16)),
    "astype name": (lambda t: t.astype("float64"), I, I.astype(np.float64)),
    "astype bool": (lambda t: t.astype(bool), I, I != 0),
    "astype from bool": (lambda t: t.astype(np.float32), B, B.astype(np.float32)),
    "float": (lambda t: t.float(), I, I.astype(np.float32)),
    "double": (lambda t: t.double(), X, X.astype(np.float64)),
    "half": (lambda t: t.half(), X, X.astype(np.float16)),
    "int": (lambda t: t.int(), X, X.astype(np.int32)),
    "long": (lambda t: t.long(), B, B.astype(np.int64)),
    "bool": (lambda t: t.bool(), I, I != 0),
    "to dtype": (lambda t: t.to(dtype=np.float64), X, X.astype(np.float64)),
    "to dtype first": (lambda t: t.to(np.uint8), np.abs(I), np.abs(I).astype(np.uint8)),
    "contiguous": (lambda t: t.T.contiguous(), X, X.T),
    "clone": (lambda t: t.clone(), I, I),
    # PyTorch's max(other) and min(other): the elementwise extremes
    "max other": (lambda t: t.max(X[0]), X, np.maximum(X, X[0])),
    "min other": (lambda t: t.min(silt.tensor(I[1:2], device=t.device)), I, np.minimum(I, I[1:2])),
    # tensor bounds broadcast and promote
    "clamp tensors": (lambda t: t.clamp(X[0], X[0] + 1), X, np.minimum(np.maximum(X, X[0]), X[0] + 1)),
    "clamp int tensor float": (lambda t: t.clamp(min=X[:, :1]), I, np.maximum(I, X[:, :1]).astype(np.float32)),
    "clamp max tensor": (lambda t: t.clamp(max=I[0]), I, np.minimum(I, I[0])),
    # PyTorch's two forms, by |weight| < 0.5
    "lerp tensor": (lambda t: t.lerp(POS, W), X, np.where(np.abs(W) < 0.5, X + W * (POS - X), POS - (POS - X) * (1 - W))),
    "lerp f16 tensor": (
        lambda t: t.half().lerp(POS.astype(np.float16), W.astype(np.float16)), X,
        np.where(np.abs(f64(W16)) < 0.5, X16 + W16 * (P16 - X16), P16 - (P16 - X16) * (1 - W16)).astype(np.float16),
    ),
    "matmul": (lambda t: t.matmul(X.T), X, (f64(X) @ f64(X).T).astype(np.float32)),
    "matmul int float": (lambda t: t.matmul(X.T), I, (f64(I) @ f64(X).T).astype(np.float32)),
    "argsort": (lambda t: t.argsort(1, descending=True), I, np.argsort(-I, 1, kind="stable")),
    "index_select": (lambda t: t.index_select(1, np.array([3, 0, 3])), X, X[:, [3, 0, 3]]),
    "gather": (lambda t: t.gather(0, np.array([[2, 0, 1, 1]])), I, np.take_along_axis(I, np.array([[2, 0, 1, 1]]), 0)),
    "scatter_add": (
        lambda t: t.scatter_add(1, np.array([[0, 0], [3, 1], [2, 2]]), np.ones((3, 2), np.int32)), I,
        I + np.array([[2, 0, 0, 0], [0, 1, 0, 1], [0, 0, 2, 0]], np.int32),
    ),
    "take": (lambda t: t.take(np.array([[-1, 0], [5, 5]])), X, X.reshape(-1)[[[-1, 0], [5, 5]]]),
    "bincount": (lambda t: t.reshape(-1).bincount(minlength=20), np.abs(I).astype(np.int64), np.bincount(np.abs(I).reshape(-1), minlength=20)),
    "bincount weights": (lambda t: t.bincount(X[0]), np.array([1, 1, 0, 3]), np.bincount([1, 1, 0, 3], f64(X[0])).astype(np.float32)),
    "histc": (lambda t: t.histc(4, -3, 3), X, np.histogram(X, 4, (-3, 3))[0].astype(np.float32)),
    "unsqueeze": (lambda t: t.unsqueeze(1), X, X[:, None]),
    "unsqueeze last of a transpose": (lambda t: t.T.unsqueeze(-1), X, X.T[..., None]),
    "squeeze": (lambda t: t[None, :, None, 1:2].squeeze(), I, I[:, 1]),
    "squeeze dims": (lambda t: t[None, :, 1:2].squeeze((0, 1)), I, I[:, 1:2]),
    "flatten": (lambda t: t[None].flatten(1), X, X.reshape(1, -1)),
    "flatten a transpose": (lambda t: t.T.flatten(), X, X.T.reshape(-1)),
    "expand": (lambda t: t[:, :1].expand(-1, 5), I, np.broadcast_to(I[:, :1], (3, 5))),
    "expand new": (lambda t: t.expand(2, -1, 4), X, np.broadcast_to(X, (2, 3, 4))),
    "view": (lambda t: t.view(2, -1), I, I.reshape(2, 6)),
    "reshape a transpose": (lambda t: t.T.reshape(-1, 2), X, X.T.reshape(-1, 2)),
    "masked_fill": (lambda t: t.masked_fill(B, -1.5), X, np.where(B, np.float32(-1.5), X)),
    "masked_fill broadcast": (lambda t: t.masked_fill(B[0], 7), I, np.where(B[0], 7, I).astype(np.int32)),
    "flip": (lambda t: t.flip(0, -1), X, X[::-1, ::-1]),
    "flip list": (lambda t: t.T.flip([1]), I, I.T[:, ::-1]),
    "repeat": (lambda t: t.repeat(2, 1, 3), I, np.tile(I, (2, 1, 3))),
    "repeat strided": (lambda t: t.T[::2].repeat(1, 2), X, np.tile(X.T[::2], (1, 2))),
    "mm": (lambda t: t.mm(X.T), X, (f64(X) @ f64(X).T).astype(np.float32)),
    "bmm": (lambda t: t[None].bmm(X.T[None]), X, (f64(X) @ f64(X).T)[None].astype(np.float32)),
    "mv": (lambda t: t.mv(X[0]), X, (f64(X) @ f64(X[0])).astype(np.float32)),
    "dot": (lambda t: t[0].dot(I[1]), I, np.int32(I[0] @ I[1])),
    "tril": (lambda t: t.tril(), X, np.tril(X)),
    "triu diagonal": (lambda t: t[None].triu(1), I, np.triu(I, 1)[None]),
    "tril negative": (lambda t: t.tril(-1), B, np.tril(B, -1)),
    "isclose": (lambda t: t.isclose(X + np.float32(1e-6) * (np.arange(12).reshape(3, 4) % 3)), X,
                np.isclose(X, X + np.float32(1e-6) * (np.arange(12).reshape(3, 4) % 3))),
    "isclose int": (lambda t: t.isclose(I + B, rtol=0, atol=0.5), I, np.isclose(I, I + B, rtol=0, atol=0.5)),
    "type_as": (lambda t: t.type_as(silt.tensor(X)), I, I.astype(np.float32)),
    "new_tensor": (lambda t: t.new_tensor([1, 2]), X, np.array([1, 2], np.float32)),
    "new_full": (lambda t: t.new_full((2,), 3), I, np.array([3, 3], np.int32)),
    "new_ones": (lambda t: t.new_ones(2, 1, dtype=np.int8), X, np.ones((2, 1), np.int8)),
    "index_fill": (lambda t: t.index_fill(1, [0, 2], -1), X, np.where(np.isin(np.arange(4), [0, 2]), np.float32(-1), X)),
    "index_copy": (lambda t: t.index_copy(0, np.array([2, 0]), I[:2]), I, np.stack([I[1], I[1], I[0]])),
    "index_add": (lambda t: t.index_add(1, [3, 3, 0], I[:, :3], alpha=2), I, I + 2 * np.stack([I[:, 2], 0 * I[:, 0], 0 * I[:, 0], I[:, 0] + I[:, 1]], 1)),
    "scatter": (lambda t: t.scatter(0, np.array([[2, 0, 1, 2]]), X + 100), X, SCATTERED),
    "scatter value": (lambda t: t.scatter(1, np.array([[3], [0], [1]]), value=0), I, np.where(np.array([[0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]]) == 1, 0, I).astype(np.int32)),
    "roll": (lambda t: t.roll((1, -1), (0, 1)), X, np.roll(X, (1, -1), (0, 1))),
    "roll flat": (lambda t: t.roll(5), I, np.roll(I, 5)),
    "nonzero": (lambda t: t.nonzero(), I % 3, np.argwhere(I % 3)),
    "argwhere": (lambda t: t.argwhere(), B, np.argwhere(B)),
    "unique": (lambda t: t.unique(), I % 4, np.unique(I % 4)),
    "t": (lambda t: t.t(), X, X.T),
    "expand_as": (lambda t: t[:1].expand_as(silt.tensor(X)), X, np.broadcast_to(X[:1], X.shape)),
    "view_as": (lambda t: t.view_as(silt.tensor(X.reshape(2, 6))), I, I.reshape(2, 6)),
    "clamp_min": (lambda t: t.clamp_min(0.5), X, np.maximum(X, np.float32(0.5))),
    "clamp_max": (lambda t: t.clamp_max(-1), I, np.minimum(I, -1)),
    # bools are ordered False < True, as PyTorch's
    "argmax bool": (lambda t: t.argmax(1), B, B.argmax(1)),
    "argmin bool": (lambda t: t.argmin(), B, np.int64(B.argmin())),
    "max bool values": (lambda t: t.max(0).values, B, B.max(0)),
    "min bool indices": (lambda t: t.min(1, keepdim=True).indices, B, B.argmin(1)[:, None]),
    "cummax bool": (lambda t: t.cummax(1).values, B, np.maximum.accumulate(B, 1)),
    "cummin bool": (lambda t: t.cummin(0).values, B, np.minimum.accumulate(B, 0)),
    "unique dim": (lambda t: t.unique(dim=0), np.array([[1, 2], [0, 5], [1, 2]], np.int32), np.array([[0, 5], [1, 2]], np.int32)),
    "unique dim 1": (lambda t: t.unique(dim=-1), np.array([[1, 0, 1], [3, 3, 3]], np.int16), np.array([[0, 1], [3, 3]], np.int16)),
    # view(dtype): the same bytes, nothing converted
    "view dtype": (lambda t: t.view(np.uint32), X, X.view(np.uint32)),
    "view smaller": (lambda t: t[1:].view("uint8"), I, I[1:].view(np.uint8)),
    "view larger": (lambda t: t[:, 2:].view(np.int64), I, np.ascontiguousarray(I[:, 2:]).view(np.int64)),
    "view of bool": (lambda t: t.view(np.int8), B, B.view(np.int8)),
    "asinh": (lambda t: t.asinh(), X, np.arcsinh(X)),
    "acosh int": (lambda t: t.acosh(), np.abs(I) + 1, np.arccosh(np.abs(I) + 1).astype(np.float32)),
    "atanh": (lambda t: t.atanh(), X / 4, np.arctanh(f64(X / 4)).astype(np.float32)),
    "erfc": (lambda t: t.erfc(), X, np.float32(1) - np.vectorize(math.erf)(f64(X)).astype(np.float32)),
    "logcumsumexp": (lambda t: t.logcumsumexp(0), X, np.logaddexp.accumulate(f64(X), 0).astype(np.float32)),
    "logcumsumexp far apart": (lambda t: t.logcumsumexp(-1), np.float32([[-1000, 0, -np.inf, 1000]]),
                               np.float32([[-1000, 0, 0, 1000]])),
    # other names
    "absolute": (lambda t: t.absolute(), I, np.abs(I)),
    "arctan2": (lambda t: t.arctan2(X.T[:4, :3].T.copy()), X, np.arctan2(X, X.T[:4, :3].T)),
    "arcsinh": (lambda t: t.arcsinh(), X, np.arcsinh(X)),
    "divide": (lambda t: t.divide(2), I, (I / 2).astype(np.float32)),
    "greater_equal": (lambda t: t.greater_equal(0), I, I >= 0),
    "not_equal": (lambda t: t.not_equal(I.T.reshape(3, 4)), I, I != I.T.reshape(3, 4)),
    "fix": (lambda t: t.fix(), X, np.trunc(X)),
    "sgn": (lambda t: t.sgn(), X, np.sign(X)),
    "short": (lambda t: t.short(), I, I.astype(np.int16)),
    "byte": (lambda t: t.byte(), np.abs(I), np.abs(I).astype(np.uint8)),
    "ravel": (lambda t: t.T.ravel(), X, X.T.ravel()),
    # elementwise, composed
    "deg2rad": (lambda t: t.deg2rad(), I, np.deg2rad(I).astype(np.float32)),
    "rad2deg": (lambda t: t.rad2deg(), X, np.rad2deg(X)),
    "logaddexp": (lambda t: t.logaddexp(X[::-1].copy()), X, np.logaddexp(f64(X), f64(X[::-1])).astype(np.float32)),
    "logaddexp2": (lambda t: t.logaddexp2(1.5), X, np.logaddexp2(f64(X), 1.5).astype(np.float32)),
    "xlogy": (lambda t: t.xlogy(POS), np.where(B, 0, X), np.where(B, 0, X * np.log(POS)).astype(np.float32)),
    "heaviside": (lambda t: t.heaviside(np.int32(7)), I, np.heaviside(I, 7).astype(np.int32)),
    "signbit": (lambda t: t.signbit(), np.where(B, -0.0, X).astype(np.float32), np.signbit(np.where(B, -0.0, X))),
    "signbit int": (lambda t: t.signbit(), I, I < 0),
    "sinc": (lambda t: t.sinc(), X, np.sinc(f64(X)).astype(np.float32)),
    "float_power": (lambda t: t.float_power(2), I, f64(I) ** 2),
    "logit": (lambda t: t.logit(), POS / 4, np.log(f64(POS / 4) / (1 - f64(POS / 4))).astype(np.float32)),
    "logit eps": (lambda t: t.logit(0.25), X, np.log(np.clip(X, 0.25, 0.75) / (1 - np.clip(X, 0.25, 0.75)))),
    # shapes
    "fliplr": (lambda t: t.fliplr(), X, np.fliplr(X)),
    "flipud": (lambda t: t.flipud(), I, np.flipud(I)),
    "rot90": (lambda t: t.rot90(), X, np.rot90(X)),
    "rot90 back": (lambda t: t[None].rot90(-1, (2, 0)), I, np.rot90(I[None], -1, (2, 0))),
    "select": (lambda t: t.select(1, -2), X, X[:, -2]),
    "unflatten": (lambda t: t.unflatten(1, (2, -1)), X, X.reshape(3, 2, 2)),
    "take_along_dim": (lambda t: t.take_along_dim(np.argsort(X, 1), 1), X, np.take_along_axis(X, np.argsort(X, 1), 1)),
    "take_along_dim broadcast": (lambda t: t.take_along_dim(np.array([[0, 3]]), 1), X, np.take_along_axis(X, np.broadcast_to([[0, 3]], (3, 2)), 1)),
    "take_along_dim flat": (lambda t: t.take_along_dim(np.array([11, 0])), I, I.ravel()[[11, 0]]),
    "repeat_interleave": (lambda t: t.repeat_interleave(2), I, np.repeat(I, 2)),
    "repeat_interleave dim": (lambda t: t.repeat_interleave(np.array([0, 2, 1]), dim=0), X, np.repeat(X, [0, 2, 1], 0)),
    # products
    "inner": (lambda t: t.inner(X[:2]), X, (f64(X) @ f64(X[:2]).T).astype(np.float32)),
    "vdot": (lambda t: t[0].vdot(I[1]), I, np.int32(np.vdot(I[0], I[1]))),
    "kron": (lambda t: t[:2, :2].kron(I[:2, :3]), X, np.kron(X[:2, :2], I[:2, :3]).astype(np.float32)),
    "cross": (lambda t: t[:, :3].cross(X[::-1, 1:].copy()), X, np.cross(X[:, :3], X[::-1, 1:], axis=0)),
    "cross dim": (lambda t: t[:, :3].cross(X[:1, 1:], dim=1), X, np.cross(X[:, :3], X[:1, 1:])),
    "dist": (lambda t: t.dist(X[::-1].copy()), X, np.float32(np.linalg.norm(f64(X) - f64(X[::-1])))),
    "diag_embed": (lambda t: t.diag_embed(), X, np.stack([np.diag(r) for r in X])),
    "diag_embed offset dims": (lambda t: t.diag_embed(-1, 0, 2), I, np.stack([np.diag(r, -1) for r in I]).transpose(1, 0, 2)),
    "put": (lambda t: t.put(np.array([0, -1, 5]), X[0, :3].copy()), X, np.put(Xc := X.copy(), [0, -1, 5], X[0, :3]) or Xc),
    "index_put accumulate": (lambda t: t.index_put((np.array([0, 2, 0]), np.array([1, 1, 1])), np.float32(1), accumulate=True), X,
                             X + np.array([[0, 2, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0]], np.float32)),
    # composed of the others (_composed.py)
    "movedim": (lambda t: t[None].movedim(0, -1), X, np.moveaxis(X[None], 0, -1)),
    "movedim many": (lambda t: t.reshape(1, 3, 2, 2).movedim((0, 1), (3, 0)), I, np.moveaxis(I.reshape(1, 3, 2, 2), (0, 1), (3, 0))),
    "moveaxis": (lambda t: t.moveaxis(-1, 0), B, np.moveaxis(B, -1, 0)),
    "swapaxes": (lambda t: t.swapaxes(0, 1), X, X.swapaxes(0, 1)),
    "swapdims": (lambda t: t[None].swapdims(2, 0), I, I[None].swapaxes(2, 0)),
    "diagonal": (lambda t: t.diagonal(), X, np.diagonal(X)),
    "diagonal offset": (lambda t: t.diagonal(2), I, np.diagonal(I, 2)),
    "diagonal below": (lambda t: t.diagonal(-1, 1, 0), X, np.diagonal(X, -1, 1, 0)),
    "diagonal 3-d": (lambda t: t.reshape(3, 2, 2).diagonal(0, -1, 0), I, np.diagonal(I.reshape(3, 2, 2), 0, -1, 0)),
    "diagonal past": (lambda t: t.diagonal(4), X, np.diagonal(X, 4)),
    "diag": (lambda t: t.diag(-1), X, np.diag(X, -1)),
    "diag of 1-d": (lambda t: t[1].diag(1), I, np.diag(I[1], 1)),
    "trace": (lambda t: t.trace(), I, np.int64(np.trace(I))),
    "trace float": (lambda t: t.T.trace(), X, np.float32(np.trace(f64(X)))),
    "tile": (lambda t: t.tile(2), X, np.tile(X, 2)),
    "tile more": (lambda t: t.tile((2, 1, 3)), I, np.tile(I, (2, 1, 3))),
    "outer": (lambda t: t[0].outer(I[1]), X, np.outer(X[0], I[1]).astype(np.float32)),
    "outer int": (lambda t: t[:, 0].outer(t[0]), I, np.outer(I[:, 0], I[0])),
    "diff": (lambda t: t.diff(), X, np.diff(X)),
    "diff twice dim 0": (lambda t: t.diff(2, 0), I, np.diff(I, 2, 0)),
    "diff bool": (lambda t: t.diff(dim=0), B, np.diff(B, axis=0)),
    "diff prepend append": (lambda t: t.diff(1, 1, prepend=I[:, :1], append=I[:, :2]), I, np.diff(I, 1, 1, prepend=I[:, :1], append=I[:, :2])),
    "median": (lambda t: t.median(), X, np.sort(X.ravel())[(X.size - 1) // 2]),
    "median dim": (lambda t: t.median(1).values, X, np.sort(X, 1)[:, 1]),
    "median indices": (lambda t: t.median(0, keepdim=True).indices, X, np.argsort(X, 0, kind="stable")[1:2]),
    "median int": (lambda t: t.median(1).values, I, np.sort(I, 1)[:, 1]),
    "nanmedian": (lambda t: t.nanmedian(), X, np.sort(X.ravel())[(X.size - 1) // 2]),
    "kthvalue": (lambda t: t.kthvalue(3).values, X, np.sort(X, -1)[:, 2]),
    "kthvalue indices keepdim": (lambda t: t.kthvalue(1, 0, keepdim=True).indices, X, X.argmin(0)[None]),
    "quantile": (lambda t: t.quantile(0.3), X, np.float32(np.quantile(X, 0.3))),
    "quantile dim": (lambda t: t.quantile(np.array([0.1, 0.5, 1.0]), dim=1), X, np.quantile(X, [0.1, 0.5, 1.0], axis=1).astype(np.float32)),
    "quantile keepdim": (lambda t: t.quantile(silt.tensor([0.2, 0.7]), 0, keepdim=True), X, np.quantile(X, [0.2, 0.7], axis=0, keepdims=True).astype(np.float32)),
    "quantile all keepdim": (lambda t: t.quantile(np.array([0.6]), keepdim=True), X, np.quantile(X, [0.6], keepdims=True).astype(np.float32)),
    "quantile lower": (lambda t: t.quantile(0.4, 1, interpolation="lower"), X, np.quantile(X, 0.4, axis=1, method="lower")),
    "quantile higher": (lambda t: t.quantile(0.4, 1, interpolation="higher"), X, np.quantile(X, 0.4, axis=1, method="higher")),
    "quantile midpoint": (lambda t: t.quantile(0.4, 0, interpolation="midpoint"), X, np.quantile(f64(X), 0.4, axis=0, method="midpoint").astype(np.float32)),
    "quantile nearest": (lambda t: t.quantile(0.4, 1, interpolation="nearest"), X, np.quantile(X, 0.4, axis=1, method="nearest")),
    "nanquantile": (lambda t: t.nanquantile(np.array([0.1, 0.5, 0.9]), dim=1), np.where(B, np.nan, X),
                    np.nanquantile(np.where(B, np.nan, f64(X)), [0.1, 0.5, 0.9], axis=1).astype(np.float32)),
    "nanquantile all nan row": (lambda t: t.nanquantile(0.5, 0, keepdim=True, interpolation="midpoint"),
                                np.float32([[1, np.nan, np.nan], [3, np.nan, 2], [np.nan, np.nan, 5], [4, np.nan, 1]]),
                                np.float32([[3, np.nan, 2]])),
    "nanquantile lower": (lambda t: t.nanquantile(0.7, interpolation="lower"), np.where(B, np.nan, X),
                          np.float32(np.nanquantile(np.where(B, np.nan, X), 0.7, method="lower"))),
    "nansum": (lambda t: t.nansum(1), np.where(B, np.nan, X), np.nansum(np.where(B, np.nan, f64(X)), 1).astype(np.float32)),
    "nansum int": (lambda t: t.nansum(), I, np.int64(I.sum())),
    "nanmean": (lambda t: t.nanmean(0, keepdim=True), np.where(B, np.nan, X), np.nanmean(np.where(B, np.nan, f64(X)), 0, keepdims=True).astype(np.float32)),
    "nan_to_num": (lambda t: t.nan_to_num(), np.array([np.nan, np.inf, -np.inf, 1.5], np.float32), np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.5], np.float32))),
    "nan_to_num given": (lambda t: t.nan_to_num(1.0, 2.0, -3.0), np.array([np.nan, np.inf, -np.inf, 1.5]), np.array([1.0, 2.0, -3.0, 1.5])),
    "nan_to_num int": (lambda t: t.nan_to_num(), I, I),
    "aminmax min": (lambda t: t.aminmax().min, X, X.min()),
    "aminmax max": (lambda t: t.aminmax(dim=0, keepdim=True).max, I, I.max(0, keepdims=True)),
    "masked_select": (lambda t: t.masked_select(B), X, X[B]),
    "masked_select broadcast": (lambda t: t[0].masked_select(B), I, np.broadcast_to(I[0], B.shape)[B]),
    "addmm": (lambda t: t[:, :3].addmm(t, t.T[:, :3], beta=0.5, alpha=2), X, (0.5 * f64(X[:, :3]) + 2 * (f64(X) @ f64(X.T[:, :3]))).astype(np.float32)),
    "addmm broadcast": (lambda t: t[0, :3].addmm(t, t.T[:, :3], beta=0), I, I @ I.T[:, :3]),
    "addmv": (lambda t: t[:, 0].addmv(t, t[0]), X, (f64(X[:, 0]) + f64(X) @ f64(X[0])).astype(np.float32)),
    "baddbmm": (lambda t: t[None, :, :1].baddbmm(t[None], t.T[None], alpha=-1), I, (I[None, :, :1] - I[None] @ I.T[None])),
}


@pytest.mark.parametrize("name", sorted(METHODS))
def test_method_matches_numpy(device, name):
    call, a, want = METHODS[name]
    got = call(silt.tensor(a, device=device))
    assert got.device == device
    check(got, want, tol=2e-3 if np.asarray(want).dtype == np.float16 else 1e-5)


def test_max_and_min_along_a_dim_give_values_and_indices(device):
    t = silt.tensor(X, device=device)
    values, indices = t.max(dim=1)
    check(values, X.max(1))
    check(indices, X.argmax(1))
    r = t.min(0, keepdim=True)
    assert isinstance(r, silt.ValuesIndices)
    check(r.values, X.min(0, keepdims=True))
    check(r.indices, X.argmin(0)[None, :])
    v, i = t.cummax(1)
    # random floats have no ties: the index of each prefix's maximum
    check(i, np.array([[np.argmax(row[: j + 1]) for j in range(4)] for row in X]))
    check(v, np.maximum.accumulate(X, 1))
    v, i = t.cummin(dim=0)
    check(v, np.minimum.accumulate(X, 0))


def test_conversions_to_python(device):
    t = silt.tensor(I, device=device)
    assert t.tolist() == I.tolist()
    assert t[1, 2].item() == int(I[1, 2])
    assert t.numel() == 12 and t.dim() == 2
    assert t.cpu().device.is_host
    np.testing.assert_array_equal(t.cpu().numpy(), I)


def test_astype_and_to(device, host):
    t = silt.tensor(X, device=device)
    assert t.astype(np.float32, copy=False) is t
    c = t.astype(np.float32)
    assert c is not t and not c.shares_storage(t)
    assert t.to(device) is t
    assert not t.to(device, copy=True).shares_storage(t)
    moved = t.to(host, np.float64)
    assert moved.device == host and moved.dtype == np.float64
    np.testing.assert_array_equal(moved.numpy(), X.astype(np.float64))
    same = silt.tensor(t, dtype=np.int8)
    assert same.device == device and same.dtype == np.int8
    # silt's casts: floats saturate into integers, NaN is 0
    special = silt.tensor(np.array([np.nan, 1e10, -1e10, 2.9, -2.9], np.float32), device=device)
    np.testing.assert_array_equal(special.astype(np.int8).numpy(), [0, 127, -128, 2, -2])
    np.testing.assert_array_equal(special.astype(np.uint16).numpy(), [0, 65535, 0, 2, 0])
    with pytest.raises(TypeError):
        t.astype(np.complex64)


@pytest.mark.parametrize("src", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"])
def test_astype_between_every_pair_of_dtypes(device, src):
    a = np.array([0, 1, 3, 7, 100], dtype=src)
    t = silt.tensor(a, device=device)
    for dst in ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"]:
        got = t.astype(dst)
        assert got.dtype == np.dtype(dst)
        np.testing.assert_array_equal(got.numpy(), a.astype(dst), err_msg=f"{src} -> {dst}")


def test_fill_zero_and_copy(device):
    t = silt.tensor(X.copy(), device=device)
    assert t.fill_(2) is t
    np.testing.assert_array_equal(t.numpy(), np.full(X.shape, 2, np.float32))
    t[0].zero_()
    assert t.numpy()[0].sum() == 0 and t.numpy()[1].sum() == 8
    t.copy_(I)  # converted to the tensor's dtype
    np.testing.assert_array_equal(t.numpy(), I.astype(np.float32))
    t.copy_(silt.tensor(X[0], device="host"))  # broadcast, from another device
    np.testing.assert_array_equal(t.numpy(), np.broadcast_to(X[0], X.shape))
    i = silt.tensor(I.copy(), device=device)
    i.fill_(2.9)  # truncated, as PyTorch
    assert (i.numpy() == 2).all()
    assert i.add_(1) is i and i.mul_(3) is i and i.sub_(1) is i
    np.testing.assert_array_equal(i.numpy(), np.full(I.shape, 8))
    with pytest.raises(silt.DTypeError):
        i.div_(2)
    f = silt.tensor(X.copy(), device=device)
    f.div_(2).pow_(2)
    np.testing.assert_allclose(f.numpy(), (X / 2) ** 2, rtol=1e-6)


def test_method_errors(device):
    t = silt.tensor(X, device=device)
    with pytest.raises(silt.ArgumentError):
        t.sum(dim=5)
    with pytest.raises(silt.ArgumentError):
        t.cumsum(2)
    with pytest.raises(silt.DTypeError):
        silt.tensor(I, device=device).mean()  # PyTorch: floats only
    with pytest.raises(silt.ArgumentError):
        t.max(dim=7)
    # negative counts are argument errors, not Python's OverflowError
    with pytest.raises(silt.ArgumentError, match="negative"):
        t.topk(-1)
    with pytest.raises(silt.ArgumentError, match="negative"):
        silt.ops.topk(t, -2)
    with pytest.raises(silt.ArgumentError, match="length of -1"):
        t.narrow(0, 0, -1)
    # mm, bmm, mv and dot take one dtype, as PyTorch's (`@` promotes)
    for call in (lambda: t.mm(t.T.double()), lambda: t.mv(np.zeros(4)), lambda: t[0].dot(silt.tensor(I[0]))):
        with pytest.raises(silt.DTypeError, match="one dtype"):
            call()
    with pytest.raises(TypeError):
        t.mv([1, 0, 0, 0])  # a list: PyTorch's take tensors
    check(t.mv(np.float32([1, 0, 0, 0])), X[:, 0])
    check(t @ np.zeros(4), np.zeros(3))  # promotion: float64
    with pytest.raises(silt.AxisError):
        t.unique(dim=2)


def test_view_dtype_shares_the_bytes(device):
    t = silt.tensor(X.copy(), device=device)
    bits = t.view(np.int32)
    assert bits.shares_storage(t) and bits.shape == (3, 4)
    bits[0, 0] = np.float32(-1.5).view(np.int32)  # written through the view
    assert t[0, 0].item() == -1.5
    halves = t[:, 2:].view(np.float16)
    assert (halves.shape, halves.strides) == ((3, 4), (8, 1))
    np.testing.assert_array_equal(halves.numpy(), t.numpy()[:, 2:].copy().view(np.float16))
    assert t.view(np.float32) is not t and t.view(np.float32).shares_storage(t)
    for bad, why in ((lambda: t.T.view(np.uint8), "stride"),
                     (lambda: t[:, 1:].view(np.float64), "multiple"),
                     (lambda: t[0, 0].view(np.uint8), "0-d"),
                     (lambda: t.view(np.bool_), "bool")):
        with pytest.raises(silt.ArgumentError, match=why):
            bad()
    assert t.T.view(np.uint32).strides == (1, 4)  # the same size keeps any layout


def test_sort_and_topk_give_values_and_indices(device):
    a = np.array([[3, 1, 2, 1], [0, 5, 5, -1]], np.int16)
    t = silt.tensor(a, device=device)
    r = t.sort()
    assert isinstance(r, silt.ValuesIndices)
    check(r.values, np.sort(a, 1))
    check(r.indices, np.argsort(a, 1, kind="stable"))
    v, i = t.sort(0, descending=True)
    check(v, -np.sort(-a, 0))
    v, i = t.topk(2)
    check(v, np.array([[3, 2], [5, 5]], np.int16))
    check(i, np.array([[0, 2], [1, 2]]))
    v, i = t.topk(1, dim=0, largest=False)
    check(i, np.argmin(a, 0)[None])


def test_scatter_add_in_place(device):
    t = silt.tensor(np.zeros(5, np.float32), device=device)
    got = t.scatter_add_(0, np.array([1, 1, 4]), np.array([0.5, 0.25, 2.0], np.float32))
    assert got is t
    np.testing.assert_array_equal(t.numpy(), [0, 0.75, 0, 0, 2])
    with pytest.raises(ValueError, match="nothing was written"):
        t.scatter_add_(0, np.array([0, 5]), np.ones(2, np.float32))
    np.testing.assert_array_equal(t.numpy(), [0, 0.75, 0, 0, 2])  # nothing written


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "int32", "int64"])
def test_scatter_reduce_against_numpy(device, reduce, include_self, dtype):
    rng = np.random.default_rng(3)
    x = rng.integers(-9, 9, (4, 5)).astype(dtype)
    src = rng.integers(-9, 9, (6, 5)).astype(dtype)
    index = rng.integers(0, 4, (6, 5))
    # NumPy's: the identity where an index lands (without include_self), the
    # elements combined, then the mean's count (rounding down for integers)
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce]
    cols = np.arange(5)[None, :].repeat(6, 0)
    want = x.copy()
    if not include_self:
        info = np.finfo(dtype) if dtype == "float32" else np.iinfo(dtype)
        low, high = (-np.inf, np.inf) if dtype == "float32" else (info.min, info.max)
        want[index, cols] = {"sum": 0, "mean": 0, "prod": 1, "amax": low, "amin": high}[reduce]
    ufunc.at(want, (index, cols), src)
    if reduce == "mean":
        count = np.full(x.shape, int(include_self))
        np.add.at(count, (index, cols), 1)
        count = np.maximum(count, 1)
        want = want / count if dtype == "float32" else want // count
    t = silt.tensor(x, device=device)
    got = t.scatter_reduce(0, index, silt.tensor(src, device=device), reduce, include_self=include_self)
    assert got.dtype == np.dtype(dtype) and got.device == device
    np.testing.assert_allclose(got.numpy(), want.astype(dtype), rtol=1e-6)
    # the function and the in-place form
    np.testing.assert_array_equal(
        silt.scatter_reduce(t, 0, index, src, reduce, include_self=include_self).numpy(), got.numpy())
    assert t.scatter_reduce_(0, index, src, reduce, include_self=include_self) is t
    np.testing.assert_array_equal(t.numpy(), got.numpy())


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_against_numpy(device, reduce, include_self):
    rng = np.random.default_rng(8)
    x = rng.integers(-9, 9, (5, 3)).astype(np.float32)
    source = rng.integers(-9, 9, (5, 4)).astype(np.float32)
    index = np.array([2, 0, 2, 1])  # along dim 1, a repeat
    want = x.copy()
    ufunc = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}[reduce]
    if not include_self:
        want[:, index] = {"prod": 1, "mean": 0, "amax": -np.inf, "amin": np.inf}[reduce]
    rows = np.arange(5)[:, None].repeat(4, 1)
    cols = index[None, :].repeat(5, 0)
    ufunc.at(want, (rows, cols), source)
    if reduce == "mean":
        count = np.full(x.shape, float(include_self))
        np.add.at(count, (rows, cols), 1)
        want = want / np.maximum(count, 1)
    t = silt.tensor(x, device=device)
    got = t.index_reduce(1, index, silt.tensor(source, device=device), reduce, include_self=include_self)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    assert t.index_reduce_(1, index, source, reduce, include_self=include_self) is t
    np.testing.assert_array_equal(t.numpy(), got.numpy())
    with pytest.raises(silt.ArgumentError, match="reduce"):
        t.index_reduce_(1, index, source, "sum")


def test_scatter_reduce_errors(device):
    t = silt.tensor(np.zeros(3, np.float32), device=device)
    with pytest.raises(silt.ArgumentError, match="reduce"):
        t.scatter_reduce(0, np.array([0]), np.ones(1, np.float32), "max")
    with pytest.raises(IndexError, match="scatter_reduce"):
        t.scatter_reduce_(0, np.array([0, 3]), np.ones(2, np.float32), "sum")
    assert not t.numpy().any()  # nothing written


def test_shape_views_share_storage(device):
    t = silt.tensor(X.copy(), device=device)
    for view in (t.unsqueeze(0), t.T.unsqueeze(1), t[:, :1].squeeze(1), t.view(12), t[None, 1:], t[..., None]):
        assert view.shares_storage(t)
    t.T.unsqueeze(1)[2, 0, 1] = 100.0  # through the view: t[1, 2]
    assert t[1, 2].item() == 100.0
    # reshape copies where no view can (PyTorch's), view raises there
    assert not t.T.reshape(12).shares_storage(t)
    with pytest.raises(ValueError, match="without a copy"):
        t.T.view(12)
    for bad in ((-1, -1), (5, -1), (4, 2), (4, 2**62 + 3)):
        with pytest.raises(ValueError):
            t.reshape(*bad)
    # squeeze leaves dimensions that are not 1; a 0-d tensor stays
    assert t.squeeze(0).shape == (3, 4)
    assert silt.tensor(np.float32(2), device=device).squeeze().shape == ()
    with pytest.raises(IndexError):
        t.unsqueeze(3)
    with pytest.raises(IndexError):
        t.squeeze(2)
    with pytest.raises(ValueError):
        t.flatten(1, 0)
    with pytest.raises(ValueError, match="twice"):
        t[None].squeeze((0, -3))
    z = silt.tensor(np.float32(2), device=device)
    assert z.squeeze(-1).shape == () and z.flatten(-1).shape == (1,)
    with pytest.raises(IndexError):
        z.flatten(1)
    assert t[:, 1].flatten(0, 0).shares_storage(t)
    # -1 keeps an existing dimension only
    assert t.broadcast_to(-1, 4).shape == (3, 4)
    with pytest.raises(ValueError):
        t.expand(-1, 3, 4)
    with pytest.raises(ValueError):
        t.expand(-2, 4)
    # as_strided: any view inside the storage
    np.testing.assert_array_equal(t.as_strided([2, 2], [4, 1], 1).numpy(), t.numpy().reshape(-1)[[[1, 2], [5, 6]]])
    with pytest.raises(ValueError):
        t.as_strided([2], [12])
    with pytest.raises(ValueError):
        t.as_strided([4, 2**62 + 3], [0, 0])  # inside the storage, too many elements


# (a view of X's layout, the shape to view it as): PyTorch's view makes each
VIEWS = {
    "every other element": (lambda t: t.reshape(-1)[::2], (2, 3)),
    "a column as a row": (lambda t: t[:, 1:2], (3,)),
    "a transpose as itself": (lambda t: t.T, (4, 3)),
    "a run of columns split": (lambda t: t.reshape(2, 6)[:, :4], (2, 2, 2)),
    "rows merged of a column slice": (lambda t: t[None, :, 1:3], (3, 1, 2)),
    "sizes of one added": (lambda t: t[1:, ::2], (1, 2, 1, 2, 1)),
    "a broadcast": (lambda t: t[:, :1].expand(3, 4), (3, 2, 2)),
    "a transpose of a batch": (lambda t: t.reshape(3, 2, 2).transpose(1, 2), (3, 2, 1, 2)),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_splits_and_merges_runs_of_a_strided_layout(device, name):
    make, shape = VIEWS[name]
    t = silt.tensor(X.copy(), device=device)
    v = make(t)
    assert not v.is_contiguous()
    got = v.view(*shape)
    assert got.shares_storage(t)
    np.testing.assert_array_equal(got.numpy(), v.numpy().reshape(shape))
    np.testing.assert_array_equal(v.reshape(shape).numpy(), v.numpy().reshape(shape))
    assert v.reshape(shape).shares_storage(t)


@pytest.mark.parametrize("make, shape", [
    (lambda t: t.T, (12,)), (lambda t: t[:, 1:3], (6,)), (lambda t: t.reshape(3, 2, 2).transpose(1, 2), (3, 4)),
])
def test_view_raises_where_a_run_would_straddle(device, make, shape):
    t = silt.tensor(X.copy(), device=device)
    v = make(t)
    with pytest.raises(ValueError, match="without a copy"):
        v.view(*shape)
    got = v.reshape(shape)  # a copy
    assert not got.shares_storage(t)
    np.testing.assert_array_equal(got.numpy(), v.numpy().reshape(shape))


def test_max_with_a_tensor_takes_it_alone(device):
    t = silt.tensor(I, device=device)
    check(t.max(other=t.T.T + 1), I + 1)
    with pytest.raises(TypeError):
        t.max(t, True)
    with pytest.raises(TypeError):
        t.min(keepdim=True)


def test_lerp_takes_tensors_of_its_dtype(device):
    t = silt.tensor(X, device=device)
    with pytest.raises(silt.DTypeError):
        t.lerp(I, W)
    with pytest.raises(silt.DTypeError):
        t.lerp(POS, W.astype(np.float64))
    with pytest.raises(silt.DTypeError):
        t.half().lerp(POS.astype(np.float16), W)
    check(t.lerp(POS.tolist(), np.ones((3, 4), np.float32)), POS)  # a list takes the input's dtype


def test_none_with_an_array_index(device):
    t = silt.tensor(X, device=device)
    np.testing.assert_array_equal(t[None, [0, 1]].numpy(), X[None, [0, 1]])
    with pytest.raises(TypeError, match="float"):
        t[None, 1.5]


@pytest.mark.parametrize("key", [
    None, (None, 1), (slice(None), None), (Ellipsis, None), (1, None, slice(None, None, 2)),
    (None, Ellipsis, None, 0), (None, None),
])
def test_none_adds_a_dimension(device, key):
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    got = silt.tensor(a, device=device)[key]
    np.testing.assert_array_equal(got.numpy(), a[key])
    assert got.shape == a[key].shape


def test_an_empty_list_picks_no_rows(device):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = silt.tensor(a, device=device)[[]]
    assert got.shape == (0, 4)


def test_isclose_as_pytorch_on_specials(device):
    a = np.array([np.inf, -np.inf, np.nan, 1.0, 1.0, 0.0], np.float32)
    b = np.array([np.inf, np.inf, np.nan, np.inf, 1.0 + 1e-6, 1e-9], np.float32)
    t = silt.tensor(a, device=device)
    np.testing.assert_array_equal(t.isclose(b).numpy(), np.isclose(a, b))
    np.testing.assert_array_equal(t.isclose(b, equal_nan=True).numpy(), np.isclose(a, b, equal_nan=True))
    assert t[3:].allclose(b[3:]) is False and t[4:].allclose(b[4:]) is True
    assert t.equal(t.clone()) is False  # NaN is not equal to itself
    assert t[3:].equal(silt.tensor(a[3:], device=device)) and not t[3:].equal(t[4:])


def test_split_chunk_unbind_are_views(device):
    a = np.arange(30, dtype=np.int16).reshape(5, 6)
    t = silt.tensor(a, device=device)
    parts = t.split(2)
    assert [p.shape for p in parts] == [(2, 6), (2, 6), (1, 6)]
    assert all(p.shares_storage(t) for p in parts)
    np.testing.assert_array_equal(parts[2].numpy(), a[4:])
    parts = t.split([1, 0, 5], dim=1)
    assert [p.shape for p in parts] == [(5, 1), (5, 0), (5, 5)]
    np.testing.assert_array_equal(parts[2].numpy(), a[:, 1:])
    assert [c.shape[1] for c in t.chunk(4, -1)] == [2, 2, 2]  # ceil(6 / 4) each, as PyTorch's
    assert [c.shape[0] for c in t.chunk(2)] == [3, 2]
    rows = t.unbind(1)
    assert len(rows) == 6 and rows[3].shape == (5,)
    np.testing.assert_array_equal(rows[3].numpy(), a[:, 3])
    with pytest.raises(ValueError):
        t.split([2, 2])
    with pytest.raises(ValueError):
        t.chunk(0)


def test_in_place_methods_write_the_tensor(device):
    t = silt.tensor(X.copy(), device=device)
    assert t.exp_() is t
    np.testing.assert_allclose(t.numpy(), np.exp(X), rtol=1e-6)
    t.clamp_(max=1.0).neg_()
    np.testing.assert_allclose(t.numpy(), -np.minimum(np.exp(X), 1), rtol=1e-6)
    i = silt.tensor(I.copy(), device=device)
    i.masked_fill_(B, 0).abs_().tril_()
    np.testing.assert_array_equal(i.numpy(), np.tril(np.abs(np.where(B, 0, I))))
    with pytest.raises(silt.DTypeError):
        i.exp_()  # a float into an integer
    with pytest.raises(silt.DTypeError):
        i.clamp_(0.5, 2.5)  # float bounds give float32
    np.testing.assert_array_equal(i.numpy(), np.tril(np.abs(np.where(B, 0, I))))  # nothing written
    # through a view: the base changes
    w = silt.tensor(X.copy(), device=device)
    w.T[1:].relu_()
    np.testing.assert_array_equal(w.numpy(), np.concatenate([X[:, :1], np.maximum(X[:, 1:], 0)], axis=1))


def test_copies_are_new_tensors_and_bad_arguments_raise(device):
    t = silt.tensor(X.copy(), device=device)
    for got in (t.repeat(1, 1), t.T.repeat(1, 1), t.new_tensor(t), t[0, 0].repeat()):
        assert not got.shares_storage(t)
    host = np.array([1.0, 2.0], np.float32)
    h = t.new_tensor(host, device="host")
    h[0] = 5
    assert host[0] == 1  # copied, as PyTorch's new_tensor
    # isclose: zero tolerances compare exactly, negative ones raise
    big = silt.tensor(np.array([2**62], np.int64), device=device)
    assert not big.isclose(big + 1, rtol=0, atol=0).item()
    with pytest.raises(ValueError):
        t.isclose(t, rtol=-1)
    flags = silt.tensor(np.array([True, False]), device=device)
    np.testing.assert_array_equal(flags.isclose(np.array([True, True]), atol=1).numpy(), [True, True])
    with pytest.raises(ValueError):
        t.flip(0, -2)
    with pytest.raises(TypeError):
        t.flip()
    z = silt.tensor(np.float32(5), device=device)
    assert z.flip(0).item() == 5 and t.flip([]).shape == (3, 4)
    for cut in (lambda v: v.split(1), lambda v: v.chunk(2), lambda v: v.unbind()):
        with pytest.raises(ValueError):
            cut(z)
    empty = silt.tensor(np.zeros(0, np.float32), device=device)
    assert [c.shape for c in empty.chunk(2)] == [(0,), (0,)]
    with pytest.raises(ValueError):
        empty.split(-1)
    with pytest.raises(silt.DTypeError):
        t.masked_fill(np.ones((3, 4), np.float32), 0)
    with pytest.raises(ValueError):
        t.masked_fill(B, t[0])
    check(t.masked_fill(B, t[0, 0]), np.where(B, X[0, 0], X))  # a 0-d value
    with pytest.raises(ValueError):
        t[None].expand(3, 3, 4).bmm(t[None].T.T.transpose(1, 2))
    # logical_not of any dtype is bool; in place it keeps the dtype
    check(silt.tensor(I, device=device).logical_not(), I == 0)
    i = silt.tensor(I.copy(), device=device)
    i.logical_not_()
    check(i, (I == 0).astype(np.int32))


def test_index_methods_in_place_and_their_errors(device):
    t = silt.tensor(X.copy(), device=device)
    assert t.index_fill_(0, silt.tensor(np.array([1])), 0) is t
    assert (t.numpy()[1] == 0).all() and (t.numpy()[0] == X[0]).all()
    with pytest.raises(IndexError):
        t.index_fill_(0, [[0]], 1)       # 2-d index
    with pytest.raises(IndexError):
        t.index_fill_(1, [4], 1)         # out of range
    with pytest.raises(ValueError):
        t.index_copy_(0, [0], np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError):
        t.index_add_(1, [0], np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError):
        t.scatter_(0, np.zeros((1, 4), np.int64))  # neither src nor value
    with pytest.raises(IndexError):
        t.scatter_(0, np.zeros((1, 5), np.int64), value=1)  # wider than the tensor
    u = silt.tensor(I, device=device)
    v, inv, cnt = u.unique(return_inverse=True, return_counts=True)
    w, winv, wcnt = np.unique(I, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(v.numpy(), w)
    np.testing.assert_array_equal(inv.numpy(), winv.reshape(I.shape))
    np.testing.assert_array_equal(cnt.numpy(), wcnt)
    rows, cols = u.nonzero(as_tuple=True)
    np.testing.assert_array_equal(rows.numpy(), np.nonzero(I)[0])
    assert u.detach().shares_storage(u) and u.t().shares_storage(u)
    with pytest.raises(ValueError):
        u[None].t()


def test_index_methods_follow_pytorchs_rules(device):
    t = silt.tensor(I.copy(), device=device)
    f = silt.tensor(X, device=device)
    # a source tensor of another dtype raises (PyTorch's), nothing written
    with pytest.raises(silt.DTypeError):
        t.index_add_(0, [0], f[:1])
    with pytest.raises(silt.DTypeError):
        t.scatter_(0, np.array([[1, 0, 0, 0]]), f)
    with pytest.raises(silt.DTypeError):
        f.clone().index_copy_(0, [0], t[:1])
    with pytest.raises(silt.DTypeError):
        t.index_add_(0, [0], t[:1], alpha=1.5)
    # indices: index_fill counts negatives from the end; the others refuse them
    check(t.index_fill(1, [-1], 0), np.where(np.arange(4) == 3, 0, I).astype(np.int32))
    for bad in (lambda: t.index_copy_(0, [-1], t[:1]), lambda: t.index_add_(0, [-1], t[:1]),
                lambda: t.index_add_(0, [3], t[:1]), lambda: t.scatter_(0, np.array([[-1, 0, 0, 0]]), value=5),
                lambda: t.index_fill_(0, np.array([2**64 - 1], np.uint64), 0)):
        with pytest.raises(IndexError):
            bad()
    np.testing.assert_array_equal(t.numpy(), I)
    # a broadcast view is refused as PyTorch's, whatever the method
    e = silt.tensor(I[:1].copy(), device=device).expand(3, 4)
    for write in (lambda: e.scatter_(0, np.array([[1, 0, 0, 0]]), value=1), lambda: e.index_copy_(0, [0], t[:1]),
                  lambda: e.index_fill_(0, [0], 1)):
        with pytest.raises(ValueError, match="overlap"):
            write()
    # 0-d tensors, empty lists, 0-d values only
    z = silt.tensor(np.float32(5), device=device)
    assert z.index_fill(0, [0], 1).item() == 1 and z.index_add(0, [0], silt.tensor(np.float32(2), device=device)).item() == 7
    check(f.index_fill(0, [], 1), X)
    with pytest.raises(ValueError):
        f.index_fill_(0, [0], f[0])
    # each NaN distinct in unique
    u = silt.tensor(np.array([np.nan, 1, np.nan, 0], np.float32), device=device)
    v, c = u.unique(return_counts=True)
    assert v.shape == (4,) and c.numpy().tolist() == [1, 1, 1, 1]
    with pytest.raises(TypeError):
        f.roll(1.5, 0)
    with pytest.raises(ValueError):
        f.roll((), ())
    assert f.clone().clamp_min_(0).numpy().min() >= 0


def test_order_statistics_on_nan_ties_and_edges(device):
    nan = np.nan
    y = silt.tensor(np.array([[3, 1, nan, 2, nan], [4, 2, 3, 1, 2], [nan] * 5], np.float32), device=device)
    # median: NaN where a row holds one, with the index of its first NaN;
    # of equal elements, the stable sort's (2 at 1 and 4: the second)
    m = y.median(1)
    np.testing.assert_array_equal(m.values.numpy(), [nan, 2, nan])
    np.testing.assert_array_equal(m.indices.numpy(), [2, 4, 0])
    assert np.isnan(y.median().item())
    # nanmedian leaves NaN out; a row of NaN alone gives NaN
    m = y.nanmedian(1)
    np.testing.assert_array_equal(m.values.numpy(), [2, 2, nan])
    np.testing.assert_array_equal(m.indices.numpy(), [3, 4, 0])
    assert y.nanmedian().item() == 2  # of 1, 1, 2, 2, 2, 3, 3, 4
    # ties: the stable sort's order (the first of equal elements first)
    k = y.kthvalue(2, 1)
    np.testing.assert_array_equal(k.values.numpy(), [2, 2, nan])
    np.testing.assert_array_equal(k.indices.numpy(), [3, 1, 1])
    # NaN as the largest
    np.testing.assert_array_equal(y.kthvalue(4, 1).values.numpy(), [nan, 3, nan])
    np.testing.assert_array_equal(y.quantile(0.5, 1).numpy(), [nan, 2, nan])
    np.testing.assert_array_equal(y.nanmean(1).numpy(), np.float32([2, 2.4, nan]))
    # 0-d and one element
    z = silt.tensor(np.float32(5), device=device)
    assert z.median().item() == 5 and z.median(0).values.shape == ()
    assert z.kthvalue(1).values.item() == 5 and z.quantile(0.5, 0).item() == 5
    assert silt.tensor(np.float32([7]), device=device).quantile([0.0, 1.0]).numpy().tolist() == [7, 7]
    empty = silt.tensor(np.zeros((2, 0), np.float32), device=device)
    for bad in (lambda: empty.median(1), lambda: empty.kthvalue(1),
                lambda: empty.quantile(0.5), lambda: y.kthvalue(6, 1), lambda: y.kthvalue(0)):
        with pytest.raises(silt.ArgumentError):
            bad()
    for bad in (lambda: y.quantile(1.5), lambda: y.quantile([[0.5]]), lambda: y.quantile(0.5, interpolation="cubic")):
        with pytest.raises(ValueError):
            bad()
    with pytest.raises(silt.DTypeError):
        silt.tensor(I, device=device).quantile(0.5)
    with pytest.raises(silt.DTypeError):
        silt.tensor(I, device=device).nanmean()


def test_composed_views_and_their_errors(device):
    t = silt.tensor(X.copy(), device=device)
    for view in (t.movedim(0, 1), t.swapaxes(0, 1), t.diagonal(), t.diagonal(-2), t.diagonal(9)):
        assert view.shares_storage(t)
    t.diagonal(1)[:] = 0  # written through the view
    assert [t[i, i + 1].item() for i in range(3)] == [0, 0, 0]
    assert t.diagonal(9).shape == (0,) and t[1:].diagonal().numpy().tolist() == [t[1, 0].item(), t[2, 1].item()]
    assert not t.diag().shares_storage(t)
    for bad in (lambda: t.movedim(0, (0, 1)), lambda: t.movedim((0, 0), (0, 1)), lambda: t[0].diagonal(),
                lambda: t.diagonal(0, 1, -1), lambda: t[None].diag(), lambda: t[0].trace(),
                lambda: t[0].outer(t), lambda: t.diff(-1), lambda: t[0, 0].diff(),
                lambda: t.diff(prepend=t[0])):
        with pytest.raises(ValueError):
            bad()
    with pytest.raises(silt.AxisError):
        t.movedim(2, 0)
    with pytest.raises(silt.DTypeError):
        t.masked_select(silt.tensor(I, device=device))
    # addmm and its kin: one dtype, the tensor broadcast to the product's shape
    with pytest.raises(silt.DTypeError):
        t.addmm(silt.tensor(I, device=device), silt.tensor(I.T.copy(), device=device))
    with pytest.raises(silt.DTypeError):
        silt.tensor(I, device=device)[:, :3].addmm(I, I.T[:, :3], alpha=0.5)
    with pytest.raises(silt.ArgumentError):
        t.addmm(t, t.T)  # [3, 4] does not broadcast to [3, 3]
    # beta 0: the tensor's NaN do not pass
    inf = silt.tensor(np.full((3, 3), np.nan, np.float32), device=device)
    assert not inf.addmm(t, t.T, beta=0).isnan().any().item()
    # nan_to_num_ in place, float16's own limits
    h = silt.tensor(np.array([np.inf, -np.inf, np.nan], np.float16), device=device)
    assert h.nan_to_num_() is h
    assert h.numpy().tolist() == [65504.0, -65504.0, 0.0]


def test_composed_methods_follow_pytorch_where_it_is_easy_to_miss(device):
    # nan_to_num: each mask of the input, so a replacement is not replaced again
    v = silt.tensor(np.array([np.nan, np.inf, -np.inf, 1.5], np.float32), device=device)
    big = np.finfo(np.float32).max
    assert v.nan_to_num(nan=np.inf).numpy().tolist() == [np.inf, big, -big, 1.5]
    assert v.nan_to_num(posinf=-np.inf, neginf=np.inf).numpy().tolist() == [0, -np.inf, np.inf, 1.5]
    # quantile's ranks in the input's dtype: 0.28 * 25 is 7.0000005 in float64, 7 in float32
    a = silt.tensor(np.arange(26, dtype=np.float32), device=device)
    assert a.quantile(0.28, interpolation="higher").item() == 7
    assert a.quantile(0.6, interpolation="midpoint").item() == 15.5
    # median: no keepdim over all elements; NaN for an empty float tensor
    with pytest.raises(TypeError):
        a.median(keepdim=True)
    assert np.isnan(silt.tensor(np.zeros(0, np.float32), device=device).median().item())
    with pytest.raises(silt.ArgumentError):
        silt.tensor(np.zeros(0, np.int32), device=device).median()
    # PyTorch's argument names and defaults
    m = silt.tensor(X, device=device)
    check(m[:, :3].addmm(mat1=m, mat2=m.T[:, :3], beta=0), (f64(X) @ f64(X.T[:, :3])).astype(np.float32))
    check(m[:, 0].addmv(m, vec=m[0]), (f64(X[:, 0]) + f64(X) @ f64(X[0])).astype(np.float32))
    with pytest.raises(TypeError):
        m.addmm(m, mat1=m)
    with pytest.raises(TypeError):
        m[:, :3].addmm([[1.0] * 4] * 3, m.T[:, :3])
    check(m.tile(dims=(2,)), np.tile(X, 2))
    check(m.kthvalue(2, dim=None).values, np.sort(X, -1)[:, 1])
    check(m.diff(prepend=0.5), np.diff(X, prepend=np.float32(0.5)))  # float32 kept
    z = silt.tensor(np.float32(3), device=device)
    assert z.movedim(0, -1).item() == 3 and z.movedim(0, -1).shares_storage(z)
    # view(dtype=) and view(None)
    assert m.view(dtype=np.int32).dtype == np.int32
    with pytest.raises(TypeError):
        m.view(None)
    with pytest.raises(TypeError):
        m.view(12, dtype=np.int32)
    assert silt.tensor(np.zeros((2, 0), np.float32), device=device).view(np.float64).shape == (2, 0)
    # unique(dim=) of an empty tensor: only along its empty dimension
    e = silt.tensor(np.zeros((0, 3), np.int32), device=device)
    assert e.unique(dim=0).shape == (0, 3)
    with pytest.raises(silt.ArgumentError):
        e.unique(dim=1)
    # bad arguments are silt errors (ArgumentError is a ValueError)
    with pytest.raises(silt.ArgumentError):
        m.diagonal(0, 1, 1)


def test_writes_and_random_fills(device):
    t = silt.tensor(X.copy(), device=device)
    assert t.T.put_(np.array([0, 1]), np.float32([5, 6])) is not None  # a strided tensor, written back
    assert t[0, 0].item() == 5 and t[1, 0].item() == 6
    with pytest.raises(IndexError):
        t.put_(np.array([12]), np.float32([1]))
    with pytest.raises(silt.ArgumentError):
        t.put_(np.array([0, 1]), np.float32([1]))
    z = silt.zeros((4, 3), device=device)
    assert z.fill_diagonal_(2.0) is z
    check(z, np.eye(4, 3, dtype=np.float32) * 2)
    w = silt.zeros((7, 3), dtype=np.int32, device=device)
    want = np.zeros((7, 3), np.int32)
    np.fill_diagonal(want, 9, wrap=True)
    check(w.fill_diagonal_(9, wrap=True), want)
    c = silt.zeros((2, 2, 2), device=device).fill_diagonal_(1)
    assert c.numpy()[1, 1, 1] == 1 and c.sum().item() == 2
    with pytest.raises(silt.ArgumentError):
        silt.zeros((2, 3, 2), device=device).fill_diagonal_(1)
    # index_put_: repeated places add up with accumulate, the last wins without
    m = silt.zeros((3, 2), device=device)
    m.index_put_((silt.tensor([0, 0, 2], device=device),), silt.tensor(np.float32([1, 2]), device=device), accumulate=True)
    check(m, np.float32([[2, 4], [0, 0], [1, 2]]))
    m.index_put_((np.array([1]), np.array([1])), np.float32(7))
    assert m[1, 1].item() == 7
    with pytest.raises(IndexError):
        m.index_put_((np.array([3]),), np.float32(1), accumulate=True)
    # random fills: from silt.manual_seed's generator, in range, of the tensor's dtype
    silt.manual_seed(3)
    a = silt.zeros(1000, device=device).uniform_(-2, 5)
    silt.manual_seed(3)
    b = silt.zeros(1000, device=device).uniform_(-2, 5)
    assert a.equal(b) and -2 <= a.min().item() and a.max().item() < 5 and a.std().item() > 1
    assert abs(silt.zeros(4000, device=device).normal_(3, 2).mean().item() - 3) < 0.2
    assert silt.zeros(1000, device=device).exponential_(4).min().item() >= 0
    r = silt.zeros(1000, dtype=np.int16, device=device).random_(-3, 4)
    assert r.dtype == np.int16 and set(np.unique(r.numpy())) == set(range(-3, 4))
    assert silt.zeros(100, dtype=np.uint8, device=device).random_().max().item() <= 255
    flags = silt.zeros(1000, dtype=np.int32, device=device).bernoulli_(0.25)
    assert set(np.unique(flags.numpy())) == {0, 1} and 150 < flags.sum().item() < 350
    probs = silt.tensor(np.float32([0, 1, 0, 1]), device=device)
    assert probs.bernoulli().numpy().tolist() == [0, 1, 0, 1]
    for bad in (lambda: silt.zeros(2, dtype=np.int32, device=device).uniform_(),
                lambda: silt.tensor(np.float32([1.5]), device=device).bernoulli()):
        with pytest.raises((silt.DTypeError, silt.ArgumentError)):
            bad()
    with pytest.raises(silt.ArgumentError):
        silt.zeros(2, device=device).normal_(0, -1)
    # shapes and products: their errors
    for bad in (lambda: t.rot90(1, (0, 0)), lambda: t[0].fliplr(), lambda: t.unflatten(1, (3, -1)),
                lambda: t.tensor_split(0), lambda: t.repeat_interleave(np.array([1, 2])),
                lambda: t.inner(t[:, :3]), lambda: t[:2].cross(t[:2]), lambda: t.take_along_dim(np.zeros((3,), np.int64), 1)):
        with pytest.raises(silt.ArgumentError):
            bad()
    with pytest.raises(IndexError):
        t.select(0, 3)
    with pytest.raises(silt.DTypeError):
        t.heaviside(np.float64(1))
    with pytest.raises(silt.DTypeError):
        t.inner(silt.tensor(I, device=device))
    # the queries
    assert t.T.stride() == (1, 4) and t.stride(-1) == 1 and t.nbytes == 48 and t.element_size() == 4
    assert t.is_floating_point() and not silt.tensor(I, device=device).is_floating_point() and not t.is_complex()
    s = [p.shape for p in t.tensor_split([1, 3], dim=1)]
    assert s == [(3, 1), (3, 2), (3, 1)]


def test_second_review_fixes(device):
    # random_: PyTorch's overloads and range checks
    u8 = silt.zeros(2000, dtype=np.uint8, device=device)
    assert u8.random_(to=6).max().item() <= 5
    assert u8.random_(250, None).min().item() >= 250
    assert u8.random_(**{"from": 3}).min().item() >= 3
    for bad in (lambda: u8.random_(-5, 5), lambda: u8.random_(100, 300), lambda: u8.random_(4, 4)):
        with pytest.raises(silt.ArgumentError):
            bad()
    with pytest.raises(TypeError):
        u8.random_(1.5)
    with pytest.raises(TypeError):
        u8.random_(generator=object())
    big = silt.zeros(4000, dtype=np.float64, device=device).random_()
    assert big.max().item() > 2.0 ** 52 and big.max().item() <= 2.0 ** 53
    # uniform_ in float16 stays below `to`
    assert silt.zeros(200000, dtype=np.float16, device=device).uniform_().max().item() < 1
    # bernoulli_ with a tensor of probabilities
    p = silt.tensor(np.float32([0, 1, 0, 1]), device=device)
    assert silt.zeros(4, device=device).bernoulli_(p).numpy().tolist() == [0, 1, 0, 1]
    # index_put_ takes a tuple; put_ and index_put_ a source of the tensor's dtype
    m = silt.zeros((3, 3), device=device)
    with pytest.raises(TypeError):
        m.index_put_(silt.tensor([0, 2], device=device), np.float32(1))
    with pytest.raises(silt.DTypeError):
        m.put_(np.array([0]), np.float64([1]))
    with pytest.raises(silt.DTypeError):
        m.index_put_((np.array([0]),), np.float64([1, 2, 3]))
    # cross without dim: the tensor's first dimension of size 3
    a = silt.tensor(np.float32([[1, 0, 0]]), device=device)
    check(a.cross(silt.tensor(np.eye(3, dtype=np.float32), device=device)), np.cross(np.float32([[1, 0, 0]]), np.eye(3, dtype=np.float32), axis=1))
    # inner over an empty last dimension: zeros
    e = silt.zeros((2, 0), device=device)
    check(e.inner(e), np.zeros((2, 2), np.float32))
    # dist of any p
    x = silt.tensor(np.float32([3, -4, 0]), device=device)
    z = x * 0
    assert x.dist(z, 0).item() == 2 and x.dist(z, -np.inf).item() == 0
    assert abs(x.dist(z, 3).item() - (27 + 64) ** (1 / 3)) < 1e-5
    # float_power_ only on float64; select and tensor_split take integers
    with pytest.raises(silt.DTypeError):
        x.float_power_(2)
    check(x.double().float_power_(2), np.float64([9, 16, 0]))
    with pytest.raises(TypeError):
        x.select(0, 1.0)
    with pytest.raises(TypeError):
        x.tensor_split([1.5])
    # take_along_dim of a 0-d tensor
    assert silt.tensor(np.float32(4), device=device).take_along_dim(silt.tensor(0, device=device), 0).item() == 4
    # add/sub alpha, div rounding_mode, in-place comparisons and their other names
    i = silt.tensor(np.int32([7, -7]), device=device)
    check(i.div(2, rounding_mode="trunc"), np.int32([3, -3]))
    check(i.divide(2, rounding_mode="floor"), np.int32([3, -4]))
    check(i.subtract(i, alpha=2), np.int32([-7, 7]))
    with pytest.raises(silt.DTypeError):
        i.add(1, alpha=0.5)
    with pytest.raises(silt.ArgumentError):
        i.div(2, rounding_mode="round")
    f = silt.tensor(np.float32([7, -7]), device=device)
    check(f.div(2, rounding_mode="trunc"), np.float32([3, -3]))
    assert f.add_(1, alpha=2) is f and f.numpy().tolist() == [9, -5]
    assert f.greater_(5).numpy().tolist() == [1, 0] and f.dtype == np.float32
    check(silt.tensor(np.float32([1, 2]), device=device).arctan2_(np.float32([1, 1])), np.arctan2(np.float32([1, 2]), 1))
    # deg2rad of float16: one rounding
    assert silt.tensor(np.float16([90]), device=device).deg2rad().item() == float(np.float16(np.pi / 2))


def test_alpha_rounding_and_in_place_binary_forms(device):
    # alpha scales `other` in the result's dtype (no overflow in a narrower one)
    f = silt.tensor(np.float32([0, 0]), device=device)
    check(f.add(np.int8([100, -100]), alpha=3), np.float32([300, -300]))
    check(f.sub(silt.tensor(np.float16([1000]), device=device), alpha=100), np.float32([-100000, -100000]))
    check(f.add(np.uint8([200, 5]), alpha=-1), np.float32([-200, -5]))
    i = silt.tensor(np.int32([1, 2]), device=device)
    check(i.add(silt.tensor(np.array([True, False]), device=device), alpha=2), np.int32([3, 2]))
    for bad in (lambda: i.add(1, alpha=np.float32(2)), lambda: i.add(1, alpha=True),
                lambda: silt.tensor(np.array([True]), device=device).div(np.array([True]), rounding_mode="trunc")):
        with pytest.raises(silt.DTypeError):
            bad()
    # float16 truncating division: the quotient in float32, rounded once
    assert silt.tensor(np.float16([2564]), device=device).div(5, rounding_mode="trunc").item() == 512
    # float16: dist summed in float32; quantiles refused, as PyTorch's
    h = silt.tensor(np.float16([30, 40]), device=device)
    assert abs(h.dist(h * 0, p=3).item() - (30 ** 3 + 40 ** 3) ** (1 / 3)) < 0.05
    with pytest.raises(silt.DTypeError):
        h.quantile(0.5)
    with pytest.raises(TypeError):
        silt.zeros((2, 2), device=device).index_put_((None, np.array([0])), np.float32(1))
    # every binary operation and comparison in place: its result, in the tensor's dtype
    a, b = np.float32([[1.5, -2, 3], [0, 5, -6]]), np.float32([[2, -2, 1], [1, 4, -7]])
    for name in ("add", "sub", "mul", "div", "pow", "atan2", "hypot", "copysign", "fmod", "remainder",
                 "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "greater", "less_equal", "not_equal",
                 "heaviside", "xlogy", "logical_and", "logical_or", "logical_xor"):
        t = silt.tensor(a.copy(), device=device)
        want = getattr(silt.tensor(a, device=device), name)(b)
        assert getattr(t, f"{name}_")(b) is t, name
        check(t, want.numpy().astype(np.float32))
    ints = silt.tensor(np.int32([6, -7]), device=device)
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        t = silt.tensor(np.int32([3, 5]), device=device)
        getattr(t, f"{name}_")(ints)
        check(t, getattr(np, name)(np.int32([3, 5]), np.int32([6, -7])))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "uint8", "bool"])
def test_unique_and_nonzero_on_the_device_match_numpy(device, dtype):
    rng = np.random.default_rng(9)
    for shape in [(3, 5), (0,), (1,), (7,), (), (2, 0, 3)]:
        a = rng.random(shape) < 0.5 if dtype == "bool" else rng.integers(-3, 4, shape).astype(dtype)
        if a.dtype.kind == "f" and a.size > 2:
            a.flat[0] = a.flat[-1] = np.nan  # each NaN its own value
        t = silt.tensor(a, device=device)
        v, inv, cnt = t.unique(return_inverse=True, return_counts=True)
        wv, winv, wcnt = np.unique(a.reshape(-1), return_inverse=True, return_counts=True, equal_nan=False)
        assert v.dtype == a.dtype and inv.shape == a.shape
        np.testing.assert_array_equal(v.numpy(), wv)
        np.testing.assert_array_equal(inv.numpy(), winv.reshape(a.shape))
        np.testing.assert_array_equal(cnt.numpy(), wcnt)
        np.testing.assert_array_equal(t.nonzero().numpy(), np.argwhere(a) if a.ndim else np.zeros((int(a != 0), 0)))
        for got, want in zip(t.nonzero(as_tuple=True), np.nonzero(a if a.ndim else a.reshape(1))):
            np.testing.assert_array_equal(got.numpy(), want)


def test_unique_keeps_the_first_of_equal_elements_on_every_device(host, opencl):
    # the stable sort on the host too: the first of 0.0 and -0.0 stands for
    # both, and NaNs keep their order, the same bits on every device
    nans = np.array([0x7FC00000, 0x7FC00001, 0xFFC00001] + [0x3F800000] * 14, np.uint32).view(np.float32)
    for a in (np.array([2.0, 1.0, -0.0, 0.0], np.float32), np.array([0.0, -0.0, 3.0], np.float32), nans):
        got = [silt.tensor(a, device=d).unique(return_inverse=True, return_counts=True) for d in (host, opencl)]
        first = [v.numpy().view(np.uint32).tolist() for v, _, _ in got]
        assert first[0] == first[1], a
        for v, inv, cnt in got:
            assert inv.numpy().tolist() == got[0][1].numpy().tolist()
            assert cnt.numpy().tolist() == got[0][2].numpy().tolist()
    zeros = silt.tensor(np.array([2.0, 1.0, -0.0, 0.0], np.float32), device=host).unique()
    assert np.signbit(zeros.numpy()[0])  # -0.0, the first of the two


def test_a_bool_tensor_key_is_read_on_the_device(device):
    t = silt.tensor(X, device=device)
    check(t[t > 0], X[X > 0])                                    # the whole shape
    rows = silt.tensor(np.array([True, False, True]), device=device)
    check(t[rows], X[[0, 2]])                                    # leading dimensions
    check(t.T[silt.tensor(np.array([False, True, True, False]), device=device)], X.T[[1, 2]])  # a strided tensor
    check(t[t > 100], np.zeros(0, np.float32))                   # nothing picked
    check(t[:, ::2][silt.tensor(B[:, ::2].copy(), device=device)], X[:, ::2][B[:, ::2]])
    if not device.is_host:
        check(t[silt.tensor(X > 0, device="host")], X[X > 0])   # a mask of another device: read on the host


@pytest.mark.parametrize("by_scatter", [False, True])
def test_stable_partition_in_both_forms(device, by_scatter):
    # the scan-and-scatter form is a GPU's; PoCL and the host run it here too
    from silt._indexing import _stable_partition
    rng = np.random.default_rng(4)
    for n, p in [(0, 0.5), (1, 1.0), (1000, 0.3), (1000, 0.0), (1000, 1.0)]:
        flags = rng.random(n) < p
        perm, count = _stable_partition(silt.tensor(flags, device=device), by_scatter)
        want = np.concatenate([np.flatnonzero(flags), np.flatnonzero(~flags)])
        assert count == flags.sum() and perm.dtype == np.int64
        np.testing.assert_array_equal(perm.numpy(), want)


@pytest.mark.parametrize("p", [1, 2, math.inf, 3, 0.5, 0, -math.inf, -1.5, "fro"])
def test_norm_of_any_order(device, p):
    a = X.copy()
    a[1, 2] = 0.0  # a zero for the order 0 (a count) and the negative orders
    t = silt.tensor(a, device=device)
    order = 2 if p == "fro" else p
    def ref(dim, keepdim):
        with np.errstate(divide="ignore"):  # |0|**-1.5
            if dim is None or dim == (0, 1):
                whole = np.linalg.norm(f64(a).reshape(-1), order)
                return np.float32(whole).reshape((1, 1) if keepdim else ())
            return np.linalg.norm(f64(a), order, axis=dim, keepdims=keepdim).astype(np.float32)

    for dim, keepdim in [(None, False), (1, False), (0, True), ((0, 1), True)]:
        check(t.norm(p, dim, keepdim), ref(dim, keepdim), 1e-4)
    with np.errstate(divide="ignore"):
        check(t.norm(p, 1, dtype=np.float64), np.linalg.norm(f64(a), order, axis=1), 1e-12)
    h = silt.tensor(np.array([300.0, -400.0], np.float16), device=device)  # |x|**3 overflows float16
    want = np.float16(np.linalg.norm(np.array([300.0, 400.0]), order))
    check(h.norm(p), want, 2e-3 * float(want) + 1e-3)
    check(t.dist(silt.zeros(3, 4, device=device), p), ref(None, False), 1e-4)


def test_norm_errors(device):
    t = silt.tensor(X, device=device)
    with pytest.raises(silt.ArgumentError, match="nuc"):
        t.reshape(-1).norm("nuc")  # the nuclear norm is a matrix's
    with pytest.raises(silt.ArgumentError, match="order 'max'"):
        t.norm("max")
    with pytest.raises(TypeError):
        t.norm(None)
    with pytest.raises(silt.DTypeError):
        silt.tensor(I, device=device).norm(3)
    with pytest.raises(silt.DTypeError):
        silt.tensor(I, device=device).norm()
    assert t.norm(3, dtype=np.float64).dtype == np.float64


def test_an_empty_dim_reduces_every_dimension_as_pytorchs(device):
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    x = silt.tensor(a, device=device)
    for empty in ((), []):
        for name, want in (("sum", a.sum()), ("mean", a.mean()), ("amax", a.max()), ("amin", a.min()),
                           ("nansum", a.sum()), ("nanmean", a.mean()), ("var", a.var(ddof=1)),
                           ("std", a.std(ddof=1)), ("count_nonzero", np.count_nonzero(a))):
            got = getattr(x, name)(empty)
            assert got.shape == (), name
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, err_msg=name)
        assert x.sum(empty, keepdim=True).shape == (1, 1)
        np.testing.assert_allclose(x.norm(dim=empty).numpy(), np.sqrt((a * a).sum()), rtol=1e-6)
        # all and any reduce nothing over no dimensions, as PyTorch's
        assert x.all(empty).shape == (2, 3) and x.any(empty).shape == (2, 3)


def test_var_and_std_take_pytorchs_positional_forms(device):
    a = np.array([[1, 2, 4], [3, 7, 8]], np.float32)
    x = silt.tensor(a, device=device)
    np.testing.assert_allclose(x.std(0, False).numpy(), a.std(0), rtol=1e-6)
    np.testing.assert_allclose(x.var(1, True, True).numpy(), a.var(1, ddof=1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(x.var(False).numpy(), a.var(), rtol=1e-6)
    np.testing.assert_allclose(silt.std(x, 1, False).numpy(), a.std(1), rtol=1e-6)
    with pytest.raises(silt.ArgumentError, match="not both"):
        x.var(0, True, correction=0)


def test_a_nan_bound_of_clamp_gives_nan(device):
    a = np.array([1, -2, np.inf, np.nan], np.float32)
    x = silt.tensor(a, device=device)
    for got in (x.clamp(float("nan"), 2), x.clamp(max=float("nan")), x.clamp_min(float("nan"))):
        assert got.dtype == np.float32 and np.isnan(got.numpy()).all()
    got = silt.tensor(np.array([1, 2], np.int32), device=device).clamp(float("nan"))
    assert got.dtype == np.float32 and np.isnan(got.numpy()).all()
    np.testing.assert_array_equal(x.clamp(0, 2).numpy(), [1, 0, 2, np.nan])


def test_sinc_of_float16_is_computed_in_float32(device):
    # pi x rounded to float16 is too coarse for the sine: 100 gave -5e-4 (PyTorch's: 0)
    a = np.array([100, -100, 0.9999, 0.5, 0, 3.25], np.float16)
    got = silt.tensor(a, device=device).sinc()
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.numpy().astype(np.float64), np.sinc(a.astype(np.float64)), atol=2e-4)


def test_integer_dtype_of_a_scan_is_the_results_and_wraps(device):
    x = silt.tensor(np.array([200, 100, 7], np.uint8), device=device)
    got = silt.cumsum(x, 0, dtype=np.uint8)
    assert got.dtype == np.uint8 and got.tolist() == [200, 44, 51]
    got = x.cumprod(0, dtype=np.int16)
    assert got.dtype == np.int16 and got.tolist() == np.cumprod([200, 100, 7]).astype(np.int16).tolist()
    assert x.cumsum(0).dtype == np.int64 and x.cumsum(0, dtype=np.float32).dtype == np.float32


def test_gather_and_scatters_take_int32_indices_as_pytorchs(device):
    a = silt.tensor(np.arange(6.0).reshape(2, 3), device=device)
    for dt in (np.int32, np.int64):
        i = silt.tensor(np.array([[1, 0, 1]], dt), device=device)
        assert a.gather(1, i).tolist() == [[1.0, 0.0, 1.0]]
        assert silt.gather(a, 1, i).tolist() == [[1.0, 0.0, 1.0]]
        want = [[1.0, 3.0, 2.0], [3.0, 4.0, 5.0]]
        assert a.scatter_add(1, i, a[:1]).tolist() == want
        assert a.clone().scatter_add_(1, i, a[:1]).tolist() == want
        assert a.scatter_reduce(1, i, a[:1], "sum").tolist() == want
        assert a.clone().scatter_reduce_(1, i, a[:1], "amax").tolist() == [[1.0, 2.0, 2.0], [3.0, 4.0, 5.0]]
    with pytest.raises(silt.DTypeError):
        a.gather(1, silt.tensor(np.array([[1, 0, 1]], np.int16), device=device))


def test_axis_errors_name_the_range_as_pytorch(device):
    with pytest.raises(silt.AxisError, match=r"expected in \[-2, 1\]"):
        silt.zeros(2, 3, device=device).transpose(0, 2)
    with pytest.raises(silt.AxisError, match=r"expected in \[-2, 1\]"):
        silt.zeros(2, 3, device=device).sum(2)
    import silt.nn.functional as F
    with pytest.raises(silt.ArgumentError, match="normalized_shape"):
        F.layer_norm(silt.zeros(2, 4, device=device), [-4])


def test_integer_dtype_of_a_sum_or_product_is_the_results(device):
    x = silt.tensor(np.array([2**31 - 1, 1], np.int32), device=device)
    for got in (silt.sum(x, dtype=np.int32), x.sum(dtype=np.int32), silt.nansum(x, dtype=np.int32)):
        assert got.dtype == np.int32 and got.tolist() == -(2**31)
    u = silt.tensor(np.full((16, 16), 2, np.uint8), device=device)
    got = silt.prod(u.reshape(-1)[:8], dtype=np.uint8)
    assert got.dtype == np.uint8 and got.tolist() == 0
    assert x.sum().dtype == np.int64 and x.sum(dtype=np.float64).dtype == np.float64


def test_round_decimals_as_pytorch(device):
    h = silt.tensor(np.array([0.045, 1234.5678], np.float16), device=device)
    got = h.round(decimals=2)  # scaled in float32, rounded to float16 once
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got.numpy(), np.array([0.05, 1235.0], np.float16))
    f = silt.tensor(np.array([0.045, 1234.5678], np.float32), device=device)
    assert np.isnan(f.round(decimals=40).numpy()).all()  # a scale past float32: NaN, as PyTorch's
    assert np.isnan(silt.tensor(np.array([1.5]), device=device).round(decimals=400).numpy()).all()


def test_logsumexp_over_no_dims_reduces_them_all(device):
    x = silt.tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), device=device)
    want = np.log(np.exp([1.0, 2.0, 3.0, 4.0]).sum())
    np.testing.assert_allclose(x.logsumexp(dim=()).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(x.logsumexp(dim=(), keepdim=True).numpy(), [[want]], rtol=1e-12)


def test_repeat_and_tile_of_many_dimensions(device):
    # a tensor of more than 8 dimensions: no view of twice its dimensions
    # (the broadcast form), the repeated dimensions gathered in turn
    cases = [((2,) * 9, (1,) * 9), ((2,) * 9, (2,) + (1,) * 7 + (3,)), ((2,) * 8, (2,) + (1,) * 8),
             ((2,) * 16, (2, 1, 1, 3) + (1,) * 11 + (2,)), ((1,) * 16, (2,) * 4 + (1,) * 12),
             ((3, 1, 2), (2, 3, 2)), ((0, 2), (2, 2))]
    for shape, reps in cases:
        a = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
        t = silt.tensor(a, device=device)
        r = t.repeat(*reps)
        np.testing.assert_array_equal(r.numpy(), np.tile(a, reps))
        assert not r.shares_storage(t) and 0 not in r.stride(), (shape, reps)
    a = np.arange(2.0**9).reshape((2,) * 9)
    np.testing.assert_array_equal(silt.tensor(a, device=device).tile((2,)).numpy(), np.tile(a, (2,)))


def test_fill_and_random_edges_found_by_fuzzing(device):
    # a bool tensor's fill_ takes a 0-d tensor or a NumPy bool as PyTorch's does
    b = silt.zeros(3, dtype=np.bool_, device=device)
    assert b.fill_(silt.tensor(True, device=device)).numpy().tolist() == [True] * 3
    assert b.fill_(silt.tensor(0.0, device=device)).numpy().tolist() == [False] * 3
    assert b.fill_(silt.tensor(-4.5, device=device)).numpy().tolist() == [True] * 3
    assert b.fill_(np.bool_(False)).numpy().tolist() == [False] * 3
    assert b.fill_((b == b).any()).numpy().tolist() == [True] * 3
    full = silt.full((2,), silt.tensor(True, device=device), dtype=np.bool_, device=device)
    assert full.numpy().tolist() == [True, True]
    assert silt.zeros(2, dtype=np.int8, device=device).fill_(np.bool_(True)).numpy().tolist() == [1, 1]
    # an integer alpha of a bool result is its truth, as PyTorch's
    t = silt.tensor([True, False], device=device)
    assert t.add(True, alpha=2).numpy().tolist() == [True, True]
    assert t.add(silt.tensor([True, True], device=device), alpha=0).numpy().tolist() == [True, False]
    # uniform_ where `from` and `to` round to one value gives that value, never less
    h = silt.zeros(5, dtype=np.float16, device=device).uniform_(1.0, 1.0001)
    assert h.numpy().tolist() == [1.0] * 5
    f = silt.zeros(5, device=device).uniform_(0.1, 0.1 + 1e-9)
    assert (f.numpy() == np.float32(0.1)).all()
    # exponential_ of a NaN rate raises, as of a rate not above 0
    for lambd in (float("nan"), 0.0, -1.0):
        with pytest.raises(silt.ArgumentError):
            silt.zeros(3, device=device).exponential_(lambd)

"""``silt.einsum``: Einstein summation as PyTorch's and NumPy's, on the
operands' device, as views, sums and ``matmul``.

Each operand first loses its repeated labels (``"ii->i"``: a diagonal, a
view) and the labels no other operand and not the output has (summed).
Then the operands are taken left to right, each pair as one batched
``matmul``: the labels both have and that are still wanted are its batch,
those both have and nothing later wants are its sum (the ``k`` of the
product, in ``matmul``'s fixed order), and the others its rows and columns.
A dimension of size 1 broadcasts against the same label's size elsewhere.
"""

import string

import numpy as np

from ._silt import ArgumentError, DTypeError, Tensor, tensor
from ._composed import _diagonal

_LETTERS = string.ascii_letters


def _parse(equation, operands):
    """The labels of each operand (ellipses replaced by labels of their
    own, right-aligned across the operands) and of the output."""
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->", 1)
        if "->" in out:
            raise ArgumentError(f"einsum: more than one '->' in {equation!r}")
    else:
        lhs, out = eq, None
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ArgumentError(f"einsum: {equation!r} names {len(terms)} operands, {len(operands)} given")
    for t in terms + ([out] if out is not None else []):
        bad = [c for c in t.replace("...", "") if c not in _LETTERS]
        if bad or t.count("...") > 1:
            raise ArgumentError(f"einsum: {t!r} in {equation!r} is not letters with one '...' at most")
    free = [c for c in _LETTERS if c not in eq]
    # the ellipsis of each operand: its dimensions beyond its labels
    widths = []
    for t, x in zip(terms, operands):
        named = len(t.replace("...", ""))
        if "..." not in t and named != x.ndim or named > x.ndim:
            raise ArgumentError(f"einsum: {t!r} names {named} dimensions of an operand of {x.ndim}")
        widths.append(x.ndim - named if "..." in t else 0)
    ell = free[:max(widths, default=0)]
    labels = [t.replace("...", "".join(ell[len(ell) - w:])) for t, w in zip(terms, widths)]
    if out is None:
        counts = {c: sum(lab.count(c) for lab in labels) for c in set("".join(labels))}
        out = "".join(ell) + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        # an ellipsis the output leaves out is summed, as NumPy's
        out = out.replace("...", "".join(ell))
        seen = set("".join(labels))
        for c in out:
            if c not in seen:
                raise ArgumentError(f"einsum: output label {c!r} is on no operand in {equation!r}")
            if out.count(c) > 1:
                raise ArgumentError(f"einsum: output label {c!r} repeats in {equation!r}")
    return labels, out


def _sizes(labels, operands):
    """Each label's size (sizes of 1 broadcast), checked."""
    size = {}
    for lab, x in zip(labels, operands):
        for c, n in zip(lab, x.shape):
            m = size.get(c, 1)
            if m != n and 1 not in (m, n):
                raise ArgumentError(f"einsum: label {c!r} has sizes {m} and {n}")
            size[c] = max(m, n) if n and m else 0
    return size


def _fold(x, lab, keep):
    """``x`` with labels ``lab``: repeated labels to their diagonal, labels
    not in ``keep`` summed out; returns the tensor and its labels."""
    for c in dict.fromkeys(lab):
        while lab.count(c) > 1:
            i = lab.index(c)
            j = lab.index(c, i + 1)
            if x.shape[i] != x.shape[j]:
                raise ArgumentError(f"einsum: label {c!r} repeats with sizes {x.shape[i]} and {x.shape[j]}")
            x = _diagonal(x, 0, i, j)  # the diagonal goes last
            lab = lab[:i] + lab[i + 1:j] + lab[j + 1:] + c
    gone = [i for i, c in enumerate(lab) if c not in keep]
    if gone:
        x = x.sum(dim=gone)
        lab = "".join(c for c in lab if c in keep)
    return x, lab


def _arranged(x, lab, order, size):
    """``x`` permuted to the labels ``order`` (each in ``lab``) and
    broadcast to their sizes."""
    x = x.permute(*[lab.index(c) for c in order])
    want = tuple(size[c] for c in order)
    return x if tuple(x.shape) == want else x.broadcast_to(*want)


def _pair(a, la, b, lb, keep, size):
    """The product of ``a`` and ``b`` summed over the labels both have and
    ``keep`` lacks, as one ``matmul``: labels batch, rows, columns."""
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    rows = [c for c in la if c not in lb]
    cols = [c for c in lb if c not in la]
    n = lambda cs: int(np.prod([size[c] for c in cs], dtype=np.int64))  # noqa: E731
    a = _arranged(a, la, batch + rows + summed, size)
    b = _arranged(b, lb, batch + summed + cols, size)
    bshape = [size[c] for c in batch]
    p = a.reshape(*bshape, n(rows), n(summed)) @ b.reshape(*bshape, n(summed), n(cols))
    return p.reshape(*bshape, *[size[c] for c in rows + cols]), "".join(batch + rows + cols)


def _sublist_equation(args):
    """PyTorch's sublist form, ``einsum(op1, [0, 1], op2, [1, 2], [0, 2])``
    (labels as integers 0 to 51, ``...`` as ``Ellipsis``), as an equation
    and its operands."""
    def letters(sub):
        out = []
        for v in sub:
            if v is Ellipsis:
                out.append("...")
            elif isinstance(v, int) and 0 <= v < len(_LETTERS):
                out.append(_LETTERS[v])
            else:
                raise ArgumentError(f"einsum: a sublist holds integers in [0, {len(_LETTERS)}) and ..., not {v!r}")
        return "".join(out)

    pairs, out = args[: len(args) // 2 * 2], args[len(args) // 2 * 2:]
    operands = pairs[0::2]
    equation = ",".join(letters(sub) for sub in pairs[1::2])
    if out:
        equation += "->" + letters(out[0])
    return equation, operands


def einsum(equation, *operands):
    """``einsum(equation, *operands)``: Einstein summation as PyTorch's
    (``"ij,jk->ik"``, ``"bij,bjk->bik"``, ``"ii->i"``, ``"...ij->...ji"``,
    without ``->`` the labels seen once in alphabetical order; also
    PyTorch's sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``). The
    operands (silt tensors of one dtype and device, or a list of them) are
    combined left to right, each pair as one batched ``matmul``, so the sums
    keep ``matmul``'s fixed order; an operand alone is summed (or viewed: a
    transpose or a diagonal shares its storage, as PyTorch's). Bool
    operands give bool results: a product is ``and``, a sum ``or``."""
    if not isinstance(equation, str) and operands and isinstance(operands[0], (list, tuple)):
        equation, operands = _sublist_equation((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ArgumentError("einsum: no operands")
    if not isinstance(equation, str):
        raise TypeError(f"einsum: the equation is a string, not {type(equation).__name__}")
    first = next((x for x in operands if isinstance(x, Tensor)), None)
    if first is None:
        raise TypeError("einsum: the operands are silt tensors")
    operands = [x if isinstance(x, Tensor) else tensor(np.asarray(x), device=first.device) for x in operands]
    for x in operands:
        if x.dtype != first.dtype:
            raise DTypeError(f"einsum: operands of one dtype, not {first.dtype} and {x.dtype}")
        if x.device != first.device:
            raise ArgumentError(f"einsum: operands on one device, not {first.device} and {x.device}")
    if first.dtype == np.bool_:
        # counted in int64 (matmul takes no bool), then whether any term held
        return einsum(equation, *[x.astype(np.int64) for x in operands]) != 0
    labels, out = _parse(equation, operands)
    size = _sizes(labels, operands)
    # fold each operand: what no other operand and not the output has is summed
    terms = []
    for k, (x, lab) in enumerate(zip(operands, labels)):
        others = out + "".join(lb for j, lb in enumerate(labels) if j != k)
        terms.append(_fold(x, lab, set(others)))
    x, lab = terms[0]
    for k in range(1, len(terms)):
        y, lb = terms[k]
        keep = set(out + "".join(l for _, l in terms[k + 1:]))
        x, lab = _pair(x, lab, y, lb, keep, size)
        x, lab = _fold(x, lab, keep)
    if len(terms) == 1:
        x, lab = _fold(x, lab, set(out))
    # of one operand, a view where it can be (a transpose, a diagonal), as PyTorch's
    return _arranged(x, lab, list(out), size)

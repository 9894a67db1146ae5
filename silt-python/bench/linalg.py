"""silt.linalg's factorisations and solves on every device silt finds:
milliseconds, best of 3 after a warm-up, each including the read-back of
its result (float64 matrices, well conditioned), beside numpy.linalg's
(LAPACK) on the host.

    python silt-python/bench/linalg.py

Use a release build of the module (scripts/bench-python builds one into
target/py-bench-venv) for the host backend's figures.
"""

import time

import numpy as np

import silt
from silt import linalg as LA

RNG = np.random.default_rng(0)

# (n, batch): 100 small matrices, one middling, one large
CASES = [(8, (100,)), (64, ()), (256, ())]


def best(f):
    f()
    out = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        r = f()
        (r[0] if isinstance(r, tuple) else r).numpy()
        out = min(out, time.perf_counter() - start)
    return out * 1e3


def main():
    for n, batch in CASES:
        a = RNG.standard_normal(batch + (n, n)) + 2 * np.eye(n)
        b = RNG.standard_normal(batch + (n, 1))
        sym = a @ np.swapaxes(a, -1, -2)
        ops = {
            "lu_factor": (lambda t, u, s: LA.lu_factor(t), None),
            "solve": (lambda t, u, s: LA.solve(t, u), lambda: np.linalg.solve(a, b)),
            "inv": (lambda t, u, s: LA.inv(t), lambda: np.linalg.inv(a)),
            "det": (lambda t, u, s: LA.det(t), lambda: np.linalg.det(a)),
            "qr": (lambda t, u, s: LA.qr(t), lambda: np.linalg.qr(a)),
        }
        if hasattr(LA, "eigh"):
            ops["eigh"] = (lambda t, u, s: LA.eigh(s), lambda: np.linalg.eigh(sym))
            ops["svd"] = (lambda t, u, s: LA.svd(t), lambda: np.linalg.svd(a))
        for name, (op, ref) in ops.items():
            cells = []
            for dev in silt.devices():
                t, u, s = (silt.tensor(v, device=dev) for v in (a, b, sym))
                cells.append(f"{str(dev).split(' ')[0]}: {best(lambda: op(t, u, s)):9.2f}")
            if ref is not None:
                ref()
                start = time.perf_counter()
                for _ in range(3):
                    ref()
                cells.append(f"numpy: {(time.perf_counter() - start) / 3 * 1e3:9.3f}")
            print(f"n={n:4} batch={str(batch):6} {name:9} " + "  ".join(cells) + "  (ms)")


if __name__ == "__main__":
    main()

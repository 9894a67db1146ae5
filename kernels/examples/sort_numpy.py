"""numpy.sort's time (and argsort's, stable) for the rows `bench_report --sort` times:
the same shapes and values (uniform floats in [-1, 1)), the median of `reps`.

    python kernels/examples/sort_numpy.py [LOG2_N] [REPS]
"""
import sys
import time

import numpy as np

log2 = int(sys.argv[1]) if len(sys.argv) > 1 else 24
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
rng = np.random.default_rng(1)
for shape in [(1 << log2,), (1 << (log2 - 10), 1024), (1 << (log2 - 4), 16)]:
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    for name, f in [("numpy.sort", np.sort), ("numpy.argsort stable", lambda a: np.argsort(a, kind="stable"))]:
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            f(x)
            times.append(time.perf_counter() - t)
        med = sorted(times)[len(times) // 2]
        print(f"| {name} | {list(shape)} | {med * 1e3:.1f} ms | {x.size / med / 1e6:.1f} M/s |")

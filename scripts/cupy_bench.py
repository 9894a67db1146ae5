#!/usr/bin/env python3
"""CuPy on the operations and sizes of silt's bench report, on the first CUDA GPU.

ElementwiseKernel for add, axpy (uncontracted and with the FMA CUDA contracts to by
default) and gelu; ReductionKernel for the full sum; a device-to-device copy for
the bandwidth ceiling. Prints Markdown tables in GB/s (bytes read and written per
second, as the report counts them). Without CuPy or a GPU it says so and exits 0.

    python3 scripts/cupy_bench.py            (2^16 .. 2^26)
    CUPY_QUICK=1 python3 scripts/cupy_bench.py   (2^20 and 2^26 only)
"""

import os
import sys

try:
    import cupy as cp
except Exception as e:  # ImportError, or a CUDA library that fails to load
    print(f"CuPy not available ({type(e).__name__}: {e}): skipped")
    sys.exit(0)


def device_name():
    try:
        props = cp.cuda.runtime.getDeviceProperties(0)
        name = props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception as e:
        print(f"no CUDA device ({e}): skipped")
        sys.exit(0)


def median_seconds(f, budget=0.3, max_runs=2000):
    """The median of CUDA-event timings of f() within about budget seconds."""
    f()
    cp.cuda.Device().synchronize()
    times = []
    spent = 0.0
    start, end = cp.cuda.Event(), cp.cuda.Event()
    while len(times) < 5 or (spent < budget and len(times) < max_runs):
        start.record()
        f()
        end.record()
        end.synchronize()
        t = cp.cuda.get_elapsed_time(start, end) / 1e3
        times.append(t)
        spent += t + 20e-6
    times.sort()
    return times[len(times) // 2]


def main():
    name = device_name()
    quick = os.environ.get("CUPY_QUICK", "0") not in ("", "0")
    sizes = [20, 26] if quick else list(range(16, 27, 2))

    add = cp.ElementwiseKernel("float32 a, float32 b", "float32 c", "c = a + b", "silt_add")
    # __fmul_rn/__fadd_rn are never contracted: silt's rounding
    axpy = cp.ElementwiseKernel(
        "float32 alpha, float32 x", "float32 y", "y = __fadd_rn(__fmul_rn(alpha, x), y)", "silt_axpy"
    )
    axpy_fma = cp.ElementwiseKernel("float32 alpha, float32 x", "float32 y", "y = alpha * x + y", "silt_axpy_fma")
    gelu = cp.ElementwiseKernel(
        "float32 x", "float32 y", "y = 0.5f * x * (1.0f + erff(x * 0.70710678118654752f))", "silt_gelu"
    )
    total = cp.ReductionKernel("float32 x", "float32 s", "x", "a + b", "s = a", "0", "silt_sum")

    print(f"CuPy {cp.__version__} on {name}\n")
    print("| op | elements | CuPy GB/s | device copy GB/s |")
    print("|---|---|---|---|")
    for l in sizes:
        n = 1 << l
        x = cp.arange(n, dtype=cp.float32) % 1000 / 100 - 5
        y = cp.zeros(n, dtype=cp.float32)
        out = cp.empty(n, dtype=cp.float32)
        copy = 8 * n / median_seconds(lambda: cp.copyto(out, x)) / 1e9
        cases = [
            ("add", 12, lambda: add(x, y, out)),
            ("axpy", 12, lambda: axpy(cp.float32(1e-3), x, y)),
            ("axpy, FMA", 12, lambda: axpy_fma(cp.float32(1e-3), x, y)),
            ("gelu", 8, lambda: gelu(x, out)),
            ("sum (read)", 4, lambda: total(x)),
        ]
        for op, bytes_per, f in cases:
            gbs = bytes_per * n / median_seconds(f) / 1e9
            print(f"| {op} | 2^{l} | {gbs:.1f} | {copy:.1f} |")
        del x, y, out
        cp.get_default_memory_pool().free_all_blocks()

    # launch overhead: one element, launch + synchronize, and 1,000 back to back
    import time

    x1 = cp.ones(1, dtype=cp.float32)
    y1 = cp.zeros(1, dtype=cp.float32)
    s = cp.cuda.Stream.null
    for _ in range(10):
        axpy(cp.float32(1.0), x1, y1)
    s.synchronize()
    one = []
    for _ in range(200):
        t = time.perf_counter()
        axpy(cp.float32(1.0), x1, y1)
        s.synchronize()
        one.append(time.perf_counter() - t)
    one.sort()
    t = time.perf_counter()
    for _ in range(1000):
        axpy(cp.float32(1.0), x1, y1)
    s.synchronize()
    many = (time.perf_counter() - t) / 1000
    print("\n| launch overhead, 1-element axpy | CuPy µs |")
    print("|---|---|")
    print(f"| launch + synchronize | {one[len(one) // 2] * 1e6:.2f} |")
    print(f"| each of 1,000 back to back | {many * 1e6:.2f} |")


if __name__ == "__main__":
    main()

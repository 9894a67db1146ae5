#!/usr/bin/env python3
"""CuPy on the operations and sizes of silt's bench report, on the first CUDA GPU.

ElementwiseKernel for add, axpy (uncontracted, and with the FMA CUDA contracts to
by default), gelu (silt's formula, 0.5*x*erfc(-x/sqrt(2)), as in
kernels/benches/raw/mod.rs; the textbook 1 + erf form as a variant row);
ReductionKernel for the full sum; a device-to-device copy for the bandwidth
ceiling. Prints Markdown tables in GB/s (bytes read and written per second, as
the report counts them).

Two timings of each case, both medians of repeated runs within a time budget
after one warm-up run and a ~1 s load that ramps the clocks up:
- wall: time.perf_counter() around the launch and the stream's synchronize,
  as silt's bench report times silt and the raw kernels (launch + clFinish);
- events: CUDA events recorded around the launch (GPU time only, without the
  host's launch and synchronize costs).

Without CuPy or a GPU it says so and exits 0 (2 with CUPY_REQUIRED=1).
Output is line-buffered, so a killed run keeps what it printed.

    python3 scripts/cupy_bench.py                (2^16 .. 2^26)
    CUPY_QUICK=1 python3 scripts/cupy_bench.py   (2^20 and 2^26 only)
"""

import os
import sys
import time

try:
    sys.stdout.reconfigure(line_buffering=True)
except (AttributeError, ValueError):
    pass


def skip(reason):
    """Says why nothing was measured; exit 0, or 2 where CuPy is required."""
    required = os.environ.get("CUPY_REQUIRED", "0") not in ("", "0")
    print(f"CuPy benchmark skipped: {reason}", flush=True)
    if required:
        print(f"cupy_bench.py: {reason} (CUPY_REQUIRED=1)", file=sys.stderr, flush=True)
    sys.exit(2 if required else 0)


try:
    import cupy as cp
except Exception as e:  # ImportError, or a CUDA library that fails to load
    skip(f"CuPy not available ({type(e).__name__}: {e})")


def device_name():
    try:
        props = cp.cuda.runtime.getDeviceProperties(0)
        name = props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception as e:
        skip(f"no CUDA device ({type(e).__name__}: {e})")


def median(times):
    times = sorted(times)
    return times[len(times) // 2]


def wall_seconds(f, budget, max_runs=2000):
    """The median wall time of f() plus the stream's synchronize (as silt's
    bench report times launch + clFinish), after one warm-up run."""
    s = cp.cuda.get_current_stream()
    f()
    s.synchronize()
    times = []
    start = time.perf_counter()
    while len(times) < 5 or (time.perf_counter() - start < budget and len(times) < max_runs):
        t = time.perf_counter()
        f()
        s.synchronize()
        times.append(time.perf_counter() - t)
    return median(times)


def event_seconds(f, budget, max_runs=2000):
    """The median CUDA-event time of f(), after one warm-up run."""
    f()
    cp.cuda.get_current_stream().synchronize()
    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
    times = []
    start = time.perf_counter()
    while len(times) < 5 or (time.perf_counter() - start < budget and len(times) < max_runs):
        ev0.record()
        f()
        ev1.record()
        ev1.synchronize()
        times.append(cp.cuda.get_elapsed_time(ev0, ev1) / 1e3)
    return median(times)


def warm_up(seconds=1.0):
    """A second of copies, so that the clocks have ramped up from idle."""
    n = 1 << 26
    a = cp.ones(n, dtype=cp.float32)
    b = cp.empty_like(a)
    s = cp.cuda.get_current_stream()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            cp.copyto(b, a)
        s.synchronize()
    del a, b
    cp.get_default_memory_pool().free_all_blocks()


def main():
    name = device_name()
    quick = os.environ.get("CUPY_QUICK", "0") not in ("", "0")
    sizes = [20, 26] if quick else list(range(16, 27, 2))
    budget = 0.25

    add = cp.ElementwiseKernel("float32 a, float32 b", "float32 c", "c = a + b", "silt_add")
    # __fmul_rn/__fadd_rn are never contracted: silt's rounding
    axpy = cp.ElementwiseKernel(
        "float32 alpha, float32 x", "float32 y", "y = __fadd_rn(__fmul_rn(alpha, x), y)", "silt_axpy"
    )
    axpy_fma = cp.ElementwiseKernel("float32 alpha, float32 x", "float32 y", "y = alpha * x + y", "silt_axpy_fma")
    # silt's gelu and the bench report's raw kernel: 0.5*x*erfc(-x*M_SQRT1_2_F)
    gelu = cp.ElementwiseKernel(
        "float32 x", "float32 y", "y = 0.5f * x * erfcf(-x * 0.70710678118654752f)", "silt_gelu"
    )
    # the report's raw variant (gelu_erf): the textbook 1 + erf form
    gelu_erf = cp.ElementwiseKernel(
        "float32 x", "float32 y", "y = 0.5f * x * (1.0f + erff(x * 0.70710678118654752f))", "silt_gelu_erf"
    )
    total = cp.ReductionKernel("float32 x", "float32 s", "x", "a + b", "s = a", "0", "silt_sum")

    print(f"CuPy {cp.__version__} on {name}\n")
    warm_up()
    print(
        "Each cell: median of repeated runs within 0.25 s after a warm-up run. "
        "wall = perf_counter around launch + stream synchronize (as silt's bench report); "
        "events = CUDA events around the launch (GPU time only).\n"
    )
    print("### Bandwidth (GB/s)\n")
    print("| op | elements | CuPy wall | CuPy events | device copy wall | device copy events |")
    print("|---|---|---|---|---|---|")
    for l in sizes:
        n = 1 << l
        x = cp.arange(n, dtype=cp.float32) % 1000 / 100 - 5
        y = cp.zeros(n, dtype=cp.float32)
        out = cp.empty(n, dtype=cp.float32)

        def copy():
            cp.copyto(out, x)

        copy_wall = 8 * n / wall_seconds(copy, budget) / 1e9
        copy_events = 8 * n / event_seconds(copy, budget) / 1e9
        cases = [
            ("add", 12, lambda: add(x, y, out)),
            ("axpy", 12, lambda: axpy(cp.float32(1e-3), x, y)),
            ("axpy, FMA", 12, lambda: axpy_fma(cp.float32(1e-3), x, y)),
            ("gelu", 8, lambda: gelu(x, out)),
            ("gelu, 1 + erf variant", 8, lambda: gelu_erf(x, out)),
            ("sum (read)", 4, lambda: total(x)),
        ]
        for op, bytes_per, f in cases:
            wall = bytes_per * n / wall_seconds(f, budget) / 1e9
            events = bytes_per * n / event_seconds(f, budget) / 1e9
            print(f"| {op} | 2^{l} | {wall:.1f} | {events:.1f} | {copy_wall:.1f} | {copy_events:.1f} |")
        del x, y, out
        cp.get_default_memory_pool().free_all_blocks()

    # launch overhead: one element, launch + synchronize, and 1,000 back to back
    x1 = cp.ones(1, dtype=cp.float32)
    y1 = cp.zeros(1, dtype=cp.float32)
    s = cp.cuda.get_current_stream()
    for _ in range(10):
        axpy(cp.float32(1.0), x1, y1)
    s.synchronize()
    one = []
    for _ in range(200):
        t = time.perf_counter()
        axpy(cp.float32(1.0), x1, y1)
        s.synchronize()
        one.append(time.perf_counter() - t)
    t = time.perf_counter()
    for _ in range(1000):
        axpy(cp.float32(1.0), x1, y1)
    s.synchronize()
    many = (time.perf_counter() - t) / 1000
    print("\n### Launch overhead (wall clock)\n")
    print("| launch overhead, 1-element axpy | CuPy µs |")
    print("|---|---|")
    print(f"| launch + synchronize | {median(one) * 1e6:.2f} |")
    print(f"| each of 1,000 back to back | {many * 1e6:.2f} |")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("cupy_bench.py: interrupted", flush=True)
        sys.exit(130)
    except Exception as e:
        print(f"\ncupy_bench.py failed: {type(e).__name__}: {e}", flush=True)
        raise

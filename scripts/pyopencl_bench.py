#!/usr/bin/env python3
"""Reference timings from PyOpenCL's ElementwiseKernel, for comparison with silt.

Times three float32 element-wise operations on the first OpenCL device found
(PoCL on this machine), using pyopencl.elementwise.ElementwiseKernel:

    add    c = a + b                                 (12 bytes/element)
    axpy   y += alpha * x, in place                  (12 bytes/element)
    gelu   y = 0.5f*x*(1.0f+erf(x*M_SQRT1_2_F))      ( 8 bytes/element)

for 2^10 .. 2^24 elements, and, beside silt's reductions and scans, a full
float32 sum through pyopencl.reduction.ReductionKernel and a cumulative sum
through pyopencl.scan.InclusiveScanKernel (4 bytes read per element) at
2^20 .. 2^24 elements. Each case is warmed up once (the first call
compiles), then timed call by call (each call followed by queue.finish())
for about half a second and at least 3 calls; the median per-call time and
the effective bandwidth (GB = 1e9 bytes) are printed as a Markdown table.

Run, after `source scripts/env.sh` (PoCL needs a writable cache folder):

    python3 scripts/pyopencl_bench.py [--json out.json]

--json writes the results as a list of {"op", "n", "us", "gbps"} objects
(GB/s counts the bytes read and written; for sum and cumsum, those read).
Needs pyopencl, numpy and mako (pip install pyopencl numpy mako); without them, or
without an OpenCL device, it prints one line saying so and exits 0.

PyOpenCL's elementwise kernels use a grid-stride loop over a fixed, small
launch grid, which suits GPUs but is slow on CPU devices such as PoCL, so a
large factor against silt's kernels is expected here.
"""
import argparse
import json
import statistics
import sys
import time

SIZES = [2**k for k in (10, 14, 18, 20, 22, 24)]
TARGET_S = 0.5  # aim for roughly this much timed work per measurement
MIN_REPS = 3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="PATH", help="also write results as JSON")
    args = ap.parse_args()

    try:
        import numpy as np
        import pyopencl as cl
        import pyopencl.array as cla
        from pyopencl.elementwise import ElementwiseKernel
        from pyopencl.reduction import ReductionKernel
        from pyopencl.scan import InclusiveScanKernel
    except ImportError:
        print("pyopencl, numpy or mako is not installed (pip install pyopencl numpy mako): skipped")
        return 0

    try:
        devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    except cl.Error:
        devices = []
    if not devices:
        print("no OpenCL platform/device found (for PoCL, source scripts/env.sh): skipped")
        return 0
    dev = devices[0]
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)

    kernels = {
        "add": (ElementwiseKernel(ctx, "const float *a, const float *b, float *c",
                                  "c[i] = a[i] + b[i]", "silt_add"), 12),
        "axpy": (ElementwiseKernel(ctx, "float alpha, const float *x, float *y",
                                   "y[i] += alpha * x[i]", "silt_axpy"), 12),
        "gelu": (ElementwiseKernel(ctx, "const float *x, float *y",
                                   "y[i] = 0.5f*x[i]*(1.0f+erf(x[i]*M_SQRT1_2_F))",
                                   "silt_gelu"), 8),
    }

    print(f"device: {dev.name.strip()} ({dev.platform.name.strip()})")
    print(f"pyopencl: {cl.VERSION_TEXT}")
    print()
    print("| op | elements | us/call | GB/s |")
    print("|---|---:|---:|---:|")

    rng = np.random.default_rng(0)
    big = max(SIZES)
    a_full = cla.to_device(queue, rng.standard_normal(big, dtype=np.float32))
    b_full = cla.to_device(queue, rng.standard_normal(big, dtype=np.float32))
    c_full = cla.empty_like(a_full)
    results = []
    for op, (knl, bytes_per_elem) in kernels.items():
        for n in SIZES:
            a, b, c = a_full[:n], b_full[:n], c_full[:n]
            args_ = {"add": (a, b, c), "axpy": (np.float32(1e-3), a, c), "gelu": (a, c)}[op]
            knl(*args_)  # warm-up; compiles on first use
            queue.finish()
            t0 = time.perf_counter()
            knl(*args_)
            queue.finish()
            once = max(time.perf_counter() - t0, 1e-7)
            times = []
            for _ in range(max(MIN_REPS, int(TARGET_S / once))):
                t0 = time.perf_counter()
                knl(*args_)
                queue.finish()
                times.append(time.perf_counter() - t0)
            med = statistics.median(times)
            gbps = bytes_per_elem * n / med / 1e9
            results.append({"op": op, "n": n, "us": med * 1e6, "gbps": gbps})
            print(f"| {op} | {n} | {med * 1e6:.1f} | {gbps:.2f} |", flush=True)

    # reductions and scans, the way a PyOpenCL user writes them
    total = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                            map_expr="x[i]", arguments="const float *x")
    cumsum = InclusiveScanKernel(ctx, np.float32, "a+b", neutral="0")
    print()
    print("| op | elements | us/call | GB/s read |")
    print("|---|---:|---:|---:|")
    for op in ("sum", "cumsum"):
        for n in (2**20, 2**22, 2**24):
            a = a_full[:n]
            if op == "sum":
                def call():
                    return total(a)
            else:
                scratch = cla.empty_like(a)

                def call():
                    scratch[:] = a
                    return cumsum(scratch)
            med = median_time(call, queue)
            if op == "cumsum":
                # the copy into the scratch array is not the scan's: time it apart
                def copy():
                    scratch[:] = a
                med = max(med - median_time(copy, queue), 1e-9)
            gbps = 4 * n / med / 1e9
            results.append({"op": op, "n": n, "us": med * 1e6, "gbps": gbps})
            print(f"| {op} | {n} | {med * 1e6:.1f} | {gbps:.2f} |", flush=True)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
            f.write("\n")
    return 0


def median_time(call, queue):
    """The median time of `call()` (then queue.finish()), after one warm-up."""
    call()  # warm-up; compiles on first use
    queue.finish()
    t0 = time.perf_counter()
    call()
    queue.finish()
    once = max(time.perf_counter() - t0, 1e-7)
    times = []
    for _ in range(max(MIN_REPS, int(TARGET_S / once))):
        t0 = time.perf_counter()
        call()
        queue.finish()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())

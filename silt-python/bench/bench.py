#!/usr/bin/env python3
"""silt from Python against NumPy and PyOpenCL, in one process.

Times, as the median of repeated calls (about half a second of work each):

- ``silt.ops.add`` on 2^24 float32 host tensors (silt's host backend; the
  tensors are NumPy arrays used in place) against ``numpy.add`` on the same
  arrays; both allocate their result; and the same in place (``c += b``:
  ``silt.ops.add_`` against ``numpy.add(c, b, out=c)``), without allocation;
- ``silt.ops.add`` on 2^24 float32 tensors of the first OpenCL device (PoCL
  here) against PyOpenCL's ``ElementwiseKernel`` ``c[i] = a[i] + b[i]`` on
  the same device, each call followed by a wait for the queue;
- the call overhead of a tiny op (16 float32 elements): ``numpy.add``,
  ``silt.ops.add`` on host tensors, on NumPy arrays (placed on the host in
  place per call), and on OpenCL tensors (with the wait).

Build the module in release first (scripts/bench-python does): a debug build
times nothing useful. Run: ``python bench.py [--json out.json]``.
PyOpenCL is optional: without it (or without an OpenCL device) its rows say
so.
"""

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import silt

TARGET_S = 0.5
MIN_REPS = 5


def median_time(call, sync=None):
    call()  # warm up (the first call builds programs)
    if sync:
        sync()
    t0 = time.perf_counter()
    call()
    if sync:
        sync()
    once = max(time.perf_counter() - t0, 1e-7)
    times = []
    for _ in range(max(MIN_REPS, min(200_000, int(TARGET_S / once)))):
        t0 = time.perf_counter()
        call()
        if sync:
            sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="PATH")
    ap.add_argument("--log2n", type=int, default=24)
    args = ap.parse_args()

    n = 1 << args.log2n
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    rows = []

    def row(case, impl, secs, nbytes):
        gbps = nbytes / secs / 1e9 if nbytes else None
        rows.append({"case": case, "impl": impl, "us": secs * 1e6, "gbps": gbps})
        g = f"{gbps:.1f}" if gbps else "-"
        print(f"| {case} | {impl} | {secs * 1e6:,.1f} | {g} |", flush=True)

    host = silt.Device("host")
    cl_devs = [d for d in silt.devices() if not d.is_host]
    print(f"numpy {np.__version__}; silt devices: {[str(d) for d in silt.devices()]}")
    print(f"host threads: {os.cpu_count()}")
    print()
    print("| case | implementation | us/call | GB/s |")
    print("|---|---|---:|---:|")

    big = f"add, 2^{args.log2n} float32"
    nbytes = 12 * n
    row(big, "numpy.add", median_time(lambda: np.add(a, b)), nbytes)
    ta, tb = silt.tensor(a, device=host), silt.tensor(b, device=host)
    row(big, "silt.ops.add, host backend", median_time(lambda: silt.ops.add(ta, tb)), nbytes)
    # in place (no result to allocate): c += b
    c = a.copy()
    tc = silt.tensor(c, device=host)
    inplace = f"add in place (c += b), 2^{args.log2n} float32"
    row(inplace, "numpy.add(c, b, out=c)", median_time(lambda: np.add(c, b, out=c)), nbytes)
    row(inplace, "silt.ops.add_(c, b), host backend", median_time(lambda: silt.ops.add_(tc, tb)), nbytes)

    if cl_devs:
        dev = cl_devs[0]
        oa, ob = silt.tensor(a, device=dev), silt.tensor(b, device=dev)
        row(big, f"silt.ops.add, {dev.spec} ({dev.info()['platform_name']})",
            median_time(lambda: silt.ops.add(oa, ob), dev.synchronize), nbytes)
        try:
            import pyopencl as cl
            import pyopencl.array as cla
            from pyopencl.elementwise import ElementwiseKernel

            pdev = [d for p in cl.get_platforms() for d in p.get_devices()][0]
            ctx = cl.Context([pdev])
            queue = cl.CommandQueue(ctx)
            knl = ElementwiseKernel(ctx, "const float *a, const float *b, float *c",
                                    "c[i] = a[i] + b[i]", "bench_add")
            pa, pb = cla.to_device(queue, a), cla.to_device(queue, b)

            def pyopencl_add():
                c = cla.empty_like(pa)
                knl(pa, pb, c)

            row(big, "PyOpenCL ElementwiseKernel, same device",
                median_time(pyopencl_add, queue.finish), nbytes)
            pc = cla.empty_like(pa)
            row(big, "PyOpenCL ElementwiseKernel, result preallocated",
                median_time(lambda: knl(pa, pb, pc), queue.finish), nbytes)
        except Exception as e:  # not installed, or no device for it
            print(f"| {big} | PyOpenCL: not run ({type(e).__name__}: {e}) | - | - |")
    else:
        print(f"| {big} | silt on OpenCL: no OpenCL device | - | - |")

    tiny = "add, 16 float32 (call overhead)"
    x, y = a[:16].copy(), b[:16].copy()
    row(tiny, "numpy.add", median_time(lambda: np.add(x, y)), 0)
    tx, ty = silt.tensor(x, device=host), silt.tensor(y, device=host)
    row(tiny, "silt.ops.add, host tensors", median_time(lambda: silt.ops.add(tx, ty)), 0)
    row(tiny, "silt.ops.add, NumPy arrays (host in place)",
        median_time(lambda: silt.ops.add(tx, y)), 0)
    if cl_devs:
        dev = cl_devs[0]
        ox, oy = silt.tensor(x, device=dev), silt.tensor(y, device=dev)
        row(tiny, "silt.ops.add, opencl:0 tensors (+ synchronize)",
            median_time(lambda: silt.ops.add(ox, oy), dev.synchronize), 0)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""nonzero and unique of an OpenCL tensor: on the device (silt's methods)
against the way they went before (the tensor copied to the host, NumPy,
the result copied back), best of 5, in milliseconds.

    python silt-python/bench/compaction.py [DEVICE]      # default opencl:0
"""

import sys
import time

import numpy as np

import silt


def best(f, device):
    f()
    out = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        f()
        device.synchronize()
        out = min(out, time.perf_counter() - start)
    return out * 1e3


def main():
    device = silt.Device(sys.argv[1] if len(sys.argv) > 1 else "opencl:0")
    rng = np.random.default_rng(0)
    print("| elements | nonzero | nonzero before | unique | unique before |")
    print("|---|---|---|---|---|")
    for n, share in [(1 << 16, 0.5), (1 << 22, 0.5), (1 << 22, 0.01)]:
        t = silt.tensor((rng.random(n) < share).astype(np.float32), device=device)

        def nonzero_host():
            found = np.nonzero(t.numpy())
            return silt.tensor(np.stack(found, 1).astype(np.int64), device=device)

        def unique_host():
            v, i, c = np.unique(t.numpy(), return_inverse=True, return_counts=True, equal_nan=False)
            return [silt.tensor(x, device=device) for x in (v, i.astype(np.int64), c.astype(np.int64))]

        times = [best(f, device) for f in (t.nonzero, nonzero_host,
                                           lambda: t.unique(return_inverse=True, return_counts=True),
                                           unique_host)]
        print(f"| 2^{n.bit_length() - 1}, {share:.0%} nonzero | " + " | ".join(f"{x:.1f}" for x in times) + " |")


if __name__ == "__main__":
    main()

"""silt.nn.functional's convolution and pooling against NumPy's best on the
host: conv2d as windows (sliding_window_view) contracted with the weights by
tensordot (OpenBLAS, its own threads), and a max pool as a reshape and max.
GFLOP/s (convolutions) or GB/s read (pools), best of 5 after a warm-up.

    python silt-python/bench/functional.py        # every device silt finds

Use a release build of the module (scripts/bench-python builds one into
target/py-bench-venv): a debug build's host backend times nothing useful.
"""

import time

import numpy as np

import silt
import silt.nn.functional as F


def best(f, device=None):
    f()
    out = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        f()
        if device is not None:
            device.synchronize()
        out = min(out, time.perf_counter() - start)
    return out


def numpy_conv2d(x, w, pad):
    x = np.pad(x, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    win = np.lib.stride_tricks.sliding_window_view(x, w.shape[2:], axis=(2, 3))  # n c h w i j
    return np.tensordot(win, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)


CONVS = [  # n, c, hw, o, k, pad
    (8, 64, 32, 64, 3, 1),
    (32, 3, 64, 32, 5, 2),
    (4, 256, 14, 256, 3, 1),
]


def main():
    rng = np.random.default_rng(0)
    devices = silt.devices()
    names = [str(d).split(" ")[0] for d in devices]
    print("| conv2d f32 (n, c, h=w, o, k) | " + " | ".join(f"silt {n}" for n in names) + " | NumPy | GFLOP |")
    print("|---|" + "---|" * (len(devices) + 2))
    for n, c, hw, o, k, pad in CONVS:
        x = rng.standard_normal((n, c, hw, hw)).astype(np.float32)
        w = rng.standard_normal((o, c, k, k)).astype(np.float32)
        flop = 2.0 * n * o * hw * hw * c * k * k
        cells = []
        for d in devices:
            tx, tw = silt.tensor(x, device=d), silt.tensor(w, device=d)
            got = F.conv2d(tx, tw, padding=pad)
            assert np.allclose(got.numpy(), numpy_conv2d(x, w, pad), rtol=1e-3, atol=1e-3)
            cells.append(flop / best(lambda: F.conv2d(tx, tw, padding=pad), d) / 1e9)
        cells.append(flop / best(lambda: numpy_conv2d(x, w, pad)) / 1e9)
        print(f"| {n}, {c}, {hw}, {o}, {k} | " + " | ".join(f"{v:.1f}" for v in cells) + f" | {flop / 1e9:.2f} |")

    print()
    print("| max_pool2d 2x2 f32 [32, 64, 112, 112] | " + " | ".join(f"silt {n}" for n in names) + " | NumPy |")
    print("|---|" + "---|" * (len(devices) + 1))
    x = rng.standard_normal((32, 64, 112, 112)).astype(np.float32)
    cells = []
    for d in devices:
        tx = silt.tensor(x, device=d)
        cells.append(x.nbytes / best(lambda: F.max_pool2d(tx, 2), d) / 1e9)
    cells.append(x.nbytes / best(lambda: x.reshape(32, 64, 56, 2, 56, 2).max((3, 5))) / 1e9)
    print("| GB/s read | " + " | ".join(f"{v:.2f}" for v in cells) + " |")


if __name__ == "__main__":
    main()

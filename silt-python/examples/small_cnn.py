"""A small convolutional network's forward pass with silt.nn.functional, on
every device silt finds, checked against the same network written in NumPy.

    python silt-python/examples/small_cnn.py

The network (random weights, a batch of 16 images of 1 x 28 x 28): conv 3 x 3
to 8 channels, relu, 2 x 2 max pool, conv 3 x 3 to 16 channels (padding 1),
batch norm (inference), relu, adaptive average pool to 4 x 4, flatten, linear
to 10 classes, cross entropy against random labels.
"""

import time

import numpy as np

import silt
import silt.nn.functional as F

rng = np.random.default_rng(0)
images = rng.standard_normal((16, 1, 28, 28)).astype(np.float32)
labels = rng.integers(0, 10, 16)
params = {
    "w1": rng.standard_normal((8, 1, 3, 3)).astype(np.float32) / 3,
    "b1": rng.standard_normal(8).astype(np.float32) / 10,
    "w2": rng.standard_normal((16, 8, 3, 3)).astype(np.float32) / 8,
    "mean": rng.standard_normal(16).astype(np.float32) / 10,
    "var": rng.uniform(0.5, 2, 16).astype(np.float32),
    "w3": rng.standard_normal((10, 16 * 4 * 4)).astype(np.float32) / 16,
    "b3": np.zeros(10, np.float32),
}


def forward(x, y, p):
    """The network on silt tensors: the logits and the mean loss."""
    h = F.relu(F.conv2d(x, p["w1"], p["b1"]))              # [16, 8, 26, 26]
    h = F.max_pool2d(h, 2)                                # [16, 8, 13, 13]
    h = F.conv2d(h, p["w2"], padding=1)                   # [16, 16, 13, 13]
    h = F.relu(F.batch_norm(h, p["mean"], p["var"]))
    h = F.adaptive_avg_pool2d(h, 4)                       # [16, 16, 4, 4]
    logits = F.linear(h.flatten(1), p["w3"], p["b3"])     # [16, 10]
    return logits, F.cross_entropy(logits, y)


def forward_numpy(x, y, p):
    """The same network in NumPy (float64)."""
    def conv(x, w, pad=0):
        x = np.pad(x, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
        win = np.lib.stride_tricks.sliding_window_view(x, w.shape[2:], axis=(2, 3))
        return np.einsum("nchwij,ocij->nohw", win, w)

    h = np.maximum(conv(x, p["w1"]) + p["b1"][:, None, None], 0)
    n, c, hh, ww = h.shape
    h = h.reshape(n, c, hh // 2, 2, ww // 2, 2).max((3, 5))
    h = conv(h, p["w2"], 1)
    h = (h - p["mean"][:, None, None]) / np.sqrt(p["var"][:, None, None] + 1e-5)
    h = np.maximum(h, 0)
    # 13 -> 4: PyTorch's windows [floor(13 i / 4), ceil(13 (i + 1) / 4))
    edges = [(i * 13 // 4, -(-(i + 1) * 13 // 4)) for i in range(4)]
    h = np.stack([np.stack([h[:, :, a:b, c:d].mean((2, 3)) for c, d in edges], -1) for a, b in edges], -2)
    logits = h.reshape(n, -1) @ p["w3"].T + p["b3"]
    shifted = logits - logits.max(1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    return logits, -logp[np.arange(n), y].mean()


def main():
    as64 = {k: v.astype(np.float64) for k, v in params.items()}
    want_logits, want_loss = forward_numpy(images.astype(np.float64), labels, as64)
    for device in silt.devices():
        x = silt.tensor(images, device=device)
        y = silt.tensor(labels, device=device)
        p = {k: silt.tensor(v, device=device) for k, v in params.items()}
        forward(x, y, p)  # builds the programs
        started = time.perf_counter()
        logits, loss = forward(x, y, p)
        loss = loss.item()
        ms = 1e3 * (time.perf_counter() - started)
        diff = np.abs(logits.numpy() - want_logits).max()
        print(f"{device}: loss {loss:.5f} (NumPy {want_loss:.5f}), logits within {diff:.1e}, {ms:.1f} ms")
        assert diff < 1e-4 and abs(loss - want_loss) < 1e-4, (diff, loss, want_loss)


if __name__ == "__main__":
    main()

"""silt on a dask cluster: a dask array cut into chunks, each chunk run
through silt operations by a worker process of a distributed.LocalCluster.

This is how a silt user whose data outgrows one process scales out: dask
cuts the array, schedules the chunks over its workers (processes here; the
machines of a cluster alike) and puts the results together; each worker runs
silt on its chunks, on its own device (``SILT_DEVICE`` or the spec given).

    python silt-python/examples/dask_map_blocks.py [DEVICE]   # host, opencl:0, ...

Needs ``pip install "dask[array]" distributed``.
"""

import os
import sys

import numpy as np
import dask.array as da
from distributed import Client, LocalCluster

import silt


def gelu_bias(block, bias, device):
    """One chunk: gelu(block + bias) on ``device``, back as a NumPy array (a
    copy from an OpenCL device, a view of the result on the host)."""
    x = silt.tensor(block, device=device)
    return silt.ops.gelu(x + bias).numpy()


def main(device="host", workers=2):
    rng = np.random.default_rng(0)
    a = rng.uniform(-3, 3, (2_000, 1_000)).astype(np.float32)
    bias = rng.uniform(-1, 1, (1_000,)).astype(np.float32)

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        pids = set(client.run(os.getpid).values())
        print(f"{len(pids)} worker processes: {sorted(pids)}")

        x = da.from_array(a, chunks=(500, 500))  # 8 chunks
        # NumPy chunks in and out: each worker runs silt on its chunks
        b = da.from_array(bias[None, :], chunks=(1, 500))  # blocks matched to x's columns
        y = da.map_blocks(gelu_bias, x, b, device, dtype=np.float32)
        # or silt tensors as the chunks themselves: dask applies operators and
        # reductions to them, silt runs them on the chunks' device, and the
        # result is put together there (silt's np.concatenate): a silt tensor
        meta = silt.tensor(np.empty((0, 0), np.float32), device="host")
        t = x.map_blocks(lambda b: silt.tensor(b, device=device), meta=meta)
        col_sums = (t * 0.5 + 1).map_blocks(lambda b: b.exp(), meta=meta).sum(axis=0)

        got = y.compute()
        sums = col_sums.compute()
        assert isinstance(sums, silt.Tensor) and sums.device == silt.Device(device)
        sums = sums.numpy()

    want = silt.ops.gelu(silt.tensor(a + bias, device=device)).numpy()
    assert np.array_equal(got, want), "chunks computed by the workers differ from one process's result"
    ref = np.exp(a.astype(np.float64) * 0.5 + 1).sum(axis=0)
    assert np.allclose(sums, ref, rtol=1e-5), "column sums over silt chunks"
    print(f"gelu(x + bias) over {x.npartitions} chunks on {device}: same bits as one process")
    print(f"column sums of exp(x / 2 + 1) over silt tensor chunks: {sums[:3]} ...")
    return got


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "host")

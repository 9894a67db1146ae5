"""silt on dask: a distributed.LocalCluster of 2 worker processes runs silt
operations on the chunks of dask arrays (map_blocks with NumPy chunks, and
silt tensors as the chunks themselves), on the host backend and an OpenCL
device; the example silt-python/examples/dask_map_blocks.py runs as written."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import silt

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_map_blocks.py"


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def test_the_workers_are_two_processes(client):
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids


def test_map_blocks_runs_silt_in_the_workers(client, device):
    spec = device.spec
    rng = np.random.default_rng(1)
    a = rng.uniform(-3, 3, (300, 200)).astype(np.float32)
    x = da.from_array(a, chunks=(100, 100))

    def block(b):
        # in a worker process: silt's result and the process that made it
        y = silt.ops.sigmoid(silt.tensor(b, device=spec) * 2).numpy()
        return np.stack([y, np.full_like(y, os.getpid())])

    out = da.map_blocks(block, x, new_axis=0, chunks=((2,),) + x.chunks, dtype=np.float32).compute()
    want = silt.ops.sigmoid(silt.tensor(a, device=device) * 2).numpy()
    np.testing.assert_array_equal(out[0], want)  # the same bits as one process
    assert os.getpid() not in set(np.unique(out[1]).astype(int))


def test_silt_tensors_as_chunks(client, device):
    spec = device.spec
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, (200, 300)).astype(np.float32)
    meta = silt.tensor(np.empty((0, 0), np.float32), device="host")
    t = da.from_array(a, chunks=(100, 100)).map_blocks(lambda b: silt.tensor(b, device=spec), meta=meta)
    # dask applies operators, silt methods and reductions to the silt chunks
    u = (t * 3 - 1).map_blocks(lambda b: b.tanh(), meta=meta)
    sums = u.sum(axis=1).compute()
    # put together on the device too (np.concatenate of silt tensors is silt's)
    assert isinstance(sums, silt.Tensor) and sums.device == device
    np.testing.assert_allclose(sums.numpy(), np.tanh(a.astype(np.float64) * 3 - 1).sum(axis=1), rtol=1e-5)
    whole = u.compute()
    assert isinstance(whole, silt.Tensor) and whole.device == device and whole.shape == a.shape
    np.testing.assert_allclose(whole.numpy(), np.tanh(a * 3 - 1), rtol=1e-6)
    blocks = u.to_delayed().ravel()
    first = blocks[0].compute()
    assert isinstance(first, silt.Tensor) and first.device.spec == spec  # pickled back from a worker


def test_the_example_runs():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, str(EXAMPLE), "host"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "2 worker processes" in r.stdout and "same bits" in r.stdout

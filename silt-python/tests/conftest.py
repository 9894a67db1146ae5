"""Shared fixtures: the devices to test on (the host backend and every OpenCL
device). With CI=true a missing OpenCL device is a failure, not a skip."""

import os

import pytest

import silt


def _opencl_devices():
    return [d for d in silt.devices() if not d.is_host]


@pytest.fixture(scope="session")
def host():
    return silt.Device("host")


@pytest.fixture(scope="session")
def opencl():
    devs = _opencl_devices()
    if not devs:
        if os.environ.get("CI") == "true":
            pytest.fail("no OpenCL device found (CI=true: device tests must run)")
        pytest.skip("no OpenCL device")
    return devs[0]


@pytest.fixture(params=["host", "opencl"])
def device(request, host):
    if request.param == "host":
        return host
    return request.getfixturevalue("opencl")

"""``bench/gpu_smoke.py``'s checks of what issue 30 added (CuPy's own memory apart, gather's zeros
on a GPU, op times from CUDA events) run here on the strict fake CuPy: its ``devtrace`` command
becomes ``tests/fake_gpu_cli.py`` (NVML answers with an A100, CuPy is the fake), so the script
the day a GPU is lent runs the checks this suite already passes."""

import importlib.util
import os
import sys

import pytest

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("gpu_smoke", os.path.join(ROOT, "bench", "gpu_smoke.py"))
gpu_smoke = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gpu_smoke)


@pytest.fixture
def faked(monkeypatch):
    monkeypatch.setattr(gpu_smoke, "DEVTRACE", [sys.executable, os.path.join(ROOT, "tests", "fake_gpu_cli.py")])
    return gpu_smoke


def test_tensor_figures_equal_the_simulated_gpus_with_cupys_own_apart(faked):
    assert faked.check_own_memory() == ("tensors 131584 B in use, 328192 B peak (= simulated); CuPy's own "
                                        "131072 B now, 262144 B peak")


def test_gather_out_of_range_gives_zeros_on_the_gpu(faked):
    assert faked.check_gather_out_of_range() == "zeros on the GPU, InvalidArgumentError on the CPU"


def test_a_trace_times_ops_with_cuda_events(faked):
    assert faked.check_kernel_times() == "MatMul 2048x2048 took 0.001 ms on the GPU (CUDA events)"


def test_the_new_checks_are_part_of_the_run():
    names = [name for name, _ in gpu_smoke.checks()]
    assert {"tensor figures = simulated GPU's, CuPy's own apart", "gather out of range: zeros on the GPU",
            "op times from CUDA events in a trace"} <= set(names)

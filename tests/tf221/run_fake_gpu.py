"""Run a probe program as ``run_devtrace.py`` does, on a faked real GPU: NVML answers with GPUs of
the simulated GPUs' model and CuPy is the strict fake (``tests/fake_cupy.py``), so every kernel runs
through the CuPy backend as on a machine with NVIDIA GPUs.

    python tests/tf221/run_fake_gpu.py [--gpus N] programs/NAME.py
"""

import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fake_gpu_cli  # noqa: E402

count = 1
if sys.argv[1:2] == ["--gpus"]:
    count, sys.argv = int(sys.argv[2]), sys.argv[:1] + sys.argv[3:]
fake_gpu_cli.install(fake_gpu_cli.like_simulated(count))

from devtrace import as_tensorflow  # noqa: E402

as_tensorflow.install()
path = sys.argv[1]
sys.path[0] = os.path.dirname(os.path.abspath(path))  # as `python path` does
sys.argv = sys.argv[1:]
runpy.run_path(path, run_name="__main__")

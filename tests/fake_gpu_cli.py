"""Run devtrace's CLI on a machine whose GPUs are fakes: NVML answers with the fake CUDA
runtime's GPUs and CuPy is :mod:`fake_cupy` — the real-GPU path end to end, in a subprocess.

    python tests/fake_gpu_cli.py [--gpus A100,H100,...] run prog.py --limit 64
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fake_cupy import FakeCupy, FakeGPU  # noqa: E402

MODELS = {"A100": ("NVIDIA A100-SXM4-80GB", 81920, 108, (8, 0)), "H100": ("NVIDIA H100 80GB HBM3", 81559, 132, (9, 0)),
          "V100": ("Tesla V100-SXM2-16GB", 16384, 80, (7, 0))}


def install(gpus):
    """NVML answers with ``gpus`` (:class:`FakeGPU`) and CuPy is the strict fake driving them."""
    fake = FakeCupy(gpus=gpus)
    os.environ["DEVTRACE_NVML"] = "1"  # a machine with a driver: NVML is asked (and answers with the fakes)

    from devtrace.devices import nvml
    from devtrace.devices.physical import GPUInfo
    from devtrace.runtime import backends

    infos = [GPUInfo(index=i, name=g.name, uuid=g.uuid, pci_bus_id=g.bus, memory_total=g.total, memory_used=0,
                     compute_capability=g.cc, multiprocessor_count=g.sm, backend="nvml", driver_version="550.54.15")
             for i, g in enumerate(gpus)]
    nvml.probe_devices = lambda module=None, force=False: (list(infos), [], None)
    backends._import_cupy = lambda: fake
    return fake


def like_simulated(count=1):
    """Fake GPUs of the simulated GPUs' model, so that a program prints the same on both."""
    from devtrace.devices import simulated

    return [FakeGPU(g.name, g.memory_total, g.multiprocessor_count, g.compute_capability, g.pci_bus_id, g.uuid)
            for g in simulated.parse_simulate(str(count))]


def main(argv):
    models = ["A100"]
    if argv[:1] == ["--gpus"]:
        models, argv = argv[1].split(","), argv[2:]
    install([FakeGPU(*MODELS[m][:1], MODELS[m][1] << 20, *MODELS[m][2:], bus=f"0000:{0x10 + i:02x}:00.0")
             for i, m in enumerate(models)])
    from devtrace.cli.app import main as cli

    sys.argv = ["devtrace", *argv]
    cli()


if __name__ == "__main__":
    main(sys.argv[1:])

"""Choose the discovery backend: simulated (flag or env) → NVML when a driver answers → CPU.
``DEVTRACE_NVML=0`` never asks NVML, ``=1`` asks it even without the device-node pre-flight."""

from __future__ import annotations

import dataclasses
import os
import re

from ..errors import UsageError
from . import cpu, nvml, simulated, visibility
from .physical import Machine


def _from(variable: str | None, value: str, parse):
    """``parse(value)``; a bad value from an environment variable is blamed on the variable."""
    if variable is None:
        return parse(value)
    try:
        return parse(value)
    except UsageError as e:
        text = re.sub(r"^--simulate( \S+)?: ", "", str(e))
        raise UsageError(f"{variable}={value}: {text}") from None


# The one switch for the seeds' older TensorFlow: "tf2" (default) is TensorFlow 2.21; "tf1" is what the
# 2017 guide and its TF1 ancestors show: Cast without a GPU kernel (its CPU fallback), TF1 graphs in
# TensorFlow 1's node order, ``compat.v1.Variable`` a ref variable, placement errors without TF 2's envelope.
COMPAT = {"tf2": "TensorFlow 2.21 (the default)", "tf1": "the 2017 guide's TensorFlow 1"}


def compat_mode(flag: str | None = None, env=None) -> str:
    """``--compat`` (``flag``), else ``DEVTRACE_COMPAT``, else ``"tf2"``; a bad value is one line
    naming the flag or the variable."""
    env = os.environ if env is None else env
    value, source = (flag, "--compat ") if flag is not None else (env.get("DEVTRACE_COMPAT") or None, "DEVTRACE_COMPAT=")
    if value is None:
        return "tf2"
    if value not in COMPAT:
        raise UsageError(f"{source}{value}: choose tf2 (TensorFlow 2.21, the default) or tf1 (the 2017 guide's "
                         f"TensorFlow 1: Cast on the CPU only, TF1 graph order, ref variables)")
    return value


# ``--compute`` / ``DEVTRACE_COMPUTE``: "all" runs every kernel; "none" places, logs, traces and accounts
# every op as a computing run does, its outputs planned from shape functions (runtime/compute_mode.py)
COMPUTE = {"all": "every kernel computes (the default)", "none": "no kernel computes: placement and memory only"}


def compute_mode(flag: str | None = None, env=None) -> str:
    """``--compute`` (``flag``), else ``DEVTRACE_COMPUTE``, else ``"all"``; a bad value is one line
    naming the flag or the variable."""
    env = os.environ if env is None else env
    value, source = (flag, "--compute ") if flag is not None else (env.get("DEVTRACE_COMPUTE") or None,
                                                                  "DEVTRACE_COMPUTE=")
    if value is None:
        return "all"
    if value not in COMPUTE:
        raise UsageError(f"{source}{value}: choose all (every kernel computes, the default) or none (ops are "
                         f"placed, traced and accounted, no value is computed)")
    return value


def discover(simulate: str | None = None, machine: str | None = None, env=None, nvml_module=None,
             compat: str | None = None, compute: str | None = None) -> Machine:
    """What this process sees. ``simulate``/``machine`` win over ``DEVTRACE_SIMULATE`` /
    ``DEVTRACE_MACHINE``, ``compat`` over ``DEVTRACE_COMPAT``; ``CUDA_VISIBLE_DEVICES`` and
    ``CUDA_DEVICE_ORDER`` apply to real and simulated GPUs alike. Raises ``UsageError`` for bad
    specs, files and env values."""
    return visible_machine(probe(simulate, machine, env, nvml_module, compat, compute), env)


def probe(simulate: str | None = None, machine: str | None = None, env=None, nvml_module=None,
          compat: str | None = None, compute: str | None = None) -> Machine:
    """Every GPU of the machine, before ``CUDA_VISIBLE_DEVICES``/``CUDA_DEVICE_ORDER`` (which
    :func:`visible_machine` applies at the process's first device use, as CUDA reads them then)."""
    env = os.environ if env is None else env
    mode = compat_mode(compat, env)
    computing = compute_mode(compute, env)
    source = None
    if simulate is None and machine is None:  # DEVTRACE_MACHINE wins when both are set
        machine = env.get("DEVTRACE_MACHINE") or None
        simulate = None if machine else env.get("DEVTRACE_SIMULATE") or None
        source = "DEVTRACE_MACHINE" if machine else "DEVTRACE_SIMULATE" if simulate else None
    note, unavailable = None, []
    if machine is not None:
        gpus, backend = _from(source, machine, simulated.load_machine), "simulated"
    elif simulate is not None:
        gpus, backend = _from(source, simulate, simulated.parse_simulate), "simulated"
    else:
        use_nvml = nvml.enabled(env)
        if use_nvml is False:
            gpus, unavailable, note = [], [], f"DEVTRACE_NVML=0: NVML not asked, CPU only; {nvml.SIMULATE_HINT}"
        else:
            gpus, unavailable, note = nvml.probe_devices(nvml_module, force=bool(use_nvml))
        backend = "nvml" if gpus else "cpu"
    return Machine(cpu=cpu.probe(), gpus=tuple(gpus), all_gpus=tuple(gpus), backend=backend, note=note,
                   unavailable=tuple(unavailable), compat=mode, compute=computing)


def visible_machine(probed: Machine, env=None) -> Machine:
    """``probed`` with the GPUs ``CUDA_VISIBLE_DEVICES`` leaves, in ``CUDA_DEVICE_ORDER``'s order."""
    env = os.environ if env is None else env
    gpus = list(probed.all_gpus)
    ordered = visibility.order_devices(gpus, env.get("CUDA_DEVICE_ORDER"))
    visible = visibility.apply_visible_devices(ordered, env.get("CUDA_VISIBLE_DEVICES"))
    note = probed.note
    if gpus and not visible and note is None:
        note = f"CUDA_VISIBLE_DEVICES={env.get('CUDA_VISIBLE_DEVICES')!r} hides every GPU"
    visible, unusable = one_mig_instance(visible)
    return dataclasses.replace(probed, gpus=tuple(visible), note=note, unavailable=probed.unavailable + unusable)


def one_mig_instance(gpus: list) -> tuple[list, tuple[tuple[int, str], ...]]:
    """CUDA gives a process one MIG instance (NVIDIA's MIG guide: a CUDA process enumerates a single
    MIG device): the first of ``gpus`` stays with the whole GPUs, the others are present but not
    usable here, each with the reason."""
    migs = [g for g in gpus if g.uuid.upper().startswith("MIG-")]
    unusable = tuple((g.index, f"MIG instance {g.uuid} ({g.name}) is present but not usable by this process: CUDA "
                               f"exposes one MIG instance per process, here {migs[0].uuid} (choose another with "
                               f"CUDA_VISIBLE_DEVICES={g.uuid})") for g in migs[1:])
    return [g for g in gpus if g not in migs[1:]], unusable

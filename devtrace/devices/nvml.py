"""Real GPUs through NVML (the ``pynvml`` module from ``nvidia-ml-py``), imported lazily.

No driver, no library, a driver that is not loaded or no permission are *states*, not
crashes: ``probe`` then returns no GPUs and a one-line reason.
"""

from __future__ import annotations

import os
import warnings

from .physical import GPUInfo

DEVICE_NODES = ("/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg")
SIMULATE_HINT = "simulate GPUs with --simulate 2 (or DEVTRACE_SIMULATE=2)"


def has_driver_nodes() -> bool:
    """Cheap pre-flight, before loading any library: does the kernel expose an NVIDIA device?"""
    return any(os.path.exists(p) for p in DEVICE_NODES)


def _reason(nvml, err) -> str:
    names = {
        "NVMLError_LibraryNotFound": "the NVML library (libnvidia-ml.so.1) was not found",
        "NVMLError_DriverNotLoaded": "the NVIDIA driver is installed but not loaded",
        "NVMLError_NoPermission": "no permission to talk to the NVIDIA driver",
        "NVMLError_LibRmVersionMismatch": "the NVIDIA driver and library versions do not match (reboot after a driver upgrade?)",
    }
    for cls, text in names.items():
        if isinstance(err, getattr(nvml, cls, ())):
            return text
    return f"NVML failed: {err}"


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _bus_id(raw: str) -> str:
    """NVML's ``00000000:05:00.0`` → TensorFlow's ``0000:05:00.0``."""
    domain, _, rest = raw.partition(":")
    return f"{domain[-4:]}:{rest}".lower() if rest else raw.lower()


def probe(nvml=None) -> tuple[list[GPUInfo], str | None]:
    """GPUs in NVML index order, or ``([], reason)``. ``nvml`` injects a module (tests)."""
    if nvml is None:
        if not has_driver_nodes():
            return [], f"no NVIDIA driver found (no /dev/nvidiactl): CPU only; {SIMULATE_HINT}"
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The pynvml package is deprecated")
            try:
                import pynvml as nvml
            except ImportError:
                return [], f"nvidia-ml-py is not installed: CPU only; {SIMULATE_HINT}"
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as err:
        return [], f"{_reason(nvml, err)}: CPU only; {SIMULATE_HINT}"
    try:
        driver = _text(nvml.nvmlSystemGetDriverVersion())
        gpus = []
        for i in range(nvml.nvmlDeviceGetCount()):
            h = nvml.nvmlDeviceGetHandleByIndex(i)
            mem = nvml.nvmlDeviceGetMemoryInfo(h)
            major, minor = nvml.nvmlDeviceGetCudaComputeCapability(h)
            gpus.append(GPUInfo(
                index=i, name=_text(nvml.nvmlDeviceGetName(h)), uuid=_text(nvml.nvmlDeviceGetUUID(h)),
                pci_bus_id=_bus_id(_text(nvml.nvmlDeviceGetPciInfo(h).busId)),
                memory_total=int(mem.total), memory_used=int(mem.used),
                compute_capability=(int(major), int(minor)),
                multiprocessor_count=_multiprocessors(nvml, h), backend="nvml", driver_version=driver))
    except nvml.NVMLError as err:
        return [], f"{_reason(nvml, err)}: CPU only; {SIMULATE_HINT}"
    finally:
        try:
            nvml.nvmlShutdown()
        except nvml.NVMLError:
            pass
    if not gpus:
        return [], f"the NVIDIA driver reports no GPUs: CPU only; {SIMULATE_HINT}"
    return gpus, None


def _multiprocessors(nvml, handle) -> int | None:
    """NVML has no SM count; derive it from the core count where the driver reports one."""
    try:
        cores = nvml.nvmlDeviceGetNumGpuCores(handle)
    except (nvml.NVMLError, AttributeError):
        return None
    return None if not cores else max(1, int(cores) // 128)


def memory_now(nvml=None) -> dict[str, tuple[int, int]]:
    """``{uuid: (used, free)}`` as the driver sees it now: beside devtrace's own figures this
    shows what no framework reports (the CUDA context, other processes). Empty when NVML fails."""
    if nvml is None:
        try:
            import pynvml as nvml
        except ImportError:
            return {}
    try:
        nvml.nvmlInit()
    except nvml.NVMLError:
        return {}
    try:
        out = {}
        for i in range(nvml.nvmlDeviceGetCount()):
            h = nvml.nvmlDeviceGetHandleByIndex(i)
            mem = nvml.nvmlDeviceGetMemoryInfo(h)
            out[_text(nvml.nvmlDeviceGetUUID(h))] = (int(mem.used), int(mem.free))
        return out
    except nvml.NVMLError:
        return {}
    finally:
        try:
            nvml.nvmlShutdown()
        except nvml.NVMLError:
            pass

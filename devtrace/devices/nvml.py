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
        "NVMLError_GpuIsLost": "the GPU is lost (fell off the bus; NVML: GPU is lost)",
        "NVMLError_InsufficientPower": "the GPU has insufficient power",
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


# CUDA cores per multiprocessor by compute capability (the CUDA samples' _ConvertSMVer2Cores):
# NVML reports cores, CUDA's FASTEST_FIRST and TensorFlow report multiprocessors.
CORES_PER_SM = {(3, 0): 192, (3, 2): 192, (3, 5): 192, (3, 7): 192, (5, 0): 128, (5, 2): 128, (5, 3): 128,
                (6, 0): 64, (6, 1): 128, (6, 2): 128, (7, 0): 64, (7, 2): 64, (7, 5): 64, (8, 0): 64, (8, 6): 128,
                (8, 7): 128, (8, 9): 128, (9, 0): 128}


def enabled(env) -> bool | None:
    """``DEVTRACE_NVML``: ``0`` never probes NVML, ``1`` probes it without the device-node
    pre-flight; unset: pre-flight, then NVML."""
    value = (env.get("DEVTRACE_NVML") or "").strip()
    if value in ("", "auto"):
        return None
    if value not in ("0", "1"):
        from ..errors import UsageError

        raise UsageError(f"DEVTRACE_NVML={value}: expected 0 (never ask NVML) or 1 (always ask NVML)")
    return value == "1"


def probe(nvml=None, force: bool = False) -> tuple[list[GPUInfo], str | None]:
    """GPUs in NVML index order, or ``([], reason)``. ``nvml`` injects a module (tests)."""
    gpus, _, note = probe_devices(nvml, force)
    return gpus, note


def probe_devices(nvml=None, force: bool = False) -> tuple[list[GPUInfo], list[tuple[int, str]], str | None]:
    """``(usable GPUs, [(NVML index, reason)] of GPUs whose NVML calls failed, note)``: one GPU
    that is lost or forbidden does not hide the others. A GPU in MIG mode is listed as its MIG
    instances (what CUDA enumerates). ``force`` skips the device-node pre-flight."""
    if nvml is None:
        if not force and not has_driver_nodes():
            return [], [], f"no NVIDIA driver found (no /dev/nvidiactl): CPU only; {SIMULATE_HINT}"
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The pynvml package is deprecated")
            try:
                import pynvml as nvml
            except ImportError:
                return [], [], f"nvidia-ml-py is not installed: CPU only; {SIMULATE_HINT}"
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as err:
        return [], [], f"{_reason(nvml, err)}: CPU only; {SIMULATE_HINT}"
    gpus, unavailable = [], []
    try:
        driver = _text(nvml.nvmlSystemGetDriverVersion())
        for i in range(nvml.nvmlDeviceGetCount()):
            try:
                gpus.extend(_device(nvml, i, driver))
            except nvml.NVMLError as err:
                unavailable.append((i, _reason(nvml, err)))
    except nvml.NVMLError as err:
        return [], [], f"{_reason(nvml, err)}: CPU only; {SIMULATE_HINT}"
    finally:
        try:
            nvml.nvmlShutdown()
        except nvml.NVMLError:
            pass
    if not gpus:
        if unavailable:
            why = "; ".join(f"GPU {i}: {r}" for i, r in unavailable)
            return [], unavailable, f"no usable GPU ({why}): CPU only; {SIMULATE_HINT}"
        return [], [], f"the NVIDIA driver reports no GPUs: CPU only; {SIMULATE_HINT}"
    return gpus, unavailable, None


def _device(nvml, i: int, driver: str) -> list[GPUInfo]:
    h = nvml.nvmlDeviceGetHandleByIndex(i)
    mem = nvml.nvmlDeviceGetMemoryInfo(h)
    major, minor = nvml.nvmlDeviceGetCudaComputeCapability(h)
    cc = (int(major), int(minor))
    name, bus = _text(nvml.nvmlDeviceGetName(h)), _bus_id(_text(nvml.nvmlDeviceGetPciInfo(h).busId))
    migs = _mig_instances(nvml, h, i, name, bus, cc, driver)
    if migs is not None:
        return migs
    return [GPUInfo(index=i, name=name, uuid=_text(nvml.nvmlDeviceGetUUID(h)), pci_bus_id=bus,
                    memory_total=int(mem.total), memory_used=int(mem.used), compute_capability=cc,
                    multiprocessor_count=_multiprocessors(nvml, h, cc), backend="nvml", driver_version=driver)]


def _mig_instances(nvml, h, i, name, bus, cc, driver) -> list[GPUInfo] | None:
    """The MIG instances of a GPU in MIG mode (None when MIG is off or unsupported)."""
    try:
        current, _pending = nvml.nvmlDeviceGetMigMode(h)
    except (nvml.NVMLError, AttributeError):  # NVMLError_NotSupported: not a MIG-capable GPU
        return None
    if current != 1:  # NVML_DEVICE_MIG_ENABLE
        return None
    out = []
    for j in range(nvml.nvmlDeviceGetMaxMigDeviceCount(h)):
        try:
            m = nvml.nvmlDeviceGetMigDeviceHandleByIndex(h, j)
        except nvml.NVMLError_NotFound:  # an empty slot
            continue
        mem = nvml.nvmlDeviceGetMemoryInfo(m)
        try:
            sms = int(nvml.nvmlDeviceGetAttributes(m).multiprocessorCount)
        except (nvml.NVMLError, AttributeError):
            sms = None
        out.append(GPUInfo(index=i, name=_text(nvml.nvmlDeviceGetName(m)), uuid=_text(nvml.nvmlDeviceGetUUID(m)),
                           pci_bus_id=bus, memory_total=int(mem.total), memory_used=int(mem.used),
                           compute_capability=cc, multiprocessor_count=sms, backend="nvml", driver_version=driver))
    return out


def _multiprocessors(nvml, handle, cc) -> int | None:
    """NVML has no SM count for a whole GPU: its CUDA cores over the cores per SM of its
    architecture (A100: 6912 / 64 = 108, V100: 5120 / 64 = 80, H100 SXM: 16896 / 128 = 132)."""
    try:
        cores = nvml.nvmlDeviceGetNumGpuCores(handle)
    except (nvml.NVMLError, AttributeError):
        return None
    return None if not cores else max(1, int(cores) // CORES_PER_SM.get(tuple(cc), 128))


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

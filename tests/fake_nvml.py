"""NVML scenarios, in the manner of gpustat's test fixtures: a stand-in for the ``pynvml`` module
that raises pynvml's own error classes (``NVMLError_GpuIsLost``, ``NVMLError_NotFound`` …) where
the real library does.

    nvml = scenario("lost")            # GPU 1 of 3 has fallen off the bus
    gpus, unavailable, note = devtrace.devices.nvml.probe_devices(nvml)
"""

import types
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import pynvml

GPUS = {  # name, memory, compute capability, CUDA cores
    "A100": ("NVIDIA A100-SXM4-80GB", 80 << 30, (8, 0), 6912),
    "V100": ("Tesla V100-SXM2-16GB", 16 << 30, (7, 0), 5120),
    "H100": ("NVIDIA H100 80GB HBM3", 81559 << 20, (9, 0), 16896),
    "T4": ("Tesla T4", 15360 << 20, (7, 5), 2560),
}


class Handle:
    def __init__(self, model, index, lost=False, mig=None, parent=None, uuid=None, memory=None, sms=None):
        self.name, self.total, self.cc, self.cores = GPUS[model] if model in GPUS else (model, memory, None, None)
        self.index, self.lost, self.mig, self.parent, self.sms = index, lost, mig, parent, sms
        self.uuid = uuid or f"GPU-{index:08x}-1111-2222-3333-{index:012x}"
        if memory:
            self.total = memory


def fake_nvml(handles=(), init_error=None, driver="550.54.15"):
    m = types.SimpleNamespace(**{k: getattr(pynvml, k) for k in dir(pynvml) if k.startswith("NVMLError")})

    def check(h):
        if h.lost:
            raise pynvml.NVMLError_GpuIsLost()
        return h

    def init():
        if init_error:
            raise getattr(pynvml, init_error)()

    def by_index(i):
        if not 0 <= i < len(handles):
            raise pynvml.NVMLError_InvalidArgument()
        return handles[i]

    def mig_mode(h):
        check(h)
        if h.mig is None:
            raise pynvml.NVMLError_NotSupported()
        return (1 if h.mig else 0, 1 if h.mig else 0)

    def mig_handle(h, j):
        if not h.mig or j >= len(h.mig) or h.mig[j] is None:
            raise pynvml.NVMLError_NotFound()
        return h.mig[j]

    def cores(h):
        check(h)
        if h.parent is not None:
            raise pynvml.NVMLError_NotSupported()
        return h.cores

    def attributes(h):
        if h.parent is None:
            raise pynvml.NVMLError_NotSupported()
        return types.SimpleNamespace(multiprocessorCount=h.sms)

    m.nvmlInit = init
    m.nvmlShutdown = lambda: None
    m.nvmlSystemGetDriverVersion = lambda: driver
    m.nvmlDeviceGetCount = lambda: len(handles)
    m.nvmlDeviceGetHandleByIndex = by_index
    m.nvmlDeviceGetMemoryInfo = lambda h: types.SimpleNamespace(total=check(h).total, used=0, free=h.total)
    m.nvmlDeviceGetCudaComputeCapability = lambda h: check(h).cc if h.parent is None else h.parent.cc
    m.nvmlDeviceGetName = lambda h: check(h).name
    m.nvmlDeviceGetUUID = lambda h: check(h).uuid
    m.nvmlDeviceGetPciInfo = lambda h: types.SimpleNamespace(busId=f"00000000:{0x10 + check(h).index:02X}:00.0".encode())
    m.nvmlDeviceGetNumGpuCores = cores
    m.nvmlDeviceGetMigMode = mig_mode
    m.nvmlDeviceGetMaxMigDeviceCount = lambda h: 7 if h.mig else 0
    m.nvmlDeviceGetMigDeviceHandleByIndex = mig_handle
    m.nvmlDeviceGetAttributes = attributes
    return m


def scenario(name):
    if name == "lost":
        return fake_nvml([Handle("A100", 0), Handle("A100", 1, lost=True), Handle("A100", 2)])
    if name == "mig":
        a100 = Handle("A100", 0, mig=[])
        a100.mig.extend([Handle("NVIDIA A100-SXM4-80GB MIG 3g.40gb", 0, parent=a100, memory=40 << 30, sms=42,
                                uuid="MIG-aaaaaaaa-1111-2222-3333-444444444444"), None,
                         Handle("NVIDIA A100-SXM4-80GB MIG 1g.10gb", 0, parent=a100, memory=10 << 30, sms=14,
                                uuid="MIG-bbbbbbbb-1111-2222-3333-444444444444")])
        return fake_nvml([a100, Handle("A100", 1, mig=False)])
    if name == "mixed":  # PCI order: V100, H100, A100
        return fake_nvml([Handle("V100", 0), Handle("H100", 1), Handle("A100", 2)])
    if name == "no-library":
        return fake_nvml(init_error="NVMLError_LibraryNotFound")
    if name == "driver-mismatch":
        return fake_nvml(init_error="NVMLError_LibRmVersionMismatch")
    if name == "driver-not-loaded":
        return fake_nvml(init_error="NVMLError_DriverNotLoaded")
    if name == "no-permission":
        return fake_nvml(init_error="NVMLError_NoPermission")
    if name == "no-devices":
        return fake_nvml([])
    raise KeyError(name)

"""Plain records of what discovery found."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, eq=False, repr=False)
class GPUInfo:
    index: int  # the machine's index (nvidia-smi / NVML order)
    name: str
    uuid: str
    pci_bus_id: str  # 0000:05:00.0
    memory_total: int  # bytes
    memory_used: int  # bytes, by other processes
    compute_capability: tuple[int, int]
    multiprocessor_count: int | None
    backend: str  # simulated | nvml
    driver_version: str | None = None

    @property
    def memory_free(self) -> int:
        return self.memory_total - self.memory_used

    def short_description(self, platform_id: int) -> str:
        """TensorFlow's ``GetShortDeviceDescription`` (the Device mapping line)."""
        major, minor = self.compute_capability
        return (f"device: {platform_id}, name: {self.name}, pci bus id: {self.pci_bus_id}, "
                f"compute capability: {major}.{minor}")


@dataclass(frozen=True, eq=False, repr=False)
class CPUInfo:
    model: str
    cores: int
    memory_total: int  # bytes of host memory


@dataclass(frozen=True, eq=False, repr=False)
class Machine:
    """What the process sees: host CPU and the GPUs left after ``CUDA_VISIBLE_DEVICES``."""

    cpu: CPUInfo
    gpus: tuple[GPUInfo, ...]  # in platform-id order (after CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER)
    all_gpus: tuple[GPUInfo, ...]  # every GPU of the machine, in its own index order
    backend: str  # simulated | nvml | cpu
    note: str | None = None  # why there are no GPUs, in one line
    warnings: tuple[str, ...] = field(default_factory=tuple)
    unavailable: tuple[tuple[int, str], ...] = ()  # (NVML index, reason) of GPUs whose NVML calls failed
    # which TensorFlow the runtime behaves as (``--compat`` / ``DEVTRACE_COMPAT``, never a machine file's):
    # "tf2", TensorFlow 2.21; "tf1", the seeds' older TensorFlow (discovery.COMPAT)
    compat: str = "tf2"
    # whether kernels compute (``--compute`` / ``DEVTRACE_COMPUTE``): "all", or "none" (discovery.COMPUTE)
    compute: str = "all"

"""``tf.distribute``'s cross-device ops: how a ``MirroredStrategy`` combines the replicas'
values. devtrace runs every reduction to one device (what ``strategy.reduce`` does in
TensorFlow 2.21 whatever the choice); the all-reduce kernels themselves are not modelled."""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.eager.variables import Variable
from ..runtime.scopes import device


class CrossDeviceOps:
    """``tf.distribute.CrossDeviceOps``: the base of the choices below."""

    reduce_to_device = None  # strategy.reduce to one device goes through ReductionToOneDevice


@dataclass(frozen=True)
class ReductionToOneDevice(CrossDeviceOps):
    """Reduce by ``add_n`` on one device (``reduce_to_device``, else the destination)."""

    reduce_to_device: str | None = None


@dataclass(frozen=True)
class NcclAllReduce(CrossDeviceOps):
    num_packs: int = 1


@dataclass(frozen=True)
class HierarchicalCopyAllReduce(CrossDeviceOps):
    num_packs: int = 1


@dataclass(frozen=True)
class CollectiveAllReduce(CrossDeviceOps):
    """TensorFlow 2.21's default cross-device ops of ``MirroredStrategy`` (RING on CPUs and
    virtual GPUs, NCCL on physical GPUs)."""

    devices: tuple = ()

    @property
    def _devices(self) -> tuple:
        return self.devices


def collective_ops(devices) -> CrossDeviceOps:
    """``_make_collective_ops_with_fallbacks`` in eager mode: ``ReductionToOneDevice`` when CPUs
    and GPUs are mixed, else ``CollectiveAllReduce`` (no NCCL warning in TensorFlow 2.21)."""
    lowered = [d.lower() for d in devices]
    if any("cpu" in d for d in lowered) and any("gpu" in d for d in lowered):
        return ReductionToOneDevice()
    return CollectiveAllReduce(tuple(devices))


def ordering_tokens(ctx, collectives) -> list:
    """``CollectiveReplicaLauncher``'s ordering token: a ``ResourceVariable(0.)`` on each device,
    created with the strategy — on CPUs and virtual GPUs. On physical GPUs devtrace keeps the
    guide's logs, which show none (they predate the tokens)."""
    if not isinstance(collectives, CollectiveAllReduce):
        return []
    gpus = [d for d in ctx.devices if d.device_type == "GPU"]
    physical = {d.gpu for d in gpus}
    if all("GPU" in name for name in collectives.devices) and len(physical) == len(gpus):
        return []
    tokens = []
    for d in collectives.devices:
        with device(d):
            tokens.append(Variable(0.0))
    return tokens

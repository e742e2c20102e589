"""The device list of a ``MirroredStrategy``: checked and resolved as TensorFlow 2.21's
``mirrored_strategy`` does it. Devices need not be visible: TensorFlow accepts them, and the
replicas' ops soft-place later."""

from __future__ import annotations

from ..devices.device_spec import DeviceSpecV2
from ..devices.spec import DeviceSpec
from ..runtime.context import context
from ..runtime.devices import LogicalDevice

HOST = "/job:localhost/replica:0/task:0/device:CPU:0"


def host() -> str:
    """This task's CPU:0 (``/job:worker/replica:0/task:N/…`` on a cluster's worker)."""
    return f"{context().task}/device:CPU:0"


def resolve(d) -> str:
    """``device_util.resolve``: a device string or ``LogicalDevice`` as a full name."""
    if isinstance(d, LogicalDevice):
        d = d.name
    return DeviceSpec.from_string(host()).make_merged_spec(DeviceSpec.from_string(d)).to_string()


def all_local_devices() -> list[str]:
    ctx = context()
    return [n.name for n in ctx.logical_devices("GPU")] or [n.name for n in ctx.logical_devices("CPU")]


def check_single_worker(devices) -> None:
    """``_is_device_list_single_worker``'s checks (TensorFlow's texts, run-on sentences included);
    several workers' devices are not modelled (they fail later, as unknown devices)."""
    specs = [DeviceSpecV2.from_string(d.name if isinstance(d, LogicalDevice) else d) for d in devices]
    local = [s.job in (None, "localhost") for s in specs]
    if any(local) and not all(local):
        raise ValueError("Local device should have only 'localhost' in the job field in device string. E.g. "
                         "'job:localhost' in /job:localhost/replica:0/task:0/device:CPU:0Devices cannot have mixed "
                         "list of device strings containing both localhost and other job types such as worker, ps "
                         "etc. ")
    workers = {(s.job, s.task, s.replica) for s in specs}
    if len(workers) == 1 and not all(local) and any(s.task is None for s in specs):
        raise ValueError("Remote device string must have task specified.E.g. 'task:0' in "
                         "/job:worker/replica:0/task:0/device:CPU:0")

"""``devtrace.config``: TensorFlow's ``tf.config`` over devtrace's runtime context."""

from __future__ import annotations

from . import _options as _options
from ._options import optimizer, threading  # noqa: F401
from ..devices.names import are_compatible, parse_full_or_local_name
from ..devices.spec import DeviceSpec
from ..util.namespace import Namespace, missing
from ..runtime.context import context
from ..runtime.devices import LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice  # noqa: F401
from ..platform.tf_logging import deprecated


def list_physical_devices(device_type=None) -> list[PhysicalDevice]:
    return [d for d in context().physical_devices if device_type is None or d.device_type == device_type]


def get_visible_devices(device_type=None) -> list[PhysicalDevice]:
    return [d for d in context().visible_devices if device_type is None or d.device_type == device_type]


def set_visible_devices(devices, device_type=None) -> None:
    context().set_visible_devices(devices, device_type)


def list_logical_devices(device_type=None) -> list[LogicalDevice]:
    return context().logical_devices(device_type)


def get_logical_device_configuration(device):
    return context().get_logical_device_configuration(device)


def set_logical_device_configuration(device, logical_devices) -> None:
    context().set_logical_device_configuration(device, logical_devices)


def get_soft_device_placement() -> bool:
    return context().soft_placement


def set_soft_device_placement(enabled: bool) -> None:
    """``None`` is the default: soft placement on (eagerly)."""
    ctx = context()
    ctx.soft_placement = True if enabled is None else bool(enabled)


def get_memory_growth(device):
    return context().get_memory_growth(device)


def set_memory_growth(device, enable: bool) -> None:
    context().set_memory_growth(device, enable)


def set_memory_fraction(fraction) -> None:
    """devtrace's spelling of ``GPUOptions.per_process_gpu_memory_fraction`` for TF2 programs."""
    context().set_memory_fraction(fraction)


def get_device_details(device) -> dict:
    ctx = context()
    if not isinstance(device, PhysicalDevice):
        raise ValueError(f"device must be a tf.config.PhysicalDevice, but got: {device}")
    if device not in ctx.physical_devices:
        raise ValueError(f"The PhysicalDevice must be one obtained from calling `tf.config.list_physical_devices`, "
                         f"but got: {device}")
    if device.device_type != "GPU":
        return {}
    gpu = ctx.gpu_info(device)
    return {"device_name": gpu.name, "compute_capability": gpu.compute_capability}


def _device_for_stats(device: str):
    ctx = context()
    ctx.ensure_initialized("get_memory_info()")
    parsed = parse_full_or_local_name(device) if isinstance(device, str) else None
    if parsed is None:
        raise ValueError(f"Failed parsing device name: '{device}'. Note a valid device string should at least "
                         f"contain a device type and a device index, like \"GPU:0\".")
    matches = [d for d in ctx.devices if _compatible(parsed, d)]
    if not matches:
        raise ValueError(f"No matching devices found for '{device}'")
    if len(matches) > 1:
        raise ValueError(f"Multiple devices match the provided string '{device}': '{matches[0].name}' and "
                         f"'{matches[1].name}'.")
    return matches[0]


def _compatible(parsed: DeviceSpec, device) -> bool:
    return are_compatible(parsed, DeviceSpec.from_string(device.name))


def _reported_allocator(device: str, refusal: str):
    """The allocator whose stats TensorFlow reports: a GPU's; for a CPU, oneDNN's large-allocation
    allocator (shared by every CPU), and none with TF_ENABLE_ONEDNN_OPTS=0 (``refusal`` raised)."""
    d = _device_for_stats(device)
    if d.device_type != "CPU":
        return d.allocator
    if not context().onednn:
        raise ValueError(f"{refusal} for device '{device}'")
    return d.allocator.onednn


def get_memory_info(device: str) -> dict:
    """``{'current', 'peak'}`` bytes in use, as TensorFlow reports them (``get_memory_stats``:
    devtrace's view, every host byte included)."""
    alloc = _reported_allocator(device, "Allocator stats not available")
    return {"current": alloc.bytes_in_use, "peak": alloc.peak_bytes_in_use}


@deprecated("tensorflow.python.framework.config",
            "Use tf.config.experimental.get_memory_info(device)['current'] instead.")
def get_memory_usage(device: str) -> int:
    return get_memory_info(device)["current"]


def reset_memory_stats(device: str) -> None:
    _reported_allocator(device, "Cannot reset memory stats").reset_peak()
    _device_for_stats(device).allocator.reset_peak()


def get_memory_stats(device: str) -> dict:
    """devtrace's richer view: limit, reserved, in use, peak, allocations, largest, regions, OOMs."""
    d = _device_for_stats(device)
    a = d.allocator
    return {"device": d.name, "allocator": a.name, "limit": a.limit, "reserved": a.bytes_reserved,
            "in_use": a.bytes_in_use, "peak": a.peak_bytes_in_use, "num_allocs": a.num_allocs,
            "largest_alloc": a.largest_alloc_size, "num_regions": a.num_regions, "num_ooms": a.num_ooms,
            "policy": d.policy}


def get_device_policy() -> str:
    return context().device_policy


def set_device_policy(device_policy) -> None:
    value = "silent" if device_policy is None else device_policy
    if value not in ("silent", "warn", "explicit", "silent_for_int32"):
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
                         "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_device_policy for "
                         "valid `device_policy` arguments.")
    context().device_policy = value


def run_functions_eagerly(run_eagerly: bool) -> None:
    """``tf.function``s run their Python function instead of a traced graph."""
    from ..polymorphic_function.function import run_functions_eagerly as set_eagerly

    set_eagerly(run_eagerly)


def functions_run_eagerly() -> bool:
    from ..polymorphic_function.function import functions_run_eagerly as get

    return get()


_EAGER_FUNCTION_RUN = "tensorflow.python.eager.polymorphic_function.eager_function_run"


@deprecated(_EAGER_FUNCTION_RUN, "Use `tf.config.run_functions_eagerly` instead of the experimental version.")
def experimental_run_functions_eagerly(run_eagerly: bool) -> None:
    run_functions_eagerly(run_eagerly)


@deprecated(_EAGER_FUNCTION_RUN, "Use tf.config.functions_run_eagerly instead of the experimental version.")
def experimental_functions_run_eagerly() -> bool:
    return functions_run_eagerly()


def experimental_connect_to_host(remote_host=None, job_name="worker"):
    raise NotImplementedError("devtrace does not implement tf.config.experimental_connect_to_host: it models the "
                              "devices of one process")


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost", task_index=0, protocol=None,
                                    make_master_device_default=True, cluster_device_filters=None):
    raise NotImplementedError("devtrace does not implement tf.config.experimental_connect_to_cluster: it models the "
                              "devices of one process")


class ClusterDeviceFilters:
    """``tf.config.experimental.ClusterDeviceFilters``: device filters per job and task, kept
    for ``experimental_connect_to_cluster`` (which devtrace does not implement)."""

    def __init__(self):
        self._filters: dict = {}

    def set_device_filters(self, job_name, task_index, device_filters) -> None:
        self._filters.setdefault(job_name, {})[task_index] = list(device_filters)


VirtualDeviceConfiguration = LogicalDeviceConfiguration

experimental = Namespace(
    _prefix="config.experimental",
    _extras={"set_memory_fraction": set_memory_fraction, "get_memory_stats": get_memory_stats},
    ClusterDeviceFilters=ClusterDeviceFilters,
    disable_mlir_bridge=_options.disable_mlir_bridge,
    enable_mlir_bridge=_options.enable_mlir_bridge,
    enable_op_determinism=_options.enable_op_determinism,
    enable_tensor_float_32_execution=_options.enable_tensor_float_32_execution,
    tensor_float_32_execution_enabled=_options.tensor_float_32_execution_enabled,
    get_synchronous_execution=_options.get_synchronous_execution,
    set_synchronous_execution=_options.set_synchronous_execution,
    list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices,
    get_memory_growth=get_memory_growth,
    set_memory_growth=set_memory_growth,
    get_memory_info=get_memory_info,
    get_memory_usage=get_memory_usage,
    reset_memory_stats=reset_memory_stats,
    get_device_details=get_device_details,
    get_device_policy=get_device_policy,
    set_device_policy=set_device_policy,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    get_virtual_device_configuration=get_logical_device_configuration,
    set_virtual_device_configuration=set_logical_device_configuration,
)

__getattr__ = missing("config")
_PUBLIC = ("LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice", "experimental",
           "experimental_connect_to_cluster", "experimental_connect_to_host", "experimental_functions_run_eagerly",
           "experimental_run_functions_eagerly", "functions_run_eagerly", "get_logical_device_configuration",
           "get_soft_device_placement", "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "optimizer", "run_functions_eagerly", "set_logical_device_configuration", "set_soft_device_placement",
           "set_visible_devices", "threading")


def __dir__():
    """TensorFlow's ``tf.config`` names (devtrace's extras such as ``set_memory_fraction`` and the
    top-level ``set_memory_growth`` stay reachable, unlisted)."""
    return sorted(_PUBLIC)

"""Process-wide runtime state: the machine, the configuration, the initialisation freeze,
the logical devices it produced, the device-scope stack and the trace.

Mirrors TensorFlow's eager ``Context``: configuration may change until the runtime
*initialises* (first op, ``list_logical_devices``, first ``device()`` scope); after that,
changing visible devices, memory growth or virtual devices raises ``RuntimeError`` with
TensorFlow's message, plus a line saying what initialised the runtime and where.
"""

from __future__ import annotations

import os

from ..devices import names
from ..devices.physical import GPUInfo, Machine
from ..errors import DevtraceError, NotFoundError, install_excepthook, with_note
from ..output import MiB
from ..trace import events as ev
from .. import hooks
from . import memory
from .devices import Device, LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice
from .locations import caller_location

_CPU_FIELD_ERRORS = {  # TensorFlow's texts (two of them with a double space)
    "memory_limit": "Setting memory limit on CPU virtual devices is currently not supported",
    "experimental_priority": "Setting experimental_priority on CPU virtual  devices is currently not supported",
    "experimental_device_ordinal": "Setting experimental_device_ordinal on CPU virtual  devices is currently not "
                                   "supported",
}
class Context:
    __slots__ = ("_env", "_machine", "_probed", "_physical", "_visible", "_growth", "_virtual", "memory_fraction",
                 "soft_placement", "eager", "log_device_placement", "device_policy", "initialized_by", "devices",
                 "devices_by_name", "scope", "scope_spec", "scope_reason", "trace", "placement_cache", "colocation_cache",
                 "scalar_cache", "kernel_graphs", "host", "graph_builder", "tapes", "name_scope", "list_arg_seq", "options", "threaded", "thread_marked", "task",
                 "remote_devices", "timed_gpu_kernels", "outer_scope", "op_callbacks",
                 "__weakref__")

    def __init__(self, machine: Machine | None = None, env=None):
        self._env = os.environ if env is None else env
        self._machine = machine
        self._probed: Machine | None = None  # set_machine(deferred=True): visibility not applied yet
        self._physical: list[PhysicalDevice] | None = None
        self._visible: list[PhysicalDevice] | None = None
        self._growth: dict[PhysicalDevice, bool | None] = {}
        self._virtual: dict[PhysicalDevice, list[LogicalDeviceConfiguration]] = {}
        self.memory_fraction: float | None = None
        self.soft_placement = True
        self.eager = True
        self.log_device_placement = False
        self.device_policy = "silent"
        self.initialized_by: str | None = None
        self.devices: list[Device] = []
        self.devices_by_name: dict[str, Device] = {}
        self.scope = ""  # merged device string of the innermost device() scope ("" = none)
        self.scope_spec = None
        self.trace = ev.Trace()
        self.thread_marked = [0, 0]  # the thread the trace's latest records came from, the one before (threads.py)
        self.placement_cache: dict = {}
        self.kernel_graphs: set = set()  # the eager op signatures whose one-op function is built
        self.scope_reason = ev.EXPLICIT  # the reason ops placed by the scope get (colocated: gradients)
        self.colocation_cache: dict = {}  # the placement cache while gradients run colocated
        self.outer_scope = ""  # while gradients run colocated: the program's own scope (TensorFlow's device_name)
        self.tapes: list = []  # active gradient tapes, innermost last
        # what sees every op run (tfdbg2's dump, check_numerics): objects with ``eager(op_type, inputs, attrs,
        # outputs, name)`` and ``function(placed, args, values)``; none: the fast paths run (op_callbacks.py)
        self.op_callbacks: list = []
        self.name_scope = ""  # eager tf.name_scope prefix ("outer/inner/"), which names variables
        self.scalar_cache: dict = {}  # TensorFlow's: (scope, value, dtype, type) -> constant tensor
        self.host: Device | None = None
        self.graph_builder = None  # set by the graph room while ops build TF1 graph nodes
        self.list_arg_seq = None  # the trace's last seq once a Python list argument became a tensor (errors: op_error_suffix)
        self.options: dict = {}  # tf.config's threading, execution mode and optimizer settings (config_options)
        self.threaded = False  # the program started a thread: every op holds the run's lock (threads.py)
        self.task = names.LOCAL_TASK  # /job:worker/replica:0/task:1 once a cluster's strategy names it
        self.remote_devices: list[LogicalDevice] = []  # the other workers' devices (list_logical_devices)
        # real GPUs time each op's kernels with CUDA events (a trace for a timeline is being recorded)
        self.timed_gpu_kernels = False

    # -- discovery -------------------------------------------------------------------------
    @property
    def machine(self) -> Machine:
        if self._machine is None:  # the first device use: CUDA_VISIBLE_DEVICES is read now, as CUDA does
            from ..devices.discovery import discover, visible_machine

            try:
                self._machine = discover(env=self._env) if self._probed is None \
                    else visible_machine(self._probed, self._env)
            except DevtraceError:
                # a bad DEVTRACE_* value or machine file is about to end a plain ``python prog.py``:
                # one line, not devtrace's frames (the one process-wide change devtrace makes
                # outside ``devtrace run``, on this failure alone)
                install_excepthook()
                raise
        return self._machine

    @property
    def backend(self) -> str:
        """simulated | nvml | cpu, without applying ``CUDA_VISIBLE_DEVICES`` yet."""
        return (self._machine or self._probed or self.machine).backend

    @property
    def cuda_build(self) -> bool:
        """devtrace stands for TensorFlow's CUDA build on a machine with GPUs (even hidden by
        ``CUDA_VISIBLE_DEVICES``), for tensorflow-cpu on a machine without any."""
        return bool(self.machine.all_gpus)

    @property
    def onednn(self) -> bool:
        """``TF_ENABLE_ONEDNN_OPTS``, read as TensorFlow reads it (on unless 0/false: its x86 default)."""
        return self._env.get("TF_ENABLE_ONEDNN_OPTS", "1").strip().lower() not in ("0", "false")

    def set_machine(self, machine: Machine, deferred: bool = False) -> None:
        """``deferred``: ``machine`` is :func:`~devtrace.devices.discovery.probe`'s, every GPU; the
        environment's ``CUDA_VISIBLE_DEVICES`` picks from them at the first device use (a program
        may set it at its top, as TensorFlow lets it)."""
        if self.initialized:
            raise RuntimeError("The machine cannot be changed after the runtime was initialized")
        self._machine, self._probed = (None, machine) if deferred else (machine, None)
        self._physical = None

    @property
    def physical_devices(self) -> list[PhysicalDevice]:
        if self._physical is None:
            gpus = [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(len(self.machine.gpus))]
            self._physical = [PhysicalDevice("/physical_device:CPU:0", "CPU")] + gpus
            self._growth = {d: None for d in gpus}
        return self._physical

    def gpu_info(self, device: PhysicalDevice) -> GPUInfo:
        return self.machine.gpus[int(device.name.rsplit(":", 1)[1])]

    def check_known(self, device) -> PhysicalDevice:
        if not isinstance(device, PhysicalDevice) or device not in self.physical_devices:
            raise ValueError(f"Unrecognized device: {device!r}")
        return device

    # -- the initialisation freeze ---------------------------------------------------------
    @property
    def initialized(self) -> bool:
        return self.initialized_by is not None

    def frozen_error(self, what: str) -> RuntimeError:
        """TensorFlow's error; what initialised the runtime, and where, is devtrace's note."""
        return with_note(RuntimeError(f"{what} cannot be modified after being initialized"),
                         f"  (devtrace: the runtime was initialized by {self.initialized_by})")

    @property
    def visible_devices(self) -> list[PhysicalDevice]:
        return list(self.physical_devices if self._visible is None else self._visible)

    def set_visible_devices(self, devices, device_type=None, keep_order=False) -> None:
        """``keep_order``: number the devices in the given order (TF1's
        ``GPUOptions.visible_device_list`` does; ``tf.config`` rebuilds in physical order)."""
        if not isinstance(devices, list):  # TensorFlow's test: a tuple is one (unrecognised) device
            devices = [devices]
        for d in devices:
            self.check_known(d)
            if device_type is not None and d.device_type != device_type:
                raise ValueError(f"Unrecognized device: {d!r}")
        keep = [d for d in self.visible_devices if device_type is not None and d.device_type != device_type]
        chosen = set(keep) | set(devices)
        new = [d for d in self.physical_devices if d in chosen]  # TF rebuilds in physical order
        if keep_order:
            new = keep + [d for d in dict.fromkeys(devices) if d not in keep]
        if new == self.visible_devices:
            return
        if self.initialized:
            raise self.frozen_error("Visible devices")
        self._visible = new

    def get_memory_growth(self, device) -> bool | None:
        self.check_known(device)
        return self._growth[device]

    def set_memory_growth(self, device, enable: bool) -> None:
        self.check_known(device)
        if device in self._virtual:
            raise ValueError("Cannot set memory growth on device when virtual devices configured")
        if device.device_type != "GPU":
            raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
        if self._growth.get(device) == enable:
            return
        if self.initialized:
            raise self.frozen_error("Physical devices")
        self._growth[device] = bool(enable)

    def get_logical_device_configuration(self, device):
        self.check_known(device)
        return self._virtual.get(device)

    def set_logical_device_configuration(self, device, configs) -> None:
        """TensorFlow's checks in its order; ``configs`` is stored as given (``[]`` too: a
        configuration with no logical device, which makes initialisation fail)."""
        self.check_known(device)
        if device.device_type == "CPU":
            for c in configs:
                for field in ("memory_limit", "experimental_priority", "experimental_device_ordinal"):
                    if getattr(c, field) is not None:
                        raise ValueError(_CPU_FIELD_ERRORS[field])
        elif device.device_type == "GPU":
            for c in configs:
                if c.memory_limit is None:
                    raise ValueError("Setting memory limit is required for GPU virtual devices")
            self._check_gpu_limits(device, configs)
        else:
            raise ValueError(f"Virtual devices are not supported for {device.device_type}")
        if self._virtual.get(device) == configs:
            return
        if self.initialized:
            raise self.frozen_error("Virtual devices")
        self._virtual[device] = configs

    def _check_gpu_limits(self, device, configs) -> None:
        """devtrace's own checks: positive limits that fit the GPU's free memory."""
        total = 0
        for c in configs:
            if not isinstance(c.memory_limit, (int, float)) or isinstance(c.memory_limit, bool) \
                    or not c.memory_limit > 0 or c.memory_limit == float("inf"):
                raise ValueError(f"memory_limit must be a positive number of MiB, got {c.memory_limit!r}")
            total += int(c.memory_limit) * MiB
        gpu = self.gpu_info(device)
        if total > gpu.memory_free:
            raise ValueError(f"Virtual devices on {device.name} ask for {total // MiB} MiB in total but "
                             f"the GPU has {gpu.memory_free // MiB} MiB free ({gpu.name}, "
                             f"{gpu.memory_total // MiB} MiB total)")

    def set_memory_fraction(self, fraction: float | None) -> None:
        """``per_process_gpu_memory_fraction``: each visible GPU gets ``total × fraction``."""
        if fraction is not None:
            if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction <= 1:
                raise ValueError(f"memory fraction must be in (0, 1], got {fraction!r}")
        if fraction == self.memory_fraction:
            return
        if self.initialized:
            raise self.frozen_error("Physical devices")
        self.memory_fraction = fraction

    # -- initialisation --------------------------------------------------------------------
    def ensure_initialized(self, trigger: str = "the runtime") -> None:
        if self.initialized_by is None:
            self.initialize(trigger)

    def initialize(self, trigger: str) -> None:
        """Create the logical devices and their allocators (TensorFlow's ``_compute_gpu_options``)."""
        where = caller_location()
        visible = self.visible_devices
        cpus = [d for d in visible if d.device_type == "CPU"]
        gpus = [d for d in visible if d.device_type == "GPU"]
        for g in gpus:
            _check_gpu_options(self._virtual.get(g, []))
        cpu_configs = self._virtual.get(cpus[0], [LogicalDeviceConfiguration()]) if cpus else []
        if not cpu_configs:
            raise NotFoundError("No CPU devices are available in this process")
        policies, messages = memory.resolve([(self.gpu_info(g), self._virtual.get(g), self._growth.get(g))
                                             for g in gpus], self.memory_fraction, self._env)
        for level, text in messages:
            self.trace.emit(ev.Message(level, text))
        devices: list[Device] = []
        onednn = memory.onednn_allocator(self.machine.cpu.memory_total)
        for i in range(len(cpu_configs)):
            devices.append(Device(f"{self.task}/device:CPU:{i}", "CPU", i, None, None,
                                  memory.HostAllocator(f"cpu_{i}", onednn), memory.HOST, "", self.trace))
        n = 0
        for phys, device_policies in zip(gpus, policies):
            gpu = self.gpu_info(phys)
            platform_id = self.machine.gpus.index(gpu)
            if gpu.backend == "nvml":
                platform_id = self._cuda_ordinal(gpu, platform_id)
            for policy in device_policies:
                name = f"{self.task}/device:GPU:{n}"
                allocator, backend = self._gpu_memory(gpu, platform_id, policy, name, f"GPU_{n}_bfc")
                device = Device(name, "GPU", n, gpu, platform_id, allocator, policy,
                                gpu.short_description(platform_id), self.trace)
                if backend is not None:
                    device._backend = backend
                devices.append(device)
                n += 1
        if self.machine.compute == "none":
            from .compute_mode import install

            install(devices)
        self.devices = devices
        self.devices_by_name = {d.name: d for d in devices}
        for d in devices:
            self.devices_by_name[d.short_name] = d
        self.host = devices[0]
        self.initialized_by = f"{trigger} at {where}" if where else trigger
        for d in devices:
            self.trace.emit(ev.DeviceCreated(d.name, d.device_type, d.platform_id, d.allocator.limit,
                                             d.description, d.gpu is not None and d.gpu.backend == "simulated"))
        for d in devices:
            if d.device_type == "GPU" and d.allocator.bytes_reserved:
                self.trace.emit(ev.MemoryReserved(d.name, d.allocator.name, d.allocator.bytes_reserved,
                                                  d.allocator.bytes_reserved))

    def _cuda_ordinal(self, gpu, position: int) -> int:
        """The CUDA runtime's ordinal of the GPU NVML calls ``gpu``: joined by UUID, as the runtime
        (after ``CUDA_VISIBLE_DEVICES`` and ``CUDA_DEVICE_ORDER``) numbers its devices."""
        from . import backends

        if backends.cupy_usable() is not None:
            return position
        ordinals = backends.cuda_ordinals()
        ordinal = ordinals.get(backends.uuid_key(gpu.uuid))
        if ordinal is None:
            self.trace.emit(ev.Message("WARNING", f"the CUDA runtime has no device with UUID {gpu.uuid} ({gpu.name}); "
                                                  f"binding it to CUDA device {position} by position"))
            return position
        return ordinal

    def _gpu_memory(self, gpu, ordinal, policy, name, allocator_name):
        """The allocator of one logical GPU and, on a real GPU CuPy can drive, its backend: the
        CuPy pool, created (and preallocated) now, as TensorFlow creates its allocators at
        initialisation, and accounted by a :class:`~.memory.PoolAllocator` with the same limit."""
        on_reserve = self._reserve_listener(name, allocator_name)
        if gpu.backend == "nvml":
            from . import backends

            if backends.cupy_usable() is None:
                backend = backends.CupyBackend(ordinal, policy.limit, policy.preallocate)
                allocator = memory.PoolAllocator(allocator_name, policy.limit, policy.allow_growth,
                                                 backend.total_bytes, on_reserve)
                backend.tensor_bytes = lambda: allocator.bytes_in_use  # the rest of the pool is CuPy's own
                backend.time_kernels = self.timed_gpu_kernels
                return allocator, backend
        return memory.BFCAllocator(allocator_name, policy.limit, policy.allow_growth, on_reserve=on_reserve), None

    def _reserve_listener(self, device_name, allocator_name):
        def on_reserve(nbytes, total):
            if self.initialized_by is not None:  # the up-front reservation is emitted after DeviceCreated
                self.trace.emit(ev.MemoryReserved(device_name, allocator_name, nbytes, total))
        return on_reserve

    def time_gpu_kernels(self) -> None:
        """Real GPUs time each op's kernels with CUDA events from now on: a timeline will be drawn
        from this run's trace, and CuPy's asynchronous launches say nothing of the GPU's time."""
        self.timed_gpu_kernels = True
        for d in self.devices:
            if getattr(d._backend, "name", None) == "cupy":
                d._backend.time_kernels = True

    def gpu_times(self) -> str | None:
        """How ops on real GPUs are timed (``TraceStart.gpu_times``): None without NVIDIA GPUs or
        CuPy. Only whether CuPy imports is asked: CUDA must not start before the program's first
        device use (it reads ``CUDA_VISIBLE_DEVICES`` then, and a program may set it at its top)."""
        if self.backend != "nvml":
            return None
        from . import backends

        try:
            backends._import_cupy()
        except ImportError:
            return None
        return "cuda-events" if self.timed_gpu_kernels else "launch"

    def logical_devices(self, device_type=None) -> list[LogicalDevice]:
        self.ensure_initialized("list_logical_devices()")
        if self.task != names.LOCAL_TASK:  # a cluster's worker: full names, the other workers' too
            every = sorted([LogicalDevice(d.name, d.device_type) for d in self.devices] + self.remote_devices,
                           key=lambda d: int(d.name.split("/task:")[1].split("/")[0]))
            return [d for d in every if device_type is None or d.device_type == device_type]
        return [LogicalDevice(d.short_name, d.device_type) for d in self.devices
                if device_type is None or d.device_type == device_type]

    def join_cluster(self, job: str, task: int, remote_devices=()) -> None:
        """``enable_collective_ops``: this process becomes ``/job:{job}/replica:0/task:{task}`` and its
        devices are named so (renamed, and announced again, when they exist already)."""
        self.task = f"/job:{job}/replica:0/task:{task}"
        self.remote_devices = list(remote_devices)
        if self.initialized_by is None:
            return
        for d in self.devices:
            d.name = f"{self.task}{d.short_name}"
            self.trace.emit(ev.DeviceCreated(d.name, d.device_type, d.platform_id, d.allocator.limit,
                                             d.description, d.gpu is not None and d.gpu.backend == "simulated"))
        self.devices_by_name = {d.name: d for d in self.devices}
        for d in self.devices:
            self.devices_by_name[d.short_name] = d
        self.placement_cache.clear()
        self.colocation_cache.clear()
        self.scalar_cache.clear()

    def find_device(self, name: str) -> Device | None:
        return self.devices_by_name.get(name)

    # -- placement log ---------------------------------------------------------------------
    def set_log_device_placement(self, enabled: bool) -> None:
        """Unlike TensorFlow 2.21, takes effect whenever it is called."""
        self.log_device_placement = bool(enabled)
        self.trace.set_placement_logging(self.log_device_placement)

    def emit_graph(self, event, log: bool = False) -> None:
        """Record a TF1 Session's event (graph mode); ``log`` is the session's
        ``ConfigProto.log_device_placement``."""
        self.trace.emit_graph(event, log)


def _check_gpu_options(configs) -> None:
    """``_compute_device_options``: priorities and ordinals are all set or none."""
    if any(c.experimental_priority is not None for c in configs) and \
            not all(c.experimental_priority is not None for c in configs):
        raise ValueError("priority must be specified for all virtual devices")
    if any(c.experimental_device_ordinal is not None for c in configs) and \
            not all(c.experimental_device_ordinal is not None for c in configs):
        raise ValueError("device_ordinals must be specified for all virtual devices")


_context: Context | None = None


def context() -> Context:
    global _context
    if _context is None:
        _context = _created(Context())
    return _context


def reset_context(machine: Machine | None = None, env=None) -> Context:
    """A fresh runtime (tests, and ``devtrace run`` before it configures one)."""
    global _context
    _context = _created(Context(machine, env))
    return _context


def _created(ctx: Context) -> Context:
    """Let the layers above attach to a new context (the console listens to its trace)."""
    from . import threads

    threads.watch(ctx)
    for hook in hooks.CONTEXT_CREATED:
        hook(ctx)
    return ctx

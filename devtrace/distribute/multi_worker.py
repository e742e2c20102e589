"""``tf.distribute.MultiWorkerMirroredStrategy`` (TensorFlow's ``CollectiveAllReduceStrategy``):
synchronous replicas on every worker of a cluster, as TensorFlow 2.21 runs it eagerly
(``tests/tf221_multi_worker/``: two CPU workers on loopback ports).

The cluster comes from a resolver (``TFConfigClusterResolver`` by default: ``TF_CONFIG``), checked
with ``multi_worker_util``'s errors. Joining it renames this process's devices
``/job:worker/replica:0/task:N/device:…`` (``enable_collective_ops``). Each worker's replicas are
its GPUs (else its CPU); ``num_replicas_in_sync`` counts every worker's. A variable's initial
value comes from the chief: ``CollectiveBcastSend`` (then ``Identity``) there,
``CollectiveBcastRecv`` on the others, before the local copies are mirrored as ``MirroredStrategy``
mirrors them. Reductions are TensorFlow's ``CollectiveAllReduce``: one ``CollectiveReduceV2`` per
local device over the whole group (``MEAN`` divides on each device after it, ``RealDiv``), then the
value is broadcast to the destination. Values cross workers through the transport ``devtrace run
--workers`` installs (``runtime.collective``). ``experimental_distribute_dataset`` splits each
global batch into one part per replica of the cluster (TensorFlow's rebatching) and gives this
worker every ``num_workers``-th part from its id on (the ``DATA`` auto-shard of the rebatched
dataset)."""

from __future__ import annotations

import enum
import itertools
from contextlib import contextmanager, nullcontext

import numpy as np

from ..errors import UnavailableError
from ..ops.array import array_ops, split_ops
from ..ops.math import reduction_ops
from ..runtime import collective
from ..runtime.context import context
from ..runtime.devices import LogicalDevice
from ..runtime.eager.executor import execute
from ..runtime.eager.variables import Variable
from ..runtime.scopes import device
from ..runtime.values import convert_to_tensor
from ..util.nest import flatten
from . import _input as inputs
from . import MirroredExtended, MirroredStrategy, MirroredVariable, ReduceOp, _destination, _reduce_op, \
    _replicas, _silent_copies
from ._cross_device_ops import CollectiveAllReduce, ordering_tokens
from ._devices import resolve
from ._values import DistributedValues, PerReplica
from .cluster_resolver import TFConfigClusterResolver, id_in_cluster, worker_count

NO_TRANSPORT = ("devtrace runs a cluster of {n} workers only under `devtrace run --workers {n}`, which starts "
                "them and connects their collectives (TF_CONFIG alone names a cluster but starts nothing)")


class CommunicationImplementation(enum.Enum):
    """``tf.distribute.experimental.CommunicationImplementation``."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """``tf.distribute.experimental.CommunicationOptions``."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None, implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        if not isinstance(implementation, CommunicationImplementation):
            raise ValueError("implementation should be a tf.distribute.experimental.CommunicationImplementation")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation


class CollectiveAllReduceExtended(MirroredExtended):
    @property
    def worker_devices(self) -> tuple:
        return self._strategy._devices

    def all_reduce_sum(self, values) -> tuple:
        """A Keras step's gradients: one ``CollectiveReduceV2`` per local device over the cluster."""
        return tuple(self._strategy._all_reduce(list(values)))

    def batch_all_reduce_sum(self, per_replica: list) -> list:
        """A batch of tensors in one all-reduce, as TensorFlow's ``CollectiveAllReduce`` packs them
        (``bytes_per_pack`` 0: one pack): on each device every tensor flattened (``Reshape``) and
        concatenated (``ConcatV2``), one ``CollectiveReduceV2`` over the cluster, then ``Split`` and
        ``Reshape`` back."""
        shapes = [list(t.shape) for t in per_replica[0]]
        sizes = [int(np.prod(shape)) for shape in shapes]
        packed = []
        for d, values in zip(self._strategy._devices, per_replica):
            with device(d):
                flat = [array_ops.reshape(t, [-1]) for t in values]
                packed.append(array_ops.concat(flat, 0) if len(flat) > 1 else flat[0])
        reduced = self._strategy._all_reduce(packed)
        out = []
        for d, total in zip(self._strategy._devices, reduced):
            with device(d):
                parts = split_ops.split(total, sizes, 0) if len(sizes) > 1 else [total]
                out.append([array_ops.reshape(p, shape) for p, shape in zip(parts, shapes)])
        return out

    @property
    def _num_workers(self) -> int:
        return self._strategy._num_workers

    @property
    def should_checkpoint(self) -> bool:
        return self._strategy._is_chief

    should_save_summary = should_checkpoint

    @property
    def experimental_between_graph(self) -> bool:
        return True

    @property
    def experimental_should_init(self) -> bool:
        return True


class CollectiveAllReduceStrategy(MirroredStrategy):
    """Synchronous training on the replicas of every worker of a cluster."""

    def __repr__(self):
        return ("<tensorflow.python.distribute.collective_all_reduce_strategy.CollectiveAllReduceStrategy object at "
                f"{id(self):#x}>")

    def __init__(self, cluster_resolver=None, communication_options=None):
        options = communication_options or CommunicationOptions()
        if not isinstance(options, CommunicationOptions):
            raise ValueError("communication_options must be an instance of tf.distribute.experimental."
                             "CommunicationOptions")
        resolver = cluster_resolver or TFConfigClusterResolver()
        self.cluster_resolver = resolver
        spec = resolver.cluster_spec()
        ctx = context()
        self._keys = itertools.count(1)
        self._transport = None
        if spec:
            task_type, task_id = resolver.task_type, resolver.task_id
            if task_type is None or task_id is None:
                raise ValueError("When `cluster_spec` is given, you must also specify `task_type` and `task_id`.")
            self._id = id_in_cluster(spec, task_type, task_id)
            self._num_workers = worker_count(spec, task_type)
            if not self._num_workers:
                raise ValueError("No `worker`, `chief` or `evaluator` tasks can be found in `cluster_spec`.")
            self._is_chief = task_type in ("chief", "evaluator") or (
                "chief" not in spec.jobs and task_type == "worker" and task_id == 0)
            if self._num_workers > 1:
                self._transport = collective.current()
                if self._transport is None or self._transport.world != self._num_workers:
                    raise UnavailableError(NO_TRANSPORT.format(n=self._num_workers))
            self._task = f"/job:{task_type}/replica:0/task:{task_id}"
            self._default_device = f"/job:{task_type}/task:{task_id}"
            ctx.join_cluster(task_type, task_id)
        else:
            self._id, self._num_workers, self._is_chief = 0, 1, True
            self._default_device = None
            self._task = ctx.task
        ctx.ensure_initialized("MultiWorkerMirroredStrategy()")
        gpus = ctx.logical_devices("GPU")
        local = tuple(resolve(d.name) for d in gpus) or (resolve(f"{self._task}/device:CPU:0"),)
        if spec:
            others = [f"/job:{t}/replica:0/task:{i}" for t in spec.jobs if t in ("chief", "worker")
                      for i in spec.task_indices(t)]
            remote = [LogicalDevice(f"{task}{d.name[len(self._task):]}", d.device_type)
                      for task in others if task != self._task for d in ctx.logical_devices()
                      if d.name.startswith(self._task)]
            ctx.join_cluster(*_job_task(self._task), remote_devices=remote)
        self._devices = local
        self._communication = options
        self.extended = CollectiveAllReduceExtended(self)
        self._cross_device_ops = CollectiveAllReduce(local)
        host = CollectiveAllReduce((resolve(f"{self._task}/device:CPU:0"),))
        self._ordering_tokens = ordering_tokens(ctx, self._cross_device_ops)
        if self._ordering_tokens:
            self._ordering_tokens += ordering_tokens(ctx, host)
        self._reduce_fns = {}

    @property
    def num_replicas_in_sync(self) -> int:
        return len(self._devices) * self._num_workers

    @contextmanager
    def scope(self):
        """Also a ``device("/job:worker/task:N")`` scope in a cluster (TensorFlow's ``_default_device``):
        merged onto the host CPU, so what runs in the scope outside ``run`` runs there, and constants
        are made there without an ``_EagerConst``."""
        with super().scope(), (device(self._default_device) if self._default_device else nullcontext()):
            yield self

    # -- collectives ---------------------------------------------------------------------------
    def _attrs(self, key: int) -> dict:
        return {"group_size": self.num_replicas_in_sync, "group_key": 1, "instance_key": key}

    def _all_reduce(self, values) -> list:
        """Sum every local value and every other worker's: one ``CollectiveReduceV2`` per local device
        (each on its device, its own value as input), all returning the cluster's sum."""
        key = next(self._keys)
        if not context().eager:  # in a tf.function: the nodes; the graph's run meets the cluster (collective.gather)
            out = []
            for d, v in zip(self._devices, values):
                with device(d):
                    out.append(execute("CollectiveReduceV2", (v,), self._attrs(key)))
            return out
        total = sum(np.asarray(v.numpy(), dtype=np.float64 if v.dtype.is_floating else None) for v in values)
        total = np.asarray(total).astype(values[0].numpy().dtype)
        if self._transport is not None:
            context().trace.flush()  # this worker may wait here for ever (a peer died): its trace so far is written
            total = self._transport.all_reduce(f"reduce/{key}", total)
        collective.prepare(key, total)
        out = []
        try:
            for d, v in zip(self._devices, values):
                with device(d), _silent_copies():
                    out.append(execute("CollectiveReduceV2", (v,), self._attrs(key)))
        finally:
            collective.release(key)
        return out

    def _broadcast(self, value):
        """The chief's initial value on every worker (``CollectiveBcastSend`` then ``Identity`` on the
        chief, ``CollectiveBcastRecv`` on the others)."""
        key = next(self._keys)
        attrs = dict(self._attrs(key), shape=tuple(value.shape))
        context().trace.flush()
        if self._id == 0:
            self._transport.broadcast(f"bcast/{key}", value.numpy())
            execute("CollectiveBcastSend", (value,), attrs)
            return array_ops.identity(value)
        collective.prepare(key, self._transport.broadcast(f"bcast/{key}"))
        try:
            return execute("CollectiveBcastRecv", (), dict(attrs, T=value.dtype.name), dtype=value.dtype)
        finally:
            collective.release(key)

    def _mirrored(self, initial_value, name, dtype, trainable):
        if self._transport is None:
            return super()._mirrored(initial_value, name, dtype, trainable)

        def from_chief():
            value = initial_value() if callable(initial_value) else initial_value
            return self._broadcast(convert_to_tensor(value, dtype=dtype))
        with device(self._devices[0]), _silent_copies():
            return super()._mirrored(from_chief, name, dtype, trainable)

    # -- cross-replica -------------------------------------------------------------------------
    def reduce(self, reduce_op, value, axis=None):
        if self._num_workers == 1 or _replicas:  # (in a replica: TensorFlow's cross-replica error)
            return super().reduce(reduce_op, value, axis)
        op = _reduce_op(reduce_op)
        if axis is not None:
            return self._reduce_over_axis(op, value, axis)
        if isinstance(value, (tuple, list, dict)):  # Keras 3's fit reduces its (x, y) batch so: TensorFlow fails
            first = flatten(value)[0]
            raise ValueError(f"Attempt to convert a value ({first!r}) with an unsupported type "
                             f"(<class 'tensorflow.python.distribute.values.{type(first).__name__}'>) to a Tensor.")
        if isinstance(value, MirroredVariable) and op is ReduceOp.MEAN:
            return value.primary
        values = list(value.values) if isinstance(value, DistributedValues) else [convert_to_tensor(value)]
        reduced = self._all_reduce(values)
        if op is ReduceOp.MEAN:
            for i, (d, v) in enumerate(zip(self._devices, reduced)):
                with device(d):
                    reduced[i] = v / self.num_replicas_in_sync
        dst = _destination()
        for v in reduced:
            if v.device == dst:
                return v
        with device(dst), _silent_copies():
            return array_ops.identity(reduced[0])

    def _reduce_over_axis(self, op, value, axis):
        """``reduce`` over ``axis`` across the cluster: each replica's sum over ``axis`` (and, for
        ``MEAN``, how many elements it summed), all-reduced, then divided on the destination.
        (TensorFlow runs the per-replica step as one ``tf.function``; devtrace runs its ops eagerly.)"""
        values = list(value.values) if isinstance(value, DistributedValues) else [convert_to_tensor(value)]
        axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        sums = []
        for d, v in zip(self._devices, values):
            with device(d):
                sums.append(reduction_ops.reduce_sum(v, axis=axis))
        total = self.reduce(ReduceOp.SUM, PerReplica(sums) if len(sums) > 1 else sums[0], axis=None)
        if op is ReduceOp.SUM:
            return total
        count = sum(int(np.prod([v.shape[a] for a in axes])) for v in values)
        counts = self._transport.all_reduce(f"count/{next(self._keys)}", np.asarray(count, np.int64))
        with device(_destination()):
            return total / array_ops.cast(convert_to_tensor(np.asarray(counts, np.int64)), total.dtype)

    def gather(self, value, axis):
        if self._num_workers > 1:
            raise NotImplementedError("devtrace does not implement MultiWorkerMirroredStrategy.gather across "
                                      "workers yet (TensorFlow's CollectiveGatherV2)")
        return super().gather(value, axis)

    def experimental_distribute_dataset(self, dataset, options=None):
        """Each global batch in one part per replica of the cluster; this worker's are every
        ``num_workers``-th from its id on, in order, one per local replica."""
        if self._num_workers == 1:
            return super().experimental_distribute_dataset(dataset, options)
        parts = self.num_replicas_in_sync
        everyone = inputs.split_batches(dataset, parts)
        mine = [self._id + self._num_workers * j for j in range(len(self._devices))]

        def rounds():
            for split in everyone():
                yield [split[i] for i in mine]
        return inputs.DistributedDataset(self._devices, rounds)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        n = len(self._devices)
        dataset = dataset_fn(inputs.InputContext(self._num_workers, self._id, self.num_replicas_in_sync))
        return inputs.DistributedDataset(self._devices, inputs.consecutive_batches(dataset, n))


def _job_task(task: str) -> tuple[str, int]:
    """``/job:worker/replica:0/task:1`` → ``("worker", 1)``."""
    parts = dict(p.split(":", 1) for p in task.strip("/").split("/"))
    return parts["job"], int(parts["task"])


MultiWorkerMirroredStrategy = CollectiveAllReduceStrategy

"""``devtrace.distribute``: ``MirroredStrategy`` over the logical devices, as TensorFlow's
``tf.distribute`` does it eagerly (research/tf-semantics.md §7).

One replica per logical GPU (CPU:0 when there is none). Variables created in ``scope()`` are
mirrored the way ``MirroredExtended._create_variable`` does it: the primary on the first
device from the initial value, then, for each other device under that device's scope,
``ReadVariableOp`` of the primary, ``Identity`` onto the device (one copy), ``VarHandleOp``,
``AssignVariableOp`` — the pattern the guide's log shows for every Keras variable.
``reduce`` always goes through ``ReductionToOneDevice``: ``AddN`` on the destination (CPU:0
unless a ``device()`` scope says otherwise), then an ``Identity`` broadcast there.

TensorFlow 2.21's cross-device ops are ``CollectiveAllReduce`` (``ReductionToOneDevice`` when
CPUs and GPUs are mixed), with no NCCL warning; ``strategy.reduce`` to one device always
reduces through ``ReductionToOneDevice``. ``MEAN`` with ``axis`` reduces a per-replica sum and
a per-replica element count (int64), then ``Cast`` and ``RealDiv`` on the destination.

Requested devices need not be visible (``distribute_devices``): the replicas' ops soft-place.
Deviations: the collectives' ordering-token
variables are created on CPUs and virtual GPUs only (on physical GPUs the guide's logs show
none); the all-reduce kernels are not modelled. ``reduce`` over an axis runs its per-replica
step as TensorFlow does eagerly: one ``tf.function`` (``__inference_mean_reduce_helper_N`` /
``__inference_reduce_sum_N``) whose body runs every replica's step on its device.
"""

from __future__ import annotations

import enum
import weakref
from contextlib import contextmanager
from dataclasses import dataclass

from . import _input as inputs
from ._types import (DistributedDataset, DistributedIterator, InputOptions, InputReplicationMode, RunOptions,
                     Strategy, StrategyExtended)
from .. import hooks
from ._values import DistributedValues, Mirrored, PerReplica  # noqa: F401
from ._values import regroup as _regroup, select as _select
from ._devices import host as _host, all_local_devices, check_single_worker, resolve as _resolve
from ._cross_device_ops import (CollectiveAllReduce, CrossDeviceOps, HierarchicalCopyAllReduce, NcclAllReduce,
                                ReductionToOneDevice, collective_ops, ordering_tokens)
from ..polymorphic_function.function import function as tf_function
from ..util.namespace import Namespace, missing
from ..ops.array import array_ops
from ..ops.math import math_ops, reduction_ops
from ..runtime.context import context
from ..runtime.devices import LogicalDevice
from ..runtime.eager import variables
from ..runtime.eager.executor import execute
from ..runtime.eager.variables import Variable
from ..runtime.scopes import device
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from ..runtime.values import constant
from ..trace import events as ev
from ..util.reprs import shown_as

_LOG_FIRST_N = 10  # logging.log_first_n(INFO, "Reduce to …", 10): per process
_EAGER_RUN_FIRST_N = 5  # logging.log_first_n(WARN, "Using … eagerly has significant overhead …", 5)
_reduce_logs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Context -> lines logged
_eager_run_logs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Context -> warnings logged
_CROSS_REPLICA_ONLY = "Method requires being in cross-replica context, use get_replica_context().merge_call()"
_EAGER_RUN_WARNING = ("Using {} eagerly has significant overhead currently. We will be working on improving this "
                      "in the future, but for now please wrap `call_for_each_replica` or `experimental_run` or "
                      "`run` inside a tf.function to get the best performance.")
_strategies: list = []  # entered scope()s, innermost last
_replicas: list = []  # replica contexts of running strategy.run calls

class ReduceOp(enum.Enum):
    SUM = "SUM"
    MEAN = "MEAN"


@dataclass(frozen=True)
class ReplicaContext:
    """What ``get_replica_context()`` returns inside ``strategy.run`` (``strategy`` None: the
    default replica context outside any strategy)."""

    strategy: "MirroredStrategy | None"
    replica_id: int

    @property
    def replica_id_in_sync_group(self):
        """An int32 tensor in a strategy's replica (an int in the default context), as TensorFlow's."""
        if self.strategy is None:
            return self.replica_id
        return constant(self.replica_id, dtypes.int32, name="replica_id_in_sync_group")

    @property
    def num_replicas_in_sync(self) -> int:
        return self.strategy.num_replicas_in_sync if self.strategy else 1

    def all_reduce(self, reduce_op, value, options=None):
        raise NotImplementedError("devtrace does not implement ReplicaContext.all_reduce yet: its replicas run one "
                                  "after another, so none can wait for the others' values")


class _DefaultReplicaContext(ReplicaContext):
    """The replica context outside any strategy (replica 0 of 1)."""


class _UpdatedThrough:
    """A distributed variable's ``assign``/``assign_add``/``assign_sub``: each goes through its ``_update``."""

    def assign(self, value, read_value=True):
        return self._update("assign", value, read_value)

    def assign_add(self, delta, read_value=True):
        return self._update("assign_add", delta, read_value)

    def assign_sub(self, delta, read_value=True):
        return self._update("assign_sub", delta, read_value)


class MirroredVariable(_UpdatedThrough, Variable, DistributedValues):
    """One ``Variable`` per replica device. Reads resolve to the copy of the running replica
    (in ``strategy.run``), else the copy on the current ``device()``, else the primary;
    ``assign`` outside ``run`` updates every copy on its own device, inside it the replica's own."""

    def __init__(self, strategy, values):
        DistributedValues.__init__(self, values)
        self._strategy = strategy

    def _local(self) -> Variable:
        if _replicas and _replicas[-1].strategy is self._strategy:
            return self._values[_replicas[-1].replica_id]
        scope = context().scope
        if scope:
            name = _resolve(scope)
            for v in self._values:
                if v.device == name:
                    return v
        return self._values[0]

    @property
    def primary(self) -> Variable:
        return self._values[0]

    name = property(lambda self: self._values[0].name)
    dtype = property(lambda self: self._values[0].dtype)
    shape = property(lambda self: self._values[0].shape)
    device = property(lambda self: self._local().device)
    trainable = property(lambda self: self._values[0].trainable)

    def value(self) -> Tensor:
        return self._local().value()

    def read_value(self) -> Tensor:
        """In a replica, the replica's copy read (``ReadVariableOp``, ``Identity``); across replicas,
        TensorFlow's ``_get_cross_replica`` adds an ``Identity`` of its own."""
        if _replicas:
            return self._local().read_value()
        return array_ops.identity(array_ops.identity(self._local().value()))

    def numpy(self):
        """``read_value().numpy()``, as TensorFlow's ``DistributedVariable.numpy`` (its ops logged)."""
        return self.read_value().numpy()

    def _update(self, method, value, read_value):
        """In a replica, the replica's own copy (TF 2.21's ``VariableAggregation.NONE``: no
        aggregation); across replicas, every copy on its own device."""
        if _replicas:
            return getattr(self._local(), method)(value, read_value=read_value)
        for v in self._values:
            with device(v.device):
                getattr(v, method)(value)
        return self if read_value else None

    def _on_own_devices(self, text) -> str:
        """Each copy printed (read) on its own device, as TensorFlow's log shows."""
        texts = []
        for v in self._values:
            with device(v.device):
                texts.append(text(v))
        return self._listing(texts)

    def __repr__(self):
        return self._on_own_devices(repr)

    def __str__(self):
        return self._on_own_devices(str)


class MirroredExtended:
    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def worker_devices(self) -> tuple:
        return self._strategy._devices

    @property
    def parameter_devices(self) -> tuple:
        """Where mirrored variables live: every replica's device."""
        return self._strategy._devices

    @property
    def _cross_device_ops(self):
        return self._strategy._cross_device_ops

    def variable_created_in_scope(self, v) -> bool:
        """Whether ``v`` was made in this strategy's ``scope()``."""
        return isinstance(v, MirroredVariable) and getattr(v, "_strategy", None) is self._strategy

    def batch_all_reduce_sum(self, per_replica: list) -> list:
        """``per_replica[r][v]`` (replica ``r``'s value of the ``v``-th tensor) all-reduced: each
        tensor's sum, on every replica's device, in the same layout."""
        reduced = [self.all_reduce_sum([values[v] for values in per_replica]) for v in range(len(per_replica[0]))]
        return [[r[i] for r in reduced] for i in range(len(per_replica))]

    def all_reduce_sum(self, values) -> tuple:
        """``batch_reduce_to(SUM, per_replica, destinations=per_replica)`` for one value per
        replica: ``ReductionToOneDevice`` reduces on the first destination (``AddN``) and broadcasts
        an ``Identity`` to each replica's device. One value back per replica."""
        devices = self._strategy._devices
        reduce_to = getattr(self._cross_device_ops, "reduce_to_device", None) or devices[0]
        _log_reduce(reduce_to, devices)
        with device(reduce_to), _silent_copies():
            reduced = math_ops.add_n(list(values)) if len(values) > 1 else values[0]
        out = []
        for d in devices:
            with device(d), _silent_copies():
                out.append(array_ops.identity(reduced))
        return tuple(out)


class MirroredStrategy:
    """Synchronous replication over the devices of one machine (``tf.distribute.MirroredStrategy``)."""

    def __repr__(self):
        return f"<tensorflow.python.distribute.mirrored_strategy.MirroredStrategy object at {id(self):#x}>"

    def __init__(self, devices=None, cross_device_ops=None):
        if cross_device_ops is not None and not isinstance(cross_device_ops, CrossDeviceOps):
            raise ValueError(f"cross_device_ops must be a tf.distribute.CrossDeviceOps, got {cross_device_ops!r}")
        ctx = context()
        ctx.ensure_initialized("MirroredStrategy()")
        devices = devices or all_local_devices()
        check_single_worker(devices)
        resolved = tuple(_resolve(d) for d in devices)
        if len(set(resolved)) != len(resolved):
            raise AssertionError(f"No duplicates allowed in `devices` argument: {resolved}")
        self._devices = resolved
        self.extended = MirroredExtended(self)
        ctx.trace.emit(ev.Message("INFO", f"Using MirroredStrategy with devices {resolved!r}"))
        collectives = collective_ops(resolved)
        self._cross_device_ops = cross_device_ops or collectives
        self._ordering_tokens = ordering_tokens(ctx, collectives)
        self._reduce_fns: dict = {}  # reduce's per-replica steps over an axis, traced once each

    @property
    def num_replicas_in_sync(self) -> int:
        return len(self._devices)

    @contextmanager
    def scope(self):
        """Variables created inside are ``MirroredVariable``s."""
        variables._creators.append(self._create_variable)
        _strategies.append(self)
        try:
            yield self
        finally:
            _strategies.pop()
            variables._creators.remove(self._create_variable)

    def _create_variable(self, initial_value=None, name=None, dtype=None, trainable=True):
        """A ``MirroredVariable``; made in ``run``, it is made once: the first replica makes it, the
        others get the one made at the same step of their call (TensorFlow's ``merge_call``)."""
        if _replicas:
            replica, made = _replicas[-1], self._made_in_run
            if replica.replica_id:
                taken = self._taken_in_run[replica.replica_id] = self._taken_in_run.get(replica.replica_id, -1) + 1
                return made[taken]
            made.append(self._mirrored(initial_value, name, dtype, trainable))
            return made[-1]
        return self._mirrored(initial_value, name, dtype, trainable)

    def _mirrored(self, initial_value, name, dtype, trainable):
        copies: list[Variable] = []
        with _silent_copies():
            for i, d in enumerate(self._devices):
                with device(d):
                    if i == 0:
                        v = Variable(initial_value, name=name, dtype=dtype, trainable=trainable)
                    else:
                        primary = copies[0]
                        v = Variable(lambda: array_ops.identity(primary.value()), dtype=dtype, trainable=trainable,
                                     name=f"{primary.name.split(':')[0]}/replica_{i}")
                copies.append(v)
            if self._ordering_tokens:  # TF 2.21's log (the guide's, on physical GPUs, predates it)
                for _ in copies:  # create_mirrored_variable: each component's _initializer_op
                    execute("NoOp", ())
        return MirroredVariable(self, copies)

    def run(self, fn, args=(), kwargs=None):
        """Call ``fn`` once per replica, on that replica's device; a ``PerReplica`` argument gives
        each replica its own component. Per-replica results come back as ``PerReplica``. Eagerly,
        the first five calls warn about the overhead, as TensorFlow's ``call_for_each_replica``."""
        if _replicas:
            raise RuntimeError(_CROSS_REPLICA_ONLY)
        ctx = context()
        logged = _eager_run_logs.get(ctx, 0)
        if logged < _EAGER_RUN_FIRST_N and ctx.eager:  # (in a tf.function, TensorFlow does not warn)
            _eager_run_logs[ctx] = logged + 1
            ctx.trace.emit(ev.Message("WARNING", _EAGER_RUN_WARNING.format(type(self).__name__)))
        return self._for_each_replica(fn, args, kwargs or {})

    def _for_each_replica(self, fn, args, kwargs):
        self._made_in_run, self._taken_in_run = [], {}
        ctx = context()
        self._run_scope = ctx.scope, ctx.scope_spec
        results = []
        for i, d in enumerate(self._devices):
            _replicas.append(ReplicaContext(self, i))
            try:
                with device(d):
                    results.append(fn(*_select(i, tuple(args)), **_select(i, kwargs)))
            finally:
                _replicas.pop()
        return _regroup(results)

    def experimental_local_results(self, value) -> tuple:
        return value.values if isinstance(value, DistributedValues) else (value,)

    @contextmanager
    def _merged(self):
        """Out of the running replica, as TensorFlow's ``merge_call`` runs its function: the
        cross-replica context, under the device scope ``run`` was called in."""
        ctx = context()
        saved_replicas, saved_scope = _replicas[:], (ctx.scope, ctx.scope_spec)
        del _replicas[:]
        ctx.scope, ctx.scope_spec = self._run_scope
        try:
            yield
        finally:
            ctx.scope, ctx.scope_spec = saved_scope
            _replicas[:] = saved_replicas

    def experimental_distribute_dataset(self, dataset, options=None):
        """Each global batch split across the replicas, each part on its replica's device."""
        n = len(self._devices)
        return inputs.DistributedDataset(self._devices, inputs.split_batches(dataset, n),
                                         inputs.replica_spec(dataset.element_spec, n))

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """``dataset_fn(InputContext)`` gives per-replica batches; replicas take consecutive ones."""
        n = len(self._devices)
        dataset = dataset_fn(inputs.InputContext(1, 0, n))
        return inputs.DistributedDataset(self._devices, inputs.consecutive_batches(dataset, n),
                                         inputs.replica_spec(dataset.element_spec, n))

    def experimental_distribute_values_from_function(self, value_fn):
        values = inputs.values_from_function(self._devices, value_fn)
        if len(values) > 1 and not isinstance(values[0], (tuple, list, dict)):  # one per replica, even if equal
            return PerReplica(values)
        return _regroup(values)

    def gather(self, value, axis):
        """The replicas' values concatenated along ``axis`` on the current device (else CPU:0)."""
        if not isinstance(value, DistributedValues):
            value = PerReplica([value] * self.num_replicas_in_sync)
        with device(_destination()), _silent_copies():
            return array_ops.concat(list(value.values), axis)

    def reduce(self, reduce_op, value, axis=None):
        """Reduce across replicas to the current device (CPU:0 when there is no ``device()`` scope)."""
        if _replicas:
            raise RuntimeError(_CROSS_REPLICA_ONLY)
        op = _reduce_op(reduce_op)
        if axis is None:
            return self._reduce_to(op, value)
        if op is ReduceOp.SUM:
            step = self._replicas_function("reduce_sum", axis, lambda v: math_ops.reduce_sum(v, axis=axis))
            return self._reduce_to(op, _regroup(step(*self.experimental_local_results(value))))
        step = self._replicas_function("mean_reduce_helper", axis, _mean_reduce_helper(axis))
        parts = step(*self.experimental_local_results(value))
        numer = self._reduce_to(ReduceOp.SUM, _regroup([n for n, _ in parts]))
        denom = self._reduce_to(ReduceOp.SUM, _regroup([d for _, d in parts]))
        with device(_destination()):
            return numer / array_ops.cast(denom, numer.dtype)

    def _replicas_function(self, name, axis, per_replica):
        """``reduce``'s per-replica step as TensorFlow runs it eagerly: one ``tf.function`` (one
        ``__inference_<name>`` op) whose body runs every replica's step on its device."""
        key = (name, axis if not isinstance(axis, list) else tuple(axis))
        fn = self._reduce_fns.get(key)
        if fn is None:
            def body(*components):
                outputs = []
                for d, component in zip(self._devices, components):
                    with device(d):
                        outputs.append(per_replica(component))
                return outputs
            body.__name__ = name
            fn = self._reduce_fns[key] = tf_function(body, autograph=False)
        return fn

    def _reduce_to(self, op, value):
        dst = _destination()
        if isinstance(value, MirroredVariable) and op is ReduceOp.MEAN:
            return value.primary  # reduce_to returns the mirrored value; reduce, its first local result
        if not isinstance(value, DistributedValues):  # cross_device_ops.reduce_non_distributed_value
            if op is ReduceOp.MEAN:
                return value
            if self.num_replicas_in_sync != 1:
                raise ValueError(f"A non-DistributedValues value {value!s} cannot be reduced with the given "
                                 f"reduce op {op}.")
            with device(dst):
                return array_ops.identity(value)
        values = value.values
        if len(values) == 1 and getattr(values[0], "device", None) == dst:
            with device(dst):
                return array_ops.identity(values[0])
        reduce_to = self._cross_device_ops.reduce_to_device or dst
        _log_reduce(reduce_to, (dst,))
        with device(reduce_to), _silent_copies():
            reduced = math_ops.add_n(values) if len(values) > 1 else values[0]  # add_n of one value returns it
            if op is ReduceOp.MEAN:
                reduced = reduced / len(values)
        with device(dst):
            return array_ops.identity(reduced)  # simple_broadcast to the one destination


def get_replica_context():
    """The replica context inside ``strategy.run``; ``None`` in a strategy's cross-replica
    ``scope()``; outside any strategy, the default replica context (replica 0 of 1)."""
    if _replicas:
        return _replicas[-1]
    return None if _strategies else _DefaultReplicaContext(None, 0)


def in_cross_replica_context() -> bool:
    return bool(_strategies) and not _replicas


def has_strategy() -> bool:
    return bool(_strategies)


def _where():
    """``hooks.DISTRIBUTION``'s question: the strategy in scope and the running replica's id."""
    if _replicas and _replicas[-1].strategy is not None:
        return _replicas[-1].strategy, _replicas[-1].replica_id
    return (_strategies[-1], None) if _strategies else None


hooks.DISTRIBUTION.append(_where)


# -- helpers ---------------------------------------------------------------------------------

def _mean_reduce_helper(axis):
    """``StrategyBase.reduce``'s per-replica step for MEAN: the sum over ``axis`` and the number
    of elements it summed, an int64 tensor (``Identity`` of a constant per axis)."""
    def helper(v):
        axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        rank = len(v.shape)
        for a in axes:
            if not -rank <= a < rank:
                raise ValueError(f"`axis` = {a!r} out of range for `value` with rank {rank}")
        dims = [array_ops.identity(constant(v.shape[a], dtypes.int64)) for a in axes]
        denom = dims[0] if isinstance(axis, int) else reduction_ops.reduce_prod(array_ops.stack(dims), 0)
        return math_ops.reduce_sum(v, axis=axis), denom
    return helper


def _destination() -> str:
    """``device_util.current() or "/device:CPU:0"``, resolved."""
    scope = context().scope
    return _resolve(scope) if scope else _host()


def _reduce_op(reduce_op) -> ReduceOp:
    if isinstance(reduce_op, str):
        return ReduceOp(reduce_op.upper())  # ValueError: 'MAX' is not a valid ReduceOp
    if not isinstance(reduce_op, ReduceOp):
        raise ValueError("`reduce_op` must be Reduce.SUM or Reduce.MEAN.")
    return reduce_op


def _log_reduce(reduce_to, destinations) -> None:
    """``logging.log_first_n(INFO, "Reduce to … then broadcast to ….", 10)``: per process."""
    ctx = context()
    logged = _reduce_logs.get(ctx, 0)
    if logged < _LOG_FIRST_N:
        _reduce_logs[ctx] = logged + 1
        ctx.trace.emit(ev.Message("INFO", f"Reduce to {reduce_to} then broadcast to {tuple(destinations)!r}."))


@contextmanager
def _silent_copies():
    """``context.device_policy(DEVICE_PLACEMENT_SILENT)``, as TF sets it around mirroring and reduction."""
    ctx = context()
    saved, ctx.device_policy = ctx.device_policy, "silent"
    try:
        yield
    finally:
        ctx.device_policy = saved


class _DefaultDistributionStrategy:
    """What ``get_strategy()`` returns outside any strategy's scope: one replica, no mirroring."""

    num_replicas_in_sync = 1

    @contextmanager
    def scope(self):
        yield self

    def run(self, fn, args=(), kwargs=None):
        return fn(*args, **(kwargs or {}))

    def experimental_local_results(self, value) -> tuple:
        return (value,)

    def reduce(self, reduce_op, value, axis=None):
        """One replica: its value (reduced over ``axis`` when given, as TensorFlow does)."""
        if axis is None:
            return value
        op = _reduce_op(reduce_op)
        fn = math_ops.reduce_sum if op is ReduceOp.SUM else reduction_ops.reduce_mean
        return fn(value, axis=axis)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(inputs.InputContext(1, 0, 1))

    def experimental_distribute_values_from_function(self, value_fn):
        return value_fn(inputs.ValueContext(0, 1))

    def gather(self, value, axis):
        return value

    @property
    def extended(self):
        return _DefaultExtended()


class _DefaultExtended:
    """The default strategy's ``extended``: one replica on the current device."""

    def variable_created_in_scope(self, v) -> bool:
        return True

    @property
    def worker_devices(self):
        raise RuntimeError("worker_devices() method unsupported by default tf.distribute.Strategy.")

    @property
    def parameter_devices(self):
        raise RuntimeError("parameter_devices() method unsupported by default tf.distribute.Strategy.")


_DEFAULT = _DefaultDistributionStrategy()


def get_strategy():
    """The strategy whose ``scope()`` is active, else the default strategy."""
    return _strategies[-1] if _strategies else _DEFAULT


from ._tpu import TPUStrategy  # noqa: E402,F401 (tf.distribute.TPUStrategy: TensorFlow's error without a TPU)

class OneDeviceStrategy(MirroredStrategy):
    """``tf.distribute.OneDeviceStrategy(device)``: one replica, its variables (plain ones, as
    TensorFlow's) and compute on ``device``; ``run`` calls the function once, without the eager
    overhead warning of a mirrored strategy."""

    def __init__(self, device):
        super().__init__(devices=[device])

    def _mirrored(self, initial_value, name, dtype, trainable):
        with device(self._devices[0]):
            return Variable(initial_value, name=name, dtype=dtype, trainable=trainable)

    def run(self, fn, args=(), kwargs=None):
        if _replicas:
            raise RuntimeError(_CROSS_REPLICA_ONLY)
        return self._for_each_replica(fn, args, kwargs or {})

    def __repr__(self):
        return f"<tensorflow.python.distribute.one_device_strategy.OneDeviceStrategy object at {id(self):#x}>"


_SET: list = []  # experimental_set_strategy's entered scope


def experimental_set_strategy(strategy) -> None:
    """``tf.distribute.experimental_set_strategy``: ``strategy``'s scope entered for good (None: left)."""
    while _SET:
        _SET.pop().__exit__(None, None, None)
    if strategy is not None:
        scope = strategy.scope()
        scope.__enter__()
        _SET.append(scope)


Strategy.register(MirroredStrategy)
Strategy.register(_DefaultDistributionStrategy)
StrategyExtended.register(MirroredExtended)
InputContext = inputs.InputContext
# names of modules that build on this one (multi_worker subclasses MirroredStrategy): loaded on first use
_LATER = {"MultiWorkerMirroredStrategy": ("multi_worker", "MultiWorkerMirroredStrategy"),
          "ParameterServerStrategy": ("parameter_server", "ParameterServerStrategy"),
          "Server": ("parameter_server", "Server"), "coordinator": ("parameter_server", "coordinator_v2"),
          "cluster_resolver": ("cluster_resolver", "namespace")}
_LATER_EXPERIMENTAL = {"MultiWorkerMirroredStrategy": ("multi_worker", "MultiWorkerMirroredStrategy"),
                       "CentralStorageStrategy": ("central_storage", "CentralStorageStrategy"),
                       "ParameterServerStrategy": ("parameter_server", "ParameterServerStrategy"),
                       "coordinator": ("parameter_server", "coordinator"),
                       "partitioners": ("parameter_server", "partitioners"),
                       "CollectiveHints": ("parameter_server", "CollectiveHints"),
                       "TerminationConfig": ("failure_handling", "TerminationConfig"),
                       "PreemptionWatcher": ("failure_handling", "PreemptionWatcher"),
                       "rpc": ("parameter_server", "rpc"), "TPUStrategy": ("_tpu", "TPUStrategy"),
                       "CommunicationOptions": ("multi_worker", "CommunicationOptions"),
                       "CommunicationImplementation": ("multi_worker", "CommunicationImplementation"),
                       "CollectiveCommunication": ("multi_worker", "CommunicationImplementation")}


def _later(table, name):
    import importlib

    module, attribute = table[name]
    return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)


class _Experimental(Namespace):
    def __getattr__(self, name):
        if name in _LATER_EXPERIMENTAL:
            return _later(_LATER_EXPERIMENTAL, name)
        return super().__getattr__(name)


experimental = _Experimental(_prefix="distribute.experimental", ValueContext=inputs.ValueContext)
_missing = missing("distribute")


def __getattr__(name):
    if name in _LATER:
        return _later(_LATER, name)
    return _missing(name)

shown_as(_DefaultDistributionStrategy, "tensorflow.python.distribute.distribute_lib._DefaultDistributionStrategy")

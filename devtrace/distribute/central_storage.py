"""``tf.distribute.experimental.CentralStorageStrategy``: every variable on one device, the compute
replicated, as TensorFlow 2.21's ``CentralStorageStrategy`` does it on one machine (its
``ParameterServerStrategyExtended`` with local devices).

The compute devices are the given ones, else every logical GPU, else ``CPU:0``. Variables go to the
``parameter_device``: given, else the one compute device when there is one, else ``/device:CPU:0``.
With more than one replica a variable is an ``AggregatingVariable`` around the one variable (reads
are that variable's ``ReadVariableOp`` on its device, its value copied to each replica's device by the
op that uses it); with one, a plain variable. The replicas run on their devices as a
``MirroredStrategy``'s do (the same eager-overhead warning, named for this strategy);
``reduce`` goes through ``ReductionToOneDevice(reduce_to_device="/device:CPU:0")``: ``AddN`` on the
CPU, then an ``Identity`` on the destination. No ordering-token variables (no collectives).
"""

from __future__ import annotations

from . import MirroredStrategy, PerReplica, _UpdatedThrough, _regroup, _replicas, _resolve, _silent_copies
from ._cross_device_ops import ReductionToOneDevice
from ._input import ValueContext
from ..ops.array import array_ops
from ..ops.math import math_ops
from ..runtime.context import context
from ..runtime.eager.variables import Variable, VariableAggregation
from ..runtime.scopes import device
from ..trace import events as ev

_LOCAL_CPU = "/device:CPU:0"
_NONE_IN_REPLICA = (
    "You must specify an aggregation method to update a {t} in Replica Context. You can do so by passing an explicit "
    "value for argument `aggregation` to tf.Variable(..).e.g. `tf.Variable(..., aggregation=tf.VariableAggregation.SUM)`"
    "`tf.VariableAggregation` lists the possible aggregation methods.This is required because {t} should always be "
    "kept in sync. When updating them or assigning to them in a replica context, we automatically try to aggregate "
    "the values before updating the variable. For this aggregation, we need to know the aggregation method. Another "
    "alternative is to not try to update such {t} in replica context, but in cross replica context. You can enter "
    "cross replica context by calling `tf.distribute.get_replica_context().merge_call(merge_fn, ..)`.Inside "
    "`merge_fn`, you can then update the {t} using `tf.distribute.StrategyExtended.update()`.")


class AggregatingVariable(_UpdatedThrough, Variable):
    """TensorFlow's ``ps_values.AggregatingVariable``: the one variable of a central-storage strategy,
    whose reads and cross-replica updates are the variable's own. In a replica, an update needs an
    aggregation (TensorFlow's ``ValueError`` without one)."""

    def __init__(self, strategy, variable, aggregation):  # noqa: super().__init__ would create a variable
        self._strategy = strategy
        self._v = variable
        self._aggregation_mode = aggregation or VariableAggregation.NONE

    def __getattr__(self, name):
        if name == "_v":
            raise AttributeError(name)
        return getattr(self._v, name)

    def get(self) -> Variable:
        return self._v

    def _local(self) -> Variable:
        return self._v

    @property
    def distribute_strategy(self):
        return self._strategy

    aggregation = property(lambda self: self._aggregation_mode)

    def value(self):
        return self._v.value()

    def read_value(self):
        return self._v.read_value()

    def numpy(self):
        """``read_value().numpy()`` (its ``ReadVariableOp`` and ``Identity`` logged), as TensorFlow's."""
        return self._v.read_value().numpy()

    def _update(self, method, value, read_value):
        if _replicas:
            if self._aggregation_mode is VariableAggregation.NONE:
                raise ValueError(_NONE_IN_REPLICA.format(t="AggregatingVariable"))
            raise NotImplementedError("devtrace does not implement updating an AggregatingVariable in a replica "
                                      "yet (its replicas run one after another: none can wait for the others')")
        with device(self._v.device):
            return getattr(self._v, method)(value, read_value=read_value)

    def __repr__(self):
        return repr(self._v)

    def __str__(self):
        return str(self._v)


class ParameterServerStrategyExtended:
    """``CentralStorageStrategy.extended``: the compute devices (``worker_devices``, a list) and the
    one parameter device (``parameter_devices``, a tuple)."""

    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def worker_devices(self) -> list:
        return list(self._strategy._devices)

    @property
    def parameter_devices(self) -> tuple:
        return (self._strategy._variable_device,)

    @property
    def _cross_device_ops(self):
        return self._strategy._cross_device_ops

    def variable_created_in_scope(self, v) -> bool:
        return getattr(v, "_in_scope_of", None) is self._strategy

    def all_reduce_sum(self, values) -> tuple:
        """The replicas' values summed for the one variable: ``AddN`` on the CPU, an ``Identity`` on the
        parameter device (``batch_reduce_to`` with the variable as destination); one value per replica."""
        with device(_LOCAL_CPU), _silent_copies():
            reduced = math_ops.add_n(list(values)) if len(values) > 1 else values[0]
        with device(self._strategy._variable_device), _silent_copies():
            reduced = array_ops.identity(reduced)
        return (reduced,) * len(values)

    def batch_all_reduce_sum(self, per_replica: list) -> list:
        reduced = [self.all_reduce_sum([values[v] for values in per_replica]) for v in range(len(per_replica[0]))]
        return [[r[i] for r in reduced] for i in range(len(per_replica))]


class CentralStorageStrategy(MirroredStrategy):
    """Variables on one device (the CPU, or the one GPU), compute replicated on the GPUs."""

    def __repr__(self):
        return f"<tensorflow.python.distribute.central_storage_strategy.CentralStorageStrategy object at {id(self):#x}>"

    def __init__(self, compute_devices=None, parameter_device=None):
        ctx = context()
        ctx.ensure_initialized("CentralStorageStrategy()")
        if compute_devices is None:
            gpus = ctx.logical_devices("GPU")
            compute_devices = [f"/device:GPU:{i}" for i in range(len(gpus))] or [_LOCAL_CPU]
        self._devices = tuple(_resolve(d) for d in compute_devices)
        if parameter_device is None:
            parameter_device = self._devices[0] if len(self._devices) == 1 else _LOCAL_CPU
        self._variable_device = parameter_device
        self.extended = ParameterServerStrategyExtended(self)
        ctx.trace.emit(ev.Message("INFO", "ParameterServerStrategy (CentralStorageStrategy if you are using a single "
                                          f"machine) with compute_devices = {list(self._devices)!r}, variable_device = "
                                          f"{parameter_device!r}"))
        self._cross_device_ops = ReductionToOneDevice(reduce_to_device=_LOCAL_CPU)
        self._ordering_tokens = []
        self._reduce_fns: dict = {}
        self._aggregation = None  # the aggregation of the variable being made

    def _create_variable(self, initial_value=None, name=None, dtype=None, trainable=True, aggregation=None, **kwargs):
        self._aggregation = aggregation
        return super()._create_variable(initial_value, name, dtype, trainable)

    def _mirrored(self, initial_value, name, dtype, trainable):
        with device(self._variable_device):
            v = Variable(initial_value, name=name, dtype=dtype, trainable=trainable)
        if self.num_replicas_in_sync > 1:
            v = AggregatingVariable(self, v, self._aggregation)
        v._in_scope_of = self
        return v

    def experimental_distribute_dataset(self, dataset, options=None):
        if options and options.experimental_replication_moden:  # TensorFlow 2.21's own misspelt check
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in "
                                      "`experimental_distribute_datasets_from_function`.")
        return super().experimental_distribute_dataset(dataset, options)

    def experimental_distribute_values_from_function(self, value_fn):
        """One value per replica, made where the caller is (no replica's device scope, as TensorFlow's
        parameter-server extended), wrapped even for one replica (``regroup(…, always_wrap=True)``)."""
        n = self.num_replicas_in_sync
        values = [value_fn(ValueContext(i, n)) for i in range(n)]
        return _regroup(values) if isinstance(values[0], (tuple, list, dict)) else PerReplica(values)

"""What of ``tf.distribute``'s parameter-server side can be had on one machine: the argument checks of
``ParameterServerStrategy`` (TensorFlow 2.21's errors, then one line: devtrace does not connect to a
cluster of parameter servers), ``tf.distribute.Server`` (its ``ServerDef`` checked as TensorFlow's,
then one line: no in-process gRPC server), the coordinator's names (a ``ClusterCoordinator`` needs a
``ParameterServerStrategy``), the variable partitioners (pure arithmetic, as TensorFlow's), and the
option record ``CollectiveHints``, and ``rpc``'s server and client (gRPC: one line).

A parameter-server runtime could ride on devtrace's Ray launcher (``devtrace run --workers``, one
process per task with its ``TF_CONFIG``) as ``MultiWorkerMirroredStrategy`` does; it is not built.
"""

from __future__ import annotations

import math

from .cluster_resolver import validate_cluster_spec
from .cluster_spec import ClusterSpec, ServerDef
from .multi_worker import CommunicationOptions
from ..runtime import dtypes
from ..util.namespace import Namespace

_NO_CLUSTER = ("devtrace does not implement tf.distribute.ParameterServerStrategy's cluster yet (it would connect "
               "to the parameter servers and workers of {spec})")


class ParameterServerStrategy:
    """``tf.distribute.ParameterServerStrategy(cluster_resolver)``: TensorFlow 2.21's checks of the
    cluster, then one line (devtrace does not connect to remote parameter servers)."""

    def __init__(self, cluster_resolver, variable_partitioner=None):
        spec = cluster_resolver.cluster_spec()
        if not spec:
            raise ValueError("Cluster spec must be non-empty in `tf.distribute.cluster_resolver.ClusterResolver`.")
        validate_cluster_spec(spec, cluster_resolver.task_type, cluster_resolver.task_id)
        jobs = spec.as_dict()
        if len(jobs.get("ps", ())) < 1:
            raise ValueError("There must be at least one ps.")
        if len(jobs.get("worker", ())) < 1:
            raise ValueError("There must be at least one worker.")
        raise NotImplementedError(_NO_CLUSTER.format(spec=spec.as_dict()))


class Server:
    """``tf.distribute.Server``: the ``ServerDef`` made and checked as TensorFlow's
    ``_make_server_def``; starting the in-process gRPC server is what devtrace does not do."""

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None,
                 start=True):
        self._server_def = _server_def(server_or_cluster_def, job_name, task_index, protocol, config)
        raise NotImplementedError("devtrace does not implement tf.distribute.Server yet (an in-process gRPC server; "
                                  "`devtrace run --workers N` runs a cluster's workers)")

    @staticmethod
    def create_local_server(config=None, start=True):
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config, start=start)


def _server_def(server_or_cluster_def, job_name, task_index, protocol, config) -> ServerDef:
    if isinstance(server_or_cluster_def, ServerDef):
        d = server_or_cluster_def
        return ServerDef(d.cluster, d.job_name if job_name is None else job_name,
                         d.task_index if task_index is None else task_index, config,
                         d.protocol if protocol is None else protocol)
    try:
        spec = ClusterSpec(server_or_cluster_def)
    except TypeError:
        raise TypeError("Could not convert `server_or_cluster_def` to a `tf.train.ServerDef` or "
                        "`tf.train.ClusterSpec`.") from None
    if job_name is None:
        if len(spec.jobs) != 1:
            raise ValueError("Must specify an explicit `job_name`.")
        job_name = spec.jobs[0]
    if task_index is None:
        indices = spec.task_indices(job_name)
        if len(indices) != 1:
            raise ValueError("Must specify an explicit `task_index`.")
        task_index = indices[0]
    return ServerDef(spec.as_cluster_def(), job_name, task_index, config, protocol or "grpc")


# -- the coordinator ------------------------------------------------------------------------------

class RemoteValue:
    """``tf.distribute.experimental.coordinator.RemoteValue``: a scheduled function's future result."""


class PerWorkerValues:
    """One ``RemoteValue`` per worker (TensorFlow's assertion for anything else)."""

    def __init__(self, values):
        if not all(isinstance(v, RemoteValue) for v in values):
            raise AssertionError("`PerWorkerValues` should only take `RemoteValue`s.")
        self._values = tuple(values)


class ClusterCoordinator:
    """Schedules functions on a ``ParameterServerStrategy``'s workers — which devtrace's strategies are
    not: TensorFlow 2.21's ``AttributeError`` for any other strategy."""

    def __new__(cls, strategy):
        raise AttributeError(f"'{type(strategy).__name__}' object has no attribute '_cluster_coordinator'")


def experimental_get_current_worker_index():
    raise RuntimeError("Cannot retrieve the worker index. `get_worker_idx_and_num_workers` should be called from "
                       "within a tf.function being executed on a worker. This method should only be called from "
                       "either a dataset_fn that is passed into `ClusterCoordinator.create_per_worker_dataset`, or "
                       "a tf.function that is passed into `ClusterCoordinator.schedule`.")


coordinator = Namespace(_prefix="distribute.experimental.coordinator", ClusterCoordinator=ClusterCoordinator,
                        PerWorkerValues=PerWorkerValues, RemoteValue=RemoteValue)
coordinator_v2 = Namespace(_prefix="distribute.coordinator", ClusterCoordinator=ClusterCoordinator,
                           PerWorkerValue=PerWorkerValues, RemoteValue=RemoteValue,
                           experimental_get_current_worker_index=experimental_get_current_worker_index)


# -- variable partitioners ------------------------------------------------------------------------

class Partitioner:
    """``tf.distribute.experimental.partitioners.Partitioner``: ``(shape, dtype, axis=0)`` → the
    number of shards along each axis."""

    def __call__(self, shape, dtype, axis=0):
        raise NotImplementedError


def _element_bytes(dtype, bytes_per_string) -> int:
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string if dtype.base_dtype == dtypes.string else dtype.size


def _dims(shape) -> list:
    return [int(d) for d in shape]


class FixedShardsPartitioner(Partitioner):
    def __init__(self, num_shards):
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape)
        result = [1] * len(dims)
        result[axis] = min(self._num_shards, dims[axis])
        return result


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least ``min_shard_bytes``, at most ``max_shards``."""

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        if min_shard_bytes < 1:
            raise ValueError(f"Argument `min_shard_bytes` must be positive. Received: {min_shard_bytes}")
        if max_shards < 1:
            raise ValueError(f"Argument `max_shards` must be positive. Received: {max_shards}")
        if bytes_per_string < 1:
            raise ValueError(f"Argument `bytes_per_string` must be positive. Received: {bytes_per_string}")
        self._min_shard_bytes, self._max_shards, self._bytes_per_string = min_shard_bytes, max_shards, bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape)
        if axis >= len(dims):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is only {shape}")
        total = math.prod(dims) * _element_bytes(dtype, self._bytes_per_string)
        result = [1] * len(dims)
        result[axis] = max(1, min(dims[axis], self._max_shards, int(math.ceil(total / self._min_shard_bytes))))
        return result


class MaxSizePartitioner(Partitioner):
    """As few shards as keep each at most ``max_shard_bytes`` (``max_shards`` winning)."""

    def __init__(self, max_shard_bytes, max_shards=None, bytes_per_string=16):
        if max_shard_bytes < 1:
            raise ValueError(f"Argument `max_shard_bytes` must be positive. Received {max_shard_bytes}")
        if max_shards and max_shards < 1:
            raise ValueError(f"Argument `max_shards` must be positive. Received {max_shards}")
        if bytes_per_string < 1:
            raise ValueError(f"Argument `bytes_per_string` must be positive. Received: {bytes_per_string}")
        self._max_shard_bytes, self._max_shards, self._bytes_per_string = max_shard_bytes, max_shards, bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape)
        per_slice = math.prod(dims) / dims[axis] * _element_bytes(dtype, self._bytes_per_string)
        slices_per_shard = max(1, math.floor(self._max_shard_bytes / per_slice))
        shards = int(math.ceil(dims[axis] / slices_per_shard))
        result = [1] * len(dims)
        result[axis] = min(self._max_shards, shards) if self._max_shards else shards
        return result


partitioners = Namespace(_prefix="distribute.experimental.partitioners", Partitioner=Partitioner,
                         FixedShardsPartitioner=FixedShardsPartitioner, MinSizePartitioner=MinSizePartitioner,
                         MaxSizePartitioner=MaxSizePartitioner)


# -- an option record -------------------------------------------------------------------------------

def CollectiveHints(bytes_per_pack=0, timeout_seconds=None):  # noqa: N802 (TensorFlow's name)
    """The deprecated name of ``CommunicationOptions`` (TensorFlow 2.21 returns one)."""
    return CommunicationOptions(bytes_per_pack=bytes_per_pack, timeout_seconds=timeout_seconds)


# -- tf.distribute.experimental.rpc: functions served over gRPC ----------------------------------

class _RpcEnd:
    kind = ""

    @classmethod
    def create(cls, rpc_layer, address, *args, **kwargs):
        raise NotImplementedError(f"devtrace does not implement tf.distribute.experimental.rpc.{cls.kind}.create yet "
                                  f"(a gRPC {cls.kind.lower()} at {address})")


class RpcServer(_RpcEnd):
    kind = "Server"


class RpcClient(_RpcEnd):
    kind = "Client"


rpc = Namespace(_prefix="distribute.experimental.rpc", Server=RpcServer, Client=RpcClient)

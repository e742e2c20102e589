"""The transport of a multi-worker program's collectives: how this worker's ``CollectiveReduceV2``
and ``CollectiveBcastSend``/``Recv`` meet the other workers' (TensorFlow's gRPC collective
executor). ``devtrace run --workers N`` installs one (``devtrace.cluster.transport``: a Ray actor);
without one a cluster of more than one worker cannot run.

devtrace runs the replicas of a worker one after another, so a reduction is computed when its
values are all known (``prepare``) and each device's collective op returns its share
(``result``), keyed by the op's ``instance_key``."""

from __future__ import annotations

import itertools
from typing import Protocol

import numpy as np


class Transport(Protocol):
    rank: int  # this worker's id in the cluster (the chief is 0)
    world: int  # workers in the cluster

    def all_reduce(self, key: str, array): ...  # the sum of every worker's array

    def broadcast(self, key: str, array=None): ...  # rank 0's array, on every worker


_transport: list = []  # the one installed transport (a list: no module-level rebinding)
_results: dict = {}  # instance_key -> the host array its collective ops return
GROUPED = "CollectiveReduceV2"  # the op whose nodes of one instance_key meet (gather) in a function graph's run
_graph_calls = itertools.count(1)  # the function graphs' reductions, in the order every worker runs them


def install(transport) -> None:
    _transport[:] = [transport]


def current():
    return _transport[0] if _transport else None


def prepare(instance_key: int, array) -> None:
    _results[instance_key] = array


def result(instance_key: int):
    return _results[instance_key]


def release(instance_key: int) -> None:
    _results.pop(instance_key, None)


def gather(instance_key: int, arrays: list) -> None:
    """In a function graph's run, before the first of a group of ``CollectiveReduceV2`` nodes (one
    per local device, ``instance_key`` theirs): every local input summed, then over the cluster
    (the transport's sum of every worker's), prepared as the group's result."""
    dtype = np.asarray(arrays[0]).dtype
    total = sum(np.asarray(a, dtype=np.float64 if dtype.kind in "fc" else None) for a in arrays)
    total = np.asarray(total).astype(dtype)
    transport = current()
    if transport is not None and transport.world > 1:
        total = transport.all_reduce(f"graph/{next(_graph_calls)}", total)
    prepare(instance_key, total)

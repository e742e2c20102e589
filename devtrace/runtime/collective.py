"""The transport of a multi-worker program's collectives: how this worker's ``CollectiveReduceV2``
and ``CollectiveBcastSend``/``Recv`` meet the other workers' (TensorFlow's gRPC collective
executor). ``devtrace run --workers N`` installs one (``devtrace.cluster.transport``: a Ray actor);
without one a cluster of more than one worker cannot run.

devtrace runs the replicas of a worker one after another, so a reduction is computed when its
values are all known (``prepare``) and each device's collective op returns its share
(``result``), keyed by the op's ``instance_key``."""

from __future__ import annotations

from typing import Protocol


class Transport(Protocol):
    rank: int  # this worker's id in the cluster (the chief is 0)
    world: int  # workers in the cluster

    def all_reduce(self, key: str, array): ...  # the sum of every worker's array

    def broadcast(self, key: str, array=None): ...  # rank 0's array, on every worker


_transport: list = []  # the one installed transport (a list: no module-level rebinding)
_results: dict = {}  # instance_key -> the host array its collective ops return


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

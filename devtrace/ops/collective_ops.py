"""TensorFlow's collective ops as a ``MultiWorkerMirroredStrategy`` runs them: ``CollectiveReduceV2``
(one per local device: the sum over every replica of every worker) and ``CollectiveBcastSend`` /
``CollectiveBcastRecv`` (a variable's initial value from the chief). TensorFlow registers them for
every device type (``DEFAULT`` kernels). The values meet through the installed transport
(``runtime.collective``); the strategy prepares each reduction before its ops run."""

from __future__ import annotations

from ..runtime import collective, dtypes
from . import shapes
from .declare import not_differentiable, op


def _reduce(xp, x, group_size=1, group_key=1, instance_key=0, merge_op="Add", final_op="Id",
            communication_hint="auto", timeout_seconds=0.0):
    return xp.asarray(collective.result(instance_key)).astype(x.dtype, copy=True)


def _send(xp, x, group_size=1, group_key=1, instance_key=0, shape=(), communication_hint="auto",
          timeout_seconds=0.0):
    return x.copy()


def _recv(xp, group_size=1, group_key=1, instance_key=0, shape=(), T="float32", communication_hint="auto",
          timeout_seconds=0.0):
    return xp.asarray(collective.result(instance_key)).astype(T, copy=True).reshape(shape)


def _recv_shape(name, shapes_, attrs, dtype):
    return dtypes.as_dtype(attrs.get("T", "float32")), tuple(attrs.get("shape", ()))


op("CollectiveReduceV2", _reduce, shape=shapes.same, stateful=True)
op("CollectiveBcastSend", _send, shape=shapes.same, stateful=True)
op("CollectiveBcastRecv", _recv, shape=_recv_shape, stateful=True)
not_differentiable("CollectiveBcastSend", "CollectiveBcastRecv")

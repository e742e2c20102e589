"""Samples: MultiWorkerMirroredStrategy's collective ops, run as the strategy runs them (the
reduction prepared, then each device's op returns it), and the ``IteratorGetNext`` a
``tf.function`` makes of ``next(iterator)`` (its source: the iterator's next element)."""

import numpy as np

from devtrace.ops import iterator_ops
from devtrace.runtime import collective
from devtrace.runtime.eager.executor import execute

from . import Sample
from .math import X, t


def _collective(op, inputs, want, **attrs):
    def call():
        collective.prepare(7, want)
        try:
            return execute(op, tuple(inputs()), dict(group_size=2, group_key=1, instance_key=7, **attrs),
                           dtype=None if inputs() else t(want).dtype)
        finally:
            collective.release(7)
    return call


def _get_next():
    return list(iterator_ops.get_next(lambda: [X, np.arange(3)], [("float32", X.shape), ("int64", (3,))]))


SAMPLES = [
    Sample("IteratorGetNext", _get_next, [X, np.arange(3)], on="CPU"),
    Sample("CollectiveReduceV2", _collective("CollectiveReduceV2", lambda: [t(X)], X * 2), X * 2),
    Sample("CollectiveBcastSend", _collective("CollectiveBcastSend", lambda: [t(X)], X, shape=X.shape), X),
    Sample("CollectiveBcastRecv", _collective("CollectiveBcastRecv", lambda: [], X, shape=X.shape, T="float32"), X),
]

"""Samples: MultiWorkerMirroredStrategy's collective ops, run as the strategy runs them (the
reduction prepared, then each device's op returns it)."""

import numpy as np

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


SAMPLES = [
    Sample("CollectiveReduceV2", _collective("CollectiveReduceV2", lambda: [t(X)], X * 2), X * 2),
    Sample("CollectiveBcastSend", _collective("CollectiveBcastSend", lambda: [t(X)], X, shape=X.shape), X),
    Sample("CollectiveBcastRecv", _collective("CollectiveBcastRecv", lambda: [], X, shape=X.shape, T="float32"), X),
]

"""Keras regularizers: ``L1``, ``L2``, ``L1L2`` (and ``l1``/``l2``/``l1_l2``) — penalties a layer's
``losses`` reports and ``fit`` adds to the loss."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from . import identifiers
from .serializable import Configurable


class Regularizer(Configurable):
    def __call__(self, x):
        return tf.constant(0.0)


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        penalty = tf.constant(0.0, x.dtype)
        if self.l1:
            penalty = penalty + self.l1 * tf.reduce_sum(tf.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * tf.reduce_sum(tf.square(x))
        return penalty


class L1(L1L2):
    def __init__(self, l1=0.01):
        super().__init__(l1=l1)


class L2(L1L2):
    def __init__(self, l2=0.01):
        super().__init__(l2=l2)


l1, l2, l1_l2 = L1, L2, L1L2
ALL_OBJECTS_DICT = identifiers.table(Regularizer, L1, L2, L1L2)


def get(identifier):
    return identifiers.lookup("regularizer", identifier, ALL_OBJECTS_DICT)


__getattr__ = _missing("keras.regularizers")

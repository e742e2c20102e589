"""``keras.constraints``: projections a layer applies to a weight after each optimizer step
(``MaxNorm``, ``MinMaxNorm``, ``NonNeg``, ``UnitNorm``), and ``get``/``serialize``/``deserialize``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from . import identifiers

EPSILON = 1e-7  # keras.config.epsilon()'s default


class Constraint:
    def __call__(self, w):
        return w

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return tf.sqrt(tf.reduce_sum(tf.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Each slice along ``axis`` rescaled to a norm of at most ``max_value``."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = tf.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        return w * (tf.clip_by_value(norms, 0.0, float(self.max_value)) / (EPSILON + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    def __call__(self, w):
        return tf.maximum(tf.convert_to_tensor(w), 0.0)


class UnitNorm(Constraint):
    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = tf.convert_to_tensor(w)
        return w / (EPSILON + _norms(w, self.axis))

    def get_config(self) -> dict:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Norms moved ``rate`` of the way into ``[min_value, max_value]``."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = tf.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = self.rate * tf.clip_by_value(norms, float(self.min_value), float(self.max_value)) \
            + (1 - self.rate) * norms
        return w * (desired / (EPSILON + norms))

    def get_config(self) -> dict:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, MinMaxNorm
ALL_OBJECTS_DICT = identifiers.table(Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm)


def serialize(constraint) -> dict:
    return {"module": "keras.constraints", "class_name": type(constraint).__name__,
            "config": constraint.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    return identifiers.from_dict(config, {**ALL_OBJECTS_DICT, **(custom_objects or {})})


def get(identifier):
    return identifiers.lookup("constraint", identifier, ALL_OBJECTS_DICT)


__getattr__ = _missing("keras.constraints")

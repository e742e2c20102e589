"""``keras.optimizers.schedules``: learning rates as functions of the optimizer's step, computed
with TensorFlow ops (so a traced train step computes them too), Keras 3's formulas and configs."""

from __future__ import annotations

import math

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from . import serializable


class LearningRateSchedule:
    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  "`__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override `get_config()` in "
                                  "order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _f32(value):
    return tf.cast(tf.convert_to_tensor(value), tf.float32)


class ExponentialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")

    def __call__(self, step):
        p = _f32(step) / _f32(self.decay_steps)
        if self.staircase:
            p = tf.floor(p)
        return _f32(self.initial_learning_rate) * tf.pow(_f32(self.decay_rate), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries, self.values, self.name = boundaries, values, name

    def __call__(self, step):
        step = _f32(step)
        bounds = [_f32(b) for b in self.boundaries]
        values = [_f32(v) for v in self.values]
        result = tf.cast(step <= bounds[0], tf.float32) * values[0]
        result += tf.cast(step > bounds[-1], tf.float32) * values[-1]
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
            result += tf.cast(tf.logical_and(step > low, step <= high), tf.float32) * value
        return result

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name="PolynomialDecay"):
        self.initial_learning_rate, self.decay_steps, self.end_learning_rate = (initial_learning_rate, decay_steps,
                                                                                end_learning_rate)
        self.power, self.cycle, self.name = power, cycle, name
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")

    def __call__(self, step):
        step, steps = _f32(step), _f32(self.decay_steps)
        if self.cycle:
            steps = steps * tf.where(tf.equal(step, 0.0), 1.0, tf.math.ceil(step / steps))
        else:
            step = tf.minimum(step, steps)
        p = step / steps
        start, end = _f32(self.initial_learning_rate), _f32(self.end_learning_rate)
        return (start - end) * tf.pow(1.0 - p, _f32(self.power)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="InverseTimeDecay"):
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        p = _f32(step) / _f32(self.decay_steps)
        if self.staircase:
            p = tf.floor(p)
        return _f32(self.initial_learning_rate) / (1.0 + _f32(self.decay_rate) * p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class CosineDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = (initial_learning_rate, decay_steps,
                                                                               alpha, name)
        self.warmup_steps, self.warmup_target = warmup_steps, warmup_target
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")

    def _decay(self, step, steps, start):
        cosine = 0.5 * (1.0 + tf.cos(math.pi * step / steps))
        return start * ((1.0 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        start, steps, step = _f32(self.initial_learning_rate), _f32(self.decay_steps), _f32(step)
        if self.warmup_target is None:
            return self._decay(tf.minimum(step, steps), steps, start)
        target, warmup = _f32(self.warmup_target), _f32(self.warmup_steps)
        step = tf.minimum(step, steps + warmup)
        warming = (target - start) * (step / tf.maximum(warmup, 1e-12)) + start
        return tf.where(step < warmup, warming, self._decay(step - warmup, steps, target))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name="SGDRDecay"):
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, first_decay_steps
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name
        if first_decay_steps <= 0:
            raise ValueError(f"Argument `first_decay_steps` must be > 0. Received: first_decay_steps={first_decay_steps}")

    def __call__(self, step):
        fraction = _f32(step) / _f32(self.first_decay_steps)
        t_mul = _f32(self._t_mul)
        if self._t_mul == 1.0:
            restart = tf.floor(fraction)
            fraction = fraction - restart
        else:
            restart = tf.floor(tf.math.log(1.0 - fraction * (1.0 - t_mul)) / tf.math.log(t_mul))
            done = (1.0 - tf.pow(t_mul, restart)) / (1.0 - t_mul)
            fraction = (fraction - done) / tf.pow(t_mul, restart)
        cosine = 0.5 * tf.pow(_f32(self._m_mul), restart) * (1.0 + tf.cos(math.pi * fraction))
        return _f32(self.initial_learning_rate) * ((1.0 - self.alpha) * cosine + self.alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


def serialize(learning_rate_schedule):
    return serializable.serialize(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    cls = globals().get(config.get("class_name")) if isinstance(config, dict) else None
    if cls is not None and isinstance(cls, type) and issubclass(cls, LearningRateSchedule):
        return cls.from_config(config["config"])
    return serializable.deserialize(config, custom_objects)


__all__ = ["CosineDecay", "CosineDecayRestarts", "ExponentialDecay", "InverseTimeDecay", "LearningRateSchedule",
           "PiecewiseConstantDecay", "PolynomialDecay", "deserialize", "serialize"]
__getattr__ = _missing("keras.optimizers.schedules")

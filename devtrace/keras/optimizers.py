"""Keras optimizers: SGD (momentum, nesterov), Adam, AdamW, RMSprop, Adagrad (the others in
``optimizers_more``, the base class in ``optimizer_base``) — Keras 3's update rules — and the
``LossScaleOptimizer`` of mixed precision around any of them."""

from __future__ import annotations

from devtrace.util.namespace import Namespace as _Namespace, missing as _missing

import re
from collections.abc import MutableMapping

import devtrace as tf
from . import keywords, schedules, serializable, variables  # noqa: F401 (schedules: keras.optimizers.schedules)
from .optimizer_base import Optimizer, _clip_by_norm, _slice_squares  # noqa: F401 (keras.optimizers.Optimizer)


class SGD(Optimizer):
    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.momentum, self.nesterov = float(momentum), nesterov
        self.slots = (("momentum", 0.0),) if self.momentum else ()

    def _update(self, grad, var):
        if not self.momentum:
            var.assign_sub(grad * self._lr(var))
            return
        m = self._slot(var, "momentum")
        lr = self._lr(var)
        m.assign(m * self.momentum - grad * lr)
        var.assign_add(m * self.momentum - grad * lr if self.nesterov else m.value())


class Adam(Optimizer):
    slots = (("m", 0.0), ("v", 0.0))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        keywords.unimplemented("keras.optimizers.Adam", amsgrad=(amsgrad, False))
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _update(self, grad, var):
        m, v = self._slot(var, "m"), self._slot(var, "v")
        t = self._local_step(var.dtype)
        lr = self._lr(var) * tf.sqrt(1.0 - tf.pow(self.beta_2, t)) / (1.0 - tf.pow(self.beta_1, t))
        m.assign_add((grad - m) * (1 - self.beta_1))
        v.assign_add((self._square(grad) - v) * (1 - self.beta_2))
        var.assign_sub(m * lr / (tf.sqrt(v.value()) + self.epsilon))


class AdamW(Adam):
    """Adam with Keras's decoupled weight decay (by default 0.004)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, weight_decay=weight_decay, **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")


class RMSprop(Optimizer):
    slots = (("velocity", 0.0),)

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        keywords.unimplemented("keras.optimizers.RMSprop", momentum=(momentum, (0.0, 0)), centered=(centered, False))
        self.rho, self.epsilon = rho, epsilon

    def _update(self, grad, var):
        v = self._slot(var, "velocity")
        v.assign(v * self.rho + self._square(grad) * (1 - self.rho))
        var.assign_sub(self._lr(var) * grad / tf.sqrt(v.value() + self.epsilon))  # Keras 3: epsilon under the root


class Adagrad(Optimizer):
    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.initial_accumulator_value, self.epsilon = float(initial_accumulator_value), epsilon
        self.slots = (("accumulator", self.initial_accumulator_value),)

    def _update(self, grad, var):
        acc = self._slot(var, "accumulator", self.initial_accumulator_value)
        acc.assign_add(self._square(grad))
        var.assign_sub(grad * self._lr(var) / tf.sqrt(acc.read_value() + self.epsilon))


# -- keras.mixed_precision.LossScaleOptimizer ----------------------------------------------------
# Keras 3's dynamic loss scaling around another optimizer. The train step multiplies the loss by
# ``dynamic_scale`` (``scale_loss``); ``apply`` divides the gradients by it and updates only when every
# gradient is finite — else the step is skipped and the scale halved; after ``dynamic_growth_steps``
# finite steps in a row it doubles. The branches are ``tf.cond``s, as Keras's TensorFlow backend builds them.

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                  "loss_scale_factor": None, "gradient_accumulation_steps": None}


class LossScaleOptimizer(Optimizer):
    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000, name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        for arg, default in _BASE_DEFAULTS.items():  # what older configs carry, at their defaults only
            if arg in kwargs and kwargs.pop(arg) != default:
                raise ValueError(f"LossScaleOptimizer does not support `{arg}`. Instead, set `{arg}` on the "
                                 "`inner_optimizer`.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs)}`.")
        self.name = name or "loss_scale_optimizer"
        self._schedule = None
        with tf.name_scope(self.name):  # Keras's base optimizer's own two, unused here
            self._iteration = variables.make(tf.constant(0, tf.int64), "iteration", False)
            self._own_rate = variables.make(tf.constant(0.0, tf.float32), "learning_rate", False)
        self.built = False
        self._slots, self._replica_of = {}, {}
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps

    def build(self, var_list):
        if not self.built:
            with tf.name_scope(self.name):
                self.step_counter = variables.make(tf.constant(0, tf.int64), "step_counter", False)
                self.dynamic_scale = variables.make(tf.constant(float(self.initial_scale), tf.float32),
                                                    "dynamic_scale", False)
            self._variables = list(var_list)
        self.inner_optimizer.build(var_list)
        self.built = True

    @property
    def variables(self) -> list:
        own = [self._iteration, self._own_rate]
        if self.built:
            own += [self.step_counter, self.dynamic_scale]
        return own + self.inner_optimizer.variables

    def variable_sizes(self) -> tuple:
        count, size = self.inner_optimizer.variable_sizes()
        return count + 4, size + 24  # iteration, step_counter (int64), learning_rate, dynamic_scale (float32)

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        """The loss times the scale (``initial_scale`` until the optimizer is built)."""
        return tf.multiply(loss, self.dynamic_scale if self.built else self.initial_scale)

    def check_finite(self, grads):
        finite = [tf.reduce_all(tf.math.is_finite(g)) for g in grads if g is not None]
        return tf.reduce_all(tf.stack(finite))

    def apply_gradients(self, grads_and_vars):
        pairs = list(grads_and_vars)
        return self.apply([g for g, _ in pairs], [v for _, v in pairs])

    def apply(self, grads, trainable_variables=None):
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first. ")
            trainable_variables = self._variables
        grads, trainable_variables = list(grads), list(trainable_variables)
        self.build(trainable_variables)
        tf.cond(self.check_finite(grads), lambda: self._finite_step(grads, trainable_variables), self._skip_step)
        return self.iterations

    def _finite_step(self, grads, trainable_variables):
        scale = self.dynamic_scale
        self.inner_optimizer.apply([g if g is None else tf.divide(g, scale) for g in grads], trainable_variables)
        last = tf.constant(self.dynamic_growth_steps - 1)
        counter = self.step_counter.value()
        tf.cond(tf.equal(counter, tf.cast(last, tf.int64)), self._upscale, self._increment)

    def _upscale(self):
        self.step_counter.assign(0)
        self.dynamic_scale.assign(tf.multiply(self.dynamic_scale, 2.0))

    def _increment(self):
        """Keras's ``assign_add``: ``assign(variable + 1)`` (read, add, assign)."""
        one = tf.cast(1, tf.int64)
        self.step_counter.assign(tf.add(self.step_counter.value(), one))

    def _skip_step(self):
        self.step_counter.assign(0)
        self.dynamic_scale.assign(tf.multiply(self.dynamic_scale, 0.5))

    def apply_replicated(self, grads_per_replica, variables, devices):
        raise NotImplementedError("devtrace does not implement keras.mixed_precision.LossScaleOptimizer under a "
                                  "MirroredStrategy yet")

    def finalize_variable_values(self, var_list):
        return None

    def get_config(self) -> dict:
        return {"name": self.name, "inner_optimizer": serializable.serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        inner = serializable.deserialize(config.pop("inner_optimizer"), custom_objects)
        return cls(inner, **config)


from .optimizers_more import Adadelta, Adamax, Ftrl, Lamb, Lion, Nadam  # noqa: E402

ALL_OBJECTS_DICT = {cls.__name__.lower(): cls for cls in (Optimizer, Adam, SGD, RMSprop, AdamW, Adagrad,
                                                           LossScaleOptimizer, Adadelta, Adamax, Ftrl, Lion, Nadam)}
# Keras's table lacks Lamb: ``optimizers.get("lamb")`` is "Could not interpret optimizer identifier: lamb"


def serialize(optimizer):
    """Keras's ``optimizers.serialize``: the optimizer's module, class name, config."""
    return serializable.serialize(optimizer)


def deserialize(config, custom_objects=None):
    """An optimizer from its config; built-in class names in any case (``"SGD"``, ``"sgd"``)."""
    name = config["class_name"]
    cls = serializable.get_registered_object(name, custom_objects) or ALL_OBJECTS_DICT.get(name.lower())
    if cls is None:
        return None
    return cls.from_config(config.get("config") or {})


def get(identifier):
    """Keras's ``optimizers.get``: an optimizer for a name or config, the optimizer itself, or
    ``None``; anything else is refused."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = deserialize({"class_name": identifier, "config": {}})
    else:
        obj = identifier
    if isinstance(obj, Optimizer):
        return obj
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


class LegacyOptimizerWarning:
    """``keras.optimizers.legacy.*``: Keras 2's optimizers, which Keras 3 refuses when made."""

    def __init__(self, *args, **kwargs):
        raise ImportError(
            "`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to continue using a "
            "`tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` package (Keras 2) and set the "
            "environment variable `TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use `tf_keras` when "
            "accessing `tf.keras`.")


legacy = _Namespace(_prefix="keras.optimizers.legacy", **dict.fromkeys(
    ("Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"), LegacyOptimizerWarning))

class OptimizerMap(MutableMapping):
    """``keras.src.optimizers.multi_optimizer.OptimizerMap``: which optimizer updates a variable, by
    its path — an exact key first, else the one pattern that matches the whole path
    (``re.fullmatch``), else the default."""

    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(f"default_optimizer must be a Keras Optimizer instance. Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer, self._optimizer_map = default_optimizer, dict(optimizer_map or {})

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matching = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        return self._optimizer_map[matching[0]] if matching else self._default_optimizer

    def __setitem__(self, key, optimizer):
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value {self._optimizer_map[key]}. "
                             "Please make sure to not use duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        if not isinstance(optimizer, Optimizer):
            raise ValueError(f"optimizer must be a Keras Optimizer instance. Received: {optimizer}")
        if isinstance(optimizer, LossScaleOptimizer):
            raise ValueError("optimizer cannot be LossScaleOptimizer.")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[variable.path]

    def get_config(self) -> dict:
        return {"default_optimizer": serializable.serialize(self._default_optimizer),
                "optimizer_map": {k: serializable.serialize(v) for k, v in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(serializable.deserialize(config["default_optimizer"], custom_objects),
                   {k: serializable.deserialize(v, custom_objects) for k, v in config["optimizer_map"].items()})


multi_optimizer = _Namespace(_prefix="keras.src.optimizers.multi_optimizer", OptimizerMap=OptimizerMap)
del OptimizerMap  # Keras's keras.optimizers has no such name: only keras.src's module

__getattr__ = _missing("keras.optimizers")

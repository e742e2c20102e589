"""Keras optimizers: SGD (momentum, nesterov), Adam, AdamW, RMSprop, Adagrad — Keras 3's update rules
(after its gradient clipping and decoupled weight decay), slot variables created beside each variable
(on its device) — and the ``LossScaleOptimizer`` of mixed precision around any of them."""

from __future__ import annotations

from devtrace.util.namespace import Namespace as _Namespace, missing as _missing

import contextlib
import re
import warnings
from collections.abc import MutableMapping

import numpy as np

import devtrace as tf
from . import keywords, naming, schedules, serializable, variables


class Optimizer(serializable.Configurable):
    slots: tuple = ()  # (name, initial value) of each variable's slot variables

    def __init__(self, learning_rate=0.01, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        keywords.unimplemented(
            f"keras.optimizers.{type(self).__name__}", use_ema=(use_ema, False),
            ema_overwrite_frequency=(ema_overwrite_frequency, None), loss_scale_factor=(loss_scale_factor, None),
            gradient_accumulation_steps=(gradient_accumulation_steps, None))
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self.weight_decay, self.clipnorm, self.clipvalue = weight_decay, clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        self._no_decay_ids: set = set()
        self._no_decay_pattern = None
        # Keras's ``iteration`` counter and ``learning_rate`` (float32), made with the optimizer (mirrored
        # in a strategy's scope); every update reads the rate, so a traced step sees later assignments
        self.name = name or naming.unique(naming.snake(type(self).__name__))  # Keras's auto name: sgd, sgd_1, adam_w
        # a schedule's rate is computed from ``iterations`` into the rate variable before each update
        self._schedule = learning_rate if isinstance(learning_rate, schedules.LearningRateSchedule) else None
        if self._schedule is not None:
            learning_rate = float(self._schedule(0).numpy())
        with tf.name_scope(self.name):
            self.iterations = variables.make(tf.constant(0, tf.int64), "iteration", False)
            self._learning_rate = variables.make(tf.constant(float(learning_rate), tf.float32), "learning_rate",
                                                 False)
        self.built = False
        self._slots: dict = {}
        self._replica_of: dict = {}  # id(copy of a mirrored variable) -> (mirrored variable, replica)

    def get_config(self) -> dict:
        """The constructor's arguments, the name and the learning rate as they are now (or its schedule)."""
        rate = serializable.serialize(self._schedule) if self._schedule is not None \
            else float(self._learning_rate.numpy())
        config = {"name": self.name, "learning_rate": rate, "weight_decay": None, "clipnorm": None,
                  "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                  "ema_overwrite_frequency": None, "loss_scale_factor": None, "gradient_accumulation_steps": None}
        config.update((k, v) for k, v in serializable.init_config(self).items() if k not in config)
        return config

    @property
    def learning_rate(self):
        """The rate variable; with a schedule, the schedule at ``iterations`` (Keras's: the rate the
        next step takes)."""
        if self._schedule is not None:
            return self._schedule(self.iterations)
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if self._schedule is not None:
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` "
                            "constructor argument, hence its learning rate is not settable. If you need the learning "
                            "rate to be settable, you should instantiate the optimizer with a float `learning_rate` "
                            "argument.")
        self._learning_rate.assign(float(value))

    def _scheduled(self) -> None:
        """The rate of this step, from the schedule (when there is one) at ``iterations``."""
        if self._schedule is not None:
            self._learning_rate.assign(tf.cast(self._schedule(self.iterations), tf.float32))

    @property
    def variables(self) -> list:
        """``iterations``, ``learning_rate``, then the slot variables as they were made."""
        return [self.iterations, self._learning_rate] + list(self._slots.values())

    def _trackable_children(self):
        """A checkpoint's keys, Keras's: ``_iterations``, ``_learning_rate``, ``_variables/N`` (the slots from 2)."""
        return [("_iterations", self.iterations), ("_learning_rate", self._learning_rate), ("_variables", self.variables)]

    def _lr(self, var):
        return tf.cast(self._learning_rate, var.dtype)

    def variable_sizes(self) -> tuple:
        """``(count, bytes)`` of Keras's optimizer variables: ``iteration`` (int64), ``learning_rate``
        (float32) and the slots (what ``summary()`` reports as "Optimizer params")."""
        slots = list(self._slots.values())
        count = sum(int(np.prod(v.shape)) for v in slots)
        return 2 + count, 12 + sum(int(np.prod(v.shape)) * v.dtype.size for v in slots)  # + learning_rate

    def _slot(self, var, name, initial=0.0):
        if id(var) in self._replica_of:  # one replica's copy of a mirrored variable: that copy of its slot
            mirrored, i = self._replica_of[id(var)]
            return self._slot(mirrored, name, initial).values[i]
        key = (id(var), name)
        if key not in self._slots:
            strategy = getattr(var, "_strategy", None)  # a mirrored variable's slots are mirrored too
            # made eagerly, also while a tf.function traces the first step (Keras makes them so)
            with tf.init_scope(), strategy.scope() if strategy is not None else contextlib.nullcontext(), \
                    tf.device(var.device):
                self._slots[key] = tf.Variable(tf.fill(list(var.shape), tf.constant(initial, var.dtype)) if initial
                                               else tf.zeros(list(var.shape), var.dtype), trainable=False)
            pending = self.__dict__.get("_deferred_restore")  # restored from a checkpoint before its slots existed
            if pending is not None:
                saved, path = pending
                saved.restore(self._slots[key], f"{path}/_variables/{len(self.variables) - 1}")
        return self._slots[key]

    def build(self, var_list):
        """Every variable's slots, made before a step runs (a traced step cannot make variables),
        beside each variable — mirrored for a mirrored one."""
        for var in var_list:
            for name, initial in self.slots:
                self._slot(var, name, initial)
        if not self.built:
            self._variables = list(var_list)
        self.built = True

    def _local_step(self, dtype):
        return tf.cast(self.iterations + 1, dtype)

    def apply_gradients(self, grads_and_vars):
        """One update — the gradients clipped, the weights decayed, then each variable's rule (Keras's
        order); returns ``iterations`` (Keras 3's, for tf.keras's callers). In a replica of a strategy's
        ``run``, the gradients of every replica are all-reduced first (``distributed``)."""
        pairs = [(g, v) for g, v in grads_and_vars]
        from . import distributed

        if distributed.in_replica(self, pairs):
            return self.iterations
        self.build([v for _, v in pairs])
        self._scheduled()
        dense = [None if g is None else tf.convert_to_tensor(g) for g, _ in pairs]
        self._slice_squares = {id(d): _slice_squares(g) for (g, _), d in zip(pairs, dense)
                               if isinstance(g, tf.IndexedSlices)}
        grads = self._clipped(dense)
        self._decay([v for _, v in pairs])
        for grad, (_, var) in zip(grads, pairs):
            if grad is not None:
                self._update(grad, var)
        self.iterations.assign_add(1)
        for _, var in pairs:  # Keras's: each variable's constraint after the update
            if getattr(var, "constraint", None) is not None:
                var.assign(var.constraint(var))
        return self.iterations

    def _clipped(self, grads):
        """Keras's ``clipnorm`` (each gradient's norm), ``global_clipnorm`` (all together), ``clipvalue``."""
        if self.clipnorm and self.clipnorm > 0:
            return [None if g is None else _clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            present = [g for g in grads if g is not None]
            norm = tf.sqrt(tf.add_n([tf.reduce_sum(tf.square(g)) for g in present]))
            scale = self.global_clipnorm * tf.minimum(1.0 / norm, 1.0 / self.global_clipnorm)
            return [None if g is None else g * tf.cast(scale, g.dtype) for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            return [None if g is None else tf.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Variables (or those whose name holds one of ``var_names``) the weight decay leaves alone."""
        if self.built:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before the optimizer is built.")
        self._no_decay_ids = {id(v) for v in var_list or ()}
        self._no_decay_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _decay(self, variables):
        """Keras's decoupled weight decay: ``var -= var * weight_decay * learning_rate``."""
        if self.weight_decay is None:
            return
        for var in variables:
            if id(var) in self._no_decay_ids or (self._no_decay_pattern is not None
                                                 and self._no_decay_pattern.search(var.name)):
                continue
            var.assign_sub(var * tf.cast(self.weight_decay, var.dtype) * self._lr(var))

    def apply(self, grads, trainable_variables=None):
        """Keras 3's ``apply``: the gradients of ``trainable_variables`` (by default, those the
        optimizer was built on)."""
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first. ")
            trainable_variables = self._variables
        return self.apply_gradients(zip(grads, trainable_variables))

    def apply_replicated(self, grads_per_replica, variables, devices):
        """One step under a ``MirroredStrategy``: each replica applies its all-reduced gradients to its
        own copy of every mirrored variable (and of its slots), on its device."""
        if self.weight_decay is not None or self.clipnorm or self.clipvalue or self.global_clipnorm:
            raise NotImplementedError(f"devtrace does not implement keras.optimizers.{type(self).__name__}'s weight "
                                      "decay or gradient clipping under a MirroredStrategy yet")
        self.build(variables)
        self._scheduled()
        for i, (grads, dev) in enumerate(zip(grads_per_replica, devices)):
            with tf.device(dev):
                for grad, var in zip(grads, variables):
                    if not hasattr(var, "values"):  # a central-storage strategy's one variable: updated once
                        if i == 0:
                            with tf.device(var.device):
                                self._update(tf.convert_to_tensor(grad), var)
                        continue
                    copy = var.values[i]
                    self._replica_of[id(copy)] = (var, i)
                    self._update(tf.convert_to_tensor(grad), copy)
        self.iterations.assign_add(1)

    def _square(self, grad):
        """``grad`` squared as Keras's sparse-aware ``ops.square`` squares an ``IndexedSlices`` gradient:
        each slice before repeated indices are summed (an embedding row looked up twice in a batch)."""
        squares = getattr(self, "_slice_squares", None)
        return squares.pop(id(grad)) if squares and id(grad) in squares else tf.square(grad)

    def scale_loss(self, loss):
        """Keras 3's: the loss as the train step differentiates it (scaled by a ``LossScaleOptimizer``)."""
        return loss

    def minimize(self, loss, var_list, tape=None):
        grads = tape.gradient(loss, var_list)
        self.apply_gradients(zip(grads, var_list))


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


def _slice_squares(slices):
    return tf.convert_to_tensor(tf.IndexedSlices(tf.square(slices.values), slices.indices, slices.dense_shape))


def _clip_by_norm(grad, clipnorm):
    """``grad * clipnorm / max(norm, clipnorm)`` (a zero gradient stays zero), as Keras clips."""
    total = tf.reduce_sum(tf.square(grad))
    positive = total > 0
    norm = tf.where(positive, tf.sqrt(tf.where(positive, total, tf.ones_like(total))), total)
    return grad * clipnorm / tf.maximum(norm, tf.cast(clipnorm, grad.dtype))


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


ALL_OBJECTS_DICT = {cls.__name__.lower(): cls for cls in (Optimizer, Adam, SGD, RMSprop, AdamW, Adagrad,
                                                           LossScaleOptimizer)}


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

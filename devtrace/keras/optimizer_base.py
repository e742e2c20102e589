"""Keras 3's base optimizer: the learning rate (or its schedule) and ``iterations``, slot variables made
beside each variable (on its device, mirrored under a strategy), gradient clipping, decoupled weight
decay, ``loss_scale_factor``, ``gradient_accumulation_steps`` and ``use_ema`` — the rules of each
optimizer in ``optimizers`` and ``optimizers_more``."""

from __future__ import annotations

import contextlib
import re
import warnings

import numpy as np

import devtrace as tf
from . import naming, schedules, serializable, variables

class Optimizer(serializable.Configurable):
    slots: tuple = ()  # (name, initial value) of each variable's slot variables

    def __init__(self, learning_rate=0.01, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self.weight_decay, self.clipnorm, self.clipvalue = weight_decay, clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema, self.ema_momentum, self.ema_overwrite_frequency = use_ema, ema_momentum, ema_overwrite_frequency
        self.loss_scale_factor, self.gradient_accumulation_steps = loss_scale_factor, gradient_accumulation_steps
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
            self._iterations = variables.make(tf.constant(0, tf.int64), "iteration", False)
            self._learning_rate = variables.make(tf.constant(float(learning_rate), tf.float32), "learning_rate",
                                                 False)
        self.built = False
        self._slots: dict = {}
        self._replica_of: dict = {}  # id(copy of a mirrored variable) -> (mirrored variable, replica)

    def get_config(self) -> dict:
        """The constructor's arguments, the name and the learning rate as they are now (or its schedule)."""
        rate = serializable.serialize(self._schedule) if self._schedule is not None \
            else float(self._learning_rate.numpy())
        config = {"name": self.name, "learning_rate": rate, "weight_decay": self.weight_decay,
                  "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                  "use_ema": self.use_ema,
                  "ema_momentum": self.ema_momentum, "ema_overwrite_frequency": self.ema_overwrite_frequency,
                  "loss_scale_factor": self.loss_scale_factor,
                  "gradient_accumulation_steps": self.gradient_accumulation_steps}
        config.update((k, v) for k, v in serializable.init_config(self).items() if k not in config)
        return config

    @property
    def iterations(self):
        """The step counter; with ``gradient_accumulation_steps``, the updates made (Keras's floor division)."""
        if self.gradient_accumulation_steps:
            return tf.math.floordiv(self._iterations, self.gradient_accumulation_steps)
        return self._iterations

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
        return [self._iterations, self._learning_rate] + list(self._slots.values())

    def _trackable_children(self):
        """A checkpoint's keys, Keras's: ``_iterations``, ``_learning_rate``, ``_variables/N`` (the slots from 2)."""
        return [("_iterations", self._iterations), ("_learning_rate", self._learning_rate),
                ("_variables", self.variables)]

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
        for name, initial in self._extra_slots():  # Keras's base build: each kind for every variable first
            for var in var_list:
                self._slot(var, name, initial)
        for var in var_list:
            for name, initial in self.slots:
                self._slot(var, name, initial)
        if not self.built:
            self._variables = list(var_list)
        self.built = True

    def _extra_slots(self) -> tuple:
        """Keras's base optimizer's own slots: EMA averages, accumulated gradients."""
        return ((("average", 0.0),) if self.use_ema else ()) + \
            ((("accumulated_grad", 0.0),) if self.gradient_accumulation_steps else ())

    def _before_updates(self):
        """Once a step, before the variables' updates (Nadam's ``u_product``)."""

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
        variables_ = [v for _, v in pairs]
        self.build(variables_)
        dense = [None if g is None else tf.convert_to_tensor(g) for g, _ in pairs]
        self._slice_squares = {id(d): _slice_squares(g) for (g, _), d in zip(pairs, dense)
                               if isinstance(g, tf.IndexedSlices)}
        if self.loss_scale_factor is not None:
            dense = [None if g is None else g / self.loss_scale_factor for g in dense]
        if self.gradient_accumulation_steps:
            self._accumulate(dense, variables_)
        else:
            self._step(dense, variables_)
        if self.use_ema:
            self._moving_averages()
        self._iterations.assign_add(1)
        for var in variables_:  # Keras's: each variable's constraint after the update
            if getattr(var, "constraint", None) is not None:
                var.assign(var.constraint(var))
        return self.iterations

    def _step(self, grads, variables_):
        """One update of ``variables_``: the rate, the gradients clipped, the weights decayed, the rule."""
        self._scheduled()
        self._before_updates()
        grads = self._clipped(grads)
        self._decay(variables_)
        for grad, var in zip(grads, variables_):
            if grad is not None:
                self._update(grad, var)

    def _accumulate(self, grads, variables_):
        """Keras's ``gradient_accumulation_steps``: the gradients are summed; every n-th step updates
        with their mean and clears the sums."""
        steps = self.gradient_accumulation_steps
        sums = [self._slot(v, "accumulated_grad") for v in variables_]

        def update():
            self._step([None if g is None else (g + a) / steps for g, a in zip(grads, sums)], variables_)
            for a in sums:
                a.assign(tf.zeros_like(a))
            return tf.constant(True)

        def accumulate():
            for g, a in zip(grads, sums):
                if g is not None:
                    a.assign(g + a)
            return tf.constant(False)

        tf.cond(tf.equal((self._iterations + 1) % steps, 0), update, accumulate)

    def _moving_averages(self):
        """Keras's ``use_ema``: each variable's average (the value itself on the first step), copied
        into the variables every ``ema_overwrite_frequency`` steps."""
        variables_ = self._variables
        for var in variables_:
            average = self._slot(var, "average")
            momentum = tf.cast(tf.not_equal(self.iterations, 0), var.dtype) * self.ema_momentum
            average.assign(momentum * average + (1 - momentum) * var)
        if self.ema_overwrite_frequency:
            def overwrite():
                self.finalize_variable_values(variables_)
                return tf.constant(True)

            tf.cond(tf.equal((self.iterations + 1) % self.ema_overwrite_frequency, 0), overwrite,
                    lambda: tf.constant(False))

    def finalize_variable_values(self, var_list):
        """With ``use_ema``, the variables take their moving averages (Keras's, at the end of ``fit``)."""
        if self.use_ema:
            for var in var_list:
                if (id(var), "average") in self._slots:
                    var.assign(self._slots[(id(var), "average")])

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
        if self.use_ema or self.gradient_accumulation_steps or self.loss_scale_factor is not None:
            raise NotImplementedError(f"devtrace does not implement keras.optimizers.{type(self).__name__}(use_ema, "
                                      "gradient_accumulation_steps, loss_scale_factor) under a MirroredStrategy yet")
        self.build(variables)
        self._scheduled()
        self._before_updates()
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
        self._iterations.assign_add(1)

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


def _slice_squares(slices):
    return tf.convert_to_tensor(tf.IndexedSlices(tf.square(slices.values), slices.indices, slices.dense_shape))


def _clip_by_norm(grad, clipnorm):
    """``grad * clipnorm / max(norm, clipnorm)`` (a zero gradient stays zero), as Keras clips."""
    total = tf.reduce_sum(tf.square(grad))
    positive = total > 0
    norm = tf.where(positive, tf.sqrt(tf.where(positive, total, tf.ones_like(total))), total)
    return grad * clipnorm / tf.maximum(norm, tf.cast(clipnorm, grad.dtype))

"""Keras 3's ``TensorFlowTrainer``: ``train_step(data)`` / ``test_step`` / ``predict_step`` and the
``fit`` / ``evaluate`` / ``predict`` loops around them, with Keras's arguments and callbacks.

The built-in steps run as ``tf.function``s (``functions.StepFunctions``), each op placed and logged;
under a ``MirroredStrategy`` per replica (``distributed``). A model that overrides a step has it
called as Keras calls it (``data`` packed as ``x``, ``(x, y)`` or ``(x, y, sample_weight)``, the
returned logs read as Keras reads them), eagerly: its metrics are updated on the host."""

from __future__ import annotations

import contextlib

import numpy as np

import devtrace as tf
from . import callbacks as callbacks_mod
from . import keywords, on_batch
from .data import EpochIterator, pack, split_validation, unpack
from .optimizers import LossScaleOptimizer
from .training import Trainer, metrics_results, pythonify
from .training import in_metric_order as _in_metric_order


class TensorFlowTrainer(Trainer):
    # -- the steps, as Keras defines them (what an override's super() call runs) ---------------
    def train_step(self, data):
        x, y, sample_weight = unpack(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=True)
            self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
            if self.optimizer is not None:
                loss = self.optimizer.scale_loss(loss)
        if self.trainable_weights:
            grads = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def test_step(self, data):
        x, y, sample_weight = unpack(data)
        y_pred = self(x, training=False)
        loss = self._compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def predict_step(self, data):
        x, _, _ = unpack(data)
        return self(x, training=False)

    def _overrides(self, name) -> bool:
        return getattr(type(self), name) is not getattr(TensorFlowTrainer, name)

    # -- one batch -------------------------------------------------------------------------------
    def _train_batch(self, data) -> dict:
        with _overflow_expected(self.optimizer):
            if self._overrides("train_step"):
                return self.train_step(_tensors(data))
            x, y, sw = unpack(data)
            if getattr(self._strategy, "num_replicas_in_sync", 1) > 1:
                from .distributed import replicated_step

                _unweighted(sw, "fit")

                loss, pred = replicated_step(self, np.asarray(x), np.asarray(y))
            else:
                loss, pred = self._run("train", self._train_body, x, y, sw)
        return self._track(x, y, pred, loss, sw)

    def _test_batch(self, data) -> dict:
        if self._overrides("test_step"):
            return self.test_step(_tensors(data))
        x, y, sw = unpack(data)
        replicas = getattr(self._strategy, "num_replicas_in_sync", 1)
        if replicas > 1 and not isinstance(x, list) and len(x) >= replicas:
            from .distributed import replicated_forward

            _unweighted(sw, "evaluate")

            pred, loss = replicated_forward(self, np.asarray(x), np.asarray(y))
        else:
            pred, loss = self._run("test", self._test_body, x, y, sw)
        return self._track(x, y, pred, loss, sw)

    def _predict_batch(self, data):
        if self._overrides("predict_step"):
            return self.predict_step(_tensors(data))
        x, _, _ = unpack(data)
        replicas = getattr(self._strategy, "num_replicas_in_sync", 1)
        if replicas > 1 and not isinstance(x, list) and len(x) >= replicas:
            from .distributed import replicated_forward

            return replicated_forward(self, np.asarray(x))[0]
        x = _constant(x)
        step, _error = self._traced("predict", self._predict_body, (x,))
        return (step or self._predict_body)(x)

    def _track(self, x, y, pred, loss, sw=None) -> dict:
        self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
        if self._overrides("compute_metrics") or self._overrides("get_metrics_result"):
            return self.compute_metrics(x, y, pred, sample_weight=sw)
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, pred, sw)
        functions = self._functions
        if functions.metrics is None:
            functions.metrics = self.metrics
        return metrics_results(functions.metrics)

    def _train_body(self, x, y, sw=None):
        with tf.GradientTape() as tape:
            pred = self(x, training=True)
            loss = self._compute_loss(x, y, pred, sw)
            scaled = self.optimizer.scale_loss(loss)  # a LossScaleOptimizer's scale; else the loss
        grads = tape.gradient(scaled, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        return loss, pred

    def _test_body(self, x, y, sw=None):
        pred = self(x, training=False)
        return pred, self._compute_loss(x, y, pred, sw, training=False)

    def _predict_body(self, x):
        return self(x, training=False)

    def _run(self, kind, body, x, y, sw):
        """A built-in step: traced (``train`` returns ``(loss, pred)``, ``test`` ``(pred, loss)``),
        else eager; the eager step's error, when the trace failed alike, is the trace's (Keras's text)."""
        with tf.device(_HOST):  # the batch's tensors, made on the host
            args = (_on_host(x), _on_host(y)) + ((_on_host(sw),) if sw is not None else ())
        step, traced_error = self._traced(kind + ("_weighted" if sw is not None else ""), body, args)
        if step is not None:
            return step(*args)
        unbuilt = []
        if traced_error is None and not self.run_eagerly and "_first_step_built" not in self.__dict__:
            self.__dict__["_first_step_built"] = True  # looked for once: the layers the first eager step builds
            unbuilt = [layer for layer in [self] + self._all_sublayers() if not layer.built]
        try:
            return body(*args)
        except Exception as eager_error:  # noqa: BLE001 (the trace's error of that kind is Keras's text)
            if type(traced_error) is type(eager_error):
                raise traced_error from None
            raise
        finally:
            traced_error = None  # its trace's frames link back to this one (functions._detached)
            _batchless_builds(unbuilt, self._functions.static.get(kind))

    def _traced(self, kind, body, args):
        """A step function once the model is built and the optimizer's variables exist (a trace
        cannot make variables): ``(function, None)``, or ``(None, error)`` for an eager step.
        Once traced for batches of these dtypes, the function is found again without the checks
        (Keras makes its train function once: a step's slots and layers stay as they were traced)."""
        if self.run_eagerly or not self.built:
            return None, None
        ready = self._functions.ready(kind, args)
        if ready is not None:
            return ready, None
        if not all(layer.built for layer in self.layers):
            return None, None
        if any(isinstance(a, tf.SparseTensor) for a in tf.nest.flatten(args)):
            return None, None  # a sparse input: the step runs eagerly (its ops the same, each placed and logged)
        if kind.startswith("train"):
            self.optimizer.build(self.trainable_weights)
        return self._functions.get(kind, body, args)

    # -- the loops --------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1):
        self._require_compiled()
        x, y, sample_weight, validation_data = split_validation(x, y, sample_weight, validation_split,
                                                                validation_data)
        data = EpochIterator(x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight)
        if getattr(self._strategy, "_num_workers", 1) > 1:
            from .distributed import multi_worker_build

            multi_worker_build(self._strategy, data)
        if hasattr(self, "build_for_data") and data.x is not None and not isinstance(data.x, list):
            self.build_for_data(data.x.shape[1:])
        data.reset()
        self._functions.set_static("train", data.static_batch)
        verbose = 1 if verbose == "auto" else verbose
        cbs = callbacks_mod.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0, model=self,
                                         verbose=verbose, epochs=epochs, steps=data.steps)
        self.stop_training = False
        self._initial_epoch = None
        cbs.call("on_train_begin", {})
        initial_epoch = self._initial_epoch or initial_epoch  # BackupAndRestore's resumed epoch
        logs, training_logs = {}, None
        batch_begin, batch_end = cbs.wants("on_train_batch_begin"), cbs.wants("on_train_batch_end")
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            self._functions.metrics = None
            cbs.call("on_epoch_begin", epoch, {})
            for step, batch in data:
                if batch_begin:
                    cbs.call("on_train_batch_begin", step, {})
                logs = self._train_batch(batch)
                if batch_end:
                    cbs.call("on_train_batch_end", step, pythonify(logs))
                if self.stop_training:
                    break
            epoch_logs = dict(self._metrics_result_or_logs(logs))
            if validation_data is not None and _due(epoch, validation_freq):
                val_x, val_y, val_sw = unpack(validation_data)
                val = self._evaluate(val_x, val_y, val_sw, validation_batch_size or batch_size, validation_steps, cbs)
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            epoch_logs = pythonify(epoch_logs)
            cbs.call("on_epoch_end", epoch, dict(epoch_logs))  # the callbacks share a copy (a scheduler adds to it)
            training_logs = epoch_logs
            if self.stop_training:
                break
        if getattr(self, "optimizer", None) is not None and epochs > 0:  # Keras: the EMA's averages
            self.optimizer.finalize_variable_values(self.trainable_weights)
        cbs.call("on_train_end", training_logs or {})
        self.history = cbs._history
        return self.history

    def _evaluate(self, x, y, sample_weight, batch_size, steps, cbs) -> dict:
        data = EpochIterator(x, y, sample_weight, batch_size, steps)
        data.reset()
        self._functions.set_static("test", data.static_batch)
        for cb in cbs:
            if isinstance(cb, callbacks_mod.ProgbarLogger) and not cb._in_fit:
                cb.target = data.steps
        cbs.call("on_test_begin", {})
        self.reset_metrics()
        self._functions.metrics = None
        logs = {}
        batch_begin, batch_end = cbs.wants("on_test_batch_begin"), cbs.wants("on_test_batch_end")
        for step, batch in data:
            if batch_begin:
                cbs.call("on_test_batch_begin", step, {})
            logs = self._test_batch(batch)
            if batch_end:
                cbs.call("on_test_batch_end", step, pythonify(logs))
        logs = pythonify(self._metrics_result_or_logs(logs))
        cbs.call("on_test_end", logs)
        return logs

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None, callbacks=None,
                 return_dict=False, **kwargs):
        self._require_compiled()
        if kwargs:
            raise ValueError(f"Arguments not recognized: {kwargs}")
        verbose = 1 if verbose == "auto" else verbose
        cbs = callbacks_mod.CallbackList(callbacks, add_progbar=verbose != 0, model=self, verbose=verbose, epochs=1)
        logs = self._evaluate(x, y, sample_weight, batch_size, steps, cbs)
        if return_dict:
            return logs
        return _in_metric_order(self, logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """NumPy values, batch by batch (32 by default), as Keras returns them."""
        data = EpochIterator(x, None, None, batch_size, steps)
        self._functions.set_static("predict", data.static_batch)
        verbose = 1 if verbose == "auto" else verbose
        cbs = callbacks_mod.CallbackList(callbacks, add_progbar=verbose != 0, model=self, verbose=verbose, epochs=1,
                                         steps=data.steps)
        cbs.call("on_predict_begin", {})
        out = []
        for step, batch in data:
            cbs.call("on_predict_batch_begin", step, {})
            pred = self._predict_batch(batch)
            out.append(tf.nest.map_structure(np.asarray, pred))
            if cbs.wants("on_predict_batch_end"):
                cbs.call("on_predict_batch_end", step, pythonify({"outputs": pred}))
        cbs.call("on_predict_end", {})
        return tf.nest.map_structure(lambda *batches: np.concatenate(batches), *out)  # per output of several

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        return on_batch.train_on_batch(self, x, y, sample_weight, class_weight, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        return on_batch.test_on_batch(self, x, y, sample_weight, return_dict)

    def predict_on_batch(self, x):
        return on_batch.predict_on_batch(self, x)


def _batchless_builds(layers, batch) -> None:
    """Layers first built by a step that ran eagerly (the model's first batch) keep the shape Keras builds
    them on: its traced step's, whose batch is the dataset's static one (else None) — what ``summary``
    shows for a subclassed model's layers."""
    def relaxed(shape):
        if isinstance(shape, tuple) and shape and (shape[0] is None or isinstance(shape[0], int)):
            return (batch,) + shape[1:]
        if isinstance(shape, list):
            return [relaxed(s) for s in shape]
        return shape
    for layer in layers:
        if layer.built and layer._build_shape is not None:
            layer._build_shape = relaxed(layer._build_shape)


_NO_CONTEXT = contextlib.nullcontext()


def _overflow_expected(optimizer):
    """A LossScaleOptimizer's step: its scaled float16 gradients overflow by design (the step is then
    skipped), which TensorFlow's kernels do silently; NumPy's overflow warnings are off for it."""
    if isinstance(optimizer, LossScaleOptimizer):
        return np.errstate(over="ignore", invalid="ignore")
    return _NO_CONTEXT


def _unweighted(sample_weight, where) -> None:
    if sample_weight is not None:
        raise NotImplementedError(f"devtrace does not implement Model.{where}(sample_weight=...) (or class_weight) "
                                  "under a MirroredStrategy yet")


def _due(epoch, validation_freq) -> bool:
    if isinstance(validation_freq, int):
        return (epoch + 1) % validation_freq == 0
    if isinstance(validation_freq, (list, tuple)):
        return epoch + 1 in validation_freq
    raise ValueError(f"Expected `validation_freq` to be a list or int. Received: validation_freq={validation_freq} "
                     f"of the type {type(validation_freq)}.")


def _batch_size(x) -> int:
    if isinstance(x, dict):
        x = list(x.values())
    first = x[0] if isinstance(x, (list, tuple)) else x
    return int(first.shape[0])


_HOST = "/job:localhost/replica:0/task:0/device:CPU:0"


def _constant(x):
    """A host batch as Keras's data pipeline yields it: a tensor on the host (``tf.data``'s iterator
    lives on the CPU), which the step copies to the device its ops run on, as TensorFlow does."""
    if x is None or isinstance(x, (tf.Tensor, tf.SparseTensor)):
        return x
    with tf.device(_HOST):
        return _on_host(x)


def _on_host(x):
    if isinstance(x, dict):
        return {k: _on_host(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_on_host(v) for v in x]
    if x is None or isinstance(x, (tf.Tensor, tf.SparseTensor)):
        return x
    return tf.constant(x)


def _tensors(data):
    """A batch as an overriding step receives it: tensors, packed as Keras packs them."""
    x, y, sw = unpack(data)
    return pack(_constant(x), None if y is None else _constant(y), None if sw is None else _constant(sw))

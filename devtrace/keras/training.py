"""Keras 3's ``Trainer``: ``compile``, the ``metrics`` a model tracks (the loss tracker, the compiled
metrics as one ``compile_metrics``, the metrics a model holds as attributes), ``compute_loss``
(the compiled loss plus the layers' losses; Keras's error when there is none) and
``compute_metrics``. ``tf_trainer.TensorFlowTrainer`` adds the steps and ``fit``/``evaluate``/
``predict``."""

from __future__ import annotations

import inspect

import devtrace as tf
from devtrace.errors import ValueNotComputed
from . import keywords
from . import compile_utils
from . import metrics as metrics_mod
from . import optimizers as optimizers_mod
from .functions import StepFunctions


class Trainer:
    def __init__(self):
        self.loss = None  # no ``optimizer`` until compiled: Keras's AttributeError
        self.compiled = False
        self._compile_metrics = self._loss_tracker = self._compile_loss = self._compiled_loss_weights = None
        self.stop_training = False
        self._strategy = tf.distribute.get_strategy()
        self._functions = StepFunctions()
        self.run_eagerly = False

    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", auto_scale_loss=True):
        keywords.unimplemented("Model.compile", steps_per_execution=(steps_per_execution, 1),
                               jit_compile=(jit_compile, ("auto", False)))
        self.optimizer = self._compiled_optimizer = optimizers_mod.get(optimizer)  # saved as given, unwrapped
        if auto_scale_loss and self.dtype_policy.name == "mixed_float16" and \
                not isinstance(self.optimizer, optimizers_mod.LossScaleOptimizer):  # Keras wraps it so
            self.optimizer = optimizers_mod.LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        names = compile_utils.output_names(self)
        if loss is not None:  # Keras's: a re-compile without a loss (or metrics) keeps the last ones
            self.loss = self._compiled_loss = loss  # resolved at the first step, as Keras does; saved as given
            self._compiled_loss_weights = loss_weights
            self._compile_loss = compile_utils.CompileLoss(loss, loss_weights, names)
        if metrics is not None or weighted_metrics is not None:
            self._compile_metrics = compile_utils.CompileMetrics(metrics, names, weighted_metrics)
        self._loss_tracker = metrics_mod.Mean(name="loss")
        self.compiled, self.run_eagerly, self._functions = True, bool(run_eagerly), StepFunctions()

    def _require_compiled(self):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    @property
    def metrics(self) -> list:
        found = []
        if self.compiled:
            found.append(self._loss_tracker)
            if self._compile_metrics is not None:
                found.append(self._compile_metrics)
        if self.compiled and getattr(self, "_compile_loss", None) is not None:
            found.extend(m for m in self._compile_loss.metrics if m is not None)
        found.extend(v for k, v in vars(self).items()
                     if isinstance(v, metrics_mod.Metric) and k not in ("_loss_tracker", "_compile_metrics"))
        seen = {id(self)}
        for layer in getattr(self, "layers", ()):  # then the sublayers' own (an endpoint layer's accuracy)
            found.extend(_layer_metrics(layer, seen))
        return found

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        for m in self.metrics:
            m.reset_state()

    def _compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """``compute_loss``, given ``training`` only when it takes it (Keras's: an override may not)."""
        if "training" in inspect.signature(self.compute_loss).parameters:
            return self.compute_loss(x, y, y_pred, sample_weight, training=training)
        return self.compute_loss(x, y, y_pred, sample_weight)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus the layers' losses (``add_loss``, weight regularizers)."""
        losses = []
        compiled = getattr(self, "_compile_loss", None)
        if compiled is not None:
            value = compiled(y, y_pred, sample_weight)
            if value is not None:
                losses.append(value)
        losses.extend(tf.convert_to_tensor(loss) for loss in self.losses)
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return losses[0] if len(losses) == 1 else tf.add_n(losses)

    def compute_metrics(self, x, y, y_pred, sample_weight=None) -> dict:
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        return metrics_results(self.metrics)

    def _metrics_result_or_logs(self, logs):
        """Keras's: the metrics' results when a step returned the same names, else what it returned."""
        results = self.get_metrics_result()
        return results if isinstance(logs, dict) and set(logs) == set(results) else logs


def metrics_results(metrics) -> dict:
    """``{name: result}`` of ``metrics`` (a compiled metrics' container not yet built is left out)."""
    results = {}
    for m in metrics:
        if isinstance(m, compile_utils.CompileMetrics) and not m.built:
            continue
        value = m.result()
        results.update(value) if isinstance(value, dict) else results.__setitem__(m.name, value)
    return results


def _layer_metrics(layer, seen: set) -> list:
    """The metrics a layer and its sublayers hold as attributes, each layer once; a model that is
    itself a trainer keeps its own (Keras leaves them out)."""
    if id(layer) in seen or isinstance(layer, Trainer):
        return []
    seen.add(id(layer))
    found = []
    for value in vars(layer).values():
        if isinstance(value, metrics_mod.Metric):
            found.append(value)
        elif hasattr(value, "_layer_weights") and hasattr(value, "call"):
            found.extend(_layer_metrics(value, seen))
    return found


def in_metric_order(model, logs):
    """Keras's ``_flatten_metrics_in_order``: the metrics' order, then other names sorted; one value alone."""
    names = []
    for m in model.metrics:
        names += [sub.name for sub in m.metrics] if hasattr(m, "metrics") and isinstance(m.metrics, list) else [m.name]
    values = [logs[n] for n in names if n in logs] + [logs[k] for k in sorted(logs) if k not in names]
    return values[0] if len(values) == 1 else values


def pythonify(logs) -> dict:
    """Keras's ``pythonify_logs``: sorted by name, nested dicts flattened, values as floats."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify(value))
            continue
        try:
            value = value.numpy() if isinstance(value, tf.Tensor) else value  # kept as NumPy when not a number
            value = float(value)
        except (TypeError, ValueError):
            pass
        except ValueNotComputed:  # --compute none: no number to show
            continue
        result[key] = value
    return result

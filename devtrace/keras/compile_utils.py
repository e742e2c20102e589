"""What ``Model.compile`` makes of its ``loss``, ``loss_weights`` and ``metrics`` (Keras 3's
``trainers/compile_utils``): one loss per output (a list in the outputs' order, a dict keyed by
output name, or one loss for every output), weighted and summed, each output's unweighted loss
tracked as ``<output>_loss`` when there are several; the metrics per output, named as given
(``"acc"``), by their objects' names, prefixed by the output's name on a multi-output model, and a
repeated name numbered (``mae``, ``mae_1``)."""

from __future__ import annotations

import devtrace as tf
from . import losses as losses_mod
from . import metrics as metrics_mod
from .metric_base import Mean, Metric


def _snake(name: str) -> str:
    from .naming import snake

    return snake(name)


def object_name(obj) -> str:
    """Keras's ``get_object_name``: its ``name``, else a function's snake-case name, else its class's."""
    if hasattr(obj, "name"):
        return obj.name
    if hasattr(obj, "__name__"):
        return _snake(obj.__name__)
    return _snake(type(obj).__name__)


def _binary_or_sparse(y_true, y_pred):
    binary = y_pred.shape[-1] == 1
    sparse = len(y_true.shape) < len(y_pred.shape) or (y_true.shape[-1] == 1 and y_pred.shape[-1] > 1)
    return binary, sparse


def get_metric(identifier, y_true, y_pred) -> Metric:
    """A compiled metric: ``"accuracy"``/``"acc"`` picks binary, sparse categorical or categorical
    accuracy from the shapes of the first batch; a function is averaged; named as given."""
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() in ("accuracy", "acc"):
        binary, sparse = _binary_or_sparse(y_true, y_pred)
        cls = metrics_mod.BinaryAccuracy if binary else (
            metrics_mod.SparseCategoricalAccuracy if sparse else metrics_mod.CategoricalAccuracy)
        metric = cls(name=str(identifier))
    else:
        metric = metrics_mod.get(identifier)
    name = identifier if isinstance(identifier, str) else object_name(metric)
    if not isinstance(metric, Metric):
        metric = metrics_mod.MeanMetricWrapper(metric)
    metric.name = name
    return metric


def get_loss(identifier, y_true, y_pred):
    """A compiled loss: a ``Loss``; a function wrapped under its name (``"crossentropy"``/``"ce"``
    pick binary, sparse or categorical cross-entropy from the shapes)."""
    if identifier is None:
        return None
    if str(identifier).lower() in ("crossentropy", "ce"):
        binary, sparse = _binary_or_sparse(y_true, y_pred)
        loss = losses_mod.binary_crossentropy if binary else (
            losses_mod.sparse_categorical_crossentropy if sparse else losses_mod.categorical_crossentropy)
    else:
        loss = losses_mod.get(identifier)
    if not isinstance(loss, losses_mod.Loss):
        name = identifier if isinstance(identifier, str) else object_name(loss)
        loss = losses_mod.LossFunctionWrapper(loss, name=name)
    return loss


def output_names(model) -> list | None:
    """A functional model's outputs' names (their layers'), Keras's ``output_names``."""
    outputs = getattr(model, "_outputs", None)
    if outputs is None:
        return None
    if isinstance(outputs, dict):
        return list(outputs)
    flat = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return [getattr(getattr(t, "_layer", None), "name", None) for t in flat]


def _flat(y, names):
    if isinstance(y, dict):
        return [y[n] for n in names] if names and set(y) == set(names) else list(y.values())
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _per_output(kind, given, names, count, missing=None):
    """``given`` (a list in the outputs' order, a dict keyed by output name, or one value) as one
    entry per output."""
    if isinstance(given, dict):
        if names is None or not set(given) <= set(names):
            raise ValueError(f"Expected keys {names} in {kind} dict, but found {kind}.keys()={list(given)}")
        return [given.get(n, missing) for n in names]
    if isinstance(given, (list, tuple)):
        if len(given) != count:
            raise ValueError(f"For a model with multiple outputs, when providing the `{kind}` argument as a list, "
                             f"it should have as many entries as the model has outputs. Received:\n{kind}={given}\n"
                             f"of length {len(given)} whereas the model has {count} outputs.")
        return list(given)
    return [given] * count


class CompileLoss:
    """The compiled loss: ``(y_true, y_pred, sample_weight)`` → the weighted sum of the outputs'
    losses; ``metrics`` the per-output trackers when there are several outputs."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        self._loss, self._weights, self._names = loss, loss_weights, output_names
        self._flat, self.metrics, self.built = [], [], False

    def build(self, y_true, y_pred):
        preds = _flat(y_pred, self._names)
        trues = _flat(y_true, self._names)
        count = len(preds)
        nested = isinstance(y_pred, (list, tuple, dict)) and count > 1
        if nested:
            names = self._names if self._names and len(self._names) == count else [None] * count
            losses = _per_output("loss", self._loss, self._names, count)
            weights = _per_output("loss_weights", self._weights, self._names, count) \
                if self._weights is not None else [None] * count
        else:
            names = [None]
            losses = [self._loss[0] if isinstance(self._loss, (list, tuple)) and len(self._loss) == 1
                      else next(iter(self._loss.values())) if isinstance(self._loss, dict) else self._loss]
            weights = [self._weights[0] if isinstance(self._weights, (list, tuple)) else
                       next(iter(self._weights.values())) if isinstance(self._weights, dict) else self._weights]
        self._flat = [(get_loss(loss, yt, yp), weight) for loss, weight, yt, yp in zip(losses, weights, trues, preds)]
        self.metrics = [Mean(name=f"{name}_loss" if name else f"{object_name(fn)}_loss") if fn is not None else None
                        for (fn, _), name in zip(self._flat, names)] \
            if nested and sum(fn is not None for fn, _ in self._flat) > 1 else []  # Keras's: for several losses
        self.built = True

    def __call__(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        preds, trues = _flat(y_pred, self._names), _flat(y_true, self._names)
        weights = _flat(sample_weight, self._names) if isinstance(sample_weight, (list, tuple, dict)) \
            else [sample_weight] * len(preds)
        trackers = self.metrics or [None] * len(self._flat)
        total = []
        for (fn, weight), tracker, yt, yp, sw in zip(self._flat, trackers, trues, preds, weights):
            if fn is None:
                continue
            value = tf.cast(fn(yt, yp, sw), tf.float32)
            if tracker is not None:
                tracker.update_state(value, sample_weight=int(yp.shape[0]))
            if weight is not None:
                value = value * weight
            total.append(value)
        if not total:
            return None
        return total[0] if len(total) == 1 else tf.add_n(total)

    def reset_state(self):
        for m in self.metrics:
            if m is not None:
                m.reset_state()


class MetricsList:
    """One output's metrics, with the output's name (``None`` on a single-output model)."""

    def __init__(self, metrics, output_name=None):
        self.metrics, self.output_name = metrics, output_name


class CompileMetrics(Metric):
    """The metrics ``compile`` was given (``metrics``, updated without the sample weights, and
    ``weighted_metrics``, with them), as one metric (named ``compile_metrics`` in ``model.metrics``):
    built from the first batch's shapes, its result the dict of theirs."""

    def __init__(self, metrics, output_names=None, weighted_metrics=None):
        for given, argument in ((metrics, "metrics"), (weighted_metrics, "weighted_metrics")):
            if given and not isinstance(given, (list, tuple, dict)):
                raise ValueError(f"Expected `{argument}` argument to be a list, tuple, or dict. "
                                 f"Received instead: {argument}={given} of type {type(given)}")
        self._identifiers, self._weighted_identifiers, self.output_names = metrics, weighted_metrics, output_names
        self._lists, self._weighted_lists, self.built = [], [], False
        super().__init__("compile_metrics")

    @property
    def metrics(self) -> list:
        return [m for ml in self._lists + self._weighted_lists if ml is not None for m in ml.metrics]

    def build(self, y_true, y_pred):
        self._lists = self._build_set(self._identifiers, y_true, y_pred, "metrics")
        self._weighted_lists = self._build_set(self._weighted_identifiers, y_true, y_pred, "weighted_metrics")
        self.built = True

    def _build_set(self, given, y_true, y_pred, argument) -> list:
        names = self.output_names
        preds, trues = _flat(y_pred, names), _flat(y_true, names)
        count = len(preds)
        if not given:
            return [None] * count
        if count == 1:
            flat = [given] if not isinstance(given, dict) else [list(given.values())]
            names = [None]
        elif isinstance(given, (list, tuple)) and len(given) == count:
            flat = list(given)
        elif names and isinstance(given, dict) and set(given) <= set(names):
            flat = [given.get(n) for n in names]
        else:
            shown = tuple(given) if isinstance(given, (list, tuple)) else given
            arity = (f"tuple arity mismatch; expected: {count}, got: {len(given)}; tuple: {shown}.\n"
                     if isinstance(given, (list, tuple)) else "")
            raise ValueError(f"{arity}Invalid `{argument}`. `{argument}` should contain metrics objects and either "
                             f"be a dict or a list matching the output names of the functional model {names} or "
                             f"match the output structure of the model: {['X'] * count}.\nReceived: "
                             f"{argument}={given}")
        names = names if names and len(names) == count else [None] * count
        lists = []
        for entry, yt, yp, name in zip(flat, trues, preds, names):
            if not entry:
                lists.append(None)
                continue
            entries = entry if isinstance(entry, (list, tuple)) else [entry]
            lists.append(MetricsList([get_metric(m, yt, yp) for m in _flatten(entries)], name))
        return lists

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(tf.nest.map_structure(tf.convert_to_tensor, y_true),
                       tf.nest.map_structure(tf.convert_to_tensor, y_pred))  # get_metric reads their shapes
        trues, preds = _flat(y_true, self.output_names), _flat(y_pred, self.output_names)
        for ml, yt, yp in zip(self._lists, trues, preds):
            if ml is not None:
                for m in ml.metrics:
                    m.update_state(yt, yp)
        if not any(self._weighted_lists):
            return
        weights = _flat(sample_weight, self.output_names) if sample_weight is not None else [None] * len(trues)
        if len(weights) < len(trues):  # Keras's: one sample weight for every output
            weights = [weights[0]] * len(trues)
        for ml, yt, yp, sw in zip(self._weighted_lists, trues, preds, weights):
            if ml is not None:
                for m in ml.metrics:
                    m.update_state(yt, yp, sample_weight=sw)

    def result(self):
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        results, seen = {}, {}
        for ml in self._lists:
            if ml is None:
                continue
            for m in ml.metrics:
                name = f"{ml.output_name}_{m.name}" if ml.output_name else m.name
                if name in seen:
                    seen[name] += 1
                    name = f"{name}_{seen[name] - 1}"
                else:
                    seen[name] = 1
                results[name] = m.result()
        for ml in self._weighted_lists:  # a name an unweighted metric has: weighted_<name>
            if ml is None:
                continue
            for m in ml.metrics:
                name = f"{ml.output_name}_{m.name}" if ml.output_name else m.name
                if name in seen:
                    name = f"{ml.output_name}_weighted_{m.name}" if ml.output_name else f"weighted_{m.name}"
                    if name in seen:
                        seen[name] += 1
                        name = f"{name}_{seen[name] - 1}"
                    else:
                        seen[name] = 1
                else:
                    seen[name] = 1
                results[name] = m.result()
        return results


def _flatten(entries) -> list:
    out = []
    for e in entries:
        out.extend(_flatten(e) if isinstance(e, (list, tuple)) else [e])
    return out

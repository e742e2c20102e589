"""Keras's ``Metric`` (a running total and count on the host) and ``Mean``, the base of the others."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from devtrace import hooks
from devtrace.errors import ValueNotComputed
from devtrace.runtime.context import context
from devtrace.runtime.graph.graph import get_default_graph
from .serializable import Configurable
from .uncomputed import constant as uncomputed_constant


def _marking(update_state):
    """``update_state`` that, under ``--compute none``, marks the metric as having no result; inside
    a ``tf.function``, updates the totals each time the function runs (``_when_run``)."""
    def eager(self, *args, **kwargs):
        try:
            return update_state(self, *args, **kwargs)
        except ValueNotComputed:
            self.uncomputed = True

    def update(self, *args, **kwargs):
        if not context().eager:
            self._graph_update = _when_run(lambda *a, **k: eager(self, *a, **k), args, kwargs)
            return None
        return eager(self, *args, **kwargs)
    update.__wrapped__ = update_state
    return update


def _or_not_computed(result):
    """``result`` that, under ``--compute none``, is the scalar constant Keras makes, uncomputed;
    inside a ``tf.function``, the value the totals have when the function runs."""
    def eager(self):
        return uncomputed_constant((), "float32") if self.uncomputed else result(self)

    def value(self):
        if not context().eager:  # after this function's updates of the metric (TF orders them so)
            update = getattr(self, "_graph_update", None)
            after = (update,) if update is not None and update.graph is get_default_graph() else ()
            return _when_run(lambda *_: tf.cast(eager(self), tf.float32), after, {})
        return eager(self)
    value.__wrapped__ = result
    return value


def _when_run(fn, args, kwargs):
    """``fn`` called as the traced function runs, on the values its tensor arguments then have: a
    node of the graph (``py_function``). Keras keeps a metric's totals in variables its traced
    step updates; devtrace keeps them on the host, so they are updated at the same moment."""
    slots = [i for i, v in enumerate(args) if isinstance(v, tf.Tensor)]
    names = [k for k, v in kwargs.items() if isinstance(v, tf.Tensor)]
    tensors = [args[i] for i in slots] + [kwargs[k] for k in names]

    def run(*values):
        given, named = list(args), dict(kwargs)
        for i, v in zip(slots, values):
            given[i] = v
        for k, v in zip(names, values[len(slots):]):
            named[k] = v
        out = fn(*given, **named)
        return out if out is not None else np.float32(0)
    return tf.py_function(run, tensors, tf.float32)


def _result(value):
    """A metric's result: a float32 constant of its own, never the scalar cache's (a new value each
    step would stay cached, its device memory with it; Keras's results are a step's temporaries)."""
    return tf.constant(np.array(value, np.float32))  # an array: tf.constant's fast path


class Metric(Configurable):
    uncomputed = False  # --compute none: a batch's values were not computed, so there is no result
    _auto_name = False  # Keras names it ``auc``, ``auc_1`` … when no name is given (its default is None)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"  # Keras 3's

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "update_state" in cls.__dict__:
            cls.update_state = _marking(cls.__dict__["update_state"])
        if "result" in cls.__dict__:
            cls.result = _or_not_computed(cls.__dict__["result"])

    def __init__(self, name=None, dtype=None):
        self.name = name or _default_name(type(self))
        self._dtype = tf.as_dtype(dtype).name if dtype is not None else "float32"
        where = hooks.DISTRIBUTION[0]() if hooks.DISTRIBUTION else None
        self._strategy = where[0] if where is not None and where[1] is None else None  # made in a strategy's scope
        self._variables: list = []
        if type(self).reset_state.__module__.startswith("devtrace."):
            self.reset_state()
        else:  # a user's metric: its reset_state reads the variables its __init__ has yet to add
            Metric.reset_state(self)

    def reset_state(self):
        """The host totals, and the variables ``add_variable`` made back to zeros (Keras's default)."""
        self._total, self._count = 0.0, 0.0
        for v in getattr(self, "_variables", ()):
            v.assign(tf.zeros(v.shape, v.dtype))

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """A metric's own state, as Keras 3 subclasses keep it: a non-trainable variable."""
        from . import initializers

        from . import variables

        variable = variables.make(initializers.get(initializer)(tuple(shape), dtype or "float32"), name, False)
        self._variables.append(variable)
        return variable

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        return self.add_variable(shape, initializer, dtype, name=name)

    @property
    def dtype(self) -> str:
        """The metric's dtype as Keras 3 names it: a string (``'float32'``)."""
        return getattr(self, "_dtype", "float32")

    @property
    def variables(self) -> list:
        return list(getattr(self, "_variables", ()))

    @_or_not_computed
    def result(self):
        total, count = self._total, self._count
        strategy = getattr(self, "_strategy", None)
        if getattr(strategy, "_num_workers", 1) > 1 and context().eager:
            # every worker's replicas' (Keras's metric variables are sync-on-read: summed over the cluster)
            both = strategy.reduce("SUM", tf.constant([total, count], tf.float64), axis=None).numpy()
            total, count = float(both[0]), float(both[1])
        return _result(total / count if count else 0.0)

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()


def _default_name(cls) -> str:
    """A metric class's default name; Keras's auto name (unique, ``auc_1``) where its default is
    None, and for a program's own subclasses."""
    from .naming import snake, unique

    if cls._auto_name or not cls.__module__.startswith("devtrace."):
        return unique(snake(cls.__name__))
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(cls.__name__))


class Mean(Metric):
    def update_state(self, values, sample_weight=None):
        """A weighted mean when given ``sample_weight`` (broadcast to the values: Keras's loss tracker
        passes the batch size)."""
        values = tf.convert_to_tensor(values)  # both tensors made before a value is read (--compute none: the same ops)
        weights = None if sample_weight is None else tf.convert_to_tensor(sample_weight)
        v = values.numpy()
        w = None if weights is None else weights.numpy()
        if isinstance(v, np.floating) and isinstance(w, (np.integer, np.floating)):
            self._total += float(v) * float(w)  # a scalar weighted by one number: the loss tracker's each step
            self._count += float(w)
            return
        v = np.asarray(v, np.float64)
        if w is None:
            self._total += float(v.sum())
            self._count += v.size
            return
        w = np.asarray(w, np.float64)
        while w.ndim > v.ndim and w.shape[-1] == 1:
            w = w.squeeze(-1)
        w = np.broadcast_to(w.reshape(w.shape + (1,) * (v.ndim - w.ndim)), v.shape)
        self._total += float((v * w).sum())
        self._count += float(w.sum())

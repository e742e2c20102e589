"""Keras models: ``Sequential``, functional ``Model(inputs, outputs)`` and subclassed ``Model``;
``compile`` / ``fit`` / ``evaluate`` / ``predict`` with every op placed, logged and accounted by
devtrace. Training steps run eagerly under a ``GradientTape`` (so each op shows where it ran)."""

from __future__ import annotations

from devtrace.namespace import missing as _missing

import sys

import numpy as np

import devtrace as tf
from . import losses as losses_mod
from . import optimizers as optimizers_mod
from .layers import KerasTensor, Layer


class History:
    def __init__(self):
        self.history: dict = {}
        self.epoch: list = []


class Model(Layer):
    def __init__(self, inputs=None, outputs=None, name=None, **kwargs):
        super().__init__(name=name)
        self._inputs, self._outputs = inputs, outputs
        self._graph_layers = _topological(outputs) if outputs is not None else []
        self.optimizer = self.loss = None
        self._metrics: list = []
        self.built = outputs is not None

    # -- structure ------------------------------------------------------------------------------
    @property
    def layers(self) -> list:
        if self._graph_layers:
            return self._graph_layers
        return [v for v in vars(self).values() if isinstance(v, Layer)]

    @property
    def weights(self) -> list:
        return [w for layer in self.layers for w in layer.weights] + list(self._layer_weights)

    @property
    def trainable_weights(self) -> list:
        return [w for layer in self.layers for w in layer.trainable_weights]

    trainable_variables = trainable_weights

    def get_weights(self) -> list:
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights) -> None:
        for w, value in zip(self.weights, weights):
            w.assign(np.asarray(value, w.dtype.np))

    def call(self, inputs, training=False):
        if self._outputs is None:
            raise NotImplementedError("Subclassed models implement call()")
        values = {id(self._inputs): tf.convert_to_tensor(inputs)}
        return _run(self._outputs, values, training)

    def __call__(self, inputs, training=False, **kwargs):
        if isinstance(inputs, KerasTensor):
            return super().__call__(inputs)
        return self.call(inputs, training=training) if self._outputs is not None or type(self).call is not Model.call \
            else self.call(inputs)

    # -- training ---------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, **_):
        self.optimizer = optimizers_mod.get(optimizer)
        self.loss = loss  # resolved at the first step, as Keras does
        self._metrics = list(metrics or [])

    def _require_compiled(self):
        if self.optimizer is None:
            raise ValueError("You must call `compile()` before using the model.")
        self.loss = losses_mod.get(self.loss)  # a name, a Loss, or a per-sample function averaged over the batch

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            pred = self(x, training=True)
            loss = self.loss(y, pred)
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        return loss, pred

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", validation_data=None, shuffle=True,
            callbacks=None, **_):
        self._require_compiled()
        x, y = np.asarray(x, np.float32) if not isinstance(x, tf.Tensor) else x.numpy(), np.asarray(y)
        n, size = len(x), batch_size or 32
        history = History()
        for epoch in range(epochs):
            order = np.random.permutation(n) if shuffle else np.arange(n)
            totals = []
            for start in range(0, n, size):
                idx = order[start:start + size]
                loss, pred = self.train_step(tf.constant(x[idx]), tf.constant(y[idx]))
                totals.append((float(loss.numpy()), len(idx)))
            logs = {"loss": sum(v * k for v, k in totals) / n}
            if validation_data is not None:
                logs["val_loss"] = self.evaluate(*validation_data, verbose=0)
            history.epoch.append(epoch)
            for key, value in logs.items():
                history.history.setdefault(key, []).append(value)
            if verbose not in (0, False):
                steps = -(-n // size)
                sys.stdout.write(f"Epoch {epoch + 1}/{epochs}\n{steps}/{steps} - "
                                 + " - ".join(f"{k}: {v:.4f}" for k, v in logs.items()) + "\n")
        self.history = history
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", **_):
        self._require_compiled()
        pred = self(tf.constant(np.asarray(x, np.float32)))
        return float(self.loss(tf.constant(np.asarray(y)), pred).numpy())

    def predict(self, x, batch_size=None, verbose="auto", **_):
        """NumPy values, as Keras returns them."""
        out = self(tf.constant(np.asarray(x, np.float32)) if not isinstance(x, tf.Tensor) else x)
        return out.numpy()

    def summary(self, print_fn=None, **_):
        lines = [f'Model: "{self.name}"', f"{'Layer (type)':<29}{'Output Shape':<26}{'Param #':>10}"]
        for layer in self.layers:
            lines.append(f"{layer.name + ' (' + type(layer).__name__ + ')':<29}{'':<26}{layer.count_params():>10}")
        total = sum(layer.count_params() for layer in self.layers)
        lines.append(f" Total params: {total}")
        (print_fn or print)("\n".join(lines))

    def count_params(self) -> int:
        return sum(layer.count_params() for layer in self.layers)


class Functional(Model):
    """What ``Model(inputs, outputs)`` is (Keras 3's name for it)."""


def _functional_new(cls, *args, **kwargs):
    if cls is Model and (kwargs.get("outputs") is not None or len(args) >= 2):
        return object.__new__(Functional)
    return object.__new__(cls)


Model.__new__ = _functional_new


class Sequential(Model):
    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self._stack: list = []
        for layer in layers or []:
            self.add(layer)

    def add(self, layer) -> None:
        if isinstance(layer, KerasTensor):
            return  # an Input: the shape comes from the data
        self._stack.append(layer)

    @property
    def layers(self) -> list:
        return list(self._stack)

    def call(self, inputs, training=False):
        x = inputs
        for layer in self._stack:
            x = layer(x, training=training) if _takes_training(layer) else layer(x)
        return x


def _takes_training(layer) -> bool:
    import inspect

    return "training" in inspect.signature(layer.call).parameters


def _topological(output) -> list:
    order, seen = [], set()

    def visit(t):
        if isinstance(t, (list, tuple)):
            for item in t:
                visit(item)
            return
        if t._layer is not None and id(t._layer) not in seen:
            visit(t._inputs)
            seen.add(id(t._layer))
            order.append(t._layer)
    visit(output)
    return order


def _run(t, values, training):
    if isinstance(t, (list, tuple)):
        return [_run(item, values, training) for item in t]
    if id(t) in values:
        return values[id(t)]
    args = _run(t._inputs, values, training)
    out = t._layer(args, training=training) if _takes_training(t._layer) else t._layer(args)
    values[id(t)] = out
    return out


__getattr__ = _missing("keras.models")

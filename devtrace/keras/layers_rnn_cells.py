"""Keras 3's recurrent cells: ``SimpleRNNCell``, ``LSTMCell``, ``GRUCell`` (Keras's equations and
weight layouts: LSTM's gates ``i, f, c, o`` with the forget gate's bias starting at one, GRU's
``z, r, h`` with ``reset_after`` and its ``(2, 3 * units)`` bias), their dropout masks, and
``StackedRNNCells``; ``layers_recurrent`` runs them over time."""

from __future__ import annotations

import inspect
import random

import devtrace as tf
from . import activations, initializers
from . import random as keras_random
from .engine import Layer


def _is_list(value) -> bool:
    return isinstance(value, (list, tuple))


class _DropoutMasks:
    """Keras's ``DropoutRNNCell``: one dropout mask per sequence call for the inputs and one for the
    recurrent state, drawn from the cell's seed state as Keras's dropout draws
    (``stateless_uniform >= rate``, scaled by ``1 / (1 - rate)``)."""

    def _init_dropout(self, dropout, recurrent_dropout, seed):
        self.dropout, self.recurrent_dropout = min(1.0, max(0.0, float(dropout))), \
            min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed if seed is not None else random.randint(1, int(1e9))
        self._seed_state = None
        self._masks = {}

    def _draw(self, like, rate):
        if self._seed_state is None:
            self._seed_state = keras_random.SeedGenerator(self.seed).state
        state = self._seed_state.read_value()
        self._seed_state.assign_add(tf.constant([0, 1], tf.int64))
        seed = tf.cast(tf.math.floormod(state, 2147483646), tf.int32)
        keep = tf.random.stateless_uniform(list(like.shape), seed, dtype=like.dtype) >= rate
        return tf.where(keep, tf.ones_like(like) * (1.0 / (1.0 - rate)), tf.zeros_like(like))

    def reset_dropout_mask(self):
        self._masks = {}

    def _mask(self, which, like, rate, training):
        if not training or rate == 0:
            return None
        if which not in self._masks:
            self._masks[which] = self._draw(like, rate)
        return self._masks[which]


class SimpleRNNCell(_DropoutMasks, Layer):
    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        super().__init__(**kwargs)
        self.units, self.activation, self.use_bias = int(units), activations.get(activation), use_bias
        self._inits = [initializers.get(i) for i in (kernel_initializer, recurrent_initializer, bias_initializer)]
        self._regs = (kernel_regularizer, recurrent_regularizer, bias_regularizer)
        self._init_dropout(dropout, recurrent_dropout, seed)
        self.state_size = self.output_size = self.units

    def build(self, input_shape):
        self.kernel = self.add_weight((input_shape[-1], self.units), self._inits[0], name="kernel",
                                      regularizer=self._regs[0])
        self.recurrent_kernel = self.add_weight((self.units, self.units), self._inits[1], name="recurrent_kernel",
                                                regularizer=self._regs[1])
        self.bias = self.add_weight((self.units,), self._inits[2], name="bias",
                                    regularizer=self._regs[2]) if self.use_bias else None
        self.built = True

    def call(self, sequence, states, training=False):
        prev = states[0] if _is_list(states) else states
        drop = self._mask("input", sequence, self.dropout, training)
        rec_drop = self._mask("recurrent", prev, self.recurrent_dropout, training)
        if drop is not None:
            sequence = sequence * drop
        h = tf.matmul(sequence, self.kernel)
        if self.bias is not None:
            h = tf.nn.bias_add(h, self.bias)
        if rec_drop is not None:
            prev = prev * rec_drop
        output = self.activation(h + tf.matmul(prev, self.recurrent_kernel))
        return output, [output] if _is_list(states) else output

    def get_initial_state(self, batch_size=None):
        return [tf.zeros([batch_size, self.state_size], self.compute_dtype)]


class LSTMCell(_DropoutMasks, Layer):
    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None, implementation=2, **kwargs):
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        super().__init__(**kwargs)
        self.units, self.use_bias, self.unit_forget_bias = int(units), use_bias, unit_forget_bias
        self.activation, self.recurrent_activation = activations.get(activation), activations.get(recurrent_activation)
        self._inits = [initializers.get(i) for i in (kernel_initializer, recurrent_initializer, bias_initializer)]
        self._regs = (kernel_regularizer, recurrent_regularizer, bias_regularizer)
        self._init_dropout(dropout, recurrent_dropout, seed)
        self.implementation = implementation
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape):
        u = self.units
        self.kernel = self.add_weight((input_shape[-1], 4 * u), self._inits[0], name="kernel",
                                      regularizer=self._regs[0])
        self.recurrent_kernel = self.add_weight((u, 4 * u), self._inits[1], name="recurrent_kernel",
                                                regularizer=self._regs[1])
        if self.use_bias:
            init = self._inits[2]
            if self.unit_forget_bias:
                def init(shape, dtype="float32", base=self._inits[2]):  # forget gate's bias starts at one
                    return tf.concat([base((u,), dtype=dtype), tf.ones([u], dtype), base((2 * u,), dtype=dtype)], 0)
            self.bias = self.add_weight((4 * u,), init, name="bias", regularizer=self._regs[2])
        else:
            self.bias = None
        self.built = True

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        drop = self._mask("input", inputs, self.dropout, training)
        rec_drop = self._mask("recurrent", h_tm1, self.recurrent_dropout, training)
        if drop is not None:
            inputs = inputs * drop
        if rec_drop is not None:
            h_tm1 = h_tm1 * rec_drop
        z = tf.matmul(inputs, self.kernel) + tf.matmul(h_tm1, self.recurrent_kernel)
        if self.bias is not None:
            z = tf.nn.bias_add(z, self.bias)
        z0, z1, z2, z3 = tf.split(z, 4, axis=1)
        i = self.recurrent_activation(z0)
        f = self.recurrent_activation(z1)
        c = f * c_tm1 + i * self.activation(z2)
        o = self.recurrent_activation(z3)
        h = o * self.activation(c)
        return h, [h, c]

    def get_initial_state(self, batch_size=None):
        return [tf.zeros([batch_size, d], self.compute_dtype) for d in self.state_size]


class GRUCell(_DropoutMasks, Layer):
    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, dropout=0.0,
                 recurrent_dropout=0.0, reset_after=True, seed=None, implementation=2, **kwargs):
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        super().__init__(**kwargs)
        self.units, self.use_bias, self.reset_after = int(units), use_bias, reset_after
        self.activation, self.recurrent_activation = activations.get(activation), activations.get(recurrent_activation)
        self._inits = [initializers.get(i) for i in (kernel_initializer, recurrent_initializer, bias_initializer)]
        self._regs = (kernel_regularizer, recurrent_regularizer, bias_regularizer)
        self._init_dropout(dropout, recurrent_dropout, seed)
        self.implementation = implementation
        self.state_size = self.output_size = self.units

    def build(self, input_shape):
        u = self.units
        self.kernel = self.add_weight((input_shape[-1], 3 * u), self._inits[0], name="kernel",
                                      regularizer=self._regs[0])
        self.recurrent_kernel = self.add_weight((u, 3 * u), self._inits[1], name="recurrent_kernel",
                                                regularizer=self._regs[1])
        shape = (2, 3 * u) if self.reset_after else (3 * u,)
        self.bias = self.add_weight(shape, self._inits[2], name="bias",
                                    regularizer=self._regs[2]) if self.use_bias else None
        self.built = True

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if _is_list(states) else states
        u = self.units
        drop = self._mask("input", inputs, self.dropout, training)
        rec_drop = self._mask("recurrent", h_tm1, self.recurrent_dropout, training)
        if self.bias is not None:
            input_bias, recurrent_bias = tf.unstack(self.bias) if self.reset_after else (self.bias, None)
        else:
            input_bias = recurrent_bias = None
        if drop is not None:
            inputs = inputs * drop
        matrix_x = tf.matmul(inputs, self.kernel)
        if input_bias is not None:
            matrix_x = tf.nn.bias_add(matrix_x, input_bias)
        x_z, x_r, x_h = tf.split(matrix_x, 3, axis=-1)
        h_in = h_tm1 * rec_drop if rec_drop is not None else h_tm1
        if self.reset_after:
            matrix_inner = tf.matmul(h_in, self.recurrent_kernel)
            if recurrent_bias is not None:
                matrix_inner = tf.nn.bias_add(matrix_inner, recurrent_bias)
        else:
            matrix_inner = tf.matmul(h_in, self.recurrent_kernel[:, :2 * u])
        recurrent_z, recurrent_r, recurrent_h = tf.split(matrix_inner, [u, u, -1], axis=-1)
        z = self.recurrent_activation(x_z + recurrent_z)
        r = self.recurrent_activation(x_r + recurrent_r)
        if self.reset_after:
            recurrent_h = r * recurrent_h
        else:
            recurrent_h = tf.matmul(r * h_in, self.recurrent_kernel[:, 2 * u:])
        hh = self.activation(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, [h] if _is_list(states) else h

    def get_initial_state(self, batch_size=None):
        return [tf.zeros([batch_size, self.state_size], self.compute_dtype)]


def _flat_sizes(size) -> list:
    return list(size) if _is_list(size) else [size]


class StackedRNNCells(Layer):
    """Cells run one after the other at each step, each one's output the next one's input."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(f"All cells must have a `call` method. Received cell without a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError(f"All cells must have a `state_size` attribute. Received cell without a "
                                 f"`state_size`: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [size for cell in self.cells for size in _flat_sizes(cell.state_size)]

    @property
    def output_size(self):
        last = self.cells[-1]
        return getattr(last, "output_size", None) or _flat_sizes(last.state_size)[0]

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with tf.name_scope(self.name):
                    cell.build(input_shape)
                cell.built = True
            self._layer_weights.extend(w for w in cell.weights if all(w is not x for x in self._layer_weights))
            self._regularized.extend(getattr(cell, "_regularized", ()))
            size = getattr(cell, "output_size", None) or _flat_sizes(cell.state_size)[0]
            input_shape = tuple(input_shape[:-1]) + (size,)
        self.built = True

    def call(self, inputs, states, training=False):
        new_states, k = [], 0
        for cell in self.cells:
            n = len(_flat_sizes(cell.state_size))
            mine = list(states[k:k + n])
            k += n
            inputs, out_states = _cell_call(cell, inputs, list(mine), training)  # Keras passes each cell a list
            new_states.extend(out_states if _is_list(out_states) else [out_states])
        return inputs, new_states

    def get_initial_state(self, batch_size=None):
        return [tf.zeros([batch_size, d], self.compute_dtype) for d in self.state_size]

    def group(self, states) -> list:
        """The flat states as Keras returns a stack's: a list per cell."""
        out, k = [], 0
        for cell in self.cells:
            n = len(_flat_sizes(cell.state_size))
            out.append(list(states[k:k + n]))
            k += n
        return out

    def reset_dropout_mask(self):
        for cell in self.cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()


def _cell_call(cell, inputs, states, training):
    if "training" in _params(cell):
        return cell.call(inputs, states, training=training)
    return cell.call(inputs, states)


def _params(cell):
    return inspect.signature(cell.call).parameters

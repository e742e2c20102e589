"""Keras 3's recurrent layers (the cells in ``layers_rnn_cells``): the ``RNN`` layer that runs a cell over time
(``return_sequences``, ``return_state``, ``go_backwards``, ``stateful``, masks, initial states),
``SimpleRNN`` / ``LSTM`` / ``GRU``, and the wrappers ``Bidirectional`` and ``TimeDistributed``.

The loop is the one TensorFlow 2.21 runs eagerly for Keras 3 on a CPU (``backend.rnn``'s
``tf.while_loop``, which runs in Python outside a graph): ``Transpose`` to time-major, ``Unpack``
the steps, each step's cell ops (for an LSTM: ``MatMul``, ``MatMul``, ``AddV2``, ``BiasAdd``,
``Split``, ``Sigmoid`` …), ``Pack`` the outputs, ``Transpose`` back. TensorFlow also runs the
loop's int32 counter ops (``Less``, ``LogicalAnd``, ``AddV2``) each step, and the cell once more
first on step 0 (to learn the output's shape); devtrace does neither. On a
GPU Keras would pick cuDNN (``CudnnRNNV3``) for a default LSTM/GRU; devtrace runs the same loop
there."""

from __future__ import annotations

import copy
import inspect

import devtrace as tf
from ..runtime.eager.executor import execute
from . import activations, keywords
from .engine import Layer
from .layers_rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells, _cell_call, _flat_sizes, _is_list


class RNN(Layer):
    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, **kwargs):
        if _is_list(cell):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have a `state_size` attribute (single integer or list of integers, "
                             f"one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        self.cell, self.return_sequences, self.return_state = cell, return_sequences, return_state
        self.go_backwards, self.stateful, self.unroll = go_backwards, stateful, unroll
        self.zero_output_for_mask = zero_output_for_mask
        self.supports_masking = True
        self.states = None
        self._init_config = dict(return_sequences=return_sequences, return_state=return_state,
                                 go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                                 zero_output_for_mask=zero_output_for_mask)

    @property
    def state_size(self):
        return _flat_sizes(self.cell.state_size)

    def build(self, sequences_shape, initial_state_shape=None):
        if self.stateful and sequences_shape[0] is None:
            raise ValueError("When using `stateful=True` in a RNN, the batch size must be static. Found dynamic "
                             f"batch size: sequence.shape={sequences_shape}")
        if isinstance(self.cell, Layer) and not self.cell.built:
            with tf.name_scope(self.name):
                self.cell.build(tuple(sequences_shape[:1]) + tuple(sequences_shape[2:]))
            self.cell.built = True
        if isinstance(self.cell, Layer):
            self._layer_weights.extend(self.cell.weights)
            self._regularized.extend(self.cell._regularized)
        if self.stateful:
            self.states = [tf.Variable(tf.zeros([sequences_shape[0], d]), trainable=False, name="state")
                           for d in self.state_size]
        self.built = True

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, length = sequences_shape[0], sequences_shape[1]
        out = getattr(self.cell, "output_size", None) or self.state_size[0]
        output_shape = (batch, length, out) if self.return_sequences else (batch, out)
        if self.return_state:
            return [output_shape] + [(batch, d) for d in self.state_size]
        return output_shape

    def compute_mask(self, inputs, mask):
        mask = mask[0] if _is_list(mask) else mask
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * len(self.state_size) if self.return_state else output_mask

    def reset_states(self):
        if self.states is not None:
            for state in self.states:
                state.assign(tf.zeros_like(state))

    reset_state = reset_states

    def get_initial_state(self, batch_size):
        if hasattr(self.cell, "get_initial_state"):
            states = self.cell.get_initial_state(batch_size=batch_size)
            return list(states) if _is_list(states) else [states]
        return [tf.zeros([batch_size, d], self.compute_dtype) for d in self.state_size]

    def call(self, sequences, initial_state=None, mask=None, training=False):
        x = tf.convert_to_tensor(sequences)
        timesteps = x.shape[1]
        if self.unroll and timesteps is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined. \n- If using a Sequential "
                             "model, specify the time dimension by passing an `Input()` as your first layer.\n- If "
                             "using the functional API, specify the time dimension by passing a `shape` or "
                             "`batch_shape` argument to your `Input()`.")
        if initial_state is not None:
            given = initial_state if _is_list(initial_state) else [initial_state]
            given = [s for item in given for s in (item if _is_list(item) else [item])]
            states = [tf.convert_to_tensor(s) for s in given]
        elif self.stateful:
            states = [s.read_value() for s in self.states]
        else:
            batch = x.shape[0] if x.shape[0] is not None else tf.shape(x)[0]
            states = self.get_initial_state(batch)
        if hasattr(self.cell, "reset_dropout_mask"):
            self.cell.reset_dropout_mask()
        fused = self._fused(x, states, mask, training)
        last, outputs, states = fused if fused is not None else self._loop(x, states, mask, training)
        if self.stateful:
            for variable, state in zip(self.states, states):
                variable.assign(state)
        output = outputs if self.return_sequences else last
        if self.return_state:
            if isinstance(self.cell, StackedRNNCells):  # Keras nests a stack's states per cell
                return [output] + self.cell.group(states)
            return [output] + list(states)
        return output

    def _fused(self, x, states, mask, training):
        """A fused kernel's ``(last, outputs, states)`` (``LSTM``/``GRU`` on a GPU), else None."""
        return None

    def _loop(self, x, states, mask, training):
        """``backend.rnn`` as TensorFlow runs it eagerly: time-major steps, each the cell's call;
        a masked step keeps the previous output and states."""
        rank = len(x.shape)
        steps = tf.unstack(tf.transpose(x, [1, 0] + list(range(2, rank))))
        masks = None
        if mask is not None:
            m = tf.convert_to_tensor(mask)
            if m.dtype != tf.bool:
                m = tf.cast(m, tf.bool)
            masks = tf.unstack(tf.transpose(tf.expand_dims(m, -1), [1, 0, 2]))
        if self.go_backwards:
            steps = steps[::-1]
            masks = masks[::-1] if masks is not None else None
        outputs, prev = [], None
        for t, step in enumerate(steps):
            output, new_states = _cell_call(self.cell, step, list(states), training)  # Keras: always a list
            new_states = list(new_states) if _is_list(new_states) else [new_states]
            if masks is not None:
                if prev is None:
                    prev = tf.zeros_like(output)
                keep = masks[t]
                base = tf.zeros_like(output) if self.zero_output_for_mask else prev
                output = tf.where(tf.tile(keep, [1, output.shape[-1]]), output, base)
                new_states = [tf.where(tf.tile(keep, [1, n.shape[-1]]), n, s) for n, s in zip(new_states, states)]
                prev = output
            states = new_states
            outputs.append(output)
        stacked = tf.stack(outputs)
        last = stacked[-1]
        sequence = tf.transpose(stacked, [1, 0] + list(range(2, len(stacked.shape))))
        return last, sequence, states


_RNN_KEYS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "zero_output_for_mask")


def _split_kwargs(kwargs):
    rnn = {k: kwargs.pop(k) for k in _RNN_KEYS if k in kwargs}
    return rnn


class SimpleRNN(RNN):
    _cell_class, _cell_name = SimpleRNNCell, "simple_rnn_cell"

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        cell_args = dict(units=units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, dropout=dropout, recurrent_dropout=recurrent_dropout,
                         seed=seed)
        self._make(cell_args, kwargs)

    def _make(self, cell_args, kwargs):
        """Keras takes (and drops) ``implementation``: 2 is the fused matmul devtrace runs; 1 (a matmul
        per gate) would give the same values through other ops."""
        keywords.unimplemented(f"keras.layers.{type(self).__name__}",
                               implementation=(kwargs.pop("implementation", 2), 2))
        rnn_args = _split_kwargs(kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}",
                               activity_regularizer=(kwargs.pop("activity_regularizer", None), None))
        for key in ("kernel_constraint", "recurrent_constraint", "bias_constraint"):  # the cell's weights'
            if kwargs.get(key) is not None:
                cell_args[key] = kwargs.pop(key)
            kwargs.pop(key, None)
        cell = self._cell_class(name=self._cell_name, dtype=kwargs.get("dtype"),
                                trainable=kwargs.get("trainable", True), **cell_args)
        self._cell_args = cell_args
        super().__init__(cell, **rnn_args, **kwargs)

    def __getattr__(self, name):
        if name in ("units", "activation", "use_bias", "dropout", "recurrent_dropout", "recurrent_activation",
                    "reset_after", "unit_forget_bias", "kernel", "recurrent_kernel", "bias"):
            cell = self.__dict__.get("cell")
            if cell is not None:
                return getattr(cell, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


class _Cudnn:
    """Keras 3's TensorFlow backend on a GPU: an ``LSTM``/``GRU`` whose configuration cuDNN supports
    (tanh and sigmoid, a bias, no recurrent dropout, not unrolled; a GRU with ``reset_after``) runs
    as one ``CudnnRNNV3`` op, its weights packed into cuDNN's flat ``params`` by the ops Keras runs
    (``backend/tensorflow/rnn.py``). A mask gives the sequence lengths once Keras's ``tf.Assert`` finds
    it right-padded (else the loop runs, as Keras falls back on the assertion's error); cuDNN outputs
    zeros past a sequence's end. ``go_backwards`` reverses each sequence within its length around the
    op; dropout in training multiplies the inputs by the cell's one mask first."""

    def _cudnn_supported(self) -> bool:
        cell = self.cell
        args = (cell.activation in _TANH and cell.recurrent_activation in _SIGMOID and not self.unroll
                and cell.use_bias and not cell.recurrent_dropout and getattr(cell, "reset_after", True))
        return bool(args and tf.config.list_logical_devices("GPU"))

    def _fused(self, x, states, mask, training):
        if self.use_cudnn not in ("auto", True):
            return None
        if not self._cudnn_supported():
            if self.use_cudnn is True:
                raise ValueError("use_cudnn=True was specified, but cuDNN is not supported for this layer "
                                 "configuration with this backend. Pass use_cudnn='auto' to fallback to a "
                                 "non-cuDNN implementation.")
            return None
        cell = self.cell
        if training and cell.dropout:  # Keras: the cell's input mask for the first step, for every step
            drop = cell._mask("input", x[:, 0, :], cell.dropout, training)
            x = x * tf.broadcast_to(tf.expand_dims(drop, axis=1), tf.shape(x))
        kernel, recurrent, bias = cell.kernel.value(), cell.recurrent_kernel.value(), cell.bias.value()
        if mask is not None:
            mask = mask[0] if _is_list(mask) else mask
            try:
                _assert_right_padded(mask)
            except tf.errors.InvalidArgumentError:  # Keras's cuDNN path gives up: the loop runs
                return None
            lengths = tf.reduce_sum(tf.cast(mask, tf.int32), axis=1)
        else:
            batch = tf.shape(x)[0]
            lengths = tf.fill([batch], tf.shape(x)[1])
        gates = 4 if isinstance(self, LSTM) else 3
        init_h = tf.expand_dims(states[0], axis=1)
        init_c = tf.expand_dims(states[1], axis=1) if gates == 4 else None
        weights = tf.split(kernel, gates, axis=1)
        weights += tf.split(recurrent, gates, axis=1)
        if gates == 4:  # cuDNN's input biases are zeros, the recurrent ones Keras's
            biases = tf.split(tf.concat((tf.zeros_like(bias), bias), 0), 8)
        else:  # cuDNN's gate order is r z h, Keras's z r h
            biases = tf.split(tf.reshape(bias, [-1]), 6)
            weights[0], weights[1] = weights[1], weights[0]
            weights[3], weights[4] = weights[4], weights[3]
            biases[0], biases[1] = biases[1], biases[0]
            biases[3], biases[4] = biases[4], biases[3]
        shape = tf.constant([-1])
        params = tf.concat([tf.reshape(tf.transpose(w), shape) for w in weights] +
                           [tf.reshape(b, shape) for b in biases], axis=0)
        if self.go_backwards:  # each sequence reversed within its length, its outputs back (then end first)
            x = tf.reverse_sequence(x, lengths, seq_axis=1, batch_axis=0)
        outputs, h, c, _, _ = execute("CudnnRNNV3", (x, init_h, init_c if gates == 4 else tf.constant(0, x.dtype),
                                                     params, lengths),
                                      {"rnn_mode": "lstm" if gates == 4 else "gru", "is_training": True,
                                       "time_major": False})
        if self.go_backwards:
            outputs = tf.reverse(tf.reverse_sequence(outputs, lengths, seq_axis=1, batch_axis=0), axis=[1])
        outputs[-1]  # noqa: B018 (Keras reads the last row, then takes the final state instead)
        states = [tf.squeeze(h, axis=1)] + ([tf.squeeze(c, axis=1)] if gates == 4 else [])
        last = states[0]
        if not self.return_sequences:
            outputs = tf.expand_dims(last, axis=1)
        return last, outputs, states


def _assert_right_padded(mask) -> None:
    """Keras's ``_assert_valid_mask``: no sequence fully masked, every mask ``True``s then ``False``s."""
    none_fully_masked = tf.logical_not(tf.reduce_any(tf.reduce_all(tf.logical_not(tf.cast(mask, tf.bool)), axis=1)))
    longest = tf.shape(mask)[1]
    count = tf.reduce_sum(tf.cast(mask, tf.int32), axis=1)
    right = tf.sequence_mask(count, maxlen=longest)
    right_padded = tf.reduce_all(tf.equal(tf.cast(mask, tf.bool), tf.cast(right, tf.bool)))
    tf.debugging.Assert(tf.logical_and(none_fully_masked, right_padded), [
        "You are passing a RNN mask that does not correspond to right-padded sequences, while using cuDNN, which "
        "is not supported. With cuDNN, RNN masks can only be used for right-padding, e.g. `[[True, True, False, "
        "False]]` would be a valid mask, but any mask that isn't just contiguous `True`'s on the left and "
        "contiguous `False`'s on the right would be invalid. You can pass `use_cudnn=False` to your RNN layer to "
        "stop using cuDNN (this may be slower)."])


_TANH = (activations.tanh, tf.tanh, tf.math.tanh)
_SIGMOID = (activations.sigmoid, tf.sigmoid, tf.math.sigmoid, tf.nn.sigmoid)


class LSTM(_Cudnn, SimpleRNN):
    _cell_class, _cell_name = LSTMCell, "lstm_cell"

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None, use_cudnn="auto", **kwargs):
        cell_args = dict(units=units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
                         unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
                         dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed)
        self.use_cudnn = use_cudnn
        self._make(cell_args, kwargs)


class GRU(_Cudnn, SimpleRNN):
    _cell_class, _cell_name = GRUCell, "gru_cell"

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, reset_after=True, use_cudnn="auto", **kwargs):
        cell_args = dict(units=units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, dropout=dropout, recurrent_dropout=recurrent_dropout,
                         seed=seed, reset_after=reset_after)
        self.use_cudnn = use_cudnn
        self._make(cell_args, kwargs)


def _copy_rnn(layer, name, go_backwards):
    """A fresh, unbuilt copy of an RNN layer (Keras rebuilds it from its config)."""
    if isinstance(layer, SimpleRNN):
        config = dict(layer._init_config, go_backwards=go_backwards)
        return type(layer)(name=name, **layer._cell_args, **config)
    if isinstance(layer, RNN):
        if layer.cell.built:
            raise NotImplementedError("devtrace does not implement keras.layers.Bidirectional of an RNN(cell) "
                                      "layer whose cell is already built yet")
        return RNN(copy.deepcopy(layer.cell), name=name, **dict(layer._init_config, go_backwards=go_backwards))
    raise NotImplementedError(f"devtrace does not implement keras.layers.Bidirectional of a {type(layer).__name__} "
                              "yet (only of RNN layers)")


class Bidirectional(Layer):
    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        keywords.unimplemented("keras.layers.Bidirectional", weights=(weights, None))
        super().__init__(**kwargs)
        self.forward_layer = _copy_rnn(layer, "forward_" + layer.name, layer.go_backwards)
        self.backward_layer = backward_layer if backward_layer is not None else \
            _copy_rnn(layer, "backward_" + layer.name, not layer.go_backwards)
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        self.stateful = layer.stateful
        self.supports_masking = True

    def build(self, sequences_shape, initial_state_shape=None):
        with tf.name_scope(self.name):
            for sub in (self.forward_layer, self.backward_layer):
                sub._maybe_build(tuple(sequences_shape))
        self._layer_weights.extend(self.forward_layer.weights + self.backward_layer.weights)
        self._regularized.extend(self.forward_layer._regularized + self.backward_layer._regularized)
        self.built = True

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        shape = self.forward_layer.compute_output_shape(sequences_shape)
        states = []
        if self.return_state:
            shape, states = shape[0], list(shape[1:])
        if self.merge_mode == "concat":
            shape = tuple(shape[:-1]) + (shape[-1] * 2 if shape[-1] is not None else None,)
        elif self.merge_mode is None:
            shape = [shape, shape]
        if self.return_state:
            return (shape if self.merge_mode is None else [shape]) + states + states
        return shape

    def call(self, sequences, initial_state=None, mask=None, training=None):
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        kw = {"mask": mask, "training": training}
        y = self.forward_layer.call(sequences, initial_state=forward_state, **kw)
        y_rev = self.backward_layer.call(sequences, initial_state=backward_state, **kw)
        states = ()
        if self.return_state:
            states = tuple(y[1:] + y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = tf.reverse(y_rev, [1])
        if self.merge_mode == "concat":
            output = tf.concat([y, y_rev], -1)
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            return (list(output) if self.merge_mode is None else [output]) + list(states)
        return output

    def compute_mask(self, inputs, mask):
        mask = mask[0] if _is_list(mask) else mask
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * (len(self.forward_layer.state_size) * 2)
        return output_mask

    def reset_states(self):
        self.forward_layer.reset_states()
        self.backward_layer.reset_states()

    reset_state = reset_states


class TimeDistributed(Layer):
    """The wrapped layer's ``call`` on each time step (``StridedSlice`` of the time-major input),
    the outputs stacked, as Keras 3 does when the time axis is static."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer
        self.supports_masking = True

    def _inner_shape(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, "
                             f"received: {input_shape}")
        return (input_shape[0],) + tuple(input_shape[2:])

    def build(self, input_shape):
        with tf.name_scope(self.name):
            self.layer._maybe_build(self._inner_shape(tuple(input_shape)))
        self._layer_weights.extend(self.layer.weights)
        self._regularized.extend(self.layer._regularized)
        self.built = True

    def compute_output_shape(self, input_shape):
        inner = self.layer.compute_output_shape(self._inner_shape(tuple(input_shape)))
        return (inner[0], input_shape[1]) + tuple(inner[1:])

    def call(self, inputs, training=None, mask=None):
        x = tf.convert_to_tensor(inputs)
        if x.shape[1] is None:
            raise NotImplementedError("devtrace does not implement keras.layers.TimeDistributed over an unknown "
                                      "number of time steps yet")
        rank = len(x.shape)
        steps = tf.transpose(x, [1, 0] + list(range(2, rank)))
        if mask is not None:
            mask = tf.transpose(tf.convert_to_tensor(mask), [1, 0] + list(range(2, len(mask.shape))))
        params = inspect.signature(self.layer.call).parameters
        outputs = []
        for i in range(x.shape[1]):
            kwargs = {}
            if "mask" in params and mask is not None:
                kwargs["mask"] = mask[i]
            if "training" in params:
                kwargs["training"] = training
            outputs.append(self.layer.call(steps[i], **kwargs))
        stacked = tf.stack(outputs)
        return tf.transpose(stacked, [1, 0] + list(range(2, len(stacked.shape))))

    def compute_mask(self, inputs, mask):
        return mask


__all__ = ["Bidirectional", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "SimpleRNN", "SimpleRNNCell",
           "StackedRNNCells", "TimeDistributed"]

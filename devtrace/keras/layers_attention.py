"""Keras 3's attention layers: ``EinsumDense`` (its equation analysed as Keras does to size the
kernel, the bias and the output), ``MultiHeadAttention`` (query/key/value/output projections as
``EinsumDense`` layers named ``query``, ``key``, ``value``, ``attention_output``; scaled
dot-product attention with Keras's masked softmax), ``Attention`` (Luong: dot or concat scores)
and ``AdditiveAttention`` (Bahdanau)."""

from __future__ import annotations

import math
import random
import re
import string

import devtrace as tf
from . import activations, initializers, keywords, masking
from . import random as keras_random
from .engine import Layer
from .naming import unique



def _large_negative(dtype) -> float:
    """Keras's ``_large_negative_number``: what a masked score becomes before a ``Softmax``."""
    return -3e4 if dtype == tf.float16 else -1e9


def _dot_product_negative(dtype) -> float:
    """What ``ops.dot_product_attention`` (TensorFlow backend) puts in a masked logit."""
    return -0.7 * (65500.0 if dtype == tf.float16 else 3.38953e38)


def attention_equations(rank: int, axes: tuple) -> tuple:
    """The einsum equations of multi-head attention over ``axes`` of projected tensors of ``rank``
    (``(batch, <other dims>, <attention dims>, heads, channels)``): the key·query product to scores
    (``(<batch dims and heads>, <query attention dims>, <key attention dims>)``), the scores·value
    product back to the query's layout, and the scores' rank."""
    letters = string.ascii_lowercase
    query = letters[:rank]
    batch = [i for i in range(rank) if i not in axes and i != rank - 1]  # the heads' axis among them
    fresh = iter(letters[rank:])
    key = "".join(query[i] if i in batch or i == rank - 1 else next(fresh) for i in range(rank))
    scores = "".join([query[i] for i in batch] + [query[i] for i in axes] + [key[i] for i in axes])
    return f"{key},{query}->{scores}", f"{scores},{key}->{query}", len(scores)


def _analyze_split(spec, bias_axes, input_shape, output_shape, left_elided=False):
    input_spec, weight_spec, output_spec = spec
    elided = len(input_shape) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, input_shape[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        for i in range(len(input_shape) - elided, len(input_shape)):
            output_shape.append(input_shape[i])
    if left_elided:
        input_map = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_map = {d: i + elided - len(output_shape) for i, d in enumerate(output_spec)}
    else:
        input_map = {d: i for i, d in enumerate(input_spec)}
        output_map = {d: i for i, d in enumerate(output_spec)}
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(f"Dimension '{d}' was specified in the output '{output_spec}' but has no "
                             f"corresponding dim in the input spec '{input_spec}' or weight spec '{output_spec}'")
    weight_shape, input_axes, output_axes = [], [], []
    for i, d in enumerate(weight_spec):  # Keras's: a dimension of the output first
        if d in output_map:
            weight_shape.append(output_shape[output_map[d]])
            output_axes.append(i)
        elif d in input_map:
            weight_shape.append(input_shape[input_map[d]])
            input_axes.append(i)
        else:
            raise ValueError(f"Weight dimension '{d}' did not have a match in either the input spec "
                             f"'{input_spec}' or the output spec '{output_spec}'. For this layer, the weight must "
                             "be fully specified.")
    bias_shape = None
    if bias_axes is not None:
        sizes = {d: output_shape[output_map[d]] for d in output_spec}
        for d in bias_axes:
            if d not in output_spec:
                raise ValueError(f"Bias dimension '{d}' was requested, but is not part of the output spec "
                                 f"'{output_spec}'")
        first = min(output_spec.find(d) for d in bias_axes)
        bias_shape = [sizes[d] if d in bias_axes else 1 for d in output_spec[first:]]
        if not left_elided:
            bias_shape += [1] * elided
    return weight_shape, bias_shape, output_shape, input_axes, output_axes


def _analyze(equation, bias_axes, input_shape, output_shape):
    replaced = equation.replace("...", "0")
    for pattern, left in ((r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
                          (r"0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
                          (r"([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False)):
        match = re.match(pattern, replaced)
        if match:
            return _analyze_split(match.groups(), bias_axes, input_shape, output_shape, left)
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
                     "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


class EinsumDense(Layer):
    _TRACKED_AS = {"kernel": "_kernel"}  # Keras 3 keeps it as ``_kernel``: a checkpoint's key
    def __init__(self, equation, output_shape, activation=None, bias_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.equation, self.bias_axes = equation, bias_axes
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.activation = activations.get(activation)
        self._inits = (initializers.get(kernel_initializer), initializers.get(bias_initializer))
        self._regs = (kernel_regularizer, bias_regularizer)
        self.full_output_shape = None

    def build(self, input_shape):
        kernel_shape, bias_shape, full, input_axes, output_axes = _analyze(self.equation, self.bias_axes,
                                                                           tuple(input_shape), self.partial_output_shape)
        self.full_output_shape = tuple(full)
        kernel_init = self._inits[0]
        if isinstance(kernel_init, initializers.VarianceScaling) and \
                (kernel_init.input_axes is None or kernel_init.output_axes is None):
            kernel_init = kernel_init.with_axes(input_axes, output_axes)
        self.kernel = self.add_weight(tuple(kernel_shape), kernel_init, name="kernel", regularizer=self._regs[0])
        self.bias = self.add_weight(tuple(bias_shape), self._inits[1], name="bias",
                                    regularizer=self._regs[1]) if bias_shape is not None else None
        self.built = True

    def compute_output_shape(self, input_shape):
        if self.full_output_shape is None:
            self.full_output_shape = tuple(_analyze(self.equation, self.bias_axes, tuple(input_shape),
                                                    self.partial_output_shape)[2])
        return self.full_output_shape

    def call(self, inputs, training=None):
        x = tf.convert_to_tensor(inputs)
        y = tf.einsum(self.equation, x, self.kernel)
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)


def _softmax(scores, axis):
    """Keras's ``Softmax`` over one axis, or several (``exp(x - logsumexp(x))`` over them)."""
    if isinstance(axis, (list, tuple)):
        if len(axis) > 1:
            return tf.exp(scores - tf.reduce_logsumexp(scores, axis=list(axis), keepdims=True))
        axis = axis[0]
    return tf.nn.softmax(scores, axis=axis)


def _masked_softmax(scores, mask, axis=-1):
    """Keras's ``Softmax`` with a mask: masked scores set very negative, masked outputs zero."""
    if mask is None:
        return _softmax(scores, axis)
    mask = tf.convert_to_tensor(mask)
    if mask.dtype != tf.bool:
        mask = mask > 0.5
    weights = _softmax(tf.where(mask, scores, tf.constant(_large_negative(scores.dtype), scores.dtype)), axis)
    return tf.where(mask, weights, tf.zeros((), weights.dtype))


class _Seeded:
    def _init_seed(self, seed):
        self.seed = seed if seed is not None else random.randint(1, int(1e9))
        self._seed_state = None

    def _dropout(self, x, rate, training):
        if not training or rate == 0:
            return x
        if self._seed_state is None:
            self._seed_state = keras_random.SeedGenerator(self.seed).state
        state = self._seed_state.read_value()
        self._seed_state.assign_add(tf.constant([0, 1], tf.int64))
        seed = tf.cast(tf.math.floormod(state, 2147483646), tf.int32)
        keep = tf.random.stateless_uniform(list(x.shape), seed, dtype=x.dtype) >= rate
        return tf.where(keep, x * (1.0 / (1.0 - rate)), tf.zeros((), x.dtype))


class MultiHeadAttention(_Seeded, Layer):
    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, sliding_window=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.MultiHeadAttention", sliding_window=(sliding_window, None),
                               use_gate=(use_gate, False))
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes and not isinstance(attention_axes, (list, tuple)):
            raise ValueError("`attention_axes` must be an int, list, or tuple."
                             f"Received: attention_axes={attention_axes}")
        self.attention_axes = attention_axes
        keywords.unimplemented("keras.layers.MultiHeadAttention", activity_regularizer=(activity_regularizer, None),
                               kernel_constraint=(kernel_constraint, None), bias_constraint=(bias_constraint, None))
        if isinstance(output_shape, (list, tuple)) and len(output_shape) == 1:
            output_shape = output_shape[0]
        keywords.unimplemented("keras.layers.MultiHeadAttention", output_shape=(
            output_shape if isinstance(output_shape, (list, tuple)) else None, None))
        self._output_shape = output_shape
        self.num_heads, self.key_dim = int(num_heads), int(key_dim)
        self.value_dim = int(value_dim) if value_dim is not None else self.key_dim
        self.dropout, self.use_bias, self.flash_attention = float(dropout), use_bias, flash_attention
        self._dense_args = dict(kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                                kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer)
        self._init_seed(seed)
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self.key_dim))
        self.supports_masking = True

    def get_config(self):
        config = super().get_config()
        config.pop("flash_attention", None)  # not in Keras's config
        return config

    def _projection(self, rank, name, dims):
        letters = string.ascii_lowercase
        free, out = letters[:rank - 1], letters[rank:rank + 2]
        equation = f"{free}{letters[rank - 1]},{letters[rank - 1]}{out}->{free}{out}"
        return EinsumDense(equation, (None,) * (rank - 2) + (self.num_heads, dims),
                           bias_axes=out if self.use_bias else None, name=name,
                           kernel_initializer=initializers.get(self._dense_args["kernel_initializer"]),
                           bias_initializer=initializers.get(self._dense_args["bias_initializer"]),
                           kernel_regularizer=self._dense_args["kernel_regularizer"],
                           bias_regularizer=self._dense_args["bias_regularizer"])

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = tuple(value_shape) if value_shape is not None else tuple(query_shape)
        key_shape = tuple(key_shape) if key_shape is not None else value_shape
        query_shape = tuple(query_shape)
        rank = len(query_shape)
        projected = rank + 1  # (batch, …, heads, channels)
        if self.attention_axes is None:
            self.attention_axes = tuple(range(1, projected - 2))
        else:
            self.attention_axes = tuple(a if a >= 0 else projected - 1 + a for a in self.attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = attention_equations(
            projected, self.attention_axes)
        self._norm_axes = tuple(range(scores_rank - len(self.attention_axes), scores_rank))
        unique("softmax"), unique("dropout")  # Keras builds a Softmax and a Dropout layer here: their names are taken
        with tf.name_scope(self.name):
            self._query_dense = self._projection(rank, "query", self.key_dim)
            self._query_dense._maybe_build(query_shape)
            self._key_dense = self._projection(len(key_shape), "key", self.key_dim)
            self._key_dense._maybe_build(key_shape)
            self._value_dense = self._projection(len(value_shape), "value", self.value_dim)
            self._value_dense._maybe_build(value_shape)
            letters = string.ascii_lowercase
            free = letters[:rank - 1]
            heads, dim, out = letters[rank - 1], letters[rank], letters[rank + 1]
            self._output_dense = EinsumDense(
                f"{free}{heads}{dim},{heads}{dim}{out}->{free}{out}",
                (None,) * (rank - 2) + (self._output_shape or query_shape[-1],),
                bias_axes=out if self.use_bias else None, name="attention_output",
                kernel_initializer=initializers.get(self._dense_args["kernel_initializer"]),
                bias_initializer=initializers.get(self._dense_args["bias_initializer"]),
                kernel_regularizer=self._dense_args["kernel_regularizer"],
                bias_regularizer=self._dense_args["bias_regularizer"])
            self._output_dense._maybe_build(query_shape[:-1] + (self.num_heads, self.value_dim))
        for sub in (self._query_dense, self._key_dense, self._value_dense, self._output_dense):
            self._layer_weights.extend(sub.weights)
            self._regularized.extend(sub._regularized)
        self.built = True

    def __call__(self, query, value=None, key=None, **kwargs):
        if value is None and "value" not in kwargs:
            raise TypeError("MultiHeadAttention.call() missing 1 required positional argument: 'value'")
        if not self.built:
            shape = lambda t: tuple(t.shape)  # noqa: E731
            self.build(shape(query), shape(value), shape(key) if key is not None else None)
        return super().__call__(query, value, key, **kwargs)

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        if self._output_shape:
            return tuple(query_shape)[:-1] + (self._output_shape,)
        return tuple(query_shape)

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None, use_causal_mask=False):
        query_mask = masking.get_mask(query)  # Keras 3.15's: the query's own mask, whatever query_mask says
        for given in (query, value, key):  # Keras deletes the inputs' masks (handled here, in the layer)
            masking._delete(given)
        query, value = tf.convert_to_tensor(query), tf.convert_to_tensor(value)
        key = value if key is None else tf.convert_to_tensor(key)
        attention_mask = self._compute_attention_mask(query, value, query_mask, value_mask, key_mask, attention_mask,
                                                      use_causal_mask)
        output = self._attend(query, value, key, attention_mask, return_attention_scores, training)
        if query_mask is not None:
            masking.set_mask(output[0] if return_attention_scores else output, query_mask)
        return output

    def _attend(self, query, value, key, attention_mask, return_attention_scores, training):
        q = self._query_dense.call(query)
        k = self._key_dense.call(key)
        v = self._value_dense.call(value)
        if attention_mask is not None:  # one mask for every head (and the other batch dims)
            for _ in range(self._norm_axes[-1] + 1 - len(attention_mask.shape)):
                attention_mask = tf.expand_dims(attention_mask, -len(self.attention_axes) * 2 - 1)
        if len(q.shape) == 4 and self.dropout == 0 and not return_attention_scores:
            # Keras's ops.dot_product_attention: float32 (at least) logits scaled after the product, masked
            # at -0.7 * the dtype's max, no zeroing after the softmax (a fully masked row attends evenly)
            logits = tf.einsum("abcd,aecd->acbe", q, k)
            if logits.dtype in (tf.float16, tf.bfloat16):
                logits = tf.cast(logits, tf.float32)
            logits = logits * tf.cast(self._inverse_sqrt_key_dim, logits.dtype)
            if attention_mask is not None:
                logits = tf.where(attention_mask, logits, tf.constant(_dot_product_negative(logits.dtype),
                                                                      logits.dtype))
            probs = tf.nn.softmax(logits)
            if probs.dtype != k.dtype:
                probs = tf.cast(probs, k.dtype)
            output = self._output_dense.call(tf.einsum("acbe,aecd->abcd", probs, v))
            return output
        q = q * tf.cast(self._inverse_sqrt_key_dim, q.dtype)
        scores = _masked_softmax(tf.einsum(self._dot_product_equation, k, q), attention_mask, self._norm_axes)
        dropped = self._dropout(scores, self.dropout, training)
        output = self._output_dense.call(tf.einsum(self._combine_equation, dropped, v))
        if return_attention_scores:
            return output, scores
        return output

    def _compute_attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask,
                                use_causal_mask):
        mask = None
        if query_mask is not None:
            mask = tf.expand_dims(tf.cast(query_mask, tf.bool), -1)  # (B, T, 1)
        if value_mask is not None:
            v = tf.expand_dims(tf.cast(value_mask, tf.bool), -2)  # (B, 1, S)
            mask = v if mask is None else tf.logical_and(mask, v)
        if key_mask is not None:
            k = tf.expand_dims(tf.cast(key_mask, tf.bool), -2)
            mask = k if mask is None else tf.logical_and(mask, k)
        if use_causal_mask:
            t, s = query.shape[1], value.shape[1]
            causal = tf.constant(__import__("numpy").tril(__import__("numpy").ones((1, t, s), bool)))
            mask = causal if mask is None else tf.logical_and(mask, causal)
        if attention_mask is not None:
            attention_mask = tf.cast(attention_mask, tf.bool)
            mask = attention_mask if mask is None else tf.logical_and(mask, attention_mask)
        return mask


class _BaseDenseAttention(_Seeded, Layer):
    def __init__(self, use_scale, dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.use_scale, self.dropout = use_scale, float(dropout)
        self._init_seed(seed)
        self.supports_masking = True

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0][:-1]) + (input_shape[1][-1],)

    def compute_mask(self, inputs, mask=None):
        return mask[0] if isinstance(mask, (list, tuple)) else None

    def call(self, inputs, mask=None, training=False, return_attention_scores=False, use_causal_mask=False):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(f"{type(self).__name__} layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: inputs={inputs}.")
        q, v = tf.convert_to_tensor(inputs[0]), tf.convert_to_tensor(inputs[1])
        k = tf.convert_to_tensor(inputs[2]) if len(inputs) > 2 else v
        q_mask = mask[0] if isinstance(mask, (list, tuple)) else None
        v_mask = mask[1] if isinstance(mask, (list, tuple)) and len(mask) > 1 else None
        scores = self._calculate_scores(q, k)
        if v_mask is not None:
            padding = tf.logical_not(tf.expand_dims(tf.cast(v_mask, tf.bool), -2))
            scores = scores - 1e9 * tf.cast(padding, scores.dtype)
        if use_causal_mask:
            import numpy as np

            t, s = scores.shape[-2], scores.shape[-1]
            future = tf.constant(~np.tril(np.ones((1, t, s), bool)))
            scores = scores - 1e9 * tf.cast(future, scores.dtype)
        weights = tf.nn.softmax(scores, axis=-1)
        result = tf.matmul(self._dropout(weights, self.dropout, training), v)
        if q_mask is not None:
            result = result * tf.cast(tf.expand_dims(tf.cast(q_mask, tf.bool), -1), result.dtype)
        if return_attention_scores:
            return result, weights
        return result


class Attention(_BaseDenseAttention):
    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(use_scale, dropout, seed, **kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
                             f"Received: score_mode={score_mode}")
        self.score_mode = score_mode

    def build(self, input_shape):
        self.scale = self.add_weight((), "ones", name="scale") if self.use_scale else None
        self.concat_score_weight = self.add_weight((), "ones", name="concat_score_weight") \
            if self.score_mode == "concat" else None
        self.built = True

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = tf.matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        q = tf.expand_dims(query, -2)
        k = tf.expand_dims(key, -3)
        inner = self.scale * (q + k) if self.scale is not None else q + k
        return self.concat_score_weight * tf.reduce_sum(tf.tanh(inner), axis=-1)


class AdditiveAttention(_BaseDenseAttention):
    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale, dropout, **kwargs)

    def build(self, input_shape):
        dim = input_shape[0][-1]
        self.scale = self.add_weight((dim,), "glorot_uniform", name="scale") if self.use_scale else None
        self.built = True

    def _calculate_scores(self, query, key):
        q = tf.expand_dims(query, -2)
        k = tf.expand_dims(key, -3)
        inner = tf.tanh(q + k)
        return tf.reduce_sum(self.scale * inner if self.scale is not None else inner, axis=-1)


__all__ = ["AdditiveAttention", "Attention", "EinsumDense", "MultiHeadAttention"]

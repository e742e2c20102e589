"""``keras.layers.HashedCrossing``: the hashed cross of two or more categorical features (Keras 3's,
on ``tf.sparse.cross_hashed`` like Keras's TensorFlow backend), as ints or one-hot rows."""

from __future__ import annotations

import devtrace as tf
from . import keywords
from .engine import Layer
from .layers_preprocessing import encode_categorical


class HashedCrossing(Layer):
    _allow_non_tensor_positional_args = True

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        keywords.unimplemented("keras.layers.HashedCrossing", sparse=(sparse, False))
        if output_mode not in ("int", "one_hot"):
            raise ValueError(f"Invalid value for argument output_mode. Expected one of ('int', 'one_hot'). "
                             f"Received: output_mode={output_mode}")
        super().__init__(name=name, dtype=dtype or ("int64" if output_mode == "int" else None), **kwargs)
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse
        self._output_dtype = "int64" if output_mode == "int" else "float32"

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                             f"inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. Received: inputs={inputs}")
        inputs = [tf.convert_to_tensor(x) for x in inputs]
        first = tuple(inputs[0].shape)
        if len(first) > 2 or (len(first) == 2 and first[-1] != 1):
            raise ValueError("All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or `(batch_size, 1)`. "
                             f"Received: inputs={inputs}")
        if not all(tuple(x.shape) == first for x in inputs[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={inputs}")
        with tf.device("CPU:0"):
            ranked = [tf.reshape(x, [-1, 1]) for x in inputs]
            out = tf.sparse.to_dense(tf.sparse.cross_hashed(ranked, self.num_bins))
            out = tf.reshape(out, [-1, 1] if len(first) == 2 else [-1] if len(first) == 1 else [])
            return encode_categorical(out, self.num_bins, self.output_mode)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape[0])
        if self.output_mode == "one_hot":
            return (shape[:-1] if len(shape) == 2 else shape) + (self.num_bins,)
        return shape

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": self.dtype_policy.name}


__all__ = ["HashedCrossing"]

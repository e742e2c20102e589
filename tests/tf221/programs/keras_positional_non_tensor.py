"""Keras 3 takes only tensors (arrays, None) as a layer's positional arguments: a Python list of
floats, a bool `training`, a string raise ValueError naming the first such value; preprocessing
layers and functional models take Python values."""
import numpy as np
import tensorflow as tf
import keras


class Pass(keras.layers.Layer):
    def call(self, a, b=None, training=None):
        return a if b is None else a + b


class Sub(keras.Model):
    def call(self, a):
        return a


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", type(out).__name__, tuple(out.shape))
    except Exception as e:
        print(label, type(e).__name__, e)


dense = keras.layers.Dense(3)
layer = Pass()
x = tf.ones((1, 2))
attempt("dense list", lambda: dense([[1.0, 2.0]]))
attempt("dense numpy", lambda: dense(np.ones((1, 2))))
attempt("dense tuple of tensor", lambda: dense((x,)))
attempt("second list", lambda: layer(x, [1.0, 2.0]))
attempt("list of tensors", lambda: layer([x, x], x))
attempt("training positional", lambda: layer(x, None, True))
attempt("string", lambda: layer("abc"))
attempt("variable", lambda: layer(tf.Variable([1.0])))
attempt("dict", lambda: layer({"a": 1}))
attempt("tuple", lambda: layer((tf.ones(1), 2)))
attempt("sequential list", lambda: keras.Sequential([keras.layers.Dense(2)])([[1.0, 2.0]]))
attempt("subclassed list", lambda: Sub()([1.0]))
attempt("concatenate", lambda: keras.layers.Concatenate()([x, x]))
attempt("hashing", lambda: keras.layers.Hashing(num_bins=3)([["a"], ["b"]]))
attempt("keyword training", lambda: layer(x, training=True))
inp = keras.Input((2,))
attempt("symbolic float", lambda: layer(inp, 1.0))

"""Keras 3's variable dtype is its name, a str: print shows float32; it equals "float32" and
tf.float32, and tf functions take it as a dtype."""
import numpy as np
import tensorflow as tf
import keras

dense = keras.layers.Dense(2)
dense.build((None, 3))
dtype = dense.kernel.dtype
print(dtype, repr(dtype), isinstance(dtype, str))
print(dtype == "float32", dtype == tf.float32, tf.float32 == dtype, tf.as_dtype(dtype))
print(tf.zeros((1,), dtype=dtype).dtype, tf.cast(1, dense.bias.dtype).dtype)
print("kernel dtype: %s" % dense.kernel.dtype)
seeded = keras.layers.Dropout(0.5)
print(seeded.variables[0].dtype)
mixed = keras.layers.Dense(2, dtype="mixed_float16")
print(mixed(np.ones((1, 3))).dtype, mixed.kernel.dtype, mixed.dtype, mixed.compute_dtype)

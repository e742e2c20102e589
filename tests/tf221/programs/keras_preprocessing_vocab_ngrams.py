"""Keras preprocessing breadth (keras.io's working-with-preprocessing-layers guide): lookup layers'
``get_vocabulary`` (NumPy scalars for the tokens), ``TextVectorization(ngrams=)`` as an int and as
a tuple, ``Discretization.adapt``'s approximate quantiles (an array, a batched dataset) and
``Normalization.adapt`` of a NumPy array."""
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow as tf
import keras
l = keras.layers.StringLookup(vocabulary=["a", "b"])
print(l.get_vocabulary())
l2 = keras.layers.IntegerLookup(vocabulary=[5, 7])
print(l2.get_vocabulary())
l3 = keras.layers.StringLookup()
l3.adapt(["x", "y", "x"])
print(l3.get_vocabulary(), l3.get_vocabulary(include_special_tokens=False))
l4 = keras.layers.IntegerLookup(); l4.adapt([3, 3, 4])
print(l4.get_vocabulary())
t = keras.layers.TextVectorization(vocabulary=["u", "v"])
print(t.get_vocabulary())
t2 = keras.layers.TextVectorization(ngrams=3, max_tokens=20)
t2.adapt(["a b c d", "a b"])
print(t2.get_vocabulary())
print(t2(["a b c", "d"]))
t3 = keras.layers.TextVectorization(ngrams=(1, 3), output_mode="multi_hot")
t3.adapt(["a b c d", "a b"])
print(t3.get_vocabulary())
print(t3(["a b c", "d"]))
d = keras.layers.Discretization(num_bins=4, epsilon=0.01)
d.adapt([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])
print(d.bin_boundaries)
rng = np.random.RandomState(0)
x = rng.normal(size=(1000, 1)).astype("float32")
d = keras.layers.Discretization(num_bins=5)
d.adapt(x)
print(np.round(d.bin_boundaries, 5).tolist())
d = keras.layers.Discretization(num_bins=3, epsilon=0.1)
d.adapt(tf.data.Dataset.from_tensor_slices(x).batch(100))
print(np.round(d.bin_boundaries, 5).tolist())
print(d(x[:5]))
d = keras.layers.Discretization(num_bins=4, epsilon=0.01)
d.adapt(np.array([[0.1, 0.2, 0.3], [0.8, 0.9, 1.0], [1.5, 1.6, 1.7]]))
print(d.bin_boundaries)
data = np.array([[0.1, 0.2, 0.3], [0.8, 0.9, 1.0], [1.5, 1.6, 1.7]])
norm = keras.layers.Normalization()
norm.adapt(data)  # NumPy's mean and variance of the float64 array, as Keras computes them
print(repr(norm.mean.numpy()), repr(norm.variance.numpy()))
print(repr(norm(data).numpy()), "%.2f" % norm(data).numpy().mean())

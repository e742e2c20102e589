"""Keras's ``Model.export`` (the serving guide): a SavedModel whose ``serve`` endpoint takes the
model's inputs (NumPy arrays too) under the signatures ``serve`` and ``serving_default``; and a
traced tensor of unknown rank printed as TensorFlow prints it (no ``shape=``)."""
import os
import tempfile

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow as tf
import keras

directory = tempfile.mkdtemp()
seq = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
seq.export(os.path.join(directory, "sequential"), verbose=False)
loaded = tf.saved_model.load(os.path.join(directory, "sequential"))
print(loaded.serve(tf.ones([1, 3])))
print(sorted(loaded.signatures.keys()))
print(loaded.signatures["serving_default"](tf.ones([2, 3])))
inputs = keras.Input((2,), name="features")
model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(inputs))
model.export(os.path.join(directory, "functional"), verbose=False)
served = tf.saved_model.load(os.path.join(directory, "functional"))
print(served.serve(np.ones((1, 2), "float32")))
print(served.signatures["serve"].structured_input_signature)


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def shown(x):
    print(x, repr(x))
    return x


shown(tf.constant(1.0))

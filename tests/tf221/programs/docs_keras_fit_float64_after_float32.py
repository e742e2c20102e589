# Keras fit under a MirroredStrategy's scope on a float32 dataset, then on float64 NumPy arrays: the step
# function is traced again for the new dtypes (Keras's retraces), not refused by the first batch's signature.
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(1)
with tf.distribute.MirroredStrategy().scope():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(loss="mse", optimizer="sgd")
dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(20).batch(10)
print(model.fit(dataset, epochs=2, verbose=0, shuffle=False).history)
inputs, targets = np.ones((20, 1)), np.full((20, 1), 2.0)
print(model.fit(inputs, targets, epochs=2, batch_size=10, verbose=0).history)
print(model.evaluate(inputs, targets, verbose=0), model.predict(inputs[:2], verbose=0))
print([w.numpy() for w in model.weights])

# keras.metrics.BinaryAccuracy(threshold=...) (tf.metrics is Keras's): predictions above the threshold
# count as 1; weighted; in compile's metrics.
import numpy as np
import tensorflow as tf
y_true = [[1], [1], [0], [0]]
y_pred = [[0.98], [0.6], [0.3], [0.72]]
for threshold in (0.5, 0.7, 0.1):
    m = tf.metrics.BinaryAccuracy(threshold=threshold)
    m.update_state(y_true, y_pred)
    print(threshold, m.name, m.result().numpy())
m = tf.keras.metrics.BinaryAccuracy(name="acc", threshold=0.65)
m.update_state(y_true, y_pred, sample_weight=[1, 0, 2, 1])
print(m.name, m.result().numpy())
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
model.compile(loss=tf.keras.losses.BinaryCrossentropy(), optimizer="sgd", metrics=[tf.metrics.BinaryAccuracy(threshold=0.8)])
print(model.evaluate(np.array([[1.0, 1.0], [0.2, 0.1], [-1.0, 0.5]], np.float32), np.array([1, 0, 0], np.float32), verbose=0))

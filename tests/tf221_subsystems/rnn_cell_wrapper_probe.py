import tensorflow as tf
keras = tf.keras
import numpy as np
x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / 6)
s = [tf.constant(np.ones((2, 3), np.float32) * 0.5)]
for n, kw in [("RNNCellDeviceWrapper", dict(device="/cpu:0")), ("RNNCellDropoutWrapper", dict()),
              ("RNNCellResidualWrapper", {})]:
    cell = keras.layers.SimpleRNNCell(3, kernel_initializer="ones", recurrent_initializer="ones")
    w = getattr(tf.nn, n)(cell, **kw)
    out, state = w(x, s)
    print(n, np.round(out.numpy(), 5).tolist(), np.round(state[0].numpy(), 5).tolist(), w.state_size, w.output_size)
try:
    tf.nn.RNNCellDropoutWrapper(keras.layers.SimpleRNNCell(3), input_keep_prob=1.5)
except ValueError as e:
    print(type(e).__name__, e)

# mixed_float16: the ops a Dense layer and a softmax Activation(dtype="float32") run eagerly (the Casts Keras inserts:
# the input to float16, each float32 variable read then cast).
import numpy as np
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
keras = tf.keras
keras.mixed_precision.set_global_policy("mixed_float16")
d = keras.layers.Dense(2, kernel_initializer="ones")
act = keras.layers.Activation("softmax", dtype="float32")
x = tf.constant(np.arange(6, dtype="float32").reshape(2, 3) / 10)
d.build((None, 3))
y = d(x)
z = act(y)
tf.debugging.set_log_device_placement(False)
print(y.dtype, z.dtype, z.numpy())


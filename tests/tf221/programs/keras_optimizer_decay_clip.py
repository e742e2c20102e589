# Keras 3 optimizers' weight decay (AdamW, Adam/SGD(weight_decay=...), exclude_from_weight_decay) and
# gradient clipping (clipnorm, global_clipnorm, clipvalue): the variables after two steps.
import numpy as np
import tensorflow as tf
import keras


def run(optimizer, exclude=None):
    w = tf.Variable([[1.0, -2.0], [0.5, 3.0]], name="kernel")
    b = tf.Variable([0.5, -0.5], name="bias")
    if exclude:
        optimizer.exclude_from_weight_decay(var_names=exclude)
    for step in range(2):
        grads = [tf.constant([[3.0, -4.0], [0.0, 12.0]]) * (step + 1), tf.constant([0.1, -0.2])]
        optimizer.apply_gradients(zip(grads, [w, b]))
    return np.round(w.numpy(), 5).tolist(), np.round(b.numpy(), 5).tolist()


print("adamw", run(keras.optimizers.AdamW(learning_rate=0.1)))
print("adamw exclude bias", run(keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5), exclude=["bias"]))
print("adam weight_decay", run(keras.optimizers.Adam(0.1, weight_decay=0.1)))
print("sgd weight_decay", run(keras.optimizers.SGD(0.1, weight_decay=0.1)))
print("sgd clipnorm", run(keras.optimizers.SGD(0.1, clipnorm=1.0)))
print("sgd global_clipnorm", run(keras.optimizers.SGD(0.1, global_clipnorm=2.0)))
print("sgd clipvalue", run(keras.optimizers.SGD(0.1, clipvalue=0.5)))
print("by name", type(keras.optimizers.get("adamw")).__name__, keras.optimizers.AdamW().weight_decay)
try:
    keras.optimizers.SGD(clipnorm=1.0, clipvalue=1.0)
except ValueError as e:
    print("ValueError", e)
try:
    keras.optimizers.AdamW(weight_decay=None)
except ValueError as e:
    print("ValueError", e)

# Gradients of everyday ops (mean, relu, sigmoid, tanh, exp, log, pow, maximum, softmax, transpose) against TensorFlow's (issue 11, item 1).
import tensorflow as tf
x = tf.constant([[1.0, -2.0], [0.5, 3.0]])
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    outs = {"mean": tf.reduce_mean(x * x), "relu": tf.reduce_sum(tf.nn.relu(x)), "sig": tf.reduce_sum(tf.sigmoid(x)),
            "tanh": tf.reduce_sum(tf.tanh(x)), "exp": tf.reduce_sum(tf.exp(x)), "log": tf.reduce_sum(tf.math.log(tf.abs(x))),
            "pow": tf.reduce_sum(tf.abs(x) ** 3.0), "max": tf.reduce_sum(tf.maximum(x, 0.7)),
            "softmax": tf.reduce_sum(tf.nn.softmax(x) * tf.constant([[1.0, 2.0], [3.0, 4.0]])),
            "transpose": tf.reduce_sum(tf.transpose(x) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))}
for k, v in outs.items():
    print(k, t.gradient(v, x).numpy().round(5).tolist())

# tf.print and tf.strings.format show floats as TensorFlow's C++ does: %.6g, or %.9g (%.17g for a double) when that does not read back as the value.
import sys

import tensorflow as tf

tf.print(tf.constant([1.0, 2.0, 3.0]) / 3.0, output_stream=sys.stdout)
tf.print(tf.constant(0.1), tf.constant(1e-8), tf.constant(123456789.0), tf.constant(3.0), output_stream=sys.stdout)
tf.print(tf.constant([1.5, 2.25], tf.float64), tf.constant(1.0, tf.float64) / 3.0, tf.constant(0.1, tf.float64),
         output_stream=sys.stdout)
tf.print(tf.constant([0.1], tf.float16), tf.constant(2, tf.int64), output_stream=sys.stdout)
tf.print(tf.constant([float("nan"), float("inf"), -float("inf"), -0.0]), output_stream=sys.stdout)
print(tf.strings.format("x={} y={}", (tf.constant(2.0) / 3.0, tf.constant([0.7, 1e10]))).numpy().decode())


@tf.function
def f(v):
    tf.print("in a function", v / 7.0, output_stream=sys.stdout)
    return v


f(tf.constant([1.0, 2.0]))

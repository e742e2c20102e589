# Eager control flow (tf.cond, tf.while_loop, tf.case) and tf.print's formatting and ops (issue 11, item 2).
import sys

import tensorflow as tf

tf.debugging.set_log_device_placement(True)
x = tf.constant(3.0)
print(tf.cond(x > 2.0, lambda: x * 2.0, lambda: x - 1.0))
print(tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + 2.0), [tf.constant(0), tf.constant(0.0)]))
print(tf.while_loop(lambda i: i < 10, lambda i: (i * 2,), [tf.constant(1)]))
print(tf.case([(x < 1.0, lambda: tf.constant(1)), (x > 2.0, lambda: tf.constant(2))], default=lambda: tf.constant(3)))
tf.print("value:", x, [1, 2], tf.constant([1.0, 2.0]), output_stream=sys.stdout)
tf.print(tf.constant([[1, 2], [3, 4]]), output_stream=sys.stdout)
tf.print("mixed", tf.constant(1), tf.constant([1.5, 2.0]), tf.constant(True), tf.constant("s"),
         tf.constant(["a", "b"]), tf.constant([True, False]), output_stream=sys.stdout)
tf.print("sep", tf.constant(0.25), sep="|", end="!\n", output_stream=sys.stdout)
try:
    tf.cond(x > 2.0, 1, 2)
except Exception as e:
    print(type(e).__name__, e)

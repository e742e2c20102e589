"""The program both TensorFlow and devtrace run for the tfdbg2 dump capture (argv: dump root, mode)."""
import sys
import tensorflow as tf

root, mode = sys.argv[1], sys.argv[2]
tf.debugging.experimental.enable_dump_debug_info(root, tensor_debug_mode=mode, circular_buffer_size=-1)
x = tf.constant([[1.0, -2.0, 0.0]])
y = x * 2.0
z = tf.math.log(x)
i = tf.constant([1, 2]) + tf.constant([3, 4])


@tf.function
def f(a):
    return tf.sqrt(a) + 1.0


f(y)
tf.debugging.experimental.disable_dump_debug_info()

# capture-env: TF_ENABLE_ONEDNN_OPTS=1
# Issue 13 areas 1/3: TensorFlow's default on x86 (oneDNN on), which every other program turns off: op names and memory info.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


tf.debugging.set_log_device_placement(True)
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
cell("matmul", lambda: tf.matmul(a, a))
cell("matmul again", lambda: tf.matmul(a, a))
cell("add scalar", lambda: a + 1.0)
cell("relu", lambda: tf.nn.relu(a))
cell("conv2d", lambda: tf.nn.conv2d(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), 1, "VALID"))
cell("get_memory_info CPU:0", lambda: tf.config.experimental.get_memory_info("CPU:0"))
cell("reset_memory_stats CPU:0", lambda: tf.config.experimental.reset_memory_stats("CPU:0"))


@tf.function
def f(x):
    return tf.matmul(x, x)


cell("tf.function matmul", lambda: f(a))

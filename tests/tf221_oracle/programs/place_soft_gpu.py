# Issue 13 areas 1/2: soft placement of GPU/TPU/odd requests on a CPU-only machine, with placement logging.
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
with tf.device("/GPU:0"):
    cell("matmul under /GPU:0", lambda: tf.matmul(a, a).device)
    cell("constant under /GPU:0", lambda: tf.constant([1.0]).device)
    cell("add scalar under /GPU:0", lambda: (a + 5.0).device)
with tf.device("/gpu:1"):
    cell("matmul under /gpu:1", lambda: tf.matmul(a, a).device)
with tf.device("/TPU:0"):
    cell("matmul under /TPU:0", lambda: tf.matmul(a, a).device)
with tf.device("/CPU:7"):
    cell("matmul under /CPU:7", lambda: tf.matmul(a, a).device)
with tf.device("/GPU:*"):
    cell("matmul under /GPU:*", lambda: tf.matmul(a, a).device)
with tf.device("/job:localhost"):
    cell("matmul under /job:localhost", lambda: tf.matmul(a, a).device)
cell("get_soft_device_placement", lambda: tf.config.get_soft_device_placement())
cell("set_soft_device_placement(False)", lambda: tf.config.set_soft_device_placement(False))
with tf.device("/GPU:0"):
    cell("hard: matmul under /GPU:0 (error)", lambda: tf.matmul(a, a))
    cell("hard: constant under /GPU:0 (error)", lambda: tf.constant([1.0]))
    cell("hard: Variable under /GPU:0 (error)", lambda: tf.Variable(1.0))
with tf.device("/CPU:1"):
    cell("hard: matmul under /CPU:1 (error)", lambda: tf.matmul(a, a))
with tf.device("/job:worker"):
    cell("hard: matmul under /job:worker (error)", lambda: tf.matmul(a, a))
with tf.device("/CPU:0"):
    cell("hard: matmul under /CPU:0 ok", lambda: tf.matmul(a, a).device)

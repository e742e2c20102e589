# Issue 13 area 1: set_log_device_placement after the runtime initialised, and turning it off later.
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


c = tf.constant([1.0, 2.0])
cell("op before enabling", lambda: c + c)
cell("enable after init", lambda: tf.debugging.set_log_device_placement(True))
cell("op after enabling", lambda: c * c)
cell("new op signature after enabling", lambda: tf.matmul(tf.ones([1, 2]), tf.ones([2, 1])))
cell("disable", lambda: tf.debugging.set_log_device_placement(False))
cell("op after disabling", lambda: c - c)
cell("get_log_device_placement?", lambda: hasattr(tf.debugging, "get_log_device_placement"))

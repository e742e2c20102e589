# Issue 13 area 1: logging on before initialisation, then turned off: does it stop?
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
c = tf.constant([1.0, 2.0])
cell("op while on", lambda: c + c)
cell("disable", lambda: tf.debugging.set_log_device_placement(False))
cell("op after disabling", lambda: c * c)
cell("new op signature after disabling", lambda: tf.reduce_sum(c))
cell("enable again", lambda: tf.debugging.set_log_device_placement(True))
cell("op after enabling again", lambda: c - c)

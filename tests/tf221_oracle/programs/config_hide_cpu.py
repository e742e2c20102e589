# Issue 13 area 3: hiding every CPU is accepted; initialisation then fails.
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


cell("set_visible_devices([], 'CPU')", lambda: tf.config.set_visible_devices([], "CPU"))
cell("get_visible_devices", lambda: tf.config.get_visible_devices())
cell("constant", lambda: tf.constant(1.0))
cell("list_logical_devices", lambda: tf.config.list_logical_devices())

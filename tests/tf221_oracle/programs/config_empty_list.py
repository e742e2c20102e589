# Issue 13 area 3: an empty logical configuration is a real configuration; initialisation then fails.
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


cpu = tf.config.list_physical_devices("CPU")[0]
cell("set []", lambda: tf.config.set_logical_device_configuration(cpu, []))
cell("get back", lambda: tf.config.get_logical_device_configuration(cpu))
cell("list_logical_devices (initialises)", lambda: tf.config.list_logical_devices())
cell("constant", lambda: tf.constant(1.0))
cell("list_logical_devices again", lambda: tf.config.list_logical_devices())

# capture-env: TF_CPP_MIN_LOG_LEVEL=1
# Issue 13 area 1: TF_CPP_MIN_LOG_LEVEL=1 hides the INFO placement lines (stderr); what happens to stdout placer lines.
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
c = tf.constant([[1.0, 2.0], [3.0, 4.0]])
cell("matmul", lambda: tf.matmul(c, c))
cell("add scalar", lambda: c + 1.0)
cell("variable", lambda: repr(tf.Variable(1.0)))


@tf.function
def f(x):
    return x * 2.0


cell("tf.function", lambda: f(c))

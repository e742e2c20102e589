# Issue 13 areas 1/7: tf.function with placement logging (tracing, placer lines for the body, __inference_* op, retracing).
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


@tf.function
def f(x, y):
    return tf.matmul(x, y) + 1.0


@tf.function
def g(x):
    return tf.reduce_sum(x * 2.0)


v = tf.Variable(2.0)


@tf.function
def h(x):
    v.assign_add(1.0)
    return x * v


a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
cell("first call", lambda: f(a, a))
cell("second call same signature", lambda: f(a, a))
cell("new shape retraces", lambda: f(tf.ones([1, 2]), tf.ones([2, 1])))
cell("g", lambda: g(a))
cell("g python arg", lambda: g(3.0))
cell("h with variable", lambda: h(a))
cell("h again", lambda: h(a))
cell("concrete function name prefix", lambda: g.get_concrete_function(a).name.decode()[:12])
cell("experimental_get_tracing_count", lambda: f.experimental_get_tracing_count())
cell("tf.function repr type", lambda: type(f).__name__)

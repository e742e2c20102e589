# Issue 13 area 6: tf.compat.v1.disable_v2_behavior() (ref variables) with placement logging.
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


tf1 = tf.compat.v1
tf1.disable_v2_behavior()
cell("executing_eagerly", lambda: tf.executing_eagerly())
cell("resource_variables_enabled", lambda: tf1.resource_variables_enabled())
v = tf1.Variable(2.0, name="v")
cell("Variable type", lambda: type(v).__name__)
cell("Variable repr", lambda: repr(v))
y = tf1.multiply(v, 3.0, name="y")
cell("op types", lambda: [op.type for op in tf1.get_default_graph().get_operations()])
with tf1.Session(config=tf1.ConfigProto(log_device_placement=True)) as sess:
    cell("init", lambda: sess.run(tf1.global_variables_initializer()))
    cell("run y", lambda: sess.run(y))

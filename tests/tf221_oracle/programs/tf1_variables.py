# Issue 13 area 6: variables in TF1 graphs with only eager disabled: resource variables, get_variable, initialisation errors.
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
tf1.disable_eager_execution()
cell("resource_variables_enabled", lambda: tf1.resource_variables_enabled())
v = tf1.Variable([1.0, 2.0], name="v")
w = tf1.get_variable("w", shape=[2], initializer=tf1.zeros_initializer())
cell("Variable type", lambda: type(v).__name__)
cell("get_variable type", lambda: type(w).__name__)
cell("Variable repr", lambda: repr(v))
cell("get_variable repr", lambda: repr(w))
cell("op types", lambda: [op.type for op in tf1.get_default_graph().get_operations()])
cell("op names", lambda: [op.name for op in tf1.get_default_graph().get_operations()])
cell("global_variables", lambda: [x.name for x in tf1.global_variables()])
s = v + w
sess = tf1.Session(config=tf1.ConfigProto(log_device_placement=True))
cell("run uninitialised (error)", lambda: sess.run(s))
cell("initialize", lambda: sess.run(tf1.global_variables_initializer()))
cell("run after init", lambda: sess.run(s))
cell("assign_add", lambda: sess.run(v.assign_add([1.0, 1.0])))
cell("get_variable reuse (error)", lambda: tf1.get_variable("w", shape=[2]))
with tf1.variable_scope("scope", reuse=tf1.AUTO_REUSE):
    cell("variable_scope get_variable name", lambda: tf1.get_variable("u", shape=[1]).name)
    cell("variable_scope reuse same", lambda: tf1.get_variable("u", shape=[1]).name)
tf1.disable_resource_variables()
cell("after disable_resource_variables", lambda: type(tf1.Variable(1.0, name="ref")).__name__)
cell("resource_variables_enabled after", lambda: tf1.resource_variables_enabled())

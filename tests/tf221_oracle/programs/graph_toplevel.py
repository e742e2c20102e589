# Issue 13 areas 4/6: tf.Graph at top level in TF2 (eager stays on outside), device scopes recorded on ops, tf.function graphs.
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


g = tf.Graph()
with g.as_default():
    a = tf.constant(1.0, name="a")
    with tf.device("/GPU:0"):
        b = tf.add(a, 2.0, name="b")
    with tf.device("/job:worker/task:1"):
        with tf.device("/device:CPU:3"):
            c = tf.multiply(b, 3.0, name="c")
    with tf.compat.v1.device(lambda op: "/CPU:9"):
        d = tf.identity(c, name="d")
    cell("executing_eagerly inside graph", lambda: tf.executing_eagerly())
    cell("tf.device(callable) in graph ok", lambda: tf.device(lambda op: "/CPU:0") is not None)
cell("executing_eagerly outside", lambda: tf.executing_eagerly())
cell("op devices", lambda: [(op.name, op.type, op.device) for op in g.get_operations()])
cell("tensor repr", lambda: repr(b))
cell("graph repr type", lambda: type(g).__name__)
cell("as_graph_def node count", lambda: len(g.as_graph_def().node))
cell("node_def of b", lambda: str(g.get_operation_by_name("b").node_def))
cell("get_tensor_by_name", lambda: g.get_tensor_by_name("c:0").name)
cell("get_tensor_by_name missing (error)", lambda: g.get_tensor_by_name("zz:0"))
cell("get_operation_by_name missing (error)", lambda: g.get_operation_by_name("zz"))
cell("use graph tensor in eager (error)", lambda: b + 1.0)
cell("run graph with Session", lambda: tf.compat.v1.Session(graph=g, config=tf.compat.v1.ConfigProto(allow_soft_placement=True)).run(d))


@tf.function
def f(x):
    with tf.device("/CPU:0"):
        y = x * 2.0
    return y


cell("tf.function graph ops", lambda: [(op.type, op.device) for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()])
cell("tf.function call", lambda: f(tf.constant(1.0)))

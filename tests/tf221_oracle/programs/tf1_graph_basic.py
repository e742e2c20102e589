# Issue 13 area 6: TF1 graph via tf.compat.v1 with log_device_placement=True; implicit constant names; placer order.
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
a = tf1.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
b = tf1.constant([[1.0], [1.0]], name="b")
c = tf1.matmul(a, b, name="c")
d = tf1.add(c, 1.0, name="d")
e = tf1.reduce_sum(d, name="e")
f = tf1.identity(e, name="f")
cell("executing_eagerly", lambda: tf.executing_eagerly())
cell("tensor repr in graph", lambda: repr(c))
cell("tensor str in graph", lambda: str(d))
cell("op names", lambda: [op.name for op in tf1.get_default_graph().get_operations()])
cell("op types", lambda: [op.type for op in tf1.get_default_graph().get_operations()])
cell("implicit const of add", lambda: d.op.inputs[1].name)
cell("implicit const of reduce_sum", lambda: e.op.inputs[1].name)
cell("c.device before run", lambda: repr(c.device))
cell("ConfigProto str", lambda: str(tf1.ConfigProto(log_device_placement=True)))
cell("ConfigProto default allow_soft_placement", lambda: tf1.ConfigProto().allow_soft_placement)
sess = tf1.Session(config=tf1.ConfigProto(log_device_placement=True))
cell("session created", lambda: type(sess).__name__)
cell("run f", lambda: sess.run(f))
cell("run f again (no new placement lines)", lambda: sess.run(f))
cell("run c and d", lambda: sess.run([c, d]))
cell("run with feed", lambda: sess.run(d, feed_dict={c: [[0.0], [0.0]]}))
cell("eval in session", lambda: e.eval(session=sess))
g = tf1.placeholder(tf.float32, shape=[None, 2], name="g")
h = tf1.matmul(g, a, name="h")
cell("placeholder repr", lambda: repr(g))
cell("new node after first run", lambda: sess.run(h, feed_dict={g: [[1.0, 1.0]]}))
cell("placeholder missing feed (error)", lambda: sess.run(h))
cell("list_devices", lambda: [x.name for x in sess.list_devices()])
cell("sess.graph is default", lambda: sess.graph is tf1.get_default_graph())
sess.close()
cell("run after close (error)", lambda: sess.run(f))

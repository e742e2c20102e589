# Issue 13 area 6: TF1 placement errors (Graph execution error envelope), soft placement, device_count, device functions.
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
with tf1.device("/device:GPU:2"):
    gb = tf1.constant([1.0, 2.0], name="gb")
    gc = tf1.add(gb, gb, name="gc")
ca = tf1.constant([3.0], name="ca")
cell("hard placement on GPU:2 (error)", lambda: tf1.Session(config=tf1.ConfigProto(log_device_placement=True)).run(gc))
cell("soft placement on GPU:2", lambda: tf1.Session(config=tf1.ConfigProto(allow_soft_placement=True, log_device_placement=True)).run(gc))
g2 = tf1.Graph()
with g2.as_default():
    with tf1.device("/job:worker/task:0"):
        w = tf1.constant(1.0, name="w")
cell("unknown job in graph (error)", lambda: tf1.Session(graph=g2).run(w))
cell("unknown job with soft placement", lambda: tf1.Session(graph=g2, config=tf1.ConfigProto(allow_soft_placement=True)).run(w))
g3 = tf1.Graph()
with g3.as_default():
    x = tf1.constant([1.0, 2.0], name="x")
    with tf1.device("/CPU:2"):
        y = tf1.multiply(x, 2.0, name="y")
    z = tf1.reduce_sum(y, name="z")
cell("device_count CPU 3", lambda: tf1.Session(graph=g3, config=tf1.ConfigProto(device_count={"CPU": 3}, log_device_placement=True)).run(z))
cell("CPU:2 without device_count (error)", lambda: tf1.Session(graph=g3).run(z))
g4 = tf1.Graph()
with g4.as_default():
    def pick(op):
        return "/CPU:0" if op.type == "Const" else "/CPU:1"
    with tf1.device(pick):
        p = tf1.constant(1.0, name="p")
        q = tf1.add(p, p, name="q")
cell("device function assigned devices", lambda: [(op.name, op.device) for op in g4.get_operations()])
cell("device function run with 2 CPUs", lambda: tf1.Session(graph=g4, config=tf1.ConfigProto(device_count={"CPU": 2}, log_device_placement=True)).run(q))
g5 = tf1.Graph()
with g5.as_default():
    k = tf1.constant(1.0, name="k")
cell("device_count CPU 0 (error)", lambda: tf1.Session(graph=g5, config=tf1.ConfigProto(device_count={"CPU": 0})).run(k))
cell("fetch from other graph (error)", lambda: tf1.Session(graph=g5).run(ca))
cell("fetch None (error)", lambda: tf1.Session(graph=g5).run(None))
cell("fetch bad type (error)", lambda: tf1.Session(graph=g5).run(3))


def _ph():
    with tf1.Graph().as_default() as gr:
        ph = tf1.placeholder(tf.float32, shape=[2], name="ph")
        return gr, ph, ph * 2.0


cell("feed wrong shape (error)", lambda: (lambda gr, ph, out: tf1.Session(graph=gr).run(out, feed_dict={ph: [1.0, 2.0, 3.0]}))(*_ph()))

import tensorflow as tf
g1 = tf.Graph()
with g1.as_default():
    a = tf.compat.v1.placeholder(tf.float32, [None, 2], name="a")
    b = tf.constant([[1.0], [2.0]], name="b")
    c = tf.matmul(a, b, name="c")
    d = tf.nn.relu(c, name="d")
gd = g1.as_graph_def()
g2 = tf.Graph()
with g2.as_default():
    x = tf.constant([[1.0, -3.0], [2.0, 1.0]], name="x")
    out = tf.import_graph_def(gd, input_map={"a:0": x}, return_elements=["d:0", "c"])
    print(out)
    print([op.name for op in g2.get_operations()])
    none = tf.import_graph_def(gd, name="again")
    print(none, [op.name for op in g2.get_operations()][-4:])
    with tf.compat.v1.Session() as s:
        print(s.run(out[0]).tolist())
    try:
        tf.import_graph_def(gd, return_elements=["nope:0"])
    except Exception as e:
        print(type(e).__name__, repr(str(e)))
    try:
        tf.import_graph_def(gd, input_map={"zz:0": x})
    except Exception as e:
        print(type(e).__name__, repr(str(e)))
@tf.function
def f(v):
    return tf.import_graph_def(gd, input_map={"a": v}, return_elements=["d:0"])[0]
print(f(tf.constant([[1.0, 1.0]])).numpy().tolist())
try:
    tf.import_graph_def(gd)
except Exception as e:
    print(type(e).__name__, repr(str(e)))
g3 = tf.Graph()
with g3.as_default():
    p = tf.compat.v1.placeholder(tf.float32, [2, 3], name="p")
    r = tf.reshape(p, [3, 2], name="r")
    s = tf.reduce_sum(r, axis=1, name="s")
    t = tf.identity(tf.transpose(r), name="t")
g4 = tf.Graph()
with g4.as_default():
    v = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    s_, t_ = tf.import_graph_def(g3.as_graph_def(), input_map={"p": v}, return_elements=["s:0", "t:0"], name="m")
    print(s_, t_)
    with tf.compat.v1.Session() as sess:
        print(sess.run([s_, t_]))

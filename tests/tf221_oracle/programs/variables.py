# Issue 10 area 1/2/4 (Variable): reprs, str, getitem, assign*, scatter_nd_update, errors.
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


v = tf.Variable(3.0)
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
i = tf.Variable([1, 2, 3], name="ints")
s = tf.Variable("hi", name="s")
cell("repr scalar", lambda: repr(v))
cell("str scalar", lambda: str(v))
cell("repr matrix", lambda: repr(w))
cell("print matrix", lambda: w)
cell("repr int vector", lambda: repr(i))
cell("repr string", lambda: repr(s))
cell("name dtype shape", lambda: (v.name, w.name, w.dtype, w.shape, w.trainable))
cell("second unnamed name", lambda: tf.Variable(1).name)
cell("same name twice", lambda: (tf.Variable(1, name="w").name, tf.Variable(2, name="w").name))
cell("device", lambda: w.device)
cell("getitem", lambda: w[1])
cell("getitem slice", lambda: w[:, ::-1])
cell("assign", lambda: repr(v.assign(5.0)))
cell("assign returns", lambda: type(v.assign(6.0)).__name__)
cell("assign_add", lambda: repr(v.assign_add(1.5)))
cell("assign_sub", lambda: repr(v.assign_sub(0.5)))
cell("value after", lambda: v.numpy())
cell("read_value", lambda: v.read_value())
cell("value()", lambda: repr(v.value()))
cell("assign wrong dtype (error)", lambda: i.assign([1.5, 2.5, 3.5]))
cell("assign wrong shape (error)", lambda: w.assign([1.0, 2.0]))
cell("assign int to float var", lambda: repr(v.assign(2)))
cell("scatter_nd_update", lambda: repr(i.scatter_nd_update([[0], [2]], [10, 30])))
cell("slice assign", lambda: repr(w[0, 1].assign(9.0)))
cell("slice assign row", lambda: repr(w[1].assign([7.0, 8.0])))
cell("arithmetic returns tensor", lambda: w + 1)
cell("var * var", lambda: v * v)
cell("var in matmul", lambda: tf.matmul(w, w))
cell("numpy()", lambda: repr(w.numpy()))
cell("Variable shape=None dynamic", lambda: repr(tf.Variable([1.0], shape=tf.TensorShape(None))))
cell("non-trainable", lambda: tf.Variable(1.0, trainable=False).trainable)
cell("Variable dtype arg", lambda: repr(tf.Variable(1, dtype=tf.float64)))
cell("hash var (error?)", lambda: hash(v) is not None)
cell("var == var elementwise", lambda: i == i)
cell("assign_add shape mismatch (error)", lambda: i.assign_add([1, 2]))
cell("Variable of non-rectangular (error)", lambda: tf.Variable([[1], [2, 3]]))
cell("repr large variable", lambda: repr(tf.Variable(tf.reshape(tf.range(12.0), [3, 4]))))

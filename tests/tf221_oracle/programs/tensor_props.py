# Issue 10 area 2 (Tensor behaviour): shape, ndim, dtype, device, numpy, len, iteration, bool/int/float/index, format, array, hash.
import tensorflow as tf
import sys
import numpy as np


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


t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
s = tf.constant(2.5)
n = tf.constant(3)
cell("shape ndim dtype", lambda: (t.shape, t.ndim, t.dtype))
cell("device", lambda: t.device)
cell("backing_device", lambda: t.backing_device)
cell("numpy", lambda: repr(t.numpy()))
cell("numpy 0-d", lambda: (repr(s.numpy()), type(s.numpy()).__name__))
cell("numpy string", lambda: repr(tf.constant("ab").numpy()))
cell("len", lambda: len(t))
cell("len 0-d (error)", lambda: len(s))
cell("iterate", lambda: [x for x in t])
cell("iterate 0-d (error)", lambda: [x for x in s])
cell("iterate vector", lambda: list(tf.constant([5, 6])))
cell("bool 0-d", lambda: (bool(tf.constant(0.0)), bool(tf.constant(3))))
cell("bool non-scalar (error)", lambda: bool(t))
cell("bool 1-elem vector (error?)", lambda: bool(tf.constant([1])))
cell("int float", lambda: (int(s), float(n), int(tf.constant(-2.7))))
cell("int of vector (error)", lambda: int(tf.constant([1, 2])))
cell("float of string (error)", lambda: float(tf.constant("1.5")))
cell("__index__", lambda: [10, 20, 30, 40][n])
cell("__index__ float (error)", lambda: [1, 2][s])
cell("range(n)", lambda: list(range(n)))
cell("format 0-d", lambda: "{:.3f}|{}|{:>6}".format(s, s, n))
cell("f-string 0-d", lambda: f"{s:.1f} {n:03d}")
cell("format non-scalar no spec", lambda: "{}".format(tf.constant([1, 2])))
cell("format non-scalar with spec (error)", lambda: "{:.2f}".format(t))
cell("np.asarray", lambda: repr(np.asarray(t)))
cell("np.array dtype", lambda: repr(np.array(tf.constant([1, 2]), dtype=np.float64)))
cell("np.sum of tensor", lambda: repr(np.sum(t)))
cell("np.add returns ndarray", lambda: type(np.add(t, 1)).__name__)
cell("hash (error)", lambda: hash(t))
cell("hash 0-d (error)", lambda: hash(s))
cell("set of tensors (error)", lambda: {s})
cell("dict key (error)", lambda: {t: 1})
cell("id-based ref", lambda: len({t.ref(), t.ref(), s.ref()}))
cell("ref deref", lambda: t.ref().deref() is t)
cell("type name", lambda: type(t).__name__)
cell("isinstance tf.Tensor", lambda: isinstance(t, tf.Tensor))
cell("tf.is_tensor", lambda: (tf.is_tensor(t), tf.is_tensor(np.ones(1))))
cell("get_shape", lambda: t.get_shape())
cell("set_shape compatible", lambda: (t.set_shape([2, None]), t.shape)[1])
cell("set_shape incompatible (error)", lambda: t.set_shape([3, 2]))
cell("eval in eager (error)", lambda: t.eval())
cell("t.op in eager (error)", lambda: t.op)
cell("t.name in eager (error)", lambda: t.name)
cell("t.graph in eager (error)", lambda: t.graph)
cell("contains (error?)", lambda: 1.0 in t)
cell("copy.deepcopy", lambda: __import__("copy").deepcopy(t))
cell("cpu()", lambda: t.cpu().device)

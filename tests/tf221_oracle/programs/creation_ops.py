# Issue 10 area 1 (shape/creation): fill, zeros, ones, *_like, eye, range, linspace, one_hot, identity, constant/convert_to_tensor.
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


cell("fill", lambda: tf.fill([2, 3], 9))
cell("fill float", lambda: tf.fill([2], 1.5))
cell("zeros", lambda: tf.zeros([2, 2]))
cell("zeros int", lambda: tf.zeros((3,), dtype=tf.int32))
cell("ones", lambda: tf.ones([2, 3], tf.int64))
cell("zeros_like ones_like", lambda: (tf.zeros_like(tf.constant([1, 2])), tf.ones_like(tf.constant([[1.0]]))))
cell("ones_like dtype", lambda: tf.ones_like(tf.constant([1, 2]), dtype=tf.float32))
cell("eye", lambda: tf.eye(3))
cell("eye rect", lambda: tf.eye(2, 3, dtype=tf.int32))
cell("eye batch", lambda: tf.eye(2, batch_shape=[2]).shape)
cell("range", lambda: tf.range(5))
cell("range start limit delta", lambda: tf.range(1, 10, 3))
cell("range float", lambda: tf.range(0.0, 1.0, 0.25))
cell("range negative delta", lambda: tf.range(5, 0, -2))
cell("range dtype", lambda: tf.range(3, dtype=tf.float64))
cell("range zero delta (error)", lambda: tf.range(0, 5, 0))
cell("linspace", lambda: tf.linspace(0.0, 1.0, 5))
cell("linspace int (error?)", lambda: tf.linspace(0, 10, 3))
cell("one_hot", lambda: tf.one_hot([0, 2, 1], 3))
cell("one_hot on off axis", lambda: tf.one_hot([0, 2], 3, on_value=5, off_value=-1, axis=0))
cell("one_hot out of range", lambda: tf.one_hot([3, -1], 3))
cell("identity", lambda: tf.identity(tf.constant([1, 2])))
cell("constant broadcast to shape", lambda: tf.constant(7, shape=[2, 2]))
cell("constant list shape", lambda: tf.constant([1, 2, 3, 4], shape=[2, 2]))
cell("constant wrong size (error)", lambda: tf.constant([1, 2, 3], shape=[2, 2]))
cell("constant non-rectangular (error)", lambda: tf.constant([[1, 2], [3]]))
cell("constant mixed types", lambda: tf.constant([1, 2.5]))
cell("constant bool", lambda: tf.constant([True, False]))
cell("constant int overflow (error)", lambda: tf.constant(2**40, dtype=tf.int32))
cell("constant python int default", lambda: tf.constant(2**40))
cell("constant too large for int64 (error)", lambda: tf.constant(2**64))
cell("convert_to_tensor", lambda: tf.convert_to_tensor([[1, 2], [3, 4]], dtype=tf.float32))
cell("convert_to_tensor dtype mismatch (error)", lambda: tf.convert_to_tensor(tf.constant([1]), dtype=tf.float32))
cell("constant from numpy float64", lambda: tf.constant(__import__("numpy").array([1.0, 2.0])))
cell("constant of None (error)", lambda: tf.constant(None))
cell("constant of string list", lambda: tf.constant(["a", "bc"]))
cell("zeros negative dim (error)", lambda: tf.zeros([-1, 2]))

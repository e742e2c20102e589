# Issue 10 area 4 (error texts): the common mistakes and TensorFlow's exact messages, incl. [Op:X] name: suffixes.
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


def _catch(f):
    try:
        f()
    except Exception as e:
        return e


cell("non-rectangular", lambda: tf.constant([[1, 2], [3]]))
cell("non-rectangular floats", lambda: tf.constant([[1.0], [2.0, 3.0]]))
cell("incompatible shapes add", lambda: tf.constant([1, 2, 3]) + tf.constant([1, 2]))
cell("incompatible shapes add named", lambda: tf.add(tf.constant([1, 2, 3]), tf.constant([1, 2]), name="myadd"))
cell("dtype mismatch add", lambda: tf.add(tf.constant(1), tf.constant(1.0)))
cell("dtype mismatch operator", lambda: tf.constant(1) + tf.constant(1.0))
cell("matmul mismatch", lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3])))
cell("reshape mismatch", lambda: tf.reshape(tf.range(5), [2, 3]))
cell("concat rank mismatch", lambda: tf.concat([tf.ones([2]), tf.ones([2, 2])], 0))
cell("string to float", lambda: tf.constant("x") + 1.0)
cell("python string to int tensor", lambda: tf.constant("abc", dtype=tf.int32))
cell("float list to int32", lambda: tf.constant([1.5], dtype=tf.int32))
cell("convert object", lambda: tf.constant(object()))
cell("convert dict", lambda: tf.constant({"a": 1}))
cell("error class path", lambda: type(tf.errors.InvalidArgumentError(None, None, "m")).__module__)
cell("error attributes eager", lambda: (lambda e: (e.op, e.node_def, e.error_code, e.message))(_catch(lambda: tf.reshape(tf.range(5), [2]))))
cell("error is ValueError?", lambda: isinstance(_catch(lambda: tf.reshape(tf.range(5), [2])), ValueError))
cell("errors hierarchy", lambda: [c.__name__ for c in tf.errors.InvalidArgumentError.__mro__[:3]])
cell("tf.errors codes", lambda: (tf.errors.INVALID_ARGUMENT, tf.errors.NOT_FOUND, tf.errors.RESOURCE_EXHAUSTED))
cell("str of error", lambda: str(_catch(lambda: tf.gather([1, 2], [5]))))
cell("repr of error", lambda: repr(_catch(lambda: tf.gather([1, 2], [5]))))
cell("debugging.assert_equal", lambda: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])))
cell("debugging.assert_positive", lambda: tf.debugging.assert_positive(tf.constant([1, -2]), message="must be positive"))
cell("debugging.check_numerics", lambda: tf.debugging.check_numerics(tf.constant([1.0, float("nan")]), "bad values"))
cell("ensure_shape", lambda: tf.ensure_shape(tf.ones([2, 3]), [2, 4]))
cell("unknown keyword", lambda: tf.reduce_sum(tf.ones([2]), axes=0))
cell("missing attribute", lambda: tf.not_a_function)
cell("wrong arg type", lambda: tf.zeros("abc"))
cell("one_hot float indices", lambda: tf.one_hot([1.0], 3))
cell("tile wrong length", lambda: tf.tile(tf.ones([2]), [1, 2]))

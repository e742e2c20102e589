# Issue 10 area 2/4: NumPy interop and conversion; tf.experimental.numpy is not probed.
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


a = np.arange(6, dtype=np.float32).reshape(2, 3)
cell("constant from ndarray keeps dtype", lambda: tf.constant(a))
cell("constant from int64 ndarray", lambda: tf.constant(np.array([1, 2])).dtype)
cell("tf op on ndarray", lambda: tf.reduce_sum(a, axis=0))
cell("ndarray + tensor", lambda: type(a + tf.ones([2, 3])).__name__)
cell("tensor + ndarray", lambda: tf.ones([2, 3]) + a)
cell("np.matmul tensor", lambda: repr(np.matmul(tf.ones([1, 2]), tf.ones([2, 1]))))
cell("np.float64 scalar + tensor", lambda: np.float64(1.0) + tf.constant([1.0]))
cell("tensor * np.int64", lambda: tf.constant([1, 2]) * np.int64(3))
cell("float64 ndarray + float32 tensor (error)", lambda: tf.constant([1.0]) + np.array([1.0]))
cell("bool ndarray", lambda: tf.constant(np.array([True, False])))
cell("object ndarray (error)", lambda: tf.constant(np.array([1, "a"], dtype=object)))
cell("string ndarray", lambda: tf.constant(np.array(["a", "b"])))
cell("numpy bfloat16 via ml_dtypes", lambda: tf.constant([1.0], tf.bfloat16).numpy().dtype.name)
cell("tensor.numpy shares?", lambda: type(tf.constant([1.0]).numpy()).__name__)
cell("np.array of list of tensors", lambda: repr(np.array([tf.constant(1.0), tf.constant(2.0)])))
cell("tf.experimental.numpy exists", lambda: hasattr(tf.experimental, "numpy"))
cell("convert_to_tensor np scalar", lambda: tf.convert_to_tensor(np.float32(2.0)))
cell("tensor.__array__ dtype", lambda: tf.constant([1, 2]).__array__(np.float32).dtype)
cell("np.allclose", lambda: np.allclose(tf.constant([1.0, 2.0]), [1.0, 2.0]))

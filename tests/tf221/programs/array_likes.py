# tf.constant / convert_to_tensor / ops / Variable from array-likes: objects with __array__ (a pandas Series
# or DataFrame is one) keep their NumPy dtype; a memoryview converts as the Python sequence it lists.
import numpy as np, tensorflow as tf
class A:
    def __array__(self, dtype=None, copy=None):
        return np.array([[1, 2], [3, 4]], dtype=dtype or np.int64)
class F:
    def __array__(self, dtype=None, copy=None):
        return np.array([1.5, 2.5])
for name, f in [("A", lambda: tf.constant(A())), ("A f32", lambda: tf.constant(A(), dtype=tf.float32)),
                ("F", lambda: tf.convert_to_tensor(F())), ("mv", lambda: tf.constant(memoryview(np.arange(3.0)))),
                ("add", lambda: tf.add(F(), 1.0)), ("var", lambda: tf.Variable(F()).numpy())]:
    try: print(name, repr(f()))
    except Exception as e: print(name, "!!", type(e).__name__, e)

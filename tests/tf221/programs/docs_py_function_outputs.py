# tf.py_function's Tout: a list or tuple of dtypes gives a list of tensors (empty for (), the
# function's None), one dtype the tensor; eagerly, in a tf.function, in a dataset's map, its
# gradient with two outputs (a list returned by a dataset's map is a tuple); tf.numpy_function with a list of dtypes in a tf.function.
import numpy as np
import tensorflow as tf
calls = []
def f(*a):
    calls.append(len(a))
    return [a[0] * 2]
print(tf.py_function(lambda: calls.append(0), [], ()))
print(tf.py_function(lambda: calls.append(0), [], []))
print(tf.py_function(f, [tf.constant(1.5)], [tf.float32]))
print(tf.py_function(f, [tf.constant(1.5)], tf.float32))
print(tf.py_function(lambda x: x * 3, [tf.constant(2)], tf.int32))
two = tf.py_function(lambda x, y: (x + y, x * y), [tf.constant(2.0), tf.constant(5.0)], [tf.float32, tf.float32])
print(two)
@tf.function
def g(x):
    tf.py_function(lambda: calls.append(1), [], ())
    a, b = tf.py_function(lambda x: (x + 1, tf.cast(x, tf.int64) * 2), [x], [tf.float32, tf.int64])
    c = tf.numpy_function(lambda x: (x - 1, np.array("s")), [x], [tf.float32, tf.string])
    print("traced", a.dtype, b.dtype, [t.dtype for t in c], a.shape)
    return a, b, c
print(g(tf.constant(1.0)))
print(g(tf.constant(2.0)))
def tens(s):
    return s * 10, tf.strings.as_string(s)
ds = tf.data.Dataset.range(3).map(lambda s: tf.py_function(tens, [s], [tf.int64, tf.string]))
print(list(ds.as_numpy_iterator()))
x, y = tf.Variable(3.0), tf.Variable(4.0)
with tf.GradientTape() as tape:
    p, q = tf.py_function(lambda a, b: (a * b, a * a), [x, y], [tf.float32, tf.float32])
    loss = p + 2 * q
print(tape.gradient(loss, [x, y]))
with tf.GradientTape() as tape:
    p, q = tf.py_function(lambda a, b: (a * b, a * a), [x, y], [tf.float32, tf.float32])
print(tape.gradient(q, [x, y]))
print(calls)

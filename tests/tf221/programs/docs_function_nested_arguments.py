# tf.function arguments nested in tuples, lists, namedtuples and dicts: each tensor inside is an
# argument of the trace (a placeholder named pair_0, d_k …), not a constant captured from the first
# call — later calls with other values give their own results without retracing; an input signature
# of nested TensorSpecs; keyword arguments bound by name whatever their order.
import collections
import tensorflow as tf
@tf.function(input_signature=[(tf.TensorSpec([2]), tf.TensorSpec([2]))])
def f(pair):
    a, b = pair
    return a + b
print(f((tf.ones([2]), tf.ones([2]))), f((tf.ones([2]), tf.constant([5.0, 6.0]))))
@tf.function
def g(pair, d):
    return pair[0] * d["k"] + tf.cast(pair[1], tf.float32)
print(g((tf.ones([2]), 3), {"k": tf.constant(2.0)}))
print(g((tf.ones([2]) * 5, 3), {"k": tf.constant(3.0)}), g.experimental_get_tracing_count())
c = g.get_concrete_function((tf.TensorSpec([None]), 3), {"k": tf.TensorSpec([])})
print(c.structured_input_signature)
print([t.name for t in c.inputs])
@tf.function
def h(pair):
    return pair[0] + pair[1]
print(h([tf.ones([2]), tf.ones([2])]), h([tf.ones([2]), tf.ones([2]) * 3]), h.experimental_get_tracing_count())
Point = collections.namedtuple("Point", ["x", "y"])
@tf.function
def norm(p):
    return tf.sqrt(p.x ** 2 + p.y ** 2)
print(norm(Point(tf.constant(3.0), tf.constant(4.0))), norm(Point(tf.constant(6.0), tf.constant(8.0))))
@tf.function
def kw(b, a):
    return a - b
print(kw(b=tf.constant(1.0), a=tf.constant(5.0)), kw(a=tf.constant(5.0), b=tf.constant(1.0)))
@tf.function
def step(batch):
    x, y = batch
    return tf.reduce_sum(x) - tf.reduce_sum(y)
ds = tf.data.Dataset.from_tensor_slices((tf.reshape(tf.range(8.0), [4, 2]), tf.ones([4, 2]))).batch(2)
print([float(step(b)) for b in ds], step.experimental_get_tracing_count())

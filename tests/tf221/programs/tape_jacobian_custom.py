# GradientTape.jacobian / batch_jacobian, tf.custom_gradient, and a symbolic tensor used as a Python bool in tf.function (issue 11).
import tensorflow as tf
x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as t:
    y = x * x * 2.0
print(t.jacobian(y, x))
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as t:
    t.watch(a)
    z = tf.matmul(a, a)
print(t.batch_jacobian(z, a))
@tf.custom_gradient
def log1pexp(x):
    e = tf.constant(2.718281828) * x if False else x * 3.0
    def grad(upstream):
        return upstream * 100.0
    return e, grad
v = tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch(v)
    r = log1pexp(v)
print(r, t.gradient(r, v))
@tf.function(autograph=False)
def g(x):
    if x > 0:
        return x
    return -x
try:
    g(tf.constant(1.0))
except Exception as e:
    print(type(e).__name__, isinstance(e, TypeError))
    print(str(e))
with tf.GradientTape(persistent=True) as t:
    p = tf.constant([1.0, 2.0])
    t.watch(p)
    q = p * p
print(t.jacobian(q, [p]), t.jacobian(q, p, unconnected_gradients="zero"))

# tf.function over a TensorSpec of unknown rank (TensorSpec(None, ...)): tf.rank, tf.size and the
# reductions without an axis (TensorFlow's range(0, rank(x))) in the traced graph, then called with
# tensors of several ranks; tf.size over an unknown batch dimension.
import tensorflow as tf
class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)
    @tf.function
    def __call__(self, x):
        return x * self.v
m = M()
c = m.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
print(c.structured_input_signature)
print(c(tf.constant(3.0)), c(tf.constant([[1., 2.]])))
@tf.function(input_signature=[tf.TensorSpec(None, tf.int32)])
def g(x):
    print("rank", x.shape.rank, tf.rank(x).shape, tf.size(x).shape)
    return tf.reduce_sum(x) + tf.size(x), tf.rank(x), tf.reduce_max(x), tf.reduce_mean(tf.cast(x, tf.float32))
print(g(tf.constant(1)))
print(g(tf.constant([[1, 2], [3, 4]])))
@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def h(x):
    n = tf.size(x)
    print("size", n.shape, n.dtype)
    return n, tf.size(x, out_type=tf.int64), tf.reduce_prod(x)
print(h(tf.ones([4, 3])))

"""A tf.Module made inside a name scope takes it into its own (TensorFlow's intro-to-modules
guide): ``name_scope.name`` is ``outer/inner/``; its ``with_name_scope`` methods name ops so."""
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([2, 2]), name="w")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w)


with tf.name_scope("outer"):
    inner = Dense(name="inner")
    with tf.name_scope("deeper"):
        deepest = Dense()
print(inner.name, inner.name_scope.name, [v.name for v in inner.variables])
print(deepest.name, deepest.name_scope.name)
print(Dense(name="top").name_scope.name)


@tf.function
def traced(x):
    return inner(x)


print(traced.get_concrete_function(tf.TensorSpec([1, 2])).graph.get_operations()[1].name)

# tf.py_function eagerly and inside tf.function, tf.init_scope, ConcreteFunction graph as a GraphDef (issue 11, item 2).
import tensorflow as tf
def np_square(x):
    return x.numpy() ** 2
print(tf.py_function(np_square, [tf.constant([1.0, 2.0])], tf.float32))
@tf.function
def f(x):
    y = tf.py_function(lambda v: v * 10.0, [x], tf.float32)
    with tf.init_scope():
        c = tf.constant(3.0)
        print("eager inside init_scope:", tf.executing_eagerly())
    return y + c
print(f(tf.constant([1.0, 2.0])), f(tf.constant([1.0, 2.0])))
g = f.get_concrete_function(tf.constant([1.0, 2.0])).graph.as_graph_def()
print(type(g).__name__, len(g.node) > 2, sorted({n.op for n in g.node} & {"EagerPyFunc", "Placeholder", "Identity"}))

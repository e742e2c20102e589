# Real TF 2.21 placement log: a TF1 graph run in a Session with log_device_placement=True.
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()

a = tf1.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
b = tf1.constant([[1.0], [1.0]], name="b")
c = tf1.matmul(a, b, name="c")
v = tf1.Variable(3.0, name="v")
d = tf1.add(c, v, name="d")
e = tf1.reduce_sum(d, name="e")

with tf1.Session(config=tf1.ConfigProto(log_device_placement=True)) as sess:
    sess.run(tf1.global_variables_initializer())
    print(sess.run(e))
    print(sess.run(e))

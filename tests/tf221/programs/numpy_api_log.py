"""tf.experimental.numpy's functions are ordinary ops: what a few calls log (TensorFlow logs
placement only when it is turned on before the first op)."""
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
tnp = tf.experimental.numpy
i = tnp.arange(6)
x = tnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
a = tnp.add(i, 1)
b = tnp.reshape(a, (3, 2))
c = tnp.zeros((2,))
d = tnp.mean(x)
e = tnp.matmul(x, tnp.transpose(x))
f = tnp.sum(i)
g = tnp.where(i > 2, i, 0)
tf.debugging.set_log_device_placement(False)
print(a, b, c, d, e, f, g, sep="\n")

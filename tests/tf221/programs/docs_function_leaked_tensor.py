# A tensor leaked out of a tf.function's trace (a global set in the body) used by another function is
# TensorFlow's TypeError: out of scope (its first lines and its last, the graph's id masked; the stack
# where the tensor was made, which devtrace does not keep, is not compared).
import re
import tensorflow as tf
@tf.function
def leaky_function(a):
    global x
    x = a + 1
    return x
print(leaky_function(tf.constant(1)).numpy())
try:
    x.numpy()
except AttributeError as expected:
    print("AttributeError:", expected)
@tf.function
def captures_leaked_tensor(b):
    b += x
    return b
try:
    captures_leaked_tensor(tf.constant(2))
except TypeError as e:
    lines = str(e).splitlines()
    print("TypeError:", lines[0])
    print(lines[1])
    print(re.sub(r"id=\d+", "id=N", lines[-1]))

"""tf.function signatures as TensorFlow prints them (pretty_printed_signature / _concrete_signatures, verbose or
not, Python values as Literal[...]), tf.py_function as a decorator, and a graph tensor leaked from a
tf.function (no numpy attribute) — cells of TensorFlow's tf.function guide."""
import tensorflow as tf
x = None
@tf.function
def leaky_function(a):
  global x
  x = a + 1
  return a + 2
leaky_function(tf.constant(1))
try:
  x.numpy()
except AttributeError as e:
  print("AttributeError", e)
@tf.py_function(Tout=tf.float32)
def py_plus(x, y):
  print('Executing eagerly.')
  return x + y
@tf.function
def tf_wrapper(x, y):
  print('Tracing.')
  return py_plus(x, y)
print(tf_wrapper(tf.constant(1.0), tf.constant(2.0)).numpy())
print(py_plus.__name__, callable(py_plus))
@tf.function
def double(a):
  return a + a
double(tf.constant(1)); double(tf.constant(1.5)); double("a")
print(double.pretty_printed_concrete_signatures())
print(double.pretty_printed_concrete_signatures(verbose=False))
@tf.function
def double(a):
  return a + a
double(tf.constant(1)); double(tf.constant(1.5)); double("a")
print(double.get_concrete_function("a").pretty_printed_signature())
print(double.get_concrete_function("a").structured_input_signature)
@tf.function
def f(x, y=2, *, z):
  return x * y + z
print(f.get_concrete_function(tf.constant(1), 3, z=tf.constant(2)).pretty_printed_signature())
print(f.get_concrete_function(tf.constant(1), 3, z=tf.constant(2)).pretty_printed_signature(verbose=False))
print(f.pretty_printed_concrete_signatures())

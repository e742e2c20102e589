# Calling a ConcreteFunction binds its arguments as TensorFlow does: the traced signature first (a
# Python value converted to its TensorSpec's dtype, a Python literal that must be equal), then the
# flat signature (tensors only); a tensor of another dtype fails in the call; the traced signature
# lists keyword arguments of positional parameters as positional.
import re
import tensorflow as tf
def show(call):
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, ":", re.sub(r"__inference_(\w+?)_\d+", r"__inference_\1_N", str(e)))
@tf.function
def double(a):
    return a + a
ds = double.get_concrete_function(tf.constant("a"))
for call in [lambda: ds(tf.constant(1)), lambda: ds(tf.constant(["a", "b"])), lambda: ds(tf.constant("z")),
             lambda: ds("q"), lambda: ds(1), lambda: ds(a=tf.constant("k"))]:
    show(call)
@tf.function
def pow(a, b):
    return a ** b
square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square.structured_input_signature)
print(square.pretty_printed_signature(verbose=False))
for call in [lambda: square(tf.constant(10.0)), lambda: square(tf.constant(10.0), b=3), lambda: square(tf.constant(10.0), 2),
             lambda: square(a=tf.constant(3.0)), lambda: square(tf.constant(10.0), b=2), lambda: square(tf.constant(10.0), 3),
             lambda: square(10.0), lambda: square("x"), lambda: square(tf.constant([1, 2]))]:
    show(call)

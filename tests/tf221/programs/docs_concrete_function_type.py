# A ConcreteFunction's function_type (str: the one-line signature, repr: the verbose one, with a Literal
# parameter too) and its inference_fn (an AtomicFunction, called with the tensors of its parameters).
import re
import tensorflow as tf
@tf.function
def double(a):
    return a + a
ds = double.get_concrete_function(tf.constant("a"))
print(ds.function_type)
print(repr(ds.function_type))
print(type(ds.function_type).__name__)
af = ds.inference_fn
print(type(af).__name__, re.sub(rb"_\d+$", b"_N", af.name))
print(af(tf.constant("a")))
@tf.function
def pow(a, b):
    return a ** b
print(pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2).function_type)

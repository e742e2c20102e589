# ConcreteFunction and tf.saved_model: signatures, outputs, pretty-printed signature, a saved module restored and run (issue 11, items 2-3).
import shutil
import tempfile

import tensorflow as tf


class Adder(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(10.0)
        self.inner = tf.Module()
        self.inner.scale = tf.Variable([2.0, 3.0])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def add(self, x):
        return x + self.v

    @tf.function
    def mul(self, x):
        return x * self.inner.scale + tf.constant([0.5, 0.5])


m = Adder()
cf = m.add.get_concrete_function()
print(cf.structured_input_signature)
print(cf.structured_outputs.shape, cf.structured_outputs.dtype)
print("\n".join(cf.pretty_printed_signature().splitlines()[:5]))
print(type(cf.name).__name__, cf.name.decode().startswith("__inference_add_"))
print(len(cf.inputs), len(cf.outputs), [t.dtype for t in cf.inputs])
print(m.mul(tf.constant([1.0, 1.0])))
print(repr(tf.Variable([[1.0, 2.0], [3.0, 4.0]])))
d = tempfile.mkdtemp()
tf.saved_model.save(m, d)
loaded = tf.saved_model.load(d)
print(loaded.add(tf.constant([1.0, 2.0])))
print(loaded.add(tf.constant([5.0])))
print(loaded.mul(tf.constant([1.0, 2.0])))
print(loaded.v, loaded.inner.scale)
m.v.assign(0.0)
print(loaded.add(tf.constant([1.0])), m.add(tf.constant([1.0])))
shutil.rmtree(d)

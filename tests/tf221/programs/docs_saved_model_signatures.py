# tf.saved_model.save's signatures (a concrete function of unknown rank as serving_default, a dict
# of two, none: then the module's one tf.function with an input signature, if only one) and the
# loaded object's .signatures: keys, structured outputs, calls by argument name returning dicts.
import os
import tempfile
import tensorflow as tf
class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)
    @tf.function
    def __call__(self, x):
        return x * self.v
class WithSignature(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32, name="ids")])
    def lookup(self, ids):
        return {"total": tf.reduce_sum(ids), "doubled": ids * 2}
    @tf.function
    def other(self, x):
        return x
tmp = tempfile.mkdtemp()
m = M()
c = m.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
tf.saved_model.save(m, os.path.join(tmp, "one"), signatures=c)
imp = tf.saved_model.load(os.path.join(tmp, "one"))
print(list(imp.signatures.keys()))
print(imp.signatures["serving_default"].structured_outputs)
print(imp.signatures["serving_default"](tf.constant([1.0, 4.0])))
print(imp.signatures["serving_default"](x=tf.constant(5.0)))
print(imp(tf.constant([[3.0]])))
sigs = {"serving_default": c, "array_input": m.__call__.get_concrete_function(tf.TensorSpec([None], tf.float32))}
tf.saved_model.save(m, os.path.join(tmp, "two"), signatures=sigs)
imp2 = tf.saved_model.load(os.path.join(tmp, "two"))
print(sorted(imp2.signatures.keys()), len(imp2.signatures))
print(imp2.signatures["array_input"](x=tf.constant([1.0, 2.0])))
tf.saved_model.save(M(), os.path.join(tmp, "none"))
print(len(tf.saved_model.load(os.path.join(tmp, "none")).signatures))
tf.saved_model.save(WithSignature(), os.path.join(tmp, "found"))
found = tf.saved_model.load(os.path.join(tmp, "found"))
print(list(found.signatures.keys()), found.signatures["serving_default"].structured_outputs)
print(found.signatures["serving_default"](ids=tf.constant([1, 2, 3])))

# An ExtensionType's Tensor field that cannot hold the value is TensorFlow's TypeError naming the
# field; tf.TensorSpec takes an int (one dimension) or an unknown TensorShape as its shape; a dataset
# iterator's next() is get_next().
import tensorflow as tf
class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
for args in [([1, 2, 3], None), ([1], {"a": 1}), ([1, 2], [True, False])]:
    try:
        print(MaskedTensor(*args).mask)
    except TypeError as e:
        print("TypeError:", e)
class P(tf.experimental.ExtensionType):
    n: int
try:
    P(n="q")
except TypeError as e:
    print("TypeError:", e)
print(tf.TensorSpec(2), tf.TensorSpec(tf.TensorShape(None), tf.int32), tf.TensorSpec([]))
class Pastry(tf.experimental.ExtensionType):
    sweetness: tf.Tensor
    chewiness: tf.Tensor
spec = Pastry.Spec(tf.TensorSpec([2]), tf.TensorSpec(2))
print(spec)
@tf.function(input_signature=[spec])
def sweeter(x):
    return Pastry(x.sweetness + 1.0, x.chewiness)
print(sweeter(Pastry([0.5, 1.0], [2.0, 3.0])))
it = iter(tf.data.Dataset.range(3))
print(it.next(), it.get_next(), next(it))

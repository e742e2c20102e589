# An ExtensionType's Tensor field that cannot hold the value is TensorFlow's TypeError naming the
# field; tf.TensorSpec takes an int (one dimension) or an unknown TensorShape as its shape; a dataset
# iterator's next() is get_next(); a function traced for an extension type of unknown rank.
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
class Grower(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(100.0)
    @tf.function
    def grow(self, x: MaskedTensor):
        return MaskedTensor(x.values * self.v, x.mask)
grower = Grower()
grow = grower.grow.get_concrete_function(MaskedTensor.Spec(tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.bool)))
print(grow.structured_outputs)
print(grower.grow(MaskedTensor([1., 2, 3], [False, True, False])))
@tf.function
def combine(x):
    return x.sweetness + x.chewiness
cf = combine.get_concrete_function(spec)
print(cf(Pastry([1.2, 0.4], [0.8, 0.2])))

# Everyday ops, values only: linspace, integer dtypes, indexing forms, iteration, operators, reductions with keepdims and negative axes (issue 10, areas 1, 2, 4).
import tensorflow as tf

x = tf.reshape(tf.range(24), [2, 3, 4])
f = tf.cast(x, tf.float32)
print(tf.linspace(0.0, 1.0, 5), tf.linspace(-2.0, 2.0, 3))
print(tf.constant([1, 2, 255], dtype=tf.uint8), tf.constant([-1, 1], tf.int8), tf.constant([7], tf.int16))
print(x[0], x[1, 2], x[:, 1:, ::2], x[..., -1], x[:, tf.newaxis, 0, :2].shape, x[-1, -1, -1])
print(x[tf.constant(1)], [row.numpy().tolist() for row in tf.constant([[1, 2], [3, 4]])])
print(f[::-1, ::-2, 1])
print(tf.reduce_mean(f, axis=-1), tf.reduce_max(f, axis=[0, 2], keepdims=True), tf.reduce_sum(f, axis=(0, 1)))
print(tf.reduce_mean(tf.constant([1, 2, 4])), tf.argmax(f, axis=-1, output_type=tf.int32))
print(f ** 0.5 // 1.0, -f % 5.0, abs(-f)[0, 0], tf.math.floormod(tf.constant([-7, 7]), 3))
b = tf.constant([True, False, True])
print(b & tf.constant([True, True, False]), b | tf.constant([False, False, False]), ~b, b ^ b)
print(tf.constant([6, 5]) & 3, tf.constant([6, 5]) | 8, ~tf.constant([0, 1]))
print(tf.transpose(x, [2, 0, 1]).shape, tf.concat([x, x], -1).shape, tf.stack([f, f], axis=-1).shape)
print(tf.squeeze(tf.zeros([1, 3, 1])).shape, tf.squeeze(tf.zeros([1, 3, 1]), axis=[2]).shape)
print(tf.where(tf.constant([[True, False], [False, True]])))
print(tf.gather(f, [1], axis=1).shape, tf.gather_nd(f, [[0, 1, 2], [1, 2, 3]]), tf.tile(tf.constant([1, 2]), [3]))
print(tf.one_hot([1, 0, 2], 3, on_value=5, off_value=-1), tf.one_hot([[0], [1]], 2, axis=0).shape)
print(tf.math.cumprod(tf.constant([1, 2, 3, 4])), tf.math.cumsum(tf.constant([1.0, 2.0, 3.0]), exclusive=True))
print(tf.math.cumsum(tf.constant([1.0, 2.0, 3.0]), reverse=True), tf.broadcast_to(tf.constant([1, 2]), [2, 2]))
print(tf.maximum(tf.constant([1, 5]), tf.constant([3, 2])), tf.minimum(3.0, tf.constant([1.0, 4.0])))
print(tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])), tf.math.squared_difference(3.0, 1.0))
print(tf.clip_by_value(tf.constant([-2.0, 0.5, 9.0]), 0.0, 1.0), tf.sign(tf.constant([-3, 0, 2])))
print(tf.math.is_nan(tf.constant([1.0, float("nan")])), tf.math.is_finite(tf.constant([float("inf"), 1.0])))
print(tf.nn.relu6(tf.constant([-1.0, 3.0, 9.0])), tf.nn.leaky_relu(tf.constant([-1.0, 2.0])))
print(tf.nn.log_softmax(tf.constant([1.0, 2.0, 3.0])), tf.nn.softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0))
print(tf.math.truediv(tf.constant([1, 2]), tf.constant([2, 4])), tf.constant([1, 2]) / tf.constant([2, 4]))
print(tf.zeros_like(x, dtype=tf.float32)[0, 0], tf.ones_like(f)[1, 2], tf.size(x), tf.rank(x), tf.shape(f))
print(tf.reverse(tf.constant([[1, 2, 3]]), [1]), tf.slice(x, [0, 1, 1], [1, 2, -1]))
print(tf.constant([1, 2]) == None, tf.constant([1, 2]) != None)
try:
    hash(tf.constant(1))
except TypeError as e:
    print("TypeError", e)
try:
    tf.constant(1) + tf.constant(1.0)
except Exception as e:
    print(type(e).__name__)
try:
    iter(tf.constant(1.0)).__next__()
except TypeError as e:
    print("TypeError", e)

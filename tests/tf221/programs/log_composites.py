# Which ops common calls execute: range, fill, ones, reductions, random, cast, matmul (issue 10, area 5).
import tensorflow as tf
tf.debugging.set_log_device_placement(True)
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print("range"); tf.range(5)
print("range3"); tf.range(1, 10, 2)
print("fill"); tf.fill([2, 2], 3.0)
print("ones"); tf.ones([3])
print("ones_int"); tf.ones([3], tf.int32)
print("reduce_sum_none"); tf.reduce_sum(x)
print("reduce_sum_list"); tf.reduce_sum(x, axis=[0, 1])
print("uniform"); tf.random.uniform([2])
print("cast"); tf.cast(x, tf.int32)
print("matmul_t"); tf.matmul(x, x, transpose_b=True)
print("add_n"); tf.add_n([x, x])
print("identity"); tf.identity(x)
print("neg"); -x
print("reshape_tensor"); tf.reshape(x, tf.constant([4]))
print("reshape_-1"); tf.reshape(x, [-1])

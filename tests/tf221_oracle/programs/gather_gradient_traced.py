import tensorflow as tf

# Inside a tf.function the gradient of an axis-0 gather is IndexedSlices (values reshaped to
# [size(indices)] + params.shape[1:], the flattened indices, the params' shape), as eagerly.
tf.debugging.set_log_device_placement(True)
v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
ids = tf.constant([[0, 2], [0, 1]])


@tf.function
def step(ids):
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v.value(), ids) * 2.0)
    g = t.gradient(y, v)
    print("traced", type(g).__name__, g.values.shape, g.indices.shape, g.dense_shape.shape)
    return g.values, g.indices


r = step(ids)
print([x.numpy().tolist() for x in r])

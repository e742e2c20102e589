# Inside a tf.function, shapes built from tf.shape(x) (a list mixing graph scalars and ints, packed
# as TensorFlow packs it): random.normal/uniform, reshape, zeros/ones/fill, tile and broadcast_to
# take them; their static shapes (the batch unknown, the other dimension known), and their values'
# shapes as the function runs with two batches.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec((None, 2), tf.float32)])
def shaped(a):
    batch = tf.shape(a)[0]
    outs = [tf.random.normal((batch, tf.shape(a)[1])), tf.random.normal(tf.shape(a)), tf.random.uniform((batch, 1)),
            tf.random.truncated_normal((batch, 3)), tf.reshape(a, (batch, -1, 1)), tf.zeros((batch, 3)),
            tf.ones((batch, 2), tf.int32), tf.fill((batch, 2), 7.0), tf.tile(a, (batch, 1)),
            tf.broadcast_to(tf.constant([1.0, 2.0]), (batch, 2))]
    for t in outs:
        print("static", t.shape)
    return outs


for n in (3, 5):
    print("run", n, [tuple(t.shape) for t in shaped(tf.ones((n, 2)))])
print(shaped(tf.ones((1, 2)))[6].numpy().tolist(), shaped(tf.ones((1, 2)))[7].numpy().tolist())

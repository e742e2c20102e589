import tensorflow as tf

tf.debugging.set_log_device_placement(True)
ds = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.from_tensors(x * 2).repeat(2))
print("built")
print(list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.range(1, 3).interleave(lambda x: tf.data.Dataset.range(x).map(lambda y: y + x), cycle_length=2)
print(list(ds.as_numpy_iterator()))
tf.debugging.set_log_device_placement(False)

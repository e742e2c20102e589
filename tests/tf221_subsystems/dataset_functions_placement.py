import tensorflow as tf

tf.debugging.set_log_device_placement(True)
ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3.0, 4.0])).map(lambda a, b: (a + 1, b * 2.0))
print("built")
for e in ds:
    print("element")
print("again")
print(list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.range(3).map(lambda x: x * 2 + 1).filter(lambda x: x > 1)
print(list(ds.as_numpy_iterator()))
print(list(tf.data.Dataset.range(2).map(lambda x: x - 1).repeat(3).as_numpy_iterator()))
tf.debugging.set_log_device_placement(False)

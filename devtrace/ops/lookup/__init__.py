"""``tf.lookup``: hash tables as TensorFlow's lookup ops."""

"""``tf.image``: its ops (resizes, color conversions, adjustments, boxes) and the Python functions TensorFlow composes from them."""

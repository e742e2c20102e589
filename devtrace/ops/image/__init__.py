"""``tf.image``: its ops (resizes, color conversions, adjustments, boxes, codecs) and the Python
functions TensorFlow composes from them."""

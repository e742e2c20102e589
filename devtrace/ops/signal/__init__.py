"""``tf.signal``: the FFT ops."""

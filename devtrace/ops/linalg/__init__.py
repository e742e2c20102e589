"""``tf.linalg``: the linear-algebra ops and their gradients."""

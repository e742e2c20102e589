"""``tf.summary``'s ops: TensorBoard event files."""

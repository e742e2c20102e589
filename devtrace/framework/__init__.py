"""TensorFlow's ``python/framework`` pieces that sit above ``tf.function``: ``TypeSpec`` and
extension types (``tf.experimental.ExtensionType``), and type-based dispatch to them."""

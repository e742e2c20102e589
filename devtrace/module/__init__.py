"""``tf.Module`` and ``tf.name_scope`` (TensorFlow's ``python/module/module.py``)."""

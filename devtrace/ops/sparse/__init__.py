"""Sparse values: ``tf.SparseTensor`` and its ops, and ``tf.IndexedSlices`` (sparse gradients)."""

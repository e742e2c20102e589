"""``tf.RaggedTensor``: the composite tensor, its shapes, its ops and the dispatch of ordinary ops
over ragged operands."""

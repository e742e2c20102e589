"""Array ops: shapes, slicing and indexing, scatter/gather, split, sort, broadcasting, and their
gradients."""

"""``tf.nn``: the neural-network ops (``nn_ops`` kernels, ``nn_impl`` composites), softmax
cross-entropy in graphs, and the gradients of both and of a dense layer's ops."""

"""Gradients: ``tf.GradientTape`` and ``tf.custom_gradient`` (``backprop``), the graph gradients of
``tf.gradients`` and of functions (``graph_gradients``), and the gradients of ``tf.cond`` and
``tf.while_loop`` (``cond_grad``, ``while_grad``). TensorFlow keeps these in ``python/eager/backprop.py``,
``python/ops/gradients_impl.py``, ``cond_v2.py`` and ``while_v2.py``; the room is not called
``gradients`` because ``tf.gradients`` is a function."""

"""Control flow: ``tf.cond``/``tf.while_loop`` as functional ops (``control_flow_v2``), TF1
``Switch``/``Merge``, tensor lists and ``TensorArray``, optionals."""

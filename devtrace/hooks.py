"""Hooks the layers above the runtime register without the runtime importing them.

``CONTEXT_CREATED``: called with every new runtime context (the package's ``__init__`` puts the
console there, which prints warnings and the live placement log).
``LOAD_OPS``: called once, the first time the op registry misses a name: the package's
``__init__`` imports ``devtrace.ops`` there, so that a program whose first call is, say,
``tf.Variable(3.0)`` finds ``_EagerConst`` declared.
``DISTRIBUTION``: ``where()`` → ``(strategy, replica id)`` inside a distribution strategy's
``scope()`` (replica id None) or ``run`` (the replica's), else None; ``devtrace.distribute``
registers it, ``tf.random.Generator`` asks it (its draws differ per replica, as TensorFlow's).
``API_REPLACED``: called with ``(old, new)`` when a public function is replaced by one that
dispatches (``tf.experimental.dispatch_for_api``): the package's ``__init__`` updates the
attributes it and ``import tensorflow``'s modules keep.
"""

API_REPLACED: list = []
CONTEXT_CREATED: list = []
LOAD_OPS: list = []
DISTRIBUTION: list = []

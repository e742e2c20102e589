"""Helpers with no layer of their own: ``tf.nest``'s structures (``nest``) and the namespaces whose
missing names say that devtrace lacks them (``namespace``; the runtime uses it, so it is not in ``api``)."""

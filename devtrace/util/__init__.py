"""Helpers with no layer of their own, below the runtime: ``tf.nest``'s structures (``nest``), the
namespaces whose missing names say that devtrace lacks them (``namespace``: the runtime's tensors
use it, so it cannot live in ``api``) and Ctrl-C that stops a program even inside a finalizer
(``interrupts``: the trace's writers use it)."""

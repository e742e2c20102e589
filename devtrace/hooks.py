"""Hooks the layers above the runtime register without the runtime importing them.

``CONTEXT_CREATED``: called with every new runtime context (the package's ``__init__`` puts the
console there, which prints warnings and the live placement log).
"""

CONTEXT_CREATED: list = []

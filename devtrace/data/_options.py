"""``tf.data.Options``: a pipeline's options, held and merged as TensorFlow holds them. devtrace's
pipelines run in order on one thread, so the options change no element; they are kept so that a
program that sets and reads them runs."""

from __future__ import annotations

import types

_NESTED = ("autotune", "experimental_distribute", "experimental_optimization", "experimental_service",
           "threading")
_PLAIN = ("dataset_name", "deterministic", "experimental_deterministic", "experimental_external_state_policy",
          "experimental_slack", "experimental_symbolic_checkpoint", "experimental_warm_start", "framework_type")


class Options:
    """Every option unset (None) until a program sets it; setting a name TensorFlow lacks raises."""

    def __init__(self):
        for name in _PLAIN:
            object.__setattr__(self, name, None)
        for name in _NESTED:
            object.__setattr__(self, name, types.SimpleNamespace())

    @property
    def experimental_threading(self):
        return self.threading

    def __setattr__(self, name, value):
        if name not in _PLAIN and name not in _NESTED:
            raise AttributeError(f"Cannot set the property {name} on Options.")
        if name == "experimental_deterministic":
            object.__setattr__(self, "deterministic", value)
        object.__setattr__(self, name, value)

    def merge(self, options):
        """These options with ``options``'s set ones on top."""
        out = Options()
        for source in (self, options):
            for name in _PLAIN:
                if getattr(source, name) is not None:
                    object.__setattr__(out, name, getattr(source, name))
            for name in _NESTED:
                getattr(out, name).__dict__.update(vars(getattr(source, name)))
        return out

    def __eq__(self, other):
        return isinstance(other, Options) and all(getattr(self, n) == getattr(other, n) for n in _PLAIN + _NESTED)

    __hash__ = None

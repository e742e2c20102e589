"""A ``ConcreteFunction``'s ``function_type`` (printed as TensorFlow prints its ``FunctionType``:
``str`` the one-line signature, ``repr`` the verbose one) and ``inference_fn`` (its
``AtomicFunction``: the traced graph called with the tensors of its parameters, in order)."""

from __future__ import annotations


class FunctionType:
    def __init__(self, concrete):
        self._concrete = concrete

    def __str__(self):
        return self._concrete.pretty_printed_signature(verbose=False)

    def __repr__(self):
        return self._concrete.pretty_printed_signature(verbose=True)


class AtomicFunction:
    def __init__(self, concrete):
        self._concrete = concrete
        self.function_type = FunctionType(concrete)

    @property
    def name(self) -> bytes:
        return self._concrete.name

    def __call__(self, *args):
        return self._concrete._call_flat(list(args))

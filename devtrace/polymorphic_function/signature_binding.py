"""A call's arguments against a ``tf.function``'s ``input_signature``: TensorFlow's binding error,
which names each parameter with its spec (``(x: TensorSpec(...))``), and a RaggedTensor's check (its
flat values' spec against the ``RaggedTensorSpec``'s)."""

from __future__ import annotations

from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec


def binding_error(function, shown, spec, args, kwargs):
    """``function``: the ``tf.function`` (its parameters' names and its input signature)."""
    signature = function.input_signature
    signature = ", ".join(f"{n}: {s!r}" for n, s in zip(function._parameter_names(len(signature)), signature))
    raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast {shown!r} to {spec!r}`. Received "
                    f"args: {args} and kwargs: {kwargs} for signature: ({signature}).")


def check_ragged(function, args, kwargs, tensor_spec):
    """A RaggedTensor's flat values against its ``RaggedTensorSpec``'s dtype, as TensorFlow binds it
    (``tensor_spec``: the ``TensorSpec`` class)."""
    for value, spec in zip(args, function.input_signature):
        if isinstance(value, RaggedTensor) and isinstance(spec, RaggedTensorSpec) and value.dtype != spec.dtype:
            inner = list(spec.shape)[spec.ragged_rank + 1:] if spec.shape.rank is not None else None
            binding_error(function, tensor_spec.from_tensor(value.flat_values),
                          tensor_spec(None if inner is None else [None] + inner, spec.dtype), args, kwargs)

"""Calling a ``ConcreteFunction`` as TensorFlow 2.21 binds its arguments: first against the traced
signature (the Python function's parameters, each a ``TensorSpec`` — a Python value converted to its
dtype — or a Python value that must be equal), then, if that fails, against the flat signature (the
tensor parameters alone, each given a tensor); both failing is one ``TypeError`` naming both. A
tensor of another dtype than its spec's reaches the call, which fails as TensorFlow's function op."""

from __future__ import annotations

import inspect

from ..errors import InvalidArgumentError
from ..runtime.tensor import Tensor
from ..runtime.values import convert_to_tensor


def bind(concrete, spec_class, args, kwargs):
    """The call's tensors in the order of the traced ``TensorSpec`` parameters; ``None`` where this
    binding does not apply (no Python function, nested or non-tensor structures)."""
    function = getattr(concrete, "_function", None)
    python = getattr(function, "python_function", None)
    spec_args, spec_kwargs = concrete.structured_input_signature
    leaves = list(spec_args) + list(spec_kwargs.values())
    if python is None or any(isinstance(v, (list, tuple, dict)) or hasattr(v, "_type_spec") for v in leaves) \
            or any(isinstance(v, (list, tuple, dict)) for v in list(args) + list(kwargs.values())):
        return None
    try:
        signature = inspect.signature(python)
        specs = signature.bind(*spec_args, **spec_kwargs).arguments
    except (TypeError, ValueError):
        return None
    try:
        tensors = _structured(signature, specs, spec_class, args, kwargs)
    except TypeError as structured:
        try:
            tensors = _flat(python.__name__, specs, spec_class, args, kwargs)
        except TypeError as flat:
            raise TypeError(f"Binding inputs to tf.function failed due to `{structured}`. Received args: {args} and "
                            f"kwargs: {kwargs} for signature: {concrete.pretty_printed_signature(verbose=False)}.\n"
                            f"Fallback to flat signature also failed due to: {flat}.") from None
    name = concrete.graph.name
    for i, (t, spec) in enumerate(zip(tensors, [s for s in specs.values() if isinstance(s, spec_class)])):
        if t.dtype != spec.dtype:
            raise InvalidArgumentError(f"cannot compute {name} as input #{i}(zero-based) was expected to be a "
                                       f"{spec.dtype.c_name} tensor but is a {t.dtype.c_name} tensor [Op:{name}]")
    return tensors


def _structured(signature, specs, spec_class, args, kwargs) -> list:
    values = signature.bind(*args, **kwargs).arguments
    tensors = []
    for name, spec in specs.items():
        if name not in values:
            raise TypeError(f"missing a required argument: '{name}'")
        value = values[name]
        if isinstance(spec, spec_class):
            if not isinstance(value, Tensor):
                try:
                    value = convert_to_tensor(value, spec.dtype)
                except (TypeError, ValueError):
                    raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {spec.dtype.name}") from None
            tensors.append(value)
        elif not (type(value) is type(spec) and value == spec):
            raise TypeError(f"Can not cast {value!r} to Literal[{spec!r}]")
    return tensors


def _flat(fname, specs, spec_class, args, kwargs) -> list:
    params = [name for name, spec in specs.items() if isinstance(spec, spec_class)]
    head = f"{fname}({', '.join(params)})"
    if len(args) > len(params):
        raise TypeError(f"{head} takes {len(params)} positional arguments, got {len(args)}")
    unexpected = [k for k in kwargs if k not in params]
    if unexpected:
        raise TypeError(f"{head} got unexpected keyword arguments: {', '.join(unexpected)}")
    values = list(args) + [kwargs[p] for p in params[len(args):] if p in kwargs]
    if len(values) < len(params):
        raise TypeError(f"{head} missing required arguments: {', '.join(params[len(values):])}")
    for i, value in enumerate(values):
        if not isinstance(value, Tensor):
            raise TypeError(f"{head}: expected argument #{i}(zero-based) to be a Tensor; got "
                            f"{type(value).__name__} ({value})")
    return values

"""``keras.ops`` on ``KerasTensor``s (``ops.expand_dims(inputs, -1) * inputs`` in a functional model):
as Keras 3's ``Operation.symbolic_call``, each call makes a node of the graph — named after the op
(``expand_dims (ExpandDims)``) — whose output shape comes from the op traced on ``TensorSpec``s of
the symbolic inputs, and which runs the op when the model runs."""

from __future__ import annotations

import functools

import devtrace as tf

# meta and control-flow functions: they take KerasTensors as they are, or never get them
_AS_GIVEN = {"cast", "cond", "convert_to_numpy", "convert_to_tensor", "custom_gradient", "dtype", "fori_loop",
             "is_tensor", "jvp", "ndim", "shape", "switch", "while_loop"}


def _keras_tensor():
    from ..engine import KerasTensor

    return KerasTensor


def _slots(args, kwargs, keras_tensor):
    """Where the KerasTensors are: ``(("arg", i), …)``, ``(("arg", i, j), …)`` inside a list argument,
    ``(("kw", name), …)``."""
    found = []
    for i, a in enumerate(args):
        if isinstance(a, keras_tensor):
            found.append(("arg", i))
        elif isinstance(a, (list, tuple)):
            found.extend(("arg", i, j) for j, v in enumerate(a) if isinstance(v, keras_tensor))
    found.extend(("kw", k) for k, v in kwargs.items() if isinstance(v, keras_tensor))
    return found


def _get(args, kwargs, slot):
    if slot[0] == "kw":
        return kwargs[slot[1]]
    return args[slot[1]] if len(slot) == 2 else args[slot[1]][slot[2]]


def _filled(args, kwargs, slots, values):
    args, kwargs = list(args), dict(kwargs)
    for slot, value in zip(slots, values):
        if slot[0] == "kw":
            kwargs[slot[1]] = value
        elif len(slot) == 2:
            args[slot[1]] = value
        else:
            items = list(args[slot[1]])
            items[slot[2]] = value
            args[slot[1]] = type(args[slot[1]])(items) if isinstance(args[slot[1]], tuple) else items
    return args, kwargs


def _output_shape(fn, args, kwargs, slots, tensors):
    from ...polymorphic_function.function import function as tf_function

    specs = [tf.TensorSpec(t.shape, t.dtype) for t in tensors]
    out = tf_function(lambda *ts: fn(*_filled(args, kwargs, slots, ts)[0], **_filled(args, kwargs, slots, ts)[1])) \
        .get_concrete_function(*specs).structured_outputs
    if isinstance(out, (list, tuple)):
        return [tuple(o.shape.as_list()) for o in out]
    return tuple(out.shape.as_list())


def symbolic(name, fn):
    """``fn`` that, given a KerasTensor, makes the graph's node instead of running."""
    if name in _AS_GIVEN or getattr(fn, "_keras_symbolic", False):
        return fn

    @functools.wraps(fn)
    def op(*args, **kwargs):
        keras_tensor = _keras_tensor()
        slots = _slots(args, kwargs, keras_tensor)
        if not slots:
            return fn(*args, **kwargs)
        from ..symbolic_ops import _operation_class

        tensors = [_get(args, kwargs, s) for s in slots]
        shape = _output_shape(fn, args, kwargs, slots, tensors)

        def run(*values):
            a, k = _filled(args, kwargs, slots, values)
            return fn(*a, **k)
        node = _operation_class("".join(p.title() for p in name.split("_")))(run, shape)
        return node(tensors if len(tensors) > 1 else tensors[0])
    op._keras_symbolic = True
    return op


def install(module, names) -> None:
    """Each of ``names`` in ``module`` made symbolic-aware, in place."""
    for name in names:
        value = getattr(module, name, None)
        if callable(value) and not isinstance(value, type) and not hasattr(value, "__path__"):
            setattr(module, name, symbolic(name, value))

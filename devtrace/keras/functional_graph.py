"""A functional model's graph of ``KerasTensor``s: its layers in Keras's order (``_map_graph``), the
walk that runs it on values, the history its config writes, and the shapes and inputs it checks."""

from __future__ import annotations

import inspect

import devtrace as tf
from .engine import KerasTensor

def _as_input(value, keras_input):
    """A graph's input as Keras converts it: a tensor of its ``Input``'s dtype (bool or int data
    given to a float32 ``Input`` is cast); a ``tf.SparseTensor`` for a sparse ``Input``."""
    if isinstance(value, tf.SparseTensor):
        if isinstance(keras_input, KerasTensor) and value.dtype.name != keras_input.dtype:
            value = tf.SparseTensor(value.indices, tf.cast(value.values, keras_input.dtype), value.dense_shape)
        return value
    value = tf.convert_to_tensor(value)
    if isinstance(keras_input, KerasTensor) and value.dtype.name != keras_input.dtype:
        value = tf.cast(value, keras_input.dtype)
    if isinstance(keras_input, KerasTensor) and value.shape.rank is not None:
        # Keras's _adjust_input_rank: a trailing axis of 1 added or dropped to match the Input's rank
        rank, want = value.shape.rank, len(keras_input.shape)
        if rank == want + 1 and value.shape[-1] == 1:
            value = tf.squeeze(value, axis=-1)
        elif rank == want - 1 and keras_input.shape[-1] == 1:
            value = tf.expand_dims(value, axis=-1)
    return value


def _history(inputs):
    """A node's arguments as Keras's config writes them: each tensor by its layer, node and index."""
    if isinstance(inputs, (list, tuple)):
        return [_history(t) for t in inputs]
    return {"class_name": "__keras_tensor__", "config": {"shape": list(inputs.shape), "dtype": inputs.dtype,
                                                         "keras_history": [inputs._layer.name, inputs._node_index, 0]}}


def _tensors_of(args, outputs):
    if isinstance(args, list):
        return [_tensors_of(a, outputs) for a in args]
    name, node, _ = args["config"]["keras_history"]
    return outputs[(name, node)]


def _data_shape(inputs):
    if isinstance(inputs, dict):
        return {k: _data_shape(v) for k, v in inputs.items()}
    if isinstance(inputs, (list, tuple)):
        return [_data_shape(i) for i in inputs]
    return _value_shape(inputs)


def _shapes(tensors, model, kind):
    if tensors is None:
        raise AttributeError(f"Sequential model '{model.name}' has no defined {kind} shape yet.")
    shapes = [tuple(t.shape) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _value_shape(value) -> tuple:
    """A batch's shape (a ``tf.SparseTensor``'s dense shape, for a sparse ``Input``)."""
    if isinstance(value, tf.SparseTensor):
        return tuple(int(d) for d in value.dense_shape.numpy())
    return tuple(tf.convert_to_tensor(value).shape)


def _unique_list(items) -> list:
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def _takes_training(layer) -> bool:
    return "training" in inspect.signature(layer.call).parameters


def _flat(tensors) -> list:
    if isinstance(tensors, dict):  # keras.tree.flatten: by sorted key
        return [t for key in sorted(tensors) for t in _flat(tensors[key])]
    if isinstance(tensors, (list, tuple)):
        return [t for item in tensors for t in _flat(item)]
    return [tensors]


def _topological(outputs, inputs=None) -> list:
    """The layers a graph runs (its ``InputLayer``s too) in Keras's order (``_map_graph``): by
    depth from the outputs, deepest first; within a depth, in the order a walk from the outputs
    first meets them."""
    given = {id(t) for t in _flat(inputs)} if inputs is not None else set()
    order, index, done = [], {}, set()

    def visit(t):
        if t._layer is None or (id(t._layer), t._node_index) in done:
            return
        index.setdefault(id(t._layer), (len(index), t._layer))
        if id(t) not in given:
            for parent in _parents(t):
                visit(parent)
        done.add((id(t._layer), t._node_index))
        order.append(t)

    for t in _flat(outputs):
        visit(t)
    node_depth, layer_depth = {}, {}
    for t in reversed(order):
        key = (id(t._layer), t._node_index)
        depth = max(node_depth.setdefault(key, 0), layer_depth.get(id(t._layer), 0))
        layer_depth[id(t._layer)] = node_depth[key] = depth
        for parent in [] if id(t) in given else _parents(t):
            parent_key = (id(parent._layer), parent._node_index)
            node_depth[parent_key] = max(depth + 1, node_depth.get(parent_key, 0))
    ranked = sorted(index.values(), key=lambda item: (-layer_depth[id(item[1])], item[0]))
    return [layer for _, layer in ranked]


def _parents(t) -> list:
    """The symbolic tensors a layer call read: its inputs, tensor keyword arguments (an attention
    layer's ``value=``) and tensors among its other call arguments."""
    extra = list(_tensor_kwargs(t).values()) + [v for v in getattr(t, "_call_args", ())
                                                 if isinstance(v, (KerasTensor, list, tuple))]
    return [p for p in _flat(t._inputs) + _flat(extra) if isinstance(p, KerasTensor)]


def _run(t, values, training):
    if isinstance(t, dict):
        return {key: _run(item, values, training) for key, item in t.items()}
    if isinstance(t, (list, tuple)):
        return [_run(item, values, training) for item in t]
    if id(t) in values:
        return values[id(t)]
    args = _run(t._inputs, values, training)
    kwargs = dict(getattr(t, "_call_kwargs", {}))
    kwargs.update({k: _run(v, values, training) for k, v in _tensor_kwargs(t).items()})
    if _takes_training(t._layer) and "training" not in kwargs:
        kwargs["training"] = training
    extra = [_run(v, values, training) if isinstance(v, KerasTensor) or isinstance(v, (list, tuple)) and
             any(isinstance(x, KerasTensor) for x in v) else v for v in getattr(t, "_call_args", ())]
    out = t._layer(args, *extra, **kwargs)
    if getattr(t, "_siblings", None) is not None:  # one call, several outputs
        for sibling, value in zip(t._siblings, out):
            values[id(sibling)] = value
        return values[id(t)]
    values[id(t)] = out
    return out


def _tensor_kwargs(t) -> dict:
    """The symbolic call's keywords that hold ``KerasTensor``s (``initial_state=[h, c]``)."""
    def symbolic(v):
        return isinstance(v, KerasTensor) or isinstance(v, (list, tuple)) and any(isinstance(x, KerasTensor) for x in v)
    return {k: v for k, v in getattr(t, "_call_kwargs", {}).items() if symbolic(v)}

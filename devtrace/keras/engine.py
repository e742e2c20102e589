"""Keras's layer machinery: ``Layer`` (build on first call, ``add_weight``, input checks), the
symbolic ``KerasTensor`` and the ``Node`` each symbolic call records (what a functional model and
``summary()`` read), ``InputLayer`` / ``Input``, and Keras's error texts for bad inputs."""

from __future__ import annotations

import contextlib
import inspect

import numpy as np

import devtrace as tf
from ..module.module import Module
from ..runtime.context import context
from ..runtime.graph.graph import get_default_graph
from ..util import nest
from .naming import _UIDS, snake, unique  # noqa: F401 (engine.snake, engine._UIDS: their old home)
from . import config, constraints, dtype_policies, layer_configs, initializers, keywords, masking, regularizers, serializable, variables

class KerasTensor:
    """A symbolic input or layer output of a functional model: a shape and the node that made it."""

    def __init__(self, shape, dtype="float32", layer=None, inputs=(), node_index=0, name=None):
        self.shape, self.dtype, self._layer, self._inputs = tuple(shape), dtype, layer, inputs
        self._node_index, self._tensor_index = node_index, 0
        self.name = name or unique("keras_tensor")  # Keras's auto name: keras_tensor, keras_tensor_1 …
        self._siblings, self._call_kwargs, self._call_args = None, {}, ()
        self.sparse = False

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse={self.sparse}, ragged=False, "
                f"name={self.name}>")


class Node:
    """One symbolic call of a layer: its input tensors (flat) and its output."""

    def __init__(self, layer, inputs, output):
        self.layer, self.output = layer, output
        self.input_tensors = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]


def is_symbolic(inputs) -> bool:
    if isinstance(inputs, (list, tuple)):
        return bool(inputs) and isinstance(inputs[0], KerasTensor)
    return isinstance(inputs, KerasTensor)


def _tensor_like(value) -> bool:
    return (value is None or isinstance(value, (KerasTensor, tf.SparseTensor, tf.RaggedTensor)) or tf.is_tensor(value)
            or hasattr(value, "__array__"))  # an array Keras converts to a tensor before it checks


def check_positional(layer, args) -> None:
    """Keras 3's rule: a layer's positional arguments are tensors (or arrays, ``None``), nested or not;
    a Python value (a list of floats, ``True``) goes by keyword."""
    if layer._allow_non_tensor_positional_args:
        return
    for arg in nest.flatten(args):
        if not _tensor_like(arg):
            raise ValueError("Only input tensors may be passed as positional arguments. The following argument "
                             f"value should be passed as a keyword argument: {arg} (of type {type(arg)})")


def check_training_positional(layer, args, owner=None) -> None:
    """Keras 3 binds positional arguments to ``call()``'s signature, then passes the ``training`` it
    resolved by keyword: one given positionally (and not ``None``) reaches ``call()`` twice, Python's
    ``TypeError`` (``owner``: the class its message names, ``Functional`` for a functional model)."""
    if not args:
        return
    params = list(inspect.signature(layer.call).parameters.values())[1:]  # after the inputs
    for param, value in zip(params, args):
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            return
        if param.name == "training" and value is not None:
            name = f"{owner}.call" if owner else type(layer).call.__qualname__
            raise TypeError(f"{name}() got multiple values for argument 'training'")


def shape_of(inputs):
    """The static shape; ``None`` for a graph tensor of unknown rank (inside a ``tf.function``)."""
    if isinstance(inputs, dict):
        return {k: shape_of(v) for k, v in inputs.items()}
    if isinstance(inputs, (list, tuple)):
        return [shape_of(i) for i in inputs]
    if isinstance(inputs, KerasTensor):
        return tuple(inputs.shape)
    shape = inputs.shape if isinstance(inputs, tf.SparseTensor) else tf.convert_to_tensor(inputs).shape
    return tuple(shape) if shape.rank is not None else None


_NOT_GIVEN = object()


def as_tensors(inputs):
    """Keras converts NumPy inputs to tensors first (floats to the layer's float32)."""
    if isinstance(inputs, dict):
        return {k: as_tensors(v) for k, v in inputs.items()}
    if isinstance(inputs, (list, tuple)):
        return [as_tensors(i) for i in inputs]
    if isinstance(inputs, np.ndarray):
        return tf.constant(inputs.astype(np.float32) if inputs.dtype.kind == "f" else inputs)
    return inputs


def _trackable(value) -> bool:
    """A variable, a layer or module, an optimizer, or a list or dict holding one."""
    if isinstance(value, (tf.Variable, Module)) or hasattr(value, "_trackable_children"):
        return True
    if isinstance(value, dict):
        return any(_trackable(v) for v in value.values())
    return isinstance(value, (list, tuple)) and any(_trackable(v) for v in value)


class Layer(serializable.Configurable, Module):
    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None, input_dim=None, autocast=True,
                 **kwargs):
        self._weight_constraints = _take_constraints(self, kwargs)
        keywords.check_layer(self, kwargs)
        if config.floatx() != "float32" or config.image_data_format() != "channels_last":
            arguments = dict(serializable.init_config(self), dtype=dtype)
            if "data_format" in keywords.ARGS.get(keywords.keras_class(self), {}):
                arguments.setdefault("data_format", None)  # Keras's default: the global setting
            config.check_layer(self, arguments)
        input_shape = (input_dim,) if input_dim is not None else input_shape
        name = name or unique(snake(type(self).__name__))
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. Received: "
                             f"name={name} (of type {type(name)})")
        super().__init__(name=name if name.isidentifier() else None)
        self._name, self._scope_name = name, name + "/"  # Keras's need not be identifiers: "mobilenetv2_1.00_224"
        self._trainable, self.built = bool(trainable), False
        self._layer_weights: list = []
        self._regularized: list = []  # (variable, regularizer)
        self._inbound_nodes: list = []
        self._build_shape = self._build_output_shape = None
        self._input_axes: dict = {}  # InputSpec(axes=…) once built: {axis: size}
        self._batch_input_shape = (None,) + tuple(input_shape) if input_shape is not None else None
        self._dtype_policy = dtype_policies.get(dtype)  # dtype=None: the global policy as it is now
        self.autocast = autocast

    @property
    def dtype_policy(self):
        """The layer's ``DTypePolicy``: its ``dtype=``, else the global policy when it was made."""
        policy = self.__dict__.get("_dtype_policy")
        return policy if policy is not None else dtype_policies.get(None)

    @dtype_policy.setter
    def dtype_policy(self, value):
        self._dtype_policy = dtype_policies.get(value)

    @property
    def compute_dtype(self):
        return self.dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self.dtype_policy.variable_dtype

    @property
    def dtype(self):
        """Keras's: the variable dtype."""
        return self.dtype_policy.variable_dtype

    @property
    def input_dtype(self):
        """The dtype float inputs are cast to as the layer is called (its compute dtype)."""
        return self.compute_dtype

    _convert_input_args = True  # False: inputs are taken as they come (Keras's preprocessing layers)
    _allow_non_tensor_positional_args = False  # True: a positional argument may be a Python value (Keras's preprocessing layers, functional models)

    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable=True, autocast=True,
                   regularizer=None, constraint=None, aggregation="none", overwrite_with_gradient=False, name=None):
        """Keras 3's signature: ``shape``, ``initializer``, ``dtype`` may come positionally (in that
        order); the initializer defaults to glorot_uniform for floats, zeros otherwise."""
        keywords.unimplemented("Layer.add_weight", aggregation=(aggregation, "none"),
                               overwrite_with_gradient=(overwrite_with_gradient, False))
        if len(args) > 3:
            raise TypeError(f"add_weight() takes at most 3 positional arguments but {len(args)} were given.")
        if args and isinstance(args[0], str):
            raise ValueError(f"`name` must be passed as a keyword argument. Received: add_weight('{args[0]}', ...). "
                             f"Use: add_weight(shape=..., name='{args[0]}').")
        shape, initializer, dtype = (list(args) + [shape, initializer, dtype][len(args):])[:3]
        dtype = tf.as_dtype(dtype or self.variable_dtype)
        initializer = initializer or ("glorot_uniform" if dtype.is_floating else "zeros")
        scope = _name_scope()  # tf.init_scope keeps the name scope, as TensorFlow's does
        with tf.init_scope(), tf.name_scope(scope) if scope else contextlib.nullcontext():
            # built on a first call inside a tf.function: made eagerly, as Keras makes its variables
            value = initializers.get(initializer)(tuple(shape or ()), dtype=dtype.name)  # as Keras calls it
            with tf.name_scope(self.name):
                v = variables.make(value, name or "weight", trainable, autocast)
        constraint = constraints.get(constraint) if constraint is not None else \
            self.__dict__.get("_weight_constraints", {}).get(name)
        if constraint is not None:  # optimizers apply it after each update (Keras's)
            v._constraint = constraint
        self._layer_weights.append(v)
        if regularizer is not None:
            self._regularized.append((v, regularizers.get(regularizer)))
        return v

    def add_loss(self, loss) -> None:
        """A loss ``call`` adds (Keras forgets them as the outermost layer's next call begins)."""
        self.__dict__.setdefault("_added_losses", []).append(tf.convert_to_tensor(loss))

    @property
    def losses(self) -> list:
        """The losses ``call`` added (this layer's, then its sublayers'), then the regularization
        losses of its trainable weights, sublayers' too (computed now, as Keras 3 does)."""
        layers = [self] + self._all_sublayers()
        added = [loss for layer in layers for loss in layer.__dict__.get("_added_losses", ())]
        penalties = {id(v): penalty for layer in layers for v, penalty in getattr(layer, "_regularized", ())}
        return added + [penalties[id(v)](v) for v in self.trainable_weights if id(v) in penalties]

    @property
    def trainable(self) -> bool:
        return self.__dict__.get("_trainable", True)

    @trainable.setter
    def trainable(self, value):
        """Keras's: sets the sublayers' too."""
        self._trainable = bool(value)
        try:
            children = self._child_layers()
        except AttributeError:  # a model still being constructed
            children = []
        for layer in children:
            layer.trainable = value

    def _child_layers(self) -> list:
        """The layers held as attributes (in lists, tuples and dicts too), in the order they were
        assigned, each once: Keras's ``_layers``."""
        found, seen = [], {id(self)}

        def visit(value):
            if isinstance(value, Layer):
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(value)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)
            elif isinstance(value, dict):
                for item in value.values():
                    visit(item)

        for name, value in vars(self).items():
            if name not in self._UNTRACKED:
                visit(value)
        return found

    def _all_sublayers(self) -> list:
        """Every layer below this one, depth first, each once (Keras's ``_flatten_layers``)."""
        found, seen = [], {id(self)}
        stack = list(reversed(self._child_layers()))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            found.append(layer)
            stack.extend(reversed(layer._child_layers()))
        return found

    def build(self, input_shape):
        self.built = True

    def get_config(self) -> dict:
        """Keras's: the name, ``trainable``, the dtype policy, then the constructor's arguments."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": serializable.dtype_policy(self.dtype_policy.name)}
        config.update((k, v) for k, v in serializable.init_config(self).items()
                      if k not in config and not (k in ("input_shape", "input_dim") and v is None))
        return layer_configs.as_keras(self, config)

    @classmethod
    def from_config(cls, config):
        config = {k: serializable.deserialize(v) if serializable.is_serialized(v) else v for k, v in config.items()}
        if config.get("dtype") in ("float32", None):
            config.pop("dtype", None)
        try:
            return cls(**config)
        except Exception as e:  # noqa: BLE001 (Keras's text, naming the class and its config)
            raise TypeError(f"Error when deserializing class '{cls.__name__}' using config={config}.\n\n"
                            f"Exception encountered: {e}") from None

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"Layer {type(self).__name__} should implement `compute_output_shape()`.")

    def _maybe_build(self, shape):
        if not self.built:
            self._build_shape = shape
            self.build(shape)
            self.built = True
            pending = self.__dict__.get("_deferred_restore")  # restored from a checkpoint before it was built
            if pending is not None:
                saved, path = pending
                saved.restore(self, path)

    supports_masking = False

    def compute_mask(self, inputs, previous_mask):
        """Keras's: a layer that supports masking passes its input's mask on; others drop it."""
        return previous_mask if self.supports_masking else None

    def __call__(self, inputs=_NOT_GIVEN, *args, **kwargs):
        if inputs is _NOT_GIVEN:  # every argument by keyword (Keras's __call__(*args, **kwargs)): call()'s first is the input
            first = next(iter(inspect.signature(self.call).parameters), None)
            if first not in kwargs:
                raise TypeError(f"{type(self).__name__}.call() missing 1 required positional argument: '{first}'")
            inputs = kwargs.pop(first)
        else:
            check_positional(self, (inputs,) + args)
            check_training_positional(self, args)
        if "training" in kwargs and not _takes_training_argument(self):
            del kwargs["training"]  # Keras passes training= only to a call that takes it
        if is_symbolic(inputs):
            shape = shape_of(inputs)
            self._check_input(shape)
            self._maybe_build(shape)
            out = _symbolic_outputs(self, _symbolic_shape(self, shape, inputs, args, kwargs), inputs, kwargs, args)
            tensors = [v for value in list(args) + list(kwargs.values())
                       for v in (value if isinstance(value, (list, tuple)) else [value]) if isinstance(v, KerasTensor)]
            self._inbound_nodes.append(Node(self, (list(inputs) if isinstance(inputs, (list, tuple)) else [inputs])
                                            + tensors, out))
            if isinstance(out, KerasTensor):
                _symbolic_mask(self, inputs, out)
            return out
        inputs = as_tensors(inputs)
        if self._convert_input_args and self.autocast:
            inputs, args, kwargs = autocast_inputs(self, inputs, args, kwargs)
        shape = shape_of(inputs)
        self._check_input(shape)
        building = not self.built
        self._maybe_build(shape)
        mask = kwargs.get("mask")
        if mask is None:
            mask = masking.input_mask(inputs)
            if mask is not None and _takes_mask(self):
                kwargs["mask"] = mask
        for name, index in _argument_masks(self):  # Keras's query_mask= from the query's mask …
            given = (inputs,) + args
            if name not in kwargs and index < len(given) and masking.get_mask(given[index]) is not None:
                kwargs[name] = masking.get_mask(given[index])
        with tf.name_scope(self.name), outermost_call(self), autocast_scope(self):  # traced: model/layer/Op
            out = call_with_context(self, inputs, *args, **kwargs)
        if building:
            self._build_output_shape = shape_of(out)
        if mask is not None or type(self).compute_mask is not Layer.compute_mask:
            _attach_masks(out, self.compute_mask(inputs, mask))
        return out

    _min_ndim = 0  # Keras's InputSpec(min_ndim=…) of the layer's input, checked on every call

    def _check_input(self, shape):
        if isinstance(shape, tuple) and len(shape) < self._min_ndim:
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible with the layer: "
                             f"expected min_ndim={self._min_ndim}, found ndim={len(shape)}. Full shape received: "
                             f"{_shape_text(shape)}")
        if self.built and self._input_axes and isinstance(shape, tuple):
            for axis, size in self._input_axes.items():
                if len(shape) < abs(axis) or shape[axis] not in (size, None):
                    raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible with the "
                                     f"layer: expected axis {axis} of input shape to have value {size}, but "
                                     f"received input with shape {_shape_text(shape)}")

    @property
    def output(self):
        """The output of the layer's first symbolic call (Keras's ``layer.output``)."""
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined output.")
        return self._inbound_nodes[0].output

    @property
    def input(self):
        """The input of the layer's first symbolic call (a list for several)."""
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined input.")
        tensors = self._inbound_nodes[0].input_tensors
        return tensors if len(tensors) != 1 else tensors[0]

    @property
    def weights(self) -> list:
        """Keras's: its own weights (trainable first), then its sublayers', each once."""
        own = self._layer_weights
        weights = [w for w in own if w.trainable] + [w for w in own if not w.trainable]
        return _unique_weights(weights + [w for layer in self._child_layers() for w in layer.weights])

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    # What a checkpoint saves: the attributes Keras tracks, in the order they were assigned, by the names
    # Keras tracks them (Dense's kernel is its ``_kernel``), not the layer's own bookkeeping lists.
    _TRACKED_AS: dict = {}
    _UNTRACKED = frozenset(("_init_arguments", "_deferred_restore", "_layer_weights", "_regularized", "_inbound_nodes", "_stack", "_last", "_input", "_inputs",
                            "_outputs", "_operations", "_loss_tracker", "_compile_metrics", "_functions", "_strategy"))

    def _trackable_children(self):
        return [(self._TRACKED_AS.get(name, name), value) for name, value in vars(self).items()
                if name not in self._UNTRACKED and name not in Module._IGNORED and _trackable(value)]

    def _seed_states(self) -> list:
        """The state variables of the layer's own seed generators (a ``SeedGenerator`` attribute, or
        the ``_seed_state`` a dropout layer keeps): Keras lists them in ``variables``, not ``weights``."""
        from .random import SeedGenerator

        states = [v.state for v in vars(self).values() if isinstance(v, SeedGenerator)]
        return states + ([self.__dict__["_seed_state"]] if self.__dict__.get("_seed_state") is not None else [])

    @property
    def variables(self) -> list:
        """Keras 3's: the layer's Keras variables — its weights, then its seed generators' states, then
        its sublayers' variables (a ``tf.Variable`` attribute is not tracked: ``[]``, as Keras shows it)."""
        own = self._layer_weights
        mine = [w for w in own if w.trainable] + [w for w in own if not w.trainable] + self._seed_states()
        return _unique_weights(mine + [v for layer in self._child_layers() for v in layer.variables])

    @property
    def trainable_weights(self) -> list:
        if not self.trainable:
            return []
        own = [w for w in self._layer_weights if w.trainable]
        return _unique_weights(own + [w for layer in self._child_layers() for w in layer.trainable_weights])

    @property
    def non_trainable_weights(self) -> list:
        trainable = {id(w) for w in self.trainable_weights}
        return [w for w in self.weights if id(w) not in trainable]

    trainable_variables = trainable_weights

    @property
    def non_trainable_variables(self) -> list:
        """Keras 3's: the non-trainable weights and the seed generators' states."""
        if not self.trainable:
            return self.variables
        return [v for v in self.variables if not v.trainable]

    def get_weights(self) -> list:
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights) -> None:
        for w, value in zip(self.weights, weights):
            w.assign(np.asarray(value, w.dtype.np))

    def count_params(self) -> int:
        return int(sum(np.prod(w.shape) for w in self.weights))


# A constraint keyword's weight, where its name is not the keyword's stem.
_CONSTRAINED = {"depthwise_constraint": "depthwise_kernel", "pointwise_constraint": "pointwise_kernel",
                "recurrent_constraint": "recurrent_kernel"}


def _take_constraints(layer, kwargs) -> dict:
    """The ``<weight>_constraint`` keywords Keras's layer takes, taken out of ``kwargs``: {weight name: constraint}."""
    known = keywords.ARGS.get(keywords.keras_class(layer), {})
    found = {}
    for key in [k for k in kwargs if k.endswith("_constraint") and k in known]:
        value = kwargs.pop(key)
        if value is not None:
            found[_CONSTRAINED.get(key, key[:-len("_constraint")])] = constraints.get(value)
    return found


def _unique_weights(weights) -> list:
    seen, out = set(), []
    for w in weights:
        if id(w) not in seen:
            seen.add(id(w))
            out.append(w)
    return out


def _cast_input(value, dtype):
    """A float tensor (nested in lists, tuples, dicts) of another float dtype, cast; its mask kept."""
    if type(value) in (list, tuple):
        return type(value)(_cast_input(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast_input(v, dtype) for k, v in value.items()}
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.dtype != dtype.as_numpy_dtype:
        value = tf.constant(value)  # Keras converts an array argument, then casts it
    if isinstance(value, tf.Tensor) and value.dtype.is_floating and value.dtype is not dtype:
        mask = masking.get_mask(value)
        value = tf.cast(value, dtype)
        if mask is not None:
            masking.set_mask(value, mask)
    return value


def autocast_inputs(layer, inputs, args, kwargs):
    """Keras's ``DTypePolicy.convert_input``: float tensor arguments cast to the layer's input dtype."""
    dtype = tf.as_dtype(layer.input_dtype)
    if not dtype.is_floating:
        return inputs, args, kwargs
    return (_cast_input(inputs, dtype), tuple(_cast_input(a, dtype) for a in args),
            {k: _cast_input(v, dtype) for k, v in kwargs.items()})


def upcast(x):
    """A float16/bfloat16 tensor in float32 (what Keras computes normalizations and losses in)."""
    return tf.cast(x, tf.float32) if x.dtype in (tf.float16, tf.bfloat16) else x


def to_compute_dtype(layer, x):
    """An output cast to the layer's compute dtype (Keras's ``ops.cast(outputs, self.compute_dtype)``)."""
    dtype = tf.as_dtype(layer.compute_dtype)
    return tf.cast(x, dtype) if x.dtype is not dtype else x


def autocast_scope(layer):
    """Keras's ``AutocastScope`` for a call: a mixed layer's float variables read as its compute dtype;
    a layer that does not autocast (or computes in no float) clears an outer layer's scope."""
    current = variables.get_autocast_scope()
    compute = layer.compute_dtype
    if current is not None:
        if not layer.autocast or not tf.as_dtype(compute).is_floating:
            return variables.AutocastScope(None)
        if current.dtype != compute:
            return variables.AutocastScope(compute)
    elif compute != layer.variable_dtype:
        return variables.AutocastScope(compute)
    return contextlib.nullcontext()


def _takes_mask(layer) -> bool:
    cls = type(layer)
    if "_call_takes_mask" not in cls.__dict__:
        cls._call_takes_mask = "mask" in inspect.signature(layer.call).parameters
    return cls._call_takes_mask


def _takes_training_argument(layer) -> bool:
    cls = type(layer)
    if "_call_takes_training" not in cls.__dict__:
        params = inspect.signature(layer.call).parameters.values()
        cls._call_takes_training = any(p.name == "training" or p.kind is p.VAR_KEYWORD for p in params)
    return cls._call_takes_training


def _argument_masks(layer) -> tuple:
    """``(name_mask, position)`` for each positional argument ``name`` of ``call`` that has a
    ``name_mask`` parameter (MultiHeadAttention's query/value/key)."""
    cls = type(layer)
    if "_call_argument_masks" not in cls.__dict__:
        params = list(inspect.signature(layer.call).parameters)
        cls._call_argument_masks = tuple((f"{p}_mask", i) for i, p in enumerate(params) if f"{p}_mask" in params)
    return cls._call_argument_masks


def _attach_masks(out, mask) -> None:
    if mask is None:
        return
    if isinstance(out, (list, tuple)):
        for o, m in zip(out, mask if isinstance(mask, (list, tuple)) else [mask] * len(out)):
            masking.set_mask(o, m)
    else:
        masking.set_mask(out, mask)


def _is_shape(value) -> bool:
    return isinstance(value, tuple) and all(d is None or isinstance(d, int) for d in value)


def _symbolic_outputs(layer, shape, inputs, kwargs, args=()):
    """One ``KerasTensor`` per output: a layer that returns several (an RNN's ``return_state``) gives
    a list of shapes. The call's tensor keywords (``initial_state=``, ``mask=``) are kept for the
    model to pass when it runs."""
    index = len(layer._inbound_nodes)
    compute = layer.compute_dtype
    dtype = compute if compute in ("float16", "bfloat16", "float64") else "float32"  # a mixed layer's outputs
    dtype = layer.__dict__.get("_output_dtype", dtype)  # a layer of int outputs (HashedCrossing)
    if isinstance(shape, (list, tuple)) and not _is_shape(tuple(shape)):
        outs = [KerasTensor(tuple(s), dtype, layer=layer, inputs=inputs, node_index=index) for s in shape]
        for i, o in enumerate(outs):
            o._tensor_index, o._siblings = i, outs
    else:
        outs = [KerasTensor(shape, dtype, layer=layer, inputs=inputs, node_index=index)]
    for o in outs:
        o._call_kwargs, o._call_args = dict(kwargs), tuple(args)
    if outs[0]._siblings is None:
        return outs[0]
    return tuple(outs) if isinstance(shape, _TupleOfShapes) else outs


def _name_scope() -> str:
    """The current name scope (``outer/inner/``): eagerly the context's, in a trace its graph's."""
    ctx = context()
    if ctx.eager:
        return ctx.name_scope
    stack = getattr(get_default_graph(), "_name_stack", "")
    return stack + "/" if stack else ""


def _symbolic_shape(layer, shape, inputs=None, args=(), kwargs=None):
    """The output shape of a symbolic call: ``compute_output_shape``; for a layer without one, what
    its ``call`` returns traced on inputs of those shapes (Keras's ``compute_output_spec``), else
    the input's."""
    try:
        return layer.compute_output_shape(shape)
    except NotImplementedError:
        if inputs is None:
            return shape
        traced = _traced_output_shape(layer, inputs, args, kwargs or {})
        return shape if traced is None else traced


def _symbolic_mask(layer, inputs, out) -> None:
    """``out._keras_mask`` of a symbolic call, as Keras sets it: the input's mask passed on by a layer
    that supports masking, or the mask the layer's ``compute_mask`` makes (its shape from a trace)."""
    given = getattr(inputs, "_keras_mask", None) if isinstance(inputs, KerasTensor) else None
    if type(layer).compute_mask is Layer.compute_mask:
        if given is not None and layer.supports_masking:
            out._keras_mask = given
        return
    if not isinstance(inputs, KerasTensor):
        return
    from ..polymorphic_function.function import function as tf_function

    specs = [tf.TensorSpec(inputs.shape, inputs.dtype)] + ([tf.TensorSpec(given.shape, "bool")] if given else [])
    try:
        mask = tf_function(lambda x, *m: layer.compute_mask(x, m[0] if m else None)).get_concrete_function(
            *specs).structured_outputs
    except Exception:  # noqa: BLE001 (a mask that cannot be traced is left unknown)
        return
    if getattr(mask, "shape", None) is not None and mask.shape.rank is not None:
        out._keras_mask = KerasTensor(tuple(mask.shape.as_list()), "bool")


def _traced_output_shape(layer, inputs, args, kwargs):
    """``call`` traced as a function of ``TensorSpec``s of the symbolic inputs (batch ``None``): the
    output's static shape (a list of them for several outputs); None when the trace fails."""
    from ..polymorphic_function.function import function as tf_function

    listed = isinstance(inputs, (list, tuple))
    given = list(inputs) if listed else [inputs]
    symbolic = {k: v for k, v in kwargs.items() if isinstance(v, KerasTensor)}
    plain = {k: v for k, v in kwargs.items() if k not in symbolic}
    names = list(symbolic)
    positional = [i for i, a in enumerate(args) if isinstance(a, KerasTensor)]  # call(anchor, positive, negative)
    if not all(isinstance(v, KerasTensor) for v in given):
        return None

    def body(*tensors):
        x = list(tensors[:len(given)]) if listed else tensors[0]
        rest = list(args)
        for k, i in enumerate(positional):
            rest[i] = tensors[len(given) + k]
        keyed = tensors[len(given) + len(positional):]
        with autocast_scope(layer):
            return layer.call(x, *rest, **plain, **dict(zip(names, keyed)))

    cast = layer._convert_input_args and layer.autocast and tf.as_dtype(layer.input_dtype).is_floating

    def spec(v):  # the dtype a call sees: float inputs cast to the layer's input dtype (autocast_inputs)
        dtype = tf.as_dtype(v.dtype)
        return tf.TensorSpec(v.shape, layer.input_dtype if cast and dtype.is_floating else dtype)

    specs = [spec(v) for v in given + [args[i] for i in positional] + [symbolic[k] for k in names]]
    try:
        outputs = tf_function(body).get_concrete_function(*specs).structured_outputs
        unknown = None
    except Exception:  # noqa: BLE001
        # a call that needs its unknown sizes as numbers (random draws of the batch's shape: a VAE's
        # sampling layer) is traced again with them a size no real dimension has, read back as None
        unknown = _STANDIN
        try:
            outputs = tf_function(body).get_concrete_function(*[tf.TensorSpec(
                [unknown if d is None else d for d in s.shape.as_list()], s.dtype) for s in specs]).structured_outputs
        except Exception:  # noqa: BLE001 (a call that cannot be traced keeps the input's shape, as before)
            return None
    if isinstance(outputs, (list, tuple)):
        shapes = [_static(o, unknown) for o in outputs]
        if any(s is None for s in shapes):
            return None
        return _TupleOfShapes(shapes) if isinstance(outputs, tuple) else shapes
    return _static(outputs, unknown)


class _TupleOfShapes(tuple):
    """The shapes of a call that returned a tuple: its symbolic outputs are a tuple too (Keras's structure)."""


_STANDIN = 7919  # the stand-in of an unknown size in a second trace (a prime no layer makes by itself)


def _static(tensor, unknown=None):
    shape = getattr(tensor, "shape", None)
    if shape is None or shape.rank is None:
        return None
    return tuple(None if unknown is not None and d == unknown else d for d in shape.as_list())


def same_shape(self, input_shape):
    """``compute_output_shape`` of the layers that keep their input's shape."""
    return input_shape


def _shape_text(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


_CALLING: list = []  # the layers whose call is running, outermost first


@contextlib.contextmanager
def outermost_call(layer):
    """As the outermost call begins, the losses the layer and its sublayers added before are dropped."""
    if not _CALLING:
        for each in [layer] + layer._all_sublayers():
            each.__dict__.pop("_added_losses", None)
    _CALLING.append(layer)
    try:
        yield
    finally:
        _CALLING.pop()


def call_with_context(layer, inputs, *args, **kwargs):
    """``layer.call``; an error raised inside gets Keras's "Exception encountered when calling
    X.call()" text with the arguments it received (Keras's ``inject_argument_info_in_traceback``),
    once — the innermost layer's; an op's error keeps its class (its ``[Op:X]`` names the op)."""
    try:
        return layer.call(inputs, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 (re-raised, with Keras's text)
        if getattr(e, "_keras_call_info_injected", False) or not config.is_traceback_filtering_enabled():
            raise
        cls = type(layer).__name__
        message = (f"Exception encountered when calling {cls}.call().\n\n\x1b[1m{e}\x1b[0m\n\n"
                   f"Arguments received by {cls}.call():\n" + "\n".join(_received(layer, inputs, args, kwargs)))
        try:
            new = type(e)(e.node_def, e.op, message) if isinstance(e, tf.errors.OpError) else type(e)(message)
        except Exception:  # noqa: BLE001 (an exception class that takes other arguments)
            new = RuntimeError(message)
        new._keras_call_info_injected = True
        raise new.with_traceback(e.__traceback__) from None


def _received(layer, inputs, args, kwargs) -> list:
    signature = inspect.signature(layer.call)
    bound = signature.bind_partial(inputs, *args, **kwargs)
    bound.apply_defaults()
    lines = []
    for name, param in signature.parameters.items():
        value = bound.arguments.get(name, inspect.Parameter.empty)
        if param.kind is param.VAR_KEYWORD and not value:
            value = inspect.Parameter.empty
        text = "<class 'inspect._empty'>" if value is inspect.Parameter.empty else _argument_text(value)
        lines.append(f"  • {name}={text}")
    return lines


def _argument_text(value) -> str:
    if isinstance(value, tf.Tensor):
        return f"tf.Tensor(shape={_shape_text(tuple(value.shape))}, dtype={value.dtype.name})"
    return repr(value)


class InputLayer(Layer):
    """What ``Input(...)`` makes: a layer with no inputs whose one node outputs the ``KerasTensor``."""

    def __init__(self, shape=None, batch_size=None, dtype="float32", name=None, batch_shape=None, sparse=False,
                 **_):
        """Other keywords are taken and ignored, as Keras 3.15's ``InputLayer`` does; ``sparse``: the
        model takes a ``tf.SparseTensor`` there."""
        super().__init__(name=name or unique("input_layer"))
        batch_shape = batch_shape if batch_shape is not None else (batch_size,) + tuple(shape or ())
        self.built, self.sparse = True, bool(sparse)  # the tensor is named as the layer only when the program names it
        tensor = KerasTensor(batch_shape, dtype, layer=self, name=name)
        tensor.sparse = self.sparse
        self._inbound_nodes.append(Node(self, [], tensor))

    def get_config(self) -> dict:
        return {"batch_shape": list(self.output.shape), "dtype": self.output.dtype, "sparse": self.sparse,
                "ragged": False, "name": self.name, "optional": False}


def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None, batch_shape=None, name=None,  # noqa: N802
          tensor=None, optional=False):
    """Keras's ``Input`` (its signature; a keyword it lacks is Python's ``TypeError``)."""
    keywords.unimplemented("keras.Input", ragged=(ragged, (None, False)), tensor=(tensor, None),
                           optional=(optional, False))
    return InputLayer(shape, batch_size, dtype or "float32", name, batch_shape, sparse=bool(sparse)).output

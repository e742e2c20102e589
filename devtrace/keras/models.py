"""Keras models: ``Sequential``, functional ``Model(inputs, outputs)`` and subclassed ``Model``
— their structure and forward pass; ``training.Trainer`` gives them ``compile`` / ``fit`` /
``evaluate`` / ``predict``, ``summary.print_summary`` their table; a graph's walk is
``functional_graph``'s."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import inspect

import devtrace as tf
from . import keywords, saving_lib as saving, serializable
from . import engine as _engine, summary as summary_mod
from .engine import (InputLayer, KerasTensor, Layer, as_tensors, autocast_inputs, autocast_scope, call_with_context,
                     check_positional, check_training_positional, is_symbolic, outermost_call, unique)
from .functional_graph import (_as_input, _data_shape, _flat, _history, _run, _shapes, _takes_training, _tensors_of,
                               _topological, _unique_list, _value_shape)
from .tf_trainer import TensorFlowTrainer


class Model(TensorFlowTrainer, Layer):
    def __init__(self, inputs=None, outputs=None, name=None, **kwargs):
        Layer.__init__(self, name=name, **kwargs)
        TensorFlowTrainer.__init__(self)
        self._input_keys = list(inputs) if isinstance(inputs, dict) else None  # Model(inputs={name: Input})
        if self._input_keys is not None:
            inputs = [inputs[k] for k in self._input_keys]
        self._inputs, self._outputs = inputs, outputs
        self._operations = _topological(outputs, inputs) if outputs is not None else []
        self.built = outputs is not None

    # -- structure ------------------------------------------------------------------------------
    @property
    def inputs(self):
        """A graph's input tensors, as a list (Keras's ``model.inputs``)."""
        return _flat(self._inputs) if self._inputs is not None else None

    @property
    def outputs(self):
        return _flat(self._outputs) if self._outputs is not None else None

    @property
    def output(self):
        """A graph's outputs as given (Keras's ``model.output``); else the first call's, as a layer's."""
        return self._outputs if self._outputs is not None else Layer.output.fget(self)

    @property
    def input(self):
        return self._inputs if self._inputs is not None else Layer.input.fget(self)

    def _trackable_children(self):
        """Keras's functional model tracks its ``_operations``, its ``InputLayer``s first (no variables)."""
        own = Layer._trackable_children(self)
        if self._operations:
            own.append(("_operations", [None] * len(_flat(self._inputs)) + list(self._operations)))
        return own

    @property
    def input_shape(self):
        """Keras's: the inputs' shapes (one shape for one input)."""
        try:
            return _shapes(self.inputs, self, "input")
        except AttributeError:  # a Sequential not built yet
            return _shapes(None, self, "input")

    @property
    def output_shape(self):
        try:
            return _shapes(self.outputs, self, "output")
        except AttributeError:
            return _shapes(None, self, "output")

    @property
    def layers(self) -> list:
        """The layers (Keras's: not the operations a graph's tensors' arithmetic made, ``true_divide``…,
        which ``summary()`` lists)."""
        if self._operations:
            return [op for op in self._operations if not getattr(op, "_symbolic_operation", False)]
        return Layer._child_layers(self)

    def _child_layers(self) -> list:
        return self.layers

    @property
    def weights(self) -> list:
        return _unique_list([w for layer in self.layers for w in layer.weights] + list(self._layer_weights))

    @property
    def trainable_weights(self) -> list:
        if not self.trainable:
            return []
        own = [w for w in self._layer_weights if w.trainable]
        return _unique_list([w for layer in self.layers for w in layer.trainable_weights] + own)

    @property
    def non_trainable_weights(self) -> list:
        trainable = {id(w) for w in self.trainable_weights}
        return [w for w in self.weights if id(w) not in trainable]

    trainable_variables = trainable_weights

    @property
    def variables(self) -> list:
        """Keras 3's (``Layer.variables``): its own weights, trainable first, and its own seed generators'
        states (a subclassed model's ``SeedGenerator``), then its layers' variables."""
        own = list(self._layer_weights)
        return _unique_list([w for w in own if w.trainable] + [w for w in own if not w.trainable] +
                            self._seed_states() + [v for layer in self.layers for v in layer.variables])

    non_trainable_variables = Layer.non_trainable_variables

    @property
    def losses(self) -> list:
        return Layer.losses.fget(self)

    def call(self, inputs, training=None, mask=None, **kwargs):
        if self._outputs is None:
            raise NotImplementedError("Subclassed models implement call()")
        flat_in = self._inputs if isinstance(self._inputs, (list, tuple)) else [self._inputs]
        given = inputs if isinstance(self._inputs, (list, tuple)) else [inputs]
        values = {id(k): _as_input(v, k) for k, v in zip(flat_in, given)}
        out = _run(self._outputs, values, training)
        return tuple(out) if type(self._outputs) is tuple else out  # Keras keeps the outputs' structure

    @property
    def _allow_non_tensor_positional_args(self):
        """A functional model takes Python values positionally; others do not (Keras's)."""
        return self._outputs is not None

    def __call__(self, inputs, *args, training=None, **kwargs):
        check_positional(self, (inputs,) + args)
        check_training_positional(self, args, "Functional" if self._outputs is not None else None)
        if args:  # what call() takes positionally after the inputs, ``training`` given as None among them
            names = list(inspect.signature(self.call).parameters)[1:1 + len(args)]
            given = dict(zip(names, args))
            training = given.pop("training", training)
            kwargs = {**given, **kwargs}
        if is_symbolic(inputs):
            return super().__call__(inputs)
        inputs = as_tensors(self._by_input_name(inputs))
        if self._outputs is None and self.autocast:  # a graph takes its inputs as its Inputs say (Keras's)
            inputs, _, kwargs = autocast_inputs(self, inputs, (), kwargs)
        if self._outputs is not None:
            self._check_model_inputs(inputs)
        if not self.built:
            self._maybe_build(_data_shape(inputs))
        if "training" in inspect.signature(self.call).parameters:
            kwargs["training"] = training
        with tf.name_scope(self.name), outermost_call(self), autocast_scope(self):  # traced: model/layer/Op
            return call_with_context(self, inputs, **kwargs)

    def _by_input_name(self, inputs):
        """Inputs as a graph takes them (Keras's ``_standardize_inputs``): a dict's values by each
        ``Input``'s name (keys no ``Input`` names are left out); one tensor for a list of one ``Input``."""
        listed = isinstance(self._inputs, (list, tuple))
        if listed and len(self._inputs) == 1 and not isinstance(inputs, (list, tuple, dict)):
            return [inputs]  # one input given bare to a graph whose inputs are a list of one
        if not isinstance(inputs, dict) or self._inputs is None:
            return inputs
        if getattr(self, "_input_keys", None) is not None:
            return [inputs[k] for k in self._input_keys]
        flat = self._inputs if isinstance(self._inputs, (list, tuple)) else [self._inputs]
        missing = [t._layer.name for t in flat if t._layer.name not in inputs]
        if missing:
            raise ValueError(f"The structure of `inputs` doesn't match the expected structure.\nExpected: "
                             f"{[t._layer.name for t in flat]}\nReceived: inputs={sorted(inputs)}")
        values = [inputs[t._layer.name] for t in flat]
        return values if isinstance(self._inputs, (list, tuple)) else values[0]

    def _check_model_inputs(self, inputs):
        flat_in = self._inputs if isinstance(self._inputs, (list, tuple)) else [self._inputs]
        given = inputs if isinstance(self._inputs, (list, tuple)) else [inputs]
        for i, (spec, value) in enumerate(zip(flat_in, given)):
            shape = _value_shape(value)
            if len(shape) == len(spec.shape) and any(s is not None and s != d for s, d in zip(spec.shape, shape)):
                raise ValueError(f"Input {i} with name '{spec._layer.name}' of layer '{self.name}' is incompatible "
                                 f"with the layer: expected shape={spec.shape}, found shape={shape}")

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """``saving.save_weights``: Keras's required name, devtrace's ``.npz`` inside (see ``saving``)."""
        saving.save_weights(self, filepath, overwrite, max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        saving.load_weights(self, filepath, skip_mismatch, **kwargs)

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        saving.save_model(self, filepath, overwrite, zipped, **kwargs)

    def export(self, filepath, format="tf_saved_model", verbose=True, input_signature=None, **kwargs):  # noqa: A002
        from .export import export

        export(self, filepath, format, verbose, input_signature, **kwargs)

    def to_json(self, **kwargs) -> str:
        return saving.to_json(self, **kwargs)

    def get_layer(self, name=None, index=None):
        """A layer by name or by index (Keras's)."""
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: {list(layer.name for layer in self.layers)}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def get_config(self) -> dict:
        """A graph's layers and how they connect (Keras's functional config); a subclassed model's,
        its constructor's arguments."""
        if self._outputs is None:
            return Layer.get_config(self)
        layers = []
        for layer in self._operations:
            entry = serializable.serialize(layer)
            entry.pop("build_config", None)
            entry["name"] = layer.name
            entry["inbound_nodes"] = [] if isinstance(layer, InputLayer) else [
                {"args": [_history(node.output._inputs)], "kwargs": {}} for node in layer._inbound_nodes]
            layers.append(entry)
        ends = {}
        def ref(tensors):
            if isinstance(tensors, dict):
                return {key: ref(t) for key, t in tensors.items()}
            if isinstance(tensors, (list, tuple)):
                return [ref(t) for t in tensors]
            return [tensors._layer.name, tensors._node_index, 0]

        for key, tensors in (("input_layers", self._inputs), ("output_layers", self._outputs)):
            ends[key] = ref(tensors)
        return {"name": self.name, "trainable": self.trainable, "layers": layers, **ends}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if "layers" not in config or "input_layers" not in config:
            return Layer.from_config.__func__(cls, config)
        made, outputs = {}, {}
        for entry in config["layers"]:
            layer = made[entry["name"]] = serializable.deserialize(
                {k: v for k, v in entry.items() if k not in ("name", "inbound_nodes")}, custom_objects)
            name = entry.get("name", layer.name)  # a custom get_config may leave the name out: the graph's
            if isinstance(layer, InputLayer):
                outputs[(name, 0)] = layer.output
            for i, node in enumerate(entry["inbound_nodes"]):
                outputs[(name, i)] = layer(_tensors_of(node["args"][0], outputs))

        def end(refs):
            if isinstance(refs, dict):
                return {key: end(ref) for key, ref in refs.items()}
            if refs and isinstance(refs[0], list):
                return [end(ref) for ref in refs]
            return outputs[(refs[0], refs[1])]

        ends = [end(config["input_layers"]), end(config["output_layers"])]
        model = cls(inputs=ends[0], outputs=ends[1], name=config.get("name"))
        model.trainable = config.get("trainable", True)
        return model

    def compute_output_shape(self, input_shape):
        """A graph's output shape (batch ``None``); a Sequential's, through its layers."""
        if self._outputs is not None and not isinstance(self._outputs, (list, tuple)):
            return self._outputs.shape
        if getattr(self, "_last", None) is not None:
            return self._last.shape
        if hasattr(self, "_stack"):
            shape = input_shape
            for layer in self._stack:
                shape = layer.compute_output_shape(shape)
            return shape
        raise NotImplementedError(f"Layer {type(self).__name__} should implement `compute_output_shape()`.")

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        keywords.unimplemented("Model.summary", layer_range=(layer_range, None))
        summary_mod.print_summary(self, line_length, positions, print_fn, show_trainable, expand_nested)

    def count_params(self) -> int:
        return sum(layer.count_params() for layer in self.layers)


class Functional(Model):
    """What ``Model(inputs, outputs)`` is (Keras 3's name for it)."""


def _functional_new(cls, *args, **kwargs):
    if cls is Model and (kwargs.get("outputs") is not None or len(args) >= 2):
        return serializable.record(object.__new__(Functional), args, kwargs)
    return serializable.record(object.__new__(cls), args, kwargs)


Model.__new__ = _functional_new


class Sequential(Model):
    """Layers in a stack. Given an ``Input`` (or a first layer's ``input_shape``), or at its first
    call, it builds its graph as Keras does: each layer called on the previous output's
    ``KerasTensor`` (shapes known, weights created), consuming a ``functional`` name."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(name=name)
        self.trainable = trainable
        self._stack: list = []
        self._last = None
        self._input = None
        for layer in layers or []:
            self.add(layer)

    def _trackable_children(self):
        """Keras's Sequential tracks its layers through the functional model it builds: ``_functional/
        _operations/N``, the ``InputLayer`` at 0."""
        own = Layer._trackable_children(self)
        if self._stack:
            own.append(("_functional", {"_operations": [None] + list(self._stack)}))
        return own

    def add(self, layer) -> None:
        if isinstance(layer, KerasTensor):
            self._start(layer)
            return
        known = layer._batch_input_shape if layer._batch_input_shape is not None else _model_input_shape(layer)
        if self._last is None and not self._stack and known is not None:
            self._start(InputLayer(batch_shape=known).output)
        self._stack.append(layer)
        if self._last is not None:
            with tf.name_scope(self.name):
                self._last = layer(self._last)
        elif self._input is not None:  # after pop(rebuild=False): rebuilt on the Input it had
            self._start(self._input)

    def pop(self, rebuild=True):
        """Removes the last layer and returns it; the model is rebuilt on its ``Input`` (Keras's)."""
        layer = self._stack.pop()
        self.built = False
        self._last = None
        if rebuild and self._input is not None and self._stack:
            self._start(self._input)
        return layer

    def _start(self, keras_input) -> None:
        unique("functional")
        self._input = keras_input
        self._last = keras_input
        with tf.name_scope(self.name):  # Keras builds in the model's name scope: sequential/dense/kernel
            for layer in self._stack:
                self._last = layer(self._last)
        self.built = True

    def build(self, input_shape=None):
        """``build(shape)`` builds the layers on an ``Input`` of that shape, in the model's name scope
        (``sequential/dense/kernel``), as Keras's."""
        if self._last is None and input_shape is not None and self._stack:
            self._start(InputLayer(batch_shape=tuple(input_shape)).output)
        elif self._last is None:
            unique("input_layer"), unique("functional")

    def __call__(self, inputs=_engine._NOT_GIVEN, *args, **kwargs):
        """Called on a ``KerasTensor`` (nested in another model) before it is built: built on an
        ``Input`` of that shape first, as Keras's ``Sequential.build``, so its layers have weights."""
        if (not self.built and self._last is None and self._stack and _engine.is_symbolic(inputs)
                and all(_declares_output_shape(layer) for layer in self._stack)):
            self.build(_engine.shape_of(inputs))
        return super().__call__(inputs, *args, **kwargs)

    def _maybe_build(self, shape):
        """Built by its first call: the layers build on the data's shapes as it runs them."""
        if not self.built:
            self._build_shape = shape
            if self._last is None:
                unique("input_layer"), unique("functional")
            self.built = True

    def build_for_data(self, features) -> None:
        """``fit``'s symbolic build (Keras's ``_symbolic_build``): an ``Input`` of batch ``None`` and the
        data's other dims, each layer called on it — when every layer can say its output shape."""
        if not self.built and all(_declares_output_shape(layer) for layer in self._stack):
            self._start(InputLayer(batch_shape=(None,) + tuple(features)).output)

    @property
    def layers(self) -> list:
        return list(self._stack)

    @property
    def inputs(self):
        if self._last is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined inputs yet.")
        return [self._input]

    @property
    def outputs(self):
        if self._last is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined outputs yet.")
        return [self._last]

    def get_config(self) -> dict:
        layers = [serializable.serialize(layer) for layer in self._stack]
        first = self._stack[0]._inbound_nodes[0].input_tensors[0] if self._stack and self._stack[0]._inbound_nodes \
            else None
        if first is not None and self._last is not None and isinstance(first._layer, InputLayer):
            layers.insert(0, serializable.serialize(first._layer))
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": serializable.dtype_policy(self.dtype_policy.name),
                  "layers": layers}
        if first is not None and self._last is not None:
            config["build_input_shape"] = list(first.shape)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for entry in config.get("layers", []):
            layer = serializable.deserialize(entry, custom_objects)
            model.add(layer.output if isinstance(layer, InputLayer) else layer)
        if not model.built and config.get("build_input_shape"):
            model.build_for_data(tuple(config["build_input_shape"][1:]))
        return model

    def call(self, inputs, training=None, mask=None, **kwargs):
        x = _as_input(inputs, self._input) if self._input is not None and not is_symbolic(inputs) else inputs
        for layer in self._stack:
            x = layer(x, training=training) if _takes_training(layer) else layer(x)
        return x


def clone_model(model, input_tensors=None, clone_function=None, call_function=None, recursive=False, **kwargs):
    """A model of the same structure whose layers are new (made from their configs: their weights
    initialised afresh), as Keras's; ``clone_function`` makes each layer of a Sequential."""
    keywords.unimplemented("keras.models.clone_model", input_tensors=(input_tensors, None),
                           call_function=(call_function, None), recursive=(recursive, False))
    if kwargs:
        raise ValueError(f"Unexpected keyword argument(s): {tuple(kwargs)}")
    if clone_function is None:
        return type(model).from_config(model.get_config())
    if not isinstance(model, Sequential):
        raise NotImplementedError("devtrace does not implement keras.models.clone_model(clone_function=...) of a "
                                  "model that is not a Sequential yet")
    clone = Sequential(name=model.name, trainable=model.trainable)
    if model._input is not None:
        clone.add(InputLayer(batch_shape=model._input.shape).output)
    for layer in model.layers:
        clone.add(clone_function(layer))
    return clone


load_model = saving.load_model
save_model = saving.save_model
model_from_json = saving.model_from_json


def _model_input_shape(layer):
    """The input shape a model knows (a graph's one input, a Sequential's ``Input``), else None."""
    inputs = getattr(layer, "_inputs", None)
    if isinstance(inputs, KerasTensor):
        return inputs.shape
    stack = getattr(layer, "_stack", None)
    if stack and stack[0]._inbound_nodes:
        return stack[0]._inbound_nodes[0].input_tensors[0].shape
    return None


def _declares_output_shape(layer) -> bool:
    if isinstance(layer, Model):  # a graph or a Sequential can say it; a subclassed model cannot
        stack = getattr(layer, "_stack", None)
        return layer._outputs is not None or bool(stack) and all(_declares_output_shape(x) for x in stack)
    return type(layer).compute_output_shape is not Layer.compute_output_shape


__getattr__ = _missing("keras.models")

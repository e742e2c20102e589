"""``Model.export(path)``: the model as a SavedModel for inference (Keras 3's ``ExportArchive``
with one endpoint): ``serve``, traced on the model's inputs (batch ``None``), under the
signatures ``serve`` and ``serving_default``; its variables saved with it. ``ExportArchive``
itself: tracked layers' variables, endpoints with their input signatures, variable collections."""

from __future__ import annotations

import devtrace as tf


def _spec(keras_tensor):
    return tf.TensorSpec(shape=tuple(keras_tensor.shape), dtype=keras_tensor.dtype, name=keras_tensor.name)


def _text(spec) -> str:
    shape = tuple(spec.shape.as_list()) if spec.shape.rank is not None else None
    return f"TensorSpec(shape={shape}, dtype=tf.{spec.dtype.name}, name={spec.name!r})"


def export(model, filepath, format="tf_saved_model", verbose=True, input_signature=None, **kwargs) -> None:  # noqa: A002
    if format != "tf_saved_model":
        raise NotImplementedError(f"devtrace does not implement Model.export(format={format!r}) yet")
    if kwargs:
        raise NotImplementedError(f"devtrace does not implement Model.export({next(iter(kwargs))}=...) yet")
    if input_signature is None:
        inputs = model.inputs
        if not inputs:
            raise ValueError("The model provided has never called. It must be called at least once before export.")
        specs = [_spec(t) for t in inputs]
        input_signature = [specs[0] if len(specs) == 1 else specs]

    archive = tf.Module()
    archive._variables = list(model.weights)  # tracked: saved with the archive, captured by serve
    archive.serve = tf.function(lambda *args: model(*args, training=False), input_signature=input_signature)
    concrete = archive.serve.get_concrete_function()
    tf.saved_model.save(archive, filepath, signatures={"serve": concrete, "serving_default": concrete})
    if verbose:
        _describe(filepath, input_signature, concrete, model.weights)


def _describe(filepath, input_signature, concrete, weights, name="serve") -> None:
    lines = [f"Saved artifact at '{filepath}'. The following endpoints are available:", "", f"* Endpoint '{name}'"]
    for i, spec in enumerate(input_signature):
        shown = _text(spec) if isinstance(spec, tf.TensorSpec) else "[" + ", ".join(_text(s) for s in spec) + "]"
        lines.append(f"  args_{i} (POSITIONAL_ONLY): {shown}")
    outputs = tf.nest.flatten(concrete.structured_outputs)
    lines.append("Output Type:")
    for out in outputs:
        lines.append(f"  {_text(tf.TensorSpec(out.shape, out.dtype))}")
    lines.append("Captures:")
    lines += [f"  {id(w)}: TensorSpec(shape=(), dtype=tf.resource, name=None)" for w in weights]
    print("\n".join(lines))


def _tensor_spec(spec):
    """Keras's ``make_tf_tensor_spec``: a ``tf.TensorSpec`` as is, a ``keras.InputSpec`` (or anything
    with ``shape`` and ``dtype``) as one."""
    if isinstance(spec, tf.TensorSpec):
        return spec
    return tf.TensorSpec(shape=tuple(spec.shape), dtype=getattr(spec, "dtype", None) or "float32",
                         name=getattr(spec, "name", None))


class _Trackable(tf.Module):
    """The saved object: Keras's is an ``AutoTrackable``, whose ``variables`` are plain attributes."""

    variables = trainable_variables = non_trainable_variables = ()


class ExportArchive:
    """Keras 3's ``keras.export.ExportArchive`` (the ``tf_saved_model`` format)."""

    def __init__(self):
        self._tf_trackable = _Trackable()
        self._endpoint_names: list = []
        self._endpoint_signatures: dict = {}
        self._tracked: list = []

    @property
    def variables(self) -> list:
        return [v for layer in self._tracked for v in getattr(layer, "weights", [])]

    @property
    def trainable_variables(self) -> list:
        return [v for layer in self._tracked for v in getattr(layer, "trainable_weights", [])]

    @property
    def non_trainable_variables(self) -> list:
        return [v for layer in self._tracked for v in getattr(layer, "non_trainable_weights", [])]

    def track(self, resource):
        from .engine import Layer

        if isinstance(resource, Layer) and not resource.built:
            raise ValueError("The layer provided has not yet been built. It must be built before export.")
        if not isinstance(resource, (Layer, tf.Module, tf.Variable)):
            raise ValueError("Invalid resource type. Expected a Keras `Layer` or `Model` or a TensorFlow `Trackable` "
                             f"object. Received object {resource} of type '{type(resource)}'. ")
        self._tracked.append(resource)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if kwargs:
            raise NotImplementedError(f"devtrace does not implement ExportArchive.add_endpoint({next(iter(kwargs))}=...) "
                                      "yet")
        if input_signature is None:
            if not isinstance(fn, tf.types.experimental.GenericFunction):
                raise ValueError(
                    "If the `fn` argument provided is not a `tf.function`, you must provide an `input_signature` "
                    "argument to specify the shape and dtype of the function arguments. Example:\n\n"
                    "export_archive.add_endpoint(\n    name='call',\n    fn=model.call,\n    input_signature=[\n"
                    "        keras.InputSpec(\n            shape=(None, 224, 224, 3),\n            dtype='float32',\n"
                    "        )\n    ],\n)")
            decorated = fn
        else:
            input_signature = tf.nest.map_structure(_tensor_spec, input_signature)
            decorated = tf.function(fn, input_signature=input_signature, autograph=False)
            self._endpoint_signatures[name] = input_signature
        setattr(self._tf_trackable, name, decorated)
        self._endpoint_names.append(name)
        return decorated

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        self.track(resource)
        return self.add_endpoint(name, resource.__call__, input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError(f"Expected `variables` to be a list/tuple/set. Received instead object of type "
                             f"'{type(variables)}'.")
        if not all(isinstance(v, tf.Variable) for v in variables):
            raise ValueError("Expected all elements in `variables` to be `tf.Variable` instances. Found instead the "
                             f"following types: {list(set(type(v) for v in variables))}")
        setattr(self._tf_trackable, name, list(variables))

    def _concrete(self, name):
        fn = getattr(self._tf_trackable, name)
        if name in self._endpoint_signatures:
            return fn.get_concrete_function(*self._endpoint_signatures[name])
        return fn.get_concrete_function()

    def write_out(self, filepath, options=None, verbose=True):
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        module = self._tf_trackable
        module.variables = list(self.variables)
        module.trainable_variables = list(self.trainable_variables)
        module.non_trainable_variables = list(self.non_trainable_variables)
        signatures = {name: self._concrete(name) for name in self._endpoint_names}
        if "serving_default" not in signatures:
            signatures["serving_default"] = signatures[self._endpoint_names[0]]
        tf.saved_model.save(module, filepath, signatures=signatures, options=options)
        if verbose:
            for name in self._endpoint_names:
                _describe(filepath, self._endpoint_signatures.get(name, []), signatures[name], self.variables, name)

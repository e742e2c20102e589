"""``Model.export(path)``: the model as a SavedModel for inference (Keras 3's ``ExportArchive``
with one endpoint): ``serve``, traced on the model's inputs (batch ``None``), under the
signatures ``serve`` and ``serving_default``; its variables saved with it."""

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


def _describe(filepath, input_signature, concrete, weights) -> None:
    lines = [f"Saved artifact at '{filepath}'. The following endpoints are available:", "", "* Endpoint 'serve'"]
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

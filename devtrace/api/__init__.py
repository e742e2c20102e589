"""The public ``tf`` surface: every name ``import devtrace as tf`` answers, resolved lazily from
the room that implements it (``tf.function`` from :mod:`devtrace.polymorphic_function`, ``tf.data``
from :mod:`devtrace.data` …); op functions from the op declarations (``devtrace.ops.API``).

Here too: the namespaces built from the op declarations (``namespaces``: ``tf.math``, ``tf.random``
…), ``tf.compat`` (``compat``) and ``import tensorflow`` answered by devtrace (``as_tensorflow``).
A room that is a TensorFlow namespace (``data``, ``distribute``, ``config``, ``train``,
``saved_model``, ``errors``, ``keras``, ``autograph``) is that namespace; no room is named after a
TensorFlow name that is not its namespace (``tf.function``, ``tf.nest``), so importing a room never
shadows a ``tf`` name. This module imports nothing heavy: ``devtrace list`` never loads NumPy.
"""

from __future__ import annotations

import importlib

_DTYPES = ("float16", "float32", "float64", "half", "double", "int32", "int64", "string", "resource", "DType",
           "int8", "int16", "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "variant",
           "bfloat16", "qint8", "quint8", "qint16", "quint16", "qint32")

LAZY = {name: ("devtrace.runtime.dtypes", name) for name in _DTYPES}
LAZY.update({
    # devtrace's own, documented in the README: ``devtrace.as_tensorflow.install()``
    "as_tensorflow": ("devtrace.api.as_tensorflow", None),
    "bool": ("devtrace.runtime.dtypes", "bool_"),
    "as_dtype": ("devtrace.runtime.dtypes", "as_dtype_public"),
    "dtypes": ("devtrace.api.namespaces", "dtypes"),
    "is_tensor": ("devtrace.api.namespaces", "is_tensor"),
    "Tensor": ("devtrace.runtime.tensor", "Tensor"),
    "TensorShape": ("devtrace.runtime.tensor_shape", "TensorShape"),
    "Variable": ("devtrace.runtime.eager.variables", "Variable"),
    "VariableSynchronization": ("devtrace.runtime.eager.variables", "VariableSynchronization"),
    "VariableAggregation": ("devtrace.runtime.eager.variables", "VariableAggregationV2"),
    "device": ("devtrace.runtime.scopes", "device"),
    "executing_eagerly": ("devtrace.runtime.scopes", "executing_eagerly"),
    "DeviceSpec": ("devtrace.devices.device_spec", "DeviceSpecV2"),
    "config": ("devtrace.config", None),
    "debugging": ("devtrace.api.namespaces", "debugging"),
    "random": ("devtrace.api.namespaces", "random"),
    "strings": ("devtrace.api.namespaces", "strings"),
    "signal": ("devtrace.api.namespaces", "signal"),
    "image": ("devtrace.api.namespaces", "image"),
    "experimental": ("devtrace.api.namespaces", "experimental"),
    "math": ("devtrace.api.namespaces", "math"),
    "linalg": ("devtrace.api.namespaces", "linalg"),
    "compat": ("devtrace.api.compat", None),
    "distribute": ("devtrace.distribute", None),
    "errors": ("devtrace.errors", None),
    "GradientTape": ("devtrace.backprop.backprop", "GradientTape"),
    "Module": ("devtrace.module.module", "Module"),
    "function": ("devtrace.polymorphic_function.function", "function"),
    "TensorSpec": ("devtrace.polymorphic_function.function", "TensorSpec"),
    "type_spec_from_value": ("devtrace.api.type_spec", "type_spec_from_value"),
    "name_scope": ("devtrace.module.module", "name_scope"),
    "train": ("devtrace.train", None),
    "saved_model": ("devtrace.saved_model", None),
    "init_scope": ("devtrace.runtime.graph.graph", "init_scope"),
    "version": ("devtrace.api.namespaces", "version"),
    "newaxis": ("devtrace.ops.array.indexing_ops", "newaxis"),
    "nn": ("devtrace.api.namespaces", "nn"),
    "nest": ("devtrace.util.nest", "namespace"),
    "UnconnectedGradients": ("devtrace.backprop.backprop", "UnconnectedGradients"),
    "custom_gradient": ("devtrace.backprop.backprop", "custom_gradient"),
    "recompute_grad": ("devtrace.backprop.backprop", "recompute_grad"),
    "Graph": ("devtrace.runtime.graph.variables", "Graph"),  # with graph variables (tf.Variable in a graph)
    "get_logger": ("devtrace.platform.tf_logging", "get_logger"),
    "autograph": ("devtrace.autograph", None),
    "data": ("devtrace.data", None),
    "keras": ("devtrace.keras", None),
    # tf.keras's namespaces, which TensorFlow also serves at the top level (keras._tf_keras.keras.X)
    "metrics": ("devtrace.keras.metrics", None),
    "losses": ("devtrace.keras.losses", None),
    "optimizers": ("devtrace.keras.optimizers", None),
    "initializers": ("devtrace.keras.initializers", None),
    "test": ("devtrace.test", None),
    "python": ("devtrace.platform.device_lib", "python"),
    "sysconfig": ("devtrace.platform.device_lib", "sysconfig"),
    "ragged": ("devtrace.api.namespaces", "ragged"),
    "lookup": ("devtrace.api.namespaces", "lookup"),
    "queue": ("devtrace.api.namespaces", "queue"),
    "summary": ("devtrace.summary", None),
    "sparse": ("devtrace.api.namespaces", "sparse"),
    "bitwise": ("devtrace.api.namespaces", "bitwise"),
    "io": ("devtrace.api.namespaces", "io"),
    "raw_ops": ("devtrace.api.namespaces", "raw_ops"),
    "control_dependencies": ("devtrace.api.namespaces", "control_dependencies"),
    "inside_function": ("devtrace.api.namespaces", "inside_function"),
    "autodiff": ("devtrace.api.autodiff", None),
    "types": ("devtrace.framework.types", "namespace"),
    "TypeSpec": ("devtrace.framework.type_spec", "TypeSpec"),
    "IndexedSlicesSpec": ("devtrace.framework.composite_specs", "IndexedSlicesSpec"),
    "NoneTensorSpec": ("devtrace.framework.composite_specs", "NoneTensorSpec"),
    "TensorArraySpec": ("devtrace.framework.composite_specs", "TensorArraySpec"),
    "OptionalSpec": ("devtrace.data.optional_spec", "OptionalSpec"),
    "import_graph_def": ("devtrace.framework.importer", "import_graph_def"),
    "zeros_initializer": ("devtrace.ops.init_ops", "Zeros"),
    "ones_initializer": ("devtrace.ops.init_ops", "Ones"),
    "constant_initializer": ("devtrace.ops.init_ops", "Constant"),
    "random_uniform_initializer": ("devtrace.ops.init_ops", "RandomUniform"),
    "random_normal_initializer": ("devtrace.ops.init_ops", "RandomNormal"),
    "AggregationMethod": ("devtrace.api.toplevel", "AggregationMethod"),
    "gradients": ("devtrace.api.toplevel", "gradients"),
    "hessians": ("devtrace.api.toplevel", "hessians"),
    "RegisterGradient": ("devtrace.api.toplevel", "RegisterGradient"),
    "no_gradient": ("devtrace.api.toplevel", "no_gradient"),
    "grad_pass_through": ("devtrace.api.toplevel", "grad_pass_through"),
    "get_current_name_scope": ("devtrace.api.toplevel", "get_current_name_scope"),
    "is_symbolic_tensor": ("devtrace.api.toplevel", "is_symbolic_tensor"),
    "CriticalSection": ("devtrace.api.toplevel", "CriticalSection"),
    "make_tensor_proto": ("devtrace.api.toplevel", "make_tensor_proto"),
    "make_ndarray": ("devtrace.api.toplevel", "make_ndarray"),
    "register_tensor_conversion_function": ("devtrace.api.toplevel", "register_tensor_conversion_function"),
    "variable_creator_scope": ("devtrace.api.toplevel", "variable_creator_scope"),
    "load_op_library": ("devtrace.api.toplevel", "load_op_library"),
    "load_library": ("devtrace.api.toplevel", "load_library"),
    "nondifferentiable_batch_function": ("devtrace.api.toplevel", "nondifferentiable_batch_function"),
    "Operation": ("devtrace.runtime.graph.operation", "Operation"),
})


def attribute(name: str):
    """The value of ``tf.<name>`` (an ``AttributeError`` for a name devtrace lacks, worded as
    :mod:`devtrace.util.namespace` words them)."""
    spec = LAZY.get(name)
    if spec is None:
        from ..ops import API

        if name not in API:
            from ..util.namespace import missing_name

            raise missing_name("", name)
        return API[name]
    module = importlib.import_module(spec[0])
    return module if spec[1] is None else getattr(module, spec[1])


def names() -> set[str]:
    """``dir(tf)``'s public names."""
    from ..ops import API

    return set(LAZY) | {name for name in API if "." not in name}

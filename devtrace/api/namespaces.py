"""Namespaces of the public API that group functions as TensorFlow does
(``devtrace.debugging``, ``devtrace.random``, ``devtrace.math`` …), built from the op
declarations' public names."""

from __future__ import annotations

from ..data._optional import Optional as _Optional
from ..debug import check_numerics as _check_numerics, dumping as _dumping
from ..framework import dispatch as _dispatch, experimental as _experimental, extension_type as _extension_type
from ..framework.structured_tensor import StructuredTensor as _StructuredTensor
from ..platform import gfile as _gfile
from ..ops.io import graph_io as _graph_io, parsing_ops as _parsing, tfrecord as _tfrecord
from ..util.namespace import Namespace
from ..ops import API
from ..ops import numpy as _tnp
from ..runtime import dtypes as _dtypes
from ..runtime import scopes


def namespace(prefix: str, **extra) -> Namespace:
    """The functions published as ``prefix.name`` (``random.uniform`` → ``random``)."""
    start = prefix + "."
    functions = {name[len(start):]: fn for name, fn in API.items()
                 if name.startswith(start) and "." not in name[len(start):]}
    return Namespace(_prefix=prefix, **functions, **extra)


debugging = namespace("debugging", set_log_device_placement=scopes.set_log_device_placement,
                      get_log_device_placement=scopes.get_log_device_placement,
                      enable_check_numerics=_check_numerics.enable_check_numerics,
                      disable_check_numerics=_check_numerics.disable_check_numerics,
                      experimental=Namespace(_prefix="debugging.experimental",
                                             enable_dump_debug_info=_dumping.enable_dump_debug_info,
                                             disable_dump_debug_info=_dumping.disable_dump_debug_info))
random = namespace("random", experimental=namespace("random.experimental"))
signal = namespace("signal")
image = namespace("image")
# tf.experimental: the narrow dtypes and tf.experimental.numpy (the NumPy API on tensors)
experimental = namespace("experimental", numpy=Namespace(
                             _prefix="experimental.numpy", **_tnp.FUNCTIONS,
                             random=Namespace(_prefix="experimental.numpy.random", **_tnp.RANDOM)),
                         ExtensionType=_extension_type.ExtensionType,
                         BatchableExtensionType=_extension_type.BatchableExtensionType,
                         ExtensionTypeSpec=_extension_type.ExtensionTypeSpec,
                         ExtensionTypeBatchEncoder=_extension_type.ExtensionTypeBatchEncoder,
                         extension_type=Namespace(_prefix="experimental.extension_type",
                                                  as_dict=_extension_type.as_dict),
                         dispatch_for_api=_dispatch.dispatch_for_api,
                         dispatch_for_unary_elementwise_apis=_dispatch.dispatch_for_unary_elementwise_apis,
                         dispatch_for_binary_elementwise_apis=_dispatch.dispatch_for_binary_elementwise_apis,
                         dispatch_for_binary_elementwise_assert_apis=_dispatch.dispatch_for_binary_elementwise_assert_apis,
                         unregister_dispatch_for=_dispatch.unregister_dispatch_for, Optional=_Optional,
                         dlpack=_experimental.dlpack, StructuredTensor=_StructuredTensor, async_clear_error=_experimental.async_clear_error,
                         async_scope=_experimental.async_scope, enable_strict_mode=_experimental.enable_strict_mode,
                         function_executor_type=_experimental.function_executor_type,
                         register_filesystem_plugin=_experimental.register_filesystem_plugin,
                         **{d.name: d for d in _dtypes.EXPERIMENTAL})
strings = namespace("strings")
math = namespace("math", special=namespace("math.special"))
linalg = namespace("linalg", experimental=namespace("linalg.experimental"))
nn = namespace("nn", experimental=namespace("nn.experimental"))
ragged = namespace("ragged")
lookup = namespace("lookup", experimental=namespace("lookup.experimental"))
queue = namespace("queue")
sparse = namespace("sparse")
bitwise = namespace("bitwise")
io = namespace("io", gfile=_gfile.namespace, TFRecordWriter=_tfrecord.TFRecordWriter,
               TFRecordOptions=_tfrecord.TFRecordOptions, TFRecordCompressionType=_tfrecord.TFRecordCompressionType,
               FixedLenFeature=_parsing.FixedLenFeature, FixedLenSequenceFeature=_parsing.FixedLenSequenceFeature,
               VarLenFeature=_parsing.VarLenFeature, RaggedFeature=_parsing.RaggedFeature,
               SparseFeature=_parsing.SparseFeature)
raw_ops = namespace("raw_ops")  # none of TensorFlow's raw op functions yet: each says so
# tf.version: the TensorFlow release devtrace's API follows (2.21's values, as that build reports them)
version = Namespace(_prefix="version", VERSION="2.21.0", GIT_VERSION="v2.21.0", COMPILER_VERSION="devtrace",
                    GRAPH_DEF_VERSION=_graph_io.GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER=0,
                    GRAPH_DEF_VERSION_MIN_PRODUCER=0)


_DTYPE_NAMES = ("float16", "float32", "float64", "half", "double", "int8", "int16", "int32", "int64", "uint8",
                "uint16", "uint32", "uint64", "complex64", "complex128", "string", "resource", "variant", "bfloat16", "qint8", "quint8", "qint16",
                "quint16", "qint32")
# tf.dtypes: the DType objects, DType, as_dtype and the casts
# TensorFlow's set also holds the quantized types' ``_ref`` twins, which devtrace (no ref dtypes) has not
QUANTIZED_DTYPES = frozenset(getattr(_dtypes, n) for n in ("qint8", "quint8", "qint16", "quint16", "qint32"))
dtypes = namespace("dtypes", DType=_dtypes.DType, as_dtype=_dtypes.as_dtype_public, bool=_dtypes.bool_,
                   QUANTIZED_DTYPES=QUANTIZED_DTYPES,
                   experimental=Namespace(_prefix="dtypes.experimental", **{d.name: d for d in _dtypes.EXPERIMENTAL}),
                   **{n: getattr(_dtypes, n) for n in _DTYPE_NAMES if hasattr(_dtypes, n)})


def is_tensor(x) -> bool:
    """``tf.is_tensor``: a tensor (eager or symbolic) or a variable, not a value that converts to one."""
    from ..runtime.eager.variables import Variable
    from ..runtime.tensor import Tensor

    return isinstance(x, (Tensor, Variable))


def control_dependencies(control_inputs):
    """``tf.control_dependencies``: in a graph (a ``tf.function``'s, a TF1 one) the ops built
    inside run after ``control_inputs``; eagerly every op has run already, so it only calls the
    callables among them (as TensorFlow does) and changes nothing."""
    import contextlib

    if scopes.executing_eagerly():
        for control in control_inputs or ():
            if callable(control):
                control()
        return contextlib.nullcontext()
    from ..runtime.graph.graph import get_default_graph

    return get_default_graph().control_dependencies(control_inputs)


def inside_function() -> bool:
    """``tf.inside_function``: whether ops are being built into a ``tf.function``'s graph."""
    from ..runtime.graph.func_graph import FuncGraph
    from ..runtime.graph.graph import get_default_graph

    return not scopes.executing_eagerly() and isinstance(get_default_graph(), FuncGraph)

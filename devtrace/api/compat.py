"""``devtrace.compat.v1``: TensorFlow 1's graph-and-session API.

``import devtrace as tf`` then ``tf.compat.v1.Session``, ``tf.compat.v1.ConfigProto`` … run the
2017 guide's programs (after ``tf.compat.v1.disable_eager_execution()``, as any TF2 port of TF1
code starts). The op functions (``constant``, ``matmul``, ``add_n`` …) are the same as
``devtrace``'s: in graph mode they build nodes.
"""

from __future__ import annotations

import contextlib
from types import ModuleType

from .. import errors
from ..ops import variable_checks
from ..devices.device_spec import DeviceSpecV1
from ..util.namespace import Namespace, missing
from ..ops import API
from ..runtime import scopes as _scopes
from ..runtime.context import context as _context
from ..runtime.dtypes import as_dtype
from ..runtime.graph import graph as _graph
from ..runtime.graph.config_proto import ConfigProto, GPUOptions
from ..runtime.graph.graph import Graph, get_default_graph, reset_default_graph
from ..runtime.graph.session import Session, get_default_session
from ..runtime.graph import variable_scope as _variable_scope
from ..runtime.graph.resource_variables import (disable_resource_variables, enable_resource_variables,
                                                resource_variables_enabled)
from ..runtime.graph import variables as _variables
from ..runtime.graph.variables import Variable, global_variables, global_variables_initializer, group
from ..platform.tf_logging import compat_v1_logging


def disable_eager_execution() -> None:
    _graph.disable_eager_execution()


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    _graph.enable_eager_execution(config, device_policy, execution_mode)


def disable_v2_behavior() -> None:
    """Graph mode and ref variables (``VariableV2``), as TensorFlow's ``disable_v2_behavior``."""
    _graph.disable_eager_execution()
    disable_resource_variables()


def enable_v2_behavior() -> None:
    _graph.enable_eager_execution()
    enable_resource_variables()


def placeholder(dtype, shape=None, name=None):
    """A node whose value ``Session.run`` takes from ``feed_dict``."""
    if _context().eager:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    dt = as_dtype(dtype)
    dims = None if shape is None else tuple(None if d is None or d == -1 else int(d) for d in shape)
    op = get_default_graph()._create_op("Placeholder", (), {"dtype": dt.name, "shape": dims}, name or "Placeholder",
                                        dt, dims)
    return op.outputs[0]


def colocate_with(op, ignore_existing=False):
    """Nodes created inside are placed with ``op`` (its ``_class`` group); eagerly, a device scope."""
    if not _context().eager:
        return get_default_graph().colocate_with(op, ignore_existing)
    device = getattr(op, "device", "") if op is not None else ""
    return _scopes.device(device) if device else contextlib.nullcontext()


def name_scope(name, default_name=None, values=None):
    return get_default_graph().name_scope(name or default_name)


def initialize_all_variables():
    return global_variables_initializer()


def _v1_random():
    """``tf.compat.v1.random``: TensorFlow 2's ``tf.random`` with TensorFlow 1's own names
    (``multinomial``, ``set_random_seed``, ``poisson`` taking ``lam`` first …)."""
    from . import namespaces as api

    start = "compat.v1.random."
    own = {name[len(start):]: fn for name, fn in API.items() if name.startswith(start)}
    v2 = {name: fn for name, fn in vars(api.random).items() if name not in own}
    return Namespace(**{**v2, **own, "_prefix": "compat.v1.random"})


def _namespace() -> ModuleType:
    v1 = ModuleType("devtrace.compat.v1", __doc__)
    for name, fn in API.items():
        if "." not in name:
            setattr(v1, name, fn)
        elif name.startswith("compat.v1.") and "." not in name[len("compat.v1."):]:
            setattr(v1, name[len("compat.v1."):], fn)
    v1.random = _v1_random()
    for value in (disable_eager_execution, enable_eager_execution, disable_v2_behavior, enable_v2_behavior,
                  resource_variables_enabled, enable_resource_variables, disable_resource_variables,
                  _variable_scope.get_variable, _variable_scope.variable_scope, _variable_scope.get_variable_scope,
                  _variable_scope.zeros_initializer, _variable_scope.constant_initializer, placeholder,
                  colocate_with, name_scope, initialize_all_variables, Graph, get_default_graph,
                  reset_default_graph, Variable, global_variables, global_variables_initializer, group,
                  Session, get_default_session, ConfigProto, GPUOptions):
        setattr(v1, value.__name__, value)
    from ..runtime.tensor_shape import Dimension, TensorShape

    v1.Dimension, v1.TensorShape = Dimension, TensorShape
    v1.dimension_value = lambda d: d.value if isinstance(d, Dimension) else d
    v1.device = _scopes.device_v1
    v1.DeviceSpec = DeviceSpecV1
    v1.executing_eagerly = _scopes.executing_eagerly
    v1.errors = errors
    v1.AUTO_REUSE = _variable_scope.AUTO_REUSE
    v1.assign, v1.assign_add, v1.assign_sub = _variables.assign, _variables.assign_add, _variables.assign_sub
    for value in (_variables.variables_initializer, _variables.local_variables_initializer,
                  variable_checks.is_variable_initialized, variable_checks.report_uninitialized_variables,
                  variable_checks.assert_variables_initialized):
        setattr(v1, value.__name__, value)
    v1.local_variables = lambda scope=None: []
    from ..ops.array.array_ops import placeholder_with_default

    v1.placeholder_with_default = placeholder_with_default
    v1.initializers = ModuleType("devtrace.compat.v1.initializers")
    v1.initializers.global_variables = global_variables_initializer
    v1.initializers.local_variables = _variables.local_variables_initializer
    v1.initializers.variables = _variables.variables_initializer
    v1.VariableScope = _variable_scope.VariableScope
    v1.trainable_variables = lambda scope=None: [v for v in global_variables() if v.trainable]
    from .namespaces import debugging, math

    v1.debugging, v1.math = debugging, math
    v1.logging = compat_v1_logging
    v1.__getattr__ = _v1_getattr
    return v1


def _v1_getattr(name):
    """``tf.compat.v1.Summary``, ``HistogramProto``, ``SummaryMetadata``: TensorFlow's messages, made
    on first use (protobuf's import is not paid by programs without them); else the missing name."""
    if name in ("Summary", "HistogramProto", "SummaryMetadata"):
        from ..ops.io import example_proto

        return getattr(example_proto, name)
    return missing("compat.v1")(name)


v1 = _namespace()
__getattr__ = missing("compat")

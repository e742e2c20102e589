"""``tf.compat.v1``'s questions about TF1 variables in a graph, built from the nodes TensorFlow
2.21 builds: ``is_variable_initialized`` (``VarIsInitializedOp`` on a resource variable,
``IsVariableInitialized`` on a ref variable), ``report_uninitialized_variables`` (the names of
the variables not initialised, masked on ``/cpu:0``) and ``assert_variables_initialized`` (the
``Rank`` of every variable: a session answers a ``Rank`` of known rank without running its input
— as TensorFlow's does — but a ref variable's snapshot is read, and fails when uninitialised)."""

from __future__ import annotations

import os

from .array import array_ops
from .math import math_ops
from .array.manip_ops import boolean_mask
from ..runtime import dtypes
from ..runtime.eager.executor import execute
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.variables import RefVariable, global_variables
from ..runtime.values import constant


def is_variable_initialized(variable):
    """``tf.compat.v1.is_variable_initialized`` (no ``name``: TensorFlow's v1 export takes none)."""
    return _initialized(variable)


def _initialized(variable):
    if isinstance(variable, RefVariable):  # an op with a ref input: created colocated with the variable
        with get_default_graph().colocate_with(variable.op):
            return execute("IsVariableInitialized", (variable._variable,), dtype=dtypes.bool_)
    return variable.is_initialized()


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor: the names of the variables of ``var_list`` (default: every global
    variable) not initialised when it runs."""
    graph = get_default_graph()
    if var_list is None:
        var_list = global_variables(graph)
    with graph.name_scope(name):
        checks = [_initialized(v) for v in var_list]
        with graph.device(os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING", "/cpu:0")):
            if not var_list:
                return constant([], dtypes.string)
            mask = math_ops.logical_not(array_ops.stack(checks))
            names = constant([v.op.name for v in var_list])
            return boolean_mask(names, mask)


def assert_variables_initialized(var_list=None):
    """The rank of each variable (stacked when several), colocated with it: running it reads
    the variables that must be read; ``None`` without variables."""
    graph = get_default_graph()
    if var_list is None:
        var_list = global_variables(graph)
    if not var_list:
        return None
    ranks = []
    for variable in var_list:
        with graph.colocate_with(variable.op), graph.name_scope("Rank") as scope:
            value = variable._snapshot if isinstance(variable, RefVariable) else variable.read_value()
            ranks.append(execute("Rank", (value,), name=scope))
    return ranks[0] if len(ranks) == 1 else array_ops.stack(ranks)

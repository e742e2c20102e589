"""TF1 variables in graph mode (``RefVariable``): the nodes ``tf.compat.v1.Variable`` builds.

``Variable(initial_value, name='Variable')`` adds, as TensorFlow 1 does:

* ``Variable/initial_value`` (``Const``) and ``Variable`` (``VariableV2``, the buffer), both
  under the current device scope;
* ``Variable/Assign`` (``Assign``), the initializer, joined to the variable by its ref input;
* ``Variable/read`` (``Identity``), created under ``colocate_with(variable)``, which every use
  of the variable reads.

``v.assign(value)`` adds ``Assign`` (value ``Assign/value``) under the *current* device scope;
the placer then moves it to the variable's device because of the ref edge (TensorFlow logs
``Ignoring device specification …``).
"""

from __future__ import annotations

from .. import context as _context_mod
from ..eager.variables import Variable as EagerVariable
from .graph import BUILDER, Graph, get_default_graph  # noqa: F401 (Graph: devtrace.Graph loads this module)
from .resource_variables import GraphVariableAccessors
from .resource_variables import ResourceVariable as GraphResourceVariable
from .resource_variables import graph_tensor, check_assignable, initial_tensor, resource_variables_enabled
from .tensor import SymbolicTensor


class Variable(EagerVariable):
    """``tf.compat.v1.Variable``: devtrace's eager variable eagerly; in a graph a
    :class:`ResourceVariable` while ``resource_variables_enabled()``, a :class:`RefVariable` otherwise."""

    __hash__ = object.__hash__  # a graph's variables are hashable (an eager one is not)

    def __new__(cls, initial_value=None, trainable=True, name=None, dtype=None, *args, **kwargs):
        if cls is not Variable:
            return object.__new__(cls)
        if _context_mod.context().eager:
            return EagerVariable(initial_value, name=name, dtype=dtype, trainable=trainable)
        return object.__new__(ResourceVariable if resource_variables_enabled() else RefVariable)


class ResourceVariable(GraphResourceVariable, Variable):
    """A resource variable in a TF1 graph (``VarHandleOp``)."""


class RefVariable(GraphVariableAccessors, Variable):
    """A TF1 ref variable (``VariableV2``): what ``disable_v2_behavior()`` makes variables."""

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, validate_shape=True, **_):
        if callable(initial_value):
            initial_value = initial_value()
        graph = initial_value.graph if isinstance(initial_value, SymbolicTensor) else get_default_graph()
        self._graph = graph
        self.trainable = trainable
        with graph.name_scope(name or "Variable") as scope:
            init = initial_tensor(graph, initial_value, dtype, validate_shape)
            self._variable = graph._create_op("VariableV2", (), {"shape": init._shape, "dtype": init._dtype.name},
                                              scope, init._dtype)._outputs[0]
            self._holder = self._shape_source = self._variable
            self._initial_value = init
            self._initializer_op = graph._create_op("Assign", (self._variable, init), None, "Assign", init._dtype)
            with graph.colocate_with(self._variable._op):
                self._snapshot = graph._create_op("Identity", (self._variable,), None, "read", init._dtype)._outputs[0]
        self._dtype = init._dtype
        graph._variables.append(self)

    # -- what TensorFlow's RefVariable exposes (and GraphVariableAccessors) -----------------------
    def initialized_value(self):
        return self._snapshot

    def value(self):
        return self._snapshot

    def read_value(self):
        return self._snapshot

    def _as_graph_element(self):
        return self._variable

    def eval(self, session=None):
        return self._variable.eval(session=session)

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """An ``Assign`` node under the current device scope; its output is the new value."""
        graph = self._graph
        with graph.name_scope(name or "Assign") as scope:
            value = graph_tensor(graph, value, self._dtype, "value")
            check_assignable(self, value, scope[:-1], use_locking)
            op = graph._create_op("Assign", (self._variable, value), None, scope, self._dtype)
        return op._outputs[0] if read_value else op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self._update("AssignAdd", delta, name, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self._update("AssignSub", delta, name, read_value)

    def _update(self, op_type, delta, name, read_value):
        """``AssignAdd``/``AssignSub`` on the ref (its ``value`` a constant ``<op>/value``), created
        colocated with the variable, as TensorFlow creates every op with a ref input."""
        graph = self._graph
        with graph.name_scope(name or op_type) as scope:
            delta = graph_tensor(graph, delta, self._dtype, "value")
            with graph.colocate_with(self._variable._op):
                op = graph._create_op(op_type, (self._variable, delta), None, scope, self._dtype)
        return op._outputs[0] if read_value else op

    def __repr__(self):
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self._dtype.name}_ref>"

    def numpy(self):
        raise NotImplementedError("numpy() is only available when eager execution is enabled.")


def _graph_variable(initial_value=None, name=None, dtype=None, trainable=True, **kwargs):
    """``tf.Variable(...)`` while a TF1 graph is being built (the eager class's argument order)."""
    return Variable(initial_value, trainable=trainable, name=name, dtype=dtype, **kwargs)


BUILDER.variable = staticmethod(_graph_variable)


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """``tf.compat.v1.assign``: a ref variable's ``Assign`` (``use_locking`` defaults to true, as the
    op's), a resource variable's ``assign``."""
    if isinstance(ref, RefVariable):
        return ref.assign(value, use_locking=True if use_locking is None else use_locking, name=name)
    return ref.assign(value, name=name)


def assign_add(ref, value, use_locking=None, name=None):
    return ref.assign_add(value, name=name)


def assign_sub(ref, value, use_locking=None, name=None):
    return ref.assign_sub(value, name=name)


def global_variables(graph=None) -> list:
    return list((graph or get_default_graph())._variables)


def group(*inputs, name=None):
    """``tf.group``: a ``NoOp`` depending on ``inputs`` — one ``NoOp`` per device first when the
    inputs request different devices, as TensorFlow does."""
    graph = get_default_graph()
    by_device: dict[str, list] = {}
    for x in inputs:
        op = x if not isinstance(x, SymbolicTensor) else x.op
        by_device.setdefault(op.device, []).append(op)
    with graph.name_scope(name or "group_deps") as scope:
        if len(by_device) <= 1:
            (device, deps), = by_device.items() if by_device else (("", []),)
            return _no_op(graph, device, deps, scope)
        per_device = [_no_op(graph, device, by_device[device], None) for device in sorted(by_device)]
        return _no_op(graph, None, per_device, scope)


def _no_op(graph, device, deps, name):
    with graph.control_dependencies(deps):
        if device is None:
            return graph._create_op("NoOp", (), None, name)
        with graph.device(device):
            return graph._create_op("NoOp", (), None, name)


def variables_initializer(var_list, name="init"):
    """The NoOp that runs the initializers of ``var_list`` (``init``, ``init_1`` …)."""
    if not var_list:
        return get_default_graph()._create_op("NoOp", (), None, name)
    return group(*[v.initializer for v in var_list], name=name)


def global_variables_initializer():
    """``init``: the NoOp that runs every variable's initializer."""
    return variables_initializer(global_variables())


def local_variables_initializer():
    """``init``: devtrace has no local variables, so a NoOp (as TensorFlow's when there are none)."""
    return variables_initializer([])

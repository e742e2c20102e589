"""Resource variables in TF1 graphs: what ``tf.compat.v1.Variable`` builds in TensorFlow 2.21
when only eager execution is disabled (``resource_variables_enabled()`` is ``True`` until
``disable_resource_variables()`` or ``disable_v2_behavior()``).

``Variable([1., 2.], name='v')`` adds, as TensorFlow does:

* ``v/Initializer/initial_value`` (``Const``) and ``v`` (``VarHandleOp``: the handle, a
  ``resource`` scalar);
* ``v/IsInitialized/VarIsInitializedOp``, ``v/Assign`` (``AssignVariableOp``, the initializer)
  and ``v/Read/ReadVariableOp`` (the variable's graph element);

and every use of the variable as a tensor adds a ``ReadVariableOp`` in the current name scope.
The handle is a generator (placed in the placer's second pass); its consumers join its
colocation group through their resource edge. A session keeps the values by handle node.
"""

from __future__ import annotations

from ..dtypes import bool_, resource
from ..eager.variables import Variable as EagerVariable
from ..values import convert_to_tensor
from .graph import get_default_graph
from .tensor import SymbolicTensor

_state = {"enabled": None}  # None: the default (TensorFlow 2's True; False under --compat tf1)


def resource_variables_enabled() -> bool:
    if _state["enabled"] is not None:
        return _state["enabled"]
    from .placer import tf1_graphs

    return not tf1_graphs()


def enable_resource_variables() -> None:
    _state["enabled"] = True


def disable_resource_variables() -> None:
    _state["enabled"] = False


def graph_tensor(graph, value, dtype, name):
    if isinstance(value, SymbolicTensor):
        return value
    if isinstance(value, EagerVariable) and getattr(value, "_graph", None) is not None:  # a graph variable
        return value.value()
    with graph.as_default():
        return convert_to_tensor(value, dtype=dtype, name=name)


def initial_tensor(graph, initial_value, dtype, validate_shape, name="initial_value"):
    """A variable's initial value as a graph tensor (a callable is called first)."""
    if initial_value is None:
        raise ValueError("initial_value must be specified.")
    if callable(initial_value):
        initial_value = initial_value()
    init = graph_tensor(graph, initial_value, dtype, name)
    if validate_shape and init._shape is not None and None in init._shape:
        raise ValueError(f"initial_value must have a shape specified: {init}")
    return init


def _dims(shape) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def check_assignable(variable, value, node: str, use_locking: bool = False) -> None:
    """A ref variable's ``Assign`` of a value whose static shape cannot match: TensorFlow's shape
    inference error, naming the node ``node`` it would have been."""
    mine, theirs = variable._variable._shape, value._shape
    if mine is None or theirs is None:
        return
    if len(mine) != len(theirs):
        head = f"Shapes must be equal rank, but are {len(mine)} and {len(theirs)}"
    else:
        bad = [k for k, (a, b) in enumerate(zip(mine, theirs)) if a is not None and b is not None and a != b]
        if not bad:
            return
        k = bad[0]
        head = (f"Dimension {k} in both shapes must be equal, but are {mine[k]} and {theirs[k]}. Shapes are "
                f"{_dims(mine)} and {_dims(theirs)}.")
    raise ValueError(f"{head} for '{{{{node {node}}}}} = Assign[T={variable._dtype.enum_name}, use_locking="
                     f"{str(use_locking).lower()}, validate_shape=true]({variable._variable._op.name}, {value._op.name})' "
                     f"with input shapes: {_dims(mine)}, {_dims(theirs)}.")


class GraphVariableAccessors:
    """What TensorFlow's graph variables expose, resource and ref variables alike, read from the
    output of the node that holds the variable (``_holder``: ``VarHandleOp``'s handle, ``VariableV2``'s
    ref) and from the tensor whose shape is the variable's (``_shape_source``)."""

    @property
    def name(self) -> str:
        return self._holder.name

    @property
    def op(self):
        return self._holder._op

    @property
    def graph(self):
        return self._graph

    @property
    def device(self) -> str:
        return self._holder._op._device

    @property
    def shape(self):
        return self._shape_source.shape

    def get_shape(self):
        return self.shape

    @property
    def initializer(self):
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value


class ResourceVariable(GraphVariableAccessors, EagerVariable):
    """A graph resource variable (TensorFlow's ``ResourceVariable`` built in a TF1 graph)."""

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, validate_shape=True, **_):
        graph = get_default_graph()
        self._graph = graph
        self.trainable = trainable
        with graph.name_scope(name or "Variable") as scope:
            with graph.name_scope("Initializer"):
                init = initial_tensor(graph, initial_value, dtype, validate_shape, "initial_value")
            shape = init._shape
            handle = graph._create_op("VarHandleOp", (), {"shape": shape, "dtype": init._dtype.name,
                                                          "shared_name": scope[:-1]}, scope, init._dtype)
            handle._outputs[0]._dtype, handle._outputs[0]._shape = resource, ()
            self._handle_tensor = self._holder = handle._outputs[0]
            self._shared_name = scope[:-1]
            self._dtype, self._shape = init._dtype, shape
            self._initial_value = init
            with graph.name_scope("IsInitialized"):
                self._is_initialized = self._node("VarIsInitializedOp", (), bool_, ())
            self._initializer_op = graph._create_op("AssignVariableOp", (self._handle_tensor, init), None,
                                                    "Assign", init._dtype)
            with graph.name_scope("Read"):
                self._graph_element = self._shape_source = self._node("ReadVariableOp", ())
        graph._variables.append(self)

    def _node(self, op_type, inputs, dtype=None, shape=None, name=None):
        op = self._graph._create_op(op_type, (self._handle_tensor,) + tuple(inputs), None, name or op_type,
                                    self._dtype, self._shape if shape is None else shape)
        if dtype is not None:
            op._outputs[0]._dtype = dtype
        return op._outputs[0]

    # -- what TensorFlow's ResourceVariable exposes (and GraphVariableAccessors) -------------------
    @property
    def handle(self) -> SymbolicTensor:
        return self._handle_tensor

    def is_initialized(self, name=None):
        """A new ``VarIsInitializedOp`` (a bool scalar) in the current name scope."""
        return self._node("VarIsInitializedOp", (), bool_, (), name)

    def read_value(self):
        """A new ``ReadVariableOp`` in the current name scope."""
        return self._node("ReadVariableOp", ())

    def value(self):
        return self.read_value()

    def _read(self):
        return self.read_value()

    def __tf_tensor__(self, dtype=None, name=None):
        return self.read_value()

    def _as_graph_element(self):
        return self._graph_element

    def eval(self, session=None):
        return self._graph_element.eval(session=session)

    def _update(self, op_type, value, read_value):
        """An assignment node, then (``read_value``) a read that runs after it."""
        value = initial_tensor(self._graph, value, self._dtype, False, None)
        mine, theirs = self._shape, value._shape
        if op_type == "AssignVariableOp" and mine is not None and theirs is not None and \
                (len(mine) != len(theirs) or any(a is not None and b is not None and a != b
                                                 for a, b in zip(mine, theirs))):
            raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape mismatch.The variable shape "
                             f"{self.shape}, and the assigned value shape {value.shape} are incompatible.")
        op = self._node(op_type, (value,))._op
        if not read_value:
            return op
        with self._graph.control_dependencies([op]):
            return self.read_value()

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._update("AssignVariableOp", value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("AssignAddVariableOp", delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("AssignSubVariableOp", delta, read_value)

    def __repr__(self):
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self._dtype.name}>"

    def numpy(self):
        raise NotImplementedError("numpy() is only available when eager execution is enabled.")

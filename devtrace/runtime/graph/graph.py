"""TensorFlow 1 graphs: ``Graph``, ``Operation`` and symbolic tensors.

In graph mode (``compat.v1.disable_eager_execution()``, or inside ``Graph.as_default()``) the
op functions of :mod:`devtrace.ops` build nodes instead of running kernels: the eager executor
hands each call to the context's ``graph_builder`` (:data:`BUILDER`), which this room installs. A node records what
TensorFlow's NodeDef records — a unique name (``Const``, ``Const_1``, ``a_1``), its inputs, the
device *requested* by the ``device()`` scopes around it (``merge_device``: inner fields win)
and its ``_class`` colocation groups — and nothing is placed until a ``Session`` runs it
(:mod:`devtrace.runtime.graph.placer`).

Besides its op list the graph keeps the small indexes the placer needs to stay linear: the ids
of nodes with ref/resource inputs, of nodes with colocation groups, and the set of group names.
"""

from __future__ import annotations

import contextlib
import re

import numpy as np

from ...errors import NotFoundError
from .. import context as _context_mod
from ..dtypes import as_dtype
from ..registry import REGISTRY, lookup
from . import device_scopes, graph_elements, host_consts, input_types, shape_inference
from .host_consts import dynamic_inputs, kernel_inputs
from .operation import Operation, add_consumer
from .graph_def import GraphDef, NodeDef
from .graph_errors import definition_frames
from .tensor import REF_OUTPUTS, SymbolicTensor, output_of

# Inputs of ref (or resource) type: TensorFlow colocates their producer with the consumer.
REF_INPUTS = {"Assign": (0,), "AssignAdd": (0,), "AssignSub": (0,), "VarIsInitializedOp": (0,),
              "IsVariableInitialized": (0,), "ReadVariableOp": (0,), "AssignVariableOp": (0,),
              "AssignAddVariableOp": (0,), "AssignSubVariableOp": (0,),
              **dict.fromkeys(("QueueEnqueueV2", "QueueEnqueueManyV2", "QueueDequeueV2", "QueueDequeueManyV2",
                               "QueueDequeueUpToV2", "QueueCloseV2", "QueueSizeV2", "QueueIsClosedV2"), (0,))}
# Ops that make a resource and keep their requested device as its group's (a queue, a variable's handle)
RESOURCE_MAKERS = frozenset(("VarHandleOp", "FIFOQueueV2", "PaddingFIFOQueueV2", "RandomShuffleQueueV2",
                             "PriorityQueueV2"))
NO_OUTPUT = frozenset(("NoOp", "QueueEnqueueV2", "QueueEnqueueManyV2", "QueueCloseV2", "DestroyResourceOp"))

GENERATOR, REF_GENERATOR = 1, 2  # Operation._kind (0: any other node)
_VALID_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")  # inside a scope, TensorFlow allows a leading '_'
_VALID_NAMES: set = set()  # node names the pattern accepted (a loop names its nodes alike)
_new_tensor = SymbolicTensor.__new__  # a SymbolicTensor without its __init__ frame (_binary_node)


class Graph:
    """A TensorFlow 1 graph: nodes in creation order (a topological order) plus scopes."""

    def __init__(self):
        self.captures = None  # a function graph's (FuncGraph) captured values; a TF1 graph captures none
        self._ops: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._names_in_use: dict[str, int] = {}
        self._name_stack = ""
        self._device_stack: list = []  # DeviceSpec | a device function | None (reset) | "" (inherit), innermost last
        self._device_functions = False  # a device function is on the stack: each node's device is computed
        self._device = ""  # the merged request for nodes created now
        self._colocation_stack: list[Operation] = []
        self._control_stack: list[list] = []
        self._finalized = False
        self._variables: list = []  # GLOBAL_VARIABLES
        self._variable_store: dict = {}  # get_variable's variables by full name
        # indexes for the placer (see the module docstring)
        self._ref_consumers: list[int] = []
        self._colocated: list[int] = []
        self._colocation_targets: set[str] = set()

    # -- introspection ---------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self._ops)

    @property
    def finalized(self) -> bool:
        return self._finalized

    def finalize(self) -> None:
        self._finalized = True

    def get_operations(self) -> list:
        return list(self._ops)

    def as_graph_def(self, add_shapes=False) -> "GraphDef":
        """The nodes as TensorFlow's ``GraphDef`` lists them: name, op, inputs (``^`` for control
        inputs), requested device, attribute names."""
        return GraphDef([NodeDef(op.name, op.type,
                                 [t._op.name if t._index == 0 else t.name for t in op._inputs]
                                 + [f"^{c.name}" for c in op._control_inputs], op._device, dict(op._attrs or {}),
                                 op._n_host, op._kernel_dtype)
                         for op in self._ops])

    def get_operation_by_name(self, name: str) -> Operation:
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """TensorFlow's ``Graph.as_graph_element``, with its error texts."""
        return graph_elements.as_graph_element(self, obj, allow_tensor, allow_operation)

    # -- scopes ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self):
        """Make this the default graph; inside, ops build nodes here (TensorFlow: graph mode)."""
        ctx = _context_mod.context()
        saved = ctx.eager
        ctx.eager, ctx.graph_builder = False, BUILDER
        _STACK.append(self)
        try:
            yield self
        finally:
            _STACK.pop()
            ctx.eager = saved

    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """TensorFlow's ``Graph.unique_name``: ``a``, ``a_1``, ``a_2`` … (case-insensitive)."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        names = self._names_in_use
        key = name.lower()
        i = names.get(key, 0)
        if mark_as_used:
            names[key] = i + 1
        if i > 0:
            suffix = f"_{i}"
            taken = key + suffix
            while taken in names:
                i += 1
                suffix = f"_{i}"
                taken = key + suffix
            if mark_as_used:
                names[taken] = 1
            name += suffix
        return name

    @contextlib.contextmanager
    def name_scope(self, name):
        """``with g.name_scope('Variable') as scope`` → ``'Variable/'`` (uniquified); a name ending
        in ``/`` is used as is; ``None``/``""`` resets to the top level."""
        if name:
            if name.endswith("/"):
                new = name[:-1]
            else:
                if self._name_stack and not _VALID_SCOPE_NAME.match(name):
                    raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the following "
                                     f"pattern: {_VALID_SCOPE_NAME.pattern}")
                if not self._name_stack and not _VALID_NAME.match(name):
                    raise ValueError(f"'{name}' is not a valid root scope name. A root scope name has to match the "
                                     f"following pattern: {_VALID_NAME.pattern}")
                new = self.unique_name(name)
        else:
            new = ""
        saved = self._name_stack
        self._name_stack = new
        try:
            yield new + "/" if new else ""
        finally:
            self._name_stack = saved

    @contextlib.contextmanager
    def device(self, name):
        """A device scope recorded on the nodes created inside (``merge_device``: inner fields
        override outer ones; ``None`` ignores outer scopes; ``""`` inherits them)."""
        self._device_stack.append(device_scopes.entry(name))
        self._recompute_device()
        try:
            yield
        finally:
            self._device_stack.pop()
            self._recompute_device()

    def _recompute_device(self) -> None:
        self._device, self._device_functions = device_scopes.merged(self._device_stack)

    def _device_for(self, op) -> str:
        return device_scopes.device_for(self._device_stack, op)

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Nodes created inside join ``op``'s colocation groups and take its device; outer device
        scopes are ignored (TensorFlow: colocation is "stronger" than device functions)."""
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        op = _op_of(op) if op is not None else None
        saved = (self._device_stack, self._device, self._colocation_stack)
        self._device_stack, self._device = [], ""
        if ignore_existing:
            self._colocation_stack = []
        if op is not None:
            self._colocation_stack = self._colocation_stack + [op]
        try:
            yield
        finally:
            self._device_stack, self._device, self._colocation_stack = saved

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        if control_inputs is None:
            saved, self._control_stack = self._control_stack, []
        else:
            saved = self._control_stack
            self._control_stack = saved + [[_op_of(c) for c in control_inputs]]
        try:
            yield
        finally:
            self._control_stack = saved

    # -- building --------------------------------------------------------------------------
    def create_op(self, op_type, inputs=(), dtypes=None, name=None, attrs=None):
        """Add a node (TensorFlow's ``Graph.create_op``); ``dtypes[0]`` is the output dtype
        (default: the first input's). Returns the ``Operation``."""
        dtype = as_dtype(dtypes[0]) if dtypes else None
        return self._create_op(op_type, tuple(inputs), attrs, name, dtype)

    def _create_op(self, op_type, inputs, attrs=None, name=None, dtype=None, shape=None):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        try:
            opdef = REGISTRY.get(op_type) or lookup(op_type)
        except NotFoundError:
            raise NotFoundError(f"Op type not registered '{op_type}' in binary running on devtrace. Make sure "
                                f"the Op and Kernel are registered in the binary running in this process.") from None
        for t in inputs:
            if type(t) is not SymbolicTensor and not isinstance(t, SymbolicTensor):
                raise TypeError(f"Expected a graph tensor as input of {op_type}, got {type(t).__name__}")
            if t._op._graph is not self:
                raise ValueError(f"{t} must be from the same graph as the op being created in {self!r}.")
        if not name:
            name = self.unique_name(op_type)
        elif name[-1] == "/":
            name = name[:-1]
        else:
            if name not in _VALID_NAMES:
                if not _VALID_NAME.match(name):
                    raise ValueError(f"'{name}' is not a valid node name")
                if len(_VALID_NAMES) < 4096:
                    _VALID_NAMES.add(name)
            name = self.unique_name(name)
        op = Operation()
        op._n_host, op._inputs, op._dynamic, kernel = 0, inputs, (), inputs
        if attrs and "_host_inputs" in attrs:  # inputs whose values the kernel takes as attrs (host_consts)
            attrs = dict(attrs)
            op._n_host = attrs.pop("_host_inputs")
            op._dynamic = dynamic_inputs(op, opdef)
            kernel = kernel_inputs(op)
        if dtype is None and kernel:
            dtype = kernel[0]._dtype
        op._graph, op._id, op.name, op.type, op._attrs = self, len(self._ops), name, op_type, attrs
        i = op._id
        op._kernel_dtype = dtype.name if dtype is not None else None
        op._consumers = None
        op._traceback = definition_frames()
        op._device = self._device if not self._device_functions else self._device_for(op)
        op._colocation = None
        if self._colocation_stack:
            self._colocate(op, i)
        op._control_inputs = tuple(dict.fromkeys(c for deps in self._control_stack for c in deps)) \
            if self._control_stack else ()
        op._outputs = () if op_type in NO_OUTPUT else shape_inference.outputs(op, opdef, kernel, attrs, dtype, shape)
        if inputs:
            op._kind = 0
            for t in inputs:
                producer = t._op
                if producer._consumers is None:  # add_consumer's first case, spelled out
                    producer._consumers = i
                else:
                    add_consumer(producer, i)
        else:
            op._kind = REF_GENERATOR if op_type in REF_OUTPUTS else (GENERATOR if len(op._outputs) == 1 else 0)
        for producer in op._control_inputs:
            add_consumer(producer, i)
        if op_type in REF_INPUTS:
            self._ref_consumers.append(i)
        self._ops.append(op)
        self._by_name[name] = op
        return op

    def _colocate(self, op, i: int) -> None:
        """``op`` (node ``i``) joins the groups of the ``colocate_with`` scopes around it, and takes
        the device of the innermost one that has one."""
        groups = set()
        device_set = False
        for c in reversed(self._colocation_stack):
            groups.update(c._colocation or (c.name,))
            if c._device and not device_set:
                op._device = c._device
                device_set = True
        op._colocation = tuple(sorted(groups))
        self._colocated.append(i)
        self._colocation_targets.update(op._colocation)

    def _create_const(self, array: np.ndarray, dtype, name=None) -> SymbolicTensor:
        op = self._create_op("Const", (), {"value": array, "dtype": dtype.name}, name, dtype, tuple(array.shape))
        return op._outputs[0]

    _tf_class = "tensorflow.python.framework.ops.Graph"  # what TensorFlow's default repr names

    def __repr__(self):
        return f"<{self._tf_class} object at {id(self):#x}>"


@contextlib.contextmanager
def init_scope():
    """``tf.init_scope``: lift out of every graph being built (a tf.function's) into eager mode."""
    ctx = _context_mod.context()
    saved_stack, saved_eager = list(_STACK), ctx.eager
    _STACK.clear()
    ctx.eager = True
    try:
        yield
    finally:
        _STACK[:] = saved_stack
        ctx.eager = saved_eager


def _op_of(value) -> Operation:
    """The Operation behind an op, a tensor or a variable (``colocate_with`` accepts all three)."""
    if isinstance(value, Operation):
        return value
    convert = getattr(value, "_as_graph_element", None)
    if convert is not None:
        value = convert()
    if isinstance(value, SymbolicTensor):
        return value._op
    raise TypeError(f"Can not convert a {type(value).__name__} into an Operation.")


# -- the default graph and the eager switch ----------------------------------------------------
_STACK: list[Graph] = []
_default: list[Graph] = []


def get_default_graph() -> Graph:
    if _STACK:
        return _STACK[-1]
    if not _default:
        _default.append(Graph())
    return _default[0]


def reset_default_graph() -> None:
    if _STACK:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    _default[:] = [Graph()]


def disable_eager_execution() -> None:
    """From now on ops build nodes of the default graph (run them with a ``Session``)."""
    ctx = _context_mod.context()
    ctx.eager, ctx.graph_builder = False, BUILDER


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    _context_mod.context().eager = True


# -- the eager executor's graph-mode entry points --------------------------------------------------
def _graph_of(inputs) -> Graph:
    graph = None
    for t in inputs:
        if not isinstance(t, SymbolicTensor):
            raise RuntimeError("Attempting to capture an EagerTensor without building a function.")
        if graph is None:
            graph = t._op._graph
        elif t._op._graph is not graph:
            raise ValueError(f"{t} must be from the same graph as {inputs[0]}.")
    return graph or get_default_graph()


def build_op(op_type, inputs, attrs, name, dtype, resource):
    """What ``execute`` does in graph mode: add a node, return its output (:func:`_build`).

    The node most graphs are made of is added here in one frame: two symbolic inputs of one TF1
    graph with one dtype (no TypeError to raise), an op with a shape function and one output, no
    attributes, a name used before (or none), no device function, colocation or control dependency
    around it — ``_create_op`` and ``shape_inference.outputs`` spelled out for it, the node and its
    output made without ``__init__`` frames."""
    graph = _STACK[-1] if _STACK else get_default_graph()
    opdef = REGISTRY.get(op_type)
    if attrs is not None or resource is not None or graph.captures is not None or type(inputs) is not tuple \
            or len(inputs) != 2 or opdef is None or opdef.shape is None or opdef.multi:
        return _build(opdef, op_type, inputs, attrs, name, dtype, resource)
    x, y = inputs
    if type(x) is not SymbolicTensor or type(y) is not SymbolicTensor or x._dtype is not y._dtype:
        return _build(opdef, op_type, inputs, attrs, name, dtype, resource)
    graph = x._op._graph
    if graph is not y._op._graph or graph._finalized or graph._device_functions or graph._colocation_stack \
            or graph._control_stack or (name and name not in _VALID_NAMES):
        return _build(opdef, op_type, inputs, attrs, name, dtype, resource)
    if dtype is None:
        dtype = x._dtype
    name = graph.unique_name(name or op_type)
    ops = graph._ops
    i = len(ops)
    op = Operation()
    op._graph, op._id, op.name = graph, i, name  # three at a time: no tuple is built for them
    op.type, op._attrs, op._inputs = op_type, None, inputs
    op._n_host, op._dynamic, op._control_inputs = 0, (), ()
    op._colocation, op._consumers, op._kind = None, None, 0
    op._kernel_dtype = dtype.name
    op._traceback = definition_frames(4)  # 1: this function, 2: execute, 3: the devtrace function calling
    # execute (no public API: only devtrace calls it), its frame object never made
    op._device = graph._device
    out_dtype, shape = opdef.shape(name, [x._shape, y._shape], {}, dtype)
    out = _new_tensor(SymbolicTensor)
    out._value = out._device = out._handle = None
    out._seq, out._dtype, out._op = 0, out_dtype, op
    out._index, out._shape = 0, shape
    op._outputs = (out,)
    for t in inputs:  # add_consumer's common cases, spelled out
        producer = t._op
        consumers = producer._consumers
        if consumers is None:
            producer._consumers = i
        elif type(consumers) is list:
            consumers.append(i)
        else:
            producer._consumers = [consumers, i]
    if op_type in REF_INPUTS:
        graph._ref_consumers.append(i)
    ops.append(op)
    graph._by_name[name] = op
    return out


def _build(opdef, op_type, inputs, attrs, name, dtype, resource):
    """Any node (``build_op``): a function graph (``FuncGraph``) captures eager tensors and
    variables; a TF1 graph refuses them."""
    graph = _STACK[-1] if _STACK else get_default_graph()
    opdef = input_types.check(opdef, inputs)
    if graph.captures is not None:
        return graph.build(op_type, inputs, attrs, name, dtype, resource)
    if resource is not None or op_type == "VarHandleOp":
        raise RuntimeError("devtrace.Variable is eager-only; in graph mode create variables with "
                           "devtrace.compat.v1.Variable")
    if type(inputs) is tuple and len(inputs) == 2 and type(inputs[0]) is SymbolicTensor \
            and type(inputs[1]) is SymbolicTensor and inputs[0]._op._graph is inputs[1]._op._graph:  # most ops
        graph = inputs[0]._op._graph
    else:
        graph = _graph_of(inputs)
        inputs = tuple(inputs)
    if attrs and opdef is not None and opdef.const_inputs:  # its host arguments: Const nodes
        inputs, attrs, name = host_consts.add(graph, opdef, inputs, attrs, name, dtype)
    op = graph._create_op(op_type, inputs, attrs, name, dtype)
    return output_of(op, (opdef or REGISTRY[op_type]).multi)


def build_const(array: np.ndarray, dtype, name=None) -> SymbolicTensor:
    """What ``execute_const`` does in graph mode: a ``Const`` node."""
    return get_default_graph()._create_const(array, dtype, name)


class _Builder:
    """The context's ``graph_builder`` while ops build graph nodes."""

    op = staticmethod(build_op)
    const = staticmethod(build_const)

    @staticmethod
    def device(spec):
        """A ``device()`` scope on the default graph."""
        return get_default_graph().device(spec)

    @staticmethod
    def name_scope(name):
        """A ``tf.name_scope`` on the default graph."""
        return get_default_graph().name_scope(name)

    variable = None  # tf.Variable(...) in a TF1 graph: set by the variables module

    @staticmethod
    def host_inputs() -> bool:
        """Whether the default graph is a TF1 graph (not a function's)."""
        return getattr(get_default_graph(), "captures", None) is None


BUILDER = _Builder()


__all__ = ["Graph", "Operation", "SymbolicTensor", "get_default_graph", "reset_default_graph",
           "disable_eager_execution", "enable_eager_execution", "build_op", "build_const"]

"""Function graphs: what ``tf.function`` traces a Python function into.

A ``FuncGraph`` is a graph whose inputs are ``Placeholder`` nodes: one per tensor argument,
one per eager tensor the body uses (a *capture*), one per variable the body reads or assigns (a
resource capture, requested on the variable's device so the variable's ops run there). Nodes
are kept in the order the body created them, which is the order they run in — so assignments
and reads happen in program order, as TensorFlow's automatic control dependencies ensure.
"""

from __future__ import annotations

from ...errors import InvalidArgumentError
from .. import context as _context_mod
from .. import dtypes
from ..eager.tape import record as tape_record
from ..eager.variables import Variable
from ..registry import REGISTRY
from . import host_consts
from .graph import Graph
from .host_consts import kernel_inputs
from .tensor import SymbolicTensor, output_of

# ops on a variable's resource (the Generator's RngReadAndSkip reads its state and moves it on in place)
RESOURCE_OPS = frozenset(("ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
                          "RngReadAndSkip", "VariableShape"))


# stateful ops automatic control dependencies leave unordered (TensorFlow's LEGACY_RANDOM_OPS: they may
# initialise variables), and the reads that must run only when their value is used
UNORDERED = frozenset(("RandomUniform", "RandomUniformInt", "RandomStandardNormal", "ParameterizedTruncatedNormal",
                       "TruncatedNormal", "RandomShuffle", "Multinomial", "RandomGamma", "RandomGammaGrad",
                       "RandomPoisson", "RandomPoissonV2"))
RESOURCE_READS = frozenset(("ReadVariableOp", "ResourceGather", "ResourceGatherNd", "VariableShape"))
# > 0 while a tf.data function is traced whose datasets are made per element (data/_deferred.py): a
# function traced inside it (the map function of a dataset it makes) may capture its tensors, as
# TensorFlow's nested function graphs do; the caller gives their values when the function runs
ENCLOSING_CAPTURES = [0]


class FuncGraph(Graph):
    _tf_class = "tensorflow.python.framework.func_graph.FuncGraph"

    def __init__(self, name: str, outer: "FuncGraph | None" = None):
        super().__init__()
        self.name = name
        # a branch or loop body of a control-flow node: what it uses from the graph around it
        # becomes a placeholder here, fed by the node's inputs (outer_captures: [(outer tensor, placeholder)])
        self.outer = outer
        self.outer_captures: list[tuple] = []
        self.inputs: list[SymbolicTensor] = []  # argument placeholders, in order
        self.captures: dict[int, tuple] = {}  # id(eager tensor or variable) -> (the object, its placeholder)
        self.capture_names: dict[int, str] = {}  # id(placeholder op) -> the name it was converted with
        self.variables: list = []  # variables the body uses, in first-use order
        self.outputs = None  # the structure the function returns (symbolic tensors, python values)
        self.scratch = False  # a throwaway graph (AutoGraph's test of a loop condition): captures stay here
        self.control_output = None  # automatic control dependencies' NoOp (add_control_output)
        # a loop body's captures it passes on changed (a while gradient's accumulators): [(placeholder, tensor)]
        self.carried: list[tuple] = []
        self.call_site = None  # the program's frame that traced it (sources.call_site; None: not recorded)

    def add_control_output(self, outputs: list) -> None:
        """TensorFlow 2.21's automatic control dependencies: when the function returns tensors
        (``outputs``: their Identity nodes) and its body holds ops that must run — stateful ops but
        the legacy random ones, a variable read only when its value is used — a ``NoOp`` made last
        waits for them, and every output waits for it."""
        must_run = [op for op in self._ops if op.type in REGISTRY and REGISTRY[op.type].stateful
                    and op.type not in UNORDERED and (op.type not in RESOURCE_READS or op._consumers)]
        if not outputs or not must_run:
            return
        noop = self.control_output = self._create_op("NoOp", ())
        noop._control_inputs = tuple(must_run)
        for tensor in outputs:
            tensor._op._control_inputs += (noop,)

    def placeholder(self, dtype, shape, name, device="") -> SymbolicTensor:
        with self.device(device or None):
            op = self._create_op("Placeholder", (), {"dtype": dtype.name, "shape": shape}, name, dtype, shape)
        return op._outputs[0]

    def capture(self, value) -> SymbolicTensor:
        """The placeholder standing for an eager tensor (or a variable's handle) in the body."""
        hit = self.captures.get(id(value))
        if hit is not None:
            return hit[1]
        if self.outer is not None and not self.scratch:  # a branch: the enclosing function captures it
            node = self.capture_symbolic(self.outer.capture(value))
            if isinstance(value, Variable):
                self.variables.append(value)
            self.captures[id(value)] = (value, node)
            return node
        if isinstance(value, Variable):  # a resource placeholder on the variable's device
            self.variables.append(value)
            node = self.placeholder(value._dtype, tuple(value.shape), "resource", value.device)
            node._dtype, node._shape = dtypes.resource, ()  # as TensorFlow shows it (placed as the variable)
        elif value._dtype is dtypes.resource:  # a resource's handle (a queue's): placed where the resource is
            node = self.placeholder(dtypes.int32, (), "capture", value.device)
            node._dtype = dtypes.resource
        else:
            node = self.placeholder(value._dtype, tuple(value.shape), "capture", value.device)
        self.captures[id(value)] = (value, node)
        return node

    def capture_named(self, value, name: str) -> SymbolicTensor:
        """``convert_to_tensor(value, name=…)`` of an eager tensor in the body: TensorFlow names its
        capture after the conversion (``softmax_cross_entropy_with_logits/labels``), not its first use."""
        node = self.capture(value)
        self.capture_names.setdefault(id(node._op), f"{self._name_stack}/{name}" if self._name_stack else name)
        return node

    def capture_symbolic(self, tensor) -> SymbolicTensor:
        """The placeholder standing in this branch for a tensor of an enclosing graph."""
        if tensor._op._graph is self:
            return tensor
        if self.outer is None:
            graph = tensor._op._graph
            if isinstance(graph, FuncGraph) and ENCLOSING_CAPTURES[0]:  # see ENCLOSING_CAPTURES
                hit = self.captures.get(id(tensor))
                if hit is None:
                    hit = self.captures[id(tensor)] = (tensor, self.placeholder(tensor._dtype, tensor._shape, "capture"))
                return hit[1]
            if isinstance(graph, FuncGraph):  # another function's tensor, leaked out of its trace
                error = TypeError(_out_of_scope(tensor, graph))
                error.raised_at_call = True  # TensorFlow raises it calling the function: no "in user code"
                raise error
            raise ValueError(f"{tensor} must be from the same graph as the op being created in {self!r}.")
        if tensor._op._graph is not self.outer:
            tensor = self.outer.capture_symbolic(tensor)
        return self.capture_placeholder(tensor)

    def capture_placeholder(self, tensor) -> SymbolicTensor:
        """The placeholder standing for ``tensor`` (made on first use) in ``outer_captures``."""
        for outer, node in self.outer_captures:
            if outer is tensor:
                return node
        if tensor._dtype is dtypes.resource:  # placed as the variable it stands for
            node = self.placeholder(dtypes.as_dtype(tensor._op._kernel_dtype), (), "resource", tensor._op._device)
            node._dtype = dtypes.resource
        else:
            node = self.placeholder(tensor._dtype, tensor._shape, "capture", tensor._op._device)
        self.outer_captures.append((tensor, node))
        return node

    def build(self, op_type, inputs, attrs, name, dtype, resource):
        """A node for an op the body calls (the eager executor's graph-mode entry point)."""
        if resource is not None:
            variable = resource.variable
            if op_type not in RESOURCE_OPS or variable is None:
                raise InvalidArgumentError(f"devtrace cannot use {op_type} on a resource inside tf.function")
            with self.name_scope(name or op_type) as name:  # the handle's first capture: <op>/resource
                handle = self.capture(variable)
            # eager calls pass the variable's current value first (read, assign-add): the node reads it itself
            inputs = () if op_type == "ReadVariableOp" else inputs[1:] if op_type != "AssignVariableOp" else inputs
            inputs = tuple(self.capture_symbolic(t) if isinstance(t, SymbolicTensor) else self.capture(t)
                           for t in inputs)
            with self.device(variable.device):
                op = self._create_op(op_type, (handle,) + inputs, attrs, name, variable._dtype,
                                     tuple(variable.shape))
            out = op._outputs[0] if op._outputs else op
            if op_type == "ReadVariableOp":  # a tape differentiates through the read to the variable
                self._record(op_type, attrs, (variable._value,), out)
            return out
        # eager values are captured as they are converted, before the op captures the enclosing
        # graph's tensors it uses (the order of a branch's inputs)
        eager = {k: self.capture(t) for k, t in enumerate(inputs) if not isinstance(t, SymbolicTensor)}
        inputs = tuple(eager[k] if k in eager else self.capture_symbolic(t) for k, t in enumerate(inputs))
        # the name scope the op was made in: the one its Python function opened (a name given
        # as ``scope/``), else the graph's — its gradient's nodes go under gradient_tape/<scope>/
        scope = name[:-1] if name and name.endswith("/") else None
        opdef = REGISTRY[op_type]
        if attrs and opdef.const_inputs:  # its host arguments: Const nodes
            inputs, attrs, name = host_consts.add(self, opdef, inputs, attrs, name, dtype)
        op = self._create_op(op_type, inputs, attrs, name, dtype)
        out = output_of(op, opdef.multi)
        if op._outputs:
            self._record(op_type, op._attrs, kernel_inputs(op), out, scope)
        return out

    @staticmethod
    def _record(op_type, attrs, inputs, out, scope=None) -> None:
        """Gradient tapes active while tracing record the node (symbolic differentiation)."""
        ctx = _context_mod.context()
        if ctx.tapes:
            graph = out[0]._op._graph if type(out) is tuple else out._op._graph
            tape_record(ctx, op_type, attrs, inputs, out, None, graph._name_stack if scope is None else scope)


def _out_of_scope(tensor, graph) -> str:
    """TensorFlow's error for a tensor of a function already traced (without the stack where it was
    made, which devtrace does not keep)."""
    name = graph.name[len("__inference_"):].rsplit("_", 1)[0] if graph.name.startswith("__inference_") else graph.name
    return (f"{tensor!r} is out of scope and cannot be used here. Use return values, explicit Python locals or "
            f"TensorFlow collections to access it.\nPlease see https://www.tensorflow.org/guide/function"
            f"#all_outputs_of_a_tffunction_must_be_return_values for more information.\n\nThe tensor {tensor!r} "
            f"cannot be accessed from here, because it was defined in FuncGraph(name={name}, id={id(graph)}), which "
            f"is out of scope.")

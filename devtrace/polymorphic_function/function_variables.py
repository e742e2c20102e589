"""``tf.Variable`` created while a ``tf.function`` traces: lifted out of the function, as
TensorFlow lifts them (its ``UnliftedInitializerVariable``).

The variable is created eagerly, once; its initial value, when the function computed it, is
evaluated eagerly from what it depends on — constants, captured tensors and variables, and the
call's own arguments. A function whose trace creates variables is traced once more with variable
creation refused, as TensorFlow does: creating a variable on every trace is TensorFlow's
``ValueError``; creating it only the first time (``if self.v is None``) is fine.
"""

from __future__ import annotations

from ..runtime.dtypes import as_dtype
from ..runtime.eager import variables
from ..runtime.eager.executor import execute
from ..runtime.eager.variables import Variable
from ..runtime.graph.graph import init_scope
from ..runtime.graph.host_consts import kernel_inputs, runtime_attrs
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.values import constant

_SINGLETON = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
              "tf.Variable is only created once or created outside tf.function. See "
              "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


class _Evaluator:
    """The eager value of a symbolic tensor of the function being traced."""

    def __init__(self, arguments: dict):
        self.arguments = arguments  # id(argument placeholder op) -> the call's tensor
        self.values: dict = {}

    def captured(self, op):
        graph = op._graph
        for value, node in graph.captures.values():
            if node._op is op:
                return value
        for outer, node in getattr(graph, "outer_captures", ()):
            if node._op is op:
                return self(outer)
        hit = self.arguments.get(id(op))
        if hit is None:
            raise ValueError(f"devtrace cannot lift the initial value of a tf.Variable created in a tf.function: "
                             f"it depends on {op.name}, which has no value while tracing")
        return hit

    def compute(self, op):
        if op.type == "Placeholder":
            value = self.captured(op)
            return value.read_value() if isinstance(value, Variable) else value
        if op.type == "Const":
            return constant(op._attrs["value"], op._outputs[0]._dtype)
        if op.type == "ReadVariableOp":
            return self.captured(op._inputs[0]._op).read_value()
        inputs = tuple(self(t) for t in (kernel_inputs(op) if op._n_host else op._inputs))
        dtype = as_dtype(op._kernel_dtype) if op._kernel_dtype else None
        attrs = runtime_attrs(op, self._host) if op._dynamic else op._attrs
        return execute(op.type, inputs, attrs, dtype=dtype)

    def _host(self, tensor):
        value = self(tensor)
        return value._device.backend.to_host(value._value)

    def __call__(self, tensor):
        if not isinstance(tensor, SymbolicTensor):
            return tensor
        op = tensor._op
        if id(op) not in self.values:
            self.values[id(op)] = self.compute(op)
        value = self.values[id(op)]
        return value[tensor._index] if type(value) is tuple else value


class Lifter:
    """The variable creator a trace runs under."""

    def __init__(self, graph, arguments, allow: bool):
        self.arguments = {id(node._op): value for node, value in zip(graph.inputs, arguments)}
        self.allow = allow
        self.created = False

    def __call__(self, initial_value=None, name=None, dtype=None, trainable=True, **kwargs):
        if not self.allow:
            raise ValueError(_SINGLETON)
        self.created = True
        with init_scope():
            value = initial_value() if callable(initial_value) else initial_value
            value = _Evaluator(self.arguments)(value)
            return Variable(value, name=name, dtype=dtype, trainable=trainable)

    def __enter__(self):
        variables._creators.append(self)
        return self

    def __exit__(self, *exc):
        variables._creators.remove(self)
        return False

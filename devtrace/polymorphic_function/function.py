"""``tf.function``: trace a Python function once per input signature into a function graph,
then run the graph.

Python side effects happen only while tracing. A call's signature is its tensors' shapes and
dtypes, its variables (by identity) and its other Python values (by value), as TensorFlow's
tracing rules go; ``input_signature`` fixes it. ``tf.config.run_functions_eagerly(True)`` runs
the Python function itself instead, as TensorFlow does.
"""

from __future__ import annotations

import functools
import inspect
import itertools

import numpy as np

from ..backprop import cond_grad, while_grad  # noqa: F401 (the gradients of tf.cond and tf.while_loop inside functions)
from . import atomic, autograph_errors, call_op, concrete_binding, eager_concrete, function_cache, function_variables
from .. import hooks
from ..autograph import convert as autograph_convert
from ..util.nest import flatten, map_structure
from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..runtime import sources, threads
from ..runtime.context import context
from ..runtime.dtypes import as_dtype
from ..runtime.eager.variables import Variable
from ..runtime.graph.func_graph import FuncGraph
from ..runtime.graph.function_run import PlacedFunction
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.tensor import Tensor, TensorShape
from ..runtime.values import convert_to_tensor
from ..util.reprs import shown_as

_UIDS = itertools.count(1)
_RUN_EAGERLY = [False]


class TensorSpec:
    """``tf.TensorSpec(shape, dtype=tf.float32, name=None)``: the signature of a tensor argument."""

    def __init__(self, shape, dtype="float32", name=None):
        if isinstance(shape, (int, np.integer)):  # one dimension, as TensorShape(2)
            shape = (shape,)
        elif isinstance(shape, TensorShape) and shape.rank is None:
            shape = None
        self.shape = TensorShape(None if shape is None else tuple(None if d is None else int(d) for d in shape))
        self.dtype = as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tuple(tensor.shape), tensor.dtype, name)

    def is_compatible_with(self, tensor) -> bool:
        if self.shape.rank is None:
            return tensor.dtype is self.dtype
        shape = tuple(tensor.shape)
        return tensor.dtype is self.dtype and len(shape) == len(self.shape) and all(
            a is None or a == b for a, b in zip(self.shape, shape))

    def _key(self):
        return (self._dims(), self.dtype.name)

    def _dims(self):
        """The shape as a tuple (``None``: unknown rank)."""
        return None if self.shape.rank is None else tuple(self.shape)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and self._key() == other._key() and self.name == other.name

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"


def run_functions_eagerly(run_eagerly: bool) -> None:
    _RUN_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _RUN_EAGERLY[0]


def _extension(value) -> bool:
    """An extension type value (``tf.experimental.ExtensionType``): its tensors are arguments."""
    return hasattr(type(value), "_tf_extension_type_fields")


def _extension_spec(value) -> bool:
    return hasattr(getattr(value, "value_type", None), "_tf_extension_type_fields")


def _key_of(value):
    """A call argument's part of the signature."""
    if isinstance(value, Tensor):
        return ("T", tuple(value.shape), value.dtype.name)
    if isinstance(value, TensorSpec):
        return ("T",) + value._key()
    if _extension(value) or _extension_spec(value):  # by its spec: its tensors' shapes and dtypes, its other fields
        return ("X",) + (value._type_spec if _extension(value) else value)._key()
    if isinstance(value, Variable):  # a variable argument is its spec: one trace serves all of one shape and dtype
        return ("V", type(value).__name__, tuple(value.shape), value.dtype.name)
    if isinstance(value, dict):
        return ("D", tuple((k, _key_of(value[k])) for k in sorted(value)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key_of(v) for v in value))
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return ("P", type(value).__name__, value)


def _plain(args) -> bool:
    """Only eager tensors as arguments (a ``Function``'s call takes its short path then)."""
    for value in args:
        if type(value) is not Tensor or value._device is None:
            return False
    return True


def _plain_key(args) -> tuple:
    """``_key_of((args, {}))`` for eager tensors ``args`` (``_plain``), without its recursion."""
    return ("tuple", (("tuple", tuple([("T", tuple(value.shape), value._dtype.name) for value in args])), ("D", ())))


def _plain_specs(signature) -> tuple:
    """``(dtype, dims)`` of each spec of ``signature`` when all are ``TensorSpec``s; else ``()``."""
    if not all(type(spec) is TensorSpec for spec in signature):
        return ()
    return tuple((spec.dtype, spec._dims()) for spec in signature)


def _ragged(args, kwargs) -> bool:
    """A RaggedTensor among the arguments: devtrace runs the Python function eagerly then (README,
    deliberate differences: no trace of a ragged tensor's components)."""
    def ragged(value) -> bool:
        if _extension(value):  # one inside an extension type too
            return any(ragged(part) for part in value._nest_components())
        return isinstance(value, RaggedTensor)
    return any(ragged(v) for v in flatten((list(args), kwargs)))


def _tensors(flat) -> list:
    """The tensors of flattened arguments (an extension type's, in its fields' order)."""
    out = []
    for value in flat:
        if isinstance(value, Tensor):
            out.append(value)
        elif _extension(value):
            out.extend(value._nest_flat())
    return out


def _replica() -> tuple:
    """A replica of a distribution strategy's ``run`` traces its own function (what it captures
    and its replica id are its own)."""
    where = hooks.DISTRIBUTION[0]() if hooks.DISTRIBUTION else None
    return () if not where or where[1] is None else (("replica", id(where[0]), where[1]),)


def _type_text(value, leaf=None) -> str:
    """A function's output (or argument: ``leaf`` shows its items) as TensorFlow's signature shows it:
    ``TensorSpec(…)``, ``Tuple[…]``, ``List[…]``, ``Dict[['k', …]]``, ``Literal[…]`` for a Python value."""
    def item(v):
        return leaf(v) if leaf is not None else _type_text(v)
    if isinstance(value, Tensor):
        return repr(TensorSpec(None if value.shape.rank is None else tuple(value.shape), value.dtype))
    if isinstance(value, tuple) and not hasattr(type(value), "_fields"):
        return f"Tuple[{', '.join(item(v) for v in value)}]"
    if isinstance(value, list):
        return f"List[{', '.join(item(v) for v in value)}]"
    if isinstance(value, dict):
        return f"Dict[{', '.join(f'[{k!r}, {item(v)}]' for k, v in value.items())}]"
    if value is None or isinstance(value, (bool, int, float, str)):
        return f"Literal[{value!r}]"
    return repr(value)


class ConcreteFunction:
    """One trace of a ``Function``: its graph, signature and outputs."""

    def __init__(self, function, graph: FuncGraph, args, kwargs):
        self._function = function
        self.graph = graph
        self.structured_input_signature = _canonical(function, args, kwargs)
        self.structured_outputs = graph.outputs
        self._placed = None
        self._captures = None  # the graph's captures as a list (a call's, unless it passes variables)
        self._outputs = self._output_ids = None  # the outputs read by node id: ``_symbolic_ids(outputs)``

    @property
    def name(self) -> bytes:
        return self.graph.name.encode()

    @property
    def function_type(self):
        return atomic.FunctionType(self)

    @property
    def inference_fn(self):
        return atomic.AtomicFunction(self)

    @property
    def inputs(self) -> list:
        """Argument placeholders, then captured ones (tensors, variables' ``resource`` handles)."""
        return list(self.graph.inputs) + [node for _, node in self.graph.captures.values()]

    @property
    def outputs(self) -> list:
        return _tensors(flatten(self.graph.outputs))

    def pretty_printed_signature(self, verbose=True) -> str:
        """TensorFlow's layout: parameters (a Python value as ``Literal[…]``), output type, captures (by
        id, as TensorFlow shows them); ``verbose=False``: one line, ``(x: …, *, z: …) -> …``."""
        params = self._parameters()
        output = _type_text(self.graph.outputs)
        if not verbose:
            shown, star = [], False
            for name, kind, value in params:
                if kind == "KEYWORD_ONLY" and not star:
                    shown.append("*")
                    star = True
                shown.append(f"{name}: {value}")
            return f"({', '.join(shown)}) -> {output}"
        lines = ["Input Parameters:"] + [f"  {name} ({kind}): {value}" for name, kind, value in params]
        lines += ["Output Type:", f"  {output}", "Captures:"]
        captured = [(value, node) for value, node in self.graph.captures.values()]
        lines += [f"  {id(v)}: TensorSpec(shape={node.shape}, dtype={node.dtype!r}, name=None)"
                  for v, node in captured] or ["  None"]
        return "\n".join(lines)

    def _parameters(self) -> list:
        """``(name, kind, type text)`` per parameter, in the Python function's order."""
        args, kwargs = self.structured_input_signature

        def text(value):
            if isinstance(value, TensorSpec):
                return repr(TensorSpec(value._dims(), value.dtype))
            if isinstance(value, (list, tuple, dict)):  # TensorFlow's: List[Literal[1], …], Dict[['a', …]]
                return _type_text(value, text)
            return f"Literal[{value!r}]"
        try:
            signature = inspect.signature(self._function.python_function)
            binding = signature.bind(*args, **kwargs)
        except (TypeError, ValueError):  # a builtin or a partial: the specs' own names
            return [(v.name, "POSITIONAL_OR_KEYWORD", text(v)) for v in list(args) + list(kwargs.values())
                    if isinstance(v, TensorSpec)]
        given = set(binding.arguments)
        binding.apply_defaults()  # a parameter left to its default is shown with it, as TensorFlow's
        return [(name, signature.parameters[name].kind.name, text(value)) for name, value in binding.arguments.items()
                if name in given or signature.parameters[name].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                                            inspect.Parameter.VAR_KEYWORD)]

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"

    def __repr__(self):
        return f"<ConcreteFunction {self.pretty_printed_signature(verbose=False)} at 0x{id(self):X}>"

    def _call_flat(self, tensors, variables=()):
        """Run the function on ``tensors``; ``variables``: the call's variable arguments, in
        place of those the trace captured."""
        ctx = context()
        if ctx.threaded and not threads.owned():  # one op at a time (runtime/threads.py)
            return threads.locked(ctx, self._call_flat, tensors, variables)
        if ctx.initialized_by is None:
            ctx.initialize(f"tf.function {self.graph.name}")
        if self._placed is None:
            # TensorFlow pins the _Arg of each argument to the device its tensor is on
            pinned = {t._op._id: a._device for t, a in zip(self.graph.inputs, tensors) if a._device is not None}
            self._placed = PlacedFunction(ctx, self.graph, self.graph.name, pinned=pinned)
        captured = self.graph.captures
        captures = self._captures
        if captures is None or len(captures) != len(captured):
            captures = self._captures = list(captured.values())
        if variables:
            traced = [v for v in flatten(self.structured_input_signature) if isinstance(v, Variable)]
            swap = {id(old): new for old, new in zip(traced, variables) if old is not new}
            if swap:
                captures = [(swap.get(id(value), value), node) for value, node in captures]
        values = self._placed.run(ctx, tensors, captures)

        outputs = self.graph.outputs
        if self._outputs is not outputs:
            self._outputs, self._output_ids = outputs, _symbolic_ids(outputs)
        ids = self._output_ids
        if ids:  # a tuple or list of the graph's own tensors (a step's outputs): each one's value
            found = [values.get(i) for i in ids]
            return tuple(found) if type(outputs) is tuple else found

        def result(item):
            if isinstance(item, Tensor) and item._device is None:
                return values.get(item._op._id)
            return item
        return result(outputs) if isinstance(outputs, Tensor) else _map(outputs, result)

    def __call__(self, *args, **kwargs):
        tensors = concrete_binding.bind(self, TensorSpec, args, kwargs)
        if tensors is None:
            return self._call_flat(_tensors(flatten((args, kwargs))))
        return self._call_flat(tensors)


def _symbolic_ids(outputs) -> tuple:
    """The node ids of ``outputs`` when it is a plain tuple or list of the graph's tensors (what
    ``_call_flat`` reads from a run's values without mapping the structure); ``()`` otherwise."""
    if type(outputs) not in (tuple, list) or not outputs:
        return ()
    ids = []
    for item in outputs:
        if type(item) is not SymbolicTensor or item._index != 0:
            return ()
        ids.append(item._op._id)
    return tuple(ids)


def _canonical(function, args, kwargs) -> tuple:
    """TensorFlow's traced signature: arguments given by keyword to positional parameters listed
    among the positional ones."""
    python = getattr(function, "python_function", None)
    if python is None or not kwargs:
        return args, kwargs
    try:
        bound = inspect.signature(python).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    return tuple(bound.args), dict(bound.kwargs)


def _identity(tensor):
    """An output's Identity node, kept with the node that computed it: in its colocation group,
    with no requested device of its own (TensorFlow shows ``''``)."""
    from ..ops.array.array_ops import identity

    with tensor._op._graph.colocate_with(tensor._op):
        out = identity(tensor)
    out._op._device = ""
    return out


class Function:
    """What ``@tf.function`` makes of a Python function."""

    def __init__(self, python_function, name=None, input_signature=None, reduce_retracing=False, autograph=True):
        self._python_function = python_function
        self._autograph = autograph
        self._traced_function = None  # what tracing calls: the AutoGraph-converted function
        self._name = name or getattr(python_function, "__name__", "function")
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self._plain_specs = None  # ``(dtype, dims)`` per spec of an input signature of TensorSpecs only; () if not
        self._detector = None  # the retracing detector of the Python function (found at the first short call)
        self._reduce_retracing = reduce_retracing
        self._concrete: dict = {}
        self._tracing_count = 0
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self):
        return self._python_function

    def __get__(self, instance, owner):
        """``@tf.function`` on a method: one Function per instance, bound to it."""
        if instance is None:
            return self
        bound = instance.__dict__.get(f"_tf_function_{self._name}")
        if bound is None:
            bound = Function(functools.partial(self._python_function, instance), self._name, self.input_signature,
                             self._reduce_retracing, self._autograph)
            instance.__dict__[f"_tf_function_{self._name}"] = bound
        return bound

    def pretty_printed_concrete_signatures(self, verbose=True) -> str:
        """Every trace's signature, in the order they were traced."""
        return ("\n\n" if verbose else "\n").join(c.pretty_printed_signature(verbose) for c in self._concrete.values())

    def experimental_get_tracing_count(self) -> int:
        return self._tracing_count

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        if self.input_signature is not None and not args and not kwargs:
            args = self.input_signature
        if _ragged(args, kwargs) or eager_concrete.composite_spec(args, kwargs):
            return eager_concrete.EagerConcreteFunction(self._python_function, args, kwargs, TensorSpec)
        return self._concrete_for(args, kwargs)

    def _concrete_for(self, args, kwargs, call=False) -> ConcreteFunction:
        """The trace for a signature (``call``: a call, which TensorFlow's retracing warning counts)."""
        key = _key_of((args, kwargs)) + _replica()
        concrete = self._concrete.get(key)
        if concrete is None and self._reduce_retracing:
            concrete = function_cache.matching(self._concrete.values(), args, kwargs, TensorSpec)
        traced = concrete is None
        values = list(args) + [kwargs[k] for k in sorted(kwargs)]  # the call's own arguments, in flatten's order
        if traced:
            if self._reduce_retracing:
                args = function_cache.generalized(self._concrete.values(), args, TensorSpec)
            concrete = self._concrete[key] = self._trace(args, kwargs, values)
        if call:
            detector = function_cache.detector(self._python_function)
            if traced:
                detector.called_with_tracing(self._python_function)
            else:
                detector.called_without_tracing()
        return concrete

    def _trace(self, args, kwargs, values=()) -> ConcreteFunction:
        """A new trace; one that created variables is traced again refusing new ones (TensorFlow's
        check that they are created on the first call only). ``values``: the call's arguments."""
        arguments = []
        for v in flatten(list(values)):  # nested tuples, lists and dicts: their leaves, in flatten's order
            if isinstance(v, (Tensor, TensorSpec)):
                arguments.append(v if isinstance(v, Tensor) else None)
            elif _extension(v) or _extension_spec(v):
                arguments.extend(v._nest_flat() if _extension(v) else [None] * len(v._flat_specs()))
        concrete, created = self._trace_once(args, kwargs, arguments, not self._tracing_count)
        if created:
            concrete, _ = self._trace_once(args, kwargs, arguments, False)
        return concrete

    def _trace_once(self, args, kwargs, arguments, allow_variables: bool) -> tuple:
        self._tracing_count += 1
        graph = FuncGraph(f"__inference_{self._name}_{next(_UIDS)}")
        if sources.ENABLED:  # the nodes made at the calling line take each call's (function_run.py)
            graph.call_site = sources.call_site()
        names = self._parameter_names(len(args))
        with graph.as_default():
            specs = []

            def symbolic(value, name, path=None):
                """``path``: a nested tensor's spec name (``pair_0``); its placeholder is the argument's name."""
                if isinstance(value, (Tensor, TensorSpec)):
                    spec = value if isinstance(value, TensorSpec) else TensorSpec.from_tensor(value)
                    named = spec.name if isinstance(value, TensorSpec) and value.name else None  # TensorFlow keeps it
                    node = graph.placeholder(spec.dtype, spec._dims(), named or name)
                    graph.inputs.append(node)
                    specs.append(TensorSpec(spec._dims(), spec.dtype, named or path or name))
                    return node
                if _extension(value) or _extension_spec(value):  # a placeholder for each of its tensors
                    spec = value._type_spec if _extension(value) else value
                    nodes = []
                    for i, part in enumerate(spec._flat_specs()):
                        nodes.append(graph.placeholder(part.dtype, part._dims(), name if not i else f"{name}_{i}"))
                        graph.inputs.append(nodes[-1])
                    specs.append(spec)
                    return spec._from_flat(nodes)
                return value
            sym_args = [_nested_map(a, n, lambda v, path, n=n: symbolic(v, n, path)) for a, n in zip(args, names)]
            made = {k: _nested_map(kwargs[k], k, lambda v, path, k=k: symbolic(v, k, path))
                    for k in sorted(kwargs)}  # flatten's order
            sym_kwargs = {k: made[k] for k in kwargs}
            if self._traced_function is None:
                self._traced_function = autograph_convert(self._python_function) if self._autograph \
                    else self._python_function
            try:
                with function_variables.Lifter(graph, arguments, allow_variables) as lifter:
                    outputs = self._traced_function(*sym_args, **sym_kwargs)
            except Exception as e:
                error = autograph_errors.rewritten(e) if self._traced_function is not self._python_function else None
                if error is None:
                    raise
                raise error from None
            # Python values returned become constants; every output leaves through an Identity node
            graph.outputs = _map(outputs, lambda v: v if v is None else
                                 _identity(v if isinstance(v, Tensor) else convert_to_tensor(v)))
            graph.add_control_output(_tensors(flatten(graph.outputs)))
        def symbolic_arg(v) -> bool:
            return isinstance(v, (Tensor, TensorSpec)) or _extension(v) or _extension_spec(v)
        def take(value, _name):
            return specs.pop(0) if symbolic_arg(value) else value
        signature = tuple(_nested_map(a, "", take) for a in args)
        taken = {k: _nested_map(kwargs[k], "", take) for k in sorted(kwargs)}
        signature_kwargs = {k: taken[k] for k in kwargs}
        return ConcreteFunction(self, graph, signature, signature_kwargs), lifter.created

    def _signed(self, args):
        """The trace of an ``input_signature`` of plain ``TensorSpec``s for eager tensors ``args``, one
        for each spec and each compatible with it (what the checked call below would find); else None."""
        specs = self._plain_specs
        if specs is None:
            specs = self._plain_specs = _plain_specs(self.input_signature)
            self._signature_key = _key_of((self.input_signature, {}))
        if not specs or len(args) != len(specs) or not context().eager:
            return None
        for value, (dtype, dims) in zip(args, specs):
            if value._dtype is not dtype:
                return None
            if dims is not None:
                shape = value._value.shape
                if len(shape) != len(dims):
                    return None
                for d, n in zip(dims, shape):
                    if d is not None and d != n:
                        return None
        return self._concrete.get(self._signature_key + _replica())

    def _parameter_names(self, n: int) -> list:
        """The Python function's positional parameter names (TensorFlow names its placeholders so)."""
        try:
            params = [p.name for p in inspect.signature(self._python_function).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            params = []
        return [params[i] if i < len(params) else f"args_{i}" for i in range(n)]

    def __call__(self, *args, **kwargs):
        if not kwargs and not _RUN_EAGERLY[0] and _plain(args):
            if self.input_signature is None:
                concrete = self._concrete.get(_plain_key(args) + _replica()) if context().eager else None
            else:
                concrete = self._signed(args)
            if concrete is not None:  # the common call, spelled out: eager tensors in, a trace made already
                detector = self._detector
                if detector is None:
                    detector = self._detector = function_cache.detector(self._python_function)
                detector.called_without_tracing()
                return concrete._call_flat(list(args))
        if _RUN_EAGERLY[0] or _ragged(args, kwargs):
            if self.input_signature is not None:
                self._check_ragged(args, kwargs)
            return self._python_function(*args, **kwargs)
        ctx = context()
        if not ctx.eager:  # called while another function is traced: a call node there (call_op.py)
            if self._traced_function is None:
                self._traced_function = autograph_convert(self._python_function) if self._autograph \
                    else self._python_function
            outer = get_default_graph()
            if call_op.supported(ctx, outer, args, kwargs):
                return call_op.call(self, outer, args, kwargs, self._traced_function, _key_of((args, kwargs)))
            return self._traced_function(*args, **kwargs)
        args, kwargs = _map((args, kwargs), _numpy_to_tensor)  # NumPy arrays are tensors to a tf.function
        if self.input_signature is not None:
            args = tuple(_bind(value, spec) for value, spec in zip(args, self.input_signature)) + args[len(
                self.input_signature):]
            for value, spec in zip(args, self.input_signature):
                if isinstance(spec, TensorSpec) and not (isinstance(value, Tensor) and spec.is_compatible_with(value)):
                    shown = TensorSpec.from_tensor(value) if isinstance(value, Tensor) else value
                    self._binding_error(shown, spec, args, kwargs)
            signature = tuple(value if _by_value(spec, value) else spec for value, spec in zip(args, self.input_signature))
            concrete = self._concrete_for(signature, {}, call=True)
        else:
            concrete = self._concrete_for(args, kwargs, call=True)
        flat = flatten((list(args), kwargs))
        return concrete._call_flat(_tensors(flat), [a for a in flat if isinstance(a, Variable)])


    def _binding_error(self, shown, spec, args, kwargs):
        signature = ", ".join(f"{n}: {s!r}" for n, s in zip(self._parameter_names(len(self.input_signature)),
                                                               self.input_signature))
        raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast {shown!r} to {spec!r}`. Received "
                        f"args: {args} and kwargs: {kwargs} for signature: ({signature}).")

    def _check_ragged(self, args, kwargs):
        """A RaggedTensor's flat values against its ``RaggedTensorSpec``'s dtype, as TensorFlow binds it."""
        for value, spec in zip(args, self.input_signature):
            if isinstance(value, RaggedTensor) and isinstance(spec, RaggedTensorSpec) and value.dtype != spec.dtype:
                flat = value.flat_values
                inner = list(spec.shape)[spec.ragged_rank + 1:] if spec.shape.rank is not None else None
                self._binding_error(TensorSpec.from_tensor(flat), TensorSpec(None if inner is None else [None] + inner,
                                                                              spec.dtype), args, kwargs)


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_compile=None, name=None, **kwargs):
    """``@tf.function`` / ``tf.function(f, input_signature=...)``."""
    if func is None:
        return lambda f: Function(f, name, input_signature, reduce_retracing, autograph)
    return Function(func, name, input_signature, reduce_retracing, autograph)


def _numpy_to_tensor(value):
    return convert_to_tensor(value) if isinstance(value, np.ndarray) else value


def _by_value(spec, value) -> bool:
    """An input signature's spec of a Python-side value the function reads as it is (a
    ``tf.data.IteratorSpec``'s iterator: its ``next`` in the function is an ``IteratorGetNext``)."""
    return not isinstance(spec, TensorSpec) and callable(getattr(value, "get_next", None)) and \
        isinstance(value, getattr(spec, "value_type", ()))


def _bind(value, spec):
    """An argument for a TensorSpec of the input signature: a tensor, or converted to one."""
    if isinstance(spec, TensorSpec) and not isinstance(value, Tensor):
        try:
            return convert_to_tensor(value, spec.dtype)
        except (TypeError, ValueError):
            return value
    return value


def _nested_map(value, name, fn):
    """``fn(leaf, name)`` on each leaf of an argument's tuples, lists and dicts, in flatten's order
    (a dict's keys sorted), named as TensorFlow names nested placeholders (``pair_0``, ``d_k``)."""
    if isinstance(value, dict):
        made = {k: _nested_map(value[k], f"{name}_{k}", fn) for k in sorted(value)}
        return type(value)((k, made[k]) for k in value)
    if isinstance(value, (list, tuple)):
        items = [_nested_map(v, f"{name}_{i}", fn) for i, v in enumerate(value)]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return fn(value, name)


def _map(structure, fn):
    """``fn`` on each value of ``structure`` (an extension type's: on each of its tensors)."""
    def leaf(value):
        if _extension(value):
            return value._type_spec._from_flat([fn(t) for t in value._nest_flat()])
        return fn(value)
    return map_structure(leaf, structure)

shown_as(Function, "tensorflow.python.eager.polymorphic_function.polymorphic_function.Function")

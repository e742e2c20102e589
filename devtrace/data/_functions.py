"""A dataset's user function (``map``, ``filter``, ``reduce``, ``scan``, ``take_while``,
``group_by_window``'s key) as TensorFlow's ``StructuredFunctionWrapper`` makes it: traced once,
AutoGraph-converted, into a function graph ``__inference_Dataset_<transformation>_<name>_<N>``
whose arguments are the element's flattened tensors (``args_0``, ``args_1`` …, a dict's in its sorted
keys' order), then run as that graph for every element.

So a Python ``print`` in the function prints once (symbolic tensors), ``tf.print`` prints per
element, ``.numpy()`` raises while tracing (AutoGraph's ``in user code:`` error), and
``tf.py_function`` bodies run per element. The graph is placed on the CPU (a pipeline's functions
run on the host, where TensorFlow's iterator runs them) each time an iterator opens it, which logs
its nodes as TensorFlow's placer does (a ``FakeSink<k>`` per output, as tf.data's instantiation
adds); its runs are no eager op of their own (TensorFlow logs no ``Executing op`` for them), each a
``FunctionCall`` around the nodes it ran.

Elements with other than dense tensors (ragged, sparse, extension types, nested datasets) are
given to the Python function eagerly, per element, as devtrace's ``tf.function`` does for ragged
arguments.
"""

from __future__ import annotations

import itertools

import functools
import os
import traceback
import weakref

import numpy as np

from . import _deferred as deferred
from ..autograph import convert as autograph_convert, is_user_file
from ..ops.array.array_more import no_op
from ..polymorphic_function import autograph_errors
from ..polymorphic_function.function import Function, TensorSpec
from ..runtime import dtypes, threads
from ..runtime.context import context
from ..ops.ragged.ragged_tensor import RaggedTensorSpec
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..runtime.graph import tensor as symbolic_tensor
from ..runtime.graph.function_run import PlacedFunction
from ..runtime.tensor import Tensor
from ..runtime.values import constant


class Opening:
    """One iterator of a pipeline: its functions are placed once however often their datasets are
    opened under it (``repeat``'s epochs, ``interleave``'s inner datasets), as TensorFlow's
    iterator instantiates each function once."""

    __slots__ = ("__weakref__",)


_OPENING = [None]  # the iterator whose element is being computed


def iterated(opening, elements):
    """``elements`` (a pipeline's source), each computed as ``opening``'s."""
    yield from deferred.each_with(_OPENING, opening, iter(elements))


class _DatasetRun(PlacedFunction):
    """A dataset function's graph as one iterator instantiates it: on the host, its placement logged
    with tf.data's ``FakeSink`` nodes, its runs no eager op of their own."""

    logged_call = False
    sinks = True


def _dense(spec):
    """The spec as the traced function's arguments see it (a ragged component of ragged rank 0 is
    a dense tensor, as TensorFlow decodes it), or ``None`` when a component is not a dense tensor."""
    if type(spec) is dict:
        parts = {k: _dense(v) for k, v in spec.items()}
        return None if any(v is None for v in parts.values()) else parts
    if type(spec) is tuple:
        parts = tuple(_dense(v) for v in spec)
        return None if any(v is None for v in parts) else parts
    if type(spec) is TensorSpec:
        return spec
    if type(spec) is RaggedTensorSpec and spec.ragged_rank == 0:
        return TensorSpec(spec.shape, spec.dtype)
    if _is_dataset_spec(spec):  # a dataset component (a window): a placeholder dataset (data._deferred)
        return spec
    return None


def _is_dataset_spec(spec) -> bool:
    return type(spec).__name__ == "DatasetSpec"


def _flat(structure) -> list:
    """tf.data's flattening: tuples and dicts nest (a dict by its sorted keys)."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in _flat(structure[k])]
    if isinstance(structure, tuple):
        return [leaf for part in structure for leaf in _flat(part)]
    return [structure]


def _pack(structure, leaves: list, start: int = 0):
    """``(structure with leaves from leaves[start:], next index)``."""
    if isinstance(structure, dict):
        out = {}
        for k in sorted(structure):
            out[k], start = _pack(structure[k], leaves, start)
        return {k: out[k] for k in structure}, start
    if isinstance(structure, tuple):
        parts = []
        for part in structure:
            value, start = _pack(part, leaves, start)
            parts.append(value)
        return tuple(parts), start
    return leaves[start], start + 1


def _relaxed(spec, out):
    """``spec`` with each dimension ``out`` gives otherwise unknown; ``None``: not the same structure
    or dtypes (the function's error, TensorFlow's, is raised when it runs)."""
    mine, theirs = _flat(spec), _flat(out)
    if len(mine) != len(theirs):
        return None
    relaxed = []
    for s, o in zip(mine, theirs):
        if type(s) is not TensorSpec or type(o) is not TensorSpec or s.dtype != o.dtype:
            return None
        if s.shape.rank is None or o.shape.rank != s.shape.rank:
            relaxed.append(TensorSpec(None, s.dtype))
            continue
        relaxed.append(TensorSpec([a if a == b else None for a, b in zip(s.shape.as_list(), o.shape.as_list())],
                                  s.dtype))
    return _pack(spec, relaxed)[0]


def _is_dataset(value) -> bool:
    return hasattr(value, "_source") and hasattr(value, "element_spec")


def _gap(error) -> bool:
    """A name devtrace does not implement met while tracing (then the function runs eagerly)."""
    return isinstance(error, NotImplementedError) and str(error).startswith("devtrace does not implement")


def _raised_in_devtrace(error) -> bool:
    """Whether ``error`` (the first of its chain: Keras wraps a layer's) was raised inside devtrace's
    own code rather than by the program's (``x.numpy()``, ``if x:`` on a symbolic tensor: TensorFlow's
    errors too). One raised in devtrace may be TensorFlow's as well (an op's dtype check) or a gap of
    devtrace's graph mode (an image op that reads a value, a Keras layer written for known shapes)."""
    while error.__cause__ is not None or (error.__context__ is not None and not error.__suppress_context__):
        error = error.__cause__ or error.__context__
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        if os.path.abspath(frame.filename) != _SYMBOLIC:
            return os.path.abspath(frame.filename).startswith(_PACKAGE)
    return False


def _internal(func) -> bool:
    """A helper of devtrace's pipelines (``bucket_by_sequence_length``'s key, a CSV parser, Keras's
    dataset utilities), written for eager tensors: it runs eagerly. A public op given as the function
    (``ds.map(tf.io.decode_png)``) is traced."""
    while isinstance(func, functools.partial):
        func = func.func
    code = getattr(func, "__code__", None)
    return code is not None and os.path.abspath(code.co_filename).startswith(_HELPERS)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_HELPERS = tuple(_PACKAGE + room + os.sep for room in ("data", "keras"))
_SYMBOLIC = os.path.abspath(symbolic_tensor.__file__)  # where a symbolic tensor refuses to be a value


def _name(func) -> str:
    name = getattr(func, "__name__", None) or type(func).__name__
    return "lambda" if name == "<lambda>" else name


def _quiet_tensor(array, spec, host):
    """An element's component as a tensor on the host, made as TensorFlow's iterator hands it to
    the function: no op of its own (a string one through ``constant``'s conversion)."""
    if spec.dtype is dtypes.string:
        return constant(array, dtypes.string)
    return Tensor(np.asarray(array, spec.dtype.np), host, None, spec.dtype, 0)


class DatasetFunction:
    """One user function of one transformation: ``traced`` when the element is dense tensors,
    ``output_spec`` the traced outputs' specs; call it on an element's host arrays (``leading``:
    tensors given before the element's, as ``reduce``'s state)."""

    def __init__(self, func, input_spec, transformation: str, as_tensors, leading_spec=None, sample=None,
                 window=None, placeholder=None):
        self._func = func
        self._window = window  # a reduce function's second argument: window(marker) -> the placeholder dataset
        self._placeholder = placeholder  # placeholder(marker, DatasetSpec): an element's dataset component's
        self._markers = ()  # the keys of the element's dataset components in its binding
        self._marker = object()  # the window's key in an element's binding
        self.template = None  # the dataset a traced function returns (data._deferred)
        self.made_of = ()  # the graph tensors it is made of, in the order of the graph's outputs
        self._sample = sample  # the first element's arguments (``parts``), to tell a gap from an error (_trace)
        self._as_tensors = as_tensors  # an element's host arrays as eager tensors (the eager path)
        self._input_spec = input_spec
        self._leading_spec = leading_spec
        self.graph = None
        self.structured_outputs = None
        self._runs = weakref.WeakKeyDictionary()  # Opening -> its run (opened)
        args_spec = _dense(input_spec if leading_spec is None else (leading_spec, input_spec))
        if args_spec is not None and placeholder is None and any(_is_dataset_spec(s) for s in _flat(args_spec)):
            args_spec = None  # dataset components only where the transformation can make them
        if args_spec is not None and not _internal(func):
            self._trace(args_spec, transformation)

    @classmethod
    def with_state(cls, func, input_spec, transformation, as_tensors, state_spec, state_of=lambda out: out,
                   sample=None):
        """A function of ``(state, element)`` (``reduce``, ``scan``): traced again, the state's spec
        relaxed (the dimensions that changed unknown), until what it returns (``state_of`` its
        outputs' specs) fits the state it was given, as TensorFlow traces it."""
        function = cls(func, input_spec, transformation, as_tensors, state_spec, sample)
        while function.traced:
            relaxed = _relaxed(state_spec, state_of(function.output_spec()))
            if relaxed is None or relaxed == state_spec:
                break
            state_spec = relaxed
            function = cls(func, input_spec, transformation, as_tensors, state_spec, sample)
        return function

    def check_predicate(self, comma: str = ",") -> None:
        """A predicate (``filter``, ``take_while``) returns a scalar ``tf.bool``: TensorFlow's error
        when traced otherwise (``take_while``'s message lacks a comma and a space)."""
        if not self.traced:
            return
        spec = self.output_spec()
        if isinstance(spec, (tuple, dict)):
            raise AttributeError(f"'{type(spec).__name__}' object has no attribute 'is_compatible_with'")
        if spec.dtype is not dtypes.bool_ or spec.shape.rank != 0:
            space = " " if comma else ""
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor{comma} but its "
                             f"return type is{space}{spec!r}.")

    @property
    def traced(self) -> bool:
        return self.graph is not None

    traced_composites = None  # what a trace returned that holds composite values (run eagerly then)

    def static_specs(self, spec):
        """``spec`` (an eagerly run element's) with each SparseTensor's shape as the trace knew it
        (a parsed ``VarLenFeature``: ``[None]``), as TensorFlow's traced element spec."""
        def static(s, value):
            if isinstance(s, dict) and isinstance(value, dict) and set(s) == set(value):
                return {k: static(s[k], value[k]) for k in s}
            if isinstance(s, tuple) and isinstance(value, tuple) and len(s) == len(value):
                return tuple(static(a, b) for a, b in zip(s, value))
            if isinstance(s, SparseTensorSpec) and isinstance(value, SparseTensor):
                return SparseTensorSpec(value.shape, s.dtype)
            return s
        return spec if self.traced_composites is None else static(spec, self.traced_composites)

    def _trace(self, args_spec, transformation):
        func, leading = self._func, self._leading_spec is not None
        converted = autograph_convert(func)

        returned = []

        template = []

        specs = _flat(args_spec)
        datasets = [k for k, spec in enumerate(specs) if _is_dataset_spec(spec)]
        self._markers = tuple(object() for _ in datasets)

        def wrapper(*flat):
            flat = list(flat)
            for k, marker in zip(datasets, self._markers):
                flat.insert(k, self._placeholder(marker, specs[k]))
            nested, _ = _pack(args_spec, flat)
            with deferred.recording() as made_of:
                if self._window is not None:  # a reduce function: (key, window)
                    out = converted(nested, self._window(self._marker))
                elif leading:
                    state, element = nested
                    out = converted(state, *element) if type(element) is tuple else converted(state, element)
                else:
                    out = converted(*nested) if type(nested) is tuple else converted(nested)
            returned.append(True)
            if not _is_dataset(out) and not all(isinstance(t, Tensor) for t in _flat(out)):
                self.traced_composites = tuple(out) if type(out) is list else out  # static shapes: ``static_specs``
            if _is_dataset(out):  # a dataset of the element: the graph computes what it is made of
                if made_of.sources:  # TensorFlow's body waits on its source dataset ops
                    no_op()
                template.append((out, tuple(made_of.tensors)))
                return tuple(made_of.tensors)
            return out
        function = Function(wrapper, name=f"Dataset_{transformation}_{_name(func)}", autograph=False)
        try:
            concrete = function.get_concrete_function(*[spec for spec in specs if not _is_dataset_spec(spec)])
        except Exception as e:
            if returned or _gap(e) or isinstance(e, deferred.Unbound):  # no tensors returned (a ragged tensor): eagerly
                return
            if _raised_in_devtrace(e) and self._runs_eagerly():  # devtrace's gap, not the program's error
                return
            error = autograph_errors.rewritten(e) if converted is not func else None
            if error is None:
                raise
            raise error from None
        out = concrete.structured_outputs
        out = tuple(out) if type(out) is list else out  # TensorFlow: a list returned is a tuple
        deferred.captured(concrete.graph)
        if template:
            self.template, self.made_of = template[0]
            out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if not all(isinstance(t, Tensor) for t in _flat(out)):  # a composite value among them: eagerly
            return
        self.graph, self.structured_outputs = concrete.graph, out

    def binding(self, values, window=None, element=None) -> dict:
        """An element's binding of the template's graph tensors (``values``: what the traced graph
        computed for it), of a reduce function's window and of the element's dataset components
        (data._deferred)."""
        out = {id(t): v for t, v in zip(self.made_of, values)}
        if window is not None:
            out[id(self._marker)] = window
        if self._markers:
            out.update(zip(map(id, self._markers), [v for v in _flat(element) if _is_dataset(v)]))
        return out

    def output_spec(self):
        """The traced outputs as an element spec (a dict's keys in its own order, as TensorFlow's nest)."""
        def spec(value):
            if isinstance(value, dict):
                out = {k: spec(value[k]) for k in sorted(value)}
                return {k: out[k] for k in value}
            if isinstance(value, (tuple, list)) and not hasattr(type(value), "_fields"):
                return tuple(spec(v) for v in value)
            if isinstance(value, Tensor):
                shape = value.shape
                return TensorSpec(None if shape.rank is None else tuple(shape), value.dtype)
            return None
        return spec(self.structured_outputs)

    def opened(self):
        """The function as one iterator runs it: placed now (logged), then ``run(*host structures)``
        per element, its outputs as tensors in the traced structure."""
        if self.graph is None:
            return self._eager
        opening = _OPENING[0]
        run = self._runs.get(opening) if opening is not None else None
        if run is None:
            run = self._open()
            if opening is not None:
                self._runs[opening] = run
        return run

    def _open(self):
        ctx = context()
        ctx.ensure_initialized(f"tf.data function {self.graph.name}")
        host = ctx.host
        placed = _DatasetRun(ctx, self.graph, self.graph.name, devices=[host])
        captures = list(self.graph.captures.values())
        enclosing = any(isinstance(v, symbolic_tensor.SymbolicTensor) for v, _ in captures)  # data._deferred
        outputs = self.structured_outputs
        arg_specs = [spec for spec in _flat(_dense(self._input_spec if self._leading_spec is None else (
            self._leading_spec, self._input_spec))) if not _is_dataset_spec(spec)]
        as_tensors = self._as_tensors

        def run(*parts):
            leaves = [v for v in _flat(parts[0] if len(parts) == 1 else tuple(parts)) if not _is_dataset(v)]
            tensors = [v if isinstance(v, Tensor) else _quiet_tensor(v, s, host) if isinstance(v, np.ndarray)
                       else as_tensors(v) for v, s in zip(leaves, arg_specs)]
            given = [(deferred.value(v), n) if isinstance(v, symbolic_tensor.SymbolicTensor) else (v, n)
                     for v, n in captures] if enclosing else captures
            if ctx.threaded and not threads.owned():  # one op at a time (runtime/threads.py)
                values = threads.locked(ctx, placed.run, ctx, tensors, given)
            else:
                values = placed.run(ctx, tensors, given)
            if single is not None:
                return values.get(single)
            return _pack(outputs, [values.get(i) for i in ids])[0]
        ids = [t._op._id for t in _flat(outputs)]  # every output is a traced tensor (_trace)
        single = ids[0] if isinstance(outputs, Tensor) else None
        return run

    def _runs_eagerly(self) -> bool:
        """Whether the function runs eagerly on the first element (no element: no telling, it doesn't)."""
        parts = self._sample() if self._sample is not None else None
        if parts is None:
            return False
        try:
            self._eager(*parts)
        except Exception:  # noqa: BLE001 (the trace's error, TensorFlow's, is the one raised)
            return False
        return True

    def _eager(self, *parts):
        """The Python function on an element as tensors (``parts``: the leading state, then the element)."""
        args = [self._as_tensors(p) for p in parts]
        element = args[-1]
        head = args[:-1]
        out = self._func(*head, *element) if type(element) is tuple else self._func(*head, element)
        return tuple(out) if type(out) is list else out


_EMPTY = object()


def opened_over(function, inputs):
    """``(run, elements)``: ``function`` opened (placed, logged) once ``inputs`` yields its first
    element, so that the input's own functions are placed before it, as TensorFlow's; and every
    element of ``inputs``. ``(None, ())`` when there is none: the function is never opened."""
    first = next(inputs, _EMPTY)
    if first is _EMPTY:
        return None, ()
    return function.opened(), itertools.chain((first,), inputs)

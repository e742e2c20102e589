"""How an op is declared: once, in one module of :mod:`devtrace.ops`.

``op(...)`` registers the op in the runtime's registry — TensorFlow's op name, its kernel, the
device types that have one and the dtypes each accepts, host-memory arguments, shape function
and gradient slot. ``unary``/``binary`` also make the public function from the declaration;
``public(...)`` publishes a hand-written one. ``API`` maps every public name (``add``,
``random.uniform``) to its function; ``devtrace`` and its namespaces read it.
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import InvalidArgumentError
from ..runtime import dtypes, weak
from ..runtime.context import context
from ..runtime.eager.executor import execute, execute_binary
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.graph.host_consts import LEADING
from ..runtime.native import FASTPATH
from ..runtime.registry import CPU, GPU, QUIET, lookup, register
from ..runtime.tensor import Tensor
from ..runtime.values import constant, host_array, host_constant
from . import shapes, static_values
from ..generated.arg_names import ARG_NAMES
from ..generated.op_defs import SIGNATURES

API: dict = {}
# (public name, type) -> the function a composite tensor (``RaggedTensor``) runs instead: TensorFlow's dispatch
DISPATCH: dict = {}
# type -> what TensorFlow's dispatch runs for a composite operand of an elementwise op (``unary(fn, x,
# name)``, ``binary(fn, x, y, name)``) or a reduction (``reduce(op_type, fn, x, axis, keepdims, name)``)
COMPOSITE: dict = {}

def composite_of(x, y):
    """The COMPOSITE handler of a binary op's composite operand (``None``: both are plain)."""
    return COMPOSITE.get(type(x)) or COMPOSITE.get(type(y))


def public(*names):
    """Publish the decorated function under TensorFlow's names (``"add"``, ``"math.add"``)."""
    def decorate(fn):
        for name in names:
            API[name] = fn
        return fn
    return decorate


def op(name, kernel, dtypes=None, devices=(CPU, GPU), shape=None, host_args=(), grad=None, stateful=False,
       mixed_dtypes=False, multi=False, number_attr=None, signature=None, ufunc=None, compat=None,
       gpu_kernel=None, output_lists=None, eager_fallback=False):
    """Declare an op: ``kernel(xp, *arrays, **attrs)``; ``dtypes`` = dtype names every device type
    accepts (``None``: all), or a dict per device type; ``devices`` = the types with a kernel;
    ``mixed_dtypes``: its inputs need not share one dtype; ``multi``: the kernel returns a tuple
    of arrays, the op a tuple of tensors, and ``shape`` one ``(dtype, shape)`` per output;
    ``signature``: TensorFlow's OpDef summary when its ``T`` attr restricts dtypes (default: ``op_defs``);
    ``ufunc``: the NumPy ufunc the kernel is for its one or two ndarrays (``np.add`` for ``a + b``),
    which the eager hot path (two inputs) and a function's plan call directly; ``compat``: ``{mode: device types}`` where the seeds'
    older TensorFlow (``--compat tf1``) had kernels on fewer device types (Cast: CPU only);
    ``gpu_kernel``: the GPU's kernel where TensorFlow's computes otherwise than its CPU kernel
    (same signature as ``kernel``; simulated and real GPUs alike run it); ``output_lists``: attrs →
    the length of each list output, for an op with several (``OpDef.output_lists``); ``eager_fallback``:
    TensorFlow's eager errors of the op name no name (``OpDef.eager_fallback``)."""
    opdef = register(name, kernel, devices, dtypes, stateful, shape, host_args, grad, mixed_dtypes, multi,
                     number_attr, signature or SIGNATURES.get(name))
    opdef.arg_names = ARG_NAMES.get(name)
    opdef.ufunc = ufunc
    opdef.gpu_fn = gpu_kernel
    opdef.output_lists = output_lists
    opdef.eager_fallback = eager_fallback
    for mode, types in (compat or {}).items():
        opdef.compat_kernels[mode] = {t: opdef.kernels[t] for t in types}
    return opdef


def as_tensor(x, slow_list=False, name=None):
    """A tensor for an op input: tensors pass, variables are read, values become constants
    (named ``name`` in a graph: the argument's name, inside the op's name scope).
    ``slow_list``: TensorFlow's Python function hands a list value to the generated op function
    as it is (``tf.gather`` indices) — its errors then carry no `` name: ``."""
    if isinstance(x, Tensor):
        if name is not None and x._device is not None and not context().eager:  # an eager tensor in a function
            graph = get_default_graph()
            return graph.capture_named(x, name) if graph.captures is not None else x
        return x
    convert = getattr(type(x), "__tf_tensor__", None)
    if convert is not None:
        return convert(x)
    if isinstance(x, (list, tuple)) and holds_tensor(x):
        return autopacked(x)
    out = constant(x, name=name)
    if slow_list and isinstance(x, (list, tuple)):
        context().list_arg_seq = context().trace._seq
    return out


def _tensor_like(value) -> bool:
    """A tensor, or an object that stands for one (a variable: ``__tf_tensor__``)."""
    return isinstance(value, Tensor) or getattr(type(value), "__tf_tensor__", None) is not None


def holds_tensor(values) -> bool:
    """Whether a (nested) list holds a tensor (or a variable)."""
    return any(map(_tensor_like, _leaves(values)))


def autopacked(values, dtype=None):
    """TensorFlow's autopacking (``convert_to_tensor`` of a list holding tensors): the elements
    converted (inner lists packed the same way) and stacked by one ``Pack`` — differentiable, where a
    constant made of the values would not be. The dtype is the first tensor's."""
    want = dtypes.as_dtype(dtype) if dtype is not None else \
        next(as_tensor(v).dtype for v in _leaves(values) if _tensor_like(v))
    tensors = [autopacked(v, want) if isinstance(v, (list, tuple)) and holds_tensor(v) else
               as_tensor(v) if _tensor_like(v) else constant(v, want) for v in values]
    # (a tensor of another dtype: Pack's own error, as TensorFlow's)
    return execute("Pack", tuple(tensors), {"axis": 0}, name="packed")


def host_arg(value, dtype=dtypes.int32, slow_list=True):
    """A non-tensor argument TensorFlow turns into a tensor input (a shape, an axis, a fill value):
    executed as ``_EagerConst`` — Python scalars through the scalar cache — where TensorFlow
    does, so the placement log matches; returns the value on the host, for the kernel's attrs.
    ``dtype=None`` infers it, as ``convert_to_tensor`` does. In graph mode nothing is built here:
    the value (converted as eagerly) is the node's attribute, and the graph builds the Const nodes
    its op declares (``graph/host_consts.py``)."""
    if isinstance(value, Tensor):
        return _folded(value) if isinstance(value, SymbolicTensor) else value.numpy()
    ctx = context()
    if not ctx.eager and isinstance(value, (list, tuple)) and _holds_symbolic(value):
        value = _folded(value)
    if ctx.eager:
        out = host_constant(value, dtype).numpy()
        if slow_list and isinstance(value, (list, tuple)):  # see as_tensor
            ctx.list_arg_seq = ctx.trace._seq
        return out
    return host_array(value, dtype)[0]


def graph_valued(*values) -> bool:
    """Whether a host argument holds a tensor computed in the graph being built (not foldable: see
    ``host_arg``), so the op takes it as an input whose value is known when the graph runs."""
    return not context().eager and any(isinstance(v, SymbolicTensor) and static_values.constant_value(v, slices=True)
                                       is None for v in _leaves(values))


def with_graph_host_args(op_type, inputs, args: dict, attrs, name=None, dtype=None):
    """``op_type`` in a graph with its host arguments (``args``, in the op's declared order) as node
    inputs, as TensorFlow's wrapper converts them in the op's scope: a tensor as it is, a list holding
    tensors packed, another value a ``Const`` named by the argument; the attrs hold what the graph
    knows of each (``static_hint``), the kernel takes their values when the graph runs."""
    with op_scope(op_type, name) as scope:
        tensors = []
        for arg, value in args.items():
            if isinstance(value, Tensor):
                t = value
            elif _holds_symbolic(value):
                t = packed(value, arg)
            else:
                t = constant(np.asarray(value, np.int32), dtypes.int32, name=arg)
            tensors.append(t)
        hints = {arg: static_hint(t) for arg, t in zip(args, tensors)}
        return with_host_inputs(op_type, inputs, tuple(tensors), dict(attrs, **hints), scope, dtype)


def _leaves(value) -> list:
    return [leaf for v in value for leaf in _leaves(v)] if isinstance(value, (list, tuple)) else [value]


def _holds_symbolic(value) -> bool:
    return any(isinstance(v, SymbolicTensor) for v in _leaves(value))


def _folded(value):
    """A host argument holding graph tensors (``[[0, 0], [0, tf.shape(x)[1]]]``) with the values the
    graph knows before it runs (TensorFlow's shape inference folds the same); a value known only when
    the graph runs is not implemented for arguments whose kernels take it as an attribute."""
    if isinstance(value, (list, tuple)):
        return [v.item() if isinstance(v, np.ndarray) and v.ndim == 0 else v for v in map(_folded, value)]
    if not isinstance(value, SymbolicTensor):
        return value
    known = static_values.constant_value(value, slices=True)
    if known is None:
        raise NotImplementedError(f"devtrace does not implement this argument as a tensor computed in the graph "
                                  f"({value.name}) yet")
    return known


def on_host(xp, array) -> np.ndarray:
    """A kernel's input as a NumPy array (CuPy's arrays never convert implicitly): for kernels
    that compute on the host and hand the result back through ``xp.asarray``."""
    return array if xp is np else xp.asnumpy(array)


def op_scope(default, name=None):
    """In a graph, TensorFlow's ``name_scope(name, default)`` around an op's Python function: the
    constants its arguments become are named ``<op>/<argument>`` (``d/y``) and the op takes the
    scope's name (``d``). Yields the name to build the op with (``"d/"``)."""
    return context().graph_builder.name_scope(name or default)


def reduce(op_type, x, axis, attrs, name=None):
    """Run a reduction. In a graph the axes are an input node, as TensorFlow's ``_ReductionDims``
    builds it: ``Const`` (every axis) before the op's scope, or ``<op>/reduction_indices`` (the op's
    declared host input) inside it; the kernel takes the ``axis`` attr."""
    if axis is not None or context().eager or x.shape.rank is None:
        return execute(op_type, (x,), attrs, name=name)
    axes = constant(np.arange(x.shape.rank, dtype=np.int32), dtypes.int32)
    return with_host_inputs(op_type, (x,), (axes,), attrs, name)


def dynamic_reduce(op_type, x, axes, keepdims, name=None):
    """A reduction over a graph tensor's axes (see :func:`symbolic`): the node's input as it is."""
    return with_host_inputs(op_type, (x,), (axes,), {"axis": static_hint(axes, True), "keepdims": bool(keepdims)}, name)


def with_host_inputs(op_type, inputs, host, attrs, name=None, dtype=None):
    """Run ``op_type``, its host arguments' values in ``attrs``. In a graph ``host`` (tensors already
    built: the ``Const`` a Python function made with ``constant_op.constant``, a gradient's
    ``Shape``) are the node's inputs for them, instead of Const nodes of its own; eagerly they are
    not used."""
    if context().eager:
        return execute(op_type, inputs, attrs, name=name, dtype=dtype)
    if op_type in LEADING:  # TensorFlow's OpDef has them first (Fill's dims)
        return execute(op_type, (*host, *inputs), dict(attrs, _host_inputs=-len(host)), name=name, dtype=dtype)
    return execute(op_type, (*inputs, *host), dict(attrs, _host_inputs=len(host)), name=name, dtype=dtype)


def unknown_rank_axes(x, axis):
    """A reduction's ``axis=None`` over a tensor of unknown rank: TensorFlow's ``range(0, rank(x))``
    (a graph's ``Rank`` and ``Range`` nodes); else ``axis`` as given."""
    if axis is None and x.shape.rank is None:
        return API["range"](0, API["rank"](x))
    return axis


def symbolic(value) -> bool:
    """Whether a host argument is a graph tensor (``tf.reshape(x, tf.shape(y))`` in a function): it
    is the node's input, its value known when the graph runs (``with_host_inputs``)."""
    return isinstance(value, SymbolicTensor)


def packed(value, name="packed"):
    """In a graph, a list or tuple that holds graph tensors (``(tf.shape(x)[0], -1)``) as TensorFlow
    converts it (``convert_to_tensor``'s auto-packing): one ``Pack`` named ``packed`` (``name``) of the
    tensors and ``Const``s of the other entries (named by position); anything else as it is."""
    if not isinstance(value, (list, tuple)) or context().eager or not _holds_symbolic(value):
        return value
    dt = next(v for v in _leaves(value) if isinstance(v, SymbolicTensor)).dtype
    with op_scope(name) as scope:
        return _packed_items(value, dt, scope)


def op_input(op_type, name, value, arg):
    """In a graph, a list holding graph tensors given for the input ``arg`` of ``op_type``, as
    TensorFlow's op wrapper converts it: packed in the op's scope, named by the input
    (``Reshape/shape``). Returns the value (else as given) and the name to build the op with."""
    if context().eager or not isinstance(value, (list, tuple)) or not _holds_symbolic(value):
        return value, name
    with op_scope(op_type, name) as scope:
        return packed(value, arg), scope


def _packed_items(value, dt, scope):
    """TensorFlow's ``_autopacking_helper``: a nested list opens its scope (named by its index) and is
    packed there when it holds tensors; then the other entries become ``Const``s named by index."""
    converted = []
    for i, v in enumerate(value):
        if isinstance(v, (list, tuple)):
            with op_scope(str(i)) as inner:
                v = _packed_items(v, dt, inner) if _holds_symbolic(v) else v
        converted.append(v)
    items = tuple(v if isinstance(v, Tensor) else constant(v, dt, name=str(i)) for i, v in enumerate(converted))
    return execute("Pack", items, {"axis": 0}, name=scope)


def static_hint(t, axes=False):
    """What a graph knows of a symbolic host argument's value before it runs, for its node's attr
    (shape inference, ``static_values``): a scalar's value as an int; a vector's entries
    (``None`` where one is known only when the graph runs: ``tf.shape(x)`` of a ``None`` dimension);
    ``None`` when not even its length is known (``axes``: reduction axes, ``(None,)`` unless all known)."""
    value = static_values.constant_value(t)
    if value is not None and value.ndim == 0:
        return int(value)
    if axes:
        return (None,) if value is None else tuple(int(v) for v in value.reshape(-1))
    if value is not None and t._op.type == "Const":
        return tuple(int(v) for v in value.reshape(-1))
    return static_values.constant_value_as_shape(t)


def graph_shape(x, name="Shape"):
    """``array_ops.shape(x)`` as TensorFlow builds it in a graph for a fully known static shape: a
    ``Const`` named ``Shape`` (``None`` eagerly, or when a dimension is unknown)."""
    shape = x.shape
    if context().eager or shape.rank is None or None in tuple(shape):
        return None
    return constant(np.array(tuple(shape), np.int32), dtypes.int32, name=name)


def weak_convert(x, dtype):
    """An operand as a tensor of ``dtype`` (an auto dtype conversion mode's promotion)."""
    if not isinstance(x, Tensor):
        x = as_tensor(x) if isinstance(x, (np.ndarray, np.generic)) or hasattr(x, "dtype") else constant(x, dtype)
    if x._dtype is not dtype:
        x = execute("Cast", (x,), {"DstT": dtype.name})
    return x


def weak_binary(op_type, x, y, name, fixed):
    """A binary op under ``dtype_conversion_mode='all'|'safe'``: both operands promoted by the
    lattice (``runtime/weak.py``), the result weak when the promotion is; ``None``: no rule applies."""
    if op_type not in weak.BINARY_OPS:
        return None
    dtype, is_weak = weak.promote(x, y)
    if dtype is None:
        return None
    out = execute(op_type, (weak_convert(x, dtype), weak_convert(y, dtype)), name=name, dtype=fixed)
    return weak.make_weak(out) if is_weak and out._dtype is dtype else out


def weak_unary(op_type, x, name):
    """A unary op of a weak operand (a weak tensor, a Python scalar or list) returns a weak tensor."""
    key = weak.key(x) if op_type in weak.UNARY_OPS else None
    if key is None or not key[1]:
        return None
    dtype = dtypes.as_dtype(key[0])
    out = execute(op_type, (weak_convert(x, dtype),), name=name)
    return weak.make_weak(out) if out._dtype is dtype else out


def pair(a, b, names=(None, None)):
    """A binary op's operands as tensors; a Python scalar takes the other operand's dtype
    (``names``: what a graph calls the constants, ``("x", "y")``)."""
    if not isinstance(a, Tensor) and hasattr(type(a), "__tf_tensor__"):
        a = a.__tf_tensor__()
    if not isinstance(b, Tensor) and hasattr(type(b), "__tf_tensor__"):
        b = b.__tf_tensor__()
    a_t, b_t = isinstance(a, Tensor), isinstance(b, Tensor)
    if a_t and not b_t:
        b = constant(b, a._dtype, name=names[1])
    elif b_t and not a_t:
        a = constant(a, b._dtype, name=names[0])
    elif not a_t:
        a = constant(a, name=names[0])
        b = constant(b, a._dtype, name=names[1])
    return a, b


def graph_operands(op_type, x, y):
    """A generated op function's two operands in a graph (TensorFlow's ``_apply_op_helper``):
    ``x`` converted alone, then ``y`` to ``x``'s dtype, its failure naming the parameter (the
    graph checks that two tensors' dtypes match)."""
    x = as_tensor(x, name="x")
    if isinstance(y, Tensor) or hasattr(type(y), "__tf_tensor__"):
        return x, as_tensor(y, name="y")
    try:
        return x, constant(y, x.dtype, name="y")
    except TypeError as e:
        raise TypeError(f"Expected {x.dtype.name} passed to parameter 'y' of op '{op_type}', got {y!r} of type "
                        f"'{type(y).__name__}' instead. Error: {e}") from None


def quiet(kernel):
    """``kernel`` with NumPy's floating-point warnings off while it runs: TensorFlow's kernels return
    inf and nan silently (a division by zero, the log of 0), and ``import devtrace`` leaves the
    process's warnings filters alone. Only on the kernels that warn from finite inputs: NumPy's
    errstate costs about 1.4 µs a call, too much for every op. With NumPy 2's error state (a context
    variable) the state that ignores all is made once for the caller's state and set, not rebuilt at
    each call (``np.errstate``'s decorator rebuilds it: a third of its cost; a training step runs
    dozens of these kernels). ``QUIET`` maps the wrapper to ``kernel``: a function graph's plan
    (graph/function_run.py) runs it under that errstate set from C."""
    if _ERRSTATE is None:
        wrapper = np.errstate(all="ignore")(kernel)
        QUIET[wrapper] = kernel
        return wrapper

    @functools.wraps(kernel)  # ``__wrapped__``, as errstate's: the graph runner calls no ufunc in its place
    def run(*args, **kwargs):
        current = _ERRSTATE.get()
        ignoring = _IGNORING[1] if _IGNORING[0] is current else _ignoring(current)
        token = _ERRSTATE.set(ignoring)
        try:
            return kernel(*args, **kwargs)
        finally:
            _ERRSTATE.reset(token)
    QUIET[run] = kernel
    return run


def _errstate_variable():
    """NumPy 2's context variable holding the floating-point error state; None before NumPy 2."""
    try:
        from numpy._core import _ufunc_config
    except ImportError:
        return None
    variable = getattr(_ufunc_config, "_extobj_contextvar", None)
    return variable if variable is not None and hasattr(_ufunc_config, "_make_extobj") else None


_ERRSTATE = _errstate_variable()
_IGNORING = [object(), None]  # (a state, the state ignoring all errors made from it): the last one made


def _ignoring(current):
    """The error state ``np.errstate(all="ignore")`` sets over ``current`` (its buffer size and
    callback kept), remembered for the next call made under ``current``."""
    from numpy._core import _ufunc_config

    token = _ERRSTATE.set(current)
    try:
        ignoring = _ufunc_config._make_extobj(all="ignore")
    finally:
        _ERRSTATE.reset(token)
    _IGNORING[:] = [current, ignoring]
    return ignoring


def unary(name, kernel, dtypes, api, shape=shapes.same, name_scope=False, **declaration):
    """Declare an elementwise op of one input and return its public function ``f(x, name=None)``;
    ``name_scope`` as for :func:`binary`."""
    op(name, kernel, dtypes, shape=shape, **declaration)

    def fn(x, name=None):
        if name and name_scope:
            name = scoped(name)
        if type(x) is Tensor:  # the common case, as for binary ops
            return execute(op_type, (x,), None, name)
        if type(x) in COMPOSITE:
            return COMPOSITE[type(x)].unary(fn, x, name)
        if weak.MODE is not None and context().eager:
            out = weak_unary(op_type, x, name)
            if out is not None:
                return out
        if context().eager:
            return execute(op_type, (as_tensor(x),), name=name)
        if isinstance(x, Tensor):  # nothing to convert: the scope's name is the op's
            return execute(op_type, (x,), None, name)
        with op_scope(op_type, name) as scope:
            return execute(op_type, (as_tensor(x, name="x"),), name=scope)

    op_type = name
    fn.__name__ = fn.__qualname__ = api[0].rsplit(".", 1)[-1]
    return public(*api)(fn)


def scoped(name):
    """The name a TensorFlow wrapper that opens ``name_scope(name, ...)`` gives its op: eagerly
    ``""`` (so its errors end ``name: ``), in a graph ``name`` itself."""
    return "" if name and context().eager else name


def binary(name, kernel, dtypes, api, shape=shapes.broadcast, fixed=None, name_scope=False, **declaration):
    """Declare an elementwise op of two broadcast inputs and return ``f(x, y, name=None)``;
    ``fixed``: the one dtype an op without a ``T`` attr takes (``LogicalAnd``: bool);
    ``name_scope``: TensorFlow's wrapper opens a name scope (see :func:`scoped`)."""
    op(name, kernel, dtypes, shape=shape, **declaration)

    def fn(x, y, name=None):
        if name and name_scope:
            name = scoped(name)
        if type(x) is Tensor and type(y) is Tensor:  # the common case, one call shorter (positional: cheaper)
            try:
                return execute_binary(op_type, x, y, name, fixed)
            except InvalidArgumentError:  # two dtypes: an auto dtype conversion mode promotes them
                if weak.MODE is None or x._dtype is y._dtype:
                    raise
        if type(x) in COMPOSITE or type(y) in COMPOSITE:
            return COMPOSITE[type(x) if type(x) in COMPOSITE else type(y)].binary(fn, x, y, name)
        if weak.MODE is not None and context().eager:
            out = weak_binary(op_type, x, y, name, fixed)
            if out is not None:
                return out
        if context().eager:
            return execute(op_type, pair(x, y), name=name, dtype=fixed)
        if isinstance(x, Tensor) and isinstance(y, Tensor):  # nothing to convert: the scope's name is the op's
            return execute(op_type, (x, y), name=name, dtype=fixed)
        with op_scope(op_type, name) as scope:
            return execute(op_type, graph_operands(op_type, x, y), name=scope, dtype=fixed)

    op_type = name
    fn.__name__ = fn.__qualname__ = api[0].rsplit(".", 1)[-1]
    return public(*api)(op_function(fn, op_type, fixed))


def op_function(fn, op_type, fixed=None, other=None):
    """``fn``, a binary op's public function; with the C module (``native.py``), its twin
    ``_fastpath.OpFunction``, which runs fn's common call — two eager Tensors, no name — as fn
    does (``execute_binary(op_type, x, y, None, fixed)``) without fn's Python frame, and is fn to
    everything else (every other call, every attribute). ``other``: an ``x`` dtype whose op is
    another one (``add``: strings concatenate through ``Add``), left to fn."""
    out = fn if FASTPATH is None else FASTPATH.OpFunction(fn, op_type, fixed, other)
    OP_FUNCTIONS[out] = (op_type, fixed, other)
    return out


OP_FUNCTIONS: dict = {}
"""What :func:`op_function` was given for each function it returned: Tensor's operator methods whose
eager call is that function's (``x + y`` is ``tf.add(x, y)``) are its C twins too (``math_ops``)."""


def gradient(op_type: str):
    """Register the decorated ``fn(op, grad) -> input gradients`` as ``op_type``'s gradient
    (TensorFlow's ``RegisterGradient``); ``op`` is the tape's record of the forward op."""
    def decorate(fn):
        lookup(op_type).grad = fn
        return fn
    return decorate


def not_differentiable(*op_types: str) -> None:
    """Ops whose inputs get no gradient (TensorFlow's ``NotDifferentiable``)."""
    for op_type in op_types:
        lookup(op_type).grad = _no_gradient


def _no_gradient(op, *grads):
    return [None] * len(op.inputs)

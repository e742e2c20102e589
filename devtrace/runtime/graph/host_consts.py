"""An op's host arguments as the ``Const`` nodes TensorFlow builds for them in a graph.

TensorFlow's op wrappers convert a Python value given for an op *input* (a shape, an axis, a
permutation, ``k``) to a tensor inside the op's name scope: a ``Const`` node named
``<op>/<input arg>`` (``Reshape/shape``, ``TopKV2/k``, ``split/split_dim``), made just before the op,
which takes it as an input. devtrace's kernels take those values as attrs; in a graph (TF1, or a
function's) the builder adds the nodes the op declares (``OpDef.const_inputs``), so they are placed,
logged, listed and run as TensorFlow's are, and the kernel keeps reading its attrs. Eager ops build
nothing (their host values are converted as before).

A node's host inputs sit where TensorFlow's OpDef has them: after the kernel's inputs, or before
them when the op's first input is one (``Split``'s ``split_dim``). ``Operation._n_host`` counts
them (negative: leading); :func:`kernel_inputs` is what the kernel takes. A host input that is
not a ``Const`` (a gradient's ``Shape``, ``tf.reshape(x, tf.shape(y))``) is known only when the graph
runs: ``Operation._dynamic`` lists it, and :func:`runtime_attrs` gives the kernel its value then.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes

_INT32 = np.iinfo(np.int32)
# ops whose first OpDef input is a host argument followed by the kernel's inputs
LEADING = frozenset(("Split", "Fill", "StridedSliceGrad"))


def _array(value, dtype=None) -> np.ndarray:
    """The value as ``convert_to_tensor`` makes it: of the op's ``dtype`` for an input typed by its
    ``T`` (an arg declared ``name@T``); for an integer input int32, int64 when it does not fit; an
    array keeps its integer dtype."""
    if dtype is not None:
        return np.asarray(value, dtype.np)
    array = np.asarray(value)
    if array.dtype.kind in "iu":
        if isinstance(value, np.ndarray):
            return array
        if array.size and (array.min() < _INT32.min or array.max() > _INT32.max):
            return array.astype(np.int64)
        return array.astype(np.int32)
    return array


def add(graph, opdef, inputs: tuple, attrs: dict, name, dtype=None):
    """``(inputs, attrs, name)`` for a node of ``opdef`` whose host arguments become Const nodes:
    the op's name scope opened (``name`` uniquified, or a scope ``x/`` the wrapper opened), one
    ``Const`` per declared input the attrs hold, the node then named after the scope. The caller's
    own host tensors (``_host_inputs``) stand for the first declared inputs. ``dtype``: the op's
    (``T``), else its first input's."""
    built = attrs.get("_host_inputs", 0)
    todo = [(attr, arg) for attr, arg in opdef.const_inputs[abs(built):] if attrs.get(attr) is not None]
    if not todo:
        return inputs, attrs, name
    kernel = inputs[-built:] if built < 0 else inputs[:len(inputs) - built]
    with graph.name_scope(name or opdef.name) as scope:
        consts = []
        for attr, arg in todo:
            arg, typed, _ = arg.partition("@")
            kind = (dtype or (kernel[0]._dtype if kernel else None)) if typed else None
            array = _array(attrs[attr], kind)
            consts.append(graph._create_const(array, kind or dtypes.as_dtype(array.dtype), arg))
    if opdef.name in LEADING:  # after the caller's own, before the kernel's inputs
        k = -built
        return (*inputs[:k], *consts, *inputs[k:]), dict(attrs, _host_inputs=-(k + len(consts))), scope
    return (*inputs, *consts), dict(attrs, _host_inputs=built + len(consts)), scope


def kernel_inputs(op) -> tuple:
    """The inputs ``op``'s kernel takes: without its host arguments' nodes (it has them as attrs)."""
    n = op._n_host
    if not n:
        return op._inputs
    return op._inputs[:-n] if n > 0 else op._inputs[-n:]


def host_memory_const(op, device) -> bool:
    """Whether ``op`` is a ``Const`` whose output TensorFlow keeps in host memory on ``device``: an
    int32 one on a GPU (its GPU kernel is ``HostConstantOp``, ``HostMemory("output")``, the tensor
    made once on the host) — nothing of it is on the GPU's allocator."""
    return op.type == "Const" and device.device_type == "GPU" and op._outputs[0]._dtype is dtypes.int32


def dynamic_inputs(op, opdef) -> tuple:
    """``(attr, input position)`` of ``op``'s host inputs whose value is known only when the graph
    runs (not a ``Const``: a gradient's ``Shape``, ``BroadcastGradientArgs``): their attrs hold a
    static hint for shape inference, the kernel takes the value the input has at run time."""
    n = op._n_host
    first = len(op._inputs) - n if n > 0 else 0
    return tuple((attr, first + k) for k, (attr, _) in enumerate(opdef.const_inputs[:abs(n)])
                 if op._inputs[first + k]._op.type != "Const")


def runtime_attrs(op, host_value) -> dict:
    """``op``'s attrs with its dynamic host inputs' values (``host_value(tensor)``: a NumPy array)
    — a vector as a tuple of ints, a scalar as an int, as the kernels take them."""
    attrs = dict(op._attrs)
    for attr, k in op._dynamic:
        array = host_value(op._inputs[k])
        attrs[attr] = int(array) if array.ndim == 0 else tuple(int(v) for v in array.reshape(-1))
    return attrs

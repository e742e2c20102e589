"""Control flow and printing: ``tf.cond``, ``tf.while_loop``, ``tf.case``, ``tf.print``.

Eagerly, control flow is Python — TensorFlow runs the branch or the loop body as ordinary ops,
and so does devtrace. Inside a ``tf.function`` a predicate is symbolic: ``cond`` and
``while_loop`` build ``If``/``While`` nodes there (:mod:`.control_flow_v2`).
"""

from __future__ import annotations

import sys

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.tensor import Tensor
from . import control_flow_v2
from ..declare import as_tensor, on_host, op, public


def _value(pred, what: str) -> bool:
    if isinstance(pred, Tensor) and pred._device is None:
        raise NotImplementedError(f"devtrace does not implement {what} on a symbolic predicate outside "
                                  f"tf.function")
    return bool(pred)


def _symbolic(value) -> bool:
    return isinstance(value, Tensor) and value._device is None


@public("cond")
def cond(pred, true_fn=None, false_fn=None, name=None):
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("'true_fn' must be callable." if not callable(true_fn) else "'false_fn' must be callable.")
    if _symbolic(pred) and control_flow_v2.in_function_graph():
        return control_flow_v2.cond(pred, true_fn, false_fn, name)
    return true_fn() if _value(pred, "tf.cond") else false_fn()


@public("while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None, return_same_structure=True):
    if not callable(cond) or not callable(body):
        raise TypeError("'cond' must be callable." if not callable(cond) else "'body' must be callable.")
    if isinstance(loop_vars, Tensor):
        len(loop_vars)  # TensorFlow takes len(loop_vars): a scalar or symbolic tensor raises its TypeError
    if control_flow_v2.in_function_graph():
        return control_flow_v2.while_loop(cond, body, loop_vars, maximum_iterations, name)
    single = not isinstance(loop_vars, (list, tuple))
    values = [loop_vars] if single else list(loop_vars)
    count = 0
    while (maximum_iterations is None or count < maximum_iterations) and _value(cond(*values), "tf.while_loop"):
        out = body(*values)
        values = [out] if single or not isinstance(out, (list, tuple)) else list(out)
        count += 1
    values = [_loop_result(v) for v in values]  # TensorFlow hands the loop variables back as tensors
    return values[0] if single else tuple(values)


def _loop_result(value):
    from ...util import nest
    from .tensor_array_ops import TensorArray

    return nest.map_structure(lambda v: v if isinstance(v, (Tensor, TensorArray)) else as_tensor(v), value)


@public("case")
def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if any(_symbolic(p) for p, _ in pairs) and control_flow_v2.in_function_graph():
        with control_flow_v2.get_default_graph().name_scope(name):
            return _case_conds(pairs, default)
    preds = [(_value(p, "tf.case"), fn) for p, fn in pairs]  # every predicate is evaluated, as TensorFlow does
    true = [fn for hit, fn in preds if hit]
    if exclusive and len(true) > 1:
        raise ValueError("More than one condition evaluated as True but exclusive=True.")
    if true:
        return true[0]()
    if default is None:
        raise ValueError("No default and no predicate was true")
    return default()


def _case_conds(pairs, default):
    """Inside a function: nested conds, the first true predicate's branch (TensorFlow's case
    without a default takes the last branch as the default)."""
    if default is None:
        pairs, default = pairs[:-1], pairs[-1][1]

    def chain(k):
        if k == len(pairs):
            return default()
        pred, fn = pairs[k]
        return control_flow_v2.cond(pred, fn, lambda: chain(k + 1))
    return chain(0)


@public("switch_case")
def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """Run ``branch_fns[branch_index]`` (``default``, else the last, when out of range). In a
    function graph a symbolic index builds a ``Case`` node over the branches."""
    fns = [fn for _, fn in sorted(branch_fns.items())] if isinstance(branch_fns, dict) else \
        [fn if callable(fn) else fn[1] for fn in branch_fns]
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    fallback = default or fns[-1]
    if _symbolic(branch_index) and control_flow_v2.in_function_graph():
        with control_flow_v2.get_default_graph().name_scope(name):
            return control_flow_v2.indexed_case(branch_index, fns + ([default] if default else []))
    index = int(branch_index)
    return fns[index]() if 0 <= index < len(fns) else fallback()


def _summarize(value) -> str:
    """A value as TensorFlow's PrintV2 shows it: numbers without trailing zeros, NumPy-like nesting."""
    arr = np.asarray(value)
    if arr.dtype == object:  # strings, quoted
        def quote(v):
            return '"' + (v.decode() if isinstance(v, bytes) else str(v)) + '"'
        if arr.ndim == 0:
            return quote(arr[()])
        return np.array2string(arr, separator=" ", formatter={"all": quote})
    if arr.dtype.kind == "f":
        text = _float_text64 if arr.dtype == np.float64 else _float_text
        if arr.ndim == 0:
            return text(arr[()])
        with np.printoptions(formatter={"float_kind": text}):
            return str(arr)
    if arr.dtype.kind == "b":
        return str(arr.astype(np.int8))
    return str(arr)


def _float_text(v, kind=np.float32, digits=(6, 9)) -> str:
    """TensorFlow's ``FloatToBuffer`` (a half is printed as its float): C's ``%.6g``, or ``%.9g``
    when that does not read back as the value; ``DoubleToBuffer`` (``kind=float``): 15 and 17."""
    v = kind(v)
    short = f"{v:.{digits[0]}g}"
    return short if kind(short) == v or v != v else f"{v:.{digits[1]}g}"


def _float_text64(v) -> str:
    return _float_text(v, float, (15, 17))


op("StringFormat", lambda xp, *arrays, template="", placeholder="{}": np.asarray(
    template.format(*[_summarize(a) for a in arrays]).encode(), dtype=object), devices=(CPU,), mixed_dtypes=True,
   shape=lambda name, shapes, attrs, dtype: (dtypes.string, ()))
op("PrintV2", lambda xp, text, output_stream="stderr", end="\n": _print(text, output_stream, end), devices=(CPU,),
   stateful=True)


def _print(text, stream, end):
    out = sys.stdout if stream == "stdout" else sys.stderr
    sys.stdout.flush()
    out.write(np.asarray(text)[()].decode() + end)
    out.flush()


@public("print")
def print_(*inputs, output_stream=sys.stderr, summarize=3, sep=" ", end="\n", name=None):
    """``tf.print``: ``StringFormat`` then ``PrintV2``, on the CPU."""
    tensors, parts = [], []
    for x in inputs:
        if isinstance(x, Tensor) or hasattr(type(x), "__tf_tensor__"):
            tensors.append(as_tensor(x))
            parts.append("{}")
        else:
            parts.append(str(x).replace("{", "{{").replace("}", "}}"))
    stream = "stdout" if output_stream is sys.stdout else "stderr"
    context()
    text = execute("StringFormat", tuple(tensors), {"template": sep.join(parts)}, dtype=None)
    execute("PrintV2", (text,), {"output_stream": stream, "end": end})


def _py_call(xp, *arrays, func=None, Tout=()):
    """``EagerPyFunc``'s kernel: the user's Python function, called with eager tensors; one output
    per dtype of ``Tout``, from each value of a list or tuple it returns (``None``: none)."""
    from ...runtime.values import constant, host_array

    out = func(*[constant(on_host(xp, a)) for a in arrays])
    values = [] if out is None else list(out) if isinstance(out, (list, tuple)) else [out]
    return tuple(xp.asarray(np.asarray(v.numpy(), dtype=d.as_numpy_dtype) if isinstance(v, Tensor) else host_array(v, d)[0])
                 for v, d in zip(values, Tout))


def _py_shapes(name, shapes, attrs, dtype):
    return [(d, None) for d in attrs["Tout"]], None


# TensorFlow's GPU kernel takes no strings, int32s, resources or variants (py_func.cc)
op("EagerPyFunc", _py_call, {CPU: ALL_TYPES, GPU: DEVICE_SAFE - {"int32", "variant"}}, shape=_py_shapes, multi=True,
   mixed_dtypes=True, stateful=True)



@public("py_function")
def py_function(func=None, inp=None, Tout=None, name=None):
    """``tf.py_function``: run Python on tensors, eagerly or as a node of a tf.function graph.
    ``Tout`` a list or tuple of dtypes: a list of tensors (empty for ``()``), else the one tensor.
    Without ``func``, a decorator: the decorated function's arguments are ``inp``."""
    from ...runtime.dtypes import as_dtype

    if func is None:
        import functools

        def decorate(fn):
            @functools.wraps(fn)
            def wrapper(*args):
                return py_function(fn, list(args), Tout, name)
            return wrapper
        return decorate

    tensors = tuple(as_tensor(x) for x in (inp or ()))
    listed = isinstance(Tout, (list, tuple))
    touts = [as_dtype(t) for t in Tout] if listed else [] if Tout is None else [as_dtype(Tout)]
    outs = execute("EagerPyFunc", tensors, {"func": func, "Tout": touts}, name=name,
                   dtype=touts[0] if touts and not tensors else None)
    if listed:
        return list(outs)
    return outs[0] if touts else None

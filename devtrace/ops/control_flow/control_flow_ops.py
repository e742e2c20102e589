"""Control flow and printing: ``tf.cond``, ``tf.while_loop``, ``tf.case``, ``tf.print``.

Eagerly, control flow is Python — TensorFlow runs the branch or the loop body as ordinary ops,
and so does devtrace. Inside a ``tf.function`` a predicate is symbolic: ``cond`` and
``while_loop`` build ``If``/``While`` nodes there (:mod:`.control_flow_v2`).
"""

from __future__ import annotations

import sys

import numpy as np

from ...errors import InvalidArgumentError
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
    count, last = 0, loop_vars  # the result has the structure the body last returned (a list stays a list)
    while (maximum_iterations is None or count < maximum_iterations) and _value(cond(*values), "tf.while_loop"):
        out = last = body(*values)
        values = [out] if single or not isinstance(out, (list, tuple)) else list(out)
        count += 1
    values = [_loop_result(v) for v in values]  # TensorFlow hands the loop variables back as tensors
    if single:
        return values[0]
    return list(values) if isinstance(last, list) else tuple(values)


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
    preds = [(bool(_value(p, "tf.case")), fn) for p, fn in pairs]  # every predicate is evaluated, as TensorFlow does
    if default is None:  # TensorFlow's: the last branch is the default, guarded by an Assert that one holds
        if not any(hit for hit, _ in preds):
            raise InvalidArgumentError(_case_assert("Input error: None of conditions evaluated as True:", preds))
        preds, default = preds[:-1], preds[-1][1]
    if exclusive and sum(hit for hit, _ in preds) > 1:
        names = ", ".join("?" for _ in preds)  # eager predicates have no names
        raise InvalidArgumentError(_case_assert(
            f"Input error: exclusive=True: more than 1 conditions ({names}) evaluated as True:", preds))
    true = [fn for hit, fn in preds if hit]
    return true[0]() if true else default()


def _case_assert(message, preds) -> str:
    """TensorFlow's eager ``Assert`` text of ``tf.case``'s check (its data: the predicates)."""
    return (f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'{message}'\n"
            + ", ".join(str(hit) for hit, _ in preds))


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


def _summarize(value, summarize=3) -> str:
    """A value as TensorFlow's PrintV2 / StringFormat show it (``SummarizeValue``): numbers without
    padding or trailing zeros, strings quoted, bools as 1/0; along each dimension longer than
    ``2 * summarize`` (``summarize`` < 0: never) the first and last ``summarize`` entries around ``...``."""
    arr = np.asarray(value)
    if arr.dtype == object:
        def item(v):
            return '"' + (v.decode() if isinstance(v, bytes) else str(v)) + '"'
    elif arr.dtype.kind == "f":
        item = _float_text64 if arr.dtype == np.float64 else _float_text
    elif arr.dtype.kind == "b":
        def item(v):
            return "1" if v else "0"
    else:
        item = str
    return _summarized(arr, summarize, item)


def _summarized(arr, summarize, item, depth=0) -> str:
    if arr.ndim == 0:
        return item(arr[()])
    n = arr.shape[0]
    picks = list(range(n)) if summarize < 0 or n <= 2 * summarize else (
        list(range(summarize)) + [None] + list(range(n - summarize, n)))
    if arr.ndim == 1:
        return "[" + " ".join("..." if i is None else item(arr[i]) for i in picks) + "]"
    sep = "\n" * (arr.ndim - 1) + " " * (depth + 1)
    return "[" + sep.join("..." if i is None else _summarized(arr[i], summarize, item, depth + 1) for i in picks) + "]"


def _float_text(v, kind=np.float32, digits=(6, 9)) -> str:
    """TensorFlow's ``FloatToBuffer`` (a half is printed as its float): C's ``%.6g``, or ``%.9g``
    when that does not read back as the value; ``DoubleToBuffer`` (``kind=float``): 15 and 17."""
    v = kind(v)
    short = f"{v:.{digits[0]}g}"
    return short if kind(short) == v or v != v else f"{v:.{digits[1]}g}"


def _float_text64(v) -> str:
    return _float_text(v, float, (15, 17))


def _string_format(xp, *arrays, template="", placeholder="{}", summarize=3):
    parts = template.split(placeholder)
    if len(parts) != len(arrays) + 1:
        raise InvalidArgumentError(f"num placeholders in template and num inputs must match: {len(parts) - 1} vs. "
                                   f"{len(arrays)}")
    texts = [_summarize(on_host(xp, a), summarize) for a in arrays]
    return np.asarray("".join(p + (texts[k] if k < len(texts) else "") for k, p in enumerate(parts)).encode(),
                      dtype=object)


op("StringFormat", _string_format, devices=(CPU,), mixed_dtypes=True,
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
            parts.append(None)
        else:
            parts.append(str(x))
    placeholder = "{}"  # one no text part holds (TensorFlow's print makes its placeholder unique too)
    while any(placeholder in p for p in parts if p is not None) or placeholder in sep:
        placeholder = "{" + placeholder + "}"
    template = sep.join(placeholder if p is None else p for p in parts)
    stream = "stdout" if output_stream is sys.stdout else "stderr"
    context()
    text = execute("StringFormat", tuple(tensors), {"template": template, "placeholder": placeholder,
                                                    "summarize": int(summarize)}, dtype=None)
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

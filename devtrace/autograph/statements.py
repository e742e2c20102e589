"""``ag__.if_stmt``, ``while_stmt`` and ``for_stmt``: at trace time a symbolic tensor condition
(or iterable) builds ``tf.cond`` / ``tf.while_loop`` over the statement's state, read and
written through its ``get_state``/``set_state``; anything else runs as plain Python.

A loop variable undefined when the loop starts gets TensorFlow's placeholder (``loop_state.py``); a
branch output undefined in one branch raises TensorFlow's error.
"""

from __future__ import annotations

import numpy as np

from ..runtime.tensor import Tensor
from . import loop_state
from .operators import Undefined, UndefinedReturnValue, symbolic, undefined


_PY_VALUES = (bool, int, float, str, np.ndarray)


def _staged(value) -> bool:
    """A tensor while a graph is built: TensorFlow stages the statement (an eager tensor a function
    captured too); anything else, or any value while running eagerly, is plain Python."""
    if symbolic(value):
        return True
    if not isinstance(value, Tensor):
        return False
    from ..runtime.graph.func_graph import FuncGraph
    from ..runtime.graph.graph import get_default_graph

    return isinstance(get_default_graph(), FuncGraph)


def _verify_branch(values, names, branch) -> None:
    for name, value in zip(names, values):
        if isinstance(value, Undefined):
            raise ValueError(f"'{name}' must also be initialized in the {branch} branch")
        if isinstance(value, UndefinedReturnValue):
            raise ValueError(f"the {branch} branch must also have a return statement.")


def _verify_cond_vars(body_vars, orelse_vars, names) -> None:
    """TensorFlow's check that both branches give each variable the same dtype (Python numbers
    and strings are converted first, in the else branch, as TensorFlow converts them)."""
    from ..runtime.values import convert_to_tensor

    for name, main, other in zip(names, body_vars, orelse_vars):
        if main is None:
            raise ValueError(f"'{name}' is None at the end of the main branch.")
        if other is None:
            raise ValueError(f"'{name}' is None at the end of the else branch.")
        main, other = (convert_to_tensor(v) if isinstance(v, _PY_VALUES) else v for v in (main, other))
        if isinstance(main, Tensor) and isinstance(other, Tensor) and main.dtype != other.dtype:
            raise TypeError(f"'{name}' has dtype {main.dtype.name} in the main branch, but dtype "
                            f"{other.dtype.name} in the else branch")


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    if not _staged(cond):
        body() if cond else orelse()  # noqa: B018 (a statement, as TensorFlow's _py_if_stmt)
        return
    from ..ops.control_flow import control_flow_v2

    if not nouts:  # AutoGraph gives a statement without outputs a dummy one, the Python 0
        prev_get, prev_set = get_state, set_state
        get_state, set_state = (lambda: (0, *prev_get())), (lambda values: prev_set(values[1:]))
        symbol_names, nouts = (*symbol_names, "<unused dummy>"), 1
    init = tuple(get_state())
    done: list = []

    def branch(fn, name):
        def run():
            set_state(init)
            fn()
            outs = tuple(get_state())[:nouts]
            _verify_branch(outs, symbol_names, name)
            if done:
                _verify_cond_vars(done[0], outs, symbol_names)
            done.append(outs)
            return outs
        return run
    outs = control_flow_v2.cond(cond, branch(body, "main"), branch(orelse, "else"))
    set_state(tuple(outs) + init[nouts:])


def _scratch(test):
    """The loop condition evaluated once, in a throwaway graph inside a function (AutoGraph's
    ``tmp`` FuncGraph): whether it is a tensor, without adding nodes to the function."""
    from ..runtime.graph.func_graph import FuncGraph
    from ..runtime.graph.graph import get_default_graph

    outer = get_default_graph()
    if not isinstance(outer, FuncGraph):
        return test()
    scratch = FuncGraph("tmp", outer=outer)
    scratch.scratch = True
    with scratch.as_default():
        return test()


def _merge(state, kept, values) -> tuple:
    out = list(state)
    for k, v in zip(kept, values):
        out[k] = v
    return tuple(out)


def _tf_while(test, body, get_state, set_state, symbol_names, opts, extra_vars=()):
    """``tf.while_loop`` over the defined part of the state (``extra_vars``: loop variables of
    the operator's own before it, e.g. a ``for``'s iterate, read and written by the callbacks)."""
    from ..ops.control_flow import control_flow_v2

    init = loop_state.entry_state(lambda: body(*extra_vars), get_state, set_state, symbol_names, _scratch)
    kept = [k for k, v in enumerate(init) if not undefined(v)]
    n = len(extra_vars)

    def enter(xs):
        set_state(_merge(init, kept, xs[n:]))
        return xs[:n]

    def aug_test(*xs):
        return test(*enter(xs))

    def aug_body(*xs):
        extra = body(*enter(xs))
        new = tuple(get_state())
        loop_state.verify_iteration([symbol_names[k] for k in kept], xs[n:], [new[k] for k in kept])
        return (*extra, *[new[k] for k in kept])
    out = control_flow_v2.while_loop(aug_test, aug_body, [*extra_vars, *[init[k] for k in kept]],
                                     maximum_iterations=opts.get("maximum_iterations"))
    set_state(_merge(init, kept, tuple(out)[n:]))


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    init_test = _scratch(test)
    if not _staged(init_test):
        if not init_test:
            return
        body()
        while _guarded(test(), _WHILE_CHANGED):
            body()
        return

    def loop_body():
        body()
        return ()
    _tf_while(test, loop_body, get_state, set_state, symbol_names, opts)


_SEE = ("\nSee https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
        "limitations.md#consistency-of-control-flow-types for more info.")
_WHILE_CHANGED = ("The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either "
                  "because variables changed type, or when a break or return statement inside the loop depends on a "
                  "Tensor condition. In both cases, changing to a TF loop should remove the error." + _SEE)
_FOR_STOP = ("break and return statements which depend on a TF condition are not supported in Python for loops. "
             "Did you intend to make it a TF loop?" + _SEE)


def _guarded(value, message) -> bool:
    """A Python loop's condition as a ``bool`` (a tensor there: TensorFlow's NotImplementedError)."""
    from ..errors import OperatorNotAllowedInGraphError

    try:
        return bool(value)
    except OperatorNotAllowedInGraphError as e:
        raise NotImplementedError(message) from e


def _py_for(iter_, extra_test, body):
    if extra_test is None:
        for target in iter_:
            body(target)
        return
    if _guarded(extra_test(), _FOR_STOP):
        for target in iter_:
            body(target)
            if not _guarded(extra_test(), _FOR_STOP):
                break


def _and_extra(main, extra_test):
    if extra_test is None:
        return main
    from ..ops.control_flow import control_flow_v2

    return control_flow_v2.cond(main, extra_test, lambda: False)


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    if not _staged(iter_):
        _py_for(iter_, extra_test, body)
        return
    if symbolic(iter_) and iter_._op.type == "Range":
        _range_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    _tensor_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts)


def _tensor_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """A ``for`` over a tensor's rows (TensorFlow's known-length loop): the tensor unstacked into a
    TensorArray, read at an index the loop counts up."""
    from ..ops.control_flow.tensor_array_ops import TensorArray
    from .operators import converted_call

    n = converted_call(len, (iter_,), None)
    rows = TensorArray(iter_.dtype, size=n).unstack(iter_)

    def test(i):
        return _and_extra(i < n, extra_test)

    def loop_body(i):
        body(rows.read(i))
        return (i + 1,)
    _tf_while(test, loop_body, get_state, set_state, symbol_names, opts, [0])


def _range_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """A ``for`` over ``tf.range``: AutoGraph elides the range, and the loop steps an iterate
    from its start by its delta (the number of iterations is computed, for XLA's sake, and unused)."""
    from ..ops.array import array_ops
    from ..ops.math import math_ops
    from ..runtime.values import constant

    node = iter_._op
    start, limit, delta = node._inputs or [constant(node._attrs[k], iter_.dtype, name=k)
                                           for k in ("start", "limit", "delta")]
    dist = limit - start  # AutoGraph's get_range_len
    length = dist // delta
    length = length + array_ops.cast(math_ops.not_equal(dist % delta, _zero(length)), dist.dtype)
    math_ops.maximum(length, _zero(length))
    step = delta._op._attrs["value"] if getattr(delta, "_op", None) is not None and delta._op.type == "Const" \
        else None

    def test(i):
        if step is not None:
            main = i < limit if step >= 0 else i > limit
        else:
            main = math_ops.logical_or(math_ops.logical_and(delta >= 0, i < limit),
                                       math_ops.logical_and(delta < 0, i > limit))
        return _and_extra(main, extra_test)

    def loop_body(i):
        body(i)
        return (i + delta,)

    def aug_get_state():  # a target first assigned by the loop starts as the iterate
        return tuple(start if name == opts.get("iterate_names") and isinstance(v, Undefined) else v
                     for name, v in zip(symbol_names, get_state()))
    _tf_while(test, loop_body, aug_get_state, set_state, symbol_names, opts, [start])


def _zero(like):
    """``zeros_like`` of a tensor of known shape in a graph: a constant (``zeros_like``)."""
    from ..runtime.values import constant

    return constant(0, like.dtype, name="zeros_like")

"""A TensorFlow loop's state on entry (TensorFlow's ``_try_handling_undefineds``): a variable first
assigned inside the loop gets a placeholder — a zero of the type one iteration, staged in a
throwaway graph, gives it — and the state is checked with TensorFlow's errors.

devtrace does not add TensorFlow's runtime check that such a loop ran at least once (its
``Assert``): a loop that runs no iteration leaves the placeholder.
"""

from __future__ import annotations

from ..runtime.tensor import Tensor
from .operators import Undefined, UndefinedReturnValue, undefined

LEGAL_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"


def _placeholder(like, original):
    from ..ops.array import array_ops

    if undefined(like):
        return original
    if isinstance(like, (bool, int, float)):
        return type(like)(0)
    if isinstance(like, Tensor):
        dims = like.shape.as_list() if like.shape.rank is not None else []
        return array_ops.zeros([d or 0 for d in dims], like.dtype)
    if isinstance(like, (list, tuple)):
        return type(like)(_placeholder(v, None) for v in like)
    if isinstance(like, dict):
        return {k: _placeholder(v, None) for k, v in like.items()}
    raise TypeError(f"Found an unsupported type '{type(like).__name__}' while creating placeholder for {like}. "
                    "Supported types include Tensor, int, float, bool, list, tuple or dict.")


def _autocast(value):
    from ..runtime.values import convert_to_tensor

    return convert_to_tensor(value) if isinstance(value, (bool, int, float)) else value


def verify_init(init, names, first=None, failure=None) -> None:
    """TensorFlow's ``verify_loop_init_vars``."""
    first = first if first is not None else (None,) * len(init)
    for name, value, first_value in zip(names, init, first):
        if isinstance(value, UndefinedReturnValue):
            if first_value is not None and not undefined(first_value):
                raise ValueError(f"the return value from a TensorFlow loop may only be a {LEGAL_LOOP_TYPES}; "
                                 f"got {type(first_value)}")
            raise NotImplementedError("a return statement cannot be placed inside this TensorFlow loop; this may "
                                      "happen if a return statement depends on a static Python condition such as "
                                      "a hyperparameter")
        if value is None:
            raise ValueError(f"'{name}' is not allowed to be None before the loop")
        if isinstance(value, Undefined):
            raise ValueError(f"'{name}' must be defined before the loop" + (f"\n{failure}" if failure else ""))


def entry_state(stage, get_state, set_state, names, scratch) -> tuple:
    """The loop's initial state, undefined variables replaced by placeholders where one staged
    iteration (``stage()``, run through ``scratch``) tells their type."""
    init = tuple(get_state())
    nulls = [undefined(v) for v in init]
    if not any(nulls):
        return init
    first, failure = None, None

    def staged():
        set_state(tuple(_autocast(v) for v in init))
        stage()
        return tuple(get_state())
    try:
        first = scratch(staged)
    except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
        failure = f"Note: AutoGraph tried to define it automatically, but ran into a {type(e).__name__}: {e}"
    finally:
        set_state(init)
    if first is not None:
        init = tuple(_placeholder(f, v) if null else v for v, null, f in zip(init, nulls, first))
    verify_init(init, names, first, failure)
    return init


def _is_subshape(left, right) -> bool:
    """``left`` at least as specific as ``right`` (TensorFlow's ``_is_subshape``)."""
    if right.rank is None:
        return True
    if left.rank != right.rank:
        return False
    return all(r is None or l == r for l, r in zip(left.as_list(), right.as_list()))


def verify_iteration(names, entry, exit_) -> None:
    """TensorFlow's check of a loop variable after one iteration: same dtype, a shape no less
    specific than on entry."""
    for name, before, after in zip(names, entry, exit_):
        if after is None:
            raise ValueError(f"'{name}' is None at the end of the iteration.")
        if not (isinstance(before, Tensor) and isinstance(after, Tensor)):
            continue
        if before.dtype != after.dtype:
            raise TypeError(f"'{name}' has dtype {before.dtype.name} before the loop, but dtype {after.dtype.name} "
                            "after one iteration")
        if not _is_subshape(after.shape, before.shape):
            raise ValueError(f"'{name}' has shape {before.shape} before the loop, but shape {after.shape} after one "
                             "iteration. Use tf.autograph.experimental.set_loop_options to set shape invariants.")

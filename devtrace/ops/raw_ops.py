"""``tf.raw_ops``: the few of TensorFlow's raw op functions devtrace has — a resource variable's ops
(``VarHandleOp``, ``AssignVariableOp``, ``ReadVariableOp``, ``DestroyResourceOp``), which
``tf.saved_model.experimental.TrackableResource`` subclasses build their resources from. Keyword
arguments only, as TensorFlow's; the ops run through the same declarations as ``tf.Variable``'s (the
handle pins them to the variable's device). The others say that devtrace does not implement them.
"""

from __future__ import annotations

import functools

from ..errors import FailedPreconditionError
from ..runtime import dtypes
from ..runtime.context import context
from ..runtime.eager.executor import ResourceHandle, execute
from ..runtime.registry import CPU, GPU
from ..runtime.values import constant
from .declare import as_tensor, op, public


class _RawVariable:
    """A handle's state when no ``tf.Variable`` owns it: its dtype and value (``None``: not assigned)."""

    def __init__(self, dtype, shared_name):
        self._dtype = dtype
        self._value = None
        self.shared_name = shared_name
        self.destroyed = False


def _keywords_only(snake, keys):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            if args:
                raise TypeError(f"{snake} only takes keyword args (possible keys: {keys}). Please pass these args "
                                f"as kwargs instead.")
            return fn(**kwargs)
        return wrapped
    return decorate


@public("raw_ops.VarHandleOp")
@_keywords_only("var_handle_op", ["dtype", "shape", "container", "shared_name", "debug_name", "allowed_devices",
                                  "name"])
def var_handle_op(dtype, shape, container="", shared_name="", debug_name="", allowed_devices=(), name=None):
    dtype = dtypes.as_dtype(dtype)
    handle = execute("VarHandleOp", (), {"shape": list(shape), "debug_name": debug_name}, dtype=dtype, name=name)
    if isinstance(handle, ResourceHandle):
        handle.variable = _RawVariable(dtype, shared_name)
    return handle


def _state(resource, op_name) -> _RawVariable:
    if not isinstance(resource, ResourceHandle) or resource.variable is None:
        raise NotImplementedError(f"devtrace does not implement tf.raw_ops.{op_name} of this resource yet")
    return resource.variable


def _missing(resource, state, name):
    why = (f"Resource localhost/{state.shared_name}/N10tensorflow3VarE does not exist." if state.destroyed else
           f"Container localhost does not exist. (Could not find resource: localhost/{state.shared_name})")
    return FailedPreconditionError(
        f"{{{{function_node __wrapped__ReadVariableOp_device_{resource.device.name}}}}} Could not find variable "
        f"{state.shared_name}. This could mean that the variable has been deleted. In TF1, it can also mean the "
        f"variable is uninitialized. Debug info: container=localhost, status error message={why} "
        f"[Op:ReadVariableOp] name: {name or ''}")


@public("raw_ops.AssignVariableOp")
@_keywords_only("assign_variable_op", ["resource", "value", "validate_shape", "name"])
def assign_variable_op(resource, value, validate_shape=False, name=None):
    state = _state(resource, "AssignVariableOp")
    value = as_tensor(value) if hasattr(value, "_dtype") else constant(value, getattr(state, "_dtype", None))
    out = execute("AssignVariableOp", (value,), resource=resource, dtype=value._dtype, name=name)
    if out._device is not None:
        state._value = out


@public("raw_ops.ReadVariableOp")
@_keywords_only("read_variable_op", ["resource", "dtype", "name"])
def read_variable_op(resource, dtype, name=None):
    state = _state(resource, "ReadVariableOp")
    if state._value is None:
        raise _missing(resource, state, name)
    return execute("ReadVariableOp", (state._value,), resource=resource, dtype=dtypes.as_dtype(dtype), name=name)


@public("raw_ops.DestroyResourceOp")
@_keywords_only("destroy_resource_op", ["resource", "ignore_lookup_error", "name"])
def destroy_resource_op(resource, ignore_lookup_error=True, name=None):
    state = _state(resource, "DestroyResourceOp")
    if context().eager:
        execute("DestroyResourceOp", (), {"ignore_lookup_error": bool(ignore_lookup_error)}, resource=resource,
                dtype=state._dtype, name=name)
        state._value, state.destroyed = None, True


op("DestroyResourceOp", lambda xp, ignore_lookup_error=True: None, None, devices=(CPU, GPU), stateful=True)

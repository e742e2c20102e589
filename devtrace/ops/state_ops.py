"""Variable ops. Eager (resource variables): the handle carries no data; assign and read run
where the variable lives. TF1 graphs (ref variables): ``VariableV2``, ``Assign``, and the graph
plumbing ops ``Placeholder`` and ``NoOp``, whose kernels are trivial — a session executes them
itself (a variable's buffer, a fed value, nothing)."""

from __future__ import annotations

from ..runtime import dtypes
from ..runtime.dtypes import NUMERIC
from ..runtime.eager.variables import Variable
from ..runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ..runtime.tensor_shape import shape_text
from . import shapes
from .declare import not_differentiable, op

_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}
op("VarHandleOp", lambda xp, shape=None, debug_name="": None, stateful=True)


def _read(xp, v):
    """The variable's buffer itself, as TensorFlow's read shares it (its output is accounted as its
    own all the same): every kernel that updates a variable makes a new array, except
    ``ResourceCountUpTo``'s increment in place — so an integer variable's read is a copy."""
    return v if v.dtype.kind in "fc" else v.copy()


op("ReadVariableOp", _read, _ANY_ON_CPU, stateful=True, shape=shapes.same)
op("AssignVariableOp", lambda xp, v: v.copy(), _ANY_ON_CPU, stateful=True, shape=shapes.same)
# a variable's shape from its handle (a while gradient's zeros for a variable the loop reads); the node's
# static shape is the ``variable_shape`` attr
op("VariableShape", lambda xp, v, out_type="int32", variable_shape=(): xp.asarray(v.shape, dtype=out_type),
   _ANY_ON_CPU, shape=lambda name, shapes, attrs, dtype: (dtypes.as_dtype(attrs.get("out_type", "int32")),
                                                         (len(attrs.get("variable_shape", ())),)))
op("VarIsInitializedOp", lambda xp: None, _ANY_ON_CPU, stateful=True)  # a session answers it from its variables
op("IsVariableInitialized", lambda xp, ref: None, _ANY_ON_CPU, shape=shapes.is_initialized, stateful=True)  # likewise


def _update(fn):
    """``AssignAdd``/``AssignSubVariableOp``: the delta must have the variable's shape exactly."""
    def kernel(xp, v, delta):
        if v.shape != delta.shape:
            raise ValueError(f"Cannot update variable with shape {shape_text(v.shape)} using a Tensor with shape "
                             f"{shape_text(delta.shape)}, shapes must be equal.")
        return fn(v, delta)
    return kernel


op("AssignAddVariableOp", _update(lambda v, delta: v + delta), NUMERIC, stateful=True, shape=shapes.same)
op("AssignSubVariableOp", _update(lambda v, delta: v - delta), NUMERIC, stateful=True, shape=shapes.same)
# an assignment under a tape passes no gradient to what it assigned (TensorFlow's NotDifferentiable)
not_differentiable("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")
op("VariableV2", lambda xp: None, _ANY_ON_CPU, shape=shapes.variable, stateful=True)
op("Assign", lambda xp, ref, value: value.copy(), _ANY_ON_CPU, shape=shapes.same, stateful=True)
op("AssignAdd", lambda xp, ref, value: ref + value, NUMERIC, shape=shapes.same, stateful=True)  # on a ref variable
op("AssignSub", lambda xp, ref, value: ref - value, NUMERIC, shape=shapes.same, stateful=True)
op("Placeholder", lambda xp: None, _ANY_ON_CPU, shape=shapes.same)
op("NoOp", lambda xp: None)


def _count_up_to(xp, v, limit=0):
    """``ResourceCountUpTo``: the value before; the variable's buffer incremented in place."""
    old = v.copy()
    v += 1
    return old


op("ResourceCountUpTo", _count_up_to, {"int32", "int64"}, devices=(CPU,), stateful=True)  # TensorFlow's: CPU only


def count_up_to(variable, limit):
    """``Variable.count_up_to``: TensorFlow's ``OutOfRangeError`` once the value reached ``limit``."""
    from ..errors import OutOfRangeError
    from ..runtime.eager.executor import execute

    if int(variable.numpy()) >= limit:
        raise OutOfRangeError(f"{{{{function_node __wrapped__ResourceCountUpTo_device_{variable.device}}}}} Reached "
                              f"limit of {limit} [Op:ResourceCountUpTo] name: ", op="ResourceCountUpTo")
    return execute("ResourceCountUpTo", (variable._value,), {"limit": int(limit)}, resource=variable._handle,
                   dtype=variable.dtype)


Variable.count_up_to = count_up_to

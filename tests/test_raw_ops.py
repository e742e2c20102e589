"""tf.raw_ops' resource variable ops (issue 28: what tf.saved_model.experimental.TrackableResource's
example builds its resource from): keyword arguments only, values and errors as tensorflow-cpu 2.21
printed them for the same calls, the ops pinned to the variable's device."""

from __future__ import annotations

import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
NOT_FOUND = ("{{function_node __wrapped__ReadVariableOp_device_/job:localhost/replica:0/task:0/device:CPU:0}} Could "
             "not find variable . This could mean that the variable has been deleted. In TF1, it can also mean the "
             "variable is uninitialized. Debug info: container=localhost, status error message=")


def test_a_raw_variable_as_tensorflow():
    reset_context()
    h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2])
    assert h.dtype == tf.resource
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
        tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32)
    assert str(e.value) == NOT_FOUND + ("Container localhost does not exist. (Could not find resource: localhost/) "
                                        "[Op:ReadVariableOp] name: ")
    assert tf.raw_ops.AssignVariableOp(resource=h, value=tf.ones([2])) is None
    assert tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32).numpy().tolist() == [1.0, 1.0]
    assert tf.raw_ops.DestroyResourceOp(resource=h) is None
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
        tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32)
    assert str(e.value) == NOT_FOUND + "Resource localhost//N10tensorflow3VarE does not exist. [Op:ReadVariableOp] name: "
    with pytest.raises(TypeError, match=r"^var_handle_op only takes keyword args \(possible keys: \['dtype', 'shape', "
                                        r"'container', 'shared_name', 'debug_name', 'allowed_devices', 'name'\]\). "
                                        r"Please pass these args as kwargs instead.$"):
        tf.raw_ops.VarHandleOp(tf.float32, [2])


def test_the_ops_run_where_the_variable_is():
    gpus = tuple(simulated.parse_simulate("1"))
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated"), env={})
    with tf.device("/CPU:0"):
        h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2])
    with tf.device("/GPU:0"):
        tf.raw_ops.AssignVariableOp(resource=h, value=tf.ones([2]))
        out = tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32)
        tf.raw_ops.DestroyResourceOp(resource=h)
    assert out.device == CPU0
    placed = {(e.op, e.device) for e in ctx.trace.of(ev.OpPlaced) if e.op != "_EagerConst" and e.op != "Fill"}
    assert placed == {("VarHandleOp", CPU0), ("AssignVariableOp", CPU0), ("ReadVariableOp", CPU0),
                      ("DestroyResourceOp", CPU0)}


def test_other_raw_ops_say_they_are_missing():
    with pytest.raises(AttributeError, match=r"^devtrace does not implement tf.raw_ops.AddV2 yet$"):
        tf.raw_ops.AddV2

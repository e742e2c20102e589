"""A ``tf.function`` called while another is traced is a call node of the caller's graph, as in
TensorFlow 2.21: ``PartitionedCall`` (``StatefulPartitionedCall`` when the callee reads a variable) in
``get_operations()``, inlined before the caller is placed — the placement log's ``Func/PartitionedCall/
input/_0``, ``PartitionedCall/Square`` …, ``PartitionedCall: (NoOp)``, the caller's capture for it an
``_Arg`` named ``unknown`` (then ``unknown_0`` …). TensorFlow's output: ``tests/tf221_oracle/programs/
function_call_{node,captures,trace_once}.py`` captured by ``tests/tf221_oracle/capture.py`` (stdout: placer
lines, results)."""

import pathlib

import pytest

import devtrace as tf
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context

ORACLE = pathlib.Path(__file__).resolve().parent / "tf221_oracle"


@pytest.fixture
def cpu():
    reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), (), (), "cpu"), env={})
    yield
    tf.debugging.set_log_device_placement(False)


@pytest.mark.parametrize("name", ["function_call_node", "function_call_captures", "function_call_trace_once"])
def test_nested_functions_are_call_nodes_placed_as_tensorflow_inlines_them(cpu, capsys, name):
    program = (ORACLE / "programs" / f"{name}.py").read_text()
    program = program.replace("import tensorflow as tf", "import devtrace as tf")
    exec(compile(program, f"{name}.py", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out == (ORACLE / "captures" / f"{name}.stdout").read_text()


def test_a_call_under_a_recording_tape_is_differentiated(cpu):
    """The gradient through a tf.function called in another (devtrace traces it inline under a tape:
    it has no gradient of a call node yet)."""
    inner = tf.function(lambda x: tf.square(x) * 3.0)

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x)
        return tape.gradient(y, x)

    assert grad(tf.constant([1.0, 2.0])).numpy().tolist() == [6.0, 12.0]

"""tf.function: tracing, running the traced graph on the placed devices, gradients inside.
Values, tracing counts and the placement log against TensorFlow: tests/tf221/function_*.py."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

from conftest import devtrace, program


def machine(spec=None):
    gpus = tuple(simulated.parse_simulate(spec)) if spec else ()
    return reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu"), env={})


def test_python_runs_once_per_signature():
    machine()
    seen = []

    @tf.function
    def f(x, k):
        seen.append(k)
        return x * k

    x = tf.constant([1.0, 2.0])
    assert f(x, 2.0).numpy().tolist() == [2.0, 4.0]
    assert f(x, 2.0).numpy().tolist() == [2.0, 4.0]
    assert f(tf.constant([5.0, 6.0]), 2.0).numpy().tolist() == [10.0, 12.0]  # same shape: no retrace
    f(x, 3.0)
    f(tf.constant([1.0]), 3.0)
    assert seen == [2.0, 3.0, 3.0] and f.experimental_get_tracing_count() == 3


def test_the_body_runs_where_it_asks_and_memory_is_accounted():
    ctx = machine("2")

    @tf.function
    def f(x):
        with tf.device("/GPU:1"):
            return tf.matmul(x, x)

    x = tf.constant(np.ones((64, 64), np.float32))
    y = f(x)
    assert y.device.endswith("GPU:1") and y.numpy()[0, 0] == 64.0
    assert tf.config.experimental.get_memory_info("GPU:1")["current"] >= 64 * 64 * 4
    calls = [e for e in ctx.trace.events if isinstance(e, ev.OpPlaced) and e.op.startswith("__inference_f_")]
    assert len(calls) == 1
    matmuls = [e for e in ctx.trace.events if isinstance(e, ev.OpPlaced) and e.op == "MatMul" and e.seq]
    assert [(e.device.rsplit(":", 2)[-2:], e.reason) for e in matmuls] == [(["GPU", "1"], ev.EXPLICIT)]


def test_lowered_control_flow_is_logged_and_runs_where_it_is_placed():
    ctx = machine("2")
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.device("/GPU:1"):
            y = tf.cond(x > 0, lambda: x * 2.0, lambda: x * 3.0)
        while y < 20.0:
            y = y * 2.0
        v.assign_add(y)
        return y

    assert f(tf.constant(2.0)).numpy() == 32.0 and v.numpy() == 33.0
    log = {e.node: (e.op, e.device.rsplit("/", 1)[-1]) for e in ctx.trace.events
           if isinstance(e, ev.OpPlaced) and not e.seq and e.node}
    # TensorFlow's lowered cond: its Switch/Merge nodes and inlined branch on the scope's device
    assert log["cond/switch_pred/_2"] == ("Switch", "device:GPU:1")
    assert log["cond/then/_0/cond/mul"] == ("Mul", "device:GPU:1")
    assert log["cond/output/_6"] == ("Merge", "device:GPU:1") and log["cond"] == ("NoOp", "device:GPU:1")
    # ... and its lowered loop on the default device, the condition and body inlined
    assert {op for op, _ in log.values()} >= {"Enter", "Merge", "LoopCond", "Switch", "Exit", "NextIteration"}
    assert log["while/body/_9/while/mul"] == ("Mul", "device:GPU:0")  # the /_N counter went on from the cond
    assert "If" not in {op for op, _ in log.values()} and "StatelessWhile" not in {op for op, _ in log.values()}
    # the branches ran where the lowered graph placed them
    muls = [e.device.rsplit("/", 1)[-1] for e in ctx.trace.events if isinstance(e, ev.OpPlaced) and e.seq
            and e.op == "Mul"]
    assert muls == ["device:GPU:1"] + ["device:GPU:0"] * 3


def test_a_training_step_matches_the_eager_one():
    machine()
    x, y = tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[1.0], [0.0]])

    def step(w):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.matmul(x, w) - y))
        w.assign(w - 0.05 * tape.gradient(loss, w))
        return loss

    eager, graph = tf.Variable([[0.1], [0.2]]), tf.Variable([[0.1], [0.2]])
    traced = tf.function(step)
    for _ in range(4):
        assert abs(step(eager).numpy() - traced(graph).numpy()) < 1e-6
    np.testing.assert_allclose(eager.numpy(), graph.numpy(), rtol=1e-6)
    assert traced.experimental_get_tracing_count() == 1


def test_input_signature_refuses_other_shapes():
    machine()

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(v):
        return v * 2.0

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(TypeError, match="^Binding inputs to tf.function failed"):
        f(tf.constant([1.0, 2.0, 3.0]))


def test_input_signature_calls_after_the_trace_check_each_tensor_against_its_spec():
    """Once traced, a call of eager tensors skips the binding machinery, but not the checks: a batch
    of any size fits ``None``, another dtype, rank or fixed dimension fails as at the first call."""
    machine()

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def f(x, k):
        return x * tf.cast(k, tf.float32)

    assert f(tf.constant([[1.0, 2.0]]), tf.constant(3)).numpy().tolist() == [[3.0, 6.0]]
    assert f(tf.constant([[1.0, 2.0]] * 3), tf.constant(2)).numpy().tolist() == [[2.0, 4.0]] * 3
    for x, k in ((tf.constant([[1.0, 2.0, 3.0]]), tf.constant(1)), (tf.constant([1.0, 2.0]), tf.constant(1)),
                 (tf.constant([[1.0, 2.0]], tf.float64), tf.constant(1)), (tf.constant([[1.0, 2.0]]), tf.constant(1.0))):
        with pytest.raises(TypeError, match="^Binding inputs to tf.function failed"):
            f(x, k)
    assert f.experimental_get_tracing_count() == 1


def test_run_functions_eagerly_runs_the_python():
    machine()
    seen = []

    @tf.function
    def f(x):
        seen.append(1)
        return x + 1.0

    tf.config.run_functions_eagerly(True)
    try:
        f(tf.constant(1.0))
        f(tf.constant(1.0))
    finally:
        tf.config.run_functions_eagerly(False)
    assert len(seen) == 2 and f.experimental_get_tracing_count() == 0


def test_function_training_step_on_gpu1_from_the_cli():
    r = devtrace("run", program("train_function_gpu1.py"), "--simulate", "2", "--format", "table",
                 "--expect", "MatMul=GPU:1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "loss 4.1139 traced 1\n"
    rows = [line.split() for line in r.stderr.splitlines()]
    matmuls = [row for row in rows if len(row) > 1 and row[1] == "MatMul"]
    assert matmuls and all("GPU:1" in row for row in matmuls)
    # (reason, src): the forward MatMul placed by the scope on line 14, its gradients colocated, from line 15
    reason = lambda row: next(t for t in row if t in ("explicit", "colocated", "default"))  # noqa: E731
    assert {(reason(row), row[-1]) for row in matmuls} == {("explicit", "train_function_gpu1.py:14"),
                                                            ("colocated", "train_function_gpu1.py:15")}
    assigns = [row for row in rows if len(row) > 1 and row[1] == "AssignVariableOp"]
    assert assigns and all("GPU:1" in row for row in assigns)


def test_a_retrace_storm_warns_as_tensorflow_twice_at_most(capsys):
    @tf.function
    def g(x):
        return x + 1

    for i in range(8):
        g(tf.ones([i + 1]))
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("WARNING:tensorflow:")]
    # TensorFlow 2.21's frequent-tracing detector: at the 5th and 6th trace in a row, then silent
    assert [w.split(" calls to ")[0] for w in warnings] == ["WARNING:tensorflow:5 out of the last 5",
                                                           "WARNING:tensorflow:6 out of the last 6"]
    assert warnings[0].endswith(
        "triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be due "
        "to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) passing "
        "Python objects instead of tensors. For (1), please define your @tf.function outside of the loop. For (2), "
        "@tf.function has reduce_retracing=True option that can avoid unnecessary retracing. For (3), please refer "
        "to https://www.tensorflow.org/guide/function#controlling_retracing and "
        "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")
    assert f"calls to {g.python_function!r} triggered" in warnings[0]


def test_nodes_without_a_shape_function_get_their_static_shape_by_example():
    machine()

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4, 1], tf.float32)])
    def f(x):
        pooled = tf.nn.max_pool2d(x, 2, 2, "VALID")  # MaxPool declares no shape function
        return tf.transpose(pooled, [0, 3, 1, 2]), tf.where(x > 0)

    graph = f.get_concrete_function().graph
    shapes = {op.type: tuple(op.outputs[0].shape) if op.outputs[0].shape.rank is not None else None
              for op in graph.get_operations() if op.type in ("MaxPool", "Transpose", "Where")}
    # the unknown batch stays unknown; a value-dependent dimension (Where's rows) is not guessed:
    # TensorFlow 2.21 gives Where's output the static shape (None, 4)
    assert shapes == {"MaxPool": (None, 2, 2, 1), "Transpose": (None, 1, 2, 2), "Where": (None, 4)}


def test_a_function_body_is_logged_on_stdout_as_tensorflows_placer_prints_it(capsys):
    machine()
    v = tf.Variable(1.0)  # made before the log is on: its eager ops' one-op functions print nothing
    half = tf.constant(0.5)
    tf.debugging.set_log_device_placement(True)
    try:

        @tf.function
        def f(x):
            v.assign_add(x)
            return tf.exp(x)

        f(half)
        f(half)  # placed once: logged once
    finally:
        tf.debugging.set_log_device_placement(False)
    lines = [line.split(": (")[0] + " " + line.split(": (")[1].split(")")[0]
             for line in capsys.readouterr().out.splitlines() if ": (" in line]
    assert lines == ["x _Arg", "assignaddvariableop_resource _Arg", "AssignAddVariableOp AssignAddVariableOp",
                     "Exp Exp", "NoOp NoOp", "Identity Identity", "identity_RetVal _Retval"]


def test_automatic_control_dependencies_noop_as_tensorflow_2_21_makes_it():
    """TF 2.21 (tests/tf221_oracle/programs/place_function_noop.py): a NoOp made last, waiting for
    the ops that must run, when the function returns tensors; its outputs wait for it; none for
    legacy random ops, an unused read, or no return value."""
    ctx = machine()
    v, w = tf.Variable(1.0), tf.Variable([1.0, 2.0])

    def graph_of(body):
        graph = tf.function(body).get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
        return [(op.name, op.type, sorted(c.type for c in op.control_inputs)) for op in graph.get_operations()
                if op.type in ("NoOp", "Identity")]

    def assigns(x):
        v.assign(x[0])
        v.assign_add(2.0)
        return x * 2.0

    def unused_read(x):
        w.value()
        return x * 3.0

    def no_return(x):
        v.assign(x[1])

    assert graph_of(assigns) == [("Identity", "Identity", ["NoOp"]),
                                 ("NoOp", "NoOp", ["AssignAddVariableOp", "AssignVariableOp"])]
    assert graph_of(lambda x: tf.nn.relu(x * v))[-1] == ("NoOp", "NoOp", ["ReadVariableOp"])
    assert graph_of(lambda x: x + tf.random.uniform([2])) == [("Identity", "Identity", [])]
    assert graph_of(unused_read) == [("Identity", "Identity", [])]
    assert graph_of(no_return) == []
    f = tf.function(assigns)
    start = len(ctx.trace.events)
    f(tf.constant([1.0, 2.0]))
    f(tf.constant([1.0, 2.0]))
    body = [e.op for e in ctx.trace.events[start:] if isinstance(e, ev.OpPlaced) and e.seq]
    call = ["__inference_assigns_N", "StridedSlice", "AssignVariableOp", "AssignAddVariableOp", "Mul", "NoOp",
            "Identity"]
    assert [op if not op.startswith("__inference") else "__inference_assigns_N" for op in body
            if op not in ("_EagerConst", "Const")] == call * 2


def test_variable_made_on_the_first_call_from_a_fill():
    """A slot-like initial value (``tf.fill``: its dims a host input of the node) lifted out of the
    trace, as Keras's optimizers make theirs in a ``tf.function`` training step. TensorFlow 2.21:
    ``[[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]``."""
    machine()
    made = []

    @tf.function
    def f(x):
        if not made:
            made.append(tf.Variable(tf.fill([2, 3], tf.constant(0.5)) + x))
        return made[0] + x

    assert f(tf.ones([2, 3])).numpy().tolist() == [[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]


def test_next_of_an_iterator_in_a_function_runs_on_the_host_beside_its_iterator_on_a_gpu_machine():
    ctx = machine("1")
    it = iter(tf.data.Dataset.range(4).map(lambda x: tf.cast(x, tf.float32)))

    @tf.function
    def f():
        return next(it) * 2.0

    assert [float(f()) for _ in range(2)] == [0.0, 2.0]
    got = [(e.op, e.device.rsplit("/", 1)[-1], e.reason) for e in ctx.trace.events
           if isinstance(e, ev.OpPlaced) and e.seq and e.op in ("IteratorGetNext", "Mul")]
    assert got == [("IteratorGetNext", "device:CPU:0", "explicit"), ("Mul", "device:GPU:0", "default")] * 2


def test_unused_stateless_nodes_are_pruned_as_tensorflow_prunes_them(capsys):
    # guide intro_to_graphs.ipynb under TF 2.21: eagerly tf.gather(x, [1]) raises
    # "indices[0] = 1 is not in [0, 1)"; in a tf.function whose result does not use it, it never runs
    machine()

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])
        return x

    assert unused_return_graph(tf.constant([0.0])).numpy().tolist() == [0.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 1 is not in \[0, 1\)"):
        tf.gather(tf.constant([0.0]), [1])

    @tf.function
    def stateful_kept(x):
        tf.print("printed", tf.reduce_sum(x))  # stateful: runs, with what it prints, though nothing uses it
        return x + 1

    assert stateful_kept(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]
    assert "printed 3" in capsys.readouterr().err


def test_a_concrete_function_prints_its_signature_as_tensorflow():
    # TF 2.21 (guide function.ipynb): print(concrete) and repr, a default argument as its Literal, nested outputs
    machine()
    v = tf.Variable(2.0)

    @tf.function
    def g(a, b=2):
        return a * v + b, {"k": a}

    concrete = g.get_concrete_function(tf.TensorSpec(None, tf.float32))
    lines = str(concrete).splitlines()
    assert lines[:6] == [
        "ConcreteFunction Input Parameters:",
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)",
        "  b (POSITIONAL_OR_KEYWORD): Literal[2]",
        "Output Type:",
        "  Tuple[TensorSpec(shape=<unknown>, dtype=tf.float32, name=None), Dict[['k', TensorSpec(shape=<unknown>, "
        "dtype=tf.float32, name=None)]]]",
        "Captures:"]
    assert lines[6] == f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"
    assert repr(concrete) == (
        "<ConcreteFunction (a: TensorSpec(shape=<unknown>, dtype=tf.float32, name=None), b: Literal[2]) -> "
        "Tuple[TensorSpec(shape=<unknown>, dtype=tf.float32, name=None), Dict[['k', TensorSpec(shape=<unknown>, "
        f"dtype=tf.float32, name=None)]]] at 0x{id(concrete):X}>")

    @tf.function
    def h(x, y):
        return None

    assert str(h.get_concrete_function(tf.TensorSpec([2, None], tf.int32), tf.constant(1.0))).splitlines()[3:5] == [
        "Output Type:", "  Literal[None]"]


def test_python_arguments_in_a_signature_are_typed_as_tensorflow_types_them():
    # TF 2.21 (guide intro_to_graphs.ipynb's pretty_printed_concrete_signatures)
    machine()

    @tf.function
    def f(x, y=None):
        return tf.constant(1.0)

    assert f.get_concrete_function([1, -1], (2, "a")).pretty_printed_signature(verbose=False) == (
        "(x: List[Literal[1], Literal[-1]], y: Tuple[Literal[2], Literal['a']]) -> "
        "TensorSpec(shape=(), dtype=tf.float32, name=None)")
    assert f.get_concrete_function({"a": 1}).pretty_printed_signature(verbose=False) == (
        "(x: Dict[['a', Literal[1]]], y: Literal[None]) -> TensorSpec(shape=(), dtype=tf.float32, name=None)")

"""TF1 graphs as TensorFlow 2.21 runs them with only eager execution disabled (issue 13, area 6):
implicit constants named ``<op>/<argument>``, the placer's order and logging, the ``Graph
execution error`` envelope, resource variables, ``get_variable``, ``ConfigProto`` and session
devices. Every expected text below was observed with tensorflow-cpu 2.21 (probes beside
``tests/tf221_oracle/programs/tf1_*.py``). The 2017 guide's TensorFlow 1 (``--compat tf1``) is
``tests/test_graph.py``."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import devtrace, machine

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.discovery import discover
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError, UsageError
from devtrace.runtime.context import reset_context
from devtrace.runtime.graph import graph as graph_mod
from devtrace.runtime.graph import resource_variables
from devtrace.trace import events as ev

v1 = tf.compat.v1
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
PLACER_LINE = re.compile(r"^[\w/.-]+: \(\w+\): /job:\S+$")


def _graph_mode(gpus=()):
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu"), env={})
    v1.reset_default_graph()
    v1.disable_eager_execution()
    resource_variables._state["enabled"] = None
    return ctx


@pytest.fixture
def cpu_ctx():
    yield _graph_mode()
    resource_variables._state["enabled"] = None
    graph_mod.reset_default_graph()
    ctx = reset_context()
    ctx.eager = True


@pytest.fixture
def gpu_ctx():
    yield _graph_mode(tuple(simulated.parse_simulate("1")))
    resource_variables._state["enabled"] = None
    graph_mod.reset_default_graph()
    ctx = reset_context()
    ctx.eager = True


def _names():
    return [op.name for op in v1.get_default_graph().get_operations()]


def test_implicit_constants_are_named_after_the_op_and_argument(cpu_ctx):
    a = v1.constant([1.0], name="a")
    v1.add(a, 1.0), v1.multiply(a, 2.0), a * 3.0, a + 1.0, 2.0 * a, v1.negative(3.0), v1.add(1.0, a)
    v1.subtract(a, 1, name="s"), v1.matmul([[1.0]], [[2.0]]), a < 1.0
    assert _names() == ["a", "Add/y", "Add", "Mul/y", "Mul", "mul_1/y", "mul_1", "add_1/y", "add_1", "mul_2/x",
                        "mul_2", "Neg/x", "Neg", "Add_2/x", "Add_2", "s/y", "s", "MatMul/a", "MatMul/b", "MatMul",
                        "Less/y", "Less"]
    d = v1.add(a, 1.0, name="d")
    assert d.op.inputs[1].name == "d/y:0"


def test_placer_logs_non_generators_then_generators_and_again_when_the_graph_grows(cpu_ctx):
    a = v1.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
    b = v1.constant([[1.0], [1.0]], name="b")
    c = v1.matmul(a, b, name="c")
    d = v1.add(c, 1.0, name="d")
    f = v1.identity(d, name="f")
    sess = v1.Session(config=v1.ConfigProto(log_device_placement=True))
    sess.run(f)
    placed = [e.node for e in cpu_ctx.trace.of(ev.OpPlaced)]
    assert placed == ["c", "d", "f", "a", "b", "d/y"]
    sess.run(f)
    assert len(cpu_ctx.trace.of(ev.OpPlaced)) == 6  # nothing new: nothing placed or logged
    g = v1.placeholder(tf.float32, shape=[None, 2], name="g")
    sess.run(v1.matmul(g, a, name="h"), feed_dict={g: [[1.0, 1.0]]})
    assert [e.node for e in cpu_ctx.trace.of(ev.OpPlaced)][6:] == ["c", "d", "f", "h", "a", "b", "d/y", "g"]


def test_placement_error_envelope_names_the_first_node_placed(cpu_ctx):
    with v1.device("/device:GPU:2"):
        gb = v1.constant([1.0, 2.0], name="gb")
        gc = v1.add(gb, gb, name="gc")
    line = gc.op.traceback[-1][1]
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(gc)
    text = str(e.value).splitlines()
    assert text[:3] == ["Graph execution error:", "", "Detected at node 'gc' defined at (most recent call last):"]
    assert f'    File "{__file__}", line {line}, in test_placement_error_envelope_names_the_first_node_placed' in text
    assert text[-3:] == [
        "Node: 'gc'",
        f"Cannot assign a device for operation gc: {{{{node gc}}}} was explicitly assigned to /device:GPU:2 but "
        f"available devices are [ {CPU0} ]. Make sure the device specification refers to a valid device. The "
        f"requested device appears to be a GPU, but CUDA is not enabled.",
        "\t [[gc]]"]
    assert e.value.__notes__[0].startswith("devtrace: colocation group [gc]")
    soft = v1.Session(config=v1.ConfigProto(allow_soft_placement=True))
    assert soft.run(gc).tolist() == [2.0, 4.0]


def _chain(n):
    x = v1.constant(1.0, name="start")
    for _ in range(n):
        x = v1.add(x, 1.0)  # the line each node names
    return x


def test_each_node_names_the_line_and_frames_that_made_it(cpu_ctx):
    import inspect

    made_here = inspect.currentframe().f_lineno + 1
    first, second = _chain(2), _chain(3)
    in_chain = inspect.getsource(_chain).splitlines().index("        x = v1.add(x, 1.0)  # the line each node names")
    add_line = _chain.__code__.co_firstlineno + in_chain
    here = "test_each_node_names_the_line_and_frames_that_made_it"
    assert first.op.traceback[-2:] == [(__file__, made_here, here), (__file__, add_line, "_chain")]
    assert second.op.traceback[-2:] == first.op.traceback[-2:]
    assert first.op.inputs[0].op.inputs[0].op.traceback[-1] == (__file__, add_line - 2, "_chain")  # "start"
    bad = v1.add(v1.placeholder(tf.float32, name="p"), second, name="bad")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(bad)
    assert f'  File "{__file__}", line {made_here + 7}, in {here}\n' in str(e.value)  # the placeholder's line


def test_no_cuda_sentence_when_the_machine_has_gpus(gpu_ctx):
    with v1.device("/device:GPU:2"):
        gc = v1.identity(v1.constant(1.0), name="gc")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(gc)
    assert "CUDA is not enabled" not in str(e.value) and str(e.value).endswith("valid device.\n\t [[gc]]")


def test_kernel_error_envelope_has_the_original_stack_trace(cpu_ctx):
    g = v1.placeholder(tf.float32, shape=[None, 2], name="g")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(g * 2.0)
    text = str(e.value)
    assert text.startswith("Graph execution error:\n\nDetected at node 'g' defined at (most recent call last):\n")
    assert ("\nNode: 'g'\nYou must feed a value for placeholder tensor 'g' with dtype float and shape [?,2]\n"
            "\t [[{{node g}}]]\n\nOriginal stack trace for 'g':\n") in text


def test_variables_are_resource_variables_with_only_eager_disabled(cpu_ctx):
    assert v1.resource_variables_enabled()
    v = v1.Variable([1.0, 2.0], name="v")
    w = v1.get_variable("w", shape=[2], initializer=v1.zeros_initializer())
    assert (type(v).__name__, type(w).__name__, repr(v)) == (
        "ResourceVariable", "ResourceVariable", "<tf.Variable 'v:0' shape=(2,) dtype=float32>")
    assert _names() == ["v/Initializer/initial_value", "v", "v/IsInitialized/VarIsInitializedOp", "v/Assign",
                        "v/Read/ReadVariableOp", "w/Initializer/zeros", "w", "w/IsInitialized/VarIsInitializedOp",
                        "w/Assign", "w/Read/ReadVariableOp"]
    s = v + w
    assert _names()[-3:] == ["ReadVariableOp", "add/ReadVariableOp", "add"]
    sess = v1.Session()
    with pytest.raises(FailedPreconditionError) as e:
        sess.run(s)
    assert ("\nCould not find variable w. This could mean that the variable has been deleted. In TF1, it can also "
            "mean the variable is uninitialized. Debug info: container=localhost, status error message=Container "
            "localhost does not exist. (Could not find resource: localhost/w)\n\t [[{{node add/ReadVariableOp}}]]"
            ) in str(e.value)
    sess.run(v.initializer)
    with pytest.raises(FailedPreconditionError, match="status error message=Resource localhost/w/N10tensorflow3VarE "
                                                      "does not exist.\n"):
        sess.run(w + 1.0)
    sess.run(v1.global_variables_initializer())
    assert sess.run(s).tolist() == [1.0, 2.0]
    assert sess.run(v.assign_add([1.0, 1.0])).tolist() == [2.0, 3.0]
    assert sess.run(v.is_initialized())
    placed = {e.node: e.reason for e in cpu_ctx.trace.of(ev.OpPlaced)}
    assert placed["v/Assign"] == ev.COLOCATED  # a resource edge joins the handle's group


def test_disable_v2_behavior_makes_ref_variables(cpu_ctx):
    v1.disable_v2_behavior()
    assert not v1.resource_variables_enabled()
    v = v1.Variable(2.0, name="v")
    assert (type(v).__name__, repr(v)) == ("RefVariable", "<tf.Variable 'v:0' shape=() dtype=float32_ref>")
    assert [op.type for op in v1.get_default_graph().get_operations()] == ["Const", "VariableV2", "Assign",
                                                                           "Identity"]
    assert isinstance(v, v1.Variable)


def test_get_variable_reuse_rules(cpu_ctx):
    v1.get_variable("w", shape=[2])
    with pytest.raises(ValueError) as e:
        v1.get_variable("w", shape=[2])
    assert str(e.value) == ("Variable w already exists, disallowed. Did you mean to set reuse=True or "
                            "reuse=tf.AUTO_REUSE in VarScope?")
    with v1.variable_scope("scope", reuse=v1.AUTO_REUSE):
        assert v1.get_variable("u", shape=[1]).name == v1.get_variable("u", shape=[1]).name == "scope/u:0"
    with v1.variable_scope("scope", reuse=True):
        with pytest.raises(ValueError) as e:
            v1.get_variable("zz", shape=[1])
    assert str(e.value) == ("Variable scope/zz does not exist, or was not created with tf.get_variable(). Did you "
                            "mean to set reuse=tf.AUTO_REUSE in VarScope?")
    with pytest.raises(ValueError) as e:
        v1.get_variable("nos")
    assert str(e.value) == "Variable nos did not get an initializer, so its `shape` argument must be specified."


def test_config_proto_text_and_session_devices(cpu_ctx):
    config = v1.ConfigProto(log_device_placement=True, allow_soft_placement=True, device_count={"CPU": 3},
                            gpu_options=v1.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction=0.5))
    assert str(config) == ('device_count {\n  key: "CPU"\n  value: 3\n}\ngpu_options {\n  '
                           'per_process_gpu_memory_fraction: 0.5\n  allow_growth: true\n}\n'
                           'allow_soft_placement: true\nlog_device_placement: true\n')
    assert str(v1.ConfigProto()) == ""
    k = v1.constant(1.0, name="k")
    v1.Session().run(k)  # the runtime is initialised with one CPU
    with v1.device("/CPU:2"):
        m = v1.multiply(k, 2.0, name="m")
    sess = v1.Session(config=v1.ConfigProto(device_count={"CPU": 3}))
    assert [d.name for d in sess.list_devices()] == [CPU0[:-1] + str(i) for i in range(3)]
    assert repr(sess.list_devices()[0]).startswith(f"_DeviceAttributes({CPU0}, CPU, 268435456, ")
    assert sess.run(m) == 2.0
    with pytest.raises(NotFoundError, match="^No CPU devices are available in this process$"):
        v1.Session(config=v1.ConfigProto(device_count={"CPU": 0}))


def test_node_def_text(cpu_ctx):
    a = v1.constant(1.0, name="a")
    with v1.device("/GPU:0"):
        b = v1.add(a, 2.0, name="b")
    assert str(b.op.node_def) == ('name: "b"\nop: "AddV2"\ninput: "a"\ninput: "b/y"\ndevice: "/device:GPU:0"\n'
                                  'attr {\n  key: "T"\n  value {\n    type: DT_FLOAT\n  }\n}\n')


def test_the_real_tf221_session_log_is_reproduced():
    # tests/tf221_oracle/tflogs/tf1_session.log: TensorFlow 2.21's own printf placer lines (a variable, a
    # Session with log_device_placement, two runs: the second places nothing).
    here = os.path.join(os.path.dirname(__file__), "tf221_oracle", "tflogs")
    with open(os.path.join(here, "tf1_session.log"), encoding="utf-8") as f:
        want = [line for line in f.read().splitlines() if PLACER_LINE.match(line)]
    r = devtrace("run", os.path.join(here, "tf1_session.py"), env={"DEVTRACE_NVML": "0"})
    assert r.returncode == 0, r.stderr
    assert r.stdout == "16.0\n16.0\n"
    assert [line for line in r.stderr.splitlines() if PLACER_LINE.match(line)] == want
    assert len(want) == 13


def test_machine_file_graph_logs_key_is_refused_naming_the_switch(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('graph_logs = "tf1"\n[[gpu]]\nname = "Tesla K40c"\nmemory_total = "11441MiB"\n'
                    'compute_capability = "3.5"\n')
    with pytest.raises(UsageError) as e:
        discover(machine=str(path))
    assert str(e.value) == (f"{path}: 'graph_logs' is no longer a machine file key: TensorFlow 1's behaviours are "
                            f"the --compat tf1 switch (DEVTRACE_COMPAT=tf1 for a plain python run)")
    r = devtrace("run", "--machine", str(path), os.path.join(os.path.dirname(__file__), "..", "fixtures",
                                                              "programs", "matmul_log.py"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "'graph_logs' is no longer" in r.stderr


def test_compat_is_one_switch_flag_or_variable():
    assert discover(machine=machine("k40c-x1.toml"), env={}).compat == "tf2"  # the guide's machine: TF 2.21
    assert discover(machine=machine("k40c-x1.toml"), env={}, compat="tf1").compat == "tf1"
    assert discover(simulate="1", env={"DEVTRACE_COMPAT": "tf1"}).compat == "tf1"
    assert discover(simulate="1", env={"DEVTRACE_COMPAT": "tf1"}, compat="tf2").compat == "tf2"  # the flag wins
    assert discover(simulate="1", env={}).compat == "tf2"
    with pytest.raises(UsageError, match=r"^--compat tf3: choose tf2 \(TensorFlow 2.21, the default\) or tf1"):
        discover(simulate="1", env={}, compat="tf3")
    with pytest.raises(UsageError, match=r"^DEVTRACE_COMPAT=TF1: choose tf2 \(TensorFlow 2.21, the default\) or tf1"):
        discover(simulate="1", env={"DEVTRACE_COMPAT": "TF1"})


def test_nodes_placed_before_a_placement_error_are_logged(cpu_ctx):
    a = v1.constant(1.0, name="a")
    b = v1.identity(a, name="b")
    with v1.device("/GPU:2"):
        c = v1.identity(b, name="c")
    d = v1.identity(c, name="d")
    with pytest.raises(InvalidArgumentError, match="Cannot assign a device for operation c: "):
        v1.Session(config=v1.ConfigProto(log_device_placement=True)).run(d)
    assert [(e.node, e.device) for e in cpu_ctx.trace.of(ev.OpPlaced)] == [("b", CPU0)]  # as TensorFlow logs


def test_tf_variable_in_a_graph_is_a_resource_variable(cpu_ctx):
    v = tf.Variable([1.0], name="v")
    assert (type(v).__name__, repr(v)) == ("ResourceVariable", "<tf.Variable 'v:0' shape=(1,) dtype=float32>")
    assert _names() == ["v/Initializer/initial_value", "v", "v/IsInitialized/VarIsInitializedOp", "v/Assign",
                        "v/Read/ReadVariableOp"]


@pytest.mark.parametrize("program", ["tf1_graph_basic", "tf1_graph_errors", "tf1_variables", "tf1_disable_v2"])
def test_placer_lines_of_the_oracle_programs_are_tensorflows(program):
    # The wide oracle's cells leave the placer lines out; here they are compared, in order (placements of
    # grown graphs logged again, resource variables, device functions, soft placement, per-session CPUs).
    oracle = os.path.join(os.path.dirname(__file__), "tf221_oracle")
    env = {"PATH": os.environ.get("PATH", ""), "CUDA_VISIBLE_DEVICES": "", "PYTHONHASHSEED": "0", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "tf221", "run_devtrace.py"),
                           os.path.join(oracle, "programs", f"{program}.py")], capture_output=True, text=True,
                          env=env, timeout=120)
    with open(os.path.join(oracle, "captures", f"{program}.stdout"), encoding="utf-8") as f:
        want = [line for line in f.read().splitlines() if PLACER_LINE.match(line)]
    assert [line for line in done.stderr.splitlines() if PLACER_LINE.match(line)] == want
    assert len(want) >= 7


def test_ref_variable_assign_shape_errors_are_tensorflows(cpu_ctx):
    v1.disable_v2_behavior()
    v = v1.Variable([1.0, 2.0], name="v")
    with pytest.raises(ValueError) as e:
        v.assign([[1.0, 2.0]])
    assert str(e.value) == ("Shapes must be equal rank, but are 1 and 2 for '{{node Assign}} = Assign[T=DT_FLOAT, "
                            "use_locking=false, validate_shape=true](v, Assign/value)' with input shapes: [2], [1,2].")
    with pytest.raises(ValueError) as e:
        v1.assign(v, [1.0])
    assert str(e.value) == ("Dimension 0 in both shapes must be equal, but are 2 and 1. Shapes are [2] and [1]. for "
                            "'{{node Assign_1}} = Assign[T=DT_FLOAT, use_locking=true, validate_shape=true](v, "
                            "Assign_1/value)' with input shapes: [2], [1].")
    sess = v1.Session()
    sess.run(v.initializer)
    assert sess.run(v.assign_sub([1.0, 1.0])).tolist() == [0.0, 1.0]


def test_resource_variable_assign_shape_error(cpu_ctx):
    v = v1.Variable([1.0, 2.0], name="v")
    with pytest.raises(ValueError) as e:
        v.assign([5.0, 6.0, 7.0])
    assert str(e.value) == ("Cannot assign value to variable ' v:0': Shape mismatch.The variable shape (2,), and the "
                            "assigned value shape (3,) are incompatible.")


def test_initializers_and_is_variable_initialized(cpu_ctx):
    v = v1.Variable(1.0, name="v")
    w = v1.Variable(2.0, name="w")
    a, b = v1.local_variables_initializer(), v1.variables_initializer([v])
    c, d = v1.variables_initializer([v, w], name="both"), v1.initializers.global_variables()
    assert [(x.name, x.type) for x in (a, b, c, d)] == [("init", "NoOp"), ("init_1", "NoOp"), ("both", "NoOp"),
                                                        ("init_2", "NoOp")]
    assert [x.name for x in b.control_inputs] == ["v/Assign"]
    sess = v1.Session()
    assert not sess.run(v1.is_variable_initialized(v))
    sess.run(b)
    assert sess.run(v1.is_variable_initialized(v)) and not sess.run(w.is_initialized())


def test_resource_edges_override_the_consumers_request(cpu_ctx):
    # Observed with TensorFlow 2.21: the assignment and its read follow the handle to CPU:0 (two INFO lines),
    # the assigned value's Const stays on CPU:1.
    with v1.device("/cpu:0"):
        v = v1.Variable([1.0, 2.0], name="v")
    with v1.device("/cpu:1"):
        u = v.assign([3.0, 4.0])
    sess = v1.Session(config=v1.ConfigProto(device_count={"CPU": 2}, log_device_placement=True))
    sess.run(v.initializer)
    assert sess.run(u).tolist() == [3.0, 4.0]
    assert [m.text for m in cpu_ctx.trace.of(ev.Message)] == [
        f"Ignoring device specification /device:CPU:1 for node '{n}' because the input edge from 'v' is a reference "
        f"connection and already has a device field set to /device:CPU:0" for n in ("AssignVariableOp", "ReadVariableOp")]
    cpu1 = CPU0[:-1] + "1"
    assert [(e.node, e.device) for e in cpu_ctx.trace.of(ev.OpPlaced)][-8:] == [
        ("v/IsInitialized/VarIsInitializedOp", CPU0), ("v/Assign", CPU0), ("v/Read/ReadVariableOp", CPU0),
        ("AssignVariableOp", CPU0), ("ReadVariableOp", CPU0), ("v/Initializer/initial_value", CPU0), ("v", CPU0),
        ("Const", cpu1)]


def test_cli_error_line_names_the_error_inside_the_envelope():
    r = devtrace("run", os.path.join(os.path.dirname(__file__), "..", "fixtures", "programs",
                                     "tf1_variable_colocation_error.py"), "--simulate", "1")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert "devtrace.errors.InvalidArgumentError: Graph execution error:" in lines
    assert lines[-1].startswith("Error: tf1_variable_colocation_error.py raised InvalidArgumentError: Cannot assign "
                                "a device for operation Const: {{node Const}} was explicitly assigned to "
                                "/device:CPU:1 but available devices are [")


def test_variable_scope_initializer_is_get_variables_default(cpu_ctx):
    with v1.variable_scope("s", initializer=v1.constant_initializer(3.0)):
        x = v1.get_variable("x", shape=[2])
        with v1.variable_scope("inner"):
            y = v1.get_variable("y", shape=[1])
    sess = v1.Session()
    sess.run(v1.global_variables_initializer())
    assert (x.name, y.name) == ("s/x:0", "s/inner/y:0")
    assert sess.run(x).tolist() == [3.0, 3.0] and sess.run(y).tolist() == [3.0]


def test_colocation_debug_info_lists_op_types_in_libstdcxx_hash_map_order():
    """The orders TensorFlow 2.21 printed (tf221_oracle tf1_colocation, and a ref variable's group on
    CPU:3): op types inserted in node order, listed as libstdc++'s unordered_map iterates them."""
    from devtrace.runtime.graph.cxx_hash_order import iteration_order

    assert iteration_order(["PlaceholderWithDefault", "Identity"]) == ["Identity", "PlaceholderWithDefault"]
    assert iteration_order(["VariableV2", "Assign", "Identity", "AssignAdd"]) == [
        "AssignAdd", "Identity", "Assign", "VariableV2"]
    assert iteration_order(["PlaceholderWithDefault", "Neg", "Square", "Exp", "Sqrt", "Abs", "Sin", "Cos", "Tanh",
                            "Sigmoid", "Log1p", "Reciprocal", "Floor", "Ceil"]) == [
        "Exp", "Neg", "PlaceholderWithDefault", "Log1p", "Square", "Abs", "Cos", "Sin", "Sigmoid", "Sqrt", "Tanh",
        "Ceil", "Reciprocal", "Floor"]


def test_soft_placement_moving_a_resource_group_logs_its_colocation_debug_info(cpu_ctx):
    """TensorFlow 2.21's warning (tf221_oracle tf1_colocation's stderr): the group's block, with the
    ref update created colocated with its variable."""
    tf.compat.v1.disable_resource_variables()
    with tf.device("/CPU:3"):
        v = tf.compat.v1.Variable(1.0, name="v")
    tf.compat.v1.enable_resource_variables()
    with tf.device("/CPU:0"):
        u = tf.compat.v1.assign_add(v, 1.0)
    with pytest.raises(FailedPreconditionError, match=r"^Graph execution error:\n\nDetected at node 'AssignAdd'"):
        tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(allow_soft_placement=True)).run(u)
    (text,) = [e.text for e in cpu_ctx.trace.of(ev.Message) if e.text.startswith("Failed to place the graph")]
    assert text.split("\n", 2)[2] == (
        "See below for details of this colocation group:\nColocation Debug Info:\n"
        "Colocation group had the following types and supported devices: \n"
        "Root Member(assigned_device_name_index_=-1 requested_device_name_='/device:CPU:3' assigned_device_name_='' "
        "resource_device_name_='/device:CPU:3' supported_device_types_=[CPU] possible_devices_=[]\n"
        "AssignAdd: CPU \nIdentity: CPU \nAssign: CPU \nVariableV2: CPU \n\n"
        "Colocation members, user-requested devices, and framework assigned devices, if any:\n"
        "  v (VariableV2) /device:CPU:3\n  v/Assign (Assign) /device:CPU:3\n  v/read (Identity) /device:CPU:3\n"
        "  AssignAdd (AssignAdd) /device:CPU:3\n")

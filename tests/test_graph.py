"""TF1 graph mode: golden tests for the seeds' graph-and-session examples (run through
``devtrace run`` on the seeds' machines), then the graph API, the placer and every bad input
in-process.

Order of the placement lines: devtrace logs nodes in the order TensorFlow 1 placed and logged
them — its ``GraphConstructor`` order (a topological sort with a LIFO ready list), which is
the order of the seeds' logs (``b, a, MatMul``; ``Const_3, Const_2, MatMul_1, Const_1, Const,
MatMul, AddN``).
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from conftest import devtrace, golden, machine, program

import devtrace as tf
from devtrace.devices.discovery import discover
from devtrace.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError
from devtrace.terminal.console import attach
from devtrace.runtime.graph import graph as graph_mod
from devtrace.runtime.graph import placer as graph_placer
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev
from devtrace.trace import render_tf1

v1 = tf.compat.v1
FULL = "/job:localhost/replica:0/task:0/device:"
LEGACY = "/job:localhost/replica:0/task:0/"
K40C = f"{FULL}GPU:0 -> device: 0, name: Tesla K40c, pci bus id: 0000:05:00.0, compute capability: 3.5"
K40C_LEGACY = f"{LEGACY}gpu:0 -> device: 0, name: Tesla K40c, pci bus id: 0000:05:00.0"
MATMUL_VALUE = "[[22. 28.]\n [49. 64.]]\n"
K20M_BUSES = ("0000:02:00.0", "0000:03:00.0", "0000:83:00.0", "0000:84:00.0")
K20M = [f"{FULL}GPU:{i} -> device: {i}, name: Tesla K20m, pci bus id: {bus}, compute capability: 3.5"
        for i, bus in enumerate(K20M_BUSES)]
ALL_K40C = f"[ {FULL}CPU:0, {FULL}GPU:0 ]"
GPU2_ERROR = (f"Cannot assign a device for operation b: {{{{node b}}}} was explicitly assigned to /device:GPU:2 but "
              f"available devices are {ALL_K40C}. Make sure the device specification refers to a valid device.")


def k40c(*args):  # the guide's machines, and its TensorFlow 1
    return devtrace("run", *args, "--machine", machine("k40c-x1.toml"), "--compat", "tf1")


def k20m(*args):
    return devtrace("run", *args, "--machine", machine("k20m-x4.toml"), "--compat", "tf1")


# -- golden: the seeds' programs ---------------------------------------------------------------

def test_matmul_log_live_is_the_tf1_log():
    r = k40c(program("tf1_matmul_log.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == MATMUL_VALUE
    assert r.stderr.splitlines() == ["Device mapping:", K40C, f"b: (Const): {FULL}GPU:0", f"a: (Const): {FULL}GPU:0",
                                     f"MatMul: (MatMul): {FULL}GPU:0"]


def test_matmul_log_legacy_is_the_2017_guide():
    # Seed 003 wraps the mapping line after "pci bus"; joined, it is this line.
    r = k40c(program("tf1_matmul_log.py"), "--format", "tf1-legacy")
    assert r.stdout == MATMUL_VALUE
    assert r.stderr == "\n".join(["Device mapping:", K40C_LEGACY, f"b: {LEGACY}gpu:0", f"a: {LEGACY}gpu:0",
                                  f"MatMul: {LEGACY}gpu:0"]) + "\n"


def test_manual_cpu_placement_both_formats():
    r = k40c(program("tf1_manual_cpu.py"), "--format", "tf1-legacy")
    assert r.stdout == MATMUL_VALUE
    assert r.stderr.splitlines() == ["Device mapping:", K40C_LEGACY, f"b: {LEGACY}cpu:0", f"a: {LEGACY}cpu:0",
                                     f"MatMul: {LEGACY}gpu:0"]
    r = k40c(program("tf1_manual_cpu.py"), "--format", "tf1")
    assert r.stderr.splitlines()[2:] == [f"b: (Const): {FULL}CPU:0", f"a: (Const): {FULL}CPU:0",
                                         f"MatMul: (MatMul): {FULL}GPU:0"]


def test_invalid_gpu2_is_tensorflows_error_plus_the_colocation_group():
    r = k40c(program("tf1_invalid_gpu2.py"))
    assert r.returncode == 1
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[:2] == ["Device mapping:", K40C]  # at Session(), before the failing run
    at = lines.index(f"devtrace.errors.InvalidArgumentError: {GPU2_ERROR}")
    assert lines[at + 1] == ("devtrace: colocation group [b] (kernels for GPU, CPU) — the conflicting request is "
                             "'/device:GPU:2' from b (Const)")
    assert lines[-1] == f"Error: tf1_invalid_gpu2.py raised InvalidArgumentError: {GPU2_ERROR}"


def test_soft_placement_fixes_gpu2():
    r = k40c(program("tf1_soft_placement.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == MATMUL_VALUE
    assert r.stderr.splitlines()[2:] == [f"b: (Const): {FULL}GPU:0", f"a: (Const): {FULL}GPU:0",
                                         f"MatMul: (MatMul): {FULL}GPU:0"]
    table = k40c(program("tf1_soft_placement.py"), "--format", "table").stderr
    assert table.count("soft:unknown-device") == 3


MULTI_TOWER_LEGACY = "\n".join(
    ["Device mapping:"] + [f"{LEGACY}gpu:{i} -> device: {i}, name: Tesla K20m, pci bus id: {bus}"
                           for i, bus in enumerate(K20M_BUSES)]
    + [f"Const_3: {LEGACY}gpu:3", f"Const_2: {LEGACY}gpu:3", f"MatMul_1: {LEGACY}gpu:3", f"Const_1: {LEGACY}gpu:2",
       f"Const: {LEGACY}gpu:2", f"MatMul: {LEGACY}gpu:2", f"AddN: {LEGACY}cpu:0"]) + "\n"


def test_multi_tower_is_the_2017_guide_block():
    r = k20m(program("tf1_multi_tower.py"), "--format", "tf1-legacy")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[[ 44.  56.]\n [ 98. 128.]]\n"
    assert r.stderr == MULTI_TOWER_LEGACY


def test_multi_tower_modern_log():
    r = k20m(program("tf1_multi_tower.py"))
    assert r.stderr.splitlines() == ["Device mapping:", *K20M,
                                     f"Const_3: (Const): {FULL}GPU:3", f"Const_2: (Const): {FULL}GPU:3",
                                     f"MatMul_1: (MatMul): {FULL}GPU:3", f"Const_1: (Const): {FULL}GPU:2",
                                     f"Const: (Const): {FULL}GPU:2", f"MatMul: (MatMul): {FULL}GPU:2",
                                     f"AddN: (AddN): {FULL}CPU:0"]


def test_multi_tower_dot_clusters_devices_and_marks_copies():
    r = k20m(program("tf1_multi_tower.py"), "--format", "dot")  # DOT owns stdout (| dot -Tsvg)
    assert r.returncode == 0, r.stderr
    assert r.stdout == golden("tf1_multi_tower.dot")


def test_device_count_gives_the_session_three_cpus_and_two_gpus():
    r = k20m(program("tf1_device_count.py"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == ["Device mapping:", *K20M[:2], f"b: (Const): {FULL}CPU:2",
                                     f"a: (Const): {FULL}CPU:2", f"MatMul: (MatMul): {FULL}GPU:1"]
    devices = [f"{FULL}CPU:{i}" for i in range(3)] + [f"{FULL}GPU:{i}" for i in range(2)]
    assert r.stdout == MATMUL_VALUE + repr(devices) + "\n"


def _mem(name):
    r = devtrace("mem", program(name), "--json", "--machine", machine("k40c-x1.toml"), "--compat", "tf1")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["devices"][1]


def test_memory_fraction_feeds_the_allocator():
    gpu = _mem("tf1_memory_fraction.py")
    limit = int(11441 * (1 << 20) * 0.4)
    assert (gpu["policy"], gpu["limit"], gpu["reserved"]) == ("fraction", limit, limit - limit % 256)
    assert (gpu["num_allocs"], gpu["peak"], gpu["in_use"]) == (3, 768, 0)  # a, b, MatMul; freed after the run


def test_allow_growth_feeds_the_allocator():
    gpu = _mem("tf1_allow_growth.py")
    assert (gpu["policy"], gpu["reserved"], gpu["region_sizes"], gpu["peak"]) == ("growth", 2 << 20, [2 << 20], 768)


def test_variable_colocation_error_is_seed_002():
    r = k40c(program("tf1_variable_colocation_error.py"))
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    at = lines.index(
        f"devtrace.errors.InvalidArgumentError: Cannot assign a device for operation Assign/value: "
        f"{{{{node Assign/value}}}} was explicitly assigned to /device:CPU:1 but available devices are {ALL_K40C}. "
        f"Make sure the device specification refers to a valid device.")
    assert lines[at + 1] == ("devtrace: colocation group [Assign/value] (kernels for GPU, CPU) — the conflicting "
                             "request is '/device:CPU:1' from Assign/value (Const)")


def test_variable_created_on_cpu_and_assigned_on_gpu_stays_on_cpu():
    r = k40c(program("tf1_variable_colocation.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[3. 4.]\n[3. 4.]\n"
    assert r.stderr.splitlines() == [
        "Device mapping:", K40C,
        "INFO:tensorflow:Ignoring device specification /device:GPU:0 for node 'Assign' because the input edge from "
        "'v' is a reference connection and already has a device field set to /device:CPU:0",
        f"Assign/value: (Const): {FULL}GPU:0",
        f"v: (VariableV2): {FULL}CPU:0",
        f"Assign: (Assign): {FULL}CPU:0",
        f"v/read: (Identity): {FULL}CPU:0",
        f"v/initial_value: (Const): {FULL}CPU:0",
        f"v/Assign: (Assign): {FULL}CPU:0",
        f"init: (NoOp): {FULL}CPU:0"]


def test_jsonl_trace_marks_graph_mode(tmp_path):
    path = tmp_path / "t.jsonl"
    r = k40c(program("tf1_manual_cpu.py"), "--format", "jsonl", "--trace", str(path))
    first = json.loads(path.read_text().splitlines()[0])
    assert r.returncode == 0 and first["event"] == "trace_start" and first["mode"] == "graph"


# -- in-process: graph building ---------------------------------------------------------------

@pytest.fixture
def k40c_ctx():
    return _graph_mode("k40c-x1.toml")


@pytest.fixture
def k20m_ctx():
    return _graph_mode("k20m-x4.toml")


def _graph_mode(name):
    ctx = reset_context(discover(machine=machine(name), compat="tf1"))
    v1.reset_default_graph()
    v1.disable_eager_execution()
    return ctx


def test_names_are_tensorflows(k40c_ctx):
    names = [tf.constant(1.0).op.name, tf.constant(2.0).op.name, tf.constant(3.0, name="a").op.name,
             tf.constant(4.0, name="a").op.name, tf.constant(5.0, name="A").op.name]
    assert names == ["Const", "Const_1", "a", "a_1", "A_2"]
    x = tf.constant([[1.0]])
    assert [tf.matmul(x, x).name, tf.matmul(x, x).name] == ["MatMul:0", "MatMul_1:0"]
    with v1.name_scope("tower"):
        assert tf.identity(x).name == "tower/Identity:0"
    with pytest.raises(ValueError, match="'bad name' is not a valid node name"):
        tf.constant(1.0, name="bad name")


def test_a_multi_output_node_has_one_tensor_per_output(k40c_ctx):
    # Names, static shapes and values as TensorFlow 2.21 gives them (observed: unstack:1, TopKV2:1,
    # (2,), int32; [3. 4.], [1]); both outputs of a node on the GPU are fetched from the GPU.
    with tf.device("/gpu:0"):
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        a, b = tf.unstack(x)
        values, indices = tf.math.top_k(b, k=1)
    assert (a.name, b.name, values.name, indices.name) == ("unstack:0", "unstack:1", "TopKV2:0", "TopKV2:1")
    assert (tuple(b.shape), indices.dtype, b.op is a.op) == ((2,), tf.int32, True)
    with v1.Session() as session:
        got_b, got_i, got_a = session.run([b, indices, a])
    np.testing.assert_array_equal(got_b, [3.0, 4.0])
    np.testing.assert_array_equal(got_i, [1])
    np.testing.assert_array_equal(got_a, [1.0, 2.0])


def test_symbolic_tensors_show_the_requested_device(k40c_ctx):
    with tf.device("/gpu:0"):
        a = tf.constant([1.0, 2.0], name="a")
    assert (a.name, a.device, a.op.type, a.dtype, a.shape) == ("a:0", "/device:GPU:0", "Const", tf.float32, (2,))
    assert str(a) == 'Tensor("a:0", shape=(2,), dtype=float32)'
    assert repr(a) == "<tf.Tensor 'a:0' shape=(2,) dtype=float32>"
    assert repr(a.op) == "<tf.Operation 'a' type=Const>"
    p = v1.placeholder(tf.float32, shape=[None, 3])
    assert str(p.shape) == "(None, 3)" and not tf.executing_eagerly()
    with pytest.raises(TypeError, match="Using a `tf.Tensor` as a Python `bool` is not allowed in Graph execution"):
        bool(a)


def test_device_scopes_merge_inner_fields_over_outer(k40c_ctx):
    with tf.device("/job:worker"):
        with tf.device("/gpu:1"):
            a = tf.constant(1.0)
            with tf.device(None):
                b = tf.constant(1.0)
            with tf.device(""):
                c = tf.constant(1.0)
        d = tf.constant(1.0)
    assert [a.device, b.device, c.device, d.device] == ["/job:worker/device:GPU:1", "", "/job:worker/device:GPU:1",
                                                        "/job:worker"]
    assert k40c_ctx.initialized_by is None  # building a graph does not initialise the runtime


def test_colocate_with_takes_the_device_and_the_group(k40c_ctx):
    with tf.device("/cpu:0"):
        v = v1.Variable([1.0, 2.0], name="v")
    with tf.device("/gpu:0"):
        with v1.colocate_with(v.op):
            r = tf.identity(v)
    assert r.op.device == "/device:CPU:0"
    assert r.op.colocation_groups() == [b"loc:@v"]
    assert [op.name for op in v1.get_default_graph().get_operations()] == [
        "v/initial_value", "v", "v/Assign", "v/read", "Identity"]


def test_graph_as_default_in_eager_mode_builds_nodes():
    reset_context(discover(machine=machine("k40c-x1.toml"), compat="tf1"))
    g = v1.Graph()
    with g.as_default():
        c = tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]]))
        assert not tf.executing_eagerly()
    assert tf.executing_eagerly() and c.graph is g
    with v1.Session(graph=g) as sess:
        assert sess.run(c).tolist() == [[11.0]]
        assert c.eval().tolist() == [[11.0]]


# -- in-process: sessions ----------------------------------------------------------------------

def test_first_run_places_everything_later_runs_only_new_nodes(k40c_ctx):
    a = tf.constant(2.0, name="a")
    sess = v1.Session()
    assert sess.run(a * 3.0) == 6.0
    placed = [e.node for e in k40c_ctx.trace.of(ev.OpPlaced)]
    assert placed == ["mul/y", "a", "mul"]  # the operator's scope names its constant (TensorFlow: mul/y)
    assert sess.run(a * 3.0) == 6.0
    assert [e.node for e in k40c_ctx.trace.of(ev.OpPlaced)] == placed + ["mul_1/y", "mul_1"]
    assert sess.run(a) == 2.0 and len(k40c_ctx.trace.of(ev.OpPlaced)) == 5


def test_fetch_structures(k40c_ctx):
    a, b = tf.constant([1.0]), tf.constant([2.0])
    sess = v1.Session()
    out = sess.run({"sum": a + b, "pair": (a, b.op)})
    assert out["sum"].tolist() == [3.0] and out["pair"][0].tolist() == [1.0] and out["pair"][1] is None
    assert [x.tolist() for x in sess.run([a, "Const_1:0"])] == [[1.0], [2.0]]


def test_cross_device_edges_are_copied_and_memory_is_freed(k40c_ctx):
    with tf.device("/cpu:0"):
        a = tf.constant(np.ones((4, 4), np.float32))
    c = tf.matmul(a, a)
    sess = v1.Session()
    sess.run(c)
    copies = k40c_ctx.trace.of(ev.TensorCopied)
    assert [(x.op, x.input_index, x.src, x.dst, x.nbytes) for x in copies] == [
        ("MatMul", 0, f"{FULL}CPU:0", f"{FULL}GPU:0", 64)]  # one copy serves both inputs
    gpu = k40c_ctx.find_device(f"{FULL}GPU:0").allocator
    assert (gpu.bytes_in_use, gpu.peak_bytes_in_use) == (0, 512)


def test_variables_live_until_the_session_closes(k40c_ctx):
    with tf.device("/gpu:0"):
        v = v1.Variable(np.zeros(64, np.float32))
        inc = v.assign(v + 1.0)
    sess = v1.Session()
    sess.run(v1.global_variables_initializer())
    sess.run(inc)
    assert sess.run(v).tolist() == [1.0] * 64
    gpu = k40c_ctx.find_device(f"{FULL}GPU:0").allocator
    assert gpu.bytes_in_use == 256
    sess.close()
    assert gpu.bytes_in_use == 0


def test_generator_follows_its_consumer_to_the_cpu(k40c_ctx):
    x = tf.constant([1, 2])
    s = tf.strings.as_string(x)  # no GPU kernel: on CPU:0, and its constant follows it there
    v1.Session().run(s)
    placed = {e.node: (e.device, e.reason) for e in k40c_ctx.trace.of(ev.OpPlaced)}
    assert placed == {"Const": (f"{FULL}CPU:0", ev.DEFAULT), "AsString": (f"{FULL}CPU:0", ev.FALLBACK)}


def test_first_session_configures_the_runtime_later_ones_do_not(k20m_ctx):
    c = tf.constant(1.0)
    options = v1.GPUOptions(visible_device_list="2,0", allow_growth=True)
    v1.Session(config=v1.ConfigProto(gpu_options=options, device_count={"CPU": 2})).run(c)
    assert [(d.name, d.platform_id, d.policy) for d in k20m_ctx.devices] == [
        (f"{FULL}CPU:0", None, "host"), (f"{FULL}CPU:1", None, "host"),
        (f"{FULL}GPU:0", 2, "growth"), (f"{FULL}GPU:1", 0, "growth")]
    later = v1.GPUOptions(per_process_gpu_memory_fraction=0.5)
    v1.Session(config=v1.ConfigProto(gpu_options=later))
    (message,) = k20m_ctx.trace.of(ev.Message)
    assert message.text.startswith("devtrace: this Session's gpu_options (per_process_gpu_memory_fraction=0.5) "
                                   "are ignored: the runtime was already initialized by Session()")
    assert [d.policy for d in k20m_ctx.devices] == ["host", "host", "growth", "growth"]


def test_no_gpus_no_known_devices(k40c_ctx):
    c = tf.constant(1.0)
    v1.Session(config=v1.ConfigProto(device_count={"GPU": 0})).run(c)
    (mapping,) = k40c_ctx.trace.of(ev.DeviceMapping)
    assert render_tf1.render([mapping]) == "Device mapping: no known devices.\n"
    assert [e.device for e in k40c_ctx.trace.of(ev.OpPlaced)] == [f"{FULL}CPU:0"]


def test_process_wide_log_prints_graph_events_as_tf1(k40c_ctx):
    out = io.StringIO()
    attach(k40c_ctx, out)  # the live log's console, writing to ``out``
    k40c_ctx.set_log_device_placement(True)
    c = tf.constant(1.0, name="c")
    v1.Session().run(c)  # the session itself does not ask for the log
    assert out.getvalue() == f"Device mapping:\n{K40C}\nc: (Const): {FULL}GPU:0\n"


# -- the placer ---------------------------------------------------------------------------------

def test_placer_colocation_conflict_names_both_requests(k40c_ctx):
    a = tf.constant(1.0, name="a")
    with v1.colocate_with(a.op):
        with tf.device("/gpu:0"):
            tf.identity(a, name="b")
        with tf.device("/cpu:0"):
            c = tf.identity(a, name="c")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(c)
    assert str(e.value) == (
        "Cannot colocate nodes {{colocation_node c}} and {{colocation_node a}}: Cannot merge devices with "
        "incompatible types: '/device:GPU:0' and '/device:CPU:0'")
    assert e.value.__notes__ == [  # devtrace's line: printed under the error, not part of TensorFlow's text
        "devtrace: colocation group [c, a, b] — c (Identity) requests '/device:CPU:0', which conflicts with "
        "'/device:GPU:0' from b (Identity)"]
    soft = v1.Session(config=v1.ConfigProto(allow_soft_placement=True))
    assert soft.run(c) == 1.0  # the soft merge drops type and id: all three on GPU:0


def test_placer_group_request_from_another_member(k40c_ctx):
    a = tf.constant(1.0, name="a")
    with v1.colocate_with(a.op), tf.device("/device:GPU:5"):
        b = tf.identity(a, name="b")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(b)
    head, debug = str(e.value).split("\n", 1)
    assert head == (
        "Cannot assign a device for operation a: Could not satisfy explicit device specification '' because the "
        "node {{colocation_node a}} was colocated with a group of nodes that required incompatible device "
        f"'/device:GPU:5'. All available devices [{FULL}CPU:0, {FULL}GPU:0]. ")
    # TensorFlow 2.21's block (tests/tf221_oracle tf1_colocation has it on CPUs), with a GPU's kernels first
    assert debug.splitlines() == [
        "Colocation Debug Info:", "Colocation group had the following types and supported devices: ",
        "Root Member(assigned_device_name_index_=-1 requested_device_name_='/device:GPU:5' assigned_device_name_='' "
        "resource_device_name_='' supported_device_types_=[GPU, CPU] possible_devices_=[]",
        "Identity: GPU CPU ", "Const: GPU CPU ", "",
        "Colocation members, user-requested devices, and framework assigned devices, if any:",
        "  a (Const) ", "  b (Identity) /device:GPU:5"]
    assert e.value.__notes__ == [
        "devtrace: colocation group [a, b] (kernels for GPU, CPU) — the conflicting request is '/device:GPU:5' "
        "from b (Identity)"]


def test_placer_no_kernel_for_the_requested_type(k40c_ctx):
    with tf.device("/gpu:0"):
        s = tf.strings.as_string(tf.constant([1, 2]), name="s")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run(s)
    assert str(e.value) == (
        "Cannot assign a device for operation s: Could not satisfy explicit device specification '/device:GPU:0' "
        "because no supported kernel for GPU devices is available.")
    assert e.value.__notes__ == [
        "devtrace: colocation group [s] (kernels for CPU) — the conflicting request is '/device:GPU:0' from s "
        "(AsString)"]
    assert v1.Session(config=v1.ConfigProto(allow_soft_placement=True)).run(s).tolist() == [b"1", b"2"]
    assert k40c_ctx.trace.of(ev.OpPlaced)[-1].reason == ev.FALLBACK


def test_placer_op_without_kernels(k40c_ctx):
    tf.register_op("NoKernels", lambda xp, x: x, device_types=[])(tf.constant(1.0), name="nk")
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session().run("nk:0")
    assert str(e.value) == ("No OpKernel was registered to support Op 'NoKernels' used by {{node nk}} with these "
                            "attrs: [T=float32]\nRegistered devices: [CPU, GPU]\nRegistered kernels:\n"
                            "  <no registered kernels>")


def test_placer_order_is_tensorflow_1s_graph_order(k40c_ctx):
    c = []
    for d in ["/gpu:0", "/cpu:0"]:
        with tf.device(d):
            c.append(tf.matmul(tf.constant([[1.0]]), tf.constant([[2.0]])))
    tf.add_n(c)
    k40c_ctx.ensure_initialized("test")
    placement = graph_placer.place(v1.get_default_graph(), k40c_ctx.devices)
    ops = v1.get_default_graph().get_operations()
    assert [ops[i].name for i in placement.order] == ["Const_3", "Const_2", "MatMul_1", "Const_1", "Const", "MatMul",
                                                      "AddN"]


# -- bad input ----------------------------------------------------------------------------------

def test_unknown_op_type(k40c_ctx):
    with pytest.raises(NotFoundError) as e:
        v1.get_default_graph().create_op("Bogus", [])
    assert str(e.value) == ("Op type not registered 'Bogus' in binary running on devtrace. Make sure the Op and "
                            "Kernel are registered in the binary running in this process.")


def test_fetch_not_in_the_graph(k40c_ctx):
    g = v1.Graph()
    with g.as_default():
        other = tf.constant(1.0)
    tf.constant(2.0)
    sess = v1.Session()
    with pytest.raises(ValueError) as e:
        sess.run(other)
    assert str(e.value) == ("Argument `fetch` = Tensor(\"Const:0\", shape=(), dtype=float32) cannot be interpreted as "
                            "a Tensor. (Tensor Tensor(\"Const:0\", shape=(), dtype=float32) is not an element of this "
                            "graph.)")  # TensorFlow 2.21's texts (observed)
    with pytest.raises(ValueError) as e:
        sess.run("nope:0")
    assert str(e.value) == ("Argument `fetch` = nope:0 cannot be interpreted as a Tensor. (\"The name 'nope:0' refers "
                            "to a Tensor which does not exist. The operation, 'nope', does not exist in the graph.\")")
    with pytest.raises(TypeError) as e:
        sess.run(3)
    assert str(e.value) == ("Argument `fetch` = 3 has invalid type \"int\" must be a string or Tensor. (Can not "
                            "convert a int into a Tensor or Operation.)")
    with pytest.raises(TypeError) as e:
        sess.run([None])
    assert str(e.value) == 'Argument `fetch` = None has invalid type "NoneType". Cannot be None'


def test_feeding_the_wrong_shape(k40c_ctx):
    p = v1.placeholder(tf.float32, shape=[2])
    x = tf.constant([1.0, 2.0])
    y = p * x
    sess = v1.Session()
    with pytest.raises(ValueError) as e:
        sess.run(y, feed_dict={p: [1.0, 2.0, 3.0]})
    assert str(e.value) == "Cannot feed value of shape (3,) for Tensor Placeholder:0, which has shape (2,)"
    with pytest.raises(ValueError) as e:  # not a placeholder: any tensor may be fed, with its shape
        sess.run(y, feed_dict={x: [1.0, 2.0, 3.0], p: [1.0, 1.0]})
    assert str(e.value) == "Cannot feed value of shape (3,) for Tensor Const:0, which has shape (2,)"
    assert sess.run(y, feed_dict={x: [5.0, 6.0], p: [1.0, 2.0]}).tolist() == [5.0, 12.0]
    with pytest.raises(InvalidArgumentError) as e:
        sess.run(y)
    assert str(e.value) == ("You must feed a value for placeholder tensor 'Placeholder' with dtype float and shape "
                            "[2]\n\t [[{{node Placeholder}}]]")
    with pytest.raises(TypeError, match="^The value of a feed cannot be a tf.Tensor object"):
        sess.run(y, feed_dict={p: x})


def test_negative_device_count(k20m_ctx):
    tf.constant(1.0)
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session(config=v1.ConfigProto(device_count={"GPU": -1}))
    assert str(e.value) == ("ConfigProto.device_count['GPU'] = -1: a device count cannot be negative (devtrace refuses "
                            "it; TensorFlow reads a negative GPU count as 'no limit' through an unsigned conversion)")
    assert k20m_ctx.initialized_by is None


@pytest.mark.parametrize("listed, message", [
    ("0,0", "visible_device_list contained a duplicate entry: 0,0"),
    ("7", "'visible_device_list' listed an invalid Device id '7' but visible device count is 4"),
    ("0,x", "Could not parse entry in 'visible_device_list': 'x'. visible_device_list = 0,x"),
])
def test_bad_visible_device_list(k20m_ctx, listed, message):
    tf.constant(1.0)
    with pytest.raises(InvalidArgumentError) as e:
        v1.Session(config=v1.ConfigProto(gpu_options=v1.GPUOptions(visible_device_list=listed)))
    assert str(e.value) == message


def test_closed_and_empty_sessions(k40c_ctx):
    sess = v1.Session()
    with pytest.raises(RuntimeError, match=r"^The Session graph is empty\.  Add operations to the graph before "
                                           r"calling run\(\)\.$"):
        sess.run([])
    c = tf.constant(1.0)
    with v1.Session() as sess:
        assert sess.run(c) == 1.0
    with pytest.raises(RuntimeError) as e:
        sess.run(c)
    assert str(e.value) == "Attempted to use a closed Session."


def test_uninitialized_variable(k40c_ctx):
    v = v1.Variable([1.0, 2.0], name="w")
    with pytest.raises(FailedPreconditionError) as e:
        v1.Session().run(v + 1.0)
    assert str(e.value) == "Attempting to use uninitialized value w\n\t [[{{node w/read}}]]"


def test_tf_variable_in_a_tf1_graph_is_a_graph_variable(k40c_ctx):
    v = tf.Variable([1.0], name="v")  # TensorFlow 1 (--compat tf1): a ref variable
    assert (type(v).__name__, v.op.type) == ("RefVariable", "VariableV2")


def teardown_module():
    graph_mod.reset_default_graph()

"""Tensors, ops, variables, the placer's reasons and the device policy (in-process)."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

FULL = "/job:localhost/replica:0/task:0/device:"


def machine(spec=None, compat="tf2"):
    gpus = tuple(simulated.parse_simulate(spec)) if spec else ()
    return reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu",
                                 compat=compat), env={})


def placed(ctx):
    return [(e.op, e.device.rsplit("device:", 1)[1], e.reason) for e in ctx.trace.events if isinstance(e, ev.OpPlaced)]


def test_tensor_str_and_repr_match_tensorflow():
    machine()
    c = tf.matmul(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert str(c) == "tf.Tensor(\n[[22. 28.]\n [49. 64.]], shape=(2, 2), dtype=float32)"
    assert repr(c) == "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[22., 28.],\n       [49., 64.]], dtype=float32)>"
    assert str(tf.reduce_sum(c)) == "tf.Tensor(163.0, shape=(), dtype=float32)"
    assert str(tf.constant([[22, 28], [49, 64]])) == "tf.Tensor(\n[[22 28]\n [49 64]], shape=(2, 2), dtype=int32)"
    assert str(tf.constant("hello")) == "tf.Tensor(b'hello', shape=(), dtype=string)"
    assert c.shape == (2, 2) and repr(c.shape) == "TensorShape([2, 2])" and c.dtype is tf.float32
    assert c.device == f"{FULL}CPU:0"


def test_dtypes_inferred_like_tensorflow():
    machine()
    assert tf.constant(1).dtype is tf.int32
    assert tf.constant(1.5).dtype is tf.float32
    assert tf.constant(np.float64(1.5)).dtype is tf.float64
    assert tf.constant(True).dtype is tf.bool
    assert tf.constant([1, 2], dtype=tf.int64).dtype is tf.int64
    assert tf.constant(0.5, shape=[2, 2]).numpy().tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_ops_compute_the_numpy_reference():
    machine("1")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert (x + 1.0).numpy().tolist() == [[2.0, 3.0], [4.0, 5.0]]
    assert (x - x).numpy().sum() == 0
    assert (x * 2.0).numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]
    assert (x @ x).numpy().tolist() == (np.array([[1.0, 2.0], [3.0, 4.0]]) @ np.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
    assert tf.square(x).numpy()[1, 1] == 16.0
    assert tf.add_n([x, x, x]).numpy()[0, 0] == 3.0
    assert tf.reshape(x, [4]).shape == (4,)
    assert tf.reshape(x, [-1, 1]).shape == (4, 1)
    assert tf.zeros([2, 3]).numpy().sum() == 0 and tf.ones([2], tf.int32).dtype is tf.int32
    assert tf.fill([2], 7).numpy().tolist() == [7, 7]
    assert tf.range(5).numpy().tolist() == [0, 1, 2, 3, 4]
    assert tf.reduce_sum(x, axis=0).numpy().tolist() == [4.0, 6.0]
    u = tf.random.uniform([100], seed=1)
    assert u.shape == (100,) and 0 <= u.numpy().min() and u.numpy().max() < 1
    assert tf.strings.as_string(tf.constant([1, 2])).numpy().tolist() == [b"1", b"2"]
    assert (x < 2.5).numpy().tolist() == [[True, True], [False, False]]


def test_op_names_in_the_log():
    ctx = machine("1")
    x = tf.constant([1.0, 2.0])
    _ = x + 1.0
    _ = tf.zeros([2])
    _ = tf.reduce_sum(x)
    # as TensorFlow 2.21 logs them: the shape [2], the fill value and the reduction axes are constants too
    assert [op for op, _, _ in placed(ctx)] == ["_EagerConst", "_EagerConst", "AddV2", "_EagerConst", "_EagerConst",
                                                "Fill", "_EagerConst", "Sum"]


def test_default_placement_prefers_the_lowest_gpu():
    ctx = machine("4")
    tf.matmul(tf.constant([[1.0]]), tf.constant([[2.0]]))
    assert placed(ctx)[-1] == ("MatMul", "GPU:0", "default")


def test_cast_runs_on_the_gpu_as_tensorflow_2_21_registers_it():
    # TensorFlow 2.21 registers GPU Cast kernels for every numeric pair (checked against the CUDA
    # build's kernel registry: tests/tf221/kernels/README.md)
    ctx = machine("1")
    with tf.device("/GPU:0"):
        y = tf.cast(tf.constant([1.5]), tf.int32)
    assert placed(ctx)[-1] == ("Cast", "GPU:0", ev.EXPLICIT)
    assert y.device == f"{FULL}GPU:0" and y.numpy().tolist() == [1]
    tf.cast(tf.constant([1.5]), tf.int32)
    assert placed(ctx)[-1] == ("Cast", "GPU:0", ev.DEFAULT)


def test_cast_under_gpu_scope_falls_back_under_compat_tf1():
    ctx = machine("1", compat="tf1")  # the 2017 guide: "tf.cast only has a CPU kernel"
    with tf.device("/GPU:0"):
        y = tf.cast(tf.constant([1.5]), tf.int32)
    assert placed(ctx)[-1] == ("Cast", "CPU:0", ev.FALLBACK)
    assert y.device == f"{FULL}CPU:0" and y.numpy().tolist() == [1]


def test_cast_without_scope_on_a_gpu_machine_is_a_fallback_under_compat_tf1():
    ctx = machine("1", compat="tf1")
    tf.cast(tf.constant([1.5]), tf.int32)
    assert placed(ctx)[-1] == ("Cast", "CPU:0", ev.FALLBACK)


def test_an_op_without_a_gpu_kernel_falls_back_by_default():
    # RandomShuffle has only a CPU kernel in TensorFlow 2.21 (the guide's lesson, with an op for which it holds)
    ctx = machine("1")
    with tf.device("/GPU:0"):
        y = tf.random.shuffle(tf.constant([1.0, 2.0, 3.0]))
    assert placed(ctx)[-1] == ("RandomShuffle", "CPU:0", ev.FALLBACK)
    assert y.device == f"{FULL}CPU:0"


def test_cast_without_gpus_is_default():
    ctx = machine()
    tf.cast(tf.constant([1.5]), tf.int32)
    assert placed(ctx)[-1] == ("Cast", "CPU:0", ev.DEFAULT)


def test_unknown_device_soft_and_hard():
    ctx = machine("1")
    with tf.device("/GPU:7"):
        tf.constant(1.0)
    assert placed(ctx)[-1] == ("_EagerConst", "GPU:0", ev.SOFT)
    tf.config.set_soft_device_placement(False)
    with tf.device("/GPU:7"):  # TensorFlow's scalar cache: this 1.0 exists already, nothing is placed
        tf.constant(1.0)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        with tf.device("/GPU:7"):
            tf.constant([1.0])
    assert str(info.value) == (
        f"Could not satisfy device specification '{FULL}GPU:7'. enable_soft_placement=0. Supported device types "
        f"[GPU, CPU]. All available devices [{FULL}CPU:0, {FULL}GPU:0].")  # creating a tensor: no [Op:] (TF 2.21)


def test_unknown_job_fails_even_with_soft_placement():
    machine()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^/job:worker/replica:0/task:0/device:CPU:0 unknown device\."):
        with tf.device("/job:worker"):
            tf.constant(1.0)


def test_nested_scopes_merge_and_none_resets():
    ctx = machine("2")
    with tf.device("/GPU:1"):
        with tf.device("/job:localhost"):
            tf.constant(1.0)
        with tf.device(None):
            tf.constant(2.0)
    assert placed(ctx) == [("_EagerConst", "GPU:1", "explicit"), ("_EagerConst", "GPU:0", "default")]


def test_malformed_device_scope():
    machine()
    scope = tf.device("/foo:bar")  # TensorFlow parses when the scope is entered
    with pytest.raises(ValueError, match="Unknown attribute 'foo'"):
        with scope:
            pass
    with pytest.raises(ValueError, match=r"^Expecting a string device name. Got <class 'int'>\(3\)$"):
        with tf.device(3):
            pass


def test_copies_are_events_with_bytes():
    ctx = machine("2")
    with tf.device("/CPU:0"):
        a = tf.constant(np.ones((4, 4), np.float32))
    with tf.device("/GPU:1"):
        b = tf.identity(a)
    (copy,) = ctx.trace.of(ev.TensorCopied)
    assert (copy.src, copy.dst, copy.nbytes, copy.op) == (f"{FULL}CPU:0", f"{FULL}GPU:1", 64, "Identity")
    assert b.device == f"{FULL}GPU:1"


def test_device_policy_warn_and_explicit():
    ctx = machine("1")
    with tf.device("/CPU:0"):
        a = tf.constant([1.0])
    tf.config.experimental.set_device_policy("warn")
    with tf.device("/CPU:0"):
        _ = a + a  # on the CPU with its inputs: no copy, no warning
    with tf.device("/GPU:0"):
        _ = a + a
    w, w1 = [e for e in ctx.trace.events if isinstance(e, ev.Message)]  # one per copied input
    assert w1.text.startswith("before computing AddV2 input #1 ")
    assert w.level == "WARNING" and w.text == (
        f"before computing AddV2 input #0 was expected to be on {FULL}GPU:0 but is actually on {FULL}CPU:0 "
        f"(operation running on {FULL}GPU:0). This triggers a copy which can be a performance bottleneck.")
    tf.config.experimental.set_device_policy("explicit")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Tensors on conflicting devices: cannot compute AddV2 as input #0"):
        with tf.device("/GPU:0"):
            _ = a + a
    with tf.device("/GPU:0"):
        assert tf.identity(a).device == f"{FULL}GPU:0"  # Identity may copy under any policy
    with pytest.raises(ValueError, match=r"^Invalid argument `device_policy`: 'loud'\. Please refer to https://www\."
                                         r"tensorflow\.org/api_docs/python/tf/config/experimental/set_device_policy "
                                         r"for valid `device_policy` arguments\.$"):
        tf.config.experimental.set_device_policy("loud")


def test_dtype_mismatch_and_unsupported_dtype():
    machine()
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.add(tf.constant([1.0]), tf.constant([1]))
    assert str(info.value) == ("cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is "
                               "a int32 tensor [Op:AddV2] name: ")  # TensorFlow 2.21's text
    with pytest.raises(tf.errors.InvalidArgumentError) as info:  # TF 2.21 checks the OpDef's T list first
        tf.matmul(tf.constant([["a"]]), tf.constant([["b"]]))
    assert str(info.value).startswith("Value for attr 'T' of string is not in the list of allowed values: bfloat16, "
                                      "half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, "
                                      "complex128\n\t; NodeDef: {{node MatMul}}; Op<name=MatMul; ")
    assert str(info.value).endswith(" [Op:MatMul] name: ")
    floats_only = tf.register_op("FloatsOnly", lambda xp, x: x, dtypes_=["float32"])
    with pytest.raises(tf.errors.NotFoundError) as info:  # no OpDef list: no kernel for the dtype
        floats_only(tf.constant([1]))
    assert str(info.value).startswith("Could not find device for node: {{node FloatsOnly}} = FloatsOnly[T=int32]\n"
                                      "All kernels registered for op FloatsOnly:\n  device='CPU'; T in [DT_FLOAT]")


def test_custom_op_with_cpu_kernel_only_falls_back():
    ctx = machine("1")
    double = tf.register_op("DoubleIt", lambda xp, x: x * 2, device_types=["CPU"])
    with tf.device("/GPU:0"):
        y = double(tf.constant([1.0, 2.0]))
    assert y.numpy().tolist() == [2.0, 4.0]
    assert placed(ctx)[-1] == ("DoubleIt", "CPU:0", ev.FALLBACK)
    both = tf.register_op("TripleIt", lambda xp, x: x * 3, device_types=["CPU", "GPU"])
    both(tf.constant([1.0]))
    assert placed(ctx)[-1] == ("TripleIt", "GPU:0", ev.DEFAULT)
    with pytest.raises(ValueError, match=r"Unknown device type\(s\) \['TPU'\]"):
        tf.register_op("Bad", lambda xp, x: x, device_types=["TPU"])


def test_variables_live_on_their_device_and_pin_their_ops():
    ctx = machine("2")
    with tf.device("/GPU:1"):
        v = tf.Variable([1.0, 2.0])
    assert v.device == f"{FULL}GPU:1"
    with tf.device("/CPU:0"):
        v.assign_add([1.0, 1.0])
        r = v.read_value()
    assert r.numpy().tolist() == [2.0, 3.0]
    ops = placed(ctx)
    assert ops[:3] == [("_EagerConst", "GPU:1", "explicit"), ("VarHandleOp", "GPU:1", "explicit"),
                       ("AssignVariableOp", "GPU:1", "resource")]
    assert ("AssignAddVariableOp", "GPU:1", "resource") in ops
    # read_value: ReadVariableOp where the variable lives, then an Identity placed by the scope (TF 2.21)
    assert ops[-2:] == [("ReadVariableOp", "GPU:1", "resource"), ("Identity", "CPU:0", "explicit")]
    assert repr(v) == "<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([2., 3.], dtype=float32)>"
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0])


def test_kernel_errors_become_invalid_argument():
    machine()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\] \[Op:MatMul\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input to reshape is a tensor with 4 values, but the requested shape has 3"):
        tf.reshape(tf.ones([2, 2]), [3])


def test_a_trace_nothing_streams_stays_bounded_in_a_long_loop(monkeypatch):
    """A plain ``python prog.py`` has no trace file and nobody reads its events back: a long loop
    keeps only the newest events, not one record per op it ever ran."""
    monkeypatch.setattr(ev.Trace, "UNSTREAMED", 5000)
    ctx = machine("1")
    x, one = tf.constant(0.0), tf.constant(1.0)
    for _ in range(3 * 4096):
        x = tf.add(x, one)
    assert float(x) == 3 * 4096
    assert len(ctx.trace._events) <= 5000 + 4096
    assert isinstance(ctx.trace.events[-1], ev.OpPlaced) and ctx.trace.events[-1].seq == ctx.trace._seq

"""GradientTape: what the backward pass runs, where, and TensorFlow's errors and warnings.
Gradient values are compared with real TensorFlow in tests/tf221 (tape_*.py)."""

import subprocess
import sys

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

from conftest import devtrace, program

FULL = "/job:localhost/replica:0/task:0/device:"


def machine(spec=None):
    gpus = tuple(simulated.parse_simulate(spec)) if spec else ()
    return reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu"), env={})


def placed(ctx, since=0):
    return [(e.op, e.device.rsplit("device:", 1)[1], e.reason) for e in ctx.trace.events[since:]
            if isinstance(e, ev.OpPlaced)]


def test_gradients_run_on_the_forward_ops_device_colocated():
    ctx = machine("2")
    with tf.device("/GPU:1"):
        w = tf.Variable([[1.0], [2.0]])
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        with tf.device("/GPU:1"):
            y = tf.matmul(x, w)
    mark = len(ctx.trace.events)
    (gw,) = tape.gradient(y, [w])
    backward = placed(ctx, mark)
    assert ("MatMul", "GPU:1", ev.COLOCATED) in backward
    assert all(device == "GPU:1" and reason == ev.COLOCATED for op, device, reason in backward if op == "MatMul")
    assert gw.device == f"{FULL}GPU:1" and gw.numpy().tolist() == [[1.0], [2.0]]


def test_an_op_without_a_gradient_raises_lookup_error():
    machine()
    double = tf.register_op("DoubleNoGrad", lambda xp, x: x * 2, device_types=["CPU"])
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = double(x)
    with pytest.raises(LookupError, match="^gradient registry has no entry for: DoubleNoGrad$"):
        tape.gradient(y, x)


def test_a_non_persistent_tape_gives_one_set_of_gradients():
    machine()
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x).numpy() == 4.0
    with pytest.raises(RuntimeError, match="^A non-persistent GradientTape can only be used to compute one set of "
                                           r"gradients \(or jacobians\)$"):
        tape.gradient(y, x)


def test_integer_sources_get_none_with_tensorflows_warning(capsys):
    machine()
    i = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(i)
        y = i * i
    assert tape.gradient(y, i) is None
    # TensorFlow 2.21 warns when the integer tensor is watched; its note about the source in
    # gradient() is a vlog line, not printed (tests/tf221/captures/tape_watch_warnings.stderr)
    assert [line for line in capsys.readouterr().err.splitlines() if line.startswith("WARNING:")] == [
        "WARNING:tensorflow:The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32"]


def test_unconnected_gradients_none_or_zero():
    machine()
    x, z = tf.constant([1.0, 2.0]), tf.constant([5.0, 6.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 3.0
    assert tape.gradient(y, z) is None
    assert tape.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy().tolist() == [0.0, 0.0]
    assert tape.gradient(y, [x, z], unconnected_gradients="zero")[0].numpy().tolist() == [3.0, 3.0]


def test_stop_recording_and_reset():
    machine()
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x * 2.0
        z = x * 5.0
    assert tape.gradient(y, x) is None and tape.gradient(z, x).numpy() == 5.0
    tape.reset()
    assert tape.gradient(z, x) is None


def test_accessed_variables_are_watched_unless_asked_not_to():
    machine()
    v = tf.Variable(2.0)
    frozen = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * frozen
    assert tape.watched_variables() == (v,) and tape.gradient(y, v).numpy() == 1.0
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * 3.0
    assert tape.watched_variables() == () and tape.gradient(y, v) is None


def test_a_variable_can_be_the_first_thing_a_program_makes():
    done = subprocess.run([sys.executable, "-c", "import devtrace as tf; v = tf.Variable(3.0); print(v.numpy())"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "3.0\n", done.stderr


def test_training_step_on_gpu1_from_the_cli():
    r = devtrace("run", program("train_step_gpu1.py"), "--simulate", "2", "--format", "table",
                 "--expect", "MatMul=GPU:1")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stderr.splitlines() if " MatMul " in f" {line} "]
    assert rows and all("GPU:1" in row for row in rows)
    assert any("colocated" in row for row in rows) and any("explicit" in row for row in rows)
    assert r.stdout.startswith("loss ")


def test_linear_regression_matches_numpy_gradient_descent():
    machine()
    xs = np.linspace(0, 3.5, 8, dtype=np.float32).reshape(8, 1)
    x, y = tf.constant(xs), tf.constant(3 * xs + 2)
    w, b = tf.Variable(0.0), tf.Variable(0.0)
    nw, nb = np.float32(0), np.float32(0)
    for _ in range(50):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(x * w + b - y)) / 8.0
        gw, gb = tape.gradient(loss, [w, b])
        w.assign(w - 0.05 * gw)
        b.assign(b - 0.05 * gb)
        r = (xs * nw + nb) - (3 * xs + 2)
        nw, nb = nw - np.float32(0.05) * (2 * r * xs).sum() / 8, nb - np.float32(0.05) * (2 * r).sum() / 8
    assert abs(w.numpy() - nw) < 1e-4 and abs(b.numpy() - nb) < 1e-4


def _gradients_eagerly_and_in_a_function(f, *xs):
    def g(*args):
        with tf.GradientTape() as t:
            t.watch(list(args))
            y = tf.reduce_sum(f(*args) * tf.constant(1.5))
        return t.gradient(y, list(args))
    return [x.numpy() for x in g(*xs)], [x.numpy() for x in tf.function(g)(*xs)]


def test_gradients_built_in_a_function_graph_equal_the_eager_ones_tensorflow_checks():
    """The batch of a batched matmul broadcasts (its shape in the graph keeps it, its gradient sums it
    away); linspace's tensor ends, fill's value and digamma (through Polygamma) have gradients there too.
    The eager values are the grad_* oracle probes' (tests/tf221_oracle)."""
    machine()
    a = tf.constant([[2.0, 0.4], [0.5, 1.7]])
    assert tf.function(lambda p, q: tf.matmul(p, q))(tf.stack([a, a]), a).shape == (2, 2, 2)
    cases = [(lambda p, q: tf.matmul(p, q), tf.stack([a, a * 2.0]), a),
             (lambda p, q: tf.linspace(p, q, 4), tf.constant(0.5), tf.constant(2.0)),
             (lambda p: tf.fill([2, 3], p), tf.constant(0.7)),
             (tf.math.digamma, tf.constant([0.3, 1.2]))]
    for f, *xs in cases:
        eager, in_function = _gradients_eagerly_and_in_a_function(f, *xs)
        for e, g in zip(eager, in_function):
            np.testing.assert_allclose(g, e, rtol=1e-6)
    eager, _ = _gradients_eagerly_and_in_a_function(cases[1][0], *cases[1][1:])
    np.testing.assert_allclose(eager, [1.5 * 2.0, 1.5 * 2.0])  # TensorFlow: the ends' weights sum to 2 each


def test_two_equal_python_constants_are_two_sources_for_two_tapes():
    # guide advanced_autodiff.ipynb under TF 2.21: 1.0 and 0.25 (TensorFlow's scalar cache shares the
    # buffer, not the Python tensor: tf.constant(0.0) is tf.constant(0.0) is False there)
    x0, x1 = tf.constant(0.0), tf.constant(0.0)
    assert x0 is not x1
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        ys = tf.reduce_sum(tf.math.sin(x0) + tf.nn.sigmoid(x1))
    assert float(tape0.gradient(ys, x0)) == 1.0 and float(tape1.gradient(ys, x1)) == 0.25

"""tf.keras on devtrace: errors as Keras 3 words them (observed with TensorFlow 2.21 + Keras 3.15),
and a model's ops placed where device scopes put them (loss histories are compared with
TensorFlow's in tests/tf221/programs/keras_linear_regression.py)."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from conftest import devtrace, logged, program

import devtrace as tf
from devtrace.devices.discovery import discover
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev


def test_fit_before_compile_and_unknown_names_fail_as_keras_does():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"^You must call `compile\(\)` before using the model\.$"):
        model.fit(np.ones((2, 1)), np.ones((2, 1)), verbose=0)
    with pytest.raises(ValueError, match="^Could not interpret optimizer identifier: nope$"):
        model.compile(optimizer="nope", loss="mse")
    model.compile(optimizer="sgd", loss="foo")  # Keras accepts it here and fails at the first step
    with pytest.raises(ValueError, match="^Could not interpret loss identifier: foo$"):
        model.fit(np.ones((2, 1)), np.ones((2, 1)), verbose=0)


def test_a_model_built_under_a_gpu_scope_trains_there_with_its_slots():
    ctx = reset_context(discover(simulate="2"), env={})
    with tf.device("/GPU:1"):
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="relu"), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
        model.fit(np.random.rand(8, 3).astype("float32"), np.ones((8, 1), "float32"), batch_size=4, epochs=1, verbose=0)
    placed = [e for e in ctx.trace.events if isinstance(e, ev.OpPlaced)]
    assert {e.device.split("/")[-1] for e in placed if e.op == "MatMul"} == {"device:GPU:1"}
    assert all(w.device.endswith("GPU:1") for w in model.weights)
    assert all(s.device.endswith("GPU:1") for s in model.optimizer._slots.values())


def test_the_guides_mirrored_keras_example_opens_as_the_guides_log():
    """The guide's log (shared/seeds/000_…, lines 214-221): the strategy's INFO line, then the
    glorot initialisation of the kernel on GPU:0 through the stateless random ops."""
    r = devtrace("run", program("keras_mirrored_guide.py"), "--simulate", "4")
    assert r.returncode == 0, r.stderr
    full = "/job:localhost/replica:0/task:0/device:"
    lines = logged(r.stderr)
    assert lines[0] == ("INFO:tensorflow:Using MirroredStrategy with devices (" +
                        ", ".join(f"'{full}GPU:{i}'" for i in range(4)) + ")")
    ops = ["_EagerConst"] * 4 + ["StatelessRandomGetKeyCounter", "_EagerConst", "StatelessRandomUniformV2", "Sub"]
    assert lines[1:9] == [f"Executing op {op} in device {full}GPU:0" for op in ops]
    created = [line.split()[-1][-5:] for line in lines if line.startswith("Executing op VarHandleOp")]
    # kernel and bias, mirrored on each GPU; then the SGD optimizer's iteration and learning_rate (made in
    # the scope, as Keras 3 makes them)
    assert created == ["GPU:0", "GPU:1", "GPU:2", "GPU:3"] * 4


TF221 = pathlib.Path(__file__).resolve().parent / "tf221"


def _tf221_stdout(name: str, columns: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "DEVTRACE_", "CUDA_", "COLUMNS"))}
    env.update({"PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8"}, **({"COLUMNS": columns} if columns else {}))
    done = subprocess.run([sys.executable, str(TF221 / "run_devtrace.py"), str(TF221 / "programs" / f"{name}.py")],
                          capture_output=True, text=True, env=env, cwd=TF221 / "programs", timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_summary_prints_keras_table_character_for_character():
    """tests/test_tf221.py compares stdout without spaces; a table is all spacing: compare it exactly
    (Keras 3.15 with no terminal: 76 columns; sequential-like and "Connected to" layouts, wrapped
    cells, a word cut with "…", thousands separators, KB sizes, unbuilt layers, optimizer params)."""
    expected = (TF221 / "captures" / "keras_summary.stdout").read_text(encoding="utf-8")
    assert _tf221_stdout("keras_summary") == expected


def test_summary_width_follows_the_terminal_columns_as_keras_does():
    """Keras: line length min(88, columns - 4) (108 for the "Connected to" table); the headers below
    are what TF 2.21 + Keras 3.15 printed with COLUMNS=200 and COLUMNS=64."""
    wide = _tf221_stdout("keras_summary", columns="200").splitlines()
    assert wide[2] == "┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃"
    assert "┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to" \
           "               ┃" in wide
    narrow = _tf221_stdout("keras_summary", columns="64").splitlines()
    assert narrow[2] == "┃ Layer (type)             ┃ Output Shape      ┃   Param # ┃"


def _train_dense(strategy, x, y):
    with strategy.scope():
        inputs = tf.keras.layers.Input(shape=(1,))
        model = tf.keras.models.Model(inputs=inputs, outputs=tf.keras.layers.Dense(1)(inputs))
        model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.2, momentum=0.5))
    model.set_weights([np.array([[0.5]], np.float32), np.array([0.0], np.float32)])
    history = model.fit(x, y, batch_size=8, epochs=5, verbose=0, shuffle=False)
    return model, history.history["loss"]


def test_fit_under_mirrored_strategy_splits_batches_over_two_gpus_and_matches_one_device():
    ctx = reset_context(discover(simulate="2"), env={})
    x = np.linspace(-1, 1, 16).reshape(-1, 1).astype("float32")
    single, single_loss = _train_dense(tf.distribute.get_strategy(), x, 3 * x + 2)
    start = len(ctx.trace.events)
    strategy = tf.distribute.MirroredStrategy()
    mirrored, mirrored_loss = _train_dense(strategy, x, 3 * x + 2)
    assert strategy.num_replicas_in_sync == 2
    np.testing.assert_allclose(mirrored_loss, single_loss, rtol=1e-5)
    for w_single, w_mirrored in zip(single.weights, mirrored.weights):
        for copy in w_mirrored.values:  # every replica's copy converged to the one-device weights
            np.testing.assert_allclose(copy.numpy(), w_single.numpy(), rtol=1e-5)
    placed = [e for e in ctx.trace.events[start:] if isinstance(e, ev.OpPlaced)]
    gpu = lambda e: e.device.split(":")[-1]  # noqa: E731
    matmuls = [gpu(e) for e in placed if e.op == "MatMul"]  # forward + backward, per replica, per step
    assert matmuls.count("0") == matmuls.count("1") == 2 * 2 * 5
    assert {gpu(e) for e in placed if e.op == "AddN"} == {"0"}  # the all-reduce, on the first replica
    updates = [e.op for e in placed if e.op.startswith("Assign") and gpu(e) == "1"][-5:]  # replica 1's own step
    assert updates == ["AssignVariableOp", "AssignAddVariableOp"] * 2 + ["AssignAddVariableOp"]  # slot, variable; +1 step
    slots = list(mirrored.optimizer._slots.values())
    assert len(slots) == 2 and all([c.device[-5:] for c in s.values] == ["GPU:0", "GPU:1"] for s in slots)
    before_eval = len(ctx.trace.events)
    np.testing.assert_allclose(mirrored.evaluate(x, 3 * x + 2, verbose=0), single.evaluate(x, 3 * x + 2, verbose=0),
                               rtol=1e-5)
    np.testing.assert_allclose(mirrored.predict(x, verbose=0), single.predict(x, verbose=0), rtol=1e-5)
    evaluated = [gpu(e) for e in ctx.trace.events[before_eval:] if isinstance(e, ev.OpPlaced) and e.op == "MatMul"]
    assert evaluated.count("1") == 2  # evaluate's and predict's on replica 1 (one device: all on GPU:0)
    messages = [e.text for e in ctx.trace.events[start:] if isinstance(e, ev.Message)]
    assert messages[1] == ("Reduce to /job:localhost/replica:0/task:0/device:GPU:0 then broadcast to "
                           "('/job:localhost/replica:0/task:0/device:GPU:0', '/job:localhost/replica:0/task:0/device:GPU:1').")


def test_mirrored_fit_from_the_cli_puts_each_replicas_step_on_its_gpu():
    r = devtrace("run", program("keras_mirrored_fit.py"), "--simulate", "2", "--format", "table")
    assert r.returncode == 0, r.stderr
    assert "replicas: 2" in r.stdout and "epochs: 2" in r.stdout
    rows = [line.split() for line in r.stderr.splitlines() if line.strip()[:1].isdigit()]
    devices = lambda op: [[t for t in row if t[:4] in ("GPU:", "CPU:")][-1]  # noqa: E731 (the placed device)
                          for row in rows if row[1] == op]
    assert devices("MatMul").count("GPU:0") == devices("MatMul").count("GPU:1") == 2 * 2 * 2
    assert set(devices("AddN")) == {"GPU:0"}
    # kernel, bias, the optimizer's iteration and learning_rate, Adam's m and v for each variable
    assert devices("VarHandleOp").count("GPU:1") == 2 + 2 + 4


def test_mem_after_a_keras_program_accounts_weights_slots_and_activations_on_the_gpu():
    r = devtrace("mem", program("keras_mlp_mem.py"), "--simulate", "1", "--json")
    assert r.returncode == 0, r.stderr
    import json

    devices = {d["name"]: d for d in json.loads(r.stdout)["devices"]}
    weights = 256 * 512 * 4 + 512 * 4 + 512 * 10 * 4 + 256  # each tensor rounded to 256 bytes
    gpu = devices["/device:GPU:0"]
    assert gpu["in_use"] >= 3 * weights  # the weights and Adam's m and v, all on GPU:0
    assert gpu["peak"] >= gpu["in_use"] + 256 * 512 * 4  # a step's activations came and went
    assert devices["/device:CPU:0"]["in_use"] == 0


def test_a_small_limit_fails_in_a_layers_op_with_tensorflows_oom_text():
    """The train step runs as a tf.function: the OOM names the node, scoped by model and layer (the
    first layer's Relu: its output is on GPU:0, as its gradient, ReluGrad, has a GPU kernel)."""
    r = devtrace("mem", program("keras_mlp_mem.py"), "--simulate", "1", "--limit", "4")
    assert r.returncode != 0
    assert ("ResourceExhaustedError: OOM when allocating tensor with shape[256,512] and type float on "
            "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n\t [[{{node sequential/dense/Relu}}]]")\
        in r.stderr


def test_a_small_limit_in_an_eager_step_fails_in_a_layers_call_with_keras_context():
    """The batch stays on the host (as tf.data's iterator yields it) and each eager op copies what it
    reads: the first Dense's BiasAdd output is what no longer fits under 2 MiB."""
    r = devtrace("mem", program("keras_mlp_mem.py"), "--simulate", "1", "--limit", "2", "--", "eager")
    assert r.returncode != 0
    assert "ResourceExhaustedError: Exception encountered when calling Dense.call()." in r.stderr
    assert ("OOM when allocating tensor with shape[256,512] and type float on /job:localhost/replica:0/task:0/device:"
            "GPU:0 by allocator GPU_0_bfc [Op:BiasAdd]") in r.stderr
    assert "Arguments received by Dense.call():\n  • inputs=tf.Tensor(shape=(256, 256), dtype=float32)\n" \
           "  • training=True" in r.stderr


def _mlp_history(run_eagerly):
    tf.keras.utils.set_random_seed(3)
    x = np.random.rand(32, 4).astype("float32")
    y = np.random.randint(0, 3, 32)
    model = tf.keras.Sequential([tf.keras.layers.Input(shape=(4,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  run_eagerly=run_eagerly)
    return model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False).history["loss"]


def test_fit_runs_each_step_as_a_function_with_the_eager_steps_values(monkeypatch):
    monkeypatch.setattr(ev.Trace, "UNSTREAMED", 1 << 20)  # read back in-process: keep every event, as a stream would
    ctx = reset_context(discover(simulate="1"), env={})
    eager = _mlp_history(True)
    start = len(ctx.trace.events)
    traced = _mlp_history(False)
    np.testing.assert_allclose(traced, eager, rtol=1e-6)
    calls = [e.op for e in ctx.trace.events[start:] if isinstance(e, ev.OpPlaced) and e.op.startswith("__inference")]
    assert len(calls) == 3 * 4 and all(op.startswith("__inference_multi_step_on_iterator_") for op in calls)


def test_reprs_notebooks_show_are_keras_3s():
    # printed by TF 2.21 / Keras 3.15.1 (tensorflow-cpu, /work/tfvenv), addresses masked
    import re

    def shown(x):
        return re.sub(r"0x[0-9a-f]+", "0x..", repr(x))

    assert shown(tf.keras.optimizers.Adam()) == "<keras.src.optimizers.adam.Adam object at 0x..>"
    assert shown(tf.keras.optimizers.SGD()) == "<keras.src.optimizers.sgd.SGD object at 0x..>"
    assert shown(tf.keras.callbacks.EarlyStopping()) == "<keras.src.callbacks.early_stopping.EarlyStopping object at 0x..>"
    assert shown(tf.keras.initializers.GlorotUniform()) == \
        "<keras.src.initializers.random_initializers.GlorotUniform object at 0x..>"
    assert shown(tf.keras.regularizers.l2(0.1)) == "<keras.src.regularizers.regularizers.L2 object at 0x..>"
    assert shown(tf.keras.metrics.Mean()) == "<Mean name=mean>"
    assert shown(tf.keras.metrics.SparseCategoricalAccuracy()) == \
        "<SparseCategoricalAccuracy name=sparse_categorical_accuracy>"
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(loss="mse", optimizer="adam")
    assert shown(model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)) == \
        "<keras.src.callbacks.history.History object at 0x..>"

    class MyCallback(tf.keras.callbacks.Callback):
        pass
    assert shown(MyCallback()).startswith("<test_keras.")  # a subclass keeps Python's repr, as with Keras


def test_keras_tensors_are_named_as_keras_names_them():
    # TF 2.21 / Keras 3.15.1: an unnamed Input's tensor and layer outputs count keras_tensor, keras_tensor_1 …;
    # a named Input's tensor has its name
    from devtrace.keras import engine
    engine._UIDS.pop("keras_tensor", None)
    a = tf.keras.Input((3,))
    b = tf.keras.layers.Dense(2)(a)
    c = tf.keras.Input((3,), name="digits")
    d = tf.keras.layers.Dense(4)(c)
    e = tf.keras.layers.concatenate([b, d])
    assert [t.name for t in (a, b, c, d, e)] == ["keras_tensor", "keras_tensor_1", "digits", "keras_tensor_2",
                                                  "keras_tensor_3"]
    assert repr(e) == "<KerasTensor shape=(None, 6), dtype=float32, sparse=False, ragged=False, name=keras_tensor_3>"

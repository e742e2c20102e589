"""tf.test, tf.sysconfig, tf.saved_model's names, tf.lookup, tf.train's checkpoint reading and
tf.summary against TensorFlow 2.21's answers (``tests/tf221_subsystems/captured.json``, written by
``probe.py`` there under TensorFlow)."""

import json
import os
import pathlib
import re

import numpy as np
import pytest

import devtrace as tf

HERE = pathlib.Path(__file__).parent / "tf221_subsystems"
TF = json.loads((HERE / "captured.json").read_text())


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


# tf.test

def test_compute_gradient_gives_tensorflows_jacobians():
    got = tf.test.compute_gradient(lambda x: x * x, [1.0])
    assert [[a.tolist() for a in part] for part in got] == TF["test"]["compute_gradient_square"]
    got = tf.test.compute_gradient(lambda x, y: x * y, [tf.constant([1.0, 2.0]), 3.0])
    assert [[a.tolist() for a in part] for part in got] == TF["test"]["compute_gradient_mul"]
    assert error(lambda: tf.test.compute_gradient(lambda x: x, 1.0)) == TF["test"]["compute_gradient_not_list"]


def _numpy_neutral(err):
    """An assertion error's text without the lines only some NumPy versions' ``np.testing`` writes
    (2.3 added "Mismatch at index:" and one line per index): TensorFlow's message is NumPy's, so
    it reads as the NumPy installed here writes it."""
    kind, text = err
    return kind, re.sub(r"\nMismatch at index:\n(?: \[.*\n)+", "\n", text)


def test_test_case_assertions_fail_with_tensorflows_messages():
    case = tf.test.TestCase()
    assert _numpy_neutral(error(lambda: case.assertAllEqual([1, 2], [1, 3]))) == \
        _numpy_neutral(TF["test"]["assert_all_equal"])
    assert error(lambda: case.assertAllClose([1.0, 2.0], [1.0, 3.0]))[1].split("\n")[:8] == \
        TF["test"]["assert_all_close"][1].split("\n")[:8]
    case.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-7])
    case.assertAllEqual(tf.constant([[1, 2]]), np.array([[1, 2]]))
    assert repr(case.evaluate({"a": tf.constant([1, 2])})) == TF["test"]["evaluate"]


def test_a_test_case_runs_under_unittest():
    import unittest

    class T(tf.test.TestCase):
        def test_add(self):
            self.assertAllEqual(tf.math.add(1, 2), 3)

        def test_gpu(self):
            if not tf.test.is_built_with_cuda():
                self.skipTest("test is only applicable on GPU")

        def test_cached_session(self):
            with self.cached_session() as sess:
                self.assertAllEqual(self.evaluate(tf.constant([1, 2])), [1, 2])
                with self.assertRaisesRegex(AttributeError, "^Trying to access properties or call methods on the "
                                                            "result of self.session"):
                    sess.run

    with open(os.devnull, "w") as devnull:
        result = unittest.TextTestRunner(stream=devnull).run(unittest.defaultTestLoader.loadTestsFromTestCase(T))
    assert result.wasSuccessful() and result.testsRun == 3


def test_cpu_targets_and_benchmark_config_are_tensorflows():
    assert {t: tf.test.is_cpu_target_available(t) for t in TF["test"]["cpu_targets"]} == TF["test"]["cpu_targets"]
    assert error(lambda: tf.test.is_cpu_target_available("riscv")) == TF["test"]["cpu_target_unknown"]
    assert str(tf.test.benchmark_config()) == TF["test"]["benchmark_config"]


def test_sync_devices_only_eagerly():
    tf.test.experimental.sync_devices()

    @tf.function
    def f():
        tf.test.experimental.sync_devices()

    with pytest.raises(RuntimeError, match="sync_devices\\(\\) must only be called in Eager mode"):
        f()


# tf.sysconfig

def test_sysconfig_answers_as_tensorflows_build():
    sc, want = tf.sysconfig, TF["sysconfig"]
    pkg = os.path.dirname(os.path.abspath(tf.__file__))
    assert (sc.CXX11_ABI_FLAG, sc.CXX_VERSION, sc.MONOLITHIC_BUILD) == \
        (want["CXX11_ABI_FLAG"], want["CXX_VERSION"], want["MONOLITHIC_BUILD"])
    assert os.path.relpath(sc.get_include(), pkg) == want["get_include"]
    assert os.path.relpath(sc.get_lib(), pkg) == want["get_lib"]
    assert [f.replace(pkg, "PKG") for f in sc.get_compile_flags()] == want["get_compile_flags"]
    assert [f.replace(pkg, "PKG") for f in sc.get_link_flags()] == want["get_link_flags"]


# tf.saved_model

def test_saved_model_constants_and_options_are_tensorflows():
    sm, want = tf.saved_model, TF["saved_model"]
    assert {n: getattr(sm, n) for n in want["constants"]} == want["constants"]
    assert [[p.name, p.value] for p in sm.experimental.VariablePolicy] == want["variable_policies"]
    assert error(lambda: sm.SaveOptions(experimental_variable_policy="bad")) == want["bad_policy"]
    assert error(lambda: sm.experimental.read_fingerprint("/nonexistent/model")) == want["read_fingerprint_missing"]
    assert sm.contains_saved_model("/nonexistent/model") is want["contains_missing"]


def test_contains_saved_model_sees_devtraces_saved_models(tmp_path):
    class Adder(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
        def add(self, x):
            return x + x

    tf.saved_model.save(Adder(), str(tmp_path / "m"), options=tf.saved_model.SaveOptions())
    assert tf.saved_model.contains_saved_model(str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"), options=tf.saved_model.LoadOptions())
    assert loaded.add(tf.constant(2.0)).numpy() == 4.0


# tf.summary

import sys  # noqa: E402

sys.path.insert(0, str(HERE))
import summary_program  # noqa: E402

from devtrace.ops.io import tfrecord  # noqa: E402

SUMMARY = json.loads((HERE / "summary.json").read_text())


def _records(logdir):
    (path,) = pathlib.Path(logdir).iterdir()
    return path, list(tfrecord.tf_record_iterator(str(path)))


def test_summaries_write_tensorflows_event_records(tmp_path):
    """Every record as TensorFlow writes it, but for the wall time (its first 9 bytes) and the
    PNG's zlib stream header (libpng's window size), where the image decodes to the same pixels."""
    summary_program.write_all(tf, tmp_path)
    path, mine = _records(tmp_path)
    want = [bytes.fromhex(r) for r in SUMMARY["records"]]
    assert len(mine) == len(want)
    for i, (a, b) in enumerate(zip(mine, want)):
        if b"images" in b:
            png = [tf.io.decode_png(s).numpy().tolist() for s in (a[a.index(b"\x89PNG"):a.index(b"IEND") + 8],
                                                                  b[b.index(b"\x89PNG"):b.index(b"IEND") + 8])]
            assert png[0] == png[1] and a[9:a.index(b"\x89PNG")] == b[9:b.index(b"\x89PNG")]
        else:
            assert a[9:] == b[9:], i
    parts = path.name.split(".")
    assert parts[:3] + [parts[-1]] == SUMMARY["filename_parts"] and int(parts[3]) > 0 and parts[5] == str(os.getpid())


def test_tensorflow_reads_the_event_file_devtrace_writes(tmp_path):
    """``devtrace_events.v2`` (read by TensorFlow's summary_iterator when captured) is what
    devtrace writes today, and TensorFlow read from it the events it wrote itself."""
    summary_program.write_all(tf, tmp_path)
    _, mine = _records(tmp_path)
    checked = list(tfrecord.tf_record_iterator(str(HERE / "devtrace_events.v2")))
    assert [r[9:] for r in mine] == [r[9:] for r in checked]
    tf_events = [e.split("\n", 1)[1] for e in SUMMARY["events"][1:]]
    read = [e.split("\n", 1)[1] for e in SUMMARY["read_devtrace"][1:]]
    assert [e for e in read if "images" not in e] == [e for e in tf_events if "images" not in e]


def test_summary_state_answers_as_tensorflow(tmp_path):
    s = SUMMARY
    assert [bool(tf.summary.scalar("x", 1.0, step=1)), bool(tf.summary.should_record_summaries())] == s["no_writer"]
    assert repr(tf.summary.experimental.get_step()) == s["get_step_none"]
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert error(lambda: tf.summary.scalar("x", 1.0)) == s["no_step"]
    with writer.as_default(step=3):
        assert tf.summary.experimental.get_step() == s["get_step_default"]
        assert bool(tf.summary.should_record_summaries()) is s["should_record"]
        assert bool(tf.summary.scalar("loss", 0.5, step=1)) is s["scalar"]
        with tf.summary.record_if(False):
            assert [bool(tf.summary.scalar("never", 1.0)), bool(tf.summary.should_record_summaries())] == \
                s["record_if_false"]
        tf.summary.experimental.set_step(11)
        assert tf.summary.experimental.get_step() == s["set_step_inside"]
        with tf.summary.experimental.summary_scope("my scope!", "default") as (tag, scope):
            assert [tag, scope] == s["summary_scope"]
    writer.close()
    assert repr(tf.summary.experimental.get_step()) == s["after_set_step"]
    assert error(lambda: tf.summary.trace_export("t", step=0)) == s["trace_export_off"]
    assert type(tf.summary.create_noop_writer()).__name__ == s["noop"]
    assert repr(tf.summary.flush()) == s["flush_none"]


def test_summaries_inside_a_function_are_written_when_it_runs(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def f(x, step):
        with writer.as_default():
            tf.summary.scalar("x", x, step=step)
        return x * 2

    f(tf.constant(1.5), tf.constant(4, tf.int64))
    f(tf.constant(2.5), tf.constant(5, tf.int64))
    writer.flush()
    _, records = _records(tmp_path)
    # TensorFlow's "loss" record (step 3, 0.5) with the step, tag and value of each call
    loss = bytes.fromhex(SUMMARY["records"][1])[9:]
    want = [loss.replace(b"\x10\x03*!\n\x1f\n\x04loss", b"\x10" + bytes([step]) + b"*\x1e\n\x1c\n\x01x")
            .replace(b"\x00\x00\x00?", value) for step, value in ((4, b"\x00\x00\xc0?"), (5, b"\x00\x00\x20@"))]
    assert [r[9:] for r in records[1:]] == want


# tf.lookup

import lookup_program  # noqa: E402


@pytest.fixture(scope="module")
def lookups():
    return lookup_program.cases(tf, error)


@pytest.mark.parametrize("case", sorted(TF["lookup"]))
def test_lookup_tables_answer_as_tensorflows(lookups, case):
    assert lookups[case] == TF["lookup"][case]


# the placement log

from conftest import devtrace as run_devtrace  # noqa: E402


def test_lookup_and_summary_ops_are_placed_and_logged_as_tensorflows():
    done = run_devtrace("run", str(HERE / "placement_program.py"))
    assert done.returncode == 0, done.stderr
    placer = [line for line in done.stdout.splitlines() if re.match(r"^[^ ]+: \([^)]+\): /job", line)]
    want = (HERE / "placement_tf.txt").read_text().splitlines()
    assert want[-2:] == ["resource: (_Arg): /job:localhost/replica:0/task:0/device:CPU:0",
                         "DestroyResourceOp: (DestroyResourceOp): /job:localhost/replica:0/task:0/device:CPU:0"]
    assert placer == want[:-2]


# tf.train

import train_program  # noqa: E402


@pytest.fixture(scope="module")
def train_cases(tmp_path_factory):
    return train_program.cases(tf, error, str(tmp_path_factory.mktemp("train")))


@pytest.mark.parametrize("case", sorted(TF["train"]))
def test_train_answers_as_tensorflow(train_cases, case):
    assert json.loads(json.dumps(train_cases[case])) == TF["train"][case]


def test_checkpoint_options_that_ask_for_more_than_one_file_say_so(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.write(str(tmp_path / "plain"), options=tf.train.CheckpointOptions())
    with pytest.raises(AttributeError, match=r"devtrace does not implement tf.train.CheckpointOptions\(enable_async"):
        ckpt.write(str(tmp_path / "async"), options=tf.train.CheckpointOptions(enable_async=True))
    (tmp_path / "old.index").write_text('{"format": "devtrace-checkpoint", "version": 1, "variables": {}}')
    with pytest.raises(AttributeError, match="devtrace does not implement tf.train.CheckpointView yet for this"):
        tf.train.CheckpointView(str(tmp_path / "old"))  # written before checkpoints kept their object graph


def test_a_summary_of_a_gpu_tensor_is_made_on_the_host():
    done = run_devtrace("run", "--simulate", "1", str(HERE / "gpu_summary_program.py"))
    assert done.returncode == 0, done.stderr
    placed = dict(re.findall(r"^(\w+): \(\1\): \S+/(device:\w+:\d)$", done.stdout, re.M))  # the placer lines
    assert placed["Mul"] == "device:GPU:0"  # the program's own op
    assert {placed[op] for op in ("OneHot", "Transpose", "Identity", "WriteSummary")} == {"device:CPU:0"}

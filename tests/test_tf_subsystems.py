"""tf.test, tf.sysconfig, tf.saved_model's names, tf.lookup, tf.train's checkpoint reading and
tf.summary against TensorFlow 2.21's answers (``tests/tf221_subsystems/captured.json``, written by
``probe.py`` there under TensorFlow)."""

import json
import os
import pathlib

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


def test_test_case_assertions_fail_with_tensorflows_messages():
    case = tf.test.TestCase()
    assert error(lambda: case.assertAllEqual([1, 2], [1, 3])) == TF["test"]["assert_all_equal"]
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

    result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(unittest.defaultTestLoader.loadTestsFromTestCase(T))
    assert result.wasSuccessful() and result.testsRun == 2


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
    assert tf.saved_model.load(str(tmp_path / "m"), options=tf.saved_model.LoadOptions()).add(tf.constant(2.0)).numpy() == 4.0

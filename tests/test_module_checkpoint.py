"""tf.Module tracking and tf.train.Checkpoint round trips (values against TensorFlow: tests/tf221
module_*.py)."""

import json
import os

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime.context import reset_context


@pytest.fixture(autouse=True)
def fresh():
    reset_context()


def test_round_trip_is_exact_for_every_dtype(tmp_path):
    values = {"h": np.array([1.5, -2.25], np.float16), "d": np.array([[1e-300]], np.float64),
              "i": np.array([2**40], np.int64), "b": np.array([True, False])}
    variables = {k: tf.Variable(v) for k, v in values.items()}
    ck = tf.train.Checkpoint(**variables)
    path = ck.save(tmp_path / "ck")
    for v in variables.values():
        v.assign(np.zeros_like(v.numpy()))
    status = ck.restore(path)
    status.assert_consumed()
    for k, v in variables.items():
        got = v.numpy()
        assert got.dtype == values[k].dtype and got.tobytes() == values[k].tobytes()
    index = json.loads((tmp_path / "ck-1.index").read_text())
    assert index["format"] == "devtrace-checkpoint" and index["variables"]["h"] == {"dtype": "float16", "shape": [2]}


def test_restore_reports_what_did_not_match(tmp_path):
    a = tf.Variable(1.0)
    path = tf.train.Checkpoint(a=a).write(str(tmp_path / "one"))
    status = tf.train.Checkpoint(b=tf.Variable(2.0)).restore(path)
    with pytest.raises(AssertionError, match="saved values \\['a'\\] found no variable"):
        status.assert_consumed()
    status.expect_partial()


def test_no_temporary_files_are_left(tmp_path):
    tf.train.Checkpoint(v=tf.Variable([1.0])).save(tmp_path / "x")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "x-1.data-00000-of-00001", "x-1.index"]


def test_module_tracks_nested_structures_once():
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0, name="v")

    class Outer(tf.Module):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.same = self.inner  # the same module twice: tracked once
            self.table = {"z": tf.Variable(3.0, name="z"), "a": [tf.Variable(2.0, name="a")]}

    m = Outer()
    assert [v.name for v in m.variables] == ["a:0", "z:0", "v:0"]
    assert m.submodules == (m.inner,)


def test_module_names_and_scopes():
    class MyDense(tf.Module):
        @tf.Module.with_name_scope
        def make(self):
            return tf.Variable(0.0, name="kernel")

    d = MyDense()
    assert d.name == "my_dense" and d.make().name == "my_dense/kernel:0"
    with pytest.raises(ValueError, match="^'1x' is not a valid module name"):
        tf.Module(name="1x")

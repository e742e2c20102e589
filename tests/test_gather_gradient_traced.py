"""Inside a ``tf.function`` the gradient of an axis-0 gather is ``IndexedSlices``, as in TensorFlow 2.21
(and as devtrace gives it eagerly): the placement log's ``gradient_tape/Shape`` (a Const), ``Size``,
``ExpandDims``, ``strided_slice``, ``concat``, two ``Reshape``s, no dense ``ScatterNd``; and a Keras
``Embedding`` trained by Adam in a traced step gets Keras's sparse update (each looked-up slice squared,
not the summed row), so its losses and weights are TensorFlow's. TensorFlow's output:
``tests/tf221_oracle/programs/{gather_gradient_traced,embedding_adam_traced}.py`` captured by
``tests/tf221_oracle/capture.py``."""

import pathlib

import pytest

import devtrace as tf
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context

ORACLE = pathlib.Path(__file__).resolve().parent / "tf221_oracle"


def _run(name: str) -> None:
    source = (ORACLE / "programs" / f"{name}.py").read_text()
    source = source.replace("import tensorflow as tf", "import devtrace as tf").replace(
        "import keras\n", "from devtrace import keras\n")
    exec(compile(source, f"{name}.py", "exec"), {"__name__": "__main__"})


@pytest.fixture
def cpu():
    reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), (), (), "cpu"), env={})
    yield
    tf.debugging.set_log_device_placement(False)


@pytest.mark.parametrize("name", ["gather_gradient_traced", "embedding_adam_traced"])
def test_a_traced_gather_gradient_is_indexed_slices_as_tensorflows(cpu, capsys, name):
    _run(name)
    assert capsys.readouterr().out == (ORACLE / "captures" / f"{name}.stdout").read_text()

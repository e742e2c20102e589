"""A TensorFlow name devtrace lacks says so, in one line, and hasattr checks keep working."""

import pytest

import devtrace as tf

from conftest import devtrace


# (expression, the name it reports): names TensorFlow 2.21 has (devtrace/generated/tf_api_names.py) and devtrace lacks
LACKING = [
    ("tf.compat.v1.wrap_function", "tf.compat.v1.wrap_function"), ("tf.compat.v1.LMDBReader", "tf.compat.v1.LMDBReader"),
    ("tf.compat.v1.fake_quant_with_min_max_args", "tf.compat.v1.fake_quant_with_min_max_args"), ("tf.compat.v1.quantize_v2", "tf.compat.v1.quantize_v2"),
    ("tf.keras.InputSpec", "tf.keras.InputSpec"), ("tf.keras.layers.ConvLSTM3D", "tf.keras.layers.ConvLSTM3D"),
    ("tf.compat.v1.AttrValue", "tf.compat.v1.AttrValue"), ("tf.raw_ops.AddV2", "tf.raw_ops.AddV2"),
    ("tf.data.experimental.service", "tf.data.experimental.service"),
    ("tf.feature_column", "tf.feature_column"),
    ("tf.compat.v1.make_template", "tf.compat.v1.make_template"),
    ("tf.distribute.experimental.PreemptionCheckpointHandler", "tf.distribute.experimental.PreemptionCheckpointHandler"),
    ("tf.constant(1.0).consumers", "tf.Tensor.consumers"), ("tf.Variable(1.0).to_proto", "tf.Variable.to_proto"),
]


@pytest.mark.parametrize("expression,name", LACKING)
def test_names_tensorflow_has_say_devtrace_lacks_them(expression, name):
    with pytest.raises(AttributeError, match=f"^devtrace does not implement {name.replace('.', '[.]')} yet$"):
        eval(expression)
    owner, attr = expression.rsplit(".", 1)
    assert not hasattr(eval(owner), attr)


# TensorFlow 2.21's own errors for names it does not have either (printed by TensorFlow)
@pytest.mark.parametrize("expression,text", [
    ("tf.not_a_thing", "module 'tensorflow' has no attribute 'not_a_thing'"),
    ("tf.math.nope", "module 'tensorflow._api.v2.math' has no attribute 'nope'"),
    ("tf.linalg.nope", "module 'tensorflow._api.v2.linalg' has no attribute 'nope'"),
    ("tf.nn.nope", "module 'tensorflow._api.v2.nn' has no attribute 'nope'"),
    ("tf.random.nope", "module 'tensorflow._api.v2.random' has no attribute 'nope'"),
    ("tf.keras.nope", "module 'keras._tf_keras.keras' has no attribute 'nope'"),
    ("tf.keras.layers.nope", "module 'keras._tf_keras.keras.layers' has no attribute 'nope'"),
    ("tf.compat.v1.nope", "module 'tensorflow._api.v2.compat.v1' has no attribute 'nope'"),
    ("tf.raw_ops.nope", "module 'tensorflow._api.v2.raw_ops' has no attribute 'nope'"),
    ("tf.config.experimental.nope", "module 'tensorflow._api.v2.config.experimental' has no attribute 'nope'"),
    ("tf.errors.nope", "module 'tensorflow._api.v2.errors' has no attribute 'nope'"),
    ("tf.data.nope", "module 'tensorflow._api.v2.data' has no attribute 'nope'"),
    ("tf.train.nope", "module 'tensorflow._api.v2.train' has no attribute 'nope'"),
    ("tf.Variable(1.0).nope", "'ResourceVariable' object has no attribute 'nope'"),
    ("tf.Variable(1.0).reshape", "'ResourceVariable' object has no attribute 'reshape'"),
])
def test_names_tensorflow_lacks_too_raise_its_error(expression, text):
    with pytest.raises(AttributeError) as info:
        eval(expression)
    assert str(info.value) == text


def test_the_lacking_members_are_tensorflows_and_all_of_them():
    """``namespace.LACKING`` (raising properties, no ``__getattr__`` on the hot classes) is exactly
    what TensorFlow 2.21's eager tensors and resource variables have and devtrace's lack."""
    from devtrace.util.namespace import LACKING, _tensorflow_names

    for kind, value in (("Tensor", tf.constant(1.0)), ("Variable", tf.Variable(1.0))):
        names = _tensorflow_names(f"<{kind}>")[1]
        assert set(LACKING[kind]) <= names
        assert names - set(dir(value)) == set(), kind
        assert not any("__getattr__" in vars(c) for c in type(value).__mro__[:-1]), kind


def test_a_symbolic_tensors_missing_attribute_names_its_python_class():
    seen = []

    @tf.function
    def f(x):
        try:
            x.nope
        except AttributeError as e:
            seen.append(str(e))
        return x

    f(tf.constant(1.0))
    assert seen == ["'SymbolicTensor' object has no attribute 'nope'"]  # TensorFlow 2.21's words


def test_hasattr_stays_usable():
    assert hasattr(tf, "reduce_mean") and not hasattr(tf, "not_a_thing") and not hasattr(tf, "lite")
    assert hasattr(tf.math, "sqrt") and not hasattr(tf.math, "not_a_thing")
    assert hasattr(tf.constant(1.0), "numpy") and not hasattr(tf.constant(1.0), "consumers")
    assert not hasattr(tf.Variable(1.0), "op")  # eagerly a property that raises, as TensorFlow's


def test_devtrace_run_reports_a_missing_name_in_one_line(tmp_path):
    prog = tmp_path / "uses_missing.py"
    prog.write_text("import devtrace as tf\n\nx = tf.constant(1.0)\ny = tf.lite(x)\n")
    r = devtrace("run", str(prog))
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == "Error: uses_missing.py raised AttributeError: devtrace does not implement " \
                                        "tf.lite yet"
    assert "devtrace/" not in r.stderr.replace(str(tmp_path), "")  # no frame from devtrace's code
    assert f'File "{prog}", line 4' in r.stderr


@pytest.mark.parametrize("line,name", [
    ("tf.compat.v1.make_template(None)", "tf.compat.v1.make_template"),
    ("tf.constant(1.0).consumers()", "tf.Tensor.consumers"), ("tf.Variable(1.0).to_proto()", "tf.Variable.to_proto"),
])
def test_devtrace_run_reports_a_missing_namespaced_name_or_member_alike(tmp_path, line, name):
    prog = tmp_path / "uses_member.py"
    prog.write_text(f"import tensorflow as tf\n\n{line}\n")
    r = devtrace("run", str(prog))
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == f"Error: uses_member.py raised AttributeError: devtrace does not implement {name} yet"
    assert "devtrace/" not in r.stderr.replace(str(tmp_path), "")


def test_tf_function_and_tf_nest_survive_their_modules_being_imported():
    """``devtrace.data`` imports the ``devtrace.function`` module: ``tf.function`` stays the decorator."""
    import subprocess
    import sys

    code = ("import devtrace as tf\nds = tf.data.Dataset.range(3)\nimport devtrace.distribute._input\n"
            "print(callable(tf.function) and type(tf.function).__name__, type(tf.nest).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "function Namespace\n"

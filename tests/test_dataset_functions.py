"""tf.data's user functions (map, filter, reduce, scan, take_while, group_by_window's key; flat_map,
interleave and group_by_window's reduce function, whose datasets are made per element) traced once as
graphs and run per element, against TensorFlow 2.21's answers (captures in
``tests/tf221_subsystems/``, README there)."""

import contextlib
import io
import os
import re

import devtrace as tf

HERE = os.path.join(os.path.dirname(__file__), "tf221_subsystems")
PROBE = os.path.join(HERE, "dataset_functions_probe.py")
# what TensorFlow's placer logs for the pipeline's own ops (datasets, iterators) and the eager
# constants: devtrace places no dataset ops; only the functions' bodies are compared
_PIPELINE = re.compile(r"^(input|_EagerConst|output_RetVal|components_\d+|components_\d+_RetVal|\w*Dataset|"
                       r"handle_RetVal|AnonymousIteratorV3|dataset|iterator|MakeIterator|IteratorGetNext|start|stop|"
                       r"step|count|input__dataset|cycle__length|block__length): ")


def _run(source: str, filename: str):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        exec(compile(source.replace("import tensorflow as tf", "import devtrace as tf"), filename, "exec"),
             {"__name__": "probe"})
    return out.getvalue(), err.getvalue()


def _captured(name: str) -> list:
    with open(os.path.join(HERE, name)) as f:
        return f.read().splitlines()


def test_functions_trace_once_and_run_per_element_as_tensorflows():
    with open(PROBE) as f:
        out, err = _run(f.read(), PROBE)
    assert out.replace(PROBE, "PROBE").splitlines() == _captured("dataset_functions_probe.txt")
    assert [line for line in err.splitlines() if line.startswith("tfprint")] == _captured("dataset_functions_tfprint.txt")


def test_a_functions_body_is_placed_on_the_host_each_time_an_iterator_opens_it():
    with open(os.path.join(HERE, "dataset_functions_placement.py")) as f:
        source = f.read()
    try:
        out, _ = _run(source, "dataset_functions_placement.py")
    finally:
        tf.debugging.set_log_device_placement(False)
    got = [line for line in out.splitlines() if not _PIPELINE.match(line)]
    want = [line for line in _captured("dataset_functions_placement.txt") if not _PIPELINE.match(line)]
    assert got == want


def test_functions_returning_datasets_trace_once_as_tensorflows():
    path = os.path.join(HERE, "dataset_nested_probe.py")
    with open(path) as f:
        out, err = _run(f.read(), path)
    assert out.splitlines() == _captured("dataset_nested_probe.txt")
    assert [line for line in err.splitlines() if line.startswith("tfprint")] == _captured("dataset_nested_tfprint.txt")


def test_a_flat_map_or_interleave_functions_body_is_placed_once_per_iterator():
    with open(os.path.join(HERE, "dataset_nested_placement.py")) as f:
        source = f.read()
    try:
        out, _ = _run(source, "dataset_nested_placement.py")
    finally:
        tf.debugging.set_log_device_placement(False)
    got = [line for line in out.splitlines() if not _PIPELINE.match(line)]
    assert got == [line for line in _captured("dataset_nested_placement.txt") if not _PIPELINE.match(line)]


def test_a_dataset_made_of_a_tf_functions_tensors_is_not_implemented_in_one_line():
    @tf.function
    def f(x):
        return tf.data.Dataset.from_tensor_slices(x)
    try:
        f(tf.constant([1, 2]))
    except NotImplementedError as e:
        assert str(e).splitlines()[-1].strip() == ("NotImplementedError: devtrace does not implement a tf.data.Dataset "
                                                    "made from a tf.function's tensors yet")
    else:
        raise AssertionError("no error")


def test_each_element_runs_the_graph_not_the_python_function():
    calls = []

    def f(x):
        calls.append(1)
        return x + 1
    ds = tf.data.Dataset.range(50).map(f).filter(lambda x: x % 2 == 0)
    assert sum(ds.as_numpy_iterator()) == sum(range(2, 51, 2)) and len(calls) == 1


def test_a_random_flip_traces_as_tensorflows_cond():
    calls = []

    def augment(image):
        calls.append(1)
        return tf.image.random_flip_left_right(image, seed=3)
    ds = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(24.0), [4, 2, 3, 1])).map(augment)
    rows = [e[0, :, 0].tolist() for e in ds.as_numpy_iterator()]
    assert len(calls) == 1 and ds.element_spec == tf.TensorSpec([2, 3, 1], tf.float32)
    assert all(r in ([k, k + 1, k + 2], [k + 2, k + 1, k]) for r, k in zip(rows, range(0, 24, 6)))

"""The last of TensorFlow 2.21's public names against TensorFlow's answers (captures in
``tests/tf221_subsystems/``, README there): the composite specs, ``tf.check_pinned``,
``tf.image.decode_jxl``."""

import contextlib
import io
import os

import numpy as np
import pytest

import devtrace as tf

HERE = os.path.join(os.path.dirname(__file__), "tf221_subsystems")


def _probe(name: str) -> list:
    """Run a capture's probe program under devtrace: its printed lines."""
    with open(os.path.join(HERE, name)) as f:
        source = f.read().replace("import tensorflow as tf", "import devtrace as tf")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, name, "exec"), {"__name__": "probe"})
    return out.getvalue().splitlines()


def _captured(name: str) -> list:
    with open(os.path.join(HERE, name)) as f:
        return f.read().splitlines()


def test_the_composite_specs_print_compare_and_match_as_tensorflows():
    got, want = _probe("specs_probe.py"), _captured("specs_probe.txt")
    # the value types are devtrace's classes: the lines agree but for their modules
    classes = ("<class 'tensorflow.python.framework.indexed_slices.IndexedSlices'>",
               "<class 'tensorflow.python.framework.none_tensor.NoneTensor'>",
               "<class 'tensorflow.python.data.ops.optional_ops._OptionalImpl'>",
               "<class 'tensorflow.python.ops.tensor_array_ops.TensorArray'>")
    ours = ("<class 'devtrace.ops.sparse.indexed_slices.IndexedSlices'>",
            "<class 'devtrace.framework.composite_specs.NoneTensor'>", "<class 'devtrace.data._optional.Optional'>",
            "<class 'devtrace.ops.control_flow.tensor_array_ops.TensorArray'>")
    for theirs, mine in zip(classes, ours):
        want = [line.replace(theirs, mine) for line in want]
    assert got == want


def test_check_pinned_and_decode_jxl_answer_as_tensorflow():
    got, want = _probe("jxl_pinned_probe.py"), _captured("jxl_pinned_probe.txt")
    # devtrace's JPEG decoder rounds a tiny image's chroma otherwise than TensorFlow's (decode_jpeg's too)
    jpeg = [i for i, line in enumerate(want) if line.startswith(("jpeg {} ", "jpeg {'channels': 1}"))]
    assert len(jpeg) == 2
    assert [line for i, line in enumerate(got) if i not in jpeg] == [line for i, line in enumerate(want) if i not in jpeg]
    assert [got[i].split(" [")[0] for i in jpeg] == [want[i].split(" [")[0] for i in jpeg]  # shapes and dtypes


def test_a_jpeg_xl_image_says_devtrace_cannot_decode_it():
    with pytest.raises(tf.errors.UnimplementedError, match="devtrace does not implement decoding JPEG XL images yet"):
        tf.io.decode_jxl(tf.constant(b"\xff\x0a" + bytes(30)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input is empty\."):
        tf.image.decode_jxl(tf.constant(b""))
    assert tf.image.decode_jxl(tf.io.encode_png(tf.zeros([1, 2, 3], tf.uint8))).numpy().tolist() == \
        np.zeros([1, 2, 3], np.uint8).tolist()


def test_unicode_script_gives_icus_codes_as_tensorflow():
    got, want = _probe("unicode_script_probe.py"), _captured("unicode_script.json")
    assert got == want


def test_sample_distorted_bounding_box_crops_as_tensorflow_for_a_seed():
    try:
        got = _probe("bounding_box_probe.py")  # it sets the global seed
    finally:
        tf.random.set_seed(None)
    assert got == _captured("bounding_box_probe.txt")


def test_fractional_pools_draw_tensorflows_regions_for_a_seed_and_their_gradients():
    assert _probe("fractional_pool_probe.py") == _captured("fractional_pool_probe.txt")


def test_sobol_sample_gives_tensorflows_points():
    assert _probe("sobol_probe.py") == _captured("sobol_probe.txt")
    with pytest.raises(tf.errors.UnimplementedError, match="devtrace does not implement tf.math.sobol_sample beyond "
                                                           "64 dimensions yet"):
        tf.math.sobol_sample(65, 1)


def test_the_rnn_cell_wrappers_wrap_a_keras_cell_as_tensorflows_legacy_ones():
    assert _probe("rnn_cell_wrapper_probe.py") == _captured("rnn_cell_wrapper_probe.txt")


def test_import_graph_def_rebuilds_a_graph_as_tensorflow():
    assert _probe("import_graph_def_probe.py") == _captured("import_graph_def_probe.txt")

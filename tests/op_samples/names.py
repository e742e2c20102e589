"""Samples: the ops behind the last of TensorFlow 2.21's public names (tf.debugging's callbacks,
tf.math.sobol_sample, the fractional pools, tf.strings.unicode_script, tf.image's bounding boxes)."""

import numpy as np

import devtrace as tf
from devtrace.runtime.eager.executor import execute

from . import Sample
from .math import X, t

def _pinned():
    """TensorFlow's CPU build: every tensor fails the check, naming the build."""
    said = ""
    try:
        tf.check_pinned(t(X))
    except tf.errors.FailedPreconditionError as e:
        said = str(e)
    return tf.constant([said.startswith("{{function_node __wrapped__CheckPinned_device_")
                        and "to check pinnedness, must be built with `--config=cuda`" in said])


_PNG = tf.io.encode_png(tf.constant(np.arange(12, dtype=np.uint8).reshape(2, 2, 3)))

_BOX = np.array([[[0.1, 0.2, 0.5, 0.9]]], np.float32)

_F = np.arange(1 * 5 * 5 * 1, dtype=np.float32).reshape(1, 5, 5, 1)


def _fractional(f):
    out, rows, cols = f(t(_F), [1.0, 1.5, 1.5, 1.0], seed=3)
    return out, rows, cols


def _fractional_grad(f):
    x = t(_F)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = f(x, [1.0, 1.5, 1.5, 1.0], seed=3)[0]
    return tape.gradient(out, x)


SAMPLES = [
    # tfdbg2's FULL_HEALTH summary (TensorFlow's values: tests/tf221_subsystems/tfdbg/)
    Sample("DebugNumericSummaryV2",
           lambda: execute("DebugNumericSummaryV2", (t(X),),
                           {"tensor_debug_mode": 4, "tensor_id": 7, "output_dtype": "float64"}),
           np.array([7, -1, 1, 2, 6, 0, 0, 0, 2, 0, 4], np.float64)),
    Sample("CheckNumericsV2", lambda: execute("CheckNumericsV2", (t(X),), {"message": "bad"}), X),
    Sample("CheckPinned", _pinned, np.array([True])),
    # TensorFlow's crops for these seeds (tests/tf221_subsystems/bounding_box_probe.txt)
    Sample("StatelessSampleDistortedBoundingBox",
           lambda: tf.image.stateless_sample_distorted_bounding_box(t(np.array([40, 60, 3], np.int32)), t(_BOX),
                                                                     seed=[1, 2]),
           [np.array([0, 3, 0], np.int32), np.array([39, 48, -1], np.int32),
            np.array([[[0.0, 0.05, 0.975, 0.85]]], np.float32)], on="CPU"),
    Sample("SampleDistortedBoundingBoxV2",
           lambda: tf.image.sample_distorted_bounding_box(t(np.array([40, 60, 3], np.int32)), t(_BOX), seed=7),
           lambda begin, size, box: (begin[:2] + size[:2] <= [40, 60]).all() and size[2] == -1, on="CPU"),
    Sample("FractionalMaxPool", lambda: _fractional(tf.nn.fractional_max_pool),
           lambda out, rows, cols: out.shape == (1, 3, 3, 1) and rows[-1] == 5 and cols[-1] == 5, on="CPU"),
    Sample("FractionalAvgPool", lambda: _fractional(tf.nn.fractional_avg_pool),
           lambda out, rows, cols: out.shape == (1, 3, 3, 1) and rows[-1] == 5 and cols[-1] == 5, on="CPU"),
    Sample("FractionalMaxPoolGrad", lambda: _fractional_grad(tf.nn.fractional_max_pool),
           lambda dx: dx.sum() == 9 and set(np.unique(dx)) <= {0, 1}, on="CPU"),
    Sample("FractionalAvgPoolGrad", lambda: _fractional_grad(tf.nn.fractional_avg_pool),
           lambda dx: abs(dx.sum() - 9) < 1e-5, on="CPU"),
    Sample("SobolSample", lambda: tf.math.sobol_sample(2, 3),
           np.array([[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]], np.float32), on="CPU"),
    Sample("UnicodeScript", lambda: tf.strings.unicode_script(t(np.array([65, 0x4E00, 0x0416, -1], np.int32))),
           np.array([25, 17, 8, -1], np.int32), on="CPU"),
    Sample("DecodeJxl", lambda: tf.image.decode_jxl(_PNG), np.arange(12, dtype=np.uint8).reshape(2, 2, 3), on="CPU"),
]

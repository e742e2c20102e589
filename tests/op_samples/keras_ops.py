"""Samples: the ops added for Keras's layers — the 3-D filter's gradient, ImageProjectiveTransformV3
(references computed here with NumPy)."""

import numpy as np

import devtrace as tf
from devtrace.runtime.eager.executor import execute

from . import Sample
from .math import t

VOL = (np.arange(2 * 3 * 3 * 1, dtype=np.float32).reshape(1, 2, 3, 3, 1) % 4)  # NDHWC
IMG = (np.arange(1 * 3 * 3 * 2, dtype=np.float32).reshape(1, 3, 3, 2) % 5)  # NHWC, two channels


def _grads(fn, x, w):
    """The gradients of ``sum(fn(x, w))`` with respect to ``x`` and ``w``."""
    x, w = tf.constant(x), tf.constant(w)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = tf.reduce_sum(fn(x, w))
    return tape.gradient(y, x), tape.gradient(y, w)


def _conv3d(x, w):
    return tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID")


_W3 = np.ones((1, 2, 2, 1, 1), np.float32)

SAMPLES = [
    Sample("Conv3DBackpropFilterV2", lambda: _grads(_conv3d, VOL, _W3)[1],
           np.array([[VOL[0, :, i:i + 2, j:j + 2, 0].sum() for j in range(2)] for i in range(2)],
                    np.float32).reshape(1, 2, 2, 1, 1)),
    Sample("ImageProjectiveTransformV3",
           lambda: execute("ImageProjectiveTransformV3",
                           (t(IMG), t(np.array([[1, 0, 1, 0, 1, 0, 0, 0]], np.float32))),
                           {"output_shape": (3, 3), "fill_value": 0.0, "interpolation": "BILINEAR",
                            "fill_mode": "CONSTANT"}),
           np.concatenate([IMG[:, :, 1:], np.zeros((1, 3, 1, 2), np.float32)], axis=2)),
]

"""Samples: the ops added for Keras's layers — 3-D convolutions and their gradients, the depthwise
convolution's gradients, ImageProjectiveTransformV3 (references computed here with NumPy)."""

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


def _depthwise(x, w):
    return tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID")


_W3 = np.ones((1, 2, 2, 1, 1), np.float32)
_WD = np.ones((2, 2, 2, 1), np.float32)
# each input element's count of the VALID windows covering it (stride 1): 2x2 windows over a 3x3 plane
_COVER = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], np.float32)

SAMPLES = [
    Sample("Conv3D", lambda: _conv3d(t(VOL), t(_W3)),
           np.array([[[[VOL[0, d, i:i + 2, j:j + 2, 0].sum()] for j in range(2)] for i in range(2)] for d in range(2)],
                    np.float32)[None]),
    Sample("Conv3DBackpropInputV2", lambda: _grads(_conv3d, VOL, _W3)[0],
           np.broadcast_to(_COVER[None, None, :, :, None], VOL.shape)),
    Sample("Conv3DBackpropFilterV2", lambda: _grads(_conv3d, VOL, _W3)[1],
           np.array([[VOL[0, :, i:i + 2, j:j + 2, 0].sum() for j in range(2)] for i in range(2)],
                    np.float32).reshape(1, 2, 2, 1, 1)),
    Sample("DepthwiseConv2dNativeBackpropInput", lambda: _grads(_depthwise, IMG, _WD)[0],
           np.broadcast_to(_COVER[None, :, :, None], IMG.shape)),
    Sample("DepthwiseConv2dNativeBackpropFilter", lambda: _grads(_depthwise, IMG, _WD)[1],
           np.array([[[IMG[0, i:i + 2, j:j + 2, c].sum() for c in range(2)] for j in range(2)] for i in range(2)],
                    np.float32).reshape(2, 2, 2, 1)),
    Sample("ImageProjectiveTransformV3",
           lambda: execute("ImageProjectiveTransformV3",
                           (t(IMG), t(np.array([[1, 0, 1, 0, 1, 0, 0, 0]], np.float32))),
                           {"output_shape": (3, 3), "fill_value": 0.0, "interpolation": "BILINEAR",
                            "fill_mode": "CONSTANT"}),
           np.concatenate([IMG[:, :, 1:], np.zeros((1, 3, 1, 2), np.float32)], axis=2)),
]

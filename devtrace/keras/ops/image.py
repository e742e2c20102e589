"""``keras.ops.image`` on devtrace's ``tf.image`` (channels last)."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from .. import keywords


def resize(images, size, interpolation="bilinear", antialias=False, data_format=None, **kwargs):
    keywords.unimplemented("keras.ops.image.resize", data_format=(data_format, (None, "channels_last")),
                           **{k: (v, None) for k, v in kwargs.items()})
    return tf.image.resize(images, size, method=interpolation, antialias=antialias)


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """Keras's ``ops.image.ssim``: TensorFlow's ``tf.image.ssim`` (channels last)."""
    keywords.unimplemented("keras.ops.image.ssim", data_format=(data_format, (None, "channels_last")))
    return tf.image.ssim(tf.convert_to_tensor(image1), tf.convert_to_tensor(image2), max_val,
                         filter_size=filter_size, filter_sigma=filter_sigma, k1=k1, k2=k2)


__all__ = ["resize", "ssim"]
__getattr__ = _missing("keras.ops.image")

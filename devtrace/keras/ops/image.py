"""``keras.ops.image`` on devtrace's ``tf.image`` (channels last)."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from .. import keywords


def resize(images, size, interpolation="bilinear", antialias=False, data_format=None, **kwargs):
    keywords.unimplemented("keras.ops.image.resize", data_format=(data_format, (None, "channels_last")),
                           **{k: (v, None) for k, v in kwargs.items()})
    return tf.image.resize(images, size, method=interpolation, antialias=antialias)


__all__ = ["resize"]
__getattr__ = _missing("keras.ops.image")

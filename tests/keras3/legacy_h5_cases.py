"""The model of ``legacy/tiny.h5`` (``legacy_h5_capture.py``, ``tests/test_keras_applications.py``)."""

import numpy as np

INPUT = np.linspace(0, 1, 2 * 48, dtype="float32").reshape(2, 4, 4, 3)


def tiny(keras):
    keras.backend.clear_session()
    inp = keras.Input((4, 4, 3))
    x = keras.layers.Conv2D(2, 3, name="conv")(inp)
    x = keras.layers.BatchNormalization(name="bn")(x)
    x = keras.layers.Flatten()(x)
    return keras.Model(inp, keras.layers.Dense(3, name="predictions")(x))

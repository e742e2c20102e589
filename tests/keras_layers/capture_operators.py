"""Captures Keras 3.15's summary of a functional model built with Python operators on KerasTensors
(``h + x``, ``y[:, 0] * 2.0``, ``-z``) for tests/test_keras_layers_more.py: run with
/work/tfvenv/bin/python tests/keras_layers/capture_operators.py."""

import io
import os
from contextlib import redirect_stdout



def build(keras):
    seq_in = keras.Input((10, 4))
    h = keras.layers.Dense(4)(seq_in)
    y = h + seq_in
    z = y[:, 0] * 2.0
    return keras.Model(seq_in, -z)


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras

    out = io.StringIO()
    with redirect_stdout(out):
        build(keras).summary()
    with open(os.path.join(os.path.dirname(__file__), "captures", "operators_summary.txt"), "w") as f:
        f.write(out.getvalue())

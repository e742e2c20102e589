"""keras.random on devtrace draws Keras 3.15's values, and keras.initializers serialize and draw as
Keras's do (tests/keras_layers/captures/random.json,
captured with TensorFlow 2.21 by tests/keras_layers/capture_random.py): the same stateless ops and
seeds as Keras's TensorFlow backend."""

import json
import pathlib
import sys

import numpy as np
import pytest

import devtrace as tf

HERE = pathlib.Path(__file__).resolve().parent / "keras_layers"
sys.path.insert(0, str(HERE))
from random_cases import CASES, INITIALIZERS  # noqa: E402

CAPTURED = json.loads((HERE / "captures" / "random.json").read_text())


@pytest.mark.parametrize("name", list(CASES))
def test_seeded_draws_are_keras_values(name):
    value = eval(CASES[name], {"keras": tf.keras, "np": np})  # noqa: S307 (the case table)
    got = np.asarray([np.asarray(v) for v in value]) if isinstance(value, list) else np.asarray(value)
    np.testing.assert_allclose(got, np.asarray(CAPTURED[name]), atol=1e-6)


def test_a_seed_generator_steps_and_unseeded_draws_differ():
    gen = tf.keras.random.SeedGenerator(42)
    assert gen.state.numpy().tolist() == [42, 0]
    tf.keras.random.uniform((2,), seed=gen)
    assert gen.state.numpy().tolist() == [42, 1]
    a, b = tf.keras.random.normal((4,)), tf.keras.random.normal((4,))
    assert not np.allclose(a.numpy(), b.numpy())
    with pytest.raises(ValueError, match="^Argument `seed` must be an integer. Received: seed=1.5$"):
        tf.keras.random.SeedGenerator(1.5)


@pytest.mark.parametrize("name", list(INITIALIZERS))
def test_initializers_serialize_and_draw_as_keras(name):
    got = eval(INITIALIZERS[name], {"keras": tf.keras})  # noqa: S307 (the case table)
    want = CAPTURED["initializers"][name]
    if name.startswith("draw"):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=1e-6)
    else:
        assert got == want

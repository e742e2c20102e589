"""A keras.io-style program (``import keras``, ``keras.datasets.mnist.load_data()``, ``fit`` with a
validation split, ``evaluate``) runs unchanged under ``devtrace run --simulate 2``, its data read
from Keras's cache in ``$KERAS_HOME`` (issue 29 items 1-3)."""

import numpy as np

from conftest import devtrace

PROGRAM = '''
import os
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
from keras import layers

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255
x_test = x_test.reshape(-1, 784).astype("float32") / 255
model = keras.Sequential([keras.Input(shape=(784,)), layers.Dense(16, activation="relu"), layers.Dense(10)])
model.compile(optimizer=keras.optimizers.Adam(1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=[keras.metrics.SparseCategoricalAccuracy()])
history = model.fit(x_train, y_train, batch_size=16, epochs=2, validation_split=0.25, verbose=2)
print(sorted(history.history), history.epoch)
print(len(model.evaluate(x_test, y_test, verbose=0)))
import tensorflow as tf
print(keras.layers.Dense is tf.keras.layers.Dense, x_train.shape)
'''


def test_a_keras_io_program_runs_under_devtrace_run_simulate_2(tmp_path):
    home = tmp_path / "keras_home"
    (home / "datasets").mkdir(parents=True)
    rng = np.random.default_rng(0)
    np.savez(home / "datasets" / "mnist.npz", x_train=rng.integers(0, 256, (64, 28, 28), dtype=np.uint8),
             y_train=rng.integers(0, 10, 64, dtype=np.uint8), x_test=rng.integers(0, 256, (16, 28, 28), dtype=np.uint8),
             y_test=rng.integers(0, 10, 16, dtype=np.uint8))
    program = tmp_path / "mnist_mlp.py"
    program.write_text(PROGRAM)
    r = devtrace("run", "--simulate", "2", str(program), env={"KERAS_HOME": str(home), "KERAS_BACKEND": None})
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert "['loss', 'sparse_categorical_accuracy', 'val_loss', 'val_sparse_categorical_accuracy'] [0, 1]" in lines
    assert "2" in lines and "True (64, 784)" in lines
    assert sum(line.startswith("3/3 - ") and " - val_loss: " in line for line in lines) == 2

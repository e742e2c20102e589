"""The training programs ``bench/train_step.py`` times, written as a user writes them (``import
tensorflow``, ``import keras``): run unchanged by TensorFlow's interpreter and by ``devtrace run``.

As a worker (``_train_programs.py worker``) it reads case names from stdin, one a line, and answers each
on the file descriptor ``$BENCH_RESULT_FD`` with a JSON line ``{"case": ..., "step_ms": [...]}``, so that the driver can
alternate TensorFlow and devtrace case by case (load on the shared machine hits both alike).
As ``_train_programs.py mnist N`` it is keras.io's MNIST convnet end to end on ``N`` random images.
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

import keras
import tensorflow as tf

BATCH = 32
# the clock steps are timed with: wall time (what a user waits), or the process's CPU time (all its
# threads; steadier on a loaded machine, for comparing two devtrace versions)
CLOCK = time.process_time if os.environ.get("BENCH_CLOCK") == "cpu" else time.perf_counter


class StepTimes(keras.callbacks.Callback):
    """The wall time of each ``fit`` step: from one batch's end to the next's (the whole step,
    callbacks and data included, as a user's progress bar sees it)."""

    def __init__(self):
        super().__init__()
        self.ends = []

    def on_train_batch_end(self, batch, logs=None):
        self.ends.append(CLOCK())

    def step_ms(self):
        return [(b - a) * 1e3 for a, b in zip(self.ends, self.ends[1:])]


def mlp():
    return keras.Sequential([keras.Input((784,)), keras.layers.Dense(128, activation="relu"),
                             keras.layers.Dense(10)])


def cnn():
    return keras.Sequential([
        keras.Input((28, 28, 1)),
        keras.layers.Conv2D(32, 3, activation="relu"), keras.layers.MaxPooling2D(2),
        keras.layers.Conv2D(64, 3, activation="relu"), keras.layers.MaxPooling2D(2),
        keras.layers.Flatten(), keras.layers.Dense(10),
    ])


def mnist_convnet():
    """keras.io/examples/vision/mnist_convnet's model."""
    return keras.Sequential([
        keras.Input((28, 28, 1)),
        keras.layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
        keras.layers.MaxPooling2D(pool_size=(2, 2)),
        keras.layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
        keras.layers.MaxPooling2D(pool_size=(2, 2)),
        keras.layers.Flatten(),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(10, activation="softmax"),
    ])


def images(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((n, 28, 28, 1), dtype=np.float32), rng.integers(0, 10, n).astype("int64")


class Cases:
    """Each case built once (models compiled, functions traced, first steps run), then timed."""

    def __init__(self, steps):
        self.steps = steps
        self.built = {}

    def _fit(self, name, make, x, y, batch, loss, from_logits=True):
        if name not in self.built:
            model = make()
            model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=from_logits)
                          if loss is None else loss)
            model.fit(x[: batch * 3], y[: batch * 3], batch_size=batch, epochs=1, verbose=0)
            self.built[name] = model
        times = StepTimes()
        self.built[name].fit(x, y, batch_size=batch, epochs=1, verbose=0, callbacks=[times], shuffle=False)
        return times.step_ms()

    def mlp_fit(self):
        rng = np.random.default_rng(0)
        n = BATCH * (self.steps + 1)
        x, y = rng.random((n, 784), dtype=np.float32), rng.integers(0, 10, n).astype("int64")
        return self._fit("mlp_fit", mlp, x, y, BATCH, None)

    def cnn_fit(self):
        x, y = images(BATCH * (self.steps + 1))
        return self._fit("cnn_fit", cnn, x, y, BATCH, None)

    def mnist_fit(self):
        x, y = images(128 * (self.steps + 1))
        y = keras.utils.to_categorical(y, 10)
        return self._fit("mnist_fit", mnist_convnet, x, y, 128, "categorical_crossentropy")

    def mlp_function(self):
        """A ``tf.function`` training step with ``GradientTape`` (the custom-training-loop guide's)."""
        if "mlp_function" not in self.built:
            model = mlp()
            optimizer = keras.optimizers.Adam()
            loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

            @tf.function
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    loss = loss_fn(y, model(x, training=True))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
                return loss

            rng = np.random.default_rng(0)
            x = tf.constant(rng.random((BATCH, 784), dtype=np.float32))
            y = tf.constant(rng.integers(0, 10, BATCH).astype("int64"))
            for _ in range(3):
                train_step(x, y)
            self.built["mlp_function"] = train_step, x, y
        train_step, x, y = self.built["mlp_function"]
        times = []
        for _ in range(self.steps):
            start = CLOCK()
            float(train_step(x, y))
            times.append((CLOCK() - start) * 1e3)
        return times


def worker(steps):
    cases = Cases(steps)
    out = os.fdopen(int(os.environ["BENCH_RESULT_FD"]), "w")
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        out.write(json.dumps({"case": name, "step_ms": getattr(cases, name)()}) + "\n")
        out.flush()


def mnist(n):
    """keras.io's MNIST convnet program, its data replaced by ``n`` random images (no download)."""
    x, y = images(n)
    y = keras.utils.to_categorical(y, 10)
    model = mnist_convnet()
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    model.fit(x, y, batch_size=128, epochs=1, validation_split=0.1, verbose=0)
    score = model.evaluate(x[: n // 4], y[: n // 4], verbose=0)
    print("Test loss:", score[0])


if __name__ == "__main__":
    if sys.argv[1] == "worker":
        worker(int(sys.argv[2]))
    else:
        mnist(int(sys.argv[2]))

"""Files real Keras 3.15.1 writes, for devtrace to read (tests/test_keras_saving.py): a fitted
Sequential (Dense, BatchNormalization, Dense; Adam) as a `.keras` file and as `.weights.h5`, a
functional model as `.keras`, with the inputs and Keras's predictions. Run with the oracle venv:
`/work/tfvenv/bin/python tests/keras3/saving_capture.py` (from the repository root)."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "saving")
keras.utils.set_random_seed(0)
x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
y = x.sum(1, keepdims=True)
seq = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.BatchNormalization(),
                        keras.layers.Dense(1)])
seq.compile(optimizer="adam", loss="mse", metrics=["mae"])
seq.fit(x, y, epochs=2, batch_size=4, verbose=0)
seq.save(os.path.join(HERE, "sequential.keras"))
seq.save_weights(os.path.join(HERE, "sequential.weights.h5"))
i = keras.Input((3,), name="features")
h = keras.layers.Dense(5, activation="tanh")(i)
o = keras.layers.Add()([keras.layers.Dense(5)(h), keras.layers.Dense(5)(i)])
fun = keras.Model(i, o)
fun.save(os.path.join(HERE, "functional.keras"))
np.savez(os.path.join(HERE, "predictions.npz"), x=x, sequential=seq.predict(x, verbose=0),
         functional=fun.predict(x, verbose=0), iterations=int(seq.optimizer.iterations.numpy()))

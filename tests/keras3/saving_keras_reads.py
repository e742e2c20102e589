"""The other direction, checked by hand (Keras cannot run in the tests): files devtrace writes, read
by real Keras 3.15.1. From the repository root:
    .venv/bin/python tests/keras3/saving_keras_reads.py write DIR        # devtrace writes
    /work/tfvenv/bin/python tests/keras3/saving_keras_reads.py read DIR  # Keras loads, prints True x3
"""

import os
import sys

import numpy as np

mode, folder = sys.argv[1], sys.argv[2]
x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
if mode == "write":
    import devtrace as tf

    keras = tf.keras
    y = x.sum(1, keepdims=True)
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                          keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    m.compile(optimizer="adam", loss="mse")
    m.fit(x, y, epochs=2, batch_size=4, verbose=0)
    m.save(os.path.join(folder, "sequential.keras"))
    m.save_weights(os.path.join(folder, "sequential.weights.h5"))
    i = keras.Input((3,), name="features")
    h = keras.layers.Dense(5, activation="tanh")(i)
    f = keras.Model(i, keras.layers.Add()([keras.layers.Dense(5)(h), keras.layers.Dense(5)(i)]))
    f.save(os.path.join(folder, "functional.keras"))
    np.savez(os.path.join(folder, "predictions.npz"), sequential=m.predict(x, verbose=0),
             functional=f.predict(x, verbose=0))
else:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras

    want = np.load(os.path.join(folder, "predictions.npz"))
    m = keras.models.load_model(os.path.join(folder, "sequential.keras"))
    print(np.allclose(m.predict(x, verbose=0), want["sequential"], atol=1e-5), int(m.optimizer.iterations.numpy()))
    m2 = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                           keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    m2.load_weights(os.path.join(folder, "sequential.weights.h5"))
    print(np.allclose(m2.predict(x, verbose=0), want["sequential"], atol=1e-5))
    f = keras.models.load_model(os.path.join(folder, "functional.keras"))
    print(np.allclose(f.predict(x, verbose=0), want["functional"], atol=1e-5))

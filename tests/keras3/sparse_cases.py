"""``keras.Input(sparse=True)`` with a ``Dense`` layer, as TensorFlow's sparse-tensor guide uses it:
the ``KerasTensor``, the model's output on a ``tf.SparseTensor``, ``predict`` and one epoch of
``fit`` in batches. Run by ``sparse_capture.py`` with TensorFlow 2.21 / Keras 3.15.1 and by
``tests/test_keras_sparse_input.py`` under devtrace."""

import numpy as np


def run(tf):
    tf.keras.backend.clear_session()
    x = tf.keras.Input(shape=(4,), sparse=True)
    y = tf.keras.layers.Dense(4, kernel_initializer="ones", bias_initializer=tf.keras.initializers.Constant(0.5))(x)
    model = tf.keras.Model(x, y)
    data = tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                                  values=[1.0, 2.0, 1.0, 1.0, 3.0, 1.0], dense_shape=(6, 4))
    out = {"input": repr(x).replace("name=keras_tensor", "name=").replace("name=input_layer", "name="),
           "sparse": x.sparse, "config_sparse": model.get_config()["layers"][0]["config"]["sparse"],
           "call": model(data).numpy().tolist(), "predict": model.predict(data, verbose=0).tolist()}
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(data, np.ones((6, 4), "float32"), batch_size=4, epochs=2, verbose=0, shuffle=False)
    out["loss"] = [round(float(v), 5) for v in history.history["loss"]]
    out["kernel"] = np.round(model.layers[1].kernel.numpy(), 5).tolist()
    return out

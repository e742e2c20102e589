"""Models and ``compile`` arguments whose ``fit``/``evaluate`` logs (history keys and values,
``metrics_names``) ``compile_capture.py`` records with Keras 3.15.1 and ``tests/test_keras_compile.py``
compares under devtrace: repeated metric names (``auc``, ``auc_1``), names as given (``"acc"``),
per-output losses, metrics and ``loss_weights`` (lists and dicts keyed by output name)."""

import numpy as np


def cases(keras):
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
    y1 = np.array([[0.5], [1.0], [-0.5], [0.0], [0.25], [1.5], [-1.0], [0.75]], "float32")
    y2 = np.array([[1], [0], [1], [1], [0], [0], [1], [0]], "float32")

    def one():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(
            1, activation="sigmoid", kernel_initializer=keras.initializers.Constant(0.1))])

    def two():
        inp = keras.Input((3,), name="x")
        h = keras.layers.Dense(4, activation="relu", kernel_initializer=keras.initializers.Constant(0.2),
                               name="hidden")(inp)
        a = keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(0.3), name="out_a")(h)
        b = keras.layers.Dense(1, activation="sigmoid", kernel_initializer=keras.initializers.Constant(-0.1),
                               name="out_b")(h)
        return keras.Model(inp, [a, b])

    AUC, Precision, Recall, MAE = (keras.metrics.AUC, keras.metrics.Precision, keras.metrics.Recall,
                                   keras.metrics.MeanAbsoluteError)
    CASES = {
        "two_auc": (one, dict(loss="binary_crossentropy", metrics=[AUC, AUC, "accuracy"]), "y2"),
        "auc_strings": (one, dict(loss="binary_crossentropy", metrics=["AUC", "auc", "acc"]), "y2"),
        "precision_twice": (one, dict(loss="bce", metrics=[Precision, Recall, Precision]), "y2"),
        "named_twice": (one, dict(loss="mse", metrics=["mae", "mae", MAE]), "y2"),
        "multi_list": (two, dict(loss=["mse", "binary_crossentropy"]), "both"),
        "multi_list_metrics": (two, dict(loss=["mse", "binary_crossentropy"], metrics=[["mae"], ["accuracy", AUC]]),
                               "both"),
        "multi_dict": (two, dict(loss={"out_a": "mse", "out_b": "binary_crossentropy"},
                                 loss_weights={"out_a": 0.5, "out_b": 2.0},
                                 metrics={"out_a": ["mae"], "out_b": ["accuracy"]}), "both"),
        "multi_weights_list": (two, dict(loss=["mse", "bce"], loss_weights=[1.0, 0.25]), "both"),
        "multi_one_loss": (two, dict(loss="mse"), "both"),
        "multi_flat_metrics": (two, dict(loss=["mse", "mse"], metrics=["mae"]), "both"),
        "multi_dict_y": (two, dict(loss={"out_a": "mse", "out_b": "bce"}, metrics={"out_b": "accuracy"}), "dict"),
        "multi_loss_objects": (two, dict(loss=[keras.losses.MeanSquaredError(), keras.losses.BinaryCrossentropy()]),
                               "both"),
        "single_weight": (one, dict(loss="mse", loss_weights=2.0, metrics=["mse"]), "y1"),
    }
    return x, y1, y2, CASES


def run(keras, name):
    """The case's logs, rounded to 5 digits (or its error), after ``clear_session``."""
    keras.backend.clear_session()
    x, y1, y2, table = cases(keras)
    make, kw, ys = table[name]
    keras.utils.set_random_seed(0)
    kw = dict(kw)

    def made(m):
        if isinstance(m, list):
            return [made(i) for i in m]
        if isinstance(m, dict):
            return {k: made(v) for k, v in m.items()}
        return m() if isinstance(m, type) else m
    if "metrics" in kw:
        kw["metrics"] = made(kw["metrics"])
    model = make()
    model.compile(optimizer=keras.optimizers.SGD(0.1), **kw)
    y = {"y2": y2, "y1": y1, "both": [y1, y2], "dict": {"out_a": y1, "out_b": y2}}[ys]
    try:
        history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        evaluated = model.evaluate(x, y, verbose=0, return_dict=True)
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return {"error": [type(e).__name__, str(e)]}
    return {"history": {k: [round(float(v), 5) for v in vs] for k, vs in history.history.items()},
            "evaluate": {k: round(float(v), 5) for k, v in evaluated.items()},
            "metrics_names": model.metrics_names}

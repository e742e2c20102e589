# Keyword arguments Keras 3 rejects, with Keras's own errors (devtrace never swallows one): fit,
# compile, evaluate, predict, load_weights, layer and model constructors, optimizers, Input,
# add_weight, metrics and losses; keywords Keras takes and ignores (InputLayer's) and input_dim.
import warnings

import keras
import numpy as np

warnings.simplefilter("ignore")
x, y = np.zeros((4, 2), "float32"), np.zeros((4, 1), "float32")
m = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
CALLS = [
    "m.fit(x, y, foo=1, verbose=0)",
    "m.compile(foo=1)",
    "m.compile(optimizer='sgd', loss='mse', sample_weight_mode='temporal')",
    "m.evaluate(x, y, verbose=0)",
    "m.predict(x, foo=1, verbose=0)",
    "m.fit(x, y, verbose=0, workers=2, use_multiprocessing=True)",
    "m.compile(optimizer='sgd', loss='mse')",
    "m.evaluate(x, y, foo=1, bar=2, verbose=0)",
    "m.evaluate(x, y, use_multiprocessing=True, verbose=0)",
    "m.load_weights('model.weights.h5', by_name=True)",
    "keras.layers.Dense(3, foo=1)",
    "keras.layers.Dense(3, foo=1, bar=None)",
    "keras.layers.Dropout(0.5, noise=1)",
    "keras.layers.Layer(foo=1)",
    "keras.layers.Dense(3, input_dim=2).units",
    "keras.layers.InputLayer(shape=(2,), foo=1).name[:11]",
    "keras.Model(foo=1)",
    "keras.Sequential(foo=1)",
    "keras.optimizers.SGD(foo=1)",
    "keras.optimizers.Adam(0.1, bar=2)",
    "keras.Input(shape=(2,), foo=1)",
    "keras.layers.Dense(2).add_weight(shape=(1,), foo=1)",
    "keras.metrics.AUC(foo=1)",
    "keras.losses.Huber(foo=1)",
]
for call in CALLS:
    try:
        value = eval(call)
        print(call, "->", value if isinstance(value, (int, str)) else type(value).__name__)
    except Exception as e:  # noqa: BLE001
        print(call, "!!", type(e).__name__, e)

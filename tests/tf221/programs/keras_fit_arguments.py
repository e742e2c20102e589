# Keras 3's fit arguments: sample_weight, class_weight, steps_per_epoch, validation_steps,
# validation_freq, initial_epoch, validation_batch_size, validation_data as a tf.data.Dataset and as
# (x, y, sample_weight); callbacks' logs always dicts; evaluate's sample_weight and steps; predict's
# steps; Optimizer.apply and apply_gradients; verbose=1 and verbose=2 lines ending with the
# validation metrics (timings masked).
import contextlib
import io
import re
import warnings

import keras
import numpy as np
import tensorflow as tf

warnings.simplefilter("ignore")
tf.get_logger().setLevel("ERROR")  # no retracing warnings: each model here traces its own steps
x = np.linspace(-1, 1, 24).reshape(12, 2).astype("float32")
y = (x @ np.array([[1.5], [-0.5]], "float32") + 0.25).astype("float32")
labels = np.array([0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1], "int32")
sw = np.linspace(0.5, 2.0, 12).astype("float32")


def model(units=1, activation=None, loss="mse", metrics=("mae",)):
    m = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(units, activation=activation)])
    m.set_weights([np.arange(2 * units, dtype="float32").reshape(2, units) * 0.1 - 0.05,
                   np.zeros(units, "float32")])
    m.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss, metrics=list(metrics))
    return m


def history(h):
    return {k: [round(float(v), 5) for v in vs] for k, vs in h.history.items()}


def printed(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    text = re.sub(r"\d+(ms|us|s)/step", "<t>/step", buf.getvalue())
    text = re.sub(r" - \d+s - ", " - <t> - ", text)
    text = re.sub(r"\x1b\[1m\d+s\x1b\[0m", "<eta>", text)
    return [line.split("\r")[-1].rstrip() for line in text.split("\n")]


class Logs(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __getattribute__(self, name):
        if name.startswith("on_") and name not in ("on_train_batch_begin", "on_test_batch_begin"):
            def hook(*args, logs=None):
                logs = args[-1] if args and isinstance(args[-1], (dict, type(None))) else logs
                step = [a for a in args if isinstance(a, int)]
                self.seen.append(f"{name}{step} {type(logs).__name__} {sorted(logs) if logs else ''}")
            return hook
        return super().__getattribute__(name)


print("sample_weight", history(model().fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False, sample_weight=sw)))
print("zero weights", history(model().fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False,
                                          sample_weight=np.zeros(12, "float32"))))
m = model(2, "softmax", "sparse_categorical_crossentropy", ["accuracy"])
print("class_weight", history(m.fit(x, labels, batch_size=4, epochs=2, verbose=0, shuffle=False,
                                    class_weight={0: 3.0, 1: 0.5})))
print("steps_per_epoch", history(model().fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False, steps_per_epoch=2)))
h = model().fit(x, y, batch_size=4, epochs=4, verbose=0, shuffle=False, validation_data=(x[:6], y[:6]),
                validation_freq=2, validation_steps=1, validation_batch_size=2)
print("validation_freq", history(h), h.epoch)
h = model().fit(x, y, batch_size=4, epochs=3, initial_epoch=1, verbose=0, shuffle=False)
print("initial_epoch", history(h), h.epoch)
val = tf.data.Dataset.from_tensor_slices((x[:6], y[:6])).batch(3)
print("dataset validation", history(model().fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
                                                validation_data=val)))
print("weighted validation", history(model().fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False,
                                                 validation_data=(x[:6], y[:6], sw[:6]))))
ds = tf.data.Dataset.from_tensor_slices((x, y, sw)).batch(5)
print("dataset weights", history(model().fit(ds, epochs=1, verbose=0)))
m = model()
print("evaluate weights", round(m.evaluate(x, y, sample_weight=sw, batch_size=5, verbose=0)[0], 5),
      "steps", [round(v, 5) for v in m.evaluate(x, y, batch_size=4, steps=2, verbose=0)])
print("predict steps", m.predict(x, batch_size=4, steps=2, verbose=0).shape)
logs = Logs()
model().fit(x, y, batch_size=6, epochs=1, verbose=0, validation_data=(x[:6], y[:6]), callbacks=[logs])
m = model()
m.evaluate(x, y, batch_size=6, verbose=0, callbacks=[logs])
m.predict(x, batch_size=6, verbose=0, callbacks=[logs])
print("\n".join(logs.seen))
print(printed(lambda: model().fit(x, y, batch_size=4, epochs=2, shuffle=False, validation_data=(x[:6], y[:6]))))
print(printed(lambda: model().fit(x, y, batch_size=4, epochs=1, verbose=2, shuffle=False,
                                  validation_data=(x[:6], y[:6]))))
print(printed(lambda: model().evaluate(x, y, batch_size=4)))
v = keras.Variable(np.array([1.0, 2.0], "float32"))
opt = keras.optimizers.SGD(0.5)
opt.apply([tf.constant([1.0, -1.0])], [v])
it = opt.apply_gradients([(tf.constant([2.0, 2.0]), v)])
print("apply", v.numpy().tolist(), int(opt.iterations.numpy()), int(it.numpy()))
try:
    model().fit(x, y, sample_weight=sw, class_weight={0: 1.0}, verbose=0)
except ValueError as e:
    print(type(e).__name__, e)

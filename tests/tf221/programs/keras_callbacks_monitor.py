# tf.keras callbacks that watch a quantity or write files, and what they print (Keras's lines):
# EarlyStopping (patience, baseline, restore_best_weights, verbose), ModelCheckpoint (save_best_only,
# save_weights_only, filepath formatted with {epoch:02d}/{val_loss:.2f}, save_freq in batches, mode from
# a metric's direction), ReduceLROnPlateau, CSVLogger, TerminateOnNaN, LambdaCallback, BackupAndRestore,
# CallbackList, and their errors. fit runs with verbose=0: only the callbacks print.
import os
import tempfile

import numpy as np
import tensorflow as tf

keras = tf.keras
tf.get_logger().setLevel("ERROR")  # not the retracing warnings of the many small models
os.chdir(tempfile.mkdtemp())  # the files by relative paths: what the callbacks print is the same each run
d = "."
x = np.linspace(-1, 1, 32).reshape(16, 2).astype("float32")
y = (x[:, :1] * 2 - x[:, 1:]).astype("float32")
xv, yv = x[::3] * 1.5, y[::3] * 1.5 + 0.3


def model(rate=0.05, metrics=None):
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    m.compile(optimizer=keras.optimizers.SGD(rate), loss="mse", metrics=metrics)
    return m


def fit(m, callbacks, epochs=6, **kwargs):
    h = m.fit(x, y, batch_size=4, epochs=epochs, verbose=0, shuffle=False, validation_data=(xv, yv),
              callbacks=callbacks, **kwargs)
    return h


def names():
    return sorted(os.listdir(d))


print("-- EarlyStopping")
m = model(rate=0.9)
es = keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, verbose=1, restore_best_weights=True)
h = fit(m, [es], epochs=12)
print(len(h.history["loss"]), es.stopped_epoch, es.best_epoch, round(es.best, 4), es.wait)
print("restored", np.allclose(m.evaluate(xv, yv, verbose=0), es.best, atol=1e-5))
es2 = keras.callbacks.EarlyStopping(monitor="loss", patience=2, baseline=0.0001, verbose=1)
h = fit(model(), [es2], epochs=8)
print(len(h.history["loss"]), es2.stopped_epoch)
es3 = keras.callbacks.EarlyStopping(monitor="val_mae", patience=0, min_delta=10, verbose=1, start_from_epoch=2)
h = fit(model(metrics=["mae"]), [es3], epochs=8)
print(len(h.history["loss"]), es3.stopped_epoch)

print("-- ModelCheckpoint")
ck = keras.callbacks.ModelCheckpoint("m-{epoch:02d}-{val_loss:.2f}.keras", save_best_only=True,
                                     verbose=1)
fit(model(rate=0.9), [ck], epochs=4)
print(names())
ckw = keras.callbacks.ModelCheckpoint("w/e{epoch}.weights.h5", save_weights_only=True, verbose=1)
fit(model(), [ckw], epochs=2)
print(sorted(os.listdir(os.path.join(d, "w"))))
ckb = keras.callbacks.ModelCheckpoint("b/e{epoch}-b{batch}.keras", save_freq=3)
fit(model(), [ckb], epochs=2)
print(sorted(os.listdir(os.path.join(d, "b"))))
cka = keras.callbacks.ModelCheckpoint("a.keras", monitor="val_binary_accuracy",
                                      save_best_only=True, verbose=1)
fit(model(metrics=["binary_accuracy"]), [cka], epochs=2)
print(cka.monitor_op.__name__ if hasattr(cka.monitor_op, "__name__") else cka.monitor_op)
for kwargs in ({"filepath": "x.h5", "save_weights_only": True}, {"filepath": "x.weights"},
               {"filepath": "x.keras", "save_freq": "batch"}):
    try:
        keras.callbacks.ModelCheckpoint(**kwargs)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    fit(model(), [keras.callbacks.ModelCheckpoint("{nope}.keras")], epochs=1)
except KeyError as e:
    print(type(e).__name__, e)
try:
    fit(model(metrics=["mae"]), [keras.callbacks.ModelCheckpoint(os.path.join(d, "q.keras"), monitor="val_thing",
                                                                 save_best_only=True)], epochs=1)
except ValueError as e:
    print(type(e).__name__, e)

print("-- ReduceLROnPlateau")
m = model(rate=0.9)
rl = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=1, verbose=1, min_lr=0.2)
h = fit(m, [rl], epochs=8)
print(sorted(h.history), [round(v, 4) for v in h.history["learning_rate"]])
try:
    keras.callbacks.ReduceLROnPlateau(factor=1.0)
except ValueError as e:
    print(type(e).__name__, e)

print("-- CSVLogger")
path = os.path.join(d, "log.csv")
fit(model(metrics=["mae"]), [keras.callbacks.CSVLogger(path)], epochs=2)
with open(path) as f:
    rows = f.read().splitlines()
print(rows[0])
print([len(r.split(",")) for r in rows], [r.split(",")[0] for r in rows])
fit(model(), [keras.callbacks.CSVLogger(path, separator=";", append=True)], epochs=1)
with open(path) as f:
    rows = f.read().splitlines()
print(len(rows), rows[-1].count(";"))

print("-- TerminateOnNaN")
bad = y.copy()
bad[5] = np.nan
m = model()
h = m.fit(x, bad, batch_size=4, epochs=3, verbose=0, shuffle=False, callbacks=[keras.callbacks.TerminateOnNaN()])
print(len(h.history["loss"]), h.history["loss"])
try:
    model().fit(x, bad, batch_size=4, epochs=1, verbose=0, shuffle=False,
                callbacks=[keras.callbacks.TerminateOnNaN(raise_error=True)])
except RuntimeError as e:
    print(type(e).__name__, e)

print("-- LambdaCallback")
seen = []
cb = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))),
                                    on_train_begin=lambda logs: seen.append("begin"),
                                    on_train_batch_end=lambda batch, logs: seen.append(batch), note="kept")
fit(model(), [cb], epochs=2)
print(seen, cb.note)

print("-- BackupAndRestore")
backup = os.path.join(d, "backup")


class Interrupt(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 1:
            raise RuntimeError("interrupted")


m = model()
try:
    fit(m, [keras.callbacks.BackupAndRestore(backup), Interrupt()], epochs=4)
except RuntimeError as e:
    print(e, sorted(os.listdir(backup)))
h = fit(m, [keras.callbacks.BackupAndRestore(backup)], epochs=4)
print(len(h.history["loss"]), h.epoch, os.path.exists(backup))
try:
    keras.callbacks.BackupAndRestore("")
except ValueError as e:
    print(type(e).__name__, e)

print("-- CallbackList")
cl = keras.callbacks.CallbackList([keras.callbacks.Callback()], add_history=True, add_progbar=True, model=m,
                                  epochs=1, verbose=0, steps=1)
print([type(c).__name__ for c in cl.callbacks])
